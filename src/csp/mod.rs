//! Constraint-propagation search over Sudoku grids.
