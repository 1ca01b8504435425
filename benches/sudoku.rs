//! Sudoku benchmarks on the public data sets in `../shared/data` or `$QUADRILLE_DATA` (skipped,
//! with a note, when absent).
//!
//! Every measurement goes end to end through the library, as a user's program would: parse
//! the line, count solutions up to 2, and write the solution as a line. One iteration solves a
//! fixed sample of a data set; the figure to read is the median time divided by the sample size
//! (criterion prints the per-puzzle throughput as "elem/s").
//!
//! `cargo bench --bench sudoku`

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quadrille::batch::{self, Parallelism};
use quadrille::engine::{Engine, Solve, Solver};
use quadrille::io::puzzle::{Layout, PuzzleReader, parse_line};
use quadrille::sudoku::Shape;
use quadrille::{Budget, Request};

#[path = "data/mod.rs"]
mod data;

/// Parses, counts up to 2 and formats every line with one solver.
fn solve_lines(solver: &mut Solver, lines: &[String], out: &mut String) -> u64 {
    let mut solutions = 0;
    for line in lines {
        let grid = parse_line(line, Some(Shape::CLASSIC)).expect("data sets are well formed");
        let outcome = solver.count(&grid, Some(2), &Budget::unlimited());
        solutions += outcome.solutions;
        out.clear();
        if let Some(solution) = &outcome.solution {
            solution.write_line(out);
        }
    }
    solutions
}

fn engines(c: &mut Criterion, engine: Engine, sets: &[(&str, &str, usize)]) {
    let mut group = c.benchmark_group(format!("sudoku/{engine}"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for &(name, file, count) in sets {
        let Some(lines) = data::lines(file, count) else {
            continue;
        };
        let mut solver = Solver::sudoku(engine, Shape::CLASSIC).expect("every engine takes 9x9");
        let mut out = String::new();
        // Warm-up that also validates: every puzzle of these sets has a solution.
        let solved = solve_lines(&mut solver, &lines, &mut out);
        assert!(solved >= lines.len() as u64, "{name}: unsolved puzzles");
        group.throughput(Throughput::Elements(lines.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| black_box(solve_lines(&mut solver, &lines, &mut out)))
        });
    }
    group.finish();
}

fn dlx(c: &mut Criterion) {
    engines(
        c,
        Engine::Dlx,
        &[
            ("17_clue", "puzzles2_17_clue", 5000),
            ("forum_hardest_11+", "puzzles5_forum_hardest_1905_11+", 500),
        ],
    );
}

fn csp_default(c: &mut Criterion) {
    engines(
        c,
        Engine::Csp(Default::default()),
        &[
            ("17_clue", "puzzles2_17_clue", 5000),
            ("forum_hardest_11+", "puzzles5_forum_hardest_1905_11+", 500),
        ],
    );
}

fn bitboard(c: &mut Criterion) {
    engines(
        c,
        Engine::Bitboard,
        &[
            ("17_clue", "puzzles2_17_clue", 5000),
            ("forum_hardest_11+", "puzzles5_forum_hardest_1905_11+", 500),
        ],
    );
}

/// The batch runner on one thread and on two, over the same text: the speed-up of the
/// streaming, ordered, parallel path.
fn batch_threads(c: &mut Criterion) {
    let Some(lines) = data::lines("puzzles2_17_clue", 20_000) else {
        return;
    };
    let text = lines.join("\n");
    let mut group = c.benchmark_group("batch/17_clue");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(lines.len() as u64));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let request = Request {
            limit: Some(2),
            ..Request::default()
        };
        group.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| {
                pool.install(|| {
                    let reader = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
                    let mut out = String::new();
                    let summary = batch::solve(
                        reader,
                        Engine::Dlx,
                        &request,
                        Parallelism::AcrossPuzzles,
                        |record| {
                            out.clear();
                            if let Some(solution) = record
                                .result
                                .as_ref()
                                .ok()
                                .and_then(|s| s.outcome.solution.as_ref())
                            {
                                solution.write_line(&mut out);
                            }
                            Ok(())
                        },
                    )
                    .expect("in-memory input");
                    assert_eq!(summary.unique, lines.len());
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, dlx, csp_default, bitboard, batch_threads);
criterion_main!(benches);
