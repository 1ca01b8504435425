//! Scans of the primary headers for the item choice.
//!
//! Each header's `top` holds its item's `len` (see `links`), so the headers of the primary
//! items, the block's first nodes, can be scanned in place, eight at a time. On x86-64 a group
//! is tested with SSE2, which every x86-64 processor has: four shuffles gather the eight `len`s
//! from the 16-byte headers and one compare per four tells which match. Elsewhere the same test
//! is plain code. Compiled as plain code, the strided loads stayed scalar, and the scan was a
//! quarter of the instructions of a 17-clue Sudoku search.

use super::{COVERED, Node};

/// Headers tested at a time.
const GROUP: usize = 8;

/// What a scan looks for in a header's `len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// An active item with at most one option left.
    AtMostOne,
    /// An item with exactly this `len` (below [`COVERED`], so an active item).
    Equal(u32),
    /// An active item.
    Active,
}

impl Want {
    #[inline(always)]
    fn test(self, len: u32) -> bool {
        match self {
            Want::AtMostOne => len <= 1,
            Want::Equal(wanted) => len == wanted,
            Want::Active => len & COVERED == 0,
        }
    }
}

/// The index of the first header whose `len` is what `want` asks for.
#[inline]
pub(crate) fn first(headers: &[Node], want: Want) -> Option<usize> {
    let mut groups = headers.chunks_exact(GROUP);
    for (g, group) in groups.by_ref().enumerate() {
        let hits = group_hits(group, want);
        if hits != 0 {
            return Some(g * GROUP + hits.trailing_zeros() as usize);
        }
    }
    let rest = groups.remainder();
    let start = headers.len() - rest.len();
    (rest.iter())
        .position(|header| want.test(header.top))
        .map(|j| start + j)
}

/// Calls `f` with the index of every header whose `len` is what `want` asks for, in order.
#[inline]
pub(crate) fn for_each(headers: &[Node], want: Want, mut f: impl FnMut(usize)) {
    let mut groups = headers.chunks_exact(GROUP);
    for (g, group) in groups.by_ref().enumerate() {
        let mut hits = group_hits(group, want);
        while hits != 0 {
            f(g * GROUP + hits.trailing_zeros() as usize);
            hits &= hits - 1;
        }
    }
    let rest = groups.remainder();
    let start = headers.len() - rest.len();
    for (j, header) in rest.iter().enumerate() {
        if want.test(header.top) {
            f(start + j);
        }
    }
}

/// What a scan of the `len`s kept in bytes (see `links::ByteLens`) looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ByteWant {
    /// An item with at most one option left (a covered item's byte is 255).
    AtMostOne,
    /// An item with exactly this `len`, below 255.
    Equal(u8),
}

impl ByteWant {
    #[inline(always)]
    fn test(self, len: u8) -> bool {
        match self {
            ByteWant::AtMostOne => len <= 1,
            ByteWant::Equal(wanted) => len == wanted,
        }
    }
}

/// The index of the first byte that is what `want` asks for.
#[inline]
pub(crate) fn first_byte(lens: &[u8], want: ByteWant) -> Option<usize> {
    let mut chunks = lens.chunks_exact(16);
    for (c, chunk) in chunks.by_ref().enumerate() {
        let hits = byte_hits(chunk, want);
        if hits != 0 {
            return Some(c * 16 + hits.trailing_zeros() as usize);
        }
    }
    let rest = chunks.remainder();
    let start = lens.len() - rest.len();
    (rest.iter())
        .position(|&len| want.test(len))
        .map(|j| start + j)
}

/// Calls `f` with the index of every byte that is what `want` asks for, in order.
#[inline]
pub(crate) fn for_each_byte(lens: &[u8], want: ByteWant, mut f: impl FnMut(usize)) {
    let mut chunks = lens.chunks_exact(16);
    for (c, chunk) in chunks.by_ref().enumerate() {
        let mut hits = byte_hits(chunk, want);
        while hits != 0 {
            f(c * 16 + hits.trailing_zeros() as usize);
            hits &= hits - 1;
        }
    }
    let rest = chunks.remainder();
    let start = lens.len() - rest.len();
    for (j, &len) in rest.iter().enumerate() {
        if want.test(len) {
            f(start + j);
        }
    }
}

