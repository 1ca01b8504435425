//! The flags that several subcommands share, read and checked in one place, so that a number
//! means the same thing everywhere and a bad one gets the same clear message (and exit code 2,
//! as every usage error).

use std::time::Duration;

use quadrille::Budget;
use quadrille::exact_cover::{Memo, MemoBranching, MemoMode};
use quadrille::request::{Field, check};
use quadrille::restart::Restarts;

/// The flag that sets a request's `field`, to name it in a usage error.
pub fn flag_of(field: Field) -> &'static str {
    match field {
        Field::Limit => "--limit",
        Field::Threads => "--threads",
        Field::NodeBudget => "--node-budget",
        Field::TimeBudget => "--time-budget",
        Field::Search => "--knuth",
        Field::Memo => "--memo",
        Field::Probes => "--estimate",
        Field::Shard => "--shard",
        Field::Kind => "--kind",
        Field::Givens => "--givens",
        Field::Blanks => "--blanks",
        Field::Uniform => "--uniform",
        Field::Symmetry => "--symmetry",
        Field::Minimal => "--minimal",
        Field::Engine => "--engine",
        Field::Difficulty => "--difficulty",
        Field::Score => "--score",
        Field::Rate => "--rate",
        Field::Attempts => "--attempts",
        Field::Diagram => "--zdd/--sample",
        Field::Cheapest => "--cheapest",
        Field::Levels => "--levels",
        Field::LevelNodes => "--level-nodes",
        Field::Box => "--box",
        Field::Variant => "--variant",
        Field::Scale => "--scale",
        Field::Count => "--count",
        _ => "a flag",
    }
}

/// Parses a number of seconds for a time budget, checked by [`check::seconds`].
pub fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    check::seconds(value).map_err(|invalid| invalid.message)
}

/// Parses a thread count, checked by [`check::threads`] (0: one per core).
pub fn threads(text: &str) -> Result<usize, String> {
    let value: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a thread count (0 for one per core)"))?;
    check::threads(value).map_err(|invalid| invalid.message)
}

/// Parses a positive count (a solution limit), checked by [`check::limit`]: 1 or more.
pub fn positive(text: &str) -> Result<u64, String> {
    let value = text
        .trim()
        .parse::<u64>()
        .map_err(|_| format!("'{text}' is not a whole number from 1 to {}", u64::MAX))?;
    check::limit(Some(value))
        .map(|_| value)
        .map_err(|invalid| invalid.message)
}

/// Parses a whole number of nodes, cells or puzzles, 0 or more.
pub fn whole(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number from 0 to {}", u64::MAX))
}

/// Parses a node budget, checked by [`check::node_budget`] (no budget is the flag left out).
pub fn nodes(text: &str) -> Result<u64, String> {
    let value = whole(text)?;
    check::node_budget(Some(value))
        .map(|_| value)
        .map_err(|invalid| invalid.message)
}

/// Parses the path of an SVG chart: it must end in `.svg`, so that a typo such as
/// `--plot out.json` is caught before any work.
pub fn svg_path(text: &str) -> Result<std::path::PathBuf, String> {
    let path = std::path::PathBuf::from(text);
    match path.extension().and_then(|e| e.to_str()) {
        Some(ext) if ext.eq_ignore_ascii_case("svg") => Ok(path),
        _ => Err(format!(
            "'{text}' does not end in .svg: the chart is an SVG file"
        )),
    }
}

/// The per-search budget flags.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct BudgetArgs {
    /// Give up after N search-tree nodes, N >= 1 (the answer is then `undecided` or a lower
    /// bound `N+`).
    #[arg(long, value_name = "N", value_parser = nodes)]
    pub node_budget: Option<u64>,
    /// Give up after this many seconds (the answer is then `undecided` or a lower bound `N+`).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub time_budget: Option<Duration>,
}

impl BudgetArgs {
    /// The budget the flags ask for.
    pub fn budget(&self) -> Budget {
        Budget {
            nodes: self.node_budget,
            time: self.time_budget,
            interrupt: None,
        }
    }
}

/// How a count of every solution remembers subproblems (see `quadrille::exact_cover::Memo`).
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct MemoArgs {
    /// Remember the count of each subproblem (the items left uncovered) when a count of every
    /// solution finds them repeating (auto), always, or never (off).
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = memo_mode)]
    pub memo: MemoMode,
    /// The item a remembering count branches on where none is forced: the first uncovered
    /// one in the problem's order, counted layer by layer where the problem's order keeps
    /// every option near its first primary item and MRV elsewhere (layers), the first
    /// uncovered one (first-item) or the one of fewest options (mrv).
    #[arg(long, value_name = "ITEM", default_value = "layers", value_parser = memo_branching)]
    pub memo_branching: MemoBranching,
    /// The most memory for remembered subproblems, as bytes or with K, M or G (1024-based):
    /// a full table forgets old entries, it never fails.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = memory_size)]
    pub memory: usize,
}

impl MemoArgs {
    /// The remembering the flags ask for.
    pub fn memo(&self) -> Memo {
        Memo {
            mode: self.memo,
            branching: self.memo_branching,
            memory: self.memory,
        }
    }
}

fn memo_mode(text: &str) -> Result<MemoMode, String> {
    text.parse()
}

fn memo_branching(text: &str) -> Result<MemoBranching, String> {
    text.parse()
}

/// Parses a size in bytes: a whole number, perhaps followed by K, M or G (powers of 1024).
pub fn memory_size(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let (digits, unit) = match text.char_indices().last() {
        Some((at, 'k' | 'K')) => (&text[..at], 1usize << 10),
        Some((at, 'm' | 'M')) => (&text[..at], 1 << 20),
        Some((at, 'g' | 'G')) => (&text[..at], 1 << 30),
        _ => (text, 1),
    };
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .filter(|&bytes| bytes > 0)
        .ok_or_else(|| format!("'{text}' is not a size such as 512M or 2G"))
}

/// How searches with a solution limit restart (see `quadrille::restart`).
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct RestartArgs {
    /// The seed of the restarts' random choices: the same seed gives the same output. Puzzles
    /// that the first run decides do not depend on it.
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    pub seed: u64,
    /// No restarts: one plain search per puzzle (slower on hard large grids; for comparisons).
    #[arg(long)]
    pub no_restarts: bool,
}

impl RestartArgs {
    /// The restarts the flags ask for.
    pub fn restarts(&self) -> Option<Restarts> {
        (!self.no_restarts).then_some(Restarts::new(self.seed))
    }
}

/// A thread pool of `threads` threads (0: one per core), the calling thread one of them. Pools
/// are built here, at the edge, and the library runs on whichever pool it is called in.
pub fn pool(threads: usize) -> quadrille::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        // The main thread works rather than waits: one thread fewer to start, which a batch of
        // quick puzzles on one thread feels (benches/peers/batch9.sh).
        .use_current_thread()
        .build()
        .map_err(|e| std::io::Error::other(format!("cannot start {threads} threads: {e}")).into())
}
