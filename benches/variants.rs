//! Sudoku variants end to end: read each fixture file of `fixtures/variants/` (its header names
//! the variant), build each puzzle's solver from its board, count up to 2. Jigsaw and killer
//! puzzles bring their own boards, so building the solver is part of every puzzle's cost.
//!
//! `cargo bench --bench variants -- variants/killer --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use quadrille::Budget;
use quadrille::engine::{Engine, Solve, Solver};
use quadrille::io::puzzle::{Layout, PuzzleReader};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/fixtures/variants/{name}.txt",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Reads every puzzle of `text`, and counts its solutions up to 2 with a solver built for it.
fn solve_all(text: &str, engine: Engine) -> u64 {
    PuzzleReader::new(text.as_bytes(), None, Layout::Line)
        .map(|puzzle| {
            let puzzle = puzzle.expect("the fixtures are well formed");
            let mut solver =
                Solver::new(engine, puzzle.board()).expect("DLX and the CSP take every board");
            solver
                .count(&puzzle.grid, Some(2), &Budget::unlimited())
                .solutions
        })
        .sum()
}

fn variants(c: &mut Criterion) {
    for name in ["x", "windoku", "jigsaw", "killer"] {
        let text = fixture(name);
        let mut group = c.benchmark_group(format!("variants/{name}"));
        for engine in ["dlx", "csp", "csp:mrv-degree+lex+alldiff"] {
            let engine: Engine = engine.parse().expect("a known engine");
            group.bench_function(engine.to_string(), |b| {
                b.iter(|| black_box(solve_all(black_box(&text), engine)))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, variants);
criterion_main!(benches);
