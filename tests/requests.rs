//! One request, every front end: a count of an exact-cover problem asked of the library
//! ([`ExactCoverCount`]) and of `quadrille xc` (piped, as JSON, and with its standard error on
//! a terminal, where a spinner shows) gives the same count, on one thread and on two, for plain
//! exact cover, colours and multiplicities. The Python package asks the same request; its own
//! tests (python/tests) hold it to the counts below.

use std::process::{Command, Stdio};

use quadrille::exact_cover::Memo;
use quadrille::request::{ExactCoverCount, Field, Search};
use quadrille::{Budget, ErrorKind};
use serde_json::Value;

use crate::cli::{bin, path, run_text};
use crate::support::{fixture_problem, open_pty, read_terminal};

/// Fixtures with their known counts (fixtures/README.md): plain, colours, multiplicities,
/// and counts past 64 bits.
const COUNTS: [(&str, &str); 12] = [
    ("queens8.dlx", "92"),
    ("langford7.dlx", "52"),
    ("pentominoes_3x20.dlx", "8"),
    ("dominoes_8x8.dlx", "12988816"),
    ("dominoes_12x12.dlx", "53060477521960000"),
    ("dominoes_16x16.dlx", "2444888770250892795802079170816"),
    ("latin4_colours.dlx", "576"),
    ("cycle7_colourings.dlx", "126"),
    (
        "cycle100_3colourings.dlx",
        "1267650600228229401496703205378",
    ),
    ("cycle60_4colourings.dlx", "42391158275216203514294433204"),
    ("queens8_multiplicity.dlx", "92"),
    ("secondary_hand.dlx", "3"),
];

