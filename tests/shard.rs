//! Knuth's estimate, the bounded split, and shards: checked against known counts and against
//! the sequential search.

use std::collections::BTreeSet;

use proptest::prelude::*;
use quadrille::Budget;
use quadrille::exact_cover::{
    Control, CountSink, Dlx, MIN_NONZERO, Plan, Problem, ProblemBuilder, Solution,
};
use quadrille::problems;
use quadrille::sudoku::{Shape, encode};

/// The number of 6x6 Sudoku grids (2x3 boxes), as enumerated by Pettersen and others.
const EMPTY_6X6_GRIDS: f64 = 28_200_960.0;

/// Runs `seeds` estimates of `probes` probes and returns how many intervals hold `truth`,
/// after checking that every interval is narrow: its half-width at most `width` times the
/// truth, so that an interval can hold the truth only by being near it.
fn seeded_hits(dlx: &mut Dlx, probes: u64, seeds: u64, truth: f64, width: f64) -> u64 {
    let mut hits = 0;
    for seed in 1..=seeds {
        let estimate = dlx.estimate(probes, seed);
        let half = (estimate.solutions.high - estimate.solutions.low) / 2.0;
        assert!(
            half <= width * truth,
            "seed {seed}: interval {:?} is too wide to mean anything",
            estimate.solutions
        );
        hits += estimate.solutions.contains(truth) as u64;
    }
    hits
}

// A 95% interval holds the truth in 19 runs of 20 when the probes behave; the tests ask for at
// least 14 of 20 (70%) to leave room for the heavy tails (see `exact_cover::estimate`). Each
// interval must also be narrow (a half-width of at most 25-60% of the truth), so a wrong
// estimator, off by a factor, or a biased one, misses in almost every run and fails.

#[test]
fn estimate_holds_the_queens_count_in_most_seeded_runs() {
    let mut dlx = Dlx::new(&problems::queens(10).unwrap());
    assert!(seeded_hits(&mut dlx, 1_000, 20, 724.0, 0.25) >= 14);
}

#[test]
fn estimate_holds_the_langford_count_in_most_seeded_runs() {
    let mut dlx = Dlx::new(&problems::langford(8).unwrap());
    assert!(seeded_hits(&mut dlx, 2_000, 20, 300.0, 0.4) >= 14);
}

#[test]
fn estimate_of_pentominoes_bounds_the_nodes_and_admits_it_cannot_bound_the_solutions() {
    // Solutions of pentomino tilings are rare and deep: 2,000 probes of the 6x10 board meet
    // one about twice, too few for an interval, and the estimate says so with an infinite
    // upper end rather than a narrow interval around 0 that would exclude the 9,356 tilings.
    let mut dlx = Dlx::new(&problems::pentominoes(6, 10).unwrap());
    let mut held = 0;
    for seed in 1..=10 {
        let estimate = dlx.estimate(2_000, seed);
        held += estimate.solutions.contains(9356.0) as u32;
        if estimate.solutions.high.is_infinite() {
            assert!(estimate.solutions.nonzero < MIN_NONZERO);
        }
    }
    assert!(held >= 7, "{held} of 10");
    // The nodes of the same tree are estimated well: on 3x20 (8 tilings, 36,242 nodes), the
    // search's own node count is in most seeded intervals, each at most three times the count wide (heavy tails again).
    let mut dlx = Dlx::new(&problems::pentominoes(3, 20).unwrap());
    let truth = dlx.count(None).stats;
    let mut nodes = 0;
    for seed in 1..=20 {
        let estimate = dlx.estimate(2_000, seed);
        let width = estimate.nodes.high - estimate.nodes.low;
        assert!(
            width <= 3.0 * truth.nodes as f64,
            "seed {seed}: {:?}",
            estimate.nodes
        );
        nodes += estimate.nodes.contains(truth.nodes as f64) as u32;
    }
    assert!(nodes >= 14, "{nodes} of 20");
}

#[test]
fn estimate_holds_the_empty_6x6_grid_count_in_most_seeded_runs() {
    let mut dlx = Dlx::new(&encode::problem(Shape::new(2, 3).unwrap().board()));
    assert!(seeded_hits(&mut dlx, 1_000, 20, EMPTY_6X6_GRIDS, 0.25) >= 14);
}

#[test]
fn estimate_of_nodes_and_updates_holds_the_searchs_own() {
    let mut dlx = Dlx::new(&problems::queens(9).unwrap());
    let truth = dlx.count(None).stats;
    let (mut nodes, mut updates) = (0, 0);
    for seed in 1..=20 {
        let estimate = dlx.estimate(1_000, seed);
        nodes += estimate.nodes.contains(truth.nodes as f64) as u32;
        updates += estimate.updates.contains(truth.updates as f64) as u32;
        assert!(estimate.nodes.high - estimate.nodes.low <= 0.5 * truth.nodes as f64);
    }
    assert!(nodes >= 14 && updates >= 14, "{nodes} and {updates} of 20");
}

#[test]
fn estimate_is_reproducible_and_leaves_the_links_as_built() {
    let mut dlx = Dlx::new(&problems::pentominoes(3, 20).unwrap());
    let before = dlx.link_fingerprint();
    let a = dlx.estimate(300, 7);
    assert_eq!(dlx.link_fingerprint(), before);
    let b = dlx.estimate(300, 7);
    assert_eq!(
        (a.nodes, a.updates, a.solutions),
        (b.nodes, b.updates, b.solutions)
    );
    assert_ne!(a.nodes.estimate, dlx.estimate(300, 8).nodes.estimate);
}

