//! [`RateRequest`]: a puzzle's score on a Sudoku Explainer scale, its hardest technique, its
//! steps, and the CSP's backtracks at each propagation level, asked the same way by `quadrille
//! rate` and by Python's `rate`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::check::{self, Field, Invalid};
use crate::budget::Budget;
use crate::csp::{LevelBacktracks, Propagation, backtracks_by_level, backtracks_by_level_on};
use crate::io::puzzle::Puzzle;
use crate::logic::{self, Ending, Rating, Scale};

/// The propagation levels named in `names` (`fc`, `ac`, `hidden-singles`, `pairs`, `triples`,
/// `alldiff`), in order; `none` alone names none.
pub fn propagation_levels<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<Propagation>, Invalid> {
    let names: Vec<&str> = names.into_iter().map(str::trim).collect();
    if names == ["none"] {
        return Ok(Vec::new());
    }
    names
        .into_iter()
        .map(|name| {
            Propagation::ALL
                .into_iter()
                .find(|p| p.name() == name)
                .ok_or_else(|| {
                    Invalid::new(
                        Field::Levels,
                        format!(
                            "'{name}' is not a propagation level (fc, ac, hidden-singles, pairs, triples, alldiff)"
                        ),
                    )
                })
        })
        .collect()
}

/// Rates one puzzle: the request of `quadrille rate` and of Python's `rate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateRequest {
    /// The CSP propagation levels whose backtracks are counted.
    pub levels: Vec<Propagation>,
    /// The nodes of each level's search.
    pub level_nodes: u64,
    /// The rating scale.
    pub scale: Scale,
    /// The budget of the whole rating (the levels share what the logic leaves of its time);
    /// its interrupt stops it.
    pub budget: Budget,
}

impl Default for RateRequest {
    /// The tool's defaults: levels hidden-singles, pairs, triples and alldiff, 100,000 nodes
    /// each, Sudoku Explainer 1.2.1's scale, no budget.
    fn default() -> RateRequest {
        RateRequest {
            levels: vec![
                Propagation::HiddenSingles,
                Propagation::Pairs,
                Propagation::Triples,
                Propagation::AllDiff,
            ],
            level_nodes: 100_000,
            scale: Scale::default(),
            budget: Budget::unlimited(),
        }
    }
}

/// A puzzle's rating; serialised, it is `quadrille rate --json`'s object (the tool adds the
/// input's `file` when it reads several).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RateRecord {
    /// The puzzle's input line.
    pub line: usize,
    /// The score, when the puzzle has exactly one solution and no budget stopped the rating.
    pub score: Option<f64>,
    /// The hardest technique, when there is a score.
    pub hardest: Option<&'static str>,
    /// Steps taken.
    pub steps: u32,
    /// Guesses made.
    pub guesses: u32,
    /// Whether logic (with guesses) solved it.
    pub solved: bool,
    /// Whether it has exactly one solution; unknown when a budget stopped the count.
    pub unique: Option<bool>,
    /// Backtracks by propagation level.
    pub backtracks: BTreeMap<&'static str, u64>,
    /// The levels whose search the node budget cut (their count is a lower bound).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub budget_cut: Vec<&'static str>,
    /// Why the rating stopped, when a budget stopped it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<&'static str>,
    /// The puzzle's label, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The rating itself.
    #[serde(skip)]
    pub rating: Rating,
    /// Each level's backtracks, in the request's order.
    #[serde(skip)]
    pub level_backtracks: Vec<(Propagation, LevelBacktracks)>,
    /// The time the rating took.
    #[serde(skip)]
    pub elapsed: Duration,
}

impl RateRecord {
    /// Whether the puzzle was rated: exactly one solution, and no budget stopped the rating.
    pub fn is_rated(&self) -> bool {
        self.score.is_some()
    }
}

impl RateRequest {
    /// Checks the request: each level's search has 1 node or more.
    pub fn check(&self) -> Result<(), Invalid> {
        if self.level_nodes == 0 {
            return Err(Invalid::new(Field::LevelNodes, "must be 1 or more"));
        }
        check::node_budget(self.budget.nodes)?;
        Ok(())
    }

    /// Rates `puzzle`.
    ///
    /// ```
    /// use quadrille::io::puzzle::{Layout, PuzzleReader};
    /// use quadrille::request::RateRequest;
    ///
    /// let line = "................12....345........3....6.......71..8......2.6..834.......5..7.....";
    /// let puzzle = PuzzleReader::new(line.as_bytes(), None, Layout::Line).next().unwrap()?;
    /// let record = RateRequest::default().run(&puzzle)?;
    /// assert_eq!((record.score, record.hardest), (Some(3.2), Some("x-wing")));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn run(&self, puzzle: &Puzzle) -> crate::Result<RateRecord> {
        self.check()?;
        let start = Instant::now();
        let budget = self.budget;
        let rating = logic::with_puzzle_solver(puzzle, self.scale, |solver| {
            solver.rate_within(&puzzle.grid, &budget)
        });
        // The searches share what is left of the puzzle's time budget.
        let level_budget = Budget {
            nodes: Some(self.level_nodes),
            time: budget.time.map(|t| t.saturating_sub(start.elapsed())),
            ..budget
        };
        // A level at a time, none once interrupted: an interrupted search of a large grid
        // still takes its first 1,024 nodes (about 0.1 s at 36x36), a level's each.
        let mut level_backtracks = Vec::new();
        for &level in &self.levels {
            if budget.is_interrupted() {
                break;
            }
            let one = std::slice::from_ref(&level);
            let counted = match &puzzle.board {
                None => backtracks_by_level(&puzzle.grid, one, &level_budget),
                Some(board) => backtracks_by_level_on(board, &puzzle.grid, one, &level_budget),
            };
            level_backtracks.extend(counted.into_iter().map(|b| (level, b)));
        }
        // A puzzle without exactly one solution, or one a budget stopped, has no rating.
        let rated = !matches!(
            rating.ending,
            Ending::Several | Ending::NoSolution | Ending::Undecided(_)
        );
        Ok(RateRecord {
            line: puzzle.line,
            score: rated.then(|| rating.score()),
            hardest: rated.then(|| rating.hardest.name()),
            steps: rating.steps,
            guesses: rating.guesses,
            solved: rating.ending == Ending::Solved,
            unique: (!matches!(rating.ending, Ending::Undecided(_))).then_some(rating.unique),
            backtracks: (level_backtracks.iter())
                .map(|(p, b)| (p.name(), b.count))
                .collect(),
            budget_cut: (level_backtracks.iter())
                .filter(|(_, b)| b.cut)
                .map(|(p, _)| p.name())
                .collect(),
            stopped: match rating.ending {
                Ending::Undecided(stop) => Some(stop.name()),
                _ => None,
            },
            label: puzzle.label.clone(),
            rating,
            level_backtracks,
            elapsed: start.elapsed(),
        })
    }
}
