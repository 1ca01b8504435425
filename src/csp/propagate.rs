//! The inference rules: forward checking, naked singles, hidden singles, naked and hidden
//! pairs and triples (in [`super::subsets`]), generalised arc consistency of the units
//! (`alldiff`, by the matching kernel in `crate::bipartite`) and the pigeonhole check, run to a fixpoint on one state
//! block.
//!
//! Cheap rules run first and the stronger ones only when the cheap ones are stable, so a
//! stronger level never costs more than the rule itself. Naked singles go through a queue of
//! cells whose domain shrank to one digit; every cell enters it at most once (domains only
//! shrink), so the queue, allocated once per board with room for every cell, never grows.
//!
//! A unit is a group of the board (a row, a column, a box, or a variant's group). Hidden
//! singles only appear in a unit where a cell lost a candidate, so removals mark their cell's
//! units dirty (a set of unit indices, one word when there are at most 64), and the
//! hidden-singles pass looks at dirty units only. The removal loop over the peers is written
//! without branches (arithmetic on "did this peer lose the digit", 0 or 1), since whether a
//! peer holds the digit is a coin toss for the branch predictor; that loop is most of the
//! solver's time (profiled with perf and cachegrind on the forum-hardest set).
//!
//! At `alldiff` the hidden-singles pass also collects the units it looks at into a second
//! set, `stale`: the units whose domains changed since they were last made consistent. Once
//! singles are stable, only those are checked by matching. The collecting is a separate
//! instantiation of the pass, so the other levels do not pay for it.

use super::config::Propagation;
use super::domains::{CspTables, State, UNIT_WORDS, UnitSet};
use super::stats::Inferences;
use crate::bipartite::AllDiff;

/// The rule engine for one configuration, borrowing the solver's tables and buffers.
pub(crate) struct Propagator<'a> {
    pub t: &'a CspTables,
    /// Cells that became naked singles: `queue[..len]`. Room for every cell plus the peers
    /// of one more, since the branch-free loop writes a slot before deciding to keep it.
    pub queue: &'a mut [u16],
    pub len: usize,
    /// Units where a candidate was removed since they were last scanned.
    pub dirty: UnitSet,
    /// At `alldiff`: units whose domains changed since they were last made consistent.
    pub stale: UnitSet,
    /// Matching hints and scratch space for `alldiff`.
    pub alldiff: &'a mut AllDiff,
    pub inf: &'a mut Inferences,
    pub level: Propagation,
    pub pigeonhole: bool,
    /// Whether to remove locked candidates (see [`super::intersections`]).
    pub intersections: bool,
    /// With `intersections`: units whose domains changed since the last pass of locked
    /// candidates.
    pub crossed: UnitSet,
}

/// What one pass of a rule did.
pub(super) enum Pass {
    Stable,
    Changed,
    Failed,
}

