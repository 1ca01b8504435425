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
//! counting candidates bit-sliced across the digits, hidden singles from one AND per word and
//! a one-bit test per digit and group, for the groups where the digit lost a cell since they
//! were last looked at. Givens are loaded the same way, so a check costs a few hundred word
//! operations before any search, where the CSP's per-cell domains paid a loop over each
//! given's peers. The digit count N is a const parameter (9 for grids up to 9x9, 11 for 10x10
//! and 11x11, see [`Small`]; larger digits than the board's are empty padding), and each
//! depth's state a `Copy` struct, so the digit loops unroll without bounds checks; a cell's
//! peers and groups sit in one table entry, and `place` is inlined into `propagate`. On 9x9 a
//! check takes about a quarter of the CSP's instructions (callgrind,
//! `generate --minimal -n 200 -j 1 --seed 1`).
//!
//! **Folded groups.** Which words a group's cells fill varies from group to group (a 9x9
//! column has cells in both), so a one-bit test per word is a branch the processor often
//! mispredicts. Each group has a rotation per word that folds its cells into one word on
//! distinct bits (see [`fold`]), so the test is one word and one branch, nearly always "two
//! cells or more": a few more instructions, far fewer mispredicted branches and less time
//! (callgrind's branch simulation on the command above). Likewise a naked single's digit is
//! read from all N digit sets at once rather than found by a loop that stops at it.
//!
//! The generator uses it up to 128 cells (W = 2): on 16x16 its branching, on the fewest
//! candidates only, made it slower than the CSP, so larger grids, and any engine asked for by
//! name, keep the engine's own count. W = 4 is kept for the tests.

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

/// The state of the search at one depth, copied to the next: everything a placement changes.
/// Digits from the board's n up to N are padding (no candidates, missing from no group), so
/// every loop runs over all N digits, a constant, and unrolls.
#[derive(Clone, Copy, Debug)]
struct State<const W: usize, const N: usize> {
    /// Per digit: the open cells where it can still go.
    candidates: [Set<W>; N],
    /// The open cells.
    open: Set<W>,
    /// Per digit: the groups still missing it.
    missing: [u64; N],
    /// Per digit: the cells where it was placed.
    placed: [Set<W>; N],
    /// Per digit: the groups where it lost a cell since hidden singles last looked.
    dirty: [u64; N],
    /// The groups where every digit did (a cell was filled).
    dirty_all: u64,
}

impl<const W: usize, const N: usize> State<W, N> {
    const EMPTY: State<W, N> = State {
        candidates: [[0; W]; N],
        open: [0; W],
        missing: [0; N],
        placed: [[0; W]; N],
        dirty: [0; N],
        dirty_all: 0,
    };

    /// The digits (0-based) that can still go in `cell`.
    #[inline]
    fn digits(&self, cell: usize) -> u64 {
        let (word, shift) = (cell / 64, cell % 64);
        (0..N).fold(0, |m, d| m | (self.candidates[d][word] >> shift & 1) << d)
    }
}

/// The bitboard search of a grid of at most 128 cells (two words), with the digit count
/// fixed where it pays: 9x9 has its own copy of the code, other small grids share one.
#[derive(Clone, Debug)]
pub(crate) enum Small {
    /// Up to 9 digits (4x4, 6x6, 8x8, 9x9).
    Nine(Bitboard<2, 9>),
    /// Up to 11 digits (10x10, 11x11 Latin squares).
    Eleven(Bitboard<2, 11>),
}

impl Small {
    /// A searcher for `board`, or `None` when it has more than 128 cells or 64 groups.
    pub(crate) fn new(board: &Board) -> Option<Small> {
        if board.size() <= 9 {
            Bitboard::new(board).map(Small::Nine)
        } else {
            Bitboard::new(board).map(Small::Eleven)
        }
    }

