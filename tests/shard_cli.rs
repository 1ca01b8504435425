//! `--estimate`, `--shard` and `quadrille merge` on the command line, and the cluster recipe of
//! the README run with GNU parallel when it is installed, else `xargs -P`.

use std::process::{Command, Output};

use rand::{RngExt, SeedableRng};
use serde_json::Value;

use crate::cli::{bin, run};
use crate::support::fixture;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn json(output: &Output) -> Value {
    serde_json::from_str(text(&output.stdout).trim()).unwrap()
}

/// The `--json` lines of every shard of `args` split `n` ways.
fn shard_lines(args: &[&str], stdin: &str, n: usize) -> String {
    let mut lines = String::new();
    for i in 1..=n {
        let spec = format!("{i}/{n}");
        let mut all = args.to_vec();
        all.extend(["--shard", &spec, "--json", "-q"]);
        let output = run(&all, stdin);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let line = text(&output.stdout);
        assert_eq!(line.lines().count(), 1);
        let record: Value = serde_json::from_str(line.trim()).unwrap();
        assert!(record["solutions"].is_u64(), "an integer: {line}");
        lines.push_str(&line);
    }
    lines
}

#[test]
fn merged_xc_shards_give_the_single_process_count() {
    for (file, count) in [
        ("langford7.dlx", 52),
        ("queens8.dlx", 92),
        ("pentominoes_3x20.dlx", 8),
    ] {
        let file = fixture(file);
        // Shards walk the plain tree; a count that tries remembering first walks more.
        let whole = run(
            &["xc", &file, "--count", "--json", "-q", "--memo", "off"],
            "",
        );
        assert_eq!(json(&whole)["solutions"], count);
        for n in [1, 2, 5] {
            let lines = shard_lines(&["xc", &file], "", n);
            let merged = run(&["merge", "--json"], &lines);
            assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
            let merged = json(&merged);
            assert_eq!(merged["solutions"], count, "{file}, {n} shards");
            assert_eq!(merged["nodes"], json(&whole)["nodes"], "{file}, {n} shards");
            assert_eq!(merged["complete"], true);
        }
    }
}

#[test]
fn merged_count_shards_give_the_single_process_count() {
    // A 6x6 puzzle with the first row given: 28,200,960 / 720 = 39,168 grids.
    let puzzle = format!("123456{}\n", ".".repeat(30));
    let whole = run(&["count", "--json"], &puzzle);
    assert_eq!(json(&whole)["solutions"], 39_168);
    for n in [3, 8] {
        let lines = shard_lines(&["count"], &puzzle, n);
        let merged = run(&["merge"], &lines);
        assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
        assert_eq!(text(&merged.stdout), "39168\n");
    }
    let two = run(
        &["count", "--shard", "1/2"],
        &format!("1{0}\n{0}.\n", ".".repeat(15)),
    );
    assert_eq!(
        two.status.code(),
        Some(2),
        "one puzzle only: {}",
        text(&two.stderr)
    );
}

