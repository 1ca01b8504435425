//! Algorithm M: the search over [`Xcc`] links, with the budgets, statistics and sinks of
//! [`Dlx::search`](crate::exact_cover::Dlx::search).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::Xcc;
use crate::budget::{Budget, Stop};
use crate::exact_cover::search::{CLOCK_INTERVAL, first_of, solutions_of};
use crate::exact_cover::{Control, CountSink, Report, Sink, Solution, Stats};

/// Where the search is, between its steps (Knuth's steps M2-M9).
#[derive(Clone, Copy)]
enum Phase {
    /// M2-M4: enter a level, choose an item, prepare to branch on it.
    Enter,
    /// M5-M6: try the node `x` of item `i` (or, at `i`'s header, leaving `i` alone).
    Try,
    /// M8: restore item `i` after its last branch.
    Restore,
    /// M9 then M7: leave a level, undo its choice, go on to the next branch.
    Leave,
}

/// Whose turn a node of a split search is: at level `depth`, only the nodes whose number (in
/// the order met) is `residue` modulo `modulus` are explored; with `modulus` 0 none is, and
/// they are only counted. Shallower work is done by every share and counted in the
/// statistics by share 0 alone. Algorithm M's count and its cheapest search share it.
pub(super) struct Turns {
    pub depth: usize,
    pub modulus: u64,
    pub residue: u64,
    /// The nodes met at `depth` so far.
    pub met: u64,
}

/// A node's turn ([`Turns::turn`]).
pub(super) enum Turn {
    /// Not at the split depth: every share walks it.
    Free,
    /// At the split depth, this share's, with its number in the order met.
    Mine(u64),
    /// At the split depth, another share's: left at once.
    Theirs,
}

impl Turns {
    /// Whether this share counts a node at `level` in its statistics.
    #[inline]
    pub fn counts(&self, level: usize) -> bool {
        level >= self.depth || self.residue == 0
    }

    /// The turn of a node entered at `level`; one at the split depth is numbered.
    #[inline]
    pub fn turn(&mut self, level: usize) -> Turn {
        if level != self.depth {
            return Turn::Free;
        }
        let number = self.met;
        self.met += 1;
        if self.modulus == 0 || number % self.modulus != self.residue {
            Turn::Theirs
        } else {
            Turn::Mine(number)
        }
    }
}

/// One share of a search split among threads (see `parallel`): its [`Turns`], and what the
/// shares hold in common.
pub(super) struct Share<'a> {
    pub turns: Turns,
    /// Set when a share stops, so that the others stop too.
    pub halt: &'a AtomicBool,
    /// Nodes of all shares, added every `CLOCK_INTERVAL` nodes, for a shared node budget.
    pub nodes: &'a AtomicU64,
}

impl Xcc {
    /// Runs Algorithm M, handing each solution to `sink`. The links are left as built.
    pub fn search<S: Sink>(&mut self, budget: &Budget, sink: S) -> Report {
        self.run(budget, sink, None)
    }

    /// Counts solutions, up to `limit` if one is given.
    pub fn count(&mut self, limit: Option<u64>) -> Report {
        self.search(&Budget::unlimited(), CountSink::new(limit))
    }

    /// Counts solutions within a budget, up to `limit` if one is given.
    pub fn count_within(&mut self, limit: Option<u64>, budget: &Budget) -> Report {
        self.search(budget, CountSink::new(limit))
    }

    /// The first solution, if there is one, as option numbers.
    pub fn first(&mut self) -> (Option<Vec<usize>>, Report) {
        first_of(|sink| self.search(&Budget::unlimited(), sink))
    }

    /// Up to `limit` solutions (`None`: all), each as option numbers in the order chosen.
    pub fn solutions(&mut self, limit: Option<u64>) -> (Vec<Vec<usize>>, Report) {
        solutions_of(limit, |sink| self.search(&Budget::unlimited(), sink))
    }

