//! The generator's Dancing Links searches, each on the links of its own puzzle's candidates.
//!
//! [`DlxSolver`](crate::engine::DlxSolver) builds the n³ options of its board once and, for
//! each puzzle, forces the givens' options, searches, and copies the whole block of links back.
//! That suits many puzzles of a small board; on the large boards a generator thins it costs
//! more than the search itself: on 49x49 a search that did not branch took 6 ms (forcing some
//! 1,500 givens into 117,649 options and copying 7 MB back), and with 1,000 nodes a check on
//! 36x36, forcing and copying were 70% of the time (`perf`, `generate --box 6x6 -n 1 --seed 1
//! -j 1 --node-budget 1000`).
//!
//! A [`CandidateSearch`] builds instead, for each search, the exact-cover problem of the
//! puzzle itself: an item per empty cell and per digit a group lacks, an option per candidate
//! (a digit that no group of its cell holds), all in the order of
//! [`encode::problem`](crate::sudoku::encode::problem). These are exactly the links that
//! forcing the givens leaves in the board's matrix, numbered afresh in the same order, so the
//! search chooses the same items and options and visits the same nodes: the puzzles made are
//! the same, only sooner. Building costs a pass over the candidates, which are few on a
//! puzzle thinned from a full grid.

use std::time::Instant;

use crate::board::{Board, Cell, Digit};
use crate::budget::{Budget, Stop};
use crate::engine::{DlxSolver, Outcome, Solve, outcome_of, search_puzzle};
use crate::exact_cover::{Dlx, Problem, Stats};
use crate::restart::Restarts;
use crate::sudoku::{Grid, encode};

/// Searches puzzles of one Sudoku board (no cages) by Dancing Links as a [`DlxSolver`] with
/// its defaults does, on links built for each puzzle from its candidates.
#[derive(Debug)]
pub(crate) struct CandidateSearch {
    board: &'static Board,
    /// The problem of the last puzzle searched; its vectors are kept from search to search.
    problem: Problem,
    /// The cell and digit of each option of `problem`.
    placements: Vec<(Cell, Digit)>,
    /// Per group, the digits its givens hold, one bit per digit.
    group_digits: Vec<u64>,
    /// Per item of the board's full encoding (cells, then each group's digits), its number in
    /// `problem`, or `usize::MAX` when a given covers it.
    item_number: Vec<usize>,
    /// The placements searches try first (see [`CandidateSearch::set_preferred`]).
    preferred: Option<Grid>,
    /// The options of `problem` that are `preferred`'s placements (scratch).
    preferred_options: Vec<usize>,
    restarts: Option<Restarts>,
    learning: bool,
    /// The options of the first solution found (scratch).
    first: Vec<usize>,
    /// The board's cells in the order a remembering count branches on them
    /// ([`encode::frontier_order`], as [`DlxSolver`] gives it), and that order as items of
    /// `problem` (scratch).
    frontier: Vec<usize>,
    memo_order: Vec<usize>,
}

impl CandidateSearch {
    /// A search for puzzles of `board`, with [`DlxSolver`]'s default restarts and learning;
    /// `None` when the board has cages, whose digit sets this encoding leaves out.
    pub(crate) fn new(board: &'static Board) -> Option<CandidateSearch> {
        if !board.cages().is_empty() {
            return None;
        }
        let n = board.size();
        Some(CandidateSearch {
            board,
            problem: Problem::default(),
            placements: Vec::new(),
            group_digits: vec![0; board.groups().len()],
            item_number: vec![usize::MAX; board.cell_count() + board.groups().len() * n],
            preferred: None,
            preferred_options: Vec::new(),
            restarts: Some(Restarts::default()),
            learning: DlxSolver::learns_by_default(board),
            first: Vec::new(),
            frontier: encode::frontier_order(board),
            memo_order: Vec::new(),
        })
    }

    /// Builds the problem of `puzzle` less the `excluded` placements into `problem`; false when
    /// it certainly has no solution (two givens clash, or a given is excluded).
    fn encode(&mut self, puzzle: &Grid, excluded: &[(Cell, Digit)]) -> bool {
        let board = self.board;
        let n = board.size();
        let cells = board.cell_count();
        for (digits, group) in self.group_digits.iter_mut().zip(board.groups()) {
            let mut seen = 0u64;
            for &cell in group.cells() {
                if let Some(digit) = puzzle.digit(cell) {
                    let bit = 1u64 << digit.index();
                    if seen & bit != 0 {
                        return false;
                    }
                    seen |= bit;
                }
            }
            *digits = seen;
        }
        if (excluded.iter()).any(|&(cell, digit)| puzzle.digit(cell) == Some(digit)) {
            return false;
        }
        // Items in the order of the full encoding: the empty cells, then each group's missing
        // digits.
        let mut items = 0;
        for cell in board.cells() {
            let empty = puzzle.digit(cell).is_none();
            self.item_number[cell.index()] = if empty { items } else { usize::MAX };
            items += usize::from(empty);
        }
        for (g, &digits) in self.group_digits.iter().enumerate() {
            for d in 0..n {
                let missing = digits >> d & 1 == 0;
                self.item_number[cells + g * n + d] = if missing { items } else { usize::MAX };
                items += usize::from(missing);
            }
        }
        self.problem.reset_unnamed(items);
        self.placements.clear();
        for cell in board.cells().filter(|&c| puzzle.digit(c).is_none()) {
            let seen = (board.groups_of(cell)).fold(0, |bits, g| bits | self.group_digits[g]);
            for d in (0..n).filter(|d| seen >> d & 1 == 0) {
                let digit = Digit::new(d as u8 + 1).expect("d < n <= 64");
                if excluded.contains(&(cell, digit)) {
                    continue;
                }
                let number = &self.item_number;
                let groups = board.groups_of(cell).map(|g| number[cells + g * n + d]);
                (self.problem)
                    .push_trusted_option(std::iter::once(number[cell.index()]).chain(groups));
                self.placements.push((cell, digit));
            }
        }
        true
    }
}

