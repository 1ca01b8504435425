//! Reading text a line at a time within limits: the one way that every reader of the crate
//! reads, puzzles ([`crate::io::puzzle`]), Knuth's dlx format ([`crate::io::dlx`]), and shard
//! results and checkpoints ([`crate::merge`], [`crate::long_count`]).
//!
//! A reader holds one line at a time, and never more of it than its format's line limit: a
//! line is read with a cap of one byte past the limit (which tells a line of exactly the
//! limit from a longer one), so that an input that never ends a line (`/dev/zero`) costs the
//! limit, not all the memory there is. A format whose reader keeps what it reads (a problem, a
//! list of records) bounds the whole input too, so that endless short lines (`yes`) end as
//! well; the puzzle reader keeps nothing from one puzzle to the next, and reads inputs of any
//! length in the same memory.
//!
//! The limits of every format are here, with why they are what they are; the README's "Input
//! formats" states them for users.

use std::io::{self, BufRead, Read};

use crate::error::{Error, ErrorKind, Result};

/// The limits of one text format, and what its messages call it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// The longest line, in bytes before its `\n` (a `\r` before it counts).
    pub(crate) line: usize,
    /// The most bytes of the whole input, line ends included; `None` for a format read as a
    /// stream, whose memory does not grow with the input.
    pub(crate) input: Option<u64>,
    /// What a line of the format is, for messages: "more than any {line_what} needs".
    pub(crate) line_what: &'static str,
    /// What an input of the format is, likewise.
    pub(crate) input_what: &'static str,
}

/// Puzzles, one per line or as grids: 64 KiB a line, inputs of any length.
///
/// The longest puzzle line is the largest grid, 64x64, in the numeric one-line layout: 4,096
/// cells of at most two digits and a separator, 12,288 bytes (16 KiB with two spaces between
/// cells). Every other shape and layout is shorter; a grid-layout row is 64 cells, and a
/// header (`# box: RxC`, `# variant: NAME`) a few bytes. 64 KiB leaves room for generous
/// padding and a long comment. The reader streams (a batch of puzzles holds one line and one
/// grid at a time), so the input's length is not bounded.
pub(crate) const PUZZLES: Limits = Limits {
    line: 64 * 1024,
    input: None,
    line_what: "puzzle",
    input_what: "file of puzzles",
};

/// Knuth's dlx format: 64 MiB a line, 128 MiB in all.
///
/// A dlx line can be long: the item line names every item, and an option may hold thousands.
/// The longest lines we know are the item lines of generated problems: a chain of a million
/// items (issue 41), named up to `i999999`, has an item line of 7 MB. 64 MiB holds an item
/// line of five million items with 12-byte names, and is what a file that never ends a line
/// costs before it is refused.
///
/// The whole file is bounded because the problem read from it is kept, and costs more than
/// its text: every item of every option is a node of the problem and of the links. The
/// costliest text is options of one item (`yes a`): 2 bytes of text, an option and a node,
/// about 29 bytes of memory at the peak (64 MiB of it peaked at 1.85 GB in `xc --count`), so
/// 1 GiB would have been 30 GB. 128 MiB of it peaks at 3.7 GB in `xc --count` (2.1 GB when
/// refused one byte over, before the links are built), and 128 MiB of options of twenty items
/// at 1.1 GB; the largest inputs we know are 15 MB (issue 41's chain of a million items, item
/// line and options), the largest fixture 46 KB.
pub(crate) const DLX: Limits = Limits {
    line: 64 * 1024 * 1024,
    input: Some(128 * 1024 * 1024),
    line_what: "dlx line",
    input_what: "dlx file",
};

/// Shard results (`--shard I/N --json`, `merge`) and checkpoints (`--checkpoint`): 4 KiB a
/// line, 512 MiB in all.
///
/// A record is one JSON line of about 300 bytes at most: three counts of up to 39 digits,
/// two 16-digit fingerprints, the seconds and the shard's numbers. 4 KiB leaves room for any
/// spacing a tool adds. A file may hold every shard of the largest split,
/// [`MAX_SHARDS`](crate::merge::MAX_SHARDS) (2^20) of them: 512 bytes for each is 512 MiB, and
/// what `merge` keeps of a record is less than its line. A checkpoint holds 128 records, and
/// is read the same way. (The number, not the name: `merge` reads with this module, which
/// therefore does not import it; a test checks that the two agree.)
pub(crate) const SHARD_RESULTS: Limits = Limits {
    line: 4 * 1024,
    input: Some((1 << 20) * 512),
    line_what: "shard result",
    input_what: "file of shard results",
};

