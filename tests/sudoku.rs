//! Sudoku end to end: known counts, every shape solved and checked by the independent checker,
//! the bundled fixtures against both engines, the batch runner, and (in release builds) the
//! public data sets.

use std::fmt::Write as _;

use quadrille::batch::{self, Parallelism, Record, Summary};
use quadrille::csp::Config;
use quadrille::engine::{DlxSolver, Engine, Outcome, Solve, Solver};
use quadrille::generate::{random_contradictory, random_grid, random_puzzle};
use quadrille::io::puzzle::{Layout, PuzzleReader, parse_line};
use quadrille::sudoku::check::check_solution;
use quadrille::sudoku::{Grid, Shape};
use quadrille::{Budget, Request, SolutionCount, Stop};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64;

use crate::support::oracle::Rules;
use crate::support::{self, data_text, dlx_and_csp, shape};

/// Fixture counts stop here: a `.expected` count of `3+` means "at least 3".
const COUNT_CAP: u64 = 3;

/// The path of `fixtures/sudoku/NAME`.
fn fixture(name: &str) -> String {
    support::fixture(&format!("sudoku/{name}"))
}

/// The count as the fixtures and `quadrille solve --limit` write it: exact, or `N+` when the
/// search stopped before it was exhausted.
fn count_text(outcome: &Outcome) -> String {
    SolutionCount::new(outcome.solutions, outcome.stop).to_string()
}

/// A puzzle with exactly one solution: the full grid of `seed`, whose cells are blanked one by
/// one in a seeded random order, each blank kept only while DLX still finds a unique solution;
/// blanking stops at `floor` givens (big grids keep many givens so that they stay quick).
fn unique_puzzle(solver: &mut DlxSolver, shape: Shape, seed: u64, floor: usize) -> Grid {
    let mut grid = random_grid(shape, seed);
    let mut order: Vec<usize> = (0..shape.cell_count()).collect();
    order.shuffle(&mut Pcg64::seed_from_u64(seed ^ 0x5eed));
    for i in order {
        if grid.givens() <= floor {
            break;
        }
        let digit = grid.cells()[i];
        grid.cells_mut()[i] = 0;
        if !solver.is_unique(&grid) {
            grid.cells_mut()[i] = digit;
        }
    }
    grid
}

/// A puzzle with several solutions: a unique puzzle with more cells blanked, in seeded order,
/// until DLX finds a second solution.
fn several_puzzle(solver: &mut DlxSolver, shape: Shape, seed: u64, floor: usize) -> Grid {
    let mut grid = unique_puzzle(solver, shape, seed, floor);
    let mut order: Vec<usize> = (0..grid.shape().cell_count()).collect();
    order.shuffle(&mut Pcg64::seed_from_u64(seed ^ 0xb1a4));
    for i in order {
        if grid.cells()[i] != 0 {
            grid.cells_mut()[i] = 0;
            if !solver.is_unique(&grid) {
                break;
            }
        }
    }
    grid
}

/// What goes into `fixtures/sudoku/<n>x<n>.txt` for one shape.
struct Plan {
    shape: (usize, usize),
    /// Unique puzzles, and the givens at which blanking stops (as a fraction of the cells).
    unique: u64,
    floor: f64,
    /// Puzzles with several solutions, made by blanking a unique one further.
    several: u64,
    /// `random_puzzle`s with a quarter of the cells given: usually many solutions (small shapes).
    sparse: u64,
    /// `random_contradictory` puzzles: well formed, no solution.
    contradictory: u64,
}

const PLANS: [Plan; 7] = [
    plan((2, 2), 5, 0.0, 2, 2, 2),
    plan((2, 3), 6, 0.0, 3, 2, 2),
    plan((2, 4), 6, 0.0, 3, 2, 2),
    plan((3, 3), 8, 0.0, 3, 2, 2),
    plan((3, 4), 4, 0.45, 2, 0, 1),
    plan((4, 4), 3, 0.55, 2, 0, 1),
    plan((5, 5), 2, 0.7, 1, 0, 1),
];

const fn plan(
    shape: (usize, usize),
    unique: u64,
    floor: f64,
    several: u64,
    sparse: u64,
    contradictory: u64,
) -> Plan {
    Plan {
        shape,
        unique,
        floor,
        several,
        sparse,
        contradictory,
    }
}

