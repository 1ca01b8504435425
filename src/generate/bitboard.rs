//! The uniqueness check of the generator on small grids, on bitboards: is there a
//! solution of P' other than the known solution S?
//!
//! Every puzzle the generator checks is S less some givens, so S solves it and "unique" means
//! "no solution but S". This search looks for that other solution directly: it branches on a
//! cell with the fewest candidates, tries S's digit last, and skips S when it reaches it, so
//! a puzzle with a second solution usually meets it on the first path, and that solution comes
//! back as the witness the strict-minimality repairs feed on (see `strict.rs`).
//!
//! The state is one bitset of cells per digit (where that digit can still go) plus the open
//! cells and, per digit, the groups still missing it: W words per set, W = 2 up to 128 cells
//! (9x9), 4 up to 256 (16x16). Placing a digit is n + 1 masked ANDs; naked singles come from
//! counting candidates bit-sliced across the digits, hidden singles from one AND and popcount
//! per digit and group. Givens are loaded the same way, so a check costs a few hundred word
//! operations before any search, where the CSP's per-cell domains paid a loop over each
//! given's peers; on 9x9 a check took 41k instructions against the CSP's 72k (callgrind). The
//! generator uses it up to 128 cells (W = 2): on 16x16 its branching, on the fewest candidates
//! only, made it slower than the CSP, so larger grids, and any engine asked for by name, keep
//! the engine's own count. W = 4 is kept for the tests.

use crate::board::Board;
use crate::sudoku::Grid;

/// What one search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// A solution other than S, if one was found.
    pub other: Option<Grid>,
    /// Whether the search ended without running out of nodes (so `other == None` proves S is
    /// the only solution).
    pub complete: bool,
    /// Search-tree nodes, the root included.
    pub nodes: u64,
}

/// A set of cells in W words.
type Set<const W: usize> = [u64; W];

/// The searcher for one board of at most 64 * W cells and 64 groups.
#[derive(Clone, Debug)]
pub(crate) struct Bitboard<const W: usize> {
    n: usize,
    /// The peers of every cell.
    peers: Vec<Set<W>>,
    /// The cells of every group.
    groups: Vec<Set<W>>,
    /// The groups of every cell, as a group mask.
    groups_of: Vec<u64>,
    /// The groups that meet the peers of every cell, as a group mask.
    peer_groups: Vec<u64>,
    /// Every cell.
    all_cells: Set<W>,
    /// State blocks, `stride` words per depth: n digit sets (open cells where the digit can
    /// go), the open set, n group masks (the groups still missing each digit, one word each),
    /// n sets of the cells where each digit was placed, then n + 1 group masks: the groups
    /// where each digit lost a cell since hidden singles last looked, and the groups where
    /// every digit did (a cell was filled).
    stack: Vec<u64>,
    /// The cells of each digit in S, W words per digit, as a solved block's placed sets.
    solution: Vec<u64>,
    /// The S they were made from (a generator checks against one S many times).
    solution_grid: Option<Grid>,
    /// The removed cells of this check and their digits in S (0-based): once they all hold
    /// them, the puzzle below is P again, whose only solution is S.
    watch: Vec<(usize, usize)>,
    /// Per depth: the cell branched on and the digits not tried yet.
    choices: Vec<(usize, u64)>,
}

