//! The bitboard state and its tables: what a placement changes, and the naked and hidden
//! singles that follow it (see the [module docs](super) for the representation and why).

use crate::board::{Board, Cell, Digit};
use crate::sudoku::Grid;

/// A set of cells in W words.
pub(super) type Set<const W: usize> = [u64; W];

/// The state of the search at one depth, copied to the next: everything a placement changes.
/// Digits from the board's n up to N are padding (no candidates, missing from no group), so
/// every loop runs over all N digits, a constant, and unrolls.
#[derive(Clone, Copy, Debug)]
pub(super) struct State<const W: usize, const N: usize> {
    /// Per digit: the open cells where it can still go.
    candidates: [Set<W>; N],
    /// The open cells.
    pub(super) open: Set<W>,
    /// Per digit: the groups still missing it.
    missing: [u64; N],
    /// Per digit: the cells where it was placed.
    pub(super) placed: [Set<W>; N],
    /// Per digit: the groups where it lost a cell since hidden singles last looked.
    dirty: [u64; N],
}

impl<const W: usize, const N: usize> State<W, N> {
    pub(super) const EMPTY: State<W, N> = State {
        candidates: [[0; W]; N],
        open: [0; W],
        missing: [0; N],
        placed: [[0; W]; N],
        dirty: [0; N],
    };

    /// The digits (0-based) that can still go in `cell`.
    #[inline]
    pub(super) fn digits(&self, cell: usize) -> u64 {
        let (word, shift) = (cell / 64, cell % 64);
        (0..N).fold(0, |m, d| m | (self.candidates[d][word] >> shift & 1) << d)
    }
}

/// The searcher for one board of at most 64 * W cells, 64 groups and N digits.
#[derive(Clone, Debug)]
pub(crate) struct Bitboard<const W: usize, const N: usize> {
    /// The read-only tables.
    pub(super) tables: BitTables<W>,
    /// One state per depth, the root first.
    pub(super) stack: Vec<State<W, N>>,
    /// The cells of each digit in S, as a solved state's placed sets.
    pub(super) solution: [Set<W>; N],
    /// The S they were made from (a generator checks against one S many times).
    pub(super) solution_grid: Option<Grid>,
    /// Per depth: the cell branched on, the digits not tried yet, and all its digits.
    pub(super) choices: Vec<(usize, u64, u64)>,
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
                groups: std::array::from_fn(|g| GroupTable {
                    cells: groups.get(g).copied().unwrap_or([0; W]),
                    fold: folds.get(g).copied().unwrap_or([0; W]),
                }),
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
            choices: vec![(0, 0, 0); cells + 1],
        })
    }
}

