//! A puzzle's rating: the hardest step of its logical solution, on SE's scale.

use super::{Ending, LogicSolver, Technique};
use crate::sudoku::Grid;

/// What rating a puzzle found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The score of the hardest step, in tenths (SE's scale x 10: 15 is 1.5).
    pub tenths: u16,
    /// The technique of the hardest step (the first of the highest score).
    pub hardest: Technique,
    /// Steps taken, guesses included.
    pub steps: u32,
    /// Guesses among them (0 when logic alone solved it).
    pub guesses: u32,
    /// How the solution ended: [`Ending::Solved`], [`Ending::NoSolution`] for a puzzle
    /// without one (its rating then covers the steps before that was found), or
    /// [`Ending::Stopped`] when [`LogicSolver::rate_up_to`] met a step above its maximum.
    pub ending: Ending,
}

impl Rating {
    /// The score on SE's scale: 1.0 (full houses only) to 11.9 (many guesses).
    pub fn score(&self) -> f64 {
        f64::from(self.tenths) / 10.0
    }
}

impl LogicSolver {
    /// Rates `grid`: solves it logically, guessing (verified) when stuck, and keeps the hardest
    /// step. Allocates nothing per step once the solver's buffers have grown.
    ///
    /// # Panics
    /// If `grid` is not of this solver's shape.
    pub fn rate(&mut self, grid: &Grid) -> Rating {
        self.rate_up_to(grid, u16::MAX)
    }

    /// Rates `grid` as [`LogicSolver::rate`] does, but stops at the first step that scores
    /// more than `max_tenths`: its `ending` is then [`Ending::Stopped`], and `tenths` and
    /// `hardest` are that step's. A generator that wants puzzles up to a score skips the rest
    /// of the solution of a puzzle that is already too hard (and the chains that it needs).
    ///
    /// ```
    /// use quadrille::io::puzzle::parse_line;
    /// use quadrille::logic::{Ending, LogicSolver, Technique};
    ///
    /// let x_wing = parse_line(
    ///     "................12....345........3....6.......71..8......2.6..834.......5..7.....", None)?;
    /// let mut solver = LogicSolver::new(x_wing.shape());
    /// let easy_only = solver.rate_up_to(&x_wing, 30);
    /// assert_eq!((easy_only.ending, easy_only.hardest), (Ending::Stopped, Technique::XWing));
    /// assert_eq!(solver.rate_up_to(&x_wing, 32).ending, Ending::Solved);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Panics
    /// If `grid` is not of this solver's shape.
    pub fn rate_up_to(&mut self, grid: &Grid, max_tenths: u16) -> Rating {
        let mut rating = Rating {
            tenths: 0,
            hardest: Technique::FullHouse,
            steps: 0,
            guesses: 0,
            ending: Ending::Solved,
        };
        rating.ending = self.solve_with(grid, true, |_, step| {
            rating.steps += 1;
            if step.technique() == Technique::Guess {
                rating.guesses += 1;
            }
            if step.tenths() > rating.tenths {
                rating.tenths = step.tenths();
                rating.hardest = step.technique();
            }
            step.tenths() <= max_tenths
        });
        rating
    }
}

/// Rates a puzzle; see [`LogicSolver::rate`] (which keeps its buffers across puzzles).
///
/// ```
/// use quadrille::io::puzzle::parse_line;
/// use quadrille::logic::{Technique, rate};
///
/// let easy = parse_line("1.34341221..4321", None)?;
/// let rating = rate(&easy);
/// assert_eq!((rating.hardest, rating.score(), rating.steps), (Technique::FullHouse, 1.0, 3));
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn rate(grid: &Grid) -> Rating {
    LogicSolver::new(grid.shape()).rate(grid)
}
