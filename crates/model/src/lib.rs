//! The mathematics of nimscape, and nothing else.
//!
//! This crate computes exact objects — P-position sets, Grundy values,
//! automaton frames, octahedron sections, the faces of a 3D view of the
//! octahedron in draw order — and knows nothing of pixels (no camera angles,
//! light or colours), files, flags or servers. It is a crate of its own so
//! that the compiler, not a reviewer, keeps it that way: it cannot name the
//! figure, scene, encoder or CLI layers above it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod automaton;
pub mod claim;
pub mod control;
#[cfg(test)]
mod control_tests;
pub mod error;
pub mod exact;
pub mod games;
pub mod grid;
pub(crate) mod lang;
pub mod octahedron;
pub mod pattern;
pub mod prove;
pub mod survey;

pub use control::Control;
pub use error::{Error, Result};
pub use grid::BitGrid;
