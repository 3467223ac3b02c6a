//! nimscape: exact, publication-ready figures of chocolate-bar games.
//!
//! The code is one pipeline in three stages: a **model** computes exact
//! mathematical objects (P-position sets, Grundy values, automaton frames,
//! octahedron sections) and knows nothing of pixels; a **scene** lays them
//! out as coloured cells, shapes and text; an **encoder** writes a scene as
//! PNG, SVG, GIF or data. Nothing in the library prints or exits.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod automaton;
pub mod encode;
pub mod error;
pub mod font;
pub mod games;
pub mod grid;
pub mod octahedron;
pub mod pattern;
pub mod recipe;
pub mod scene;
pub mod verify;

pub use error::{Error, Result};
pub use grid::BitGrid;
