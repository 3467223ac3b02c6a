//! Animated GIF: frames rasterised, indexed against one palette and
//! LZW-compressed on the rayon pool, written in order.

use super::frames::Animation;
use super::palette::FramePalette;
use crate::error::check_memory;
use crate::library::encode::gif::{EncodedFrame, GifWriter, MAX_SIDE};
use crate::library::encode::raster;
use crate::library::scene::{Color, Scene};
use crate::{Error, Result};
use rayon::prelude::*;
use std::io::Write;

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
            let (w, h) = scene.pixel_size();
            if (w, h) != (width, height) {
                return Err(Error::invalid_request(format!(
                    "frame {number} is {w} x {h} px, but the animation is {width} x {height} px"
                )));
            }
            palette.check_scene(scene)?;
            // One frame's raster is short; the frames come through the figure's
            // controlled iterator, which stops a cancelled run between frames.
            let pixels = raster::rasterize(scene, &crate::Control::default())?;
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
        return Err(Error::invalid_parameter("panel", format!(
            "animation frames of {width} x {height} px exceed the GIF format's limit of {MAX_SIDE} px per side; use a smaller `panel` or `cell`"
        )));
    }
    Ok(())
}
