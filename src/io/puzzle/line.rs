//! The one-line layout: a puzzle's cells on one line, then an optional comment whose first
//! word is the puzzle's label.

use super::MAX_CHAR_SIZE;
use super::cells::{
    char_cells, char_value, finish, is_numeric_token, number_cell, opens_numbers, quick_grid,
};
use crate::error::Result;
use crate::sudoku::{Grid, Shape};

/// Reads one puzzle from one line: the puzzle text, optionally followed by a comment.
///
/// Errors carry the 1-based character column (and no line: the reader adds it).
///
/// ```
/// use quadrille::io::puzzle::parse_line;
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

/// Whether a character separates a one-line puzzle from its comment.
fn ends_puzzle(ch: char) -> bool {
    ch.is_whitespace() || ch == ',' || ch == ';'
}

/// The puzzle and label of one line.
pub(super) fn parse_puzzle_line(
    text: &str,
    shape: Option<Shape>,
) -> Result<(Grid, Option<String>)> {
    let text = text.trim_end_matches(['\n', '\r']);
    // Leading whitespace (and a byte-order mark) is skipped but counted in columns.
    let skipped = text
        .chars()
        .take_while(|&c| c.is_whitespace() || c == '\u{feff}')
        .count();
    let body = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let token_end = body.find(ends_puzzle).unwrap_or(body.len());
    let token = &body[..token_end];
    // Numbers are read whatever the shape's own layout for writing.
    let short_numbers = opens_numbers(token, body[token_end..].split_whitespace().next());
    let numeric = short_numbers || shape.is_some_and(|shape| shape.size() > MAX_CHAR_SIZE);
    // A line of one character per cell under a shape written in numbers (n > 35, e.g. a box of
    // 8x8 on an 81-character line) is read as characters, so that the error is its length and
    // not its first character.
    let numeric = numeric
        && !(token.chars().count() > 2
            && !is_numeric_token(token)
            && token.chars().all(|c| char_value(c).is_some()));
    if !numeric && let Some(grid) = quick_grid(token.as_bytes(), shape) {
        return Ok((grid, label_of(&body[token_end..])));
    }
    let (cells, end_column, comment) = if numeric {
        let mut cells = Vec::with_capacity(token.len());
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
        (cells, skipped + last + 1, &body[end..])
    } else {
        let cells = char_cells(token, skipped + 1)?;
        let end = skipped + cells.len() + 1;
        (cells, end, &body[token_end..])
    };
    let grid = finish(&cells, shape, 0, skipped + 1, end_column)?;
    Ok((grid, label_of(comment)))
}

/// The label of a puzzle: the first word of what follows it on its line.
fn label_of(comment: &str) -> Option<String> {
    comment
        .split(|c: char| ends_puzzle(c) || c == '#')
        .find(|word| !word.is_empty())
        .map(str::to_string)
}

/// Whether a line of the one-line layout holds no puzzle.
pub(super) fn is_line_skipped(text: &str) -> bool {
    let body = text.trim_start();
    body.is_empty() || body.starts_with('#')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::generate::{random_contradictory, random_grid, random_puzzle};
    use crate::io::puzzle::cells::RawCell;
    use crate::io::puzzle::test_helpers::{CLASSIC, shape};
    use proptest::prelude::*;

    /// The message with its position, e.g. `line 3, column 7: ...`.
    fn line_err(text: &str, shape: Option<Shape>) -> String {
        parse_line(text, shape).unwrap_err().to_string()
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
    fn a_character_line_under_a_numbers_shape_is_told_its_length() {
        // A box of 8x8 is a 64x64 grid, written in numbers; a line of characters is too short.
        assert_eq!(
            line_err(CLASSIC, Some(shape(8, 8))),
            "column 82: expected 4096 cells, found 81"
        );
        // A real bad character is still named.
        assert_eq!(
            line_err("1 2 x 4", Some(shape(8, 8))),
            "column 5: unexpected character 'x'"
        );
    }

    #[test]
    fn control_characters_are_shown_escaped() {
        assert_eq!(
            line_err("1.3.\u{7}4.2.......1", None),
            "column 5: unexpected character '\\u{7}'"
        );
        // An escape character cannot start a sequence on the reader's terminal.
        assert_eq!(
            line_err("\u{1b}[31m......1", None),
            "column 1: unexpected character '\\u{1b}'"
        );
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
            "column 1: cannot tell the grid shape from 80 cells"
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

    proptest! {
        /// The quick reading of a one-character-per-cell token accepts exactly what the
        /// cell-by-cell checks accept, and gives the same grid: givens repeated in a row,
        /// column or box, digits out of range and bad characters included.
        #[test]
        fn quick_grid_agrees_with_the_cell_checks(
            shape_index in 0usize..5,
            picks in proptest::collection::vec(0usize..64, 81),
        ) {
            let (r, c) = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4)][shape_index];
            let s = shape(r, c);
            // Mostly blanks, as in real puzzles, so that some tokens have no repeated given.
            let alphabet = b"123456789x0_";
            let token: String = (picks[..s.cell_count()].iter())
                .map(|&p| char::from(if p < alphabet.len() { alphabet[p] } else { b'.' }))
                .collect();
            let cells: Vec<RawCell> = (token.chars().enumerate())
                .map(|(i, ch)| RawCell { value: char_value(ch).unwrap_or(99), line: 0, column: i + 1 })
                .collect();
            let checked = finish(&cells, Some(s), 1, 1, token.len() + 1).ok();
            prop_assert_eq!(quick_grid(token.as_bytes(), Some(s)), checked);
        }

        /// A grid written as whitespace-separated numbers reads as the same grid at every size,
        /// given its shape (rectangular boxes either way round) or not.
        #[test]
        fn numbers_read_at_every_size(
            shape_index in 0usize..8,
            seed in any::<u64>(),
            fraction in 0.0f64..=1.0,
        ) {
            let (r, c) = [(1, 4), (2, 2), (2, 3), (3, 2), (3, 3), (5, 2), (4, 4), (1, 12)][shape_index];
            let s = shape(r, c);
            let givens = (s.cell_count() as f64 * fraction) as usize;
            let grid = random_puzzle(s, seed, givens);
            let numbers: Vec<String> = (0..s.size())
                .flat_map(|row| (0..s.size()).map(move |col| (row, col)))
                .map(|(row, col)| grid.get(row, col).to_string())
                .collect();
            let line = numbers.join(" ");
            prop_assert_eq!(parse_line(&line, Some(s)).unwrap(), grid.clone());
            if Shape::from_cell_count(s.cell_count()) == Some(s) {
                prop_assert_eq!(parse_line(&line, None).unwrap(), grid);
            }
        }

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
