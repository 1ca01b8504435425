//! Costs (Knuth's dlx5, miniexact's `$`): the K cheapest solutions and the least cost against
//! a brute force over every subset of options, the dlx format's costs, and the fixtures whose
//! answers an independent method knows.

use proptest::prelude::*;
use quadrille::Budget;
use std::sync::OnceLock;

use quadrille::exact_cover::{
    Dlx, Problem, cheapest, cheapest_parallel, min_cost, min_cost_parallel,
};
use quadrille::io::dlx::{parse_problem, problem_to_string};

use crate::support::fixture_problem as fixture;
use crate::support::oracle::exact_covers;
use crate::support::random_xcc::{Random as RandomItems, random_problem_of};

/// A random small problem with costs: primary items (some with bounds), secondary items with
/// colours or none ([`random_problem_of`]), and options costing 0 to 20, 0 and 5 more often
/// than the rest (ties).
#[derive(Clone, Debug)]
struct Random {
    items: RandomItems,
    /// Each option's cost.
    costs: Vec<u64>,
}

fn random_problem(colours: bool, multiplicities: bool) -> impl Strategy<Value = Random> {
    random_problem_of(colours, multiplicities, 5, 12).prop_flat_map(|items| {
        let cost = prop_oneof![Just(0u64), Just(5u64), 0u64..=20];
        let n = items.options.len();
        (Just(items), prop::collection::vec(cost, n))
            .prop_map(|(items, costs)| Random { items, costs })
    })
}

impl Random {
    fn problem(&self) -> Problem {
        self.items.priced(&self.costs)
    }
}

/// The brute force's answer: every solution with its cost, cheapest first.
fn priced_covers(problem: &Problem) -> Vec<(u64, Vec<usize>)> {
    let mut all: Vec<(u64, Vec<usize>)> = exact_covers(problem)
        .into_iter()
        .map(|s| (problem.cost_of(&s), s))
        .collect();
    all.sort();
    all
}

/// Pools of 2 and 4 threads, built once for all the cases.
fn pools() -> &'static [rayon::ThreadPool; 2] {
    static POOLS: OnceLock<[rayon::ThreadPool; 2]> = OnceLock::new();
    POOLS.get_or_init(|| {
        [2, 4].map(|n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
    })
}

/// The searches on 2 and 4 threads give the one thread's answer: the same solutions (options
/// and costs) in the same order, and the same least cost, count and first solution. Under a
/// budget, what they prove is right.
fn check_threads_agree(problem: &Problem, costs: &[u64]) -> Result<(), TestCaseError> {
    for pool in pools() {
        for k in [1, 3, 10] {
            let one = cheapest(problem, k, &Budget::unlimited());
            let many = pool.install(|| cheapest_parallel(problem, k, &Budget::unlimited()));
            prop_assert!(many.report.is_complete());
            prop_assert_eq!(&one.solutions, &many.solutions, "k = {}", k);
            prop_assert_eq!(many.proved, many.solutions.len());
        }
        let one = min_cost(problem, &Budget::unlimited());
        let many = pool.install(|| min_cost_parallel(problem, &Budget::unlimited()));
        prop_assert_eq!((&one.best, one.count), (&many.best, many.count));
        prop_assert!(many.proved);
        for nodes in [1, 5, 20] {
            let found = pool.install(|| cheapest_parallel(problem, 3, &Budget::nodes(nodes)));
            for (rank, s) in found.solutions.iter().enumerate().take(found.proved) {
                prop_assert_eq!(s.cost, costs[rank], "rank {} proved", rank);
            }
        }
    }
    Ok(())
}

