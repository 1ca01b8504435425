//! [`GenerateRequest`]: puzzles from a seed, asked the same way by `quadrille generate` and by
//! Python's `generate`, checked here (what each kind of puzzle takes, the givens it can have)
//! and made here: in seed order, on a pool of threads, each thread keeping a generator (and
//! its solvers) from one puzzle to the next.

use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::check::{self, Field, Invalid};
use super::on_threads;
use crate::budget::Budget;
use crate::engine::Engine;
use crate::error::{ErrorKind, Result};
use crate::exact_cover::DEFAULT_MEMORY;
use crate::generate::{
    CheckStats, Generated, Generator, Minimality, Order, Progress, Symmetry, UniformGrids,
    random_contradictory, random_puzzle, rated_within_on,
};
use crate::logic::{self, Difficulty, Rating, Scale};
use crate::runner::{self, WithinChunk};
use crate::sudoku::variant::Variant;
use crate::sudoku::{Grid, Shape};

/// Puzzles made together: enough to keep every thread busy, few enough to print early.
const CHUNK: usize = 256;

/// The most puzzles [`GenerateRequest::collect`] makes: they are all held until the last is
/// made and answered at once (a page's reply), so a collected run is short; a run handed to a
/// sink ([`GenerateRequest::run`]) has no such bound.
pub const MAX_COLLECTED: usize = 50;

/// What to make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    /// Exactly one solution; givens removed while it stays so.
    #[default]
    Unique,
    /// Random givens of a valid grid: one or more solutions.
    Random,
    /// Well formed but without solution.
    Contradictory,
}

impl Kind {
    /// `unique`, `random` or `contradictory`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Unique => "unique",
            Kind::Random => "random",
            Kind::Contradictory => "contradictory",
        }
    }

    /// The givens this kind of puzzle can have on `shape`, as `random_contradictory` and the
    /// other generators document them; `None` when it cannot be made at all on the shape
    /// (that error is the generator's to give).
    fn givens(self, shape: Shape) -> Option<RangeInclusive<usize>> {
        let (n, cells) = (shape.size(), shape.cell_count());
        match self {
            Kind::Unique | Kind::Random => Some(0..=cells),
            Kind::Contradictory if n < 2 => None,
            // X, the cell of digit d in Y's row and the one in Y's box are emptied; when a box
            // is one row or one column, the box's is one of the other two.
            Kind::Contradictory if shape.box_rows() == 1 || shape.box_cols() == 1 => {
                Some(n..=cells - 2)
            }
            Kind::Contradictory => Some(n..=cells - 3),
        }
    }
}

impl std::str::FromStr for Kind {
    type Err = Invalid;

    fn from_str(name: &str) -> std::result::Result<Kind, Invalid> {
        match name {
            "unique" => Ok(Kind::Unique),
            "random" => Ok(Kind::Random),
            "contradictory" => Ok(Kind::Contradictory),
            other => Err(Invalid::new(
                Field::Kind,
                format!("'{other}' is not unique, random or contradictory"),
            )),
        }
    }
}

/// A band of scores on a rating scale, in tenths, from its ends (either may be left open):
/// each end from 0 to 1000, the low one not above the high one.
///
/// ```
/// use quadrille::request::score_band;
///
/// assert_eq!(score_band(Some(2.6), Some(4.0)), Ok(26..=40));
/// assert_eq!(score_band(Some(6.5), None), Ok(65..=u16::MAX));
/// assert!(score_band(Some(4.0), Some(2.0)).is_err());
/// ```
pub fn score_band(
    low: Option<f64>,
    high: Option<f64>,
) -> std::result::Result<RangeInclusive<u16>, Invalid> {
    let tenths = |end: Option<f64>, open: u16| match end {
        None => Ok(open),
        Some(score) if (0.0..=1000.0).contains(&score) => Ok((score * 10.0).round() as u16),
        Some(score) => Err(Invalid::new(
            Field::Score,
            format!("{score} is not a score from 0 to 1000"),
        )),
    };
    let (low, high) = (tenths(low, 0)?, tenths(high, u16::MAX)?);
    if low > high {
        return Err(Invalid::new(
            Field::Score,
            "the band is empty: its low end is above its high end",
        ));
    }
    Ok(low..=high)
}

