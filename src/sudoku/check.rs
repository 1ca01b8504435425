//! Checking grids against the rules, independently of every solver.
//!
//! Nothing here knows how any solver works: the checks restate the rules of Sudoku directly
//! (each row, column and box holds each digit at most once, and a solution holds each exactly
//! once and keeps the givens), so that a test which runs a solver and then [`check_solution`]
//! is a real test of that solver.
//!
//! Units are named as people read them: `row 3`, `column 5`, `box 2`, all 1-based, boxes
//! numbered row by row from the top left; cells as `r3c5`.

use crate::error::{Error, ErrorKind, Result};
use crate::sudoku::Grid;

/// The three kinds of unit, in the order they are checked.
#[derive(Clone, Copy)]
enum Unit {
    Row,
    Column,
    Box,
}

impl Unit {
    const ALL: [Unit; 3] = [Unit::Row, Unit::Column, Unit::Box];

    fn name(self) -> &'static str {
        match self {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
        }
    }

    /// The 0-based index of this kind of unit that holds 0-based (row, col).
    fn index(self, grid: &Grid, row: usize, col: usize) -> usize {
        match self {
            Unit::Row => row,
            Unit::Column => col,
            Unit::Box => grid.shape().box_of(row, col),
        }
    }

    /// The 0-based cells of unit `k`, in reading order.
    fn cells(self, grid: &Grid, k: usize) -> impl Iterator<Item = (usize, usize)> {
        let shape = grid.shape();
        let n = shape.size();
        let (top, left) = shape.box_origin(k);
        (0..n).map(move |i| match self {
            Unit::Row => (k, i),
            Unit::Column => (i, k),
            Unit::Box => (top + i / shape.box_cols(), left + i % shape.box_cols()),
        })
    }
}

/// Checks that no digit is given twice in a row, column or box.
///
/// Cells are scanned in reading order (row by row); the error names the first cell that repeats
/// a digit already seen in one of its units (as `second`), the earlier cell (as `first`), the
/// digit and the unit (a row before a column before a box). The error has no position: a reader
/// that knows where the second cell was written adds it.
///
/// ```
/// use quadrille::io::puzzle::parse_line;
/// use quadrille::sudoku::check;
///
/// let grid = parse_line("1..1............", None);
/// // parse_line already refuses it, naming row 1 and both cells:
/// let err = grid.unwrap_err();
/// assert_eq!(err.to_string(), "column 4: digit 1 is given twice in row 1: at r1c1 and r1c4");
/// # let _ = check::conflicts;
/// ```
pub fn conflicts(grid: &Grid) -> Result<()> {
    let n = grid.size();
    // first[(unit * n + k) * (n + 1) + digit] = 1 + the cell index where the digit was first
    // seen, 0 if not yet; one flat table (n <= 64, so indices fit u16) keeps this cheap enough
    // to run on every puzzle read.
    let mut first = vec![0u16; 3 * n * (n + 1)];
    for row in 0..n {
        for col in 0..n {
            let d = grid.get(row, col) as usize;
            if d == 0 {
                continue;
            }
            for (u, unit) in Unit::ALL.into_iter().enumerate() {
                let k = unit.index(grid, row, col);
                let slot = &mut first[(u * n + k) * (n + 1) + d];
                if *slot != 0 {
                    let earlier = usize::from(*slot - 1);
                    return Err(Error::new(ErrorKind::ConflictingGivens {
                        digit: d as u32,
                        unit: format!("{} {}", unit.name(), k + 1),
                        first: (earlier / n + 1, earlier % n + 1),
                        second: (row + 1, col + 1),
                    }));
                }
                *slot = (row * n + col + 1) as u16;
            }
        }
    }
    Ok(())
}

/// Checks that `solution` solves `puzzle`: the same shape, every cell filled with a digit in
/// 1..=n, every row, column and box a permutation of 1..=n, and every given of the puzzle kept.
///
/// The message names the first thing wrong, with the cell or unit, e.g.
/// `r3c5 is empty`, `r1c2 changes the given 7 to 4`, `box 2 holds 5 twice (r1c4 and r2c6)`.
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
/// assert_eq!(check_solution(&puzzle, &bad).unwrap_err(), "r1c1 changes the given 1 to 2");
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> std::result::Result<(), String> {
    if puzzle.shape() != solution.shape() {
        return Err(format!(
            "the solution has box shape {} but the puzzle has {}",
            solution.shape(),
            puzzle.shape()
        ));
    }
    let n = solution.size();
    for row in 0..n {
        for col in 0..n {
            let d = solution.get(row, col);
            let cell = format!("r{}c{}", row + 1, col + 1);
            if d == 0 {
                return Err(format!("{cell} is empty"));
            }
            if d as usize > n {
                return Err(format!("{cell} holds {d}, outside 1..={n}"));
            }
            let given = puzzle.get(row, col);
            if given != 0 && given != d {
                return Err(format!("{cell} changes the given {given} to {d}"));
            }
        }
    }
    // Every digit is in 1..=n, so a unit without repeats is a permutation.
    for unit in Unit::ALL {
        for k in 0..n {
            let mut seen: Vec<Option<(usize, usize)>> = vec![None; n + 1];
            for (row, col) in unit.cells(solution, k) {
                let d = solution.get(row, col) as usize;
                if let Some((r0, c0)) = seen[d] {
                    return Err(format!(
                        "{} {} holds {d} twice (r{}c{} and r{}c{})",
                        unit.name(),
                        k + 1,
                        r0 + 1,
                        c0 + 1,
                        row + 1,
                        col + 1
                    ));
                }
                seen[d] = Some((row, col));
            }
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
            check_solution(&Grid::empty(shape(2, 2)), &bad).unwrap_err(),
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
            check_solution(&Grid::empty(shape(2, 2)), &bad).unwrap_err(),
            "column 1 holds 2 twice (r1c1 and r3c1)"
        );
    }

    #[test]
    fn rejects_a_changed_given() {
        let mut puzzle = Grid::empty(shape(2, 2));
        puzzle.set(3, 2, 3);
        assert_eq!(
            check_solution(&puzzle, &solved4()).unwrap_err(),
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
            check_solution(&Grid::empty(shape(2, 2)), &latin).unwrap_err(),
            "box 1 holds 2 twice (r1c2 and r2c1)"
        );
    }

    #[test]
    fn rejects_empty_cells_and_other_shapes() {
        let mut partial = solved4();
        partial.set(1, 2, 0);
        assert_eq!(
            check_solution(&Grid::empty(shape(2, 2)), &partial).unwrap_err(),
            "r2c3 is empty"
        );
        let err = check_solution(&Grid::empty(shape(2, 3)), &solved4()).unwrap_err();
        assert_eq!(err, "the solution has box shape 2x2 but the puzzle has 2x3");
    }
}
