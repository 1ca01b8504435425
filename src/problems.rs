//! Classic exact-cover problems built in code: Knuth's small example, n queens, Langford pairs,
//! pentomino and domino tilings.
//!
//! Each generator names its items the way Knuth does where he has a convention, so that the dlx
//! text they write (see [`crate::io::dlx`]) reads like his:
//!
//! | problem | primary items | secondary items | one option |
//! |---|---|---|---|
//! | [`queens`] | ranks `r0..`, files `c0..` | diagonals `a0..`, `b0..` | `r2 c5 a7 b4` |
//! | [`langford`] | values `1..n`, slots `s0..s(2n-1)` | none | `2 s0 s3` |
//! | [`pentominoes`] | pieces `F I L N P T U V W X Y Z`, cells `r.c` | none | `X 0.1 1.0 1.1 1.2 2.1` |
//! | [`dominoes`] | cells `r.c` | none | `0.0 0.1` |
//!
//! The Sudoku encoding lives with the Sudoku code, not here.

use crate::error::{ErrorKind, Result};
use crate::exact_cover::{Problem, ProblemBuilder};

/// The 7-item, 6-option example of Knuth's paper "Dancing Links" (2000).
///
/// Items `a` to `g`, all primary; options, in this order: `c e`, `a d g`, `b c f`, `a d f`,
/// `b g`, `d e g`. Its only solution is options 3, 4 and 0: `a d f`, `b g`, `c e`.
///
/// ```
/// use quadrille::problems::exact_cover_knuth_example;
///
/// let problem = exact_cover_knuth_example();
/// assert_eq!((problem.item_count(), problem.option_count()), (7, 6));
/// assert_eq!(problem.option_text(3), "a d f");
/// ```
pub fn exact_cover_knuth_example() -> Problem {
    let mut b = ProblemBuilder::new();
    for name in ["a", "b", "c", "d", "e", "f", "g"] {
        b.primary(name).expect("distinct valid names");
    }
    for option in ["c e", "a d g", "b c f", "a d f", "b g", "d e g"] {
        b.option_by_names(option.split(' '))
            .expect("declared items");
    }
    b.build().expect("a valid problem")
}

/// The n-queens problem: place `n` queens on an `n` x `n` board, none attacking another.
///
/// Rank `i` and file `j` (0-based) are the primary items `ri` and `cj`: each holds exactly one
/// queen. The diagonals are secondary, since most hold no queen: `a(i+j)` and `b(i-j+n-1)`, both
/// numbered from 0 to 2n-2 (Knuth's `a` and `b` diagonals, shifted so that no name is negative).
/// There is one option `ri cj a(i+j) b(i-j+n-1)` per square, in row-major order.
///
/// The primary items are declared in "organ-pipe" order, middle ranks and files first
/// (`r3 c3 r4 c4 r2 c2 ...` for n = 8), as Knuth does: when several items have the fewest
/// options, Algorithm X branches on the first, and central lines constrain the rest most.
///
/// The numbers of solutions for n = 1..=10 are 1, 0, 0, 2, 10, 4, 40, 92, 352, 724.
///
/// ```
/// use quadrille::problems::queens;
///
/// let problem = queens(8)?;
/// assert_eq!(problem.option_count(), 64);
/// assert_eq!(problem.item_name(0), "r3");
/// assert_eq!(problem.option_text(0), "r0 c0 a0 b7");
/// # Ok::<(), quadrille::Error>(())
/// ```
///
/// # Errors
/// For n = 0, a problem without primary items; for huge n, one too large for the engine.
pub fn queens(n: usize) -> Result<Problem> {
    queens_with(n, |_| true)
}

