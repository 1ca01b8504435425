//! `quadrille generate`: puzzles from a seed, one per line.

use std::io::Write;

use quadrille::generate::{random_contradictory, random_puzzle, unique_puzzle};
use quadrille::runner::{self, WithinChunk};
use quadrille::sudoku::Shape;

use super::flags;
use super::{Status, stdout};

/// Puzzles made together: enough to keep every thread busy.
const CHUNK: usize = 256;

/// Arguments of `quadrille generate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The box shape, RxC.
    #[arg(long = "box", value_name = "RxC", default_value = "3x3")]
    shape: Shape,
    /// How many puzzles.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 10)]
    count: usize,
    /// The seed of the first puzzle; puzzle i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Unique puzzles stop blanking at this many givens (0: as few as uniqueness allows);
    /// other kinds keep exactly this many (default: a third of the cells).
    #[arg(long, value_name = "K")]
    givens: Option<usize>,
    /// What to make.
    #[arg(long, value_enum, default_value_t = Kind::Unique)]
    kind: Kind,
    /// Threads (0: all cores).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = flags::threads)]
    threads: usize,
}

/// The kinds of puzzle `generate` makes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Exactly one solution; givens removed while it stays so.
    Unique,
    /// Random givens of a valid grid: one or more solutions.
    Random,
    /// Well formed but without solution.
    Contradictory,
}

/// Generates the puzzles in parallel and prints them in seed order.
pub fn run(args: Args) -> quadrille::Result<Status> {
    let shape = args.shape;
    let cells = shape.cell_count();
    let make = |i: usize| {
        let seed = args.seed.wrapping_add(i as u64);
        match args.kind {
            Kind::Unique => Ok(unique_puzzle(shape, seed, args.givens.unwrap_or(0))),
            Kind::Random => Ok(random_puzzle(shape, seed, args.givens.unwrap_or(cells / 3))),
            Kind::Contradictory => {
                random_contradictory(shape, seed, args.givens.unwrap_or(cells / 3))
            }
        }
    };
    let pool = flags::pool(args.threads)?;
    let mut out = stdout();
    let mut line = String::new();
    // In chunks, so that output starts early and memory stays flat.
    pool.install(|| {
        runner::run_in_order(0..args.count, CHUNK, WithinChunk::Parallel, make, |grid| {
            line.clear();
            grid?.write_line(&mut line);
            writeln!(out, "{line}")?;
            Ok::<(), quadrille::Error>(())
        })
    })?;
    out.flush()?;
    Ok(Status::Success)
}
