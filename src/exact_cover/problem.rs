//! Exact-cover problems: items, options, and the builder that checks them.
//!
//! A [`Problem`] is plain data (names and index lists). It is checked once, when built, so that
//! the dancing-links structure made from it ([`crate::exact_cover::Dlx`]) can trust it.
//!
//! Beyond plain exact cover, a problem may use the two extensions of Knuth's later programs:
//! **colours** (dlx2's XCC: a secondary item in an option may carry a colour, written
//! `x:A`; options that share a secondary item must give it the same colour, and then may share
//! it) and **multiplicities** (dlx3: a primary item covered between `lower` and `upper` times,
//! declared with [`ProblemBuilder::primary_with_bounds`]). Such a problem is searched by
//! [`Xcc`](crate::exact_cover::Xcc); [`Problem::is_plain`] tells which engine a problem needs.

use std::collections::HashMap;

use crate::error::{Error, ErrorKind, Result};

/// Whether an item must be covered exactly once or at most once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// Covered by exactly one option of every solution.
    Primary,
    /// Covered by at most one option of every solution.
    Secondary,
}

/// A checked exact-cover problem.
///
/// Items are numbered in the order they were declared; options in the order they were added.
/// Every option names at least one primary item and no item twice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    names: Vec<String>,
    kinds: Vec<ItemKind>,
    primary_count: usize,
    // The items of all options, one after another; option k is
    // `option_items[option_starts[k]..option_starts[k + 1]]`.
    option_items: Vec<usize>,
    option_starts: Vec<usize>,
    // Each item's multiplicity `(lower, upper)`: (1, 1) for a primary item of plain exact cover;
    // (0, 1) for a secondary item, whose bounds are never used.
    bounds: Vec<(u32, u32)>,
    // The colour of each entry of `option_items` (0: none, c: `color_names[c - 1]`); empty
    // while no option has a colour, so that a plain problem carries nothing more.
    colors: Vec<u32>,
    color_names: Vec<String>,
    // The cost of each option (Knuth's dlx5, miniexact's `$`); empty while every option
    // costs 0, so that a problem without costs carries nothing more.
    costs: Vec<u64>,
}

/// The largest cost an option may have: 2^32 - 1, as miniexact reads them, so that the sum
/// over any solution fits in a `u64`.
pub const MAX_OPTION_COST: u64 = u32::MAX as u64;

impl Problem {
    /// The number of items, primary and secondary.
    pub fn item_count(&self) -> usize {
        self.names.len()
    }

    /// The number of primary items.
    pub fn primary_count(&self) -> usize {
        self.primary_count
    }

    /// The number of options.
    pub fn option_count(&self) -> usize {
        self.option_starts.len() - 1
    }

    /// The total number of item occurrences in all options.
    pub fn node_count(&self) -> usize {
        self.option_items.len()
    }

    /// The name of an item.
    pub fn item_name(&self, item: usize) -> &str {
        &self.names[item]
    }

    /// Whether an item is primary or secondary.
    pub fn item_kind(&self, item: usize) -> ItemKind {
        self.kinds[item]
    }

    /// The items of an option, in the order they were given.
    pub fn option(&self, option: usize) -> &[usize] {
        &self.option_items[self.option_starts[option]..self.option_starts[option + 1]]
    }