fn check_against_brute_force(random: &Random) -> Result<(), TestCaseError> {
    let problem = random.problem();
    for (k, cost) in random.costs.iter().enumerate() {
        prop_assert_eq!(problem.option_cost(k), *cost);
    }
    let all = priced_covers(&problem);
    let costs: Vec<u64> = all.iter().map(|s| s.0).collect();
    let solutions: Vec<&Vec<usize>> = all.iter().map(|s| &s.1).collect();
    for k in [1, 3, 10] {
        let found = cheapest(&problem, k, &Budget::unlimited());
        prop_assert!(found.report.is_complete());
        prop_assert_eq!(found.bound, None);
        prop_assert_eq!(found.proved, found.solutions.len());
        let got: Vec<u64> = found.solutions.iter().map(|s| s.cost).collect();
        prop_assert_eq!(&got[..], &costs[..k.min(costs.len())], "k = {}", k);
        // Each one a solution, with the cost stated, none twice.
        let mut seen = Vec::new();
        for s in &found.solutions {
            let mut options = s.options.clone();
            options.sort();
            prop_assert!(
                solutions.contains(&&options),
                "not a solution: {:?}",
                options
            );
            prop_assert_eq!(problem.cost_of(&options), s.cost);
            prop_assert!(!seen.contains(&options));
            seen.push(options);
        }
    }
    let least = min_cost(&problem, &Budget::unlimited());
    prop_assert!(least.proved && least.report.is_complete());
    match costs.first() {
        None => prop_assert_eq!((least.best, least.count), (None, 0)),
        Some(&min) => {
            let best = least.best.unwrap();
            prop_assert_eq!(best.cost, min);
            let mut options = best.options.clone();
            options.sort();
            prop_assert!(solutions.contains(&&options));
            let ties = costs.iter().filter(|&&c| c == min).count() as u64;
            prop_assert_eq!(least.count, ties);
        }
    }
    // Under a budget: what is proved is right, and the rest are solutions at least.
    for nodes in [1, 3, 8] {
        let found = cheapest(&problem, 3, &Budget::nodes(nodes));
        prop_assert!(found.report.stats.nodes <= nodes);
        if found.report.is_complete() {
            prop_assert_eq!(found.proved, found.solutions.len());
        } else {
            // Every solution not found costs at least the bound, or at least the third
            // cheapest found when three were (the search cut off what cannot beat it).
            let mut cap = found.bound.unwrap();
            if let (3, Some(last)) = (found.solutions.len(), found.solutions.last()) {
                cap = cap.min(last.cost);
            }
            let found_sets: Vec<Vec<usize>> = (found.solutions.iter())
                .map(|s| {
                    let mut o = s.options.clone();
                    o.sort();
                    o
                })
                .collect();
            for (cost, options) in &all {
                if !found_sets.contains(options) {
                    prop_assert!(*cost >= cap, "{:?} costs {} < {}", options, cost, cap);
                }
            }
        }
        for (rank, s) in found.solutions.iter().enumerate() {
            let mut options = s.options.clone();
            options.sort();
            prop_assert!(solutions.contains(&&options));
            if rank < found.proved {
                prop_assert_eq!(s.cost, costs[rank], "rank {} proved", rank);
            }
        }
    }
    check_threads_agree(&problem, &costs)?;
    // The format keeps the costs.
    let back = parse_problem(&problem_to_string(&problem)).unwrap();
    prop_assert_eq!(back.problem(), &problem);
    Ok(())
}

proptest! {
    // 4 x 150 = 600 problems, each asked for K = 1, 3 and 10.
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn cheapest_plain_equal_brute_force(random in random_problem(false, false)) {
        check_against_brute_force(&random)?;
    }

    #[test]
    fn cheapest_colours_equal_brute_force(random in random_problem(true, false)) {
        check_against_brute_force(&random)?;
    }

    #[test]
    fn cheapest_multiplicities_equal_brute_force(random in random_problem(false, true)) {
        check_against_brute_force(&random)?;
    }

    #[test]
    fn cheapest_colours_and_multiplicities_equal_brute_force(
        random in random_problem(true, true),
    ) {
        check_against_brute_force(&random)?;
    }
}

