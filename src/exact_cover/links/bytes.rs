//! The items' `len`s kept in bytes, for the item choice's dense scan.

use super::scan::{self, Want};
use super::{COVERED, Item, Links, STRIDE};

/// The `len`s of the items, a byte each, beside the headers' `top`s: [`u8::MAX`] for a covered
/// item (and 255 or more options, which the primary items of links that keep them never
/// have), so that the item choice reads 16 items with one vector load, where the headers take
/// 16 loads and the shuffles that gather their `len`s. Knuth's choice takes the first item of
/// at most one option in item order, and so does the scan of the bytes: the search tree is
/// the one the scan of the headers made. With it, the number of active primary items, for
/// `all_covered`.
///
/// A bit set of the items of at most one option, tried first beside the bytes, found forced
/// moves with fewer instructions at 25x25 (1,383 million against 1,405 for the 20 puzzles of
/// [`Dlx::track_forced_items`](crate::exact_cover::Dlx::track_forced_items)) but cost a
/// read-modify-write in `hide` and `unhide`: 16x16 took 436 million instructions to the bytes'
/// 381 and 70 us a puzzle (median) to 63, and 25x25 no less time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct ByteLens {
    /// Each item's `len`, by header number (index 0 unused); one byte for every header of the
    /// links, so that an [`Item`] indexes it unchecked (invariant 3 of the module doc).
    lens: Vec<u8>,
    /// The number of active primary items.
    pub(super) active: u32,
}

impl ByteLens {
    /// Bytes for headers `0..count` (node numbers), every `len` 0.
    pub(super) fn new(count: usize) -> ByteLens {
        ByteLens {
            lens: vec![0; count],
            active: 0,
        }
    }

    /// Records the `len` (with [`COVERED`], if set) of item `h`, saturated at [`u8::MAX`].
    #[inline(always)]
    pub(super) fn set_len(&mut self, h: Item, len: u32) {
        let i = h.number();
        debug_assert!(i < self.lens.len());
        // SAFETY: an `Item` is a header of the links that own these bytes, and there is a byte
        // for every header (invariant 3).
        unsafe { *self.lens.get_unchecked_mut(i) = len.min(u8::MAX as u32) as u8 };
    }

    /// Records the `len` of an active item `h`, in `hide` and `unhide`: a primary item's `len`
    /// is below [`u8::MAX`] there (see
    /// [`Dlx::track_forced_items`](crate::exact_cover::Dlx::track_forced_items)), so it is
    /// stored as it is, without the test for saturation; a secondary item's byte is never read
    /// and may be anything.
    #[inline(always)]
    pub(super) fn note_len(&mut self, h: Item, len: u32) {
        let i = h.number();
        debug_assert!(i < self.lens.len());
        // SAFETY: as in `set_len`.
        unsafe { *self.lens.get_unchecked_mut(i) = len as u8 };
    }

    /// The `len`s of the primary items, for `count` primary items: item `i` (0-based) at `i`.
    #[inline(always)]
    pub(super) fn primary_lens(&self, count: usize) -> &[u8] {
        &self.lens[1..=count]
    }
}

impl Links {
    /// Keeps count of the active primary items with no option left, so that the search sees a
    /// dead end without scanning the items and can take Knuth's item choice (the first item of
    /// minimum `len`) while stopping its scan at the first item with one option. See
    /// [`Dlx::track_dead_ends`](crate::exact_cover::Dlx::track_dead_ends).
    pub(crate) fn track_dead_ends(&mut self, on: bool) {
        self.track_empty = on;
        self.empty_items = (self.primary_headers().iter())
            .filter(|header| header.top == 0)
            .count() as u32;
        self.track_forced_items(on);
    }

    /// Keeps each item's `len` in a byte of its own beside the headers, and the number of
    /// active primary items, when dead ends are tracked and every primary item has fewer than
    /// 255 options. See [`Dlx::track_forced_items`](crate::exact_cover::Dlx::track_forced_items).
    pub(crate) fn track_forced_items(&mut self, on: bool) {
        let short = (self.primary_headers().iter()).all(|header| header.top & !COVERED < 255);
        self.track_bytes = on && self.track_empty && short;
        self.bytes = self.byte_lens();
    }

    /// The items' `len`s in bytes and the count of active primary items, from the headers:
    /// what `bytes` holds when `track_bytes` is set.
    pub(super) fn byte_lens(&self) -> ByteLens {
        let mut bytes = ByteLens::new(self.item_count as usize + 1);
        for h in (1..=self.item_count).map(|i| Item(i * STRIDE)) {
            bytes.set_len(h, self.len(h));
        }
        bytes.active = scan::count(self.primary_headers(), Want::Active);
        bytes
    }
}
