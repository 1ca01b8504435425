//! [`ExplainRequest`]: a puzzle's solution step by step, always the easiest step left, asked
//! the same way by `quadrille explain` and by Python's `explain`. The front ends draw the
//! steps (text, JSON, SVG, Python objects); what the explanation concludes (its ending, its
//! score and hardest technique, where it got stuck) is decided here.

use serde::Serialize;

use super::check;
use crate::board::{Cell, Digit};
use crate::budget::Budget;
use crate::io::puzzle::Puzzle;
use crate::logic::{self, Candidates, Ending, Scale, Step};

/// Explains one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExplainRequest {
    /// Whether the solver may guess (forcing chains and beyond, then trial) when no technique
    /// applies; without, such a puzzle ends stuck.
    pub guesses: bool,
    /// The rating scale of the steps' scores.
    pub scale: Scale,
    /// The budget of the explanation; its interrupt stops it at the next step.
    pub budget: Budget,
}

impl Default for ExplainRequest {
    fn default() -> ExplainRequest {
        ExplainRequest {
            guesses: true,
            scale: Scale::default(),
            budget: Budget::unlimited(),
        }
    }
}

/// What an explanation concluded.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// How it ended.
    pub ending: Ending,
    /// Steps taken.
    pub steps: usize,
    /// Whether the puzzle has exactly one solution; unknown when a budget stopped the count.
    pub unique: Option<bool>,
    /// The score (the hardest step's), when the puzzle was explained to its end or to where
    /// it got stuck.
    pub score: Option<f64>,
    /// The hardest step's technique, `none` without a step.
    pub hardest: String,
    /// The hardest step's score, whatever the ending (0 without a step).
    pub hardest_score: f64,
    /// The candidates where no technique applied, when it got stuck.
    pub stuck: Option<Candidates>,
}

impl ExplainRequest {
    /// Explains `puzzle`, handing `each` every step with the candidates before it; `each`
    /// returns false to stop (the ending is then `stopped`), as does the budget's interrupt.
    ///
    /// ```
    /// use quadrille::io::puzzle::{Layout, PuzzleReader};
    /// use quadrille::request::ExplainRequest;
    ///
    /// let line = "................12....345........3....6.......71..8......2.6..834.......5..7.....";
    /// let puzzle = PuzzleReader::new(line.as_bytes(), None, Layout::Line).next().unwrap()?;
    /// let explained = ExplainRequest::default().run(&puzzle, &mut |_, _| true)?;
    /// assert_eq!((explained.steps, explained.hardest.as_str(), explained.score), (70, "x-wing", Some(3.2)));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn run(
        &self,
        puzzle: &Puzzle,
        each: &mut dyn FnMut(&Candidates, &Step) -> bool,
    ) -> crate::Result<Explained> {
        check::node_budget(self.budget.nodes)?;
        let budget = self.budget;
        let mut steps = 0usize;
        let mut hardest: Option<(u16, String)> = None;
        let (ending, stuck, unique) = logic::with_puzzle_solver(puzzle, self.scale, |solver| {
            let ending = solver.solve_within(&puzzle.grid, self.guesses, &budget, |state, step| {
                steps += 1;
                if hardest.as_ref().is_none_or(|h| step.tenths() > h.0) {
                    hardest = Some((step.tenths(), step.technique().to_string()));
                }
                each(state, step) && !budget.is_interrupted()
            });
            let stuck = (ending == Ending::Stuck).then(|| solver.state().clone());
            (ending, stuck, solver.found_unique())
        });
        let (tenths, hardest) = hardest.unwrap_or((0, "none".to_string()));
        Ok(Explained {
            ending,
            steps,
            unique: (!matches!(ending, Ending::Undecided(_))).then_some(unique),
            score: matches!(ending, Ending::Solved | Ending::Stuck | Ending::Stopped)
                .then(|| f64::from(tenths) / 10.0),
            hardest,
            hardest_score: f64::from(tenths) / 10.0,
            stuck,
        })
    }

    /// Explains `puzzle` into its record, with each step's picture (as `explain --svg` draws
    /// it, titled `step K: technique (score)`) when `pictures` is set: `quadrille serve`'s
    /// answer.
    pub fn record(
        &self,
        puzzle: &Puzzle,
        pictures: bool,
    ) -> crate::Result<(ExplainRecord, Vec<String>)> {
        let (mut steps, mut drawn) = (Vec::new(), Vec::new());
        let explained = self.run(puzzle, &mut |state, step| {
            steps.push(StepRecord::of(step));
            if pictures {
                let (k, technique, score) = (steps.len(), step.technique(), step.score());
                let title = format!("step {k}: {technique} ({score:.1})");
                drawn.push(logic::step_svg(state, step, &title));
            }
            true
        })?;
        Ok((ExplainRecord::new(puzzle, &explained, steps), drawn))
    }
}

