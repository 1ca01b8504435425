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
    /// How the solution ended: [`Ending::Solved`], or [`Ending::NoSolution`] for a puzzle
    /// without one (its rating then covers the steps before that was found).
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
            true
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
