//! The properties each fuzz target checks, one function per target, on one input (a failed
//! property panics). The fuzz targets (`fuzz/fuzz_targets/<target>.rs`) include this file, and
//! `tests/fuzz_corpus.rs` replays the committed corpora through the same functions, so the
//! fuzzers and stable CI check exactly the same things. Only the library and the oracles of
//! `tests/support/oracle.rs` (which the fuzz targets include as `crate::support::oracle`) are
//! used here.

#![allow(dead_code)] // each fuzz target uses one of the checks

use std::collections::HashSet;

use quadrille::Budget;
use quadrille::csp::Config;
use quadrille::engine::{DlxSolver, Engine, Solve, Solver};
use quadrille::exact_cover::{
    Branching, Control, CountSink, Dlx, ItemKind, Plan, Problem, Report, Solution,
};
use quadrille::io::dlx::{parse_problem, problem_to_string, read_problem};
use quadrille::io::puzzle::{Layout, PuzzleReader, parse_line};
use quadrille::merge::{self, read_records};
use quadrille::request::MAX_SHARDS;
use quadrille::sudoku::{Grid, Shape, check};

use crate::support::oracle::exact_covers;

fn shape(r: usize, c: usize) -> Shape {
    Shape::new(r, c).unwrap()
}

/// `parse_line` with the shape inferred and given: no panic; errors have a column within the
/// text (and no line); a grid has the shape asked and no clash, and its written line parses
/// back to it.
pub fn check_line(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let shapes = [
        None,
        Some((2, 2)),
        Some((3, 3)),
        Some((2, 3)),
        Some((1, 4)),
        Some((6, 6)),
    ];
    for given in shapes {
        let given = given.map(|(r, c)| shape(r, c));
        let grid = match parse_line(text, given) {
            Ok(grid) => grid,
            Err(err) => {
                let column = err.column().unwrap_or_else(|| panic!("no column in {err}"));
                assert!(err.line().is_none(), "a line in {err}");
                let end = text.chars().count() + 1;
                assert!(
                    (1..=end).contains(&column),
                    "column {column} of {end}: {err}"
                );
                continue;
            }
        };
        if let Some(s) = given {
            assert_eq!(grid.shape(), s);
        }
        assert!(
            check::conflicts(&grid).is_ok(),
            "{grid:?} has clashing givens"
        );
        let written = grid.to_string();
        let mut line = String::new();
        grid.write_line(&mut line);
        assert_eq!(line, written);
        let again = parse_line(&written, Some(grid.shape()))
            .unwrap_or_else(|err| panic!("{written:?} does not parse back: {err}"));
        assert_eq!(again, grid, "{written:?}");
        if given.is_none() {
            let inferred = parse_line(&written, None)
                .unwrap_or_else(|err| panic!("{written:?} does not parse back: {err}"));
            assert_eq!(inferred, grid, "{written:?}");
        }
    }
}

/// `PuzzleReader` in both layouts, shape inferred and given: no panic; every item has a line,
/// at most the lines read, never decreasing; errors have a column; puzzles have the shape
/// asked and no clash; in the line layout a puzzle is what `parse_line` makes of its line.
pub fn check_grid(data: &[u8]) {
    let lines: Vec<&[u8]> = data.split_inclusive(|&b| b == b'\n').collect();
    for layout in [Layout::Grid, Layout::Line] {
        for given in [None, Some((2, 2)), Some((3, 3))] {
            let given = given.map(|(r, c)| shape(r, c));
            let mut reader = PuzzleReader::new(data, given, layout);
            let mut last = 0;
            while let Some(item) = reader.next() {
                let line = match &item {
                    Ok(puzzle) => puzzle.line,
                    Err(err) => {
                        assert!(err.column().is_some(), "no column in {err}");
                        err.line().unwrap_or_else(|| panic!("no line in {err}"))
                    }
                };
                let read = reader.lines_read();
                assert!(line >= 1 && line <= read, "line {line} of {read}");
                assert!(line >= last, "line {line} after line {last}");
                last = line;
                let Ok(puzzle) = item else { continue };
                if let Some(s) = given {
                    assert_eq!(puzzle.grid.shape(), s);
                }
                assert!(check::conflicts(&puzzle.grid).is_ok(), "{:?}", puzzle.grid);
                if layout == Layout::Line {
                    let text = String::from_utf8_lossy(lines[line - 1]);
                    let text = text.trim_start_matches('\u{feff}');
                    let grid = parse_line(text, given).expect("the reader's line parses alone");
                    assert_eq!(grid, puzzle.grid);
                }
            }
        }
    }
}