impl Solve for CandidateSearch {
    /// Leaves the `excluded` placements out of the problem it builds.
    fn count_excluding(
        &mut self,
        puzzle: &Grid,
        excluded: &[(Cell, Digit)],
        limit: Option<u64>,
        budget: &Budget,
    ) -> Outcome {
        let start = Instant::now();
        if !self.encode(puzzle, excluded) {
            return outcome_of(&Stats::default(), Stop::Exhausted, None, start);
        }
        let mut dlx = Dlx::new(&self.problem);
        // As in `DlxSolver::new`: dead ends hide behind forced moves in Sudoku, and a
        // remembering count branches on the empty cells in the encoding's order.
        dlx.track_dead_ends(true);
        self.memo_order.clear();
        let items = self.frontier.iter().map(|&cell| self.item_number[cell]);
        self.memo_order
            .extend(items.filter(|&item| item != usize::MAX));
        dlx.set_memo_order(&self.memo_order);
        if let Some(near) = &self.preferred {
            self.preferred_options.clear();
            let placements = self.placements.iter().enumerate();
            let kept = placements.filter(|(_, (cell, digit))| near.digit(*cell) == Some(*digit));
            self.preferred_options
                .extend(kept.map(|(option, _)| option));
            dlx.set_preferred(&self.preferred_options);
        }
        self.first.clear();
        let (restarts, learning) = (self.restarts, self.learning);
        let report = search_puzzle(&mut dlx, &mut self.first, limit, restarts, learning, budget);
        let solution = (!self.first.is_empty()).then(|| {
            let mut grid = puzzle.clone();
            for &option in &self.first {
                let (cell, digit) = self.placements[option];
                grid.place(cell, Some(digit));
            }
            grid
        });
        outcome_of(&report.stats, report.stop, solution, start)
    }

    fn set_restarts(&mut self, restarts: Option<Restarts>) {
        self.restarts = restarts;
    }

    /// Makes the searches try `near`'s digit first in each cell, as
    /// [`DlxSolver::set_preferred`](crate::engine::Solve::set_preferred) does, or not (`None`).
    fn set_preferred(&mut self, near: Option<&Grid>) {
        self.preferred = near.cloned();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{random_grid, random_puzzle};
    use crate::sudoku::Shape;

    /// The same counts, nodes and first solutions as the board's full matrix with the givens
    /// forced, with and without exclusions and a preferred grid.
    #[test]
    fn searches_as_the_full_matrix_does() {
        for (r, c, givens) in [(2, 2, 4), (3, 3, 24), (3, 3, 30), (4, 4, 120), (5, 5, 330)] {
            let shape = Shape::new(r, c).unwrap();
            let mut full = DlxSolver::sudoku(shape);
            let mut ours = CandidateSearch::new(shape.board()).unwrap();
            for seed in 0..6 {
                let puzzle = random_puzzle(shape, seed, givens);
                let near = random_grid(shape, seed);
                let empty = (0..shape.cell_count())
                    .find(|&i| puzzle.cells()[i] == 0)
                    .unwrap();
                let cell = Cell::new(empty);
                let excluded = [(cell, near.digit(cell).unwrap())];
                for prefer in [None, Some(&near)] {
                    full.set_preferred(prefer);
                    ours.set_preferred(prefer);
                    for (excluded, limit) in [
                        (&[][..], Some(2)),
                        (&excluded[..], Some(1)),
                        (&[][..], None),
                    ] {
                        let budget = Budget::nodes(5_000);
                        let a = full.count_excluding(&puzzle, excluded, limit, &budget);
                        let b = ours.count_excluding(&puzzle, excluded, limit, &budget);
                        let what = format!("{shape} seed {seed} prefer {}", prefer.is_some());
                        assert_eq!(
                            (a.solutions, a.nodes, a.stop),
                            (b.solutions, b.nodes, b.stop)
                        );
                        assert_eq!(a.solution, b.solution, "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn clashing_or_excluded_givens_have_no_solution() {
        let shape = Shape::new(2, 2).unwrap();
        let mut ours = CandidateSearch::new(shape.board()).unwrap();
        let mut clash = Grid::empty(shape);
        clash.set(0, 0, 1);
        clash.set(0, 3, 1);
        let all = Budget::unlimited();
        assert_eq!(ours.count_excluding(&clash, &[], None, &all).solutions, 0);
        let mut one = Grid::empty(shape);
        one.set(0, 0, 1);
        let given = [(Cell::new(0), Digit::new(1).unwrap())];
        assert_eq!(ours.count_excluding(&one, &given, None, &all).solutions, 0);
        // 288 grids, a quarter with 1 in the corner.
        assert_eq!(ours.count_excluding(&one, &[], None, &all).solutions, 72);
    }
}
