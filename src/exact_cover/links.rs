//! The dancing-links structure: Knuth's nodes, allocated in one `typed_arena` block.
//!
//! # Representation
//!
//! The layout is the one of Knuth's `dlx1`. Node 0 is unused; nodes `1..=N` are the item
//! headers (primary items first, then secondary ones, each group in declaration order); then
//! come the options, each preceded by a *spacer* node and followed by the spacer of the next
//! option (one more spacer closes the list). Every node has four 32-bit fields:
//!
//! - `up`, `down`: the vertical links of the item's circular list;
//! - `top`: for an option node, its item (the header's link); for a spacer, minus the number of
//!   the option that follows it (<= 0);
//! - `option`: the option an option node belongs to, so that a solution is read off without
//!   walking to the spacer, and `hide` finds the option's bounds in `option_span`.
//!
//! The horizontal lists of active items (`prev`, `next`) and each item's `len` live beside the
//! nodes, in `items`, one 16-byte entry per header: entry 0 is the root of the primary items,
//! entry `N + 1` the root of the secondary ones, so that secondary items can be covered like any
//! other item but are never chosen.
//!
//! All nodes are allocated by one `Arena::alloc_extend` call, which hands back a single
//! contiguous block, and the links are 32-bit **byte offsets** into that block rather than
//! `Cell<&Node>` references: node `i` is linked as `16 * i`, so a link is an address without a
//! multiplication, and an item entry, being node-sized, is found by its header's link too.
//! `hide`, `unhide` and their callers run round an option a fixed number of times, from the
//! option's `(first, end)` span, instead of stopping at its spacer.
//!
//! # The measurements behind it
//!
//! `cargo bench --bench exact_cover`, one thread, medians, on this project's 2-core machine
//! (the `links/` group counts the same problems with the same item rule in both representations,
//! which walk identical search trees; the bench checks that):
//!
//! | problem | plain indices, spacer loops | byte offsets, span loops | `Cell<&Node>` (48-byte nodes) |
//! |---|---|---|---|
//! | 6x10 pentominoes (1.25e9 updates) | 7.8 s | 5.50 s | 6.50 s |
//! | 12 queens | 29.4 ms | 31.2 ms | 23.9 ms |
//!
//! Plain 16-byte indices lost to references everywhere: every load paid a shift for the index
//! (47% of the instructions were address arithmetic) and the spacer test mispredicted once per
//! option. Byte offsets and span loops won on the large problem, where the 16-byte nodes keep
//! twice as much of the structure in cache as 48-byte ones, and lost on 12 queens, whose
//! structure fits in the first-level cache either way and whose options are short; we chose
//! them for the large problems, where the time goes.
//!
//! The search writes only through `&mut self`, so no `Cell` is needed; the hot loops address the
//! block without bounds checks, which is sound because every link is set at build time to the
//! offset of a node inside the block and only ever replaced by another link's value (`sanity`
//! checks this in debug builds and tests, and the debug assertions check every access).

use std::ptr::NonNull;

use typed_arena::Arena;

use super::problem::{ItemKind, Problem};

/// One node of the dancing-links structure (header, option node or spacer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub(crate) struct Node {
    pub(crate) up: u32,
    pub(crate) down: u32,
    /// The item (header offset) of an option node; minus the next option's number for a spacer.
    pub(crate) top: i32,
    /// The option an option node belongs to.
    pub(crate) option: u32,
}

/// An item's entry in the horizontal lists of active items, with its `len`. Same size as a
/// node, so that a header's offset addresses both its node and this.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub(crate) struct ItemLink {
    pub(crate) prev: u32,
    pub(crate) next: u32,
    /// The number of options in the item's list.
    pub(crate) len: u32,
}

/// Bytes from one node (or item entry) to the next: links are byte offsets, multiples of this.
pub(crate) const STRIDE: u32 = std::mem::size_of::<Node>() as u32;
const _: () = assert!(std::mem::size_of::<ItemLink>() == std::mem::size_of::<Node>());

