//! Locked candidates: pointing (a box's places of a digit on one line) and claiming (a line's
//! places of a digit in one box).

use super::state::{Candidates, bits, digits, full_mask};
use super::step::Step;
use super::technique::Technique;

/// In a box, a digit's places all on one row or column: the rest of that line loses it.
/// `direct`: only a pointing that leaves a hidden single, placed in the same step.
pub(crate) fn pointing(state: &Candidates, step: &mut Step, direct: bool) -> bool {
    let technique = if direct {
        Technique::DirectPointing
    } else {
        Technique::Pointing
    };
    let t = state.tables;
    for b in 2 * t.n..3 * t.n {
        let missing = full_mask(t.n) & !state.placed(b);
        for d in digits(missing) {
            let cells = places(state, b, d);
            for line_kind in 0..2 {
                if let Some(line) = common_unit(state, &cells, line_kind)
                    && locked(state, step, technique, b, line, d, cells)
                {
                    return true;
                }
            }
        }
    }
    false
}

/// In a row or column, a digit's places all in one box: the rest of the box loses it.
/// `direct`: only a claiming that leaves a hidden single.
pub(crate) fn claiming(state: &Candidates, step: &mut Step, direct: bool) -> bool {
    let technique = if direct {
        Technique::DirectClaiming
    } else {
        Technique::Claiming
    };
    let t = state.tables;
    for line in 0..2 * t.n {
        let missing = full_mask(t.n) & !state.placed(line);
        for d in digits(missing) {
            let cells = places(state, line, d);
            if let Some(b) = common_unit(state, &cells, 2)
                && locked(state, step, technique, line, b, d, cells)
            {
                return true;
            }
        }
    }
    false
}

/// The places of `d` in unit `u`: a unit and a mask of positions in it.
#[derive(Clone, Copy)]
struct Places {
    unit: usize,
    mask: u64,
}

impl Places {
    fn cells<'a>(&self, state: &'a Candidates) -> impl Iterator<Item = u16> + 'a {
        let unit = state.tables.unit(self.unit);
        bits(self.mask).map(move |i| unit[i])
    }
}

fn places(state: &Candidates, u: usize, d: u8) -> Places {
    Places {
        unit: u,
        mask: state.positions(u, 1u64 << (d - 1)),
    }
}

/// The unit of kind `kind` (0 row, 1 column, 2 box) that holds all the places, if one does.
fn common_unit(state: &Candidates, places: &Places, kind: usize) -> Option<usize> {
    let mut cells = places.cells(state);
    let u = state.tables.cell_units[cells.next()? as usize][kind];
    cells
        .all(|c| state.tables.cell_units[c as usize][kind] == u)
        .then_some(u as usize)
}

/// Removes `d` from the cells of `target` outside `source`; a step if any went.
fn locked(
    state: &Candidates,
    step: &mut Step,
    technique: Technique,
    source: usize,
    target: usize,
    d: u8,
    cells: Places,
) -> bool {
    let t = state.tables;
    let source_kind = source / t.n;
    let bit = 1u64 << (d - 1);
    let mut any = false;
    for &c in t.unit(target) {
        let c = c as usize;
        if state.cands[c] & bit != 0 && t.cell_units[c][source_kind] as usize != source {
            if !any {
                step.begin(technique, technique.base_tenths());
                step.units.extend([source, target]);
                step.cells.extend(cells.cells(state));
                step.digits = bit;
                any = true;
            }
            step.eliminate(c, d);
        }
    }
    if any
        && matches!(
            technique,
            Technique::DirectPointing | Technique::DirectClaiming
        )
    {
        // As SE's direct pointing: the single is in another unit of the source's kind (another
        // box for pointing, another line for claiming), which the target line or box crosses.
        return place_direct_single(state, step, |u| u != source && u / t.n == source_kind);
    }
    any
}

/// For a direct step: places the hidden single its eliminations leave (a digit with one place
/// left in a unit of an eliminated cell, among the units that `in_unit` accepts), or clears the
/// step and returns false if none.
pub(crate) fn place_direct_single(
    state: &Candidates,
    step: &mut Step,
    in_unit: impl Fn(usize) -> bool,
) -> bool {
    let t = state.tables;
    for &(c, d) in &step.eliminations {
        let bit = 1u64 << (d - 1);
        for &u in &t.cell_units[c as usize] {
            if !in_unit(u as usize) {
                continue;
            }
            let mut left = t.unit(u as usize).iter().filter(|&&p| {
                state.cands[p as usize] & bit != 0 && !step.eliminations.contains(&(p, d))
            });
            if let (Some(&p), None) = (left.next(), left.next()) {
                step.units.push(u as usize);
                step.place(p as usize, d);
                return true;
            }
        }
    }
    step.clear();
    false
}
