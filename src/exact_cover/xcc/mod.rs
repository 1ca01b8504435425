//! Exact cover with colours and multiplicities: Knuth's XCC (`dlx2`) and multiset cover
//! (`dlx3`, Algorithm M of TAOCP 7.2.2.1), in dancing links of their own.
//!
//! # Why a second structure
//!
//! [`Dlx`](super::Dlx) is tuned for plain exact cover: 16-byte nodes addressed by byte offsets,
//! no spacers, the primary headers scanned eight at a time. Colours need a colour in every node
//! and a test in every `hide`; multiplicities need each item's bounds and a list of active
//! items to choose from. Putting them in the same loops would slow every plain problem, so a
//! problem that uses either is searched here instead, and [`Problem::is_plain`] chooses, once.
//! The layout is the one of Knuth's programs, in plain indices: item headers `1..=N` (primary
//! items first), then each option's nodes followed by a spacer, whose `up` is the first node
//! of the option before it and whose `down` the last node of the option after it.
//!
//! # Colours (dlx2)
//!
//! A node's `color` is 0, a colour (1 and up), or -1 once the node's item has been
//! **purified** with that colour. Choosing an option that gives `x` the colour `c` purifies
//! `x`: every option that gives `x` another colour, or none, is hidden, and every option that
//! gives it `c` is marked -1, so that `hide` leaves its node in `x`'s list and choosing it
//! later does nothing more for `x` (the options share it). The header's `color` holds the
//! colour chosen. `unpurify` undoes it, walking the list the other way. An option that names
//! `x` without a colour covers `x`, as in dlx1. Primary items never have colours.
//!
//! # Multiplicities (dlx3)
//!
//! A primary item has a `bound` (how many more options may cover it: its upper bound, less
//! the options chosen so far) and a `slack` (upper less lower bound). At each node the search
//! branches on the item of least branching degree `len + 1 - max(bound - slack, 0)` (the
//! options that may be tried, plus one for leaving it alone when its lower bound is met),
//! preferring less slack and then longer lists, as dlx3 does; for an item of exactly once
//! this is Knuth's `len`. The branches on item `i` are its first option, then its second with
//! the first excluded, and so on, and last (when the lower bound allows it) none of them.
//! Each option tried is **tweaked**: hidden and taken out of `i`'s list, so that the item
//! stays active with the options after it; `untweak` puts the whole run back at once, as the
//! options tried at one level are a prefix of the list. When an item's bound falls to 0 it
//! is covered, so that nothing more can cover it.
//!
//! Every solution is a set of options, found once; a problem whose items all allow 0 has the
//! empty solution too.

mod cheapest;
mod memo;
mod parallel;
mod search;

pub use cheapest::{
    Cheapest, MinCost, Priced, cheapest, cheapest_parallel, min_cost, min_cost_parallel,
};

use super::links::LinkError;
use super::problem::{ItemKind, Problem};

/// One node: a header, an option's node, or a spacer (`top == 0`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Node {
    up: u32,
    down: u32,
    /// The header of the node's item; 0 for a spacer.
    top: u32,
    /// 0: no colour; `c > 0`: colour `c`; -1: the item is purified with this node's colour.
    /// In a header: the colour its item was last purified with.
    color: i32,
}

