//! The dancing-links structure: Knuth's nodes, allocated in one `typed_arena` block.
//!
//! # Representation
//!
//! The layout is the one of Knuth's `dlx1`, less its spacers. Node 0 is unused; nodes `1..=N`
//! are the item headers (primary items first, then secondary ones, each group in declaration
//! order); then come the options' nodes, one option after another. Every node has four 32-bit
//! fields:
//!
//! - `up`, `down`: the vertical links of the item's circular list;
//! - `top`: for an option node, its item (the header's link); for a header, the item's `len`,
//!   as in dlx1, with the [`COVERED`] bit set while the item is covered;
//! - `option`: the option an option node belongs to, so that a solution is read off directly,
//!   and `hide` finds the option's bounds in `option_span`.
//!
//! There is no linked list of active items. The item choice scans the primary headers in place
//! (they are the block's first nodes), eight at a time (see `scan`); the `COVERED` bit keeps a
//! covered item from being chosen, and secondary items, whose headers come after, are never
//! scanned. With [`Dlx::track_forced_items`] on, the links also keep the items' `len`s in
//! bytes ([`ByteLens`]), so that at 25x25 a forced move, most nodes of a Sudoku search, is found
//! by a scan 16 times denser.
//!
//! All nodes are allocated by one `Arena::alloc_extend` call, which hands back a single
//! contiguous block, and the links are 32-bit **byte offsets** into that block rather than
//! `Cell<&Node>` references: node `i` is linked as `16 * i`, so a link is an address without a
//! multiplication. `hide`, `unhide` and their callers run round an option a fixed number of
//! times, from the option's `(first, end)` span, instead of stopping at a spacer as dlx1 does;
//! with no loop left to read them, the spacers went too, which made the 9x9 Sudoku block 18%
//! smaller and the 17-clue search 5% faster (median of six timed runs, 22.1 to 21.0 µs).
//!
//! # The measurements behind it
//!
//! `cargo bench --bench exact_cover`, one thread, medians, on this project's 2-core machine
//! (the `links/` group counts the same problems with the same item rule in both representations,
//! which walk identical search trees; the bench checks that):
//!
//! | problem | plain indices, spacer loops | byte offsets, span loops | `Cell<&Node>` (48-byte nodes) |
//! |---|---|---|---|
//! | 6x10 pentominoes (1.25e9 updates) | 7.8 s | 5.50 s (5.10 s with the flat scan below) | 6.50 s (6.43 s) |
//! | 12 queens | 29.4 ms | 31.2 ms (28.3 ms) | 23.9 ms (22.4 ms) |
//!
//! Plain 16-byte indices lost to references everywhere: every load paid a shift for the index
//! (47% of the instructions were address arithmetic) and the spacer test mispredicted once per
//! option. Byte offsets and span loops won on the large problem, where the 16-byte nodes keep
//! twice as much of the structure in cache as 48-byte ones, and lost on 12 queens, whose
//! structure fits in the first-level cache either way and whose options are short; we chose
//! them for the large problems, where the time goes.
//!
//! Knuth's list of active items made each step of the item choice wait for the load of the
//! step before. On 17-clue Sudoku, where most nodes are forced moves found after a walk of
//! about 45 items, the flat scan took a puzzle from 29.7 to 24.5 µs (search only, one thread)
//! and the forum-hardest set from 427 to 400 µs, with the same search tree; 6x10 pentominoes
//! stayed at 5.2 s. Testing each group with SSE2 then took 17-clue puzzles from 27.9 to
//! 25.9 µs end to end (`cargo bench --bench sudoku`). Moving the `len`s out of the headers into
//! an array of their own, dense or 16 bytes apart, made 6x10 pentominoes 20% slower, which is
//! why they stay in `top`.
//!
//! The search writes only through `&mut self`, so no `Cell` is needed; the hot loops address the
//! block without bounds checks, which is sound because every link is set at build time to the
//! offset of a node inside the block and only ever replaced by another link's value (`sanity`
//! checks this in debug builds and tests, and the debug assertions check every access).

use std::ptr::NonNull;

use typed_arena::Arena;

mod sanity;
pub(crate) mod scan;

pub use sanity::LinkError;

use super::problem::{ItemKind, Problem};
use crate::{Error, ErrorKind, Result};
use scan::Want;