#[test]
fn merge_refuses_mixed_problems_and_splits_and_names_missing_and_duplicated_shards() {
    let langford = shard_lines(&["xc", &fixture("langford7.dlx")], "", 3);
    let queens = shard_lines(&["xc", &fixture("queens8.dlx")], "", 3);
    let langford_4 = shard_lines(&["xc", &fixture("langford7.dlx")], "", 4);
    let lines: Vec<&str> = langford.lines().collect();

    let mixed = format!("{}\n{}\n", lines[0], queens.lines().nth(1).unwrap());
    let output = run(&["merge"], &mixed);
    assert_eq!(output.status.code(), Some(1));
    let message = text(&output.stderr);
    assert!(
        message.contains("shard 2 (<stdin>, line 2) has problem")
            && message.contains("shard 1 (<stdin>, line 1) has "),
        "{message}"
    );
    // From two files, each record is named by its file and line.
    let dir = std::env::temp_dir().join(format!("quadrille-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("langford.jsonl"), dir.join("queens.jsonl"));
    std::fs::write(&a, format!("{}\n", lines[0])).unwrap();
    std::fs::write(&b, queens.lines().nth(1).unwrap()).unwrap();
    let output = run(&["merge", a.to_str().unwrap(), b.to_str().unwrap()], "");
    std::fs::remove_dir_all(&dir).unwrap();
    let message = text(&output.stderr);
    assert!(
        message.contains(&format!("({}, line 1) has problem", b.display()))
            && message.contains(&format!("({}, line 1) has ", a.display())),
        "{message}"
    );

    let splits = format!("{}\n{}\n", lines[0], langford_4.lines().nth(1).unwrap());
    let output = run(&["merge"], &splits);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("shard count"),
        "{}",
        text(&output.stderr)
    );

    let twice = format!("{}\n{}\n{}\n{}\n", lines[0], lines[1], lines[1], lines[2]);
    let output = run(&["merge"], &twice);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr)
            .contains("shard 2 given twice: (<stdin>, line 2) and (<stdin>, line 3)"),
        "{}",
        text(&output.stderr)
    );

    let partial = format!("{}\n{}\n", lines[0], lines[2]);
    let output = run(&["merge", "--json"], &partial);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("partial merge, not a total"));
    assert!(text(&output.stderr).contains("missing shard 2"));
    let merged = json(&output);
    assert_eq!(
        (merged["partial"].clone(), merged["missing"].clone()),
        (Value::Bool(true), serde_json::json!([2]))
    );
    let output = run(&["merge"], &partial);
    assert!(
        text(&output.stdout).ends_with("+\n"),
        "a partial sum is a lower bound"
    );

    let bad = format!("{}\n{{\"shard\": 1}}\n", lines[0]);
    let output = run(&["merge"], &bad);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("line 2"),
        "{}",
        text(&output.stderr)
    );
    let record: Value = serde_json::from_str(lines[0]).unwrap();
    let solutions = format!("\"solutions\":{},", record["solutions"]);
    let float = lines[0].replace(&solutions, &solutions.replace(',', ".5,"));
    assert_ne!(float, lines[0]);
    let output = run(&["merge"], &float);
    assert_eq!(output.status.code(), Some(1), "a float is not a count");
}

