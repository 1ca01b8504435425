//! [`Plan`]: what one search of a [`Dlx`] does (how it branches, whether it restarts and learns,
//! which part of the tree it walks), and [`Dlx::run`], which carries a plan out with the search
//! loop compiled for it.
//!
//! Every search of plain exact cover goes through here; [`Dlx::search`], [`Dlx::count`],
//! [`Dlx::first`] and [`Dlx::solutions`] are the default plan with a sink for the usual policies.

use super::Dlx;
use super::choose::{FirstItem, KnuthMrv, Mrv};
use super::search::{Report, Sink};
use super::shard::ShardPlan;
use crate::budget::Budget;
use crate::restart::Restarts;
use crate::{Error, ErrorKind, Result};

/// The item a search branches on at each node of its tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Branching {
    /// Minimum remaining values: the item with the fewest options left, the first such on
    /// ties, the scan stopping at the first item with at most one option (most nodes of a
    /// Sudoku search are such forced moves). With [`Dlx::track_dead_ends`] on, this is the
    /// choice of Knuth's dlx1; without it, an empty item further down the list is found only
    /// at the next node, which makes the tree a little larger (18% more nodes on 6x10
    /// pentominoes) but every node cheaper.
    #[default]
    Mrv,
    /// Knuth's dlx1, counted as he counts: [`Branching::Mrv`] with dead ends tracked for the
    /// search (set back as it was after it), and the items covered counted in
    /// [`Stats::covers`](super::Stats::covers), so that
    /// [`Stats::knuth_updates`](super::Stats::knuth_updates) is the count of updates of
    /// "Dancing Links" (2000). One run: no restarts.
    Knuth,
    /// Minimum remaining values, ties broken by conflict weights and then at random, options
    /// tried least constraining first (see the README's "Restarts and heavy tails"): what a
    /// restarting search branches on after its first run, and here from its first run on.
    /// Its random choices are seeded by the restarts' seed and its weights carry from run to
    /// run, so it needs [`Plan::restarts`].
    ConflictWeighted,
    /// The first active item, whatever its length: Algorithm X without a heuristic, to show
    /// how much the choice matters. One run: no restarts.
    FirstItem,
}

/// What one search does: how it branches, whether it restarts and learns from its conflicts,
/// and whether it walks the whole tree or one shard of a [`ShardPlan`]. Run it with
/// [`Dlx::run`]. The default plan is [`Dlx::search`]'s: [`Branching::Mrv`], one run, the
/// whole tree.
///
/// What the plans do:
///
/// | branching | restarts | learning | the search |
/// |---|---|---|---|
/// | any | none | off | one run of Algorithm X |
/// | `Mrv` | some | off | a first run with `Mrv`, later runs conflict-weighted, each cut off on Luby's schedule unless it found a solution |
/// | `ConflictWeighted` | some | off | the same, every run conflict-weighted |
/// | `Mrv` | some | on | a first run with `Mrv`; if it is cut off, conflict-driven nogood learning (every solution once, runs restarting on the same schedule) |
/// | `ConflictWeighted` | some | on | learning from the first run on |
///
/// A shard ([`Plan::shard`]) is searched with `Mrv` in one run. [`Dlx::run`] refuses the
/// other plans with an [`ErrorKind::UnsupportedPlan`] error rather than running something
/// else: learning or `ConflictWeighted` without restarts, `Knuth` or `FirstItem` with restarts,
/// and a shard with anything but `Mrv` in one run.
///
/// With restarts, a run cut off found nothing, so the sink sees each solution once; the report
/// adds up all runs, counts the runs cut off in its `restarts`, and is
/// [`Stop::Exhausted`](crate::Stop::Exhausted) only when no solution is left. Restarts are for
/// finding a few solutions or telling one from two: a count of all solutions visits the whole
/// tree anyway.
///
/// ```
/// use quadrille::Budget;
/// use quadrille::exact_cover::{Branching, CountSink, Dlx, Plan};
/// use quadrille::problems;
/// use quadrille::restart::Restarts;
///
/// let mut dlx = Dlx::new(&problems::queens_knuth(8)?);
/// let unlimited = Budget::unlimited();
///
/// // Knuth's dlx1, counted as he counts: the N-queens table of "Dancing Links".
/// let knuth = Plan::new().branching(Branching::Knuth);
/// let stats = dlx.run(&knuth, &unlimited, CountSink::new(None))?.stats;
/// assert_eq!((stats.solutions, stats.nodes, stats.knuth_updates()), (92, 1_049, 16_680));
///
/// // Learning from a first run cut off after 5 nodes: every solution once, the count exact.
/// let learning = Plan::new().restarts(Some(Restarts { seed: 1, unit: 5 })).learning(true);
/// let report = dlx.run(&learning, &unlimited, CountSink::new(None))?;
/// assert_eq!(report.stats.solutions, 92);
/// assert!(report.is_complete() && report.stats.restarts > 0 && report.stats.learned > 0);
///
/// // Three shards count what the whole tree holds.
/// let shards = dlx.shard_plan(3);
/// let mut total = 0;
/// for shard in 1..=3 {
///     let plan = Plan::new().shard(&shards, shard);
///     total += dlx.run(&plan, &unlimited, CountSink::new(None))?.stats.solutions;
/// }
/// assert_eq!(total, 92);
///
/// // Learning needs restarts: refused, not ignored.
/// assert!(dlx.run(&Plan::new().learning(true), &unlimited, CountSink::new(None)).is_err());
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Plan<'a> {
    branching: Branching,
    restarts: Option<Restarts>,
    learning: bool,
    /// The shard plan and the shard (1-based), or `None` for the whole tree.
    shard: Option<(&'a ShardPlan, usize)>,
}

