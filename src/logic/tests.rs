//! The solver's steps checked against the solution, on the fixtures of every shape and on
//! random unique puzzles.

use super::*;
use crate::board::{Cell, Digit};
use crate::engine::{DlxSolver, Solve};
use crate::io::puzzle::{Layout, PuzzleReader};

/// Checks every step of `grid`'s explanation against its unique solution: a placement is the
/// solution's digit, an elimination never removes it. Returns the explanation.
pub(crate) fn checked_explanation(grid: &Grid) -> Explanation {
    checked_explanation_on(grid, Scale::Se121)
}

/// [`checked_explanation`] on `scale`.
pub(crate) fn checked_explanation_on(grid: &Grid, scale: Scale) -> Explanation {
    let mut dlx = DlxSolver::sudoku(grid.shape());
    let outcome = dlx.count(grid, Some(2), &crate::Budget::unlimited());
    assert_eq!(
        outcome.solutions, 1,
        "{grid}: the tests take unique puzzles"
    );
    let solution = outcome.solution.unwrap();
    let mut solver = LogicSolver::new(grid.shape());
    solver.set_scale(scale);
    let explanation = solver.explain(grid, true);
    let n = grid.size();
    for (i, step) in explanation.steps.iter().enumerate() {
        assert!(
            step.placements().len() + step.eliminations().len() > 0,
            "{grid}: step {i} ({}) does nothing",
            step.technique()
        );
        for (cell, digit) in step.placements() {
            assert_eq!(
                solution.digit(cell),
                Some(digit),
                "{grid}: step {i} ({}) places {digit} at {}: {}",
                step.technique(),
                cell_name(cell.index(), n),
                step.why()
            );
        }
        for (cell, digit) in step.eliminations() {
            assert_ne!(
                solution.digit(cell),
                Some(digit),
                "{grid}: step {i} ({}) removes the true {digit} at {}: {}",
                step.technique(),
                cell_name(cell.index(), n),
                step.why()
            );
        }
    }
    assert!(explanation.is_solved(), "{grid}: {:?}", explanation.ending);
    explanation
}

fn fixture_puzzles(text: &str) -> Vec<Grid> {
    PuzzleReader::new(text.as_bytes(), None, Layout::Line)
        .filter_map(|p| p.ok())
        .map(|p| p.grid)
        .filter(|g| DlxSolver::sudoku(g.shape()).is_unique(g))
        .collect()
}

#[test]
fn every_step_of_the_fixtures_agrees_with_the_solution() {
    let sets = [
        include_str!("../../fixtures/sudoku/4x4.txt"),
        include_str!("../../fixtures/sudoku/6x6.txt"),
        include_str!("../../fixtures/sudoku/8x8.txt"),
        include_str!("../../fixtures/sudoku/9x9.txt"),
        include_str!("../../fixtures/sudoku/9x9_sample.txt"),
        include_str!("../../fixtures/sudoku/12x12.txt"),
        include_str!("../../fixtures/sudoku/16x16.txt"),
    ];
    let mut seen = std::collections::BTreeMap::new();
    for text in sets {
        for grid in fixture_puzzles(text) {
            for step in checked_explanation(&grid).steps {
                *seen.entry(step.technique()).or_insert(0) += 1;
            }
        }
    }
    eprintln!("{seen:?}");
}

/// A candidate grid of `shape` with every candidate, less `(row, col, digits)` removals
/// (0-based rows and columns).
fn hand_made(shape: Shape, removals: &[(usize, usize, &[u8])]) -> Candidates {
    let n = shape.size();
    let mut state = Candidates::new(&Grid::empty(shape));
    for &(row, col, ds) in removals {
        for &d in ds {
            state.eliminate(Cell::at(row, col, n), Digit::new(d).unwrap());
        }
    }
    state
}

/// The step's eliminations as sorted (row, col, digit), 1-based.
fn removed(step: &Step) -> Vec<(usize, usize, u8)> {
    let n = step.shape().size();
    let mut list: Vec<_> = step
        .eliminations()
        .map(|(c, d)| {
            let (r, col) = c.row_col(n);
            (r + 1, col + 1, d.get())
        })
        .collect();
    list.sort();
    list
}

