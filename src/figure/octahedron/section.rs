//! The section figure: H(n, m) or H_r drawn alone, in a row of levels, or
//! beside the board R(m, m); as PNG, SVG, a raw one-pixel-per-diamond board,
//! or its exact diamonds as JSON / CSV. A validated spec the CLI (and later
//! recipes) fill in; writing it is the only I/O.
//!
//! The one idea: data and vectors are exact, pixels are not asked to be. SVG,
//! JSON and CSV carry every diamond of S_n's section (refused up front when
//! there would be too many); PNG panels are drawn from the coarsest S_k whose
//! octahedra are under half a pixel ([`detail_order`]), so a section of S_30
//! at r = 0.37 (about 10^13 diamonds) draws in milliseconds.
//!
//! A PNG panel is one cell per device pixel (the paper's dpi when printed),
//! each the fill at an opacity of the square root of the share of the pixel
//! S_k's section covers ([`tone`]), rounded to [`COVERAGE_SHADES`] shades
//! ([`coverage`]). Those shares come from the walk
//! over the cut octahedra, not from a list of diamonds: the model knows the
//! exact area below every node, so the walk stops at a node inside one pixel
//! (its area goes into that pixel), a full node (painted as its diamond), or
//! a node at least a pixel in radius that is full or empty to within 1/8192 of
//! a pixel (painted as its diamond at its density; at most 8 such meet a
//! pixel, so each pixel is within 1/1024 of its exact share). Near r = 1/2,
//! where S_k's section has about 4^k diamonds but is all but full, that is a
//! few tens of thousands of nodes; the dearest levels, where nearly all of
//! S_k's octahedra (a third of a pixel in radius) are cut, cost one
//! closed-form split per diamond (about 1.5 million at 640 px, 20–30 ms).
//!
//! S_k and not S_n: the exact area of S_n's section shrinks with n (at
//! r = 0.37, S_30's is 1/400 of S_11's), so shares of S_30 itself would fade
//! to white at generic levels; S_k shows where the section is at the
//! resolution drawn, as the PNG always has.
//!
//! The square root, not the share itself: at generic levels S_k's section is
//! a lace of lines thinner than a pixel (at r = 0.37 half of the pixels it
//! meets are under a quarter covered), which at opacity = share drew S_30's
//! section as a faint haze. The root keeps empty pixels empty, full pixels
//! full and more cover always darker, so the picture still orders pixels by
//! their exact shares, and a quarter covered shows at half strength.

use super::coverage;
use crate::error::check_memory;
use crate::library::encode::{self, png as png_enc, raster, Format, Metadata};
use crate::library::figure::plan::{Computed, Plan, Spec};
use crate::library::scene::board::{self, BoardPanel, BoardStyle, GridLines, PanelSize};
use crate::library::scene::color::{okabe_ito, INK};
use crate::library::scene::font::fitted_size;
use crate::library::scene::layout::SheetLayout;
use crate::library::scene::{
    CellLayer, Color, Item, PathCmd, PathItem, PixelRect, Scene, TextItem,
};
use crate::octahedron::level::{GridLevel, Level};
use crate::octahedron::section::{
    aligned_cells, count_diamonds, detail_order, exact_area, Cut, Diamond,
};
use crate::pattern::p_grid;
use crate::Control;
use crate::{Error, Result};
use std::io::Write;
use std::sync::Arc;

/// A level as the user named it: the exact rational and the text for captions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedLevel {
    /// The exact level r.
    pub level: Level,
    /// How it was written (`11`, `5.5`, `0.37`), for captions and data.
    pub text: String,
    /// True when given as a real `--r` rather than a `--level` of S_n.
    pub real: bool,
}

impl NamedLevel {
    /// `--level` at order n: `11` or `5.5`.
    pub fn parse_level(n: u32, text: &str) -> Result<NamedLevel> {
        Ok(NamedLevel {
            level: Level::parse_level(n, text)?,
            text: text.trim().to_string(),
            real: false,
        })
    }

    /// `--r`: a real level such as `0.37` or `3/8`.
    pub fn parse_r(text: &str) -> Result<NamedLevel> {
        Ok(NamedLevel {
            level: Level::parse_r(text)?,
            text: text.trim().to_string(),
            real: true,
        })
    }

    /// The caption of this level's section of S_n: `H(4,11)`, `H(4,5.5)` or `r = 0.37`.
    pub fn caption(&self, n: u32) -> String {
        match (self.real, self.level.at_order(n)) {
            (false, GridLevel::Integer(m)) => format!("H({n},{m})"),
            (false, GridLevel::Half(m)) => format!("H({n},{m}.5)"),
            _ => format!("r = {}", self.text),
        }
    }
}

/// How panels of different levels are scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scale {
    /// Every section fills its panel, like the paper's (1/m)·R(m, m).
    #[default]
    Fit,
    /// One scale for all: the largest section fills its panel, the others show their true size.
    Common,
}

/// Colours and spacing of section figures.
#[derive(Clone, Debug, PartialEq)]
pub struct SectionStyle {
    /// Colour of the section (default Okabe–Ito blue, as the boards' P cells).
    pub fill: Color,
    /// Colour around and inside the section's outline.
    pub background: Color,
    /// Thin outline of the whole octahedron's section (|x| + |y| <= r), if any.
    pub frame: Option<Color>,
    /// Captions under panels.
    pub captions: bool,
    /// Caption size in pixels; `None` scales with the panel.
    pub caption_size: Option<f64>,
    /// Space around the figure, pixels.
    pub margin: u32,
    /// Space between panels, pixels.
    pub gap: u32,
    /// Resolution, paper size, typeface and text handling.
    pub print: crate::library::scene::units::PrintStyle,
    /// A title above the whole figure.
    pub title: Option<String>,
}

