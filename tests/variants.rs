//! Sudoku variants (X-Sudoku, windoku, jigsaw, killer): published puzzles against their
//! published solutions, known counts found by a brute force that uses nothing of the crate,
//! and DLX against the CSP on random variant puzzles.

use std::collections::HashMap;

use proptest::prelude::*;
use quadrille::board::{Board, Cage, Cell};
use quadrille::engine::{Engine, Solve, Solver};
use quadrille::io::puzzle::{Layout, Puzzle, PuzzleReader};
use quadrille::sudoku::check::check_solution_on;
use quadrille::sudoku::variant::{self, Variant};
use quadrille::sudoku::{Grid, Shape};
use quadrille::{Budget, Stop};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use crate::support::oracle::Rules;
use crate::support::{self, count_on, dlx_and_csp, engines};

/// The text of `fixtures/variants/NAME`.
fn fixture(name: &str) -> String {
    support::fixture_text(&format!("variants/{name}"))
}

// --- An independent statement of the rules, read from the puzzle line's own text ---

/// The groups (cells that take different digits) and cages (cells and sum) of a puzzle line
/// of `variant` with side n, worked out from the text without the crate: the rules as a
/// reader of the format states them.
fn rules(variant: Variant, n: usize, box_rows: usize, words: &[&str]) -> Rules {
    let mut rules = Rules::latin(n);
    let box_cols = n / box_rows;
    match variant {
        Variant::Classic => rules.add_boxes(box_rows, box_cols),
        Variant::X => {
            rules.add_boxes(box_rows, box_cols);
            rules.groups.push((0..n).map(|i| i * n + i).collect());
            rules
                .groups
                .push((0..n).map(|i| i * n + n - 1 - i).collect());
        }
        Variant::Windoku => {
            rules.add_boxes(box_rows, box_cols);
            // Windows the size of a box, one line in from the edges and one line apart, as
            // many as fit: on 9x9 at rows and columns 2-4 and 6-8 (1-based).
            let starts = |side: usize| (1..n).step_by(side + 1).filter(move |s| s + side < n);
            for top in starts(box_rows) {
                for left in starts(box_cols) {
                    let window = (0..n).map(|i| (top + i / box_cols) * n + left + i % box_cols);
                    rules.groups.push(window.collect());
                }
            }
        }
        Variant::Jigsaw => {
            let mut regions: HashMap<char, Vec<usize>> = HashMap::new();
            for (i, ch) in words[1].chars().enumerate() {
                regions.entry(ch).or_default().push(i);
            }
            rules.groups.extend(regions.into_values());
        }
        Variant::Killer => {
            rules.add_boxes(box_rows, box_cols);
            let mut cells: HashMap<char, Vec<usize>> = HashMap::new();
            for (i, ch) in words[1].chars().enumerate().filter(|&(_, ch)| ch != '.') {
                cells.entry(ch).or_default().push(i);
            }
            for word in words[2..].iter().take_while(|w| w.contains('=')) {
                let (id, sum) = word.split_once('=').unwrap();
                let id = id.chars().next().unwrap();
                rules
                    .cages
                    .push((cells.remove(&id).unwrap(), sum.parse().unwrap()));
            }
            assert!(cells.is_empty(), "every cage has a sum");
        }
    }
    rules
}

/// Whether `solution` (digits, row-major) keeps `givens` (`.` blank) and every rule.
fn obeys(rules: &Rules, givens: &str, solution: &[u8]) -> Result<(), String> {
    rules.check(&digits(givens), solution)
}

/// The digits of a grid's text (`.` blank, as 0).
fn digits(line: &str) -> Vec<u8> {
    line.chars()
        .map(|c| c.to_digit(36).map_or(0, |d| d as u8))
        .collect()
}

// --- Published puzzles ---

