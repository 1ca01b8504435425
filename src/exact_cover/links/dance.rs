//! The updates of Algorithm X: cover and uncover an item, hide and unhide an option's other
//! nodes, and the same with a note of each option hidden, for the learning search.

use super::{COVERED, Item, Link, Links, Node, OptionNode, STRIDE};

impl Links {
    /// Removes an item and every option that uses it. Returns the number of links changed.
    #[inline(always)]
    pub(crate) fn cover<const TRACK: bool, const BYTES: bool>(&mut self, h: Item) -> u64 {
        let mut updates = 0;
        let mut p = self.node(h.link()).down;
        while p != h.link() {
            // The next link first: hiding `p` does not change it, and reading it before the
            // stores keeps the walk down the list off their path.
            let next = self.node(p).down;
            // Invariant 1: a node of `h`'s item other than its header is an option node.
            updates += self.hide::<TRACK, BYTES>(OptionNode(p.0));
            p = next;
        }
        self.mark_covered::<TRACK, BYTES>(h);
        updates
    }

    /// Marks item `h` covered once its options are hidden: its `len`, and the counts of empty
    /// and active items that `TRACK` and `BYTES` keep. Shared by [`Links::cover`] and
    /// [`Links::cover_noting`].
    #[inline(always)]
    fn mark_covered<const TRACK: bool, const BYTES: bool>(&mut self, h: Item) {
        let len = self.len(h);
        *self.len_mut(h) = len | COVERED;
        if TRACK {
            self.empty_items -= (len == 0) as u32;
        }
        if BYTES {
            self.bytes.set_len(h, COVERED);
            self.bytes.active -= (h.0 <= self.primary_count * STRIDE) as u32;
        }
    }

    /// Undoes [`Links::mark_covered`]`(h)`, before its options come back.
    #[inline(always)]
    fn mark_uncovered<const TRACK: bool, const BYTES: bool>(&mut self, h: Item) {
        let len = self.len(h) & !COVERED;
        *self.len_mut(h) = len;
        if TRACK {
            self.empty_items += (len == 0) as u32;
        }
        if BYTES {
            self.bytes.set_len(h, len);
            self.bytes.active += (h.0 <= self.primary_count * STRIDE) as u32;
        }
    }

    /// Undoes `cover(h)`.
    #[inline]
    pub(crate) fn uncover<const TRACK: bool, const BYTES: bool>(&mut self, h: Item) {
        self.mark_uncovered::<TRACK, BYTES>(h);
        let mut p = self.node(h.link()).up;
        while p != h.link() {
            let next = self.node(p).up;
            // Invariant 1, as in `cover`.
            self.unhide::<TRACK, BYTES>(OptionNode(p.0));
            p = next;
        }
    }

    // The loops below run round an option a known number of times, wrapping from its last node
    // to its first, rather than stopping at a spacer: the trip count is then the same for
    // every node of the option, which the branch predictor learns (a spacer test mispredicted
    // about once per option). Every `q` they visit lies in an option's span, so it is an
    // option node, and its `top` is its item's header (invariant 2).

    /// Takes the other nodes of `p`'s option out of their items' lists.
    #[inline(always)]
    fn hide<const TRACK: bool, const BYTES: bool>(&mut self, p: OptionNode) -> u64 {
        let (first, end) = self.span(p);
        let others = (end - first) / STRIDE - 1;
        let mut q = p.0;
        // Counted in a local: the compiler cannot tell `self.empty_items` from the nodes that the
        // loop writes through the block's pointer, and would keep it in memory.
        let mut emptied = 0;
        for _ in 0..others {
            q = if q + STRIDE == end { first } else { q + STRIDE };
            let Node { up, down, top, .. } = self.node(Link(q));
            self.node_mut(up).down = down;
            self.node_mut(down).up = up;
            let top = Item(top);
            let len = self.len_mut(top);
            *len -= 1;
            // Rare, and never for a secondary item: one branch for both counts.
            let len = *len;
            if TRACK {
                emptied += (len == 0) as u32;
            }
            if BYTES {
                // Without a branch: whether a `len` falls to 1 is too hard to predict (a branch
                // here made 9x9 searches half as slow again, for fewer instructions).
                self.bytes.note_len(top, len);
            }
        }
        if TRACK {
            self.empty_items += emptied;
        }
        others as u64
    }

