//! Counting with remembered subproblems: the DXZ idea of Nishino, Yasuda, Minato and Nagata
//! ("Dancing with Decision Diagrams", AAAI 2017).
//!
//! After some options are chosen, what is left of an exact-cover problem is fixed by the items
//! still uncovered: the options left are those whose items are all uncovered. So two branches
//! that leave the same items uncovered have the same number of completions, and a count that
//! remembers the count of each subproblem it finished answers the second at once. On a domino
//! tiling of a board, the 12,988,816 tilings of 8x8 come from about 7,000 subproblems.
//!
//! The key is the set of uncovered items, primary and secondary, as a bit set kept by the
//! search beside the links, with a 64-bit hash (one random word per item, XORed in and out as
//! items are covered and uncovered) that finds it in the [`cache`]; a hit is checked against the
//! whole set, so a collision of hashes never gives a wrong count.
//!
//! Where subproblems never repeat (queens, Langford pairs, a Sudoku puzzle), remembering costs
//! time and saves none. So a count in [`MemoMode::Auto`] starts remembering on a trial of
//! [`TRIAL_NODES`] nodes and gives the count back to plain search unless the subproblems it found
//! remembered saved [`TRIAL_SAVING_PERCENT`] percent of the nodes it walked.

pub(super) mod cache;
mod layers;
mod nodes;
pub(super) mod tally;
mod zdd;

use std::time::Instant;

use num_bigint::BigUint;

use self::cache::Cache;
pub(crate) use self::layers::Layers;
use self::tally::Tally;
use self::zdd::{Diagram, FALSE, TRUE};
pub use self::zdd::{Zdd, ZddSampler};
use super::Dlx;
use super::choose::{ActiveItems, Mrv};
use super::links::{Item, OptionNode, scan};
use super::search::{Report, Stats, past_deadline};
use crate::budget::{Budget, Stop};

/// The memory a count may give its table of subproblems when none is said: 1 GiB, a
/// twentieth of a 24 GiB machine, so that two counts at once leave room for everything else.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// Nodes of the trial of [`MemoMode::Auto`]: a count that has not found its subproblems
/// repeating by then goes on without remembering them.
pub(crate) const TRIAL_NODES: u64 = 512;

/// The plain nodes that the table's answers must have saved by the end of the trial, in percent
/// of the nodes walked. A remembering node costs about three plain ones on 12 queens and on a
/// 6x6 Sudoku with three givens, which took 855,237 nodes against plain search's 2,352,742 and
/// still 25% longer (0.25 s against 0.20 s, `count --engine dlx -j1`); its trial saved 58% at
/// 512 nodes. The domino boards from 8x8 to 16x16 saved 227% (10x10) to 3,304% (16x16).
pub(crate) const TRIAL_SAVING_PERCENT: u64 = 150;

/// Early looks at the trial, at a quarter and at half of its nodes: a trial whose table has
/// not yet saved as many nodes as it walked gives up at the first look it has come back up
/// from its depth for (twice its depth at most: the 2 x 300 board's first 256 nodes are one
/// descent, which remembers nothing yet). Where nothing repeats, the trial then costs a
/// quarter of its nodes (the 3x20 pentominoes' default count is within 0.6% of `--memo off`
/// in callgrind's instructions, docs/memo.md). At those looks the domino boards from 6x6 to
/// 16x16 have saved 1.35 (8x8 at 128 nodes) to 312 times what they walked; 12 queens nothing,
/// the 3x20 and 6x10 pentominoes a fifth and none at 128 nodes.
const TRIAL_LOOKS: [u64; 2] = [TRIAL_NODES / 4, TRIAL_NODES / 2];

