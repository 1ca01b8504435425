//! Exact-cover benchmarks: `Dlx::count` on classic problems, the link representation of `Dlx`
//! (32-bit offsets in one block) against `Cell` references (`reference_links`), counting
//! on two threads, and a chain of forced choices.
//!
//! Run with `cargo bench --bench exact_cover` (a filter such as `-- links/` picks a group).
//! Each problem's setup runs once, checks the solution count, and prints the engine's search
//! nodes and link updates so that the times can be read against the work done.
//!
//! The pentomino and Langford counts take a second or more per iteration, so they are sampled
//! flat, ten samples of one or a few iterations each.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, criterion_group, criterion_main};
use quadrille::Budget;
use quadrille::exact_cover::{CountSink, Dlx, Problem, ProblemBuilder, Stats};
use quadrille::problems::{langford, pentominoes, queens};
use typed_arena::Arena;

#[path = "reference_links/mod.rs"]
mod reference_links;

use reference_links::{Counts, RefDlx};

/// A benchmark problem and its known number of solutions.
struct Case {
    name: &'static str,
    problem: Problem,
    solutions: u64,
    /// Roughly how many seconds one count takes (one thread, idle machine): decides how the
    /// group samples it.
    seconds: f64,
}

fn queens_12() -> Case {
    Case {
        name: "queens_12",
        problem: queens(12).expect("a valid problem"),
        solutions: 14_200,
        seconds: 0.05,
    }
}

fn pentominoes_6x10() -> Case {
    Case {
        name: "pentominoes_6x10",
        problem: pentominoes(6, 10).expect("a valid problem"),
        // Every tiling counted with its rotations and reflections (2339 x 4).
        solutions: 9_356,
        seconds: 5.0,
    }
}

fn langford_12() -> Case {
    Case {
        name: "langford_12",
        problem: langford(12).expect("a valid problem"),
        // 108,144 arrangements up to reversal (OEIS A014552); the search counts each twice.
        solutions: 216_288,
        seconds: 0.7,
    }
}

/// Sets a group up for one problem: ten flat samples (one iteration each for the pentominoes)
/// when a count takes more than a tenth of a second.
fn configure(group: &mut BenchmarkGroup<'_, WallTime>, case: &Case) {
    if case.seconds > 0.1 {
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs_f64(10.0 * case.seconds));
    } else {
        group
            .sampling_mode(SamplingMode::Auto)
            .sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(8));
    }
}

/// Counts with Knuth's item choice, the one `RefDlx` implements.
fn count_knuth(dlx: &mut Dlx) -> Stats {
    dlx.search(&Budget::unlimited(), CountSink::new(None)).stats
}

fn same_counts(stats: &Stats, counts: &Counts) -> bool {
    (
        stats.nodes,
        stats.updates,
        stats.solutions,
        stats.backtracks,
    ) == (
        counts.nodes,
        counts.updates,
        counts.solutions,
        counts.backtracks,
    )
}

/// Before any timing: the two representations agree with each other and with the known counts
/// on small problems, to the last node and update.
fn check_small() {
    for (name, problem, solutions) in [
        ("queens_8", queens(8), 92),
        ("pentominoes_3x20", pentominoes(3, 20), 8),
        ("langford_7", langford(7), 52),
    ] {
        let problem = problem.expect("a valid problem");
        let stats = count_knuth(&mut Dlx::new(&problem));
        let arena = Arena::with_capacity(RefDlx::node_count(&problem));
        let counts = RefDlx::new(&arena, &problem).count();
        assert_eq!(stats.solutions, solutions, "{name}: Dlx count");
        assert_eq!(counts.solutions, solutions, "{name}: reference count");
        assert!(
            same_counts(&stats, &counts),
            "{name}: the two representations walked different trees: {stats:?} vs {counts:?}"
        );
    }
}

/// `count/*`: `Dlx::count` as users call it (MRV stopping at the first forced item).
fn count(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    for case in [pentominoes_6x10(), queens_12(), langford_12()] {
        configure(&mut group, &case);
        let mut dlx: Option<Dlx> = None;
        group.bench_function(case.name, |b| {
            let dlx = dlx.get_or_insert_with(|| {
                let mut dlx = Dlx::new(&case.problem);
                let stats = dlx.count(None).stats;
                assert_eq!(stats.solutions, case.solutions, "{}", case.name);
                eprintln!(
                    "count/{}: {} solutions, {} nodes, {} updates, {} dead ends",
                    case.name, stats.solutions, stats.nodes, stats.updates, stats.backtracks
                );
                dlx
            });
            b.iter(|| black_box(dlx.count(None).stats.solutions));
        });
    }
    group.finish();
}

