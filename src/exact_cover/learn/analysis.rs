//! Conflict analysis: which choices explain a conflict, resolved back to the first unique
//! implication point of the conflict's level, and the nogood learned from them, less the forced
//! choices that follow from the rest (MiniSat's local minimisation). See the `learn` module doc.

use super::super::Dlx;
use super::super::links::{Item, Links};
use super::super::search::Stats;
use super::hall::HallSet;
use super::{Conflict, Learner, NONE, ROOT, Step};

impl Learner {
    /// The trail position of the step that hid option `k` (not chosen, not free), or `None`
    /// if it was hidden before the search.
    #[inline]
    pub(super) fn hider(&self, k: u32) -> Option<u32> {
        let at = self.hidden_at[k as usize];
        debug_assert!(
            at != NONE && self.chosen_at[k as usize] == NONE,
            "{k} is not hidden"
        );
        (at != ROOT).then_some(at)
    }

    /// Marks the choices that explain why option `k` is hidden.
    #[inline(always)]
    fn explain_hidden(&mut self, k: u32) {
        if let Some((t, r)) = self.explain_unless_pruned(k) {
            self.explain_pruned(t, r);
        }
    }

    /// Marks the choices that explain why option `k` is hidden, unless a Hall set hid it:
    /// then returns the trail position of that step and the set's number. Inlined: the
    /// explanation of an empty item's options is the hot loop of conflict analysis.
    #[inline(always)]
    fn explain_unless_pruned(&mut self, k: u32) -> Option<(u32, u32)> {
        let t = self.hider(k)?;
        match self.trail[t as usize] {
            Step::Hide(_, g) => {
                for j in 0..self.nogoods[g as usize].len {
                    let c = self.lits[(self.nogoods[g as usize].start + j) as usize];
                    if c != k {
                        self.mark(self.chosen_at[c as usize]);
                    }
                }
            }
            Step::HideUnit(_) => {}
            Step::Prune(_, r) => return Some((t, r)),
            _ => self.mark(t),
        }
        None
    }

    /// Marks the choices that explain an option hidden at trail position `t` by Hall set `r`:
    /// those that explain the hidden options that made the set, each set once per analysis
    /// (a set's options may be hidden by other sets in turn).
    #[cold]
    fn explain_pruned(&mut self, t: u32, r: u32) {
        self.expand(t, r);
        while let Some(k) = self.to_explain.pop() {
            if let Some((t, r)) = self.explain_unless_pruned(k) {
                self.expand(t, r);
            }
        }
    }

    /// Queues the hidden options that explain Hall set `r`, of the step at trail position
    /// `t`, unless that step is at level 0 or the set was explained in this analysis already
    /// (the options one check rules out share their sets).
    fn expand(&mut self, t: u32, r: u32) {
        if self.level_of[t as usize] == 0 || std::mem::replace(&mut self.expanded[r as usize], true)
        {
            return;
        }
        let set = (self.hall.as_ref())
            .expect("a Hall set comes from the Hall check")
            .reason(r);
        self.explain_hall_set(set);
    }

    /// Queues the hidden options that explain Hall set `set`, and marks the choices that
    /// placed the digits of its group outside it.
    fn explain_hall_set(&mut self, set: HallSet) {
        let hall = (self.hall.as_ref()).expect("a Hall set comes from the Hall check");
        let (to_explain, to_mark) = (&mut self.to_explain, &mut self.to_mark);
        let chosen_at = &self.chosen_at;
        hall.reason_options(
            set,
            |k| to_explain.push(k),
            |options| {
                for k in options {
                    if chosen_at[k as usize] != NONE {
                        to_mark.push(chosen_at[k as usize]);
                        break;
                    }
                }
            },
        );
        while let Some(t) = self.to_mark.pop() {
            self.mark(t);
        }
    }

    /// Marks the choices that emptied item `h`, but for option `except`.
    pub(super) fn explain_item(&mut self, h: Item, except: u32) {
        for i in self.options_of(h) {
            let k = self.item_options[i];
            if k != except {
                self.explain_hidden(k);
            }
        }
    }