/// The root of the list of active primary items.
pub(crate) const ROOT: u32 = 0;

/// Added to every secondary item's `len`, so that only primary items can reach 0 (see
/// `Dlx::empty_items`) without a test in `hide` for the kind of item.
const SECONDARY_LEN: u32 = 1 << 30;

/// The dancing-links form of a [`Problem`], ready for [`Dlx::search`](crate::exact_cover::Dlx).
///
/// One `Dlx` serves many searches: every search, and every [`force`](Dlx::force) followed by
/// [`release_all`](Dlx::release_all), leaves the links exactly as they were.
pub struct Dlx {
    /// Owns the node block; never read directly, it only keeps `nodes` alive.
    _arena: Arena<Node>,
    nodes: NonNull<Node>,
    node_count: usize,
    /// Entry `h / STRIDE` belongs to the header at offset `h`; 0 and the last are the roots.
    pub(crate) items: Vec<ItemLink>,
    /// The number of items (headers are at offsets `STRIDE..=item_count * STRIDE`).
    pub(crate) item_count: u32,
    /// The number of primary items (headers `STRIDE..=primary_count * STRIDE`).
    pub(crate) primary_count: u32,
    /// Whether `empty_items` is kept up to date (see [`Dlx::track_dead_ends`]).
    pub(crate) track_empty: bool,
    /// Active primary items with no option left, when `track_empty` is set: kept up to date by
    /// `hide`, `unhide`, `cover` and `uncover`, so that a dead end is seen without scanning the
    /// items, and the item choice may stop at the first item with one option: with no empty
    /// item that is the first item of minimum `len`, Knuth's choice.
    pub(crate) empty_items: u32,
    /// Each option's first node and the spacer after its last one.
    pub(crate) option_span: Vec<(u32, u32)>,
    /// The problem's item number of each header (index 0 unused).
    pub(crate) item_of_header: Vec<u32>,
    /// A node of each forced option, in the order forced.
    pub(crate) forced: Vec<u32>,
    /// The search's choice stack, one node per level, allocated once.
    pub(crate) stack: Vec<u32>,
}

// SAFETY: `nodes` points into the block owned by `_arena`, which moves with the `Dlx` and is
// touched only through `&self`/`&mut self`; nothing is shared with another value.
unsafe impl Send for Dlx {}
// SAFETY: through `&Dlx` nothing is written: the nodes are only read, and the arena (whose
// `RefCell` is not `Sync`) is used only while the `Dlx` is being built and never again.
unsafe impl Sync for Dlx {}

impl Dlx {
    /// Builds the links of a problem.
    ///
    /// ```
    /// use quadrille::exact_cover::{Dlx, ProblemBuilder};
    ///
    /// let mut b = ProblemBuilder::new();
    /// for item in ["a", "b", "c"] {
    ///     b.primary(item)?;
    /// }
    /// b.option_by_names(["a", "b"])?;
    /// b.option_by_names(["c"])?;
    /// b.option_by_names(["a", "c"])?;
    /// let mut dlx = Dlx::new(&b.build()?);
    /// assert_eq!(dlx.count(None).stats.solutions, 1);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn new(problem: &Problem) -> Dlx {
        let item_count = problem.item_count();
        let primary_count = problem.primary_count();

        // Headers: primary items first, then secondary, each in declaration order.
        let mut item_of_header = vec![u32::MAX];
        let mut header_of_item = vec![0usize; item_count];
        for kind in [ItemKind::Primary, ItemKind::Secondary] {
            for item in (0..item_count).filter(|&i| problem.item_kind(i) == kind) {
                header_of_item[item] = item_of_header.len();
                item_of_header.push(item as u32);
            }
        }

