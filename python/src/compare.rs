//! `compare`: several engines over the same puzzles, as `quadrille compare` runs them, with
//! one dict per puzzle and engine: rows for a pandas DataFrame, without needing pandas.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use quadrille::engine::Engine;
use quadrille::request::CompareRequest;

use crate::args;
use crate::errors::{self, OrRaise};
use crate::interrupt;
use crate::sudoku::Reading;

/// Registers the function.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    Ok(())
}

/// Runs `engines` (names as in solve; default: those `quadrille compare` picks for the first
/// puzzle's board) on every puzzle of `puzzles` (a list of str or a file's text), counting
/// solutions up to `limit`, and returns one dict per puzzle and engine: line, label, engine,
/// solutions, exact, stop, gave_up, micros, nodes, backtracks, work, restarts, learned.
/// `pandas.DataFrame(rows)` makes a table of them.
///
/// The budget per puzzle and engine is `quadrille compare`'s default unless `node_budget`
/// or `time_budget` is given (`no_node_budget` lifts the nodes). Engines that disagree, or
/// a bad line (unless `skip_errors`), raise QuadrilleError.
#[pyfunction]
#[pyo3(signature = (puzzles, *, engines = None, limit = 2, threads = 1, r#box = None, input = "line", variant = None, node_budget = None, no_node_budget = false, time_budget = None, seed = 0, no_restarts = false, skip_errors = false))]
#[pyo3(
    text_signature = "(puzzles, *, engines=None, limit=2, threads=1, box=None, input='line', variant=None, node_budget=None, no_node_budget=False, time_budget=None, seed=0, no_restarts=False, skip_errors=False)"
)]
#[allow(clippy::too_many_arguments)]
fn compare<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    engines: Option<Vec<String>>,
    limit: u64,
    threads: usize,
    r#box: Option<&str>,
    input: &str,
    variant: Option<&str>,
    node_budget: Option<u64>,
    no_node_budget: bool,
    time_budget: Option<f64>,
    seed: u64,
    no_restarts: bool,
    skip_errors: bool,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let text = crate::sudoku::puzzle_text(puzzles)?;
    let reading = Reading::new(r#box, input, variant)?;
    let budget = args::budget(node_budget, time_budget)?;
    let asked = CompareRequest {
        engines: engines
            .map(|names| {
                names
                    .iter()
                    .map(|n| args::engine(n))
                    .collect::<PyResult<Vec<_>>>()
            })
            .transpose()?,
        limit,
        nodes: budget.nodes,
        no_node_budget,
        time: budget.time,
        interrupt: budget.interrupt,
        restarts: args::restarts(seed, no_restarts),
        threads,
    };
    asked.check().map_err(args::invalid)?;
    let reader = reading.reader(&text);
    let (engines, _, comparison) = interrupt::run(py, |_| asked.run(reader))?.or_raise()?;
    if let (Some(error), false) = (comparison.skipped().first(), skip_errors) {
        return Err(errors::error_at("", error));
    }
    if !comparison.disagreements().is_empty() {
        let (shown, more) = comparison.shown_disagreements();
        let mut what: Vec<String> = shown.iter().map(|d| d.to_string()).collect();
        if more > 0 {
            what.push(format!("... and {more} more"));
        }
        return Err(errors::message(format!(
            "ENGINES DISAGREE on {} puzzles: {}",
            comparison.disagreements().len(),
            what.join("; ")
        )));
    }
    let names: Vec<String> = engines.iter().map(Engine::to_string).collect();
    let mut rows = Vec::new();
    for record in comparison.puzzles() {
        for (name, m) in names.iter().zip(&record.results) {
            let d = PyDict::new(py);
            d.set_item("line", record.line)?;
            d.set_item("label", &record.label)?;
            d.set_item("engine", name)?;
            d.set_item("solutions", m.solutions)?;
            d.set_item("exact", m.stop.is_complete())?;
            d.set_item("stop", m.stop.name())?;
            d.set_item("gave_up", m.gave_up())?;
            d.set_item("micros", m.micros())?;
            d.set_item("nodes", m.nodes)?;
            d.set_item("backtracks", m.backtracks)?;
            d.set_item("work", m.work)?;
            d.set_item("restarts", m.restarts)?;
            d.set_item("learned", m.learned)?;
            rows.push(d);
        }
    }
    Ok(rows)
}