const DLX_MAX_OPTIONS: usize = 30;
const DLX_BRUTE_MAX_OPTIONS: usize = 16;

/// `read_problem`: no panic, option lines in order, written text reads back the same; for at
/// most 30 options, three searches (budget 10,000 nodes) agree, hand out distinct exact covers
/// and restore the links; forcing the last option counts the solutions holding it; for at most
/// 16 options, a brute-force count over subsets agrees.
pub fn check_dlx(data: &[u8]) {
    let Ok(read) = read_problem(data) else {
        return;
    };
    let problem = read.problem().clone();
    assert_eq!(read.option_lines().len(), problem.option_count());
    let mut previous = read.item_line();
    for &line in read.option_lines() {
        assert!(line > previous, "option line {line} after line {previous}");
        previous = line;
    }
    let text = problem_to_string(&problem);
    let again = parse_problem(&text).unwrap_or_else(|err| panic!("{text:?}: {err}"));
    assert_eq!(again.problem(), &problem, "{text:?}");

    let options = problem.option_count();
    if options > DLX_MAX_OPTIONS {
        return;
    }
    let budget = Budget::nodes(10_000);
    let mut dlx = Dlx::new(&problem);
    let built = dlx.link_fingerprint();
    assert_eq!(dlx.sanity(), Ok(()));

    let counted = dlx.search(&budget, CountSink::new(None));
    assert_eq!(dlx.link_fingerprint(), built);
    dlx.track_dead_ends(true);
    let (tracked, tracked_report) = collect(&mut dlx, &problem, &budget, false);
    assert_eq!(dlx.link_fingerprint(), built);
    assert_eq!(dlx.sanity(), Ok(()));
    dlx.track_dead_ends(false);
    let (first, first_report) = collect(&mut dlx, &problem, &budget, true);
    assert_eq!(dlx.link_fingerprint(), built);

    assert_eq!(tracked.len() as u64, tracked_report.stats.solutions);
    assert_eq!(first.len() as u64, first_report.stats.solutions);
    let reports = [
        (counted.stats.solutions, counted.is_complete()),
        (tracked.len() as u64, tracked_report.is_complete()),
        (first.len() as u64, first_report.is_complete()),
    ];
    agree(&reports);
    if tracked_report.is_complete() && first_report.is_complete() {
        assert_eq!(tracked, first);
    }

    let mut forced_report = None;
    if let Some(last) = options.checked_sub(1) {
        for keep in [false, true] {
            let mut copy = dlx.clone();
            assert_eq!(copy.link_fingerprint(), built);
            if keep {
                copy.keep_copy();
            }
            assert!(copy.force(last).is_some(), "forcing option {last} failed");
            assert_eq!(copy.forced().collect::<Vec<_>>(), [last]);
            let r = copy.search(&budget, CountSink::new(None));
            copy.release_all();
            assert_eq!(copy.forced().len(), 0);
            assert_eq!(copy.link_fingerprint(), built);
            assert_eq!(copy.sanity(), Ok(()));
            forced_report = Some((r.stats.solutions, r.is_complete()));
        }
        if let (Some((with_last, true)), true) = (forced_report, tracked_report.is_complete()) {
            let expected = tracked.iter().filter(|s| s.contains(&last)).count() as u64;
            assert_eq!(with_last, expected);
        }
    }

    if options <= DLX_BRUTE_MAX_OPTIONS {
        let covers = exact_covers(&problem);
        let all = covers.len() as u64;
        let last = options.checked_sub(1);
        let with_last = covers.iter().filter(|s| s.last() == last.as_ref()).count() as u64;
        for (count, complete) in reports {
            if complete {
                assert_eq!(count, all, "Dlx counted {count}, brute force {all}");
            } else {
                assert!(count <= all, "Dlx counted {count}, brute force {all}");
            }
        }
        if let Some((count, complete)) = forced_report {
            if complete {
                assert_eq!(count, with_last);
            } else {
                assert!(count <= with_last);
            }
        }
    }
}

