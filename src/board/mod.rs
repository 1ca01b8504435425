//! The board: what every engine, the checker and the generator read, and none of them looks
//! past.
//!
//! A [`Board`] is an n x n grid of cells that take digits 1..=n, and a list of [`Group`]s: each
//! group is n cells that take n different digits, so each digit exactly once. A classic Sudoku's
//! groups are its rows, columns and boxes ([`Shape::board`](crate::sudoku::Shape::board)); its
//! variants add groups (the two diagonals of X-Sudoku, the windows of windoku) or replace the
//! boxes (the regions of jigsaw Sudoku). The exact-cover encoding, the CSP, the checker and the
//! generator take their rules from the groups alone, so a new variant is a new list of groups.
//!
//! Cells and digits have types of their own, [`Cell`] and [`Digit`], so that one is never
//! passed for the other (an exact-cover item or option is a third kind of number, a `usize` of
//! [`crate::exact_cover`]).
//!
//! ```
//! use quadrille::board::{Board, Cell, Group};
//!
//! // A 4x4 Latin square with its two diagonals: rows, columns and diagonals.
//! let n = 4;
//! let mut groups = Vec::new();
//! for i in 0..n {
//!     groups.push(Group::new("row", i + 1, (0..n).map(|j| Cell::at(i, j, n)))?);
//!     groups.push(Group::new("column", i + 1, (0..n).map(|j| Cell::at(j, i, n)))?);
//! }
//! groups.push(Group::new("diagonal", 1, (0..n).map(|i| Cell::at(i, i, n)))?);
//! groups.push(Group::new("diagonal", 2, (0..n).map(|i| Cell::at(i, n - 1 - i, n)))?);
//! let board = Board::new(n, groups)?;
//! assert_eq!(board.groups().len(), 10);
//! assert_eq!(board.groups_of(Cell::at(0, 0, n)).count(), 3); // row, column, diagonal
//! assert_eq!(board.group(9).to_string(), "diagonal 2");
//! # Ok::<(), quadrille::Error>(())
//! ```

use std::fmt;
use std::num::NonZeroU8;

use crate::error::{Error, ErrorKind, Result};

/// The largest side n of a board: candidate sets are 64-bit masks, one bit per digit.
pub const MAX_SIZE: usize = 64;

/// The most groups a board may have: the CSP keeps sets of groups in three 64-bit words, which
/// a 64x64 Sudoku's 192 rows, columns and boxes fill; smaller boards leave room for a variant's
/// groups (a 48x48 Sudoku has 144). A fourth word made the CSP 2.4% slower in instructions on
/// 9x9 puzzles (callgrind, first 1,000 17-clue puzzles: 128.5M against 125.4M), for boards
/// nobody has asked for yet.
pub const MAX_GROUPS: usize = 192;

/// A cell of a board: its index in row-major order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u16);

impl Cell {
    /// The cell with this row-major index (below n*n <= 4096).
    ///
    /// # Panics
    /// If the index does not fit a board of side [`MAX_SIZE`].
    pub fn new(index: usize) -> Cell {
        assert!(
            index < MAX_SIZE * MAX_SIZE,
            "cell index {index} is off every board"
        );
        Cell(index as u16)
    }

    /// The cell at 0-based (`row`, `col`) of a board of side `n`.
    pub fn at(row: usize, col: usize, n: usize) -> Cell {
        Cell::new(row * n + col)
    }

    /// The row-major index.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The 0-based (row, column) on a board of side `n`.
    pub fn row_col(self, n: usize) -> (usize, usize) {
        (self.index() / n, self.index() % n)
    }
}

/// A digit, 1..=[`MAX_SIZE`]. An empty cell is `None`, never a digit 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digit(NonZeroU8);

impl Digit {
    /// The digit `d`, or `None` for 0 and for values above [`MAX_SIZE`].
    pub fn new(d: u8) -> Option<Digit> {
        if usize::from(d) > MAX_SIZE {
            return None;
        }
        NonZeroU8::new(d).map(Digit)
    }

    /// Its value, 1..=64.
    pub fn get(self) -> u8 {
        self.0.get()
    }

    /// Its 0-based index, `value - 1`: its bit in a candidate set, its place among the options
    /// of a cell.
    pub fn index(self) -> usize {
        usize::from(self.get()) - 1
    }

    /// Its bit in a candidate set (bit `value - 1`).
    pub fn bit(self) -> u64 {
        1 << self.index()
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.get())
    }
}

/// n cells that take n different digits. Its name is a kind and a 1-based number, as people
/// say it: `row 3`, `column 5`, `box 2`, `diagonal 1`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    kind: &'static str,
    number: usize,
    cells: Vec<Cell>,
}

impl Group {
    /// A group called `{kind} {number}` of these cells, in the order people read them.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidGroup`] if a cell appears twice or the kind is not one word of
    /// ASCII letters (it names exact-cover items).
    pub fn new(
        kind: &'static str,
        number: usize,
        cells: impl IntoIterator<Item = Cell>,
    ) -> Result<Group> {
        let group = Group {
            kind,
            number,
            cells: cells.into_iter().collect(),
        };
        let invalid = |reason| {
            Error::new(ErrorKind::InvalidGroup {
                group: group.to_string(),
                reason,
            })
        };
        if kind.is_empty() || !kind.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(invalid("its kind must be a word of ASCII letters"));
        }
        let mut sorted = group.cells.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(invalid("a cell appears twice"));
        }
        Ok(group)
    }

    /// What kind of group: `row`, `column`, `box`, ...
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// Its 1-based number among the groups of its kind.
    pub fn number(&self) -> usize {
        self.number
    }

    /// Its cells.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind, self.number)
    }
}