/// One step of an explanation; serialised, an element of `explain --json`'s `steps`. Cells
/// and digits are 1-based `[row, column, digit]` and `[row, column]`. Fields are in the order
/// the object is written.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepRecord {
    /// The cells the step looked at.
    pub cells: Vec<[usize; 2]>,
    /// The candidates it removed.
    pub eliminations: Vec<[usize; 3]>,
    /// The digits it placed.
    pub placements: Vec<[usize; 3]>,
    /// Its score on the request's scale.
    pub score: f64,
    /// Its technique.
    pub technique: &'static str,
    /// The units (rows, columns, boxes, regions) it looked at, by name.
    pub units: Vec<String>,
    /// Why it holds, in words.
    pub why: String,
}

impl StepRecord {
    /// The record of `step`.
    pub fn of(step: &Step) -> StepRecord {
        let n = step.board().size();
        let triple = |(c, d): (Cell, Digit)| {
            let (r, col) = c.row_col(n);
            [r + 1, col + 1, usize::from(d.get())]
        };
        StepRecord {
            cells: (step.cells())
                .map(|c| {
                    let (r, col) = c.row_col(n);
                    [r + 1, col + 1]
                })
                .collect(),
            eliminations: step.eliminations().map(triple).collect(),
            placements: step.placements().map(triple).collect(),
            score: step.score(),
            technique: step.technique().name(),
            units: (step.units().iter())
                .map(|&u| step.board().group(u).to_string())
                .collect(),
            why: step.why(),
        }
    }
}

/// A puzzle explained; serialised, `explain --json`'s object (the tool adds the input's
/// `file` when it reads several). Fields are in the order the object is written.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplainRecord {
    /// The candidates where no technique applied, when it got stuck.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<String>,
    /// How it ended ([`Ending::name`]).
    pub ending: &'static str,
    /// The grid where it got stuck.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid: Option<String>,
    /// The hardest step's technique, `none` without a step.
    pub hardest: String,
    /// The puzzle's label, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The puzzle's input line.
    pub line: usize,
    /// The score ([`Explained::score`]).
    pub score: Option<f64>,
    /// Whether it was explained to the solution.
    pub solved: bool,
    /// The steps.
    pub steps: Vec<StepRecord>,
    /// Which budget stopped it, if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<&'static str>,
    /// Whether the puzzle has exactly one solution; unknown when a budget stopped the count.
    pub unique: Option<bool>,
}

impl ExplainRecord {
    /// The record of `puzzle`'s explanation, which took `steps`.
    pub fn new(puzzle: &Puzzle, explained: &Explained, steps: Vec<StepRecord>) -> ExplainRecord {
        let stuck = explained.stuck.as_ref();
        ExplainRecord {
            candidates: stuck.map(|state| {
                let mut grid = String::new();
                logic::write_candidates(state, &mut grid);
                grid
            }),
            ending: explained.ending.name(),
            grid: stuck.map(|state| state.grid().to_string()),
            hardest: explained.hardest.clone(),
            label: puzzle.label.clone(),
            line: puzzle.line,
            score: explained.score,
            solved: explained.ending == Ending::Solved,
            steps,
            stopped: match explained.ending {
                Ending::Undecided(stop) => Some(stop.name()),
                _ => None,
            },
            unique: explained.unique,
        }
    }
}
