//! Keys: a swatch and a line of text per entry.
//!
//! Two layouts use them: a board panel's legend (one entry a line, under the
//! panel, in [`super::board`]) and a figure's key (entries side by side,
//! wrapped into centred rows, under a Grundy table or a sheet). Both draw the
//! swatch the same way, with [`swatch`]. A key entry's swatch is a colour, or a
//! sample of a line (the decomposition's outlines, told apart by dashes as
//! well as hue, so a greyscale print keeps them apart).

use super::color::INK;
use super::{Color, HAlign, PathItem, Scene, TextItem, VAlign};
use crate::library::scene::font;

/// The thin edge of every legend swatch (so a white swatch shows).
pub const SWATCH_EDGE: Color = Color::rgb(0x73, 0x73, 0x73);

/// A square swatch of `side` pixels with its top-left corner at (`x`, `top`):
/// filled with the colour, a thin grey edge so white shows.
pub fn swatch(x: f64, top: f64, side: f64, color: Color) -> PathItem {
    PathItem::rect(x, top, side, side)
        .filled(color)
        .stroked(SWATCH_EDGE, 1.0)
}

/// What stands for an entry in a key: a filled square, or a sample of a line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Swatch {
    /// A square of the colour.
    Fill(Color),
    /// A stretch of an outline as it is drawn on the figure.
    Line(LineStyle),
    /// An outlined marker in ink, as a figure marks points with it.
    Mark(MarkSwatch),
}

/// The shape of a [`Swatch::Mark`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkSwatch {
    /// A square ring.
    Square,
    /// A diamond (a square on its corner).
    Diamond,
    /// A triangle, point up.
    Triangle,
}

impl From<Color> for Swatch {
    fn from(color: Color) -> Self {
        Swatch::Fill(color)
    }
}

/// How an outline is drawn: a core of `color` and `width` pixels, solid or
/// dashed, over a white casing half as wide again on each side, so the line
/// stands out on dark cells and light ones alike, in colour or in grey.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineStyle {
    /// Colour of the core.
    pub color: Color,
    /// Width of the core in pixels.
    pub width: f64,
    /// Dashes (and the casing between them), or one solid line.
    pub dashed: bool,
}

impl LineStyle {
    /// The casing's width: the core plus a quarter of it on either side.
    pub fn casing_width(&self) -> f64 {
        self.width * 1.5
    }

    /// The dash and the gap between dashes along a dashed line.
    fn dash_and_gap(&self) -> (f64, f64) {
        (self.width * 3.0, self.width * 2.0)
    }

    /// The casing and core paths of a closed polygon (`points` in order).
    pub fn outline(&self, points: &[(f64, f64)]) -> [PathItem; 2] {
        let sides = (0..points.len()).map(|k| (points[k], points[(k + 1) % points.len()]));
        self.cased(PathItem::polygon(points), sides)
    }

    /// An open stretch of the line from `a` to `b` (a key's sample).
    pub fn stretch(&self, a: (f64, f64), b: (f64, f64)) -> [PathItem; 2] {
        self.cased(PathItem::polyline(&[a, b]), [(a, b)].into_iter())
    }

    /// `solid` on its white casing, its core dashed along `sides` if dashed.
    fn cased(
        &self,
        solid: PathItem,
        sides: impl Iterator<Item = ((f64, f64), (f64, f64))>,
    ) -> [PathItem; 2] {
        let casing = solid.clone().stroked(Color::WHITE, self.casing_width());
        let core = if self.dashed {
            let mut commands = Vec::new();
            for (a, b) in sides {
                self.dash_side(a, b, &mut commands);
            }
            PathItem {
                commands,
                fill: None,
                stroke: None,
            }
        } else {
            solid
        };
        [casing, core.stroked(self.color, self.width)]
    }

    /// Dashes from `a` to `b` spaced evenly, with a dash at both ends, so every
    /// corner of a dashed outline is drawn.
    fn dash_side(&self, a: (f64, f64), b: (f64, f64), commands: &mut Vec<super::PathCmd>) {
        use super::PathCmd::{LineTo, MoveTo};
        let (dash, gap) = self.dash_and_gap();
        let length = (b.0 - a.0).hypot(b.1 - a.1);
        let count = ((length + gap) / (dash + gap)).round().max(1.0);
        // Dashes stretched or shrunk a little so the pattern ends on the corner.
        let dash = if count > 1.0 {
            (length - (count - 1.0) * gap) / count
        } else {
            length
        };
        let at = |d: f64| {
            let f = if length > 0.0 { d / length } else { 0.0 };
            (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)
        };
        for k in 0..count as usize {
            let start = k as f64 * (dash + gap);
            let (x0, y0) = at(start);
            let (x1, y1) = at(start + dash);
            commands.push(MoveTo(x0, y0));
            commands.push(LineTo(x1, y1));
        }
    }
}

