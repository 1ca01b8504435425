//! Puzzles to order: a symmetry of the givens, minimality, and any test of the finished
//! puzzle (a difficulty, a score), retried over a seeded stream of attempts within a budget.
//!
//! **One attempt** takes a random full grid as the solution S (see `random_solution`), shuffles the
//! orbits of the [`Symmetry`] and tries to remove each orbit's givens in that order, keeping
//! the removal when the puzzle stays unique (see `uniqueness.rs` for how that is proved cheaply from
//! S). This is QQWing's method (and Sudoku Explainer's): with a symmetry, whole orbits go or
//! stay, so the pattern of givens keeps the symmetry, and the result is *minimal per orbit*:
//! no orbit of givens can be removed without losing uniqueness. (Removing orbits can only make
//! uniqueness harder, so an orbit that could not go at some point can never go later: one pass
//! is enough.)
//!
//! **Minimal, per orbit or per given.** [`Minimality::Orbits`] asks for what the established
//! generators give (QQWing, HoDoKu and Sudoku Explainer all remove symmetric orbits so), but
//! proved: every check of the thinning decided, so that no orbit can go. That is the usual
//! meaning of minimal (no single given can be removed) when the symmetry is `none`, where
//! every orbit is one cell. With a symmetry, a puzzle can be minimal per orbit while one given
//! of a pair could still go alone (which would break the symmetry): [`Minimality::Givens`]
//! then checks each given of a larger orbit alone, and where one could go it repairs the
//! puzzle (swaps that orbit for another and thins again, see `strict.rs`) up to 50 times
//! before it drops the attempt, so that its puzzles are both symmetric and minimal in the
//! usual sense. On 9x9 with `rot180` only about one orbit-minimal puzzle in 55 is minimal per
//! given as thinned; with the repairs a puzzle takes about 2 attempts instead of 55.
//!
//! **To order.** [`generate_to_order`] hands each finished puzzle to a judge, a closure that
//! returns `Some(verdict)` to accept it (the verdict, a rating say, comes back with it) or
//! `None` to try the next attempt, up to [`Order::attempts`] attempts or [`Order::time`].
//! Attempts draw from one random stream seeded by the puzzle's seed, so the same seed gives
//! the same puzzle whatever runs beside it; the time limit only decides when to give up, never
//! what an attempt makes.

use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64;

use super::progress::Progress;
use super::strict::Repairer;
use super::uniqueness::{CheckStats, Checker, Verdict};
use super::{
    Symmetry, UNIQUENESS_LARGE_NODES, UNIQUENESS_MIN_NODES, UNIQUENESS_NODES_PER_CELL,
    UNIQUENESS_PER_CELL_UP_TO, random_grid_with,
};
use crate::budget::{Budget, Deadline, Interrupt};
use crate::csp;
use crate::engine::{Engine, Solve};
use crate::error::{Error, ErrorKind, Result};
use crate::logic::{self, Ending, Rating, Scale};
use crate::sudoku::{Grid, Shape};

/// What to make: the shape, the symmetry of the givens, whether the puzzle must be minimal,
/// and how hard to try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    /// The shape of the grid.
    pub shape: Shape,
    /// The symmetry of the pattern of givens.
    pub symmetry: Symmetry,
    /// How minimal the puzzle must be, proved (see the module docs).
    pub minimal: Minimality,
    /// Stop removing givens at this many (0: remove all that uniqueness allows). An orbit
    /// whose removal would leave fewer is kept. Must be 0 when a minimal puzzle is asked for.
    pub min_givens: usize,
    /// Attempts before giving up (at least 1).
    pub attempts: u64,
    /// Wall time before giving up, checked between uniqueness checks; `None`: no limit.
    pub time: Option<Duration>,
    /// The engine of the uniqueness searches; `None`: the fastest for the shape
    /// ([`Order::default_engine`]).
    pub engine: Option<Engine>,
    /// Search-tree nodes each uniqueness search may use; `None`: [`Order::default_nodes`].
    pub nodes: Option<u64>,
}

/// How minimal a puzzle made to order must be, proved by its checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Minimality {
    /// Not required: the thinning goes as far as its checks decide; a check that runs out of
    /// budget keeps its orbit.
    #[default]
    Any,
    /// No orbit of givens can be removed without losing uniqueness.
    Orbits,
    /// No single given can be removed without losing uniqueness.
    Givens,
}

impl Minimality {
    /// The name, as `--minimal` takes it (`any` is the flag left out).
    pub fn name(self) -> &'static str {
        match self {
            Minimality::Any => "any",
            Minimality::Orbits => "orbits",
            Minimality::Givens => "givens",
        }
    }
}

