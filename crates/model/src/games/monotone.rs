//! The fast solver of capped games whose cap never decreases along `x` nor `z`
//! (the triangular bar, min-half, most expressions).
//!
//! As in the general solver (see `capped.rs`), the value at `(x, y, z)` is the mex of
//! three sets: `A`, the values below it in its column (`y`-moves); `B[z][y]`, the
//! values `x`-moves reach, `(t, min(y, cap(t, z)), z)` for `t < x`; `C[x][y]`, the
//! values `z`-moves reach. Three ideas make it fast:
//!
//! * **Clamped moves are a prefix.** With a monotone cap, the columns `t < x` whose
//!   cap is below `y` are exactly the first ones, and each gives its *top* value. So a
//!   line keeps one running set of tops, and row `y` of `B[z]` is created as a copy of
//!   it when the first column tall enough to reach `y` is solved; after that, every
//!   column adds its own value at `y`. Each position adds two bits, instead of every
//!   column writing every row of both lines (`O(cap)` per column, most of the old
//!   cost).
//! * **The mex skips full words.** Every bit set keeps a summary, one bit per 64-bit
//!   word that is full. Values of these games fill long runs, so the words where none
//!   of `A`, `B`, `C` is full are few: the search tests 1.7 words per position on
//!   average instead of scanning `(x + y + z) / 64` of them.
//! * **Tiles for the cache.** Columns are solved in 16 x 16 tiles, 32 rows of every
//!   column of the tile (row-major) before the next 32, so a line's rows are reused by
//!   16 columns while they are in the cache and a column's own set stays in L1. A
//!   tile needs only the tiles left of it and below it; the tiles of one
//!   anti-diagonal touch distinct lines and are solved in parallel with rayon. The
//!   order inside a tile is fixed, so every value (and every error) is the same
//!   whatever the thread count.

use rayon::prelude::*;

use super::columns::Columns;
use crate::error::check_memory;
use crate::{Control, Error, Result};

/// How a solve of the capped solvers treats the end of the game and a pass.
///
/// The only position with no move is `(0, 0, 0)` (from any other, some heap can be
/// lowered to 0): it is worth `terminal` (0, or 1 in misère play). With `passless`,
/// the values of the same table solved without a pass (laid out as this solve lays
/// its own out), each position's value is the mex of its options' values and of its
/// passless value: the value with the pass still available (see `docs/games.md`);
/// `(0, 0, 0)`, from which no pass is allowed, stays `terminal`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Rules<'a> {
    pub(super) terminal: u16,
    pub(super) passless: Option<&'a [u16]>,
    /// Bytes held besides the solve's own (the passless values), for the memory guard.
    pub(super) reserve: u64,
}

/// The value at row `y` of a column: `mex` (the least value in none of the sets)
/// under `rules` (see [`Rules`]): `terminal` at the origin, and with a pass the
/// least value in none of the sets and not the passless value `passless`.
#[inline(always)]
pub(super) fn ruled(
    mex: Option<usize>,
    origin: bool,
    terminal: u16,
    passless: Option<u16>,
    sets: [&[u64]; 3],
) -> Option<usize> {
    if origin {
        return Some(usize::from(terminal));
    }
    match (mex, passless) {
        (Some(g), Some(p)) if usize::from(p) == g => next_free(sets, g + 1),
        _ => mex,
    }
}

/// The least value from `from` on in none of the three sets (`a.len()` words; `b`
/// and `c` may be shorter, or empty for a family with no move); `None` past them.
fn next_free([a, b, c]: [&[u64]; 3], from: usize) -> Option<usize> {
    let word = |i: usize| a[i] | b.get(i).copied().unwrap_or(0) | c.get(i).copied().unwrap_or(0);
    let mut i = from / 64;
    if i >= a.len() {
        return None;
    }
    let mut w = word(i) | ((1u64 << (from % 64)) - 1);
    loop {
        if w != u64::MAX {
            return Some(i * 64 + w.trailing_ones() as usize);
        }
        i += 1;
        if i >= a.len() {
            return None;
        }
        w = word(i);
    }
}

/// Columns per tile side: 16 x 16 columns keep both families' lines of a tile in a
/// 1 MiB L2 cache for boxes up to about 1000.
const TILE: usize = 16;

/// Rows of a column solved in one go before the next column of the tile: the
/// column's own set stays in the L1 cache meanwhile.
const ROWS: usize = 32;

