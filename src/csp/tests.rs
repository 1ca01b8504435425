//! Tests of the CSP solver against independent checks: a brute-force counter, a grid
//! checker written here, and known counts (288 4x4 grids).

use std::time::{Duration, Instant};

use super::*;
use crate::engine::Solve;
use crate::sudoku::{Grid, Shape};
use crate::{Budget, ErrorKind, Stop};

/// Up to `max` 9x9 puzzles of a data file (81 characters a line, `#` comments).
fn load(file: &str, max: usize) -> Option<Vec<Grid>> {
    let text = crate::test_data::data_text(file)?;
    Some(
        text.lines()
            .map(str::trim)
            .filter(|l| l.len() == 81 && !l.starts_with('#'))
            .take(max)
            .map(parse9)
            .collect(),
    )
}

fn parse9(line: &str) -> Grid {
    let cells = line
        .bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect();
    Grid::from_cells(Shape::CLASSIC, cells).expect("81 cells")
}

/// Whether `solution` is full, keeps the givens of `puzzle`, and has every digit once in
/// every row, column and box. Written without the solver's tables.
fn is_solution_of(solution: &Grid, puzzle: &Grid) -> bool {
    let shape = puzzle.shape();
    let n = shape.size();
    if solution.shape() != shape || !solution.is_full() {
        return false;
    }
    for r in 0..n {
        for c in 0..n {
            if puzzle.get(r, c) != 0 && puzzle.get(r, c) != solution.get(r, c) {
                return false;
            }
        }
    }
    let mut seen = vec![false; 3 * n * (n + 1)];
    for r in 0..n {
        for c in 0..n {
            let d = solution.get(r, c) as usize;
            for key in [r * (n + 1) + d, (n + c) * (n + 1) + d] {
                if std::mem::replace(&mut seen[key], true) {
                    return false;
                }
            }
            let b = (r / shape.box_rows()) * shape.box_rows() + c / shape.box_cols();
            let key = (2 * n + b) * (n + 1) + d;
            if std::mem::replace(&mut seen[key], true) {
                return false;
            }
        }
    }
    true
}

/// Counts completions by plain backtracking over cells in order, checking every rule by
/// scanning the grid. Slow and obviously right; for small grids only.
fn brute_count(grid: &mut Grid) -> u64 {
    let shape = grid.shape();
    let n = shape.size();
    let Some(at) = grid.cells().iter().position(|&d| d == 0) else {
        return 1;
    };
    let (r, c) = (at / n, at % n);
    let (r0, c0) = (
        r / shape.box_rows() * shape.box_rows(),
        c / shape.box_cols() * shape.box_cols(),
    );
    let mut total = 0;
    for d in 1..=n as u8 {
        let clash = (0..n).any(|i| grid.get(r, i) == d || grid.get(i, c) == d)
            || (0..shape.box_rows())
                .any(|dr| (0..shape.box_cols()).any(|dc| grid.get(r0 + dr, c0 + dc) == d));
        if !clash {
            grid.set(r, c, d);
            total += brute_count(grid);
            grid.set(r, c, 0);
        }
    }
    total
}

/// A tiny deterministic generator (xorshift), so the tests need no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, k: usize) -> usize {
        (self.next() % k as u64) as usize
    }
}

/// A valid full grid: the pattern `d(r, c) = (r % R * C + r / R + c) % n + 1`, with the
/// digits relabelled at random.
fn pattern_grid(shape: Shape, rng: &mut Rng) -> Grid {
    let (rows, cols, n) = (shape.box_rows(), shape.box_cols(), shape.size());
    let mut relabel: Vec<u8> = (1..=n as u8).collect();
    for i in (1..n).rev() {
        relabel.swap(i, rng.below(i + 1));
    }
    let mut grid = Grid::empty(shape);
    for r in 0..n {
        for c in 0..n {
            grid.set(r, c, relabel[(r % rows * cols + r / rows + c) % n]);
        }
    }
    assert!(
        is_solution_of(&grid, &Grid::empty(shape)),
        "pattern for {shape}"
    );
    grid
}

