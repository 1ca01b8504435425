//! Colours and multiplicities (Knuth's dlx2 and dlx3): the `Xcc` search against a brute force
//! over every subset of options, known counts of published problems, and the formats.

use num_bigint::BigUint;
use proptest::prelude::*;
use quadrille::exact_cover::{
    Control, CountStart, Dlx, Memo, MemoBranching, MemoMode, Problem, ProblemBuilder, Solution, Xcc,
};
use quadrille::io::dlx::{parse_problem, problem_to_string};
use quadrille::request::ExactCoverCount;
use quadrille::{Budget, Stop};

use crate::support::fixture_problem as fixture;
use crate::support::oracle::exact_covers;

use crate::support::random_xcc::{Random, random_problem};

fn sorted_solutions(xcc: &mut Xcc) -> Vec<Vec<usize>> {
    let (mut found, report) = xcc.solutions(None);
    assert!(report.is_complete());
    for s in &mut found {
        s.sort();
    }
    found.sort();
    found
}

fn check_against_brute_force(random: &Random) -> Result<(), TestCaseError> {
    let problem = random.problem();
    prop_assert!(random.is_built_as(&problem));
    let expected = exact_covers(&problem);
    let mut xcc = Xcc::new(&problem);
    let before = xcc.link_fingerprint();
    let found = sorted_solutions(&mut xcc);
    // Each solution once: no repeats among those found.
    let mut unique = found.clone();
    unique.dedup();
    prop_assert_eq!(unique.len(), found.len());
    prop_assert_eq!(&found, &expected);
    prop_assert_eq!(xcc.link_fingerprint(), before.clone());
    prop_assert_eq!(xcc.sanity(), Ok(()));

    // Stopped by a limit or a budget, it counts a lower bound and still restores every link.
    let total = expected.len() as u64;
    for limit in [1, 2] {
        let report = xcc.count(Some(limit));
        prop_assert_eq!(report.stats.solutions, total.min(limit));
        prop_assert_eq!(report.stop == Stop::Limit, total >= limit);
        prop_assert_eq!(xcc.link_fingerprint(), before.clone());
    }
    let report = xcc.count_within(None, &Budget::nodes(5));
    prop_assert!(report.stats.nodes <= 5);
    prop_assert!(report.stop.is_complete() || report.stats.solutions <= total);
    if report.stop.is_complete() {
        prop_assert_eq!(report.stats.solutions, total);
    }
    prop_assert_eq!(xcc.link_fingerprint(), before.clone());

    // Two threads count the same.
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let report = two.install(|| xcc.count_parallel(None, &Budget::unlimited()));
    prop_assert_eq!(
        (report.stats.solutions, report.stop),
        (total, Stop::Exhausted)
    );
    // The shares walk the one tree between them: the nodes of one thread's search.
    prop_assert_eq!(report.stats.nodes, xcc.count(None).stats.nodes);
    let report = two.install(|| xcc.count_parallel(Some(1), &Budget::unlimited()));
    prop_assert_eq!(report.stats.solutions, total.min(1));

    // Remembering counts the same, with either item choice, in plenty of memory or in a
    // table of one slot that forgets all the time, and restores every link; a budget gives a
    // lower bound.
    for branching in [MemoBranching::Mrv, MemoBranching::FirstItem] {
        for memory in [1, 1 << 20] {
            let memo = Memo {
                mode: MemoMode::Always,
                branching,
                memory,
            };
            let counted = xcc.count_memo(&Budget::unlimited(), &memo);
            prop_assert!(counted.exact);
            prop_assert_eq!(&counted.solutions, &BigUint::from(total));
            prop_assert_eq!(counted.report.stats.solutions, total);
            prop_assert_eq!(xcc.link_fingerprint(), before.clone());
            for nodes in [1, 3, 7] {
                let cut = xcc.count_memo(&Budget::nodes(nodes), &memo);
                prop_assert!(cut.report.stats.nodes <= nodes);
                prop_assert!(cut.solutions <= BigUint::from(total));
                prop_assert_eq!(cut.exact, cut.report.stop == Stop::Exhausted);
                prop_assert_eq!(xcc.link_fingerprint(), before.clone());
            }
        }
    }
    // And the default start of a count (a first search, perhaps a trial) counts the same.
    match xcc.count_start(&Budget::unlimited(), &Memo::default()) {
        CountStart::Done(report) => prop_assert_eq!(report.stats.solutions, total),
        other => prop_assert!(false, "a small tree is counted at once: {:?}", other),
    }
    prop_assert_eq!(xcc.link_fingerprint(), before.clone());

    // Plain problems: the same solutions as Dlx.
    if problem.is_plain() {
        let (mut plain, _) = Dlx::new(&problem).solutions(None);
        for s in &mut plain {
            s.sort();
        }
        plain.sort();
        prop_assert_eq!(plain, expected);
    }
    // The format keeps it all.
    let back = parse_problem(&problem_to_string(&problem)).unwrap();
    prop_assert_eq!(back.problem(), &problem);
    Ok(())
}