/// Rotations of the words of `cells` that fold them into one word with no two cells on the
/// same bit, found greedily word by word; `None` when there are none (not for a group of at
/// most 11 cells in two words: the cells already folded exclude at most 5 x 6 of the 64
/// rotations of the next word).
pub(super) fn fold<const W: usize>(cells: &Set<W>) -> Option<[u32; W]> {
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

/// One group: its cells, and how far to rotate each word of them so that they fold into one
/// word without two meeting (see [`fold`]).
#[derive(Clone, Copy, Debug)]
struct GroupTable<const W: usize> {
    cells: Set<W>,
    fold: [u32; W],
}

/// The read-only tables of a board, and the watched cells of the check under way.
#[derive(Clone, Debug)]
pub(super) struct BitTables<const W: usize> {
    n: usize,
    /// What a placement in each cell touches.
    cells: Vec<CellTable<W>>,
    /// The cells of every group and their folds, 64 entries (a group comes from a bit of a
    /// group mask); one entry, so one address, per hidden-single test.
    groups: [GroupTable<W>; 64],
    /// Every cell.
    all_cells: Set<W>,
    /// Every group.
    all_groups: u64,
    /// The removed cells of this check and their digits in S (0-based): once they all hold
    /// them, the puzzle below is P again, whose only solution is S. Empty in a count, which
    /// watches nothing.
    pub(super) watch: Vec<(usize, usize)>,
}

impl<const W: usize> BitTables<W> {
    /// Makes `state` the root state of `puzzle`: its givens loaded, the `excluded`
    /// placements taken out of the candidates, and all propagated; false on a contradiction
    /// (an excluded placement that is a given is one).
    pub(super) fn load<const N: usize>(
        &self,
        puzzle: &Grid,
        excluded: &[(Cell, Digit)],
        state: &mut State<W, N>,
    ) -> bool {
        *state = State::EMPTY;
        state.missing[..self.n].fill(self.all_groups);
        // Every group is looked at once for hidden singles.
        state.dirty[..self.n].fill(self.all_groups);
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
        // Every group is dirty already, so hidden singles see what these take.
        for &(cell, digit) in excluded {
            let (word, bit) = (cell.index() / 64, 1u64 << (cell.index() % 64));
            if state.placed[digit.index()][word] & bit != 0 {
                return false;
            }
            state.candidates[digit.index()][word] &= !bit;
        }
        self.propagate(state)
    }

    /// The open cell to branch on (one with the fewest candidates, counted up to four) and
    /// its digits; `None` when no cell is open.
    pub(super) fn choose<const N: usize>(&self, state: &State<W, N>) -> Option<(usize, u64)> {
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
    pub(super) fn grid<const N: usize>(&self, state: &State<W, N>, puzzle: &Grid) -> Grid {
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

    /// Places `digit` (0-based) at `cell`, where `digits` can go (`digit` among them).
    #[inline(always)]
    pub(super) fn fill<const N: usize>(
        &self,
        state: &mut State<W, N>,
        cell: usize,
        digit: usize,
        digits: u64,
    ) {
        let (word, bit) = (cell / 64, 1u64 << (cell % 64));
        let table = &self.cells[cell];
        let groups = table.groups;
        // Only the digits that could go here lose the cell, and their groups are dirty: a loop
        // over those (none for a naked single) rather than over every digit.
        let mut others = digits & !(1 << digit);
        while others != 0 {
            let other = others.trailing_zeros() as usize;
            others &= others - 1;
            state.candidates[other][word] &= !bit;
            state.dirty[other] |= groups;
        }
        state.candidates[digit][word] &= !bit;
        state.open[word] &= !bit;
        for (c, &p) in state.candidates[digit].iter_mut().zip(&table.peers) {
            *c &= !p;
        }
        // This digit lost the peers too.
        state.dirty[digit] |= table.peer_groups;
        state.missing[digit] &= !groups;
        state.placed[digit][word] |= bit;
    }

    /// Naked and hidden singles to a fixpoint; false when nothing but S can lie below: on a
    /// contradiction (an open cell with no candidate, or a group where a missing digit has no
    /// place), or, when cells are watched, once every one holds its digit of S.
    pub(super) fn propagate<const N: usize>(&self, state: &mut State<W, N>) -> bool {
        loop {
            let settled = !self.watch.is_empty()
                && (self.watch.iter())
                    .all(|&(cell, d)| state.placed[d][cell / 64] >> (cell % 64) & 1 != 0);
            if settled {
                return false;
            }
            // Bit-sliced across the digits: the cells with one candidate or more, two or more,
            // and bit k of each cell's digit (which is that of a cell's only candidate), so a
            // naked single's digit is read from a few words, not from all N digit sets
            // (callgrind, `solve --limit 2 -j1` on the first 1,000 of puzzles2_17_clue).
            let index_bits = (usize::BITS - N.leading_zeros()) as usize;
            let (mut ones, mut twos) = ([0u64; W], [0u64; W]);
            let mut index = [[0u64; W]; 6];
            for (d, cand) in state.candidates.iter().enumerate() {
                for w in 0..W {
                    twos[w] |= ones[w] & cand[w];
                    ones[w] |= cand[w];
                }
                for (k, index) in index.iter_mut().enumerate().take(index_bits) {
                    if d >> k & 1 != 0 {
                        for w in 0..W {
                            index[w] |= cand[w];
                        }
                    }
                }
            }
            let mut changed = false;
            for w in 0..W {
                if state.open[w] & !ones[w] != 0 {
                    return false;
                }
                let mut singles = ones[w] & !twos[w];
                while singles != 0 {
                    let shift = singles.trailing_zeros();
                    singles &= singles - 1;
                    let digit = (index.iter().take(index_bits).enumerate())
                        .fold(0, |m, (k, index)| m | (index[w] >> shift & 1) << k)
                        as usize;
                    if state.candidates[digit][w] >> shift & 1 == 0 {
                        return false; // an earlier single of this pass took its last digit
                    }
                    self.fill(state, w * 64 + shift as usize, digit, 1 << digit);
                    changed = true;
                }
            }
            if changed {
                continue;
            }
            for d in 0..N {
                let mut missing = state.missing[d] & state.dirty[d];
                state.dirty[d] = 0;
                while missing != 0 {
                    let g = missing.trailing_zeros() as usize;
                    missing &= missing - 1;
                    // Where the digit can go in the group: nowhere, one cell, or more (no
                    // popcount: the baseline x86-64 target emulates it).
                    // The digit's cells in the group, folded into one word: one test, one
                    // branch (a branch per word was often mispredicted, as which words a
                    // group fills varies from group to group).
                    let GroupTable { cells: group, fold } = &self.groups[g % 64];
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
                    let cell = w * 64 + x[w].trailing_zeros() as usize;
                    self.fill(state, cell, d, state.digits(cell));
                    changed = true;
                }
            }
            if !changed {
                return true;
            }
        }
    }
}
