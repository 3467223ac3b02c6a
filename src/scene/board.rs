//! Boards: cell grids in panels, alone or as a contact sheet.
//!
//! Every figure of a board-shaped model (square patterns, automaton frames,
//! Nim-with-pass overlays) is a list of [`BoardPanel`]s drawn by [`sheet`].
//! Panels are scaled to one common size, the paper's (1/m)·R(m,m), so growth
//! reads as refinement; cell edges stay on whole pixels.

use super::layout::SheetLayout;
use super::legend::{self, KeyEntry, LineStyle, Swatch};
use super::{CellLayer, Color, HAlign, PathItem, PixelRect, Scene, TextItem, VAlign};
use super::{Role, TypeScale};
use crate::library::scene::color::{okabe_ito, GRID_GREY, INK};
use crate::library::scene::font;
use crate::BitGrid;

/// Whether to draw lines between cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GridLines {
    /// Only where every board's cells are at least 6 px, so lines never swamp the pattern.
    #[default]
    Auto,
    /// Always.
    On,
    /// Never.
    Off,
}

/// How large panels are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PanelSize {
    /// Pixels per cell (single boards).
    Cell(u32),
    /// Pixels along a panel's longer side (sheets: every board the same size).
    Panel(u32),
}

pub use super::legend::SWATCH_EDGE;

/// Colours and spacing of board figures.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardStyle {
    /// Colour of P cells (index 1 of a two-colour panel).
    pub p_color: Color,
    /// Colour of the other cells (index 0).
    pub other_color: Color,
    /// Colour around and between panels.
    pub background: Color,
    /// Lines between cells.
    pub grid: GridLines,
    /// Colour of those lines.
    pub grid_color: Color,
    /// One-pixel frame around each board, if any.
    pub frame_color: Option<Color>,
    /// Space around the sheet, pixels.
    pub margin: u32,
    /// Space between panels, pixels.
    pub gap: u32,
    /// Captions under panels.
    pub captions: bool,
    /// Caption size in pixels; `None` scales with the panel.
    pub caption_size: Option<f64>,
    /// Caption colour.
    pub caption_color: Color,
    /// Resolution, paper size, typeface and text handling of the finished sheet.
    pub print: crate::library::scene::units::PrintStyle,
    /// A title above the whole figure (`--caption TEXT`), wrapped to its width.
    pub title: Option<String>,
    /// The whole figure's width as asked for (`--width`), scene units. A sheet
    /// derives its panel size from it before it gets here; an animation, whose
    /// frame holds one board, makes every frame exactly this wide.
    pub width: Option<u32>,
}

impl Default for BoardStyle {
    fn default() -> Self {
        BoardStyle {
            p_color: okabe_ito::BLUE,
            other_color: Color::WHITE,
            background: Color::WHITE,
            grid: GridLines::Auto,
            grid_color: GRID_GREY,
            frame_color: Some(Color::rgb(0x88, 0x88, 0x88)),
            margin: 16,
            gap: 14,
            captions: true,
            caption_size: None,
            caption_color: INK,
            print: Default::default(),
            title: None,
            width: None,
        }
    }
}

/// An outlined block of cells, e.g. a corner copy of R(s,s) in Theorem 3.4.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockMark {
    /// First row of the block (0-based).
    pub row: usize,
    /// First column of the block (0-based).
    pub col: usize,
    /// Rows in the block.
    pub height: usize,
    /// Columns in the block.
    pub width: usize,
    /// Outline colour.
    pub color: Color,
    /// Dashed rather than solid: blocks of two meanings differ by more than hue.
    pub dashed: bool,
}

impl BlockMark {
    /// How the mark is drawn on a panel `panel_width` pixels wide.
    pub fn line(&self, panel_width: u32) -> LineStyle {
        LineStyle {
            color: self.color,
            width: mark_width(panel_width),
            dashed: self.dashed,
        }
    }
}

/// The width of block outlines on a panel `panel_width` units wide: an 80th
/// of it, between 1 unit (a point on paper, a pixel on screen) and 5.
pub fn mark_width(panel_width: u32) -> f64 {
    (f64::from(panel_width) / 80.0).clamp(1.0, 5.0)
}

/// A line of text under a panel's caption, at the key's size (a board's own
/// numbers: the decomposition's s and t, the overlay's counts); what colours
/// and outlines mean is said once, in the sheet's key.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    /// Text.
    pub text: String,
}

