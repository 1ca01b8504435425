//! Sudoku variants, each a [`Board`]: the classic rows, columns and boxes with groups added or
//! replaced, or with killer cages.
//!
//! - **X-Sudoku** (`x_board`): the two main diagonals are groups too (`diagonal 1` from the
//!   top left, `diagonal 2` from the top right). Defined on every box shape.
//! - **Windoku**, or hyper Sudoku ([`windoku_board`]): extra boxes, the *windows*. On 9x9 they
//!   are the four 3x3 boxes with their top-left cells at r2c2, r2c6, r6c2 and r6c6. On r x c
//!   boxes, windows are r x c boxes placed as on 9x9: one line in from the edge, one line
//!   between two windows, as many as fit ([`windows`]): one window (the centre 2x2) on 4x4,
//!   one on 6x6 (2x3 at r2c2), two on 8x8, four on 12x12, nine on 16x16. Box shapes with a
//!   side of 1 (Latin squares) have no window, and no windoku. The windows imply hidden
//!   regions, which the CSP searches with (`crate::board::leftovers`); a 25x25 windoku exists
//!   (docs/guide.md, "Large windokus").
//! - **Jigsaw** ([`jigsaw_board`]): the boxes are replaced by n irregular regions of n cells
//!   (`region 1`, ... numbered by their first cell in reading order). Regions need not be
//!   connected (no rule of the solvers needs it; published jigsaws are, and stay valid), but
//!   each has exactly n cells. Any side n works, prime ones too (5x5, 7x7).
//! - **Killer** (`killer_board`): the classic board with [`Cage`]s, whose digits are all
//!   different and add up to the cage's sum. The exact-cover encoding has an option per digit
//!   set of a cage ([`crate::sudoku::encode`]); the CSP keeps the digit sets too.
//!
//! Reading them is [`crate::io::puzzle`]'s (its one-line formats, and `# variant: NAME`
//! header lines).
//!
//! ```
//! use quadrille::sudoku::Shape;
//! use quadrille::sudoku::variant::{self, Variant};
//!
//! let board = variant::windoku_board(Shape::CLASSIC)?;
//! assert_eq!(board.groups().len(), 27 + 4);
//! assert_eq!(board.group(30).to_string(), "window 4");
//! assert_eq!("x".parse::<Variant>()?, Variant::X);
//! assert!(variant::windoku_board(Shape::new(1, 5)?).is_err());
//! # Ok::<(), quadrille::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Cage, Cell, Group};
use crate::error::{Error, ErrorKind, Result};
use crate::sudoku::Shape;

/// A Sudoku variant: which rules a puzzle line follows, and what its line holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Rows, columns and boxes.
    #[default]
    Classic,
    /// And the two main diagonals.
    X,
    /// And the windows ([`windows`]).
    Windoku,
    /// Rows, columns and irregular regions instead of boxes.
    Jigsaw,
    /// The classic rules and killer cages.
    Killer,
}

impl Variant {
    /// Every variant, classic first.
    pub const ALL: [Variant; 5] = [
        Variant::Classic,
        Variant::X,
        Variant::Windoku,
        Variant::Jigsaw,
        Variant::Killer,
    ];

    /// Its name, as `--variant` and `# variant:` take it.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::X => "x",
            Variant::Windoku => "windoku",
            Variant::Jigsaw => "jigsaw",
            Variant::Killer => "killer",
        }
    }

    /// The board of a variant that only adds groups to the shape's (X-Sudoku, windoku; the
    /// classic board too); `None` for jigsaw and killer, whose board comes with each puzzle.
    ///
    /// # Errors
    /// As [`windoku_board`].
    pub fn board_of_shape(self, shape: Shape) -> Result<Option<Board>> {
        Ok(match self {
            Variant::Classic => Some(shape.board().clone()),
            Variant::X => Some(x_board(shape)),
            Variant::Windoku => Some(windoku_board(shape)?),
            Variant::Jigsaw | Variant::Killer => None,
        })
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = Error;

    /// `classic`, `x`, `windoku` (or `hyper`), `jigsaw`, `killer`, in any case.
    fn from_str(name: &str) -> Result<Variant> {
        let lower = name.trim().to_ascii_lowercase();
        match lower.as_str() {
            "hyper" => return Ok(Variant::Windoku),
            "sudoku-x" | "diagonal" => return Ok(Variant::X),
            _ => {}
        }
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == lower)
            .ok_or_else(|| {
                Error::new(ErrorKind::UnknownName {
                    what: "variant",
                    name: name.to_string(),
                    hint: " (expected classic, x, windoku, jigsaw or killer)".to_string(),
                })
            })
    }
}

