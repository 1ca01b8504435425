//! The `quadrille` binary: output, exit codes and messages of `xc`, `solve` and `count`.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::SystemTime;

use quadrille::io::puzzle::parse_line;
use quadrille::sudoku::check::check_solution;
use serde_json::Value;

/// The binary under test, `target/<profile>/quadrille`: the folder above the one that holds
/// this test binary (`deps`). The root package's test `binary` (tests/binary.rs) has Cargo
/// build it, as only a package's own tests are given its binary's path; `cargo test --test
/// tests` alone does not, so a binary older than one of its sources is refused, not run.
pub fn bin() -> &'static str {
    // Not a LazyLock: a refusal would poison it, and every later test would fail without saying why.
    static BIN: OnceLock<String> = OnceLock::new();
    BIN.get_or_init(|| {
        let test = std::env::current_exe().expect("the test binary's path");
        let bin = test
            .parent()
            .and_then(Path::parent)
            .expect("the test binary is in target/<profile>/deps")
            .join(format!("quadrille{}", std::env::consts::EXE_SUFFIX));
        let how = "`cargo test` builds it, or add `--test binary` to `cargo test --test tests`";
        let built = std::fs::metadata(&bin)
            .and_then(|m| m.modified())
            .unwrap_or_else(|err| panic!("{}: {err}: {how}", bin.display()));
        if let Some(newer) = newer_source(&bin.with_extension("d"), built) {
            panic!("{} is older than {newer}: {how}", bin.display());
        }
        bin.to_str().expect("a UTF-8 path").to_string()
    })
}

/// A source of the binary modified after `built`, from the sources that Cargo's dependency
/// file (`quadrille.d`, `TARGET: SOURCE...`) lists; none when there is no such file.
fn newer_source(dep_info: &Path, built: SystemTime) -> Option<String> {
    let text = std::fs::read_to_string(dep_info).ok()?;
    let (_, sources) = text.lines().next()?.split_once(": ")?;
    // A space inside a path is escaped as `\ `.
    let sources = sources.replace("\\ ", "\0");
    sources
        .split_whitespace()
        .map(|source| source.replace('\0', " "))
        .find(|source| {
            std::fs::metadata(source)
                .and_then(|m| m.modified())
                .is_ok_and(|modified| modified > built)
        })
}

pub use crate::support::fixture as path;

/// Runs the binary with `args` and `stdin` as standard input, in the package's root. The one
/// runner of every module's command-line tests.
pub fn run(args: &[&str], stdin: &str) -> Output {
    run_reading(args, std::io::Cursor::new(stdin.to_string()))
}

/// The binary started with `args` in the package's root, its outputs piped.
fn spawn(args: &[&str], stdin: Stdio) -> std::process::Child {
    Command::new(bin())
        .args(args)
        .current_dir(crate::support::root())
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// [`run`], with standard input copied from `stdin` as the binary reads it: an input too large
/// to hold (the readers' limits) costs no memory.
pub fn run_reading(args: &[&str], mut stdin: impl Read + Send + 'static) -> Output {
    let mut child = spawn(args, Stdio::piped());
    let mut pipe = child.stdin.take().unwrap();
    // A thread, so that the input cannot deadlock against a full output pipe; a binary that
    // stops reading early closes the pipe, which ends the copy.
    let writer = std::thread::spawn(move || {
        let _ = std::io::copy(&mut stdin, &mut pipe).and_then(|_| pipe.flush());
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

/// [`run`] with no input, and the most memory the process held, in bytes: its peak resident
/// set as the kernel counts it (`VmHWM`, read every 0.2 ms while it runs, so that a growth in
/// its last moments may be missed), for the tests of a memory bound.
#[cfg(target_os = "linux")]
#[expect(
    clippy::zombie_processes,
    reason = "wait4 reaps the child, to read its usage, which std's wait does not give"
)]
pub fn run_measured(args: &[&str]) -> (Output, usize) {
    use std::os::unix::process::ExitStatusExt;
    let mut child = spawn(args, Stdio::null());
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let pid = child.id() as libc::pid_t;
    // The peak of the process after its exec, read from /proc as it runs: wait4's ru_maxrss
    // also counts the test binary's own memory, which the child had until its exec (a full
    // test run measured 86 MB for a 20 MB child).
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let peak = {
        let done = std::sync::Arc::clone(&done);
        std::thread::spawn(move || {
            let mut peak = 0usize;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let status = std::fs::read_to_string(format!("/proc/{pid}/status"));
                let hwm = status.ok().and_then(|text| {
                    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
                    line.split_whitespace().nth(1)?.parse::<usize>().ok()
                });
                peak = peak.max(hwm.unwrap_or(0) * 1024);
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
            peak
        })
    };
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value of that plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is this test's own child, not yet waited for (std waits only when asked);
    // wait4 writes its status and usage into the two places it is given.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let peak = peak.join().unwrap();
    let output = Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    };
    // Never more than wait4's figure, which includes the child's whole life.
    (output, peak.min(usage.ru_maxrss as usize * 1024))
}

/// [`run`], as the exit code (a process killed by a signal fails the test), standard output
/// and standard error.
pub fn run_text(args: &[&str], stdin: &str) -> (i32, String, String) {
    let output = run(args, stdin);
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("UTF-8 output");
    (
        output.status.code().expect("exited"),
        text(output.stdout),
        text(output.stderr),
    )
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

// --- xc ---

#[test]
fn xc_counts_queens8() {
    let out = run(&["xc", &path("queens8.dlx"), "--count"], "");
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "92\n"));
    assert!(
        stderr(&out).starts_with("92 solutions, "),
        "{}",
        stderr(&out)
    );
}

/// A chain of 300,000 items of one option each: one solution at the end of 300,000 forced
/// choices. Each choice costs its own option (issue 41, item 6: the item choice scanned every
/// item covered before it, and the chain took over 120 s); here it must finish well inside a
/// budget of a minute, a margin of a hundred times on a loaded machine, and say so.
#[test]
fn xc_a_chain_of_forced_choices_is_linear() {
    let n = 300_000;
    let mut dlx = (0..n)
        .map(|i| format!("i{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    dlx.push('\n');
    for i in 0..n {
        dlx.push_str(&format!("i{i}\n"));
    }
    for args in [
        &["xc", "-", "--limit", "1", "--time-budget", "60", "--json"][..],
        &["xc", "-", "--count", "--time-budget", "60", "--json"],
    ] {
        let output = run(args, &dlx);
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        let record: Value = serde_json::from_str(stdout(&output).lines().last().unwrap()).unwrap();
        assert_eq!(record["solutions"], 1, "{args:?}: {record}");
        assert_eq!(
            record["stop"],
            if args[2] == "--limit" {
                "limit"
            } else {
                "exhausted"
            }
        );
    }
}

#[test]
fn xc_lists_knuths_example() {
    let out = run(&["xc", &path("knuth_example.dlx"), "-q"], "");
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "a d f\nb g\nc e\n")
    );
    assert_eq!(stderr(&out), "");
}

