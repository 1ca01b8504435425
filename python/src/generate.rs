//! `generate`: puzzles from a seed, unique (made to order: symmetry, minimality, difficulty),
//! random or contradictory, as `quadrille generate --json` makes them.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quadrille::generate::{Minimality, Order, Symmetry};
use quadrille::logic::Difficulty;
use quadrille::request::{GenerateRequest, score_band};
use quadrille::sudoku::Shape;

use crate::args;
use crate::errors::OrRaise;
use crate::interrupt;

/// Registers the function.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    Ok(())
}

/// Makes `n` puzzles from seeds `seed`, `seed + 1`, ... on `threads` threads (0: one per
/// core), as `quadrille generate --json` does: one dict per puzzle, in seed order, with
/// `puzzle`, `box` (`RxC`), `variant`, `givens` and `seed`, and for unique puzzles `solution`, `symmetry`, `minimal`,
/// `attempt` and (with `rate`, `difficulty` or `score`) `rating`.
///
/// `kind` is "unique", "random" or "contradictory"; `givens` or `blanks` set their number
/// (a third of the cells by default for random and contradictory puzzles). For unique
/// puzzles: `symmetry` (none, rotational, diagonal, ...), `minimal` ("givens" or "orbits"),
/// `difficulty` (easy, medium, hard, expert, extreme) or `score` (a (min, max) pair) on the
/// rating `scale` ("se121" or "sukaku", as `rate` takes it), `attempts`, `node_budget` and `time_budget` per puzzle, and the `engine` of the
/// uniqueness checks. `uniform` draws the grids of random puzzles exactly uniformly (4x4 and
/// 6x6 Sudoku, within 1 GiB). The same request as `quadrille generate`
/// ([`GenerateRequest`]), checked by the library. A seed whose attempts all fail raises
/// QuadrilleError.
#[pyfunction]
#[pyo3(signature = (n = 10, *, r#box = "3x3", seed = 1, kind = "unique", givens = None, blanks = None, symmetry = None, minimal = None, difficulty = None, score = None, scale = "se121", rate = false, attempts = Order::DEFAULT_ATTEMPTS, node_budget = None, time_budget = None, engine = None, threads = 0, uniform = false))]
#[pyo3(
    text_signature = "(n=10, *, box='3x3', seed=1, kind='unique', givens=None, blanks=None, symmetry=None, minimal=None, difficulty=None, score=None, scale='se121', rate=False, attempts=1000, node_budget=None, time_budget=None, engine=None, threads=0, uniform=False)"
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
    uniform: bool,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let shape: Shape = r#box.parse().or_raise()?;
    let request = GenerateRequest {
        shape,
        count: n,
        seed,
        kind: kind.parse().map_err(args::invalid)?,
        givens,
        blanks,
        uniform,
        memory: quadrille::exact_cover::DEFAULT_MEMORY,
        symmetry: symmetry
            .map(str::parse::<Symmetry>)
            .transpose()
            .or_raise()?,
        minimal: minimal
            .map(str::parse::<Minimality>)
            .transpose()
            .or_raise()?,
        budget: args::budget(node_budget, time_budget)?,
        attempts,
        engine: engine.map(args::engine).transpose()?,
        difficulty: difficulty
            .map(|name| name.parse::<Difficulty>())
            .transpose()
            .map_err(|message| PyValueError::new_err(format!("difficulty: {message}")))?,
        score: score
            .map(|(low, high)| score_band(Some(low), Some(high)))
            .transpose()
            .map_err(args::invalid)?,
        scale: crate::logic::scale_named(scale)?,
        rate,
        threads,
    };
    request.check().map_err(args::invalid)?;
    let texts: Vec<String> = interrupt::run(py, |_| {
        let mut texts = Vec::with_capacity(n);
        request
            .run(None, &mut |made| {
                // The first seed whose attempts all fail ends the call with its error.
                let record = made?;
                texts.push(serde_json::to_string(&record).map_err(std::io::Error::from)?);
                Ok(())
            })
            .map(|_| texts)
    })?
    .or_raise()?;
    let json = py.import("json")?;
    texts
        .into_iter()
        .map(|text| {
            json.call_method1("loads", (text,))?
                .cast_into::<PyDict>()
                .map_err(PyErr::from)
        })
        .collect()
}
