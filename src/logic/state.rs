//! The candidate grid the techniques read: each empty cell's candidates as a bitset (bit
//! `d - 1` for digit d, so up to 64 digits in a `u64`), and the units of the shape's board.

use std::sync::OnceLock;

use crate::board::{Cell, Digit, MAX_SIZE};
use crate::sudoku::{Grid, Shape};

/// What kind of unit a group of the board is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum House {
    Row,
    Column,
    Box,
}

/// The tables of one shape, built once and shared: the units (the board's groups: rows, then
/// columns, then boxes), each cell's row, column and box, and its peers.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct LogicTables {
    pub n: usize,
    /// The cells of unit `u`: `units[u * n..(u + 1) * n]`, in the board's order.
    pub units: Vec<u16>,
    /// Each cell's row, column and box unit numbers (0..3n).
    pub cell_units: Vec<[u16; 3]>,
    /// The peers of each cell: `peers[c * peer_count..(c + 1) * peer_count]`.
    pub peers: Vec<u16>,
    pub peer_count: usize,
}

impl LogicTables {
    pub fn of(shape: Shape) -> &'static LogicTables {
        static TABLES: [OnceLock<LogicTables>; MAX_SIZE * MAX_SIZE] =
            [const { OnceLock::new() }; MAX_SIZE * MAX_SIZE];
        TABLES[(shape.box_rows() - 1) * MAX_SIZE + shape.box_cols() - 1]
            .get_or_init(|| LogicTables::build(shape))
    }

    fn build(shape: Shape) -> LogicTables {
        let board = shape.board();
        let n = board.size();
        let units: Vec<u16> = board
            .groups()
            .iter()
            .flat_map(|g| g.cells().iter().map(|c| c.index() as u16))
            .collect();
        let cell_units: Vec<[u16; 3]> = board
            .cells()
            .map(|cell| {
                let mut of = [0u16; 3];
                for (slot, g) in of.iter_mut().zip(board.groups_of(cell)) {
                    *slot = g as u16;
                }
                of
            })
            .collect();
        let peer_count = 3 * (n - 1) - (shape.box_rows() - 1) - (shape.box_cols() - 1);
        let mut peers = Vec::with_capacity(n * n * peer_count);
        for (cell, of) in cell_units.iter().enumerate() {
            let start = peers.len();
            for &u in of {
                for &p in &units[u as usize * n..(u as usize + 1) * n] {
                    if p as usize != cell && !peers[start..].contains(&p) {
                        peers.push(p);
                    }
                }
            }
            debug_assert_eq!(peers.len() - start, peer_count);
        }
        LogicTables {
            n,
            units,
            cell_units,
            peers,
            peer_count,
        }
    }

    /// The cells of unit `u`.
    pub fn unit(&self, u: usize) -> &[u16] {
        &self.units[u * self.n..(u + 1) * self.n]
    }

    /// The peers of cell `c`.
    pub fn peers(&self, c: usize) -> &[u16] {
        &self.peers[c * self.peer_count..(c + 1) * self.peer_count]
    }

    /// What kind of unit `u` is.
    pub fn house(&self, u: usize) -> House {
        match u / self.n {
            0 => House::Row,
            1 => House::Column,
            _ => House::Box,
        }
    }

    /// Whether two different cells share a unit.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let (ua, ub) = (self.cell_units[a], self.cell_units[b]);
        a != b && (ua[0] == ub[0] || ua[1] == ub[1] || ua[2] == ub[2])
    }
}

/// A grid being solved: the digits placed so far and the candidates of every empty cell.
///
/// ```
/// use quadrille::logic::Candidates;
/// use quadrille::io::puzzle::parse_line;
///
/// let puzzle = parse_line("1...........4..2", None)?;
/// let state = Candidates::new(&puzzle);
/// assert_eq!(state.candidates(0, 1), 0b1110); // r1c2: 2, 3 or 4
/// assert_eq!(state.value(0, 0), 1);
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidates {
    shape: Shape,
    pub(crate) tables: &'static LogicTables,
    pub(crate) values: Vec<u8>,
    /// The candidates of each empty cell; 0 for a filled cell.
    pub(crate) cands: Vec<u64>,
}