#[test]
fn xc_json_has_the_documented_fields() {
    let out = run(&["xc", &path("queens8.dlx"), "--json", "-q"], "");
    assert_eq!(code(&out), 0);
    let v = &json_lines(&stdout(&out))[..];
    assert_eq!(v.len(), 1);
    let v = &v[0];
    assert_eq!(v["solutions"], 92);
    assert_eq!(v["complete"], true);
    assert_eq!(v["stop"], "exhausted");
    assert_eq!(v["max_depth"], 8);
    assert!(v["nodes"].as_u64().unwrap() > 92);
    assert!(v["updates"].as_u64().unwrap() > v["nodes"].as_u64().unwrap());
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);

    let out = run(
        &["xc", &path("queens8.dlx"), "--json", "--limit", "5", "-q"],
        "",
    );
    let v = &json_lines(&stdout(&out))[0];
    assert_eq!(
        (v["solutions"].as_u64(), v["complete"].as_bool()),
        (Some(5), Some(false))
    );
    assert_eq!(v["stop"], "limit");

    // --count and --json together: one JSON object, nothing else.
    let out = run(&["xc", &path("queens8.dlx"), "--count", "--json", "-q"], "");
    let v = json_lines(&stdout(&out));
    assert_eq!(v.len(), 1);
    assert_eq!(
        (v[0]["solutions"].as_u64(), v[0]["complete"].as_bool()),
        (Some(92), Some(true))
    );

    // Counting on two threads gives the same count.
    let out = run(
        &["xc", &path("queens8.dlx"), "--json", "--threads", "2", "-q"],
        "",
    );
    assert_eq!(json_lines(&stdout(&out))[0]["solutions"], 92);
}

#[test]
fn xc_node_budget_is_not_complete() {
    let out = run(
        &[
            "xc",
            &path("queens8.dlx"),
            "--json",
            "--node-budget",
            "10",
            "-q",
        ],
        "",
    );
    let v = &json_lines(&stdout(&out))[0];
    assert_eq!(
        (v["complete"].as_bool(), v["stop"].as_str()),
        (Some(false), Some("node-budget"))
    );
    assert!(v["solutions"].as_u64().unwrap() < 92);
}

#[test]
fn xc_bad_input_names_line_and_column() {
    let out = run(&["xc"], "| items\na b\na c\n");
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out).trim_end(),
        "quadrille: <stdin>: line 3, column 3: unknown item 'c'"
    );
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        &["xc", "--bogus"][..],
        &["solve", "--engine", "dlx2"],
        &["solve", "--box", "3x"],
        &["count", "--limit", "0"],
        &["frobnicate"],
    ] {
        let out = run(args, "");
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{args:?}");
        assert!(stderr(&out).contains("error"), "{args:?}");
    }
}

/// Every refusal of usage, the tool's or clap's, exits 2 with its message and the usage of the
/// subcommand refused, never the top level's `Usage: quadrille <COMMAND>` (issue 41, item 22).
/// clap's errors of an option's value show no usage (the message names the option), and name
/// the short flag too (`-n x` was called `--count <N>`).
#[test]
fn usage_errors_show_the_usage_of_their_subcommand() {
    let eleven = "................\n".repeat(11);
    let colours = path("latin4_colours.dlx");
    let queens = path("queens8.dlx");
    // Arguments, standard input, the message, and whether a usage follows it.
    let refusals: [(&[&str], &str, &str, bool); 11] = [
        (
            &["xc", &colours, "--estimate", "10"],
            "",
            "--estimate is for plain exact cover, and",
            true,
        ),
        (
            &["xc", &colours, "--shard", "1/2"],
            "",
            "--shard is for plain exact cover, and",
            true,
        ),
        (
            &["xc", &queens, "--knuth", "--threads", "2"],
            "",
            "--knuth searches on one thread, and --threads 2 asks for more",
            true,
        ),
        (
            &["generate", "--givens", "100", "-n", "1"],
            "",
            "--givens: a unique 9x9 puzzle has from 0 to 81 givens, not 100",
            true,
        ),
        (
            &["count", "--estimate", "1000"],
            &eleven,
            "--estimate, --shard and --checkpoint take one puzzle, and the input has 11",
            true,
        ),
        (
            &["count", "--limit", "0"],
            "",
            "invalid value '0' for '--limit <N>': must be 1 or more",
            false,
        ),
        (
            &["xc", "--bogus"],
            "",
            "unexpected argument '--bogus'",
            true,
        ),
        (
            &["generate", "-n", "x"],
            "",
            "invalid value 'x' for '-n, --count <N>'",
            false,
        ),
        (
            &["generate", "--count", "x"],
            "",
            "invalid value 'x' for '-n, --count <N>'",
            false,
        ),
        (
            &["solve", "-j", "x"],
            "",
            "invalid value 'x' for '-j, --threads <N>'",
            false,
        ),
        (
            &["solve", "--box", "3x"],
            "",
            "invalid value '3x' for '--box <RxC>'",
            false,
        ),
    ];
    for (args, stdin, message, shows_usage) in refusals {
        let out = run(args, stdin);
        let errors = stderr(&out);
        assert_eq!(code(&out), 2, "{args:?}: {errors}");
        assert!(errors.starts_with("error: "), "{args:?}: {errors}");
        assert!(errors.contains(message), "{args:?}: {errors}");
        let usages: Vec<&str> = errors.lines().filter(|l| l.starts_with("Usage:")).collect();
        assert_eq!(usages.len(), usize::from(shows_usage), "{args:?}: {errors}");
        // clap's layout: the message, the usage, then the pointer to --help.
        let tail: Vec<&str> = errors.trim_end().lines().rev().collect();
        assert_eq!(tail[0], "For more information, try '--help'.", "{args:?}");
        if shows_usage {
            let expected = format!("Usage: quadrille {} ", args[0]);
            assert!(
                tail[2].starts_with(&expected),
                "{args:?} ends with its subcommand's usage: {errors}"
            );
        }
    }
}

#[test]
fn missing_file_exits_1_and_names_it() {
    let out = run(&["solve", "no/such/file.txt"], "");
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("no/such/file.txt"),
        "{}",
        stderr(&out)
    );
}

// --- solve ---

fn mixed() -> (String, String) {
    let read = |name: &str| std::fs::read_to_string(path(&format!("sudoku/{name}"))).unwrap();
    (read("mixed.txt"), read("mixed.expected"))
}

/// The puzzle lines of a one-line puzzle file: (1-based line, text), comments and blanks left out.
fn puzzle_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

#[test]
fn solve_mixed_gives_exactly_the_expected_output() {
    let (input, expected) = mixed();
    let out = run(&["solve", &path("sudoku/mixed.txt")], "");
    assert_eq!(stdout(&out), expected);
    assert_eq!(code(&out), 1, "bad lines make exit code 1");

    // The expected file is right on its own terms: one line per puzzle line, in order, every
    // printed solution valid for its puzzle.
    let puzzles = puzzle_lines(&input);
    let answers: Vec<&str> = expected.lines().collect();
    assert_eq!(puzzles.len(), answers.len());
    let mut errors = Vec::new();
    for (&(line, text), answer) in puzzles.iter().zip(&answers) {
        if let Some(message) = answer.strip_prefix("error: ") {
            assert!(
                message.starts_with(&format!("line {line}, column ")),
                "{answer}"
            );
            assert!(parse_line(text, None).is_err(), "line {line}");
            errors.push(format!("quadrille: {message}"));
        } else if *answer == "unsolvable" {
            assert!(text.contains("none"), "line {line}");
        } else {
            let puzzle = parse_line(text, None).unwrap();
            let solution = parse_line(answer, None).unwrap();
            assert_eq!(check_solution(&puzzle, &solution), Ok(()), "line {line}");
        }
    }
    assert_eq!(errors.len(), 4, "one bad line per kind of error");
    // Errors also go to standard error, in input order.
    assert_eq!(stderr(&out).lines().collect::<Vec<_>>(), errors);

    // The same from standard input.
    let piped = run(&["solve"], &input);
    assert_eq!((stdout(&piped), code(&piped)), (expected, 1));
}