/// What reading one line found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineRead {
    /// A line, in the reader's buffer ([`LineReader::bytes`]).
    Text,
    /// A line longer than the limit, not held.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads an input a line at a time within a format's [`Limits`], counting lines from 1.
#[derive(Debug)]
pub(crate) struct LineReader<R> {
    input: R,
    limits: Limits,
    /// The bytes of the current line with its line end, reused from line to line; never more
    /// than the line limit and a line end.
    buf: Vec<u8>,
    /// Lines read so far: the current line's 1-based number.
    line: usize,
    /// Bytes read so far, at most the input limit.
    read: u64,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of `input` within `limits`.
    pub(crate) fn new(input: R, limits: Limits) -> LineReader<R> {
        LineReader {
            input,
            limits,
            buf: Vec::new(),
            line: 0,
            read: 0,
        }
    }

    /// The current line's 1-based number: the number of lines read so far.
    pub(crate) fn line(&self) -> usize {
        self.line
    }

    /// The bytes of the current line, with its line end if it has one; empty after a line
    /// too long.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// The input, for tests that look at what was read of it.
    #[cfg(test)]
    pub(crate) fn input(&self) -> &R {
        &self.input
    }

    /// The bytes the line buffer holds room for, for tests that check it stays bounded.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// The bytes that the limit of the whole input still allows, past the ones read.
    fn allowed(&self) -> u64 {
        self.limits
            .input
            .map_or(u64::MAX, |limit| limit.saturating_sub(self.read))
    }

    /// Reads the next line into the buffer, capped at one byte past the line limit (and past
    /// the input limit); a longer line is [`LineRead::TooLong`] and the rest of it is left
    /// unread. An input longer than its limit is an error at the line that passes it.
    fn fill(&mut self) -> Result<LineRead> {
        self.buf.clear();
        // One byte over a limit tells an input that reaches it from one that passes it.
        let cap = (self.limits.line as u64)
            .min(self.allowed())
            .saturating_add(1);
        let read = (&mut self.input)
            .take(cap)
            .read_until(b'\n', &mut self.buf)
            .map_err(|err| Error::from(err).with_line(self.line + 1))?;
        if read == 0 {
            return Ok(LineRead::End);
        }
        self.line += 1;
        self.read += read as u64;
        if let Some(limit) = self.limits.input
            && self.read > limit
        {
            self.buf.clear();
            let kind = ErrorKind::InputTooLarge {
                limit,
                what: self.limits.input_what,
            };
            return Err(Error::new(kind).with_line(self.line));
        }
        if self.buf.len() > self.limits.line && self.buf.last() != Some(&b'\n') {
            self.buf.clear();
            return Ok(LineRead::TooLong);
        }
        Ok(LineRead::Text)
    }

    /// Reads the next line, for a reader that goes on after a line too long: such a line is
    /// [`LineRead::TooLong`] (its error is [`LineReader::too_long`]), read through a buffer at
    /// a time and dropped, never held.
    pub(crate) fn read_line(&mut self) -> Result<LineRead> {
        let found = self.fill()?;
        if found == LineRead::TooLong {
            let cap = self.allowed().saturating_add(1);
            let rest = (&mut self.input)
                .take(cap)
                .skip_until(b'\n')
                .map_err(|err| Error::from(err).with_line(self.line))?;
            self.read = self.read.saturating_add(rest as u64);
            if let Some(limit) = self.limits.input
                && self.read > limit
            {
                let kind = ErrorKind::InputTooLarge {
                    limit,
                    what: self.limits.input_what,
                };
                return Err(Error::new(kind).with_line(self.line));
            }
        }
        Ok(found)
    }

    /// The error of the line just read for being too long: at its line, column 1.
    pub(crate) fn too_long(&self) -> Error {
        let kind = ErrorKind::LineTooLong {
            limit: self.limits.line,
            what: self.limits.line_what,
        };
        Error::at(kind, self.line, 1)
    }

