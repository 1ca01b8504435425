//! Knuth's dlx text format, as read by his program DLX1.
//!
//! ```text
//! | A comment: any line whose first non-blank character is '|'.
//! a b c d e f g | x y
//! a d x
//! b g
//! ```
//!
//! Lines that are blank, or whose first non-blank character is `|`, are comments. The first other
//! line lists the items: primary items first, then a `|`, then secondary items. Every further
//! non-comment line is one option, a list of item names separated by blanks (spaces or tabs).
//!
//! What we accept, compared with DLX1 (whose reading code we followed):
//! - An item name is any token without blanks, `|` or `:`; DLX1 also limits names to 8 characters,
//!   we do not.
//! - On the item line, DLX1 takes `|` as the separator when it starts a token (`a |x`, `a | x`) and
//!   rejects it at the end of a name (`a|`); we take `|` as the separator wherever it stands, so
//!   `a|x` works too. A second `|` is an error in both.
//! - On option lines `|` starts a comment only at the start of the line; anywhere else it
//!   starts a cost, as in dlx5 (see below), so there are no trailing comments: `a | b` is an
//!   error (DLX1 reads `|` as an unknown item there, dlx5 as a bad cost).
//! - Colours (Knuth's dlx2, XCC): on an option line a secondary item may carry a colour,
//!   `x:red`; the colour is any name without blanks, `|` or `:` (dlx2 limits it to a few
//!   characters). A colour on a primary item is an error, as in dlx2.
//! - Multiplicities (Knuth's dlx3): on the item line a primary item may be prefixed by its
//!   bounds, `lower:upper|name` (covered between `lower` and `upper` times) or `n|name` (exactly
//!   `n` times), with no blank inside; the upper bound is at least 1 and the lower bound at
//!   most the upper one. A number directly before a `|` is always a bound, so `3|x` is the item
//!   `x` with bound 3, where `a|x` is still `a`, the separator and `x`; write `3 | x` for an item
//!   named `3` followed by the separator. Secondary items take no bounds (dlx3 rejects them
//!   too).
//! - Costs: an option's cost is the sum of its tokens `|7` (Knuth's dlx5) or its one token
//!   `$7` (miniexact, which keeps only one), anywhere after its first item, 0 to 4294967295 in
//!   all; an option without one costs 0. Any other token starting with `|` is an error, so
//!   that a file dlx5 refuses is refused here too; an item line refuses a name of `$` and
//!   digits, which an option line would read as a cost.
//! - DLX1 drops an option without primary items with a warning; we reject it, since it can never
//!   be part of a solution and is most likely a typo.
//! - An item line cannot begin with `|` (that is a comment), so the first item is always primary,
//!   as in DLX1.
//!
//! Every error carries the 1-based line, and the 1-based column (counted in characters, a tab
//! is one) of the offending token.
//!
//! A line may be up to [`MAX_LINE_BYTES`] (64 MiB) long and the whole text up to
//! [`MAX_INPUT_BYTES`] (128 MiB): a longer line is an error at its line (column 1), and a longer
//! text at the line that passes the limit, and nothing past it is read. So a file that never
//! ends a line, or never ends, is refused once it has cost the limit, not all the memory
//! there is.
//!
//! Reading gives a [`DlxProblem`]: the [`Problem`] plus, for each option, the input line it came
//! from, so that later messages ("option on line 17") can point back into the file. Options and
//! items are numbered in input order, so the problem's option `k` is the `k`-th option line.

use std::io::{self, BufRead, BufWriter, Write};

use crate::error::{Error, ErrorKind, Result};
use crate::exact_cover::{ItemKind, MAX_OPTION_COST, Problem, ProblemBuilder};
use crate::io::lines::{self, LineReader};

/// The longest line read, in bytes before its `\n`: 64 MiB.
///
/// A dlx line can be long: the item line names every item, and an option may hold
/// thousands. The longest lines we know, the item lines of generated problems, are a few MB
/// (a chain of a million items); 64 MiB holds five million items with 12-byte names. A longer
/// line is [`ErrorKind::LineTooLong`] at its line.
pub const MAX_LINE_BYTES: usize = lines::DLX.line;

/// The most bytes of dlx text read, line ends included: 128 MiB.
///
/// The problem read is kept, and costs more than its text: options of one item (`a` on each
/// line) take about 29 bytes of memory a byte at the peak of a count, so 128 MiB of them
/// 3.7 GB; the largest problems we know are 15 MB. A longer text is
/// [`ErrorKind::InputTooLarge`] at the line that passes the limit.
pub const MAX_INPUT_BYTES: u64 = match lines::DLX.input {
    Some(limit) => limit,
    None => u64::MAX,
};

/// A problem read from dlx text, with the line each option came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DlxProblem {
    problem: Problem,
    item_line: usize,
    option_lines: Vec<usize>,
}

