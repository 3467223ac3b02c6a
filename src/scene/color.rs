//! Colours: parsing what a user types (`#0072b2`, `navy`) and the default palettes.
//!
//! The defaults come from the Okabe–Ito palette, which stays distinguishable
//! under the common colour-vision deficiencies.

use crate::{Error, Result};
use palette::Srgb;
use std::str::FromStr;

/// An sRGB colour with straight (not premultiplied) alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Opacity, 255 = opaque.
    pub a: u8,
}

impl Color {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Color { r, g, b, a: 255 }
    }

    /// The same colour with another opacity.
    pub const fn with_alpha(self, a: u8) -> Self {
        Color { a, ..self }
    }

    /// A grey of the given lightness in 0..=1, as the papers' `GrayLevel`.
    pub fn gray(level: f64) -> Self {
        let v = (level.clamp(0.0, 1.0) * 255.0).round() as u8;
        Color::rgb(v, v, v)
    }

    /// Fully transparent: cells of this colour are not drawn.
    pub const TRANSPARENT: Color = Color {
        r: 0,
        g: 0,
        b: 0,
        a: 0,
    };
    /// White.
    pub const WHITE: Color = Color::rgb(255, 255, 255);
    /// Black.
    pub const BLACK: Color = Color::rgb(0, 0, 0);

    /// WCAG contrast ratio with `other` (1 to 21): how far apart two colours stay in greyscale print.
    pub fn contrast(&self, other: Color) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// WCAG relative luminance: the grey the colour prints as in greyscale.
    pub fn luminance(&self) -> f64 {
        let linear = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * linear(self.r) + 0.7152 * linear(self.g) + 0.0722 * linear(self.b)
    }

    /// `#rrggbb`, lower case (alpha is written separately where it matters).
    pub fn hex(&self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// The RGB triple.
    pub fn rgb_array(&self) -> [u8; 3] {
        [self.r, self.g, self.b]
    }

    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa` or a CSS colour name; `what` names the option
    /// in the error message (e.g. `--p-color`).
    pub fn parse(text: &str, what: &str) -> Result<Self> {
        let trimmed = text.trim();
        let bad = || {
            Error::invalid_marked(
                what,
                format!(
                "{what}: '{}' is not a colour; use #rrggbb, #rrggbbaa or a CSS name such as navy",
                crate::error::excerpt(text)
            ),
            )
        };
        if let Some(hex) = trimmed.strip_prefix('#') {
            // palette's hex parser slices by bytes: "#®A" would panic inside it.
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(bad());
            }
            if hex.len() == 8 {
                let value = u32::from_str_radix(hex, 16).map_err(|_| bad())?;
                let [r, g, b, a] = value.to_be_bytes();
                return Ok(Color { r, g, b, a });
            }
            let rgb: Srgb<u8> = Srgb::from_str(trimmed).map_err(|_| bad())?;
            return Ok(Color::rgb(rgb.red, rgb.green, rgb.blue));
        }
        if trimmed.eq_ignore_ascii_case("none") || trimmed.eq_ignore_ascii_case("transparent") {
            return Ok(Color::TRANSPARENT);
        }
        let named = palette::named::from_str(&trimmed.to_ascii_lowercase()).ok_or_else(bad)?;
        Ok(Color::rgb(named.red, named.green, named.blue))
    }
}

/// Okabe–Ito colours: safe for colour-blind readers.
pub mod okabe_ito {
    use super::Color;
    /// Orange.
    pub const ORANGE: Color = Color::rgb(0xE6, 0x9F, 0x00);
    /// Sky blue.
    pub const SKY_BLUE: Color = Color::rgb(0x56, 0xB4, 0xE9);
    /// Bluish green.
    pub const BLUISH_GREEN: Color = Color::rgb(0x00, 0x9E, 0x73);
    /// Yellow.
    pub const YELLOW: Color = Color::rgb(0xF0, 0xE4, 0x42);
    /// Blue.
    pub const BLUE: Color = Color::rgb(0x00, 0x72, 0xB2);
    /// Vermillion.
    pub const VERMILLION: Color = Color::rgb(0xD5, 0x5E, 0x00);
    /// Reddish purple.
    pub const REDDISH_PURPLE: Color = Color::rgb(0xCC, 0x79, 0xA7);
}

/// Black on light cells, white on dark ones: whichever contrasts more.
pub fn ink_on(background: Color) -> Color {
    if background.luminance() > 0.179 {
        Color::BLACK
    } else {
        Color::WHITE
    }
}

/// Light grey for grid lines and frames.
pub const GRID_GREY: Color = Color::rgb(0xD0, 0xD0, 0xD0);
/// Dark grey for captions and labels.
pub const INK: Color = Color::rgb(0x22, 0x22, 0x22);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hex_short_hex_alpha_and_names() {
        assert_eq!(
            Color::parse("#0072b2", "`x`").unwrap(),
            Color::rgb(0, 0x72, 0xB2)
        );
        assert_eq!(Color::parse("#fff", "`x`").unwrap(), Color::WHITE);
        assert_eq!(
            Color::parse("#00000080", "`x`").unwrap(),
            Color::BLACK.with_alpha(0x80)
        );
        assert_eq!(Color::parse("Navy", "`x`").unwrap(), Color::rgb(0, 0, 128));
    }

    #[test]
    fn non_ascii_after_a_hash_is_a_bad_colour_not_a_panic() {
        // Found by the fuzzer (proptest-regressions/cli/fuzz.txt): palette's hex
        // parser sliced "#®A" inside the '®'.
        for text in ["#®A", "#é", "#12345é", "#ÿÿÿÿ"] {
            assert!(Color::parse(text, "`x`").is_err(), "{text}");
        }
    }

    #[test]
    fn bad_colours_name_the_option() {
        let err = Color::parse("blurple", "`p-color`")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("`p-color`: 'blurple'"), "{err}");
    }

    #[test]
    fn ink_contrasts_with_the_cell() {
        assert_eq!(ink_on(Color::WHITE), Color::BLACK);
        assert_eq!(ink_on(Color::rgb(0, 0, 0x80)), Color::WHITE);
    }
}
