//! [`ListRequest`]: the solutions of an exact-cover problem, listed as `quadrille xc` lists
//! them (and Python's `ExactCover.solutions`, `quadrille serve`'s `/api/solutions`): the
//! plan's order, restarts and learning are chosen here, so that every front end lists the same
//! solutions in the same order.
//!
//! - Plain exact cover: Algorithm X with MRV (dlx1's order for [`Search::Knuth`]), restarted on
//!   Luby's schedule unless the search is [`Search::Plain`] or Knuth's; a list of every
//!   solution also learns, so that each comes once and the proof that there is no other is
//!   short.
//! - Colours and multiplicities: Algorithm M.

use serde::Serialize;

use super::Search;
use super::check::{self, Field, Invalid};
use crate::Result;
use crate::budget::{Budget, Stop};
use crate::exact_cover::{Branching, Control, Dlx, Plan, Problem, Xcc, up_to};
use crate::restart::Restarts;

/// The most solutions [`ListRequest::run`] keeps: each is held until the search ends and
/// answered at once (a page's reply), so a list to keep is short; a list handed to a sink
/// ([`ListRequest::each`]) has no such bound.
pub const MAX_LISTED: u64 = 1000;

/// Solutions of one exact-cover problem, up to a limit.
///
/// ```
/// use quadrille::problems;
/// use quadrille::request::ListRequest;
///
/// let problem = problems::dominoes(2, 4)?;
/// let record = ListRequest { limit: Some(3), ..ListRequest::default() }.run(&problem)?;
/// assert_eq!((record.found, record.solutions.len(), record.complete), (3, 3, false));
/// for solution in &record.solutions {
///     assert_eq!(solution.options.len(), 4);
///     assert_eq!(solution.lines.len(), 4);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListRequest {
    /// Stop after this many solutions; `None`: every one (only for [`ListRequest::each`]).
    pub limit: Option<u64>,
    /// How it searches.
    pub search: Search,
    /// The seed of the restarts' random choices.
    pub seed: u64,
    /// The budget of the search.
    pub budget: Budget,
}

impl Default for ListRequest {
    /// The first ten, a page's worth, found by the default search.
    fn default() -> ListRequest {
        ListRequest {
            limit: Some(10),
            search: Search::Default,
            seed: 0,
            budget: Budget::unlimited(),
        }
    }
}

/// One solution listed: its options, numbered from 0 in input order, in the order the search
/// chose them, and each option's line as the problem gives it (`xc`'s output).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListedSolution {
    /// The options' numbers.
    pub options: Vec<usize>,
    /// The options' lines.
    pub lines: Vec<String>,
}

/// The answer to a [`ListRequest`]: the solutions kept, and the search's statistics.
/// Serialised, it is `/api/solutions`' object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ListRecord {
    /// The solutions kept ([`ListRequest::run`]); empty when they went to a sink.
    pub solutions: Vec<ListedSolution>,
    /// Solutions found.
    pub found: u64,
    /// Whether the search finished, so that there is no other solution.
    pub complete: bool,
    /// Why the search ended.
    pub stop: Stop,
    /// Search-tree nodes.
    pub nodes: u64,
    /// Link updates (Knuth's count of them for [`Search::Knuth`]).
    pub updates: u64,
    /// The deepest level of the search tree.
    pub max_depth: usize,
    /// Runs cut off and restarted.
    pub restarts: u64,
    /// Nogoods learned.
    pub learned: u64,
    /// Seconds of work.
    pub seconds: f64,
}

impl ListRequest {
    /// Checks the request against `problem`: the limit and budget in range, and Knuth's walk
    /// only on plain exact cover.
    pub fn check(&self, problem: &Problem) -> std::result::Result<(), Invalid> {
        check::limit(self.limit)?;
        check::node_budget(self.budget.nodes)?;
        if self.search == Search::Knuth && !problem.is_plain() {
            return Err(Invalid::new(
                Field::Search,
                format!(
                    "Knuth's walk is for plain exact cover, and the problem has {}",
                    super::problem_kind(problem)
                ),
            ));
        }
        Ok(())
    }

    /// Lists the solutions and keeps them, each with its options' lines: a limit from 1 to
    /// [`MAX_LISTED`] is required.
    pub fn run(&self, problem: &Problem) -> Result<ListRecord> {
        match self.limit {
            Some(limit) if limit <= MAX_LISTED => {}
            _ => {
                return Err(Invalid::new(
                    Field::Limit,
                    format!("at most {MAX_LISTED} solutions are kept: give a limit up to that"),
                )
                .into());
            }
        }
        let mut kept = Vec::new();
        let mut record = self.each(problem, &mut |options| {
            kept.push(ListedSolution {
                options: options.to_vec(),
                lines: options.iter().map(|&o| problem.option_text(o)).collect(),
            });
            Ok(())
        })?;
        record.solutions = kept;
        Ok(record)
    }

