//! The embedded fonts: DejaVu Sans and DejaVu Serif (Bitstream Vera licence,
//! `assets/fonts/LICENSE-DejaVu.txt`). Math variables are the same face slanted
//! by [`SLANT`], as DejaVu Sans Oblique is: one font per figure, so a PDF embeds
//! one subset.
//!
//! Layout (widths, placement of sub- and superscripts) is measured here, once,
//! and every encoder follows it: PNG and `--text outlines` draw the glyph
//! outlines, SVG and PDF place real text at the same positions, so a figure
//! never depends on the fonts of the machine that renders or views it.

use crate::library::scene::item::{HAlign, PathCmd, TextItem, VAlign};
use crate::library::scene::markup::{self, Level};
use ab_glyph::{Font, FontRef, OutlineCurve};
use std::sync::OnceLock;

/// The bytes of DejaVu Sans.
pub const DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// The bytes of DejaVu Serif, which sits well beside LaTeX's Computer Modern.
pub const DEJAVU_SERIF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSerif.ttf");
/// Slant of italic runs, degrees: DejaVu Sans Oblique's own angle.
pub const SLANT: f64 = 11.0;

/// Cap height of DejaVu Sans as a fraction of the em (1493 / 2048); the serif's
/// capitals are the same height.
pub const CAP_HEIGHT: f64 = 1493.0 / 2048.0;

/// A typeface family of every text of a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Family {
    /// DejaVu Sans (the default).
    #[default]
    Sans,
    /// DejaVu Serif.
    Serif,
}

impl Family {
    /// The family name fonts and SVG use.
    pub fn name(self) -> &'static str {
        match self {
            Family::Sans => "DejaVu Sans",
            Family::Serif => "DejaVu Serif",
        }
    }

    /// The font bytes.
    pub fn bytes(self) -> &'static [u8] {
        match self {
            Family::Sans => DEJAVU_SANS,
            Family::Serif => DEJAVU_SERIF,
        }
    }
}

/// The parsed face of a family (italic runs use it slanted, see [`SLANT`]).
pub fn face(family: Family, _italic: bool) -> &'static FontRef<'static> {
    static FACES: [OnceLock<FontRef<'static>>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = match family {
        Family::Sans => 0,
        Family::Serif => 1,
    };
    FACES[slot].get_or_init(|| {
        FontRef::try_from_slice(family.bytes()).expect("the embedded DejaVu fonts parse")
    })
}

/// The parsed DejaVu Sans.
pub fn font() -> &'static FontRef<'static> {
    face(Family::Sans, false)
}

fn units_per_em(font: &FontRef<'static>) -> f64 {
    f64::from(font.units_per_em().unwrap_or(2048.0))
}

/// Advance width of plain `text` in one face at `size`, including kerning.
fn run_width(font: &FontRef<'static>, text: &str, size: f64) -> f64 {
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
    width * size / units_per_em(font)
}

/// One styled run placed relative to the text's start on its baseline (y down).
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// The characters.
    pub text: String,
    /// Italic face.
    pub italic: bool,
    /// Size in scene units.
    pub size: f64,
    /// Offset along the baseline.
    pub dx: f64,
    /// Offset below the baseline (negative raises).
    pub dy: f64,
    /// Advance width.
    pub width: f64,
}

/// The runs of `text` (with its `$...$` markup) at `size`, laid out left to right.
pub fn placed_runs(family: Family, text: &str, size: f64) -> Vec<Placed> {
    let runs = if markup::has_markup(text) {
        markup::parse(text)
    } else {
        vec![markup::Run {
            text: text.to_string(),
            italic: false,
            level: Level::Base,
        }]
    };
    let mut pen = 0.0;
    runs.into_iter()
        .map(|run| {
            // Sub- and superscripts shrink, but never under the 6 pt that journals
            // ask of them (text set under 6 pt on purpose keeps its own size).
            let floor = size.min(MIN_SCRIPT);
            let run_size = (size * run.level.scale()).max(floor);
            let width = run_width(face(family, run.italic), &run.text, run_size);
            let placed = Placed {
                dx: pen,
                dy: run.level.shift() * size,
                size: run_size,
                width,
                italic: run.italic,
                text: run.text,
            };
            pen += width;
            placed
        })
        .collect()
}

