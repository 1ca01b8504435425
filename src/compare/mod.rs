//! Running several engines over the same puzzles, and what they did: `quadrille compare`.
//!
//! [`run`] gives every puzzle to every engine in turn (count up to a limit, default 2, within
//! a per-puzzle budget) and keeps, per puzzle and engine, a [`Measurement`]: the solution
//! count, why the search stopped, the time, nodes, backtracks and engine-specific work. The
//! solutions themselves are checked as they come (each against the rules with
//! [`check_solution`], and the engines against each other) and then dropped, so that memory
//! grows by a few words per puzzle and engine, not by grids.
//!
//! Weak CSP configurations (`first+lex+fc`) can spend minutes on one hard 9x9 puzzle, so the
//! default [`Settings`] stop each search after [`DEFAULT_NODE_BUDGET`] nodes; such puzzles
//! are counted as "gave up", with the time and nodes they used.
//!
//! Timing is per puzzle, as each engine reports it ([`Outcome::elapsed`]: from the givens to
//! the answer). The default is one thread, so that times are comparable; with more threads
//! puzzles run in parallel (each puzzle's engines one after another on one thread), and the
//! contention for caches and memory bandwidth can inflate every time.
//!
//! - [`stats`]: quantiles and the per-engine [`EngineSummary`], and the text table.
//! - [`plot`]: the SVG chart.
//!
//! ```
//! use quadrille::compare::{self, Settings};
//! use quadrille::engine::Engine;
//! use quadrille::io::puzzle::{Layout, PuzzleReader};
//!
//! let text = "1...........4..2 easy\n1.3.34.2.......1 easy\n11.............. bad\n................ open\n";
//! let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
//! let engines = ["dlx".parse()?, "csp:first+lex+fc".parse::<Engine>()?];
//! let comparison = compare::run(puzzles, &engines, &Settings::default())?;
//! assert_eq!(comparison.puzzles().len(), 3);
//! assert_eq!(comparison.skipped()[0].line(), Some(3));
//! assert!(comparison.disagreements().is_empty());
//! let summaries = comparison.summaries();
//! assert_eq!(summaries[1].engine.to_string(), "csp:first+lex+fc");
//! assert_eq!((summaries[0].solved, summaries[0].gave_up), (3, 0));
//! // The empty grid has 288 solutions: both engines stop at the limit, 2.
//! assert!(comparison.puzzles()[2].results.iter().all(|m| m.solutions == 2));
//! let json = comparison.to_json();
//! assert_eq!(json["puzzles"][0]["label"], "easy");
//! # Ok::<(), quadrille::Error>(())
//! ```

pub mod plot;
pub mod stats;

use std::io::Write;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde_json::{Value, json};

use crate::batch;
use crate::budget::{Budget, Stop};
use crate::engine::{Engine, Outcome};
use crate::error::{Error, ErrorKind, Result};
use crate::io::puzzle::Puzzle;
use crate::sudoku::check::check_solution;

pub use stats::{EngineSummary, Spread};

/// The node budget per puzzle and engine when none is given: enough for every preset on the
/// 17-clue puzzles, and about a second for `first+lex+fc` on a puzzle it cannot crack.
pub const DEFAULT_NODE_BUDGET: u64 = 100_000;

/// Puzzles read and measured together when running on several threads.
const CHUNK: usize = 512;

/// How to run a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Count solutions up to this many (`None`: all). 2 tells unique from multiple.
    pub limit: Option<u64>,
    /// The budget of each engine on each puzzle.
    pub budget: Budget,
    /// Threads (0: all cores). With more than one, times can be inflated by contention.
    pub threads: usize,
}

impl Default for Settings {
    /// Limit 2, a node budget of [`DEFAULT_NODE_BUDGET`], one thread.
    fn default() -> Settings {
        Settings {
            limit: Some(2),
            budget: Budget::nodes(DEFAULT_NODE_BUDGET),
            threads: 1,
        }
    }
}

