//! Lengths on paper and on screen: one parser for `85mm`, `3.35in`, `240pt`,
//! `1200px` and bare numbers (pixels), used by every size flag.
//!
//! The one idea: a scene's unit is a **PDF point** (1/72 in, the PostScript
//! point, not TeX's 1/72.27 in). Without any physical size or `--dpi` a pixel
//! is a point, so figures keep the sizes they always had (a 900 px chart is a
//! 900 pt PDF page). With a physical size the scene is laid out in points and
//! only the PNG is drawn at `dpi / 72` pixels per point.

use std::fmt;

/// PDF points per inch.
pub const PT_PER_IN: f64 = 72.0;
/// Millimetres per inch.
pub const MM_PER_IN: f64 = 25.4;
/// Raster resolution when a physical size is given without `--dpi`.
pub const DEFAULT_DPI: f64 = 300.0;
/// The smallest type a printed figure may carry at its natural size (journals
/// ask for 6–8 pt; sub- and superscripts at least 6 pt).
pub const MIN_TEXT_PT: f64 = 6.0;

/// A unit of length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Pixels: device units, whose size on paper depends on the dpi.
    Px,
    /// PDF points, 1/72 in.
    Pt,
    /// Millimetres.
    Mm,
    /// Centimetres.
    Cm,
    /// Inches.
    In,
}

impl Unit {
    fn suffix(self) -> &'static str {
        match self {
            Unit::Px => "px",
            Unit::Pt => "pt",
            Unit::Mm => "mm",
            Unit::Cm => "cm",
            Unit::In => "in",
        }
    }
}

/// A length as given on the command line or in a recipe.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Length {
    /// The number.
    pub value: f64,
    /// Its unit.
    pub unit: Unit,
}

impl Length {
    /// A length in pixels.
    pub fn px(value: f64) -> Self {
        Length {
            value,
            unit: Unit::Px,
        }
    }

    /// True for lengths on paper (pt, mm, cm, in), false for pixels.
    pub fn is_physical(self) -> bool {
        self.unit != Unit::Px
    }

    /// The length in inches; pixels count `dpi` to the inch.
    pub fn inches(self, dpi: f64) -> f64 {
        match self.unit {
            Unit::Px => self.value / dpi,
            Unit::Pt => self.value / PT_PER_IN,
            Unit::Mm => self.value / MM_PER_IN,
            Unit::Cm => self.value * 10.0 / MM_PER_IN,
            Unit::In => self.value,
        }
    }

    /// The length in scene units (points) under `print`: pixels are points when no
    /// dpi was asked for, and `72 / dpi` points when one was.
    pub fn points(self, print: Print) -> f64 {
        match (self.unit, print.dpi) {
            (Unit::Px, None) => self.value,
            (_, dpi) => self.inches(dpi.unwrap_or(PT_PER_IN)) * PT_PER_IN,
        }
    }

    /// [`Length::points`] rounded to a whole number of scene units, at least 1.
    pub fn whole_points(self, print: Print) -> u32 {
        self.points(print).round().clamp(1.0, f64::from(u32::MAX)) as u32
    }
}

impl fmt::Display for Length {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", trim_number(self.value), self.unit.suffix())
    }
}

