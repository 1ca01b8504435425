//! Sudoku puzzles as text: one per line, or multi-line grids.
//!
//! **One puzzle per line** ([`Layout::Line`], the layout of the usual puzzle collections):
//! n*n characters, `.`, `0` or `_` for an empty cell, `1`-`9` then `A`-`Z` (either case) for
//! 10..=35. The shape follows from the length
//! ([`Shape::from_cell_count`](crate::sudoku::Shape::from_cell_count)) unless it is given.
//! Text after the puzzle, separated by whitespace, `,` or `;`, is a comment whose first word is
//! the puzzle's [`label`](Puzzle::label) (`easy`, `hard`, ...). Grids with n > 35 have no
//! one-letter alphabet; their line is whitespace-separated numbers (`0` or `.` for empty), as
//! [`Grid::write_line`] writes it, and the comment then starts at `,`, `;` or `#`.
//!
//! **Multi-line grids** ([`Layout::Grid`], the .sdk layout): n rows of n cells, where `|`, `-`,
//! `+` and whitespace are decoration and rows made only of decoration are skipped; grids are
//! separated by blank lines, by lines starting with `#` or `[` (sdk headers), or simply follow
//! each other every n rows. For n > 35 the rows are whitespace-separated numbers. The shape
//! comes from the first row's cell count unless given. [`write_pretty`] writes this layout.
//!
//! In both layouts, lines starting with `#` and blank lines are skipped but counted, so that an
//! error names the line and the 1-based character column where it is, as an editor shows them.
//! Givens are checked as they are read (bad characters, digits out of range, wrong lengths, two
//! equal givens in a unit); a well-formed puzzle with no solution is not an error here.
//!
//! The reader is a streaming iterator: it holds one line (one grid in the grid layout) at a
//! time, so a file of a million puzzles is never in memory, and it goes on after a bad puzzle.
//! A line longer than any puzzle needs ([`MAX_LINE_BYTES`]) is an error, and is never held.
//!
//! **Variants** ([`crate::sudoku::variant`]): X-Sudoku, windoku, jigsaw and killer lines, read
//! when the reader is told the variant ([`PuzzleReader::with_variant`]) or when a comment line
//! `# variant: NAME` names it; each such puzzle carries its [`board`](Puzzle::board). X-Sudoku
//! and windoku lines are classic lines; a jigsaw line adds a region map, a killer line a cage
//! map and the cages' sums:
//!
//! ```text
//! # variant: killer
//! ................ aabbcdbecdffgghh a=3 b=8 c=5 d=5 e=2 f=7 g=7 h=3
//! ```
//!
//! Variants are read in the one-line layout, n <= 35; in the grid layout X-Sudoku and windoku
//! only (their givens are checked against the variant's groups).
//!
//! **Box shapes.** A puzzle's boxes are inferred from its length (64 cells: 2x4 boxes) unless
//! the reader is given a shape or a comment line `# box: RxC` names one for the lines after
//! it; [`box_header`] writes that line for a shape its length does not imply (4x2), so that
//! what the generator writes is read back with its own boxes.
//!
//! The modules, one concern each:
//! - `line`: the one-line layout ([`parse_line`]);
//! - `sdk`: the multi-line grid layout, put together row by row;
//! - `cells`: what both layouts share: reading a cell, and checking the cells of a puzzle;
//! - `reader`: the streaming [`PuzzleReader`], which reads lines and hands them to a layout;
//! - `variant`: the one-line layouts of the variants and the `# variant:` header;
//! - `write`: [`write_pretty`], the grid layout with box separators.
//!
//! ```
//! use quadrille::io::puzzle::{Layout, PuzzleReader};
//!
//! let text = "# two puzzles\n1.3.34.2.......1 easy\n1.1.............\n";
//! let mut reader = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
//! let first = reader.next().unwrap()?;
//! assert_eq!((first.line, first.label.as_deref()), (2, Some("easy")));
//! let second = reader.next().unwrap().unwrap_err();
//! assert_eq!(second.to_string(), "line 3, column 3: digit 1 is given twice in row 1: at r1c1 and r1c3");
//! assert!(reader.next().is_none());
//! # Ok::<(), quadrille::Error>(())
//! ```

