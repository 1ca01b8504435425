//! Random complete grids and puzzles from a seed.
//!
//! The full grids come from the Sudoku pattern below, which knows the boxes; everything after
//! it reads the board: uniqueness is checked by a solver of the board (see [`Order`]), and the
//! contradictions are built from the board's groups.
//!
//! Everything here is reproducible: the same shape and seed give the same grid on every
//! platform, because the generator is `rand_pcg::Pcg64` seeded with `seed_from_u64` and only
//! portable `rand` operations (`shuffle`, `random_range` on `usize`, `random_bool`) are used.
//!
//! **Sudoku shapes: the pattern method, and why it is not uniform.** [`random_grid`] starts
//! from the pattern solution `value(row, col) = (c * (row % r) + row / r + col) % n + 1` for
//! r x c boxes, which is valid for every shape, and then applies random symmetries that keep a
//! grid valid: relabelling the digits, permuting the rows inside each band and the bands
//! themselves, the columns inside each stack and the stacks themselves, and (only when boxes
//! are square) transposing. This is fast for every shape up to 64x64 and needs no search, but
//! it only reaches the grids equivalent to the pattern, a tiny and special part of all grids
//! (for 9x9, one of the 5,472,730,538 essentially different grids). Use it to make test inputs
//! of any size, not to sample grids.
//!
//! **Latin squares (1xN or Nx1 boxes): near-uniform, by Jacobson and Matthews.** When a box is
//! one row or one column the grid is a Latin square of order N, and the pattern above would
//! give only the squares isotopic to the cyclic one (at order 4, 432 of the 576; at order 20,
//! a vanishing fraction). So these shapes start from that pattern and run the Markov chain of
//! Jacobson and Matthews (1996) for N^3 moves, whose proper states converge to the uniform
//! distribution over all Latin squares (see `generate/latin.rs` for the chain, its O(N) moves
//! and the choice of N^3). [`random_puzzle`] on these shapes gives the "quasigroup with holes"
//! completion problems of the heavy-tail literature (Gomes, Selman et al.): a near-uniform
//! square with cells blanked at random, so always solvable.
//!
//! [`unique_puzzle`] blanks cells of a random grid while the puzzle keeps exactly one solution,
//! and [`generate_to_order`] does so orbit by orbit of a [`Symmetry`], to a [`Minimality`],
//! until a judge accepts the puzzle (the `order` module);
//! [`random_puzzle`] blanks cells at random with no uniqueness guarantee, and [`random_contradictory`] builds puzzles that are
//! well formed but certainly unsolvable.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use crate::board::{Board, Cell};
use crate::error::{Error, ErrorKind, Result};
use crate::sudoku::{Grid, Shape};

mod candidates;
mod latin;
mod order;
mod progress;
mod strict;
mod symmetry;
mod uniform;
mod uniqueness;

pub use order::{
    Generated, Generator, Minimality, Order, generate_to_order, rated_within, rated_within_on,
};
pub use progress::{Progress, ProgressSnapshot};
pub use symmetry::Symmetry;
pub use uniform::UniformGrids;
pub use uniqueness::CheckStats;

/// A random valid full grid of the given shape, reproducible from the seed (see the module
/// docs): for Sudoku shapes a random symmetry of a pattern, not uniform over all grids; for
/// Latin-square shapes (1xN, Nx1) a near-uniform Latin square by Jacobson and Matthews' chain.
///
/// ```
/// use quadrille::generate::random_grid;
/// use quadrille::sudoku::{Grid, Shape, check::check_solution};
///
/// let shape = Shape::new(3, 4)?;
/// let grid = random_grid(shape, 7);
/// assert!(check_solution(&Grid::empty(shape), &grid).is_ok());
/// assert_eq!(grid, random_grid(shape, 7));
///
/// // A Latin square of order 12: every row and column holds 1..=12 once.
/// let latin = Shape::new(1, 12)?;
/// let square = random_grid(latin, 7);
/// assert!(check_solution(&Grid::empty(latin), &square).is_ok());
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn random_grid(shape: Shape, seed: u64) -> Grid {
    random_grid_with(shape, &mut Pcg64::seed_from_u64(seed))
}

