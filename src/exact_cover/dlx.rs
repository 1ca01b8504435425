//! [`Dlx`]: the links of a plain problem and the search's own state beside them.
//!
//! The links themselves, and every change to them, belong to the `links` module; a `Dlx` adds
//! the choice stack and the preferred options, and the public methods that set the links up
//! between searches. The searches are in `search`, `runs`, `learn`, `split`, `shard`,
//! `estimate` and `parallel`, and `plan` chooses among them.
//!
//! The fields are private to this module: the searches reach them through small inlined
//! methods named after what they do with them (`links` and `links_mut`, `choice` and
//! `set_choice` for the choice stack, `first_tried`, `prefers_any` and `is_preferred`,
//! `memo`), which compile to the field accesses they replace.

use std::sync::{Arc, OnceLock};

use super::links::{LinkError, Links, OptionNode};
use super::matching::Matchings;
use super::memo::Memo;
use super::problem::Problem;
use crate::Result;

/// The dancing-links form of a [`Problem`], ready for [`Dlx::search`] and [`Dlx::run`].
///
/// One `Dlx` serves many searches: every search, and every [`force`](Dlx::force) followed by
/// [`release_all`](Dlx::release_all), leaves the links exactly as they were.
#[derive(Clone)]
pub struct Dlx {
    /// The node block, the forced options and the tracking: all the links' invariants. Never
    /// replaced: the handles on the stacks below are these links'.
    links: Links,
    /// The search's choice stack, one node per level, allocated once (empty when the problem
    /// has no option, and so no level).
    stack: Vec<OptionNode>,
    /// The option each level tried first, when the item chooser rotates the option order
    /// ([`ItemChooser::ROTATES`](super::ItemChooser::ROTATES)): the level is done when its
    /// option list wraps around to it.
    first_tried: Vec<OptionNode>,
    /// Per option, whether a rotating search tries it first in its items' lists (see
    /// [`Dlx::set_preferred`]); empty when none is.
    preferred: Vec<bool>,
    /// Whether and how a count of every solution remembers subproblems (see
    /// [`Dlx::set_memo`]).
    memo: Memo,
    /// The primary items (0-based) in the order a remembering count branches on them with
    /// first-item branching, when the problem's encoder gave one ([`Dlx::set_memo_order`]);
    /// empty: the problem's order.
    memo_order: Arc<[u32]>,
    /// The level of the node where the last plain search stopped at its node budget, its
    /// choices still on `stack` (see [`Dlx::search_resumed`]).
    pub(super) cut_level: usize,
    /// The matchings declared ([`Dlx::set_matchings`]), by header number (0-based).
    matching_groups: Arc<Vec<(Vec<usize>, Vec<usize>)>>,
    /// Their tables, built when a search first needs them (only the learning search at the
    /// easy end does: building them for a 25x25 Sudoku costs as much as 20 of its searches
    /// at the hardness peak, callgrind); shared by clones once built.
    matchings: OnceLock<Arc<Matchings>>,
}

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
        let links = Links::try_new(problem)?;
        // Filled before they are read: a level's slot is set when the level is entered.
        let levels = links.primary_count() + 1;
        let slots = |x| vec![x; levels];
        let stack = links.any_option_node().map_or_else(Vec::new, slots);
        Ok(Dlx {
            first_tried: stack.clone(),
            stack,
            links,
            preferred: Vec::new(),
            memo: Memo::default(),
            memo_order: Arc::new([]),
            cut_level: 0,
            matching_groups: Arc::default(),
            matchings: OnceLock::new(),
        })
    }

    /// Declares matchings: pairs of equally many primary items, `left` and `right` (by the
    /// problem's item numbers), where every option with an item on one side has exactly one
    /// on the other and no two options join the same pair, so that every solution matches the
    /// two sides one to one. A Sudoku row's cells and the row's digits are one: an option
    /// puts one digit in one cell. The learning search ([`Plan::learning`](super::Plan))
    /// then checks Hall's condition on each (Régin's `alldiff`): it backs up as soon as some
    /// cells have fewer digits left between them than they are, and rules out the options
    /// that no perfect matching uses, each with the cells that explain it, so that it learns
    /// from these conflicts as from the others. Other searches ignore them.
    ///
    /// A pair that does not hold, or that is more than 64 items wide, is left out (see
    /// [`Dlx::matchings_kept`]). Replaces any matchings declared before.
    ///
    /// ```
    /// use quadrille::exact_cover::{Dlx, ProblemBuilder};
    ///
    /// // A Latin square of order 3: cell items r{r}c{c}, row items R{r}_{d}, column items
    /// // C{c}_{d}; each row's cells and digits are a matching, and each column's.
    /// let mut b = ProblemBuilder::new();
    /// let cell = |r: usize, c: usize| 3 * r + c;
    /// let row = |r: usize, d: usize| 9 + 3 * r + d;
    /// let col = |c: usize, d: usize| 18 + 3 * c + d;
    /// for i in 0..27 {
    ///     b.primary(&format!("i{i}"))?;
    /// }
    /// for r in 0..3 {
    ///     for c in 0..3 {
    ///         for d in 0..3 {
    ///             b.option([cell(r, c), row(r, d), col(c, d)])?;
    ///         }
    ///     }
    /// }
    /// let mut dlx = Dlx::new(&b.build()?);
    /// let mut groups = Vec::new();
    /// for i in 0..3 {
    ///     groups.push(((0..3).map(|c| cell(i, c)).collect(), (0..3).map(|d| row(i, d)).collect()));
    ///     groups.push(((0..3).map(|r| cell(r, i)).collect(), (0..3).map(|d| col(i, d)).collect()));
    /// }
    /// // A row's digits against its column items do not form a matching: left out.
    /// groups.push(((0..3).map(|d| row(0, d)).collect(), (0..3).map(|c| cell(0, c)).collect()));
    /// groups.push(((0..3).map(|d| row(0, d)).collect(), (0..3).map(|c| col(c, 0)).collect()));
    /// dlx.set_matchings(&groups);
    /// assert_eq!(dlx.matchings_kept(), 7);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn set_matchings(&mut self, groups: &[(Vec<usize>, Vec<usize>)]) {
        let links = &self.links;
        // The problem's item numbers to header numbers (0-based), primary items first.
        let mut header = vec![usize::MAX; links.item_count()];
        for h in links.items() {
            header[links.item_number(h)] = h.number() - 1;
        }
        let to_headers = |items: &Vec<usize>| -> Vec<usize> {
            (items.iter())
                .map(|&i| header.get(i).copied().unwrap_or(usize::MAX))
                .collect()
        };
        self.matching_groups = Arc::new(
            (groups.iter())
                .map(|(left, right)| (to_headers(left), to_headers(right)))
                .collect(),
        );
        self.matchings = OnceLock::new();
    }

    /// The number of matchings declared by [`Dlx::set_matchings`] that hold and are kept.
    pub fn matchings_kept(&self) -> usize {
        self.matching_table().len()
    }

    /// The links, for the searches and the item choosers to read.
    #[inline]
    pub(super) fn links(&self) -> &Links {
        &self.links
    }

    /// The links, for the searches to cover and uncover. The links' own invariants are the
    /// `links` module's; a search undoes its covers newest first, so that it leaves the links
    /// as it found them (see [`Dlx`]). This is also the one way a caller could replace them,
    /// which would leave the nodes on the choice stack pointing into other links: no search
    /// does.
    #[inline]
    pub(super) fn links_mut(&mut self) -> &mut Links {
        &mut self.links
    }

    /// The node of the option chosen at `level` of the search now running (or of the
    /// solution last put on the stack).
    #[inline]
    pub(super) fn choice(&self, level: usize) -> OptionNode {
        self.stack[level]
    }

    /// Records `x` as the option chosen at `level`. The stack has one slot per primary item
    /// and one more, and a search goes no deeper than that.
    #[inline]
    pub(super) fn set_choice(&mut self, level: usize, x: OptionNode) {
        self.stack[level] = x;
    }

    /// The option that a rotating search tried first at `level`: the level is done when its
    /// option list wraps around to it.
    #[inline]
    pub(super) fn first_tried(&self, level: usize) -> OptionNode {
        self.first_tried[level]
    }

    /// Records `x` as the option a rotating search tries first at `level`.
    #[inline]
    pub(super) fn set_first_tried(&mut self, level: usize, x: OptionNode) {
        self.first_tried[level] = x;
    }

    /// Whether any option is preferred ([`Dlx::set_preferred`]).
    #[inline]
    pub(super) fn prefers_any(&self) -> bool {
        !self.preferred.is_empty()
    }

    /// Whether `option` is preferred; only when [`Dlx::prefers_any`].
    #[inline]
    pub(super) fn is_preferred(&self, option: usize) -> bool {
        self.preferred[option]
    }

    /// Whether and how a count of every solution remembers subproblems ([`Dlx::set_memo`]).
    #[inline]
    pub(super) fn memo(&self) -> Memo {
        self.memo
    }

    /// The tables of the matchings declared, built on first use.
    pub(super) fn matching_table(&self) -> &Arc<Matchings> {
        self.matchings.get_or_init(|| {
            let links = &self.links;
            Arc::new(Matchings::new(
                &self.matching_groups,
                links.primary_count(),
                &|k| links.items_of(k).map(|h| h.number() - 1),
                links.option_count(),
            ))
        })
    }

    /// Whether any matching was declared.
    pub(super) fn declares_matchings(&self) -> bool {
        !self.matching_groups.is_empty()
    }

    /// The number of options.
    pub fn option_count(&self) -> usize {
        self.links.option_count()
    }

    /// The number of items.
    pub fn item_count(&self) -> usize {
        self.links.item_count()
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
        self.links.track_dead_ends(on);
    }

    /// Keeps each item's `len` in a byte of its own beside the headers, and the number of
    /// active primary items, so that the MRV and conflict-weighted
    /// [`Branching`](super::Branching)s find the first item of at most one option (a forced move) and the items of two options
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
        self.links.track_forced_items(on);
    }

    /// Sets whether and how [`Dlx::count_all`] and [`Dlx::count_start`] remember the counts
    /// of subproblems (see [`Memo`]; by default they do when a trial shows that subproblems
    /// repeat, in at most [`DEFAULT_MEMORY`](super::DEFAULT_MEMORY) bytes).
    pub fn set_memo(&mut self, memo: Memo) {
        self.memo = memo;
    }

    /// Sets the order in which a remembering count with first-item branching takes the primary
    /// items (0-based numbers, each primary item at most once; the others follow in the
    /// problem's order): an order in which different branches cover the same items, so
    /// that they meet in the same subproblems. Under `auto`, a count with such an order tries
    /// remembering in it (see `memo::ordered_trial_gives_up`). A Sudoku's encoder gives one.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{Dlx, Memo, MemoBranching, MemoMode};
    /// use quadrille::sudoku::{Shape, encode};
    ///
    /// let board = Shape::new(2, 2)?.board();
    /// let mut dlx = Dlx::new(&encode::problem(board));
    /// dlx.set_memo_order(&encode::frontier_order(board));
    /// let memo = Memo { mode: MemoMode::Always, branching: MemoBranching::FirstItem, ..Memo::default() };
    /// assert_eq!(dlx.count_memo(&Budget::unlimited(), &memo).solutions, 288u32.into());
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Panics
    /// If an item is not primary.
    pub fn set_memo_order(&mut self, items: &[usize]) {
        let primary = self.links.primary_count();
        assert!(
            items.iter().all(|&i| i < primary),
            "an item of the order is not primary"
        );
        self.memo_order = items.iter().map(|&i| i as u32).collect();
    }

    /// The order of [`Dlx::set_memo_order`]; empty when none was set.
    #[inline]
    pub(super) fn memo_order(&self) -> &[u32] {
        &self.memo_order
    }

    /// Sets the options that the searches with restarts
    /// ([`Plan::restarts`](super::Plan::restarts)) try first, in every run: when one of them
    /// branches on an item that has a preferred option left, it tries that one before the
    /// others (the others keep their usual order). Empty: none, as built. This is the initial
    /// phase of a SAT solver: a search for a solution *near* a known one prefers the known
    /// solution's options, so that it changes as few as it must. A search in one run keeps
    /// Knuth's order.
    ///
    /// ```
    /// use quadrille::Budget;
    /// use quadrille::exact_cover::{Control, Dlx, Plan, ProblemBuilder, Solution};
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
    ///     let restarting = Plan::new().restarts(Some(Restarts::default()));
    ///     dlx.run(&restarting, &Budget::unlimited(), sink)?;
    ///     assert_eq!(first, [preferred]);
    /// }
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Panics
    /// If an option is not an option of the problem.
    pub fn set_preferred(&mut self, options: &[usize]) {
        let count = self.links.option_count();
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
        self.links.force(option)
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
        self.links.exclude(option)
    }

    /// Undoes [`Dlx::exclude`]`(option)` (one that returned `Some(true)`).
    pub(crate) fn include(&mut self, option: usize) {
        self.links.include(option);
    }

    /// Undoes every [`force`](Dlx::force), restoring the links as built: by copying them back
    /// if [`keep_copy`](Dlx::keep_copy) kept a copy, else by undoing each, newest first.
    pub fn release_all(&mut self) {
        self.links.release_all();
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
        self.links.keep_copy();
    }

    /// Undoes the newest [`force`](Dlx::force)s until only the first `keep` remain.
    pub fn release_to(&mut self, keep: usize) {
        self.links.release_to(keep);
    }

    /// The options forced so far, in order.
    pub fn forced(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.links.forced()
    }

    /// Every link, as numbers: equal fingerprints mean identical structures. For tests that
    /// check that a search restored everything.
    #[doc(hidden)]
    pub fn link_fingerprint(&self) -> Vec<u32> {
        self.links.link_fingerprint()
    }

    /// Checks every invariant of the links, like Knuth's `sanity`: each item's list is a
    /// proper circular doubly linked list whose nodes name the item and whose length is the
    /// item's `len`, and the count of empty primary items is right. Items are named by their
    /// header's node number (1-based, primary items first). Every search checks it at its end
    /// in debug builds.
    pub fn sanity(&self) -> std::result::Result<(), LinkError> {
        self.links.sanity()
    }
}

impl std::fmt::Debug for Dlx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dlx")
            .field("items", &self.links.item_count())
            .field("primary", &self.links.primary_count())
            .field("options", &self.links.option_count())
            .field("nodes", &self.links.node_count())
            .field("forced", &self.links.forced_count())
            .finish()
    }
}
