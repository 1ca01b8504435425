//! Aligned pair exclusion, on Sukaku Explainer's scale (6.2).
//!
//! Two cells, and the bivalue cells that see both (at least two of them): a pair of digits the
//! two cells could take together is excluded when it is one digit twice in cells that see each
//! other, or when it holds both candidates of one of those bivalue cells, which would be left
//! empty. A candidate of either cell that no remaining pair uses goes.

use super::state::{Candidates, digits};
use super::step::Step;
use super::technique::Technique;

/// The first aligned pair exclusion that removes a candidate.
pub(crate) fn aligned_pair(state: &Candidates, step: &mut Step) -> bool {
    let t = &*state.tables;
    let cells = t.n * t.n;
    // Sukaku takes as base cells those with two candidates or more, a bivalue peer and no
    // peer of one candidate.
    let base: Vec<usize> = (0..cells)
        .filter(|&c| {
            state.cands[c].count_ones() >= 2 && {
                let peers = t
                    .peers(c)
                    .iter()
                    .map(|&p| state.cands[p as usize].count_ones());
                peers.clone().all(|k| k != 1) && peers.into_iter().any(|k| k == 2)
            }
        })
        .collect();
    let mut excluders = Vec::new();
    for (i, &a) in base.iter().enumerate() {
        for &b in &base[i + 1..] {
            excluders.clear();
            excluders.extend(
                t.peers(a)
                    .iter()
                    .map(|&p| p as usize)
                    .filter(|&p| p != b && state.cands[p].count_ones() == 2 && t.sees(p, b)),
            );
            if excluders.len() < 2 {
                continue;
            }
            let allowed = |x: u8, y: u8| {
                let pair = (1u64 << (x - 1)) | (1u64 << (y - 1));
                !(x == y && t.sees(a, b)) && excluders.iter().all(|&e| state.cands[e] & !pair != 0)
            };
            let (ca, cb) = (state.cands[a], state.cands[b]);
            step.begin(
                Technique::AlignedPairExclusion,
                Technique::AlignedPairExclusion.base_tenths(),
            );
            for x in digits(ca) {
                if !digits(cb).any(|y| allowed(x, y)) {
                    step.eliminate(a, x);
                }
            }
            for y in digits(cb) {
                if !digits(ca).any(|x| allowed(x, y)) {
                    step.eliminate(b, y);
                }
            }
            if !step.eliminations.is_empty() {
                step.cells.extend([a as u16, b as u16]);
                step.cells.extend(excluders.iter().map(|&e| e as u16));
                step.digits = ca | cb;
                return true;
            }
            step.clear();
        }
    }
    false
}
