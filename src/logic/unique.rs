//! Uniqueness techniques: they hold only for a puzzle of one solution, so the solver uses them
//! only once Dancing Links has proved the puzzle unique ([`super::LogicSolver`] asks it
//! lazily, when a pattern is found).
//!
//! - Unique rectangles: four cells in two rows, two columns and two boxes that could all hold
//!   only {a,b} would let a and b swap, a second solution. On a variant the swap keeps every
//!   group whole only when each group holding one of the four holds two of them, on one side
//!   of the rectangle (so a diagonal through one corner, or a window holding one, rules the
//!   rectangle out). Type 1: three of them are {a,b},
//!   so the fourth is not a or b. Type 2: the other two are {a,b,x}, so one of them is x and
//!   the cells seeing both lose x. Type 4: the other two share a unit where a has no other
//!   place, so one of them is a, and neither can be b. SE scores them 4.5.
//! - BUG+1 (bivalue universal grave): every empty cell has two candidates but one, which has
//!   three, and every digit has two places in each unit but in that cell's units. Without its
//!   extra digit the grid would have no solution or several, so that cell holds it. SE: 5.6.
//!   The proof (the other candidate of every cell is a solution too) holds for any groups.
//!
//! Neither is used on a killer board: a swap changes the sums of the cages it crosses.

use super::state::{Candidates, GroupSet, LogicTables, bits, digits, groups_in};
use super::step::Step;
use super::subsets::choose;
use super::technique::Technique;
use super::wings::collect_eliminations;

/// A unique rectangle of type 1, 2 or 4.
pub(crate) fn rectangle(state: &Candidates, step: &mut Step) -> bool {
    each_rectangle(state, |pair, cells| {
        type_1(state, step, pair, cells)
            || type_2(state, step, pair, cells)
            || type_4(state, step, pair, cells)
    })
}

