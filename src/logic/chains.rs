//! Chains of strong and weak links: X-chains (one digit) and alternating inference chains
//! (AICs, any digits).
//!
//! A candidate is a literal that is true (ON) or false (OFF). The links give implications:
//! ON(c,d) makes OFF every other candidate of c and every d of c's peers (weak links); OFF(c,d)
//! makes ON the other candidate of a bivalue cell c, and the other place of d in a unit where
//! d has two places (strong links). A breadth-first search from OFF(x) follows them: every
//! ON(y) it reaches means "x or y", so a candidate that sees both x and y goes. Reaching ON(x)
//! itself places x. An X-chain uses only the links of one digit. The search takes the shortest
//! chain of all starts, since SE's score grows with the length. A Y-cycle is a loop over the
//! strong links of bivalue cells and the weak links between cells.

use super::meter::Meter;
use super::state::{Candidates, bits, digits};
use super::step::Step;
use super::technique::{Technique, length_bonus};

/// The most literals one search for a chain may reach, over all its starts, before it settles
/// for the shortest chain found so far: far above what a 9x9 grid needs (at most 729 starts
/// of 1,458 literals, about a million), so that only large, open grids are cut short.
const MAX_REACHED: usize = 20_000_000;

/// The search's buffers, kept across steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct ChainScratch {
    /// The places of digit d in unit u: `places[u * n + d]`.
    places: Vec<u64>,
    /// The literal each literal was reached from, `u32::MAX` for the start.
    parent: Vec<u32>,
    /// The search that last reached each literal.
    seen: Vec<u32>,
    epoch: u32,
    queue: Vec<u32>,
    depth: Vec<u16>,
    neighbours: Vec<u32>,
    path: Vec<u32>,
    /// The literals the last call of [`chain`] reached, over all its starts: its work.
    pub(crate) reached: usize,
}

/// Which links a chain may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Links {
    /// One digit's: X-chains.
    OneDigit,
    /// Bivalue cells' strong links and every weak link: the links of Y-cycles.
    Bivalue,
    /// Every link: AICs.
    Any,
}

/// A chain found: its start, end, length in nodes.
#[derive(Clone, Copy, Debug)]
struct Found {
    start: u32,
    end: u32,
    nodes: usize,
}

/// The chain of the fewest nodes, at most `most_nodes`, over `links` that removes a candidate
/// or places one. Each start searched is a node of `meter`; when it runs out, the search settles
/// for the shortest chain found so far (which the solver then drops, its budget spent). Returns
/// the chain's nodes.
pub(crate) fn chain(
    state: &Candidates,
    step: &mut Step,
    scratch: &mut ChainScratch,
    links: Links,
    most_nodes: usize,
    meter: &mut Meter,
) -> Option<usize> {
    let n = state.tables.n;
    prepare(state, scratch);
    let mut best: Option<Found> = None;
    let mut reached = 0;
    'starts: for c in 0..n * n {
        for d in digits(state.cands[c]) {
            if reached > MAX_REACHED || !meter.spend(1) {
                break 'starts;
            }
            let start = literal(n, c, d, false);
            let limit = best.map_or(most_nodes, |b| b.nodes - 1);
            let found = search(state, scratch, links, start, limit, None);
            reached += scratch.queue.len();
            if let Some(found) = found
                && best.is_none_or(|b| found.nodes < b.nodes)
            {
                best = Some(found);
            }
        }
    }
    scratch.reached = reached;
    let found = best?;
    // Search again from the best start to rebuild its path.
    search(
        state,
        scratch,
        links,
        found.start,
        found.nodes,
        Some(found.end),
    );
    trace(scratch, found.end);
    let technique = if links == Links::OneDigit {
        Technique::XChain
    } else {
        Technique::Aic
    };
    step.begin(
        technique,
        technique.base_tenths() + length_bonus(found.nodes),
    );
    write_path(step, &scratch.path, n);
    let (xc, xd, _) = unpack(n, found.start);
    let (yc, yd, _) = unpack(n, found.end);
    if (xc, xd) == (yc, yd) {
        step.place(xc, xd);
    } else {
        conflicts(state, (xc, xd), (yc, yd), |c, d| step.eliminate(c, d));
    }
    Some(found.nodes)
}

