//! The law of leftovers: groups that a board's groups imply without naming them.
//!
//! Take k lines (rows, or columns) and k - 1 other groups inside them, no two sharing a cell.
//! The lines hold every digit k times and the groups once each, so the n cells of the lines
//! outside the groups hold every digit once: they are a group too. On a windoku these are the
//! hidden regions. The rows of a band of windows on 9x9 (rows 2-4) hold two windows, and their
//! three cells in columns 1, 5 and 9 are a group; the columns give the same below and beside,
//! and then the rows 1, 5 and 9 meet those in three groups and leave a fifth, the nine cells
//! where they cross columns 1, 5 and 9. On 25x25, 16 windows imply 9 such regions.
//!
//! A search that sees them decides what it could not: with them the CSP fills the empty
//! 25x25 windoku in about a thousand nodes and 0.02 s, and without them not in 60 s (its
//! early choices break a hidden region that only the last rows find out). The board's rules
//! stay as given; [`with_leftovers`] is a board for searching.

use super::{Board, Cell, Group, MAX_GROUPS};

/// The kind of a group found by the law of leftovers.
const KIND: &str = "leftover";

/// `board` with the groups its groups imply added after its own (`leftover 1`, ...), found
/// again from each new one until none is new, as many as fit in [`MAX_GROUPS`]. The same
/// board (a clone) when there are none: on boards without rows and columns, and on classic
/// Sudoku, whose box bands hold as many boxes as rows.
pub(crate) fn with_leftovers(board: &Board) -> Board {
    let n = board.size();
    let mut groups = board.groups().to_vec();
    let mut known: Vec<Vec<Cell>> = groups.iter().map(sorted_cells).collect();
    let mut found = 0;
    'search: loop {
        let before = groups.len();
        for line_kind in ["row", "column"] {
            let line_of = |cell: Cell| {
                let (row, col) = cell.row_col(n);
                if line_kind == "row" { row } else { col }
            };
            if !groups.iter().any(|g| g.kind() == line_kind) {
                continue;
            }
            // The sets of lines to try: those that some group other than a line meets.
            let mut line_sets: Vec<Vec<usize>> = (groups.iter())
                .filter(|g| g.kind() != "row" && g.kind() != "column")
                .map(|g| {
                    let mut lines: Vec<usize> = g.cells().iter().map(|&c| line_of(c)).collect();
                    lines.sort_unstable();
                    lines.dedup();
                    lines
                })
                .filter(|lines| lines.len() > 1 && lines.len() < n)
                .collect();
            line_sets.sort_unstable();
            line_sets.dedup();
            for lines in line_sets {
                let Some(cells) = leftover(&groups, n, &lines, line_of) else {
                    continue;
                };
                if known.contains(&cells) {
                    continue;
                }
                if groups.len() == MAX_GROUPS {
                    break 'search;
                }
                found += 1;
                let group = Group::new(KIND, found, cells.iter().copied())
                    .expect("a leftover's cells are distinct");
                known.push(cells);
                groups.push(group);
            }
        }
        if groups.len() == before {
            break;
        }
    }
    if found == 0 {
        return board.clone();
    }
    Board::new(n, groups)
        .and_then(|searched| searched.with_cages(board.cages().to_vec()))
        .expect("leftovers are groups of n cells within MAX_GROUPS, beside the board's cages")
}

/// The cells of `lines` outside the other groups inside them, sorted, when those groups are
/// one fewer than the lines and share no cell: then the leftover is a group.
fn leftover(
    groups: &[Group],
    n: usize,
    lines: &[usize],
    line_of: impl Fn(Cell) -> usize,
) -> Option<Vec<Cell>> {
    let mut in_lines = vec![false; n];
    for &line in lines {
        in_lines[line] = true;
    }
    let mut covered = vec![false; n * n];
    let mut inside = 0;
    for group in groups {
        if group.kind() == "row" || group.kind() == "column" {
            continue;
        }
        if !group.cells().iter().all(|&c| in_lines[line_of(c)]) {
            continue;
        }
        if group.cells().iter().any(|c| covered[c.index()]) {
            // Two groups overlap: the count of digits says nothing.
            return None;
        }
        for cell in group.cells() {
            covered[cell.index()] = true;
        }
        inside += 1;
    }
    if inside + 1 != lines.len() {
        return None;
    }
    Some(
        (0..n * n)
            .map(Cell::new)
            .filter(|&c| in_lines[line_of(c)] && !covered[c.index()])
            .collect(),
    )
}

fn sorted_cells(group: &Group) -> Vec<Cell> {
    let mut cells = group.cells().to_vec();
    cells.sort_unstable();
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::Shape;
    use crate::sudoku::variant::windoku_board;

    #[test]
    fn windoku_has_its_hidden_regions() {
        for (side, hidden) in [(2, 3), (3, 5), (4, 7), (5, 9)] {
            let board = windoku_board(Shape::new(side, side).unwrap()).unwrap();
            let searched = with_leftovers(&board);
            assert_eq!(
                searched.groups().len() - board.groups().len(),
                hidden,
                "{side}x{side}"
            );
            // One of them is where the lines between the windows cross: on 9x9 r1c1, r1c5, ...
            if side == 3 {
                let gaps = [0, 4, 8];
                let crossings: Vec<Cell> = (gaps.iter())
                    .flat_map(|&r| gaps.map(|c| Cell::at(r, c, 9)))
                    .collect();
                let added = &searched.groups()[board.groups().len()..];
                assert!(added.iter().any(|g| g.cells() == crossings));
            }
        }
    }

    /// Every group found holds every digit in a solution that Dancing Links, which reads
    /// only the board's own groups, finds: on windokus and on a jigsaw whose regions cross
    /// the bands (janko108's map).
    #[test]
    fn leftovers_hold_in_solutions_found_without_them() {
        use crate::budget::Budget;
        use crate::engine::{Engine, Solve, Solver};
        use crate::sudoku::Grid;
        use crate::sudoku::variant::jigsaw_board;

        let map =
            "999998888555998888555998333555111333222111333222111444222766444777766444777766666";
        let regions: Vec<usize> = map.bytes().map(|b| usize::from(b - b'1')).collect();
        let mut boards = vec![jigsaw_board(9, &regions).unwrap()];
        boards.extend((2..=4).map(|side| windoku_board(Shape::new(side, side).unwrap()).unwrap()));
        for board in boards {
            let n = board.size();
            let searched = with_leftovers(&board);
            let side = (1..=n).find(|s| s * s == n).unwrap();
            let empty = Grid::empty(Shape::new(side, side).unwrap());
            let outcome = Solver::new(Engine::Dlx, &board).unwrap().count(
                &empty,
                Some(1),
                &Budget::unlimited(),
            );
            let solution = outcome.solution.expect("a grid exists");
            for group in &searched.groups()[board.groups().len()..] {
                let mut digits: Vec<u8> = group
                    .cells()
                    .iter()
                    .map(|&c| solution.cells()[c.index()])
                    .collect();
                digits.sort_unstable();
                assert_eq!(
                    digits,
                    (1..=n as u8).collect::<Vec<_>>(),
                    "{group} on side {n}"
                );
            }
        }
    }

    #[test]
    fn classic_boards_imply_nothing() {
        for (r, c) in [(2, 2), (3, 3), (2, 3), (4, 4)] {
            let board = Shape::new(r, c).unwrap().board().clone();
            assert_eq!(with_leftovers(&board).groups(), board.groups());
        }
    }
}