/// N queens encoded as in Knuth's "Dancing Links" (2000), whose table of search statistics it
/// reproduces (see [`Stats::knuth_updates`](crate::exact_cover::Stats::knuth_updates)): ranks
/// and files primary, in organ-pipe order as in [`queens`], the diagonals secondary, less the
/// four diagonals of one cell (the corners' `a0`, `a(2n-2)`, `b0`, `b(2n-2)`), which can never
/// be shared. The solutions are those of [`queens`].
///
/// ```
/// use quadrille::exact_cover::Dlx;
/// use quadrille::problems::{queens, queens_knuth};
///
/// let mut knuth = Dlx::new(&queens_knuth(6)?);
/// assert_eq!(knuth.count(None).stats.solutions, 4);
/// assert_eq!(Dlx::new(&queens(6)?).count(None).stats.solutions, 4);
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn queens_knuth(n: usize) -> Result<Problem> {
    // Diagonals s = 1 ..= 2n - 3 have two cells or more; the corners' (0 and 2n - 2) have one.
    queens_with(n, |s| s >= 1 && s + 3 <= 2 * n)
}

/// N queens with ranks and files primary in organ-pipe order and, secondary, the diagonals `s`
/// (of `2n - 1` each way: `a` by i + j, `b` by i - j + n - 1) for which `keep(s)` holds.
fn queens_with(n: usize, keep: impl Fn(usize) -> bool) -> Result<Problem> {
    let mut b = ProblemBuilder::new();
    let mut rank = vec![0; n];
    let mut file = vec![0; n];
    for line in organ_pipe(n) {
        rank[line] = b.primary(&format!("r{line}"))?;
        file[line] = b.primary(&format!("c{line}"))?;
    }
    let diagonals = (2 * n).saturating_sub(1);
    let mut secondary = |name: char| -> Result<Vec<Option<usize>>> {
        (0..diagonals)
            .map(|s| {
                keep(s)
                    .then(|| b.secondary(&format!("{name}{s}")))
                    .transpose()
            })
            .collect()
    };
    let a = secondary('a')?;
    let d = secondary('b')?;
    for i in 0..n {
        for j in 0..n {
            let diagonals = [a[i + j], d[i + n - 1 - j]].into_iter().flatten();
            b.option([rank[i], file[j]].into_iter().chain(diagonals))?;
        }
    }
    b.build()
}

/// 0..n from the middle out: (n-1)/2, then one above, one below, two above, ...
fn organ_pipe(n: usize) -> impl Iterator<Item = usize> {
    let mid = n.saturating_sub(1) / 2;
    (0..n).map(move |k| {
        let step = k.div_ceil(2);
        if k % 2 == 1 { mid + step } else { mid - step }
    })
}

/// Langford pairs: arrange two copies of each of 1..=n in 2n slots so that the two k's have
/// exactly k other numbers between them.
///
/// The values `1..n` and the slots `s0..s(2n-1)` are all primary. For each value k and each
/// slot i with i + k + 1 < 2n there is the option `k si s(i+k+1)`, by value, then slot.
///
/// Counting each arrangement and its reversal separately, n = 3 and 4 have 2 solutions each,
/// n = 5 and 6 none, n = 7 has 52 and n = 8 has 300.
///
/// ```
/// use quadrille::problems::langford;
///
/// let problem = langford(3)?;
/// assert_eq!(problem.item_count(), 3 + 6);
/// assert_eq!(problem.option_text(0), "1 s0 s2");
/// assert_eq!(problem.option_count(), 4 + 3 + 2);
/// # Ok::<(), quadrille::Error>(())
/// ```
///
/// # Errors
/// For n = 0, a problem without primary items; for huge n, one too large for the engine.
pub fn langford(n: usize) -> Result<Problem> {
    let mut b = ProblemBuilder::new();
    let values: Vec<usize> = (1..=n)
        .map(|k| b.primary(&k.to_string()))
        .collect::<Result<_>>()?;
    let slots: Vec<usize> = (0..2 * n)
        .map(|i| b.primary(&format!("s{i}")))
        .collect::<Result<_>>()?;
    for (k, &value) in (1..=n).zip(&values) {
        for i in 0..(2 * n).saturating_sub(k + 1) {
            b.option([value, slots[i], slots[i + k + 1]])?;
        }
    }
    b.build()
}

