//! `quadrille explain`: a puzzle's solution step by step, as text, JSON or SVG pictures.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use quadrille::io::puzzle::Puzzle;
use quadrille::logic::{
    Candidates, Ending, Step, cell_name, digit_name, step_svg, write_candidates,
};
use quadrille::request::ExplainRequest;
use serde_json::{Value, json};

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
            steps_json.push(step_json(step, n));
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
    let ending = explained.ending;
    let ending_name = ending.name();
    let unique = explained.unique;
    let stuck = explained.stuck;
    let name = explained.hardest;
    let score = explained.score;
    let explained_score = explained.hardest_score;
    if args.input.json {
        let mut object = json!({
            "line": puzzle.line,
            "solved": ending == Ending::Solved,
            "ending": ending_name,
            // Unknown when a budget stopped the count.
            "unique": unique,
            "score": score,
            "hardest": name,
            "steps": steps_json,
        });
        if let Ending::Undecided(stop) = ending {
            object["stopped"] = json!(stop.name());
        }
        if let Some(state) = &stuck {
            object["grid"] = json!(state.grid().to_string());
            let mut grid = String::new();
            write_candidates(state, &mut grid);
            object["candidates"] = json!(grid);
        }
        if let Some(label) = &puzzle.label {
            object["label"] = json!(label);
        }
        if let Some(file) = file {
            object["file"] = json!(file);
        }
        let _ = writeln!(text, "{object}");
    } else {
        match &stuck {
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
                    "  {ending_name} in {count} steps; hardest: {name} ({:.1})",
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

fn step_json(step: &Step, n: usize) -> Value {
    let triple = |(c, d): (quadrille::board::Cell, quadrille::board::Digit)| {
        let (r, col) = c.row_col(n);
        json!([r + 1, col + 1, d.get()])
    };
    json!({
        "technique": step.technique().name(),
        "score": step.score(),
        "placements": step.placements().map(triple).collect::<Vec<_>>(),
        "eliminations": step.eliminations().map(triple).collect::<Vec<_>>(),
        "units": step.units().iter().map(|&u| step_unit_name(step, u)).collect::<Vec<_>>(),
        "cells": step.cells().map(|c| { let (r, col) = c.row_col(n); json!([r + 1, col + 1]) }).collect::<Vec<_>>(),
        "why": step.why(),
    })
}

fn step_unit_name(step: &Step, u: usize) -> String {
    step.board().group(u).to_string()
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
