//! Basic fish: X-wing (2), swordfish (3), jellyfish (4). A digit whose places in k rows lie in
//! k columns (or in k columns, in k rows): the rest of those columns (rows) lose it. Rows and
//! columns only: the proof needs k base units whose places cover k disjoint units, which a
//! variant's other groups do not give; a board without rows and columns has no fish.

use super::state::{Candidates, bits, digits, full_mask};
use super::step::Step;
use super::subsets::choose;
use super::technique::Technique;

/// The fish of size `k`, k in 2..=4; rows as the base first, then columns.
pub(crate) fn fish(state: &Candidates, step: &mut Step, k: usize) -> bool {
    let t = &*state.tables;
    let n = t.n;
    let technique = [Technique::XWing, Technique::Swordfish, Technique::Jellyfish][k - 2];
    if t.rows.len() != n || t.columns.len() != n {
        return false;
    }
    let lines = [&t.rows, &t.columns];
    let unit_of = |kind: usize, line: usize| usize::from(lines[kind][line]);
    let mut members = [0usize; 4];
    let mut positions = [0u64; 64];
    for d in digits(full_mask(n)) {
        let bit = 1u64 << (d - 1);
        for base_kind in 0..2 {
            let cover_kind = 1 - base_kind;
            let mut eligible = 0u64;
            for (line, places) in positions.iter_mut().enumerate().take(n) {
                // Positions along a row are columns, along a column rows.
                *places = state.positions(unit_of(base_kind, line), bit);
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
                    let cover = chosen.iter().fold(0, |m, &l| m | positions[l]);
                    if cover.count_ones() as usize != k {
                        return false;
                    }
                    let base = chosen.iter().fold(0u64, |m, &l| m | 1 << l);
                    let hits = bits(cover).any(|cover_line| {
                        state.positions(unit_of(cover_kind, cover_line), bit) & !base != 0
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
                step.units.extend(bits(base).map(|l| unit_of(base_kind, l)));
                step.units
                    .extend(bits(cover).map(|l| unit_of(cover_kind, l)));
                for l in bits(base) {
                    let unit = t.unit(unit_of(base_kind, l));
                    step.cells.extend(bits(positions[l]).map(|i| unit[i]));
                }
                for l in bits(cover) {
                    let u = unit_of(cover_kind, l);
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
