//! Random small exact-cover problems with colours and multiplicities, for the tests that hold
//! an engine to the brute force ([`super::oracle`]): the colour search, its remembering count
//! and the cheapest search.

use proptest::prelude::*;
use quadrille::exact_cover::{Problem, ProblemBuilder};

/// A random small problem: primary items with random bounds (exactly once for about half of
/// them), secondary items, and options whose secondary items carry one of two colours or none.
#[derive(Clone, Debug)]
pub struct Random {
    /// `(lower, upper)` of each primary item.
    pub bounds: Vec<(u32, u32)>,
    pub secondary: usize,
    pub options: Vec<RandomOption>,
}

/// An option: its primary items, and its secondary items with a colour (0: none).
pub type RandomOption = (Vec<usize>, Vec<(usize, u32)>);

pub fn random_problem(colours: bool, multiplicities: bool) -> impl Strategy<Value = Random> {
    random_problem_of(colours, multiplicities, 4, 11)
}

/// [`random_problem`] with up to `primary` primary items and `options` options.
pub fn random_problem_of(
    colours: bool,
    multiplicities: bool,
    primary: usize,
    options: usize,
) -> impl Strategy<Value = Random> {
    let bounds = (0u32..3, 0u32..3, any::<bool>()).prop_map(move |(lower, extra, plain)| {
        if plain || !multiplicities {
            (1, 1)
        } else {
            (lower, (lower + extra).max(1))
        }
    });
    (prop::collection::vec(bounds, 1..=primary), 0usize..4).prop_flat_map(
        move |(bounds, secondary)| {
            let primary = bounds.len();
            let option = (
                prop::collection::btree_set(0..primary, 1..=primary.min(3)),
                prop::collection::btree_map(0..secondary.max(1), 0u32..3, 0..=secondary),
            )
                .prop_map(move |(p, s)| {
                    let s = (s.into_iter())
                        .filter(|&(item, _)| item < secondary)
                        .map(|(item, c)| (item, if colours { c } else { 0 }))
                        .collect();
                    (p.into_iter().collect(), s)
                });
            (
                Just(bounds),
                Just(secondary),
                prop::collection::vec(option, 0..=options),
            )
                .prop_map(|(bounds, secondary, options)| Random {
                    bounds,
                    secondary,
                    options,
                })
        },
    )
}

impl Random {
    pub fn problem(&self) -> Problem {
        self.priced(&[])
    }

    /// The problem with its option `k` costing `costs[k]` (no cost past the end of `costs`).
    pub fn priced(&self, costs: &[u64]) -> Problem {
        let mut b = ProblemBuilder::new();
        let primary: Vec<usize> = (self.bounds.iter().enumerate())
            .map(|(i, &(lower, upper))| {
                b.primary_with_bounds(&format!("p{i}"), lower, upper)
                    .unwrap()
            })
            .collect();
        let secondary: Vec<usize> = (0..self.secondary)
            .map(|i| b.secondary(&format!("s{i}")).unwrap())
            .collect();
        for (k, (p, s)) in self.options.iter().enumerate() {
            let colour = |c: u32| (c > 0).then(|| ["red", "blue"][c as usize - 1]);
            let items = (p.iter().map(|&i| (primary[i], None)))
                .chain(s.iter().map(|&(i, c)| (secondary[i], colour(c))));
            let option = b.colored_option(items).unwrap();
            if let Some(&cost) = costs.get(k) {
                b.set_cost(option, cost).unwrap();
            }
        }
        b.build().unwrap()
    }

    /// Whether `problem` says what this problem says: the oracle reads the built problem, so
    /// a bound or a colour lost by the builder would be lost by both sides.
    pub fn is_built_as(&self, problem: &Problem) -> bool {
        let primary = self.bounds.len();
        let colour = |c: u32| (c > 0).then(|| ["red", "blue"][c as usize - 1]);
        problem.item_count() == primary + self.secondary
            && (0..primary).all(|i| problem.item_bounds(i) == Some(self.bounds[i]))
            && problem.option_count() == self.options.len()
            && (self.options.iter().enumerate()).all(|(k, (p, s))| {
                let mut stated: Vec<(usize, Option<&str>)> = (p.iter().map(|&i| (i, None)))
                    .chain(s.iter().map(|&(i, c)| (primary + i, colour(c))))
                    .collect();
                let mut built: Vec<(usize, Option<&str>)> = (problem.option(k).iter())
                    .enumerate()
                    .map(|(position, &item)| (item, problem.option_color(k, position)))
                    .collect();
                stated.sort();
                built.sort();
                stated == built
            })
    }
}