/// Every puzzle of a fixture file (its variant from its header), solved by every engine up to
/// two solutions: unique, the published solution, which obeys the rules cell by cell.
fn published(file: &str, variant: Variant, box_rows: &[usize]) {
    let text = fixture(&format!("{file}.txt"));
    let expected = fixture(&format!("{file}.expected"));
    let puzzles: Vec<Puzzle> = PuzzleReader::new(text.as_bytes(), None, Layout::Line)
        .collect::<quadrille::Result<_>>()
        .unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(puzzles.len(), expected.lines().count());
    for (((puzzle, solution), line), &rows) in puzzles
        .iter()
        .zip(expected.lines())
        .zip(&lines)
        .zip(box_rows)
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        let n = puzzle.grid.size();
        let rules = rules(variant, n, rows, &words);
        obeys(&rules, words[0], &digits(solution))
            .unwrap_or_else(|why| panic!("{file}: the published solution breaks a rule: {why}"));
        for engine in engines() {
            let outcome = Solver::new(engine, puzzle.board()).unwrap().count(
                &puzzle.grid,
                Some(2),
                &Budget::unlimited(),
            );
            assert_eq!(
                (outcome.solutions, outcome.stop),
                (1, Stop::Exhausted),
                "{file} line {}, {engine}",
                puzzle.line
            );
            let found = outcome.solution.unwrap();
            assert_eq!(found.to_string(), solution, "{file}, {engine}");
            assert_eq!(obeys(&rules, words[0], found.cells()), Ok(()));
            assert_eq!(
                check_solution_on(puzzle.board(), &puzzle.grid, &found),
                Ok(())
            );
        }
    }
}

#[test]
fn published_x_sudokus_have_their_published_solutions() {
    published("x", Variant::X, &[3, 3, 2]);
}

#[test]
fn a_published_windoku_has_its_published_solution() {
    published("windoku", Variant::Windoku, &[3]);
}

/// The 25x25 windoku grid of the guide's proof that one exists: the digit of r, c (0-based) is
/// 5 * ((r + c / 5) mod 5) + ((v(r) + c) mod 5) + 1, where v(r) is the band of windows row r
/// crosses (rows 2-6 are band 0, ..., rows 20-24 band 3; 1-based) and 4 for the rows between
/// the windows (1, 7, 13, 19, 25).
fn windoku_25_witness() -> Vec<u8> {
    let band = |line: usize| if line.is_multiple_of(6) { 4 } else { line / 6 };
    (0..625)
        .map(|i| {
            let (r, c) = (i / 25, i % 25);
            (5 * ((r + c / 5) % 5) + (band(r) + c) % 5 + 1) as u8
        })
        .collect()
}

#[test]
fn a_25x25_windoku_grid_exists() {
    let witness = windoku_25_witness();
    let empty = ".".repeat(625);
    let rules = rules(Variant::Windoku, 25, 5, &[&empty]);
    assert_eq!(
        rules.groups.len(),
        75 + 16,
        "rows, columns, boxes and 16 windows"
    );
    rules.check(&digits(&empty), &witness).unwrap();
    // The crate's checker agrees.
    let shape = Shape::new(5, 5).unwrap();
    let board = variant::windoku_board(shape).unwrap();
    let grid = Grid::from_cells(shape, witness).unwrap();
    check_solution_on(&board, &Grid::empty(shape), &grid).unwrap();
}

/// Issue 41: the empty 25x25 windoku was undecided after 60 s on every engine. The CSP that
/// `auto` picks for a nearly empty grid now sees the regions the windows imply (the law of
/// leftovers) and fills it in about a thousand nodes.
#[test]
fn auto_fills_the_empty_25x25_windoku_within_a_node_budget() {
    let empty = ".".repeat(625);
    let (code, out, err) = crate::cli::run_text(
        &[
            "solve",
            "--variant",
            "windoku",
            "--node-budget",
            "20000",
            "--json",
        ],
        &format!("{}\n", ["0"; 625].join(" ")),
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["status"], "solved", "{out}");
    let solution = json["solution"].as_str().unwrap();
    rules(Variant::Windoku, 25, 5, &[&empty])
        .check(&digits(&empty), &digits(solution))
        .unwrap();
}

