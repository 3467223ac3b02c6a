//! Exact horizontal sections of the Sierpinski octahedron S_n.
//!
//! The one idea: S_n is never listed. The walk starts at the unit octahedron
//! and descends only into children whose z-extent strictly contains the plane,
//! so the work follows the size of the answer, not 6^n. A cut octahedron of
//! centre c and L1-radius ρ leaves the diamond |x-cx| + |y-cy| <= ρ - |z-cz|;
//! octahedra that only touch the plane at a vertex (a single point, area 0)
//! are left out, so a section is a union of diamonds of positive size.
//!
//! All coordinates are integers over one denominator D = lcm(2^n, den(r))
//! (see [`Cut`]): centres of depth-d octahedra are multiples of D/2^d and the
//! plane sits at the integer D·(1 - r), so every diamond is exact.
//!
//! Because the octahedra of one depth have centres on a lattice of step equal
//! to their radius, the plane's offset from the centres of the cut ones takes
//! at most two values per depth. That makes the *number* of diamonds and the
//! exact area computable in O(n) ([`count_diamonds`], [`exact_area`]) before
//! anything is enumerated — the memory check uses it.

use super::level::{Level, MAX_DENOMINATOR};
use crate::control::Ticker;
use crate::error::check_memory;
use crate::exact::Rational;
use crate::{BitGrid, Control, Error, Result};

/// Diamonds (or walked octahedra) between two checks of a [`Control`]: a few ns each,
/// so a check every 65536 costs nothing and comes well under a millisecond apart.
const DIAMONDS_PER_CHECK: u64 = 1 << 16;

/// A diamond |x - cx| + |y - cy| <= h in the plane of a section, in units of 1/D.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Diamond {
    /// Centre x, in units of 1/D.
    pub cx: i64,
    /// Centre y, in units of 1/D.
    pub cy: i64,
    /// Half-diagonal (L1 radius), in units of 1/D; always positive.
    pub h: i64,
}

/// The same diamond as an axis-aligned square in u = x + y, v = x - y:
/// max(|u - cu|, |v - cv|) <= h.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    /// Centre u = cx + cy, in units of 1/D.
    pub cu: i64,
    /// Centre v = cx - cy, in units of 1/D.
    pub cv: i64,
    /// Half-side, in units of 1/D.
    pub h: i64,
}

impl Diamond {
    /// The diamond as a square in the rotated coordinates (u, v).
    pub fn square(&self) -> Square {
        Square {
            cu: self.cx + self.cy,
            cv: self.cx - self.cy,
            h: self.h,
        }
    }

    /// The area 2h² in units of 1/D² (exact).
    pub fn area_units(&self) -> u128 {
        2 * (self.h as u128) * (self.h as u128)
    }

    /// The four corners (right, top, left, bottom) in units of 1/D.
    pub fn corners(&self) -> [[i64; 2]; 4] {
        let Diamond { cx, cy, h } = *self;
        [[cx + h, cy], [cx, cy + h], [cx - h, cy], [cx, cy - h]]
    }
}

/// An exact fraction in lowest terms, denominator positive (for data output):
/// the model's one exact rational.
pub type Fraction = Rational;

/// The integer frame of one section: S_n cut at level r, in units of 1/D.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    order: u32,
    level: Level,
    scale: i64,
    plane: i64,
}

impl Cut {
    /// The frame for S_n at `level`; refuses when D = lcm(2^n, den) exceeds 2^60.
    pub fn new(n: u32, level: Level) -> Result<Cut> {
        let den = level.denom();
        let twos = den.trailing_zeros().max(n);
        let odd = den >> den.trailing_zeros();
        let scale = if twos >= 64 {
            None
        } else {
            odd.checked_mul(1u64 << twos)
        };
        let scale = match scale {
            Some(s) if s <= MAX_DENOMINATOR => s as i64,
            _ => {
                // Largest n that would still fit, to say how to fix it.
                let room = (MAX_DENOMINATOR / odd).ilog2();
                return Err(Error::invalid_parameter(
                    "n",
                    format!(
                        "`n` {n} is too large for exact arithmetic at level r = {level}: \
                     the common denominator would exceed 2^60; use `n` at most {room}"
                    ),
                ));
            }
        };
        let plane = scale - (level.numer() as i64) * (scale / den as i64);
        Ok(Cut {
            order: n,
            level,
            scale,
            plane,
        })
    }

