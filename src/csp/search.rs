//! Backtracking search: choose a cell, try its digits, propagate in a copy of the state.

use std::time::Instant;

use super::config::{Config, Propagation, ValueOrder, VariableOrder};
use super::domains::{CspTables, State};
use super::propagate::Propagator;
use super::restart::Run;
use super::stack::StateStack;
use super::stats::{CspReport, CspStats};
use crate::bipartite::AllDiff;
use crate::board::{Board, Cell, Digit, leftovers};
use crate::budget::past_deadline;
use crate::restart::{self, Restarts};
use crate::sudoku::Grid;
use crate::{Budget, Stop};

/// A choice point: the cell branched on and the digits not tried yet.
#[derive(Clone, Copy, Debug, Default)]
struct Choice {
    cell: usize,
    remaining: u64,
}

/// A CSP solver for one board and one configuration. It owns its tables and buffers, so one
/// solver can run many puzzles without allocating, except for the returned solution (and
/// for the state stack the first time a search goes deeper than any before it).
///
/// ```
/// use quadrille::csp::{Config, CspSolver};
/// use quadrille::engine::Solve;
/// use quadrille::sudoku::{Grid, Shape};
/// use quadrille::{Budget, Stop};
///
/// let shape = Shape::new(2, 2)?;
/// let mut solver = CspSolver::new(&shape.board(), Config::default());
/// let outcome = solver.count(&Grid::empty(shape), None, &Budget::unlimited());
/// assert_eq!(outcome.solutions, 288);
/// assert_eq!(outcome.stop, Stop::Exhausted);
/// assert!(outcome.solution.unwrap().is_full());
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct CspSolver {
    config: Config,
    tables: CspTables,
    /// The states on the search's path.
    stack: StateStack,
    /// Choice points per depth.
    choices: Vec<Choice>,
    /// The naked-singles queue: room for every cell and one cell's peers.
    queue: Vec<u16>,
    /// The first solution of the current search.
    first: Vec<u8>,
    /// Matching hints and scratch space for `alldiff` (hints only at that level); boxed, as
    /// its scratch arrays are 1.3 KB.
    alldiff: Box<AllDiff>,
    /// Proof that the CPU has `popcnt`, when it has (checked once here, used when choosing a
    /// cell).
    popcnt: Option<Popcnt>,
    /// How a count up to a limit restarts; `None`: one plain search.
    restarts: Option<Restarts>,
    /// The digit tried first at each cell (0: none); empty when none is
    /// ([`CspSolver::set_preferred`]).
    preferred: Vec<u8>,
    /// The excluded placements of the search under way, as cell index and digit (scratch).
    ruled_out: Vec<(usize, u8)>,
}

impl CspSolver {
    /// A solver for puzzles on `board`, searching as `config` says for a board of its side
    /// ([`Config::for_side`]). Builds the unit and peer tables and the buffers. The units are
    /// the board's groups and the groups they imply (the hidden regions of a windoku, see
    /// `crate::board::leftovers`).
    pub fn new(board: &Board, config: Config) -> CspSolver {
        let config = config.for_side(board.size());
        let tables = CspTables::new(&leftovers::with_leftovers(board));
        let cells = tables.cells();
        let stack = StateStack::new(tables.stride(), cells);
        CspSolver {
            config,
            stack,
            choices: vec![Choice::default(); cells + 1],
            queue: vec![0; cells + tables.max_peers() + 1],
            first: vec![0; cells],
            alldiff: Box::new(AllDiff::new(
                tables.n(),
                if config.propagation >= Propagation::AllDiff {
                    tables.unit_count()
                } else {
                    0
                },
            )),
            popcnt: Popcnt::detect(),
            restarts: Some(Restarts::default()),
            preferred: Vec::new(),
            ruled_out: Vec::new(),
            tables,
        }
    }

