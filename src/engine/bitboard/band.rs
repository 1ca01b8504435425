//! The 9x9 Sudoku search by bands: where each digit can go, as one 27-bit word per digit and
//! band (three rows), so that a digit's rows and boxes inside a band are settled by a few
//! table lookups on one word.
//!
//! A digit goes once in each row of a band and once in each of its boxes, so the rows of a band
//! take the boxes in one of six permutations. Which boxes each row can still reach is a 3x3
//! pattern of nine bits; a table (`PERMITTED`) keeps the cells of the row-box segments that
//! some permutation of reached segments uses. That one step is the hidden singles of rows and
//! boxes and the locked candidates between them for the band. The word's columns, folded,
//! give the rest (`COLUMNS`, `CLAIMED`): a box down to one column takes that column from the
//! digit's other bands (pointing); a column that one band alone reaches keeps the digit's box
//! there to that column (claiming, which JCZSolve leaves out: it cuts the nodes by two fifths
//! on 17-clue puzzles and a sixth on forum-hardest ones); a column no band reaches is a contradiction; and a box that one row and one
//! column reach has the digit, whose cell then leaves the band's other digits. Naked singles
//! are read bit-sliced across the nine digits of a band.
//!
//! The search branches on a cell with two digits, and among those on one with the most open
//! peers (its row, box and column), where JCZSolve takes the first: each branch then takes
//! the most candidates, so the tree is smaller (`solve --limit 2 -j1 --stats` and callgrind
//! on the forum-hardest set decided it). Counting the open peers, two popcounts a cell, is
//! the cheap measure of that.
//!
//! **The cost of a node.** A node copies the state (264 bytes; not for a cell's last digit,
//! see [`BandSearch::count`]), places its digit and settles that digit's word at once, then
//! sweeps: each word that changed since it was last settled is settled again, in straight-line
//! code, until none has; then the naked singles, and again. On the first 500 forum-hardest
//! puzzles a node settles about 12 words in 4 sweeps, and the sweeps' tests, one a word, give
//! seven in ten of the mispredicted branches (callgrind `--branch-sim=yes`). Where the CPU has
//! the bit instructions and vectors of x86-64-v3 the count runs a copy of itself compiled with
//! them ([`Bmi`]), chosen once when the search is made: the baseline target that the release
//! is built for has no `popcnt`, `tzcnt`, `andn`, shifts without `cl` nor 256-bit vectors.
//!
//! This is the representation of JCZSolve (the `sudoku` crate's solver), written from its
//! description; it serves plain 9x9 Sudoku, where the bands are the boxes' rows. Other boards
//! keep the bitboard of cells in [`super::tables`].

use super::search::{Ask, Counted};
use crate::board::{Cell, Digit};
use crate::budget::{Stop, past_deadline};
use crate::sudoku::{Grid, Shape};

/// The nine cells of a band's first row.
const ROW: u32 = 0x1FF;

/// The three cells of a band's first column.
const COLUMN: u32 = 1 | 1 << 9 | 1 << 18;

/// For a row's nine cells: which of the band's three boxes it reaches (bit k: box k).
const BOXES_OF_ROW: [u32; 512] = {
    let mut boxes = [0; 512];
    let mut row = 0;
    while row < 512 {
        let mut k = 0;
        while k < 3 {
            if row >> (3 * k) & 7 != 0 {
                boxes[row] |= 1 << k;
            }
            k += 1;
        }
        row += 1;
    }
    boxes
};

/// For the segments a digit reaches in a band (bit 3r + k: row r in box k): in bits 0 to 26,
/// the cells of the segments that a permutation of reached segments uses (zero when none
/// does); in bits 27 to 29, the boxes that one of those segments alone reaches.
const PERMITTED: [u32; 512] = {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut permitted = [0; 512];
    let mut reached = 0;
    while reached < 512 {
        let mut kept = 0u32;
        let mut p = 0;
        while p < 6 {
            let boxes = PERMUTATIONS[p];
            let mut segments = 0u32;
            let mut r = 0;
            while r < 3 {
                segments |= 1 << (3 * r + boxes[r]);
                r += 1;
            }
            if reached as u32 & segments == segments {
                kept |= segments;
            }
            p += 1;
        }
        let mut k = 0;
        while k < 3 {
            let mut rows = 0;
            let mut r = 0;
            while r < 3 {
                if kept >> (3 * r + k) & 1 == 1 {
                    permitted[reached] |= 7 << (9 * r + 3 * k);
                    rows += 1;
                }
                r += 1;
            }
            if rows == 1 {
                permitted[reached] |= 1 << (27 + k);
            }
            k += 1;
        }
        reached += 1;
    }
    permitted
};

/// For the columns a digit reaches in a band (bit c): in bits 0 to 26, the cells of the other
/// bands that keep the digit (all but the columns it is down to in some box: pointing); in
/// bits 27 to 29, the boxes (bit k) it reaches in one column only. One table rather than two
/// steps keeps the chain of dependent loads in a settle short (perf, `solve --limit 2 -j1` on
/// the forum-hardest set).
const COLUMNS: [u32; 512] = {
    let mut table = [0; 512];
    let mut columns = 0;
    while columns < 512 {
        let mut locked = 0u32;
        let mut k = 0;
        while k < 3 {
            let three = columns >> (3 * k) & 7;
            if three == 1 || three == 2 || three == 4 {
                table[columns] |= 1 << (27 + k);
                locked |= (three as u32) << (3 * k);
            }
            k += 1;
        }
        table[columns] |= !(locked | locked << 9 | locked << 18) & ((1 << 27) - 1);
        columns += 1;
    }
    table
};