/// `full` with each cell blanked with probability `percent`/100.
fn blank(full: &Grid, percent: usize, rng: &mut Rng) -> Grid {
    let mut puzzle = full.clone();
    for d in puzzle.cells_mut() {
        if rng.below(100) < percent {
            *d = 0;
        }
    }
    puzzle
}

fn count_all(config: Config, puzzle: &Grid) -> CspReport {
    CspSolver::new(puzzle.shape().board(), config).count_report(
        puzzle,
        &[],
        None,
        &Budget::unlimited(),
    )
}

#[test]
fn every_config_counts_288_grids_of_4x4() {
    let shape = Shape::new(2, 2).unwrap();
    let configs = Config::all();
    assert_eq!(configs.len(), 216);
    for config in configs {
        let outcome = count_all(config, &Grid::empty(shape));
        assert_eq!(outcome.solutions, 288, "{config}");
        assert_eq!(outcome.stop, Stop::Exhausted, "{config}");
        let solution = outcome.solution.expect("a solution");
        assert!(is_solution_of(&solution, &Grid::empty(shape)), "{config}");
        // Run to the end, every value tried was undone.
        assert_eq!(
            outcome.stats.backtracks,
            outcome.stats.nodes - 1,
            "{config}"
        );
    }
}

#[test]
fn every_config_agrees_with_brute_force_on_small_puzzles() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (rows, cols, percent) in [(2, 2, 70), (2, 3, 55), (3, 2, 55)] {
        let shape = Shape::new(rows, cols).unwrap();
        for _ in 0..6 {
            let full = pattern_grid(shape, &mut rng);
            let puzzle = blank(&full, percent, &mut rng);
            let expected = brute_count(&mut puzzle.clone());
            assert!(expected >= 1);
            for config in Config::all() {
                let outcome = count_all(config, &puzzle);
                assert_eq!(outcome.solutions, expected, "{config} on {puzzle:?}");
                assert!(is_solution_of(&outcome.solution.unwrap(), &puzzle));
            }
        }
    }
}

#[test]
fn default_counts_a_partial_6x6_like_brute_force() {
    let shape = Shape::new(2, 3).unwrap();
    let mut rng = Rng(12345);
    let full = pattern_grid(shape, &mut rng);
    // Keep only the first two rows: many completions, still quick to brute-force.
    let mut puzzle = full.clone();
    for d in &mut puzzle.cells_mut()[12..] {
        *d = 0;
    }
    let expected = brute_count(&mut puzzle.clone());
    assert!(expected > 100, "{expected}");
    let outcome = count_all(Config::default(), &puzzle);
    assert_eq!(outcome.solutions, expected);
    assert_eq!(outcome.stop, Stop::Exhausted);
}

#[test]
fn solutions_are_valid_on_every_shape() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for (rows, cols, percent) in [
        (2, 2, 60),
        (2, 3, 60),
        (3, 2, 60),
        (3, 3, 60),
        (3, 4, 55),
        (4, 3, 55),
        (4, 4, 50),
        (5, 5, 45),
        (8, 8, 25), // n = 64: full 64-bit masks, 192 units in three words
    ] {
        let shape = Shape::new(rows, cols).unwrap();
        let full = pattern_grid(shape, &mut rng);
        let puzzle = blank(&full, percent, &mut rng);
        let outcome = CspSolver::new(shape.board(), Config::default()).solve(&puzzle);
        assert_eq!(outcome.solutions, 1, "{shape}");
        assert_eq!(outcome.stop, Stop::Limit, "{shape}");
        let solution = outcome.solution.expect("a solution");
        assert!(is_solution_of(&solution, &puzzle), "{shape}: {solution:?}");
    }
}

/// Hard 9x9 puzzles with one solution each (Norvig's hard1, Easter Monster, AI Escargot).
const HARD: [&str; 3] = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
];

#[test]
fn hard_puzzles_have_one_solution_in_every_preset() {
    let puzzles: Vec<Grid> = HARD.iter().map(|l| parse9(l)).collect();
    one_solution_in_every_preset(&puzzles);
}

