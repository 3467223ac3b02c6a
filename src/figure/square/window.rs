//! `square --window`: any window of any board up to 2^62, drawn exactly as
//! the explorer (`nimscape serve`) draws it.
//!
//! The one idea: the pixels come from the explorer's own tile code
//! ([`TilePlan`]), so a pixel that covers a block of 2^k x 2^k cells is
//! shaded by the exact share of P-cells in it (a count, never a sample), and
//! the colours, the Theorem 3.4 outlines and their nesting are computed by
//! the same integer rules as the page's `app.js` (the browser test compares
//! the two pixel for pixel). Blocks are aligned to the board's first cell,
//! as the tiles are, so a window starts on a block and ends on a block or at
//! the board's edge.

use crate::library::encode::{png as png_enc, Format, Metadata};
use crate::library::figure::plan::{Plan, Spec};
use crate::library::scene::color::okabe_ito;
use crate::library::scene::ramp::Palette;
use crate::library::scene::Color;
use crate::pattern::decompose::Decomposition;
use crate::pattern::tiles::{check_side, TileMode, TilePlan, TILE};
use crate::{Control, Error, Result};
use std::io::Write;
use std::ops::Range;

/// The most pixels a window image may have (a 16384 x 16384 square).
pub const MAX_WINDOW_PIXELS: u64 = 1 << 28;
/// The longest side of a window image, in pixels.
pub const MAX_WINDOW_SIDE: u64 = 65535;
/// The deepest decomposition outline a window draws.
pub const MAX_DECOMPOSE_DEPTH: u32 = 16;

/// How a window's pixels are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowColour {
    /// Between the "other" colour (no P-cell) and the P colour (all P) by the
    /// exact share of P-cells in the pixel's block.
    Share,
    /// P-cells in the P colour, others by the bit length of the four-heap
    /// nim-sum of the block's first cell on [`nimsum_ramp`] (sampled).
    NimSum,
    /// As [`WindowColour::Share`], contrast-stretched to the shares present:
    /// the distinct shares in the window, in order, spread evenly from the
    /// "other" colour (the lowest) to the P colour (the highest)
    /// ([`crate::pattern::tiles::stretched_weights`]: by rank, so order is
    /// kept and distances are not). Zoomed far out, the shares of all blocks
    /// can agree to far below one step of the share shading (R(2^62−1) at
    /// 2^53 cells a pixel is one flat grey); stretched, how they differ shows.
    /// A window whose shares are all equal is drawn as `Share`.
    ShareStretched,
}

/// How big a window's cells are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowZoom {
    /// One pixel per block of 2^level x 2^level cells.
    Bin(u32),
    /// One cell as a square of this many pixels.
    Cell(u32),
}

/// A window of board C(m,n).
#[derive(Debug, Clone, PartialEq)]
pub struct WindowFigure {
    /// Rows of the board.
    pub m: u64,
    /// Columns of the board.
    pub n: u64,
    /// The window's rows, 0-based, half-open (row a is the board's row a+1).
    pub rows: Range<u64>,
    /// The window's columns, 0-based, half-open.
    pub cols: Range<u64>,
    /// Cells per pixel or pixels per cell.
    pub zoom: WindowZoom,
    /// Share or nim-sum colouring.
    pub colour: WindowColour,
    /// Colour of P-cells (full blocks).
    pub p_color: Color,
    /// Colour of the other cells (blocks without a P-cell).
    pub other_color: Color,
    /// Levels of Theorem 3.4 outlines (0: none).
    pub decompose_depth: u32,
    /// Nim with a pass's P-cells over the board in vermillion (square boards,
    /// one pixel per cell or more: its solve is a cell table, not a count).
    pub pass_overlay: bool,
    /// Refuse windows whose image would need more bytes than this.
    pub memory_limit: u64,
}

/// A validated window.
pub type WindowPlan = Plan<WindowFigure>;

/// The nim-sum ramp: 64 colours of the viridis palette, dark to light,
/// ordered and colour-blind safe. A nim-sum of bit length k on a board of
/// `top` bits takes entry `63 - `[`ramp_index`]`(k, top)`: light for few
/// bits, dark for many, so that P-cells (nim-sum 0) in white begin the
/// order. `app.js` holds the same table (`NIMSUM_RAMP`; a test compares
/// them).
pub fn nimsum_ramp() -> Vec<Color> {
    Palette::Viridis
        .colours(65)
        .map(|r| r.colours().to_vec())
        .unwrap_or_default()
}

