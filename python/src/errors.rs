//! The library's errors as Python exceptions: `QuadrilleError` (a `ValueError`) with the
//! message the command-line tool prints, and `line`, `column` and `message` attributes.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use quadrille::error::Remedy;

create_exception!(
    quadrille,
    QuadrilleError,
    PyValueError,
    "An error of quadrille: bad input (with `line` and `column` when known, else None) or a search that cannot run. `message` is what is wrong, without the place."
);

/// Registers the exception class.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("QuadrilleError", m.py().get_type::<QuadrilleError>())
}

/// A `QuadrilleError` for `err`, its text prefixed by `place` (an input's name, or "").
pub fn error_at(place: &str, err: &quadrille::Error) -> PyErr {
    let mut text = ErrorText::of(err);
    if !place.is_empty() {
        text.text = format!("{place}: {}", text.text);
    }
    text.raise()
}

/// A `QuadrilleError` for `err`.
pub fn error(err: quadrille::Error) -> PyErr {
    error_at("", &err)
}

/// A `QuadrilleError` with a message of the wrapper's own (no line, no column).
pub fn message(text: impl Into<String>) -> PyErr {
    let text = text.into();
    ErrorText {
        message: text.clone(),
        text,
        line: None,
        column: None,
    }
    .raise()
}

/// The text of `err` where a record holds it, beside its line (a result's `error`): the
/// command-line tool's `--json` text, with the keyword that fixes it.
pub fn in_record(err: &quadrille::Error) -> String {
    err.message() + &argument_hint(err)
}

/// Converts the library's results.
pub trait OrRaise<T> {
    /// The value, or the error as a `QuadrilleError`.
    fn or_raise(self) -> PyResult<T>;
}

impl<T> OrRaise<T> for quadrille::Result<T> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(error)
    }
}

/// What the wrapper adds after a library error to name the keyword argument that fixes it,
/// as the command-line tool names its flag, or `""`.
fn argument_hint(err: &quadrille::Error) -> String {
    match err.remedy() {
        Some(Remedy::TransposedBoxes { rows, cols }) => {
            format!("; box=\"{rows}x{cols}\" reads it with {rows}x{cols} boxes")
        }
        Some(Remedy::GridLayout) => {
            "; a grid written one row per line is read with input=\"grid\"".to_string()
        }
        Some(Remedy::GiveShape) => "; give it with box=\"RxC\"".to_string(),
        None => String::new(),
    }
}

/// An error's text, kept without the GIL (on a search's thread) and raised later.
pub struct ErrorText {
    text: String,
    line: Option<usize>,
    column: Option<usize>,
    message: String,
}

impl ErrorText {
    /// The text of `err`.
    pub fn of(err: &quadrille::Error) -> ErrorText {
        if let quadrille::ErrorKind::InvalidRequest(invalid) = err.kind() {
            return ErrorText {
                text: format!(
                    "{}: {}",
                    crate::args::keyword_of(invalid.field),
                    invalid.message
                ),
                line: None,
                column: None,
                message: invalid.message.clone(),
            };
        }
        let message = err.message();
        let message = match err.column() {
            Some(column) => message
                .strip_prefix(&format!("column {column}: "))
                .map_or(message.clone(), str::to_string),
            None => message,
        };
        let hint = argument_hint(err);
        ErrorText {
            text: format!("{err}{hint}"),
            line: err.line(),
            column: err.column(),
            message: message + &hint,
        }
    }

    /// The `QuadrilleError` of the text.
    pub fn raise(self) -> PyErr {
        let exception = QuadrilleError::new_err(self.text);
        Python::attach(|py| {
            let value = exception.value(py);
            let _ = value.setattr("line", self.line);
            let _ = value.setattr("column", self.column);
            let _ = value.setattr("message", self.message);
        });
        exception
    }
}
