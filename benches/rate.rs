//! The logical rater (`quadrille::logic`): one iteration rates a slice of the 17-clue set (the
//! speed target: all 49,158 on two threads in 30 s, i.e. at most 1.2 ms a puzzle a thread) and
//! of the forum-hardest 11+ set, with one reused `LogicSolver`, as `quadrille rate` does per
//! thread. µs/puzzle is the time per iteration over the slice size.
//!
//! The data sets live in `../shared/data` from the crate root (or `$QUADRILLE_DATA`); when the
//! directory is missing the bench prints a note and does nothing.
//!
//! `cargo bench --bench rate -- rate --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quadrille::logic::{Ending, LogicSolver};
use quadrille::sudoku::{Grid, Shape};

#[path = "data/mod.rs"]
mod data;
use data::load;

/// Rates every puzzle and returns the sum of the scores in tenths, so nothing is optimised
/// away.
fn rate_all(solver: &mut LogicSolver, puzzles: &[Grid]) -> u64 {
    puzzles
        .iter()
        .map(|p| u64::from(solver.rate(black_box(p)).tenths))
        .sum()
}

fn rate(c: &mut Criterion) {
    for (file, label, sample) in [
        ("puzzles2_17_clue", "17-clue", 1000),
        ("puzzles5_forum_hardest_1905_11+", "hardest-11+", 50),
    ] {
        let Some(puzzles) = load(file, sample) else {
            return;
        };
        let mut solver = LogicSolver::new(Shape::CLASSIC);
        // Warm-up that validates: every puzzle is solved.
        for p in &puzzles {
            assert_eq!(solver.rate(p).ending, Ending::Solved, "{p}");
        }
        let mut group = c.benchmark_group(format!("rate/{label}"));
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.sample_size(10);
        group.bench_function("logic", |b| b.iter(|| rate_all(&mut solver, &puzzles)));
        group.finish();
    }
}

criterion_group!(benches, rate);
criterion_main!(benches);