    /// See [`Bitboard::other_solution`].
    pub(crate) fn other_solution(
        &mut self,
        puzzle: &Grid,
        removed: &[usize],
        solution: &Grid,
        max_nodes: u64,
    ) -> Found {
        match self {
            Small::Nine(b) => b.other_solution(puzzle, removed, solution, max_nodes),
            Small::Eleven(b) => b.other_solution(puzzle, removed, solution, max_nodes),
        }
    }
}

/// The searcher for one board of at most 64 * W cells, 64 groups and N digits.
#[derive(Clone, Debug)]
pub(crate) struct Bitboard<const W: usize, const N: usize> {
    /// The read-only tables.
    tables: BitTables<W>,
    /// One state per depth, the root first.
    stack: Vec<State<W, N>>,
    /// The cells of each digit in S, as a solved state's placed sets.
    solution: [Set<W>; N],
    /// The S they were made from (a generator checks against one S many times).
    solution_grid: Option<Grid>,
    /// Per depth: the cell branched on and the digits not tried yet.
    choices: Vec<(usize, u64)>,
}

impl<const W: usize, const N: usize> Bitboard<W, N> {
    /// A searcher for `board`, or `None` when it has more than 64 * W cells, more than 64
    /// groups, or more than N digits.
    pub(crate) fn new(board: &Board) -> Option<Bitboard<W, N>> {
        let (n, cells) = (board.size(), board.cell_count());
        if cells > 64 * W || board.groups().len() > 64 || n > N {
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
        let peer_groups: Vec<u64> = (peers.iter())
            .map(|p| {
                (groups.iter().enumerate())
                    .filter(|(_, g)| (0..W).any(|w| g[w] & p[w] != 0))
                    .fold(0u64, |m, (g, _)| m | 1 << g)
            })
            .collect();
        let group_count = groups.len();
        let folds: Vec<[u32; W]> = groups.iter().map(fold).collect::<Option<_>>()?;
        Some(Bitboard {
            tables: BitTables {
                n,
                cells: (peers.iter().zip(groups_of).zip(peer_groups))
                    .map(|((&peers, groups), peer_groups)| CellTable {
                        peers,
                        groups,
                        peer_groups,
                    })
                    .collect(),
                groups: std::array::from_fn(|g| groups.get(g).copied().unwrap_or([0; W])),
                folds: std::array::from_fn(|g| folds.get(g).copied().unwrap_or([0; W])),
                all_cells: set_of(&mut (0..cells)),
                all_groups: if group_count == 64 {
                    u64::MAX
                } else {
                    (1u64 << group_count) - 1
                },
                watch: Vec::new(),
            },
            stack: vec![State::EMPTY; cells + 1],
            solution: [[0; W]; N],
            solution_grid: None,
            choices: vec![(0, 0); cells + 1],
        })
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
        let mut nodes = 1;
        let tables = &mut self.tables;
        tables.watch.clear();
        (tables.watch).extend(
            removed
                .iter()
                .map(|&c| (c, solution.cells()[c] as usize - 1)),
        );
        if self.solution_grid.as_ref() != Some(solution) {
            self.solution = [[0; W]; N];
            for (cell, &d) in solution.cells().iter().enumerate() {
                self.solution[d as usize - 1][cell / 64] |= 1 << (cell % 64);
            }
            self.solution_grid = Some(solution.clone());
        }
        let tables = &self.tables;
        if !tables.load(puzzle, &mut self.stack[0]) {
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
                let state = &self.stack[depth];
                match tables.choose(state) {
                    None => {
                        // Solved: S is skipped, anything else is the answer.
                        if state.placed != self.solution {
                            return Found {
                                other: Some(tables.grid(state, puzzle)),
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
            let (parents, children) = self.stack.split_at_mut(depth + 1);
            let child = &mut children[0];
            *child = parents[depth];
            let digit = bit.trailing_zeros() as usize;
            if tables.place(child, cell, digit) && tables.propagate(child) {
                depth += 1;
                fresh = true;
            }
        }
    }
}

/// Rotations of the words of `cells` that fold them into one word with no two cells on the
/// same bit, found greedily word by word; `None` when there are none (not for a group of at
/// most 11 cells in two words: the cells already folded exclude at most 5 x 6 of the 64
/// rotations of the next word).
fn fold<const W: usize>(cells: &Set<W>) -> Option<[u32; W]> {
    let mut folded = 0u64;
    let mut rotations = [0; W];
    for (rotation, &word) in rotations.iter_mut().zip(cells) {
        *rotation = (0..64).find(|&k| folded & word.rotate_left(k) == 0)?;
        folded |= word.rotate_left(*rotation);
    }
    Some(rotations)
}

/// What a placement in one cell touches (one entry, so one bounds check).
#[derive(Clone, Debug)]
struct CellTable<const W: usize> {
    /// The peers of the cell.
    peers: Set<W>,
    /// The groups of the cell, as a group mask.
    groups: u64,
    /// The groups that meet the peers of the cell, as a group mask.
    peer_groups: u64,
}

/// The read-only tables of a board, and the watched cells of the check under way.
#[derive(Clone, Debug)]
struct BitTables<const W: usize> {
    n: usize,
    /// What a placement in each cell touches.
    cells: Vec<CellTable<W>>,
    /// The cells of every group, 64 entries (a group comes from a bit of a group mask).
    groups: [Set<W>; 64],
    /// How far to rotate each word of a group's cells so that they fold into one word
    /// without two meeting (see [`fold`]).
    folds: [[u32; W]; 64],
    /// Every cell.
    all_cells: Set<W>,
    /// Every group.
    all_groups: u64,
    /// The removed cells of this check and their digits in S (0-based): once they all hold
    /// them, the puzzle below is P again, whose only solution is S.
    watch: Vec<(usize, usize)>,
}

impl<const W: usize> BitTables<W> {
    /// Makes `state` the root state of `puzzle`: its givens loaded and propagated; false on
    /// a contradiction.
    fn load<const N: usize>(&self, puzzle: &Grid, state: &mut State<W, N>) -> bool {
        *state = State::EMPTY;
        state.missing[..self.n].fill(self.all_groups);
        // Every group is looked at once for hidden singles.
        state.dirty_all = self.all_groups;
        // The givens, all at once: placed sets, missing masks and the peers they take.
        let mut given = [0u64; W];
        let mut taken = [[0u64; W]; N];
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d == 0 {
                continue;
            }
            let (d, table) = (d as usize - 1, &self.cells[cell]);
            let groups = table.groups;
            if state.missing[d] & groups != groups {
                return false; // the digit twice in a group
            }
            state.missing[d] &= !groups;
            state.placed[d][cell / 64] |= 1 << (cell % 64);
            given[cell / 64] |= 1 << (cell % 64);
            for (t, &p) in taken[d].iter_mut().zip(&table.peers) {
                *t |= p;
            }
        }
        state.open = std::array::from_fn(|w| self.all_cells[w] & !given[w]);
        // The padding digits keep no candidates.
        let real = state.candidates.iter_mut().zip(&taken).take(self.n);
        for (candidates, taken) in real {
            *candidates = std::array::from_fn(|w| state.open[w] & !taken[w]);
        }
        self.propagate(state)
    }

    /// The open cell to branch on (one with the fewest candidates, counted up to four) and
    /// its digits; `None` when no cell is open.
    fn choose<const N: usize>(&self, state: &State<W, N>) -> Option<(usize, u64)> {
        let open = state.open;
        if open.iter().all(|&w| w == 0) {
            return None;
        }
        // A removed cell first: its other digits are where a second solution must differ.
        let watched = (self.watch.iter())
            .map(|&(cell, _)| cell)
            .filter(|&cell| open[cell / 64] >> (cell % 64) & 1 != 0)
            .map(|cell| (cell, state.digits(cell)))
            .min_by_key(|&(_, d)| d.count_ones());
        if watched.is_some() {
            return watched;
        }
        let (mut ones, mut twos, mut threes) = ([0u64; W], [0u64; W], [0u64; W]);
        let mut fours = [0u64; W];
        for cand in &state.candidates {
            for w in 0..W {
                let c = cand[w];
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
        Some((cell, state.digits(cell)))
    }

    /// The full grid of a solved state: the digit placed in every cell.
    fn grid<const N: usize>(&self, state: &State<W, N>, puzzle: &Grid) -> Grid {
        let mut grid = puzzle.clone();
        for (d, placed) in state.placed.iter().enumerate() {
            for (w, &word) in placed.iter().enumerate() {
                let mut cells = word;
                while cells != 0 {
                    grid.cells_mut()[w * 64 + cells.trailing_zeros() as usize] = d as u8 + 1;
                    cells &= cells - 1;
                }
            }
        }
        grid
    }

    /// Places `digit` (0-based) at `cell`; false when it cannot go there.
    #[inline(always)]
    fn place<const N: usize>(&self, state: &mut State<W, N>, cell: usize, digit: usize) -> bool {
        let (word, bit) = (cell / 64, 1u64 << (cell % 64));
        if state.candidates[digit][word] & bit == 0 {
            return false;
        }
        for cand in &mut state.candidates {
            cand[word] &= !bit;
        }
        state.open[word] &= !bit;
        let table = &self.cells[cell];
        for (c, &p) in state.candidates[digit].iter_mut().zip(&table.peers) {
            *c &= !p;
        }
        let groups = table.groups;
        state.missing[digit] &= !groups;
        state.placed[digit][word] |= bit;
        // Every digit lost this cell from its groups; this digit lost the peers too.
        state.dirty_all |= groups;
        state.dirty[digit] |= table.peer_groups;
        true
    }

    /// Naked and hidden singles to a fixpoint; false when nothing but S can lie below: on a
    /// contradiction (an open cell with no candidate, or a group where a missing digit has no
    /// place), or once every watched cell holds its digit of S.
    fn propagate<const N: usize>(&self, state: &mut State<W, N>) -> bool {
        loop {
            let settled = (self.watch.iter())
                .all(|&(cell, d)| state.placed[d][cell / 64] >> (cell % 64) & 1 != 0);
            if settled {
                return false;
            }
            let (mut ones, mut twos) = ([0u64; W], [0u64; W]);
            for cand in &state.candidates {
                for w in 0..W {
                    twos[w] |= ones[w] & cand[w];
                    ones[w] |= cand[w];
                }
            }
            let mut changed = false;
            for w in 0..W {
                if state.open[w] & !ones[w] != 0 {
                    return false;
                }
                let mut singles = ones[w] & !twos[w];
                while singles != 0 {
                    let cell = w * 64 + singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    // Its digit, without a branch per digit (those were mispredicted).
                    let digits = state.digits(cell);
                    if digits == 0 {
                        return false; // an earlier single of this pass took its last digit
                    }
                    self.place(state, cell, digits.trailing_zeros() as usize);
                    changed = true;
                }
            }
            if changed {
                continue;
            }
            let every = std::mem::take(&mut state.dirty_all);
            for d in 0..N {
                let mut missing = state.missing[d] & (state.dirty[d] | every);
                state.dirty[d] = 0;
                while missing != 0 {
                    let g = missing.trailing_zeros() as usize;
                    missing &= missing - 1;
                    // Where the digit can go in the group: nowhere, one cell, or more (no
                    // popcount: the baseline x86-64 target emulates it).
                    // The digit's cells in the group, folded into one word: one test, one
                    // branch (a branch per word was often mispredicted, as which words a
                    // group fills varies from group to group).
                    let (group, fold) = (&self.groups[g % 64], &self.folds[g % 64]);
                    let x: Set<W> = std::array::from_fn(|w| state.candidates[d][w] & group[w]);
                    // The first word stays where it is.
                    let cells =
                        (x.iter().zip(fold).skip(1)).fold(x[0], |y, (&x, &k)| y | x.rotate_left(k));
                    if cells & cells.wrapping_sub(1) != 0 {
                        continue; // two cells or more
                    }
                    if cells == 0 {
                        if state.missing[d] >> g & 1 == 0 {
                            continue; // placed in this pass
                        }
                        return false;
                    }
                    let w = x.iter().position(|&x| x != 0).expect("one cell");
                    self.place(state, w * 64 + x[w].trailing_zeros() as usize, d);
                    changed = true;
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
    use crate::engine::{DlxSolver, Solve};
    use crate::generate::unique_puzzle;
    use crate::sudoku::Shape;
    use crate::sudoku::check::check_solution;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};

    /// Against plain Dancing Links: on unique puzzles of several shapes (both widths), less
    /// one to three random givens, a second solution is found exactly when DLX counts two,
    /// and it solves the puzzle and differs from S.
    fn agrees_with_dlx<const W: usize, const N: usize>(r: usize, c: usize) {
        let shape = Shape::new(r, c).unwrap();
        let mut bitboard = Bitboard::<W, N>::new(shape.board()).expect("small enough");
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
        // Padding digits (N above the board's n) on the smaller grids.
        agrees_with_dlx::<2, 9>(2, 2);
        agrees_with_dlx::<2, 9>(2, 3);
        agrees_with_dlx::<2, 9>(3, 3);
        agrees_with_dlx::<2, 11>(3, 3);
        agrees_with_dlx::<4, 16>(3, 3);
        agrees_with_dlx::<4, 16>(3, 4);
        agrees_with_dlx::<4, 16>(4, 4);
    }

    /// Every group of every shape the generator searches on bitboards folds into one word
    /// with its cells on distinct bits, and so does every group of 16x16 (four words).
    fn folds_every_group<const W: usize>(r: usize, c: usize) {
        let shape = Shape::new(r, c).unwrap();
        for group in shape.board().groups() {
            let mut cells = [0u64; W];
            for cell in group.cells() {
                cells[cell.index() / 64] |= 1 << (cell.index() % 64);
            }
            let rotations = fold(&cells).expect("a fold");
            let folded =
                (cells.iter().zip(rotations)).fold(0u64, |y, (&x, k)| y | x.rotate_left(k));
            assert_eq!(folded.count_ones() as usize, group.cells().len(), "{shape}");
            assert_eq!(rotations[0], 0, "the first word stays");
        }
    }

    #[test]
    fn groups_fold_into_one_word() {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (4, 2),
            (3, 3),
            (2, 5),
            (5, 2),
        ] {
            folds_every_group::<2>(r, c);
        }
        folds_every_group::<2>(1, 11);
        folds_every_group::<4>(4, 4);
        folds_every_group::<4>(3, 4);
    }

    #[test]
    fn too_large_boards_are_refused_and_budgets_are_honest() {
        assert!(Bitboard::<2, 16>::new(Shape::new(3, 4).unwrap().board()).is_none());
        assert!(Bitboard::<4, 25>::new(Shape::new(5, 5).unwrap().board()).is_none());
        assert!(Bitboard::<4, 9>::new(Shape::new(2, 5).unwrap().board()).is_none());
        // One node: an empty 9x9 grid cannot be decided at the root.
        let shape = Shape::CLASSIC;
        let mut bitboard = Bitboard::<2, 9>::new(shape.board()).unwrap();
        let solution = crate::generate::random_grid(shape, 1);
        let all: Vec<usize> = (0..81).collect();
        let found = bitboard.other_solution(&Grid::empty(shape), &all, &solution, 1);
        assert_eq!((found.other, found.complete), (None, false));
        let found = bitboard.other_solution(&Grid::empty(shape), &all, &solution, 1000);
        assert!(found.complete && found.other.is_some_and(|o| o != solution));
    }
}