#[test]
fn a_hidden_quad_is_found_when_nothing_easier_applies() {
    let removals: Vec<_> = (4..9).map(|c| (0, c, &[1u8, 2, 3, 4][..])).collect();
    let state = hand_made(Shape::CLASSIC, &removals);
    let step = LogicSolver::new(Shape::CLASSIC).next_step(&state).unwrap();
    assert_eq!(step.technique(), Technique::HiddenQuad);
    let want: Vec<_> = (1..=4)
        .flat_map(|c| (5..=9).map(move |d| (1, c, d)))
        .collect();
    assert_eq!(removed(&step), want);
    assert_eq!(step.units(), [0]);
}

#[test]
fn a_naked_quad_is_found_when_nothing_easier_applies() {
    let removals: Vec<_> = (0..4).map(|c| (0, c, &[5u8, 6, 7, 8, 9][..])).collect();
    let state = hand_made(Shape::CLASSIC, &removals);
    let step = LogicSolver::new(Shape::CLASSIC).next_step(&state).unwrap();
    assert_eq!(step.technique(), Technique::NakedQuad);
    let want: Vec<_> = (5..=9)
        .flat_map(|c| (1..=4).map(move |d| (1, c, d)))
        .collect();
    assert_eq!(removed(&step), want);
}

#[test]
fn an_x_wing_on_a_16x16_grid() {
    let shape = Shape::new(4, 4).unwrap();
    let removals: Vec<_> = [0, 4]
        .into_iter()
        .flat_map(|r| {
            (0..16)
                .filter(|&c| c != 1 && c != 6)
                .map(move |c| (r, c, &[1u8][..]))
        })
        .collect();
    let state = hand_made(shape, &removals);
    let step = LogicSolver::new(shape).next_step(&state).unwrap();
    assert_eq!(step.technique(), Technique::XWing);
    let want: Vec<_> = (1..=16)
        .filter(|&r| r != 1 && r != 5)
        .flat_map(|r| [(r, 2, 1), (r, 7, 1)])
        .collect();
    assert_eq!(removed(&step), want);
}

#[test]
fn an_xy_wing_with_its_pivot_and_pincers() {
    // Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r2c2 {2,3}: cells seeing both pincers lose 3.
    let all_but = |keep: &[u8]| -> Vec<u8> { (1..=9).filter(|d| !keep.contains(d)).collect() };
    let (p, a, b) = (all_but(&[1, 2]), all_but(&[1, 3]), all_but(&[2, 3]));
    let state = hand_made(Shape::CLASSIC, &[(0, 0, &p), (0, 4, &a), (1, 1, &b)]);
    let step = LogicSolver::new(Shape::CLASSIC).next_step(&state).unwrap();
    assert_eq!(step.technique(), Technique::XyWing);
    assert_eq!(
        removed(&step),
        [(1, 2, 3), (1, 3, 3), (2, 4, 3), (2, 5, 3), (2, 6, 3)]
    );
}

/// The rectangle r1c1 r1c4 r2c1 r2c4 (two boxes on 9x9 and on 6x6, whose boxes are 2x3) with
/// the pair {1,2}, and the roof cells r2c1, r2c4 given `roof` more candidates.
fn rectangle_state(shape: Shape, roof_c1: &[u8], roof_c4: &[u8]) -> Candidates {
    let n = shape.size() as u8;
    let keep = |kept: &[u8]| -> Vec<u8> { (1..=n).filter(|d| !kept.contains(d)).collect() };
    let floor = keep(&[1, 2]);
    let (c1, c4) = (keep(roof_c1), keep(roof_c4));
    let removals: Vec<(usize, usize, &[u8])> = vec![
        (0, 0, &floor[..]),
        (0, 3, &floor[..]),
        (1, 0, &c1[..]),
        (1, 3, &c4[..]),
    ];
    hand_made(shape, &removals)
}