    /// The order n of S_n.
    pub fn order(&self) -> u32 {
        self.order
    }

    /// The level r.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The denominator D: every coordinate is an integer number of 1/D.
    pub fn scale(&self) -> i64 {
        self.scale
    }

    /// The plane's height z = 1 - r in units of 1/D.
    pub fn plane(&self) -> i64 {
        self.plane
    }

    /// A coordinate in units of 1/D as an exact reduced fraction.
    pub fn fraction(&self, units: i64) -> Fraction {
        Fraction::new(units.into(), self.scale.into()).expect("D is at least 1")
    }

    /// A coordinate in units of 1/D as a float (for pixels only).
    pub fn to_f64(&self, units: i64) -> f64 {
        units as f64 / self.scale as f64
    }

    /// The walk over this cut's diamonds, depth first, in a fixed order.
    pub fn diamonds(&self) -> Diamonds {
        let mut stack = Vec::with_capacity(6 * self.order as usize + 6);
        if self.plane.abs() < self.scale {
            stack.push(Node {
                cx: 0,
                cy: 0,
                cz: 0,
                depth: 0,
            });
        }
        Diamonds { cut: *self, stack }
    }

    fn radius(&self, depth: u32) -> i64 {
        self.scale >> depth
    }

    /// The children of `node` that the plane cuts, in the walk's order
    /// (+x, -x, +y, -y, +z, -z).
    fn children(&self, node: &Node, out: &mut impl FnMut(Node)) {
        let half = self.radius(node.depth + 1);
        let depth = node.depth + 1;
        if (self.plane - node.cz).abs() < half {
            for (dx, dy) in [(half, 0), (-half, 0), (0, half), (0, -half)] {
                out(Node {
                    cx: node.cx + dx,
                    cy: node.cy + dy,
                    cz: node.cz,
                    depth,
                });
            }
        }
        for dz in [half, -half] {
            if (self.plane - node.cz - dz).abs() < half {
                out(Node {
                    cx: node.cx,
                    cy: node.cy,
                    cz: node.cz + dz,
                    depth,
                });
            }
        }
    }

    fn leaf(&self, node: &Node) -> Diamond {
        Diamond {
            cx: node.cx,
            cy: node.cy,
            h: self.radius(node.depth) - (self.plane - node.cz).abs(),
        }
    }

    /// Calls `f` on every diamond, in the order of [`Cut::diamonds`], at a few
    /// ns per diamond and with memory far below the section's own.
    ///
    /// The walk goes down breadth first (keeping the walk's order) until the
    /// cut octahedra are numerous and small, then stamps a precomputed copy of
    /// each one's section: below a given depth a subtree's section depends only
    /// on the plane's offset from its centre (at most two values per depth),
    /// so it is built once per offset, bottom up, and translated into place.
    ///
    /// Under `control`: progress in diamonds, checked every 65536
    /// diamonds (and per depth of the breadth-first descent).
    pub fn for_each(&self, mut f: impl FnMut(Diamond), control: &Control) -> Result<()> {
        let states = self.depth_states_all();
        let count: u128 = states[self.order as usize].iter().map(|&(_, c)| c).sum();
        control.add_total(u64::try_from(count).unwrap_or(u64::MAX));
        let mut ticker = Ticker::new(control, DIAMONDS_PER_CHECK);
        let mut frontier = self.diamonds().stack;
        let mut depth = 0usize;
        while depth < self.order as usize && !frontier.is_empty() {
            control.check()?;
            let below: u128 = states[depth].iter().map(|&(_, c)| c).sum::<u128>();
            let total: u128 = states[self.order as usize].iter().map(|&(_, c)| c).sum();
            let stamp_size = total / below.max(1);
            if below >= 256 && stamp_size <= 1 << 16 {
                break;
            }
            let mut next = Vec::with_capacity(frontier.len() * 6);
            for node in &frontier {
                self.children(node, &mut |c| next.push(c));
            }
            frontier = next;
            depth += 1;
        }
        let stamps = self.stamps(depth as u32);
        for node in &frontier {
            let offset = self.plane - node.cz;
            let (_, stamp) = stamps
                .iter()
                .find(|(o, _)| *o == offset)
                .expect("every cut octahedron's offset has a stamp");
            for d in stamp {
                f(Diamond {
                    cx: d.cx + node.cx,
                    cy: d.cy + node.cy,
                    h: d.h,
                });
            }
            ticker.tick(stamp.len() as u64)?;
        }
        ticker.flush()
    }

