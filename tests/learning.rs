//! The learning search of Dancing Links (a [`Plan`] with learning, from the first run on or
//! after a first plain run, as the restarting Sudoku engine with learning on runs it) against brute force, known counts
//! and the CSP: every solution once, exact counts and limits, budgets held, links restored,
//! and the same seed giving the same search.

use proptest::prelude::*;
use quadrille::csp::Config;
use quadrille::engine::{DlxSolver, Engine, Solve, Solver};
use quadrille::exact_cover::{
    Branching, Control, CountSink, Dlx, Plan, Problem, Report, Sink, Solution,
};
use quadrille::problems;
use quadrille::restart::Restarts;
use quadrille::sudoku::Shape;
use quadrille::sudoku::check::check_solution;
use quadrille::{Budget, Stop};

use crate::support::oracle::exact_covers;
use crate::support::{build, fixture_problem as fixture, matrix, peak_puzzle};

/// The learning search from its first run on, with `restarts`.
fn learning<S: Sink>(dlx: &mut Dlx, restarts: &Restarts, budget: &Budget, sink: S) -> Report {
    let plan = (Plan::new().branching(Branching::ConflictWeighted))
        .restarts(Some(*restarts))
        .learning(true);
    dlx.run(&plan, budget, sink)
        .expect("learning with restarts is a plan")
}

/// Every solution of a learning search, each sorted, in the order delivered.
fn learned_solutions(dlx: &mut Dlx, restarts: &Restarts) -> (Vec<Vec<usize>>, Stop) {
    let mut found = Vec::new();
    let report = learning(dlx, restarts, &Budget::unlimited(), |s: &Solution<'_>| {
        let mut options = s.to_vec();
        options.sort();
        found.push(options);
        Control::Continue
    });
    (found, report.stop)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// On random matrices with primary and secondary items, the learning search delivers every
    /// exact cover once (nogoods learned from solutions and conflicts, restarts every few
    /// nodes), a limit counts distinct covers, a node budget holds and is never called
    /// complete, and every search leaves the links as built.
    #[test]
    fn learning_finds_each_cover_once(
        (items, primary, masks) in matrix(),
        unit in 1u64..8,
        seed in 0u64..1000,
        limit in 1u64..5,
        nodes in 0u64..12,
        track in any::<bool>(),
        bytes in any::<bool>(),
    ) {
        let (problem, _) = build(items, primary, &masks);
        let expected = exact_covers(&problem);
        let total = expected.len() as u64;
        let mut dlx = Dlx::new(&problem);
        dlx.track_dead_ends(track);
        dlx.track_forced_items(bytes);
        let before = dlx.link_fingerprint();
        let restarts = Restarts { seed, unit };

        let (mut found, stop) = learned_solutions(&mut dlx, &restarts);
        prop_assert_eq!(stop, Stop::Exhausted);
        found.sort();
        prop_assert_eq!(&found, &expected, "each cover once");
        prop_assert_eq!(dlx.link_fingerprint(), before.clone());
        prop_assert_eq!(dlx.sanity(), Ok(()));

        let report = learning(&mut dlx, &restarts, &Budget::unlimited(), CountSink::new(Some(limit)));
        prop_assert_eq!(report.stats.solutions, total.min(limit));
        prop_assert_eq!(report.stop, if total >= limit { Stop::Limit } else { Stop::Exhausted });
        prop_assert_eq!(dlx.link_fingerprint(), before.clone());

        let mut seen = Vec::new();
        let report = learning(&mut dlx, &restarts, &Budget::nodes(nodes), |s: &Solution<'_>| {
            let mut options = s.to_vec();
            options.sort();
            seen.push(options);
            Control::Continue
        });
        prop_assert!(report.stats.nodes <= nodes);
        prop_assert_eq!(report.stats.solutions, seen.len() as u64);
        seen.sort();
        seen.dedup();
        prop_assert_eq!(seen.len() as u64, report.stats.solutions, "no cover twice");
        prop_assert!(seen.iter().all(|s| expected.contains(s)));
        if report.stop == Stop::Exhausted {
            prop_assert_eq!(report.stats.solutions, total);
        } else {
            prop_assert_eq!(report.stop, Stop::NodeBudget);
        }
        prop_assert_eq!(dlx.link_fingerprint(), before.clone());
        prop_assert_eq!(dlx.sanity(), Ok(()));

        // The restarting search, whose first plain run is cut off after `unit` nodes.
        let plan = Plan::new().restarts(Some(restarts)).learning(true);
        let report = dlx.run(&plan, &Budget::unlimited(), CountSink::new(Some(limit))).unwrap();
        prop_assert_eq!(report.stats.solutions, total.min(limit));
        prop_assert_eq!(dlx.link_fingerprint(), before);
    }
}

