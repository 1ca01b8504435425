//! Reading and writing puzzles: one per line, or multi-line grids.
//!
//! **One puzzle per line** ([`Layout::Line`], the layout of the usual puzzle collections):
//! n*n characters, `.`, `0` or `_` for an empty cell, `1`-`9` then `A`-`Z` (either case) for
//! 10..=35. The shape follows from the length ([`Shape::from_cell_count`]) unless it is given.
//! Text after the puzzle, separated by whitespace, `,` or `;`, is a comment whose first word is
//! the puzzle's [`label`](Puzzle::label) (`easy`, `hard`, ...). Grids with n > 35 have no
//! one-letter alphabet; their line is whitespace-separated numbers (`0` or `.` for empty), as
//! [`Grid::write_line`] writes it, and the comment then starts at `,`, `;` or `#`.
//!
//! **Multi-line grids** ([`Layout::Grid`], the .sdk layout): n rows of n cells, where `|`, `-`,
//! `+` and whitespace are decoration and rows made only of decoration are skipped; grids are
//! separated by blank lines, by lines starting with `#` or `[` (sdk headers), or simply follow
//! each other every n rows. For n > 35 the rows are whitespace-separated numbers. The shape
//! comes from the first row's cell count unless given. [`write_pretty`] writes this layout.
//!
//! In both layouts, lines starting with `#` and blank lines are skipped but counted, so that an
//! error names the line and the 1-based character column where it is, as an editor shows them.
//! Givens are checked as they are read (bad characters, digits out of range, wrong lengths, two
//! equal givens in a unit); a well-formed puzzle with no solution is not an error here.
//!
//! The reader is a streaming iterator: it holds one line (one grid in the grid layout) at a
//! time, so a file of a million puzzles is never in memory, and it goes on after a bad puzzle.
//!
//! ```
//! use quadrille::sudoku::format::{Layout, PuzzleReader};
//!
//! let text = "# two puzzles\n1.3.34.2.......1 easy\n1.1.............\n";
//! let mut reader = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
//! let first = reader.next().unwrap()?;
//! assert_eq!((first.line, first.label.as_deref()), (2, Some("easy")));
//! let second = reader.next().unwrap().unwrap_err();
//! assert_eq!(second.to_string(), "line 3, column 3: digit 1 is given twice in row 1: at r1c1 and r1c3");
//! assert!(reader.next().is_none());
//! # Ok::<(), quadrille::Error>(())
//! ```

use std::io::BufRead;

use crate::error::{Error, ErrorKind, Result};
use crate::sudoku::check::conflicts;
use crate::sudoku::{Grid, Shape, digit_char};

/// The largest n whose digits have one character each (`1`-`9`, `A`-`Z`).
const MAX_CHAR_SIZE: usize = 35;

/// How puzzles are laid out in the input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// One puzzle per line, with an optional comment after it.
    #[default]
    Line,
    /// Multi-line grids of n rows (the .sdk layout), with optional decoration.
    Grid,
}

/// A puzzle read from the input, with where it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The 1-based line of the input where the puzzle starts.
    pub line: usize,
    /// The givens.
    pub grid: Grid,
    /// The first word of the comment after the puzzle, if any (one-line layout only).
    pub label: Option<String>,
}

/// Reads one puzzle from one line: the puzzle text, optionally followed by a comment.
///
/// Errors carry the 1-based character column (and no line: the reader adds it).
///
/// ```
/// use quadrille::sudoku::format::parse_line;
///
/// let grid = parse_line("1.3.34.2.......1 # easy", None)?;
/// assert_eq!((grid.size(), grid.get(0, 2)), (4, 3));
/// let err = parse_line("1.3.34.2.......5", None).unwrap_err();
/// assert_eq!(err.to_string(), "column 16: digit 5 is out of range for a 4x4 grid (1..=4)");
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn parse_line(text: &str, shape: Option<Shape>) -> Result<Grid> {
    parse_puzzle_line(text, shape).map(|(grid, _)| grid)
}

/// One cell as read: its value before range checking (0 = empty) and where it was written.
#[derive(Clone, Copy, Debug)]
struct RawCell {
    value: u32,
    /// 1-based line, or 0 when the caller adds the line.
    line: usize,
    /// 1-based character column.
    column: usize,
}