    /// The offsets (plane - cz) that cut octahedra have at each depth 0..=n.
    fn offsets_by_depth(&self) -> Vec<Vec<i64>> {
        let mut current: Vec<i64> = if self.plane.abs() < self.scale {
            vec![self.plane]
        } else {
            Vec::new()
        };
        let mut all = Vec::with_capacity(self.order as usize + 1);
        for depth in 1..=self.order {
            let half = self.radius(depth);
            let mut next: Vec<i64> = Vec::with_capacity(3);
            for &o in &current {
                for child in [o, o - half, o + half] {
                    if child.abs() < half && !next.contains(&child) {
                        next.push(child);
                    }
                }
            }
            all.push(std::mem::replace(&mut current, next));
        }
        all.push(current);
        all
    }

    /// For each offset a depth-`k` octahedron can have, its section (relative
    /// to its centre, in walk order), built bottom up from depth n.
    fn stamps(&self, k: u32) -> Vec<(i64, Vec<Diamond>)> {
        let offsets = self.offsets_by_depth();
        let n = self.order;
        let mut below: Vec<(i64, Vec<Diamond>)> = offsets[n as usize]
            .iter()
            .map(|&o| {
                let h = self.radius(n) - o.abs();
                (o, vec![Diamond { cx: 0, cy: 0, h }])
            })
            .collect();
        for depth in (k..n).rev() {
            let half = self.radius(depth + 1);
            let find = |o: i64| below.iter().find(|(b, _)| *b == o).map(|(_, v)| v);
            let built = offsets[depth as usize]
                .iter()
                .map(|&o| {
                    let mut out = Vec::new();
                    if let Some(stamp) = find(o).filter(|_| o.abs() < half) {
                        for (dx, dy) in [(half, 0), (-half, 0), (0, half), (0, -half)] {
                            out.extend(stamp.iter().map(|d| Diamond {
                                cx: d.cx + dx,
                                cy: d.cy + dy,
                                h: d.h,
                            }));
                        }
                    }
                    for dz in [half, -half] {
                        if let Some(stamp) = find(o - dz).filter(|_| (o - dz).abs() < half) {
                            out.extend_from_slice(stamp);
                        }
                    }
                    (o, out)
                })
                .collect();
            below = built;
        }
        below
    }

    /// For each offset a cut octahedron at `depth` can have, the diamonds of
    /// the section below it, relative to its centre and in walk order: every
    /// cut octahedron at that depth leaves one of these, translated.
    pub fn sections_below(&self, depth: u32) -> Vec<(i64, Vec<Diamond>)> {
        self.stamps(depth.min(self.order))
    }