/// The most 64-bit words a set needs: values above 65535 are an error anyway, and
/// 1025 words hold 0..=65599, so an overflowing mex is still found (or missed, which is
/// reported the same way).
const MAX_WORDS: usize = 1025;

/// One clamped line (`B[z]` along `x`, or `C[x]` along `z`): row `y` is a bit set of
/// `w` words with a summary of `s` words, bit `i` set when word `i` is full.
struct Line {
    w: usize,
    s: usize,
    words: Vec<u64>,
    summary: Vec<u64>,
    /// The top values of the columns solved so far.
    tops: Vec<u64>,
    tops_summary: Vec<u64>,
    /// Rows `0..ready` exist (were copied from the tops).
    ready: usize,
}

impl Line {
    /// A line of `rows` rows of `w` words and summaries of `s` words (the same for
    /// every line, so the mex loop is unrolled for it); `w = 0` for a family with no
    /// move at all (the box is flat in that direction), which stores nothing.
    fn new(rows: usize, w: usize, s: usize) -> Line {
        let s = if w == 0 { 0 } else { s };
        Line {
            w,
            s,
            words: vec![0; rows * w],
            summary: vec![0; rows * s],
            tops: vec![0; w],
            tops_summary: vec![0; s],
            ready: 0,
        }
    }

    /// Bytes of a line of `rows` rows of `w` words and `s` summary words.
    fn bytes(rows: usize, w: usize, s: usize) -> u64 {
        let per_row = (w + if w == 0 { 0 } else { s }) as u64 * 8;
        per_row.saturating_mul(rows as u64 + 1)
    }

    /// Creates rows up to `c`: every column before the one asking has a cap below
    /// them (the cap is monotone), so they hold exactly the tops so far.
    fn materialize(&mut self, c: usize) {
        while self.ready <= c {
            let y = self.ready;
            self.words[y * self.w..(y + 1) * self.w].copy_from_slice(&self.tops);
            self.summary[y * self.s..(y + 1) * self.s].copy_from_slice(&self.tops_summary);
            self.ready += 1;
        }
    }
}

/// Sets bit `g` and keeps the summary.
#[inline(always)]
fn set(words: &mut [u64], summary: &mut [u64], g: usize) {
    let i = g / 64;
    let w = words[i] | (1 << (g % 64));
    words[i] = w;
    if w == u64::MAX {
        summary[i / 64] |= 1 << (i % 64);
    }
}

/// The most summary words: [`MAX_WORDS`] / 64, rounded up.
const SUMMARY_MAX: usize = MAX_WORDS.div_ceil(64);

/// Summary words for sets of at most `w` words: 1, 2, 4, 8 or [`SUMMARY_MAX`], the
/// sizes the mex loop is compiled for.
fn summary_words(w: usize) -> usize {
    match w.div_ceil(64) {
        0 | 1 => 1,
        2 => 2,
        3 | 4 => 4,
        5..=8 => 8,
        _ => SUMMARY_MAX,
    }
}

/// The least value in none of the three sets `a`, `b`, `c` (`a.len()` words each,
/// summaries of `S` words), searching only words full in none of them; `None` when
/// every word is full in their union.
#[inline(always)]
fn mex<const S: usize>([a, b, c]: [&[u64]; 3], [sa, sb, sc]: [&[u64; S]; 3]) -> Option<usize> {
    let w = a.len();
    let (b, c) = (&b[..w], &c[..w]);
    for k in 0..S {
        let mut cand = !(sa[k] | sb[k] | sc[k]);
        while cand != 0 {
            let i = k * 64 + cand.trailing_zeros() as usize;
            if i >= w {
                return None;
            }
            let word = a[i] | b[i] | c[i];
            if word != u64::MAX {
                return Some(i * 64 + word.trailing_ones() as usize);
            }
            cand &= cand - 1;
        }
    }
    None
}

/// Per-thread scratch: the set `A` of every column of a tile, and zeros standing for
/// a family with no moves.
struct Scratch {
    a: Vec<u64>,
    sum_a: Vec<u64>,
    zeros: Vec<u64>,
    columns: Vec<TileColumn>,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            a: Vec::new(),
            sum_a: Vec::new(),
            zeros: vec![0; MAX_WORDS],
            columns: Vec::with_capacity(TILE * TILE),
        }
    }
}

