//! `quadrille generate`: puzzles from a seed, one per line.
//!
//! The library's [`GenerateRequest`] checks the flags and makes the puzzles; this module reads
//! the flags into it, shows a spinner of the thinning on a terminal, prints each puzzle (or
//! its `--json` record) and the `--stats` summary.

use std::io::Write;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use quadrille::Budget;
use quadrille::engine::Engine;
use quadrille::generate::{CheckStats, Generated, Minimality, Order, Progress, Symmetry};
use quadrille::logic::{Difficulty, Scale};
use quadrille::request::{self, GenerateRequest, score_band};
use quadrille::sudoku::{Grid, Shape};
use serde_json::json;

use super::flags;
use super::long_count::{TICK, spinner_of};
use super::{Status, stderr_is_terminal, stdout};

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
    /// from the decision diagram of every grid, where it fits in --memory (4x4 and 6x6 Sudoku
    /// in the default 1 GiB), rather than as a random symmetry of a pattern grid.
    #[arg(long)]
    uniform: bool,
    /// With --uniform: the most memory for building the diagram and drawing from it, as bytes
    /// or with K, M or G (1024-based); a diagram that outgrows it is refused when it does.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = super::flags::memory_size, requires = "uniform")]
    memory: usize,
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
    /// One JSON object per puzzle: puzzle, box (RxC, which a 4x2 puzzle needs to be read back),
    /// variant, givens, seed, and for unique puzzles symmetry,
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

/// The kinds of puzzle `generate` makes (clap's names of [`request::Kind`]).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Exactly one solution; givens removed while it stays so.
    Unique,
    /// Random givens of a valid grid: one or more solutions.
    Random,
    /// Well formed but without solution.
    Contradictory,
}

/// Parses `--score MIN..MAX` into tenths of the scale ([`score_band`]); either end may be
/// left out.
fn score_range(text: &str) -> Result<RangeInclusive<u16>, String> {
    let (min, max) = text
        .split_once("..")
        .ok_or_else(|| format!("'{text}' is not MIN..MAX, e.g. 2.6..4.0 or 6.5.."))?;
    let end = |end: &str| -> Result<Option<f64>, String> {
        match end.trim() {
            "" => Ok(None),
            number => number
                .parse()
                .map(Some)
                .map_err(|_| format!("'{end}' is not a score from 0 to 1000")),
        }
    };
    score_band(end(min)?, end(max)?).map_err(|invalid| invalid.message)
}

/// Generates the puzzles in parallel ([`GenerateRequest`]) and prints them in seed order.
pub fn run(args: Args) -> quadrille::Result<Status> {
    let shape = args.shape;
    let cells = shape.cell_count();
    let request = GenerateRequest {
        shape,
        count: args.count,
        seed: args.seed,
        kind: args.kind.into(),
        givens: args.givens,
        blanks: args.blanks,
        uniform: args.uniform,
        memory: args.memory,
        symmetry: args.symmetry,
        minimal: args.minimal,
        budget: Budget {
            nodes: args.node_budget,
            time: args.time_budget,
            interrupt: None,
        },
        attempts: args.attempts,
        engine: args.engine,
        difficulty: args.difficulty,
        score: args.score.clone(),
        scale: args.scale,
        rate: args.rate,
        threads: args.threads,
    };
    request.check()?;
    let spinner = (args.kind == Kind::Unique && !args.quiet && stderr_is_terminal()).then(|| {
        spinner_of(
            "generating",
            &format!("0/{} made, filling a grid", args.count),
        )
    });
    let progress = Arc::new(Progress::default());
    let made_so_far = AtomicU64::new(0);
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
                    spinner.set_message(progress.snapshot().describe(made, count, cells));
                }
            });
        }
        let reporting = spinner.is_some().then(|| Arc::clone(&progress));
        let generated = request.run(reporting, &mut |made| {
            let seed = args.seed.wrapping_add(summary.puzzles + summary.failed);
            line.clear();
            match made {
                Ok(record) => {
                    summary.add(&record.grid, record.made.as_ref());
                    if args.json {
                        line = serde_json::to_value(&record)
                            .map_err(std::io::Error::from)?
                            .to_string();
                    } else {
                        if let Some(header) = header.take() {
                            line.push_str(&header);
                            line.push('\n');
                        }
                        record.grid.write_line(&mut line);
                    }
                }
                Err(err) => {
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
            }
            made_so_far.store(summary.puzzles + summary.failed, Ordering::Relaxed);
            writeln!(out, "{line}")?;
            Ok(())
        });
        drop(stop_showing);
        generated
    });
    if let Some(spinner) = spinner {
        spinner.finish_and_clear();
    }
    let given_up = match generated {
        Ok(given_up) => given_up,
        Err(err) if matches!(err.kind(), quadrille::ErrorKind::DiagramTooLarge { .. }) => {
            let n = shape.size();
            eprintln!(
                "quadrille: --uniform: the diagram of every {n}x{n} grid needs more than the {} bytes of --memory; 4x4 and 6x6 Sudoku fit in the default 1G",
                args.memory
            );
            return Ok(Status::BadInput);
        }
        Err(err) => return Err(err),
    };
    out.flush()?;
    summary.given_up_checks = given_up.checks;
    if args.stats {
        summary.print(start.elapsed(), args.kind == Kind::Unique);
    }
    Ok(if summary.failed > 0 {
        Status::BadInput
    } else {
        Status::Success
    })
}

impl From<Kind> for request::Kind {
    fn from(kind: Kind) -> request::Kind {
        match kind {
            Kind::Unique => request::Kind::Unique,
            Kind::Random => request::Kind::Random,
            Kind::Contradictory => request::Kind::Contradictory,
        }
    }
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
