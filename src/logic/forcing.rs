//! Dynamic forcing chains: assume a candidate true, follow the singles it forces (naked and
//! hidden, to a fixpoint) on a copy of the grid, and if that breaks the grid (a cell without
//! candidates, a digit without a place in a unit), the candidate is false. Failing that, assume
//! it false as well: what both ways agree on (a digit placed, a candidate gone) is true.
//! SE's dynamic forcing chains (8.5 and up) are this, with the singles as the chain's links;
//! the score adds SE's length modifier for the number of singles followed.

use super::state::{Candidates, digits, full_mask};
use super::technique::length_bonus;
use super::{Step, Technique};

/// The most candidates of a cell whose candidates the search assumes: every cell of a 9x9 grid,
/// and on larger grids the cells that are already narrowed down. Without this bound a nearly
/// empty 36x36 grid tried all 46,656 assumptions at every step (4 minutes for one puzzle)
/// before it guessed; with it, such a grid goes to a guess at once.
const MAX_ASSUMED_CANDIDATES: usize = 9;

/// The most work (cells and units looked at while following singles) one search for a forcing
/// chain may do before it settles for what it found: far above what a 9x9 grid needs (at most
/// about 5 million), so that only large, open grids are cut short, and then go to a guess.
const MAX_WORK: u64 = 50_000_000;

/// The buffers of the forcing search, kept across steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct ForcingScratch {
    on: Option<Candidates>,
    off: Option<Candidates>,
}

/// What following the singles from an assumption gave.
enum Followed {
    /// The grid broke after this many singles.
    Contradiction(usize),
    /// A fixpoint after this many singles.
    Settled(usize),
}

/// The shortest forcing chain that concludes something.
pub(crate) fn forcing_chain(
    state: &Candidates,
    step: &mut Step,
    scratch: &mut ForcingScratch,
) -> bool {
    let n = state.tables.n;
    let on = scratch.on.get_or_insert_with(|| state.clone());
    let off = scratch.off.get_or_insert_with(|| state.clone());
    // (singles, cell, digit, assumed true) of the best conclusion so far
    let mut best: Option<(usize, usize, u8, Option<bool>)> = None;
    // Bivalue cells first: their assumptions are the most likely to force much.
    let mut work = 0u64;
    'sizes: for size in 2..=n.min(MAX_ASSUMED_CANDIDATES) as u32 {
        for c in 0..n * n {
            if state.cands[c].count_ones() != size {
                continue;
            }
            for d in digits(state.cands[c]) {
                if work > MAX_WORK {
                    break 'sizes;
                }
                let limit = best.map_or(usize::MAX, |b| b.0.saturating_sub(1));
                on.clone_from(state);
                on.place(c, d);
                let on_result = follow(on, limit, &mut work);
                if let Followed::Contradiction(k) = on_result {
                    if best.is_none_or(|b| k + 1 < b.0) {
                        best = Some((k + 1, c, d, Some(true)));
                    }
                    continue;
                }
                off.clone_from(state);
                off.cands[c] &= !(1 << (d - 1));
                let off_result = follow(off, limit, &mut work);
                match (on_result, off_result) {
                    (_, Followed::Contradiction(k)) if best.is_none_or(|b| k + 1 < b.0) => {
                        best = Some((k + 1, c, d, Some(false)));
                    }
                    (Followed::Settled(a), Followed::Settled(b)) => {
                        let k = a.max(b) + 1;
                        if best.is_none_or(|b| k < b.0) && agree(state, on, off, &mut |_, _, _| ())
                        {
                            best = Some((k, c, d, None));
                        }
                    }
                    _ => {}
                }
            }
        }
        if best.is_some() {
            break;
        }
    }
    let Some((singles, c, d, assumed)) = best else {
        return false;
    };
    step.begin(
        Technique::ForcingChain,
        (Technique::ForcingChain.base_tenths() + length_bonus(singles)).min(99),
    );
    step.cells.push(c as u16);
    step.digits = 1 << (d - 1);
    step.forcing = Some((assumed, singles));
    match assumed {
        Some(true) => step.eliminate(c, d),
        Some(false) => step.place(c, d),
        None => {
            on.clone_from(state);
            on.place(c, d);
            follow(on, usize::MAX, &mut work);
            off.clone_from(state);
            off.cands[c] &= !(1 << (d - 1));
            follow(off, usize::MAX, &mut work);
            agree(state, on, off, &mut |place, c, d| {
                if place {
                    step.place(c, d)
                } else {
                    step.eliminate(c, d)
                }
            });
        }
    }
    true
}

/// Calls `each(place, cell, digit)` with what both branches concluded beyond `state`: a digit
/// placed in both, or a candidate gone in both (of a cell empty in both). Whether any.
fn agree(
    state: &Candidates,
    on: &Candidates,
    off: &Candidates,
    each: &mut impl FnMut(bool, usize, u8),
) -> bool {
    let mut any = false;
    for c in 0..state.values.len() {
        if state.values[c] != 0 {
            continue;
        }
        let (a, b) = (on.values[c], off.values[c]);
        if a != 0 && a == b {
            each(true, c, a);
            any = true;
            continue;
        }
        // A candidate is gone in a branch if that branch placed another digit or removed it.
        let kept = |s: &Candidates| {
            if s.values[c] != 0 {
                1u64 << (s.values[c] - 1)
            } else {
                s.cands[c]
            }
        };
        let gone = state.cands[c] & !kept(on) & !kept(off);
        for d in digits(gone) {
            each(false, c, d);
            any = true;
        }
    }
    any
}

/// Follows naked and hidden singles to a fixpoint, or until the grid breaks, or until more
/// than `limit` singles (then it reports a fixpoint: too long to be the best).
fn follow(state: &mut Candidates, limit: usize, work: &mut u64) -> Followed {
    let t = state.tables;
    let n = t.n;
    let full = full_mask(n);
    let mut singles = 0;
    loop {
        *work += (n * n + 3 * n * n) as u64;
        let mut progress = false;
        for c in 0..n * n {
            if state.values[c] != 0 {
                continue;
            }
            match state.cands[c].count_ones() {
                0 => return Followed::Contradiction(singles),
                1 => {
                    state.place(c, state.cands[c].trailing_zeros() as u8 + 1);
                    singles += 1;
                    progress = true;
                }
                _ => {}
            }
        }
        for u in 0..3 * n {
            let (mut once, mut twice, mut placed) = (0u64, 0u64, 0u64);
            for &c in t.unit(u) {
                let c = c as usize;
                let cands = state.cands[c];
                twice |= once & cands;
                once |= cands;
                if state.values[c] != 0 {
                    let bit = 1u64 << (state.values[c] - 1);
                    if placed & bit != 0 {
                        return Followed::Contradiction(singles);
                    }
                    placed |= bit;
                }
            }
            if (once | placed) != full {
                return Followed::Contradiction(singles);
            }
            let single = once & !twice & !placed;
            if single != 0 {
                let bit = single & single.wrapping_neg();
                let d = bit.trailing_zeros() as u8 + 1;
                let c = *t
                    .unit(u)
                    .iter()
                    .find(|&&c| state.cands[c as usize] & bit != 0)
                    .expect("a place");
                state.place(c as usize, d);
                singles += 1;
                progress = true;
            }
        }
        if !progress || singles > limit {
            return Followed::Settled(singles);
        }
    }
}
