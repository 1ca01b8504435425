//! CSP search with randomised restarts (see [`crate::restart`]): runs cut off on Luby's
//! schedule, the first with the configuration's own choices, the later ones with
//! [`Randomised`] choices, until a run finishes, the limit is reached,
//! or the budget runs out.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use super::domains::{State, bits};
use super::search::CspSolver;
use super::stats::CspStats;
use crate::restart::{ConflictWeights, Restarts};
use crate::sudoku::Grid;
use crate::{Budget, Stop};

/// What one run of a restarting search needs besides the search itself.
pub(super) struct Run<'a> {
    /// The run's node cutoff, lifted when it finds a solution (see [`crate::restart`]).
    pub cutoff: u64,
    /// Random choices, for every run after the first.
    pub random: Option<&'a mut Randomised>,
}

/// The choices of the runs after the first: the cell of fewest candidates, ties broken by
/// conflicts and then at random (a cell's [`ConflictWeights`] weight is bumped each time a
/// digit placed in it fails); its digits in random order.
#[derive(Clone, Debug)]
pub(super) struct Randomised {
    rng: Pcg64,
    weights: ConflictWeights,
}

impl Randomised {
    fn new(seed: u64, cells: usize) -> Randomised {
        Randomised {
            rng: Pcg64::seed_from_u64(seed),
            weights: ConflictWeights::new(cells),
        }
    }

    /// The open cell to branch on (there is one).
    pub(super) fn choose(&mut self, s: &State) -> usize {
        let (mut best, mut best_size, mut best_weight, mut ties) =
            (0, u32::MAX, f64::NEG_INFINITY, 0u32);
        for cell in s.open_cells() {
            let size = s.dom[cell].count_ones();
            let weight = self.weights.as_slice()[cell];
            if size < best_size || (size == best_size && weight > best_weight) {
                (best, best_size, best_weight, ties) = (cell, size, weight, 1);
            } else if size == best_size && weight == best_weight {
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    best = cell;
                }
            }
        }
        best
    }

    /// A digit of `remaining` (not empty), as a bit, uniformly at random.
    pub(super) fn pick(&mut self, remaining: u64) -> u64 {
        let k = self.rng.random_range(0..remaining.count_ones());
        1 << bits(remaining)
            .nth(k as usize)
            .expect("k is below the count of digits")
    }

    /// A digit placed in `cell` failed.
    pub(super) fn failed(&mut self, cell: usize) {
        self.weights.bump(cell);
    }
}

impl CspSolver {
    /// Runs on Luby's schedule until one finishes, `limit` solutions are found, or the
    /// budget runs out; `stats` and `solutions` add up every run.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_restarting(
        &mut self,
        restarts: &Restarts,
        puzzle: &Grid,
        excluded: &[(usize, u8)],
        limit: u64,
        budget: &Budget,
        start: Instant,
        stats: &mut CspStats,
        solutions: &mut u64,
    ) -> Stop {
        let cells = puzzle.size() * puzzle.size();
        let mut random = Randomised::new(restarts.seed, cells);
        // A run cut off before it could place every cell cannot finish a descent that branches
        // at every cell, as on an empty grid: the unit is at least the number of cells
        // (`easy_end.sh`: the empty 64x64 grid, undecided at 10 s with 3,000-node units).
        let restarts = Restarts {
            unit: restarts.unit.max(cells as u64),
            ..*restarts
        };
        for run_index in 0.. {
            let nodes_before = stats.nodes;
            let mut run = Run {
                cutoff: restarts.cutoff(run_index),
                random: (run_index > 0).then_some(&mut random),
            };
            let stop = self.search(
                puzzle,
                excluded,
                limit,
                budget,
                start,
                stats,
                solutions,
                Some(&mut run),
            );
            let cut = *solutions == 0 && stats.nodes - nodes_before >= run.cutoff;
            if stop == Stop::NodeBudget && cut && stats.nodes < budget.node_limit() {
                stats.restarts += 1;
                continue;
            }
            return stop;
        }
        unreachable!("the runs end")
    }
}