#[test]
#[ignore = "reads ../shared/data; run with --ignored"]
fn top1465_puzzles_have_one_solution_in_every_preset() {
    let Some(puzzles) = load("puzzles3_magictour_top1465", 5) else {
        return;
    };
    assert_eq!(puzzles.len(), 5);
    one_solution_in_every_preset(&puzzles);
}

fn one_solution_in_every_preset(puzzles: &[Grid]) {
    for puzzle in puzzles {
        let mut first: Option<Grid> = None;
        for config in Config::presets() {
            let outcome = CspSolver::new(Shape::CLASSIC.board(), config).count(
                puzzle,
                Some(2),
                &Budget::nodes(2_000_000),
            );
            if config.variable == VariableOrder::First && outcome.stop == Stop::NodeBudget {
                // Blind cell order may need far more nodes; it must not claim anything.
                assert!(outcome.solutions <= 1);
                continue;
            }
            assert_eq!(outcome.stop, Stop::Exhausted, "{config} on {puzzle}");
            assert_eq!(outcome.solutions, 1, "{config} on {puzzle}");
            let solution = outcome.solution.unwrap();
            assert!(is_solution_of(&solution, puzzle), "{config}");
            if let Some(f) = &first {
                assert_eq!(f, &solution, "{config}");
            }
            first = Some(solution);
        }
    }
}

#[test]
fn contradictory_puzzles_have_no_solution() {
    // Two 5s in the first row.
    let duplicate = format!("5...5{}", ".".repeat(76));
    // r1c1 sees 1-8 in its row and 9 in its column.
    let dead_cell = format!(".12345678{}{}", "9........", ".".repeat(63));
    for line in [&duplicate, &dead_cell] {
        for config in Config::all() {
            let outcome = count_all(config, &parse9(line));
            assert_eq!(outcome.solutions, 0, "{config} on {line}");
            assert_eq!(outcome.stop, Stop::Exhausted, "{config}");
            assert!(outcome.solution.is_none());
        }
    }
}

#[test]
fn a_swappable_rectangle_gives_two_solutions() {
    let solved =
        parse9("417369825632158947958724316825437169791586432346912758289643571573291684164875293");
    // Find r1 < r2 in one band and c1 < c2 with the digits a b / b a: blanking those four
    // cells leaves exactly the two ways to fill them.
    let g = |r, c| solved.get(r, c);
    let mut found = None;
    'search: for r1 in 0..9 {
        for r2 in r1 + 1..(r1 / 3 + 1) * 3 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    if g(r1, c1) == g(r2, c2) && g(r1, c2) == g(r2, c1) {
                        found = Some((r1, r2, c1, c2));
                        break 'search;
                    }
                }
            }
        }
    }
    let (r1, r2, c1, c2) = found.expect("the grid has a swappable rectangle");
    let mut puzzle = solved.clone();
    for (r, c) in [(r1, c1), (r1, c2), (r2, c1), (r2, c2)] {
        puzzle.set(r, c, 0);
    }
    assert_eq!(brute_count(&mut puzzle.clone()), 2);
    for config in Config::presets() {
        let outcome = count_all(config, &puzzle);
        assert_eq!(outcome.solutions, 2, "{config}");
        assert_eq!(outcome.stop, Stop::Exhausted);
        let limited = CspSolver::new(Shape::CLASSIC.board(), config).count(
            &puzzle,
            Some(1),
            &Budget::unlimited(),
        );
        assert_eq!((limited.solutions, limited.stop), (1, Stop::Limit));
    }
}