        // Built with indices first, then scaled to byte offsets.
        let offset = |index: usize| (index as u32) * STRIDE;
        let total = item_count + 2 + problem.node_count() + problem.option_count();
        let mut nodes = Vec::with_capacity(total);
        nodes.push(Node::default());
        for h in 1..=item_count {
            nodes.push(Node {
                up: offset(h),
                down: offset(h),
                top: 0,
                option: u32::MAX,
            });
        }
        let mut items = vec![ItemLink::default(); item_count + 2];
        let mut option_span = Vec::with_capacity(problem.option_count());
        nodes.push(Node::default()); // the first spacer
        for (k, option) in problem.options().enumerate() {
            let first = nodes.len();
            for &item in option {
                let h = header_of_item[item];
                let here = offset(nodes.len());
                let last = nodes[h].up;
                nodes.push(Node {
                    up: last,
                    down: offset(h),
                    top: offset(h) as i32,
                    option: k as u32,
                });
                nodes[(last / STRIDE) as usize].down = here;
                nodes[h].up = here;
                items[h].len += 1;
            }
            let spacer = nodes.len();
            nodes[first - 1].down = offset(spacer - 1);
            nodes.push(Node {
                up: offset(first),
                down: 0,
                top: -(k as i32 + 1),
                option: u32::MAX,
            });
            option_span.push((offset(first), offset(spacer)));
        }
        debug_assert_eq!(nodes.len(), total);

        // Two circular lists: primary items round ROOT, secondary round `item_count + 1`.
        let mut link_ring = |root: usize, members: std::ops::RangeInclusive<usize>| {
            let mut prev = root;
            for h in members {
                items[prev].next = offset(h);
                items[h].prev = offset(prev);
                prev = h;
            }
            items[prev].next = offset(root);
            items[root].prev = offset(prev);
        };
        link_ring(0, 1..=primary_count);
        link_ring(item_count + 1, primary_count + 1..=item_count);
        for link in &mut items[primary_count + 1..=item_count] {
            link.len += SECONDARY_LEN;
        }
        let empty_items = items[1..=primary_count]
            .iter()
            .filter(|l| l.len == 0)
            .count() as u32;

