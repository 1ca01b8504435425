//! `ExactCover`: a problem built from items and options (with secondary items, colours and
//! multiplicities) or read in Knuth's dlx format, and its searches as `quadrille xc` runs them.

use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use num_bigint::BigUint;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quadrille::exact_cover::{Dlx, Memo, MemoMode, Problem, ProblemBuilder};
use quadrille::io::dlx;
use quadrille::request::{
    CheapestRequest, CheckpointRequest, CostGoal, CountRecord, DiagramRecord, EstimateRequest,
    ExactCoverCount, ListRecord, ListRequest, Route, SampleRequest, Search as CountSearch,
    ShardRequest,
};
use quadrille::{Budget, SolutionCount};

use crate::args;
use crate::errors::{self, OrRaise};
use crate::interrupt;

/// Registers the classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ExactCover>()?;
    m.add_class::<Count>()?;
    m.add_class::<Solutions>()?;
    m.add_class::<SolutionIterator>()?;
    Ok(())
}

/// An exact-cover problem: choose options (sets of items) so that every primary item is
/// covered exactly once (or within its bounds), and every secondary item at most once (or
/// with one colour).
///
/// `items` are the primary items: names, or `(name, lower, upper)` tuples for an item to be
/// covered from `lower` to `upper` times (dlx3's multiplicities). `secondary` are the
/// secondary items. Each option is a list of item names; a secondary item may carry a colour,
/// as `"x:red"` or `("x", "red")` (dlx2's colours). `costs`, one whole number per option,
/// prices the options for `cheapest` and `min_cost` (every other search ignores them).
///
/// >>> p = ExactCover(["a", "b", "c"], [["a", "b"], ["c"], ["a"], ["b", "c"]])
/// >>> p.count()
/// Count(2)
#[pyclass(frozen, module = "quadrille")]
pub struct ExactCover {
    problem: Arc<Problem>,
}

#[pymethods]
impl ExactCover {
    #[new]
    #[pyo3(signature = (items, options, *, secondary = Vec::new(), costs = None))]
    #[pyo3(text_signature = "(items, options, *, secondary=(), costs=None)")]
    fn new(
        items: Vec<Bound<'_, PyAny>>,
        options: Vec<Vec<Bound<'_, PyAny>>>,
        secondary: Vec<String>,
        costs: Option<Vec<u64>>,
    ) -> PyResult<ExactCover> {
        if let Some(costs) = &costs
            && costs.len() != options.len()
        {
            return Err(PyValueError::new_err(format!(
                "costs: one cost per option, and there are {} costs for {} options",
                costs.len(),
                options.len()
            )));
        }
        let mut builder = ProblemBuilder::new();
        for (i, item) in items.iter().enumerate() {
            let added = if let Ok(name) = item.extract::<String>() {
                builder.primary(&name)
            } else if let Ok((name, lower, upper)) = item.extract::<(String, u32, u32)>() {
                builder.primary_with_bounds(&name, lower, upper)
            } else {
                return Err(PyTypeError::new_err(format!(
                    "items[{i}]: an item is a name or a (name, lower, upper) tuple"
                )));
            };
            added.map_err(|err| errors::error_at(&format!("items[{i}]"), &err))?;
        }
        for name in &secondary {
            builder
                .secondary(name)
                .map_err(|err| errors::error_at("secondary", &err))?;
        }
        for (k, option) in options.iter().enumerate() {
            let mut entries = Vec::with_capacity(option.len());
            for entry in option {
                let (name, color) = option_entry(entry)
                    .map_err(|e| PyTypeError::new_err(format!("options[{k}]: {e}")))?;
                let item = builder.item_index(&name).ok_or_else(|| {
                    errors::error_at(
                        &format!("options[{k}]"),
                        &quadrille::ErrorKind::UnknownItem { name: name.clone() }.into(),
                    )
                })?;
                entries.push((item, color));
            }
            let option = builder
                .colored_option(entries)
                .map_err(|err| errors::error_at(&format!("options[{k}]"), &err))?;
            if let Some(costs) = &costs {
                builder
                    .set_cost(option, costs[k])
                    .map_err(|err| errors::error_at(&format!("costs[{k}]"), &err))?;
            }
        }
        let problem = builder.build().or_raise()?;
        Ok(ExactCover {
            problem: Arc::new(problem),
        })
    }

