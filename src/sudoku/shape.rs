//! Box shapes: an r x c box gives an n x n grid with n = r*c and digits 1..=n.

use std::fmt;
use std::str::FromStr;

use std::sync::OnceLock;

use crate::board::{Board, Cell, Group};
use crate::error::{Error, ErrorKind, Result};

pub use crate::board::MAX_SIZE;

/// The shape of a Sudoku: boxes of `box_rows` x `box_cols` cells, so a grid of side
/// `n = box_rows * box_cols`, with n boxes, and digits 1..=n.
///
/// ```
/// use quadrille::sudoku::Shape;
///
/// let shape: Shape = "2x3".parse()?;
/// assert_eq!(shape.size(), 6);
/// assert_eq!(shape.box_of(3, 4), 3); // rows 2-3, columns 3-5: the fourth box (0-based 3)
/// assert_eq!(Shape::from_cell_count(81), Some(Shape::new(3, 3)?));
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

impl Shape {
    /// The classic 9x9 Sudoku (3x3 boxes).
    pub const CLASSIC: Shape = Shape {
        box_rows: 3,
        box_cols: 3,
    };

    /// A shape with boxes of `box_rows` x `box_cols` cells.
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Shape> {
        let invalid = |reason| {
            Error::new(ErrorKind::InvalidShape {
                rows: box_rows,
                cols: box_cols,
                reason,
            })
        };
        if box_rows == 0 || box_cols == 0 {
            return Err(invalid("box sides must be at least 1"));
        }
        if box_rows * box_cols > MAX_SIZE {
            return Err(invalid("the grid side r*c may be at most 64"));
        }
        Ok(Shape {
            box_rows: box_rows as u8,
            box_cols: box_cols as u8,
        })
    }

    /// The usual shape for a grid of `cells` cells, when there is one obvious choice:
    /// 16 (2x2), 36 (2x3), 64 (2x4), 81 (3x3), 144 (3x4), 256 (4x4), 400 (4x5), 625 (5x5),
    /// 900 (5x6), 1296 (6x6), and in general n*n cells with n = r*c, r <= c, c - r as small as
    /// possible. Prime sides (n = 5, 7, ...) have no box shape but 1 x n and are refused.
    pub fn from_cell_count(cells: usize) -> Option<Shape> {
        let n = (cells as f64).sqrt().round() as usize;
        if n * n != cells || !(2..=MAX_SIZE).contains(&n) {
            return None;
        }
        // The factor pair nearest to a square, rows <= columns.
        let rows = (1..=n).rev().find(|&r| r * r <= n && n.is_multiple_of(r))?;
        if rows == 1 {
            return None;
        }
        Shape::new(rows, n / rows).ok()
    }

    /// Rows of one box.
    pub fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns of one box.
    pub fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// The side n of the grid; digits are 1..=n.
    pub fn size(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// The number of cells, n*n.
    pub fn cell_count(self) -> usize {
        self.size() * self.size()
    }

    /// The 0-based box of a 0-based (row, column); boxes are numbered row by row.
    pub fn box_of(self, row: usize, col: usize) -> usize {
        (row / self.box_rows()) * self.box_rows() + col / self.box_cols()
    }

    /// The board of this shape: its rows, then its columns, then its boxes (numbered row by
    /// row from the top left), each group's cells in reading order. The engines, the checker
    /// and the generator read the rules from it.
    ///
    /// ```
    /// use quadrille::sudoku::Shape;
    ///
    /// let board = Shape::new(2, 3)?.board();
    /// assert_eq!(board.groups().len(), 18);
    /// assert_eq!(board.group(12).to_string(), "box 1");
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn board(self) -> &'static Board {
        // One board per shape, built on first use and shared: the reader checks every puzzle's
        // givens against it, and a batch builds a solver per thread from it.
        static BOARDS: [OnceLock<Board>; MAX_SIZE * MAX_SIZE] =
            [const { OnceLock::new() }; MAX_SIZE * MAX_SIZE];
        BOARDS[(self.box_rows() - 1) * MAX_SIZE + self.box_cols() - 1]
            .get_or_init(|| self.build_board())
    }

    fn build_board(self) -> Board {
        let n = self.size();
        let rows = (0..n).map(|r| ("row", r, (0..n).map(|c| Cell::at(r, c, n)).collect()));
        let cols = (0..n).map(|c| ("column", c, (0..n).map(|r| Cell::at(r, c, n)).collect()));
        let boxes = (0..n).map(|b| {
            let (top, left) = self.box_origin(b);
            let cells =
                (0..n).map(|i| Cell::at(top + i / self.box_cols(), left + i % self.box_cols(), n));
            ("box", b, cells.collect::<Vec<_>>())
        });
        let groups = (rows.chain(cols).chain(boxes))
            .map(|(kind, i, cells): (&'static str, usize, Vec<Cell>)| {
                Group::new(kind, i + 1, cells).expect("a row, column or box has distinct cells")
            })
            .collect();
        Board::new(n, groups).expect("a shape's rows, columns and boxes make a board")
    }

    /// The 0-based (row, column) of the top-left cell of a 0-based box.
    pub fn box_origin(self, b: usize) -> (usize, usize) {
        let boxes_per_band = self.box_rows(); // a band holds n / box_cols boxes
        (
            (b / boxes_per_band) * self.box_rows(),
            (b % boxes_per_band) * self.box_cols(),
        )
    }
}

impl Default for Shape {
    fn default() -> Shape {
        Shape::CLASSIC
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.box_rows, self.box_cols)
    }
}

impl FromStr for Shape {
    type Err = Error;

    /// Parses `RxC` (also `R*C` or `RXC`), e.g. `3x3`, `2x3`.
    fn from_str(spec: &str) -> Result<Shape> {
        let bad = || {
            Error::new(ErrorKind::InvalidShapeSpec {
                spec: spec.to_string(),
            })
        };
        let (r, c) = spec.trim().split_once(['x', 'X', '*']).ok_or_else(bad)?;
        let r: usize = r.trim().parse().map_err(|_| bad())?;
        let c: usize = c.trim().parse().map_err(|_| bad())?;
        Shape::new(r, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infers_shapes_from_cell_counts() {
        let cases = [
            (16, (2, 2)),
            (36, (2, 3)),
            (64, (2, 4)),
            (81, (3, 3)),
            (144, (3, 4)),
            (256, (4, 4)),
            (625, (5, 5)),
            (1296, (6, 6)),
        ];
        for (cells, (r, c)) in cases {
            assert_eq!(
                Shape::from_cell_count(cells),
                Some(Shape::new(r, c).unwrap())
            );
        }
        assert_eq!(Shape::from_cell_count(80), None);
        assert_eq!(Shape::from_cell_count(25), None); // 5x5 has no boxes
        assert_eq!(Shape::from_cell_count(1), None);
    }

    #[test]
    fn boxes_tile_the_grid() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 4), (4, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let n = shape.size();
            let mut seen = vec![0; n];
            for row in 0..n {
                for col in 0..n {
                    seen[shape.box_of(row, col)] += 1;
                }
            }
            assert!(seen.iter().all(|&k| k == n), "{shape}: {seen:?}");
            for b in 0..n {
                let (row, col) = shape.box_origin(b);
                assert_eq!(shape.box_of(row, col), b);
            }
        }
    }

    #[test]
    fn parses_specs() {
        assert_eq!("2x3".parse::<Shape>().unwrap(), Shape::new(2, 3).unwrap());
        assert!("2x".parse::<Shape>().is_err());
        assert!("0x3".parse::<Shape>().is_err());
        assert!("9x9".parse::<Shape>().is_err());
    }
}