#[test]
fn solve_json_gives_one_object_per_puzzle_line() {
    let (input, expected) = mixed();
    let out = run(&["solve", "--json", &path("sudoku/mixed.txt")], "");
    assert_eq!(code(&out), 1);
    let objects = json_lines(&stdout(&out));
    let puzzles = puzzle_lines(&input);
    assert_eq!(objects.len(), puzzles.len());
    for ((o, (line, _)), text) in objects.iter().zip(&puzzles).zip(expected.lines()) {
        assert_eq!(o["line"].as_u64(), Some(*line as u64), "{o}");
        if let Some(message) = text.strip_prefix("error: ") {
            // The JSON error is the message without its position, which `line` gives.
            let error = o["error"].as_str().unwrap();
            assert!(message.ends_with(error), "{message} / {error}");
            assert!(o.get("solution").is_none());
        } else if text == "unsolvable" {
            assert_eq!(o["status"], "unsolvable");
            assert_eq!(o["solutions"], 0);
            assert_eq!(o["exact"], true);
            assert!(o.get("solution").is_none());
        } else {
            assert_eq!(o["status"], "solved");
            // At the default --limit 1 the search stops at the first solution: not a count.
            assert_eq!(o["exact"], false);
            assert_eq!(o["solutions"], 1);
            assert_eq!(o["solution"].as_str(), Some(text));
        }
    }
    assert_eq!(objects[0]["label"], "easy");
}

/// The default engine, auto, picks one per board (bitboard up to 128 cells, the CSP on killer
/// boards, DLX elsewhere), says which in `--json` and `--stats`, and answers as DLX does.
#[test]
fn auto_picks_an_engine_per_board_and_answers_as_dlx() {
    for (file, engine) in [
        ("sudoku/4x4.txt", "bitboard"),
        ("sudoku/9x9.txt", "bitboard"),
        ("variants/x.txt", "bitboard"),
        ("variants/jigsaw.txt", "bitboard"),
        ("sudoku/12x12.txt", "dlx"),
        ("sudoku/16x16.txt", "dlx"),
        ("variants/killer.txt", "csp:mrv-degree+lex+hidden-singles"),
    ] {
        let file = path(file);
        let auto = run(&["solve", "--json", "--limit", "2", "--stats", &file], "");
        let dlx = run(
            &["solve", "--json", "--limit", "2", "--engine", "dlx", &file],
            "",
        );
        let (auto_objects, dlx_objects) = (json_lines(&stdout(&auto)), json_lines(&stdout(&dlx)));
        assert!(!auto_objects.is_empty(), "{file}");
        assert_eq!(auto_objects.len(), dlx_objects.len(), "{file}");
        for (a, d) in auto_objects.iter().zip(&dlx_objects) {
            assert_eq!(a["engine"], engine, "{file}: {a}");
            assert_eq!(d["engine"], "dlx", "{file}: {d}");
            for field in ["line", "status", "solutions", "exact"] {
                assert_eq!(a[field], d[field], "{file}: {field}: {a} / {d}");
            }
        }
        let summary = stderr(&auto);
        let kind = engine.split(':').next().unwrap();
        let tally = format!("engine auto ({kind} {}):", auto_objects.len());
        assert!(
            summary.lines().any(|line| line.starts_with(&tally)),
            "{file}: {summary}"
        );
    }
}

/// Above 25x25, auto takes the CSP for a nearly empty puzzle (more than three quarters open)
/// and DLX otherwise; either way the solution keeps the givens and the rules.
#[test]
fn auto_takes_the_csp_at_the_easy_end_of_large_grids() {
    for (blanks, engine) in [
        (1150, "csp:mrv-degree+lex+alldiff+intersections+fill"),
        (400, "dlx"),
    ] {
        let made = run(
            &[
                "generate",
                "--box",
                "5x7",
                "--kind",
                "random",
                "-n",
                "1",
                "--seed",
                "1",
                "--blanks",
                &blanks.to_string(),
            ],
            "",
        );
        assert_eq!(code(&made), 0, "{}", stderr(&made));
        let text = stdout(&made);
        let out = run(&["solve", "--json", "-j1", "--box", "5x7"], &text);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let objects = json_lines(&stdout(&out));
        assert_eq!(objects.len(), 1);
        assert_eq!(objects[0]["engine"], engine, "{}", objects[0]);
        let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
        let shape = quadrille::sudoku::Shape::new(5, 7).unwrap();
        let puzzle = parse_line(line, Some(shape)).unwrap();
        let solution = objects[0]["solution"].as_str().unwrap();
        let solution = parse_line(solution, Some(shape)).unwrap();
        assert_eq!(check_solution(&puzzle, &solution), Ok(()));
    }
}

#[test]
fn solve_threads_1_and_2_agree() {
    for file in ["sudoku/mixed.txt", "sudoku/9x9.txt", "sudoku/16x16.txt"] {
        let one = run(
            &["solve", "--threads", "1", "--limit", "3", &path(file)],
            "",
        );
        let two = run(
            &["solve", "--threads", "2", "--limit", "3", &path(file)],
            "",
        );
        assert_eq!(stdout(&one), stdout(&two), "{file}");
        assert_eq!(code(&one), code(&two), "{file}");
    }
}

/// A batch longer than a few chunks (256 puzzles on one thread, 2,048 on several), with
/// comments and bad lines among its puzzles: one thread and two print the same lines in input
/// order, one a puzzle line, each solution keeping its puzzle's givens and the rules, and
/// `--stats` (the one flag that times the searches) reports a time in the solvers.
#[test]
fn a_batch_of_many_chunks_is_the_same_on_one_thread_and_two() {
    let fixture = std::fs::read_to_string(path("sudoku/9x9.txt")).unwrap();
    let puzzles: Vec<&str> = (fixture.lines())
        .map(|line| line.split_whitespace().next().unwrap())
        .collect();
    let mut input = String::new();
    let mut expected = Vec::new(); // per puzzle line: Some(puzzle) or None for a bad line
    for i in 0..2_500 {
        match i % 97 {
            0 => input.push_str("# a comment\n"),
            50 => {
                input.push_str("12345\n");
                expected.push(None);
            }
            _ => {
                let puzzle = puzzles[i % puzzles.len()];
                input.push_str(puzzle);
                input.push('\n');
                expected.push(Some(puzzle));
            }
        }
    }
    let one = run(&["solve", "-j1", "--limit", "2", "--stats"], &input);
    let two = run(&["solve", "-j2", "--limit", "2"], &input);
    assert_eq!(stdout(&one), stdout(&two));
    assert_eq!((code(&one), code(&two)), (1, 1), "bad lines make exit 1");
    let out = stdout(&one);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), expected.len());
    let mut solved = 0;
    for (line, expected) in lines.iter().zip(&expected) {
        match expected {
            None => assert!(line.starts_with("error: line "), "{line}"),
            Some(puzzle) => {
                if *line == "unsolvable" {
                    continue;
                }
                let solution = line.split_whitespace().next().unwrap();
                let puzzle = parse_line(puzzle, None).unwrap();
                let solution = parse_line(solution, None).unwrap();
                assert_eq!(check_solution(&puzzle, &solution), Ok(()), "{line}");
                solved += 1;
            }
        }
    }
    assert!(solved > 1_500, "{solved}");
    let stats = stderr(&one);
    let in_solver = (stats.split(" µs/puzzle (in the solver").next())
        .and_then(|before| before.rsplit(' ').next())
        .unwrap_or_else(|| panic!("{stats}"));
    assert!(in_solver.parse::<f64>().unwrap() > 0.0, "{stats}");
}

