//! [`PuzzleText`]: the puzzles of a request given as text, read as `quadrille solve` reads a
//! file, with the bounds of a request that holds them all at once (`quadrille serve`).

use serde::Deserialize;

use super::check::{self, Field, Invalid};
use crate::Result;
use crate::io::puzzle::{Layout, Puzzle, PuzzleReader};
use crate::sudoku::Shape;
use crate::sudoku::variant::Variant;

/// The most puzzles one text holds: a request reads them all before it answers.
pub const MAX_PUZZLES: usize = 1000;

/// Puzzles as text, with the shape, variant and layout as text too (`"3x3"`, `"killer"`,
/// `"grid"`), as a request gives them; each is checked here and named in its error. Read from
/// JSON, its keys are `puzzle`, `box`, `variant` and `layout`.
///
/// ```
/// use quadrille::request::PuzzleText;
///
/// let text: PuzzleText = serde_json::from_str(r#"{"puzzle": "1...........4..2\n................"}"#)?;
/// assert_eq!(text.read()?.len(), 2);
/// assert!(text.one().unwrap_err().to_string().contains("one puzzle"));
/// let bad = PuzzleText { text: "1...".into(), layout: Some("rows".into()), ..PuzzleText::default() };
/// assert!(bad.read().unwrap_err().to_string().starts_with("layout: "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct PuzzleText {
    /// The puzzles: one a line, or `.sdk` grids, with `# variant:` and `# box:` headers.
    #[serde(rename = "puzzle")]
    pub text: String,
    /// The box shape (`RxC`), when the text does not tell it.
    #[serde(rename = "box")]
    pub shape: Option<String>,
    /// The variant (`classic`, `x`, `windoku`, `jigsaw`, `killer`).
    pub variant: Option<String>,
    /// `line` (the default) or `grid`.
    pub layout: Option<String>,
}

impl PuzzleText {
    /// Every puzzle of the text: from 1 to [`MAX_PUZZLES`], each one's error at its line and
    /// column.
    pub fn read(&self) -> Result<Vec<Puzzle>> {
        let layout = match self.layout.as_deref() {
            None | Some("line") => Layout::Line,
            Some("grid") => Layout::Grid,
            Some(other) => {
                let message = format!("'{other}' is not line or grid");
                return Err(Invalid::new(Field::Layout, message).into());
            }
        };
        let shape = check::parse::<Shape>(Field::Box, self.shape.as_deref())?;
        let variant = check::parse::<Variant>(Field::Variant, self.variant.as_deref())?;
        let reader = PuzzleReader::new(self.text.as_bytes(), shape, layout).with_variant(variant);
        let puzzles = reader.take(MAX_PUZZLES + 1).collect::<Result<Vec<_>>>()?;
        match puzzles.len() {
            0 => Err(Invalid::new(Field::Puzzle, "no puzzle in the text").into()),
            n if n > MAX_PUZZLES => {
                let message = format!("at most {MAX_PUZZLES} puzzles, and the text has more");
                Err(Invalid::new(Field::Puzzle, message).into())
            }
            _ => Ok(puzzles),
        }
    }

    /// The text's only puzzle.
    pub fn one(&self) -> Result<Puzzle> {
        let mut puzzles = self.read()?;
        match puzzles.len() {
            1 => Ok(puzzles.remove(0)),
            n => {
                let message = format!("one puzzle, please: the text has {n}");
                Err(Invalid::new(Field::Puzzle, message).into())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(result: Result<Vec<Puzzle>>) -> Field {
        match result.unwrap_err().kind() {
            crate::ErrorKind::InvalidRequest(invalid) => invalid.field,
            other => panic!("not a request's error: {other}"),
        }
    }

    #[test]
    fn the_bounds_and_the_fields_of_a_puzzle_text() {
        let many = "1...........4..2\n".repeat(MAX_PUZZLES);
        let text = PuzzleText {
            text: many.clone(),
            ..PuzzleText::default()
        };
        assert_eq!(text.read().unwrap().len(), MAX_PUZZLES);
        let more = many.clone() + "1...........4..2\n";
        let text = PuzzleText {
            text: more,
            ..PuzzleText::default()
        };
        assert_eq!(field(text.read()), Field::Puzzle);
        let empty = PuzzleText {
            text: "# only a comment\n".into(),
            ..PuzzleText::default()
        };
        assert_eq!(field(empty.read()), Field::Puzzle);
        let shape = PuzzleText {
            text: "1...".into(),
            shape: Some("3y3".into()),
            ..PuzzleText::default()
        };
        assert_eq!(field(shape.read()), Field::Box);
        let variant = PuzzleText {
            text: "1...".into(),
            variant: Some("hexagonal".into()),
            ..PuzzleText::default()
        };
        assert_eq!(field(variant.read()), Field::Variant);
        // A puzzle's own error keeps its line and column.
        let twice = PuzzleText {
            text: "1...........4..2\n11..............\n".into(),
            ..PuzzleText::default()
        };
        let err = twice.read().unwrap_err();
        assert_eq!((err.line(), err.column()), (Some(2), Some(2)));
        let grid = PuzzleText {
            text: "[Puzzle]\n1 2|. .\n. .|1 2\n-----+----\n2 1|. .\n. .|2 1\n".into(),
            layout: Some("grid".into()),
            ..PuzzleText::default()
        };
        assert_eq!(grid.one().unwrap().grid.to_string(), "12....1221....21");
    }
}
