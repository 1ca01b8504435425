//! [`ExactCoverCount`]: how many solutions an exact-cover problem has, asked the same way by
//! every front end (`quadrille xc --count`, Python's `ExactCover.count`), and answered by one
//! strategy, here:
//!
//! - Plain exact cover, every solution, the default search: [`Dlx::count_all`]'s choice on one
//!   thread (a first plain search, then remembering, learning or enumeration, whichever the
//!   problem needs); on several, the same start ([`Dlx::count_start`]) with an enumeration
//!   split across the threads. Remembering counts at any size.
//! - A limit, no restarts or Knuth's walk: one search of the plan asked for, or the tree split
//!   across the threads.
//! - Colours and multiplicities, every solution, the default search: a first search of
//!   Algorithm M, then remembering if a trial finds subproblems repeating
//!   ([`Xcc::count_start`]), else Algorithm M on one thread or split. With a limit or
//!   `Search::Plain`: Algorithm M.
//!
//! Whether the caller sits at a terminal changes nothing here: a progress callback sees the
//! work as it is done, and the answer and its statistics are the same without one.

use num_bigint::BigUint;
use serde::Serialize;

use super::check::{self, Field, Invalid};
use super::on_threads;
use crate::Result;
use crate::budget::{Budget, SolutionCount, Stop};
use crate::exact_cover::FIRST_NODES;
use crate::exact_cover::{
    Branching, CountSink, CountStart, Dlx, Memo, MemoCount, MemoMode, PartsDone, Plan, Problem,
    Report, Stats, Xcc,
};
use crate::restart::Restarts;

/// How a count of an exact-cover problem searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Search {
    /// The search the problem needs: restarts for a limited count, and for every solution the
    /// first plain search, remembering, learning or enumeration (see the module's description).
    #[default]
    Default,
    /// One plain run of Algorithm X with MRV, never restarted, never learning: the statistics
    /// of the textbook search.
    Plain,
    /// Knuth's dlx1, counted as he counts (updates as in "Dancing Links"): one thread, plain
    /// exact cover only.
    Knuth,
}

/// A count of the solutions of one exact-cover problem: the request of `quadrille xc --count`
/// and of Python's `ExactCover.count`.
///
/// ```
/// use quadrille::problems;
/// use quadrille::request::ExactCoverCount;
///
/// let problem = problems::dominoes(8, 8)?;
/// let record = ExactCoverCount { threads: 2, ..ExactCoverCount::default() }.run(&problem, &|_| {})?;
/// assert_eq!(record.solutions.to_string(), "12988816");
/// assert!(record.complete);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactCoverCount {
    /// Stop at this many solutions (the count is then `N+`); `None`: every solution.
    pub limit: Option<u64>,
    /// Threads to count on: 1 (the default), or 0 for one per core.
    pub threads: usize,
    /// The budget of the whole count, its recount beyond 64 bits included.
    pub budget: Budget,
    /// How it searches.
    pub search: Search,
    /// The seed of the restarts' random choices (a limited count with the default search).
    pub seed: u64,
    /// How a count of every solution remembers subproblems.
    pub memo: Memo,
}

impl Default for ExactCoverCount {
    fn default() -> ExactCoverCount {
        ExactCoverCount {
            limit: None,
            threads: 1,
            budget: Budget::unlimited(),
            search: Search::Default,
            seed: 0,
            memo: Memo::default(),
        }
    }
}

/// How a count went: which search counted it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// One search counted it: the first plain one, a limited one, or the textbook one.
    OneSearch,
    /// The learning search proved it.
    Learning,
    /// Remembering subproblems counted it.
    Remembering,
    /// Plain enumeration, split into parts across the threads (one part on one thread).
    Enumerated {
        /// The parts the tree was split into.
        parts: usize,
    },
    /// Algorithm M (colours or multiplicities).
    AlgorithmM,
}

/// The answer to an [`ExactCoverCount`]: the count and the statistics of the whole work.
/// Serialised, it is `quadrille xc --count --json`'s object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CountRecord {
    /// The count: exact, or a lower bound (`N+`) when a limit or a budget stopped it.
    pub solutions: SolutionCount,
    /// Search-tree nodes.
    pub nodes: u64,
    /// Link updates (Knuth's count of them for [`Search::Knuth`]).
    pub updates: u64,
    /// Seconds of work (on several threads, each thread's added up).
    pub seconds: f64,
    /// Whether the count is exact.
    pub complete: bool,
    /// Why the count ended.
    pub stop: Stop,
    /// The deepest level of the search tree.
    pub max_depth: usize,
    /// Runs cut off and restarted.
    pub restarts: u64,
    /// Nogoods learned.
    pub learned: u64,
    /// Subproblems remembered.
    pub subproblems: u64,
    /// Subproblems found remembered.
    pub cache_hits: u64,
    /// The item a remembering count branched on, when it remembered.
    pub memo_branching: Option<&'static str>,
    /// Which search counted it (not in the JSON object, which predates it).
    #[serde(skip)]
    pub route: Route,
}

