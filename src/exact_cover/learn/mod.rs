//! Algorithm X that learns from its dead ends: conflict-driven nogood learning over the dancing
//! links, the clause learning of CDCL SAT solvers (Marques-Silva and Sakallah's GRASP, 1999;
//! Chaff's first unique implication point and two watched literals, 2001) with the options as
//! the variables.
//!
//! # The search as a SAT solver sees it
//!
//! An option is *chosen* (true), *hidden* (false: out of its items' lists) or *free*. Choosing
//! an option covers its items, which hides every option that shares an item with it: the
//! propagation of "at most one option per item". An item with one option left is covered by it
//! at once (a *forced* choice, whose reason is the item): the propagation of "at least one
//! option per item". An item with none left is a conflict. A *decision* chooses an option of an
//! item of fewest options ([`ConflictMrv`]'s choice) and opens a new level.
//!
//! At a conflict the search does not back up one level: it explains the conflict. Every
//! hidden option was hidden by one event, a chosen option that covered one of its items or a
//! nogood, so the options of the empty item (or a nogood whose options are all chosen) lead
//! back to a set of chosen options that cannot all be chosen together. Forced choices of the
//! current level are replaced by the choices that emptied the rest of their item, newest first,
//! until one option of the current level is left (the first unique implication point). The
//! set found, less the forced choices that follow from the rest of it (MiniSat's local
//! minimisation), is a *nogood*: it is kept, the search backjumps to the second-highest level in it,
//! and hides the option of the current level there. Nogoods are watched by two options each
//! (Chaff's watched literals): when all but one of a nogood's options are chosen, the last one
//! is hidden, with the nogood as its reason; when all are, that is a conflict.
//!
//! Everything is undone newest first, so the links stay valid: a trail of steps (an option
//! chosen, or hidden by a nogood or a Hall set) with their levels.
//!
//! # Hall's condition, at the easy end
//!
//! With a fill (see [`Dlx::learning`]) the search also checks Hall's condition on the
//! problem's matchings (`hall`; [`Dlx::set_matchings`]) once nothing else propagates. A set
//! of cells with fewer digits left than cells is a conflict; an option that no perfect matching
//! uses is hidden, its reason the *Hall set* that takes its digit. Either is explained by the
//! hidden options from the set's cells to other digits, as an empty item is by its options, so
//! the nogoods learned stay sound.
//!
//! # Solutions, counts and restarts
//!
//! When every primary item is covered the sink gets the solution, and the decisions on the
//! trail become a nogood, analysed as a conflict: no other solution that the search has not
//! delivered contains them all, because every forced choice follows from the decisions, the
//! items and nogoods that such solutions satisfy (by induction: every nogood learned is
//! satisfied by every solution not yet delivered), so such a solution contains every option on
//! the trail, which is already an exact cover. So each solution is delivered once, and a
//! conflict at level 0 proves there is no other: a count is exact when the search ends that
//! way. Runs restart (back to level 0) on Luby's schedule in search-tree nodes, keeping the
//! nogoods, the conflict weights and the solutions already excluded, so the same seed gives the
//! same search. When the nogoods grow past a bound, the longer half of those learned from
//! conflicts is forgotten at a restart: they follow from the problem and the others, so only
//! work is lost; the nogoods that block delivered solutions are never forgotten.
//!
//! # Cost
//!
//! The hiders are noted by the cover loops themselves (`Dlx::cover_noting`), one store per
//! option hidden, so a reason is one load. A node still costs about twice a node of plain
//! Algorithm X (perf, 25x25 puzzles with 340 blanks: a fifth of the time in the analysis of
//! conflicts, a fifth in the trail and the watches), which learning repays where runs are long:
//! on those puzzles the nodes per puzzle fell from about 320,000 to 60,000-100,000. On 9x9 and
//! on Latin squares it did not pay, so [`DlxSolver`](crate::engine::DlxSolver) learns only on
//! Sudoku from 16x16 up.
//!
//! # Where each part is
//!
//! This module holds the learner's state (the trail and each option's state) and the search
//! loop: propagate, decide, restart, undo. `watches` holds the two watched options of each
//! nogood and their propagation, `analysis` the explanation of a conflict, its first unique
//! implication point and the nogood learned, `nogoods` the database of nogoods and its cut
//! at a restart, and `hall` the matchings' free options, their checks and their Hall sets. The restart schedule is [`crate::restart`]'s; [`Dlx::run`] starts the search
//! from a [`Plan`](super::Plan) with learning.