/// Puzzles from seeds `seed`, `seed + 1`, ...: the request of `quadrille generate` and of
/// Python's `generate`. Puzzle i depends on its seed alone, never on the threads.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateRequest {
    /// The box shape.
    pub shape: Shape,
    /// How many puzzles.
    pub count: usize,
    /// The seed of the first puzzle.
    pub seed: u64,
    /// What to make.
    pub kind: Kind,
    /// Unique puzzles stop blanking at this many givens; other kinds keep exactly this many
    /// (a third of the cells when neither this nor `blanks` is given).
    pub givens: Option<usize>,
    /// The same as `givens` = cells - `blanks`.
    pub blanks: Option<usize>,
    /// Random puzzles: draw each grid exactly uniformly, from the diagram of every grid.
    pub uniform: bool,
    /// With `uniform`: the most bytes the diagram of every grid may take, with what builds
    /// it and what draws from it ([`UniformGrids::new`]).
    pub memory: usize,
    /// Unique puzzles: the symmetry of the givens (the shape's default when `None`).
    pub symmetry: Option<Symmetry>,
    /// Unique puzzles: the minimality to prove.
    pub minimal: Option<Minimality>,
    /// Unique puzzles: nodes per uniqueness search and time per puzzle; its interrupt stops
    /// the whole request.
    pub budget: Budget,
    /// Unique puzzles: attempts per puzzle before giving up on it.
    pub attempts: u64,
    /// Unique puzzles: the engine of the uniqueness searches.
    pub engine: Option<Engine>,
    /// Unique puzzles of this level of the rating scale.
    pub difficulty: Option<Difficulty>,
    /// Unique puzzles whose score lies in this band (tenths, [`score_band`]).
    pub score: Option<RangeInclusive<u16>>,
    /// The rating scale of `difficulty`, `score` and `rate`.
    pub scale: Scale,
    /// Rate every unique puzzle.
    pub rate: bool,
    /// Threads (0: one per core).
    pub threads: usize,
}

impl GenerateRequest {
    /// Ten unique puzzles of `shape` from seed 1, as `quadrille generate` makes them.
    pub fn new(shape: Shape) -> GenerateRequest {
        GenerateRequest {
            shape,
            count: 10,
            seed: 1,
            kind: Kind::Unique,
            givens: None,
            blanks: None,
            uniform: false,
            memory: DEFAULT_MEMORY,
            symmetry: None,
            minimal: None,
            budget: Budget::unlimited(),
            attempts: Order::DEFAULT_ATTEMPTS,
            engine: None,
            difficulty: None,
            score: None,
            scale: Scale::default(),
            rate: false,
            threads: 0,
        }
    }
}

/// One puzzle made; serialised, it is `quadrille generate --json`'s object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PuzzleRecord {
    /// The puzzle, one line.
    pub puzzle: String,
    /// Its box shape, `RxC`: the line's length alone reads a 4x2 puzzle as 2x4, which is
    /// then another puzzle, and often has no solution.
    #[serde(rename = "box")]
    pub boxes: String,
    /// Its variant, as `--variant` names it: the rules a record's puzzle is solved by.
    pub variant: &'static str,
    /// Its givens.
    pub givens: usize,
    /// The seed it was made from.
    pub seed: u64,
    /// A unique puzzle's symmetry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<&'static str>,
    /// A unique puzzle's proved minimality (`givens`, `orbits`, or none proved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimal: Option<Option<&'static str>>,
    /// The attempt of the seed's stream that made a unique puzzle, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempt: Option<u64>,
    /// A unique puzzle's solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// A unique puzzle's rating, when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingRecord>,
    /// The puzzle.
    #[serde(skip)]
    pub grid: Grid,
    /// What a unique puzzle's generation knows.
    #[serde(skip)]
    pub made: Option<Generated>,
}

/// A rating in a [`PuzzleRecord`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatingRecord {
    /// The score on the scale.
    pub score: f64,
    /// Its level.
    pub difficulty: &'static str,
    /// The hardest technique.
    pub hardest: &'static str,
    /// Steps to the solution.
    pub steps: u32,
    /// Guesses on the way.
    pub guesses: u32,
}

impl RatingRecord {
    fn of(rating: &Rating) -> RatingRecord {
        RatingRecord {
            score: rating.score(),
            difficulty: Difficulty::of(rating.tenths).name(),
            hardest: rating.hardest.name(),
            steps: rating.steps,
            guesses: rating.guesses,
        }
    }
}

/// What a request's puzzles given up cost (their attempts all failed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GivenUp {
    /// The uniqueness checks of their attempts.
    pub checks: CheckStats,
}