#[test]
fn budgets_stop_the_search_and_say_so() {
    let empty = Grid::empty(Shape::CLASSIC);
    for config in Config::presets() {
        let mut solver = CspSolver::new(Shape::CLASSIC.board(), config);
        let outcome = solver.count(&empty, None, &Budget::nodes(1000));
        assert_eq!(outcome.stop, Stop::NodeBudget, "{config}");
        assert!(outcome.stop.is_budget());
        assert_eq!(outcome.nodes, 1000, "{config}");
        // What was found is real.
        assert!(outcome.solutions >= 1, "{config}");
        assert!(is_solution_of(&outcome.solution.unwrap(), &empty));
        if config.variable == VariableOrder::First {
            continue;
        }
        // The same solver, reused, with enough budget for a unique puzzle: exact.
        let hard = parse9(HARD[0]);
        let outcome = solver.count(&hard, None, &Budget::nodes(5_000_000));
        assert_eq!(
            (outcome.solutions, outcome.stop),
            (1, Stop::Exhausted),
            "{config}"
        );
        // Too little budget for the same puzzle must not claim it has no solution.
        let outcome = solver.count(&hard, None, &Budget::nodes(3));
        assert!(outcome.stop == Stop::NodeBudget || outcome.solutions == 1);
        assert!(!outcome.stop.is_complete() || outcome.solutions == 1);
    }
    let big = Grid::empty(Shape::new(4, 4).unwrap());
    let started = Instant::now();
    let outcome = CspSolver::new(big.shape().board(), Config::default()).count(
        &big,
        None,
        &Budget::time(Duration::from_millis(50)),
    );
    assert_eq!(outcome.stop, Stop::TimeBudget);
    assert!(started.elapsed() < Duration::from_secs(5));
    let outcome = CspSolver::new(big.shape().board(), Config::default()).count(
        &big,
        Some(0),
        &Budget::unlimited(),
    );
    assert_eq!((outcome.solutions, outcome.stop), (0, Stop::Limit));
}

#[test]
fn stats_count_what_the_docs_say() {
    let puzzle = parse9(HARD[1]);
    let outcome = count_all(Config::default(), &puzzle);
    let stats = outcome.stats;
    assert!(stats.nodes > 1 && stats.max_depth >= 1);
    assert_eq!(stats.backtracks, stats.nodes - 1);
    assert!(stats.inferences.hidden_singles > 0 && stats.inferences.naked_singles > 0);
    assert_eq!(
        stats.inferences.naked_pairs + stats.inferences.pigeonhole,
        0
    );
    let strong = count_all("triples+pigeonhole".parse().unwrap(), &puzzle).stats;
    assert!(strong.inferences.naked_pairs + strong.inferences.hidden_pairs > 0);
    assert!(strong.nodes <= stats.nodes);
    // Forward checking alone never assigns singles.
    let fc = count_all("fc".parse().unwrap(), &parse9(HARD[0])).stats;
    assert_eq!(
        fc.inferences.naked_singles + fc.inferences.hidden_singles,
        0
    );
    assert!(fc.inferences.forward_checking > 0);
    assert_eq!(fc.inferences.total(), fc.inferences.forward_checking);
    // A puzzle solved by propagation alone has depth 0 and one node.
    let solved = count_all(Config::default(), &parse9(HARD_SOLUTION_0)).stats;
    assert_eq!((solved.nodes, solved.max_depth), (1, 0));
}

const HARD_SOLUTION_0: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

#[test]
fn config_names_round_trip() {
    for config in Config::all() {
        let name = config.to_string();
        assert_eq!(name.parse::<Config>().unwrap(), config, "{name}");
    }
    let shuffled: Config = "pigeonhole+least-placed+pairs+mrv-degree".parse().unwrap();
    assert_eq!(
        shuffled.to_string(),
        "mrv-degree+least-placed+pairs+pigeonhole"
    );
    assert_eq!("".parse::<Config>().unwrap(), Config::default());
    // Missing parts are the default's, but `scaled` only when named.
    assert_eq!(
        "MRV-degree+Lex".parse::<Config>().unwrap().to_string(),
        "mrv-degree+lex+hidden-singles"
    );
    let filling: Config = "fill+alldiff+intersections".parse().unwrap();
    assert!(filling.fill && !filling.scaled);
    assert_eq!(
        filling.to_string(),
        "mrv-degree+lex+alldiff+intersections+fill"
    );
    assert_eq!(Config::default().for_side(64), filling);
    assert_eq!(
        Config::default().for_side(16).to_string(),
        "mrv-degree+lex+hidden-singles"
    );
    let default = Config::default().to_string();
    assert_eq!(default, "mrv-degree+lex+hidden-singles+scaled");
    assert_eq!(default.parse::<Config>().unwrap(), Config::default());
    assert!(Config::presets().contains(&Config::default()));
}