/// The ramp entry of nim-sum bit length `k` (1..=64) on a board whose
/// nim-sums have at most `top` bits: spread over the whole ramp.
pub fn ramp_index(k: u32, top: u32) -> usize {
    let top = top.max(1);
    if top == 1 {
        return 0;
    }
    let k = k.clamp(1, top);
    (((k - 1) * 63 * 2 + (top - 1)) / (2 * (top - 1))) as usize
}

/// The most bits a nim-sum of board C(m,n) is given on the ramp (as `app.js`:
/// the bit length of the larger side).
pub fn ramp_top(m: u64, n: u64) -> u32 {
    (64 - m.max(n).leading_zeros()).max(1)
}

/// The weight (0..=255) of the P colour for a share byte 2..=254 (see
/// [`crate::pattern::tiles::shade`]): from 20 (a few P-cells) to 255 (nearly all).
pub fn share_weight(byte: u8) -> u32 {
    20 + (235 * (u32::from(byte).clamp(2, 254) - 2) + 126) / 252
}

/// `other` mixed with `p` at weight `w` of 255, rounded, channel by channel.
pub fn mix(other: Color, p: Color, w: u32) -> Color {
    let c = |o: u8, q: u8| ((u32::from(o) * (255 - w) + u32::from(q) * w + 127) / 255) as u8;
    Color::rgb(c(other.r, p.r), c(other.g, p.g), c(other.b, p.b))
}

/// Colours of Theorem 3.4's outlines by depth (1, 2, ...), cycling.
pub const OUTLINE_COLOURS: [Color; 8] = [
    okabe_ito::VERMILLION,
    okabe_ito::BLUE,
    okabe_ito::BLUISH_GREEN,
    okabe_ito::REDDISH_PURPLE,
    okabe_ito::ORANGE,
    okabe_ito::SKY_BLUE,
    okabe_ito::YELLOW,
    Color::rgb(0x99, 0x99, 0x99),
];

/// The outline width in pixels at `depth` (1, 2, ...).
pub fn outline_width(depth: u32) -> i128 {
    match depth {
        1 => 3,
        2 | 3 => 2,
        _ => 1,
    }
}

/// Outlines narrower than this many pixels are not drawn, nor their blocks' own.
pub const OUTLINE_MIN_PIXELS: i128 = 6;

impl WindowFigure {
    fn level(&self) -> u32 {
        match self.zoom {
            WindowZoom::Bin(level) => level,
            WindowZoom::Cell(_) => 0,
        }
    }

    fn cell_px(&self) -> u64 {
        match self.zoom {
            WindowZoom::Bin(_) => 1,
            WindowZoom::Cell(px) => u64::from(px),
        }
    }

    /// Pixel blocks of the window: rows and columns at its level.
    fn blocks(&self) -> (Range<u64>, Range<u64>) {
        let level = self.level();
        let up = |end: u64| ((end - 1) >> level) + 1;
        (
            (self.rows.start >> level)..up(self.rows.end),
            (self.cols.start >> level)..up(self.cols.end),
        )
    }

    /// The image's width and height in pixels.
    pub fn pixels(&self) -> (u64, u64) {
        let (r, c) = self.blocks();
        let px = self.cell_px();
        (
            (c.end - c.start).saturating_mul(px),
            (r.end - r.start).saturating_mul(px),
        )
    }

    /// Bytes a window needs while it is drawn and encoded (RGBA, the byte
    /// image, the straight copy and indexed rows of the PNG encoder: 4096 x
    /// 4096 px measured 167 MiB peak against this 192 MiB).
    pub fn peak_bytes(&self) -> u64 {
        let (w, h) = self.pixels();
        w.saturating_mul(h).saturating_mul(12)
    }

    /// The pixel of the image where cell boundary `c` (0-based, rows or
    /// columns) falls, for a window starting at cell `first`: as `app.js`
    /// maps camera units to screen pixels (floored).
    fn edge(&self, c: u64, first: u64) -> i128 {
        match self.zoom {
            WindowZoom::Bin(level) => i128::from(c >> level) - i128::from(first >> level),
            WindowZoom::Cell(px) => (i128::from(c) - i128::from(first)) * i128::from(px),
        }
    }

