//! The engines read the board, not the shape: boards other than a Sudoku's, counted by both
//! engines against answers found without them.

use quadrille::Budget;
use quadrille::board::{Board, Cell, Group};
use quadrille::engine::{Engine, Solve, Solver};
use quadrille::exact_cover::{Control, Dlx, Solution};
use quadrille::sudoku::check::{check_solution_on, conflicts_on};
use quadrille::sudoku::{Grid, Shape, encode};

use crate::support::{count_on, dlx_and_csp};

fn rows_and_columns(n: usize) -> Vec<Group> {
    let rows = (0..n).map(|r| Group::new("row", r + 1, (0..n).map(|c| Cell::at(r, c, n))));
    let cols = (0..n).map(|c| Group::new("column", c + 1, (0..n).map(|r| Cell::at(r, c, n))));
    rows.chain(cols).collect::<quadrille::Result<_>>().unwrap()
}

/// A Sudoku's groups and its two main diagonals (X-Sudoku).
fn x_sudoku(shape: Shape) -> Board {
    let n = shape.size();
    let mut groups = shape.board().groups().to_vec();
    groups.push(Group::new("diagonal", 1, (0..n).map(|i| Cell::at(i, i, n))).unwrap());
    groups.push(Group::new("diagonal", 2, (0..n).map(|i| Cell::at(i, n - 1 - i, n))).unwrap());
    Board::new(n, groups).unwrap()
}

#[test]
fn latin_squares_have_their_known_counts() {
    // 576 of order 4 and 161,280 of order 5 (OEIS A002860).
    for (n, known) in [(4, 576), (5, 161_280)] {
        let board = Board::new(n, rows_and_columns(n)).unwrap();
        let empty = Grid::empty(Shape::new(1, n).unwrap());
        for engine in dlx_and_csp() {
            assert_eq!(
                count_on(engine, &board, &empty),
                known,
                "{engine}, order {n}"
            );
        }
    }
}

#[test]
fn x_sudoku_4x4_counts_the_grids_whose_diagonals_are_whole() {
    // Every 4x4 Sudoku grid, listed by the exact-cover engine on the plain board, then kept
    // when the checker accepts it on the board with diagonals: the answer without the engines'
    // reading of the extra groups.
    let shape = Shape::new(2, 2).unwrap();
    let board = x_sudoku(shape);
    let empty = Grid::empty(shape);
    let mut dlx = Dlx::new(&encode::problem(shape.board()));
    let (mut grids, mut kept) = (0, 0);
    let mut options = Vec::new();
    dlx.search(&Budget::unlimited(), |s: &Solution<'_>| {
        options.clear();
        s.options_into(&mut options);
        let mut grid = Grid::empty(shape);
        for &option in &options {
            let (cell, digit) = encode::placement(4, option);
            grid.place(cell, Some(digit));
        }
        grids += 1;
        kept += u64::from(check_solution_on(&board, &empty, &grid).is_ok());
        Control::Continue
    });
    assert_eq!(grids, 288);
    assert!(kept > 0 && kept < 288);
    for engine in dlx_and_csp() {
        assert_eq!(count_on(engine, &board, &empty), kept, "{engine}");
    }
}

#[test]
fn x_sudoku_9x9_solutions_keep_the_diagonals() {
    // A 9x9 X-Sudoku with its two diagonals as givens: the checker, reading the same board,
    // accepts each engine's solution, and the engines agree on counts.
    let shape = Shape::CLASSIC;
    let board = x_sudoku(shape);
    let mut puzzle = Grid::empty(shape);
    for i in 0..9 {
        puzzle.set(i, i, (i + 1) as u8);
    }
    assert_eq!(
        conflicts_on(&board, &puzzle).map_err(|e| e.to_string()),
        Ok(())
    );
    let mut solutions = Vec::new();
    for engine in dlx_and_csp() {
        let outcome =
            Solver::new(engine, &board)
                .unwrap()
                .count(&puzzle, Some(1), &Budget::unlimited());
        let solution = outcome
            .solution
            .expect("a diagonal of 1..9 can be completed");
        assert_eq!(
            check_solution_on(&board, &puzzle, &solution),
            Ok(()),
            "{engine}"
        );
        solutions.push(solution);
    }
    // Every other cell of a solution, blanked: both engines count the same completions on the
    // X board (one), fewer than on the plain board (two), so the diagonals are read.
    let mut partial = solutions[0].clone();
    for cell in (0..81).step_by(2) {
        partial.cells_mut()[cell] = 0;
    }
    let on_x: Vec<u64> = dlx_and_csp()
        .map(|engine| count_on(engine, &board, &partial))
        .to_vec();
    assert_eq!(on_x, [1, 1]);
    assert_eq!(count_on(Engine::Dlx, shape.board(), &partial), 2);
    // Two equal digits on a diagonal are a conflict of the X board only.
    let mut clash = Grid::empty(shape);
    clash.set(0, 0, 5);
    clash.set(8, 8, 5);
    assert!(conflicts_on(shape.board(), &clash).is_ok());
    let err = conflicts_on(&board, &clash).unwrap_err().to_string();
    assert_eq!(
        err,
        "digit 5 is given twice in diagonal 1: at r1c1 and r9c9"
    );
}
