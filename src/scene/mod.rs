//! Scenes: what a figure looks like, as a plain value.
//!
//! A [`Scene`] is a canvas size, a background and a list of [`Item`]s in
//! pixel coordinates (y down): crisp cell layers, vector paths and text.
//! Building one does no I/O; every encoder (PNG, SVG, ...) draws the same
//! scene, so a figure looks the same in every format. Text is turned into
//! glyph outlines of the embedded font by the encoders, never left to a
//! viewer's fonts.

pub mod board;
pub mod chart;
pub mod color;
pub mod font;
pub mod frames;
pub mod layout;
pub mod legend;
pub mod markup;
pub mod ramp;
pub mod units;

pub use color::Color;

/// Checks the camera of a 3D view (the octahedra, a P-position plot): any finite
/// azimuth, an elevation in -90..=90 degrees. Errors name the flags.
pub fn check_view_angles(azimuth: f64, elevation: f64) -> crate::Result<()> {
    if !azimuth.is_finite() {
        return Err(crate::Error::invalid(format!(
            "`azimuth` must be a number of degrees; got {azimuth}"
        )));
    }
    if !(-90.0..=90.0).contains(&elevation) {
        return Err(crate::Error::invalid(format!(
            "`elevation` must be between -90 and 90 degrees; got {elevation}"
        )));
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

/// How vector formats carry text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextMode {
    /// Real text: selectable and searchable. PDF embeds a subset of the font; SVG,
    /// which has no portable way to embed a subset, draws the exact glyph outlines
    /// with the words as selectable text laid invisibly over them.
    #[default]
    Text,
    /// Glyph outlines only (paths), for printers and tools that mishandle fonts.
    Outlines,
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
                    for cmd in &path.commands {
                        match *cmd {
                            PathCmd::MoveTo(x, y) | PathCmd::LineTo(x, y) => include(x, y),
                            PathCmd::QuadTo(a, b, x, y) => {
                                include(a, b);
                                include(x, y);
                            }
                            PathCmd::CubicTo(a, b, c, d, x, y) => {
                                include(a, b);
                                include(c, d);
                                include(x, y);
                            }
                            PathCmd::Close => {}
                        }
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
            self.items.push(Item::Text(TextItem::centered(
                centre,
                size * 1.2 + line * k as f64,
                text.clone(),
                size,
                color,
            )));
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

/// One thing drawn on a scene.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A grid of cells, crisp at pixel boundaries.
    Cells(CellLayer),
    /// A filled and/or stroked vector path.
    Path(PathItem),
    /// A line of text in the embedded font.
    Text(TextItem),
}

impl From<CellLayer> for Item {
    fn from(value: CellLayer) -> Self {
        Item::Cells(value)
    }
}
impl From<PathItem> for Item {
    fn from(value: PathItem) -> Self {
        Item::Path(value)
    }
}
impl From<TextItem> for Item {
    fn from(value: TextItem) -> Self {
        Item::Text(value)
    }
}

/// An integer pixel rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixelRect {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// A `rows x cols` grid of palette indices stretched over a pixel rectangle.
///
/// Cell edges fall on whole pixels: column `k` starts at `x + floor(k * width / cols)`,
/// so cells never smear across a pixel even when the panel size is not a multiple of
/// the board size. The SVG encoder uses the very same edges.
#[derive(Debug, Clone, PartialEq)]
pub struct CellLayer {
    /// Where the grid goes.
    pub rect: PixelRect,
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// Palette index of each cell, row-major.
    pub indices: Vec<u8>,
    /// Colours by index; a transparent colour leaves the cell undrawn.
    pub palette: Vec<Color>,
    /// One-pixel lines along every cell edge, when set.
    pub grid_line: Option<Color>,
}

impl CellLayer {
    /// Pixel offset of column edge `k` (0..=cols) from the rectangle's left.
    pub fn col_edge(&self, k: usize) -> u32 {
        edge(k, self.cols, self.rect.width)
    }

    /// Pixel offset of row edge `k` (0..=rows) from the rectangle's top.
    pub fn row_edge(&self, k: usize) -> u32 {
        edge(k, self.rows, self.rect.height)
    }
}

fn edge(k: usize, count: usize, span: u32) -> u32 {
    (k as u64 * u64::from(span) / count.max(1) as u64) as u32
}

/// One step of a vector path, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PathCmd {
    /// Start a new sub-path.
    MoveTo(f64, f64),
    /// Straight line.
    LineTo(f64, f64),
    /// Quadratic Bézier: control point, end point.
    QuadTo(f64, f64, f64, f64),
    /// Cubic Bézier: two control points, end point.
    CubicTo(f64, f64, f64, f64, f64, f64),
    /// Close the sub-path.
    Close,
}

/// A vector path with optional fill and stroke.
#[derive(Debug, Clone, PartialEq)]
pub struct PathItem {
    /// The outline.
    pub commands: Vec<PathCmd>,
    /// Fill colour (non-zero winding), if any.
    pub fill: Option<Color>,
    /// Stroke colour and width in pixels, if any.
    pub stroke: Option<(Color, f64)>,
}

impl PathItem {
    /// The outline of an axis-aligned rectangle.
    pub fn rect(x: f64, y: f64, width: f64, height: f64) -> Self {
        PathItem::polygon(&[
            (x, y),
            (x + width, y),
            (x + width, y + height),
            (x, y + height),
        ])
    }

    /// A closed polygon.
    pub fn polygon(points: &[(f64, f64)]) -> Self {
        let mut commands = Vec::with_capacity(points.len() + 1);
        for (k, &(x, y)) in points.iter().enumerate() {
            commands.push(if k == 0 {
                PathCmd::MoveTo(x, y)
            } else {
                PathCmd::LineTo(x, y)
            });
        }
        commands.push(PathCmd::Close);
        PathItem {
            commands,
            fill: None,
            stroke: None,
        }
    }

    /// An open polyline.
    pub fn polyline(points: &[(f64, f64)]) -> Self {
        let mut item = PathItem::polygon(points);
        item.commands.pop();
        item
    }

    /// Sets the fill.
    pub fn filled(mut self, color: Color) -> Self {
        self.fill = Some(color);
        self
    }

    /// Sets the stroke.
    pub fn stroked(mut self, color: Color, width: f64) -> Self {
        self.stroke = Some((color, width));
        self
    }
}

/// Where a text's anchor point sits horizontally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HAlign {
    /// Anchor at the start of the text.
    Left,
    /// Anchor at the middle.
    Center,
    /// Anchor at the end.
    Right,
}

