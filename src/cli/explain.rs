//! `quadrille explain`: a puzzle's solution step by step, as text, JSON or SVG pictures.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use quadrille::io::puzzle::Puzzle;
use quadrille::logic::{
    Candidates, Ending, Step, cell_name, digit_name, step_svg, write_candidates,
};
use quadrille::request::{ExplainRecord, ExplainRequest, StepRecord};
use serde_json::json;

use super::logical::{self, InputArgs};
use super::{Status, stdout};

/// Arguments of `quadrille explain`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  quadrille explain fixtures/sudoku/9x9_sample.txt
  quadrille explain --json --no-guesses puzzles.txt
  quadrille explain --svg steps/ --box 2x3 fixtures/sudoku/6x6.txt
  quadrille explain --time-budget 5 fixtures/variants/x.txt")]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Print the candidate grid before each step.
    #[arg(long, short)]
    verbose: bool,
    /// Stop where no technique applies (show the candidates) instead of guessing a digit of
    /// the solution.
    #[arg(long)]
    no_guesses: bool,
    /// Draw every step as an SVG file in this directory (created if missing):
    /// `line<N>-step<KKK>.svg`, K zero-padded so that the files sort in step order
    /// (`<file stem>-line<N>-step<KKK>.svg` with several inputs).
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
}

/// Explains every puzzle of the inputs.
pub fn run(args: Args) -> quadrille::Result<Status> {
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
    }
    let mut out = stdout();
    let mut failure: Option<std::io::Error> = None;
    let errors = logical::run(
        &args.input,
        |puzzle, file| explain_one(puzzle, file, &args),
        |done| match done.result {
            Ok((_, Ok(text))) => out.write_all(text.as_bytes()),
            Ok((_, Err(err))) => {
                failure.get_or_insert(err);
                Ok(())
            }
            Err(err) => logical::write_error(
                &mut out,
                args.input.json,
                done.line,
                done.file.as_deref(),
                &err,
            ),
        },
    )?;
    out.flush()?;
    if let Some(err) = failure {
        return Err(err.into());
    }
    Ok(logical::status(errors))
}

/// The text or JSON of one puzzle; writes its SVG files.
fn explain_one(puzzle: &Puzzle, file: Option<&str>, args: &Args) -> std::io::Result<String> {
    let n = puzzle.grid.size();
    let mut text = String::new();
    let mut steps_json = Vec::new();
    let mut svg_error = None;
    let mut count = 0usize;
    if !args.input.json {
        let place = file.map(|f| format!("{f}: ")).unwrap_or_default();
        let _ = writeln!(text, "{place}line {}: {}", puzzle.line, puzzle.grid);
    }
    let request = ExplainRequest {
        guesses: !args.no_guesses,
        scale: args.input.scale,
        budget: args.input.budget.budget(),
    };
    let explained = request.run(puzzle, &mut |state, step| {
        count += 1;
        if args.input.json {
            steps_json.push(StepRecord::of(step));
        } else {
            if args.verbose {
                write_candidates(state, &mut text);
            }
            let _ = writeln!(text, "  {count}. {}", step_line(step, n));
        }
        if let Some(dir) = &args.svg
            && svg_error.is_none()
        {
            svg_error = write_svg(dir, file, puzzle.line, count, state, step).err();
        }
        true
    });
    let explained = explained.map_err(|err| std::io::Error::other(err.to_string()))?;
    if let Some(err) = svg_error {
        return Err(err);
    }
    if args.input.json {
        let record = ExplainRecord::new(puzzle, &explained, steps_json);
        let mut object = serde_json::to_value(record).map_err(std::io::Error::from)?;
        if let Some(file) = file {
            object["file"] = json!(file);
        }
        let _ = writeln!(text, "{object}");
    } else {
        let ending = explained.ending;
        let (name, explained_score) = (&explained.hardest, explained.hardest_score);
        match &explained.stuck {
            Some(state) => {
                let _ = writeln!(
                    text,
                    "  stuck after {count} steps: no technique applies; the candidates:"
                );
                write_candidates(state, &mut text);
            }
            // Told before any step: there is no one solution to explain.
            None if ending == Ending::Several => {
                let _ = writeln!(text, "  not explained: the puzzle has several solutions");
            }
            None if let Ending::Undecided(stop) = ending => {
                let _ = writeln!(
                    text,
                    "  undecided after {count} steps: the {} ran out before the end (not rated)",
                    stop.name().replace('-', " ")
                );
            }
            None if ending == Ending::NoSolution && count == 0 => {
                let _ = writeln!(text, "  not explained: the puzzle has no solution");
            }
            None => {
                let _ = writeln!(
                    text,
                    "  {} in {count} steps; hardest: {name} ({:.1})",
                    ending.name(),
                    explained_score,
                );
            }
        }
    }
    Ok(text)
}

fn step_line(step: &Step, n: usize) -> String {
    let mut moves: Vec<String> = step
        .placements()
        .map(|(c, d)| format!("{}={}", cell_name(c.index(), n), digit_name(d.get(), n)))
        .collect();
    moves.extend(
        step.eliminations()
            .map(|(c, d)| format!("{}<>{}", cell_name(c.index(), n), digit_name(d.get(), n))),
    );
    format!(
        "{} ({:.1}): {}; {}",
        step.technique(),
        step.score(),
        moves.join(" "),
        step.why()
    )
}

/// Writes `DIR/line<N>-step<K>.svg`; with several inputs, `DIR/<file stem>-line<N>-...`, so
/// that the inputs' pictures do not overwrite each other.
fn write_svg(
    dir: &Path,
    file: Option<&str>,
    line: usize,
    k: usize,
    state: &Candidates,
    step: &Step,
) -> std::io::Result<()> {
    let stem = file
        .and_then(|f| Path::new(f).file_stem())
        .map(|s| format!("{}-", s.to_string_lossy()))
        .unwrap_or_default();
    let path = dir.join(format!("{stem}line{line}-step{k:03}.svg"));
    let title = format!(
        "line {line}, step {k}: {} ({:.1})",
        step.technique(),
        step.score()
    );
    std::fs::write(&path, step_svg(state, step, &title))
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}
