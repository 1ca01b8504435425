//! The two searches on bitboards: the generator's, for a solution other than a known one,
//! and the engine's count of every solution up to a limit.

use super::Found;
use super::tables::{Bitboard, State};
use crate::board::{Cell, Digit};
use crate::budget::{Budget, Deadline, Stop, past_deadline};
use crate::sudoku::Grid;

/// What a count found: the engine's statistics before they become an
/// [`Outcome`](crate::engine::Outcome).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Counted {
    /// Solutions found, up to the limit.
    pub solutions: u64,
    /// The first solution found.
    pub first: Option<Grid>,
    /// Why the search ended.
    pub stop: Stop,
    /// Search-tree nodes: the root (givens loaded and propagated) and every digit tried at a
    /// branch, whether it survived propagation or not, as the CSP counts them.
    pub nodes: u64,
    /// Digits tried and undone: one that failed propagation, or whose subtree was finished
    /// (`nodes - 1` when the search ran to the end).
    pub backtracks: u64,
    /// Cells filled by singles after the givens, at the root and below every branch.
    pub forced: u64,
}

impl Counted {
    /// A count at its root: nothing found yet, one node (the givens loaded), and the search
    /// run to its end unless something stops it.
    pub(crate) fn root() -> Counted {
        Counted {
            solutions: 0,
            first: None,
            stop: Stop::Exhausted,
            nodes: 1,
            backtracks: 0,
            forced: 0,
        }
    }
}

/// What a count is asked.
#[derive(Clone, Copy)]
pub(crate) struct Ask<'a> {
    /// Placements no solution may have.
    pub excluded: &'a [(Cell, Digit)],
    /// Stop at this many solutions.
    pub limit: u64,
    /// The node and time budget.
    pub budget: &'a Budget,
    /// The digit tried first at each cell (0: none); empty for none anywhere.
    pub preferred: &'a [u8],
    /// When the count must stop besides its nodes: its time budget's end or its interrupt.
    pub deadline: Option<Deadline>,
    /// A look at the count when it has walked these nodes: the callback is told the solutions
    /// found so far, and says whether the count goes on; a count it stops ends with
    /// [`Stop::Limit`], its work for the caller to add to the search that takes over.
    pub pause: Option<(u64, &'a dyn Fn(u64) -> bool)>,
}

impl Ask<'_> {
    /// The nodes at which a count first stops: at its pause, or at its budget's limit.
    #[inline]
    pub(super) fn first_stop(&self) -> u64 {
        let limit = self.budget.node_limit();
        self.pause.map_or(limit, |(at, _)| at.min(limit))
    }

    /// What a count that has walked `nodes`, its stop so far, and found `solutions` does:
    /// goes on to its next stop, or ends ([`Stop::NodeBudget`] at its budget's limit,
    /// [`Stop::Limit`] when the pause's callback stops it).
    #[cold]
    pub(super) fn at_stop(&self, nodes: u64, solutions: u64) -> Result<u64, Stop> {
        let limit = self.budget.node_limit();
        match self.pause {
            Some((at, go_on)) if nodes == at && at < limit => match go_on(solutions) {
                true => Ok(limit),
                false => Err(Stop::Limit),
            },
            _ => Err(Stop::NodeBudget),
        }
    }

    /// The digit (as a bit) to try first of `remaining` (not empty) at cell `cell`: the
    /// preferred one if it remains, else the lowest.
    #[inline(always)]
    pub(super) fn first_digit(&self, cell: usize, remaining: u64) -> u64 {
        let preferred = match self.preferred.get(cell) {
            Some(&d) if d != 0 => remaining & 1 << (d - 1),
            _ => 0,
        };
        if preferred != 0 {
            preferred
        } else {
            remaining & remaining.wrapping_neg()
        }
    }
}

