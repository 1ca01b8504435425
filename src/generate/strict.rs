//! Minimal given by given under a symmetry: check each given alone, and repair a puzzle where
//! one could go instead of throwing the attempt away.
//!
//! A puzzle P that is minimal per orbit can still have a given g whose removal alone keeps it
//! unique (the rest of its orbit O then forces it). Removing g alone would break the symmetry,
//! and no orbit can go, so P cannot be thinned further: it must change. On 9x9 with `rot180`
//! only about one orbit-minimal puzzle in 55 has no such given.
//!
//! **The repair** swaps O for another orbit. P less O has a second solution T (a witness, or
//! found by fixing a cell of O to each other digit in turn and completing), so an orbit H
//! empty in P where T differs from S kills it; H is added (again, up to 4 orbits, until
//! P - O + H is unique), and the orbits of the new puzzle are thinned once more, since H may
//! have made some of them redundant. The result is minimal per orbit again, and its givens are
//! checked alone afresh, up to [`Repairer::MAX_REPAIRS`] repairs an attempt.
//!
//! **Witnesses** make both cheap. Every check that finds a second solution T keeps it (as the
//! cells where it differs from S). T proves an orbit, or a single given, needed in any puzzle
//! whose givens meet those cells only inside it, whatever was removed since, so such orbits
//! and givens are not checked again; a repair that adds givens spoils only the proofs of the
//! witnesses that differ from S there. Among the orbits H that kill T, the repair takes one
//! that spoils the *most* proofs (ties at random): such an H kills many near-solutions at
//! once. Measured on 9x9 rot180 (100 puzzles, seed 1, 8 repairs an attempt): H at random took
//! 5.4 attempts and 718 checks a puzzle, the fewest spoiled 12.9 and 1,183, the most spoiled
//! 3.8 and 517.
//!
//! **A glance first.** Most orbit-minimal puzzles, and most repaired ones, have a given that
//! can go alone, and finding it is the point: each given is first checked with a budget of
//! [`Repairer::GLANCE_NODES`] nodes, and only the givens that no glance decided get the full
//! checks. A glance decides most of them either way (a given that can go is often forced
//! back at once; one that is needed often has a second solution close by), so the full
//! searches that prove the other givens needed are not paid before the one that can go
//! is met. That nearly halves the nodes of 16x16 rot180 strict generation
//! (`generate --box 4x4 --minimal -n 40 -j 1 --seed 400 --stats`) for under 1% more
//! instructions on 9x9 (callgrind, `generate --minimal -n 200 -j 1 --seed 1`).
//!
//! Every step keeps the puzzle unique, proved by the checker; a check that runs out of budget
//! ends the repairs (the attempt then counts as minimal per orbit only), never removes a given.

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64;

use super::order::Minimality;
use super::uniqueness::{Checker, Verdict};
use crate::budget::Deadline;
use crate::sudoku::Grid;

/// The orbits of a symmetry, the witnesses and the scratch of the repairs, built once per
/// generator.
#[derive(Debug)]
pub(crate) struct Repairer {
    /// The orbit of every cell.
    orbit_of: Vec<usize>,
    /// Second solutions met in this attempt.
    pub(crate) witnesses: Witnesses,
    /// Orbit numbers, shuffled for each re-thinning.
    sequence: Vec<usize>,
    /// Candidate orbits to add.
    candidates: Vec<usize>,
    /// Givens found removable alone in this attempt, newest last: checked first, since a
    /// repair changes the puzzle only near the orbit it swaps.
    suspects: Vec<usize>,
    /// Givens a glance left undecided, for the full checks.
    unknown: Vec<usize>,
}

impl Repairer {
    /// Repairs per attempt before it is given up. On 9x9 rot180 (100 puzzles, seed 1, by
    /// callgrind) 8 repairs took 3.8 attempts and 517 checks a puzzle, 20 took 2.6 and 479,
    /// 50 took 2.1 and 433, and the instructions fell with them (20.4M, 20.5M, 19.3M a
    /// puzzle).
    const MAX_REPAIRS: u32 = 50;

    /// The node budget of a glance at a given (see `removable_given`): of 10, 20, 50 and 200,
    /// 50 was the most even across seeds on 16x16 rot180
    /// (`generate --box 4x4 --minimal -n 40 -j 1 --seed S --stats`, S = 300, 400, 500).
    const GLANCE_NODES: u64 = 50;

