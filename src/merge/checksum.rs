//! The checksum of a shard record, so that a record changed after it was written (an edited
//! count, a flipped `complete`) is refused where it is read instead of summed.
//!
//! It is CRC-32 (IEEE 802.3, the CRC of zlib and PNG) of the record's canonical bytes, written
//! as 8 lowercase hex digits. The canonical bytes are defined here, not as the JSON text, so
//! that every writer gives the same checksum for the same record: this crate at any version,
//! Python's `json.dumps` of a record's dict, a tool that respaces the line; and every platform.
//! They are a version line, then a line for each field of the record in this order, each
//! `NAME VALUE` and a `\n`:
//!
//! ```text
//! quadrille shard record 1
//! shard 3
//! shards 4
//! problem 16:64784ef85538606b
//! split 16:8349a96f815083a3
//! solutions 31
//! nodes 267
//! updates 13023
//! seconds 3f5d3d8b8460aaee
//! complete true
//! ```
//!
//! Integers in decimal; the fingerprints as their length in bytes, a colon and their text (so
//! that no two records have the same bytes); the seconds as the 16 hex digits of their IEEE 754
//! binary64 bits, exact where a decimal would be rounded; `complete` as `true` or `false`.
//! A checksum guards against accidents and careless edits, not against forgery: anyone can
//! compute it.

use super::ShardRecord;

/// The first line of the canonical bytes, naming their layout: a new layout is a new number.
const VERSION: &str = "quadrille shard record 1";

/// The record's checksum, as written in its `checksum` field.
pub(super) fn of(record: &ShardRecord) -> String {
    format!("{:08x}", crc32fast::hash(&canonical_bytes(record)))
}

/// The bytes the checksum is of (see the module's documentation).
fn canonical_bytes(record: &ShardRecord) -> Vec<u8> {
    let text = format!(
        "{VERSION}\nshard {}\nshards {}\nproblem {}:{}\nsplit {}:{}\nsolutions {}\nnodes {}\n\
         updates {}\nseconds {:016x}\ncomplete {}\n",
        record.shard,
        record.shards,
        record.problem.len(),
        record.problem,
        record.split.len(),
        record.split,
        record.solutions,
        record.nodes,
        record.updates,
        record.seconds.to_bits(),
        record.complete,
    );
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> ShardRecord {
        ShardRecord {
            shard: 3,
            shards: 4,
            problem: "64784ef85538606b".into(),
            split: "8349a96f815083a3".into(),
            solutions: 31u32.into(),
            nodes: 267,
            updates: 13023,
            seconds: 0.5,
            complete: true,
            origin: None,
        }
    }

    /// The checksum is a function of the documented bytes and of nothing else: a change of
    /// this value changes what every record written before it must say.
    #[test]
    fn the_checksum_is_the_crc_32_of_the_documented_bytes() {
        let bytes = canonical_bytes(&record());
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            "quadrille shard record 1\nshard 3\nshards 4\nproblem 16:64784ef85538606b\n\
             split 16:8349a96f815083a3\nsolutions 31\nnodes 267\nupdates 13023\n\
             seconds 3fe0000000000000\ncomplete true\n"
        );
        // CRC-32 of those bytes, as `python3 -c 'import zlib; print(hex(zlib.crc32(...)))'`
        // computes it.
        assert_eq!(of(&record()), "d3d32777");
    }

    #[test]
    fn every_field_changes_the_checksum() {
        let base = of(&record());
        let changes: [fn(&mut ShardRecord); 9] = [
            |r| r.shard = 2,
            |r| r.shards = 5,
            |r| r.problem.push('0'),
            |r| r.split.push('0'),
            |r| r.solutions += 1u32,
            |r| r.nodes += 1,
            |r| r.updates += 1,
            |r| r.seconds = f64::from_bits(r.seconds.to_bits() + 1),
            |r| r.complete = false,
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut changed = record();
            change(&mut changed);
            assert_ne!(of(&changed), base, "change {i}");
        }
        // The origin is where the record was read, not part of it.
        let mut read = record();
        read.origin = Some("line 3".into());
        assert_eq!(of(&read), base);
    }
}
