//! The bitboard engine against Dancing Links, the CSP and brute force: counts up to a limit on
//! random partial grids of every shape it takes (and variant boards), solutions checked cell
//! by cell against the rules and the givens; boards out of its reach refused with an error;
//! and, on the public data sets, the same solutions as DLX.

use proptest::prelude::*;
use quadrille::board::{Board, Cage, Cell};
use quadrille::engine::{BitboardSolver, DlxSolver, Engine, Solve, Solver};
use quadrille::generate::{random_grid, random_puzzle};
use quadrille::io::puzzle::parse_line;
use quadrille::sudoku::variant::{Variant, jigsaw_board};
use quadrille::sudoku::{Grid, Shape};
use quadrille::{Budget, ErrorKind, Stop};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use crate::support::oracle::Rules;
use crate::support::{data_text, partial_grid};

/// The rules of `board` for the brute force: its groups as cell lists.
fn rules_of(board: &Board) -> Rules {
    Rules {
        n: board.size(),
        groups: (board.groups().iter())
            .map(|g| g.cells().iter().map(|c| c.index()).collect())
            .collect(),
        cages: Vec::new(),
    }
}

/// Whether the brute force can count `puzzle`'s solutions quickly: 4x4 always, larger grids
/// with few enough blanks.
fn brute_force_fits(puzzle: &Grid) -> bool {
    let blanks = puzzle.cells().iter().filter(|&&d| d == 0).count();
    match puzzle.size() {
        4 => true,
        6 => blanks <= 20,
        _ => blanks <= 30,
    }
}

/// Counts `puzzle` on `board` up to `limit` with the bitboard engine, DLX and the default
/// CSP (and the brute force where it fits), and checks that they agree: the same count and
/// stop, one solution exactly when one was found, every solution keeping the givens and the
/// rules of the board (checked by the brute force's rules, cell by cell), the same solution
/// when the puzzle has exactly one.
fn agree(board: &Board, puzzle: &Grid, limit: Option<u64>) -> Result<(), TestCaseError> {
    let rules = rules_of(board);
    let unlimited = Budget::unlimited();
    let mut bitboard = BitboardSolver::new(board).expect("a board the engine takes");
    let ours = bitboard.count(puzzle, limit, &unlimited);
    let dlx = DlxSolver::new(board).count(puzzle, limit, &unlimited);
    let csp = Solver::new(Engine::Csp(Default::default()), board)
        .unwrap()
        .count(puzzle, limit, &unlimited);
    for (name, other) in [("dlx", &dlx), ("csp", &csp)] {
        prop_assert_eq!(
            (ours.solutions, ours.stop),
            (other.solutions, other.stop),
            "bitboard against {} on {}",
            name,
            puzzle
        );
    }
    if brute_force_fits(puzzle) {
        let all = rules.count(puzzle.cells());
        let want = limit.map_or(all, |limit| all.min(limit));
        prop_assert_eq!(
            ours.solutions,
            want,
            "bitboard against brute force on {}",
            puzzle
        );
        let stop = if limit.is_some_and(|limit| all >= limit) {
            Stop::Limit
        } else {
            Stop::Exhausted
        };
        prop_assert_eq!(ours.stop, stop);
    }
    prop_assert_eq!(ours.solution.is_some(), ours.solutions > 0);
    if let Some(solution) = &ours.solution {
        prop_assert_eq!(rules.check(puzzle.cells(), solution.cells()), Ok(()));
    }
    if ours.solutions == 1 && ours.is_complete() {
        prop_assert_eq!(&ours.solution, &dlx.solution);
    }
    // Every node but the root is a digit tried; a finished search undid them all.
    if ours.stop == Stop::Exhausted {
        prop_assert_eq!(ours.backtracks, ours.nodes - 1);
    }
    Ok(())
}

/// The shapes of Sudoku the engine takes, as box rows and columns: 4x4, 6x6 and 8x8 both
/// ways, 9x9.
const SHAPES: [(usize, usize); 6] = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)];

/// At least a quarter of the cells given on 8x8 and 9x9, so that counting all is quick.
fn min_share(n: usize) -> f64 {
    if n >= 8 { 0.25 } else { 0.0 }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// On random partial grids of every shape, up to a random limit (or none, where counting
    /// all is quick), the bitboard engine counts what DLX, the CSP and brute force count.
    #[test]
    fn bitboard_counts_what_dlx_the_csp_and_brute_force_count(
        puzzle in partial_grid(&SHAPES, min_share, 0.1),
        limit in 1u64..=5,
    ) {
        let board = puzzle.shape().board();
        agree(board, &puzzle, Some(limit))?;
        if brute_force_fits(&puzzle) {
            agree(board, &puzzle, None)?;
        }
    }
}

