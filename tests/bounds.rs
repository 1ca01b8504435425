//! Every reader's limits, through the binary (issue 41, item 2): a line of the limit is read
//! and one byte more is refused at its line, an input of the limit is read and one byte more is
//! refused at the line that passes it, and a file that never ends a line (`/dev/zero`, and
//! `/dev/full`, which reads as zeros) is refused at its first line, with exit code 1, where it
//! used to take all the memory there was. The limits are the README's ("Input formats").
//!
//! Inputs as large as the limits (up to 512 MiB) are made as they are written to the binary's
//! standard input, so that no test holds them.

use std::io::Read;

use quadrille::io::{dlx, puzzle};
use quadrille::merge;

use crate::cli::{path, run_reading, run_text};

/// `unit` repeated `times` times, made as it is read.
struct Repeated {
    unit: Vec<u8>,
    /// Bytes still to give.
    left: u64,
    /// Where in `unit` the next byte is.
    at: usize,
}

impl Read for Repeated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut written = 0;
        while written < buf.len() && self.left > 0 {
            let k = (self.unit.len() - self.at)
                .min(buf.len() - written)
                .min(usize::try_from(self.left).unwrap_or(usize::MAX));
            buf[written..written + k].copy_from_slice(&self.unit[self.at..self.at + k]);
            (written, self.at, self.left) = (
                written + k,
                (self.at + k) % self.unit.len(),
                self.left - k as u64,
            );
        }
        Ok(written)
    }
}

/// An input made of parts, each a unit of bytes and how many times it comes, made as it is
/// read.
fn input(parts: &[(&[u8], u64)]) -> Box<dyn Read + Send> {
    parts.iter().fold(
        Box::new(std::io::empty()) as Box<dyn Read + Send>,
        |before, &(unit, times)| {
            Box::new(before.chain(Repeated {
                unit: unit.to_vec(),
                left: unit.len() as u64 * times,
                at: 0,
            }))
        },
    )
}

/// The size of an input made of `parts`.
fn size(parts: &[(&[u8], u64)]) -> u64 {
    parts
        .iter()
        .map(|(unit, times)| unit.len() as u64 * times)
        .sum()
}

/// The lines of an input made of `parts`, counting a last line without its `\n`.
fn lines(parts: &[(&[u8], u64)]) -> u64 {
    let ends: u64 = (parts.iter())
        .map(|(unit, times)| unit.iter().filter(|&&b| b == b'\n').count() as u64 * times)
        .sum();
    let last = parts
        .iter()
        .rev()
        .find(|(unit, times)| !unit.is_empty() && *times > 0);
    ends + u64::from(last.is_some_and(|(unit, _)| unit.last() != Some(&b'\n')))
}

/// [`run_reading`], as the exit code (a process killed by a signal fails the test), standard
/// output and error.
fn run_streamed(args: &[&str], stdin: Box<dyn Read + Send>) -> (i32, String, String) {
    let output = run_reading(args, stdin);
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("UTF-8 output");
    (
        output.status.code().expect("exited, not killed"),
        text(output.stdout),
        text(output.stderr),
    )
}