        let arena = Arena::with_capacity(nodes.len());
        let node_count = nodes.len();
        let block = arena.alloc_extend(nodes);
        let ptr = NonNull::from(&mut block[0]);
        Dlx {
            _arena: arena,
            nodes: ptr,
            node_count,
            items,
            item_count: item_count as u32,
            primary_count: primary_count as u32,
            track_empty: false,
            empty_items,
            option_span,
            item_of_header,
            forced: Vec::new(),
            stack: vec![0; primary_count + 1],
        }
    }

    /// The number of options.
    pub fn option_count(&self) -> usize {
        self.option_span.len()
    }

    /// The number of items.
    pub fn item_count(&self) -> usize {
        self.item_count as usize
    }

    #[inline(always)]
    pub(crate) fn node(&self, o: u32) -> Node {
        debug_assert!(o.is_multiple_of(STRIDE) && ((o / STRIDE) as usize) < self.node_count);
        // SAFETY: every link is the offset of a node inside the block (see the module doc).
        unsafe { *self.nodes.as_ptr().byte_add(o as usize) }
    }

    #[inline(always)]
    fn node_mut(&mut self, o: u32) -> &mut Node {
        debug_assert!(o.is_multiple_of(STRIDE) && ((o / STRIDE) as usize) < self.node_count);
        // SAFETY: as for `node`; `&mut self` makes this the only reference.
        unsafe { &mut *self.nodes.as_ptr().byte_add(o as usize) }
    }

    #[inline(always)]
    pub(crate) fn item(&self, h: u32) -> ItemLink {
        debug_assert!(h.is_multiple_of(STRIDE) && ((h / STRIDE) as usize) < self.items.len());
        // SAFETY: headers and roots are at offsets `0..=(item_count + 1) * STRIDE`, inside
        // `items`, whose entries are `STRIDE` bytes apart.
        unsafe { *self.items.as_ptr().byte_add(h as usize) }
    }

    #[inline(always)]
    fn item_mut(&mut self, h: u32) -> &mut ItemLink {
        debug_assert!(h.is_multiple_of(STRIDE) && ((h / STRIDE) as usize) < self.items.len());
        // SAFETY: as for `item`.
        unsafe { &mut *self.items.as_mut_ptr().byte_add(h as usize) }
    }

    /// The number of options left in an item's list.
    #[inline(always)]
    pub(crate) fn len(&self, h: u32) -> u32 {
        self.item(h).len
    }

    /// The first node of `p`'s option and the spacer after its last node.
    #[inline(always)]
    fn span(&self, p: u32) -> (u32, u32) {
        let k = self.node(p).option as usize;
        debug_assert!(k < self.option_span.len());
        // SAFETY: an option node's `option` is the number of its option.
        unsafe { *self.option_span.get_unchecked(k) }
    }

    /// Removes an item and every option that uses it. Returns the number of links changed.
    #[inline]
    pub(crate) fn cover<const TRACK: bool>(&mut self, h: u32) -> u64 {
        let mut updates = 0;
        let mut p = self.node(h).down;
        while p != h {
            // The next link first: hiding `p` does not change it, and reading it before the
            // stores keeps the walk down the list off their path.
            let next = self.node(p).down;
            updates += self.hide::<TRACK>(p);
            p = next;
        }
        let ItemLink { prev, next, len } = self.item(h);
        self.item_mut(prev).next = next;
        self.item_mut(next).prev = prev;
        if TRACK {
            self.empty_items -= (len == 0) as u32;
        }
        updates
    }

    /// Undoes `cover(h)`.
    #[inline]
    pub(crate) fn uncover<const TRACK: bool>(&mut self, h: u32) {
        let ItemLink { prev, next, len } = self.item(h);
        self.item_mut(prev).next = h;
        self.item_mut(next).prev = h;
        if TRACK {
            self.empty_items += (len == 0) as u32;
        }
        let mut p = self.node(h).up;
        while p != h {
            let next = self.node(p).up;
            self.unhide::<TRACK>(p);
            p = next;
        }
    }

    // The loops below run round an option a known number of times, wrapping from its last node
    // to its first, rather than stopping at the spacer: the trip count is then the same for
    // every node of the option, which the branch predictor learns (a spacer test mispredicted
    // about once per option).

    /// Takes the other nodes of `p`'s option out of their items' lists.
    #[inline(always)]
    fn hide<const TRACK: bool>(&mut self, p: u32) -> u64 {
        let (first, end) = self.span(p);
        let others = (end - first) / STRIDE - 1;
        let mut q = p;
        // Counted in a local: the compiler cannot tell `self.empty_items` from the nodes that the
        // loop writes through the block's pointer, and would keep it in memory.
        let mut emptied = 0;
        for _ in 0..others {
            q = if q + STRIDE == end { first } else { q + STRIDE };
            let Node { up, down, top, .. } = self.node(q);
            self.node_mut(up).down = down;
            self.node_mut(down).up = up;
            let item = self.item_mut(top as u32);
            item.len -= 1;
            if TRACK {
                emptied += (item.len == 0) as u32;
            }
        }
        if TRACK {
            self.empty_items += emptied;
        }
        others as u64
    }

    /// Undoes `hide(p)`, in reverse order.
    #[inline(always)]
    fn unhide<const TRACK: bool>(&mut self, p: u32) {
        let (first, end) = self.span(p);
        let mut q = p;
        let mut refilled = 0;
        for _ in 1..(end - first) / STRIDE {
            q = if q == first { end - STRIDE } else { q - STRIDE };
            let Node { up, down, top, .. } = self.node(q);
            self.node_mut(up).down = q;
            self.node_mut(down).up = q;
            let item = self.item_mut(top as u32);
            if TRACK {
                refilled += (item.len == 0) as u32;
            }
            item.len += 1;
        }
        if TRACK {
            self.empty_items -= refilled;
        }
    }

    /// Covers the items of `x`'s option other than `x`'s own (which the caller has covered).
    #[inline]
    pub(crate) fn cover_others<const TRACK: bool>(&mut self, x: u32) -> u64 {
        let (first, end) = self.span(x);
        let mut updates = 0;
        let mut q = x;
        for _ in 1..(end - first) / STRIDE {
            q = if q + STRIDE == end { first } else { q + STRIDE };
            updates += self.cover::<TRACK>(self.node(q).top as u32);
        }
        updates
    }

    /// Undoes `cover_others(x)`, in reverse order.
    #[inline]
    pub(crate) fn uncover_others<const TRACK: bool>(&mut self, x: u32) {
        let (first, end) = self.span(x);
        let mut q = x;
        for _ in 1..(end - first) / STRIDE {
            q = if q == first { end - STRIDE } else { q - STRIDE };
            self.uncover::<TRACK>(self.node(q).top as u32);
        }
    }

    /// Keeps count of the active primary items with no option left, so that the search sees a
    /// dead end without scanning the items and can take Knuth's item choice (the first item of
    /// minimum `len`) while stopping its scan at the first item with one option.
    ///
    /// It costs a test in the innermost loop. It pays where dead ends are often hidden behind
    /// forced moves: on the forum-hardest Sudoku set it takes 30% of the search-tree nodes away
    /// and 13% of the time; on 6x10 pentominoes it takes 15% of the nodes away but makes the
    /// search 23% slower. Off by default; [`DlxSolver`](crate::sudoku::DlxSolver) turns it on.
    pub fn track_dead_ends(&mut self, on: bool) {
        self.track_empty = on;
        let mut empty = 0;
        let mut h = self.item(ROOT).next;
        while h != ROOT {
            empty += (self.len(h) == 0) as u32;
            h = self.item(h).next;
        }
        self.empty_items = empty;
    }

    /// Whether the search can tell at once that some primary item has no option left.
    #[inline(always)]
    pub(crate) fn known_dead_end(&self) -> bool {
        self.track_empty && self.empty_items > 0
    }

    /// Whether an item is still in its list of active items.
    #[inline]
    fn is_active(&self, h: u32) -> bool {
        self.item(self.item(h).prev).next == h
    }

    /// Forces an option into every solution of the following searches, as a Sudoku given is:
    /// its items are covered now. Returns the number of links changed, or `None`, changing
    /// nothing, when the option clashes with one forced before (they share an item).
    ///
    /// # Panics
    /// If `option` is not an option of the problem.
    pub fn force(&mut self, option: usize) -> Option<u64> {
        let (first, end) = self.option_span[option];
        if (first..end)
            .step_by(STRIDE as usize)
            .any(|q| !self.is_active(self.node(q).top as u32))
        {
            return None;
        }
        // Covering the first item hides the option's other nodes; then cover the rest.
        let top = self.node(first).top as u32;
        let updates = if self.track_empty {
            self.cover::<true>(top) + self.cover_others::<true>(first)
        } else {
            self.cover::<false>(top) + self.cover_others::<false>(first)
        };
        self.forced.push(first);
        Some(updates)
    }

    /// Undoes every [`force`](Dlx::force), newest first, restoring the links as built.
    pub fn release_all(&mut self) {
        self.release_to(0);
    }

    /// Undoes the newest [`force`](Dlx::force)s until only the first `keep` remain.
    pub fn release_to(&mut self, keep: usize) {
        while self.forced.len() > keep {
            let first = self.forced.pop().expect("more than `keep` forced options");
            let top = self.node(first).top as u32;
            if self.track_empty {
                self.uncover_others::<true>(first);
                self.uncover::<true>(top);
            } else {
                self.uncover_others::<false>(first);
                self.uncover::<false>(top);
            }
        }
    }

    /// The options forced so far, in order.
    pub fn forced(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.forced.iter().map(|&x| self.node(x).option as usize)
    }

    /// Checks every invariant of the links, like Knuth's `sanity`: each item's list is a
    /// proper circular doubly linked list whose nodes name the item and whose length is the
    /// item's `len`, and the lists of active items are proper circular lists.
    pub fn sanity(&self) -> Result<(), String> {
        let in_block =
            |o: u32| o.is_multiple_of(STRIDE) && ((o / STRIDE) as usize) < self.node_count;
        for h in (1..=self.item_count).map(|i| i * STRIDE) {
            let mut count = 0u32;
            let mut p = h;
            loop {
                let next = self.node(p).down;
                if !in_block(next) {
                    return Err(format!("node {p}: down link {next} is not a node"));
                }
                if self.node(next).up != p {
                    return Err(format!("item {h}: node {next}.up is not {p}"));
                }
                if next == h {
                    break;
                }
                if self.node(next).top != h as i32 {
                    return Err(format!(
                        "item {h}: node {next} names item {}",
                        self.node(next).top
                    ));
                }
                count += 1;
                if count as usize > self.node_count {
                    return Err(format!("item {h}: list does not close"));
                }
                p = next;
            }
            let base = if h > self.primary_count * STRIDE {
                SECONDARY_LEN
            } else {
                0
            };
            if count + base != self.len(h) {
                return Err(format!(
                    "item {h}: len {} but {count} nodes",
                    self.len(h) - base
                ));
            }
        }
        let mut empty = 0;
        let mut h = self.item(ROOT).next;
        while h != ROOT && empty <= self.item_count {
            empty += (self.len(h) == 0) as u32;
            h = self.item(h).next;
        }
        if self.track_empty && empty != self.empty_items {
            return Err(format!(
                "{empty} active primary items are empty, but the count says {}",
                self.empty_items
            ));
        }
        let secondary_root = (self.item_count + 1) * STRIDE;
        let entries = self.items.len() as u32;
        for root in [ROOT, secondary_root] {
            let mut p = root;
            let mut steps = 0;
            loop {
                let next = self.item(p).next;
                if !next.is_multiple_of(STRIDE) || next / STRIDE >= entries {
                    return Err(format!("item list: next of {p} is not an item"));
                }
                if self.item(next).prev != p {
                    return Err(format!("item list: prev of {next} is not {p}"));
                }
                if next == root {
                    break;
                }
                let primary = next <= self.primary_count * STRIDE;
                if primary != (root == ROOT) || next == ROOT || next == secondary_root {
                    return Err(format!("item {next} is in the wrong list"));
                }
                steps += 1;
                if steps > self.items.len() {
                    return Err("item list does not close".into());
                }
                p = next;
            }
        }
        Ok(())
    }

    /// Every link, as numbers: equal fingerprints mean identical structures. For tests that
    /// check that a search restored everything.
    #[doc(hidden)]
    pub fn link_fingerprint(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.node_count * 3 + self.items.len() * 3);
        for i in 0..self.node_count as u32 {
            let n = self.node(i * STRIDE);
            out.extend([n.up, n.down, n.top as u32]);
        }
        for link in &self.items {
            out.extend([link.prev, link.next, link.len]);
        }
        out
    }
}

impl Clone for Dlx {
    fn clone(&self) -> Dlx {
        let arena = Arena::with_capacity(self.node_count);
        // SAFETY: the block holds `node_count` initialised nodes.
        let source = unsafe { std::slice::from_raw_parts(self.nodes.as_ptr(), self.node_count) };
        let block = arena.alloc_extend(source.iter().copied());
        let nodes = NonNull::from(&mut block[0]);
        Dlx {
            _arena: arena,
            nodes,
            node_count: self.node_count,
            items: self.items.clone(),
            item_count: self.item_count,
            primary_count: self.primary_count,
            track_empty: self.track_empty,
            empty_items: self.empty_items,
            option_span: self.option_span.clone(),
            item_of_header: self.item_of_header.clone(),
            forced: self.forced.clone(),
            stack: self.stack.clone(),
        }
    }
}

impl std::fmt::Debug for Dlx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dlx")
            .field("items", &self.item_count)
            .field("primary", &self.primary_count)
            .field("options", &self.option_span.len())
            .field("nodes", &self.node_count)
            .field("forced", &self.forced.len())
            .finish()
    }
}