/// One node of the dancing-links structure (header or option node).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub(crate) struct Node {
    pub(crate) up: u32,
    pub(crate) down: u32,
    /// For an option node, its item (the header's offset); for a header, the item's `len` (as in
    /// Knuth's dlx1), with [`COVERED`] set while the item is covered.
    pub(crate) top: u32,
    /// The option an option node belongs to.
    pub(crate) option: u32,
}

/// Bytes from one node to the next: links are byte offsets, multiples of this.
pub(crate) const STRIDE: u32 = std::mem::size_of::<Node>() as u32;

/// Set in the `len` of a covered item. It puts covered items above every active one for the
/// item choice's scan, and `hide` never meets a covered item, so the count below it is kept.
/// Below bit 31, so that `len`s compare the same as signed numbers (see `scan`); a `len` is
/// at most the node count, below 2^28 (see `MAX_NODES`).
pub(crate) const COVERED: u32 = 1 << 30;

/// Added to every secondary item's `len`, so that only primary items can reach 0 (see
/// `Dlx::empty_items`) without a test in `hide` for the kind of item.
pub(crate) const SECONDARY_LEN: u32 = 1 << 29;

/// The dancing-links form of a [`Problem`], ready for [`Dlx::search`](crate::exact_cover::Dlx).
///
/// One `Dlx` serves many searches: every search, and every [`force`](Dlx::force) followed by
/// [`release_all`](Dlx::release_all), leaves the links exactly as they were.
pub struct Dlx {
    /// Owns the node block; never read directly, it only keeps `nodes` alive.
    _arena: Arena<Node>,
    nodes: NonNull<Node>,
    pub(crate) node_count: usize,
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
    /// Whether `bytes` is kept up to date (see [`Dlx::track_forced_items`]); only with
    /// `track_empty`.
    pub(crate) track_bytes: bool,
    /// The items' `len`s in bytes, and the number of active primary items, when `track_bytes`
    /// is set (see [`ByteLens`]).
    pub(crate) bytes: ByteLens,
    /// Each option's first node and the node after its last one (as offsets).
    pub(crate) option_span: Vec<(u32, u32)>,
    /// The problem's item number of each header (index 0 unused).
    pub(crate) item_of_header: Vec<u32>,
    /// A node of each forced option, in the order forced.
    pub(crate) forced: Vec<u32>,
    /// The search's choice stack, one node per level, allocated once.
    pub(crate) stack: Vec<u32>,
    /// The option each level tried first, when the item chooser rotates the option order
    /// ([`ItemChooser::ROTATES`](super::ItemChooser::ROTATES)): the level is done when its
    /// option list wraps around to it.
    pub(crate) first_tried: Vec<u32>,
    /// Per option, whether a rotating search tries it first in its items' lists (see
    /// [`Dlx::set_preferred`]); empty when none is.
    pub(crate) preferred: Vec<bool>,
    /// The links with nothing forced, when [`Dlx::keep_copy`] asked for them.
    pristine: Option<Pristine>,
}

/// A copy of the node block with nothing forced, and its count of empty items.
#[derive(Clone)]
struct Pristine {
    nodes: Box<[Node]>,
    empty_items: u32,
    bytes: ByteLens,
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
    ///
    /// # Panics
    /// If the problem has colours or multiplicities ([`Problem::is_plain`] is false): those
    /// are searched by [`Xcc`](super::Xcc). [`Dlx::try_new`] says so with an error instead,
    /// for a problem read from a user's file.
    pub fn new(problem: &Problem) -> Dlx {
        match Dlx::try_new(problem) {
            Ok(dlx) => dlx,
            Err(err) => panic!("{err}"),
        }
    }

