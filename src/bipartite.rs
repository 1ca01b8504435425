//! Perfect matchings of small bipartite graphs held as bitsets, and the edges no perfect
//! matching uses: Régin's all-different filter (1994), with Hall sets as the reasons for its
//! verdicts. Two searches use it: the CSP makes each unit of a board generalised-arc-consistent
//! with it (`csp::propagate`), and the learning Dancing Links search checks Hall's condition
//! on its declared matchings with it (`exact_cover::learn::hall`). It is a leaf: it imports
//! nothing from the crate, so that neither search depends on the other through it.
//!
//! The words are a Sudoku unit's: the left side are cells, the right side digits, and a
//! cell's domain is the set of digits it may still take. A digit stays in a cell's domain
//! only if some way of giving the unit's cells different digits gives it to that cell.
//!
//! A unit has n cells and n digits, so a way of filling it is a perfect matching of its cells
//! to its digits. Its assigned cells hold their digits, which forward checking has removed
//! from the open cells, so only the open cells and the unit's missing digits take part. Two
//! steps, on bitsets (at most 64 cells and 64 digits, and a domain is already a digit set):
//!
//! 1. **A perfect matching**, by augmenting paths found breadth-first: the digits reached from
//!    a set of cells are the union of their domains. It starts from the matching of the last
//!    time this unit was checked, kept per unit as a hint (what still holds of it is kept,
//!    the rest filled greedily), so usually few cells need a path. A cell with no augmenting
//!    path means no perfect matching: the unit cannot be filled, a contradiction. This
//!    subsumes the pigeonhole check and naked and hidden subsets of every size.
//! 2. **The edges on alternating cycles.** With a perfect matching M, an edge (cell, digit)
//!    not in M is in another perfect matching iff it lies on a cycle alternating between M and
//!    other edges. Each matched pair is one node, with an arc from cell c to cell c' when c has
//!    the digit matched to c' (c -> that digit outside M, then the digit -> c' in M); the edge
//!    survives iff c and c' are in the same strongly connected component. The components come
//!    from forward and backward reachability on bitsets (a pivot's component is what it
//!    reaches and what reaches it), about n unions per component.
//!
//! The scratch arrays live in the [`AllDiff`] owned by the search, so a check allocates
//! nothing.
//!
//! The learning Dancing Links search uses the same check on its groups and needs a reason for
//! each verdict: [`AllDiff::hall_violation`] names a set of cells with fewer digits than cells
//! after a failure, and [`AllDiff::filled_by`] the set of cells that takes a removed digit
//! after a prune (Hall's theorem: a set S of cells whose domains hold exactly |S| digits
//! takes those digits, so no other cell can).

/// No hint for a cell: its matched digit is not known.
const NO_DIGIT: u8 = u8::MAX;

/// The matching hints of every unit and the scratch space of one check.
#[derive(Clone, Debug)]
pub(crate) struct AllDiff {
    /// The side n of a unit: its number of cells and of digits.
    n: usize,
    /// The digit (0-based) matched to each position of each unit the last time it was checked
    /// (`n` per unit), or [`NO_DIGIT`]. Only a hint: it is checked against the domains before
    /// use, so it needs no undoing on backtracking.
    hints: Vec<u8>,
    /// The digit matched to each open cell of the unit being checked.
    mate: [u8; 64],
    /// The open cell (index into the domains) matched to each digit.
    owner: [u8; 64],
    /// For each digit reached by the breadth-first search, the cell it was reached from.
    parent: [u8; 64],
    /// Arcs of the component graph: the cells each cell reaches in one step, and the cells
    /// that reach it.
    succ: [u64; 64],
    pred: [u64; 64],
    /// After a failed check: cells (indices into the domains) whose domains hold fewer digits
    /// than they are, and those digits.
    hall: (u64, u64),
}

impl AllDiff {
    /// Room for `units` units of side `n`, with no hints.
    pub fn new(n: usize, units: usize) -> AllDiff {
        AllDiff {
            n,
            hints: vec![NO_DIGIT; n * units],
            mate: [NO_DIGIT; 64],
            owner: [NO_DIGIT; 64],
            parent: [0; 64],
            succ: [0; 64],
            pred: [0; 64],
            hall: (0, 0),
        }
    }

