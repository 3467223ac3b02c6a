//! nimscape: exact, publication-ready figures of chocolate-bar games.
//!
//! The code is one pipeline in three stages: a **model** computes exact
//! mathematical objects (P-position sets, Grundy values, automaton frames,
//! octahedron sections) and knows nothing of pixels; a **scene** lays them
//! out as coloured cells, shapes and text; an **encoder** writes a scene as
//! PNG, SVG, GIF or data. Nothing in the library prints or exits.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod encode;
pub mod figure;
/// The embedded fonts (moved under `scene`; this path stays for callers).
pub use scene::font;
pub mod prove;
pub mod recipe;
pub mod request;
pub mod scene;
#[cfg(feature = "serve")]
pub mod serve;
pub mod verify;

// The model is its own crate (`crates/model`), so it cannot import anything
// above it; its modules are re-exported here under their familiar paths.
pub use nimscape_model::{
    automaton, control, error, exact, games, grid, octahedron, pattern, survey,
};
pub use nimscape_model::{BitGrid, Control, Error, Result};
