//! Strong links in a row, on Sukaku Explainer's scale: two on one digit joined by a weak link
//! (the turbot fish: skyscraper, two-string kite, turbot crane) and three joined by two.
//!
//! A strong link is a unit where the digit has two places: one of them holds it. Joined end to
//! end by weak links (each inner end sees the next link's start, so at most one of the two holds
//! the digit), the links leave the digit in one of the chain's two outer ends, and a cell seeing
//! both loses it. Sukaku scores a chain by the kinds of unit its strong links lie in and keeps
//! its easiest hint, the one with most eliminations among equals; so does this search, and a
//! pair of places that is a strong link in two units (in a row and a box) counts at its lower
//! score.

use super::state::{Candidates, House, bits};
use super::step::Step;
use super::technique::Technique;

/// The strong links a chain may have, at most.
const MOST_LINKS: usize = 3;

/// The most cells a grouped node may have: a box's row or column on an 8x8-box board.
const MOST_GROUPED: usize = 8;

/// A node of a chain: some of a unit's places of the digit (one, or a group lying in one
/// other unit too, a box's row or a line's box), with its cells at hand for the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Node {
    places: u64,
    cells: [u16; MOST_GROUPED],
    len: u8,
}

impl Node {
    fn new(state: &Candidates, unit: usize, places: u64) -> Node {
        let cells_of = state.tables.unit(unit);
        let mut node = Node {
            places,
            ..Node::default()
        };
        for i in bits(places).take(MOST_GROUPED) {
            node.cells[usize::from(node.len)] = cells_of[i];
            node.len += 1;
        }
        node
    }

    fn cells(&self) -> impl Iterator<Item = usize> + Clone + '_ {
        self.cells[..usize::from(self.len)]
            .iter()
            .map(|&c| usize::from(c))
    }
}

/// A strong link: the digit's places in a unit split into two nodes, `from` and `to`: one of
/// them holds it.
#[derive(Clone, Copy, Debug, Default)]
struct Link {
    unit: usize,
    from: Node,
    to: Node,
}

/// The best chain so far: its score, eliminations, digit and links.
struct Best {
    tenths: u16,
    eliminations: usize,
    digit: u8,
    links: [Link; MOST_LINKS],
}

/// Two strong links on one digit, joined by a weak link: a turbot fish, 4.0 (skyscraper:
/// both links in rows, or both in columns), 4.1 (two-string kite: a row and a column), 4.2
/// (turbot crane: a box), 4.3 (a grouped link, or another kind of unit, an X-Sudoku
/// diagonal).
pub(crate) fn turbot_fish(state: &Candidates, step: &mut Step) -> bool {
    strong_links(state, step, 2, Technique::TurbotFish)
}

/// Three strong links on one digit, joined by two weak links: 5.4 (all in rows, or all in
/// columns), 5.5 (a box among them), 5.6 (rows and columns), 5.7 (a grouped link, or another
/// kind of unit).
pub(crate) fn three_strong_links(state: &Candidates, step: &mut Step) -> bool {
    strong_links(state, step, 3, Technique::ThreeStrongLinks)
}

fn strong_links(state: &Candidates, step: &mut Step, count: usize, technique: Technique) -> bool {
    let t = &*state.tables;
    let mut best: Option<Best> = None;
    let mut links = Vec::new();
    let mut chain = [Link::default(); MOST_LINKS];
    for digit in 1..=t.n as u8 {
        let bit = 1u64 << (digit - 1);
        links.clear();
        for u in 0..t.unit_count() {
            let places = state.positions(u, bit);
            for part in splits(state, u, places) {
                let from = Node::new(state, u, part);
                let to = Node::new(state, u, places & !part);
                links.push(Link { unit: u, from, to });
            }
        }
        extend(state, &links, &mut chain, 0, count, digit, &mut best);
    }
    let Some(best) = best else {
        return false;
    };
    let chain = &best.links[..count];
    step.begin(technique, best.tenths);
    step.digits = 1 << (best.digit - 1);
    for link in chain {
        step.units.push(link.unit);
        for (node, on) in [(link.from, false), (link.to, true)] {
            step.cells.extend(node.cells().map(|c| c as u16));
            step.chain.push((node.cells[0], best.digit, on));
        }
    }
    eliminations(state, chain, best.digit, |c| step.eliminate(c, best.digit));
    true
}