    /// Makes unit `u` generalised-arc-consistent. `doms` are the domains of its open cells
    /// (digit bitsets), `positions` their places in the unit (for the hints), and `missing`
    /// the digits the unit still needs, as many as there are open cells. Narrows `doms` to
    /// the digits that some perfect matching gives each cell; returns false if there is no
    /// perfect matching.
    pub fn prune(&mut self, u: usize, positions: &[u8], doms: &mut [u64], missing: u64) -> bool {
        let m = doms.len();
        debug_assert!(m <= 64 && positions.len() == m);
        if missing.count_ones() as usize != m {
            self.hall = (low_bits(m), missing);
            return false;
        }
        if nothing_to_prune(doms, missing) {
            return true;
        }
        if !self.match_cells(u, positions, doms) {
            return false;
        }
        self.keep_cycles(doms);
        true
    }

    /// Finds a perfect matching of `doms` into `mate`/`owner`, starting from the unit's
    /// hints; false if there is none. Saves the matching as the new hints.
    fn match_cells(&mut self, u: usize, positions: &[u8], doms: &[u64]) -> bool {
        let hints = u * self.n..(u + 1) * self.n;
        let mut used = 0u64;
        let mut free = 0u64;
        for (k, (&d, &at)) in doms.iter().zip(positions).enumerate() {
            let hint = self.hints[hints.start + at as usize];
            if hint != NO_DIGIT && d >> hint & 1 != 0 && used >> hint & 1 == 0 {
                self.mate[k] = hint;
                self.owner[hint as usize] = k as u8;
                used |= 1 << hint;
            } else {
                free |= 1 << k;
            }
        }
        // Greedy for the rest: each takes its lowest unused digit, if any.
        let mut unmatched = 0u64;
        for k in bits(free) {
            let open = doms[k] & !used;
            if open == 0 {
                unmatched |= 1 << k;
                continue;
            }
            let digit = open.trailing_zeros() as u8;
            self.mate[k] = digit;
            self.owner[digit as usize] = k as u8;
            used |= 1 << digit;
        }
        for k in bits(unmatched) {
            if !self.augment(doms, k, &mut used) {
                return false;
            }
        }
        let hints = &mut self.hints[hints];
        for (&at, &digit) in positions.iter().zip(&self.mate) {
            hints[at as usize] = digit;
        }
        true
    }

    /// Matches the unmatched cell `start` by an augmenting path found breadth-first, flipping
    /// the path; false if there is none.
    fn augment(&mut self, doms: &[u64], start: usize, used: &mut u64) -> bool {
        let mut seen = 0u64; // digits reached
        let mut frontier = 1u64 << start; // cells to expand
        let mut visited = frontier;
        while frontier != 0 {
            let mut next = 0u64;
            for c in bits(frontier) {
                let new = doms[c] & !seen;
                if new == 0 {
                    continue;
                }
                seen |= new;
                for digit in bits(new) {
                    self.parent[digit] = c as u8;
                }
                let open = new & !*used;
                if open != 0 {
                    // Flip the path back to the start: each cell takes the digit after it.
                    let mut digit = open.trailing_zeros() as usize;
                    *used |= 1 << digit;
                    loop {
                        let cell = self.parent[digit] as usize;
                        let previous = self.mate[cell];
                        self.mate[cell] = digit as u8;
                        self.owner[digit] = cell as u8;
                        if cell == start {
                            return true;
                        }
                        digit = previous as usize;
                    }
                }
                for digit in bits(new) {
                    next |= 1 << self.owner[digit];
                }
            }
            frontier = next;
            visited |= next;
        }
        // Every digit the cells reach is matched to another of them: one cell too many.
        self.hall = (visited, seen);
        false
    }

    /// After [`AllDiff::prune`] returned false: a set of cells (bits of indices into the
    /// domains) and the union of their domains, which has fewer digits than there are cells.
    pub fn hall_violation(&self) -> (u64, u64) {
        self.hall
    }

    /// After [`AllDiff::prune`] returned true and removed `digit` from some cell's domain: a
    /// set of cells (bits of indices into the domains, the cell not among them) and the union
    /// of their domains before the prune, with as many digits as cells, `digit` among them.
    /// Those cells take those digits in every filling, so no other cell can take `digit`.
    /// Only for a prune that ran the matching (a removed digit means it did).
    pub fn filled_by(&self, digit: usize, m: usize) -> (u64, u64) {
        // The cells that the owner of `digit` reaches: their domains hold only digits matched
        // within the set, and the cell that lost `digit` is in another component.
        let cells = closure(&self.succ, 1 << self.owner[digit], low_bits(m));
        let digits = bits(cells).fold(0u64, |acc, k| acc | 1 << self.mate[k]);
        (cells, digits)
    }

