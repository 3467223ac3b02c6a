//! How much of each pixel a section covers, computed from the pruned walk
//! instead of from a list of diamonds.
//!
//! The one idea: a pixel only needs the *area* of the section inside it, and
//! the model knows the exact area below every cut octahedron
//! ([`Cut::subtree_areas`]). So the walk ([`Cut::walk`]) stops at the first
//! node whose answer no longer depends on the detail below it:
//!
//! * a node inside one pixel adds its exact area to that pixel;
//! * a node whose section fills its bounding diamond (a leaf, or an
//!   octahedron cut through its centre) is painted as that diamond, with
//!   exact polygon coverage;
//! * a node at least a pixel in radius whose section is all but full or all but
//!   empty — A·(F − A)/F ≤ [`DELTA`] of a pixel, F = 2h² the diamond's area —
//!   is painted as its diamond at the uniform density A/F.
//!
//! Everything else is walked into; below a few levels above the leaves the
//! walk hands over to a flat list of each node's leaves, each split over the
//! (at most four) pixels it meets in closed form.
//!
//! The bound. The first two rules are exact. For the third, let S be the
//! node's section, D its diamond, A = |S|, F = |D|, and for a pixel p let
//! a = |D ∩ p|, s = |S ∩ p|. Since S ⊆ D, max(0, a − (F − A)) ≤ s ≤ min(a, A),
//! and either end differs from the painted (A/F)·a by at most A·(F − A)/F,
//! which the rule keeps under DELTA of a pixel. Such nodes are disjoint and
//! at least a pixel in radius, so each contains a copy one pixel in radius that
//! still meets p (shrink it towards a common point); those copies have area 2
//! and lie within L1-distance 2 of the unit pixel (area 17), so at most 8
//! meet p (aligned: squares of area 4 in the 5 x 5 box, at most 6). Every
//! pixel's coverage is therefore within 8·DELTA = 1/1024 of its exact share,
//! before the caller rounds it to shades (plus float rounding, about 1e-10).
//!
//! The pixels are filled by a signed-area accumulation buffer (the technique
//! of font-rs and ab_glyph_rasterizer: each edge adds its signed area and
//! cover to the cells it crosses, a prefix sum along each row gives the
//! coverage). It is written here rather than taken from ab_glyph_rasterizer
//! because that crate can neither weight a polygon (the density A/F) nor take
//! an area straight into one pixel; disjoint shapes simply add. Bands of rows
//! ([`shades`]) are computed independently, each in the walk's fixed order,
//! so the result is the same bytes whatever the thread count.

use crate::octahedron::section::{Cut, CutNode};

/// The largest error, in pixels of area, a node painted at uniform density
/// may make on one pixel; at most 8 such nodes meet a pixel (module docs).
pub const DELTA: f64 = 1.0 / 8192.0;

/// Where a section's plane lands on a grid of pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelFrame {
    /// Columns of the grid.
    pub cols: usize,
    /// Rows of the grid.
    pub rows: usize,
    /// Pixel position (x right, y down) of the plane's origin x = y = 0.
    pub origin: (f64, f64),
    /// Pixels per unit length across and down (equal for square pixels).
    pub scale: (f64, f64),
    /// Show (u, v) = (x + y, x - y) across and up, where diamonds are
    /// squares, instead of (x, y).
    pub align: bool,
}

/// The coverage of every pixel of a [`PixelFrame`], and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Coverage {
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
    /// Fraction of each pixel covered, in [0, 1], row-major.
    pub values: Vec<f64>,
    /// Nodes of the walk met (each costs a few ns plus what it paints).
    pub nodes: u64,
    /// Leaves taken from stamps below the walk (about 15 ns each).
    pub leaves: u64,
    /// Nodes painted at a uniform density short of full (the only inexact rule).
    pub approximated: u64,
}

/// Bytes per pixel while a coverage is computed: the accumulation buffer
/// and the finished values.
pub const BYTES_PER_PIXEL: u64 = 16;

/// Rows [`shades`] computes at a time: a band 4000 px wide holds 4 MB
/// where the whole panel's buffers would hold 256 MB, and nodes taller than a
/// band (the few big ones) are only met again by each band they reach.
pub const BAND_ROWS: usize = 64;

