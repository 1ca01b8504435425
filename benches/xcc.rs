//! Colours and multiplicities: `Xcc::count` (Knuth's Algorithm M) on problems that need it,
//! and on a plain problem beside `Dlx::count`, to show what the general links cost where the
//! tuned ones serve.
//!
//! Run with `cargo bench --bench xcc`. Each setup checks its count before it is timed.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use quadrille::exact_cover::{Dlx, Problem, ProblemBuilder, Xcc};
use quadrille::problems::queens;

/// Latin squares of order `n` with colours: rows and columns need each digit once (primary),
/// a cell is a secondary item coloured by its digit. 161,280 of order 5 (OEIS A002860).
fn latin_colours(n: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    for kind in ["r", "c"] {
        for line in 0..n {
            for digit in 0..n {
                b.primary(&format!("{kind}{line}_{digit}")).unwrap();
            }
        }
    }
    for i in 0..n {
        for j in 0..n {
            b.secondary(&format!("x{i}_{j}")).unwrap();
        }
    }
    for i in 0..n {
        for j in 0..n {
            for d in 0..n {
                let option = [
                    format!("r{i}_{d}"),
                    format!("c{j}_{d}"),
                    format!("x{i}_{j}:{d}"),
                ];
                b.option_by_names(option).unwrap();
            }
        }
    }
    b.build().unwrap()
}

fn count(c: &mut Criterion) {
    let mut group = c.benchmark_group("xcc");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));

    let latin = latin_colours(5);
    let mut xcc = Xcc::new(&latin);
    assert_eq!(xcc.count(None).stats.solutions, 161_280);
    group.bench_function("latin_5_colours", |b| {
        b.iter(|| black_box(xcc.count(None).stats.solutions))
    });

    let plain = queens(10).unwrap();
    let mut dlx = Dlx::new(&plain);
    let mut general = Xcc::new(&plain);
    assert_eq!(general.count(None).stats.solutions, 724);
    assert_eq!(dlx.count(None).stats.solutions, 724);
    group.bench_function("queens_10/dlx", |b| {
        b.iter(|| black_box(dlx.count(None).stats.solutions))
    });
    group.bench_function("queens_10/xcc", |b| {
        b.iter(|| black_box(general.count(None).stats.solutions))
    });
    group.finish();
}

criterion_group!(benches, count);
criterion_main!(benches);