mod analysis;
mod hall;
mod nogoods;
mod watches;

use hall::{Hall, HallSet};
use nogoods::Nogood;
use watches::Watch;

use std::time::Instant;

use super::Dlx;
use super::choose::{ActiveItems, ConflictMrv, ItemChooser, ReadingOrder};
use super::links::scan::{self, ByteWant, Want};
use super::links::{Item, OptionNode};
use super::search::{CLOCK_INTERVAL, Control, Report, Sink, Solution, Stats};
use crate::budget::{Budget, Stop};
use crate::restart::Restarts;

/// No trail position: an option neither chosen nor hidden by a nogood.
const NONE: u32 = u32::MAX;

/// The hider of options hidden before the search (by [`Dlx::force`]): before every step, on
/// no level.
const ROOT: u32 = u32::MAX - 1;

/// Why an option is on the trail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Chosen by a decision (the option's node in the item chosen).
    Decide(OptionNode),
    /// Chosen because its item, `1`, had no other option left.
    Force(OptionNode, Item),
    /// Option `0` hidden by nogood `1`: its other options are chosen.
    Hide(u32, u32),
    /// Option `0` hidden at level 0 by a nogood of its own (a unit nogood).
    HideUnit(u32),
    /// Option `0` ruled out by Hall's condition on a matching: Hall set `1` of the
    /// learner's [`Hall`] takes its digit.
    Prune(u32, u32),
}

impl Step {
    /// The node through which a chosen option was covered, if the step chose one.
    #[inline]
    fn chosen(self) -> Option<OptionNode> {
        match self {
            Step::Decide(x) | Step::Force(x, _) => Some(x),
            Step::Hide(..) | Step::HideUnit(_) | Step::Prune(..) => None,
        }
    }
}

/// What a conflict is.
#[derive(Clone, Copy, Debug)]
enum Conflict {
    /// A primary item with no option left.
    Empty(Item),
    /// A nogood whose options are all chosen.
    Nogood(u32),
    /// The decisions of a solution delivered.
    Solution,
    /// Cells of a matching with fewer digits left between them than they are.
    Hall(HallSet),
}

/// The learning state of one search: the trail, the options' and items' state, the nogoods.
struct Learner {
    /// The steps, oldest first.
    trail: Vec<Step>,
    /// The level of each step.
    level_of: Vec<u32>,
    /// The trail position of the decision opening each level (level `l` at `l - 1`).
    decisions: Vec<u32>,
    /// Each option's trail position if chosen, else [`NONE`].
    chosen_at: Vec<u32>,
    /// Each option's hider, if hidden: the trail position of the choice that covered one of its
    /// items, or of its hide by a nogood; [`ROOT`] if hidden before the search; else [`NONE`].
    /// (A chosen option is hidden by its own choice.)
    hidden_at: Vec<u32>,
    /// The options of each item as built, by header number: `item_options[item_start[i]..
    /// item_start[i + 1]]`.
    item_start: Vec<u32>,
    item_options: Vec<u32>,
    /// The nogoods' options, one after another; the first two of each are watched.
    lits: Vec<u32>,
    /// Each nogood's place in `lits`.
    nogoods: Vec<Nogood>,
    /// By option: the nogoods watching it, each with a *blocker*, another of its options: when
    /// that one is hidden the nogood holds, and is not read (MiniSat's blocking literals).
    watches: Vec<Vec<Watch>>,
    /// Trail positions marked during conflict analysis.
    seen: Vec<bool>,
    /// By Hall set of the options ruled out on the trail: whether this analysis explained it.
    expanded: Vec<bool>,
    /// Hidden options still to explain, and choices to mark, in this analysis.
    to_explain: Vec<u32>,
    to_mark: Vec<u32>,
    /// Hall's condition on the matchings, if the problem declared some.
    hall: Option<Hall>,
    /// Scratch: the options a Hall check rules out, with their Hall sets.
    pruned: Vec<(u32, u32)>,
    /// Scratch: the nogood being learned (options), and the positions marked.
    learned: Vec<u32>,
    marked: Vec<u32>,
    /// The first trail position whose nogood watches are not yet visited.
    queue: usize,
    /// Options in the nogoods, to bound the database.
    live_lits: usize,
    /// Options chosen.
    depth: usize,
    /// Every primary item before this one is covered, as in `Dlx::search_cut`: it rises by
    /// one when the item of a choice stands at it, and comes down to that item when the choice
    /// is undone; the scans for an empty, a forced and an active item start here.
    floor: usize,
}

