//! What the test modules share, written once: the fixtures, the engines the Sudoku tests run,
//! the public data sets, random problems and puzzles, and the brute-force oracles
//! ([`oracle`]).

pub mod oracle;
pub mod random_xcc;

// The one data-set lookup, shared with the library's unit tests and the benches.
#[path = "../../src/test_data.rs"]
mod test_data;

use proptest::prelude::*;
use quadrille::Budget;
use quadrille::board::Board;
use quadrille::engine::{Engine, Solve, Solver};
use quadrille::exact_cover::{Problem, ProblemBuilder};
use quadrille::generate::{random_contradictory, random_puzzle};
use quadrille::io::dlx;
use quadrille::sudoku::check::check_solution_on;
use quadrille::sudoku::{Grid, Shape};
pub use test_data::data_text;

/// The repository's root: the integration tests are a package of their own in its `tests`
/// folder (Cargo.toml says why).
pub use test_data::repository as root;

/// The path of a fixture, `fixtures/REL`.
pub fn fixture(rel: &str) -> String {
    format!("{}/fixtures/{rel}", root().display())
}

/// The text of a fixture, `fixtures/REL`.
pub fn fixture_text(rel: &str) -> String {
    let path = fixture(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The exact-cover problem of a fixture in Knuth's format, `fixtures/REL`.
pub fn fixture_problem(rel: &str) -> Problem {
    let text = fixture_text(rel);
    dlx::parse_problem(&text)
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
        .into_problem()
}

pub fn shape(box_rows: usize, box_cols: usize) -> Shape {
    Shape::new(box_rows, box_cols).unwrap()
}

/// DLX and the default CSP.
pub fn dlx_and_csp() -> [Engine; 2] {
    [Engine::Dlx, Engine::Csp(Default::default())]
}

/// DLX and three CSPs that span the presets: the default, the weakest (forward checking only)
/// and the strongest (alldiff).
pub fn engines() -> Vec<Engine> {
    [
        "dlx",
        "csp",
        "csp:first+lex+fc",
        "csp:mrv-degree+lex+alldiff",
    ]
    .iter()
    .map(|name| name.parse().unwrap())
    .collect()
}

/// The count of `engine` on `board` from `puzzle`, all solutions, the first checked against
/// the board.
pub fn count_on(engine: Engine, board: &Board, puzzle: &Grid) -> u64 {
    let outcome = Solver::new(engine, board)
        .unwrap()
        .count(puzzle, None, &Budget::unlimited());
    assert!(outcome.is_complete());
    if let Some(solution) = &outcome.solution {
        assert_eq!(
            check_solution_on(board, puzzle, solution),
            Ok(()),
            "{engine}"
        );
    }
    outcome.solutions
}

/// A random 0-1 matrix: each option is a bit mask over `items` items (at most 20), the first
/// `primary` of which are primary. Options without a primary item get one in [`build`].
pub fn matrix() -> impl Strategy<Value = (usize, usize, Vec<u32>)> {
    // Up to 20 items, so that some options are long enough (16 nodes or more) to take the path
    // where the spacer, not the node, says where the option ends.
    (1usize..=20).prop_flat_map(|items| {
        (
            Just(items),
            1..=items,
            prop::collection::vec(1u32..(1 << items), 0..=20),
        )
    })
}

/// The problem of a [`matrix`] (items `p0`, `p1`, ... primary, then `s..` secondary), and its
/// options' masks as built (an option without a primary item gets item 0).
pub fn build(items: usize, primary: usize, masks: &[u32]) -> (Problem, Vec<u32>) {
    let mut b = ProblemBuilder::new();
    for i in 0..items {
        if i < primary {
            b.primary(&format!("p{i}")).unwrap();
        } else {
            b.secondary(&format!("s{i}")).unwrap();
        }
    }
    let primary_mask = (1u32 << primary) - 1;
    let mut used = Vec::new();
    for &mask in masks {
        let mask = if mask & primary_mask == 0 {
            mask | 1
        } else {
            mask
        };
        b.option((0..items).filter(|i| mask >> i & 1 == 1)).unwrap();
        used.push(mask);
    }
    (b.build().unwrap(), used)
}

/// A random partial grid of one of `shapes`: a random grid's digits in a random share of the
/// cells, from `min_share(n)` of them to all, or (with probability `contradictory`) a
/// well-formed one whose givens leave no solution.
pub fn partial_grid(
    shapes: &'static [(usize, usize)],
    min_share: fn(usize) -> f64,
    contradictory: f64,
) -> impl Strategy<Value = Grid> {
    (
        0..shapes.len(),
        any::<u64>(),
        0.0..=1.0f64,
        prop::bool::weighted(contradictory),
    )
        .prop_map(move |(k, seed, t, contradictory)| {
            let shape = Shape::new(shapes[k].0, shapes[k].1).unwrap();
            let cells = shape.cell_count();
            let low = min_share(shape.size());
            let givens = ((low + (1.0 - low) * t) * cells as f64) as usize;
            if contradictory {
                random_contradictory(shape, seed, givens).unwrap()
            } else {
                random_puzzle(shape, seed, givens)
            }
        })
}

/// A random puzzle near the hardness peak, of one of `shapes`: 16x16 with 150 to 190 blanks,
/// 25x25 with 300 to 450 (the ranges of the benchmark sets), smaller shapes with 40% to 75% of
/// the cells blank.
pub fn peak_puzzle(shapes: &'static [(usize, usize)]) -> impl Strategy<Value = Grid> {
    (0..shapes.len(), any::<u64>(), 0.0..=1.0f64).prop_map(move |(k, seed, t)| {
        let shape = Shape::new(shapes[k].0, shapes[k].1).unwrap();
        let cells = shape.cell_count();
        let (low, high) = match shape.size() {
            16 => (150, 190),
            25 => (300, 450),
            _ => (cells * 2 / 5, cells * 3 / 4),
        };
        let blanks = low + ((high - low) as f64 * t) as usize;
        random_puzzle(shape, seed, cells - blanks)
    })
}

/// A new pseudo-terminal, 1000 columns wide so that no line the tool prints wraps: its master
/// and its slave side.
#[cfg(unix)]
pub fn open_pty() -> (std::os::fd::OwnedFd, std::os::fd::OwnedFd) {
    use std::os::fd::FromRawFd;
    let (mut master, mut slave) = (-1, -1);
    let size = libc::winsize {
        ws_row: 50,
        ws_col: 1000,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes two descriptors into the integers it is given and reads the
    // window size it is given; a null name and termios are documented as "use the defaults".
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened by openpty and are owned by nothing else.
    unsafe {
        (
            std::os::fd::OwnedFd::from_raw_fd(master),
            std::os::fd::OwnedFd::from_raw_fd(slave),
        )
    }
}

/// Reads everything written to the terminal of `master` on a thread of its own, as it is
/// written, so that the terminal never fills; joined, the bytes once its last writer is gone.
#[cfg(unix)]
pub fn read_terminal(master: std::os::fd::OwnedFd) -> std::thread::JoinHandle<Vec<u8>> {
    use std::io::Read;
    std::thread::spawn(move || {
        let mut master = std::fs::File::from(master);
        let mut bytes = Vec::new();
        // Linux ends a pseudo-terminal whose last writer closed it with EIO, not end of file.
        let _ = master.read_to_end(&mut bytes);
        bytes
    })
}

/// The one puzzle of `line`, read as a puzzle of `variant` (the test names the line it fails on).
pub fn read_variant(
    variant: quadrille::sudoku::variant::Variant,
    line: &str,
) -> quadrille::io::puzzle::Puzzle {
    quadrille::io::puzzle::PuzzleReader::new(
        line.as_bytes(),
        None,
        quadrille::io::puzzle::Layout::Line,
    )
    .with_variant(Some(variant))
    .next()
    .unwrap()
    .unwrap_or_else(|e| panic!("{line}: {e}"))
}