    /// Undoes `hide(p)`, in reverse order.
    #[inline(always)]
    fn unhide<const TRACK: bool, const BYTES: bool>(&mut self, p: OptionNode) {
        let (first, end) = self.span(p);
        let mut q = p.0;
        let mut refilled = 0;
        for _ in 1..(end - first) / STRIDE {
            q = if q == first { end - STRIDE } else { q - STRIDE };
            let Node { up, down, top, .. } = self.node(Link(q));
            self.node_mut(up).down = Link(q);
            self.node_mut(down).up = Link(q);
            let top = Item(top);
            let len = self.len_mut(top);
            let was = *len;
            *len = was + 1;
            if TRACK {
                refilled += (was == 0) as u32;
            }
            if BYTES {
                self.bytes.note_len(top, was + 1);
            }
        }
        if TRACK {
            self.empty_items -= refilled;
        }
    }

    /// Covers the items of `x`'s option other than `x`'s own (which the caller has covered).
    #[inline]
    pub(crate) fn cover_others<const TRACK: bool, const BYTES: bool>(
        &mut self,
        x: OptionNode,
    ) -> u64 {
        let (first, end) = self.span(x);
        let mut updates = 0;
        let mut q = x.0;
        for _ in 1..(end - first) / STRIDE {
            q = if q + STRIDE == end { first } else { q + STRIDE };
            updates += self.cover::<TRACK, BYTES>(self.item_of(OptionNode(q)));
        }
        updates
    }

    /// Undoes `cover_others(x)`, in reverse order.
    #[inline]
    pub(crate) fn uncover_others<const TRACK: bool, const BYTES: bool>(&mut self, x: OptionNode) {
        let (first, end) = self.span(x);
        let mut q = x.0;
        for _ in 1..(end - first) / STRIDE {
            q = if q == first { end - STRIDE } else { q - STRIDE };
            self.uncover::<TRACK, BYTES>(self.item_of(OptionNode(q)));
        }
    }

    /// `cover(h)`, with the links' tracking.
    pub(crate) fn cover_item(&mut self, h: Item) -> u64 {
        match (self.track_empty, self.track_bytes) {
            (true, true) => self.cover::<true, true>(h),
            (true, false) => self.cover::<true, false>(h),
            _ => self.cover::<false, false>(h),
        }
    }

    /// `uncover(h)`, with the links' tracking.
    pub(crate) fn uncover_item(&mut self, h: Item) {
        match (self.track_empty, self.track_bytes) {
            (true, true) => self.uncover::<true, true>(h),
            (true, false) => self.uncover::<true, false>(h),
            _ => self.uncover::<false, false>(h),
        }
    }

    /// `cover_others(x)`, with the links' tracking.
    pub(crate) fn cover_rest(&mut self, x: OptionNode) -> u64 {
        match (self.track_empty, self.track_bytes) {
            (true, true) => self.cover_others::<true, true>(x),
            (true, false) => self.cover_others::<true, false>(x),
            _ => self.cover_others::<false, false>(x),
        }
    }

    /// `uncover_others(x)`, with the links' tracking.
    pub(crate) fn uncover_rest(&mut self, x: OptionNode) {
        match (self.track_empty, self.track_bytes) {
            (true, true) => self.uncover_others::<true, true>(x),
            (true, false) => self.uncover_others::<true, false>(x),
            _ => self.uncover_others::<false, false>(x),
        }
    }

    /// Takes every node of option `k` out of its item's list, as the learning search does when
    /// a nogood rules the option out (`hide` leaves the node in the item being covered). The
    /// count of empty items is kept whatever `TRACK` says: the learning search reads it.
    ///
    /// # Panics
    /// If `k` is not an option of the problem.
    pub(crate) fn hide_whole_option<const BYTES: bool>(&mut self, k: u32) {
        let (first, end) = self.span_of(k as usize);
        let mut emptied = 0;
        for q in (first..end).step_by(STRIDE as usize) {
            let Node { up, down, top, .. } = self.node(Link(q));
            self.node_mut(up).down = down;
            self.node_mut(down).up = up;
            let top = Item(top);
            let len = self.len_mut(top);
            *len -= 1;
            let len = *len;
            emptied += (len == 0) as u32;
            if BYTES {
                self.bytes.note_len(top, len);
            }
        }
        self.empty_items += emptied;
    }

