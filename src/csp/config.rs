//! How the CSP solver searches: propagation strength, the pigeonhole check, and the variable and
//! value orders, with names that parse (`mrv+lex+hidden-singles`) and print back.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind, Result};

/// How much the solver infers after each assignment. Every level includes the ones before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Propagation {
    /// `fc`: an assignment removes its digit from its peers' domains; an empty domain fails.
    ForwardChecking,
    /// `ac`: repeated until stable, a domain of size one is assigned and propagates (naked
    /// singles). For all-different over single cells this is arc consistency of the binary
    /// `!=` constraints.
    ArcConsistency,
    /// `hidden-singles`: a digit with one place left in a unit is assigned there; a digit with
    /// no place left fails.
    HiddenSingles,
    /// `pairs`: naked and hidden pairs remove candidates.
    Pairs,
    /// `triples`: naked and hidden triples (and pairs) remove candidates.
    Triples,
    /// `alldiff`: every unit is generalised-arc-consistent: a digit stays a candidate of a
    /// cell only if some filling of the unit with different digits gives it that digit
    /// (Régin's matching algorithm). Subsumes pairs, triples, the pigeonhole check and
    /// naked and hidden subsets of every size.
    AllDiff,
}

/// Which unassigned cell to branch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariableOrder {
    /// `first`: the first unassigned cell in row-major order.
    First,
    /// `mrv`: minimum remaining values, the first cell with the fewest candidates.
    Mrv,
    /// `mrv-degree`: MRV, ties broken by the most unassigned peers.
    MrvDegree,
}

/// In which order to try the digits of the chosen cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueOrder {
    /// `lex`: 1, 2, ..., n.
    Lexicographic,
    /// `lcv`: least constraining value first, the digit that removes the fewest candidates
    /// from unassigned peers (ties: smaller digit).
    LeastConstraining,
    /// `least-placed`: the digit placed fewest times in the grid so far first (ties: smaller
    /// digit).
    LeastPlaced,
}

/// A complete CSP configuration. Written as tokens joined by `+` in any order; a missing part
/// takes the default's part, but `scaled` is on only when named.
///
/// ```
/// use quadrille::csp::{Config, Propagation, ValueOrder, VariableOrder};
///
/// let config: Config = "lcv+triples+pigeonhole".parse()?;
/// assert_eq!(config.propagation, Propagation::Triples);
/// assert_eq!(config.value, ValueOrder::LeastConstraining);
/// assert_eq!(config.variable, VariableOrder::MrvDegree); // from the default
/// assert!(config.pigeonhole);
/// assert_eq!(config.to_string(), "mrv-degree+lcv+triples+pigeonhole");
/// assert_eq!(config.to_string().parse::<Config>()?, config);
/// assert!("mrv+fast".parse::<Config>().is_err());
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// How much to infer after each assignment.
    pub propagation: Propagation,
    /// Whether to remove locked candidates (a digit confined to where two units meet leaves
    /// the rest of both) with the other rules of the level, from `hidden-singles` on.
    pub intersections: bool,
    /// Whether to run the all-different pigeonhole check after propagation.
    pub pigeonhole: bool,
    /// Whether boards of side above [`Config::SCALED_ABOVE`] are searched at `alldiff` with
    /// `intersections` in place of this configuration's propagation (token `scaled`; only the
    /// default has it without the token): the filters that cost more than they save on 9x9
    /// and 16x16 grids are what decide generated 36x36 and 49x49 puzzles in seconds (see the
    /// module docs of [`crate::csp`]).
    pub scaled: bool,
    /// Whether a search of a nearly empty puzzle (more than [`Config::FILL_ABOVE`] of the
    /// cells open after the root's propagation) branches on the first open cell in reading
    /// order while more than [`Config::FILL_UNTIL`] are open, and by `variable` after (token
    /// `fill`; only the default has it without the token, on boards above
    /// [`Config::SCALED_ABOVE`]). Filling rows in order leaves the last open cells in the
    /// last rows, where the matching of the columns and locked candidates see what is
    /// missing; the fewest-candidates order scatters them over the grid, where the
    /// contradiction of an early choice shows only at the end (see the module docs of
    /// [`crate::csp`]).
    pub fill: bool,
    /// Which cell to branch on.
    pub variable: VariableOrder,
    /// In which order to try its digits.
    pub value: ValueOrder,
}

impl Default for Config {
    /// `mrv-degree+lex+hidden-singles+scaled`: up to 16x16, `mrv-degree+lex+hidden-singles`,
    /// the fastest configuration measured on the 17-clue and forum-hardest sets (see the
    /// module docs of [`crate::csp`]); above, `mrv-degree+lex+alldiff+intersections`. The
    /// degree tie-break cuts the nodes by a third against plain MRV (221 against 345 per
    /// forum-hardest puzzle) for little work per node; pairs, triples, alldiff and
    /// intersections cut nodes further but cost more than they save on 9x9 grids, and
    /// without alldiff and intersections generated 36x36 and 49x49 puzzles are not decided
    /// in minutes.
    fn default() -> Config {
        Config {
            propagation: Propagation::HiddenSingles,
            intersections: false,
            pigeonhole: false,
            scaled: true,
            fill: false,
            variable: VariableOrder::MrvDegree,
            value: ValueOrder::Lexicographic,
        }
    }
}

