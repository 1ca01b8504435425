//! `generate` to order: minimal, symmetric unique puzzles per second on one thread, by shape
//! and by the engine of the uniqueness checks (`default`: none named, so 9x9 checks run on
//! bitboards and 16x16 on the CSP; `csp` and `dlx` force that engine for every check).
//!
//! One iteration makes a fixed run of seeds with one reused [`Generator`] (as each thread of
//! `quadrille generate` does); criterion's "elem/s" is puzzles per second.
//!
//! `cargo bench --bench generate -- generate/9x9 --warm-up-time 1 --measurement-time 3`; the
//! 16x16 strict group (#10's floor of 1 s a puzzle), four puzzles an iteration:
//! `cargo bench --bench generate -- generate/16x16/rot180/givens --warm-up-time 1`.
//!
//! Measured so under load 7 (puzzles a second, default / csp / dlx): minimal per orbit 9,394 /
//! 3,452 / 2,021; minimal per given (with the repairs of `generate/strict.rs`) 301 / 219 / 88.
//! On a quiet machine the command line made 496 to 520 strictly minimal puzzles a second
//! (`quadrille generate --minimal -n 1000 -j 1 --seed 1 --stats`; see the README).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quadrille::engine::Engine;
use quadrille::generate::{Generator, Minimality, Order, Symmetry};
use quadrille::sudoku::Shape;

/// Makes `seeds` puzzles to `order`; returns their givens, so that nothing is optimised away.
fn make(generator: &mut Generator, seeds: u64) -> usize {
    (0..seeds)
        .map(|seed| {
            generator
                .generate(seed, |_| Some(()))
                .expect("made")
                .0
                .puzzle
                .givens()
        })
        .sum()
}

fn bench(c: &mut Criterion, name: &str, shape: Shape, seeds: u64, engines: &[Option<Engine>]) {
    for minimal in [Minimality::Orbits, Minimality::Givens] {
        let mut group = c.benchmark_group(format!("generate/{name}"));
        group.throughput(Throughput::Elements(seeds));
        if shape.size() > 9 || minimal == Minimality::Givens {
            group.sample_size(10);
        }
        for &engine in engines {
            // Per given costs a second or so a puzzle above 9x9: the default checks only.
            if minimal == Minimality::Givens && shape.size() > 9 && engine.is_some() {
                continue;
            }
            let order = Order {
                symmetry: Symmetry::Rot180,
                minimal,
                engine,
                ..Order::new(shape)
            };
            let mut generator = Generator::new(&order).expect("a valid order");
            let engine = engine.map_or("default".to_string(), |e| e.to_string());
            let id = format!("rot180/{}/{engine}", minimal.name());
            group.bench_function(id, |b| b.iter(|| black_box(make(&mut generator, seeds))));
        }
        group.finish();
    }
}

fn generate(c: &mut Criterion) {
    let csp = Some(Engine::Csp(Default::default()));
    let engines = [None, csp, Some(Engine::Dlx)];
    bench(c, "9x9", Shape::CLASSIC, 100, &engines);
    bench(c, "16x16", Shape::new(4, 4).unwrap(), 4, &engines);
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(5));
    targets = generate
}
criterion_main!(benches);