/// The shortest continuous loop over `links` that removes a candidate: an X-cycle (one
/// digit's links), a Y-cycle (bivalue cells, each sharing a digit with the next) or an
/// XY-cycle (any links). Around a loop each strong link holds whichever way the loop is read,
/// so each weak link joins two literals of which exactly one is true: a candidate that sees
/// both ends of a weak link between cells goes, and so do a cell's other candidates where the
/// weak link is inside it. Searched breadth-first from OFF(c, e) to an ON(c', e) in a cell
/// c' seeing c, whose weak link closes the loop; a loop passes each cell once. Returns the
/// loop's literals.
pub(crate) fn cycle(
    state: &Candidates,
    step: &mut Step,
    scratch: &mut ChainScratch,
    links: Links,
    meter: &mut Meter,
) -> Option<usize> {
    let t = &*state.tables;
    let n = t.n;
    prepare(state, scratch);
    let mut best: Option<Found> = None;
    let mut reached = 0;
    'starts: for c in 0..n * n {
        // A Y-cycle's cells are all bivalue.
        if links == Links::Bivalue && state.cands[c].count_ones() != 2 {
            continue;
        }
        for e in digits(state.cands[c]) {
            if reached > MAX_REACHED || !meter.spend(1) {
                break 'starts;
            }
            let start = literal(n, c, e, false);
            let limit = best.map_or(usize::MAX, |b| b.nodes - 1);
            breadth_first(state, scratch, links, start, limit);
            reached += scratch.queue.len();
            for i in 0..scratch.queue.len() {
                let lit = scratch.queue[i];
                let (end, d, on) = unpack(n, lit);
                let nodes = usize::from(scratch.depth[lit as usize]);
                // Two literals are one strong link read both ways, no loop.
                if on && d == e && end != c && t.sees(end, c) && (4..=limit).contains(&nodes) {
                    trace(scratch, lit);
                    if passes_each_cell_once(n, &scratch.path)
                        && loop_eliminations(state, n, &scratch.path, |_, _| ())
                    {
                        best = Some(Found {
                            start,
                            end: lit,
                            nodes,
                        });
                        break;
                    }
                }
            }
        }
    }
    let found = best?;
    breadth_first(state, scratch, links, found.start, found.nodes);
    trace(scratch, found.end);
    let technique = match links {
        Links::OneDigit => Technique::XCycle,
        Links::Bivalue => Technique::YCycle,
        Links::Any => Technique::XyCycle,
    };
    // A loop of k literals scores as a chain of k - 2 nodes, as Sukaku counts it (fitted on
    // fixtures/se/generated_sukaku.txt; see docs/rating.md).
    step.begin(
        technique,
        technique.base_tenths() + length_bonus(found.nodes - 2),
    );
    write_path(step, &scratch.path, n);
    loop_eliminations(state, n, &scratch.path, |c, d| step.eliminate(c, d));
    Some(found.nodes)
}

/// Whether a loop's literals stay in each cell for one stretch, never coming back to it.
fn passes_each_cell_once(n: usize, path: &[u32]) -> bool {
    let mut cells: Vec<usize> = path.iter().map(|&l| unpack(n, l).0).collect();
    cells.dedup();
    cells.sort_unstable();
    cells.windows(2).all(|w| w[0] != w[1])
}

/// Calls `each` with the candidates a loop's weak links remove (those of its path, and the
/// one closing it), and returns whether there is one.
fn loop_eliminations(
    state: &Candidates,
    n: usize,
    path: &[u32],
    mut each: impl FnMut(usize, u8),
) -> bool {
    let t = &*state.tables;
    let in_loop = |q: usize| path.iter().any(|&l| unpack(n, l).0 == q);
    let mut any = false;
    let closing = [path[path.len() - 1], path[0]];
    let weak = path
        .windows(2)
        .filter(|pair| unpack(n, pair[0]).2 && !unpack(n, pair[1]).2);
    for pair in weak.chain(std::iter::once(&closing[..])) {
        let (a, d, _) = unpack(n, pair[0]);
        let (b, e, _) = unpack(n, pair[1]);
        if a == b {
            // Inside a cell: it is d or e, nothing else.
            let others = state.cands[a] & !(1 << (d - 1)) & !(1 << (e - 1));
            for f in digits(others) {
                each(a, f);
                any = true;
            }
            continue;
        }
        let bit = 1u64 << (d - 1);
        for &q in t.peers(a) {
            let q = q as usize;
            if state.cands[q] & bit != 0 && !in_loop(q) && t.sees(q, b) {
                each(q, d);
                any = true;
            }
        }
    }
    any
}

/// Sizes the buffers for the grid's literals and notes each unit's places of each digit.
fn prepare(state: &Candidates, scratch: &mut ChainScratch) {
    let n = state.tables.n;
    let lits = n * n * n * 2;
    if scratch.parent.len() != lits {
        scratch.parent = vec![0; lits];
        scratch.seen = vec![0; lits];
        scratch.depth = vec![0; lits];
        scratch.epoch = 0;
    }
    scratch.places.clear();
    for u in 0..state.tables.unit_count() {
        for d in 0..n {
            let p = state.positions(u, 1 << d);
            scratch.places.push(p);
        }
    }
}

/// Every literal within `limit` nodes of `start`, into `scratch.queue` in the order reached.
fn breadth_first(
    state: &Candidates,
    scratch: &mut ChainScratch,
    links: Links,
    start: u32,
    limit: usize,
) {
    // No literal is u32::MAX, so the search reaches everything it can.
    search(state, scratch, links, start, limit, Some(u32::MAX));
}

/// Writes a chain's literals into `step`, with their cells and digits.
fn write_path(step: &mut Step, path: &[u32], n: usize) {
    for &lit in path {
        let (c, d, on) = unpack(n, lit);
        step.chain.push((c as u16, d, on));
        if !step.cells.contains(&(c as u16)) {
            step.cells.push(c as u16);
        }
        step.digits |= 1 << (d - 1);
    }
}

