//! One module per subcommand, and what they share: inputs, outputs, exit codes.
//!
//! Exit codes: 0 success (also "no solution"), 1 bad input or a runtime error, 2 bad usage.
//! A closed output pipe (`quadrille solve big.txt | head`) ends the program quietly with 0.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod compare;
mod count;
mod explain;
mod flags;
mod generate;
mod logical;
mod long_count;
mod merge;
mod progress;
mod puzzles;
mod rate;
mod scale;
#[cfg(feature = "serve")]
mod serve;
mod solve;
mod xc;

/// Exact cover by Dancing Links, Sudoku of every box size, and CSP search to compare.
#[derive(Parser, Debug)]
#[command(name = "quadrille", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve Sudoku puzzles, one answer per puzzle line, in input order.
    Solve(solve::Args),
    /// Count the solutions of Sudoku puzzles.
    Count(count::Args),
    /// Solve an exact-cover problem in Knuth's dlx format.
    Xc(xc::Args),
    /// Run several engines over the same puzzles and compare their time and search effort.
    Compare(compare::Args),
    /// Make puzzles from a seed: unique, random or contradictory.
    Generate(generate::Args),
    /// Add up the results of `--shard I/N --json` runs of `xc` or `count`.
    Merge(merge::Args),
    /// Explain each puzzle's solution step by step, as a person would solve it.
    Explain(explain::Args),
    /// Rate each puzzle: its hardest technique and a score on Sudoku Explainer's scale.
    Rate(rate::Args),
    /// Serve a page to solve, explain, rate, generate, count and compare in a browser, with
    /// a JSON API beside it.
    #[cfg(feature = "serve")]
    Serve(serve::Args),
}

/// How a subcommand ended when nothing went wrong outright.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything was fine.
    Success,
    /// The work was done, but some input was bad (reported as it was met).
    BadInput,
    /// A usage error that clap could not see alone (flags that contradict the input or each
    /// other), with its message: [`run`] reports it with the usage of the subcommand that
    /// refused, so that no refusal can show another's.
    Usage(String),
}

/// The status of a usage error, exit code 2: [`run`] reports `message` as clap reports its
/// own, with the subcommand's usage.
pub fn usage(message: impl std::fmt::Display) -> Status {
    Status::Usage(message.to_string())
}

/// Reports a usage error of subcommand `name` as clap reports its own, with the subcommand's
/// usage.
fn report_usage(name: &str, message: impl std::fmt::Display) {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let _ = match command.find_subcommand_mut(name) {
        Some(sub) => sub
            .clone()
            .bin_name(format!("quadrille {name}"))
            .error(clap::error::ErrorKind::ValueValidation, message)
            .print(),
        None => command
            .error(clap::error::ErrorKind::ValueValidation, message)
            .print(),
    };
}

impl Command {
    /// The subcommand's name, as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Solve(_) => "solve",
            Command::Count(_) => "count",
            Command::Xc(_) => "xc",
            Command::Compare(_) => "compare",
            Command::Generate(_) => "generate",
            Command::Merge(_) => "merge",
            Command::Explain(_) => "explain",
            Command::Rate(_) => "rate",
            #[cfg(feature = "serve")]
            Command::Serve(_) => "serve",
        }
    }
}

/// Parses the arguments, runs the subcommand and turns its result into an exit code.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let err = with_short_name(err);
            let _ = err.print();
            return if err.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let name = cli.command.name();
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Count(args) => count::run(args),
        Command::Xc(args) => xc::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Rate(args) => rate::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args),
    };
    match result {
        Ok(Status::Success) => ExitCode::SUCCESS,
        Ok(Status::BadInput) => ExitCode::from(1),
        Ok(Status::Usage(message)) => {
            report_usage(name, message);
            ExitCode::from(2)
        }
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) if matches!(err.kind(), quadrille::ErrorKind::InvalidRequest(_)) => {
            let quadrille::ErrorKind::InvalidRequest(invalid) = err.kind() else {
                unreachable!("matched just above")
            };
            report_usage(
                name,
                format!("{}: {}", flags::flag_of(invalid.field), invalid.message),
            );
            ExitCode::from(2)
        }
        Err(err) => {
            eprintln!("quadrille: {err}{}", flag_hint(&err));
            ExitCode::from(1)
        }
    }
}

