//! The nogood database: the nogoods learned, where their options are, and the cut that keeps
//! the database bounded at a restart.

use super::{Learner, NONE, Step};

/// A nogood: where its options are in `Learner::lits`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Nogood {
    pub(super) start: u32,
    pub(super) len: u32,
    /// Learned from a solution's decisions: it keeps the solution from being delivered again,
    /// so it is never forgotten.
    pub(super) blocks: bool,
}

#[cfg(test)]
thread_local! {
    /// The nogoods this thread learned from conflicts, for the tests to check against every
    /// solution.
    pub(super) static LEARNED: std::cell::RefCell<Vec<Vec<u32>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Learned options kept before the database is cut down, per option of the problem. The unit
/// tests cut it down at nearly every restart, to test the cut.
#[cfg(not(test))]
const LITS_PER_OPTION: usize = 64;
#[cfg(test)]
const LITS_PER_OPTION: usize = 0;

impl Learner {
    /// Keeps the nogood just learned (`learned`, its two options to watch first), watched by
    /// them; `blocks` when it was learned from a solution. Returns its number.
    pub(super) fn keep_learned(&mut self, blocks: bool) -> u32 {
        let g = self.nogoods.len() as u32;
        self.nogoods.push(Nogood {
            start: self.lits.len() as u32,
            len: self.learned.len() as u32,
            blocks,
        });
        self.live_lits += self.learned.len();
        self.lits.extend_from_slice(&self.learned);
        self.watch_first_two(g);
        #[cfg(test)]
        if !blocks {
            LEARNED.with(|learned| learned.borrow_mut().push(self.learned.clone()));
        }
        g
    }

    /// Forgets the longer half of the nogoods learned from conflicts when the nogoods hold
    /// more than [`LITS_PER_OPTION`] options per option of the problem. Called at a restart,
    /// at level 0, where a nogood is the reason only of steps of level 0, which no analysis
    /// reads (their hides become unit hides). A nogood learned from a conflict follows from the
    /// problem and the nogoods that block solutions, so forgetting it loses nothing but work;
    /// the blocking nogoods are kept, so no solution is delivered twice.
    pub(super) fn reduce(&mut self, option_count: usize) {
        if self.live_lits <= LITS_PER_OPTION * option_count {
            return;
        }
        debug_assert_eq!(self.level(), 0);
        for step in &mut self.trail {
            if let Step::Hide(k, _) = *step {
                *step = Step::HideUnit(k);
            }
        }
        // The median length of the learned nogoods: longer ones go.
        let mut lens: Vec<u32> = (self.nogoods.iter())
            .filter(|n| !n.blocks)
            .map(|n| n.len)
            .collect();
        let cut = if lens.is_empty() {
            u32::MAX
        } else {
            let mid = lens.len() / 2;
            *lens.select_nth_unstable(mid).1
        };
        let old_lits = std::mem::take(&mut self.lits);
        let old = std::mem::take(&mut self.nogoods);
        self.watches.iter_mut().for_each(Vec::clear);
        self.live_lits = 0;
        for n in old.into_iter().filter(|n| n.blocks || n.len < cut) {
            let g = self.nogoods.len() as u32;
            let options = &old_lits[n.start as usize..(n.start + n.len) as usize];
            self.nogoods.push(Nogood {
                start: self.lits.len() as u32,
                ..n
            });
            self.lits.extend_from_slice(options);
            self.live_lits += options.len();
            // At level 0 no option of a kept nogood is chosen above level 0; the first two
            // not chosen at level 0 are watched (a nogood whose options but one are chosen at
            // level 0 has hidden that one for good already).
            let s = self.lits.len() - options.len();
            let mut w = s;
            for j in s..self.lits.len() {
                if self.chosen_at[self.lits[j] as usize] == NONE && w < s + 2 {
                    self.lits.swap(w, j);
                    w += 1;
                }
            }
            self.watch_first_two(g);
        }
    }
}
