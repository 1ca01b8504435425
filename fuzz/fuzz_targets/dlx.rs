//! `dlx`: Knuth's dlx text format (`quadrille::io::dlx::read_problem`) and, for small problems,
//! the dancing links built from what it reads.
//!
//! Checks, for any bytes:
//! - reading never panics; a problem read has one line number per option, increasing, after
//!   the item line; writing it (`problem_to_string`) and reading that gives the same problem;
//! - for problems of at most 30 options, with a budget of 10,000 nodes: the solution count of
//!   `Dlx::count_within`, of `Dlx::search` with dead-end tracking on, and of `search_with`
//!   `FirstItem` agree when the searches are complete; every solution handed out is an exact
//!   cover (each primary item once, each secondary item at most once) and none comes twice;
//!   every search leaves the links as built (`link_fingerprint`, `sanity`);
//! - forcing the last option and counting gives the solutions that contain it, and
//!   `release_all` restores the links, with and without `keep_copy`;
//! - for at most 16 options, the complete counts equal a brute-force count over subsets of
//!   options, and an incomplete count is at most it.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use quadrille::Budget;
use quadrille::exact_cover::{Control, Dlx, FirstItem, ItemKind, Problem, Solution};
use quadrille::io::dlx::{parse_problem, problem_to_string, read_problem};

const MAX_OPTIONS: usize = 30;
const BRUTE_MAX_OPTIONS: usize = 16;
const NODES: u64 = 10_000;

fuzz_target!(|data: &[u8]| {
    let Ok(read) = read_problem(data) else {
        return;
    };
    let problem = read.problem().clone();
    assert_eq!(read.option_lines().len(), problem.option_count());
    let mut previous = read.item_line();
    for &line in read.option_lines() {
        assert!(line > previous, "option line {line} after line {previous}");
        previous = line;
    }
    let text = problem_to_string(&problem);
    let again = parse_problem(&text).unwrap_or_else(|err| panic!("{text:?}: {err}"));
    assert_eq!(again.problem(), &problem, "{text:?}");

    let options = problem.option_count();
    if options > MAX_OPTIONS {
        return;
    }
    let budget = Budget::nodes(NODES);
    let mut dlx = Dlx::new(&problem);
    let built = dlx.link_fingerprint();
    assert_eq!(dlx.sanity(), Ok(()));

    // Counting only, minimum remaining values, no dead-end tracking.
    let counted = dlx.count_within(None, &budget);
    assert_eq!(dlx.link_fingerprint(), built);

    // Every solution, with dead-end tracking.
    dlx.track_dead_ends(true);
    let (tracked, tracked_report) = collect(&mut dlx, &problem, &budget, false);
    assert_eq!(dlx.link_fingerprint(), built);
    assert_eq!(dlx.sanity(), Ok(()));
    dlx.track_dead_ends(false);

    // Every solution, first active item.
    let (first, first_report) = collect(&mut dlx, &problem, &budget, true);
    assert_eq!(dlx.link_fingerprint(), built);

    let reports = [
        (counted.stats.solutions, counted.is_complete()),
        (tracked.len() as u64, tracked_report.is_complete()),
        (first.len() as u64, first_report.is_complete()),
    ];
    assert_eq!(tracked.len() as u64, tracked_report.stats.solutions);
    assert_eq!(first.len() as u64, first_report.stats.solutions);
    agree(&reports);
    if tracked_report.is_complete() && first_report.is_complete() {
        assert_eq!(tracked, first);
    }

    // Forcing the last option: the solutions that contain it.
    let last = options.checked_sub(1);
    let mut forced_report = None;
    if let Some(last) = last {
        for keep in [false, true] {
            let mut copy = dlx.clone();
            assert_eq!(copy.link_fingerprint(), built);
            if keep {
                copy.keep_copy();
            }
            // Nothing is forced yet, so the option clashes with nothing.
            assert!(copy.force(last).is_some(), "forcing option {last} failed");
            assert_eq!(copy.forced().collect::<Vec<_>>(), [last]);
            let r = copy.count_within(None, &budget);
            copy.release_all();
            assert_eq!(copy.forced().len(), 0);
            assert_eq!(copy.link_fingerprint(), built);
            assert_eq!(copy.sanity(), Ok(()));
            forced_report = Some((r.stats.solutions, r.is_complete()));
        }
    }
    if let (Some((with_last, true)), true) = (forced_report, tracked_report.is_complete()) {
        let expected = tracked
            .iter()
            .filter(|s| s.contains(&last.unwrap()))
            .count() as u64;
        assert_eq!(with_last, expected);
    }

    if options <= BRUTE_MAX_OPTIONS {
        let (all, with_last) = brute_force(&problem);
        for (count, complete) in reports {
            if complete {
                assert_eq!(count, all, "Dlx counted {count}, brute force {all}");
            } else {
                assert!(count <= all, "Dlx counted {count}, brute force {all}");
            }
        }
        if let Some((count, complete)) = forced_report {
            if complete {
                assert_eq!(count, with_last);
            } else {
                assert!(count <= with_last);
            }
        }
    }
});

