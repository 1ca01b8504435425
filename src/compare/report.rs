//! A comparison as text and as JSON: the table of per-engine summaries (and of backtracks by
//! label), and every per-puzzle measurement for other tools.

use std::io::Write;

use serde_json::{Value, json};

use super::{Comparison, EngineSummary, stats};
use crate::engine::Engine;

impl Comparison {
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
    /// [{"engine", "solutions", "complete", "stop", "micros", "nodes", "backtracks", "work",
    /// "restarts", "learned"}]}],
    /// "summary": [per-engine rows], "labels": [...], "disagreements": [{"line", "what"}],
    /// "skipped": [{"line", "column", "message"}], "wall_seconds"}`. `complete` is true when
    /// the count is exact; `stop` is `exhausted`, `limit`, `node-budget` or `time-budget`.
    pub fn write_json(&self, out: &mut impl Write) -> std::io::Result<()> {
        let names: Vec<String> = self.engines.iter().map(Engine::to_string).collect();
        let settings = json!({
            "limit": self.request.limit,
            "node_budget": self.request.budget.nodes,
            "time_budget_seconds": self.request.budget.time.map(|t| t.as_secs_f64()),
            "threads": self.threads,
            "restarts": self.request.restarts.is_some(),
            "seed": self.request.restarts.map(|r| r.seed),
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
                        "restarts": m.restarts,
                        "learned": m.learned,
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

#[cfg(test)]
mod tests {
    use super::super::{DEFAULT_NODE_BUDGET, DEFAULT_REQUEST, engines_named, run};
    use crate::engine::Engine;
    use crate::io::puzzle::{Layout, PuzzleReader};

    #[test]
    fn json_has_every_field() {
        let text = "1...........4..2 easy\n1.1.............\n................\n";
        let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
        let c = run(puzzles, &engines_named(&["dlx", "csp"]), &DEFAULT_REQUEST);
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
}