/// The puzzles of one plan, each with its label.
fn build_fixture(plan: &Plan) -> Vec<(Grid, &'static str)> {
    let shape = shape(plan.shape.0, plan.shape.1);
    let cells = shape.cell_count();
    let floor = (cells as f64 * plan.floor) as usize;
    let mut solver = DlxSolver::sudoku(shape);
    let mut out = Vec::new();
    for seed in 0..plan.unique {
        out.push((unique_puzzle(&mut solver, shape, seed, floor), "unique"));
    }
    for seed in 0..plan.several {
        out.push((
            several_puzzle(&mut solver, shape, 100 + seed, floor),
            "several",
        ));
    }
    for seed in 0..plan.sparse {
        out.push((random_puzzle(shape, 200 + seed, cells / 4), "sparse"));
    }
    for seed in 0..plan.contradictory {
        let givens = cells * 3 / 4;
        out.push((
            random_contradictory(shape, 300 + seed, givens).unwrap(),
            "none",
        ));
    }
    out
}

/// The `.expected` line of a puzzle: DLX's count up to [`COUNT_CAP`] and its first solution.
fn expected_line(solver: &mut DlxSolver, puzzle: &Grid) -> String {
    let outcome = solver.count(puzzle, Some(COUNT_CAP), &Budget::unlimited());
    let solution = outcome
        .solution
        .as_ref()
        .map_or_else(|| "-".to_string(), Grid::to_string);
    format!("{} {solution}", count_text(&outcome))
}

/// 20 unique classic puzzles for the README's run command, minimised down to 24-30 givens.
fn build_sample() -> Vec<Grid> {
    let mut solver = DlxSolver::sudoku(Shape::CLASSIC);
    (0..20)
        .map(|seed| {
            unique_puzzle(
                &mut solver,
                Shape::CLASSIC,
                1000 + seed,
                24 + (seed % 7) as usize,
            )
        })
        .collect()
}

fn bless() -> bool {
    std::env::var("QUADRILLE_BLESS").is_ok_and(|v| v == "1")
}

fn read_lines(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|err| panic!("{path}: {err}; regenerate with QUADRILLE_BLESS=1"));
    text.lines().map(str::to_string).collect()
}

/// Writes the fixtures when `QUADRILLE_BLESS=1`; always checks them: every puzzle against its
/// `.expected` line with DLX and the default CSP (the same count, every solution valid cell by
/// cell, the expected solution when it is unique).
///
/// Regenerate with `QUADRILLE_BLESS=1 cargo test --release --test tests fixtures`.
#[test]
fn fixtures_match_both_engines() {
    for plan in &PLANS {
        let shape = shape(plan.shape.0, plan.shape.1);
        let n = shape.size();
        let (txt, exp) = (
            fixture(&format!("{n}x{n}.txt")),
            fixture(&format!("{n}x{n}.expected")),
        );
        if bless() {
            let mut solver = DlxSolver::sudoku(shape);
            let (mut puzzles, mut expected) = (String::new(), String::new());
            for (puzzle, label) in build_fixture(plan) {
                writeln!(puzzles, "{puzzle} {label}").unwrap();
                writeln!(expected, "{}", expected_line(&mut solver, &puzzle)).unwrap();
            }
            std::fs::write(&txt, puzzles).unwrap();
            std::fs::write(&exp, expected).unwrap();
        }
        let (puzzles, expected) = (read_lines(&txt), read_lines(&exp));
        assert_eq!(puzzles.len(), expected.len(), "{}: not line-aligned", txt);
        let mut kinds = [0; 3]; // none, unique, several
        let mut solvers =
            dlx_and_csp().map(|engine| (engine, Solver::sudoku(engine, shape).unwrap()));
        for (k, (line, want)) in puzzles.iter().zip(&expected).enumerate() {
            let place = format!("{}:{}", txt, k + 1);
            let puzzle = parse_line(line, None).unwrap_or_else(|e| panic!("{place}: {e}"));
            assert_eq!(puzzle.shape(), shape, "{place}");
            let (count, solution) = want.split_once(' ').expect("count and solution");
            kinds[match count {
                "0" => 0,
                "1" => 1,
                _ => 2,
            }] += 1;
            let solution = (solution != "-").then(|| parse_line(solution, None).unwrap());
            if let Some(solution) = &solution {
                assert_eq!(
                    check_solution(&puzzle, solution),
                    Ok(()),
                    "{place}: .expected"
                );
            }
            for (engine, solver) in &mut solvers {
                let outcome = solver.count(&puzzle, Some(COUNT_CAP), &Budget::unlimited());
                assert_eq!(count_text(&outcome), count, "{place}: {engine}");
                match (&outcome.solution, &solution) {
                    (Some(got), Some(want)) => {
                        assert_eq!(check_solution(&puzzle, got), Ok(()), "{place}: {engine}");
                        if count == "1" {
                            assert_eq!(got, want, "{place}: {engine}");
                        }
                    }
                    (None, None) => {}
                    (got, _) => panic!("{place}: {engine} gave {got:?}, expected {want}"),
                }
            }
        }
        // Each file has all three kinds (unique, several, none).
        assert!(kinds.iter().all(|&k| k > 0), "{}: kinds {kinds:?}", txt);
    }

    let sample = fixture("9x9_sample.txt");
    if bless() {
        let text: String = build_sample().iter().map(|g| format!("{g}\n")).collect();
        std::fs::write(&sample, text).unwrap();
    }
    let mut solver = DlxSolver::sudoku(Shape::CLASSIC);
    let lines = read_lines(&sample);
    assert_eq!(lines.len(), 20);
    for line in &lines {
        let puzzle = parse_line(line, None).unwrap();
        assert!((20..=30).contains(&puzzle.givens()), "{line}");
        let outcome = solver.count(&puzzle, Some(2), &Budget::unlimited());
        assert_eq!(count_text(&outcome), "1", "{line}");
        assert_eq!(
            check_solution(&puzzle, outcome.solution.as_ref().unwrap()),
            Ok(())
        );
    }
}

