//! Writing puzzles in the grid layout, with box separators, for people to read.

use super::MAX_CHAR_SIZE;
use crate::sudoku::{Grid, Shape, digit_char};

/// The comment line `# box: RxC` that makes a reader take `shape`'s boxes, when they are not
/// the ones a puzzle's length implies; `None` when they are (a reader infers them anyway).
///
/// ```
/// use quadrille::io::puzzle::{Layout, PuzzleReader, box_header};
/// use quadrille::sudoku::Shape;
///
/// let tall = Shape::new(4, 2)?;
/// assert_eq!(box_header(tall).as_deref(), Some("# box: 4x2"));
/// assert_eq!(box_header(Shape::new(2, 4)?), None);
/// let text = format!("{}\n{}\n", box_header(tall).unwrap(), ".".repeat(64));
/// let puzzle = PuzzleReader::new(text.as_bytes(), None, Layout::Line).next().unwrap()?;
/// assert_eq!(puzzle.grid.shape(), tall);
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn box_header(shape: Shape) -> Option<String> {
    if Shape::from_cell_count(shape.cell_count()) == Some(shape) {
        return None;
    }
    Some(format!("# box: {}x{}", shape.box_rows(), shape.box_cols()))
}

/// Writes a grid on several lines with box separators, e.g. for 4x4:
///
/// ```text
/// 1 2 | . .
/// . . | 1 2
/// ----+----
/// 2 1 | . .
/// . . | 2 1
/// ```
///
/// Cells are `.` or a digit character; for n > 35, right-aligned numbers. Every line ends with
/// `\n`. [`PuzzleReader`](super::PuzzleReader) with [`Layout::Grid`](super::Layout::Grid) reads
/// it back.
///
/// ```
/// use quadrille::io::puzzle::{parse_line, write_pretty};
///
/// let mut out = String::new();
/// write_pretty(&parse_line("12....1221....21", None)?, &mut out);
/// assert_eq!(out, "1 2 | . .\n. . | 1 2\n----+----\n2 1 | . .\n. . | 2 1\n");
/// # Ok::<(), quadrille::Error>(())
/// ```
pub fn write_pretty(grid: &Grid, out: &mut String) {
    let shape = grid.shape();
    let n = shape.size();
    let width = if n > MAX_CHAR_SIZE {
        n.to_string().len()
    } else {
        1
    };
    let stack_width = shape.box_cols() * (width + 1) - 1;
    for row in 0..n {
        if row > 0 && row % shape.box_rows() == 0 {
            for stack in 0..shape.box_rows() {
                if stack > 0 {
                    out.push_str("-+-");
                }
                out.extend(std::iter::repeat_n('-', stack_width));
            }
            out.push('\n');
        }
        for col in 0..n {
            if col > 0 {
                out.push_str(if col % shape.box_cols() == 0 {
                    " | "
                } else {
                    " "
                });
            }
            let d = grid.get(row, col);
            if width == 1 {
                out.push(digit_char(d));
            } else if d == 0 {
                out.push_str(&format!("{:>width$}", "."));
            } else {
                out.push_str(&format!("{d:>width$}"));
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::random_puzzle;
    use crate::io::puzzle::test_helpers::{CLASSIC, shape};
    use crate::io::puzzle::{Layout, PuzzleReader, parse_line};

    #[test]
    fn grid_layout_round_trips_pretty_grids() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3), (4, 4), (6, 6), (7, 8)] {
            let s = shape(r, c);
            let mut text = String::new();
            let mut grids = Vec::new();
            for seed in 0..3 {
                let grid = random_puzzle(s, seed, s.cell_count() / 2);
                write_pretty(&grid, &mut text);
                text.push('\n');
                grids.push(grid);
            }
            let read_back: Vec<Grid> = PuzzleReader::new(text.as_bytes(), Some(s), Layout::Grid)
                .map(|p| p.unwrap().grid)
                .collect();
            assert_eq!(read_back, grids, "{s}");
        }
    }

    #[test]
    fn pretty_layout_of_a_9x9() {
        let mut out = String::new();
        write_pretty(&parse_line(CLASSIC, None).unwrap(), &mut out);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "4 . . | . 3 . | . . .");
        assert_eq!(lines[3], "------+-------+------");
        assert_eq!(lines[10], "9 . . | . . . | . . .");
    }
}
