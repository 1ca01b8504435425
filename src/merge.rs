//! Shard results, one JSON line each, and their sum.
//!
//! A shard of a count ([`Dlx::shard_plan`](crate::exact_cover::Dlx::shard_plan)) is run as its
//! own process, anywhere, and writes one [`ShardRecord`] line. [`merge`] adds the lines up: it
//! refuses lines of different problems, of different splits and shards given twice, and it
//! says which shards are missing or were cut short by a budget, so that a partial sum is
//! never taken for the total.
//!
//! A record line may be up to [`MAX_LINE_BYTES`] (4 KiB) long and a text of records up to
//! [`MAX_INPUT_BYTES`] (512 MiB): a longer line or text is an error at its line, and nothing
//! past it is read.
//!
//! Every line ends with a `checksum` of the record's fields (CRC-32 of their canonical bytes,
//! defined in the `checksum` module's source, `src/merge/checksum.rs`): a record whose fields
//! no longer match it, or that has none (as written before records had one), is refused at
//! its line, so that an edited count is never summed.
//!
//! ```
//! use quadrille::merge::{self, ShardRecord};
//!
//! let lines = r#"{"shard":1,"shards":2,"problem":"00000000000000aa","split":"00000000000000bb","solutions":"340282366920938463463374607431768211456","nodes":5,"updates":9,"seconds":0.5,"complete":true,"checksum":"bce03d6f"}
//! {"shard":2,"shards":2,"problem":"00000000000000aa","split":"00000000000000bb","solutions":0,"nodes":3,"updates":4,"seconds":0.25,"complete":true,"checksum":"f1e94ed0"}"#;
//! let records = merge::read_records(lines.as_bytes())?;
//! let merged = merge::merge(&records)?;
//! // 2^128 + 0: a count of any size, past 2^53 a string of digits.
//! assert_eq!(merged.solutions, num_bigint::BigUint::from(1u32) << 128);
//! assert!(merged.is_total());
//! assert!(merge::merge(&records[..1])?.missing == vec![2]);
//! # Ok::<(), quadrille::Error>(())
//! ```

mod checksum;

use std::io::BufRead;

use num_bigint::BigUint;
use serde::{Deserialize, Serialize};

use crate::budget::serialize_count;
use crate::error::{Error, ErrorKind, Result};
use crate::io::lines::{self, LineReader};

/// The most shards a split may have ([`ShardRequest`](crate::request::ShardRequest),
/// `--shard I/N`): a record of more is refused, as [`merge`] keeps a tally of each split's
/// shards.
pub const MAX_SHARDS: usize = 1 << 20;

/// The longest record line read, in bytes before its `\n`: 4 KiB.
///
/// A record is one JSON line of about 300 bytes (two counts of up to 39 digits, the solutions,
/// two 16-digit fingerprints, the seconds and the shard's numbers); 4 KiB leaves room for any
/// spacing a tool adds, and for a count of solutions of some 3,700 digits. A longer line is [`ErrorKind::LineTooLong`] at its line.
pub const MAX_LINE_BYTES: usize = lines::SHARD_RESULTS.line;

/// The most bytes of records read from one text, line ends included: 512 MiB, 512 bytes for
/// each shard of the largest split ([`MAX_SHARDS`]). A longer text is
/// [`ErrorKind::InputTooLarge`] at the line that passes the limit.
pub const MAX_INPUT_BYTES: u64 = match lines::SHARD_RESULTS.input {
    Some(limit) => limit,
    None => u64::MAX,
};

/// What one shard found, as it is written on one JSON line: these fields, then `checksum`, the
/// checksum of them all (see the module's documentation), which a record read must match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "RecordLine", try_from = "RecordLine")]
pub struct ShardRecord {
    /// The shard, 1-based.
    pub shard: usize,
    /// The number of shards of the split.
    pub shards: usize,
    /// The problem's fingerprint, 16 hex digits.
    pub problem: String,
    /// The split's fingerprint, 16 hex digits.
    pub split: String,
    /// The solutions found: exact when `complete`, a lower bound otherwise. In the JSON text
    /// as [`SolutionCount`](crate::SolutionCount) writes a count: a number up to 2^53 - 1,
    /// a string of digits above.
    pub solutions: BigUint,
    /// Search-tree nodes.
    pub nodes: u128,
    /// Link updates.
    pub updates: u128,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Whether the shard was searched to the end.
    pub complete: bool,
    /// Where the record was read (`line 3`, or `shards.jsonl, line 3` once the caller names
    /// the file), for the messages that refuse it; not part of the JSON.
    pub origin: Option<String>,
}

