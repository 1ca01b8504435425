//! A grid of cells, each empty or holding a digit 1..=n.

use std::fmt;

use crate::board::{Cell, Digit};
use crate::sudoku::Shape;

/// A Sudoku grid: a shape and n*n cells in row-major order, `0` for an empty cell and
/// `1..=n` for a digit. A `Grid` says nothing about validity; see [`crate::sudoku::check`]
/// for that.
///
/// ```
/// use quadrille::sudoku::{Grid, Shape};
///
/// let mut grid = Grid::empty(Shape::new(2, 2)?);
/// grid.set(0, 3, 4);
/// assert_eq!(grid.get(0, 3), 4);
/// assert_eq!(grid.givens(), 1);
/// assert_eq!(grid.to_string(), "...4............");
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

impl Grid {
    /// A grid with every cell empty.
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            cells: vec![0; shape.cell_count()],
        }
    }

    /// A grid from row-major cell values (0 = empty). Returns `None` if the length is not n*n
    /// or a value is above n.
    pub fn from_cells(shape: Shape, cells: Vec<u8>) -> Option<Grid> {
        let n = shape.size();
        if cells.len() != shape.cell_count() || cells.iter().any(|&d| d as usize > n) {
            return None;
        }
        Some(Grid { shape, cells })
    }

    /// A grid from row-major cell values that the caller knows to be n*n values of at most n.
    pub(crate) fn from_cells_in_range(shape: Shape, cells: Vec<u8>) -> Grid {
        debug_assert!(cells.len() == shape.cell_count());
        debug_assert!(cells.iter().all(|&d| usize::from(d) <= shape.size()));
        Grid { shape, cells }
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The side n.
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// The value at 0-based (row, column): 0 when empty.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.size() + col]
    }

    /// Sets the value at 0-based (row, column); 0 empties the cell.
    ///
    /// # Panics
    /// If the value is above n or the cell is outside the grid.
    pub fn set(&mut self, row: usize, col: usize, digit: u8) {
        assert!(digit as usize <= self.size(), "digit {digit} out of range");
        let n = self.size();
        self.cells[row * n + col] = digit;
    }

    /// The digit in `cell`, `None` when it is empty.
    ///
    /// ```
    /// use quadrille::board::{Cell, Digit};
    /// use quadrille::sudoku::{Grid, Shape};
    ///
    /// let mut grid = Grid::empty(Shape::new(2, 2)?);
    /// grid.place(Cell::at(1, 2, 4), Digit::new(3));
    /// assert_eq!(grid.digit(Cell::new(6)), Digit::new(3));
    /// assert_eq!(grid.digit(Cell::new(0)), None);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Panics
    /// If the cell is outside the grid.
    pub fn digit(&self, cell: Cell) -> Option<Digit> {
        Digit::new(self.cells[cell.index()])
    }

    /// Puts `digit` in `cell`, or empties it with `None`.
    ///
    /// # Panics
    /// If the digit is above n or the cell is outside the grid.
    pub fn place(&mut self, cell: Cell, digit: Option<Digit>) {
        let value = digit.map_or(0, Digit::get);
        assert!(
            usize::from(value) <= self.size(),
            "digit {value} out of range"
        );
        self.cells[cell.index()] = value;
    }

    /// All cells, row-major, 0 = empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Mutable access to all cells, row-major. Values must stay within 0..=n.
    pub fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }

    /// The number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }

    /// Whether every cell holds a digit.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&d| d != 0)
    }

    /// Writes the grid on one line: `1-9` then `A-Z` for digits, `.` for empty cells.
    /// Grids with n > 35 have no one-line alphabet; their digits are written as
    /// space-separated numbers (`0` for empty).
    pub fn write_line(&self, out: &mut String) {
        if self.size() <= 9 {
            // One select per cell, which the compiler does sixteen cells at a time: a batch
            // writes a line per puzzle (callgrind, `solve --limit 2 -j1` on puzzles2_17_clue).
            let mut bytes = [0u8; 81];
            for (byte, &d) in bytes.iter_mut().zip(&self.cells) {
                *byte = if d == 0 { b'.' } else { b'0' + d };
            }
            let text = std::str::from_utf8(&bytes[..self.cells.len()]);
            out.push_str(text.expect("cell characters are ASCII"));
        } else if self.size() <= 35 {
            // ASCII bytes pushed a chunk at a time: a char at a time cost more than the rest
            // of writing a batch's answer (callgrind, `solve --limit 2 -j1`).
            let mut chunk = [0u8; 128];
            for cells in self.cells.chunks(chunk.len()) {
                for (byte, &d) in chunk.iter_mut().zip(cells) {
                    *byte = digit_char(d) as u8;
                }
                let text = std::str::from_utf8(&chunk[..cells.len()]);
                out.push_str(text.expect("cell characters are ASCII"));
            }
        } else {
            for (i, &d) in self.cells.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(&d.to_string());
            }
        }
    }
}

/// The one-line character of a cell value: `.` for 0, `1`-`9`, then `A`-`Z` for 10-35.
pub(crate) fn digit_char(d: u8) -> char {
    match d {
        0 => '.',
        1..=9 => (b'0' + d) as char,
        10..=35 => (b'A' + d - 10) as char,
        _ => '?',
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = String::with_capacity(self.cells.len());
        self.write_line(&mut line);
        f.write_str(&line)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({}, {})", self.shape, self)
    }
}