    /// All options, in order.
    pub fn options(&self) -> impl ExactSizeIterator<Item = &[usize]> + '_ {
        (0..self.option_count()).map(move |k| self.option(k))
    }

    /// The index of the item with this name, if there is one.
    pub fn item_index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// An option written as its item names separated by spaces, as in Knuth's dlx format, with
    /// `:colour` after each coloured item (dlx2's format).
    pub fn option_text(&self, option: usize) -> String {
        let mut text = String::new();
        for (i, &item) in self.option(option).iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(&self.names[item]);
            if let Some(color) = self.option_color(option, i) {
                text.push(':');
                text.push_str(color);
            }
        }
        text
    }

    /// The multiplicity `(lower, upper)` of a primary item: every solution covers it at least
    /// `lower` and at most `upper` times. `(1, 1)` (exactly once) unless declared with
    /// [`ProblemBuilder::primary_with_bounds`]; `None` for a secondary item.
    pub fn item_bounds(&self, item: usize) -> Option<(u32, u32)> {
        (self.kinds[item] == ItemKind::Primary).then(|| self.bounds[item])
    }

    /// The colour of the item at `position` in an option (`x:A` gives `A`), if it has one.
    pub fn option_color(&self, option: usize, position: usize) -> Option<&str> {
        let color = *self.colors.get(self.option_starts[option] + position)?;
        (color > 0).then(|| self.color_names[color as usize - 1].as_str())
    }

    /// The colours of an option's items, by position: 0 for none, `c` for the `c`-th colour
    /// named (1-based, see [`Problem::color_name`]). `None` when no option has a colour.
    pub fn option_color_ids(&self, option: usize) -> Option<&[u32]> {
        if self.colors.is_empty() {
            return None;
        }
        Some(&self.colors[self.option_starts[option]..self.option_starts[option + 1]])
    }

    /// The number of distinct colours.
    pub fn color_count(&self) -> usize {
        self.color_names.len()
    }

    /// The name of colour `c` (1-based, as in [`Problem::option_color_ids`]).
    ///
    /// # Panics
    /// If `c` is 0 or above [`Problem::color_count`].
    pub fn color_name(&self, c: u32) -> &str {
        &self.color_names[c as usize - 1]
    }

    /// Whether some option gives a secondary item a colour.
    pub fn has_colors(&self) -> bool {
        !self.color_names.is_empty()
    }

    /// The cost of an option: 0 unless one was given (see [`ProblemBuilder::set_cost`]).
    pub fn option_cost(&self, option: usize) -> u64 {
        self.costs.get(option).copied().unwrap_or(0)
    }

    /// Whether some option has a cost above 0.
    pub fn has_costs(&self) -> bool {
        self.costs.iter().any(|&c| c > 0)
    }

    /// The cost of a set of options: the sum of their costs.
    ///
    /// # Panics
    /// If an option is not below [`Problem::option_count`].
    pub fn cost_of(&self, options: &[usize]) -> u64 {
        assert!(options.iter().all(|&o| o < self.option_count()));
        options.iter().map(|&o| self.option_cost(o)).sum()
    }

    /// Whether some primary item has bounds other than exactly once.
    pub fn has_multiplicities(&self) -> bool {
        (0..self.item_count()).any(|i| self.item_bounds(i).is_some_and(|b| b != (1, 1)))
    }

    /// Makes this a plain problem of `items` unnamed primary items and no option, keeping the
    /// vectors' memory, for an encoder that builds a problem per search from options it
    /// trusts (see [`Problem::push_trusted_option`]). Unnamed items print as empty names.
    pub(crate) fn reset_unnamed(&mut self, items: usize) {
        self.names.clear();
        self.names.resize(items, String::new());
        self.kinds.clear();
        self.kinds.resize(items, ItemKind::Primary);
        self.bounds.clear();
        self.bounds.resize(items, (1, 1));
        self.primary_count = items;
        self.option_items.clear();
        self.option_starts.clear();
        self.option_starts.push(0);
        self.colors.clear();
        self.color_names.clear();
        self.costs.clear();
    }

    /// Adds an option that the caller guarantees names at least one item, each item once and
    /// below [`Problem::item_count`], unchecked: the checks of [`ProblemBuilder::option`] are
    /// for options read from users.
    pub(crate) fn push_trusted_option(&mut self, items: impl IntoIterator<Item = usize>) {
        self.option_items.extend(items);
        self.option_starts.push(self.option_items.len());
    }

    /// The problem's independent parts, when it has more than one: the items joined by the
    /// options that share them fall into connected parts, and a solution of the whole is a
    /// solution of each part together, so the count of the whole is the product of the
    /// parts' (DXD, Fang et al., counts this way at every node; here only at the start).
    /// Each part keeps its items and options in their order, and only the colours its options
    /// name; secondary items that no option names belong to no part. `None` when the
    /// primary items are all in one part.
    pub(crate) fn components(&self) -> Option<Vec<Problem>> {
        let items = self.item_count();
        // Union-find over the items, by the options' items.
        let mut parent: Vec<usize> = (0..items).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        for option in self.options() {
            let first = root(&mut parent, option[0]);
            for &item in &option[1..] {
                let other = root(&mut parent, item);
                if other != first {
                    parent[other] = first;
                }
            }
        }
        // Parts in the order of their first primary item.
        let mut part_of_root = vec![usize::MAX; items];
        let mut parts = 0;
        for item in (0..items).filter(|&i| self.kinds[i] == ItemKind::Primary) {
            let r = root(&mut parent, item);
            if part_of_root[r] == usize::MAX {
                part_of_root[r] = parts;
                parts += 1;
            }
        }
        if parts <= 1 {
            return None;
        }
        let mut out: Vec<Problem> = (0..parts)
            .map(|_| Problem {
                option_starts: vec![0],
                ..Problem::default()
            })
            .collect();
        // Each item's number in its part.
        let mut renumbered = vec![usize::MAX; items];
        for item in 0..items {
            let part = part_of_root[root(&mut parent, item)];
            let Some(problem) = out.get_mut(part) else {
                continue;
            };
            renumbered[item] = problem.names.len();
            problem.names.push(self.names[item].clone());
            problem.kinds.push(self.kinds[item]);
            problem.bounds.push(self.bounds[item]);
            if self.kinds[item] == ItemKind::Primary {
                problem.primary_count += 1;
            }
        }
        // Each part's colours, numbered from 1 in the order its options name them.
        let mut colour_in_part: Vec<Vec<u32>> = vec![vec![0; self.color_names.len() + 1]; parts];
        for (k, option) in self.options().enumerate() {
            let part = part_of_root[root(&mut parent, option[0])];
            let problem = &mut out[part];
            problem
                .option_items
                .extend(option.iter().map(|&item| renumbered[item]));
            problem.option_starts.push(problem.option_items.len());
            if let Some(colours) = self.option_color_ids(k) {
                for &c in colours {
                    let mapped = &mut colour_in_part[part][c as usize];
                    if c > 0 && *mapped == 0 {
                        problem
                            .color_names
                            .push(self.color_names[c as usize - 1].clone());
                        *mapped = problem.color_names.len() as u32;
                    }
                    problem.colors.push(*mapped);
                }
            }
        }
        for problem in &mut out {
            // A part whose options name no colour is plain: no colour list at all.
            if problem.color_names.is_empty() {
                problem.colors.clear();
            }
        }
        Some(out)
    }

    /// Whether the problem is plain exact cover (no colours, no multiplicities), which
    /// [`Dlx`](crate::exact_cover::Dlx) solves; every problem can be solved by
    /// [`Xcc`](crate::exact_cover::Xcc).
    pub fn is_plain(&self) -> bool {
        !self.has_colors() && !self.has_multiplicities()
    }
}