#[test]
fn dlx_costs_read_as_knuth_and_miniexact_write_them() {
    // dlx5: `|n` after any item, several add up; miniexact: one `$n`.
    let text = "a b c | x\na b |3\nc x:R |1 |2\na $4\nb c |1 $1\n";
    let problem = parse_problem(text).unwrap().into_problem();
    let costs: Vec<u64> = (0..4).map(|k| problem.option_cost(k)).collect();
    assert_eq!(costs, [3, 3, 4, 2]);
    assert_eq!(problem.option_text(1), "c x:R");
    // Written back with dlx5's bar, and read back the same.
    let written = problem_to_string(&problem);
    assert!(
        written.contains("\na b |3\nc x:R |3\na |4\nb c |2\n"),
        "{written}"
    );
    assert_eq!(parse_problem(&written).unwrap().into_problem(), problem);
    // No cost: nothing kept, and the same problem as before costs existed.
    let plain = parse_problem("a b\na b\na |0\nb\n").unwrap().into_problem();
    assert!(!plain.has_costs());
    assert_eq!(
        plain,
        parse_problem("a b\na b\na\nb\n").unwrap().into_problem()
    );
}

#[test]
fn malformed_costs_name_line_and_column() {
    for (text, (line, column), words) in [
        ("a b\na |\n", (2, 3), "right after the '|'"),
        ("a b\na |x\n", (2, 3), "decimal number"),
        ("a b\nb\na |3x\n", (3, 3), "decimal number"),
        ("a b\na |4294967296\n", (2, 3), "at most 4294967295"),
        ("a b\na |4294967295 |1\n", (2, 15), "add up to more"),
        ("a b\na $1 $2\n", (2, 6), "at most one '$'"),
        ("a $1\na\n", (1, 3), "would be a cost"),
    ] {
        let err = parse_problem(text).unwrap_err();
        assert_eq!(
            (err.line(), err.column()),
            (Some(line), Some(column)),
            "{text:?}"
        );
        assert!(err.to_string().contains(words), "{text:?}: {err}");
    }
    // `$` and more than digits is an item name, as before.
    let problem = parse_problem("a $x\na $x\n").unwrap().into_problem();
    assert_eq!(problem.option_text(0), "a $x");
}

/// The assignment fixture: 6 workers, 6 jobs, each pair a price. Its cheapest assignments are
/// checked against all 720 permutations.
#[test]
fn assignment_fixture_matches_every_permutation() {
    let problem = fixture("costs_assignment6.dlx");
    let price = |w: usize, j: usize| -> u64 {
        let option = (0..problem.option_count())
            .find(|&o| problem.option_text(o) == format!("w{w} j{j}"))
            .unwrap();
        problem.option_cost(option)
    };
    let mut totals = Vec::new();
    let mut perm: Vec<usize> = (0..6).collect();
    permutations(&mut perm, 0, &mut |p| {
        totals.push((0..6).map(|w| price(w, p[w])).sum::<u64>());
    });
    totals.sort();
    assert_eq!(totals.len(), 720);
    let found = cheapest(&problem, 10, &Budget::unlimited());
    let got: Vec<u64> = found.solutions.iter().map(|s| s.cost).collect();
    assert_eq!(got, totals[..10]);
    let least = min_cost(&problem, &Budget::unlimited());
    let ties = totals.iter().filter(|&&t| t == totals[0]).count() as u64;
    assert_eq!((least.best.unwrap().cost, least.count), (totals[0], ties));
    same_on_threads(&problem, &found.solutions, 10);
}

/// The 10 cheapest on 2 and 4 threads are `one`'s, options, costs and order.
fn same_on_threads(problem: &Problem, one: &[quadrille::exact_cover::Priced], k: usize) {
    for pool in pools() {
        let many = pool.install(|| cheapest_parallel(problem, k, &Budget::unlimited()));
        assert_eq!(
            many.solutions,
            one,
            "{} threads",
            pool.current_num_threads()
        );
    }
}

fn permutations(p: &mut Vec<usize>, at: usize, visit: &mut impl FnMut(&[usize])) {
    if at == p.len() {
        visit(p);
        return;
    }
    for i in at..p.len() {
        p.swap(at, i);
        permutations(p, at + 1, visit);
        p.swap(at, i);
    }
}