impl ShardRecord {
    /// ` (ORIGIN)` when the record's origin is known, for messages.
    fn place(&self) -> String {
        self.origin
            .as_ref()
            .map_or_else(String::new, |origin| format!(" ({origin})"))
    }

    /// The record as one JSON line (without the newline), its checksum last.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a record serialises")
    }
}

/// A record as its JSON line has it: the record's fields and their checksum. Every record is
/// written and read through it, so that no writer can leave the checksum out and no reader
/// can skip it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordLine {
    shard: usize,
    shards: usize,
    problem: String,
    split: String,
    #[serde(
        serialize_with = "serialize_count",
        deserialize_with = "deserialize_count"
    )]
    solutions: BigUint,
    nodes: u128,
    updates: u128,
    seconds: f64,
    complete: bool,
    /// Always written; missing only from a line written before records had one.
    checksum: Option<String>,
}

/// Reads a record's count from its text: a number as [`serialize_count`] writes up to 2^53 - 1
/// (and as Python's `json.dumps` writes an int of any size), or a string of digits as it writes
/// above. From the text, as serde_json reads a number past 64 bits as a float.
fn deserialize_count<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> std::result::Result<BigUint, D::Error> {
    let raw = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
    let text = raw.get();
    let digits = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text);
    match digits.parse::<BigUint>() {
        Ok(count) if digits.bytes().all(|b| b.is_ascii_digit()) => Ok(count),
        _ => Err(serde::de::Error::custom(format!(
            "the solutions are {text}: a count is a whole number, or a string of digits"
        ))),
    }
}

impl From<ShardRecord> for RecordLine {
    fn from(record: ShardRecord) -> RecordLine {
        let checksum = Some(checksum::of(&record));
        RecordLine {
            shard: record.shard,
            shards: record.shards,
            problem: record.problem,
            split: record.split,
            solutions: record.solutions,
            nodes: record.nodes,
            updates: record.updates,
            seconds: record.seconds,
            complete: record.complete,
            checksum,
        }
    }
}

/// Why a record without a checksum is refused.
const NO_CHECKSUM: &str =
    "the record has no checksum (it was written before records had one): count its shard again";

impl TryFrom<RecordLine> for ShardRecord {
    /// Why the line's checksum is refused.
    type Error = String;

    /// The record, if the line's checksum is there and matches its fields.
    fn try_from(line: RecordLine) -> std::result::Result<ShardRecord, String> {
        let record = ShardRecord {
            shard: line.shard,
            shards: line.shards,
            problem: line.problem,
            split: line.split,
            solutions: line.solutions,
            nodes: line.nodes,
            updates: line.updates,
            seconds: line.seconds,
            complete: line.complete,
            origin: None,
        };
        let Some(written) = line.checksum else {
            // A record of an older version could be summed as it is, but nothing would tell
            // an edited one from it: counting its shard again is the honest way.
            return Err(NO_CHECKSUM.into());
        };
        if written != checksum::of(&record) {
            return Err(format!(
                "the checksum {written} does not match the record: it was changed after it \
                 was written"
            ));
        }
        Ok(record)
    }
}

/// The sum of shard results.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The number of shards of the split.
    pub shards: usize,
    /// The problem's fingerprint.
    pub problem: String,
    /// The split's fingerprint.
    pub split: String,
    /// The solutions of the shards given: the total only when [`Merged::is_total`].
    pub solutions: BigUint,
    /// Their nodes.
    pub nodes: u128,
    /// Their updates.
    pub updates: u128,
    /// Their seconds, added up (the CPU-time of a count, roughly).
    pub seconds: f64,
    /// The longest shard's seconds.
    pub max_seconds: f64,
    /// The shards given, in order.
    pub present: Vec<usize>,
    /// The shards not given.
    pub missing: Vec<usize>,
    /// The shards given but cut short by a budget.
    pub incomplete: Vec<usize>,
}

impl Merged {
    /// Whether every shard is there and complete, so that the sums are the whole count.
    pub fn is_total(&self) -> bool {
        self.missing.is_empty() && self.incomplete.is_empty()
    }
}

