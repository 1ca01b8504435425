//! The multi-line grid layout (.sdk): n rows of n cells with optional decoration, put
//! together one row at a time as the reader hands the lines over.

use super::cells::{RawCell, char_value, finish, is_numeric_token, number_cell, unknown_shape};
use super::{MAX_CHAR_SIZE, Puzzle};
use crate::error::{Error, ErrorKind, Result};
use crate::sudoku::Shape;

/// Whether a character is decoration in the grid layout.
fn is_decoration(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, '|' | '-' | '+')
}

/// Whether a line ends the grid being read (and is not part of any grid).
fn is_separator(text: &str) -> bool {
    let body = text.trim_start();
    body.is_empty() || body.starts_with('#') || body.starts_with('[')
}

/// The non-decoration runs of a grid row, with the 1-based column of their first character.
fn row_tokens(text: &str) -> Vec<(usize, &str)> {
    let mut tokens = Vec::new();
    let mut start = None;
    let mut column = 0;
    for (i, ch) in text.char_indices() {
        column += 1;
        match (is_decoration(ch), start) {
            (false, None) => start = Some((i, column)),
            (true, Some((s, c))) => {
                tokens.push((c, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((s, c)) = start {
        tokens.push((c, &text[s..]));
    }
    tokens
}

/// The shape of a grid and whether its rows are numbers, from its first row.
fn grid_mode(tokens: &[(usize, &str)], shape: Option<Shape>) -> Result<(Shape, bool)> {
    let chars: usize = tokens.iter().map(|(_, t)| t.chars().count()).sum();
    let all_numbers = tokens.iter().all(|(_, t)| is_numeric_token(t));
    if let Some(shape) = shape {
        let n = shape.size();
        let numeric = n > MAX_CHAR_SIZE || (chars != n && tokens.len() == n && all_numbers);
        return Ok((shape, numeric));
    }
    // One character per cell when that makes a known shape, else one number per cell.
    let by_chars = (chars <= MAX_CHAR_SIZE)
        .then(|| Shape::from_cell_count(chars * chars))
        .flatten();
    if let Some(shape) = by_chars {
        return Ok((shape, false));
    }
    if all_numbers && let Some(shape) = Shape::from_cell_count(tokens.len() * tokens.len()) {
        return Ok((shape, true));
    }
    // Name a bad character if there is one: it is likelier the cause than the count.
    for &(column, token) in tokens {
        if let Some(i) = token.chars().position(|c| char_value(c).is_none()) {
            let ch = token.chars().nth(i).unwrap_or('?');
            return Err(Error::new(ErrorKind::BadCharacter { ch }).with_column(column + i));
        }
    }
    let column = tokens.first().map_or(1, |t| t.0);
    Err(unknown_shape(chars * chars).with_column(column))
}

/// The grid being read.
#[derive(Debug, Default)]
struct Block {
    /// The line of the first row, 0 when no grid is open.
    start_line: usize,
    shape: Option<Shape>,
    numeric: bool,
    rows: usize,
    cells: Vec<RawCell>,
    skip: Skip,
}

/// What to skip after a bad row, so that the rest of its grid is not read as a new grid.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Skip {
    #[default]
    Nothing,
    /// This many more rows of the bad grid.
    Rows(usize),
    /// Everything up to the next separator (the grid's size is not known).
    ToSeparator,
}

/// Puts grids together from the lines of the grid layout, one line at a time, and hands out
/// each puzzle (or error) as soon as its last row is in.
#[derive(Debug)]
pub(super) struct GridAssembler {
    /// The shape given by the caller; each grid's own when `None`.
    shape: Option<Shape>,
    block: Block,
}

impl GridAssembler {
    /// An assembler of grids of the given shape (inferred from each grid's first row if `None`).
    pub(super) fn new(shape: Option<Shape>) -> GridAssembler {
        GridAssembler {
            shape,
            block: Block::default(),
        }
    }

    /// Takes line `line` of the input; returns a puzzle or an error when one is complete.
    pub(super) fn row(&mut self, text: &str, line: usize) -> Option<Result<Puzzle>> {
        if is_separator(text) {
            self.block.skip = Skip::Nothing;
            return self.end();
        }
        if !text.chars().any(|c| !is_decoration(c)) {
            return None;
        }
        if self.skips_row() {
            return None;
        }
        let tokens = row_tokens(text);
        if self.block.rows == 0 {
            self.block.start_line = line;
            self.block.cells.clear();
            let (shape, numeric) = match grid_mode(&tokens, self.shape) {
                Ok(mode) => mode,
                Err(err) => {
                    self.abandon_grid();
                    return Some(Err(err.with_line(line)));
                }
            };
            self.block.shape = Some(shape);
            self.block.numeric = numeric;
        }
        let shape = self.block.shape.expect("set on the first row");
        let n = shape.size();
        if let Err(err) = self.push_row(&tokens, text, line, n) {
            self.abandon_grid();
            return Some(Err(err));
        }
        self.block.rows += 1;
        if self.block.rows < n {
            return None;
        }
        let start = self.block.start_line;
        let cells = std::mem::take(&mut self.block.cells);
        self.block = Block::default();
        let first_column = cells.first().map_or(1, |c| c.column);
        let inferred = self.shape.is_none();
        let result = finish(&cells, Some(shape), start, first_column, first_column)
            .map(|grid| Puzzle {
                line: start,
                grid,
                label: None,
                board: None,
                shape_inferred: inferred,
            })
            .map_err(|err| match inferred {
                true => super::cells::inferred(err, shape),
                false => err,
            });
        self.block.cells = cells; // keep the allocation for the next grid
        Some(result)
    }

    /// A row that could not be read at all (a line too long to hold), with its error: a bad
    /// row like any other, unless it falls in the rest of a grid already reported.
    pub(super) fn unreadable_row(&mut self, err: Error) -> Option<Result<Puzzle>> {
        if self.skips_row() {
            return None;
        }
        self.abandon_grid();
        Some(Err(err))
    }

    /// Whether this row belongs to the rest of a bad grid, to be skipped (and counted off).
    fn skips_row(&mut self) -> bool {
        match self.block.skip {
            Skip::Nothing => false,
            Skip::Rows(k) => {
                self.block.skip = if k > 1 {
                    Skip::Rows(k - 1)
                } else {
                    Skip::Nothing
                };
                true
            }
            Skip::ToSeparator => true,
        }
    }

    /// Drops the grid of a bad row and skips what is left of it: its remaining rows when its
    /// size is known, else everything up to the next separator.
    fn abandon_grid(&mut self) {
        let skip = match self.block.shape {
            None => Skip::ToSeparator,
            Some(shape) => match shape.size() - self.block.rows - 1 {
                0 => Skip::Nothing,
                rows_left => Skip::Rows(rows_left),
            },
        };
        self.block = Block {
            skip,
            ..Block::default()
        };
    }

    /// Reads one row of n cells into the open grid, checking characters, length and range.
    fn push_row(
        &mut self,
        tokens: &[(usize, &str)],
        text: &str,
        line: usize,
        n: usize,
    ) -> Result<()> {
        let before = self.block.cells.len();
        let mut push = |value: u32, column: usize| {
            self.block.cells.push(RawCell {
                value,
                line,
                column,
            })
        };
        for &(column, token) in tokens {
            if self.block.numeric {
                let cell = number_cell(token, column).map_err(|err| err.with_line(line))?;
                push(cell.value, column);
            } else {
                for (i, ch) in token.chars().enumerate() {
                    let value = char_value(ch).ok_or_else(|| {
                        Error::at(ErrorKind::BadCharacter { ch }, line, column + i)
                    })?;
                    push(value, column + i);
                }
            }
        }
        let row = &self.block.cells[before..];
        if row.len() != n {
            let column = match row.get(n) {
                Some(extra) => extra.column,
                None => text.trim_end().chars().count() + 1,
            };
            let kind = ErrorKind::WrongLength {
                expected: n,
                found: row.len(),
            };
            return Err(Error::at(kind, line, column));
        }
        if let Some(cell) = row.iter().find(|c| c.value as usize > n) {
            let kind = ErrorKind::DigitOutOfRange {
                digit: cell.value,
                size: n,
            };
            return Err(Error::at(kind, line, cell.column));
        }
        Ok(())
    }

    /// The error for a grid cut short by a separator or the end of the input, if one is open.
    pub(super) fn end(&mut self) -> Option<Result<Puzzle>> {
        if self.block.rows == 0 {
            return None;
        }
        let n = self.block.shape.map_or(0, Shape::size);
        let column = self.block.cells.first().map_or(1, |c| c.column);
        let kind = ErrorKind::WrongLength {
            expected: n * n,
            found: self.block.rows * n,
        };
        let err = Error::at(kind, self.block.start_line, column);
        self.block = Block::default();
        Some(Err(err))
    }
}

#[cfg(test)]
mod tests {
    use crate::generate::random_puzzle;
    use crate::io::puzzle::Layout;
    use crate::io::puzzle::MAX_LINE_BYTES;
    use crate::io::puzzle::parse_line;
    use crate::io::puzzle::test_helpers::{CLASSIC, read, shape, summary};

    #[test]
    fn grid_layout_lines_too_long_are_bad_rows() {
        let long = "1".repeat(MAX_LINE_BYTES + 1);
        let text = format!(
            "12|..\n{long}\n21|..\n..|21\n\
             {long}\n12|..\n\n\
             12|..\n..|12\n21|..\n..|21\n\
             12|.*\n{long}\n21|..\n..|21\n\
             12|..\n..|12\n21|..\n{long}\n\
             12|..\n..|12\n21|..\n..|21\n"
        );
        let too_long = "column 1: the line is longer than 65536 bytes, more than any puzzle needs";
        let items = read(&text, None, Layout::Grid);
        assert_eq!(
            summary(&items),
            [
                // In a grid: the rest of the grid is skipped, as after any bad row.
                format!("line 2, {too_long}"),
                // Outside a grid: its size is unknown, so up to the next separator is skipped.
                format!("line 5, {too_long}"),
                "8: 12....1221....21 None".to_string(),
                // In what is left of a grid already reported, it is skipped with the rest.
                "line 12, column 5: unexpected character '*'".to_string(),
                // As the last row.
                format!("line 19, {too_long}"),
                "20: 12....1221....21 None".to_string(),
            ]
        );
    }

    #[test]
    fn grid_layout_with_decoration() {
        let text = "\
[Puzzle]
4 . . | . 3 . | . . .
. . . | 6 . . | 8 . .
. . . | . . . | . . 1
------+-------+------
. . . | . 5 . | . 9 .
. 8 . | . . . | 6 . .
. 7 . | 2 . . | . . .
------+-------+------
. . . | 1 . 2 | 7 . .
5 . 3 | . . . | . 4 .
9 . . | . . . | . . .

# the same, in the bare sdk layout, twice with no separator
4...3....
...6..8..
........1
....5..9.
.8....6..
.7.2.....
...1.27..
5.3....4.
9........
4...3....
...6..8..
........1
....5..9.
.8....6..
.7.2.....
...1.27..
5.3....4.
9........
";
        let items = read(text, None, Layout::Grid);
        let expected = parse_line(CLASSIC, None).unwrap();
        let lines: Vec<usize> = items.iter().map(|p| p.as_ref().unwrap().line).collect();
        assert_eq!(lines, [2, 15, 24]);
        for item in &items {
            assert_eq!(item.as_ref().unwrap().grid, expected);
        }
    }

    #[test]
    fn grid_layout_errors_name_line_and_column() {
        let text = "\
12|..
..|1*
21|..
..|21

12|..
..|12

12|..
..|12
21|..
..|2111
12|..
..|12
21|..
.1|21
12|..
..|12
21|..
..|27
";
        let items = read(text, None, Layout::Grid);
        assert_eq!(
            summary(&items),
            [
                // The bad row, and the rest of its grid is skipped.
                "line 2, column 5: unexpected character '*'",
                // Cut short by a blank line: reported where the grid starts.
                "line 6, column 1: expected 16 cells, found 8",
                "line 12, column 6: expected 4 cells, found 6",
                // Found when the grid is complete: at the second cell.
                "line 16, column 2: digit 1 is given twice in column 2: at r3c2 and r4c2",
                "line 20, column 5: digit 7 is out of range for a 4x4 grid (1..=4)",
            ]
        );
    }

    #[test]
    fn grid_layout_reads_numeric_36x36_rows() {
        let s = shape(6, 6);
        let grid = random_puzzle(s, 4, 700);
        let mut text = String::from("# 36x36, 0 for blank\n");
        for row in 0..36 {
            let cells: Vec<String> = (0..36).map(|col| grid.get(row, col).to_string()).collect();
            text.push_str(&cells.join("  "));
            text.push_str("\r\n");
        }
        let items = read(&text, None, Layout::Grid);
        assert_eq!(items.len(), 1);
        let puzzle = items[0].as_ref().unwrap();
        assert_eq!((puzzle.line, &puzzle.grid), (2, &grid));

        // A number out of range on row 5, cell 3: its column is where the number starts.
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut cells: Vec<&str> = lines[5].split("  ").collect();
        cells[2] = "40";
        let column = cells[0].len() + cells[1].len() + 5;
        lines[5] = cells.join("  ");
        let items = read(&lines.join("\n"), None, Layout::Grid);
        assert_eq!(
            summary(&items),
            [format!(
                "line 6, column {column}: digit 40 is out of range for a 36x36 grid (1..=36)"
            )]
        );
    }
}
