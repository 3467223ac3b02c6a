//! The camera of the 3D view: two angles, and the line of sight they give
//! the model's geometry.

use crate::octahedron::ViewAxes;

/// An orthographic camera on the unit sphere around the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Degrees around the z axis, from +x towards +y.
    pub azimuth_deg: f64,
    /// Degrees above the xy plane (negative: from below).
    pub elevation_deg: f64,
}

/// Low and off the diagonals: the outline is a bipyramid, pointed at the two
/// apexes, so even S_5 (whose faces, riddled with holes at every scale, all
/// shade alike) reads as an octahedron at first sight. The old default
/// (30°, 35°) looked within 12° of a face's normal, where an octahedron's
/// outline is a near-regular hexagon: a cube's.
impl Default for Camera {
    fn default() -> Self {
        Camera {
            azimuth_deg: 40.0,
            elevation_deg: 15.0,
        }
    }
}

impl Camera {
    /// The angle in degrees between the line of sight and the nearest face
    /// normal of the octahedron |x| + |y| + |z| <= 1: near 0 the outline is a
    /// regular hexagon, a cube's.
    pub fn angle_from_face_normal_deg(&self) -> f64 {
        let t = self.axes().toward;
        let nearest = (t[0].abs() + t[1].abs() + t[2].abs()) / 3f64.sqrt();
        nearest.clamp(-1.0, 1.0).acos().to_degrees()
    }

    /// The camera's orthonormal frame in world coordinates: the screen's x and
    /// y axes and the direction towards the camera.
    pub fn axes(&self) -> ViewAxes {
        let (az, el) = (
            self.azimuth_deg.to_radians(),
            self.elevation_deg.to_radians(),
        );
        ViewAxes {
            right: [-az.sin(), az.cos(), 0.0],
            up: [-el.sin() * az.cos(), -el.sin() * az.sin(), el.cos()],
            toward: [el.cos() * az.cos(), el.cos() * az.sin(), el.sin()],
        }
    }
}