impl Default for SectionStyle {
    fn default() -> Self {
        SectionStyle {
            fill: okabe_ito::BLUE,
            background: Color::WHITE,
            frame: Some(Color::rgb(0x88, 0x88, 0x88)),
            captions: true,
            caption_size: None,
            margin: 16,
            gap: 14,
            print: Default::default(),
            title: None,
        }
    }
}

impl SectionStyle {
    /// Caption size and the height reserved under the panels of a figure
    /// `figure_width` units wide (its type scale's label size unless one is given).
    pub fn caption_metrics(&self, figure_width: u32) -> (f64, u32) {
        let size = self.caption_size.unwrap_or_else(|| {
            crate::library::scene::board::default_caption_size(
                figure_width,
                self.print.print.dpi.is_some(),
            )
        });
        let line = (size * 1.45).ceil() as u32;
        (size, if self.captions { line + line / 3 } else { 0 })
    }
}

/// How a panel's diamonds are obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Every diamond of S_n's section (vectors, data).
    Exact,
    /// The section of the coarsest S_k whose octahedra are under half a pixel.
    Pixels,
}

/// The device pixels a panel's PNG coverage is computed for: the scene's own
/// pixels, or a printed scene's (its dpi), where cells are scaled to the canvas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeviceGrid {
    /// Device pixels per scene unit across and down ([`raster::device_scale`]).
    pub scale: (f64, f64),
    /// Scene units the panel moves down after it is drawn (a title added on top).
    pub shift_y: u32,
}

impl DeviceGrid {
    /// One pixel per scene unit, nothing added above.
    pub const SCENE: DeviceGrid = DeviceGrid {
        scale: (1.0, 1.0),
        shift_y: 0,
    };
}

/// The opacity of the fill on a PNG pixel whose share `covered` (in [0, 1]) the
/// section covers: its square root (module docs). Monotone, 0 at 0 and 1 at 1.
pub fn tone(covered: f64) -> f64 {
    covered.max(0.0).sqrt()
}

/// Shades of the fill a PNG panel's coverage is rounded to (index 0 is
/// transparent). 64 steps of 1/63 are finer than the eye needs for
/// anti-aliased edges (tiny-skia's own anti-aliasing makes about 16–30) and
/// keep a whole figure — fill shades, the frame's and the captions' edges —
/// within PNG's 256-colour palette, so it stays indexed and small.
pub const COVERAGE_SHADES: usize = 64;

/// One section drawn into a square panel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SectionPanel {
    /// Order n of S_n.
    pub n: u32,
    /// The level.
    pub level: Level,
    /// Turned by 45° so it lines up with the board R(m, m).
    pub align: bool,
    /// Left edge of the panel, pixels.
    pub x: f64,
    /// Top edge of the panel, pixels.
    pub y: f64,
    /// Side of the panel, pixels.
    pub side: f64,
    /// Half-width of the window shown, in units of the unit octahedron (the
    /// section's own extent r for [`Scale::Fit`]).
    pub window: f64,
    /// Exact or level-of-detail diamonds.
    pub detail: Detail,
    /// The pixels [`Detail::Pixels`] coverage is computed for.
    pub device: DeviceGrid,
}

/// Bytes a diamond costs in a scene (its sub-path) and while collecting it.
const SCENE_BYTES_PER_DIAMOND: u64 = 6 * 48 + 24;
/// Bytes of text per diamond in JSON / CSV output (fractions of up to 19 digits).
const TEXT_BYTES_PER_DIAMOND: u64 = 96;

impl SectionPanel {
    /// Pixels per unit of length.
    fn pixels_per_unit(&self) -> f64 {
        self.side / 2.0 / self.window.max(f64::MIN_POSITIVE)
    }

    /// The order whose diamonds are drawn, and its cut.
    fn cut(&self) -> Result<Cut> {
        let order = match self.detail {
            Detail::Exact => self.n,
            Detail::Pixels => detail_order(self.n, 0.5 / self.pixels_per_unit()),
        };
        Cut::new(order, self.level)
    }

    /// A panel point of the plane point (x, y) (units of 1/D), y up.
    fn map(&self, cut: &Cut, u: i64, v: i64) -> (f64, f64) {
        // Rectangles are built in (u, v) = (x + y, x - y); unaligned panels
        // show (x, y) = ((u + v)/2, (u - v)/2), aligned ones show (u, v).
        let (a, b) = if self.align {
            (cut.to_f64(u), cut.to_f64(v))
        } else {
            (cut.to_f64(u + v) / 2.0, cut.to_f64(u - v) / 2.0)
        };
        let k = self.pixels_per_unit();
        let (cx, cy) = (self.x + self.side / 2.0, self.y + self.side / 2.0);
        (cx + a * k, cy - b * k)
    }