    pub(crate) fn new(orbits: &[Vec<usize>], cells: usize) -> Repairer {
        let mut orbit_of = vec![0; cells];
        for (o, orbit) in orbits.iter().enumerate() {
            for &cell in orbit {
                orbit_of[cell] = o;
            }
        }
        Repairer {
            orbit_of,
            witnesses: Witnesses::new(cells, orbits),
            sequence: Vec::with_capacity(orbits.len()),
            candidates: Vec::with_capacity(orbits.len()),
            suspects: Vec::new(),
            unknown: Vec::new(),
        }
    }

    /// Makes the orbit-minimal `puzzle` minimal given by given, repairing it up to
    /// [`Repairer::MAX_REPAIRS`] times; returns the minimality proved (`Orbits` when the repairs ran out
    /// or a check was undecided), or `None` when the deadline passed.
    pub(crate) fn make_strict(
        &mut self,
        checker: &mut Checker,
        orbits: &[Vec<usize>],
        puzzle: &mut Grid,
        solution: &Grid,
        rng: &mut Pcg64,
        deadline: Option<Deadline>,
    ) -> Option<Minimality> {
        let mut repairs = 0;
        self.suspects.clear();
        loop {
            if deadline.is_some_and(|d| d.has_passed()) {
                return None;
            }
            let Some(bad) = self.removable_given(checker, orbits, puzzle, solution) else {
                return Some(Minimality::Givens);
            };
            if repairs == Repairer::MAX_REPAIRS {
                return Some(Minimality::Orbits);
            }
            repairs += 1;
            let before = puzzle.clone();
            let bad = self.orbit_of[bad];
            if self.repair(checker, orbits, puzzle, solution, bad, rng) != Some(true) {
                // No repair from here, or a check undecided: the orbit-minimal puzzle as it was.
                *puzzle = before;
                return Some(Minimality::Orbits);
            }
        }
    }

    /// The first given of an orbit of more than one cell of the unique `puzzle` that can go
    /// alone, or that a check could not prove needed within its budget; `None` when every such
    /// given is needed. Givens that a witness proves needed are not checked.
    fn removable_given(
        &mut self,
        checker: &mut Checker,
        orbits: &[Vec<usize>],
        puzzle: &mut Grid,
        solution: &Grid,
    ) -> Option<usize> {
        self.witnesses.certify(puzzle, &self.orbit_of, orbits);
        let suspects = self.suspects.iter().rev().copied();
        let rest = (orbits.iter())
            .filter(|orbit| orbit.len() > 1)
            .flatten()
            .copied();
        // A glance at every given first: most attempts have a given that can go, and a glance
        // finds many of them at once, before the full searches that prove the others needed.
        self.unknown.clear();
        for cell in suspects.chain(rest) {
            if puzzle.cells()[cell] == 0
                || self.witnesses.given_needed[cell]
                || self.unknown.contains(&cell)
            {
                continue;
            }
            let glance = Some(Repairer::GLANCE_NODES);
            match check_alone(&mut self.witnesses, checker, puzzle, cell, solution, glance) {
                Verdict::Multiple => {}
                Verdict::Undecided => self.unknown.push(cell),
                Verdict::Unique => return Some(self.suspect(cell)),
            }
        }
        for i in 0..self.unknown.len() {
            let cell = self.unknown[i];
            match check_alone(&mut self.witnesses, checker, puzzle, cell, solution, None) {
                Verdict::Multiple => {}
                // Not proved needed (undecided): repairing its orbit is as good a way on as for
                // a given that can go, since a repair needs only that the orbit is needed.
                Verdict::Unique | Verdict::Undecided => return Some(self.suspect(cell)),
            }
        }
        None
    }

    /// Notes `cell` as a suspect (checked first from now on) and returns it.
    fn suspect(&mut self, cell: usize) -> usize {
        if !self.suspects.contains(&cell) {
            self.suspects.push(cell);
        }
        cell
    }