impl<const W: usize, const N: usize> Bitboard<W, N> {
    /// Looks for a solution of `puzzle` other than `solution`, which must solve it, within
    /// `max_nodes` nodes.
    pub(crate) fn other_solution(
        &mut self,
        puzzle: &Grid,
        removed: &[usize],
        solution: &Grid,
        max_nodes: u64,
    ) -> Found {
        let mut nodes = 1;
        let tables = &mut self.tables;
        tables.watch.clear();
        (tables.watch).extend(
            removed
                .iter()
                .map(|&c| (c, solution.cells()[c] as usize - 1)),
        );
        if self.solution_grid.as_ref() != Some(solution) {
            self.solution = [[0; W]; N];
            for (cell, &d) in solution.cells().iter().enumerate() {
                self.solution[d as usize - 1][cell / 64] |= 1 << (cell % 64);
            }
            self.solution_grid = Some(solution.clone());
        }
        if !self.tables.load(puzzle, &[], &mut self.stack[0]) {
            return Found {
                other: None,
                complete: true,
                nodes,
            };
        }
        let mut depth = 0;
        let mut fresh = true;
        loop {
            // Solved: S is skipped, anything else is the answer.
            if fresh && self.branch(depth) && self.stack[depth].placed != self.solution {
                return Found {
                    other: Some(self.tables.grid(&self.stack[depth], puzzle)),
                    complete: true,
                    nodes,
                };
            }
            fresh = false;
            let (cell, remaining, _) = self.choices[depth];
            if remaining == 0 {
                if depth == 0 {
                    return Found {
                        other: None,
                        complete: true,
                        nodes,
                    };
                }
                depth -= 1;
                continue;
            }
            // S's digit last: a second solution, if any, shows up sooner.
            let right = 1u64 << (solution.cells()[cell] - 1);
            let others = remaining & !right;
            let bit = if others != 0 {
                others & others.wrapping_neg()
            } else {
                right
            };
            self.choices[depth].1 = remaining & !bit;
            if nodes >= max_nodes {
                return Found {
                    other: None,
                    complete: false,
                    nodes,
                };
            }
            nodes += 1;
            if self.descend(depth, cell, bit) {
                depth += 1;
                fresh = true;
            }
        }
    }

    /// Chooses the branch of the state at `depth`: the cell to branch on and its digits, or
    /// none (returning true) when the state is solved.
    #[inline(always)]
    fn branch(&mut self, depth: usize) -> bool {
        let choice = self.tables.choose(&self.stack[depth]);
        self.choices[depth] = choice.map_or((0, 0, 0), |(cell, digits)| (cell, digits, digits));
        choice.is_none()
    }

    /// Places the digit of `bit` at `cell` in a copy of the state at `depth`, one level down,
    /// and propagates; whether it holds.
    #[inline(always)]
    fn descend(&mut self, depth: usize, cell: usize, bit: u64) -> bool {
        let (parents, children) = self.stack.split_at_mut(depth + 1);
        let child = &mut children[0];
        *child = parents[depth];
        // The digit is one of the cell's in the parent, whose digits the choice kept: no
        // need to read them again from the N digit sets.
        let digit = bit.trailing_zeros() as usize;
        self.tables.fill(child, cell, digit, self.choices[depth].2);
        self.tables.propagate(child)
    }

    /// Counts the solutions of `puzzle` without the excluded placements, up to the limit
    /// within the budget, keeping the first. Branches on a cell with the fewest candidates,
    /// its preferred digit first, then the others from the smallest; the clock is read every
    /// 1024 nodes.
    pub(crate) fn count(&mut self, puzzle: &Grid, ask: &Ask<'_>) -> Counted {
        let deadline = ask.deadline;
        let mut max_nodes = ask.first_stop();
        let mut counted = Counted::root();
        self.tables.watch.clear();
        if !self.tables.load(puzzle, ask.excluded, &mut self.stack[0]) {
            return counted;
        }
        let open = |state: &State<W, N>| state.open.iter().map(|w| w.count_ones()).sum::<u32>();
        let blanks = puzzle.cells().iter().filter(|&&d| d == 0).count() as u64;
        counted.forced = blanks - u64::from(open(&self.stack[0]));
        let mut depth = 0;
        let mut fresh = true;
        counted.stop = loop {
            if fresh && self.branch(depth) {
                counted.solutions += 1;
                if counted.first.is_none() {
                    counted.first = Some(self.tables.grid(&self.stack[depth], puzzle));
                }
                if counted.solutions >= ask.limit {
                    break Stop::Limit;
                }
            }
            fresh = false;
            let (cell, remaining, _) = self.choices[depth];
            if remaining == 0 {
                if depth == 0 {
                    break Stop::Exhausted;
                }
                depth -= 1;
                counted.backtracks += 1;
                continue;
            }
            let bit = ask.first_digit(cell, remaining);
            self.choices[depth].1 = remaining & !bit;
            if counted.nodes >= max_nodes {
                match ask.at_stop(counted.nodes, counted.solutions) {
                    Ok(next) => max_nodes = next,
                    Err(stop) => break stop,
                }
            }
            if past_deadline(deadline, counted.nodes) {
                break Stop::TimeBudget;
            }
            counted.nodes += 1;
            if self.descend(depth, cell, bit) {
                // The branching placement is not forced; the rest of the cells filled are.
                counted.forced +=
                    u64::from(open(&self.stack[depth]) - 1 - open(&self.stack[depth + 1]));
                depth += 1;
                fresh = true;
            } else {
                counted.backtracks += 1;
            }
        };
        counted
    }
}
