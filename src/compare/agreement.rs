//! The checks of each puzzle's outcomes: every solution against the rules and the givens, and
//! the engines against each other.

use super::Measurement;
use crate::engine::{Engine, Outcome};
use crate::io::puzzle::Puzzle;
use crate::sudoku::check::check_solution_on;

/// What is wrong with the engines' outcomes on one puzzle: solutions that break the rules,
/// counts that differ between engines that both finished (a limit stop counts as finished:
/// `2+` is the answer asked for), and different solutions of a puzzle proven unique. An engine
/// that gave up agrees with anything it does not contradict: it may not have found more
/// solutions than the true count.
pub(super) fn disagreements(
    engines: &[Engine],
    puzzle: &Puzzle,
    outcomes: &[Outcome],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (engine, outcome) in engines.iter().zip(outcomes) {
        if let Some(solution) = &outcome.solution
            && let Err(why) = check_solution_on(puzzle.board(), &puzzle.grid, solution)
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::{Comparison, DEFAULT_REQUEST, engines_named};
    use crate::Stop;
    use crate::engine::{Engine, Outcome};
    use crate::generate::random_grid;
    use crate::io::puzzle::Puzzle;
    use crate::sudoku::{Grid, Shape};

    fn outcome(solutions: u64, stop: Stop, solution: Option<Grid>) -> Outcome {
        Outcome {
            solutions,
            solution,
            stop,
            nodes: 10,
            backtracks: 3,
            work: 100,
            restarts: 0,
            learned: 0,
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
            board: None,
            shape_inferred: false,
        };
        (puzzle, full)
    }

    #[test]
    fn agreeing_outcomes_are_not_reported() {
        let (puzzle, full) = unique_puzzle(1);
        let mut c = Comparison::new(&engines_named(&["dlx", "csp"]), DEFAULT_REQUEST);
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
        let mut c = Comparison::new(&engines_named(&["dlx", "csp:mrv+lex+fc"]), DEFAULT_REQUEST);
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

    /// A report lists the first [`SHOWN_DISAGREEMENTS`](crate::compare::SHOWN_DISAGREEMENTS)
    /// disagreements in input order and counts the rest; all are kept.
    #[test]
    fn a_report_lists_the_first_disagreements_and_counts_the_rest() {
        use crate::compare::SHOWN_DISAGREEMENTS;
        let mut c = Comparison::new(&engines_named(&["dlx", "csp"]), DEFAULT_REQUEST);
        let total = SHOWN_DISAGREEMENTS + 5;
        for seed in 0..total as u64 {
            let (mut puzzle, full) = unique_puzzle(seed);
            puzzle.line = seed as usize + 1;
            c.add(
                &puzzle,
                &[
                    outcome(1, Stop::Exhausted, Some(full.clone())),
                    outcome(2, Stop::Limit, Some(full)),
                ],
            );
            let (shown, more) = c.shown_disagreements();
            let listed = (seed as usize + 1).min(SHOWN_DISAGREEMENTS);
            assert_eq!((shown.len(), more), (listed, seed as usize + 1 - listed));
        }
        let (shown, more) = c.shown_disagreements();
        let lines: Vec<usize> = shown.iter().map(|d| d.line).collect();
        assert_eq!(lines, (1..=SHOWN_DISAGREEMENTS).collect::<Vec<_>>());
        assert_eq!((more, c.disagreements().len()), (5, total));
    }

    #[test]
    fn different_solutions_and_wrong_solutions_are_disagreements() {
        let (puzzle, full) = unique_puzzle(3);
        // Another valid grid, which does not keep the puzzle's givens.
        let other = random_grid(Shape::CLASSIC, 99);
        let mut c = Comparison::new(&engines_named(&["dlx", "csp"]), DEFAULT_REQUEST);
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
        let mut c = Comparison::new(&engines_named(&["dlx", "csp"]), DEFAULT_REQUEST);
        c.add(
            &puzzle,
            &[
                outcome(0, Stop::Exhausted, None),
                outcome(1, Stop::NodeBudget, Some(full)),
            ],
        );
        assert_eq!(c.disagreements().len(), 1, "{:?}", c.disagreements());
    }
}
