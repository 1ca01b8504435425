//! Symmetries of the pattern of givens: which cells must be given together.
//!
//! A symmetry here is a map of cell positions (row, column) of the n x n grid onto themselves,
//! so it applies to every box shape r x c alike; it says nothing about the digits. Puzzles
//! made with a symmetry have a pattern of givens that the map leaves unchanged: the cells fall
//! into orbits (a cell and its images), and the generator keeps or removes whole orbits.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind, Result};
use crate::sudoku::{Grid, Shape};

/// The symmetry of a puzzle's givens, by cell position (row, column from 0 to n - 1).
///
/// The names and maps are QQWing's, whose `mirror` is its left-right reflection; `diagonal`
/// is the reflection in the main diagonal, which Sudoku Explainer and HoDoKu offer too.
///
/// ```
/// use quadrille::generate::Symmetry;
/// use quadrille::sudoku::Shape;
///
/// let sym: Symmetry = "rot90".parse()?;
/// // On a 4x4 grid, the cell (0, 1) turns through (1, 3), (3, 2) and (2, 0).
/// assert_eq!(sym.orbit(4, 0, 1), vec![(0, 1), (1, 3), (3, 2), (2, 0)]);
/// assert_eq!(Symmetry::default_for(Shape::CLASSIC), Symmetry::Rot180);
/// assert!("spiral".parse::<Symmetry>().is_err());
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Any pattern: every cell is its own orbit.
    None,
    /// Half-turn rotation about the centre: (r, c) and (n-1-r, n-1-c).
    Rot180,
    /// Quarter-turn rotation: (r, c), (c, n-1-r), (n-1-r, n-1-c), (n-1-c, r).
    Rot90,
    /// Reflection in the main diagonal: (r, c) and (c, r).
    Diagonal,
    /// Left-right reflection: (r, c) and (r, n-1-c).
    Mirror,
}

impl Symmetry {
    /// Every symmetry, in the order of the names above.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Diagonal,
        Symmetry::Mirror,
    ];

    /// The default for `shape`: `rot180` for every Sudoku shape (boxes of at least two rows
    /// and two columns), as QQWing and the published puzzles people know use on 9x9; `none`
    /// for Latin squares (1xN and Nx1 boxes), whose completion problems are studied with
    /// holes at random.
    pub fn default_for(shape: Shape) -> Symmetry {
        if shape.box_rows() > 1 && shape.box_cols() > 1 {
            Symmetry::Rot180
        } else {
            Symmetry::None
        }
    }

    /// The name, as `--symmetry` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Mirror => "mirror",
        }
    }

    /// The image of (row, col) under the map, on a grid of side n.
    pub fn image(self, n: usize, row: usize, col: usize) -> (usize, usize) {
        let last = n - 1;
        match self {
            Symmetry::None => (row, col),
            Symmetry::Rot180 => (last - row, last - col),
            Symmetry::Rot90 => (col, last - row),
            Symmetry::Diagonal => (col, row),
            Symmetry::Mirror => (row, last - col),
        }
    }

    /// The orbit of (row, col): the cell, then its images under the map applied again and
    /// again, each cell once.
    pub fn orbit(self, n: usize, row: usize, col: usize) -> Vec<(usize, usize)> {
        let mut orbit = vec![(row, col)];
        let mut next = self.image(n, row, col);
        while next != (row, col) {
            orbit.push(next);
            next = self.image(n, next.0, next.1);
        }
        orbit
    }

    /// The orbits of the cells of a grid of side n, as row-major cell indices; each cell is
    /// in exactly one, and orbits come in the order of their first cell.
    pub fn orbits(self, n: usize) -> Vec<Vec<usize>> {
        let mut seen = vec![false; n * n];
        let mut orbits = Vec::new();
        for cell in 0..n * n {
            if seen[cell] {
                continue;
            }
            let orbit: Vec<usize> = (self.orbit(n, cell / n, cell % n).into_iter())
                .map(|(r, c)| r * n + c)
                .collect();
            for &c in &orbit {
                seen[c] = true;
            }
            orbits.push(orbit);
        }
        orbits
    }

    /// Whether the pattern of givens of `grid` is unchanged by the map (digits are not
    /// compared: only which cells are given).
    pub fn holds(self, grid: &Grid) -> bool {
        let n = grid.size();
        (0..n * n).all(|cell| {
            let (r, c) = self.image(n, cell / n, cell % n);
            (grid.get(cell / n, cell % n) != 0) == (grid.get(r, c) != 0)
        })
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = Error;

    fn from_str(name: &str) -> Result<Symmetry> {
        (Symmetry::ALL.into_iter())
            .find(|s| s.name() == name.trim())
            .ok_or_else(|| {
                Error::new(ErrorKind::UnknownName {
                    what: "symmetry",
                    name: name.to_string(),
                    hint: " (expected none, rot180, rot90, diagonal or mirror)".to_string(),
                })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_partition_the_cells_and_have_the_expected_sizes() {
        for n in [1, 2, 4, 6, 9, 12, 16, 25] {
            for sym in Symmetry::ALL {
                let orbits = sym.orbits(n);
                let mut all: Vec<usize> = orbits.iter().flatten().copied().collect();
                all.sort_unstable();
                assert_eq!(all, (0..n * n).collect::<Vec<_>>(), "{sym} n={n}");
                for orbit in &orbits {
                    let allowed: &[usize] = match sym {
                        Symmetry::None => &[1],
                        Symmetry::Rot90 => &[1, 4],
                        _ => &[1, 2],
                    };
                    assert!(allowed.contains(&orbit.len()), "{sym} n={n}: {orbit:?}");
                    // Every member maps into the orbit.
                    for &c in orbit {
                        let (r, k) = sym.image(n, c / n, c % n);
                        assert!(orbit.contains(&(r * n + k)));
                    }
                }
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for sym in Symmetry::ALL {
            assert_eq!(sym.name().parse::<Symmetry>().unwrap(), sym);
        }
        let err = "rot45".parse::<Symmetry>().unwrap_err().to_string();
        assert!(err.contains("rot45") && err.contains("rot180"), "{err}");
    }
}