    /// The exact area of every cut subtree's section, by depth and offset.
    ///
    /// Below a cut octahedron, the section depends only on its depth and the
    /// plane's offset from its centre (at most three offsets per depth), so
    /// the areas are built bottom up from depth n in O(n), like
    /// [`exact_area`]: a leaf leaves its whole diamond (2h²), an inner
    /// octahedron the sum over its cut children.
    pub fn subtree_areas(&self) -> SubtreeAreas {
        let offsets = self.offsets_by_depth();
        let n = self.order as usize;
        let mut by_depth: Vec<Vec<(i64, u128)>> = vec![Vec::new(); n + 1];
        by_depth[n] = offsets[n]
            .iter()
            .map(|&o| {
                let h = (self.radius(self.order) - o.abs()) as u128;
                (o, 2 * h * h)
            })
            .collect();
        for depth in (0..n).rev() {
            let half = self.radius(depth as u32 + 1);
            let below = std::mem::take(&mut by_depth[depth + 1]);
            let find = |o: i64| {
                below
                    .iter()
                    .find(|(b, _)| *b == o)
                    .map_or(0, |&(_, area)| area)
            };
            by_depth[depth] = offsets[depth]
                .iter()
                .map(|&o| {
                    // Every term is at most the parent's diamond, 2h² <= 2·D² < 2^121.
                    let mut area = 0u128;
                    if o.abs() < half {
                        area += 4 * find(o);
                    }
                    for dz in [half, -half] {
                        if (o - dz).abs() < half {
                            area += find(o - dz);
                        }
                    }
                    (o, area)
                })
                .collect();
            by_depth[depth + 1] = below;
        }
        SubtreeAreas { by_depth }
    }

    /// Walks the cut octahedra depth first, in the order of [`Cut::diamonds`],
    /// descending into a node's cut children only when `visit` returns true.
    ///
    /// Each node carries the bounding diamond of its section and the exact
    /// area of that section, so a caller can stop wherever the answer no
    /// longer depends on the detail below (a full diamond, a node inside one
    /// pixel) and the work follows what it needs, not the section's size.
    ///
    /// Under `control`, checked every 65536 nodes. Progress is the share
    /// of the section's area whose walk is finished (a node not descended into, or a
    /// leaf), in millionths: it reaches 1000000 of 1000000 however early `visit` stops.
    pub fn walk(&self, mut visit: impl FnMut(&CutNode) -> bool, control: &Control) -> Result<()> {
        let areas = self.subtree_areas();
        let roots = self.diamonds().stack;
        let mut walk = Walk {
            ticker: Ticker::new(control, DIAMONDS_PER_CHECK),
            control,
            whole: 0,
            finished: 0,
            reported: 0,
        };
        walk.whole = roots
            .iter()
            .filter_map(|r| areas.get(r.depth, self.plane - r.cz))
            .sum();
        control.add_total(WALK_UNITS);
        for root in roots {
            self.walk_from(&root, &areas, &mut visit, &mut walk)?;
        }
        walk.ticker.flush()?;
        // Every root finished: whatever rounding left is reported now.
        control.advance(WALK_UNITS - walk.reported);
        Ok(())
    }

    fn walk_from(
        &self,
        node: &Node,
        areas: &SubtreeAreas,
        visit: &mut impl FnMut(&CutNode) -> bool,
        walk: &mut Walk<'_>,
    ) -> Result<()> {
        walk.ticker.tick_weighted(0, 1)?;
        let offset = self.plane - node.cz;
        let cut_node = CutNode {
            cx: node.cx,
            cy: node.cy,
            depth: node.depth,
            h: self.radius(node.depth) - offset.abs(),
            offset,
            area: areas
                .get(node.depth, offset)
                .expect("every cut octahedron's offset has an area"),
        };
        if visit(&cut_node) && node.depth < self.order {
            let mut kids = [*node; 6];
            let mut k = 0;
            self.children(node, &mut |child| {
                kids[k] = child;
                k += 1;
            });
            for child in &kids[..k] {
                self.walk_from(child, areas, visit, walk)?;
            }
        } else {
            walk.finish(cut_node.area);
        }
        Ok(())
    }

    /// The per-depth states (offset plane - cz, multiplicity) of the cut octahedra.
    fn depth_states(&self) -> Vec<(i64, u128)> {
        self.depth_states_all().pop().unwrap_or_default()
    }

