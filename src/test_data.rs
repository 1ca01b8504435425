//! Where the data-set tests find the public data sets: `$QUADRILLE_DATA`, else `../shared/data`
//! beside the crate.
//!
//! The library's unit tests use this module, and `tests/support` and `benches/data` include
//! this same file by path, so that every data test looks in one place and treats a missing set
//! one way: a skip that says so on stderr, past the test harness's capture, or a failure when
//! `QUADRILLE_REQUIRE_DATA=1` (which `.ci/run` sets when the directory is there), so that no data
//! test can pass without reading its data.

#![allow(dead_code)] // each includer uses part of it

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The data directory: `$QUADRILLE_DATA` if set, else `../shared/data` from the repository's
/// root.
pub fn data_dir() -> PathBuf {
    std::env::var_os("QUADRILLE_DATA")
        .map_or_else(|| repository().join("../shared/data"), PathBuf::from)
}

/// The repository's root: the crate's own folder, or its parent for the integration tests'
/// package (`tests/`), which includes this file too.
pub fn repository() -> &'static Path {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("src/test_data.rs").is_file())
        .unwrap_or(manifest)
}

/// The path of the data set `name`, or `None` after a `skipped:` note when it is not there.
///
/// # Panics
/// When the set is not there and `QUADRILLE_REQUIRE_DATA=1`.
pub fn data_set(name: &str) -> Option<PathBuf> {
    let path = data_dir().join(name);
    if path.is_file() {
        return Some(path);
    }
    let required = std::env::var_os("QUADRILLE_REQUIRE_DATA").is_some_and(|v| v == "1");
    assert!(
        !required,
        "{name} not found at {}, and QUADRILLE_REQUIRE_DATA=1",
        path.display()
    );
    // Straight to stderr: the harness captures `eprintln!` of a passing test, and a skip must
    // show.
    let _ = writeln!(
        std::io::stderr(),
        "skipped: {name} not found at {}",
        path.display()
    );
    None
}

/// The text of the data set `name`; `None` as [`data_set`] says.
///
/// # Panics
/// As [`data_set`], and when the set is there but cannot be read.
pub fn data_text(name: &str) -> Option<String> {
    let path = data_set(name)?;
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    Some(text)
}
