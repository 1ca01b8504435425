//! Driving the engines over the puzzles: every puzzle to every engine in turn, several puzzles
//! at once on the current rayon pool, through [`runner::run_in_order`] so that the results
//! come back in input order, in flat memory.

use std::convert::Infallible;
use std::time::Instant;

use super::Comparison;
use crate::batch::{self, Parallelism};
use crate::budget::Request;
use crate::engine::{Engine, Outcome};
use crate::error::Result;
use crate::io::puzzle::Puzzle;
use crate::runner::{self, WithinChunk};

/// Runs every engine on every puzzle as `request` asks, on the threads of the current rayon
/// pool, and returns the measurements. Bad lines, and puzzles on a board that one of the
/// engines cannot solve, are recorded and skipped.
pub fn run<I>(puzzles: I, engines: &[Engine], request: &Request) -> Comparison
where
    I: IntoIterator<Item = Result<Puzzle>>,
{
    let start = Instant::now();
    let mut comparison = Comparison::new(engines, *request);
    let measure = |item: Result<Puzzle>| -> Result<(Puzzle, Vec<Outcome>)> {
        let puzzle = item?;
        let outcomes = engines
            .iter()
            .map(|&engine| {
                batch::solve_one(&puzzle, engine, request, Parallelism::AcrossPuzzles)
                    .map(|(outcome, _)| outcome)
            })
            .collect::<Result<_>>()?;
        Ok((puzzle, outcomes))
    };
    let record = |measured: Result<(Puzzle, Vec<Outcome>)>| {
        match measured {
            Ok((puzzle, outcomes)) => comparison.add(&puzzle, &outcomes),
            Err(error) => comparison.skip(error),
        }
        Ok::<(), Infallible>(())
    };
    let Ok(()) = runner::run_in_order(
        puzzles,
        runner::SLOW_WORK_CHUNK,
        WithinChunk::Parallel,
        measure,
        record,
    );
    comparison.wall = start.elapsed();
    comparison
}

#[cfg(test)]
mod tests {
    use super::super::{DEFAULT_REQUEST, engines_named};
    use super::*;
    use crate::Budget;
    use crate::generate::random_puzzle;
    use crate::io::puzzle::{Layout, PuzzleReader};
    use crate::sudoku::Shape;

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
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
            let c = pool.install(|| run(puzzles, &all, &DEFAULT_REQUEST));
            assert_eq!(c.threads(), threads);
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
        let request = Request {
            limit: Some(1000),
            budget: Budget::nodes(50),
            ..Request::default()
        };
        let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
        let c = run(puzzles, &engines_named(&["dlx", "csp"]), &request);
        for s in c.summaries() {
            assert_eq!((s.solved, s.gave_up), (0, 1), "{}", s.engine);
        }
        assert!(c.disagreements().is_empty());
        assert!(c.table().contains("gave up"));
    }
}