#[test]
fn the_box_flag_hint_is_the_tools_not_the_librarys() {
    // The library's message names no flag; every place the tool prints it adds the hint.
    let library = parse_line("....", None).unwrap_err().to_string();
    assert_eq!(library, "column 1: cannot tell the grid shape from 4 cells");
    let hinted = "cannot tell the grid shape from 4 cells; give it with --box RxC";
    let input = "1...........4..2\n....\n";
    let text = run(&["solve"], input);
    assert_eq!(code(&text), 1);
    assert!(stdout(&text).contains(&format!("error: line 2, column 1: {hinted}\n")));
    assert!(stderr(&text).contains(hinted), "{}", stderr(&text));
    let json = run(&["count", "--json"], input);
    let objects = json_lines(&stdout(&json));
    assert_eq!(objects[1]["error"], format!("column 1: {hinted}"));
    let compare = run(&["compare", "-", "--engines", "dlx"], input);
    assert!(
        stderr(&compare).contains(&format!("<stdin>: line 2, column 1: {hinted} (skipped)")),
        "{}",
        stderr(&compare)
    );
}

#[test]
fn a_line_longer_than_any_puzzle_is_an_error_and_the_batch_goes_on() {
    // 20 MB on one line, then a puzzle: the long line is reported, not held, and line 2 is
    // solved with its own number.
    let input = format!("{}\n1...........4..2\n", "1".repeat(20_000_000));
    let out = run(&["solve"], &input);
    let message =
        "line 1, column 1: the line is longer than 65536 bytes, more than any puzzle needs";
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        format!("error: {message}\n1243342121344312\n")
    );
    assert_eq!(stderr(&out), format!("quadrille: {message}\n"));
}

#[test]
fn solve_with_a_limit_prints_counts_like_the_fixtures() {
    // `--limit 3` prints the count after the solution, as the .expected files have it.
    let expected = std::fs::read_to_string(path("sudoku/8x8.expected")).unwrap();
    let out = run(&["solve", "--limit", "3", &path("sudoku/8x8.txt")], "");
    assert_eq!(code(&out), 0);
    for (got, want) in stdout(&out).lines().zip(expected.lines()) {
        let (count, solution) = want.split_once(' ').unwrap();
        if solution == "-" {
            assert_eq!(got, "unsolvable");
        } else if count == "1" {
            assert_eq!(got, format!("{solution} 1"));
        } else {
            assert!(got.ends_with(&format!(" {count}")), "{got}");
        }
    }
}

#[test]
fn solve_with_a_box_shape() {
    let out = run(&["solve", "--box", "2x3", &path("sudoku/6x6.txt")], "");
    assert_eq!(code(&out), 0);
    let input = std::fs::read_to_string(path("sudoku/6x6.txt")).unwrap();
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), input.lines().count());
    for (text, answer) in input.lines().zip(&lines) {
        let puzzle = parse_line(text, None).unwrap();
        if answer != "unsolvable" {
            let solution = parse_line(answer, None).unwrap();
            assert_eq!(check_solution(&puzzle, &solution), Ok(()), "{text}");
        }
    }
    // With a given shape, a line of the wrong length says how long it should be.
    let out = run(&["solve", "--box", "2x2"], "1.3.34.2.......1.\n");
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "error: line 1, column 17: expected 16 cells, found 17\n"
    );
}

#[test]
fn solve_reads_multi_line_grids() {
    let sdk = "[Puzzle]\n1 . | 3 .\n3 4 | . 2\n----+----\n. . | . .\n. . | . 1\n\n\
               # a second grid\n.2.4\n3...\n2...\n...1\n";
    let file = format!("{}/grids.sdk", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&file, sdk).unwrap();
    let out = run(&["solve", "--input", "grid", "--json", &file], "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let objects = json_lines(&stdout(&out));
    assert_eq!(objects.len(), 2);
    assert_eq!(
        (objects[0]["line"].as_u64(), objects[1]["line"].as_u64()),
        (Some(2), Some(9))
    );
    for (o, puzzle) in objects.iter().zip(["1.3.34.2.......1", ".2.43...2......1"]) {
        let puzzle = parse_line(puzzle, None).unwrap();
        let solution = parse_line(o["solution"].as_str().unwrap(), None).unwrap();
        assert_eq!(check_solution(&puzzle, &solution), Ok(()));
    }
}

#[test]
fn csp_engines_give_the_dlx_solutions() {
    // Unique puzzles: every engine must print the same solutions.
    let sample = path("sudoku/9x9_sample.txt");
    let dlx = run(&["solve", &sample], "");
    assert_eq!(code(&dlx), 0);
    assert_eq!(stdout(&dlx).lines().count(), 20);
    for engine in [
        "csp",
        "csp:first+lex+fc",
        "csp:mrv-degree+lcv+triples+pigeonhole",
    ] {
        let csp = run(&["solve", "--engine", engine, &sample], "");
        assert_eq!(stdout(&csp), stdout(&dlx), "{engine}");
        assert_eq!(code(&csp), 0, "{engine}");
    }
    // On the mixed file the counts agree line by line (first solutions may differ).
    let dlx = run(
        &["solve", "--json", "--limit", "3", &path("sudoku/mixed.txt")],
        "",
    );
    let csp = run(
        &[
            "solve",
            "--json",
            "--limit",
            "3",
            "--engine",
            "csp:first+lex+fc",
            &path("sudoku/mixed.txt"),
        ],
        "",
    );
    let strip = |v: Vec<Value>| -> Vec<(Value, Value)> {
        v.into_iter()
            .map(|o| (o["line"].clone(), o["solutions"].clone()))
            .collect()
    };
    assert_eq!(
        strip(json_lines(&stdout(&dlx))),
        strip(json_lines(&stdout(&csp)))
    );
}

#[test]
fn closed_output_pipe_exits_quietly() {
    // Enough output to overflow any pipe buffer once the reader is gone.
    let input: String = (0..40_000).map(|_| "1.3.34.2.......1\n").collect();
    let mut child = Command::new(bin())
        .args(["solve", "--threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "1234341221434321\n");
    // The stdout handle was moved into the BufReader and is closed now, like `| head -1`.
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let err = stderr(&output);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(output.status.code(), Some(0), "{err}");
}

// --- count ---

#[test]
fn count_the_empty_4x4() {
    let out = run(&["count"], "................\n");
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "288\n"));
    let out = run(&["count", "--limit", "5"], "................\n");
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "5+\n"));
    let out = run(
        &["count", "--engine", "csp:first+lex+fc", "--threads", "2"],
        "................\n",
    );
    assert_eq!(stdout(&out), "288\n");
}