    /// [`Cut::depth_states`] at every depth 0..=n.
    fn depth_states_all(&self) -> Vec<Vec<(i64, u128)>> {
        let mut all = Vec::with_capacity(self.order as usize + 1);
        let mut states: Vec<(i64, u128)> = Vec::with_capacity(3);
        if self.plane.abs() < self.scale {
            states.push((self.plane, 1));
        }
        for depth in 1..=self.order {
            let half = self.radius(depth);
            let mut next: Vec<(i64, u128)> = Vec::with_capacity(3);
            let mut add = |offset: i64, count: u128| {
                if offset.abs() < half && count > 0 {
                    match next.iter_mut().find(|(o, _)| *o == offset) {
                        Some((_, c)) => *c = c.saturating_add(count),
                        None => next.push((offset, count)),
                    }
                }
            };
            for &(offset, count) in &states {
                add(offset, count.saturating_mul(4));
                add(offset - half, count);
                add(offset + half, count);
            }
            all.push(std::mem::replace(&mut states, next));
        }
        all.push(states);
        all
    }
}

/// The progress units of [`Cut::walk`]: millionths of the section's area.
const WALK_UNITS: u64 = 1_000_000;

/// The state of a controlled walk: its checks, and the area finished so far.
struct Walk<'a> {
    ticker: Ticker<'a>,
    control: &'a Control,
    /// The area of the whole section, and of the finished nodes (units of 1/D²).
    whole: u128,
    finished: u128,
    /// Units of [`WALK_UNITS`] already reported.
    reported: u64,
}

impl Walk<'_> {
    /// A node whose section is walked no further: its area is done.
    fn finish(&mut self, area: u128) {
        self.finished += area;
        // A float ratio: the areas can pass 2^120, and progress needs no exactness.
        let share = self.finished as f64 / self.whole.max(1) as f64;
        let units = ((share * WALK_UNITS as f64) as u64).min(WALK_UNITS);
        if units > self.reported {
            self.control.advance(units - self.reported);
            self.reported = units;
        }
    }
}

/// The exact section area of a cut subtree for each depth and offset
/// (plane - cz) that cut octahedra have; see [`Cut::subtree_areas`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtreeAreas {
    by_depth: Vec<Vec<(i64, u128)>>,
}

impl SubtreeAreas {
    /// The area (units of 1/D²) below a cut octahedron at `depth` whose centre
    /// is `offset` below the plane; `None` if no cut octahedron has that offset.
    pub fn get(&self, depth: u32, offset: i64) -> Option<u128> {
        self.by_depth
            .get(depth as usize)?
            .iter()
            .find(|(o, _)| *o == offset)
            .map(|&(_, area)| area)
    }
}

/// One cut octahedron met by [`Cut::walk`], in units of 1/D.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutNode {
    /// Centre x.
    pub cx: i64,
    /// Centre y.
    pub cy: i64,
    /// Depth in the subdivision: 0 is the unit octahedron, n a leaf of S_n.
    pub depth: u32,
    /// The plane's height above the centre, plane - cz (|offset| < radius).
    pub offset: i64,
    /// Half-diagonal of the octahedron's own diamond in the plane, which
    /// holds the whole section below it: radius - |offset|, positive.
    pub h: i64,
    /// Exact area of the section below this octahedron, units of 1/D².
    pub area: u128,
}

impl CutNode {
    /// The diamond holding this node's section.
    pub fn bound(&self) -> Diamond {
        Diamond {
            cx: self.cx,
            cy: self.cy,
            h: self.h,
        }
    }

    /// True when the section below fills the bounding diamond (a leaf, or a
    /// node cut through its centre: its four in-plane children tile it).
    pub fn is_full(&self) -> bool {
        self.area == self.bound().area_units()
    }
}

#[derive(Clone, Copy, Debug)]
struct Node {
    cx: i64,
    cy: i64,
    cz: i64,
    depth: u32,
}

/// Iterator over the diamonds of a section, depth first (see [`Cut::diamonds`]).
///
/// Memory is O(n) whatever the section's size: use it to stream a huge section.
#[derive(Clone, Debug)]
pub struct Diamonds {
    cut: Cut,
    stack: Vec<Node>,
}

impl Iterator for Diamonds {
    type Item = Diamond;

