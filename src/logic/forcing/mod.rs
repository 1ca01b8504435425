//! Dynamic forcing chains: assume a candidate true, follow what it forces on a copy of the grid,
//! and if that breaks the grid (a cell without candidates, a digit without a place in a unit),
//! the candidate is false. Failing that, assume it false as well: what both ways agree on (a
//! digit placed, a candidate gone) is true. A step concludes only the cheapest of what the ways
//! agree on, as SE does (each conclusion is its own hint there); the rest come in later steps
//! at their own price.
//!
//! What "follow" means grows in four depths, as Sudoku Explainer's chains do:
//! - [`Depth::Singles`]: naked and hidden singles to a fixpoint (SE's dynamic forcing chains,
//!   8.5 and up);
//! - [`Depth::Basic`]: also pointing, claiming, naked and hidden pairs and X-wings when the
//!   singles stall (SE's "dynamic forcing chains (+)", 9.0 and up);
//! - [`Depth::Chains`]: also the shortest X-chain or AIC of the branch's grid (SE's nested
//!   forcing chains of level 2, 9.5 and up);
//! - [`Depth::Nested`]: also a forcing chain inside the chain: a candidate of a bivalue cell
//!   whose singles break the grid goes (SE's nested chains of level 4, dynamic forcing chains
//!   inside, 10.5 and up). SE's level 3 (static cell and region chains inside, 10.0) is not
//!   followed here.
//!
//! At the depth of singles the search also assumes each candidate of a cell, and each place of
//! a digit in a unit, in turn (SE's cell and region forcing chains): what all ways agree on
//! holds, and a way that breaks the grid keeps what it concluded before (it cannot hold, so
//! the other ways decide). Such a chain's base is that of SE's family its hardest link belongs
//! to: links already in the grid at the start (static, 8.0; SE starts those only from cells of
//! three candidates or more, so a region whose first place is bivalue is dynamic), or singles
//! only the updated grid gives (dynamic, 8.5). A chain to a contradiction is a Nishio chain
//! (7.5) when it follows only the assumed digit, and dynamic otherwise: SE's static chains look
//! for none.
//!
//! The score adds SE's length modifier ([`length_bonus`]) for the chain's nodes, counted as SE
//! counts them: every candidate on the chain's way to its conclusion, true (ON) or false (OFF),
//! not the singles that led nowhere. On grids of up to 128 cells the ancestry of the conclusion
//! is traced exactly; on larger ones the count is that of the singles followed.
//!
//! The search here picks the assumptions, scores what each gives and words the cheapest as a
//! step; `follow` follows one assumption at one depth, and `trace` keeps the ancestry that
//! counts a chain's nodes and names its family.

mod follow;
mod trace;

pub(crate) use follow::Depth;
use follow::{Branch, Followed, Follower};
use trace::{Family, NO_EVENT};

use super::chains::ChainScratch;
use super::meter::Meter;
use super::state::{Candidates, bits, digits, full_mask};
use super::step::{Assumption, Step};
use super::technique::{Technique, length_bonus};

/// The most candidates of a cell whose candidates the search assumes: every cell of a 9x9 grid,
/// and on larger grids the cells that are already narrowed down. Without this bound a nearly
/// empty 36x36 grid would follow all 36^3 = 46,656 assumptions at every step before it
/// guesses; with it, such a grid goes to a guess at once.
const MAX_ASSUMED_CANDIDATES: usize = 9;

/// The most work (cells and units looked at while following) one search for a forcing chain
/// may do before it settles for what it found: far above what a 9x9 grid needs at the depth of
/// singles (at most about 5 million), so that only large, open grids and the deepest searches
/// are cut short, and then go to the next depth or a guess.
const MAX_WORK: u64 = 50_000_000;

/// The buffers of the forcing search, kept across steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct ForcingScratch {
    on: Option<Branch>,
    off: Option<Branch>,
    /// The grid and trace of a chain inside the chain.
    inner: Option<Branch>,
    /// The step the basic techniques and inner chains write into inside a chain.
    basic: Option<Step>,
    /// The buffers of the chains inside a chain.
    chains: ChainScratch,
    /// The branches of cell and region forcing chains, one per way.
    multi: Vec<Branch>,
}

/// The score in tenths of a chain of `nodes` nodes of `family` found at `depth`.
fn tenths(depth: Depth, family: Family, nodes: u32) -> u16 {
    let base = match (depth, family) {
        (Depth::Singles, Family::Nishio) => 75,
        (Depth::Singles, Family::Static) => 80,
        _ => depth.base_tenths(),
    };
    (base + length_bonus(nodes as usize)).min(Technique::Guess.base_tenths() - 1)
}

