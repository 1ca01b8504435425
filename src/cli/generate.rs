//! `quadrille generate`: puzzles from a seed, one per line.
//!
//! Unique puzzles are made to order by `quadrille::generate::Generator`; [`judge`] accepts a
//! finished puzzle or sends it back for the next attempt, by its rating from
//! `quadrille::logic` (`--difficulty`, `--score`), and [`write_json`] prints that rating.

use std::io::Write;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use quadrille::engine::Engine;
use quadrille::generate::{
    CheckStats, Generated, Generator, Minimality, Order, Progress, ProgressSnapshot, Symmetry,
    UniformGrids, random_contradictory, random_puzzle, rated_within_on,
};
use quadrille::logic::{self, Difficulty, Rating, Scale};
use quadrille::runner::{self, WithinChunk};
use quadrille::sudoku::{Grid, Shape};
use serde_json::json;

use super::flags;
use super::long_count::{TICK, spinner_of};
use super::{Status, stderr_is_terminal, stdout, usage};

/// Puzzles made together: enough to keep every thread busy.
const CHUNK: usize = 256;

/// Arguments of `quadrille generate`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  quadrille generate --minimal orbits -n 1000 -j 1 --stats > minimal.txt
  quadrille generate --difficulty hard -n 5 --json
  quadrille generate --box 4x4 --kind random --blanks 175 -n 200 --seed 1 > peak16.txt")]
pub struct Args {
    /// The box shape, RxC.
    #[arg(long = "box", value_name = "RxC", default_value = "3x3")]
    shape: Shape,
    /// How many puzzles.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 10)]
    count: usize,
    /// The seed of the first puzzle; puzzle i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Unique puzzles stop blanking at this many givens (0: as few as uniqueness allows);
    /// other kinds keep exactly this many (default: a third of the cells). A K the kind cannot
    /// give is refused with the range it can: 0 to n*n for unique and random puzzles, n to
    /// n*n-3 for contradictory ones (n*n-2 when a box is one row or one column).
    #[arg(long, value_name = "K")]
    givens: Option<usize>,
    /// The same as --givens n*n-K: leave K cells empty (for the hardness peaks of random
    /// puzzles, which are known by their holes, e.g. 175 of 256 on 16x16).
    #[arg(long, value_name = "K", conflicts_with = "givens")]
    blanks: Option<usize>,
    /// What to make.
    #[arg(long, value_enum, default_value_t = Kind::Unique)]
    kind: Kind,
    /// With --kind random: draw each full grid exactly uniformly among all the shape's grids,
    /// from the decision diagram of every grid, where it fits in 1 GiB (4x4 and 6x6 Sudoku,
    /// Latin squares up to order 6), rather than as a random symmetry of a pattern grid.
    #[arg(long)]
    uniform: bool,
    /// The symmetry of the givens of unique puzzles: none, rot180, rot90, diagonal or mirror
    /// (default: rot180, or none when a box is one row or one column).
    #[arg(long, value_name = "SYM")]
    symmetry: Option<Symmetry>,
    /// Minimal unique puzzles, proved: `givens` (the default of the bare flag): no single given
    /// can be removed without losing uniqueness, the attempts where one could being dropped
    /// (many, with a symmetry); `orbits`: no orbit of the symmetry's givens can be removed, as
    /// QQWing and the other generators do it, many times faster (with --symmetry none the two
    /// are the same).
    #[arg(long, value_name = "givens|orbits", num_args = 0..=1, default_missing_value = "givens")]
    minimal: Option<Minimality>,
    /// Search-tree nodes per uniqueness search of unique puzzles (default: 50 per cell, at
    /// least 20,000, up to 25x25; 5,000 on larger grids); a search that runs out keeps its
    /// givens, and a minimal puzzle cannot be proved, so that attempt is dropped.
    #[arg(long, value_name = "N", value_parser = flags::nodes)]
    node_budget: Option<u64>,
    /// Attempts per unique puzzle before giving up on it (an error line in its place).
    #[arg(long, value_name = "N", default_value_t = Order::DEFAULT_ATTEMPTS, value_parser = flags::positive)]
    attempts: u64,
    /// Wall time per unique puzzle before giving up on it; what a seed makes never depends on
    /// it, only whether it is made in time.
    #[arg(long, value_name = "SECONDS", value_parser = flags::seconds)]
    time_budget: Option<Duration>,
    /// The engine of the uniqueness searches (dlx, csp, csp:CONFIG, bitboard) [default:
    /// bitboards up to 9x9, the CSP up to 16x16, Dancing Links above].
    #[arg(long, value_name = "ENGINE")]
    engine: Option<Engine>,
    /// Unique puzzles of this level of `quadrille rate`'s score: easy (1.0-1.5), medium
    /// (1.6-2.5), hard (2.6-4.0), expert (4.1-6.4) or extreme (6.5 and up).
    #[arg(long, value_name = "LEVEL", conflicts_with = "score")]
    difficulty: Option<Difficulty>,
    /// Unique puzzles whose `quadrille rate` score lies in MIN..MAX (both included; either end
    /// may be left out: `6.5..`, `..2.0`).
    #[arg(long, value_name = "MIN..MAX", value_parser = score_range)]
    score: Option<RangeInclusive<u16>>,
    /// The rating scale of --difficulty, --score and --rate: se121 or sukaku (see `quadrille
    /// rate --help`).
    #[arg(long, value_name = "NAME", default_value = "se121")]
    scale: Scale,
    /// One JSON object per puzzle: puzzle, givens, seed, and for unique puzzles symmetry,
    /// minimal ("givens", "orbits" or null when not proved), attempt, solution, and the rating
    /// when there is one (see --rate).
    #[arg(long)]
    json: bool,
    /// Rate every unique puzzle on `quadrille rate`'s scale and give the rating in the JSON
    /// object (score, difficulty, hardest technique, steps, guesses). Puzzles made for
    /// --difficulty or --score are rated anyway; rating costs more than making on large grids.
    #[arg(long, requires = "json")]
    rate: bool,
    /// A summary on standard error: puzzles, givens, attempts, uniqueness checks, time.
    #[arg(long, conflicts_with = "quiet")]
    stats: bool,
    /// Threads (0: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0, value_parser = flags::threads)]
    threads: usize,
    /// Nothing on standard error but errors: no spinner of the puzzles made and the current
    /// one's thinning (shown only when standard error is a terminal).
    #[arg(long, short)]
    quiet: bool,
}

