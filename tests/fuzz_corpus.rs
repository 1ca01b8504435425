//! The fuzz corpora (`fuzz/corpus/<target>/`), replayed without libFuzzer, so that stable CI
//! checks every input the fuzzers kept, through the same checks as the fuzz targets
//! (`tests/fuzz_checks.rs`). A failing input is named with its file.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use crate::fuzz_checks::{check_dlx, check_grid, check_line, check_records, check_solve};

fn corpus(target: &str) -> PathBuf {
    crate::support::root().join("fuzz/corpus").join(target)
}

/// Runs `check` on every file of the directory; fails naming every input that panics.
/// Returns the number of inputs.
fn replay(path: &Path, check: Check) -> usize {
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for file in &files {
        let data = std::fs::read(file).unwrap();
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| check(&data))) {
            let message = (panic.downcast_ref::<String>().cloned())
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{}: {message}", file.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing inputs:\n{}",
        failures.len(),
        failures.join("\n")
    );
    files.len()
}

/// A target's properties, checked on one input (panics when one fails).
type Check = fn(&[u8]);

fn replay_corpus(target: &str, check: Check) {
    let n = replay(&corpus(target), check);
    assert!(n > 0, "the {target} corpus is empty");
}

#[test]
fn fuzz_corpus_line() {
    replay_corpus("line", check_line);
}

#[test]
fn fuzz_corpus_grid() {
    replay_corpus("grid", check_grid);
}

#[test]
fn fuzz_corpus_dlx() {
    replay_corpus("dlx", check_dlx);
}

#[test]
fn fuzz_corpus_solve() {
    replay_corpus("solve", check_solve);
}

#[test]
fn fuzz_corpus_records() {
    replay_corpus("records", check_records);
}
