//! What a new user meets in the first hour, through the binary: a puzzle's box shape travels
//! from `generate` to every reader, an answer that may come from an inferred shape says so,
//! and a grid file is read as grids.

use quadrille::csp::{Config, CspSolver};
use quadrille::engine::Solve;
use quadrille::io::puzzle::parse_line;
use quadrille::sudoku::Shape;
use quadrille::sudoku::check::check_solution;
use quadrille::{Budget, Stop};

use crate::cli::run_text;

/// Boxes that are not square, whose transposed shape fits the same grid: the ones a reader
/// cannot tell from the length.
const TALL_AND_WIDE: [(usize, usize); 4] = [(4, 2), (2, 4), (3, 2), (4, 3)];

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).unwrap()
}

/// `generate --box RxC` output piped into `solve --limit 2`: every puzzle is solved with its
/// own boxes, its solution checked cell by cell against the rules and the givens.
#[test]
fn generated_boxes_are_read_back_with_their_own_shape() {
    for (rows, cols) in TALL_AND_WIDE {
        let spec = format!("{rows}x{cols}");
        let (code, made, _) = run_text(&["generate", "--box", &spec, "-n", "3", "--seed", "1"], "");
        assert_eq!(code, 0, "{spec}");
        let inferred = Shape::from_cell_count(shape(rows, cols).cell_count());
        // Only the shape a reader would not infer needs the header.
        let header = format!("# box: {spec}");
        assert_eq!(
            made.lines().next() == Some(header.as_str()),
            inferred != Some(shape(rows, cols)),
            "{spec}: {made}"
        );
        let (code, solved, errors) = run_text(&["solve", "--limit", "2"], &made);
        assert_eq!(code, 0, "{spec}: {errors}");
        let puzzles: Vec<&str> = made.lines().filter(|l| !l.starts_with('#')).collect();
        let answers: Vec<&str> = solved.lines().collect();
        assert_eq!(answers.len(), puzzles.len(), "{spec}: {solved}");
        for (puzzle, answer) in puzzles.iter().zip(answers) {
            let (solution, count) = answer.split_once(' ').expect("a solution and a count");
            assert_eq!(count, "1", "{spec}: {puzzle} is unique");
            let puzzle = parse_line(puzzle, Some(shape(rows, cols))).unwrap();
            let solution = parse_line(solution, Some(shape(rows, cols))).unwrap();
            assert_eq!(check_solution(&puzzle, &solution), Ok(()), "{spec}");
        }
    }
}

/// A `generate --json` record is enough to read its puzzle back (issue 41, item 17): it names
/// its box shape and variant, and a 4x2 puzzle taken from it and solved alone with `--box`
/// and `--variant` from the record is solved, uniquely, cell by cell by the rules and the
/// givens, to the record's solution. Every kind's record names them.
#[test]
fn generated_json_records_name_their_boxes_and_variant() {
    let (code, made, errors) = run_text(
        &[
            "generate", "--box", "4x2", "-n", "3", "--seed", "1", "--json",
        ],
        "",
    );
    assert_eq!(code, 0, "{errors}");
    for line in made.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            (record["box"].as_str(), record["variant"].as_str()),
            (Some("4x2"), Some("classic")),
            "{line}"
        );
        let puzzle = record["puzzle"].as_str().unwrap();
        let flags = [
            "solve",
            "--box",
            record["box"].as_str().unwrap(),
            "--variant",
            record["variant"].as_str().unwrap(),
            "--limit",
            "2",
            "--json",
        ];
        let (code, solved, errors) = run_text(&flags, &format!("{puzzle}\n"));
        assert_eq!(code, 0, "{errors}");
        let answer: serde_json::Value = serde_json::from_str(solved.trim()).unwrap();
        assert_eq!(
            (answer["status"].as_str(), answer["solutions"].as_u64()),
            (Some("solved"), Some(1)),
            "{puzzle}: {solved}"
        );
        let solution = answer["solution"].as_str().unwrap();
        assert_eq!(Some(solution), record["solution"].as_str(), "{puzzle}");
        let puzzle = parse_line(puzzle, Some(shape(4, 2))).unwrap();
        let solution = parse_line(solution, Some(shape(4, 2))).unwrap();
        assert_eq!(check_solution(&puzzle, &solution), Ok(()), "{line}");
    }
    for kind in ["random", "contradictory"] {
        let (_, made, errors) = run_text(
            &[
                "generate", "--box", "2x3", "--kind", kind, "-n", "2", "--json",
            ],
            "",
        );
        for line in made.lines() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(
                (record["box"].as_str(), record["variant"].as_str()),
                (Some("2x3"), Some("classic")),
                "{kind}: {line} {errors}"
            );
        }
        assert_eq!(made.lines().count(), 2, "{kind}: {errors}");
    }
}

