//! The print group every figure shares: resolution, typeface and how SVG
//! and PDF carry text, turned into the scene's [`PrintStyle`].

use crate::library::scene::font::Family;
use crate::library::scene::units::{self, Length, Print, PrintStyle};
use crate::library::scene::TextMode;
use clap::{Args, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
/// The typeface of a figure's text.
pub enum FontArg {
    /// DejaVu Sans.
    Sans,
    /// DejaVu Serif, which sits well beside LaTeX text.
    Serif,
}

/// How SVG and PDF carry text.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TextArg {
    /// Real text: an embedded subset font in PDF, selectable words in SVG.
    Text,
    /// Glyph outlines (paths) only.
    Outlines,
}

/// Resolution, typeface and text handling, shared by every figure.
#[derive(Debug, Clone, Args)]
pub struct PrintArgs {
    /// Pixels per inch of PNGs (stored in the file). Sizes in px then mean pixels at
    /// this resolution [default: 300 when any size is in mm, cm, in or pt; otherwise
    /// one pixel per PDF point, 1/72 in].
    #[arg(long, value_name = "DPI", value_parser = units::parse_dpi)]
    pub dpi: Option<f64>,
    /// Typeface of every text.
    #[arg(long, value_enum, default_value = "sans")]
    pub font: FontArg,
    /// Text in SVG and PDF: real text with an embedded subset font, or outlines.
    #[arg(long, value_enum, default_value = "text")]
    pub text: TextArg,
}

impl PrintArgs {
    /// The print style of a figure whose size flags are `sizes`; `width` is the
    /// whole-figure width flag, if the figure has one.
    pub fn style(&self, sizes: &[Option<Length>], width: Option<Length>) -> PrintStyle {
        let print = Print::new(self.dpi, sizes);
        PrintStyle {
            print,
            exact_width_pt: width.filter(|w| w.is_physical()).map(|w| w.points(print)),
            font: match self.font {
                FontArg::Sans => Family::Sans,
                FontArg::Serif => Family::Serif,
            },
            text: match self.text {
                TextArg::Text => TextMode::Text,
                TextArg::Outlines => TextMode::Outlines,
            },
        }
    }
}