/// Complete counts agree; any count is at most a complete one.
fn agree(reports: &[(u64, bool)]) {
    for &(a, a_complete) in reports {
        for &(b, _) in reports {
            if a_complete {
                assert!(b <= a, "counts {reports:?}");
            }
        }
    }
}

/// The solutions of a search, each sorted, checked as exact covers and as distinct.
fn collect(
    dlx: &mut Dlx,
    problem: &Problem,
    budget: &Budget,
    first_item: bool,
) -> (Vec<Vec<usize>>, Report) {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    let sink = |s: &Solution<'_>| {
        let mut options = s.to_vec();
        assert_eq!(options.len(), s.len());
        options.sort_unstable();
        assert!(
            is_exact_cover(problem, &options),
            "not a cover: {options:?}"
        );
        assert!(seen.insert(options.clone()), "solution {options:?} twice");
        found.push(options);
        Control::Continue
    };
    let report = if first_item {
        let first_item = Plan::new().branching(Branching::FirstItem);
        dlx.run(&first_item, budget, sink)
            .expect("FirstItem in one run is a plan")
    } else {
        dlx.search(budget, sink)
    };
    found.sort();
    (found, report)
}

fn is_exact_cover(problem: &Problem, options: &[usize]) -> bool {
    let mut uses = vec![0u32; problem.item_count()];
    for &option in options {
        for &item in problem.option(option) {
            uses[item] += 1;
        }
    }
    (0..problem.item_count()).all(|item| match problem.item_kind(item) {
        ItemKind::Primary => uses[item] == 1,
        ItemKind::Secondary => uses[item] <= 1,
    })
}

const SOLVE_SHAPES: [(usize, usize); 6] = [(2, 2), (1, 4), (4, 1), (2, 3), (3, 2), (3, 3)];
const SOLVE_LIMIT: u64 = 2;