    /// Undoes `hide_whole_option(k)`, in reverse order.
    ///
    /// # Panics
    /// If `k` is not an option of the problem.
    pub(crate) fn unhide_whole_option<const BYTES: bool>(&mut self, k: u32) {
        let (first, end) = self.span_of(k as usize);
        let mut refilled = 0;
        for q in (first..end).step_by(STRIDE as usize).rev() {
            let Node { up, down, top, .. } = self.node(Link(q));
            self.node_mut(up).down = Link(q);
            self.node_mut(down).up = Link(q);
            let top = Item(top);
            let len = self.len_mut(top);
            refilled += (*len == 0) as u32;
            *len += 1;
            let len = *len;
            if BYTES {
                self.bytes.note_len(top, len);
            }
        }
        self.empty_items -= refilled;
    }

    // The learning search needs to know which options each cover hides; these are the same
    // loops with a callback. They are written out again rather than shared with the plain
    // ones: calling the `_noting` versions with a closure that does nothing cost the plain
    // search 3% more instructions on 9x9 (callgrind), for a different code layout.

    /// [`Links::cover`], telling `hidden` the option of each node whose option it hides (the
    /// learning search records why each option went).
    #[inline(always)]
    pub(crate) fn cover_noting<const TRACK: bool, const BYTES: bool>(
        &mut self,
        h: Item,
        mut hidden: impl FnMut(u32),
    ) -> u64 {
        let mut updates = 0;
        let mut p = self.node(h.link()).down;
        while p != h.link() {
            // The next link first: hiding `p` does not change it, and reading it before the
            // stores keeps the walk down the list off their path.
            let Node {
                down: next, option, ..
            } = self.node(p);
            hidden(option);
            // Invariant 1, as in `cover`.
            updates += self.hide::<TRACK, BYTES>(OptionNode(p.0));
            p = next;
        }
        self.mark_covered::<TRACK, BYTES>(h);
        updates
    }

    /// [`Links::uncover`], telling `unhidden` the option of each node whose option it unhides.
    #[inline(always)]
    pub(crate) fn uncover_noting<const TRACK: bool, const BYTES: bool>(
        &mut self,
        h: Item,
        mut unhidden: impl FnMut(u32),
    ) {
        self.mark_uncovered::<TRACK, BYTES>(h);
        let mut p = self.node(h.link()).up;
        while p != h.link() {
            let Node {
                up: next, option, ..
            } = self.node(p);
            // Invariant 1, as in `cover`.
            self.unhide::<TRACK, BYTES>(OptionNode(p.0));
            unhidden(option);
            p = next;
        }
    }

    /// [`Links::cover_others`], telling `hidden` each option hidden (see
    /// [`Links::cover_noting`]).
    #[inline(always)]
    pub(crate) fn cover_others_noting<const TRACK: bool, const BYTES: bool>(
        &mut self,
        x: OptionNode,
        mut hidden: impl FnMut(u32),
    ) -> u64 {
        let (first, end) = self.span(x);
        let mut updates = 0;
        let mut q = x.0;
        for _ in 1..(end - first) / STRIDE {
            q = if q + STRIDE == end { first } else { q + STRIDE };
            updates += self.cover_noting::<TRACK, BYTES>(self.item_of(OptionNode(q)), &mut hidden);
        }
        updates
    }

    /// [`Links::uncover_others`], telling `unhidden` each option unhidden.
    #[inline(always)]
    pub(crate) fn uncover_others_noting<const TRACK: bool, const BYTES: bool>(
        &mut self,
        x: OptionNode,
        mut unhidden: impl FnMut(u32),
    ) {
        let (first, end) = self.span(x);
        let mut q = x.0;
        for _ in 1..(end - first) / STRIDE {
            q = if q == first { end - STRIDE } else { q - STRIDE };
            self.uncover_noting::<TRACK, BYTES>(self.item_of(OptionNode(q)), &mut unhidden);
        }
    }
}
