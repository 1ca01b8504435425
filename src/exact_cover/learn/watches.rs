//! Two watched options per nogood (Chaff's watched literals, with MiniSat's blockers): a nogood
//! is read only when an option it watches is chosen, to move the watch, hide its last free
//! option, or report that all its options are chosen.

use super::super::Dlx;
use super::{Learner, NONE, Step};

/// A nogood watching an option, and its blocker (see `Learner::watches`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Watch {
    nogood: u32,
    blocker: u32,
}

impl Learner {
    /// Watches nogood `g` by its first two options, each with the other as its blocker.
    pub(super) fn watch_first_two(&mut self, g: u32) {
        let s = self.nogoods[g as usize].start as usize;
        let (a, b) = (self.lits[s], self.lits[s + 1]);
        self.watches[a as usize].push(Watch {
            nogood: g,
            blocker: b,
        });
        self.watches[b as usize].push(Watch {
            nogood: g,
            blocker: a,
        });
    }
}

impl Dlx {
    /// Visits the nogoods watching option `k`, just chosen: moves each watch to an option not
    /// chosen, or hides the nogood's last free option, or returns the nogood whose options are
    /// all chosen.
    pub(super) fn watch<const BYTES: bool, const HALL: bool>(
        &mut self,
        l: &mut Learner,
        k: u32,
    ) -> Option<u32> {
        let mut list = std::mem::take(&mut l.watches[k as usize]);
        let mut conflict = None;
        let mut i = 0;
        while i < list.len() {
            let Watch { nogood: g, blocker } = list[i];
            if l.is_hidden(blocker) {
                // The blocker is hidden: the nogood holds.
                i += 1;
                continue;
            }
            let n = l.nogoods[g as usize];
            let (s, len) = (n.start as usize, n.len as usize);
            // The watch on `k` goes to position 1.
            if l.lits[s] == k {
                l.lits.swap(s, s + 1);
            }
            debug_assert_eq!(l.lits[s + 1], k);
            let other = l.lits[s];
            if l.is_hidden(other) {
                // The other watched option is hidden: the nogood holds.
                list[i].blocker = other;
                i += 1;
                continue;
            }
            let replacement = (s + 2..s + len).find(|&j| l.chosen_at[l.lits[j] as usize] == NONE);
            if let Some(j) = replacement {
                l.lits.swap(s + 1, j);
                l.watches[l.lits[s + 1] as usize].push(Watch {
                    nogood: g,
                    blocker: other,
                });
                list.swap_remove(i);
                continue;
            }
            i += 1;
            if l.chosen_at[other as usize] != NONE {
                conflict = Some(g);
                break;
            }
            // Every option but `other` is chosen: `other` must go.
            self.hide_option::<BYTES, HALL>(l, Step::Hide(other, g));
        }
        debug_assert!(l.watches[k as usize].is_empty());
        l.watches[k as usize] = list;
        conflict
    }
}
