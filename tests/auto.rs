//! `--engine auto`: one selector ([`Engine::choose`]) picks an engine per puzzle and says why,
//! and an engine picked before Dancing Links gets a bounded first try, after which DLX answers
//! a puzzle it could not decide.

use quadrille::Request;
use quadrille::batch::{Parallelism, solve_one};
use quadrille::engine::{Engine, Why};
use quadrille::sudoku::variant::Variant;
use serde_json::Value;

use crate::cli::run_text;

/// A 9x9 region map under which no grid exists: the three regions `c`, `f` and `h` cross
/// the bands so that some row needs a digit twice (issue 41: the bitboard and CSP searches
/// did not finish in 100 s; DLX's learning search refutes it in 0.04 s).
const NO_GRID: &str =
    "aaabbbfccaaabbbcccaaabbbcccdddeeecffdddeeefffdddeeefffggghhhiiiggghhhiiiggghhhiii";

use crate::support::read_variant as read;

#[test]
fn a_jigsaw_without_a_grid_is_refuted_by_dancing_links_after_the_first_try() {
    let line = format!("{} {NO_GRID}", ".".repeat(81));
    let puzzle = read(Variant::Jigsaw, &line);
    for limit in [Some(1), Some(2), None] {
        let request = Request {
            limit,
            ..Request::default()
        };
        for parallelism in [Parallelism::AcrossPuzzles, Parallelism::WithinPuzzle] {
            let (outcome, choice) =
                solve_one(&puzzle, Engine::Auto, &request, parallelism).unwrap();
            assert_eq!(outcome.solutions, 0);
            assert!(outcome.is_complete(), "{limit:?}: {outcome:?}");
            assert_eq!((choice.engine, choice.why), (Engine::Dlx, Why::Fallback));
            // The first try's work is part of the answer's: a million nodes.
            assert!(outcome.nodes > 1_000_000, "{outcome:?}");
        }
        // DLX named alone agrees.
        let (named, choice) =
            solve_one(&puzzle, Engine::Dlx, &request, Parallelism::AcrossPuzzles).unwrap();
        assert_eq!((named.solutions, named.is_complete()), (0, true));
        assert_eq!(choice.why, Why::Named);
    }
    let file = format!("{line}\n");
    let (code, out, err) = run_text(&["solve", "--variant", "jigsaw", "--stats"], &file);
    assert_eq!((code, out.as_str()), (0, "unsolvable\n"), "{err}");
    assert!(
        err.contains("1 by dlx after the first engine ran out"),
        "{err}"
    );
    let (code, out, _) = run_text(&["count", "--variant", "jigsaw"], &file);
    assert_eq!((code, out.as_str()), (0, "0\n"));
    let (code, out, _) = run_text(&["solve", "--variant", "jigsaw", "--json"], &file);
    assert_eq!(code, 0);
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (&json["status"], &json["engine"], &json["why"]),
        (
            &Value::from("unsolvable"),
            &Value::from("dlx"),
            &Value::from("fallback")
        )
    );
}

#[test]
fn a_long_enumeration_stays_on_the_engine_picked() {
    // A 6x6 grid with two givens: 940,032 grids, more nodes than the first try has (the
    // bitboard search finds solutions all along, so it counts them itself). Its trial of
    // remembering gives up: its subproblems repeat too little (with `12` as its givens, they
    // repeat enough, and it is remembered).
    let line = "...................6.....3..........";
    let puzzle = read(Variant::Classic, line);
    let (outcome, choice) = solve_one(
        &puzzle,
        Engine::Auto,
        &Request::default(),
        Parallelism::AcrossPuzzles,
    )
    .unwrap();
    assert_eq!((outcome.solutions, outcome.is_complete()), (940_032, true));
    assert_eq!(
        (choice.engine, choice.why),
        (Engine::Bitboard, Why::BitboardTakesTheBoard)
    );
    let (dlx, _) = solve_one(
        &puzzle,
        Engine::Dlx,
        &Request::default(),
        Parallelism::WithinPuzzle,
    )
    .unwrap();
    assert_eq!(dlx.solutions, 940_032);
}

