//! What counts too big for one machine cost before they start: the bounded split of an item of
//! many options on two threads, a shard plan (which every shard process makes again), and
//! Knuth's estimate.
//!
//! Run with `cargo bench --bench shard` (a filter such as `-- split/` picks a group).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use quadrille::Budget;
use quadrille::exact_cover::{Dlx, Problem, ProblemBuilder};
use quadrille::problems::queens;
use quadrille::sudoku::{Shape, encode};

/// One item of `options` options, each with one of three secondary items: one solution each.
fn wide(options: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    let a = b.primary("a").expect("a valid name");
    let tags: Vec<usize> = (0..3)
        .map(|i| b.secondary(&format!("t{i}")).expect("a valid name"))
        .collect();
    for i in 0..options {
        b.option([a, tags[i % 3]]).expect("declared items");
    }
    b.build().expect("a valid problem")
}

/// `split/*`: counting an item of 100,000 options on two threads (it took 22.6 s when each
/// option was its own frontier entry; one thread takes about a millisecond).
fn split(c: &mut Criterion) {
    let mut group = c.benchmark_group("split");
    let two_threads = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a thread pool");
    let mut dlx = Dlx::new(&wide(100_000));
    group.bench_function("wide_100000_2_threads", |b| {
        b.iter(|| {
            let report = two_threads.install(|| dlx.count_parallel(None, &Budget::unlimited()));
            assert_eq!(report.stats.solutions, 100_000);
            black_box(report.stats.nodes)
        })
    });
    group.finish();
}

/// `plan/*`: the shard plan of the empty 6x6 grid in 16 shards, paid once by every shard.
fn plan(c: &mut Criterion) {
    let mut group = c.benchmark_group("plan");
    let mut dlx = Dlx::new(&encode::problem(Shape::new(2, 3).expect("a shape").board()));
    dlx.track_dead_ends(true);
    group.bench_function("empty_6x6_16_shards", |b| {
        b.iter(|| black_box(dlx.shard_plan(16).fingerprint()))
    });
    group.finish();
}

/// `estimate/*`: 1,000 probes of 12 queens.
fn estimate(c: &mut Criterion) {
    let mut group = c.benchmark_group("estimate");
    let mut dlx = Dlx::new(&queens(12).expect("a valid problem"));
    group.bench_function("queens_12_1000_probes", |b| {
        b.iter(|| black_box(dlx.estimate(1_000, 1).solutions.estimate))
    });
    group.finish();
}

criterion_group!(benches, split, plan, estimate);
criterion_main!(benches);