    /// Builds the links of a plain problem, or says why it cannot: a problem with colours or
    /// multiplicities is an [`ErrorKind::NotPlain`](crate::ErrorKind::NotPlain) error (search it
    /// with [`Xcc`](super::Xcc)).
    ///
    /// ```
    /// use quadrille::ErrorKind;
    /// use quadrille::exact_cover::{Dlx, Xcc};
    ///
    /// let read = quadrille::io::dlx::parse_problem("a | x\na x:red\na x:blue\n")?;
    /// let err = Dlx::try_new(read.problem()).unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::NotPlain { what: "colours" }));
    /// assert_eq!(Xcc::new(read.problem()).count(None).stats.solutions, 2);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn try_new(problem: &Problem) -> Result<Dlx> {
        let what = match (problem.has_colors(), problem.has_multiplicities()) {
            (false, false) => None,
            (true, false) => Some("colours"),
            (false, true) => Some("multiplicities"),
            (true, true) => Some("colours and multiplicities"),
        };
        if let Some(what) = what {
            return Err(Error::new(ErrorKind::NotPlain { what }));
        }
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
        let total = item_count + 1 + problem.node_count();
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
        let mut option_span = Vec::with_capacity(problem.option_count());
        for (k, option) in problem.options().enumerate() {
            let first = nodes.len();
            for &item in option {
                let h = header_of_item[item];
                let here = offset(nodes.len());
                let last = nodes[h].up;
                nodes.push(Node {
                    up: last,
                    down: offset(h),
                    top: offset(h),
                    option: k as u32,
                });
                nodes[(last / STRIDE) as usize].down = here;
                nodes[h].up = here;
                nodes[h].top += 1;
            }
            option_span.push((offset(first), offset(nodes.len())));
        }
        debug_assert_eq!(nodes.len(), total);

        for header in &mut nodes[primary_count + 1..=item_count] {
            header.top += SECONDARY_LEN;
        }
        let empty_items = nodes[1..=primary_count]
            .iter()
            .filter(|header| header.top == 0)
            .count() as u32;

        let arena = Arena::with_capacity(nodes.len());
        let node_count = nodes.len();
        let nodes = block_pointer(arena.alloc_extend(nodes));
        Ok(Dlx {
            _arena: arena,
            nodes,
            node_count,
            item_count: item_count as u32,
            primary_count: primary_count as u32,
            track_empty: false,
            empty_items,
            track_bytes: false,
            bytes: ByteLens::new(item_count + 1),
            option_span,
            item_of_header,
            forced: Vec::new(),
            stack: vec![0; primary_count + 1],
            first_tried: vec![0; primary_count + 1],
            preferred: Vec::new(),
            pristine: None,
        })
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
    pub(crate) fn node_mut(&mut self, o: u32) -> &mut Node {
        debug_assert!(o.is_multiple_of(STRIDE) && ((o / STRIDE) as usize) < self.node_count);
        // SAFETY: as for `node`; `&mut self` makes this the only reference.
        unsafe { &mut *self.nodes.as_ptr().byte_add(o as usize) }
    }

    /// The `len` of the item whose header is at offset `h`, [`COVERED`] bit included.
    #[inline(always)]
    pub(crate) fn len(&self, h: u32) -> u32 {
        self.node(h).top
    }

    #[inline(always)]
    fn len_mut(&mut self, h: u32) -> &mut u32 {
        &mut self.node_mut(h).top
    }

    /// The headers of the primary items, in order: each one's `top` is the item's `len`.
    #[inline(always)]
    pub(crate) fn primary_headers(&self) -> &[Node] {
        // SAFETY: nodes `1..=primary_count` are in the block; `&self` keeps them from change.
        unsafe {
            std::slice::from_raw_parts(self.nodes.as_ptr().add(1), self.primary_count as usize)
        }
    }

    /// Whether every primary item is covered: a scan that stops at the first active item.
    ///
    /// The item choice then scans the same prefix again; callgrind puts the two together at
    /// about 2.5% of a 17-clue search's instructions. Letting the choice report "nothing
    /// active" instead would cost up to three full scans at every solution, and whole-grid
    /// counts meet a solution at one node in nine (the empty 6x6 grid).
    ///
    /// With the `len`s kept in bytes (`BYTES`), a count of the active primary items
    /// answers instead: at 25x25 the scan was 2% of the instructions.
    #[inline(always)]
    pub(crate) fn all_covered<const BYTES: bool>(&self) -> bool {
        if BYTES {
            self.bytes.active == 0
        } else {
            scan::first(self.primary_headers(), Want::Active).is_none()
        }
    }

    /// The number of items in `p`'s option.
    #[inline(always)]
    pub(crate) fn option_size(&self, p: u32) -> u64 {
        let (first, end) = self.span(p);
        u64::from((end - first) / STRIDE)
    }

    /// The first node of `p`'s option and the node after its last one.
    #[inline(always)]
    pub(crate) fn span(&self, p: u32) -> (u32, u32) {
        let k = self.node(p).option as usize;
        debug_assert!(k < self.option_span.len());
        // SAFETY: an option node's `option` is the number of its option.
        unsafe { *self.option_span.get_unchecked(k) }
    }