/// Spaces enough to make `line` (without its `\n`) `len` bytes long, as parts: a unit of 4 KiB
/// and the rest.
fn spaces(len: u64) -> [(&'static [u8], u64); 2] {
    const KIB: &[u8] = &[b' '; 4096];
    [(KIB, len / 4096), (b" ", len % 4096)]
}

#[test]
fn a_dlx_line_of_the_limit_is_read_and_one_byte_more_is_refused() {
    let limit = dlx::MAX_LINE_BYTES as u64;
    assert_eq!(limit, 64 << 20, "the README says 64 MiB");
    // The item line: `a` and spaces up to the limit; then the option `a`.
    for (extra, expected) in [(0, (0, "1\n")), (1, (1, ""))] {
        let [kib, rest] = spaces(limit - 1 + extra);
        let parts = [(&b"a"[..], 1), kib, rest, (b"\na\n", 1)];
        let (code, out, err) = run_streamed(&["xc", "--count", "-q"], input(&parts));
        assert_eq!((code, out.as_str()), expected, "{extra} byte over: {err}");
        if extra == 1 {
            assert_eq!(
                err,
                "quadrille: <stdin>: line 1, column 1: the line is longer than 67108864 bytes, \
                 more than any dlx line needs\n"
            );
        }
    }
}

#[test]
fn a_dlx_file_of_the_limit_is_read_and_one_byte_more_is_refused() {
    let limit = dlx::MAX_INPUT_BYTES;
    assert_eq!(limit, 128 << 20, "the README says 128 MiB");
    // The items and an option, then comment lines of 1 MiB up to the limit.
    let head: &[u8] = b"a\na\n";
    let mut comment = vec![b' '; 1 << 20];
    (comment[0], comment[(1 << 20) - 1]) = (b'|', b'\n');
    let left = limit - head.len() as u64;
    let last = vec![b'|'; (left % (1 << 20)) as usize];
    let parts = [(head, 1), (&comment[..], left >> 20), (&last[..], 1)];
    assert_eq!(size(&parts), limit);
    let (code, out, err) = run_streamed(&["xc", "--count", "-q"], input(&parts));
    assert_eq!((code, out.as_str()), (0, "1\n"), "{err}");
    // One byte more: the last comment line passes the limit.
    let over = [
        (head, 1),
        (&comment[..], left >> 20),
        (&last[..], 1),
        (b"|", 1),
    ];
    let (code, out, err) = run_streamed(&["xc", "--count", "-q"], input(&over));
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!(
            "quadrille: <stdin>: line {}: the input is longer than 134217728 bytes, more than \
             any dlx file needs\n",
            lines(&over)
        )
    );
}

/// The line of shard `shard` of `shards`, with `solutions`, its checksum made by the library.
fn record_line(shard: usize, shards: usize, solutions: u128) -> String {
    merge::ShardRecord {
        shard,
        shards,
        problem: "00000000000000aa".into(),
        split: "00000000000000bb".into(),
        solutions: solutions.into(),
        nodes: 5,
        updates: 9,
        seconds: 0.5,
        complete: true,
        origin: None,
    }
    .to_line()
}

/// A shard result of a split in one shard: 7 solutions.
fn one_record() -> String {
    record_line(1, 1, 7)
}

#[test]
fn a_shard_result_line_of_the_limit_is_merged_and_one_byte_more_is_refused() {
    let limit = merge::MAX_LINE_BYTES;
    assert_eq!(limit, 4096, "the README says 4 KiB");
    let record = one_record();
    let padded = |len: usize| format!("{record}{}\n", " ".repeat(len - record.len()));
    let (code, out, err) = run_text(&["merge"], &padded(limit));
    assert_eq!((code, out.as_str()), (0, "7\n"), "{err}");
    let (code, out, err) = run_text(&["merge"], &format!("\n{}", padded(limit + 1)));
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "quadrille: <stdin>: line 2, column 1: the line is longer than 4096 bytes, more than \
         any shard result needs\n"
    );
}

#[test]
fn a_file_of_shard_results_of_the_limit_is_merged_and_one_byte_more_is_refused() {
    let limit = merge::MAX_INPUT_BYTES;
    assert_eq!(limit, 512 << 20, "the README says 512 MiB");
    // The record, then blank lines of 4 KiB (spaces) up to the limit.
    let head = format!("{}\n", one_record());
    let mut blank = vec![b' '; 4096];
    blank[4095] = b'\n';
    let left = limit - head.len() as u64;
    let last = vec![b' '; (left % 4096) as usize];
    let parts = [
        (head.as_bytes(), 1),
        (&blank[..], left / 4096),
        (&last[..], 1),
    ];
    assert_eq!(size(&parts), limit);
    let (code, out, err) = run_streamed(&["merge"], input(&parts));
    assert_eq!((code, out.as_str()), (0, "7\n"), "{err}");
    let over = [
        (head.as_bytes(), 1),
        (&blank[..], left / 4096),
        (&last[..], 1),
        (b"\n", 1),
    ];
    let (code, out, err) = run_streamed(&["merge"], input(&over));
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!(
            "quadrille: <stdin>: line {}: the input is longer than 536870912 bytes, more than \
             any file of shard results needs\n",
            lines(&over)
        )
    );
}