    /// Lists the solutions to `each`, which gets each solution's options in the order the
    /// search chose them, and stops the search with an error of its own (a closed pipe).
    pub fn each(
        &self,
        problem: &Problem,
        each: &mut dyn FnMut(&[usize]) -> Result<()>,
    ) -> Result<ListRecord> {
        self.check(problem)?;
        let mut failure = None;
        let mut options = Vec::new();
        let sink = up_to(self.limit, |s| {
            options.clear();
            s.options_into(&mut options);
            match each(&options) {
                Ok(()) => Control::Continue,
                Err(err) => {
                    failure = Some(err);
                    Control::Stop
                }
            }
        });
        let report = if problem.is_plain() {
            let branching = match self.search {
                Search::Knuth => Branching::Knuth,
                _ => Branching::Mrv,
            };
            let restarts = (self.search == Search::Default).then_some(Restarts::new(self.seed));
            let plan = Plan::new()
                .branching(branching)
                .restarts(restarts)
                .learning(restarts.is_some() && self.limit.is_none());
            Dlx::new(problem).run(&plan, &self.budget, sink)?
        } else {
            Xcc::new(problem).search(&self.budget, sink)
        };
        if let Some(err) = failure {
            return Err(err);
        }
        let stats = &report.stats;
        Ok(ListRecord {
            solutions: Vec::new(),
            found: stats.solutions,
            complete: report.is_complete(),
            stop: report.stop,
            nodes: stats.nodes,
            updates: if self.search == Search::Knuth {
                stats.knuth_updates()
            } else {
                stats.updates
            },
            max_depth: stats.max_depth,
            restarts: stats.restarts,
            learned: stats.learned,
            seconds: stats.elapsed.as_secs_f64(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact_cover::ItemKind;
    use crate::io::dlx::parse_problem;
    use crate::problems;
    use crate::request::ExactCoverCount;

    /// Whether `options` cover every primary item of `problem` once, and each secondary item
    /// at most once or always in one colour.
    fn is_exact_cover(problem: &Problem, options: &[usize]) -> bool {
        let mut seen: Vec<Vec<Option<&str>>> = vec![Vec::new(); problem.item_count()];
        for &option in options {
            for (k, &item) in problem.option(option).iter().enumerate() {
                seen[item].push(problem.option_color(option, k));
            }
        }
        seen.iter().enumerate().all(|(item, colours)| {
            if problem.item_kind(item) == ItemKind::Primary {
                colours.len() == 1
            } else {
                colours.len() <= 1 || colours.iter().all(|c| c.is_some() && *c == colours[0])
            }
        })
    }

    #[test]
    fn every_search_lists_distinct_exact_covers_as_many_as_the_count() {
        let problem = problems::queens(6).unwrap();
        let total = ExactCoverCount::default().run(&problem, &|_| {}).unwrap();
        assert_eq!(total.solutions.to_string(), "4");
        for search in [Search::Default, Search::Plain, Search::Knuth] {
            let request = ListRequest {
                limit: Some(MAX_LISTED),
                search,
                ..ListRequest::default()
            };
            let record = request.run(&problem).unwrap();
            assert_eq!((record.found, record.complete), (4, true), "{search:?}");
            let mut seen: Vec<Vec<usize>> = Vec::new();
            for solution in &record.solutions {
                assert!(is_exact_cover(&problem, &solution.options), "{search:?}");
                let lines: Vec<String> = (solution.options.iter())
                    .map(|&o| problem.option_text(o))
                    .collect();
                assert_eq!(lines, solution.lines);
                let mut sorted = solution.options.clone();
                sorted.sort_unstable();
                assert!(!seen.contains(&sorted), "{search:?}: listed twice");
                seen.push(sorted);
            }
        }
        // Every one, to a sink, with learning: still each once.
        let mut streamed = 0;
        let every = ListRequest {
            limit: None,
            ..ListRequest::default()
        };
        let record = every
            .each(&problem, &mut |options| {
                assert!(is_exact_cover(&problem, options));
                streamed += 1;
                Ok(())
            })
            .unwrap();
        assert_eq!((streamed, record.found, record.solutions.len()), (4, 4, 0));
    }

    #[test]
    fn colours_are_listed_by_algorithm_m_and_refuse_knuths_walk() {
        let problem = parse_problem("a b | x\na x:A\nb x:A\nb x:B\na b\n")
            .unwrap()
            .into_problem();
        let record = ListRequest::default().run(&problem).unwrap();
        let lines: Vec<&Vec<String>> = record.solutions.iter().map(|s| &s.lines).collect();
        assert_eq!(record.found, 2);
        assert!(lines.iter().all(|l| l.len() <= 2));
        assert!(
            record
                .solutions
                .iter()
                .all(|s| is_exact_cover(&problem, &s.options))
        );
        let knuth = ListRequest {
            search: Search::Knuth,
            ..ListRequest::default()
        };
        let err = knuth.run(&problem).unwrap_err();
        assert!(err.to_string().contains("colours"), "{err}");
    }

    #[test]
    fn a_kept_list_needs_a_limit_within_the_cap_and_a_sink_error_stops_it() {
        let problem = problems::dominoes(4, 4).unwrap();
        for limit in [None, Some(MAX_LISTED + 1)] {
            let err = (ListRequest {
                limit,
                ..ListRequest::default()
            })
            .run(&problem)
            .unwrap_err();
            assert!(err.to_string().contains("at most 1000"), "{err}");
        }
        let zero = ListRequest {
            limit: Some(0),
            ..ListRequest::default()
        };
        assert!(zero.run(&problem).is_err());
        let mut calls = 0;
        let err = (ListRequest::default())
            .each(&problem, &mut |_| {
                calls += 1;
                Err(std::io::Error::other("closed").into())
            })
            .unwrap_err();
        assert_eq!((calls, err.to_string().contains("closed")), (1, true));
    }
}