/// Every completion of a small puzzle, by the oracle's plain backtracking over the cells.
fn brute_force_count(puzzle: &Grid) -> u64 {
    let shape = puzzle.shape();
    Rules::sudoku(shape.box_rows(), shape.box_cols()).count(puzzle.cells())
}

fn count_with(engine: Engine, puzzle: &Grid, limit: Option<u64>, budget: &Budget) -> Outcome {
    Solver::sudoku(engine, puzzle.shape())
        .unwrap()
        .count(puzzle, limit, budget)
}

#[test]
fn empty_4x4_has_288_solutions() {
    let empty = Grid::empty(shape(2, 2));
    assert_eq!(brute_force_count(&empty), 288);
    for engine in Engine::defaults() {
        let outcome = count_with(engine, &empty, None, &Budget::unlimited());
        assert_eq!(
            (outcome.solutions, outcome.stop),
            (288, Stop::Exhausted),
            "{engine}"
        );
        assert_eq!(
            check_solution(&empty, &outcome.solution.unwrap()),
            Ok(()),
            "{engine}"
        );
    }
}

/// 6x6 has 28,200,960 grids: a node budget must say "stopped", never pass a partial count off
/// as the answer.
#[test]
fn empty_6x6_with_a_node_budget_says_node_budget() {
    let empty = Grid::empty(shape(2, 3));
    for engine in dlx_and_csp() {
        let outcome = count_with(engine, &empty, None, &Budget::nodes(5_000));
        assert_eq!(outcome.stop, Stop::NodeBudget, "{engine}");
        assert!(!outcome.is_complete(), "{engine}");
        assert!(
            outcome.solutions > 0 && outcome.solutions < 28_200_960,
            "{engine}"
        );
        assert!(outcome.nodes <= 5_001, "{engine}: {} nodes", outcome.nodes);
        assert_eq!(
            check_solution(&empty, &outcome.solution.unwrap()),
            Ok(()),
            "{engine}"
        );
    }
}