/// What one engine did on one puzzle (its solution is checked, then dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measurement {
    /// Solutions found, up to the limit.
    pub solutions: u64,
    /// Why the search ended.
    pub stop: Stop,
    /// Time spent on the puzzle.
    pub elapsed: Duration,
    /// Search-tree nodes.
    pub nodes: u64,
    /// Dead ends (DLX) or values tried and undone (CSP).
    pub backtracks: u64,
    /// Link updates (DLX) or inferences (CSP).
    pub work: u64,
}

impl Measurement {
    /// The measurement of an outcome.
    pub fn of(outcome: &Outcome) -> Measurement {
        Measurement {
            solutions: outcome.solutions,
            stop: outcome.stop,
            elapsed: outcome.elapsed,
            nodes: outcome.nodes,
            backtracks: outcome.backtracks,
            work: outcome.work,
        }
    }

    /// Whether a budget stopped the search, leaving the answer unknown.
    pub fn gave_up(&self) -> bool {
        self.stop.is_budget()
    }

    /// The time in microseconds.
    pub fn micros(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1e6
    }

    /// The count as people read it: `2+` when the limit stopped the search, `1` when exact.
    fn count_text(&self) -> String {
        match self.stop {
            Stop::Exhausted => self.solutions.to_string(),
            Stop::Limit => format!("{}+", self.solutions),
            _ => format!("{}+ (gave up)", self.solutions),
        }
    }
}

/// One puzzle of a comparison and every engine's measurement, in the engines' order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleRecord {
    /// The 1-based input line where the puzzle starts.
    pub line: usize,
    /// The puzzle's label (the first word of its comment), if any.
    pub label: Option<String>,
    /// One measurement per engine.
    pub results: Vec<Measurement>,
}

/// Engines that did not agree on a puzzle, or an engine whose solution breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The 1-based input line of the puzzle.
    pub line: usize,
    /// What differed, naming the engines.
    pub what: String,
}

impl std::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

/// Mean backtracks per puzzle of one label, per engine.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelGroup {
    /// The label.
    pub label: String,
    /// Puzzles with this label.
    pub puzzles: usize,
    /// Mean backtracks per puzzle, one per engine.
    pub backtracks_mean: Vec<f64>,
}

/// The results of a comparison: per-puzzle measurements, disagreements and bad lines.
#[derive(Debug)]
pub struct Comparison {
    engines: Vec<Engine>,
    settings: Settings,
    puzzles: Vec<PuzzleRecord>,
    disagreements: Vec<Disagreement>,
    skipped: Vec<Error>,
    wall: Duration,
}

impl Comparison {
    /// An empty comparison of these engines, to [`add`](Comparison::add) results to.
    pub fn new(engines: &[Engine], settings: Settings) -> Comparison {
        Comparison {
            engines: engines.to_vec(),
            settings,
            puzzles: Vec::new(),
            disagreements: Vec::new(),
            skipped: Vec::new(),
            wall: Duration::ZERO,
        }
    }

    /// Records the engines' outcomes on a puzzle (one per engine, in order), checking every
    /// solution against the puzzle and the engines against each other.
    ///
    /// # Panics
    ///
    /// If there is not one outcome per engine (a bug in the caller, not bad input).
    pub fn add(&mut self, puzzle: &Puzzle, outcomes: &[Outcome]) {
        assert_eq!(outcomes.len(), self.engines.len(), "one outcome per engine");
        let problems = disagreements(&self.engines, puzzle, outcomes);
        if !problems.is_empty() {
            self.disagreements.push(Disagreement {
                line: puzzle.line,
                what: problems.join("; "),
            });
        }
        self.puzzles.push(PuzzleRecord {
            line: puzzle.line,
            label: puzzle.label.clone(),
            results: outcomes.iter().map(Measurement::of).collect(),
        });
    }

    /// Records a line that was not a valid puzzle.
    pub fn skip(&mut self, error: Error) {
        self.skipped.push(error);
    }

    /// The engines, in the order of every puzzle's results.
    pub fn engines(&self) -> &[Engine] {
        &self.engines
    }

    /// The settings it ran with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Every puzzle run, in input order.
    pub fn puzzles(&self) -> &[PuzzleRecord] {
        &self.puzzles
    }

    /// Puzzles on which engines disagreed (or returned a wrong solution), in input order.
    pub fn disagreements(&self) -> &[Disagreement] {
        &self.disagreements
    }

