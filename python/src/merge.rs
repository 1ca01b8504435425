//! `merge`: shard results added up, as `quadrille merge --json` adds them.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use quadrille::merge::{self, ShardRecord};

use crate::errors::OrRaise;

/// Registers `merge`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(merge_shards, m)?)
}

/// Adds up the results of the shards of one count, as `quadrille merge --json`: `shards` is
/// the text of their JSON lines (`quadrille xc --shard I/N --json`, blank lines skipped), or
/// the dicts that `ExactCover.count_shard` returns, in any order. Returns a dict with the keys
/// of `merge --json`: `solutions` (the total when `complete`, else a lower bound), `complete`
/// and `partial`, `shards`, `present`, `missing` and `incomplete` (shard numbers), `nodes`,
/// `updates`, `seconds`, `max_seconds`, `problem` and `split`. A partial merge is no error:
/// `complete` says so. Raises `QuadrilleError` for a bad line (its line and column; a dict's
/// line is its place in the list, from 1), among them a record whose `checksum` is missing or
/// no longer matches its fields (an edited count), for a line longer than 4 KiB or a text
/// longer than 512 MiB, and for shards of different problems or splits, or a shard given twice.
#[pyfunction]
#[pyo3(name = "merge", signature = (shards))]
fn merge_shards<'py>(py: Python<'py>, shards: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let text = if let Ok(text) = shards.extract::<String>() {
        text
    } else {
        // Each dict as its JSON line, so that a dict is checked as a line is.
        let dumps = py.import("json")?.getattr("dumps")?;
        let mut lines = Vec::new();
        for record in shards.try_iter()? {
            lines.push(dumps.call1((record?,))?.extract::<String>()?);
        }
        lines.join("\n")
    };
    let records: Vec<ShardRecord> = merge::read_records(text.as_bytes()).or_raise()?;
    let merged = merge::merge(&records).or_raise()?;
    let total = merged.is_total();
    let d = PyDict::new(py);
    d.set_item("solutions", merged.solutions)?;
    d.set_item("complete", total)?;
    d.set_item("partial", !total)?;
    d.set_item("shards", merged.shards)?;
    d.set_item("present", merged.present.len())?;
    d.set_item("missing", merged.missing)?;
    d.set_item("incomplete", merged.incomplete)?;
    d.set_item("nodes", merged.nodes)?;
    d.set_item("updates", merged.updates)?;
    d.set_item("seconds", merged.seconds)?;
    d.set_item("max_seconds", merged.max_seconds)?;
    d.set_item("problem", merged.problem)?;
    d.set_item("split", merged.split)?;
    Ok(d)
}
