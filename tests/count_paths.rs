//! Every path of `count` (and of `xc --count`) gives the same count on every variant: piped or
//! on a terminal, on one thread or two, whole, in shards merged, checkpointed, and as the exact
//! count an estimate reports when its timed sample finishes. The terminal paths run the binary
//! with its standard error (and, once, its standard output too) on a pseudo-terminal, so that
//! the branches a person meets first are the ones tested.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::cli::{bin, path, run_text};
use crate::support::{open_pty, read_terminal};

/// One puzzle of each variant, with a count that the CSP engine, an independent search,
/// confirms in every test below. The last two are long counts: enumeration-bound (many
/// solutions in the first search's nodes), so a count on a terminal splits them into parts
/// with a spinner.
const PUZZLES: [(&str, &str); 7] = [
    ("classic", "1...........4..2"),
    ("x", "................"),
    ("windoku", "................"),
    ("jigsaw", "................ aaabacbbccdbcddd"),
    (
        "killer",
        "................ aabbcdbecdffgghh a=3 b=8 c=5 d=5 e=2 f=7 g=7 h=3",
    ),
    ("classic", "123................................."),
    ("windoku", "1.............1....................."),
];

/// The puzzles of [`PUZZLES`] before the long counts.
const SHORT: usize = 5;

/// The count `args` print, and a check that they exit 0.
fn count_of(args: &[&str], stdin: &str) -> String {
    let (code, out, err) = run_text(args, stdin);
    assert_eq!(code, 0, "{args:?} on {stdin:?}: {err}");
    out.trim().to_string()
}

/// The CSP engine's count of one puzzle line of `variant`.
fn oracle(variant: &str, line: &str) -> String {
    let count = count_of(
        &["count", "--variant", variant, "--engine", "csp", "-j", "1"],
        &format!("{line}\n"),
    );
    count.parse::<u64>().expect("an exact count");
    count
}

