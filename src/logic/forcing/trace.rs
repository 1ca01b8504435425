//! The ancestry of a branch's conclusions: which event (the assumption, a single, a
//! technique's elimination) placed each digit and removed each candidate, and what each event
//! follows from. Placing and removing in a branch go through here, so that every change is
//! recorded, and a chain's nodes and family (Nishio, static, dynamic) are read back from it.
//! It is bookkeeping only, kept apart from how a branch is followed; it is exact while a
//! branch has at most 128 events (one bit each), and beyond that a chain counts every event of
//! its branch.

use crate::logic::state::{Candidates, digits};

/// The ancestry of a branch's conclusions: events (the assumption, each single, each
/// elimination of a technique) and, for each candidate gone, the event that removed it.
#[derive(Clone, Debug, Default)]
pub(super) struct Trace {
    /// `removed_by[c * n + d - 1]`: the event that removed candidate d of cell c.
    pub(super) removed_by: Vec<u16>,
    /// The event that placed each cell's digit.
    pub(super) placed_by: Vec<u16>,
    pub(super) events: Vec<Event>,
    /// Whether the ancestry fits the bitsets (at most 128 events).
    exact: bool,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Event {
    /// The events it follows from, itself excluded.
    ancestors: u128,
    /// Its nodes: an ON candidate and the OFF candidates it needed.
    nodes: u32,
    /// How it follows from the OFF candidates before it.
    pub(super) link: Link,
}

/// The kind of inference an event is, which decides the family of the chain (SE's Nishio,
/// static and dynamic forcing chains).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Link {
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

pub(super) const NO_EVENT: u16 = u16::MAX;

impl Trace {
    pub(super) fn reset(&mut self, n: usize) {
        self.removed_by.clear();
        self.removed_by.resize(n * n * n, NO_EVENT);
        self.placed_by.clear();
        self.placed_by.resize(n * n, NO_EVENT);
        self.events.clear();
        self.exact = true;
    }

    /// A new event of `nodes` nodes following from `ancestors`; its number.
    pub(super) fn event(&mut self, ancestors: u128, nodes: u32, link: Link) -> u16 {
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
    pub(super) fn lineage(&self, event: u16) -> u128 {
        if event == NO_EVENT || usize::from(event) >= 128 {
            return 0;
        }
        self.events[usize::from(event)].ancestors | 1u128 << event
    }

    /// The nodes of a set of events, and the hardest of their links.
    pub(super) fn nodes(&self, events: u128) -> (u32, Family) {
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
pub(super) enum Family {
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
    pub(super) fn contradiction(self) -> Family {
        if self == Family::Nishio {
            Family::Nishio
        } else {
            Family::Dynamic
        }
    }
}

/// Places d in c as `event`, recording what it removes.
pub(super) fn place(grid: &mut Candidates, trace: &mut Trace, c: usize, d: u8, event: u16) {
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
pub(super) fn remove(grid: &mut Candidates, trace: &mut Trace, c: usize, d: u8, event: u16) {
    let bit = 1u64 << (d - 1);
    if grid.cands[c] & bit != 0 {
        trace.removed_by[c * grid.tables.n + usize::from(d) - 1] = event;
        grid.cands[c] &= !bit;
    }
}

/// The events that removed the candidates `mask` of cell c (those present in `start`), and
/// how many.
pub(super) fn removers(start: &Candidates, trace: &Trace, c: usize, mask: u64) -> (u128, u32) {
    let n = start.tables.n;
    let (mut ancestors, mut count) = (0u128, 0);
    for e in digits(mask & start.cands[c]) {
        ancestors |= trace.lineage(trace.removed_by[c * n + usize::from(e) - 1]);
        count += 1;
    }
    (ancestors, count)
}

/// The events that removed digit d from the places of unit u other than cell `except`.
pub(super) fn unit_removers(
    start: &Candidates,
    trace: &Trace,
    u: usize,
    d: u8,
    except: usize,
) -> (u128, u32) {
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
