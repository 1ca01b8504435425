//! The dancing-links structure: Knuth's nodes, allocated in one `typed_arena` block, and the
//! operations that change them (cover and uncover, hide and unhide, force, exclude and release).
//!
//! This module owns the links' invariants: [`Links`] keeps its fields private, and the rest of
//! the exact-cover code reads and changes the links only through its methods. It holds the only
//! unsafe code of the exact-cover core (the unchecked reads and writes of the block, and the SSE2
//! scans of `scan`); see "Soundness" below for what that code relies on.
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
//! scanned. With [`Dlx::track_forced_items`](super::Dlx::track_forced_items) on, the links
//! also keep the items' `len`s in bytes ([`ByteLens`]), so that at 25x25 a forced move, most
//! nodes of a Sudoku search, is found by a scan 16 times denser.
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
//! # Soundness
//!
//! The hot loops address the block without bounds checks. What makes that sound is that an
//! offset reaches the block only as one of three handles, which only this module makes:
//!
//! - a `Link`, the offset of any node (a header or an option's node), as the nodes' `up` and
//!   `down` fields hold them;
//! - an [`Item`], the offset of a header;
//! - an [`OptionNode`], the offset of an option's node, never a header.
//!
//! and that these invariants hold from the build on, whatever the order of the calls:
//!
//! 1. **The `up` and `down` of a header or an option node are nodes of the same item** (its
//!    header or one of its option nodes). The build links each item's nodes into a ring;
//!    afterwards a link is only ever written by `hide`/`unhide` (and their whole-option forms),
//!    which give `q`'s neighbours each other's offsets or `q`'s own, or restored from a copy of
//!    the block taken when it held (`release_all`). So a walk down an item's list meets only
//!    that item's nodes, and the ones that are not its header are option nodes: that is how
//!    `first_option` and `next_option` make [`OptionNode`]s, and `cover` the nodes it hides.
//! 2. **An option node's `top` is its item's header and its `option` the number of its option**
//!    (below `option_count`). Both are written only by the build; the only `top`s written later
//!    are headers' (their `len`s), and only through an [`Item`]. So the `top` of an option node
//!    is an [`Item`], and `span` may index `option_span` by its `option` unchecked. A header's
//!    `option` is `u32::MAX`, but no [`OptionNode`] is a header, so `span` never reads it.
//! 3. **The `len`s kept in bytes have one byte per header**, whatever the tracking, so that an
//!    [`Item`] indexes them unchecked.
//!
//! Handles are plain offsets, not tied to one [`Links`] by the type system: a handle must only
//! be given to the links that made it, or to a clone of them (same block, same offsets). The
//! handles leave this module only into the search's own state (the choice stack of a `Dlx`, a
//! learning search's trail, local variables), never into a public type: a chooser's
//! [`ActiveItem`](super::ActiveItem) and a split's [`Subtree`](super::Subtree) carry numbers,
//! which [`Links::primary_item`] and [`Links::item_by_id`] check. Every access is checked
//! in debug builds, and [`Links::sanity`] checks the whole structure after every search there.
//!
//! A call in the wrong order (an item uncovered that was never covered, an option included that
//! was never excluded) breaks the structure's meaning, and `sanity` says how, but not these
//! invariants: the memory stays sound, only the answers go wrong. The scans of `scan` read
//! only the slices they are given, and check their lengths; the only way to break an invariant
//! is the `#[cfg(test)]` hook through which the tests of `sanity` plant broken links, an
//! `unsafe fn`.

use std::ptr::NonNull;

use typed_arena::Arena;

mod build;
mod bytes;
mod dance;
mod forced;
mod sanity;
pub(crate) mod scan;

pub use sanity::LinkError;

use self::bytes::ByteLens;
use self::scan::Want;

/// One node of the dancing-links structure (header or option node).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub(crate) struct Node {
    up: Link,
    down: Link,
    /// For an option node, its item (the header's offset); for a header, the item's `len` (as in
    /// Knuth's dlx1), with [`COVERED`] set while the item is covered.
    top: u32,
    /// The option an option node belongs to; `u32::MAX` for a header.
    option: u32,
}

