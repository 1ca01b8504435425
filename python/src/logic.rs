//! `explain` and `rate`: a puzzle's logical solution as Python objects, each step with the
//! SVG picture that notebooks show inline, and its rating on Sudoku Explainer's scale.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quadrille::board::{Cell, Digit};
use quadrille::logic::{self, Candidates, cell_name, digit_name, step_svg};
use quadrille::request::{ExplainRequest, RateRecord, RateRequest, propagation_levels};

use crate::args;
use crate::errors::OrRaise;
use crate::interrupt;
use crate::sudoku::Reading;

/// Registers the functions and classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Step>()?;
    m.add_class::<Explanation>()?;
    m.add_class::<Rating>()?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    Ok(())
}

/// One step of a logical solution: the technique, its score, what it places and eliminates,
/// and why. `svg()` draws it on the candidates before it; a notebook shows it inline.
#[pyclass(frozen, module = "quadrille")]
pub struct Step {
    step: logic::Step,
    before: Candidates,
    /// The step's number, from 1.
    #[pyo3(get)]
    number: usize,
}

impl Step {
    /// Cells and digits as (row, column, digit) from 1.
    fn triples(&self, moves: impl Iterator<Item = (Cell, Digit)>) -> Vec<(usize, usize, u8)> {
        let n = self.before.shape().size();
        moves
            .map(|(c, d)| {
                let (r, col) = c.row_col(n);
                (r + 1, col + 1, d.get())
            })
            .collect()
    }
}

#[pymethods]
impl Step {
    /// The technique's name, e.g. "hidden single".
    #[getter]
    fn technique(&self) -> &'static str {
        self.step.technique().name()
    }

    /// The score on Sudoku Explainer's scale.
    #[getter]
    fn score(&self) -> f64 {
        self.step.score()
    }

    /// Digits placed, as (row, column, digit) from 1.
    #[getter]
    fn placements(&self) -> Vec<(usize, usize, u8)> {
        self.triples(self.step.placements())
    }

    /// Candidates eliminated, as (row, column, digit) from 1.
    #[getter]
    fn eliminations(&self) -> Vec<(usize, usize, u8)> {
        self.triples(self.step.eliminations())
    }

    /// The cells the reasoning rests on, as (row, column) from 1.
    #[getter]
    fn cells(&self) -> Vec<(usize, usize)> {
        let n = self.before.shape().size();
        self.step
            .cells()
            .map(|c| {
                let (r, col) = c.row_col(n);
                (r + 1, col + 1)
            })
            .collect()
    }

    /// The groups (rows, columns, boxes, ...) the reasoning reads, by name.
    #[getter]
    fn units(&self) -> Vec<String> {
        (self.step.units().iter())
            .map(|&u| self.step.board().group(u).to_string())
            .collect()
    }

    /// Why the step holds, in words.
    #[getter]
    fn why(&self) -> String {
        self.step.why()
    }

    /// The SVG picture of the step on the candidates before it, with `title` above it
    /// (default: the step's number, technique and score).
    #[pyo3(signature = (title = None))]
    fn svg(&self, title: Option<String>) -> String {
        let title = title.unwrap_or_else(|| {
            format!(
                "step {}: {} ({:.1})",
                self.number,
                self.step.technique(),
                self.step.score()
            )
        });
        step_svg(&self.before, &self.step, &title)
    }

    /// What Jupyter shows: the picture.
    fn _repr_svg_(&self) -> String {
        self.svg(None)
    }

    /// The step as `quadrille explain` writes it: technique (score): moves; why.
    fn __str__(&self) -> String {
        let n = self.before.shape().size();
        let mut moves: Vec<String> = (self.step.placements())
            .map(|(c, d)| format!("{}={}", cell_name(c.index(), n), digit_name(d.get(), n)))
            .collect();
        moves.extend(
            (self.step.eliminations())
                .map(|(c, d)| format!("{}<>{}", cell_name(c.index(), n), digit_name(d.get(), n))),
        );
        format!(
            "{} ({:.1}): {}; {}",
            self.step.technique(),
            self.step.score(),
            moves.join(" "),
            self.step.why()
        )
    }

    fn __repr__(&self) -> String {
        format!("Step({}: {})", self.number, self.__str__())
    }
}