/// One board to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardPanel {
    /// Rows of cells.
    pub rows: usize,
    /// Columns of cells.
    pub cols: usize,
    /// Palette index per cell, row-major.
    pub indices: Vec<u8>,
    /// Colours by index.
    pub palette: Vec<Color>,
    /// Caption under the panel.
    pub caption: Option<String>,
    /// Outlined blocks.
    pub marks: Vec<BlockMark>,
    /// Legend lines under the caption.
    pub legend: Vec<LegendEntry>,
}

impl BoardPanel {
    /// A two-colour panel: set cells in the style's P colour, the others in its other colour.
    pub fn from_bits(grid: &BitGrid, style: &BoardStyle) -> Self {
        BoardPanel {
            rows: grid.rows(),
            cols: grid.cols(),
            indices: grid.to_indices(),
            palette: vec![style.other_color, style.p_color],
            caption: None,
            marks: Vec::new(),
            legend: Vec::new(),
        }
    }

    /// Sets the caption.
    pub fn with_caption(mut self, caption: impl Into<String>) -> Self {
        self.caption = Some(caption.into());
        self
    }
}

/// The pixel size of a board of `rows x cols` cells drawn at `size`.
pub fn board_pixels(rows: usize, cols: usize, size: PanelSize) -> (u32, u32) {
    match size {
        PanelSize::Cell(px) => (cols as u32 * px, rows as u32 * px),
        PanelSize::Panel(px) => {
            let longer = rows.max(cols).max(1) as f64;
            let w = (f64::from(px) * cols as f64 / longer).round().max(1.0) as u32;
            let h = (f64::from(px) * rows as f64 / longer).round().max(1.0) as u32;
            (w, h)
        }
    }
}

/// Estimated pixel count of the sheet [`sheet`] would draw, for memory checks before
/// any cell is computed.
pub fn sheet_pixels(
    boards: &[(usize, usize)],
    size: PanelSize,
    columns: Option<usize>,
    style: &BoardStyle,
) -> u64 {
    let (w, h) = boards
        .iter()
        .map(|&(r, c)| board_pixels(r, c, size))
        .fold((1, 1), |(a, b), (w, h)| (a.max(w), b.max(h)));
    let columns = columns
        .unwrap_or_else(|| SheetLayout::default_columns(boards.len()))
        .max(1);
    let rows = boards.len().div_ceil(columns) as u64;
    let columns = columns.min(boards.len().max(1)) as u64;
    let pad = u64::from(2 * style.margin + 200);
    (columns * (u64::from(w) + u64::from(style.gap)) + pad) * (rows * (u64::from(h) + 80) + pad)
}

/// The caption size of `columns` panels `panel_width` pixels wide: the one
/// given, or the figure's [`TypeScale`] label size.
pub fn caption_size(style: &BoardStyle, panel_width: u32, columns: usize) -> f64 {
    style
        .caption_size
        .unwrap_or_else(|| role_size(style, panel_width, columns, Role::Label))
}

/// The size of `role` in a board figure: the [`TypeScale`] of the `--width`
/// asked for, or of `columns` panels `panel_width` wide between their margins;
/// on screen never more than a sixth of a panel (a sheet of many large panels
/// would otherwise letter each one for the whole sheet), nor under the floor.
pub fn role_size(style: &BoardStyle, panel_width: u32, columns: usize, role: Role) -> f64 {
    let columns = columns.max(1) as u32;
    let natural = columns * (panel_width + style.gap) - style.gap + 2 * style.margin;
    let width = style.width.unwrap_or(natural);
    let on_paper = style.print.print.dpi.is_some();
    let scale = TypeScale::new(f64::from(width), on_paper);
    if on_paper {
        // 9 pt at most: the layout takes fewer columns where labels would touch.
        scale.size(role)
    } else {
        scale
            .size(role)
            .min((f64::from(panel_width) / 6.0).max(scale.floor()))
    }
}

/// The label size of a figure `figure_width` units wide unless one is given
/// (sections and sweeps, which lay out their own panels).
pub fn default_caption_size(figure_width: u32, on_paper: bool) -> f64 {
    TypeScale::new(f64::from(figure_width), on_paper).size(Role::Label)
}

/// True when captions `widest` units wide sit under panels `panel_width` units
/// wide, `gap` apart, with at least half the gap clear between neighbours
/// (labels any closer read as one: "m = 3: s = 1, t = 1 m = 5: ...").
pub fn captions_fit(widest: f64, panel_width: u32, gap: u32) -> bool {
    widest <= caption_room(panel_width, gap, 2)
}

/// The widest caption under a panel in a sheet of `columns`: the panel and
/// half the gap beside it (a quarter on either side); with no neighbour (one
/// column) the whole gap, only the margin being beside it.
fn caption_room(panel_width: u32, gap: u32, columns: usize) -> f64 {
    if columns == 1 {
        f64::from(panel_width + gap) - 2.0
    } else {
        f64::from(panel_width) + f64::from(gap) / 2.0
    }
}

