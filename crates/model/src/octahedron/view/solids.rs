//! The convex solids a view draws (S_n's octahedra, operation T's octahedra
//! and tetrahedra), and the section plane and its cut as world polygons.

use super::axes::{cross, dot, normalise, sub, ViewAxes};
use super::PolygonKind;
use crate::octahedron::section::{Cut, Diamond};

/// A convex solid: vertices and triangular faces (outward normals precomputed).
#[derive(Clone, Debug)]
pub(super) struct Solid {
    pub(super) vertices: Vec<[f64; 3]>,
    pub(super) faces: Vec<[usize; 3]>,
    pub(super) normals: Vec<[f64; 3]>,
    pub(super) centre: [f64; 3],
    pub(super) kind: PolygonKind,
}

impl Solid {
    pub(super) fn new(vertices: Vec<[f64; 3]>, faces: Vec<[usize; 3]>, kind: PolygonKind) -> Solid {
        let k = vertices.len() as f64;
        let centre = vertices.iter().fold([0.0; 3], |acc, v| {
            [acc[0] + v[0] / k, acc[1] + v[1] / k, acc[2] + v[2] / k]
        });
        let normals = faces
            .iter()
            .map(|f| {
                let n = normalise(cross(
                    sub(vertices[f[1]], vertices[f[0]]),
                    sub(vertices[f[2]], vertices[f[0]]),
                ));
                // Orient outwards: away from the centre.
                if dot(n, sub(vertices[f[0]], centre)) < 0.0 {
                    [-n[0], -n[1], -n[2]]
                } else {
                    n
                }
            })
            .collect();
        Solid {
            vertices,
            faces,
            normals,
            centre,
            kind,
        }
    }

    pub(super) fn octahedron(c: [f64; 3], rho: f64, kind: PolygonKind) -> Solid {
        let vertices = vec![
            [c[0] + rho, c[1], c[2]],
            [c[0] - rho, c[1], c[2]],
            [c[0], c[1] + rho, c[2]],
            [c[0], c[1] - rho, c[2]],
            [c[0], c[1], c[2] + rho],
            [c[0], c[1], c[2] - rho],
        ];
        let mut faces = Vec::with_capacity(8);
        for x in [0, 1] {
            for y in [2, 3] {
                for z in [4, 5] {
                    faces.push([x, y, z]);
                }
            }
        }
        Solid::new(vertices, faces, kind)
    }

    /// The depth of the solid's front surface along the ray through screen
    /// point `p`, or None if the ray misses it.
    pub(super) fn front_depth(&self, basis: &ViewAxes, p: [f64; 2]) -> Option<f64> {
        let origin = [
            p[0] * basis.right[0] + p[1] * basis.up[0],
            p[0] * basis.right[1] + p[1] * basis.up[1],
            p[0] * basis.right[2] + p[1] * basis.up[2],
        ];
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        for (f, n) in self.faces.iter().zip(&self.normals) {
            // Inside: n·(origin + t·toward) <= n·v0.
            let k = dot(*n, self.vertices[f[0]]) - dot(*n, origin);
            let s = dot(*n, basis.toward);
            if s.abs() < 1e-15 {
                if k < 0.0 {
                    return None;
                }
            } else if s > 0.0 {
                hi = hi.min(k / s);
            } else {
                lo = lo.max(k / s);
            }
        }
        (lo < hi).then_some(hi)
    }
}

/// The centres of S_n's octahedra, depth first (+x, -x, +y, -y, +z, -z).
pub(super) fn centres(n: u32) -> Vec<[f64; 3]> {
    fn walk(c: [f64; 3], rho: f64, depth: u32, n: u32, out: &mut Vec<[f64; 3]>) {
        if depth == n {
            out.push(c);
            return;
        }
        let h = rho / 2.0;
        for e in crate::octahedron::brute::DIRECTIONS {
            let child = [
                c[0] + h * e[0] as f64,
                c[1] + h * e[1] as f64,
                c[2] + h * e[2] as f64,
            ];
            walk(child, h, depth + 1, n, out);
        }
    }
    let mut out = Vec::with_capacity(6usize.pow(n));
    walk([0.0; 3], 1.0, 0, n, &mut out);
    out
}