impl std::str::FromStr for Minimality {
    type Err = Error;

    fn from_str(name: &str) -> Result<Minimality> {
        match name.trim() {
            "orbits" => Ok(Minimality::Orbits),
            "givens" => Ok(Minimality::Givens),
            _ => Err(Error::new(ErrorKind::UnknownName {
                what: "minimality",
                name: name.to_string(),
                hint: " (expected orbits or givens)".to_string(),
            })),
        }
    }
}

impl Order {
    /// Attempts tried by default before giving up.
    pub const DEFAULT_ATTEMPTS: u64 = 1_000;

    /// An order for `shape`: its default symmetry, not necessarily minimal, as few givens as
    /// uniqueness allows, [`Order::DEFAULT_ATTEMPTS`] attempts and no time limit.
    pub fn new(shape: Shape) -> Order {
        Order {
            shape,
            symmetry: Symmetry::default_for(shape),
            minimal: Minimality::Any,
            min_givens: 0,
            attempts: Order::DEFAULT_ATTEMPTS,
            time: None,
            engine: None,
            nodes: None,
        }
    }

    /// The engine of the uniqueness searches when none is set: the default CSP up to 16x16,
    /// Dancing Links above. Measured on one thread, rot180, minimal per orbit: on 9x9 the CSP
    /// made 2,932 puzzles a second against DLX's 1,968, on 16x16 42 against 33 (`cargo bench
    /// --bench generate`); on 25x25 DLX took 1.4 s a puzzle and the CSP 29 s (`quadrille
    /// generate --box 5x5 -n 2 -j 1 --stats --engine dlx`, then `--engine csp`).
    pub fn default_engine(shape: Shape) -> Engine {
        if shape.size() <= 16 {
            Engine::Csp(crate::csp::Config::default())
        } else {
            Engine::Dlx
        }
    }

    /// The node budget of one uniqueness search when none is set: `UNIQUENESS_NODES_PER_CELL` (50)
    /// per cell, at least `UNIQUENESS_MIN_NODES` (20,000), up to 25x25; a flat
    /// `UNIQUENESS_LARGE_NODES` (5,000) on larger grids.
    pub fn default_nodes(shape: Shape) -> u64 {
        if shape.size() > UNIQUENESS_PER_CELL_UP_TO {
            return UNIQUENESS_LARGE_NODES;
        }
        (UNIQUENESS_NODES_PER_CELL * shape.cell_count() as u64).max(UNIQUENESS_MIN_NODES)
    }
}

/// A puzzle made to order, with what is known about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: exactly one solution, proved.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// The seed it was made from.
    pub seed: u64,
    /// The attempt of that seed's stream that made it, from 1.
    pub attempt: u64,
    /// The symmetry of its givens.
    pub symmetry: Symmetry,
    /// The minimality its checks proved: [`Minimality::Givens`] when no single given can go,
    /// [`Minimality::Orbits`] when no orbit can (and single givens were not all checked, or
    /// one could go), [`Minimality::Any`] when not even that is known (a check ran out of
    /// budget, or the thinning stopped at `min_givens`).
    pub minimal: Minimality,
    /// What the uniqueness checks of every attempt cost.
    pub stats: CheckStats,
}

/// A judge for [`Generator::generate`] that rates each puzzle on Sudoku Explainer's scale
/// (with this thread's [`LogicSolver`](crate::logic::LogicSolver)) and accepts it, with its
/// rating, when logic solves it with a score in `band` (in tenths: `32..=40` is 3.2 to 4.0).
/// The rating stops at the first step above the band, so a puzzle too hard costs little.
///
/// ```
/// use quadrille::generate::{Generator, Order, rated_within};
/// use quadrille::sudoku::Shape;
///
/// let mut generator = Generator::new(&Order::new(Shape::CLASSIC))?;
/// let (made, rating) = generator.generate(3, rated_within(10..=20))?;
/// assert!((10..=20).contains(&rating.tenths));
/// assert_eq!(made.seed, 3);
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn rated_within(band: RangeInclusive<u16>) -> impl FnMut(&Generated) -> Option<Rating> {
    rated_within_on(Scale::Se121, band)
}

/// [`rated_within`] on `scale`.
pub fn rated_within_on(
    scale: Scale,
    band: RangeInclusive<u16>,
) -> impl FnMut(&Generated) -> Option<Rating> {
    move |made| {
        let shape = made.puzzle.shape();
        let rating = logic::with_thread_solver(shape, scale, |solver| {
            solver.rate_unique_up_to(&made.puzzle, &made.solution, *band.end())
        });
        (rating.ending == Ending::Solved && band.contains(&rating.tenths)).then_some(rating)
    }
}

