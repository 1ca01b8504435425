//! Killer cages: a candidate that no combination of its cage allows goes.
//!
//! That a cage's digits are all different is not a technique here: cage mates are peers
//! ([`super::state::LogicTables`]), so a digit placed leaves its cage as it leaves its row, and
//! the wings, chains and forcing chains see it too. What the sum adds is the combination: the
//! cage's cells must hold, in some order, one of the sets of different digits that add up to
//! its sum ([`crate::board::Cage::digit_sets`]); a candidate that no such set and order allows,
//! given the other cells' candidates, goes. The solver counts the orders by a walk over the
//! subsets of a set (the digits used by the first cells), which is cheap for the cages people
//! draw and grows as 2^cells: cages whose walk would pass [`MAX_WALK`] states are left alone.

use super::state::{Candidates, bits};
use super::step::Step;
use super::technique::Technique;

/// The most subset states (digit sets x 2^cells) one cage's walk may visit: every cage of a
/// 9x9 killer fits (a 9-cell cage has one set, 512 states), a large board's big cages do not.
const MAX_WALK: usize = 1 << 16;

/// The first cage (in the board's order) with a candidate that none of its combinations allows:
/// every such candidate of it goes.
pub(crate) fn combination(state: &Candidates, step: &mut Step) -> bool {
    let t = &*state.tables;
    let mut allowed = [0u64; 64];
    let mut reach = Vec::new();
    let mut finish = Vec::new();
    for cage in &t.cages {
        let k = cage.cells.len();
        if k > MAX_WALK.ilog2() as usize || cage.digit_sets.len() << k > MAX_WALK {
            continue;
        }
        if cage.cells.iter().all(|&c| state.values[c as usize] != 0) {
            continue;
        }
        allowed[..k].fill(0);
        for &set in &cage.digit_sets {
            orders(
                state,
                &cage.cells,
                set,
                &mut reach,
                &mut finish,
                &mut allowed,
            );
        }
        let mut any = false;
        for (i, &c) in cage.cells.iter().enumerate() {
            let gone = state.cands[c as usize] & !allowed[i];
            for d in bits(gone) {
                if !any {
                    step.begin(
                        Technique::CageCombination,
                        Technique::CageCombination.base_tenths(),
                    );
                    step.cells.extend(&cage.cells);
                    any = true;
                }
                step.eliminate(c as usize, d as u8 + 1);
                step.digits |= 1 << d;
            }
        }
        if any {
            return true;
        }
    }
    false
}

/// Adds to `allowed[i]` every digit that cell i of `cells` takes in some order of `set` over
/// the cells (each cell a digit of its candidates, or its placed digit).
fn orders(
    state: &Candidates,
    cells: &[u16],
    set: u64,
    reach: &mut Vec<bool>,
    finish: &mut Vec<bool>,
    allowed: &mut [u64; 64],
) {
    let k = cells.len();
    // The set's digits, and each cell's options as positions among them.
    let digits: Vec<usize> = bits(set).collect();
    let options: Vec<u32> = cells
        .iter()
        .map(|&c| {
            let c = c as usize;
            let mask = match state.values[c] {
                0 => state.cands[c],
                v => 1 << (v - 1),
            };
            (0..k).fold(0, |m, j| m | u32::from(mask >> digits[j] & 1 == 1) << j)
        })
        .collect();
    let states = 1usize << k;
    // reach[m]: the first popcount(m) cells can use exactly the digits m; finish[m]: the other
    // cells can use exactly the rest.
    reach.clear();
    reach.resize(states, false);
    finish.clear();
    finish.resize(states, false);
    reach[0] = true;
    finish[states - 1] = true;
    for m in 0..states {
        let i = m.count_ones() as usize;
        if reach[m] && i < k {
            for j in bits(u64::from(options[i]) & !(m as u64)) {
                reach[m | 1 << j] = true;
            }
        }
    }
    for m in (0..states).rev() {
        let i = m.count_ones() as usize;
        if i < k && bits(u64::from(options[i]) & !(m as u64)).any(|j| finish[m | 1 << j]) {
            finish[m] = true;
        }
    }
    for m in 0..states {
        let i = m.count_ones() as usize;
        if i < k && reach[m] {
            for j in bits(u64::from(options[i]) & !(m as u64)) {
                if finish[m | 1 << j] {
                    allowed[i] |= 1 << digits[j];
                }
            }
        }
    }
}