/// For the columns where a digit must be in this band (bit c: the other bands lack it
/// there), the cells that keep the digit: in a box with one such column, that column's cells
/// (claiming); in a box with two or more, none; in the other boxes, all.
const CLAIMED: [u32; 512] = {
    let mut table = [0; 512];
    let mut claimed = 0;
    while claimed < 512 {
        let mut k = 0;
        while k < 3 {
            let three = claimed >> (3 * k) & 7;
            let keep = match three {
                0 => 7u32,
                1 | 2 | 4 => three as u32,
                _ => 0,
            };
            let keep = keep << (3 * k);
            table[claimed] |= keep | keep << 9 | keep << 18;
            k += 1;
        }
        claimed += 1;
    }
    table
};

/// The cells of a set of a band's boxes (bit k: box k).
const BOXES: [u32; 8] = {
    let mut boxes = [0; 8];
    let mut set = 0;
    while set < 8 {
        let mut k = 0;
        while k < 3 {
            if set >> k & 1 == 1 {
                boxes[set] |= 0o7007007 << (3 * k);
            }
            k += 1;
        }
        set += 1;
    }
    boxes
};

/// Eight bits spread over eight bytes: byte k of `SPREAD[x]` is bit k of x.
const SPREAD: [u64; 256] = {
    let mut spread = [0; 256];
    let mut x = 0;
    while x < 256 {
        let mut k = 0;
        while k < 8 {
            spread[x] |= ((x as u64) >> k & 1) << (8 * k);
            k += 1;
        }
        x += 1;
    }
    spread
};

/// For each cell of a band: the other cells of its row, box and column in the band (32
/// entries, so that a bit's index is always in range).
const PEERS: [u32; 32] = {
    let mut peers = [0; 32];
    let mut cell = 0;
    while cell < 27 {
        let (r, c) = (cell / 9, cell % 9);
        let mut other = 0;
        while other < 27 {
            let (r2, c2) = (other / 9, other % 9);
            if other != cell && (r2 == r || c2 == c || c2 / 3 == c / 3) {
                peers[cell] |= 1 << other;
            }
            other += 1;
        }
        cell += 1;
    }
    peers
};

/// The search state at one depth, copied to the next (264 bytes).
#[derive(Clone, Copy, Debug)]
pub(super) struct Bands {
    /// Per digit and band (index 3 * digit + band): the cells where the digit can go, its
    /// placed cells included.
    cells: [u32; 27],
    /// Each word as it was when it was last settled: a word that differs has news.
    settled: [u32; 27],
    /// Per band: the cells without a digit.
    open: [u32; 3],
    /// Per band: the open cells with two digits, as the last look for naked singles left them.
    pairs: [u32; 3],
}

impl Bands {
    const EMPTY: Bands = Bands {
        cells: [(1 << 27) - 1; 27],
        settled: [0; 27],
        open: [(1 << 27) - 1; 3],
        pairs: [0; 3],
    };

    /// Places the digit (0-based) at a band's cell, which must be among the digit's cells
    /// there: the cell's row and box lose the digit, and settling the digit's word, at once,
    /// finds the cell placed and takes it from the other digits; false on a contradiction.
    /// The word is settled here rather than found by the next sweep, whose test for it
    /// mispredicts (callgrind `--branch-sim=yes`: 3% fewer instructions and mispredictions on
    /// the forum-hardest set).
    #[inline(always)]
    fn place(&mut self, band: usize, cell: usize, digit: usize, reach: impl Reach) -> bool {
        self.cells[3 * digit + band] &= !PEERS[cell];
        self.settle_word(3 * digit + band, reach)
    }

    /// The digits (bit d) that can go in a band's cell.
    #[inline(always)]
    fn digits(&self, band: usize, cell: usize) -> u32 {
        // A loop rather than a fold, which the compiler left out of line (callgrind).
        let mut digits = 0;
        for d in 0..9 {
            digits |= (self.cells[3 * d + band] >> cell & 1) << d;
        }
        digits
    }

    /// Settles word `i`, that of digit `i / 3` in band `i % 3`: keeps the segments that a
    /// permutation of its rows and boxes uses, takes from the digit's other bands the columns
    /// it holds in a box, and takes from the band's other digits the cells where it is placed
    /// (a box that one row and one column reach); false on a contradiction. The sweep gives
    /// `i` as a constant, so that every other word's place is one too once inlined, and the
    /// other words are cut whether or not they hold what is cut: a test per word mispredicts
    /// more than it saves (callgrind `--branch-sim=yes`, `solve --limit 2 -j1` on the
    /// forum-hardest set).
    ///
    /// Each settle begins by making the compiler forget the words ([`Bands::forget`]): a word
    /// kept in a register across the unrolled sweep is also kept on the stack, and each cut of
    /// it becomes a load, a cut and two stores (callgrind, `solve --limit 2 -j1` on the first
    /// 5,000 serg puzzles).
    #[inline(always)]
    fn settle_word(&mut self, i: usize, reach: impl Reach) -> bool {
        self.forget();
        self.settle_word_here(i, reach)
    }