/// Makes a puzzle to `order` from `seed`, accepting the first that `judge` gives a verdict
/// for (`Some`), and returns it with the verdict. Without a judge to satisfy, pass
/// `|_| Some(())`.
///
/// # Errors
/// [`ErrorKind::Unsatisfiable`] when `order` asks for a minimal puzzle with `min_givens` above
/// 0, or for no attempts; [`ErrorKind::GaveUp`] when the attempts or the time ran out before an
/// attempt was accepted (it says how many were made).
///
/// ```
/// use quadrille::generate::{Minimality, Order, Symmetry, generate_to_order};
/// use quadrille::sudoku::Shape;
///
/// let mut order = Order::new(Shape::CLASSIC);
/// order.minimal = Minimality::Orbits;
/// // At most 26 givens, please.
/// let (made, ()) = generate_to_order(&order, 7, |g| (g.puzzle.givens() <= 26).then_some(()))?;
/// assert!(made.puzzle.givens() <= 26);
/// assert!(made.minimal >= Minimality::Orbits);
/// assert!(Symmetry::Rot180.holds(&made.puzzle));
/// // The same seed, the same puzzle.
/// let (again, ()) = generate_to_order(&order, 7, |g| (g.puzzle.givens() <= 26).then_some(()))?;
/// assert_eq!(again, made);
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn generate_to_order<T>(
    order: &Order,
    seed: u64,
    judge: impl FnMut(&Generated) -> Option<T>,
) -> Result<(Generated, T)> {
    Generator::new(order)?.generate(seed, judge)
}

/// A reusable [`generate_to_order`]: the orbits, the solver and the scratch space of one
/// order, built once for many seeds (a batch keeps one per thread). What it makes from a seed
/// does not depend on what it made before.
#[derive(Debug)]
pub struct Generator {
    order: Order,
    orbits: Vec<Vec<usize>>,
    /// Orbit numbers, shuffled at each attempt.
    sequence: Vec<usize>,
    checker: Checker,
    /// Makes orbit-minimal puzzles minimal given by given (see `strict.rs`).
    repairer: Repairer,
    /// Where each check is reported, if anywhere (see [`Generator::report_to`]).
    progress: Option<Arc<Progress>>,
    /// Stops a generation as its time limit does (see [`Generator::interrupted_by`]).
    interrupt: Option<Interrupt>,
}

impl Generator {
    /// A generator for `order`.
    ///
    /// # Errors
    /// [`ErrorKind::Unsatisfiable`] when `order` asks for a minimal puzzle with `min_givens`
    /// above 0, or for no attempts; [`ErrorKind::UnsupportedBoard`] when its engine cannot
    /// solve puzzles of its shape.
    pub fn new(order: &Order) -> Result<Generator> {
        let refuse = |reason| {
            Err(Error::new(ErrorKind::Unsatisfiable {
                what: describe(order),
                reason,
            }))
        };
        if order.minimal > Minimality::Any && order.min_givens > 0 {
            return refuse("a minimal puzzle has as few givens as uniqueness allows, not a floor");
        }
        if order.attempts == 0 {
            return refuse("no attempts are allowed");
        }
        let shape = order.shape;
        let orbits = order.symmetry.orbits(shape.size());
        let engine = order.engine.unwrap_or(Order::default_engine(shape));
        let budget = Budget::nodes(order.nodes.unwrap_or(Order::default_nodes(shape)));
        Ok(Generator {
            order: order.clone(),
            sequence: (0..orbits.len()).collect(),
            repairer: Repairer::new(&orbits, shape.cell_count()),
            orbits,
            checker: {
                let mut checker = Checker::new(shape, engine, budget, order.engine.is_none())?;
                checker.fill_budget = Budget::nodes(Generator::fill_nodes(shape));
                // An undecided check loses a minimal attempt: a larger budget costs less.
                if order.minimal > Minimality::Any {
                    checker.escalation = Checker::ESCALATION;
                }
                checker
            },
            progress: None,
            interrupt: None,
        })
    }

    /// Stops every generation from now on, as its time limit does, once `interrupt` is
    /// raised: between two checks, and within a check's search at its next clock reading.
    pub fn interrupted_by(&mut self, interrupt: Interrupt) {
        self.interrupt = Some(interrupt);
        self.checker.interrupted_by(interrupt);
    }

    /// Reports every attempt and uniqueness check of the thinning to `progress` from now on,
    /// for a display of what a long generation is doing.
    pub fn report_to(&mut self, progress: Arc<Progress>) {
        self.progress = Some(progress);
    }

