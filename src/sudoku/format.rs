//! Reading and writing puzzles: one per line, or multi-line grids.
