//! What both layouts share: the value of one cell as written, and the checks that turn the
//! cells of one puzzle into a [`Grid`] (shape, length, range, no repeated givens), with errors
//! that point at the cell to blame.

use crate::board::Board;
use crate::error::{Error, ErrorKind, Result};
use crate::sudoku::check::conflicts_on;
use crate::sudoku::{Grid, Shape};

/// One cell as read: its value before range checking (0 = empty) and where it was written.
#[derive(Clone, Copy, Debug)]
pub(super) struct RawCell {
    pub(super) value: u32,
    /// 1-based line, or 0 when the caller adds the line.
    pub(super) line: usize,
    /// 1-based character column.
    pub(super) column: usize,
}

/// An error at a column, and at a line unless `line` is 0 (the caller adds it then).
pub(super) fn error_at(err: impl Into<Error>, line: usize, column: usize) -> Error {
    let err = err.into().with_column(column);
    if line == 0 { err } else { err.with_line(line) }
}

/// The error for `cells` cells that make no shape the reader can infer, noting whether they
/// are as many as one row of a grid has (9, a row of a 9x9): the multi-line layout would read
/// them then. Below 6 cells a short line is likelier a typo than a row.
pub(super) fn unknown_shape(cells: usize) -> Error {
    let grid_row = cells >= 6 && Shape::from_cell_count(cells * cells).is_some();
    Error::new(ErrorKind::UnknownShape { cells }).with_grid_row(grid_row)
}

/// The value of a one-character cell: `Some(0)` for a blank, `None` for a bad character.
pub(super) fn char_value(ch: char) -> Option<u32> {
    match ch {
        '.' | '_' => Some(0),
        '0'..='9' => ch.to_digit(10),
        'a'..='z' | 'A'..='Z' => ch.to_digit(36),
        _ => None,
    }
}

/// The value of a numeric cell token (`0`, `.` or `_` for a blank), or the 0-based character
/// offset of its first bad character. Huge numbers saturate: they are out of range anyway.
fn number_value(token: &str) -> std::result::Result<u32, usize> {
    if token == "." || token == "_" {
        return Ok(0);
    }
    let mut value: u32 = 0;
    for (i, ch) in token.chars().enumerate() {
        let d = ch.to_digit(10).ok_or(i)?;
        value = value.saturating_mul(10).saturating_add(d);
    }
    Ok(value)
}

/// Whether a token is one numeric cell (for grids with n > 35).
pub(super) fn is_numeric_token(token: &str) -> bool {
    number_value(token).is_ok()
}

/// A numeric cell token written at `column` (on a line the caller adds).
pub(super) fn number_cell(token: &str, column: usize) -> Result<RawCell> {
    match number_value(token) {
        Ok(value) => Ok(RawCell {
            value,
            line: 0,
            column,
        }),
        Err(i) => {
            let ch = token.chars().nth(i).unwrap_or('?');
            Err(error_at(ErrorKind::BadCharacter { ch }, 0, column + i))
        }
    }
}

/// Whether a line's first word `first`, followed by `second`, opens the numeric layout: a
/// line of one character per cell has at least 16, so a short number followed by another can
/// only be numbers, read at every size (16x16 puzzles are often written in numbers).
pub(super) fn opens_numbers(first: &str, second: Option<&str>) -> bool {
    first.chars().count() <= 2 && is_numeric_token(first) && second.is_some_and(is_numeric_token)
}

/// The cells of a word of one character per cell whose first character is at `column` (on a
/// line the caller adds).
pub(super) fn char_cells(word: &str, column: usize) -> Result<Vec<RawCell>> {
    (word.chars().enumerate())
        .map(|(i, ch)| {
            let value = char_value(ch)
                .ok_or_else(|| error_at(ErrorKind::BadCharacter { ch }, 0, column + i))?;
            Ok(RawCell {
                value,
                line: 0,
                column: column + i,
            })
        })
        .collect()
}