impl Swatch {
    /// Its width in a key whose text is `size` pixels: a square for a colour,
    /// a stretch long enough for two dashes for a line.
    fn width(&self, size: f64) -> f64 {
        match self {
            Swatch::Fill(_) | Swatch::Mark(_) => size,
            Swatch::Line(_) => size * 2.2,
        }
    }

    /// Draws it at `x`, its bottom on `baseline`, beside text `size` pixels high.
    fn draw(&self, scene: &mut Scene, x: f64, baseline: f64, size: f64) {
        match self {
            Swatch::Fill(color) => scene.push(swatch(x, baseline - size, size, *color)),
            Swatch::Mark(shape) => {
                let (cx, cy, r) = (x + size / 2.0, baseline - size / 2.0, size * 0.36);
                let line = (size * 0.12).max(1.0);
                let path = match shape {
                    MarkSwatch::Square => PathItem::rect(cx - r, cy - r, 2.0 * r, 2.0 * r),
                    MarkSwatch::Diamond => {
                        let d = r * 1.3;
                        PathItem::polygon(&[(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)])
                    }
                    MarkSwatch::Triangle => triangle(cx, cy, r),
                };
                scene.push(path.stroked(super::color::INK, line));
            }
            Swatch::Line(line) => {
                // At half the height of a capital, as the swatch square's middle.
                let y = baseline - size * 0.36;
                let inset = line.casing_width() / 2.0;
                for path in line.stretch((x + inset, y), (x + self.width(size) - inset, y)) {
                    scene.push(path);
                }
            }
        }
    }
}

/// A key entry: anything with a swatch and a text (a colour and its meaning,
/// or a line style and its meaning).
pub trait KeyEntry: Clone {
    /// What stands for the entry.
    fn swatch(&self) -> Swatch;
    /// What the entry says.
    fn text(&self) -> &str;
}

impl KeyEntry for (Color, String) {
    fn swatch(&self) -> Swatch {
        Swatch::Fill(self.0)
    }
    fn text(&self) -> &str {
        &self.1
    }
}

impl KeyEntry for (Swatch, String) {
    fn swatch(&self) -> Swatch {
        self.0
    }
    fn text(&self) -> &str {
        &self.1
    }
}

/// Key entries in rows no wider than `room` (at least one entry a row).
pub fn key_rows<K: KeyEntry>(entries: &[K], size: f64, room: f64) -> Vec<Vec<K>> {
    let mut rows: Vec<Vec<K>> = Vec::new();
    for entry in entries {
        let fits = rows.last().is_some_and(|row| {
            let mut trial = row.clone();
            trial.push(entry.clone());
            key_width(&trial, size) <= room
        });
        match rows.last_mut() {
            Some(row) if fits => row.push(entry.clone()),
            _ => rows.push(vec![entry.clone()]),
        }
    }
    rows
}

/// The width of one row of the key at text size `size`.
pub fn key_width<K: KeyEntry>(entries: &[K], size: f64) -> f64 {
    entries
        .iter()
        .map(|e| {
            e.swatch().width(size) + size * 0.5 + font::text_width(e.text(), size) + size * 1.5
        })
        .sum()
}

/// Draws one row of the key centred on `centre`, its text on `baseline`.
pub fn draw_key<K: KeyEntry>(
    scene: &mut Scene,
    entries: &[K],
    centre: f64,
    baseline: f64,
    size: f64,
) {
    draw_key_in(scene, entries, centre, baseline, size, INK);
}

/// [`draw_key`] with text in `ink`.
fn draw_key_in<K: KeyEntry>(
    scene: &mut Scene,
    entries: &[K],
    centre: f64,
    baseline: f64,
    size: f64,
    ink: Color,
) {
    let mut x = centre - key_width(entries, size) / 2.0;
    for entry in entries {
        let swatch = entry.swatch();
        swatch.draw(scene, x, baseline, size);
        x += swatch.width(size) + size * 0.5;
        let text = entry.text();
        scene.push(TextItem {
            x,
            y: baseline,
            text: text.to_string(),
            size,
            color: ink,
            halign: HAlign::Left,
            valign: VAlign::Baseline,
            rotation: 0.0,
            role: super::Role::Key,
        });
        x += font::text_width(text, size) + size * 1.5;
    }
}