    /// The panel's items: the section in `fill`, then the outline in `frame`.
    ///
    /// Aligned integer levels whose cells are at least a pixel are drawn as
    /// crisp cells, exactly like a board. Other pixel panels are one cell
    /// per device pixel holding the exact area of the level-of-detail section
    /// in that pixel ([`coverage`]), in [`COVERAGE_SHADES`] shades of `fill`.
    /// Exact panels (SVG) are one path of merged runs (diamonds side by side
    /// along u = x + y become one rectangle in (u, v)), so the SVG stays small.
    pub fn items(
        &self,
        fill: Color,
        frame: Option<Color>,
        memory_limit: u64,
        control: &Control,
    ) -> Result<Vec<Item>> {
        let mut items = Vec::new();
        let r = self.level.r();
        if let (true, GridLevel::Integer(m)) = (self.align, self.level.at_order(self.n)) {
            let span = self.side * r / self.window;
            if (m as f64) <= span && span >= 1.0 {
                let grid = aligned_cells(self.n, m, memory_limit, control)?;
                let side = span.round() as u32;
                let offset = ((self.side - f64::from(side)) / 2.0).round();
                let mut indices = vec![0u8; grid.rows() * grid.cols()];
                for (row, col) in grid.ones() {
                    indices[row * grid.cols() + col] = 1;
                }
                items.push(Item::Cells(CellLayer {
                    rect: PixelRect {
                        x: (self.x + offset) as u32,
                        y: (self.y + offset) as u32,
                        width: side,
                        height: side,
                    },
                    rows: grid.rows(),
                    cols: grid.cols(),
                    indices,
                    palette: vec![Color::TRANSPARENT, fill],
                    grid_line: None,
                }));
                if let Some(frame) = frame {
                    let (x0, y0) = (self.x + offset, self.y + offset);
                    let s = f64::from(side);
                    items.push(Item::Path(
                        PathItem::rect(x0 - 0.5, y0 - 0.5, s + 1.0, s + 1.0).stroked(frame, 1.0),
                    ));
                }
                return Ok(items);
            }
        }
        if self.detail == Detail::Pixels {
            items.push(Item::Cells(self.coverage_layer(fill, memory_limit)?));
            control.check()?;
            self.push_frame(&mut items, frame);
            return Ok(items);
        }
        let cut = self.cut()?;
        let count = count_diamonds(cut.order(), self.level)?;
        check_memory(
            || {
                format!(
                    "drawing the section of S_{} at r = {} ({count} diamonds)",
                    cut.order(),
                    self.level
                )
            },
            u64::try_from(count.saturating_mul(u128::from(SCENE_BYTES_PER_DIAMOND)))
                .unwrap_or(u64::MAX),
            memory_limit,
            "write .png (drawn with level of detail), or choose a smaller `n` or a level nearer the apex",
        )?;
        let mut squares: Vec<(i64, i64, i64)> = Vec::with_capacity(count as usize);
        cut.for_each(
            |d: Diamond| {
                let s = d.square();
                squares.push((s.h, s.cv, s.cu));
            },
            control,
        )?;
        squares.sort_unstable();
        let mut commands = Vec::new();
        let mut i = 0;
        while i < squares.len() {
            let (h, cv, cu) = squares[i];
            let mut end = cu + h;
            let mut j = i + 1;
            while j < squares.len()
                && squares[j].0 == h
                && squares[j].1 == cv
                && squares[j].2 - h == end
            {
                end = squares[j].2 + h;
                j += 1;
            }
            let (u0, u1, v0, v1) = (cu - h, end, cv - h, cv + h);
            let corners = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)];
            for (k, &(u, v)) in corners.iter().enumerate() {
                let (px, py) = self.map(&cut, u, v);
                commands.push(if k == 0 {
                    PathCmd::MoveTo(px, py)
                } else {
                    PathCmd::LineTo(px, py)
                });
            }
            commands.push(PathCmd::Close);
            i = j;
        }
        if !commands.is_empty() {
            items.push(Item::Path(PathItem {
                commands,
                fill: Some(fill),
                stroke: None,
            }));
        }
        self.push_frame(&mut items, frame);
        Ok(items)
    }

    /// The thin outline of the whole octahedron's section, |x| + |y| <= r.
    fn push_frame(&self, items: &mut Vec<Item>, frame: Option<Color>) {
        if let Some(frame) = frame {
            let k = self.pixels_per_unit() * self.level.r();
            let (cx, cy) = (self.x + self.side / 2.0, self.y + self.side / 2.0);
            let outline = if self.align {
                PathItem::rect(cx - k, cy - k, 2.0 * k, 2.0 * k)
            } else {
                PathItem::polygon(&[(cx + k, cy), (cx, cy - k), (cx - k, cy), (cx, cy + k)])
            };
            items.push(Item::Path(outline.stroked(frame, 1.0)));
        }
    }

    /// The section as one cell per device pixel of the panel, each the fill
    /// at the [`tone`] of the share of the pixel the section covers.
    fn coverage_layer(&self, fill: Color, memory_limit: u64) -> Result<CellLayer> {
        let (rect, shades) = self.pixel_coverage(memory_limit)?;
        let top = (COVERAGE_SHADES - 1) as f64;
        let palette = std::iter::once(Color::TRANSPARENT)
            .chain((1..COVERAGE_SHADES).map(|shade| {
                let alpha = (f64::from(fill.a) * shade as f64 / top).round() as u8;
                Color { a: alpha, ..fill }
            }))
            .collect();
        Ok(CellLayer {
            rect,
            rows: shades.rows,
            cols: shades.cols,
            indices: shades.indices,
            palette,
            grid_line: None,
        })
    }

    /// The coverage of every device pixel of the panel by the section at the
    /// panel's detail (for [`Detail::Pixels`] the coarsest S_k whose
    /// octahedra are under half a pixel), rounded to [`COVERAGE_SHADES`]
    /// shades, and the scene rectangle those pixels fill.
    ///
    /// The work follows the pixels, not the diamonds: the walk stops at nodes
    /// that are full, inside one pixel, or (near r = 1/2, where S_k's section
    /// is all but full) within 1/8192 of a pixel of full; see [`coverage`]
    /// for the bound, every pixel within 1/1024 of its exact coverage before
    /// rounding.
    pub fn pixel_coverage(&self, memory_limit: u64) -> Result<(PixelRect, coverage::Shades)> {
        let cut = self.cut()?;
        let side = self.side.round().max(0.0) as u32;
        let rect = PixelRect {
            x: self.x.round().max(0.0) as u32,
            y: self.y.round().max(0.0) as u32,
            width: side,
            height: side,
        };
        let (sx, sy) = self.device.scale;
        let shifted = PixelRect {
            y: rect.y + self.device.shift_y,
            ..rect
        };
        let device = raster::device_rect(shifted, sx, sy);
        let (cols, rows) = (device.width as usize, device.height as usize);
        check_memory(
            || format!("the {cols} x {rows} px coverage of a section panel"),
            coverage::shades_bytes(cols, rows),
            memory_limit,
            "choose a smaller `panel`, `width` or `dpi`",
        )?;
        let k = self.pixels_per_unit();
        let centre = (
            (self.x + self.side / 2.0) * sx - f64::from(device.x),
            (self.y + f64::from(self.device.shift_y) + self.side / 2.0) * sy - f64::from(device.y),
        );
        let frame = coverage::PixelFrame {
            cols,
            rows,
            origin: centre,
            scale: (k * sx, k * sy),
            align: self.align,
        };
        let top = (COVERAGE_SHADES - 1) as f64;
        // The tone is in [0, 1]: adding a half and truncating rounds it, without
        // the libm call `f64::round` is on baseline x86-64.
        let shade = |covered: f64| (tone(covered) * top + 0.5) as u8;
        Ok((rect, coverage::shades(&cut, &frame, shade)))
    }
}

