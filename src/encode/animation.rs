//! Animations: sequences of scenes as GIF frames whose colours are exact.
//!
//! The one idea: a GIF holds one palette of at most 256 colours, so the palette
//! is decided **before** any frame is drawn, from the colours the scenes are
//! allowed to use ([`FramePalette`]). Cells and shapes use those colours
//! exactly; the only pixels that fall between colours are the anti-aliased
//! edges of text and strokes, and for those the palette holds a few shades of
//! each text colour over the background, and every such pixel takes the nearest
//! palette colour. No quantiser, no dithering, no colour drift between frames.
//!
//! Frames are rasterised, indexed and LZW-compressed several at a time on the
//! rayon pool, then written in order, so a long animation is fast, never sits
//! in memory whole, and its bytes do not depend on the thread count.
//!
//! [`BoardAnimation`] turns a sequence of [`BoardPanel`]s (automaton frames,
//! square boards over m, ...) into equal-size frames: every board drawn at the
//! same pixel size, scaled by 1/n, so growth reads as refinement.

use super::gif::{EncodedFrame, GifWriter, Repeat, MAX_SIDE};
use super::raster;
use crate::error::check_memory;
use crate::scene::board::{self, BoardPanel, BoardStyle, GridLines, LegendEntry, PanelSize};
use crate::scene::{Color, Item, Scene};
use crate::{Error, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

/// How an animation plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Animation {
    /// How often it plays (default: forever).
    pub repeat: Repeat,
    /// Hundredths of a second per frame (default 10, i.e. 10 frames a second).
    pub delay_cs: u16,
    /// Hundredths of a second the last frame stays before the loop starts again;
    /// `None` gives it the same delay as the others (default 150).
    pub hold_last_cs: Option<u16>,
}

impl Default for Animation {
    fn default() -> Self {
        Animation {
            repeat: Repeat::Forever,
            delay_cs: 10,
            hold_last_cs: Some(150),
        }
    }
}