#[test]
fn solve_writes_the_count_as_count_does() {
    // solve writes one-digit counts without the formatter: "2+" at the limit, "1" exact; the
    // empty 4x4 has 288 solutions, so every limit below that stops there.
    for limit in ["2", "9", "10", "12", "288", "300"] {
        let solved = run(&["solve", "--limit", limit], "................\n");
        let counted = run(&["count", "--limit", limit], "................\n");
        let text = stdout(&solved);
        let (_, count) = text.split_once(' ').unwrap();
        assert_eq!(count, stdout(&counted), "--limit {limit}");
        let want = if limit == "300" { "288" } else { limit };
        assert_eq!(count.trim_end().trim_end_matches('+'), want);
    }
    let out = run(&["solve", "--limit", "2"], "12433421213443..\n");
    assert_eq!(stdout(&out), "1243342121344312 1\n");
}

#[test]
fn count_matches_the_fixture_counts() {
    let expected = std::fs::read_to_string(path("sudoku/9x9.expected")).unwrap();
    let out = run(&["count", "--limit", "3", &path("sudoku/9x9.txt")], "");
    let want: Vec<&str> = expected
        .lines()
        .map(|l| l.split_once(' ').unwrap().0)
        .collect();
    assert_eq!(stdout(&out).lines().collect::<Vec<_>>(), want);
}

// --- numeric flags and impossible requests: usage errors, never panics ---

/// Each numeric flag's parser, through the binary: the values it takes, and the usage error
/// (exit 2) with its reason for each value it refuses.
#[test]
fn numeric_flags_take_their_range_and_refuse_the_rest() {
    let queens = path("queens6.dlx");
    let puzzle = "1...........4..2\n";
    let refused = |args: &[&str], input: &str, reason: &str| {
        let out = run(args, input);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(reason), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}");
    };
    // --shard I/N: 1 <= I <= N, within the most shards a split has.
    let out = run(&["xc", &queens, "--shard", "3/16", "--json", "-q"], "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("\"shard\":3"), "{}", stdout(&out));
    assert_eq!(code(&run(&["xc", &queens, "--shard", "1/1", "-q"], "")), 0);
    for bad in ["0/4", "5/4", "1/0", "1", "a/b", "1/2/3", "-1/2", ""] {
        refused(&["xc", &queens, &format!("--shard={bad}")], "", "--shard");
    }
    refused(&["xc", &queens, "--shard", "1/2000000"], "", "at most");
    // Seconds: finite, 0 or more, within the longest budget a clock holds.
    for (bad, reason) in [
        ("nan", "not a number"),
        ("-1", "0 or more"),
        ("inf", "finite"),
        ("1e300", "longest"),
        ("x", "not a number of seconds"),
        ("", "--time-budget"),
    ] {
        refused(&["count", &format!("--time-budget={bad}")], puzzle, reason);
    }
    assert_eq!(code(&run(&["count", "--time-budget", "1.5"], puzzle)), 0);
    // Limits: 1 or more; node budgets: 1 or more (none is the flag left out).
    for bad in ["0", "-1", "1.5"] {
        refused(&["xc", &queens, &format!("--limit={bad}")], "", "--limit");
    }
    refused(&["xc", &queens, "--node-budget", "0"], "", "leave it out");
    refused(&["xc", &queens, "--node-budget", "1.5"], "", "whole number");
    let bounded = stdout(&run(&["xc", &queens, "--count", "--node-budget", "7"], ""));
    assert!(bounded.trim_end().ends_with('+'), "{bounded}");
    // Threads: 0 (one per core) up to what a machine could start.
    assert_eq!(stdout(&run(&["count", "-j", "0"], puzzle)), "9\n");
    refused(&["count", "-j", "100000"], puzzle, "--threads");
    // Charts: a path that ends in .svg, in any case.
    let sample = path("sudoku/9x9_sample.txt");
    for bad in ["b.json", "svg"] {
        refused(&["compare", &sample, "--plot", bad], "", ".svg");
    }
}

#[test]
fn time_budgets_no_clock_can_hold_are_usage_errors_on_every_subcommand() {
    let puzzle = "1...........4..2\n";
    let knuth = path("knuth_example.dlx");
    let file = path("sudoku/9x9_sample.txt");
    for value in ["inf", "1e300", "1e19", "nan", "-1"] {
        let flag = format!("--time-budget={value}");
        for args in [
            vec!["solve", flag.as_str()],
            vec!["count", flag.as_str()],
            vec!["xc", knuth.as_str(), flag.as_str()],
            vec!["compare", file.as_str(), flag.as_str()],
        ] {
            let out = run(&args, puzzle);
            assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
            assert!(stderr(&out).contains("--time-budget"), "{args:?}");
            assert!(!stderr(&out).contains("panicked"), "{args:?}");
        }
    }
    // The longest accepted budget runs, and the answer is the same as without one.
    let out = run(&["count", "--time-budget", "1e9"], puzzle);
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "9\n"));
    let out = run(
        &[
            "xc",
            &knuth,
            "--count",
            "--time-budget",
            "1e9",
            "--threads",
            "2",
        ],
        "",
    );
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "1\n"));
}

#[test]
fn an_unsolvable_one_cell_grid_is_an_error_not_a_panic() {
    let out = run(
        &[
            "generate",
            "--box",
            "1x1",
            "-n",
            "1",
            "--kind",
            "contradictory",
        ],
        "",
    );
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("cannot make a contradictory 1x1 puzzle"));
    assert!(!stderr(&out).contains("panicked"));
    assert_eq!(stdout(&out), "");
}

// --- flags mean one thing on every subcommand ---

/// Every subcommand once, with a small input (`-` reads `PUZZLE` from standard input).
fn every_subcommand() -> Vec<Vec<String>> {
    let knuth = path("knuth_example.dlx");
    [
        vec!["solve"],
        vec!["count"],
        vec!["xc", knuth.as_str(), "--count"],
        vec!["compare", "-", "--engines", "dlx"],
    ]
    .into_iter()
    .map(|v| v.into_iter().map(String::from).collect())
    .collect()
}

const PUZZLE: &str = "1...........4..2\n";

fn run_with(base: &[String], extra: &[&str], stdin: &str) -> Output {
    let mut args: Vec<&str> = base.iter().map(String::as_str).collect();
    args.extend_from_slice(extra);
    run(&args, stdin)
}