/// Sections of S_n to draw or list.
#[derive(Clone, Debug, PartialEq)]
pub struct SectionFigure {
    /// Order n of S_n.
    pub n: u32,
    /// One level (a single panel) or several (a row, as in Figure 5 of Okubo, Kashiwagi, Niida).
    pub levels: Vec<NamedLevel>,
    /// Turn sections by 45° so they line up with the board.
    pub align: bool,
    /// Draw H(n, m) beside the board R(m, m) (the claim of Figure 4 of Okubo, Kashiwagi, Niida).
    pub compare: bool,
    /// One pixel per diamond, 1-bit, P black: the aligned section as a raw board.
    pub raw: bool,
    /// Panel side in pixels; `None` picks one.
    pub panel: Option<u32>,
    /// How panels of different levels are scaled.
    pub scale: Scale,
    /// Colours and spacing.
    pub style: SectionStyle,
    /// Refuse work that would need more bytes than this.
    pub memory_limit: u64,
}

/// The most panels one figure draws.
const MAX_PANELS: usize = 64;

impl SectionFigure {
    /// Checks the parameters, before anything is computed.
    pub fn validate(&self) -> Result<()> {
        if self.levels.len() > MAX_PANELS {
            return Err(Error::invalid_parameter(
                "levels",
                format!(
                    "`levels` names {} levels; at most {MAX_PANELS} at once",
                    self.levels.len()
                ),
            ));
        }
        if self.raw {
            if !self.align {
                return Err(Error::unsupported(
                    "`raw` draws the section turned onto the board; add `align`",
                ));
            }
            if self.compare || self.levels.len() > 1 {
                return Err(Error::unsupported(
                    "`raw` draws one section; give one `level` and drop `compare` / `levels`",
                ));
            }
            let named = &self.levels[0];
            if named.real || !matches!(named.level.at_order(self.n), GridLevel::Integer(_)) {
                return Err(Error::unsupported(format!(
                    "`raw` needs an integer `level` (one pixel per diamond of one size); got {}",
                    named.text
                )));
            }
        }
        if self.compare {
            if self.levels.len() > 1 {
                return Err(Error::unsupported(
                    "`compare` draws one section beside its board; give one `level`, not `levels`",
                ));
            }
            self.board_side()?;
        }
        if let Some(0) = self.panel {
            return Err(Error::invalid_parameter(
                "panel",
                "`panel` must be at least 1 px",
            ));
        }
        Ok(())
    }

    /// The board R(M, M) a compared section is similar to: M = m at an
    /// integer level m, M = 2m + 1 at a half level m + 1/2.
    fn board_side(&self) -> Result<u64> {
        let named = &self.levels[0];
        match named.level.at_order(self.n) {
            GridLevel::Integer(m) if !named.real => Ok(m),
            GridLevel::Half(m) if !named.real => Ok(2 * m + 1),
            _ => Err(Error::unsupported(format!(
                "`compare` needs an integer or half `level` (its section is similar to a board); got {}",
                if named.real { format!("`r` {}", named.text) } else { named.text.clone() }
            ))),
        }
    }

    fn panel_side(&self) -> u32 {
        self.panel
            .unwrap_or(match (self.compare, self.levels.len()) {
                (true, _) => 400,
                (false, 1) => 640,
                _ => 300,
            })
    }
}

impl SectionPlan {
    /// The styled scene: panels, captions, and the board for `compare`.
    pub fn scene(&self, detail: Detail, control: &Control) -> Result<Arc<Scene>> {
        let cache = match detail {
            Detail::Pixels => &self.cache().pixels,
            Detail::Exact => &self.cache().exact,
        };
        cache.get_or_compute(|| self.build_scene(detail, control))
    }

