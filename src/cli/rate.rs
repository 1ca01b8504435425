//! `quadrille rate`: each puzzle's hardest technique, its score on Sudoku Explainer's scale,
//! its steps, and the CSP's backtracks at each propagation level.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use quadrille::csp::Propagation;
use quadrille::io::puzzle::Puzzle;
use quadrille::logic::{Ending, Technique};
use quadrille::request::{RateRecord, RateRequest, propagation_levels};
use serde_json::json;

use super::flags;
use super::logical::{self, InputArgs};
use super::{Status, stdout};

/// Arguments of `quadrille rate`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  quadrille rate fixtures/sudoku/9x9_sample.txt
  quadrille rate --json --levels fc,ac,hidden-singles puzzles.txt
  quadrille rate --stats -j2 --plot ratings.svg puzzles.txt
  quadrille rate --time-budget 10 fixtures/sudoku/16x16.txt
  quadrille rate fixtures/variants/jigsaw.txt")]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// A summary on standard error: puzzles, time, puzzles per hardest technique, scores.
    #[arg(long, conflicts_with = "quiet")]
    stats: bool,
    /// A histogram of the scores, as an SVG file.
    #[arg(long, value_name = "PATH.svg", value_parser = flags::svg_path)]
    plot: Option<PathBuf>,
    /// The CSP propagation levels whose backtracks to count (mrv-degree+lex at each; a
    /// uniqueness check, up to 2 solutions), comma-separated: fc, ac, hidden-singles, pairs,
    /// triples, alldiff; `none` for none.
    #[arg(long, value_name = "LIST", default_value = "hidden-singles,pairs,triples,alldiff", value_parser = levels)]
    levels: Levels,
    /// The node budget of each CSP search (its backtracks then print as `N+`).
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = flags::nodes)]
    level_nodes: u64,
}

/// The propagation levels asked for.
#[derive(Clone, Debug)]
struct Levels(Vec<Propagation>);

fn levels(text: &str) -> Result<Levels, String> {
    propagation_levels(text.split(','))
        .map(Levels)
        .map_err(|invalid| invalid.message)
}

/// Rates one puzzle with the library's [`RateRequest`].
fn rate_one(puzzle: &Puzzle, args: &Args) -> quadrille::Result<RateRecord> {
    let request = RateRequest {
        levels: args.levels.0.clone(),
        level_nodes: args.level_nodes,
        scale: args.input.scale,
        budget: args.input.budget.budget(),
    };
    request.run(puzzle)
}

/// Rates every puzzle of the inputs.
pub fn run(args: Args) -> quadrille::Result<Status> {
    if let Some(path) = &args.plot {
        check_plot_feature(path)?;
    }
    let start = Instant::now();
    let mut out = stdout();
    let mut counts = vec![0u64; 121];
    let mut by_technique: HashMap<Technique, u64> = HashMap::new();
    let (mut rated, mut guessed, mut unsolvable, mut several) = (0u64, 0u64, 0u64, 0u64);
    let mut undecided = 0u64;
    let mut working = Duration::ZERO;
    let errors = logical::run(
        &args.input,
        |puzzle, _| rate_one(puzzle, &args),
        |done| {
            let result = match done.result {
                Ok((_, Ok(result))) => result,
                Ok((_, Err(err))) | Err(err) => {
                    return logical::write_error(
                        &mut out,
                        args.input.json,
                        done.line,
                        done.file.as_deref(),
                        &err,
                    );
                }
            };
            let r = &result.rating;
            rated += 1;
            working += result.elapsed;
            if result.is_rated() {
                counts[usize::from(r.tenths).min(120)] += 1;
                *by_technique.entry(r.hardest).or_default() += 1;
            }
            guessed += u64::from(r.guesses > 0);
            unsolvable += u64::from(r.ending == Ending::NoSolution);
            several += u64::from(r.ending == Ending::Several);
            undecided += u64::from(matches!(r.ending, Ending::Undecided(_)));
            if args.input.json {
                let mut object = serde_json::to_value(&result).map_err(std::io::Error::from)?;
                if let Some(file) = &done.file {
                    object["file"] = json!(file);
                }
                writeln!(out, "{object}")
            } else {
                let mut line = match r.ending {
                    Ending::NoSolution => "no-solution (not rated)".to_string(),
                    Ending::Several => "several-solutions (not rated)".to_string(),
                    Ending::Undecided(stop) => format!("undecided ({}, not rated)", stop.name()),
                    _ => format!(
                        "{:.1} {} steps={} guesses={}",
                        r.score(),
                        r.hardest,
                        r.steps,
                        r.guesses
                    ),
                };
                if !result.level_backtracks.is_empty() {
                    line.push_str(" backtracks");
                    for (level, b) in &result.level_backtracks {
                        let plus = if b.cut { "+" } else { "" };
                        line.push_str(&format!(" {}={}{plus}", level.name(), b.count));
                    }
                }
                writeln!(out, "{line}")
            }
        },
    )?;
    out.flush()?;
    let wall = start.elapsed();
    if args.stats {
        let per = |x: f64| if rated > 0 { x / rated as f64 } else { 0.0 };
        eprintln!(
            "rated {rated} puzzles, errors {errors}, solved with guesses {guessed}, without a solution {unsolvable}, with several solutions {several}, undecided {undecided}"
        );
        eprintln!(
            "wall {:.3} s, {:.1} µs/puzzle (wall), {:.1} µs/puzzle (per thread)",
            wall.as_secs_f64(),
            per(wall.as_secs_f64() * 1e6),
            per(working.as_secs_f64() * 1e6)
        );
        let mut techniques: Vec<_> = by_technique.into_iter().collect();
        techniques.sort();
        let list: Vec<String> = techniques.iter().map(|(t, k)| format!("{t} {k}")).collect();
        eprintln!("hardest technique: {}", list.join(", "));
        let total: u64 = counts.iter().sum();
        if total > 0 {
            let sum: u64 = counts.iter().enumerate().map(|(t, &k)| t as u64 * k).sum();
            let median = {
                let mut seen = 0;
                counts
                    .iter()
                    .position(|&k| {
                        seen += k;
                        seen * 2 >= total
                    })
                    .unwrap_or(0)
            };
            let max = counts.iter().rposition(|&k| k > 0).unwrap_or(0);
            eprintln!(
                "score: mean {:.2}, median {:.1}, max {:.1}",
                sum as f64 / total as f64 / 10.0,
                median as f64 / 10.0,
                max as f64 / 10.0
            );
        }
    }
    if let Some(path) = &args.plot {
        write_plot(&counts, path, rated)?;
    }
    Ok(logical::status(errors))
}

#[cfg(feature = "plot")]
fn check_plot_feature(_: &std::path::Path) -> quadrille::Result<()> {
    Ok(())
}

#[cfg(not(feature = "plot"))]
fn check_plot_feature(path: &std::path::Path) -> quadrille::Result<()> {
    write_plot(&[], path, 0)
}

#[cfg(feature = "plot")]
fn write_plot(counts: &[u64], path: &std::path::Path, rated: u64) -> quadrille::Result<()> {
    quadrille::logic::plot::write_histogram(
        counts,
        path,
        &format!("Scores of {rated} puzzles (quadrille rate)"),
    )
}

#[cfg(not(feature = "plot"))]
fn write_plot(_: &[u64], path: &std::path::Path, _: u64) -> quadrille::Result<()> {
    Err(std::io::Error::other(format!(
        "{}: --plot needs the `plot` feature, which this build left out",
        path.display()
    ))
    .into())
}
