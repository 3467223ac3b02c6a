//! The figure layer: one module per figure family.
//!
//! A figure module is the only code that knows both the mathematics (the
//! model crate) and the looks (scenes and encoders). It turns validated
//! parameters into a model, a scene and data, once, for every output format.
//! The CLI, recipes and the HTTP server are front ends over this layer.

pub mod automaton;
pub mod grundy;
pub mod octahedron;
pub mod square;
