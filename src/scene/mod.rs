//! Scenes: what a figure looks like, as a plain value.
//!
//! A [`Scene`] is a canvas size, a background and a list of [`Item`]s in
//! pixel coordinates (y down): crisp cell layers, vector paths and text.
//! Building one does no I/O; every encoder (PNG, SVG, ...) draws the same
//! scene, so a figure looks the same in every format. Text is turned into
//! glyph outlines of the embedded font by the encoders, never left to a
//! viewer's fonts.

#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub mod audit;
pub mod board;
pub mod chart;
pub mod color;
pub mod font;
pub mod frames;
pub mod item;
pub mod layout;
pub mod legend;
pub mod markup;
pub mod ramp;
pub mod sheet_size;
pub mod type_scale;
pub mod units;

pub use color::Color;
pub use item::{CellLayer, HAlign, Item, PathCmd, PathItem, PixelRect, TextItem, TextMode, VAlign};
pub use type_scale::{Role, TypeScale};

/// Checks the camera of a 3D view (the octahedra, a P-position plot): any finite
/// azimuth, an elevation in -90..=90 degrees. Errors name the flags.
pub fn check_view_angles(azimuth: f64, elevation: f64) -> crate::Result<()> {
    if !azimuth.is_finite() {
        return Err(crate::Error::invalid_parameter(
            "azimuth",
            format!("`azimuth` must be a number of degrees; got {azimuth}"),
        ));
    }
    if !(-90.0..=90.0).contains(&elevation) {
        return Err(crate::Error::invalid_parameter(
            "elevation",
            format!("`elevation` must be between -90 and 90 degrees; got {elevation}"),
        ));
    }
    Ok(())
}

/// A figure: a canvas of `width x height` pixels with items painted in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Colour under everything.
    pub background: Color,
    /// Items, painted first to last.
    pub items: Vec<Item>,
    /// Where the scene goes on paper, when a physical size or a dpi was asked for;
    /// `None` keeps one pixel per point and no stored resolution.
    pub paper: Option<units::Paper>,
    /// The typeface of every text item.
    pub font: font::Family,
    /// Whether SVG and PDF keep text as text or draw glyph outlines.
    pub text: TextMode,
}

impl Scene {
    /// An empty scene.
    pub fn new(width: u32, height: u32, background: Color) -> Self {
        Scene {
            width,
            height,
            background,
            items: Vec::new(),
            paper: None,
            font: font::Family::Sans,
            text: TextMode::Text,
        }
    }

    /// One pixel per cell on white: the raw figures as an image scene (SVG), where
    /// the PNG is streamed. `indices` are row-major into `palette`; transparent
    /// palette entries are the white background.
    pub fn pixel_cells(rows: usize, cols: usize, indices: Vec<u8>, palette: Vec<Color>) -> Self {
        let mut scene = Scene::new(cols as u32, rows as u32, Color::WHITE);
        scene.push(CellLayer {
            rect: PixelRect {
                x: 0,
                y: 0,
                width: cols as u32,
                height: rows as u32,
            },
            rows,
            cols,
            indices,
            palette,
            grid_line: None,
        });
        scene
    }

    /// [`Scene::pixel_cells`] of a bit grid: true cells black, the others white.
    pub fn raw_bits(grid: &crate::BitGrid) -> Self {
        Scene::pixel_cells(
            grid.rows(),
            grid.cols(),
            grid.to_indices(),
            vec![Color::TRANSPARENT, Color::BLACK],
        )
    }

    /// Adds an item on top.
    pub fn push(&mut self, item: impl Into<Item>) {
        self.items.push(item.into());
    }

    /// Size of a raster of this scene in pixels: the scene's size, or its paper at
    /// the paper's dpi.
    pub fn pixel_size(&self) -> (u32, u32) {
        match &self.paper {
            Some(paper) => paper.pixels(),
            None => (self.width, self.height),
        }
    }

