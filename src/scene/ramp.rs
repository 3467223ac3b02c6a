//! Palettes for values mod p: one colour per residue, residue 0 left to the caller.
//!
//! The one idea: colours are generated in Oklch, a perceptual space, so equal steps
//! of a ramp look like equal steps. The default ramp runs like viridis (dark
//! purple, blue, teal, green) from dark to medium, so it is readable with
//! every common colour-vision deficiency and in greyscale: neighbouring residues
//! differ in lightness, not only in hue. It stops short of viridis' pale yellow,
//! which vanishes on a white page. Residue 0 is not on the ramp: figures give it
//! the background or "other" colour so the pattern reads as in the mod 2 pictures.
//!
//! A cell layer indexes at most 256 colours, and a GIF palette also needs room
//! for the frame, grid and caption greys, so a ramp holds at most
//! [`MAX_RAMP_COLOURS`] colours. For p above that, residues 1..p-1 are split
//! into that many runs of consecutive residues, each run one colour (in order,
//! so the ramp still reads from low to high). Data files always hold exact values.

use super::color::Color;
use crate::{Error, Result};
use palette::{Clamp, FromColor, Oklch, Srgb};

/// The most colours a ramp gives to residues 1..p-1; p up to this + 1 gets one
/// colour per residue.
pub const MAX_RAMP_COLOURS: usize = 239;

/// The colour maps every command shares (`--palette`): how classes 1..p-1 of values
/// mod p are coloured. Class 0 is not on a palette: figures give it the background
/// or "other" colour so the pattern reads as in the mod 2 pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Palette {
    /// The papers' colours: red, blue, then green, orange, purple, ...; for p up to 8.
    Paper,
    /// The Okabe–Ito colours: colour-blind safe and very distinct, for p up to 9.
    OkabeIto,
    /// Dark purple through blue, teal and green to orange, like viridis but
    /// turning further: ordered in lightness, colour-blind safe, and up to
    /// mod 8 every class a hue of its own.
    #[default]
    Viridis,
    /// Evenly spaced hues at one lightness: categorical, best for small p, not ordered.
    Hues,
    /// Dark to light grey: for print.
    Grey,
}

impl Palette {
    /// Every palette with its name, as `--palette` takes it.
    pub const ALL: [(&'static str, Palette); 5] = [
        ("paper", Palette::Paper),
        ("okabe-ito", Palette::OkabeIto),
        ("viridis", Palette::Viridis),
        ("hues", Palette::Hues),
        ("grey", Palette::Grey),
    ];

    /// The name `--palette` takes.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, p)| *p == self)
            .map(|(n, _)| *n)
            .unwrap_or("viridis")
    }

    /// The most classes this palette can colour apart, if it is limited.
    fn limit(self) -> Option<usize> {
        match self {
            Palette::Paper => Some(PAPER.len()),
            Palette::OkabeIto => Some(OKABE_ITO.len()),
            _ => None,
        }
    }

    /// Checks that the palette can colour the classes of values mod `modulus`.
    pub fn check(self, modulus: u64) -> Result<()> {
        match self.limit() {
            Some(limit) if modulus > limit as u64 + 1 => Err(Error::invalid_request(format!(
                "palette: {} has {limit} colours, enough for values mod {} at most; choose viridis, hues or grey for mod {modulus}",
                self.name(),
                limit + 1
            ))),
            _ => Ok(()),
        }
    }

    /// White for class 0, then the palette's colours for classes 1..classes-1: the
    /// colours of a table whose cells are coloured by value mod `classes`.
    pub fn class_colors(self, classes: u32) -> Result<Vec<Color>> {
        let ramp = self.colours(u64::from(classes.max(1)))?;
        let mut colors = vec![Color::WHITE];
        colors.extend_from_slice(&ramp.colours()[..classes.saturating_sub(1) as usize]);
        Ok(colors)
    }

    /// The colours of residues 1..p-1 (fewer when p - 1 exceeds
    /// [`MAX_RAMP_COLOURS`]; then see [`ResidueColours::index`]).
    pub fn colours(self, modulus: u64) -> Result<ResidueColours> {
        self.check(modulus)?;
        let count = (modulus.saturating_sub(1) as usize).clamp(1, MAX_RAMP_COLOURS);
        let at = |k: usize| {
            if count == 1 {
                0.0
            } else {
                k as f64 / (count - 1) as f64
            }
        };
        let colours = (0..count)
            .map(|k| match self {
                Palette::Paper => PAPER[k],
                Palette::Viridis => {
                    let t = at(k);
                    // Lightness 0.22..0.67 keeps the lightest class at 3:1 against
                    // white and, for two classes (mod 3), the two 3:1 apart in grey.
                    // The hue turns 258° (purple, blue, teal, green, olive, orange)
                    // so that up to 7 classes (mod 8) differ in hue as well as in
                    // lightness: viridis' shorter turn to green left mod 5's
                    // purple and blue hard to tell apart.
                    oklch(0.22 + 0.45 * t, 0.12 + 0.03 * t, 320.0 - 258.0 * t)
                }
                Palette::Hues => oklch(0.66, 0.14, 30.0 + 360.0 * k as f64 / count as f64),
                Palette::OkabeIto => OKABE_ITO[k],
                Palette::Grey => oklch(0.25 + 0.37 * at(k), 0.0, 0.0),
            })
            .collect();
        Ok(ResidueColours {
            modulus,
            colours: distinct(colours),
        })
    }
}

