//! The balance of the parts that `--threads N` hands out: each part of the split that
//! `Dlx::count_parallel` makes for N threads is counted on this thread, and the parts, in the
//! order the threads take them (one at a time, whichever thread is free), are scheduled
//! greedily on N simulated workers. Prints the parts, the largest part's share and the
//! simulated makespan's share of the total updates (a simulation: the split runs before any
//! part, so its updates are added to the makespan).
//!
//! `cargo run --release --example part_balance -- fixtures/pentominoes_6x10.dlx 16`

use std::process::ExitCode;

use quadrille::exact_cover::Dlx;
use quadrille::io::dlx::read_problem;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(workers)) = (args.get(1), args.get(2).and_then(|n| n.parse().ok()))
    else {
        eprintln!("usage: part_balance FILE.dlx WORKERS");
        return ExitCode::from(2);
    };
    let workers: usize = workers;
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(1);
        }
    };
    let problem = match read_problem(std::io::BufReader::new(file)) {
        Ok(problem) => problem,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(1);
        }
    };
    let mut dlx = Dlx::new(problem.problem());
    let (split, parts) = dlx.part_stats(workers);
    let updates: Vec<u64> = parts.iter().map(|s| s.updates).collect();
    let total = split.updates + updates.iter().sum::<u64>();
    let largest = updates.iter().copied().max().unwrap_or(0);
    // Greedy list scheduling in the hand-out order: each part to the worker free first.
    let mut free = vec![0u64; workers.max(1)];
    for &u in &updates {
        let first = (0..free.len())
            .min_by_key(|&w| (free[w], w))
            .expect("a worker");
        free[first] += u;
    }
    let makespan = split.updates + free.iter().copied().max().unwrap_or(0);
    let solutions: u64 = split.solutions + parts.iter().map(|s| s.solutions).sum::<u64>();
    println!(
        "{} parts for {workers} threads, {solutions} solutions, {total} updates (the split's {})",
        parts.len(),
        split.updates
    );
    println!(
        "largest part: {largest} updates, 1/{:.1} of the total",
        total as f64 / largest.max(1) as f64
    );
    println!(
        "simulated makespan on {workers} workers: {makespan} updates, 1/{:.2} of the total",
        total as f64 / makespan.max(1) as f64
    );
    ExitCode::SUCCESS
}