    /// Algorithm M, on one share of the tree when `split` is given.
    // Never inlined: inlined into a caller that also runs `Dlx::search` (the command line's
    // `xc`), it made the plain search there 1.1% dearer in instructions (12 queens).
    #[inline(never)]
    pub(super) fn run<S: Sink>(
        &mut self,
        budget: &Budget,
        mut sink: S,
        mut split: Option<&mut Share<'_>>,
    ) -> Report {
        let start = Instant::now();
        let deadline = budget.stop_at(start);
        let node_limit = budget.node_limit();
        let mut stats = Stats::default();
        let mut level = 0usize;
        let (mut i, mut x) = (0u32, 0u32);
        // Set when the search must stop: the levels are then unwound without new branches.
        let mut halted: Option<Stop> = None;
        let mut phase = Phase::Enter;
        // Nodes not yet added to a split's shared count.
        let mut unshared = 0u64;

        let stop = loop {
            match phase {
                Phase::Enter => {
                    let counted = split.as_ref().is_none_or(|s| s.turns.counts(level));
                    if let Some(s) = split.as_mut()
                        && let Turn::Theirs = s.turns.turn(level)
                    {
                        phase = Phase::Leave;
                        continue;
                    }
                    if stats.nodes >= node_limit {
                        halted = Some(Stop::NodeBudget);
                        phase = Phase::Leave;
                        continue;
                    }
                    if counted {
                        stats.nodes += 1;
                        unshared += 1;
                    }
                    if unshared >= CLOCK_INTERVAL {
                        unshared = 0;
                        if let Some(deadline) = deadline
                            && deadline.has_passed()
                        {
                            halted = Some(Stop::TimeBudget);
                        }
                        if let Some(s) = split.as_ref() {
                            let all = s.nodes.fetch_add(CLOCK_INTERVAL, Ordering::Relaxed);
                            if all + CLOCK_INTERVAL >= node_limit {
                                halted = Some(Stop::NodeBudget);
                            } else if s.halt.load(Ordering::Relaxed) {
                                halted = halted.or(Some(Stop::Limit));
                            }
                        }
                        if halted.is_some() {
                            phase = Phase::Leave;
                            continue;
                        }
                    }
                    stats.max_depth = stats.max_depth.max(level);
                    match self.choose() {
                        None => {
                            if counted {
                                stats.solutions += 1;
                                self.list_solution(level);
                                if sink.solution(&Solution::new(&self.solution, 0)) == Control::Stop
                                {
                                    halted = Some(Stop::Limit);
                                }
                            }
                            phase = Phase::Leave;
                        }
                        Some((_, score)) if score <= 0 => {
                            stats.backtracks += counted as u64;
                            phase = Phase::Leave;
                        }
                        Some((h, _)) => {
                            // M4: one option fewer may cover `h` on every branch but the last.
                            i = h;
                            x = self.nodes[h as usize].down;
                            self.bound[h as usize] -= 1;
                            if self.bound[h as usize] == 0 {
                                stats.updates += self.cover::<false>(h);
                            }
                            self.first_tweak[level] = x;
                            phase = Phase::Try;
                        }
                    }
                }
                Phase::Try => {
                    let (bound, slack) = (self.bound[i as usize], self.slack[i as usize]);
                    if bound == 0 && slack == 0 {
                        // Exactly once more, as in dlx1: every option in turn, then back.
                        if x == i {
                            phase = Phase::Restore;
                            continue;
                        }
                    } else if self.len[i as usize] as i64 <= bound as i64 - slack as i64 {
                        // Too few options left to reach the lower bound with this one.
                        phase = Phase::Restore;
                        continue;
                    } else if x != i {
                        stats.updates += self.tweak::<false>(x, i, bound == 0);
                    } else if bound != 0 {
                        // Leave `i` alone: its lower bound is met, its options all tweaked.
                        self.deactivate(i);
                    }
                    self.choice[level] = x;
                    if x != i {
                        stats.updates += self.commit_others::<false>(x);
                    }
                    level += 1;
                    phase = Phase::Enter;
                }
                Phase::Restore => {
                    let (bound, slack) = (self.bound[i as usize], self.slack[i as usize]);
                    if bound == 0 && slack == 0 {
                        self.uncover::<false>(i);
                    } else {
                        self.untweak::<false>(i, self.first_tweak[level], bound == 0);
                        if bound == 0 {
                            self.uncover::<false>(i);
                        }
                    }
                    self.bound[i as usize] += 1;
                    phase = Phase::Leave;
                }
                Phase::Leave => {
                    if level == 0 {
                        break halted.unwrap_or(Stop::Exhausted);
                    }
                    level -= 1;
                    x = self.choice[level];
                    if self.is_header(x) {
                        i = x;
                        if self.bound[i as usize] != 0 {
                            self.reactivate(i);
                        }
                        phase = Phase::Restore;
                        continue;
                    }
                    i = self.nodes[x as usize].top;
                    self.uncommit_others::<false>(x);
                    if halted.is_some() {
                        phase = Phase::Restore;
                    } else {
                        x = self.nodes[x as usize].down;
                        phase = Phase::Try;
                    }
                }
            }
        };
        if stop.is_budget()
            && let Some(s) = split
        {
            s.halt.store(true, Ordering::Relaxed);
        }
        debug_assert_eq!(self.sanity(), Ok(()));
        stats.elapsed = start.elapsed();
        Report { stats, stop }
    }
}