    /// Whether the forced choice at trail position `m` follows from the marked choices (and
    /// level 0), so that the nogood needs it not: every other option of its item was hidden by
    /// a marked choice, or by a nogood whose other options are marked choices (the local
    /// minimisation of MiniSat; a marked choice is in the nogood or follows from it).
    fn implied(&self, links: &Links, m: u32) -> bool {
        let Step::Force(x, h) = self.trail[m as usize] else {
            return false;
        };
        let chosen = links.option_of(x) as u32;
        let known = |t: u32| self.seen[t as usize] || self.level_of[t as usize] == 0;
        self.options_of(h).all(|i| {
            let k = self.item_options[i];
            if k == chosen {
                return true;
            }
            let Some(t) = self.hider(k) else {
                return true;
            };
            match self.trail[t as usize] {
                Step::Hide(_, g) => {
                    let n = self.nogoods[g as usize];
                    (n.start..n.start + n.len)
                        .map(|j| self.lits[j as usize])
                        .filter(|&c| c != k)
                        .all(|c| known(self.chosen_at[c as usize]))
                }
                Step::HideUnit(_) => true,
                _ => known(t),
            }
        })
    }

    /// Marks a chosen step of the conflict (above level 0), once.
    #[inline]
    fn mark(&mut self, t: u32) {
        debug_assert_ne!(t, NONE);
        let i = t as usize;
        if !self.seen[i] && self.level_of[i] > 0 {
            self.seen[i] = true;
            self.marked.push(t);
        }
    }
}

impl Dlx {
    /// Learns from a conflict, backjumps and hides the option that caused it. Returns false
    /// when the conflict is at level 0: the search is over.
    pub(super) fn resolve<const BYTES: bool, const HALL: bool>(
        &mut self,
        l: &mut Learner,
        conflict: Conflict,
        stats: &mut Stats,
    ) -> bool {
        // The conflict's choices, marked.
        l.seen.clear();
        l.seen.resize(l.trail.len(), false);
        if HALL {
            let sets = l.hall.as_ref().map_or(0, |hall| hall.reason_count());
            l.expanded.clear();
            l.expanded.resize(sets, false);
        }
        l.marked.clear();
        match conflict {
            Conflict::Empty(h) => l.explain_item(h, NONE),
            Conflict::Nogood(g) => {
                for j in 0..l.nogoods[g as usize].len {
                    let c = l.lits[(l.nogoods[g as usize].start + j) as usize];
                    l.mark(l.chosen_at[c as usize]);
                }
            }
            Conflict::Solution => {
                for d in 0..l.decisions.len() {
                    l.mark(l.decisions[d]);
                }
            }
            Conflict::Hall(set) => {
                l.explain_hall_set(set);
                while let Some(k) = l.to_explain.pop() {
                    l.explain_hidden(k);
                }
            }
        }
        // The conflict level: the highest level among the marks.
        let level = l.marked.iter().map(|&t| l.level_of[t as usize]).max();
        let Some(level) = level.filter(|&v| v > 0) else {
            return false;
        };
        if level < l.level() {
            self.backjump::<BYTES, HALL>(l, level);
        }
        // First UIP: resolve the current level's forced choices, newest first.
        let mut pending = (l.marked.iter())
            .filter(|&&t| l.level_of[t as usize] == level)
            .count();
        let mut t = l.trail.len();
        let uip = loop {
            t -= 1;
            if !l.seen[t] {
                continue;
            }
            pending -= 1;
            if pending == 0 {
                break t;
            }
            match l.trail[t] {
                Step::Force(x, h) => {
                    let before = l.marked.len();
                    l.explain_item(h, self.links().option_of(x) as u32);
                    pending += (l.marked[before..].iter())
                        .filter(|&&m| l.level_of[m as usize] == level)
                        .count();
                }
                step => unreachable!("only the decision is left at the end: {step:?}"),
            }
        };
        // The nogood: the UIP's option and the lower levels' choices.
        l.learned.clear();
        let uip_option = self
            .links()
            .option_of(l.trail[uip].chosen().expect("a choice")) as u32;
        l.learned.push(uip_option);
        let mut back = 0;
        let mut second = 0;
        for i in 0..l.marked.len() {
            let m = l.marked[i];
            let v = l.level_of[m as usize];
            if v < level && !l.implied(self.links(), m) {
                if v > back {
                    back = v;
                    second = l.learned.len();
                }
                let x = l.trail[m as usize].chosen().expect("a choice");
                l.learned.push(self.links().option_of(x) as u32);
            }
        }
        self.backjump::<BYTES, HALL>(l, back);
        stats.learned += 1;
        if l.learned.len() == 1 {
            // Never to be chosen: hidden at level 0, for good.
            self.hide_option::<BYTES, HALL>(l, Step::HideUnit(uip_option));
            return true;
        }
        // Watch the UIP's option and the one of the highest lower level.
        l.learned.swap(1, second);
        let g = l.keep_learned(matches!(conflict, Conflict::Solution));
        debug_assert!(l.is_free(uip_option));
        self.hide_option::<BYTES, HALL>(l, Step::Hide(uip_option, g));
        true
    }
}