/// `fill` changes the order of the search, never what it counts: on nearly empty 4x4 and
/// 6x6 puzzles (more than three quarters open, so the fill is on) every level with `fill`
/// counts every completion as brute force does, restarting or not.
#[test]
fn fill_counts_like_brute_force_on_nearly_empty_grids() {
    let mut rng = Rng(0x0f11_0f11);
    for (rows, cols, kept) in [(2, 2, 0), (2, 2, 2), (2, 2, 3), (2, 3, 6), (3, 2, 5)] {
        let shape = Shape::new(rows, cols).unwrap();
        let full = pattern_grid(shape, &mut rng);
        let mut puzzle = Grid::empty(shape);
        for (out, &d) in puzzle.cells_mut().iter_mut().zip(full.cells()).take(kept) {
            *out = d;
        }
        let expected = brute_count(&mut puzzle.clone());
        for level in ["hidden-singles", "alldiff+intersections"] {
            let config: Config = format!("{level}+fill").parse().unwrap();
            let outcome = count_all(config, &puzzle);
            assert_eq!(outcome.solutions, expected, "{config} on {shape}, {kept}");
            assert_eq!(outcome.stop, Stop::Exhausted);
            // Up to a limit the search restarts.
            let limit = expected / 2 + 1;
            let limited = CspSolver::new(shape.board(), config).count(
                &puzzle,
                Some(limit),
                &Budget::unlimited(),
            );
            assert_eq!(limited.solutions, limit.min(expected), "{config}");
            assert!(is_solution_of(&limited.solution.unwrap(), &puzzle));
        }
    }
}

/// The easy end (issue 29): the default solves the empty grid of every box shape up to
/// 25x25, random 36x36 puzzles with 95% and 99% blanks and a 95%-blank 64x64, each within a
/// node budget that leaves no room for thrashing, and every answer keeps the rules.
#[test]
fn the_default_solves_empty_and_nearly_empty_grids() {
    let mut puzzles = Vec::new();
    for rows in 1..=25 {
        for cols in 1..=25 / rows {
            if rows * cols >= 2 {
                puzzles.push(Grid::empty(Shape::new(rows, cols).unwrap()));
            }
        }
    }
    let large = Shape::new(6, 6).unwrap();
    for seed in 0..3 {
        for blanks in [1231, 1283] {
            puzzles.push(crate::generate::random_puzzle(large, seed, 1296 - blanks));
        }
    }
    puzzles.push(Grid::empty(large));
    // Where the fewest-candidates order thrashed for tens of thousands of nodes.
    let largest = Shape::new(8, 8).unwrap();
    puzzles.push(crate::generate::random_puzzle(largest, 1, 4096 - 3891));
    for puzzle in puzzles {
        let shape = puzzle.shape();
        let mut solver = CspSolver::new(shape.board(), Config::default());
        let outcome = solver.count(&puzzle, Some(2), &Budget::nodes(20_000));
        assert_eq!(
            outcome.stop,
            Stop::Limit,
            "{shape}, {} givens",
            puzzle.givens()
        );
        assert!(
            is_solution_of(&outcome.solution.unwrap(), &puzzle),
            "{shape}"
        );
    }
}