/// The node budget of one uniqueness check in [`unique_puzzle`], per cell of the grid.
///
/// Checks have heavy tails: on random Latin squares of order 20 (400 cells) most take
/// thousands of nodes, but without a budget a few near the end took 10^7 to 10^8, so that a
/// puzzle took from 0.2 s to 32 s (seeds 1 to 8). Restarts shortened the checks that have a
/// second solution, but on 25x25 most checks past the first half still end on the budget
/// (about 250 of some 340 removals), and they are nearly all the time: with 250 nodes per cell
/// a puzzle took 14 to 29 s (seeds 1 to 3), with 50 about 2.6 s, keeping about as many givens
/// (274 to 289 of 625 at 50, 271 to 285 at 250). 16x16 puzzles keep 2 more givens in 1,111
/// (12 puzzles, seed 1); small Sudoku checks stay far below the budget.
pub(crate) const UNIQUENESS_NODES_PER_CELL: u64 = 50;

/// The smallest node budget of a uniqueness check, whatever the grid's size: small grids' checks
/// stay below it, so their puzzles are minimal (300 puzzles each of 9x9 and 6x6 came out as
/// with 250 nodes per cell, and 299 of 300 12x12 ones; with 50 nodes per cell alone, 296).
pub(crate) const UNIQUENESS_MIN_NODES: u64 = 20_000;

/// The largest side whose uniqueness checks get `UNIQUENESS_NODES_PER_CELL` per cell; larger
/// grids' checks get `UNIQUENESS_LARGE_NODES`.
pub(crate) const UNIQUENESS_PER_CELL_UP_TO: usize = 25;

/// The node budget of one uniqueness check above 25x25. There nearly every check that runs out
/// would run out at any budget a puzzle can afford, while the checks grow with the cells and
/// each node costs more: 36x36 (seed 1) kept 668 givens with 64,800 nodes a check in 13.5 s,
/// 670 with 10,000 in 2.0 s, 680 with 5,000 in 1.2 s and 682 with 2,000 in 0.6 s; 49x49 kept
/// 1,352 with 5,000 in 4.2 s and 1,358 with 2,000 in 2.3 s (`generate --box 6x6 -n 1 --seed 1
/// -j 1 --stats --node-budget N`, on a loaded machine).
pub(crate) const UNIQUENESS_LARGE_NODES: u64 = 5_000;

/// A random puzzle with exactly one solution: a random full grid (the diagonal boxes filled at
/// random and completed, see [`Generator`]), then cells emptied one by one in a random order,
/// each kept empty only if the puzzle stays unique, until no more can go or only `min_givens`
/// are left: [`generate_to_order`] with [`Symmetry::None`] and one attempt. With `min_givens` 0 the result is
/// minimal (no given can be removed without losing uniqueness), except where a check ran out
/// of its node budget ([`Order::default_nodes`]: 50 per cell, at least 20,000, up to 25x25,
/// and 5,000 above, per search): that cell keeps its given, so
/// the puzzle is still certainly unique, just possibly not minimal.
///
/// ```
/// use quadrille::engine::{DlxSolver, Solve};
/// use quadrille::generate::unique_puzzle;
/// use quadrille::sudoku::Shape;
///
/// let shape = Shape::new(2, 3)?;
/// let puzzle = unique_puzzle(shape, 42, 0);
/// assert!(DlxSolver::sudoku(shape).is_unique(&puzzle));
/// assert_eq!(puzzle, unique_puzzle(shape, 42, 0)); // reproducible
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn unique_puzzle(shape: Shape, seed: u64, min_givens: usize) -> Grid {
    let order = Order {
        symmetry: Symmetry::None,
        min_givens,
        attempts: 1,
        ..Order::new(shape)
    };
    let (made, ()) = generate_to_order(&order, seed, |_| Some(()))
        .expect("one attempt without a judge or a time limit always gives a puzzle");
    made.puzzle
}

