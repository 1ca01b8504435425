//! Locked candidates: pointing (a box's places of a digit on one line) and claiming (a line's
//! places of a digit in one box), on any two groups of the board: when a digit's places in one
//! group all lie in a second, the second's other cells lose it (the first group holds the
//! digit in one of those places). On a classic board that is SE's box and line; a variant adds
//! the windows, regions and diagonals, a box pointing into a window say.

use super::state::{Candidates, bits, digits, full_mask, groups_in};
use super::step::Step;
use super::technique::Technique;

/// In a box (or a variant's box-like group), a digit's places all in another group, a line
/// first: the rest of that group loses it. `direct`: only a pointing that leaves a hidden
/// single, placed in the same step.
pub(crate) fn pointing(state: &Candidates, step: &mut Step, direct: bool) -> bool {
    let technique = if direct {
        Technique::DirectPointing
    } else {
        Technique::Pointing
    };
    locked_candidates(state, step, technique, false)
}

/// In a line (row, column, diagonal), a digit's places all in another group: the rest of that
/// group loses it. `direct`: only a claiming that leaves a hidden single.
pub(crate) fn claiming(state: &Candidates, step: &mut Step, direct: bool) -> bool {
    let technique = if direct {
        Technique::DirectClaiming
    } else {
        Technique::Claiming
    };
    locked_candidates(state, step, technique, true)
}

/// Locked candidates from every source unit that is a line (`from_lines`) or box-like, into
/// every other unit that holds all the source's places of a digit, in board order.
fn locked_candidates(
    state: &Candidates,
    step: &mut Step,
    technique: Technique,
    from_lines: bool,
) -> bool {
    let t = &*state.tables;
    for source in 0..t.unit_count() {
        if t.house(source).is_line() != from_lines {
            continue;
        }
        let missing = full_mask(t.n) & !state.placed(source);
        for d in digits(missing) {
            let cells = places(state, source, d);
            let Some(common) = common_units(state, &cells) else {
                continue;
            };
            for target in groups_in(&common) {
                if target != source && locked(state, step, technique, source, target, d, cells) {
                    return true;
                }
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

/// The units that hold all the places (the source among them), if there are places.
fn common_units(state: &Candidates, places: &Places) -> Option<super::state::GroupSet> {
    let mut cells = places.cells(state);
    let mut common = *state.tables.group_set(cells.next()? as usize);
    for c in cells {
        for (word, other) in common.iter_mut().zip(state.tables.group_set(c as usize)) {
            *word &= other;
        }
    }
    Some(common)
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
    let t = &*state.tables;
    let bit = 1u64 << (d - 1);
    let mut any = false;
    for &c in t.unit(target) {
        let c = c as usize;
        if state.cands[c] & bit != 0 && !t.holds(source, c) {
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
        // box for pointing, another row or column for claiming), which the target crosses.
        let kind = t.house(source);
        return place_direct_single(state, step, |u| u != source && t.house(u) == kind);
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
    let t = &*state.tables;
    for &(c, d) in &step.eliminations {
        let bit = 1u64 << (d - 1);
        for &u in t.units_of(c as usize) {
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