/// Builds a [`Problem`], rejecting what Algorithm X cannot take.
///
/// ```
/// use quadrille::exact_cover::ProblemBuilder;
///
/// let mut b = ProblemBuilder::new();
/// b.primary("a")?;
/// b.primary("b")?;
/// b.secondary("x")?;
/// b.option_by_names(["a", "x"])?;
/// b.option_by_names(["b"])?;
/// let problem = b.build()?;
/// assert_eq!(problem.option_count(), 2);
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ProblemBuilder {
    problem: Problem,
    index: HashMap<String, usize>,
    // Scratch for the repeated-item check: the option number that last used each item.
    last_seen: Vec<usize>,
    color_index: HashMap<String, u32>,
    // The colours of the option being added, by position (0: none).
    pending_colors: Vec<u32>,
    // The number of colours named before the option being added.
    colors_before: usize,
}

impl ProblemBuilder {
    /// An empty builder.
    pub fn new() -> ProblemBuilder {
        let mut problem = Problem::default();
        problem.option_starts.push(0);
        ProblemBuilder {
            problem,
            index: HashMap::new(),
            last_seen: Vec::new(),
            color_index: HashMap::new(),
            pending_colors: Vec::new(),
            colors_before: 0,
        }
    }

    /// Declares a primary item and returns its index.
    pub fn primary(&mut self, name: &str) -> Result<usize> {
        self.item(name, ItemKind::Primary)
    }