#[test]
fn a_record_of_more_shards_than_any_split_is_refused_not_allocated() {
    // `merge` keeps a tally of each split's shards: 2^40 of them took 8 TB, and aborted.
    let record = record_line(1, 1 << 40, 7);
    let (code, out, err) = run_text(&["merge"], &record);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "quadrille: <stdin>: line 1, column 1: not a shard result: shard 1 of 1099511627776: \
         a split has at most 1048576 shards\n"
    );
    let record = record_line(1, usize::MAX, 7);
    let (code, _, err) = run_text(&["merge"], &record);
    assert_eq!(code, 1, "{err}");
}

/// Lines made as they are read, each with its `\n`.
struct Lines<I> {
    lines: I,
    pending: Vec<u8>,
    at: usize,
}

impl<I: Iterator<Item = String>> Read for Lines<I> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.pending.len() {
            let Some(line) = self.lines.next() else {
                return Ok(0);
            };
            (self.pending, self.at) = (format!("{line}\n").into_bytes(), 0);
        }
        let k = buf.len().min(self.pending.len() - self.at);
        buf[..k].copy_from_slice(&self.pending[self.at..self.at + k]);
        self.at += k;
        Ok(k)
    }
}

#[test]
fn every_shard_of_the_largest_split_is_merged_and_one_record_more_is_refused() {
    let most = merge::MAX_SHARDS;
    assert_eq!(most, 1 << 20, "the README says 2^20");
    let record = move |shard: usize| record_line(shard, most, 1);
    let records = move |extra: usize| {
        Box::new(Lines {
            lines: (1..=most).chain(1..=extra).map(record),
            pending: Vec::new(),
            at: 0,
        }) as Box<dyn Read + Send>
    };
    let (code, out, err) = run_streamed(&["merge", "-"], records(0));
    assert_eq!((code, out), (0, format!("{most}\n")), "{err}");
    // One more, a copy of shard 1: refused where it is, before it is kept.
    let (code, out, err) = run_streamed(&["merge", "-"], records(1));
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!(
            "quadrille: <stdin>: line {}, column 1: not a shard result: more records than a \
             split has shards (at most {most})\n",
            most + 1
        )
    );
}

#[test]
fn a_shard_given_many_times_is_named_at_its_first_two_places() {
    let record = one_record();
    let (code, _, err) = run_text(&["merge"], &format!("{record}\n{record}\n\n{record}\n"));
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            "quadrille: cannot merge: shard 1 given 3 times: (<stdin>, line 1) and (<stdin>, \
             line 2)\n"
        )
    );
}