    /// Puts the scene on paper: PNG at `print`'s dpi, PDF and SVG at the scene's size
    /// in points, or at `exact_width_pt` (the `--width` asked for, which the layout
    /// rounded to whole points). No dpi and no exact width leaves the scene as it is.
    pub fn on_paper(mut self, print: units::Print, exact_width_pt: Option<f64>) -> Self {
        // The exact width only stands in for a layout that filled it; a sheet that came
        // out narrower keeps one unit per point.
        let exact_width_pt = exact_width_pt.filter(|w| (w - f64::from(self.width)).abs() < 1.0);
        if print.dpi.is_some() || exact_width_pt.is_some() {
            self.paper = Some(units::Paper::for_scene(
                self.width,
                self.height,
                print.dpi.unwrap_or(units::DEFAULT_DPI),
                exact_width_pt,
            ));
        }
        self
    }

    /// The box holding the items from index `from` on: every path point and the
    /// extent of every text (its width from the font, its height from its size).
    pub fn bounds_from(&self, from: usize) -> Option<(f64, f64, f64, f64)> {
        let mut bounds: Option<(f64, f64, f64, f64)> = None;
        let mut include = |x: f64, y: f64| {
            let b = bounds.get_or_insert((x, y, x, y));
            *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        };
        for item in self.items.iter().skip(from) {
            match item {
                Item::Path(path) => {
                    for (x, y) in path.commands.iter().flat_map(|c| c.points()) {
                        include(x, y);
                    }
                }
                Item::Text(text) => {
                    let width = font::text_width_in(self.font, &text.text, text.size);
                    let left = match text.halign {
                        HAlign::Left => text.x,
                        HAlign::Center => text.x - width / 2.0,
                        HAlign::Right => text.x - width,
                    };
                    let top = match text.valign {
                        VAlign::Top => text.y,
                        VAlign::Middle => text.y - text.size / 2.0,
                        VAlign::Baseline | VAlign::Bottom => text.y - text.size,
                    };
                    include(left, top);
                    include(left + width, top + text.size);
                }
                Item::Cells(cells) => {
                    let r = cells.rect;
                    include(f64::from(r.x), f64::from(r.y));
                    include(f64::from(r.x + r.width), f64::from(r.y + r.height));
                }
            }
        }
        bounds
    }

    /// Moves the items from index `from` on by `map`: path points and text anchors
    /// (text sizes and stroke widths stay), so a drawing can be fitted to its room.
    /// Cell layers are left where they are.
    pub fn map_points_from(&mut self, from: usize, map: impl Fn(f64, f64) -> (f64, f64)) {
        for item in self.items.iter_mut().skip(from) {
            match item {
                Item::Path(path) => {
                    for cmd in &mut path.commands {
                        *cmd = match *cmd {
                            PathCmd::MoveTo(x, y) => {
                                let (x, y) = map(x, y);
                                PathCmd::MoveTo(x, y)
                            }
                            PathCmd::LineTo(x, y) => {
                                let (x, y) = map(x, y);
                                PathCmd::LineTo(x, y)
                            }
                            PathCmd::QuadTo(a, b, x, y) => {
                                let ((a, b), (x, y)) = (map(a, b), map(x, y));
                                PathCmd::QuadTo(a, b, x, y)
                            }
                            PathCmd::CubicTo(a, b, c, d, x, y) => {
                                let ((a, b), (c, d), (x, y)) = (map(a, b), map(c, d), map(x, y));
                                PathCmd::CubicTo(a, b, c, d, x, y)
                            }
                            PathCmd::Close => PathCmd::Close,
                        };
                    }
                }
                Item::Text(text) => (text.x, text.y) = map(text.x, text.y),
                Item::Cells(_) => {}
            }
        }
    }

