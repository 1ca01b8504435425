//! `quadrille solve`: one answer per puzzle line, in input order.

use super::Status;
use super::flags;
use super::puzzles::{self, Mode, PuzzleArgs};

/// Arguments of `quadrille solve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  quadrille solve fixtures/sudoku/9x9_sample.txt --limit 2 --stats
  printf '1...........4..2\\n' | quadrille solve
  quadrille solve --box 2x3 --json fixtures/sudoku/6x6.txt")]
pub struct Args {
    #[command(flatten)]
    common: PuzzleArgs,
    /// Count solutions up to N and print the count after the solution (2 tells unique from
    /// multiple).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = flags::positive)]
    limit: u64,
}

/// Solves every puzzle of the inputs.
pub fn run(args: Args) -> quadrille::Result<Status> {
    puzzles::run(&args.common, Mode::Solve, Some(args.limit))
}