/// `links/offsets` against `links/references`: the same search (Knuth's item choice) on each
/// representation.
fn links(c: &mut Criterion) {
    check_small();
    let mut group = c.benchmark_group("links");
    for case in [queens_12(), pentominoes_6x10()] {
        configure(&mut group, &case);

        let mut dlx: Option<Dlx> = None;
        group.bench_function(format!("offsets/{}", case.name), |b| {
            let dlx = dlx.get_or_insert_with(|| {
                let mut dlx = Dlx::new(&case.problem);
                let stats = count_knuth(&mut dlx);
                assert_eq!(stats.solutions, case.solutions, "{}", case.name);
                eprintln!(
                    "links/offsets/{}: {} solutions, {} nodes, {} updates",
                    case.name, stats.solutions, stats.nodes, stats.updates
                );
                dlx
            });
            b.iter(|| black_box(count_knuth(dlx).solutions));
        });

        let arena = Arena::with_capacity(RefDlx::node_count(&case.problem));
        let mut links: Option<RefDlx<'_>> = None;
        group.bench_function(format!("references/{}", case.name), |b| {
            let links = links.get_or_insert_with(|| {
                let mut links = RefDlx::new(&arena, &case.problem);
                let counts = links.count();
                let stats = count_knuth(&mut Dlx::new(&case.problem));
                assert_eq!(counts.solutions, case.solutions, "{}", case.name);
                assert!(
                    same_counts(&stats, &counts),
                    "{}: {stats:?} vs {counts:?}",
                    case.name
                );
                eprintln!(
                    "links/references/{}: {} solutions, {} nodes, {} updates (same as offsets)",
                    case.name, counts.solutions, counts.nodes, counts.updates
                );
                links
            });
            b.iter(|| black_box(links.count().solutions));
        });
    }
    group.finish();
}

/// `parallel/*`: `Dlx::count_parallel` on two threads.
fn parallel(c: &mut Criterion) {
    let mut group = c.benchmark_group("parallel");
    let case = pentominoes_6x10();
    configure(&mut group, &case);
    let two_threads = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a thread pool");
    let mut dlx: Option<Dlx> = None;
    group.bench_function(format!("{}_2_threads", case.name), |b| {
        let dlx = dlx.get_or_insert_with(|| {
            let mut dlx = Dlx::new(&case.problem);
            let stats = two_threads
                .install(|| dlx.count_parallel(None, &Budget::unlimited()))
                .stats;
            assert_eq!(stats.solutions, case.solutions, "{}", case.name);
            eprintln!(
                "parallel/{}: {} solutions, {} nodes, {} updates on 2 threads",
                case.name, stats.solutions, stats.nodes, stats.updates
            );
            dlx
        });
        b.iter(|| {
            two_threads.install(|| {
                black_box(
                    dlx.count_parallel(None, &Budget::unlimited())
                        .stats
                        .solutions,
                )
            })
        });
    });
    group.finish();
}

/// A chain of `n` items, each with one option of its own: one solution, `n` forced choices.
/// Each choice costs O(1) (the scans start at the floor of the active items), so the time per
/// item stays flat from 10,000 to 100,000 items; before the floor it grew with `n`.
fn forced_chain(c: &mut Criterion) {
    let mut group = c.benchmark_group("forced_chain");
    for n in [10_000usize, 100_000] {
        let mut builder = ProblemBuilder::new();
        let items: Vec<usize> = (0..n)
            .map(|i| builder.primary(&format!("i{i}")).unwrap())
            .collect();
        for item in items {
            builder.option([item]).unwrap();
        }
        let mut dlx = Dlx::new(&builder.build().unwrap());
        assert_eq!(dlx.count(None).stats.solutions, 1);
        group.throughput(criterion::Throughput::Elements(n as u64));
        group.bench_function(n.to_string(), |b| {
            b.iter(|| black_box(dlx.count(None).stats.nodes));
        });
    }
    group.finish();
}

criterion_group!(benches, count, links, parallel, forced_chain);
criterion_main!(benches);
