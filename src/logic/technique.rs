//! The techniques, in the order the solver tries them, and their scores on Sudoku Explainer's
//! scale.
//!
//! The scores are Sudoku Explainer's (SE, v1.2.1), as listed in SukakuExplainer's wiki page
//! "Difficulty ratings in Sudoku Explainer v1.2.1": full house ("last value") 1.0, hidden
//! single 1.2 in a box and 1.5 in a row or column, direct pointing 1.7, direct claiming 1.9,
//! direct hidden pair 2.0, naked single 2.3, direct hidden triple 2.5 (a "direct" step is one
//! whose eliminations leave a hidden single, placed in the same step), pointing 2.6, claiming 2.8,
//! naked pair 3.0, X-wing 3.2, hidden pair 3.4, naked triple 3.6, swordfish 3.8, hidden triple
//! 4.0, XY-wing 4.2, XYZ-wing 4.4, unique rectangle 4.5, naked quad 5.0, jellyfish 5.2, hidden
//! quad 5.4, BUG+1 5.6 (the two uniqueness techniques only in a puzzle proved unique), X-chains
//! 6.5-6.9, forcing chains 7.1-7.5, dynamic forcing chains 8.8-9.6, nested ones 9.5-11.9.
//! Chains add SE's length modifier to a base ([`length_bonus`]). A forcing chain's base is that
//! of SE's family it belongs to: 7.5 (Nishio: links of one digit), 8.0 (static: links already
//! in the grid), 8.5 (dynamic: singles only the updated grid gives); 9.0 with pointing,
//! claiming, pairs and X-wings inside it (SE's "+"), 9.5 with X-chains and AICs inside it, 10.5
//! with forcing chains inside it (SE's nested levels 2 and 4). Two
//! techniques are not SE's: the W-wing, which SE finds as a chain and which is scored here as
//! the chain it is (six nodes, 7.1), and the guess, which SE never makes: it scores 12.0 for
//! the first guess and 0.1 more for each further one, above every chain the solver finds
//! (those stop at 11.9). A third is for killer Sudoku, which SE does not solve: the cage
//! combination (2.2), a candidate that no set of digits of its cage's sum allows.
//!
//! The solver takes the step of the lowest score first, as SE does: a hidden single (1.2,
//! 1.5) before a naked single (2.3), so that a puzzle that needs only hidden singles rates 1.5.
//!
//! A second [`Scale`], [`Scale::Sukaku`], follows Sukaku Explainer 1.15.10 (SE's maintained
//! descendant, whose ratings puzzle banks and forums publish) with its default technique set:
//! the same scores for the techniques both have, and more techniques, each where Sukaku's
//! solver tries it:
//!
//! - the turbot fish (4.0-4.3) after hidden triples;
//! - unique loops of six and eight cells (4.6, 4.7) and unique rectangles of type 3 (4.6-4.8)
//!   after the other unique rectangles;
//! - three strong links (5.4-5.7) and the WXYZ-wing (5.5-5.6) after hidden quads;
//! - BUG type 2 (5.7) with BUG+1;
//! - the VWXYZ-wing (6.2-6.4) and aligned pair exclusion (6.2) after them;
//! - X- and Y-cycles (6.5 and up) and XY-cycles (7.0 and up) with the chains, the easiest of
//!   all kept.
//!
//! It has no W-wing: Sukaku finds it as the AIC it is.

use std::fmt;

/// Whose technique set, order and scores a rating follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scale {
    /// Sudoku Explainer 1.2.1's: the scale of SE's own ratings and of older puzzle lists.
    #[default]
    Se121,
    /// Sukaku Explainer 1.15.10's, with its default techniques: the scale most puzzle banks
    /// and forums publish today.
    Sukaku,
}

impl Scale {
    /// Every scale.
    pub const ALL: [Scale; 2] = [Scale::Se121, Scale::Sukaku];

