//! One crate-wide error type.
//!
//! An [`Error`] is a [`ErrorKind`] (what was wrong, with the numbers in it) plus, when the error
//! comes from reading text, the 1-based line and column where it was found. Its `Display` puts
//! all of that in one line, e.g. `line 3, column 7: unknown item 'x9'`, so that the command-line
//! tool can print it as it is.

use std::fmt;

/// A specialised `Result` whose error is quadrille's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// What would read an input that an [`Error`] refused ([`Error::remedy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remedy {
    /// Boxes of `rows` x `cols`: the transposed ones of the boxes inferred from the length.
    TransposedBoxes {
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        cols: usize,
    },
    /// The multi-line grid layout: the line looks like one row of a grid.
    GridLayout,
    /// A box shape given by the caller: none can be inferred from the length.
    GiveShape,
}

/// An error: what went wrong, and where in the input, if it came from input.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    line: Option<usize>,
    column: Option<usize>,
    /// The boxes (rows, columns) a puzzle was read with when they were inferred from the
    /// puzzle's length: the error may be the wrong shape's, not the puzzle's. Bytes, not a
    /// `Shape`, so that this module imports none that imports it, and so that an `Error`
    /// stays small enough to return by value.
    inferred: Option<(u8, u8)>,
    /// Whether the cells of an [`ErrorKind::UnknownShape`] are as many as one row of a grid
    /// has, so that the multi-line layout would read the input ([`Remedy::GridLayout`]). Set
    /// where the error is built, by the reader that knows the shapes, so that this module
    /// imports nothing from `sudoku`.
    grid_row: bool,
}

