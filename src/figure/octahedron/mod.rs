//! Figures of the Sierpinski octahedron: sections, the 3D view, sweeps.

pub mod section;
pub mod sweep;
pub mod view;