    /// Makes the compiler forget what it knows of the state's words: an empty piece of
    /// assembly that is handed the state's address and may read and write it, so the words
    /// are in memory before it and read again after. Where `asm!` is not at hand,
    /// [`std::hint::black_box`] does the same, at the cost of a round trip of the address
    /// through the stack that the settle's loads wait for.
    #[inline(always)]
    fn forget(&mut self) {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        // SAFETY: the assembly is empty: it reads, writes and clobbers nothing.
        unsafe {
            let state = std::ptr::from_mut(self);
            std::arch::asm!("/* {0} */", in(reg) state, options(nostack, preserves_flags));
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let _ = std::hint::black_box(&mut *self);
    }

    /// [`Bands::settle_word`] on a state the compiler sees afresh.
    #[inline(always)]
    fn settle_word_here(&mut self, i: usize, reach: impl Reach) -> bool {
        let band = i % 3;
        let word = self.cells[i];
        // The mask keeps the index in the table's range where the compiler can see it, so
        // that no bounds check is left in the sweep.
        let permitted = PERMITTED[reach.segments(word) as usize & 511];
        let word = word & permitted;
        if word == 0 {
            return false;
        }
        // A box where the digit is down to one column holds it for that column: the digit's
        // other bands lose the column (pointing, placed cells included).
        let fold = |w: u32| (w | w >> 9 | w >> 18) & ROW;
        let own = fold(word);
        let columns = COLUMNS[own as usize];
        // A column that one band alone reaches has the digit in that band: its box there
        // keeps only that column (claiming), and a column no band reaches is a contradiction.
        let (first, second) = (i - band + (band + 1) % 3, i - band + (band + 2) % 3);
        let (one, two) = (fold(self.cells[first]), fold(self.cells[second]));
        if own | one | two != ROW {
            return false;
        }
        // Odd, and not all three: one alone.
        let alone = (own ^ one ^ two) & !(own & one & two);
        self.cells[first] &= columns & CLAIMED[(alone & one) as usize];
        self.cells[second] &= columns & CLAIMED[(alone & two) as usize];
        let claimed = word & CLAIMED[(alone & own) as usize];
        // A box that one row and one column of the digit reach has its cell.
        let placed = word & BOXES[(permitted & columns) as usize >> 27 & 7];
        self.open[band] &= !placed;
        for d in 0..9 {
            self.cells[3 * d + band] &= !placed;
        }
        // A claim on the digit's own word is news for the next sweep.
        self.cells[i] = claimed;
        self.settled[i] = word;
        true
    }

    /// Settles every word with news once, in order (see [`Bands::settle_word`]); whether any
    /// had news, or `None` on a contradiction. The words are tested one after another in
    /// straight-line code rather than found and dispatched by index, whose indirect jumps
    /// mispredict (callgrind `--branch-sim=yes`, `solve --limit 2 -j1` on the forum-hardest
    /// set).
    #[inline(always)]
    fn sweep(&mut self, reach: impl Reach) -> Option<bool> {
        let mut news = false;
        macro_rules! sweep {
            ($($i:literal)*) => {
                $(
                    if self.cells[$i] != self.settled[$i] {
                        news = true;
                        if !self.settle_word($i, reach) {
                            return None;
                        }
                    }
                )*
            };
        }
        sweep!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
        Some(news)
    }

    /// Places the naked singles (a cell in exactly one digit's word) and keeps the cells with
    /// two digits for [`Bands::choose`]; whether it placed any, or `None` on a contradiction
    /// (an open cell without a digit).
    #[inline(always)]
    fn naked_singles(&mut self) -> Option<bool> {
        let mut placed = false;
        // The three bands are counted together, as a digit's three words are adjacent, so that
        // one test refuses a band with an empty cell.
        let (mut once, mut twice, mut thrice) = ([0u32; 3], [0u32; 3], [0u32; 3]);
        for d in 0..9 {
            for band in 0..3 {
                let word = self.cells[3 * d + band];
                thrice[band] |= twice[band] & word;
                twice[band] |= once[band] & word;
                once[band] |= word;
            }
        }
        if once != [(1 << 27) - 1; 3] {
            return None;
        }
        for band in 0..3 {
            let (twice, thrice) = (twice[band], thrice[band]);
            self.pairs[band] = twice & !thrice;
            let singles = self.open[band] & !twice;
            if singles == 0 {
                continue;
            }
            placed = true;
            for d in 0..9 {
                let i = 3 * d + band;
                let mut hits = self.cells[i] & singles;
                while hits != 0 {
                    self.cells[i] &= !PEERS[hits.trailing_zeros() as usize];
                    hits &= hits - 1;
                }
            }
        }
        Some(placed)
    }

    /// Draws every consequence of the words with news: rows and boxes per band, columns
    /// across bands, naked singles; false on a contradiction.
    #[inline(always)]
    fn settle(&mut self, reach: impl Reach) -> bool {
        loop {
            loop {
                match self.sweep(reach) {
                    None => return false,
                    Some(true) => {}
                    Some(false) => break,
                }
            }
            match self.naked_singles() {
                None => return false,
                Some(true) => {}
                Some(false) => return true,
            }
        }
    }

    /// The cell to branch on, as (band, cell in band): of the cells with two digits, the
    /// first with the most open peers (see the module doc); when there is none, the first with
    /// the fewest digits and of those the most open peers; `None` when every cell has its
    /// digit.
    #[inline(always)]
    fn choose(&self) -> Option<(usize, usize)> {
        // The open peers of the best cell so far above its place, 32 * band + cell, counted
        // down from 127 so that the first of the best keeps the greatest key: a maximum
        // without a branch, which mispredicted (callgrind `--branch-sim=yes`, `solve --limit
        // 2 -j1` on the forum-hardest set); 0 while there is none.
        let mut best = 0;
        for band in 0..3 {
            let mut pairs = self.pairs[band];
            // Read once per band: per cell, the compiler does not hoist them (callgrind, 1.4%
            // more instructions on the first 500 forum-hardest puzzles).
            let (open, others) = (self.open[band], self.other_bands_open(band));
            while pairs != 0 {
                let cell = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let degree = open_peers(open, others, cell);
                best = best.max(degree << 7 | (127 - (32 * band + cell)) as u32);
            }
        }
        if best != 0 {
            let at = 127 - (best & 127) as usize;
            return Some((at / 32, at % 32));
        }
        let mut best = None;
        let mut fewest = u32::MAX;
        for band in 0..3 {
            let mut open = self.open[band];
            while open != 0 {
                let cell = open.trailing_zeros() as usize;
                open &= open - 1;
                let peers = open_peers(self.open[band], self.other_bands_open(band), cell);
                let count = self.digits(band, cell).count_ones() * 32 - peers;
                if count < fewest {
                    (best, fewest) = (Some((band, cell)), count);
                }
            }
        }
        best
    }

    /// The open cells of the two other bands than `band`, in the low and high halves.
    #[inline(always)]
    fn other_bands_open(&self, band: usize) -> u64 {
        u64::from(self.open[(band + 1) % 3]) | u64::from(self.open[(band + 2) % 3]) << 32
    }

    /// The number of cells without a digit.
    #[inline(always)]
    fn open_count(&self) -> u64 {
        let [a, b, c] = self.open;
        u64::from((u64::from(a) | u64::from(b) << 27).count_ones() + c.count_ones())
    }
}

/// The band search of plain 9x9 Sudoku: a state per depth.
#[derive(Clone, Debug)]
pub(crate) struct BandSearch {
    /// One state per depth, the root first.
    stack: Vec<Bands>,
    /// Per depth: the band and cell branched on, and the digits (bit d) not tried yet.
    choices: Vec<(usize, usize, u32)>,
    /// Per depth: the open cells of its state.
    open: Vec<u64>,
    /// Per depth: the nodes that took the place of its state, their branch's last digit
    /// placed without a copy (each is undone with it, for the statistics).
    replaced: Vec<u64>,
    /// Whether the count runs compiled for the CPU's bit instructions (see [`Bmi`]).
    bmi: Option<Bmi>,
}

impl BandSearch {
    pub(crate) fn new() -> BandSearch {
        BandSearch {
            stack: vec![Bands::EMPTY; 82],
            choices: vec![(0, 0, 0); 82],
            open: vec![0; 82],
            replaced: vec![0; 82],
            bmi: Bmi::detect(),
        }
    }

