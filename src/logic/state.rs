//! The candidate grid the techniques read: each empty cell's candidates as a bitset (bit
//! `d - 1` for digit d, so up to 64 digits in a `u64`), and the units of its board.

use std::sync::{Arc, OnceLock};

use crate::board::{Board, Cell, Digit, MAX_GROUPS, MAX_SIZE};
use crate::sudoku::{Grid, Shape};

/// What kind of unit a group of the board is, by its kind's name: the techniques that need a
/// line or a box ask for one, and a hidden single scores as SE scores it in a box (1.2) or a
/// line (1.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum House {
    Row,
    Column,
    /// A Sudoku box, and the box-like groups of the variants: windows, jigsaw regions.
    Box,
    /// A line that is neither a row nor a column: an X-Sudoku diagonal.
    Diagonal,
}

impl House {
    fn of(kind: &str) -> House {
        match kind {
            "row" => House::Row,
            "column" => House::Column,
            "diagonal" => House::Diagonal,
            _ => House::Box,
        }
    }

    /// Whether the unit is a line (row, column, diagonal) rather than a box-like region:
    /// pointing starts from a box, claiming from a line.
    pub(crate) fn is_line(self) -> bool {
        self != House::Box
    }
}

/// The groups of one cell, as a set of group numbers (a board has at most [`MAX_GROUPS`]).
pub(crate) type GroupSet = [u64; MAX_GROUPS / 64];

/// A killer cage as the techniques read it: its cells and the sets of digits that add up to
/// its sum.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct CageTable {
    pub cells: Vec<u16>,
    pub digit_sets: Vec<u64>,
}

/// No cage: the cage number of a cell outside every cage.
pub(crate) const NO_CAGE: u16 = u16::MAX;

/// The tables of one board, built once and shared: the units (the board's groups, in its
/// order), each cell's units and peers (the cells that share a unit or a cage with it), the
/// rows and columns the fish need, and the cages.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct LogicTables {
    pub n: usize,
    /// The cells of unit `u`: `units[u * n..(u + 1) * n]`, in the board's order.
    pub units: Vec<u16>,
    /// The kind of each unit.
    houses: Vec<House>,
    /// Each cell's units, in board order: `cell_units[unit_starts[c]..unit_starts[c + 1]]`.
    cell_units: Vec<u16>,
    unit_starts: Vec<u32>,
    /// Each cell's units as a set, which tells at once whether two cells share one.
    group_sets: Vec<GroupSet>,
    /// The peers of each cell, its units' cells in board order, then its cage's:
    /// `peers[peer_starts[c]..peer_starts[c + 1]]`.
    peers: Vec<u16>,
    peer_starts: Vec<u32>,
    /// The units, box-like ones first: the order hidden singles are looked for in (SE scores
    /// a box's lower).
    pub boxes_first: Vec<u16>,
    /// Unit `rows[i]` is row i, its cells in column order; empty when the board has no such
    /// rows (then no fish). `columns` likewise.
    pub rows: Vec<u16>,
    pub columns: Vec<u16>,
    /// The cage of each cell, [`NO_CAGE`] for none.
    pub cage_of: Vec<u16>,
    pub cages: Vec<CageTable>,
    /// The board, for the names of its groups.
    pub board: Board,
}

impl LogicTables {
    /// The tables of a shape's classic board, built once per shape.
    pub fn of(shape: Shape) -> Arc<LogicTables> {
        static TABLES: [OnceLock<Arc<LogicTables>>; MAX_SIZE * MAX_SIZE] =
            [const { OnceLock::new() }; MAX_SIZE * MAX_SIZE];
        TABLES[(shape.box_rows() - 1) * MAX_SIZE + shape.box_cols() - 1]
            .get_or_init(|| Arc::new(LogicTables::build(shape.board())))
            .clone()
    }