impl Node {
    /// A header's `len`: the options left in its item's list, with [`COVERED`] set while the
    /// item is covered (and [`SECONDARY_LEN`] added for a secondary item).
    #[inline(always)]
    pub(crate) fn len(&self) -> u32 {
        self.top
    }
}

/// The offset of a node of the block, as the `up` and `down` fields hold it (see "Soundness").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
struct Link(u32);

/// An item, as the offset of its header in the block of the [`Links`] that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Item(u32);

impl Item {
    /// The header's node number (1-based, primary items first).
    #[inline(always)]
    pub(crate) fn number(self) -> usize {
        (self.0 / STRIDE) as usize
    }

    /// A number that names the item in its links, and in any links built from the same problem
    /// (the header's offset): what a split's parts record, and its fingerprint hashes.
    #[inline(always)]
    pub(crate) fn id(self) -> u32 {
        self.0
    }

    #[inline(always)]
    fn link(self) -> Link {
        Link(self.0)
    }
}

/// A node of an option (never a header), as its offset in the block of the [`Links`] that made
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OptionNode(u32);

impl OptionNode {
    #[inline(always)]
    fn link(self) -> Link {
        Link(self.0)
    }
}

/// Bytes from one node to the next: links are byte offsets, multiples of this.
const STRIDE: u32 = std::mem::size_of::<Node>() as u32;

/// Set in the `len` of a covered item. It puts covered items above every active one for the
/// item choice's scan, and `hide` never meets a covered item, so the count below it is kept.
/// Below bit 31, so that `len`s compare the same as signed numbers (see `scan`); a `len` is
/// at most the node count, below 2^28 (see `MAX_NODES`).
pub(crate) const COVERED: u32 = 1 << 30;

/// Added to every secondary item's `len`, so that only primary items can reach 0 (see
/// `Links::empty_items`) without a test in `hide` for the kind of item.
const SECONDARY_LEN: u32 = 1 << 29;

/// The dancing-links form of a plain [`Problem`](crate::exact_cover::Problem): the node block
/// and the options forced into every solution. See the module doc.
pub(crate) struct Links {
    /// Owns the node block; never read directly, it only keeps `nodes` alive.
    _arena: Arena<Node>,
    nodes: NonNull<Node>,
    node_count: usize,
    /// The number of items (headers are at offsets `STRIDE..=item_count * STRIDE`).
    item_count: u32,
    /// The number of primary items (headers `STRIDE..=primary_count * STRIDE`).
    primary_count: u32,
    /// Whether `empty_items` is kept up to date (see [`Links::track_dead_ends`]).
    track_empty: bool,
    /// Active primary items with no option left, when `track_empty` is set: kept up to date by
    /// `hide`, `unhide`, `cover` and `uncover`, so that a dead end is seen without scanning the
    /// items, and the item choice may stop at the first item with one option: with no empty
    /// item that is the first item of minimum `len`, Knuth's choice.
    empty_items: u32,
    /// Whether `bytes` is kept up to date (see [`Links::track_forced_items`]); only with
    /// `track_empty`.
    track_bytes: bool,
    /// The items' `len`s in bytes, and the number of active primary items, when `track_bytes`
    /// is set (see [`ByteLens`]); one byte per header always (invariant 3).
    bytes: ByteLens,
    /// Each option's first node and the node after its last one (as offsets).
    option_span: Vec<(u32, u32)>,
    /// The problem's item number of each header (index 0 unused).
    item_of_header: Vec<u32>,
    /// A node of each forced option, in the order forced.
    forced: Vec<OptionNode>,
    /// The links with nothing forced, when [`Links::keep_copy`] asked for them.
    pristine: Option<Pristine>,
}

/// A copy of the node block with nothing forced, and its count of empty items.
#[derive(Clone)]
struct Pristine {
    nodes: Box<[Node]>,
    empty_items: u32,
    bytes: ByteLens,
}

