//! Searches run with the GIL released on a thread of their own, while the calling thread
//! wakes every [`TICK`] to let Python handle signals. Ctrl-C raises the calling thread's
//! [`Interrupt`], which every budget made for its calls holds ([`this_thread`]): the library's
//! searches read it where they read their clock (every 1,024 nodes), so the search ends within
//! milliseconds, as an out-of-time one would, and the `KeyboardInterrupt` is raised once it has
//! returned. No search thread is left running.
//!
//! One flag per calling thread, not one per process: Python delivers signals to the main
//! thread only, and a Ctrl-C there must not cut short the searches of other threads, which
//! would return their partial answers without an exception.

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use quadrille::Interrupt;

/// How often the calling thread looks for a signal while a search runs: Ctrl-C waits up to
/// a tick before the search hears of it, and a search stops within about a millisecond after
/// (benches/peers/ctrl_c.py), so a tick of 20 ms keeps the whole under 100 ms at a cost of 50
/// wake-ups a second.
const TICK: Duration = Duration::from_millis(20);

/// The stack of a search's thread: a main thread's, as the command-line tool's searches have.
pub const STACK: usize = 8 << 20;

thread_local! {
    /// This thread's flag: leaked once per thread that starts searches (a byte), because an
    /// [`Interrupt`] holds a `&'static` flag so that budgets stay `Copy`.
    static FLAG: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
}

/// The flags of streams that have ended, for the next streams: as many are leaked as streams
/// ever ran at once.
static SPARE: Mutex<Vec<&'static AtomicBool>> = Mutex::new(Vec::new());

/// A flag of its own for a search that outlives the call that starts it (a stream of
/// solutions), lowered: the stream's iterator raises it when it is dropped, so that the search
/// stops at its next clock reading even when it meets no solution. Shared (in an `Arc`) by the
/// iterator and the search's thread, it goes back to the spares when both are done with it,
/// never while a search may still read it.
pub struct Lent(&'static AtomicBool);

impl Lent {
    /// A spare flag, or a new one.
    pub fn new() -> Lent {
        let spare = SPARE.lock().ok().and_then(|mut spare| spare.pop());
        let lent = Lent(spare.unwrap_or_else(|| Box::leak(Box::new(AtomicBool::new(false)))));
        lent.interrupt().lower();
        lent
    }

    /// Its interrupt, for the search's budget and to raise it.
    pub fn interrupt(&self) -> Interrupt {
        Interrupt::new(self.0)
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        if let Ok(mut spare) = SPARE.lock() {
            spare.push(self.0);
        }
    }
}

/// The interrupt that Ctrl-C raises during this thread's searches (see [`run`]).
pub fn this_thread() -> Interrupt {
    FLAG.with(|flag| Interrupt::new(flag))
}

/// Runs `work` without the GIL on a thread of its own, handing it this thread's interrupt
/// (lowered), which a signal raises; raises the signal's exception (Ctrl-C's
/// `KeyboardInterrupt`) once `work` has returned.
pub fn run<T: Send>(py: Python<'_>, work: impl FnOnce(Interrupt) -> T + Send) -> PyResult<T> {
    let interrupt = this_thread();
    interrupt.lower();
    let mut signal: Option<PyErr> = None;
    let caller = std::thread::current();
    let result = std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(scope, move || {
                let value = work(interrupt);
                caller.unpark();
                value
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a search thread: {e}")))?;
        loop {
            py.detach(|| {
                if !worker.is_finished() {
                    std::thread::park_timeout(TICK);
                }
            });
            if worker.is_finished() {
                break;
            }
            if let Err(err) = py.check_signals() {
                interrupt.raise();
                signal.get_or_insert(err);
            }
        }
        Ok::<_, PyErr>(worker.join())
    })?;
    interrupt.lower();
    if let Some(err) = signal {
        return Err(err);
    }
    result.map_err(|_| PyRuntimeError::new_err("quadrille: the search panicked (a bug)"))
}
