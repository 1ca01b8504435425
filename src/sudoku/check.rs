//! Checking grids against the rules, independently of every solver.
//!
//! Nothing here knows how any solver works: the checks restate the rules directly (each group
//! holds each digit at most once, and a solution holds each exactly once and keeps the givens),
//! so that a test which runs a solver and then [`check_solution`] is a real test of that
//! solver.
//!
//! The rules come from the [`Board`]: each group holds each digit at most once in a puzzle and
//! exactly once in a solution. Groups are named as people read them: `row 3`, `column 5`,
//! `box 2`, all 1-based, boxes numbered row by row from the top left; cells as `r3c5`.

use crate::board::Board;
use crate::error::{Error, ErrorKind, Result};
use crate::sudoku::Grid;

/// What is wrong with a proposed solution: the first rule it breaks, with the cells and digits.
/// Cells are 1-based (row, column).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// The solution's side or shape is not the puzzle's.
    #[error("the solution has box shape {found} but the puzzle has {expected}")]
    OtherShape {
        /// The puzzle's shape, as `RxC`.
        expected: String,
        /// The solution's shape.
        found: String,
    },
    /// A cell is left empty.
    #[error("r{}c{} is empty", cell.0, cell.1)]
    Empty {
        /// The cell.
        cell: (usize, usize),
    },
    /// A cell holds a value above n.
    #[error("r{}c{} holds {digit}, outside 1..={size}", cell.0, cell.1)]
    OutOfRange {
        /// The cell.
        cell: (usize, usize),
        /// The value.
        digit: u8,
        /// The side n.
        size: usize,
    },
    /// A given of the puzzle is changed.
    #[error("r{}c{} changes the given {given} to {digit}", cell.0, cell.1)]
    ChangedGiven {
        /// The cell.
        cell: (usize, usize),
        /// The puzzle's digit there.
        given: u8,
        /// The solution's.
        digit: u8,
    },
    /// A killer cage's digits do not add up to its sum.
    #[error("{cage} adds up to {found}, not {sum}")]
    CageSum {
        /// The cage, e.g. `cage 4`.
        cage: String,
        /// Its sum.
        sum: u32,
        /// What its digits add up to.
        found: u32,
    },
    /// A group (or a killer cage) holds a digit twice.
    #[error(
        "{group} holds {digit} twice (r{}c{} and r{}c{})",
        first.0, first.1, second.0, second.1
    )]
    Repeated {
        /// The group, e.g. `box 2`.
        group: String,
        /// The repeated digit.
        digit: u8,
        /// Where it is first, in the group's reading order.
        first: (usize, usize),
        /// Where it is again.
        second: (usize, usize),
    },
}

/// Checks that no digit is given twice in a row, column or box of the grid's Sudoku board
/// (see [`conflicts_on`]).
///
/// ```
/// use quadrille::io::puzzle::parse_line;
///
/// let grid = parse_line("1..1............", None);
/// // parse_line already refuses it, naming row 1 and both cells:
/// let err = grid.unwrap_err();
/// assert_eq!(err.to_string(), "column 4: digit 1 is given twice in row 1: at r1c1 and r1c4");
/// ```
pub fn conflicts(grid: &Grid) -> Result<()> {
    conflicts_on(grid.shape().board(), grid)
}

/// Checks that no digit is given twice in a group of `board` (or in one of its killer cages,
/// checked after the groups).
///
/// Cells are scanned in reading order (row by row); the error names the first cell that repeats
/// a digit already seen in one of its groups (as `second`), the earlier cell (as `first`), the
/// digit and the group (the first of the cell's groups in the board's order: for a Sudoku, a
/// row before a column before a box). The error has no position: a reader that knows where the
/// second cell was written adds it.
///
/// # Panics
/// If the grid's side is not the board's.
pub fn conflicts_on(board: &Board, grid: &Grid) -> Result<()> {
    let n = board.size();
    assert_eq!(grid.size(), n, "the grid's side is not the board's");
    // first[g * (n + 1) + digit] = 1 + the cell index where the digit was first seen in group
    // g, 0 if not yet; one flat table (n <= 64, so indices fit u16) keeps this cheap enough to
    // run on every puzzle read.
    let mut first = vec![0u16; board.groups().len() * (n + 1)];
    for cell in board.cells() {
        let d = grid.cells()[cell.index()] as usize;
        if d == 0 {
            continue;
        }
        for g in board.groups_of(cell) {
            let slot = &mut first[g * (n + 1) + d];
            if *slot != 0 {
                let earlier = usize::from(*slot - 1);
                let (row, col) = cell.row_col(n);
                return Err(Error::new(ErrorKind::ConflictingGivens {
                    digit: d as u32,
                    unit: board.group(g).to_string(),
                    first: (earlier / n + 1, earlier % n + 1),
                    second: (row + 1, col + 1),
                }));
            }
            *slot = (cell.index() + 1) as u16;
        }
    }
    // A killer cage holds each digit at most once too; cages are few and small.
    for cage in board.cages() {
        let mut seen: Vec<Option<usize>> = vec![None; n + 1];
        for cell in cage.cells() {
            let d = grid.cells()[cell.index()] as usize;
            if d == 0 {
                continue;
            }
            if let Some(earlier) = seen[d] {
                let (row, col) = cell.row_col(n);
                return Err(Error::new(ErrorKind::ConflictingGivens {
                    digit: d as u32,
                    unit: cage.to_string(),
                    first: (earlier / n + 1, earlier % n + 1),
                    second: (row + 1, col + 1),
                }));
            }
            seen[d] = Some(cell.index());
        }
    }
    Ok(())
}