// SAFETY: `nodes` points into the block owned by `_arena`, which moves with the `Links` and is
// touched only through `&self`/`&mut self`; nothing is shared with another value.
unsafe impl Send for Links {}
// SAFETY: through `&Links` nothing is written: the nodes are only read, and the arena (whose
// `RefCell` is not `Sync`) is used only while the `Links` are being built and never again.
unsafe impl Sync for Links {}

impl Links {
    /// The number of options.
    #[inline]
    pub(crate) fn option_count(&self) -> usize {
        self.option_span.len()
    }

    /// The number of items.
    #[inline]
    pub(crate) fn item_count(&self) -> usize {
        self.item_count as usize
    }

    /// The number of nodes, node 0 and the headers included.
    pub(crate) fn node_count(&self) -> usize {
        self.node_count
    }

    /// The number of primary items.
    #[inline]
    pub(crate) fn primary_count(&self) -> usize {
        self.primary_count as usize
    }

    /// Whether `o` is the offset of a node of the block.
    #[inline(always)]
    fn in_block(&self, o: u32) -> bool {
        o.is_multiple_of(STRIDE) && ((o / STRIDE) as usize) < self.node_count
    }

    /// The node at `at`.
    #[inline(always)]
    fn node(&self, at: Link) -> Node {
        debug_assert!(self.in_block(at.0));
        // SAFETY: a `Link` is the offset of a node of this block (invariants 1 and 2, and
        // handles are only given to the links that made them), and the block is alive as
        // long as `self`.
        unsafe { *self.nodes.as_ptr().byte_add(at.0 as usize) }
    }

    /// The node at `at`, to change.
    #[inline(always)]
    fn node_mut(&mut self, at: Link) -> &mut Node {
        debug_assert!(self.in_block(at.0));
        // SAFETY: as for `node`; `&mut self` makes this the only reference into the block.
        unsafe { &mut *self.nodes.as_ptr().byte_add(at.0 as usize) }
    }

    /// The whole block, to copy.
    fn block(&self) -> &[Node] {
        // SAFETY: the block holds `node_count` initialised nodes, alive as long as `self`.
        unsafe { std::slice::from_raw_parts(self.nodes.as_ptr(), self.node_count) }
    }

    /// The whole block, to restore from a copy.
    fn block_mut(&mut self) -> &mut [Node] {
        // SAFETY: as for `block`; `&mut self` makes this the only reference into the block.
        unsafe { std::slice::from_raw_parts_mut(self.nodes.as_ptr(), self.node_count) }
    }

    /// The headers of the primary items, in order: each one's [`Node::len`] is the item's
    /// `len`.
    #[inline(always)]
    pub(crate) fn primary_headers(&self) -> &[Node] {
        // SAFETY: nodes `1..=primary_count` are in the block; `&self` keeps them from change.
        unsafe {
            std::slice::from_raw_parts(self.nodes.as_ptr().add(1), self.primary_count as usize)
        }
    }

    /// The `len`s of the primary items kept in bytes, item `i` (0-based) at `i`: up to date
    /// only while [`Links::tracks_bytes`].
    #[inline(always)]
    pub(crate) fn primary_byte_lens(&self) -> &[u8] {
        self.bytes.primary_lens(self.primary_count as usize)
    }

    /// Whether the `len`s are kept in bytes (see [`Links::track_forced_items`]).
    #[inline(always)]
    pub(crate) fn tracks_bytes(&self) -> bool {
        self.track_bytes
    }

    /// Whether the count of empty items is kept (see [`Links::track_dead_ends`]).
    #[inline(always)]
    pub(crate) fn tracks_dead_ends(&self) -> bool {
        self.track_empty
    }

    /// The active primary items with no option left, counted while
    /// [`Links::tracks_dead_ends`] (and by the whole-option hides whatever the tracking).
    #[inline(always)]
    pub(crate) fn empty_items(&self) -> u32 {
        self.empty_items
    }

