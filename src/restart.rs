//! Randomised restarts on Luby's universal schedule, shared by the engines.
//!
//! A backtracking search that makes a bad choice near the root can spend minutes in a subtree
//! with nothing in it, while the same search with other tie-breaks decides in milliseconds:
//! the heavy-tailed run times of Gomes, Selman, Crato and Kautz ("Heavy-tailed phenomena in
//! satisfiability and constraint satisfaction problems", 2000). The cure is to randomise the
//! choices and to restart the search after a cutoff. The cutoffs follow the sequence of Luby,
//! Sinclair and Zuckerman (1993), 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..., times a unit, which is
//! within a logarithmic factor of the best fixed cutoff for any run-time distribution, with
//! nothing known about the distribution in advance.
//!
//! **Exactness.** A run that finds a solution is not cut off: it goes on to the caller's limit,
//! the end of its tree, or the budget. So every run cut off found nothing, all the solutions
//! come from one run, each once, and the count is exact exactly when that run finished, as
//! without restarts; nothing needs to be remembered across runs. A run that finds nothing is
//! cut off at its cutoff, and because the Luby cutoffs grow without bound, some run is always
//! long enough to finish: a proof of "no solution" still terminates. Not cutting a run with a
//! solution also keeps the work near it: a second solution is most often a few levels away.
//!
//! **Reproducibility.** The first run uses the engine's plain deterministic choices, so a
//! puzzle decided within the first cutoff is solved exactly as without restarts; later runs
//! draw their tie-breaks from `rand_pcg::Pcg64` seeded with [`Restarts::seed`]. Cutoffs are
//! counted in search-tree nodes, not time, so the same seed gives the same runs, the same
//! solutions in the same order and the same statistics on every machine.

/// How an engine restarts: the seed of its random choices and the unit of the cutoffs.
///
/// ```
/// use quadrille::restart::{Restarts, luby};
///
/// let restarts = Restarts::new(7);
/// assert_eq!(restarts.seed, 7);
/// let cutoffs: Vec<u64> = (0..7).map(|run| restarts.cutoff(run) / restarts.unit).collect();
/// assert_eq!(cutoffs, [1, 1, 2, 1, 1, 2, 4]);
/// assert_eq!(luby(15), 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Restarts {
    /// The seed of the random tie-breaks of every run after the first.
    pub seed: u64,
    /// Search-tree nodes per Luby unit: run `i` (from 0) may visit `unit * luby(i + 1)` nodes.
    pub unit: u64,
}

impl Restarts {
    /// The unit of the cutoffs, in search-tree nodes, unless one is chosen. On random 25x25
    /// puzzles, units from 1,000 to 3,000 nodes did about equally well (4,000 worse); hard
    /// 9x9 puzzles, which a first run decides unless it is cut off before its first solution,
    /// restart less the larger the unit: at 2,000, 72 of the first 500 forum-hardest restarted
    /// and the set took 6% longer than without restarts (later runs' choices cost more per
    /// node); at 3,000, 1.5% longer.
    pub const DEFAULT_UNIT: u64 = 3_000;

    /// Seed 0 and the default unit: what every solver and [`crate::Request`] starts with.
    pub const DEFAULT: Restarts = Restarts {
        seed: 0,
        unit: Restarts::DEFAULT_UNIT,
    };

    /// Restarts with this seed and the default unit.
    pub fn new(seed: u64) -> Restarts {
        Restarts {
            seed,
            unit: Restarts::DEFAULT_UNIT,
        }
    }

    /// These restarts with a unit of at least `descent` nodes, the depth of the shallowest
    /// solution: a run cut off before it could reach the bottom of one descent cannot find a
    /// solution, however right its choices. With the default unit this changes only grids of
    /// more than 3,000 open cells (an empty 64x64 grid has 4,096).
    pub fn reaching(self, descent: u64) -> Restarts {
        Restarts {
            unit: self.unit.max(descent),
            ..self
        }
    }

    /// The node cutoff of run `run` (from 0): `unit * luby(run + 1)`, saturating.
    pub fn cutoff(&self, run: u64) -> u64 {
        self.unit.max(1).saturating_mul(luby(run.saturating_add(1)))
    }
}

impl Default for Restarts {
    /// Seed 0 and the default unit.
    fn default() -> Restarts {
        Restarts::DEFAULT
    }
}

