//! Hall's condition on the declared matchings ([`Dlx::set_matchings`](super::Dlx)), checked by
//! the learning search once nothing else propagates: the free options of each matching are a
//! bipartite graph, kept as one bitset per left item (its free options by right item), and
//! Régin's `alldiff` ([`AllDiff`]) finds whether it still has a perfect matching and which
//! options none uses.
//!
//! Each verdict comes with a *Hall set*: cells (left items) of one matching and the digits
//! (right items) their free options reach. A conflict's set has fewer digits than cells; a
//! pruned option's set has as many, its digit among them and its cell not. Either way the
//! reason is that every other option of those cells is hidden, so the conflict analysis
//! explains those hidden options, as it explains an empty item by its hidden options.

use std::sync::Arc;

use super::super::matching::{MAX_WIDTH, Matchings, NO_OPTION};
use crate::bipartite::{AllDiff, low_bits};

/// Cells of matching `group` (bits of left positions) whose free options reach only `digits`
/// (bits of right positions), found when the trail was `at` steps long.
#[derive(Clone, Copy, Debug)]
pub(super) struct HallSet {
    group: u32,
    cells: u64,
    digits: u64,
    /// The digits the group had placed already (its right items covered).
    placed: u64,
    at: u32,
}

/// The free options of every matching, the matchings changed since they were checked, and the
/// Hall sets that explain the options ruled out on the trail.
pub(super) struct Hall {
    table: Arc<Matchings>,
    /// By left item (matching by matching): its free options, as bits of right positions.
    doms: Vec<u64>,
    /// The matchings whose options changed since they were checked, and whether each is queued.
    queue: Vec<u32>,
    queued: Vec<bool>,
    alldiff: AllDiff,
    /// The Hall sets of the options ruled out on the trail, oldest first.
    reasons: Vec<HallSet>,
    /// Scratch: the open cells of the matching checked, their options, and those before.
    /// (`doms` holds those before too, but reading them back there, position by position,
    /// cost the empty 3x21 grid 2.9% more instructions in the checks than this copy.)
    positions: Vec<u8>,
    open: Vec<u64>,
    before: Vec<u64>,
}

impl Hall {
    /// The free options of `table`'s matchings, option `k` free when `free(k)`; every
    /// matching queued.
    pub(super) fn new(
        table: Arc<Matchings>,
        option_count: usize,
        free: impl Fn(u32) -> bool,
    ) -> Hall {
        let mut doms = vec![0u64; table.left_count()];
        for k in 0..option_count as u32 {
            if free(k) {
                for m in table.members(k) {
                    doms[table.left_start(m.group) + usize::from(m.left)] |= 1 << m.right;
                }
            }
        }
        let groups = table.len();
        Hall {
            doms,
            queue: (0..groups as u32).rev().collect(),
            queued: vec![true; groups],
            alldiff: AllDiff::new(MAX_WIDTH, groups),
            reasons: Vec::new(),
            positions: Vec::with_capacity(MAX_WIDTH),
            open: Vec::with_capacity(MAX_WIDTH),
            before: Vec::with_capacity(MAX_WIDTH),
            table,
        }
    }

    /// Option `k` was hidden: its matchings lose it and are queued.
    #[inline]
    pub(super) fn remove(&mut self, k: u32) {
        for m in self.table.members(k) {
            self.doms[self.table.left_start(m.group) + usize::from(m.left)] &= !(1 << m.right);
            if !self.queued[m.group as usize] {
                self.queued[m.group as usize] = true;
                self.queue.push(m.group);
            }
        }
    }

    /// Option `k` is free again. Its matchings need no check: they are back to a state that
    /// was checked, or that a later hide queues again.
    #[inline]
    pub(super) fn restore(&mut self, k: u32) {
        for m in self.table.members(k) {
            self.doms[self.table.left_start(m.group) + usize::from(m.left)] |= 1 << m.right;
        }
    }

