//! What `explain` and `rate` share: the inputs and the ordered run over every puzzle line.

use quadrille::io::puzzle::{Puzzle, PuzzleReader};
use quadrille::logic::Scale;
use quadrille::runner::{self, WithinChunk};
use quadrille::sudoku::Shape;
use quadrille::sudoku::variant::Variant;

use super::flags::{self, BudgetArgs};
use super::progress::track_reading;
use super::puzzles::InputLayout;
use super::{Status, flag_hint, open_inputs, stdout_is_terminal};

/// The input options of `explain` and `rate`.
#[derive(clap::Args, Debug)]
pub struct InputArgs {
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
    /// The budget of each puzzle's logical solution: a puzzle it stops is `undecided`.
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Threads (0: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0, value_parser = flags::threads)]
    pub threads: usize,
    /// The rating scale: se121 (Sudoku Explainer 1.2.1's) or sukaku (Sukaku Explainer
    /// 1.15.10's default techniques, the scale most puzzle banks publish today).
    #[arg(long, value_name = "NAME", default_value = "se121")]
    pub scale: Scale,
    /// One JSON object per puzzle instead of text.
    #[arg(long)]
    pub json: bool,
    /// Nothing on standard error but errors: no progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// One puzzle's line and what the work made of it, or why the line could not be read.
pub struct Done<T> {
    /// The 1-based line.
    pub line: usize,
    /// The input's name, when there are several.
    pub file: Option<String>,
    /// The puzzle and the work's result.
    pub result: quadrille::Result<(Puzzle, T)>,
}

/// Runs `work` on every puzzle of the inputs (with the input's name when there are several)
/// on `args.threads` threads and hands each result to `sink` in input order. Returns the
/// number of bad lines.
pub fn run<T, W, S>(args: &InputArgs, work: W, mut sink: S) -> quadrille::Result<usize>
where
    T: Send,
    W: Fn(&Puzzle, Option<&str>) -> T + Sync,
    S: FnMut(Done<T>) -> std::io::Result<()> + Send,
{
    let pool = flags::pool(args.threads)?;
    let inputs = open_inputs(&args.files)?;
    let many = inputs.len() > 1;
    let mut errors = 0;
    for input in inputs {
        let name = input.name.clone();
        let (reader, bar) = track_reading(input, quadrille::request::PROGRESS_BYTES, args.quiet);
        let layout = InputLayout::of(args.input, &name);
        let mut puzzles = PuzzleReader::new(reader, args.shape, layout).with_variant(args.variant);
        let items = std::iter::from_fn(|| {
            let item = puzzles.next()?;
            Some((item, puzzles.lines_read()))
        });
        let file = many.then(|| name.clone());
        let work = &work;
        pool.install(|| {
            runner::run_in_order(
                items,
                runner::SLOW_WORK_CHUNK,
                WithinChunk::Parallel,
                |(item, line_after)| match item {
                    Ok(puzzle) => {
                        let out = work(&puzzle, file.as_deref());
                        Done {
                            line: puzzle.line,
                            file: file.clone(),
                            result: Ok((puzzle, out)),
                        }
                    }
                    Err(err) => Done {
                        line: err.line().unwrap_or(line_after),
                        file: file.clone(),
                        result: Err(err),
                    },
                },
                |done| {
                    if done.result.is_err() {
                        errors += 1;
                    }
                    sink(done)
                },
            )
        })?;
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
    }
    Ok(errors)
}

/// Writes a bad line's error in the puzzle's place (and on standard error when the output
/// goes elsewhere than the terminal, as `solve` does).
pub fn write_error(
    out: &mut impl std::io::Write,
    json: bool,
    line: usize,
    file: Option<&str>,
    err: &quadrille::Error,
) -> std::io::Result<()> {
    let hint = flag_hint(err);
    let place = file.map(|f| format!("{f}: ")).unwrap_or_default();
    if !stdout_is_terminal() {
        eprintln!("quadrille: {place}{err}{hint}");
    }
    if json {
        let mut object =
            serde_json::json!({ "line": line, "error": format!("{}{hint}", err.message()) });
        if let Some(file) = file {
            object["file"] = serde_json::json!(file);
        }
        writeln!(out, "{object}")
    } else {
        writeln!(out, "error: {place}{err}{hint}")
    }
}

/// The exit status after `errors` bad lines.
pub fn status(errors: usize) -> Status {
    if errors > 0 {
        Status::BadInput
    } else {
        Status::Success
    }
}
