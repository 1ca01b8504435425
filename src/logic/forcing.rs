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

use super::chains::{self, ChainScratch};
use super::state::{Candidates, bits, digits, full_mask};
use super::step::{Assumption, Step};
use super::technique::{Technique, length_bonus};
use super::{fish, intersections, subsets};

/// The most candidates of a cell whose candidates the search assumes: every cell of a 9x9 grid,
/// and on larger grids the cells that are already narrowed down. Without this bound a nearly
/// empty 36x36 grid tried all 46,656 assumptions at every step (4 minutes for one puzzle)
/// before it guessed; with it, such a grid goes to a guess at once.
const MAX_ASSUMED_CANDIDATES: usize = 9;

/// The most work (cells and units looked at while following) one search for a forcing chain
/// may do before it settles for what it found: far above what a 9x9 grid needs at the depth of
/// singles (at most about 5 million), so that only large, open grids and the deepest searches
/// are cut short, and then go to the next depth or a guess.
const MAX_WORK: u64 = 50_000_000;

/// The nodes a step of the basic techniques stands for inside a chain (SE counts the pattern's
/// candidates; a pair or an X-wing has about four).
const BASIC_NODES: u32 = 4;

/// How far an assumption is followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Depth {
    /// Naked and hidden singles.
    Singles,
    /// Singles, then pointing, claiming, naked and hidden pairs and X-wings.
    Basic,
    /// All that, then an X-chain or AIC inside the chain (SE's nested chains of level 2,
    /// 9.5 and up).
    Chains,
    /// All that, then contradictions of bivalue cells by singles: a dynamic forcing chain in
    /// the chain (SE's nested chains of level 4, 10.5 and up).
    Nested,
}

impl Depth {
    fn technique(self) -> Technique {
        match self {
            Depth::Singles => Technique::ForcingChain,
            Depth::Basic => Technique::ForcingChainPlus,
            Depth::Chains | Depth::Nested => Technique::NestedForcingChain,
        }
    }

    /// The base score of a chain of this depth, in tenths (for the singles, that of the
    /// dynamic family).
    fn base_tenths(self) -> u16 {
        match self {
            Depth::Nested => 105,
            _ => self.technique().base_tenths(),
        }
    }
}

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

/// One way of an assumption: a copy of the grid, and where each conclusion came from.
#[derive(Clone, Debug)]
struct Branch {
    grid: Candidates,
    trace: Trace,
}

impl Branch {
    fn new(state: &Candidates) -> Branch {
        Branch {
            grid: state.clone(),
            trace: Trace::default(),
        }
    }
}

/// The ancestry of a branch's conclusions: events (the assumption, each single, each
/// elimination of a technique) and, for each candidate gone, the event that removed it.
#[derive(Clone, Debug, Default)]
struct Trace {
    /// `removed_by[c * n + d - 1]`: the event that removed candidate d of cell c.
    removed_by: Vec<u16>,
    /// The event that placed each cell's digit.
    placed_by: Vec<u16>,
    events: Vec<Event>,
    /// Whether the ancestry fits the bitsets (at most 128 events).
    exact: bool,
}

#[derive(Clone, Copy, Debug)]
struct Event {
    /// The events it follows from, itself excluded.
    ancestors: u128,
    /// Its nodes: an ON candidate and the OFF candidates it needed.
    nodes: u32,
    /// How it follows from the OFF candidates before it.
    link: Link,
}

/// The kind of inference an event is, which decides the family of the chain (SE's Nishio,
/// static and dynamic forcing chains).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    /// The assumption, or a hidden single of the assumption's digit: a link of one digit, as
    /// in a Nishio chain (which SE follows dynamically). `true` when the single needed more
    /// than one OFF candidate, so that a chain with other links is dynamic for it.
    OneDigit(u8, bool),
    /// A single that needed one OFF candidate (a bivalue cell, or a unit with two places, at
    /// the start): a static link.
    Static,
    /// A single that needed more: only a dynamic chain (one that updates the grid) makes it.
    Dynamic,
}

const NO_EVENT: u16 = u16::MAX;

impl Trace {
    fn reset(&mut self, n: usize) {
        self.removed_by.clear();
        self.removed_by.resize(n * n * n, NO_EVENT);
        self.placed_by.clear();
        self.placed_by.resize(n * n, NO_EVENT);
        self.events.clear();
        self.exact = true;
    }

    /// A new event of `nodes` nodes following from `ancestors`; its number.
    fn event(&mut self, ancestors: u128, nodes: u32, link: Link) -> u16 {
        let i = self.events.len();
        if i >= 128 {
            self.exact = false;
        }
        self.events.push(Event {
            ancestors,
            nodes,
            link,
        });
        i.min(usize::from(NO_EVENT) - 1) as u16
    }

