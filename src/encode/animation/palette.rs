//! The one palette of a GIF animation, decided before any frame is drawn:
//! the scenes' exact colours and a few shades of each text colour.

use crate::library::scene::{Color, Item, Scene};
use crate::{Error, Result};

/// Shades of each text colour over the background kept in a GIF palette, for
/// anti-aliased text edges.
pub const TEXT_SHADES: usize = 7;

/// The one palette of a GIF: solid colours first, then shades of text colours.
#[derive(Debug, Clone, PartialEq)]
pub struct FramePalette {
    colours: Vec<Color>,
    solid: usize,
    rgb: Vec<[u8; 3]>,
}

impl FramePalette {
    /// A palette of the `solid` colours scenes may use (the first is the
    /// background), plus [`TEXT_SHADES`] blends of each `text` colour over it.
    /// Every colour must be opaque; at most 256 in all.
    pub fn new(solid: &[Color], text: &[Color]) -> Result<Self> {
        let background = *solid
            .first()
            .ok_or_else(|| Error::invalid_request("a GIF palette needs a background colour"))?;
        let mut colours: Vec<Color> = Vec::new();
        let add = |c: Color, colours: &mut Vec<Color>| {
            if !colours.contains(&c) {
                colours.push(c);
            }
        };
        for &c in solid.iter().chain(text) {
            if c.a != 255 {
                return Err(Error::unsupported(format!(
                    "GIF frames here are opaque, but colour {} is {}transparent; choose an opaque `background` and colours",
                    c.hex(),
                    if c.a == 0 { "" } else { "partly " }
                )));
            }
            add(c, &mut colours);
        }
        let solid_count = colours.len();
        for &ink in text {
            for k in 1..=TEXT_SHADES {
                let t = k as f64 / (TEXT_SHADES + 1) as f64;
                let mix =
                    |a: u8, b: u8| (f64::from(a) * t + f64::from(b) * (1.0 - t)).round() as u8;
                let shade = Color::rgb(
                    mix(ink.r, background.r),
                    mix(ink.g, background.g),
                    mix(ink.b, background.b),
                );
                add(shade, &mut colours);
            }
        }
        if colours.len() > 256 {
            return Err(Error::invalid_request(format!(
                "a GIF palette holds 256 colours, but this animation needs {} ({} for cells and lines, the rest for text edges)",
                colours.len(),
                solid_count
            )));
        }
        let rgb = colours.iter().map(Color::rgb_array).collect();
        Ok(FramePalette {
            colours,
            solid: solid_count,
            rgb,
        })
    }

    /// Every colour, by index.
    pub fn colours(&self) -> &[Color] {
        &self.colours
    }

    /// The colour table as the GIF writer takes it.
    pub fn rgb(&self) -> &[[u8; 3]] {
        &self.rgb
    }

    /// Checks that every colour a scene paints with is a solid colour of this
    /// palette (transparent cells, which are not painted, excepted).
    pub fn check_scene(&self, scene: &Scene) -> Result<()> {
        let solid = &self.colours[..self.solid];
        let missing = |c: &Color| c.a != 0 && !solid.contains(c);
        let mut used = vec![scene.background];
        for item in &scene.items {
            match item {
                Item::Cells(cells) => used.extend(cells.palette.iter().copied()),
                Item::Path(path) => {
                    used.extend(path.fill);
                    used.extend(path.stroke.map(|(c, _)| c));
                }
                Item::Text(text) => used.push(text.color),
            }
        }
        match used.iter().find(|c| missing(c)) {
            Some(c) => Err(Error::invalid_request(format!(
                "colour {} of a frame is not in the animation's palette; list it among the palette's colours",
                c.hex()
            ))),
            None => Ok(()),
        }
    }

    /// The palette index of every pixel of an opaque raster: its own colour when
    /// it is in the palette (all cells, fills and text interiors), else the
    /// nearest one (anti-aliased edges).
    pub fn index_pixels(&self, pixmap: &tiny_skia::Pixmap) -> Vec<u8> {
        nearest_indices(pixmap.data(), &self.rgb)
    }
}