/// Small puzzles with 0, 1 and several solutions: every engine agrees with brute force.
#[test]
fn zero_one_and_many_solutions_agree_with_brute_force() {
    let cases = [
        // 1 and 2 fixed in row 1, 3 under the 1: 12 grids (see DlxSolver's docs).
        ("123.............", 2, 2, None),
        ("1...........4..2", 2, 2, None),
        (".2.43...2......1", 2, 2, None),
        ("12....1221....21", 2, 2, None),
        // Well formed but r1c4 has no digit left (1, 2, 3 in its row, 4 in its column).
        ("123........4....", 2, 2, Some(0)),
    ];
    for (text, r, c, want) in cases {
        let puzzle = parse_line(text, Some(shape(r, c))).unwrap();
        let truth = brute_force_count(&puzzle);
        if let Some(want) = want {
            assert_eq!(truth, want, "{text}");
        }
        for engine in Engine::defaults() {
            let outcome = count_with(engine, &puzzle, None, &Budget::unlimited());
            assert_eq!(
                (outcome.solutions, outcome.stop),
                (truth, Stop::Exhausted),
                "{engine} {text}"
            );
            if let Some(solution) = &outcome.solution {
                assert_eq!(check_solution(&puzzle, solution), Ok(()), "{engine} {text}");
            }
        }
    }
    // Random 6x6 puzzles of every kind, against brute force.
    let s = shape(2, 3);
    let mut seen = [false; 3];
    for seed in 0..40 {
        let puzzle = if seed % 5 == 4 {
            random_contradictory(s, seed, 18).unwrap()
        } else {
            random_puzzle(s, seed, 12 + (seed as usize % 8))
        };
        let truth = brute_force_count(&puzzle);
        seen[truth.min(2) as usize] = true;
        for engine in dlx_and_csp() {
            let outcome = count_with(engine, &puzzle, None, &Budget::unlimited());
            assert_eq!(outcome.solutions, truth, "{engine} {puzzle}");
        }
    }
    assert_eq!(
        seen, [true; 3],
        "the random 6x6 puzzles cover 0, 1 and several solutions"
    );
}

/// Every box shape, square and not, solved by DLX and the CSP presets and checked cell by cell.
#[test]
fn every_shape_is_solved_and_checked() {
    let shapes = [
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (4, 2),
        (3, 3),
        (2, 5),
        (3, 4),
        (4, 3),
        (4, 4),
        (5, 5),
    ];
    for (r, c) in shapes {
        let s = shape(r, c);
        let cells = s.cell_count();
        // Many givens on the big grids keeps the weak configurations quick.
        let givens = if s.size() <= 9 {
            cells * 2 / 5
        } else {
            cells * 2 / 3
        };
        for seed in 0..3 {
            let puzzle = random_puzzle(s, seed, givens);
            for engine in Engine::defaults() {
                let outcome = count_with(engine, &puzzle, Some(1), &Budget::nodes(200_000));
                let solution = outcome
                    .solution
                    .unwrap_or_else(|| panic!("{s} seed {seed} {engine}: {:?}", outcome.stop));
                if let Err(msg) = check_solution(&puzzle, &solution) {
                    panic!("{s} seed {seed} {engine}: {msg}\n{puzzle}\n{solution}");
                }
            }
        }
    }
}

/// The library does not trust its caller: clashing givens are 0 solutions, not a panic.
#[test]
fn clashing_givens_have_no_solution() {
    let s = Shape::CLASSIC;
    let mut row = Grid::empty(s);
    row.set(4, 0, 7);
    row.set(4, 8, 7);
    let mut column = Grid::empty(s);
    column.set(0, 2, 3);
    column.set(8, 2, 3);
    let mut in_box = Grid::empty(s);
    in_box.set(3, 3, 9);
    in_box.set(5, 5, 9);
    for puzzle in [row, column, in_box] {
        for engine in Engine::defaults() {
            let outcome = count_with(engine, &puzzle, None, &Budget::unlimited());
            assert_eq!(outcome.solutions, 0, "{engine} {puzzle}");
            assert_eq!(outcome.stop, Stop::Exhausted, "{engine} {puzzle}");
            assert_eq!(outcome.solution, None, "{engine}");
        }
        // A reused DLX solver is left clean by a clash: the next puzzle is solved normally.
        let mut solver = DlxSolver::sudoku(s);
        assert_eq!(solver.solve(&puzzle).solutions, 0);
        let good = random_puzzle(s, 1, 40);
        let outcome = solver.solve(&good);
        assert_eq!(check_solution(&good, &outcome.solution.unwrap()), Ok(()));
    }
}

/// Each record of a batch as (line, outcome or error message).
type Results = Vec<(usize, Result<Outcome, String>)>;

