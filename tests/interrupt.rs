//! A raised [`Interrupt`] stops every engine's search as a spent time budget does: a lower
//! bound (`N+`) or an undecided answer, never a wrong exact one. The flag is raised before the
//! search or from its sink, so no test depends on timing.

use std::sync::atomic::AtomicBool;

use quadrille::engine::{Engine, Solve, Solver};
use quadrille::exact_cover::{Control, CountSink, Dlx, Memo, MemoMode, Plan, Solution, Xcc};
use quadrille::generate::{Generator, Order};
use quadrille::io::puzzle::parse_line;
use quadrille::logic::{Ending, LogicSolver};
use quadrille::restart::Restarts;
use quadrille::sudoku::{Grid, Shape};
use quadrille::{Budget, ErrorKind, Interrupt, Stop, problems};

/// Raised once and never lowered, so that the tests that share it can run at once.
static RAISED: AtomicBool = AtomicBool::new(true);

fn interrupted() -> Budget {
    Budget::unlimited().interrupted_by(Interrupt::new(&RAISED))
}

/// `work`, on a pool of two threads: the split searches.
fn on_two_threads<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build();
    pool.unwrap().install(work)
}

/// The 14,200 solutions of 12 queens take some 60,000 nodes: far past the first clock reading.
const QUEENS_12: u64 = 14_200;

#[test]
fn dancing_links_searches_stop_with_a_lower_bound() {
    let problem = problems::queens(12).unwrap();
    let budget = interrupted();
    let mut dlx = Dlx::new(&problem);
    let before = dlx.link_fingerprint();
    let plans = [
        Plan::new(),
        Plan::new().restarts(Some(Restarts::new(1))).learning(true),
        Plan::new().restarts(Some(Restarts::new(1))),
    ];
    for plan in &plans {
        let report = dlx.run(plan, &budget, CountSink::new(None)).unwrap();
        assert_eq!(report.stop, Stop::TimeBudget, "{plan:?}");
        assert!(report.stats.solutions < QUEENS_12);
        let first_n = dlx
            .run(plan, &budget, CountSink::new(Some(10_000)))
            .unwrap();
        assert_eq!(first_n.stop, Stop::TimeBudget);
        assert_eq!(dlx.link_fingerprint(), before);
    }
    let all = dlx.count_all(&budget);
    assert_eq!(all.stop, Stop::TimeBudget);
    assert!(all.stats.solutions < QUEENS_12);
    let split = on_two_threads(|| dlx.count_parallel(None, &budget));
    assert_eq!(split.stop, Stop::TimeBudget);
    assert!(split.stats.solutions < QUEENS_12);
    // Unraised, the same flag changes nothing.
    static LOWERED: AtomicBool = AtomicBool::new(false);
    let watched = Budget::unlimited().interrupted_by(Interrupt::new(&LOWERED));
    let whole = dlx
        .run(&Plan::new(), &watched, CountSink::new(None))
        .unwrap();
    assert_eq!(
        (whole.stop, whole.stats.solutions),
        (Stop::Exhausted, QUEENS_12)
    );
}

#[test]
fn a_flag_raised_from_the_sink_stops_the_search_at_the_next_clock_reading() {
    static FROM_SINK: AtomicBool = AtomicBool::new(false);
    let interrupt = Interrupt::new(&FROM_SINK);
    let budget = Budget::unlimited().interrupted_by(interrupt);
    let mut dlx = Dlx::new(&problems::queens(12).unwrap());
    let mut seen = 0u64;
    let report = dlx.search(&budget, |_: &Solution<'_>| {
        seen += 1;
        interrupt.raise();
        Control::Continue
    });
    assert_eq!(report.stop, Stop::TimeBudget);
    assert_eq!(report.stats.solutions, seen);
    assert!((1..QUEENS_12).contains(&seen));
    // The first solution is met before node 1,024, and the search stops at the first
    // multiple of 1,024 after it.
    assert!(report.stats.nodes <= 2048, "{}", report.stats.nodes);
    interrupt.lower();
    assert!(!budget.is_interrupted());
}

#[test]
fn a_remembering_count_and_a_shard_stop_with_a_lower_bound() {
    let mut dlx = Dlx::new(&problems::pentominoes(6, 10).unwrap());
    let memo = Memo {
        mode: MemoMode::Always,
        ..Memo::default()
    };
    let counted = dlx.count_memo(&interrupted(), &memo);
    assert!(!counted.exact);
    assert_eq!(counted.report.stop, Stop::TimeBudget);
    assert!(counted.solutions < 9356u32.into());

    let mut queens = Dlx::new(&problems::queens(12).unwrap());
    let plan = queens.shard_plan(4);
    let mut solutions = 0;
    for shard in 1..=4 {
        let report = queens
            .run(
                &Plan::new().shard(&plan, shard),
                &interrupted(),
                CountSink::new(None),
            )
            .unwrap();
        assert_ne!(report.stop, Stop::Exhausted, "shard {shard}");
        solutions += report.stats.solutions;
    }
    assert!(solutions < QUEENS_12);
}

#[test]
fn colour_searches_stop_with_a_lower_bound() {
    let mut xcc = Xcc::new(&problems::queens(12).unwrap());
    let report = xcc.search(&interrupted(), CountSink::new(None));
    assert_eq!(report.stop, Stop::TimeBudget);
    assert!(report.stats.solutions < QUEENS_12);
    let split = on_two_threads(|| xcc.count_parallel(None, &interrupted()));
    assert_eq!(split.stop, Stop::TimeBudget);
}

#[test]
fn every_sudoku_engine_stops_with_a_lower_bound() {
    let empty = Grid::empty(Shape::CLASSIC);
    let engines = [Engine::Auto, Engine::Dlx, Engine::Bitboard]
        .into_iter()
        .chain(Engine::defaults());
    for engine in engines {
        let mut solver = Solver::sudoku(engine, Shape::CLASSIC).unwrap();
        for limit in [None, Some(1_000_000)] {
            let outcome = solver.count(&empty, limit, &interrupted());
            assert_eq!(outcome.stop, Stop::TimeBudget, "{engine} {limit:?}");
            assert!(!outcome.is_complete());
            assert!(outcome.solutions < 1_000_000);
        }
        let split = solver.count_split(&empty, None, &interrupted());
        assert_eq!(split.stop, Stop::TimeBudget, "{engine}");
    }
    // Larger than the bitboards: Dancing Links and the CSP, as auto picks them.
    let large = Grid::empty(Shape::new(4, 4).unwrap());
    let mut solver = Solver::sudoku(Engine::Auto, large.shape()).unwrap();
    assert_eq!(
        solver.count(&large, None, &interrupted()).stop,
        Stop::TimeBudget
    );
}

#[test]
fn the_logical_solver_ends_undecided() {
    // A puzzle that needs chains: far more than one step.
    let grid = parse_line(
        "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
        None,
    )
    .unwrap();
    let mut solver = LogicSolver::new(grid.shape());
    let rating = solver.rate_within(&grid, &interrupted());
    assert_eq!(rating.ending, Ending::Undecided(Stop::TimeBudget));
    let ending = solver.solve_within(&grid, true, &interrupted(), |_, _| true);
    assert_eq!(ending, Ending::Undecided(Stop::TimeBudget));
}

#[test]
fn a_generation_gives_up_as_when_its_time_is_up() {
    let mut generator = Generator::new(&Order::new(Shape::CLASSIC)).unwrap();
    generator.interrupted_by(Interrupt::new(&RAISED));
    let err = generator.generate(1, |_| Some(())).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::GaveUp {
                timed_out: true,
                ..
            }
        ),
        "{err}"
    );
}
