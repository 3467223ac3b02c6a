//! The Sierpinski octahedron S_n: exact horizontal sections and a 3D view.
//!
//! S_0 is the octahedron |x| + |y| + |z| <= 1; operation T replaces an
//! octahedron of centre c and L1-radius ρ by the six of radius ρ/2 centred at
//! c ± (ρ/2)·e, and S_n is T applied n times (6^n octahedra). The one idea a
//! reader needs: S_n is never listed. Every computation walks down from the
//! unit octahedron and prunes what the question cannot touch, so a section of
//! S_30 costs what its diamonds cost, and the section at an integer level m
//! turned by 45° is the board pattern P(m, m) (SPEC §2).
//!
//! * [`level`] — exact levels r (integer, half, decimal) as reduced rationals;
//! * [`section`] — the pruned walk, sections as exact diamonds, counts and
//!   areas in O(n), the 45° board correspondence;
//! * [`brute`] — the slow references (all 6^n octahedra) the tests use;
//! * [`view`] — the geometry of a 3D view: the faces of S_n (with the
//!   section plane and its cut) or of operation T seen along a line of sight,
//!   culled, clipped and in draw order, in world coordinates (the camera's
//!   angles, the light and the colours are the figure layer's).

pub mod brute;
pub mod level;
pub mod section;
pub mod view;

pub use level::{GridLevel, Level};
pub use section::{
    aligned_cells, count_diamonds, detail_order, exact_area, Cut, CutNode, Diamond, Diamonds,
    Fraction, Section, Square, SubtreeAreas,
};
pub use view::{
    operation_t_faces, sierpinski_faces, PolygonKind, SectionPlane, ViewAxes, ViewFace, ViewFaces,
};

#[cfg(test)]
mod tests;
