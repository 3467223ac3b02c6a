//! Scene-agnostic 3D geometry: S_n (or operation T) as an ordered list of
//! shaded 2D polygons, ready for any rasteriser or SVG writer.
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
//! Conventions: orthographic projection (no perspective: parallel edges stay
//! parallel, and the frame does not depend on the camera distance). The
//! output frame is [-1, 1]², **y up**, x right; the whole drawing's bounding
//! sphere maps into the unit disc, so every camera angle uses the same frame
//! (animations do not jitter). Shading is flat Lambert (faces are planar and
//! the octahedra have only eight face directions, so smooth shading would
//! only blur the facets; it is not offered).
//!
//! The code is split by concern: `camera` projects (orthographic camera and
//! its frame), `solids` builds and shades the convex solids (octahedra,
//! operation T's tetrahedra, the section plane and its cut), and `painter`
//! orders and clips them into the polygons a scene draws.

mod camera;
mod painter;
mod solids;

pub use camera::Camera;
pub use painter::{operation_t_view, sierpinski_view};
pub use solids::face_shades;

use super::level::Level;

/// Which part of the figure a polygon belongs to, so a scene can restyle it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PolygonKind {
    /// A face of an octahedron of S_n (or a child octahedron of operation T).
    Face,
    /// The translucent section plane.
    Plane,
    /// A diamond of the section, drawn on the plane.
    Cut,
    /// A face of a tetrahedron removed by operation T.
    Removed,
}

/// One polygon of the picture, in draw order.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewPolygon {
    /// Vertices in the frame [-1, 1]², y up.
    pub points: Vec<[f64; 2]>,
    /// sRGB fill colour, shading applied.
    pub fill: [u8; 3],
    /// Opacity in [0, 1].
    pub opacity: f32,
    /// What this polygon shows.
    pub kind: PolygonKind,
}

/// The translucent section plane of a view (seed 003, Figure 4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaneOptions {
    /// The level r of the plane z = 1 - r.
    pub level: Level,
    /// The plane's colour.
    pub colour: [u8; 3],
    /// The plane's opacity.
    pub opacity: f32,
    /// The colour of the section's diamonds drawn on the plane.
    pub cut: [u8; 3],
    /// Opacity of the solid above the plane (1: opaque, 0: cut away).
    pub above_opacity: f32,
}

impl PlaneOptions {
    /// Pale blue glass.
    pub const DEFAULT_COLOUR: [u8; 3] = [150, 190, 230];
    /// Faint, so the cut on it reads first.
    pub const DEFAULT_OPACITY: f32 = 0.18;
    /// The section's colour: Okabe–Ito blue, as the section figures draw it.
    pub const DEFAULT_CUT: [u8; 3] = [0, 114, 178];
    /// The solid above the plane cut away, so the section is the first thing seen.
    pub const DEFAULT_ABOVE_OPACITY: f32 = 0.0;

    /// The plane at `level` with the default colours (every front end's defaults).
    pub fn at(level: Level) -> PlaneOptions {
        PlaneOptions {
            level,
            colour: Self::DEFAULT_COLOUR,
            opacity: Self::DEFAULT_OPACITY,
            cut: Self::DEFAULT_CUT,
            above_opacity: Self::DEFAULT_ABOVE_OPACITY,
        }
    }
}

/// How to look at S_n.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewOptions {
    /// The camera.
    pub camera: Camera,
    /// Direction towards the light in camera coordinates (x right, y up,
    /// z towards the viewer), so the lighting follows the camera.
    pub light: [f64; 3],
    /// Share of the colour a face gets with no direct light, in [0, 1].
    pub ambient: f64,
    /// The octahedra's base colour.
    pub base: [u8; 3],
    /// An optional section plane with the cut drawn on it.
    pub plane: Option<PlaneOptions>,
    /// Refuse if the polygons would need more than this many bytes.
    pub memory_limit: u64,
}

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            camera: Camera::default(),
            light: [-0.4, 0.6, 0.7],
            ambient: 0.4,
            // Okabe–Ito orange.
            base: [230, 159, 0],
            plane: None,
            memory_limit: crate::error::DEFAULT_MEMORY_LIMIT,
        }
    }
}

/// How to draw operation T on one octahedron (seed 003, Figure 3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OperationOptions {
    /// Camera, light, ambient share and base colour (of the six kept octahedra);
    /// `plane` and `memory_limit` are ignored.
    pub view: ViewOptions,
    /// The colour of the eight removed tetrahedra.
    pub removed: [u8; 3],
    /// Their opacity.
    pub removed_opacity: f32,
    /// How far each removed tetrahedron is pushed out along its face's normal,
    /// in units of the octahedron's radius (0: in place).
    pub explode: f64,
}

impl Default for OperationOptions {
    fn default() -> Self {
        OperationOptions {
            view: ViewOptions::default(),
            removed: [70, 120, 200],
            removed_opacity: 0.55,
            explode: 0.35,
        }
    }
}