    fn build_scene(&self, detail: Detail, control: &Control) -> Result<Scene> {
        crate::library::figure::plan::computing_model();
        if self.raw {
            return self.raw_scene(control);
        }
        let side = self.panel_side();
        let style = &self.style;
        let panels = self.levels.len() + usize::from(self.compare);
        let figure_width = panels as u32 * (side + style.gap) - style.gap + 2 * style.margin;
        let figure_width = style
            .print
            .exact_width_pt
            .map_or(figure_width, |w| w.round() as u32);
        let (caption_size, caption_height) = style.caption_metrics(figure_width);
        let layout = SheetLayout {
            columns: panels,
            panel_width: side,
            panel_height: side,
            gap: style.gap,
            margin: style.margin,
            caption_height,
        };
        let (natural, height) = layout.size(panels);
        // Whole-unit panels leave up to a unit per panel of a physical `width`:
        // it goes to the margins, so the page is exactly as wide as asked.
        let (width, shift) = match style.print.exact_width_pt.map(|w| w.round() as u32) {
            Some(asked) if asked > natural && asked - natural < panels as u32 => {
                (asked, (asked - natural) / 2)
            }
            _ => (natural, 0),
        };
        let origin = |k: usize| {
            let (x, y) = layout.panel_origin(k);
            (x + shift, y)
        };
        check_memory(
            || format!("a {width} x {height} px section figure"),
            // PNG's peak per pixel (encode::scene_peak_bytes): canvas, straight copy, RGB.
            u64::from(width) * u64::from(height) * 11,
            self.memory_limit,
            "choose a smaller `panel` or `width`",
        )?;
        // The title goes on last, but PNG coverage is computed for the pixels
        // the panels finally land on: below the title, at the paper's dpi.
        let title = style.title.as_ref().map(|title| {
            let room = f64::from(width) - 2.0 * f64::from(style.margin.max(4));
            let scale = crate::library::scene::TypeScale::new(
                f64::from(width),
                style.print.print.dpi.is_some(),
            );
            let natural = style.caption_size.map_or_else(
                || scale.size(crate::library::scene::Role::Title),
                |size| size * 1.15,
            );
            crate::library::scene::layout::fit_title(
                title,
                natural,
                scale.floor().min(natural),
                room,
                3,
            )
        });
        let shift_y = title
            .as_ref()
            .map_or(0, |(lines, size)| Scene::title_height(lines.len(), *size));
        let finished = style
            .print
            .apply(Scene::new(width, height + shift_y, style.background));
        let device = DeviceGrid {
            scale: raster::device_scale(&finished),
            shift_y,
        };
        let mut scene = Scene::new(width, height, style.background);
        let largest = self
            .levels
            .iter()
            .map(|l| l.level.r())
            .fold(0.0f64, f64::max);
        let mut captions = Vec::new();
        for (k, named) in self.levels.iter().enumerate() {
            let (px, py) = origin(k);
            let r = named.level.r();
            let window = match self.scale {
                Scale::Fit if r > 0.0 => r,
                _ if largest > 0.0 => largest,
                _ => 1.0,
            };
            let panel = SectionPanel {
                n: self.n,
                level: named.level,
                align: self.align,
                x: f64::from(px),
                y: f64::from(py),
                side: f64::from(side),
                window,
                detail,
                device,
            };
            control.check()?;
            for item in panel.items(style.fill, style.frame, self.memory_limit, control)? {
                scene.items.push(item);
            }
            captions.push((k, named.caption(self.n)));
        }
        if self.compare {
            let m = self.board_side()?;
            let k = self.levels.len();
            let (px, py) = origin(k);
            let board_style = BoardStyle {
                p_color: style.fill,
                other_color: style.background,
                background: style.background,
                grid: GridLines::Off,
                frame_color: style.frame,
                margin: 0,
                gap: 0,
                captions: false,
                ..BoardStyle::default()
            };
            let grid = p_grid(m as usize, m as usize, control)?;
            let board = board::sheet(
                &[BoardPanel::from_bits(&grid, &board_style)],
                PanelSize::Panel(side),
                Some(1),
                &board_style,
            );
            for mut item in board.items {
                item.translate(px, py);
                scene.items.push(item);
            }
            captions.push((k, format!("R({m},{m})")));
        }
        if style.captions {
            for (k, text) in captions {
                let (px, py) = origin(k);
                let line = (caption_size * 1.45).ceil();
                let room = f64::from(side + style.gap) - 4.0;
                scene.push(
                    TextItem::centered(
                        f64::from(px) + f64::from(side) / 2.0,
                        f64::from(py + side) + line - caption_size * 0.25,
                        text.clone(),
                        fitted_size(&text, caption_size, room),
                        INK,
                    )
                    .with_role(crate::library::scene::Role::Label),
                );
            }
        }
        if let Some((lines, size)) = title {
            scene = scene.with_title(&lines, size, INK);
        }
        let scene = style.print.apply(scene);
        debug_assert_eq!(raster::device_scale(&scene), device.scale);
        Ok(scene)
    }

    /// One unit per diamond, P black on white (for SVG; PNG is streamed 1-bit).
    fn raw_scene(&self, control: &Control) -> Result<Scene> {
        let grid = self.raw_grid(control)?;
        let (rows, cols) = (grid.rows(), grid.cols());
        check_memory(
            || format!("a raw {rows} x {cols} section as SVG"),
            (rows * cols) as u64,
            self.memory_limit,
            "write the raw section as .png",
        )?;
        Ok(Scene::raw_bits(&grid))
    }

    fn raw_grid(&self, control: &Control) -> Result<crate::BitGrid> {
        let GridLevel::Integer(m) = self.levels[0].level.at_order(self.n) else {
            return Err(Error::unsupported("`raw` needs an integer `level`"));
        };
        if m > u64::from(u32::MAX) {
            return Err(Error::invalid_parameter(
                "raw",
                "`raw` images must have sides under 2^32",
            ));
        }
        aligned_cells(self.n, m, self.memory_limit, control)
    }

