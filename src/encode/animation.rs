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
use super::{Format, Metadata};
use crate::error::check_memory;
use crate::scene::board::{self, BoardPanel, BoardStyle, GridLines, LegendEntry, PanelSize};
use crate::scene::{Color, Item, Scene};
use crate::{Error, Result};
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};

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
                "`delay` {} cs is too short: viewers show delays under 2 cs as 10 cs; use `delay` 2 (50 fps) or more",
                self.delay_cs
            )));
        }
        if let Some(hold) = self.hold_last_cs {
            if hold < 2 {
                return Err(Error::invalid(format!(
                    "`hold-last` {hold} cs is too short: viewers show delays under 2 cs as 10 cs; use 2 or more"
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
        "draw smaller frames (`panel`) or run with fewer `threads`",
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

/// An animation as scenes: the one value every animated figure hands to the
/// GIF-free writers (APNG, frame sequences). Scenes come in order from a
/// sequential iterator (automaton frames build on each other) and are drawn and
/// encoded a batch at a time on the rayon pool, so a long animation never sits
/// in memory whole and its bytes do not depend on the thread count.
pub struct Frames<'a> {
    /// Pixel size of every frame.
    pub size: (u32, u32),
    /// How many frames the iterator yields.
    pub count: usize,
    /// Timing and looping.
    pub animation: Animation,
    /// Refuse batches of frames needing more bytes than this.
    pub memory_limit: u64,
    /// The frames, in order.
    pub scenes: Box<dyn Iterator<Item = Result<Scene>> + 'a>,
}

impl Frames<'_> {
    /// Frames drawn at once: enough to keep every thread busy, few enough to
    /// bound memory; checked against the memory limit.
    fn batch(&self) -> Result<usize> {
        let batch = (rayon::current_num_threads() * 2).max(2);
        let (width, height) = self.size;
        check_memory(
            || format!("{batch} frames of {width} x {height} px drawn at once"),
            u64::from(width) * u64::from(height) * 8 * batch as u64,
            self.memory_limit,
            "draw smaller frames (`panel`) or run with fewer `threads`",
        )?;
        Ok(batch)
    }

    /// Maps every frame through `encode` (numbered from 1) a batch at a time in
    /// parallel, handing the results to `sink` in order.
    fn for_each_encoded<T: Send>(
        mut self,
        encode: impl Fn(usize, &Scene) -> Result<T> + Sync,
        mut sink: impl FnMut(usize, T) -> Result<()>,
    ) -> Result<()> {
        let batch = self.batch()?;
        let mut done = 0;
        loop {
            let chunk: Vec<Scene> = self.scenes.by_ref().take(batch).collect::<Result<_>>()?;
            if chunk.is_empty() {
                break;
            }
            let encoded: Vec<Result<T>> = chunk
                .par_iter()
                .enumerate()
                .map(|(k, scene)| {
                    let number = done + k + 1;
                    if scene.pixel_size() != self.size {
                        return Err(Error::invalid(format!(
                            "frame {number} is {:?} px, but the animation is {:?} px",
                            scene.pixel_size(),
                            self.size
                        )));
                    }
                    encode(number, scene)
                })
                .collect();
            for item in encoded {
                done += 1;
                sink(done, item?)?;
            }
        }
        if done == 0 {
            return Err(Error::invalid("an animation needs at least one frame"));
        }
        Ok(())
    }
}

/// Writes `frames` as an animated PNG: full colour, no palette limit, what
/// browsers and slide software play besides GIF. Every frame is a whole picture
/// (no partial updates), so any frame can be shown alone; the provenance goes in
/// tEXt chunks as in a still PNG.
pub fn write_apng(out: &mut dyn Write, frames: Frames<'_>, metadata: &Metadata) -> Result<()> {
    let animation = frames.animation;
    animation.validate()?;
    let count = frames.count;
    if count == 0 {
        return Err(Error::invalid("an animation needs at least one frame"));
    }
    let (width, height) = frames.size;
    let fail = |e: png::EncodingError| Error::Encode {
        path: Path::new("").to_path_buf(),
        message: e.to_string(),
    };
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let plays = match animation.repeat {
        Repeat::Forever => 0,
        Repeat::Times(n) => u32::from(n.max(1)),
    };
    encoder.set_animated(count as u32, plays).map_err(fail)?;
    for (key, value) in &metadata.entries {
        encoder
            .add_text_chunk(key.clone(), value.clone())
            .map_err(fail)?;
    }
    let mut writer: Option<png::Writer<&mut dyn Write>> = None;
    let mut header = Some(encoder);
    frames.for_each_encoded(
        |_, scene| {
            let pixels = raster::rasterize(scene)?;
            Ok((raster::straight_rgba(&pixels), scene.paper.map(|p| p.dpi)))
        },
        |number, (rgba, dpi)| {
            if let Some(mut encoder) = header.take() {
                super::png::set_dpi(&mut encoder, dpi);
                writer = Some(encoder.write_header().map_err(fail)?);
            }
            let Some(w) = writer.as_mut() else {
                return Err(Error::invalid("APNG header missing"));
            };
            if number > count {
                return Err(Error::invalid(format!(
                    "the animation promised {count} frames but has more"
                )));
            }
            let delay = match (number == count, animation.hold_last_cs) {
                (true, Some(hold)) => hold,
                _ => animation.delay_cs,
            };
            w.set_frame_delay(delay, 100).map_err(fail)?;
            w.write_image_data(&rgba).map_err(fail)
        },
    )?;
    match writer {
        Some(w) => w.finish().map_err(fail),
        None => Err(Error::invalid("an animation needs at least one frame")),
    }
}

/// Where a numbered frame sequence goes: `-o frames/m-%03d.png` (printf style,
/// as ffmpeg takes it) is `frames/m-` + the frame number padded to 3 digits +
/// `.png`. The number must sit right before the extension, which is where
/// LaTeX's animate package looks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FramePattern {
    /// Everything before the number, folders included (`frames/m-`).
    pub prefix: String,
    /// Digits the number is padded to (`%d` pads nothing: 0).
    pub digits: usize,
    /// The frames' format: `.png`, `.pdf` or `.svg`.
    pub format: Format,
}

impl FramePattern {
    /// The pattern in `path`, if its file name holds a `%`; `None` for an ordinary
    /// file name.
    pub fn parse(path: &Path) -> Result<Option<FramePattern>> {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            return Ok(None);
        };
        let Some(percent) = name.find('%') else {
            if path.to_str().is_some_and(|p| p.contains('%')) {
                return Err(Error::invalid(format!(
                    "-o {}: a frame number (%03d) belongs in the file name, not a folder",
                    path.display()
                )));
            }
            return Ok(None);
        };
        let bad = || {
            Error::invalid(format!(
                "-o {}: a frame sequence is named like frames/m-%03d.png (the number, %d or %0Nd, right before .png, .pdf or .svg)",
                path.display()
            ))
        };
        let rest = &name[percent + 1..];
        let spec_len = rest.find('d').ok_or_else(bad)?;
        let spec = &rest[..spec_len];
        let digits = if spec.is_empty() {
            0
        } else if spec.starts_with('0') && spec.len() > 1 {
            spec[1..].parse::<usize>().map_err(|_| bad())?
        } else {
            return Err(bad());
        };
        if digits > 9 {
            return Err(bad());
        }
        let after = &rest[spec_len + 1..];
        let format = match after.to_ascii_lowercase().as_str() {
            ".png" => Format::Png,
            ".pdf" => Format::Pdf,
            ".svg" => Format::Svg,
            _ => return Err(bad()),
        };
        if name[..percent].contains('%') {
            return Err(bad());
        }
        let folder = path
            .parent()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prefix = if folder.is_empty() {
            name[..percent].to_string()
        } else {
            format!("{folder}/{}", &name[..percent])
        };
        Ok(Some(FramePattern {
            prefix,
            digits,
            format,
        }))
    }

    /// The file of frame `number` (from 1).
    pub fn frame_path(&self, number: usize) -> PathBuf {
        let digits = self.digits;
        PathBuf::from(format!(
            "{}{number:0digits$}.{}",
            self.prefix,
            self.format.extension()
        ))
    }

    /// The LaTeX file written beside the frames: the prefix without its trailing
    /// separator (`frames/m-` gives `frames/m.tex`; `frames/` gives `frames/frames.tex`).
    pub fn tex_path(&self) -> PathBuf {
        let trimmed = self.prefix.trim_end_matches(['-', '_', '.', ' ']);
        let path = Path::new(trimmed);
        match path.file_name() {
            Some(_) if !trimmed.ends_with('/') => path.with_extension("tex"),
            _ => Path::new(trimmed).join("frames.tex"),
        }
    }

    /// Refuses a padding too narrow for `count` frames (the files would not sort,
    /// and animate reads the width from the first and last numbers).
    pub fn check_count(&self, count: usize) -> Result<()> {
        let needed = count.to_string().len();
        if self.digits != 0 && self.digits < needed {
            return Err(Error::invalid(format!(
                "-o {}%0{}d.{}: {count} frames need {needed} digits; write %0{needed}d",
                self.prefix,
                self.digits,
                self.format.extension()
            )));
        }
        Ok(())
    }

    /// The `\animategraphics` lines (animate package, for beamer) that play the
    /// sequence: the frame rate from `--delay`, looping as the animation does. The
    /// paths are as given to `-o`: LaTeX resolves them from the folder it runs in.
    pub fn animate_snippet(&self, count: usize, animation: &Animation) -> String {
        let digits = self.digits;
        let fps = 100.0 / f64::from(animation.delay_cs.max(1));
        let fps = crate::scene::units::trim_number(fps);
        let looping = if animation.repeat == Repeat::Forever {
            ",loop"
        } else {
            ""
        };
        format!(
            "% Made by nimscape: {count} frames, {prefix}{first:0digits$}.{ext} to {prefix}{count:0digits$}.{ext}.\n% Needs \\usepackage{{animate}} in the preamble (texlive-latex-extra); paths are\n% relative to the folder pdflatex runs in. Frames are shown at their natural size.\n\\animategraphics[controls{looping}]{{{fps}}}{{{prefix}}}{{{first:0digits$}}}{{{count:0digits$}}}\n",
            prefix = self.prefix,
            ext = self.format.extension(),
            first = 1
        )
    }
}

/// Writes every frame to its own numbered file (`pattern`), each atomically, and
/// the `\animategraphics` snippet beside them; calls `wrote` with each path. On
/// failure the files this call wrote are removed again, so a half sequence is
/// never left behind.
pub fn write_frame_files(
    pattern: &FramePattern,
    frames: Frames<'_>,
    metadata: &Metadata,
    mut wrote: impl FnMut(&Path),
) -> Result<()> {
    pattern.check_count(frames.count)?;
    frames.animation.validate()?;
    let animation = frames.animation;
    let count = frames.count;
    let memory_limit = frames.memory_limit;
    let format = pattern.format;
    let mut written: Vec<PathBuf> = Vec::new();
    let result = frames
        .for_each_encoded(
            |_, scene| {
                let mut bytes = Vec::new();
                super::write_scene_to(&mut bytes, format, scene, metadata, memory_limit)?;
                Ok(bytes)
            },
            |number, bytes| {
                let path = pattern.frame_path(number);
                super::write_atomic(&path, |out| {
                    out.write_all(&bytes).map_err(Error::write_failed)
                })?;
                written.push(path);
                Ok(())
            },
        )
        .and_then(|()| {
            if written.len() != count {
                return Err(Error::invalid(format!(
                    "the animation promised {count} frames but drew {}",
                    written.len()
                )));
            }
            let tex = pattern.tex_path();
            super::write_atomic(&tex, |out| {
                out.write_all(pattern.animate_snippet(count, &animation).as_bytes())
                    .map_err(Error::write_failed)
            })?;
            written.push(tex);
            Ok(())
        });
    match result {
        Ok(()) => {
            for path in &written {
                wrote(path);
            }
            Ok(())
        }
        Err(e) => {
            for path in &written {
                let _ = std::fs::remove_file(path);
            }
            Err(e)
        }
    }
}

/// Refuses a transparent or translucent background for a GIF, before anything
/// is drawn: frames here are opaque, with one palette and no alpha.
pub fn check_opaque_background(background: Color) -> Result<()> {
    if background.a != 255 {
        return Err(Error::unsupported(
            "a GIF needs an opaque `background` (its palette has no partial transparency)",
        ));
    }
    Ok(())
}

/// Refuses frames the GIF format cannot store, before anything is drawn.
pub fn check_frame_size(width: u32, height: u32) -> Result<()> {
    if width as usize > MAX_SIDE || height as usize > MAX_SIDE {
        return Err(Error::invalid(format!(
            "animation frames of {width} x {height} px exceed the GIF format's limit of {MAX_SIDE} px per side; use a smaller `panel` or `cell`"
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
    /// One cell size for every frame (`--scale common`): each board keeps its
    /// true size in frames sized to the largest, so growth is visible; otherwise
    /// every board fills the frame.
    pub common_scale: bool,
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

    /// The panels as equal-size frames: each board in the same square box
    /// (scaled 1/n), or, with a common scale, at one cell size in frames sized
    /// to the largest board, anchored at the top-left corner as the boards grow.
    pub fn frames<'a>(
        &self,
        count: usize,
        panels: impl Iterator<Item = Result<BoardPanel>> + 'a,
        memory_limit: u64,
    ) -> Result<Frames<'a>> {
        self.animation.validate()?;
        let batch = (rayon::current_num_threads() * 2).max(2) as u64;
        let side = self.largest as u64;
        check_memory(
            || format!("{batch} boards of up to {side} x {side} cells drawn at once"),
            side * side * 3 * batch,
            memory_limit,
            "animate smaller boards, or run with fewer `threads`",
        )?;
        let (width, height) = self.frame_size();
        let style = self.frame_style();
        let size = if self.common_scale {
            PanelSize::Cell((self.panel_px / self.largest.max(1) as u32).max(1))
        } else {
            PanelSize::Panel(self.panel_px)
        };
        let common_scale = self.common_scale;
        let scenes = panels.map(move |panel| {
            let panel = panel?;
            let mut scene = board::sheet(std::slice::from_ref(&panel), size, Some(1), &style);
            let fits = if common_scale {
                scene.width <= width
            } else {
                scene.width == width
            };
            if !fits || scene.height > height {
                return Err(Error::invalid(format!(
                    "a {} x {} board does not fit the {width} x {height} px frames of this animation",
                    panel.rows, panel.cols
                )));
            }
            // Smaller boards and frames with fewer text lines get the same size
            // (the background fills the rest).
            scene.width = width;
            scene.height = height;
            Ok(scene)
        });
        Ok(Frames {
            size: (width, height),
            count,
            animation: self.animation,
            memory_limit,
            scenes: Box::new(scenes),
        })
    }

    /// Writes `panels`, one frame each, as an animated GIF to `out`.
    pub fn write(
        &self,
        out: &mut dyn Write,
        panels: impl Iterator<Item = Result<BoardPanel>>,
        memory_limit: u64,
    ) -> Result<()> {
        self.validate()?;
        let palette = self.palette()?;
        let frames = self.frames(0, panels, memory_limit)?;
        write_gif(
            out,
            frames.size,
            &palette,
            frames.scenes,
            &self.animation,
            memory_limit,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames_of(scenes: Vec<Scene>) -> Frames<'static> {
        Frames {
            size: scenes[0].pixel_size(),
            count: scenes.len(),
            animation: Animation::default(),
            memory_limit: crate::error::DEFAULT_MEMORY_LIMIT,
            scenes: Box::new(scenes.into_iter().map(Ok)),
        }
    }

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
        let mut bytes = Vec::new();
        write_apng(&mut bytes, frames_of(scenes), &Metadata::default()).unwrap();
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
    fn frame_patterns_name_files_and_their_animate_line_agrees() {
        let p = FramePattern::parse(Path::new("out/sweep-%03d.pdf"))
            .unwrap()
            .unwrap();
        assert_eq!(p.frame_path(1), PathBuf::from("out/sweep-001.pdf"));
        assert_eq!(p.frame_path(12), PathBuf::from("out/sweep-012.pdf"));
        assert_eq!(p.tex_path(), PathBuf::from("out/sweep.tex"));
        let tex = p.animate_snippet(12, &Animation::default());
        assert!(
            tex.contains("\\animategraphics[controls,loop]{10}{out/sweep-}{001}{012}"),
            "{tex}"
        );
        let bare = FramePattern::parse(Path::new("f/%d.png")).unwrap().unwrap();
        assert_eq!(bare.frame_path(7), PathBuf::from("f/7.png"));
        assert_eq!(bare.tex_path(), PathBuf::from("f/frames.tex"));
        assert!(p.check_count(999).is_ok() && p.check_count(1000).is_err());
        assert_eq!(FramePattern::parse(Path::new("a.png")).unwrap(), None);
        // Only the file name carries the pattern: a folder may have '%' in its name.
        let folder = FramePattern::parse(Path::new("f%/g-%d.png"))
            .unwrap()
            .unwrap();
        assert_eq!(folder.frame_path(2), PathBuf::from("f%/g-2.png"));
        for bad in ["f-%03d-x.png", "f-%3d.png", "f-%03d.gif", "%x.png"] {
            assert!(FramePattern::parse(Path::new(bad)).is_err(), "{bad}");
        }
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