/// Whether a trial that has walked `nodes`, `depth` levels deep at most, and saved `saved`
/// gives up (see [`TRIAL_NODES`] and [`TRIAL_LOOKS`]).
#[inline]
pub(crate) fn trial_gives_up(nodes: u64, depth: usize, saved: u64) -> bool {
    let percent = if nodes == TRIAL_NODES {
        TRIAL_SAVING_PERCENT
    } else if TRIAL_LOOKS.contains(&nodes) && 2 * depth as u64 <= nodes {
        100
    } else {
        return false;
    };
    saved.saturating_mul(100) < nodes * percent
}

/// The looks of a trial in an order given by the problem's encoder ([`Dlx::set_memo_order`]):
/// at each power of two of its nodes from 256 to 2^20, the percentage of the nodes walked
/// that the table's answers must have saved by then. With first-item branching in an order
/// that keeps the frontier narrow, subproblems repeat once a section of the problem is done
/// (a stack of a Sudoku's boxes), far deeper than the 512 nodes of the trial that branches
/// on MRV: until 32,768 nodes the trial gives up only where nearly nothing repeats; from
/// 65,536 the bar rises, as the count's subtrees grow, to where remembering beats the
/// bitboard search's enumeration, several times faster than DLX's (the empty 6x6 grid: 3.8 s
/// against 17 s), while a remembering node costs about three plain DLX ones. Measured on
/// 6x6 grids with a given or none (28,200,960 and 4,700,160 solutions), cells by columns, at
/// the looks from 256 on: at least 0.14 at 256 to 32,768, 2.4 at 65,536, 3.2 at 131,072,
/// 6.2 at 262,144 and 26 at 2^19; their counts took 0.54 to 1.40 million nodes, and 0.2 to
/// 0.3 s against 0.85 to 3.8 s of the bitboard search. A 9x9 puzzle with 20 givens and
/// 4,565,553 solutions, which the bitboard search enumerates faster, saved 1.6 at 65,536.
const ORDERED_LOOKS: [(u64, u64); 6] = [
    (1 << 8, 10),
    (1 << 16, 200),
    (1 << 17, 250),
    (1 << 18, 400),
    (1 << 19, 800),
    (1 << 20, 1600),
];

/// The nodes by which a trial in the encoder's order has made its last look.
pub(crate) const ORDERED_TRIAL_NODES: u64 = ORDERED_LOOKS[ORDERED_LOOKS.len() - 1].0;

/// Whether a trial in the encoder's order that has walked `nodes`, `depth` levels deep at
/// most, and saved `saved` gives up (see [`ORDERED_LOOKS`]): at each power of two from the
/// first look to the last, once it has come back up from its depth, against the bar of the
/// last look it has reached.
#[inline]
pub(crate) fn ordered_trial_gives_up(nodes: u64, depth: usize, saved: u64) -> bool {
    let (first, last) = (ORDERED_LOOKS[0].0, ORDERED_LOOKS[ORDERED_LOOKS.len() - 1].0);
    if !nodes.is_power_of_two() || nodes < first || nodes > last || 2 * depth as u64 > nodes {
        return false;
    }
    let percent = (ORDERED_LOOKS.iter())
        .rev()
        .find(|&&(from, _)| from <= nodes)
        .map_or(0, |&(_, percent)| percent);
    saved.saturating_mul(100) < nodes * percent
}

/// Whether a count remembers the counts of subproblems.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemoMode {
    /// Never: every count enumerates.
    Off,
    /// When a trial shows that subproblems repeat (see the module's description).
    #[default]
    Auto,
    /// Always, however often subproblems repeat.
    Always,
}

/// The item a remembering count branches on, where no item is forced (an item with one option
/// is always taken first, and one with none ends the branch).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemoBranching {
    /// The first uncovered primary item in the problem's order, as in the DXZ paper: the
    /// items are covered in a steady order, so that different branches meet in the same
    /// subproblem.
    FirstItem,
    /// The item with fewest options left (minimum remaining values), as plain search does.
    Mrv,
    /// The first uncovered primary item, counted layer by layer over the frontier
    /// (`memo/layers.rs`) where every option of a plain problem spans at most 128 items of the
    /// problem's order around its first primary item; [`MemoBranching::Mrv`] otherwise. Where
    /// it applies, a layer holds every subproblem of one item at once, as a window of bits,
    /// so that the count needs a few layers' memory: `benches/peers/dominoes.sh`.
    #[default]
    Layers,
}