/// Two random problems side by side, their items renamed apart and their options
/// interleaved: the default count splits them into their parts and multiplies.
fn side_by_side(a: &Random, b: &Random) -> Random {
    let (primary, secondary) = (a.bounds.len(), a.secondary);
    let shifted = b.options.iter().map(|(p, s)| {
        (
            p.iter().map(|&i| i + primary).collect(),
            s.iter().map(|&(i, c)| (i + secondary, c)).collect(),
        )
    });
    let mut options = Vec::new();
    let mut mine = a.options.iter().cloned();
    let mut theirs = shifted;
    loop {
        match (mine.next(), theirs.next()) {
            (None, None) => break,
            (x, y) => options.extend(x.into_iter().chain(y)),
        }
    }
    Random {
        bounds: a.bounds.iter().chain(&b.bounds).copied().collect(),
        secondary: a.secondary + b.secondary,
        options,
    }
}

fn check_parts_multiply(a: &Random, b: &Random) -> Result<(), TestCaseError> {
    let expected = exact_covers(&a.problem()).len() * exact_covers(&b.problem()).len();
    let both = side_by_side(a, b).problem();
    for memo in [MemoMode::Auto, MemoMode::Always, MemoMode::Off] {
        let request = ExactCoverCount {
            memo: Memo {
                mode: memo,
                ..Memo::default()
            },
            ..ExactCoverCount::default()
        };
        let record = request.run(&both, &|_| {}).unwrap();
        prop_assert_eq!(
            record.solutions.to_string(),
            expected.to_string(),
            "{:?}",
            memo
        );
        prop_assert!(record.complete);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn independent_parts_count_the_product_of_theirs(
        a in random_problem(true, true),
        b in random_problem(true, false),
        c in random_problem(false, false),
    ) {
        check_parts_multiply(&a, &b)?;
        check_parts_multiply(&c, &a)?;
        check_parts_multiply(&c, &c)?;
    }

    #[test]
    fn colours_find_exactly_what_brute_force_finds(random in random_problem(true, false)) {
        check_against_brute_force(&random)?;
    }

    #[test]
    fn multiplicities_find_exactly_what_brute_force_finds(random in random_problem(false, true)) {
        check_against_brute_force(&random)?;
    }

    #[test]
    fn colours_with_multiplicities_find_exactly_what_brute_force_finds(
        random in random_problem(true, true),
    ) {
        check_against_brute_force(&random)?;
    }
}

/// The proper `k`-colourings of the cycle C`n` in the layout of `fixtures/cycle7_colourings.dlx`
/// (the text of `fixtures/cycle100_3colourings.dlx` and `cycle60_4colourings.dlx`): each edge
/// takes an ordered pair of distinct colours for its two ends.
fn cycle_colourings(n: usize, k: usize) -> String {
    let colours = &["R", "G", "B", "Y"][..k];
    let mut text = format!(
        "| Proper {k}-colourings of the cycle C{n} as XCC, in the layout of cycle7_colourings.dlx:\n\
         | each edge e<i> (primary) takes one ordered pair of distinct colours for its ends v<i>,\n\
         | v<i+1> (secondary, coloured). (k-1)^n + (-1)^n (k-1) solutions, at n = {n}, k = {k}.\n\
         | Written by tests/xcc.rs's cycle_colourings({n}, {k}), which checks this file against it.\n"
    );
    let edges: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
    let vertices: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
    text.push_str(&format!("{} | {}\n", edges.join(" "), vertices.join(" ")));
    for i in 0..n {
        for a in colours {
            for b in colours.iter().filter(|&b| b != a) {
                text.push_str(&format!("e{i} v{i}:{a} v{}:{b}\n", (i + 1) % n));
            }
        }
    }
    text
}

/// The chromatic polynomial of the cycle C`n` at `k`: (k-1)^n + (-1)^n (k-1).
fn cycle_chromatic(n: u32, k: u32) -> BigUint {
    let power = BigUint::from(k - 1).pow(n);
    if n.is_multiple_of(2) {
        power + (k - 1)
    } else {
        power - (k - 1)
    }
}

/// Colourings of long cycles are remembered, exact past 64 and 96 bits: the subproblems
/// after colouring a path differ only in the colours of its ends (issue 42). The plain
/// search and brute force agree with the formula on short cycles.
#[test]
fn cycle_colourings_are_remembered_exactly() {
    for (n, k, name) in [
        (100, 3, "cycle100_3colourings.dlx"),
        (60, 4, "cycle60_4colourings.dlx"),
    ] {
        let text = cycle_colourings(n, k);
        let file = std::fs::read_to_string(crate::support::fixture(name)).unwrap();
        assert_eq!(file, text, "{name} is what the generator writes");
        let problem = parse_problem(&text).unwrap().into_problem();
        let truth = cycle_chromatic(n as u32, k as u32);
        let counted = Xcc::new(&problem).count_memo(&Budget::unlimited(), &Memo::default());
        assert_eq!(
            (&counted.solutions, counted.exact),
            (&truth, true),
            "{name}"
        );
        // The default start remembers by itself, after its trial.
        let CountStart::Remembered(counted) =
            Xcc::new(&problem).count_start(&Budget::unlimited(), &Memo::default())
        else {
            panic!("{name} is remembered");
        };
        assert_eq!(counted.solutions, truth, "{name}");
    }
    assert_eq!(cycle_chromatic(100, 3), (BigUint::from(1u32) << 100) + 2u32);
    assert_eq!(cycle_chromatic(60, 4), BigUint::from(3u32).pow(60) + 3u32);
    for (n, k) in [(5, 3), (8, 3), (6, 4), (9, 2), (12, 3)] {
        let problem = parse_problem(&cycle_colourings(n, k))
            .unwrap()
            .into_problem();
        let plain = Xcc::new(&problem).count(None).stats.solutions;
        assert_eq!(
            BigUint::from(plain),
            cycle_chromatic(n as u32, k as u32),
            "C{n}, {k}"
        );
        if n <= 6 {
            assert_eq!(exact_covers(&problem).len() as u64, plain, "C{n}, {k}");
        }
        for mode in [MemoMode::Always, MemoMode::Auto] {
            let memo = Memo {
                mode,
                ..Memo::default()
            };
            let record = ExactCoverCount {
                memo,
                ..ExactCoverCount::default()
            }
            .run(&problem, &|_| {})
            .unwrap();
            assert_eq!(record.solutions.to_string(), plain.to_string(), "C{n}, {k}");
        }
    }
}

/// The solutions of a fixture, each as its options' text, sorted.
fn solution_texts(problem: &Problem) -> Vec<Vec<String>> {
    let (found, report) = Xcc::new(problem).solutions(None);
    assert!(report.is_complete());
    let mut texts: Vec<Vec<String>> = (found.iter())
        .map(|s| {
            let mut t: Vec<String> = s.iter().map(|&o| problem.option_text(o)).collect();
            t.sort();
            t
        })
        .collect();
    texts.sort();
    texts
}

#[test]
fn taocp_toy_xcc_has_its_one_solution() {
    let problem = fixture("xcc_taocp_toy.dlx");
    assert!(problem.has_colors() && !problem.has_multiplicities());
    assert_eq!(
        solution_texts(&problem),
        [["p r x:A y", "q x:A"].map(String::from).to_vec()]
    );
}

#[test]
fn dlx3_example_has_its_one_solution() {
    let problem = fixture("dlx3_example.dlx");
    assert!(problem.has_colors() && problem.has_multiplicities());
    assert_eq!(
        solution_texts(&problem),
        [["A C X:1 Y:1", "B X:1", "C Y:1"].map(String::from).to_vec()]
    );
}

#[test]
fn latin_squares_of_order_4_as_xcc() {
    let problem = fixture("latin4_colours.dlx");
    let mut xcc = Xcc::new(&problem);
    let report = xcc.count(None);
    assert_eq!(
        (report.stats.solutions, report.stop),
        (576, Stop::Exhausted)
    );
    // Every solution is a Latin square: each cell gets one digit.
    let (found, _) = xcc.solutions(Some(50));
    for s in found {
        let mut cells = [0u32; 16];
        for o in s {
            let text = problem.option_text(o);
            let cell = text.split(' ').nth(2).unwrap();
            let (x, digit) = cell[1..].split_once(':').unwrap();
            let i = x.parse::<usize>().unwrap();
            assert_eq!(cells[i / 10 * 4 + i % 10], 0);
            cells[i / 10 * 4 + i % 10] = digit.parse().unwrap();
        }
        assert!(cells.iter().all(|&d| d > 0));
    }
}

#[test]
fn cycle_colourings_share_their_vertices() {
    let problem = fixture("cycle7_colourings.dlx");
    // The chromatic polynomial of a cycle, and a count of colour assignments by brute force.
    let (n, k) = (7u32, 3i64);
    let formula = (k - 1).pow(n) + (-1i64).pow(n) * (k - 1);
    let brute = (0..3u32.pow(n))
        .filter(|&code| {
            let colour = |v: u32| code / 3u32.pow(v % n) % 3;
            (0..n).all(|v| colour(v) != colour(v + 1))
        })
        .count() as i64;
    assert_eq!((formula, brute), (126, 126));
    let report = Xcc::new(&problem).count(None);
    assert_eq!(report.stats.solutions as i64, formula);
}

#[test]
fn queens_with_a_multiplicity_count_as_the_plain_encoding() {
    let multiplicity = fixture("queens8_multiplicity.dlx");
    assert_eq!(multiplicity.item_bounds(0), Some((8, 8)));
    let report = Xcc::new(&multiplicity).count(None);
    let plain = Dlx::new(&fixture("queens8.dlx")).count(None);
    assert_eq!(report.stats.solutions, 92);
    assert_eq!(plain.stats.solutions, 92);
    // And for other sizes, built in code: Q(n) of OEIS A000170.
    for (n, count) in [(4, 2), (5, 10), (6, 4)] {
        let mut b = ProblemBuilder::new();
        b.primary_with_bounds("Q", n, n).unwrap();
        let name = |kind: char, k: usize| format!("{kind}{k}");
        let n = n as usize;
        for kind in ['r', 'c'] {
            for k in 0..n {
                b.secondary(&name(kind, k)).unwrap();
            }
        }
        for kind in ['a', 'b'] {
            for k in 0..2 * n - 1 {
                b.secondary(&name(kind, k)).unwrap();
            }
        }
        for i in 0..n {
            for j in 0..n {
                let items = [
                    "Q".to_string(),
                    name('r', i),
                    name('c', j),
                    name('a', i + j),
                    name('b', i + n - 1 - j),
                ];
                b.option_by_names(items).unwrap();
            }
        }
        let problem = b.build().unwrap();
        assert_eq!(Xcc::new(&problem).count(None).stats.solutions, count);
        assert_eq!(
            Dlx::new(&quadrille::problems::queens(n).unwrap())
                .count(None)
                .stats
                .solutions,
            count
        );
    }
}

#[test]
fn plain_fixtures_count_as_with_dlx() {
    for (name, count) in [
        ("knuth_example.dlx", 1),
        ("secondary_hand.dlx", 3),
        ("queens8.dlx", 92),
        ("queens8_knuth.dlx", 92),
        ("langford7.dlx", 52),
    ] {
        let problem = fixture(name);
        let mut xcc = Xcc::new(&problem);
        let before = xcc.link_fingerprint();
        let report = xcc.count(None);
        assert_eq!(report.stats.solutions, count, "{name}");
        assert_eq!(
            Dlx::new(&problem).count(None).stats.solutions,
            count,
            "{name}"
        );
        assert_eq!(xcc.link_fingerprint(), before, "{name}");
    }
}

#[test]
fn fixtures_round_trip() {
    for name in [
        "xcc_taocp_toy.dlx",
        "dlx3_example.dlx",
        "latin4_colours.dlx",
        "cycle7_colourings.dlx",
        "queens8_multiplicity.dlx",
    ] {
        let problem = fixture(name);
        let back = parse_problem(&problem_to_string(&problem)).unwrap();
        assert_eq!(back.problem(), &problem, "{name}");
    }
}

#[test]
fn the_empty_choice_is_a_solution_when_every_item_allows_zero() {
    let mut b = ProblemBuilder::new();
    b.primary_with_bounds("a", 0, 2).unwrap();
    b.option_by_names(["a"]).unwrap();
    b.option_by_names(["a"]).unwrap();
    b.option_by_names(["a"]).unwrap();
    let mut xcc = Xcc::new(&b.build().unwrap());
    // {}, three singletons, three pairs.
    let mut sizes = Vec::new();
    let report = xcc.search(&Budget::unlimited(), |s: &Solution<'_>| {
        sizes.push(s.len());
        Control::Continue
    });
    sizes.sort();
    assert_eq!(sizes, [0, 1, 1, 1, 2, 2, 2]);
    assert!(report.is_complete());
}