impl<const W: usize> Bitboard<W> {
    /// A searcher for `board`, or `None` when it has more than 64 * W cells, more than 64
    /// groups, or more than 64 digits.
    pub(crate) fn new(board: &Board) -> Option<Bitboard<W>> {
        let (n, cells) = (board.size(), board.cell_count());
        if cells > 64 * W || board.groups().len() > 64 || n > 64 {
            return None;
        }
        let set_of = |cells: &mut dyn Iterator<Item = usize>| {
            let mut set = [0u64; W];
            for c in cells {
                set[c / 64] |= 1 << (c % 64);
            }
            set
        };
        let groups: Vec<Set<W>> = (board.groups().iter())
            .map(|g| set_of(&mut g.cells().iter().map(|c| c.index())))
            .collect();
        let mut peers = vec![[0u64; W]; cells];
        let mut groups_of = vec![0u64; cells];
        for (g, group) in board.groups().iter().enumerate() {
            for c in group.cells() {
                groups_of[c.index()] |= 1 << g;
                for w in 0..W {
                    peers[c.index()][w] |= groups[g][w];
                }
            }
        }
        for (c, set) in peers.iter_mut().enumerate() {
            set[c / 64] &= !(1 << (c % 64));
        }
        let peer_groups = (peers.iter())
            .map(|p| {
                (groups.iter().enumerate())
                    .filter(|(_, g)| (0..W).any(|w| g[w] & p[w] != 0))
                    .fold(0u64, |m, (g, _)| m | 1 << g)
            })
            .collect();
        let all_cells = set_of(&mut (0..cells));
        let stride = (2 * n + 1) * W + 2 * n + 1;
        Some(Bitboard {
            n,
            peers,
            groups,
            groups_of,
            peer_groups,
            all_cells,
            stack: vec![0; 2 * stride],
            solution: vec![0; n * W],
            solution_grid: None,
            watch: Vec::new(),
            choices: vec![(0, 0); cells + 1],
        })
    }

    fn stride(&self) -> usize {
        (2 * self.n + 1) * W + 2 * self.n + 1
    }

    /// Looks for a solution of `puzzle` other than `solution`, which must solve it, within
    /// `max_nodes` nodes.
    pub(crate) fn other_solution(
        &mut self,
        puzzle: &Grid,
        removed: &[usize],
        solution: &Grid,
        max_nodes: u64,
    ) -> Found {
        let stride = self.stride();
        let mut nodes = 1;
        self.watch.clear();
        (self.watch).extend(
            removed
                .iter()
                .map(|&c| (c, solution.cells()[c] as usize - 1)),
        );
        if self.solution_grid.as_ref() != Some(solution) {
            self.solution.fill(0);
            for (cell, &d) in solution.cells().iter().enumerate() {
                self.solution[(d as usize - 1) * W + cell / 64] |= 1 << (cell % 64);
            }
            self.solution_grid = Some(solution.clone());
        }
        if !self.load(puzzle) {
            return Found {
                other: None,
                complete: true,
                nodes,
            };
        }
        let mut depth = 0;
        let mut fresh = true;
        loop {
            if fresh {
                let block = &self.stack[depth * stride..(depth + 1) * stride];
                match self.choose(block) {
                    None => {
                        // Solved: S is skipped, anything else is the answer.
                        let placed =
                            &block[(self.n + 1) * W + self.n..(2 * self.n + 1) * W + self.n];
                        if placed != &self.solution[..] {
                            return Found {
                                other: Some(self.grid(block, puzzle)),
                                complete: true,
                                nodes,
                            };
                        }
                        self.choices[depth] = (0, 0);
                    }
                    Some((cell, digits)) => self.choices[depth] = (cell, digits),
                }
            }
            fresh = false;
            let (cell, remaining) = self.choices[depth];
            if remaining == 0 {
                if depth == 0 {
                    return Found {
                        other: None,
                        complete: true,
                        nodes,
                    };
                }
                depth -= 1;
                continue;
            }
            // S's digit last: a second solution, if any, shows up sooner.
            let right = 1u64 << (solution.cells()[cell] - 1);
            let others = remaining & !right;
            let bit = if others != 0 {
                others & others.wrapping_neg()
            } else {
                right
            };
            self.choices[depth].1 = remaining & !bit;
            if nodes >= max_nodes {
                return Found {
                    other: None,
                    complete: false,
                    nodes,
                };
            }
            nodes += 1;
            let child = (depth + 1) * stride;
            if self.stack.len() < child + stride {
                self.stack.resize(child + stride, 0);
            }
            self.stack.copy_within(depth * stride..child, child);
            let digit = bit.trailing_zeros() as usize;
            let ok = {
                let (tables, block) = self.split(child, stride);
                tables.place(block, cell, digit) && tables.propagate(block)
            };
            if ok {
                depth += 1;
                fresh = true;
            }
        }
    }