#[test]
fn limit_0_is_a_usage_error_on_every_subcommand() {
    for base in every_subcommand() {
        let out = run_with(&base, &["--limit", "0"], PUZZLE);
        assert_eq!(code(&out), 2, "{base:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("--limit"), "{base:?}");
        assert_eq!(stdout(&out), "", "{base:?}");
    }
    // xc's listing too, which printed `1+` before.
    let out = run(&["xc", &path("knuth_example.dlx"), "--limit", "0"], "");
    assert_eq!(code(&out), 2);
}

#[test]
fn node_budget_0_is_a_usage_error_on_every_subcommand() {
    for base in every_subcommand() {
        let out = run_with(&base, &["--node-budget", "0"], PUZZLE);
        assert_eq!(code(&out), 2, "{base:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("leave it out for no budget"),
            "{base:?}: {}",
            stderr(&out)
        );
    }
    // compare's default budget is lifted by its own flag, which cannot go with a budget.
    let out = run(
        &["compare", "-", "--engines", "dlx", "--no-node-budget", "-q"],
        PUZZLE,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("budget per puzzle and engine: none"));
    let out = run(&["compare", "-", "--engines", "dlx"], PUZZLE);
    assert!(stdout(&out).contains("budget per puzzle and engine: 100000 nodes"));
    let out = run(
        &["compare", "-", "--no-node-budget", "--node-budget", "5"],
        PUZZLE,
    );
    assert_eq!(code(&out), 2);
}

#[test]
fn threads_and_j_on_every_subcommand() {
    let mut all = every_subcommand();
    all.push(vec!["generate".into(), "-n".into(), "2".into()]);
    for base in all {
        let long = run_with(&base, &["--threads", "2"], PUZZLE);
        let short = run_with(&base, &["-j", "2"], PUZZLE);
        let cores = run_with(&base, &["-j", "0"], PUZZLE);
        assert_eq!(code(&long), 0, "{base:?}: {}", stderr(&long));
        assert_eq!(code(&short), 0, "{base:?}");
        assert_eq!(code(&cores), 0, "{base:?}");
        if base[0] != "compare" {
            assert_eq!(stdout(&long), stdout(&short), "{base:?}");
            assert_eq!(stdout(&long), stdout(&cores), "{base:?}");
        }
        let bad = run_with(&base, &["-j", "x"], PUZZLE);
        assert_eq!(code(&bad), 2, "{base:?}");
    }
    // compare defaults to one thread, and says so.
    let out = run(&["compare", "-", "--engines", "dlx"], PUZZLE);
    assert!(stdout(&out).contains("; 1 thread;"), "{}", stdout(&out));
}

#[test]
fn quiet_on_every_subcommand_leaves_only_errors() {
    let mut all = every_subcommand();
    all.push(vec!["generate".into(), "-n".into(), "2".into()]);
    for base in all {
        for flag in ["-q", "--quiet"] {
            let out = run_with(&base, &[flag], PUZZLE);
            assert_eq!(code(&out), 0, "{base:?}: {}", stderr(&out));
            assert_eq!(stderr(&out), "", "{base:?}");
        }
    }
    // Errors still print.
    let out = run(&["count", "-q"], "11..............\n");
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).starts_with("error: "));
    // A summary asked for and refused at once is a usage error.
    let out = run(&["solve", "-q", "--stats"], PUZZLE);
    assert_eq!(code(&out), 2);
}

#[test]
fn generate_refuses_givens_the_kind_cannot_give() {
    for (kind, givens, range) in [
        ("contradictory", "8", "from 9 to 78 givens"),
        ("contradictory", "79", "from 9 to 78 givens"),
        ("random", "82", "from 0 to 81 givens"),
        ("unique", "82", "from 0 to 81 givens"),
    ] {
        let out = run(&["generate", "--kind", kind, "--givens", givens], "");
        assert_eq!(code(&out), 2, "{kind} {givens}: {}", stderr(&out));
        assert!(stderr(&out).contains(range), "{}", stderr(&out));
        assert!(stderr(&out).contains("--givens"), "{}", stderr(&out));
        assert_eq!(stdout(&out), "");
    }
    // The ends of each range are kept exactly, on every seed tried.
    for (shape, kind, givens) in [
        ("3x3", "contradictory", 9),
        ("3x3", "contradictory", 78),
        ("2x3", "contradictory", 33),
        ("1x4", "contradictory", 14),
        ("4x1", "contradictory", 14),
        ("3x3", "random", 81),
        ("3x3", "random", 0),
    ] {
        let k = givens.to_string();
        let out = run(
            &[
                "generate", "--box", shape, "--kind", kind, "--givens", &k, "-n", "50",
            ],
            "",
        );
        assert_eq!(code(&out), 0, "{shape} {kind} {givens}: {}", stderr(&out));
        // Boxes of one row are not what a length implies: a `# box:` line names them.
        let text = stdout(&out);
        let puzzles: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(puzzles.len(), 50);
        for line in puzzles {
            let given = line.chars().filter(|&c| c != '.').count();
            assert_eq!(given, givens, "{shape} {kind}: {line}");
        }
    }
}

#[test]
fn generate_blanks_is_the_complement_of_givens() {
    let common = ["generate", "--box", "4x4", "--kind", "random", "-n", "5"];
    let by_blanks = run(&[&common[..], &["--blanks", "175"]].concat(), "");
    let by_givens = run(&[&common[..], &["--givens", "81"]].concat(), "");
    assert_eq!(code(&by_blanks), 0, "{}", stderr(&by_blanks));
    assert_eq!(stdout(&by_blanks), stdout(&by_givens));
    for line in stdout(&by_blanks).lines() {
        assert_eq!(line.chars().filter(|&c| c == '.').count(), 175, "{line}");
    }
    // Both flags at once, or more blanks than the kind allows: usage errors, nothing made.
    for (extra, says) in [
        (&["--blanks", "175", "--givens", "81"][..], "--givens"),
        (&["--blanks", "257"][..], "from 0 to 256 blanks"),
    ] {
        let out = run(&[&common[..], extra].concat(), "");
        assert_eq!(code(&out), 2, "{extra:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
        assert!(stderr(&out).contains("--blanks"), "{}", stderr(&out));
        assert_eq!(stdout(&out), "");
    }
    let out = run(
        &["generate", "--kind", "contradictory", "--blanks", "1"],
        "",
    );
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("from 3 to 72 blanks"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn compare_checks_its_outputs_before_the_engines_run() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    // Not .svg: a usage error.
    let out = run(
        &["compare", "-", "--plot", &format!("{dir}/chart.json")],
        PUZZLE,
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains(".svg"), "{}", stderr(&out));
    // Paths that cannot be created fail at once and are named; nothing was compared.
    let directory = format!("{dir}/a-directory.svg");
    std::fs::create_dir_all(&directory).unwrap();
    for flag in ["--json", "--plot"] {
        for bad in [format!("{dir}/no/such/dir/out.svg"), directory.clone()] {
            let out = run(&["compare", "-", flag, &bad], PUZZLE);
            assert_eq!(code(&out), 1, "{flag} {bad}: {}", stderr(&out));
            assert!(stderr(&out).contains(&bad), "{}", stderr(&out));
            assert_eq!(stdout(&out), "", "{flag} {bad}");
        }
    }
    // An input without puzzles: nothing to compare, and no empty outputs left behind.
    let json = format!("{dir}/empty.json");
    let out = run(&["compare", "-", "--json", &json], "# only a comment\n\n");
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out),
        "quadrille: nothing to compare: no puzzles in <stdin>\n"
    );
    assert_eq!(stdout(&out), "");
    assert!(!std::path::Path::new(&json).exists());
}

// --- output that does not mislead ---