impl Learner {
    /// The learner of a search of `dlx`, checking Hall's condition on its matchings when
    /// `hall` is set and it has some.
    fn new(dlx: &Dlx, hall: bool) -> Learner {
        let links = dlx.links();
        let options = links.option_count();
        let headers = links.item_count() + 1;
        // The options of each item, as built: counted, then placed.
        let mut item_start = vec![0u32; headers + 1];
        for k in 0..options {
            for h in links.items_of(k) {
                item_start[h.number() + 1] += 1;
            }
        }
        for i in 1..=headers {
            item_start[i] += item_start[i - 1];
        }
        let mut fill = item_start.clone();
        let mut item_options = vec![0u32; item_start[headers] as usize];
        for k in 0..options {
            for h in links.items_of(k) {
                let h = h.number();
                item_options[fill[h] as usize] = k as u32;
                fill[h] += 1;
            }
        }
        Learner {
            trail: Vec::with_capacity(options),
            level_of: Vec::with_capacity(options),
            decisions: Vec::new(),
            chosen_at: vec![NONE; options],
            // The options hidden before the search: those with an item covered, and those
            // excluded whole ([`Dlx::exclude`]).
            hidden_at: (0..options)
                .map(|k| if links.is_out(k) { ROOT } else { NONE })
                .collect(),
            item_start,
            item_options,
            lits: Vec::new(),
            nogoods: Vec::new(),
            watches: vec![Vec::new(); options],
            seen: Vec::with_capacity(options),
            expanded: Vec::new(),
            to_explain: Vec::new(),
            to_mark: Vec::new(),
            floor: 0,
            hall: (hall && dlx.declares_matchings())
                .then(|| dlx.matching_table().clone())
                .filter(|table| !table.is_empty())
                .map(|table| Hall::new(table, options, |k| !links.is_out(k as usize))),
            pruned: Vec::new(),
            learned: Vec::new(),
            marked: Vec::new(),
            queue: 0,
            live_lits: 0,
            depth: 0,
        }
    }

    #[inline]
    fn level(&self) -> u32 {
        self.decisions.len() as u32
    }

    /// Whether option `k` is hidden and not chosen (a chosen option is hidden by its own
    /// choice): a nogood with `k` in it holds.
    #[inline]
    fn is_hidden(&self, k: u32) -> bool {
        self.chosen_at[k as usize] == NONE && self.hidden_at[k as usize] != NONE
    }

    /// Whether option `k` is free: neither chosen nor hidden.
    #[inline]
    fn is_free(&self, k: u32) -> bool {
        self.chosen_at[k as usize] == NONE && self.hidden_at[k as usize] == NONE
    }

    /// The options of item `h`, as built.
    #[inline]
    fn options_of(&self, h: Item) -> std::ops::Range<usize> {
        let i = h.number();
        self.item_start[i] as usize..self.item_start[i + 1] as usize
    }
}