/// A column of the tile being solved.
struct TileColumn {
    /// Index of the line `B[z]` (`C[x]`) in the tile's lines.
    b: usize,
    c: usize,
    x: usize,
    z: usize,
    /// Height (cap) and start of its values in the tile's slice.
    cap: usize,
    start: usize,
    /// Words of its sets: its values are at most `x + y + z`.
    words: usize,
}

/// Solves one tile, row `y` of every column after row `y - 1` of every column: the
/// tile's rows of its 16 + 16 lines are read once per row from memory and then reused
/// from the cache by every column. The value at `(x, y, z)` needs only rows `y` of its
/// lines, its own column below `y`, and tops of columns of caps below `y`, all solved
/// before; so the order is exact. Returns the first position (in this order) whose
/// value does not fit `u16`.
#[allow(clippy::too_many_arguments)]
fn solve_tile(
    summary: usize,
    (tx, tz): (usize, usize),
    (nx, nz): (usize, usize),
    cap: &dyn Fn(usize, usize) -> usize,
    values: &mut [u16],
    lb: &mut [Line],
    lc: &mut [Line],
    scratch: &mut Scratch,
    (terminal, passless): (u16, Option<&[u16]>),
    control: &Control,
) -> std::result::Result<(), [u32; 3]> {
    let (x0, z0) = (tx * TILE, tz * TILE);
    let columns = &mut scratch.columns;
    columns.clear();
    let mut start = 0;
    let mut stride = 0;
    for (x, z) in tile_columns((tx, tz), (nx, nz)) {
        let c = cap(x, z);
        // A value is at most the number of options, x + y + z, plus one (a pass).
        let words = ((x + c + z + 1) / 64 + 1).min(MAX_WORDS);
        stride = stride.max(words);
        columns.push(TileColumn {
            b: z - z0,
            c: x - x0,
            x,
            z,
            cap: c,
            start,
            words,
        });
        start += c + 1;
    }
    let sum_stride = summary;
    let (a, sum_a) = (&mut scratch.a, &mut scratch.sum_a);
    a.clear();
    a.resize(columns.len() * stride, 0);
    sum_a.clear();
    sum_a.resize(columns.len() * sum_stride, 0);
    let top = columns.iter().map(|col| col.cap).max().unwrap_or(0);
    for block in (0..=top).step_by(ROWS) {
        // A block is at most 32 rows of 256 columns, well under a millisecond: a
        // cancelled solve stops here, and the caller reports it after the anti-diagonal
        // (the tile's values are then never read).
        if control.is_cancelled() {
            return Ok(());
        }
        for (j, col) in columns.iter().enumerate() {
            let rows = block..(block + ROWS).min(col.cap + 1);
            if rows.is_empty() {
                continue;
            }
            let (line_b, line_c) = (&mut lb[col.b], &mut lc[col.c]);
            let a = &mut a[j * stride..][..col.words];
            let sum_a = &mut sum_a[j * sum_stride..][..summary];
            let values = &mut values[col.start..][..col.cap + 1];
            let run = match summary {
                1 => run::<1>,
                2 => run::<2>,
                4 => run::<4>,
                8 => run::<8>,
                _ => run::<SUMMARY_MAX>,
            };
            let passless = passless.map(|p| &p[col.start..][..col.cap + 1]);
            run(
                col,
                rows,
                values,
                a,
                sum_a,
                line_b,
                line_c,
                &scratch.zeros,
                (terminal, passless),
            )?;
        }
    }
    Ok(())
}