fn error_at(kind: ErrorKind, line: usize, column: usize) -> Error {
    if line == 0 {
        Error::new(kind).with_column(column)
    } else {
        Error::at(kind, line, column)
    }
}

/// Whether a character separates a one-line puzzle from its comment.
fn ends_puzzle(ch: char) -> bool {
    ch.is_whitespace() || ch == ',' || ch == ';'
}

/// The value of a one-character cell: `Some(0)` for a blank, `None` for a bad character.
fn char_value(ch: char) -> Option<u32> {
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

fn is_numeric_token(token: &str) -> bool {
    number_value(token).is_ok()
}

/// The puzzle and label of one line.
fn parse_puzzle_line(text: &str, shape: Option<Shape>) -> Result<(Grid, Option<String>)> {
    let text = text.trim_end_matches(['\n', '\r']);
    // Leading whitespace (and a byte-order mark) is skipped but counted in columns.
    let skipped = text
        .chars()
        .take_while(|&c| c.is_whitespace() || c == '\u{feff}')
        .count();
    let body = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let token_end = body.find(ends_puzzle).unwrap_or(body.len());
    let token = &body[..token_end];
    let numeric = match shape {
        Some(shape) => shape.size() > MAX_CHAR_SIZE,
        // A one-character-per-cell line has at least 16 characters; a short number followed by
        // another can only be the numeric layout.
        None => {
            token.chars().count() <= 2
                && is_numeric_token(token)
                && body[token_end..]
                    .split_whitespace()
                    .next()
                    .is_some_and(is_numeric_token)
        }
    };
    let mut cells = Vec::new();
    let (end_column, comment) = if numeric {
        let end = body.find([',', ';', '#']).unwrap_or(body.len());
        let mut column = skipped;
        let mut start = None;
        for (i, ch) in body[..end].char_indices() {
            column += 1;
            match (ch.is_whitespace(), start) {
                (false, None) => start = Some((i, column)),
                (true, Some((s, c))) => {
                    cells.push(number_cell(&body[s..i], c)?);
                    start = None;
                }
                _ => {}
            }
        }
        if let Some((s, c)) = start {
            cells.push(number_cell(&body[s..end], c)?);
        }
        let last = body[..end].trim_end().chars().count();
        (skipped + last + 1, &body[end..])
    } else {
        for (i, ch) in token.chars().enumerate() {
            let column = skipped + i + 1;
            let value = char_value(ch)
                .ok_or_else(|| error_at(ErrorKind::BadCharacter { ch }, 0, column))?;
            cells.push(RawCell {
                value,
                line: 0,
                column,
            });
        }
        (skipped + cells.len() + 1, &body[token_end..])
    };
    let grid = finish(&cells, shape, 0, skipped + 1, end_column)?;
    let label = comment
        .split(|c: char| ends_puzzle(c) || c == '#')
        .find(|word| !word.is_empty())
        .map(str::to_string);
    Ok((grid, label))
}

fn number_cell(token: &str, column: usize) -> Result<RawCell> {
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

/// Turns the cells of one puzzle into a grid: infers or checks the shape and the length, the
/// range of every digit, and that no digit is given twice in a unit. `start` is where the
/// puzzle begins and `end` just after its last cell, for errors about the whole puzzle.
fn finish(
    cells: &[RawCell],
    shape: Option<Shape>,
    line: usize,
    start: usize,
    end: usize,
) -> Result<Grid> {
    let found = cells.len();
    let shape = shape
        .or_else(|| Shape::from_cell_count(found))
        .ok_or_else(|| error_at(ErrorKind::UnknownShape { cells: found }, line, start))?;
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
    let grid = Grid::from_cells(shape, values).expect("length and range were checked");
    conflicts(&grid).map_err(|err| {
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
    })?;
    Ok(grid)
}

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

/// Where the reader is in the grid layout.
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

/// A streaming reader of puzzles: one `Result<Puzzle>` per puzzle, skipping comments and blank
/// lines. A bad puzzle gives an `Err` with its line and column, and reading goes on after it;
/// an I/O error is the last item. Bytes that are not UTF-8 are read as U+FFFD and reported as
/// bad characters.
///
/// ```
/// use quadrille::sudoku::format::{Layout, PuzzleReader};
///
/// let sdk = "[Puzzle]\n1 2|. .\n. .|1 2\n-----+----\n2 1|. .\n. .|2 1\n";
/// let puzzles: Vec<_> = PuzzleReader::new(sdk.as_bytes(), None, Layout::Grid)
///     .collect::<Result<_, _>>()?;
/// assert_eq!(puzzles.len(), 1);
/// assert_eq!((puzzles[0].line, puzzles[0].grid.to_string()), (2, "12....1221....21".to_string()));
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Debug)]
pub struct PuzzleReader<R: BufRead> {
    input: R,
    shape: Option<Shape>,
    layout: Layout,
    /// The bytes of the current line, reused from line to line.
    buf: Vec<u8>,
    /// Lines read so far: the current line's 1-based number.
    line: usize,
    done: bool,
    block: Block,
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader of puzzles of the given shape (inferred from each puzzle when `None`).
    pub fn new(input: R, shape: Option<Shape>, layout: Layout) -> PuzzleReader<R> {
        PuzzleReader {
            input,
            shape,
            layout,
            buf: Vec::new(),
            line: 0,
            done: false,
            block: Block::default(),
        }
    }

