//! [`Jobs`]: the requests a front end has started, each with the interrupt of its budget, so
//! that it can cancel one by its id, or stop every one that outlives a cap (`quadrille serve`'s
//! cancel route and time cap).
//!
//! [`Slots`]: how many jobs of a kind run at once, the others waiting their turn; and
//! [`ticking`]: a long job on a thread of its own, telling where it has got at a steady pace.
//!
//! A budget's interrupt is a `&'static AtomicBool` ([`Interrupt`]): each is leaked once, and
//! handed to the next job when its own ends, so that a long-running front end leaks no more
//! flags than it ever ran jobs at once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::budget::Interrupt;
use crate::exact_cover::PartsDone;

/// Connections a server serves at once: more than its search slots, so that requests waiting
/// for a slot leave handlers free for cancels, pages and the streams of counts.
pub const CONNECTIONS: usize = 16;
/// How long a quick request waits for a search slot before it is told the server is busy.
pub const SLOT_WAIT: Duration = Duration::from_secs(20);
/// Counts that may wait for a slot; past them a count is refused, as each waiting one holds a
/// thread and a connection ([`Slots::has_room`]).
pub const COUNTS_WAITING: usize = 64;
/// How often a long job's progress is told ([`ticking`]), and how often a waiting one or an idle
/// handler looks whether it should stop.
pub const TICK: Duration = Duration::from_millis(250);
/// How often the running jobs are held to their caps ([`Jobs::raise_expired`]).
pub const CAP_CHECK: Duration = Duration::from_millis(50);

/// The jobs running, by id.
#[derive(Debug, Default)]
pub struct Jobs {
    next: AtomicU64,
    running: Mutex<HashMap<u64, (Interrupt, Option<Instant>)>>,
    spare: Mutex<Vec<Interrupt>>,
    closed: AtomicBool,
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
            // Read under the lock that `close` raises under: no job escapes both.
            if self.closed.load(Ordering::Relaxed) {
                interrupt.raise();
            }
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

