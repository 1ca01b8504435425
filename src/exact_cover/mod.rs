//! Exact cover: problems, the dancing-links structure and Algorithm X.
//!
//! Build a [`Problem`] with a [`ProblemBuilder`] (or read one in Knuth's format with
//! [`crate::io::dlx`]), turn it into links with [`Dlx::new`], then search: [`Dlx::count`],
//! [`Dlx::first`], [`Dlx::solutions`], or [`Dlx::search`] with your own [`Sink`]; for another
//! item choice, restarts, learning or one shard, describe the search with a [`Plan`] and give it
//! to [`Dlx::run`]. Every search returns a [`Report`] with its [`Stats`] and why it stopped, and
//! leaves the links as built.
//!
//! A count of every solution is best made by [`Dlx::count_all`]: plain search where it
//! enumerates many solutions, the learning search where it must prove there is no other.
//!
//! For counts too big for one run: [`Dlx::estimate`] (Knuth's Monte Carlo estimate of the
//! tree), [`Dlx::count_parallel`] (the tree cut into disjoint parts of bounded cost to set up,
//! handed to the threads) and [`Dlx::shard_plan`] (such parts, a few hundred a shard, dealt in
//! turn into N shards, for N independent processes, each searching its own with
//! [`Plan::shard`]).
//!
//! Problems with colours or multiplicities (Knuth's dlx2 and dlx3; see [`ProblemBuilder`]) are
//! searched by [`Xcc`] instead, with the same sinks, budgets and reports.
//!
//! ```
//! use quadrille::exact_cover::{Dlx, ProblemBuilder};
//!
//! // Knuth's example: items a-g, six options, exactly one exact cover.
//! let mut b = ProblemBuilder::new();
//! for item in ["a", "b", "c", "d", "e", "f", "g"] {
//!     b.primary(item)?;
//! }
//! for option in ["c e", "a d g", "b c f", "a d f", "b g", "d e g"] {
//!     b.option_by_names(option.split(' '))?;
//! }
//! let mut dlx = Dlx::new(&b.build()?);
//! let (solution, report) = dlx.first();
//! let mut solution = solution.unwrap();
//! solution.sort();
//! assert_eq!(solution, vec![0, 3, 4]); // "c e", "a d f", "b g"
//! assert_eq!(dlx.count(None).stats.solutions, 1);
//! # Ok::<(), quadrille::Error>(())
//! ```

mod choose;
mod count_all;
mod dlx;
mod estimate;
mod learn;
mod links;
mod matching;
mod memo;
mod parallel;
mod plan;
mod problem;
mod runs;
mod search;
mod shard;
mod split;
mod xcc;

pub use count_all::{CountStart, SPLIT_NODES};
pub(crate) use count_all::{ENUMERATION_SOLUTIONS, FIRST_NODES};
pub use dlx::Dlx;
pub use estimate::{Estimate, Interval, MIN_NONZERO};
pub use links::LinkError;
pub use memo::{DEFAULT_MEMORY, Memo, MemoBranching, MemoCount, MemoMode, Zdd, ZddSampler};
pub use parallel::PartsDone;
pub use plan::{Branching, Plan};
pub use problem::{ItemKind, MAX_OPTION_COST, Problem, ProblemBuilder};
pub use search::{Control, CountSink, Report, Sink, Solution, Stats, up_to};
pub use shard::ShardPlan;
pub use xcc::{
    Cheapest, MinCost, Priced, Xcc, cheapest, cheapest_parallel, min_cost, min_cost_parallel,
};