    /// The tables and the state block at `at`, borrowed apart.
    fn split(&mut self, at: usize, stride: usize) -> (Tables<'_, W>, &mut [u64]) {
        let tables = Tables {
            n: self.n,
            peers: &self.peers,
            groups: &self.groups,
            groups_of: &self.groups_of,
            peer_groups: &self.peer_groups,
            watch: &self.watch,
        };
        (tables, &mut self.stack[at..at + stride])
    }

    /// Loads the givens of `puzzle` into the root block and propagates; false on a
    /// contradiction.
    fn load(&mut self, puzzle: &Grid) -> bool {
        let (n, stride) = (self.n, self.stride());
        let group_count = self.groups.len();
        let all_groups = if group_count == 64 {
            u64::MAX
        } else {
            (1u64 << group_count) - 1
        };
        let all_cells = self.all_cells;
        let block = &mut self.stack[..stride];
        let (missing, placed) = ((n + 1) * W..(n + 1) * W + n, (n + 1) * W + n);
        block[missing.clone()].fill(all_groups);
        block[placed..(2 * n + 1) * W + n].fill(0);
        // Every group is looked at once for hidden singles.
        block[(2 * n + 1) * W + n..].fill(all_groups);
        // The givens, all at once: placed sets and missing masks, then the candidates.
        let mut given = [0u64; W];
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d == 0 {
                continue;
            }
            let (d, groups) = (d as usize - 1, self.groups_of[cell]);
            if block[missing.start + d] & groups != groups {
                return false; // the digit twice in a group
            }
            block[missing.start + d] &= !groups;
            block[placed + d * W + cell / 64] |= 1 << (cell % 64);
            given[cell / 64] |= 1 << (cell % 64);
        }
        let open: Set<W> = std::array::from_fn(|w| all_cells[w] & !given[w]);
        block[n * W..(n + 1) * W].copy_from_slice(&open);
        for d in 0..n {
            let mut cand = open;
            let mut taken = all_groups & !block[missing.start + d];
            while taken != 0 {
                let g = taken.trailing_zeros() as usize;
                taken &= taken - 1;
                for (c, &cells) in cand.iter_mut().zip(&self.groups[g]) {
                    *c &= !cells;
                }
            }
            block[d * W..(d + 1) * W].copy_from_slice(&cand);
        }
        let (tables, block) = self.split(0, stride);
        tables.propagate(block)
    }

    /// The open cell to branch on (one with the fewest candidates, counted up to four) and
    /// its digits; `None` when no cell is open.
    fn choose(&self, block: &[u64]) -> Option<(usize, u64)> {
        let n = self.n;
        let open: Set<W> = block[n * W..(n + 1) * W].try_into().expect("W words");
        if open.iter().all(|&w| w == 0) {
            return None;
        }
        let digits = |cell: usize| {
            (0..n)
                .filter(|&d| block[d * W + cell / 64] >> (cell % 64) & 1 != 0)
                .fold(0u64, |m, d| m | 1 << d)
        };
        // A removed cell first: its other digits are where a second solution must differ.
        let watched = (self.watch.iter())
            .map(|&(cell, _)| cell)
            .filter(|&cell| open[cell / 64] >> (cell % 64) & 1 != 0)
            .map(|cell| (cell, digits(cell)))
            .min_by_key(|&(_, d)| d.count_ones());
        if watched.is_some() {
            return watched;
        }
        let (mut ones, mut twos, mut threes) = ([0u64; W], [0u64; W], [0u64; W]);
        let mut fours = [0u64; W];
        for d in 0..n {
            for w in 0..W {
                let c = block[d * W + w];
                fours[w] |= threes[w] & c;
                threes[w] |= twos[w] & c;
                twos[w] |= ones[w] & c;
                ones[w] |= c;
            }
        }
        let pick = |set: Set<W>| {
            (0..W)
                .find(|&w| set[w] != 0)
                .map(|w| w * 64 + set[w].trailing_zeros() as usize)
        };
        let pairs: Set<W> = std::array::from_fn(|w| twos[w] & !threes[w]);
        let triples: Set<W> = std::array::from_fn(|w| threes[w] & !fours[w]);
        let cell = pick(pairs)
            .or_else(|| pick(triples))
            .or_else(|| pick(open))
            .expect("an open cell");
        Some((cell, digits(cell)))
    }

    /// The full grid of a solved block: the digit placed in every cell.
    fn grid(&self, block: &[u64], puzzle: &Grid) -> Grid {
        let n = self.n;
        let placed = &block[(n + 1) * W + n..];
        let mut grid = puzzle.clone();
        for d in 0..n {
            for w in 0..W {
                let mut cells = placed[d * W + w];
                while cells != 0 {
                    grid.cells_mut()[w * 64 + cells.trailing_zeros() as usize] = d as u8 + 1;
                    cells &= cells - 1;
                }
            }
        }
        grid
    }
}