/// The dancing links of a problem with colours or multiplicities, searched by Knuth's
/// Algorithm M (see the module docs of `exact_cover::xcc`): any [`Problem`], plain ones included, though
/// [`Dlx`](super::Dlx) solves those faster.
///
/// ```
/// use quadrille::exact_cover::{ProblemBuilder, Xcc};
///
/// // Knuth's example in dlx3: A B 2:3|C | X Y, options "A B X:0 Y:0", "A C X:1 Y:1",
/// // "C X:0", "B X:1", "C Y:1"; its one solution is options 1, 3 and 4.
/// let mut b = ProblemBuilder::new();
/// b.primary("A")?;
/// b.primary("B")?;
/// b.primary_with_bounds("C", 2, 3)?;
/// b.secondary("X")?;
/// b.secondary("Y")?;
/// for option in ["A B X:0 Y:0", "A C X:1 Y:1", "C X:0", "B X:1", "C Y:1"] {
///     b.option_by_names(option.split(' '))?;
/// }
/// let mut xcc = Xcc::new(&b.build()?);
/// let (solutions, report) = xcc.solutions(None);
/// assert!(report.is_complete());
/// let mut only = solutions[0].clone();
/// only.sort();
/// assert_eq!((solutions.len(), only), (1, vec![1, 3, 4]));
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Xcc {
    nodes: Vec<Node>,
    /// Each item's `len`, by header (index 0 unused).
    len: Vec<u32>,
    /// Each primary item's `bound` and `slack`, by header (see the module docs).
    bound: Vec<u32>,
    slack: Vec<u32>,
    /// The list of active primary items: `prev`/`next` by header, 0 its root.
    prev: Vec<u32>,
    next: Vec<u32>,
    item_count: u32,
    primary_count: u32,
    option_count: u32,
    /// The option of each node (`u32::MAX` for headers and spacers).
    option_of: Vec<u32>,
    /// The search's stacks, one entry per level: the node chosen (or the item's header, for
    /// the branch that leaves the item alone), and the first node tweaked.
    choice: Vec<u32>,
    first_tweak: Vec<u32>,
    /// The options of the solution being reported, for a [`Solution`](super::Solution).
    solution: Vec<usize>,
    /// A bit per option, set while it is hidden, kept only by a remembering count (see
    /// `memo`): its key. Every option hidden is hidden by one `hide`, and the options left
    /// with the primary items' bounds fix what is left of the problem.
    hidden: Vec<u64>,
}

impl Xcc {
    /// Builds the links of a problem.
    pub fn new(problem: &Problem) -> Xcc {
        let item_count = problem.item_count();
        let primary_count = problem.primary_count();
        let mut header_of_item = vec![0u32; item_count];
        let mut bound = vec![0; item_count + 1];
        let mut slack = vec![0; item_count + 1];
        let mut next_header = 1;
        for kind in [ItemKind::Primary, ItemKind::Secondary] {
            for item in (0..item_count).filter(|&i| problem.item_kind(i) == kind) {
                header_of_item[item] = next_header;
                if let Some((lower, upper)) = problem.item_bounds(item) {
                    bound[next_header as usize] = upper;
                    slack[next_header as usize] = upper - lower;
                }
                next_header += 1;
            }
        }

        let total = item_count + 2 + problem.node_count() + problem.option_count();
        let mut nodes = Vec::with_capacity(total);
        nodes.push(Node::default());
        for h in 1..=item_count as u32 {
            nodes.push(Node {
                up: h,
                down: h,
                top: h,
                color: 0,
            });
        }
        let mut len = vec![0u32; item_count + 1];
        let mut option_of = vec![u32::MAX; item_count + 1];
        // The first spacer.
        nodes.push(Node::default());
        option_of.push(u32::MAX);
        for (k, option) in problem.options().enumerate() {
            let spacer_before = nodes.len() - 1;
            let first = nodes.len() as u32;
            let colors = problem.option_color_ids(k);
            for (position, &item) in option.iter().enumerate() {
                let h = header_of_item[item];
                let here = nodes.len() as u32;
                let last = nodes[h as usize].up;
                let color = colors.map_or(0, |c| c[position] as i32);
                nodes.push(Node {
                    up: last,
                    down: h,
                    top: h,
                    color,
                });
                option_of.push(k as u32);
                nodes[last as usize].down = here;
                nodes[h as usize].up = here;
                len[h as usize] += 1;
            }
            nodes[spacer_before].down = nodes.len() as u32 - 1;
            nodes.push(Node {
                up: first,
                down: 0,
                top: 0,
                color: 0,
            });
            option_of.push(u32::MAX);
        }
        debug_assert_eq!(nodes.len(), total);

        let mut prev = vec![0; primary_count + 1];
        let mut next = vec![0; primary_count + 1];
        for h in 0..=primary_count {
            prev[h] = if h == 0 { primary_count } else { h - 1 } as u32;
            next[h] = if h == primary_count { 0 } else { h + 1 } as u32;
        }
        let depth = problem.option_count() + primary_count + 1;
        Xcc {
            nodes,
            len,
            bound,
            slack,
            prev,
            next,
            item_count: item_count as u32,
            primary_count: primary_count as u32,
            option_count: problem.option_count() as u32,
            option_of,
            choice: vec![0; depth],
            first_tweak: vec![0; depth],
            solution: Vec::new(),
            hidden: Vec::new(),
        }
    }