    /// Checks the queued matchings until one fails, returning its Hall set, or rules options
    /// out: then `pruned` gets each option with the number of its Hall set, to be hidden in
    /// that order at trail position `trail_len` on. Called with no empty item, so that a
    /// cell with no free option is a covered one.
    pub(super) fn check(
        &mut self,
        trail_len: u32,
        pruned: &mut Vec<(u32, u32)>,
    ) -> Result<(), HallSet> {
        while let Some(g) = self.queue.pop() {
            self.queued[g as usize] = false;
            let start = self.table.left_start(g);
            self.positions.clear();
            self.open.clear();
            let mut missing = 0;
            for (i, &d) in self.doms[start..start + self.table.width(g)]
                .iter()
                .enumerate()
            {
                if d != 0 {
                    self.positions.push(i as u8);
                    self.open.push(d);
                    missing |= d;
                }
            }
            if self.open.is_empty() {
                continue;
            }
            self.before.clone_from(&self.open);
            let placed = low_bits(self.table.width(g)) & !missing;
            if !self
                .alldiff
                .prune(g as usize, &self.positions, &mut self.open, missing)
            {
                let (cells, digits) = self.alldiff.hall_violation();
                return Err(HallSet {
                    group: g,
                    cells: self.cells_at(cells),
                    digits,
                    placed,
                    at: trail_len,
                });
            }
            let first_reason = self.reasons.len();
            for i in 0..self.open.len() {
                let mut removed = self.before[i] & !self.open[i];
                while removed != 0 {
                    let digit = removed.trailing_zeros() as usize;
                    removed &= removed - 1;
                    let (cells, digits) = self.alldiff.filled_by(digit, self.open.len());
                    let cells = self.cells_at(cells);
                    let r = match (self.reasons[first_reason..].iter())
                        .position(|s| s.cells == cells)
                    {
                        Some(r) => first_reason + r,
                        None => {
                            self.reasons.push(HallSet {
                                group: g,
                                cells,
                                digits,
                                placed,
                                at: trail_len,
                            });
                            self.reasons.len() - 1
                        }
                    };
                    let k = self.table.option(g, self.positions[i], digit as u8);
                    debug_assert_ne!(k, NO_OPTION, "a free option joins the pair");
                    pruned.push((k, r as u32));
                }
            }
            if !pruned.is_empty() {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Bits of indices into the open cells, as bits of their positions.
    fn cells_at(&self, indices: u64) -> u64 {
        let mut cells = 0;
        let mut rest = indices;
        while rest != 0 {
            cells |= 1 << self.positions[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        cells
    }

    /// The number of Hall sets of options ruled out on the trail.
    pub(super) fn reason_count(&self) -> usize {
        self.reasons.len()
    }

    /// The Hall set of a pruned option.
    #[inline]
    pub(super) fn reason(&self, r: u32) -> HallSet {
        self.reasons[r as usize]
    }

    /// Forgets the Hall sets of options ruled out at trail position `keep` or later, after
    /// those steps were undone.
    pub(super) fn undone_to(&mut self, keep: usize) {
        while self.reasons.last().is_some_and(|s| s.at as usize >= keep) {
            self.reasons.pop();
        }
    }

    /// The reason of `set`'s verdict: every option from a cell of `set` to a digit outside
    /// it is hidden. Calls `hidden` with those options, but for the digits the group had
    /// placed: there one choice explains all, and `placed` is called with the options of
    /// each such digit (the chosen one among them, if the choice is on the trail).
    pub(super) fn reason_options(
        &self,
        set: HallSet,
        mut hidden: impl FnMut(u32),
        mut placed: impl FnMut(&mut dyn Iterator<Item = u32>),
    ) {
        let width = self.table.width(set.group);
        let outside = !set.digits & low_bits(width);
        let mut cells = set.cells;
        while cells != 0 {
            let cell = cells.trailing_zeros() as u8;
            cells &= cells - 1;
            let mut digits = outside & !set.placed;
            while digits != 0 {
                let digit = digits.trailing_zeros() as u8;
                digits &= digits - 1;
                let k = self.table.option(set.group, cell, digit);
                if k != NO_OPTION {
                    hidden(k);
                }
            }
        }
        let mut digits = outside & set.placed;
        while digits != 0 {
            let digit = digits.trailing_zeros() as u8;
            digits &= digits - 1;
            placed(
                &mut (0..width as u8)
                    .map(|cell| self.table.option(set.group, cell, digit))
                    .filter(|&k| k != NO_OPTION),
            );
        }
    }
}
