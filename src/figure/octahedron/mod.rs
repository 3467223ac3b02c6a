//! Figures of the Sierpinski octahedron: sections, the 3D view (its camera
//! and shading over the model's geometry), sweeps.

pub mod camera;
pub mod coverage;
pub mod section;
pub mod shading;
pub mod sweep;
pub mod view;
