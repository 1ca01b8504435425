//! Full grids drawn exactly uniformly among all the grids of a shape, from the decision diagram
//! of every solution of the shape's empty grid (see [`Dlx::zdd`]): the pattern grids of
//! [`random_grid`](super::random_grid) are quick at every size but reach only the grids that
//! the pattern's symmetries reach; these reach every grid with the same probability, where
//! the diagram fits in memory (4x4 Sudoku and small Latin squares).

use rand::SeedableRng;
use rand_pcg::Pcg64;

use crate::error::Result;
use crate::exact_cover::{Dlx, Memo, Zdd};
use crate::sudoku::{Grid, Shape, encode};

/// The grids of one shape, drawn uniformly.
///
/// ```
/// use quadrille::generate::UniformGrids;
/// use quadrille::sudoku::{Grid, Shape, check::check_solution};
///
/// let shape = Shape::new(2, 2)?;
/// let grids = UniformGrids::new(shape, 64 << 20)?;
/// assert_eq!(grids.count(), 288);
/// let grid = grids.grid(7);
/// assert!(check_solution(&Grid::empty(shape), &grid).is_ok());
/// assert_eq!(grid, grids.grid(7));
/// // 9x9 has 6,670,903,752,021,072,936,960 grids: no diagram of them fits in 1 MiB.
/// assert!(UniformGrids::new(Shape::CLASSIC, 1 << 20).is_err());
/// # Ok::<(), quadrille::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct UniformGrids {
    shape: Shape,
    diagram: Zdd,
    /// Every node's count in `diagram`, computed once: a draw walks one path, the counts walk
    /// every node.
    counts: Vec<u128>,
}

impl UniformGrids {
    /// The diagram of every grid of `shape` and its counts, within `memory` bytes while it is
    /// built and after (see [`Dlx::zdd`]).
    ///
    /// # Errors
    /// [`ErrorKind::DiagramTooLarge`](crate::error::ErrorKind::DiagramTooLarge) as soon as it
    /// outgrows the memory.
    pub fn new(shape: Shape, memory: usize) -> Result<UniformGrids> {
        let memo = Memo {
            memory,
            ..Memo::default()
        };
        let diagram = Dlx::new(&encode::problem(shape.board())).zdd(&memo)?;
        let counts = diagram
            .counts()
            .expect("a grid count fits in 128 bits where its diagram fits in memory");
        Ok(UniformGrids {
            shape,
            diagram,
            counts,
        })
    }

    /// The number of grids of the shape.
    pub fn count(&self) -> u128 {
        self.counts[self.diagram.root()]
    }

    /// One grid, each with the same probability, reproducible from the seed.
    pub fn grid(&self, seed: u64) -> Grid {
        self.draw(&mut Pcg64::seed_from_u64(seed))
    }

    /// A puzzle: a uniformly drawn grid with all but `givens` cells, chosen at random,
    /// emptied, as [`random_puzzle`](super::random_puzzle) empties a pattern grid.
    pub fn puzzle(&self, seed: u64, givens: usize) -> Grid {
        let mut rng = Pcg64::seed_from_u64(seed);
        let grid = self.draw(&mut rng);
        super::keep_random_givens(grid, givens, &mut rng)
    }

    fn draw(&self, rng: &mut Pcg64) -> Grid {
        let mut options = Vec::new();
        self.diagram.sample_with(&self.counts, rng, &mut options);
        let n = self.shape.size();
        let mut grid = Grid::empty(self.shape);
        for &option in &options {
            let (cell, digit) = encode::placement(n, option);
            grid.place(cell, Some(digit));
        }
        grid
    }
}
