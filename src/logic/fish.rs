//! Basic fish: X-wing (2), swordfish (3), jellyfish (4). A digit whose places in k rows lie in
//! k columns (or in k columns, in k rows): the rest of those columns (rows) lose it.

use super::state::{Candidates, bits, digits, full_mask};
use super::step::Step;
use super::subsets::choose;
use super::technique::Technique;

/// The fish of size `k`, k in 2..=4; rows as the base first, then columns.
pub(crate) fn fish(state: &Candidates, step: &mut Step, k: usize) -> bool {
    let t = state.tables;
    let n = t.n;
    let technique = [Technique::XWing, Technique::Swordfish, Technique::Jellyfish][k - 2];
    let mut members = [0usize; 4];
    let mut lines = [0u64; 64];
    for d in digits(full_mask(n)) {
        let bit = 1u64 << (d - 1);
        for base_kind in 0..2 {
            let cover_kind = 1 - base_kind;
            let mut eligible = 0u64;
            for (line, places) in lines.iter_mut().enumerate().take(n) {
                // Positions along a row are columns, along a column rows.
                *places = state.positions(base_kind * n + line, bit);
                if (2..=k).contains(&(places.count_ones() as usize)) {
                    eligible |= 1 << line;
                }
            }
            if eligible.count_ones() < k as u32 {
                continue;
            }
            let mut found = None;
            choose(
                eligible,
                k,
                &mut members,
                0,
                0,
                &mut |chosen: &[usize]| {
                    let cover = chosen.iter().fold(0, |m, &l| m | lines[l]);
                    if cover.count_ones() as usize != k {
                        return false;
                    }
                    let base = chosen.iter().fold(0u64, |m, &l| m | 1 << l);
                    let hits = bits(cover).any(|cover_line| {
                        let u = cover_kind * n + cover_line;
                        state.positions(u, bit) & !base != 0
                    });
                    if hits {
                        found = Some((base, cover));
                    }
                    hits
                },
            );
            if let Some((base, cover)) = found {
                step.begin(technique, technique.base_tenths());
                step.digits = bit;
                step.units.extend(bits(base).map(|l| base_kind * n + l));
                step.units.extend(bits(cover).map(|l| cover_kind * n + l));
                for l in bits(base) {
                    let unit = t.unit(base_kind * n + l);
                    step.cells.extend(bits(lines[l]).map(|i| unit[i]));
                }
                for l in bits(cover) {
                    let u = cover_kind * n + l;
                    let unit = t.unit(u);
                    for i in bits(state.positions(u, bit) & !base) {
                        step.eliminate(unit[i] as usize, d);
                    }
                }
                return true;
            }
        }
    }
    false
}