    /// Keeps the path's levels as changed words or as whole blocks (see [`StateStack`]).
    #[cfg(test)]
    pub(super) fn set_logged_stack(&mut self, logged: bool) {
        self.stack.set_logged(logged);
    }

    /// The configuration it searches with: the one given, for a board of its side
    /// ([`Config::for_side`]).
    pub fn config(&self) -> Config {
        self.config
    }

    /// Sets how a count up to a limit restarts (see [`crate::restart`]); `None` makes every
    /// search one plain run. The default is [`Restarts::default`]. A count of all solutions
    /// never restarts: it must visit the whole tree anyway.
    pub fn set_restarts(&mut self, restarts: Option<Restarts>) {
        self.restarts = restarts;
    }

    /// Sets the digits tried first: at each cell its digit in `near` (none at an empty cell),
    /// before the value order's choice, in every run; `None`: the configuration's order alone.
    /// A generator looking for a solution other than a known one S prefers S: the search then
    /// changes as few cells of S as it must, and finds such a solution in fewer nodes. The
    /// order of the digits does not change what a search proves, only how soon it finds a
    /// solution.
    ///
    /// ```
    /// use quadrille::csp::{Config, CspSolver};
    /// use quadrille::engine::Solve;
    /// use quadrille::sudoku::{Grid, Shape};
    ///
    /// let shape = Shape::new(2, 2)?;
    /// let mut solver = CspSolver::new(&shape.board(), Config::default());
    /// let empty = Grid::empty(shape);
    /// let first = solver.solve(&empty).solution.unwrap();
    /// // Preferring a grid, the first solution found is that grid.
    /// let digits = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    /// let other = Grid::from_cells(shape, digits.to_vec()).unwrap();
    /// assert_ne!(other, first);
    /// solver.set_preferred(Some(&other));
    /// assert_eq!(solver.solve(&empty).solution.unwrap(), other);
    /// solver.set_preferred(None);
    /// assert_eq!(solver.solve(&empty).solution.unwrap(), first);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Panics
    /// If the grid's side is not the board's.
    pub fn set_preferred(&mut self, near: Option<&Grid>) {
        self.preferred.clear();
        if let Some(near) = near {
            assert_eq!(
                near.size(),
                self.tables.n(),
                "the grid's side is not the board's"
            );
            self.preferred.extend_from_slice(near.cells());
        }
    }

