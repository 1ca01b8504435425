//! Random complete grids and puzzles from a seed.
