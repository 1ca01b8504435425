//! The `quadrille` command-line tool. It only parses arguments and dispatches: every
//! subcommand is one function in `cli`, and all real work is in the library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
