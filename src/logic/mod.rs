//! A logical solver that explains a solution step by step, as a person would solve, and rates
//! a puzzle by the hardest step it needed, on Sudoku Explainer's scale (SE 1.2.1's, or Sukaku
//! Explainer's: [`Scale`]).
//!
//! The solver works on a [`Candidates`] grid (each empty cell's candidates as a `u64`
//! bitset, so every box size from 1x2 to 8x8) and always takes the easiest step available:
//! the techniques of [`Technique`], tried in order (singles, locked candidates, subsets, fish,
//! wings, chains, forcing chains). Each [`Step`] names its technique, its units, the digits
//! placed and the candidates removed, and says why. When no technique applies, the solver
//! says so and (if asked) guesses: it places a digit of the solution, found by Dancing Links
//! ([`DlxSolver`]), and marks the step as a guess. A guess is never wrong, and every other
//! step follows from the grid alone.
//!
//! The solver reads the puzzle's [`Board`]: [`LogicSolver::new`] takes a shape's classic board,
//! [`LogicSolver::on_board`] any board, a variant's ([`crate::sudoku::variant`]). Every
//! technique that works on units works on all the board's groups (rows, columns and boxes, and
//! an X-Sudoku's diagonals, a windoku's windows, a jigsaw's regions); the techniques whose
//! proof needs more than "each group holds each digit once" say where they apply:
//!
//! - locked candidates are those of any two groups (a box pointing into a window, a diagonal
//!   claiming from a box), pointing from a box-like group and claiming from a line;
//! - fish use rows and columns only (a board without them has none);
//! - a unique rectangle needs each group that holds one of its cells to hold two, on one side
//!   of it (on a classic board: two boxes), and neither it nor BUG+1 is used with cages;
//! - killer cages: cage mates are peers (their digits differ), which every technique that
//!   reads peers uses (singles, wings, chains, forcing chains), and the cage combination
//!   (`cages`) removes the candidates that no set of digits of the cage's sum allows. The
//!   hidden techniques (hidden singles and subsets, locked candidates, fish) read groups
//!   only: a cage need not hold every digit.
//!
//! A [`Budget`] bounds a solution ([`LogicSolver::solve_within`], [`LogicSolver::rate_within`]):
//! when it runs out the solution ends [`Ending::Undecided`], never with a rating. What a node
//! is there is said in `meter`.
//!
//! - `singles`: full house, hidden single, naked single.
//! - `intersections`: pointing and claiming.
//! - `cages`: the cage combination of killer Sudoku.
//! - `subsets`: naked and hidden pairs, triples, quads.
//! - `fish`: X-wing, swordfish, jellyfish.
//! - `wings`: XY-wing, XYZ-wing, W-wing, and Sukaku's WXYZ- and VWXYZ-wings.
//! - `strong_links`: Sukaku's turbot fish and three strong links.
//! - `exclusion`: Sukaku's aligned pair exclusion.
//! - `chains`: X-chains and alternating inference chains, by breadth-first search over the
//!   strong and weak links, shortest first; Sukaku's Y-cycles.
//! - `forcing`: forcing chains over singles, then with basic techniques, then nested.
//! - [`technique`]: the order and the scores; [`rate`]: the [`Rating`] of a puzzle.
//!
//! ```
//! use quadrille::io::puzzle::parse_line;
//! use quadrille::logic::{self, Technique};
//!
//! let puzzle = parse_line(
//!     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", None)?;
//! let explanation = logic::explain(&puzzle);
//! assert!(explanation.is_solved());
//! assert_eq!(explanation.steps[0].technique(), Technique::HiddenSingle);
//! let rating = logic::rate(&puzzle);
//! assert!(rating.score() >= 2.6);
//! assert_eq!(rating.steps as usize, explanation.steps.len());
//! # Ok::<(), quadrille::Error>(())
//! ```

mod cages;
mod chains;
mod draw;
mod exclusion;
mod fish;
mod forcing;
mod intersections;
mod meter;
#[cfg(feature = "plot")]
pub mod plot;
mod rating;
mod singles;
mod state;
mod step;
mod strong_links;
mod subsets;
pub mod technique;
mod unique;
mod wings;