/// Options that an exact cover cannot use make the learning search work: these problems are
/// counted in full by it, with restarts every few nodes, and must give the known counts.
#[test]
fn learning_counts_known_problems() {
    let mut cases: Vec<(String, Problem, u64)> = Vec::new();
    for (n, solutions) in [
        (1, 1),
        (2, 0),
        (3, 0),
        (4, 2),
        (5, 10),
        (6, 4),
        (7, 40),
        (8, 92),
    ] {
        cases.push((
            format!("queens {n}"),
            problems::queens(n).unwrap(),
            solutions,
        ));
    }
    for (n, solutions) in [(3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
        cases.push((
            format!("langford {n}"),
            problems::langford(n).unwrap(),
            solutions,
        ));
    }
    cases.push((
        "pentominoes 3x20".into(),
        problems::pentominoes(3, 20).unwrap(),
        8,
    ));
    for (file, solutions) in [
        ("knuth_example.dlx", 1),
        ("queens8_knuth.dlx", 92),
        ("langford7.dlx", 52),
        ("pentominoes_3x20.dlx", 8),
        ("secondary_hand.dlx", 3),
    ] {
        cases.push((file.into(), fixture(file), solutions));
    }
    for (name, problem, solutions) in cases {
        for unit in [1, 50] {
            let mut dlx = Dlx::new(&problem);
            let before = dlx.link_fingerprint();
            let restarts = Restarts { seed: 5, unit };
            let (mut found, stop) = learned_solutions(&mut dlx, &restarts);
            assert_eq!(stop, Stop::Exhausted, "{name}");
            assert_eq!(found.len() as u64, solutions, "{name}, unit {unit}");
            found.sort();
            found.dedup();
            assert_eq!(found.len() as u64, solutions, "{name}: a solution twice");
            assert_eq!(dlx.link_fingerprint(), before, "{name}: links not restored");
        }
    }
}

/// The same seed gives the same learning search: the same solutions in the same order and the
/// same statistics; another seed takes another path.
#[test]
fn learning_is_reproducible() {
    let problem = problems::queens(9).unwrap();
    let run = |seed| {
        let mut dlx = Dlx::new(&problem);
        let mut found = Vec::new();
        let report = learning(
            &mut dlx,
            &Restarts { seed, unit: 20 },
            &Budget::unlimited(),
            |s: &Solution<'_>| {
                found.push(s.to_vec());
                Control::Continue
            },
        );
        let stats = report.stats;
        (
            found,
            stats.nodes,
            stats.updates,
            stats.backtracks,
            stats.restarts,
            stats.learned,
        )
    };
    let a = run(3);
    assert_eq!(a.0.len(), 352);
    assert!(a.5 > 0, "nogoods learned");
    assert_eq!(a, run(3));
    assert_ne!(a, run(4));
}

/// Shapes near the peak: Latin squares of order 6 and 9, 9x9, 16x16 with 150 to 190 blanks,
/// 25x25 with 300 to 450.
const PEAK_SHAPES: [(usize, usize); 5] = [(1, 6), (1, 9), (3, 3), (4, 4), (5, 5)];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The Sudoku engine with a first run cut off after a few nodes, so that the learning
    /// search decides, counts the same up to 3 as the CSP and the CSP with `alldiff`; every
    /// grid returned is a solution, checked cell by cell; the same seed gives the same search.
    #[test]
    fn learning_dlx_agrees_with_the_csp_near_the_peak(
        puzzle in peak_puzzle(&PEAK_SHAPES),
        seed in any::<u64>(),
        unit in 1u64..64,
    ) {
        let mut dlx = DlxSolver::sudoku(puzzle.shape());
        dlx.set_restarts(Some(Restarts { seed, unit }));
        dlx.set_learning(true);
        let learned = dlx.count(&puzzle, Some(3), &Budget::unlimited());
        prop_assert!(!learned.stop.is_budget());
        prop_assert!(learned.solutions >= 1, "a blanked grid has a solution");
        prop_assert_eq!(check_solution(&puzzle, learned.solution.as_ref().unwrap()), Ok(()));
        let again = dlx.count(&puzzle, Some(3), &Budget::unlimited());
        prop_assert_eq!(
            (&again.solution, again.nodes, again.work, again.restarts),
            (&learned.solution, learned.nodes, learned.work, learned.restarts)
        );
        for config in [Config::default(), "mrv-degree+lex+alldiff".parse().unwrap()] {
            let mut csp = Solver::sudoku(Engine::Csp(config), puzzle.shape()).unwrap();
            let outcome = csp.count(&puzzle, Some(3), &Budget::unlimited());
            prop_assert_eq!((outcome.solutions, outcome.stop), (learned.solutions, learned.stop));
            if learned.solutions == 1 {
                prop_assert_eq!(&outcome.solution, &learned.solution);
            }
        }
    }
}

/// A time budget stops the learning search with a lower bound and the links restored: 6x10
/// pentominoes (9,356 solutions) take far longer than a millisecond to count.
#[test]
fn learning_stops_on_its_time_budget() {
    let mut dlx = Dlx::new(&problems::pentominoes(6, 10).unwrap());
    let before = dlx.link_fingerprint();
    let budget = Budget::time(std::time::Duration::from_millis(1));
    let report = learning(&mut dlx, &Restarts::new(1), &budget, CountSink::new(None));
    assert_eq!(report.stop, Stop::TimeBudget);
    assert!(report.stats.solutions < 9_356);
    assert_eq!(dlx.link_fingerprint(), before);
    assert_eq!(dlx.sanity(), Ok(()));
}

/// Learning is on by default where it was measured to pay: Sudoku from 16x16 up, not 9x9 and
/// not Latin squares (whose `1xN` boxes are their rows).
#[test]
fn sudoku_from_16x16_learns_by_default() {
    for (rows, cols, learns) in [
        (3, 3, false),
        (3, 4, false),
        (4, 4, true),
        (5, 5, true),
        (1, 20, false),
        (1, 30, false),
        (30, 1, false),
    ] {
        let shape = Shape::new(rows, cols).unwrap();
        assert_eq!(
            DlxSolver::learns_by_default(shape.board()),
            learns,
            "{rows}x{cols}"
        );
        assert_eq!(DlxSolver::sudoku(shape).learning(), learns);
    }
}