    /// Swaps `bad` for orbits that keep `puzzle` unique, then thins the others again: `Some(true)`
    /// when `puzzle` is again unique and minimal per orbit, `Some(false)` when no swap was
    /// found, `None` when a check was undecided (either way `puzzle` is then half changed).
    fn repair(
        &mut self,
        checker: &mut Checker,
        orbits: &[Vec<usize>],
        puzzle: &mut Grid,
        solution: &Grid,
        bad: usize,
        rng: &mut Pcg64,
    ) -> Option<bool> {
        // A second solution of P less the bad orbit: a witness, or found afresh.
        let mut diff: Vec<u64> = match self.witnesses.for_orbit(puzzle, bad) {
            Some(diff) => diff.to_vec(),
            None => {
                set(puzzle, &orbits[bad], None);
                let other = second_solution(checker, puzzle, &orbits[bad], solution);
                let Some(other) = other else {
                    return Some(false);
                };
                self.witnesses.add(solution, &other);
                self.witnesses.last().to_vec()
            }
        };
        set(puzzle, &orbits[bad], None);
        let mut added = Vec::new();
        // P + added is unique throughout; P - bad + added is checked, until it is unique.
        loop {
            self.candidates.clear();
            for (o, orbit) in orbits.iter().enumerate() {
                let empty = orbit.iter().all(|&c| puzzle.cells()[c] == 0);
                let differs = (orbit.iter()).any(|&c| diff[c / 64] >> (c % 64) & 1 != 0);
                if o != bad && empty && differs {
                    self.candidates.push(o);
                }
            }
            if self.candidates.is_empty() || added.len() == max_added(puzzle.size()) {
                return Some(false);
            }
            // Of the orbits that kill the second solution, one that spoils the most proofs of
            // need: it kills the most near-solutions (see the module docs).
            let spoiled = |o: usize| self.witnesses.spoiled_by(o);
            let most = (self.candidates.iter()).map(|&o| spoiled(o)).max();
            self.candidates.retain(|&o| Some(spoiled(o)) == most);
            let h = self.candidates[rng.random_range(0..self.candidates.len())];
            set(puzzle, &orbits[h], Some(solution));
            added.push(h);
            match checker.removal(puzzle, &orbits[bad], solution) {
                Verdict::Unique => break,
                Verdict::Undecided => return None,
                Verdict::Multiple => {}
            }
            if checker.witness.is_none() {
                checker.witness = second_solution(checker, puzzle, &orbits[bad], solution);
            }
            let Some(other) = checker.witness.take() else {
                return Some(false);
            };
            self.witnesses.add(solution, &other);
            diff = self.witnesses.last().to_vec();
        }
        // Thin again: the added orbits may have made others redundant. The last one added is
        // needed (without it the puzzle was not unique), the earlier ones perhaps not; orbits
        // a witness proves needed stay.
        self.witnesses.certify(puzzle, &self.orbit_of, orbits);
        let last = added.last().copied();
        self.sequence.clear();
        self.sequence.extend((0..orbits.len()).filter(|&o| {
            Some(o) != last
                && !self.witnesses.orbit_needed[o]
                && orbits[o].iter().all(|&c| puzzle.cells()[c] != 0)
        }));
        self.sequence.shuffle(rng);
        for &o in &self.sequence {
            set(puzzle, &orbits[o], None);
            match checker.removal(puzzle, &orbits[o], solution) {
                Verdict::Unique => {}
                Verdict::Multiple => {
                    set(puzzle, &orbits[o], Some(solution));
                    self.witnesses.take(checker, solution);
                }
                Verdict::Undecided => return None,
            }
        }
        Some(true)
    }
}

/// Checks the given in `cell` of `puzzle` alone (at a glance of that many nodes, or in full).
/// When it is needed, the witness is kept and the given marked needed, so that a suspect,
/// which `removable_given` meets twice, is not checked twice (that also kept the witness
/// twice, counted twice in `spoiled_by`): on 9x9 (`generate --minimal -n 200 -j 1 --seed 1`,
/// callgrind) 479 checks a puzzle instead of 503, 2,477.8M instructions instead of 2,612.0M.
fn check_alone(
    witnesses: &mut Witnesses,
    checker: &mut Checker,
    puzzle: &mut Grid,
    cell: usize,
    solution: &Grid,
    glance: Option<u64>,
) -> Verdict {
    puzzle.cells_mut()[cell] = 0;
    let verdict = checker.check(puzzle, &[cell], solution, glance);
    puzzle.cells_mut()[cell] = solution.cells()[cell];
    if verdict == Verdict::Multiple {
        // Needed now, so needed in every puzzle thinned from this one.
        witnesses.take(checker, solution);
        witnesses.given_needed[cell] = true;
    }
    verdict
}