impl DlxProblem {
    /// The problem read.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The problem read, without the line numbers.
    pub fn into_problem(self) -> Problem {
        self.problem
    }

    /// The 1-based input line that declared the items.
    pub fn item_line(&self) -> usize {
        self.item_line
    }

    /// The 1-based input line of an option.
    ///
    /// # Panics
    /// If `option` is not below the problem's option count.
    pub fn option_line(&self, option: usize) -> usize {
        self.option_lines[option]
    }

    /// The 1-based input line of every option, in option order.
    pub fn option_lines(&self) -> &[usize] {
        &self.option_lines
    }
}

/// Parses dlx text held in memory.
///
/// ```
/// use quadrille::io::dlx::parse_problem;
///
/// let text = "| two items and a secondary one\na b | x\n\na x\nb\n";
/// let dlx = parse_problem(text)?;
/// let problem = dlx.problem();
/// assert_eq!((problem.item_count(), problem.primary_count()), (3, 2));
/// assert_eq!(problem.option_text(0), "a x");
/// assert_eq!(dlx.option_lines(), &[4, 5]);
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn parse_problem(text: &str) -> Result<DlxProblem> {
    read_problem(text.as_bytes())
}

/// Reads dlx text line by line, within [`MAX_LINE_BYTES`] a line and [`MAX_INPUT_BYTES`] in
/// all.
///
/// I/O errors (including text that is not UTF-8) carry the line being read; a line too long,
/// or a text, is an error at its line, and nothing after it is read.
pub fn read_problem<R: BufRead>(reader: R) -> Result<DlxProblem> {
    let mut builder = ProblemBuilder::new();
    let mut item_line = None;
    let mut option_lines = Vec::new();
    let mut lines = LineReader::new(reader, lines::DLX);
    let mut scratch = OptionScratch::default();
    while let Some((number, line)) = lines.next_text()? {
        // A byte-order mark at the very start (as some Windows editors write) is not text;
        // editors do not show it, so it is not counted in columns either.
        let text = match number {
            1 => line.strip_prefix('\u{feff}').unwrap_or(line),
            _ => line,
        };
        let rest = text.trim_start();
        if rest.is_empty() || rest.starts_with('|') {
            continue;
        }
        if item_line.is_none() {
            read_items(&mut builder, text, number)?;
            item_line = Some(number);
        } else {
            read_option(&mut builder, &mut scratch, text, number)?;
            option_lines.push(number);
        }
    }
    // Only a missing item line leaves us without a place to point at: it was due at the end.
    let end = lines.line() + 1;
    let item_line = item_line.ok_or_else(|| Error::at(ErrorKind::MissingItemLine, end, 1))?;
    let problem = builder
        .build()
        .map_err(|err| err.with_line(item_line).with_column(1))?;
    Ok(DlxProblem {
        problem,
        item_line,
        option_lines,
    })
}

/// Declares the items of the item line: primary up to the `|`, secondary after it, each
/// primary one perhaps with dlx3's bounds (`2:3|a`, `2|a`).
fn read_items(builder: &mut ProblemBuilder, line: &str, number: usize) -> Result<()> {
    let mut kind = ItemKind::Primary;
    let tokens: Vec<(usize, &str)> = tokens(line, true).collect();
    let attached = |k: usize| {
        // Whether token `k + 1` starts right where token `k` ends.
        let (column, token) = tokens[k];
        tokens
            .get(k + 1)
            .is_some_and(|&(next, _)| next == column + token.chars().count())
    };
    let mut k = 0;
    while k < tokens.len() {
        let (column, token) = tokens[k];
        let at = |kind: ErrorKind| Error::at(kind, number, column);
        if token == "|" {
            if kind == ItemKind::Secondary {
                return Err(at(ErrorKind::SecondSeparator));
            }
            kind = ItemKind::Secondary;
            k += 1;
            continue;
        }
        let bound_prefix = token.starts_with(|c: char| c.is_ascii_digit());
        if bound_prefix && attached(k) && tokens[k + 1].1 == "|" {
            let spec = |reason| {
                at(ErrorKind::InvalidBoundSpec {
                    token: format!("{token}|"),
                    reason,
                })
            };
            if kind == ItemKind::Secondary {
                return Err(spec("secondary items take no bounds"));
            }
            if !attached(k + 1) || tokens[k + 2].1 == "|" {
                return Err(spec("no item name right after the '|'"));
            }
            let (lower, upper) = parse_bounds(token).map_err(spec)?;
            let name = tokens[k + 2].1;
            builder
                .primary_with_bounds(name, lower, upper)
                .map_err(|err| err.with_line(number).with_column(column))?;
            k += 3;
            continue;
        }
        if bound_prefix && token.contains(':') {
            return Err(at(ErrorKind::InvalidBoundSpec {
                token: token.into(),
                reason: "bounds go right before '|' and the item's name, as in 2:3|a",
            }));
        }
        if is_dollar_cost(token) {
            return Err(at(ErrorKind::InvalidItemName {
                name: token.into(),
                reason: "on an option line it would be a cost",
            }));
        }
        builder
            .item(token, kind)
            .map_err(|err| err.with_line(number).with_column(column))?;
        k += 1;
    }
    Ok(())
}

