//! [`Step`], what the solver hands out for each step: its technique, score, pattern (units,
//! cells, digits, a chain's nodes, a forcing chain's [`Assumption`]) and conclusions, and
//! `why()`, the sentence that explains it. Every technique writes into a `Step` and the
//! solver, the drawing and the CLI only read one, so the record and its wording live here,
//! apart from the techniques that find steps and the solver that applies them.

use std::fmt::Write as _;

use std::sync::Arc;

use super::state::{Candidates, LogicTables, digits};
use super::technique::Technique;
use crate::board::{Board, Cell, Digit};
use crate::sudoku::Shape;

/// The tables of the board a step was found on, for the names of its units; compared by
/// board, and printed as the board's side (the tables are large).
#[derive(Clone, PartialEq, Eq)]
struct OnBoard(Arc<LogicTables>);

impl std::fmt::Debug for OnBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "board of side {}", self.0.n)
    }
}

/// One step of a solution: what was done, where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    shape: Shape,
    board: OnBoard,
    technique: Technique,
    tenths: u16,
    /// The units of the pattern (board group numbers).
    pub(super) units: Vec<usize>,
    /// The cells of the pattern.
    pub(super) cells: Vec<u16>,
    /// The digits of the pattern.
    pub(super) digits: u64,
    pub(super) placements: Vec<(u16, u8)>,
    pub(super) eliminations: Vec<(u16, u8)>,
    /// A chain's literals in order: cell, digit, true (ON) or false (OFF).
    pub(super) chain: Vec<(u16, u8, bool)>,
    /// A forcing chain's assumption, its nodes, and whether dynamic forcing chains were
    /// followed inside it (the deepest nested chains).
    pub(super) forcing: Option<(Assumption, usize, bool)>,
}

impl Step {
    /// An empty step for grids like `state` (its shape and board).
    pub(super) fn new(state: &Candidates) -> Step {
        Step {
            shape: state.shape(),
            board: OnBoard(Arc::clone(&state.tables)),
            technique: Technique::FullHouse,
            tenths: 0,
            units: Vec::new(),
            cells: Vec::new(),
            digits: 0,
            placements: Vec::new(),
            eliminations: Vec::new(),
            chain: Vec::new(),
            forcing: None,
        }
    }

    pub(super) fn clear(&mut self) {
        self.units.clear();
        self.cells.clear();
        self.digits = 0;
        self.placements.clear();
        self.eliminations.clear();
        self.chain.clear();
        self.forcing = None;
    }

    pub(super) fn begin(&mut self, technique: Technique, tenths: u16) {
        self.clear();
        self.technique = technique;
        self.tenths = tenths;
    }

    pub(super) fn place(&mut self, c: usize, d: u8) {
        self.placements.push((c as u16, d));
    }

    pub(super) fn eliminate(&mut self, c: usize, d: u8) {
        if !self.eliminations.contains(&(c as u16, d)) {
            self.eliminations.push((c as u16, d));
        }
    }

    /// The shape of the grid it was found in.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The technique.
    pub fn technique(&self) -> Technique {
        self.technique
    }

    /// Its score on SE's scale (a hidden single in a box 1.2, in a line 1.5; chains with their
    /// length modifier).
    pub fn score(&self) -> f64 {
        f64::from(self.tenths) / 10.0
    }

    /// Its score in tenths.
    pub fn tenths(&self) -> u16 {
        self.tenths
    }