/// Reads shard records, one per line (blank lines skipped), within [`MAX_LINE_BYTES`] a line
/// and [`MAX_INPUT_BYTES`] in all. An error names the line, and for bad JSON the column; a
/// record without its checksum or whose checksum does not match is refused at its line; a
/// record of more than [`MAX_SHARDS`] shards is refused as no split has them, and so is a
/// record past the first [`MAX_SHARDS`], as they cannot all be shards of one split. Every line
/// is read, the last too with or without its `\n`: see [`read_shard_results`] for files that
/// a stopped run may have left with half a line.
pub fn read_records<R: BufRead>(reader: R) -> Result<Vec<ShardRecord>> {
    read_lines(reader, LastLine::Read).map(|read| read.records)
}

/// Shard results as `quadrille merge` reads a file of them ([`read_shard_results`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ShardResults {
    /// The records, each with its line as its origin.
    pub records: Vec<ShardRecord>,
    /// The last line, left out: it ends without its `\n` in the middle of its JSON, as a line
    /// cut short by a run stopped mid-write does (a checkpoint's, or a shard's output).
    pub cut_line: Option<usize>,
}

/// Reads shard records as [`read_records`] does, except a last line that ends without its `\n`
/// in the middle of its JSON: that line was cut short by a stop mid-write, and is left out, as
/// a resumed count leaves it out of its checkpoint; [`ShardResults::cut_line`] says which it
/// was, for the caller to say so. A whole last line without its `\n` is read.
///
/// ```
/// use quadrille::merge;
///
/// let lines = r#"{"shard":1,"shards":2,"problem":"00000000000000aa","split":"00000000000000bb","solutions":7,"nodes":5,"updates":9,"seconds":0.5,"complete":true,"checksum":"80fbf61b"}
/// {"shard":2,"shards":2,"problem":"00000000"#;
/// let read = merge::read_shard_results(lines.as_bytes())?;
/// assert_eq!((read.records.len(), read.cut_line), (1, Some(2)));
/// assert!(merge::read_records(lines.as_bytes()).is_err());
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn read_shard_results<R: BufRead>(reader: R) -> Result<ShardResults> {
    read_lines(reader, LastLine::DropIfCut).map(|read| ShardResults {
        records: read.records,
        cut_line: read.cut_line,
    })
}

/// The records of whole lines, for a checkpoint: a last line without its `\n` was cut short
/// by a stop mid-write, and is left out. With the records, the bytes of the lines read, up to
/// the last `\n`.
pub(crate) fn read_whole_records<R: BufRead>(reader: R) -> Result<(Vec<ShardRecord>, u64)> {
    read_lines(reader, LastLine::Drop).map(|read| (read.records, read.whole))
}

/// What a reader of records does with a last line that has no `\n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LastLine {
    /// Reads it as any other line: a text may end without a line end.
    Read,
    /// Reads it, unless its JSON ends early: then it was cut short, and is left out.
    DropIfCut,
    /// Leaves it out: the writer of a checkpoint ends every line it finishes.
    Drop,
}

/// What [`read_lines`] read.
struct LinesRead {
    records: Vec<ShardRecord>,
    /// The bytes read up to the last `\n`.
    whole: u64,
    /// The last line, left out as cut short.
    cut_line: Option<usize>,
}

/// Reads records; the last line without its `\n` as `last` says.
fn read_lines<R: BufRead>(reader: R, last: LastLine) -> Result<LinesRead> {
    let mut records = Vec::new();
    let mut lines = LineReader::new(reader, lines::SHARD_RESULTS);
    let mut whole = 0;
    let mut cut_line = None;
    while let Some((number, raw)) = lines.next_text()? {
        // The line without its line end, as `BufRead::lines` gives it: serde_json counts
        // columns on it.
        let (line, ended) = match raw.strip_suffix('\n') {
            Some(line) => (line.strip_suffix('\r').unwrap_or(line), true),
            None if last == LastLine::Drop => break,
            None => (raw, false),
        };
        if ended {
            whole += raw.len() as u64;
        }
        if line.trim().is_empty() {
            continue;
        }
        if records.len() == MAX_SHARDS {
            // No split has more shards. Without this, 512 MiB of the shortest record lines
            // (about 110 bytes) were kept as 5 million records, 2 GB at the peak.
            let reason = format!("more records than a split has shards (at most {MAX_SHARDS})");
            return Err(Error::at(ErrorKind::BadShardRecord { reason }, number, 1));
        }
        let line: RecordLine = match serde_json::from_str(line) {
            Ok(line) => line,
            // JSON that ends early on a line that ends without its `\n` is a write cut short.
            Err(e) if e.is_eof() && !ended && last == LastLine::DropIfCut => {
                cut_line = Some(number);
                break;
            }
            Err(e) => {
                let column = e.column();
                let reason = e.to_string();
                // serde_json ends its message with its own position: the error carries ours.
                let reason = match reason.find(" at line ") {
                    Some(at) => reason[..at].to_string(),
                    None => reason,
                };
                let kind = ErrorKind::BadShardRecord { reason };
                return Err(Error::at(kind, number, column.max(1)));
            }
        };
        // The checksum is of the whole record, not of one place in it: the error names the line.
        let record = ShardRecord::try_from(line)
            .map_err(|reason| Error::new(ErrorKind::BadShardRecord { reason }).with_line(number))?;
        let reason = if record.shards == 0 || !(1..=record.shards).contains(&record.shard) {
            Some(format!("shard {} of {}", record.shard, record.shards))
        } else if record.shards > MAX_SHARDS {
            // No split has more, and `merge` keeps a tally of each split's shards.
            Some(format!(
                "shard {} of {}: a split has at most {MAX_SHARDS} shards",
                record.shard, record.shards
            ))
        } else {
            None
        };
        if let Some(reason) = reason {
            return Err(Error::at(ErrorKind::BadShardRecord { reason }, number, 1));
        }
        records.push(ShardRecord {
            origin: Some(format!("line {number}")),
            ..record
        });
    }
    Ok(LinesRead {
        records,
        whole,
        cut_line,
    })
}

