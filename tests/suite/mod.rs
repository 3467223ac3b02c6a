mod automaton_cli;
mod brute;
mod count_cli;
mod golden;
mod grundy_cli;
mod octahedron_cli;
mod square_cli;
mod square_theorems;
pub mod support;