    /// Declares a primary item that every solution must cover at least `lower` and at most
    /// `upper` times (Knuth's dlx3 writes it `lower:upper|name`), and returns its index.
    ///
    /// ```
    /// use quadrille::exact_cover::{ProblemBuilder, Xcc};
    ///
    /// // Choose two or three of the letters a, b, c, d.
    /// let mut b = ProblemBuilder::new();
    /// b.primary_with_bounds("pick", 2, 3)?;
    /// for letter in ["a", "b", "c", "d"] {
    ///     b.primary_with_bounds(letter, 0, 1)?;
    ///     b.option_by_names(["pick", letter])?;
    /// }
    /// let problem = b.build()?;
    /// assert!(problem.has_multiplicities());
    /// assert_eq!(Xcc::new(&problem).count(None).stats.solutions, 6 + 4);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn primary_with_bounds(&mut self, name: &str, lower: u32, upper: u32) -> Result<usize> {
        let reason = if upper == 0 {
            Some("the upper bound is 0")
        } else if lower > upper {
            Some("the lower bound is above the upper bound")
        } else {
            None
        };
        if let Some(reason) = reason {
            return Err(ErrorKind::InvalidBounds {
                name: name.into(),
                lower,
                upper,
                reason,
            }
            .into());
        }
        let item = self.item(name, ItemKind::Primary)?;
        self.problem.bounds[item] = (lower, upper);
        Ok(item)
    }

    /// Declares a secondary item and returns its index.
    pub fn secondary(&mut self, name: &str) -> Result<usize> {
        self.item(name, ItemKind::Secondary)
    }

    /// Declares an item of the given kind and returns its index.
    pub fn item(&mut self, name: &str, kind: ItemKind) -> Result<usize> {
        check_item_name(name)?;
        if self.index.contains_key(name) {
            return Err(ErrorKind::DuplicateItem { name: name.into() }.into());
        }
        let index = self.problem.names.len();
        self.index.insert(name.to_string(), index);
        self.problem.names.push(name.to_string());
        self.problem.kinds.push(kind);
        self.problem.bounds.push(match kind {
            ItemKind::Primary => (1, 1),
            ItemKind::Secondary => (0, 1),
        });
        self.last_seen.push(usize::MAX);
        if kind == ItemKind::Primary {
            self.problem.primary_count += 1;
        }
        Ok(index)
    }

    /// The index of a declared item.
    pub fn item_index(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// Adds an option given by item names and returns its index. A secondary item may carry a
    /// colour, written `name:colour` as in Knuth's dlx2 (`x:red`); see
    /// [`ProblemBuilder::colored_option`].
    ///
    /// On an error nothing is added.
    pub fn option_by_names<I, S>(&mut self, names: I) -> Result<usize>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let start = self.begin_option();
        for token in names {
            let token = token.as_ref();
            let (name, color) = match token.split_once(':') {
                Some((name, color)) => (name, Some(color)),
                None => (token, None),
            };
            let pushed = match self.index.get(name) {
                Some(&item) => self.push_item(item, color),
                None => Err(ErrorKind::UnknownItem { name: name.into() }.into()),
            };
            if let Err(err) = pushed {
                self.abandon_option(start);
                return Err(err);
            }
        }
        self.finish_option(start)
    }

    /// Adds an option given by item indices and returns its index.
    pub fn option<I: IntoIterator<Item = usize>>(&mut self, items: I) -> Result<usize> {
        // Without colours, as the encoders add their many options: no colour per item.
        let start = self.begin_option();
        for item in items {
            if item >= self.problem.names.len() {
                self.abandon_option(start);
                return Err(ErrorKind::UnknownItem {
                    name: format!("#{item}"),
                }
                .into());
            }
            self.problem.option_items.push(item);
        }
        self.finish_option(start)
    }

    /// Adds an option given by item indices, each with its colour or `None`, and returns its
    /// index. Only secondary items take a colour; a colour is any name without blanks, `|` or
    /// `:`. Options that share a secondary item must agree on its colour: two options that give
    /// `x` the colour `red` may both be in a solution, an option with `x:blue` or with plain
    /// `x` may not be beside either.
    ///
    /// ```
    /// use quadrille::exact_cover::{ProblemBuilder, Xcc};
    ///
    /// let mut b = ProblemBuilder::new();
    /// let (p, q) = (b.primary("p")?, b.primary("q")?);
    /// let x = b.secondary("x")?;
    /// b.colored_option([(p, None), (x, Some("red"))])?;
    /// b.colored_option([(q, None), (x, Some("red"))])?;
    /// b.colored_option([(q, None), (x, Some("blue"))])?;
    /// let problem = b.build()?;
    /// assert_eq!(problem.option_text(1), "q x:red");
    /// // p and q both with x red: one solution (q with x blue clashes with p's red).
    /// assert_eq!(Xcc::new(&problem).count(None).stats.solutions, 1);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn colored_option<I, S>(&mut self, items: I) -> Result<usize>
    where
        I: IntoIterator<Item = (usize, Option<S>)>,
        S: AsRef<str>,
    {
        let start = self.begin_option();
        for (item, color) in items {
            let pushed = if item >= self.problem.names.len() {
                Err(ErrorKind::UnknownItem {
                    name: format!("#{item}"),
                }
                .into())
            } else {
                self.push_item(item, color.as_ref().map(AsRef::as_ref))
            };
            if let Err(err) = pushed {
                self.abandon_option(start);
                return Err(err);
            }
        }
        self.finish_option(start)
    }

    /// Pushes one item of the option being added, with its colour (a new colour is named at
    /// once, and forgotten again by `abandon_option` if the option is rejected).
    fn push_item(&mut self, item: usize, color: Option<&str>) -> Result<()> {
        let id = match color {
            None => 0,
            Some(color) => {
                if self.problem.kinds[item] == ItemKind::Primary {
                    return Err(ErrorKind::ColorOnPrimary {
                        name: self.problem.names[item].clone(),
                    }
                    .into());
                }
                check_color_name(color)?;
                match self.color_index.get(color) {
                    Some(&id) => id,
                    None => {
                        self.problem.color_names.push(color.to_string());
                        let id = self.problem.color_names.len() as u32;
                        self.color_index.insert(color.to_string(), id);
                        id
                    }
                }
            }
        };
        self.problem.option_items.push(item);
        self.pending_colors.push(id);
        Ok(())
    }

    /// Starts an option: no items pushed, no colour named by it yet.
    fn begin_option(&mut self) -> usize {
        self.pending_colors.clear();
        self.colors_before = self.problem.color_names.len();
        self.problem.option_items.len()
    }

    /// Forgets the items pushed since `start`, and the colours first named by them.
    fn abandon_option(&mut self, start: usize) {
        self.problem.option_items.truncate(start);
        for name in self.problem.color_names.drain(self.colors_before..) {
            self.color_index.remove(&name);
        }
        self.pending_colors.clear();
    }

    /// Checks the items pushed since `start` and seals them as one option.
    fn finish_option(&mut self, start: usize) -> Result<usize> {
        let option = self.problem.option_count();
        let items = &self.problem.option_items[start..];
        let mut failure = None;
        if items.is_empty() {
            failure = Some(ErrorKind::EmptyOption);
        }
        for &item in items {
            if self.last_seen[item] == option {
                failure = Some(ErrorKind::RepeatedItem {
                    name: self.problem.names[item].clone(),
                });
                break;
            }
            self.last_seen[item] = option;
        }
        if failure.is_none()
            && !items
                .iter()
                .any(|&i| self.problem.kinds[i] == ItemKind::Primary)
        {
            failure = Some(ErrorKind::NoPrimaryInOption);
        }
        if let Some(kind) = failure {
            // Forget this option's marks, so that the same option number can be reused.
            for &item in &self.problem.option_items[start..] {
                if self.last_seen[item] == option {
                    self.last_seen[item] = usize::MAX;
                }
            }
            self.abandon_option(start);
            return Err(kind.into());
        }
        if self.pending_colors.iter().any(|&c| c > 0) {
            // The first coloured option gives every earlier item its colour 0.
            self.problem.colors.resize(start, 0);
            self.problem.colors.extend_from_slice(&self.pending_colors);
        } else if !self.problem.colors.is_empty() {
            self.problem
                .colors
                .resize(self.problem.option_items.len(), 0);
        }
        self.pending_colors.clear();
        self.problem
            .option_starts
            .push(self.problem.option_items.len());
        Ok(option)
    }

    /// The number of options added so far.
    pub fn option_count(&self) -> usize {
        self.problem.option_count()
    }

    /// Gives an option added before a cost, 0 to [`MAX_OPTION_COST`] (every option costs 0
    /// until given one). Costs matter only to the search for the cheapest solutions
    /// ([`cheapest`](crate::exact_cover::cheapest), [`min_cost`](crate::exact_cover::min_cost)); every other search ignores them.
    ///
    /// ```
    /// use quadrille::exact_cover::ProblemBuilder;
    ///
    /// let mut b = ProblemBuilder::new();
    /// b.primary("a")?;
    /// let cheap = b.option_by_names(["a"])?;
    /// let dear = b.option_by_names(["a"])?;
    /// b.set_cost(dear, 7)?;
    /// let problem = b.build()?;
    /// assert_eq!((problem.option_cost(cheap), problem.option_cost(dear)), (0, 7));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn set_cost(&mut self, option: usize, cost: u64) -> Result<()> {
        if option >= self.problem.option_count() {
            return Err(ErrorKind::UnknownOption { option }.into());
        }
        if cost > MAX_OPTION_COST {
            return Err(ErrorKind::InvalidCost {
                token: cost.to_string(),
                reason: "a cost is at most 4294967295",
            }
            .into());
        }
        let costs = &mut self.problem.costs;
        if costs.len() <= option {
            if cost == 0 {
                return Ok(());
            }
            costs.resize(option + 1, 0);
        }
        costs[option] = cost;
        Ok(())
    }

    /// Finishes the problem.
    pub fn build(self) -> Result<Problem> {
        let mut problem = self.problem;
        // Costs are kept for every option once one has any, and not at all otherwise, so that
        // problems with the same costs compare equal however they were given.
        if problem.costs.iter().all(|&c| c == 0) {
            problem.costs.clear();
        } else {
            problem.costs.resize(problem.option_count(), 0);
        }
        if problem.primary_count == 0 {
            return Err(ErrorKind::NoPrimaryItems.into());
        }
        let nodes = 1 + problem.item_count() + problem.option_items.len();
        check_node_count(nodes)?;
        Ok(problem)
    }
}

