//! What a scene is made of: cell layers, paths and text, and how vector
//! formats carry text. Plain values; the [`Scene`](super::Scene) holds them.

use super::color::Color;

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

impl Item {
    /// Moves the item by whole units, so cell layers keep their crisp edges
    /// (sheets and side-by-side panels place a drawn panel this way).
    pub fn translate(&mut self, dx: u32, dy: u32) {
        let (fx, fy) = (f64::from(dx), f64::from(dy));
        match self {
            Item::Cells(cells) => {
                cells.rect.x += dx;
                cells.rect.y += dy;
            }
            Item::Path(path) => {
                for cmd in &mut path.commands {
                    *cmd = match *cmd {
                        PathCmd::MoveTo(x, y) => PathCmd::MoveTo(x + fx, y + fy),
                        PathCmd::LineTo(x, y) => PathCmd::LineTo(x + fx, y + fy),
                        PathCmd::QuadTo(a, b, x, y) => {
                            PathCmd::QuadTo(a + fx, b + fy, x + fx, y + fy)
                        }
                        PathCmd::CubicTo(a, b, c, d, x, y) => {
                            PathCmd::CubicTo(a + fx, b + fy, c + fx, d + fy, x + fx, y + fy)
                        }
                        PathCmd::Close => PathCmd::Close,
                    };
                }
            }
            Item::Text(text) => {
                text.x += fx;
                text.y += fy;
            }
        }
    }
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

impl PathCmd {
    /// The points the step names, control points first, end point last.
    pub fn points(self) -> impl Iterator<Item = (f64, f64)> {
        let points = match self {
            PathCmd::MoveTo(x, y) | PathCmd::LineTo(x, y) => [None, None, Some((x, y))],
            PathCmd::QuadTo(a, b, x, y) => [Some((a, b)), None, Some((x, y))],
            PathCmd::CubicTo(a, b, c, d, x, y) => [Some((a, b)), Some((c, d)), Some((x, y))],
            PathCmd::Close => [None, None, None],
        };
        points.into_iter().flatten()
    }
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
    /// What the text is for: its size comes from the figure's
    /// [`TypeScale`](super::type_scale::TypeScale) for this role (checked by [`super::audit`]).
    pub role: super::type_scale::Role,
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
            role: super::type_scale::Role::Other,
        }
    }

    /// The same text tagged with its role.
    pub fn with_role(mut self, role: super::type_scale::Role) -> Self {
        self.role = role;
        self
    }
}