/// Width of `text` at `size` in the family's faces, markup included.
pub fn text_width_in(family: Family, text: &str, size: f64) -> f64 {
    placed_runs(family, text, size)
        .iter()
        .map(|r| r.width)
        .sum()
}

/// Width of `text` at `size` in DejaVu Sans, including kerning and markup. Layouts
/// measure with the sans; DejaVu Serif is narrower for ordinary text, so a serif
/// figure fits in the room measured (see the test below).
pub fn text_width(text: &str, size: f64) -> f64 {
    text_width_in(Family::Sans, text, size)
}

/// A text size no larger than `size` at which `text` fits in `room`: how captions
/// shrink rather than spill past their panel.
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
    let font = font();
    let scale = size / units_per_em(font);
    (
        f64::from(font.ascent_unscaled()) * scale,
        -f64::from(font.descent_unscaled()) * scale,
    )
}

/// Where a text item's baseline starts, before rotation, relative to its anchor:
/// `(dx, dy)` from the alignment. Encoders that write real text use it.
pub fn baseline_offset(family: Family, item: &TextItem) -> (f64, f64) {
    let width = text_width_in(family, &item.text, item.size);
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
    (dx, dy)
}

/// The smallest sub- or superscript, pt: journals' 6 pt (the same number as
/// [`super::units::MIN_TEXT_PT`], which this module cannot import without a circle).
const MIN_SCRIPT: f64 = 6.0;

/// The outline of a text item in DejaVu Sans, in scene units.
#[cfg(test)]
pub fn text_path(item: &TextItem) -> Vec<PathCmd> {
    text_path_in(Family::Sans, item)
}

/// The outline of a text item in `family`, in scene units.
pub fn text_path_in(family: Family, item: &TextItem) -> Vec<PathCmd> {
    let (dx, dy) = baseline_offset(family, item);
    let (sin, cos) = item.rotation.to_radians().sin_cos();
    let mut commands = Vec::new();
    for run in placed_runs(family, &item.text, item.size) {
        let font = face(family, run.italic);
        let scale = run.size / units_per_em(font);
        let slant = if run.italic {
            SLANT.to_radians().tan()
        } else {
            0.0
        };
        let place = |gx: f64, gy: f64| -> (f64, f64) {
            // Glyph units are y-up; the scene is y-down. Italic leans right with height.
            let gx = gx + gy * slant;
            let (ox, oy) = (dx + run.dx + gx * scale, dy + run.dy - gy * scale);
            (item.x + cos * ox - sin * oy, item.y + sin * ox + cos * oy)
        };
        glyph_outlines(font, &run.text, &place, &mut commands);
    }
    commands
}

fn glyph_outlines(
    font: &FontRef<'static>,
    text: &str,
    place: &dyn Fn(f64, f64) -> (f64, f64),
    commands: &mut Vec<PathCmd>,
) {
    let mut pen = 0.0f64;
    let mut previous = None;
    for ch in text.chars() {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::scene::color::Color;

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
    fn serif_fits_where_sans_was_measured() {
        for text in [
            "P-positions of the triangular game y ≤ floor((x+z)/3)",
            "g(m) = |P(m,m)| for m = 1..256",
            "0123456789 x y z m = 11",
        ] {
            let (sans, serif) = (
                text_width_in(Family::Sans, text, 12.0),
                text_width_in(Family::Serif, text, 12.0),
            );
            assert!(serif <= sans * 1.02, "{text}: serif {serif} sans {sans}");
        }
    }

    #[test]
    fn scripts_are_smaller_and_shifted() {
        let runs = placed_runs(Family::Sans, "$S_4$", 10.0);
        assert_eq!(runs.len(), 2);
        assert!(runs[1].size < 10.0 && runs[1].dy > 0.0 && runs[1].dx > 0.0);
        assert!(runs[0].italic && !runs[1].italic);
    }

    #[test]
    fn greek_and_superscripts_are_covered() {
        for family in [Family::Sans, Family::Serif] {
            for ch in ['α', 'Σ', '²', '≤', '−', 'ü'] {
                let id = face(family, false).glyph_id(ch).0;
                assert_ne!(id, 0, "no glyph for {ch} in {family:?}");
            }
        }
    }
}