/// Orbits a repair may add before it gives up: 4 on 9x9; on 16x16 every failed repair of
/// seeds 1 to 5 had added 4 with orbits left to try, so larger grids may add n/2.
fn max_added(n: usize) -> usize {
    (n / 2).max(4)
}

/// Empties the cells of `orbit` (`None`) or gives them their digits of `solution`.
fn set(puzzle: &mut Grid, orbit: &[usize], solution: Option<&Grid>) {
    for &cell in orbit {
        puzzle.cells_mut()[cell] = solution.map_or(0, |s| s.cells()[cell]);
    }
}

/// A solution of `puzzle` other than `solution`, where every other solution differs from it on
/// a cell of `orbit`: each cell of the orbit is fixed to each of its other digits in turn and
/// completed. `None` when none was found within the checker's budget.
fn second_solution(
    checker: &mut Checker,
    puzzle: &mut Grid,
    orbit: &[usize],
    solution: &Grid,
) -> Option<Grid> {
    let n = puzzle.size() as u8;
    for &cell in orbit {
        for digit in (1..=n).filter(|&d| d != solution.cells()[cell]) {
            if checker.given_in_groups(puzzle, cell, digit) {
                continue;
            }
            puzzle.cells_mut()[cell] = digit;
            let found = checker.complete(puzzle, Some(solution));
            puzzle.cells_mut()[cell] = 0;
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// Second solutions met while thinning: each is a full grid T other than S, kept as the set
/// of cells where it differs from S. T proves an orbit O (or a single given) needed in any
/// puzzle P whose givens meet that set only inside O: T then solves P less O. Removals never
/// spoil such a proof, and a check can be skipped whenever one exists; after a repair adds
/// givens, only the proofs that the new givens touch are lost.
///
/// An attempt keeps a few hundred witnesses, and each certification reads them all, so the
/// bookkeeping is word-wise: orbits are cell masks, a certification notes the indices of the
/// witnesses that prove something and `spoiled_by` reads only those, one AND a word; a
/// certification walks a witness's givens bit by bit, since most meet two orbits within their
/// first two; a witness's cells are compared eight at a time. On 9x9 rot180 (`generate
/// --minimal -n 200 -j 1 --seed 1`, callgrind) this halved the witnesses' instructions, from
/// about 360M (cell by cell, `spoiled_by` over every witness) to 175M.
#[derive(Debug)]
pub(crate) struct Witnesses {
    words: usize,
    /// `words` words per orbit: its cells.
    orbit_cells: Vec<u64>,
    /// `words` words per witness: the cells where it differs from S.
    diffs: Vec<u64>,
    /// The givens of the puzzle last looked at, as a cell set.
    givens: Vec<u64>,
    /// Per cell: some witness shows this given needed alone.
    pub(crate) given_needed: Vec<bool>,
    /// Per orbit: some witness shows this orbit needed.
    pub(crate) orbit_needed: Vec<bool>,
    /// The witnesses that proved something at the last [`Witnesses::certify`].
    proving: Vec<usize>,
}

impl Witnesses {
    pub(crate) fn new(cells: usize, orbits: &[Vec<usize>]) -> Witnesses {
        let words = cells.div_ceil(64);
        let mut orbit_cells = vec![0; words * orbits.len()];
        for (o, orbit) in orbits.iter().enumerate() {
            for &cell in orbit {
                orbit_cells[o * words + cell / 64] |= 1 << (cell % 64);
            }
        }
        Witnesses {
            words,
            orbit_cells,
            diffs: Vec::new(),
            givens: vec![0; words],
            given_needed: vec![false; cells],
            orbit_needed: vec![false; orbits.len()],
            proving: Vec::new(),
        }
    }

    /// Notes the givens of `puzzle`.
    fn note_givens(&mut self, puzzle: &Grid) {
        self.givens.fill(0);
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            if d != 0 {
                self.givens[cell / 64] |= 1 << (cell % 64);
            }
        }
    }

    /// The cells of orbit `o`.
    fn orbit(&self, o: usize) -> &[u64] {
        &self.orbit_cells[o * self.words..(o + 1) * self.words]
    }

    /// Forgets every witness (a new attempt, a new S).
    pub(crate) fn clear(&mut self) {
        self.diffs.clear();
    }

    /// Keeps `other`, a solution (of some puzzle whose solution S is `solution`) other than S.
    pub(crate) fn add(&mut self, solution: &Grid, other: &Grid) {
        let words = solution.cells().chunks(64).zip(other.cells().chunks(64));
        self.diffs.extend(words.map(|(a, b)| {
            let (mut word, mut at) = (0u64, 0);
            for (a, b) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
                let eight = |c: &[u8]| u64::from_le_bytes(c.try_into().expect("eight cells"));
                word |= differing_bytes(eight(a) ^ eight(b)) << at;
                at += 8;
            }
            let rest = a[at..].iter().zip(&b[at..]).enumerate();
            rest.fold(word, |m, (i, (x, y))| m | u64::from(x != y) << (at + i))
        }));
    }

    /// Keeps the witness of the checker's last check, if it found one.
    pub(crate) fn take(&mut self, checker: &mut Checker, solution: &Grid) {
        if let Some(other) = checker.witness.take() {
            self.add(solution, &other);
        }
    }

    /// Marks the givens and orbits of the unique `puzzle` that some witness proves needed.
    pub(crate) fn certify(&mut self, puzzle: &Grid, orbit_of: &[usize], orbits: &[Vec<usize>]) {
        self.note_givens(puzzle);
        self.given_needed.fill(false);
        self.orbit_needed.fill(false);
        self.proving.clear();
        for (i, diff) in self.diffs.chunks_exact(self.words).enumerate() {
            // The givens it differs on, one by one: most witnesses meet two orbits within
            // their first two such givens, and are dropped there.
            let mut met = (diff.iter().zip(&self.givens))
                .enumerate()
                .flat_map(|(w, (&d, &g))| bits(d & g).map(move |b| w * 64 + b));
            // A puzzle that one of its own solutions' differences misses is not unique: skip.
            let Some(first) = met.next() else { continue };
            let orbit = orbit_of[first];
            let proves = match met.next() {
                None => {
                    self.given_needed[first] = true;
                    true
                }
                Some(second) => orbit_of[second] == orbit && met.all(|c| orbit_of[c] == orbit),
            };
            if proves {
                self.orbit_needed[orbit] = true;
                self.proving.push(i);
            }
        }
        debug_assert!(orbits.len() == self.orbit_needed.len());
    }

    /// How many of the witnesses that proved something at the last certification a given in
    /// each cell of orbit `o` would spoil (they differ from S there).
    fn spoiled_by(&self, o: usize) -> usize {
        let (words, cells) = (self.words, self.orbit(o));
        (self.proving.iter())
            .filter(|&&i| (0..words).any(|w| self.diffs[i * words + w] & cells[w] != 0))
            .count()
    }

    /// The differences of the witness added last.
    fn last(&self) -> &[u64] {
        &self.diffs[self.diffs.len() - self.words..]
    }

    /// A witness that `puzzle` less orbit `o` has a second solution: its differences meet the
    /// givens only inside the orbit, and meet the orbit. Returns the cells where it differs
    /// from S.
    fn for_orbit(&mut self, puzzle: &Grid, o: usize) -> Option<&[u64]> {
        self.note_givens(puzzle);
        let (givens, cells) = (&self.givens, self.orbit(o));
        self.diffs.chunks_exact(self.words).find(|diff| {
            let met = |w: usize| diff[w] & (givens[w] | cells[w]);
            (0..self.words).all(|w| met(w) & !cells[w] == 0) && (0..self.words).any(|w| met(w) != 0)
        })
    }
}

/// The set bits of a word, lowest first.
fn bits(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let b = word.trailing_zeros() as usize;
            word &= word - 1;
            b
        })
    })
}

/// One bit per byte of `x`, lowest first: whether that byte is not zero.
fn differing_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // The top bit of each byte: set when the byte is not zero (no carry crosses bytes).
    let tops = (((x & LOW7) + LOW7) | x) & !LOW7;
    // Gathers bit 8i (of byte i) at bit 56 + i: no two products meet, so nothing carries.
    (tops >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

#[cfg(test)]
mod tests {
    use super::differing_bytes;

    #[test]
    fn differing_bytes_marks_exactly_the_nonzero_bytes() {
        for mask in 0u64..256 {
            for fill in [1u8, 0x7f, 0x80, 0xff] {
                let x = (0..8)
                    .filter(|i| mask >> i & 1 != 0)
                    .fold(0u64, |x, i| x | u64::from(fill) << (8 * i));
                assert_eq!(differing_bytes(x), mask, "{x:#x}");
            }
        }
    }
}