    /// Raises the interrupt of every job running, and of every job started from now on, as
    /// it starts: the front end is stopping.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use quadrille::request::Jobs;
    ///
    /// let jobs = Arc::new(Jobs::default());
    /// let running = jobs.start(None);
    /// jobs.close();
    /// assert!(running.interrupt().is_raised());
    /// assert!(jobs.start(None).interrupt().is_raised());
    /// ```
    pub fn close(&self) {
        if let Ok(running) = self.running.lock() {
            self.closed.store(true, Ordering::Relaxed);
            running
                .values()
                .for_each(|(interrupt, _)| interrupt.raise());
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

/// A counting semaphore with a queue: so many jobs at once, how many wait, and a close that
/// turns every wait, present and future, into a refusal.
#[derive(Clone, Debug)]
pub struct Slots(Arc<(Mutex<SlotState>, Condvar)>);

#[derive(Debug)]
struct SlotState {
    free: usize,
    waiting: usize,
    /// The most that may wait ([`Slots::has_room`]).
    most_waiting: usize,
    closed: bool,
}

/// A slot taken; given back when dropped.
#[derive(Debug)]
pub struct Slot(Slots);

impl Slots {
    /// `free` slots, any number waiting.
    pub fn new(free: usize) -> Slots {
        Slots::with_queue(free, usize::MAX)
    }

    /// `free` slots, at most `most_waiting` waiting ([`Slots::has_room`]).
    ///
    /// ```
    /// use std::time::Duration;
    /// use quadrille::request::Slots;
    ///
    /// let slots = Slots::with_queue(1, 0);
    /// let _taken = slots.take(Duration::ZERO).expect("one is free");
    /// assert!(!slots.has_room(), "none may wait");
    /// ```
    pub fn with_queue(free: usize, most_waiting: usize) -> Slots {
        let state = SlotState {
            free,
            waiting: 0,
            most_waiting,
            closed: false,
        };
        Slots(Arc::new((Mutex::new(state), Condvar::new())))
    }

    /// A slot, waiting at most `wait` for one; `None` if none came free or the slots closed.
    ///
    /// ```
    /// use std::time::Duration;
    /// use quadrille::request::Slots;
    ///
    /// let slots = Slots::new(1);
    /// let first = slots.take(Duration::ZERO).expect("one is free");
    /// assert!(slots.take(Duration::from_millis(10)).is_none());
    /// drop(first);
    /// assert!(slots.take(Duration::ZERO).is_some());
    /// slots.close();
    /// assert!(slots.take(Duration::ZERO).is_none());
    /// ```
    pub fn take(&self, wait: Duration) -> Option<Slot> {
        let (lock, freed) = &*self.0;
        let mut state = lock.lock().ok()?;
        state.waiting += 1;
        let (mut state, _) =
            (freed.wait_timeout_while(state, wait, |s| s.free == 0 && !s.closed)).ok()?;
        state.waiting -= 1;
        if state.free == 0 || state.closed {
            return None;
        }
        state.free -= 1;
        Some(Slot(self.clone()))
    }

    /// How many wait for a slot.
    pub fn waiting(&self) -> usize {
        self.0.0.lock().map_or(0, |state| state.waiting)
    }

    /// Whether one more may wait for a slot: a slot is free, or fewer than the most wait.
    pub fn has_room(&self) -> bool {
        (self.0.0.lock()).is_ok_and(|s| s.free > 0 || s.waiting < s.most_waiting)
    }

    /// Refuses every wait from now on, and wakes those waiting.
    pub fn close(&self) {
        let (lock, freed) = &*self.0;
        if let Ok(mut state) = lock.lock() {
            state.closed = true;
        }
        freed.notify_all();
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let (lock, freed) = &*(self.0).0;
        if let Ok(mut state) = lock.lock() {
            state.free += 1;
        }
        freed.notify_one();
    }
}

/// Where a long job has got: for a count split into parts, the parts done and the nodes and
/// solutions of those parts (none before the first part ends, nor for a search that does not
/// split), and the seconds since it started. Serialised, `quadrille serve`'s `progress` event.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ProgressRecord {
    /// Search-tree nodes of the parts done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Parts in all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parts: Option<usize>,
    /// Parts done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parts_done: Option<usize>,
    /// Seconds since the job started.
    pub seconds: f64,
    /// Solutions of the parts done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<u64>,
}

/// Runs `work` on a thread of its own, handing it the callback to tell its progress to, and
/// hands `each` where it has got every `every` until it ends; returns what `work` returned, or
/// the panic that ended it.
///
/// ```
/// use std::time::Duration;
/// use quadrille::problems;
/// use quadrille::request::{ExactCoverCount, jobs};
///
/// let problem = problems::queens(9)?;
/// let request = ExactCoverCount { threads: 2, ..ExactCoverCount::default() };
/// let every = Duration::from_millis(1);
/// let counted = jobs::ticking(every, |progress| request.run(&problem, progress), &mut |_| {});
/// assert_eq!(counted.unwrap()?.solutions.to_string(), "352");
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn ticking<T: Send>(
    every: Duration,
    work: impl FnOnce(&(dyn Fn(PartsDone) + Sync)) -> T + Send,
    each: &mut dyn FnMut(&ProgressRecord),
) -> std::thread::Result<T> {
    let (tell, told) = std::sync::mpsc::channel::<PartsDone>();
    let start = Instant::now();
    std::thread::scope(|scope| {
        // The worker owns `tell`: the channel closes as it ends, and the wait with it.
        let worker = scope.spawn(move || {
            work(&|done| {
                let _ = tell.send(done);
            })
        });
        let mut last = ProgressRecord::default();
        loop {
            let news = match told.recv_timeout(every) {
                Ok(news) => Some(news),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => None,
            };
            if let Some(done) = news.into_iter().chain(told.try_iter()).last() {
                last = ProgressRecord {
                    nodes: Some(done.stats.nodes),
                    parts: Some(done.parts),
                    parts_done: Some(done.parts_done),
                    seconds: 0.0,
                    solutions: Some(done.stats.solutions),
                };
            }
            last.seconds = start.elapsed().as_secs_f64();
            each(&last);
        }
        worker.join()
    })
}
