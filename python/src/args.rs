//! Keyword arguments read as the command-line tool reads its flags: the same defaults, the
//! same limits, and `ValueError`s that say what is wrong in the flags' words.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use quadrille::Budget;
use quadrille::engine::Engine;
use quadrille::io::puzzle::Layout;
use quadrille::request::{Field, Invalid, check};
use quadrille::restart::Restarts;
use quadrille::sudoku::Shape;
use quadrille::sudoku::variant::Variant;

use crate::errors::OrRaise;
use crate::interrupt;

/// The budget of `node_budget` and `time_budget` (seconds), checked by the library's rules
/// ([`check::budget`]), stopped by Ctrl-C during this thread's searches
/// ([`interrupt::this_thread`]).
pub fn budget(node_budget: Option<u64>, time_budget: Option<f64>) -> PyResult<Budget> {
    let budget = check::budget(node_budget, time_budget).map_err(invalid)?;
    Ok(budget.interrupted_by(interrupt::this_thread()))
}

/// A solution limit, checked by [`check::limit`]: 1 or more, or None for all.
pub fn limit(limit: Option<u64>) -> PyResult<Option<u64>> {
    check::limit(limit).map_err(invalid)
}

/// The restarts of `seed`, or none with `no_restarts`.
pub fn restarts(seed: u64, no_restarts: bool) -> Option<Restarts> {
    (!no_restarts).then_some(Restarts::new(seed))
}

/// A thread count, checked by [`check::threads`]: 0 (one per core) up to the library's most.
pub fn threads(threads: usize) -> PyResult<usize> {
    check::threads(threads).map_err(invalid)
}

/// Runs `work` on a pool of `threads` threads ([`quadrille::request::on_threads`]).
pub fn on_threads<T: Send>(
    threads: usize,
    work: impl FnOnce() -> T + Send,
) -> quadrille::Result<T> {
    quadrille::request::on_threads(threads, work)
}

/// The `ValueError` of a field out of range, named by its keyword.
pub fn invalid(invalid: Invalid) -> PyErr {
    PyValueError::new_err(format!(
        "{}: {}",
        keyword_of(invalid.field),
        invalid.message
    ))
}

/// The keyword argument that sets a request's `field`.
pub fn keyword_of(field: Field) -> &'static str {
    match field {
        Field::Search => "knuth",
        field => field.name(),
    }
}

/// An engine by its command-line name: auto, dlx, csp, csp:CONFIG, bitboard.
pub fn engine(name: &str) -> PyResult<Engine> {
    name.parse().or_raise()
}

/// A box shape RxC, or None to infer it from each puzzle's size.
pub fn shape(text: Option<&str>) -> PyResult<Option<Shape>> {
    text.map(str::parse).transpose().or_raise()
}

/// A variant by name (classic, x, windoku, jigsaw, killer), or None for `# variant:` lines.
pub fn variant(name: Option<&str>) -> PyResult<Option<Variant>> {
    name.map(str::parse).transpose().or_raise()
}

/// The layout: "line" (one puzzle per line, the default) or "grid" (multi-line grids).
pub fn layout(name: &str) -> PyResult<Layout> {
    match name {
        "line" => Ok(Layout::Line),
        "grid" => Ok(Layout::Grid),
        other => Err(PyValueError::new_err(format!(
            "input: '{other}' is not a layout: line or grid"
        ))),
    }
}
