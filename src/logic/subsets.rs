//! Naked and hidden subsets (pairs, triples, quads) within one unit.
//!
//! A naked subset: k empty cells of a unit whose candidates together are k digits; the other
//! cells of the unit lose those digits. A hidden subset: k digits whose places in a unit are
//! together k cells; those cells lose every other digit.

use super::state::{Candidates, bits, full_mask};
use super::step::Step;
use super::technique::Technique;

/// The naked subset of `k` cells, k in 2..=4.
pub(crate) fn naked(state: &Candidates, step: &mut Step, k: usize) -> bool {
    let t = &*state.tables;
    let technique = [
        Technique::NakedPair,
        Technique::NakedTriple,
        Technique::NakedQuad,
    ][k - 2];
    let mut members = [0usize; 4];
    for u in 0..t.unit_count() {
        let unit = t.unit(u);
        // Positions of the empty cells with 2..=k candidates, the only ones that can take part.
        let mut eligible = 0u64;
        let mut empty = 0u64;
        for (i, &c) in unit.iter().enumerate() {
            let count = state.cands[c as usize].count_ones() as usize;
            if count > 0 {
                empty |= 1 << i;
            }
            if (2..=k).contains(&count) {
                eligible |= 1 << i;
            }
        }
        if eligible.count_ones() < k as u32 || empty.count_ones() <= k as u32 {
            continue;
        }
        let cands = |i: usize| state.cands[unit[i] as usize];
        let mut found = None;
        choose(
            eligible,
            k,
            &mut members,
            0,
            0,
            &mut |chosen: &[usize]| {
                let union = chosen.iter().fold(0, |m, &i| m | cands(i));
                if union.count_ones() as usize != k {
                    return false;
                }
                let hits = bits(empty).any(|i| !chosen.contains(&i) && cands(i) & union != 0);
                if hits {
                    found = Some((chosen.iter().fold(0u64, |m, &i| m | 1 << i), union));
                }
                hits
            },
        );
        if let Some((cells, union)) = found {
            step.begin(technique, technique.base_tenths());
            step.units.push(u);
            step.digits = union;
            step.cells.extend(bits(cells).map(|i| unit[i]));
            for i in bits(empty & !cells) {
                for d in super::state::digits(cands(i) & union) {
                    step.eliminate(unit[i] as usize, d);
                }
            }
            return true;
        }
    }
    false
}

/// The hidden subset of `k` digits, k in 2..=4. `direct` (pairs and triples): only one whose
/// eliminations leave a hidden single, placed in the same step.
pub(crate) fn hidden(state: &Candidates, step: &mut Step, k: usize, direct: bool) -> bool {
    let t = &*state.tables;
    let technique = match (k, direct) {
        (2, true) => Technique::DirectHiddenPair,
        (3, true) => Technique::DirectHiddenTriple,
        (2, false) => Technique::HiddenPair,
        (3, false) => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    };
    let mut members = [0usize; 4];
    let mut places = [0u64; 64];
    for u in 0..t.unit_count() {
        let unit = t.unit(u);
        let missing = full_mask(t.n) & !state.placed(u);
        if missing.count_ones() as usize <= k {
            continue;
        }
        let mut eligible = 0u64;
        for d in bits(missing) {
            places[d] = state.positions(u, 1 << d);
            if (2..=k).contains(&(places[d].count_ones() as usize)) {
                eligible |= 1 << d;
            }
        }
        if eligible.count_ones() < k as u32 {
            continue;
        }
        let found = choose(
            eligible,
            k,
            &mut members,
            0,
            0,
            &mut |chosen: &[usize]| {
                let cells = chosen.iter().fold(0, |m, &d| m | places[d]);
                if cells.count_ones() as usize != k {
                    return false;
                }
                let digits = chosen.iter().fold(0u64, |m, &d| m | 1 << d);
                if !bits(cells).any(|i| state.cands[unit[i] as usize] & !digits != 0) {
                    return false;
                }
                step.begin(technique, technique.base_tenths());
                step.units.push(u);
                step.digits = digits;
                step.cells.extend(bits(cells).map(|i| unit[i]));
                for i in bits(cells) {
                    let c = unit[i] as usize;
                    for d in super::state::digits(state.cands[c] & !digits) {
                        step.eliminate(c, d);
                    }
                }
                !direct || super::intersections::place_direct_single(state, step, |v| v == u)
            },
        );
        if found {
            return true;
        }
    }
    false
}

/// Calls `visit` with every `k`-subset of the set bits of `pool` (as indices, increasing)
/// until it returns true; returns whether it did.
pub(crate) fn choose(
    pool: u64,
    k: usize,
    members: &mut [usize; 4],
    depth: usize,
    from: usize,
    visit: &mut impl FnMut(&[usize]) -> bool,
) -> bool {
    if depth == k {
        return visit(&members[..k]);
    }
    let mut rest = if from >= 64 {
        0
    } else {
        pool & (u64::MAX << from)
    };
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if (rest.count_ones() as usize) < k - depth - 1 {
            break;
        }
        members[depth] = i;
        if choose(pool, k, members, depth + 1, i + 1, visit) {
            return true;
        }
    }
    false
}