/// Makes 8-bit colours that rounded to the same value distinct again by nudging
/// the blue channel one step at a time: invisible, but each residue keeps its own
/// palette entry (long ramps pass through more colours than 8 bits tell apart).
fn distinct(colours: Vec<Color>) -> Vec<Color> {
    let mut seen = std::collections::HashSet::new();
    colours
        .into_iter()
        .map(|mut c| {
            let mut step = 1i16;
            let base = c.b;
            while c == Color::WHITE || !seen.insert(c) {
                let b = i16::from(base) + step;
                step = if step > 0 { -step } else { 1 - step };
                c.b = b.clamp(0, 255) as u8;
            }
            c
        })
        .collect()
}

/// The papers' class colours after white: red and blue as the papers, the blue dark
/// enough that the two classes stay 3:1 apart, and each 3:1 on white, when printed
/// in grey; then green, orange, purple, cyan and yellow.
const PAPER: [Color; 7] = [
    Color::rgb(0xE4, 0x6C, 0x6C),
    Color::rgb(0x14, 0x3B, 0x91),
    Color::rgb(0x6B, 0xC7, 0x6B),
    Color::rgb(0xF5, 0xB0, 0x4A),
    Color::rgb(0xB0, 0x7F, 0xD8),
    Color::rgb(0x5F, 0xCF, 0xCF),
    Color::rgb(0xEE, 0xE0, 0x5A),
];

/// Okabe–Ito, orange and sky blue first as the colour-blind tables were first
/// drawn; black last.
const OKABE_ITO: [Color; 8] = [
    super::color::okabe_ito::ORANGE,
    super::color::okabe_ito::SKY_BLUE,
    super::color::okabe_ito::BLUISH_GREEN,
    super::color::okabe_ito::YELLOW,
    super::color::okabe_ito::REDDISH_PURPLE,
    super::color::okabe_ito::VERMILLION,
    super::color::okabe_ito::BLUE,
    Color::rgb(0, 0, 0),
];

fn oklch(l: f64, chroma: f64, hue: f64) -> Color {
    let rgb: Srgb<f64> = Srgb::from_color(Oklch::new(l, chroma, hue)).clamp();
    let rgb: Srgb<u8> = rgb.into_format();
    Color::rgb(rgb.red, rgb.green, rgb.blue)
}

/// The colours of residues 1..p-1 mod one p.
#[derive(Debug, Clone, PartialEq)]
pub struct ResidueColours {
    modulus: u64,
    colours: Vec<Color>,
}

impl ResidueColours {
    /// The ramp, in order of residue.
    pub fn colours(&self) -> &[Color] {
        &self.colours
    }

    /// Whether every residue has a colour of its own (p - 1 <= [`MAX_RAMP_COLOURS`]).
    pub fn one_per_residue(&self) -> bool {
        self.modulus.saturating_sub(1) as usize <= self.colours.len()
    }

