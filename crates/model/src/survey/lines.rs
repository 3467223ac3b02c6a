//! The P-positions of a solved box, grouped along lines: what the XOR-rule
//! finders read.
//!
//! A rule `XOR_i (p_i + s_i) = c` meets every line parallel to one axis in at
//! most one point, so a rule is checked line by line in O(1 + P-positions on
//! the line), never position by position. A *segment* is a maximal run of
//! consecutive positions of the game on one line: `fixed` coordinates, the free
//! `axis` running over `lo..=hi`, and the P-positions on it.
//!
//! Two builders: any [`Solution`] (lines along the last coordinate, read from
//! its slabs), and the capped games' own P-position solver
//! ([`capped_p_lines`]), which never computes a Grundy value: a column
//! `(x, ., z)` holds at most one P-position (a `y`-move joins any two), so
//! the P-positions follow from the columns below in O(x + z) per column.

use crate::games::{CappedGame, Solution, OUTSIDE};
use crate::{Control, Result};

/// One run of consecutive positions along a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The coordinates of the line; the free axis' entry is 0.
    pub fixed: Vec<u32>,
    /// The largest fixed coordinate (the free axis left out).
    pub fixed_max: u32,
    /// The first position on the free axis.
    pub lo: u32,
    /// The last position on the free axis.
    pub hi: u32,
    /// The P-positions' free coordinates, increasing.
    pub p: Vec<u32>,
}

impl Segment {
    /// The position at free coordinate `t`.
    pub fn point(&self, axis: usize, t: u32) -> Vec<u32> {
        let mut p = self.fixed.clone();
        p[axis] = t;
        p
    }
}

/// The positions and P-positions of a box, as segments along one axis.
#[derive(Clone, Debug)]
pub struct PLines {
    /// The free axis of every segment.
    pub axis: usize,
    /// The box: coordinate `i` in `0..=bounds[i]`.
    pub bounds: Vec<u32>,
    /// Segments in lexicographic order of their fixed coordinates, then `lo`.
    pub segments: Vec<Segment>,
    /// Positions in the box.
    pub positions: u64,
    /// P-positions in the box.
    pub p_count: u64,
}

impl PLines {
    /// The segments of any solution, along its last coordinate.
    pub fn from_solution(solution: &Solution, control: &Control) -> Result<PLines> {
        if let Some(capped) = solution.as_capped() {
            let [bx, by, bz] = capped.bounds();
            let mut segments = Vec::with_capacity((bx as usize + 1) * (bz as usize + 1));
            for x in 0..=bx {
                control.check()?;
                for z in 0..=bz {
                    let h = capped.column_height(x, z).unwrap_or(0);
                    let p = (0..=h)
                        .filter(|&y| capped.get(x, y, z) == Some(0))
                        .collect();
                    segments.push(Segment {
                        fixed: vec![x, 0, z],
                        fixed_max: x.max(z),
                        lo: 0,
                        hi: h,
                        p,
                    });
                }
            }
            return Ok(PLines::new(1, vec![bx, by, bz], segments));
        }
        let bounds = solution.bounds();
        let shape = solution.data_shape();
        let dims = bounds.len();
        let axis = dims - 1;
        let len = shape[axis] as usize;
        let mut segments = Vec::new();
        let mut first = 0u32;
        solution.for_each_slab(|slab: &[u16]| -> Result<()> {
            control.check()?;
            for (line, values) in slab.chunks_exact(len.max(1)).enumerate() {
                // The fixed coordinates: `first`, then `line` in C order over the middle axes.
                let mut fixed = vec![0u32; dims];
                fixed[0] = first;
                let mut rest = line;
                for i in (1..axis).rev() {
                    fixed[i] = (rest % shape[i] as usize) as u32;
                    rest /= shape[i] as usize;
                }
                let fixed_max = fixed.iter().copied().max().unwrap_or(0);
                let mut t = 0;
                while t < values.len() {
                    if values[t] == OUTSIDE {
                        t += 1;
                        continue;
                    }
                    let lo = t;
                    let mut p = Vec::new();
                    while t < values.len() && values[t] != OUTSIDE {
                        if values[t] == 0 {
                            p.push(t as u32);
                        }
                        t += 1;
                    }
                    segments.push(Segment {
                        fixed: fixed.clone(),
                        fixed_max,
                        lo: lo as u32,
                        hi: (t - 1) as u32,
                        p,
                    });
                }
            }
            first += 1;
            Ok(())
        })?;
        Ok(PLines::new(axis, bounds, segments))
    }

    fn new(axis: usize, bounds: Vec<u32>, segments: Vec<Segment>) -> PLines {
        let positions = segments.iter().map(|s| u64::from(s.hi - s.lo) + 1).sum();
        let p_count = segments.iter().map(|s| s.p.len() as u64).sum();
        PLines {
            axis,
            bounds,
            segments,
            positions,
            p_count,
        }
    }
}

