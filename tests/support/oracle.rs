//! Brute-force oracles: answers found from the definitions, sharing no search with the
//! engines they check. Slow, and obviously right; for small problems only.
//!
//! The fuzz targets include this file too (through `tests/fuzz_checks.rs`), so it uses only
//! the library's problem type and the standard library.

use quadrille::exact_cover::{ItemKind, Problem};

/// Every solution of `problem`, each as its options in increasing order, sorted: every subset
/// of options that covers each primary item within its bounds and gives each secondary item
/// to one option, or to several that give it the same colour. Subsets are walked option by
/// option, dropping those that already break a bound or a colour.
pub fn exact_covers(problem: &Problem) -> Vec<Vec<usize>> {
    struct Walk<'a> {
        problem: &'a Problem,
        /// How many chosen options hold each item.
        uses: Vec<u32>,
        /// The colour the chosen options give each secondary item (0: none).
        colours: Vec<u32>,
        chosen: Vec<usize>,
        out: Vec<Vec<usize>>,
    }

    impl Walk<'_> {
        fn colour(&self, option: usize, position: usize) -> u32 {
            self.problem
                .option_color_ids(option)
                .map_or(0, |ids| ids[position])
        }

        fn fits(&self, option: usize) -> bool {
            (self.problem.option(option).iter().enumerate()).all(|(position, &item)| {
                match self.problem.item_bounds(item) {
                    Some((_, upper)) => self.uses[item] < upper,
                    None => {
                        let colour = self.colour(option, position);
                        self.uses[item] == 0 || (colour > 0 && self.colours[item] == colour)
                    }
                }
            })
        }

        fn take(&mut self, option: usize, on: bool) {
            for (position, &item) in self.problem.option(option).iter().enumerate() {
                if on {
                    self.uses[item] += 1;
                    self.colours[item] = self.colour(option, position);
                } else {
                    self.uses[item] -= 1;
                }
            }
        }

        fn go(&mut self, option: usize) {
            if option == self.problem.option_count() {
                let covered = (0..self.problem.item_count()).all(|item| {
                    (self.problem.item_bounds(item))
                        .is_none_or(|(lower, upper)| (lower..=upper).contains(&self.uses[item]))
                });
                if covered {
                    self.out.push(self.chosen.clone());
                }
                return;
            }
            self.go(option + 1);
            if self.fits(option) {
                self.take(option, true);
                self.chosen.push(option);
                self.go(option + 1);
                self.chosen.pop();
                self.take(option, false);
            }
        }
    }

    debug_assert!(
        (0..problem.item_count()).all(
            |i| (problem.item_kind(i) == ItemKind::Primary) == problem.item_bounds(i).is_some()
        )
    );
    let mut walk = Walk {
        problem,
        uses: vec![0; problem.item_count()],
        colours: vec![0; problem.item_count()],
        chosen: Vec::new(),
        out: Vec::new(),
    };
    walk.go(0);
    walk.out.sort();
    walk.out
}

/// The rules of a grid of side n, as plain cell lists (cells numbered row by row): groups of
/// n cells that hold n different digits, and cages whose different digits add up to a sum.
#[derive(Clone, Debug)]
pub struct Rules {
    pub n: usize,
    pub groups: Vec<Vec<usize>>,
    pub cages: Vec<(Vec<usize>, u32)>,
}

impl Rules {
    /// A Latin square's: the rows and the columns.
    pub fn latin(n: usize) -> Rules {
        let mut groups = Vec::new();
        for i in 0..n {
            groups.push((0..n).map(|j| i * n + j).collect());
            groups.push((0..n).map(|j| j * n + i).collect());
        }
        Rules {
            n,
            groups,
            cages: Vec::new(),
        }
    }

    /// A Sudoku's with boxes of `box_rows` x `box_cols`: rows, columns and boxes.
    pub fn sudoku(box_rows: usize, box_cols: usize) -> Rules {
        let mut rules = Rules::latin(box_rows * box_cols);
        rules.add_boxes(box_rows, box_cols);
        rules
    }

    /// Adds the boxes of `box_rows` x `box_cols` as groups.
    pub fn add_boxes(&mut self, box_rows: usize, box_cols: usize) {
        let n = self.n;
        assert_eq!(box_rows * box_cols, n);
        // A band of boxes side by side holds n / box_cols = box_rows of them.
        for b in 0..n {
            let (top, left) = ((b / box_rows) * box_rows, (b % box_rows) * box_cols);
            self.groups.push(
                (0..n)
                    .map(|i| (top + i / box_cols) * n + left + i % box_cols)
                    .collect(),
            );
        }
    }

