//! The one-line layouts of the Sudoku variants ([`crate::sudoku::variant`]), and the header
//! line that names a file's variant.
//!
//! - **X-Sudoku and windoku**: the classic line (n*n characters, then an optional comment);
//!   only the rules differ.
//! - The givens of every variant may also be written as whitespace-separated numbers (`0` or
//!   `.` for a blank), as classic lines are above 35x35 and often at 16x16 and 25x25.
//! - **Jigsaw**: the givens, then the region map: n*n characters, one per cell in reading
//!   order, each a letter or a digit naming the cell's region (any n different symbols;
//!   case counts), then an optional comment: a region grid as Janko's jigsaw ("Chaos")
//!   puzzles give one, written on one line after the givens.
//! - **Killer**: the givens (often all `.`), the cage map (n*n characters, a letter or digit
//!   per cell naming its cage, case counts, `.` for a cell in no cage), then one `ID=SUM` per
//!   cage, then an optional comment: CodinGame's "Killer Sudoku Solver" format (its rows of
//!   givens and of cage letters, and its line of `a=12 b=17 ...`) on one line.
//!
//! Separators are whitespace, `,` or `;`. Cages and regions need not be connected. Regions
//! and cages are numbered in the order of their first cells (`region 1`, `cage 1` in the
//! solvers' and the checker's messages); errors while reading name them by their symbol.
//!
//! A comment line `# variant: NAME` (`classic`, `x`, `windoku`, `jigsaw`, `killer`) sets the
//! variant of the lines after it.

use std::collections::HashMap;
use std::sync::Arc;

use super::cells::{
    RawCell, char_cells, check_givens, error_at, grid_of, is_numeric_token, number_cell,
    opens_numbers,
};
use crate::board::{Board, Cage, Cell};
use crate::error::{Error, ErrorKind, Result};
use crate::sudoku::variant::{self, Variant};
use crate::sudoku::{Grid, Shape};

/// A variant puzzle as read from one line: the givens, the label, and the board.
pub(super) struct VariantLine {
    pub grid: Grid,
    pub label: Option<String>,
    pub board: Arc<Board>,
}

/// The boards of X-Sudoku and windoku, one per shape, shared by the puzzles that use them.
#[derive(Debug, Default)]
pub(super) struct Boards(HashMap<(Variant, Shape), Arc<Board>>);

impl Boards {
    fn of(&mut self, variant: Variant, shape: Shape) -> Result<Arc<Board>> {
        if let Some(board) = self.0.get(&(variant, shape)) {
            return Ok(board.clone());
        }
        let board = variant
            .board_of_shape(shape)?
            .expect("X-Sudoku and windoku boards come from the shape");
        let board = Arc::new(board);
        self.0.insert((variant, shape), board.clone());
        Ok(board)
    }
}

/// A word of the line and its 1-based character column.
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    text: &'a str,
    column: usize,
}