#[test]
fn a_published_jigsaw_has_its_published_solution() {
    published("jigsaw", Variant::Jigsaw, &[3]);
}

#[test]
fn a_published_killer_has_its_published_solution() {
    published("killer", Variant::Killer, &[3]);
}

#[test]
fn the_checker_catches_a_broken_cage_and_the_engines_reject_wrong_sums() {
    let text = fixture("killer.txt");
    let puzzle = PuzzleReader::new(text.as_bytes(), None, Layout::Line)
        .next()
        .unwrap()
        .unwrap();
    let solution = fixture("killer.expected");
    let mut grid = Grid::from_cells(Shape::CLASSIC, digits(solution.trim())).unwrap();
    assert_eq!(
        check_solution_on(puzzle.board(), &puzzle.grid, &grid),
        Ok(())
    );
    // Swap two rows of the solution within a band: rows, columns and boxes stay whole, but
    // cages across them break.
    let cells = grid.cells_mut();
    for c in 0..9 {
        cells.swap(c, 9 + c);
    }
    assert!(quadrille::sudoku::check::check_solution(&puzzle.grid, &grid).is_ok());
    let why = check_solution_on(puzzle.board(), &puzzle.grid, &grid)
        .unwrap_err()
        .to_string();
    assert!(why.starts_with("cage "), "{why}");
}

// --- Counts by brute force ---

/// The grids of order n that keep `givens` (`.` blank) and obey `rules`, by the oracle's
/// brute force.
fn brute_force(rules: &Rules, givens: &str) -> u64 {
    rules.count(&digits(givens))
}

/// The count of every engine on `board` from `puzzle`, all solutions, each checked.
fn counts(board: &Board, puzzle: &Grid) -> Vec<u64> {
    engines()
        .into_iter()
        .map(|engine| count_on(engine, board, puzzle))
        .collect()
}

use crate::support::read_variant as read;

#[test]
fn four_by_four_x_sudoku_and_windoku_grids_are_counted_as_by_brute_force() {
    let blank = ".".repeat(16);
    for (variant, expected_groups) in [
        (Variant::Classic, 12),
        (Variant::X, 14),
        (Variant::Windoku, 13),
    ] {
        let puzzle = read(variant, &blank);
        assert_eq!(puzzle.board().groups().len(), expected_groups);
        let mut rules = rules(
            if variant == Variant::Windoku {
                Variant::Classic
            } else {
                variant
            },
            4,
            2,
            &[&blank],
        );
        if variant == Variant::Windoku {
            // The 4x4 analogue: one window, the centre 2x2.
            rules.groups.push(vec![5, 6, 9, 10]);
        }
        let known = brute_force(&rules, &blank);
        assert!(known > 0, "{variant}");
        assert_eq!(
            counts(puzzle.board(), &puzzle.grid),
            vec![known; 4],
            "{variant}"
        );
    }
    // The classic count is the known 288.
    assert_eq!(
        brute_force(&rules(Variant::Classic, 4, 2, &[&blank]), &blank),
        288
    );
}

#[test]
fn small_jigsaws_are_counted_as_by_brute_force() {
    // A 4x4 map of L-shaped regions, and a 5x5 one (no box shape exists for 5) whose last
    // region is a row, and the same with two cells swapped so that regions 'a' and 'e' are in pieces.
    let maps = [
        ("aaababbbcccdcddd", 4),
        ("aaaababbbbccccdcddddeeeee", 5),
        ("eaaababbbbccccdcddddeeeea", 5),
    ];
    for (map, n) in maps {
        let blank = ".".repeat(n * n);
        let line = format!("{blank} {map}");
        let puzzle = read(Variant::Jigsaw, &line);
        let words: Vec<&str> = line.split_whitespace().collect();
        let known = brute_force(&rules(Variant::Jigsaw, n, 1, &words), &blank);
        assert!(known > 0, "{map}");
        assert_eq!(
            counts(puzzle.board(), &puzzle.grid),
            vec![known; 4],
            "{map}"
        );
    }
}