    /// Its name, as `--scale` takes it: `se121` or `sukaku`.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Se121 => "se121",
            Scale::Sukaku => "sukaku",
        }
    }
}

impl fmt::Display for Scale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Scale {
    type Err = String;

    fn from_str(name: &str) -> Result<Scale, String> {
        Scale::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("unknown scale '{name}': se121 or sukaku"))
    }
}

/// A solving technique. The order of the variants is the order in which the solver tries
/// them: always the easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// The last empty cell of a unit takes the missing digit.
    FullHouse,
    /// A digit has one place left in a box, row or column.
    HiddenSingle,
    /// Pointing that leaves a digit one place in a unit: that single is placed with it.
    DirectPointing,
    /// Claiming that leaves a digit one place in a unit.
    DirectClaiming,
    /// A hidden pair that leaves a digit one place in a unit.
    DirectHiddenPair,
    /// Killer Sudoku: a cage's candidates leave no set of digits adding up to its sum that
    /// puts a digit in a cell, which loses it. Not SE's (SE has no cages): scored 2.2, above
    /// the direct steps and below a naked single.
    CageCombination,
    /// A cell has one candidate left.
    NakedSingle,
    /// A hidden triple that leaves a digit one place in a unit.
    DirectHiddenTriple,
    /// A digit's places in a box lie on one line: the rest of the line loses it.
    Pointing,
    /// A digit's places in a line lie in one box: the rest of the box loses it.
    Claiming,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// A digit in two rows (columns) confined to the same two columns (rows).
    XWing,
    /// Two digits with the same two places in a unit.
    HiddenPair,
    /// Three cells of a unit with three candidates between them.
    NakedTriple,
    /// The fish of three rows and columns.
    Swordfish,
    /// Three digits with three places between them in a unit.
    HiddenTriple,
    /// Two strong links on one digit joined by a weak one (skyscraper, two-string kite,
    /// turbot crane): cells seeing both ends lose the digit. Sukaku Explainer's scale only,
    /// 4.0-4.3 by the kinds of unit of the strong links.
    TurbotFish,
    /// A bivalue pivot {x,y} and two bivalue pincers {x,z}, {y,z}: cells seeing both pincers
    /// lose z.
    XyWing,
    /// A pivot {x,y,z} and pincers {x,z}, {y,z}: cells seeing all three lose z.
    XyzWing,
    /// Four cells of two rows, columns and boxes that would let two digits swap: what
    /// avoids that (types 1, 2 and 4). Only in a puzzle proved unique.
    UniqueRectangle,
    /// The unique rectangle's pattern on six or eight cells: a loop whose cells could all hold
    /// only the pair, which could then alternate either way (types 1 and 2). Only in a puzzle
    /// proved unique. Sukaku Explainer's scale only, 4.6 and 4.7.
    UniqueLoop,
    /// Four cells of a unit with four candidates between them.
    NakedQuad,
    /// The fish of four rows and columns.
    Jellyfish,
    /// Four digits with four places between them in a unit.
    HiddenQuad,
    /// Three strong links on one digit joined by weak ones: cells seeing both ends lose the
    /// digit. Sukaku Explainer's scale only, 5.4-5.7 by the kinds of unit of the links.
    ThreeStrongLinks,
    /// Three cells that see each other holding four digits between them, and a bivalue cell
    /// {x,z} whose x they can only hold where it sees it: one of them holds z. Sukaku
    /// Explainer's scale only, 5.5-5.6.
    WxyzWing,
    /// BUG+1: all cells bivalue but one, which takes the digit that would leave a grave. Only
    /// in a puzzle proved unique.
    Bug,
    /// BUG type 2: several cells beyond bivalue with the same one digit too many, which one of
    /// them must hold. Only in a puzzle proved unique. Sukaku Explainer's scale only, 5.7.
    BugTypeTwo,
    /// The WXYZ-wing's pattern with four cells holding five digits. Sukaku Explainer's scale
    /// only, 6.2-6.4.
    VwxyzWing,
    /// Two cells and the bivalue cells seeing both: a candidate of theirs that every pair of
    /// digits they could take with it would leave one of those cells empty (or put one digit
    /// twice where they see each other) goes. Sukaku Explainer's scale only, 6.2.
    AlignedPairExclusion,
    /// A continuous loop of one digit's strong and weak links: each weak link's two cells
    /// hold the digit once, so cells seeing both lose it (SE's bidirectional X-cycle).
    /// Sukaku Explainer's scale only, 6.5 and up by length.
    XCycle,
    /// A loop of bivalue cells, each sharing a digit with the next, that sees itself: each
    /// linked pair's digit is in one of the two, so cells seeing both lose it (SE's
    /// bidirectional Y-cycle). Sukaku Explainer's scale only, 6.5 and up by length.
    YCycle,
    /// An alternating chain of strong and weak links on one digit (skyscrapers, kites, turbot
    /// fish and simple colouring are short ones).
    XChain,
    /// Two bivalue cells {x,y} that do not see each other, joined by a strong link on x.
    WWing,
    /// A continuous loop of any strong and weak links (SE's bidirectional cycle). Sukaku
    /// Explainer's scale only, 7.0 and up by length.
    XyCycle,
    /// An alternating inference chain over cells and units, on any digits.
    Aic,
    /// A dynamic forcing chain: a candidate assumed true or false and followed through singles
    /// to a contradiction, or to a conclusion both ways agree on.
    ForcingChain,
    /// A dynamic forcing chain that also follows pointing, claiming, naked and hidden pairs and
    /// X-wings (SE's "dynamic forcing chain (+)").
    ForcingChainPlus,
    /// A forcing chain with chains inside it: it also follows X-chains and AICs (9.5 and up),
    /// then the contradictions of bivalue cells by singles (10.5 and up): SE's nested forcing
    /// chains.
    NestedForcingChain,
    /// No technique applies: a cell takes its digit from the solution, said to be a guess.
    Guess,
}

