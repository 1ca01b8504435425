//! `quadrille count`: the number of solutions of each puzzle.

use super::Status;
use super::flags;
use super::puzzles::{self, Mode, PuzzleArgs};

/// Arguments of `quadrille count`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  printf '................\\n' | quadrille count
  quadrille count --limit 3 --json fixtures/sudoku/9x9.txt
  quadrille generate --box 2x3 --kind random --givens 0 -n 1 | quadrille count -j 2")]
pub struct Args {
    #[command(flatten)]
    common: PuzzleArgs,
    /// Stop counting a puzzle at N solutions (printed as `N+`).
    #[arg(long, value_name = "N", value_parser = flags::positive)]
    limit: Option<u64>,
}

/// Counts the solutions of every puzzle of the inputs; a long count uses every thread.
pub fn run(args: Args) -> quadrille::Result<Status> {
    puzzles::run(&args.common, Mode::Count, args.limit)
}