/// The kinds of puzzle `generate` makes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Exactly one solution; givens removed while it stays so.
    Unique,
    /// Random givens of a valid grid: one or more solutions.
    Random,
    /// Well formed but without solution.
    Contradictory,
}

/// The givens a kind of puzzle can have on `shape`, as `random_contradictory` and the other
/// generators document them; `None` when the kind cannot be made at all on this shape (that
/// error is the library's to give).
fn givens_range(kind: Kind, shape: Shape) -> Option<RangeInclusive<usize>> {
    let (n, cells) = (shape.size(), shape.cell_count());
    match kind {
        Kind::Unique | Kind::Random => Some(0..=cells),
        Kind::Contradictory if n < 2 => None,
        // X, the cell of digit d in Y's row and the one in Y's box are emptied; when a box is
        // one row or one column, the box's is one of the other two.
        Kind::Contradictory if shape.box_rows() == 1 || shape.box_cols() == 1 => {
            Some(n..=cells - 2)
        }
        Kind::Contradictory => Some(n..=cells - 3),
    }
}

/// The givens asked for by `--givens`, or by `--blanks` as their complement; a usage error,
/// in the words of the flag used, when the kind cannot give them.
fn requested_givens(args: &Args) -> Result<Option<usize>, Status> {
    let shape = args.shape;
    let (n, cells) = (shape.size(), shape.cell_count());
    let kind = format!("{:?}", args.kind).to_lowercase();
    let range = givens_range(args.kind, shape);
    match (args.givens, args.blanks) {
        (Some(givens), _) => match range {
            Some(range) if !range.contains(&givens) => Err(usage(format!(
                "invalid value '{givens}' for '--givens <K>': a {kind} {n}x{n} puzzle has from {} to {} givens",
                range.start(),
                range.end()
            ))),
            _ => Ok(Some(givens)),
        },
        (None, Some(blanks)) => {
            let range = range.unwrap_or(0..=cells);
            match cells.checked_sub(blanks) {
                Some(givens) if range.contains(&givens) => Ok(Some(givens)),
                _ => Err(usage(format!(
                    "invalid value '{blanks}' for '--blanks <K>': a {kind} {n}x{n} puzzle has from {} to {} blanks",
                    cells - range.end(),
                    cells - range.start()
                ))),
            }
        }
        (None, None) => Ok(None),
    }
}