    /// Loads the givens of `puzzle` (81 cells) less the excluded placements into the root and
    /// settles it; the number of givens, or `None` on a contradiction. Inlined, so that the
    /// count compiled with [`Bmi`] settles the givens with it too.
    #[inline(always)]
    fn load(
        &mut self,
        puzzle: &Grid,
        excluded: &[(Cell, Digit)],
        reach: impl Reach,
    ) -> Option<u64> {
        let root = &mut self.stack[0];
        *root = Bands::EMPTY;
        for &(cell, digit) in excluded {
            let (band, cell) = (cell.index() / 27, cell.index() % 27);
            root.cells[3 * digit.index() + band] &= !(1 << cell);
        }
        // Each given cuts only its digit's three words (its row, box and column); the given
        // cells leave the other digits' words together at the end, one cut a word, as most
        // words hold no given. A given whose cell its digit has lost (to an earlier given or
        // an exclusion) is a contradiction.
        let mut given = [0u32; 27];
        let mut any = [0u32; 3];
        for (band, cells) in puzzle.cells().chunks_exact(27).enumerate() {
            // The given cells as a mask first, then only those visited: a branch per cell on
            // whether it is given mispredicts at every given (callgrind `--branch-sim=yes`,
            // `solve --limit 2 -j1` on puzzles2_17_clue).
            let mut mask = (cells.iter().enumerate())
                .fold(0u32, |m, (cell, &d)| m | u32::from(d != 0) << cell);
            any[band] = mask;
            while mask != 0 {
                let cell = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                // A given is 1 to 9 (a `Grid`'s range): `min` only spares a bounds check.
                let digit = usize::from(cells[cell].wrapping_sub(1)).min(8);
                let own = root.cells[3 * digit + band];
                if own >> cell & 1 == 0 {
                    return None; // a peer has the digit, or it is excluded here
                }
                let column = !(COLUMN_ELSEWHERE[cell] as u32);
                root.cells[3 * digit] &= column;
                root.cells[3 * digit + 1] &= column;
                root.cells[3 * digit + 2] &= column;
                root.cells[3 * digit + band] = own & !PEERS[cell];
                given[3 * digit + band] |= 1 << cell;
            }
        }
        for (i, (cells, given)) in root.cells.iter_mut().zip(given).enumerate() {
            *cells &= !any[i % 3] | given;
        }
        for (open, any) in root.open.iter_mut().zip(any) {
            *open &= !any;
        }
        let givens = any.iter().map(|w| u64::from(w.count_ones())).sum();
        root.settle(reach).then_some(givens)
    }