    /// Divides every coordinate, size and line width by `k` (cell layers' rectangles
    /// rounded to whole units). Charts are drawn `k` times larger and scaled down:
    /// plotters places everything on whole units, which on a 240 pt chart makes
    /// curves visibly jagged.
    pub fn scale_down(&mut self, k: u32) {
        let f = 1.0 / f64::from(k.max(1));
        self.width = (self.width / k.max(1)).max(1);
        self.height = (self.height / k.max(1)).max(1);
        let p = |x: f64| x * f;
        for item in &mut self.items {
            match item {
                Item::Path(path) => {
                    for cmd in &mut path.commands {
                        *cmd = match *cmd {
                            PathCmd::MoveTo(x, y) => PathCmd::MoveTo(p(x), p(y)),
                            PathCmd::LineTo(x, y) => PathCmd::LineTo(p(x), p(y)),
                            PathCmd::QuadTo(a, b, x, y) => PathCmd::QuadTo(p(a), p(b), p(x), p(y)),
                            PathCmd::CubicTo(a, b, c, d, x, y) => {
                                PathCmd::CubicTo(p(a), p(b), p(c), p(d), p(x), p(y))
                            }
                            PathCmd::Close => PathCmd::Close,
                        };
                    }
                    if let Some((_, width)) = &mut path.stroke {
                        *width *= f;
                    }
                }
                Item::Text(text) => {
                    text.x *= f;
                    text.y *= f;
                    text.size *= f;
                }
                Item::Cells(cells) => {
                    let r = |v: u32| (f64::from(v) * f).round() as u32;
                    cells.rect = PixelRect {
                        x: r(cells.rect.x),
                        y: r(cells.rect.y),
                        width: r(cells.rect.width).max(1),
                        height: r(cells.rect.height).max(1),
                    };
                }
            }
        }
    }

    /// How far [`Scene::with_title`] moves everything down for `lines` lines
    /// of `size`: known before the items are, for figures that must place
    /// pixels where they will finally land.
    pub fn title_height(lines: usize, size: f64) -> u32 {
        if lines == 0 {
            return 0;
        }
        (lines as f64 * size * 1.3 + size * 0.5).ceil() as u32
    }

    /// Adds `lines` of centred text (at `size`) above everything, making the scene
    /// taller: a title over a sheet or picture.
    pub fn with_title(mut self, lines: &[String], size: f64, color: Color) -> Self {
        if lines.is_empty() {
            return self;
        }
        let line = size * 1.3;
        let dy = f64::from(Scene::title_height(lines.len(), size));
        for item in &mut self.items {
            match item {
                Item::Path(path) => {
                    for cmd in &mut path.commands {
                        *cmd = match *cmd {
                            PathCmd::MoveTo(x, y) => PathCmd::MoveTo(x, y + dy),
                            PathCmd::LineTo(x, y) => PathCmd::LineTo(x, y + dy),
                            PathCmd::QuadTo(a, b, x, y) => PathCmd::QuadTo(a, b + dy, x, y + dy),
                            PathCmd::CubicTo(a, b, c, d, x, y) => {
                                PathCmd::CubicTo(a, b + dy, c, d + dy, x, y + dy)
                            }
                            PathCmd::Close => PathCmd::Close,
                        }
                    }
                }
                Item::Text(text) => text.y += dy,
                Item::Cells(cells) => cells.rect.y += dy as u32,
            }
        }
        self.height += dy as u32;
        let centre = f64::from(self.width) / 2.0;
        for (k, text) in lines.iter().enumerate() {
            self.items.push(Item::Text(
                TextItem::centered(
                    centre,
                    size * 1.2 + line * k as f64,
                    text.clone(),
                    size,
                    color,
                )
                .with_role(Role::Title),
            ));
        }
        self
    }

    /// Sets the typeface of every text item.
    pub fn with_font(mut self, family: font::Family) -> Self {
        self.font = family;
        self
    }

    /// Bytes a raster of this scene needs (RGBA canvas plus cell indices): the figure for
    /// memory limits.
    pub fn raster_bytes(&self) -> u64 {
        let (width, height) = self.pixel_size();
        let canvas = u64::from(width) * u64::from(height) * 4;
        let cells: u64 = self
            .items
            .iter()
            .map(|item| match item {
                Item::Cells(cells) => cells.indices.len() as u64,
                _ => 0,
            })
            .sum();
        canvas + cells
    }
}

impl units::PrintStyle {
    /// The scene with this print style.
    pub fn apply(&self, scene: Scene) -> Scene {
        let mut scene = scene.on_paper(self.print, self.exact_width_pt);
        scene.font = self.font;
        scene.text = self.text;
        scene
    }
}
