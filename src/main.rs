//! The `quadrille` command-line tool. It only parses arguments and dispatches: every
//! subcommand is one function in `cli`, and all real work is in the library.

mod cli;

/// A batch's records are allocated on the workers and freed on the thread that writes them,
/// which glibc's allocator pays for in locks and consolidation and mimalloc does not: compare
/// the CPU time of `-j2` with `-j1`'s in `benches/peers/threads.sh`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::run()
}
