//! nimscape: exact, publication-ready figures of chocolate-bar games.
//!
//! The code is one pipeline in three stages: a **model** computes exact
//! mathematical objects (P-position sets, Grundy values, automaton frames,
//! octahedron sections) and knows nothing of pixels; a **scene** lays them
//! out as coloured cells, shapes and text; an **encoder** writes a scene as
//! PNG, SVG, GIF or data. Nothing in the library prints or exits.
//!
//! Front ends reach figures through one door, [`request`]: a parsed command or
//! `name = value` pairs become a [`request::Planned`] figure that checks, lists
//! and writes its formats. The figure layer, scenes and encoders are private (a
//! front end that names them does not compile); the model's types are the
//! `nimscape_model` crate's.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod library;

pub mod recipe;
pub use library::{prove, request};
#[cfg(feature = "serve")]
pub mod serve;
pub mod verify;

// The model is its own crate (`crates/model`): front ends that need its types
// name `nimscape_model` themselves. Inside the library its modules keep their
// familiar paths (`crate::games`, ...).
use nimscape_model::BitGrid;
use nimscape_model::{automaton, error, exact, games, octahedron, pattern, survey};
pub use nimscape_model::{Control, Error, Result};

// The `internals` door of this package's tests and benchmarks (see `library`).
#[cfg(feature = "internals")]
#[doc(hidden)]
pub use library::{encode, figure, scene};
