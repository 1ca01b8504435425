//! `quadrille generate`: puzzles from a seed, one per line.

use std::io::Write;
use std::ops::RangeInclusive;

use quadrille::generate::{random_contradictory, random_puzzle, unique_puzzle};
use quadrille::runner::{self, WithinChunk};
use quadrille::sudoku::Shape;

use super::flags;
use super::{Status, stdout, usage};

/// Puzzles made together: enough to keep every thread busy.
const CHUNK: usize = 256;

/// Arguments of `quadrille generate`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  quadrille generate --kind contradictory --givens 30 -n 100 > contradictory.txt
  quadrille generate --box 4x4 -n 10 | quadrille solve --limit 2
  quadrille generate --box 4x4 --kind random --blanks 175 -n 200 --seed 1 > peak16.txt")]
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
    /// other kinds keep exactly this many (default: a third of the cells). A K the kind cannot
    /// give is refused with the range it can: 0 to n*n for unique and random puzzles, n to
    /// n*n-3 for contradictory ones (n*n-2 when a box is one row or one column).
    #[arg(long, value_name = "K")]
    givens: Option<usize>,
    /// The same as --givens n*n-K: leave K cells empty (for the hardness peaks of random
    /// puzzles, which are known by their holes, e.g. 175 of 256 on 16x16).
    #[arg(long, value_name = "K", conflicts_with = "givens")]
    blanks: Option<usize>,
    /// What to make.
    #[arg(long, value_enum, default_value_t = Kind::Unique)]
    kind: Kind,
    /// Threads (0: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0, value_parser = flags::threads)]
    threads: usize,
    /// Nothing on standard error but errors (generate prints nothing else there anyway).
    #[arg(long, short)]
    quiet: bool,
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

/// The givens a kind of puzzle can have on `shape`, as `random_contradictory` and the other
/// generators document them; `None` when the kind cannot be made at all on this shape (that
/// error is the library's to give).
fn givens_range(kind: Kind, shape: Shape) -> Option<RangeInclusive<usize>> {
    let (n, cells) = (shape.size(), shape.cell_count());
    match kind {
        Kind::Unique | Kind::Random => Some(0..=cells),
        Kind::Contradictory if n < 2 => None,
        // X, the cell of digit d in Y's row and the one in Y's box are emptied; when a box is
        // one row or one column, the box's is one of the other two.
        Kind::Contradictory if shape.box_rows() == 1 || shape.box_cols() == 1 => {
            Some(n..=cells - 2)
        }
        Kind::Contradictory => Some(n..=cells - 3),
    }
}

/// The givens asked for by `--givens`, or by `--blanks` as their complement; a usage error,
/// in the words of the flag used, when the kind cannot give them.
fn requested_givens(args: &Args) -> Result<Option<usize>, Status> {
    let shape = args.shape;
    let (n, cells) = (shape.size(), shape.cell_count());
    let kind = format!("{:?}", args.kind).to_lowercase();
    let range = givens_range(args.kind, shape);
    match (args.givens, args.blanks) {
        (Some(givens), _) => match range {
            Some(range) if !range.contains(&givens) => Err(usage(format!(
                "invalid value '{givens}' for '--givens <K>': a {kind} {n}x{n} puzzle has from {} to {} givens",
                range.start(),
                range.end()
            ))),
            _ => Ok(Some(givens)),
        },
        (None, Some(blanks)) => {
            let range = range.unwrap_or(0..=cells);
            match cells.checked_sub(blanks) {
                Some(givens) if range.contains(&givens) => Ok(Some(givens)),
                _ => Err(usage(format!(
                    "invalid value '{blanks}' for '--blanks <K>': a {kind} {n}x{n} puzzle has from {} to {} blanks",
                    cells - range.end(),
                    cells - range.start()
                ))),
            }
        }
        (None, None) => Ok(None),
    }
}

/// Generates the puzzles in parallel and prints them in seed order.
pub fn run(args: Args) -> quadrille::Result<Status> {
    let shape = args.shape;
    let cells = shape.cell_count();
    let givens = match requested_givens(&args) {
        Ok(givens) => givens,
        Err(status) => return Ok(status),
    };
    let make = |i: usize| {
        let seed = args.seed.wrapping_add(i as u64);
        match args.kind {
            Kind::Unique => Ok(unique_puzzle(shape, seed, givens.unwrap_or(0))),
            Kind::Random => Ok(random_puzzle(shape, seed, givens.unwrap_or(cells / 3))),
            Kind::Contradictory => random_contradictory(shape, seed, givens.unwrap_or(cells / 3)),
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