    /// The image, RGBA, row-major.
    pub fn render(&self, control: &Control) -> Result<(u32, u32, Vec<u8>)> {
        let (w, h) = self.pixels();
        let (w, h) = (w as usize, h as usize);
        let level = self.level();
        let plan = TilePlan::new(self.m, self.n, level)?;
        let (rb, cb) = self.blocks();
        let (bw, bh) = ((cb.end - cb.start) as usize, (rb.end - rb.start) as usize);
        // The window's bytes, from whole tiles of the tile code.
        let mut bytes = vec![0u8; bw * bh];
        let mode = match self.colour {
            WindowColour::Share | WindowColour::ShareStretched => TileMode::Density,
            WindowColour::NimSum => TileMode::NimSumBits,
        };
        let t = TILE as u64;
        let mut tile = vec![0u8; TILE * TILE];
        for ty in rb.start / t..=(rb.end - 1) / t {
            control.check()?;
            for tx in cb.start / t..=(cb.end - 1) / t {
                plan.render(tx, ty, mode, &mut tile);
                for dy in 0..TILE as u64 {
                    let q = ty * t + dy;
                    if q < rb.start || q >= rb.end {
                        continue;
                    }
                    let p0 = (tx * t).max(cb.start);
                    let p1 = (tx * t + t).min(cb.end);
                    let src = (dy * t + (p0 - tx * t)) as usize;
                    let dst = (q - rb.start) as usize * bw + (p0 - cb.start) as usize;
                    let len = (p1 - p0) as usize;
                    bytes[dst..dst + len].copy_from_slice(&tile[src..src + len]);
                }
            }
        }
        let palette = match self.colour {
            WindowColour::ShareStretched => self
                .stretched(&plan, &rb, &cb, &mut bytes, control)?
                .unwrap_or_else(|| self.palette()),
            _ => self.palette(),
        };
        let px = self.cell_px() as usize;
        let mut rgba = vec![0u8; w * h * 4];
        for (y, line) in rgba.chunks_exact_mut(w * 4).enumerate() {
            let row = &bytes[(y / px) * bw..(y / px + 1) * bw];
            for (x, out) in line.chunks_exact_mut(4).enumerate() {
                let c = palette[row[x / px] as usize];
                out.copy_from_slice(&[c.r, c.g, c.b, 255]);
            }
        }
        if self.pass_overlay {
            let side = u32::try_from(self.m)
                .map_err(|_| Error::invalid_parameter("m", "`m` is too large for `overlay`"))?;
            let (_, pass) = crate::games::nim_pass::square_board(side, self.memory_limit, control)?;
            let c = super::overlay::PASS_COLOR;
            for (y, line) in rgba.chunks_exact_mut(w * 4).enumerate() {
                let r = self.rows.start as usize + y / px;
                for (x, out) in line.chunks_exact_mut(4).enumerate() {
                    if pass.get(r, self.cols.start as usize + x / px) {
                        out.copy_from_slice(&[c.r, c.g, c.b, 255]);
                    }
                }
            }
        }
        if self.decompose_depth > 0 {
            self.outline(&mut rgba, w, h);
        }
        Ok((w as u32, h as u32, rgba))
    }