/// Turns the cells of one puzzle into a grid: infers or checks the shape and the length, the
/// range of every digit, and that no digit is given twice in a unit. `start` is where the
/// puzzle begins and `end` just after its last cell, for errors about the whole puzzle.
pub(super) fn finish(
    cells: &[RawCell],
    shape: Option<Shape>,
    line: usize,
    start: usize,
    end: usize,
) -> Result<Grid> {
    let grid = grid_of(cells, shape, line, start, end)?;
    check_givens(&grid, cells, grid.shape().board()).map_err(|err| match shape {
        Some(_) => err,
        None => inferred(err, grid.shape()),
    })?;
    Ok(grid)
}

/// The grid of a token of one ASCII character per cell on a Sudoku of at most 9x9 whose
/// cells are all in range, with no given repeated in a row, column or box; `None` when any of
/// that fails, and [`finish`] then names the error and the cell to blame. A batch reads most
/// of its puzzles here: building [`RawCell`]s and checking the givens group by group cost
/// about as much as the bitboard solver's search of a 17-clue puzzle (callgrind,
/// `solve --limit 2 -j1` on the first 1,000 of puzzles2_17_clue).
pub(super) fn quick_grid(token: &[u8], shape: Option<Shape>) -> Option<Grid> {
    // 81 cells are the classic board, without the square root of `from_cell_count`.
    let shape = match shape {
        Some(shape) => shape,
        None if token.len() == 81 => Shape::CLASSIC,
        None => Shape::from_cell_count(token.len())?,
    };
    let n = shape.size();
    if n > 9 || token.len() != shape.cell_count() {
        return None;
    }
    // Each byte's value by arithmetic, branch-free, so that the compiler runs the loops on
    // vectors, which it cannot do with a table lookup per byte: 0 for an empty cell (`.`, `_`,
    // `0`), the digit for `1` to `9`, and over 9 for any other byte, which the highest value
    // then refuses (callgrind, `solve --limit 2 -j1` on the first 5,000 of
    // puzzles7_serg_benchmark).
    let values: Vec<u8> = (token.iter())
        .map(|&byte| {
            let blank = byte == b'.' || byte == b'_';
            if blank { 0 } else { byte.wrapping_sub(b'0') }
        })
        .collect();
    if usize::from(values.iter().fold(0, |highest, &v| highest.max(v))) > n {
        return None;
    }
    // The classic board's sides are constants here, so that its boxes need no division.
    let repeated = if shape == Shape::CLASSIC {
        repeated_classic_givens(&values)
    } else {
        repeated_givens(&values, n, shape.box_rows(), shape.box_cols())
    };
    (!repeated).then(|| Grid::from_cells_in_range(shape, values))
}

/// Whether a digit is given twice in a row, column or box of an n x n grid (n at most 9)
/// whose values are all in range. The givens are found as a mask, 27 cells at a time, and
/// only they are visited: a branch per cell on whether it is given mispredicts at every given
/// (callgrind `--branch-sim=yes`, `solve --limit 2 -j1` on puzzles2_17_clue).
#[inline(always)]
fn repeated_givens(values: &[u8], n: usize, box_rows: usize, box_cols: usize) -> bool {
    // Per row, column and box: the digits seen, one bit each; sixteen entries, so that an
    // index masked to four bits is always in range.
    let (mut rows, mut cols, mut boxes) = ([0u16; 16], [0u16; 16], [0u16; 16]);
    let mut repeated = 0u16;
    for (chunk, chunk_values) in values.chunks(27).enumerate() {
        let mut given = (chunk_values.iter().enumerate())
            .fold(0u32, |mask, (i, &v)| mask | u32::from(v != 0) << i);
        while given != 0 {
            let i = given.trailing_zeros() as usize;
            given &= given - 1;
            let bit = 1u16 << (chunk_values[i] & 15);
            let cell = 27 * chunk + i;
            let (row, col) = (cell / n, cell % n);
            let (row, col, b) = (
                row & 15,
                col & 15,
                (row / box_rows * (n / box_cols) + col / box_cols) & 15,
            );
            repeated |= (rows[row] | cols[col] | boxes[b]) & bit;
            rows[row] |= bit;
            cols[col] |= bit;
            boxes[b] |= bit;
        }
    }
    repeated != 0
}