    /// The position on the ramp of a residue 1..p-1: itself minus one when every
    /// residue has a colour, else its run of consecutive residues.
    pub fn index(&self, residue: u64) -> usize {
        debug_assert!(residue >= 1 && residue < self.modulus.max(2));
        let k = self.colours.len() as u64;
        ((residue - 1) * k / (self.modulus - 1).max(1)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ink_on_every_paper_class_colour_reads() {
        // The numbers on every class colour read at 4.5:1 or better (WCAG text).
        for c in &Palette::Paper.class_colors(8).unwrap() {
            let ratio = super::super::color::ink_on(*c).contrast(*c);
            assert!(ratio >= 4.5, "{c:?}: {ratio:.2}");
        }
    }

    fn contrast(a: Color, b: Color) -> f64 {
        a.contrast(b)
    }

    #[test]
    fn default_mod_3_classes_survive_greyscale_print() {
        for palette in [Palette::Viridis, Palette::Grey] {
            let colours = palette.colours(3).unwrap();
            let c = colours.colours();
            assert_eq!(c.len(), 2);
            for (k, &colour) in c.iter().enumerate() {
                let r = contrast(colour, Color::WHITE);
                assert!(r >= 3.0, "{palette:?} residue {}: {r:.2}:1 on white", k + 1);
            }
            let r = contrast(c[0], c[1]);
            assert!(r >= 3.0, "{palette:?} residues 1 and 2: {r:.2}:1");
        }
        // Every ramp colour stays 3:1 on white, whatever the modulus.
        for p in [2, 5, 17, 300] {
            for &colour in Palette::Viridis.colours(p).unwrap().colours() {
                assert!(contrast(colour, Color::WHITE) >= 3.0, "mod {p}: {colour:?}");
            }
        }
    }
    use std::collections::HashSet;

    #[test]
    fn default_classes_up_to_mod_8_are_told_apart_in_colour_and_in_grey() {
        // Every two classes of values mod p (white for 0, then the ramp) at
        // least 0.10 apart in Oklab, and 12 of 255 apart once printed in grey
        // (Rec. 601 luma, as a greyscale conversion does). The ramp before
        // fell to 0.076 and 6 at mod 8; at mod 5 purple and blue were 0.15
        // and 19 apart, and read as one colour.
        use palette::{FromColor, Oklab, Srgb};
        let oklab = |c: &Color| Oklab::from_color(Srgb::new(c.r, c.g, c.b).into_format::<f64>());
        let grey =
            |c: &Color| 0.299 * f64::from(c.r) + 0.587 * f64::from(c.g) + 0.114 * f64::from(c.b);
        for p in 3..=8u32 {
            let classes = Palette::Viridis.class_colors(p).unwrap();
            for (i, a) in classes.iter().enumerate() {
                for b in &classes[i + 1..] {
                    let (x, y) = (oklab(a), oklab(b));
                    let distance =
                        ((x.l - y.l).powi(2) + (x.a - y.a).powi(2) + (x.b - y.b).powi(2)).sqrt();
                    assert!(
                        distance >= 0.10,
                        "mod {p}: {a:?} and {b:?} {distance:.3} apart"
                    );
                    let step = (grey(a) - grey(b)).abs();
                    assert!(
                        step >= 12.0,
                        "mod {p}: {a:?} and {b:?} {step:.1} apart in grey"
                    );
                }
            }
        }
    }

    #[test]
    fn every_residue_gets_its_own_colour_up_to_the_limit() {
        for (_, palette) in Palette::ALL {
            for p in 2..=(MAX_RAMP_COLOURS as u64 + 1) {
                let Ok(ramp) = palette.colours(p) else {
                    assert!(p > 8, "{palette:?} refused p = {p}");
                    continue;
                };
                assert!(ramp.one_per_residue());
                let distinct: HashSet<Color> = ramp.colours().iter().copied().collect();
                assert_eq!(distinct.len(), (p - 1) as usize, "{palette:?} mod {p}");
                assert!(!distinct.contains(&Color::WHITE), "{palette:?} mod {p}");
                let indices: Vec<usize> = (1..p).map(|r| ramp.index(r)).collect();
                assert_eq!(indices, (0..(p - 1) as usize).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn large_moduli_share_colours_in_runs_of_residues() {
        let ramp = Palette::Viridis.colours(65535).unwrap();
        assert!(!ramp.one_per_residue());
        assert_eq!(ramp.colours().len(), MAX_RAMP_COLOURS);
        let indices: Vec<usize> = (1..65535).map(|r| ramp.index(r)).collect();
        assert!(indices.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        assert_eq!(
            (indices[0], *indices.last().unwrap()),
            (0, MAX_RAMP_COLOURS - 1)
        );
    }

    #[test]
    fn the_default_ramp_darkens_towards_residue_one() {
        // Ordered in lightness, so it reads in greyscale and without hue vision.
        let ramp = Palette::Viridis.colours(12).unwrap();
        let luma =
            |c: &Color| 0.2126 * f64::from(c.r) + 0.7152 * f64::from(c.g) + 0.0722 * f64::from(c.b);
        assert!(ramp.colours().windows(2).all(|w| luma(&w[0]) < luma(&w[1])));
    }

    #[test]
    fn names_round_trip_and_limited_palettes_say_what_to_choose() {
        for (name, palette) in Palette::ALL {
            assert_eq!(palette.name(), name);
        }
        let err = Palette::OkabeIto.check(11).unwrap_err().to_string();
        assert!(
            err.contains("mod 9 at most") && err.contains("viridis"),
            "{err}"
        );
        assert!(Palette::Paper.check(8).is_ok() && Palette::Paper.check(9).is_err());
    }

    #[test]
    fn class_colors_start_white_and_follow_the_palette() {
        for (_, palette) in Palette::ALL {
            for classes in 1..=8 {
                let colors = palette.class_colors(classes).unwrap();
                assert_eq!(colors.len(), classes as usize);
                assert_eq!(colors[0], Color::WHITE);
                assert_eq!(
                    &colors[1..],
                    &palette.colours(u64::from(classes)).unwrap().colours()[..classes as usize - 1]
                );
            }
        }
    }
}