    /// The grids that keep `givens` (0: blank) and obey the rules.
    pub fn count(&self, givens: &[u8]) -> u64 {
        self.count_avoiding(givens, &[])
    }

    /// The grids that keep `givens` (0: blank), obey the rules, and hold no `(cell, digit)` of
    /// `excluded`: cells are filled in order with every digit that no filled cell of a group or
    /// cage forbids.
    pub fn count_avoiding(&self, givens: &[u8], excluded: &[(usize, u8)]) -> u64 {
        let n = self.n;
        assert_eq!(givens.len(), n * n);
        assert!(self.groups.iter().all(|g| g.len() == n));
        // The cells before each cell that share a group with it, and its cages.
        let mut before = vec![Vec::new(); n * n];
        for group in &self.groups {
            for &a in group {
                before[a].extend(group.iter().filter(|&&b| b < a));
            }
        }
        let mut cages_of = vec![Vec::new(); n * n];
        for (k, (cells, _)) in self.cages.iter().enumerate() {
            for &cell in cells {
                cages_of[cell].push(k);
            }
        }
        let search = Search {
            rules: self,
            givens,
            excluded,
            before,
            cages_of,
        };
        search.go(&mut vec![0; n * n], 0)
    }

    /// Whether `grid` (digits, row by row) keeps `givens` (0: blank) and every rule; the
    /// first rule it breaks otherwise.
    pub fn check(&self, givens: &[u8], grid: &[u8]) -> Result<(), String> {
        let n = self.n;
        if grid.len() != n * n {
            return Err(format!("{} cells", grid.len()));
        }
        for (i, (&g, &d)) in givens.iter().zip(grid).enumerate() {
            if !(1..=n as u8).contains(&d) {
                return Err(format!("cell {i} holds {d}"));
            }
            if g != 0 && g != d {
                return Err(format!("cell {i} changes its given {g} to {d}"));
            }
        }
        for group in &self.groups {
            let mut digits: Vec<u8> = group.iter().map(|&i| grid[i]).collect();
            digits.sort_unstable();
            if digits != (1..=n as u8).collect::<Vec<_>>() {
                return Err(format!("group {group:?} holds {digits:?}"));
            }
        }
        for (cells, sum) in &self.cages {
            let mut digits: Vec<u8> = cells.iter().map(|&i| grid[i]).collect();
            let total: u32 = digits.iter().map(|&d| u32::from(d)).sum();
            digits.sort_unstable();
            digits.dedup();
            if digits.len() != cells.len() || total != *sum {
                return Err(format!("cage {cells:?} adds up to {total}, not {sum}"));
            }
        }
        Ok(())
    }
}

struct Search<'a> {
    rules: &'a Rules,
    givens: &'a [u8],
    excluded: &'a [(usize, u8)],
    before: Vec<Vec<usize>>,
    cages_of: Vec<Vec<usize>>,
}

impl Search<'_> {
    fn go(&self, grid: &mut Vec<u8>, cell: usize) -> u64 {
        let n = self.rules.n;
        if cell == n * n {
            return 1;
        }
        let digits = match self.givens[cell] {
            0 => 1..=n as u8,
            given => given..=given,
        };
        let mut count = 0;
        for digit in digits {
            let allowed = !self.excluded.contains(&(cell, digit))
                && self.before[cell].iter().all(|&b| grid[b] != digit);
            if allowed {
                grid[cell] = digit;
                if self.cages_of[cell]
                    .iter()
                    .all(|&k| self.cage_holds(grid, k))
                {
                    count += self.go(grid, cell + 1);
                }
                grid[cell] = 0;
            }
        }
        count
    }

    /// Whether the filled cells of cage `k` hold different digits within its sum, all of it
    /// once the cage is full.
    fn cage_holds(&self, grid: &[u8], k: usize) -> bool {
        let (cells, sum) = &self.rules.cages[k];
        let filled: Vec<u8> = cells.iter().map(|&c| grid[c]).filter(|&d| d > 0).collect();
        let total: u32 = filled.iter().map(|&d| u32::from(d)).sum();
        let mut distinct = filled.clone();
        distinct.sort_unstable();
        distinct.dedup();
        distinct.len() == filled.len()
            && total <= *sum
            && (filled.len() < cells.len() || total == *sum)
    }
}