fn run_batch(input: &str, engine: Engine, request: &Request) -> (Results, Summary) {
    let reader = PuzzleReader::new(input.as_bytes(), None, Layout::Line);
    let mut records = Vec::new();
    let summary = batch::solve(
        reader,
        engine,
        request,
        Parallelism::AcrossPuzzles,
        |r: &Record| {
            let result = match &r.result {
                Ok(solved) => Ok(solved.outcome.clone()),
                Err(err) => Err(err.to_string()),
            };
            records.push((r.line, result));
            Ok(())
        },
    )
    .unwrap();
    (records, summary)
}

/// Order, accounting, and going on after bad lines, across several chunks of the batch runner.
#[test]
fn batch_keeps_order_and_accounts_for_every_line() {
    let s = shape(2, 2);
    let mut input = String::from("# a batch\n\n");
    let mut want = Vec::new(); // (line, puzzle or bad)
    for k in 0..5000u64 {
        let line = input.lines().count() + 1;
        match k % 97 {
            13 => {
                input.push_str("12*4............\n");
                want.push((line, None));
            }
            50 => {
                input.push_str("# a comment between puzzles\n");
            }
            _ => {
                let puzzle = random_puzzle(s, k, (k % 9) as usize);
                input.push_str(&format!("{puzzle} label{k}\n"));
                want.push((line, Some(puzzle)));
            }
        }
    }
    let total_lines = input.lines().count();
    let request = Request {
        limit: Some(2),
        ..Request::default()
    };
    let (records, summary) = run_batch(&input, Engine::Dlx, &request);
    assert_eq!(records.len(), want.len());
    let mut several = 0;
    for ((line, result), (want_line, puzzle)) in records.iter().zip(&want) {
        assert_eq!(line, want_line);
        match (result, puzzle) {
            (Ok(outcome), Some(puzzle)) => {
                assert!(outcome.solutions >= 1, "line {line}");
                several += usize::from(outcome.solutions >= 2);
                let solution = outcome.solution.as_ref().unwrap();
                assert_eq!(check_solution(puzzle, solution), Ok(()), "line {line}");
            }
            (Err(msg), None) => {
                assert_eq!(
                    msg,
                    &format!("line {line}, column 3: unexpected character '*'")
                );
            }
            other => panic!("line {line}: {other:?}"),
        }
    }
    let bad = want.iter().filter(|(_, p)| p.is_none()).count();
    assert_eq!(summary.lines, total_lines);
    assert_eq!(summary.puzzles, want.len());
    assert_eq!(summary.errors, bad);
    assert_eq!(summary.solved, want.len() - bad);
    assert_eq!(summary.multiple, several);
    assert_eq!(summary.unique + summary.multiple, summary.solved);
}

/// A failing output callback (a closed pipe, say) ends the batch with its error, after the
/// records before it and no others, though later chunks were already being read and solved.
#[test]
fn batch_stops_at_the_first_failed_output() {
    let s = shape(2, 2);
    let input: String = (0..5000u64)
        .map(|k| format!("{}\n", random_puzzle(s, k, 6)))
        .collect();
    let reader = PuzzleReader::new(input.as_bytes(), None, Layout::Line);
    let mut lines = Vec::new();
    let result = batch::solve(
        reader,
        Engine::Dlx,
        &Request::default(),
        Parallelism::AcrossPuzzles,
        |r: &Record| {
            if lines.len() == 3000 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::BrokenPipe,
                    "closed",
                ));
            }
            lines.push(r.line);
            Ok(())
        },
    );
    let err = result.unwrap_err();
    assert!(err.to_string().contains("closed"), "{err}");
    assert_eq!(lines, (1..=3000).collect::<Vec<_>>());
}

