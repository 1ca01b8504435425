//! `quadrille merge`: the shard results of `--shard I/N --json`, added up.

use std::io::Write;

use quadrille::merge::{self, ShardRecord};
use quadrille::{SolutionCount, Stop};

use super::{Status, open_inputs, stdout};

/// Arguments of `quadrille merge`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  for i in 1 2 3 4; do quadrille xc fixtures/pentominoes_6x10.dlx --shard $i/4 --json; done > shards.jsonl
  quadrille merge shards.jsonl
  cat shard-*.json | quadrille merge --json

Exit code 0 only for a total: every shard present and complete. A partial sum (shards missing or
cut short by a budget) is printed as `N+` and labelled partial, with exit code 1. A record whose
checksum is missing or does not match is refused at its line; a last line cut short mid-write
(no line end, its JSON unfinished) is left out with a warning.")]
pub struct Args {
    /// Files of shard results, one JSON line each (standard input when none, or `-`).
    files: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Reads every shard line, merges, prints.
pub fn run(args: Args) -> quadrille::Result<Status> {
    let mut records: Vec<ShardRecord> = Vec::new();
    for input in open_inputs(&args.files)? {
        match merge::read_shard_results(input.reader) {
            Ok(read) => {
                if let Some(line) = read.cut_line {
                    // Left out as a resume leaves it out; a shard it held is then missing, and
                    // the merge partial.
                    eprintln!(
                        "quadrille: warning: {}: line {line} ends in the middle of a record, \
                         cut short mid-write: left out",
                        input.name
                    );
                }
                records.extend(read.records.into_iter().map(|record| {
                    ShardRecord {
                        origin: record
                            .origin
                            .as_ref()
                            .map(|at| format!("{}, {at}", input.name)),
                        ..record
                    }
                }));
            }
            Err(err) => {
                eprintln!("quadrille: {}: {err}", input.name);
                return Ok(Status::BadInput);
            }
        }
    }
    let merged = match merge::merge(&records) {
        Ok(merged) => merged,
        Err(err) => {
            eprintln!("quadrille: {err}");
            return Ok(Status::BadInput);
        }
    };
    let total = merged.is_total();
    let list = |shards: &[usize]| {
        shards
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = stdout();
    if args.json {
        // Serialised from a struct, so that the 128-bit counts are written as integers, and
        // the solutions as every count is (`SolutionCount`).
        let object = MergedJson {
            solutions: SolutionCount::new(
                merged.solutions.clone(),
                if total { Stop::Exhausted } else { Stop::Limit },
            ),
            complete: total,
            partial: !total,
            shards: merged.shards,
            present: merged.present.len(),
            missing: &merged.missing,
            incomplete: &merged.incomplete,
            nodes: merged.nodes,
            updates: merged.updates,
            seconds: merged.seconds,
            max_seconds: merged.max_seconds,
            problem: &merged.problem,
            split: &merged.split,
        };
        writeln!(
            out,
            "{}",
            serde_json::to_string(&object).expect("serialises")
        )?;
    } else if total {
        writeln!(out, "{}", merged.solutions)?;
    } else {
        writeln!(out, "{}+", merged.solutions)?;
    }
    out.flush()?;
    if !total {
        let mut why = Vec::new();
        if !merged.missing.is_empty() {
            why.push(format!("missing shard {}", list(&merged.missing)));
        }
        if !merged.incomplete.is_empty() {
            why.push(format!(
                "shard {} cut short by a budget",
                list(&merged.incomplete)
            ));
        }
        eprintln!(
            "quadrille: partial merge, not a total: {} of {} shards, {}",
            merged.present.len(),
            merged.shards,
            why.join("; ")
        );
        return Ok(Status::BadInput);
    }
    eprintln!(
        "{} shards: {} solutions, {} nodes, {} updates, {:.3} s in all, {:.3} s the longest",
        merged.shards,
        merged.solutions,
        merged.nodes,
        merged.updates,
        merged.seconds,
        merged.max_seconds
    );
    Ok(Status::Success)
}

/// The JSON object `merge --json` prints.
#[derive(serde::Serialize)]
struct MergedJson<'a> {
    solutions: SolutionCount,
    complete: bool,
    partial: bool,
    shards: usize,
    present: usize,
    missing: &'a [usize],
    incomplete: &'a [usize],
    nodes: u128,
    updates: u128,
    seconds: f64,
    max_seconds: f64,
    problem: &'a str,
    split: &'a str,
}