impl Propagator<'_> {
    /// Assigns digit `bit` to `cell` and removes it from the peers, queueing peers left with
    /// one candidate (from `ac` on). Returns false on a contradiction.
    #[inline]
    pub fn assign(&mut self, s: &mut State, cell: usize, bit: u64) -> bool {
        if !s.is_open(cell) {
            return s.dom[cell] == bit;
        }
        if s.dom[cell] & bit == 0 {
            return false;
        }
        let t = self.t;
        s.dom[cell] = bit;
        s.open[cell >> 6] &= !(1u64 << (cell & 63));
        *s.count -= 1;
        for &u in t.units_of(cell) {
            s.placed[u as usize] |= bit;
        }
        self.mark(cell, u64::MAX);
        let queued = self.len;
        if t.has_peer_masks() {
            self.eliminate_open(s, cell, bit);
        } else if t.compact() {
            self.eliminate::<true>(s, cell, bit);
        } else {
            self.eliminate::<false>(s, cell, bit);
        }
        // Emptied peers are among the newly queued cells (usually none or one or two).
        let emptied = self.queue[queued..self.len]
            .iter()
            .any(|&p| s.dom[p as usize] == 0);
        if self.level < Propagation::ArcConsistency {
            // Forward checking assigns no singles: forget the ones just queued.
            self.len = queued;
        }
        !emptied
    }

    /// Removes `bit` from the peers of `cell`: the hot loop. Emptied peers are queued, not
    /// reported.
    /// `COMPACT` when every unit set fits in one word.
    #[inline(always)]
    fn eliminate<const COMPACT: bool>(&mut self, s: &mut State, cell: usize, bit: u64) {
        let t = self.t;
        let shift = bit.trailing_zeros();
        let mut removed = 0u64;
        let mut dirty = self.dirty;
        let mut len = self.len;
        let dom = &mut *s.dom;
        let queue = &mut *self.queue;
        // The unit sets' count is tested on the tables (a `Vec`'s length, which LLVM knows to
        // be bounded), not on the slice: the slice's test made LLVM fold the `&&` into a select
        // and allocate registers differently in `assign`, costing `eliminate_open`'s loop four
        // moves a peer (3% more instructions on the forum-hardest set, callgrind).
        assert!(dom.len() == t.cells() && t.has_unit_set_per_cell());
        assert!(queue.len() > len + t.max_peers());
        for &p in t.peers(cell) {
            let p = p as usize;
            // SAFETY: `CspTables::new`, the only writer of the tables' private fields, made
            // every peer a cell index below `t.cells()` (= dom.len() = t.unit_sets().len(),
            // checked above) and gave no cell more than `t.max_peers()` peers, so `len`, which
            // grows by at most one per peer, stays below queue.len() (checked above).
            let (dp, units, slot) = unsafe {
                (
                    dom.get_unchecked_mut(p),
                    t.unit_sets().get_unchecked(p),
                    queue.get_unchecked_mut(len),
                )
            };
            let old = *dp;
            let left = old & !bit;
            *dp = left;
            // 1 when the peer lost the digit, else 0.
            let hit = (old ^ left) >> shift;
            removed += hit;
            dirty[0] |= units[0] * hit;
            if !COMPACT {
                for w in 1..UNIT_WORDS {
                    dirty[w] |= units[w] * hit;
                }
            }
            // A peer that just lost the digit and has one left is a new naked single. One with
            // none left is queued too, and `assign` looks for it there: cheaper than a test
            // per peer.
            *slot = p as u16;
            len += (u64::from(left & left.wrapping_sub(1) == 0) & hit) as usize;
        }
        self.len = len;
        self.dirty = dirty;
        self.inf.forward_checking += removed;
    }

    /// [`Self::eliminate`] for grids of at most 256 cells: visits only the open peers, found
    /// as the set bits of (peers & open). An assigned peer never holds the digit being
    /// assigned (it would have been removed from this cell's domain when the peer was
    /// assigned), so skipping them changes nothing; once half the grid is filled this halves
    /// the work of the hot loop.
    #[inline(always)]
    fn eliminate_open(&mut self, s: &mut State, cell: usize, bit: u64) {
        let t = self.t;
        let words = t.open_words();
        let shift = bit.trailing_zeros();
        let mut removed = 0u64;
        let mut dirty = self.dirty[0];
        let mut len = self.len;
        let dom = &mut *s.dom;
        let queue = &mut *self.queue;
        let unit_sets = t.unit_sets();
        assert!(dom.len() == t.cells() && unit_sets.len() == t.cells() && t.compact());
        assert!(queue.len() > len + t.max_peers() && s.open.len() == words);
        let masks = t.peer_mask(cell);
        for (word, (&peers, &open)) in masks.iter().zip(s.open.iter()).enumerate() {
            let mut todo = peers & open;
            while todo != 0 {
                let p = word * 64 + todo.trailing_zeros() as usize;
                todo &= todo - 1;
                // SAFETY: as in `eliminate`: p is a set bit of `t.peer_mask(cell)`, which
                // `CspTables::new` set for the cell's peers only, so p < t.cells(); and
                // there are at most `t.max_peers()` such bits, so `len` grows by at most one
                // per peer from a value with room for all of them.
                let (dp, units, slot) = unsafe {
                    (
                        dom.get_unchecked_mut(p),
                        unit_sets.get_unchecked(p),
                        queue.get_unchecked_mut(len),
                    )
                };
                let old = *dp;
                let left = old & !bit;
                *dp = left;
                let hit = (old ^ left) >> shift;
                removed += hit;
                dirty |= units[0] * hit;
                *slot = p as u16;
                len += (u64::from(left & left.wrapping_sub(1) == 0) & hit) as usize;
            }
        }
        self.len = len;
        self.dirty[0] = dirty;
        self.inf.forward_checking += removed;
    }

    /// Marks the units of `cell` dirty when `mask` is all ones.
    #[inline]
    fn mark(&mut self, cell: usize, mask: u64) {
        let units = self.t.unit_set_of(cell);
        for (word, &set) in self.dirty.iter_mut().zip(units) {
            *word |= set & mask;
        }
    }

    fn push(&mut self, cell: usize) {
        self.queue[self.len] = cell as u16;
        self.len += 1;
    }

    /// Narrows `cell` to `keep`, queueing it if one digit is left. False if none is left.
    #[inline]
    pub(super) fn restrict(&mut self, s: &mut State, cell: usize, keep: u64) -> bool {
        let left = s.dom[cell] & keep;
        if left == s.dom[cell] {
            return true;
        }
        self.mark(cell, u64::MAX);
        s.dom[cell] = left;
        if left == 0 {
            return false;
        }
        // Only a cell that just became a single is queued, so it is queued once.
        if left & (left - 1) == 0 {
            self.push(cell);
        }
        true
    }

    /// Assigns the queued naked singles until the queue is empty.
    fn drain(&mut self, s: &mut State) -> bool {
        while self.len > 0 {
            self.len -= 1;
            let cell = self.queue[self.len] as usize;
            let bit = s.dom[cell];
            if bit == 0 {
                return false;
            }
            if s.is_open(cell) {
                self.inf.naked_singles += 1;
                if !self.assign(s, cell, bit) {
                    return false;
                }
            }
        }
        true
    }

    /// Assigns `bit` to `cell` (a decision or a given) and propagates to a fixpoint.
    pub fn decide(&mut self, s: &mut State, cell: usize, bit: u64) -> bool {
        self.len = 0;
        self.dirty = UnitSet::default();
        self.stale = UnitSet::default();
        self.crossed = UnitSet::default();
        self.assign(s, cell, bit) && self.propagate(s)
    }

    /// Assigns the givens of a puzzle (`cells`, 0 = empty) to the empty grid in `s`, takes
    /// the `excluded` digits out of their cells, and propagates to a fixpoint.
    pub fn root(&mut self, s: &mut State, cells: &[u8], excluded: &[(usize, u8)]) -> bool {
        self.len = 0;
        self.dirty = self.t.all_units();
        self.stale = UnitSet::default();
        self.crossed = UnitSet::default();
        cells
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d != 0)
            .all(|(cell, &d)| self.assign(s, cell, 1 << (d - 1)))
            // A cell already set to its excluded digit is left empty: a contradiction.
            && (excluded.iter()).all(|&(cell, d)| self.restrict(s, cell, !(1 << (d - 1))))
            && self.propagate(s)
    }

    /// Runs every rule of the level to a fixpoint, then the pigeonhole check; on a board with
    /// killer cages, their sums too (see [`super::cages`]).
    #[inline]
    pub fn propagate(&mut self, s: &mut State) -> bool {
        if self.t.cage_count() != 0 {
            return self.propagate_with_cages(s);
        }
        self.propagate_groups(s)
    }

    /// [`Self::propagate`] without the cages: the groups' rules.
    pub(super) fn propagate_groups(&mut self, s: &mut State) -> bool {
        if self.level >= Propagation::AllDiff {
            return self.propagate_all_different(s);
        }
        if !self.drain(s) {
            return false;
        }
        if self.level >= Propagation::HiddenSingles {
            loop {
                let pass = if self.intersections {
                    self.hidden_singles::<true>(s)
                } else {
                    self.hidden_singles::<false>(s)
                };
                match pass {
                    Pass::Failed => return false,
                    Pass::Changed => continue,
                    Pass::Stable => {}
                }
                if self.level >= Propagation::Pairs {
                    match self.subsets(s) {
                        Pass::Failed => return false,
                        Pass::Changed => {
                            if !self.drain(s) {
                                return false;
                            }
                            continue;
                        }
                        Pass::Stable => {}
                    }
                }
                match self.locked_candidates(s) {
                    Pass::Failed => return false,
                    Pass::Changed => continue,
                    Pass::Stable => break,
                }
            }
        }
        self.check_pigeonhole(s)
    }

    /// [`Self::propagate`] at `alldiff`: singles, then locked candidates when asked for, then
    /// matching on the stale units, each only when the ones before are stable, until stable.
    /// Pairs and triples are not run, as matching subsumes them. A function of its own, so that the loop of the other levels does not pay for this level: sharing it cost
    /// the default level 1.3% of its instructions (callgrind on `quadrille solve --engine csp
    /// -j1 --limit 2` over the forum-hardest puzzles).
    #[inline(never)]
    fn propagate_all_different(&mut self, s: &mut State) -> bool {
        if !self.drain(s) {
            return false;
        }
        loop {
            match self.hidden_singles::<true>(s) {
                Pass::Failed => return false,
                Pass::Changed => continue,
                Pass::Stable => {}
            }
            match self.locked_candidates(s) {
                Pass::Failed => return false,
                Pass::Changed => continue,
                Pass::Stable => {}
            }
            match self.all_different(s) {
                Pass::Failed => return false,
                Pass::Changed => {
                    if !self.drain(s) {
                        return false;
                    }
                }
                Pass::Stable => break,
            }
        }
        self.check_pigeonhole(s)
    }

    /// Locked candidates when the configuration asks for them (see [`super::intersections`]),
    /// and the naked singles they leave: `Changed` means the singles must be looked at again.
    #[inline]
    fn locked_candidates(&mut self, s: &mut State) -> Pass {
        if !self.intersections {
            return Pass::Stable;
        }
        match self.intersections(s) {
            Pass::Changed if !self.drain(s) => Pass::Failed,
            pass => pass,
        }
    }

    /// The pigeonhole check when the configuration asks for it, counting its dead ends.
    #[inline]
    fn check_pigeonhole(&mut self, s: &State) -> bool {
        if self.pigeonhole && !self.pigeonhole_check(s) {
            self.inf.pigeonhole += 1;
            return false;
        }
        true
    }

    /// One pass over the dirty units: a digit with no place fails, a digit with one place (not
    /// yet placed) is assigned there at once. `STALE`: also add each unit looked at to
    /// `stale`, for `alldiff`, and to `crossed`, for locked candidates.
    fn hidden_singles<const STALE: bool>(&mut self, s: &mut State) -> Pass {
        let mut changed = false;
        for word in 0..UNIT_WORDS {
            while self.dirty[word] != 0 {
                let i = self.dirty[word].trailing_zeros() as usize;
                if STALE {
                    let unit = self.dirty[word] & self.dirty[word].wrapping_neg();
                    self.stale[word] |= unit;
                    self.crossed[word] |= unit;
                }
                self.dirty[word] &= self.dirty[word] - 1;
                match self.hidden_single_in(s, word * 64 + i) {
                    Pass::Failed => return Pass::Failed,
                    Pass::Changed => changed = true,
                    Pass::Stable => {}
                }
            }
        }
        if changed { Pass::Changed } else { Pass::Stable }
    }

    /// Hidden singles in unit `u`. Inlined by force: with two instantiations of the pass the
    /// compiler stopped inlining it, which cost the default level 2.5% of its instructions.
    #[inline(always)]
    fn hidden_single_in(&mut self, s: &mut State, u: usize) -> Pass {
        let t = self.t;
        let mut changed = false;
        if s.placed[u] == t.full() {
            return Pass::Stable;
        }
        {
            let unit = t.unit(u);
            let (mut once, mut twice) = (0u64, 0u64);
            for &c in unit {
                let d = s.dom[c as usize];
                twice |= once & d;
                once |= d;
            }
            if once != t.full() {
                return Pass::Failed;
            }
            let mut singles = once & !twice & !s.placed[u];
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                // Earlier assignments in this pass may have taken the place: then none is left.
                let Some(&cell) = unit.iter().find(|&&c| s.dom[c as usize] & bit != 0) else {
                    return Pass::Failed;
                };
                self.inf.hidden_singles += 1;
                if !self.assign(s, cell as usize, bit) || !self.drain(s) {
                    return Pass::Failed;
                }
                changed = true;
            }
        }
        if changed { Pass::Changed } else { Pass::Stable }
    }

    /// Makes every stale unit generalised-arc-consistent (see `crate::bipartite`), removing
    /// the candidates no perfect matching of the unit uses.
    fn all_different(&mut self, s: &mut State) -> Pass {
        let t = self.t;
        let mut changed = false;
        let mut doms = [0u64; 64];
        let mut cells = [0u16; 64];
        let mut positions = [0u8; 64];
        for word in 0..UNIT_WORDS {
            while self.stale[word] != 0 {
                let u = word * 64 + self.stale[word].trailing_zeros() as usize;
                self.stale[word] &= self.stale[word] - 1;
                let missing = t.full() & !s.placed[u];
                if missing.count_ones() <= 2 {
                    // Two open cells or fewer: once singles are stable both cells hold both
                    // digits (or the unit is done), and both matchings exist.
                    continue;
                }
                let mut m = 0;
                for (at, &c) in t.unit(u).iter().enumerate() {
                    if s.is_open(c as usize) {
                        doms[m] = s.dom[c as usize] & missing;
                        cells[m] = c;
                        positions[m] = at as u8;
                        m += 1;
                    }
                }
                if !self
                    .alldiff
                    .prune(u, &positions[..m], &mut doms[..m], missing)
                {
                    return Pass::Failed;
                }
                let mut unit_changed = false;
                for (&c, &keep) in cells[..m].iter().zip(&doms[..m]) {
                    let c = c as usize;
                    let removed = s.dom[c] & !keep;
                    if removed != 0 {
                        self.inf.alldiff += u64::from(removed.count_ones());
                        unit_changed = true;
                        if !self.restrict(s, c, keep) {
                            return Pass::Failed;
                        }
                    }
                }
                // The unit is consistent now, whatever its own removals marked; locked
                // candidates, which see it only through the singles pass, must look again.
                self.dirty[word] &= !(1 << (u % 64));
                if unit_changed {
                    self.crossed[word] |= 1 << (u % 64);
                    changed = true;
                }
            }
        }
        if changed { Pass::Changed } else { Pass::Stable }
    }

    /// The all-different pigeonhole check, per unit: the open cells' candidates must cover
    /// the unit's missing digits, and no open cell's candidate set D may contain the whole
    /// domain of more than |D| open cells (Hall's condition for the sets that occur as a
    /// cell's domain).
    fn pigeonhole_check(&mut self, s: &State) -> bool {
        let t = self.t;
        let mut doms = [0u64; 64];
        for u in 0..t.unit_count() {
            let missing = t.full() & !s.placed[u];
            if missing == 0 {
                continue;
            }
            let mut m = 0;
            let mut union = 0;
            for &c in t.unit(u) {
                let c = c as usize;
                if s.is_open(c) {
                    doms[m] = s.dom[c];
                    union |= s.dom[c];
                    m += 1;
                }
            }
            if union & missing != missing || (union.count_ones() as usize) < m {
                return false;
            }
            for &d in &doms[..m] {
                let size = d.count_ones() as usize;
                if size < m {
                    let inside = doms[..m].iter().filter(|&&e| e & !d == 0).count();
                    if inside > size {
                        return false;
                    }
                }
            }
        }
        true
    }
}