#[test]
fn a_checkpoint_line_of_the_limit_is_resumed_and_one_byte_more_is_refused() {
    let dir = std::env::temp_dir().join(format!("quadrille-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let checkpoint = dir.join("queens8.checkpoint");
    let _ = std::fs::remove_file(&checkpoint);
    let file = checkpoint.to_str().unwrap();
    let count = |file: &str| {
        run_text(
            &["xc", &path("queens8.dlx"), "--count", "--checkpoint", file],
            "",
        )
    };
    let (code, out, err) = count(file);
    assert_eq!((code, out.as_str()), (0, "92\n"), "{err}");
    let text = std::fs::read_to_string(&checkpoint).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let limit = merge::MAX_LINE_BYTES;
    // The first record padded to the limit: every shard is resumed.
    let padded = format!("{first}{}\n{rest}", " ".repeat(limit - first.len()));
    std::fs::write(&checkpoint, &padded).unwrap();
    let (code, out, err) = count(file);
    assert_eq!((code, out.as_str()), (0, "92\n"), "{err}");
    assert!(
        err.contains("128 of 128 shards done (128 from the checkpoint)"),
        "{err}"
    );
    // One byte more: refused at its line, and the file is left as it was.
    let padded = format!("{first}{}\n{rest}", " ".repeat(limit + 1 - first.len()));
    std::fs::write(&checkpoint, &padded).unwrap();
    let (code, out, err) = count(file);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!(
            "quadrille: {file}: line 1, column 1: the line is longer than 4096 bytes, more than \
             any shard result needs\n"
        )
    );
    assert_eq!(std::fs::read_to_string(&checkpoint).unwrap(), padded);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn files_that_never_end_a_line_are_refused_at_their_first_line() {
    let too_long = |limit: usize, what: &str| {
        format!(
            "line 1, column 1: the line is longer than {limit} bytes, more than any {what} needs"
        )
    };
    let cases = [
        (
            &["xc", "/dev/zero", "--count"][..],
            format!(
                "quadrille: /dev/zero: {}\n",
                too_long(dlx::MAX_LINE_BYTES, "dlx line")
            ),
        ),
        (
            &["merge", "/dev/zero"][..],
            format!("quadrille: /dev/zero: {}\n", too_long(4096, "shard result")),
        ),
        // The checkpoint is read before it is written, and `/dev/full` reads as zeros.
        (
            &[
                "xc",
                "fixtures/queens8.dlx",
                "--count",
                "--checkpoint",
                "/dev/full",
            ][..],
            format!("quadrille: /dev/full: {}\n", too_long(4096, "shard result")),
        ),
    ];
    for (args, expected) in cases {
        let (code, out, err) = run_text(args, "");
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (1, "", expected.as_str()),
            "{args:?}"
        );
    }
}

#[test]
fn box_and_variant_headers_of_the_limit_are_read_and_one_byte_more_is_refused() {
    let limit = puzzle::MAX_LINE_BYTES;
    assert_eq!(limit, 64 << 10, "the README says 64 KiB");
    let padded = |header: &str, len: usize| format!("{header}{}", " ".repeat(len - header.len()));
    // A puzzle of 4x2 boxes: with 2x4 ones, inferred from its length, it has no solution.
    let puzzle = "457.2.......7....8....1..36....45....13..6....4....6.......3.481";
    let solution = "4571236812847653683245177365182454278136361857428146327527536481\n";
    let text = format!("{}\n{puzzle}\n", padded("# box: 4x2", limit));
    assert_eq!(
        run_text(&["solve"], &text),
        (0, solution.into(), String::new())
    );
    let text = format!("{}\n{puzzle}\n", padded("# box: 4x2", limit + 1));
    let (code, _, err) = run_text(&["solve"], &text);
    let too_long =
        "line 1, column 1: the line is longer than 65536 bytes, more than any puzzle needs";
    assert_eq!(code, 1);
    assert!(err.contains(too_long), "{err}");
    assert!(
        err.contains("line 2: no solution with the 2x4 boxes"),
        "{err}"
    );
    // Two 1s on the diagonal: an X-Sudoku's error, a classic Sudoku's solution.
    let puzzle = "1.........1.....";
    let text = format!("{}\n{puzzle}\n", padded("# variant: x", limit));
    let (code, _, err) = run_text(&["solve"], &text);
    let diagonal = "line 2, column 11: digit 1 is given twice in diagonal 1: at r1c1 and r3c3";
    assert_eq!((code, err), (1, format!("quadrille: {diagonal}\n")));
    let text = format!("{}\n{puzzle}\n", padded("# variant: x", limit + 1));
    let (code, out, err) = run_text(&["solve"], &text);
    assert_eq!((code, err), (1, format!("quadrille: {too_long}\n")));
    assert!(out.ends_with("\n1234342143122143\n"), "{out}");
}
