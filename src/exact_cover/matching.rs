//! Matchings declared on a problem: pairs of item sets that every solution matches one to one,
//! such as a Sudoku row's cells and the row's digits. The learning search keeps, for each, the
//! options still free as a bipartite graph of bitsets and checks Hall's condition on it (see
//! the `learn` module's `hall`), which tells it what the item counts of Dancing Links cannot:
//! that k cells of a row share fewer than k digits, or that k cells take k digits between
//! them, so no other cell of the row may.
//!
//! This module holds what does not change during a search: which options join which pair of
//! items in which matching.

/// No option joins this pair of items.
pub(crate) const NO_OPTION: u32 = u32::MAX;

/// The widest matching kept: a side's free options are the bits of one word.
pub(crate) const MAX_WIDTH: usize = 64;

/// The position of an option with two items on one side of a matching (no position is).
const TWICE: u8 = u8::MAX;

/// One option's place in one matching: the matching, and the positions of its two items.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Member {
    pub(crate) group: u32,
    pub(crate) left: u8,
    pub(crate) right: u8,
}

/// The matchings of a problem, fixed when they are declared.
#[derive(Clone, Debug, Default)]
pub(crate) struct Matchings {
    /// Each matching's width: its items on each side.
    widths: Vec<u8>,
    /// Where each matching's left items start in a flat array of them.
    left_start: Vec<u32>,
    /// Where each matching's table of options by (left, right) starts.
    edge_start: Vec<u32>,
    /// The option joining each pair, or [`NO_OPTION`].
    edges: Vec<u32>,
    /// The matchings each option is in: `members[member_start[k]..member_start[k + 1]]`.
    member_start: Vec<u32>,
    members: Vec<Member>,
}

impl Matchings {
    /// The matchings among `groups` (each a list of left items and a list of right items, by
    /// item number) that hold in `problem_options` (the items of each option): both sides as
    /// wide, at most [`MAX_WIDTH`], every item primary (below `primary`) and in no other side
    /// of the same matching, every option with an item of a matching having exactly one item
    /// on each side, and no two options joining the same pair. Others are left out.
    pub(crate) fn new<F, I>(
        groups: &[(Vec<usize>, Vec<usize>)],
        primary: usize,
        problem_options: &F,
        option_count: usize,
    ) -> Matchings
    where
        F: Fn(usize) -> I,
        I: Iterator<Item = usize>,
    {
        // Each item's places: (matching, side is right, position).
        let mut places: Vec<Vec<(u32, bool, u8)>> = vec![Vec::new(); primary];
        let mut valid: Vec<bool> = (groups.iter())
            .map(|(left, right)| {
                left.len() == right.len()
                    && !left.is_empty()
                    && left.len() <= MAX_WIDTH
                    && left.iter().chain(right).all(|&i| i < primary)
            })
            .collect();
        for (g, (left, right)) in groups.iter().enumerate() {
            if !valid[g] {
                continue;
            }
            for (side, items) in [(false, left), (true, right)] {
                for (pos, &i) in items.iter().enumerate() {
                    if places[i].iter().any(|&(h, _, _)| h == g as u32) {
                        valid[g] = false;
                    }
                    places[i].push((g as u32, side, pos as u8));
                }
            }
        }
        // Each option's (matching, left, right): `None` on a side it has no item of, `TWICE`
        // on a side it has two of.
        let mut touched: Vec<(u32, Option<u8>, Option<u8>)> = Vec::new();
        let touch = |k: usize, touched: &mut Vec<(u32, Option<u8>, Option<u8>)>| {
            touched.clear();
            for i in problem_options(k).filter(|&i| i < primary) {
                for &(g, right, pos) in &places[i] {
                    let at = match touched.iter().position(|t| t.0 == g) {
                        Some(at) => at,
                        None => {
                            touched.push((g, None, None));
                            touched.len() - 1
                        }
                    };
                    let t = &mut touched[at];
                    let slot = if right { &mut t.2 } else { &mut t.1 };
                    *slot = if slot.is_some() {
                        Some(TWICE)
                    } else {
                        Some(pos)
                    };
                }
            }
        };
        // Which hold: every option with both sides, each once, and no pair joined twice (the
        // pairs seen so far, a word of right positions per left item).
        let left_base: Vec<usize> = (groups.iter())
            .scan(0, |base, (left, _)| {
                let at = *base;
                *base += left.len();
                Some(at)
            })
            .collect();
        let mut joined = vec![0u64; groups.iter().map(|(left, _)| left.len()).sum()];
        let mut member_count = 0;
        for k in 0..option_count {
            touch(k, &mut touched);
            for &(g, left, right) in &touched {
                let g = g as usize;
                match (left, right) {
                    (Some(left), Some(right)) if left != TWICE && right != TWICE => {
                        let seen = &mut joined[left_base[g] + usize::from(left)];
                        if *seen >> right & 1 != 0 {
                            valid[g] = false;
                        }
                        *seen |= 1 << right;
                        member_count += 1;
                    }
                    _ => valid[g] = false,
                }
            }
        }
        // The tables of those that hold, numbered in order.
        let mut number = vec![u32::MAX; groups.len()];
        let mut m = Matchings::default();
        let mut left_count = 0;
        for (g, (left, _)) in groups.iter().enumerate() {
            if valid[g] {
                number[g] = m.widths.len() as u32;
                m.left_start.push(left_count);
                left_count += left.len() as u32;
                m.edge_start.push(m.edges.len() as u32);
                m.widths.push(left.len() as u8);
                m.edges
                    .extend(std::iter::repeat_n(NO_OPTION, left.len() * left.len()));
            }
        }
        m.member_start.reserve_exact(option_count + 1);
        m.members.reserve_exact(member_count);
        m.member_start.push(0);
        for k in 0..option_count {
            touch(k, &mut touched);
            for &(g, left, right) in &touched {
                let h = number[g as usize];
                if h == u32::MAX {
                    continue;
                }
                let (Some(left), Some(right)) = (left, right) else {
                    unreachable!("every option of a matching that holds has both sides")
                };
                let edge = m.edge_index(h, left, right);
                m.edges[edge] = k as u32;
                m.members.push(Member {
                    group: h,
                    left,
                    right,
                });
            }
            m.member_start.push(m.members.len() as u32);
        }
        m
    }

