//! Searches run with the GIL released on a thread of their own, while the calling thread
//! wakes every [`TICK`] to let Python handle signals: Ctrl-C sets a flag the search reads
//! where the library lets a caller stop it (a solution handed to a sink, a puzzle of a
//! batch), and the `KeyboardInterrupt` is raised when the search has returned.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the calling thread looks for a signal while a search runs.
const TICK: Duration = Duration::from_millis(50);

/// The stack of a search's thread: a main thread's, as the command-line tool's searches have.
pub const STACK: usize = 8 << 20;

/// The flag a search reads to stop early on Ctrl-C.
pub struct Cancel(AtomicBool);

impl Cancel {
    /// Whether Ctrl-C (or another signal handler's exception) asked to stop.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Runs `work` without the GIL on a thread of its own, and raises the exception of a signal
/// (Ctrl-C's `KeyboardInterrupt`) once it has returned.
pub fn run<T: Send>(py: Python<'_>, work: impl FnOnce(&Cancel) -> T + Send) -> PyResult<T> {
    let cancel = Cancel(AtomicBool::new(false));
    let mut signal: Option<PyErr> = None;
    let caller = std::thread::current();
    let result = std::thread::scope(|scope| {
        let cancel = &cancel;
        let worker = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(scope, move || {
                let value = work(cancel);
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
                cancel.0.store(true, Ordering::Relaxed);
                signal.get_or_insert(err);
            }
        }
        Ok::<_, PyErr>(worker.join())
    })?;
    if let Some(err) = signal {
        return Err(err);
    }
    result.map_err(|_| PyRuntimeError::new_err("quadrille: the search panicked (a bug)"))
}
