//! A board as exact cover: the standard encoding, read from the board's groups.
//!
//! Items, in this order (the order breaks MRV ties, as in Knuth's `sudoku2dlx`): one per cell
//! (`r3c5`: the cell is filled), then one per group and digit (`row3_7`: row 3 holds a 7), the
//! groups in the board's order (for a Sudoku: rows, columns, boxes). Option `cell * n + d - 1`
//! puts digit d in the cell and covers the cell's item and the item of d in each of the cell's
//! groups. Encoding is kept apart from solving: this module only builds the problem and maps
//! options to placements and back.

use crate::board::{Board, Cell, Digit};
use crate::exact_cover::{Problem, ProblemBuilder};

/// The exact-cover problem of filling the empty board.
///
/// ```
/// use quadrille::exact_cover::Dlx;
/// use quadrille::sudoku::{Shape, encode};
///
/// let problem = encode::problem(&Shape::new(2, 2)?.board());
/// assert_eq!((problem.item_count(), problem.option_count()), (64, 64));
/// assert_eq!(problem.option_text(0), "r1c1 row1_1 column1_1 box1_1");
/// assert_eq!(Dlx::new(&problem).count(None).stats.solutions, 288);
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn problem(board: &Board) -> Problem {
    let n = board.size();
    let mut b = ProblemBuilder::new();
    for cell in board.cells() {
        let (row, col) = cell.row_col(n);
        b.primary(&format!("r{}c{}", row + 1, col + 1))
            .expect("cell names are distinct and valid");
    }
    for group in board.groups() {
        for d in 1..=n {
            b.primary(&format!("{}{}_{d}", group.kind(), group.number()))
                .expect("group names are distinct words and numbers");
        }
    }
    let cells = board.cell_count();
    let mut items = Vec::new();
    for cell in board.cells() {
        for d in 0..n {
            items.clear();
            items.push(cell.index());
            items.extend(board.groups_of(cell).map(|g| cells + g * n + d));
            b.option(items.iter().copied())
                .expect("an option names its cell once and each of its groups once");
        }
    }
    b.build()
        .expect("a board has cells, and cells are primary items")
}

/// The option that puts `digit` in `cell`, on a board of side `n`.
#[inline]
pub fn option(n: usize, cell: Cell, digit: Digit) -> usize {
    cell.index() * n + digit.index()
}

/// The cell and digit of an option, on a board of side `n`.
#[inline]
pub fn placement(n: usize, option: usize) -> (Cell, Digit) {
    let digit = Digit::new((option % n) as u8 + 1).expect("n <= 64, so option % n + 1 is a digit");
    (Cell::new(option / n), digit)
}