    fn next(&mut self) -> Option<Diamond> {
        let mut kids = [Node {
            cx: 0,
            cy: 0,
            cz: 0,
            depth: 0,
        }; 6];
        while let Some(node) = self.stack.pop() {
            if node.depth == self.cut.order {
                return Some(self.cut.leaf(&node));
            }
            let mut k = 0;
            self.cut.children(&node, &mut |child| {
                kids[k] = child;
                k += 1;
            });
            // Reverse so the first child is popped first.
            self.stack.extend(kids[..k].iter().rev());
        }
        None
    }
}

/// The exact number of diamonds of S_n at `level`, in O(n), saturating at u128::MAX.
pub fn count_diamonds(n: u32, level: Level) -> Result<u128> {
    let cut = Cut::new(n, level)?;
    Ok(cut
        .depth_states()
        .iter()
        .map(|&(_, c)| c)
        .fold(0u128, u128::saturating_add))
}

/// The exact area of the section of S_n at `level` as `(numerator, D)`:
/// area = numerator / D², computed in O(n) without listing diamonds.
pub fn exact_area(n: u32, level: Level) -> Result<(u128, i64)> {
    let cut = Cut::new(n, level)?;
    let rho = cut.radius(n) as u128;
    let area = cut
        .depth_states()
        .iter()
        .map(|&(offset, count)| {
            let h = rho - offset.unsigned_abs() as u128;
            count.saturating_mul(2 * h * h)
        })
        .fold(0u128, u128::saturating_add);
    Ok((area, cut.scale))
}

/// The coarsest order k <= n whose octahedra are no larger than `feature`
/// (an L1 radius in units of the unit octahedron, e.g. one pixel's size).
///
/// Level of detail for drawing only: the section of S_k contains that of S_n
/// and differs from it only inside octahedra of radius 2^-k <= `feature`, so
/// where the section lies is right to within that size. Its *area* is not:
/// S_n's shrinks with n (at r = 0.37, S_30's is 1/400 of S_11's), which is
/// why pictures draw S_k — S_n's own share of each pixel would fade to white.
/// Never used for data output; it makes a section of S_30 at any level cheap
/// to draw (about 3^k diamonds instead of about 3^30).
pub fn detail_order(n: u32, feature: f64) -> u32 {
    if feature.is_nan() || feature <= 0.0 {
        return n;
    }
    let mut k = 0;
    while k < n && 0.5f64.powi(k as i32) > feature {
        k += 1;
    }
    k
}

/// A section held in memory: the diamonds of S_n ∩ {z = 1 - r}, exact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    cut: Cut,
    diamonds: Vec<Diamond>,
}

/// Bytes per stored diamond, for the up-front memory estimate.
const DIAMOND_BYTES: u64 = std::mem::size_of::<Diamond>() as u64;

impl Section {
    /// Computes the section of S_n at `level`, refusing (before any work) if
    /// its diamonds would need more than `memory_limit` bytes.
    ///
    /// The diamonds come in the walk's fixed depth-first order (the order of
    /// [`Cut::diamonds`]); the work is sequential and about linear in the
    /// number of diamonds (a few ns each).
    ///
    /// Under `control`, as [`Cut::for_each`].
    pub fn compute(n: u32, level: Level, memory_limit: u64, control: &Control) -> Result<Section> {
        let cut = Cut::new(n, level)?;
        let count = count_diamonds(n, level)?;
        let needed =
            u64::try_from(count.saturating_mul(u128::from(DIAMOND_BYTES))).unwrap_or(u64::MAX);
        check_memory(
            || format!("the section of S_{n} at r = {level} ({count} diamonds)"),
            needed,
            memory_limit,
            "choose a level nearer the apex (small r), a smaller `n`, or draw with level of detail",
        )?;
        let mut diamonds = Vec::with_capacity(count as usize);
        cut.for_each(|d| diamonds.push(d), control)?;
        debug_assert_eq!(diamonds.len() as u128, count);
        Ok(Section { cut, diamonds })
    }