    /// Writes the figure to `path` in the format its extension names:
    /// `.png` (level of detail), `.svg` (exact polygons), `.json` / `.csv` (exact diamonds).
    fn write_format(
        &self,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        match format {
            Format::Json | Format::Csv if self.raw => Err(Error::unsupported(
                "`raw` draws images; write .png or .svg, or drop `raw` for .json / .csv",
            )),
            Format::Json | Format::Csv => {
                for named in &self.levels {
                    let count = count_diamonds(self.n, named.level)?;
                    check_memory(
                        || {
                            format!(
                                "the {} diamonds of S_{}'s section at r = {} as text",
                                count, self.n, named.level
                            )
                        },
                        u64::try_from(count.saturating_mul(u128::from(TEXT_BYTES_PER_DIAMOND)))
                            .unwrap_or(u64::MAX),
                        self.memory_limit,
                        "data is always exact, so choose a smaller `n` or a level nearer the apex (or draw it as .png)",
                    )?;
                }
                let result = if format == Format::Json {
                    self.write_json(out, control)
                } else {
                    self.write_csv(out, control)
                };
                result.map_err(Error::write_failed)
            }
            Format::Png if self.raw => {
                let grid = self.raw_grid(control)?;
                png_enc::write_bilevel_grid(
                    out,
                    &grid,
                    png_enc::Compression::default(),
                    metadata,
                    control,
                )
            }
            Format::Png => encode::write_scene_to(
                out,
                format,
                &*self.scene(Detail::Pixels, control)?,
                metadata,
                self.memory_limit,
                control,
            ),
            _ => encode::write_scene_to(
                out,
                format,
                &*self.scene(Detail::Exact, control)?,
                metadata,
                self.memory_limit,
                control,
            ),
        }
    }

    /// One object per level: order, level, plane height, denominator, count,
    /// exact area, and every diamond's centre and half-diagonal as fractions.
    fn write_json(&self, out: &mut dyn Write, control: &Control) -> std::io::Result<()> {
        let several = self.levels.len() > 1;
        if several {
            write!(out, "{{\"sections\":[")?;
        }
        for (k, named) in self.levels.iter().enumerate() {
            if k > 0 {
                writeln!(out, ",")?;
            }
            let cut = Cut::new(self.n, named.level).map_err(std::io::Error::other)?;
            let count = count_diamonds(self.n, named.level).map_err(std::io::Error::other)?;
            let (area, d) = exact_area(self.n, named.level).map_err(std::io::Error::other)?;
            let area = fraction_u128(area, (d as u128) * (d as u128));
            write!(
                out,
                "{{\"n\":{},\"level\":\"{}\",\"r\":\"{}\",\"z\":\"{}\",\"caption\":\"{}\",\"denominator\":{},\"count\":{count},\"area\":\"{area}\",\"diamonds\":[",
                self.n,
                named.text,
                named.level,
                cut.fraction(cut.plane()),
                named.caption(self.n),
                cut.scale(),
            )?;
            let mut first = true;
            let mut result = Ok(());
            cut.for_each(
                |dm| {
                    if result.is_err() {
                        return;
                    }
                    let sep = if std::mem::take(&mut first) {
                        "\n"
                    } else {
                        ",\n"
                    };
                    result = write!(
                        out,
                        "{sep}{{\"cx\":\"{}\",\"cy\":\"{}\",\"h\":\"{}\"}}",
                        cut.fraction(dm.cx),
                        cut.fraction(dm.cy),
                        cut.fraction(dm.h)
                    );
                },
                control,
            )
            .map_err(std::io::Error::other)?;
            result?;
            write!(out, "]}}")?;
        }
        if several {
            write!(out, "]}}")?;
        }
        writeln!(out)
    }

    /// `r,cx,cy,h`: one diamond per line, exact fractions, in the walk's order.
    fn write_csv(&self, out: &mut dyn Write, control: &Control) -> std::io::Result<()> {
        writeln!(out, "r,cx,cy,h")?;
        for named in &self.levels {
            let cut = Cut::new(self.n, named.level).map_err(std::io::Error::other)?;
            let mut result = Ok(());
            cut.for_each(
                |dm| {
                    if result.is_ok() {
                        result = writeln!(
                            out,
                            "{},{},{},{}",
                            named.level,
                            cut.fraction(dm.cx),
                            cut.fraction(dm.cy),
                            cut.fraction(dm.h)
                        );
                    }
                },
                control,
            )
            .map_err(std::io::Error::other)?;
            result?;
        }
        Ok(())
    }
}

fn fraction_u128(num: u128, den: u128) -> String {
    let (mut a, mut b) = (num, den);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let g = a.max(1);
    if den / g == 1 {
        format!("{}", num / g)
    } else {
        format!("{}/{}", num / g, den / g)
    }
}

impl Spec for SectionFigure {
    fn validate(&self) -> Result<()> {
        SectionFigure::validate(self)
    }
}

/// The two pictures of a section, each drawn once per plan: the PNG's per-pixel
/// coverage, and the exact polygons of SVG and PDF.
#[derive(Default)]
pub struct SectionScenes {
    pixels: Computed<Scene>,
    exact: Computed<Scene>,
}

/// A validated section figure.
pub type SectionPlan = Plan<SectionFigure, SectionScenes>;

impl crate::library::figure::Figure for SectionPlan {
    fn still_scene(&self, control: &Control) -> Result<Option<Arc<Scene>>> {
        self.scene(Detail::Exact, control).map(Some)
    }

    fn formats(&self) -> Vec<Format> {
        vec![Format::Png, Format::Svg, Format::Csv, Format::Json]
    }

