//! Singles: full house, hidden single, naked single.

use super::state::{Candidates, House, digits};
use super::step::Step;
use super::technique::Technique;

/// A unit with one empty cell left: it takes the missing digit.
pub(crate) fn full_house(state: &Candidates, step: &mut Step) -> bool {
    let t = &*state.tables;
    for u in 0..t.unit_count() {
        let mut empty = t.unit(u).iter().filter(|&&c| state.values[c as usize] == 0);
        if let (Some(&c), None) = (empty.next(), empty.next()) {
            let missing = super::state::full_mask(t.n) & !state.placed(u);
            if missing.count_ones() == 1 {
                step.begin(Technique::FullHouse, Technique::FullHouse.base_tenths());
                step.units.push(u);
                step.place(c as usize, missing.trailing_zeros() as u8 + 1);
                return true;
            }
        }
    }
    false
}

/// A digit with one place left in a unit: boxes first (SE's 1.2), then lines (1.5). A variant's
/// box-like groups (windows, jigsaw regions) score as boxes, its diagonals as lines.
pub(crate) fn hidden_single(state: &Candidates, step: &mut Step) -> bool {
    let t = &*state.tables;
    for &u in &t.boxes_first {
        let u = usize::from(u);
        let (mut once, mut twice) = (0u64, 0u64);
        for &c in t.unit(u) {
            let cands = state.cands[c as usize];
            twice |= once & cands;
            once |= cands;
        }
        let single = once & !twice;
        if single == 0 {
            continue;
        }
        let d = single.trailing_zeros() as u8 + 1;
        let bit = 1u64 << (d - 1);
        let c = t
            .unit(u)
            .iter()
            .find(|&&c| state.cands[c as usize] & bit != 0)
            .expect("the digit has a place");
        let tenths = if t.house(u) == House::Box { 12 } else { 15 };
        step.begin(Technique::HiddenSingle, tenths);
        step.units.push(u);
        step.digits = bit;
        step.place(*c as usize, d);
        return true;
    }
    false
}

/// A cell with one candidate left.
pub(crate) fn naked_single(state: &Candidates, step: &mut Step) -> bool {
    let Some(c) = state.cands.iter().position(|m| m.count_ones() == 1) else {
        return false;
    };
    step.begin(Technique::NakedSingle, Technique::NakedSingle.base_tenths());
    step.cells.push(c as u16);
    let d = digits(state.cands[c]).next().expect("one candidate");
    step.place(c, d);
    true
}
