//! Which item to branch on: the policy behind a small trait, so that others can be compared.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use crate::restart::ConflictWeights;

use super::Dlx;
use super::links::scan::{self, ByteWant, Want};
use super::links::{COVERED, Item, Node};

/// The primary items still to be covered, as an item chooser sees them.
pub(crate) struct ActiveItems<'a> {
    dlx: &'a Dlx,
    /// Every primary item before this one (0-based) is covered: the scans for a forced item
    /// and for MRV's choice start here.
    floor: usize,
}

/// An active primary item and the number of options left in its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ActiveItem {
    /// Its position among the primary items (0-based): a number, which the search checks,
    /// rather than a handle of the links, since a chooser may keep it from one search to
    /// another.
    index: u32,
    /// The number of options that could still cover the item.
    pub len: u32,
}

impl ActiveItem {
    /// Its position among the primary items (0-based).
    #[inline(always)]
    pub(crate) fn index(self) -> usize {
        self.index as usize
    }

    /// The primary item at `index`, with `len` options left.
    #[inline(always)]
    fn new(index: usize, len: u32) -> ActiveItem {
        ActiveItem {
            index: index as u32,
            len,
        }
    }
}

impl<'a> ActiveItems<'a> {
    pub(crate) fn new(dlx: &'a Dlx) -> ActiveItems<'a> {
        ActiveItems { dlx, floor: 0 }
    }

    /// The active items of `dlx`, every primary item before `floor` being covered (the
    /// caller knows it: see `Dlx::search_cut`).
    #[inline(always)]
    pub(crate) fn above(dlx: &'a Dlx, floor: usize) -> ActiveItems<'a> {
        // The item just below: a check of all of them would make a chain quadratic again.
        debug_assert!(
            floor == 0 || dlx.links().primary_headers()[floor - 1].len() & COVERED != 0,
            "an active item below the floor {floor}"
        );
        ActiveItems { dlx, floor }
    }

    /// The active primary items, in the order of their headers (Knuth's item list).
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = ActiveItem> + 'a {
        (self.dlx.links().primary_headers().iter().enumerate())
            .filter(|(_, header)| header.len() & COVERED == 0)
            .map(|(i, header)| ActiveItem::new(i, header.len()))
    }
}

/// Chooses the primary item to branch on at each node of the search.
///
/// It is called only when at least one primary item is active, and must return one of them.
pub(crate) trait ItemChooser {
    /// Whether the search asks [`ItemChooser::first_option`] where to start in the chosen
    /// item's list. When false (the usual), options are tried from the top of the list down,
    /// and the search loop has no rotation to do.
    const ROTATES: bool = false;

    /// Whether the search tells the chooser of its dead ends ([`ItemChooser::dead_end`]).
    const LEARNS: bool = false;

    /// Whether the search counts the items it covers ([`Stats::covers`](super::Stats::covers)),
    /// for Knuth's count of updates.
    const COUNTS_COVERS: bool = false;