    /// Removes an item and every option that uses it. Returns the number of links changed.
    #[inline(always)]
    pub(crate) fn cover<const TRACK: bool, const BYTES: bool>(&mut self, h: u32) -> u64 {
        let mut updates = 0;
        let mut p = self.node(h).down;
        while p != h {
            // The next link first: hiding `p` does not change it, and reading it before the
            // stores keeps the walk down the list off their path.
            let next = self.node(p).down;
            updates += self.hide::<TRACK, BYTES>(p);
            p = next;
        }
        self.mark_covered::<TRACK, BYTES>(h);
        updates
    }

    /// Marks item `h` covered once its options are hidden: its `len`, and the counts of empty
    /// and active items that `TRACK` and `BYTES` keep. Shared by [`Dlx::cover`] and
    /// [`Dlx::cover_noting`].
    #[inline(always)]
    fn mark_covered<const TRACK: bool, const BYTES: bool>(&mut self, h: u32) {
        let len = self.len(h);
        *self.len_mut(h) = len | COVERED;
        if TRACK {
            self.empty_items -= (len == 0) as u32;
        }
        if BYTES {
            self.bytes.set_len(h, COVERED);
            self.bytes.active -= (h <= self.primary_count * STRIDE) as u32;
        }
    }

    /// Undoes [`Dlx::mark_covered`]`(h)`, before its options come back.
    #[inline(always)]
    fn mark_uncovered<const TRACK: bool, const BYTES: bool>(&mut self, h: u32) {
        let len = self.len(h) & !COVERED;
        *self.len_mut(h) = len;
        if TRACK {
            self.empty_items += (len == 0) as u32;
        }
        if BYTES {
            self.bytes.set_len(h, len);
            self.bytes.active += (h <= self.primary_count * STRIDE) as u32;
        }
    }

    /// Undoes `cover(h)`.
    #[inline]
    pub(crate) fn uncover<const TRACK: bool, const BYTES: bool>(&mut self, h: u32) {
        self.mark_uncovered::<TRACK, BYTES>(h);
        let mut p = self.node(h).up;
        while p != h {
            let next = self.node(p).up;
            self.unhide::<TRACK, BYTES>(p);
            p = next;
        }
    }

    // The loops below run round an option a known number of times, wrapping from its last node
    // to its first, rather than stopping at a spacer: the trip count is then the same for
    // every node of the option, which the branch predictor learns (a spacer test mispredicted
    // about once per option).

