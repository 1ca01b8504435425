//! The per-board tables (units and peers) and the search state: one flat block of `u64`s per
//! search depth.
//!
//! A state block holds, in order: the candidate bitset of every cell (bit `d - 1` for digit
//! `d`; an assigned cell keeps exactly its digit), the digits placed so far in every unit, the
//! set of unassigned ("open") cells as a bitset, and the number of open cells. For 9x9 that is
//! 81 + 27 + 2 + 1 = 111 words (888 bytes). The search copies the parent's block when it
//! goes one level deeper, so backtracking is free (the parent's block is untouched) and the
//! hot loop records nothing on a trail; the copies are about 2% of the instructions on the
//! forum-hardest set (cachegrind). Blocks are kept for every depth reached so far, grown on
//! demand: a 64x64 block is 34 KB, and MRV searches stay far shallower than the cell count.

use super::intersections::Overlaps;
use crate::board::Board;

/// Words in a set of units: a board has at most [`crate::board::MAX_GROUPS`] = 192 groups.
pub(crate) const UNIT_WORDS: usize = 3;

/// A set of units, bit `u % 64` of word `u / 64`.
pub(crate) type UnitSet = [u64; UNIT_WORDS];

/// Units (the board's groups) and peers of every cell, computed once per board.
///
/// The fields are private and set only by [`CspTables::new`], so the relations between them
/// that the propagator's unchecked indexing relies on hold for the life of the tables: every
/// cell index they hold is below `cells`, there are `cells` unit sets, and no cell has more
/// than `max_peers` peers. Other modules read them through the methods below.
#[derive(Clone, Debug)]
pub(crate) struct CspTables {
    /// The board's side n.
    n: usize,
    /// n*n.
    cells: usize,
    /// The mask of all n digits.
    full: u64,
    /// The number of units (groups).
    unit_count: usize,
    /// The units' cells, n per unit, flattened, in the board's group order.
    units: Vec<u16>,
    /// The units of every cell, flattened: cell c's are `cell_units[unit_starts[c]..unit_starts[c + 1]]`.
    cell_units: Vec<u16>,
    unit_starts: Vec<u32>,
    /// The units of every cell as a set, for marking units dirty. With at most 64 units
    /// (n <= 21 for a Sudoku) everything is in word 0.
    cell_bits: Vec<UnitSet>,
    /// Whether there are at most 64 units, so that unit sets fit in one word.
    compact: bool,
    /// The set of all units.
    all_units: UnitSet,
    /// The most peers any cell has.
    max_peers: usize,
    /// The peers of every cell (the other cells of its units, once each), flattened:
    /// cell c's are `peers[peer_starts[c]..peer_starts[c + 1]]`.
    peers: Vec<u16>,
    peer_starts: Vec<u32>,
    /// For grids of at most 256 cells, the peers of every cell as a cell bitset
    /// (`open_words` words per cell), so that counting a cell's open peers is a few
    /// popcounts; empty for larger grids, which walk the peer list instead.
    peer_masks: Vec<u64>,
    /// Words in the open-cell bitset.
    open_words: usize,
    /// Words in one state block.
    stride: usize,
    /// Killer cages (see [`super::cages`]): cage i's cells are
    /// `cage_cells[cage_starts[i]..cage_starts[i + 1]]`, its digit sets (masks)
    /// `cage_sets[set_starts[i]..set_starts[i + 1]]`. Empty on boards without cages.
    cage_cells: Vec<u16>,
    cage_starts: Vec<u32>,
    cage_sets: Vec<u64>,
    set_starts: Vec<u32>,
    /// The pairs of units that share two cells or more, for locked candidates.
    overlaps: Overlaps,
}