/// The words of a line, split at whitespace, `,` and `;`, with their columns; and the column
/// just past the line's last character.
fn tokens(text: &str) -> (Vec<Token<'_>>, usize) {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut column = 0;
    for (i, ch) in text.char_indices() {
        column += 1;
        let separator = ch.is_whitespace() || ch == ',' || ch == ';' || ch == '\u{feff}';
        match (separator, start) {
            (false, None) => start = Some((i, column)),
            (true, Some((s, c))) => {
                out.push(Token {
                    text: &text[s..i],
                    column: c,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some((s, c)) = start {
        out.push(Token {
            text: &text[s..],
            column: c,
        });
    }
    (out, column + 1)
}

fn bad(reason: String, column: usize) -> Error {
    error_at(ErrorKind::BadVariant { reason }, 0, column)
}

/// The first word of what follows the puzzle: its label.
fn label(rest: &[Token<'_>]) -> Option<String> {
    rest.first()
        .and_then(|t| t.text.split('#').find(|w| !w.is_empty()))
        .map(str::to_string)
}

/// Reads one line of a variant other than the classic. Errors carry the column, not the line.
pub(super) fn parse_variant_line(
    text: &str,
    shape: Option<Shape>,
    variant: Variant,
    boards: &mut Boards,
) -> Result<VariantLine> {
    let text = text.trim_end_matches(['\n', '\r']);
    let (words, end) = tokens(text);
    let givens = *words.first().ok_or_else(|| bad("no puzzle".into(), 1))?;
    // The givens are one character per cell, or the numeric layout of classic lines: a number
    // of at most two characters followed by another opens it, at every size, and the numbers
    // run to the first word that is not one (a map has n*n >= 16 characters, a sum an `=`).
    let number = |t: &Token<'_>| t.text.chars().count() <= 2 && is_numeric_token(t.text);
    let numeric = opens_numbers(givens.text, words.get(1).map(|t| t.text));
    let (cells, givens_end, after) = if numeric {
        let count = words.iter().take_while(|t| number(t)).count();
        let cells = (words[..count].iter())
            .map(|t| number_cell(t.text, t.column))
            .collect::<Result<Vec<RawCell>>>()?;
        let last = words[count - 1];
        (cells, last.column + last.text.chars().count(), count)
    } else {
        let cells = char_cells(givens.text, givens.column)?;
        let end = givens.column + cells.len();
        (cells, end, 1)
    };
    // A jigsaw has no boxes: any square works, its shape 1 x n when no box shape fits.
    let side = (cells.len() as f64).sqrt().round() as usize;
    let shape = shape
        .or_else(|| Shape::from_cell_count(cells.len()))
        .or_else(|| {
            (variant == Variant::Jigsaw && side * side == cells.len())
                .then(|| Shape::new(1, side).ok())
                .flatten()
        });
    let grid = grid_of(&cells, shape, 0, givens.column, givens_end)?;
    let shape = grid.shape();
    let n = shape.size();
    let rest = &words[after..];
    let (board, rest) = match variant {
        Variant::Classic | Variant::X | Variant::Windoku => (
            boards
                .of(variant, shape)
                .map_err(|e| e.with_column(givens.column))?,
            rest,
        ),
        Variant::Jigsaw => {
            let map = rest.first().copied().ok_or_else(|| {
                bad(
                    format!(
                        "a jigsaw line needs a region map of {} characters after the givens",
                        n * n
                    ),
                    end,
                )
            })?;
            (Arc::new(read_regions(map, n)?), &rest[1..])
        }
        Variant::Killer => {
            let map = rest.first().copied().ok_or_else(|| {
                bad(
                    format!(
                        "a killer line needs a cage map of {} characters after the givens",
                        n * n
                    ),
                    end,
                )
            })?;
            let sums = rest[1..]
                .iter()
                .take_while(|t| t.text.contains('='))
                .count();
            let cages = read_cages(map, &rest[1..1 + sums], n)?;
            let board =
                variant::killer_board(shape, cages).map_err(|e| bad(e.to_string(), map.column))?;
            (Arc::new(board), &rest[1 + sums..])
        }
    };
    check_givens(&grid, &cells, &board)?;
    Ok(VariantLine {
        grid,
        label: label(rest),
        board,
    })
}

/// The symbols of a map (`what` is `region` or `cage`), with their columns, checked for
/// length and characters: letters and digits, and `.` (no cage) in a cage map.
fn map_symbols(map: Token<'_>, n: usize, what: &str) -> Result<Vec<(char, usize)>> {
    let symbols: Vec<(char, usize)> = (map.text.chars().enumerate())
        .map(|(i, ch)| (ch, map.column + i))
        .collect();
    let names = |ch: char| ch.is_ascii_alphanumeric() || (what == "cage" && ch == '.');
    if let Some(&(ch, column)) = symbols.iter().find(|&&(ch, _)| !names(ch)) {
        return Err(bad(
            format!(
                "'{}' names no {what}: a {what} map has letters and digits",
                ch.escape_debug()
            ),
            column,
        ));
    }
    if symbols.len() != n * n {
        let column = symbols
            .get(n * n)
            .map_or(map.column + symbols.len(), |s| s.1);
        return Err(bad(
            format!(
                "the {what} map has {} cells, the givens {}",
                symbols.len(),
                n * n
            ),
            column,
        ));
    }
    Ok(symbols)
}

/// The jigsaw board of a region map: n regions of n cells each.
fn read_regions(map: Token<'_>, n: usize) -> Result<Board> {
    let symbols = map_symbols(map, n, "region")?;
    let mut ids: Vec<char> = Vec::new();
    let mut sizes: Vec<usize> = Vec::new();
    let mut regions = Vec::with_capacity(n * n);
    for &(ch, column) in &symbols {
        let k = match ids.iter().position(|&id| id == ch) {
            Some(k) => k,
            None => {
                if ids.len() == n {
                    return Err(bad(
                        format!("region '{ch}' is one region too many: a {n}x{n} grid has {n}"),
                        column,
                    ));
                }
                ids.push(ch);
                sizes.push(0);
                ids.len() - 1
            }
        };
        sizes[k] += 1;
        if sizes[k] > n {
            return Err(bad(
                format!("region '{ch}' has more than {n} cells"),
                column,
            ));
        }
        regions.push(k);
    }
    // n regions of at most n cells among n*n cells: each has exactly n.
    variant::jigsaw_board(n, &regions).map_err(|e| bad(e.to_string(), map.column))
}

/// The cages of a cage map and its sums (`ID=SUM` words).
fn read_cages(map: Token<'_>, sums: &[Token<'_>], n: usize) -> Result<Vec<Cage>> {
    let symbols = map_symbols(map, n, "cage")?;
    let mut ids: Vec<char> = Vec::new();
    let mut cells: Vec<Vec<Cell>> = Vec::new();
    let mut first_column = Vec::new();
    for (i, &(ch, column)) in symbols.iter().enumerate() {
        if ch == '.' {
            continue;
        }
        let k = ids.iter().position(|&id| id == ch).unwrap_or_else(|| {
            ids.push(ch);
            cells.push(Vec::new());
            first_column.push(column);
            ids.len() - 1
        });
        cells[k].push(Cell::new(i));
        if cells[k].len() > n {
            return Err(bad(
                format!("cage '{ch}' has more than {n} cells, so a digit would repeat"),
                column,
            ));
        }
    }
    let mut sum_of: Vec<Option<u32>> = vec![None; ids.len()];
    for token in sums {
        let (id, sum) = token.text.split_once('=').expect("sum words hold '='");
        let mut id_chars = id.chars();
        let (Some(ch), None) = (id_chars.next(), id_chars.next()) else {
            return Err(bad(
                format!(
                    "'{}' is not a cage sum like a=12",
                    token.text.escape_debug()
                ),
                token.column,
            ));
        };
        let sum_column = token.column + id.chars().count() + 1;
        let sum: u32 = sum.parse().map_err(|_| {
            bad(
                format!(
                    "'{}' is not a cage sum (a whole number)",
                    sum.escape_debug()
                ),
                sum_column,
            )
        })?;
        let Some(k) = ids.iter().position(|&id| id == ch) else {
            return Err(bad(
                format!("the cage map has no cage '{}'", ch.escape_debug()),
                token.column,
            ));
        };
        if sum_of[k].is_some() {
            return Err(bad(format!("cage '{ch}' has two sums"), token.column));
        }
        let size = cells[k].len() as u32;
        let (n32, least) = (n as u32, size * (size + 1) / 2);
        let most = size * n32 - size * (size - 1) / 2;
        if !(least..=most).contains(&sum) {
            return Err(bad(
                format!(
                    "cage '{ch}' of {size} cells cannot add up to {sum}: {size} different digits of 1..={n} add up to {least} to {most}"
                ),
                sum_column,
            ));
        }
        sum_of[k] = Some(sum);
    }
    if let Some(k) = sum_of.iter().position(Option::is_none) {
        return Err(bad(
            format!(
                "cage '{}' has no sum (add {}=SUM after the cage map)",
                ids[k], ids[k]
            ),
            first_column[k],
        ));
    }
    (cells.into_iter().zip(sum_of))
        .enumerate()
        .map(|(k, (cells, sum))| Cage::new(k + 1, cells, sum.expect("every cage has a sum")))
        .collect()
}

/// The value of a comment line `# KEY: VALUE` and its 1-based column, if the line is such a
/// header (`:` or `=` after the key, spaces allowed around it, the key in any case). Without
/// the `:` or `=` it is an ordinary comment, so that `# variant puzzles from ...` in a classic
/// file stays one.
pub(super) fn header_value<'t>(text: &'t str, key: &str) -> Option<(&'t str, usize)> {
    let body = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let after_hash = body.strip_prefix('#')?.trim_start();
    let word = after_hash.get(..key.len())?;
    if !word.eq_ignore_ascii_case(key) {
        return None;
    }
    let rest = after_hash[key.len()..].trim_start();
    if !rest.starts_with([':', '=']) {
        return None;
    }
    let value = rest.trim_start_matches([':', '=', ' ', '\t']);
    let value = value.split_whitespace().next().unwrap_or(value);
    // `value` is a slice of `text`: its offset gives its column.
    let offset = value.as_ptr() as usize - text.as_ptr() as usize;
    Some((value, text[..offset].chars().count() + 1))
}

/// The variant a comment line names, if it is a `# variant: NAME` header (see
/// [`header_value`]). An unknown name is an error at its column.
pub(super) fn variant_header(text: &str) -> Option<Result<Variant>> {
    let (name, column) = header_value(text, "variant")?;
    Some(name.parse().map_err(|e: Error| e.with_column(column)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::puzzle::cells::char_value;

    #[test]
    fn headers_name_a_variant_and_other_comments_do_not() {
        let header = |text| variant_header(text).map(|r| r.map_err(|e| e.to_string()));
        assert_eq!(header("# variant: killer"), Some(Ok(Variant::Killer)));
        assert_eq!(header("#variant=X"), Some(Ok(Variant::X)));
        assert_eq!(
            header("  # Variant = hyper  # the windows"),
            Some(Ok(Variant::Windoku))
        );
        assert_eq!(header("# variants of this file are classic"), None);
        assert_eq!(header("# variant puzzles from a forum"), None);
        assert_eq!(header("# a killer"), None);
        assert_eq!(header("1..............."), None);
        assert_eq!(
            header("# variant: samurai"),
            Some(Err(
                "column 12: unknown variant 'samurai' (expected classic, x, windoku, jigsaw or killer)"
                    .to_string()
            ))
        );
    }

    /// The line with its givens (its first word) written as whitespace-separated numbers.
    fn in_numbers(line: &str) -> String {
        let (givens, rest) = line.split_once(' ').unwrap_or((line, ""));
        let numbers: Vec<String> = (givens.chars())
            .map(|ch| char_value(ch).expect("a cell character").to_string())
            .collect();
        format!("{} {rest}", numbers.join(" "))
    }

    #[test]
    fn every_variant_reads_its_givens_in_numbers_too() {
        // The first puzzle of each of `fixtures/variants/`.
        let lines = [
            (Variant::X, ".8....2...1....5....34..7....9.5.....2...46..3........9...2...................4.7 codechef1".to_string()),
            (Variant::Windoku, ".......1...2....34....51........65...7.3...8...3..........8....58....9..69....... sudoku2rs".to_string()),
            (Variant::Jigsaw, "8...........1.....2.....4.6.....8..5...62..18.3...4.2....5..1.7..2.........8...9. 999998888555998888555998333555111333222111333222111444222766444777766444777766666 janko108".to_string()),
            (Variant::Killer, "................................................................................. aabbcddeeafbgchdiejffgkhiiljmmgkhnnloppqqqrrsottuuuvvswxxxyzzzAwBBCyDEEAFFCCyDDGG a=20 b=11 c=12 d=10 e=14 f=12 g=17 h=21 i=15 j=4 k=8 l=14 m=6 n=16 o=17 p=8 q=10 r=14 s=6 t=13 u=18 v=4 w=9 x=23 y=13 z=11 A=7 B=9 C=16 D=13 E=8 F=9 G=17 janko116".to_string()),
        ];
        for (variant, line) in lines {
            let mut boards = Boards::default();
            let chars = parse_variant_line(&line, None, variant, &mut boards).expect("characters");
            let numbers = parse_variant_line(&in_numbers(&line), None, variant, &mut boards)
                .unwrap_or_else(|e| panic!("{variant:?} in numbers: {e}"));
            assert_eq!(numbers.grid, chars.grid, "{variant:?}");
            assert_eq!(numbers.label, chars.label, "{variant:?}");
            assert_eq!(*numbers.board, *chars.board, "{variant:?}");
        }
        // Above 35x35 a line can only be numbers: an empty 36x36 X-Sudoku.
        let empty = vec!["0"; 36 * 36].join(" ");
        let shape = Shape::new(6, 6).expect("a box shape");
        let read = parse_variant_line(&empty, Some(shape), Variant::X, &mut Boards::default())
            .expect("numbers");
        assert_eq!((read.grid.size(), read.grid.givens()), (36, 0));
        // A short line in numbers is told its length.
        let short = parse_variant_line("1 2 3", None, Variant::X, &mut Boards::default());
        assert_eq!(
            short.map(|_| ()).map_err(|e| e.to_string()),
            Err("column 1: cannot tell the grid shape from 3 cells".to_string())
        );
    }

    #[test]
    fn tokens_keep_their_columns() {
        let (words, end) = tokens("ab  c,d;e");
        let found: Vec<(&str, usize)> = words.iter().map(|t| (t.text, t.column)).collect();
        assert_eq!(found, [("ab", 1), ("c", 5), ("d", 7), ("e", 9)]);
        assert_eq!(end, 10);
    }
}