impl Animation {
    /// Checks the delays: GIF viewers slow delays under 2 cs down to 10 cs.
    pub fn validate(&self) -> Result<()> {
        if self.delay_cs < 2 {
            return Err(Error::invalid(format!(
                "--delay {} cs is too short: viewers show delays under 2 cs as 10 cs; use --delay 2 (50 fps) or more",
                self.delay_cs
            )));
        }
        if let Some(hold) = self.hold_last_cs {
            if hold < 2 {
                return Err(Error::invalid(format!(
                    "--hold-last {hold} cs is too short: viewers show delays under 2 cs as 10 cs; use 2 or more"
                )));
            }
        }
        Ok(())
    }
}

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
            .ok_or_else(|| Error::invalid("a GIF palette needs a background colour"))?;
        let mut colours: Vec<Color> = Vec::new();
        let add = |c: Color, colours: &mut Vec<Color>| {
            if !colours.contains(&c) {
                colours.push(c);
            }
        };
        for &c in solid.iter().chain(text) {
            if c.a != 255 {
                return Err(Error::unsupported(format!(
                    "GIF frames here are opaque, but colour {} is {}transparent; choose an opaque --background and colours",
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
            return Err(Error::invalid(format!(
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
            Some(c) => Err(Error::invalid(format!(
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
    let mut cache: HashMap<[u8; 3], u8> = HashMap::new();
    let mut last: Option<([u8; 3], u8)> = None;
    rgba.chunks_exact(4)
        .map(|p| {
            let c = [p[0], p[1], p[2]];
            match last {
                Some((lc, li)) if lc == c => li,
                _ => {
                    let i = *cache.entry(c).or_insert_with(|| nearest(c));
                    last = Some((c, i));
                    i
                }
            }
        })
        .collect()
}

/// Writes `scenes`, each `width x height` px and painted only in `palette`'s
/// colours, as an animated GIF to `out`.
pub fn write_gif(
    out: &mut dyn Write,
    (width, height): (u32, u32),
    palette: &FramePalette,
    scenes: impl Iterator<Item = Result<Scene>>,
    animation: &Animation,
    memory_limit: u64,
) -> Result<()> {
    animation.validate()?;
    check_frame_size(width, height)?;
    let batch = (rayon::current_num_threads() * 2).max(2);
    let frame_bytes = u64::from(width) * u64::from(height) * 6;
    check_memory(
        || format!("{batch} GIF frames of {width} x {height} px drawn at once"),
        frame_bytes * batch as u64,
        memory_limit,
        "draw smaller frames (--panel) or run with fewer --threads",
    )?;
    write_frames(
        out,
        (width, height),
        palette.rgb(),
        scenes,
        batch,
        animation,
        |number, scene| {
            if (scene.width, scene.height) != (width, height) {
                return Err(Error::invalid(format!(
                    "frame {number} is {} x {} px, but the animation is {width} x {height} px",
                    scene.width, scene.height
                )));
            }
            palette.check_scene(scene)?;
            let pixels = raster::rasterize(scene)?;
            Ok(palette.index_pixels(&pixels))
        },
    )
}

/// Writes an animated GIF to `out` with `palette` as its one colour
/// table: `batch` of the `frames` at a time are turned into palette indices by
/// `index(number, frame)` (`number` counts from 1) and LZW-compressed on the rayon
/// pool, then written in order, so the bytes do not depend on the thread count and
/// at most `batch` frames are in memory at once.
pub fn write_frames<T: Sync>(
    out: &mut dyn Write,
    (width, height): (u32, u32),
    palette: &[[u8; 3]],
    frames: impl Iterator<Item = Result<T>>,
    batch: usize,
    animation: &Animation,
    index: impl Fn(usize, &T) -> Result<Vec<u8>> + Sync,
) -> Result<()> {
    animation.validate()?;
    let mut frames = frames;
    {
        let mut gif = GifWriter::new(
            out,
            width as usize,
            height as usize,
            palette,
            animation.repeat,
        )?;
        let encoder = gif.frame_encoder();
        loop {
            let chunk: Vec<T> = frames.by_ref().take(batch.max(1)).collect::<Result<_>>()?;
            if chunk.is_empty() {
                break;
            }
            let first = gif.frames() + 1;
            let encoded: Vec<Result<EncodedFrame>> = chunk
                .par_iter()
                .enumerate()
                .map(|(k, frame)| encoder.encode(&index(first + k, frame)?, first + k))
                .collect();
            for frame in encoded {
                gif.write_encoded(frame?, animation.delay_cs)?;
            }
        }
        match animation.hold_last_cs {
            Some(hold) => gif.finish_holding_last(hold)?,
            None => gif.finish()?,
        };
        Ok(())
    }
}

/// Writes `scenes` (all the same size) as an animated PNG: full colour, no
/// palette limit, what browsers and slide software play besides GIF. Every frame
/// is a whole picture (no partial updates), so any frame can be shown alone.
pub fn write_apng(
    out: &mut dyn std::io::Write,
    path: &Path,
    scenes: &[Scene],
    animation: &Animation,
) -> Result<()> {
    animation.validate()?;
    let Some(first) = scenes.first() else {
        return Err(Error::invalid("an animation needs at least one frame"));
    };
    let (width, height) = first.pixel_size();
    let fail = |e: png::EncodingError| Error::Encode {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let plays = match animation.repeat {
        Repeat::Forever => 0,
        Repeat::Times(n) => u32::from(n.max(1)),
    };
    encoder
        .set_animated(scenes.len() as u32, plays)
        .map_err(fail)?;
    if let Some(dpi) = first.paper.map(|p| p.dpi) {
        let per_metre = (dpi / crate::scene::units::MM_PER_IN * 1000.0).round() as u32;
        encoder.set_pixel_dims(Some(png::PixelDimensions {
            xppu: per_metre,
            yppu: per_metre,
            unit: png::Unit::Meter,
        }));
    }
    let mut writer = encoder.write_header().map_err(fail)?;
    for (k, scene) in scenes.iter().enumerate() {
        if scene.pixel_size() != (width, height) {
            return Err(Error::invalid(format!(
                "frame {} is {:?} px, but the animation is {width} x {height} px",
                k + 1,
                scene.pixel_size()
            )));
        }
        let last = k + 1 == scenes.len();
        let delay = match (last, animation.hold_last_cs) {
            (true, Some(hold)) => hold,
            _ => animation.delay_cs,
        };
        writer.set_frame_delay(delay, 100).map_err(fail)?;
        let pixels = raster::rasterize(scene)?;
        writer
            .write_image_data(&raster::straight_rgba(&pixels))
            .map_err(fail)?;
    }
    writer.finish().map_err(fail)
}

/// The file names of a numbered frame sequence: `stem-001.ext`, ... (zero-padded
/// to the same width, as LaTeX's animate package and video tools expect).
pub fn frame_names(stem: &str, count: usize, extension: &str) -> Vec<String> {
    let digits = count.to_string().len().max(3);
    (1..=count)
        .map(|k| format!("{stem}-{k:0digits$}.{extension}"))
        .collect()
}

/// The LaTeX (beamer) lines that play a frame sequence written with
/// [`frame_names`]: `\animategraphics` of the animate package at the animation's
/// frame rate, with controls, looping when the animation loops.
pub fn animate_snippet(stem: &str, count: usize, animation: &Animation) -> String {
    let digits = count.to_string().len().max(3);
    let fps = 100.0 / f64::from(animation.delay_cs.max(1));
    let fps = crate::scene::units::trim_number(fps);
    let looping = if animation.repeat == Repeat::Forever {
        ",loop"
    } else {
        ""
    };
    format!(
        "% Needs \\usepackage{{animate}} (texlive-latex-extra). {count} frames, one per file.\n\\animategraphics[controls{looping}]{{{fps}}}{{{stem}-}}{{{first:0digits$}}}{{{count:0digits$}}}\n",
        first = 1
    )
}

/// Refuses a transparent or translucent background for a GIF, before anything
/// is drawn: frames here are opaque, with one palette and no alpha.
pub fn check_opaque_background(background: Color) -> Result<()> {
    if background.a != 255 {
        return Err(Error::unsupported(
            "a GIF needs an opaque --background (its palette has no partial transparency)",
        ));
    }
    Ok(())
}

/// Refuses frames the GIF format cannot store, before anything is drawn.
pub fn check_frame_size(width: u32, height: u32) -> Result<()> {
    if width as usize > MAX_SIDE || height as usize > MAX_SIDE {
        return Err(Error::invalid(format!(
            "animation frames of {width} x {height} px exceed the GIF format's limit of {MAX_SIDE} px per side; use a smaller --panel or --cell"
        )));
    }
    Ok(())
}

/// Board panels as the frames of an animation, every board drawn in the same
/// `panel_px` square box (one panel per frame, caption and legend below it).
#[derive(Debug, Clone, PartialEq)]
pub struct BoardAnimation {
    /// Pixels along each board's longer side.
    pub panel_px: u32,
    /// The most cells along a side of any board: decides grid lines once for all
    /// frames, so they do not come and go.
    pub largest: usize,
    /// Lines of text under a board (caption plus legend lines) in the frame with the most.
    pub text_lines: usize,
    /// Colours and spacing.
    pub style: BoardStyle,
    /// Every colour a cell or mark of some panel may use, besides the style's.
    pub colours: Vec<Color>,
    /// Timing and looping.
    pub animation: Animation,
}

impl BoardAnimation {
    /// The style with grid lines decided for the whole animation.
    fn frame_style(&self) -> BoardStyle {
        let cell = self.panel_px as usize / self.largest.max(1);
        let grid = match self.style.grid {
            GridLines::Auto if cell >= 6 => GridLines::On,
            GridLines::Auto => GridLines::Off,
            other => other,
        };
        BoardStyle {
            grid,
            ..self.style.clone()
        }
    }

    /// The pixel size of every frame.
    pub fn frame_size(&self) -> (u32, u32) {
        let legend = self
            .text_lines
            .saturating_sub(usize::from(self.style.captions));
        let probe = BoardPanel {
            rows: 1,
            cols: 1,
            indices: vec![0],
            palette: vec![self.style.other_color],
            caption: (self.style.captions && self.text_lines > 0).then(String::new),
            marks: Vec::new(),
            legend: vec![
                LegendEntry {
                    color: self.style.other_color,
                    text: String::new(),
                };
                legend
            ],
        };
        let scene = board::sheet(
            &[probe],
            PanelSize::Panel(self.panel_px),
            Some(1),
            &self.frame_style(),
        );
        (scene.width, scene.height)
    }

    /// The GIF palette: background, cell and line colours, then caption shades.
    pub fn palette(&self) -> Result<FramePalette> {
        let s = &self.style;
        let mut solid = vec![s.background, s.other_color, s.p_color, s.grid_color];
        solid.extend(s.frame_color);
        solid.extend(&self.colours);
        solid.push(s.caption_color);
        // Legend swatches are filled with their colours (among the above) inside a
        // thin grey edge, which anti-aliases like text.
        solid.push(Color::WHITE);
        let legend = self
            .text_lines
            .saturating_sub(usize::from(self.style.captions));
        let mut text = Vec::new();
        if self.text_lines > 0 {
            text.push(s.caption_color);
        }
        if legend > 0 {
            text.push(board::SWATCH_EDGE);
        }
        FramePalette::new(&solid, &text)
    }

    /// Checks the frame size and palette before any board is computed.
    pub fn validate(&self) -> Result<()> {
        self.animation.validate()?;
        check_opaque_background(self.style.background)?;
        let (width, height) = self.frame_size();
        check_frame_size(width, height)?;
        self.palette().map(|_| ())
    }

    /// Writes `panels`, one frame each, as an animated GIF to `out`.
    pub fn write(
        &self,
        out: &mut dyn Write,
        panels: impl Iterator<Item = Result<BoardPanel>>,
        memory_limit: u64,
    ) -> Result<()> {
        self.validate()?;
        let batch = (rayon::current_num_threads() * 2).max(2) as u64;
        let side = self.largest as u64;
        check_memory(
            || format!("{batch} boards of up to {side} x {side} cells drawn at once"),
            side * side * 3 * batch,
            memory_limit,
            "animate smaller boards, or run with fewer --threads",
        )?;
        let (width, height) = self.frame_size();
        let palette = self.palette()?;
        let style = self.frame_style();
        let size = PanelSize::Panel(self.panel_px);
        let scenes = panels.map(|panel| {
            let panel = panel?;
            let mut scene = board::sheet(std::slice::from_ref(&panel), size, Some(1), &style);
            if scene.width != width || scene.height > height {
                return Err(Error::invalid(format!(
                    "a {} x {} board does not fit the {width} x {height} px frames of this animation",
                    panel.rows, panel.cols
                )));
            }
            // Frames with fewer text lines than the most get the same height.
            scene.height = height;
            Ok(scene)
        });
        write_gif(
            out,
            (width, height),
            &palette,
            scenes,
            &self.animation,
            memory_limit,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apng_has_every_frame_with_its_delay() {
        let scenes: Vec<Scene> = [Color::BLACK, Color::WHITE, Color::rgb(0, 0x72, 0xb2)]
            .into_iter()
            .map(|c| {
                let mut scene = Scene::new(8, 6, Color::WHITE);
                scene.push(crate::scene::PathItem::rect(0.0, 0.0, 4.0, 6.0).filled(c));
                scene
            })
            .collect();
        let animation = Animation::default();
        let mut bytes = Vec::new();
        write_apng(&mut bytes, Path::new("a.png"), &scenes, &animation).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
        let mut reader = decoder.read_info().unwrap();
        let control = reader.info().animation_control.unwrap();
        assert_eq!((control.num_frames, control.num_plays), (3, 0));
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        let mut delays = Vec::new();
        let mut firsts = Vec::new();
        for _ in 0..3 {
            reader.next_frame(&mut buffer).unwrap();
            let fc = reader.info().frame_control.unwrap();
            delays.push((fc.delay_num, fc.delay_den));
            firsts.push(buffer[..3].to_vec());
        }
        assert_eq!(delays, vec![(10, 100), (10, 100), (150, 100)]);
        assert_eq!(
            firsts,
            vec![vec![0, 0, 0], vec![255, 255, 255], vec![0, 0x72, 0xb2]]
        );
    }

    #[test]
    fn frame_sequences_and_their_animate_line_agree() {
        let names = frame_names("sweep", 12, "pdf");
        assert_eq!(names.first().unwrap(), "sweep-001.pdf");
        assert_eq!(names.last().unwrap(), "sweep-012.pdf");
        let tex = animate_snippet("sweep", 12, &Animation::default());
        assert!(
            tex.contains("\\animategraphics[controls,loop]{10}{sweep-}{001}{012}"),
            "{tex}"
        );
        assert_eq!(frame_names("m", 1000, "png")[999], "m-1000.png");
    }
    use crate::scene::{PathItem, TextItem};
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
        let pixmap = raster::rasterize(&scene).unwrap();
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

    #[test]
    fn loop_zero_means_forever() {
        assert_eq!(Repeat::from_loop_count(0), Repeat::Forever);
        assert_eq!(Repeat::from_loop_count(3), Repeat::Times(3));
        assert!(Animation {
            delay_cs: 1,
            ..Animation::default()
        }
        .validate()
        .is_err());
    }
}