use std::cell::RefCell;
use std::sync::Arc;

pub use draw::{step_svg, write_candidates};
pub use rating::{Difficulty, Rating, rate};
pub use state::Candidates;
pub use step::{Step, cell_name, digit_name};
pub use technique::{Scale, Technique};

use crate::board::Board;
use crate::engine::{DlxSolver, Solve};
use crate::io::puzzle::Puzzle;
use crate::runner::Recent;
use crate::sudoku::{Grid, Shape};
use crate::{Budget, Stop};
use chains::Links;
use meter::Meter;
use state::LogicTables;

/// How a logical solution ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every cell holds a digit.
    Solved,
    /// No technique applies and guesses were not allowed; the candidates are kept.
    Stuck,
    /// The puzzle has no solution (Dancing Links found none, or the grid broke).
    NoSolution,
    /// The caller's sink asked to stop.
    Stopped,
    /// The puzzle has more than one solution, so no step was taken: a logical solution, and
    /// a rating, hold only for a puzzle with exactly one (Sudoku Explainer refuses the others
    /// too).
    Several,
    /// The budget ran out ([`Stop::NodeBudget`] or [`Stop::TimeBudget`]) before the solution
    /// ended: what the steps so far say is no rating of the puzzle.
    Undecided(Stop),
}

impl Ending {
    /// The ending's name in machine-readable output (`explain --json`, the Python package):
    /// `solved`, `stuck`, `no solution`, `stopped`, `several solutions` or `undecided`.
    ///
    /// ```
    /// use quadrille::Stop;
    /// use quadrille::logic::Ending;
    ///
    /// assert_eq!(Ending::Several.name(), "several solutions");
    /// assert_eq!(Ending::Undecided(Stop::TimeBudget).name(), "undecided");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Ending::Solved => "solved",
            Ending::Stuck => "stuck",
            Ending::NoSolution => "no solution",
            Ending::Stopped => "stopped",
            Ending::Several => "several solutions",
            Ending::Undecided(_) => "undecided",
        }
    }
}

/// A whole explanation: the steps, and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// How it ended.
    pub ending: Ending,
    /// Whether the puzzle is proved to have exactly one solution: `false` for none or several,
    /// or when a budget stopped the count. See [`LogicSolver::found_unique`].
    pub unique: bool,
}

impl Explanation {
    /// Whether the grid was filled.
    pub fn is_solved(&self) -> bool {
        self.ending == Ending::Solved
    }
}

/// The logical solver of one board, reused across puzzles (its buffers are kept).
#[derive(Clone, Debug)]
pub struct LogicSolver {
    tables: Arc<LogicTables>,
    state: Candidates,
    step: Step,
    chains: chains::ChainScratch,
    forcing: forcing::ForcingScratch,
    dlx: Option<DlxSolver>,
    /// Whether the last puzzle solved has a second solution.
    several: bool,
    /// Whether the puzzle being solved is unique, once a uniqueness technique asked.
    uniqueness: Option<bool>,
    /// The budget of the solution under way.
    meter: Meter,
    /// Whose techniques, order and scores the solver follows.
    scale: Scale,
}

impl LogicSolver {
    /// A solver for classic puzzles of `shape`.
    pub fn new(shape: Shape) -> LogicSolver {
        LogicSolver::with_tables(LogicTables::of(shape), shape)
    }