/// The first byte picks the shape and the reading (bit 7: a line for `parse_line`, else a
/// digit per byte, mod n + 1); the second also a CSP configuration. DLX (`DlxSolver`,
/// `Solver::sudoku(Engine::Dlx).unwrap()`), default CSP and the chosen CSP count up to 2 within 20,000
/// nodes: clashing givens have no solution; a solution is returned exactly when counted and is
/// checked; complete counts agree and bound the others; a unique solution is the same.
pub fn check_solve(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (r, c) = SOLVE_SHAPES[(mode & 0x7f) as usize % SOLVE_SHAPES.len()];
    let shape = shape(r, c);
    let n = shape.size();
    let puzzle = if mode & 0x80 != 0 {
        let Ok(text) = std::str::from_utf8(rest) else {
            return;
        };
        let Ok(grid) = parse_line(text, Some(shape)) else {
            return;
        };
        grid
    } else {
        let cells = (0..shape.cell_count())
            .map(|i| rest.get(i).map_or(0, |&b| b % (n as u8 + 1)))
            .collect();
        Grid::from_cells(shape, cells).expect("values are at most n")
    };
    let all = Config::all();
    let config = all[rest.first().map_or(0, |&b| b as usize) % all.len()];
    let budget = Budget::nodes(20_000);
    let limit = Some(SOLVE_LIMIT);
    let csp = |config: Config| {
        Solver::sudoku(Engine::Csp(config), shape)
            .unwrap()
            .count(&puzzle, limit, &budget)
    };
    let outcomes = [
        (
            "dlx",
            DlxSolver::sudoku(shape).count(&puzzle, limit, &budget),
        ),
        (
            "engine dlx",
            Solver::sudoku(Engine::Dlx, shape)
                .unwrap()
                .count(&puzzle, limit, &budget),
        ),
        ("csp default", csp(Config::default())),
        ("csp chosen", csp(config)),
    ];
    let clash = check::conflicts(&puzzle).is_err();
    for (name, o) in &outcomes {
        if clash {
            assert_eq!(o.solutions, 0, "{name} solved clashing {puzzle:?}");
        }
        assert!(o.solutions <= SOLVE_LIMIT, "{name}: {o:?}");
        assert_eq!(o.solution.is_some(), o.solutions > 0, "{name}: {o:?}");
        if let Some(solution) = &o.solution
            && let Err(why) = check::check_solution(&puzzle, solution)
        {
            panic!("{name} on {puzzle:?} gave {solution:?}: {why}");
        }
    }
    for (a_name, a) in &outcomes {
        if !a.is_complete() {
            continue;
        }
        for (b_name, b) in &outcomes {
            assert!(
                b.solutions <= a.solutions,
                "{a_name} found {} solutions (complete), {b_name} {} ({:?}) on {puzzle:?}",
                a.solutions,
                b.solutions,
                b.stop
            );
            if a.solutions == 1 && b.solutions == 1 {
                assert_eq!(
                    a.solution, b.solution,
                    "{a_name} and {b_name} on {puzzle:?}"
                );
            }
        }
    }
}

/// `merge::read_records`, `merge::read_shard_results` and `merge::merge`, as `quadrille merge`
/// runs them, on any bytes: no panic, and no tally larger than a split can be (a record of
/// 2^40 shards once made `merge` ask for 8 TB, and abort); an error names a line of the input;
/// the two readers read the same records, except that `read_shard_results` leaves out a last
/// line cut short mid-write (and names it) where `read_records` refuses it; a record read has
/// 1 <= shard <= shards <= `MAX_SHARDS` and its line as its origin; a merge that is not refused
/// has every shard present or missing, and a sum at least each record's count.
pub fn check_records(data: &[u8]) {
    let lines = data.split(|&b| b == b'\n').count();
    let names_a_line = |err: &quadrille::Error| {
        let line = err.line().unwrap_or_else(|| panic!("no line in {err}"));
        assert!((1..=lines).contains(&line), "line {line} of {lines}: {err}");
    };
    let strict = read_records(data);
    if let Err(err) = &strict {
        names_a_line(err);
    }
    let records = match (strict, merge::read_shard_results(data)) {
        (_, Err(err)) => {
            names_a_line(&err);
            return;
        }
        (Ok(strict), Ok(read)) => {
            assert_eq!(read.cut_line, None, "a cut line that read_records read");
            assert_eq!(strict, read.records);
            read.records
        }
        (Err(err), Ok(read)) => {
            // Only the cut last line told them apart.
            assert!(!data.ends_with(b"\n"), "{err}");
            assert_eq!(read.cut_line, Some(lines), "{err}");
            assert_eq!(err.line(), Some(lines), "{err}");
            read.records
        }
    };
    for r in &records {
        assert!(
            1 <= r.shard && r.shard <= r.shards && r.shards <= MAX_SHARDS,
            "shard {} of {}",
            r.shard,
            r.shards
        );
        assert!(r.origin.as_deref().is_some_and(|o| o.starts_with("line ")));
    }
    let Ok(merged) = merge::merge(&records) else {
        return;
    };
    assert_eq!(merged.present.len() + merged.missing.len(), merged.shards);
    assert!(records.iter().all(|r| merged.solutions >= r.solutions));
}