/// Solves rows `rows` of one column of a tile (see [`solve_tile`]).
#[allow(clippy::too_many_arguments)]
fn run<const S: usize>(
    col: &TileColumn,
    rows: std::ops::Range<usize>,
    values: &mut [u16],
    a: &mut [u64],
    sum_a: &mut [u64],
    lb: &mut Line,
    lc: &mut Line,
    zeros: &[u64],
    (terminal, passless): (u16, Option<&[u16]>),
) -> std::result::Result<(), [u32; 3]> {
    let sum_a: &mut [u64; S] = sum_a.try_into().expect("S summary words");
    let origin = col.x == 0 && col.z == 0;
    let (y0, y1) = (rows.start, rows.end);
    let (has_b, has_c) = (lb.w > 0, lc.w > 0);
    if has_b {
        lb.materialize(y1 - 1);
    }
    if has_c {
        lc.materialize(y1 - 1);
    }
    let overflow = |y: usize| [col.x as u32, y as u32, col.z as u32];
    if has_b && has_c {
        // The common case, written as iterators over the rows so the loop has no
        // bounds checks but the set indices.
        let (wb, wc) = (lb.w, lc.w);
        let w_a = a.len();
        let rows = lb.words[y0 * wb..y1 * wb]
            .chunks_exact_mut(wb)
            .zip(lb.summary[y0 * S..y1 * S].chunks_exact_mut(S))
            .zip(lc.words[y0 * wc..y1 * wc].chunks_exact_mut(wc))
            .zip(lc.summary[y0 * S..y1 * S].chunks_exact_mut(S))
            .zip(&mut values[y0..y1]);
        for (y, ((((bw, bs), cw), cs), out)) in (y0..).zip(rows) {
            let bs: &mut [u64; S] = bs.try_into().expect("S summary words");
            let cs: &mut [u64; S] = cs.try_into().expect("S summary words");
            let (bw, cw) = (&mut bw[..w_a], &mut cw[..w_a]);
            let g = mex::<S>([a, bw, cw], [sum_a, bs, cs]);
            let g = ruled(
                g,
                origin && y == 0,
                terminal,
                passless.map(|p| p[y]),
                [a, bw, cw],
            );
            let Some(v) = g.and_then(|g| u16::try_from(g).ok()) else {
                return Err(overflow(y));
            };
            *out = v;
            let g = usize::from(v);
            set(a, sum_a, g);
            // Later columns (x' > x, ., z) reach (x, y, z) by an x-move, (x, ., z' > z)
            // by a z-move. The last column of a line adds too: nothing reads it again.
            set(bw, bs, g);
            set(cw, cs, g);
        }
    } else {
        // A box flat in x or in z: that family has no move, its set is empty.
        let zero_sum = [0u64; S];
        for y in rows {
            let (w_a, (wb, wc)) = (a.len(), (lb.w, lc.w));
            let g = {
                let (bw, bs): (&[u64], &[u64; S]) = if has_b {
                    (
                        &lb.words[y * wb..][..w_a],
                        lb.summary[y * S..][..S].try_into().expect("S"),
                    )
                } else {
                    (&zeros[..w_a], &zero_sum)
                };
                let (cw, cs): (&[u64], &[u64; S]) = if has_c {
                    (
                        &lc.words[y * wc..][..w_a],
                        lc.summary[y * S..][..S].try_into().expect("S"),
                    )
                } else {
                    (&zeros[..w_a], &zero_sum)
                };
                let g = mex::<S>([a, bw, cw], [sum_a, bs, cs]);
                ruled(
                    g,
                    origin && y == 0,
                    terminal,
                    passless.map(|p| p[y]),
                    [a, bw, cw],
                )
            };
            let Some(v) = g.and_then(|g| u16::try_from(g).ok()) else {
                return Err(overflow(y));
            };
            values[y] = v;
            let g = usize::from(v);
            set(a, sum_a, g);
            if has_b {
                set(
                    &mut lb.words[y * wb..][..wb],
                    &mut lb.summary[y * S..][..S],
                    g,
                );
            }
            if has_c {
                set(
                    &mut lc.words[y * wc..][..wc],
                    &mut lc.summary[y * S..][..S],
                    g,
                );
            }
        }
    }
    // At the top, every row above is reached too (clamped moves).
    if y1 == col.cap + 1 {
        let top = usize::from(values[col.cap]);
        if has_b {
            set(&mut lb.tops, &mut lb.tops_summary, top);
        }
        if has_c {
            set(&mut lc.tops, &mut lc.tops_summary, top);
        }
    }
    Ok(())
}

/// Widths (words) of the `B[z]` and `C[x]` lines and their row counts; a family with
/// no move gets width 0.
struct Shape {
    /// Summary words of every line.
    s: usize,
    rows_b: Vec<usize>,
    w_b: Vec<usize>,
    rows_c: Vec<usize>,
    w_c: Vec<usize>,
}

