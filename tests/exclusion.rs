//! Counting with candidates ruled out (`count_excluding`), which the generator's uniqueness
//! checks use to search for a solution other than the one they know: every engine against a
//! brute-force count, and the links restored. The
//! checks also make the searches try the known solution's digits first (`set_preferred`),
//! which must change what is found first, never what is counted.

use proptest::prelude::*;
use quadrille::Budget;
use quadrille::board::{Cell, Digit};
use quadrille::csp::{Config, CspSolver};
use quadrille::engine::{DlxSolver, Engine, Solve, Solver};
use quadrille::generate::{random_grid, random_puzzle};
use quadrille::io::puzzle::parse_line;
use quadrille::restart::Restarts;
use quadrille::sudoku::{Grid, Shape};

use crate::support::oracle::Rules;

/// Cells and digits as the engines take them.
fn placements(excluded: &[(usize, u8)]) -> Vec<(Cell, Digit)> {
    let placement = |&(cell, digit): &(usize, u8)| (Cell::new(cell), Digit::new(digit).unwrap());
    excluded.iter().map(placement).collect()
}

/// The solutions of `puzzle` with no cell of `excluded` holding its digit, by brute force.
fn oracle(puzzle: &Grid, excluded: &[(usize, u8)]) -> u64 {
    let shape = puzzle.shape();
    Rules::sudoku(shape.box_rows(), shape.box_cols()).count_avoiding(puzzle.cells(), excluded)
}

/// The engines a generator may check with: the CSP, plain Dancing Links, Dancing Links
/// with learning forced on and runs of one node, so that a search for one solution is the
/// learning search after its first node, and the bitboard search.
fn checkers(shape: Shape) -> Vec<(&'static str, Solver)> {
    let board = shape.board();
    let mut learning = DlxSolver::new(board);
    learning.set_learning(true);
    learning.set_restarts(Some(Restarts { seed: 7, unit: 1 }));
    let mut plain = DlxSolver::new(board);
    plain.set_learning(false);
    vec![
        (
            "csp",
            Solver::new(Engine::Csp(Config::default()), board).unwrap(),
        ),
        ("dlx", Solver::Dlx(plain)),
        ("dlx+learning", Solver::Dlx(learning)),
        ("bitboard", Solver::new(Engine::Bitboard, board).unwrap()),
    ]
}

