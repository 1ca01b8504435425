//! The table of counted subproblems: each keyed by the set of items still uncovered, as a bit
//! set, found by a 64-bit hash of that set and always checked against the whole set, so that
//! two subproblems whose hashes collide never share a count.
//!
//! The table grows by doubling up to the memory it is given, and once there, a new entry takes
//! the place of an old one: a full table forgets, it never fails. A forgotten count is counted
//! again when its subproblem comes back, so the answer stays exact.

use super::tally::Tally;

/// A subproblem's count and the nodes that a plain search of it walks (or its diagram node).
pub(crate) type Entry = (Tally, u64);

/// Slots probed, from the hash's home slot on, before a lookup gives up or an insert replaces.
const PROBES: usize = 8;

/// Slots of a new table: small, so that a short count touches little memory.
const FIRST_SLOTS: usize = 1 << 10;

/// Counts of subproblems, keyed by their uncovered items.
pub(crate) struct Cache {
    /// Words of one key.
    words: usize,
    /// Per slot, the key's hash, or 0 for an empty slot (hashes are made odd).
    hashes: Vec<u64>,
    /// Per slot, `words` words of its key.
    keys: Vec<u64>,
    /// Per slot, its subproblem's count and the nodes that a plain search of it walks.
    counts: Vec<Entry>,
    /// Slots in use.
    used: usize,
    /// The most bytes the table may hold, the moments when it doubles included.
    memory: usize,
    /// Entries that took the place of another in a full table.
    evicted: u64,
}

impl Cache {
    /// A table of keys of `words` words in at most `memory` bytes, the moments when it
    /// doubles included.
    pub(crate) fn new(words: usize, memory: usize) -> Cache {
        let entry = Cache::entry_bytes(words);
        // While the table doubles, the old one is still there: a table of two thirds of
        // `memory` keeps the peak within it.
        let fit = (memory / 3 * 2 / entry).max(1);
        // The largest power of two that fits.
        let max_slots = 1usize << (usize::BITS - 1 - fit.leading_zeros());
        let slots = FIRST_SLOTS.min(max_slots);
        Cache {
            words,
            hashes: vec![0; slots],
            keys: vec![0; slots * words],
            counts: vec![(Tally::ZERO, 0); slots],
            used: 0,
            memory,
            evicted: 0,
        }
    }

    /// Lets the table grow only within `memory` bytes from now on, for a table that shares
    /// its memory with something else that grows (the diagram); a table already larger keeps
    /// its entries and forgets from then on.
    pub(crate) fn limit(&mut self, memory: usize) {
        self.memory = memory;
    }

    /// Whether doubling keeps the table within its memory: while it doubles, the old table
    /// is there beside the new one, three times the old in all.
    fn may_grow(&self) -> bool {
        3 * self.bytes() <= self.memory
    }

    /// The bytes that one slot takes.
    pub(crate) fn entry_bytes(words: usize) -> usize {
        8 * words + 8 + std::mem::size_of::<Entry>()
    }

    /// The bytes the table holds now.
    pub(crate) fn bytes(&self) -> usize {
        self.hashes.len() * Cache::entry_bytes(self.words)
    }

    /// Entries that replaced another because the table was full.
    #[cfg(test)]
    fn evicted(&self) -> u64 {
        self.evicted
    }

    /// The count stored for `key`, whose hash is `hash`.
    #[inline]
    pub(crate) fn get(&self, hash: u64, key: &[u64]) -> Option<&Entry> {
        let tag = hash | 1;
        let mask = self.hashes.len() - 1;
        let home = (hash >> 7) as usize;
        for probe in 0..PROBES.min(self.hashes.len()) {
            let slot = (home + probe) & mask;
            let stored = self.hashes[slot];
            if stored == 0 {
                return None;
            }
            if stored == tag && self.key(slot) == key {
                return Some(&self.counts[slot]);
            }
        }
        None
    }

    /// Stores `count` for `key`, growing the table while the memory allows, else replacing an
    /// entry near the key's home slot.
    pub(crate) fn insert(&mut self, hash: u64, key: &[u64], count: Entry) {
        if (self.used + 1) * 4 > self.hashes.len() * 3 && self.may_grow() {
            self.grow();
        }
        if let Err(count) = self.place(hash, key, count) {
            // Full near home: the home slot forgets its entry.
            let slot = (hash >> 7) as usize & (self.hashes.len() - 1);
            self.write(slot, hash | 1, key, count);
            self.evicted += 1;
        }
    }

    /// Stores the entry in the first empty slot near its home, or gives the count back.
    fn place(&mut self, hash: u64, key: &[u64], count: Entry) -> Result<(), Entry> {
        let mask = self.hashes.len() - 1;
        let home = (hash >> 7) as usize;
        for probe in 0..PROBES.min(self.hashes.len()) {
            let slot = (home + probe) & mask;
            if self.hashes[slot] == 0 {
                self.write(slot, hash | 1, key, count);
                self.used += 1;
                return Ok(());
            }
        }
        Err(count)
    }

    fn write(&mut self, slot: usize, tag: u64, key: &[u64], count: Entry) {
        self.hashes[slot] = tag;
        self.keys[slot * self.words..(slot + 1) * self.words].copy_from_slice(key);
        self.counts[slot] = count;
    }

    fn key(&self, slot: usize) -> &[u64] {
        &self.keys[slot * self.words..(slot + 1) * self.words]
    }

    /// Doubles the table and puts every entry back (an entry with no room left near its new
    /// home is forgotten).
    fn grow(&mut self) {
        let slots = self.hashes.len() * 2;
        let hashes = std::mem::replace(&mut self.hashes, vec![0; slots]);
        let keys = std::mem::replace(&mut self.keys, vec![0; slots * self.words]);
        let counts = std::mem::replace(&mut self.counts, vec![(Tally::ZERO, 0); slots]);
        self.used = 0;
        for (slot, (&tag, count)) in hashes.iter().zip(counts).enumerate() {
            if tag != 0 {
                let key = &keys[slot * self.words..(slot + 1) * self.words];
                if self.place(tag, key, count).is_err() {
                    self.evicted += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(n: u64) -> Tally {
        let mut tally = Tally::ZERO;
        tally.add(&Tally::Small { low: n, high: 0 });
        tally
    }

    #[test]
    fn a_colliding_hash_never_answers_for_another_key() {
        let mut cache = Cache::new(1, 1 << 20);
        let (seven, nine) = (tally(7), tally(9));
        cache.insert(42, &[0b101], (seven.clone(), 1));
        assert_eq!(cache.get(42, &[0b101]), Some(&(seven.clone(), 1)));
        assert_eq!(cache.get(42, &[0b110]), None);
        cache.insert(42, &[0b110], (nine.clone(), 1));
        assert_eq!(cache.get(42, &[0b101]), Some(&(seven, 1)));
        assert_eq!(cache.get(42, &[0b110]), Some(&(nine, 1)));
    }

    #[test]
    fn a_full_table_forgets_and_keeps_answering_right() {
        // Room for 4 slots of one-word keys.
        let mut cache = Cache::new(1, 6 * Cache::entry_bytes(1));
        for k in 0..100u64 {
            cache.insert(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                &[k],
                (tally(k * 3), k),
            );
        }
        assert!(cache.bytes() <= 4 * Cache::entry_bytes(1));
        assert!(cache.evicted() > 0);
        let mut found = 0;
        for k in 0..100u64 {
            if let Some((count, _)) = cache.get(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), &[k]) {
                assert_eq!(*count, tally(k * 3));
                found += 1;
            }
        }
        assert!((1..=4).contains(&found));
    }
}