/// For each cell of the classic board: its row, column and box as bits of one word (row r
/// bit r, column c bit 9 + c, box b bit 18 + b), so that a given costs one lookup and a test
/// against the units that already have its digit.
const CLASSIC_UNITS: [u32; 81] = {
    let mut units = [0; 81];
    let mut cell = 0;
    while cell < 81 {
        let (row, col) = (cell / 9, cell % 9);
        units[cell] = 1 << row | 1 << (9 + col) | 1 << (18 + row / 3 * 3 + col / 3);
        cell += 1;
    }
    units
};

/// [`repeated_givens`] on the classic board (81 values, all in range), by [`CLASSIC_UNITS`]:
/// per digit, the units that have it, so that a given costs a test and a union of two words,
/// where a word of digits per unit costs three of each (callgrind, `solve --limit 2 -j1` on
/// the first 5,000 of puzzles7_serg_benchmark).
#[inline(always)]
fn repeated_classic_givens(values: &[u8]) -> bool {
    // Per digit, the units that have it; 16 entries, so that a masked index is in range.
    let mut seen = [0u32; 16];
    let mut repeated = 0u32;
    for (chunk_values, chunk_units) in values.chunks(27).zip(CLASSIC_UNITS.chunks(27)) {
        let mut given = (chunk_values.iter().enumerate())
            .fold(0u32, |mask, (i, &v)| mask | u32::from(v != 0) << i);
        while given != 0 {
            let i = given.trailing_zeros() as usize;
            given &= given - 1;
            let (digit, units) = (usize::from(chunk_values[i] & 15), chunk_units[i]);
            repeated |= seen[digit] & units;
            seen[digit] |= units;
        }
    }
    repeated != 0
}

/// `err`, for a puzzle read with `shape`'s boxes inferred from its length.
pub(super) fn inferred(err: Error, shape: Shape) -> Error {
    err.with_inferred_boxes(shape.box_rows(), shape.box_cols())
}

/// [`finish`] without the check of repeated givens: the shape, the length and the range.
pub(super) fn grid_of(
    cells: &[RawCell],
    shape: Option<Shape>,
    line: usize,
    start: usize,
    end: usize,
) -> Result<Grid> {
    let found = cells.len();
    let shape = shape
        .or_else(|| Shape::from_cell_count(found))
        .ok_or_else(|| error_at(unknown_shape(found), line, start))?;
    let expected = shape.cell_count();
    if found != expected {
        let (line, column) = match cells.get(expected) {
            Some(extra) => (extra.line, extra.column),
            None => (line, end),
        };
        return Err(error_at(
            ErrorKind::WrongLength { expected, found },
            line,
            column,
        ));
    }
    let n = shape.size();
    let mut values = Vec::with_capacity(found);
    for cell in cells {
        if cell.value as usize > n {
            let kind = ErrorKind::DigitOutOfRange {
                digit: cell.value,
                size: n,
            };
            return Err(error_at(kind, cell.line, cell.column));
        }
        values.push(cell.value as u8);
    }
    Ok(Grid::from_cells(shape, values).expect("length and range were checked"))
}

/// Checks that no digit is given twice in a group (or cage) of `board`, the error pointing at
/// the cell of `cells` where the repeat is seen.
pub(super) fn check_givens(grid: &Grid, cells: &[RawCell], board: &Board) -> Result<()> {
    let n = grid.size();
    conflicts_on(board, grid).map_err(|err| {
        let ErrorKind::ConflictingGivens { second, .. } = err.kind() else {
            return err;
        };
        // The error points at the second cell, where the reader first sees the repeat.
        let cell = cells[(second.0 - 1) * n + second.1 - 1];
        let err = err.with_column(cell.column);
        if cell.line > 0 {
            err.with_line(cell.line)
        } else {
            err
        }
    })
}
