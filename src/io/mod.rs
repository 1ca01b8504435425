//! Reading and writing problem files.

pub mod dlx;
