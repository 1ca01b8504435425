//! The bitboard searches against Dancing Links, and the tables they read.

use super::BitboardSolver;
use super::tables::{Bitboard, fold};
use crate::budget::{Budget, Stop};
use crate::engine::{DlxSolver, Solve};
use crate::generate::unique_puzzle;
use crate::sudoku::Grid;
use crate::sudoku::Shape;
use crate::sudoku::check::check_solution;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// Against plain Dancing Links: on unique puzzles of several shapes (both widths), less
/// one to three random givens, a second solution is found exactly when DLX counts two,
/// and it solves the puzzle and differs from S.
fn agrees_with_dlx<const W: usize, const N: usize>(r: usize, c: usize) {
    let shape = Shape::new(r, c).unwrap();
    let mut bitboard = Bitboard::<W, N>::new(shape.board()).expect("small enough");
    let mut dlx = DlxSolver::sudoku(shape);
    dlx.set_restarts(None);
    let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
    let (mut unique, mut multiple) = (0, 0);
    for seed in 0..12 {
        // Minimal puzzles (every removal gives two solutions) and fuller ones.
        let floor = if seed % 2 == 0 {
            0
        } else {
            shape.cell_count() / 2
        };
        let puzzle = unique_puzzle(shape, seed, floor);
        let solution = dlx.solve(&puzzle).solution.expect("unique");
        let given: Vec<usize> = (0..shape.cell_count())
            .filter(|&i| puzzle.cells()[i] != 0)
            .collect();
        for _ in 0..10 {
            let k = rng.random_range(1..=3usize.min(given.len()));
            let mut removed = given.clone();
            removed.shuffle(&mut rng);
            removed.truncate(k);
            let mut less = puzzle.clone();
            for &cell in &removed {
                less.cells_mut()[cell] = 0;
            }
            let found = bitboard.other_solution(&less, &removed, &solution, u64::MAX);
            assert!(found.complete);
            let count = dlx.count(&less, Some(2), &Budget::unlimited()).solutions;
            match found.other {
                Some(other) => {
                    assert_eq!(count, 2, "{shape} seed {seed}: {less}");
                    assert_ne!(other, solution);
                    assert_eq!(check_solution(&less, &other), Ok(()));
                    multiple += 1;
                }
                None => {
                    assert_eq!(count, 1, "{shape} seed {seed}: {less}");
                    unique += 1;
                }
            }
        }
    }
    assert!(
        unique > 0 && multiple > 0,
        "{shape}: {unique} unique, {multiple} not"
    );
}

#[test]
fn finds_a_second_solution_exactly_when_dlx_counts_two() {
    // Padding digits (N above the board's n) on the smaller grids.
    agrees_with_dlx::<2, 9>(2, 2);
    agrees_with_dlx::<2, 9>(2, 3);
    agrees_with_dlx::<2, 9>(3, 3);
    agrees_with_dlx::<2, 11>(3, 3);
    agrees_with_dlx::<4, 16>(3, 3);
    agrees_with_dlx::<4, 16>(3, 4);
    agrees_with_dlx::<4, 16>(4, 4);
}

/// Every group of every shape the generator searches on bitboards folds into one word
/// with its cells on distinct bits, and so does every group of 16x16 (four words).
fn folds_every_group<const W: usize>(r: usize, c: usize) {
    let shape = Shape::new(r, c).unwrap();
    for group in shape.board().groups() {
        let mut cells = [0u64; W];
        for cell in group.cells() {
            cells[cell.index() / 64] |= 1 << (cell.index() % 64);
        }
        let rotations = fold(&cells).expect("a fold");
        let folded = (cells.iter().zip(rotations)).fold(0u64, |y, (&x, k)| y | x.rotate_left(k));
        assert_eq!(folded.count_ones() as usize, group.cells().len(), "{shape}");
        assert_eq!(rotations[0], 0, "the first word stays");
    }
}