/// What went wrong. Names and characters from the input are shown escaped (`'\u{7}'`, `'\t'`),
/// so that a message never carries raw control characters to a terminal.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    // --- Building an exact-cover problem ---
    /// An item name was declared twice.
    #[error("item '{}' is declared twice", .name.escape_debug())]
    DuplicateItem {
        /// The repeated name.
        name: String,
    },
    /// An item name is not allowed (blank, or containing `|` or `:`).
    #[error("'{}' is not a valid item name: {reason}", .name.escape_debug())]
    InvalidItemName {
        /// The rejected name.
        name: String,
        /// Why it was rejected.
        reason: &'static str,
    },
    /// An option names an item that was never declared.
    #[error("unknown item '{}'", .name.escape_debug())]
    UnknownItem {
        /// The unknown name (or index, written as a number).
        name: String,
    },
    /// An option names the same item twice.
    #[error("item '{}' appears twice in one option", .name.escape_debug())]
    RepeatedItem {
        /// The repeated item's name.
        name: String,
    },
    /// An option with no items at all.
    #[error("an option must name at least one item")]
    EmptyOption,
    /// An option made only of secondary items.
    #[error("an option must contain at least one primary item")]
    NoPrimaryInOption,
    /// A problem without primary items.
    #[error("there are no primary items")]
    NoPrimaryItems,
    /// The problem does not fit the engine's 32-bit node indices.
    #[error("the problem is too large: {what}")]
    TooLarge {
        /// What overflowed.
        what: String,
    },
    /// The dlx text has no line that declares the items.
    #[error("no item line: the first line that is not a comment must list the items")]
    MissingItemLine,
    /// A second `|` on the item line.
    #[error("the item line may contain only one '|' (between primary and secondary items)")]
    SecondSeparator,
    /// A problem with colours or multiplicities given to plain dancing links
    /// ([`Dlx`](crate::exact_cover::Dlx)); [`Xcc`](crate::exact_cover::Xcc) searches it.
    #[error("the problem has {what}: plain dancing links cannot search it, Xcc can")]
    NotPlain {
        /// "colours", "multiplicities" or both.
        what: &'static str,
    },
    /// A colour given to a primary item (only secondary items take colours).
    #[error("primary item '{}' cannot have a colour (only secondary items can)", .name.escape_debug())]
    ColorOnPrimary {
        /// The item's name.
        name: String,
    },
    /// A colour name that is not allowed (empty, or containing a blank, `|` or `:`).
    #[error("'{}' is not a valid colour: {reason}", .color.escape_debug())]
    InvalidColor {
        /// The rejected colour.
        color: String,
        /// Why it was rejected.
        reason: &'static str,
    },
    /// Multiplicity bounds that no solution can meet or that make no sense.
    #[error("item '{}' has bounds {lower}:{upper}: {reason}", .name.escape_debug())]
    InvalidBounds {
        /// The item's name.
        name: String,
        /// The lower bound.
        lower: u32,
        /// The upper bound.
        upper: u32,
        /// What is wrong with them.
        reason: &'static str,
    },
    /// An option's cost (Knuth's dlx5 `|7`, miniexact's `$7`) that does not parse.
    #[error("'{}' is not a valid cost: {reason}", .token.escape_debug())]
    InvalidCost {
        /// The token as written.
        token: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An option number that no option has.
    #[error("there is no option {option}")]
    UnknownOption {
        /// The option number given.
        option: usize,
    },
    /// A multiplicity prefix (dlx3's `lower:upper|name`) that does not parse.
    #[error("'{}' is not a valid bound prefix: {reason}", .token.escape_debug())]
    InvalidBoundSpec {
        /// The token as written.
        token: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A pentomino board whose area is not the 60 cells the twelve pieces cover.
    #[error("a {rows}x{cols} board does not have the 60 cells that the twelve pentominoes cover")]
    PentominoBoard {
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },

    // --- Boards ---
    /// A group (or a board) that breaks the board model's rules.
    #[error("invalid {group}: {reason}")]
    InvalidGroup {
        /// The group, e.g. `row 3`, or the board.
        group: String,
        /// What is wrong.
        reason: &'static str,
    },

    // --- Reading Sudoku puzzles ---
    /// A character that is neither a digit of this shape nor a blank.
    #[error("unexpected character '{}'", .ch.escape_debug())]
    BadCharacter {
        /// The offending character.
        ch: char,
    },
    /// A digit larger than the grid allows.
    #[error("digit {digit} is out of range for a {size}x{size} grid (1..={size})")]
    DigitOutOfRange {
        /// The digit read.
        digit: u32,
        /// The grid size n (digits are 1..=n).
        size: usize,
    },
    /// A puzzle with the wrong number of cells.
    #[error("expected {expected} cells, found {found}")]
    WrongLength {
        /// Cells expected for the shape.
        expected: usize,
        /// Cells found.
        found: usize,
    },
    /// A line longer than its format allows (the README's "Input formats" gives each
    /// format's limit); it is not held. The puzzle reader reads through it and goes on.
    #[error("the line is longer than {limit} bytes, more than any {what} needs")]
    LineTooLong {
        /// The longest line taken, in bytes before its `\n`.
        limit: usize,
        /// What a line of the format is: "puzzle", "dlx line", "shard result".
        what: &'static str,
    },
    /// An input longer than its format allows, refused at the line that passes the limit:
    /// a reader that keeps what it reads (a problem, shard results) reads no further.
    #[error("the input is longer than {limit} bytes, more than any {what} needs")]
    InputTooLarge {
        /// The most bytes taken, line ends included.
        limit: u64,
        /// What an input of the format is: "dlx file", "file of shard results".
        what: &'static str,
    },
    /// A cell count that matches no square grid the shape can be inferred from. Giving the
    /// shape to the reader settles it; the message names no command-line flag, as the library
    /// may have none: the tool adds its own hint.
    #[error("cannot tell the grid shape from {cells} cells")]
    UnknownShape {
        /// The number of cells read.
        cells: usize,
    },
    /// A box shape that is not allowed.
    #[error("invalid box shape {rows}x{cols}: {reason}")]
    InvalidShape {
        /// Box rows.
        rows: usize,
        /// Box columns.
        cols: usize,
        /// Why it is invalid.
        reason: &'static str,
    },
    /// A box specification that does not parse (it should read like `3x3`).
    #[error("invalid box specification '{}': expected RxC, e.g. 3x3 or 2x3", .spec.escape_debug())]
    InvalidShapeSpec {
        /// The text given.
        spec: String,
    },
    /// A `# box: RxC` header that names other boxes than the ones the reader was given.
    #[error(
        "this header says boxes of {}x{}, but boxes of {}x{} were asked for",
        header.0, header.1, asked.0, asked.1
    )]
    ConflictingBoxes {
        /// The header's boxes (rows, columns).
        header: (usize, usize),
        /// The boxes asked for (rows, columns).
        asked: (usize, usize),
    },
    /// Two equal givens in one row, column or box.
    #[error(
        "digit {digit} is given twice in {unit}: at r{}c{} and r{}c{}",
        first.0, first.1, second.0, second.1
    )]
    ConflictingGivens {
        /// The repeated digit.
        digit: u32,
        /// "row 3", "column 5" or "box 2".
        unit: String,
        /// (row, column), 1-based, of the first given.
        first: (usize, usize),
        /// (row, column), 1-based, of the second given.
        second: (usize, usize),
    },

    /// A variant's part of a puzzle line (a region map, a cage map, a cage sum) that is
    /// wrong, or a variant that cannot be played on the grid.
    #[error("{reason}")]
    BadVariant {
        /// What is wrong, naming the region, cage or variant.
        reason: String,
    },

    // --- Making puzzles ---
    /// A request that no puzzle can meet, e.g. an unsolvable 1x1 grid.
    #[error("cannot make {what}: {reason}")]
    Unsatisfiable {
        /// What was asked for.
        what: String,
        /// Why it cannot be.
        reason: &'static str,
    },

    /// A search for a puzzle to order ran out of attempts or time before one was accepted.
    /// The message leaves out the time spent, so that a seed's output is the same bytes on
    /// every run unless the time limit itself was reached.
    #[error("found no {what} in {attempts} attempt{}{}", if *.attempts == 1 { "" } else { "s" }, if *.timed_out { " (the time budget ran out)" } else { "" })]
    GaveUp {
        /// What was asked for.
        what: String,
        /// Attempts made (the last may have been cut short by the time limit).
        attempts: u64,
        /// Whether the time limit, not the attempts, ended the search.
        timed_out: bool,
        /// Wall time spent.
        seconds: f64,
    },

    // --- Solving ---
    /// A board that an engine cannot solve puzzles on, e.g. a 16x16 Sudoku for the bitboard
    /// engine.
    #[error("the {engine} engine cannot solve puzzles on this board: {reason}")]
    UnsupportedBoard {
        /// The engine's name.
        engine: &'static str,
        /// What about the board is out of its reach, with the numbers.
        reason: String,
    },

    // --- Anything else ---
    /// An engine or configuration name that is not known.
    #[error("unknown {what} '{}'{hint}", .name.escape_debug())]
    UnknownName {
        /// What kind of name ("engine", "propagation level", ...).
        what: &'static str,
        /// The name given.
        name: String,
        /// Extra help, e.g. the list of valid names (may be empty).
        hint: String,
    },
    /// Two names that set the same thing, e.g. two propagation levels in one CSP configuration.
    #[error("'{}' conflicts with '{}': both set the {what}", .second.escape_debug(), .first.escape_debug())]
    ConflictingNames {
        /// What both names set ("propagation level", ...).
        what: &'static str,
        /// The name seen first.
        first: String,
        /// The name seen second.
        second: String,
    },
    /// A line of shard results that is not one (see [`crate::merge`]).
    #[error("not a shard result: {reason}")]
    BadShardRecord {
        /// What was wrong with it.
        reason: String,
    },
    /// Shard results that cannot be added up: of different problems or splits, or a shard
    /// given twice (see [`crate::merge`]).
    #[error("cannot merge: {reason}")]
    ShardMismatch {
        /// Which shards disagree, and on what.
        reason: String,
    },
    /// A budget ran out while something that is all or nothing was being built: the split of
    /// a shard ([`Dlx::shard_plan_within`](crate::exact_cover::Dlx::shard_plan_within)) or
    /// the decision diagram ([`Dlx::zdd_within`](crate::exact_cover::Dlx::zdd_within)).
    #[error("the {budget} ran out while {what}: give it more")]
    StoppedBuilding {
        /// "time budget" or "node budget".
        budget: &'static str,
        /// What was being built, as "the diagram was being built".
        what: &'static str,
    },
    /// A checkpoint file that another count holds locked (see [`crate::long_count`]): two
    /// counts appending to one file would write their shards twice.
    #[error("another count holds this checkpoint")]
    CheckpointInUse,
    /// A search [`Plan`](crate::exact_cover::Plan) that asks for what no search does: a
    /// combination that the plan's documentation lists as unsupported, or a shard that the
    /// shard plan does not have.
    #[error("unsupported search plan: {reason}")]
    UnsupportedPlan {
        /// What the plan asked for, and why it cannot be had.
        reason: String,
    },
    /// The decision diagram of every solution needs more memory than it was given.
    #[error("the diagram of every solution needs more than {bytes} bytes (see --memory)")]
    DiagramTooLarge {
        /// The memory it was given.
        bytes: usize,
    },
    /// A decision diagram's text is not in the format of `docs/memo.md`.
    #[error("bad diagram: {reason}")]
    BadDiagram {
        /// What is wrong.
        reason: String,
    },
    /// A request with a field out of range, or one that asks what its problem cannot do
    /// (see [`crate::request`]).
    #[error("{0}")]
    InvalidRequest(Invalid),
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A field of a request, named so that a front end can say it in its own words
/// ([`crate::request`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// The solution limit.
    Limit,
    /// The number of threads.
    Threads,
    /// The node budget.
    NodeBudget,
    /// The time budget, in seconds.
    TimeBudget,
    /// How the search goes: Knuth's walk, no restarts, or the default.
    Search,
    /// How a count remembers subproblems.
    Memo,
    /// The probes of an estimate.
    Probes,
    /// The shard of a split, and the number of shards.
    Shard,
    /// The kind of puzzle to make.
    Kind,
    /// The givens of the puzzles to make.
    Givens,
    /// The blanks of the puzzles to make.
    Blanks,
    /// A uniform draw of the grids.
    Uniform,
    /// The symmetry of the givens.
    Symmetry,
    /// The minimality to prove.
    Minimal,
    /// The engine of the searches.
    Engine,
    /// A level of difficulty.
    Difficulty,
    /// A band of scores.
    Score,
    /// Whether to rate.
    Rate,
    /// Attempts per puzzle.
    Attempts,
    /// The decision diagram of every solution (`--zdd`, `--sample`).
    Diagram,
    /// How many cheapest solutions to find.
    Cheapest,
    /// The propagation levels whose backtracks a rating counts.
    Levels,
    /// The nodes of each level's search.
    LevelNodes,
    /// The puzzles given as text.
    Puzzle,
    /// The box shape of the puzzles.
    Box,
    /// The variant of the puzzles.
    Variant,
    /// The layout of the puzzles' text: one a line, or grids.
    Layout,
    /// The rating scale.
    Scale,
    /// How many puzzles to make.
    Count,
}

