//! Options forced into every solution and options excluded from every search, and how the
//! links are restored after them.

use super::{Links, OptionNode, Pristine};

impl Links {
    /// Forces an option into every solution of the following searches: its items are covered
    /// now. Returns the number of links changed, or `None`, changing nothing, when the option
    /// clashes with one forced before (they share an item).
    ///
    /// # Panics
    /// If `option` is not an option of the problem.
    pub(crate) fn force(&mut self, option: usize) -> Option<u64> {
        let (first, _) = self.span_of(option);
        if self.items_of(option).any(|h| !self.is_active(h)) {
            return None;
        }
        // Covering the first item hides the option's other nodes; then cover the rest.
        let first = OptionNode(first);
        let top = self.item_of(first);
        let updates = match (self.track_empty, self.track_bytes) {
            (true, true) => self.cover::<true, true>(top) + self.cover_others::<true, true>(first),
            (true, false) => {
                self.cover::<true, false>(top) + self.cover_others::<true, false>(first)
            }
            _ => self.cover::<false, false>(top) + self.cover_others::<false, false>(first),
        };
        self.forced.push(first);
        Some(updates)
    }

    /// Counts the option of `x` among the forced options, once the caller has covered `x`'s
    /// item ([`Links::cover_item`]): covers its other items and returns the links changed.
    /// Undone by [`Links::unchoose`]`(x)`, before anything forced earlier is released.
    pub(crate) fn choose(&mut self, x: OptionNode) -> u64 {
        let updates = self.cover_rest(x);
        self.forced.push(x);
        updates
    }

    /// Undoes [`Links::choose`]`(x)`, the newest of the forced options.
    pub(crate) fn unchoose(&mut self, x: OptionNode) {
        let last = self.forced.pop();
        debug_assert_eq!(last, Some(x));
        self.uncover_rest(x);
    }

    /// Rules `option` out of the following searches: takes its nodes out of its items' lists,
    /// as a Sudoku solver rules out a candidate. Returns whether it did: `Some(false)`,
    /// changing nothing, when the option was already out (an item of it covered by another
    /// forced option, or the option excluded before), and `None` when the option is itself
    /// forced, so that no search can avoid it. Undo it with [`Links::include`], newest first,
    /// before [`Links::release_all`] or [`Links::release_to`], which know only forced options.
    ///
    /// # Panics
    /// If `option` is not an option of the problem.
    pub(crate) fn exclude(&mut self, option: usize) -> Option<bool> {
        if self.forced().any(|forced| forced == option) {
            return None;
        }
        if self.is_out(option) {
            return Some(false);
        }
        if self.track_bytes {
            self.hide_whole_option::<true>(option as u32);
        } else {
            self.hide_whole_option::<false>(option as u32);
        }
        Some(true)
    }

    /// Undoes [`Links::exclude`]`(option)` (one that returned `Some(true)`).
    ///
    /// # Panics
    /// If `option` is not an option of the problem.
    pub(crate) fn include(&mut self, option: usize) {
        if self.track_bytes {
            self.unhide_whole_option::<true>(option as u32);
        } else {
            self.unhide_whole_option::<false>(option as u32);
        }
    }

    /// Undoes every [`force`](Links::force), restoring the links as built: by copying them back
    /// if [`keep_copy`](Links::keep_copy) kept a copy, else by undoing each, newest first.
    pub(crate) fn release_all(&mut self) {
        if self.forced.is_empty() {
            return;
        }
        match self.pristine.take() {
            Some(pristine) => {
                self.block_mut().copy_from_slice(&pristine.nodes);
                self.empty_items = pristine.empty_items;
                if self.track_bytes {
                    self.bytes.clone_from(&pristine.bytes);
                }
                self.forced.clear();
                self.pristine = Some(pristine);
            }
            None => self.release_to(0),
        }
    }

    /// Keeps a copy of the links as they are now, with nothing forced, for
    /// [`release_all`](Links::release_all) to restore with one copy of the node block rather
    /// than by undoing each forced option.
    ///
    /// # Panics
    /// If some option is forced.
    pub(crate) fn keep_copy(&mut self) {
        assert!(self.forced.is_empty(), "keep_copy with options forced");
        self.pristine = Some(Pristine {
            nodes: self.block().into(),
            empty_items: self.empty_items,
            // From the headers: the bytes are stale if searches ran with them off.
            bytes: self.byte_lens(),
        });
    }

    /// Undoes the newest [`force`](Links::force)s until only the first `keep` remain.
    pub(crate) fn release_to(&mut self, keep: usize) {
        while self.forced.len() > keep {
            let first = self.forced.pop().expect("more than `keep` forced options");
            let top = self.item_of(first);
            match (self.track_empty, self.track_bytes) {
                (true, true) => {
                    self.uncover_others::<true, true>(first);
                    self.uncover::<true, true>(top);
                }
                (true, false) => {
                    self.uncover_others::<true, false>(first);
                    self.uncover::<true, false>(top);
                }
                _ => {
                    self.uncover_others::<false, false>(first);
                    self.uncover::<false, false>(top);
                }
            }
        }
    }

    /// The options forced so far, in order.
    pub(crate) fn forced(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.forced.iter().map(|&x| self.option_of(x))
    }

    /// The number of options forced so far.
    #[inline(always)]
    pub(crate) fn forced_count(&self) -> usize {
        self.forced.len()
    }

    /// A node of each forced option, in the order forced.
    #[inline(always)]
    pub(crate) fn forced_nodes(&self) -> &[OptionNode] {
        &self.forced
    }
}
