//! Counting layer by layer over the frontier: the transfer-matrix method, for problems whose
//! items come in an order that keeps the frontier narrow (a board's cells row by row).
//!
//! Branch always on the first uncovered primary item in the problem's order, as DXZ's
//! first-item order does. Every subproblem met at item `p` (the primary items before it
//! covered, `p` not) is then fixed by the items near `p` alone: an item far behind `p` is in no
//! option still to come, and an item far ahead is in no option chosen so far. If every option
//! spans at most 128 positions of the order around its first primary item, a subproblem is a
//! 128-bit window of "covered" bits, and the count goes forward one layer (one primary item) at
//! a time: each subproblem holds the number of ways it is reached, and hands that number on
//! to the subproblems its options lead to; the count is what reaches the end. Only the layers
//! not yet done are held, so memory is a few layers' worth: a domino tiling of 20x20 holds
//! about a million windows at once, where the table of [`Dlx::count_memo`] would hold tens of
//! millions of whole sets of items.
//!
//! The numbers reached grow past 128 bits (20x20 has 1.3e48 tilings): they are kept as a
//! fixed number of 64-bit words per layer, doubled for every layer when one would overflow.

use std::time::Instant;

use std::hash::BuildHasher;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use num_bigint::BigUint;
use rayon::prelude::*;

use super::{MemoBranching, MemoCount};
use crate::budget::{Budget, Stop};
use crate::exact_cover::Dlx;
use crate::exact_cover::search::{Stats, past_deadline};

/// The widest window, in positions of the item order: a key is a `u128`.
const WINDOW: u32 = 128;

/// The most bits of a layer's window that subproblems may differ in (its live bits): a
/// layer holds at most 2^32 windows, so that a window's index is a `u32` and a layer's sums
/// cannot overflow (see [`Layers::count`]). Past it, the order has no narrow frontier: a 2 x 93
/// board whose items go row by row has 94, and its layers grew to the memory's end in 20 s
/// where MRV's remembering search counts it in milliseconds.
const FRONTIER: u32 = 32;

/// No layer: the count has covered every primary item.
const END: u32 = u32::MAX;

/// The layers of a problem: for each primary item in order, the options whose first primary
/// item it is, as windows of the bits they cover.
pub(crate) struct Layers {
    /// Where each layer's options begin in `masks`; one more entry than layers.
    starts: Vec<u32>,
    /// The options' bits, relative to their layer's window.
    masks: Vec<u128>,
    /// Per layer: the window's bits of the primary items after the layer's own.
    ahead: Vec<u128>,
    /// Per layer: the window's bits that an option of this layer or a later one can cover,
    /// and the primary items ahead; the others are cleared, so that subproblems that differ
    /// only where nothing is left to cover meet.
    live: Vec<u128>,
    /// Per layer: its position in the order.
    position: Vec<u32>,
    /// Per layer: the first layer at or past the end of its window (or [`END`]).
    beyond: Vec<u32>,
    /// Per position: its layer, for the positions of primary items.
    layer_at: Vec<u32>,
    /// How many positions a window reaches behind its layer's.
    back: u32,
}