impl Field {
    /// The field's name in snake case, as keyword arguments and JSON keys spell it
    /// (`time_budget`).
    pub fn name(self) -> &'static str {
        match self {
            Field::Limit => "limit",
            Field::Threads => "threads",
            Field::NodeBudget => "node_budget",
            Field::TimeBudget => "time_budget",
            Field::Search => "search",
            Field::Memo => "memo",
            Field::Probes => "probes",
            Field::Shard => "shard",
            Field::Kind => "kind",
            Field::Givens => "givens",
            Field::Blanks => "blanks",
            Field::Uniform => "uniform",
            Field::Symmetry => "symmetry",
            Field::Minimal => "minimal",
            Field::Engine => "engine",
            Field::Difficulty => "difficulty",
            Field::Score => "score",
            Field::Rate => "rate",
            Field::Attempts => "attempts",
            Field::Diagram => "diagram",
            Field::Cheapest => "cheapest",
            Field::Levels => "levels",
            Field::LevelNodes => "level_nodes",
            Field::Puzzle => "puzzle",
            Field::Box => "box",
            Field::Variant => "variant",
            Field::Layout => "layout",
            Field::Scale => "scale",
            Field::Count => "count",
        }
    }
}

/// A request that cannot be carried out as asked: which field, and what is wrong with it.
/// Kept here, beside [`Error`], so that the error module imports nothing above it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    /// The field at fault.
    pub field: Field,
    /// What is wrong, in words that name no flag or keyword (`must be 1 or more`).
    pub message: String,
}

