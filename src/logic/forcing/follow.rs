//! Following one assumption: a copy of the grid with the candidate placed or removed, taken
//! to a fixpoint by naked and hidden singles and, at the deeper [`Depth`]s, by the basic
//! techniques, chains and forcing chains inside the chain. It is the inner loop of every
//! forcing search and knows nothing of which assumptions are tried or how they are scored,
//! which the search in the parent module decides.

use super::trace::{Family, Link, Trace, place, remove, removers, unit_removers};
use crate::logic::chains::{self, ChainScratch};
use crate::logic::meter::Meter;
use crate::logic::state::{Candidates, digits, full_mask};
use crate::logic::step::Step;
use crate::logic::technique::Technique;
use crate::logic::{fish, intersections, subsets};

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
    pub(super) fn technique(self) -> Technique {
        match self {
            Depth::Singles => Technique::ForcingChain,
            Depth::Basic => Technique::ForcingChainPlus,
            Depth::Chains | Depth::Nested => Technique::NestedForcingChain,
        }
    }

    /// The base score of a chain of this depth, in tenths (for the singles, that of the
    /// dynamic family).
    pub(super) fn base_tenths(self) -> u16 {
        match self {
            Depth::Nested => 105,
            _ => self.technique().base_tenths(),
        }
    }
}

/// One way of an assumption: a copy of the grid, and where each conclusion came from.
#[derive(Clone, Debug)]
pub(super) struct Branch {
    pub(super) grid: Candidates,
    pub(super) trace: Trace,
}

impl Branch {
    pub(super) fn new(state: &Candidates) -> Branch {
        Branch {
            grid: state.clone(),
            trace: Trace::default(),
        }
    }
}

/// A contradiction in a branch: the events it follows from, the OFF candidates it needs
/// itself (a cell's candidates, or a digit's places in a unit, all gone), and the family those
/// make it at least.
#[derive(Clone, Copy, Debug)]
pub(super) struct Conclusion {
    lineage: u128,
    offs: u32,
    floor: Family,
}

impl Conclusion {
    /// Its nodes and family in `trace`.
    pub(super) fn grade(self, trace: &Trace) -> (u32, Family) {
        let (nodes, family) = trace.nodes(self.lineage);
        (nodes + self.offs, family.max(self.floor))
    }
}

/// What following an assumption gave.
pub(super) enum Followed {
    /// The grid broke.
    Contradiction(Conclusion),
    /// A fixpoint.
    Settled,
}

/// Follows assumptions from one grid at one depth, counting its work.
pub(super) struct Follower<'a> {
    pub(super) start: &'a Candidates,
    pub(super) depth: Depth,
    pub(super) work: u64,
    pub(super) inner: &'a mut Branch,
    pub(super) basic: &'a mut Step,
    pub(super) chains: &'a mut ChainScratch,
    /// The budget: each inner assumption and chain start is a node.
    pub(super) meter: &'a mut Meter,
}

impl Follower<'_> {
    /// Sets `branch` to the start grid with (c, d) assumed true (placed) or false (removed).
    pub(super) fn assume(&self, branch: &mut Branch, c: usize, d: u8, on: bool) {
        assume_in(self.start, branch, c, d, on);
    }

    /// Follows `branch` at this follower's depth.
    pub(super) fn follow(&mut self, branch: &mut Branch) -> Followed {
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
                let found = chains::chain(
                    grid,
                    self.basic,
                    self.chains,
                    chains::Links::Any,
                    usize::MAX,
                    self.meter,
                )
                .is_some();
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
                && let Some((c, d, nodes)) =
                    inner_contradiction(grid, self.inner, &mut self.work, self.meter)
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
    meter: &mut Meter,
) -> Option<(usize, u8, u32)> {
    let n = grid.tables.n;
    for c in 0..n * n {
        if grid.cands[c].count_ones() != 2 {
            continue;
        }
        for d in digits(grid.cands[c]) {
            if !meter.spend(1) {
                return None;
            }
            assume_in(grid, inner, c, d, true);
            if let Some(Followed::Contradiction(found)) = singles(grid, inner, work) {
                return Some((c, d, found.grade(&inner.trace).0));
            }
        }
    }
    None
}

/// Follows naked and hidden singles in `branch` to a fixpoint (`None`), or until the grid
/// breaks. `start` is the grid before the assumption: the candidates that the chain's OFF
/// nodes are counted among.
fn singles(start: &Candidates, branch: &mut Branch, work: &mut u64) -> Option<Followed> {
    let Branch { grid, trace } = branch;
    // The grid changes as singles are placed; its tables do not.
    let tables = std::sync::Arc::clone(&grid.tables);
    let t = &*tables;
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
        *work += (n * n + t.unit_count() * n) as u64;
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
        for u in 0..t.unit_count() {
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