/// A coverage rounded to one byte per pixel, and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Shades {
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
    /// One byte per pixel, row-major.
    pub indices: Vec<u8>,
    /// Nodes of the walk met, over all bands.
    pub nodes: u64,
    /// Leaves taken from stamps, over all bands.
    pub leaves: u64,
    /// Nodes painted at a uniform density, over all bands.
    pub approximated: u64,
}

/// Bytes [`shades`] holds at its peak for a grid of `cols` x `rows`.
pub fn shades_bytes(cols: usize, rows: usize) -> u64 {
    let bands = rows.div_ceil(BAND_ROWS).min(rayon::current_num_threads()) as u64;
    let band = (cols as u64 * BAND_ROWS.min(rows) as u64).saturating_mul(BYTES_PER_PIXEL);
    (cols as u64 * rows as u64).saturating_add(band.saturating_mul(bands))
}

/// [`coverage`] band by band of [`BAND_ROWS`] rows, in parallel, each pixel
/// turned into a byte by `shade` as soon as its band is done. A band is
/// computed the same way whichever thread takes it, so the bytes do not
/// depend on the thread count.
pub fn shades(cut: &Cut, frame: &PixelFrame, shade: impl Fn(f64) -> u8 + Sync) -> Shades {
    use rayon::prelude::*;
    let mut indices = vec![0u8; frame.cols * frame.rows];
    let costs: Vec<(u64, u64, u64)> = indices
        .par_chunks_mut((frame.cols * BAND_ROWS).max(1))
        .enumerate()
        .map(|(band, out)| {
            let first = band * BAND_ROWS;
            let band = PixelFrame {
                rows: out.len() / frame.cols,
                origin: (frame.origin.0, frame.origin.1 - first as f64),
                ..*frame
            };
            let covered = coverage(cut, &band);
            for (index, &value) in out.iter_mut().zip(&covered.values) {
                *index = shade(value);
            }
            (covered.nodes, covered.leaves, covered.approximated)
        })
        .collect();
    let sum = |pick: fn(&(u64, u64, u64)) -> u64| costs.iter().map(pick).sum();
    Shades {
        cols: frame.cols,
        rows: frame.rows,
        indices,
        nodes: sum(|c| c.0),
        leaves: sum(|c| c.1),
        approximated: sum(|c| c.2),
    }
}

/// Columns of room left and right of the grid, so shapes that reach a little
/// past it (rounded panel edges) are still accumulated exactly.
const MARGIN: usize = 2;

/// Levels above the leaves where the walk hands over to a precomputed list
/// of each node's leaves ([`Cut::sections_below`]): the last levels hold most
/// nodes, and a flat loop over at most 5^3 leaves costs far less per leaf
/// than the walk does per node.
const STAMP_LEVELS: u32 = 3;

/// The leaves below a node, relative to its centre.
struct Stamp {
    leaves: Vec<Leaf>,
    /// Every leaf is at most a pixel across.
    small: bool,
}

/// A leaf of a stamp, relative to its node's centre, in pixels.
struct Leaf {
    dx: f64,
    dy: f64,
    rx: f64,
    ry: f64,
    /// 1/rx and 1/ry, divided once per stamp rather than once per leaf.
    inverse: (f64, f64),
    /// Its area as a fraction of a pixel.
    coverage: f64,
}