    /// The frame: order, level, denominator D, plane height.
    pub fn cut(&self) -> &Cut {
        &self.cut
    }

    /// The diamonds, in units of 1/D.
    pub fn diamonds(&self) -> &[Diamond] {
        &self.diamonds
    }

    /// The diamonds as squares in u = x + y, v = x - y (units of 1/D).
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.diamonds.iter().map(Diamond::square)
    }

    /// The exact area as `(numerator, D)`: area = numerator / D².
    pub fn area(&self) -> (u128, i64) {
        let sum = self.diamonds.iter().map(Diamond::area_units).sum();
        (sum, self.cut.scale)
    }

    /// The section turned by 45° onto a board, when it is one: all diamonds of
    /// one size 2h on a grid that tiles the section's square |u|, |v| <= r.
    /// See [`board_cell`] for the orientation. `None` at other levels.
    pub fn aligned(&self) -> Option<BitGrid> {
        let h = self.diamonds.first()?.h;
        let extent = (self.cut.scale - self.cut.plane).abs(); // r in units
        if self.diamonds.iter().any(|d| d.h != h) || extent % h != 0 {
            return None;
        }
        let k = (extent / h) as usize;
        let mut grid = BitGrid::new(k, k);
        for d in &self.diamonds {
            let (row, col) = board_cell(d.square(), extent, h)?;
            grid.set(row, col, true);
        }
        Some(grid)
    }
}

/// The board cell (0-based row, col) of a square of half-side `h` in a
/// section whose square is |u|, |v| <= `extent`: u runs left to right along
/// the columns and v runs bottom to top (row 0 is the largest v), cells of
/// side 2h. `None` if the square is not exactly one cell.
pub fn board_cell(square: Square, extent: i64, h: i64) -> Option<(usize, usize)> {
    let col = square.cu + extent - h;
    let row = extent - h - square.cv;
    let side = 2 * h;
    let k = extent / h;
    if col < 0 || row < 0 || col % side != 0 || row % side != 0 {
        return None;
    }
    let (row, col) = (row / side, col / side);
    (row < k && col < k).then_some((row as usize, col as usize))
}

/// H(n, m) turned by 45° onto the m x m board: the cells its diamonds occupy.
///
/// At an integer level every cut octahedron is cut through its centre, so all
/// diamonds have half-diagonal 2^-n; in (u, v) they are squares of side
/// 2·2^-n tiling the square |u|, |v| <= m/2^n, i.e. an m x m grid. Streams the
/// diamonds ([`Cut::for_each`]), so memory is about the m x m bits only (checked against
/// `memory_limit`). The result equals P(m, m); orientation as in
/// [`board_cell`] (P(m, m) has all the square's symmetries, so any
/// orientation would match).
///
/// Under `control`: progress in diamonds (the P-cells), checked
/// every 65536 of them.
pub fn aligned_cells(n: u32, m: u64, memory_limit: u64, control: &Control) -> Result<BitGrid> {
    let level = Level::integer(n, m)?;
    let cut = Cut::new(n, level)?;
    let side = m as u128;
    check_memory(
        || format!("the {m} x {m} aligned section of S_{n}"),
        u64::try_from(side * side.div_ceil(64) * 8).unwrap_or(u64::MAX),
        memory_limit,
        "choose a smaller `level`",
    )?;
    let extent = cut.scale - cut.plane;
    let h = cut.radius(n);
    let mut grid = BitGrid::new(m as usize, m as usize);
    let count: u128 = cut.depth_states().iter().map(|&(_, c)| c).sum();
    control.add_total(u64::try_from(count).unwrap_or(u64::MAX));
    let mut ticker = Ticker::new(control, DIAMONDS_PER_CHECK);
    for d in cut.diamonds() {
        ticker.tick(1)?;
        let cell = (d.h == h)
            .then(|| board_cell(d.square(), extent, h))
            .flatten();
        let (row, col) = cell.expect("an integer-level diamond is one board cell");
        grid.set(row, col, true);
    }
    ticker.flush()?;
    Ok(grid)
}