/// Each opaque RGBA pixel's nearest palette colour (squared RGB distance, the
/// lowest index on ties), so a colour in the palette keeps its own index: a
/// pure function of the pixel, whatever the frame or thread.
pub fn nearest_indices(rgba: &[u8], palette: &[[u8; 3]]) -> Vec<u8> {
    let nearest = |c: [u8; 3]| -> u8 {
        let mut best = (u32::MAX, 0u8);
        for (i, p) in palette.iter().enumerate() {
            let d: u32 = (0..3)
                .map(|k| {
                    let e = i32::from(c[k]) - i32::from(p[k]);
                    (e * e) as u32
                })
                .sum();
            if d < best.0 {
                best = (d, i as u8);
            }
        }
        best.1
    };
    // Runs of one colour are the rule (cells, fills), so the previous pixel is
    // checked before the cache.
    // A colour is looked up as one u32: one multiply to hash.
    let mut cache: rustc_hash::FxHashMap<u32, u8> = Default::default();
    let mut last: Option<(u32, u8)> = None;
    let mut indices = Vec::with_capacity(rgba.len() / 4);
    for p in rgba.chunks_exact(4) {
        let key = u32::from_le_bytes([p[0], p[1], p[2], 0]);
        let index = match last {
            Some((previous, index)) if previous == key => index,
            _ => {
                let index = *cache
                    .entry(key)
                    .or_insert_with(|| nearest([p[0], p[1], p[2]]));
                last = Some((key, index));
                index
            }
        };
        indices.push(index);
    }
    indices
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::encode::raster;

    use crate::library::scene::{PathItem, TextItem};
    use std::collections::HashSet;

    fn text_scene(color: Color) -> Scene {
        let mut scene = Scene::new(60, 24, Color::WHITE);
        scene.push(PathItem::rect(2.0, 2.0, 10.0, 10.0).filled(Color::rgb(0, 114, 178)));
        scene.push(TextItem::centered(36.0, 18.0, "n = 7", 14.0, color));
        scene
    }

    #[test]
    fn anti_aliased_text_maps_to_palette_shades_and_solid_colours_stay_exact() {
        let ink = Color::rgb(0x22, 0x22, 0x22);
        let palette = FramePalette::new(&[Color::WHITE, Color::rgb(0, 114, 178)], &[ink]).unwrap();
        assert_eq!(palette.colours().len(), 3 + TEXT_SHADES);
        let scene = text_scene(ink);
        palette.check_scene(&scene).unwrap();
        let pixmap = raster::rasterize(&scene, &crate::Control::default()).unwrap();
        let indices = palette.index_pixels(&pixmap);
        let rgba = raster::straight_rgba(&pixmap);
        let mut shades_used = HashSet::new();
        for (k, &index) in indices.iter().enumerate() {
            let got = &rgba[k * 4..k * 4 + 3];
            let chosen = palette.colours()[usize::from(index)];
            if let Some(exact) = palette.colours().iter().position(|c| c.rgb_array() == got) {
                assert_eq!(
                    usize::from(index),
                    exact,
                    "exact colours keep their own index"
                );
            }
            shades_used.insert(chosen);
        }
        // The square is exact; text edges used some of the shades.
        assert_eq!(indices[5 * 60 + 5], 1);
        assert!(shades_used.len() > 3, "{shades_used:?}");
    }

    #[test]
    fn colours_outside_the_palette_and_transparency_are_refused() {
        let palette = FramePalette::new(&[Color::WHITE, Color::rgb(0, 114, 178)], &[]).unwrap();
        let err = palette.check_scene(&text_scene(Color::BLACK)).unwrap_err();
        assert!(err.to_string().contains("#000000"), "{err}");
        let err = FramePalette::new(&[Color::TRANSPARENT], &[]).unwrap_err();
        assert!(err.to_string().contains("opaque"), "{err}");
        let many: Vec<Color> = (0..=255u8).map(|v| Color::rgb(v, 0, 0)).collect();
        let err = FramePalette::new(&many, &[Color::rgb(0, 0, 255)]).unwrap_err();
        assert!(err.to_string().contains("256 colours"), "{err}");
    }
}