/// A random full grid of `board`: DLX's first solution, trying a random Sudoku grid's
/// digits first.
fn random_full_grid(board: &Board, shape: Shape, seed: u64) -> Grid {
    let mut dlx = DlxSolver::new(board);
    dlx.set_preferred(Some(&random_grid(shape, seed)));
    dlx.solve(&Grid::empty(shape))
        .solution
        .expect("every variant board here has a solution")
}

/// `full` with `blanks` random cells emptied.
fn blanked(full: &Grid, blanks: usize, rng: &mut Pcg64) -> Grid {
    let mut cells: Vec<usize> = (0..full.cells().len()).collect();
    cells.shuffle(rng);
    let mut puzzle = full.clone();
    for &cell in &cells[..blanks.min(cells.len())] {
        puzzle.cells_mut()[cell] = 0;
    }
    puzzle
}

/// Variant boards read through their groups: X-Sudoku and windoku (9x9), X-Sudoku on 4x4 and
/// 6x6, and a 4x4 jigsaw. On random partial grids of each, the bitboard engine agrees with
/// DLX, the CSP and the brute force on the board's groups.
#[test]
fn variant_boards_are_read_through_their_groups() {
    let classic = Shape::CLASSIC;
    let mut boards: Vec<(String, Board, Shape)> = Vec::new();
    for variant in [Variant::X, Variant::Windoku] {
        let board = variant.board_of_shape(classic).unwrap().unwrap();
        boards.push((variant.to_string(), board, classic));
    }
    for (r, c) in [(2, 2), (2, 3)] {
        let shape = Shape::new(r, c).unwrap();
        let board = Variant::X.board_of_shape(shape).unwrap().unwrap();
        boards.push((format!("x {shape}"), board, shape));
    }
    let regions = [0, 0, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3];
    let jigsaw = jigsaw_board(4, &regions).unwrap();
    boards.push(("jigsaw".to_string(), jigsaw, Shape::new(2, 2).unwrap()));
    let mut rng = Pcg64::seed_from_u64(5);
    for (name, board, shape) in &boards {
        let cells = shape.cell_count();
        for seed in 0..8 {
            let full = random_full_grid(board, *shape, seed);
            assert_eq!(rules_of(board).check(full.cells(), full.cells()), Ok(()));
            let blanks = rng.random_range(cells / 4..=cells.min(30).max(cells / 4));
            let puzzle = blanked(&full, blanks, &mut rng);
            for limit in [Some(1), Some(3), None] {
                agree(board, &puzzle, limit).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
        }
    }
}

/// Boards out of the engine's reach are refused when the solver is built, each with an error
/// that says why: more than 128 cells, more than 64 groups, killer cages. The CLI reports the
/// same error for every puzzle of such a board.
#[test]
fn boards_out_of_reach_are_refused_with_a_reason() {
    let refused = |board: &Board| match Solver::new(Engine::Bitboard, board) {
        Ok(_) => panic!("a board out of reach was taken"),
        Err(err) => {
            assert!(
                matches!(err.kind(), ErrorKind::UnsupportedBoard { .. }),
                "{err}"
            );
            err.to_string()
        }
    };
    let message = refused(Shape::new(4, 4).unwrap().board());
    assert!(message.contains("256 cells"), "{message}");
    assert!(message.contains("bitboard"), "{message}");
    // Every row, column and box of 9x9 twice over is 54 groups; nine more rows make 63, and
    // the tenth more makes 64, the most; one more is refused.
    let classic = Shape::CLASSIC.board();
    let groups = |extra: usize| {
        let mut groups = classic.groups().to_vec();
        groups.extend(classic.groups().iter().cycle().take(extra).cloned());
        Board::new(9, groups).unwrap()
    };
    assert!(BitboardSolver::new(&groups(64 - 27)).is_ok());
    let message = refused(&groups(65 - 27));
    assert!(message.contains("65 groups"), "{message}");
    let cage = Cage::new(1, [Cell::new(0), Cell::new(1)], 3).unwrap();
    let killer = Shape::new(2, 2).unwrap().board().clone();
    let message = refused(&killer.with_cages(vec![cage]).unwrap());
    assert!(message.contains("killer cages"), "{message}");
    // Latin squares up to 11x11 (121 cells) are in reach.
    assert!(BitboardSolver::sudoku(Shape::new(1, 11).unwrap()).is_ok());
    assert!(BitboardSolver::sudoku(Shape::new(1, 12).unwrap()).is_err());
}

/// A node budget stops the count and says so; what it found before is real.
#[test]
fn budgets_stop_the_count_and_say_so() {
    let empty = Grid::empty(Shape::CLASSIC);
    let mut solver = BitboardSolver::sudoku(Shape::CLASSIC).unwrap();
    let outcome = solver.count(&empty, None, &Budget::nodes(1000));
    assert_eq!(outcome.stop, Stop::NodeBudget);
    assert_eq!(outcome.nodes, 1000);
    assert!(outcome.solutions >= 1);
    let solution = outcome.solution.unwrap();
    assert_eq!(
        rules_of(Shape::CLASSIC.board()).check(&[0; 81], solution.cells()),
        Ok(())
    );
    let outcome = solver.count(&empty, None, &Budget::time(std::time::Duration::ZERO));
    assert_eq!(outcome.stop, Stop::TimeBudget);
    // A limit of 0 stops before the search.
    let outcome = solver.count(&empty, Some(0), &Budget::unlimited());
    assert_eq!(
        (outcome.solutions, outcome.stop, outcome.nodes),
        (0, Stop::Limit, 0)
    );
}

/// Latin squares of order 10 and 11 (the engine's second copy, with 11 digits): counts up to
/// a limit agree with DLX on random partial squares.
#[test]
fn latin_squares_of_order_10_and_11_agree_with_dlx() {
    for n in [10, 11] {
        let shape = Shape::new(1, n).unwrap();
        for seed in 0..6 {
            let puzzle = random_puzzle(shape, seed, shape.cell_count() / 2);
            for limit in [1, 4] {
                agree(shape.board(), &puzzle, Some(limit)).unwrap();
            }
        }
    }
}

// --- The public data sets: ignored unless asked for (`cargo test -- --ignored`) ---

/// The puzzles of a data set's text, with their 1-based line numbers.
fn data_puzzles(text: &str) -> impl Iterator<Item = (usize, Grid)> + '_ {
    (text.lines().enumerate())
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(index, line)| {
            let puzzle =
                parse_line(line, None).unwrap_or_else(|e| panic!("line {}: {e}", index + 1));
            (index + 1, puzzle)
        })
}