/// The read-only tables, borrowed apart from the stack.
struct Tables<'a, const W: usize> {
    n: usize,
    peers: &'a [Set<W>],
    groups: &'a [Set<W>],
    groups_of: &'a [u64],
    peer_groups: &'a [u64],
    watch: &'a [(usize, usize)],
}

impl<const W: usize> Tables<'_, W> {
    /// Places `digit` (0-based) at `cell`; false when it cannot go there.
    #[inline]
    fn place(&self, block: &mut [u64], cell: usize, digit: usize) -> bool {
        let (n, word, bit) = (self.n, cell / 64, 1u64 << (cell % 64));
        // The digit sets and the open set, then the rest: missing masks (n), placed sets
        // (n * W), dirty masks (n + 1).
        let (sets, rest) = block.split_at_mut((n + 1) * W);
        if sets[digit * W + word] & bit == 0 {
            return false;
        }
        for set in sets.chunks_exact_mut(W) {
            set[word] &= !bit;
        }
        let own = &mut sets[digit * W..(digit + 1) * W];
        for (c, &p) in own.iter_mut().zip(&self.peers[cell]) {
            *c &= !p;
        }
        let groups = self.groups_of[cell];
        rest[digit] &= !groups;
        rest[n + digit * W + word] |= bit;
        // Every digit lost this cell from its groups; this digit lost the peers too.
        let dirty = n + n * W;
        rest[dirty + n] |= groups;
        rest[dirty + digit] |= self.peer_groups[cell];
        true
    }

    /// Naked and hidden singles to a fixpoint; false when nothing but S can lie below: on a
    /// contradiction (an open cell with no candidate, or a group where a missing digit has no
    /// place), or once every watched cell holds its digit of S.
    fn propagate(&self, block: &mut [u64]) -> bool {
        let n = self.n;
        let placed = (n + 1) * W + n;
        loop {
            let settled = (self.watch.iter())
                .all(|&(cell, d)| block[placed + d * W + cell / 64] >> (cell % 64) & 1 != 0);
            if settled {
                return false;
            }
            let (mut ones, mut twos) = ([0u64; W], [0u64; W]);
            for set in block[..n * W].chunks_exact(W) {
                for ((one, two), &c) in ones.iter_mut().zip(&mut twos).zip(set) {
                    *two |= *one & c;
                    *one |= c;
                }
            }
            let mut changed = false;
            for w in 0..W {
                let open = block[n * W + w];
                if open & !ones[w] != 0 {
                    return false;
                }
                let mut singles = ones[w] & !twos[w];
                while singles != 0 {
                    let cell = w * 64 + singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    let bit = 1u64 << (cell % 64);
                    let mut sets = block[..n * W].chunks_exact(W);
                    match sets.position(|set| set[w] & bit != 0) {
                        Some(d) => {
                            self.place(block, cell, d);
                            changed = true;
                        }
                        // An earlier single of this pass took its last digit.
                        None => return false,
                    }
                }
            }
            if changed {
                continue;
            }
            let dirty = (2 * n + 1) * W + n;
            let every = std::mem::take(&mut block[dirty + n]);
            for d in 0..n {
                let mut missing = block[(n + 1) * W + d] & (block[dirty + d] | every);
                block[dirty + d] = 0;
                while missing != 0 {
                    let g = missing.trailing_zeros() as usize;
                    missing &= missing - 1;
                    if block[(n + 1) * W + d] >> g & 1 == 0 {
                        continue; // placed in this pass
                    }
                    // Where the digit can go in the group: nowhere, one cell, or more (no
                    // popcount: the baseline x86-64 target emulates it).
                    let group = &self.groups[g];
                    let mut at = None;
                    let mut more = false;
                    for w in 0..W {
                        let x = block[d * W + w] & group[w];
                        if x != 0 {
                            if at.is_some() || x & (x - 1) != 0 {
                                more = true;
                                break;
                            }
                            at = Some(w * 64 + x.trailing_zeros() as usize);
                        }
                    }
                    match at {
                        _ if more => {}
                        None => return false,
                        Some(cell) => {
                            self.place(block, cell, d);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::engine::DlxSolver;
    use crate::generate::unique_puzzle;
    use crate::sudoku::Shape;
    use crate::sudoku::check::check_solution;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};

    /// Against plain Dancing Links: on unique puzzles of several shapes (both widths), less
    /// one to three random givens, a second solution is found exactly when DLX counts two,
    /// and it solves the puzzle and differs from S.
    fn agrees_with_dlx<const W: usize>(r: usize, c: usize) {
        let shape = Shape::new(r, c).unwrap();
        let mut bitboard = Bitboard::<W>::new(shape.board()).expect("small enough");
        let mut dlx = DlxSolver::sudoku(shape);
        dlx.set_restarts(None);
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let (mut unique, mut multiple) = (0, 0);
        for seed in 0..12 {
            // Minimal puzzles (every removal gives two solutions) and fuller ones.
            let floor = if seed % 2 == 0 {
                0
            } else {
                shape.cell_count() / 2
            };
            let puzzle = unique_puzzle(shape, seed, floor);
            let solution = dlx.solve(&puzzle).solution.expect("unique");
            let given: Vec<usize> = (0..shape.cell_count())
                .filter(|&i| puzzle.cells()[i] != 0)
                .collect();
            for _ in 0..10 {
                let k = rng.random_range(1..=3usize.min(given.len()));
                let mut removed = given.clone();
                removed.shuffle(&mut rng);
                removed.truncate(k);
                let mut less = puzzle.clone();
                for &cell in &removed {
                    less.cells_mut()[cell] = 0;
                }
                let found = bitboard.other_solution(&less, &removed, &solution, u64::MAX);
                assert!(found.complete);
                let count = dlx.count(&less, Some(2), &Budget::unlimited()).solutions;
                match found.other {
                    Some(other) => {
                        assert_eq!(count, 2, "{shape} seed {seed}: {less}");
                        assert_ne!(other, solution);
                        assert_eq!(check_solution(&less, &other), Ok(()));
                        multiple += 1;
                    }
                    None => {
                        assert_eq!(count, 1, "{shape} seed {seed}: {less}");
                        unique += 1;
                    }
                }
            }
        }
        assert!(
            unique > 0 && multiple > 0,
            "{shape}: {unique} unique, {multiple} not"
        );
    }

    #[test]
    fn finds_a_second_solution_exactly_when_dlx_counts_two() {
        agrees_with_dlx::<2>(2, 2);
        agrees_with_dlx::<2>(2, 3);
        agrees_with_dlx::<2>(3, 3);
        agrees_with_dlx::<4>(3, 3);
        agrees_with_dlx::<4>(3, 4);
        agrees_with_dlx::<4>(4, 4);
    }

    #[test]
    fn too_large_boards_are_refused_and_budgets_are_honest() {
        assert!(Bitboard::<2>::new(Shape::new(3, 4).unwrap().board()).is_none());
        assert!(Bitboard::<4>::new(Shape::new(5, 5).unwrap().board()).is_none());
        // One node: an empty 9x9 grid cannot be decided at the root.
        let shape = Shape::CLASSIC;
        let mut bitboard = Bitboard::<2>::new(shape.board()).unwrap();
        let solution = crate::generate::random_grid(shape, 1);
        let all: Vec<usize> = (0..81).collect();
        let found = bitboard.other_solution(&Grid::empty(shape), &all, &solution, 1);
        assert_eq!((found.other, found.complete), (None, false));
        let found = bitboard.other_solution(&Grid::empty(shape), &all, &solution, 1000);
        assert!(found.complete && found.other.is_some_and(|o| o != solution));
    }
}
