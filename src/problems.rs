//! Classic exact-cover problems built in code: n queens, Langford pairs, pentominoes, Sudoku grids.
