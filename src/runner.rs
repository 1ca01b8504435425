//! One function over a stream of inputs on the current rayon pool, the results handed back in
//! input order, in flat memory.
//!
//! [`run_in_order`] takes the inputs in chunks. While the pool works on chunk k, the calling
//! thread takes chunk k+1 from the input and hands the results of chunk k-1 to the sink, in
//! input order: reading and writing, which cannot be shared out, overlap the work rather than
//! leave the other threads waiting. At most three chunks are in memory, whatever the input's
//! length. The input and the sink stay on the calling thread (`rayon::in_place_scope`), so
//! neither needs to be `Send`; a sink that fails stops the run.
//!
//! The library builds no thread pool: the run uses whichever pool it is called in (the global
//! one, or one the caller [`install`](rayon::ThreadPool::install)s). [`crate::batch`],
//! [`crate::compare`] and `quadrille generate` all run through here.

use std::convert::Infallible;

use rayon::prelude::*;

/// Inputs handed to the threads at a time when each takes milliseconds (a logical solution,
/// a rating, an engine comparison): enough for every thread of a large machine, few enough
/// that the first results come soon.
pub const SLOW_WORK_CHUNK: usize = 512;

/// The most inputs a chunk reserves room for before it is read: the batches' chunks
/// (`batch`'s 2,048 on several threads) fit.
const RESERVED_CHUNK: usize = 4096;

/// How the pool works through the inputs of one chunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WithinChunk {
    /// Several inputs at once, one per thread: for many small tasks.
    #[default]
    Parallel,
    /// One input after another, each free to use every thread of the pool itself (a search
    /// split across threads, say); the chunk is still worked on while the caller reads and
    /// writes.
    Sequential,
}

impl WithinChunk {
    /// The outputs of `work` on every input of `chunk`, in order.
    fn run<T, U, W>(self, chunk: Vec<T>, work: &W) -> Vec<U>
    where
        T: Send,
        U: Send,
        W: Fn(T) -> U + Sync,
    {
        match self {
            // Pieces of at most 16 inputs, so that no thread waits long at the chunk's end for
            // another's last piece (benches/peers/threads.sh).
            WithinChunk::Parallel => chunk.into_par_iter().with_max_len(16).map(work).collect(),
            WithinChunk::Sequential => chunk.into_iter().map(work).collect(),
        }
    }
}

/// Runs `work` on every input on the threads of the current rayon pool, `chunk_size` inputs
/// at a time (at least one), and hands each output to `sink` on the calling thread, in input
/// order. Stops at the first error of `sink` and returns it, after the outputs before it and
/// no others (the chunks already taken are finished, then dropped).
///
/// ```
/// use quadrille::runner::{self, WithinChunk};
///
/// let mut squares = Vec::new();
/// let done = runner::run_in_order(1..=10u64, 4, WithinChunk::Parallel, |n| n * n, |square| {
///     squares.push(square);
///     if square >= 49 { Err("enough") } else { Ok(()) }
/// });
/// assert_eq!(done, Err("enough"));
/// assert_eq!(squares, [1, 4, 9, 16, 25, 36, 49]);
/// ```
pub fn run_in_order<I, U, W, S, E>(
    inputs: I,
    chunk_size: usize,
    within: WithinChunk,
    work: W,
    mut sink: S,
) -> Result<(), E>
where
    I: IntoIterator,
    I::Item: Send,
    U: Send,
    W: Fn(I::Item) -> U + Sync,
    S: FnMut(U) -> Result<(), E>,
{
    let chunk_size = chunk_size.max(1);
    let mut inputs = inputs.into_iter();
    // Room for a whole chunk at once: collected from an iterator that cannot tell its length,
    // a chunk would grow by doubling, each step a copy (callgrind, `solve --limit 2 -j1`). A
    // caller's chunk past the batches' sizes grows from there, rather than reserving memory
    // that a short input never fills.
    let mut take_chunk = || -> Vec<I::Item> {
        let mut chunk = Vec::with_capacity(chunk_size.min(RESERVED_CHUNK));
        chunk.extend(inputs.by_ref().take(chunk_size));
        chunk
    };
    let work = &work;
    let mut working = take_chunk();
    let mut finished: Vec<U> = Vec::new();
    while !(working.is_empty() && finished.is_empty()) {
        let mut results = Vec::new();
        let mut next = Vec::new();
        let mut handed = Ok(());
        rayon::in_place_scope(|scope| {
            let chunk = std::mem::take(&mut working);
            let results = &mut results;
            scope.spawn(move |_| *results = within.run(chunk, work));
            next = take_chunk();
            for output in finished.drain(..) {
                handed = sink(output);
                if handed.is_err() {
                    break;
                }
            }
        });
        handed?;
        working = next;
        finished = results;
    }
    Ok(())
}

#[cfg(test)]
mod tests {

