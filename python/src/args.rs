//! Keyword arguments read as the command-line tool reads its flags: the same defaults, the
//! same limits, and `ValueError`s that say what is wrong in the flags' words.

use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use quadrille::Budget;
use quadrille::engine::Engine;
use quadrille::io::puzzle::Layout;
use quadrille::restart::Restarts;
use quadrille::sudoku::Shape;
use quadrille::sudoku::variant::Variant;

use crate::errors::OrRaise;
use crate::interrupt;

/// The longest time budget accepted, as the command-line tool's: about 31 years.
const MAX_SECONDS: f64 = 1e9;

/// The most threads accepted; 0 means one per core.
const MAX_THREADS: usize = 1024;

/// The budget of `node_budget` (1 or more) and `time_budget` (seconds, finite, 0 or more),
/// stopped by Ctrl-C during this thread's searches ([`interrupt::this_thread`]).
pub fn budget(node_budget: Option<u64>, time_budget: Option<f64>) -> PyResult<Budget> {
    if node_budget == Some(0) {
        return Err(PyValueError::new_err(
            "node_budget: 0 nodes decides nothing; leave it out (None) for no budget",
        ));
    }
    let time = match time_budget {
        None => None,
        Some(seconds) if seconds.is_nan() => {
            return Err(PyValueError::new_err(
                "time_budget: nan is not a number of seconds",
            ));
        }
        Some(seconds) if seconds.is_infinite() => {
            return Err(PyValueError::new_err(
                "time_budget: the time budget must be finite (leave it out for no limit)",
            ));
        }
        Some(seconds) if seconds < 0.0 => {
            return Err(PyValueError::new_err(format!(
                "time_budget: the time budget must be 0 or more, not {seconds}"
            )));
        }
        Some(seconds) if seconds > MAX_SECONDS => {
            return Err(PyValueError::new_err(format!(
                "time_budget: {seconds} seconds is more than the longest time budget, {MAX_SECONDS:e} seconds (leave it out for no limit)"
            )));
        }
        Some(seconds) => Some(Duration::from_secs_f64(seconds)),
    };
    Ok(Budget {
        nodes: node_budget,
        time,
        interrupt: Some(interrupt::this_thread()),
    })
}

/// A solution limit: 1 or more, or None for all.
pub fn limit(limit: Option<u64>) -> PyResult<Option<u64>> {
    match limit {
        Some(0) => Err(PyValueError::new_err("limit: must be 1 or more")),
        other => Ok(other),
    }
}

/// The restarts of `seed`, or none with `no_restarts`.
pub fn restarts(seed: u64, no_restarts: bool) -> Option<Restarts> {
    (!no_restarts).then_some(Restarts::new(seed))
}

/// A thread count: 0 (one per core) up to 1024.
pub fn threads(threads: usize) -> PyResult<usize> {
    if threads > MAX_THREADS {
        return Err(PyValueError::new_err(format!(
            "threads: at most {MAX_THREADS} threads, not {threads}"
        )));
    }
    Ok(threads)
}

/// Runs `work` on a pool of `threads` threads, and returns once they have ended, so that a
/// call (an interrupted one too) leaves no thread behind; 0, one per core, is rayon's global
/// pool, kept between calls with the solvers its threads keep.
pub fn on_threads<T: Send>(
    threads: usize,
    work: impl FnOnce() -> T + Send,
) -> quadrille::Result<T> {
    if threads == 0 {
        return Ok(work());
    }
    let (ended, ends) = std::sync::mpsc::channel();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .exit_handler(move |_| {
            let _ = ended.send(());
        })
        .build()
        .map_err(|e| std::io::Error::other(format!("cannot start {threads} threads: {e}")))?;
    let value = pool.install(work);
    drop(pool);
    // Each thread sends once as it ends.
    for _ in 0..threads {
        if ends.recv().is_err() {
            break;
        }
    }
    Ok(value)
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