#[test]
fn json_says_solved_unsolvable_or_undecided_and_whether_the_count_is_exact() {
    // Unique, multiple, contradictory (made by `generate --kind contradictory`).
    let input = "1...........4..2\n................\n..3.....41.2...1\n";
    let fields = |o: &Value| {
        (
            o["status"].as_str().unwrap().to_string(),
            o["solutions"].as_u64().unwrap(),
            o["exact"].as_bool().unwrap(),
        )
    };
    let s = |t: &str, n: u64, e: bool| (t.to_string(), n, e);
    let out = run(&["solve", "--json"], input);
    let got: Vec<_> = json_lines(&stdout(&out)).iter().map(fields).collect();
    assert_eq!(
        got,
        [
            s("solved", 1, false),
            s("solved", 1, false),
            s("unsolvable", 0, true)
        ]
    );
    let out = run(&["count", "--json"], input);
    let got: Vec<_> = json_lines(&stdout(&out)).iter().map(fields).collect();
    assert_eq!(
        got,
        [
            s("solved", 9, true),
            s("solved", 288, true),
            s("unsolvable", 0, true)
        ]
    );
    let out = run(&["count", "--json", "--limit", "2"], input);
    let got: Vec<_> = json_lines(&stdout(&out)).iter().map(fields).collect();
    assert_eq!(
        got,
        [
            s("solved", 2, false),
            s("solved", 2, false),
            s("unsolvable", 0, true)
        ]
    );
    let out = run(
        &["solve", "--json", "--node-budget", "1"],
        "................\n",
    );
    let o = &json_lines(&stdout(&out))[0];
    assert_eq!(fields(o), s("undecided", 0, false));
    assert!(o.get("complete").is_none());
}

#[test]
fn a_directory_as_input_is_named() {
    let dir = path("sudoku");
    for args in [
        vec!["solve", dir.as_str()],
        vec!["count", dir.as_str()],
        vec!["xc", dir.as_str()],
        vec!["compare", dir.as_str()],
    ] {
        let out = run(&args, "");
        assert_eq!(code(&out), 1, "{args:?}");
        assert_eq!(
            stderr(&out),
            format!("quadrille: {dir}: is a directory\n"),
            "{args:?}"
        );
        assert_eq!(stdout(&out), "", "{args:?}");
    }
}

#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    let out = run(&["solve"], "\u{feff}1...........4..2\n");
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "1243342121344312\n")
    );
    let out = run(&["solve"], "\u{feff}# a comment\n1...........4..2\n");
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "1243342121344312\n")
    );
    let out = run(
        &["solve", "--input", "grid"],
        "\u{feff}1 . . .\n. . . .\n. . 4 .\n. . . 2\n",
    );
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "1324241332414132\n")
    );
    let out = run(&["xc", "--count", "-q"], "\u{feff}a b\na\nb\n");
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "1\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn control_characters_in_messages_are_escaped() {
    let out = run(&["solve"], "1.3.\u{7}4.2.......1\n");
    assert_eq!(
        stdout(&out),
        "error: line 1, column 5: unexpected character '\\u{7}'\n"
    );
    let out = run(&["xc"], "a b\na \u{1b}[2J\n");
    assert_eq!(
        stderr(&out),
        "quadrille: <stdin>: line 2, column 3: unknown item '\\u{1b}[2J'\n"
    );
    assert!(!stderr(&out).contains('\u{1b}'));
}

#[test]
fn a_line_of_characters_under_a_large_box_is_told_its_length() {
    // --box 8x8 is a box of 8x8, a 64x64 grid of 4096 cells; --box 2x4 an 8x8 grid.
    let line = format!("{}\n", ".".repeat(81));
    let out = run(&["solve", "--box", "8x8"], &line);
    assert_eq!(
        stdout(&out),
        "error: line 1, column 82: expected 4096 cells, found 81\n"
    );
    let out = run(&["solve", "--box", "2x4"], &line);
    assert_eq!(
        stdout(&out),
        "error: line 1, column 65: expected 64 cells, found 81\n"
    );
}

#[test]
fn every_help_ends_with_examples() {
    for sub in ["solve", "count", "xc", "compare", "generate"] {
        let out = run(&[sub, "--help"], "");
        assert_eq!(code(&out), 0, "{sub}");
        let help = stdout(&out);
        let (_, examples) = help
            .split_once("\nExamples:\n")
            .unwrap_or_else(|| panic!("{sub}: {help}"));
        let lines: Vec<&str> = examples.lines().collect();
        assert!((2..=4).contains(&lines.len()), "{sub}: {examples}");
        for line in lines {
            assert!(line.contains(&format!("quadrille {sub}")), "{sub}: {line}");
        }
    }
}

/// `solve --limit 2 --json -q` with more flags on `puzzles`, which must succeed: its output.
fn count_to_two_as_json(puzzles: &str, extra: &[&str]) -> String {
    let mut args = vec!["solve", "--limit", "2", "--json", "-q"];
    args.extend_from_slice(extra);
    let output = run(&args, puzzles);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    stdout(&output)
}
/// Restarts: the same seed prints the same bytes (threads or not), another seed the same
/// counts, and `--no-restarts` the same counts wherever it decides.
#[test]
fn seeds_reproduce_output_and_restarts_keep_counts() {
    let puzzles = stdout(&run(
        &[
            "generate", "--box", "4x4", "--kind", "random", "--blanks", "175", "-n", "30",
            "--seed", "100",
        ],
        "",
    ));
    let solve = |extra: &[&str]| count_to_two_as_json(&puzzles, extra);
    let seeded = solve(&["--seed", "7", "-j", "1"]);
    assert_eq!(seeded, solve(&["--seed", "7", "-j", "2"]));
    let counts = |text: &str| -> Vec<(Value, Value)> {
        json_lines(text)
            .into_iter()
            .map(|v| (v["solutions"].clone(), v["status"].clone()))
            .collect()
    };
    let records = json_lines(&seeded);
    assert_eq!(records.len(), 30);
    assert!(
        records
            .iter()
            .all(|v| v["exact"] == true || v["solutions"] == 2)
    );
    assert_eq!(counts(&seeded), counts(&solve(&["--seed", "8"])));
    let plain = json_lines(&solve(&["--no-restarts", "--time-budget", "5"]));
    for (with, without) in records.iter().zip(&plain) {
        if without["status"] != "undecided" {
            assert_eq!(with["solutions"], without["solutions"], "{without}");
        }
    }
}

/// 25x25 puzzles with 340 blanks are where the first plain run is cut off and the learning
/// search decides: the same seed gives the same bytes on one thread and two, and each of
/// these puzzles has its second solution found.
#[test]
fn learning_runs_reproduce_their_output() {
    let puzzles = stdout(&run(
        &[
            "generate", "--box", "5x5", "--kind", "random", "--blanks", "340", "-n", "3", "--seed",
            "1",
        ],
        "",
    ));
    let solve = |extra: &[&str]| count_to_two_as_json(&puzzles, extra);
    let seeded = solve(&["--seed", "7", "-j", "1"]);
    assert_eq!(seeded, solve(&["--seed", "7", "-j", "2"]));
    let records = json_lines(&seeded);
    assert_eq!(records.len(), 3);
    assert!(records.iter().all(|v| v["solutions"] == 2), "{seeded}");
}