/// The twelve pentominoes, named as by Golomb and Conway: each as five (row, column) cells of
/// one orientation; [`orientations`] makes the others.
pub const PENTOMINOES: [(char, [(usize, usize); 5]); 12] = [
    ('F', [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ('I', [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]),
    ('L', [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]),
    ('N', [(0, 1), (1, 1), (2, 0), (2, 1), (3, 0)]),
    ('P', [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ('T', [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ('U', [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ('V', [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ('W', [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ('X', [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ('Y', [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)]),
    ('Z', [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// The distinct orientations (rotations and reflections) of a piece, each moved to touch row 0
/// and column 0 and sorted row-major, in a fixed order.
///
/// ```
/// use quadrille::problems::{orientations, PENTOMINOES};
///
/// let counts: Vec<usize> = PENTOMINOES.iter().map(|(_, cells)| orientations(cells).len()).collect();
/// assert_eq!(counts, [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
/// ```
pub fn orientations(cells: &[(usize, usize)]) -> Vec<Vec<(usize, usize)>> {
    let mut seen: Vec<Vec<(usize, usize)>> = Vec::new();
    // The eight symmetries of the square: optionally transpose, then optionally mirror each axis.
    for transpose in [false, true] {
        for flip_rows in [false, true] {
            for flip_cols in [false, true] {
                let moved: Vec<(isize, isize)> = cells
                    .iter()
                    .map(|&(r, c)| {
                        let (r, c) = if transpose { (c, r) } else { (r, c) };
                        let r = if flip_rows { -(r as isize) } else { r as isize };
                        let c = if flip_cols { -(c as isize) } else { c as isize };
                        (r, c)
                    })
                    .collect();
                let top = moved.iter().map(|p| p.0).min().unwrap_or(0);
                let left = moved.iter().map(|p| p.1).min().unwrap_or(0);
                let mut shape: Vec<(usize, usize)> = moved
                    .iter()
                    .map(|&(r, c)| ((r - top) as usize, (c - left) as usize))
                    .collect();
                shape.sort_unstable();
                if !seen.contains(&shape) {
                    seen.push(shape);
                }
            }
        }
    }
    seen
}

/// Tiling a `rows` x `cols` board (60 cells) with the twelve pentominoes, each used once.
///
/// Items, all primary: the twelve piece names `F I L N P T U V W X Y Z`, then the cells, named
/// `r.c` (0-based row and column, row-major). Options: every placement of every piece in every
/// distinct orientation, by piece, then orientation (as [`orientations`] lists them), then
/// position (row-major); each option is the piece name followed by its five cells, row-major.
///
/// Counting rotations and reflections of a tiling separately, 6x10 has 9356 tilings, 5x12 4040,
/// 4x15 1472 and 3x20 8. The 6x10 problem has 72 items and 2056 options.
///
/// ```
/// use quadrille::problems::pentominoes;
///
/// let problem = pentominoes(6, 10)?;
/// assert_eq!((problem.item_count(), problem.option_count()), (72, 2056));
/// assert_eq!(problem.option_text(0), "F 0.1 0.2 1.0 1.1 2.1");
/// assert!(pentominoes(8, 8).is_err());
/// # Ok::<(), quadrille::Error>(())
/// ```
///
/// # Errors
/// If the board does not have exactly 60 cells.
pub fn pentominoes(rows: usize, cols: usize) -> Result<Problem> {
    if rows.checked_mul(cols) != Some(60) {
        return Err(ErrorKind::PentominoBoard { rows, cols }.into());
    }
    let mut b = ProblemBuilder::new();
    let pieces: Vec<usize> = PENTOMINOES
        .iter()
        .map(|(name, _)| b.primary(&name.to_string()))
        .collect::<Result<_>>()?;
    let mut cell = vec![0; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            cell[r * cols + c] = b.primary(&format!("{r}.{c}"))?;
        }
    }
    for (&piece, (_, cells)) in pieces.iter().zip(&PENTOMINOES) {
        for shape in orientations(cells) {
            let height = shape.iter().map(|p| p.0).max().unwrap_or(0) + 1;
            let width = shape.iter().map(|p| p.1).max().unwrap_or(0) + 1;
            if height > rows || width > cols {
                continue;
            }
            for top in 0..=rows - height {
                for left in 0..=cols - width {
                    let placed = shape
                        .iter()
                        .map(|&(r, c)| cell[(top + r) * cols + left + c]);
                    b.option(std::iter::once(piece).chain(placed))?;
                }
            }
        }
    }
    b.build()
}

/// Tilings of a `rows` x `cols` board by dominoes: one primary item per cell, `r.c`, and one
/// option per domino placed, its two cells (horizontal ones first, row by row). The counts are
/// OEIS A099390 (A004003 for square boards): 12,988,816 for 8x8.
///
/// ```
/// use quadrille::problems::dominoes;
///
/// let problem = dominoes(2, 3)?;
/// assert_eq!((problem.item_count(), problem.option_count()), (6, 7));
/// assert_eq!(problem.option_text(0), "0.0 0.1");
/// # Ok::<(), quadrille::Error>(())
/// ```
///
/// # Errors
/// For an empty board, a problem without items; for a huge one, one too large for the engine.
pub fn dominoes(rows: usize, cols: usize) -> Result<Problem> {
    let mut b = ProblemBuilder::new();
    let mut cell = Vec::with_capacity(rows.saturating_mul(cols));
    for r in 0..rows {
        for c in 0..cols {
            cell.push(b.primary(&format!("{r}.{c}"))?);
        }
    }
    for r in 0..rows {
        for c in 1..cols {
            b.option([cell[r * cols + c - 1], cell[r * cols + c]])?;
        }
    }
    for r in 1..rows {
        for c in 0..cols {
            b.option([cell[(r - 1) * cols + c], cell[r * cols + c]])?;
        }
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact_cover::ItemKind;
    use crate::io::dlx::{parse_problem, write_problem_with_comment};

    /// Counts solutions by plain backtracking over sets, without dancing links: a slow,
    /// independent oracle for small problems (the engine is tested elsewhere).
    fn count_solutions(p: &Problem) -> usize {
        let mut uses: Vec<Vec<usize>> = vec![Vec::new(); p.item_count()];
        for (k, option) in p.options().enumerate() {
            for &item in option {
                uses[item].push(k);
            }
        }
        fn search(p: &Problem, uses: &[Vec<usize>], covered: &mut [bool]) -> usize {
            let fits = |k: usize, covered: &[bool]| p.option(k).iter().all(|&i| !covered[i]);
            // Branch on the uncovered primary item with the fewest fitting options.
            let best = (0..p.item_count())
                .filter(|&i| p.item_kind(i) == ItemKind::Primary && !covered[i])
                .min_by_key(|&i| uses[i].iter().filter(|&&k| fits(k, covered)).count());
            let Some(item) = best else { return 1 };
            let mut count = 0;
            for &k in &uses[item] {
                if fits(k, covered) {
                    p.option(k).iter().for_each(|&i| covered[i] = true);
                    count += search(p, uses, covered);
                    p.option(k).iter().for_each(|&i| covered[i] = false);
                }
            }
            count
        }
        search(p, &uses, &mut vec![false; p.item_count()])
    }

    #[test]
    fn knuth_example_has_its_options_and_one_solution() {
        let p = exact_cover_knuth_example();
        assert_eq!((p.item_count(), p.primary_count()), (7, 7));
        let options: Vec<String> = (0..p.option_count()).map(|k| p.option_text(k)).collect();
        assert_eq!(options, ["c e", "a d g", "b c f", "a d f", "b g", "d e g"]);
        assert_eq!(count_solutions(&p), 1);
    }

    #[test]
    fn queens_structure() {
        let p = queens(8).unwrap();
        assert_eq!((p.item_count(), p.primary_count()), (16 + 30, 16));
        assert_eq!(p.option_count(), 64);
        assert_eq!(p.node_count(), 4 * 64);
        let order: Vec<&str> = (0..16).map(|i| p.item_name(i)).collect();
        assert_eq!(
            order,
            [
                "r3", "c3", "r4", "c4", "r2", "c2", "r5", "c5", "r1", "c1", "r6", "c6", "r0", "c0",
                "r7", "c7"
            ]
        );
        assert_eq!(p.item_name(16), "a0");
        assert_eq!(p.item_name(16 + 15), "b0");
        assert_eq!(p.item_kind(16), ItemKind::Secondary);
        // Square (2, 5): diagonals 2+5 and 2-5+7.
        assert_eq!(p.option_text(2 * 8 + 5), "r2 c5 a7 b4");
        assert_eq!(p.option_text(63), "r7 c7 a14 b7");
        assert!(queens(0).is_err());
        let one = queens(1).unwrap();
        assert_eq!(one.option_text(0), "r0 c0 a0 b0");
    }

    #[test]
    fn queens_known_counts_by_brute_force() {
        let counts: Vec<usize> = (1..=7)
            .map(|n| count_solutions(&queens(n).unwrap()))
            .collect();
        assert_eq!(counts, [1, 0, 0, 2, 10, 4, 40]);
    }

    #[test]
    fn langford_structure() {
        let n = 7;
        let p = langford(n).unwrap();
        assert_eq!((p.item_count(), p.primary_count()), (n + 2 * n, n + 2 * n));
        // Independently: every pair of slots i < j is one option, for the value j - i - 1.
        let mut pairs = 0;
        for i in 0..2 * n {
            for j in i + 1..2 * n {
                if (1..=n).contains(&(j - i - 1)) {
                    pairs += 1;
                }
            }
        }
        assert_eq!(p.option_count(), pairs);
        assert_eq!(pairs, 63);
        assert_eq!(p.option_text(0), "1 s0 s2");
        assert_eq!(p.option_text(p.option_count() - 1), "7 s5 s13");
        assert!(langford(0).is_err());
    }

    #[test]
    fn langford_known_counts_by_brute_force() {
        let counts: Vec<usize> = (3..=7)
            .map(|n| count_solutions(&langford(n).unwrap()))
            .collect();
        assert_eq!(counts, [2, 2, 0, 0, 52]);
    }

    #[test]
    fn pentomino_orientations() {
        let counts: Vec<(char, usize)> = PENTOMINOES
            .iter()
            .map(|(name, cells)| (*name, orientations(cells).len()))
            .collect();
        let expected = [
            ('F', 8),
            ('I', 2),
            ('L', 8),
            ('N', 8),
            ('P', 8),
            ('T', 4),
            ('U', 4),
            ('V', 4),
            ('W', 4),
            ('X', 1),
            ('Y', 8),
            ('Z', 4),
        ];
        assert_eq!(counts, expected);
        // Every orientation is five distinct cells touching row 0 and column 0, connected.
        for (_, cells) in &PENTOMINOES {
            for shape in orientations(cells) {
                assert_eq!(shape.len(), 5);
                assert!(shape.windows(2).all(|w| w[0] < w[1]));
                assert!(shape.iter().any(|p| p.0 == 0) && shape.iter().any(|p| p.1 == 0));
                let mut reached = vec![shape[0]];
                while let Some(&next) = shape.iter().find(|&&q| {
                    !reached.contains(&q)
                        && reached
                            .iter()
                            .any(|&r| r.0.abs_diff(q.0) + r.1.abs_diff(q.1) == 1)
                }) {
                    reached.push(next);
                }
                assert_eq!(reached.len(), 5, "{shape:?} is not connected");
            }
        }
    }

    /// The option count worked out by hand from each piece's orientations and bounding box:
    /// an h x w orientation fits in (rows-h+1)(cols-w+1) places.
    fn options_by_bounding_boxes(rows: usize, cols: usize) -> usize {
        // (orientations of size a x b, orientations of size b x a) per piece.
        let boxes: [((usize, usize), usize, usize); 12] = [
            ((3, 3), 8, 0), // F
            ((1, 5), 1, 1), // I
            ((2, 4), 4, 4), // L
            ((2, 4), 4, 4), // N
            ((2, 3), 4, 4), // P
            ((3, 3), 4, 0), // T
            ((2, 3), 2, 2), // U
            ((3, 3), 4, 0), // V
            ((3, 3), 4, 0), // W
            ((3, 3), 1, 0), // X
            ((2, 4), 4, 4), // Y
            ((3, 3), 4, 0), // Z
        ];
        let fits = |h: usize, w: usize| (rows + 1).saturating_sub(h) * (cols + 1).saturating_sub(w);
        boxes
            .iter()
            .map(|&((a, b), one, other)| one * fits(a, b) + other * fits(b, a))
            .sum()
    }

    #[test]
    fn pentomino_structure() {
        let p = pentominoes(6, 10).unwrap();
        assert_eq!((p.item_count(), p.primary_count()), (72, 72));
        assert_eq!(p.option_count(), 2056);
        assert_eq!(options_by_bounding_boxes(6, 10), 2056);
        assert_eq!(p.node_count(), 6 * 2056);
        assert_eq!(p.item_name(11), "Z");
        assert_eq!(p.item_name(12), "0.0");
        assert_eq!(p.item_name(71), "5.9");
        // X fits with its centre anywhere off the border: 4 x 8 places.
        let x = p.options().filter(|o| p.item_name(o[0]) == "X").count();
        assert_eq!(x, 32);
        let x_option = (0..p.option_count())
            .find(|&k| p.item_name(p.option(k)[0]) == "X")
            .unwrap();
        assert_eq!(p.option_text(x_option), "X 0.1 1.0 1.1 1.2 2.1");
        for (rows, cols) in [(5, 12), (4, 15), (3, 20), (10, 6), (2, 30)] {
            let p = pentominoes(rows, cols).unwrap();
            assert_eq!(
                p.option_count(),
                options_by_bounding_boxes(rows, cols),
                "{rows}x{cols}"
            );
        }
        for (rows, cols) in [(8, 8), (0, 60), (usize::MAX, 2)] {
            let err = pentominoes(rows, cols).unwrap_err();
            assert!(matches!(err.kind(), ErrorKind::PentominoBoard { .. }));
        }
    }

    #[test]
    fn pentominoes_3x20_has_8_tilings_by_brute_force() {
        assert_eq!(count_solutions(&pentominoes(3, 20).unwrap()), 8);
    }

    /// A fixture made by a generator: its file, what it is, and how to build it.
    struct Fixture {
        file: &'static str,
        comment: &'static str,
        build: fn() -> Problem,
    }

    const FIXTURES: [Fixture; 7] = [
        Fixture {
            file: "knuth_example.dlx",
            comment: "The 7-item, 6-option exact-cover example of Knuth's paper \"Dancing Links\" (2000).\n\
                      Made by quadrille::problems::exact_cover_knuth_example().\n\
                      Known: 1 solution (a d f; b g; c e).",
            build: exact_cover_knuth_example,
        },
        Fixture {
            file: "queens6.dlx",
            comment: "6 queens: ranks r0..r5 and files c0..c5 primary (middle first), diagonals\n\
                      a0..a10 (i+j) and b0..b10 (i-j+5) secondary. Made by quadrille::problems::queens(6).\n\
                      Known: 4 solutions.",
            build: || queens(6).unwrap(),
        },
        Fixture {
            file: "queens8.dlx",
            comment: "8 queens: ranks r0..r7 and files c0..c7 primary (middle first), diagonals\n\
                      a0..a14 (i+j) and b0..b14 (i-j+7) secondary. Made by quadrille::problems::queens(8).\n\
                      Known: 92 solutions.",
            build: || queens(8).unwrap(),
        },
        Fixture {
            file: "queens8_knuth.dlx",
            comment: "8 queens as in Knuth's \"Dancing Links\" (2000): ranks and files primary (middle first),\n\
                      diagonals a1..a13 and b1..b13 secondary (the four one-cell ones left out).\n\
                      Made by quadrille::problems::queens_knuth(8).\n\
                      Known: 92 solutions; the paper's statistics: 1,049 nodes, 16,680 updates.",
            build: || queens_knuth(8).unwrap(),
        },
        Fixture {
            file: "langford7.dlx",
            comment: "Langford pairs for n = 7: values 1..7 and slots s0..s13, option 'k si s(i+k+1)'.\n\
                      Made by quadrille::problems::langford(7).\n\
                      Known: 52 solutions (26 arrangements and their reversals).",
            build: || langford(7).unwrap(),
        },
        Fixture {
            file: "pentominoes_3x20.dlx",
            comment: "The twelve pentominoes on a 3x20 board: pieces F..Z, cells r.c, every placement.\n\
                      Made by quadrille::problems::pentominoes(3, 20).\n\
                      Known: 8 solutions (2 tilings, times 4 rotations/reflections).",
            build: || pentominoes(3, 20).unwrap(),
        },
        Fixture {
            file: "pentominoes_6x10.dlx",
            comment: "The twelve pentominoes on a 6x10 board: pieces F..Z, cells r.c, 2056 placements.\n\
                      Made by quadrille::problems::pentominoes(6, 10).\n\
                      Known: 9356 solutions (2339 tilings, times 4 rotations/reflections).",
            build: || pentominoes(6, 10).unwrap(),
        },
    ];

    fn fixture_path(file: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(file)
    }

    /// The domino boards of the fixtures, with their counts of tilings (OEIS A004003).
    const DOMINO_FIXTURES: [(usize, &str); 3] = [
        (8, "12988816"),
        (12, "53060477521960000"),
        (16, "2444888770250892795802079170816"),
    ];

    /// Regenerate with `QUADRILLE_BLESS=1 cargo test --lib fixtures_are_what_the_generators_build`.
    #[test]
    fn fixtures_are_what_the_generators_build() {
        for fixture in &FIXTURES {
            check_fixture(fixture.file, fixture.comment, (fixture.build)());
        }
        for (side, known) in DOMINO_FIXTURES {
            let comment = format!(
                "Domino tilings of the {side}x{side} board: cells r.c, one option per domino placed.\n\
                 Made by quadrille::problems::dominoes({side}, {side}).\n\
                 Known: {known} tilings (OEIS A004003)."
            );
            let file = format!("dominoes_{side}x{side}.dlx");
            check_fixture(&file, &comment, dominoes(side, side).unwrap());
        }
    }

    /// Checks that fixture `file` starts with `comment` and reads as `problem`; writes it first
    /// with `QUADRILLE_BLESS=1`.
    fn check_fixture(file: &str, comment: &str, problem: Problem) {
        let path = fixture_path(file);
        if std::env::var("QUADRILLE_BLESS").is_ok_and(|v| v == "1") {
            let out = std::fs::File::create(&path).unwrap();
            write_problem_with_comment(&problem, comment, out).unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap_or_else(|err| {
            panic!(
                "{}: {err}; regenerate with QUADRILLE_BLESS=1",
                path.display()
            )
        });
        let comment: String = comment.lines().map(|l| format!("| {l}\n")).collect();
        assert!(text.starts_with(&comment), "{file}: comment drifted");
        let read = parse_problem(&text).unwrap().into_problem();
        assert!(
            read == problem,
            "{file} differs from its generator; regenerate with QUADRILLE_BLESS=1"
        );
    }

    #[test]
    fn hand_written_fixture_reads_as_documented() {
        let text = std::fs::read_to_string(fixture_path("secondary_hand.dlx")).unwrap();
        let dlx = parse_problem(&text).unwrap();
        let p = dlx.problem();
        let names: Vec<&str> = (0..p.item_count()).map(|i| p.item_name(i)).collect();
        assert_eq!(names, ["p", "q", "r", "x", "y"]);
        assert_eq!(p.primary_count(), 3);
        let options: Vec<String> = (0..p.option_count()).map(|k| p.option_text(k)).collect();
        assert_eq!(options, ["p x", "q x", "p q", "r", "r y", "q y"]);
        assert_eq!(dlx.option_lines(), &[10, 11, 12, 14, 15, 17]);
        assert_eq!(count_solutions(p), 3);
    }
}
