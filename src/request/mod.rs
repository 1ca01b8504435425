//! Requests: one validated question per job, carried out by the library, so that every front
//! end (the command-line tool, the Python package, a page) asks the same question and gets the
//! same answer. A front end reads its flags or keywords into a request, runs it, and shows the
//! record it returns; it decides nothing about how to compute.
//!
//! - [`check`]: the rules a request's numbers obey (budgets, threads, limits), whose errors
//!   ([`Invalid`]) name the field at fault, for each front end to say in its own words.
//! - [`ExactCoverCount`]: the count of an exact-cover problem, with its [`CountRecord`].
//! - [`CheapestRequest`]: the cheapest solutions of a problem with costs, or its least cost,
//!   with its [`CheapestRecord`].
//! - [`diagram`] and [`SampleRequest`]: the decision diagram of every solution, and solutions
//!   drawn from it exactly uniformly.
//! - [`GenerateRequest`]: puzzles from a seed, each a [`PuzzleRecord`].
//! - [`CompareRequest`]: engines compared over the same puzzles.
//! - [`ExplainRequest`]: a solution step by step, with what it concludes ([`Explained`]), and
//!   its record ([`ExplainRecord`], [`StepRecord`]).
//! - [`SolveRecord`]: one puzzle's answer in a batch ([`crate::batch`]), and
//!   [`PuzzleCount`]: one puzzle's count, split across threads.
//! - [`ListRequest`]: the solutions of an exact-cover problem, listed ([`ListRecord`]).
//! - [`PuzzleText`]: the puzzles of a request given as text, within [`MAX_PUZZLES`].
//! - [`RateRequest`]: a puzzle's rating, with its [`RateRecord`].
//! - [`EstimateRequest`] and [`ShardRequest`]: counts too big for one run, estimated or split
//!   into shards ([`EstimateRecord`], [`ShardRecord`](crate::merge::ShardRecord)), and
//!   [`CheckpointRequest`]: every shard, counted into a checkpoint ([`CheckpointRecord`]).
//!
//! - [`Jobs`]: the requests a front end started, each cancellable by its id, [`Slots`]: how
//!   many run at once, and [`jobs::ticking`]: a long one's progress at a steady pace.
//! - [`ErrorRecord`]: a refused request's answer, for a front end that answers in JSON.
//!
//! A request's budget holds its cancel flag ([`Budget::interrupt`](crate::Budget)): a front
//! end that raises it stops the whole request, within a clock reading of each search.

mod cheapest;
pub mod check;
mod compare;
mod count;
mod diagram;
mod explain;
mod generate;
pub mod jobs;
mod list;
mod puzzles;
mod rate;
mod scale;
mod solve;

pub use cheapest::{CheapestRecord, CheapestRequest, CostGoal, MAX_CHEAPEST, PricedRecord};
pub use check::{BudgetAsked, ErrorRecord, Field, Invalid};
pub use compare::CompareRequest;
pub use count::{CountRecord, ExactCoverCount, Route, Search, problem_kind};
pub use diagram::{DiagramRecord, SampleRecord, SampleRequest, diagram};
pub use explain::{ExplainRecord, ExplainRequest, Explained, StepRecord};
pub use generate::{
    GenerateRequest, GivenUp, Kind, MAX_COLLECTED, PuzzleRecord, RatingRecord, score_band,
};
pub use jobs::{Job, Jobs, ProgressRecord, Slot, Slots};
pub use list::{ListRecord, ListRequest, ListedSolution, MAX_LISTED};
pub use puzzles::{MAX_PUZZLES, PuzzleText};
pub use rate::{RateRecord, RateRequest, propagation_levels};
pub use scale::{
    CheckpointRecord, CheckpointRequest, EstimateRecord, EstimateRequest, MAX_SHARDS, ShardRequest,
};
pub use solve::{PuzzleCount, SolveRecord};

/// A batch of puzzles read from an input of at least this many bytes reports how far its
/// reading has got (the command-line tool's bar on a terminal), the same for `solve`,
/// `count`, `explain` and `rate`; a smaller one is over before a report would help. A
/// comparison reports whatever the size, as each of its puzzles runs every engine
/// ([`CompareRequest::PROGRESS_BYTES`]).
pub const PROGRESS_BYTES: u64 = 1 << 20;

/// Runs `work` on a pool of `threads` threads (0: the pool it is called in, the global one
/// unless a caller installed another), and returns once the pool's threads have ended, so
/// that a request (an interrupted one too) leaves no thread behind.
pub fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> crate::Result<T> {
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
