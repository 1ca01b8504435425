//! `generate`: puzzles from a seed, unique (made to order: symmetry, minimality, difficulty),
//! random or contradictory, as `quadrille generate --json` makes them.

use std::ops::RangeInclusive;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quadrille::Interrupt;
use quadrille::generate::{
    Generated, Generator, Minimality, Order, Symmetry, random_contradictory, random_puzzle,
    rated_within_on,
};
use quadrille::logic::{self, Difficulty, Rating};
use quadrille::sudoku::{Grid, Shape};
use rayon::prelude::*;

use crate::args;
use crate::errors::{ErrorText, OrRaise};
use crate::interrupt;

/// Registers the function.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    Ok(())
}

/// What one seed made.
type Made = Result<(Grid, Option<(Generated, Option<Rating>)>), ErrorText>;

/// Makes `n` puzzles from seeds `seed`, `seed + 1`, ... on `threads` threads (0: one per
/// core), as `quadrille generate --json` does: one dict per puzzle, in seed order, with
/// `puzzle`, `givens` and `seed`, and for unique puzzles `solution`, `symmetry`, `minimal`,
/// `attempt` and (with `rate`, `difficulty` or `score`) `rating`.
///
/// `kind` is "unique", "random" or "contradictory"; `givens` or `blanks` set their number
/// (a third of the cells by default for random and contradictory puzzles). For unique
/// puzzles: `symmetry` (none, rotational, diagonal, ...), `minimal` ("givens" or "orbits"),
/// `difficulty` (easy, medium, hard, expert, extreme) or `score` (a (min, max) pair) on the
/// rating `scale` ("se121" or "sukaku", as `rate` takes it), `attempts`, `node_budget` and `time_budget` per puzzle, and the `engine` of the
/// uniqueness checks. A seed whose attempts all fail raises QuadrilleError.
#[pyfunction]
#[pyo3(signature = (n = 10, *, r#box = "3x3", seed = 1, kind = "unique", givens = None, blanks = None, symmetry = None, minimal = None, difficulty = None, score = None, scale = "se121", rate = false, attempts = Order::DEFAULT_ATTEMPTS, node_budget = None, time_budget = None, engine = None, threads = 0))]
#[pyo3(
    text_signature = "(n=10, *, box='3x3', seed=1, kind='unique', givens=None, blanks=None, symmetry=None, minimal=None, difficulty=None, score=None, scale='se121', rate=False, attempts=1000, node_budget=None, time_budget=None, engine=None, threads=0)"
)]
#[allow(clippy::too_many_arguments)]
fn generate<'py>(
    py: Python<'py>,
    n: usize,
    r#box: &str,
    seed: u64,
    kind: &str,
    givens: Option<usize>,
    blanks: Option<usize>,
    symmetry: Option<&str>,
    minimal: Option<&str>,
    difficulty: Option<&str>,
    score: Option<(f64, f64)>,
    scale: &str,
    rate: bool,
    attempts: u64,
    node_budget: Option<u64>,
    time_budget: Option<f64>,
    engine: Option<&str>,
    threads: usize,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let shape: Shape = r#box.parse().or_raise()?;
    let scale = crate::logic::scale_named(scale)?;
    let cells = shape.cell_count();
    let givens = match (givens, blanks) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "givens and blanks: give one or the other",
            ));
        }
        (Some(g), None) if g > cells => {
            return Err(PyValueError::new_err(format!(
                "givens: a {0}x{0} puzzle has from 0 to {cells} givens",
                shape.size()
            )));
        }
        (None, Some(b)) => Some(cells.checked_sub(b).ok_or_else(|| {
            PyValueError::new_err(format!(
                "blanks: a {0}x{0} puzzle has from 0 to {cells} blanks",
                shape.size()
            ))
        })?),
        (g, None) => g,
    };
    let band = match (difficulty, score) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "difficulty and score: give one or the other",
            ));
        }
        (Some(name), None) => Some(
            name.parse::<Difficulty>()
                .map_err(PyValueError::new_err)?
                .tenths(),
        ),
        (None, Some((low, high))) if (0.0..=1000.0).contains(&low) && low <= high => {
            Some((low * 10.0).round() as u16..=(high.min(6553.5) * 10.0).round() as u16)
        }
        (None, Some((low, high))) => {
            return Err(PyValueError::new_err(format!(
                "score: ({low}, {high}) is not a range of scores from 0 up"
            )));
        }
        (None, None) => None,
    };
    let unique = match kind {
        "unique" => true,
        "random" | "contradictory" => {
            let unique_only = [
                ("symmetry", symmetry.is_some()),
                ("minimal", minimal.is_some()),
                ("difficulty", difficulty.is_some()),
                ("score", score.is_some()),
                ("node_budget", node_budget.is_some()),
                ("time_budget", time_budget.is_some()),
                ("engine", engine.is_some()),
            ];
            if let Some((name, _)) = unique_only.iter().find(|(_, set)| *set) {
                return Err(PyValueError::new_err(format!(
                    "{name} is for unique puzzles, not kind=\"{kind}\""
                )));
            }
            false
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "kind: '{other}' is not unique, random or contradictory"
            )));
        }
    };
    let budget = args::budget(node_budget, time_budget)?;
    let order = Order {
        symmetry: match symmetry {
            Some(name) => name.parse::<Symmetry>().or_raise()?,
            None => Symmetry::default_for(shape),
        },
        minimal: match minimal {
            Some(name) => name.parse::<Minimality>().or_raise()?,
            None => Minimality::default(),
        },
        nodes: budget.nodes,
        min_givens: givens.unwrap_or(0),
        attempts,
        time: budget.time,
        engine: engine.map(args::engine).transpose()?,
        ..Order::new(shape)
    };
    let threads = args::threads(threads)?;
    let contradictory = kind == "contradictory";
    let make = |i: usize, interrupt: Interrupt| -> Made {
        let seed = seed.wrapping_add(i as u64);
        if !unique {
            let puzzle = if contradictory {
                random_contradictory(shape, seed, givens.unwrap_or(cells / 3))
                    .map_err(|e| ErrorText::of(&e))?
            } else {
                random_puzzle(shape, seed, givens.unwrap_or(cells / 3))
            };
            return Ok((puzzle, None));
        }
        let mut generator = Generator::new(&order).map_err(|e| ErrorText::of(&e))?;
        generator.interrupted_by(interrupt);
        let judge = |made: &Generated| match &band {
            Some(band) => rated_within_on(scale, RangeInclusive::clone(band))(made).map(Some),
            None => Some(rate.then(|| {
                logic::with_thread_solver(shape, scale, |solver| {
                    solver.rate_unique_up_to(&made.puzzle, &made.solution, u16::MAX)
                })
            })),
        };
        let (made, rating) = generator
            .generate(seed, judge)
            .map_err(|e| ErrorText::of(&e))?;
        Ok((made.puzzle.clone(), Some((made, rating))))
    };
    let made: Vec<Made> = interrupt::run(py, |interrupt| {
        args::on_threads(threads, || {
            (0..n).into_par_iter().map(|i| make(i, interrupt)).collect()
        })
    })?
    .or_raise()?;
    made.into_iter()
        .enumerate()
        .map(|(i, made)| {
            let (puzzle, extra) = made.map_err(ErrorText::raise)?;
            let d = PyDict::new(py);
            d.set_item("puzzle", puzzle.to_string())?;
            d.set_item("givens", puzzle.givens())?;
            d.set_item("seed", seed.wrapping_add(i as u64))?;
            if let Some((made, rating)) = extra {
                d.set_item("symmetry", made.symmetry.name())?;
                d.set_item(
                    "minimal",
                    (made.minimal != Minimality::Any).then(|| made.minimal.name()),
                )?;
                d.set_item("attempt", made.attempt)?;
                d.set_item("solution", made.solution.to_string())?;
                if let Some(rating) = rating {
                    let r = PyDict::new(py);
                    r.set_item("score", rating.score())?;
                    r.set_item("difficulty", Difficulty::of(rating.tenths).name())?;
                    r.set_item("hardest", rating.hardest.name())?;
                    r.set_item("steps", rating.steps)?;
                    r.set_item("guesses", rating.guesses)?;
                    d.set_item("rating", r)?;
                }
            }
            Ok(d)
        })
        .collect()
}