impl Candidates {
    /// The candidates of a puzzle: every digit its peers do not hold.
    pub fn new(grid: &Grid) -> Candidates {
        let shape = grid.shape();
        let tables = LogicTables::of(shape);
        let mut state = Candidates {
            shape,
            tables,
            values: vec![0; shape.cell_count()],
            cands: vec![full_mask(shape.size()); shape.cell_count()],
        };
        state.reset(grid);
        state
    }

    /// Starts again from `grid`'s givens (of the same shape), keeping the buffers.
    pub(crate) fn reset(&mut self, grid: &Grid) {
        debug_assert_eq!(grid.shape(), self.shape);
        self.cands.fill(full_mask(self.shape.size()));
        self.values.fill(0);
        for (c, &d) in grid.cells().iter().enumerate() {
            if d != 0 {
                self.place(c, d);
            }
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The digit at 0-based (row, column), 0 when the cell is empty.
    pub fn value(&self, row: usize, col: usize) -> u8 {
        self.values[row * self.shape.size() + col]
    }

    /// The candidates at 0-based (row, column): bit `d - 1` for digit d; 0 for a filled cell.
    pub fn candidates(&self, row: usize, col: usize) -> u64 {
        self.cands[row * self.shape.size() + col]
    }

    /// The grid of the digits placed so far.
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.shape, self.values.clone()).expect("values stay within 0..=n")
    }

    /// Whether every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Removes a candidate (a no-op if it is not one). Tests and explanations use it to set up
    /// a state by hand.
    pub fn eliminate(&mut self, cell: Cell, digit: Digit) {
        self.cands[cell.index()] &= !digit.bit();
    }

    /// Places digit `d` in cell `c` and removes it from the candidates of its peers.
    pub(crate) fn place(&mut self, c: usize, d: u8) {
        self.values[c] = d;
        self.cands[c] = 0;
        let bit = 1u64 << (d - 1);
        for &p in self.tables.peers(c) {
            self.cands[p as usize] &= !bit;
        }
    }

    /// The positions (indices within the unit) where digit bit `bit` is a candidate in `u`.
    pub(crate) fn positions(&self, u: usize, bit: u64) -> u64 {
        let mut mask = 0;
        for (i, &c) in self.tables.unit(u).iter().enumerate() {
            if self.cands[c as usize] & bit != 0 {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// The digits placed in unit `u`, as a mask.
    pub(crate) fn placed(&self, u: usize) -> u64 {
        self.tables
            .unit(u)
            .iter()
            .map(|&c| self.values[c as usize])
            .filter(|&v| v != 0)
            .fold(0, |m, v| m | 1 << (v - 1))
    }

    /// Whether the state is broken: an empty cell without candidates, or a unit where a
    /// missing digit has no place.
    pub(crate) fn is_contradictory(&self) -> bool {
        let n = self.tables.n;
        if (0..n * n).any(|c| self.values[c] == 0 && self.cands[c] == 0) {
            return true;
        }
        (0..3 * n).any(|u| {
            let mut seen = 0;
            for &c in self.tables.unit(u) {
                let c = c as usize;
                seen |= self.cands[c];
                if self.values[c] != 0 {
                    seen |= 1 << (self.values[c] - 1);
                }
            }
            seen != full_mask(n)
        })
    }
}

/// The mask of digits 1..=n.
pub(crate) fn full_mask(n: usize) -> u64 {
    if n == 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The digits of a mask, smallest first, as 1-based values.
pub(crate) fn digits(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let d = mask.trailing_zeros() as u8 + 1;
            mask &= mask - 1;
            d
        })
    })
}

/// The set bits of a mask, as indices.
pub(crate) fn bits(mask: u64) -> impl Iterator<Item = usize> {
    digits(mask).map(|d| usize::from(d) - 1)
}
