//! Brute-force references: every one of S_n's 6^n octahedra, listed.
//!
//! These are the slow, obviously-right methods the pruned walk is checked
//! against: list all octahedra by applying operation T n times, intersect
//! each with the plane on its own, and decide whether a point lies in S_n by
//! trying all six children at every depth. Limited to small n on purpose.

use super::level::Level;
use super::section::{Cut, Diamond};
use crate::{Error, Result};

/// The largest order the brute force accepts (6^8 = 1 679 616 octahedra).
pub const MAX_BRUTE_ORDER: u32 = 8;

/// The six unit directions of operation T.
pub const DIRECTIONS: [[i64; 3]; 6] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
];

/// The centres of all 6^n octahedra of S_n, in units of 2^-n (each has radius 1 unit).
pub fn octahedra(n: u32) -> Result<Vec<[i64; 3]>> {
    if n > MAX_BRUTE_ORDER {
        return Err(Error::invalid_request(format!(
            "the brute-force listing of S_n allows n <= {MAX_BRUTE_ORDER}; got {n}"
        )));
    }
    let mut centres = vec![[0i64; 3]];
    let mut radius = 1i64 << n;
    for _ in 0..n {
        radius /= 2;
        centres = centres
            .iter()
            .flat_map(|c| {
                DIRECTIONS.iter().map(move |e| {
                    [
                        c[0] + radius * e[0],
                        c[1] + radius * e[1],
                        c[2] + radius * e[2],
                    ]
                })
            })
            .collect();
    }
    Ok(centres)
}

/// The section of S_n at `level` by intersecting every octahedron with the
/// plane, sorted; same units and conventions as [`Cut`] (diamonds of zero
/// size left out).
pub fn section(n: u32, level: Level) -> Result<Vec<Diamond>> {
    let cut = Cut::new(n, level)?;
    let unit = cut.scale() >> n; // 2^-n in units of 1/D
    let mut out: Vec<Diamond> = octahedra(n)?
        .into_iter()
        .filter_map(|c| {
            let h = unit - (cut.plane() - c[2] * unit).abs();
            (h > 0).then_some(Diamond {
                cx: c[0] * unit,
                cy: c[1] * unit,
                h,
            })
        })
        .collect();
    out.sort_unstable();
    Ok(out)
}

/// Whether the point `p` (in units of 1/`scale`, `scale` divisible by 2^n) is in S_n,
/// by trying all six children at every depth.
pub fn contains(n: u32, scale: i64, p: [i64; 3]) -> bool {
    fn inside(p: [i64; 3], c: [i64; 3], radius: i64, depth: u32, n: u32) -> bool {
        let l1 = (p[0] - c[0]).abs() + (p[1] - c[1]).abs() + (p[2] - c[2]).abs();
        if l1 > radius {
            return false;
        }
        if depth == n {
            return true;
        }
        let half = radius / 2;
        DIRECTIONS.iter().any(|e| {
            let child = [c[0] + half * e[0], c[1] + half * e[1], c[2] + half * e[2]];
            inside(p, child, half, depth + 1, n)
        })
    }
    inside(p, [0, 0, 0], scale, 0, n)
}
