//! Length flags: sizes (`85mm`, `1200px`), margins and gaps (which may be
//! zero), each brought to whole scene units with an error naming the flag.

use crate::library::scene::units::{parse_length, Length, Print};

pub use crate::library::scene::units::length_units;

/// The largest margin or gap, pixels: beyond it the figure is nearly all blank, and
/// sizes computed from it could overflow.
pub const MAX_SPACING: u32 = 4096;

/// Parses a margin or gap: a length as [`parse_size`] takes it, or zero.
pub fn parse_spacing(text: &str) -> Result<Length, String> {
    let t = text.trim().to_ascii_lowercase();
    let number = t.trim_end_matches(|c: char| c.is_ascii_alphabetic()).trim();
    if number.parse::<f64>() == Ok(0.0) {
        return parse_length(&t.replacen(number, "1", 1)).map(|l| Length { value: 0.0, ..l });
    }
    parse_length(text)
}

/// The margin and gap a figure has unless told, scene units (points on paper).
pub const DEFAULT_SPACING: (u32, u32) = (16, 14);

/// A margin and a gap in whole scene units under `print`, each at most
/// [`MAX_SPACING`] ([`DEFAULT_SPACING`] where not given); errors name the flag.
pub fn spacing(
    margin: Option<Length>,
    gap: Option<Length>,
    print: Print,
) -> crate::Result<(u32, u32)> {
    let units = |flag: &str, length: Option<Length>, default: u32| match length {
        None => Ok(default),
        Some(length) if length.value == 0.0 => Ok(0),
        Some(length) => length_units(flag, length, print, 0..=MAX_SPACING),
    };
    Ok((
        units("`margin`", margin, DEFAULT_SPACING.0)?,
        units("`gap`", gap, DEFAULT_SPACING.1)?,
    ))
}

/// Parses a length flag: `85mm`, `3.35in`, `240pt`, `1200px` or a bare number (px).
pub fn parse_size(text: &str) -> Result<Length, String> {
    parse_length(text)
}