#[test]
fn small_killers_are_counted_as_by_brute_force() {
    // 4x4 killers: cages covering the grid; some cells left out of every cage; a given.
    let lines = [
        "................ aabbcdbecdffgghh a=3 b=8 c=5 d=5 e=2 f=7 g=7 h=3",
        "................ aa..bb..cc..dd.. a=3 b=7 c=3 d=7",
        "...4............ a.b.a.b.cc..dd.. a=4 b=4 c=3 d=7",
        "................ abcdabcd........ a=4 b=6 c=4 d=6",
    ];
    for line in lines {
        let puzzle = read(Variant::Killer, line);
        let words: Vec<&str> = line.split_whitespace().collect();
        let known = brute_force(&rules(Variant::Killer, 4, 2, &words), words[0]);
        assert_eq!(
            counts(puzzle.board(), &puzzle.grid),
            vec![known; 4],
            "{line}"
        );
    }
}

#[test]
fn digit_sets_are_the_subsets_with_the_sum() {
    for n in [4usize, 6, 9] {
        for size in 1..=n {
            for sum in 0..=(n * (n + 1) / 2 + 1) as u32 {
                let cage = Cage::new(1, (0..size).map(Cell::new), sum).unwrap();
                let brute: Vec<u64> = (0u64..1 << n)
                    .filter(|&m| {
                        m.count_ones() as usize == size
                            && (0..n)
                                .filter(|d| m >> d & 1 == 1)
                                .map(|d| d as u32 + 1)
                                .sum::<u32>()
                                == sum
                    })
                    .collect();
                assert_eq!(cage.digit_sets(n), brute, "n {n}, {size} cells, sum {sum}");
            }
        }
    }
}

// --- DLX against the CSP on random variant puzzles ---

/// A random jigsaw region map of side n: the boxes of `shape`, then random swaps of two cells
/// of different regions (sizes stay n; regions may end up in pieces).
fn random_regions(shape: Shape, rng: &mut Pcg64) -> Vec<usize> {
    let n = shape.size();
    let mut regions: Vec<usize> = (0..n * n).map(|i| shape.box_of(i / n, i % n)).collect();
    for _ in 0..n {
        let (a, b) = (rng.random_range(0..n * n), rng.random_range(0..n * n));
        regions.swap(a, b);
    }
    regions
}

/// Random cages over a solution: cells in reading order start a cage and grow it to a random
/// size in `sizes` through neighbours with digits not yet in it; unless `all`, a few cells
/// stay out of every cage.
fn random_cages(
    solution: &Grid,
    rng: &mut Pcg64,
    sizes: std::ops::RangeInclusive<usize>,
    all: bool,
) -> Vec<Cage> {
    let n = solution.size();
    let mut caged = vec![false; n * n];
    let mut cages = Vec::new();
    for start in 0..n * n {
        if caged[start] || (!all && rng.random_range(0..8) == 0) {
            continue;
        }
        let size = rng.random_range(sizes.clone());
        let mut cells = vec![start];
        caged[start] = true;
        while cells.len() < size {
            let mut next: Vec<usize> = cells
                .iter()
                .flat_map(|&c| {
                    let (r, col) = (c / n, c % n);
                    [
                        (r > 0).then(|| c - n),
                        (r + 1 < n).then(|| c + n),
                        (col > 0).then(|| c - 1),
                        (col + 1 < n).then(|| c + 1),
                    ]
                })
                .flatten()
                .filter(|&c| {
                    !caged[c]
                        && cells
                            .iter()
                            .all(|&o| solution.cells()[o] != solution.cells()[c])
                })
                .collect();
            next.sort_unstable();
            next.dedup();
            let Some(&c) = next.choose(rng) else { break };
            caged[c] = true;
            cells.push(c);
        }
        let sum = cells.iter().map(|&c| u32::from(solution.cells()[c])).sum();
        cages.push(Cage::new(cages.len() + 1, cells.into_iter().map(Cell::new), sum).unwrap());
    }
    cages
}