/// The forcing chain of the lowest score (then the fewest nodes) at `depth` that concludes
/// something. Each assumption followed is a node of `meter`; when it runs out, none is found.
pub(crate) fn forcing_chain(
    state: &Candidates,
    step: &mut Step,
    scratch: &mut ForcingScratch,
    depth: Depth,
    meter: &mut Meter,
) -> bool {
    let n = state.tables.n;
    let on = scratch.on.get_or_insert_with(|| Branch::new(state));
    let off = scratch.off.get_or_insert_with(|| Branch::new(state));
    let inner = scratch.inner.get_or_insert_with(|| Branch::new(state));
    let basic = scratch.basic.get_or_insert_with(|| Step::new(state));
    if on.grid.tables != state.tables {
        *on = Branch::new(state);
        *off = Branch::new(state);
        *inner = Branch::new(state);
        *basic = Step::new(state);
        scratch.multi.clear();
    }
    let multi = &mut scratch.multi;
    let mut follower = Follower {
        start: state,
        depth,
        work: 0,
        inner,
        basic,
        chains: &mut scratch.chains,
        meter,
    };
    let mut best: Option<Found> = None;
    let consider = |best: &mut Option<Found>, found: Found| {
        if best.is_none_or(|b| (found.tenths, found.nodes) < (b.tenths, b.nodes)) {
            *best = Some(found);
        }
    };
    // Bivalue cells first: their assumptions are the most likely to force much. Deeper searches
    // stop at the first size of cell that gives a chain, since they cost much more.
    'sizes: for size in 2..=n.min(MAX_ASSUMED_CANDIDATES) as u32 {
        for c in 0..n * n {
            if state.cands[c].count_ones() != size {
                continue;
            }
            for d in digits(state.cands[c]) {
                if follower.work > MAX_WORK || !follower.meter.spend(1) {
                    break 'sizes;
                }
                let found = |tenths, nodes, assumption| Found {
                    tenths,
                    nodes,
                    cell: c,
                    digit: d,
                    assumption,
                };
                follower.assume(on, c, d, true);
                if let Followed::Contradiction(contradiction) = follower.follow(on) {
                    let (nodes, family) = contradiction.grade(&on.trace);
                    let score = tenths(depth, family.contradiction(), nodes);
                    consider(&mut best, found(score, nodes, Assumption::On));
                    continue;
                }
                follower.assume(off, c, d, false);
                match follower.follow(off) {
                    Followed::Contradiction(contradiction) => {
                        let (nodes, family) = contradiction.grade(&off.trace);
                        let score = tenths(depth, family.contradiction(), nodes);
                        consider(&mut best, found(score, nodes, Assumption::Off));
                    }
                    Followed::Settled => {
                        if let Some(agreed) = agree(state, &[on, off]) {
                            let score = tenths(depth, Family::Dynamic, agreed.nodes);
                            consider(&mut best, found(score, agreed.nodes, Assumption::Both));
                        }
                    }
                }
            }
        }
        if best.is_some() && depth > Depth::Singles {
            break;
        }
    }
    // Every candidate of a cell, and every place of a digit in a unit (SE's cell and region
    // forcing chains), of three or four ways: what all ways agree on holds. (Two ways are the
    // assumption both ways above.)
    if depth == Depth::Singles {
        for c in 0..n * n {
            let k = state.cands[c].count_ones();
            if (3..=4).contains(&k) && follower.work <= MAX_WORK && follower.meter.spend(1) {
                let ways = digits(state.cands[c]).map(|d| (c, d));
                let first = (c, state.cands[c].trailing_zeros() as u8 + 1);
                if let Some(found) =
                    each_way(&mut follower, multi, first, ways, Assumption::EachCandidate)
                {
                    consider(&mut best, found);
                }
            }
        }
        for u in 0..state.tables.unit_count() {
            for d in digits(full_mask(n) & !state.placed(u)) {
                let places = state.positions(u, 1 << (d - 1));
                let k = places.count_ones();
                if (3..=4).contains(&k) && follower.work <= MAX_WORK && follower.meter.spend(1) {
                    let unit = state.tables.unit(u);
                    let ways = bits(places).map(|i| (unit[i] as usize, d));
                    let first = (unit[places.trailing_zeros() as usize] as usize, d);
                    if let Some(found) =
                        each_way(&mut follower, multi, first, ways, Assumption::EachPlace(u))
                    {
                        consider(&mut best, found);
                    }
                }
            }
        }
    }
    let Some(found) = best else {
        return false;
    };
    if follower.meter.stop().is_some() {
        return false;
    }
    // Following the chain found again gives what it gave the first time: the budget, which
    // could cut an inner search short, is not counted again.
    let mut unlimited = Meter::unlimited();
    follower.meter = &mut unlimited;
    let (c, d) = (found.cell, found.digit);
    let technique = depth.technique();
    step.begin(technique, found.tenths);
    step.cells.push(c as u16);
    step.digits = 1 << (d - 1);
    step.forcing = Some((
        found.assumption,
        found.nodes as usize,
        depth == Depth::Nested,
    ));
    if let Assumption::EachPlace(u) = found.assumption {
        step.units.push(u);
    }
    let agreed = match found.assumption {
        Assumption::On => {
            step.eliminate(c, d);
            return true;
        }
        Assumption::Off => {
            step.place(c, d);
            return true;
        }
        Assumption::Both => {
            follower.assume(on, c, d, true);
            follower.follow(on);
            follower.assume(off, c, d, false);
            follower.follow(off);
            agree(state, &[on, off])
        }
        Assumption::EachCandidate => {
            follow_each(&mut follower, multi, digits(state.cands[c]).map(|d| (c, d)));
            agree(state, &multi.iter().collect::<Vec<_>>())
        }
        Assumption::EachPlace(u) => {
            let unit = state.tables.unit(u);
            let places = state.positions(u, 1 << (d - 1));
            let ways = bits(places).map(|i| (unit[i] as usize, d));
            follow_each(&mut follower, multi, ways);
            agree(state, &multi.iter().collect::<Vec<_>>())
        }
    };
    let agreed = agreed.expect("the search found this conclusion");
    if agreed.place {
        step.place(agreed.cell, agreed.digit);
    } else {
        step.eliminate(agreed.cell, agreed.digit);
    }
    true
}