/// Computes the coverage of `cut`'s section on `frame`'s pixels.
pub fn coverage(cut: &Cut, frame: &PixelFrame) -> Coverage {
    let mut buffer = Accumulation::new(frame.cols, frame.rows);
    let d = cut.scale() as f64;
    let (kx, ky) = (frame.scale.0 / d, frame.scale.1 / d);
    // Coverage of one unit of area (1/D², in the plane): a pixel in (u, v)
    // holds half the plane's area of one in (x, y).
    let per_area = if frame.align { 2.0 } else { 1.0 } * kx * ky;
    let to_pixels = |cx: i64, cy: i64| {
        let (a, b) = if frame.align {
            (cx + cy, cx - cy)
        } else {
            (cx, cy)
        };
        (a as f64 * kx, -(b as f64) * ky)
    };
    let stamp_depth = cut.order().saturating_sub(STAMP_LEVELS);
    let stamps: Vec<(i64, Stamp)> = cut
        .sections_below(stamp_depth)
        .into_iter()
        .map(|(offset, diamonds)| {
            let leaves = diamonds
                .iter()
                .map(|leaf| {
                    let (dx, dy) = to_pixels(leaf.cx, leaf.cy);
                    let (rx, ry) = (leaf.h as f64 * kx, leaf.h as f64 * ky);
                    Leaf {
                        dx,
                        dy,
                        rx,
                        ry,
                        inverse: (1.0 / rx, 1.0 / ry),
                        coverage: leaf.area_units() as f64 * per_area,
                    }
                })
                .collect::<Vec<Leaf>>();
            let small = leaves.iter().all(|leaf| leaf.rx <= 0.5 && leaf.ry <= 0.5);
            (offset, Stamp { leaves, small })
        })
        .collect();
    let (cols, rows) = (frame.cols as f64, frame.rows as f64);
    let (mut nodes, mut leaves, mut approximated) = (0u64, 0u64, 0u64);
    cut.walk(
        |node: &CutNode| {
            nodes += 1;
            let (dx, dy) = to_pixels(node.cx, node.cy);
            let (x, y) = (frame.origin.0 + dx, frame.origin.1 + dy);
            let (rx, ry) = (node.h as f64 * kx, node.h as f64 * ky);
            if x + rx <= 0.0 || x - rx >= cols || y + ry <= 0.0 || y - ry >= rows {
                return false;
            }
            let shape = Shape {
                x,
                y,
                rx,
                ry,
                inverse: (1.0 / rx, 1.0 / ry),
                square: frame.align,
            };
            if node.is_full() {
                buffer.full_shape(&shape, node.area as f64 * per_area);
                return false;
            }
            let (col, row) = (floor(x - rx), floor(y - ry));
            if x + rx <= col + 1.0 && y + ry <= row + 1.0 {
                buffer.deposit(col, row, node.area as f64 * per_area);
                return false;
            }
            if rx >= 1.0 && ry >= 1.0 {
                let full = node.bound().area_units();
                let (area, gap) = (node.area as f64, (full - node.area) as f64);
                if area * gap / full as f64 * per_area <= DELTA {
                    buffer.shape(&shape, area / full as f64);
                    approximated += 1;
                    return false;
                }
            }
            if node.depth == stamp_depth {
                let (_, stamp) = stamps
                    .iter()
                    .find(|(o, _)| *o == node.offset)
                    .expect("every cut octahedron's offset has a stamp");
                leaves += stamp.leaves.len() as u64;
                if stamp.small {
                    if frame.align {
                        buffer.small_leaves::<true>(x, y, &stamp.leaves);
                    } else {
                        buffer.small_leaves::<false>(x, y, &stamp.leaves);
                    }
                    return false;
                }
                for leaf in &stamp.leaves {
                    let shape = Shape {
                        x: x + leaf.dx,
                        y: y + leaf.dy,
                        rx: leaf.rx,
                        ry: leaf.ry,
                        inverse: leaf.inverse,
                        square: frame.align,
                    };
                    buffer.full_shape(&shape, leaf.coverage);
                }
                return false;
            }
            true
        },
        // Bands are short and many, and their own progress would swamp the
        // figure's: the walk runs under a control of its own.
        &crate::Control::default(),
    )
    .expect("a Control nobody holds is never cancelled");
    Coverage {
        cols: frame.cols,
        rows: frame.rows,
        values: buffer.finish(),
        nodes,
        leaves,
        approximated,
    }
}

/// A node's diamond on the grid: |X - x|/rx + |Y - y|/ry <= 1, or the
/// rectangle |X - x| <= rx, |Y - y| <= ry when `square`.
struct Shape {
    x: f64,
    y: f64,
    rx: f64,
    ry: f64,
    /// 1/rx and 1/ry.
    inverse: (f64, f64),
    square: bool,
}

/// Signed area and cover per cell, row by row; a prefix sum along a row
/// turns it into coverage.
struct Accumulation {
    cols: usize,
    rows: usize,
    stride: usize,
    cells: Vec<f64>,
    /// Areas put straight into single pixels, added after the prefix sums.
    direct: Vec<f64>,
}

impl Accumulation {
    fn new(cols: usize, rows: usize) -> Accumulation {
        let stride = cols + 2 * MARGIN + 1;
        Accumulation {
            cols,
            rows,
            stride,
            cells: vec![0.0; stride * rows],
            direct: vec![0.0; cols * rows],
        }
    }