    /// The number of options.
    pub fn option_count(&self) -> usize {
        self.option_count as usize
    }

    /// The number of items.
    pub fn item_count(&self) -> usize {
        self.item_count as usize
    }

    /// Whether `p` is an item's header rather than an option's node.
    #[inline]
    fn is_header(&self, p: u32) -> bool {
        p <= self.item_count
    }

    #[inline]
    fn is_primary(&self, h: u32) -> bool {
        h <= self.primary_count
    }

    /// Takes the other nodes of `p`'s option out of their lists, except those whose item is
    /// purified with their colour. Returns the number of nodes taken out.
    /// With `T`, notes the option hidden in [`Xcc::hidden`], for a remembering count.
    fn hide<const T: bool>(&mut self, p: u32) -> u64 {
        if T {
            self.flip_hidden(p);
        }
        let mut updates = 0;
        let mut q = p + 1;
        while q != p {
            let Node {
                up,
                down,
                top,
                color,
            } = self.nodes[q as usize];
            if top == 0 {
                q = up;
                continue;
            }
            if color >= 0 {
                self.nodes[up as usize].down = down;
                self.nodes[down as usize].up = up;
                self.len[top as usize] -= 1;
                updates += 1;
            }
            q += 1;
        }
        updates
    }

    /// Undoes `hide(p)`, in reverse order.
    fn unhide<const T: bool>(&mut self, p: u32) {
        if T {
            self.flip_hidden(p);
        }
        let mut q = p - 1;
        while q != p {
            let Node {
                up,
                down,
                top,
                color,
            } = self.nodes[q as usize];
            if top == 0 {
                q = down;
                continue;
            }
            if color >= 0 {
                self.nodes[up as usize].down = q;
                self.nodes[down as usize].up = q;
                self.len[top as usize] += 1;
            }
            q -= 1;
        }
    }

    /// Flips the bit of `p`'s option in [`Xcc::hidden`].
    #[inline(always)]
    fn flip_hidden(&mut self, p: u32) {
        let option = self.option_of[p as usize] as usize;
        self.hidden[option / 64] ^= 1 << (option % 64);
    }

    /// Takes a primary item out of the list of active items.
    fn deactivate(&mut self, h: u32) {
        let (p, q) = (self.prev[h as usize], self.next[h as usize]);
        self.next[p as usize] = q;
        self.prev[q as usize] = p;
    }

    /// Puts back a primary item taken out by `deactivate`.
    fn reactivate(&mut self, h: u32) {
        let (p, q) = (self.prev[h as usize], self.next[h as usize]);
        self.next[p as usize] = h;
        self.prev[q as usize] = h;
    }

    /// Covers item `h`: hides every option in its list (and takes it out of the active items,
    /// if primary).
    fn cover<const T: bool>(&mut self, h: u32) -> u64 {
        if self.is_primary(h) {
            self.deactivate(h);
        }
        let mut updates = 0;
        let mut p = self.nodes[h as usize].down;
        while p != h {
            updates += self.hide::<T>(p);
            p = self.nodes[p as usize].down;
        }
        updates
    }

    /// Undoes `cover(h)`.
    fn uncover<const T: bool>(&mut self, h: u32) {
        let mut p = self.nodes[h as usize].up;
        while p != h {
            self.unhide::<T>(p);
            p = self.nodes[p as usize].up;
        }
        if self.is_primary(h) {
            self.reactivate(h);
        }
    }

