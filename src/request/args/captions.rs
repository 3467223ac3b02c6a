//! Captions and titles: their text (bounded, so laying it out stays quick)
//! and their size.

use crate::library::scene::units::{self, Print};

/// The longest caption or title, in characters: a few lines under a figure.
/// Longer text belongs in the document's own caption, and laying it out (every
/// glyph shaped, the lines wrapped) would take seconds to minutes.
pub const MAX_CAPTION_CHARS: usize = 1000;

/// Parses a caption or title: any text up to [`MAX_CAPTION_CHARS`] characters.
pub fn parse_caption(text: &str) -> Result<String, String> {
    let chars = text.chars().count();
    if chars > MAX_CAPTION_CHARS {
        return Err(format!(
            "{chars} characters; a caption holds at most {MAX_CAPTION_CHARS} (put longer text in the document's caption)"
        ));
    }
    Ok(text.to_string())
}

/// Parses a caption size in pixels: any number from 4 to 200 (12.5 is fine).
/// A caption size: a bare number is pt (px without a physical size), as `--help`
/// says; `7pt`, `9px` and `3mm` are taken too, as `--font-size` takes them.
pub fn parse_caption_size(text: &str) -> Result<f64, String> {
    units::parse_font_size(text).map(|length| length.points(Print::default()))
}