/// A random puzzle: [`random_grid`] with all but `givens` cells, chosen at random, emptied.
/// There is no guarantee of a unique solution. `givens` above n*n is taken as n*n.
///
/// ```
/// use quadrille::generate::random_puzzle;
/// use quadrille::sudoku::Shape;
///
/// let puzzle = random_puzzle(Shape::CLASSIC, 1, 30);
/// assert_eq!(puzzle.givens(), 30);
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn random_puzzle(shape: Shape, seed: u64, givens: usize) -> Grid {
    let mut rng = Pcg64::seed_from_u64(seed);
    let grid = random_grid_with(shape, &mut rng);
    keep_random_givens(grid, givens, &mut rng)
}

/// `grid` with all but `givens` cells, chosen at random, emptied.
fn keep_random_givens(mut grid: Grid, givens: usize, rng: &mut Pcg64) -> Grid {
    let mut order: Vec<usize> = (0..grid.cells().len()).collect();
    order.shuffle(rng);
    for &i in order.iter().skip(givens) {
        grid.cells_mut()[i] = 0;
    }
    grid
}

/// A puzzle that is well formed (no digit twice in a row, column or box) but has no solution,
/// certainly, by construction.
///
/// The construction, on the board's groups: take a random full grid, a cell X holding digit d,
/// X's first group G (its row) and a cell Y of X's second group (its column) outside G. Keep G
/// full except X, so that d is the only digit X could hold; write d in Y, and empty every cell
/// that holds d and shares a group with Y (X among them), so that nothing repeats. X then has
/// no candidate. The other cells are kept at random to reach `givens`. Because the
/// contradiction is a single empty cell, even a solver with no propagation finds it as soon as
/// it looks at X: this tests the "no solution" path, not how deep a search can go.
///
/// The result has at least n givens (G less X, and Y) and at most n*n - 3 (or n*n - 2 when two
/// of the emptied cells coincide), so `givens` is clamped to that range.
///
/// # Errors
/// [`ErrorKind::Unsatisfiable`] if n < 2: the 1x1 grid has no well-formed puzzle without a
/// solution.
///
/// ```
/// use quadrille::generate::random_contradictory;
/// use quadrille::sudoku::{Shape, check::conflicts};
///
/// let puzzle = random_contradictory(Shape::CLASSIC, 3, 25)?;
/// assert!(conflicts(&puzzle).is_ok());
/// assert_eq!(puzzle.givens(), 25);
/// assert!(random_contradictory(Shape::new(1, 1)?, 3, 0).is_err());
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn random_contradictory(shape: Shape, seed: u64, givens: usize) -> Result<Grid> {
    let n = shape.size();
    if n < 2 {
        return Err(Error::new(ErrorKind::Unsatisfiable {
            what: format!("a contradictory {n}x{n} puzzle"),
            reason: "every well-formed puzzle of one cell has a solution",
        }));
    }
    let mut rng = Pcg64::seed_from_u64(seed);
    let full = random_grid_with(shape, &mut rng);
    let (xr, xc) = (rng.random_range(0..n), rng.random_range(0..n));
    Ok(contradiction(
        shape.board(),
        &full,
        Cell::at(xr, xc, n),
        &mut rng,
        givens,
    ))
}