    /// The number of lines read so far.
    pub fn lines_read(&self) -> usize {
        self.line
    }

    /// Reads the next line into `buf`; `Ok(false)` at the end of the input.
    fn read_line(&mut self) -> std::io::Result<bool> {
        self.buf.clear();
        if self.input.read_until(b'\n', &mut self.buf)? == 0 {
            return Ok(false);
        }
        self.line += 1;
        Ok(true)
    }

    fn next_line_puzzle(&mut self) -> Option<Result<Puzzle>> {
        loop {
            match self.read_line() {
                Ok(true) => {}
                Ok(false) => return None,
                Err(err) => return Some(Err(self.io_error(err))),
            }
            let text = String::from_utf8_lossy(&self.buf);
            let text = text.trim_start_matches('\u{feff}');
            if is_line_skipped(text) {
                continue;
            }
            let line = self.line;
            let result = parse_puzzle_line(text, self.shape)
                .map(|(grid, label)| Puzzle { line, grid, label })
                .map_err(|err| err.with_line(line));
            return Some(result);
        }
    }

    fn next_grid_puzzle(&mut self) -> Option<Result<Puzzle>> {
        loop {
            match self.read_line() {
                Ok(true) => {}
                Ok(false) => return self.unfinished_grid(),
                Err(err) => return Some(Err(self.io_error(err))),
            }
            let buf = std::mem::take(&mut self.buf);
            let text = String::from_utf8_lossy(&buf);
            let result = self.grid_row(text.trim_start_matches('\u{feff}'));
            drop(text);
            self.buf = buf;
            if let Some(result) = result {
                return Some(result);
            }
        }
    }

