mod animation_cli;
mod automaton_cli;
mod brute;
#[cfg(feature = "serve")]
mod cdp;
mod count_cli;
mod crash_corpus;
mod doc_examples;
mod family_sheets;
mod golden;
mod grammar_cli;
mod grundy_cli;
mod grundy_game_files;
mod help_cli;
mod hygiene;
mod injection;
mod interrupt;
mod latex_cli;
mod layering;
mod limits_sweep;
mod octahedron_cli;
mod print_cli;
mod progress;
mod prove_fronts;
mod prove_logic;
mod prove_recipe;
mod prove_square;
mod reliability;
mod reliability_memory;
mod reliability_npy;
mod render_cli;
#[cfg(feature = "serve")]
mod serve;
#[cfg(feature = "serve")]
mod serve_browser;
#[cfg(feature = "serve")]
mod serve_fuzz;
#[cfg(feature = "serve")]
mod serve_games;
mod size_matrix;
mod square_cli;
mod square_theorems;
mod square_window;
pub mod support;
mod survey_claims;
mod survey_cli;
mod survey_recipe;
mod tikz_cli;
mod verify_cli;
