//! Sudoku as exact cover: the standard encoding with 4n² items and n³ options.
//!
//! Items, in this order (the order breaks MRV ties, as in Knuth's `sudoku2dlx`):
//! `p{r}_{c}` (cell r,c is filled), `r{r}_{d}` (row r has digit d), `c{c}_{d}` (column c has d),
//! `b{b}_{d}` (box b has d), 0-based rows, columns and boxes, digits 1..=n. Option
//! `(r*n + c)*n + d - 1` puts digit d in cell (r, c) and covers `p{r}_{c} r{r}_{d} c{c}_{d}
//! b{b}_{d}`. Encoding is kept apart from solving: this module only builds the problem and maps
//! options back to cells.

use crate::exact_cover::{Problem, ProblemBuilder};
use crate::sudoku::Shape;

/// The exact-cover problem of filling an empty grid of this shape.
///
/// ```
/// use quadrille::exact_cover::Dlx;
/// use quadrille::sudoku::{Shape, encode};
///
/// let problem = encode::problem(Shape::new(2, 2)?);
/// assert_eq!((problem.item_count(), problem.option_count()), (64, 64));
/// assert_eq!(Dlx::new(&problem).count(None).stats.solutions, 288);
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn problem(shape: Shape) -> Problem {
    let n = shape.size();
    let mut b = ProblemBuilder::new();
    let groups = ["p", "r", "c", "b"];
    for group in groups {
        for i in 0..n {
            for j in 0..n {
                // Cells are (row, column); the other groups are (unit, digit) with digits 1..=n.
                let name = if group == "p" {
                    format!("p{i}_{j}")
                } else {
                    format!("{group}{i}_{}", j + 1)
                };
                b.primary(&name).expect("item names are distinct and valid");
            }
        }
    }
    let item = |group: usize, i: usize, j: usize| group * n * n + i * n + j;
    for row in 0..n {
        for col in 0..n {
            let bx = shape.box_of(row, col);
            for d in 0..n {
                b.option([
                    item(0, row, col),
                    item(1, row, d),
                    item(2, col, d),
                    item(3, bx, d),
                ])
                .expect("every option names four distinct primary items");
            }
        }
    }
    b.build().expect("a Sudoku has primary items")
}

/// The option that puts `digit` (1..=n) in cell (`row`, `col`).
#[inline]
pub fn option(shape: Shape, row: usize, col: usize, digit: u8) -> usize {
    let n = shape.size();
    (row * n + col) * n + digit as usize - 1
}

/// The cell (as a row-major index) and digit (1..=n) of an option.
#[inline]
pub fn cell_and_digit(shape: Shape, option: usize) -> (usize, u8) {
    let n = shape.size();
    (option / n, (option % n) as u8 + 1)
}