/// A logical solution: its steps, how it ended, and the score of its hardest step.
#[pyclass(frozen, module = "quadrille")]
pub struct Explanation {
    /// The steps, in order (Step objects).
    #[pyo3(get)]
    steps: Vec<Py<Step>>,
    /// "solved", "stuck", "no solution", "several solutions", "stopped" or "undecided".
    #[pyo3(get)]
    ending: &'static str,
    /// Whether the puzzle is proved to have one solution (None when a budget stopped it).
    #[pyo3(get)]
    unique: Option<bool>,
    /// The hardest step's score (None when the puzzle has no rating: none or several
    /// solutions, or a budget stopped it).
    #[pyo3(get)]
    score: Option<f64>,
    /// The hardest step's technique, "none" without a step.
    #[pyo3(get)]
    hardest: String,
    /// The grid where a solution without guesses got stuck, and its candidates as text.
    #[pyo3(get)]
    stuck: Option<(String, String)>,
}

#[pymethods]
impl Explanation {
    /// Whether the grid was filled.
    #[getter]
    fn solved(&self) -> bool {
        self.ending == "solved"
    }

    fn __len__(&self) -> usize {
        self.steps.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Explanation({}, {} steps, hardest {} ({}))",
            self.ending,
            self.steps.len(),
            self.hardest,
            self.score
                .map_or("not rated".to_string(), |s| format!("{s:.1}"))
        )
    }
}

/// Explains a puzzle's solution step by step, as a person solves it (`quadrille explain`):
/// an Explanation. Without `guesses`, a puzzle no technique can advance ends "stuck".
#[pyfunction]
#[pyo3(signature = (puzzle, *, guesses = true, scale = "se121", r#box = None, input = "line", variant = None, node_budget = None, time_budget = None))]
#[pyo3(
    text_signature = "(puzzle, *, guesses=True, scale='se121', box=None, input='line', variant=None, node_budget=None, time_budget=None)"
)]
#[allow(clippy::too_many_arguments)]
fn explain(
    py: Python<'_>,
    puzzle: &str,
    guesses: bool,
    scale: &str,
    r#box: Option<&str>,
    input: &str,
    variant: Option<&str>,
    node_budget: Option<u64>,
    time_budget: Option<f64>,
) -> PyResult<Explanation> {
    let puzzle = Reading::new(r#box, input, variant)?.one(puzzle)?;
    let request = ExplainRequest {
        guesses,
        scale: scale_named(scale)?,
        budget: args::budget(node_budget, time_budget)?,
    };
    let (steps, explained) = interrupt::run(py, |_| {
        let mut steps = Vec::new();
        let explained = request.run(&puzzle, &mut |state, step| {
            steps.push((step.clone(), state.clone()));
            true
        });
        explained.map(|explained| (steps, explained))
    })?
    .or_raise()?;
    let stuck = explained.stuck.as_ref().map(|state| {
        let mut candidates = String::new();
        logic::write_candidates(state, &mut candidates);
        (state.grid().to_string(), candidates)
    });
    let steps = (steps.into_iter().enumerate())
        .map(|(i, (step, before))| {
            Py::new(
                py,
                Step {
                    step,
                    before,
                    number: i + 1,
                },
            )
        })
        .collect::<PyResult<_>>()?;
    Ok(Explanation {
        steps,
        ending: explained.ending.name(),
        unique: explained.unique,
        score: explained.score,
        hardest: explained.hardest,
        stuck,
    })
}

/// A puzzle's rating (`quadrille rate`): the hardest technique of its logical solution and
/// its score on Sudoku Explainer's scale, and the CSP's backtracks at each propagation level.
#[pyclass(frozen, module = "quadrille")]
pub struct Rating {
    /// The score (None when the puzzle has no rating: none or several solutions, or a budget
    /// stopped it).
    #[pyo3(get)]
    score: Option<f64>,
    /// The hardest technique (None unrated).
    #[pyo3(get)]
    hardest: Option<&'static str>,
    /// Steps taken, guesses included.
    #[pyo3(get)]
    steps: u32,
    /// Guesses among them.
    #[pyo3(get)]
    guesses: u32,
    /// How the solution ended (see Explanation.ending).
    #[pyo3(get)]
    ending: &'static str,
    /// Whether the puzzle is proved to have one solution (None when a budget stopped it).
    #[pyo3(get)]
    unique: Option<bool>,
    /// Backtracks of the CSP at each level asked for, by level name.
    #[pyo3(get)]
    backtracks: Vec<(&'static str, u64)>,
    /// The levels whose search the node budget cut (their backtracks are lower bounds).
    #[pyo3(get)]
    budget_cut: Vec<&'static str>,
    /// The library's record, for `to_dict`.
    record: RateRecord,
}

#[pymethods]
impl Rating {
    /// The difficulty band of the score: easy, medium, hard, expert or extreme (None unrated).
    #[getter]
    fn difficulty(&self) -> Option<&'static str> {
        self.score
            .map(|s| logic::Difficulty::of((s * 10.0).round() as u16).name())
    }

    /// The rating as a dict, with the keys of `quadrille rate --json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::exact_cover::record_dict(py, &self.record)
    }

    fn __repr__(&self) -> String {
        match self.score {
            Some(score) => format!(
                "Rating({score:.1} {}, steps={}, guesses={})",
                self.hardest.unwrap_or("none"),
                self.steps,
                self.guesses
            ),
            None => format!("Rating({}, not rated)", self.ending),
        }
    }
}