impl GenerateRequest {
    /// Checks the request: what each kind takes, and the givens it can have on the shape.
    /// Returns the givens asked for (by `givens`, or `blanks` as their complement).
    pub fn check(&self) -> std::result::Result<Option<usize>, Invalid> {
        check::threads(self.threads)?;
        check::node_budget(self.budget.nodes)?;
        let kind = self.kind.name();
        if self.kind != Kind::Unique {
            let unique_only = [
                (Field::Symmetry, self.symmetry.is_some()),
                (Field::Minimal, self.minimal.is_some()),
                (Field::NodeBudget, self.budget.nodes.is_some()),
                (Field::Engine, self.engine.is_some()),
                (Field::TimeBudget, self.budget.time.is_some()),
                (Field::Difficulty, self.difficulty.is_some()),
                (Field::Score, self.score.is_some()),
                (Field::Rate, self.rate),
            ];
            if let Some((field, _)) = unique_only.iter().find(|(_, set)| *set) {
                return Err(Invalid::new(
                    *field,
                    format!("only unique puzzles take it, and these are {kind}"),
                ));
            }
        }
        if self.uniform && self.kind != Kind::Random {
            return Err(Invalid::new(
                Field::Uniform,
                format!("it draws the grids of random puzzles, and these are {kind}"),
            ));
        }
        if self.difficulty.is_some() && self.score.is_some() {
            return Err(Invalid::new(
                Field::Score,
                "give a difficulty or a score band, not both",
            ));
        }
        if self.attempts == 0 {
            return Err(Invalid::new(Field::Attempts, "must be 1 or more"));
        }
        let (n, cells) = (self.shape.size(), self.shape.cell_count());
        let range = self.kind.givens(self.shape);
        let givens = match (self.givens, self.blanks) {
            (Some(_), Some(_)) => {
                return Err(Invalid::new(
                    Field::Givens,
                    "give the givens or the blanks, not both",
                ));
            }
            (Some(givens), None) => match range {
                Some(range) if !range.contains(&givens) => {
                    return Err(Invalid::new(
                        Field::Givens,
                        format!(
                            "a {kind} {n}x{n} puzzle has from {} to {} givens, not {givens}",
                            range.start(),
                            range.end()
                        ),
                    ));
                }
                _ => Some(givens),
            },
            (None, Some(blanks)) => {
                let range = range.unwrap_or(0..=cells);
                match cells.checked_sub(blanks) {
                    Some(givens) if range.contains(&givens) => Some(givens),
                    _ => {
                        return Err(Invalid::new(
                            Field::Blanks,
                            format!(
                                "a {kind} {n}x{n} puzzle has from {} to {} blanks, not {blanks}",
                                cells - range.end(),
                                cells - range.start()
                            ),
                        ));
                    }
                }
            }
            (None, None) => None,
        };
        if self.minimal.is_some() && givens.is_some() {
            let field = match self.givens {
                Some(_) => Field::Givens,
                None => Field::Blanks,
            };
            return Err(Invalid::new(
                field,
                "a minimal puzzle has as few givens as uniqueness allows: leave this out, or the minimality",
            ));
        }
        Ok(givens)
    }

    /// The request within `budget`, where its kind takes one: unique puzzles take it whole,
    /// the other kinds (which take no budget) only its interrupt, so that a front end's cap
    /// still stops them.
    pub fn capped(self, budget: Budget) -> GenerateRequest {
        let budget = match self.kind {
            Kind::Unique => budget,
            _ => Budget {
                interrupt: budget.interrupt,
                ..Budget::unlimited()
            },
        };
        GenerateRequest { budget, ..self }
    }