impl Shape {
    fn new([bx, _, bz]: [u32; 3], caps: &[u32]) -> Shape {
        let (nx, nz) = (bx as usize + 1, bz as usize + 1);
        // Monotone: the tallest column of a line is its last.
        let rows_b: Vec<usize> = (0..nz)
            .map(|z| caps[(nx - 1) * nz + z] as usize + 1)
            .collect();
        let rows_c: Vec<usize> = (0..nx)
            .map(|x| caps[x * nz + nz - 1] as usize + 1)
            .collect();
        let width = |sum: usize| (sum / 64 + 1).min(MAX_WORDS);
        let w_b: Vec<usize> = (0..nz)
            .map(|z| {
                if bx == 0 {
                    0
                } else {
                    width(nx - 1 + rows_b[z] - 1 + z + 1)
                }
            })
            .collect();
        let w_c: Vec<usize> = (0..nx)
            .map(|x| {
                if bz == 0 {
                    0
                } else {
                    width(x + rows_c[x] - 1 + nz - 1 + 1)
                }
            })
            .collect();
        // Every set, a column's own included, has at most this many words (a value is
        // at most the number of options, plus one with a pass).
        let widest = width(bx as usize + caps[caps.len() - 1] as usize + bz as usize + 1);
        Shape {
            s: summary_words(widest),
            rows_b,
            w_b,
            rows_c,
            w_c,
        }
    }

    /// Bytes of every line.
    fn line_bytes(&self) -> u64 {
        let b = self.rows_b.iter().zip(&self.w_b);
        let c = self.rows_c.iter().zip(&self.w_c);
        b.chain(c)
            .map(|(&r, &w)| Line::bytes(r, w, self.s))
            .fold(0u64, u64::saturating_add)
    }
}

/// The peak bytes of [`solve_monotone`] on this table: values (2 per position), the
/// cap table (4) and offsets (8) per column, and the lines.
pub(super) fn footprint(bounds: [u32; 3], caps: &[u32]) -> (u64, u64) {
    let positions: u64 = caps.iter().map(|&c| u64::from(c) + 1).sum();
    let columns = caps.len() as u64;
    let lines = Shape::new(bounds, caps).line_bytes();
    let bytes = positions
        .saturating_mul(2)
        .saturating_add(columns.saturating_mul(12))
        .saturating_add(lines);
    (positions, bytes)
}

/// The columns of tile `(tx, tz)`, row-major (x slowest).
fn tile_columns(
    (tx, tz): (usize, usize),
    (nx, nz): (usize, usize),
) -> impl Iterator<Item = (usize, usize)> {
    let xs = tx * TILE..((tx + 1) * TILE).min(nx);
    xs.flat_map(move |x| (tz * TILE..((tz + 1) * TILE).min(nz)).map(move |z| (x, z)))
}

/// True when `caps` (row-major in `x`, `nz` per row) never decreases along `x` nor
/// along `z`: the tiled solver's precondition.
pub(super) fn is_monotone(caps: &[u32], nz: usize) -> bool {
    caps.chunks_exact(nz)
        .all(|row| row.windows(2).all(|w| w[0] <= w[1]))
        && caps
            .chunks_exact(nz)
            .zip(caps.chunks_exact(nz).skip(1))
            .all(|(a, b)| a.iter().zip(b).all(|(u, v)| u <= v))
}

/// The solved columns: where column `(x, ., z)` starts in the values (row-major in
/// `x`), and the values, tile after tile.
pub(super) type Solved = (Vec<usize>, Vec<u16>);

/// Solves a capped game whose clamped cap table never decreases along `x` nor `z`.
/// Progress is counted in positions; `Err(Cancelled)` within a block of a tile.
pub(super) fn solve_monotone(
    name: &str,
    bounds: [u32; 3],
    caps: &[u32],
    limit: u64,
    rules: Rules<'_>,
    control: &Control,
) -> Result<Solved> {
    solve_monotone_streamed(name, bounds, caps, limit, rules, None, control)
}

/// Where the tiled solver writes the `.npy` slabs of the box (see
/// [`solve_monotone_streamed`]): little-endian bytes, one `(y, z)` slab per call.
pub(super) type SlabWriter<'a> = &'a mut dyn FnMut(&[u8]) -> Result<()>;

