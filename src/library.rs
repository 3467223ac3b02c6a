//! The figure library: the request layer and everything it drives.
//!
//! `figure`, `scene` and `encode` are private to this module, so only the
//! request layer and the prover (their siblings; proofs write their
//! certificates through `encode`'s atomic files) reach them. Everything outside
//! it (recipes, the server's routes, `verify`, the binary, the Python module)
//! sees what `request` and `prove` make public, and a front end that names
//! `figure`, `scene` or `encode` does not compile. The files stay where they
//! were (`src/figure/`, ...): only the module tree nests them.
//!
//! The `internals` feature opens the three for this package's own tests and
//! benchmarks (`tests/`, `benches/`), never for a front end.

#[path = "prove/mod.rs"]
pub mod prove;
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