    /// Lines that were not valid puzzles, with where and why.
    pub fn skipped(&self) -> &[Error] {
        &self.skipped
    }

    /// The wall-clock time of the whole run.
    pub fn wall(&self) -> Duration {
        self.wall
    }

    /// The measurements of engine `index` over all puzzles.
    pub fn measurements(&self, index: usize) -> impl Iterator<Item = &Measurement> + '_ {
        self.puzzles.iter().map(move |p| &p.results[index])
    }

    /// One summary per engine, in the engines' order.
    pub fn summaries(&self) -> Vec<EngineSummary> {
        (0..self.engines.len()).map(|i| self.summary(i)).collect()
    }

    fn summary(&self, index: usize) -> EngineSummary {
        let puzzles = self.puzzles.len();
        let per = |x: f64| if puzzles > 0 { x / puzzles as f64 } else { 0.0 };
        let mut micros: Vec<f64> = self.measurements(index).map(Measurement::micros).collect();
        let mut nodes: Vec<f64> = self.measurements(index).map(|m| m.nodes as f64).collect();
        let gave_up = self.measurements(index).filter(|m| m.gave_up()).count();
        EngineSummary {
            engine: self.engines[index],
            puzzles,
            solved: puzzles - gave_up,
            gave_up,
            micros: Spread::of(&mut micros),
            nodes: Spread::of(&mut nodes),
            backtracks_mean: per(self.measurements(index).map(|m| m.backtracks as f64).sum()),
            no_backtracking: per(self
                .measurements(index)
                .filter(|m| m.backtracks == 0)
                .count() as f64),
            total: self.measurements(index).map(|m| m.elapsed).sum(),
        }
    }

    /// Mean backtracks per label and engine, labels in order of first appearance; empty when
    /// no puzzle has a label. Unlabelled puzzles are left out.
    pub fn labels(&self) -> Vec<LabelGroup> {
        let mut groups: Vec<LabelGroup> = Vec::new();
        for puzzle in &self.puzzles {
            let Some(label) = &puzzle.label else { continue };
            let at = match groups.iter().position(|g| &g.label == label) {
                Some(at) => at,
                None => {
                    groups.push(LabelGroup {
                        label: label.clone(),
                        puzzles: 0,
                        backtracks_mean: vec![0.0; self.engines.len()],
                    });
                    groups.len() - 1
                }
            };
            let group = &mut groups[at];
            group.puzzles += 1;
            for (sum, m) in group.backtracks_mean.iter_mut().zip(&puzzle.results) {
                *sum += m.backtracks as f64;
            }
        }
        for group in &mut groups {
            for sum in &mut group.backtracks_mean {
                *sum /= group.puzzles as f64;
            }
        }
        groups
    }

    /// The table of [`summaries`](Comparison::summaries), and when puzzles carry labels a
    /// second one of mean backtracks by label.
    pub fn table(&self) -> String {
        let mut out = stats::table(&self.summaries());
        let labels = self.labels();
        if !labels.is_empty() {
            out.push_str("\nmean backtracks per puzzle, by label\n");
            let mut header = vec!["engine".to_string()];
            header.extend(
                labels
                    .iter()
                    .map(|g| format!("{} ({})", g.label, g.puzzles)),
            );
            let mut rows = vec![header];
            for (i, engine) in self.engines.iter().enumerate() {
                let mut row = vec![engine.to_string()];
                row.extend(
                    labels
                        .iter()
                        .map(|g| stats::format_count(g.backtracks_mean[i])),
                );
                rows.push(row);
            }
            out.push_str(&stats::aligned(&rows));
        }
        out
    }

    /// Everything as one JSON value; see [`write_json`](Comparison::write_json) for the
    /// fields. Builds the whole value in memory: for large runs, write it instead.
    pub fn to_json(&self) -> Value {
        let mut bytes = Vec::new();
        self.write_json(&mut bytes)
            .expect("writing to memory does not fail");
        serde_json::from_slice(&bytes).expect("write_json writes valid JSON")
    }

    /// Writes every per-puzzle measurement as one JSON object, one puzzle at a time:
    /// `{"engines": [names], "settings": {...}, "puzzles": [{"line", "label", "results":
    /// [{"engine", "solutions", "complete", "stop", "micros", "nodes", "backtracks", "work"}]}],
    /// "summary": [per-engine rows], "labels": [...], "disagreements": [{"line", "what"}],
    /// "skipped": [{"line", "column", "message"}], "wall_seconds"}`. `complete` is true when
    /// the count is exact; `stop` is `exhausted`, `limit`, `node-budget` or `time-budget`.
    pub fn write_json(&self, out: &mut impl Write) -> std::io::Result<()> {
        let names: Vec<String> = self.engines.iter().map(Engine::to_string).collect();
        let settings = json!({
            "limit": self.settings.limit,
            "node_budget": self.settings.budget.nodes,
            "time_budget_seconds": self.settings.budget.time.map(|t| t.as_secs_f64()),
            "threads": self.settings.threads,
        });
        write!(
            out,
            "{{\"engines\":{},\"settings\":{settings},\"puzzles\":[",
            json!(names)
        )?;
        for (i, puzzle) in self.puzzles.iter().enumerate() {
            let results: Vec<Value> = names
                .iter()
                .zip(&puzzle.results)
                .map(|(engine, m)| {
                    json!({
                        "engine": engine,
                        "solutions": m.solutions,
                        "complete": m.stop.is_complete(),
                        "stop": m.stop.name(),
                        "micros": m.micros(),
                        "nodes": m.nodes,
                        "backtracks": m.backtracks,
                        "work": m.work,
                    })
                })
                .collect();
            let object = json!({"line": puzzle.line, "label": puzzle.label, "results": results});
            write!(out, "{}{object}", if i == 0 { "" } else { ",\n" })?;
        }
        let summary: Vec<Value> = self.summaries().iter().map(summary_json).collect();
        let labels: Vec<Value> = self
            .labels()
            .iter()
            .map(|g| json!({"label": g.label, "puzzles": g.puzzles, "backtracks_mean": g.backtracks_mean}))
            .collect();
        let disagreements: Vec<Value> = self
            .disagreements
            .iter()
            .map(|d| json!({"line": d.line, "what": d.what}))
            .collect();
        let skipped: Vec<Value> = self
            .skipped
            .iter()
            .map(|e| json!({"line": e.line(), "column": e.column(), "message": e.message()}))
            .collect();
        writeln!(
            out,
            "],\"summary\":{},\"labels\":{},\"disagreements\":{},\"skipped\":{},\"wall_seconds\":{}}}",
            json!(summary),
            json!(labels),
            json!(disagreements),
            json!(skipped),
            json!(self.wall.as_secs_f64()),
        )
    }
}