impl Dlx {
    /// The learning search with `chooser`, runs numbered from `first_run` for their Luby
    /// cutoffs. The search reads empty items from their count (see
    /// [`Dlx::track_dead_ends`]), which is kept while it runs.
    ///
    /// With `fill` (at the easy end of large grids), it branches on `fill`'s item in reading
    /// order with the options in order while there is one, and checks Hall's condition on the
    /// matchings ([`Dlx::set_matchings`]): the order that leaves the last open cells together
    /// in the last rows, and the check that sees what they miss (see the `hall` module).
    pub(crate) fn learning<S: Sink>(
        &mut self,
        chooser: &mut ConflictMrv,
        restarts: &Restarts,
        first_run: u64,
        fill: Option<ReadingOrder>,
        budget: &Budget,
        sink: S,
    ) -> Report {
        let tracked = self.links().tracks_dead_ends();
        if !tracked {
            self.track_dead_ends(true);
        }
        // Hall's condition is checked only with `fill`: code without it for the others.
        let report = match (self.links().tracks_bytes(), fill.is_some()) {
            (true, false) => {
                self.learn::<S, true, false>(chooser, restarts, first_run, fill, budget, sink)
            }
            (false, false) => {
                self.learn::<S, false, false>(chooser, restarts, first_run, fill, budget, sink)
            }
            (true, true) => {
                self.learn::<S, true, true>(chooser, restarts, first_run, fill, budget, sink)
            }
            (false, true) => {
                self.learn::<S, false, true>(chooser, restarts, first_run, fill, budget, sink)
            }
        };
        if !tracked {
            self.track_dead_ends(false);
        }
        report
    }

    /// The learning search, with the `len`s kept in bytes or not (`BYTES`; the count of empty
    /// items is always kept). Runs are numbered from `first_run` for their Luby cutoffs.
    fn learn<S: Sink, const BYTES: bool, const HALL: bool>(
        &mut self,
        chooser: &mut ConflictMrv,
        restarts: &Restarts,
        first_run: u64,
        fill: Option<ReadingOrder>,
        budget: &Budget,
        mut sink: S,
    ) -> Report {
        debug_assert!(self.links().tracks_dead_ends());
        let start = Instant::now();
        let deadline = budget.stop_at(start);
        let node_limit = budget.node_limit();
        let mut stats = Stats::default();
        let mut l = Learner::new(self, HALL);
        let mut run = first_run;
        let mut run_end = restarts.cutoff(run);
        let mut run_nodes = 0u64;
        // Forced choices count as nodes too, so the clock is read at the first decision past
        // each multiple of `CLOCK_INTERVAL`, not at the multiples themselves.
        let mut next_clock = CLOCK_INTERVAL;

        let stop = 'search: loop {
            // Propagate: nogoods first, then items with no option or one option left.
            let conflict = 'propagate: loop {
                while l.queue < l.trail.len() {
                    let t = l.queue;
                    l.queue += 1;
                    if let Some(x) = l.trail[t].chosen()
                        && let Some(g) =
                            self.watch::<BYTES, HALL>(&mut l, self.links().option_of(x) as u32)
                    {
                        break 'propagate Some(Conflict::Nogood(g));
                    }
                }
                if self.links().empty_items() > 0 {
                    break 'propagate Some(Conflict::Empty(self.first_empty::<BYTES>(l.floor)));
                }
                if self.links().all_covered_above::<BYTES>(l.floor) {
                    stats.solutions += 1;
                    let depth = self.solution_on_stack(&l);
                    stats.max_depth = stats.max_depth.max(depth);
                    if sink.solution(&Solution::new(self, depth)) == Control::Stop {
                        break 'search Stop::Limit;
                    }
                    break 'propagate Some(Conflict::Solution);
                }
                let Some(h) = self.first_forced::<BYTES>(l.floor) else {
                    // Hall's condition, once nothing else propagates.
                    let Some(hall) = l.hall.as_mut().filter(|_| HALL) else {
                        break 'propagate None;
                    };
                    if let Err(set) = hall.check(l.trail.len() as u32, &mut l.pruned) {
                        break 'propagate Some(Conflict::Hall(set));
                    }
                    if l.pruned.is_empty() {
                        break 'propagate None;
                    }
                    let mut pruned = std::mem::take(&mut l.pruned);
                    for &(k, r) in &pruned {
                        self.hide_option::<BYTES, HALL>(&mut l, Step::Prune(k, r));
                    }
                    pruned.clear();
                    l.pruned = pruned;
                    continue 'propagate;
                };
                // A forced choice is a node, as in Algorithm X.
                if stats.nodes >= node_limit {
                    break 'search Stop::NodeBudget;
                }
                stats.nodes += 1;
                run_nodes += 1;
                let x = (self.links().first_option(h)).expect("an item of one option");
                stats.updates += self.choose::<BYTES, HALL>(&mut l, Step::Force(x, h));
            };