/// Bit `j` is set when byte `j` of the 16 passes the test.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn byte_hits(chunk: &[u8], want: ByteWant) -> u32 {
    use std::arch::x86_64::*;
    assert_eq!(chunk.len(), 16);
    // SAFETY: the chunk holds 16 bytes, read by an unaligned load; SSE2 is part of x86-64.
    unsafe {
        let lens = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
        let hits = match want {
            // Unsigned: a byte is at most 1 when its minimum with 1 is itself.
            ByteWant::AtMostOne => _mm_cmpeq_epi8(_mm_min_epu8(lens, _mm_set1_epi8(1)), lens),
            ByteWant::Equal(wanted) => _mm_cmpeq_epi8(lens, _mm_set1_epi8(wanted as i8)),
        };
        _mm_movemask_epi8(hits) as u32
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn byte_hits(chunk: &[u8], want: ByteWant) -> u32 {
    portable_byte_hits(chunk, want)
}

/// The plain form of `byte_hits`: the one used off x86-64, and the tests' reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn portable_byte_hits(chunk: &[u8], want: ByteWant) -> u32 {
    (chunk.iter().enumerate()).fold(0, |hits, (j, &len)| hits | (want.test(len) as u32) << j)
}

/// The number of headers whose `len` is what `want` asks for.
pub(crate) fn count(headers: &[Node], want: Want) -> u32 {
    let mut count = 0;
    for_each(headers, want, |_| count += 1);
    count
}

/// The smallest `len` of the headers (`u32::MAX` for none).
#[inline]
pub(crate) fn minimum(headers: &[Node]) -> u32 {
    let mut groups = headers.chunks_exact(GROUP);
    let low = groups.by_ref().map(group_minimum).min().unwrap_or(u32::MAX);
    (groups.remainder().iter()).fold(low, |low, header| low.min(header.top))
}

/// Bit `j` is set when header `j` of the group passes the test.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn group_hits(group: &[Node], want: Want) -> u32 {
    use std::arch::x86_64::*;
    let (low, high) = sse2::tops(group);
    // SAFETY: SSE2 is part of x86-64, so these instructions exist wherever this runs.
    unsafe {
        // `len`s are below 2^31 (`COVERED` is bit 30), so signed compares order them right.
        let hits = |lens: __m128i| match want {
            Want::AtMostOne => _mm_cmplt_epi32(lens, _mm_set1_epi32(2)),
            Want::Equal(wanted) => _mm_cmpeq_epi32(lens, _mm_set1_epi32(wanted as i32)),
            Want::Active => _mm_cmpeq_epi32(
                _mm_and_si128(lens, _mm_set1_epi32(COVERED as i32)),
                _mm_setzero_si128(),
            ),
        };
        // Four 32-bit masks and four more, narrowed to eight bytes, then one bit each.
        let words = _mm_packs_epi32(hits(low), hits(high));
        _mm_movemask_epi8(_mm_packs_epi16(words, _mm_setzero_si128())) as u32
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn group_hits(group: &[Node], want: Want) -> u32 {
    portable_hits(group, want)
}

/// The plain form of `group_hits`: the one used off x86-64, and the tests' reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn portable_hits(group: &[Node], want: Want) -> u32 {
    (group.iter().enumerate()).fold(0, |hits, (j, header)| {
        hits | (want.test(header.top) as u32) << j
    })
}