#[test]
fn unique_rectangles_of_types_1_2_and_4_at_two_sizes() {
    for shape in [Shape::CLASSIC, Shape::new(2, 3).unwrap()] {
        let n = shape.size();
        let mut step = Step::new(&Candidates::new(&Grid::empty(shape)));
        // Type 1: r2c4 is {1,2,3}, the others {1,2}: r2c4 is neither 1 nor 2.
        let state = rectangle_state(shape, &[1, 2], &[1, 2, 3]);
        assert!(unique::rectangle(&state, &mut step));
        assert_eq!(step.technique(), Technique::UniqueRectangle);
        assert_eq!(removed(&step), [(2, 4, 1), (2, 4, 2)]);
        // Type 2: r2c1 and r2c4 are {1,2,3}: one is 3, so the rest of row 2 loses 3.
        let state = rectangle_state(shape, &[1, 2, 3], &[1, 2, 3]);
        assert!(unique::rectangle(&state, &mut step));
        let want: Vec<_> = (1..=n)
            .filter(|&c| c != 1 && c != 4)
            .map(|c| (2, c, 3))
            .collect();
        assert_eq!(removed(&step), want);
        // Type 4: the roof holds every digit, but 1 has no other place in row 2: one roof
        // cell is 1, so neither is 2.
        let all: Vec<u8> = (1..=n as u8).collect();
        let mut state = rectangle_state(shape, &all, &all);
        for col in [1, 2].into_iter().chain(4..n) {
            state.eliminate(Cell::at(1, col, n), Digit::new(1).unwrap());
        }
        assert!(unique::rectangle(&state, &mut step));
        assert_eq!(removed(&step), [(2, 1, 2), (2, 4, 2)]);
        assert_eq!(step.units(), [1]);
    }
}

/// Known puzzles whose solution needs a unique rectangle or BUG+1 (every step checked against
/// the solution): 9x9 ones of the magictour and 17-clue slices, 6x6 ones made by
/// `quadrille generate --box 2x3 --seed 1` (puzzles 30 and 102).
#[test]
fn uniqueness_steps_agree_with_the_solution() {
    let read = |line: &str| crate::io::puzzle::parse_line(line, None).unwrap();
    for (line, technique, placed) in [
        (
            "...8.5.9.6.....84...8....7...528....1.2...7.3....375...3....9...67.....1.8.3.9...",
            Technique::Bug,
            1,
        ),
        ("1...4......6..2.5335.4..5......3...1", Technique::Bug, 1),
        (
            "..251......43...5..1...36......536..",
            Technique::UniqueRectangle,
            0,
        ),
    ] {
        let explanation = checked_explanation(&read(line));
        let step = explanation
            .steps
            .iter()
            .find(|s| s.technique() == technique)
            .unwrap_or_else(|| panic!("{technique} not used on {line}"));
        assert_eq!(step.placements().len(), placed, "{line}");
        assert!(step.why().contains("unique (proved"), "{}", step.why());
    }
}

/// A puzzle of several solutions never gets a uniqueness step: its rectangle is real.
#[test]
fn no_uniqueness_step_in_a_puzzle_of_several_solutions() {
    // The 6x6 rectangle puzzle above with the given r1c3 (2) removed: several solutions.
    let grid = crate::io::puzzle::parse_line("...51......43...5..1...36......536..", None).unwrap();
    let mut dlx = DlxSolver::sudoku(grid.shape());
    assert!(!dlx.is_unique(&grid));
    let explanation = explain(&grid);
    assert!(!explanation.unique);
    assert!(
        explanation
            .steps
            .iter()
            .all(|s| !matches!(s.technique(), Technique::UniqueRectangle | Technique::Bug))
    );
    // The guard was reached: a rectangle or BUG pattern arose on the way, and Dancing Links
    // refused it. Without this, the assertion above would hold for a puzzle with no pattern.
    let mut solver = LogicSolver::new(grid.shape());
    solver.solve_with(&grid, true, |_, _| true);
    assert_eq!(solver.uniqueness, Some(false));
}