    /// Takes the other nodes of `p`'s option out of their items' lists.
    #[inline(always)]
    fn hide<const TRACK: bool, const BYTES: bool>(&mut self, p: u32) -> u64 {
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
    fn unhide<const TRACK: bool, const BYTES: bool>(&mut self, p: u32) {
        let (first, end) = self.span(p);
        let mut q = p;
        let mut refilled = 0;
        for _ in 1..(end - first) / STRIDE {
            q = if q == first { end - STRIDE } else { q - STRIDE };
            let Node { up, down, top, .. } = self.node(q);
            self.node_mut(up).down = q;
            self.node_mut(down).up = q;
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
    pub(crate) fn cover_others<const TRACK: bool, const BYTES: bool>(&mut self, x: u32) -> u64 {
        let (first, end) = self.span(x);
        let mut updates = 0;
        let mut q = x;
        for _ in 1..(end - first) / STRIDE {
            q = if q + STRIDE == end { first } else { q + STRIDE };
            updates += self.cover::<TRACK, BYTES>(self.node(q).top);
        }
        updates
    }

    /// Undoes `cover_others(x)`, in reverse order.
    #[inline]
    pub(crate) fn uncover_others<const TRACK: bool, const BYTES: bool>(&mut self, x: u32) {
        let (first, end) = self.span(x);
        let mut q = x;
        for _ in 1..(end - first) / STRIDE {
            q = if q == first { end - STRIDE } else { q - STRIDE };
            self.uncover::<TRACK, BYTES>(self.node(q).top);
        }
    }

    /// Takes every node of option `k` out of its item's list, as the learning search does when
    /// a nogood rules the option out (`hide` leaves the node in the item being covered). The
    /// count of empty items is kept whatever `TRACK` says: the learning search reads it.
    pub(crate) fn hide_whole_option<const BYTES: bool>(&mut self, k: u32) {
        let (first, end) = self.option_span[k as usize];
        let mut emptied = 0;
        for q in (first..end).step_by(STRIDE as usize) {
            let Node { up, down, top, .. } = self.node(q);
            self.node_mut(up).down = down;
            self.node_mut(down).up = up;
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
    pub(crate) fn unhide_whole_option<const BYTES: bool>(&mut self, k: u32) {
        let (first, end) = self.option_span[k as usize];
        let mut refilled = 0;
        for q in (first..end).step_by(STRIDE as usize).rev() {
            let Node { up, down, top, .. } = self.node(q);
            self.node_mut(up).down = q;
            self.node_mut(down).up = q;
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

    /// [`Dlx::cover`], telling `hidden` the option of each node whose option it hides (the
    /// learning search records why each option went).
    #[inline(always)]
    pub(crate) fn cover_noting<const TRACK: bool, const BYTES: bool>(
        &mut self,
        h: u32,
        mut hidden: impl FnMut(u32),
    ) -> u64 {
        let mut updates = 0;
        let mut p = self.node(h).down;
        while p != h {
            // The next link first: hiding `p` does not change it, and reading it before the
            // stores keeps the walk down the list off their path.
            let Node {
                down: next, option, ..
            } = self.node(p);
            hidden(option);
            updates += self.hide::<TRACK, BYTES>(p);
            p = next;
        }
        self.mark_covered::<TRACK, BYTES>(h);
        updates
    }

    /// [`Dlx::uncover`], telling `unhidden` the option of each node whose option it unhides.
    #[inline(always)]
    pub(crate) fn uncover_noting<const TRACK: bool, const BYTES: bool>(
        &mut self,
        h: u32,
        mut unhidden: impl FnMut(u32),
    ) {
        self.mark_uncovered::<TRACK, BYTES>(h);
        let mut p = self.node(h).up;
        while p != h {
            let Node {
                up: next, option, ..
            } = self.node(p);
            self.unhide::<TRACK, BYTES>(p);
            unhidden(option);
            p = next;
        }
    }

    /// [`Dlx::cover_others`], telling `hidden` each option hidden (see [`Dlx::cover_noting`]).
    #[inline(always)]
    pub(crate) fn cover_others_noting<const TRACK: bool, const BYTES: bool>(
        &mut self,
        x: u32,
        mut hidden: impl FnMut(u32),
    ) -> u64 {
        let (first, end) = self.span(x);
        let mut updates = 0;
        let mut q = x;
        for _ in 1..(end - first) / STRIDE {
            q = if q + STRIDE == end { first } else { q + STRIDE };
            updates += self.cover_noting::<TRACK, BYTES>(self.node(q).top, &mut hidden);
        }
        updates
    }

    /// [`Dlx::uncover_others`], telling `unhidden` each option unhidden.
    #[inline(always)]
    pub(crate) fn uncover_others_noting<const TRACK: bool, const BYTES: bool>(
        &mut self,
        x: u32,
        mut unhidden: impl FnMut(u32),
    ) {
        let (first, end) = self.span(x);
        let mut q = x;
        for _ in 1..(end - first) / STRIDE {
            q = if q == first { end - STRIDE } else { q - STRIDE };
            self.uncover_noting::<TRACK, BYTES>(self.node(q).top, &mut unhidden);
        }
    }

    /// Keeps count of the active primary items with no option left, so that the search sees a
    /// dead end without scanning the items and can take Knuth's item choice (the first item of
    /// minimum `len`) while stopping its scan at the first item with one option.
    ///
    /// It costs a test in the innermost loop. It pays where dead ends are often hidden behind
    /// forced moves: on the forum-hardest Sudoku set it takes 30% of the search-tree nodes away
    /// and 13% of the time; on 6x10 pentominoes it takes 15% of the nodes away but makes the
    /// search 23% slower. Off by default; [`DlxSolver`](crate::engine::DlxSolver) turns it on.
    ///
    /// It also turns [`Dlx::track_forced_items`] on or off.
    pub fn track_dead_ends(&mut self, on: bool) {
        self.track_empty = on;
        self.empty_items = (self.primary_headers().iter())
            .filter(|header| header.top == 0)
            .count() as u32;
        self.track_forced_items(on);
    }

    /// Keeps each item's `len` in a byte of its own beside the headers, and the number of
    /// active primary items, so that [`Mrv`](super::Mrv) and [`ConflictMrv`](super::ConflictMrv)
    /// find the first item of at most one option (a forced move) and the items of two options
    /// 16 to a vector instead of 8 headers to a group, and the search sees that every item is
    /// covered without a scan. The items chosen are the same, so the search tree is the same.
    /// Only together with [`Dlx::track_dead_ends`], and for problems whose primary items have
    /// fewer than 255 options each: otherwise it stays off.
    ///
    /// It costs a store in `hide` and `unhide`. Counting to 2 on 20 random 25x25 puzzles with
    /// 360 blanks (2,500 primary items), it took the search from 2,641 to 1,405 million
    /// instructions (callgrind), and 200 such puzzles from 13.4-14.5 to 8.7-9.7 ms each (three
    /// runs), with the same nodes; 300 16x16 puzzles with 176 blanks from 495 to 381 million,
    /// 300 12x12 ones with 94 from 149 to 136; and on 9x9, 1,000 17-clue puzzles from 265 to
    /// 260 million (17.9 to 17.3 us each) and 500 forum-hardest ones from 1,552 to 1,442
    /// (about 300 to 267 us).
    ///
    /// A bit set of the items of one option, tried first, needed a read-modify-write in the
    /// same loops: updated with a branch, it was mispredicted so often that 9x9 searches
    /// became half as slow again; without one, it added 11% instructions on 9x9.
    pub fn track_forced_items(&mut self, on: bool) {
        let short = (self.primary_headers().iter()).all(|header| header.top & !COVERED < 255);
        self.track_bytes = on && self.track_empty && short;
        self.bytes = self.byte_lens();
    }

    /// The items' `len`s in bytes and the count of active primary items, from the headers:
    /// what `bytes` holds when `track_bytes` is set.
    pub(crate) fn byte_lens(&self) -> ByteLens {
        let mut bytes = ByteLens::new(self.item_count as usize + 1);
        for h in (1..=self.item_count).map(|i| i * STRIDE) {
            bytes.set_len(h, self.len(h));
        }
        bytes.active = scan::count(self.primary_headers(), Want::Active);
        bytes
    }

    /// Whether the search can tell at once that some primary item has no option left.
    #[inline(always)]
    pub(crate) fn known_dead_end(&self) -> bool {
        self.track_empty && self.empty_items > 0
    }

    /// Whether an item is not covered.
    #[inline]
    fn is_active(&self, h: u32) -> bool {
        self.len(h) & COVERED == 0
    }

    /// Sets the options that the restarting and learning searches
    /// ([`Dlx::search_restarting`], [`Dlx::search_learning`] and their kin) try first: when
    /// one of them branches on an item that has a preferred option left, it tries that one
    /// before the others (the others keep their usual order). Empty: none, as built. This is
    /// the initial phase of a SAT solver: a search for a solution *near* a known one prefers
    /// the known solution's options, so that it changes as few as it must. A plain
    /// [`Dlx::search`] keeps Knuth's order.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{Control, Dlx, ProblemBuilder, Solution};
    /// use quadrille::restart::Restarts;
    ///
    /// // Items a and b; each of the options 0 and 1 covers both, so either alone is a solution.
    /// let mut b = ProblemBuilder::new();
    /// b.primary("a")?;
    /// b.primary("b")?;
    /// b.option_by_names(["a", "b"])?;
    /// b.option_by_names(["a", "b"])?;
    /// let mut dlx = Dlx::new(&b.build()?);
    /// for preferred in [0, 1] {
    ///     dlx.set_preferred(&[preferred]);
    ///     let mut first = Vec::new();
    ///     let sink = |s: &Solution<'_>| {
    ///         s.options_into(&mut first);
    ///         Control::Stop
    ///     };
    ///     dlx.search_restarting(&Restarts::default(), &Budget::unlimited(), sink);
    ///     assert_eq!(first, [preferred]);
    /// }
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Panics
    /// If an option is not an option of the problem.
    pub fn set_preferred(&mut self, options: &[usize]) {
        let count = self.option_span.len();
        self.preferred.clear();
        if !options.is_empty() {
            self.preferred.resize(count, false);
        }
        for &option in options {
            assert!(
                option < count,
                "option {option} is not an option of the problem"
            );
            self.preferred[option] = true;
        }
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
            .any(|q| !self.is_active(self.node(q).top))
        {
            return None;
        }
        // Covering the first item hides the option's other nodes; then cover the rest.
        let top = self.node(first).top;
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

    /// Rules `option` out of the following searches: takes its nodes out of its items' lists,
    /// as a Sudoku solver rules out a candidate. Returns whether it did: `Some(false)`,
    /// changing nothing, when the option was already out (an item of it covered by another
    /// forced option, or the option excluded before), and `None` when the option is itself
    /// forced ([`Dlx::force`]), so that no search can avoid it.
    /// Undo it with [`Dlx::include`], newest first, before [`Dlx::release_all`] or
    /// [`Dlx::release_to`], which know only forced options.
    ///
    /// # Panics
    /// If `option` is not an option of the problem.
    pub(crate) fn exclude(&mut self, option: usize) -> Option<bool> {
        if self.forced().any(|forced| forced == option) {
            return None;
        }
        let (first, end) = self.option_span[option];
        if (first..end)
            .step_by(STRIDE as usize)
            .any(|q| !self.is_active(self.node(q).top))
            || self.node(self.node(first).up).down != first
        {
            return Some(false);
        }
        if self.track_bytes {
            self.hide_whole_option::<true>(option as u32);
        } else {
            self.hide_whole_option::<false>(option as u32);
        }
        Some(true)
    }

    /// Undoes [`Dlx::exclude`]`(option)` (one that returned `Some(true)`).
    pub(crate) fn include(&mut self, option: usize) {
        if self.track_bytes {
            self.unhide_whole_option::<true>(option as u32);
        } else {
            self.unhide_whole_option::<false>(option as u32);
        }
    }

    /// Undoes every [`force`](Dlx::force), restoring the links as built: by copying them back
    /// if [`keep_copy`](Dlx::keep_copy) kept a copy, else by undoing each, newest first.
    pub fn release_all(&mut self) {
        match &self.pristine {
            Some(pristine) if !self.forced.is_empty() => {
                // SAFETY: the copy was taken from this block, which has `node_count` nodes.
                unsafe {
                    let block =
                        std::slice::from_raw_parts_mut(self.nodes.as_ptr(), self.node_count);
                    block.copy_from_slice(&pristine.nodes);
                }
                self.empty_items = pristine.empty_items;
                if self.track_bytes {
                    self.bytes.clone_from(&pristine.bytes);
                }
                self.forced.clear();
            }
            _ => self.release_to(0),
        }
    }

    /// Keeps a copy of the links as they are now, with nothing forced, for
    /// [`release_all`](Dlx::release_all) to restore with one copy of the node block rather than
    /// by undoing each forced option. It pays when the forced options changed much of the
    /// structure, as a Sudoku's givens do: on 17-clue puzzles, forcing and releasing the
    /// givens took 5.3 µs instead of 6.9 (the block was 64 KB then, 52 KB now). The copy costs as much memory
    /// again as the links.
    ///
    /// # Panics
    /// If some option is forced.
    pub fn keep_copy(&mut self) {
        assert!(self.forced.is_empty(), "keep_copy with options forced");
        // SAFETY: the block holds `node_count` initialised nodes.
        let nodes = unsafe { std::slice::from_raw_parts(self.nodes.as_ptr(), self.node_count) };
        self.pristine = Some(Pristine {
            nodes: nodes.into(),
            empty_items: self.empty_items,
            // From the headers: the bytes are stale if searches ran with them off.
            bytes: self.byte_lens(),
        });
    }

    /// Undoes the newest [`force`](Dlx::force)s until only the first `keep` remain.
    pub fn release_to(&mut self, keep: usize) {
        while self.forced.len() > keep {
            let first = self.forced.pop().expect("more than `keep` forced options");
            let top = self.node(first).top;
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
    pub fn forced(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.forced.iter().map(|&x| self.node(x).option as usize)
    }

    /// Every link, as numbers: equal fingerprints mean identical structures. For tests that
    /// check that a search restored everything.
    #[doc(hidden)]
    pub fn link_fingerprint(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.node_count * 3);
        for i in 0..self.node_count as u32 {
            let n = self.node(i * STRIDE);
            out.extend([n.up, n.down, n.top]);
        }
        out
    }
}

/// The pointer through which all of a block's nodes are reached. It is taken from the whole
/// slice, so that it may address every node of the block: a pointer made from a reference to
/// node 0 alone could address only that node.
fn block_pointer(block: &mut [Node]) -> NonNull<Node> {
    NonNull::new(block.as_mut_ptr()).expect("a slice's pointer is never null")
}

impl Clone for Dlx {
    fn clone(&self) -> Dlx {
        let arena = Arena::with_capacity(self.node_count);
        // SAFETY: the block holds `node_count` initialised nodes.
        let source = unsafe { std::slice::from_raw_parts(self.nodes.as_ptr(), self.node_count) };
        let nodes = block_pointer(arena.alloc_extend(source.iter().copied()));
        Dlx {
            _arena: arena,
            nodes,
            node_count: self.node_count,
            item_count: self.item_count,
            primary_count: self.primary_count,
            track_empty: self.track_empty,
            empty_items: self.empty_items,
            track_bytes: self.track_bytes,
            bytes: self.bytes.clone(),
            option_span: self.option_span.clone(),
            item_of_header: self.item_of_header.clone(),
            forced: self.forced.clone(),
            stack: self.stack.clone(),
            first_tried: self.first_tried.clone(),
            preferred: self.preferred.clone(),
            pristine: self.pristine.clone(),
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

/// The header offset of the `i`-th primary item (0-based).
#[inline(always)]
pub(crate) fn header_of(i: usize) -> u32 {
    (i as u32 + 1) * STRIDE
}

/// The `len`s of the items, a byte each, beside the headers' `top`s: [`u8::MAX`] for a covered
/// item (and 255 or more options, which the primary items of a `Dlx` that keeps them never
/// have), so that the item choice reads 16 items with one vector load, where the headers take
/// 16 loads and the shuffles that gather their `len`s. Knuth's choice takes the first item of
/// at most one option in item order, and so does the scan of the bytes: the search tree is
/// the one the scan of the headers made. With it, the number of active primary items, for
/// `all_covered`.
///
/// A bit set of the items of at most one option, tried first beside the bytes, found forced
/// moves with fewer instructions at 25x25 (1,383 million against 1,405 for the 20 puzzles of
/// [`Dlx::track_forced_items`]) but cost a read-modify-write in `hide` and `unhide`: 16x16
/// took 436 million instructions to the bytes' 381 and 70 us a puzzle (median) to 63, and
/// 25x25 no less time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ByteLens {
    /// Each item's `len`, by node number (index 0 unused).
    lens: Vec<u8>,
    /// The number of active primary items.
    pub(crate) active: u32,
}

impl ByteLens {
    /// Bytes for headers `0..count` (node numbers), every `len` 0.
    pub(crate) fn new(count: usize) -> ByteLens {
        ByteLens {
            lens: vec![0; count],
            active: 0,
        }
    }

    /// Records the `len` (with [`COVERED`], if set) of the item whose header is at offset `h`,
    /// saturated at [`u8::MAX`].
    #[inline(always)]
    pub(crate) fn set_len(&mut self, h: u32, len: u32) {
        let i = (h / STRIDE) as usize;
        debug_assert!(i < self.lens.len());
        // SAFETY: `h` is a header's offset (an option node's `top`, or a header covered), and
        // there is a byte for every header of the `Dlx`.
        unsafe { *self.lens.get_unchecked_mut(i) = len.min(u8::MAX as u32) as u8 };
    }

    /// Records the `len` of an active item whose header is at offset `h`, in `hide` and
    /// `unhide`: a primary item's `len` is below [`u8::MAX`] there (see
    /// [`Dlx::track_forced_items`]), so it is stored as it is, without the test for
    /// saturation; a secondary item's byte is never read and may be anything.
    #[inline(always)]
    pub(crate) fn note_len(&mut self, h: u32, len: u32) {
        let i = (h / STRIDE) as usize;
        debug_assert!(i < self.lens.len());
        // SAFETY: as in `set_len`.
        unsafe { *self.lens.get_unchecked_mut(i) = len as u8 };
    }

    /// The `len`s of the primary items, for `count` primary items: item `i` (0-based) at `i`.
    #[inline(always)]
    pub(crate) fn primary_lens(&self, count: usize) -> &[u8] {
        &self.lens[1..=count]
    }
}