/// The section plane's square |x|, |y| <= 1 at height `z0`.
pub(super) fn plane_square(z0: f64) -> Vec<[f64; 3]> {
    let corners = [[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]];
    corners.iter().map(|c| [c[0], c[1], z0]).collect()
}

/// One diamond of the section as a world polygon on the plane at `z0`.
pub(super) fn cut_polygon(cut: &Cut, diamond: &Diamond, z0: f64) -> Vec<[f64; 3]> {
    diamond
        .corners()
        .iter()
        .map(|c| [cut.to_f64(c[0]), cut.to_f64(c[1]), z0])
        .collect()
}

/// The solids of operation T on the unit octahedron: the six kept octahedra
/// of radius 1/2, then the eight removed tetrahedra (one per face: the centre
/// and the face's three edge midpoints), pushed out along the face's normal by
/// `explode` times the octahedron's radius.
pub(super) fn operation_solids(explode: f64) -> Vec<Solid> {
    let mut solids: Vec<Solid> = crate::octahedron::brute::DIRECTIONS
        .iter()
        .map(|e| {
            let c = [e[0] as f64 / 2.0, e[1] as f64 / 2.0, e[2] as f64 / 2.0];
            Solid::octahedron(c, 0.5, PolygonKind::Face)
        })
        .collect();
    let push = explode / 3f64.sqrt();
    for sx in [1.0, -1.0] {
        for sy in [1.0, -1.0] {
            for sz in [1.0, -1.0] {
                let shift = [sx * push, sy * push, sz * push];
                let at = |p: [f64; 3]| [p[0] + shift[0], p[1] + shift[1], p[2] + shift[2]];
                let vertices = vec![
                    at([0.0, 0.0, 0.0]),
                    at([sx / 2.0, sy / 2.0, 0.0]),
                    at([0.0, sy / 2.0, sz / 2.0]),
                    at([sx / 2.0, 0.0, sz / 2.0]),
                ];
                let faces = vec![[0, 1, 2], [0, 2, 3], [0, 3, 1], [1, 2, 3]];
                solids.push(Solid::new(vertices, faces, PolygonKind::Removed));
            }
        }
    }
    solids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_t_removes_eight_tetrahedra_and_keeps_the_volume() {
        let solids = operation_solids(0.0);
        let volume = |s: &Solid| {
            // Divergence theorem over the outward-oriented triangles.
            s.faces
                .iter()
                .zip(&s.normals)
                .map(|(f, n)| {
                    let (a, b, c) = (s.vertices[f[0]], s.vertices[f[1]], s.vertices[f[2]]);
                    let area2 = cross(sub(b, a), sub(c, a));
                    dot(a, *n) * dot(area2, area2).sqrt() / 6.0
                })
                .sum::<f64>()
        };
        let kept: f64 = solids
            .iter()
            .filter(|s| s.kind == PolygonKind::Face)
            .map(volume)
            .sum();
        let removed: Vec<f64> = solids
            .iter()
            .filter(|s| s.kind == PolygonKind::Removed)
            .map(volume)
            .collect();
        assert_eq!(removed.len(), 8);
        let total = kept + removed.iter().sum::<f64>();
        assert!((kept - 1.0).abs() < 1e-12 && (total - 4.0 / 3.0).abs() < 1e-12);
        // Every removed tetrahedron lies in the parent and meets no kept
        // octahedron's interior: its centroid is outside all six children.
        for s in solids.iter().filter(|s| s.kind == PolygonKind::Removed) {
            let c = s.centre;
            assert!(c.iter().map(|v| v.abs()).sum::<f64>() < 1.0);
            for e in crate::octahedron::brute::DIRECTIONS {
                let d = [
                    c[0] - e[0] as f64 / 2.0,
                    c[1] - e[1] as f64 / 2.0,
                    c[2] - e[2] as f64 / 2.0,
                ];
                assert!(d.iter().map(|v| v.abs()).sum::<f64>() > 0.5);
            }
        }
    }
}
