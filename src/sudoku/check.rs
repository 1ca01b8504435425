//! Checking grids against the rules, independently of every solver.