#[test]
fn a_contradictory_grid_has_no_solution() {
    // Two givens 1 in row 1 of a 4x4: the reader refuses it; by hand, the grid breaks.
    let mut grid = Grid::empty(Shape::new(2, 2).unwrap());
    grid.set(0, 0, 1);
    grid.set(1, 2, 1);
    grid.set(2, 1, 1);
    grid.set(3, 3, 2);
    grid.set(3, 2, 3);
    grid.set(3, 1, 4);
    let explanation = explain(&grid);
    assert_eq!(explanation.ending, Ending::NoSolution);
}

/// A puzzle of several solutions is said to be one, before any step: its rating and its
/// explanation end [`Ending::Several`] with `unique: false` (counted by Dancing Links first),
/// where a unique puzzle that needs guesses and one that logic solves alone say `true`.
#[test]
fn several_solutions_are_told_apart_from_a_unique_puzzle_that_needs_guesses() {
    let read = |line: &str| crate::io::puzzle::parse_line(line, None).unwrap();
    // Nine solutions.
    let several = read("1...........4..2");
    let rating = rate(&several);
    assert_eq!(
        (rating.ending, rating.steps, rating.unique),
        (Ending::Several, 0, false)
    );
    let explanation = explain(&several);
    assert_eq!(explanation.ending, Ending::Several);
    assert!(!explanation.unique && explanation.steps.is_empty());
    // Line 326 of the forum's hardest 11+ list (puzzles5_forum_hardest_1905_11+): unique, and
    // beyond the techniques, nested forcing chains included.
    let hardest =
        read("98.76.5..75..8..6...6......5.......4..794..5.......3..2..........965..8......41..");
    let mut dlx = DlxSolver::sudoku(hardest.shape());
    assert!(dlx.is_unique(&hardest));
    let rating = rate(&hardest);
    assert!(rating.guesses > 0 && rating.unique, "{rating:?}");
    // Logic alone: unique by the steps themselves.
    let easy = read("1.34341221..4321");
    assert!(rate(&easy).unique && rate(&easy).guesses == 0);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Random unique puzzles of several shapes: every step agrees with the solution, and the
    /// rating is the hardest step's score.
    #[test]
    fn random_unique_puzzles_explain_correctly(seed in 0u64..1_000_000, which in 0usize..6) {
        let (r, c) = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4)][which];
        let shape = Shape::new(r, c).unwrap();
        let grid = crate::generate::unique_puzzle(shape, seed, 0);
        let explanation = checked_explanation(&grid);
        let rating = rate(&grid);
        let hardest = explanation.steps.iter().map(Step::tenths).max().unwrap_or(0);
        proptest::prop_assert_eq!(rating.tenths, hardest);
        proptest::prop_assert_eq!(rating.steps as usize, explanation.steps.len());
    }
}

/// The type 1 rectangle above, on X-Sudoku: diagonal 1 holds r1c1 alone of its four cells, so
/// swapping its digits would break the diagonal, and there is no unique rectangle.
#[test]
fn a_rectangle_that_a_diagonal_crosses_at_one_corner_is_no_unique_rectangle() {
    let shape = Shape::CLASSIC;
    let classic = rectangle_state(shape, &[1, 2], &[1, 2, 3]);
    let x = Candidates::on_board(&crate::sudoku::variant::x_board(shape), &Grid::empty(shape));
    let mut state = x.clone();
    state.cands.clone_from(&classic.cands);
    let mut step = Step::new(&state);
    assert!(unique::rectangle(&classic, &mut step));
    assert!(!unique::rectangle(&state, &mut step));
}