#[test]
fn groups_fold_into_one_word() {
    for (r, c) in [
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (4, 2),
        (3, 3),
        (2, 5),
        (5, 2),
    ] {
        folds_every_group::<2>(r, c);
    }
    folds_every_group::<2>(1, 11);
    folds_every_group::<4>(4, 4);
    folds_every_group::<4>(3, 4);
}

#[test]
fn too_large_boards_are_refused_and_budgets_are_honest() {
    assert!(Bitboard::<2, 16>::new(Shape::new(3, 4).unwrap().board()).is_none());
    assert!(Bitboard::<4, 25>::new(Shape::new(5, 5).unwrap().board()).is_none());
    assert!(Bitboard::<4, 9>::new(Shape::new(2, 5).unwrap().board()).is_none());
    // One node: an empty 9x9 grid cannot be decided at the root.
    let shape = Shape::CLASSIC;
    let mut bitboard = Bitboard::<2, 9>::new(shape.board()).unwrap();
    let solution = crate::generate::random_grid(shape, 1);
    let all: Vec<usize> = (0..81).collect();
    let found = bitboard.other_solution(&Grid::empty(shape), &all, &solution, 1);
    assert_eq!((found.other, found.complete), (None, false));
    let found = bitboard.other_solution(&Grid::empty(shape), &all, &solution, 1000);
    assert!(found.complete && found.other.is_some_and(|o| o != solution));
}

/// An untimed count ([`Solve::set_timed`]) finds what a timed one finds, with a time of zero;
/// a time budget still reads the clock and stops it, on the band search of 9x9 and on the
/// general search of 6x6.
#[test]
fn an_untimed_count_finds_the_same_and_keeps_its_time_budget() {
    use std::time::Duration;
    for shape in [Shape::CLASSIC, Shape::new(2, 3).unwrap()] {
        let (mut timed, mut untimed) = (
            BitboardSolver::new(shape.board()).unwrap(),
            BitboardSolver::new(shape.board()).unwrap(),
        );
        untimed.set_timed(false);
        let unlimited = Budget::unlimited();
        for seed in 0..20 {
            let puzzle = crate::generate::random_puzzle(shape, seed, shape.cell_count() / 4);
            let (ours, theirs) = (
                untimed.count(&puzzle, Some(2), &unlimited),
                timed.count(&puzzle, Some(2), &unlimited),
            );
            assert_eq!(ours.elapsed, Duration::ZERO);
            let without_time = |outcome: &crate::engine::Outcome| crate::engine::Outcome {
                elapsed: Duration::ZERO,
                ..outcome.clone()
            };
            assert_eq!(ours, without_time(&theirs), "seed {seed}: {puzzle}");
        }
        // Every solution of the empty grid within no time: the clock is read at the 1,024th
        // node and stops the count there.
        let no_time = Budget {
            time: Some(Duration::ZERO),
            ..Budget::unlimited()
        };
        let stopped = untimed.count(&Grid::empty(shape), None, &no_time);
        assert_eq!(stopped.stop, Stop::TimeBudget, "{shape:?}");
        assert!(stopped.nodes <= 1024 && stopped.elapsed > Duration::ZERO);
    }
}