    /// Reads a problem in Knuth's dlx format (dlx1, with dlx2's colours, dlx3's
    /// multiplicities and dlx5's costs `|n`, or miniexact's `$n`). Errors name the line and column, as `quadrille xc` does; a line longer
    /// than 64 MiB, or a text longer than 128 MiB, is an error at its line.
    #[staticmethod]
    fn from_dlx(text: &str) -> PyResult<ExactCover> {
        let problem = dlx::parse_problem(text).or_raise()?.into_problem();
        Ok(ExactCover {
            problem: Arc::new(problem),
        })
    }

    /// Reads a dlx file (see `from_dlx`, and its limits); errors start with the file's name.
    #[staticmethod]
    fn read_dlx(path: std::path::PathBuf) -> PyResult<ExactCover> {
        let name = path.display().to_string();
        let file =
            std::fs::File::open(&path).map_err(|e| errors::message(format!("{name}: {e}")))?;
        let problem = dlx::read_problem(std::io::BufReader::new(file))
            .map_err(|err| errors::error_at(&name, &err))?
            .into_problem();
        Ok(ExactCover {
            problem: Arc::new(problem),
        })
    }

    /// The problem in Knuth's dlx format.
    fn to_dlx(&self) -> String {
        dlx::problem_to_string(&self.problem)
    }

    /// The number of items, primary and secondary.
    #[getter]
    fn item_count(&self) -> usize {
        self.problem.item_count()
    }

    /// The number of options.
    #[getter]
    fn option_count(&self) -> usize {
        self.problem.option_count()
    }

    /// The item names, primary first.
    #[getter]
    fn items(&self) -> Vec<String> {
        (0..self.problem.item_count())
            .map(|i| self.problem.item_name(i).to_string())
            .collect()
    }

    /// Option `index` as a dlx line: its items, with their colours.
    fn option_text(&self, index: usize) -> PyResult<String> {
        if index >= self.problem.option_count() {
            return Err(PyIndexError::new_err(format!(
                "option {index} of {}",
                self.problem.option_count()
            )));
        }
        Ok(self.problem.option_text(index))
    }

    /// Whether the problem has colours or multiplicities (searched by Algorithm M; estimates,
    /// shards and Knuth's order are for plain exact cover).
    #[getter]
    fn is_plain(&self) -> bool {
        self.problem.is_plain()
    }

    fn __repr__(&self) -> String {
        format!(
            "ExactCover({} items, {} options)",
            self.problem.item_count(),
            self.problem.option_count()
        )
    }

    /// The first solution, as a sorted list of option indices, or None when there is none
    /// (or the budget ran out first: `solutions(limit=1)` tells which).
    #[pyo3(signature = (*, node_budget = None, time_budget = None, seed = 0, no_restarts = false))]
    fn first(
        &self,
        py: Python<'_>,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
        seed: u64,
        no_restarts: bool,
    ) -> PyResult<Option<Vec<usize>>> {
        let found = self.solutions(
            py,
            Some(1),
            node_budget,
            time_budget,
            seed,
            no_restarts,
            false,
        )?;
        Ok(found.solutions.into_iter().next())
    }

    /// Up to `limit` solutions (all when None), each a sorted list of option indices, with
    /// the count and the statistics, as `quadrille xc --limit N` lists them.
    #[pyo3(signature = (limit = None, *, node_budget = None, time_budget = None, seed = 0, no_restarts = false, knuth = false))]
    #[allow(clippy::too_many_arguments)]
    fn solutions(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
        seed: u64,
        no_restarts: bool,
        knuth: bool,
    ) -> PyResult<Solutions> {
        let limit = args::limit(limit)?;
        let budget = args::budget(node_budget, time_budget)?;
        let request = list_request(&self.problem, limit, budget, seed, no_restarts, knuth)?;
        let problem = Arc::clone(&self.problem);
        let (found, record) = interrupt::run(py, move |_| {
            let mut found = Vec::new();
            let record = list(&request, &problem, |options| {
                found.push(options);
                true
            });
            record.map(|record| (found, record))
        })?
        .or_raise()?;
        Ok(Solutions {
            solutions: found,
            count: Count::of_list(&record),
        })
    }