/// A random puzzle of `variant` on `shape` from `seed`: a board (random regions for a
/// jigsaw), a solution found by DLX from a few random givens, killer cages drawn over it,
/// then the solution with cells blanked, keeping `keep` percent. A board or givens without
/// a solution are drawn again, with fewer givens, a few times; then `None`.
fn random_puzzle(variant: Variant, shape: Shape, seed: u64, keep: u32) -> Option<(Board, Grid)> {
    let mut rng = Pcg64::seed_from_u64(seed);
    let n = shape.size();
    let (board, solution) = (0..8).find_map(|attempt| {
        let board = match variant {
            Variant::Jigsaw => variant::jigsaw_board(n, &random_regions(shape, &mut rng)).unwrap(),
            Variant::Killer => shape.board().clone(),
            other => other.board_of_shape(shape).unwrap().unwrap(),
        };
        let mut start = Grid::empty(shape);
        for _ in 0..(n / 2) >> attempt.min(3) {
            let cell = rng.random_range(0..n * n);
            start.cells_mut()[cell] = rng.random_range(1..=n as u8);
        }
        let solution = Solver::new(Engine::Dlx, &board)
            .unwrap()
            .count(&start, Some(1), &Budget::nodes(100_000))
            .solution?;
        Some((board, solution))
    })?;
    let board = match variant {
        Variant::Killer => board
            .with_cages(random_cages(&solution, &mut rng, 1..=4, false))
            .unwrap(),
        _ => board,
    };
    let mut puzzle = solution;
    for d in puzzle.cells_mut() {
        if rng.random_range(0..100) >= keep {
            *d = 0;
        }
    }
    Some((board, puzzle))
}

/// The line of a killer puzzle without givens: its cage map and sums, cages named `a`-`z`,
/// `A`-`Z`, `0`-`9` in order.
fn killer_line(board: &Board) -> String {
    const NAMES: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut map = vec![b'.'; board.cell_count()];
    let mut sums = String::new();
    for (k, cage) in board.cages().iter().enumerate() {
        for cell in cage.cells() {
            map[cell.index()] = NAMES[k];
        }
        sums.push_str(&format!(" {}={}", NAMES[k] as char, cage.sum()));
    }
    let map = String::from_utf8(map).unwrap();
    format!("{} {map}{sums}", ".".repeat(board.cell_count()))
}