impl CspTables {
    pub fn new(board: &Board) -> CspTables {
        let n = board.size();
        let cells = board.cell_count();
        let unit_count = board.groups().len();
        let units: Vec<u16> = (board.groups().iter())
            .flat_map(|g| g.cells().iter().map(|c| c.index() as u16))
            .collect();
        let mut cell_units = Vec::new();
        let mut unit_starts = vec![0u32];
        for cell in board.cells() {
            cell_units.extend(board.groups_of(cell).map(|g| g as u16));
            unit_starts.push(cell_units.len() as u32);
        }
        let unit_set = |units: &[u16]| {
            let mut set = UnitSet::default();
            for &u in units {
                set[u as usize / 64] |= 1 << (u % 64);
            }
            set
        };
        let cell_bits = (0..cells)
            .map(|c| unit_set(&cell_units[unit_starts[c] as usize..unit_starts[c + 1] as usize]))
            .collect();
        let all: Vec<u16> = (0..unit_count as u16).collect();
        // Cages: their cells, their digit sets, and each cell's cage-mates, which are peers
        // (digits in a cage are all different) though in no unit.
        let mut cage_cells = Vec::new();
        let mut cage_starts = vec![0u32];
        let mut cage_sets = Vec::new();
        let mut set_starts = vec![0u32];
        let mut cage_of = vec![None; cells];
        for (i, cage) in board.cages().iter().enumerate() {
            for cell in cage.cells() {
                cage_cells.push(cell.index() as u16);
                cage_of[cell.index()] = Some(i);
            }
            cage_starts.push(cage_cells.len() as u32);
            cage_sets.extend(cage.digit_sets(n));
            set_starts.push(cage_sets.len() as u32);
        }
        let mut peers = Vec::new();
        let mut peer_starts = vec![0u32];
        let mut is_peer = vec![false; cells];
        let mut max_peers = 0;
        for cell in 0..cells {
            let start = peers.len();
            let mates = cage_of[cell].map_or(&[][..], |i: usize| {
                &cage_cells[cage_starts[i] as usize..cage_starts[i + 1] as usize]
            });
            let unit_cells = (cell_units
                [unit_starts[cell] as usize..unit_starts[cell + 1] as usize])
                .iter()
                .flat_map(|&u| &units[u as usize * n..(u as usize + 1) * n]);
            for &p in unit_cells.chain(mates) {
                if p as usize != cell && !is_peer[p as usize] {
                    is_peer[p as usize] = true;
                    peers.push(p);
                }
            }
            for &p in &peers[start..] {
                is_peer[p as usize] = false;
            }
            max_peers = max_peers.max(peers.len() - start);
            peer_starts.push(peers.len() as u32);
        }
        let open_words = cells.div_ceil(64);
        let mut peer_masks = Vec::new();
        if open_words <= 4 {
            peer_masks = vec![0u64; cells * open_words];
            for cell in 0..cells {
                for &p in &peers[peer_starts[cell] as usize..peer_starts[cell + 1] as usize] {
                    let p = p as usize;
                    peer_masks[cell * open_words + p / 64] |= 1 << (p % 64);
                }
            }
        }
        let mut tables = CspTables {
            n,
            cells,
            full: if n == 64 { u64::MAX } else { (1 << n) - 1 },
            unit_count,
            units,
            cell_units,
            unit_starts,
            cell_bits,
            compact: unit_count <= 64,
            all_units: unit_set(&all),
            max_peers,
            peers,
            peer_starts,
            peer_masks,
            open_words,
            stride: cells + unit_count + open_words + 1,
            cage_cells,
            cage_starts,
            cage_sets,
            set_starts,
            overlaps: Overlaps::default(),
        };
        tables.overlaps = Overlaps::new(&tables);
        tables
    }

    /// The board's side n.
    #[inline]
    pub fn n(&self) -> usize {
        self.n
    }

    /// The number of cells, n*n: every cell index in these tables (a unit's cells, a cell's
    /// peers and the bits of its peer mask) is below it.
    #[inline]
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The mask of all n digits.
    #[inline]
    pub fn full(&self) -> u64 {
        self.full
    }

    /// The number of units (groups).
    #[inline]
    pub fn unit_count(&self) -> usize {
        self.unit_count
    }

    /// Whether there are at most 64 units, so that every unit set is in word 0.
    #[inline]
    pub fn compact(&self) -> bool {
        self.compact
    }

    /// The set of all units.
    #[inline]
    pub fn all_units(&self) -> UnitSet {
        self.all_units
    }

    /// The most peers any cell has: no cell's [`peers`](Self::peers), nor the set bits of
    /// its [`peer_mask`](Self::peer_mask), are more.
    #[inline]
    pub fn max_peers(&self) -> usize {
        self.max_peers
    }

    /// The units of every cell as a set, indexed by cell: [`cells`](Self::cells) of them.
    #[inline]
    pub fn unit_sets(&self) -> &[UnitSet] {
        &self.cell_bits
    }

    /// Whether there is one unit set per cell: always, as [`CspTables::new`] builds them. The
    /// loops that index the unit sets unchecked test it once per call rather than trust it.
    #[inline]
    pub fn has_unit_set_per_cell(&self) -> bool {
        self.cell_bits.len() == self.cells
    }