    #[test]
    fn recent_keeps_the_most_recently_used() {
        let mut recent = Recent::new(2);
        assert_eq!(*recent.get_or_insert_with("a", || 1), 1);
        assert_eq!(*recent.get_or_insert_with("a", || 2), 1); // kept
        recent.get_or_insert_with("b", || 3);
        recent.get_or_insert_with("c", || 4); // "a", the least recently used, goes
        assert_eq!(*recent.get_or_insert_with("a", || 5), 5);
    }

    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    #[test]
    fn outputs_come_in_input_order_across_chunks() {
        for threads in [1, 2] {
            for within in [WithinChunk::Parallel, WithinChunk::Sequential] {
                for chunk_size in [0, 1, 7, 1000, usize::MAX] {
                    let mut got = Vec::new();
                    let done: Result<(), ()> = pool(threads).install(|| {
                        run_in_order(
                            0..500u32,
                            chunk_size,
                            within,
                            |n| n * 3,
                            |m| {
                                got.push(m);
                                Ok(())
                            },
                        )
                    });
                    assert_eq!(done, Ok(()));
                    let want: Vec<u32> = (0..500).map(|n| n * 3).collect();
                    assert_eq!(
                        got, want,
                        "{threads} threads, {within:?}, chunk {chunk_size}"
                    );
                }
            }
        }
    }

    #[test]
    fn nothing_in_nothing_out() {
        let mut calls = 0;
        let done: Result<(), ()> = run_in_order(
            std::iter::empty::<u8>(),
            4,
            WithinChunk::Parallel,
            |n| n,
            |_| {
                calls += 1;
                Ok(())
            },
        );
        assert_eq!((done, calls), (Ok(()), 0));
    }

    /// The input and the sink share an `Rc` (not `Send`): both stay on the calling thread, and
    /// no more than three chunks are ever taken and not yet handed out.
    #[test]
    fn memory_is_bounded_by_three_chunks_and_the_caller_keeps_its_state() {
        let chunk_size = 16;
        let (done, handed) = pool(2).install(|| {
            let taken = Rc::new(Cell::new(0usize));
            let inputs = {
                let taken = Rc::clone(&taken);
                (0..1000usize).inspect(move |_| taken.set(taken.get() + 1))
            };
            let mut handed = 0usize;
            let done: Result<(), ()> = run_in_order(
                inputs,
                chunk_size,
                WithinChunk::Parallel,
                |n| n + 1,
                |m| {
                    handed += 1;
                    assert_eq!(m, handed);
                    assert!(taken.get() - handed < 3 * chunk_size, "{}", taken.get());
                    Ok(())
                },
            );
            (done, handed)
        });
        assert_eq!((done, handed), (Ok(()), 1000));
    }

    #[test]
    fn a_failing_sink_stops_the_run_after_the_outputs_before_it() {
        let mut got = Vec::new();
        let done = pool(2).install(|| {
            run_in_order(
                0..10_000u32,
                64,
                WithinChunk::Parallel,
                |n| n,
                |n| {
                    if n == 1000 {
                        return Err(format!("stopped at {n}"));
                    }
                    got.push(n);
                    Ok(())
                },
            )
        });
        assert_eq!(done, Err("stopped at 1000".to_string()));
        assert_eq!(got, (0..1000).collect::<Vec<_>>());
    }
}

/// Values kept for reuse by key, the most recently used first, at most `kept` of them: a worker
/// thread's solvers, whose links or tables cost more to build than a puzzle costs to search.
/// Each user keeps one in a `thread_local!`, so that a thread builds a solver the first time it
/// meets its key and every later puzzle of that key reuses it.
#[derive(Debug)]
pub(crate) struct Recent<K, V> {
    entries: Vec<(K, V)>,
    kept: usize,
}

impl<K: PartialEq, V> Recent<K, V> {
    /// No values yet; at most `kept` (at least one) once some are made.
    pub const fn new(kept: usize) -> Recent<K, V> {
        Recent {
            entries: Vec::new(),
            kept,
        }
    }

    /// The value of `key`, made by `make` if it is not kept, now the most recently used.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let Ok(value) = self.get_or_try_insert_with(key, || Ok::<V, Infallible>(make()));
        value
    }

    /// [`Recent::get_or_insert_with`] for a `make` that may fail: its error, and nothing kept.
    pub fn get_or_try_insert_with<E>(
        &mut self,
        key: K,
        make: impl FnOnce() -> Result<V, E>,
    ) -> Result<&mut V, E> {
        match self.entries.iter().position(|(k, _)| *k == key) {
            // The usual case, one key again and again, moves nothing.
            Some(0) => {}
            Some(i) => self.entries[..=i].rotate_right(1),
            None => {
                let value = make()?;
                self.entries.truncate(self.kept.max(1) - 1);
                self.entries.insert(0, (key, value));
            }
        }
        Ok(&mut self.entries[0].1)
    }
}