/// The first `count` puzzles of a data set, each counted up to 2 by the bitboard engine and
/// by DLX: the same count and stop, and the same solution, checked against the givens and
/// the rules.
fn same_as_dlx_on(set: &str, count: usize) {
    let Some(text) = data_text(set) else {
        return;
    };
    let shape = Shape::CLASSIC;
    let rules = rules_of(shape.board());
    let mut bitboard = Solver::sudoku(Engine::Bitboard, shape).unwrap();
    let mut dlx = Solver::sudoku(Engine::Dlx, shape).unwrap();
    let mut solved = 0;
    for (line_number, puzzle) in data_puzzles(&text).take(count) {
        let ours = bitboard.count(&puzzle, Some(2), &Budget::unlimited());
        let theirs = dlx.count(&puzzle, Some(2), &Budget::unlimited());
        assert_eq!(
            (ours.solutions, ours.stop),
            (theirs.solutions, theirs.stop),
            "{set} line {line_number}"
        );
        assert_eq!(ours.solution, theirs.solution, "{set} line {line_number}");
        let solution = ours
            .solution
            .expect("every puzzle of these sets has a solution");
        assert_eq!(
            rules.check(puzzle.cells(), solution.cells()),
            Ok(()),
            "{set} line {line_number}"
        );
        solved += 1;
    }
    assert_eq!(solved, count, "{set}");
}

#[test]
#[ignore = "reads ../shared/data; run with --ignored"]
fn bitboard_solves_the_first_17_clue_puzzles_as_dlx_does() {
    same_as_dlx_on("puzzles2_17_clue", 2000);
}

#[test]
#[ignore = "reads ../shared/data; run with --ignored"]
fn bitboard_solves_the_first_forum_hardest_puzzles_as_dlx_does() {
    same_as_dlx_on("puzzles5_forum_hardest_1905_11+", 2000);
}

/// Every puzzle of a data set, counted up to 2 by the bitboard engine (the one `auto` picks
/// on 9x9): each has exactly one solution, proved, and it keeps the givens and the rules.
fn unique_by_bitboard(set: &str, expected: usize) {
    let Some(text) = data_text(set) else {
        return;
    };
    let shape = Shape::CLASSIC;
    let rules = rules_of(shape.board());
    let mut bitboard = Solver::sudoku(Engine::Bitboard, shape).unwrap();
    let mut solved = 0;
    for (line_number, puzzle) in data_puzzles(&text) {
        let outcome = bitboard.count(&puzzle, Some(2), &Budget::unlimited());
        assert_eq!(
            (outcome.solutions, outcome.stop),
            (1, Stop::Exhausted),
            "{set} line {line_number}"
        );
        let solution = outcome.solution.expect("a solution");
        assert_eq!(
            rules.check(puzzle.cells(), solution.cells()),
            Ok(()),
            "{set} line {line_number}"
        );
        solved += 1;
    }
    assert_eq!(solved, expected, "{set}");
}

#[test]
#[ignore = "reads ../shared/data; run with --ignored"]
fn bitboard_proves_every_17_clue_puzzle_unique() {
    unique_by_bitboard("puzzles2_17_clue", 49_158);
}

#[test]
#[ignore = "reads ../shared/data; run with --ignored"]
fn bitboard_proves_every_forum_hardest_puzzle_unique() {
    unique_by_bitboard("puzzles5_forum_hardest_1905_11+", 48_766);
}
