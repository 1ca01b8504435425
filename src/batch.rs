//! Solving a stream of puzzles on several threads, in input order, in flat memory.
//!
//! Puzzles are read in chunks and solved on the current rayon pool through the
//! ordered runner: one solver per thread, engine and shape, kept for the whole run,
//! while the calling thread reads the next chunk and hands the results of the previous one to
//! the caller, in input order. Memory is bounded by three chunks, whatever the input's length.
//! Bad lines are results too, so that every puzzle line is accounted for.

use std::cell::RefCell;
use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::Board;
use crate::budget::Budget;
use crate::budget::Request;
use crate::engine::{self, Choice, DlxSolver, Engine, Outcome, Solve, Solver};
use crate::error::Result;
use crate::exact_cover::PartsDone;
use crate::io::puzzle::{Puzzle, PuzzleReader};
use crate::runner::{self, Recent, WithinChunk};
use crate::sudoku::Shape;

/// Puzzles read and solved together on several threads; large enough to keep every thread
/// busy between the joins (benches/peers/threads.sh), small enough to keep memory flat and the
/// first results quick.
const CHUNK: usize = 2048;

/// Puzzles read and solved together on one thread, which has no other to keep busy: a chunk
/// that stays in the caches (benches/peers/batch9.sh, puzzles7_serg_benchmark).
const ONE_THREAD_CHUNK: usize = 256;

/// How a batch shares out the threads of its pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Parallelism {
    /// Several puzzles at once, one per thread: for many quick searches.
    #[default]
    AcrossPuzzles,
    /// One puzzle at a time, a long DLX count split across the threads (see
    /// [`Solver::count_split`]): for counting few, large puzzles.
    WithinPuzzle,
}

/// One result of a batch, in input order.
#[derive(Debug)]
pub struct Record {
    /// The 1-based input line where the puzzle starts.
    pub line: usize,
    /// The puzzle and what solving it gave, or why its line could not be read.
    pub result: Result<Solved>,
}

/// A puzzle that was read, and what solving it gave.
#[derive(Debug)]
pub struct Solved {
    /// The puzzle as read.
    pub puzzle: Puzzle,
    /// What the engine found.
    pub outcome: Outcome,
    /// The engine that answered: the one asked for, or the one [`Engine::Auto`] chose.
    pub engine: Engine,
    /// Why that engine answered ([`Engine::choose`]).
    pub why: engine::Why,
}

/// What a batch did, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Input lines read (comments and blank lines included).
    pub lines: usize,
    /// Puzzles read, good or bad.
    pub puzzles: usize,
    /// Puzzles with at least one solution found.
    pub solved: usize,
    /// Puzzles with exactly one solution (known only when the limit is 2 or more).
    pub unique: usize,
    /// Puzzles with two or more solutions.
    pub multiple: usize,
    /// Puzzles proven to have no solution.
    pub unsolvable: usize,
    /// Puzzles whose search ran out of budget before finding a solution.
    pub undecided: usize,
    /// Lines that were not valid puzzles.
    pub errors: usize,
    /// Search-tree nodes of all puzzles.
    pub nodes: u64,
    /// Puzzles solved without backtracking.
    pub no_backtracking: usize,
    /// Wall-clock time of the whole batch.
    pub wall: Duration,
    /// Time spent in the solvers, summed over puzzles (over threads).
    pub solving: Duration,
    /// Puzzles answered by each kind of engine.
    pub answered: Answered,
}

/// Puzzles answered by each kind of engine, for a summary of [`Engine::Auto`]'s choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Answered {
    /// By Dancing Links.
    pub dlx: usize,
    /// By the CSP search, in any configuration.
    pub csp: usize,
    /// By the bitboard search.
    pub bitboard: usize,
    /// By Dancing Links after the engine auto picked first ran out of its share of the
    /// budget ([`engine::Why::Fallback`]); counted in `dlx` too.
    pub fallback: usize,
}

impl Answered {
    /// The engines that answered, with how many puzzles each, e.g. `bitboard 97, dlx 3`.
    pub fn describe(&self) -> String {
        let tally = [
            ("bitboard", self.bitboard),
            ("csp", self.csp),
            ("dlx", self.dlx),
        ];
        let parts: Vec<String> = (tally.iter())
            .filter(|(_, n)| *n > 0)
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        match self.fallback {
            0 => parts.join(", "),
            n => format!(
                "{}; {n} by dlx after the first engine ran out",
                parts.join(", ")
            ),
        }
    }

    fn note(&mut self, engine: Engine, why: engine::Why) {
        if why == engine::Why::Fallback {
            self.fallback += 1;
        }
        match engine {
            Engine::Dlx | Engine::Auto => self.dlx += 1,
            Engine::Csp(_) => self.csp += 1,
            Engine::Bitboard => self.bitboard += 1,
        }
    }
}