    /// The next line as text with its number, or `None` at the end, for a reader that stops at
    /// the first bad line: a line too long is an error (at its line, column 1), and so are
    /// bytes that are not UTF-8 (an I/O error at their line, as `BufRead::read_line` says it).
    pub(crate) fn next_text(&mut self) -> Result<Option<(usize, &str)>> {
        match self.fill()? {
            LineRead::End => Ok(None),
            LineRead::TooLong => Err(self.too_long()),
            LineRead::Text => match std::str::from_utf8(&self.buf) {
                Ok(text) => Ok(Some((self.line, text))),
                Err(_) => {
                    let err = io::Error::new(
                        io::ErrorKind::InvalidData,
                        "stream did not contain valid UTF-8",
                    );
                    Err(Error::from(err).with_line(self.line))
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small limits, so that the edges are cheap to reach.
    const SMALL: Limits = Limits {
        line: 4,
        input: Some(12),
        line_what: "test line",
        input_what: "test input",
    };

    fn texts(input: &[u8], limits: Limits) -> Vec<String> {
        let mut reader = LineReader::new(input, limits);
        let mut found = Vec::new();
        loop {
            match reader.next_text() {
                Ok(Some((line, text))) => found.push(format!("{line}: {text:?}")),
                Ok(None) => return found,
                Err(err) => {
                    found.push(err.to_string());
                    return found;
                }
            }
        }
    }

    #[test]
    fn a_line_of_the_limit_is_read_and_one_byte_more_is_refused() {
        assert_eq!(
            texts(b"abcd\nab\n", SMALL),
            ["1: \"abcd\\n\"", "2: \"ab\\n\""]
        );
        // Without its line end too, at the end of the input.
        assert_eq!(texts(b"ab\nabcd", SMALL), ["1: \"ab\\n\"", "2: \"abcd\""]);
        // A `\r` counts.
        assert_eq!(
            texts(b"ab\nabcd\r\n", SMALL),
            [
                "1: \"ab\\n\"",
                "line 2, column 1: the line is longer than 4 bytes, more than any test line needs"
            ]
        );
        assert_eq!(
            texts(b"abcde", SMALL),
            ["line 1, column 1: the line is longer than 4 bytes, more than any test line needs"]
        );
    }

    #[test]
    fn an_input_of_the_limit_is_read_and_one_byte_more_is_refused() {
        let twelve = b"abc\n\n\nabcd\n\n";
        assert_eq!(texts(twelve, SMALL).len(), 5);
        let message = "line 6: the input is longer than 12 bytes, more than any test input needs";
        assert_eq!(texts(b"abc\n\n\nabcd\n\n\n", SMALL)[5], message);
        assert_eq!(texts(b"abc\n\n\nabcd\n\nx", SMALL)[5], message);
        // A line that passes both limits passes the input's first when it is nearer.
        let message = "line 4: the input is longer than 12 bytes, more than any test input needs";
        assert_eq!(texts(b"abc\nabc\nabc\nabcdef", SMALL)[3], message);
    }

    #[test]
    fn a_line_too_long_is_read_through_by_read_line_and_reading_goes_on() {
        let streaming = Limits {
            input: None,
            ..SMALL
        };
        let mut reader = LineReader::new(&b"abcdefgh\nab\n"[..], streaming);
        assert_eq!(reader.read_line().unwrap(), LineRead::TooLong);
        assert_eq!(reader.bytes(), b"");
        assert_eq!(reader.read_line().unwrap(), LineRead::Text);
        assert_eq!((reader.line(), reader.bytes()), (2, &b"ab\n"[..]));
        assert_eq!(reader.read_line().unwrap(), LineRead::End);
        // With an input limit, reading through stops at it.
        let mut reader = LineReader::new(&b"abcdefghijklmnop\n"[..], SMALL);
        let err = reader.read_line().unwrap_err();
        assert_eq!(err.line(), Some(1));
        assert!(matches!(
            err.kind(),
            ErrorKind::InputTooLarge { limit: 12, .. }
        ));
    }

    #[test]
    fn shard_results_hold_512_bytes_for_each_shard_of_the_largest_split() {
        let each = SHARD_RESULTS
            .input
            .map(|limit| limit / crate::merge::MAX_SHARDS as u64);
        assert_eq!(each, Some(512));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_an_error_at_their_line() {
        let mut reader = LineReader::new(&b"ab\n\xff\n"[..], SMALL);
        reader.next_text().unwrap();
        let err = reader.next_text().unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Io(_)));
        assert_eq!((err.line(), err.column()), (Some(2), None));
    }
}
