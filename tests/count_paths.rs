//! Every path of `count` (and of `xc --count`) gives the same count on every variant: piped or
//! on a terminal, on one thread or two, whole, in shards merged, checkpointed, and as the exact
//! count an estimate reports when its timed sample finishes. The terminal paths run the binary
//! with its standard error (and, once, its standard output too) on a pseudo-terminal, so that
//! the branches a person meets first are the ones tested.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::cli::{BIN, path, run_text};
use crate::support::open_pty;

/// One puzzle of each variant, with a count that the CSP engine, an independent search,
/// confirms in every test below. The last two are long counts (over the 2,000,000 nodes after
/// which a count on a terminal moves to shards with a progress bar).
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

        // On a terminal: standard error only, then standard output too.
        for args in [&["count", file][..], &["count", flag[0], flag[1]]] {
            let stdin = if args.contains(&file) { "" } else { &stdin };
            let (out, screen) = on_terminal(args, stdin, Terminal::Stderr);
            assert_eq!(
                out.trim(),
                expected,
                "{variant} {line}: {args:?} on a terminal"
            );
            // A long count moves to shards (and says so), a short one stays whole.
            assert_eq!(
                screen.contains("128 of 128 shards done"),
                i >= SHORT,
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

/// What a pseudo-terminal stands for.
#[derive(Clone, Copy, PartialEq)]
enum Terminal {
    /// Standard error, where the progress bars go; standard output is a pipe.
    Stderr,
    /// Both outputs, as when a person types the command.
    Both,
}

/// The lines a terminal shows, without the carriage returns and the escape sequences that a
/// progress bar leaves behind.
fn screen_lines(screen: &str) -> Vec<String> {
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
fn on_terminal(args: &[&str], stdin: &str, terminal: Terminal) -> (String, String) {
    let (master, slave) = open_pty();
    let stdout = match terminal {
        Terminal::Stderr => Stdio::piped(),
        Terminal::Both => Stdio::from(slave.try_clone().unwrap()),
    };
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::from(slave))
        .spawn()
        .expect("the binary runs");
    // The terminal is read as the child writes, so that it never fills.
    let screen = std::thread::spawn(move || {
        let mut master = std::fs::File::from(master);
        let mut bytes = Vec::new();
        // Linux ends a pseudo-terminal whose last writer closed it with EIO, not end of file.
        let _ = master.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let screen = screen.join().unwrap();
    assert_eq!(output.status.code(), Some(0), "{args:?}: {screen}");
    (String::from_utf8(output.stdout).unwrap(), screen)
}
