//! A board as exact cover: the standard encoding, read from the board's groups.
//!
//! Items, in this order (the order breaks MRV ties, as in Knuth's `sudoku2dlx`): one per cell
//! (`r3c5`: the cell is filled), then one per group and digit (`row3_7`: row 3 holds a 7), the
//! groups in the board's order (for a Sudoku: rows, columns, boxes). Option `cell * n + d - 1`
//! puts digit d in the cell and covers the cell's item and the item of d in each of the cell's
//! groups. Encoding is kept apart from solving: this module only builds the problem and maps
//! options to placements and back.
//!
//! # Killer cages
//!
//! A cage of k cells with sum s is encoded by options per *digit set*, not per filling: for
//! each set S of k different digits adding up to s ([`Cage::digit_sets`]) one option names the
//! cage's item `cage#i` and the items `cage#i_d` of the digits d *not* in S; each placement of
//! d in a cell of the cage covers `cage#i_d` too. Every `cage#i_d` is covered exactly once, so
//! a digit outside the chosen S appears nowhere in the cage and a digit of S exactly once: the
//! k cells hold S, different digits with the right sum. An option per filling would need k!
//! options per digit set (a 6-cell cage: 720 per set) and says no more. The placements keep
//! their numbers (`cell * n + d - 1`, below n³); the digit-set options come after them, and
//! [`placement`] is only for the first n³.
//!
//! A digit that no digit set of its cage holds (a 5 in two cells adding up to 10) can never
//! be placed there, but its placement options would still count in the cell's item and hide
//! forced moves from the item choice. Those placements also name one more item, `dead`, whose
//! only other option is `[dead]` (`dead_option`); a solver forces that option before every
//! search, which hides them all. On the 9x9 killer of `fixtures/variants/killer.txt` this
//! took DLX from 14,348 search nodes to 2,252, and from 2.35 ms to 0.37 ms (`quadrille
//! compare fixtures/variants/killer.txt --engines dlx`, release build).
//!
//! [`Cage::digit_sets`]: crate::board::Cage::digit_sets

use crate::board::{Board, Cell, Digit};
use crate::exact_cover::{Problem, ProblemBuilder};

/// The exact-cover problem of filling the empty board.
///
/// ```
/// use quadrille::exact_cover::Dlx;
/// use quadrille::sudoku::{Shape, encode};
///
/// let problem = encode::problem(&Shape::new(2, 2)?.board());
/// assert_eq!((problem.item_count(), problem.option_count()), (64, 64));
/// assert_eq!(problem.option_text(0), "r1c1 row1_1 column1_1 box1_1");
/// assert_eq!(Dlx::new(&problem).count(None).stats.solutions, 288);
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn problem(board: &Board) -> Problem {
    let n = board.size();
    let mut b = ProblemBuilder::new();
    for cell in board.cells() {
        let (row, col) = cell.row_col(n);
        b.primary(&format!("r{}c{}", row + 1, col + 1))
            .expect("cell names are distinct and valid");
    }
    for group in board.groups() {
        for d in 1..=n {
            b.primary(&format!("{}{}_{d}", group.kind(), group.number()))
                .expect("group names are distinct words and numbers");
        }
    }
    // Group kinds are ASCII words, so `cage#...` names no group's item.
    let cages = board.cages();
    let first_cage_item = board.cell_count() + board.groups().len() * n;
    let mut cage_of = vec![None; board.cell_count()];
    for (i, cage) in cages.iter().enumerate() {
        b.primary(&format!("cage#{}", cage.number()))
            .expect("cage numbers are distinct");
        for d in 1..=n {
            b.primary(&format!("cage#{}_{d}", cage.number()))
                .expect("cage numbers are distinct");
        }
        for cell in cage.cells() {
            cage_of[cell.index()] = Some(i);
        }
    }
    let cage_item = |i: usize| first_cage_item + i * (n + 1);
    let dead_digits = dead_digits(board);
    let dead = match dead_digits.iter().any(|&d| d != 0) {
        true => b.primary("dead").expect("no other item is called dead"),
        false => usize::MAX,
    };
    let mut items = Vec::new();
    for cell in board.cells() {
        for d in 0..n {
            items.clear();
            items.push(cell.index());
            items.extend(board.groups_of(cell).map(|g| group_digit_item(board, g, d)));
            if let Some(i) = cage_of[cell.index()] {
                items.push(cage_item(i) + 1 + d);
            }
            if dead_digits[cell.index()] >> d & 1 != 0 {
                items.push(dead);
            }
            b.option(items.iter().copied())
                .expect("an option names its cell once and each of its groups once");
        }
    }
    for (i, cage) in cages.iter().enumerate() {
        for set in cage.digit_sets(n) {
            items.clear();
            items.push(cage_item(i));
            items.extend(
                (0..n)
                    .filter(|d| set >> d & 1 == 0)
                    .map(|d| cage_item(i) + 1 + d),
            );
            b.option(items.iter().copied())
                .expect("a digit-set option names its cage's items once");
        }
    }
    if dead != usize::MAX {
        b.option([dead]).expect("one item");
    }
    b.build()
        .expect("a board has cells, and cells are primary items")
}