fn group(kind: &'static str, number: usize, cells: impl IntoIterator<Item = Cell>) -> Group {
    Group::new(kind, number, cells).expect("a variant's group has distinct cells")
}

/// The X-Sudoku board of a shape: rows, columns, boxes, then `diagonal 1` (r1c1 to rncn) and
/// `diagonal 2` (r1cn to rnc1).
pub(crate) fn x_board(shape: Shape) -> Board {
    let n = shape.size();
    let mut groups = shape.board().groups().to_vec();
    groups.push(group("diagonal", 1, (0..n).map(|i| Cell::at(i, i, n))));
    groups.push(group(
        "diagonal",
        2,
        (0..n).map(|i| Cell::at(i, n - 1 - i, n)),
    ));
    Board::new(n, groups).expect("a Sudoku board has room for two diagonals")
}

/// The windows of windoku on a shape's grid, row by row, each's cells in reading order: boxes
/// of the shape's size, one line in from the edges and one line apart, as many as fit. Empty
/// when none fits (a box side of 1).
pub fn windows(shape: Shape) -> Vec<Vec<Cell>> {
    let n = shape.size();
    let (r, c) = (shape.box_rows(), shape.box_cols());
    // Starts 1, 1 + (side + 1), ... while the window ends before the last line.
    let starts = |side: usize| {
        (0..)
            .map(move |k| 1 + k * (side + 1))
            .take_while(move |&start| start + side < n)
    };
    let mut out = Vec::new();
    for top in starts(r) {
        for left in starts(c) {
            out.push(
                (0..r * c)
                    .map(|i| Cell::at(top + i / c, left + i % c, n))
                    .collect(),
            );
        }
    }
    out
}

/// The windoku board of a shape: rows, columns, boxes, then the [`windows`] (`window 1`, ...).
///
/// # Errors
/// [`ErrorKind::BadVariant`] when no window fits (a box side of 1).
pub fn windoku_board(shape: Shape) -> Result<Board> {
    let windows = windows(shape);
    if windows.is_empty() {
        return Err(Error::new(ErrorKind::BadVariant {
            reason: format!(
                "windoku needs boxes of at least 2x2; {shape} boxes leave no room for a window"
            ),
        }));
    }
    let mut groups = shape.board().groups().to_vec();
    groups
        .extend((windows.into_iter().enumerate()).map(|(i, cells)| group("window", i + 1, cells)));
    Board::new(shape.size(), groups).map_err(|_| {
        Error::new(ErrorKind::BadVariant {
            reason: format!("windoku on {shape} boxes has more groups than a board holds"),
        })
    })
}