fn summary_json(s: &EngineSummary) -> Value {
    json!({
        "engine": s.engine.to_string(),
        "puzzles": s.puzzles,
        "solved": s.solved,
        "gave_up": s.gave_up,
        "micros": {"mean": s.micros.mean, "median": s.micros.median, "p95": s.micros.p95, "max": s.micros.max},
        "nodes": {"mean": s.nodes.mean, "median": s.nodes.median, "p95": s.nodes.p95, "max": s.nodes.max},
        "backtracks_mean": s.backtracks_mean,
        "no_backtracking_share": s.no_backtracking,
        "total_seconds": s.total.as_secs_f64(),
    })
}

/// What is wrong with the engines' outcomes on one puzzle: solutions that break the rules,
/// counts that differ between engines that both finished (a limit stop counts as finished:
/// `2+` is the answer asked for), and different solutions of a puzzle proven unique. An engine
/// that gave up agrees with anything it does not contradict: it may not have found more
/// solutions than the true count.
fn disagreements(engines: &[Engine], puzzle: &Puzzle, outcomes: &[Outcome]) -> Vec<String> {
    let mut problems = Vec::new();
    for (engine, outcome) in engines.iter().zip(outcomes) {
        if let Some(solution) = &outcome.solution
            && let Err(why) = check_solution(&puzzle.grid, solution)
        {
            problems.push(format!("{engine} returned a wrong solution ({why})"));
        }
    }
    let measured: Vec<Measurement> = outcomes.iter().map(Measurement::of).collect();
    let Some(reference) = (0..outcomes.len()).find(|&i| !measured[i].gave_up()) else {
        return problems;
    };
    let (ref_engine, ref_m) = (engines[reference], measured[reference]);
    for (i, m) in measured.iter().enumerate() {
        let differs = if m.gave_up() {
            m.solutions > ref_m.solutions
        } else {
            m.solutions != ref_m.solutions
        };
        if differs {
            problems.push(format!(
                "{ref_engine} counted {} solutions but {} counted {}",
                ref_m.count_text(),
                engines[i],
                m.count_text()
            ));
        }
    }
    if ref_m.solutions == 1 && ref_m.stop.is_complete() {
        let unique = outcomes[reference].solution.as_ref();
        for (engine, outcome) in engines.iter().zip(outcomes) {
            if outcome.solution.is_some() && outcome.solution.as_ref() != unique {
                problems.push(format!(
                    "{ref_engine} and {engine} found different solutions of a unique puzzle"
                ));
            }
        }
    }
    problems
}