    /// The grid of a solved state.
    ///
    /// Each cell's digit is read from the digits' words as four planes, one per bit of the
    /// digit, eight cells at a time, rather than by visiting each word's cells, whose loops
    /// mispredict at their ends (callgrind `--branch-sim=yes`, `solve --limit 2 -j1` on
    /// puzzles2_17_clue).
    fn grid(state: &Bands) -> Grid {
        let mut cells = vec![0u8; 81];
        for (band, band_cells) in cells.chunks_exact_mut(27).enumerate() {
            let mut planes = [0u32; 4];
            for d in 0..9 {
                let word = state.cells[3 * d + band];
                for (plane, bits) in planes.iter_mut().enumerate() {
                    if (d + 1) >> plane & 1 == 1 {
                        *bits |= word;
                    }
                }
            }
            let mut values = [0u8; 32];
            for (eight, chunk) in values.chunks_exact_mut(8).enumerate() {
                let spread = |plane: usize| SPREAD[(planes[plane] >> (8 * eight) & 0xFF) as usize];
                let bytes = spread(0) | spread(1) << 1 | spread(2) << 2 | spread(3) << 3;
                chunk.copy_from_slice(&bytes.to_le_bytes());
            }
            band_cells.copy_from_slice(&values[..27]);
        }
        Grid::from_cells_in_range(Shape::CLASSIC, cells)
    }

    /// Counts the solutions of `puzzle` (plain 9x9) without the excluded placements, up to the
    /// limit within the budget, keeping the first; the clock is read every 1024 nodes. The last
    /// digit of a branch is placed in its parent's state, which nothing needs any more,
    /// rather than in a copy.
    pub(crate) fn count(&mut self, puzzle: &Grid, ask: &Ask<'_>) -> Counted {
        match self.bmi {
            Some(bmi) => bmi.count(self, puzzle, ask),
            None => self.count_here(puzzle, ask, Tables),
        }
    }