#[test]
#[should_panic(expected = "Xcc")]
fn dlx_refuses_colours() {
    Dlx::new(&fixture("xcc_taocp_toy.dlx"));
}

/// `quadrille xc` on problems with colours and multiplicities.
#[cfg(feature = "cli")]
mod cli {
    use crate::cli::run_text as run;
    use crate::support::fixture as path;

    #[test]
    fn lists_the_solution_with_its_colours() {
        let (code, out, _) = run(&["xc", &path("xcc_taocp_toy.dlx"), "-q"], "");
        assert_eq!((code, out.as_str()), (0, "q x:A\np r x:A y\n"));
    }

    #[test]
    fn counts_on_threads_within_limits_and_budgets() {
        let latin = path("latin4_colours.dlx");
        for threads in ["1", "2"] {
            let (code, out, _) = run(&["xc", &latin, "--count", "-q", "-j", threads], "");
            assert_eq!((code, out.as_str()), (0, "576\n"), "-j {threads}");
        }
        let (_, out, _) = run(
            &["xc", &latin, "--count", "--limit", "7", "-q", "-j", "2"],
            "",
        );
        assert_eq!(out, "7+\n");
        let (_, out, _) = run(&["xc", &latin, "--json", "--node-budget", "50", "-q"], "");
        let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(json["stop"], "node-budget");
        assert_eq!(json["complete"], false);
        assert!(json["nodes"].as_u64().unwrap() <= 50);
        let (_, out, _) = run(&["xc", &path("dlx3_example.dlx"), "--json", "-q"], "");
        let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(
            (json["solutions"].as_u64(), json["complete"].as_bool()),
            (Some(1), Some(true))
        );
    }