/// Solutions and failures land on their own lines even when shapes and engines mix.
#[test]
fn batch_mixes_shapes_and_reports_unsolvable() {
    let puzzles = [
        random_puzzle(shape(2, 2), 1, 6),
        random_contradictory(shape(3, 3), 2, 30).unwrap(),
        random_puzzle(shape(2, 3), 3, 20),
        random_puzzle(shape(3, 3), 4, 40),
        random_contradictory(shape(2, 4), 5, 30).unwrap(),
    ];
    let input: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    for engine in [Engine::Dlx, "csp:first+lex+fc".parse().unwrap()] {
        let request = Request {
            limit: Some(1),
            ..Request::default()
        };
        let (records, summary) = run_batch(&input, engine, &request);
        for (k, (line, result)) in records.iter().enumerate() {
            assert_eq!(*line, k + 1);
            let outcome = result.as_ref().unwrap();
            match &outcome.solution {
                Some(solution) => assert_eq!(check_solution(&puzzles[k], solution), Ok(())),
                None => assert_eq!(
                    (k % 3, outcome.stop),
                    (1, Stop::Exhausted),
                    "{engine} line {line}"
                ),
            }
        }
        assert_eq!(
            (summary.puzzles, summary.solved, summary.unsolvable),
            (5, 3, 2),
            "{engine}"
        );
    }
}

// --- The public data sets: ignored unless asked for (`cargo test -- --ignored`, as .ci/run
// does), and skipped with a note when they are missing (see `support::data_set`) ---

/// Counts the first `limit` puzzles of a data set up to 2 with DLX, on all threads, through
/// the batch runner; returns (line, puzzle, outcome) in input order.
fn count_data_set(text: &str, limit: usize) -> Vec<(usize, Grid, Outcome)> {
    // Cut the text after the `limit`-th puzzle line, so that line numbers stay the file's.
    let mut end = text.len();
    let mut seen = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        offset += line.len();
        let body = line.trim();
        if !body.is_empty() && !body.starts_with('#') {
            seen += 1;
            if seen == limit {
                end = offset;
                break;
            }
        }
    }
    let reader = PuzzleReader::new(&text.as_bytes()[..end], None, Layout::Line);
    let request = Request {
        limit: Some(2),
        ..Request::default()
    };
    let mut out = Vec::new();
    batch::solve(
        reader,
        Engine::Dlx,
        &request,
        Parallelism::AcrossPuzzles,
        |r: &Record| {
            let solved = r.result.as_ref().unwrap_or_else(|e| panic!("{e}"));
            out.push((r.line, solved.puzzle.grid.clone(), solved.outcome.clone()));
            Ok(())
        },
    )
    .unwrap();
    out
}

/// Every record counted `want` (solutions, stop), its solution checked cell by cell.
fn each_counts(records: &[(usize, Grid, Outcome)], want: (u64, Stop)) {
    for (line, puzzle, outcome) in records {
        assert_eq!((outcome.solutions, outcome.stop), want, "line {line}");
        assert_eq!(
            check_solution(puzzle, outcome.solution.as_ref().unwrap()),
            Ok(()),
            "line {line}"
        );
    }
}

#[test]
#[ignore = "reads ../shared/data; run with --ignored"]
fn all_17_clue_puzzles_are_unique() {
    let Some(text) = data_text("puzzles2_17_clue") else {
        return;
    };
    let records = count_data_set(&text, usize::MAX);
    assert_eq!(records.len(), 49_158);
    for (line, puzzle, _) in &records {
        assert_eq!(puzzle.givens(), 17, "line {line}");
    }
    each_counts(&records, (1, Stop::Exhausted));
}

#[test]
#[ignore = "reads ../shared/data; run with --ignored"]
fn serg_benchmark_puzzles_have_several_solutions() {
    let Some(text) = data_text("puzzles7_serg_benchmark") else {
        return;
    };
    let records = count_data_set(&text, usize::MAX);
    assert_eq!(records.len(), 10_000);
    each_counts(&records, (2, Stop::Limit));
}

#[test]
#[ignore = "reads ../shared/data; run with --ignored"]
fn top1465_dlx_and_csp_give_the_same_solution() {
    let Some(text) = data_text("puzzles3_magictour_top1465") else {
        return;
    };
    let records = count_data_set(&text, 200);
    assert_eq!(records.len(), 200);
    let mut csp = Solver::sudoku(Engine::Csp(Config::default()), Shape::CLASSIC).unwrap();
    for (line, puzzle, dlx) in &records {
        let solution = dlx.solution.as_ref().unwrap();
        assert_eq!(check_solution(puzzle, solution), Ok(()), "line {line}");
        let csp = csp.count(puzzle, Some(1), &Budget::unlimited());
        assert_eq!(csp.solution.as_ref(), Some(solution), "line {line}");
    }
}
