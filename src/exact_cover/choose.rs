//! Which item to branch on: the policy behind a small trait, so that others can be compared.

use super::links::{COVERED, Dlx, Node, STRIDE};
use super::scan::{self, Want};

/// The primary items still to be covered, as an item chooser sees them.
pub struct ActiveItems<'a> {
    dlx: &'a Dlx,
}

/// An active primary item and the number of options left in its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActiveItem {
    pub(crate) header: u32,
    /// The number of options that could still cover the item.
    pub len: u32,
}

impl ActiveItem {
    /// The item's number in the [`Problem`](crate::exact_cover::Problem).
    pub fn item(self, items: &ActiveItems<'_>) -> usize {
        items.dlx.item_of_header[(self.header / STRIDE) as usize] as usize
    }
}

impl<'a> ActiveItems<'a> {
    pub(crate) fn new(dlx: &'a Dlx) -> ActiveItems<'a> {
        ActiveItems { dlx }
    }

    /// The active primary items, in the order of their headers (Knuth's item list).
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = ActiveItem> + 'a {
        (self.dlx.primary_headers().iter().enumerate())
            .filter(|(_, header)| header.top & COVERED == 0)
            .map(|(i, header)| ActiveItem {
                header: header_of(i),
                len: header.top,
            })
    }
}

/// The header offset of the `i`-th primary item (0-based).
#[inline(always)]
fn header_of(i: usize) -> u32 {
    (i as u32 + 1) * STRIDE
}

/// Chooses the primary item to branch on at each node of the search.
///
/// It is called only when at least one primary item is active, and must return one of them.
pub trait ItemChooser {
    /// Picks an active primary item.
    fn choose(&mut self, items: &ActiveItems<'_>) -> ActiveItem;
}

/// Minimum remaining values: the item with the fewest options left, the first such in item
/// order on ties, as Knuth's dlx1 chooses, except that the scan stops at the first item with at
/// most one option: most nodes of a Sudoku search are such forced moves. The scan reads the
/// primary headers in place, eight at a time (see the `scan` module).
///
/// With [`Dlx::track_dead_ends`](crate::exact_cover::Dlx::track_dead_ends) on, the search
/// backs up from a node with an empty item before asking for a choice, so the first item with
/// one option is then exactly Knuth's choice. Without it, an empty item further down the list
/// is found only at the next node, which makes the tree a little larger (18% more nodes on 6x10
/// pentominoes) but every node cheaper.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mrv;

impl ItemChooser for Mrv {
    #[inline]
    fn choose(&mut self, items: &ActiveItems<'_>) -> ActiveItem {
        let headers = items.dlx.primary_headers();
        let i = first_minimum(headers);
        ActiveItem {
            header: header_of(i),
            len: headers[i].top,
        }
    }
}

/// The index of the first header whose `len` is at most 1, or else of the first of minimum
/// `len` (see [`Mrv`]). `headers` must not be empty; a covered item's `len` has [`COVERED`]
/// set and so never wins.
#[inline]
fn first_minimum(headers: &[Node]) -> usize {
    if let Some(i) = scan::first(headers, Want::AtMostOne) {
        return i;
    }
    // With no item of one option, the minimum is most often 2 (at every such node of the first
    // 2,000 17-clue and forum-hardest puzzles): the first item of two options is then the
    // choice, without a scan for the minimum.
    if let Some(i) = scan::first(headers, Want::Equal(2)) {
        return i;
    }
    let low = scan::minimum(headers);
    scan::first(headers, Want::Equal(low)).expect("the minimum is an entry")
}

/// The first active item, whatever its length: Algorithm X without a heuristic. Useful only to
/// show how much the choice matters.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstItem;

impl ItemChooser for FirstItem {
    #[inline]
    fn choose(&mut self, items: &ActiveItems<'_>) -> ActiveItem {
        items
            .iter()
            .next()
            .expect("the search asks only while some primary item is active")
    }
}