/// A figure's key laid out under a sheet: rows of entries wrapped to the
/// sheet's width, at a size shrunk only if one entry alone would not fit.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyBlock {
    rows: Vec<Vec<(Swatch, String)>>,
    size: f64,
    /// Pixels the key adds under the sheet.
    pub height: u32,
}

impl KeyBlock {
    /// The key of `entries` at text size `natural`, in rows no wider than
    /// `room`; `None` without entries.
    pub fn new<K: KeyEntry>(entries: &[K], natural: f64, room: f64) -> Option<KeyBlock> {
        if entries.is_empty() {
            return None;
        }
        let entries: Vec<(Swatch, String)> = entries
            .iter()
            .map(|e| (e.swatch(), e.text().to_string()))
            .collect();
        let widest = entries
            .iter()
            .map(|e| key_width(std::slice::from_ref(e), natural))
            .fold(0.0, f64::max);
        let size = if widest > room && room > 0.0 {
            natural * room / widest
        } else {
            natural
        };
        let rows = key_rows(&entries, size, room);
        let height = (size * (0.6 + 1.6 * rows.len() as f64)).ceil() as u32;
        Some(KeyBlock { rows, size, height })
    }

    /// Pixels of [`KeyBlock::height`] under the last row's baseline, less a
    /// little of its descent: a spacing a figure may leave to its margin.
    pub fn trailing_space(&self) -> u32 {
        (self.size * 0.75).floor() as u32
    }

    /// Draws the rows centred on `centre`, the first from `top` down, text in `ink`.
    pub fn draw(&self, scene: &mut Scene, centre: f64, top: f64, ink: Color) {
        for (k, row) in self.rows.iter().enumerate() {
            let baseline = top + self.size * (1.3 + 1.6 * k as f64);
            draw_key_in(scene, row, centre, baseline, self.size, ink);
        }
    }
}

/// A triangle, point up, centred at `(cx, cy)`, `r` from centre to side.
pub fn triangle(cx: f64, cy: f64, r: f64) -> PathItem {
    let d = r * 1.4;
    PathItem::polygon(&[
        (cx, cy - d),
        (cx + d, cy + d * 0.75),
        (cx - d, cy + d * 0.75),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(k: usize) -> Vec<(Color, String)> {
        (0..k)
            .map(|i| (Color::gray(i as f64 / k as f64), format!("≡ {i} (mod {k})")))
            .collect()
    }

    #[test]
    fn key_rows_keep_every_entry_in_order_and_fit_the_room() {
        let size = 10.0;
        let all = entries(7);
        let one = key_width(&all[..1], size);
        for room in [0.0, one, 2.5 * one, 1e9] {
            let rows = key_rows(&all, size, room);
            let flat: Vec<_> = rows.iter().flatten().cloned().collect();
            assert_eq!(flat, all, "room {room}");
            for row in &rows {
                assert!(!row.is_empty());
                // A row wider than the room holds only the one entry that cannot be split.
                assert!(
                    row.len() == 1 || key_width(row, size) <= room,
                    "room {room}"
                );
            }
            // Greedy: the first entry of each next row would not have fitted.
            for pair in rows.windows(2) {
                let mut trial = pair[0].clone();
                trial.push(pair[1][0].clone());
                assert!(key_width(&trial, size) > room);
            }
        }
        assert_eq!(key_rows(&all, size, 1e9).len(), 1);
        assert_eq!(key_rows(&all, size, 0.0).len(), 7);
    }

    #[test]
    fn a_key_row_is_centred_with_one_swatch_and_text_per_entry() {
        let mut scene = Scene::new(400, 100, Color::WHITE);
        let row = entries(3);
        let size = 12.0;
        draw_key(&mut scene, &row, 200.0, 50.0, size);
        assert_eq!(scene.items.len(), 6);
        let mut left = f64::INFINITY;
        let mut right = f64::NEG_INFINITY;
        for item in &scene.items {
            match item {
                super::super::Item::Path(p) => {
                    if let Some(super::super::PathCmd::MoveTo(x, _)) = p.commands.first() {
                        left = left.min(*x);
                    }
                    assert_eq!(p.stroke.map(|s| s.0), Some(SWATCH_EDGE));
                }
                super::super::Item::Text(t) => {
                    right = right.max(t.x + font::text_width(&t.text, t.size) + size * 1.5);
                    assert_eq!(t.y, 50.0);
                }
                other => panic!("unexpected item {other:?}"),
            }
        }
        assert!((left + right - 400.0).abs() < 1e-9, "{left}..{right}");
    }
}