/// Without the header, a 4x2 puzzle is read with 2x4 boxes: its answer, a conflict or no
/// solution, names the inferred boxes and the flag that reads it with the others.
#[test]
fn an_answer_under_inferred_boxes_names_them_and_the_flag() {
    let (_, made, _) = run_text(&["generate", "--box", "4x2", "-n", "3", "--seed", "1"], "");
    let bare: String = made
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let (_, solved, errors) = run_text(&["solve", "--limit", "2"], &bare);
    // Seed 1's puzzles: two have no solution with 2x4 boxes, one repeats a given in a box.
    assert_eq!(
        solved.lines().filter(|l| *l == "unsolvable").count(),
        2,
        "{solved}"
    );
    let conflict = solved
        .lines()
        .find(|l| l.starts_with("error:"))
        .expect("{solved}");
    assert!(
        conflict.contains("read with 2x4 boxes, inferred from its length")
            && conflict.ends_with("--box 4x2 reads it with 4x2 boxes"),
        "{conflict}"
    );
    let note = "no solution with the 2x4 boxes inferred from its length; --box 4x2 reads it with 4x2 boxes";
    assert_eq!(errors.matches(note).count(), 1, "once per input: {errors}");
    // With --box, the same lines are solved.
    let (code, solved, _) = run_text(&["solve", "--box", "4x2", "--limit", "2"], &bare);
    assert_eq!(
        (code, solved.lines().filter(|l| l.ends_with(" 1")).count()),
        (0, 3)
    );
    // Square boxes have no other shape of the same side: no note.
    let (_, _, errors) = run_text(&["solve"], &format!("11{}\n", ".".repeat(79)));
    assert!(!errors.contains("inferred"), "{errors}");
}

/// A jigsaw has regions, not boxes (issue 41, item 19): one without a solution gets no note
/// on boxes inferred from its length, nor a `--box` to try. The 6x6 map swaps a cell of the
/// top right 2x3 box with one below it in the same column: rows 1-2 then need the two in one
/// digit, so no grid exists.
#[test]
fn a_jigsaw_without_solution_gets_no_note_on_boxes() {
    for map in [
        "aaadbbaaabbbcccbddcccdddeeefffeeefff",
        "aaabbbfccaaabbbcccaaabbbcccdddeeecffdddeeefffdddeeefffggghhhiiiggghhhiiiggghhhiii",
    ] {
        let line = format!("{} {map}\n", ".".repeat(map.len()));
        for command in ["solve", "count"] {
            let (code, out, errors) = run_text(&[command, "--variant", "jigsaw"], &line);
            assert_eq!(code, 0, "{command} {map}: {errors}");
            let answer = if command == "solve" {
                "unsolvable"
            } else {
                "0"
            };
            assert_eq!(out.trim(), answer, "{command} {map}");
            assert!(
                !errors.contains("boxes") && !errors.contains("--box"),
                "{command} {map}: {errors}"
            );
        }
    }
    // A windoku has boxes, and the windows of its boxes: the note stays (a 3x2 classic puzzle
    // of `generate --box 3x2 --seed 1`, without solution as a 2x3 windoku).
    let (_, out, errors) = run_text(
        &["solve", "--variant", "windoku"],
        "..4..652.3..6..........5..5.313..4..\n",
    );
    assert_eq!(out.trim(), "unsolvable");
    assert!(
        errors.contains("no solution with the 2x3 boxes inferred from its length; --box 3x2 reads it with 3x2 boxes"),
        "{errors}"
    );
}