/// Parses `--score MIN..MAX` into tenths of SE's scale; either end may be left out.
fn score_range(text: &str) -> Result<RangeInclusive<u16>, String> {
    let (min, max) = text
        .split_once("..")
        .ok_or_else(|| format!("'{text}' is not MIN..MAX, e.g. 2.6..4.0 or 6.5.."))?;
    let tenths = |end: &str, default: u16| -> Result<u16, String> {
        if end.trim().is_empty() {
            return Ok(default);
        }
        match end.trim().parse::<f64>() {
            Ok(score) if (0.0..=1000.0).contains(&score) => Ok((score * 10.0).round() as u16),
            _ => Err(format!("'{end}' is not a score from 0 to 1000")),
        }
    };
    let (min, max) = (tenths(min, 0)?, tenths(max, u16::MAX)?);
    if min > max {
        return Err(format!("the range {text} is empty: MIN is above MAX"));
    }
    Ok(min..=max)
}

/// What the judge says of an accepted puzzle, printed with it by `--json`: its rating, when
/// one was asked for (by `--difficulty`, `--score` or `--rate`).
type Verdict = Option<Rating>;

/// Accepts a finished unique puzzle (`Some`, with what to print of it) or sends it back for the
/// next attempt (`None`): a puzzle outside the asked band of scores goes back.
fn judge(args: &Args, made: &Generated) -> Option<Verdict> {
    let band = args
        .score
        .clone()
        .or_else(|| args.difficulty.map(Difficulty::tenths));
    match band {
        Some(band) => rated_within_on(args.scale, band)(made).map(Some),
        None => Some(args.rate.then(|| {
            logic::with_thread_solver(made.puzzle.shape(), args.scale, |solver| {
                solver.rate_unique_up_to(&made.puzzle, &made.solution, u16::MAX)
            })
        })),
    }
}

/// The unique-puzzle flags that make no sense for other kinds, and `--minimal` with a floor.
fn check_flags(args: &Args) -> Result<(), Status> {
    let unique_only = [
        ("--symmetry", args.symmetry.is_some()),
        ("--minimal", args.minimal.is_some()),
        ("--node-budget", args.node_budget.is_some()),
        ("--engine", args.engine.is_some()),
        ("--time-budget", args.time_budget.is_some()),
        ("--difficulty", args.difficulty.is_some()),
        ("--score", args.score.is_some()),
    ];
    let misplaced = unique_only.iter().find(|(_, set)| *set);
    let kind = format!("{:?}", args.kind).to_lowercase();
    if let (true, Some((flag, _))) = (args.kind != Kind::Unique, misplaced) {
        return Err(usage(format!(
            "{flag} is for unique puzzles, not --kind {kind}"
        )));
    }
    if args.uniform && args.kind != Kind::Random {
        return Err(usage(format!(
            "--uniform draws the grids of --kind random, not --kind {kind}"
        )));
    }
    if args.minimal.is_some() && (args.givens.is_some() || args.blanks.is_some()) {
        return Err(usage(
            "--minimal takes as few givens as uniqueness allows: leave out --givens and --blanks",
        ));
    }
    Ok(())
}

