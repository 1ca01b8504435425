//! Random Latin squares by the Markov chain of Jacobson and Matthews (1996), "Generating
//! uniformly distributed random Latin squares", J. Combinatorial Designs 4(6).
//!
//! **The chain.** A Latin square of order n is an n x n x n *incidence cube* f of 0s and 1s,
//! f(row, col, symbol) = 1 where the square holds `symbol` at (row, col), in which every line
//! (two coordinates fixed, the third varying) sums to 1. Jacobson and Matthews also allow
//! *improper* cubes: every line still sums to 1, but exactly one cell holds -1. A move adds
//! +1 and -1 alternately on the eight corners of a sub-cube, which keeps every line sum:
//!
//! - from a proper cube, pick one of the n^2(n-1) cells (r, c, s) at 0 uniformly; s' is the
//!   symbol at (r, c), r' the row holding s in column c, c' the column holding s in row r;
//! - from an improper cube whose -1 is at (r, c, s), pick s' among the two symbols at +1 in
//!   (r, c), r' among the two rows holding s in column c, c' among the two columns holding s
//!   in row r, each by a fair coin (8 moves);
//! - then add 1 at (r, c, s), (r, c', s'), (r', c, s'), (r', c', s) and take 1 from
//!   (r, c, s'), (r, c', s), (r', c, s), (r', c', s'). The result is proper unless
//!   (r', c', s') was 0, which becomes the new -1.
//!
//! Every move is undone by exactly one move from the state it reaches, with the same
//! probability between two proper states (1/(n^2(n-1)) each way) and between two improper ones
//! (1/8), so detailed balance gives every proper square the same weight; Jacobson and Matthews
//! prove the moves connect all squares of an order, so restricted to proper states the chain
//! converges to the uniform distribution on Latin squares.
//!
//! **Representation.** The cube is never stored. In every state each cell (row, col) holds
//! exactly one symbol at +1, except, in an improper state, the cell of the -1, which holds two
//! symbols at +1 and one at -1. So the square of symbols plus that one cell's three symbols is
//! the whole cube: n^2 bytes instead of n^3, and a move finds its other corners by scanning one
//! row and one column, O(n) per move.
//!
//! **Which state to take.** Only the sequence of proper squares the chain visits is uniform
//! in the limit (Jacobson and Matthews' Theorem 4), so the sample is the k-th proper square
//! visited, k fixed. Taking instead the first proper square after a fixed number of *moves*
//! is biased: it picks a square with the probability that the excursion just before it
//! covers that time, and squares with many intercalates (2x2 Latin subsquares, which are
//! exactly the proper-to-proper moves) are reached after shorter excursions. Measured at order
//! 4 over 57,600 seeds: squares isotopic to the Klein group table, with 12 intercalates
//! against 4, came out 8.5% of the time instead of 25%; counting proper squares gives 25%.
//!
//! **How long to run.** No bound on the mixing time is proven. We start from a random isotope
//! of the cyclic square (rows, columns and symbols permuted) and take the n^2-th proper square.
//! The chain makes about n moves between proper squares (Jacobson and Matthews; measured here:
//! 9.2 at order 10, 31 at order 33, 65 at order 64), so that is about n^3 moves: the usual
//! practice since their paper, and the order of their bound 2(n-1)^3 on the distance between
//! any two cubes. The frequency tests in `generate.rs` find no bias at orders 3 and 4 (where
//! 16 proper squares already give the right class frequencies), and order 64 takes about
//! 20 ms.

use rand::RngExt;
use rand_pcg::Pcg64;

/// How many proper squares the chain visits before the last one is taken: n^2, about n^3
/// moves (see the module docs).
fn proper_visits(order: usize) -> u64 {
    (order as u64).pow(2)
}

/// The Latin square `square` of order `order` (symbols 0..n, row by row) moved by the chain
/// until it has visited [`proper_visits`] proper squares, the last of which is returned.
/// Order 1 has nothing to move.
pub(super) fn mix(square: Vec<u8>, order: usize, rng: &mut Pcg64) -> Vec<u8> {
    let mut cube = IncidenceCube::new(square, order);
    if order < 2 {
        return cube.square;
    }
    let mut visits = 0;
    while visits < proper_visits(order) {
        cube.step(rng);
        if cube.improper.is_none() {
            visits += 1;
        }
    }
    debug_assert!(cube.sanity());
    cube.square
}

/// The cell of the -1 in an improper cube, with its two symbols at +1.
#[derive(Clone, Copy, Debug)]
struct Improper {
    row: usize,
    col: usize,
    minus: u8,
    plus: [u8; 2],
}

/// The incidence cube kept implicitly: one symbol per cell, and the improper cell apart.
struct IncidenceCube {
    order: usize,
    /// The symbol at +1 in each cell, row by row; at the improper cell, not meaningful.
    square: Vec<u8>,
    improper: Option<Improper>,
}