    /// A solver for puzzles on `board`: a variant's, whose groups and cages it reads (see the
    /// [module docs](self)).
    ///
    /// ```
    /// use quadrille::io::puzzle::PuzzleReader;
    /// use quadrille::logic::{Ending, LogicSolver};
    ///
    /// let text = "# variant: x\n.8....2...1....5....34..7....9.5.....2...46..3........9...2...................4.7\n";
    /// let puzzle = PuzzleReader::new(text.as_bytes(), None, Default::default()).next().unwrap()?;
    /// let mut solver = LogicSolver::on_board(puzzle.board());
    /// let explanation = solver.explain(&puzzle.grid, true);
    /// assert_eq!(explanation.ending, Ending::Solved);
    /// // Some step reads a diagonal.
    /// assert!(explanation.steps.iter().flat_map(|s| s.units().iter().map(|&u| s.board().group(u).kind()))
    ///     .any(|kind| kind == "diagonal"));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn on_board(board: &Board) -> LogicSolver {
        let n = board.size();
        let shape = Shape::from_cell_count(n * n)
            .or_else(|| Shape::new(1, n).ok())
            .expect("a board's side is 1 to 64");
        LogicSolver::with_tables(Arc::new(LogicTables::build(board)), shape)
    }

    fn with_tables(tables: Arc<LogicTables>, shape: Shape) -> LogicSolver {
        let state = Candidates::with_tables(Arc::clone(&tables), &Grid::empty(shape));
        LogicSolver {
            step: Step::new(&state),
            tables,
            state,
            chains: chains::ChainScratch::default(),
            forcing: forcing::ForcingScratch::default(),
            dlx: None,
            several: false,
            uniqueness: None,
            meter: Meter::unlimited(),
            scale: Scale::Se121,
        }
    }

    /// The scale the solver rates on: whose techniques it uses, in which order, and their
    /// scores ([`Scale::Se121`] unless set).
    pub fn scale(&self) -> Scale {
        self.scale
    }

    /// Rates and explains on `scale` from now on.
    ///
    /// ```
    /// use quadrille::io::puzzle::parse_line;
    /// use quadrille::logic::{LogicSolver, Scale, Technique};
    ///
    /// // Sukaku Explainer rates it 5.6 (fixtures/se/heldout_sukaku.txt): a WXYZ-wing, which
    /// // SE 1.2.1 lacks.
    /// let puzzle = parse_line(
    ///     ".1......7.....4.28..76..3.4.....92.324.....857.62.....9.1..38..85.9.....3......1.", None)?;
    /// let mut solver = LogicSolver::new(puzzle.shape());
    /// let se121 = solver.rate(&puzzle);
    /// assert_eq!((se121.hardest, se121.score()), (Technique::WWing, 7.1));
    /// solver.set_scale(Scale::Sukaku);
    /// let sukaku = solver.rate(&puzzle);
    /// assert_eq!((sukaku.hardest, sukaku.score()), (Technique::WxyzWing, 5.6));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn set_scale(&mut self, scale: Scale) {
        self.scale = scale;
    }

    /// The board whose rules the solver follows.
    pub fn board(&self) -> &Board {
        &self.tables.board
    }

    /// Whether the puzzle last solved is proved to have exactly one solution: Dancing Links
    /// counts them up to 2 before the first step (see [`Ending::Several`]). `false` for a
    /// puzzle with none or several, and for one a budget stopped before the count ended.
    pub fn found_unique(&self) -> bool {
        self.uniqueness == Some(true) && !self.several
    }

    /// The candidate grid where the last solution ended (for a puzzle that is `Stuck`, where
    /// no technique applied).
    pub fn state(&self) -> &Candidates {
        &self.state
    }

    /// Solves `grid` step by step, handing each step and the candidates before it to `each`
    /// (which returns whether to go on). With `guesses`, a grid that no technique can advance
    /// takes a digit of the solution and goes on.
    ///
    /// # Panics
    /// If `grid` is not of this solver's side.
    pub fn solve_with(
        &mut self,
        grid: &Grid,
        guesses: bool,
        each: impl FnMut(&Candidates, &Step) -> bool,
    ) -> Ending {
        self.solve_known(grid, None, guesses, &Budget::unlimited(), each)
    }

    /// [`LogicSolver::solve_with`] within `budget`: when it runs out, the solution ends
    /// [`Ending::Undecided`] (after the steps handed out so far). What a node is here: a step,
    /// a chain search's start, a forcing chain's assumption, a node of the Dancing Links count.
    ///
    /// # Panics
    /// If `grid` is not of this solver's side.
    pub fn solve_within(
        &mut self,
        grid: &Grid,
        guesses: bool,
        budget: &Budget,
        each: impl FnMut(&Candidates, &Step) -> bool,
    ) -> Ending {
        self.solve_known(grid, None, guesses, budget, each)
    }

    /// [`LogicSolver::solve_with`], where the caller may vouch for the puzzle's one solution
    /// (a generator knows it), which spares the count that proves it.
    pub(crate) fn solve_known(
        &mut self,
        grid: &Grid,
        solution: Option<&Grid>,
        guesses: bool,
        budget: &Budget,
        mut each: impl FnMut(&Candidates, &Step) -> bool,
    ) -> Ending {
        assert_eq!(grid.size(), self.tables.n, "a grid of another size");
        self.meter = Meter::start(budget);
        self.state.reset(grid);
        (self.several, self.uniqueness) = (false, None);
        // Dancing Links counts the solutions up to 2 first: a puzzle without exactly one
        // ends here, before any step, and the one solution is what guesses follow.
        let counted;
        let known = match solution {
            Some(solution) => solution,
            None => {
                let tables = &self.tables;
                let dlx = self
                    .dlx
                    .get_or_insert_with(|| DlxSolver::new(&tables.board));
                let outcome = dlx.count(grid, Some(2), &self.meter.left());
                self.meter.record(outcome.nodes, outcome.stop);
                if let Some(stop) = self.meter.stop() {
                    return Ending::Undecided(stop);
                }
                match outcome.solutions {
                    0 => {
                        (self.several, self.uniqueness) = (false, Some(false));
                        return Ending::NoSolution;
                    }
                    1 => {
                        counted = outcome.solution.expect("a count of one keeps its solution");
                        &counted
                    }
                    _ => {
                        (self.several, self.uniqueness) = (true, Some(false));
                        return Ending::Several;
                    }
                }
            }
        };
        (self.several, self.uniqueness) = (false, Some(true));
        let mut guesses_made = 0u16;
        loop {
            if self.state.is_contradictory() {
                return Ending::NoSolution;
            }
            if self.state.is_solved() {
                return Ending::Solved;
            }
            let found = self.meter.spend(1) && self.find_step();
            if let Some(stop) = self.meter.stop() {
                return Ending::Undecided(stop);
            }
            if !found {
                if !guesses {
                    return Ending::Stuck;
                }
                let state = &self.state;
                let c = (0..state.cands.len())
                    .filter(|&c| state.values[c] == 0)
                    .min_by_key(|&c| state.cands[c].count_ones())
                    .expect("an empty cell");
                let d = known.cells()[c];
                self.step.begin(
                    Technique::Guess,
                    (Technique::Guess.base_tenths() + guesses_made).min(129),
                );
                guesses_made += 1;
                self.step.cells.push(c as u16);
                self.step.digits = 1 << (d - 1);
                self.step.place(c, d);
            }
            if !each(&self.state, &self.step) {
                return Ending::Stopped;
            }
            for &(c, d) in &self.step.placements {
                self.state.place(usize::from(c), d);
            }
            for &(c, d) in &self.step.eliminations {
                self.state.cands[usize::from(c)] &= !(1 << (d - 1));
            }
        }
    }

    /// The easiest step in the candidate grid `state` (a hint), or `None` when no technique
    /// applies. Never a guess.
    ///
    /// ```
    /// use quadrille::board::{Cell, Digit};
    /// use quadrille::logic::{Candidates, LogicSolver, Technique};
    /// use quadrille::sudoku::{Grid, Shape};
    ///
    /// // Row 1 of an empty grid: 1-4 only in its first four cells, a hidden quad.
    /// let mut state = Candidates::new(&Grid::empty(Shape::CLASSIC));
    /// for col in 4..9 {
    ///     for d in 1..=4 {
    ///         state.eliminate(Cell::at(0, col, 9), Digit::new(d).unwrap());
    ///     }
    /// }
    /// let step = LogicSolver::new(Shape::CLASSIC).next_step(&state).unwrap();
    /// assert_eq!((step.technique(), step.score()), (Technique::HiddenQuad, 5.4));
    /// assert_eq!(step.eliminations().len(), 4 * 5); // 5-9 from r1c1-r1c4
    /// ```
    ///
    /// # Panics
    /// If `state` is not of this solver's board.
    pub fn next_step(&mut self, state: &Candidates) -> Option<Step> {
        assert!(state.tables == self.tables, "a grid of another board");
        self.state.clone_from(state);
        self.uniqueness = None;
        self.meter = Meter::unlimited();
        self.find_step().then(|| self.step.clone())
    }

    /// Whether the puzzle being solved is proved to have one solution, which the uniqueness
    /// techniques need: Dancing Links counts the solutions of the current grid up to 2, once
    /// per puzzle (the logical steps before keep the solutions).
    fn known_unique(&mut self) -> bool {
        if let Some(known) = self.uniqueness {
            return known;
        }
        let tables = &self.tables;
        let dlx = self
            .dlx
            .get_or_insert_with(|| DlxSolver::new(&tables.board));
        let count = dlx.count(&self.state.grid(), Some(2), &self.meter.left());
        self.meter.record(count.nodes, count.stop);
        let unique = count.solutions == 1;
        self.several |= count.solutions >= 2;
        self.uniqueness = Some(unique);
        unique
    }

    /// The easiest step, into `self.step`; false when no technique applies. Both scales try
    /// their common techniques in the same order; Sukaku's own come in the places its solver
    /// gives them.
    fn find_step(&mut self) -> bool {
        let sukaku = self.scale == Scale::Sukaku;
        let (s, step) = (&self.state, &mut self.step);
        let basic = singles::full_house(s, step)
            || singles::hidden_single(s, step)
            || intersections::pointing(s, step, true)
            || intersections::claiming(s, step, true)
            || subsets::hidden(s, step, 2, true)
            || cages::combination(s, step)
            || singles::naked_single(s, step)
            || subsets::hidden(s, step, 3, true)
            || intersections::pointing(s, step, false)
            || intersections::claiming(s, step, false)
            || subsets::naked(s, step, 2)
            || fish::fish(s, step, 2)
            || subsets::hidden(s, step, 2, false)
            || subsets::naked(s, step, 3)
            || fish::fish(s, step, 3)
            || subsets::hidden(s, step, 3, false)
            || (sukaku && strong_links::turbot_fish(s, step))
            || wings::xy_wing(s, step)
            || wings::xyz_wing(s, step);
        basic
            || (unique::rectangle(&self.state, &mut self.step) && self.known_unique())
            || (sukaku
                && unique::unique_loop(&self.state, &mut self.step, 6)
                && self.known_unique())
            || (sukaku
                && unique::rectangle_type_3(&self.state, &mut self.step)
                && self.known_unique())
            || (sukaku
                && unique::unique_loop(&self.state, &mut self.step, 8)
                && self.known_unique())
            || {
                let (s, step) = (&self.state, &mut self.step);
                subsets::naked(s, step, 4)
                    || fish::fish(s, step, 4)
                    || subsets::hidden(s, step, 4, false)
                    || (sukaku && strong_links::three_strong_links(s, step))
                    || (sukaku && wings::als_wing(s, step, 3))
            }
            || (unique::bug(&self.state, &mut self.step) && self.known_unique())
            || (sukaku && unique::bug_type_two(&self.state, &mut self.step) && self.known_unique())
            || (sukaku && wings::als_wing(&self.state, &mut self.step, 4))
            || (sukaku && exclusion::aligned_pair(&self.state, &mut self.step))
            || self.chains_and_forcing()
    }

    /// The chains and forcing chains, the last of the techniques. On Sukaku's scale the
    /// cycles come with the chains, and the W-wing is left to the AICs.
    fn chains_and_forcing(&mut self) -> bool {
        let (s, step, meter) = (&self.state, &mut self.step, &mut self.meter);
        let forcing = &mut self.forcing;
        let scratch = &mut self.chains;
        let found = match self.scale {
            Scale::Se121 => {
                chains::chain(s, step, scratch, Links::OneDigit, usize::MAX, meter).is_some()
                    || wings::w_wing(s, step)
                    || chains::chain(s, step, scratch, Links::Any, usize::MAX, meter).is_some()
            }
            Scale::Sukaku => {
                // Sukaku's one producer of cycles and chains keeps the easiest of them all.
                let mut easiest: Option<Step> = None;
                for (technique, links) in [
                    (Technique::XCycle, Links::OneDigit),
                    (Technique::YCycle, Links::Bivalue),
                    (Technique::XChain, Links::OneDigit),
                    (Technique::XyCycle, Links::Any),
                    (Technique::Aic, Links::Any),
                ] {
                    // A search that cannot beat the easiest so far is skipped.
                    if easiest
                        .as_ref()
                        .is_some_and(|e| e.tenths() <= technique.base_tenths())
                    {
                        continue;
                    }
                    let found = match technique {
                        Technique::XCycle | Technique::YCycle | Technique::XyCycle => {
                            chains::cycle(s, step, scratch, links, meter)
                        }
                        _ => chains::chain(s, step, scratch, links, usize::MAX, meter),
                    };
                    if found.is_some()
                        && easiest.as_ref().is_none_or(|e| step.tenths() < e.tenths())
                    {
                        easiest = Some(step.clone());
                    }
                }
                easiest.map(|easiest| *step = easiest).is_some()
            }
        };
        found
            || [
                forcing::Depth::Singles,
                forcing::Depth::Basic,
                forcing::Depth::Chains,
                forcing::Depth::Nested,
            ]
            .into_iter()
            .any(|depth| forcing::forcing_chain(s, step, forcing, depth, meter))
    }

    /// Every step of the solution of `grid`, guessing (verified) when no technique applies
    /// if `guesses` is set.
    pub fn explain(&mut self, grid: &Grid, guesses: bool) -> Explanation {
        let mut steps = Vec::new();
        let ending = self.solve_with(grid, guesses, |_, step| {
            steps.push(step.clone());
            true
        });
        Explanation {
            steps,
            ending,
            unique: self.found_unique(),
        }
    }
}

