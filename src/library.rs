//! The figure library: the request layer and everything it drives.
//!
//! `figure`, `scene` and `encode` are private to this module, so only the
//! request layer, recipes and proofs (its siblings) reach them. Everything
//! outside it (the server's routes, `verify`, the binary, the Python module)
//! sees what `request`, `recipe` and `prove` make public, and a front end that
//! names `figure`, `scene` or `encode` does not compile. The files stay where
//! they were (`src/figure/`, ...): only the module tree nests them.
//!
//! The `internals` feature opens the three for this package's own tests and
//! benchmarks (`tests/`, `benches/`), never for a front end.

#[path = "prove/mod.rs"]
pub mod prove;
#[path = "recipe/mod.rs"]
pub mod recipe;
#[path = "request/mod.rs"]
pub mod request;

#[cfg(feature = "internals")]
#[path = "encode/mod.rs"]
pub mod encode;
#[cfg(not(feature = "internals"))]
#[path = "encode/mod.rs"]
mod encode;
#[cfg(feature = "internals")]
#[path = "figure/mod.rs"]
pub mod figure;
#[cfg(not(feature = "internals"))]
#[path = "figure/mod.rs"]
mod figure;
#[cfg(feature = "internals")]
#[path = "scene/mod.rs"]
pub mod scene;
#[cfg(not(feature = "internals"))]
#[path = "scene/mod.rs"]
mod scene;
