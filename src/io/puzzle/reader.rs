//! The streaming reader: reads the input a line at a time and hands each line to its layout.
//!
//! A line is held whole while it is parsed, so its length is capped at [`MAX_LINE_BYTES`]: a
//! longer line is an error for that line, read through in the input's own buffer-sized pieces
//! and dropped, and reading goes on with the next line (`crate::io::lines`, the way every
//! reader of the crate reads). Without the cap one 100 MB line took 2.4 GB (the line, its
//! text, and a cell for every byte) before it was found to be no puzzle.

use std::io::BufRead;

use super::cells::quick_grid;
use super::line::{is_line_skipped, parse_puzzle_line};
use super::sdk::GridAssembler;
use super::variant::{Boards, header_value, parse_variant_line, variant_header};
use super::{Layout, Puzzle};
use crate::error::{Error, ErrorKind, Result};
use crate::io::lines::{self, LineRead, LineReader};
use crate::sudoku::Shape;
use crate::sudoku::check::conflicts_on;
use crate::sudoku::variant::Variant;

/// The longest line the reader takes: 64 KiB before the `\n` (a `\r` before it counts).
///
/// The longest puzzle line is the largest grid, 64x64, in the numeric one-line layout: 4,096
/// cells of at most two digits and a separator, 12,288 bytes (16 KiB with two spaces between
/// cells). Every other shape and layout is shorter; a grid-layout row is 64 cells. 64 KiB
/// leaves room for generous padding and a long comment, and a line longer than that, whatever
/// it holds, comments and headers included, is not a puzzle line: it is an error (line,
/// column 1). The input's length has no limit: the reader holds one line at a time.
pub const MAX_LINE_BYTES: usize = lines::PUZZLES.line;