/// Explains a puzzle's solution step by step, guessing (verified) when no technique applies.
/// See the [module docs](self).
pub fn explain(grid: &Grid) -> Explanation {
    LogicSolver::new(grid.shape()).explain(grid, true)
}

/// What a thread's solver is kept by: a shape's classic board, or a variant's board (a jigsaw's
/// changes with its puzzle; X-Sudoku's and windoku's are shared by the puzzles of a file).
#[derive(PartialEq)]
enum SolverKey {
    Shape(Shape),
    Board(Arc<Board>),
}

thread_local! {
    /// Each thread's logical solvers, by board: their tables are built once, not per puzzle.
    static SOLVERS: RefCell<Recent<SolverKey, LogicSolver>> = const { RefCell::new(Recent::new(4)) };
}

/// The kept solver of `key` (made by `make` the first time) on `scale`: the scale is set for
/// every call, so that no caller inherits the one the thread's last caller chose.
fn with_kept_solver<T>(
    key: SolverKey,
    scale: Scale,
    make: impl FnOnce() -> LogicSolver,
    work: impl FnOnce(&mut LogicSolver) -> T,
) -> T {
    SOLVERS.with(|solvers| {
        let mut solvers = solvers.borrow_mut();
        let solver = solvers.get_or_insert_with(key, make);
        solver.set_scale(scale);
        work(solver)
    })
}