#[test]
fn every_count_path_gives_the_oracles_count_on_every_variant() {
    let dir = std::env::temp_dir().join(format!("quadrille-count-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (variant, line)) in PUZZLES.into_iter().enumerate() {
        let expected = oracle(variant, line);
        let stdin = format!("{line}\n");
        // The variant given by a flag, or by a `# variant:` line of the file.
        let file = dir.join(format!("puzzle{i}.txt"));
        std::fs::write(&file, format!("# variant: {variant}\n{line}\n")).unwrap();
        let file = file.to_str().unwrap();
        let flag = ["--variant", variant];
        for args in [
            &["count", file][..],
            &["count", file, "-j", "1"],
            &["count", file, "-j", "2"],
            &["count", "-j", "2", flag[0], flag[1]],
            &["count", "--shard", "1/1", "-q", file],
            &["count", "--shard", "1/1", "-q", flag[0], flag[1]],
        ] {
            let got = count_of(args, if args.contains(&file) { "" } else { &stdin });
            assert_eq!(got, expected, "{variant} {line}: {args:?}");
        }

        // Shards merged.
        let mut records = String::new();
        for shard in ["1/3", "2/3", "3/3"] {
            records += &count_of(&["count", file, "--shard", shard, "--json", "-q"], "");
            records.push('\n');
        }
        let merged: Value =
            serde_json::from_str(&count_of(&["merge", "--json"], &records)).unwrap();
        assert_eq!(
            merged["solutions"].to_string(),
            expected,
            "{variant} {line}: merged"
        );
        assert_eq!(merged["complete"], true);

        // Checkpointed, on one thread and on two: a finished checkpoint is resumed from.
        let checkpoint = dir.join(format!("puzzle{i}.checkpoint"));
        let _ = std::fs::remove_file(&checkpoint);
        let checkpoint = checkpoint.to_str().unwrap();
        for threads in ["1", "2"] {
            let args = [
                "count",
                file,
                "--checkpoint",
                checkpoint,
                "-q",
                "-j",
                threads,
            ];
            assert_eq!(count_of(&args, ""), expected, "{variant} {line}: {args:?}");
        }

        // An estimate whose sample counts everything says the exact count.
        let estimate: Value =
            serde_json::from_str(&count_of(&["count", file, "--estimate=100", "--json"], ""))
                .unwrap();
        match estimate.get("exact_solutions") {
            Some(exact) => assert_eq!(exact.to_string(), expected, "{variant} {line}: estimate"),
            // Only the long counts may outlast the sample.
            None => assert!(
                i >= SHORT,
                "{variant} {line}: the sample of a short count finished"
            ),
        }

        // On a terminal: standard error only, then standard output too; with Dancing Links
        // named, whose long counts are enumerated in parts, and with the engine auto chooses
        // (the bitboard search on these boards, which counts on one thread without a spinner).
        for args in [
            &["count", file, "--engine", "dlx"][..],
            &["count", flag[0], flag[1], "--engine", "dlx"],
            &["count", file],
        ] {
            let auto = !args.contains(&"dlx");
            let stdin = if args.contains(&file) { "" } else { &stdin };
            let (out, screen) = on_terminal(args, stdin, Terminal::Stderr);
            assert_eq!(
                out.trim(),
                expected,
                "{variant} {line}: {args:?} on a terminal"
            );
            // A long count is enumerated in parts on the threads (and says so) unless its
            // trial finds remembering pays (the 6x6 grid with three givens: nothing said); a
            // short one is counted by its first search (as quick as it looks: nothing said).
            assert!(
                !screen.contains("enumerated in") || (i >= SHORT && !auto),
                "{variant} {line}: {args:?} on a terminal: {screen:?}"
            );
            let (_, screen) = on_terminal(args, stdin, Terminal::Both);
            assert!(
                screen_lines(&screen).contains(&expected),
                "{variant} {line}: {args:?} with both outputs on a terminal: {screen:?}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn xc_counts_the_same_on_a_terminal_in_shards_and_checkpointed() {
    let dir = std::env::temp_dir().join(format!("quadrille-xc-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, count) in [("langford7.dlx", "52"), ("queens8.dlx", "92")] {
        let file = path(file);
        let checkpoint = dir.join("xc.checkpoint");
        let _ = std::fs::remove_file(&checkpoint);
        let checkpoint = checkpoint.to_str().unwrap();
        for args in [
            &["xc", &file, "--count", "-q"][..],
            &["xc", &file, "--count", "-q", "-j", "2"],
            &["xc", &file, "--shard", "1/1", "-q"],
            &["xc", &file, "--count", "--checkpoint", checkpoint, "-q"],
        ] {
            assert_eq!(count_of(args, ""), count, "{args:?}");
        }
        let (out, _) = on_terminal(&["xc", &file, "--count"], "", Terminal::Stderr);
        assert_eq!(out.trim(), count, "{file} on a terminal");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A unique 25x25 Sudoku, `quadrille generate --box 5x5 -n 1 --seed 1`: plain search takes
/// about 12 s (millions of nodes) over its count.
const UNIQUE_25X25: &str = "E....AP14.K...L5DO3....B..9K.D.B.F8..5G6..P..JE.MOP...5....N.HC9.14.I.3.F2D...G..9.7L..OA.J..E.16..P..A.J..E.KN3....9C..5H.L.KD.9.P1GH...N.5...C..8.J..L....I.K.6BG.3.J..ODAN..BA..3...5.89.H.E.4..7C.P.5.....8.3CDF.1IA....K2BO..P...E2.L9.A..K.....G.M.I7.N.9..M83.5..F...6E...4..8E3L..6.....KH.1..5.9ID.....OB.............L6.....4IB.F..N.96.....3..27HE..6...CA...M..4.PGD..O.5.JG.B.8.....5..O.KE.PA...6..KOJ2....MEC.873I.H.....B.3.4A..8.7.K.MB.C...L..1H..1MEO..J.2.HDG.B.F....7..H.C..G...A.4...7NOM.D.I5.G.87..3C....FNO.E..I.6..J..I1.L..E.M3..26.9..4...OE3.N.M.PB.79J.I....8...AH5.K4..F..CIE..L3.M.B.1N..F....59IJH...4.8G1D....3";

/// Nodes within which the count of [`UNIQUE_25X25`] must be proved: the learning search
/// takes about 90,000.
const PROOF_NODES: &str = "500000";

#[test]
fn a_count_of_a_unique_25x25_is_proved_by_learning_on_every_path() {
    let stdin = format!("{UNIQUE_25X25}\n");
    let budget = ["--node-budget", PROOF_NODES];
    for threads in ["1", "2"] {
        let args = ["count", "-j", threads, budget[0], budget[1]];
        assert_eq!(count_of(&args, &stdin), "1", "{args:?}");
    }
    // The solution is checked against the rules and the givens.
    let (code, solved, err) = run_text(&["solve", "--limit", "2"], &stdin);
    assert_eq!(code, 0, "{err}");
    let (grid, count) = solved
        .trim()
        .split_once(' ')
        .expect("a solution and its count");
    assert_eq!(count, "1");
    let puzzle = quadrille::io::puzzle::parse_line(UNIQUE_25X25, None).unwrap();
    let grid = quadrille::io::puzzle::parse_line(grid, None).unwrap();
    assert!(quadrille::sudoku::check::check_solution(&puzzle, &grid).is_ok());
    // On a terminal, with the route said.
    let (out, screen) = on_terminal(&["count", budget[0], budget[1]], &stdin, Terminal::Stderr);
    assert_eq!(out.trim(), "1", "{screen:?}");
    assert!(
        screen.contains("proved by the learning search"),
        "{screen:?}"
    );
    // One plain search, asked for, does not even find the solution in that budget.
    let args = ["count", "--no-restarts", "-j", "1", budget[0], budget[1]];
    assert_eq!(count_of(&args, &stdin), "0+");
}

/// The 100-queens problem as the issue gives it: ranks and files primary, diagonals secondary.
fn queens_file(dir: &std::path::Path, n: usize) -> String {
    let file = dir.join(format!("queens{n}.dlx"));
    let mut text = Vec::new();
    quadrille::io::dlx::write_problem(&quadrille::problems::queens(n).unwrap(), &mut text).unwrap();
    std::fs::write(&file, text).unwrap();
    file.to_str().unwrap().to_string()
}

#[test]
fn xc_finds_a_first_solution_of_100_queens_by_restarting_by_itself() {
    let dir = std::env::temp_dir().join(format!("quadrille-queens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = queens_file(&dir, 100);
    // Knuth's order alone finds nothing in 100,000 nodes; the default restarts after 3,000.
    let budget = ["--node-budget", "100000"];
    let plain = count_of(
        &[
            "xc",
            &file,
            "--limit",
            "1",
            "--no-restarts",
            "--count",
            budget[0],
            budget[1],
        ],
        "",
    );
    assert_eq!(plain, "0+");
    let (code, listed, err) = run_text(&["xc", &file, "--limit", "1", budget[0], budget[1]], "");
    assert_eq!(code, 0, "{err}");
    // One queen on each rank and file, none sharing a diagonal.
    let mut queens = Vec::new();
    for line in listed.lines() {
        let cell: Vec<usize> = line
            .split(' ')
            .take(2)
            .map(|name| name[1..].parse().unwrap())
            .collect();
        queens.push((cell[0], cell[1]));
    }
    assert_eq!(queens.len(), 100, "{listed}");
    for (i, &(r1, c1)) in queens.iter().enumerate() {
        for &(r2, c2) in &queens[..i] {
            assert!(r1 != r2 && c1 != c2 && r1 + c2 != r2 + c1 && r1 + c1 != r2 + c2);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_long_count_on_a_terminal_shows_its_work_and_walks_the_tree_once() {
    let dir = std::env::temp_dir().join(format!("quadrille-queens12-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = queens_file(&dir, 12);
    let piped: Value = serde_json::from_str(&count_of(
        &["xc", &file, "--count", "--json", "-j", "1"],
        "",
    ))
    .unwrap();
    assert_eq!(piped["solutions"], 14_200); // OEIS A000170
    let (out, screen) = on_terminal(&["xc", &file, "--count", "-j", "1"], "", Terminal::Stderr);
    assert_eq!(out.trim(), "14200");
    // What the count knows, though not its size: the route, nodes and their rate.
    let lines = screen_lines(&screen);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("counted 14,200 solutions: enumerated in")
                && l.contains("nodes (")
                && l.contains("/s)")),
        "{screen:?}"
    );
    // The summary's nodes are the piped count's: the terminal asks the library the same
    // request, and the spinner only watches it.
    let summary = lines
        .iter()
        .find(|l| l.starts_with("14200 solutions, "))
        .expect("xc's summary");
    let nodes: u64 = summary.split(' ').nth(2).unwrap().parse().unwrap();
    let piped_nodes = piped["nodes"].as_u64().unwrap();
    assert_eq!(nodes, piped_nodes);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What a pseudo-terminal stands for.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Terminal {
    /// Standard error, where the progress bars go; standard output is a pipe.
    Stderr,
    /// Both outputs, as when a person types the command.
    Both,
}

/// The lines a terminal shows, without the carriage returns and the escape sequences that a
/// progress bar leaves behind.
pub(crate) fn screen_lines(screen: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut chars = screen.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // A CSI sequence: ESC [ parameters, ended by a letter.
            if chars.next_if_eq(&'[').is_some() {
                while chars.next().is_some_and(|c| !c.is_ascii_alphabetic()) {}
            }
        } else {
            plain.push(c);
        }
    }
    let lines = plain.split(['\r', '\n']).map(str::trim);
    lines
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Runs the binary with `args`, `stdin` as standard input, and the outputs `terminal` says on
/// a new pseudo-terminal. Returns standard output (empty when it was the terminal) and what
/// the terminal received. The run must exit 0.
pub(crate) fn on_terminal(args: &[&str], stdin: &str, terminal: Terminal) -> (String, String) {
    let (master, slave) = open_pty();
    let stdout = match terminal {
        Terminal::Stderr => Stdio::piped(),
        Terminal::Both => Stdio::from(slave.try_clone().unwrap()),
    };
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(crate::support::root())
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::from(slave))
        .spawn()
        .expect("the binary runs");
    let screen = read_terminal(master);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let screen = String::from_utf8_lossy(&screen.join().unwrap()).into_owned();
    assert_eq!(output.status.code(), Some(0), "{args:?}: {screen}");
    (String::from_utf8(output.stdout).unwrap(), screen)
}