/// What `xc FILE --count -jN` prints with its standard error on a terminal.
fn count_on_terminal(file: &str, threads: usize) -> String {
    let (master, slave) = open_pty();
    let reader = read_terminal(master);
    let output = Command::new(bin())
        .args(["xc", file, "--count", "-j", &threads.to_string()])
        .current_dir(crate::support::root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(slave)
        .output()
        .expect("the binary runs");
    let terminal = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    assert!(output.status.success(), "{file}: {terminal}");
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

#[test]
fn a_count_is_the_same_from_the_library_the_pipe_the_json_and_the_terminal() {
    for (name, expected) in COUNTS {
        let file = path(name);
        let problem = fixture_problem(name);
        for threads in [1, 2] {
            let request = ExactCoverCount {
                threads,
                ..ExactCoverCount::default()
            };
            let record = request.run(&problem, &|_| {}).unwrap();
            assert_eq!(record.solutions.to_string(), expected, "{name} -j{threads}");
            assert!(record.complete, "{name} -j{threads}");

            let j = threads.to_string();
            let (code, out, err) = run_text(&["xc", &file, "--count", "-j", &j], "");
            assert_eq!(
                (code, out.trim()),
                (0, expected),
                "{name} -j{threads}: {err}"
            );

            let (code, out, err) = run_text(&["xc", &file, "--json", "-j", &j], "");
            assert_eq!(code, 0, "{name}: {err}");
            let json: Value = serde_json::from_str(&out).unwrap();
            let solutions = match &json["solutions"] {
                Value::String(digits) => digits.clone(),
                number => number.to_string(),
            };
            assert_eq!(solutions, expected, "{name} -j{threads} --json");
            assert_eq!(json["complete"], true, "{name}");
            assert_eq!(json["stop"], "exhausted", "{name}: {out}");
            // The library's record is the JSON object, whatever the time taken.
            let mut mine = serde_json::to_value(record).unwrap();
            let mut theirs = json.clone();
            for object in [&mut mine, &mut theirs] {
                object["seconds"] = Value::Null;
            }
            assert_eq!(mine, theirs, "{name} -j{threads}");

            assert_eq!(
                count_on_terminal(&file, threads),
                expected,
                "{name} -j{threads}"
            );
        }
    }
}

#[test]
fn a_limit_and_the_textbook_searches_agree_with_the_library() {
    for (name, expected) in COUNTS {
        let problem = fixture_problem(name);
        let file = path(name);
        let plain = problem.is_plain();
        let exact: u128 = expected.parse().unwrap();
        for (search, flag) in [
            (Search::Default, None),
            (Search::Plain, Some("--no-restarts")),
            (Search::Knuth, Some("--knuth")),
        ] {
            if !plain && search == Search::Knuth || exact > 100_000 && search != Search::Default {
                continue;
            }
            let request = ExactCoverCount {
                limit: Some(5),
                search,
                ..ExactCoverCount::default()
            };
            let record = request.run(&problem, &|_| {}).unwrap();
            let want = if exact > 5 {
                "5+".to_string()
            } else {
                expected.to_string()
            };
            assert_eq!(record.solutions.to_string(), want, "{name} {search:?}");
            let mut args = vec!["xc", &file, "--count", "--limit", "5"];
            args.extend(flag);
            let (code, out, err) = run_text(&args, "");
            assert_eq!((code, out.trim()), (0, want.as_str()), "{args:?}: {err}");
        }
    }
}

#[test]
fn a_budgeted_count_past_64_bits_is_a_true_lower_bound_within_its_budget() {
    let problem = fixture_problem("dominoes_16x16.dlx");
    let exact: u128 = "2444888770250892795802079170816".parse().unwrap();
    // 1,336,000 nodes are all but the last 1,277 of the 1,337,277 that the count by layers
    // takes (its count reaches the end in the last layers): a bound past 2^64, written in full.
    for nodes in [1_000, 100_000, 1_336_000] {
        let request = ExactCoverCount {
            budget: Budget::nodes(nodes),
            ..ExactCoverCount::default()
        };
        let record = request.run(&problem, &|_| {}).unwrap();
        assert!(!record.complete, "{nodes} nodes");
        assert!(record.solutions.solutions < exact.into(), "{nodes} nodes");
        // The budget covers the whole count: at most one node per part of a split over.
        assert!(
            record.nodes <= nodes + 64,
            "{nodes} nodes: {}",
            record.nodes
        );
        assert!(record.solutions.to_string().ends_with('+'));
        if nodes == 1_336_000 {
            assert!(record.solutions.to_u64().is_none(), "{}", record.solutions);
        }
        let file = path("dominoes_16x16.dlx");
        let n = nodes.to_string();
        let (code, out, _) = run_text(&["xc", &file, "--count", "--node-budget", &n], "");
        assert_eq!(
            (code, out.trim()),
            (0, record.solutions.to_string().as_str())
        );
    }
}

#[test]
fn a_request_out_of_range_names_its_field_and_the_tool_its_flag() {
    let queens = fixture_problem("queens8.dlx");
    let colours = fixture_problem("latin4_colours.dlx");
    let cases = [
        (
            &queens,
            ExactCoverCount {
                search: Search::Knuth,
                threads: 2,
                ..ExactCoverCount::default()
            },
            Field::Threads,
        ),
        (
            &colours,
            ExactCoverCount {
                search: Search::Knuth,
                ..ExactCoverCount::default()
            },
            Field::Search,
        ),
        (
            &queens,
            ExactCoverCount {
                limit: Some(0),
                ..ExactCoverCount::default()
            },
            Field::Limit,
        ),
        (
            &queens,
            ExactCoverCount {
                threads: 5000,
                ..ExactCoverCount::default()
            },
            Field::Threads,
        ),
    ];
    for (problem, request, field) in cases {
        let err = request.run(problem, &|_| {}).unwrap_err();
        match err.kind() {
            ErrorKind::InvalidRequest(invalid) => assert_eq!(invalid.field, field, "{request:?}"),
            other => panic!("{request:?}: {other:?}"),
        }
    }
    let queens = path("queens8.dlx");
    let colours = path("latin4_colours.dlx");
    for (args, flag) in [
        (vec!["xc", &queens, "--knuth", "-j", "2"], "--threads"),
        (vec!["xc", &colours, "--knuth"], "--knuth"),
    ] {
        let (code, out, err) = run_text(&args, "");
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(flag), "{args:?}: {err}");
    }
}

#[test]
fn draws_stop_at_the_time_budget_and_a_diagram_file_that_cannot_be_written_is_named() {
    let queens = path("queens8.dlx");
    let args = [
        "xc",
        &queens,
        "--sample",
        "100000000",
        "--seed",
        "3",
        "--time-budget",
        "0.2",
    ];
    let (code, out, err) = run_text(&args, "");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("the time budget stopped the draws after"),
        "{err}"
    );
    // Every draw is a solution: eight queens, one per row.
    let draws: Vec<&str> = out.split("\n\n").collect();
    assert!(!draws.is_empty() && draws.len() < 100_000_000);
    for draw in &draws[..draws.len().min(1000)] {
        assert_eq!(draw.trim().lines().count(), 8, "{draw}");
    }
    // The same seed draws the same solutions, from the library too.
    let (_, first, _) = run_text(&["xc", &queens, "--sample", "3", "--seed", "3"], "");
    assert!(out.starts_with(first.trim_end()), "{first}");
    let request = quadrille::request::SampleRequest {
        k: 3,
        seed: 3,
        memo: Memo::default(),
        budget: Budget::unlimited(),
    };
    let problem = fixture_problem("queens8.dlx");
    let mut drawn = Vec::new();
    let record = request
        .run(&problem, &mut |options| {
            drawn.push(options.to_vec());
            Ok(())
        })
        .unwrap();
    assert_eq!((record.drawn, record.solutions), (3, 92u32.into()));
    let mut text = Vec::new();
    for (i, options) in drawn.iter().enumerate() {
        if i > 0 {
            text.push(b'\n');
        }
        quadrille::io::dlx::write_solution(&problem, options, &mut text).unwrap();
    }
    assert_eq!(String::from_utf8(text).unwrap(), first);

    let dir = std::env::temp_dir();
    let dir = dir.to_str().unwrap();
    for target in [
        dir.to_string(),
        format!("{dir}/no-such-dir-{}/x", std::process::id()),
    ] {
        let (code, _, err) = run_text(&["xc", &queens, "--zdd", &target], "");
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(&format!("--zdd {target}: ")), "{err}");
    }
}