/// A cage of two cells adding up to 3 on a 4x4 board holds 1 and 2: both cells lose 3 and 4,
/// and the step says which cage.
#[test]
fn a_cage_keeps_only_the_digits_of_its_sums() {
    let shape = Shape::new(2, 2).unwrap();
    let cage = crate::board::Cage::new(1, [Cell::new(0), Cell::new(5)], 3).unwrap();
    let board = shape.board().clone().with_cages(vec![cage]).unwrap();
    let state = Candidates::on_board(&board, &Grid::empty(shape));
    let mut step = Step::new(&state);
    assert!(cages::combination(&state, &mut step));
    assert_eq!(step.technique(), Technique::CageCombination);
    assert_eq!(removed(&step), [(1, 1, 3), (1, 1, 4), (2, 2, 3), (2, 2, 4)]);
    assert!(
        step.why()
            .starts_with("cage 1 (r1c1 r2c2) must hold different digits adding up to 3")
    );
    // Cage mates are peers: a digit placed in one leaves the other.
    let mut grid = Grid::empty(shape);
    grid.place(Cell::new(0), Digit::new(1));
    let placed = Candidates::on_board(&board, &grid);
    assert_eq!(placed.candidates(1, 1) & 1, 0);
}

/// The Sukaku scale's own techniques on held-out 9x9 puzzles that Sukaku Explainer rated
/// (fixtures/se/heldout_sukaku.txt): every step agrees with the solution, each technique is
/// met, and the ratings match the reference's.
#[test]
fn sukaku_scale_steps_agree_with_the_solution_and_the_reference() {
    let text = include_str!("../../fixtures/se/heldout_sukaku.txt");
    let rated: Vec<(Grid, u16)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(120)
        .map(|l| {
            let (puzzle, er) = l.split_once(' ').unwrap();
            let er: f64 = er.trim().parse().unwrap();
            (
                crate::io::puzzle::parse_line(puzzle, None).unwrap(),
                (er * 10.0).round() as u16,
            )
        })
        .collect();
    let mut met = std::collections::HashSet::new();
    let mut agree = 0;
    let mut solver = LogicSolver::new(Shape::CLASSIC);
    solver.set_scale(Scale::Sukaku);
    for (grid, reference) in &rated {
        let explanation = checked_explanation_on(grid, Scale::Sukaku);
        met.extend(explanation.steps.iter().map(|s| s.technique()));
        let rating = solver.rate(grid);
        agree += usize::from(rating.tenths == *reference);
    }
    for technique in [
        Technique::TurbotFish,
        Technique::ThreeStrongLinks,
        Technique::WxyzWing,
        Technique::BugTypeTwo,
        Technique::VwxyzWing,
        Technique::YCycle,
        Technique::XyCycle,
    ] {
        assert!(met.contains(&technique), "{technique} not met");
    }
    assert!(!met.contains(&Technique::WWing), "Sukaku has no W-wing");
    // 113 of the 120 when the scale was written.
    assert!(agree >= 105, "{agree} of {} ratings agree", rated.len());
}

/// The Sukaku scale's techniques on another box size, 8x8 (2x4): puzzles made by `quadrille
/// generate --box 2x4 --scale sukaku -j 1 --json` with `--score 4.0..7.0 -n 30 --seed 7`
/// (the turbot fish) and `--score 5.5..6.9 -n 40 --seed 11` (the others), each rated there
/// with the hardest step named; every step checked against the solution.
#[test]
fn sukaku_techniques_on_8x8_agree_with_the_solution() {
    for (line, technique, tenths) in [
        (
            "........3.6...7....8473.4.....8552.....4.4173....5...4.2........",
            Technique::TurbotFish,
            40,
        ),
        (
            ".5....7.6....3.81..83.54................57.48..63.6....1.1....6.",
            Technique::ThreeStrongLinks,
            57,
        ),
        (
            "...162....6...57.6......2.5...8313...4.5......1.54...8....835...",
            Technique::WxyzWing,
            56,
        ),
        (
            "1..5.82.2.....3.3....5......3.7158.2......4....5.2.....8.36.7..2",
            Technique::VwxyzWing,
            64,
        ),
        (
            "4..2..78.7.3.....37..4..14............65..6..28.....8.1.58..7..3",
            Technique::YCycle,
            69,
        ),
    ] {
        let grid = crate::io::puzzle::parse_line(line, None).unwrap();
        let explanation = checked_explanation_on(&grid, Scale::Sukaku);
        let hardest = explanation.steps.iter().max_by_key(|s| s.tenths()).unwrap();
        assert_eq!(
            (hardest.technique(), hardest.tenths()),
            (technique, tenths),
            "{line}"
        );
    }
}