/// The text size of a figure's key under panels `panel_width` pixels wide (as
/// a panel's legend lines): the scale's key size, or 0.85 of a caption size given.
pub fn key_size(style: &BoardStyle, panel_width: u32, columns: usize) -> f64 {
    match style.caption_size {
        Some(size) => size * 0.85,
        None => role_size(style, panel_width, columns, Role::Key),
    }
}

/// Lays panels out in a grid (`columns`, or a sensible default) and draws them.
pub fn sheet(
    panels: &[BoardPanel],
    size: PanelSize,
    columns: Option<usize>,
    style: &BoardStyle,
) -> Scene {
    sheet_in_boxes(panels, size, columns, style, &[], 1)
}

/// [`sheet`] with a key under all the panels: a swatch and text per entry,
/// in rows as wide as the sheet (as under a Grundy table).
pub fn sheet_with_key<K: KeyEntry>(
    panels: &[BoardPanel],
    size: PanelSize,
    columns: Option<usize>,
    style: &BoardStyle,
    key: &[K],
) -> Scene {
    let key: Vec<(Swatch, String)> = key
        .iter()
        .map(|e| (e.swatch(), e.text().to_string()))
        .collect();
    sheet_in_boxes(panels, size, columns, style, &key, 1)
}

/// [`sheet_with_key`] with every panel's box at least `min_box` square: boards
/// smaller than the box are centred in it, captions sit under the box and are
/// sized for it (the frames of a `--scale common` animation: one box, boards of
/// every size).
pub fn sheet_in_boxes(
    panels: &[BoardPanel],
    size: PanelSize,
    columns: Option<usize>,
    style: &BoardStyle,
    key: &[(Swatch, String)],
    min_box: u32,
) -> Scene {
    let columns = columns
        .unwrap_or_else(|| SheetLayout::default_columns(panels.len()))
        .max(1);
    let (panel_width, panel_height) = panels
        .iter()
        .map(|p| board_pixels(p.rows, p.cols, size))
        .fold((min_box.max(1), min_box.max(1)), |(a, b), (w, h)| {
            (a.max(w), b.max(h))
        });
    let columns = columns.min(panels.len().max(1));
    let caption_size = caption_size(style, panel_width, columns);
    let line_height = (caption_size * 1.45).ceil() as u32;
    let text_lines = panels
        .iter()
        .map(|p| usize::from(style.captions && p.caption.is_some()) + p.legend.len())
        .max()
        .unwrap_or(0) as u32;
    let caption_height = if text_lines > 0 {
        text_lines * line_height + line_height / 3
    } else {
        0
    };
    let layout = SheetLayout {
        columns: columns.min(panels.len().max(1)),
        panel_width,
        panel_height,
        gap: style.gap,
        margin: style.margin,
        caption_height,
    };
    let (natural, height) = layout.size(panels.len());
    // The last row's text needs no spacing under it, only its descent: the
    // margin follows, so the blank under the sheet matches the blank over it
    // (it was 1.5 times as deep, figure-2's 96 px against 62).
    // A key under the sheet keeps a quarter line of air over it.
    let height = height
        - match (text_lines > 0, key.is_empty()) {
            (true, true) => line_height / 3 + (caption_size * 0.25).floor() as u32,
            (true, false) => line_height / 3,
            (false, _) => 0,
        };
    // Whole panels leave up to a unit per column of the width asked for: it goes
    // to the margins, so the figure is exactly as wide as asked.
    let (width, shift) = match style.width {
        Some(asked) if asked > natural && asked - natural < layout.columns as u32 => {
            (asked, (asked - natural) / 2)
        }
        _ => (natural, 0),
    };
    let mut scene = Scene::new(width, height, style.background);
    // One decision for the whole sheet, so panels side by side look alike.
    let smallest_cell = panels
        .iter()
        .map(|p| {
            let (w, h) = board_pixels(p.rows, p.cols, size);
            (w as usize / p.cols.max(1)).min(h as usize / p.rows.max(1))
        })
        .min()
        .unwrap_or(0);
    let grid_on = match style.grid {
        GridLines::Auto => smallest_cell >= 6,
        GridLines::On => true,
        GridLines::Off => false,
    };

    for (k, panel) in panels.iter().enumerate() {
        let (px, py) = layout.panel_origin(k);
        let px = px + shift;
        let (w, h) = board_pixels(panel.rows, panel.cols, size);
        // Centre boards that are smaller than the common panel box.
        let rect = PixelRect {
            x: px + (panel_width - w) / 2,
            y: py + (panel_height - h) / 2,
            width: w,
            height: h,
        };
        draw_board(&mut scene, panel, rect, style, grid_on);

        let centre_x = f64::from(px) + f64::from(panel_width) / 2.0;
        let mut baseline = f64::from(py + panel_height + line_height) - caption_size * 0.25;
        if let (true, Some(caption)) = (style.captions, &panel.caption) {
            // A caption wider than its room shrinks to fit.
            let room = caption_room(panel_width, style.gap, layout.columns);
            scene.push(
                TextItem::centered(
                    centre_x,
                    baseline,
                    caption.clone(),
                    font::fitted_size(caption, caption_size, room),
                    style.caption_color,
                )
                .with_role(Role::Label),
            );
            baseline += f64::from(line_height);
        }
        for entry in &panel.legend {
            // Shrinks only if it would not fit its room, as the caption.
            let room = caption_room(panel_width, style.gap, layout.columns);
            let natural = key_size(style, panel_width, columns);
            scene.push(TextItem {
                x: centre_x,
                y: baseline,
                text: entry.text.clone(),
                size: font::fitted_size(&entry.text, natural, room),
                color: style.caption_color,
                halign: HAlign::Center,
                valign: VAlign::Baseline,
                rotation: 0.0,
                role: super::Role::Key,
            });
            baseline += f64::from(line_height);
        }
    }
    let room = f64::from(scene.width.saturating_sub(2 * style.margin.max(4)));
    if let Some(block) = legend::KeyBlock::new(key, key_size(style, panel_width, columns), room) {
        // In the bottom margin, which the key pushes down.
        let top = f64::from(scene.height.saturating_sub(style.margin));
        // The block keeps room under its last row for a descent and a
        // spacing; the margin after it is the spacing.
        scene.height += block.height.saturating_sub(block.trailing_space());
        let centre = f64::from(scene.width) / 2.0;
        block.draw(&mut scene, centre, top, style.caption_color);
    }
    if let Some(title) = &style.title {
        let scale = TypeScale::new(
            f64::from(style.width.unwrap_or(scene.width)),
            style.print.print.dpi.is_some(),
        );
        let natural = style
            .caption_size
            .map_or_else(|| scale.size(Role::Title), |size| size * 1.15);
        let room = f64::from(scene.width) - 2.0 * f64::from(style.margin.max(4));
        let (lines, size) = crate::library::scene::layout::fit_title(
            title,
            natural,
            scale.floor().min(natural),
            room,
            3,
        );
        scene = scene.with_title(&lines, size, style.caption_color);
    }
    style.print.apply(scene)
}