    /// Adds `amount` (a fraction of a pixel) to pixel (`col`, `row`) alone;
    /// nothing outside the grid.
    fn deposit(&mut self, col: f64, row: f64, amount: f64) {
        if col >= 0.0 && row >= 0.0 && col < self.cols as f64 && row < self.rows as f64 {
            self.direct[row as usize * self.cols + col as usize] += amount;
        }
    }

    /// Adds a filled shape of `coverage` pixels of area: straight into its
    /// pixel when it lies inside one, in closed form when it is at most a
    /// pixel across, edge by edge otherwise.
    fn full_shape(&mut self, shape: &Shape, coverage: f64) {
        let (col, row) = (floor(shape.x - shape.rx), floor(shape.y - shape.ry));
        if shape.x + shape.rx <= col + 1.0 && shape.y + shape.ry <= row + 1.0 {
            self.deposit(col, row, coverage);
        } else if shape.rx <= 0.5 && shape.ry <= 0.5 {
            self.small_shape(shape);
        } else {
            self.shape(shape, 1.0);
        }
    }

    /// Adds the coverage of a shape at most one pixel across, which meets at
    /// most one column edge and one row edge: the exact areas of its (up to)
    /// four pieces, in closed form, go straight into their pixels.
    fn small_shape(&mut self, shape: &Shape) {
        let Shape { x, y, rx, ry, .. } = *shape;
        let (col, row) = (floor(x - rx), floor(y - ry));
        // The pixel edges inside the shape, relative to its centre.
        let t = ((col + 1.0 - x) * shape.inverse.0).min(1.0);
        let s = ((row + 1.0 - y) * shape.inverse.1).min(1.0);
        let pieces = if shape.square {
            pieces::<true>(t, s)
        } else {
            pieces::<false>(t, s)
        };
        for (k, piece) in pieces.into_iter().enumerate() {
            let (dc, dr) = ((k % 2) as f64, (k / 2) as f64);
            self.deposit(col + dc, row + dr, piece * rx * ry);
        }
    }

    /// [`Accumulation::small_shape`] for every leaf of a stamp centred at
    /// (`x`, `y`), all at most a pixel across: the loop that decides the
    /// worst-case time, so the shape is fixed by `SQUARE` and a leaf whose
    /// 2 x 2 block is inside the grid (nearly all) is written without tests.
    fn small_leaves<const SQUARE: bool>(&mut self, x: f64, y: f64, leaves: &[Leaf]) {
        let cols = self.cols;
        let (last_col, last_row) = (cols as f64 - 1.0, self.rows as f64 - 1.0);
        for leaf in leaves {
            let (lx, ly) = (x + leaf.dx, y + leaf.dy);
            let (col, row) = (floor(lx - leaf.rx), floor(ly - leaf.ry));
            let t = ((col + 1.0 - lx) * leaf.inverse.0).min(1.0);
            let s = ((row + 1.0 - ly) * leaf.inverse.1).min(1.0);
            let area = leaf.rx * leaf.ry;
            let [here, right, below, both] = pieces::<SQUARE>(t, s).map(|piece| piece * area);
            if col >= 0.0 && row >= 0.0 && col < last_col && row < last_row {
                let at = row as usize * cols + col as usize;
                let block = &mut self.direct[at..at + cols + 2];
                block[0] += here;
                block[1] += right;
                block[cols] += below;
                block[cols + 1] += both;
            } else {
                self.deposit(col, row, here);
                self.deposit(col + 1.0, row, right);
                self.deposit(col, row + 1.0, below);
                self.deposit(col + 1.0, row + 1.0, both);
            }
        }
    }

    /// Adds `weight` times the coverage of `shape`.
    fn shape(&mut self, shape: &Shape, weight: f64) {
        let Shape { x, y, rx, ry, .. } = *shape;
        // Anticlockwise on screen (y down): left edges go down and add cover.
        if shape.square {
            self.line((x - rx, y - ry), (x - rx, y + ry), weight);
            self.line((x + rx, y + ry), (x + rx, y - ry), weight);
        } else {
            let (top, left, bottom, right) = ((x, y - ry), (x - rx, y), (x, y + ry), (x + rx, y));
            self.line(top, left, weight);
            self.line(left, bottom, weight);
            self.line(bottom, right, weight);
            self.line(right, top, weight);
        }
    }