impl Summary {
    /// Adds another batch's counts and times to these (for several inputs in a row).
    pub fn merge(&mut self, other: &Summary) {
        self.lines += other.lines;
        self.puzzles += other.puzzles;
        self.solved += other.solved;
        self.unique += other.unique;
        self.multiple += other.multiple;
        self.unsolvable += other.unsolvable;
        self.undecided += other.undecided;
        self.errors += other.errors;
        self.nodes += other.nodes;
        self.no_backtracking += other.no_backtracking;
        self.wall += other.wall;
        self.solving += other.solving;
        self.answered.dlx += other.answered.dlx;
        self.answered.csp += other.answered.csp;
        self.answered.bitboard += other.answered.bitboard;
        self.answered.fallback += other.answered.fallback;
    }

    fn add(&mut self, record: &Record) {
        self.puzzles += 1;
        let Ok(Solved {
            outcome,
            engine,
            why,
            ..
        }) = &record.result
        else {
            self.errors += 1;
            return;
        };
        self.answered.note(*engine, *why);
        self.nodes += outcome.nodes;
        self.solving += outcome.elapsed;
        if outcome.backtracks == 0 {
            self.no_backtracking += 1;
        }
        match outcome.solutions {
            0 if outcome.is_complete() => self.unsolvable += 1,
            0 => self.undecided += 1,
            k => {
                self.solved += 1;
                if k >= 2 {
                    self.multiple += 1;
                } else if outcome.is_complete() {
                    // One solution, and the search looked everywhere for a second.
                    self.unique += 1;
                }
            }
        }
    }
}

/// Which board a solver is for: a shape's Sudoku, or a variant's board.
#[derive(Debug, PartialEq)]
enum BoardKey {
    Shape(Shape),
    // `Arc<Board>`'s equality looks at the pointer before the groups: a file of X-Sudoku
    // shares one board.
    Variant(Arc<Board>),
}

/// Solvers kept per thread: every engine of `compare` on two shapes, or a few variant boards
/// (every jigsaw or killer puzzle brings its own).
const SOLVERS_KEPT: usize = 24;

thread_local! {
    /// Each worker thread's solvers, by engine and board, built on first use.
    static SOLVERS: RefCell<Recent<(Engine, BoardKey), Solver>> =
        const { RefCell::new(Recent::new(SOLVERS_KEPT)) };
}

/// Solves one puzzle as `request` asks with this thread's solver for `engine` and the puzzle's
/// board (its shape's, or its variant's).
///
/// Returns the outcome and the engine that answered, with why it did (the one [`Engine::Auto`]
/// chose, see [`Engine::choose`]).
///
/// # Errors
/// [`crate::ErrorKind::UnsupportedBoard`], at the puzzle's line, when the engine cannot solve
/// puzzles on its board (see [`Solver::new`]).
pub fn solve_one(
    puzzle: &Puzzle,
    engine: Engine,
    request: &Request,
    parallelism: Parallelism,
) -> Result<(Outcome, Choice)> {
    solve_one_with(puzzle, engine, request, parallelism, &|_| {})
}

/// [`solve_one`], telling `progress` how far a count split within the puzzle has got (a
/// count on one thread, or one that the learning search proves, tells nothing).
///
/// # Errors
/// As [`solve_one`].
pub fn solve_one_with(
    puzzle: &Puzzle,
    engine: Engine,
    request: &Request,
    parallelism: Parallelism,
    progress: &(dyn Fn(PartsDone) + Sync),
) -> Result<(Outcome, Choice)> {
    let choice = engine.choose(puzzle.board(), Some(&puzzle.grid));
    let first_budget = engine::first_try(choice, &request.budget);
    // A count that may remember: DLX's count, if its trial pays, else the first try's.
    let remembered = RefCell::new(None);
    let (first, searched) = with_solver(puzzle, choice.engine, |solver| match solver {
        Solver::Bitboard(bitboard)
            if engine::may_remember(choice, request.limit, request.restarts.is_some()) =>
        {
            bitboard.set_timed(request.timed);
            let start = Instant::now();
            let try_remembering = |solutions| {
                if !engine::enumeration_bound(solutions) {
                    return true;
                }
                // Remembering counts within the caller's budget: the first try's cut is
                // the bitboard search's own.
                let rest = request
                    .budget
                    .after(engine::REMEMBER_AFTER, start.elapsed());
                let counted = DlxSolver::new(puzzle.board()).count_remembering(&puzzle.grid, &rest);
                let go_on = counted.is_none();
                *remembered.borrow_mut() = counted;
                go_on
            };
            let pause = (
                engine::REMEMBER_AFTER,
                &try_remembering as &dyn Fn(u64) -> bool,
            );
            bitboard.count_paused(&puzzle.grid, None, &first_budget, pause)
        }
        solver => search_with(
            solver,
            puzzle,
            request,
            &first_budget,
            parallelism,
            progress,
        ),
    })?;
    if let Some(mut outcome) = remembered.into_inner() {
        outcome.solution = first.solution.clone();
        let choice = Choice {
            engine: Engine::Dlx,
            why: engine::Why::Remembering,
        };
        let mut outcome = engine::with_first_try(outcome, &first);
        // The bitboard search's clock ran on while remembering counted, in its pause.
        outcome.elapsed = first.elapsed;
        return Ok((outcome, choice));
    }
    let Some(then) = engine::after_first_try(choice, &first, &request.budget) else {
        let choice = Choice {
            engine: searched,
            ..choice
        };
        return Ok((first, choice));
    };
    let rest = request.budget.after(first.nodes, first.elapsed);
    let (outcome, searched) = with_solver(puzzle, then.engine, |solver| {
        search_with(solver, puzzle, request, &rest, parallelism, progress)
    })?;
    let then = Choice {
        engine: searched,
        ..then
    };
    Ok((engine::with_first_try(outcome, &first), then))
}