    /// The digits placed.
    pub fn placements(&self) -> impl ExactSizeIterator<Item = (Cell, Digit)> + '_ {
        self.placements.iter().map(|&(c, d)| cell_digit(c, d))
    }

    /// The candidates removed.
    pub fn eliminations(&self) -> impl ExactSizeIterator<Item = (Cell, Digit)> + '_ {
        self.eliminations.iter().map(|&(c, d)| cell_digit(c, d))
    }

    /// The board it was found on: a variant's, or the shape's classic board
    /// ([`Shape::board`]).
    pub fn board(&self) -> &Board {
        &self.board.0.board
    }

    /// The units of the pattern, as numbers of the [board](Step::board)'s groups (on a classic
    /// board: rows, then columns, then boxes).
    pub fn units(&self) -> &[usize] {
        &self.units
    }

    /// The cells of the pattern (those that justify the step), in the order found.
    pub fn cells(&self) -> impl ExactSizeIterator<Item = Cell> + '_ {
        self.cells.iter().map(|&c| Cell::new(usize::from(c)))
    }

    /// The digits of the pattern, as a mask (bit `d - 1` for digit d).
    pub fn digits(&self) -> u64 {
        self.digits
    }

    /// A chain's nodes in order: cell, digit, and whether the node is "is d" (true) or "is
    /// not d" (false). Empty for other techniques.
    pub fn chain(&self) -> impl ExactSizeIterator<Item = (Cell, Digit, bool)> + '_ {
        self.chain.iter().map(|&(c, d, on)| {
            let (cell, digit) = cell_digit(c, d);
            (cell, digit, on)
        })
    }

    /// Why the step holds, in a sentence.
    pub fn why(&self) -> String {
        let n = self.shape.size();
        let board = self.board();
        let unit = |i: usize| board.group(self.units[i]).to_string();
        let units = |range: std::ops::Range<usize>| {
            self.units[range]
                .iter()
                .map(|&u| board.group(u).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let names = |cells: &[u16], separator: &str| {
            cells
                .iter()
                .map(|&c| cell_name(c as usize, n))
                .collect::<Vec<_>>()
                .join(separator)
        };
        let cells = || names(&self.cells, " ");
        // A wing's cells: its pivot, then its pincers.
        let wing = || match &self.cells[..] {
            [pivot, pincers @ ..] => (cell_name(*pivot as usize, n), names(pincers, " and ")),
            [] => (String::new(), String::new()),
        };
        let digit_list = digit_list(self.digits, n);
        match self.technique {
            Technique::FullHouse => format!("{} has one empty cell left", unit(0)),
            Technique::HiddenSingle => format!("{digit_list} has one place left in {}", unit(0)),
            Technique::CageCombination => {
                let cage =
                    &board.cages()[usize::from(self.board.0.cage_of[self.cells[0] as usize])];
                format!(
                    "{cage} ({}) must hold different digits adding up to {}: no such set, in any order its candidates allow, puts {digit_list} where removed",
                    cells(),
                    cage.sum()
                )
            }
            Technique::NakedSingle => format!("{} has one candidate left", cells()),
            Technique::Pointing | Technique::Claiming => format!(
                "in {}, {digit_list} can only be in {}, so it is not elsewhere in {}",
                unit(0),
                cells(),
                unit(1)
            ),
            Technique::DirectPointing | Technique::DirectClaiming => format!(
                "in {}, {digit_list} can only be in {}, so it is not elsewhere in {}; then {}",
                unit(0),
                cells(),
                unit(1),
                self.direct_single()
            ),
            Technique::DirectHiddenPair | Technique::DirectHiddenTriple => format!(
                "in {}, {digit_list} can only be in {}, so those cells hold nothing else; then {}",
                unit(0),
                cells(),
                self.direct_single()
            ),
            Technique::NakedPair | Technique::NakedTriple | Technique::NakedQuad => format!(
                "in {}, cells {} hold only {digit_list}, so no other cell of it does",
                unit(0),
                cells()
            ),
            Technique::HiddenPair | Technique::HiddenTriple | Technique::HiddenQuad => format!(
                "in {}, {digit_list} can only be in {}, so those cells hold nothing else",
                unit(0),
                cells()
            ),
            Technique::XWing | Technique::Swordfish | Technique::Jellyfish => {
                let k = self.units.len() / 2;
                format!(
                    "{digit_list} in {} lies only in {}, so not elsewhere in those",
                    units(0..k),
                    units(k..2 * k)
                )
            }
            Technique::XyWing => {
                let (pivot, pincers) = wing();
                format!(
                    "pivot {pivot} and pincers {pincers}: whatever the pivot is, one pincer holds the digit removed"
                )
            }
            Technique::XyzWing => {
                let (pivot, pincers) = wing();
                format!(
                    "pivot {pivot} and pincers {pincers}: one of the three holds the digit removed"
                )
            }
            Technique::WWing => format!(
                "the pair {digit_list} twice, and {} must hold one digit of it in {}, each seeing a pair cell: one pair cell holds the other digit",
                unit(0),
                cells()
            ),
            Technique::TurbotFish | Technique::ThreeStrongLinks => {
                let pairs: Vec<String> = self
                    .chain
                    .chunks(2)
                    .map(|pair| names(&[pair[0].0, pair[1].0], " and "))
                    .collect();
                let (first, last) = (self.chain[0].0, self.chain[self.chain.len() - 1].0);
                format!(
                    "{digit_list} has two places in each of {} ({}), each link's second place seeing the next one's first: {digit_list} is in {} or {}",
                    units(0..self.units.len()),
                    pairs.join("; "),
                    cell_name(first as usize, n),
                    cell_name(last as usize, n)
                )
            }
            Technique::WxyzWing | Technique::VwxyzWing => {
                let (set, pincer) = self.cells.split_at(self.cells.len() - 1);
                format!(
                    "{} hold {} digits between them and see each other, and the pair {} links them by a digit they can only hold where it sees it: one of them holds each digit removed",
                    names(set, " "),
                    set.len() + 1,
                    cell_name(pincer[0] as usize, n)
                )
            }
            Technique::XChain
            | Technique::XCycle
            | Technique::YCycle
            | Technique::XyCycle
            | Technique::Aic => {
                let mut text = String::new();
                for (i, &(c, d, on)) in self.chain.iter().enumerate() {
                    if i > 0 {
                        text.push_str(if on { " => " } else { " -> " });
                    }
                    let _ = write!(
                        text,
                        "{}{}{}",
                        cell_name(c as usize, n),
                        if on { "=" } else { "<>" },
                        digit_name(d, n)
                    );
                }
                let (first, last) = (self.chain[0], self.chain[self.chain.len() - 1]);
                if matches!(
                    self.technique,
                    Technique::XCycle | Technique::YCycle | Technique::XyCycle
                ) {
                    return format!(
                        "{text} -> {}<>{}, a continuous loop: every weak link is then strong too (exactly one of its two ends is true), so a candidate that sees both ends of one goes",
                        cell_name(first.0 as usize, n),
                        digit_name(first.1, n)
                    );
                }
                format!(
                    "{text}: {}{} or {}{}",
                    cell_name(first.0 as usize, n),
                    format_args!("={}", digit_name(first.1, n)),
                    cell_name(last.0 as usize, n),
                    format_args!("={}", digit_name(last.1, n))
                )
            }
            Technique::ForcingChain
            | Technique::ForcingChainPlus
            | Technique::NestedForcingChain => {
                let cell = cell_name(self.cells[0] as usize, n);
                let d = digit_list;
                let by = match self.technique {
                    Technique::ForcingChain => "singles",
                    Technique::ForcingChainPlus => "singles, locked candidates, pairs and X-wings",
                    _ if matches!(self.forcing, Some((_, _, true))) => {
                        "singles, locked candidates, pairs, X-wings, inner X-chains and AICs, and inner forcing chains"
                    }
                    _ => "singles, locked candidates, pairs, X-wings, and inner X-chains and AICs",
                };
                match self.forcing {
                    Some((Assumption::On, k, _)) => format!(
                        "{cell}={d} leads to a contradiction by {by} (a chain of {k} nodes)"
                    ),
                    Some((Assumption::Off, k, _)) => format!(
                        "{cell}<>{d} leads to a contradiction by {by} (a chain of {k} nodes)"
                    ),
                    Some((Assumption::EachCandidate, k, _)) => format!(
                        "each candidate of {cell} leads to this by {by} (chains of {k} nodes)"
                    ),
                    Some((Assumption::EachPlace(u), k, _)) => format!(
                        "each place of {d} in {} leads to this by {by} (chains of {k} nodes)",
                        board.group(u)
                    ),
                    _ => format!("{cell}={d} and {cell}<>{d} both lead to this by {by}"),
                }
            }
            // Type 3 scores above the rectangle's base, and lists the naked set's cells after
            // the rectangle's four.
            Technique::UniqueRectangle
                if self.tenths > Technique::UniqueRectangle.base_tenths() =>
            {
                let (rectangle, set) = self.cells.split_at(4);
                format!(
                    "{} could all hold only {digit_list}, which could then swap, a second solution, and the puzzle is unique (proved by Dancing Links): so the two holding more hold one of their other digits, and act as one cell with {} in a naked set of {}, whose digits the rest of it loses",
                    names(rectangle, " "),
                    names(set, " "),
                    unit(0)
                )
            }
            Technique::UniqueRectangle => format!(
                "{} could all hold only {digit_list}, which could then swap: a second solution, and the puzzle is unique (proved by Dancing Links)",
                cells()
            ),
            Technique::UniqueLoop => format!(
                "{} could all hold only {digit_list}, which could then alternate around the loop either way: a second solution, and the puzzle is unique (proved by Dancing Links)",
                cells()
            ),
            Technique::Bug => format!(
                "every other cell has two candidates, each digit two places per unit: without {digit_list}, {} would leave no solution or several, and the puzzle is unique (proved by Dancing Links)",
                cells()
            ),
            Technique::BugTypeTwo => format!(
                "every other cell has two candidates, each digit two places per unit: without {digit_list}, {} would leave no solution or several, so one of them holds it, and the puzzle is unique (proved by Dancing Links)",
                cells()
            ),
            Technique::AlignedPairExclusion => {
                let (pair, excluders) = self.cells.split_at(2);
                format!(
                    "{} could not take the removed digit with any digit of the other: each such pair would be one digit twice in cells that see each other, or would empty one of {}, which see both",
                    names(pair, " and "),
                    names(excluders, " ")
                )
            }
            Technique::Guess => format!(
                "no technique applies: {} takes its digit from the solution (a guess, verified, never wrong)",
                cells()
            ),
        }
    }
}

impl Step {
    /// The hidden single a direct step places, in words.
    fn direct_single(&self) -> String {
        let n = self.shape.size();
        let (c, d) = self.placements[0];
        let unit = self
            .board()
            .group(*self.units.last().expect("the single's unit"));
        format!(
            "{} has one place left in {unit}, {}",
            digit_name(d, n),
            cell_name(c as usize, n)
        )
    }
}

fn cell_digit(c: u16, d: u8) -> (Cell, Digit) {
    (
        Cell::new(usize::from(c)),
        Digit::new(d).expect("digits are 1..=64"),
    )
}

/// A cell as people write it: `r3c4` (1-based).
pub fn cell_name(c: usize, n: usize) -> String {
    format!("r{}c{}", c / n + 1, c % n + 1)
}

/// A digit as the grid writes it: `1`-`9`, then `A`-`Z` for 10-35 on grids up to 35x35 (so
/// that a step's `r6c7=D` is the `D` the grid shows), a number on larger ones.
pub fn digit_name(d: u8, n: usize) -> String {
    if n <= 35 {
        crate::sudoku::digit_char(d).to_string()
    } else {
        d.to_string()
    }
}

fn digit_list(mask: u64, n: usize) -> String {
    digits(mask)
        .map(|d| digit_name(d, n))
        .collect::<Vec<_>>()
        .join(",")
}

/// What a forcing chain assumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Assumption {
    /// The candidate true: a contradiction, so it goes.
    On,
    /// The candidate false: a contradiction, so it is placed.
    Off,
    /// Both ways, which agree on something.
    Both,
    /// Each candidate of the cell in turn, which all agree on something.
    EachCandidate,
    /// Each place of the digit in this unit in turn, which all agree on something.
    EachPlace(usize),
}