/// The construction of [`random_contradictory`] on `board`, from the full grid `full` and the
/// cell X.
fn contradiction(board: &Board, full: &Grid, x: Cell, rng: &mut Pcg64, givens: usize) -> Grid {
    let digit = |cell: Cell| full.digit(cell);
    let d = digit(x);
    let mut groups = board.groups_of(x);
    let (g, h) = (groups.next(), groups.next());
    let (g, h) = (
        board.group(g.expect("a Sudoku cell has a row")),
        board.group(h.expect("and a column")),
    );
    let outside: Vec<Cell> = (h.cells().iter())
        .copied()
        .filter(|c| !g.cells().contains(c))
        .collect();
    let y = outside[rng.random_range(0..outside.len())];
    // The full grid holds d once in each of Y's groups: those cells must go.
    let blank: Vec<Cell> = (board.groups_of(y))
        .filter_map(|k| {
            board
                .group(k)
                .cells()
                .iter()
                .copied()
                .find(|&c| digit(c) == d)
        })
        .collect();

    let mut grid = Grid::empty(full.shape());
    for &c in g.cells().iter().filter(|&&c| c != x) {
        grid.place(c, digit(c));
    }
    grid.place(y, d);
    let mut optional: Vec<Cell> = (board.cells())
        .filter(|c| !g.cells().contains(c) && *c != y && !blank.contains(c))
        .collect();
    optional.shuffle(rng);
    let extra = givens.saturating_sub(board.size());
    for &c in optional.iter().take(extra) {
        grid.place(c, digit(c));
    }
    grid
}

fn random_grid_with(shape: Shape, rng: &mut Pcg64) -> Grid {
    let start = pattern_grid(shape, rng);
    if shape.box_rows() > 1 && shape.box_cols() > 1 {
        return start;
    }
    // Boxes are rows or columns, so the grid is just a Latin square: mix it (0-based symbols).
    let n = shape.size();
    let square = start.cells().iter().map(|&d| d - 1).collect();
    let square = latin::mix(square, n, rng);
    let cells = square.into_iter().map(|s| s + 1).collect();
    Grid::from_cells(shape, cells).expect("the chain keeps n*n digits in 1..=n")
}

/// The pattern solution of `shape` under random symmetries (see the module docs).
fn pattern_grid(shape: Shape, rng: &mut Pcg64) -> Grid {
    let (r, c, n) = (shape.box_rows(), shape.box_cols(), shape.size());
    // A band is r rows (there are c bands); a stack is c columns (there are r stacks).
    let rows = shuffled_blocks(rng, c, r);
    let cols = shuffled_blocks(rng, r, c);
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    digits.shuffle(rng);
    let transpose = r == c && rng.random_bool(0.5);
    let pattern = |row: usize, col: usize| (c * (row % r) + row / r + col) % n;
    let mut grid = Grid::empty(shape);
    for row in 0..n {
        for col in 0..n {
            let (pr, pc) = if transpose { (col, row) } else { (row, col) };
            grid.set(row, col, digits[pattern(rows[pr], cols[pc])]);
        }
    }
    grid
}

