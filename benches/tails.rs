//! Heavy tails: random puzzles near the hardness peak, made with fixed seeds, solved by DLX and
//! the CSP (default and `alldiff`), counting up to 2, with the default restarts (DLX learns
//! from its conflicts on Sudoku from 16x16 up; the report adds DLX with learning switched the
//! other way).
//!
//! The sets are `random_puzzle` grids with cells blanked at random (no uniqueness), where the
//! search cost peaks: 16x16 Sudoku with 150, 175 and 190 blanks of 256, 25x25 with 300, 380
//! and 450 of 625, and Latin squares of order 20 and 30 (near-uniform, by Jacobson and
//! Matthews) with 42% of the cells blank, the peak of "quasigroup with holes" (Achlioptas,
//! Gomes, Kautz, Selman 2000). Puzzle i of a set has seed i, 1-based, as with
//! `quadrille generate --seed 1`.
//!
//! Without restarts some of these puzzles take minutes, so every search has a budget of
//! [`BUDGET`]; a puzzle that runs out is *undecided* and costs the whole budget. The targets: every puzzle
//! decided within 100 ms, mean at most 5 ms.
//!
//! Before measuring, one pass over every set and engine prints worst case, mean and undecided
//! count (this also warms up). For that table alone, without criterion:
//!
//! `TAILS_REPORT_ONLY=1 cargo bench --bench tails`
//!
//! and for the full measurement `cargo bench --bench tails` (criterion prints time per set,
//! and per puzzle as "elem/s").

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use quadrille::Budget;
use quadrille::engine::{DlxSolver, Engine, Solve, Solver};
use quadrille::generate::random_puzzle;
use quadrille::sudoku::{Grid, Shape};

/// The budget of one search: the target's 100 ms, so that a puzzle over it shows as undecided
/// and the bench cannot hang.
const BUDGET: Duration = Duration::from_millis(100);

/// One set: `count` puzzles of `shape` with `blanks` empty cells, seeds 1..=count.
struct Set {
    name: &'static str,
    box_rows: usize,
    box_cols: usize,
    blanks: usize,
    count: u64,
}

const SETS: [Set; 9] = [
    set("16x16_150", 4, 4, 150, 40),
    set("16x16_175", 4, 4, 175, 40),
    set("16x16_190", 4, 4, 190, 40),
    set("25x25_300", 5, 5, 300, 20),
    // The hardest blank count we found for 25x25.
    set("25x25_340", 5, 5, 340, 20),
    set("25x25_380", 5, 5, 380, 20),
    set("25x25_450", 5, 5, 450, 20),
    // 42% of 400 and of 900.
    set("latin20_168", 1, 20, 168, 30),
    set("latin30_378", 1, 30, 378, 30),
];

const fn set(name: &'static str, r: usize, c: usize, blanks: usize, count: u64) -> Set {
    Set {
        name,
        box_rows: r,
        box_cols: c,
        blanks,
        count,
    }
}

impl Set {
    fn shape(&self) -> Shape {
        Shape::new(self.box_rows, self.box_cols).expect("the sets' shapes are valid")
    }

    fn puzzles(&self) -> Vec<Grid> {
        let shape = self.shape();
        let givens = shape.cell_count() - self.blanks;
        (1..=self.count)
            .map(|seed| random_puzzle(shape, seed, givens))
            .collect()
    }
}

fn engines() -> [Engine; 3] {
    [
        Engine::Dlx,
        Engine::Csp(Default::default()),
        Engine::Csp("mrv-degree+lex+alldiff".parse().expect("a valid CSP name")),
    ]
}

/// The solvers of a set, named: the engines, and DLX with learning turned the other way from
/// its default for the shape (`dlx/learning` or `dlx/no-learning`), to show what it does.
fn solvers(shape: Shape) -> Vec<(String, Solver)> {
    let mut out: Vec<(String, Solver)> = (engines().into_iter())
        .map(|engine| {
            (
                engine.to_string(),
                Solver::sudoku(engine, shape).expect("DLX and the CSP take every shape"),
            )
        })
        .collect();
    let mut dlx = DlxSolver::sudoku(shape);
    let learning = !dlx.learning();
    dlx.set_learning(learning);
    let name = if learning {
        "dlx/learning"
    } else {
        "dlx/no-learning"
    };
    out.push((name.to_string(), Solver::Dlx(dlx)));
    out
}

/// Solves every puzzle within the budget; returns the undecided count.
fn solve_set(solver: &mut Solver, puzzles: &[Grid]) -> usize {
    let budget = Budget::time(BUDGET);
    (puzzles.iter())
        .filter(|puzzle| solver.count(puzzle, Some(2), &budget).stop.is_budget())
        .count()
}

/// One pass over every set and engine: worst case, mean and undecided puzzles.
fn report() {
    println!(
        "{:<12} {:<34} {:>5} {:>10} {:>10} {:>10}",
        "set", "engine", "count", "worst ms", "mean ms", "undecided"
    );
    let budget = Budget::time(BUDGET);
    for set in &SETS {
        let puzzles = set.puzzles();
        for (name, mut solver) in solvers(set.shape()) {
            let outcomes: Vec<_> = (puzzles.iter())
                .map(|puzzle| solver.count(puzzle, Some(2), &budget))
                .collect();
            let ms = |o: &quadrille::engine::Outcome| o.elapsed.as_secs_f64() * 1e3;
            let worst = outcomes.iter().map(ms).fold(0.0, f64::max);
            let mean = outcomes.iter().map(ms).sum::<f64>() / outcomes.len() as f64;
            let undecided = outcomes.iter().filter(|o| o.stop.is_budget()).count();
            println!(
                "{:<12} {:<34} {:>5} {:>10.2} {:>10.2} {:>10}",
                set.name,
                name,
                puzzles.len(),
                worst,
                mean,
                undecided
            );
        }
    }
}

fn tails(c: &mut Criterion) {
    report();
    if std::env::var_os("TAILS_REPORT_ONLY").is_some() {
        return;
    }
    for engine in engines() {
        let mut group = c.benchmark_group(format!("tails/{engine}"));
        // Iterations are long (up to count * 100 ms): one flat sample each, few of them.
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(5));
        for set in &SETS {
            let puzzles = set.puzzles();
            let mut solver =
                Solver::sudoku(engine, set.shape()).expect("DLX and the CSP take every shape");
            group.throughput(Throughput::Elements(set.count));
            group.bench_function(set.name, |b| {
                b.iter(|| black_box(solve_set(&mut solver, &puzzles)))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, tails);
criterion_main!(benches);