mod cells;
mod line;
mod reader;
mod sdk;
mod variant;
mod write;

pub use line::parse_line;
pub use reader::{MAX_LINE_BYTES, PuzzleReader};
pub use write::{box_header, write_pretty};

use std::sync::Arc;

use crate::board::Board;
use crate::sudoku::{Grid, Shape};

/// The largest n whose digits have one character each (`1`-`9`, `A`-`Z`).
const MAX_CHAR_SIZE: usize = 35;

/// How puzzles are laid out in the input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// One puzzle per line, with an optional comment after it.
    #[default]
    Line,
    /// Multi-line grids of n rows (the .sdk layout), with optional decoration.
    Grid,
}

/// A puzzle read from the input, with where it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The 1-based line of the input where the puzzle starts.
    pub line: usize,
    /// The givens.
    pub grid: Grid,
    /// The first word of the comment after the puzzle, if any (one-line layout only).
    pub label: Option<String>,
    /// The puzzle's board when it is a variant's ([`crate::sudoku::variant`]); `None` for
    /// the classic Sudoku of the grid's shape.
    pub board: Option<Arc<Board>>,
    /// Whether the box shape was inferred from the puzzle's length (no shape given to the
    /// reader, no `# box:` header before it).
    pub shape_inferred: bool,
}

impl Puzzle {
    /// The boxes of the same side transposed (4x2 for 2x4) when the shape was inferred from
    /// the puzzle's length, its boxes are not square and they are rules of its board: the
    /// shape the puzzle may have been made with instead, worth naming when it has no solution.
    /// A jigsaw's regions replace the boxes, so no other boxes would read it: `None`.
    ///
    /// ```
    /// use quadrille::io::puzzle::{Layout, PuzzleReader};
    ///
    /// let line = "1".to_string() + &".".repeat(63);
    /// let puzzle = PuzzleReader::new(line.as_bytes(), None, Layout::Line).next().unwrap()?;
    /// let other = puzzle.other_boxes().unwrap();
    /// assert_eq!((other.box_rows(), other.box_cols()), (4, 2));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn other_boxes(&self) -> Option<Shape> {
        let shape = self.grid.shape();
        let (rows, cols) = (shape.box_rows(), shape.box_cols());
        if !self.shape_inferred || rows == cols || !self.has_boxes() {
            return None;
        }
        Shape::new(cols, rows).ok()
    }

    /// Whether the boxes of its shape are rules of its board: yes but for a jigsaw, whose
    /// regions replace them.
    fn has_boxes(&self) -> bool {
        // A shape's board lists its n rows, its n columns, then `box 1`, ...
        let first_box = self.grid.shape().board().group(2 * self.grid.size());
        self.board().groups().contains(first_box)
    }

    /// The board whose rules the puzzle follows: its variant's, or its shape's Sudoku board.
    pub fn board(&self) -> &Board {
        self.board
            .as_deref()
            .unwrap_or_else(|| self.grid.shape().board())
    }
}

/// What the tests of every layout share: a classic puzzle, shapes, and whole streams at once.
#[cfg(test)]
mod test_helpers {
    use super::{Layout, Puzzle, PuzzleReader};
    use crate::error::Result;
    use crate::sudoku::Shape;

    pub const CLASSIC: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    pub fn shape(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    pub fn read(text: &str, shape: Option<Shape>, layout: Layout) -> Vec<Result<Puzzle>> {
        PuzzleReader::new(text.as_bytes(), shape, layout).collect()
    }

    /// Each item as `line: grid label` or `error message`, to compare whole streams at once.
    pub fn summary(items: &[Result<Puzzle>]) -> Vec<String> {
        items
            .iter()
            .map(|item| match item {
                Ok(p) => format!("{}: {} {:?}", p.line, p.grid, p.label),
                Err(err) => err.to_string(),
            })
            .collect()
    }
}
