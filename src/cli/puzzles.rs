//! What `solve` and `count` share: reading puzzle files, running the batch, writing results.

use quadrille::batch::{self, Parallelism, Record, Solved, Summary};
use quadrille::engine::Engine;
use quadrille::io::puzzle::{Layout, PuzzleReader};
use quadrille::request::SolveRecord;
use quadrille::sudoku::Shape;
use quadrille::sudoku::variant::Variant;
use quadrille::{Request, SolutionCount};
use serde_json::json;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use super::flags::{self, BudgetArgs, RestartArgs};
use super::progress::track_reading;
use super::{Status, flag_hint, open_inputs, stdout, stdout_is_terminal};

/// The options `solve` and `count` share.
#[derive(clap::Args, Debug)]
pub struct PuzzleArgs {
    /// Puzzle files (standard input when none, or `-`).
    pub files: Vec<String>,
    /// The box shape, RxC (e.g. 3x3, 2x3); inferred from each puzzle's size when absent.
    #[arg(long = "box", value_name = "RxC")]
    pub shape: Option<Shape>,
    /// Input layout: one puzzle per line, or multi-line grids [default: grid for .sdk and
    /// .ss files, else line].
    #[arg(long, value_enum)]
    pub input: Option<InputLayout>,
    /// The variant: classic, x, windoku, jigsaw or killer [default: from `# variant: NAME`
    /// lines in the file, else classic].
    #[arg(long, value_name = "NAME")]
    pub variant: Option<Variant>,
    /// The engine: auto (the fastest for the puzzle: bitboard up to 128 cells, csp on killer
    /// boards and nearly empty grids above 16x16, dlx elsewhere; --stats and --json say which answered), dlx, csp, csp:CONFIG
    /// (e.g. csp:mrv+lcv+hidden-singles), or bitboard (boards of at most 128 cells, without
    /// killer cages).
    #[arg(long, default_value = "auto")]
    pub engine: Engine,
    /// Threads (0: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0, value_parser = flags::threads)]
    pub threads: usize,
    /// One JSON object per puzzle instead of text lines.
    #[arg(long)]
    pub json: bool,
    /// A summary on standard error: counts, time per puzzle, nodes per puzzle.
    #[arg(long)]
    pub stats: bool,
    /// Nothing on standard error but errors: no progress bar (and no --stats).
    #[arg(long, short, conflicts_with = "stats")]
    pub quiet: bool,
    /// The budget of each puzzle.
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Restarts.
    #[command(flatten)]
    pub restarts: RestartArgs,
}

/// The two layouts, as command-line values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputLayout {
    /// One puzzle per line.
    Line,
    /// Multi-line grids.
    Grid,
}

impl InputLayout {
    /// The layout to read the input `name` with: the one asked for, else grids for the
    /// extensions that hold them (.sdk, .ss), else one puzzle per line.
    pub fn of(asked: Option<InputLayout>, name: &str) -> Layout {
        let grids = || {
            let extension = std::path::Path::new(name).extension();
            extension.is_some_and(|e| e.eq_ignore_ascii_case("sdk") || e.eq_ignore_ascii_case("ss"))
        };
        match asked {
            Some(InputLayout::Line) => Layout::Line,
            Some(InputLayout::Grid) => Layout::Grid,
            None if grids() => Layout::Grid,
            None => Layout::Line,
        }
    }
}

/// How results are written: `solve` prints solutions, `count` prints counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One solution per line.
    Solve,
    /// One count per line.
    Count,
}

/// Runs a batch over every input and writes one result per puzzle line.
pub fn run(args: &PuzzleArgs, mode: Mode, limit: Option<u64>) -> quadrille::Result<Status> {
    run_inputs(args, mode, limit, open_inputs(&args.files)?)
}

/// [`run`] on inputs already opened.
pub fn run_inputs(
    args: &PuzzleArgs,
    mode: Mode,
    limit: Option<u64>,
    inputs: Vec<super::Input>,
) -> quadrille::Result<Status> {
    let request = Request {
        limit,
        budget: args.budget.budget(),
        restarts: args.restarts.restarts(),
        // The time in the solvers is reported by --stats only.
        timed: args.stats,
    };
    // Counts can be long: each is split across the threads. Solving is quick per puzzle.
    let parallelism = match mode {
        Mode::Count => Parallelism::WithinPuzzle,
        Mode::Solve => Parallelism::AcrossPuzzles,
    };
    let pool = flags::pool(args.threads)?;
    let many = inputs.len() > 1;
    let mut out = stdout();
    let mut total = Summary::default();
    for input in inputs {
        let name = input.name.clone();
        let (reader, bar) = track_reading(input, quadrille::request::PROGRESS_BYTES, args.quiet);
        let puzzles = reader_of(args, &name, reader);
        let writer = ResultWriter {
            mode,
            json: args.json,
            limit,
            file: many.then_some(name.as_str()),
            stdout_is_terminal: stdout_is_terminal(),
            noted_boxes: AtomicBool::new(false),
        };
        let summary = pool.install(|| {
            batch::solve(puzzles, args.engine, &request, parallelism, |record| {
                writer.write(&mut out, record)
            })
        })?;
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        total.merge(&summary);
    }
    out.flush()?;
    if args.stats {
        print_summary(&total, args.engine, &request);
    }
    Ok(if total.errors > 0 {
        Status::BadInput
    } else {
        Status::Success
    })
}

/// The puzzles of one input as the flags say to read them: shape, layout and variant. Every
/// path of `solve` and `count` reads through it, so that none drops a flag.
pub fn reader_of<R: BufRead>(args: &PuzzleArgs, name: &str, input: R) -> PuzzleReader<R> {
    let layout = InputLayout::of(args.input, name);
    PuzzleReader::new(input, args.shape, layout).with_variant(args.variant)
}