    /// One edge: each row it crosses gets its height times the part of each
    /// cell to the edge's right (font-rs's scheme, in f64 and weighted).
    fn line(&mut self, p0: (f64, f64), p1: (f64, f64), weight: f64) {
        if p0.1 == p1.1 {
            return;
        }
        let (dir, p0, p1) = if p0.1 < p1.1 {
            (weight, p0, p1)
        } else {
            (-weight, p1, p0)
        };
        // Buffer x: the grid starts MARGIN cells in; anything further out is
        // clamped onto the buffer's edge columns.
        let limit = (self.stride - 1) as f64;
        let shift = MARGIN as f64;
        let dxdy = (p1.0 - p0.0) / (p1.1 - p0.1);
        let first = p0.1.max(0.0);
        let last = p1.1.min(self.rows as f64);
        if first >= last {
            return;
        }
        let mut x = p0.0 + (first - p0.1) * dxdy + shift;
        for row in floor(first) as usize..-floor(-last) as usize {
            let top = (row as f64).max(p0.1);
            let bottom = ((row + 1) as f64).min(p1.1);
            let dy = bottom - top;
            let next = x + dxdy * dy;
            let d = dy * dir;
            let line = &mut self.cells[row * self.stride..(row + 1) * self.stride];
            let (x0, x1) = if x < next { (x, next) } else { (next, x) };
            let (x0, x1) = (x0.clamp(0.0, limit - 1.0), x1.clamp(0.0, limit - 1.0));
            let x0floor = floor(x0);
            let x0i = x0floor as usize;
            let x1ceil = -floor(-x1);
            let x1i = x1ceil as usize;
            if x1i <= x0i + 1 {
                // Within one cell: the part to the right of the mid-point.
                let xmf = 0.5 * (x0 + x1) - x0floor;
                line[x0i] += d - d * xmf;
                line[x0i + 1] += d * xmf;
            } else {
                let s = 1.0 / (x1 - x0);
                let x0f = x0 - x0floor;
                let a0 = 0.5 * s * (1.0 - x0f) * (1.0 - x0f);
                let x1f = x1 - x1ceil + 1.0;
                let am = 0.5 * s * x1f * x1f;
                line[x0i] += d * a0;
                if x1i == x0i + 2 {
                    line[x0i + 1] += d * (1.0 - a0 - am);
                } else {
                    let a1 = s * (1.5 - x0f);
                    line[x0i + 1] += d * (a1 - a0);
                    for cell in &mut line[x0i + 2..x1i - 1] {
                        *cell += d * s;
                    }
                    let a2 = a1 + (x1i - x0i - 3) as f64 * s;
                    line[x1i - 1] += d * (1.0 - a2 - am);
                }
                line[x1i] += d * am;
            }
            x = next;
        }
    }

    /// The coverage of each grid pixel, clamped to [0, 1].
    fn finish(self) -> Vec<f64> {
        let mut values = self.direct;
        if self.cols == 0 {
            return values;
        }
        for (line, out) in self
            .cells
            .chunks_exact(self.stride)
            .zip(values.chunks_exact_mut(self.cols))
        {
            let mut sum: f64 = line[..MARGIN].iter().sum();
            for (cell, value) in line[MARGIN..MARGIN + self.cols].iter().zip(out) {
                sum += cell;
                *value = (*value + sum).clamp(0.0, 1.0);
            }
        }
        values
    }
}

/// `v.floor()` for the grid's coordinates, without the libm call that
/// `f64::floor` becomes on x86-64 without SSE4.1 (a fifth of the time here).
fn floor(v: f64) -> f64 {
    let truncated = v as i64 as f64;
    if truncated > v {
        truncated - 1.0
    } else {
        truncated
    }
}