/// A forcing chain found: its score, nodes, and assumption (on a cell and digit).
#[derive(Clone, Copy, Debug)]
struct Found {
    tenths: u16,
    nodes: u32,
    cell: usize,
    digit: u8,
    assumption: Assumption,
}

/// Follows each of `ways` (a candidate assumed true) into `multi`, one branch each. A way that
/// breaks the grid stops there and keeps what it concluded: it cannot hold, so whatever the
/// other ways agree on holds (SE's region and cell chains keep such a way's implications too).
fn follow_each(
    follower: &mut Follower,
    multi: &mut Vec<Branch>,
    ways: impl Iterator<Item = (usize, u8)>,
) {
    let mut k = 0;
    for (c, d) in ways {
        if multi.len() == k {
            multi.push(Branch::new(follower.start));
        }
        let branch = &mut multi[k];
        follower.assume(branch, c, d, true);
        follower.follow(branch);
        k += 1;
    }
    multi.truncate(k);
}

/// The cheapest conclusion that all of `ways` agree on, named by its `first` way.
fn each_way(
    follower: &mut Follower,
    multi: &mut Vec<Branch>,
    (cell, digit): (usize, u8),
    ways: impl Iterator<Item = (usize, u8)>,
    assumption: Assumption,
) -> Option<Found> {
    follow_each(follower, multi, ways);
    let agreed = agree(follower.start, &multi.iter().collect::<Vec<_>>())?;
    // SE's static chains start only from cells of three candidates or more (a region's chain
    // from its first place): a region whose first place is a bivalue cell is dynamic there.
    let floor = if follower.start.cands[cell].count_ones() < 3 {
        Family::Dynamic
    } else {
        Family::Static
    };
    Some(Found {
        tenths: tenths(Depth::Singles, agreed.family.max(floor), agreed.nodes),
        nodes: agreed.nodes,
        cell,
        digit,
        assumption,
    })
}

/// What all branches of a forcing chain agree on: a digit placed (`place`) or a candidate gone,
/// with the nodes of every way's chain to it and the hardest family among them.
#[derive(Clone, Copy, Debug)]
struct Agreed {
    nodes: u32,
    family: Family,
    place: bool,
    cell: usize,
    digit: u8,
}

/// The cheapest conclusion (lowest family, then fewest nodes) that all branches reached beyond
/// `state`: a digit placed in all, or a candidate gone in all, or `None` when there is none.
/// A step concludes only that one, as SE does (each conclusion is its own hint there): the
/// others may cost more, and come at their own price in later steps.
fn agree(state: &Candidates, branches: &[&Branch]) -> Option<Agreed> {
    let n = state.tables.n;
    let mut cheapest: Option<Agreed> = None;
    let mut consider = |place: bool, cell: usize, digit: u8, event_of: &dyn Fn(&Branch) -> u16| {
        let (mut nodes, mut family) = (0, Family::Nishio);
        for branch in branches {
            let (k, f) = branch.trace.nodes(branch.trace.lineage(event_of(branch)));
            nodes += k;
            family = family.max(f);
        }
        if cheapest.is_none_or(|k| (family, nodes) < (k.family, k.nodes)) {
            cheapest = Some(Agreed {
                nodes,
                family,
                place,
                cell,
                digit,
            });
        }
    };
    for c in 0..state.values.len() {
        if state.values[c] != 0 {
            continue;
        }
        let a = branches[0].grid.values[c];
        if a != 0 && branches.iter().all(|b| b.grid.values[c] == a) {
            consider(true, c, a, &|b: &Branch| b.trace.placed_by[c]);
            continue;
        }
        // A candidate is gone in a branch when an event of that branch removed it (a branch
        // that broke the grid keeps what it concluded before: it cannot hold, so any way
        // concludes for it).
        let mut gone = state.cands[c];
        for b in branches {
            let mut traced = 0;
            for d in digits(gone) {
                if b.trace.removed_by[c * n + usize::from(d) - 1] != NO_EVENT {
                    traced |= 1 << (d - 1);
                }
            }
            gone &= traced;
        }
        for d in digits(gone) {
            let i = c * n + usize::from(d) - 1;
            consider(false, c, d, &|b: &Branch| b.trace.removed_by[i]);
        }
    }
    cheapest
}