impl std::str::FromStr for MemoMode {
    type Err = String;

    /// `auto`, `always` or `off`.
    fn from_str(text: &str) -> Result<MemoMode, String> {
        match text {
            "auto" => Ok(MemoMode::Auto),
            "always" => Ok(MemoMode::Always),
            "off" => Ok(MemoMode::Off),
            _ => Err(format!("'{text}' is not auto, always or off")),
        }
    }
}

impl std::str::FromStr for MemoBranching {
    type Err = String;

    /// `layers`, `first-item` or `mrv`, as [`MemoBranching::name`] writes them.
    fn from_str(text: &str) -> Result<MemoBranching, String> {
        match text {
            "layers" => Ok(MemoBranching::Layers),
            "first-item" => Ok(MemoBranching::FirstItem),
            "mrv" => Ok(MemoBranching::Mrv),
            _ => Err(format!("'{text}' is not layers, first-item or mrv")),
        }
    }
}

impl MemoBranching {
    /// The name that `--stats` and the JSON show.
    pub fn name(self) -> &'static str {
        match self {
            MemoBranching::FirstItem => "first-item",
            MemoBranching::Mrv => "mrv",
            MemoBranching::Layers => "layers",
        }
    }
}

/// How a count remembers subproblems: when, with which item choice, in how much memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memo {
    /// When to remember.
    pub mode: MemoMode,
    /// The item to branch on.
    pub branching: MemoBranching,
    /// The most bytes the table of subproblems may take; a full table forgets old entries.
    pub memory: usize,
}

impl Default for Memo {
    fn default() -> Memo {
        Memo {
            mode: MemoMode::Auto,
            branching: MemoBranching::Layers,
            memory: DEFAULT_MEMORY,
        }
    }
}

impl Memo {
    /// No remembering: plain enumeration.
    pub const OFF: Memo = Memo {
        mode: MemoMode::Off,
        branching: MemoBranching::Mrv,
        memory: DEFAULT_MEMORY,
    };
}

/// The result of a remembering count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoCount {
    /// The search's statistics and why it ended; `stats.solutions` is the count when it fits
    /// in 64 bits, else `u64::MAX` with a stop that marks it a lower bound (`solutions` has
    /// the count).
    pub report: Report,
    /// The count, of any size: exact when `exact` says so, else a lower bound.
    pub solutions: BigUint,
    /// Whether the search explored everything, so that `solutions` is the true count (the
    /// report is then complete too, unless the count needs more than 64 bits).
    pub exact: bool,
    /// The most bytes the table of subproblems held.
    pub peak_bytes: usize,
    /// How the count branched: [`MemoBranching::Layers`] only where it counted by layers.
    pub branching: MemoBranching,
}

impl MemoCount {
    /// The answer of a remembering count that ended with `stop` and found `solutions`: past
    /// 64 bits the report's count is a lower bound, and its stop says so ([`Stop::Limit`])
    /// though the count is exact.
    pub(crate) fn new(
        mut stats: Stats,
        stop: Stop,
        solutions: BigUint,
        peak_bytes: usize,
        branching: MemoBranching,
    ) -> MemoCount {
        let small = u64::try_from(&solutions).ok();
        stats.solutions = small.unwrap_or(u64::MAX);
        let exact = stop == Stop::Exhausted;
        let stop = if exact && small.is_none() {
            Stop::Limit
        } else {
            stop
        };
        MemoCount {
            report: Report { stats, stop },
            solutions,
            exact,
            peak_bytes,
            branching,
        }
    }
}

