//! The cheapest solutions of an exact-cover problem with costs, or its least cost and how many
//! solutions cost that: `quadrille xc --cheapest K` and `--min-cost`, Python's
//! `ExactCover.cheapest` and `min_cost`.

use serde::Serialize;

use super::check::{self, Field, Invalid};
use super::on_threads;
use crate::budget::{Budget, Stop};
use crate::exact_cover::{self, Problem, Report};

/// The most cheapest solutions asked for: each is kept in memory while the search runs.
pub const MAX_CHEAPEST: u64 = 1_000_000;

/// What to find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostGoal {
    /// The `K` cheapest solutions, cheapest first.
    Cheapest(u64),
    /// The least cost and the number of solutions of that cost.
    MinCost,
}

/// A search for the cheapest solutions, by branch and bound ([`exact_cover::cheapest`]).
///
/// ```
/// use quadrille::Budget;
/// use quadrille::io::dlx::parse_problem;
/// use quadrille::request::{CheapestRequest, CostGoal};
///
/// let problem = parse_problem("a b\na b |5\na |1\nb |2\nb |3\n")?.into_problem();
/// let request = CheapestRequest { goal: CostGoal::Cheapest(2), ..CheapestRequest::default() };
/// let record = request.run(&problem)?;
/// let costs: Vec<u64> = record.solutions.iter().map(|s| s.cost).collect();
/// assert_eq!((costs, record.complete), (vec![3, 4], true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheapestRequest {
    /// What to find.
    pub goal: CostGoal,
    /// Threads (0: one per core): more than one split the tree and share the cost to beat;
    /// the answer is the one thread's, solutions, costs and order.
    pub threads: usize,
    /// The budget of the search.
    pub budget: Budget,
}

impl Default for CheapestRequest {
    fn default() -> CheapestRequest {
        CheapestRequest {
            goal: CostGoal::Cheapest(1),
            threads: 1,
            budget: Budget::unlimited(),
        }
    }
}

/// A solution with its cost, and whether it is proved to be where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PricedRecord {
    /// The sum of its options' costs.
    pub cost: u64,
    /// Its options, numbered from 0 in input order, in the order the search chose them.
    pub options: Vec<usize>,
    /// Whether its cost is proved to be that of the solution of its rank (false only under a
    /// budget: then it is the best found so far).
    pub proved: bool,
}

/// The answer to a [`CheapestRequest`]; serialised, `quadrille xc --cheapest K --json`'s (or
/// `--min-cost --json`'s) object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheapestRecord {
    /// The cheapest solutions found, cheapest first (ties in the tree's order); for
    /// [`CostGoal::MinCost`], the first found of the least cost.
    pub solutions: Vec<PricedRecord>,
    /// The least cost, if there is a solution (proved when `complete`).
    pub min_cost: Option<u64>,
    /// For [`CostGoal::MinCost`]: the number of solutions of the least cost (a lower bound
    /// unless `complete`); `None` for [`CostGoal::Cheapest`].
    pub count_at_min: Option<u64>,
    /// Whether the search finished, so that every answer is proved.
    pub complete: bool,
    /// Why the search ended.
    pub stop: Stop,
    /// When the search did not finish: a lower bound on the cost of every solution it did
    /// not find (nor cut off as too dear).
    pub bound: Option<u64>,
    /// Search-tree nodes.
    pub nodes: u64,
    /// Link updates.
    pub updates: u64,
    /// Nodes and options cut off by the bound.
    pub pruned: u64,
    /// The deepest level of the search tree.
    pub max_depth: usize,
    /// Seconds of work.
    pub seconds: f64,
}

impl CheapestRequest {
    /// Checks the request: `K` from 1 to [`MAX_CHEAPEST`], valid threads and budget.
    pub fn check(&self) -> Result<(), Invalid> {
        if let CostGoal::Cheapest(k) = self.goal
            && !(1..=MAX_CHEAPEST).contains(&k)
        {
            return Err(Invalid::new(
                Field::Cheapest,
                format!("from 1 to {MAX_CHEAPEST} solutions, not {k}"),
            ));
        }
        check::threads(self.threads)?;
        check::node_budget(self.budget.nodes)?;
        Ok(())
    }

    /// Checks the request and runs it on `problem`.
    pub fn run(&self, problem: &Problem) -> crate::Result<CheapestRecord> {
        self.check()?;
        let record = match self.goal {
            CostGoal::Cheapest(k) => {
                let (k, budget) = (k as usize, &self.budget);
                let found = match self.threads {
                    1 => exact_cover::cheapest(problem, k, budget),
                    n => on_threads(n, || exact_cover::cheapest_parallel(problem, k, budget))?,
                };
                let solutions: Vec<PricedRecord> = (found.solutions.into_iter())
                    .enumerate()
                    .map(|(rank, s)| PricedRecord {
                        cost: s.cost,
                        options: s.options,
                        proved: rank < found.proved,
                    })
                    .collect();
                let min_cost = solutions.first().map(|s| s.cost);
                record(
                    solutions,
                    min_cost,
                    None,
                    found.bound,
                    found.pruned,
                    &found.report,
                )
            }
            CostGoal::MinCost => {
                let budget = &self.budget;
                let found = match self.threads {
                    1 => exact_cover::min_cost(problem, budget),
                    n => on_threads(n, || exact_cover::min_cost_parallel(problem, budget))?,
                };
                let min_cost = found.best.as_ref().map(|s| s.cost);
                let solutions = (found.best.into_iter())
                    .map(|s| PricedRecord {
                        cost: s.cost,
                        options: s.options,
                        proved: found.proved,
                    })
                    .collect();
                let count = Some(found.count);
                record(
                    solutions,
                    min_cost,
                    count,
                    found.bound,
                    found.pruned,
                    &found.report,
                )
            }
        };
        Ok(record)
    }
}

fn record(
    solutions: Vec<PricedRecord>,
    min_cost: Option<u64>,
    count_at_min: Option<u64>,
    bound: Option<u64>,
    pruned: u64,
    report: &Report,
) -> CheapestRecord {
    CheapestRecord {
        solutions,
        min_cost,
        count_at_min,
        complete: report.is_complete(),
        stop: report.stop,
        bound,
        nodes: report.stats.nodes,
        updates: report.stats.updates,
        pruned,
        max_depth: report.stats.max_depth,
        seconds: report.stats.elapsed.as_secs_f64(),
    }
}