fn draw_board(
    scene: &mut Scene,
    panel: &BoardPanel,
    rect: PixelRect,
    style: &BoardStyle,
    grid_on: bool,
) {
    // Cells the colour of the background need not be drawn: the SVG stays small.
    let palette = panel
        .palette
        .iter()
        .map(|&c| {
            if c == style.background {
                Color::TRANSPARENT
            } else {
                c
            }
        })
        .collect();
    let layer = CellLayer {
        rect,
        rows: panel.rows,
        cols: panel.cols,
        indices: panel.indices.clone(),
        palette,
        grid_line: grid_on.then_some(style.grid_color),
    };
    let (x0, y0) = (f64::from(rect.x), f64::from(rect.y));
    let marks: Vec<PathItem> = panel
        .marks
        .iter()
        .flat_map(|mark| {
            let line = mark.line(rect.width);
            // The casing, the widest part, stays inside the block.
            let inset = line.casing_width() / 2.0;
            let left = x0 + f64::from(layer.col_edge(mark.col)) + inset;
            let top = y0 + f64::from(layer.row_edge(mark.row)) + inset;
            let right = x0 + f64::from(layer.col_edge(mark.col + mark.width)) - inset;
            let bottom = y0 + f64::from(layer.row_edge(mark.row + mark.height)) - inset;
            line.outline(&[(left, top), (right, top), (right, bottom), (left, bottom)])
        })
        .collect();
    scene.push(layer);
    if let Some(frame) = style.frame_color {
        // Half-pixel offsets put a 1 px line exactly on the pixels just outside the board.
        scene.push(
            PathItem::rect(
                x0 - 0.5,
                y0 - 0.5,
                f64::from(rect.width) + 1.0,
                f64::from(rect.height) + 1.0,
            )
            .stroked(frame, 1.0),
        );
    }
    for mark in marks {
        scene.push(mark);
    }
}