/// Runs every engine on every puzzle (bad lines are recorded and skipped) and returns the
/// measurements. Fails only if the thread pool cannot be built.
pub fn run<I>(puzzles: I, engines: &[Engine], settings: &Settings) -> Result<Comparison>
where
    I: IntoIterator<Item = Result<Puzzle>>,
{
    let start = Instant::now();
    let mut comparison = Comparison::new(engines, *settings);
    let measure = |puzzle: &Puzzle| -> Vec<Outcome> {
        engines
            .iter()
            .map(|&engine| {
                let batch_settings = batch::Settings {
                    engine,
                    limit: settings.limit,
                    budget: settings.budget,
                    split: false,
                };
                batch::solve_one(puzzle, &batch_settings)
            })
            .collect()
    };
    let mut record = |item: Result<Puzzle>, outcomes: Option<Vec<Outcome>>| match (item, outcomes) {
        (Ok(puzzle), Some(outcomes)) => comparison.add(&puzzle, &outcomes),
        (Err(error), _) => comparison.skip(error),
        (Ok(_), None) => unreachable!("every puzzle read is measured"),
    };
    if settings.threads == 1 {
        for item in puzzles {
            let outcomes = item.as_ref().ok().map(measure);
            record(item, outcomes);
        }
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(settings.threads)
            .build()
            .map_err(|e| Error::new(ErrorKind::Io(std::io::Error::other(e.to_string()))))?;
        let mut puzzles = puzzles.into_iter();
        loop {
            let chunk: Vec<Result<Puzzle>> = puzzles.by_ref().take(CHUNK).collect();
            if chunk.is_empty() {
                break;
            }
            let outcomes: Vec<Option<Vec<Outcome>>> = pool.install(|| {
                chunk
                    .par_iter()
                    .map(|item| item.as_ref().ok().map(measure))
                    .collect()
            });
            for (item, outcomes) in chunk.into_iter().zip(outcomes) {
                record(item, outcomes);
            }
        }
    }
    comparison.wall = start.elapsed();
    Ok(comparison)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{random_grid, random_puzzle};
    use crate::io::puzzle::{Layout, PuzzleReader};
    use crate::sudoku::{Grid, Shape};

    fn engines(names: &[&str]) -> Vec<Engine> {
        names.iter().map(|n| n.parse().unwrap()).collect()
    }

    fn outcome(solutions: u64, stop: Stop, solution: Option<Grid>) -> Outcome {
        Outcome {
            solutions,
            solution,
            stop,
            nodes: 10,
            backtracks: 3,
            work: 100,
            elapsed: Duration::from_micros(50),
        }
    }

    /// A puzzle with one given cell emptied from a full grid: exactly one solution.
    fn unique_puzzle(seed: u64) -> (Puzzle, Grid) {
        let full = random_grid(Shape::CLASSIC, seed);
        let mut grid = full.clone();
        grid.set(4, 4, 0);
        let puzzle = Puzzle {
            line: 7,
            grid,
            label: Some("easy".to_string()),
        };
        (puzzle, full)
    }

    #[test]
    fn agreeing_outcomes_are_not_reported() {
        let (puzzle, full) = unique_puzzle(1);
        let mut c = Comparison::new(&engines(&["dlx", "csp"]), Settings::default());
        let same = outcome(1, Stop::Exhausted, Some(full.clone()));
        // An engine that gave up without a solution contradicts nothing.
        c.add(&puzzle, &[same.clone(), outcome(0, Stop::NodeBudget, None)]);
        c.add(&puzzle, &[same.clone(), same]);
        assert!(c.disagreements().is_empty(), "{:?}", c.disagreements());
        assert_eq!(c.summaries()[1].gave_up, 1);
        assert_eq!(c.summaries()[1].solved, 1);
    }

    #[test]
    fn different_counts_are_disagreements() {
        let (puzzle, full) = unique_puzzle(2);
        let mut c = Comparison::new(&engines(&["dlx", "csp:mrv+lex+fc"]), Settings::default());
        c.add(
            &puzzle,
            &[
                outcome(1, Stop::Exhausted, Some(full.clone())),
                outcome(2, Stop::Limit, Some(full)),
            ],
        );
        assert_eq!(c.disagreements().len(), 1);
        assert_eq!(
            c.disagreements()[0].to_string(),
            "line 7: dlx counted 1 solutions but csp:mrv+lex+fc counted 2+"
        );
    }

    #[test]
    fn different_solutions_and_wrong_solutions_are_disagreements() {
        let (puzzle, full) = unique_puzzle(3);
        // Another valid grid, which does not keep the puzzle's givens.
        let other = random_grid(Shape::CLASSIC, 99);
        let mut c = Comparison::new(&engines(&["dlx", "csp"]), Settings::default());
        c.add(
            &puzzle,
            &[
                outcome(1, Stop::Exhausted, Some(full)),
                outcome(1, Stop::Exhausted, Some(other)),
            ],
        );
        let what = &c.disagreements()[0].what;
        let default_csp = Engine::Csp(crate::csp::Config::default()).to_string();
        assert!(
            what.contains(&format!("{default_csp} returned a wrong solution (r")),
            "{what}"
        );
        assert!(
            what.contains("different solutions of a unique puzzle"),
            "{what}"
        );
        // A budget-stopped engine may not report more solutions than a complete count.
        let (puzzle, full) = unique_puzzle(4);
        let mut c = Comparison::new(&engines(&["dlx", "csp"]), Settings::default());
        c.add(
            &puzzle,
            &[
                outcome(0, Stop::Exhausted, None),
                outcome(1, Stop::NodeBudget, Some(full)),
            ],
        );
        assert_eq!(c.disagreements().len(), 1, "{:?}", c.disagreements());
    }

    #[test]
    fn json_has_every_field() {
        let text = "1...........4..2 easy\n1.1.............\n................\n";
        let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
        let c = run(puzzles, &engines(&["dlx", "csp"]), &Settings::default()).unwrap();
        let json = c.to_json();
        let default_csp = Engine::Csp(crate::csp::Config::default()).to_string();
        assert_eq!(json["engines"], serde_json::json!(["dlx", default_csp]));
        assert_eq!(json["settings"]["limit"], 2);
        assert_eq!(json["settings"]["node_budget"], DEFAULT_NODE_BUDGET);
        let puzzles = json["puzzles"].as_array().unwrap();
        assert_eq!(puzzles.len(), 2);
        assert_eq!(
            (&puzzles[0]["line"], &puzzles[0]["label"]),
            (&1.into(), &"easy".into())
        );
        assert!(puzzles[1]["label"].is_null());
        for puzzle in puzzles {
            let results = puzzle["results"].as_array().unwrap();
            assert_eq!(results.len(), 2);
            for (r, engine) in results.iter().zip(["dlx", default_csp.as_str()]) {
                assert_eq!(r["engine"], engine);
                for field in [
                    "solutions",
                    "complete",
                    "stop",
                    "micros",
                    "nodes",
                    "backtracks",
                    "work",
                ] {
                    assert!(!r[field].is_null(), "{field} in {r}");
                }
                // Both puzzles have at least 2 solutions: the limit stops the count.
                assert_eq!(
                    (&r["solutions"], &r["complete"], &r["stop"]),
                    (&2.into(), &false.into(), &"limit".into())
                );
            }
        }
        let summary = json["summary"].as_array().unwrap();
        assert_eq!(summary.len(), 2);
        assert_eq!(summary[0]["puzzles"], 2);
        for field in [
            "solved",
            "gave_up",
            "micros",
            "nodes",
            "backtracks_mean",
            "no_backtracking_share",
            "total_seconds",
        ] {
            assert!(!summary[1][field].is_null(), "{field}");
        }
        assert_eq!(json["skipped"][0]["line"], 2);
        assert_eq!(json["skipped"][0]["column"], 3);
        assert_eq!(json["labels"][0]["label"], "easy");
        assert!(json["disagreements"].as_array().unwrap().is_empty());
    }

    #[test]
    fn svg_is_written_with_engine_names() {
        let text = "1...........4..2 easy\n1.3.34.2.......1 hard\n................ easy\n";
        let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
        let all = Engine::defaults();
        let c = run(puzzles, &all, &Settings::default()).unwrap();
        let path =
            std::env::temp_dir().join(format!("quadrille-compare-{}.svg", std::process::id()));
        plot::write_svg(&c, &path, "test chart").unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..50]);
        for engine in &all {
            assert!(svg.contains(&engine.to_string()), "{engine}");
        }
        for text in [
            "test chart",
            "Time per puzzle",
            "Search-tree nodes",
            "by label",
            "easy (2)",
            "hard (1)",
        ] {
            assert!(svg.contains(text), "{text}");
        }
        // A path in a missing directory is an error, not a panic.
        let bad = std::env::temp_dir()
            .join("no-such-dir-quadrille")
            .join("x.svg");
        assert!(plot::write_svg(&c, &bad, "x").is_err());
    }

    #[test]
    fn all_engines_agree_on_generated_puzzles() {
        let mut text = String::new();
        for seed in 0..12 {
            let (shape, givens) = match seed % 3 {
                0 => (Shape::new(2, 2).unwrap(), 5),
                1 => (Shape::CLASSIC, 40),
                _ => (Shape::CLASSIC, 30),
            };
            text.push_str(&format!(
                "{} gen{}\n",
                random_puzzle(shape, seed, givens),
                seed % 3
            ));
        }
        let all = Engine::defaults();
        for threads in [1, 2] {
            let settings = Settings {
                threads,
                ..Settings::default()
            };
            let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
            let c = run(puzzles, &all, &settings).unwrap();
            assert!(c.disagreements().is_empty(), "{:?}", c.disagreements());
            assert!(c.skipped().is_empty());
            let lines: Vec<usize> = c.puzzles().iter().map(|p| p.line).collect();
            assert_eq!(lines, (1..=12).collect::<Vec<_>>());
            for summary in c.summaries() {
                assert_eq!(
                    (summary.puzzles, summary.solved, summary.gave_up),
                    (12, 12, 0)
                );
                assert!(summary.micros.median <= summary.micros.p95);
                assert!(summary.micros.p95 <= summary.micros.max);
                assert!(summary.nodes.mean >= 1.0);
            }
            // Every puzzle is made from a full grid, so each engine found a solution.
            for p in c.puzzles() {
                assert!(
                    p.results.iter().all(|m| m.solutions >= 1),
                    "line {}",
                    p.line
                );
            }
            assert_eq!(c.labels().len(), 3);
        }
    }

    #[test]
    fn a_node_budget_makes_engines_give_up() {
        // The empty 9x9 grid with limit 1000: every engine needs more than 50 nodes.
        let text = format!("{}\n", ".".repeat(81));
        let settings = Settings {
            limit: Some(1000),
            budget: Budget::nodes(50),
            threads: 1,
        };
        let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
        let c = run(puzzles, &engines(&["dlx", "csp"]), &settings).unwrap();
        for s in c.summaries() {
            assert_eq!((s.solved, s.gave_up), (0, 1), "{}", s.engine);
        }
        assert!(c.disagreements().is_empty());
        assert!(c.table().contains("gave up"));
    }
}
