//! The binary that the integration tests (the package in this folder, tests.rs) run. Being a
//! test of the root package, this file has Cargo build `target/<profile>/quadrille`.

use std::process::Command;

#[test]
fn the_binary_runs_and_names_this_version() {
    let output = Command::new(env!("CARGO_BIN_EXE_quadrille"))
        .arg("--version")
        .output()
        .expect("the binary runs");
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!("quadrille {}\n", env!("CARGO_PKG_VERSION"))
    );
}