/// Issue 42: the empty 6x6 grid, whose count the bitboard search finds enumeration-bound at
/// its pause, is counted by Dancing Links remembering subproblems, in far fewer nodes than
/// the bitboard search's enumeration (57,241,157), through the request and the tool.
#[test]
fn auto_remembers_the_count_of_the_empty_6x6_grid() {
    let line = ".".repeat(36);
    let puzzle = read(Variant::Classic, &line);
    for parallelism in [Parallelism::AcrossPuzzles, Parallelism::WithinPuzzle] {
        let (outcome, choice) =
            solve_one(&puzzle, Engine::Auto, &Request::default(), parallelism).unwrap();
        assert_eq!(
            (outcome.solutions, outcome.is_complete()),
            (28_200_960, true)
        );
        assert_eq!((choice.engine, choice.why), (Engine::Dlx, Why::Remembering));
        assert!(outcome.nodes < 2_000_000, "{outcome:?}");
        // The solution kept is the bitboard search's first, a grid of the puzzle.
        let solution = outcome.solution.expect("the first try found solutions");
        assert_eq!(
            quadrille::sudoku::check::check_solution(&puzzle.grid, &solution),
            Ok(())
        );
    }
    // A limit, or no restarts, keeps the bitboard search's count.
    let limited = Request {
        limit: Some(1_000),
        ..Request::default()
    };
    let (outcome, choice) =
        solve_one(&puzzle, Engine::Auto, &limited, Parallelism::AcrossPuzzles).unwrap();
    assert_eq!(
        (outcome.solutions, choice.engine),
        (1_000, Engine::Bitboard)
    );
    let file = format!("{line}\n");
    let (code, out, err) = run_text(&["count", "-j1"], &file);
    assert_eq!((code, out.as_str()), (0, "28200960\n"), "{err}");
    let (code, out, _) = run_text(&["count", "--json"], &file);
    assert_eq!(code, 0);
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (
            &json["solutions"],
            &json["exact"],
            &json["engine"],
            &json["why"]
        ),
        (
            &Value::from(28_200_960),
            &Value::from(true),
            &Value::from("dlx"),
            &Value::from("remembering")
        )
    );
    // DLX named remembers in the same order after its own first search.
    let (code, out, err) = run_text(&["count", "-j1", "--engine", "dlx", "--stats"], &file);
    assert_eq!((code, out.as_str()), (0, "28200960\n"));
    let nodes: f64 = (err
        .split(", ")
        .find_map(|part| part.strip_suffix(" nodes/puzzle")))
    .expect("--stats gives the nodes")
    .parse()
    .unwrap();
    assert!(nodes < 2e6, "{err}");
}

#[test]
fn every_choice_of_auto_has_its_reason() {
    let reasons = [
        (
            "classic",
            "1...........4..2".to_string(),
            "bitboard",
            "bitboard-takes-the-board",
        ),
        (
            "killer",
            "................ aabbcdbecdffgghh a=3 b=8 c=5 d=5 e=2 f=7 g=7 h=3".to_string(),
            "csp:mrv-degree+lex+hidden-singles",
            "killer-cages",
        ),
        ("classic", ".".repeat(256), "dlx", "large-board"),
        (
            "classic",
            ".".repeat(36 * 36),
            "csp:mrv-degree+lex+alldiff+intersections+fill",
            "nearly-empty",
        ),
    ];
    for (variant, line, engine, why) in reasons {
        let (code, out, err) = run_text(
            &["solve", "--variant", variant, "--json"],
            &format!("{line}\n"),
        );
        assert_eq!(code, 0, "{err}");
        let json: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            (json["engine"].as_str(), json["why"].as_str()),
            (Some(engine), Some(why)),
            "{out}"
        );
    }
    // A named engine needs no reason.
    let (_, out, _) = run_text(
        &["solve", "--engine", "dlx", "--json"],
        "1...........4..2\n",
    );
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json.get("why"), None, "{out}");
}
