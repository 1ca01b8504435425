//! Counting with remembered subproblems under colours and multiplicities: the idea of
//! `exact_cover::memo` on Algorithm M's links.
//!
//! With colours, the uncovered items do not fix what is left of a problem (a secondary item
//! may be purified with one colour or another), and a purified item whose options are all
//! gone no longer matters, though its colour stays. What does fix it is the set of options
//! still available, with each primary item's bound (how many more options may cover it;
//! 0 once it is covered or left alone): the completions are the sets of available options
//! that meet the bounds and agree on the colours among themselves, since an option that
//! disagrees with a colour chosen is hidden. And every option that cannot be chosen is
//! hidden, by exactly one `hide` (a covered item's options, another colour's, an option
//! tried before at a level of a multiplicity): so the key is a bit per option, kept by
//! `hide` and `unhide`, and a field per primary item for its bound, read when the key is
//! wanted. On the proper 3-colourings of a cycle, the subproblems after colouring a path are
//! told apart by the colours of its two ends, not of every vertex, so C100's 2^100 + 2
//! colourings take a few thousand nodes.

use std::time::Instant;

use num_bigint::BigUint;

use super::Xcc;
use crate::budget::{Budget, Stop};
use crate::exact_cover::memo::cache::Cache;
use crate::exact_cover::memo::tally::Tally;
use crate::exact_cover::memo::trial_gives_up;
use crate::exact_cover::search::past_deadline;
use crate::exact_cover::{
    CountSink, CountStart, FIRST_NODES, Memo, MemoBranching, MemoCount, MemoMode, Stats,
};

/// Where the remembering search is, between its steps (those of Algorithm M in `search`).
#[derive(Clone, Copy)]
enum Phase {
    Enter,
    Try,
    Restore,
    /// Hand the count of the level just finished (or of the node just entered) to the level
    /// below.
    Up,
}

/// A level that branches: the completions counted so far, and where to remember them.
struct Frame {
    sum: Tally,
    /// The key's hash, for a level of more than one branch; `None` for a forced one.
    hash: Option<u64>,
    /// The nodes a plain search would have walked (walked plus saved) when the level began.
    entered: u64,
}

/// The shape of a key: the options' bits, then a field of `width` bits per primary item.
struct Layout {
    width: u32,
    words: usize,
}

impl Layout {
    fn new(xcc: &Xcc) -> Layout {
        let most = (1..=xcc.primary_count as usize)
            .map(|h| xcc.bound[h])
            .max()
            .unwrap_or(1)
            .max(1);
        let width = u32::BITS - most.leading_zeros();
        let per_word = (64 / width) as usize;
        Layout {
            width,
            words: xcc.option_count.div_ceil(64) as usize
                + (xcc.primary_count as usize).div_ceil(per_word),
        }
    }
}