/// Bytes [`capped_p_lines`] needs for a box with this many columns: a segment
/// (fixed coordinates, one P) and a clamped cap each.
pub fn capped_p_lines_bytes(columns: u64) -> u64 {
    columns.saturating_mul(96)
}

/// The P-positions of a capped game in the box `bounds`, without Grundy values.
///
/// `(x, y, z)` is P iff no option is: the `y`-moves reach the column's own
/// P-position below `y`; an `x`-move to `t` reaches `(t, min(y, h(t, z)), z)`,
/// a P-position exactly when `y` is the P-position `q` of column `(t, z)`, or,
/// when `q` is that column's top `h(t, z)`, when `y >= q`. So the column's
/// P-position is the least `y <= h(x, z)` that none of the columns below
/// attacks (`h` is the cap clamped to the box, which changes no move).
pub fn capped_p_lines(game: &CappedGame, bounds: [u32; 3], control: &Control) -> Result<PLines> {
    let [bx, by, bz] = bounds;
    let (nx, nz) = (bx as usize + 1, bz as usize + 1);
    let mut height = vec![0u32; nx * nz];
    for x in 0..=bx {
        control.check()?;
        for z in 0..=bz {
            let c = game.cap().eval(x, z)?;
            height[x as usize * nz + z as usize] = c.min(u64::from(by)) as u32;
        }
    }
    // `u32::MAX` marks a column without a P-position (its top is at most `by`).
    const NONE: u32 = u32::MAX;
    let mut p = vec![NONE; nx * nz];
    let mut attacked: Vec<u32> = Vec::new();
    control.add_total(nx as u64);
    for x in 0..nx {
        control.check()?;
        for z in 0..nz {
            let h = height[x * nz + z];
            // Every y from `ray` up is attacked.
            let mut ray = u64::from(h) + 1;
            attacked.clear();
            let below = (0..x).map(|t| t * nz + z).chain((0..z).map(|t| x * nz + t));
            for i in below {
                let q = p[i];
                if q == NONE {
                    continue;
                }
                if q < height[i] {
                    attacked.push(q);
                } else {
                    ray = ray.min(u64::from(q));
                }
            }
            attacked.sort_unstable();
            attacked.dedup();
            let mut y = 0u64;
            for &a in &attacked {
                if u64::from(a) == y {
                    y += 1;
                } else if u64::from(a) > y {
                    break;
                }
            }
            if y < ray {
                p[x * nz + z] = y as u32;
            }
        }
        control.advance(1);
    }
    let segments = (0..nx)
        .flat_map(|x| (0..nz).map(move |z| (x, z)))
        .map(|(x, z)| {
            let q = p[x * nz + z];
            Segment {
                fixed: vec![x as u32, 0, z as u32],
                fixed_max: (x.max(z)) as u32,
                lo: 0,
                hi: height[x * nz + z],
                p: if q == NONE { Vec::new() } else { vec![q] },
            }
        })
        .collect();
    Ok(PLines::new(1, vec![bx, by, bz], segments))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameBox, GameSpec};

    const LIMIT: u64 = 1 << 30;

    #[test]
    fn the_p_solver_agrees_with_the_grundy_solver() {
        let caps = [
            "floor((x+z)/3)",
            "floor((x+z)/2)",
            "floor(min(x,z)/2)",
            "floor((x+z)^2/5)",
            "round(sqrt(x+z))",
            // Not monotone: the general Grundy solver's path.
            "max(x, z) - min(x, z)",
            "3",
        ];
        for cap in caps {
            for bounds in [[9u32, 9, 9], [12, 30, 7], [0, 5, 6]] {
                let game = CappedGame::with_expr(cap).unwrap();
                let fast = capped_p_lines(&game, bounds, &Control::default()).unwrap();
                let solved = GameSpec::Capped(game)
                    .solve(&GameBox::Each(bounds.to_vec()), LIMIT)
                    .unwrap();
                let slow = PLines::from_solution(&solved, &Control::default()).unwrap();
                assert_eq!(fast.segments, slow.segments, "{cap} {bounds:?}");
                assert_eq!(fast.positions, solved.len() as u64);
                assert_eq!(fast.p_count, solved.p_positions().len() as u64);
            }
        }
    }

    #[test]
    fn dense_lines_are_the_runs_of_positions_along_the_last_axis() {
        let game = GameSpec::from_name("band-7-2", &Default::default()).unwrap();
        let solved = game.solve(&GameBox::Uniform(12), LIMIT).unwrap();
        let lines = PLines::from_solution(&solved, &Control::default()).unwrap();
        assert_eq!(lines.positions, solved.len() as u64);
        let mut from_lines: Vec<Vec<u32>> = Vec::new();
        for s in &lines.segments {
            for t in s.lo..=s.hi {
                assert!(solved.get(&s.point(lines.axis, t)).is_some());
            }
            from_lines.extend(s.p.iter().map(|&t| s.point(lines.axis, t)));
        }
        assert_eq!(from_lines, solved.p_positions());
    }
}