    /// The units of `cell` as a set.
    #[inline]
    pub fn unit_set_of(&self, cell: usize) -> &UnitSet {
        &self.cell_bits[cell]
    }

    /// Whether the grid is small enough (at most 256 cells) to keep every cell's peers as a
    /// cell bitset ([`peer_mask`](Self::peer_mask)).
    #[inline]
    pub fn has_peer_masks(&self) -> bool {
        !self.peer_masks.is_empty()
    }

    /// The peers of `cell` as a cell bitset of [`open_words`](Self::open_words) words, with
    /// bits only below [`cells`](Self::cells); only when [`has_peer_masks`](Self::has_peer_masks).
    #[inline]
    pub fn peer_mask(&self, cell: usize) -> &[u64] {
        let words = self.open_words;
        &self.peer_masks[cell * words..(cell + 1) * words]
    }

    /// Words in the open-cell bitset.
    #[inline]
    pub fn open_words(&self) -> usize {
        self.open_words
    }

    /// Words in one state block.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// The pairs of units that share two cells or more, for locked candidates.
    #[inline]
    pub fn overlaps(&self) -> &Overlaps {
        &self.overlaps
    }

    /// The number of killer cages.
    #[inline]
    pub fn cage_count(&self) -> usize {
        self.cage_starts.len() - 1
    }

    /// The cells of cage `i`.
    #[inline]
    pub fn cage(&self, i: usize) -> &[u16] {
        &self.cage_cells[self.cage_starts[i] as usize..self.cage_starts[i + 1] as usize]
    }

    /// The digit sets of cage `i`: masks of the digits that may fill it.
    #[inline]
    pub fn digit_sets(&self, i: usize) -> &[u64] {
        &self.cage_sets[self.set_starts[i] as usize..self.set_starts[i + 1] as usize]
    }

    /// The units of `cell`.
    #[inline]
    pub fn units_of(&self, cell: usize) -> &[u16] {
        &self.cell_units[self.unit_starts[cell] as usize..self.unit_starts[cell + 1] as usize]
    }

    /// The n cells of unit `u`.
    #[inline]
    pub fn unit(&self, u: usize) -> &[u16] {
        &self.units[u * self.n..(u + 1) * self.n]
    }

    /// The peers of `cell`.
    #[inline]
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_starts[cell] as usize..self.peer_starts[cell + 1] as usize]
    }

    /// Writes the state of the empty grid into `block`.
    pub fn reset(&self, block: &mut [u64]) {
        let s = State::view(self, block);
        s.dom.fill(self.full);
        s.placed.fill(0);
        s.open.fill(u64::MAX);
        if !self.cells.is_multiple_of(64) {
            s.open[self.open_words - 1] = (1 << (self.cells % 64)) - 1;
        }
        *s.count = self.cells as u64;
    }
}

/// A mutable view of one state block.
pub(crate) struct State<'a> {
    /// Candidates per cell.
    pub dom: &'a mut [u64],
    /// Digits placed per unit.
    pub placed: &'a mut [u64],
    /// Unassigned cells, one bit per cell.
    pub open: &'a mut [u64],
    /// The number of unassigned cells.
    pub count: &'a mut u64,
}

impl<'a> State<'a> {
    /// Splits a block of `t.stride` words into its parts.
    #[inline]
    pub fn view(t: &CspTables, block: &'a mut [u64]) -> State<'a> {
        let (dom, rest) = block.split_at_mut(t.cells);
        let (placed, rest) = rest.split_at_mut(t.unit_count);
        let (open, rest) = rest.split_at_mut(t.open_words);
        State {
            dom,
            placed,
            open,
            count: &mut rest[0],
        }
    }

    /// Whether `cell` is still unassigned.
    #[inline]
    pub fn is_open(&self, cell: usize) -> bool {
        self.open[cell >> 6] >> (cell & 63) & 1 != 0
    }

    /// The unassigned cells, lowest first.
    #[inline]
    pub fn open_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (self.open.iter().enumerate()).flat_map(|(w, &word)| bits(word).map(move |b| w * 64 + b))
    }
}

// The bitset iterator lives in the matching kernel, a leaf, so that the kernel needs nothing
// from the CSP; the CSP's cells, digits and units are iterated by the same function.
pub(crate) use crate::bipartite::bits;