impl ExactCoverCount {
    /// Checks the request against `problem`: each field in range, and nothing asked that the
    /// problem's kind cannot do.
    pub fn check(&self, problem: &Problem) -> std::result::Result<(), Invalid> {
        check::limit(self.limit)?;
        check::threads(self.threads)?;
        check::node_budget(self.budget.nodes)?;
        if self.search == Search::Knuth && self.threads != 1 {
            return Err(Invalid::new(
                Field::Threads,
                "Knuth's walk searches on one thread: leave the threads at 1",
            ));
        }
        if !problem.is_plain() {
            let what = problem_kind(problem);
            if self.search == Search::Knuth {
                return Err(Invalid::new(
                    Field::Search,
                    format!("Knuth's walk is for plain exact cover, and the problem has {what}"),
                ));
            }
        }
        Ok(())
    }

    /// Checks the request ([`ExactCoverCount::check`]) and counts, on a pool of
    /// [`threads`](ExactCoverCount::threads) threads when there is more than one, telling
    /// `progress` how far a split count has got.
    pub fn run(
        &self,
        problem: &Problem,
        progress: &(dyn Fn(PartsDone) + Sync),
    ) -> Result<CountRecord> {
        self.check(problem)?;
        if self.limit.is_none()
            && self.search == Search::Default
            && self.memo.mode != MemoMode::Off
            && let Some(parts) = problem.components()
        {
            return self.count_parts(&parts, progress);
        }
        if !problem.is_plain() {
            let mut xcc = Xcc::new(problem);
            if self.limit.is_none() && self.search == Search::Default {
                return self.count_every_xcc(&mut xcc);
            }
            let report = if self.threads == 1 {
                xcc.search(&self.budget, CountSink::new(self.limit))
            } else {
                on_threads(self.threads, || {
                    xcc.count_parallel(self.limit, &self.budget)
                })?
            };
            return Ok(self.record(&report, None, Route::AlgorithmM));
        }
        let mut dlx = Dlx::new(problem);
        dlx.set_memo(self.memo);
        if self.limit.is_none() && self.search == Search::Default {
            return self.count_every(&mut dlx, progress);
        }
        let report = if self.threads == 1 {
            let branching = match self.search {
                Search::Knuth => Branching::Knuth,
                _ => Branching::Mrv,
            };
            let restarts = (self.search == Search::Default).then_some(Restarts::new(self.seed));
            let plan = Plan::new().branching(branching).restarts(restarts);
            dlx.run(&plan, &self.budget, CountSink::new(self.limit))?
        } else {
            on_threads(self.threads, || {
                dlx.count_parallel_with(self.limit, &self.budget, progress)
            })?
        };
        Ok(self.record(&report, None, Route::OneSearch))
    }

    /// Every solution of plain exact cover, with the search the problem needs.
    fn count_every(
        &self,
        dlx: &mut Dlx,
        progress: &(dyn Fn(PartsDone) + Sync),
    ) -> Result<CountRecord> {
        // On the threads' pool, so that a count by layers shares its layers among them.
        let start = if self.threads == 1 {
            dlx.count_all_start(&self.budget)
        } else {
            on_threads(self.threads, || dlx.count_start(&self.budget))?
        };
        match start {
            CountStart::Done(report) => Ok(self.record(&report, None, route_of(&report.stats))),
            CountStart::Remembered(counted) => Ok(self.remembered(counted)),
            CountStart::Enumerate { spent, rest } if self.threads == 1 => {
                let mut report = dlx.search(&rest, CountSink::new(None));
                report.stats.add(&spent);
                Ok(self.record(&report, None, Route::Enumerated { parts: 1 }))
            }
            CountStart::Enumerate { spent, rest } => {
                let parts = std::sync::atomic::AtomicUsize::new(0);
                let tell = |done: PartsDone| {
                    parts.store(done.parts, std::sync::atomic::Ordering::Relaxed);
                    progress(done);
                };
                let mut report =
                    on_threads(self.threads, || dlx.count_parallel_with(None, &rest, &tell))?;
                report.stats.add(&spent);
                let parts = parts.into_inner();
                Ok(self.record(&report, None, Route::Enumerated { parts }))
            }
        }
    }