/// Where a text's anchor point sits vertically.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VAlign {
    /// Anchor at the top of capitals (the font's ascent).
    Top,
    /// Anchor half-way up the capitals.
    Middle,
    /// Anchor on the baseline.
    Baseline,
    /// Anchor at the bottom of descenders.
    Bottom,
}

/// One line of text.
#[derive(Debug, Clone, PartialEq)]
pub struct TextItem {
    /// Anchor point x.
    pub x: f64,
    /// Anchor point y.
    pub y: f64,
    /// The text.
    pub text: String,
    /// Font size in pixels (the em size).
    pub size: f64,
    /// Colour.
    pub color: Color,
    /// Horizontal alignment at the anchor.
    pub halign: HAlign,
    /// Vertical alignment at the anchor.
    pub valign: VAlign,
    /// Rotation about the anchor, degrees clockwise (90 reads top to bottom).
    pub rotation: f64,
}

impl TextItem {
    /// Centred text with its baseline at `y`.
    pub fn centered(x: f64, y: f64, text: impl Into<String>, size: f64, color: Color) -> Self {
        TextItem {
            x,
            y,
            text: text.into(),
            size,
            color,
            halign: HAlign::Center,
            valign: VAlign::Baseline,
            rotation: 0.0,
        }
    }
}