/// A streaming reader of puzzles: one `Result<Puzzle>` per puzzle, skipping comments and blank
/// lines. A bad puzzle gives an `Err` with its line and column, and reading goes on after it;
/// an I/O error is the last item. Bytes that are not UTF-8 are read as U+FFFD and reported as
/// bad characters. A line longer than [`MAX_LINE_BYTES`] is an error, never held in memory.
///
/// ```
/// use quadrille::io::puzzle::{Layout, PuzzleReader};
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
    /// The input, a line at a time, each at most [`MAX_LINE_BYTES`] and a line end.
    lines: LineReader<R>,
    shape: Option<Shape>,
    layout: Layout,
    done: bool,
    /// The grid being put together, in the grid layout.
    grids: GridAssembler,
    /// The variant of the lines being read: the one asked for, else the last `# variant:`
    /// header's, else classic.
    variant: Variant,
    /// The variant asked for, which a header may not contradict.
    asked: Option<Variant>,
    /// The boxes of the last `# box: RxC` header, for the lines after it when no shape was
    /// given.
    header_shape: Option<Shape>,
    /// The boards of X-Sudoku and windoku, by shape.
    boards: Boards,
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader of puzzles of the given shape (inferred from each puzzle when `None`).
    pub fn new(input: R, shape: Option<Shape>, layout: Layout) -> PuzzleReader<R> {
        PuzzleReader {
            lines: LineReader::new(input, lines::PUZZLES),
            shape,
            layout,
            done: false,
            grids: GridAssembler::new(shape),
            variant: Variant::Classic,
            asked: None,
            header_shape: None,
            boards: Boards::default(),
        }
    }

    /// Reads every puzzle as `variant` (see [`crate::sudoku::variant`]); `None`, the default,
    /// takes the variant from `# variant: NAME` header lines (classic before the first). A
    /// header that names another variant than the one asked for is an error at its line.
    ///
    /// ```
    /// use quadrille::io::puzzle::{Layout, PuzzleReader};
    /// use quadrille::sudoku::variant::Variant;
    ///
    /// let text = "# variant: jigsaw\n1............... aaaabbccbbccdddd\n";
    /// let puzzle = PuzzleReader::new(text.as_bytes(), None, Layout::Line).next().unwrap()?;
    /// assert_eq!(puzzle.board().group(8).to_string(), "region 1");
    /// let reader = PuzzleReader::new("1...............\n".as_bytes(), None, Layout::Line);
    /// let puzzle = reader.with_variant(Some(Variant::X)).next().unwrap()?;
    /// assert_eq!(puzzle.board().groups().len(), 14);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn with_variant(mut self, variant: Option<Variant>) -> PuzzleReader<R> {
        self.asked = variant;
        self.variant = variant.unwrap_or_default();
        self
    }

    /// Takes the variant of a `# variant:` header line (`found`, if the line is one), or says
    /// why not.
    fn header(&mut self, found: Option<Result<Variant>>) -> Option<Error> {
        let named = match found? {
            Ok(named) => named,
            Err(err) => return Some(err.with_line(self.lines.line())),
        };
        match self.asked {
            Some(asked) if asked != named => Some(Error::at(
                ErrorKind::BadVariant {
                    reason: format!(
                        "this header says variant {named}, but variant {asked} was asked for"
                    ),
                },
                self.lines.line(),
                1,
            )),
            _ => {
                self.variant = named;
                None
            }
        }
    }

    /// Takes the boxes of a `# box: RxC` header line (`found`, if the line is one), or says
    /// why not: a shape that does not parse, or one that contradicts the reader's shape.
    fn box_header(&mut self, found: Option<Result<Shape>>) -> Option<Error> {
        let named = match found? {
            Ok(named) => named,
            Err(err) => return Some(err.with_line(self.lines.line())),
        };
        match self.shape {
            Some(asked) if asked != named => Some(Error::at(
                ErrorKind::ConflictingBoxes {
                    header: (named.box_rows(), named.box_cols()),
                    asked: (asked.box_rows(), asked.box_cols()),
                },
                self.lines.line(),
                1,
            )),
            _ => {
                self.header_shape = Some(named);
                None
            }
        }
    }

    /// The number of lines read so far.
    pub fn lines_read(&self) -> usize {
        self.lines.line()
    }

    fn next_line_puzzle(&mut self) -> Option<Result<Puzzle>> {
        loop {
            match self.lines.read_line() {
                Ok(LineRead::Text) => {}
                Ok(LineRead::TooLong) => return Some(Err(self.lines.too_long())),
                Ok(LineRead::End) => return None,
                Err(err) => return Some(Err(self.io_error(err))),
            }
            let line = self.lines.line();
            let shape = self.shape.or(self.header_shape);
            // Most lines of a batch are a plain puzzle and nothing else, which `quick_grid`
            // reads from the bytes as `parse_puzzle_line` would, without the text's copy and
            // scans (callgrind, `solve --limit 2 -j1` on the first 1,000 of puzzles2_17_clue).
            if self.variant == Variant::Classic {
                let bytes = self.lines.bytes();
                let end = bytes.iter().rposition(|&b| b != b'\n' && b != b'\r');
                if let Some(grid) = end.and_then(|end| quick_grid(&bytes[..=end], shape)) {
                    return Some(Ok(Puzzle {
                        line,
                        grid,
                        label: None,
                        board: None,
                        shape_inferred: shape.is_none(),
                    }));
                }
            }
            let text = String::from_utf8_lossy(self.lines.bytes());
            let text = text.trim_start_matches('\u{feff}');
            if is_line_skipped(text) {
                let (variant, boxes) = (variant_header(text), box_header(text));
                if let Some(err) = self.header(variant).or_else(|| self.box_header(boxes)) {
                    return Some(Err(err));
                }
                continue;
            }
            let shape_inferred = shape.is_none();
            let result = match self.variant {
                Variant::Classic => parse_puzzle_line(text, shape).map(|(grid, label)| Puzzle {
                    line,
                    grid,
                    label,
                    board: None,
                    shape_inferred,
                }),
                variant => {
                    parse_variant_line(text, shape, variant, &mut self.boards).map(|read| Puzzle {
                        line,
                        grid: read.grid,
                        label: read.label,
                        board: Some(read.board),
                        shape_inferred,
                    })
                }
            };
            return Some(result.map_err(|err| err.with_line(line)));
        }
    }

    fn next_grid_puzzle(&mut self) -> Option<Result<Puzzle>> {
        loop {
            match self.lines.read_line() {
                Ok(LineRead::Text) => {}
                Ok(LineRead::TooLong) => match self.grids.unreadable_row(self.lines.too_long()) {
                    Some(result) => return Some(result),
                    None => continue,
                },
                Ok(LineRead::End) => return self.grids.end(),
                Err(err) => return Some(Err(self.io_error(err))),
            }
            let text = String::from_utf8_lossy(self.lines.bytes());
            let result = self
                .grids
                .row(text.trim_start_matches('\u{feff}'), self.lines.line());
            if let Some(result) = result {
                return Some(result);
            }
        }
    }

    /// A grid-layout puzzle read under a variant: X-Sudoku and windoku givens checked against
    /// the variant's groups; jigsaw and killer need the one-line layout.
    fn grid_variant(&mut self, mut puzzle: Puzzle) -> Result<Puzzle> {
        let variant = self.variant;
        let at = |reason: String| Error::at(ErrorKind::BadVariant { reason }, puzzle.line, 1);
        match variant {
            Variant::Classic => return Ok(puzzle),
            Variant::Jigsaw | Variant::Killer => {
                return Err(at(format!(
                    "{variant} puzzles are read one per line, not as grids"
                )));
            }
            Variant::X | Variant::Windoku => {}
        }
        let board = crate::sudoku::variant::Variant::board_of_shape(variant, puzzle.grid.shape())
            .map_err(|e| at(e.to_string()))?
            .expect("X-Sudoku and windoku boards come from the shape");
        conflicts_on(&board, &puzzle.grid).map_err(|e| e.with_line(puzzle.line))?;
        puzzle.board = Some(std::sync::Arc::new(board));
        Ok(puzzle)
    }

    /// An error of reading (an I/O error, at the line it came at): the last item.
    fn io_error(&mut self, err: Error) -> Error {
        self.done = true;
        err
    }
}

