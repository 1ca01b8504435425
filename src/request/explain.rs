//! [`ExplainRequest`]: a puzzle's solution step by step, always the easiest step left, asked
//! the same way by `quadrille explain` and by Python's `explain`. The front ends draw the
//! steps (text, JSON, SVG, Python objects); what the explanation concludes (its ending, its
//! score and hardest technique, where it got stuck) is decided here.

use super::check;
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
}