impl Config {
    /// The largest board side on which a `scaled` configuration searches as it says; above
    /// it, at `alldiff` with `intersections`. On generated unique 16x16 puzzles the two did
    /// about equally well, on 25x25 ones `alldiff+intersections` took half the time (see the
    /// module docs of [`crate::csp`]).
    pub const SCALED_ABOVE: usize = 16;

    /// A `fill` search fills in reading order when more than this fraction of the cells
    /// (three quarters) is open after the root's propagation: random puzzles with 95% and 99%
    /// blanks do, generated unique puzzles (about half the cells given from 25x25 to 49x49)
    /// and the hardness-peak bands (up to 72% blanks) do not.
    pub const FILL_ABOVE: (u64, u64) = (3, 4);

    /// A `fill` search fills in reading order while more than this fraction of the cells (a
    /// quarter) is open. On the 95%- and 99%-blank 64x64 puzzles of `easy_end.sh`, filling
    /// while more than half is open left one of three undecided at 5 s; to a quarter, all
    /// were decided in 3,000 nodes.
    pub const FILL_UNTIL: (u64, u64) = (1, 4);

    /// The configuration searched on boards of side `n`: this one, or for a `scaled` one on
    /// a board of side above [`Config::SCALED_ABOVE`], this one at `alldiff` with
    /// `intersections` and `fill`; `scaled` is off in both.
    ///
    /// ```
    /// use quadrille::csp::{Config, Propagation};
    ///
    /// let default = Config::default();
    /// assert_eq!(default.for_side(9).to_string(), "mrv-degree+lex+hidden-singles");
    /// assert_eq!(
    ///     default.for_side(36).to_string(),
    ///     "mrv-degree+lex+alldiff+intersections+fill"
    /// );
    /// let pairs: Config = "pairs".parse()?;
    /// assert_eq!(pairs.for_side(36).propagation, Propagation::Pairs);
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn for_side(self, n: usize) -> Config {
        let large = self.scaled && n > Config::SCALED_ABOVE;
        Config {
            propagation: if large {
                Propagation::AllDiff
            } else {
                self.propagation
            },
            intersections: self.intersections || large,
            fill: self.fill || large,
            scaled: false,
            ..self
        }
    }

    /// A set of configurations for comparisons, from weak to strong, including the default.
    pub fn presets() -> Vec<Config> {
        [
            "first+lex+fc",
            "mrv+lex+ac",
            "mrv+lex+hidden-singles",
            "mrv-degree+lex+hidden-singles+scaled",
            "mrv-degree+lex+pairs",
            "mrv-degree+lcv+triples+pigeonhole",
            "mrv-degree+lex+alldiff",
        ]
        .iter()
        .map(|name| name.parse().expect("preset names parse"))
        .collect()
    }

    /// Every configuration but the `scaled` and `fill` ones: 6 levels x 3 variable orders x 3 value
    /// orders x pigeonhole on/off x intersections on/off.
    pub fn all() -> Vec<Config> {
        let mut all = Vec::with_capacity(216);
        for propagation in Propagation::ALL {
            for variable in VariableOrder::ALL {
                for value in ValueOrder::ALL {
                    for pigeonhole in [false, true] {
                        for intersections in [false, true] {
                            all.push(Config {
                                propagation,
                                intersections,
                                pigeonhole,
                                scaled: false,
                                fill: false,
                                variable,
                                value,
                            });
                        }
                    }
                }
            }
        }
        all
    }
}

impl Propagation {
    /// Every level, weakest first.
    pub const ALL: [Propagation; 6] = [
        Propagation::ForwardChecking,
        Propagation::ArcConsistency,
        Propagation::HiddenSingles,
        Propagation::Pairs,
        Propagation::Triples,
        Propagation::AllDiff,
    ];

    /// The token that names this level.
    pub fn name(self) -> &'static str {
        match self {
            Propagation::ForwardChecking => "fc",
            Propagation::ArcConsistency => "ac",
            Propagation::HiddenSingles => "hidden-singles",
            Propagation::Pairs => "pairs",
            Propagation::Triples => "triples",
            Propagation::AllDiff => "alldiff",
        }
    }
}

impl VariableOrder {
    /// Every variable order.
    pub const ALL: [VariableOrder; 3] = [
        VariableOrder::First,
        VariableOrder::Mrv,
        VariableOrder::MrvDegree,
    ];