    fn check(&self, format: Format) -> Result<()> {
        if self.raw && matches!(format, Format::Json | Format::Csv) {
            return Err(Error::unsupported(
                "`raw` draws images; write .png or .svg, or drop `raw` for .json / .csv",
            ));
        }
        Ok(())
    }

    fn write_to(
        &self,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        self.write_format(format, out, metadata, control)
    }

    fn default_stem(&self) -> String {
        let names: Vec<&str> = self.levels.iter().map(|l| l.text.as_str()).collect();
        format!(
            "octahedron-{}-{}",
            self.n,
            names.join("-").replace('/', "_")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(levels: &[&str]) -> SectionFigure {
        SectionFigure {
            n: 4,
            levels: levels
                .iter()
                .map(|t| NamedLevel::parse_level(4, t).unwrap())
                .collect(),
            align: false,
            compare: false,
            raw: false,
            panel: Some(160),
            scale: Scale::Fit,
            style: SectionStyle {
                frame: None,
                captions: false,
                ..SectionStyle::default()
            },
            memory_limit: crate::error::DEFAULT_MEMORY_LIMIT,
        }
    }

    #[test]
    fn captions_name_the_level() {
        let n = NamedLevel::parse_level(4, "11").unwrap();
        assert_eq!(n.caption(4), "H(4,11)");
        assert_eq!(
            NamedLevel::parse_level(4, "5.5").unwrap().caption(4),
            "H(4,5.5)"
        );
        assert_eq!(NamedLevel::parse_r("0.37").unwrap().caption(4), "r = 0.37");
    }

    /// The painted area of H(4,11) matches its exact area: the anti-aliased
    /// fill covers (area / window²)·(side/2)² pixels, up to edge rounding.
    #[test]
    fn painted_coverage_matches_exact_area() {
        for (text, align) in [("11", false), ("5.5", false), ("11", true), ("5.5", true)] {
            let mut f = figure(&[text]);
            f.align = align;
            let scene = Plan::new(f.clone())
                .unwrap()
                .scene(Detail::Exact, &Control::default())
                .unwrap();
            let pixmap = raster::rasterize(&scene, &crate::Control::default()).unwrap();
            let ink: f64 = raster::straight_rgba(&pixmap)
                .chunks(4)
                .map(|p| f64::from(255 - p[0]) / 255.0)
                .sum();
            let level = f.levels[0].level;
            let (num, d) = exact_area(4, level).unwrap();
            let area = num as f64 / (d as f64 * d as f64);
            let k = 80.0 / level.r(); // pixels per unit
                                      // Aligned panels show (u, v), which doubles areas.
            let scale = if align { 2.0 } else { 1.0 };
            let mut expected = area * k * k * scale;
            if let (true, GridLevel::Integer(m)) = (align, level.at_order(4)) {
                // Crisp cells: each P cell covers its whole-pixel box exactly.
                let edge = |i: u64| (i * 160 / m) as f64;
                let grid = aligned_cells(4, m, u64::MAX, &Control::default()).unwrap();
                expected = grid
                    .ones()
                    .map(|(r, c)| {
                        let (r, c) = (r as u64, c as u64);
                        (edge(r + 1) - edge(r)) * (edge(c + 1) - edge(c))
                    })
                    .sum();
                assert!((ink - expected).abs() < 0.5, "{ink} vs {expected}");
            }
            // The fill's red channel is 0: a covered pixel adds 1.
            assert!(
                (ink - expected).abs() < expected * 0.01 + 2.0,
                "{text} align={align}: painted {ink}, exact {expected}"
            );
        }
    }

    /// The PNG end to end: each pixel of a panel is the fill over white at
    /// the [`tone`] of the section's exact share of that pixel, against
    /// clipping every diamond of the section (independently of the walk), up
    /// to the shades (1/126) and the canvas's 8 bits (1/255) in tone, and the
    /// approximation (1/1024) in share.
    #[test]
    fn png_pixels_are_the_exact_coverage_of_the_section() {
        let cases = [
            ("11", false, false),
            ("5.5", false, false),
            ("5.5", true, false),
            ("0.37", false, true),
            ("0.37", true, true),
            ("0.4999", false, true),
            ("0.5001", true, true),
        ];
        for (text, align, real) in cases {
            let mut f = figure(&["1"]);
            f.levels = vec![if real {
                NamedLevel::parse_r(text).unwrap()
            } else {
                NamedLevel::parse_level(4, text).unwrap()
            }];
            f.align = align;
            let scene = Plan::new(f.clone())
                .unwrap()
                .scene(Detail::Pixels, &Control::default())
                .unwrap();
            let Some(Item::Cells(layer)) = scene.items.first() else {
                panic!("{text}: the panel is not a cell layer");
            };
            assert_eq!((layer.cols, layer.rows), (160, 160), "one cell per pixel");
            let rgba = raster::straight_rgba(
                &raster::rasterize(&scene, &crate::Control::default()).unwrap(),
            );
            let level = f.levels[0].level;
            let k = 80.0 / level.r();
            let cut = Cut::new(detail_order(4, 0.5 / k), level).unwrap();
            assert_eq!(
                cut.order(),
                4,
                "octahedra of S_4 are over half a pixel here"
            );
            let frame = coverage::PixelFrame {
                cols: 160,
                rows: 160,
                origin: (80.0, 80.0),
                scale: (k, k),
                align,
            };
            let exact = coverage::tests::reference(&cut, &frame);
            let (x0, y0) = (layer.rect.x as usize, layer.rect.y as usize);
            let mut painted = 0.0;
            for (at, want) in exact.iter().enumerate() {
                let (col, row) = (at % 160, at / 160);
                let red = rgba[((y0 + row) * scene.width as usize + x0 + col) * 4];
                // The fill's red is 0 and the background's 255.
                let got = 1.0 - f64::from(red) / 255.0;
                painted += got * got;
                // The shares whose tone rounds to what was painted.
                let slack = 0.5 / 63.0 + 1.0 / 255.0;
                let (low, high) = ((got - slack).max(0.0).powi(2), (got + slack).powi(2));
                let approximation = 8.0 * coverage::DELTA;
                assert!(
                    low - approximation <= *want && *want <= high + approximation,
                    "{text} align={align} pixel ({col}, {row}): tone {got} vs exact share {want}"
                );
            }
            let (num, d) = exact_area(4, level).unwrap();
            let area = num as f64 / (d as f64 * d as f64) * k * k * if align { 2.0 } else { 1.0 };
            // Rounding to shades errs both ways, so the total stays close.
            assert!(
                (painted - area).abs() <= 0.01 * area + 2.0,
                "{text} align={align}: painted {painted}, exact {area}"
            );
        }
    }

    /// Near r = 1/2 the level-of-detail section S_11 has about 4^11
    /// diamonds; the walk stops at all-but-full nodes instead, so the work
    /// is a few tens of thousands of nodes (the old path sorted 4 million
    /// diamonds into one path: 3 s and 930 MB for a 640 px PNG).
    #[test]
    fn sections_of_s_30_cost_what_their_pixels_cost() {
        let panel = |text: &str| {
            let level = NamedLevel::parse_level(30, text).unwrap().level;
            SectionPanel {
                n: 30,
                level,
                align: false,
                x: 16.0,
                y: 16.0,
                side: 640.0,
                window: level.r(),
                detail: Detail::Pixels,
                device: DeviceGrid::SCENE,
            }
        };
        let work = |text: &str| {
            let (_, covered) = panel(text)
                .pixel_coverage(crate::error::DEFAULT_MEMORY_LIMIT)
                .unwrap();
            (covered.nodes, covered.leaves)
        };
        for text in ["536870911", "1073741823", "536870911.5"] {
            let (nodes, leaves) = work(text);
            assert!(
                nodes + leaves <= 40_000,
                "{text}: {nodes} nodes, {leaves} leaves"
            );
        }
        // The dearest level of a scan of 900 (S_10 at a level whose every
        // octahedron a third of a pixel wide is cut): a leaf per pixel or so.
        let (nodes, leaves) = work("1073725440");
        assert!(
            nodes <= 40_000 && leaves <= 2_000_000,
            "{nodes} nodes, {leaves} leaves"
        );
    }

    /// On paper the PNG is drawn at the paper's dpi, and the coverage is
    /// computed for those device pixels (not scaled up from scene pixels),
    /// below a title added on top.
    #[test]
    fn printed_panels_get_one_cell_per_device_pixel() {
        let mut f = figure(&["5.5"]);
        f.style.title = Some("A section".into());
        f.style.print.print = crate::library::scene::units::Print { dpi: Some(600.0) };
        let scene = Plan::new(f.clone())
            .unwrap()
            .scene(Detail::Pixels, &Control::default())
            .unwrap();
        let (sx, sy) = raster::device_scale(&scene);
        assert!(sx > 8.0 && sy > 8.0, "{sx} {sy}");
        let Some(Item::Cells(layer)) = scene.items.first() else {
            panic!("the panel is not a cell layer");
        };
        let device = raster::device_rect(layer.rect, sx, sy);
        assert_eq!(
            (layer.cols, layer.rows),
            (device.width as usize, device.height as usize)
        );
        // The section lands where the canvas puts the panel: its centre of
        // mass on the panel's centre, its area the exact area in device pixels.
        let (mut total, mut sum_x, mut sum_y) = (0.0, 0.0, 0.0);
        for (at, &index) in layer.indices.iter().enumerate() {
            // The share back from its tone (the square root).
            let weight = (index as f64 / 63.0).powi(2);
            total += weight;
            sum_x += weight * (device.x as f64 + (at % layer.cols) as f64 + 0.5);
            sum_y += weight * (device.y as f64 + (at / layer.cols) as f64 + 0.5);
        }
        let centre = (
            (f64::from(layer.rect.x) + 80.0) * sx,
            (f64::from(layer.rect.y) + 80.0) * sy,
        );
        assert!(
            (sum_x / total - centre.0).abs() < 0.05,
            "{} vs {}",
            sum_x / total,
            centre.0
        );
        assert!(
            (sum_y / total - centre.1).abs() < 0.05,
            "{} vs {}",
            sum_y / total,
            centre.1
        );
        let level = f.levels[0].level;
        let (num, d) = exact_area(4, level).unwrap();
        let k = 80.0 / level.r();
        let area = num as f64 / (d as f64 * d as f64) * k * k * sx * sy;
        assert!((total - area).abs() < 0.002 * area, "{total} vs {area}");
    }

    #[test]
    fn compare_needs_a_grid_level_and_raw_needs_align() {
        let mut f = figure(&["11"]);
        f.raw = true;
        assert!(f.validate().unwrap_err().to_string().contains("`align`"));
        f.align = true;
        f.validate().unwrap();
        let mut g = figure(&["5.5"]);
        g.raw = true;
        g.align = true;
        assert!(g.validate().unwrap_err().to_string().contains("integer"));
        let mut c = figure(&["5.5"]);
        c.compare = true;
        assert_eq!(c.board_side().unwrap(), 11);
        c.levels = vec![NamedLevel::parse_r("0.37").unwrap()];
        assert!(c.validate().is_err());
    }
}
