//! `quadrille compare`: every engine on the same puzzles, one table row per engine.

use std::io::Write;
use std::path::PathBuf;

use quadrille::compare::{self, Comparison};
use quadrille::engine::Engine;
use quadrille::io::puzzle::PuzzleReader;
use quadrille::request::CompareRequest;
use quadrille::sudoku::Shape;
use quadrille::sudoku::variant::Variant;

use super::flags;
use super::progress::track_reading;
use super::puzzles::InputLayout;
use super::{Status, flag_hint, open_input, stdout};

/// Arguments of `quadrille compare`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  quadrille compare fixtures/sudoku/9x9_sample.txt
  quadrille compare fixtures/sudoku/9x9_sample.txt --engines dlx,csp --plot sample.svg --json sample.json
  quadrille compare fixtures/sudoku/16x16.txt --engines dlx,csp --no-node-budget --time-budget 10")]
pub struct Args {
    /// The puzzle file (`-` for standard input).
    file: String,
    /// Engines, comma-separated: dlx, csp, csp:CONFIG, bitboard (default: bitboard where the
    /// first puzzle's board allows it, dlx and the CSP presets, weak to strong).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    engines: Vec<Engine>,
    /// Count solutions up to N (2 tells unique from multiple).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = flags::positive)]
    limit: u64,
    /// Write every per-puzzle measurement to this JSON file.
    #[arg(long, value_name = "PATH")]
    json: Option<PathBuf>,
    /// Write a chart of the distributions to this SVG file (the name must end in .svg).
    #[arg(long, value_name = "PATH.svg", value_parser = flags::svg_path)]
    plot: Option<PathBuf>,
    /// The box shape, RxC (e.g. 3x3, 2x3); inferred from each puzzle's size when absent.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<Shape>,
    /// Input layout: one puzzle per line, or multi-line grids [default: grid for .sdk and
    /// .ss files, else line].
    #[arg(long, value_enum)]
    input: Option<InputLayout>,
    /// The variant: classic, x, windoku, jigsaw or killer [default: from `# variant: NAME`
    /// lines in the file, else classic].
    #[arg(long, value_name = "NAME")]
    variant: Option<Variant>,
    /// Give up on a puzzle (per engine) after N search-tree nodes, N >= 1 [default: 100000
    /// per 81 cells of the first puzzle, and 5 s, so that weak engines cannot hang; a budget
    /// flag replaces both; --no-node-budget lifts the nodes].
    #[arg(long, value_name = "N", value_parser = flags::nodes)]
    node_budget: Option<u64>,
    /// No node budget: every search runs to its end (or to --time-budget).
    #[arg(long, conflicts_with = "node_budget")]
    no_node_budget: bool,
    /// Give up on a puzzle (per engine) after this many seconds [default: 5 with the default
    /// node budget, else none].
    #[arg(long, value_name = "SECONDS", value_parser = flags::seconds)]
    time_budget: Option<std::time::Duration>,
    /// Threads (0: one per core). The default is 1, unlike the other subcommands: times are
    /// per puzzle either way, but threads that share cores and caches inflate them, and the
    /// engines would then be compared by their neighbours' load.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1, value_parser = flags::threads)]
    threads: usize,
    /// Nothing on standard error but errors: no progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Restarts.
    #[command(flatten)]
    restarts: flags::RestartArgs,
}