/// A number with at most three decimals and no trailing zeros.
pub fn trim_number(value: f64) -> String {
    let text = format!("{value:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

/// Parses `85mm`, `3.35in`, `240pt`, `8.5cm`, `1200px` or a bare number (pixels).
/// Spaces between number and unit are allowed; the length must be positive.
pub fn parse_length(text: &str) -> Result<Length, String> {
    let t = text.trim().to_ascii_lowercase();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (number, unit) = (t[..split].trim(), t[split..].trim());
    let unit = match unit {
        "" | "px" => Unit::Px,
        "pt" => Unit::Pt,
        "mm" => Unit::Mm,
        "cm" => Unit::Cm,
        "in" | "inch" | "inches" => Unit::In,
        other => {
            return Err(format!(
                "'{text}': unknown unit '{other}'; use mm, cm, in, pt or px (e.g. 85mm, 3.35in, 240pt, 1200px)"
            ))
        }
    };
    let value: f64 = number.parse().map_err(|_| {
        format!("'{text}' is not a length; write e.g. 85mm, 3.35in, 240pt or 1200px")
    })?;
    if !(value.is_finite() && value > 0.0) {
        return Err(format!("'{text}': a length must be positive"));
    }
    Ok(Length { value, unit })
}

/// Parses a resolution in dots per inch: 36 to 4800.
pub fn parse_dpi(text: &str) -> Result<f64, String> {
    let t = text.trim().trim_end_matches("dpi").trim();
    match t.parse::<f64>() {
        Ok(dpi) if (36.0..=4800.0).contains(&dpi) => Ok(dpi),
        Ok(_) => Err(format!("'{text}': use 36 to 4800 dots per inch")),
        Err(_) => Err(format!(
            "'{text}' is not a resolution; write e.g. 300 or 600"
        )),
    }
}

/// Parses a font size in points (`8pt` or `8`; pixels as `12px`).
pub fn parse_font_size(text: &str) -> Result<Length, String> {
    let t = text.trim();
    let length = if t.chars().all(|c| c.is_ascii_digit() || c == '.') {
        parse_length(&format!("{t}pt"))?
    } else {
        parse_length(t)?
    };
    // Beyond this a single glyph outgrows any figure (the chart then drew its title
    // alone), and the size would reach the layout's integer arithmetic.
    let points = length.points(Print::default());
    if !(MIN_GIVEN_TEXT_PT..=MAX_GIVEN_TEXT_PT).contains(&points) {
        return Err(format!(
            "must be between {MIN_GIVEN_TEXT_PT} and {MAX_GIVEN_TEXT_PT} pt (got {})",
            crate::error::excerpt(t)
        ));
    }
    Ok(length)
}

/// The smallest text size a flag may ask for, pt.
pub const MIN_GIVEN_TEXT_PT: f64 = 4.0;
/// The largest text size a flag may ask for, pt.
pub const MAX_GIVEN_TEXT_PT: f64 = 200.0;

/// How scene units map to paper and pixels for one figure.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Print {
    /// Raster resolution asked for, directly (`--dpi`) or by giving a physical size
    /// (then [`DEFAULT_DPI`]). `None`: a pixel is a point, as always.
    pub dpi: Option<f64>,
}

impl Print {
    /// The print settings of a figure given these sizes: a dpi when one was given,
    /// [`DEFAULT_DPI`] when any size is physical, none otherwise.
    pub fn new(dpi: Option<f64>, sizes: &[Option<Length>]) -> Self {
        let physical = sizes.iter().flatten().any(|l| l.is_physical());
        Print {
            dpi: dpi.or(physical.then_some(DEFAULT_DPI)),
        }
    }

    /// Scene units per PDF point of text: 1, since a scene unit is a point.
    pub fn text_units(self, size: Length) -> f64 {
        size.points(self)
    }
}

/// Where a scene goes on paper: set on a [`super::Scene`] when a physical size or a
/// dpi was asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paper {
    /// Pixels per inch of the PNG (stored in its pHYs chunk).
    pub dpi: f64,
    /// Page width in PDF points (exactly the `--width` asked for when one was).
    pub width_pt: f64,
    /// Page height in PDF points.
    pub height_pt: f64,
}

impl Paper {
    /// Paper for a `width x height` scene: one unit per point, or the exact `width`
    /// asked for (the scene was laid out at that width rounded to whole points, so
    /// the scale differs from 1 by less than one part in the width).
    pub fn for_scene(width: u32, height: u32, dpi: f64, exact_width: Option<f64>) -> Self {
        let width_pt = exact_width.unwrap_or(f64::from(width));
        let scale = width_pt / f64::from(width.max(1));
        Paper {
            dpi,
            width_pt,
            height_pt: f64::from(height) * scale,
        }
    }

    /// Size of the PNG in pixels.
    pub fn pixels(&self) -> (u32, u32) {
        let px = |pt: f64| (pt / PT_PER_IN * self.dpi).round().max(1.0) as u32;
        (px(self.width_pt), px(self.height_pt))
    }

    /// Pixels per metre, as PNG's pHYs chunk stores the dpi.
    pub fn pixels_per_metre(&self) -> u32 {
        (self.dpi / MM_PER_IN * 1000.0).round() as u32
    }

    /// Width and height in millimetres, for SVG's `width="85mm"`.
    pub fn millimetres(&self) -> (f64, f64) {
        let mm = |pt: f64| pt / PT_PER_IN * MM_PER_IN;
        (mm(self.width_pt), mm(self.height_pt))
    }
}

