//! Knuth's dlx text format.