    /// Picks an active primary item.
    fn choose(&mut self, items: &ActiveItems<'_>) -> ActiveItem;

    /// Called at a dead end, where some active primary item has no option left, when
    /// [`ItemChooser::LEARNS`] is set.
    #[inline]
    fn dead_end(&mut self, items: &ActiveItems<'_>) {
        let _ = items;
    }

    /// Which of the chosen item's `len` options (`len` >= 1) to try first, counted from the top
    /// of its list; the others follow in list order, wrapping around. Read only when
    /// [`ItemChooser::ROTATES`] is set.
    #[inline]
    fn first_option(&mut self, items: &ActiveItems<'_>, chosen: ActiveItem) -> u32 {
        let _ = (items, chosen);
        0
    }
}

/// Minimum remaining values: the item with the fewest options left, the first such in item
/// order on ties, as Knuth's dlx1 chooses, except that the scan stops at the first item with at
/// most one option: most nodes of a Sudoku search are such forced moves. The scan reads the
/// primary headers in place, eight at a time (see the `scan` module), or with
/// [`Dlx::track_forced_items`](crate::exact_cover::Dlx::track_forced_items) on, the items'
/// `len`s kept in bytes, sixteen at a time.
///
/// With [`Dlx::track_dead_ends`](crate::exact_cover::Dlx::track_dead_ends) on, the search
/// backs up from a node with an empty item before asking for a choice, so the first item with
/// one option is then exactly Knuth's choice. Without it, an empty item further down the list
/// is found only at the next node, which makes the tree a little larger (18% more nodes on 6x10
/// pentominoes) but every node cheaper.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Mrv;

impl ItemChooser for Mrv {
    #[inline]
    fn choose(&mut self, items: &ActiveItems<'_>) -> ActiveItem {
        if let Some(forced) = items.forced() {
            return forced;
        }
        Mrv::unforced(items)
    }
}

impl Mrv {
    /// The choice where no item is forced: the first item of two options, else the first of
    /// fewest. The remembering count calls it after its own scan for forced items.
    #[inline(always)]
    pub(crate) fn unforced(items: &ActiveItems<'_>) -> ActiveItem {
        let links = items.dlx.links();
        let floor = items.floor;
        let headers = &links.primary_headers()[floor..];
        // The first item of two options, from the `len`s kept in bytes when there are some.
        let two = if links.tracks_bytes() {
            scan::first_byte(&links.primary_byte_lens()[floor..], ByteWant::Equal(2))
        } else {
            scan::first(headers, Want::Equal(2))
        };
        let i = two.unwrap_or_else(|| first_minimum(headers));
        ActiveItem::new(floor + i, headers[i].len())
    }
}

impl ActiveItems<'_> {
    /// The item `chosen` when the search branches on it, `None` for a forced move (one option
    /// or none), where there is no order of options to choose.
    #[inline(always)]
    fn branching_item(&self, chosen: ActiveItem) -> Option<Item> {
        (chosen.len > 1).then(|| self.dlx.links().primary_item(chosen.index()))
    }

    /// The first active item with at most one option left, if any: from the `len`s kept in
    /// bytes ([`Dlx::track_forced_items`]), else from the headers.
    #[inline(always)]
    fn forced(&self) -> Option<ActiveItem> {
        let links = self.dlx.links();
        let floor = self.floor;
        let i = floor
            + if links.tracks_bytes() {
                scan::first_byte(&links.primary_byte_lens()[floor..], ByteWant::AtMostOne)?
            } else {
                scan::first(&links.primary_headers()[floor..], Want::AtMostOne)?
            };
        // Without a panic: a search that reads no `len` then reads no header here.
        let len = (links.primary_headers().get(i)).map_or(0, Node::len);
        Some(ActiveItem::new(i, len))
    }
}

/// The index of the first header of minimum `len`, when every active item has at least three
/// options (see [`Mrv`]). `headers` must not be empty; a covered item's `len` has [`COVERED`]
/// set and so never wins.
#[inline]
///
/// With no item of one option, the minimum is most often 2 (at every such node of the first
/// 2,000 17-clue and forum-hardest puzzles): [`Mrv`] looks for the first item of two options
/// before it calls this, to spare the scan for the minimum.
fn first_minimum(headers: &[Node]) -> usize {
    let low = scan::minimum(headers);
    scan::first(headers, Want::Equal(low)).expect("the minimum is an entry")
}

/// The item choice of a restarting search ([`Branching::ConflictWeighted`]): minimum remaining
/// values, ties broken by conflicts and then at random, options tried least constraining
/// first. Items with at most one option are taken as [`Mrv`] takes them: there is nothing to
/// choose in a forced move. Where the search branches:
///
/// - **Conflicts.** Each primary item has a weight, bumped whenever the item runs out of
///   options at a dead end; among the items of fewest options, the heaviest is chosen. The
///   bump grows by `ConflictWeights::BUMP_GROWTH` at every dead end, so recent conflicts weigh
///   more (the decay of VSIDS in SAT solvers, and the weighted degree of Boussemart et al.,
///   2004). Weights persist across restarts: each run starts where the last ones kept failing.
/// - **Least constraining option first**: the option whose other items lose the fewest options
///   when it is chosen; the rest follow in list order, wrapping around.
/// - **Random ties**, in both choices: this makes the run time a random variable with a short
///   typical run, which restarts turn into a short run time (Gomes, Selman, Crato and Kautz).
///
/// Measured while it was built, with switches that were then removed, so no command of the
/// tool repeats them (random 25x25 Sudoku puzzles, counting to 2, nodes per puzzle on average;
/// the unit of the cutoffs was 1,000): without weights 52,391 nodes against 11,900
/// with them (50 puzzles, 380 blanks); random option order about three times the nodes of
/// least-constraining first (39,295 against 11,900, same set); a bump that grows 5% per dead
/// end against a constant one, 31,771 against 46,168 (200 puzzles, 360 blanks).
///
/// Seeded with `rand_pcg::Pcg64`: the same seed gives the same choices.
///
/// [`Branching::ConflictWeighted`]: crate::exact_cover::Branching::ConflictWeighted
#[derive(Clone, Debug)]
pub(crate) struct ConflictMrv {
    rng: Pcg64,
    /// Each primary item's weight, by position among the primary items.
    weights: ConflictWeights,
}

impl ConflictMrv {
    /// A chooser whose random choices follow from `seed`, with no weights yet.
    pub fn new(seed: u64) -> ConflictMrv {
        ConflictMrv {
            rng: Pcg64::seed_from_u64(seed),
            weights: ConflictWeights::new(0),
        }
    }