            if let Some(conflict) = conflict {
                if !matches!(conflict, Conflict::Solution) {
                    stats.backtracks += 1;
                }
                if let Conflict::Empty(_) = conflict {
                    chooser.dead_end(&ActiveItems::new(self));
                }
                if !self.resolve::<BYTES, HALL>(&mut l, conflict, &mut stats) {
                    break 'search Stop::Exhausted;
                }
                continue 'search;
            }

            // Decide, unless the run is over.
            if run_nodes >= run_end {
                self.backjump::<BYTES, HALL>(&mut l, 0);
                stats.restarts += 1;
                run += 1;
                run_end = restarts.cutoff(run);
                run_nodes = 0;
                l.reduce(self.option_count());
                continue 'search;
            }
            if stats.nodes >= node_limit {
                break 'search Stop::NodeBudget;
            }
            stats.nodes += 1;
            run_nodes += 1;
            if let Some(deadline) = deadline
                && stats.nodes >= next_clock
                && {
                    next_clock = stats.nodes + CLOCK_INTERVAL;
                    deadline.has_passed()
                }
            {
                break 'search Stop::TimeBudget;
            }
            // At the easy end, reading order with the options in order while it lasts.
            let reading = fill.and_then(|fill| fill.reading(&ActiveItems::new(self)));
            let chosen =
                reading.unwrap_or_else(|| chooser.choose(&ActiveItems::above(self, l.floor)));
            debug_assert!(chosen.len >= 2);
            let h = self.links().primary_item(chosen.index());
            let first = (self.links().first_option(h)).expect("an item of two options or more");
            let mut x = first;
            let skip = match reading {
                Some(_) => 0,
                None => chooser.first_option(&ActiveItems::new(self), chosen),
            };
            for _ in 0..skip {
                // Past the bottom of the list comes its top.
                x = self.links().next_option(x).unwrap_or(first);
            }
            l.decisions.push(l.trail.len() as u32);
            stats.updates += self.choose::<BYTES, HALL>(&mut l, Step::Decide(x));
            stats.max_depth = stats.max_depth.max(l.depth);
        };

        // Undo everything, level 0 included.
        l.decisions.clear();
        self.undo_to::<BYTES, HALL>(&mut l, 0);

        debug_assert_eq!(self.sanity(), Ok(()));
        stats.elapsed = start.elapsed();
        Report { stats, stop }
    }

    /// Chooses an option (`step` is a [`Step::Decide`] or [`Step::Force`]): covers its items,
    /// noting the choice as the reason of every option hidden (the option itself included).
    #[inline]
    fn choose<const BYTES: bool, const HALL: bool>(&mut self, l: &mut Learner, step: Step) -> u64 {
        let x = step.chosen().expect("a choice");
        let t = l.trail.len() as u32;
        let h = self.links().item_of(x);
        let hidden_at = &mut l.hidden_at;
        let hall = &mut l.hall;
        let mut note = |k: u32| {
            hidden_at[k as usize] = t;
            if HALL && let Some(hall) = hall {
                hall.remove(k);
            }
        };
        let updates = self.links_mut().cover_noting::<true, BYTES>(h, &mut note)
            + self
                .links_mut()
                .cover_others_noting::<true, BYTES>(x, &mut note);
        let k = self.links().option_of(x) as u32;
        l.chosen_at[k as usize] = t;
        // A choice's item is primary, unless a nogood forced an option by a secondary item's
        // node: that one is past every primary item, so never at the floor below them.
        let at_floor = h.number() - 1 == l.floor;
        l.floor += usize::from(at_floor && l.floor < self.links().primary_count());
        l.depth += 1;
        l.trail.push(step);
        l.level_of.push(l.level());
        updates
    }

    /// Hides a free option for a nogood or a Hall set (`step` is a [`Step::Hide`],
    /// [`Step::HideUnit`] or [`Step::Prune`]).
    fn hide_option<const BYTES: bool, const HALL: bool>(&mut self, l: &mut Learner, step: Step) {
        let (Step::Hide(k, _) | Step::HideUnit(k) | Step::Prune(k, _)) = step else {
            unreachable!("a hide")
        };
        self.links_mut().hide_whole_option::<BYTES>(k);
        if HALL && let Some(hall) = &mut l.hall {
            hall.remove(k);
        }
        l.hidden_at[k as usize] = l.trail.len() as u32;
        l.trail.push(step);
        l.level_of.push(l.level());
    }

    /// Undoes the trail down to `keep` steps, newest first.
    fn undo_to<const BYTES: bool, const HALL: bool>(&mut self, l: &mut Learner, keep: usize) {
        while l.trail.len() > keep {
            let step = l.trail.pop().expect("a step");
            l.level_of.pop();
            match step {
                Step::Decide(x) | Step::Force(x, _) => {
                    let hidden_at = &mut l.hidden_at;
                    let hall = &mut l.hall;
                    let mut note = |k: u32| {
                        hidden_at[k as usize] = NONE;
                        if HALL && let Some(hall) = hall {
                            hall.restore(k);
                        }
                    };
                    self.links_mut()
                        .uncover_others_noting::<true, BYTES>(x, &mut note);
                    let h = self.links().item_of(x);
                    self.links_mut().uncover_noting::<true, BYTES>(h, &mut note);
                    l.floor = l.floor.min(h.number() - 1);
                    l.chosen_at[self.links().option_of(x)] = NONE;
                    l.depth -= 1;
                }
                Step::Hide(k, _) | Step::HideUnit(k) | Step::Prune(k, _) => {
                    self.links_mut().unhide_whole_option::<BYTES>(k);
                    l.hidden_at[k as usize] = NONE;
                    if HALL && let Some(hall) = &mut l.hall {
                        hall.restore(k);
                    }
                }
            }
        }
        l.queue = l.queue.min(keep);
        if HALL && let Some(hall) = &mut l.hall {
            hall.undone_to(keep);
        }
    }

    /// Undoes every level above `level`.
    fn backjump<const BYTES: bool, const HALL: bool>(&mut self, l: &mut Learner, level: u32) {
        if l.level() > level {
            let keep = l.decisions[level as usize] as usize;
            l.decisions.truncate(level as usize);
            self.undo_to::<BYTES, HALL>(l, keep);
        }
    }

    /// The first primary item with no option left (one exists, at or past `floor`).
    fn first_empty<const BYTES: bool>(&self, floor: usize) -> Item {
        let links = self.links();
        let i = if BYTES {
            scan::first_byte(&links.primary_byte_lens()[floor..], ByteWant::Equal(0))
        } else {
            scan::first(&links.primary_headers()[floor..], Want::Equal(0))
        };
        links.primary_item(floor + i.expect("an empty item"))
    }

    /// The first primary item with one option left, if any (none is empty), every item before
    /// `floor` being covered.
    #[inline]
    fn first_forced<const BYTES: bool>(&self, floor: usize) -> Option<Item> {
        let links = self.links();
        let i = if BYTES {
            scan::first_byte(&links.primary_byte_lens()[floor..], ByteWant::AtMostOne)?
        } else {
            scan::first(&links.primary_headers()[floor..], Want::AtMostOne)?
        };
        Some(links.primary_item(floor + i))
    }

    /// Puts the chosen options' nodes on the choice stack, oldest first, for [`Solution`];
    /// returns how many.
    fn solution_on_stack(&mut self, l: &Learner) -> usize {
        let mut depth = 0;
        for step in &l.trail {
            if let Some(x) = step.chosen() {
                self.set_choice(depth, x);
                depth += 1;
            }
        }
        depth
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::DlxSolver;
    use crate::exact_cover::CountSink;
    use crate::problems;
    use crate::sudoku::{Grid, Shape, encode};
    use proptest::prelude::*;
    use rand::{RngExt, SeedableRng};

    /// A puzzle of `shape`: a pattern grid with its digits relabelled from `seed`, each cell
    /// left open with probability `open`.
    fn puzzle(shape: Shape, seed: u64, open: f64) -> Grid {
        let (r, c) = (shape.box_rows(), shape.box_cols());
        let n = r * c;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let mut digits: Vec<u8> = (1..=n as u8).collect();
        for i in (1..n).rev() {
            digits.swap(i, rng.random_range(0..=i));
        }
        let mut grid = Grid::empty(shape);
        for i in 0..n {
            for j in 0..n {
                if rng.random_range(0.0..1.0) >= open {
                    grid.set(i, j, digits[((i % r) * c + i / r + j) % n]);
                }
            }
        }
        grid
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// With Hall's condition checked on the groups, and reading order for part of the
        /// descent, the learning search counts exactly what plain Algorithm X counts (puzzles
        /// with up to 5,000 solutions), with restarts every few nodes, and leaves the links as
        /// built. Each solution is a conflict to explain, in part by Hall sets, so a wrong
        /// explanation shows as a nogood that cuts solutions off.
        #[test]
        fn hall_checks_keep_counts_exact(
            (rows, cols) in prop_oneof![Just((2, 2)), Just((2, 3)), Just((3, 2)), Just((3, 3)), Just((2, 4))],
            seed in any::<u64>(),
            open in 0.4f64..0.75,
            unit in 1u64..30,
            until in 0usize..60,
        ) {
            let shape = Shape::new(rows, cols).unwrap();
            let puzzle = puzzle(shape, seed, open);
            let mut dlx = DlxSolver::links(shape.board(), &puzzle);
            let mut solutions: Vec<Vec<u32>> = Vec::new();
            let plain = dlx.search(
                &Budget::unlimited(),
                crate::exact_cover::up_to(Some(5_000), |s| {
                    let mut options: Vec<u32> = s.options().map(|k| k as u32).collect();
                    options.sort_unstable();
                    solutions.push(options);
                    Control::Continue
                }),
            );
            prop_assume!(plain.stop == Stop::Exhausted);
            dlx.set_matchings(&encode::matchings(shape.board()));
            prop_assert_eq!(dlx.matchings_kept(), 3 * rows * cols);
            let before = dlx.link_fingerprint();
            let restarts = Restarts { seed, unit };
            nogoods::LEARNED.with(|learned| learned.borrow_mut().clear());
            // Each solution delivered, with the number of nogoods learned before it.
            let mut delivered: Vec<(Vec<u32>, usize)> = Vec::new();
            let report = dlx.learning(
                &mut ConflictMrv::new(seed),
                &restarts,
                0,
                Some(ReadingOrder::new(until)),
                &Budget::unlimited(),
                |s: &Solution<'_>| {
                    let mut options: Vec<u32> = s.options().map(|k| k as u32).collect();
                    options.sort_unstable();
                    let learned = nogoods::LEARNED.with(|learned| learned.borrow().len());
                    delivered.push((options, learned));
                    Control::Continue
                },
            );
            prop_assert_eq!(report.stop, Stop::Exhausted);
            prop_assert_eq!(report.stats.solutions, plain.stats.solutions);
            prop_assert_eq!(dlx.link_fingerprint(), before);
            // Every nogood learned from a conflict holds for every solution not delivered
            // before it was learned: none has all its options.
            let learned = nogoods::LEARNED.with(|learned| std::mem::take(&mut *learned.borrow_mut()));
            for (i, nogood) in learned.iter().enumerate() {
                let broken = solutions.iter().find(|s| {
                    nogood.iter().all(|k| s.binary_search(k).is_ok())
                        && !delivered.iter().any(|(d, before)| *before <= i && d == *s)
                });
                prop_assert!(broken.is_none(), "nogood {nogood:?} in solution {broken:?}");
            }
        }
    }

    /// With the nogoods learned from conflicts cut down at every restart (restarts every node
    /// or few nodes), counts stay exact: the nogoods that block solutions are kept, and those
    /// forgotten only cost work. The links are restored every time.
    #[test]
    fn forgetting_nogoods_keeps_counts_exact() {
        for (problem, solutions) in [
            (problems::queens(6).unwrap(), 4),
            (problems::queens(8).unwrap(), 92),
            (problems::langford(7).unwrap(), 52),
            (problems::langford(8).unwrap(), 300),
        ] {
            for unit in [1, 3, 10] {
                let mut dlx = Dlx::new(&problem);
                let before = dlx.link_fingerprint();
                let restarts = Restarts { seed: 9, unit };
                let report =
                    dlx.search_learning(&restarts, &Budget::unlimited(), CountSink::new(None));
                assert_eq!(report.stop, Stop::Exhausted);
                assert_eq!(report.stats.solutions, solutions, "unit {unit}");
                assert!(report.stats.restarts > 0);
                assert_eq!(dlx.link_fingerprint(), before);
            }
        }
    }
}