/// Checks that `solution` solves `puzzle` on the puzzle's Sudoku board (see
/// [`check_solution_on`]).
///
/// ```
/// use quadrille::io::puzzle::parse_line;
/// use quadrille::sudoku::check::check_solution;
///
/// let puzzle = parse_line("1...............", None)?;
/// let good = parse_line("1234341221434321", None)?;
/// assert_eq!(check_solution(&puzzle, &good), Ok(()));
/// let mut bad = good.clone();
/// bad.set(0, 0, 2);
/// let err = check_solution(&puzzle, &bad).unwrap_err();
/// assert_eq!(err.to_string(), "r1c1 changes the given 1 to 2");
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> std::result::Result<(), Violation> {
    if puzzle.shape() != solution.shape() {
        return Err(Violation::OtherShape {
            expected: puzzle.shape().to_string(),
            found: solution.shape().to_string(),
        });
    }
    check_solution_on(puzzle.shape().board(), puzzle, solution)
}

/// Checks that `solution` solves `puzzle` on `board`: every cell filled with a digit in 1..=n,
/// every group a permutation of 1..=n, every killer cage's digits different and adding up to
/// its sum, and every given of the puzzle kept. The error is the first thing wrong, cells in
/// reading order, then the groups in the board's order, then the cages.
pub fn check_solution_on(
    board: &Board,
    puzzle: &Grid,
    solution: &Grid,
) -> std::result::Result<(), Violation> {
    let n = board.size();
    if puzzle.size() != n || solution.size() != n {
        return Err(Violation::OtherShape {
            expected: format!("{n}x{n} cells"),
            found: format!("{0}x{0} and {1}x{1}", puzzle.size(), solution.size()),
        });
    }
    let place = |index: usize| (index / n + 1, index % n + 1);
    for cell in board.cells() {
        let (d, given) = (solution.cells()[cell.index()], puzzle.cells()[cell.index()]);
        let at = place(cell.index());
        if d == 0 {
            return Err(Violation::Empty { cell: at });
        }
        if d as usize > n {
            return Err(Violation::OutOfRange {
                cell: at,
                digit: d,
                size: n,
            });
        }
        if given != 0 && given != d {
            return Err(Violation::ChangedGiven {
                cell: at,
                given,
                digit: d,
            });
        }
    }
    // Every digit is in 1..=n, so a group without repeats is a permutation.
    let mut seen: Vec<Option<usize>> = vec![None; n + 1];
    for group in board.groups() {
        seen.fill(None);
        for cell in group.cells() {
            let d = solution.cells()[cell.index()];
            if let Some(earlier) = seen[d as usize] {
                return Err(Violation::Repeated {
                    group: group.to_string(),
                    digit: d,
                    first: place(earlier),
                    second: place(cell.index()),
                });
            }
            seen[d as usize] = Some(cell.index());
        }
    }
    // A killer cage: different digits (checked as for a group), adding up to its sum.
    for cage in board.cages() {
        seen.fill(None);
        let mut sum = 0;
        for cell in cage.cells() {
            let d = solution.cells()[cell.index()];
            if let Some(earlier) = seen[d as usize] {
                return Err(Violation::Repeated {
                    group: cage.to_string(),
                    digit: d,
                    first: place(earlier),
                    second: place(cell.index()),
                });
            }
            seen[d as usize] = Some(cell.index());
            sum += u32::from(d);
        }
        if sum != cage.sum() {
            return Err(Violation::CageSum {
                cage: cage.to_string(),
                sum: cage.sum(),
                found: sum,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::Shape;

    fn grid(shape: Shape, rows: &[&[u8]]) -> Grid {
        Grid::from_cells(shape, rows.concat()).unwrap()
    }

    fn shape(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    // A valid 4x4 solution, built by hand (not by any code under test).
    fn solved4() -> Grid {
        grid(
            shape(2, 2),
            &[&[1, 2, 3, 4], &[3, 4, 1, 2], &[2, 1, 4, 3], &[4, 3, 2, 1]],
        )
    }

    fn conflict_of(grid: &Grid) -> (u32, String, (usize, usize), (usize, usize)) {
        let err = conflicts(grid).unwrap_err();
        match err.kind() {
            ErrorKind::ConflictingGivens {
                digit,
                unit,
                first,
                second,
            } => (*digit, unit.clone(), *first, *second),
            other => panic!("unexpected error {other:?}"),
        }
    }

    #[test]
    fn conflicts_accepts_valid_grids() {
        assert!(conflicts(&solved4()).is_ok());
        assert!(conflicts(&Grid::empty(shape(3, 3))).is_ok());
    }

    #[test]
    fn conflicts_names_row_column_and_box() {
        let s = shape(2, 2);
        let mut g = Grid::empty(s);
        g.set(1, 0, 3);
        g.set(1, 3, 3);
        assert_eq!(conflict_of(&g), (3, "row 2".into(), (2, 1), (2, 4)));

        let mut g = Grid::empty(s);
        g.set(0, 2, 4);
        g.set(3, 2, 4);
        assert_eq!(conflict_of(&g), (4, "column 3".into(), (1, 3), (4, 3)));

        // Same box, different row and column: box 4 is rows 3-4, columns 3-4.
        let mut g = Grid::empty(s);
        g.set(2, 3, 2);
        g.set(3, 2, 2);
        assert_eq!(conflict_of(&g), (2, "box 4".into(), (3, 4), (4, 3)));
    }

    #[test]
    fn conflicts_reports_the_first_in_reading_order() {
        let mut g = Grid::empty(shape(3, 3));
        g.set(8, 0, 5);
        g.set(8, 8, 5); // row 9: later in reading order
        g.set(2, 4, 7);
        g.set(5, 4, 7); // column 5: r6c5 comes first
        assert_eq!(conflict_of(&g), (7, "column 5".into(), (3, 5), (6, 5)));
    }

    #[test]
    fn accepts_a_solution() {
        let mut puzzle = solved4();
        for i in [1, 2, 5, 7, 8, 11, 13, 14] {
            puzzle.cells_mut()[i] = 0;
        }
        assert_eq!(check_solution(&puzzle, &solved4()), Ok(()));
        assert_eq!(
            check_solution(&Grid::empty(shape(2, 2)), &solved4()),
            Ok(())
        );
    }

    #[test]
    fn rejects_one_changed_cell() {
        let mut bad = solved4();
        bad.set(2, 1, 4); // was 1; row 3 now holds 4 twice
        assert_eq!(
            check_solution(&Grid::empty(shape(2, 2)), &bad)
                .unwrap_err()
                .to_string(),
            "row 3 holds 4 twice (r3c2 and r3c3)"
        );
    }

    #[test]
    fn rejects_two_swapped_cells() {
        // Swapping two cells of a row keeps the rows but breaks two columns.
        let mut bad = solved4();
        bad.set(0, 0, 2);
        bad.set(0, 1, 1);
        assert_eq!(
            check_solution(&Grid::empty(shape(2, 2)), &bad)
                .unwrap_err()
                .to_string(),
            "column 1 holds 2 twice (r1c1 and r3c1)"
        );
    }

    #[test]
    fn rejects_a_changed_given() {
        let mut puzzle = Grid::empty(shape(2, 2));
        puzzle.set(3, 2, 3);
        assert_eq!(
            check_solution(&puzzle, &solved4()).unwrap_err().to_string(),
            "r4c3 changes the given 3 to 2"
        );
    }

    #[test]
    fn rejects_a_duplicate_in_a_box_only() {
        // A Latin square (rows and columns are permutations) whose boxes are not.
        let latin = grid(
            shape(2, 2),
            &[&[1, 2, 3, 4], &[2, 3, 4, 1], &[3, 4, 1, 2], &[4, 1, 2, 3]],
        );
        assert_eq!(
            check_solution(&Grid::empty(shape(2, 2)), &latin)
                .unwrap_err()
                .to_string(),
            "box 1 holds 2 twice (r1c2 and r2c1)"
        );
    }

    #[test]
    fn rejects_empty_cells_and_other_shapes() {
        let mut partial = solved4();
        partial.set(1, 2, 0);
        assert_eq!(
            check_solution(&Grid::empty(shape(2, 2)), &partial)
                .unwrap_err()
                .to_string(),
            "r2c3 is empty"
        );
        let err = check_solution(&Grid::empty(shape(2, 3)), &solved4())
            .unwrap_err()
            .to_string();
        assert_eq!(err, "the solution has box shape 2x2 but the puzzle has 2x3");
    }
}