/// The band search of plain 9x9 against Dancing Links: counts up to a limit with and without
/// excluded placements, on random puzzles from nearly empty to nearly full; the first
/// solution is the preferred grid when that grid solves the puzzle; a count run to its end
/// undoes every node but the root, whichever nodes took their parent's place.
#[test]
fn the_band_search_counts_what_dlx_counts() {
    use super::band::BandSearch;
    use super::search::Ask;
    use crate::board::{Cell, Digit};
    let shape = Shape::CLASSIC;
    let mut bands = BandSearch::new();
    let mut dlx = DlxSolver::sudoku(shape);
    dlx.set_restarts(None);
    let mut rng = rand_pcg::Pcg64::seed_from_u64(23);
    let unlimited = Budget::unlimited();
    let (mut several, mut preferred_first, mut solved_at_root) = (0, 0, 0);
    for seed in 0..60 {
        let givens = [20, 24, 28, 35, 50, 70][seed as usize % 6];
        let puzzle = crate::generate::random_puzzle(shape, seed, givens);
        let solution = crate::generate::random_grid(shape, seed);
        let excluded: Vec<(Cell, Digit)> = (0..rng.random_range(0..6))
            .map(|_| {
                let cell = rng.random_range(0..81usize);
                let digit = Digit::new(rng.random_range(1..=9u8)).unwrap();
                (Cell::new(cell), digit)
            })
            .collect();
        for (excluded, limit) in [(&[][..], 50), (&excluded[..], 50), (&[][..], u64::MAX)] {
            if limit == u64::MAX && givens < 28 {
                continue; // counting all is for the fuller puzzles
            }
            let ask = Ask {
                excluded,
                limit,
                budget: &unlimited,
                preferred: solution.cells(),
                deadline: None,
                pause: None,
            };
            let ours = bands.count(&puzzle, &ask);
            let theirs = dlx.count_excluding(&puzzle, excluded, Some(limit), &unlimited);
            assert_eq!(ours.solutions, theirs.solutions, "seed {seed}: {puzzle}");
            several += usize::from(ours.solutions > 1);
            if let Some(first) = &ours.first {
                assert_eq!(check_solution(&puzzle, first), Ok(()));
                assert!(excluded.iter().all(|&(c, d)| first.digit(c) != Some(d)));
            }
            if excluded.is_empty() && check_solution(&puzzle, &solution).is_ok() {
                assert_eq!(
                    ours.first.as_ref(),
                    Some(&solution),
                    "the preferred grid first"
                );
                preferred_first += 1;
            }
            if ours.stop == crate::budget::Stop::Exhausted {
                assert_eq!(ours.backtracks, ours.nodes - 1, "seed {seed}");
            }
            if ours.nodes == 1 && ours.solutions == 1 {
                // Solved at the root: every open cell was filled by a single.
                let open = puzzle.cells().iter().filter(|&&d| d == 0).count() as u64;
                assert_eq!(ours.forced, open, "seed {seed}");
                solved_at_root += 1;
            }
        }
    }
    // Each check above ran, not only the counts.
    assert!(several > 10, "{several} puzzles with several solutions");
    assert!(
        preferred_first > 10,
        "{preferred_first} counts began at the preferred grid"
    );
    assert!(
        solved_at_root > 5,
        "{solved_at_root} puzzles solved at the root"
    );
}

/// A count paused once: one that goes on counts what an unpaused count does, in the same
/// nodes, and the callback is told the solutions found by then; one that stops ends there
/// with [`Stop::Limit`]. On the classic board's band search and on the 6x6 board's.
#[test]
fn a_paused_count_goes_on_or_stops_where_its_callback_says() {
    use std::cell::Cell as Seen;
    let budget = Budget::unlimited();
    for (shape, line) in [
        (Shape::new(2, 3).unwrap(), format!("123{}", ".".repeat(33))),
        // 94,232 grids.
        (
            Shape::CLASSIC,
            "...8..941....9....1.......54...57.....1.......6.2.....9.......2.5..42.....43....."
                .to_string(),
        ),
    ] {
        let puzzle = crate::io::puzzle::parse_line(&line, Some(shape)).unwrap();
        assert_eq!(puzzle.shape(), shape);
        let mut solver = BitboardSolver::sudoku(shape).unwrap();
        let whole = solver.count(&puzzle, None, &budget);
        assert!(whole.nodes > 1_000 && whole.is_complete(), "{whole:?}");
        for go_on in [true, false] {
            let seen = Seen::new(None);
            let look = |solutions| {
                seen.set(Some(solutions));
                go_on
            };
            let paused = solver.count_paused(&puzzle, None, &budget, (1_000, &look));
            let found = seen.get().expect("the count reached its pause");
            assert!(found > 0 && found <= whole.solutions);
            if go_on {
                assert_eq!(
                    (paused.solutions, paused.nodes),
                    (whole.solutions, whole.nodes)
                );
                assert!(paused.is_complete());
            } else {
                assert_eq!(
                    (paused.stop, paused.nodes, paused.solutions),
                    (Stop::Limit, 1_000, found)
                );
            }
        }
    }
}