impl Technique {
    /// Every technique, in the order the solver tries them.
    pub const ALL: [Technique; 40] = [
        Technique::FullHouse,
        Technique::HiddenSingle,
        Technique::DirectPointing,
        Technique::DirectClaiming,
        Technique::DirectHiddenPair,
        Technique::CageCombination,
        Technique::NakedSingle,
        Technique::DirectHiddenTriple,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::TurbotFish,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::UniqueRectangle,
        Technique::UniqueLoop,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::ThreeStrongLinks,
        Technique::WxyzWing,
        Technique::Bug,
        Technique::BugTypeTwo,
        Technique::VwxyzWing,
        Technique::AlignedPairExclusion,
        Technique::XCycle,
        Technique::YCycle,
        Technique::XChain,
        Technique::WWing,
        Technique::XyCycle,
        Technique::Aic,
        Technique::ForcingChain,
        Technique::ForcingChainPlus,
        Technique::NestedForcingChain,
        Technique::Guess,
    ];

    /// Its name, as people say it (and as `--json` writes it).
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "full house",
            Technique::HiddenSingle => "hidden single",
            Technique::DirectPointing => "direct pointing",
            Technique::DirectClaiming => "direct claiming",
            Technique::DirectHiddenPair => "direct hidden pair",
            Technique::CageCombination => "cage combination",
            Technique::NakedSingle => "naked single",
            Technique::DirectHiddenTriple => "direct hidden triple",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "x-wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden triple",
            Technique::TurbotFish => "turbot fish",
            Technique::XyWing => "xy-wing",
            Technique::XyzWing => "xyz-wing",
            Technique::UniqueRectangle => "unique rectangle",
            Technique::UniqueLoop => "unique loop",
            Technique::NakedQuad => "naked quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden quad",
            Technique::ThreeStrongLinks => "three strong links",
            Technique::WxyzWing => "wxyz-wing",
            Technique::Bug => "bug+1",
            Technique::BugTypeTwo => "bug type 2",
            Technique::VwxyzWing => "vwxyz-wing",
            Technique::AlignedPairExclusion => "aligned pair exclusion",
            Technique::XCycle => "x-cycle",
            Technique::YCycle => "y-cycle",
            Technique::XChain => "x-chain",
            Technique::WWing => "w-wing",
            Technique::XyCycle => "xy-cycle",
            Technique::Aic => "aic",
            Technique::ForcingChain => "forcing chain",
            Technique::ForcingChainPlus => "forcing chain+",
            Technique::NestedForcingChain => "nested forcing chain",
            Technique::Guess => "guess",
        }
    }

    /// Its score in tenths on SE's scale, before any length bonus; hidden singles score 12 in
    /// a box and 15 in a line (this gives the box's).
    pub fn base_tenths(self) -> u16 {
        match self {
            Technique::FullHouse => 10,
            Technique::HiddenSingle => 12,
            Technique::DirectPointing => 17,
            Technique::DirectClaiming => 19,
            Technique::DirectHiddenPair => 20,
            Technique::CageCombination => 22,
            Technique::NakedSingle => 23,
            Technique::DirectHiddenTriple => 25,
            Technique::Pointing => 26,
            Technique::Claiming => 28,
            Technique::NakedPair => 30,
            Technique::XWing => 32,
            Technique::HiddenPair => 34,
            Technique::NakedTriple => 36,
            Technique::Swordfish => 38,
            Technique::HiddenTriple => 40,
            Technique::TurbotFish => 40,
            Technique::XyWing => 42,
            Technique::XyzWing => 44,
            Technique::UniqueRectangle => 45,
            Technique::UniqueLoop => 46,
            Technique::NakedQuad => 50,
            Technique::Jellyfish => 52,
            Technique::HiddenQuad => 54,
            Technique::ThreeStrongLinks => 54,
            Technique::WxyzWing => 55,
            Technique::Bug => 56,
            Technique::BugTypeTwo => 57,
            Technique::VwxyzWing => 62,
            Technique::AlignedPairExclusion => 62,
            Technique::XCycle => 65,
            Technique::YCycle => 65,
            Technique::XChain => 66,
            Technique::WWing => 70,
            Technique::XyCycle => 70,
            Technique::Aic => 70,
            Technique::ForcingChain => 85,
            Technique::ForcingChainPlus => 90,
            Technique::NestedForcingChain => 95,
            Technique::Guess => 120,
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Technique {
    type Err = String;

    fn from_str(name: &str) -> Result<Technique, String> {
        Technique::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("'{name}' is not a technique"))
    }
}

/// SE's length modifier of a chain of `nodes` nodes, in tenths: nothing up to 4 nodes, then a
/// tenth each time the length passes the next of 4, 6, 8, 12, 16, 24, 32, ... (the ceiling grows
/// by 3/2 and 4/3 in turn).
pub fn length_bonus(nodes: usize) -> u16 {
    let mut bonus = 0;
    let mut ceiling = 4;
    let mut odd = false;
    while nodes > ceiling {
        bonus += 1;
        ceiling = if odd {
            ceiling * 4 / 3
        } else {
            ceiling * 3 / 2
        };
        odd = !odd;
    }
    bonus
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_the_solver_order() {
        let scores: Vec<u16> = Technique::ALL.iter().map(|t| t.base_tenths()).collect();
        assert!(scores.windows(2).all(|w| w[0] <= w[1]), "{scores:?}");
        for t in Technique::ALL {
            assert_eq!(t.name().parse::<Technique>(), Ok(t));
        }
    }

    #[test]
    fn length_bonus_grows_slowly() {
        let bonuses: Vec<u16> = [4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25]
            .iter()
            .map(|&n| length_bonus(n))
            .collect();
        assert_eq!(bonuses, [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]);
    }
}