impl Layers {
    /// The layers of what is left of `dlx`'s problem (the items and options still active),
    /// or `None` if some option spans more than [`WINDOW`] positions of the item order or
    /// a layer's subproblems may differ in more than [`FRONTIER`] items.
    pub(crate) fn new(dlx: &Dlx) -> Option<Layers> {
        let links = dlx.links();
        let primary = links.primary_count();
        let headers = links.item_count();
        // The options left: those in the lists of the active items, by number.
        let mut options: Vec<usize> = Vec::new();
        let mut seen = vec![false; links.option_count()];
        for h in links.items().filter(|&h| links.is_active(h)) {
            let mut x = links.first_option(h);
            while let Some(node) = x {
                let k = links.option_of(node);
                if !seen[k] {
                    seen[k] = true;
                    options.push(k);
                }
                x = links.next_option(node);
            }
        }
        options.sort_unstable();
        // Each header's number (1-based) to its place: primary items in order, each secondary
        // item right after the first primary item of the first option it is in.
        let mut first_layer = vec![u32::MAX; headers + 1];
        let mut items: Vec<Vec<usize>> = Vec::with_capacity(options.len());
        for &k in &options {
            let numbers: Vec<usize> = links.items_of(k).map(|h| h.number()).collect();
            let Some(lead) = numbers.iter().copied().filter(|&n| n <= primary).min() else {
                // An option of secondary items alone is never chosen.
                continue;
            };
            for &n in &numbers {
                first_layer[n] = first_layer[n].min(lead as u32);
            }
            items.push(numbers);
        }
        let mut order: Vec<(u32, usize)> = (1..=headers)
            .filter(|&n| n <= primary || first_layer[n] != u32::MAX)
            .map(|n| {
                (
                    if n <= primary {
                        n as u32
                    } else {
                        first_layer[n]
                    },
                    n,
                )
            })
            .collect();
        order.sort_unstable();
        let mut place = vec![u32::MAX; headers + 1];
        for (at, &(_, n)) in order.iter().enumerate() {
            place[n] = at as u32;
        }
        let positions = order.len() as u32;
        // The layers: the active primary items, in order.
        let mut layer_at = vec![END; positions as usize];
        let mut position = Vec::new();
        for (at, &(_, n)) in order.iter().enumerate() {
            if n <= primary && links.is_active(links.primary_item(n - 1)) {
                layer_at[at] = position.len() as u32;
                position.push(at as u32);
            }
        }
        // The reach of the options around their first primary item.
        let (mut back, mut front) = (0u32, 1u32);
        let mut by_layer: Vec<(u32, Vec<u32>)> = Vec::with_capacity(items.len());
        for numbers in &items {
            let places: Vec<u32> = numbers.iter().map(|&n| place[n]).collect();
            let lead = numbers
                .iter()
                .filter(|&&n| n <= primary)
                .map(|&n| place[n])
                .min()
                .expect("an option with a primary item");
            let low = *places.iter().min().expect("an option has an item");
            let high = *places.iter().max().expect("an option has an item");
            back = back.max(lead - low);
            front = front.max(high - lead + 1);
            by_layer.push((layer_at[lead as usize], places));
        }
        if back + front > WINDOW {
            return None;
        }
        let layers = position.len();
        by_layer.sort_by_key(|(layer, _)| *layer);
        // The last layer whose options reach each position.
        let mut last_use = vec![None::<u32>; positions as usize];
        let mut starts = Vec::with_capacity(layers + 1);
        let mut masks = Vec::with_capacity(by_layer.len());
        let mut next = 0;
        for layer in 0..layers as u32 {
            starts.push(masks.len() as u32);
            while next < by_layer.len() && by_layer[next].0 == layer {
                let mut mask = 0u128;
                for &at in &by_layer[next].1 {
                    mask |= 1 << (at + back - position[layer as usize]);
                    last_use[at as usize] = Some(layer);
                }
                masks.push(mask);
                next += 1;
            }
        }
        starts.push(masks.len() as u32);
        let mut ahead = Vec::with_capacity(layers);
        let mut live = Vec::with_capacity(layers);
        let mut beyond = Vec::with_capacity(layers);
        let width = back + front;
        for layer in 0..layers as u32 {
            let at = position[layer as usize];
            let (mut ahead_bits, mut live_bits) = (0u128, 0u128);
            for bit in 0..width {
                let Some(p) = (at + bit).checked_sub(back).filter(|&p| p < positions) else {
                    continue;
                };
                let is_layer = layer_at[p as usize] != END;
                if is_layer && p > at {
                    ahead_bits |= 1 << bit;
                }
                if (is_layer && p >= at) || last_use[p as usize].is_some_and(|l| l >= layer) {
                    live_bits |= 1 << bit;
                }
            }
            if live_bits.count_ones() > FRONTIER {
                return None;
            }
            ahead.push(ahead_bits);
            live.push(live_bits);
            let end = at + width - back;
            beyond.push(
                (end.max(at + 1)..positions)
                    .map(|p| layer_at[p as usize])
                    .find(|&l| l != END)
                    .unwrap_or(END),
            );
        }
        Some(Layers {
            starts,
            masks,
            ahead,
            live,
            position,
            beyond,
            layer_at,
            back,
        })
    }

