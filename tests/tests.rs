//! One integration-test binary (link time matters on two cores); the modules
//! live in `tests/suite/`.

mod suite;