    /// Every solution (up to `limit`), streamed: the search runs on a thread of its own, a
    /// few solutions ahead of the loop, and stops within milliseconds when the iterator is
    /// dropped, whether or not it is meeting solutions. Its `stats` are there once it is
    /// exhausted.
    #[pyo3(signature = (limit = None, *, node_budget = None, time_budget = None, seed = 0, no_restarts = false))]
    fn iter_solutions(
        &self,
        limit: Option<u64>,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
        seed: u64,
        no_restarts: bool,
    ) -> PyResult<SolutionIterator> {
        let limit = args::limit(limit)?;
        // The stream outlives this call: its own interrupt, not this thread's.
        let stop = Arc::new(interrupt::Lent::new());
        let budget = args::budget(node_budget, time_budget)?.interrupted_by(stop.interrupt());
        let request = list_request(&self.problem, limit, budget, seed, no_restarts, false)?;
        let problem = Arc::clone(&self.problem);
        let (sender, receiver) = sync_channel(STREAM_AHEAD);
        let held = Arc::clone(&stop);
        std::thread::Builder::new()
            .stack_size(interrupt::STACK)
            .spawn(move || {
                stream(&request, &problem, &sender);
                // Only now may the flag serve another stream.
                drop(held);
            })
            .map_err(|e| errors::message(format!("cannot start a search thread: {e}")))?;
        Ok(SolutionIterator {
            receiver: Mutex::new(receiver),
            done: Mutex::new(None),
            stop,
        })
    }

    /// The number of solutions, as `quadrille xc --count` counts them (the same library
    /// request, [`ExactCoverCount`]): an exact Python int of any size the library counts, or a
    /// lower bound when `limit` or a budget stopped the search first. `threads` (1 by default,
    /// 0 for one per core) splits the count; `no_restarts` and `knuth` walk the textbook
    /// search; `memo` ("auto", "always" or "off") says when a count remembers subproblems.
    #[pyo3(signature = (*, limit = None, threads = 1, node_budget = None, time_budget = None, seed = 0, no_restarts = false, knuth = false, memo = "auto"))]
    #[allow(clippy::too_many_arguments)]
    fn count(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        threads: usize,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
        seed: u64,
        no_restarts: bool,
        knuth: bool,
        memo: &str,
    ) -> PyResult<Count> {
        let mode: MemoMode = memo
            .parse()
            .map_err(|message| PyValueError::new_err(format!("memo: {message}")))?;
        let request = ExactCoverCount {
            limit,
            threads,
            budget: args::budget(node_budget, time_budget)?,
            search: if knuth {
                CountSearch::Knuth
            } else if no_restarts {
                CountSearch::Plain
            } else {
                CountSearch::Default
            },
            seed,
            memo: Memo {
                mode,
                ..Memo::default()
            },
        };
        let problem = Arc::clone(&self.problem);
        let record = interrupt::run(py, move |_| request.run(&problem, &|_| {}))?.or_raise()?;
        Ok(Count::of(&record))
    }

