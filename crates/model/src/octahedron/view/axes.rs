//! The line of sight of an orthographic view, and the vector arithmetic the
//! solids and the painter share.

/// An orthographic line of sight: three orthonormal world vectors, the
/// screen's x axis (`right`), its y axis (`up`, so the screen is y up) and the
/// direction from the scene towards the viewer (`toward`). A world point p
/// lands on the screen at (p·right, p·up); a larger p·toward is nearer.
///
/// The model only orders and clips along it; where the axes come from (a
/// camera's angles) is the figure's business.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewAxes {
    /// The screen's x axis in world coordinates.
    pub right: [f64; 3],
    /// The screen's y axis in world coordinates.
    pub up: [f64; 3],
    /// The unit vector from the scene towards the viewer.
    pub toward: [f64; 3],
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