    /// Counts the solutions of `puzzle` in which no cell of `excluded` holds its digit, up to
    /// `limit` (`None` = all) within `budget`, keeping the first one found, and reports what
    /// the CSP did in its own terms (inferences by rule, depth). Each excluded digit is taken
    /// out of its cell's candidates at the root. Through [`Solve`](crate::engine::Solve), the
    /// same count comes back as the [`Outcome`](crate::engine::Outcome) every engine returns.
    ///
    /// The puzzle may contradict itself (repeated givens, or no completion): that is 0
    /// solutions, not an error. `stop` is [`Stop::Exhausted`] when the count is exact,
    /// [`Stop::Limit`] when `limit` solutions were found (a limit of 0 stops at once), and
    /// [`Stop::NodeBudget`] / [`Stop::TimeBudget`] when the budget ran out, in which case the
    /// count is a lower bound. The root node is always searched; after it, `stats.nodes`
    /// never exceeds the node budget, and the clock is read every 1024 nodes.
    ///
    /// ```
    /// use quadrille::board::{Cell, Digit};
    /// use quadrille::csp::{Config, CspSolver};
    /// use quadrille::sudoku::{Grid, Shape};
    /// use quadrille::Budget;
    ///
    /// let shape = Shape::new(2, 2)?;
    /// let mut solver = CspSolver::new(&shape.board(), Config::default());
    /// let empty = Grid::empty(shape);
    /// // Of the 288 grids, a quarter have 1 in the corner: 216 do not.
    /// let corner_one = (Cell::new(0), Digit::new(1).unwrap());
    /// let report = solver.count_report(&empty, &[corner_one], None, &Budget::unlimited());
    /// assert_eq!(report.solutions, 216);
    /// assert_ne!(report.solution.unwrap().cells()[0], 1);
    /// assert_eq!(report.stats.backtracks, report.stats.nodes - 1);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Panics
    /// If the puzzle's side is not the board's, or an excluded cell or digit is not on it.
    pub fn count_report(
        &mut self,
        puzzle: &Grid,
        excluded: &[(Cell, Digit)],
        limit: Option<u64>,
        budget: &Budget,
    ) -> CspReport {
        let start = Instant::now();
        let n = self.tables.n();
        assert!(
            (excluded.iter()).all(|&(cell, d)| cell.index() < n * n && d.index() < n),
            "an excluded cell or digit is not on the board"
        );
        // The search takes them as the propagator does: cell index and digit.
        let mut ruled_out = std::mem::take(&mut self.ruled_out);
        ruled_out.clear();
        ruled_out.extend(excluded.iter().map(|&(cell, d)| (cell.index(), d.get())));
        let excluded = &ruled_out[..];
        assert_eq!(
            puzzle.size(),
            self.tables.n(),
            "the puzzle's side is not the board's"
        );
        let restarts = restart::for_limit(self.restarts, limit);
        let limit = limit.unwrap_or(u64::MAX);
        let mut stats = CspStats::default();
        let mut solutions = 0;
        let stop = if limit == 0 {
            Stop::Limit
        } else if let Some(restarts) = restarts {
            self.search_restarting(
                &restarts,
                puzzle,
                excluded,
                limit,
                budget,
                start,
                &mut stats,
                &mut solutions,
            )
        } else {
            self.search(
                puzzle,
                excluded,
                limit,
                budget,
                start,
                &mut stats,
                &mut solutions,
                None,
            )
        };
        let solution = (solutions > 0)
            .then(|| Grid::from_cells(puzzle.shape(), self.first.clone()))
            .flatten();
        stats.elapsed = start.elapsed();
        self.ruled_out = ruled_out;
        CspReport {
            solutions,
            solution,
            stop,
            stats,
        }
    }