    /// The `i`-th primary item (0-based).
    ///
    /// # Panics
    /// If there are not more than `i` primary items.
    #[inline(always)]
    pub(crate) fn primary_item(&self, i: usize) -> Item {
        assert!(i < self.primary_count as usize, "no primary item {i}");
        Item((i as u32 + 1) * STRIDE)
    }

    /// Every item, primary ones first, in the order of their headers.
    pub(crate) fn items(&self) -> impl Iterator<Item = Item> + use<> {
        (1..=self.item_count).map(|n| Item(n * STRIDE))
    }

    /// The item that [`Item::id`] names.
    ///
    /// # Panics
    /// If there is no such item in these links.
    pub(crate) fn item_by_id(&self, id: u32) -> Item {
        assert!(
            id.is_multiple_of(STRIDE) && (1..=self.item_count).contains(&(id / STRIDE)),
            "no item {id} in these links"
        );
        Item(id)
    }

    /// The problem's number of an item.
    pub(crate) fn item_number(&self, h: Item) -> usize {
        self.item_of_header[h.number()] as usize
    }

    /// The `len` of an item, [`COVERED`] bit included.
    #[inline(always)]
    pub(crate) fn len(&self, h: Item) -> u32 {
        self.node(h.link()).top
    }

    /// The number of options in an item's list, primary or secondary, covered or not.
    #[inline(always)]
    pub(crate) fn options_left(&self, h: Item) -> u32 {
        self.len(h) & (SECONDARY_LEN - 1)
    }

    #[inline(always)]
    fn len_mut(&mut self, h: Item) -> &mut u32 {
        &mut self.node_mut(h.link()).top
    }

    /// Whether an item is not covered.
    #[inline]
    pub(crate) fn is_active(&self, h: Item) -> bool {
        self.len(h) & COVERED == 0
    }

    /// The item of an option node.
    #[inline(always)]
    pub(crate) fn item_of(&self, x: OptionNode) -> Item {
        // Invariant 2: an option node's `top` is its header.
        Item(self.node(x.link()).top)
    }

    /// The option an option node belongs to.
    #[inline(always)]
    pub(crate) fn option_of(&self, x: OptionNode) -> usize {
        self.node(x.link()).option as usize
    }

    /// The first option node in an item's list, if the list is not empty.
    #[inline(always)]
    pub(crate) fn first_option(&self, h: Item) -> Option<OptionNode> {
        let down = self.node(h.link()).down;
        // Invariant 1: a node of `h`'s item other than its header is an option node.
        (down.0 != h.0).then_some(OptionNode(down.0))
    }

    /// The option node below `x` in its item's list, if `x` is not the last.
    #[inline(always)]
    pub(crate) fn next_option(&self, x: OptionNode) -> Option<OptionNode> {
        let Node { down, top, .. } = self.node(x.link());
        // Invariants 1 and 2: `down` is a node of `x`'s item, whose header is `top`.
        (down.0 != top).then_some(OptionNode(down.0))
    }

    /// A node of some option, if the problem has an option: a value for slots that the search
    /// fills before it reads them.
    pub(crate) fn any_option_node(&self) -> Option<OptionNode> {
        (self.option_span.first()).map(|&(first, _)| OptionNode(first))
    }

    /// The first node of `x`'s option and the node after its last one.
    #[inline(always)]
    fn span(&self, x: OptionNode) -> (u32, u32) {
        let k = self.node(x.link()).option as usize;
        debug_assert!(k < self.option_span.len());
        // SAFETY: an option node's `option` is the number of its option (invariant 2), and
        // `option_span` has an entry for every option.
        unsafe { *self.option_span.get_unchecked(k) }
    }

    /// The first node of option `k` and the node after its last one.
    ///
    /// # Panics
    /// If `k` is not an option of the problem.
    #[inline]
    fn span_of(&self, k: usize) -> (u32, u32) {
        self.option_span[k]
    }

