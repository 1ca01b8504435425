//! Exact-cover problems: items, options, and the builder that checks them.
//!
//! A [`Problem`] is plain data (names and index lists). It is checked once, when built, so that
//! the dancing-links structure made from it ([`crate::exact_cover::Dlx`]) can trust it.

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
}

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

    /// An option written as its item names separated by spaces, as in Knuth's dlx format.
    pub fn option_text(&self, option: usize) -> String {
        let mut text = String::new();
        for (i, &item) in self.option(option).iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(&self.names[item]);
        }
        text
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
        }
    }

    /// Declares a primary item and returns its index.
    pub fn primary(&mut self, name: &str) -> Result<usize> {
        self.item(name, ItemKind::Primary)
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

    /// Adds an option given by item names and returns its index.
    ///
    /// On an error nothing is added, and the error's column (when it concerns one name) is the
    /// 1-based position of that name within the option.
    pub fn option_by_names<I, S>(&mut self, names: I) -> Result<usize>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let start = self.problem.option_items.len();
        for name in names {
            let name = name.as_ref();
            match self.index.get(name) {
                Some(&item) => self.problem.option_items.push(item),
                None => {
                    self.problem.option_items.truncate(start);
                    return Err(ErrorKind::UnknownItem { name: name.into() }.into());
                }
            }
        }
        self.finish_option(start)
    }

    /// Adds an option given by item indices and returns its index.
    pub fn option<I: IntoIterator<Item = usize>>(&mut self, items: I) -> Result<usize> {
        let start = self.problem.option_items.len();
        for item in items {
            if item >= self.problem.names.len() {
                self.problem.option_items.truncate(start);
                return Err(ErrorKind::UnknownItem {
                    name: format!("#{item}"),
                }
                .into());
            }
            self.problem.option_items.push(item);
        }
        self.finish_option(start)
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
            self.problem.option_items.truncate(start);
            return Err(kind.into());
        }
        self.problem
            .option_starts
            .push(self.problem.option_items.len());
        Ok(option)
    }

    /// The number of options added so far.
    pub fn option_count(&self) -> usize {
        self.problem.option_count()
    }

    /// Finishes the problem.
    pub fn build(self) -> Result<Problem> {
        let problem = self.problem;
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