    /// The `k` cheapest solutions by the options' costs (`costs=` or dlx5's `|n` / miniexact's
    /// `$n` in a dlx file), as `quadrille xc --cheapest K --json` finds them (the same library
    /// request, [`CheapestRequest`]): its dict, with "solutions" (each a dict of "cost",
    /// "options" and "proved"), "complete", "bound" and the search statistics. Ties come in
    /// the order of the search tree; under a budget, "proved" says which are certain.
    /// `threads` (1 by default, 0 for one per core) split the search with a shared bound:
    /// the same answer.
    #[pyo3(signature = (k = 1, *, threads = 1, node_budget = None, time_budget = None))]
    fn cheapest<'py>(
        &self,
        py: Python<'py>,
        k: u64,
        threads: usize,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.priced(py, CostGoal::Cheapest(k), threads, node_budget, time_budget)
    }

    /// The least cost of a solution and how many solutions cost that, as `quadrille xc
    /// --min-cost --json` finds them: the dict of `cheapest`, with "min_cost" (None without
    /// a solution) and "count_at_min"; `threads` as for `cheapest`.
    #[pyo3(signature = (*, threads = 1, node_budget = None, time_budget = None))]
    fn min_cost<'py>(
        &self,
        py: Python<'py>,
        threads: usize,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.priced(py, CostGoal::MinCost, threads, node_budget, time_budget)
    }

    /// The cost of each option, in order (0 where none was given).
    fn costs(&self) -> Vec<u64> {
        (0..self.problem.option_count())
            .map(|o| self.problem.option_cost(o))
            .collect()
    }

    /// Writes the zero-suppressed decision diagram of every solution to the file `path`, as
    /// `quadrille xc --zdd FILE` does (the format is docs/memo.md's), and returns the dict of
    /// `--zdd FILE --json`: the solutions (an int of any size), the
    /// diagram's nodes and the seconds. `memory` bounds the diagram (bytes); a budget that
    /// runs out while it is built raises, and writes nothing. Plain exact cover only.
    #[pyo3(signature = (path, *, memory = None, node_budget = None, time_budget = None))]
    fn write_zdd<'py>(
        &self,
        py: Python<'py>,
        path: std::path::PathBuf,
        memory: Option<usize>,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let mut memo = Memo::default();
        if let Some(memory) = memory {
            memo.memory = memory;
        }
        let budget = args::budget(node_budget, time_budget)?;
        let problem = Arc::clone(&self.problem);
        let place = path.display().to_string();
        // An error of the file is named by its path; one of the diagram is not.
        let record = interrupt::run(py, move |_| {
            let start = std::time::Instant::now();
            let zdd = quadrille::request::diagram(&problem, &memo, &budget)
                .map_err(|err| Box::new((false, err)))?;
            std::fs::File::create(&path)
                .map_err(quadrille::Error::from)
                .and_then(|file| {
                    let mut file = std::io::BufWriter::new(file);
                    zdd.write(&mut file)?;
                    std::io::Write::flush(&mut file)?;
                    Ok(())
                })
                .map_err(|err| Box::new((true, err)))?;
            Ok(DiagramRecord::of(&zdd, start.elapsed()))
        })?
        .map_err(|failed: Box<(bool, quadrille::Error)>| {
            let (of_the_file, err) = *failed;
            errors::error_at(if of_the_file { &place } else { "" }, &err)
        })?;
        record_dict(py, &record)
    }

    /// `k` solutions drawn exactly uniformly at random (with repetition) from the decision
    /// diagram of every solution, each a sorted list of option indices, as `quadrille xc
    /// --sample K --seed SEED` draws them (the same seed, the same solutions); `memory` bounds
    /// the diagram (bytes), and a time budget stops the draws early. Plain exact cover only.
    #[pyo3(signature = (k, *, seed = 0, time_budget = None, memory = None))]
    fn sample(
        &self,
        py: Python<'_>,
        k: u64,
        seed: u64,
        time_budget: Option<f64>,
        memory: Option<usize>,
    ) -> PyResult<Vec<Vec<usize>>> {
        let mut memo = Memo::default();
        if let Some(memory) = memory {
            memo.memory = memory;
        }
        let request = SampleRequest {
            k,
            seed,
            memo,
            budget: args::budget(None, time_budget)?,
        };
        let problem = Arc::clone(&self.problem);
        let drawn = interrupt::run(py, move |_| {
            let mut drawn = Vec::new();
            request
                .run(&problem, &mut |options| {
                    drawn.push(options.to_vec());
                    Ok(())
                })
                .map(|_| drawn)
        })?
        .or_raise()?;
        Ok(drawn)
    }

    /// Knuth's estimate of the search tree from `probes` random probes (`quadrille xc
    /// --estimate`; 10,000 when not given, as there), with the time the whole count would take
    /// here, measured on a sample search of at most 0.3 s. A dict with the keys of
    /// `--estimate --json`.
    #[pyo3(signature = (probes = None, *, seed = 0, node_budget = None, time_budget = None))]
    fn estimate<'py>(
        &self,
        py: Python<'py>,
        probes: Option<u64>,
        seed: u64,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let request = EstimateRequest {
            probes: probes.unwrap_or(EstimateRequest::DEFAULT_PROBES),
            seed,
            budget: args::budget(node_budget, time_budget)?,
        };
        request.check().map_err(args::invalid)?;
        let mut links = self.plain("estimate")?;
        let record =
            interrupt::run(py, move |_| request.run(&mut links, &mut |_| {}))?.or_raise()?;
        record_dict(py, &record)
    }

    /// Counts shard `shard` (1-based) of `shards` disjoint shards, as `quadrille xc --shard
    /// I/N --json`: a dict with the keys of its JSON line (the shard, the fingerprints, the
    /// solutions, nodes, updates, seconds, whether it was complete, and the checksum of them
    /// all, which `merge` checks). The shards' counts add up to the whole count, whichever
    /// machines ran them.
    #[pyo3(signature = (shard, shards, *, node_budget = None, time_budget = None))]
    fn count_shard<'py>(
        &self,
        py: Python<'py>,
        shard: usize,
        shards: usize,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let request = ShardRequest {
            shard,
            shards,
            budget: args::budget(node_budget, time_budget)?,
        };
        request.check().map_err(args::invalid)?;
        let mut links = self.plain("count_shard")?;
        let record = interrupt::run(py, move |_| request.run(&mut links))?.or_raise()?;
        record_dict(py, &record)
    }

    /// Counts every solution in 128 shards, appending each finished shard to the file
    /// `checkpoint` and resuming from it when it holds some, as `quadrille xc --checkpoint
    /// FILE --json`: a dict with its keys (the count, exact or a lower bound when a budget or
    /// Ctrl-C stopped it, and the shards done and resumed). The same count on any number of
    /// `threads` (1 by default, 0 for one per core): the shards are the problem's.
    #[pyo3(signature = (checkpoint, *, threads = 1, node_budget = None, time_budget = None))]
    fn count_checkpointed<'py>(
        &self,
        py: Python<'py>,
        checkpoint: std::path::PathBuf,
        threads: usize,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let request = CheckpointRequest {
            checkpoint: &checkpoint,
            threads,
            budget: args::budget(node_budget, time_budget)?,
        };
        request.check().map_err(args::invalid)?;
        let mut links = self.plain("count_checkpointed")?;
        let record = interrupt::run(py, move |_| request.run(&mut links, &|_| {}))?
            .map_err(|err| errors::error_at(&checkpoint.display().to_string(), &err))?;
        record_dict(py, &record)
    }
}