#[test]
fn estimate_of_a_tree_without_branching_is_exact() {
    // Knuth's example has one path of forced choices (and one dead-end sibling at most):
    // whatever the seed, the interval is [1, 1] when every probe sees the same tree.
    let mut dlx = Dlx::new(&problems::exact_cover_knuth_example());
    let truth = dlx.count(None).stats.solutions as f64;
    let estimate = dlx.estimate(500, 3);
    assert!(estimate.solutions.contains(truth));
}

/// Small Sudoku counts: the 4x4 grid, and 6x6 puzzles with some givens.
fn sudoku_dlx(givens: &[(usize, usize)]) -> Dlx {
    let shape = Shape::new(2, 3).unwrap();
    let mut dlx = Dlx::new(&encode::problem(shape.board()));
    dlx.track_dead_ends(true);
    for &(cell, digit) in givens {
        dlx.force(cell * 6 + digit).unwrap();
    }
    dlx
}

/// The known counts of the suite, as problems with their counts from one sequential search.
fn known() -> Vec<(&'static str, Dlx)> {
    vec![
        ("queens 8", Dlx::new(&problems::queens(8).unwrap())),
        ("langford 8", Dlx::new(&problems::langford(8).unwrap())),
        (
            "pentominoes 3x20",
            Dlx::new(&problems::pentominoes(3, 20).unwrap()),
        ),
        ("knuth", Dlx::new(&problems::exact_cover_knuth_example())),
        (
            "4x4 grid",
            Dlx::new(&encode::problem(Shape::new(2, 2).unwrap().board())),
        ),
        // The first row of a 6x6 grid: 28,200,960 / 720 = 39,168 completions.
        (
            "6x6, first row",
            sudoku_dlx(&[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]),
        ),
        (
            "6x6, 9 givens",
            sudoku_dlx(&[
                (0, 0),
                (1, 1),
                (2, 2),
                (6, 3),
                (7, 4),
                (14, 5),
                (20, 0),
                (27, 1),
                (35, 2),
            ]),
        ),
    ]
}

#[test]
fn merged_shards_count_what_one_search_counts() {
    for (name, mut dlx) in known() {
        let whole = dlx.count(None).stats;
        if name == "6x6, first row" {
            assert_eq!(whole.solutions, 39_168);
        }
        for shards in [1, 2, 3, 7, 16] {
            let plan = dlx.shard_plan(shards);
            let mut total = quadrille::exact_cover::Stats::default();
            for i in 1..=shards {
                let shard = Plan::new().shard(&plan, i);
                let report = dlx
                    .run(&shard, &Budget::unlimited(), CountSink::new(None))
                    .unwrap();
                assert!(report.is_complete());
                total.add(&report.stats);
            }
            assert_eq!(
                (total.solutions, total.nodes),
                (whole.solutions, whole.nodes),
                "{name}, {shards} shards"
            );
        }
    }
}

#[test]
fn the_same_problem_and_n_give_the_same_plan() {
    let a = Dlx::new(&problems::langford(8).unwrap()).shard_plan(5);
    let b = Dlx::new(&problems::langford(8).unwrap()).shard_plan(5);
    assert_eq!(a.fingerprint(), b.fingerprint());
    assert_eq!(a.problem_fingerprint(), b.problem_fingerprint());
    let c = Dlx::new(&problems::langford(8).unwrap()).shard_plan(6);
    assert_ne!(a.fingerprint(), c.fingerprint());
    assert_eq!(a.problem_fingerprint(), c.problem_fingerprint());
    let d = Dlx::new(&problems::langford(7).unwrap()).shard_plan(5);
    assert_ne!(a.problem_fingerprint(), d.problem_fingerprint());
}

/// A random small problem: `primary` primary and 2 secondary items, options as bit masks.
fn problem_of(primary: usize, options: &[(u16, u8)]) -> Problem {
    let mut b = ProblemBuilder::new();
    let items: Vec<usize> = (0..primary)
        .map(|i| b.primary(&format!("p{i}")).unwrap())
        .collect();
    let secondary: Vec<usize> = (0..2)
        .map(|i| b.secondary(&format!("s{i}")).unwrap())
        .collect();
    for &(mask, extra) in options {
        let mut option: Vec<usize> = (0..primary)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| items[i])
            .collect();
        if option.is_empty() {
            option.push(items[mask as usize % primary]);
        }
        option.extend((0..2).filter(|i| extra >> i & 1 == 1).map(|i| secondary[i]));
        b.option(option).unwrap();
    }
    b.build().unwrap()
}

fn collect(solutions: &mut Vec<Vec<usize>>) -> impl FnMut(&Solution<'_>) -> Control + '_ {
    |s: &Solution<'_>| {
        let mut options = s.to_vec();
        options.sort();
        solutions.push(options);
        Control::Continue
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn shards_are_disjoint_and_together_hold_every_solution(
        primary in 1usize..9,
        options in prop::collection::vec((1u16..512, 0u8..4), 1..40),
        shards in 1usize..6,
    ) {
        let mut dlx = Dlx::new(&problem_of(primary, &options));
        let mut all = Vec::new();
        dlx.search(&Budget::unlimited(), collect(&mut all));
        let all: BTreeSet<Vec<usize>> = all.into_iter().collect();
        let plan = dlx.shard_plan(shards);
        let mut union = Vec::new();
        let mut counted = 0;
        for i in 1..=shards {
            let report = dlx.run(&Plan::new().shard(&plan, i), &Budget::unlimited(), collect(&mut union)).unwrap();
            prop_assert!(report.is_complete());
            counted += report.stats.solutions;
        }
        let distinct: BTreeSet<Vec<usize>> = union.iter().cloned().collect();
        prop_assert_eq!(distinct.len(), union.len(), "a solution in two shards");
        prop_assert_eq!(&distinct, &all);
        prop_assert_eq!(counted, all.len() as u64);
    }
}