    /// Makes the puzzles ([`GenerateRequest::run`]) and keeps them, each a record or the
    /// error of a seed given up on: from 1 to [`MAX_COLLECTED`] puzzles.
    ///
    /// ```
    /// use quadrille::request::{GenerateRequest, MAX_COLLECTED};
    /// use quadrille::sudoku::Shape;
    ///
    /// let request = GenerateRequest { count: 2, threads: 1, ..GenerateRequest::new(Shape::new(2, 2)?) };
    /// let made = request.collect()?;
    /// assert_eq!(made.len(), 2);
    /// let too_many = GenerateRequest { count: MAX_COLLECTED + 1, ..request };
    /// assert!(too_many.collect().unwrap_err().to_string().starts_with("count: "));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn collect(&self) -> Result<Vec<Result<PuzzleRecord>>> {
        if !(1..=MAX_COLLECTED).contains(&self.count) {
            let message = format!("from 1 to {MAX_COLLECTED} puzzles, not {}", self.count);
            return Err(Invalid::new(Field::Count, message).into());
        }
        let mut made = Vec::new();
        self.run(None, &mut |record| {
            made.push(record);
            Ok(())
        })?;
        Ok(made)
    }

    /// Makes the puzzles on a pool of [`threads`](GenerateRequest::threads) threads and hands
    /// each to `each` in seed order: a record, or the error of a seed whose attempts all failed
    /// ([`ErrorKind::GaveUp`]); `each` may stop the run with an error of its own. Unique
    /// puzzles report their thinning to `progress` if one is given.
    ///
    /// # Errors
    /// The request's [`Invalid`] field, a diagram too large for a uniform draw, an error of
    /// `each`, or any other error of the generator.
    ///
    /// ```
    /// use quadrille::request::{GenerateRequest, Kind};
    /// use quadrille::sudoku::Shape;
    ///
    /// let request = GenerateRequest { count: 3, kind: Kind::Random, threads: 1, ..GenerateRequest::new(Shape::new(2, 2)?) };
    /// let mut seeds = Vec::new();
    /// request.run(None, &mut |made| {
    ///     seeds.push(made?.seed);
    ///     Ok(())
    /// })?;
    /// assert_eq!(seeds, [1, 2, 3]);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn run(
        &self,
        progress: Option<Arc<Progress>>,
        each: &mut (dyn FnMut(Result<PuzzleRecord>) -> Result<()> + Send),
    ) -> Result<GivenUp> {
        let givens = self.check()?;
        let shape = self.shape;
        let cells = shape.cell_count();
        let order = Order {
            symmetry: self.symmetry.unwrap_or(Symmetry::default_for(shape)),
            minimal: self.minimal.unwrap_or_default(),
            nodes: self.budget.nodes,
            min_givens: givens.unwrap_or(0),
            attempts: self.attempts,
            time: self.budget.time,
            engine: self.engine,
            ..Order::new(shape)
        };
        // The diagram of every grid, built once for every puzzle.
        let uniform = match self.uniform {
            true => Some(UniformGrids::new(shape, self.memory)?),
            false => None,
        };
        let band = self
            .score
            .clone()
            .or_else(|| self.difficulty.map(Difficulty::tenths));
        let judge = |made: &Generated| -> Option<Option<Rating>> {
            match &band {
                Some(band) => rated_within_on(self.scale, band.clone())(made).map(Some),
                None => Some(self.rate.then(|| {
                    logic::with_thread_solver(shape, self.scale, |solver| {
                        solver.rate_unique_up_to(&made.puzzle, &made.solution, u16::MAX)
                    })
                })),
            }
        };
        // One generator per thread at a time: its solvers are built once, not per puzzle.
        let generators: Mutex<Vec<Generator>> = Mutex::new(Vec::new());
        let given_up = Mutex::new(GivenUp::default());
        let make = |i: usize| -> Result<PuzzleRecord> {
            let seed = self.seed.wrapping_add(i as u64);
            let (grid, made, rating) = match self.kind {
                Kind::Unique => {
                    let spare = generators.lock().map(|mut g| g.pop()).unwrap_or(None);
                    let mut generator = match spare {
                        Some(generator) => generator,
                        None => {
                            let mut generator = Generator::new(&order)?;
                            if let Some(interrupt) = self.budget.interrupt {
                                generator.interrupted_by(interrupt);
                            }
                            if let Some(progress) = &progress {
                                generator.report_to(Arc::clone(progress));
                            }
                            generator
                        }
                    };
                    let made = generator.generate(seed, judge);
                    if made.is_err()
                        && let Ok(mut given_up) = given_up.lock()
                    {
                        given_up.checks.add(&generator.stats());
                    }
                    if let Ok(mut spare) = generators.lock() {
                        spare.push(generator);
                    }
                    let (made, rating) = made?;
                    (made.puzzle.clone(), Some(made), rating)
                }
                Kind::Random => {
                    let givens = givens.unwrap_or(cells / 3);
                    let grid = match &uniform {
                        Some(grids) => grids.puzzle(seed, givens),
                        None => random_puzzle(shape, seed, givens),
                    };
                    (grid, None, None)
                }
                Kind::Contradictory => (
                    random_contradictory(shape, seed, givens.unwrap_or(cells / 3))?,
                    None,
                    None,
                ),
            };
            Ok(PuzzleRecord {
                puzzle: grid.to_string(),
                boxes: shape.to_string(),
                variant: Variant::Classic.name(),
                givens: grid.givens(),
                seed,
                symmetry: made.as_ref().map(|m| m.symmetry.name()),
                minimal: made.as_ref().map(|m| match m.minimal {
                    Minimality::Any => None,
                    proved => Some(proved.name()),
                }),
                attempt: made.as_ref().map(|m| m.attempt),
                solution: made.as_ref().map(|m| m.solution.to_string()),
                rating: rating.as_ref().map(RatingRecord::of),
                grid,
                made,
            })
        };
        on_threads(self.threads, || {
            runner::run_in_order(0..self.count, CHUNK, WithinChunk::Parallel, make, |made| {
                match made {
                    Err(err) if !matches!(err.kind(), ErrorKind::GaveUp { .. }) => Err(err),
                    made => each(made),
                }
            })
        })??;
        Ok(given_up.into_inner().unwrap_or_default())
    }
}
