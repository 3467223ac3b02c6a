//! The 3D view lit and coloured: the model's faces in draw order
//! ([`crate::octahedron::sierpinski_faces`], [`crate::octahedron::operation_t_faces`])
//! seen by a [`Camera`], projected into the frame [-1, 1]², flat shaded and
//! given their sRGB fills and opacities.
//!
//! Conventions: the output frame is [-1, 1]², **y up**, x right; the model's
//! bounding sphere of the whole drawing maps into the unit disc, so every
//! camera angle uses the same frame (animations do not jitter). Shading is
//! flat Lambert (faces are planar and the octahedra have only eight face
//! directions, so smooth shading would only blur the facets; it is not
//! offered), with the light given in camera coordinates so it follows the
//! camera.

use super::camera::Camera;
use crate::octahedron::{
    operation_t_faces, sierpinski_faces, Level, PolygonKind, SectionPlane, ViewAxes, ViewFace,
    ViewFaces,
};
use crate::{Control, Result};

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

/// S_n as shaded, back-face culled polygons in painter's order (far to near),
/// with an optional translucent section plane and its cut: the model's faces
/// ([`sierpinski_faces`]) in the frame, coloured. The solid above the plane
/// is drawn at its `above_opacity`, and not at all at 0.
///
/// Under `control`: as [`sierpinski_faces`].
pub fn sierpinski_view(
    n: u32,
    options: &ViewOptions,
    control: &Control,
) -> Result<Vec<ViewPolygon>> {
    let axes = options.camera.axes();
    let plane = options.plane.map(|plane| SectionPlane {
        level: plane.level,
        solid_above: plane.above_opacity > 0.0,
    });
    let view = sierpinski_faces(n, &axes, plane, options.memory_limit, control)?;
    let light = Light::new(options, axes, &view);
    Ok(view
        .faces
        .iter()
        .map(|face| match (face.kind, &options.plane) {
            (PolygonKind::Plane, Some(plane)) => light.flat(face, plane.colour, plane.opacity),
            (PolygonKind::Cut, Some(plane)) => light.flat(face, plane.cut, 1.0),
            (_, plane) => {
                let opacity = match plane {
                    Some(plane) if face.above_plane => plane.above_opacity,
                    _ => 1.0,
                };
                light.shaded(face, options.base, opacity)
            }
        })
        .collect())
}

/// Operation T on one octahedron (seed 003, Figure 3): the six kept octahedra
/// in the base colour and the eight removed tetrahedra in `removed`,
/// translucent and optionally pushed out, as polygons in painter's order (the
/// model's faces, [`operation_t_faces`], in the frame, coloured).
pub fn operation_t_view(options: &OperationOptions) -> Vec<ViewPolygon> {
    let axes = options.view.camera.axes();
    let view = operation_t_faces(&axes, options.explode);
    let light = Light::new(&options.view, axes, &view);
    view.faces
        .iter()
        .map(|face| match face.kind {
            PolygonKind::Removed => light.shaded(face, options.removed, options.removed_opacity),
            _ => light.shaded(face, options.view.base, 1.0),
        })
        .collect()
}

/// The colours flat shading gives `colour` on the eight face directions of an
/// octahedron, (±1, ±1, ±1)/√3, under `options`' camera, light and ambient
/// share, whether or not the camera sees them: every face of S_n and of
/// operation T's octahedra has one of these colours. A fixed GIF palette
/// starts from them.
pub fn face_shades(options: &ViewOptions, colour: [u8; 3]) -> Vec<[u8; 3]> {
    let (light, ambient) = world_light(options, &options.camera.axes());
    let k = 1.0 / 3f64.sqrt();
    let mut out = Vec::with_capacity(8);
    for sx in [k, -k] {
        for sy in [k, -k] {
            for sz in [k, -k] {
                out.push(shade(colour, [sx, sy, sz], light, ambient));
            }
        }
    }
    out
}

/// The camera's projection into the frame and the light in world coordinates.
struct Light {
    axes: ViewAxes,
    light: [f64; 3],
    ambient: f64,
    /// Frame units per world unit: the view's bounding sphere fills the frame.
    scale: f64,
}

impl Light {
    fn new(options: &ViewOptions, axes: ViewAxes, view: &ViewFaces) -> Light {
        let (light, ambient) = world_light(options, &axes);
        Light {
            axes,
            light,
            ambient,
            scale: 1.0 / view.radius,
        }
    }

    fn screen(&self, p: [f64; 3]) -> [f64; 2] {
        [
            dot(p, self.axes.right) * self.scale,
            dot(p, self.axes.up) * self.scale,
        ]
    }

    /// A solid's face, flat shaded from `colour`.
    fn shaded(&self, face: &ViewFace, colour: [u8; 3], opacity: f32) -> ViewPolygon {
        let fill = shade(colour, face.normal, self.light, self.ambient);
        self.flat(face, fill, opacity)
    }