impl Invalid {
    /// The error of `field`, saying `message`.
    pub fn new(field: Field, message: impl Into<String>) -> Invalid {
        Invalid {
            field,
            message: message.into(),
        }
    }
}

impl fmt::Display for Invalid {
    /// `field: message`, with the field in snake case.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field.name(), self.message)
    }
}

impl std::error::Error for Invalid {}

impl From<Invalid> for Error {
    fn from(invalid: Invalid) -> Error {
        Error::new(ErrorKind::InvalidRequest(invalid))
    }
}

impl Error {
    /// An error with no position.
    pub fn new(kind: ErrorKind) -> Error {
        Error {
            kind,
            line: None,
            column: None,
            inferred: None,
            grid_row: false,
        }
    }

    /// An error at a 1-based line and column.
    pub fn at(kind: ErrorKind, line: usize, column: usize) -> Error {
        Error {
            kind,
            line: Some(line),
            column: Some(column),
            inferred: None,
            grid_row: false,
        }
    }

    /// The same error, placed at a 1-based line (the column stays as it was).
    pub fn with_line(mut self, line: usize) -> Error {
        self.line = Some(line);
        self
    }

    /// The same error, placed at a 1-based column (the line stays as it was).
    pub fn with_column(mut self, column: usize) -> Error {
        self.column = Some(column);
        self
    }