/// An order of [`problem`]'s primary items for a remembering count that branches on the
/// first uncovered one ([`MemoBranching::FirstItem`]): the cells column by column where the
/// board's groups are wider than tall on the whole (a Sudoku with 2x3 boxes), else row by row
/// (the other items follow in the problem's order: once every cell is filled, only a killer
/// cage's items may be left). Branches that fill the same cells meet in the same
/// subproblems; filled across the boxes' longer side, the grid is done in fewer, wider
/// sections (two stacks of 2x3 boxes against three bands), whose boundaries are where
/// subproblems repeat. On the empty 6x6 grid (`xc --count --memo always --memo-branching
/// first-item` on the problem in this order): 1,399,136 nodes by columns, 3,467,329 by rows,
/// 3,488,565 box by box.
///
/// ```
/// use quadrille::sudoku::{Shape, encode};
///
/// let order = encode::frontier_order(Shape::new(2, 3)?.board());
/// assert_eq!(&order[..3], [0, 6, 12]); // r1c1, r2c1, r3c1: down the first column
/// let order = encode::frontier_order(Shape::new(3, 2)?.board());
/// assert_eq!(&order[..3], [0, 1, 2]); // r1c1, r1c2, r1c3: along the first row
/// assert_eq!(order.len(), 36);
/// # Ok::<(), quadrille::Error>(())
/// ```
///
/// [`MemoBranching::FirstItem`]: crate::exact_cover::MemoBranching::FirstItem
pub fn frontier_order(board: &Board) -> Vec<usize> {
    let n = board.size();
    // Each group's extent across rows and across columns: rows and columns balance out, and
    // a 2x3 box adds 2 and 3.
    let (mut tall, mut wide) = (0, 0);
    for group in board.groups() {
        let (rows, cols): (Vec<usize>, Vec<usize>) =
            group.cells().iter().map(|c| c.row_col(n)).unzip();
        let extent =
            |v: &[usize]| v.iter().max().map_or(0, |m| m + 1) - v.iter().min().unwrap_or(&0);
        tall += extent(&rows);
        wide += extent(&cols);
    }
    if wide > tall {
        (0..n)
            .flat_map(|c| (0..n).map(move |r| r * n + c))
            .collect()
    } else {
        (0..board.cell_count()).collect()
    }
}

/// The matchings of [`problem`]'s items ([`Dlx::set_matchings`]): each group's cells
/// against the group's digits.
///
/// ```
/// use quadrille::exact_cover::Dlx;
/// use quadrille::sudoku::{Shape, encode};
///
/// let board = Shape::new(2, 3)?.board();
/// let mut dlx = Dlx::new(&encode::problem(&board));
/// dlx.set_matchings(&encode::matchings(&board));
/// assert_eq!(dlx.matchings_kept(), 18);
/// # Ok::<(), quadrille::Error>(())
/// ```
///
/// [`Dlx::set_matchings`]: crate::exact_cover::Dlx::set_matchings
pub fn matchings(board: &Board) -> Vec<(Vec<usize>, Vec<usize>)> {
    (board.groups().iter().enumerate())
        .map(|(g, group)| {
            let left = group.cells().iter().map(|c| c.index()).collect();
            let right = (0..board.size())
                .map(|d| group_digit_item(board, g, d))
                .collect();
            (left, right)
        })
        .collect()
}

/// The item of digit `d` (0-based) in group `g`: after the cells' items, n per group.
fn group_digit_item(board: &Board, g: usize, d: usize) -> usize {
    board.cell_count() + g * board.size() + d
}

/// The digits of each cell (masks) that no digit set of its cage holds.
fn dead_digits(board: &Board) -> Vec<u64> {
    let mut dead = vec![0u64; board.cell_count()];
    let all = if board.size() == 64 {
        u64::MAX
    } else {
        (1 << board.size()) - 1
    };
    for cage in board.cages() {
        let live = cage.digit_sets(board.size()).iter().fold(0, |a, &s| a | s);
        for cell in cage.cells() {
            dead[cell.index()] = all & !live;
        }
    }
    dead
}

/// The option `[dead]` of a killer board whose cages rule out some digits of their cells (see
/// the [module docs](self)): forcing it before a search hides those placements. `None` when
/// no digit is ruled out, as on every board without cages.
pub(crate) fn dead_option(board: &Board) -> Option<usize> {
    dead_digits(board).iter().any(|&d| d != 0).then(|| {
        let n = board.size();
        let sets: usize = board.cages().iter().map(|c| c.digit_sets(n).len()).sum();
        board.cell_count() * n + sets
    })
}

/// The option that puts `digit` in `cell`, on a board of side `n`.
#[inline]
pub fn option(n: usize, cell: Cell, digit: Digit) -> usize {
    cell.index() * n + digit.index()
}

/// The cell and digit of an option, on a board of side `n`.
#[inline]
pub fn placement(n: usize, option: usize) -> (Cell, Digit) {
    let digit = Digit::new((option % n) as u8 + 1).expect("n <= 64, so option % n + 1 is a digit");
    (Cell::new(option / n), digit)
}
