//! CSP solver benchmarks: the default configuration on samples of the 17-clue and
//! forum-hardest (11+) sets, and every preset on smaller samples. One iteration solves the
//! whole sample (count up to 2, as a uniqueness check would), so µs/puzzle is the time per
//! iteration divided by the sample size; criterion's throughput line shows puzzles/s.
//!
//! The data sets live in `../shared/data` from the crate root (or `$QUADRILLE_DATA`); when the
//! directory is missing the benches print a note and do nothing.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quadrille::csp::{Config, CspSolver};
use quadrille::engine::Solve;
use quadrille::sudoku::{Grid, Shape};
use quadrille::{Budget, Stop};

#[path = "data/mod.rs"]
mod data;
use data::load;

/// Solves every puzzle (count up to 2) and returns the total solutions, so nothing is
/// optimised away and a wrong solver would show in the validation below.
fn run(solver: &mut CspSolver, puzzles: &[Grid], budget: &Budget) -> u64 {
    puzzles
        .iter()
        .map(|p| solver.count(black_box(p), Some(2), budget).solutions)
        .sum()
}

fn bench_set(c: &mut Criterion, file: &str, label: &str, configs: &[Config], sample: usize) {
    let Some(puzzles) = load(file, sample) else {
        return;
    };
    let mut group = c.benchmark_group(format!("csp/{label}"));
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.sample_size(10);
    // Weak configurations can take millions of nodes on one puzzle; cap each puzzle.
    let budget = Budget::nodes(100_000);
    for &config in configs {
        let mut solver = CspSolver::new(Shape::CLASSIC.board(), config);
        // Warm-up that validates (every puzzle in these sets has exactly one solution) and
        // prints the counts that do not depend on the machine, for docs/performance.md.
        let (mut nodes, mut stopped) = (0, 0);
        for puzzle in &puzzles {
            let outcome = solver.count(puzzle, Some(2), &budget);
            nodes += outcome.nodes;
            match outcome.stop {
                Stop::Exhausted => assert_eq!(outcome.solutions, 1, "{config} {puzzle}"),
                _ => stopped += 1,
            }
        }
        println!(
            "csp/{label}/{config}: {:.1} nodes per puzzle, {stopped} of {} stopped by the budget",
            nodes as f64 / puzzles.len() as f64,
            puzzles.len()
        );
        group.bench_function(config.to_string(), |b| {
            b.iter(|| run(&mut solver, &puzzles, &budget))
        });
    }
    group.finish();
}

fn default_config(c: &mut Criterion) {
    let default = [Config::default()];
    bench_set(c, "puzzles2_17_clue", "17-clue-1000", &default, 1000);
    bench_set(
        c,
        "puzzles5_forum_hardest_1905_11+",
        "hardest-11+-200",
        &default,
        200,
    );
}

fn presets(c: &mut Criterion) {
    let presets = Config::presets();
    bench_set(c, "puzzles2_17_clue", "presets-17-clue-100", &presets, 100);
    bench_set(
        c,
        "puzzles5_forum_hardest_1905_11+",
        "presets-hardest-11+-50",
        &presets,
        50,
    );
}

criterion_group!(benches, default_config, presets);
criterion_main!(benches);