    /// Among the items of `len` options, the index of the heaviest, ties broken at random;
    /// `None` if there is no such item.
    #[inline]
    fn heaviest(&mut self, headers: &[Node], len: u32) -> Option<usize> {
        let mut heaviest = Heaviest::new();
        let (weights, rng) = (self.weights.as_slice(), &mut self.rng);
        scan::for_each(headers, Want::Equal(len), |i| {
            heaviest.offer(i, weights, rng)
        });
        heaviest.best()
    }
}

impl ItemChooser for ConflictMrv {
    const ROTATES: bool = true;
    const LEARNS: bool = true;

    #[inline]
    fn choose(&mut self, items: &ActiveItems<'_>) -> ActiveItem {
        if let Some(forced) = items.forced() {
            return forced;
        }
        let links = items.dlx.links();
        let headers = links.primary_headers();
        self.weights.fit(headers.len());
        // The minimum is most often 2 (see `first_minimum`): look at the items of two options
        // first, and for the minimum only if there are none. The ties are met in the same
        // order either way, so the random choices are the same.
        let two = if links.tracks_bytes() {
            // The `len`s kept in bytes, 16 to a vector (see `Dlx::track_forced_items`).
            let lens = links.primary_byte_lens();
            let (weights, rng) = (self.weights.as_slice(), &mut self.rng);
            let mut heaviest = Heaviest::new();
            scan::for_each_byte(lens, ByteWant::Equal(2), |i| {
                heaviest.offer(i, weights, rng)
            });
            heaviest.best()
        } else {
            self.heaviest(headers, 2)
        };
        let best = two.unwrap_or_else(|| {
            let low = scan::minimum(headers);
            (self.heaviest(headers, low)).expect("the minimum is an entry")
        });
        ActiveItem::new(best, headers[best].len())
    }

    #[inline]
    fn first_option(&mut self, items: &ActiveItems<'_>, chosen: ActiveItem) -> u32 {
        let Some(h) = items.branching_item(chosen) else {
            return 0;
        };
        let links = items.dlx.links();
        if let Some(k) = preferred_position(items.dlx, h) {
            return k;
        }
        let (mut best, mut best_removed, mut ties) = (0, u32::MAX, 0u32);
        let mut next = links.first_option(h);
        let mut k = 0;
        while let Some(x) = next {
            // The options that choosing x takes from its other items.
            let removed: u32 = (links.other_items(x))
                .map(|i| links.options_left(i).saturating_sub(1))
                .sum();
            if removed < best_removed {
                (best, best_removed, ties) = (k, removed, 1);
            } else if removed == best_removed {
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    best = k;
                }
            }
            k += 1;
            next = links.next_option(x);
        }
        best
    }

    #[inline]
    fn dead_end(&mut self, items: &ActiveItems<'_>) {
        let links = items.dlx.links();
        let headers = links.primary_headers();
        self.weights.fit(headers.len());
        let empty = if links.tracks_bytes() {
            scan::first_byte(links.primary_byte_lens(), ByteWant::Equal(0))
        } else {
            scan::first(headers, Want::Equal(0))
        };
        if let Some(i) = empty {
            self.weights.bump(i);
        }
    }
}