/// Rates a puzzle (`quadrille rate`): a Rating. `levels` are the CSP propagation levels whose
/// backtracks are counted (fc, ac, hidden-singles, pairs, triples, alldiff), each search
/// within `level_nodes` nodes; the budgets bound the whole rating.
#[pyfunction]
#[pyo3(signature = (puzzle, *, levels = vec!["hidden-singles".to_string(), "pairs".to_string(), "triples".to_string(), "alldiff".to_string()], level_nodes = 100_000, scale = "se121", r#box = None, input = "line", variant = None, node_budget = None, time_budget = None))]
#[pyo3(
    text_signature = "(puzzle, *, levels=('hidden-singles', 'pairs', 'triples', 'alldiff'), level_nodes=100000, scale='se121', box=None, input='line', variant=None, node_budget=None, time_budget=None)"
)]
#[allow(clippy::too_many_arguments)]
fn rate(
    py: Python<'_>,
    puzzle: &str,
    levels: Vec<String>,
    level_nodes: u64,
    scale: &str,
    r#box: Option<&str>,
    input: &str,
    variant: Option<&str>,
    node_budget: Option<u64>,
    time_budget: Option<f64>,
) -> PyResult<Rating> {
    let puzzle = Reading::new(r#box, input, variant)?.one(puzzle)?;
    let request = RateRequest {
        levels: propagation_levels(levels.iter().map(String::as_str)).map_err(args::invalid)?,
        level_nodes,
        scale: scale_named(scale)?,
        budget: args::budget(node_budget, time_budget)?,
    };
    request.check().map_err(args::invalid)?;
    let record = interrupt::run(py, |_| request.run(&puzzle))?.or_raise()?;
    Ok(Rating {
        score: record.score,
        hardest: record.hardest,
        steps: record.steps,
        guesses: record.guesses,
        ending: record.rating.ending.name(),
        unique: record.unique,
        backtracks: (record.level_backtracks.iter())
            .map(|(p, b)| (p.name(), b.count))
            .collect(),
        budget_cut: record.budget_cut.clone(),
        record,
    })
}

/// The rating scale named `name` (`se121` or `sukaku`), as `--scale` reads it.
pub(crate) fn scale_named(name: &str) -> PyResult<logic::Scale> {
    name.parse()
        .map_err(|message: String| PyValueError::new_err(format!("scale: {message}")))
}
