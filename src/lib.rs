//! nimscape: exact, publication-ready figures of chocolate-bar games.
//!
//! The code is one pipeline in three stages: a **model** computes exact
//! mathematical objects (P-position sets, Grundy values, automaton frames,
//! octahedron sections) and knows nothing of pixels; a **scene** lays them
//! out as coloured cells, shapes and text; an **encoder** writes a scene as
//! PNG, SVG, GIF or data. Nothing in the library prints or exits.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The figure library's insides: front ends (the binary, the Python module, the
// server's routes) reach them only through `request`, so a front end that names
// `figure`, `scene` or `encode` does not compile. The `internals` feature opens
// them for this package's own tests and benchmarks, never for a front end.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod encode;
#[cfg(not(feature = "internals"))]
mod encode;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod figure;
#[cfg(not(feature = "internals"))]
mod figure;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod scene;
#[cfg(not(feature = "internals"))]
mod scene;

pub mod prove;
pub mod recipe;
pub mod request;
#[cfg(feature = "serve")]
pub mod serve;
pub mod verify;

// The model is its own crate (`crates/model`): front ends that need its types
// name `nimscape_model` themselves. Inside the library its modules keep their
// familiar paths (`crate::games`, ...).
use nimscape_model::BitGrid;
use nimscape_model::{automaton, error, exact, games, octahedron, pattern, survey};
pub use nimscape_model::{Control, Error, Result};
use scene::font;
