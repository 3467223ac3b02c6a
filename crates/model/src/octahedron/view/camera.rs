//! The orthographic camera and its frame: projection and depth.

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
        let t = self.toward();
        let nearest = (t[0].abs() + t[1].abs() + t[2].abs()) / 3f64.sqrt();
        nearest.clamp(-1.0, 1.0).acos().to_degrees()
    }
}

/// The camera's orthonormal frame in world coordinates.
#[derive(Clone, Copy, Debug)]
pub(super) struct Basis {
    pub(super) right: [f64; 3],
    pub(super) up: [f64; 3],
    pub(super) toward: [f64; 3],
}

pub(super) fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(super) fn normalise(a: [f64; 3]) -> [f64; 3] {
    let len = dot(a, a).sqrt();
    if len > 0.0 {
        [a[0] / len, a[1] / len, a[2] / len]
    } else {
        a
    }
}

impl Basis {
    /// A direction given in camera coordinates (x right, y up, z towards the
    /// viewer) in world coordinates, not normalised.
    pub(super) fn world_direction(&self, l: [f64; 3]) -> [f64; 3] {
        [
            l[0] * self.right[0] + l[1] * self.up[0] + l[2] * self.toward[0],
            l[0] * self.right[1] + l[1] * self.up[1] + l[2] * self.toward[1],
            l[0] * self.right[2] + l[1] * self.up[2] + l[2] * self.toward[2],
        ]
    }
}

impl Camera {
    pub(super) fn basis(&self) -> Basis {
        let (az, el) = (
            self.azimuth_deg.to_radians(),
            self.elevation_deg.to_radians(),
        );
        Basis {
            right: [-az.sin(), az.cos(), 0.0],
            up: [-el.sin() * az.cos(), -el.sin() * az.sin(), el.cos()],
            toward: [el.cos() * az.cos(), el.cos() * az.sin(), el.sin()],
        }
    }

    /// The unit vector from the scene towards the camera.
    pub fn toward(&self) -> [f64; 3] {
        self.basis().toward
    }

    /// A world point projected to the screen (before the frame's scaling), y up.
    pub fn project(&self, p: [f64; 3]) -> [f64; 2] {
        let b = self.basis();
        [dot(p, b.right), dot(p, b.up)]
    }

    /// A world point's depth: larger is nearer the camera.
    pub fn depth(&self, p: [f64; 3]) -> f64 {
        dot(p, self.basis().toward)
    }
}
