//! The `quadrille` command-line tool. It only parses arguments and dispatches: every
//! subcommand is one function in `cli`, and all real work is in the library.

mod cli;

/// A batch's records are allocated on the workers and freed on the thread that writes them,
/// which glibc's allocator pays for in locks and consolidation: on the 17-clue set ten times
/// over, `solve --limit 2 -j2` spent 14-20% more CPU than `-j1` with it, 1-6% with mimalloc,
/// whose two threads finished 5-7% sooner (`/usr/bin/time`, perf stat's task-clock).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::run()
}
