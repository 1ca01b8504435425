//! The exact-cover engine against brute force, known counts and its own invariants.

use proptest::prelude::*;
use quadrille::exact_cover::{
    Branching, Control, CountSink, Dlx, Plan, Problem, ProblemBuilder, Report, Sink, Solution,
};
use quadrille::problems;
use quadrille::restart::Restarts;
use quadrille::{Budget, Stop};

use crate::support::oracle::exact_covers;
use crate::support::{build, matrix};

/// A search with `restarts` (the first run with Mrv, the later ones conflict-weighted).
fn restarting<S: Sink>(dlx: &mut Dlx, restarts: &Restarts, budget: &Budget, sink: S) -> Report {
    let plan = Plan::new().restarts(Some(*restarts));
    dlx.run(&plan, budget, sink)
        .expect("Mrv with restarts is a plan")
}

fn sorted_solutions(dlx: &mut Dlx) -> Vec<Vec<usize>> {
    let (mut found, report) = dlx.solutions(None);
    assert!(report.is_complete());
    for s in &mut found {
        s.sort();
    }
    found.sort();
    found
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn finds_exactly_the_covers_brute_force_finds((items, primary, masks) in matrix()) {
        let (problem, _) = build(items, primary, &masks);
        let mut dlx = Dlx::new(&problem);
        let before = dlx.link_fingerprint();
        let expected = exact_covers(&problem);
        prop_assert_eq!(sorted_solutions(&mut dlx), expected.clone());
        prop_assert_eq!(dlx.link_fingerprint(), before.clone());
        // The same count with Knuth's exact rule and with no heuristic at all.
        prop_assert_eq!(dlx.search(&Budget::unlimited(), |_: &Solution<'_>| Control::Continue).stats.solutions, expected.len() as u64);
        prop_assert_eq!(dlx.run(&Plan::new().branching(Branching::FirstItem), &Budget::unlimited(), |_: &Solution<'_>| Control::Continue).unwrap().stats.solutions, expected.len() as u64);
        prop_assert_eq!(dlx.link_fingerprint(), before);

        // Tracking dead ends changes the tree, never the solutions or the restoration.
        let mut tracked = Dlx::new(&problem);
        tracked.track_dead_ends(true);
        let tracked_before = tracked.link_fingerprint();
        prop_assert_eq!(sorted_solutions(&mut tracked), expected);
        prop_assert_eq!(tracked.link_fingerprint(), tracked_before);
        prop_assert_eq!(tracked.sanity(), Ok(()));
        let report = tracked.search(&Budget::nodes(7), CountSink::new(None));
        prop_assert!(report.stats.nodes <= 7);
        prop_assert_eq!(tracked.sanity(), Ok(()));

        // The `len`s kept in bytes make the choice cheaper, never another: the same tree.
        let mut with_bytes = Dlx::new(&problem);
        with_bytes.track_dead_ends(true);
        with_bytes.track_forced_items(true);
        prop_assert_eq!(sorted_solutions(&mut with_bytes), sorted_solutions(&mut tracked));
        let (fast, plain) = (with_bytes.count(None).stats, tracked.count(None).stats);
        prop_assert_eq!((fast.nodes, fast.updates, fast.backtracks), (plain.nodes, plain.updates, plain.backtracks));
        prop_assert_eq!(with_bytes.link_fingerprint(), tracked.link_fingerprint());
        prop_assert_eq!(with_bytes.sanity(), Ok(()));
    }

    #[test]
    fn stopping_early_restores_every_link(
        (items, primary, masks) in matrix(),
        limit in 1u64..4,
        node_budget in 1u64..30,
    ) {
        let (problem, masks) = build(items, primary, &masks);
        let covers = exact_covers(&problem);
        let total = covers.len() as u64;
        let mut dlx = Dlx::new(&problem);
        let before = dlx.link_fingerprint();

        let report = dlx.count(Some(limit));
        prop_assert_eq!(report.stats.solutions, total.min(limit));
        prop_assert_eq!(report.stop == Stop::Limit, total >= limit);
        prop_assert_eq!(dlx.link_fingerprint(), before.clone());

        let report = dlx.search(&Budget::nodes(node_budget), CountSink::new(None));
        prop_assert!(report.stats.nodes <= node_budget);
        if report.stop == Stop::Exhausted {
            prop_assert_eq!(report.stats.solutions, total);
        } else {
            prop_assert_eq!(report.stop, Stop::NodeBudget);
            prop_assert!(report.stats.solutions <= total);
        }
        prop_assert_eq!(dlx.link_fingerprint(), before.clone());
        prop_assert_eq!(dlx.sanity(), Ok(()));

        // Forcing an option, then releasing it, restores the links too; while forced, the
        // solutions are exactly those that contain it.
        if !masks.is_empty() {
            let forced = masks.len() / 2;
            prop_assert!(dlx.force(forced).is_some());
            let with_it = covers.iter().filter(|s| s.contains(&forced)).count() as u64;
            prop_assert_eq!(dlx.count(None).stats.solutions, with_it);
            dlx.release_all();
            prop_assert_eq!(dlx.link_fingerprint(), before.clone());

            // The same, restored from a kept copy, after forcing every option that fits.
            let mut copied = Dlx::new(&problem);
            copied.track_dead_ends(true);
            copied.track_forced_items(masks.len() % 2 == 0);
            let copied_before = copied.link_fingerprint();
            copied.keep_copy();
            let forced = (0..masks.len()).filter(|&k| copied.force(k).is_some()).count();
            prop_assert!(forced >= 1);
            copied.count(None);
            copied.release_all();
            prop_assert_eq!(copied.forced().count(), 0);
            prop_assert_eq!(copied.link_fingerprint(), copied_before);
            prop_assert_eq!(copied.sanity(), Ok(()));
            prop_assert_eq!(copied.count(None).stats.solutions, total);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn parallel_count_equals_sequential_count(
        (items, primary, masks) in matrix(),
        limit in prop::option::of(1u64..5),
    ) {
        let (problem, _) = build(items, primary, &masks);
        let total = exact_covers(&problem).len() as u64;
        let mut dlx = Dlx::new(&problem);
        let before = dlx.link_fingerprint();
        let two_threads = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let report = two_threads.install(|| dlx.count_parallel(limit, &Budget::unlimited()));
        prop_assert_eq!(report.stats.solutions, limit.map_or(total, |l| total.min(l)));
        prop_assert_eq!(report.stop == Stop::Exhausted, limit.is_none_or(|l| total < l));
        prop_assert_eq!(dlx.link_fingerprint(), before);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Restarts never change a count: with cutoffs of one to a few nodes, most runs are cut off
    /// and solutions are met again and again, yet every solution is delivered once, a limit
    /// counts distinct solutions, and only a finished run says the count is exact.
    #[test]
    fn restarting_searches_count_exactly(
        (items, primary, masks) in matrix(),
        unit in 1u64..8,
        seed in 0u64..1000,
        limit in 1u64..5,
        track in any::<bool>(),
        bytes in any::<bool>(),
    ) {
        let (problem, _) = build(items, primary, &masks);
        let expected = exact_covers(&problem);
        let mut dlx = Dlx::new(&problem);
        dlx.track_dead_ends(track);
        dlx.track_forced_items(bytes);
        let before = dlx.link_fingerprint();
        let restarts = Restarts { seed, unit };

        let mut found = Vec::new();
        let report = restarting(&mut dlx, &restarts, &Budget::unlimited(), |s: &Solution<'_>| {
            let mut options = s.to_vec();
            options.sort();
            found.push(options);
            Control::Continue
        });
        prop_assert!(report.is_complete());
        prop_assert_eq!(report.stats.solutions, expected.len() as u64);
        found.sort();
        prop_assert_eq!(&found, &expected, "each solution once");
        prop_assert_eq!(dlx.link_fingerprint(), before.clone());

        let report = restarting(&mut dlx, &restarts, &Budget::unlimited(), CountSink::new(Some(limit)));
        let total = expected.len() as u64;
        prop_assert_eq!(report.stats.solutions, total.min(limit));
        prop_assert_eq!(report.stop, if total >= limit { Stop::Limit } else { Stop::Exhausted });

        // A node budget holds across runs, and stopping on it is never called complete.
        let report = restarting(&mut dlx, &restarts, &Budget::nodes(9), CountSink::new(Some(limit)));
        prop_assert!(report.stats.nodes <= 9);
        prop_assert!(report.stats.solutions <= total.min(limit));
        if report.stop == Stop::Exhausted {
            prop_assert_eq!(report.stats.solutions, total);
        }
        prop_assert_eq!(dlx.link_fingerprint(), before);
        prop_assert_eq!(dlx.sanity(), Ok(()));

        // With or without the `len`s in bytes, the same seed takes the same paths.
        let mut other = Dlx::new(&problem);
        other.track_dead_ends(track);
        other.track_forced_items(!bytes);
        let sink = || CountSink::new(Some(limit));
        let a = restarting(&mut dlx, &restarts, &Budget::unlimited(), sink()).stats;
        let b = restarting(&mut other, &restarts, &Budget::unlimited(), sink()).stats;
        prop_assert_eq!((a.nodes, a.updates, a.backtracks, a.restarts), (b.nodes, b.updates, b.backtracks, b.restarts));
        prop_assert_eq!(other.sanity(), Ok(()));
    }
}

/// The same seed gives the same runs: the same solutions in the same order and the same
/// statistics; another seed takes other paths.
#[test]
fn restarts_are_reproducible() {
    let problem = problems::queens(12).unwrap();
    let run = |seed| {
        let mut dlx = Dlx::new(&problem);
        let mut found = Vec::new();
        let report = restarting(
            &mut dlx,
            &Restarts { seed, unit: 3 },
            &Budget::unlimited(),
            |s: &Solution<'_>| {
                found.push(s.to_vec());
                if found.len() == 20 {
                    Control::Stop
                } else {
                    Control::Continue
                }
            },
        );
        let stats = report.stats;
        (found, stats.nodes, stats.updates, stats.restarts)
    };
    assert_eq!(run(5), run(5));
    assert!(
        run(5).3 > 0,
        "the cutoffs must bite for this to test anything"
    );
    assert_ne!(run(5), run(6));
}

fn knuth_example() -> Problem {
    let mut b = ProblemBuilder::new();
    for item in ["a", "b", "c", "d", "e", "f", "g"] {
        b.primary(item).unwrap();
    }
    for option in ["c e", "a d g", "b c f", "a d f", "b g", "d e g"] {
        b.option_by_names(option.split(' ')).unwrap();
    }
    b.build().unwrap()
}

#[test]
fn knuth_example_has_its_one_solution() {
    let problem = knuth_example();
    let mut dlx = Dlx::new(&problem);
    let (solutions, report) = dlx.solutions(None);
    assert_eq!(report.stop, Stop::Exhausted);
    assert_eq!(solutions.len(), 1);
    let mut texts: Vec<String> = solutions[0]
        .iter()
        .map(|&o| problem.option_text(o))
        .collect();
    texts.sort();
    assert_eq!(texts, ["a d f", "b g", "c e"]);
    assert!(report.stats.updates > 0);
    assert!(report.stats.nodes >= 4);
    assert_eq!(report.stats.max_depth, 3);
}

#[test]
fn forcing_a_clashing_option_is_refused_and_changes_nothing() {
    let mut dlx = Dlx::new(&knuth_example());
    assert!(dlx.force(3).is_some()); // a d f
    let before = dlx.link_fingerprint();
    assert!(dlx.force(1).is_none()); // a d g shares a and d
    assert_eq!(dlx.link_fingerprint(), before);
    assert_eq!(dlx.forced().collect::<Vec<_>>(), [3]);
    let (solution, _) = dlx.first();
    let mut solution = solution.unwrap();
    solution.sort();
    assert_eq!(solution, [0, 3, 4]);
    dlx.release_all();
    assert_eq!(dlx.sanity(), Ok(()));
}

#[test]
fn no_solution_is_not_stopped_early() {
    let mut b = ProblemBuilder::new();
    b.primary("a").unwrap();
    b.primary("b").unwrap();
    b.option_by_names(["a"]).unwrap();
    let mut dlx = Dlx::new(&b.build().unwrap());
    let report = dlx.count(None);
    assert_eq!(report.stats.solutions, 0);
    assert_eq!(report.stop, Stop::Exhausted);
    let report = dlx.search(&Budget::nodes(0), CountSink::new(None));
    assert_eq!(report.stop, Stop::NodeBudget);
}

mod known_counts {
    use quadrille::exact_cover::{Branching, CountSink, Dlx, Plan, Problem};
    use quadrille::problems;
    use quadrille::sudoku::{Shape, encode};

    use crate::support::fixture_problem as fixture;

    fn count(problem: &Problem) -> u64 {
        let mut dlx = Dlx::new(problem);
        let before = dlx.link_fingerprint();
        let report = dlx.count(None);
        assert!(report.is_complete());
        assert_eq!(dlx.link_fingerprint(), before, "links not restored");
        report.stats.solutions
    }

    #[test]
    fn queens_1_to_10() {
        let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
        for (n, &solutions) in (1..=10).zip(&expected) {
            assert_eq!(count(&problems::queens(n).unwrap()), solutions, "n = {n}");
        }
    }

    /// The rows of the N-queens table of Knuth's "Dancing Links" (2000) that the project's issue
    /// quotes: with dead ends tracked, the search walks dlx1's tree and counts as he does.
    /// Rows for other N are not checked: we do not have the paper's figures at hand.
    #[test]
    fn knuths_queens_table() {
        for (n, nodes, updates) in [(1, 2, 3), (4, 13, 183), (5, 46, 572), (8, 1_049, 16_680)] {
            let mut dlx = Dlx::new(&problems::queens_knuth(n).unwrap());
            let before = dlx.link_fingerprint();
            let knuth = Plan::new().branching(Branching::Knuth);
            let stats = (dlx.run(
                &knuth,
                &quadrille::Budget::unlimited(),
                CountSink::new(None),
            ))
            .unwrap()
            .stats;
            assert_eq!(
                (stats.nodes, stats.knuth_updates()),
                (nodes, updates),
                "n = {n}"
            );
            assert_eq!(dlx.link_fingerprint(), before);
        }
        let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
        for (n, &solutions) in (1..=10).zip(&expected) {
            assert_eq!(
                count(&problems::queens_knuth(n).unwrap()),
                solutions,
                "n = {n}"
            );
        }
    }

    #[test]
    fn langford_pairs() {
        for (n, solutions) in [(3, 2), (4, 2), (5, 0), (6, 0), (7, 52), (8, 300)] {
            assert_eq!(count(&problems::langford(n).unwrap()), solutions, "n = {n}");
        }
    }

    #[test]
    fn pentominoes_3x20() {
        assert_eq!(count(&problems::pentominoes(3, 20).unwrap()), 8);
    }

    #[test]
    fn sudoku_4x4_grids() {
        assert_eq!(
            count(&encode::problem(Shape::new(2, 2).unwrap().board())),
            288
        );
    }

    #[test]
    fn fixtures_have_their_known_counts() {
        for (file, solutions) in [
            ("knuth_example.dlx", 1),
            ("queens6.dlx", 4),
            ("queens8.dlx", 92),
            ("langford7.dlx", 52),
            ("pentominoes_3x20.dlx", 8),
            ("secondary_hand.dlx", 3),
        ] {
            assert_eq!(count(&fixture(file)), solutions, "{file}");
        }
    }

    /// The fixture is the generator's problem; its 9,356 tilings are counted by
    /// `balance::sixteen_shards_and_threads_of_the_6x10_pentominoes_are_balanced`, in 16 shards
    /// and in the parts of 16 threads (each search of the board costs seconds here).
    #[test]
    fn pentominoes_6x10_from_generator_and_fixture() {
        let problem = problems::pentominoes(6, 10).unwrap();
        assert_eq!(fixture("pentominoes_6x10.dlx"), problem);
    }

    #[test]
    fn pentominoes_4x15() {
        // 5 x 12's 4,040 tilings take the test profile some 15 s: CI's minutes go further
        // elsewhere.
        assert_eq!(count(&problems::pentominoes(4, 15).unwrap()), 1472);
    }
}
