//! The geometry of a 3D view of S_n (or operation T): which faces are seen
//! along a line of sight, their exact world coordinates, and the order to
//! draw them in. No camera angles, light or colours: the figure layer turns
//! these faces into shaded pixels.
//!
//! The one idea: every solid drawn is convex and no two overlap, so the
//! picture is the painter's algorithm over whole solids — cull each solid's
//! back faces (its front faces then never overlap each other) and draw solids
//! far to near. For S_n the solids are equal octahedra and are ordered by the
//! depth of their centres; the tests check that order against an independent
//! per-point ray cast. For operation T (octahedra and tetrahedra of different
//! shapes) the order is an exact topological sort of "in front of", decided
//! pair by pair by casting a ray through the overlap of their outlines.
//!
//! Conventions: orthographic projection along [`ViewAxes`] (no perspective:
//! parallel edges stay parallel). Each view also gives the radius of a sphere
//! about the origin that holds the whole drawing at every angle, so a figure
//! that maps it onto one fixed frame does not jitter as the camera turns.
//!
//! The code is split by concern: `axes` is the line of sight, `solids` builds
//! the convex solids (octahedra, operation T's tetrahedra, the section plane
//! and its cut), and `painter` culls, orders and clips them into the faces a
//! figure draws.

mod axes;
mod painter;
mod solids;

pub use axes::ViewAxes;
pub use painter::{operation_t_faces, sierpinski_faces};

use super::level::Level;

/// Which part of the figure a face belongs to, so a figure can colour it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PolygonKind {
    /// A face of an octahedron of S_n (or a child octahedron of operation T).
    Face,
    /// The section plane.
    Plane,
    /// A diamond of the section, drawn on the plane.
    Cut,
    /// A face of a tetrahedron removed by operation T.
    Removed,
}

/// One face of the picture, in draw order (far to near), in world coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewFace {
    /// Vertices in world coordinates: a front face of a solid (clipped at the
    /// section plane when there is one), the plane's square, or a diamond of
    /// the section on it.
    pub points: Vec<[f64; 3]>,
    /// The outward unit normal of the solid's face; +z for the plane and the cut.
    pub normal: [f64; 3],
    /// What this face shows.
    pub kind: PolygonKind,
    /// Whether the face is part of the solid above the section plane.
    pub above_plane: bool,
    /// The solid it belongs to: for S_n the index of its octahedron in the
    /// depth-first walk (+x, -x, +y, -y, +z, -z), for operation T the six kept
    /// octahedra then the eight tetrahedra; `None` for the plane and the cut.
    pub solid: Option<usize>,
}

/// The faces of a view in draw order, and the frame they fit.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewFaces {
    /// The faces, far to near.
    pub faces: Vec<ViewFace>,
    /// The radius of a sphere about the origin holding the drawing at every
    /// angle of view.
    pub radius: f64,
}

/// The section plane of a view of S_n: the plane z = 1 - r with the section's
/// diamonds on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SectionPlane {
    /// The level r of the plane z = 1 - r.
    pub level: Level,
    /// Whether the solid above the plane is drawn at all (its faces come with
    /// `above_plane` set); without it the section caps the solid below.
    pub solid_above: bool,
}