/// A stack that keeps each level's changed words searches exactly as one that keeps whole
/// blocks: the same nodes, backtracks and answers, where the search backs up many levels
/// (counting all solutions of a 6x6 puzzle, proving a 9x9 puzzle unique, restarting runs).
#[test]
fn logged_levels_search_as_whole_blocks_do() {
    let six = Shape::new(2, 3).unwrap();
    let nine = Shape::CLASSIC;
    let cases = [
        (crate::generate::random_puzzle(six, 1, 8), None),
        (parse9(HARD[0]), Some(2)),
        (crate::generate::random_puzzle(nine, 4, 20), Some(50)),
    ];
    for (puzzle, limit) in cases {
        let reports: Vec<_> = [false, true]
            .into_iter()
            .map(|logged| {
                let mut solver = CspSolver::new(puzzle.shape().board(), Config::default());
                solver.set_logged_stack(logged);
                solver.count_report(&puzzle, &[], limit, &Budget::unlimited())
            })
            .collect();
        let (whole, logged) = (&reports[0], &reports[1]);
        assert!(whole.stats.backtracks > 10, "the search backs up");
        assert_eq!(whole.solutions, logged.solutions);
        assert_eq!(whole.solution, logged.solution);
        assert_eq!(
            (
                whole.stats.nodes,
                whole.stats.backtracks,
                whole.stats.max_depth
            ),
            (
                logged.stats.nodes,
                logged.stats.backtracks,
                logged.stats.max_depth
            )
        );
    }
}

#[test]
fn unknown_or_conflicting_tokens_are_errors() {
    let err = "mrv+fast+lex".parse::<Config>().unwrap_err();
    let message = err.to_string();
    assert!(message.contains("'fast'"), "{message}");
    assert!(message.contains("hidden-singles") && message.contains("least-placed"));
    assert!(matches!(err.kind(), ErrorKind::UnknownName { name, .. } if name == "fast"));
    let err = "fc+ac".parse::<Config>().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::ConflictingNames { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("'ac'") && err.to_string().contains("'fc'"));
    assert!("mrv++lex".parse::<Config>().is_err());
}

/// The board of an n x n Latin square: rows and columns, no boxes.
fn latin_board(n: usize) -> crate::board::Board {
    use crate::board::{Board, Cell, Group};
    let rows = (0..n).map(|r| Group::new("row", r + 1, (0..n).map(|c| Cell::at(r, c, n))));
    let cols = (0..n).map(|c| Group::new("column", c + 1, (0..n).map(|r| Cell::at(r, c, n))));
    Board::new(n, rows.chain(cols).collect::<crate::Result<_>>().unwrap()).unwrap()
}

#[test]
fn a_solver_follows_its_board() {
    // The same empty 4x4 grid: 288 Sudoku grids, 576 Latin squares (a known count).
    let empty = Grid::empty(Shape::new(2, 2).unwrap());
    let count = |board: &crate::board::Board| {
        CspSolver::new(board, Config::default())
            .count(&empty, None, &Budget::unlimited())
            .solutions
    };
    assert_eq!(count(Shape::new(2, 2).unwrap().board()), 288);
    assert_eq!(count(&latin_board(4)), 576);
    // 2x3 and 3x2 boxes are different boards with the same side.
    let mut rng = Rng(77);
    let wide = blank(
        &pattern_grid(Shape::new(3, 2).unwrap(), &mut rng),
        50,
        &mut rng,
    );
    let mut solver = CspSolver::new(Shape::new(3, 2).unwrap().board(), Config::default());
    let outcome = solver.solve(&wide);
    assert!(is_solution_of(&outcome.solution.unwrap(), &wide));
    assert_eq!(solver.config(), Config::default().for_side(6));
}

/// Runs `f` on a fresh state of `board` and a propagator at `level` over it.
fn with_propagator<R>(
    level: Propagation,
    board: &crate::board::Board,
    f: impl FnOnce(&mut super::propagate::Propagator, &mut super::domains::State) -> R,
) -> R {
    use super::domains::{CspTables, State};
    use super::propagate::Propagator;
    use crate::bipartite::AllDiff;
    let t = CspTables::new(board);
    let mut block = vec![0; t.stride()];
    t.reset(&mut block);
    let mut s = State::view(&t, &mut block);
    let mut queue = vec![0; t.cells() + t.max_peers() + 1];
    let mut alldiff = AllDiff::new(t.n(), t.unit_count());
    let mut inf = Inferences::default();
    let mut p = Propagator {
        t: &t,
        queue: &mut queue,
        len: 0,
        dirty: t.all_units(),
        stale: Default::default(),
        alldiff: &mut alldiff,
        inf: &mut inf,
        level,
        pigeonhole: false,
        intersections: false,
        crossed: Default::default(),
    };
    f(&mut p, &mut s)
}