/// One level of the remembering search: the item branched on, the option being tried, the
/// completions counted so far and the hash of the subproblem at the level's entry.
struct Frame {
    item: Item,
    option: OptionNode,
    sum: Tally,
    /// The hash of a level that branches, to remember its count under; `None` for a forced
    /// move, whose count is remembered at the branching level below it.
    hash: Option<u64>,
    /// The nodes a plain search would have walked (walked plus saved) when the level began.
    entered: u64,
    /// Where the level's children begin in [`Diagram::children`], when there is a diagram.
    children: usize,
}

/// The uncovered items as a bit set (a bit per header number, set while the item is covered)
/// and its hash.
struct Key {
    bits: Vec<u64>,
    hash: u64,
    /// One random word per header number.
    zobrist: Vec<u64>,
}

impl Key {
    fn new(dlx: &Dlx) -> Key {
        let links = dlx.links();
        let headers = links.item_count() + 1;
        let mut state = 0x243F_6A88_85A3_08D3u64;
        let zobrist = (0..headers).map(|_| splitmix64(&mut state)).collect();
        let mut key = Key {
            bits: vec![0; headers.div_ceil(64)],
            hash: 0,
            zobrist,
        };
        for h in links.items() {
            if !links.is_active(h) {
                key.flip(h);
            }
        }
        key
    }

    #[inline(always)]
    fn flip(&mut self, h: Item) {
        let n = h.number();
        self.bits[n / 64] ^= 1 << (n % 64);
        self.hash ^= self.zobrist[n];
    }
}