prop_compose! {
    /// A random puzzle of a small shape (4x4, 6x6 either way) with up to 13 givens (12 more on
    /// 6x6: it has 28,200,960 grids, and the oracle's counts must stay short), and up to
    /// `max_excluded` candidates to rule out, anywhere on its board (given cells and repeats
    /// included).
    fn case(max_excluded: usize)(
        shape in prop::sample::select(vec![(2, 2), (2, 3), (3, 2)]),
        seed in 0u64..10_000,
        givens in 0usize..14,
        excluded in prop::collection::vec((0usize..36, 1u8..=6), 0..=max_excluded),
    ) -> (Grid, Vec<(usize, u8)>) {
        let shape = Shape::new(shape.0, shape.1).unwrap();
        let n = shape.size();
        let givens = if n == 4 { givens } else { 12 + givens };
        let excluded = (excluded.into_iter())
            .map(|(cell, digit)| (cell % (n * n), (digit - 1) % n as u8 + 1))
            .collect();
        (random_puzzle(shape, seed, givens), excluded)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On random puzzles of small shapes, with up to three candidates ruled out (given cells
    /// and repeated cells included), every engine counts what the oracle counts, and a search
    /// for one solution finds one exactly when there is one, agreeing with the givens and
    /// avoiding every excluded candidate.
    #[test]
    fn every_engine_counts_what_brute_force_counts((puzzle, excluded) in case(3)) {
        let expected = oracle(&puzzle, &excluded);
        for (name, mut solver) in checkers(puzzle.shape()) {
            let all = solver.count_excluding(&puzzle, &placements(&excluded), None, &Budget::unlimited());
            prop_assert_eq!(all.solutions, expected, "{} counts", name);
            prop_assert!(all.is_complete());
            let one = solver.count_excluding(&puzzle, &placements(&excluded), Some(1), &Budget::unlimited());
            prop_assert_eq!(one.solutions, expected.min(1), "{} finds one", name);
            if let Some(solution) = one.solution {
                for (cell, (&given, &digit)) in puzzle.cells().iter().zip(solution.cells()).enumerate() {
                    prop_assert!(given == 0 || given == digit, "{}: given at {}", name, cell);
                }
                for &(cell, digit) in &excluded {
                    prop_assert_ne!(solution.cells()[cell], digit, "{}: excluded at {}", name, cell);
                }
            }
            // The exclusions are undone: a plain count after them is the plain count.
            let plain = solver.count(&puzzle, None, &Budget::unlimited()).solutions;
            prop_assert_eq!(plain, oracle(&puzzle, &[]), "{} after excluding", name);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Preferring a grid's digits changes no count: on random puzzles of small shapes, with a
    /// candidate or two ruled out and any full grid preferred, every engine still counts what
    /// the oracle counts, and finds one solution exactly when there is one. Preferring one of
    /// the puzzle's own solutions (with nothing ruled out), that solution is the one found
    /// first: the search goes straight down to it.
    #[test]
    fn preferred_digits_change_what_is_found_first_not_the_count(
        (puzzle, excluded) in case(2),
        other in 0u64..10_000,
    ) {
        let shape = puzzle.shape();
        let expected = oracle(&puzzle, &excluded);
        let near = random_grid(shape, other);
        let mut plain = CspSolver::new(shape.board(), Config::default());
        let own = plain.solve(&puzzle).solution.expect("a random puzzle keeps a grid's givens");
        for (name, mut solver) in checkers(shape) {
            solver.set_preferred(Some(&near));
            let all = solver.count_excluding(&puzzle, &placements(&excluded), None, &Budget::unlimited());
            prop_assert_eq!(all.solutions, expected, "{} counts, preferring", name);
            prop_assert!(all.is_complete());
            let one = solver.count_excluding(&puzzle, &placements(&excluded), Some(1), &Budget::unlimited());
            prop_assert_eq!(one.solutions, expected.min(1), "{} finds one, preferring", name);
            if let Some(found) = &one.solution {
                for &(cell, digit) in &excluded {
                    prop_assert_ne!(found.cells()[cell], digit, "{}: excluded at {}", name, cell);
                }
            }
            solver.set_preferred(Some(&own));
            let first = solver.count(&puzzle, Some(1), &Budget::unlimited());
            prop_assert_eq!(first.solution.as_ref(), Some(&own), "{} goes to the preferred", name);
            // And back to the usual order: the plain count again.
            solver.set_preferred(None);
            let again = solver.count(&puzzle, None, &Budget::unlimited()).solutions;
            prop_assert_eq!(again, oracle(&puzzle, &[]), "{} after preferring", name);
        }
    }
}

/// On a 9x9 puzzle with one solution S, ruling out S's digit in one empty cell leaves no
/// solution, and in every engine; ruling out a wrong digit leaves S alone.
#[test]
fn ruling_out_the_solution_leaves_nothing() {
    let puzzle = parse_line(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        None,
    )
    .unwrap();
    let mut csp = CspSolver::new(puzzle.shape().board(), Config::default());
    let solution = csp.solve(&puzzle).solution.unwrap();
    let cell = (puzzle.cells().iter()).position(|&d| d == 0).unwrap();
    let right = solution.cells()[cell];
    let wrong = right % 9 + 1;
    for (name, mut solver) in checkers(puzzle.shape()) {
        let none = solver.count_excluding(
            &puzzle,
            &placements(&[(cell, right)]),
            Some(2),
            &Budget::unlimited(),
        );
        assert_eq!(none.solutions, 0, "{name}");
        assert!(none.is_complete(), "{name}");
        // Twice the same candidate is ruled out once (in a debug build, Dancing Links checks
        // its links after every search).
        let twice = [(cell, wrong), (cell, wrong)];
        let same =
            solver.count_excluding(&puzzle, &placements(&twice), Some(2), &Budget::unlimited());
        assert_eq!(same.solutions, 1, "{name}");
        assert_eq!(same.solution.as_ref(), Some(&solution), "{name}");
    }
}