    /// Takes one line of the grid layout; returns a puzzle or an error when one is complete.
    fn grid_row(&mut self, text: &str) -> Option<Result<Puzzle>> {
        if is_separator(text) {
            self.block.skip = Skip::Nothing;
            return self.unfinished_grid();
        }
        if !text.chars().any(|c| !is_decoration(c)) {
            return None;
        }
        match self.block.skip {
            Skip::Nothing => {}
            Skip::Rows(k) => {
                self.block.skip = if k > 1 {
                    Skip::Rows(k - 1)
                } else {
                    Skip::Nothing
                };
                return None;
            }
            Skip::ToSeparator => return None,
        }
        let tokens = row_tokens(text);
        let line = self.line;
        if self.block.rows == 0 {
            self.block.start_line = line;
            self.block.cells.clear();
            let (shape, numeric) = match grid_mode(&tokens, self.shape) {
                Ok(mode) => mode,
                Err(err) => {
                    self.block = Block {
                        skip: Skip::ToSeparator,
                        ..Block::default()
                    };
                    return Some(Err(err.with_line(line)));
                }
            };
            self.block.shape = Some(shape);
            self.block.numeric = numeric;
        }
        let shape = self.block.shape.expect("set on the first row");
        let n = shape.size();
        if let Err(err) = self.push_row(&tokens, text, n) {
            let rows_left = n - self.block.rows - 1;
            self.block = Block {
                skip: if rows_left > 0 {
                    Skip::Rows(rows_left)
                } else {
                    Skip::Nothing
                },
                ..Block::default()
            };
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
        let result =
            finish(&cells, Some(shape), start, first_column, first_column).map(|grid| Puzzle {
                line: start,
                grid,
                label: None,
            });
        self.block.cells = cells; // keep the allocation for the next grid
        Some(result)
    }

    /// Reads one row of n cells into the open grid, checking characters, length and range.
    fn push_row(&mut self, tokens: &[(usize, &str)], text: &str, n: usize) -> Result<()> {
        let line = self.line;
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
    fn unfinished_grid(&mut self) -> Option<Result<Puzzle>> {
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

    fn io_error(&mut self, err: std::io::Error) -> Error {
        self.done = true;
        Error::from(err).with_line(self.line + 1)
    }
}

/// Whether a line of the one-line layout holds no puzzle.
fn is_line_skipped(text: &str) -> bool {
    let body = text.trim_start();
    body.is_empty() || body.starts_with('#')
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
    Err(Error::new(ErrorKind::UnknownShape {
        cells: chars * chars,
    })
    .with_column(column))
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Puzzle>;

    fn next(&mut self) -> Option<Result<Puzzle>> {
        if self.done {
            return None;
        }
        match self.layout {
            Layout::Line => self.next_line_puzzle(),
            Layout::Grid => self.next_grid_puzzle(),
        }
    }
}

/// Writes a grid on several lines with box separators, e.g. for 4x4:
///
/// ```text
/// 1 2 | . .
/// . . | 1 2
/// ----+----
/// 2 1 | . .
/// . . | 2 1
/// ```
///
/// Cells are `.` or a digit character; for n > 35, right-aligned numbers. Every line ends with
/// `\n`. [`PuzzleReader`] with [`Layout::Grid`] reads it back.
///
/// ```
/// use quadrille::sudoku::format::{parse_line, write_pretty};
///
/// let mut out = String::new();
/// write_pretty(&parse_line("12....1221....21", None)?, &mut out);
/// assert_eq!(out, "1 2 | . .\n. . | 1 2\n----+----\n2 1 | . .\n. . | 2 1\n");
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn write_pretty(grid: &Grid, out: &mut String) {
    let shape = grid.shape();
    let n = shape.size();
    let width = if n > MAX_CHAR_SIZE {
        n.to_string().len()
    } else {
        1
    };
    let stack_width = shape.box_cols() * (width + 1) - 1;
    for row in 0..n {
        if row > 0 && row % shape.box_rows() == 0 {
            for stack in 0..shape.box_rows() {
                if stack > 0 {
                    out.push_str("-+-");
                }
                out.extend(std::iter::repeat_n('-', stack_width));
            }
            out.push('\n');
        }
        for col in 0..n {
            if col > 0 {
                out.push_str(if col % shape.box_cols() == 0 {
                    " | "
                } else {
                    " "
                });
            }
            let d = grid.get(row, col);
            if width == 1 {
                out.push(digit_char(d));
            } else if d == 0 {
                out.push_str(&format!("{:>width$}", "."));
            } else {
                out.push_str(&format!("{d:>width$}"));
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{random_contradictory, random_grid, random_puzzle};
    use crate::sudoku::check::conflicts;
    use proptest::prelude::*;

    const CLASSIC: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    fn shape(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    /// The message with its position, e.g. `line 3, column 7: ...`.
    fn line_err(text: &str, shape: Option<Shape>) -> String {
        parse_line(text, shape).unwrap_err().to_string()
    }

    fn read(text: &str, shape: Option<Shape>, layout: Layout) -> Vec<Result<Puzzle>> {
        PuzzleReader::new(text.as_bytes(), shape, layout).collect()
    }

    /// Each item as `line: grid label` or `error message`, to compare whole streams at once.
    fn summary(items: &[Result<Puzzle>]) -> Vec<String> {
        items
            .iter()
            .map(|item| match item {
                Ok(p) => format!("{}: {} {:?}", p.line, p.grid, p.label),
                Err(err) => err.to_string(),
            })
            .collect()
    }

    #[test]
    fn reads_a_classic_line() {
        let grid = parse_line(CLASSIC, None).unwrap();
        assert_eq!(grid.shape(), Shape::CLASSIC);
        assert_eq!((grid.get(0, 0), grid.get(0, 4), grid.get(1, 3)), (4, 3, 6));
        assert_eq!(grid.givens(), 18);
        assert_eq!(grid.to_string(), CLASSIC);
        // `0` and `_` are blanks too.
        let zeros = CLASSIC.replace('.', "0");
        let unders = CLASSIC.replace('.', "_");
        assert_eq!(parse_line(&zeros, None).unwrap(), grid);
        assert_eq!(parse_line(&unders, None).unwrap(), grid);
    }

    #[test]
    fn bad_character_names_its_column() {
        assert_eq!(
            line_err("1.3.34*2.......1", None),
            "column 7: unexpected character '*'"
        );
        // Counted in characters, not bytes, after leading spaces.
        assert_eq!(
            line_err("  1.3.é4.2.......1", None),
            "column 7: unexpected character 'é'"
        );
        let err = parse_line("12.*", Some(shape(2, 2))).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::BadCharacter { ch: '*' }));
        assert_eq!((err.line(), err.column()), (None, Some(4)));
    }

    #[test]
    fn digit_out_of_range_names_the_digit() {
        let mut text = CLASSIC.to_string();
        text.replace_range(9..10, "a"); // a = 10 in a 9x9 grid
        assert_eq!(
            line_err(&text, None),
            "column 10: digit 10 is out of range for a 9x9 grid (1..=9)"
        );
        let err = parse_line("1.3.34.2.......5", None).unwrap_err();
        match err.kind() {
            ErrorKind::DigitOutOfRange { digit, size } => assert_eq!((*digit, *size), (5, 4)),
            other => panic!("{other:?}"),
        }
        assert_eq!(err.column(), Some(16));
    }

    #[test]
    fn wrong_length_and_unknown_shape() {
        let short = &CLASSIC[..80];
        assert_eq!(
            line_err(short, Some(Shape::CLASSIC)),
            "column 81: expected 81 cells, found 80"
        );
        let long = format!("{CLASSIC}..");
        assert_eq!(
            line_err(&long, Some(Shape::CLASSIC)),
            "column 82: expected 81 cells, found 83"
        );
        assert_eq!(
            line_err(short, None),
            "column 1: cannot tell the grid shape from 80 cells; give it with --box RxC"
        );
        // 25 cells: a 5x5 grid has no boxes.
        let err = parse_line(&".".repeat(25), None).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::UnknownShape { cells: 25 }));
        // A 36-cell line is 2x3 unless told it is 3x2.
        assert_eq!(
            parse_line(&".".repeat(36), None).unwrap().shape(),
            shape(2, 3)
        );
        let given = parse_line(&".".repeat(36), Some(shape(3, 2))).unwrap();
        assert_eq!(given.shape(), shape(3, 2));
    }

    #[test]
    fn conflicting_givens_name_digit_unit_and_cells() {
        // Row: r1c1 and r1c4 both 1; the column is the second cell's.
        assert_eq!(
            line_err("1..1............", None),
            "column 4: digit 1 is given twice in row 1: at r1c1 and r1c4"
        );
        // Column 2: r1c2 and r4c2 (character 14).
        assert_eq!(
            line_err(".3...........3..", None),
            "column 14: digit 3 is given twice in column 2: at r1c2 and r4c2"
        );
        // Box only: r1c1 and r2c2 (character 6) in a 4x4 grid.
        let err = parse_line("2....2..........", None).unwrap_err();
        match err.kind() {
            ErrorKind::ConflictingGivens {
                digit,
                unit,
                first,
                second,
            } => {
                assert_eq!(
                    (*digit, unit.as_str(), *first, *second),
                    (2, "box 1", (1, 1), (2, 2))
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(err.column(), Some(6));
        // The position counts leading whitespace.
        assert_eq!(
            parse_line("\t 1..1............", None)
                .unwrap_err()
                .column(),
            Some(6)
        );
    }

    #[test]
    fn contradictory_puzzles_are_not_errors() {
        for seed in 0..5 {
            let puzzle = random_contradictory(Shape::CLASSIC, seed, 30).unwrap();
            assert_eq!(parse_line(&puzzle.to_string(), None).unwrap(), puzzle);
        }
    }

    #[test]
    fn comments_give_labels() {
        let cases = [
            ("1.3.34.2.......1 easy", Some("easy")),
            ("1.3.34.2.......1,hard", Some("hard")),
            ("1.3.34.2.......1;  medium, from the forum", Some("medium")),
            ("1.3.34.2.......1\t# diabolical 11.2", Some("diabolical")),
            ("1.3.34.2.......1 #   ", None),
            ("1.3.34.2.......1", None),
            ("1.3.34.2.......1   \r", None),
            ("1.3.34.2.......1 tough\r\n", Some("tough")),
        ];
        for (text, label) in cases {
            let (grid, got) = parse_puzzle_line(text, None).unwrap();
            assert_eq!(grid.to_string(), "1.3.34.2.......1", "{text:?}");
            assert_eq!(got.as_deref(), label, "{text:?}");
        }
    }

    #[test]
    fn sixteen_by_sixteen_with_letters() {
        let grid = random_grid(shape(4, 4), 3);
        let line = grid.to_string();
        assert!(line.contains('G') && line.contains('A'), "{line}");
        assert_eq!(parse_line(&line, None).unwrap(), grid);
        assert_eq!(parse_line(&line.to_lowercase(), None).unwrap(), grid);
        // H = 17 is out of range for 16x16.
        let bad = format!("H{}", &line[1..]);
        assert_eq!(
            line_err(&bad, None),
            "column 1: digit 17 is out of range for a 16x16 grid (1..=16)"
        );
    }

    #[test]
    fn numeric_lines_for_large_grids() {
        let s = shape(6, 6);
        let puzzle = random_puzzle(s, 9, 400);
        let mut line = String::new();
        puzzle.write_line(&mut line);
        assert_eq!(parse_line(&line, Some(s)).unwrap(), puzzle);
        assert_eq!(parse_line(&line, None).unwrap(), puzzle);
        let (_, label) = parse_puzzle_line(&format!("{line} ; big"), None).unwrap();
        assert_eq!(label.as_deref(), Some("big"));
        // 37 in the third cell: its column is where the token starts.
        let mut tokens: Vec<&str> = line.split(' ').collect();
        tokens[2] = "37";
        let bad = tokens.join(" ");
        let column = tokens[0].len() + tokens[1].len() + 3;
        assert_eq!(
            line_err(&bad, None),
            format!("column {column}: digit 37 is out of range for a 36x36 grid (1..=36)")
        );
        tokens[2] = "3x";
        assert_eq!(
            line_err(&tokens.join(" "), None),
            format!("column {}: unexpected character 'x'", column + 1)
        );
    }

    #[test]
    fn reader_goes_on_after_errors_with_line_numbers() {
        let text = "# a comment\n\
                    1.3.34.2.......1 easy\n\
                    \n\
                    1.3.34*2.......1\n\
                    \x20  \t\n\
                    1..1............\r\n\
                    1.3.34.2.......1 hard\r\n\
                    # 12..\n\
                    1.3.34.2.......\n\
                    ...............4";
        let items = read(text, None, Layout::Line);
        assert_eq!(
            summary(&items),
            [
                "2: 1.3.34.2.......1 Some(\"easy\")",
                "line 4, column 7: unexpected character '*'",
                "line 6, column 4: digit 1 is given twice in row 1: at r1c1 and r1c4",
                "7: 1.3.34.2.......1 Some(\"hard\")",
                "line 9, column 1: cannot tell the grid shape from 15 cells; give it with --box RxC",
                "10: ...............4 None",
            ]
        );
        let err = items[1].as_ref().unwrap_err();
        assert_eq!((err.line(), err.column()), (Some(4), Some(7)));
    }

    #[test]
    fn reader_with_a_given_shape_and_crlf() {
        let text = "\u{feff}......\r\n......\r\n\r\n1.....2....\r\n";
        let items = read(text, Some(shape(3, 2)), Layout::Line);
        assert_eq!(items.len(), 3);
        assert!(items[0].is_err() && items[1].is_err());
        assert_eq!(
            items[0].as_ref().unwrap_err().to_string(),
            "line 1, column 7: expected 36 cells, found 6"
        );
        assert_eq!(
            items[2].as_ref().unwrap_err().to_string(),
            "line 4, column 12: expected 36 cells, found 11"
        );
        let ok = read(
            "....................................\r\n",
            Some(shape(3, 2)),
            Layout::Line,
        );
        assert_eq!(ok[0].as_ref().unwrap().grid.shape(), shape(3, 2));
    }

    #[test]
    fn reader_reports_bad_bytes_and_io_errors() {
        let bytes = b"1.3.\xff4.2.......1\n1.3.34.2.......1\n";
        let items: Vec<_> = PuzzleReader::new(&bytes[..], None, Layout::Line).collect();
        assert_eq!(
            summary(&items),
            [
                "line 1, column 5: unexpected character '\u{fffd}'",
                "2: 1.3.34.2.......1 None"
            ]
        );

        struct Failing(usize);
        impl std::io::Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0 == 0 {
                    return Err(std::io::Error::other("disk on fire"));
                }
                self.0 -= 1;
                let line = b"1.3.34.2.......1\n";
                buf[..line.len()].copy_from_slice(line);
                Ok(line.len())
            }
        }
        let reader = std::io::BufReader::with_capacity(64, Failing(2));
        let items: Vec<_> = PuzzleReader::new(reader, None, Layout::Line).collect();
        assert_eq!(
            summary(&items),
            [
                "1: 1.3.34.2.......1 None",
                "2: 1.3.34.2.......1 None",
                "line 3: disk on fire"
            ]
        );
    }

    #[test]
    fn reader_streams_many_lines() {
        // Lines are made as they are read; nothing holds the whole input.
        struct Lines {
            left: usize,
            pending: Vec<u8>,
        }
        impl std::io::Read for Lines {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.pending.is_empty() {
                    if self.left == 0 {
                        return Ok(0);
                    }
                    self.left -= 1;
                    self.pending = format!("{}\n", random_puzzle(shape(2, 2), self.left as u64, 6))
                        .into_bytes();
                }
                let k = buf.len().min(self.pending.len());
                buf[..k].copy_from_slice(&self.pending[..k]);
                self.pending.drain(..k);
                Ok(k)
            }
        }
        let input = std::io::BufReader::new(Lines {
            left: 20_000,
            pending: Vec::new(),
        });
        let mut count = 0;
        for item in PuzzleReader::new(input, None, Layout::Line) {
            let puzzle = item.unwrap();
            count += 1;
            assert_eq!(puzzle.line, count);
            assert_eq!(puzzle.grid.givens(), 6);
        }
        assert_eq!(count, 20_000);
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
    fn grid_layout_round_trips_pretty_grids() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3), (4, 4), (6, 6), (7, 8)] {
            let s = shape(r, c);
            let mut text = String::new();
            let mut grids = Vec::new();
            for seed in 0..3 {
                let grid = random_puzzle(s, seed, s.cell_count() / 2);
                write_pretty(&grid, &mut text);
                text.push('\n');
                grids.push(grid);
            }
            let read_back: Vec<Grid> = PuzzleReader::new(text.as_bytes(), Some(s), Layout::Grid)
                .map(|p| p.unwrap().grid)
                .collect();
            assert_eq!(read_back, grids, "{s}");
        }
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

    #[test]
    fn pretty_layout_of_a_9x9() {
        let mut out = String::new();
        write_pretty(&parse_line(CLASSIC, None).unwrap(), &mut out);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "4 . . | . 3 . | . . .");
        assert_eq!(lines[3], "------+-------+------");
        assert_eq!(lines[10], "9 . . | . . . | . . .");
    }

    #[test]
    fn reads_a_real_collection_if_present() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/data/puzzles3_magictour_top1465"
        );
        let Ok(file) = std::fs::File::open(path) else {
            eprintln!("note: {path} is missing; skipping");
            return;
        };
        let mut reader = PuzzleReader::new(std::io::BufReader::new(file), None, Layout::Line);
        let mut count = 0;
        for item in reader.by_ref() {
            let puzzle = item.unwrap();
            assert_eq!(puzzle.grid.shape(), Shape::CLASSIC);
            assert!(conflicts(&puzzle.grid).is_ok());
            count += 1;
        }
        assert_eq!(count, 1465);
        // Two comment lines, 1465 puzzles, one blank line at the end.
        assert_eq!(reader.lines_read(), 1468);
    }

    proptest! {
        #[test]
        fn write_line_then_parse_line_is_identity(
            shape_index in 0usize..9,
            seed in any::<u64>(),
            fraction in 0.0f64..=1.0,
        ) {
            let (r, c) = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4), (4, 4), (5, 7), (6, 6)][shape_index];
            let s = shape(r, c);
            let givens = (s.cell_count() as f64 * fraction) as usize;
            let grid = random_puzzle(s, seed, givens);
            let mut line = String::new();
            grid.write_line(&mut line);
            prop_assert_eq!(parse_line(&line, Some(s)).unwrap(), grid.clone());
            if Shape::from_cell_count(s.cell_count()) == Some(s) {
                prop_assert_eq!(parse_line(&line, None).unwrap(), grid);
            }
        }
    }
}