    /// The number of layers: the primary items left.
    pub(crate) fn len(&self) -> usize {
        self.position.len()
    }

    /// The layer and window that choosing the option `mask` at `layer` leads to from `window`
    /// (already known to be free where `mask` is), or `None` when every primary item is
    /// covered.
    #[inline(always)]
    fn step(&self, layer: usize, window: u128, mask: u128) -> Option<(usize, u128)> {
        let covered = window | mask;
        let open = !covered & self.ahead[layer];
        let next = if open != 0 {
            let at = self.position[layer] + open.trailing_zeros() - self.back;
            self.layer_at[at as usize]
        } else {
            self.beyond[layer]
        };
        if next == END {
            return None;
        }
        let next = next as usize;
        let shift = self.position[next] - self.position[layer];
        let moved = covered.checked_shr(shift).unwrap_or(0);
        Some((next, moved & self.live[next]))
    }
}

/// One thread's share of a layer: the windows whose hash falls to it, in the order they came,
/// their numbers (`words` 64-bit words each, least significant first) and a table that finds a
/// window's place.
#[derive(Default)]
struct Part {
    windows: Vec<u128>,
    numbers: Vec<u64>,
    table: HashTable<u32>,
}

impl Part {
    fn bytes(&self) -> usize {
        self.windows.capacity() * 16 + self.numbers.capacity() * 8 + self.table.capacity() * 5
    }

    /// Adds `number` to the window's, which is made if it is new; whether the sum reaches
    /// the last word.
    /// A new part first makes room for `expect` windows: the layers of a problem with a
    /// frontier are alike in size, and growing a table as it fills took a fifth of the time
    /// of `benches/peers/dominoes.sh`'s 18x18 (perf).
    #[inline(always)]
    fn add<const W: usize>(
        &mut self,
        hash: u64,
        window: u128,
        number: &[u64; W],
        expect: usize,
    ) -> bool {
        if self.windows.capacity() == 0 {
            self.reserve::<W>(expect);
        }
        let windows = &self.windows;
        match self.table.entry(
            hash,
            |&i| windows[i as usize] == window,
            |&i| hash_of(windows[i as usize]),
        ) {
            Entry::Occupied(place) => {
                let i = *place.get() as usize;
                let sum: &mut [u64; W] = (&mut self.numbers[i * W..(i + 1) * W])
                    .try_into()
                    .expect("W words");
                add_words(sum, number);
                sum[W - 1] != 0
            }
            Entry::Vacant(place) => {
                place.insert(self.windows.len() as u32);
                self.windows.push(window);
                self.numbers.extend_from_slice(number);
                number[W - 1] != 0
            }
        }
    }

    #[cold]
    fn reserve<const W: usize>(&mut self, expect: usize) {
        let expect = expect + expect / 8 + 16;
        self.windows.reserve(expect);
        self.numbers.reserve(expect * W);
        let windows = &self.windows;
        self.table
            .reserve(expect, |&i| hash_of(windows[i as usize]));
    }

    /// Doubles each number's words, from `words` to `2 * words`.
    fn widen(&mut self, words: usize) {
        let mut wide = Vec::with_capacity(self.numbers.len() * 2);
        for number in self.numbers.chunks_exact(words) {
            wide.extend_from_slice(number);
            wide.extend(std::iter::repeat_n(0, words));
        }
        self.numbers = wide;
    }
}

/// A window's hash: foldhash's, with a fixed seed, so that a window falls to the same thread
/// in every run.
#[inline(always)]
fn hash_of(window: u128) -> u64 {
    foldhash::fast::FixedState::with_seed(0x243F_6A88_85A3_08D3).hash_one(window)
}

/// The thread of `threads` that owns a window of hash `hash` (the table uses the low bits).
#[inline(always)]
fn owner(hash: u64, threads: usize) -> usize {
    ((u128::from(hash >> 32) * threads as u128) >> 32) as usize
}

/// `sum += number`, word by word (the sum cannot overflow, see [`Layers::count`]).
#[inline(always)]
fn add_words<const W: usize>(sum: &mut [u64; W], number: &[u64; W]) {
    let mut carry = false;
    for (s, &n) in sum.iter_mut().zip(number) {
        let (a, c1) = s.overflowing_add(n);
        let (b, c2) = a.overflowing_add(u64::from(carry));
        *s = b;
        carry = c1 | c2;
    }
    debug_assert!(!carry, "a number of a layer overflowed its words");
}