/// The boxes a comment line names, if it is a `# box: RxC` header; a shape that does not parse
/// is an error at its column.
fn box_header(text: &str) -> Option<Result<Shape>> {
    let (spec, column) = header_value(text, "box")?;
    Some(spec.parse().map_err(|e: Error| e.with_column(column)))
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Puzzle>;

    fn next(&mut self) -> Option<Result<Puzzle>> {
        if self.done {
            return None;
        }
        match self.layout {
            Layout::Line => self.next_line_puzzle(),
            Layout::Grid => {
                let puzzle = self.next_grid_puzzle()?;
                Some(puzzle.and_then(|p| self.grid_variant(p)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::random_puzzle;
    use crate::io::puzzle::test_helpers::{read, shape, summary};
    use crate::sudoku::Shape;
    use crate::sudoku::check::conflicts;
    use std::io::{BufReader, Read};

    /// An input made as it is read, so that no test holds it: `left` bytes of `byte` on one
    /// line, then `rest`.
    struct LongLine {
        left: usize,
        byte: u8,
        rest: std::io::Cursor<&'static str>,
    }

    impl Read for LongLine {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.left == 0 {
                return self.rest.read(buf);
            }
            let k = buf.len().min(self.left);
            buf[..k].fill(self.byte);
            self.left -= k;
            Ok(k)
        }
    }

    fn long_line(len: usize, byte: u8, rest: &'static str) -> BufReader<LongLine> {
        BufReader::new(LongLine {
            left: len,
            byte,
            rest: std::io::Cursor::new(rest),
        })
    }

    const TOO_LONG: &str = "the line is longer than 65536 bytes, more than any puzzle needs";

    #[test]
    fn a_line_too_long_is_an_error_read_through_not_held() {
        let input = long_line(10_000_000, b'1', "\n1.3.34.2.......1 easy\n");
        let mut reader = PuzzleReader::new(input, None, Layout::Line);
        let err = reader.next().unwrap().unwrap_err();
        assert_eq!(err.to_string(), format!("line 1, column 1: {TOO_LONG}"));
        assert!(matches!(
            err.kind(),
            ErrorKind::LineTooLong {
                limit: MAX_LINE_BYTES,
                what: "puzzle"
            }
        ));
        // The whole line was read, but the reader's buffer never grew past the limit (and the
        // doubling of a growing Vec).
        assert_eq!(reader.lines.input().get_ref().left, 0);
        let held = reader.lines.capacity();
        assert!(held <= 2 * (MAX_LINE_BYTES + 1), "{held} bytes held");
        // The next line is read as ever, with its own number.
        let puzzle = reader.next().unwrap().unwrap();
        assert_eq!((puzzle.line, puzzle.label.as_deref()), (2, Some("easy")));
        assert!(reader.next().is_none());
        assert_eq!(reader.lines_read(), 2);
    }

    #[test]
    fn a_line_too_long_is_an_error_at_the_end_and_as_a_comment() {
        // No line end at all: the last line, too long.
        let input = long_line(MAX_LINE_BYTES + 1, b'.', "");
        let items: Vec<_> = PuzzleReader::new(input, None, Layout::Line).collect();
        assert_eq!(summary(&items), [format!("line 1, column 1: {TOO_LONG}")]);
        // A comment is no exception: no puzzle line is that long, so the line is suspect.
        let input = long_line(MAX_LINE_BYTES + 1, b'#', "\n# short\n");
        let items: Vec<_> = PuzzleReader::new(input, None, Layout::Line).collect();
        assert_eq!(summary(&items), [format!("line 1, column 1: {TOO_LONG}")]);
    }

    #[test]
    fn lines_up_to_the_limit_are_read() {
        let puzzle = "1.3.34.2.......1 ";
        let padded = |len: usize| format!("{puzzle}{}", "x".repeat(len - puzzle.len()));
        let text = format!(
            "{}\n{}\n{}",
            padded(MAX_LINE_BYTES),
            padded(MAX_LINE_BYTES + 1),
            padded(MAX_LINE_BYTES)
        );
        let items = read(&text, None, Layout::Line);
        let label = format!("{:?}", Some("x".repeat(MAX_LINE_BYTES - puzzle.len())));
        assert_eq!(
            summary(&items),
            [
                format!("1: 1.3.34.2.......1 {label}"),
                format!("line 2, column 1: {TOO_LONG}"),
                format!("3: 1.3.34.2.......1 {label}"),
            ]
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
                "line 9, column 1: cannot tell the grid shape from 15 cells",
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
    #[ignore = "reads ../shared/data; run with --ignored"]
    fn reads_a_real_collection() {
        let Some(path) = crate::test_data::data_set("puzzles3_magictour_top1465") else {
            return;
        };
        let file = std::fs::File::open(&path).unwrap();
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
}