/// clap's errors name an option by its long name alone (`'--count <N>'` when `-n x` was
/// typed, a flag the user may never have seen): they name the short one too, as the help
/// lists them (`'-n, --count <N>'`).
fn with_short_name(mut err: clap::Error) -> clap::Error {
    use clap::CommandFactory;
    use clap::error::{ContextKind, ContextValue};
    let Some(ContextValue::String(named)) = err.get(ContextKind::InvalidArg) else {
        return err;
    };
    // The subcommand is the first argument: the tool itself takes only --help and --version.
    let typed = std::env::args_os().nth(1);
    // Built, as the parser built it: an argument shows itself only once its command is.
    let mut command = Cli::command();
    command.build();
    let Some(sub) = typed
        .as_ref()
        .and_then(|name| name.to_str())
        .and_then(|name| command.find_subcommand(name))
    else {
        return err;
    };
    let short = sub
        .get_arguments()
        .find(|arg| arg.get_long().is_some() && arg.to_string() == *named)
        .and_then(clap::Arg::get_short);
    if let Some(short) = short {
        let both = ContextValue::String(format!("-{short}, {named}"));
        err.insert(ContextKind::InvalidArg, both);
    }
    err
}

/// What the tool adds after a library error to name the flag that fixes it, or `""`. The
/// library's messages name no flags (its callers may have none); the tool knows its own.
pub fn flag_hint(err: &quadrille::Error) -> String {
    use quadrille::error::Remedy;
    match err.remedy() {
        Some(Remedy::TransposedBoxes { rows, cols }) => {
            format!("; --box {rows}x{cols} reads it with {rows}x{cols} boxes")
        }
        Some(Remedy::GridLayout) => {
            "; a grid written one row per line (.sdk) is read with --input grid".to_string()
        }
        Some(Remedy::GiveShape) => "; give it with --box RxC".to_string(),
        None => String::new(),
    }
}

fn is_broken_pipe(err: &quadrille::Error) -> bool {
    matches!(err.kind(), quadrille::ErrorKind::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
}

/// An input: a named file, or standard input for `-` or no name.
pub struct Input {
    /// The name to use in messages.
    pub name: String,
    /// The text.
    pub reader: Box<dyn BufRead + Send>,
    /// The size in bytes, when it is a file.
    pub size: Option<u64>,
}

/// Opens the named inputs, or standard input when there are none.
pub fn open_inputs(paths: &[String]) -> quadrille::Result<Vec<Input>> {
    if paths.is_empty() {
        return Ok(vec![stdin_input()]);
    }
    paths.iter().map(|p| open_input(Some(p))).collect()
}

/// Opens one input: a file, or standard input for `-` or `None`.
pub fn open_input(path: Option<&str>) -> quadrille::Result<Input> {
    match path {
        None | Some("-") => Ok(stdin_input()),
        Some(path) => {
            let named = |kind: io::ErrorKind, message: &dyn std::fmt::Display| {
                quadrille::Error::new(quadrille::ErrorKind::Io(io::Error::new(
                    kind,
                    format!("{path}: {message}"),
                )))
            };
            let file = File::open(path).map_err(|e| named(e.kind(), &e))?;
            let metadata = file.metadata().ok();
            // A directory opens on Unix, and only fails when read, as "line 1" of nothing.
            if metadata.as_ref().is_some_and(|m| m.is_dir()) {
                return Err(named(io::ErrorKind::IsADirectory, &"is a directory"));
            }
            let size = metadata.map(|m| m.len());
            Ok(Input {
                name: path.to_string(),
                reader: Box::new(BufReader::with_capacity(1 << 16, file)),
                size,
            })
        }
    }
}

fn stdin_input() -> Input {
    Input {
        name: "<stdin>".to_string(),
        reader: Box::new(BufReader::new(io::stdin())),
        size: None,
    }
}

/// Standard output, buffered (flushed when dropped or asked). Not locked, so that it can be
/// written from inside a thread pool.
pub fn stdout() -> io::BufWriter<io::Stdout> {
    io::BufWriter::with_capacity(1 << 16, io::stdout())
}

/// Whether standard output is a terminal, where the user already sees what it says.
pub fn stdout_is_terminal() -> bool {
    io::stdout().is_terminal()
}

/// Whether progress bars make sense: standard error is a terminal.
pub fn stderr_is_terminal() -> bool {
    io::stderr().is_terminal()
}
