//! The rules that a request's numbers obey, in one place: every front end reads its flags,
//! keywords or JSON keys into numbers and asks these, so that a number means the same thing
//! everywhere and a bad one is refused with the same words. The words name no flag: an
//! [`Invalid`] names its [`Field`], which each front end says in its own way (`--time-budget`,
//! `time_budget=`).

use std::fmt::Display;
use std::str::FromStr;
use std::time::Duration;

use crate::budget::{Budget, Interrupt};
use crate::engine::Engine;
use crate::error::{Error, ErrorKind};
pub use crate::error::{Field, Invalid};
use serde::{Deserialize, Serialize};

/// The longest time budget accepted: about 31 years, far beyond any run, and far below what
/// the clock can add to the present.
pub const MAX_SECONDS: f64 = 1e9;

/// The most threads accepted; 0 means one per core.
pub const MAX_THREADS: usize = 1024;

/// A time budget of `seconds`: finite, 0 or more, at most [`MAX_SECONDS`].
///
/// ```
/// use std::time::Duration;
/// use quadrille::request::check::seconds;
///
/// assert_eq!(seconds(1.5), Ok(Duration::from_millis(1500)));
/// assert!(seconds(f64::NAN).unwrap_err().message.contains("not a number"));
/// assert!(seconds(-1.0).is_err());
/// ```
pub fn seconds(seconds: f64) -> Result<Duration, Invalid> {
    let invalid = |message: String| Err(Invalid::new(Field::TimeBudget, message));
    if seconds.is_nan() {
        return invalid(format!("{seconds} is not a number of seconds"));
    }
    if seconds.is_infinite() {
        return invalid("the time budget must be finite (leave it out for no limit)".into());
    }
    if seconds < 0.0 {
        return invalid(format!("the time budget must be 0 or more, not {seconds}"));
    }
    if seconds > MAX_SECONDS {
        return invalid(format!(
            "{seconds:e} seconds is more than the longest time budget, {MAX_SECONDS:e} seconds (leave it out for no limit)"
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// A thread count: 0 (one per core) up to [`MAX_THREADS`].
pub fn threads(threads: usize) -> Result<usize, Invalid> {
    if threads > MAX_THREADS {
        return Err(Invalid::new(
            Field::Threads,
            format!("at most {MAX_THREADS} threads, not {threads}"),
        ));
    }
    Ok(threads)
}

/// A solution limit: 1 or more, or none for every solution.
pub fn limit(limit: Option<u64>) -> Result<Option<u64>, Invalid> {
    match limit {
        Some(0) => Err(Invalid::new(Field::Limit, "must be 1 or more")),
        other => Ok(other),
    }
}

/// A node budget: 1 or more, or none for no budget.
pub fn node_budget(nodes: Option<u64>) -> Result<Option<u64>, Invalid> {
    match nodes {
        Some(0) => Err(Invalid::new(
            Field::NodeBudget,
            "0 nodes decides nothing; leave it out for no budget",
        )),
        other => Ok(other),
    }
}

/// The budget of `nodes` and `seconds`, each checked as [`node_budget`] and [`seconds`] check
/// it, without an interrupt.
pub fn budget(nodes: Option<u64>, seconds: Option<f64>) -> Result<Budget, Invalid> {
    Ok(Budget {
        nodes: node_budget(nodes)?,
        time: seconds.map(self::seconds).transpose()?,
        interrupt: None,
    })
}

/// The budget of `nodes` and `seconds`, checked as [`budget`] checks them, whose time is at
/// most `cap` (the time asked for, or all of it), stopped by `interrupt`: a server's
/// request within its cap.
///
/// ```
/// use std::time::Duration;
/// use quadrille::Interrupt;
/// use quadrille::request::check::capped;
///
/// let stop = Interrupt::new(Box::leak(Box::default()));
/// let cap = Duration::from_secs(30);
/// assert_eq!(capped(None, Some(99.0), cap, stop)?.time, Some(cap));
/// assert_eq!(capped(None, Some(2.0), cap, stop)?.time, Some(Duration::from_secs(2)));
/// assert_eq!(capped(None, None, cap, stop)?.time, Some(cap));
/// # Ok::<(), quadrille::request::Invalid>(())
/// ```
pub fn capped(
    nodes: Option<u64>,
    seconds: Option<f64>,
    cap: Duration,
    interrupt: Interrupt,
) -> Result<Budget, Invalid> {
    let asked = budget(nodes, seconds)?;
    Ok(Budget {
        time: Some(asked.time.map_or(cap, |time| time.min(cap))),
        interrupt: Some(interrupt),
        ..asked
    })
}

/// A budget as a request asks for it, not yet checked: read from JSON, its keys are
/// `node_budget` and `time_budget`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct BudgetAsked {
    /// Search-tree nodes.
    pub node_budget: Option<u64>,
    /// Seconds.
    pub time_budget: Option<f64>,
}

impl BudgetAsked {
    /// The budget, checked by [`budget`].
    pub fn check(self) -> Result<Budget, Invalid> {
        budget(self.node_budget, self.time_budget)
    }

    /// The budget within `cap`, stopped by `interrupt` ([`capped`]).
    pub fn capped(self, cap: Duration, interrupt: Interrupt) -> Result<Budget, Invalid> {
        capped(self.node_budget, self.time_budget, cap, interrupt)
    }
}

/// A thread count checked by [`threads`], then made this machine's: one per core for 0, and
/// never more than the cores (a shared server does not oversubscribe them).
pub fn threads_here(asked: usize) -> Result<usize, Invalid> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    Ok(match threads(asked)? {
        0 => cores,
        asked => asked.min(cores),
    })
}

/// A value given as text (a JSON string, a keyword), read by its own `FromStr`, its error
/// naming `field`; `None` stays `None`.
pub fn parse<T: FromStr>(field: Field, text: Option<&str>) -> Result<Option<T>, Invalid>
where
    T::Err: Display,
{
    (text.map(str::parse::<T>).transpose()).map_err(|e| Invalid::new(field, e.to_string()))
}

/// Engines named in a comma-separated list (`dlx,csp`).
pub fn engines(list: &str) -> Result<Vec<Engine>, Invalid> {
    (list.split(','))
        .map(|name| {
            parse::<Engine>(Field::Engine, Some(name.trim())).map(Option::unwrap_or_default)
        })
        .collect()
}

/// A refused request's answer, for a front end that answers in JSON (`quadrille serve`): the
/// library's message, with the line and column it names, or the request's field at fault.
/// Fields are in the order the object is written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorRecord {
    /// The column it names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// What is wrong.
    pub error: String,
    /// The request's field at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
    /// The line it names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

impl ErrorRecord {
    /// The record of `err`.
    pub fn of(err: &Error) -> ErrorRecord {
        let (error, field) = match err.kind() {
            ErrorKind::InvalidRequest(invalid) => {
                (invalid.message.clone(), Some(invalid.field.name()))
            }
            _ => (err.message(), None),
        };
        ErrorRecord {
            column: err.column(),
            error,
            field,
            line: err.line(),
        }
    }

    /// The record of a JSON text that does not read as the request: its line and column.
    pub fn of_json(err: &serde_json::Error) -> ErrorRecord {
        ErrorRecord {
            column: Some(err.column()),
            error: err.to_string(),
            field: None,
            line: Some(err.line()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_refuses_what_no_clock_holds() {
        assert_eq!(seconds(1.5), Ok(Duration::from_millis(1500)));
        assert_eq!(seconds(0.0), Ok(Duration::ZERO));
        assert_eq!(seconds(1e9), Ok(Duration::from_secs(1_000_000_000)));
        for bad in [
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -1.0,
            -0.5,
            1e19,
            1e300,
        ] {
            let err = seconds(bad).unwrap_err();
            assert_eq!(err.field, Field::TimeBudget, "{bad}");
        }
        assert!(
            seconds(f64::NAN)
                .unwrap_err()
                .message
                .contains("not a number")
        );
        assert!(seconds(-1.0).unwrap_err().message.contains("0 or more"));
        assert!(
            seconds(f64::INFINITY)
                .unwrap_err()
                .message
                .contains("finite")
        );
        assert!(seconds(1e300).unwrap_err().message.contains("longest"));
    }

    #[test]
    fn counts_threads_and_budgets() {
        assert_eq!(limit(Some(3)), Ok(Some(3)));
        assert_eq!(limit(None), Ok(None));
        assert_eq!(limit(Some(0)).unwrap_err().field, Field::Limit);
        assert_eq!(threads(0), Ok(0));
        assert_eq!(threads(MAX_THREADS), Ok(MAX_THREADS));
        assert_eq!(threads(100_000).unwrap_err().field, Field::Threads);
        let err = node_budget(Some(0)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "node_budget: 0 nodes decides nothing; leave it out for no budget"
        );
        let budget = budget(Some(7), Some(2.0)).unwrap();
        assert_eq!(budget.nodes, Some(7));
        assert_eq!(budget.time, Some(Duration::from_secs(2)));
    }

    #[test]
    fn capped_budgets_threads_here_and_named_values() {
        let stop = Interrupt::new(Box::leak(Box::default()));
        let cap = Duration::from_secs(30);
        let budget = capped(Some(5), Some(1e6), cap, stop).unwrap();
        assert_eq!((budget.nodes, budget.time), (Some(5), Some(cap)));
        assert!(budget.interrupt.is_some());
        assert_eq!(
            capped(Some(0), None, cap, stop).unwrap_err().field,
            Field::NodeBudget
        );
        assert_eq!(
            capped(None, Some(-1.0), cap, stop).unwrap_err().field,
            Field::TimeBudget
        );
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        assert_eq!(threads_here(0), Ok(cores));
        assert_eq!(threads_here(1), Ok(1));
        assert_eq!(threads_here(MAX_THREADS), Ok(cores));
        assert!(threads_here(MAX_THREADS + 1).is_err());
        assert_eq!(parse::<u8>(Field::Box, None), Ok(None));
        assert_eq!(parse::<u8>(Field::Box, Some("7")), Ok(Some(7)));
        assert_eq!(
            parse::<u8>(Field::Box, Some("x")).unwrap_err().field,
            Field::Box
        );
        assert_eq!(
            engines("dlx, bitboard").unwrap(),
            [Engine::Dlx, Engine::Bitboard]
        );
        assert_eq!(engines("dlx,nope").unwrap_err().field, Field::Engine);
    }
}
