//! The decision diagram of every solution of plain exact cover, and solutions drawn from it
//! exactly uniformly: the requests of `xc --zdd` and `xc --sample`, and of Python's
//! `ExactCover.write_zdd` and `ExactCover.sample`.

use std::time::{Duration, Instant};

use num_bigint::BigUint;
use serde::Serialize;

use rand::SeedableRng;
use rand_pcg::Pcg64;

use super::check::{Field, Invalid};
use super::count::problem_kind;
#[cfg(doc)]
use crate::budget::SolutionCount;
use crate::budget::{Budget, Stop};
use crate::error::Result;
use crate::exact_cover::{Dlx, Memo, Problem, Zdd};

/// What a diagram holds, as `xc --zdd FILE --json` prints it and Python's
/// `ExactCover.write_zdd` returns it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiagramRecord {
    /// The number of solutions, of any size (in JSON as [`SolutionCount`] writes a count).
    #[serde(serialize_with = "crate::budget::serialize_count")]
    pub solutions: BigUint,
    /// Nodes of the diagram, the two terminals included.
    pub zdd_nodes: usize,
    /// Seconds from the start of the build to the record.
    pub seconds: f64,
}

impl DiagramRecord {
    /// The record of `zdd`, built (and written) in `elapsed`.
    pub fn of(zdd: &Zdd, elapsed: Duration) -> DiagramRecord {
        DiagramRecord {
            solutions: zdd.count(),
            zdd_nodes: zdd.node_count(),
            seconds: elapsed.as_secs_f64(),
        }
    }
}

/// `k` solutions drawn exactly uniformly at random (with repetition) from the diagram of every
/// solution, seeded: the same seed gives the same solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleRequest {
    /// How many solutions to draw.
    pub k: u64,
    /// The seed of the draws.
    pub seed: u64,
    /// How the diagram is built: its memory and its item choice.
    pub memo: Memo,
    /// The budget of the diagram and the draws: the diagram is all or nothing (a budget that
    /// runs out while it is built is an error), the draws stop where the time runs out.
    pub budget: Budget,
}

/// What a [`SampleRequest`] drew.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleRecord {
    /// Solutions drawn.
    pub drawn: u64,
    /// The number of solutions, of any size.
    pub solutions: BigUint,
    /// Nodes of the diagram.
    pub zdd_nodes: usize,
    /// `Exhausted` when every draw asked for was made, `TimeBudget` when the budget's time or
    /// its interrupt stopped them first.
    pub stop: Stop,
}

/// The diagram of every solution of `problem` within `memo`'s memory and `budget`: plain
/// exact cover only.
///
/// # Errors
/// An [`Invalid`] request for a problem with colours or multiplicities,
/// [`ErrorKind::DiagramTooLarge`](crate::ErrorKind::DiagramTooLarge), or
/// [`ErrorKind::StoppedBuilding`](crate::ErrorKind::StoppedBuilding).
pub fn diagram(problem: &Problem, memo: &Memo, budget: &Budget) -> Result<Zdd> {
    if !problem.is_plain() {
        return Err(Invalid::new(
            Field::Diagram,
            format!(
                "the diagram is for plain exact cover, and the problem has {}",
                problem_kind(problem)
            ),
        )
        .into());
    }
    Dlx::new(problem).zdd_within(memo, budget)
}

impl SampleRequest {
    /// Builds the diagram of `problem` and hands `each` the solutions drawn, each as its
    /// option indices in increasing order; none when the problem has no solution. Counts of
    /// any size are drawn from.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::Memo;
    /// use quadrille::problems;
    /// use quadrille::request::SampleRequest;
    ///
    /// let request = SampleRequest { k: 5, seed: 1, memo: Memo::default(), budget: Budget::unlimited() };
    /// let mut queens = Vec::new();
    /// let record = request.run(&problems::queens(8)?, &mut |options| {
    ///     queens.push(options.to_vec());
    ///     Ok(())
    /// })?;
    /// assert_eq!((record.drawn, record.solutions), (5, 92u32.into()));
    /// assert!(queens.iter().all(|q| q.len() == 8));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn run(
        &self,
        problem: &Problem,
        each: &mut dyn FnMut(&[usize]) -> Result<()>,
    ) -> Result<SampleRecord> {
        let start = Instant::now();
        let zdd = diagram(problem, &self.memo, &self.budget)?;
        self.draw(&zdd, start, each)
    }

    /// [`SampleRequest::run`] on a diagram already built, whose building began at `start` (the
    /// budget's time runs from there).
    pub fn draw(
        &self,
        zdd: &Zdd,
        start: Instant,
        each: &mut dyn FnMut(&[usize]) -> Result<()>,
    ) -> Result<SampleRecord> {
        if self.k == 0 {
            return Err(Invalid::new(Field::Limit, "draw 1 solution or more").into());
        }
        let deadline = self.budget.deadline(start);
        // The count from the sampler's counts: every node's count is made once, in the memory
        // the diagram kept for it (see `Dlx::zdd`).
        let sampler = zdd.sampler();
        let mut record = SampleRecord {
            drawn: 0,
            solutions: sampler.as_ref().map_or_else(|| zdd.count(), |s| s.count()),
            zdd_nodes: zdd.node_count(),
            stop: Stop::Exhausted,
        };
        let Some(sampler) = sampler else {
            return Ok(record);
        };
        let mut rng = Pcg64::seed_from_u64(self.seed);
        let mut options = Vec::new();
        while record.drawn < self.k {
            if self.budget.is_interrupted() || deadline.is_some_and(|d| Instant::now() >= d) {
                record.stop = Stop::TimeBudget;
                break;
            }
            sampler.sample(&mut rng, &mut options);
            options.sort_unstable();
            each(&options)?;
            record.drawn += 1;
        }
        Ok(record)
    }
}