/// `scratch.path`: the literals from the last search's start to `end`.
fn trace(scratch: &mut ChainScratch, end: u32) {
    scratch.path.clear();
    let mut at = end;
    while at != u32::MAX {
        scratch.path.push(at);
        at = scratch.parent[at as usize];
    }
    scratch.path.reverse();
}

/// Breadth-first search from `start` (an OFF literal) up to `limit` nodes. Without `target`,
/// returns the first ON literal that concludes something; with it, stops on reaching it.
fn search(
    state: &Candidates,
    scratch: &mut ChainScratch,
    links: Links,
    start: u32,
    limit: usize,
    target: Option<u32>,
) -> Option<Found> {
    let n = state.tables.n;
    scratch.epoch = scratch.epoch.wrapping_add(1);
    if scratch.epoch == 0 {
        scratch.seen.fill(0);
        scratch.epoch = 1;
    }
    let epoch = scratch.epoch;
    scratch.queue.clear();
    scratch.queue.push(start);
    scratch.seen[start as usize] = epoch;
    scratch.parent[start as usize] = u32::MAX;
    scratch.depth[start as usize] = 1;
    let (xc, xd, _) = unpack(n, start);
    let mut head = 0;
    while head < scratch.queue.len() {
        let lit = scratch.queue[head];
        head += 1;
        let nodes = scratch.depth[lit as usize] as usize;
        let (c, d, on) = unpack(n, lit);
        if on {
            let concludes = match target {
                Some(target) => lit == target,
                None => (c, d) == (xc, xd) || conflicts(state, (xc, xd), (c, d), |_, _| ()),
            };
            if concludes {
                return Some(Found {
                    start,
                    end: lit,
                    nodes,
                });
            }
        }
        if nodes >= limit {
            continue;
        }
        let mut neighbours = std::mem::take(&mut scratch.neighbours);
        neighbours.clear();
        follow(state, &scratch.places, links, c, d, on, &mut neighbours);
        for &next in &neighbours {
            if scratch.seen[next as usize] != epoch {
                scratch.seen[next as usize] = epoch;
                scratch.parent[next as usize] = lit;
                scratch.depth[next as usize] = (nodes + 1) as u16;
                scratch.queue.push(next);
            }
        }
        scratch.neighbours = neighbours;
    }
    None
}

/// The literals that literal (c, d, on) implies by one link.
fn follow(
    state: &Candidates,
    places: &[u64],
    links: Links,
    c: usize,
    d: u8,
    on: bool,
    out: &mut Vec<u32>,
) {
    let t = &*state.tables;
    let n = t.n;
    let bit = 1u64 << (d - 1);
    if on {
        if links != Links::OneDigit {
            for e in digits(state.cands[c] & !bit) {
                out.push(literal(n, c, e, false));
            }
        }
        for &p in t.peers(c) {
            if state.cands[p as usize] & bit != 0 {
                out.push(literal(n, p as usize, d, false));
            }
        }
    } else {
        if links != Links::OneDigit && state.cands[c].count_ones() == 2 {
            let e = digits(state.cands[c] & !bit).next().expect("bivalue");
            out.push(literal(n, c, e, true));
        }
        let units = if links == Links::Bivalue {
            &[][..]
        } else {
            t.units_of(c)
        };
        for &u in units {
            let u = u as usize;
            let p = places[u * n + usize::from(d) - 1];
            if p.count_ones() == 2 {
                for i in bits(p) {
                    let other = t.unit(u)[i] as usize;
                    if other != c {
                        out.push(literal(n, other, d, true));
                    }
                }
            }
        }
    }
}

/// Calls `each` with every candidate that sees both x and y (so is false when either is
/// true), and returns whether there is one.
pub(crate) fn conflicts(
    state: &Candidates,
    (xc, xd): (usize, u8),
    (yc, yd): (usize, u8),
    mut each: impl FnMut(usize, u8),
) -> bool {
    let t = &*state.tables;
    let mut any = false;
    if xc == yc {
        let others = state.cands[xc] & !(1 << (xd - 1)) & !(1 << (yd - 1));
        for e in digits(others) {
            each(xc, e);
            any = true;
        }
    } else if xd == yd {
        let bit = 1u64 << (xd - 1);
        for &q in t.peers(xc) {
            let q = q as usize;
            if state.cands[q] & bit != 0 && t.sees(q, yc) {
                each(q, xd);
                any = true;
            }
        }
    } else if t.sees(xc, yc) {
        for (c, d) in [(yc, xd), (xc, yd)] {
            if state.cands[c] & (1 << (d - 1)) != 0 {
                each(c, d);
                any = true;
            }
        }
    }
    any
}

fn literal(n: usize, c: usize, d: u8, on: bool) -> u32 {
    ((c * n + usize::from(d) - 1) * 2 + usize::from(on)) as u32
}

fn unpack(n: usize, lit: u32) -> (usize, u8, bool) {
    let lit = lit as usize;
    let candidate = lit / 2;
    (candidate / n, (candidate % n) as u8 + 1, lit % 2 == 1)
}