/// The jigsaw board of side n whose cell i is in region `regions[i]` (0-based): rows, columns,
/// then `region 1` to `region n` in the order of their first cells.
///
/// # Errors
/// [`ErrorKind::BadVariant`] if `regions` does not have n*n entries, or a region does not have
/// exactly n cells. [`ErrorKind::InvalidGroup`] if n is not in 1..=64.
///
/// ```
/// use quadrille::sudoku::variant::jigsaw_board;
///
/// // Four regions of a 4x4 grid: the top row, two 2x2 squares, the bottom row.
/// let regions = [0, 0, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3];
/// let board = jigsaw_board(4, &regions)?;
/// assert_eq!(board.group(9).to_string(), "region 2");
/// assert!(jigsaw_board(4, &[0; 16]).is_err());
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn jigsaw_board(n: usize, regions: &[usize]) -> Result<Board> {
    let bad = |reason: String| Error::new(ErrorKind::BadVariant { reason });
    if regions.len() != n * n {
        return Err(bad(format!(
            "a {n}x{n} grid needs a region map of {} cells, not {}",
            n * n,
            regions.len()
        )));
    }
    // Renumber by first appearance, so that `region 1` holds r1c1.
    let mut number = vec![usize::MAX; regions.len().max(n)];
    let mut cells: Vec<Vec<Cell>> = Vec::new();
    for (i, &r) in regions.iter().enumerate() {
        if r >= number.len() {
            return Err(bad(format!("region {} is not one of {n}", r + 1)));
        }
        if number[r] == usize::MAX {
            number[r] = cells.len();
            cells.push(Vec::new());
        }
        cells[number[r]].push(Cell::new(i));
    }
    if let Some((k, region)) = cells.iter().enumerate().find(|(_, c)| c.len() != n) {
        return Err(bad(format!(
            "region {} has {} cells, not {n}",
            k + 1,
            region.len()
        )));
    }
    let rows = (0..n).map(|r| group("row", r + 1, (0..n).map(|c| Cell::at(r, c, n))));
    let cols = (0..n).map(|c| group("column", c + 1, (0..n).map(|r| Cell::at(r, c, n))));
    let regions = (cells.into_iter().enumerate()).map(|(k, cells)| group("region", k + 1, cells));
    Board::new(n, rows.chain(cols).chain(regions).collect())
}

/// The killer board of a shape: its classic board with these cages.
///
/// # Errors
/// As [`Board::with_cages`].
pub(crate) fn killer_board(shape: Shape, cages: Vec<Cage>) -> Result<Board> {
    shape.board().clone().with_cages(cages)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn windows_at(r: usize, c: usize) -> Vec<(usize, usize)> {
        let shape = Shape::new(r, c).unwrap();
        windows(shape)
            .iter()
            .map(|w| w[0].row_col(shape.size()))
            .collect()
    }

    #[test]
    fn windows_sit_one_line_in_and_one_line_apart() {
        assert_eq!(windows_at(3, 3), [(1, 1), (1, 5), (5, 1), (5, 5)]);
        assert_eq!(windows_at(2, 2), [(1, 1)]);
        assert_eq!(windows_at(2, 3), [(1, 1)]);
        assert_eq!(windows_at(2, 4), [(1, 1), (4, 1)]);
        assert_eq!(windows_at(4, 4).len(), 9);
        assert_eq!(windows_at(3, 4).len(), 4);
        assert!(windows_at(1, 6).is_empty());
        // Every window is a whole box's worth of cells, inside the margin.
        for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3), (4, 4), (3, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let n = shape.size();
            for w in windows(shape) {
                assert_eq!(w.len(), n);
                for cell in w {
                    let (row, col) = cell.row_col(n);
                    assert!((1..n - 1).contains(&row) && (1..n - 1).contains(&col));
                }
            }
        }
    }

    #[test]
    fn names_parse_and_print() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!("HYPER".parse::<Variant>().unwrap(), Variant::Windoku);
        let err = "samurai".parse::<Variant>().unwrap_err().to_string();
        assert!(err.contains("unknown variant 'samurai'"), "{err}");
    }

    #[test]
    fn jigsaw_regions_are_checked() {
        let err = |r: &[usize]| jigsaw_board(4, r).unwrap_err().to_string();
        let mut regions = vec![0, 0, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3];
        assert!(jigsaw_board(4, &regions).is_ok());
        regions[4] = 0;
        assert_eq!(err(&regions), "region 1 has 5 cells, not 4");
        assert_eq!(
            err(&regions[..15]),
            "a 4x4 grid needs a region map of 16 cells, not 15"
        );
    }
}
