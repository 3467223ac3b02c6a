//! `--palette`: the colour maps of values coloured by class.

use clap::ValueEnum;

/// `--palette`: one set of colour maps for every command that colours values by
/// class (Grundy tables, automaton frames mod p).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PaletteArg {
    /// The papers' colours: red, blue, then green, orange, purple, ... (p <= 8).
    Paper,
    /// Okabe–Ito: orange, sky blue, bluish green, ...: colour-blind safe (p <= 9).
    OkabeIto,
    /// Dark purple through blue, teal and green to orange: ordered, colour-blind safe.
    Viridis,
    /// Evenly spaced hues at one lightness: categorical, not ordered.
    Hues,
    /// Dark to light grey, for print.
    #[value(alias = "gray")]
    Grey,
}

impl From<PaletteArg> for crate::library::scene::ramp::Palette {
    fn from(arg: PaletteArg) -> Self {
        use crate::library::scene::ramp::Palette;
        match arg {
            PaletteArg::Paper => Palette::Paper,
            PaletteArg::OkabeIto => Palette::OkabeIto,
            PaletteArg::Viridis => Palette::Viridis,
            PaletteArg::Hues => Palette::Hues,
            PaletteArg::Grey => Palette::Grey,
        }
    }
}