    /// The same error, for a puzzle read with boxes of `box_rows` x `box_cols` inferred from
    /// its length. The message then says so when the boxes are not square, since the puzzle may
    /// have been made with the transposed ones (4x2 for 2x4), which fit the same grid.
    pub fn with_inferred_boxes(mut self, box_rows: usize, box_cols: usize) -> Error {
        // Box sides fit a byte (a shape's side is at most 64); a larger one gets no note.
        self.inferred = u8::try_from(box_rows).ok().zip(u8::try_from(box_cols).ok());
        self
    }

    /// The same error, noting whether its cells are as many as one row of a grid has (see
    /// [`Error::remedy`]).
    pub(crate) fn with_grid_row(mut self, grid_row: bool) -> Error {
        self.grid_row = grid_row;
        self
    }

    /// The boxes (rows, columns) inferred for the puzzle, when that is where the error may
    /// come from: boxes that are not square.
    pub fn inferred_boxes(&self) -> Option<(usize, usize)> {
        let (rows, cols) = self.inferred.filter(|(rows, cols)| rows != cols)?;
        Some((usize::from(rows), usize::from(cols)))
    }

    /// What the caller can change to read the input, when the error points at it: a front
    /// end names its own flag or argument for it (the library's messages name none).
    ///
    /// ```
    /// use quadrille::error::Remedy;
    /// use quadrille::io::puzzle::parse_line;
    ///
    /// assert_eq!(parse_line("12x", None).unwrap_err().remedy(), Some(Remedy::GiveShape));
    /// // A row of a 9x9 read as a puzzle of its own.
    /// assert_eq!(parse_line("123456789", None).unwrap_err().remedy(), Some(Remedy::GridLayout));
    /// ```
    pub fn remedy(&self) -> Option<Remedy> {
        if let Some((rows, cols)) = self.inferred_boxes() {
            return Some(Remedy::TransposedBoxes {
                rows: cols,
                cols: rows,
            });
        }
        match self.kind {
            // A row of a grid (9 cells of a 9x9) read as a one-line puzzle.
            ErrorKind::UnknownShape { .. } if self.grid_row => Some(Remedy::GridLayout),
            ErrorKind::UnknownShape { .. } => Some(Remedy::GiveShape),
            _ => None,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The 1-based line of the input where it went wrong, if known.
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// The 1-based column of the input where it went wrong, if known.
    pub fn column(&self) -> Option<usize> {
        self.column
    }

    /// The message without the position, e.g. for a JSON `error` field next to a `line` field.
    pub fn message(&self) -> String {
        let message = match self.column {
            Some(column) => format!("column {column}: {}", self.kind),
            None => self.kind.to_string(),
        };
        message + &self.inferred_note()
    }

    /// `; read with RxC boxes, inferred from its length` when [`Error::inferred_boxes`] is set.
    fn inferred_note(&self) -> String {
        self.inferred_boxes()
            .map_or_else(String::new, |(rows, cols)| {
                format!("; read with {rows}x{cols} boxes, inferred from its length")
            })
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Error {
        Error::new(kind)
    }
}

impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Error {
        Error::new(ErrorKind::Io(err))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "line {line}, column {column}: {}", self.kind)?,
            (Some(line), None) => write!(f, "line {line}: {}", self.kind)?,
            (None, Some(column)) => write!(f, "column {column}: {}", self.kind)?,
            (None, None) => write!(f, "{}", self.kind)?,
        }
        f.write_str(&self.inferred_note())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(err) => Some(err),
            _ => None,
        }
    }
}