/// A record as a dict with the keys of its JSON object (the command-line tool's `--json`).
pub(crate) fn record_dict<'py>(
    py: Python<'py>,
    record: &impl serde::Serialize,
) -> PyResult<Bound<'py, PyDict>> {
    let text = serde_json::to_string(record).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let dict = py
        .import("json")?
        .call_method1("loads", (text,))?
        .cast_into::<PyDict>()?;
    // JSON writes a count past 2^53 as a string of digits, for readers that hold numbers as
    // doubles; Python's int holds any count.
    if let Some(digits) = dict.get_item("solutions")?
        && let Ok(digits) = digits.extract::<String>()
    {
        let count: BigUint = digits
            .parse()
            .map_err(|_| PyValueError::new_err(format!("not a count: {digits}")))?;
        dict.set_item("solutions", count)?;
    }
    Ok(dict)
}

impl ExactCover {
    /// Runs a [`CheapestRequest`] for `goal` and returns its record as a dict.
    fn priced<'py>(
        &self,
        py: Python<'py>,
        goal: CostGoal,
        threads: usize,
        node_budget: Option<u64>,
        time_budget: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let request = CheapestRequest {
            goal,
            threads,
            budget: args::budget(node_budget, time_budget)?,
        };
        request.check().map_err(args::invalid)?;
        let problem = Arc::clone(&self.problem);
        let record = interrupt::run(py, move |_| request.run(&problem))?.or_raise()?;
        record_dict(py, &record)
    }

    /// Plain dancing links, or the error of a method that needs them.
    fn plain(&self, method: &str) -> PyResult<Dlx> {
        if !self.problem.is_plain() {
            return Err(errors::message(format!(
                "{method} is for plain exact cover, and this problem has colours or multiplicities"
            )));
        }
        Ok(Dlx::new(&self.problem))
    }
}