/// Sebastiano Vigna's SplitMix64: the words of the hash.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Dlx {
    /// Counts every solution within `budget`, remembering the count of every subproblem (see
    /// the module's description), whatever `memo.mode` says. The count is exact when the
    /// report is complete, a lower bound when a budget stopped it. The links are left as they
    /// were.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{Dlx, Memo};
    /// use quadrille::problems;
    ///
    /// let mut dlx = Dlx::new(&problems::dominoes(8, 8)?);
    /// let counted = dlx.count_memo(&Budget::unlimited(), &Memo::default());
    /// assert_eq!(counted.solutions, 12_988_816u32.into());
    /// assert!(counted.report.is_complete());
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn count_memo(&mut self, budget: &Budget, memo: &Memo) -> MemoCount {
        if memo.branching == MemoBranching::Layers
            && let Some(layers) = Layers::new(self)
            && let Some(counted) = layers.count(budget, memo.memory)
        {
            return counted;
        }
        self.memo_search(budget, memo, false, None)
            .expect("a count without a trial is never given up")
    }

    /// The trial of `auto` on its own, without a first search before it: the remembering
    /// count of [`Dlx::trial_memo`] within `budget`, given up (`None`, links restored) when
    /// its subproblems do not repeat enough. For a caller whose own first search found the
    /// count enumeration-bound (the bitboard search's count of a Sudoku).
    pub(crate) fn remember_on_trial(&mut self, budget: &Budget) -> Option<MemoCount> {
        let memo = self.trial_memo(self.memo());
        self.memo_search(budget, &memo, true, None)
    }

    /// The remembering count, given up after [`TRIAL_NODES`] nodes (`None`, links restored)
    /// if `trial` is set and its subproblems did not repeat; it adds every subproblem's
    /// diagram to `diagram` if one is given.
    pub(crate) fn memo_search(
        &mut self,
        budget: &Budget,
        memo: &Memo,
        trial: bool,
        diagram: Option<&mut Diagram>,
    ) -> Option<MemoCount> {
        match (self.links().tracks_dead_ends(), self.links().tracks_bytes()) {
            (true, true) => self.remembering::<true, true>(budget, memo, trial, diagram),
            (true, false) => self.remembering::<true, false>(budget, memo, trial, diagram),
            _ => self.remembering::<false, false>(budget, memo, trial, diagram),
        }
    }

    /// The memo of a trial of `auto` after a first search that met solutions: first-item
    /// branching where the problem's encoder gave an order ([`Dlx::set_memo_order`]), which
    /// then looks at its saving as [`ordered_trial_gives_up`] says; else `memo` as set.
    pub(super) fn trial_memo(&self, memo: Memo) -> Memo {
        if self.memo_order().is_empty() {
            return memo;
        }
        Memo {
            branching: MemoBranching::FirstItem,
            ..memo
        }
    }

    /// The item to branch on where none is forced (the search has just scanned for one, so
    /// MRV does not scan again): for first-item branching, the first uncovered one in the
    /// order given ([`Dlx::set_memo_order`]), else in the problem's order.
    fn memo_choice(&self, branching: MemoBranching) -> Item {
        let links = self.links();
        let index = match branching {
            MemoBranching::FirstItem => (self.memo_order().iter())
                .map(|&i| i as usize)
                .find(|&i| links.is_active(links.primary_item(i)))
                .or_else(|| scan::first(links.primary_headers(), scan::Want::Active))
                .expect("some primary item is uncovered"),
            MemoBranching::Mrv | MemoBranching::Layers => {
                Mrv::unforced(&ActiveItems::new(self)).index()
            }
        };
        self.links().primary_item(index)
    }

    fn remembering<const TRACK: bool, const BYTES: bool>(
        &mut self,
        budget: &Budget,
        memo: &Memo,
        trial: bool,
        mut diagram: Option<&mut Diagram>,
    ) -> Option<MemoCount> {
        let start = Instant::now();
        let deadline = budget.stop_at(start);
        let node_limit = budget.node_limit();
        // A trial in the encoder's order looks later and longer (see `ORDERED_LOOKS`).
        let ordered = memo.branching == MemoBranching::FirstItem && !self.memo_order().is_empty();
        let mut stats = Stats::default();
        let mut key = Key::new(self);
        let mut cache = Cache::new(key.bits.len(), memo.memory);
        let mut peak_bytes = cache.bytes();
        let mut frames: Vec<Frame> = Vec::new();
        // Nodes that the cache's answers saved: the plain subtrees of the subproblems it answered.
        let mut saved = 0u64;
        // The count of the subproblem just finished, on its way up to its parent.
        let mut value = Tally::ZERO;
        // Its node in the diagram, when there is one (see `Diagram`).
        let mut value_node = FALSE;

        let stop = 'search: loop {
            // Enter a node: the options of `frames` are chosen.
            if stats.nodes >= node_limit {
                break 'search Stop::NodeBudget;
            }
            stats.nodes += 1;
            if past_deadline(deadline, stats.nodes) {
                break 'search Stop::TimeBudget;
            }
            let gives_up = if ordered {
                ordered_trial_gives_up(stats.nodes, stats.max_depth, saved)
            } else {
                trial_gives_up(stats.nodes, stats.max_depth, saved)
            };
            if trial && gives_up {
                self.unwind::<TRACK, BYTES>(&frames);
                return None;
            }
            stats.max_depth = stats.max_depth.max(frames.len());

            let headers = self.links().primary_headers();
            value_node = FALSE;
            value = if self.links().all_covered::<BYTES>() {
                value_node = TRUE;
                Tally::ONE
            } else if TRACK && self.links().empty_items() > 0 {
                stats.backtracks += 1;
                Tally::ZERO
            } else {
                let forced = scan::first(headers, scan::Want::AtMostOne);
                let known = match forced {
                    Some(i) if headers[i].len() == 0 => {
                        stats.backtracks += 1;
                        Some(Tally::ZERO)
                    }
                    Some(_) => None,
                    None => cache.get(key.hash, &key.bits).map(|(count, extra)| {
                        stats.cache_hits += 1;
                        if diagram.is_some() {
                            value_node = *extra as u32;
                        } else {
                            saved = saved.saturating_add(*extra);
                        }
                        count.clone()
                    }),
                };
                match known {
                    Some(count) => count,
                    None => {
                        let h = match forced {
                            Some(i) => self.links().primary_item(i),
                            None => self.memo_choice(memo.branching),
                        };
                        let x = self
                            .links()
                            .first_option(h)
                            .expect("the item chosen has an option");
                        frames.push(Frame {
                            item: h,
                            option: x,
                            sum: Tally::ZERO,
                            hash: forced.is_none().then_some(key.hash),
                            entered: stats.nodes.saturating_add(saved),
                            children: diagram.as_ref().map_or(0, |d| d.children.len()),
                        });
                        stats.updates += self.links_mut().cover::<TRACK, BYTES>(h);
                        key.flip(h);
                        stats.updates += self.choose_option::<TRACK, BYTES>(x, &mut key);
                        continue 'search;
                    }
                }
            };

            // Hand the count up, trying each level's next option.
            loop {
                let Some(frame) = frames.last_mut() else {
                    break 'search Stop::Exhausted;
                };
                frame.sum.add(&value);
                let x = frame.option;
                if let Some(diagram) = diagram.as_deref_mut()
                    && !value.is_zero()
                {
                    let option = self.links().option_of(x) as u32;
                    diagram.children.push((option, value_node));
                }
                self.links_mut().uncover_others::<TRACK, BYTES>(x);
                for h in self.links().other_items(x) {
                    key.flip(h);
                }
                if let Some(next) = self.links().next_option(x) {
                    frame.option = next;
                    stats.updates += self.choose_option::<TRACK, BYTES>(next, &mut key);
                    continue 'search;
                }
                let Frame {
                    item,
                    sum,
                    hash,
                    entered,
                    children,
                    ..
                } = frames.pop().expect("the level is there");
                self.links_mut().uncover::<TRACK, BYTES>(item);
                key.flip(item);
                let extra = match diagram.as_deref_mut() {
                    Some(diagram) => {
                        let Some(node) = diagram.chain(children, cache.bytes()) else {
                            break 'search Stop::Limit;
                        };
                        value_node = node;
                        cache.limit(diagram.room_for_table());
                        u64::from(value_node)
                    }
                    None => stats.nodes.saturating_add(saved) - entered,
                };
                if let Some(hash) = hash {
                    cache.insert(hash, &key.bits, (sum.clone(), extra));
                    stats.subproblems += 1;
                    peak_bytes = peak_bytes.max(cache.bytes());
                }
                value = sum;
            }
        };

        let solutions = match stop {
            Stop::Exhausted => value.to_big(),
            _ => frames.iter().map(|f| f.sum.to_big()).sum(),
        };
        self.unwind::<TRACK, BYTES>(&frames);
        debug_assert_eq!(self.sanity(), Ok(()));
        stats.elapsed = start.elapsed();
        if let Some(diagram) = diagram {
            diagram.root = value_node;
        }
        let branching = match memo.branching {
            MemoBranching::FirstItem => MemoBranching::FirstItem,
            _ => MemoBranching::Mrv,
        };
        Some(MemoCount::new(
            stats, stop, solutions, peak_bytes, branching,
        ))
    }

    /// Covers the other items of `x`'s option and notes them in `key`.
    #[inline(always)]
    fn choose_option<const TRACK: bool, const BYTES: bool>(
        &mut self,
        x: OptionNode,
        key: &mut Key,
    ) -> u64 {
        for h in self.links().other_items(x) {
            key.flip(h);
        }
        self.links_mut().cover_others::<TRACK, BYTES>(x)
    }

    /// Undoes the choices of `frames`, deepest first.
    fn unwind<const TRACK: bool, const BYTES: bool>(&mut self, frames: &[Frame]) {
        for frame in frames.iter().rev() {
            self.links_mut()
                .uncover_others::<TRACK, BYTES>(frame.option);
            self.links_mut().uncover::<TRACK, BYTES>(frame.item);
        }
    }
}