/// `compare --json` reports the nogoods each search learned: DLX learns on these puzzles
/// (its first plain run is cut off), the CSP never does.
#[test]
fn compare_reports_what_dlx_learned() {
    let dir = std::env::temp_dir().join(format!("quadrille-learned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (puzzles, json) = (dir.join("p.txt"), dir.join("c.json"));
    let generated = run(
        &[
            "generate", "--box", "5x5", "--kind", "random", "--blanks", "340", "-n", "3", "--seed",
            "1",
        ],
        "",
    );
    std::fs::write(&puzzles, stdout(&generated)).unwrap();
    let output = run(
        &[
            "compare",
            puzzles.to_str().unwrap(),
            "--engines",
            "dlx,csp",
            "--no-node-budget",
            "--json",
            json.to_str().unwrap(),
            "-q",
        ],
        "",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let value: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let learned = |engine: usize| -> Vec<u64> {
        (value["puzzles"].as_array().unwrap().iter())
            .map(|p| p["results"][engine]["learned"].as_u64().unwrap())
            .collect()
    };
    assert!(learned(0).iter().any(|&n| n > 0), "{:?}", learned(0));
    assert_eq!(learned(1), [0, 0, 0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_reports_its_restarts() {
    let dir = std::env::temp_dir().join(format!("quadrille-restarts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("c.json");
    let output = run(
        &[
            "compare",
            &path("sudoku/16x16.txt"),
            "--engines",
            "dlx,csp",
            "--seed",
            "3",
            "--json",
            json.to_str().unwrap(),
            "-q",
        ],
        "",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(stdout(&output).contains("restarts (seed 3)"));
    let value: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(value["settings"]["seed"], 3);
    assert_eq!(value["settings"]["restarts"], true);
    assert!(value["puzzles"][0]["results"][0]["restarts"].is_u64());

    let output = run(
        &[
            "compare",
            &path("sudoku/16x16.txt"),
            "--engines",
            "dlx",
            "--no-restarts",
            "-q",
        ],
        "",
    );
    assert!(stdout(&output).contains("no restarts"));
    assert_eq!(code(&run(&["solve", "--seed", "-1"], "")), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `xc --knuth` walks dlx1's tree and counts updates as Knuth does: the 8-queens row of the
/// "Dancing Links" table; without it, the faster tree and our own count.
#[test]
fn xc_knuth_gives_the_papers_statistics() {
    let file = path("queens8_knuth.dlx");
    let json = |extra: &[&str]| -> Value {
        let mut args = vec!["xc", file.as_str(), "--count", "--json", "-q"];
        args.extend_from_slice(extra);
        let output = run(&args, "");
        assert_eq!(code(&output), 0, "{}", stderr(&output));
        serde_json::from_str(stdout(&output).trim()).unwrap()
    };
    let knuth = json(&["--knuth"]);
    assert_eq!(
        (
            knuth["solutions"].as_u64(),
            knuth["nodes"].as_u64(),
            knuth["updates"].as_u64()
        ),
        (Some(92), Some(1049), Some(16680))
    );
    let ours = json(&[]);
    assert_eq!(ours["solutions"], 92);
    assert_ne!(ours["nodes"], knuth["nodes"]);
    assert_eq!(
        code(&run(&["xc", file.as_str(), "--knuth", "-j", "2"], "")),
        2
    );
    // One thread, the default, is what --knuth and --restarts do: asking for it is no conflict.
    let one_thread = json(&["--knuth", "-j", "1"]);
    for field in ["solutions", "nodes", "updates"] {
        assert_eq!(one_thread[field], knuth[field], "{field}");
    }
    for flag in ["--knuth", "--restarts"] {
        let output = run(
            &["xc", file.as_str(), "--count", flag, "--threads", "1"],
            "",
        );
        assert_eq!(code(&output), 0, "{flag}: {}", stderr(&output));
        assert_eq!(stdout(&output).trim(), "92", "{flag}");
        assert_eq!(
            code(&run(&["xc", file.as_str(), flag, "-j", "0"], "")),
            2,
            "{flag}"
        );
    }
}

/// A puzzle given up still has its attempts and checks counted in `--stats`, beside the line
/// that says it was given up, and the exit code says something failed.
#[test]
fn generate_stats_count_the_puzzles_given_up() {
    let (code, out, err) = run_text(
        &[
            "generate",
            "--score",
            "9.0..",
            "--attempts",
            "5",
            "-n",
            "3",
            "-j",
            "1",
            "--stats",
        ],
        "",
    );
    assert_eq!(code, 1);
    assert_eq!(out.lines().filter(|l| l.starts_with("error: ")).count(), 3);
    assert!(err.contains("0 made, 3 given up"), "{err}");
    let given_up = (err.lines())
        .find_map(|l| l.strip_prefix("given up: "))
        .expect("a line for the puzzles given up");
    assert!(given_up.starts_with("15 attempts, "), "{given_up}");
    let checks: u64 = given_up
        .split(", ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(checks >= 15, "every attempt checks removals: {given_up}");
}

// --- the guide's table of shared flags ---

/// The long flags a subcommand's `--help` defines (the first words of its option lines).
fn defined_flags(subcommand: &str) -> BTreeSet<String> {
    let out = run(&[subcommand, "--help"], "");
    assert_eq!(code(&out), 0, "{subcommand} --help");
    stdout(&out)
        .lines()
        .filter(|line| line.trim_start().starts_with('-'))
        .flat_map(|line| line.split_whitespace())
        .filter(|word| word.starts_with("--"))
        .map(|word| {
            word.split(['<', '[', '=', ','])
                .next()
                .unwrap_or(word)
                .to_string()
        })
        .collect()
}

/// The table "which subcommand takes which" in docs/guide.md promises each marked shared
/// flag, and marks each shared flag a subcommand takes: the two agree for every subcommand.
#[test]
fn the_guide_table_of_shared_flags_matches_every_subcommand() {
    let guide = std::fs::read_to_string(crate::support::root().join("docs/guide.md")).unwrap();
    let mut rows = guide
        .lines()
        .skip_while(|l| !l.starts_with("| | `-j` |"))
        .take_while(|l| l.starts_with('|'));
    let header: Vec<&str> = rows.next().expect("the table").split('|').collect();
    let flags_of = |column: &str| -> Vec<&'static str> {
        match column.trim() {
            "`-j`" => vec!["--threads"],
            "`-q`" => vec!["--quiet"],
            "`--json`" => vec!["--json"],
            "`--limit`" => vec!["--limit"],
            "budgets" => vec!["--node-budget", "--time-budget"],
            "`--seed`" => vec!["--seed"],
            "`--box`, `--input`" => vec!["--box", "--input"],
            "`--variant`" => vec!["--variant"],
            "`--engine`" => vec!["--engine"],
            "`--stats`" => vec!["--stats"],
            other => panic!("a column the test does not know: {other}"),
        }
    };
    let mut checked = BTreeSet::new();
    for row in rows.skip(1) {
        let cells: Vec<&str> = row.split('|').collect();
        let subcommand = cells[1].trim().trim_matches('`');
        let defined = defined_flags(subcommand);
        // The columns between the name and "its own".
        for (i, column) in header.iter().enumerate().take(header.len() - 2).skip(2) {
            let cell = cells[i].trim();
            for flag in flags_of(column) {
                // A cell may name the one flag of its column the subcommand takes (`--box`),
                // or what the flag takes there (`PATH`).
                let promised = cell == "●" || cell == "`PATH`" || cell == format!("`{flag}`");
                assert_eq!(
                    promised,
                    defined.contains(flag),
                    "{subcommand} {flag}: the table says {cell:?}, --help lists {defined:?}"
                );
            }
        }
        checked.insert(subcommand.to_string());
    }
    let out = run(&["--help"], "");
    let subcommands: BTreeSet<String> = stdout(&out)
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert_eq!(checked, subcommands, "every subcommand has a row");
}