/// A permutation of `0..blocks * width` that shuffles the blocks of `width` consecutive
/// indices and the indices inside each block.
fn shuffled_blocks(rng: &mut Pcg64, blocks: usize, width: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..blocks).collect();
    order.shuffle(rng);
    let mut out = Vec::with_capacity(blocks * width);
    for b in order {
        let mut inner: Vec<usize> = (b * width..(b + 1) * width).collect();
        inner.shuffle(rng);
        out.extend(inner);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::check::{check_solution, conflicts};

    const SHAPES: [(usize, usize); 8] = [
        (2, 2),
        (2, 3),
        (3, 2),
        (3, 3),
        (3, 4),
        (4, 4),
        (5, 5),
        (6, 6),
    ];

    fn shapes() -> impl Iterator<Item = Shape> {
        SHAPES.iter().map(|&(r, c)| Shape::new(r, c).unwrap())
    }

    #[test]
    fn random_grids_are_valid() {
        for shape in shapes() {
            for seed in 0..20 {
                let grid = random_grid(shape, seed);
                assert_eq!(grid.shape(), shape);
                if let Err(msg) = check_solution(&Grid::empty(shape), &grid) {
                    panic!("{shape} seed {seed}: {msg}\n{grid}");
                }
            }
        }
    }

    #[test]
    fn random_grids_are_reproducible_and_vary() {
        let shape = Shape::CLASSIC;
        assert_eq!(random_grid(shape, 5), random_grid(shape, 5));
        let distinct: std::collections::HashSet<Grid> =
            (0..20).map(|seed| random_grid(shape, seed)).collect();
        assert_eq!(distinct.len(), 20);
    }

    #[test]
    fn the_largest_shapes_work() {
        for (r, c) in [(8, 8), (1, 64), (7, 9)] {
            let shape = Shape::new(r, c).unwrap();
            let grid = random_grid(shape, 1);
            assert_eq!(check_solution(&Grid::empty(shape), &grid), Ok(()));
        }
    }

    #[test]
    fn random_puzzles_keep_givens_of_a_valid_grid() {
        for shape in shapes() {
            for seed in 0..5 {
                let givens = shape.cell_count() / 3;
                let puzzle = random_puzzle(shape, seed, givens);
                assert_eq!(puzzle.givens(), givens);
                assert!(conflicts(&puzzle).is_ok());
                // The givens are those of the grid made from the same seed.
                let full = random_grid(shape, seed);
                assert_eq!(check_solution(&puzzle, &full), Ok(()));
            }
        }
        let all = random_puzzle(Shape::CLASSIC, 0, 1000);
        assert!(all.is_full());
    }

    const LATIN_ORDERS: [usize; 7] = [1, 2, 3, 5, 10, 33, 64];

    #[test]
    fn latin_squares_are_latin_for_every_order() {
        for n in LATIN_ORDERS {
            for shape in [Shape::new(1, n).unwrap(), Shape::new(n, 1).unwrap()] {
                for seed in 0..5 {
                    let square = random_grid(shape, seed);
                    if let Err(msg) = check_solution(&Grid::empty(shape), &square) {
                        panic!("{shape} seed {seed}: {msg}\n{square}");
                    }
                }
            }
        }
    }

    #[test]
    fn latin_squares_are_reproducible_and_vary() {
        for n in LATIN_ORDERS {
            let shape = Shape::new(1, n).unwrap();
            assert_eq!(random_grid(shape, 9), random_grid(shape, 9), "order {n}");
            if n >= 5 {
                let distinct: std::collections::HashSet<Grid> =
                    (0..10).map(|seed| random_grid(shape, seed)).collect();
                assert_eq!(distinct.len(), 10, "order {n}");
            }
        }
    }

    /// How often each Latin square of order `n` comes out of `samples` seeds, after asserting
    /// that every one of the `squares` there are appears between `mean / low` and `2 * mean`
    /// times.
    fn latin_frequencies(
        n: usize,
        squares: usize,
        samples: u64,
        low: f64,
    ) -> std::collections::HashMap<Grid, u64> {
        let shape = Shape::new(1, n).unwrap();
        let mut seen: std::collections::HashMap<Grid, u64> = Default::default();
        for seed in 0..samples {
            *seen.entry(random_grid(shape, seed)).or_default() += 1;
        }
        assert_eq!(seen.len(), squares, "order {n}: squares seen");
        let mean = samples as f64 / squares as f64;
        let (min, max) = (seen.values().min().unwrap(), seen.values().max().unwrap());
        assert!(
            *min as f64 >= mean / low,
            "order {n}: rarest {min}, mean {mean}"
        );
        assert!(
            *max as f64 <= 2.0 * mean,
            "order {n}: commonest {max}, mean {mean}"
        );
        seen
    }

    /// The 2x2 Latin subsquares of a Latin square.
    fn intercalates(square: &Grid) -> usize {
        let n = square.size();
        let pairs = || (0..n).flat_map(move |a| (a + 1..n).map(move |b| (a, b)));
        pairs()
            .flat_map(|rows| pairs().map(move |cols| (rows, cols)))
            .filter(|&((r1, r2), (c1, c2))| {
                square.get(r1, c1) == square.get(r2, c2) && square.get(r1, c2) == square.get(r2, c1)
            })
            .count()
    }

    /// Order 3 has 12 Latin squares. 6,000 seeds: each count is Binomial(6000, 1/12), mean
    /// 500, if the sampler is uniform. Chernoff: P(X >= 2 mean) <= (e/4)^500 < 1e-80 and
    /// P(X <= mean/2) <= exp(-mean/8) < 1e-27, so with 12 squares a uniform sampler fails
    /// with probability below 1e-25. (All 12 are isotopic to the cyclic square, so this
    /// checks the chain's moves, not that it reaches more than the pattern.)
    #[test]
    fn latin_squares_of_order_3_are_uniform() {
        latin_frequencies(3, 12, 6_000, 2.0);
    }

    /// Order 4 has 576 Latin squares, 144 of them isotopic to the Klein group table, which
    /// the pattern alone never gives. 57,600 seeds: mean 100 per square. Chernoff:
    /// P(X >= 200) <= (e/4)^100 < 2e-17 and P(X <= 25) <= exp(-(3/4)^2 * 100 / 2) < 7e-13;
    /// over 576 squares a uniform sampler fails with probability below 1e-9.
    ///
    /// The Klein squares (12 intercalates; the cyclic class has 4) should be a quarter:
    /// 14,400 expected, and P(|X - mean| >= mean/10) <= 2 exp(-mean/300) < 1e-20. Taking the
    /// first proper square after a fixed number of moves instead gave 8.5% (see latin.rs).
    #[test]
    fn latin_squares_of_order_4_are_uniform() {
        let seen = latin_frequencies(4, 576, 57_600, 4.0);
        let klein: u64 = (seen.iter())
            .filter(|(square, _)| intercalates(square) == 12)
            .map(|(_, count)| count)
            .sum();
        assert!(
            (12_960..=15_840).contains(&klein),
            "Klein squares: {klein} of 57,600"
        );
        assert!(seen.keys().all(|s| [4, 12].contains(&intercalates(s))));
    }

    /// Independently of the construction: some empty cell sees every digit in its units.
    fn has_dead_cell(grid: &Grid) -> bool {
        let shape = grid.shape();
        let n = shape.size();
        (0..n * n).any(|i| {
            let (row, col) = (i / n, i % n);
            if grid.get(row, col) != 0 {
                return false;
            }
            let mut seen = vec![false; n + 1];
            for r in 0..n {
                for c in 0..n {
                    let peer = r == row || c == col || shape.box_of(r, c) == shape.box_of(row, col);
                    if peer {
                        seen[grid.get(r, c) as usize] = true;
                    }
                }
            }
            seen[1..].iter().all(|&s| s)
        })
    }

    #[test]
    fn random_contradictory_is_well_formed_and_dead() {
        for shape in shapes().chain([Shape::new(1, 4).unwrap()]) {
            let n = shape.size();
            for seed in 0..20 {
                for givens in [0, n, shape.cell_count() / 4, shape.cell_count()] {
                    let puzzle = random_contradictory(shape, seed, givens).unwrap();
                    assert!(conflicts(&puzzle).is_ok(), "{shape} seed {seed}: {puzzle}");
                    assert!(has_dead_cell(&puzzle), "{shape} seed {seed}: {puzzle}");
                    let cells = shape.cell_count();
                    let got = puzzle.givens();
                    if givens <= cells - 3 {
                        assert_eq!(got, givens.max(n), "{shape} seed {seed}");
                    } else {
                        // Two or three cells must stay empty (W may be X or Z).
                        assert!(got == cells - 3 || got == cells - 2, "{shape}: {got}");
                    }
                }
            }
        }
    }
}
