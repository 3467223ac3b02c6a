//! Figures of the Sierpinski octahedron: sections, the 3D view, sweeps.

pub mod coverage;
pub mod section;
pub mod sweep;
pub mod view;