/// A 64-bit hash of a key's words, its high bits mixed too (the table's home slot is read
/// from them).
fn hash_words(words: &[u64]) -> u64 {
    let mut h = 0x243F_6A88_85A3_08D3u64;
    for &w in words {
        h = (h.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    h ^= h >> 31;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 29)
}

impl Xcc {
    /// Counts every solution within `budget`, remembering the count of every subproblem (see
    /// the module `exact_cover::xcc::memo`), whatever `memo.mode` says. The count is exact when
    /// `exact` is set, a lower bound when a budget stopped it. The links are left as built.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{Memo, ProblemBuilder, Xcc};
    ///
    /// // Proper 3-colourings of the cycle C5: each edge picks two distinct colours for its
    /// // ends, which the edges meeting there share. (k-1)^n + (-1)^n (k-1) = 30.
    /// let mut b = ProblemBuilder::new();
    /// for i in 0..5 {
    ///     b.primary(&format!("e{i}"))?;
    /// }
    /// for i in 0..5 {
    ///     b.secondary(&format!("v{i}"))?;
    /// }
    /// for i in 0..5 {
    ///     for (a, c) in [("R", "G"), ("R", "B"), ("G", "R"), ("G", "B"), ("B", "R"), ("B", "G")] {
    ///         let option = format!("e{i} v{i}:{a} v{}:{c}", (i + 1) % 5);
    ///         b.option_by_names(option.split(' '))?;
    ///     }
    /// }
    /// let counted = Xcc::new(&b.build()?).count_memo(&Budget::unlimited(), &Memo::default());
    /// assert_eq!((counted.solutions, counted.exact), (30u32.into(), true));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn count_memo(&mut self, budget: &Budget, memo: &Memo) -> MemoCount {
        self.remembering(budget, memo, false)
            .expect("a count without a trial is never given up")
    }

    /// The start of a count of every solution, as [`Dlx::count_start`](crate::exact_cover::Dlx::count_start) for plain
    /// exact cover: under [`MemoMode::Auto`], a first search of Algorithm M counts a small
    /// tree; past it, a trial of remembering goes on to the end if its subproblems repeat
    /// (as `Dlx`'s does), else the count is handed back to be enumerated from the start.
    /// [`MemoMode::Always`] remembers at once, [`MemoMode::Off`] never.
    pub fn count_start(&mut self, budget: &Budget, memo: &Memo) -> CountStart {
        match memo.mode {
            MemoMode::Off => CountStart::Enumerate {
                spent: Stats::default(),
                rest: *budget,
            },
            MemoMode::Always => CountStart::Remembered(self.count_memo(budget, memo)),
            MemoMode::Auto => {
                let first_budget = Budget {
                    nodes: Some(budget.node_limit().min(FIRST_NODES)),
                    ..*budget
                };
                let first = self.search(&first_budget, CountSink::new(None));
                if first.stop != Stop::NodeBudget || first.stats.nodes >= budget.node_limit() {
                    return CountStart::Done(first);
                }
                let rest = budget.after(first.stats.nodes, first.stats.elapsed);
                let spent = Stats {
                    solutions: 0,
                    ..first.stats
                };
                match self.remembering(&rest, memo, true) {
                    Some(mut counted) => {
                        counted.report.stats.add(&spent);
                        CountStart::Remembered(counted)
                    }
                    None => CountStart::Enumerate {
                        spent,
                        rest: budget.after(spent.nodes, spent.elapsed),
                    },
                }
            }
        }
    }

    /// The key of the node the search is at, in `key`: the hidden options, then each
    /// primary item's bound (0 when it is inactive).
    fn memo_key(&self, layout: &Layout, key: &mut Vec<u64>) {
        key.clear();
        key.extend_from_slice(&self.hidden);
        let (mut word, mut used) = (0u64, 0u32);
        for h in 1..=self.primary_count {
            let bound = self.bound[h as usize];
            // An item left alone keeps its bound, but nothing more may cover it.
            let active = bound > 0 && self.next[self.prev[h as usize] as usize] == h;
            if used + layout.width > 64 {
                key.push(word);
                (word, used) = (0, 0);
            }
            if active {
                word |= u64::from(bound) << used;
            }
            used += layout.width;
        }
        key.push(word);
        debug_assert_eq!(key.len(), layout.words);
    }

    /// The remembering count, given up by its trial (`None`, links restored)
    /// if `trial` is set and its subproblems did not repeat.
    pub(crate) fn remembering(
        &mut self,
        budget: &Budget,
        memo: &Memo,
        trial: bool,
    ) -> Option<MemoCount> {
        let start = Instant::now();
        let deadline = budget.stop_at(start);
        let node_limit = budget.node_limit();
        let mut stats = Stats::default();
        self.hidden = vec![0; self.option_count.div_ceil(64) as usize];
        let layout = Layout::new(self);
        let mut key = Vec::with_capacity(layout.words);
        let mut cache = Cache::new(layout.words, memo.memory);
        let mut peak_bytes = cache.bytes();
        let mut frames: Vec<Frame> = Vec::new();
        // Nodes that the table's answers saved: the plain subtrees of the subproblems it answered.
        let mut saved = 0u64;
        let mut value = Tally::ZERO;
        let mut level = 0usize;
        let (mut i, mut x) = (0u32, 0u32);
        let mut phase = Phase::Enter;

        let stop = loop {
            match phase {
                Phase::Enter => {
                    if stats.nodes >= node_limit {
                        break Stop::NodeBudget;
                    }
                    stats.nodes += 1;
                    if past_deadline(deadline, stats.nodes) {
                        break Stop::TimeBudget;
                    }
                    if trial && trial_gives_up(stats.nodes, stats.max_depth, saved) {
                        self.unwind(level);
                        self.hidden = Vec::new();
                        return None;
                    }
                    stats.max_depth = stats.max_depth.max(level);
                    phase = Phase::Up;
                    let (best, score) = match self.choose() {
                        None => {
                            value = Tally::ONE;
                            continue;
                        }
                        Some((_, score)) if score <= 0 => {
                            stats.backtracks += 1;
                            value = Tally::ZERO;
                            continue;
                        }
                        Some(chosen) => chosen,
                    };
                    // A forced move is taken without looking anything up.
                    let hash = (score > 1).then(|| {
                        self.memo_key(&layout, &mut key);
                        hash_words(&key)
                    });
                    if let Some(hash) = hash
                        && let Some((count, extra)) = cache.get(hash, &key)
                    {
                        stats.cache_hits += 1;
                        saved = saved.saturating_add(*extra);
                        value = count.clone();
                        continue;
                    }
                    frames.push(Frame {
                        sum: Tally::ZERO,
                        hash,
                        entered: stats.nodes.saturating_add(saved),
                    });
                    let h = match memo.branching {
                        MemoBranching::FirstItem if score > 1 => self.next[0],
                        _ => best,
                    };
                    // M4, as in `search`.
                    i = h;
                    x = self.nodes[h as usize].down;
                    self.bound[h as usize] -= 1;
                    if self.bound[h as usize] == 0 {
                        stats.updates += self.cover::<true>(h);
                    }
                    self.first_tweak[level] = x;
                    phase = Phase::Try;
                }
                Phase::Try => {
                    let (bound, slack) = (self.bound[i as usize], self.slack[i as usize]);
                    if bound == 0 && slack == 0 {
                        if x == i {
                            phase = Phase::Restore;
                            continue;
                        }
                    } else if self.len[i as usize] as i64 <= bound as i64 - slack as i64 {
                        phase = Phase::Restore;
                        continue;
                    } else if x != i {
                        stats.updates += self.tweak::<true>(x, i, bound == 0);
                    } else if bound != 0 {
                        self.deactivate(i);
                    }
                    self.choice[level] = x;
                    if x != i {
                        stats.updates += self.commit_others::<true>(x);
                    }
                    level += 1;
                    phase = Phase::Enter;
                }
                Phase::Restore => {
                    self.restore(i, level);
                    let frame = frames.pop().expect("a level that branched has a frame");
                    if let Some(hash) = frame.hash {
                        // The links are as they were when the level began: so is the key.
                        self.memo_key(&layout, &mut key);
                        let walked = stats.nodes.saturating_add(saved) - frame.entered;
                        cache.insert(hash, &key, (frame.sum.clone(), walked));
                        stats.subproblems += 1;
                        peak_bytes = peak_bytes.max(cache.bytes());
                    }
                    value = frame.sum;
                    phase = Phase::Up;
                }
                Phase::Up => {
                    if level == 0 {
                        break Stop::Exhausted;
                    }
                    level -= 1;
                    frames[level].sum.add(&value);
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
                    self.uncommit_others::<true>(x);
                    x = self.nodes[x as usize].down;
                    phase = Phase::Try;
                }
            }
        };

        let solutions: BigUint = match stop {
            Stop::Exhausted => value.to_big(),
            _ => frames.iter().map(|f| f.sum.to_big()).sum(),
        };
        if stop != Stop::Exhausted {
            self.unwind(level);
        }
        self.hidden = Vec::new();
        debug_assert_eq!(self.sanity(), Ok(()));
        stats.elapsed = start.elapsed();
        let branching = match memo.branching {
            MemoBranching::FirstItem => MemoBranching::FirstItem,
            _ => MemoBranching::Mrv,
        };
        Some(MemoCount::new(
            stats, stop, solutions, peak_bytes, branching,
        ))
    }

    /// Algorithm M's step M8 for item `i` at `level`: puts back what branching on it took.
    fn restore(&mut self, i: u32, level: usize) {
        let (bound, slack) = (self.bound[i as usize], self.slack[i as usize]);
        if bound == 0 && slack == 0 {
            self.uncover::<true>(i);
        } else {
            self.untweak::<true>(i, self.first_tweak[level], bound == 0);
            if bound == 0 {
                self.uncover::<true>(i);
            }
        }
        self.bound[i as usize] += 1;
    }

    /// Undoes the choices of the levels below `level`, deepest first, at the entry of a node
    /// (every level below has chosen a branch).
    fn unwind(&mut self, mut level: usize) {
        while level > 0 {
            level -= 1;
            let x = self.choice[level];
            let i = if self.is_header(x) {
                if self.bound[x as usize] != 0 {
                    self.reactivate(x);
                }
                x
            } else {
                self.uncommit_others::<true>(x);
                self.nodes[x as usize].top
            };
            self.restore(i, level);
        }
    }
}