    /// One search of `puzzle` less the `excluded` candidates, adding its work to `stats` and
    /// its solutions to `solutions` (stopping when that reaches `limit`). Within a restarting search, `run` holds the
    /// run's cutoff, its random choices and the solutions of the runs before.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
        &mut self,
        puzzle: &Grid,
        excluded: &[(usize, u8)],
        limit: u64,
        budget: &Budget,
        start: Instant,
        stats: &mut CspStats,
        solutions: &mut u64,
        mut run: Option<&mut Run<'_>>,
    ) -> Stop {
        let CspSolver {
            config,
            tables: t,
            stack,
            choices,
            queue,
            first,
            alldiff,
            popcnt,
            preferred,
            ..
        } = self;
        let floor = if config.propagation >= Propagation::ArcConsistency {
            2
        } else {
            1
        };
        let mut node_limit = budget.node_limit();
        if let Some(run) = &run {
            node_limit = node_limit.min(stats.nodes.saturating_add(run.cutoff));
        }
        let deadline = budget.stop_at(start);
        let mut inf = stats.inferences;
        let mut p = Propagator {
            t,
            queue,
            len: 0,
            dirty: Default::default(),
            stale: Default::default(),
            alldiff,
            inf: &mut inf,
            level: config.propagation,
            pigeonhole: config.pigeonhole,
            intersections: config.intersections,
            crossed: Default::default(),
        };

        // The root: the empty grid, then the givens, then propagation.
        t.reset(stack.root());
        let root_ok = {
            let mut s = State::view(t, stack.at(0));
            p.root(&mut s, puzzle.cells(), excluded)
        };
        stats.nodes += 1;
        let (above, until) = (Config::FILL_ABOVE, Config::FILL_UNTIL);
        let cells = t.cells() as u64;
        let filling = config.fill
            && root_ok
            && *State::view(t, stack.at(0)).count * above.1 > cells * above.0;
        let mut depth = 0;
        let mut fresh = root_ok;
        choices[0].remaining = 0;
        let stop = loop {
            if fresh {
                let s = State::view(t, stack.at(depth));
                if *s.count == 0 {
                    *solutions += 1;
                    if *solutions == 1 {
                        for (out, &d) in first.iter_mut().zip(s.dom.iter()) {
                            *out = d.trailing_zeros() as u8 + 1;
                        }
                        // A run that finds a solution is not cut off.
                        node_limit = budget.node_limit();
                    }
                    if *solutions >= limit {
                        break Stop::Limit;
                    }
                    choices[depth].remaining = 0;
                } else if filling && *s.count * until.1 > cells * until.0 {
                    let cell = choose(VariableOrder::First, t, &s, floor);
                    choices[depth] = Choice {
                        cell,
                        remaining: s.dom[cell],
                    };
                } else if let Some(random) = run.as_mut().and_then(|run| run.random.as_mut()) {
                    let cell = random.choose(&s);
                    choices[depth] = Choice {
                        cell,
                        remaining: s.dom[cell],
                    };
                } else {
                    let cell = if let Some(popcnt) = *popcnt {
                        popcnt.choose(config.variable, t, &s, floor)
                    } else {
                        choose(config.variable, t, &s, floor)
                    };
                    choices[depth] = Choice {
                        cell,
                        remaining: s.dom[cell],
                    };
                }
            }
            fresh = false;
            let Choice { cell, remaining } = choices[depth];
            if remaining == 0 {
                if depth == 0 {
                    break Stop::Exhausted;
                }
                depth -= 1;
                stack.ascend();
                stats.backtracks += 1;
                continue;
            }
            let bit = match run.as_mut().and_then(|run| run.random.as_mut()) {
                _ if let Some(bit) = preferred_bit(preferred, cell, remaining) => bit,
                Some(random) => random.pick(remaining),
                None => pick(
                    config.value,
                    t,
                    &State::view(t, stack.at(depth)),
                    cell,
                    remaining,
                ),
            };
            choices[depth].remaining = remaining & !bit;
            if stats.nodes >= node_limit {
                break Stop::NodeBudget;
            }
            if past_deadline(deadline, stats.nodes) {
                break Stop::TimeBudget;
            }
            stats.nodes += 1;
            let mut s = State::view(t, stack.child(depth));
            if p.decide(&mut s, cell, bit) {
                stack.descend();
                depth += 1;
                stats.max_depth = stats.max_depth.max(depth);
                fresh = true;
            } else {
                stats.backtracks += 1;
                if let Some(random) = run.as_mut().and_then(|run| run.random.as_mut()) {
                    random.failed(cell);
                }
            }
        };
        stats.inferences = inf;
        stop
    }
}

/// Proof that this CPU has the `popcnt` instruction, which the baseline x86-64 target lacks.
/// Only [`Popcnt::detect`] makes one, after asking the CPU, so code that holds one may run
/// functions compiled with `popcnt`.
#[derive(Clone, Copy, Debug)]
struct Popcnt(());

impl Popcnt {
    /// `Some` when the CPU has `popcnt`.
    fn detect() -> Option<Popcnt> {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("popcnt").then_some(Popcnt(()))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// [`choose`], compiled with `popcnt`: MRV-degree counts a cell's open peers with
    /// popcounts, and this saves a fifth of the default configuration's instructions.
    #[inline]
    fn choose(self, order: VariableOrder, t: &CspTables, s: &State, floor: u32) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "popcnt")]
            fn choose_with_popcnt(
                order: VariableOrder,
                t: &CspTables,
                s: &State,
                floor: u32,
            ) -> usize {
                choose(order, t, s, floor)
            }
            // SAFETY: `self` exists only if `detect` found `popcnt` on this CPU.
            unsafe { choose_with_popcnt(order, t, s, floor) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            choose(order, t, s, floor)
        }
    }
}