    /// [`BandSearch::count`] as compiled for the caller's CPU: inlined into each copy.
    #[inline(always)]
    fn count_here(&mut self, puzzle: &Grid, ask: &Ask<'_>, reach: impl Reach) -> Counted {
        let deadline = ask.deadline;
        let mut max_nodes = ask.first_stop();
        let mut counted = Counted::root();
        let Some(givens) = self.load(puzzle, ask.excluded, reach) else {
            return counted;
        };
        let blanks = 81 - givens;
        self.open[0] = self.stack[0].open_count();
        self.replaced[0] = 0;
        counted.forced = blanks - self.open[0];
        let mut depth = 0;
        let mut fresh = true;
        counted.stop = loop {
            if fresh {
                match self.stack[depth].choose() {
                    None => {
                        counted.solutions += 1;
                        if counted.first.is_none() {
                            counted.first = Some(BandSearch::grid(&self.stack[depth]));
                        }
                        if counted.solutions >= ask.limit {
                            break Stop::Limit;
                        }
                        self.choices[depth].2 = 0;
                    }
                    Some((band, cell)) => {
                        self.choices[depth] = (band, cell, self.stack[depth].digits(band, cell));
                    }
                }
            }
            fresh = false;
            let (band, cell, remaining) = self.choices[depth];
            if remaining == 0 {
                // This depth's node is undone, and the nodes that took its place.
                let undone = self.replaced[depth] + u64::from(depth > 0);
                counted.backtracks += undone;
                if depth == 0 {
                    break Stop::Exhausted;
                }
                depth -= 1;
                continue;
            }
            // Nine digits: the bit fits in the band's word.
            let bit = ask.first_digit(27 * band + cell, u64::from(remaining)) as u32;
            let rest = remaining & !bit;
            self.choices[depth].2 = rest;
            if counted.nodes >= max_nodes {
                match ask.at_stop(counted.nodes, counted.solutions) {
                    Ok(next) => max_nodes = next,
                    Err(stop) => break stop,
                }
            }
            if past_deadline(deadline, counted.nodes) {
                break Stop::TimeBudget;
            }
            counted.nodes += 1;
            let digit = bit.trailing_zeros() as usize;
            let before = self.open[depth];
            let (parents, children) = self.stack.split_at_mut(depth + 1);
            let (state, next) = if rest == 0 {
                (&mut parents[depth], depth)
            } else {
                children[0] = parents[depth];
                (&mut children[0], depth + 1)
            };
            if state.place(band, cell, digit, reach) && state.settle(reach) {
                let open = state.open_count();
                counted.forced += before - 1 - open;
                if next == depth {
                    self.replaced[depth] += 1;
                } else {
                    self.replaced[next] = 0;
                }
                self.open[next] = open;
                depth = next;
                fresh = true;
            } else {
                counted.backtracks += 1;
            }
        };
        counted
    }
}

/// Proof that this CPU has the bit instructions of x86-64-v3 (`popcnt`, `bmi1`, `bmi2`,
/// `lzcnt`) and its vectors (`avx2`), which the baseline x86-64 target lacks: only
/// [`Bmi::detect`] makes one, after asking the CPU, so that code holding one may run
/// functions compiled with them. With the bit instructions the count counts open peers in
/// one instruction, clears and finds bits in one (`andn`, `tzcnt`, `blsr`) and shifts without
/// the `cl` register; with `avx2` a state is copied by inline vector moves, not a call to
/// `memcpy`; and where `pext` is quick a settle reads a word's segments with it ([`Reach`])
/// (callgrind, `solve --limit 2 -j1`, on the first 500 forum-hardest and the first 5,000 serg
/// puzzles).
#[derive(Clone, Copy, Debug)]
struct Bmi {
    /// Whether the count reads a word's segments with `pext` ([`Bmi::pext_is_quick`]).
    pext: bool,
}

impl Bmi {
    /// `Some` when the CPU has the five.
    fn detect() -> Option<Bmi> {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let bits = has!("popcnt") && has!("bmi1") && has!("bmi2") && has!("lzcnt");
            let pext = Bmi::pext_is_quick();
            (bits && has!("avx2")).then_some(Bmi { pext })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// Whether `pext` is one quick instruction here: AMD's CPUs before Zen 3 (family 0x17 and
    /// older) run it as microcode, tens to hundreds of cycles by its mask (Agner Fog's
    /// instruction tables), where a settle's table lookups take a few.
    fn pext_is_quick() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::__cpuid;
            let vendor = __cpuid(0);
            // "AuthenticAMD", as the CPU spells it in ebx, edx, ecx.
            let amd =
                (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
            let signature = __cpuid(1).eax;
            let (base, extended) = (signature >> 8 & 0xf, signature >> 20 & 0xff);
            let family = if base == 0xf { base + extended } else { base };
            !amd || family >= 0x19
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// [`BandSearch::count`] compiled with the five.
    fn count(self, search: &mut BandSearch, puzzle: &Grid, ask: &Ask<'_>) -> Counted {
        #[cfg(target_arch = "x86_64")]
        {
            // Two functions, not one with both copies inlined: an unoptimised build gives each
            // inlined copy its own stack slots, and both in one frame need more than the 2 MiB
            // stack of a search thread (the Python module's `wheel-ci` build).
            #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
            fn count_pext(search: &mut BandSearch, puzzle: &Grid, ask: &Ask<'_>) -> Counted {
                search.count_here(puzzle, ask, Bmi { pext: true })
            }
            #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
            fn count_tables(search: &mut BandSearch, puzzle: &Grid, ask: &Ask<'_>) -> Counted {
                search.count_here(puzzle, ask, Tables)
            }
            // SAFETY: `self` exists only if `detect` found the five on this CPU.
            unsafe {
                if self.pext {
                    count_pext(search, puzzle, ask)
                } else {
                    count_tables(search, puzzle, ask)
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            search.count_here(puzzle, ask, Tables)
        }
    }
}

/// How a settle reads which row-box segments of a band a digit's word reaches (bit 3r + k:
/// row r in box k): by table, or with the CPU's bit instructions ([`Bmi`]).
trait Reach: Copy {
    fn segments(self, word: u32) -> u32;
}

/// The segments read by a table lookup per row.
#[derive(Clone, Copy, Debug)]
struct Tables;

impl Reach for Tables {
    #[inline(always)]
    fn segments(self, word: u32) -> u32 {
        BOXES_OF_ROW[(word & ROW) as usize]
            | BOXES_OF_ROW[(word >> 9 & ROW) as usize] << 3
            | BOXES_OF_ROW[(word >> 18 & ROW) as usize] << 6
    }
}

/// Handed to the search only as a `Bmi` with `pext` ([`Bmi::count`]).
impl Reach for Bmi {
    /// A segment's three bits folded onto its first, then the nine first bits gathered by
    /// one `pext`: five instructions where the tables take seventeen (a settle's first step,
    /// callgrind on the first 5,000 serg puzzles).
    #[inline(always)]
    fn segments(self, word: u32) -> u32 {
        let folded = word | word >> 1 | word >> 2;
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `self` exists only if `Bmi::detect` found `bmi2` on this CPU.
            unsafe { std::arch::x86_64::_pext_u32(folded, 0o111111111) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Tables.segments(word)
        }
    }
}

/// The open peers of a band's cell (its row and box in the band, and its column), from the
/// band's open cells and the other bands' ([`Bands::other_bands_open`]).
#[inline(always)]
fn open_peers(open: u32, others: u64, cell: usize) -> u32 {
    (open & PEERS[cell]).count_ones() + (others & COLUMN_ELSEWHERE[cell]).count_ones()
}

/// For each cell of a band: its column in the two other bands, in the low and high halves
/// as [`Bands::other_bands_open`] has them (32 entries, as [`PEERS`]); the low half is the
/// column in any band. A load, as computing the column from `cell % 9` costs a multiplication
/// and shifts on the search's hottest path (callgrind, `solve --limit 2 -j1`).
const COLUMN_ELSEWHERE: [u64; 32] = {
    let mut columns = [0; 32];
    let mut cell = 0;
    while cell < 27 {
        columns[cell] = (COLUMN << (cell % 9)) as u64 * (1 | 1 << 32);
        cell += 1;
    }
    columns
};

#[cfg(test)]
mod tests {
    use super::{BandSearch, Bands, Bmi, COLUMN, PEERS, Reach, Tables};
    use crate::board::{Cell, Digit};
    use crate::budget::Budget;
    use crate::engine::bitboard::search::Ask;
    use crate::sudoku::{Grid, Shape};
    use rand::{RngExt, SeedableRng};

    /// The count compiled with the CPU's bit instructions ([`Bmi`]), with `pext` and without,
    /// and the plain one walk the same tree: the same solutions, first solution, nodes, backtracks and forced cells, on
    /// random puzzles from 17 to 40 givens, counted up to 2 and to the end. Where the CPU
    /// lacks them there is one count only, and the test says so.
    #[test]
    fn the_count_with_bit_instructions_walks_the_plain_tree() {
        if Bmi::detect().is_none() {
            eprintln!("this CPU lacks popcnt, bmi1, bmi2, lzcnt or avx2: one count only");
            return;
        }
        let (mut with, mut tables, mut plain) =
            (BandSearch::new(), BandSearch::new(), BandSearch::new());
        // With pext, and the copy for older AMD CPUs: the bit instructions, the segments read
        // by table.
        (with.bmi, tables.bmi, plain.bmi) =
            (Some(Bmi { pext: true }), Some(Bmi { pext: false }), None);
        let unlimited = Budget::unlimited();
        let (mut nodes, mut several) = (0, 0);
        for seed in 0..200 {
            let givens = [17, 20, 24, 28, 40][seed as usize % 5];
            let puzzle = crate::generate::random_puzzle(Shape::CLASSIC, seed, givens);
            for limit in [2, u64::MAX] {
                let ask = Ask {
                    excluded: &[],
                    limit,
                    budget: &unlimited,
                    preferred: &[],
                    deadline: None,
                    pause: None,
                };
                if limit == u64::MAX && givens < 28 {
                    continue; // counting all is for the fuller puzzles
                }
                let ours = with.count(&puzzle, &ask);
                assert_eq!(ours, plain.count(&puzzle, &ask), "seed {seed}: {puzzle}");
                assert_eq!(ours, tables.count(&puzzle, &ask), "seed {seed}: {puzzle}");
                nodes += ours.nodes;
                several += u64::from(ours.solutions > 1);
            }
        }
        assert!(
            nodes > 10_000 && several > 50,
            "{nodes} nodes, {several} with several"
        );
    }

    /// A word's segments read with `pext` ([`Bmi`]) are those the tables read, and those
    /// found cell by cell: for every pattern of each row with the other rows full, empty or
    /// random, and for random words with bits above the band's 27.
    #[test]
    fn the_segments_read_with_pext_are_the_tables_ones() {
        let by_cells = |word: u32| {
            (0..27)
                .filter(|&cell| word >> cell & 1 == 1)
                .fold(0, |segments, cell| {
                    segments | 1 << (3 * (cell / 9) + cell % 9 / 3)
                })
        };
        let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
        let mut words = Vec::new();
        for row in 0..3 {
            for pattern in 0..512u32 {
                let others = [0, (1 << 27) - 1, rng.random_range(0..1 << 27)];
                for rest in others {
                    words.push(rest & !(0x1FF << (9 * row)) | pattern << (9 * row));
                }
            }
        }
        words.extend((0..10_000).map(|_| rng.random::<u32>()));
        let bmi = Bmi::detect();
        for &word in &words {
            let tables = Tables.segments(word);
            assert_eq!(tables, by_cells(word & ((1 << 27) - 1)), "{word:#x}");
            if let Some(bmi) = bmi {
                assert_eq!(bmi.segments(word) & 511, tables, "{word:#x}");
            }
        }
        if bmi.is_none() {
            eprintln!("this CPU lacks popcnt, bmi1, bmi2, lzcnt or avx2: the tables only");
        }
    }

    /// The givens one at a time, the plain way that the root's loader must agree with: each
    /// given takes its cell from the band's other digits at once, its row, box and band's
    /// column from its digit's word, and its column from the digit's other bands; a given whose
    /// cell its digit has lost already is a contradiction.
    fn load_one_by_one(puzzle: &Grid, excluded: &[(Cell, Digit)]) -> Option<Bands> {
        let mut root = Bands::EMPTY;
        for &(cell, digit) in excluded {
            let (band, cell) = (cell.index() / 27, cell.index() % 27);
            root.cells[3 * digit.index() + band] &= !(1 << cell);
        }
        for (i, &d) in puzzle.cells().iter().enumerate() {
            let (band, cell, digit) = (i / 27, i % 27, usize::from(d).wrapping_sub(1));
            if d == 0 {
                continue;
            }
            let own = root.cells[3 * digit + band];
            if own >> cell & 1 == 0 {
                return None;
            }
            for d in 0..9 {
                root.cells[3 * d + band] &= !(1 << cell);
            }
            root.cells[3 * digit + band] = own & !PEERS[cell];
            for other in (0..3).filter(|&other| other != band) {
                root.cells[3 * digit + other] &= !(COLUMN << (cell % 9));
            }
            root.open[band] &= !(1 << cell);
        }
        root.settle(Tables).then_some(root)
    }

    /// The root as loaded (the other digits lose the given cells once, at the end) is the
    /// root loaded one given at a time, settled: on random puzzles, on the same with a given
    /// changed (often a repeat, a contradiction) and with random placements excluded (some
    /// of them a given's own).
    #[test]
    fn the_root_is_the_root_of_the_givens_one_by_one() {
        let mut search = BandSearch::new();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(45);
        let (mut loaded, mut refused) = (0, 0);
        for seed in 0..300 {
            let givens = [17, 24, 30, 36, 50][seed as usize % 5];
            let mut puzzle = crate::generate::random_puzzle(Shape::CLASSIC, seed, givens);
            if seed % 3 == 1 {
                let cell = rng.random_range(0..81usize);
                puzzle.cells_mut()[cell] = rng.random_range(1..=9u8);
            }
            let excluded: Vec<(Cell, Digit)> = if seed % 3 == 2 {
                (0..rng.random_range(1..30))
                    .map(|_| {
                        let digit = Digit::new(rng.random_range(1..=9u8)).expect("1 to 9");
                        (Cell::new(rng.random_range(0..81)), digit)
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let root = search
                .load(&puzzle, &excluded, Tables)
                .map(|_| search.stack[0]);
            let one_by_one = load_one_by_one(&puzzle, &excluded);
            match (root, one_by_one) {
                (Some(root), Some(one)) => {
                    assert_eq!((root.cells, root.open), (one.cells, one.open), "{puzzle}");
                    assert_eq!(root.pairs, one.pairs, "seed {seed}");
                    loaded += 1;
                }
                (None, None) => refused += 1,
                (root, one) => panic!(
                    "seed {seed}: {:?} against {:?}",
                    root.is_some(),
                    one.is_some()
                ),
            }
        }
        assert!(
            loaded > 100 && refused > 30,
            "{loaded} loaded, {refused} refused"
        );
    }

    /// The digits (bit d) of each of the 81 cells, and the open cells, read cell by cell.
    fn cells_of(state: &Bands) -> ([u32; 81], [bool; 81]) {
        let mut digits = [0; 81];
        let mut open = [false; 81];
        for (i, (digits, open)) in digits.iter_mut().zip(&mut open).enumerate() {
            *digits = state.digits(i / 27, i % 27);
            *open = state.open[i / 27] >> (i % 27) & 1 == 1;
        }
        (digits, open)
    }

    /// The open cells among a cell's twenty peers, counted by rows, columns and boxes.
    fn open_peers(open: &[bool; 81], i: usize) -> u32 {
        let (r, c) = (i / 9, i % 9);
        (0..81)
            .filter(|&j| j != i && open[j])
            .filter(|&j| j / 9 == r || j % 9 == c || (j / 27 == i / 27 && j % 9 / 3 == c / 3))
            .count() as u32
    }

    /// Down a path of random puzzles' search trees (the chosen cell's lowest digit each time),
    /// the cell branched on is, by brute force over the cells: of the cells with two digits,
    /// the first with the most open peers; when there is none, the first of those with the
    /// fewest digits with the most open peers.
    #[test]
    fn the_branching_cell_has_the_most_open_peers() {
        let mut search = BandSearch::new();
        let (mut with_pairs, mut without) = (0, 0);
        for seed in 0..40 {
            let givens = [17, 20, 24, 28, 32][seed as usize % 5];
            let puzzle = crate::generate::random_puzzle(Shape::CLASSIC, seed, givens);
            if search.load(&puzzle, &[], Tables).is_none() {
                continue;
            }
            let mut state = search.stack[0];
            while let Some((band, cell)) = state.choose() {
                let (digits, open) = cells_of(&state);
                let open_cells = (0..81).filter(|&i| open[i]);
                let fewest = open_cells.clone().map(|i| digits[i].count_ones()).min();
                let key = |i: usize| (digits[i].count_ones(), u32::MAX - open_peers(&open, i));
                let best = open_cells
                    .filter(|&i| Some(digits[i].count_ones()) == fewest)
                    .min_by_key(|&i| key(i))
                    .expect("an open cell");
                assert_eq!(27 * band + cell, best, "seed {seed}");
                if fewest == Some(2) {
                    with_pairs += 1;
                } else {
                    without += 1;
                }
                let digit = digits[best].trailing_zeros() as usize;
                if !(state.place(band, cell, digit, Tables) && state.settle(Tables)) {
                    break;
                }
            }
        }
        assert!(with_pairs > 50 && without > 5, "{with_pairs} and {without}");
    }
}