impl IncidenceCube {
    fn new(square: Vec<u8>, order: usize) -> IncidenceCube {
        debug_assert_eq!(square.len(), order * order);
        IncidenceCube {
            order,
            square,
            improper: None,
        }
    }

    fn at(&self, row: usize, col: usize) -> u8 {
        self.square[row * self.order + col]
    }

    /// The rows other than `row` where column `col` holds `symbol`, in order.
    fn rows_holding(&self, col: usize, symbol: u8, row: usize) -> impl Iterator<Item = usize> {
        (0..self.order).filter(move |&r| r != row && self.at(r, col) == symbol)
    }

    /// The columns other than `col` where row `row` holds `symbol`, in order.
    fn cols_holding(&self, row: usize, symbol: u8, col: usize) -> impl Iterator<Item = usize> {
        (0..self.order).filter(move |&c| c != col && self.at(row, c) == symbol)
    }

    /// One move of the chain.
    fn step(&mut self, rng: &mut Pcg64) {
        let n = self.order;
        let (row, col, symbol, other_row, other_col, other_symbol) = match self.improper.take() {
            None => {
                let (row, col) = (rng.random_range(0..n), rng.random_range(0..n));
                let held = self.at(row, col);
                // A symbol other than the one held, uniformly: skip over `held`.
                let pick = rng.random_range(0..n - 1) as u8;
                let symbol = if pick < held { pick } else { pick + 1 };
                let other_row = self.rows_holding(col, symbol, row).next();
                let other_col = self.cols_holding(row, symbol, col).next();
                let (other_row, other_col) = (other_row.zip(other_col))
                    .expect("a proper square holds every symbol once per row and column");
                // (r, c) loses s' and gains s.
                self.square[row * n + col] = symbol;
                (row, col, symbol, other_row, other_col, held)
            }
            Some(cell) => {
                let (row, col, symbol) = (cell.row, cell.col, cell.minus);
                let rows = first_two(self.rows_holding(col, symbol, row));
                let cols = first_two(self.cols_holding(row, symbol, col));
                let mut coin = || rng.random_range(0..2usize);
                let other_symbol = cell.plus[coin()];
                let (other_row, other_col) = (rows[coin()], cols[coin()]);
                // (r, c) gains s, its -1 back to 0, and loses s': the other +1 is left.
                self.square[row * n + col] = cell.plus[0] ^ cell.plus[1] ^ other_symbol;
                (row, col, symbol, other_row, other_col, other_symbol)
            }
        };
        // (r, c') and (r', c) held s and now hold s'.
        self.square[row * n + other_col] = other_symbol;
        self.square[other_row * n + col] = other_symbol;
        // (r', c') gains s and loses s': proper if it held s', else it holds the new -1.
        let corner = other_row * n + other_col;
        let held = self.square[corner];
        if held == other_symbol {
            self.square[corner] = symbol;
        } else {
            self.improper = Some(Improper {
                row: other_row,
                col: other_col,
                minus: other_symbol,
                plus: [held, symbol],
            });
        }
    }

    /// Every line of the cube sums to 1, counting the improper cell's three symbols; for
    /// debug builds and tests, O(n^3).
    fn sanity(&self) -> bool {
        let n = self.order;
        let value = |row: usize, col: usize, s: u8| -> i32 {
            match self.improper {
                Some(cell) if cell.row == row && cell.col == col => {
                    i32::from(cell.plus.contains(&s)) - i32::from(cell.minus == s)
                }
                _ => i32::from(self.at(row, col) == s),
            }
        };
        let symbols = 0..n as u8;
        let lines_ok =
            |sum: &dyn Fn(usize, usize) -> i32| (0..n).all(|a| (0..n).all(|b| sum(a, b) == 1));
        lines_ok(&|row, col| symbols.clone().map(|s| value(row, col, s)).sum())
            && lines_ok(&|row, s| (0..n).map(|col| value(row, col, s as u8)).sum())
            && lines_ok(&|col, s| (0..n).map(|row| value(row, col, s as u8)).sum())
    }
}

/// The two places where the -1's row or column holds its symbol at +1.
fn first_two(mut found: impl Iterator<Item = usize>) -> [usize; 2] {
    let mut next = || {
        found
            .next()
            .expect("the -1's lines hold its symbol twice at +1")
    };
    [next(), next()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn cyclic(order: usize) -> Vec<u8> {
        (0..order * order)
            .map(|i| ((i / order + i % order) % order) as u8)
            .collect()
    }

    #[test]
    fn every_move_keeps_every_line_sum() {
        for order in [2, 3, 4, 7] {
            let mut rng = Pcg64::seed_from_u64(order as u64);
            let mut cube = IncidenceCube::new(cyclic(order), order);
            let mut improper_seen = false;
            for _ in 0..2000 {
                cube.step(&mut rng);
                improper_seen |= cube.improper.is_some();
                assert!(cube.sanity(), "order {order}: {:?}", cube.improper);
            }
            // In order 2 the far corner (r', c') always holds s', so every cube stays proper.
            assert_eq!(improper_seen, order > 2, "order {order}");
        }
    }
}