fn to_big(words: &[u64]) -> BigUint {
    let digits: Vec<u32> = words
        .iter()
        .flat_map(|&w| [w as u32, (w >> 32) as u32])
        .collect();
    BigUint::new(digits)
}

/// A window handed on to another thread's part of a layer.
struct Handed<const W: usize> {
    layer: u32,
    hash: u64,
    window: u128,
    number: [u64; W],
}

/// What one thread did in one layer.
#[derive(Default)]
struct Done {
    nodes: u64,
    total: BigUint,
    /// Whether a number it made reached its last word.
    full: bool,
    stopped: Option<Stop>,
}

/// The state of a count by layers between two layers.
struct Run {
    /// `parts[t][layer]`: thread `t`'s share of each layer not yet done.
    parts: Vec<Vec<Part>>,
    /// The 64-bit words of every number.
    words: usize,
    stats: Stats,
    total: BigUint,
    peak: usize,
}

/// The most words a number may take: past 2,048 bits the count is left to a search that
/// remembers with big integers.
const MOST_WORDS: usize = 32;

impl Layers {
    /// Counts every solution layer by layer within `budget` (a node is a window handed on)
    /// and `memory` bytes, on the threads of the rayon pool it runs in (one outside any); `None`
    /// if the layers held would need more memory, so that the count is better left to a
    /// search that forgets.
    ///
    /// A number has `W` words, and every number is below 2^(64(W-1)) when a layer begins: a
    /// layer adds to a window at most one number per window and option of the layer (at most
    /// 2^32 windows, [`FRONTIER`], of fewer than 2^31 options), so that no sum overflows; a
    /// layer after which some number reaches its last word doubles them all.
    pub(crate) fn count(&self, budget: &Budget, memory: usize) -> Option<MemoCount> {
        let start = Instant::now();
        let threads = if rayon::current_thread_index().is_some() {
            rayon::current_num_threads()
        } else {
            1
        };
        let mut run = Run {
            parts: (0..threads)
                .map(|_| (0..self.len()).map(|_| Part::default()).collect())
                .collect(),
            words: 2,
            stats: Stats::default(),
            total: BigUint::ZERO,
            peak: 0,
        };
        let stop = if self.len() == 0 {
            run.total = BigUint::from(1u32);
            Stop::Exhausted
        } else {
            let hash = hash_of(0);
            run.parts[owner(hash, threads)][0].add::<2>(hash, 0, &[1, 0], 1);
            let mut layer = 0;
            loop {
                let next = match run.words {
                    2 => self.layers_from::<2>(&mut run, layer, budget, start, memory),
                    4 => self.layers_from::<4>(&mut run, layer, budget, start, memory),
                    8 => self.layers_from::<8>(&mut run, layer, budget, start, memory),
                    16 => self.layers_from::<16>(&mut run, layer, budget, start, memory),
                    _ => self.layers_from::<MOST_WORDS>(&mut run, layer, budget, start, memory),
                };
                match next {
                    LayersEnd::Stopped(stop) => break stop,
                    LayersEnd::OutOfMemory => return None,
                    LayersEnd::Widen(_) if run.words == MOST_WORDS => return None,
                    LayersEnd::Widen(resume) => {
                        for part in run.parts.iter_mut().flat_map(|p| &mut p[resume..]) {
                            part.widen(run.words);
                        }
                        run.words *= 2;
                        layer = resume;
                    }
                }
            }
        };
        run.stats.elapsed = start.elapsed();
        run.stats.max_depth = self.len();
        Some(MemoCount::new(
            run.stats,
            stop,
            run.total,
            run.peak,
            MemoBranching::Layers,
        ))
    }