/// `killer_random.txt`: 100 9x9 killers without givens, every cell in a cage of 2 to 5 cells
/// (1 when no neighbour fits), drawn over a random grid (seed i for puzzle i). The file is
/// what this makes; `QUADRILLE_BLESS=1` writes it.
#[test]
fn the_random_killer_set_is_what_its_generator_makes() {
    let mut text = String::from(
        "# variant: killer\n# 100 random 9x9 killers, no givens, seeds 0-99 from line 3 on, written by tests/variants.rs\n",
    );
    for seed in 0..100 {
        let mut rng = Pcg64::seed_from_u64(seed);
        let board = Shape::CLASSIC.board().clone();
        // A grid from a few random givens, drawn again until they have one.
        let solution = std::iter::repeat_with(|| {
            let mut start = Grid::empty(Shape::CLASSIC);
            for _ in 0..4 {
                let cell = rng.random_range(0..81);
                start.cells_mut()[cell] = rng.random_range(1..=9);
            }
            Solver::new(Engine::Dlx, &board)
                .unwrap()
                .count(&start, Some(1), &Budget::unlimited())
                .solution
        })
        .flatten()
        .next()
        .expect("random givens have a completion sooner or later");
        let cages = random_cages(&solution, &mut rng, 2..=5, true);
        let board = board.with_cages(cages).unwrap();
        text.push_str(&format!("{}\n", killer_line(&board)));
        // The grid it was drawn over solves it.
        let puzzle = read(Variant::Killer, &killer_line(&board));
        assert_eq!(
            check_solution_on(puzzle.board(), &puzzle.grid, &solution),
            Ok(())
        );
    }
    let path = support::fixture("variants/killer_random.txt");
    if std::env::var_os("QUADRILLE_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    assert_eq!(
        fixture("killer_random.txt"),
        text,
        "QUADRILLE_BLESS=1 rewrites it"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn dlx_and_csp_agree_on_random_variant_puzzles(
        seed in any::<u64>(),
        variant in prop::sample::select(&[Variant::X, Variant::Windoku, Variant::Jigsaw, Variant::Killer][..]),
        shape in prop::sample::select(&[(2, 2), (2, 3), (3, 2), (3, 3)][..]),
        keep in 0u32..60,
    ) {
        let shape = Shape::new(shape.0, shape.1).unwrap();
        // Sparse 9x9 puzzles have more solutions than a quick test counts: keep more.
        let keep = if shape.size() == 9 { keep + 30 } else { keep };
        let Some((board, puzzle)) = random_puzzle(variant, shape, seed, keep) else {
            return Ok(());
        };
        let limit = Some(20);
        let budget = Budget::nodes(200_000);
        let mut outcomes = Vec::new();
        for engine in engines() {
            let outcome = Solver::new(engine, &board).unwrap().count(&puzzle, limit, &budget);
            if let Some(solution) = &outcome.solution {
                prop_assert_eq!(check_solution_on(&board, &puzzle, solution), Ok(()), "{}", engine);
            }
            outcomes.push((engine, outcome));
        }
        let decided: Vec<_> = outcomes.iter().filter(|(_, o)| !o.stop.is_budget()).collect();
        prop_assume!(decided.len() >= 2 && decided[0].0 == Engine::Dlx);
        // Every puzzle is made from a solution, so each decided engine finds one.
        for (engine, outcome) in &decided {
            prop_assert!(outcome.solutions >= 1, "{}", engine);
            prop_assert_eq!(outcome.solutions, decided[0].1.solutions, "{} against dlx", engine);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// No line makes the reader panic, whatever the variant; every line is a puzzle or an error
    /// with a line number.
    #[test]
    fn any_line_is_a_puzzle_or_an_error(
        line in "([.1-9a-cA-C=#:; ]|variant|killer|é){0,200}",
        variant in prop::sample::select(&Variant::ALL[..]),
        shape in prop::option::of(prop::sample::select(&[(2, 2), (1, 5), (3, 3)][..])),
        givens in "[.1-5]{15,17}",
        map in "[abcd.?]{15,17}",
        sums in prop::collection::vec("[a-e]{1,2}=[0-9]{0,3}", 0..6),
    ) {
        let shape = shape.map(|(r, c)| Shape::new(r, c).unwrap());
        // A free-form line, and one shaped like a 4x4 jigsaw or killer line.
        let text = format!("{line}\n{givens} {map} {}\n", sums.join(" "));
        let reader = PuzzleReader::new(text.as_bytes(), shape, Layout::Line).with_variant(Some(variant));
        for item in reader {
            match item {
                Ok(puzzle) => {
                    // What reads, solves: both engines, the same count, checked solutions.
                    let counts: Vec<(u64, bool)> = dlx_and_csp()
                        .into_iter()
                        .map(|engine| {
                            let outcome = Solver::new(engine, puzzle.board()).unwrap().count(
                                &puzzle.grid,
                                Some(2),
                                &Budget::nodes(20_000),
                            );
                            if let Some(solution) = &outcome.solution {
                                assert_eq!(
                                    check_solution_on(puzzle.board(), &puzzle.grid, solution),
                                    Ok(())
                                );
                            }
                            (outcome.solutions, outcome.stop.is_budget())
                        })
                        .collect();
                    if !counts[0].1 && !counts[1].1 {
                        prop_assert_eq!(counts[0].0, counts[1].0, "{}", text);
                    }
                }
                Err(err) => prop_assert!(err.line().is_some(), "{}", err),
            }
        }
    }
}

// --- The command-line tool ---

#[cfg(feature = "cli")]
mod cli {
    use std::process::Output;

    use super::{Variant, brute_force, fixture, rules};

    use crate::cli::run;

    fn out(output: &Output) -> (i32, String) {
        (
            output.status.code().expect("exited"),
            String::from_utf8(output.stdout.clone()).unwrap(),
        )
    }

    #[test]
    fn solve_reads_the_variant_from_the_files_header() {
        for name in ["x", "windoku", "jigsaw", "killer"] {
            let file = format!("fixtures/variants/{name}.txt");
            for engine in ["dlx", "csp"] {
                let output = run(&["solve", &file, "--engine", engine, "--limit", "2"], "");
                let expected: String = (fixture(&format!("{name}.expected")).lines())
                    .map(|l| format!("{l} 1\n"))
                    .collect();
                assert_eq!(out(&output), (0, expected), "{name}, {engine}");
            }
        }
    }

    #[test]
    fn the_variant_flag_reads_lines_without_a_header() {
        let line = fixture("killer.txt").lines().nth(1).unwrap().to_string();
        let output = run(&["solve", "--variant", "killer"], &format!("{line}\n"));
        assert_eq!(out(&output), (0, fixture("killer.expected")));
        // Read as a classic line it is the empty grid with a comment, and has solutions.
        let output = run(&["solve", "--limit", "2"], &format!("{line}\n"));
        assert!(out(&output).1.ends_with(" 2+\n"), "{}", out(&output).1);
    }

    #[test]
    fn count_and_compare_take_variants() {
        let blank = ".".repeat(16);
        let known = brute_force(&rules(Variant::X, 4, 2, &[&blank]), &blank);
        let output = run(&["count", "--variant", "x"], &format!("{blank}\n"));
        assert_eq!(out(&output), (0, format!("{known}\n")));
        for name in ["x", "windoku", "jigsaw", "killer"] {
            let file = format!("fixtures/variants/{name}.txt");
            let output = run(
                &[
                    "compare",
                    &file,
                    "--engines",
                    "dlx,csp,csp:mrv+lex+ac",
                    "-q",
                ],
                "",
            );
            let (code, table) = out(&output);
            assert_eq!(code, 0, "{name}: {table}");
            let puzzles = fixture(&format!("{name}.expected")).lines().count();
            let solved = format!("{puzzles}/{puzzles}");
            for engine in [
                "dlx ",
                "csp:mrv-degree+lex+hidden-singles+scaled ",
                "csp:mrv+lex+ac ",
            ] {
                assert!(
                    table
                        .lines()
                        .any(|l| l.starts_with(engine) && l.contains(&solved)),
                    "{name}, {engine}: {table}"
                );
            }
        }
    }

    #[test]
    fn a_long_killer_count_split_across_threads_is_exact() {
        // One cage r1c1 + r1c2 = 3 on the empty 6x6 grid: relabelling digits maps grids to
        // grids, so the ordered pair in those cells is spread evenly over the 30 pairs of
        // different digits, and 2 of them ({1, 2}) make 3: 28,200,960 * 2 / 30 grids.
        let line = format!("{} aa{} a=3\n", ".".repeat(36), ".".repeat(34));
        let output = run(&["count", "--variant", "killer", "-j", "2"], &line);
        assert_eq!(out(&output), (0, format!("{}\n", 28_200_960 * 2 / 30)));
    }

    #[test]
    fn bad_variant_lines_name_line_column_and_what_is_wrong() {
        let givens =
            "8...........1.....2.....4.6.....8..5...62..18.3...4.2....5..1.7..2.........8...9.";
        let regions =
            "999998888555998888555998333555111333222111333222111444222766444777766444777766666";
        let killer = fixture("killer.txt").lines().nth(1).unwrap().to_string();
        let input = [
            "# variant: jigsaw".to_string(),
            format!("{givens} {}", regions.replacen("55599", "99999", 1)),
            format!("{givens} {}", &regions[..80]),
            format!("{givens} {}", regions.replacen('5', "Z", 1)),
            givens.to_string(),
            format!("{givens} {regions} solved-below"),
            "# variant: killer".to_string(),
            killer.replacen("a=20", "a=99", 1),
            killer.replacen(" b=11", "", 1),
            killer.replacen("a=20", "Q=3", 1),
            killer.replacen("a=20", "a=20 a=20", 1),
            ".....1....1..... .....a....a..... a=3".to_string(),
            "# variant: x".to_string(),
            format!("5{}5", ".".repeat(79)),
            "# variant: samurai".to_string(),
        ]
        .join("\n");
        let output = run(&["solve"], &format!("{input}\n"));
        let (code, text) = out(&output);
        assert_eq!(code, 1);
        let expected = [
            "error: line 2, column 96: region '9' has more than 9 cells",
            "error: line 3, column 163: the region map has 80 cells, the givens 81",
            "error: line 4, column 141: region '6' is one region too many: a 9x9 grid has 9",
            "error: line 5, column 82: a jigsaw line needs a region map of 81 characters after the givens",
            "845279361359162784281395476467918235574623918136754829928536147792481653613847592",
            "error: line 8, column 167: cage 'a' of 3 cells cannot add up to 99: 3 different digits of 1..=9 add up to 6 to 24",
            "error: line 9, column 85: cage 'b' has no sum (add b=SUM after the cage map)",
            "error: line 10, column 165: the cage map has no cage 'Q'",
            "error: line 11, column 170: cage 'a' has two sums",
            "error: line 12, column 11: digit 1 is given twice in cage 1: at r2c2 and r3c3",
            "error: line 14, column 81: digit 5 is given twice in diagonal 1: at r1c1 and r9c9",
            "error: line 15, column 12: unknown variant 'samurai' (expected classic, x, windoku, jigsaw or killer)",
        ];
        assert_eq!(text.lines().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn variant_usage_and_board_errors() {
        let output = run(&["solve", "--variant", "samurai"], "");
        assert_eq!(output.status.code(), Some(2));
        let output = run(
            &["solve", "--variant", "windoku", "--box", "1x4"],
            "1...............\n",
        );
        assert_eq!(
            out(&output),
            (1, "error: line 1, column 1: windoku needs boxes of at least 2x2; 1x4 boxes leave no room for a window\n".to_string())
        );
        let output = run(
            &["solve", "--variant", "x"],
            "# variant: killer\n1...............\n",
        );
        assert_eq!(
            out(&output),
            (1, "error: line 1, column 1: this header says variant killer, but variant x was asked for\n1234341243212143\n".to_string())
        );
        let output = run(
            &["solve", "--variant", "jigsaw", "--input", "grid"],
            "1 . . .\n. . . .\n. . . .\n. . . .\n",
        );
        assert_eq!(
            out(&output),
            (
                1,
                "error: line 1, column 1: jigsaw puzzles are read one per line, not as grids\n"
                    .to_string()
            )
        );
        // X-Sudoku in the grid layout: the diagonal is checked.
        let output = run(
            &["solve", "--variant", "x", "--input", "grid"],
            "1 . . .\n. . . .\n. . . .\n. . . 1\n",
        );
        assert_eq!(
            out(&output),
            (
                1,
                "error: line 1: digit 1 is given twice in diagonal 1: at r1c1 and r4c4\n"
                    .to_string()
            )
        );
    }
}