    /// The event and its ancestors, as a set.
    fn lineage(&self, event: u16) -> u128 {
        if event == NO_EVENT || usize::from(event) >= 128 {
            return 0;
        }
        self.events[usize::from(event)].ancestors | 1u128 << event
    }

    /// The nodes of a set of events, and the hardest of their links.
    fn nodes(&self, events: u128) -> (u32, Family) {
        if !self.exact {
            return (self.events.iter().map(|e| e.nodes).sum(), Family::Dynamic);
        }
        let (mut total, mut one_digit, mut family) = (0, true, Family::Static);
        let mut rest = events;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let event = &self.events[i];
            total += event.nodes;
            match event.link {
                Link::OneDigit(_, false) => {}
                Link::OneDigit(_, true) | Link::Dynamic => family = Family::Dynamic,
                Link::Static => one_digit = false,
            }
            one_digit &= matches!(event.link, Link::OneDigit(..));
        }
        // Links of the assumption's digit alone make a Nishio chain, however dynamic.
        (total, if one_digit { Family::Nishio } else { family })
    }
}

/// The family of a forcing chain on SE's scale, by the hardest link it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Family {
    /// Links of the assumption's digit only, to a contradiction: SE's Nishio (7.5).
    Nishio,
    /// Links already in the grid, bivalue cells and units of two places: SE's (static)
    /// multiple forcing chains (8.0).
    Static,
    /// Singles that only the updated grid gives: SE's dynamic forcing chains (8.5).
    Dynamic,
}

impl Family {
    /// The family of a chain to a contradiction: SE finds those in its Nishio chains (one
    /// digit) and its dynamic ones, never among its static multiple chains.
    fn contradiction(self) -> Family {
        if self == Family::Nishio {
            Family::Nishio
        } else {
            Family::Dynamic
        }
    }
}

/// A contradiction in a branch: the events it follows from, the OFF candidates it needs
/// itself (a cell's candidates, or a digit's places in a unit, all gone), and the family those
/// make it at least.
#[derive(Clone, Copy, Debug)]
struct Conclusion {
    lineage: u128,
    offs: u32,
    floor: Family,
}

impl Conclusion {
    /// Its nodes and family in `trace`.
    fn grade(self, trace: &Trace) -> (u32, Family) {
        let (nodes, family) = trace.nodes(self.lineage);
        (nodes + self.offs, family.max(self.floor))
    }
}