/// An n x n board of cells taking digits 1..=n, and its groups. See the [module
/// docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    size: usize,
    groups: Vec<Group>,
    /// The groups of every cell, in group order: `memberships[starts[c]..starts[c + 1]]`.
    memberships: Vec<u16>,
    starts: Vec<u32>,
}

impl Board {
    /// A board of side `size` with these groups.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidGroup`] if the side is not in 1..=[`MAX_SIZE`], there are more than
    /// [`MAX_GROUPS`] groups, or a group does not have exactly `size` cells of the board.
    pub fn new(size: usize, groups: Vec<Group>) -> Result<Board> {
        let invalid = |group: String, reason| Error::new(ErrorKind::InvalidGroup { group, reason });
        if !(1..=MAX_SIZE).contains(&size) {
            return Err(invalid(
                format!("the board of side {size}"),
                "the side must be 1 to 64",
            ));
        }
        if groups.len() > MAX_GROUPS {
            return Err(invalid(
                format!("the board's {} groups", groups.len()),
                "a board has at most 192 groups",
            ));
        }
        let cells = size * size;
        for group in &groups {
            if group.cells.len() != size {
                return Err(invalid(
                    group.to_string(),
                    "a group must have as many cells as there are digits",
                ));
            }
            if group.cells.iter().any(|c| c.index() >= cells) {
                return Err(invalid(group.to_string(), "a cell is off the board"));
            }
        }
        let mut counts = vec![0u32; cells + 1];
        for group in &groups {
            for cell in &group.cells {
                counts[cell.index() + 1] += 1;
            }
        }
        let mut starts = counts;
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut memberships = vec![0u16; starts[cells] as usize];
        let mut next: Vec<u32> = starts[..cells].to_vec();
        for (g, group) in groups.iter().enumerate() {
            for cell in &group.cells {
                memberships[next[cell.index()] as usize] = g as u16;
                next[cell.index()] += 1;
            }
        }
        Ok(Board {
            size,
            groups,
            memberships,
            starts,
        })
    }

    /// The side n: digits are 1..=n.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The number of cells, n*n.
    pub fn cell_count(&self) -> usize {
        self.size * self.size
    }

    /// Every cell, in row-major order.
    pub fn cells(&self) -> impl ExactSizeIterator<Item = Cell> + use<> {
        (0..self.cell_count()).map(Cell::new)
    }

    /// The groups, in the order they were given.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Group number `g` (0-based, in the order given).
    pub fn group(&self, g: usize) -> &Group {
        &self.groups[g]
    }

    /// The 0-based numbers of the groups that hold `cell`, in group order.
    pub fn groups_of(&self, cell: Cell) -> impl ExactSizeIterator<Item = usize> + '_ {
        let (start, end) = (self.starts[cell.index()], self.starts[cell.index() + 1]);
        self.memberships[start as usize..end as usize]
            .iter()
            .map(|&g| usize::from(g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: usize, row: usize) -> impl Iterator<Item = Cell> {
        (0..n).map(move |c| Cell::at(row, c, n))
    }

    #[test]
    fn digits_and_cells_are_what_they_say() {
        assert_eq!(Digit::new(0), None);
        assert_eq!(Digit::new(65), None);
        let d = Digit::new(9).unwrap();
        assert_eq!((d.get(), d.index(), d.bit()), (9, 8, 256));
        assert_eq!(Cell::at(2, 3, 9).index(), 21);
        assert_eq!(Cell::new(21).row_col(9), (2, 3));
    }

    #[test]
    fn groups_of_a_cell_come_in_group_order() {
        let n = 3;
        let groups =
            (0..n)
                .map(|r| Group::new("row", r + 1, line(n, r)).unwrap())
                .chain((0..n).map(|c| {
                    Group::new("column", c + 1, (0..n).map(|r| Cell::at(r, c, n))).unwrap()
                }))
                .collect();
        let board = Board::new(n, groups).unwrap();
        assert_eq!(
            board.groups_of(Cell::at(1, 2, n)).collect::<Vec<_>>(),
            [1, 5]
        );
        assert_eq!(board.cells().len(), 9);
    }

    #[test]
    fn malformed_groups_and_boards_are_refused() {
        let err = |r: Result<Board>| r.unwrap_err().to_string();
        assert!(Group::new("row", 1, [Cell::new(0), Cell::new(0)]).is_err());
        assert!(Group::new("two words", 1, [Cell::new(0)]).is_err());
        let short = Group::new("row", 1, line(4, 0).take(3)).unwrap();
        assert_eq!(
            err(Board::new(4, vec![short])),
            "invalid row 1: a group must have as many cells as there are digits"
        );
        let off = Group::new("row", 9, line(4, 4)).unwrap();
        assert_eq!(
            err(Board::new(4, vec![off])),
            "invalid row 9: a cell is off the board"
        );
        assert!(Board::new(0, vec![]).is_err());
        assert!(Board::new(65, vec![]).is_err());
        let many = vec![Group::new("row", 1, line(2, 0)).unwrap(); MAX_GROUPS + 1];
        assert!(Board::new(2, many).is_err());
    }
}