    /// Contrast stretch: rewrites `bytes` (the window's pixel blocks `rb` x
    /// `cb`) as indices of the distinct shares present and gives their
    /// colours; `None` when every share is the same. A view has few distinct
    /// shares (at most 64 per level: a block's count depends only on which of
    /// four signature classes match, and its area on whether it is the
    /// board's last), so a map from (count, area) to index is small.
    fn stretched(
        &self,
        plan: &TilePlan,
        rb: &Range<u64>,
        cb: &Range<u64>,
        bytes: &mut [u8],
        control: &Control,
    ) -> Result<Option<Vec<Color>>> {
        let mut shares: Vec<(u128, u128)> = Vec::new();
        let bw = (cb.end - cb.start) as usize;
        for (dy, line) in bytes.chunks_exact_mut(bw).enumerate() {
            control.check()?;
            let q = rb.start + dy as u64;
            for (dx, byte) in line.iter_mut().enumerate() {
                let p = cb.start + dx as u64;
                let share = (plan.count(q, p), plan.area(q, p));
                let index = match shares.iter().position(|&s| s == share) {
                    Some(i) => i,
                    None => {
                        if shares.len() == 255 {
                            return Err(Error::invalid_request(
                                "`colour-by share-stretched`: more than 255 distinct shares in one window",
                            ));
                        }
                        shares.push(share);
                        shares.len() - 1
                    }
                };
                *byte = index as u8;
            }
        }
        let Some(weights) = crate::pattern::tiles::stretched_weights(&shares) else {
            // Nothing to stretch: the tile bytes again, coloured as `Share`.
            for byte in bytes.iter_mut() {
                let (count, area) = shares[*byte as usize];
                *byte = crate::pattern::tiles::shade(count, area);
            }
            return Ok(None);
        };
        let mut palette = vec![Color::TRANSPARENT; 256];
        for (i, w) in weights.into_iter().enumerate() {
            palette[i] = mix(self.other_color, self.p_color, u32::from(w));
        }
        Ok(Some(palette))
    }

    /// The colour of every tile byte (see [`crate::pattern::tiles::shade`]).
    pub fn palette(&self) -> Vec<Color> {
        let mut palette = vec![Color::TRANSPARENT; 256];
        match self.colour {
            WindowColour::Share | WindowColour::ShareStretched => {
                palette[1] = self.other_color;
                palette[255] = self.p_color;
                for b in 2..255u8 {
                    palette[b as usize] = mix(self.other_color, self.p_color, share_weight(b));
                }
            }
            WindowColour::NimSum => {
                palette[1] = self.p_color;
                let ramp = nimsum_ramp();
                let top = ramp_top(self.m, self.n);
                for k in 1..=64u32 {
                    palette[k as usize + 1] = ramp[63 - ramp_index(k, top)];
                }
            }
        }
        palette
    }

    /// Theorem 3.4's blocks, `decompose_depth` levels deep, as `app.js`
    /// draws them: each level's blocks, then the corners' and the centre's
    /// own, depth first; a block narrower than [`OUTLINE_MIN_PIXELS`] stops.
    fn outline(&self, rgba: &mut [u8], w: usize, h: usize) {
        let (r0, c0) = (self.rows.start, self.cols.start);
        let fill = |rgba: &mut [u8], x: i128, y: i128, rw: i128, rh: i128, c: Color| {
            let (xa, ya) = (x.max(0), y.max(0));
            let (xb, yb) = ((x + rw).min(w as i128), (y + rh).min(h as i128));
            for yy in ya..yb {
                for xx in xa..xb {
                    let i = (yy as usize * w + xx as usize) * 4;
                    rgba[i..i + 4].copy_from_slice(&[c.r, c.g, c.b, 255]);
                }
            }
        };
        // (first row, first column, side, depth)
        let mut stack = vec![(0u64, 0u64, self.m, 1u32)];
        while let Some((y0, x0, side, depth)) = stack.pop() {
            if depth > self.decompose_depth || side < 2 {
                continue;
            }
            let (px, py) = (self.edge(x0, c0), self.edge(y0, r0));
            let ps = self.edge(x0 + side, c0) - px;
            if ps < OUTLINE_MIN_PIXELS
                || px > w as i128
                || py > h as i128
                || px + ps < 0
                || py + ps < 0
            {
                continue;
            }
            let d = Decomposition::of(side);
            let blocks = d.blocks_at(y0, x0);
            let colour = OUTLINE_COLOURS[(depth as usize - 1) % OUTLINE_COLOURS.len()];
            let lw = outline_width(depth);
            for &(by, bx, bs) in &blocks {
                let (qx, qy) = (self.edge(bx, c0), self.edge(by, r0));
                let (qw, qh) = (self.edge(bx + bs, c0) - qx, self.edge(by + bs, r0) - qy);
                fill(rgba, qx, qy, qw, lw.min(qh), colour);
                fill(rgba, qx, qy + qh - lw.min(qh), qw, lw.min(qh), colour);
                fill(rgba, qx, qy, lw.min(qw), qh, colour);
                fill(rgba, qx + qw - lw.min(qw), qy, lw.min(qw), qh, colour);
            }
            // Depth first in the page's order: corners, then the centre.
            // (A power of two is all centre: it is not cut again.)
            let children = blocks.iter().filter(|b| b.2 < side);
            stack.extend(children.rev().map(|&(y, x, b)| (y, x, b, depth + 1)));
        }
    }
}

