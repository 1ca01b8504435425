//! The rules that a request's numbers obey, in one place: every front end reads its flags,
//! keywords or JSON keys into numbers and asks these, so that a number means the same thing
//! everywhere and a bad one is refused with the same words. The words name no flag: an
//! [`Invalid`] names its [`Field`], which each front end says in its own way (`--time-budget`,
//! `time_budget=`).

use std::time::Duration;

use crate::budget::Budget;
pub use crate::error::{Field, Invalid};

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
}
