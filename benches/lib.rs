//! The benchmarks of nimscape, one criterion target per family: `cargo bench`
//! (or `cargo bench --bench square`) at the top of the repository runs them. They
//! are a package of their own so that `cargo test` never compiles criterion.