    /// The layers from `from` on with numbers of `W` words, until the end, a budget, numbers
    /// that must be widened or `memory` stop them.
    fn layers_from<const W: usize>(
        &self,
        run: &mut Run,
        from: usize,
        budget: &Budget,
        start: Instant,
        memory: usize,
    ) -> LayersEnd {
        let threads = run.parts.len();
        let deadline = budget.stop_at(start);
        let node_limit = budget.node_limit();
        let mut handed: Vec<Vec<Vec<Handed<W>>>> = (0..threads)
            .map(|_| (0..threads).map(|_| Vec::new()).collect())
            .collect();
        for layer in from..self.len() {
            let nodes_before = run.stats.nodes;
            let work = |t: usize, mine: &mut Vec<Part>, out: &mut Vec<Vec<Handed<W>>>| {
                let here = std::mem::take(&mut mine[layer]);
                let expect = here.windows.len();
                let mut done = Done::default();
                let masks =
                    &self.masks[self.starts[layer] as usize..self.starts[layer + 1] as usize];
                for (i, &window) in here.windows.iter().enumerate() {
                    if nodes_before + done.nodes * threads as u64 >= node_limit {
                        done.stopped = Some(Stop::NodeBudget);
                        break;
                    }
                    done.nodes += 1;
                    if past_deadline(deadline, done.nodes) {
                        done.stopped = Some(Stop::TimeBudget);
                        break;
                    }
                    let number: &[u64; W] = here.numbers[i * W..(i + 1) * W]
                        .try_into()
                        .expect("W words");
                    for &mask in masks {
                        if window & mask != 0 {
                            continue;
                        }
                        let Some((next, key)) = self.step(layer, window, mask) else {
                            done.total += to_big(number);
                            continue;
                        };
                        let hash = hash_of(key);
                        let to = owner(hash, threads);
                        if to == t {
                            done.full |= mine[next].add(hash, key, number, expect);
                        } else {
                            out[to].push(Handed {
                                layer: next as u32,
                                hash,
                                window: key,
                                number: *number,
                            });
                        }
                    }
                }
                done
            };
            let dones: Vec<Done> = if threads == 1 {
                vec![work(0, &mut run.parts[0], &mut handed[0])]
            } else {
                run.parts
                    .par_iter_mut()
                    .zip(handed.par_iter_mut())
                    .enumerate()
                    .map(|(t, (mine, out))| work(t, mine, out))
                    .collect()
            };
            let mut handed_full = false;
            if threads > 1 {
                // Each thread takes what the others handed it.
                let handed_ref = &handed;
                let full: Vec<bool> = run
                    .parts
                    .par_iter_mut()
                    .enumerate()
                    .map(|(t, mine)| {
                        let expect = mine.get(layer + 1).map_or(0, |p| p.windows.len());
                        let mut full = false;
                        for from in handed_ref {
                            for h in &from[t] {
                                full |=
                                    mine[h.layer as usize].add(h.hash, h.window, &h.number, expect);
                            }
                        }
                        full
                    })
                    .collect();
                for out in handed.iter_mut().flatten() {
                    out.clear();
                }
                handed_full = full.contains(&true);
            }
            if let Some(end) = end_of_layer(run, dones, memory, handed_full, layer + 1) {
                return end;
            }
        }
        LayersEnd::Stopped(Stop::Exhausted)
    }
}

/// How the layers counted with numbers of one width end.
enum LayersEnd {
    /// At the end, or at a budget.
    Stopped(Stop),
    /// A number reached its last word: widen them all before this layer.
    Widen(usize),
    /// The layers held outgrew the memory.
    OutOfMemory,
}

/// Adds up what the threads did in a layer (with `handed_full` if what they handed each
/// other reached a last word), before layer `next`: `None` to go on.
fn end_of_layer(
    run: &mut Run,
    dones: Vec<Done>,
    memory: usize,
    handed_full: bool,
    next: usize,
) -> Option<LayersEnd> {
    let mut full = handed_full;
    let mut stopped = None;
    for done in dones {
        run.stats.nodes += done.nodes;
        run.total += done.total;
        full |= done.full;
        stopped = stopped.or(done.stopped);
    }
    let held: usize = run.parts.iter().flatten().map(Part::bytes).sum();
    run.peak = run.peak.max(held);
    run.stats.subproblems = run.stats.nodes;
    if held > memory {
        return Some(LayersEnd::OutOfMemory);
    }
    if let Some(stop) = stopped {
        return Some(LayersEnd::Stopped(stop));
    }
    full.then_some(LayersEnd::Widen(next))
}