/// Runs the comparison, prints the table, and writes the JSON and the chart if asked.
pub fn run(args: Args) -> quadrille::Result<Status> {
    let input = open_input(Some(&args.file))?;
    let layout = InputLayout::of(args.input, &input.name);
    let name = input.name.clone();
    // The outputs are created before the engines run, so that a path that cannot be written
    // fails in a moment, not after a long comparison.
    let json = match &args.json {
        Some(path) => Some((path, create(path)?)),
        None => None,
    };
    if let Some(path) = &args.plot {
        check_plot_feature(path)?;
        create(path)?;
    }
    let (reader, bar) = track_reading(input, CompareRequest::PROGRESS_BYTES, args.quiet);
    let puzzles = PuzzleReader::new(reader, args.shape, layout).with_variant(args.variant);
    let asked = CompareRequest {
        engines: (!args.engines.is_empty()).then(|| args.engines.clone()),
        limit: args.limit,
        nodes: args.node_budget,
        no_node_budget: args.no_node_budget,
        time: args.time_budget,
        interrupt: None,
        restarts: args.restarts.restarts(),
        threads: args.threads,
    };
    let (_, request, comparison) = asked.run(puzzles)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }

    for error in comparison.skipped() {
        eprintln!("quadrille: {name}: {error}{} (skipped)", flag_hint(error));
    }
    let puzzles = comparison.puzzles().len();
    if puzzles == 0 {
        // The outputs made above would only hold an empty comparison.
        for path in args.json.iter().chain(&args.plot) {
            let _ = std::fs::remove_file(path);
        }
        eprintln!("quadrille: nothing to compare: no puzzles in {name}");
        return Ok(Status::BadInput);
    }
    let budget = match (request.budget.nodes, request.budget.time) {
        (Some(n), Some(t)) => format!("{n} nodes or {:.3} s", t.as_secs_f64()),
        (Some(n), None) => format!("{n} nodes"),
        (None, Some(t)) => format!("{:.3} s", t.as_secs_f64()),
        (None, None) => "none".to_string(),
    };
    let threads = match args.threads {
        1 => "1 thread".to_string(),
        0 => "all cores (times may be inflated by contention)".to_string(),
        n => format!("{n} threads (times may be inflated by contention)"),
    };
    let restarts = match request.restarts {
        Some(r) => format!("restarts (seed {})", r.seed),
        None => "no restarts".to_string(),
    };
    let mut out = stdout();
    writeln!(
        out,
        "{name}: {puzzles} puzzles, {} bad lines skipped; count up to {}; budget per puzzle and engine: {budget}; {restarts}; {threads}; wall {:.2} s",
        comparison.skipped().len(),
        args.limit,
        comparison.wall().as_secs_f64(),
    )?;
    writeln!(
        out,
        "time (t) and nodes per puzzle, backtracks per puzzle:\n"
    )?;
    write!(out, "{}", comparison.table())?;
    out.flush()?;
    let gave_up: usize = comparison.summaries().iter().map(|s| s.gave_up).sum();
    if gave_up > 0 {
        eprintln!(
            "quadrille: {gave_up} searches gave up at the budget ({budget} per puzzle and engine); --node-budget N and --time-budget SECONDS set another, --no-node-budget lifts the nodes"
        );
    }

    if let Some((path, file)) = json {
        let mut writer = std::io::BufWriter::new(file);
        comparison
            .write_json(&mut writer)
            .and_then(|()| writer.flush())
            .map_err(|e| io_error(path, e))?;
    }
    if let Some(path) = &args.plot {
        let title = format!(
            "{name}: {puzzles} puzzles, count up to {}, budget {budget}",
            args.limit
        );
        write_plot(&comparison, path, &title)?;
    }

    let disagreements = comparison.disagreements();
    if !disagreements.is_empty() {
        eprintln!(
            "quadrille: ENGINES DISAGREE on {} of {puzzles} puzzles:",
            disagreements.len()
        );
        let (shown, more) = comparison.shown_disagreements();
        for d in shown {
            eprintln!("  {name}: {d}");
        }
        if more > 0 {
            eprintln!("  ... and {more} more (all are in --json)");
        }
        return Ok(Status::BadInput);
    }
    Ok(if comparison.skipped().is_empty() {
        Status::Success
    } else {
        Status::BadInput
    })
}

/// Creates (or empties) an output file; the error names the path.
fn create(path: &std::path::Path) -> quadrille::Result<std::fs::File> {
    std::fs::File::create(path).map_err(|e| io_error(path, e))
}

fn io_error(path: &std::path::Path, e: std::io::Error) -> quadrille::Error {
    quadrille::Error::new(quadrille::ErrorKind::Io(std::io::Error::new(
        e.kind(),
        format!("{}: {e}", path.display()),
    )))
}

#[cfg(feature = "plot")]
fn check_plot_feature(_: &std::path::Path) -> quadrille::Result<()> {
    Ok(())
}

/// Without the `plot` feature, `--plot` is an error rather than a flag that does nothing, and
/// it is found before the engines run.
#[cfg(not(feature = "plot"))]
fn check_plot_feature(path: &std::path::Path) -> quadrille::Result<()> {
    write_plot_unavailable(path)
}

#[cfg(feature = "plot")]
fn write_plot(
    comparison: &Comparison,
    path: &std::path::Path,
    title: &str,
) -> quadrille::Result<()> {
    compare::plot::write_svg(comparison, path, title)
}

#[cfg(not(feature = "plot"))]
fn write_plot(_: &Comparison, path: &std::path::Path, _: &str) -> quadrille::Result<()> {
    write_plot_unavailable(path)
}

#[cfg(not(feature = "plot"))]
fn write_plot_unavailable(path: &std::path::Path) -> quadrille::Result<()> {
    Err(std::io::Error::other(format!(
        "{}: this quadrille was built without the `plot` feature",
        path.display()
    ))
    .into())
}
