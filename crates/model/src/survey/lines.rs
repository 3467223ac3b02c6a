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

use super::grid::Grid;
use crate::games::{CappedGame, Solution, OUTSIDE};
use crate::{Control, Result};

/// One run of consecutive positions along a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment<'a> {
    /// The coordinates of the line; the free axis' entry is 0.
    pub fixed: &'a [u32],
    /// The largest fixed coordinate (the free axis left out).
    pub fixed_max: u32,
    /// The first position on the free axis.
    pub lo: u32,
    /// The last position on the free axis.
    pub hi: u32,
    /// The P-positions' free coordinates, increasing.
    pub p: &'a [u32],
}

impl Segment<'_> {
    /// The position at free coordinate `t`.
    pub fn point(&self, axis: usize, t: u32) -> Vec<u32> {
        let mut p = self.fixed.to_vec();
        p[axis] = t;
        p
    }
}

/// The positions and P-positions of a box, as segments along one axis, in
/// flat arrays: a rule search reads every segment once per rule, and a box of
/// six heaps has most of a million of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PLines {
    /// The free axis of every segment.
    pub axis: usize,
    /// The box: coordinate `i` in `0..=bounds[i]`.
    pub bounds: Vec<u32>,
    /// Positions in the box.
    pub positions: u64,
    /// P-positions in the box.
    pub p_count: u64,
    /// The fixed coordinates, one per coordinate per segment (the free axis' 0).
    pub(super) fixed: Vec<u32>,
    pub(super) fixed_max: Vec<u32>,
    pub(super) lo: Vec<u32>,
    pub(super) hi: Vec<u32>,
    /// The P-positions of segment `i` are `p[p_at[i]..p_at[i + 1]]`.
    pub(super) p_at: Vec<usize>,
    pub(super) p: Vec<u32>,
}

impl PLines {
    /// Bytes the lines of `segments` segments of `dims` coordinates take,
    /// counting one P-position a segment (at most one on every line of the
    /// capped games and Nim-like games; a game with more grows past it).
    pub fn bytes(segments: u64, dims: usize) -> u64 {
        segments.saturating_mul(4 * dims as u64 + 28)
    }

    pub(super) fn empty(axis: usize, bounds: Vec<u32>, segments: usize) -> PLines {
        let dims = bounds.len();
        let mut p_at = Vec::with_capacity(segments + 1);
        p_at.push(0);
        PLines {
            axis,
            bounds,
            positions: 0,
            p_count: 0,
            fixed: Vec::with_capacity(segments * dims),
            fixed_max: Vec::with_capacity(segments),
            lo: Vec::with_capacity(segments),
            hi: Vec::with_capacity(segments),
            p_at,
            p: Vec::with_capacity(segments),
        }
    }

    /// Appends a segment; `fixed`'s free-axis entry must be 0.
    pub(super) fn push(
        &mut self,
        fixed: &[u32],
        lo: u32,
        hi: u32,
        p: impl IntoIterator<Item = u32>,
    ) {
        self.fixed.extend_from_slice(fixed);
        self.fixed_max.push(
            fixed
                .iter()
                .enumerate()
                .filter(|&(d, _)| d != self.axis)
                .map(|(_, &c)| c)
                .max()
                .unwrap_or(0),
        );
        self.lo.push(lo);
        self.hi.push(hi);
        self.p.extend(p);
        self.p_at.push(self.p.len());
        self.positions += u64::from(hi - lo) + 1;
        self.p_count = self.p.len() as u64;
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.lo.len()
    }

    /// True when the box holds no position.
    pub fn is_empty(&self) -> bool {
        self.lo.is_empty()
    }