/// Writes each record as a text line or a JSON object.
struct ResultWriter<'a> {
    mode: Mode,
    json: bool,
    limit: Option<u64>,
    /// The input's name, when there are several inputs.
    file: Option<&'a str>,
    /// Whether standard output is a terminal (then errors are not repeated on standard error).
    stdout_is_terminal: bool,
    /// Whether the note on boxes inferred for a puzzle without a solution has been written:
    /// once per input is enough to point at `--box`.
    noted_boxes: AtomicBool,
}

impl ResultWriter<'_> {
    fn write(&self, out: &mut impl Write, record: &Record) -> std::io::Result<()> {
        let place = self.file.map(|f| format!("{f}: ")).unwrap_or_default();
        let record_solved = match &record.result {
            Ok(solved) => solved,
            Err(err) => {
                let hint = flag_hint(err);
                // The error takes the puzzle's place in the output, so that output lines match
                // input lines; standard error repeats it only when the output goes elsewhere
                // than the terminal (a file, a pipe), so that it is seen once either way.
                if !self.stdout_is_terminal {
                    eprintln!("quadrille: {place}{err}{hint}");
                }
                return if self.json {
                    let error = format!("{}{hint}", err.message());
                    let mut object = json!({ "line": record.line, "error": error });
                    if let Some(file) = self.file {
                        object["file"] = json!(file);
                    }
                    writeln!(out, "{object}")
                } else {
                    writeln!(out, "error: {place}{err}{hint}")
                };
            }
        };
        let Solved {
            puzzle, outcome, ..
        } = record_solved;
        if outcome.solutions == 0
            && outcome.is_complete()
            && !self.noted_boxes.load(Ordering::Relaxed)
            && let Some(other) = puzzle.other_boxes()
        {
            self.noted_boxes.store(true, Ordering::Relaxed);
            let inferred = puzzle.grid.shape();
            let (rows, cols) = (inferred.box_rows(), inferred.box_cols());
            let (other_rows, other_cols) = (other.box_rows(), other.box_cols());
            eprintln!(
                "quadrille: {place}line {}: no solution with the {rows}x{cols} boxes inferred from its length; --box {other_rows}x{other_cols} reads it with {other_rows}x{other_cols} boxes",
                record.line
            );
        }
        let solution = outcome.solution.as_ref();
        if self.json {
            let mut object = serde_json::to_value(SolveRecord::of(record_solved))
                .map_err(std::io::Error::from)?;
            if let Some(file) = self.file {
                object["file"] = json!(file);
            }
            return writeln!(out, "{object}");
        }
        // Built only where it is written: a count of puzzles is a BigUint, which allocates.
        let count = || SolutionCount::new(outcome.solutions, outcome.stop);
        match (self.mode, solution) {
            (Mode::Count, _) => writeln!(out, "{}", count()),
            (Mode::Solve, Some(solution)) => {
                // One line built and written whole: a batch writes one per puzzle, and going
                // through the formatter for the grid cost more than the 17-clue puzzle's
                // search does (callgrind, `solve --limit 2 -j1` on the first 1,000 of
                // puzzles2_17_clue).
                let mut line = String::with_capacity(solution.cells().len() + 24);
                solution.write_line(&mut line);
                if self.limit != Some(1) {
                    line.push(' ');
                    // A batch's counts are mostly one digit ("2+" when counting to 2 stopped
                    // at the limit), pushed without the formatter and its BigUint.
                    match outcome.solutions {
                        n @ 0..=9 => {
                            line.push(char::from(b'0' + n as u8));
                            if !outcome.is_complete() {
                                line.push('+');
                            }
                        }
                        _ => std::fmt::Write::write_fmt(&mut line, format_args!("{}", count()))
                            .expect("a String takes any text"),
                    }
                }
                line.push('\n');
                out.write_all(line.as_bytes())
            }
            (Mode::Solve, None) if outcome.stop.is_budget() => writeln!(out, "undecided"),
            (Mode::Solve, None) => writeln!(out, "unsolvable"),
        }
    }
}

fn print_summary(s: &Summary, engine: Engine, request: &Request) {
    let solved_ok = s.puzzles - s.errors;
    let per = |x: f64| {
        if solved_ok > 0 {
            x / solved_ok as f64
        } else {
            0.0
        }
    };
    let unique = if request.limit.is_none_or(|l| l >= 2) {
        format!("unique {}, multiple {}", s.unique, s.multiple)
    } else {
        "uniqueness not checked (use --limit 2)".to_string()
    };
    // Auto names the engines it chose; an engine named by --engine answered every puzzle.
    let engine = match engine {
        Engine::Auto if s.puzzles > s.errors => format!("auto ({})", s.answered.describe()),
        engine => engine.to_string(),
    };
    eprintln!(
        "engine {engine}: {} puzzles in {} lines: solved {}, {unique}, unsolvable {}, undecided {}, errors {}",
        s.puzzles, s.lines, s.solved, s.unsolvable, s.undecided, s.errors
    );
    eprintln!(
        "wall {:.3} s, {:.1} µs/puzzle (wall), {:.1} µs/puzzle (in the solver, per thread), {:.1} nodes/puzzle, {:.1}% without backtracking",
        s.wall.as_secs_f64(),
        per(s.wall.as_secs_f64() * 1e6),
        per(s.solving.as_secs_f64() * 1e6),
        per(s.nodes as f64),
        per(s.no_backtracking as f64 * 100.0),
    );
}