    #[test]
    fn knuth_statistics_restarts_and_shards_refuse_colours_and_multiplicities() {
        let checkpoint = std::env::temp_dir().join("quadrille-xcc-refused.checkpoint");
        let checkpoint = checkpoint.to_str().unwrap();
        let zdd = std::env::temp_dir().join("quadrille-xcc-refused.zdd");
        let zdd = zdd.to_str().unwrap();
        let refused: [&[&str]; 7] = [
            &["--zdd", zdd],
            &["--sample", "3"],
            &["--knuth"],
            &["--restarts"],
            &["--estimate"],
            &["--shard", "1/2"],
            &["--count", "--checkpoint", checkpoint],
        ];
        let file = path("dlx3_example.dlx");
        for flags in refused {
            let mut args = vec!["xc", file.as_str()];
            args.extend_from_slice(flags);
            let flag = flags.join(" ");
            let (code, out, err) = run(&args, "");
            assert_eq!((code, out.as_str()), (2, ""), "{flag}");
            assert!(err.contains("colours and multiplicities"), "{err}");
        }
        let (code, _, err) = run(&["xc", "--knuth"], "2|a\na\na\n");
        assert_eq!(code, 2);
        assert!(err.contains("has multiplicities"), "{err}");
    }

    /// `--memo always` remembers colours and multiplicities (it was refused before issue 42),
    /// and `--memo off` counts the same by Algorithm M.
    #[test]
    fn counts_remember_colours_and_multiplicities() {
        for (file, expected) in [
            ("latin4_colours.dlx", "576"),
            ("cycle7_colourings.dlx", "126"),
            ("queens8_multiplicity.dlx", "92"),
            ("dlx3_example.dlx", "1"),
        ] {
            let file = path(file);
            for memo in ["always", "auto", "off"] {
                let args = ["xc", &file, "--json", "-q", "--memo", memo];
                let (code, out, err) = run(&args, "");
                assert_eq!(code, 0, "{args:?}: {err}");
                let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
                assert_eq!(json["solutions"].to_string(), expected, "{args:?}");
                assert_eq!(json["complete"], true, "{args:?}");
                if memo == "always" {
                    assert!(json["subproblems"].as_u64() > Some(0), "{args:?}: {out}");
                }
            }
        }
        let (code, out, err) = run(&["xc", &path("cycle100_3colourings.dlx"), "--count"], "");
        assert_eq!(
            (code, out.as_str()),
            (0, "1267650600228229401496703205378\n"),
            "{err}"
        );
    }

    #[test]
    fn bad_colours_and_bounds_give_line_and_column() {
        let (code, _, err) = run(&["xc"], "a | x\n| ok\na x:red\na:red x\n");
        assert_eq!(code, 1);
        assert!(
            err.contains("line 4, column 3: primary item 'a' cannot have a colour"),
            "{err}"
        );
        let (code, _, err) = run(&["xc"], "a 3:1|b\na b\n");
        assert_eq!(code, 1);
        assert!(
            err.contains("line 1, column 3: item 'b' has bounds 3:1"),
            "{err}"
        );
    }
}