/// Counts that are complete agree; an incomplete one is at most a complete one.
fn agree(reports: &[(u64, bool)]) {
    for &(a, a_complete) in reports {
        for &(b, _) in reports {
            if a_complete {
                assert!(b <= a, "counts {reports:?}");
            }
        }
    }
}

/// The solutions of a search (each sorted), checked as exact covers and as distinct.
fn collect(
    dlx: &mut Dlx,
    problem: &Problem,
    budget: &Budget,
    first_item: bool,
) -> (Vec<Vec<usize>>, quadrille::exact_cover::Report) {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    let sink = |s: &Solution<'_>| {
        let mut options = s.to_vec();
        assert_eq!(options.len(), s.len());
        options.sort_unstable();
        assert!(
            is_exact_cover(problem, &options),
            "not a cover: {options:?}"
        );
        assert!(seen.insert(options.clone()), "solution {options:?} twice");
        found.push(options);
        Control::Continue
    };
    let report = if first_item {
        dlx.search_with(&mut FirstItem, budget, sink)
    } else {
        dlx.search(budget, sink)
    };
    found.sort();
    (found, report)
}

/// Whether these options cover every primary item once and every secondary item at most once.
fn is_exact_cover(problem: &Problem, options: &[usize]) -> bool {
    let mut uses = vec![0u32; problem.item_count()];
    for &option in options {
        for &item in problem.option(option) {
            uses[item] += 1;
        }
    }
    (0..problem.item_count()).all(|item| match problem.item_kind(item) {
        ItemKind::Primary => uses[item] == 1,
        ItemKind::Secondary => uses[item] <= 1,
    })
}

/// The exact covers among all subsets of options (pruning only subsets whose options share an
/// item), and those of them that hold the last option.
fn brute_force(problem: &Problem) -> (u64, u64) {
    fn walk(
        problem: &Problem,
        next: usize,
        used: &mut [bool],
        with_last: bool,
        out: &mut (u64, u64),
    ) {
        if next == problem.option_count() {
            let covered = (0..problem.item_count())
                .all(|item| problem.item_kind(item) == ItemKind::Secondary || used[item]);
            if covered {
                out.0 += 1;
                out.1 += with_last as u64;
            }
            return;
        }
        walk(problem, next + 1, used, with_last, out);
        let items = problem.option(next);
        if items.iter().all(|&item| !used[item]) {
            items.iter().for_each(|&item| used[item] = true);
            let last = next + 1 == problem.option_count();
            walk(problem, next + 1, used, with_last || last, out);
            items.iter().for_each(|&item| used[item] = false);
        }
    }
    let mut out = (0, 0);
    walk(
        problem,
        0,
        &mut vec![false; problem.item_count()],
        false,
        &mut out,
    );
    out
}