/// One line saying which board and window, for refusals.
fn describe(f: &WindowFigure) -> String {
    let (w, h) = f.pixels();
    format!(
        "rows {}..{}, columns {}..{} of R({},{}) ({w} x {h} px)",
        f.rows.start + 1,
        f.rows.end,
        f.cols.start + 1,
        f.cols.end,
        f.m,
        f.n
    )
}

impl Spec for WindowFigure {
    fn validate(&self) -> Result<()> {
        check_side("`m`", self.m)?;
        check_side("`n`", self.n)?;
        for (what, range, side, name) in [
            ("rows", &self.rows, self.m, "m"),
            ("columns", &self.cols, self.n, "n"),
        ] {
            if range.start >= range.end {
                return Err(Error::invalid_parameter("window", format!(
                    "`window`: the {what} {}..{} are empty: write the first before the last, e.g. 1..{side}",
                    range.start + 1,
                    range.end
                )));
            }
            if range.end > side {
                return Err(Error::invalid_parameter("window", format!(
                    "`window`: the {what} {}..{} run outside the board: {name} = {side}, so they end at {side} at most",
                    range.start + 1,
                    range.end
                )));
            }
            if let WindowZoom::Bin(level) = self.zoom {
                let bin = 1u64 << level;
                if range.start % bin != 0 || (range.end % bin != 0 && range.end != side) {
                    let first = range.start / bin * bin;
                    let last = range.end.div_ceil(bin).saturating_mul(bin).min(side);
                    return Err(Error::invalid_parameter("window", format!(
                        "`window`: with `bin` {bin} the {what} start at 1 + a multiple of {bin} and end at a multiple of {bin} or at {side}: use {}..{last} instead of {}..{}",
                        first + 1,
                        range.start + 1,
                        range.end
                    )));
                }
            }
        }
        match self.zoom {
            WindowZoom::Bin(level) if level > crate::pattern::tiles::MAX_LEVEL => {
                return Err(Error::invalid_parameter(
                    "bin",
                    "`bin` is at most 2^62 cells per pixel",
                ))
            }
            _ => {}
        }
        if self.pass_overlay {
            if let WindowZoom::Bin(level) = self.zoom {
                if level > 0 {
                    return Err(Error::unsupported(
                        "`overlay` with `window` draws one pixel per cell or more: drop `bin`",
                    ));
                }
            }
            super::overlay::check_overlay(&[self.m], Some(self.n), false, self.memory_limit)?;
        }
        if self.decompose_depth > 0 && self.m != self.n {
            return Err(Error::unsupported(
                "`decompose` needs square boards; drop `n`",
            ));
        }
        if self.decompose_depth > MAX_DECOMPOSE_DEPTH {
            return Err(Error::invalid_parameter(
                "decompose-depth",
                format!("`decompose-depth` is at most {MAX_DECOMPOSE_DEPTH}"),
            ));
        }
        let (w, h) = self.pixels();
        if w > MAX_WINDOW_SIDE || h > MAX_WINDOW_SIDE || w.saturating_mul(h) > MAX_WINDOW_PIXELS {
            return Err(Error::invalid_parameter("window", format!(
                "`window`: {} is too many pixels (at most {MAX_WINDOW_SIDE} a side and 2^28 in all): raise `bin` or draw a smaller window",
                describe(self)
            )));
        }
        crate::error::check_memory(
            || describe(self),
            self.peak_bytes(),
            self.memory_limit,
            "raise `bin` or draw a smaller window",
        )
    }
}

impl crate::library::figure::Figure for WindowPlan {
    fn formats(&self) -> Vec<Format> {
        vec![Format::Png]
    }

    fn check(&self, format: Format) -> Result<()> {
        if format == Format::Png {
            Ok(())
        } else {
            Err(Error::unsupported(
                "`window` draws the explorer's pixels as a .png; drop `window` for other formats",
            ))
        }
    }

