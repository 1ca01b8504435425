//! The balance of the 6x10 pentominoes' count across 16 shards and 16 threads (issue 45).
//! The longest test of the suite, in a module named to sort first: the test harness starts
//! tests in the order of their names, and this one, started last, ran alone on one core for
//! the end of every CI run.

use quadrille::Budget;
use quadrille::exact_cover::Dlx;

/// Greedy list scheduling of `sizes`, in order, on `workers` workers: each to the worker free
/// first. Returns the makespan.
fn greedy_makespan(sizes: &[u64], workers: usize) -> u64 {
    let mut free = vec![0u64; workers];
    for &size in sizes {
        let first = (0..workers).min_by_key(|&w| (free[w], w)).unwrap();
        free[first] += size;
    }
    free.into_iter().max().unwrap()
}

/// The 16 shards of the 6x10 pentominoes, through the request the CLI's `--shard i/16` makes,
/// merge to the 2,339 x 4 tilings, and the largest holds at most 1/12 of the updates (1/12.1 at
/// 12d1c49; issue 45 asks for 1/14, which the estimates do not reach: docs/performance.md).
/// The parts that 16 threads take one at a time, scheduled greedily in that order, finish
/// within 1/14 of the updates. Updates are deterministic, so the bounds are exact checks.
/// Two searches of the board, about 25 s of CPU in the test profile; the only count of the
/// board in the tests.
#[test]
fn sixteen_shards_and_threads_of_the_6x10_pentominoes_are_balanced() {
    use quadrille::request::ShardRequest;
    let problem = crate::support::fixture_problem("pentominoes_6x10.dlx");
    let mut links = Dlx::new(&problem);
    let records: Vec<_> = (1..=16)
        .map(|shard| {
            let request = ShardRequest {
                shard,
                shards: 16,
                budget: Budget::unlimited(),
            };
            request.run(&mut links).unwrap()
        })
        .collect();
    assert!(records.iter().all(|r| r.complete));
    let solutions: num_bigint::BigUint = records.iter().map(|r| r.solutions.clone()).sum();
    assert_eq!(solutions, 9_356u32.into());
    let total: u128 = records.iter().map(|r| r.updates).sum();
    let largest = records.iter().map(|r| r.updates).max().unwrap();
    assert!(
        12 * largest <= total,
        "largest shard 1/{:.2}",
        total as f64 / largest as f64
    );

    let (split, parts) = links.part_stats(16);
    let solutions = split.solutions + parts.iter().map(|s| s.solutions).sum::<u64>();
    let nodes = split.nodes + parts.iter().map(|s| s.nodes).sum::<u64>();
    // The nodes of one plain search (`xc --count --json -j1`, docs/performance.md's table):
    // a third search of the board here would cost CI ten seconds.
    assert_eq!((solutions, nodes), (9_356, 4_280_102));
    let updates: Vec<u64> = parts.iter().map(|s| s.updates).collect();
    let total = split.updates + updates.iter().sum::<u64>();
    let makespan = split.updates + greedy_makespan(&updates, 16);
    assert!(
        14 * makespan <= total,
        "makespan 1/{:.2}",
        total as f64 / makespan as f64
    );
}