/// The smallest `len` of a group.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn group_minimum(group: &[Node]) -> u32 {
    use std::arch::x86_64::*;
    let (low, high) = sse2::tops(group);
    // SAFETY: as in `group_hits`.
    unsafe {
        // SSE2 has no 32-bit minimum: pick by a (signed, see `group_hits`) compare.
        let min = |a: __m128i, b: __m128i| {
            let b_smaller = _mm_cmpgt_epi32(a, b);
            _mm_or_si128(_mm_and_si128(b_smaller, b), _mm_andnot_si128(b_smaller, a))
        };
        let four = min(low, high);
        let two = min(four, _mm_shuffle_epi32::<0b00_00_11_10>(four));
        let one = min(two, _mm_shuffle_epi32::<0b00_00_00_01>(two));
        _mm_cvtsi128_si32(one) as u32
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn group_minimum(group: &[Node]) -> u32 {
    group
        .iter()
        .map(|header| header.top)
        .min()
        .unwrap_or(u32::MAX)
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    use super::{GROUP, Node};

    /// The `top` fields of a group's eight headers, as two vectors of four.
    #[inline(always)]
    pub(super) fn tops(group: &[Node]) -> (__m128i, __m128i) {
        assert_eq!(group.len(), GROUP);
        let nodes = group.as_ptr().cast::<__m128i>();
        // SAFETY: the group holds eight nodes, each 16 bytes and 16-byte aligned (`Node` is
        // `align(16)`), so each is one aligned vector; SSE2 is part of x86-64.
        unsafe {
            let load = |i: usize| _mm_load_si128(nodes.add(i));
            // A node is [up, down, top, option]: interleaving the high halves of two nodes
            // gives [top, top, option, option], and the low halves of two such, four `top`s.
            let four = |i: usize| {
                let ab = _mm_unpackhi_epi32(load(i), load(i + 1));
                let cd = _mm_unpackhi_epi32(load(i + 2), load(i + 3));
                _mm_unpacklo_epi64(ab, cd)
            };
            (four(0), four(4))
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn headers(lens: &[u32]) -> Vec<Node> {
        (lens.iter())
            .map(|&top| Node {
                top,
                ..Node::default()
            })
            .collect()
    }

    /// ByteLens `len`s, so that ties and hits are common, and some covered items.
    fn lens() -> impl Strategy<Value = Vec<u32>> {
        prop::collection::vec(
            prop_oneof![0u32..6, (0u32..6).prop_map(|len| len | COVERED)],
            0..40,
        )
    }

    proptest! {
        #[test]
        fn scans_agree_with_plain_searches(lens in lens(), wanted in 0u32..6) {
            let nodes = headers(&lens);
            for want in [Want::AtMostOne, Want::Equal(wanted), Want::Active] {
                let plain = lens.iter().position(|&len| want.test(len));
                prop_assert_eq!(first(&nodes, want), plain, "{:?}", want);
                let mut every = Vec::new();
                for_each(&nodes, want, |i| every.push(i));
                let plain_every: Vec<usize> =
                    (0..lens.len()).filter(|&i| want.test(lens[i])).collect();
                prop_assert_eq!(every, plain_every, "{:?}", want);
                for group in nodes.chunks_exact(GROUP) {
                    prop_assert_eq!(group_hits(group, want), portable_hits(group, want));
                }
            }
            prop_assert_eq!(minimum(&nodes), lens.iter().copied().min().unwrap_or(u32::MAX));
            let bytes: Vec<u8> = lens.iter().map(|&len| len.min(255) as u8).collect();
            for want in [ByteWant::AtMostOne, ByteWant::Equal(wanted as u8)] {
                let mut every = Vec::new();
                for_each_byte(&bytes, want, |i| every.push(i));
                let plain_every: Vec<usize> =
                    (0..bytes.len()).filter(|&i| want.test(bytes[i])).collect();
                prop_assert_eq!(first_byte(&bytes, want), plain_every.first().copied());
                prop_assert_eq!(every, plain_every, "{:?}", want);
                for chunk in bytes.chunks_exact(16) {
                    prop_assert_eq!(byte_hits(chunk, want), portable_byte_hits(chunk, want));
                }
            }
        }
    }

    #[test]
    fn covered_items_are_never_small() {
        let nodes = headers(&[COVERED, COVERED | 1, 7, 1, COVERED, 0, 0, 0, 2]);
        assert_eq!(first(&nodes, Want::AtMostOne), Some(3));
        assert_eq!(first(&nodes, Want::Active), Some(2));
        assert_eq!(first(&nodes, Want::Equal(2)), Some(8));
        assert_eq!(minimum(&nodes[..5]), 1);
    }
}