/// An X-cycle drawn by hand on 9x9 and 6x6: digit 1 only in a loop of six cells, rows and
/// columns 1, mid and last, plus one cell next to the loop in the middle column. Every link
/// of the loop is strong but the middle column's, a weak one that the extra cell sees both
/// ends of: it loses 1, and nothing else does.
#[test]
fn an_x_cycle_removes_what_sees_its_weak_link() {
    for shape in [Shape::CLASSIC, Shape::new(2, 3).unwrap()] {
        let n = shape.size();
        let (mid, last) = (n / 2, n - 1);
        let loop_cells = [
            (0, 0),
            (0, mid),
            (mid, mid),
            (mid, last),
            (last, last),
            (last, 0),
        ];
        let mut state = Candidates::new(&Grid::empty(shape));
        for r in 0..n {
            for c in 0..n {
                if !loop_cells.contains(&(r, c)) && (r, c) != (1, mid) {
                    state.eliminate(Cell::at(r, c, n), Digit::new(1).unwrap());
                }
            }
        }
        let mut step = Step::new(&state);
        let mut scratch = chains::ChainScratch::default();
        let found = chains::cycle(
            &state,
            &mut step,
            &mut scratch,
            chains::Links::OneDigit,
            &mut meter::Meter::unlimited(),
        );
        assert_eq!(found, Some(6), "{n}x{n}");
        assert_eq!((step.technique(), step.tenths()), (Technique::XCycle, 65));
        // 1-based: row 2 of the middle column.
        assert_eq!(removed(&step), [(2, mid + 1, 1)], "{n}x{n}");
    }
}

/// Aligned pair exclusion drawn by hand on 9x9 and 6x6 (it met no puzzle of the reference
/// sets, in Sukaku Explainer either): A = r1c1 {1,2} and B, in the middle of the grid, {1,3};
/// the two bivalue cells seeing both, {1,2} in A's row and {2,3} in A's column. A = 2 would
/// empty the first with B = 1 and the second with B = 3, so A loses 2; nothing else goes.
#[test]
fn aligned_pair_exclusion_removes_what_empties_a_bivalue_cell() {
    for shape in [Shape::CLASSIC, Shape::new(2, 3).unwrap()] {
        let n = shape.size();
        let mid = n / 2;
        let mut state = Candidates::new(&Grid::empty(shape));
        for (row, col, keep) in [
            (0, 0, [1, 2]),
            (mid, mid, [1, 3]),
            (0, mid, [1, 2]),
            (mid, 0, [2, 3]),
        ] {
            for d in 1..=n as u8 {
                if !keep.contains(&d) {
                    state.eliminate(Cell::at(row, col, n), Digit::new(d).unwrap());
                }
            }
        }
        let mut step = Step::new(&state);
        assert!(exclusion::aligned_pair(&state, &mut step), "{n}x{n}");
        assert_eq!(
            (step.technique(), step.tenths()),
            (Technique::AlignedPairExclusion, 62)
        );
        assert_eq!(removed(&step), [(1, 1, 2)], "{n}x{n}");
    }
}

/// A thread's kept solver rates on the scale of each call, never on the one its last caller
/// chose: Sukaku's 5.6 (a WXYZ-wing), then SE 1.2.1's 7.1 (a W-wing) for the same puzzle on
/// the same thread.
#[test]
fn a_kept_solver_takes_the_scale_of_each_call() {
    let puzzle = crate::io::puzzle::parse_line(
        ".1......7.....4.28..76..3.4.....92.324.....857.62.....9.1..38..85.9.....3......1.",
        None,
    )
    .unwrap();
    let rate_on = |scale| with_thread_solver(puzzle.shape(), scale, |solver| solver.rate(&puzzle));
    for _ in 0..2 {
        let sukaku = rate_on(Scale::Sukaku);
        assert_eq!((sukaku.hardest, sukaku.score()), (Technique::WxyzWing, 5.6));
        let se121 = rate_on(Scale::Se121);
        assert_eq!((se121.hardest, se121.score()), (Technique::WWing, 7.1));
    }
}