/// The memory the diagram of every grid may take for `--uniform`: 6x6 Sudoku needs about
/// 290 MB and Latin squares of order 6 about 990 MB (`/usr/bin/time -v`).
const UNIFORM_MEMORY: usize = 1 << 30;

/// One line of output: a puzzle, or why there is none.
type Made = quadrille::Result<(Grid, Option<(Generated, Verdict)>)>;

/// Generates the puzzles in parallel and prints them in seed order.
pub fn run(args: Args) -> quadrille::Result<Status> {
    let shape = args.shape;
    let cells = shape.cell_count();
    let givens = match requested_givens(&args).and_then(|g| check_flags(&args).map(|()| g)) {
        Ok(givens) => givens,
        Err(status) => return Ok(status),
    };
    let order = Order {
        symmetry: args.symmetry.unwrap_or(Symmetry::default_for(shape)),
        minimal: args.minimal.unwrap_or_default(),
        nodes: args.node_budget,
        min_givens: givens.unwrap_or(0),
        attempts: args.attempts,
        time: args.time_budget,
        engine: args.engine,
        ..Order::new(shape)
    };
    // The diagram of every grid, built once for every puzzle.
    let uniform = match args
        .uniform
        .then(|| UniformGrids::new(shape, UNIFORM_MEMORY))
    {
        Some(Ok(grids)) => Some(grids),
        Some(Err(err)) if matches!(err.kind(), quadrille::ErrorKind::DiagramTooLarge { .. }) => {
            let n = shape.size();
            eprintln!(
                "quadrille: --uniform: the diagram of every {n}x{n} grid needs more than 1 GiB; it fits for 4x4 and 6x6 Sudoku and Latin squares up to order 6"
            );
            return Ok(Status::BadInput);
        }
        Some(Err(err)) => return Err(err),
        None => None,
    };
    // One generator per thread at a time: its solvers are built once, not per puzzle.
    let generators: Mutex<Vec<Generator>> = Mutex::new(Vec::new());
    // What the puzzles given up cost, for `--stats` (a sum: the order of the threads does not
    // matter).
    let given_up_checks = Mutex::new(CheckStats::default());
    let spinner = (args.kind == Kind::Unique && !args.quiet && stderr_is_terminal()).then(|| {
        spinner_of(
            "generating",
            &format!("0/{} made, filling a grid", args.count),
        )
    });
    let progress = Arc::new(Progress::default());
    let made_so_far = AtomicU64::new(0);
    let make = |i: usize| -> Made {
        let seed = args.seed.wrapping_add(i as u64);
        match args.kind {
            Kind::Unique => {
                let spare = generators.lock().map(|mut g| g.pop()).unwrap_or(None);
                let mut generator = match spare {
                    Some(generator) => generator,
                    None => {
                        let mut generator = Generator::new(&order)?;
                        if spinner.is_some() {
                            generator.report_to(Arc::clone(&progress));
                        }
                        generator
                    }
                };
                let made = generator.generate(seed, |made| judge(&args, made));
                if made.is_err()
                    && let Ok(mut checks) = given_up_checks.lock()
                {
                    checks.add(&generator.stats());
                }
                if let Ok(mut spare) = generators.lock() {
                    spare.push(generator);
                }
                let (made, verdict) = made?;
                Ok((made.puzzle.clone(), Some((made, verdict))))
            }
            Kind::Random => {
                let givens = givens.unwrap_or(cells / 3);
                let puzzle = match &uniform {
                    Some(grids) => grids.puzzle(seed, givens),
                    None => random_puzzle(shape, seed, givens),
                };
                Ok((puzzle, None))
            }
            Kind::Contradictory => Ok((
                random_contradictory(shape, seed, givens.unwrap_or(cells / 3))?,
                None,
            )),
        }
    };
    let pool = flags::pool(args.threads)?;
    let mut out = stdout();
    let mut line = String::new();
    let mut summary = Tally::default();
    let start = Instant::now();
    // Boxes a reader would not infer from the length are named before the first puzzle, so
    // that the puzzles are read back with their own.
    let mut header = quadrille::io::puzzle::box_header(shape);
    // The spinner's message is written by a thread of its own, so that the checks only bump
    // counters (a 9x9 check takes microseconds).
    let (stop_showing, stopped) = mpsc::channel::<()>();
    let generated = std::thread::scope(|scope| {
        if let Some(spinner) = &spinner {
            let (progress, made, count) = (&progress, &made_so_far, args.count);
            scope.spawn(move || {
                while stopped.recv_timeout(TICK) == Err(mpsc::RecvTimeoutError::Timeout) {
                    let made = made.load(Ordering::Relaxed);
                    spinner.set_message(describe(progress.snapshot(), made, count, cells));
                }
            });
        }
        // In chunks, so that output starts early and memory stays flat.
        let generated = pool.install(|| {
            runner::run_in_order(0..args.count, CHUNK, WithinChunk::Parallel, make, |made| {
                let seed = args.seed.wrapping_add(summary.puzzles + summary.failed);
                line.clear();
                match made {
                    Ok((puzzle, extra)) => {
                        summary.add(&puzzle, extra.as_ref().map(|(g, _)| g));
                        if args.json {
                            line = write_json(&puzzle, seed, extra.as_ref()).to_string();
                        } else {
                            if let Some(header) = header.take() {
                                line.push_str(&header);
                                line.push('\n');
                            }
                            puzzle.write_line(&mut line);
                        }
                    }
                    Err(err) if matches!(err.kind(), quadrille::ErrorKind::GaveUp { .. }) => {
                        summary.failed += 1;
                        if let quadrille::ErrorKind::GaveUp { attempts, .. } = err.kind() {
                            summary.given_up_attempts += attempts;
                        }
                        if args.json {
                            line = json!({"seed": seed, "error": err.to_string()}).to_string();
                        } else {
                            line = format!("error: {err}");
                        }
                        if !super::stdout_is_terminal() {
                            let say = || eprintln!("quadrille: {err}");
                            spinner.as_ref().map_or_else(say, |s| s.suspend(say));
                        }
                    }
                    Err(err) => return Err(err),
                }
                made_so_far.store(summary.puzzles + summary.failed, Ordering::Relaxed);
                writeln!(out, "{line}")?;
                Ok::<(), quadrille::Error>(())
            })
        });
        drop(stop_showing);
        generated
    });
    if let Some(spinner) = spinner {
        spinner.finish_and_clear();
    }
    generated?;
    out.flush()?;
    if let Ok(checks) = given_up_checks.lock() {
        summary.given_up_checks = *checks;
    }
    if args.stats {
        summary.print(start.elapsed(), args.kind == Kind::Unique);
    }
    Ok(if summary.failed > 0 {
        Status::BadInput
    } else {
        Status::Success
    })
}

