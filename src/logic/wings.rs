//! Wings: XY-wing, XYZ-wing, W-wing.

use super::state::{Candidates, bits, digits};
use super::step::Step;
use super::technique::{Technique, length_bonus};

/// A bivalue pivot {x,y} that sees bivalue pincers {x,z} and {y,z}: whichever the pivot is,
/// one pincer is z, so cells seeing both pincers lose z.
pub(crate) fn xy_wing(state: &Candidates, step: &mut Step) -> bool {
    let t = &*state.tables;
    for pivot in 0..t.n * t.n {
        let p = state.cands[pivot];
        if p.count_ones() != 2 {
            continue;
        }
        for &a in t.peers(pivot) {
            let ca = state.cands[a as usize];
            if ca.count_ones() != 2 || (ca & p).count_ones() != 1 {
                continue;
            }
            let z = ca & !p;
            let want = (p & !ca) | z;
            for &b in t.peers(pivot) {
                if state.cands[b as usize] != want {
                    continue;
                }
                if wing_eliminations(
                    state,
                    step,
                    Technique::XyWing,
                    &[pivot, a as usize, b as usize],
                    z,
                    2,
                ) {
                    return true;
                }
            }
        }
    }
    false
}

/// A pivot {x,y,z} that sees bivalue pincers {x,z} and {y,z}: one of the three is z, so cells
/// seeing all three lose z.
pub(crate) fn xyz_wing(state: &Candidates, step: &mut Step) -> bool {
    let t = &*state.tables;
    for pivot in 0..t.n * t.n {
        let p = state.cands[pivot];
        if p.count_ones() != 3 {
            continue;
        }
        for &a in t.peers(pivot) {
            let ca = state.cands[a as usize];
            if ca.count_ones() != 2 || ca & !p != 0 {
                continue;
            }
            for &b in t.peers(pivot) {
                let cb = state.cands[b as usize];
                if b <= a || cb.count_ones() != 2 || cb & !p != 0 || cb == ca {
                    continue;
                }
                let z = ca & cb;
                if wing_eliminations(
                    state,
                    step,
                    Technique::XyzWing,
                    &[pivot, a as usize, b as usize],
                    z,
                    3,
                ) {
                    return true;
                }
            }
        }
    }
    false
}

/// Two bivalue cells A and B with the same {x,y} that do not see each other, and a unit
/// (holding neither) whose places of x all see A or B: were neither A nor B y, both would be
/// x and the unit would have no x. So one of them is y, and cells seeing both lose y.
pub(crate) fn w_wing(state: &Candidates, step: &mut Step) -> bool {
    let t = &*state.tables;
    let cells = t.n * t.n;
    for a in 0..cells {
        let pair = state.cands[a];
        if pair.count_ones() != 2 {
            continue;
        }
        for b in a + 1..cells {
            if state.cands[b] != pair || t.sees(a, b) {
                continue;
            }
            for x in digits(pair) {
                let xbit = 1u64 << (x - 1);
                let y = pair & !xbit;
                for u in 0..t.unit_count() {
                    let unit = t.unit(u);
                    let places = state.positions(u, xbit);
                    if places == 0
                        || unit.contains(&(a as u16))
                        || unit.contains(&(b as u16))
                        || !bits(places).all(|i| {
                            let c = unit[i] as usize;
                            t.sees(c, a) || t.sees(c, b)
                        })
                    {
                        continue;
                    }
                    let wing = [a, b];
                    step.begin(
                        Technique::WWing,
                        Technique::WWing.base_tenths() + length_bonus(6),
                    );
                    if collect_eliminations(state, step, &wing, y) {
                        step.units.push(u);
                        step.digits = pair;
                        step.cells.extend(bits(places).map(|i| unit[i]));
                        return true;
                    }
                    step.clear();
                }
            }
        }
    }
    false
}

/// Begins a wing step if some cell seeing every one of the last `seeing` of `cells` (all but
/// the pivot for an XY-wing, all for an XYZ-wing) holds `z`.
fn wing_eliminations(
    state: &Candidates,
    step: &mut Step,
    technique: Technique,
    cells: &[usize; 3],
    z: u64,
    seeing: usize,
) -> bool {
    step.begin(technique, technique.base_tenths());
    if collect_eliminations(state, step, &cells[3 - seeing..], z) {
        step.cells.extend(cells.iter().map(|&c| c as u16));
        step.digits = cells.iter().fold(0, |m, &c| m | state.cands[c]);
        return true;
    }
    step.clear();
    false
}

/// Eliminates digit mask `z` from every cell outside `cells` that sees all of them; whether
/// there was any.
fn collect_eliminations(state: &Candidates, step: &mut Step, cells: &[usize], z: u64) -> bool {
    let t = &*state.tables;
    let d = z.trailing_zeros() as u8 + 1;
    let mut any = false;
    for &q in t.peers(cells[0]) {
        let q = q as usize;
        if state.cands[q] & z != 0 && cells[1..].iter().all(|&c| t.sees(q, c)) {
            step.eliminate(q, d);
            any = true;
        }
    }
    any
}
