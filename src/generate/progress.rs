//! What generators are doing, for a display: counters they update at every uniqueness check,
//! read by another thread whenever it likes.
//!
//! The counters are relaxed atomics: a reader sees each one as some check left it, never a torn
//! value, and the generators never wait for a reader (a 9x9 check takes microseconds).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Counters of the generators that report to it (see [`Generator::report_to`]).
///
/// [`Generator::report_to`]: super::Generator::report_to
///
/// ```
/// use std::sync::Arc;
/// use quadrille::generate::{Generator, Order, Progress};
/// use quadrille::sudoku::Shape;
///
/// let progress = Arc::new(Progress::default());
/// let mut generator = Generator::new(&Order::new(Shape::CLASSIC))?;
/// generator.report_to(Arc::clone(&progress));
/// let (made, ()) = generator.generate(1, |_| Some(()))?;
/// let seen = progress.snapshot();
/// assert_eq!(seen.checks, made.stats.checks);
/// assert_eq!(seen.givens, made.puzzle.givens());
/// assert_eq!(seen.tried, 81); // every cell's removal was tried
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Progress {
    checks: AtomicU64,
    undecided: AtomicU64,
    attempts: AtomicU64,
    tried: AtomicUsize,
    givens: AtomicUsize,
}

/// What a [`Progress`] held when it was read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// Uniqueness checks made, by every generator reporting.
    pub checks: u64,
    /// Those that ran out of budget (their givens stay).
    pub undecided: u64,
    /// Attempts begun.
    pub attempts: u64,
    /// Cells whose removal the latest check's attempt has tried, that check's included.
    pub tried: usize,
    /// Givens that attempt has left after that check.
    pub givens: usize,
}

impl ProgressSnapshot {
    /// What the counters say, in a line of an 80-column terminal (a spinner's message): the
    /// puzzles made of `wanted`, the cells whose removal the latest check's attempt has tried
    /// (of `cells`) and the givens it has left, and the checks that ran out of budget.
    ///
    /// ```
    /// use quadrille::generate::ProgressSnapshot;
    ///
    /// let mut seen = ProgressSnapshot::default();
    /// assert_eq!(seen.describe(0, 3, 1296), "0/3 made, filling a grid");
    /// (seen.attempts, seen.tried, seen.givens, seen.undecided) = (2, 800, 690, 396);
    /// assert_eq!(
    ///     seen.describe(1, 3, 1296),
    ///     "1/3 made, 800/1296 tried, 690 givens left, 396 undecided"
    /// );
    /// ```
    pub fn describe(&self, made: u64, wanted: usize, cells: usize) -> String {
        if self.attempts == 0 {
            return format!("{made}/{wanted} made, filling a grid");
        }
        format!(
            "{made}/{wanted} made, {}/{cells} tried, {} givens left, {} undecided",
            self.tried, self.givens, self.undecided
        )
    }
}

impl Progress {
    /// The counters as they are now.
    pub fn snapshot(&self) -> ProgressSnapshot {
        ProgressSnapshot {
            checks: self.checks.load(Ordering::Relaxed),
            undecided: self.undecided.load(Ordering::Relaxed),
            attempts: self.attempts.load(Ordering::Relaxed),
            tried: self.tried.load(Ordering::Relaxed),
            givens: self.givens.load(Ordering::Relaxed),
        }
    }

    /// An attempt begins, from a full grid of `cells` givens.
    pub(crate) fn note_attempt(&self, cells: usize) {
        self.attempts.fetch_add(1, Ordering::Relaxed);
        self.tried.store(0, Ordering::Relaxed);
        self.givens.store(cells, Ordering::Relaxed);
    }

    /// A check of the current attempt ended, with `tried` cells tried and `givens` left.
    pub(crate) fn note_check(&self, tried: usize, givens: usize, undecided: bool) {
        self.checks.fetch_add(1, Ordering::Relaxed);
        self.undecided
            .fetch_add(u64::from(undecided), Ordering::Relaxed);
        self.tried.store(tried, Ordering::Relaxed);
        self.givens.store(givens, Ordering::Relaxed);
    }
}