/// The `i`-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...: `2^(k-1)`
/// when `i = 2^k - 1`, else the term at `i - (2^k - 1)` for the `k` with
/// `2^k - 1 < i < 2^(k+1) - 1`.
///
/// # Panics
/// If `i` is 0.
pub fn luby(i: u64) -> u64 {
    assert!(i > 0, "Luby's sequence starts at 1");
    // In u128, so that i + 1 cannot overflow.
    let mut i = u128::from(i);
    loop {
        // k: the bits of i + 1 less one, so that 2^k <= i + 1 < 2^(k+1).
        let k = 127 - (i + 1).leading_zeros();
        if (i + 1).is_power_of_two() {
            return 1 << (k - 1);
        }
        i -= (1 << k) - 1;
    }
}

/// The restart policy of a count: the solver's restarts when the count has a limit, none when
/// it counts every solution (which must visit the whole tree anyway, so restarts only add to
/// it). Every engine asks this one question.
pub(crate) fn for_limit(restarts: Option<Restarts>, limit: Option<u64>) -> Option<Restarts> {
    restarts.filter(|_| limit.is_some())
}

/// Conflict weights, the learning that restarts keep from run to run: a weight per variable
/// (an exact-cover item, a CSP cell), bumped when the variable is where a search failed. The
/// bump grows by [`ConflictWeights::BUMP_GROWTH`] at every conflict, so recent conflicts weigh
/// more (the decay of VSIDS in SAT solvers, in the form of a growing bump; the weighted degree
/// of Boussemart et al., 2004). Both engines' restarting choices prefer the heaviest variable
/// among those of smallest domain.
#[derive(Clone, Debug)]
pub(crate) struct ConflictWeights {
    weights: Vec<f64>,
    /// What the next conflict adds.
    bump: f64,
}

impl ConflictWeights {
    /// The factor by which the bump grows at each conflict. Against a constant bump it took
    /// random 25x25 puzzles with 360 blanks from 46,168 to 31,771 DLX nodes per puzzle.
    pub const BUMP_GROWTH: f64 = 1.05;

    /// Weights are scaled down by this when the bump passes its inverse, long before `f64`
    /// overflows; their order is kept.
    const RESCALE: f64 = 1e-100;

    /// `count` variables of weight 0.
    pub fn new(count: usize) -> ConflictWeights {
        ConflictWeights {
            weights: vec![0.0; count],
            bump: 1.0,
        }
    }

    /// The weights, by variable.
    #[inline]
    pub fn as_slice(&self) -> &[f64] {
        &self.weights
    }

    /// Starts over with `count` variables of weight 0, unless there are `count` already.
    #[inline]
    pub fn fit(&mut self, count: usize) {
        if self.weights.len() != count {
            *self = ConflictWeights::new(count);
        }
    }

    /// A conflict at variable `i`.
    pub fn bump(&mut self, i: usize) {
        self.weights[i] += self.bump;
        self.bump *= Self::BUMP_GROWTH;
        if self.bump > 1.0 / Self::RESCALE {
            self.weights.iter_mut().for_each(|w| *w *= Self::RESCALE);
            self.bump *= Self::RESCALE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence_starts_as_published() {
        let terms: Vec<u64> = (1..=31).map(luby).collect();
        assert_eq!(
            terms,
            [
                1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2,
                4, 8, 16
            ]
        );
    }

    #[test]
    fn recent_conflicts_weigh_more_and_rescaling_keeps_the_order() {
        let mut weights = ConflictWeights::new(3);
        weights.bump(0);
        weights.bump(1);
        assert!(weights.as_slice()[1] > weights.as_slice()[0]);
        assert_eq!(weights.as_slice()[2], 0.0);
        // Enough conflicts to rescale four times: every weight stays finite, and a late single
        // conflict weighs more than an early one, less than 20,000 at one variable.
        for _ in 0..20_000 {
            weights.bump(0);
        }
        weights.bump(2);
        let w = weights.as_slice();
        assert!(w.iter().all(|w| w.is_finite()));
        assert!(w[0] > w[2] && w[2] > w[1], "{w:?}");
    }

    #[test]
    fn luby_grows_without_bound() {
        // The terms at 2^k - 1 are 2^(k-1): every cutoff is eventually exceeded, which is
        // what makes a restarting search complete.
        for k in 1..64 {
            assert_eq!(luby((1u64 << k) - 1), 1 << (k - 1));
        }
        assert_eq!(Restarts::new(0).cutoff(u64::MAX - 1), u64::MAX);
        assert_eq!(luby(u64::MAX), 1 << 63);
    }
}