/// What the spinner knows, in a line of an 80-column terminal: the puzzles made of `count`,
/// the cells whose removal the latest check's attempt has tried (of `cells`) and the givens
/// it has left, and the checks that ran out of budget (their givens stay).
fn describe(seen: ProgressSnapshot, made: u64, count: usize, cells: usize) -> String {
    if seen.attempts == 0 {
        return format!("{made}/{count} made, filling a grid");
    }
    format!(
        "{made}/{count} made, {}/{cells} tried, {} givens left, {} undecided",
        seen.tried, seen.givens, seen.undecided
    )
}

/// The `--json` object of one puzzle; `extra` is what a unique puzzle's generation knows.
fn write_json(puzzle: &Grid, seed: u64, extra: Option<&(Generated, Verdict)>) -> serde_json::Value {
    let mut object = json!({
        "puzzle": puzzle.to_string(),
        "givens": puzzle.givens(),
        "seed": seed,
    });
    if let Some((made, verdict)) = extra {
        object["symmetry"] = json!(made.symmetry.name());
        object["minimal"] = match made.minimal {
            Minimality::Any => serde_json::Value::Null,
            proved => json!(proved.name()),
        };
        object["attempt"] = json!(made.attempt);
        object["solution"] = json!(made.solution.to_string());
        if let Some(rating) = verdict {
            object["rating"] = json!({
                "score": rating.score(),
                "difficulty": Difficulty::of(rating.tenths).name(),
                "hardest": rating.hardest.name(),
                "steps": rating.steps,
                "guesses": rating.guesses,
            });
        }
    }
    object
}