/// Whether a token of an option line is miniexact's cost: `$` and one or more digits.
fn is_dollar_cost(token: &str) -> bool {
    token.len() > 1 && token.starts_with('$') && token.bytes().skip(1).all(|b| b.is_ascii_digit())
}

/// The cost written by a cost token (`|7` or `$7`), or why it is not one.
fn parse_cost(token: &str) -> std::result::Result<u64, &'static str> {
    let digits = &token[1..];
    if digits.is_empty() {
        return Err("a cost is a decimal number right after the '|', as in |7");
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("a cost is a decimal number (and an option line has no comments)");
    }
    match digits.parse::<u64>() {
        Ok(cost) if cost <= MAX_OPTION_COST => Ok(cost),
        _ => Err("a cost is at most 4294967295"),
    }
}

/// The bounds of a dlx3 prefix without its `|`: `upper` or `lower:upper`, decimal.
fn parse_bounds(spec: &str) -> std::result::Result<(u32, u32), &'static str> {
    let number = |text: &str| {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err("a bound must be a decimal number");
        }
        text.parse::<u32>().map_err(|_| "a bound is too large")
    };
    match spec.split_once(':') {
        None => number(spec).map(|n| (n, n)),
        Some((lower, upper)) => Ok((number(lower)?, number(upper)?)),
    }
}

/// What reading options reuses from one option line to the next, so that an option costs no
/// allocation and checking it for a repeated item is linear in its length.
#[derive(Default)]
struct OptionScratch {
    /// The items of the option being read.
    items: Vec<OptionItem>,
    /// For each item, the line of the last option that used it (0: none yet). A repeat is an
    /// item whose stamp is the current line; a scan of `items` instead made an option of k
    /// items cost k*k/2 comparisons (4 s for one option of 200,000 items).
    last_line: Vec<usize>,
}

/// An item of an option line: its index, the byte range of its colour in the line (if it has
/// one), and the column where that colour starts.
type OptionItem = (usize, Option<(usize, usize)>, usize);

/// Adds the option of one option line.
fn read_option(
    builder: &mut ProblemBuilder,
    scratch: &mut OptionScratch,
    line: &str,
    number: usize,
) -> Result<()> {
    let OptionScratch { items, last_line } = scratch;
    items.clear();
    let mut first_column = None;
    let mut cost = 0u64;
    let mut dollar = false;
    for (column, token) in tokens(line, false) {
        first_column.get_or_insert(column);
        if token.starts_with('|') || is_dollar_cost(token) {
            let invalid = |reason| {
                let token = token.into();
                Error::at(ErrorKind::InvalidCost { token, reason }, number, column)
            };
            if token.starts_with('$') {
                if dollar {
                    return Err(invalid(
                        "an option has at most one '$' cost, as in miniexact",
                    ));
                }
                dollar = true;
            }
            cost += parse_cost(token).map_err(invalid)?;
            if cost > MAX_OPTION_COST {
                return Err(invalid("the option's costs add up to more than 4294967295"));
            }
            continue;
        }
        // A byte search: `split_once` on a char costs more on the short tokens of every line.
        let (name, color) = match token.bytes().position(|b| b == b':') {
            Some(colon) => (&token[..colon], Some(&token[colon + 1..])),
            None => (token, None),
        };
        let Some(item) = builder.item_index(name) else {
            let kind = ErrorKind::UnknownItem { name: name.into() };
            return Err(Error::at(kind, number, column));
        };
        if item >= last_line.len() {
            last_line.resize(item + 1, 0);
        }
        if last_line[item] == number {
            let kind = ErrorKind::RepeatedItem { name: name.into() };
            return Err(Error::at(kind, number, column));
        }
        last_line[item] = number;
        // The colour's byte range in the line (the token is a slice of it).
        let color = color.map(|color| {
            let from = color.as_ptr() as usize - line.as_ptr() as usize;
            (from, from + color.len())
        });
        items.push((item, color, column + name.chars().count() + 1));
    }
    // What is left for the builder concerns one colour (point at it) or the whole option (an
    // option without primary items: point at its start).
    let option = if items.iter().all(|&(_, color, _)| color.is_none()) {
        builder
            .option(items.iter().map(|&(item, _, _)| item))
            .map_err(|err| err.with_line(number).with_column(first_column.unwrap_or(1)))?
    } else {
        add_colored(builder, items, line, number, first_column)?
    };
    if cost > 0 {
        builder.set_cost(option, cost)?;
    }
    Ok(())
}

