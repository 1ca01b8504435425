//! Killer cages in the CSP: the digits of a cage are all different and add up to its sum.
//!
//! All-different comes free: a cell's cage-mates are among its peers (see
//! [`CspTables`](super::domains::CspTables)), so an assignment removes its digit from them as from
//! the rest of its units. The sum is kept by the cage's *digit sets*, the sets of different
//! digits of the cage's size that add up to its sum ([`crate::board::Cage::digit_sets`]),
//! precomputed per board: a set is still possible when it holds every digit placed in the
//! cage, and the digits it still needs can go to the open cells (each needed digit is some open
//! cell's candidate, and each open cell has a needed digit). The open cells keep only the
//! digits some possible set still needs; no possible set is a dead end. This is stronger than
//! bounds on the sum (a cage of 2 cells adding up to 10 drops the 5, which bounds keep) and, a
//! 9x9 cage having at most 12 sets, cheap.
//!
//! Cages are checked after the groups' rules are stable, and everything runs again while they
//! remove candidates. Boards without cages never come here: [`Propagator::propagate`] looks
//! at the cage count once and goes straight to the groups' rules.

use super::domains::State;
use super::propagate::{Pass, Propagator};

impl Propagator<'_> {
    /// The groups' rules and the cages' sums, run to a common fixpoint. Not inlined, so that
    /// boards without cages run the groups' rules as compiled before cages existed.
    #[inline(never)]
    pub(super) fn propagate_with_cages(&mut self, s: &mut State) -> bool {
        loop {
            if !self.propagate_groups(s) {
                return false;
            }
            match self.cage_sums(s) {
                Pass::Failed => return false,
                Pass::Changed => continue,
                Pass::Stable => return true,
            }
        }
    }

    /// One pass over every cage: fails if a cage has no possible digit set left, and narrows
    /// its open cells to the digits the possible sets still need.
    fn cage_sums(&mut self, s: &mut State) -> Pass {
        let t = self.t;
        let mut changed = false;
        for i in 0..t.cage_count() {
            let (mut placed, mut union, mut open) = (0u64, 0u64, 0usize);
            let mut doms = [0u64; 64];
            for &c in t.cage(i) {
                let c = c as usize;
                if s.is_open(c) {
                    doms[open] = s.dom[c];
                    union |= s.dom[c];
                    open += 1;
                } else {
                    placed |= s.dom[c];
                }
            }
            let doms = &doms[..open];
            let mut possible = false;
            let mut needed = 0u64;
            for &set in t.digit_sets(i) {
                let need = set & !placed;
                // Placed digits are different (cage-mates are peers), so a set that holds
                // them all needs exactly one digit per open cell.
                if placed & !set == 0 && union & need == need && doms.iter().all(|&d| d & need != 0)
                {
                    possible = true;
                    needed |= need;
                }
            }
            if !possible {
                return Pass::Failed;
            }
            if open == 0 || union & !needed == 0 {
                continue;
            }
            for &c in t.cage(i) {
                let c = c as usize;
                if s.is_open(c) {
                    let removed = s.dom[c] & !needed;
                    if removed != 0 {
                        self.inf.cages += u64::from(removed.count_ones());
                        changed = true;
                        if !self.restrict(s, c, needed) {
                            return Pass::Failed;
                        }
                    }
                }
            }
        }
        if changed { Pass::Changed } else { Pass::Stable }
    }
}