    /// The node budget of the search that fills the grid an attempt thins, whatever the
    /// checks' budget: `UNIQUENESS_NODES_PER_CELL` (50) per cell, at least
    /// `UNIQUENESS_MIN_NODES` (20,000).
    fn fill_nodes(shape: Shape) -> u64 {
        (UNIQUENESS_NODES_PER_CELL * shape.cell_count() as u64).max(UNIQUENESS_MIN_NODES)
    }

    /// The order it makes puzzles to.
    pub fn order(&self) -> &Order {
        &self.order
    }

    /// What the uniqueness checks of the last [`Generator::generate`] cost, whether it made a
    /// puzzle or gave up (a puzzle made carries the same in [`Generated::stats`]).
    pub fn stats(&self) -> CheckStats {
        self.checker.stats
    }

    /// Makes a puzzle from `seed`, as [`generate_to_order`] does.
    ///
    /// # Errors
    /// [`ErrorKind::GaveUp`] when the attempts or the time ran out before an attempt was
    /// accepted.
    pub fn generate<T>(
        &mut self,
        seed: u64,
        mut judge: impl FnMut(&Generated) -> Option<T>,
    ) -> Result<(Generated, T)> {
        let start = Instant::now();
        let limits = Budget {
            time: self.order.time,
            interrupt: self.interrupt,
            ..Budget::default()
        };
        let deadline = limits.stop_at(start);
        let mut rng = Pcg64::seed_from_u64(seed);
        self.checker.stats = CheckStats::default();
        let mut attempt = 0;
        let mut timed_out = false;
        while attempt < self.order.attempts {
            attempt += 1;
            let Some((puzzle, solution, minimal)) = self.attempt(&mut rng, deadline) else {
                timed_out = true;
                break;
            };
            if minimal < self.order.minimal {
                // Not minimal, perhaps because the deadline cut its checks short.
                if deadline.is_some_and(|d| d.has_passed()) {
                    timed_out = true;
                    break;
                }
                continue;
            }
            let generated = Generated {
                puzzle,
                solution,
                seed,
                attempt,
                symmetry: self.order.symmetry,
                minimal,
                stats: self.checker.stats,
            };
            if let Some(verdict) = judge(&generated) {
                return Ok((generated, verdict));
            }
            if deadline.is_some_and(|d| d.has_passed()) {
                timed_out = true;
                break;
            }
        }
        Err(Error::new(ErrorKind::GaveUp {
            what: format!("{} puzzle from seed {seed}", describe(&self.order)),
            attempts: attempt,
            timed_out,
            seconds: start.elapsed().as_secs_f64(),
        }))
    }
}

/// "a minimal rot180 9x9", for messages.
fn describe(order: &Order) -> String {
    let n = order.shape.size();
    let minimal = match order.minimal {
        Minimality::Any => "",
        Minimality::Orbits => "minimal ",
        Minimality::Givens => "minimal-per-given ",
    };
    format!("acceptable {minimal}{} {n}x{n}", order.symmetry)
}

impl Generator {
    /// Random fillings of the diagonal boxes tried before a pattern grid is used instead.
    const COMPLETION_TRIES: usize = 20;

    /// The largest side whose random diagonal boxes the checker's engine completes; larger
    /// ones are completed by the default CSP. With DLX, on 64x64 none of 20 fillings was
    /// completed within its 204,800 nodes, at 1 to 2.6 s each (seed 1).
    const LARGEST_FILLED_SIDE: usize = 49;