/// One search of `puzzle` by `solver`, as `request` asks within `budget`.
fn search_with(
    solver: &mut Solver,
    puzzle: &Puzzle,
    request: &Request,
    budget: &Budget,
    parallelism: Parallelism,
    progress: &(dyn Fn(PartsDone) + Sync),
) -> Outcome {
    solver.set_restarts(request.restarts);
    solver.set_timed(request.timed);
    match parallelism {
        Parallelism::AcrossPuzzles => solver.count(&puzzle.grid, request.limit, budget),
        Parallelism::WithinPuzzle => {
            solver.count_split_with(&puzzle.grid, request.limit, budget, progress)
        }
    }
}

/// Runs `search` with this thread's solver of `engine` (never [`Engine::Auto`]) for the
/// puzzle's board, built on first use; returns what it found and the engine that searched (a
/// CSP configuration as the board set it).
fn with_solver(
    puzzle: &Puzzle,
    engine: Engine,
    search: impl FnOnce(&mut Solver) -> Outcome,
) -> Result<(Outcome, Engine)> {
    let key = match &puzzle.board {
        Some(board) => BoardKey::Variant(board.clone()),
        None => BoardKey::Shape(puzzle.grid.shape()),
    };
    SOLVERS.with(|solvers| {
        // A split count waits for its parts on this thread, which may meanwhile run another
        // caller's puzzle (rayon steals work while it waits): that one finds the cache in use
        // and builds a solver of its own.
        let Ok(mut solvers) = solvers.try_borrow_mut() else {
            let mut solver =
                Solver::new(engine, puzzle.board()).map_err(|err| err.with_line(puzzle.line))?;
            return Ok((search(&mut solver), solver.engine()));
        };
        let solver = solvers
            .get_or_try_insert_with((engine, key), || Solver::new(engine, puzzle.board()))
            .map_err(|err| err.with_line(puzzle.line))?;
        Ok((search(solver), solver.engine()))
    })
}

/// Solves every puzzle of `reader` with `engine` as `request` asks, on the threads of the
/// current rayon pool, and hands each [`Record`] to `each`, in input order. Stops early only if
/// `each` fails (a closed pipe, say).
///
/// ```
/// use quadrille::Request;
/// use quadrille::batch::{self, Parallelism};
/// use quadrille::engine::Engine;
/// use quadrille::io::puzzle::{Layout, PuzzleReader};
///
/// let input = "# 4x4\n1...........4..2\n11..............\n................\n";
/// let reader = PuzzleReader::new(input.as_bytes(), None, Layout::Line);
/// let request = Request { limit: Some(2), ..Request::default() };
/// let mut lines = Vec::new();
/// let summary = batch::solve(reader, Engine::Dlx, &request, Parallelism::AcrossPuzzles, |record| {
///     lines.push(record.line);
///     Ok(())
/// })?;
/// assert_eq!(lines, [2, 3, 4]);
/// assert_eq!((summary.lines, summary.puzzles, summary.errors, summary.multiple), (4, 3, 1, 2));
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn solve<R, F>(
    mut reader: PuzzleReader<R>,
    engine: Engine,
    request: &Request,
    parallelism: Parallelism,
    mut each: F,
) -> Result<Summary>
where
    R: BufRead,
    F: FnMut(&Record) -> std::io::Result<()>,
{
    let start = Instant::now();
    let mut summary = Summary::default();
    // Each item with the reader's line count after it: the line of a bad puzzle whose error
    // does not carry one (a fallback; errors carry their lines).
    let items = std::iter::from_fn(|| {
        let item = reader.next()?;
        Some((item, reader.lines_read()))
    });
    let record_of = |(item, line_after): (Result<Puzzle>, usize)| match item {
        Ok(puzzle) => Record {
            line: puzzle.line,
            result: solve_one(&puzzle, engine, request, parallelism).map(|(outcome, choice)| {
                Solved {
                    puzzle,
                    outcome,
                    engine: choice.engine,
                    why: choice.why,
                }
            }),
        },
        Err(err) => Record {
            line: err.line().unwrap_or(line_after),
            result: Err(err),
        },
    };
    // Split searches already use every thread: their puzzles run one after another.
    let within = match parallelism {
        Parallelism::AcrossPuzzles => WithinChunk::Parallel,
        Parallelism::WithinPuzzle => WithinChunk::Sequential,
    };
    let chunk = match rayon::current_num_threads() {
        1 => ONE_THREAD_CHUNK,
        _ => CHUNK,
    };
    runner::run_in_order(items, chunk, within, record_of, |record| {
        summary.add(&record);
        each(&record)
    })?;
    summary.lines = reader.lines_read();
    summary.wall = start.elapsed();
    Ok(summary)
}
