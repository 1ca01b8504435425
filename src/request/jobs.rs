//! [`Jobs`]: the requests a front end has started, each with the interrupt of its budget, so
//! that it can cancel one by its id, or stop every one that outlives a cap (`quadrille serve`'s
//! cancel route and time cap).
//!
//! A budget's interrupt is a `&'static AtomicBool` ([`Interrupt`]): each is leaked once, and
//! handed to the next job when its own ends, so that a long-running front end leaks no more
//! flags than it ever ran jobs at once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::budget::Interrupt;

/// The jobs running, by id.
#[derive(Debug, Default)]
pub struct Jobs {
    next: AtomicU64,
    running: Mutex<HashMap<u64, (Interrupt, Option<Instant>)>>,
    spare: Mutex<Vec<Interrupt>>,
}

/// A job's hold on its id and interrupt, given back when dropped (when its request ends).
#[derive(Debug)]
pub struct Job {
    id: u64,
    interrupt: Interrupt,
    jobs: Arc<Jobs>,
}

impl Jobs {
    /// A job, lowered, whose interrupt [`Jobs::raise_expired`] raises once `cap` has passed.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use quadrille::request::Jobs;
    ///
    /// let jobs = Arc::new(Jobs::default());
    /// let job = jobs.start(None);
    /// assert!(!job.interrupt().is_raised());
    /// assert!(jobs.cancel(job.id()));
    /// assert!(job.interrupt().is_raised());
    /// let id = job.id();
    /// drop(job);
    /// assert!(!jobs.cancel(id));
    /// ```
    pub fn start(self: &Arc<Self>, cap: Option<Duration>) -> Job {
        let spare = self.spare.lock().ok().and_then(|mut spare| spare.pop());
        let interrupt =
            spare.unwrap_or_else(|| Interrupt::new(Box::leak(Box::new(AtomicBool::new(false)))));
        interrupt.lower();
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let end = cap.and_then(|cap| Instant::now().checked_add(cap));
        if let Ok(mut running) = self.running.lock() {
            running.insert(id, (interrupt, end));
        }
        Job {
            id,
            interrupt,
            jobs: Arc::clone(self),
        }
    }

    /// Raises the interrupt of job `id`; whether it was running.
    pub fn cancel(&self, id: u64) -> bool {
        let running = self.running.lock();
        let job = running
            .ok()
            .and_then(|running| running.get(&id).map(|job| job.0));
        job.inspect(|interrupt| interrupt.raise()).is_some()
    }

    /// Raises the interrupt of every job past its cap.
    pub fn raise_expired(&self) {
        let now = Instant::now();
        if let Ok(running) = self.running.lock() {
            for (interrupt, end) in running.values() {
                if end.is_some_and(|end| end <= now) {
                    interrupt.raise();
                }
            }
        }
    }

    /// How many jobs are running.
    pub fn running(&self) -> usize {
        self.running.lock().map_or(0, |running| running.len())
    }
}

impl Job {
    /// Its id, for [`Jobs::cancel`].
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The interrupt to put in its request's budget.
    pub fn interrupt(&self) -> Interrupt {
        self.interrupt
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        if let Ok(mut running) = self.jobs.running.lock() {
            running.remove(&self.id);
        }
        if let Ok(mut spare) = self.jobs.spare.lock() {
            spare.push(self.interrupt);
        }
    }
}