    /// Narrows every domain to its matched digit and the digits matched within its cell's
    /// strongly connected component.
    fn keep_cycles(&mut self, doms: &mut [u64]) {
        let m = doms.len();
        self.pred[..m].fill(0);
        for (k, &d) in doms.iter().enumerate() {
            let mut reach = 0u64;
            for digit in bits(d & !(1 << self.mate[k])) {
                let j = self.owner[digit] as usize;
                reach |= 1 << j;
                self.pred[j] |= 1 << k;
            }
            self.succ[k] = reach;
        }
        let mut left = low_bits(m);
        while left != 0 {
            let pivot = left.trailing_zeros() as usize;
            let forward = closure(&self.succ, 1 << pivot, left);
            let component = closure(&self.pred, 1 << pivot, forward);
            left &= !component;
            if pivot == 0 && left == 0 {
                return; // The first component holds every cell: nothing to remove.
            }
            let digits = bits(component).fold(0u64, |acc, k| acc | 1 << self.mate[k]);
            for k in bits(component) {
                doms[k] &= digits;
            }
        }
    }
}

/// Whether Hall's condition shows, without a matching, that the unit has a perfect matching
/// and every edge is in one, so that [`AllDiff::prune`] would leave `doms` as they are. With
/// `m` open cells whose smallest domain has `a` digits, a proper set S of cells that fills its
/// digits (|N(S)| = |S|, the only thing that removes candidates or fails) has at least `a`
/// cells, so the digits outside N(S) have their places among the other `m - a` cells or
/// fewer: when every missing digit has more places than that, there is no such S. On
/// near-empty large grids nearly every unit passes, and this screen, a popcount per cell and
/// a bit-sliced count of places per digit, takes the place of the matching and the
/// components (`easy_end.sh`: the empty 64x64 grid at `alldiff`).
fn nothing_to_prune(doms: &[u64], missing: u64) -> bool {
    let m = doms.len() as u32;
    let (mut smallest, mut places) = (u32::MAX, 0);
    for d in doms {
        let size = d.count_ones();
        smallest = smallest.min(size);
        places += size;
    }
    // Every missing digit needs at least `m - smallest + 1` places; first the total, which
    // rules out most units of a grid that is not nearly empty for m popcounts.
    let threshold = m - smallest.min(m) + 1;
    if smallest == 0 || places < m * threshold {
        return false;
    }
    // Then digit by digit: places per digit in seven bit planes (up to 127), compared with
    // the threshold plane by plane.
    let mut planes = [0u64; 7];
    for &d in doms {
        let mut carry = d;
        for plane in planes.iter_mut() {
            if carry == 0 {
                break;
            }
            let sum = *plane ^ carry;
            carry &= *plane;
            *plane = sum;
        }
    }
    let (mut above, mut equal) = (0u64, u64::MAX);
    for (i, &plane) in planes.iter().enumerate().rev() {
        if threshold >> i & 1 != 0 {
            equal &= plane;
        } else {
            above |= equal & plane;
            equal &= !plane;
        }
    }
    missing & !(above | equal) == 0
}

/// The indices of the set bits of `mask`, lowest first: the cells of a set, the digits of a
/// domain.
#[inline]
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(i)
        }
    })
}

/// The `m` lowest bits.
pub(crate) fn low_bits(m: usize) -> u64 {
    if m >= 64 { u64::MAX } else { (1 << m) - 1 }
}

