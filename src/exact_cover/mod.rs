//! Exact cover: problems, the dancing-links structure and Algorithm X.

mod problem;

pub use problem::{ItemKind, Problem, ProblemBuilder};