/// A header that contradicts `--box` is an error at its line, as a `# variant:` header that
/// contradicts `--variant` is; a header that does not parse says where.
#[test]
fn box_headers_that_contradict_or_do_not_parse_are_errors() {
    let text = format!("# box: 4x2\n{}\n", ".".repeat(64));
    let (code, out, _) = run_text(&["solve", "--box", "2x4"], &text);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "line 1, column 1: this header says boxes of 4x2, but boxes of 2x4 were asked for"
        ),
        "{out}"
    );
    let (code, out, _) = run_text(&["solve"], &format!("# box = 4*3\n{}\n", ".".repeat(144)));
    assert_eq!((code, out.lines().count()), (0, 1), "{out}");
    let (code, out, _) = run_text(&["solve"], "#box: 4by2\n");
    assert_eq!(code, 1);
    assert!(
        out.contains("line 1, column 7: invalid box specification '4by2'"),
        "{out}"
    );
}

/// A file of multi-line grids is read as grids by its extension; on standard input, where
/// there is none, the first row's error says which flag reads grids.
#[test]
fn grid_files_are_read_as_grids() {
    let dir = std::env::temp_dir().join(format!("quadrille-first-hour-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sdk = dir.join("puzzle.sdk");
    let grid = "4...3....\n...6..8..\n........1\n....5..9.\n.8....6..\n.7.2.....\n...1.27..\n5.3....4.\n9........\n";
    std::fs::write(&sdk, grid).unwrap();
    let (code, out, errors) = run_text(&["solve", "--limit", "2", sdk.to_str().unwrap()], "");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 0, "{errors}");
    let (solution, count) = out
        .trim_end()
        .split_once(' ')
        .expect("a solution and a count");
    assert_eq!(count, "1", "{out}");
    let puzzle = parse_line(&grid.replace('\n', ""), None).unwrap();
    let solution = parse_line(solution, None).unwrap();
    assert_eq!(check_solution(&puzzle, &solution), Ok(()));
    let (code, out, _) = run_text(&["solve"], grid);
    assert_eq!(code, 1);
    assert!(
        out.lines()
            .next()
            .unwrap()
            .ends_with("; a grid written one row per line (.sdk) is read with --input grid"),
        "{out}"
    );
}

/// `compare`'s default budget suits the size: Dancing Links decides the generated 36x36 that
/// `solve` decides, where a flat 100,000 nodes gave up; an engine that gives up gets a line
/// saying which flags set another budget.
#[test]
fn compare_defaults_decide_a_generated_36x36_with_dancing_links() {
    let file = crate::support::fixture("large/unique_36x36_seed1.txt");
    let (code, out, errors) = run_text(&["compare", "--engines", "dlx", &file], "");
    assert_eq!(code, 0, "{errors}");
    assert!(
        out.contains("budget per puzzle and engine: 1600000 nodes or 5.000 s"),
        "{out}"
    );
    let row = out
        .lines()
        .find(|l| l.starts_with("dlx "))
        .expect("a dlx row");
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!((cells[1], cells[2]), ("1/1", "0"), "{row}");
    assert!(!errors.contains("gave up"), "{errors}");
    // A node budget given replaces the default, and one that is too small says what to try.
    let (_, out, errors) = run_text(
        &[
            "compare",
            "--engines",
            "dlx",
            "--node-budget",
            "1000",
            &file,
        ],
        "",
    );
    assert!(
        out.contains("budget per puzzle and engine: 1000 nodes;"),
        "{out}"
    );
    assert!(
        errors.contains("1 searches gave up at the budget (1000 nodes per puzzle and engine); --node-budget N and --time-budget SECONDS set another, --no-node-budget lifts the nodes"),
        "{errors}"
    );
}

/// `explain` names a digit of 10 and up as the grid writes it (`D`, not `13`): every placement
/// it prints on a 16x16 is the solution's character at that cell.
#[test]
fn explain_writes_digits_as_the_grid_does() {
    let (_, puzzle, _) = run_text(&["generate", "--box", "4x4", "-n", "1", "--seed", "1"], "");
    let (_, solved, _) = run_text(&["solve"], &puzzle);
    let solution: Vec<char> = solved.trim().chars().collect();
    let (code, explained, errors) = run_text(&["explain"], &puzzle);
    assert_eq!(code, 0, "{errors}");
    let placement = regex::Regex::new(r"\br(\d+)c(\d+)=([0-9A-Z]+)").unwrap();
    let mut letters = 0;
    // A step line reads `  N. technique (score): moves; why`; the why may name chains'
    // hypothetical placements, the moves are the step's own.
    let moves = explained
        .lines()
        .filter_map(|line| line.split_once("): "))
        .map(|(_, rest)| rest.split(';').next().unwrap_or(""));
    for found in moves.flat_map(|m| placement.captures_iter(m)) {
        let (row, col): (usize, usize) = (found[1].parse().unwrap(), found[2].parse().unwrap());
        let written = &found[3];
        let expected = solution[(row - 1) * 16 + col - 1].to_string();
        assert_eq!(written, expected, "r{row}c{col} in {explained}");
        letters += usize::from(written.chars().all(|c| c.is_ascii_uppercase()));
    }
    assert!(letters > 0, "some digits of 10 and up: {explained}");
}

/// The default CSP, `--engine csp`, decides the generated 36x36 (`generate --box 6x6 -n 1
/// --seed 1 --node-budget 64800`) counting up to 2 within 200,000 nodes, with a solution that keeps the rules and
/// the givens: on boards above 16x16 it searches at `alldiff` with locked candidates (105,951
/// nodes). The 9x9 default, `mrv-degree+lex+hidden-singles`, gives up at that budget (it was
/// still undecided after 1.2 million nodes).
#[test]
fn default_csp_decides_a_generated_36x36_within_a_node_budget() {
    let text = crate::support::fixture_text("large/unique_36x36_seed1.txt");
    let puzzle = parse_line(text.trim(), None).unwrap();
    let board = puzzle.shape().board();
    let budget = Budget::nodes(200_000);
    let outcome = CspSolver::new(board, Config::default()).count(&puzzle, Some(2), &budget);
    assert_eq!((outcome.solutions, outcome.stop), (1, Stop::Exhausted));
    assert_eq!(check_solution(&puzzle, &outcome.solution.unwrap()), Ok(()));
    let small_default: Config = "mrv-degree+lex+hidden-singles".parse().unwrap();
    let outcome = CspSolver::new(board, small_default).count(&puzzle, Some(2), &budget);
    assert_eq!((outcome.solutions, outcome.stop), (0, Stop::NodeBudget));
}

/// An estimate says how many probes met a solution when not all did, and flags an interval
/// that rests on fewer than a thousand of them: on the 6x10 pentominoes the "95%" interval of
/// 100,000 probes held the true count for only 11 of 20 seeds.
#[test]
fn an_estimate_says_how_many_probes_met_a_solution() {
    let file = crate::support::fixture("pentominoes_6x10.dlx");
    let args = ["xc", &file, "--estimate", "20000", "--seed", "3", "-q"];
    let (code, text, errors) = run_text(&args, "");
    assert_eq!(code, 0, "{errors}");
    let (_, json, _) = run_text(&[&args[..], &["--json"]].concat(), "");
    let object: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let met = object["solutions_met"].as_u64().expect("solutions_met");
    assert!(met < 1_000, "{json}");
    let line = text.lines().nth(1).unwrap();
    assert!(
        line.contains(&format!("(met by {met} of 20000 probes")),
        "{line}"
    );
    // Every probe of an empty 4x4 grid meets a solution: no note.
    let (_, text, _) = run_text(
        &["count", "--estimate", "1000", "--seed", "1", "-q"],
        "................\n",
    );
    assert!(!text.contains("met by"), "{text}");
}