/// The heaviest of the items offered, ties broken at random.
struct Heaviest {
    best: usize,
    best_weight: f64,
    ties: u32,
}

impl Heaviest {
    #[inline(always)]
    fn new() -> Heaviest {
        Heaviest {
            best: 0,
            best_weight: f64::NEG_INFINITY,
            ties: 0,
        }
    }

    /// Offers the item of index `i` among the primary items.
    #[inline(always)]
    fn offer(&mut self, i: usize, weights: &[f64], rng: &mut Pcg64) {
        let weight = weights[i];
        if weight > self.best_weight {
            (self.best, self.best_weight, self.ties) = (i, weight, 1);
        } else if weight == self.best_weight {
            // Reservoir sampling: each tie is kept with probability 1 / ties.
            self.ties += 1;
            if rng.random_range(0..self.ties) == 0 {
                self.best = i;
            }
        }
    }

    /// The index of the item chosen, if any was offered.
    #[inline(always)]
    fn best(&self) -> Option<usize> {
        (self.ties > 0).then_some(self.best)
    }
}

/// The item choice of a fill at the easy end of large grids: the first active item in item
/// order (on a Sudoku grid, the first open cell in reading order) while it stands before
/// `until`, [`Mrv`]'s choice from there on, and a forced item (one option or none) first at
/// every node; options in list order (on a Sudoku grid, the digits in order).
///
/// Filling rows in order leaves the last open cells together in the last rows, where Hall's
/// condition on the columns and boxes (the learning search's check at the easy end) sees what
/// they miss; the fewest-options order with random ties scatters them over the grid, where an
/// early choice's fault shows only near the bottom (`sh benches/peers/easy_end.sh`, the DLX
/// rows).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReadingOrder {
    until: usize,
}

impl ReadingOrder {
    /// Reading order while the first active item stands before the primary item `until`.
    pub(crate) fn new(until: usize) -> ReadingOrder {
        ReadingOrder { until }
    }

    /// The first active item, if it stands before `until`; called with no item forced.
    #[inline]
    pub(crate) fn reading(&self, items: &ActiveItems<'_>) -> Option<ActiveItem> {
        let headers = items.dlx.links().primary_headers();
        let i = scan::first(headers, Want::Active).filter(|&i| i < self.until)?;
        Some(ActiveItem::new(i, headers[i].len()))
    }
}

impl ItemChooser for ReadingOrder {
    #[inline]
    fn choose(&mut self, items: &ActiveItems<'_>) -> ActiveItem {
        if let Some(forced) = items.forced() {
            return forced;
        }
        self.reading(items).unwrap_or_else(|| Mrv::unforced(items))
    }
}

/// [`Mrv`], with the items covered counted, for Knuth's statistics
/// ([`Branching::Knuth`](crate::exact_cover::Branching::Knuth)). With dead ends tracked,
/// the first item of one option is the first of minimum `len`, so this is dlx1's choice.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KnuthMrv;

impl ItemChooser for KnuthMrv {
    const COUNTS_COVERS: bool = true;

    #[inline]
    fn choose(&mut self, items: &ActiveItems<'_>) -> ActiveItem {
        Mrv.choose(items)
    }
}

/// The first active item, whatever its length: Algorithm X without a heuristic. Useful only to
/// show how much the choice matters.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FirstItem;

impl ItemChooser for FirstItem {
    #[inline]
    fn choose(&mut self, items: &ActiveItems<'_>) -> ActiveItem {
        items
            .iter()
            .next()
            .expect("the search asks only while some primary item is active")
    }
}

/// Where the first preferred option ([`Dlx::set_preferred`]) stands in the list of the item
/// `h`, counted from the top; `None` when none is preferred.
///
/// [`Dlx::set_preferred`]: crate::exact_cover::Dlx::set_preferred
#[inline]
fn preferred_position(dlx: &Dlx, h: Item) -> Option<u32> {
    if !dlx.prefers_any() {
        return None;
    }
    let links = dlx.links();
    let mut next = links.first_option(h);
    let mut k = 0;
    while let Some(x) = next {
        if dlx.is_preferred(links.option_of(x)) {
            return Some(k);
        }
        k += 1;
        next = links.next_option(x);
    }
    None
}