    /// The number of items in `x`'s option.
    #[inline(always)]
    pub(crate) fn option_size(&self, x: OptionNode) -> u64 {
        let (first, end) = self.span(x);
        u64::from((end - first) / STRIDE)
    }

    /// The items of `x`'s option other than `x`'s own, in the option's order.
    #[inline(always)]
    pub(crate) fn other_items(&self, x: OptionNode) -> impl Iterator<Item = Item> + '_ {
        let (first, end) = self.span(x);
        (first..end)
            .step_by(STRIDE as usize)
            .filter(move |&q| q != x.0)
            .map(|q| self.item_of(OptionNode(q)))
    }

    /// The items of option `k`, in the option's order.
    ///
    /// # Panics
    /// If `k` is not an option of the problem.
    pub(crate) fn items_of(&self, k: usize) -> impl Iterator<Item = Item> + '_ {
        let (first, end) = self.span_of(k);
        (first..end)
            .step_by(STRIDE as usize)
            .map(|q| self.item_of(OptionNode(q)))
    }

    /// The node of option `k` in the list of item `h`.
    ///
    /// # Panics
    /// If `k` is not an option of the problem, or has no node in `h`.
    pub(crate) fn node_of(&self, k: usize, h: Item) -> OptionNode {
        let (first, end) = self.span_of(k);
        (first..end)
            .step_by(STRIDE as usize)
            .map(OptionNode)
            .find(|&q| self.item_of(q) == h)
            .expect("the option has a node in the item")
    }

    /// Whether option `k` is out of every search from here: one of its items is covered, or
    /// the whole option is excluded ([`Links::exclude`]).
    ///
    /// # Panics
    /// If `k` is not an option of the problem.
    pub(crate) fn is_out(&self, k: usize) -> bool {
        let (first, _) = self.span_of(k);
        let first = OptionNode(first);
        self.items_of(k).any(|h| !self.is_active(h))
            || self.node(self.node(first.link()).up).down != first.link()
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
        self.all_covered_above::<BYTES>(0)
    }

    /// [`Links::all_covered`], when every primary item before `floor` is known to be covered:
    /// the scan starts there.
    #[inline(always)]
    pub(crate) fn all_covered_above<const BYTES: bool>(&self, floor: usize) -> bool {
        if BYTES {
            self.bytes.active == 0
        } else {
            scan::first(&self.primary_headers()[floor..], Want::Active).is_none()
        }
    }

    /// Whether every primary item is covered, however the links track their `len`s.
    pub(crate) fn is_solved(&self) -> bool {
        if self.track_bytes {
            self.all_covered::<true>()
        } else {
            self.all_covered::<false>()
        }
    }

    /// Whether the search can tell at once that some primary item has no option left.
    #[inline(always)]
    pub(crate) fn known_dead_end(&self) -> bool {
        self.track_empty && self.empty_items > 0
    }

    /// Every link, as numbers: equal fingerprints mean identical structures. For tests that
    /// check that a search restored everything.
    pub(crate) fn link_fingerprint(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.node_count * 3);
        for n in self.block() {
            out.extend([n.up.0, n.down.0, n.top]);
        }
        out
    }
}

#[cfg(test)]
impl Links {
    /// Changes node `number` as `change` says: the hook through which the tests of `sanity`
    /// break the links on purpose.
    ///
    /// # Safety
    /// The change may break the invariants of the module doc, on which the soundness of every
    /// other method rests: afterwards only `sanity`, which checks each link before it follows
    /// it, may be called, and then the links dropped.
    unsafe fn plant(&mut self, number: u32, change: impl FnOnce(&mut Node)) {
        change(&mut self.block_mut()[number as usize]);
    }
}

impl std::fmt::Debug for Links {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Links")
            .field("items", &self.item_count)
            .field("primary", &self.primary_count)
            .field("options", &self.option_span.len())
            .field("nodes", &self.node_count)
            .field("forced", &self.forced.len())
            .finish()
    }
}