/// Calls `found` with each rectangle whose four cells hold a pair (one of them only the pair)
/// and could swap it, until it returns true; returns whether it did. None on a killer board.
fn each_rectangle(state: &Candidates, mut found: impl FnMut(u64, [usize; 4]) -> bool) -> bool {
    let t = &*state.tables;
    let n = t.n;
    if t.has_cages() {
        return false;
    }
    for a in 0..n * n {
        let pair = state.cands[a];
        if pair.count_ones() != 2 {
            continue;
        }
        let (row_a, col_a) = (a / n, a % n);
        // B: another column of A's row; C, D: the same two columns in another row.
        for col_b in 0..n {
            let b = row_a * n + col_b;
            if col_b == col_a || state.cands[b] & pair != pair {
                continue;
            }
            for row_c in 0..n {
                let (c, d) = (row_c * n + col_a, row_c * n + col_b);
                if row_c == row_a || state.cands[c] & pair != pair || state.cands[d] & pair != pair
                {
                    continue;
                }
                let cells = [a, b, c, d];
                if swappable(t, cells) && found(pair, cells) {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether every unit that holds a cell of the rectangle `[a, b, c, d]` (a and b on one row,
/// c and d on another, a above c) holds exactly two, on one side: then swapping the two digits
/// keeps every unit whole. On a classic board: the four cells are in two boxes.
fn swappable(t: &LogicTables, cells: [usize; 4]) -> bool {
    let mut any = [0u64; 3];
    for &c in &cells {
        for (word, other) in any.iter_mut().zip(t.group_set(c)) {
            *word |= other;
        }
    }
    groups_in(&any).all(|u| {
        let held = (0..4).fold(0u8, |m, i| m | u8::from(t.holds(u, cells[i])) << i);
        // a-b and c-d are the rows' sides, a-c and b-d the columns'.
        matches!(held, 0b0011 | 0b1100 | 0b0101 | 0b1010)
    })
}

fn begin(step: &mut Step, pair: u64, cells: [usize; 4]) {
    step.begin(
        Technique::UniqueRectangle,
        Technique::UniqueRectangle.base_tenths(),
    );
    step.digits = pair;
    step.cells.extend(cells.map(|c| c as u16));
}

/// The cells of the rectangle with more than the pair.
fn roof(state: &Candidates, pair: u64, cells: [usize; 4]) -> Vec<usize> {
    cells
        .into_iter()
        .filter(|&c| state.cands[c] != pair)
        .collect()
}

fn type_1(state: &Candidates, step: &mut Step, pair: u64, cells: [usize; 4]) -> bool {
    let roof = roof(state, pair, cells);
    let [x] = roof[..] else {
        return false;
    };
    begin(step, pair, cells);
    for d in digits(pair) {
        step.eliminate(x, d);
    }
    true
}

fn type_2(state: &Candidates, step: &mut Step, pair: u64, cells: [usize; 4]) -> bool {
    let t = &*state.tables;
    let roof = roof(state, pair, cells);
    let [x, y] = roof[..] else {
        return false;
    };
    let extra = state.cands[x] & !pair;
    if extra.count_ones() != 1 || state.cands[y] & !pair != extra {
        return false;
    }
    let targets: Vec<usize> = t
        .peers(x)
        .iter()
        .map(|&p| p as usize)
        .filter(|&p| p != y && t.sees(p, y) && state.cands[p] & extra != 0)
        .collect();
    if targets.is_empty() {
        return false;
    }
    begin(step, pair, cells);
    let e = extra.trailing_zeros() as u8 + 1;
    for p in targets {
        step.eliminate(p, e);
    }
    true
}

fn type_4(state: &Candidates, step: &mut Step, pair: u64, cells: [usize; 4]) -> bool {
    let roof = roof(state, pair, cells);
    let [x, y] = roof[..] else {
        return false;
    };
    let Some((u, b)) = held_by_two(state, pair, x, y) else {
        return false;
    };
    begin(step, pair, cells);
    step.units.push(u);
    step.eliminate(x, b);
    step.eliminate(y, b);
    true
}

/// A unit holding cells `x` and `y` where one digit of `pair` has no other place, so one of
/// them holds it: the unit, and the pair's other digit, which neither can hold.
fn held_by_two(state: &Candidates, pair: u64, x: usize, y: usize) -> Option<(usize, u8)> {
    let t = &*state.tables;
    groups_in(&common_units(t, x, y)).find_map(|u| {
        digits(pair).find_map(|a| {
            let bit = 1u64 << (a - 1);
            let only_these = t
                .unit(u)
                .iter()
                .all(|&p| p as usize == x || p as usize == y || state.cands[p as usize] & bit == 0);
            only_these.then(|| (u, (pair & !bit).trailing_zeros() as u8 + 1))
        })
    })
}

/// The units holding both `x` and `y`.
fn common_units(t: &LogicTables, x: usize, y: usize) -> GroupSet {
    let mut common = *t.group_set(x);
    for (word, other) in common.iter_mut().zip(t.group_set(y)) {
        *word &= other;
    }
    common
}

/// BUG+1: the one cell of three candidates in a grid of bivalue cells takes the digit that
/// has three places in its units.
pub(crate) fn bug(state: &Candidates, step: &mut Step) -> bool {
    let t = &*state.tables;
    let n = t.n;
    if t.has_cages() {
        return false;
    }
    let mut three = None;
    for c in 0..n * n {
        match state.cands[c].count_ones() {
            0 | 2 => {}
            3 if three.is_none() => three = Some(c),
            _ => return false,
        }
    }
    let Some(cell) = three else {
        return false;
    };
    // The extra digit: the one with three places in each unit of the cell.
    let count = |u: usize, bit: u64| places_in(state, u, bit, |c| state.cands[c]);
    let mut extra = None;
    for d in digits(state.cands[cell]) {
        let bit = 1u64 << (d - 1);
        if t.units_of(cell)
            .iter()
            .all(|&u| count(u as usize, bit) == 3)
        {
            if extra.is_some() {
                return false;
            }
            extra = Some(d);
        }
    }
    let Some(d) = extra else {
        return false;
    };
    // Without it, every digit has zero or two places in every unit: a grave.
    let extra = 1u64 << (d - 1);
    if !is_grave(state, |c| {
        if c == cell {
            state.cands[c] & !extra
        } else {
            state.cands[c]
        }
    }) {
        return false;
    }
    step.begin(Technique::Bug, Technique::Bug.base_tenths());
    step.cells.push(cell as u16);
    step.digits = 1 << (d - 1);
    step.place(cell, d);
    true
}

/// BUG type 2: several cells of three or more candidates in a grid of bivalue cells, each with
/// the same one digit too many, which has three places in some unit of each. Without it they
/// would leave a grave (no solution or several), so one of them holds it, and cells seeing
/// them all lose it. Only in a puzzle proved unique; Sukaku Explainer's scale scores it 5.7.
pub(crate) fn bug_type_two(state: &Candidates, step: &mut Step) -> bool {
    let t = &*state.tables;
    let n = t.n;
    if t.has_cages() {
        return false;
    }
    let count = |u: usize, bit: u64| places_in(state, u, bit, |c| state.cands[c]);
    // The cells of more than two candidates, and the digit each has too many.
    let mut extra = 0u64;
    let mut cells: Vec<usize> = Vec::new();
    for u in 0..t.unit_count() {
        for e in digits(super::state::full_mask(n)) {
            let bit = 1u64 << (e - 1);
            let places = count(u, bit);
            if places == 0 || places == 2 {
                continue;
            }
            let mut wide = t
                .unit(u)
                .iter()
                .map(|&p| p as usize)
                .filter(|&p| state.cands[p] & bit != 0 && state.cands[p].count_ones() >= 3);
            match (wide.next(), wide.next()) {
                (None, _) => return false,
                (Some(c), None) => {
                    extra |= bit;
                    if !cells.contains(&c) {
                        cells.push(c);
                    }
                }
                // Two wide cells hold it here: another unit names the one it is too many in.
                (Some(_), Some(_)) => {}
            }
        }
    }
    if cells.len() < 2 || extra.count_ones() != 1 {
        return false;
    }
    // Without the extra digit in those cells, every cell is bivalue and every digit has zero
    // or two places in every unit: a grave.
    let without = |c: usize| {
        if cells.contains(&c) {
            state.cands[c] & !extra
        } else {
            state.cands[c]
        }
    };
    if (0..n * n).any(|c| state.values[c] == 0 && without(c).count_ones() != 2)
        || !is_grave(state, without)
    {
        return false;
    }
    step.begin(Technique::BugTypeTwo, Technique::BugTypeTwo.base_tenths());
    if !collect_eliminations(state, step, &cells, extra) {
        step.clear();
        return false;
    }
    step.cells.extend(cells.iter().map(|&c| c as u16));
    step.digits = extra;
    true
}

/// The places of digit mask `bit` in unit `u`, on the candidates `cands` gives each cell.
fn places_in(state: &Candidates, u: usize, bit: u64, cands: impl Fn(usize) -> u64) -> usize {
    state
        .tables
        .unit(u)
        .iter()
        .filter(|&&p| cands(p as usize) & bit != 0)
        .count()
}

/// Whether, on the candidates `cands` gives each cell, every digit has zero or two places in
/// every unit: a bivalue universal grave, which has no solution or several.
fn is_grave(state: &Candidates, cands: impl Fn(usize) -> u64 + Copy) -> bool {
    let t = &*state.tables;
    (0..t.unit_count()).all(|u| {
        digits(super::state::full_mask(t.n)).all(|e| {
            let places = places_in(state, u, 1 << (e - 1), cands);
            places == 0 || places == 2
        })
    })
}

/// A unique rectangle of type 3, on Sukaku Explainer's scale: the two cells beyond the pair
/// share a unit, and one of them holds one of their extra digits, so together they act as one
/// cell of those digits. With other cells of the unit they make a naked set, whose digits the
/// rest of the unit loses. Sukaku scores it 4.5 and a tenth per digit of the set beyond two.
pub(crate) fn rectangle_type_3(state: &Candidates, step: &mut Step) -> bool {
    // The smallest set first: it scores lowest.
    (2..=4).any(|size| {
        each_rectangle(state, |pair, cells| {
            naked_set(state, step, pair, cells, size)
        })
    })
}

/// Type 3 with a naked set of `size` digits in a unit of the rectangle's two extra cells.
fn naked_set(state: &Candidates, step: &mut Step, pair: u64, cells: [usize; 4], size: u32) -> bool {
    let t = &*state.tables;
    let roof = roof(state, pair, cells);
    let [x, y] = roof[..] else {
        return false;
    };
    let extra = (state.cands[x] | state.cands[y]) & !pair;
    if extra.count_ones() > size {
        return false;
    }
    for u in groups_in(&common_units(t, x, y)) {
        let unit = t.unit(u);
        // The unit's other empty cells whose digits, with the extra ones, fit in the set.
        let pool = (0..unit.len())
            .filter(|&i| {
                let c = unit[i] as usize;
                c != x
                    && c != y
                    && state.values[c] == 0
                    && (state.cands[c] | extra).count_ones() <= size
            })
            .fold(0u64, |m, i| m | 1 << i);
        // size - 1 of them with the extra digits hold `size` digits between them.
        let mut members = [0usize; 4];
        let mut set = None;
        choose(pool, size as usize - 1, &mut members, 0, 0, &mut |chosen| {
            let held = chosen
                .iter()
                .fold(extra, |m, &i| m | state.cands[unit[i] as usize]);
            let fits = held.count_ones() == size;
            if fits {
                set = Some((chosen.iter().fold(0u64, |m, &i| m | 1 << i), held));
            }
            fits
        });
        let Some((chosen, digits_of_set)) = set else {
            continue;
        };
        let removed: Vec<(usize, u8)> = (0..unit.len())
            .filter(|&i| chosen & 1 << i == 0)
            .map(|i| unit[i] as usize)
            .filter(|&c| c != x && c != y)
            .flat_map(|c| digits(state.cands[c] & digits_of_set).map(move |d| (c, d)))
            .collect();
        if removed.is_empty() {
            continue;
        }
        step.begin(
            Technique::UniqueRectangle,
            Technique::UniqueRectangle.base_tenths() + size as u16 - 1,
        );
        step.digits = pair;
        step.cells.extend(cells.map(|c| c as u16));
        step.cells.extend(bits(chosen).map(|i| unit[i]));
        step.units.push(u);
        for (c, d) in removed {
            step.eliminate(c, d);
        }
        return true;
    }
    false
}

/// A unique loop of `length` cells (six or eight), on Sukaku Explainer's scale: cells that all
/// hold the pair {a,b}, each unit that holds one holding exactly two, an odd number of steps
/// apart around the loop. Were they all {a,b}, a and b could alternate around the loop either
/// way: a second solution. Type 1: one cell holds more, so it is neither a nor b. Type 2: the
/// two cells holding more hold the same one extra digit, so one of them holds it, and cells
/// seeing both lose it. Type 4: two cells hold more and share a unit where a has no other
/// place, so neither is b. Sukaku scores a loop of six 4.6 and of eight 4.7.
pub(crate) fn unique_loop(state: &Candidates, step: &mut Step, length: usize) -> bool {
    let t = &*state.tables;
    if t.has_cages() {
        return false;
    }
    let mut path = Vec::with_capacity(length);
    for start in 0..t.n * t.n {
        let pair = state.cands[start];
        if pair.count_ones() != 2 {
            continue;
        }
        path.clear();
        path.push(start);
        if extend_loop(state, step, pair, &mut path, length) {
            return true;
        }
    }
    false
}

/// Extends `path` by a cell of the pair in a unit of its last, closing and trying the loop
/// at `length`.
fn extend_loop(
    state: &Candidates,
    step: &mut Step,
    pair: u64,
    path: &mut Vec<usize>,
    length: usize,
) -> bool {
    let t = &*state.tables;
    let last = *path.last().expect("a start");
    if path.len() == length {
        return t.sees(last, path[0])
            && is_unique_loop(t, path)
            && loop_conclusion(state, step, pair, path);
    }
    for &u in t.units_of(last) {
        for &c in t.unit(u as usize) {
            let c = c as usize;
            if path.contains(&c) || state.cands[c] & pair != pair {
                continue;
            }
            // Types 1, 2 and 4 as searched here have one or two cells beyond the pair: the
            // rest are the pair, which keeps the search small (rate --scale sukaku on the
            // 17-clue set).
            let beyond = |p: &usize| state.cands[*p] != pair;
            if beyond(&c) && path.iter().filter(|p| beyond(p)).count() >= 2 {
                continue;
            }
            // No unit may hold three cells of the loop.
            let crowded = t
                .units_of(c)
                .iter()
                .any(|&v| path.iter().filter(|&&p| t.holds(v as usize, p)).count() >= 2);
            if crowded {
                continue;
            }
            path.push(c);
            if extend_loop(state, step, pair, path, length) {
                return true;
            }
            path.pop();
        }
    }
    false
}

/// Whether every unit holding a cell of the loop holds two, an odd number of steps apart:
/// then a and b alternating around the loop put each once in each unit, either way round.
fn is_unique_loop(t: &LogicTables, path: &[usize]) -> bool {
    path.iter().all(|&c| {
        t.units_of(c).iter().all(|&u| {
            let at: Vec<usize> = (0..path.len())
                .filter(|&i| t.holds(u as usize, path[i]))
                .collect();
            at.len() == 2 && (at[1] - at[0]) % 2 == 1
        })
    })
}

/// Types 1, 2 and 4 of a unique loop: what the cells holding more than the pair conclude.
fn loop_conclusion(state: &Candidates, step: &mut Step, pair: u64, path: &[usize]) -> bool {
    let more: Vec<usize> = path
        .iter()
        .copied()
        .filter(|&c| state.cands[c] != pair)
        .collect();
    let tenths = Technique::UniqueRectangle.base_tenths() + (path.len() as u16 - 4) / 2;
    let begin = |step: &mut Step| {
        step.begin(Technique::UniqueLoop, tenths);
        step.digits = pair;
        step.cells.extend(path.iter().map(|&c| c as u16));
    };
    if more.is_empty() {
        return false;
    }
    if let [x] = more[..] {
        begin(step);
        for d in digits(pair) {
            step.eliminate(x, d);
        }
        return true;
    }
    // Type 2: the cells beyond the pair have the same one digit more.
    let extra = state.cands[more[0]] & !pair;
    // The loop's other cells are the pair alone, so only cells outside it lose the extra digit.
    if extra.count_ones() == 1 && more.iter().all(|&c| state.cands[c] & !pair == extra) {
        begin(step);
        if collect_eliminations(state, step, &more, extra) {
            return true;
        }
        step.clear();
    }
    // Type 4, tried after type 2 as Sukaku orders a loop's types.
    if let [x, y] = more[..]
        && let Some((u, b)) = held_by_two(state, pair, x, y)
    {
        begin(step);
        step.units.push(u);
        step.eliminate(x, b);
        step.eliminate(y, b);
        return true;
    }
    false
}