/// Solutions a stream finds before the loop asks for them.
const STREAM_AHEAD: usize = 64;

/// An option entry: `"x"`, `"x:colour"` or `("x", "colour")`.
fn option_entry(entry: &Bound<'_, PyAny>) -> Result<(String, Option<String>), &'static str> {
    if let Ok(text) = entry.extract::<String>() {
        return Ok(match text.split_once(':') {
            Some((name, color)) => (name.to_string(), Some(color.to_string())),
            None => (text, None),
        });
    }
    entry
        .extract::<(String, String)>()
        .map(|(name, color)| (name, Some(color)))
        .map_err(|_| "an option's entry is an item name, \"item:colour\" or (item, colour)")
}

/// The request that lists solutions as `quadrille xc` does ([`ListRequest`]), checked.
fn list_request(
    problem: &Problem,
    limit: Option<u64>,
    budget: Budget,
    seed: u64,
    no_restarts: bool,
    knuth: bool,
) -> PyResult<ListRequest> {
    let search = match (knuth, no_restarts) {
        (true, _) => CountSearch::Knuth,
        (false, true) => CountSearch::Plain,
        (false, false) => CountSearch::Default,
    };
    let request = ListRequest {
        limit,
        search,
        seed,
        budget,
    };
    request.check(problem).map_err(args::invalid)?;
    Ok(request)
}

/// Lists the solutions of `request`, each as sorted option indices, to `take`, which returns
/// false to stop the search (its end is then an error, which no one reads).
fn list(
    request: &ListRequest,
    problem: &Problem,
    mut take: impl FnMut(Vec<usize>) -> bool,
) -> quadrille::Result<ListRecord> {
    request.each(problem, &mut |options| {
        let mut options = options.to_vec();
        options.sort_unstable();
        match take(options) {
            true => Ok(()),
            false => Err(std::io::Error::other("the stream was dropped").into()),
        }
    })
}

/// What a stream sends: a solution, or the report at the end.
enum Streamed {
    Solution(Vec<usize>),
    Done(quadrille::Result<ListRecord>),
}

fn stream(request: &ListRequest, problem: &Problem, sender: &SyncSender<Streamed>) {
    // A closed channel: the iterator was dropped.
    let record = list(request, problem, |options| {
        sender.send(Streamed::Solution(options)).is_ok()
    });
    let _ = sender.send(Streamed::Done(record));
}

/// The solutions of an exact-cover problem, streamed from a search on a thread of its own.
#[pyclass(module = "quadrille")]
pub struct SolutionIterator {
    receiver: Mutex<Receiver<Streamed>>,
    done: Mutex<Option<Count>>,
    /// The search's own interrupt, raised when the iterator is dropped.
    stop: Arc<interrupt::Lent>,
}

impl Drop for SolutionIterator {
    fn drop(&mut self) {
        self.stop.interrupt().raise();
    }
}

#[pymethods]
impl SolutionIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<usize>>> {
        loop {
            let next = py.detach(|| match self.receiver.lock() {
                Ok(receiver) => receiver.recv_timeout(Duration::from_millis(50)),
                Err(_) => Err(RecvTimeoutError::Disconnected),
            });
            match next {
                Ok(Streamed::Solution(options)) => return Ok(Some(options)),
                Ok(Streamed::Done(record)) => {
                    let record = record.or_raise()?;
                    if let Ok(mut done) = self.done.lock() {
                        *done = Some(Count::of_list(&record));
                    }
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }

    /// The count and statistics of the search, once the iterator is exhausted (else None).
    #[getter]
    fn result(&self) -> Option<Count> {
        self.done.lock().ok().and_then(|done| done.clone())
    }
}

/// Solutions found, with the count and statistics of the search that found them.
#[pyclass(frozen, module = "quadrille")]
pub struct Solutions {
    /// The solutions, each a sorted list of option indices.
    #[pyo3(get)]
    solutions: Vec<Vec<usize>>,
    /// The count and statistics.
    #[pyo3(get)]
    count: Count,
}

#[pymethods]
impl Solutions {
    fn __len__(&self) -> usize {
        self.solutions.len()
    }

    fn __getitem__(&self, index: isize) -> PyResult<Vec<usize>> {
        let n = self.solutions.len() as isize;
        let i = if index < 0 { index + n } else { index };
        if !(0..n).contains(&i) {
            return Err(PyIndexError::new_err("solution index out of range"));
        }
        Ok(self.solutions[i as usize].clone())
    }

    fn __repr__(&self) -> String {
        format!(
            "Solutions({} found, {})",
            self.solutions.len(),
            self.count.text()
        )
    }
}

/// A count of solutions: `solutions` is exact when `exact`, else a lower bound (a limit or a
/// budget stopped the search: `stop` says which). Compares equal to its int; `str()` writes it
/// as the command-line tool does, `N` or `N+`.
#[pyclass(frozen, module = "quadrille")]
#[derive(Clone)]
pub struct Count {
    record: CountRecord,
}

impl Count {
    /// The count of `record`.
    pub fn of(record: &CountRecord) -> Count {
        Count {
            record: record.clone(),
        }
    }

    /// The count of a search's `report` (a list's, or a stream's).
    fn of_list(record: &ListRecord) -> Count {
        let solutions = SolutionCount::new(record.found, record.stop);
        let complete = solutions.is_exact();
        Count::of(&CountRecord {
            solutions,
            nodes: record.nodes,
            updates: record.updates,
            seconds: record.seconds,
            complete,
            stop: record.stop,
            max_depth: record.max_depth,
            restarts: record.restarts,
            learned: record.learned,
            subproblems: 0,
            cache_hits: 0,
            memo_branching: None,
            route: Route::OneSearch,
        })
    }

    fn text(&self) -> String {
        self.record.solutions.to_string()
    }

    fn value(&self) -> &BigUint {
        &self.record.solutions.solutions
    }

    /// The count as a Python int, for arithmetic and formatting.
    fn int<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.value().into_pyobject(py)?.into_any())
    }
}

#[pymethods]
impl Count {
    /// Solutions found: the count when `exact`, else a lower bound.
    #[getter]
    fn solutions(&self) -> BigUint {
        self.value().clone()
    }

    /// Whether the count is the true count (the search explored everything).
    #[getter]
    fn exact(&self) -> bool {
        self.record.complete
    }

    /// Why the search ended: "exhausted", "limit", "node-budget" or "time-budget".
    #[getter]
    fn stop(&self) -> &'static str {
        self.record.stop.name()
    }

    /// The statistics: the object `quadrille xc --count --json` prints, as a dict.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        record_dict(py, &self.record)
    }

    fn __int__(&self) -> BigUint {
        self.value().clone()
    }

    fn __index__(&self) -> BigUint {
        self.value().clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.extract::<PyRef<'_, Count>>() {
            Ok(count) => count.value() == self.value() && count.record.stop == self.record.stop,
            Err(_) => other
                .extract::<BigUint>()
                .is_ok_and(|n| self.exact() && &n == self.value()),
        }
    }

    fn __lt__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.int(py)?.call_method1("__lt__", (other,))
    }

    fn __le__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.int(py)?.call_method1("__le__", (other,))
    }

    fn __gt__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.int(py)?.call_method1("__gt__", (other,))
    }

    fn __ge__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.int(py)?.call_method1("__ge__", (other,))
    }

    fn __add__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.int(py)?.call_method1("__add__", (other,))
    }

    fn __radd__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.int(py)?.call_method1("__radd__", (other,))
    }

    fn __sub__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.int(py)?.call_method1("__sub__", (other,))
    }

    fn __rsub__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.int(py)?.call_method1("__rsub__", (other,))
    }

    fn __mul__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.int(py)?.call_method1("__mul__", (other,))
    }

    fn __rmul__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.int(py)?.call_method1("__rmul__", (other,))
    }

    fn __format__<'py>(&self, py: Python<'py>, spec: &str) -> PyResult<Bound<'py, PyAny>> {
        self.int(py)?.call_method1("__format__", (spec,))
    }

    fn __bool__(&self) -> bool {
        *self.value() != BigUint::ZERO
    }

    /// The int's hash, as the count compares equal to its int.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.int(py)?.hash()
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("Count({})", self.text())
    }
}
