//! The embedded font (DejaVu Sans, Bitstream Vera licence in `assets/fonts/`).
//!
//! Text is drawn as glyph outlines, in PNG and SVG alike, so a figure never
//! depends on the fonts of the machine that renders or views it.

use crate::scene::{HAlign, PathCmd, TextItem, VAlign};
use ab_glyph::{Font, FontRef, OutlineCurve};
use std::sync::OnceLock;

/// The bytes of DejaVu Sans.
pub const DEJAVU_SANS: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// Cap height of DejaVu Sans as a fraction of the em (1493 / 2048).
const CAP_HEIGHT: f64 = 1493.0 / 2048.0;

/// The parsed embedded font.
pub fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        FontRef::try_from_slice(DEJAVU_SANS).expect("the embedded DejaVu Sans parses")
    })
}

fn units_per_em() -> f64 {
    f64::from(font().units_per_em().unwrap_or(2048.0))
}

/// Width of `text` at `size` px, including kerning.
pub fn text_width(text: &str, size: f64) -> f64 {
    let font = font();
    let scale = size / units_per_em();
    let mut width = 0.0;
    let mut previous = None;
    for ch in text.chars() {
        let id = font.glyph_id(ch);
        if let Some(prev) = previous {
            width += f64::from(font.kern_unscaled(prev, id));
        }
        width += f64::from(font.h_advance_unscaled(id));
        previous = Some(id);
    }
    width * scale
}

/// A text size no larger than `size` at which `text` fits in `room` px: how
/// captions shrink rather than spill past their panel.
pub fn fitted_size(text: &str, size: f64, room: f64) -> f64 {
    let width = text_width(text, size);
    if width > room && width > 0.0 {
        size * room / width
    } else {
        size
    }
}

/// Ascent and descent (positive, below the baseline) at `size` px.
pub fn vertical_metrics(size: f64) -> (f64, f64) {
    let scale = size / units_per_em();
    let font = font();
    (
        f64::from(font.ascent_unscaled()) * scale,
        -f64::from(font.descent_unscaled()) * scale,
    )
}

/// The outline of a text item, in scene pixels.
pub fn text_path(item: &TextItem) -> Vec<PathCmd> {
    let font = font();
    let scale = item.size / units_per_em();
    let width = text_width(&item.text, item.size);
    let (_, descent) = vertical_metrics(item.size);
    let dx = match item.halign {
        HAlign::Left => 0.0,
        HAlign::Center => -width / 2.0,
        HAlign::Right => -width,
    };
    let dy = match item.valign {
        VAlign::Top => CAP_HEIGHT * item.size,
        VAlign::Middle => CAP_HEIGHT * item.size / 2.0,
        VAlign::Baseline => 0.0,
        VAlign::Bottom => -descent,
    };
    let (sin, cos) = item.rotation.to_radians().sin_cos();
    let place = |gx: f64, gy: f64| -> (f64, f64) {
        // Glyph units are y-up; the scene is y-down.
        let (ox, oy) = (dx + gx * scale, dy - gy * scale);
        (item.x + cos * ox - sin * oy, item.y + sin * ox + cos * oy)
    };

    let mut commands = Vec::new();
    let mut pen = 0.0f64;
    let mut previous = None;
    for ch in item.text.chars() {
        let id = font.glyph_id(ch);
        if let Some(prev) = previous {
            pen += f64::from(font.kern_unscaled(prev, id));
        }
        if let Some(outline) = font.outline(id) {
            let mut current: Option<ab_glyph::Point> = None;
            for curve in &outline.curves {
                let start = match curve {
                    OutlineCurve::Line(p0, _)
                    | OutlineCurve::Quad(p0, _, _)
                    | OutlineCurve::Cubic(p0, _, _, _) => *p0,
                };
                if current != Some(start) {
                    if current.is_some() {
                        commands.push(PathCmd::Close);
                    }
                    let (x, y) = place(pen + f64::from(start.x), f64::from(start.y));
                    commands.push(PathCmd::MoveTo(x, y));
                }
                let at = |p: &ab_glyph::Point| place(pen + f64::from(p.x), f64::from(p.y));
                let end = match curve {
                    OutlineCurve::Line(_, p1) => {
                        let (x, y) = at(p1);
                        commands.push(PathCmd::LineTo(x, y));
                        *p1
                    }
                    OutlineCurve::Quad(_, c, p1) => {
                        let ((cx, cy), (x, y)) = (at(c), at(p1));
                        commands.push(PathCmd::QuadTo(cx, cy, x, y));
                        *p1
                    }
                    OutlineCurve::Cubic(_, c1, c2, p1) => {
                        let ((ax, ay), (bx, by), (x, y)) = (at(c1), at(c2), at(p1));
                        commands.push(PathCmd::CubicTo(ax, ay, bx, by, x, y));
                        *p1
                    }
                };
                current = Some(end);
            }
            if current.is_some() {
                commands.push(PathCmd::Close);
            }
        }
        pen += f64::from(font.h_advance_unscaled(id));
        previous = Some(id);
    }
    commands
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Color;

    #[test]
    fn text_has_outlines_of_the_measured_width() {
        let item = TextItem::centered(100.0, 50.0, "m = 11", 20.0, Color::BLACK);
        let path = text_path(&item);
        assert!(path.len() > 20);
        let xs: Vec<f64> = path
            .iter()
            .filter_map(|c| match c {
                PathCmd::MoveTo(x, _) | PathCmd::LineTo(x, _) => Some(*x),
                _ => None,
            })
            .collect();
        let (min, max) = xs
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        let width = text_width("m = 11", 20.0);
        assert!(
            (min - (100.0 - width / 2.0)).abs() < 3.0 && (max - (100.0 + width / 2.0)).abs() < 3.0
        );
    }

    #[test]
    fn greek_and_superscripts_are_covered() {
        for ch in ['α', 'Σ', '²', '↦'] {
            assert_ne!(font().glyph_id(ch).0, 0, "no glyph for {ch}");
        }
    }
}