/// Propagates `level` on an n x n Latin square whose row 0 has the domains `row` (digit
/// bitsets, none a single digit, so that nothing is queued) and every other cell all n
/// digits. Row 0's domains afterwards, or `None` on a contradiction.
fn propagate_row(level: Propagation, row: &[u64]) -> Option<Vec<u64>> {
    let n = row.len();
    with_propagator(level, &latin_board(n), |p, s| {
        s.dom[..n].copy_from_slice(row);
        p.propagate(s).then(|| s.dom.to_vec()[..n].to_vec())
    })
}

/// Every cell's domain after the givens of `puzzle` propagate at `level`, or `None` on a
/// contradiction.
fn root_domains(level: Propagation, puzzle: &Grid) -> Option<Vec<u64>> {
    with_propagator(level, puzzle.shape().board(), |p, s| {
        p.root(s, puzzle.cells(), &[]).then(|| s.dom.to_vec())
    })
}

#[test]
fn alldiff_prunes_at_least_what_triples_prune() {
    // Random givens of 16x16 grids and 16x16 Latin squares, many enough that propagation
    // has something to work on.
    let mut puzzles = shaped_sample(20);
    for (rows, cols) in [(4, 4), (1, 16)] {
        let shape = Shape::new(rows, cols).unwrap();
        puzzles.extend(
            (0..40).map(|seed| crate::generate::random_puzzle(shape, seed, 80 + seed as usize * 2)),
        );
    }
    let (mut stronger, mut contradictions) = (0, 0);
    for puzzle in &puzzles {
        let triples = root_domains(Propagation::Triples, puzzle);
        let alldiff = root_domains(Propagation::AllDiff, puzzle);
        match (triples, alldiff) {
            (Some(weak), Some(strong)) => {
                assert!(
                    weak.iter().zip(&strong).all(|(w, s)| s & !w == 0),
                    "{puzzle}"
                );
                stronger += usize::from(weak != strong);
            }
            (None, alldiff) => assert!(alldiff.is_none(), "{puzzle}"),
            (Some(_), None) => contradictions += 1,
        }
    }
    eprintln!(
        "alldiff pruned more on {stronger} and failed alone on {contradictions} of {}",
        puzzles.len()
    );
    assert!(
        stronger + contradictions > 0,
        "no puzzle where alldiff does more"
    );
}

/// A digit set from digits 1..=n.
fn digits(ds: &[u32]) -> u64 {
    ds.iter().fold(0, |acc, d| acc | 1 << (d - 1))
}

#[test]
fn alldiff_removes_a_naked_quad_that_triples_miss() {
    // Four cells share {1,2,3,4}, no three of them fit in three digits: a Hall set of size 4.
    let all = digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let quad = [
        digits(&[1, 2, 3]),
        digits(&[2, 3, 4]),
        digits(&[1, 3, 4]),
        digits(&[1, 2, 4]),
    ];
    let mut row = vec![all; 9];
    row[..4].copy_from_slice(&quad);
    for level in [Propagation::Pairs, Propagation::Triples] {
        assert_eq!(propagate_row(level, &row).unwrap(), row, "{level:?}");
    }
    let pruned = propagate_row(Propagation::AllDiff, &row).unwrap();
    assert_eq!(pruned[..4], quad);
    assert!(pruned[4..].iter().all(|&d| d == digits(&[5, 6, 7, 8, 9])));
}

#[test]
fn alldiff_removes_a_hidden_quad_that_triples_miss() {
    // Digits 1..4 fit only in cells 0..3 (which also allow 5 and 6): those cells keep 1..4.
    let all = digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let mut row = vec![digits(&[5, 6, 7, 8, 9]); 9];
    row[..4].fill(all & !digits(&[7, 8, 9]));
    assert_eq!(propagate_row(Propagation::Triples, &row).unwrap(), row);
    let pruned = propagate_row(Propagation::AllDiff, &row).unwrap();
    assert!(pruned[..4].iter().all(|&d| d == digits(&[1, 2, 3, 4])));
    assert_eq!(pruned[4..], row[4..]);
}