/// Runs `work` with this thread's logical solver for `shape` on the rating `scale`, built the
/// first time the thread meets the shape: what a batch of ratings or explanations on a thread
/// pool wants.
///
/// ```
/// use quadrille::io::puzzle::parse_line;
/// use quadrille::logic::{self, Scale};
///
/// let puzzle = parse_line("1.34341221..4321", None)?;
/// let rating = logic::with_thread_solver(puzzle.shape(), Scale::Se121, |solver| solver.rate(&puzzle));
/// assert_eq!((rating.hardest, rating.steps), (logic::Technique::FullHouse, 3));
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn with_thread_solver<T>(
    shape: Shape,
    scale: Scale,
    work: impl FnOnce(&mut LogicSolver) -> T,
) -> T {
    with_kept_solver(
        SolverKey::Shape(shape),
        scale,
        || LogicSolver::new(shape),
        work,
    )
}

/// [`with_thread_solver`] for a puzzle read with its variant: the solver of its board.
pub fn with_puzzle_solver<T>(
    puzzle: &Puzzle,
    scale: Scale,
    work: impl FnOnce(&mut LogicSolver) -> T,
) -> T {
    match &puzzle.board {
        None => with_thread_solver(puzzle.grid.shape(), scale, work),
        Some(board) => with_kept_solver(
            SolverKey::Board(Arc::clone(board)),
            scale,
            || LogicSolver::on_board(board),
            work,
        ),
    }
}

#[cfg(test)]
mod tests;
