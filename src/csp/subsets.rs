//! The subset rules: naked and hidden pairs (and triples at `triples`) in the units, as a
//! second `impl` block of [`Propagator`]. They are the only rules that search combinations of
//! cells or digits (the recursive `find_subset`), and they run only at the `pairs` and
//! `triples` levels once singles are stable, so they live apart from the hot single-digit
//! rules of [`super::propagate`].

use super::config::Propagation;
use super::domains::{State, bits};
use super::propagate::{Pass, Propagator};

/// A subset found among a unit's cells or digits.
enum Subset {
    None,
    /// (chosen item indices, union of their masks)
    Found(u64, u64),
    /// k items whose union has fewer than k members: a dead end.
    Contradiction,
}

impl Propagator<'_> {
    /// Naked and hidden subsets of size 2 (and 3 at `triples`), applying the first one that
    /// removes a candidate. Pairs are tried in every unit before triples.
    pub(super) fn subsets(&mut self, s: &mut State) -> Pass {
        let max_k = if self.level >= Propagation::Triples {
            3
        } else {
            2
        };
        for k in 2..=max_k {
            for u in 0..self.t.unit_count() {
                if s.placed[u] == self.t.full() {
                    continue;
                }
                match self.naked(s, u, k) {
                    Pass::Stable => {}
                    other => return other,
                }
                match self.hidden(s, u, k) {
                    Pass::Stable => {}
                    other => return other,
                }
            }
        }
        Pass::Stable
    }

    /// k open cells of unit `u` whose candidates together are k digits: no other cell of the
    /// unit may take those digits.
    fn naked(&mut self, s: &mut State, u: usize, k: u32) -> Pass {
        let t = self.t;
        let unit = t.unit(u);
        let mut items = [0u64; 64];
        let mut at = [0usize; 64];
        let mut m = 0;
        let mut open_cells = 0u64;
        for (i, &c) in unit.iter().enumerate() {
            let c = c as usize;
            if s.is_open(c) {
                open_cells |= 1 << i;
                let d = s.dom[c];
                if d.count_ones() <= k {
                    items[m] = d;
                    at[m] = i;
                    m += 1;
                }
            }
        }
        let dom = &*s.dom;
        let useful = |chosen: u64, union: u64| {
            let mut others = open_cells;
            for (j, &i) in at[..m].iter().enumerate() {
                if chosen >> j & 1 != 0 {
                    others &= !(1 << i);
                }
            }
            bits(others).any(|i| dom[unit[i] as usize] & union != 0)
        };
        match find_subset(&items[..m], k, 0, 0, 0, &useful) {
            Subset::None => Pass::Stable,
            Subset::Contradiction => Pass::Failed,
            Subset::Found(chosen, union) => {
                let mut others = open_cells;
                for (j, &i) in at[..m].iter().enumerate() {
                    if chosen >> j & 1 != 0 {
                        others &= !(1 << i);
                    }
                }
                let mut removed = 0;
                for i in bits(others) {
                    let c = unit[i] as usize;
                    removed += u64::from((s.dom[c] & union).count_ones());
                    if !self.restrict(s, c, !union) {
                        return Pass::Failed;
                    }
                }
                if k == 2 {
                    self.inf.naked_pairs += removed;
                } else {
                    self.inf.naked_triples += removed;
                }
                Pass::Changed
            }
        }
    }

    /// k digits of unit `u` that fit only in the same k cells: those cells may hold nothing
    /// else.
    fn hidden(&mut self, s: &mut State, u: usize, k: u32) -> Pass {
        let t = self.t;
        let unit = t.unit(u);
        let missing = t.full() & !s.placed[u];
        let mut places = [0u64; 64];
        for (i, &c) in unit.iter().enumerate() {
            let c = c as usize;
            if s.is_open(c) {
                for d in bits(s.dom[c] & missing) {
                    places[d] |= 1 << i;
                }
            }
        }
        let mut items = [0u64; 64];
        let mut digit = [0usize; 64];
        let mut m = 0;
        for d in bits(missing) {
            let count = places[d].count_ones();
            if count == 0 {
                return Pass::Failed;
            }
            if count <= k {
                items[m] = places[d];
                digit[m] = d;
                m += 1;
            }
        }
        let dom = &*s.dom;
        let digits_of = |chosen: u64| bits(chosen).fold(0u64, |acc, j| acc | 1 << digit[j]);
        let useful = |chosen: u64, cells: u64| {
            let keep = digits_of(chosen);
            bits(cells).any(|i| dom[unit[i] as usize] & !keep != 0)
        };
        match find_subset(&items[..m], k, 0, 0, 0, &useful) {
            Subset::None => Pass::Stable,
            Subset::Contradiction => Pass::Failed,
            Subset::Found(chosen, cells) => {
                let keep = digits_of(chosen);
                let mut removed = 0;
                for i in bits(cells) {
                    let c = unit[i] as usize;
                    removed += u64::from((s.dom[c] & !keep).count_ones());
                    if !self.restrict(s, c, keep) {
                        return Pass::Failed;
                    }
                }
                if k == 2 {
                    self.inf.hidden_pairs += removed;
                } else {
                    self.inf.hidden_triples += removed;
                }
                Pass::Changed
            }
        }
    }
}

/// Looks for k items (from `start` on, `depth` chosen so far) whose union has exactly k
/// members and that `useful` accepts; k items with a smaller union are a contradiction.
fn find_subset(
    items: &[u64],
    k: u32,
    start: usize,
    chosen: u64,
    union: u64,
    useful: &dyn Fn(u64, u64) -> bool,
) -> Subset {
    let depth = chosen.count_ones();
    for i in start..items.len() {
        let grown = union | items[i];
        let size = grown.count_ones();
        if size > k {
            continue;
        }
        let picked = chosen | 1 << i;
        if size <= depth {
            // depth + 1 items in at most depth places.
            return Subset::Contradiction;
        }
        if depth + 1 == k {
            if useful(picked, grown) {
                return Subset::Found(picked, grown);
            }
        } else {
            match find_subset(items, k, i + 1, picked, grown, useful) {
                Subset::None => {}
                found => return found,
            }
        }
    }
    Subset::None
}
