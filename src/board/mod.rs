//! The board: what every engine, the checker and the generator read, and none of them looks
//! past.
//!
//! A [`Board`] is an n x n grid of cells that take digits 1..=n, and a list of [`Group`]s: each
//! group is n cells that take n different digits, so each digit exactly once. A classic Sudoku's
//! groups are its rows, columns and boxes ([`Shape::board`](crate::sudoku::Shape::board)); its
//! variants add groups (the two diagonals of X-Sudoku, the windows of windoku) or replace the
//! boxes (the regions of jigsaw Sudoku). The exact-cover encoding, the CSP, the checker and the
//! generator take their rules from the groups alone, so a new variant is a new list of groups.
//! Killer Sudoku adds [`Cage`]s ([`Board::with_cages`]): cells whose digits are all different
//! and add up to a sum; the engines and the checker read those too.
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

pub(crate) mod leftovers;

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
    /// Killer cages, if any (see [`Cage`]).
    cages: Vec<Cage>,
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
            cages: Vec::new(),
        })
    }

    /// This board with killer `cages` added: digits in a cage are all different and add up to
    /// its sum.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidGroup`] if a cage has a cell off the board or a cell of another
    /// cage, has more cells than there are digits, or has a sum that no set of different
    /// digits makes; or if the cages together have more than [`MAX_DIGIT_SETS`] digit sets.
    ///
    /// ```
    /// use quadrille::board::{Cage, Cell};
    /// use quadrille::sudoku::Shape;
    ///
    /// let cage = Cage::new(1, [Cell::new(0), Cell::new(1)], 3)?;
    /// let board = Shape::new(2, 2)?.board().clone().with_cages(vec![cage])?;
    /// assert_eq!(board.cages()[0].digit_sets(4), [0b11]); // 3 = 1 + 2
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn with_cages(mut self, cages: Vec<Cage>) -> Result<Board> {
        let n = self.size;
        let mut owner = vec![false; self.cell_count()];
        let mut sets = 0;
        for cage in &cages {
            let invalid = |reason| {
                Error::new(ErrorKind::InvalidGroup {
                    group: cage.to_string(),
                    reason,
                })
            };
            if cage.cells.len() > n {
                return Err(invalid(
                    "a cage has at most as many cells as there are digits",
                ));
            }
            for cell in &cage.cells {
                match owner.get_mut(cell.index()) {
                    None => return Err(invalid("a cell is off the board")),
                    Some(true) => return Err(invalid("a cell is in another cage")),
                    Some(taken) => *taken = true,
                }
            }
            let k = cage.digit_sets(n).len();
            if k == 0 {
                return Err(invalid("no set of different digits adds up to its sum"));
            }
            sets += k;
            if sets > MAX_DIGIT_SETS {
                return Err(invalid("the cages have too many digit sets to encode"));
            }
        }
        self.cages = cages;
        Ok(self)
    }

    /// The killer cages (none on most boards).
    pub fn cages(&self) -> &[Cage] {
        &self.cages
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

/// The most digit sets the cages of one board may have together: each is an option of the
/// exact-cover encoding and a mask the CSP checks ([`Cage::digit_sets`]). A 9x9 cage has at
/// most 12 (4 or 5 cells adding up to 20 or 25); the cap keeps a large board's big cages from
/// building millions.
pub const MAX_DIGIT_SETS: usize = 100_000;

/// A killer cage: cells whose digits are all different and add up to its sum. Its name is
/// `cage {number}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    number: usize,
    cells: Vec<Cell>,
    sum: u32,
}

impl Cage {
    /// Cage number `number` of these cells, adding up to `sum`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidGroup`] if it has no cell or a cell twice.
    pub fn new(number: usize, cells: impl IntoIterator<Item = Cell>, sum: u32) -> Result<Cage> {
        let cage = Cage {
            number,
            cells: cells.into_iter().collect(),
            sum,
        };
        let invalid = |reason| {
            Error::new(ErrorKind::InvalidGroup {
                group: cage.to_string(),
                reason,
            })
        };
        if cage.cells.is_empty() {
            return Err(invalid("a cage has at least one cell"));
        }
        let mut sorted = cage.cells.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(invalid("a cell appears twice"));
        }
        Ok(cage)
    }

    /// Its 1-based number.
    pub fn number(&self) -> usize {
        self.number
    }

    /// Its cells.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The sum of its digits.
    pub fn sum(&self) -> u32 {
        self.sum
    }

    /// Every set of as many different digits of 1..=n as the cage has cells that adds up to
    /// its sum, as a mask (bit `d - 1` for digit d), in increasing order of masks.
    ///
    /// ```
    /// use quadrille::board::{Cage, Cell};
    ///
    /// let cage = Cage::new(1, [Cell::new(0), Cell::new(1)], 10)?;
    /// // 1+9, 2+8, 3+7, 4+6 (5+5 repeats a digit).
    /// assert_eq!(cage.digit_sets(9).len(), 4);
    /// assert!(cage.digit_sets(5).is_empty());
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn digit_sets(&self, n: usize) -> Vec<u64> {
        fn extend(n: u32, from: u32, left: usize, sum: u32, mask: u64, out: &mut Vec<u64>) {
            if left == 0 {
                if sum == 0 {
                    out.push(mask);
                }
                return;
            }
            let k = left as u32;
            for d in from..=n {
                // The smallest sum of `left` digits from d on, and the largest from the top.
                let least = k * d + k * (k - 1) / 2;
                let most = k * n - k * (k - 1) / 2;
                if least > sum || most < sum {
                    if least > sum {
                        break;
                    }
                    continue;
                }
                extend(n, d + 1, left - 1, sum - d, mask | 1 << (d - 1), out);
            }
        }
        let mut out = Vec::new();
        if self.cells.len() <= n {
            extend(n as u32, 1, self.cells.len(), self.sum, 0, &mut out);
        }
        out.sort_unstable();
        out
    }
}

impl fmt::Display for Cage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cage {}", self.number)
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
    fn cages_are_checked_against_the_board() {
        let n = 4;
        let rows = (0..n)
            .map(|r| Group::new("row", r + 1, line(n, r)).unwrap())
            .collect();
        let board = Board::new(n, rows).unwrap();
        let cage = |number, cells: &[usize], sum| {
            Cage::new(number, cells.iter().map(|&i| Cell::new(i)), sum).unwrap()
        };
        let err = |cages| board.clone().with_cages(cages).unwrap_err().to_string();
        assert_eq!(
            err(vec![cage(1, &[0, 1], 3), cage(2, &[1, 2], 5)]),
            "invalid cage 2: a cell is in another cage"
        );
        assert_eq!(
            err(vec![cage(1, &[0, 1, 2, 3, 4], 10)]),
            "invalid cage 1: a cage has at most as many cells as there are digits"
        );
        assert_eq!(
            err(vec![cage(1, &[0, 1], 8)]),
            "invalid cage 1: no set of different digits adds up to its sum"
        );
        assert_eq!(
            err(vec![cage(1, &[15, 16], 5)]),
            "invalid cage 1: a cell is off the board"
        );
        assert!(Cage::new(1, [Cell::new(0), Cell::new(0)], 2).is_err());
        assert!(Cage::new(1, [], 0).is_err());
        let caged = board.with_cages(vec![cage(1, &[0, 5], 7)]).unwrap();
        assert_eq!(caged.cages()[0].digit_sets(4), [0b1100]);
        assert_eq!(caged.cages()[0].to_string(), "cage 1");
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