/// Adds up shard records of one problem and one split. Refuses (with an error naming the shards)
/// records of different problems, splits or shard counts, and a shard given twice; reports the
/// missing and incomplete shards in the result.
pub fn merge(records: &[ShardRecord]) -> Result<Merged> {
    let first = records.first().ok_or_else(|| {
        Error::new(ErrorKind::ShardMismatch {
            reason: "no shard results".into(),
        })
    })?;
    for r in records {
        let differ = |what: &str, a: &dyn std::fmt::Display, b: &dyn std::fmt::Display| {
            Error::new(ErrorKind::ShardMismatch {
                reason: format!(
                    "shard {}{} has {what} {b}, shard {}{} has {a}",
                    r.shard,
                    r.place(),
                    first.shard,
                    first.place()
                ),
            })
        };
        if r.problem != first.problem {
            return Err(differ("problem", &first.problem, &r.problem));
        }
        if r.shards != first.shards {
            return Err(differ("shard count", &first.shards, &r.shards));
        }
        if r.split != first.split {
            return Err(differ("split", &first.split, &r.split));
        }
    }
    let shards = first.shards;
    let mut seen = vec![0usize; shards + 1];
    for r in records {
        seen[r.shard] += 1;
    }
    if let Some(twice) = (1..=shards).find(|&i| seen[i] > 1) {
        // The first two places: a message naming every one of a million copies would be a
        // million places long.
        let places: Vec<String> = records
            .iter()
            .filter(|r| r.shard == twice)
            .take(2)
            .map(|r| r.place())
            .collect();
        let times = match seen[twice] {
            2 => "twice".to_string(),
            n => format!("{n} times"),
        };
        return Err(Error::new(ErrorKind::ShardMismatch {
            reason: format!("shard {twice} given {times}:{}", places.join(" and")),
        }));
    }
    let mut present: Vec<usize> = records.iter().map(|r| r.shard).collect();
    present.sort_unstable();
    let mut incomplete: Vec<usize> = records
        .iter()
        .filter(|r| !r.complete)
        .map(|r| r.shard)
        .collect();
    incomplete.sort_unstable();
    Ok(Merged {
        shards,
        problem: first.problem.clone(),
        split: first.split.clone(),
        solutions: records.iter().map(|r| &r.solutions).sum(),
        nodes: sum(records, "nodes", |r| r.nodes)?,
        updates: sum(records, "updates", |r| r.updates)?,
        seconds: records.iter().map(|r| r.seconds).sum(),
        max_seconds: records.iter().map(|r| r.seconds).fold(0.0, f64::max),
        present,
        missing: (1..=shards).filter(|&i| seen[i] == 0).collect(),
        incomplete,
    })
}

/// The sum of one field, or an error if it does not fit in 128 bits.
fn sum(records: &[ShardRecord], what: &str, field: impl Fn(&ShardRecord) -> u128) -> Result<u128> {
    records.iter().try_fold(0u128, |total, r| {
        total.checked_add(field(r)).ok_or_else(|| {
            Error::new(ErrorKind::ShardMismatch {
                reason: format!("the {what} add up to more than 2^128"),
            })
        })
    })
}