/// Adds an option with colours, its errors pointing at the colour they concern.
fn add_colored(
    builder: &mut ProblemBuilder,
    items: &[OptionItem],
    line: &str,
    number: usize,
    first_column: Option<usize>,
) -> Result<usize> {
    builder
        .colored_option(
            (items.iter()).map(|&(item, color, _)| (item, color.map(|(from, to)| &line[from..to]))),
        )
        .map_err(|err| {
            // The first coloured item that the error names: the colour's column.
            let column = match err.kind() {
                ErrorKind::ColorOnPrimary { name } => {
                    let item = builder.item_index(name);
                    (items.iter())
                        .find(|&&(i, color, _)| color.is_some() && Some(i) == item)
                        .map(|&(_, _, column)| column)
                }
                ErrorKind::InvalidColor { color, .. } => (items.iter())
                    .find(|&&(_, range, _)| range.is_some_and(|(f, t)| &line[f..t] == color))
                    .map(|&(_, _, column)| column),
                _ => None,
            };
            err.with_line(number)
                .with_column(column.or(first_column).unwrap_or(1))
        })
}

/// The blank-separated tokens of a line with their 1-based character columns. With `bar_token`,
/// every `|` is a token of its own even when attached to a name.
fn tokens(line: &str, bar_token: bool) -> impl Iterator<Item = (usize, &str)> {
    let mut chars = line.char_indices().enumerate();
    // The byte offset and 1-based column of the token being read.
    let mut start: Option<(usize, usize)> = None;
    // A `|` met right after a name, given out after it.
    let mut pending: Option<(usize, &str)> = None;
    std::iter::from_fn(move || {
        if let Some(token) = pending.take() {
            return Some(token);
        }
        for (index, (byte, ch)) in chars.by_ref() {
            let column = index + 1;
            let splits = ch.is_whitespace() || (bar_token && ch == '|');
            if splits {
                let bar = (!ch.is_whitespace()).then(|| (column, &line[byte..byte + 1]));
                if let Some((from, at)) = start.take() {
                    pending = bar;
                    return Some((at, &line[from..byte]));
                }
                if bar.is_some() {
                    return bar;
                }
            } else if start.is_none() {
                start = Some((byte, column));
            }
        }
        start.take().map(|(from, at)| (at, &line[from..]))
    })
}

/// Writes a problem as dlx text, with a one-line comment saying what it holds.
///
/// Primary items come first on the item line, each with dlx3's bounds when they are not exactly
/// once (`2:3|a`, `2|b`), then ` | ` and the secondary items (no bar when there are none); then
/// one option per line, with dlx2's `:colour` after each coloured item and dlx5's `|cost` at the
/// end of an option that costs more than 0. Reading the text back gives the same problem
/// whenever its primary items were declared before its secondary ones (as [`read_problem`] and
/// every generator in [`crate::problems`] do); otherwise it is the same problem with the items
/// renumbered, primary first.
pub fn write_problem<W: Write>(problem: &Problem, out: W) -> io::Result<()> {
    let comment = format!(
        "{} items ({} primary, {} secondary), {} options; written by quadrille",
        problem.item_count(),
        problem.primary_count(),
        problem.item_count() - problem.primary_count(),
        problem.option_count(),
    );
    write_problem_with_comment(problem, &comment, out)
}

/// Writes a problem as dlx text (see [`write_problem`]), with the given comment at the top: each
/// of its lines becomes a `|` comment line.
pub fn write_problem_with_comment<W: Write>(
    problem: &Problem,
    comment: &str,
    out: W,
) -> io::Result<()> {
    let mut out = BufWriter::new(out);
    for line in comment.lines() {
        if line.is_empty() {
            writeln!(out, "|")?;
        } else {
            writeln!(out, "| {line}")?;
        }
    }
    let items_of = |kind: ItemKind| {
        (0..problem.item_count())
            .filter(move |&item| problem.item_kind(item) == kind)
            .map(|item| problem.item_name(item))
    };
    let mut first = true;
    for item in (0..problem.item_count()).filter(|&i| problem.item_kind(i) == ItemKind::Primary) {
        if !first {
            out.write_all(b" ")?;
        }
        match problem.item_bounds(item) {
            Some((1, 1)) | None => {}
            Some((lower, upper)) if lower == upper => write!(out, "{upper}|")?,
            Some((lower, upper)) => write!(out, "{lower}:{upper}|")?,
        }
        out.write_all(problem.item_name(item).as_bytes())?;
        first = false;
    }
    if problem.primary_count() < problem.item_count() {
        out.write_all(b" |")?;
        for name in items_of(ItemKind::Secondary) {
            write!(out, " {name}")?;
        }
    }
    out.write_all(b"\n")?;
    for option in 0..problem.option_count() {
        match problem.option_cost(option) {
            0 => writeln!(out, "{}", problem.option_text(option))?,
            cost => writeln!(out, "{} |{cost}", problem.option_text(option))?,
        }
    }
    out.flush()
}