/// The priced pentomino fixture: every tiling of the 6x10 board, its cost the potential
/// energy of its pieces. The cheapest, and the count at the least cost, are checked against
/// every one of the 9,356 solutions listed by plain Dancing Links (which ignores costs) and
/// priced one by one.
#[test]
fn priced_pentominoes_match_every_tiling_priced() {
    let problem = fixture("costs_pentominoes_6x10.dlx");
    let (all, report) = Dlx::new(&problem).solutions(None);
    assert!(report.is_complete());
    assert_eq!(all.len(), 9356);
    let mut totals: Vec<u64> = all.iter().map(|s| problem.cost_of(s)).collect();
    totals.sort();
    let found = cheapest(&problem, 10, &Budget::unlimited());
    let got: Vec<u64> = found.solutions.iter().map(|s| s.cost).collect();
    assert_eq!(got, totals[..10]);
    let least = min_cost(&problem, &Budget::unlimited());
    let ties = totals.iter().filter(|&&t| t == totals[0]).count() as u64;
    assert_eq!((least.best.unwrap().cost, least.count), (totals[0], ties));
    // On four threads only: the random problems above run on two and four, and each search
    // of this one costs seconds in the test profile.
    let many = pools()[1].install(|| cheapest_parallel(&problem, 10, &Budget::unlimited()));
    assert_eq!(many.solutions, found.solutions, "4 threads");
}

/// The tool: `--cheapest K` and `--min-cost` print what the library finds; bad requests are
/// usage errors (2), bad costs input errors (1) with their line and column.
#[cfg(feature = "cli")]
#[test]
fn the_tool_prints_the_cheapest_and_refuses_what_it_cannot_do() {
    use crate::cli::run_text;

    let text = "a b\na b |5\na |1\nb |2\nb $3\n";
    let (code, out, err) = run_text(&["xc", "--cheapest", "5"], text);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "| cost 3\na\nb\n\n| cost 4\na\nb\n\n| cost 5\na b\n");
    assert!(
        err.starts_with("3 cheapest solutions (cost 3, 4, 5), proved"),
        "{err}"
    );
    let (code, out, _) = run_text(&["xc", "--min-cost", "-q"], text);
    assert_eq!((code, out.as_str()), (0, "3\n"));
    let (code, out, _) = run_text(
        &["xc", "--min-cost", "--count", "-q"],
        "a\na |2\na |2\na |3\n",
    );
    assert_eq!((code, out.as_str()), (0, "2\n"));
    let (code, out, _) = run_text(&["xc", "--cheapest", "2", "--json", "-q"], text);
    assert_eq!(code, 0);
    let record: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(record["solutions"][0]["cost"], 3);
    assert_eq!(record["solutions"][1]["options"], serde_json::json!([1, 3]));
    assert_eq!(record["complete"], true);
    // Threads: the same solutions, ties in the same order (4 of the 5 solutions, all cost 3).
    let ties = "a b\na |1\na |1\nb |2\nb |2\na b |3\n";
    let listed = |threads: &str| {
        let args = ["xc", "--cheapest", "4", "--json", "-q", "-j", threads];
        let (code, out, err) = run_text(&args, ties);
        assert_eq!(code, 0, "-j {threads}: {err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()["solutions"].clone()
    };
    let one = listed("1");
    assert_eq!(one.as_array().unwrap().len(), 4);
    for threads in ["2", "4", "0"] {
        assert_eq!(listed(threads), one, "-j {threads}");
    }
    // A budget: what is not proved says so.
    let problem = crate::support::fixture("costs_pentominoes_6x10.dlx");
    let (code, out, err) = run_text(
        &["xc", &problem, "--cheapest", "2", "--node-budget", "3000"],
        "",
    );
    assert_eq!(code, 0);
    assert!(out.contains(", best found\n"), "{out}");
    assert!(err.contains("node budget ran out; every solution not found costs at least"));
    for (args, words) in [
        (&["xc", "--cheapest", "0"][..], "--cheapest: from 1"),
        (
            &["xc", "--cheapest", "2", "--limit", "3"],
            "cannot be used with",
        ),
    ] {
        let (code, _, err) = run_text(args, text);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
    let (code, _, err) = run_text(&["xc", "--cheapest", "1"], "a b\na b |3x\n");
    assert_eq!(code, 1);
    assert!(
        err.contains("line 2, column 5: '|3x' is not a valid cost"),
        "{err}"
    );
}
