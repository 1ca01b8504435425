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
pub(super) fn collect_eliminations(
    state: &Candidates,
    step: &mut Step,
    cells: &[usize],
    z: u64,
) -> bool {
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

/// An almost locked set of `size` cells that see each other, holding `size + 1` digits between
/// them, and a bivalue cell {x,z} outside it that sees every cell of the set holding x: if the
/// bivalue cell is x, the set has no x and must hold z. So z is in one or the other, and cells
/// seeing the bivalue cell and every z of the set lose z. When z links them the same way, the
/// set and the cell together hold exactly their digits: x goes as z does, and each other digit
/// of the set from the cells seeing all its places there. Sukaku's WXYZ-wing (three cells,
/// 5.5-5.6) and VWXYZ-wing (four cells, 6.2-6.4), scored by the set's largest cell as Sukaku
/// does, its easiest hint kept (the one with most eliminations among equals).
pub(crate) fn als_wing(state: &Candidates, step: &mut Step, size: usize) -> bool {
    let t = &*state.tables;
    let technique = if size == 3 {
        Technique::WxyzWing
    } else {
        Technique::VwxyzWing
    };
    let mut best: Option<AlsWing> = None;
    let mut set = [0usize; 4];
    for a in 0..t.n * t.n {
        let ca = state.cands[a];
        if (2..=size as u32 + 1).contains(&ca.count_ones()) {
            set[0] = a;
            grow(state, &mut set, 1, size, ca, technique, &mut best);
        }
    }
    let Some(wing) = best else {
        return false;
    };
    step.begin(technique, wing.tenths);
    let cells = &wing.set[..size];
    step.cells.extend(cells.iter().map(|&c| c as u16));
    step.cells.push(wing.pincer as u16);
    step.digits = cells
        .iter()
        .fold(state.cands[wing.pincer], |m, &c| m | state.cands[c]);
    als_eliminations(state, cells, wing.pincer, wing.x, |c, d| {
        step.eliminate(c, d)
    });
    true
}

/// The best almost-locked-set wing so far.
struct AlsWing {
    tenths: u16,
    eliminations: usize,
    set: [usize; 4],
    pincer: usize,
    x: u64,
}

/// Adds to `set[..len]` (digits `held`) every later cell that sees all of it, and tries each
/// whole set against the bivalue cells.
fn grow(
    state: &Candidates,
    set: &mut [usize; 4],
    len: usize,
    size: usize,
    held: u64,
    technique: Technique,
    best: &mut Option<AlsWing>,
) {
    let t = &*state.tables;
    if len == size {
        if held.count_ones() as usize == size + 1 {
            pincers(state, &set[..size], held, technique, best);
        }
        return;
    }
    for &c in t.peers(set[0]) {
        let c = c as usize;
        let cc = state.cands[c];
        let with = held | cc;
        if c <= set[len - 1]
            || !(2..=size as u32 + 1).contains(&cc.count_ones())
            || with.count_ones() as usize > size + 1
            || !set[1..len].iter().all(|&s| t.sees(s, c))
        {
            continue;
        }
        set[len] = c;
        grow(state, set, len + 1, size, with, technique, best);
    }
}

/// Tries every bivalue cell {x,z} of the set's digits outside it, x then z as the digit that
/// links them.
fn pincers(
    state: &Candidates,
    set: &[usize],
    held: u64,
    technique: Technique,
    best: &mut Option<AlsWing>,
) {
    let t = &*state.tables;
    let largest = set
        .iter()
        .map(|&c| state.cands[c].count_ones())
        .max()
        .unwrap_or(0) as i32;
    // Sukaku scores a set whose largest cell is of middling size higher than one whose
    // largest is small or large.
    let tenths = match technique {
        Technique::WxyzWing => 55 + 1 - (3 - largest).abs(),
        _ => 62 + 2 - (3 - largest).abs(),
    } as u16;
    if best.as_ref().is_some_and(|b| b.tenths < tenths) {
        return;
    }
    for pincer in 0..t.n * t.n {
        let cp = state.cands[pincer];
        if cp.count_ones() != 2 || cp & !held != 0 || set.contains(&pincer) {
            continue;
        }
        for x in [cp & cp.wrapping_neg(), cp & (cp - 1)] {
            let found = als_eliminations(state, set, pincer, x, |_, _| ());
            let better = match best {
                None => found > 0,
                Some(b) => found > 0 && (tenths < b.tenths || found > b.eliminations),
            };
            if better {
                let mut kept = [0; 4];
                kept[..set.len()].copy_from_slice(set);
                *best = Some(AlsWing {
                    tenths,
                    eliminations: found,
                    set: kept,
                    pincer,
                    x,
                });
            }
        }
    }
}

/// Whether every cell of `set` holding `digit` sees `pincer`.
fn links(state: &Candidates, set: &[usize], pincer: usize, digit: u64) -> bool {
    let t = &*state.tables;
    set.iter()
        .all(|&c| state.cands[c] & digit == 0 || t.sees(c, pincer))
}

/// Calls `each` with every elimination of the wing whose linking digit is `x` (none unless
/// it links), and returns how many.
fn als_eliminations(
    state: &Candidates,
    set: &[usize],
    pincer: usize,
    x: u64,
    mut each: impl FnMut(usize, u8),
) -> usize {
    if !links(state, set, pincer, x) {
        return 0;
    }
    let cp = state.cands[pincer];
    let z = cp & !x;
    let mut found = 0;
    let mut remove = |digit: u64, with_pincer: bool| {
        let holders = set.iter().copied().filter(|&c| state.cands[c] & digit != 0);
        found += eliminate_seeing(state, set, pincer, holders, with_pincer, digit, &mut each);
    };
    remove(z, true);
    if links(state, set, pincer, z) {
        remove(x, true);
        let held = set.iter().fold(0, |m, &c| m | state.cands[c]);
        for d in digits(held & !cp) {
            remove(1 << (d - 1), false);
        }
    }
    found
}

/// Calls `each` with every cell outside the wing that holds `digit` and sees all `holders`
/// (and the pincer, if `with_pincer`); returns how many.
fn eliminate_seeing(
    state: &Candidates,
    set: &[usize],
    pincer: usize,
    holders: impl Iterator<Item = usize> + Clone,
    with_pincer: bool,
    digit: u64,
    each: &mut impl FnMut(usize, u8),
) -> usize {
    let t = &*state.tables;
    let Some(first) = holders.clone().next() else {
        return 0;
    };
    let d = digit.trailing_zeros() as u8 + 1;
    let mut found = 0;
    for &q in t.peers(first) {
        let q = q as usize;
        if state.cands[q] & digit != 0
            && q != pincer
            && !set.contains(&q)
            && holders.clone().all(|c| t.sees(q, c))
            && (!with_pincer || t.sees(q, pincer))
        {
            each(q, d);
            found += 1;
        }
    }
    found
}