/// The ways `places` of unit `u` split into two nodes, as the first node's places: each node
/// one place, or a group that a second unit holds whole.
fn splits(state: &Candidates, u: usize, places: u64) -> Vec<u64> {
    let t = &*state.tables;
    let unit = t.unit(u);
    if places.count_ones() < 2 {
        return Vec::new();
    }
    let one_node = |part: u64| {
        part.count_ones() == 1 || {
            let first = unit[part.trailing_zeros() as usize] as usize;
            t.units_of(first).iter().any(|&v| {
                v as usize != u && bits(part).all(|i| t.holds(v as usize, unit[i] as usize))
            })
        }
    };
    // Each node holds the unit's places in some other unit, or is a single place.
    let mut candidates: Vec<u64> = bits(places).map(|i| 1u64 << i).collect();
    for i in bits(places) {
        for &v in t.units_of(unit[i] as usize) {
            let v = v as usize;
            if v == u {
                continue;
            }
            let part = bits(places)
                .filter(|&j| t.holds(v, unit[j] as usize))
                .fold(0u64, |m, j| m | 1 << j);
            candidates.push(part);
        }
    }
    candidates.sort_unstable();
    candidates.dedup();
    let fits = |part: u64| part.count_ones() as usize <= MOST_GROUPED && one_node(part);
    candidates.retain(|&part| {
        let rest = places & !part;
        rest != 0 && fits(part) && fits(rest)
    });
    candidates
}

/// Whether no cell of `a` is one of `b` and every one sees every one of `b`.
fn sees_all(state: &Candidates, a: &Node, b: &Node) -> bool {
    let t = &*state.tables;
    a.cells().all(|x| b.cells().all(|y| x != y && t.sees(x, y)))
}

/// Whether the two nodes share a cell.
fn overlap(a: &Node, b: &Node) -> bool {
    a.cells().any(|x| b.cells().any(|y| x == y))
}

/// Extends `chain[..len]` by every link that may follow it, and scores each whole chain.
fn extend(
    state: &Candidates,
    links: &[Link],
    chain: &mut [Link; MOST_LINKS],
    len: usize,
    count: usize,
    digit: u8,
    best: &mut Option<Best>,
) {
    if len == count {
        let chain = &chain[..count];
        let tenths = score(state, chain);
        if best.as_ref().is_some_and(|b| b.tenths < tenths) {
            return;
        }
        let found = eliminations(state, chain, digit, |_| ());
        let better = match best {
            None => found > 0,
            Some(b) => found > 0 && (tenths < b.tenths || found > b.eliminations),
        };
        if better {
            let mut kept = [Link::default(); MOST_LINKS];
            kept[..count].copy_from_slice(chain);
            *best = Some(Best {
                tenths,
                eliminations: found,
                digit,
                links: kept,
            });
        }
        return;
    }
    for link in links {
        if len > 0 && !sees_all(state, &chain[len - 1].to, &link.from) {
            continue;
        }
        let fresh = chain[..len].iter().all(|l| {
            [&l.from, &l.to]
                .into_iter()
                .all(|node| !overlap(node, &link.from) && !overlap(node, &link.to))
        });
        if !fresh {
            continue;
        }
        let link = *link;
        chain[len] = link;
        extend(state, links, chain, len + 1, count, digit, best);
    }
}

/// Calls `each` with every cell outside the chain that holds `digit` and sees every cell of
/// both of its ends; returns how many.
fn eliminations(
    state: &Candidates,
    chain: &[Link],
    digit: u8,
    mut each: impl FnMut(usize),
) -> usize {
    let t = &*state.tables;
    let bit = 1u64 << (digit - 1);
    let (first, last) = (chain[0].from, chain[chain.len() - 1].to);
    let anchor = usize::from(first.cells[0]);
    let mut found = 0;
    for &q in t.peers(anchor) {
        let q = q as usize;
        let inside = chain
            .iter()
            .any(|l| l.from.cells().chain(l.to.cells()).any(|c| c == q));
        if state.cands[q] & bit != 0
            && !inside
            && first.cells().chain(last.cells()).all(|c| t.sees(q, c))
        {
            each(q);
            found += 1;
        }
    }
    found
}

/// Sukaku's score of a chain, in tenths, by the kinds of unit of its links.
fn score(state: &Candidates, chain: &[Link]) -> u16 {
    let t = &*state.tables;
    let houses = chain.iter().map(|l| t.house(l.unit));
    let grouped = chain
        .iter()
        .any(|l| l.from.places.count_ones() > 1 || l.to.places.count_ones() > 1);
    let other = grouped || houses.clone().any(|h| h == House::Diagonal);
    let boxed = houses.clone().any(|h| h == House::Box);
    let first = t.house(chain[0].unit);
    let parallel = houses.clone().all(|h| h == first);
    let base = if chain.len() == 2 { 40 } else { 54 };
    base + match (other, boxed, parallel) {
        (true, _, _) => 3,
        (false, true, _) => {
            if chain.len() == 2 {
                2
            } else {
                1
            }
        }
        (false, false, true) => 0,
        (false, false, false) => {
            if chain.len() == 2 {
                1
            } else {
                2
            }
        }
    }
}
