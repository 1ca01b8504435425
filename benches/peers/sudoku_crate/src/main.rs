//! Reads 81-character puzzles, one per line (`#` lines skipped), counts each one's solutions
//! up to 2 and prints the first with the count, as `quadrille solve --limit 2` does.
use std::io::{BufRead, BufWriter, Write};

use sudoku::Sudoku;

fn main() {
    let path = std::env::args().nth(1).expect("usage: sudoku-crate-peer FILE");
    let input = std::io::BufReader::new(std::fs::File::open(path).expect("readable file"));
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in input.lines() {
        let line = line.expect("text");
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let Ok(puzzle) = Sudoku::from_str_line(line.trim()) else {
            writeln!(out, "error").unwrap();
            continue;
        };
        // One search finds the first two solutions, as quadrille's does.
        let mut found = [[0u8; 81]; 2];
        match puzzle.solutions_up_to_buffer(&mut found, 2) {
            0 => writeln!(out, "unsolvable").unwrap(),
            count => {
                let first = Sudoku::from_bytes(found[0]).expect("a solution is a grid");
                writeln!(out, "{} {count}", first.to_str_line()).unwrap()
            }
        }
    }
}
