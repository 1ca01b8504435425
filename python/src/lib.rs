//! quadrille from Python: thin wrappers over the library's public API, one module per concern.
//!
//! Every search runs with the GIL released, on a thread of its own while the calling thread
//! watches for Ctrl-C ([`interrupt`]); arguments are read and checked as the command-line
//! tool reads its flags ([`args`]); the library's errors become `quadrille.QuadrilleError`
//! with the same message, line and column ([`errors`]).

use pyo3::prelude::*;

mod args;
mod compare;
mod errors;
mod exact_cover;
mod generate;
mod interrupt;
mod logic;
mod merge;
mod sudoku;

/// The native module of the `quadrille` package, which re-exports it whole.
#[pymodule]
fn _quadrille(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    exact_cover::register(m)?;
    sudoku::register(m)?;
    logic::register(m)?;
    generate::register(m)?;
    compare::register(m)?;
    merge::register(m)?;
    Ok(())
}