    /// Segment `i`, in lexicographic order of the fixed coordinates, then `lo`.
    pub fn segment(&self, i: usize) -> Segment<'_> {
        let dims = self.bounds.len();
        Segment {
            fixed: &self.fixed[i * dims..(i + 1) * dims],
            fixed_max: self.fixed_max[i],
            lo: self.lo[i],
            hi: self.hi[i],
            p: &self.p[self.p_at[i]..self.p_at[i + 1]],
        }
    }

    /// Every segment, in order.
    pub fn segments(&self) -> impl DoubleEndedIterator<Item = Segment<'_>> + '_ {
        (0..self.len()).map(|i| self.segment(i))
    }

    /// The smallest and largest value each coordinate takes over the positions
    /// of the game in the box: what the box really spans, which may be much less
    /// than its bounds (a cap lets `y` reach only what the cap allows).
    pub fn reach(&self) -> Vec<(u32, u32)> {
        let dims = self.bounds.len();
        let mut reach = vec![(u32::MAX, 0u32); dims];
        for seg in self.segments() {
            for (d, r) in reach.iter_mut().enumerate() {
                let (lo, hi) = if d == self.axis {
                    (seg.lo, seg.hi)
                } else {
                    (seg.fixed[d], seg.fixed[d])
                };
                *r = (r.0.min(lo), r.1.max(hi));
            }
        }
        reach
            .into_iter()
            .map(|(lo, hi)| if lo > hi { (0, 0) } else { (lo, hi) })
            .collect()
    }

    /// How many lines parallel to the last coordinate hold at least one
    /// position of the game in the box, whatever axis the segments run along:
    /// one count for every game, so a rule's vacuous lines mean the same for
    /// a built-in game and its game file.
    pub fn lines_along_last(&self) -> u64 {
        let dims = self.bounds.len();
        let last = dims - 1;
        if self.axis == last {
            // Segments of one line follow each other (ordered by the fixed coordinates).
            let mut count = 0u64;
            for i in 0..self.len() {
                if i == 0
                    || self.fixed[i * dims..(i + 1) * dims] != self.fixed[(i - 1) * dims..i * dims]
                {
                    count += 1;
                }
            }
            return count;
        }
        // A line along the last coordinate is its other coordinates. Segments are
        // ordered by their fixed coordinates, so those apart from the axis and the
        // last come in groups; within a group the lines are the union of the
        // segments' ranges on the axis.
        let key = |i: usize| -> Vec<u32> {
            (0..dims)
                .filter(|&d| d != self.axis && d != last)
                .map(|d| self.fixed[i * dims + d])
                .collect()
        };
        let (mut count, mut start) = (0u64, 0usize);
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        while start < self.len() {
            let group = key(start);
            let mut end = start;
            ranges.clear();
            while end < self.len() && key(end) == group {
                ranges.push((self.lo[end], self.hi[end]));
                end += 1;
            }
            ranges.sort_unstable();
            let mut covered: Option<(u32, u32)> = None;
            for &(lo, hi) in &ranges {
                covered = match covered {
                    Some((a, b)) if lo <= b.saturating_add(1) => Some((a, b.max(hi))),
                    Some((a, b)) => {
                        count += u64::from(b - a) + 1;
                        Some((lo, hi))
                    }
                    None => Some((lo, hi)),
                };
            }
            if let Some((a, b)) = covered {
                count += u64::from(b - a) + 1;
            }
            start = end;
        }
        count
    }

    /// The segments of any solution: along `y` for a capped game (a column is
    /// one segment), along the last coordinate for the others.
    pub fn from_solution(solution: &Solution, control: &Control) -> Result<PLines> {
        let grid = Grid::of(solution, control)?;
        PLines::from_grid(&grid, solution.bounds(), Self::axis_of(solution), control)
    }

    /// The axis [`PLines::from_solution`] runs its segments along.
    pub fn axis_of(solution: &Solution) -> usize {
        if solution.as_capped().is_some() {
            1
        } else {
            solution.bounds().len() - 1
        }
    }

    /// The segments of `grid` (the box `bounds`) along `axis`.
    pub fn from_grid(
        grid: &Grid,
        bounds: Vec<u32>,
        axis: usize,
        control: &Control,
    ) -> Result<PLines> {
        let shape = &grid.shape;
        let dims = shape.len();
        let count = grid.line_count(axis);
        let (len, stride) = (shape[axis], grid.strides[axis]);
        let mut lines = PLines::empty(axis, bounds, count);
        let mut fixed = vec![0u32; dims];
        let mut p = Vec::new();
        for line in 0..count {
            if line % 4096 == 0 {
                control.check()?;
            }
            let base = grid.line_start(axis, line, &mut fixed);
            let value = |t: usize| grid.values[base + t * stride];
            let mut t = 0;
            while t < len {
                if value(t) == OUTSIDE {
                    t += 1;
                    continue;
                }
                let lo = t;
                p.clear();
                while t < len && value(t) != OUTSIDE {
                    if value(t) == 0 {
                        p.push(t as u32);
                    }
                    t += 1;
                }
                lines.push(&fixed, lo as u32, (t - 1) as u32, p.iter().copied());
            }
        }
        Ok(lines)
    }
}

/// Bytes [`capped_p_lines`] needs for a box with this many columns: a segment
/// (fixed coordinates, one P), and a clamped cap and a P-position while solving.
pub fn capped_p_lines_bytes(columns: u64) -> u64 {
    PLines::bytes(columns, 3).saturating_add(columns.saturating_mul(8))
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
    let mut lines = PLines::empty(1, vec![bx, by, bz], nx * nz);
    for x in 0..nx {
        for z in 0..nz {
            let q = p[x * nz + z];
            lines.push(
                &[x as u32, 0, z as u32],
                0,
                height[x * nz + z],
                (q != NONE).then_some(q),
            );
        }
    }
    Ok(lines)
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
            "floor((x+z)**2/5)",
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
                    .solve(
                        &GameBox::Each(bounds.to_vec()),
                        LIMIT,
                        &crate::Control::default(),
                    )
                    .unwrap();
                let slow = PLines::from_solution(&solved, &Control::default()).unwrap();
                assert_eq!(fast, slow, "{cap} {bounds:?}");
                assert_eq!(fast.positions, solved.len() as u64);
                assert_eq!(fast.p_count, solved.p_positions().len() as u64);
            }
        }
    }

    #[test]
    fn dense_lines_are_the_runs_of_positions_along_the_last_axis() {
        let game = GameSpec::from_name("band-7-2", &Default::default()).unwrap();
        let solved = game
            .solve(&GameBox::Uniform(12), LIMIT, &crate::Control::default())
            .unwrap();
        let lines = PLines::from_solution(&solved, &Control::default()).unwrap();
        assert_eq!(lines.positions, solved.len() as u64);
        let mut from_lines: Vec<Vec<u32>> = Vec::new();
        for s in lines.segments() {
            for t in s.lo..=s.hi {
                assert!(solved.get(&s.point(lines.axis, t)).is_some());
            }
            from_lines.extend(s.p.iter().map(|&t| s.point(lines.axis, t)));
        }
        assert_eq!(from_lines, solved.p_positions());
    }
}