/// Everything about a figure's print that is not its layout: resolution, exact
/// page width, typeface and how vector formats carry text. Applied to a finished
/// scene by [`PrintStyle::apply`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PrintStyle {
    /// Resolution and how pixel lengths convert.
    pub print: Print,
    /// The page width asked for in points, when `--width` was physical.
    pub exact_width_pt: Option<f64>,
    /// Typeface.
    pub font: super::font::Family,
    /// Text or outlines in SVG and PDF.
    pub text: super::item::TextMode,
}

/// A length flag in whole scene units (points; pixels at 72 dpi unless `--dpi`),
/// checked against `range` with an error naming the flag.
pub fn length_units(
    flag: &str,
    length: Length,
    print: Print,
    range: std::ops::RangeInclusive<u32>,
) -> crate::Result<u32> {
    let points = length.points(print);
    let units = points.round();
    if !(f64::from(*range.start())..=f64::from(*range.end())).contains(&units) {
        let shown = |v: u32| match print.dpi {
            None => format!("{v} px"),
            Some(dpi) => format!(
                "{} mm ({} px at {} dpi)",
                trim_number(f64::from(v) / PT_PER_IN * MM_PER_IN),
                (f64::from(v) / PT_PER_IN * dpi).round(),
                trim_number(dpi)
            ),
        };
        let bare = px_hint(length, print);
        return Err(crate::Error::invalid_marked(
            flag,
            format!(
                "{flag} {length} is {} points; use {} to {}{bare}",
                trim_number(points),
                shown(*range.start()),
                shown(*range.end())
            ),
        ));
    }
    Ok(units as u32)
}

/// What a length without a unit means, for a refusal of one: " (a number alone
/// is px; for print write 60mm)". Empty for a length in a physical unit, or on
/// paper (`--dpi`), where px are already pixels of a print.
pub fn px_hint(length: Length, print: Print) -> String {
    if length.unit == Unit::Px && print.dpi.is_none() {
        format!(
            " (a number alone is px; for print write {}mm)",
            trim_number(length.value)
        )
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_parse_and_convert() {
        let mm = parse_length("85mm").unwrap();
        assert_eq!(mm.unit, Unit::Mm);
        assert!((mm.points(Print::default()) - 240.944).abs() < 0.001);
        assert!((parse_length("3.35 in").unwrap().inches(300.0) - 3.35).abs() < 1e-12);
        assert_eq!(
            parse_length("240pt").unwrap().points(Print::default()),
            240.0
        );
        assert_eq!(parse_length("8.5cm").unwrap().inches(1.0), 85.0 / 25.4);
        assert_eq!(parse_length("1200").unwrap(), Length::px(1200.0));
        assert_eq!(parse_length("1200PX").unwrap(), Length::px(1200.0));
    }

    #[test]
    fn pixels_are_points_until_a_dpi_is_given() {
        let px = Length::px(1200.0);
        assert_eq!(px.points(Print::default()), 1200.0);
        let print = Print { dpi: Some(300.0) };
        assert_eq!(px.points(print), 288.0);
        assert_eq!(Print::new(None, &[Some(px)]).dpi, None);
        assert_eq!(
            Print::new(None, &[None, Some(parse_length("85mm").unwrap())]).dpi,
            Some(DEFAULT_DPI)
        );
    }

    #[test]
    fn bad_lengths_say_what_to_write() {
        assert!(parse_length("85 furlongs")
            .unwrap_err()
            .contains("unknown unit"));
        assert!(parse_length("mm").unwrap_err().contains("not a length"));
        assert!(parse_length("-3mm").unwrap_err().contains("positive"));
        assert!(parse_length("0").unwrap_err().contains("positive"));
        assert!(parse_dpi("10").is_err());
        assert_eq!(parse_dpi("600dpi").unwrap(), 600.0);
    }

    #[test]
    fn paper_of_85mm_is_240_9_points_and_1004_pixels_at_300_dpi() {
        let exact = parse_length("85mm").unwrap().points(Print::default());
        let paper = Paper::for_scene(241, 180, 300.0, Some(exact));
        assert!((paper.width_pt - 240.94).abs() < 0.01);
        assert_eq!(paper.pixels().0, 1004);
        assert_eq!(paper.pixels_per_metre(), 11811);
        assert_eq!(trim_number(paper.millimetres().0), "85");
    }

    #[test]
    fn font_sizes_default_to_points() {
        assert_eq!(parse_font_size("8").unwrap().unit, Unit::Pt);
        assert_eq!(parse_font_size("8pt").unwrap().value, 8.0);
        assert_eq!(parse_font_size("12px").unwrap().unit, Unit::Px);
    }
}