impl<'a> Plan<'a> {
    /// The default plan: [`Branching::Mrv`], one run, the whole tree.
    pub fn new() -> Plan<'a> {
        Plan::default()
    }

    /// Branches with `branching`.
    pub fn branching(mut self, branching: Branching) -> Plan<'a> {
        self.branching = branching;
        self
    }

    /// Restarts on Luby's schedule with `restarts`' unit and seed, or (`None`) searches in
    /// one run.
    pub fn restarts(mut self, restarts: Option<Restarts>) -> Plan<'a> {
        self.restarts = restarts;
        self
    }

    /// Learns nogoods from the conflicts of the restarting runs (see the table at [`Plan`]).
    pub fn learning(mut self, on: bool) -> Plan<'a> {
        self.learning = on;
        self
    }

    /// Walks only shard `shard` (1-based) of `plan` instead of the whole tree. Shard 1 also
    /// walks the nodes above the parts and hands over the solutions among them.
    pub fn shard(mut self, plan: &'a ShardPlan, shard: usize) -> Plan<'a> {
        self.shard = Some((plan, shard));
        self
    }

    /// Whether some search does what the plan says; why not, if none does.
    fn check(&self) -> Result<()> {
        let refuse = |reason: String| Err(Error::new(ErrorKind::UnsupportedPlan { reason }));
        if let Some((plan, shard)) = self.shard {
            if !(1..=plan.shards()).contains(&shard) {
                return refuse(format!("shard {shard} of a plan of {}", plan.shards()));
            }
            if self.branching != Branching::Mrv || self.restarts.is_some() || self.learning {
                return refuse(
                    "a shard is searched with Mrv in one run, as its split was made".into(),
                );
            }
        }
        match (self.branching, self.restarts, self.learning) {
            (_, None, true) => refuse("learning needs restarts: its runs restart".into()),
            (Branching::ConflictWeighted, None, _) => {
                refuse("conflict-weighted branching needs restarts, which seed it".into())
            }
            (Branching::Knuth | Branching::FirstItem, Some(_), _) => refuse(format!(
                "{:?} branching walks one tree: it does not restart",
                self.branching
            )),
            _ => Ok(()),
        }
    }
}

impl Dlx {
    /// Runs the search that `plan` describes within `budget`, handing each solution to `sink`.
    /// Forced options ([`Dlx::force`]) are part of every solution; the links are left as they
    /// were.
    ///
    /// # Errors
    /// [`ErrorKind::UnsupportedPlan`] for a plan that no search carries out (see [`Plan`]),
    /// before any search.
    pub fn run<S: Sink>(&mut self, plan: &Plan<'_>, budget: &Budget, sink: S) -> Result<Report> {
        plan.check()?;
        let report = match (plan.shard, plan.branching, plan.restarts) {
            (None, Branching::Mrv, None) => self.search_cut(&mut Mrv, budget, sink, None),
            // A const parameter rather than a run-time flag: with a flag, the search loops
            // inlined into `search_restarting` cost 0.3% more instructions on the first 500
            // forum-hardest puzzles (`solve --limit 2 -j1`, callgrind).
            (None, branching, Some(restarts)) => match (plan.learning, branching) {
                (false, Branching::Mrv) => {
                    self.search_restarting::<S, true>(&restarts, budget, sink)
                }
                (false, _) => self.search_restarting::<S, false>(&restarts, budget, sink),
                (true, Branching::Mrv) => self.search_restarting_learning(&restarts, budget, sink),
                (true, _) => self.search_learning(&restarts, budget, sink),
            },
            (Some((shards, shard)), _, _) => self.search_shard(shards, shard, budget, sink),
            (None, Branching::FirstItem, None) => {
                self.search_cut(&mut FirstItem, budget, sink, None)
            }
            (None, Branching::Knuth, None) => {
                let tracked = self.links().tracks_dead_ends();
                self.track_dead_ends(true);
                let report = self.search_cut(&mut KnuthMrv, budget, sink, None);
                self.track_dead_ends(tracked);
                report
            }
            (None, Branching::ConflictWeighted, None) => unreachable!("refused by the check"),
        };
        Ok(report)
    }
}