    /// A face filled with `fill` as it is (the plane and the cut are not lit).
    fn flat(&self, face: &ViewFace, fill: [u8; 3], opacity: f32) -> ViewPolygon {
        ViewPolygon {
            points: face.points.iter().map(|&p| self.screen(p)).collect(),
            fill,
            opacity,
            kind: face.kind,
        }
    }
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn normalise(a: [f64; 3]) -> [f64; 3] {
    let len = dot(a, a).sqrt();
    if len > 0.0 {
        [a[0] / len, a[1] / len, a[2] / len]
    } else {
        a
    }
}

/// Flat Lambert shading: `colour` scaled by the ambient share plus the rest
/// times the cosine between the face's `normal` and the `light` (both unit).
fn shade(colour: [u8; 3], normal: [f64; 3], light: [f64; 3], ambient: f64) -> [u8; 3] {
    let lambert = dot(normal, light).max(0.0);
    let k = ambient + (1.0 - ambient) * lambert;
    colour.map(|c| (f64::from(c) * k).round().clamp(0.0, 255.0) as u8)
}

/// The light of `options` as a unit vector in world coordinates (it is given
/// in camera coordinates: x right, y up, z towards the viewer), and the
/// ambient share clamped to [0, 1].
fn world_light(options: &ViewOptions, axes: &ViewAxes) -> ([f64; 3], f64) {
    let l = options.light;
    let world = [
        l[0] * axes.right[0] + l[1] * axes.up[0] + l[2] * axes.toward[0],
        l[0] * axes.right[1] + l[1] * axes.up[1] + l[2] * axes.toward[1],
        l[0] * axes.right[2] + l[1] * axes.up[2] + l[2] * axes.toward[2],
    ];
    (normalise(world), options.ambient.clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ghost_options() -> ViewOptions {
        ViewOptions {
            camera: Camera {
                azimuth_deg: 200.0,
                elevation_deg: 30.0,
            },
            plane: Some(PlaneOptions {
                above_opacity: 0.3,
                ..PlaneOptions::at(Level::integer(3, 5).unwrap())
            }),
            ..ViewOptions::default()
        }
    }

    #[test]
    fn every_fill_is_a_face_shade_or_a_plane_colour_and_every_point_is_in_frame() {
        let options = ghost_options();
        let plane = options.plane.unwrap();
        let polygons = sierpinski_view(3, &options, &Control::new()).unwrap();
        let shades = face_shades(&options, options.base);
        let (mut below, mut above, mut cuts) = (0, 0, 0);
        let mut seen_plane = false;
        for p in &polygons {
            match p.kind {
                PolygonKind::Face => {
                    assert!(shades.contains(&p.fill), "{:?} is no face shade", p.fill);
                    // Faces drawn after the plane are the ghost above it (seen from above).
                    if seen_plane {
                        assert_eq!(p.opacity, plane.above_opacity);
                        above += 1;
                    } else {
                        assert_eq!(p.opacity, 1.0);
                        below += 1;
                    }
                }
                PolygonKind::Plane => {
                    assert!(!seen_plane);
                    seen_plane = true;
                    assert_eq!((p.fill, p.opacity), (plane.colour, plane.opacity));
                }
                PolygonKind::Cut => {
                    assert_eq!((p.fill, p.opacity), (plane.cut, 1.0));
                    cuts += 1;
                }
                PolygonKind::Removed => panic!("S_n has no removed tetrahedra"),
            }
        }
        assert!(below > 0 && above > 0 && cuts > 0);
        assert!(polygons
            .iter()
            .flat_map(|p| p.points.iter())
            .all(|q| q[0].abs() <= 1.0 && q[1].abs() <= 1.0));
        // With the solid above cut away (opacity 0), the picture ends at the cut.
        let mut cut_away = options;
        cut_away.plane.as_mut().unwrap().above_opacity = 0.0;
        let capped = sierpinski_view(3, &cut_away, &Control::new()).unwrap();
        assert_eq!(capped.len(), polygons.len() - above);
        assert_eq!(capped.last().unwrap().kind, PolygonKind::Cut);

        let operation = OperationOptions::default();
        let polygons = operation_t_view(&operation);
        let kept = face_shades(&operation.view, operation.view.base);
        let removed = face_shades(&operation.view, operation.removed);
        for p in &polygons {
            let (shades, opacity) = match p.kind {
                PolygonKind::Removed => (&removed, operation.removed_opacity),
                _ => (&kept, 1.0),
            };
            assert!(shades.contains(&p.fill) && p.opacity == opacity);
        }
        assert!(polygons.iter().any(|p| p.kind == PolygonKind::Removed));
    }

    #[test]
    fn a_light_from_the_camera_shades_by_the_cosine_to_the_line_of_sight() {
        // Light along the line of sight: a face's brightness is ambient + (1 -
        // ambient)·cos(angle to the camera), computed here from the camera's
        // angles directly, not through the camera's axes.
        let camera = Camera {
            azimuth_deg: 30.0,
            elevation_deg: 20.0,
        };
        let options = ViewOptions {
            camera,
            light: [0.0, 0.0, 2.0],
            ambient: 0.25,
            base: [200, 100, 40],
            ..ViewOptions::default()
        };
        let (az, el) = (30f64.to_radians(), 20f64.to_radians());
        let eye = [el.cos() * az.cos(), el.cos() * az.sin(), el.sin()];
        let k = 1.0 / 3f64.sqrt();
        let mut expected = Vec::new();
        for sx in [k, -k] {
            for sy in [k, -k] {
                for sz in [k, -k] {
                    let cos = (sx * eye[0] + sy * eye[1] + sz * eye[2]).max(0.0);
                    let bright = 0.25 + 0.75 * cos;
                    expected.push(options.base.map(|c| (f64::from(c) * bright).round() as u8));
                }
            }
        }
        let got = face_shades(&options, options.base);
        for (g, e) in got.iter().zip(&expected) {
            for (a, b) in g.iter().zip(e) {
                assert!(a.abs_diff(*b) <= 1, "{got:?} against {expected:?}");
            }
        }
        // Faces turned away from the light keep the ambient share only.
        assert!(got.contains(&[50, 25, 10]));
    }
}