    /// The tables of any board.
    pub fn build(board: &Board) -> LogicTables {
        let n = board.size();
        let cells = n * n;
        let units: Vec<u16> = board
            .groups()
            .iter()
            .flat_map(|g| g.cells().iter().map(|c| c.index() as u16))
            .collect();
        let houses: Vec<House> = board.groups().iter().map(|g| House::of(g.kind())).collect();
        let mut cell_units = Vec::new();
        let mut unit_starts = vec![0u32];
        let mut group_sets = vec![[0u64; MAX_GROUPS / 64]; cells];
        for cell in board.cells() {
            for g in board.groups_of(cell) {
                cell_units.push(g as u16);
                group_sets[cell.index()][g / 64] |= 1 << (g % 64);
            }
            unit_starts.push(cell_units.len() as u32);
        }
        let mut cage_of = vec![NO_CAGE; cells];
        let cages: Vec<CageTable> = board
            .cages()
            .iter()
            .enumerate()
            .map(|(k, cage)| {
                for cell in cage.cells() {
                    cage_of[cell.index()] = k as u16;
                }
                CageTable {
                    cells: cage.cells().iter().map(|c| c.index() as u16).collect(),
                    digit_sets: cage.digit_sets(n),
                }
            })
            .collect();
        // Peers in board order, each once: a cell's units' cells, then its cage's.
        let mut peers = Vec::new();
        let mut peer_starts = vec![0u32];
        let mut marked = vec![usize::MAX; cells];
        for c in 0..cells {
            marked[c] = c;
            let own = &cell_units[unit_starts[c] as usize..unit_starts[c + 1] as usize];
            let unit_cells = own
                .iter()
                .flat_map(|&u| &units[usize::from(u) * n..(usize::from(u) + 1) * n]);
            let cage_cells = cages
                .get(usize::from(cage_of[c]))
                .map(|cage| cage.cells.as_slice())
                .unwrap_or_default();
            for &p in unit_cells.chain(cage_cells) {
                if marked[p as usize] != c {
                    marked[p as usize] = c;
                    peers.push(p);
                }
            }
            peer_starts.push(peers.len() as u32);
        }
        let line = |kind: &str, at: fn(usize, usize, usize) -> Cell| -> Vec<u16> {
            let found: Option<Vec<u16>> = (0..n)
                .map(|i| {
                    let want: Vec<Cell> = (0..n).map(|j| at(i, j, n)).collect();
                    board
                        .groups()
                        .iter()
                        .position(|g| g.kind() == kind && g.cells() == want.as_slice())
                        .map(|u| u as u16)
                })
                .collect();
            found.unwrap_or_default()
        };
        let rows = line("row", Cell::at);
        let columns = line("column", |i, j, n| Cell::at(j, i, n));
        let boxes_first = (0..houses.len())
            .filter(|&u| !houses[u].is_line())
            .chain((0..houses.len()).filter(|&u| houses[u].is_line()))
            .map(|u| u as u16)
            .collect();
        LogicTables {
            n,
            units,
            houses,
            cell_units,
            unit_starts,
            group_sets,
            peers,
            peer_starts,
            boxes_first,
            rows,
            columns,
            cage_of,
            cages,
            board: board.clone(),
        }
    }

    /// The number of units.
    pub fn unit_count(&self) -> usize {
        self.houses.len()
    }

    /// The cells of unit `u`.
    pub fn unit(&self, u: usize) -> &[u16] {
        &self.units[u * self.n..(u + 1) * self.n]
    }

    /// The units of cell `c`, in board order.
    pub fn units_of(&self, c: usize) -> &[u16] {
        &self.cell_units[self.unit_starts[c] as usize..self.unit_starts[c + 1] as usize]
    }

    /// The units of cell `c`, as a set.
    pub fn group_set(&self, c: usize) -> &GroupSet {
        &self.group_sets[c]
    }

    /// Whether unit `u` holds cell `c`.
    pub fn holds(&self, u: usize, c: usize) -> bool {
        self.group_sets[c][u / 64] >> (u % 64) & 1 != 0
    }

    /// The peers of cell `c`.
    pub fn peers(&self, c: usize) -> &[u16] {
        &self.peers[self.peer_starts[c] as usize..self.peer_starts[c + 1] as usize]
    }

    /// What kind of unit `u` is.
    pub fn house(&self, u: usize) -> House {
        self.houses[u]
    }

    /// Whether two different cells share a unit or a cage (so cannot hold the same digit).
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let (sa, sb) = (&self.group_sets[a], &self.group_sets[b]);
        a != b
            && (sa.iter().zip(sb).any(|(x, y)| x & y != 0)
                || (self.cage_of[a] != NO_CAGE && self.cage_of[a] == self.cage_of[b]))
    }

    /// Whether the board has killer cages: their sums break the swaps that the uniqueness
    /// techniques reason about.
    pub fn has_cages(&self) -> bool {
        !self.cages.is_empty()
    }
}

/// The units in a set, in board order.
pub(crate) fn groups_in(set: &GroupSet) -> impl Iterator<Item = usize> + '_ {
    set.iter()
        .enumerate()
        .flat_map(|(w, &word)| bits(word).map(move |b| w * 64 + b))
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
    pub(crate) tables: Arc<LogicTables>,
    pub(crate) values: Vec<u8>,
    /// The candidates of each empty cell; 0 for a filled cell.
    pub(crate) cands: Vec<u64>,
}

impl Candidates {
    /// The candidates of a classic puzzle: every digit its peers do not hold.
    pub fn new(grid: &Grid) -> Candidates {
        Candidates::with_tables(LogicTables::of(grid.shape()), grid)
    }

    /// The candidates of a puzzle on `board` (a variant's): every digit its peers (in its
    /// groups and its cage) do not hold.
    ///
    /// # Panics
    /// If the grid's side is not the board's.
    pub fn on_board(board: &Board, grid: &Grid) -> Candidates {
        Candidates::with_tables(Arc::new(LogicTables::build(board)), grid)
    }

    pub(crate) fn with_tables(tables: Arc<LogicTables>, grid: &Grid) -> Candidates {
        let shape = grid.shape();
        let mut state = Candidates {
            shape,
            tables,
            values: vec![0; shape.cell_count()],
            cands: vec![full_mask(shape.size()); shape.cell_count()],
        };
        state.reset(grid);
        state
    }

    /// Starts again from `grid`'s givens (of the same side), keeping the buffers.
    pub(crate) fn reset(&mut self, grid: &Grid) {
        debug_assert_eq!(grid.size(), self.tables.n);
        self.shape = grid.shape();
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
        (0..self.tables.unit_count()).any(|u| {
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