#[test]
fn alldiff_finds_a_contradiction_by_matching() {
    // Five cells, all within {1,2,3,4}: no matching gives them different digits. No two or
    // three of them fit in fewer digits, so pairs and triples see nothing wrong.
    let all = digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let mut row = vec![all; 9];
    row[..5].copy_from_slice(&[
        digits(&[1, 2, 3]),
        digits(&[2, 3, 4]),
        digits(&[1, 3, 4]),
        digits(&[1, 2, 4]),
        digits(&[1, 2, 3, 4]),
    ]);
    assert!(propagate_row(Propagation::Triples, &row).is_some());
    assert!(propagate_row(Propagation::AllDiff, &row).is_none());
}

/// Random puzzles of several shapes (a 1x5 box makes a 5x5 Latin square), from nearly empty
/// to nearly full.
fn shaped_sample(per_shape: u64) -> Vec<Grid> {
    let mut puzzles = Vec::new();
    for (rows, cols, low, high) in [
        (2, 2, 0, 16),
        (2, 3, 6, 36),
        (3, 3, 22, 50),
        (1, 5, 3, 25),
        (3, 4, 50, 90),
        (1, 8, 30, 42), // near the hardness peak of quasigroup completion
    ] {
        let shape = Shape::new(rows, cols).unwrap();
        for seed in 0..per_shape {
            let givens = low + (seed as usize * 7919) % (high - low + 1);
            puzzles.push(crate::generate::random_puzzle(shape, seed, givens));
        }
    }
    puzzles
}

#[test]
fn alldiff_counts_like_every_other_level() {
    let limit = Some(50);
    for puzzle in shaped_sample(12) {
        let reference = CspSolver::new(puzzle.shape().board(), Config::default()).count(
            &puzzle,
            limit,
            &Budget::unlimited(),
        );
        assert!(!reference.stop.is_budget());
        for level in Propagation::ALL {
            let config = Config {
                propagation: level,
                scaled: false,
                fill: false,
                ..Config::default()
            };
            let outcome = CspSolver::new(puzzle.shape().board(), config).count(
                &puzzle,
                limit,
                &Budget::unlimited(),
            );
            assert_eq!(
                (outcome.solutions, outcome.stop),
                (reference.solutions, reference.stop),
                "{config} on {puzzle}"
            );
            if let Some(solution) = &outcome.solution {
                assert!(is_solution_of(solution, &puzzle), "{config}");
            }
        }
    }
}

/// Matching prunes at least what triples prune, but a smaller domain can change which cell
/// MRV branches on, so fewer nodes per puzzle is not a theorem. Summed over a sample it holds,
/// and per puzzle it holds on all but a few (when written: 17,047 nodes against 17,300, more
/// on 11 of 630 puzzle and order pairs): the test asserts the sum and bounds the few.
#[test]
fn alldiff_searches_no_more_nodes_than_triples() {
    let (mut strong, mut weak, mut worse, mut total) = (0, 0, 0, 0);
    let mut puzzles = shaped_sample(30);
    let shape = Shape::new(4, 4).unwrap();
    puzzles.extend((0..30).map(|seed| crate::generate::random_puzzle(shape, seed, 81)));
    for puzzle in puzzles {
        for order in ["mrv-degree+lex", "first+lex", "mrv+lcv"] {
            let nodes = |level: &str| {
                let config: Config = format!("{order}+{level}").parse().unwrap();
                let outcome = CspSolver::new(puzzle.shape().board(), config).count(
                    &puzzle,
                    Some(20),
                    &Budget::unlimited(),
                );
                outcome.nodes
            };
            let (a, t) = (nodes("alldiff"), nodes("triples"));
            strong += a;
            weak += t;
            worse += u64::from(a > t);
            total += 1;
        }
    }
    eprintln!("alldiff {strong} nodes, triples {weak}; alldiff more on {worse} of {total}");
    assert!(strong <= weak, "alldiff {strong} nodes, triples {weak}");
    assert!(
        worse * 20 <= total,
        "alldiff more nodes on {worse} of {total}"
    );
}
