//! Dancing Links as Knuth's 2000 paper draws it, kept only to be measured against
//! `quadrille::exact_cover::Dlx`: every node is an object in a `typed_arena::Arena`, with four
//! links and a link to its item's header, all `Cell` references; headers carry `len`.
//!
//! # Why it exists
//!
//! `Dlx` stores 32-bit offsets into one block (16-byte nodes, options delimited by spacers) and
//! finds the active items by scanning its headers in place. This is the other common Rust
//! design, with 64-bit references (48-byte nodes, circular left/right lists per option, and
//! Knuth's linked list of active items). To measure the representation and nothing else, this version
//! builds the same lists in the same order (primary headers in declaration order, options
//! appended to their items in problem order), chooses items by the same rule as
//! `Mrv` without dead-end tracking (the first item of minimum `len`, the scan stopping at one
//! with at most one option; an empty one is a dead end without being covered), and runs the same iterative Algorithm X with an explicit
//! stack. Both therefore walk identical search trees and must report identical nodes,
//! updates, solutions and dead ends; the bench asserts that.
//!
//! # Links
//!
//! A link is a `Cell<Option<&Node>>`, the same 8 bytes as `Cell<&Node>` (the null niche):
//! safe Rust cannot build a cycle of plain references, and every node here is on one. The
//! builder sets every link before the search runs and the search only copies link values, so
//! the `Option` is never `None` when read; reading it with `unwrap_unchecked` makes the load
//! the same single instruction a plain reference would be, so the comparison is not skewed by
//! a null check per link.

use std::cell::Cell;
use std::ptr;

use quadrille::exact_cover::{ItemKind, Problem};
use typed_arena::Arena;

type Link<'a> = Cell<Option<&'a Node<'a>>>;

/// A header, an option node or the root.
pub struct Node<'a> {
    up: Link<'a>,
    down: Link<'a>,
    left: Link<'a>,
    right: Link<'a>,
    /// The item's header (a header's own is unused).
    top: Link<'a>,
    /// For a header, the number of options left in its list.
    len: Cell<u32>,
}

impl<'a> Node<'a> {
    fn unlinked() -> Node<'a> {
        Node {
            up: Cell::new(None),
            down: Cell::new(None),
            left: Cell::new(None),
            right: Cell::new(None),
            top: Cell::new(None),
            len: Cell::new(0),
        }
    }
}

/// Reads a link.
#[inline(always)]
fn get<'a>(link: &Link<'a>) -> &'a Node<'a> {
    let node = link.get();
    debug_assert!(node.is_some(), "a link left unset by the builder");
    // SAFETY: `RefDlx::new` sets every link of every node it hands to the search, and the
    // search only ever stores values read from other links (see the module doc).
    unsafe { node.unwrap_unchecked() }
}

/// What a count did; the same counts as `quadrille::exact_cover::Stats`, without the time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Search-tree nodes, the root and the leaves included.
    pub nodes: u64,
    /// Nodes taken out of item lists by covering.
    pub updates: u64,
    /// Exact covers found.
    pub solutions: u64,
    /// Nodes where some primary item had no option left.
    pub backtracks: u64,
}

/// The reference-linked dancing-links structure of a problem.
pub struct RefDlx<'a> {
    root: &'a Node<'a>,
    /// The choice stack, allocated once (one option node per level).
    stack: Vec<&'a Node<'a>>,
}

impl<'a> RefDlx<'a> {
    /// The number of nodes `new` allocates for `problem`, to size the arena in one block.
    pub fn node_count(problem: &Problem) -> usize {
        1 + problem.item_count() + problem.node_count()
    }

    /// Builds the links of `problem` in `arena`.
    pub fn new(arena: &'a Arena<Node<'a>>, problem: &Problem) -> RefDlx<'a> {
        let root: &'a Node<'a> = arena.alloc(Node::unlinked());
        root.left.set(Some(root));
        root.right.set(Some(root));

        let headers: Vec<&'a Node<'a>> = (0..problem.item_count())
            .map(|item| {
                let h: &'a Node<'a> = arena.alloc(Node::unlinked());
                for link in [&h.up, &h.down, &h.left, &h.right, &h.top] {
                    link.set(Some(h));
                }
                // Primary items join the root's list in declaration order; secondary ones stay
                // on their own, so covering them unlinks nothing and they are never chosen.
                if problem.item_kind(item) == ItemKind::Primary {
                    let last = get(&root.left);
                    h.left.set(Some(last));
                    h.right.set(Some(root));
                    last.right.set(Some(h));
                    root.left.set(Some(h));
                }
                h
            })
            .collect();