#[test]
fn a_shard_cut_short_by_its_budget_makes_the_merge_partial() {
    let file = fixture("queens8.dlx");
    let mut lines = shard_lines(&["xc", &file], "", 2);
    lines = lines.lines().next().unwrap().to_string() + "\n";
    // The plan's nodes are the budget's too: three more than them cut the shard short.
    let dlx = quadrille::io::dlx::parse_problem(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let planning = quadrille::exact_cover::Dlx::new(dlx.problem())
        .shard_plan(2)
        .planning_nodes();
    let budget = (planning + 3).to_string();
    let output = run(
        &[
            "xc",
            &file,
            "--shard",
            "2/2",
            "--json",
            "-q",
            "--node-budget",
            &budget,
        ],
        "",
    );
    let record = json(&output);
    assert_eq!(record["complete"], false);
    lines.push_str(&text(&output.stdout));
    let merged = run(&["merge", "--json"], &lines);
    assert_eq!(merged.status.code(), Some(1));
    assert_eq!(json(&merged)["incomplete"], serde_json::json!([2]));
}

#[test]
fn estimate_json_has_intervals_and_a_seed_reproduces_it() {
    let file = fixture("queens8.dlx");
    let a = run(
        &["xc", &file, "--estimate", "3000", "--seed", "5", "--json"],
        "",
    );
    assert_eq!(a.status.code(), Some(0), "{}", text(&a.stderr));
    let b = run(
        &["xc", &file, "--estimate", "3000", "--seed", "5", "--json"],
        "",
    );
    let (a, b) = (json(&a), json(&b));
    for key in [
        "solutions",
        "solutions_interval",
        "nodes",
        "nodes_interval",
        "updates",
    ] {
        assert_eq!(a[key], b[key], "{key}");
    }
    let interval = a["solutions_interval"].as_array().unwrap();
    let (low, high) = (interval[0].as_f64().unwrap(), interval[1].as_f64().unwrap());
    assert!(low <= 92.0 && 92.0 <= high, "{a}");
    assert_eq!(
        a["exact_solutions"], 92,
        "the timed sample finishes so small a tree"
    );
    let other = json(&run(
        &["xc", &file, "--estimate", "3000", "--seed", "6", "--json"],
        "",
    ));
    assert_ne!(a["nodes"], other["nodes"]);
    let grid = run(
        &["count", "--estimate", "500", "--json"],
        &format!("{}\n", ".".repeat(36)),
    );
    let grid = json(&grid);
    assert!(grid["seconds"].as_f64().unwrap() > 0.0);
    assert!(grid["solutions_interval"][1].as_f64().unwrap() > 1e6);
}

/// A time budget stops the probes of an estimate (here of more probes than a day holds), which
/// then says how many it took and that the budget stopped it; with the same seed, those probes
/// are the first of the whole estimate.
#[test]
fn a_time_budget_stops_an_estimate_and_it_says_so() {
    let file = fixture("queens8.dlx");
    let start = std::time::Instant::now();
    let args = [
        "xc",
        &file,
        "--estimate",
        "1000000000000",
        "--time-budget",
        "1",
        "--json",
    ];
    let stopped = run(&args, "");
    let elapsed = start.elapsed();
    assert_eq!(stopped.status.code(), Some(0), "{}", text(&stopped.stderr));
    let stopped = json(&stopped);
    assert_eq!(stopped["stop"], "time_budget", "{stopped}");
    assert_eq!(stopped["probes_asked"], 1_000_000_000_000u64);
    let taken = stopped["probes"].as_u64().unwrap();
    assert!(0 < taken && taken < 1_000_000_000_000, "{stopped}");
    // Stopped, not run to the end: a bound far from the days the probes asked for would take,
    // wide enough for a loaded machine.
    assert!(elapsed.as_secs() < 30, "{elapsed:?}");
    let probes = taken.to_string();
    let whole = json(&run(&["xc", &file, "--estimate", &probes, "--json"], ""));
    assert_eq!(whole["stop"], "exhausted");
    assert_eq!(
        (whole["probes"].clone(), whole["nodes"].clone()),
        (stopped["probes"].clone(), stopped["nodes"].clone())
    );
    // The text says it too, for count as for xc.
    let grid = run(
        &["count", "--estimate=1000000000000", "--time-budget", "0.5"],
        &format!("{}\n", ".".repeat(36)),
    );
    assert_eq!(grid.status.code(), Some(0), "{}", text(&grid.stderr));
    assert!(
        text(&grid.stdout).contains("the time budget stopped it before the 1000000000000 asked"),
        "{}",
        text(&grid.stdout)
    );
}

/// A node budget bounds the nodes the probes walk (issue 41, item 9: it bounded only the timed
/// sample, and a million probes ran on): the estimate stops before the probe that would pass
/// it, says so, and its probes are the first of the whole estimate's.
#[test]
fn a_node_budget_stops_an_estimate_and_it_says_so() {
    let empty = format!("{}\n", ".".repeat(256));
    let args = [
        "count",
        "--estimate",
        "1000000",
        "--node-budget",
        "1000",
        "--json",
    ];
    let stopped = run(&args, &empty);
    assert_eq!(stopped.status.code(), Some(0), "{}", text(&stopped.stderr));
    let stopped = json(&stopped);
    assert_eq!(stopped["stop"], "node_budget", "{stopped}");
    // A probe walks at least its root, and at most the 257 levels of the empty 16x16.
    let taken = stopped["probes"].as_u64().unwrap();
    assert!((1000 / 257..=1000).contains(&taken), "{stopped}");
    let probes = taken.to_string();
    let whole = json(&run(&["count", "--estimate", &probes, "--json"], &empty));
    assert_eq!(whole["stop"], "exhausted");
    assert_eq!(whole["nodes"], stopped["nodes"]);
    let said = run(
        &["count", "--estimate", "1000000", "--node-budget", "1000"],
        &empty,
    );
    assert!(
        text(&said.stdout).contains("the node budget stopped it before the 1000000 asked"),
        "{}",
        text(&said.stdout)
    );
}

/// The README's recipe: every shard as its own process, four at a time, then the merge.
#[test]
fn the_readme_recipe_runs_with_parallel_or_xargs() {
    let dir = std::env::temp_dir().join(format!("quadrille-recipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = fixture("langford7.dlx");
    let has_parallel = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let bin = bin();
    let script = if has_parallel {
        format!(
            "parallel -j 2 '{bin} xc {file} --shard {{}}/6 --json -q > shard-{{}}.json' ::: $(seq 1 6) && {bin} merge shard-*.json"
        )
    } else {
        format!(
            "seq 1 6 | xargs -P 2 -I{{}} sh -c '{bin} xc {file} --shard {{}}/6 --json -q > shard-{{}}.json' && {bin} merge shard-*.json"
        )
    };
    let output = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(&dir)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{script}: {}",
        text(&output.stderr)
    );
    assert_eq!(text(&output.stdout), "52\n");
}

/// 10,000 options: far more than the parts of a split. Not more: the test binary, built with
/// debug assertions, checks the links after the search of each option, over all of them.
#[test]
fn an_item_of_10000_options_counts_on_two_threads_and_honours_the_time_budget() {
    let mut problem = String::from("a | t0 t1 t2\n");
    for i in 0..10_000 {
        problem.push_str(&format!("a t{}\n", i % 3));
    }
    let one = json(&run(&["xc", "--count", "--json", "-j", "1"], &problem));
    let two = json(&run(&["xc", "--count", "--json", "-j", "2"], &problem));
    assert_eq!(one["solutions"], 10_000);
    assert_eq!(
        (two["solutions"].clone(), two["nodes"].clone()),
        (one["solutions"].clone(), one["nodes"].clone())
    );
    assert_eq!(two["complete"], true);
    let cut = json(&run(
        &["xc", "--count", "--json", "-j", "2", "--time-budget", "0"],
        &problem,
    ));
    assert_eq!(
        (cut["complete"].clone(), cut["stop"].clone()),
        (Value::Bool(false), Value::from("time-budget"))
    );
    assert!(cut["solutions"].as_u64().unwrap() < 10_000);
}

/// A count stopped by a node budget (as Ctrl-C would stop it) and resumed from its checkpoint
/// gives the uninterrupted count, without recounting the shards the file holds.
#[test]
fn a_checkpointed_count_stopped_and_resumed_gives_the_uninterrupted_count() {
    let dir = std::env::temp_dir().join(format!("quadrille-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("count.jsonl");
    let file = file.to_str().unwrap();
    let puzzle = format!("123456{}\n", ".".repeat(30));
    let whole = json(&run(&["count", "--json"], &puzzle));
    assert_eq!(whole["solutions"], 39_168);

    // The checkpoint's plan takes its nodes from the budget first.
    let grid = quadrille::io::puzzle::parse_line(puzzle.trim_end(), None).unwrap();
    let planning = quadrille::engine::DlxSolver::links(grid.shape().board(), &grid)
        .shard_plan(quadrille::long_count::SHARDS)
        .planning_nodes();
    let first = json(&run(
        &[
            "count",
            "--checkpoint",
            file,
            "--json",
            "--node-budget",
            &(planning + 30_000).to_string(),
        ],
        &puzzle,
    ));
    assert_eq!(
        (first["complete"].clone(), first["stop"].clone()),
        (Value::Bool(false), Value::from("node-budget"))
    );
    let saved = std::fs::read_to_string(file).unwrap().lines().count();
    assert!(saved > 0 && saved < 128, "{saved} shards saved");
    assert!(first["solutions"].as_u64().unwrap() < 39_168);
    // A stop in the middle of a write leaves half a line: it is dropped and counted again.
    let mut torn = std::fs::read_to_string(file).unwrap();
    torn.push_str("{\"shard\":12");
    std::fs::write(file, torn).unwrap();

    let second = run(
        &["count", "--checkpoint", file, "--json", "-j", "2"],
        &puzzle,
    );
    assert_eq!(second.status.code(), Some(0), "{}", text(&second.stderr));
    let second = json(&second);
    assert_eq!(second["solutions"], 39_168);
    assert_eq!(second["complete"], true);
    assert_eq!(second["shards_resumed"], saved);
    // The file now holds every shard: merge adds them up to the same count.
    let merged = run(&["merge", file], "");
    assert_eq!(text(&merged.stdout), "39168\n");
    // A checkpoint of another problem is refused.
    let other = run(
        &["count", "--checkpoint", file],
        &format!("654321{}\n", ".".repeat(30)),
    );
    assert_eq!(other.status.code(), Some(1));
    assert!(
        text(&other.stderr).contains("another problem"),
        "{}",
        text(&other.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A finished checkpoint of the 8 queens in a fresh directory: the directory (removed by the
/// caller) and the file.
fn finished_checkpoint(name: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("quadrille-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("queens8.jsonl").to_str().unwrap().to_string();
    let output = run(
        &[
            "xc",
            &fixture("queens8.dlx"),
            "--count",
            "--checkpoint",
            &file,
        ],
        "",
    );
    assert_eq!(text(&output.stdout), "92\n", "{}", text(&output.stderr));
    (dir, file)
}

/// Issue 41, item 12: an edited count in a finished checkpoint was summed on resume and by
/// `merge` (exit 0). Every record carries a checksum of its fields; an edited record, or one
/// without a checksum, is refused at its line, and a resume leaves the file as it was.
#[test]
fn a_record_edited_after_it_was_written_is_refused_at_its_line() {
    let (dir, file) = finished_checkpoint("edited");
    let written = std::fs::read_to_string(&file).unwrap();
    let count = || {
        run(
            &[
                "xc",
                &fixture("queens8.dlx"),
                "--count",
                "--checkpoint",
                &file,
            ],
            "",
        )
    };
    // Unedited, it resumes and merges to the count.
    assert_eq!(text(&count().stdout), "92\n");
    assert_eq!(text(&run(&["merge", &file], "").stdout), "92\n");

    // The second record's solutions, raised: as a count of 13 queens raised to 196,535, and
    // past 2^64.
    let mut lines: Vec<String> = written.lines().map(String::from).collect();
    let solutions = serde_json::from_str::<Value>(&lines[1]).unwrap()["solutions"].clone();
    let second = lines[1].clone();
    for edit in ["1000", "99999999999999999999999"] {
        lines[1] = second.replace(
            &format!("\"solutions\":{solutions},"),
            &format!("\"solutions\":{edit},"),
        );
        assert_ne!(lines[1], second);
        let edited = lines.join("\n") + "\n";
        std::fs::write(&file, &edited).unwrap();
        let resumed = count();
        assert_eq!(resumed.status.code(), Some(1), "{}", text(&resumed.stdout));
        assert_eq!(text(&resumed.stdout), "");
        let message = text(&resumed.stderr);
        assert!(
            message.starts_with(&format!("quadrille: {file}: line 2: not a shard result: "))
                && message.contains("checksum"),
            "{message}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), edited);
        let merged = run(&["merge", &file], "");
        assert_eq!(merged.status.code(), Some(1));
        assert_eq!(text(&merged.stdout), "");
        assert_eq!(
            text(&merged.stderr),
            message,
            "merge says what a resume says"
        );
    }

    // A flipped `complete`, and a record without its checksum, as written before records had
    // one.
    let flipped = written.replacen("\"complete\":true", "\"complete\":false", 1);
    let merged = run(&["merge"], &flipped);
    assert_eq!(merged.status.code(), Some(1));
    assert!(
        text(&merged.stderr)
            .starts_with("quadrille: <stdin>: line 1: not a shard result: the checksum"),
        "{}",
        text(&merged.stderr)
    );
    let first = written.lines().next().unwrap();
    let unchecked = &first[..first.find(",\"checksum\"").unwrap()];
    let merged = run(&["merge"], &format!("{unchecked}}}\n"));
    assert_eq!(merged.status.code(), Some(1));
    assert!(
        text(&merged.stderr).starts_with(
            "quadrille: <stdin>: line 1: not a shard result: the record has no checksum"
        ),
        "{}",
        text(&merged.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 41, item 13: `merge` refused a checkpoint whose last line a stop had cut short
/// mid-write, which a resume leaves out. It leaves it out too, says so, and exits 1 when the
/// sum is then partial.
#[test]
fn merge_leaves_out_a_last_line_cut_mid_write_and_says_so() {
    let (dir, file) = finished_checkpoint("cut");
    let written = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    let last = lines[127];
    let shard = serde_json::from_str::<Value>(last).unwrap()["shard"].clone();

    // The last record cut in its middle: its shard is missing.
    let cut = &written[..written.len() - 1 - last.len() / 2];
    std::fs::write(&file, cut).unwrap();
    let merged = run(&["merge", &file], "");
    assert_eq!(merged.status.code(), Some(1), "{}", text(&merged.stderr));
    assert!(
        text(&merged.stdout).ends_with("+\n"),
        "{}",
        text(&merged.stdout)
    );
    let message = text(&merged.stderr);
    assert!(
        message.starts_with(&format!(
            "quadrille: warning: {file}: line 128 ends in the middle of a record, cut short \
             mid-write: left out\n"
        )) && message.contains(&format!("127 of 128 shards, missing shard {shard}")),
        "{message}"
    );
    // A resume leaves out the same line, counts its shard again, and the merge is whole.
    let resumed = run(
        &[
            "xc",
            &fixture("queens8.dlx"),
            "--count",
            "--checkpoint",
            &file,
        ],
        "",
    );
    assert_eq!(text(&resumed.stdout), "92\n", "{}", text(&resumed.stderr));
    assert_eq!(text(&run(&["merge", &file], "").stdout), "92\n");

    // Half a copy of a record after a whole file: left out, and the sum is the total.
    let torn = format!("{written}{}", &lines[0][..lines[0].len() / 2]);
    let merged = run(&["merge"], &torn);
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
    assert_eq!(text(&merged.stdout), "92\n");
    assert!(
        text(&merged.stderr)
            .starts_with("quadrille: warning: <stdin>: line 129 ends in the middle of a record"),
        "{}",
        text(&merged.stderr)
    );
    // A whole last record without its line end is read, and a cut line that is not the last
    // (it has its line end) is refused at its line.
    let merged = run(&["merge"], written.trim_end());
    assert_eq!(
        (merged.status.code(), text(&merged.stdout)),
        (Some(0), "92\n".to_string())
    );
    let inner = written.replacen(lines[0], &lines[0][..lines[0].len() / 2], 1);
    let merged = run(&["merge"], &inner);
    assert_eq!(merged.status.code(), Some(1));
    assert!(
        text(&merged.stderr).starts_with("quadrille: <stdin>: line 1, column "),
        "{}",
        text(&merged.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 41, item 23: two counts on one checkpoint at once wrote their shards twice. A count
/// holds a lock on its checkpoint; one that finds it held (here by the test itself) is refused
/// at once, and leaves the file as it was.
#[test]
fn a_count_on_a_checkpoint_that_another_holds_is_refused_at_once() {
    let dir = std::env::temp_dir().join(format!("quadrille-locked-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("queens8.jsonl");
    let file = path.to_str().unwrap();
    // Some shards done, as a stopped count leaves them: 300 nodes past the plan's.
    let queens = quadrille::io::dlx::parse_problem(
        &std::fs::read_to_string(fixture("queens8.dlx")).unwrap(),
    )
    .unwrap();
    let planning = quadrille::exact_cover::Dlx::new(queens.problem())
        .shard_plan(quadrille::long_count::SHARDS)
        .planning_nodes();
    let budget = (planning + 300).to_string();
    let first = run(
        &[
            "xc",
            &fixture("queens8.dlx"),
            "--count",
            "--checkpoint",
            file,
            "--node-budget",
            &budget,
            "-j",
            "1",
        ],
        "",
    );
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let saved = std::fs::read(&path).unwrap();
    assert!(!saved.is_empty());

    let holder = std::fs::File::open(&path).unwrap();
    holder.try_lock().unwrap();
    for args in [
        vec![
            "xc",
            &fixture("queens8.dlx"),
            "--count",
            "--checkpoint",
            file,
        ],
        vec!["count", "--checkpoint", file],
    ] {
        let refused = run(&args, &format!("{}\n", ".".repeat(16)));
        assert_eq!(
            (refused.status.code(), text(&refused.stdout)),
            (Some(1), String::new()),
            "{args:?}"
        );
        assert_eq!(
            text(&refused.stderr),
            format!("quadrille: {file}: another count holds this checkpoint\n")
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            saved,
            "the file is untouched"
        );
    }
    // Released, the count resumes.
    drop(holder);
    let resumed = run(
        &[
            "xc",
            &fixture("queens8.dlx"),
            "--count",
            "--checkpoint",
            file,
        ],
        "",
    );
    assert_eq!(text(&resumed.stdout), "92\n", "{}", text(&resumed.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The large problem: 1,000 items (50 of them secondary), 100,000 options of three
/// items each, drawn by a fixed generator. Splitting its tree for 4 or for 128 shards walks
/// under 1,000 nodes and takes a few hundredths of a second here.
fn large_problem() -> String {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
    let mut next = |n: usize| rng.random_range(0..n);
    let primary: Vec<String> = (0..950).map(|i| format!("p{i}")).collect();
    let secondary: Vec<String> = (0..50).map(|i| format!("s{i}")).collect();
    let mut text = format!("{} | {}\n", primary.join(" "), secondary.join(" "));
    let all: Vec<&String> = primary.iter().chain(&secondary).collect();
    for _ in 0..100_000 {
        let mut items = vec![&primary[next(950)]];
        while items.len() < 3 {
            let item = all[next(1000)];
            if !items.contains(&item) {
                items.push(item);
            }
        }
        text.push_str(
            &items
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        );
        text.push('\n');
    }
    text
}

/// Shards, checkpoints and diagrams honour the time and node budgets while they split the
/// tree or build the diagram (issue 41, item 3: `--shard 1/4 --time-budget 2` ran 69 s on the
/// large problem and `--node-budget 10000` 67 s, the split's probes outside the budget). A
/// shard or a diagram is all or nothing, so a budget that runs out first is an error that
/// says so (exit 1); a checkpointed count counted nothing, the lower bound 0+, and its file is
/// left as it was.
#[test]
fn a_budget_stops_the_split_of_shards_and_the_building_of_a_diagram() {
    let large = large_problem();
    for (budget, value) in [("--time-budget", "0"), ("--node-budget", "100")] {
        let start = std::time::Instant::now();
        let output = run(&["xc", "-", "--shard", "1/4", budget, value], &large);
        // The split walks about 1,000 nodes; a stop at the budget is far inside this bound.
        assert!(
            start.elapsed().as_secs() < 30,
            "{budget}: {:?}",
            start.elapsed()
        );
        assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
        let which = &budget[2..6];
        assert!(
            text(&output.stderr).contains(&format!(
                "the {which} budget ran out while the tree was being split into shards, before the shard was counted"
            )),
            "{}",
            text(&output.stderr)
        );
        assert!(output.stdout.is_empty());
    }
    let unwritten =
        std::env::temp_dir().join(format!("quadrille-large-{}.jsonl", std::process::id()));
    let start = std::time::Instant::now();
    let output = run(
        &[
            "xc",
            "-",
            "--json",
            "--checkpoint",
            unwritten.to_str().unwrap(),
            "--node-budget",
            "100",
        ],
        &large,
    );
    assert!(
        !unwritten.exists(),
        "a count that split nothing wrote nothing"
    );
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
    let record = json(&output);
    assert_eq!(
        (
            record["stop"].clone(),
            record["shards_done"].clone(),
            record["solutions"].clone()
        ),
        ("node-budget".into(), 0.into(), 0.into()),
        "{record}"
    );

    let queens = fixture("queens8.dlx");
    let dir = std::env::temp_dir().join(format!("quadrille-split-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let output = run(&["xc", &queens, "--shard", "2/4", "--time-budget", "0"], "");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("the time budget ran out while the tree"));
    let checkpoint = dir.join("count.jsonl");
    let path = checkpoint.to_str().unwrap();
    let args = [
        "xc",
        &queens,
        "--checkpoint",
        path,
        "--json",
        "--time-budget",
        "0",
    ];
    let stopped = run(&args, "");
    assert_eq!(stopped.status.code(), Some(0), "{}", text(&stopped.stderr));
    let record = json(&stopped);
    assert_eq!(
        (record["complete"].clone(), record["shards_done"].clone()),
        (false.into(), 0.into())
    );
    assert_eq!(record["stop"], "time-budget");
    assert!(
        !checkpoint.exists(),
        "a count that split nothing wrote nothing"
    );
    let whole = json(&run(&["xc", &queens, "--checkpoint", path, "--json"], ""));
    assert_eq!(whole["solutions"], 92);

    for budget in [["--node-budget", "100"], ["--time-budget", "0"]] {
        let said = if budget[0] == "--node-budget" {
            "node"
        } else {
            "time"
        };
        let zdd = dir.join("count.zdd");
        let dominoes = fixture("dominoes_8x8.dlx");
        let stopped = run(
            &[
                "xc",
                &dominoes,
                "--zdd",
                zdd.to_str().unwrap(),
                budget[0],
                budget[1],
            ],
            "",
        );
        assert_eq!(stopped.status.code(), Some(1), "{}", text(&stopped.stderr));
        assert!(text(&stopped.stderr).contains(&format!(
            "the {said} budget ran out while the diagram was being built"
        )));
        assert!(!zdd.exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The shards of a count that remembers remember too (issue 42), and as the whole count does:
/// the 12x12 board, whose plain tree no enumeration finishes (about 740 years), in three
/// shards, shard 1 counting it whole by remembering in the nodes of one process's count and
/// the others nothing (remembered subproblems repeat across the whole tree), merged exactly
/// past 2^53; and its checkpointed count, whose 128 shards are planned alike, exact too.
#[test]
fn shards_of_a_remembered_count_remember_and_merge_exactly() {
    let file = fixture("dominoes_12x12.dlx");
    let whole = run(&["xc", &file, "--count", "--json", "-q", "-j1"], "");
    let whole_nodes = json(&whole)["nodes"].as_u64().unwrap();
    assert!(whole_nodes < 100_000, "{}", text(&whole.stdout));
    let mut lines = String::new();
    for i in 1..=3 {
        let spec = format!("{i}/3");
        let output = run(&["xc", &file, "--shard", &spec, "--json", "-q"], "");
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let record = json(&output);
        assert_eq!(record["complete"], true, "shard {spec}");
        let nodes = if i == 1 { whole_nodes } else { 0 };
        assert_eq!(record["nodes"], nodes, "shard {spec}: {record}");
        lines.push_str(&text(&output.stdout));
    }
    let merged = run(&["merge", "--json"], &lines);
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
    let merged = json(&merged);
    assert_eq!(merged["solutions"], "53060477521960000");
    assert_eq!(merged["complete"], true);

    let dir = std::env::temp_dir().join(format!("quadrille-remembered-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let checkpoint = dir.join("count.jsonl");
    let checkpoint = checkpoint.to_str().unwrap();
    let output = run(
        &["xc", &file, "--checkpoint", checkpoint, "--json", "-q"],
        "",
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let record = json(&output);
    assert_eq!(record["solutions"], "53060477521960000", "{record}");
    assert_eq!(
        (&record["complete"], &record["nodes"]),
        (&true.into(), &whole_nodes.into())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The empty 6x6 Sudoku's count remembers, and so do its shards: 4 shards of `count`, shard 1
/// counting the whole grid and the others nothing, merged to the 28,200,960 grids that one
/// process counts.
#[test]
fn shards_of_the_empty_6x6_grid_remember() {
    let empty = ".".repeat(36) + "\n";
    let whole = run(&["count", "--json", "-q"], &empty);
    assert_eq!(
        json(&whole)["why"],
        "remembering",
        "{}",
        text(&whole.stdout)
    );
    let mut lines = String::new();
    for i in 1..=4 {
        let spec = format!("{i}/4");
        let output = run(&["count", "--shard", &spec, "--json", "-q"], &empty);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let record = json(&output);
        assert_eq!(record["complete"], true, "shard {spec}");
        assert_eq!(
            record["nodes"].as_u64().unwrap() > 0,
            i == 1,
            "shard {spec}: {record}"
        );
        lines.push_str(&text(&output.stdout));
    }
    let merged = json(&run(&["merge", "--json"], &lines));
    assert_eq!(merged["solutions"], 28_200_960);
    assert_eq!(merged["complete"], true);
}

/// Issue 45: the shards of a count are of even size, from their own records: on the 3x20
/// pentominoes (8 solutions, 36,242 nodes) no shard of 8 holds more than 1.15 times the mean of
/// the updates, and the shards add up to one search's nodes and solutions. The 16 shards of the 6x10 pentominoes are measured by
/// `benches/peers/shard_balance.sh`.
#[test]
fn shards_of_a_count_are_of_even_size() {
    let file = fixture("pentominoes_3x20.dlx");
    let problem =
        quadrille::io::dlx::parse_problem(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let mut dlx = quadrille::exact_cover::Dlx::new(problem.problem());
    let whole = dlx.count(None).stats;
    assert_eq!((whole.solutions, whole.nodes), (8, 36_242));
    let shards = 8;
    let records: Vec<_> = (1..=shards)
        .map(|shard| {
            quadrille::request::ShardRequest {
                shard,
                shards,
                budget: quadrille::Budget::unlimited(),
            }
            .run(&mut dlx)
            .unwrap()
        })
        .collect();
    let total: u128 = records.iter().map(|r| r.updates).sum();
    let largest = records.iter().map(|r| r.updates).max().unwrap();
    let ratio = largest as f64 * shards as f64 / total as f64;
    assert!(
        ratio <= 1.15,
        "{shards} shards: the largest {ratio:.3} times the mean"
    );
    let nodes: u128 = records.iter().map(|r| r.nodes).sum();
    let solutions: num_bigint::BigUint = records.iter().map(|r| r.solutions.clone()).sum();
    assert_eq!((nodes, solutions), (36_242, 8u32.into()), "{shards} shards");
}