/// The number of candidates in `d`, cheaply for the common small sizes: without the `popcnt`
/// instruction (not in the baseline x86-64 target) `count_ones` is a dozen instructions.
#[inline]
fn size_of(d: u64) -> u32 {
    let rest = d & d.wrapping_sub(1);
    if rest == 0 {
        u32::from(d != 0)
    } else if rest & (rest - 1) == 0 {
        2
    } else {
        d.count_ones()
    }
}

/// The cell to branch on; there is at least one open cell. `floor` is the smallest domain an
/// open cell can have (2 once naked singles are assigned, else 1).
#[inline(always)]
fn choose(order: VariableOrder, t: &CspTables, s: &State, floor: u32) -> usize {
    let open_cells = || s.open_cells();
    match order {
        VariableOrder::First => open_cells().next().unwrap_or(0),
        VariableOrder::Mrv => {
            let (mut best, mut best_size) = (0, u32::MAX);
            for cell in open_cells() {
                let size = size_of(s.dom[cell]);
                if size < best_size {
                    best = cell;
                    best_size = size;
                    if size <= floor {
                        break; // Nothing open is smaller.
                    }
                }
            }
            best
        }
        VariableOrder::MrvDegree => {
            // One pass; the degree is computed only for cells that tie with the smallest
            // domain so far.
            let degree = |cell: usize| {
                if !t.has_peer_masks() {
                    t.peers(cell)
                        .iter()
                        .filter(|&&p| s.is_open(p as usize))
                        .count() as u32
                } else {
                    (t.peer_mask(cell).iter())
                        .zip(s.open.iter())
                        .map(|(m, o)| (m & o).count_ones())
                        .sum()
                }
            };
            let (mut best, mut best_size, mut best_degree) = (0, u32::MAX, 0);
            for cell in open_cells() {
                let size = size_of(s.dom[cell]);
                if size < best_size {
                    (best, best_size, best_degree) = (cell, size, degree(cell));
                } else if size == best_size {
                    let d = degree(cell);
                    if d > best_degree {
                        (best, best_degree) = (cell, d);
                    }
                }
            }
            best
        }
    }
}

/// The preferred digit of `cell` (see [`CspSolver::set_preferred`]) as a bit, when it is among
/// `remaining`.
#[inline]
fn preferred_bit(preferred: &[u8], cell: usize, remaining: u64) -> Option<u64> {
    let digit = *preferred.get(cell)?;
    let bit = 1u64.checked_shl(u32::from(digit).checked_sub(1)?)?;
    (remaining & bit != 0).then_some(bit)
}

/// The next digit (as a bit) to try at `cell` among `remaining`.
#[inline]
fn pick(order: ValueOrder, t: &CspTables, s: &State, cell: usize, remaining: u64) -> u64 {
    let lowest = remaining & remaining.wrapping_neg();
    let score = |bit: u64| -> usize {
        match order {
            ValueOrder::Lexicographic => 0,
            ValueOrder::LeastConstraining => t
                .peers(cell)
                .iter()
                .filter(|&&p| s.is_open(p as usize) && s.dom[p as usize] & bit != 0)
                .count(),
            // Over every unit: on a Sudoku a placed digit is in one row, one column and one
            // box, so this is three times the count over the rows, in the same order.
            ValueOrder::LeastPlaced => s.placed.iter().filter(|&&unit| unit & bit != 0).count(),
        }
    };
    if order == ValueOrder::Lexicographic {
        return lowest;
    }
    let mut best = lowest;
    let mut best_score = score(lowest);
    let mut rest = remaining ^ lowest;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        let sc = score(bit);
        if sc < best_score {
            best = bit;
            best_score = sc;
        }
    }
    best
}