    /// Purifies the item of node `p` with `p`'s colour: hides the options that give the item
    /// another colour or none, and marks those that give it the same one.
    fn purify<const T: bool>(&mut self, p: u32) -> u64 {
        let Node { top: h, color, .. } = self.nodes[p as usize];
        self.nodes[h as usize].color = color;
        let mut updates = 0;
        let mut q = self.nodes[h as usize].down;
        while q != h {
            if self.nodes[q as usize].color != color {
                updates += self.hide::<T>(q);
            } else if q != p {
                self.nodes[q as usize].color = -1;
            }
            q = self.nodes[q as usize].down;
        }
        updates
    }

    /// Undoes `purify(p)`.
    fn unpurify<const T: bool>(&mut self, p: u32) {
        let Node { top: h, color, .. } = self.nodes[p as usize];
        let mut q = self.nodes[h as usize].up;
        while q != h {
            if self.nodes[q as usize].color < 0 {
                self.nodes[q as usize].color = color;
            } else if q != p {
                self.unhide::<T>(q);
            }
            q = self.nodes[q as usize].up;
        }
        self.nodes[h as usize].color = 0;
    }

    /// Commits node `p`'s item as part of a chosen option: a primary item's bound falls by
    /// one (covered at 0); a secondary item is covered, or purified with `p`'s colour, or left
    /// as it is when already purified with it.
    fn commit<const T: bool>(&mut self, p: u32) -> u64 {
        let Node { top: h, color, .. } = self.nodes[p as usize];
        if self.is_primary(h) {
            self.bound[h as usize] -= 1;
            if self.bound[h as usize] == 0 {
                return self.cover::<T>(h);
            }
            0
        } else if color == 0 {
            self.cover::<T>(h)
        } else if color > 0 {
            self.purify::<T>(p)
        } else {
            0
        }
    }

    /// Undoes `commit(p)`.
    fn uncommit<const T: bool>(&mut self, p: u32) {
        let Node { top: h, color, .. } = self.nodes[p as usize];
        if self.is_primary(h) {
            if self.bound[h as usize] == 0 {
                self.uncover::<T>(h);
            }
            self.bound[h as usize] += 1;
        } else if color == 0 {
            self.uncover::<T>(h);
        } else if color > 0 {
            self.unpurify::<T>(p);
        }
    }

    /// Commits the items of `x`'s option other than `x`'s own, left to right.
    fn commit_others<const T: bool>(&mut self, x: u32) -> u64 {
        let mut updates = 0;
        let mut p = x + 1;
        while p != x {
            let node = self.nodes[p as usize];
            if node.top == 0 {
                p = node.up;
                continue;
            }
            updates += self.commit::<T>(p);
            p += 1;
        }
        updates
    }