    /// Every solution of a problem in independent parts ([`Problem::components`]): the
    /// product of the parts' counts, each counted as a problem of its own (remembered on its
    /// own, if it is remembered), within what the parts before it left of the budget. A part
    /// stopped by the budget leaves the parts after it uncounted, and the count a lower bound
    /// of 0, unless it was the last.
    fn count_parts(
        &self,
        parts: &[Problem],
        progress: &(dyn Fn(PartsDone) + Sync),
    ) -> Result<CountRecord> {
        let start = std::time::Instant::now();
        let mut product = BigUint::from(1u32);
        let mut total: Option<CountRecord> = None;
        // The route of the part with the most nodes.
        let mut route = (0, Route::OneSearch);
        let mut stop = Stop::Exhausted;
        for (k, part) in parts.iter().enumerate() {
            let spent = total.as_ref().map_or(0, |t| t.nodes);
            let request = ExactCoverCount {
                budget: self.budget.after(spent, start.elapsed()),
                ..*self
            };
            let record = request.run(part, progress)?;
            if record.nodes >= route.0 {
                route = (record.nodes, record.route);
            }
            let last = k + 1 == parts.len();
            if record.complete || last {
                product *= &record.solutions.solutions;
            } else {
                product = BigUint::ZERO;
            }
            if !record.complete {
                stop = record.stop;
            }
            let zero = record.complete && record.solutions.solutions == BigUint::ZERO;
            total = Some(match total {
                None => record,
                Some(sum) => CountRecord {
                    memo_branching: sum.memo_branching.or(record.memo_branching),
                    nodes: sum.nodes + record.nodes,
                    updates: sum.updates + record.updates,
                    seconds: sum.seconds + record.seconds,
                    max_depth: sum.max_depth.max(record.max_depth),
                    restarts: sum.restarts + record.restarts,
                    learned: sum.learned + record.learned,
                    subproblems: sum.subproblems + record.subproblems,
                    cache_hits: sum.cache_hits + record.cache_hits,
                    ..sum
                },
            });
            // No solution in one part: none in the whole, the other parts uncounted.
            if !stop.is_complete() || zero {
                break;
            }
        }
        let mut total = total.expect("a problem in parts has two at least");
        total.solutions = SolutionCount::new(product, stop);
        (total.complete, total.stop) = (total.solutions.is_exact(), total.solutions.stop);
        total.route = route.1;
        Ok(total)
    }

    /// Every solution of a problem with colours or multiplicities: remembered where a trial
    /// finds its subproblems repeating, else Algorithm M, on one thread or split.
    fn count_every_xcc(&self, xcc: &mut Xcc) -> Result<CountRecord> {
        match xcc.count_start(&self.budget, &self.memo) {
            CountStart::Done(report) => Ok(self.record(&report, None, Route::AlgorithmM)),
            CountStart::Remembered(counted) => Ok(self.remembered(counted)),
            CountStart::Enumerate { spent, rest } => {
                let mut report = if self.threads == 1 {
                    xcc.search(&rest, CountSink::new(None))
                } else {
                    on_threads(self.threads, || xcc.count_parallel(None, &rest))?
                };
                report.stats.add(&spent);
                Ok(self.record(&report, None, Route::AlgorithmM))
            }
        }
    }

    /// The record of a remembering count, of any size (its report's count stops at 64 bits).
    fn remembered(&self, counted: MemoCount) -> CountRecord {
        let stop = if counted.exact {
            Stop::Exhausted
        } else if counted.report.stop.is_budget() {
            counted.report.stop
        } else {
            Stop::Limit
        };
        let count = SolutionCount::new(counted.solutions, stop);
        CountRecord {
            memo_branching: Some(counted.branching.name()),
            ..self.record(&counted.report, Some(count), Route::Remembering)
        }
    }

    /// The record of `report`, with `count` in place of its own when remembering made it.
    fn record(&self, report: &Report, count: Option<SolutionCount>, route: Route) -> CountRecord {
        let stats = &report.stats;
        let solutions = count.unwrap_or(SolutionCount::new(stats.solutions, report.stop));
        let (complete, stop) = (solutions.is_exact(), solutions.stop);
        CountRecord {
            solutions,
            nodes: stats.nodes,
            updates: if self.search == Search::Knuth {
                stats.knuth_updates()
            } else {
                stats.updates
            },
            seconds: stats.elapsed.as_secs_f64(),
            complete,
            stop,
            max_depth: stats.max_depth,
            restarts: stats.restarts,
            learned: stats.learned,
            subproblems: stats.subproblems,
            cache_hits: stats.cache_hits,
            memo_branching: (stats.subproblems > 0).then(|| self.memo.branching.name()),
            route,
        }
    }
}

/// Which search made a count of every solution on one thread, by its statistics: a plain
/// search that went on past the first search's nodes was an enumeration, in one part.
fn route_of(stats: &Stats) -> Route {
    if stats.subproblems > 0 {
        Route::Remembering
    } else if stats.learned > 0 {
        Route::Learning
    } else if stats.nodes > FIRST_NODES {
        Route::Enumerated { parts: 1 }
    } else {
        Route::OneSearch
    }
}

/// What makes `problem` more than plain exact cover, in words (`colours`, `multiplicities`,
/// `colours and multiplicities`), for messages that refuse it what only plain exact cover has.
pub fn problem_kind(problem: &Problem) -> &'static str {
    match (problem.has_colors(), problem.has_multiplicities()) {
        (true, true) => "colours and multiplicities",
        (true, false) => "colours",
        _ => "multiplicities",
    }
}