/// What following an assumption gave.
enum Followed {
    /// The grid broke.
    Contradiction(Conclusion),
    /// A fixpoint.
    Settled,
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
/// something.
pub(crate) fn forcing_chain(
    state: &Candidates,
    step: &mut Step,
    scratch: &mut ForcingScratch,
    depth: Depth,
) -> bool {
    let n = state.tables.n;
    let on = scratch.on.get_or_insert_with(|| Branch::new(state));
    let off = scratch.off.get_or_insert_with(|| Branch::new(state));
    let inner = scratch.inner.get_or_insert_with(|| Branch::new(state));
    let basic = scratch
        .basic
        .get_or_insert_with(|| Step::new(state.shape()));
    if on.grid.shape() != state.shape() {
        *on = Branch::new(state);
        *off = Branch::new(state);
        *inner = Branch::new(state);
        *basic = Step::new(state.shape());
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
                if follower.work > MAX_WORK {
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
            if (3..=4).contains(&k) && follower.work <= MAX_WORK {
                let ways = digits(state.cands[c]).map(|d| (c, d));
                let first = (c, state.cands[c].trailing_zeros() as u8 + 1);
                if let Some(found) =
                    each_way(&mut follower, multi, first, ways, Assumption::EachCandidate)
                {
                    consider(&mut best, found);
                }
            }
        }
        for u in 0..3 * n {
            for d in digits(full_mask(n) & !state.placed(u)) {
                let places = state.positions(u, 1 << (d - 1));
                let k = places.count_ones();
                if (3..=4).contains(&k) && follower.work <= MAX_WORK {
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

/// Follows assumptions from one grid at one depth, counting its work.
struct Follower<'a> {
    start: &'a Candidates,
    depth: Depth,
    work: u64,
    inner: &'a mut Branch,
    basic: &'a mut Step,
    chains: &'a mut ChainScratch,
}

impl Follower<'_> {
    /// Sets `branch` to the start grid with (c, d) assumed true (placed) or false (removed).
    fn assume(&self, branch: &mut Branch, c: usize, d: u8, on: bool) {
        assume_in(self.start, branch, c, d, on);
    }

    /// Follows `branch` at this follower's depth.
    fn follow(&mut self, branch: &mut Branch) -> Followed {
        loop {
            if let Some(result) = singles(self.start, branch, &mut self.work) {
                return result;
            }
            let Branch { grid, trace } = branch;
            if self.depth >= Depth::Basic && basic_step(grid, self.basic) {
                self.work += (4 * grid.tables.n * grid.tables.n) as u64;
                let event = trace.event(0, BASIC_NODES, Link::Dynamic);
                for &(c, d) in &self.basic.eliminations {
                    remove(grid, trace, usize::from(c), d, event);
                }
                continue;
            }
            if self.depth >= Depth::Chains && {
                let found = chains::chain(grid, self.basic, self.chains, false);
                // An inner chain's search costs the literals it reached, found or not.
                self.work += self.chains.reached as u64;
                found
            } {
                let nodes = self.basic.chain.len() as u32;
                let event = trace.event(0, nodes, Link::Dynamic);
                for &(c, d) in &self.basic.placements {
                    let others = grid.cands[usize::from(c)] & !(1 << (d - 1));
                    for e in digits(others) {
                        remove(grid, trace, usize::from(c), e, event);
                    }
                }
                for &(c, d) in &self.basic.eliminations {
                    remove(grid, trace, usize::from(c), d, event);
                }
                continue;
            }
            if self.depth >= Depth::Nested
                && let Some((c, d, nodes)) = inner_contradiction(grid, self.inner, &mut self.work)
            {
                let event = trace.event(0, nodes, Link::Dynamic);
                remove(grid, trace, c, d, event);
                continue;
            }
            return Followed::Settled;
        }
    }
}

/// Sets `branch` to `start` with (c, d) placed (`on`) or removed, as the trace's first event.
fn assume_in(start: &Candidates, branch: &mut Branch, c: usize, d: u8, on: bool) {
    let n = start.tables.n;
    branch.grid.clone_from(start);
    branch.trace.reset(n);
    let root = branch.trace.event(0, 1, Link::OneDigit(d, false));
    if on {
        place(&mut branch.grid, &mut branch.trace, c, d, root);
    } else {
        remove(&mut branch.grid, &mut branch.trace, c, d, root);
    }
}

/// The first of the basic techniques that applies to `grid`, into `step`.
fn basic_step(grid: &Candidates, step: &mut Step) -> bool {
    intersections::pointing(grid, step, false)
        || intersections::claiming(grid, step, false)
        || subsets::naked(grid, step, 2)
        || subsets::hidden(grid, step, 2, false)
        || fish::fish(grid, step, 2)
}

/// A candidate of a bivalue cell of `grid` whose singles break the grid: the candidate and the
/// nodes of its chain.
fn inner_contradiction(
    grid: &Candidates,
    inner: &mut Branch,
    work: &mut u64,
) -> Option<(usize, u8, u32)> {
    let n = grid.tables.n;
    for c in 0..n * n {
        if grid.cands[c].count_ones() != 2 {
            continue;
        }
        for d in digits(grid.cands[c]) {
            assume_in(grid, inner, c, d, true);
            if let Some(Followed::Contradiction(found)) = singles(grid, inner, work) {
                return Some((c, d, found.grade(&inner.trace).0));
            }
        }
    }
    None
}

/// Places d in c as `event`, recording what it removes.
fn place(grid: &mut Candidates, trace: &mut Trace, c: usize, d: u8, event: u16) {
    let n = grid.tables.n;
    let bit = 1u64 << (d - 1);
    for e in digits(grid.cands[c] & !bit) {
        trace.removed_by[c * n + usize::from(e) - 1] = event;
    }
    for &p in grid.tables.peers(c) {
        let p = p as usize;
        if grid.cands[p] & bit != 0 {
            trace.removed_by[p * n + usize::from(d) - 1] = event;
        }
    }
    trace.placed_by[c] = event;
    grid.place(c, d);
}

/// Removes candidate d of c as `event`.
fn remove(grid: &mut Candidates, trace: &mut Trace, c: usize, d: u8, event: u16) {
    let bit = 1u64 << (d - 1);
    if grid.cands[c] & bit != 0 {
        trace.removed_by[c * grid.tables.n + usize::from(d) - 1] = event;
        grid.cands[c] &= !bit;
    }
}

/// The events that removed the candidates `mask` of cell c (those present in `start`), and
/// how many.
fn removers(start: &Candidates, trace: &Trace, c: usize, mask: u64) -> (u128, u32) {
    let n = start.tables.n;
    let (mut ancestors, mut count) = (0u128, 0);
    for e in digits(mask & start.cands[c]) {
        ancestors |= trace.lineage(trace.removed_by[c * n + usize::from(e) - 1]);
        count += 1;
    }
    (ancestors, count)
}

/// The events that removed digit d from the places of unit u other than cell `except`.
fn unit_removers(start: &Candidates, trace: &Trace, u: usize, d: u8, except: usize) -> (u128, u32) {
    let (mut ancestors, mut count) = (0u128, 0);
    for &p in start.tables.unit(u) {
        let p = p as usize;
        if p != except {
            let (a, k) = removers(start, trace, p, 1 << (d - 1));
            ancestors |= a;
            count += k;
        }
    }
    (ancestors, count)
}

/// Follows naked and hidden singles in `branch` to a fixpoint (`None`), or until the grid
/// breaks. `start` is the grid before the assumption: the candidates that the chain's OFF
/// nodes are counted among.
fn singles(start: &Candidates, branch: &mut Branch, work: &mut u64) -> Option<Followed> {
    let Branch { grid, trace } = branch;
    let t = grid.tables;
    let n = t.n;
    let full = full_mask(n);
    let Link::OneDigit(root, _) = trace.events[0].link else {
        unreachable!("a branch starts with its assumption")
    };
    // Static links first (singles that the grid at the start already links), then, when none
    // is left, one round of dynamic ones: the conclusions then come by the most static way,
    // as SE's static chains find them before its dynamic ones.
    let mut dynamic = false;
    loop {
        *work += (n * n + 3 * n * n) as u64;
        let mut progress = false;
        for c in 0..n * n {
            if grid.values[c] != 0 {
                continue;
            }
            match grid.cands[c].count_ones() {
                0 => {
                    let (lineage, offs) = removers(start, trace, c, full);
                    return Some(Followed::Contradiction(Conclusion {
                        lineage,
                        offs,
                        floor: if offs > 2 {
                            Family::Dynamic
                        } else {
                            Family::Static
                        },
                    }));
                }
                1 => {
                    let d = grid.cands[c].trailing_zeros() as u8 + 1;
                    let (ancestors, offs) = removers(start, trace, c, full & !(1 << (d - 1)));
                    let link = if offs > 1 {
                        Link::Dynamic
                    } else {
                        Link::Static
                    };
                    if link == Link::Dynamic && !dynamic {
                        continue;
                    }
                    let event = trace.event(ancestors, 1 + offs, link);
                    place(grid, trace, c, d, event);
                    progress = true;
                }
                _ => {}
            }
        }
        for u in 0..3 * n {
            let (mut once, mut twice, mut placed) = (0u64, 0u64, 0u64);
            for &c in t.unit(u) {
                let c = c as usize;
                let cands = grid.cands[c];
                twice |= once & cands;
                once |= cands;
                if grid.values[c] != 0 {
                    let bit = 1u64 << (grid.values[c] - 1);
                    if placed & bit != 0 {
                        let all = trace.events.len().min(128);
                        let every = if all == 128 {
                            u128::MAX
                        } else {
                            (1u128 << all) - 1
                        };
                        return Some(Followed::Contradiction(Conclusion {
                            lineage: every,
                            offs: 0,
                            floor: Family::Dynamic,
                        }));
                    }
                    placed |= bit;
                }
            }
            let missing = full & !(once | placed);
            if missing != 0 {
                let d = missing.trailing_zeros() as u8 + 1;
                let (lineage, offs) = unit_removers(start, trace, u, d, usize::MAX);
                let floor = if d == root {
                    Family::Nishio
                } else if offs > 2 {
                    Family::Dynamic
                } else {
                    Family::Static
                };
                return Some(Followed::Contradiction(Conclusion {
                    lineage,
                    offs,
                    floor,
                }));
            }
            let single = once & !twice & !placed;
            for d in digits(single) {
                let bit = 1u64 << (d - 1);
                let c = *t
                    .unit(u)
                    .iter()
                    .find(|&&c| grid.cands[c as usize] & bit != 0)
                    .expect("a place") as usize;
                let (ancestors, offs) = unit_removers(start, trace, u, d, c);
                let link = if d == root {
                    Link::OneDigit(d, offs > 1)
                } else if offs > 1 {
                    Link::Dynamic
                } else {
                    Link::Static
                };
                if link == Link::Dynamic && !dynamic {
                    continue;
                }
                let event = trace.event(ancestors, 1 + offs, link);
                place(grid, trace, c, d, event);
                progress = true;
                break;
            }
        }
        if progress {
            dynamic = false;
        } else if dynamic {
            return None;
        } else {
            dynamic = true;
        }
    }
}
