//! Locked candidates (box-line reduction, "pointing" and "claiming"), for any two units that
//! share two cells or more, as a third `impl` block of [`Propagator`]: when a digit's places
//! in unit A all lie where A meets unit B, the digit goes in that overlap, so it leaves the
//! cells of B outside A. On Sudoku these are a box and a row or column. No rule on single
//! units (not even `alldiff`'s matching) sees this, and on large grids it is what keeps a
//! wrong early choice from hiding for long (see the module docs of [`crate::csp`]).

use super::domains::{CspTables, State};
use super::propagate::{Pass, Propagator};

/// Two units that share two cells or more, with their cells split three ways.
#[derive(Clone, Debug)]
struct Overlap {
    /// The two units.
    units: [u16; 2],
    /// The shared cells, then those of the first unit only, then those of the second only:
    /// `cells[start..shared]`, `cells[shared..first_only]`, `cells[first_only..end]`.
    start: u32,
    shared: u32,
    first_only: u32,
    end: u32,
}

/// Every pair of units that overlap in two cells or more, computed once per board.
#[derive(Clone, Debug, Default)]
pub(crate) struct Overlaps {
    overlaps: Vec<Overlap>,
    cells: Vec<u16>,
}

impl Overlaps {
    /// The overlapping pairs of the units of `t` (units with the same cells are skipped: a
    /// digit locked in one is locked in the other).
    pub fn new(t: &CspTables) -> Overlaps {
        let mut overlaps = Vec::new();
        let mut cells = Vec::new();
        // Membership of every unit, made once: remade for every pair it took a tenth of a
        // second to build a 64x64 solver, longer than the empty 64x64 grid's search.
        let members: Vec<Vec<bool>> = (0..t.unit_count())
            .map(|u| {
                let mut set = vec![false; t.cells()];
                for &c in t.unit(u) {
                    set[c as usize] = true;
                }
                set
            })
            .collect();
        for (a, in_a) in members.iter().enumerate() {
            for (b, in_b) in members.iter().enumerate().skip(a + 1) {
                let shared = t.unit(a).iter().filter(|&&c| in_b[c as usize]).count();
                if shared < 2 || shared == t.n() {
                    continue;
                }
                let start = cells.len() as u32;
                cells.extend(t.unit(a).iter().filter(|&&c| in_b[c as usize]));
                let shared = cells.len() as u32;
                cells.extend(t.unit(a).iter().filter(|&&c| !in_b[c as usize]));
                let first_only = cells.len() as u32;
                cells.extend(t.unit(b).iter().filter(|&&c| !in_a[c as usize]));
                overlaps.push(Overlap {
                    units: [a as u16, b as u16],
                    start,
                    shared,
                    first_only,
                    end: cells.len() as u32,
                });
            }
        }
        Overlaps { overlaps, cells }
    }
}

impl Propagator<'_> {
    /// One pass of locked candidates over every overlapping pair of units.
    pub(super) fn intersections(&mut self, s: &mut State) -> Pass {
        let t = self.t;
        let mut changed = false;
        // Units changed by this pass go through hidden singles, which marks them again.
        let crossed = std::mem::take(&mut self.crossed);
        let changed_unit = |u: usize| crossed[u / 64] >> (u % 64) & 1 != 0;
        for o in &t.overlaps().overlaps {
            let [a, b] = o.units.map(usize::from);
            if !changed_unit(a) && !changed_unit(b) {
                continue;
            }
            let cells = &t.overlaps().cells;
            let union = |range: std::ops::Range<u32>| {
                cells[range.start as usize..range.end as usize]
                    .iter()
                    .fold(0u64, |acc, &c| acc | s.dom[c as usize])
            };
            let shared = union(o.start..o.shared);
            // Digits not placed yet whose places in one unit are all shared, and that the
            // other unit still has outside the overlap. Each scan of the cells outside
            // stops once every shared digit has a place there (most overlaps of a nearly
            // empty grid, after a few cells: the pass took a third of the search on the empty
            // 64x64, `easy_end.sh`). The digits locked in one unit are shared, so the
            // other's scan, stopped or not, holds those it has outside the overlap.
            let a_only = union_until(cells, s, o.shared..o.first_only, shared & !s.placed[a]);
            let b_only = union_until(cells, s, o.first_only..o.end, shared & !s.placed[b]);
            let from_b = shared & !a_only & !s.placed[a] & b_only;
            let from_a = shared & !b_only & !s.placed[b] & a_only;
            for (mask, range) in [
                (from_b, o.first_only..o.end),
                (from_a, o.shared..o.first_only),
            ] {
                if mask == 0 {
                    continue;
                }
                for &c in &cells[range.start as usize..range.end as usize] {
                    let c = c as usize;
                    let removed = s.dom[c] & mask;
                    if removed != 0 {
                        self.inf.intersections += u64::from(removed.count_ones());
                        if !self.restrict(s, c, !mask) {
                            return Pass::Failed;
                        }
                        changed = true;
                    }
                }
            }
        }
        if changed { Pass::Changed } else { Pass::Stable }
    }
}

/// The union of the domains of `cells[range]`, or of a prefix of them that already holds every
/// digit of `wanted`.
#[inline]
fn union_until(cells: &[u16], s: &State, range: std::ops::Range<u32>, wanted: u64) -> u64 {
    // Checked every eight cells: checked at every cell, the test cost the generated 36x36 of
    // seed 2 4% of its instructions (callgrind), where the scans seldom stop early.
    let mut union = 0;
    for chunk in cells[range.start as usize..range.end as usize].chunks(8) {
        union |= chunk.iter().fold(0, |acc, &c| acc | s.dom[c as usize]);
        if wanted & !union == 0 {
            break;
        }
    }
    union
}