    /// The number of matchings.
    pub(crate) fn len(&self) -> usize {
        self.widths.len()
    }

    /// Whether there is none.
    pub(crate) fn is_empty(&self) -> bool {
        self.widths.is_empty()
    }

    /// Matching `g`'s width.
    #[inline]
    pub(crate) fn width(&self, g: u32) -> usize {
        usize::from(self.widths[g as usize])
    }

    /// The left items of every matching, one after another: where matching `g`'s begin.
    #[inline]
    pub(crate) fn left_start(&self, g: u32) -> usize {
        self.left_start[g as usize] as usize
    }

    /// The number of left items of all matchings together.
    pub(crate) fn left_count(&self) -> usize {
        self.widths.iter().map(|&w| usize::from(w)).sum()
    }

    #[inline]
    fn edge_index(&self, g: u32, left: u8, right: u8) -> usize {
        self.edge_start[g as usize] as usize
            + usize::from(left) * self.width(g)
            + usize::from(right)
    }

    /// The option joining left item `left` and right item `right` of matching `g`, or
    /// [`NO_OPTION`].
    #[inline]
    pub(crate) fn option(&self, g: u32, left: u8, right: u8) -> u32 {
        self.edges[self.edge_index(g, left, right)]
    }

    /// The matchings option `k` is in.
    #[inline]
    pub(crate) fn members(&self, k: u32) -> &[Member] {
        let k = k as usize;
        &self.members[self.member_start[k] as usize..self.member_start[k + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The matchings of `groups` over options given as lists of items.
    fn kept(groups: &[(Vec<usize>, Vec<usize>)], options: &[&[usize]], primary: usize) -> usize {
        Matchings::new(
            groups,
            primary,
            &|k: usize| options[k].iter().copied(),
            options.len(),
        )
        .len()
    }

    #[test]
    fn a_matching_holds_only_if_every_option_joins_one_pair_of_its_own() {
        // Items 0, 1 (left) against 2, 3 (right); item 4 is another.
        let pair = vec![(vec![0, 1], vec![2, 3])];
        assert_eq!(kept(&pair, &[&[0, 2], &[0, 3], &[1, 2], &[1, 3, 4]], 5), 1);
        // An option with no right item, or two left items.
        assert_eq!(kept(&pair, &[&[0, 2], &[1]], 5), 0);
        assert_eq!(kept(&pair, &[&[0, 1, 2], &[1, 3]], 5), 0);
        // Two options joining the same pair.
        assert_eq!(kept(&pair, &[&[0, 2], &[0, 2, 4], &[1, 3]], 5), 0);
        // Sides of different widths, an item on both sides, a secondary item.
        assert_eq!(kept(&[(vec![0, 1], vec![2])], &[&[0, 2]], 5), 0);
        assert_eq!(kept(&[(vec![0, 1], vec![1, 2])], &[&[0, 1]], 5), 0);
        assert_eq!(kept(&pair, &[&[0, 2]], 3), 0);
        // A bad matching leaves a good one alone.
        let two = vec![(vec![0, 1], vec![2, 3]), (vec![0, 4], vec![2, 3])];
        assert_eq!(kept(&two, &[&[0, 2], &[0, 3], &[1, 2], &[1, 3]], 5), 1);
    }
}