    /// The token that names this order.
    pub fn name(self) -> &'static str {
        match self {
            VariableOrder::First => "first",
            VariableOrder::Mrv => "mrv",
            VariableOrder::MrvDegree => "mrv-degree",
        }
    }
}

impl ValueOrder {
    /// Every value order.
    pub const ALL: [ValueOrder; 3] = [
        ValueOrder::Lexicographic,
        ValueOrder::LeastConstraining,
        ValueOrder::LeastPlaced,
    ];

    /// The token that names this order.
    pub fn name(self) -> &'static str {
        match self {
            ValueOrder::Lexicographic => "lex",
            ValueOrder::LeastConstraining => "lcv",
            ValueOrder::LeastPlaced => "least-placed",
        }
    }
}

/// One parsed token, tagged with the part of the configuration it sets.
enum Token {
    Propagation(Propagation),
    Pigeonhole,
    Intersections,
    Scaled,
    Fill,
    Variable(VariableOrder),
    Value(ValueOrder),
}

const PIGEONHOLE: &str = "pigeonhole";
const INTERSECTIONS: &str = "intersections";
const SCALED: &str = "scaled";
const FILL: &str = "fill";

fn valid_tokens() -> String {
    let mut names: Vec<&str> = Vec::new();
    names.extend(Propagation::ALL.iter().map(|p| p.name()));
    names.push(INTERSECTIONS);
    names.push(PIGEONHOLE);
    names.push(FILL);
    names.push(SCALED);
    names.extend(VariableOrder::ALL.iter().map(|v| v.name()));
    names.extend(ValueOrder::ALL.iter().map(|v| v.name()));
    names.join(", ")
}

fn token(name: &str) -> Option<Token> {
    if name == PIGEONHOLE {
        return Some(Token::Pigeonhole);
    }
    if name == INTERSECTIONS {
        return Some(Token::Intersections);
    }
    if name == SCALED {
        return Some(Token::Scaled);
    }
    if name == FILL {
        return Some(Token::Fill);
    }
    if let Some(&p) = Propagation::ALL.iter().find(|p| p.name() == name) {
        return Some(Token::Propagation(p));
    }
    if let Some(&v) = VariableOrder::ALL.iter().find(|v| v.name() == name) {
        return Some(Token::Variable(v));
    }
    ValueOrder::ALL
        .iter()
        .find(|v| v.name() == name)
        .map(|&v| Token::Value(v))
}

impl FromStr for Config {
    type Err = Error;

    /// Parses `+`-joined tokens in any order (case-insensitive); an empty string is the
    /// default. Two tokens for the same part (`fc+ac`) are an error, as is an unknown token.
    fn from_str(name: &str) -> Result<Config> {
        let mut config = Config::default();
        if name.trim().is_empty() {
            return Ok(config);
        }
        // Which token set each part, to refuse a second one.
        // A named configuration searches as named on every board unless it says `scaled`.
        config.scaled = false;
        let mut seen: [Option<String>; 7] = Default::default();
        for raw in name.split('+') {
            let lower = raw.trim().to_ascii_lowercase();
            let (part, what) = match token(&lower) {
                Some(Token::Propagation(p)) => {
                    config.propagation = p;
                    (0, "propagation level")
                }
                Some(Token::Pigeonhole) => {
                    config.pigeonhole = true;
                    (1, "pigeonhole option")
                }
                Some(Token::Variable(v)) => {
                    config.variable = v;
                    (2, "variable order")
                }
                Some(Token::Value(v)) => {
                    config.value = v;
                    (3, "value order")
                }
                Some(Token::Intersections) => {
                    config.intersections = true;
                    (4, "intersections option")
                }
                Some(Token::Scaled) => {
                    config.scaled = true;
                    (5, "scaled option")
                }
                Some(Token::Fill) => {
                    config.fill = true;
                    (6, "fill option")
                }
                None => {
                    return Err(Error::new(ErrorKind::UnknownName {
                        what: "CSP configuration token",
                        name: raw.trim().to_string(),
                        hint: format!(" in '{name}'; valid tokens: {}", valid_tokens()),
                    }));
                }
            };
            if let Some(first) = &seen[part] {
                return Err(Error::new(ErrorKind::ConflictingNames {
                    what,
                    first: first.clone(),
                    second: lower,
                }));
            }
            seen[part] = Some(lower);
        }
        Ok(config)
    }
}

impl fmt::Display for Config {
    /// The canonical name: `variable+value+propagation`, then `+intersections`,
    /// `+pigeonhole`, `+fill` and `+scaled` when on.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}+{}",
            self.variable.name(),
            self.value.name(),
            self.propagation.name()
        )?;
        if self.intersections {
            write!(f, "+{INTERSECTIONS}")?;
        }
        if self.pigeonhole {
            write!(f, "+{PIGEONHOLE}")?;
        }
        if self.fill {
            write!(f, "+{FILL}")?;
        }
        if self.scaled {
            write!(f, "+{SCALED}")?;
        }
        Ok(())
    }
}