/// The nodes reachable from `from` by `arcs`, staying inside `within`.
#[inline]
fn closure(arcs: &[u64; 64], from: u64, within: u64) -> u64 {
    let mut reached = from;
    let mut frontier = from;
    while frontier != 0 {
        let next = bits(frontier).fold(0u64, |acc, k| acc | arcs[k]);
        frontier = next & within & !reached;
        reached |= frontier;
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::{RngExt, SeedableRng};

    /// Every assignment of different digits of `missing` to the cells, one per permutation:
    /// the candidates some filling uses, or `None` when there is no filling.
    fn fillings(doms: &[u64], missing: u64) -> Option<Vec<u64>> {
        fn extend(doms: &[u64], k: usize, used: u64, chosen: &mut Vec<u64>, kept: &mut [u64]) {
            if k == doms.len() {
                for (keep, &bit) in kept.iter_mut().zip(chosen.iter()) {
                    *keep |= bit;
                }
                return;
            }
            for digit in bits(doms[k] & !used) {
                chosen.push(1 << digit);
                extend(doms, k + 1, used | 1 << digit, chosen, kept);
                chosen.pop();
            }
        }
        let doms: Vec<u64> = doms.iter().map(|d| d & missing).collect();
        let mut kept = vec![0; doms.len()];
        extend(&doms, 0, 0, &mut Vec::new(), &mut kept);
        kept.iter().all(|&k| k != 0).then_some(kept)
    }

    proptest! {
        /// The screen never skips a unit the matching would narrow or fail, and the matching
        /// keeps exactly the candidates some filling uses.
        #[test]
        fn the_screen_skips_only_units_with_nothing_to_prune(
            m in 3usize..=7,
            dense in 0.5f64..1.0,
            seeds in proptest::collection::vec(any::<u64>(), 7),
        ) {
            let missing = (1u64 << m) - 1;
            // A cell keeps each digit with probability `dense`, read from its seed's bits.
            let doms: Vec<u64> = seeds[..m]
                .iter()
                .map(|&seed| {
                    bits(missing)
                        .filter(|&digit| {
                            let draw = (seed.rotate_left(9 * digit as u32) & 0xff) as f64;
                            draw < dense * 256.0
                        })
                        .fold(0, |acc, digit| acc | 1 << digit)
                })
                .collect();
            let expected = fillings(&doms, missing);
            if nothing_to_prune(&doms, missing) {
                prop_assert_eq!(expected.as_deref(), Some(&doms[..]));
            }
            let mut pruned = doms.clone();
            let positions: Vec<u8> = (0..m as u8).collect();
            let ok = AllDiff::new(m, 1).prune(0, &positions, &mut pruned, missing);
            prop_assert_eq!(ok, expected.is_some());
            if let Some(expected) = expected {
                prop_assert_eq!(pruned, expected);
            }
        }
    }

    #[test]
    fn the_screen_passes_full_domains_and_stops_at_a_tight_pair() {
        let full = [0b1111u64; 4];
        assert!(nothing_to_prune(&full, 0b1111));
        // Two cells holding only digits 0 and 1: the others lose them.
        let pair = [0b0011, 0b0011, 0b1111, 0b1111];
        assert!(!nothing_to_prune(&pair, 0b1111));
        let mut pruned = pair;
        assert!(AllDiff::new(4, 1).prune(0, &[0, 1, 2, 3], &mut pruned, 0b1111));
        assert_eq!(pruned, [0b0011, 0b0011, 0b1100, 0b1100]);
    }

    #[test]
    fn alldiff_keeps_exactly_the_edges_of_some_perfect_matching() {
        // Random unit graphs of up to 7 cells against every permutation. Each unit index is
        // used twice in a row, so the second check starts from the first one's matching.
        // Seeded, as every random test here: the project's generator, rand_pcg's.
        let mut rng = rand_pcg::Pcg64::seed_from_u64(0x5eed_a11d_1ff0_0001);
        let mut checker = AllDiff::new(7, 8);
        for round in 0..4000 {
            let m = rng.random_range(1..8usize);
            let full = (1u64 << m) - 1;
            // Dense enough that about half of the graphs have a perfect matching.
            let mut doms: Vec<u64> = (0..m)
                .map(|_| rng.random::<u64>() & rng.random::<u64>() | rng.random::<u64>() & full)
                .collect();
            for d in &mut doms {
                *d &= full;
            }
            let mut supported = vec![0u64; m];
            let mut any = false;
            each_permutation(m, &mut |perm| {
                if perm.iter().enumerate().all(|(k, &d)| doms[k] >> d & 1 != 0) {
                    any = true;
                    for (k, &d) in perm.iter().enumerate() {
                        supported[k] |= 1 << d;
                    }
                }
            });
            let positions: Vec<u8> = (0..m as u8).collect();
            let mut pruned = doms.clone();
            let ok = checker.prune(round % 8, &positions, &mut pruned, full);
            assert_eq!(ok, any, "{doms:?}");
            if ok {
                assert_eq!(pruned, supported, "{doms:?}");
            }
        }
    }

    /// Calls `f` with every permutation of 0..m.
    fn each_permutation(m: usize, f: &mut dyn FnMut(&[usize])) {
        fn go(perm: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&[usize])) {
            if k == perm.len() {
                return f(perm);
            }
            for i in k..perm.len() {
                perm.swap(k, i);
                go(perm, k + 1, f);
                perm.swap(k, i);
            }
        }
        go(&mut (0..m).collect(), 0, f);
    }
}