/// The dlx text of a problem, as [`write_problem`] writes it.
///
/// ```
/// use quadrille::io::dlx::{parse_problem, problem_to_string};
/// use quadrille::problems::exact_cover_knuth_example;
///
/// let problem = exact_cover_knuth_example();
/// let text = problem_to_string(&problem);
/// assert!(text.contains("\na b c d e f g\nc e\n"));
/// assert_eq!(parse_problem(&text)?.into_problem(), problem);
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn problem_to_string(problem: &Problem) -> String {
    let mut bytes = Vec::new();
    write_problem(problem, &mut bytes).expect("writing to a Vec cannot fail");
    String::from_utf8(bytes).expect("item names are strings")
}

/// Writes a solution: each chosen option's item names on a line of its own, as in the input.
///
/// ```
/// use quadrille::io::dlx::write_solution;
/// use quadrille::problems::exact_cover_knuth_example;
///
/// let problem = exact_cover_knuth_example();
/// let mut out = Vec::new();
/// write_solution(&problem, &[3, 4, 0], &mut out)?;
/// assert_eq!(String::from_utf8(out).unwrap(), "a d f\nb g\nc e\n");
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Panics
/// If an option index is not below the problem's option count (the indices come from a solver,
/// not from the user).
pub fn write_solution<W: Write>(problem: &Problem, options: &[usize], out: W) -> io::Result<()> {
    let mut out = BufWriter::new(out);
    for &option in options {
        writeln!(out, "{}", problem.option_text(option))?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::exact_cover_knuth_example;
    use proptest::prelude::*;

    /// Parses text that must fail, returning (line, column, kind).
    fn failure(text: &str) -> (Option<usize>, Option<usize>, ErrorKind) {
        let err = parse_problem(text).expect_err("the text should not parse");
        let (line, column) = (err.line(), err.column());
        let kind = match err.kind() {
            ErrorKind::Io(e) => ErrorKind::Io(io::Error::new(e.kind(), e.to_string())),
            ErrorKind::InvalidItemName { name, reason } => ErrorKind::InvalidItemName {
                name: name.clone(),
                reason,
            },
            ErrorKind::DuplicateItem { name } => ErrorKind::DuplicateItem { name: name.clone() },
            ErrorKind::UnknownItem { name } => ErrorKind::UnknownItem { name: name.clone() },
            ErrorKind::RepeatedItem { name } => ErrorKind::RepeatedItem { name: name.clone() },
            ErrorKind::ColorOnPrimary { name } => ErrorKind::ColorOnPrimary { name: name.clone() },
            ErrorKind::InvalidColor { color, reason } => ErrorKind::InvalidColor {
                color: color.clone(),
                reason,
            },
            ErrorKind::InvalidBounds {
                name,
                lower,
                upper,
                reason,
            } => ErrorKind::InvalidBounds {
                name: name.clone(),
                lower: *lower,
                upper: *upper,
                reason,
            },
            ErrorKind::InvalidBoundSpec { token, reason } => ErrorKind::InvalidBoundSpec {
                token: token.clone(),
                reason,
            },
            ErrorKind::InvalidCost { token, reason } => ErrorKind::InvalidCost {
                token: token.clone(),
                reason,
            },
            ErrorKind::SecondSeparator => ErrorKind::SecondSeparator,
            ErrorKind::MissingItemLine => ErrorKind::MissingItemLine,
            ErrorKind::NoPrimaryInOption => ErrorKind::NoPrimaryInOption,
            other => panic!("unexpected error kind {other:?}"),
        };
        (line, column, kind)
    }

    #[test]
    fn reads_comments_blanks_tabs_and_secondary_items() {
        let text = "| a comment\n\n   \t\n  | an indented comment\n\
                    a\tb  c |x y\r\n| between options\na x\n\n  b\ty \r\nc\n";
        let dlx = parse_problem(text).unwrap();
        let p = dlx.problem();
        assert_eq!(p.item_count(), 5);
        assert_eq!(p.primary_count(), 3);
        let names: Vec<&str> = (0..5).map(|i| p.item_name(i)).collect();
        assert_eq!(names, ["a", "b", "c", "x", "y"]);
        assert_eq!(p.item_kind(3), ItemKind::Secondary);
        assert_eq!(p.option_count(), 3);
        assert_eq!(p.option(0), &[0, 3]);
        assert_eq!(p.option(1), &[1, 4]);
        assert_eq!(p.option(2), &[2]);
        assert_eq!(dlx.item_line(), 5);
        assert_eq!(dlx.option_lines(), &[7, 9, 10]);
        assert_eq!(dlx.option_line(1), 9);
    }

    #[test]
    fn bar_may_be_spaced_or_attached_on_the_item_line() {
        for items in [
            "a b | x",
            "a b |x",
            "a b| x",
            "a b|x",
            "a\tb\t|\tx",
            "a  b  |  x  ",
        ] {
            let p = parse_problem(&format!("{items}\na x\n"))
                .unwrap()
                .into_problem();
            assert_eq!((p.item_count(), p.primary_count()), (3, 2), "{items:?}");
            assert_eq!(p.item_name(2), "x");
        }
        // A bar with nothing after it: no secondary items.
        let p = parse_problem("a b |\na\n").unwrap().into_problem();
        assert_eq!((p.item_count(), p.primary_count()), (2, 2));
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped() {
        let plain = parse_problem("a b\na\nb\n").unwrap();
        assert_eq!(parse_problem("\u{feff}a b\na\nb\n").unwrap(), plain);
        let commented = parse_problem("\u{feff}| comment\na b\na\nb\n").unwrap();
        assert_eq!(commented.problem(), plain.problem());
        // Columns do not count it.
        let err = parse_problem("\u{feff}a a\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1, column 3: item 'a' is declared twice"
        );
        // Anywhere else it is part of a name, as any other character.
        assert!(parse_problem("a b\n\u{feff}a\n").is_err());
    }

    #[test]
    fn names_with_control_characters_are_shown_escaped() {
        let err = parse_problem("a b\na \u{7}\n").unwrap_err();
        assert_eq!(err.to_string(), "line 2, column 3: unknown item '\\u{7}'");
    }

    #[test]
    fn a_long_option_is_read_and_its_repeat_found_where_it_is() {
        // The stamps are per line: the same items again on the next line are no repeat.
        let names: Vec<String> = (0..20_000).map(|k| format!("i{k}")).collect();
        let all = names.join(" ");
        let dlx = parse_problem(&format!("{all}\n{all}\n{all}\n")).unwrap();
        assert_eq!(dlx.problem().option(1).len(), 20_000);
        let text = format!("{all}\n{all}\n{all} i19999\n");
        let err = parse_problem(&text).unwrap_err();
        assert_eq!(
            (
                err.line(),
                err.column(),
                err.to_string().contains("'i19999'")
            ),
            (Some(3), Some(all.chars().count() + 2), true)
        );
    }

    #[test]
    fn last_line_needs_no_newline() {
        let p = parse_problem("a b\na b").unwrap().into_problem();
        assert_eq!(p.option(0), &[0, 1]);
    }

    #[test]
    fn error_invalid_item_name() {
        let (line, column, kind) = failure("| items\na b:c d\n");
        assert_eq!((line, column), (Some(2), Some(3)));
        assert!(matches!(kind, ErrorKind::InvalidItemName { name, .. } if name == "b:c"));
    }

    #[test]
    fn error_duplicate_item() {
        let (line, column, kind) = failure("\na b | c b\n");
        assert_eq!((line, column), (Some(2), Some(9)));
        assert!(matches!(kind, ErrorKind::DuplicateItem { name } if name == "b"));
    }

    #[test]
    fn error_second_bar() {
        let (line, column, kind) = failure("a | b | c\n");
        assert_eq!((line, column), (Some(1), Some(7)));
        assert!(matches!(kind, ErrorKind::SecondSeparator));
        let (line, column, _) = failure("a|b|c\n");
        assert_eq!((line, column), (Some(1), Some(4)));
    }

    #[test]
    fn error_missing_item_line_points_past_the_end() {
        let (line, column, kind) = failure("| only comments\n\n");
        assert_eq!((line, column), (Some(3), Some(1)));
        assert!(matches!(kind, ErrorKind::MissingItemLine));
        assert_eq!(failure("").0, Some(1));
    }

    #[test]
    fn no_primary_items_cannot_be_written_because_a_leading_bar_is_a_comment() {
        // "| x y" is a comment line, as in DLX1, so the next line declares the items.
        let dlx = parse_problem("| x y\nx\n").unwrap();
        assert_eq!((dlx.item_line(), dlx.problem().primary_count()), (2, 1));
        assert_eq!(dlx.problem().option_count(), 0);
        let (line, column, kind) = failure("  | x y\n");
        assert_eq!((line, column), (Some(2), Some(1)));
        assert!(matches!(kind, ErrorKind::MissingItemLine));
    }

    #[test]
    fn error_unknown_item() {
        let (line, column, kind) = failure("a b\n\na c\n");
        assert_eq!((line, column), (Some(3), Some(3)));
        assert!(matches!(kind, ErrorKind::UnknownItem { name } if name == "c"));
    }

    #[test]
    fn error_columns_count_characters_and_tabs_count_one() {
        let (line, column, _) = failure("é b\nb\té zz\n");
        assert_eq!((line, column), (Some(2), Some(5)));
    }

    #[test]
    fn error_trailing_bar_on_option_line_is_a_bad_cost_as_in_dlx5() {
        // dlx1 reads `|` as an unknown item; dlx5, whose costs are `|7`, as a bad cost.
        let (line, column, kind) = failure("a b\na | b\n");
        assert_eq!((line, column), (Some(2), Some(3)));
        assert!(matches!(kind, ErrorKind::InvalidCost { token, .. } if token == "|"));
    }

    #[test]
    fn error_item_twice_in_one_option() {
        let (line, column, kind) = failure("a b\na b\nb a  b\n");
        assert_eq!((line, column), (Some(3), Some(6)));
        assert!(matches!(kind, ErrorKind::RepeatedItem { name } if name == "b"));
    }

    #[test]
    fn error_option_without_primary_item() {
        let (line, column, kind) = failure("a | x y\na\n   x y\n");
        assert_eq!((line, column), (Some(3), Some(4)));
        assert!(matches!(kind, ErrorKind::NoPrimaryInOption));
    }

    #[test]
    fn reads_colours_and_bounds_as_dlx2_and_dlx3_write_them() {
        // Knuth's test case from the opening of dlx3.
        let text = "| A simple example of color controls\nA B 2:3|C | X Y\n\
                    A B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";
        let p = parse_problem(text).unwrap().into_problem();
        assert_eq!((p.item_count(), p.primary_count()), (5, 3));
        assert_eq!(p.item_bounds(2), Some((2, 3)));
        assert_eq!(p.item_bounds(0), Some((1, 1)));
        assert_eq!(p.item_bounds(3), None);
        assert_eq!(p.option_text(1), "A C X:1 Y:1");
        assert_eq!(p.option_color(0, 2), Some("0"));
        assert_eq!(p.option_color(0, 0), None);
        assert_eq!(p.color_count(), 2);
        // `n|name` is exactly n; spaced, a number is an item's name.
        let p = parse_problem("3|a 0:1|b 3 | x\na b\n")
            .unwrap()
            .into_problem();
        assert_eq!(p.item_bounds(0), Some((3, 3)));
        assert_eq!(p.item_bounds(1), Some((0, 1)));
        assert_eq!(p.item_name(2), "3");
        assert_eq!(p.item_kind(3), ItemKind::Secondary);
        assert!(!p.is_plain() && !p.has_colors());
        // Written back as read.
        let text = problem_to_string(&p);
        assert!(text.contains("\n3|a 0:1|b 3 | x\n"), "{text}");
    }

    #[test]
    fn error_bad_colours_and_bounds_name_line_and_column() {
        let cases: [(&str, (usize, usize), &str); 10] = [
            (
                "a | x\na:red x\n",
                (2, 3),
                "primary item 'a' cannot have a colour",
            ),
            (
                "a | x\na x:\n",
                (2, 5),
                "'' is not a valid colour: it is empty",
            ),
            ("a | x\na x:r:g\n", (2, 5), "'r:g' is not a valid colour"),
            ("a | x\na y:red\n", (2, 3), "unknown item 'y'"),
            ("a 0|b\na\n", (1, 3), "bounds 0:0: the upper bound is 0"),
            (
                "a 3:2|b\na\n",
                (1, 3),
                "the lower bound is above the upper bound",
            ),
            ("a 1:x|b\na\n", (1, 3), "'1:x|' is not a valid bound prefix"),
            ("a 2| b\na\n", (1, 3), "no item name right after the '|'"),
            ("a | 2|x\na\n", (1, 5), "secondary items take no bounds"),
            ("a 2:3 b\na\n", (1, 3), "bounds go right before '|'"),
        ];
        for (text, (line, column), message) in cases {
            let err = parse_problem(text).unwrap_err();
            assert_eq!(
                (err.line(), err.column()),
                (Some(line), Some(column)),
                "{text:?}"
            );
            assert!(err.to_string().contains(message), "{text:?}: {err}");
        }
        // A bound too large for 32 bits.
        let err = parse_problem("99999999999|a\na\n").unwrap_err();
        assert!(err.to_string().contains("too large"), "{err}");
    }

    #[test]
    fn error_io_carries_the_line() {
        let (line, column, kind) = failure("a b\na\n\u{0}");
        // NUL is a valid (if odd) item name, so this one is an unknown item...
        assert_eq!((line, column), (Some(3), Some(1)));
        assert!(matches!(kind, ErrorKind::UnknownItem { .. }));
        // ...while bytes that are not UTF-8 are an I/O error on their line.
        let err = read_problem(&b"a b\na\n\xff\n"[..]).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Io(_)));
        assert_eq!((err.line(), err.column()), (Some(3), None));

        struct Broken(usize);
        impl io::Read for Broken {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("disk on fire"));
                }
                self.0 = 0;
                buf[..4].copy_from_slice(b"a b\n");
                Ok(4)
            }
        }
        let err = read_problem(io::BufReader::new(Broken(1))).unwrap_err();
        assert_eq!(err.line(), Some(2));
        assert!(err.to_string().contains("disk on fire"));
    }

    #[test]
    fn writes_items_bar_and_options() {
        let p = parse_problem("a b | x\nb x\na\n").unwrap().into_problem();
        let text = problem_to_string(&p);
        assert_eq!(
            text,
            "| 3 items (2 primary, 1 secondary), 2 options; written by quadrille\n\
             a b | x\nb x\na\n"
        );
        let mut out = Vec::new();
        write_problem_with_comment(&p, "first\n\nthird", &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "| first\n|\n| third\na b | x\nb x\na\n"
        );
        // No secondary items: no bar.
        let knuth = problem_to_string(&exact_cover_knuth_example());
        assert!(knuth.ends_with("\na b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n"));
    }

    #[test]
    fn write_solution_prints_one_option_per_line() {
        let p = parse_problem("a b | x\nb x\na\n").unwrap().into_problem();
        let mut out = Vec::new();
        write_solution(&p, &[1, 0], &mut out).unwrap();
        assert_eq!(out, b"a\nb x\n");
    }

    #[test]
    fn interleaved_declarations_round_trip_up_to_renumbering() {
        let mut b = ProblemBuilder::new();
        b.primary("p").unwrap();
        b.secondary("s").unwrap();
        b.primary("q").unwrap();
        b.option_by_names(["q", "s"]).unwrap();
        let p = b.build().unwrap();
        let back = parse_problem(&problem_to_string(&p))
            .unwrap()
            .into_problem();
        let names: Vec<&str> = (0..3).map(|i| back.item_name(i)).collect();
        assert_eq!(names, ["p", "q", "s"]);
        assert_eq!(back.option_text(0), p.option_text(0));
    }

    /// A random problem whose primary items are declared first: names from an odd alphabet
    /// (made unique by an index suffix), options as ordered item lists.
    fn problems() -> impl Strategy<Value = Problem> {
        (1usize..6, 0usize..4).prop_flat_map(|(primary, secondary)| {
            let n = primary + secondary;
            (
                prop::collection::vec("[A-Za-z0-9.#é_-]{1,4}", n),
                prop::collection::vec(prop::collection::vec(0..n, 1..=n), 0..12),
            )
                .prop_map(move |(prefixes, options)| {
                    let mut b = ProblemBuilder::new();
                    for (i, prefix) in prefixes.iter().enumerate() {
                        let name = format!("{prefix}_{i}");
                        if i < primary {
                            b.primary(&name).unwrap();
                        } else {
                            b.secondary(&name).unwrap();
                        }
                    }
                    for mut items in options {
                        let mut seen = vec![false; n];
                        items.retain(|&i| !std::mem::replace(&mut seen[i], true));
                        if !items.iter().any(|&i| i < primary) {
                            items.push(0);
                        }
                        b.option(items).unwrap();
                    }
                    b.build().unwrap()
                })
        })
    }

    proptest! {
        #[test]
        fn round_trip(problem in problems()) {
            let text = problem_to_string(&problem);
            let dlx = parse_problem(&text).unwrap();
            prop_assert_eq!(dlx.problem(), &problem);
            // One comment line, one item line, then the options.
            let lines: Vec<usize> = (3..3 + problem.option_count()).collect();
            prop_assert_eq!(dlx.option_lines(), &lines[..]);
        }

        #[test]
        fn layout_noise_does_not_change_the_problem(
            problem in problems(),
            noise in prop::collection::vec(0u8..6, 64),
        ) {
            // Re-lay the written text out: blank and comment lines between lines, runs of
            // blanks and tabs between and around tokens.
            let text = problem_to_string(&problem);
            let mut noisy = String::new();
            let mut expected_lines = Vec::new();
            let mut line_no = 0;
            for (k, line) in text.lines().enumerate() {
                let n = noise[k % noise.len()];
                if n == 1 { noisy.push('\n'); line_no += 1; }
                if n == 2 { noisy.push_str("  | noise\n"); line_no += 1; }
                let sep = match n { 3 => " \t ", 4 => "\t", _ => " " };
                if n == 5 { noisy.push('\t'); }
                noisy.push_str(&line.split(' ').collect::<Vec<_>>().join(sep));
                if n == 3 { noisy.push_str("  \r"); }
                noisy.push('\n');
                line_no += 1;
                if k >= 2 { expected_lines.push(line_no); }
            }
            let dlx = parse_problem(&noisy).unwrap();
            prop_assert_eq!(dlx.problem(), &problem);
            prop_assert_eq!(dlx.option_lines(), &expected_lines[..]);
        }
    }
}