/// What `--stats` reports.
#[derive(Default)]
struct Tally {
    puzzles: u64,
    failed: u64,
    givens: u64,
    min_givens: Option<usize>,
    max_givens: usize,
    attempts: u64,
    minimal_orbits: u64,
    minimal_givens: u64,
    checks: CheckStats,
    /// The attempts and checks of the puzzles given up.
    given_up_attempts: u64,
    given_up_checks: CheckStats,
}

impl Tally {
    fn add(&mut self, puzzle: &Grid, made: Option<&Generated>) {
        let givens = puzzle.givens();
        self.puzzles += 1;
        self.givens += givens as u64;
        self.min_givens = Some(self.min_givens.map_or(givens, |m| m.min(givens)));
        self.max_givens = self.max_givens.max(givens);
        if let Some(made) = made {
            self.attempts += made.attempt;
            self.minimal_orbits += u64::from(made.minimal >= Minimality::Orbits);
            self.minimal_givens += u64::from(made.minimal == Minimality::Givens);
            self.checks.add(&made.stats);
        }
    }

    fn print(&self, elapsed: Duration, unique: bool) {
        let n = self.puzzles.max(1) as f64;
        let seconds = elapsed.as_secs_f64();
        eprintln!(
            "puzzles: {} made, {} given up; givens: mean {:.1}, min {}, max {}",
            self.puzzles,
            self.failed,
            self.givens as f64 / n,
            self.min_givens.unwrap_or(0),
            self.max_givens
        );
        if unique {
            let c = &self.checks;
            eprintln!(
                "attempts: {:.2} per puzzle; proved minimal per orbit: {}, per given: {}; uniqueness checks: {:.1} per puzzle, {:.1}% by singles, {:.1} searches and {:.0} nodes per puzzle, {} passed on to learning DLX, {} given a larger budget, {} undecided",
                self.attempts as f64 / n,
                self.minimal_orbits,
                self.minimal_givens,
                c.checks as f64 / n,
                100.0 * c.by_singles as f64 / c.checks.max(1) as f64,
                c.searches as f64 / n,
                c.nodes as f64 / n,
                c.fallbacks,
                c.escalations,
                c.undecided
            );
            if self.failed > 0 {
                let g = &self.given_up_checks;
                eprintln!(
                    "given up: {} attempts, {} uniqueness checks, {} searches and {} nodes, {} passed on to learning DLX, {} given a larger budget, {} undecided",
                    self.given_up_attempts,
                    g.checks,
                    g.searches,
                    g.nodes,
                    g.fallbacks,
                    g.escalations,
                    g.undecided
                );
            }
        }
        eprintln!(
            "time: {seconds:.3} s, {:.1} puzzles/s, {:.3} ms per puzzle",
            self.puzzles as f64 / seconds,
            1000.0 * seconds / n
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spinner_says_what_the_counters_hold() {
        let mut seen = ProgressSnapshot::default();
        assert_eq!(describe(seen, 0, 3, 1296), "0/3 made, filling a grid");
        seen.attempts = 2;
        seen.tried = 800;
        seen.givens = 690;
        seen.undecided = 396;
        assert_eq!(
            describe(seen, 1, 3, 1296),
            "1/3 made, 800/1296 tried, 690 givens left, 396 undecided"
        );
    }
}