        for option in problem.options() {
            let mut first: Option<&'a Node<'a>> = None;
            for &item in option {
                let h = headers[item];
                let x: &'a Node<'a> = arena.alloc(Node::unlinked());
                x.top.set(Some(h));
                let above = get(&h.up);
                x.up.set(Some(above));
                x.down.set(Some(h));
                above.down.set(Some(x));
                h.up.set(Some(x));
                h.len.set(h.len.get() + 1);
                match first {
                    None => {
                        x.left.set(Some(x));
                        x.right.set(Some(x));
                        first = Some(x);
                    }
                    Some(f) => {
                        let last = get(&f.left);
                        x.left.set(Some(last));
                        x.right.set(Some(f));
                        last.right.set(Some(x));
                        f.left.set(Some(x));
                    }
                }
            }
        }

        let primary = problem.primary_count();
        RefDlx {
            root,
            stack: Vec::with_capacity(primary + 1),
        }
    }

    /// Removes item `c` and every option that uses it; returns the nodes unlinked.
    #[inline]
    fn cover(c: &'a Node<'a>) -> u64 {
        get(&c.right).left.set(c.left.get());
        get(&c.left).right.set(c.right.get());
        let mut updates = 0;
        let mut i = get(&c.down);
        while !ptr::eq(i, c) {
            let mut j = get(&i.right);
            while !ptr::eq(j, i) {
                get(&j.down).up.set(j.up.get());
                get(&j.up).down.set(j.down.get());
                let top = get(&j.top);
                top.len.set(top.len.get() - 1);
                updates += 1;
                j = get(&j.right);
            }
            i = get(&i.down);
        }
        updates
    }

    /// Undoes `cover(c)`, in reverse order.
    #[inline]
    fn uncover(c: &'a Node<'a>) {
        let mut i = get(&c.up);
        while !ptr::eq(i, c) {
            let mut j = get(&i.left);
            while !ptr::eq(j, i) {
                let top = get(&j.top);
                top.len.set(top.len.get() + 1);
                get(&j.down).up.set(Some(j));
                get(&j.up).down.set(Some(j));
                j = get(&j.left);
            }
            i = get(&i.up);
        }
        get(&c.right).left.set(Some(c));
        get(&c.left).right.set(Some(c));
    }

    /// Covers the items of `r`'s option other than `r`'s own.
    #[inline]
    fn cover_others(r: &'a Node<'a>) -> u64 {
        let mut updates = 0;
        let mut j = get(&r.right);
        while !ptr::eq(j, r) {
            updates += Self::cover(get(&j.top));
            j = get(&j.right);
        }
        updates
    }

    /// Undoes `cover_others(r)`.
    #[inline]
    fn uncover_others(r: &'a Node<'a>) {
        let mut j = get(&r.left);
        while !ptr::eq(j, r) {
            Self::uncover(get(&j.top));
            j = get(&j.left);
        }
    }

    /// Counts every exact cover, leaving the links as built.
    pub fn count(&mut self) -> Counts {
        let root = self.root;
        let mut counts = Counts::default();
        self.stack.clear();
        'enter: loop {
            counts.nodes += 1;
            let mut c = get(&root.right);
            if ptr::eq(c, root) {
                counts.solutions += 1;
            } else {
                // The first item of minimum len; an item with at most one option ends the scan.
                let mut best = c;
                let mut min = u32::MAX;
                while !ptr::eq(c, root) {
                    let len = c.len.get();
                    if len < min {
                        best = c;
                        min = len;
                        if len <= 1 {
                            break;
                        }
                    }
                    c = get(&c.right);
                }
                if min > 0 {
                    counts.updates += Self::cover(best);
                    let r = get(&best.down);
                    counts.updates += Self::cover_others(r);
                    self.stack.push(r);
                    continue 'enter;
                }
                counts.backtracks += 1;
            }
            // Back up to the deepest level with an untried option.
            while let Some(r) = self.stack.pop() {
                Self::uncover_others(r);
                let c = get(&r.top);
                let next = get(&r.down);
                if !ptr::eq(next, c) {
                    counts.updates += Self::cover_others(next);
                    self.stack.push(next);
                    continue 'enter;
                }
                Self::uncover(c);
            }
            break counts;
        }
    }
}