/// The four pieces a shape centred at the origin with radii 1 (times
/// rx·ry) is cut into by the column edge p = t and the row edge q = s, for
/// t, s in (-1, 1]: before both, beyond the column edge only, beyond the row
/// edge only, beyond both. The diamond |p| + |q| <= 1 has area 2, the square
/// |p|, |q| <= 1 area 4.
///
/// Computed for the edges mirrored to |t|, |s| (where the pieces beyond are a
/// strip (1 - |t|)² and a corner triangle) and mirrored back by swapping
/// pieces, with selects rather than branches: the signs follow the pixel
/// grid, so a branch on them would be mispredicted about every other time.
#[inline(always)]
fn pieces<const SQUARE: bool>(t: f64, s: f64) -> [f64; 4] {
    let (a, b) = (t.abs(), s.abs());
    let (whole, far_p, far_q, far_both) = if SQUARE {
        let (p, q) = (1.0 - a, 1.0 - b);
        (4.0, 2.0 * p, 2.0 * q, p * q)
    } else {
        let corner = (1.0 - a - b).max(0.0);
        (
            (2.0),
            (1.0 - a) * (1.0 - a),
            (1.0 - b) * (1.0 - b),
            0.5 * corner * corner,
        )
    };
    let near = whole - far_p - far_q + far_both;
    let (only_p, only_q) = (far_p - far_both, far_q - far_both);
    // Rows of the pixel block, before and beyond the row edge.
    let (top, bottom) = if t < 0.0 {
        ([only_p, near], [far_both, only_q])
    } else {
        ([near, only_p], [only_q, far_both])
    };
    let (top, bottom) = if s < 0.0 {
        (bottom, top)
    } else {
        (top, bottom)
    };
    [top[0], top[1], bottom[0], bottom[1]]
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::octahedron::level::Level;
    use crate::octahedron::section::exact_area;

    /// The part of `polygon` where `side(p) >= 0`, for a linear `side`
    /// (one step of Sutherland–Hodgman).
    fn clip(polygon: &[(f64, f64)], side: impl Fn((f64, f64)) -> f64) -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        for (k, &a) in polygon.iter().enumerate() {
            let b = polygon[(k + 1) % polygon.len()];
            let (fa, fb) = (side(a), side(b));
            if fa >= 0.0 {
                out.push(a);
            }
            if (fa >= 0.0) != (fb >= 0.0) {
                let t = fa / (fa - fb);
                out.push((a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)));
            }
        }
        out
    }

    fn area(polygon: &[(f64, f64)]) -> f64 {
        let twice: f64 = (0..polygon.len())
            .map(|k| {
                let (a, b) = (polygon[k], polygon[(k + 1) % polygon.len()]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum();
        twice.abs() / 2.0
    }

    /// The slow reference: every diamond of the cut, clipped against every
    /// pixel it may meet, areas added.
    pub(crate) fn reference(cut: &Cut, frame: &PixelFrame) -> Vec<f64> {
        let d = cut.scale() as f64;
        let (kx, ky) = (frame.scale.0 / d, frame.scale.1 / d);
        let to_pixel = |[x, y]: [i64; 2]| {
            let (a, b) = if frame.align { (x + y, x - y) } else { (x, y) };
            (
                frame.origin.0 + a as f64 * kx,
                frame.origin.1 - b as f64 * ky,
            )
        };
        let mut out = vec![0.0; frame.cols * frame.rows];
        for diamond in cut.diamonds() {
            let corners = diamond.corners().map(to_pixel);
            let span = |pick: fn(&(f64, f64)) -> f64, limit: usize| {
                let lo = corners.iter().map(pick).fold(f64::MAX, f64::min);
                let hi = corners.iter().map(pick).fold(f64::MIN, f64::max);
                (lo.floor().max(0.0) as usize)..(hi.ceil().min(limit as f64).max(0.0) as usize)
            };
            for row in span(|p| p.1, frame.rows) {
                for col in span(|p| p.0, frame.cols) {
                    let (c, r) = (col as f64, row as f64);
                    let piece = clip(&corners, |p| p.0 - c);
                    let piece = clip(&piece, |p| c + 1.0 - p.0);
                    let piece = clip(&piece, |p| p.1 - r);
                    let piece = clip(&piece, |p| r + 1.0 - p.1);
                    if piece.len() >= 3 {
                        out[row * frame.cols + col] += area(&piece);
                    }
                }
            }
        }
        out
    }

    /// Largest difference between the coverage and the reference, and the
    /// coverage's total against the exact area when the section is inside.
    fn compare(cut: &Cut, frame: &PixelFrame) -> (Coverage, f64) {
        let covered = coverage(cut, frame);
        let exact = reference(cut, frame);
        let worst = covered
            .values
            .iter()
            .zip(&exact)
            .map(|(c, e)| (c - e).abs())
            .fold(0.0, f64::max);
        (covered, worst)
    }

    fn frames(level: Level) -> Vec<PixelFrame> {
        let mut frames = Vec::new();
        // Square pixels fitting the section; non-square pixels off-centre as on
        // paper; a grid the section touches at its edges; a tiny one.
        for (cols, rows, stretch, shift) in [
            (37, 37, (1.0, 1.0), (0.0, 0.0)),
            (50, 43, (1.013, 0.987), (0.37, -0.41)),
            (160, 160, (1.0, 1.0), (0.0, 0.0)),
            (8, 8, (1.0, 1.0), (0.2, 0.3)),
        ] {
            let k = cols.min(rows) as f64 / 2.0 / level.r().max(1e-9);
            for align in [false, true] {
                frames.push(PixelFrame {
                    cols,
                    rows,
                    origin: (cols as f64 / 2.0 + shift.0, rows as f64 / 2.0 + shift.1),
                    scale: (k * stretch.0, k * stretch.1),
                    align,
                });
            }
        }
        frames
    }

    #[test]
    fn coverage_is_the_exact_area_in_every_pixel() {
        for n in 2..=5u32 {
            let top = 1u64 << n;
            let mut levels: Vec<Level> = (1..=top).map(|m| Level::integer(n, m).unwrap()).collect();
            levels.extend((0..top).map(|m| Level::half(n, m).unwrap()));
            for text in ["0.37", "0.4999", "0.5001", "1/3", "0.01", "0.999"] {
                levels.push(Level::parse_r(text).unwrap());
            }
            for level in levels {
                let cut = Cut::new(n, level).unwrap();
                for frame in frames(level) {
                    let (covered, worst) = compare(&cut, &frame);
                    // No node is approximated this coarse: every rule used is exact.
                    assert_eq!(covered.approximated, 0);
                    assert!(worst < 1e-9, "n={n} r={level} {frame:?}: off by {worst}");
                    let (num, d) = exact_area(n, level).unwrap();
                    let per_area =
                        if frame.align { 2.0 } else { 1.0 } * frame.scale.0 * frame.scale.1;
                    let total: f64 = covered.values.iter().sum();
                    let expected = num as f64 / (d as f64 * d as f64) * per_area;
                    if frame.cols == 160 {
                        assert!(
                            (total - expected).abs() < 1e-9 * expected.max(1.0),
                            "n={n} r={level}: total {total}, exact area {expected}"
                        );
                    }
                }
            }
        }
    }

    /// Near r = 1/2 with the plane a hair off the octahedra's centres, nodes
    /// are all but full and are painted at their density: the one inexact
    /// rule, within its bound.
    #[test]
    fn all_but_full_nodes_stay_within_the_bound() {
        for (n, text, side) in [
            (8, "536870911/1073741824", 160),
            (8, "805306367/1073741824", 300),
            (6, "268435455/536870912", 64),
        ] {
            let level = Level::parse_r(text).unwrap();
            let cut = Cut::new(n, level).unwrap();
            for align in [false, true] {
                let k = side as f64 / 2.0 / level.r();
                let frame = PixelFrame {
                    cols: side,
                    rows: side,
                    origin: (side as f64 / 2.0, side as f64 / 2.0),
                    scale: (k, k),
                    align,
                };
                let (covered, worst) = compare(&cut, &frame);
                assert!(covered.approximated > 0, "n={n} r={text}: rule not used");
                assert!(worst <= 8.0 * DELTA, "n={n} r={text}: off by {worst}");
            }
        }
    }

    #[test]
    fn the_closed_form_pieces_add_up_and_match_clipping() {
        for &t in &[-0.999, -0.6, -0.25, 0.0, 0.1, 0.5, 0.93, 1.0] {
            for &s in &[-0.8, -0.3, 0.0, 0.2, 0.7, 1.0] {
                let diamond = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
                let square = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
                for (shape, got) in [
                    (&diamond[..], pieces::<false>(t, s)),
                    (&square[..], pieces::<true>(t, s)),
                ] {
                    let before_p = |p: (f64, f64)| t - p.0;
                    let beyond_p = |p: (f64, f64)| p.0 - t;
                    let before_q = |p: (f64, f64)| s - p.1;
                    let beyond_q = |p: (f64, f64)| p.1 - s;
                    let want = [
                        area(&clip(&clip(shape, before_p), before_q)),
                        area(&clip(&clip(shape, beyond_p), before_q)),
                        area(&clip(&clip(shape, before_p), beyond_q)),
                        area(&clip(&clip(shape, beyond_p), beyond_q)),
                    ];
                    for (g, w) in got.iter().zip(want) {
                        assert!((g - w).abs() < 1e-12, "t={t} s={s}: {got:?} vs {want:?}");
                    }
                }
            }
        }
    }
}