    /// One attempt: the solution, the thinned puzzle and what is known of its minimality;
    /// `None` when the deadline passed first.
    fn attempt(
        &mut self,
        rng: &mut Pcg64,
        deadline: Option<Deadline>,
    ) -> Option<(Grid, Grid, Minimality)> {
        let shape = self.order.shape;
        let solution = self.random_solution(rng, deadline)?;
        if let Some(progress) = &self.progress {
            progress.note_attempt(shape.cell_count());
        }
        let mut puzzle = solution.clone();
        // From the same start every time, so that a seed's puzzle does not depend on what the
        // generator made before.
        for (i, o) in self.sequence.iter_mut().enumerate() {
            *o = i;
        }
        self.sequence.shuffle(rng);
        let mut givens = shape.cell_count();
        let mut tried = 0;
        let mut floor_reached = false;
        let mut undecided = false;
        let strict = self.order.minimal == Minimality::Givens;
        self.repairer.witnesses.clear();
        for &o in &self.sequence {
            let orbit = &self.orbits[o];
            tried += orbit.len();
            if givens - orbit.len() < self.order.min_givens {
                floor_reached = true;
                continue;
            }
            if deadline.is_some_and(|d| d.has_passed()) {
                return None;
            }
            for &cell in orbit {
                puzzle.cells_mut()[cell] = 0;
            }
            let verdict = self.checker.removal(&puzzle, orbit, &solution);
            if let Some(progress) = &self.progress {
                let left = givens - orbit.len() * usize::from(verdict == Verdict::Unique);
                progress.note_check(tried, left, verdict == Verdict::Undecided);
            }
            match verdict {
                Verdict::Unique => givens -= orbit.len(),
                Verdict::Multiple if strict => {
                    self.repairer.witnesses.take(&mut self.checker, &solution);
                    for &cell in orbit {
                        puzzle.cells_mut()[cell] = solution.cells()[cell];
                    }
                }
                Verdict::Undecided if self.order.minimal > Minimality::Any => {
                    // Minimality can no longer be proved: the attempt is lost, stop it now.
                    return Some((puzzle, solution, Minimality::Any));
                }
                verdict => {
                    undecided |= verdict == Verdict::Undecided;
                    for &cell in orbit {
                        puzzle.cells_mut()[cell] = solution.cells()[cell];
                    }
                }
            }
        }
        let single_orbits = self.orbits.iter().all(|orbit| orbit.len() == 1);
        // Every kept orbit failed its own check, and removals only make uniqueness harder.
        let minimal = if floor_reached || undecided {
            Minimality::Any
        } else if single_orbits {
            Minimality::Givens
        } else if self.order.minimal == Minimality::Givens {
            let (checker, orbits) = (&mut self.checker, &self.orbits[..]);
            (self.repairer).make_strict(checker, orbits, &mut puzzle, &solution, rng, deadline)?
        } else {
            Minimality::Orbits
        };
        Some((puzzle, solution, minimal))
    }

    /// The solution of an attempt: random digits in the boxes on the diagonal (band i, stack
    /// i), which share no row or column so that any filling is consistent, completed by the
    /// checker's solver within [`Generator::fill_nodes`]. The pattern grids of
    /// [`random_grid`](super::random_grid) are all equivalent to one grid, and on 9x9 no rot90
    /// puzzle minimal per given came from them in 1,000 attempts; completed diagonals give
    /// grids of every kind. Latin squares keep their near-uniform chain, and sides above
    /// [`Generator::LARGEST_FILLED_SIDE`] are completed by the default CSP. A filling that
    /// cannot be completed within the budget is drawn again, up to
    /// [`Generator::COMPLETION_TRIES`] times, and then a pattern grid is taken.
    fn random_solution(&mut self, rng: &mut Pcg64, deadline: Option<Deadline>) -> Option<Grid> {
        let shape = self.order.shape;
        let (r, c, n) = (shape.box_rows(), shape.box_cols(), shape.size());
        if r == 1 || c == 1 {
            return Some(random_grid_with(shape, rng));
        }
        // Above the largest side the checker's engine fills, the diagonal boxes leave seven
        // eighths of the grid open: the easy end, where the default CSP fills in reading order
        // (an empty 64x64 in 3,344 nodes, docs/performance.md).
        let mut easy_end_filler = (n > Generator::LARGEST_FILLED_SIDE)
            .then(|| csp::CspSolver::new(shape.board(), csp::Config::default()));
        let mut digits: Vec<u8> = (1..=n as u8).collect();
        // A completion that keeps running out of budget (possible on the largest grids) falls
        // back to a pattern grid rather than trying for ever.
        for _ in 0..Generator::COMPLETION_TRIES {
            // An interrupted completion fails at once, and so would the next ones: a 25x25's
            // twenty took 0.6 s to give up (benches/peers/ctrl_c.py).
            if deadline.is_some_and(|d| d.has_passed()) {
                return None;
            }
            let mut grid = Grid::empty(shape);
            for b in 0..r.min(c) {
                digits.shuffle(rng);
                for (k, &digit) in digits.iter().enumerate() {
                    grid.set(b * r + k / c, b * c + k % c, digit);
                }
            }
            let full = match &mut easy_end_filler {
                Some(filler) => {
                    let budget = Budget {
                        interrupt: self.interrupt,
                        ..Budget::nodes(Generator::fill_nodes(shape))
                    };
                    filler.count(&grid, Some(1), &budget).solution
                }
                None => self.checker.fill(&grid),
            };
            if full.is_some() {
                return full;
            }
        }
        Some(random_grid_with(shape, rng))
    }
}
