//! Classic exact-cover problems built in code: Knuth's small example, n queens, Langford pairs
//! and pentomino tilings.
//!
//! Each generator names its items the way Knuth does where he has a convention, so that the dlx
//! text they write (see [`crate::io::dlx`]) reads like his:
//!
//! | problem | primary items | secondary items | one option |
//! |---|---|---|---|
//! | [`queens`] | ranks `r0..`, files `c0..` | diagonals `a0..`, `b0..` | `r2 c5 a7 b4` |
//! | [`langford`] | values `1..n`, slots `s0..s(2n-1)` | none | `2 s0 s3` |
//! | [`pentominoes`] | pieces `F I L N P T U V W X Y Z`, cells `r.c` | none | `X 0.1 1.0 1.1 1.2 2.1` |
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
    let mut b = ProblemBuilder::new();
    let mut rank = vec![0; n];
    let mut file = vec![0; n];
    for line in organ_pipe(n) {
        rank[line] = b.primary(&format!("r{line}"))?;
        file[line] = b.primary(&format!("c{line}"))?;
    }
    let diagonals = (2 * n).saturating_sub(1);
    let a: Vec<usize> = (0..diagonals)
        .map(|s| b.secondary(&format!("a{s}")))
        .collect::<Result<_>>()?;
    let d: Vec<usize> = (0..diagonals)
        .map(|s| b.secondary(&format!("b{s}")))
        .collect::<Result<_>>()?;
    for i in 0..n {
        for j in 0..n {
            b.option([rank[i], file[j], a[i + j], d[i + n - 1 - j]])?;
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
                    let placed = shape.iter().map(|&(r, c)| cell[(top + r) * cols + left + c]);
                    b.option(std::iter::once(piece).chain(placed))?;
                }
            }
        }
    }
    b.build()
}