/// [`solve_monotone`], writing the box's little-endian slabs (`outside` above each
/// column, `y` up to the tallest column) to `stream` while it solves: slab `x` is
/// complete once every tile of its row of tiles is, which happens half-way through
/// the solve for the first row, so the disk works while the cores do. The slabs of
/// the rows of tiles finished before an anti-diagonal are written on this thread
/// while the anti-diagonal is solved on the pool; the bytes are those of
/// [`CappedGrundy::for_each_le_slab`].
pub(super) fn solve_monotone_streamed(
    name: &str,
    bounds: [u32; 3],
    caps: &[u32],
    limit: u64,
    rules: Rules<'_>,
    mut stream: Option<(u16, SlabWriter<'_>)>,
    control: &Control,
) -> Result<Solved> {
    let [bx, by, bz] = bounds;
    let (nx, nz) = (bx as usize + 1, bz as usize + 1);
    let (positions, needed) = footprint(bounds, caps);
    let needed = needed.saturating_add(rules.reserve);
    check_memory(
        || {
            format!(
                "Grundy values of {name} in the box 0..{bx} x 0..{by} x 0..{bz} ({positions} positions)"
            )
        },
        needed,
        limit,
        "use a smaller `box`",
    )?;
    let cap = |x: usize, z: usize| caps[x * nz + z] as usize;
    control.add_total(positions);
    let shape = Shape::new(bounds, caps);
    let (tiles_x, tiles_z) = (nx.div_ceil(TILE), nz.div_ceil(TILE));

    // Values are laid out tile after tile, by anti-diagonal of tiles then by tile x,
    // so one anti-diagonal is one contiguous slice and each tile a piece of it.
    let mut offsets = vec![0usize; nx * nz];
    let mut tile_len = Vec::with_capacity(tiles_x * tiles_z);
    let mut next = 0usize;
    for d in 0..tiles_x + tiles_z - 1 {
        for tx in d.saturating_sub(tiles_z - 1)..=d.min(tiles_x - 1) {
            let start = next;
            for (x, z) in tile_columns((tx, d - tx), (nx, nz)) {
                offsets[x * nz + z] = next;
                next += cap(x, z) + 1;
            }
            tile_len.push(next - start);
        }
    }
    let mut values = vec![0u16; next];
    let mut lines_b: Vec<Line> = (0..nz)
        .map(|z| Line::new(shape.rows_b[z], shape.w_b[z], shape.s))
        .collect();
    let mut lines_c: Vec<Line> = (0..nx)
        .map(|x| Line::new(shape.rows_c[x], shape.w_c[x], shape.s))
        .collect();

    let ny = caps.iter().copied().max().unwrap_or(0) as usize + 1;
    // Slabs read the solved part of `values` through this (the offsets are global).
    let columns = Columns {
        nz,
        ny,
        caps,
        offsets: &offsets,
        values: &[],
    };
    let mut slab = Vec::new();
    // Rows of tiles already written to `stream`.
    let mut written = 0;
    let mut done_len = 0;
    let mut lens = tile_len.iter();
    for d in 0..tiles_x + tiles_z - 1 {
        let (lo, hi) = (d.saturating_sub(tiles_z - 1), d.min(tiles_x - 1));
        let (done, mut rest) = values.split_at_mut(done_len);
        let before = done_len;
        let mut tiles: Vec<(&mut [u16], Option<&[u16]>)> = Vec::with_capacity(hi - lo + 1);
        for _ in lo..=hi {
            let len = *lens.next().expect("one length per tile");
            let (tile, more) = std::mem::take(&mut rest).split_at_mut(len);
            let passless = rules.passless.map(|p| &p[done_len..done_len + len]);
            tiles.push((tile, passless));
            done_len += len;
            rest = more;
        }
        // Tile (tx, d - tx) owns the B lines of its z range and the C lines of its x range.
        let b_chunks: Vec<&mut [Line]> = lines_b
            .chunks_mut(TILE)
            .skip(d - hi)
            .take(hi - lo + 1)
            .rev()
            .collect();
        let c_chunks: Vec<&mut [Line]> = lines_c
            .chunks_mut(TILE)
            .skip(lo)
            .take(hi - lo + 1)
            .collect();
        let solve = || {
            tiles
                .into_par_iter()
                .zip(b_chunks)
                .zip(c_chunks)
                .enumerate()
                .map_init(
                    Scratch::new,
                    |scratch, (i, (((tile, passless), lb), lc))| {
                        solve_tile(
                            shape.s,
                            (lo + i, d - lo - i),
                            (nx, nz),
                            &cap,
                            tile,
                            lb,
                            lc,
                            scratch,
                            (rules.terminal, passless),
                            control,
                        )
                    },
                )
                .filter_map(|r: std::result::Result<(), [u32; 3]>| r.err())
                .min()
        };
        // Row of tiles `tx` is complete after anti-diagonal tx + tiles_z - 1.
        let complete = d.saturating_sub(tiles_z - 1).min(tiles_x);
        let overflow = match stream.as_mut() {
            Some((outside, write)) if written < complete => {
                let view = Columns {
                    values: done,
                    ..columns
                };
                let xs = written * TILE..(complete * TILE).min(nx);
                let mut overflow = None;
                let mut result = Ok(());
                rayon::in_place_scope(|s| {
                    s.spawn(|_| overflow = solve());
                    result = view.write_slabs(xs, *outside, &mut slab, &mut **write, control);
                });
                result?;
                written = complete;
                overflow
            }
            _ => solve(),
        };
        // Tiles bail out when cancelled: their values are then incomplete, never returned.
        control.check()?;
        control.advance((done_len - before) as u64);
        if let Some([x, y, z]) = overflow {
            return Err(Error::unsupported(format!(
                "{name}: the Grundy value at (x, y, z) = ({x}, {y}, {z}) exceeds 65535, \
                 the most values are stored in; use a smaller `box`"
            )));
        }
    }
    if let Some((outside, write)) = stream {
        Columns {
            values: &values,
            ..columns
        }
        .write_slabs(written * TILE..nx, outside, &mut slab, write, control)?;
    }
    drop((lines_b, lines_c));
    Ok((offsets, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: u64 = 4 << 30;

    fn table(bounds: [u32; 3], cap: impl Fn(u32, u32) -> u64) -> Vec<u32> {
        let mut caps = Vec::new();
        for x in 0..=bounds[0] {
            for z in 0..=bounds[2] {
                caps.push(cap(x, z).min(u64::from(bounds[1])) as u32);
            }
        }
        caps
    }

    fn triangular(b: [u32; 3]) -> Vec<u32> {
        table(b, |x, z| u64::from(x + z) / 3)
    }

    #[test]
    fn same_values_whatever_the_thread_count() {
        let b = [90, 70, 75];
        let caps = triangular(b);
        let solve_with = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| {
                    solve_monotone("t", b, &caps, LIMIT, Rules::default(), &Control::new()).unwrap()
                })
        };
        assert_eq!(solve_with(1), solve_with(3));
    }

    /// A failing writer ends the solve with its error, after its first failure.
    #[test]
    fn a_failing_stream_stops_the_solve() {
        let b = [200, 200, 200];
        let mut calls = 0;
        let mut write = |_: &[u8]| {
            calls += 1;
            Err(Error::invalid_request("disk full"))
        };
        let err = solve_monotone_streamed(
            "t",
            b,
            &triangular(b),
            LIMIT,
            Rules::default(),
            Some((u16::MAX, &mut write)),
            &Control::new(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("disk full") && calls == 1, "{err}");
    }

    /// Progress counts every position once; a cancelled solve stops at the next block.
    #[test]
    fn progress_reaches_the_positions_and_cancel_stops_the_solve() {
        let b = [120, 120, 120];
        let caps = triangular(b);
        let control = Control::new();
        let (_, values) = solve_monotone("t", b, &caps, LIMIT, Rules::default(), &control).unwrap();
        assert_eq!(
            control.progress(),
            (values.len() as u64, values.len() as u64)
        );

        let cancelled = Control::new();
        cancelled.cancel();
        let err = solve_monotone("t", b, &caps, LIMIT, Rules::default(), &cancelled).unwrap_err();
        assert!(matches!(err, Error::Cancelled), "{err}");
        assert_eq!(cancelled.progress().0, 0);
    }

    #[test]
    fn the_estimate_counts_every_allocation() {
        // Lines of a flat box are empty; the estimate still covers values and columns.
        let b = [300, 100, 0];
        let caps = table(b, |x, z| u64::from(x + z) / 3);
        let (positions, bytes) = footprint(b, &caps);
        assert_eq!(
            positions,
            caps.iter().map(|&c| u64::from(c) + 1).sum::<u64>()
        );
        assert!(bytes >= 2 * positions + 12 * caps.len() as u64);
        let err = solve_monotone("t", b, &caps, bytes - 1, Rules::default(), &Control::new())
            .unwrap_err();
        assert!(err.to_string().contains("smaller `box`"), "{err}");
    }
}