/// The most nodes (node 0, headers and option nodes) a problem may have: links are 32-bit
/// byte offsets of 16-byte nodes (see `links`), so every offset, and that of the end of the
/// block (where the last option's span ends), must stay below 2^32.
pub(crate) const MAX_NODES: usize = (1 << 28) - 1;

fn check_node_count(nodes: usize) -> Result<()> {
    if nodes > MAX_NODES {
        return Err(Error::new(ErrorKind::TooLarge {
            what: format!("{nodes} nodes (the limit is {MAX_NODES})"),
        }));
    }
    Ok(())
}

/// Colour names follow item names: any non-empty token without blanks, `|` or `:`.
fn check_color_name(color: &str) -> Result<()> {
    let reason = if color.is_empty() {
        Some("it is empty")
    } else if color.chars().any(char::is_whitespace) {
        Some("it contains a blank")
    } else if color.contains('|') {
        Some("it contains '|'")
    } else if color.contains(':') {
        Some("it contains ':'")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(ErrorKind::InvalidColor {
            color: color.into(),
            reason,
        }
        .into()),
        None => Ok(()),
    }
}

/// Item names follow Knuth's dlx1: any non-empty token without blanks, `|` or `:`.
fn check_item_name(name: &str) -> Result<()> {
    let reason = if name.is_empty() {
        Some("it is empty")
    } else if name.chars().any(char::is_whitespace) {
        Some("it contains a blank")
    } else if name.contains('|') {
        Some("it contains '|'")
    } else if name.contains(':') {
        Some("it contains ':'")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(ErrorKind::InvalidItemName {
            name: name.into(),
            reason,
        }
        .into()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builder() -> ProblemBuilder {
        let mut b = ProblemBuilder::new();
        b.primary("a").unwrap();
        b.primary("b").unwrap();
        b.secondary("s").unwrap();
        b
    }

    #[test]
    fn node_count_limit_keeps_byte_offsets_in_32_bits() {
        assert!(check_node_count(MAX_NODES).is_ok());
        let err = check_node_count(MAX_NODES + 1).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::TooLarge { what } if what.contains("268435456")));
        // The end of the block, past the last node, is an offset that fits in a u32.
        assert!(MAX_NODES * 16 <= u32::MAX as usize);
        assert!((MAX_NODES + 1) * 16 > u32::MAX as usize);
    }

    #[test]
    fn rejects_duplicate_item() {
        let mut b = builder();
        let err = b.primary("a").unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::DuplicateItem { name } if name == "a"));
    }

    #[test]
    fn rejects_bad_names() {
        let mut b = ProblemBuilder::new();
        assert!(b.primary("a|b").is_err());
        assert!(b.primary("a:b").is_err());
        assert!(b.primary("").is_err());
        assert!(b.primary("a b").is_err());
    }

    #[test]
    fn rejects_bad_options_and_leaves_nothing_behind() {
        let mut b = builder();
        assert!(matches!(
            b.option_by_names(["a", "zz"]).unwrap_err().kind(),
            ErrorKind::UnknownItem { name } if name == "zz"
        ));
        assert!(matches!(
            b.option_by_names(["a", "s", "a"]).unwrap_err().kind(),
            ErrorKind::RepeatedItem { name } if name == "a"
        ));
        assert!(matches!(
            b.option_by_names(Vec::<&str>::new()).unwrap_err().kind(),
            ErrorKind::EmptyOption
        ));
        assert!(matches!(
            b.option_by_names(["s"]).unwrap_err().kind(),
            ErrorKind::NoPrimaryInOption
        ));
        assert!(b.option([7]).is_err());
        assert_eq!(b.option_count(), 0);
        assert_eq!(b.option_by_names(["a", "s"]).unwrap(), 0);
        assert_eq!(b.option([1, 0]).unwrap(), 1);
        let p = b.build().unwrap();
        assert_eq!(p.option(0), &[0, 2]);
        assert_eq!(p.option(1), &[1, 0]);
        assert_eq!(p.option_text(0), "a s");
    }

    #[test]
    fn rejects_problem_without_primary_items() {
        let mut b = ProblemBuilder::new();
        b.secondary("s").unwrap();
        assert!(matches!(
            b.build().unwrap_err().kind(),
            ErrorKind::NoPrimaryItems
        ));
    }
}
