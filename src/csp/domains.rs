//! The per-shape tables (units and peers) and the search state: one flat block of `u64`s per
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

use crate::sudoku::Shape;

/// Units (rows, columns, boxes) and peers of every cell, computed once per shape.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    /// The grid side n.
    pub n: usize,
    /// n*n.
    pub cells: usize,
    /// The mask of all n digits.
    pub full: u64,
    /// 3n units of n cells each, flattened: rows, then columns, then boxes.
    pub units: Vec<u16>,
    /// The three units of every cell: row, column, box.
    pub cell_units: Vec<[u16; 3]>,
    /// The units of every cell as a set of unit indices (bit `u % 64` of word `u / 64`), for
    /// marking units dirty. With 3n <= 64 units (n <= 21) everything is in word 0.
    pub cell_bits: Vec<[u64; 3]>,
    /// Whether 3n <= 64, so that unit sets fit in one word.
    pub compact: bool,
    /// The set of all units, as in `cell_bits`.
    pub all_units: [u64; 3],
    /// Peers per cell (the same for every cell): 2(n-1) + (n - r - c + 1).
    pub peer_count: usize,
    /// The peers of every cell, flattened, `peer_count` per cell.
    pub peers: Vec<u16>,
    /// For grids of at most 256 cells, the peers of every cell as a cell bitset
    /// (`open_words` words per cell), so that counting a cell's open peers is a few
    /// popcounts; empty for larger grids, which walk the peer list instead.
    pub peer_masks: Vec<u64>,
    /// Words in the open-cell bitset.
    pub open_words: usize,
    /// Words in one state block.
    pub stride: usize,
}

impl Tables {
    pub fn new(shape: Shape) -> Tables {
        let n = shape.size();
        let cells = n * n;
        let mut units = Vec::with_capacity(3 * n * n);
        for row in 0..n {
            units.extend((0..n).map(|col| (row * n + col) as u16));
        }
        for col in 0..n {
            units.extend((0..n).map(|row| (row * n + col) as u16));
        }
        for b in 0..n {
            let (r0, c0) = shape.box_origin(b);
            for dr in 0..shape.box_rows() {
                for dc in 0..shape.box_cols() {
                    units.push(((r0 + dr) * n + c0 + dc) as u16);
                }
            }
        }
        let cell_units: Vec<[u16; 3]> = (0..cells)
            .map(|cell| {
                let (row, col) = (cell / n, cell % n);
                [
                    row as u16,
                    (n + col) as u16,
                    (2 * n + shape.box_of(row, col)) as u16,
                ]
            })
            .collect();
        let unit_set = |units: &[u16]| {
            let mut set = [0u64; 3];
            for &u in units {
                set[u as usize / 64] |= 1 << (u % 64);
            }
            set
        };
        let cell_bits = cell_units.iter().map(|units| unit_set(units)).collect();
        let all: Vec<u16> = (0..3 * n as u16).collect();
        let mut peers = Vec::new();
        let mut is_peer = vec![false; cells];
        let mut peer_count = 0;
        for (cell, its_units) in cell_units.iter().enumerate() {
            let start = peers.len();
            for &u in its_units {
                for &p in &units[u as usize * n..(u as usize + 1) * n] {
                    if p as usize != cell && !is_peer[p as usize] {
                        is_peer[p as usize] = true;
                        peers.push(p);
                    }
                }
            }
            for &p in &peers[start..] {
                is_peer[p as usize] = false;
            }
            peer_count = peers.len() - start;
        }
        let open_words = cells.div_ceil(64);
        let mut peer_masks = Vec::new();
        if open_words <= 4 {
            peer_masks = vec![0u64; cells * open_words];
            for cell in 0..cells {
                for &p in &peers[cell * peer_count..(cell + 1) * peer_count] {
                    let p = p as usize;
                    peer_masks[cell * open_words + p / 64] |= 1 << (p % 64);
                }
            }
        }
        Tables {
            n,
            cells,
            full: if n == 64 { u64::MAX } else { (1 << n) - 1 },
            units,
            cell_units,
            cell_bits,
            compact: 3 * n <= 64,
            all_units: unit_set(&all),
            peer_count,
            peers,
            peer_masks,
            open_words,
            stride: cells + 3 * n + open_words + 1,
        }
    }

    /// The n cells of unit `u`.
    #[inline]
    pub fn unit(&self, u: usize) -> &[u16] {
        &self.units[u * self.n..(u + 1) * self.n]
    }

    /// The peers of `cell`.
    #[inline]
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
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
    pub fn view(t: &Tables, block: &'a mut [u64]) -> State<'a> {
        let (dom, rest) = block.split_at_mut(t.cells);
        let (placed, rest) = rest.split_at_mut(3 * t.n);
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
}