    /// Undoes `commit_others(x)`, right to left.
    fn uncommit_others<const T: bool>(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let node = self.nodes[p as usize];
            if node.top == 0 {
                p = node.down;
                continue;
            }
            self.uncommit::<T>(p);
            p -= 1;
        }
    }

    /// Tweaks `x`, the first node of item `h`'s list: takes it out of the list, and, unless
    /// `h` is covered (then its options are hidden already), hides its option.
    fn tweak<const T: bool>(&mut self, x: u32, h: u32, covered: bool) -> u64 {
        let updates = if covered { 0 } else { self.hide::<T>(x) };
        let d = self.nodes[x as usize].down;
        self.nodes[h as usize].down = d;
        self.nodes[d as usize].up = h;
        self.len[h as usize] -= 1;
        updates + 1
    }

    /// Undoes every tweak of item `h` since its list began at `first`: the tweaked nodes
    /// still link down to one another, so the run is put back at once, then their options
    /// are unhidden, last tweaked first.
    fn untweak<const T: bool>(&mut self, h: u32, first: u32, covered: bool) {
        let end = self.nodes[h as usize].down;
        self.nodes[h as usize].down = first;
        let mut above = h;
        let mut x = first;
        let mut count = 0;
        while x != end {
            self.nodes[x as usize].up = above;
            count += 1;
            above = x;
            x = self.nodes[x as usize].down;
        }
        self.nodes[end as usize].up = above;
        self.len[h as usize] += count;
        if !covered {
            let mut x = above;
            for _ in 0..count {
                self.unhide::<T>(x);
                x = self.nodes[x as usize].up;
            }
        }
    }

    /// The active primary item to branch on, and its branching degree (see the module docs);
    /// `None` when no primary item is active.
    fn choose(&self) -> Option<(u32, i64)> {
        let mut best = None;
        let (mut best_score, mut best_slack, mut best_len) = (i64::MAX, 0, 0);
        let mut h = self.next[0];
        while h != 0 {
            let bound = self.bound[h as usize];
            let slack = self.slack[h as usize].min(bound);
            let len = self.len[h as usize];
            let score = len as i64 + 1 - (bound - slack) as i64;
            if score < best_score
                || (score == best_score
                    && (slack < best_slack || (slack == best_slack && len > best_len)))
            {
                best = Some(h);
                (best_score, best_slack, best_len) = (score, slack, len);
            }
            h = self.next[h as usize];
        }
        best.map(|h| (h, best_score))
    }

    /// Puts the options chosen on the levels below `level` in `solution`, for a
    /// [`Solution`](super::Solution) to read.
    fn list_solution(&mut self, level: usize) {
        self.solution.clear();
        for &c in &self.choice[..level] {
            if !self.is_header(c) {
                self.solution.push(self.option_of[c as usize] as usize);
            }
        }
    }

    /// Checks every invariant of the links, as Knuth's `sanity()`: each item's list is a
    /// closed doubly linked list of nodes of that item with `len` nodes, and the active items'
    /// list links both ways.
    pub fn sanity(&self) -> Result<(), LinkError> {
        let count = self.nodes.len() as u32;
        for h in 1..=self.item_count {
            let mut nodes = 0;
            let mut q = h;
            loop {
                let down = self.nodes[q as usize].down;
                if down >= count {
                    return Err(LinkError::OutOfBlock {
                        node: q,
                        link: down,
                    });
                }
                if self.nodes[down as usize].up != q {
                    return Err(LinkError::BrokenUpLink {
                        item: h,
                        node: down,
                    });
                }
                if down == h {
                    break;
                }
                if self.nodes[down as usize].top != h {
                    return Err(LinkError::WrongItem {
                        item: h,
                        node: down,
                        names: self.nodes[down as usize].top,
                    });
                }
                nodes += 1;
                if nodes > count {
                    return Err(LinkError::Unclosed { item: h });
                }
                q = down;
            }
            if nodes != self.len[h as usize] {
                return Err(LinkError::WrongLen {
                    item: h,
                    len: self.len[h as usize],
                    nodes,
                });
            }
        }
        let mut h = 0;
        for _ in 0..=self.primary_count {
            let next = self.next[h as usize];
            if self.prev[next as usize] != h {
                return Err(LinkError::BrokenUpLink {
                    item: next,
                    node: next,
                });
            }
            h = next;
            if h == 0 {
                return Ok(());
            }
        }
        Err(LinkError::Unclosed { item: 0 })
    }

    /// Every link, colour, `len`, bound and active item, as numbers: equal fingerprints mean
    /// identical structures. For tests that check that a search restored everything.
    #[doc(hidden)]
    pub fn link_fingerprint(&self) -> Vec<i64> {
        let mut out = Vec::new();
        for n in &self.nodes {
            out.extend([n.up as i64, n.down as i64, n.top as i64, n.color as i64]);
        }
        out.extend(self.len.iter().map(|&l| l as i64));
        out.extend(self.bound.iter().map(|&b| b as i64));
        out.extend(self.next.iter().map(|&n| n as i64));
        out.extend(self.prev.iter().map(|&p| p as i64));
        out
    }
}