#[test]
fn a_rating_is_the_library_records_and_an_unrated_puzzle_has_no_hardest_technique() {
    use quadrille::io::puzzle::{Layout, PuzzleReader};
    use quadrille::request::RateRequest;

    let lines = [
        // Unique: x-wing, 3.2 (the README's example).
        "................12....345........3....6.......71..8......2.6..834.......5..7.....",
        // Nine solutions: not rated, and no hardest technique (it said "full house").
        "1...........4..2",
    ];
    for line in lines {
        let puzzle = PuzzleReader::new(line.as_bytes(), None, Layout::Line)
            .next()
            .unwrap()
            .unwrap();
        let record = RateRequest::default().run(&puzzle).unwrap();
        let (code, out, err) = run_text(&["rate", "--json"], &format!("{line}\n"));
        assert_eq!(code, 0, "{err}");
        let json: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(serde_json::to_value(&record).unwrap(), json, "{line}");
        assert_eq!(record.score.is_some(), record.hardest.is_some(), "{line}");
    }
    let (_, out, _) = run_text(&["rate", "--json"], "1...........4..2\n");
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (&json["score"], &json["hardest"]),
        (&Value::Null, &Value::Null)
    );
}

#[test]
fn a_comparison_plans_its_engines_and_budget_from_its_first_puzzle() {
    use quadrille::io::puzzle::{Layout, PuzzleReader};
    use quadrille::request::CompareRequest;

    let asked = CompareRequest {
        threads: 1,
        ..CompareRequest::default()
    };
    for (text, first_engine, nodes) in [
        ("1...........4..2\n", "bitboard", 100_000),
        (&*format!("{}\n", ".".repeat(256)), "dlx", 400_000),
    ] {
        let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
        let (engines, request, comparison) = asked.run(puzzles).unwrap();
        assert_eq!(engines[0].to_string(), first_engine);
        assert_eq!(request.budget.nodes, Some(nodes));
        assert!(comparison.disagreements().is_empty());
    }
    let contradictory = CompareRequest {
        nodes: Some(5),
        no_node_budget: true,
        ..CompareRequest::default()
    };
    let err = contradictory.check().unwrap_err();
    assert_eq!(err.field, Field::NodeBudget);
}

/// A count past 128 bits on the command line: the 2 x 300 board's F(301) tilings, about 2^208,
/// exact in the text, in the JSON (a string of digits past 2^53) and on two threads; a small
/// count stays a JSON number.
#[test]
fn a_count_of_any_size_is_exact_on_the_command_line() {
    let board = quadrille::problems::dominoes(2, 300).unwrap();
    let text = quadrille::io::dlx::problem_to_string(&board);
    let (mut a, mut b) = (quadrille::BigUint::ZERO, quadrille::BigUint::from(1u32));
    for _ in 0..301 {
        let next = &a + &b;
        (a, b) = (b, next);
    }
    let fibonacci = a.to_string();
    assert!(fibonacci.len() > 60, "{fibonacci}");
    for j in ["1", "2"] {
        let (code, out, err) = run_text(&["xc", "-", "--count", "-j", j], &text);
        assert_eq!((code, out.trim()), (0, fibonacci.as_str()), "{err}");
        let (code, out, err) = run_text(&["xc", "-", "--json", "-j", j], &text);
        assert_eq!(code, 0, "{err}");
        let record: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(record["solutions"], Value::from(fibonacci.as_str()));
        assert_eq!(record["complete"], Value::from(true));
    }
    let queens = path("queens8.dlx");
    let (_, out, _) = run_text(&["xc", &queens, "--json"], "");
    let record: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(record["solutions"], Value::from(92));
}
