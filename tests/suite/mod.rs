mod brute;
mod count_cli;
mod golden;
mod octahedron_cli;
mod square_cli;
mod square_theorems;
pub mod support;
