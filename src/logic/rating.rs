//! A puzzle's rating: the hardest step of its logical solution, on SE's scale.

use super::{Ending, LogicSolver, Technique};
use crate::Budget;
use crate::sudoku::Grid;

/// The difficulty levels that `generate --difficulty` takes, each a band of SE's scale chosen
/// at the boundaries between technique families, so that a level says what a solver needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    /// 1.0-1.5: full houses and hidden singles.
    Easy,
    /// 1.6-2.5: naked singles and the direct techniques (a step that leaves a hidden single).
    Medium,
    /// 2.6-4.0: locked candidates, pairs and triples, X-wing, swordfish.
    Hard,
    /// 4.1-6.4: XY- and XYZ-wings, unique rectangles, quads, jellyfish, BUG+1.
    Expert,
    /// 6.5 and up: chains, forcing chains, and guesses where the solver's techniques end.
    Extreme,
}

impl Difficulty {
    /// Every level, easiest first.
    pub const ALL: [Difficulty; 5] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
        Difficulty::Extreme,
    ];

    /// The level's name, as `--difficulty` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
            Difficulty::Extreme => "extreme",
        }
    }

    /// The level's band of scores, in tenths (SE's scale x 10), both ends included.
    ///
    /// ```
    /// use quadrille::logic::Difficulty;
    ///
    /// assert_eq!(Difficulty::Hard.tenths(), 26..=40);
    /// // The bands meet without gap or overlap.
    /// for pair in Difficulty::ALL.windows(2) {
    ///     assert_eq!(pair[0].tenths().end() + 1, *pair[1].tenths().start());
    /// }
    /// ```
    pub fn tenths(self) -> std::ops::RangeInclusive<u16> {
        match self {
            Difficulty::Easy => 10..=15,
            Difficulty::Medium => 16..=25,
            Difficulty::Hard => 26..=40,
            Difficulty::Expert => 41..=64,
            Difficulty::Extreme => 65..=u16::MAX,
        }
    }

    /// The level of a score in tenths.
    pub fn of(tenths: u16) -> Difficulty {
        Difficulty::ALL
            .into_iter()
            .find(|level| level.tenths().contains(&tenths))
            .unwrap_or(Difficulty::Easy)
    }
}

impl std::str::FromStr for Difficulty {
    type Err = String;

    fn from_str(name: &str) -> Result<Difficulty, String> {
        Difficulty::ALL
            .into_iter()
            .find(|level| level.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!("unknown difficulty '{name}': easy, medium, hard, expert or extreme")
            })
    }
}

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
    /// [`Ending::Stopped`] when [`LogicSolver::rate_up_to`] met a step above its maximum,
    /// [`Ending::Undecided`] when [`LogicSolver::rate_within`]'s budget ran out (then
    /// `tenths` and `hardest` are only those of the steps before, no rating of the puzzle).
    pub ending: Ending,
    /// Whether the puzzle is proved to have exactly one solution: `false` for none or several
    /// (which Sudoku Explainer would refuse, and which get no rating), or when a budget
    /// stopped the count. See [`LogicSolver::found_unique`].
    pub unique: bool,
}

impl Rating {
    /// The score on SE's scale: 1.0 (full houses only) to 12.9 (many guesses; a first guess is 12.0).
    pub fn score(&self) -> f64 {
        f64::from(self.tenths) / 10.0
    }
}

impl LogicSolver {
    /// Rates `grid`: solves it logically, guessing (verified) when stuck, and keeps the hardest
    /// step. On SE 1.2.1's scale it allocates nothing per step once the solver's buffers have
    /// grown; Sukaku's own techniques build small lists as they search.
    ///
    /// # Panics
    /// If `grid` is not of this solver's side.
    pub fn rate(&mut self, grid: &Grid) -> Rating {
        self.rate_up_to(grid, u16::MAX)
    }

    /// [`LogicSolver::rate`] within `budget` (see [`LogicSolver::solve_within`]): a budget
    /// that runs out leaves the rating [`Ending::Undecided`].
    ///
    /// ```
    /// use quadrille::{Budget, Stop};
    /// use quadrille::io::puzzle::parse_line;
    /// use quadrille::logic::{Ending, LogicSolver};
    ///
    /// let x_wing = parse_line(
    ///     "................12....345........3....6.......71..8......2.6..834.......5..7.....", None)?;
    /// let mut solver = LogicSolver::new(x_wing.shape());
    /// // A node is a step, a chain start, a forcing assumption or a node of the count.
    /// let cut = solver.rate_within(&x_wing, &Budget::nodes(20));
    /// assert_eq!(cut.ending, Ending::Undecided(Stop::NodeBudget));
    /// assert_eq!(solver.rate_within(&x_wing, &Budget::unlimited()), solver.rate(&x_wing));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Panics
    /// If `grid` is not of this solver's side.
    pub fn rate_within(&mut self, grid: &Grid, budget: &Budget) -> Rating {
        self.rate_known(grid, None, u16::MAX, budget)
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
    /// If `grid` is not of this solver's side.
    pub fn rate_up_to(&mut self, grid: &Grid, max_tenths: u16) -> Rating {
        self.rate_known(grid, None, max_tenths, &Budget::unlimited())
    }

    /// [`LogicSolver::rate_up_to`] of a puzzle whose one solution the caller knows (a
    /// generator's), which spares the count that would prove it.
    ///
    /// # Panics
    /// If `grid` or `solution` is not of this solver's side.
    pub fn rate_unique_up_to(&mut self, grid: &Grid, solution: &Grid, max_tenths: u16) -> Rating {
        self.rate_known(grid, Some(solution), max_tenths, &Budget::unlimited())
    }

    fn rate_known(
        &mut self,
        grid: &Grid,
        solution: Option<&Grid>,
        max_tenths: u16,
        budget: &Budget,
    ) -> Rating {
        let mut rating = Rating {
            tenths: 0,
            hardest: Technique::FullHouse,
            steps: 0,
            guesses: 0,
            ending: Ending::Solved,
            unique: true,
        };
        rating.ending = self.solve_known(grid, solution, true, budget, |_, step| {
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
        rating.unique = self.found_unique();
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