    fn write_to(
        &self,
        _format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        crate::library::figure::plan::computing_model();
        let (w, h, rgba) = self.spec().render(control)?;
        let size = tiny_skia::IntSize::from_wh(w, h)
            .ok_or_else(|| Error::invalid_parameter("window", "`window`: an empty image"))?;
        let pixmap = tiny_skia::Pixmap::from_vec(rgba, size)
            .ok_or_else(|| Error::invalid_parameter("window", "`window`: an empty image"))?;
        png_enc::write_rgb(out, w, h, &pixmap, metadata)
    }

    fn default_stem(&self) -> String {
        format!("square-{}-window", self.m)
    }

    fn note(&self, control: &Control) -> Option<String> {
        self.spec().flat_note(control)
    }
}

impl WindowFigure {
    /// Why a window of blocks (`bin` over 1) that is one flat colour is one,
    /// and what shows how its blocks differ: R(2^62−1) at 2^53 cells a pixel
    /// is one grey, every pixel correct. `None` for any other window (the
    /// first pixel that differs ends the check, so a usual window costs a
    /// few pixels) and for windows too large to look through quickly.
    pub fn flat_note(&self, control: &Control) -> Option<String> {
        let level = self.level();
        let (w, h) = self.pixels();
        if level == 0 || w.saturating_mul(h) > 1 << 22 || self.decompose_depth > 0 {
            return None;
        }
        let plan = TilePlan::new(self.m, self.n, level).ok()?;
        let (rb, cb) = self.blocks();
        let mode = match self.colour {
            WindowColour::NimSum => TileMode::NimSumBits,
            _ => TileMode::Density,
        };
        let first = plan.pixel(rb.start, cb.start, mode);
        let first_share = (
            plan.count(rb.start, cb.start),
            plan.area(rb.start, cb.start),
        );
        let mut same_share = true;
        for q in rb.clone() {
            control.check().ok()?;
            for p in cb.clone() {
                if plan.pixel(q, p, mode) != first {
                    return None;
                }
                if same_share && self.colour != WindowColour::NimSum {
                    let share = (plan.count(q, p), plan.area(q, p));
                    same_share =
                        crate::pattern::tiles::stretched_weights(&[first_share, share]).is_none();
                }
            }
        }
        let block = format!("2^{level} x 2^{level}");
        Some(match self.colour {
            WindowColour::NimSum => format!(
                "every pixel is one colour, and that is correct: --colour-by nim-sum samples the first cell of each {block} block, and all of them have the same nim-sum bit length here; --colour-by share-stretched shows how the blocks' shares of P-cells differ"
            ),
            _ if same_share => format!(
                "every pixel is one colour, and that is correct: every {block} block of the window holds exactly the same share of P-cells; zoom in (a smaller --bin) to see its cells"
            ),
            WindowColour::Share => format!(
                "every pixel is one grey, and that is correct: each {block} block holds the same share of P-cells to within one step of the shading (about {:.2}%), though not exactly; --colour-by share-stretched spreads the shares present, in order, over the whole scale",
                100.0 * first_share.0 as f64 / first_share.1 as f64
            ),
            // Stretched, two shares are two colours: not flat.
            WindowColour::ShareStretched => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `app.js` colours the nim-sum view with the same 64 colours.
    #[test]
    fn app_js_holds_the_nimsum_ramp() {
        let js = include_str!("../../serve/web/app.js");
        let want: Vec<String> = nimsum_ramp()
            .iter()
            .map(|c| format!("'{}'", c.hex()))
            .collect();
        let line = format!("const NIMSUM_RAMP = [{}];", want.join(", "));
        assert!(js.contains(&line), "app.js must hold\n{line}");
    }

    #[test]
    fn ramp_index_spreads_bit_lengths_over_the_ramp_in_order() {
        assert_eq!(ramp_index(1, 1), 0);
        assert_eq!((ramp_index(1, 4), ramp_index(4, 4)), (0, 63));
        for top in 2..=63 {
            let idx: Vec<usize> = (1..=top).map(|k| ramp_index(k, top)).collect();
            assert!(idx.windows(2).all(|w| w[0] < w[1]), "top {top}: {idx:?}");
        }
    }
}
