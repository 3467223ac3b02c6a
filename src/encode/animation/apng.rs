//! Animated PNG: full colour, every frame a whole picture.

use super::frames::Frames;
use crate::library::encode::gif::Repeat;
use crate::library::encode::{png as png_enc, raster, Metadata};
use crate::{Error, Result};
use std::io::Write;
use std::path::Path;

/// Writes `frames` as an animated PNG: full colour, no palette limit, what
/// browsers and slide software play besides GIF. Every frame is a whole picture
/// (no partial updates), so any frame can be shown alone; the provenance goes in
/// tEXt chunks as in a still PNG.
pub fn write_apng(out: &mut dyn Write, frames: Frames<'_>, metadata: &Metadata) -> Result<()> {
    let animation = frames.animation;
    animation.validate()?;
    let count = frames.count;
    if count == 0 {
        return Err(Error::invalid_request(
            "an animation needs at least one frame",
        ));
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
    png_enc::add_text(&mut encoder, metadata).map_err(fail)?;
    let mut writer: Option<png::Writer<&mut dyn Write>> = None;
    let mut header = Some(encoder);
    frames.for_each_encoded(
        |_, scene| {
            // One frame's raster is short; the frames come through the figure's
            // controlled iterator, which stops a cancelled run between frames.
            let pixels = raster::rasterize(scene, &crate::Control::default())?;
            Ok((raster::straight_rgba(&pixels), scene.paper.map(|p| p.dpi)))
        },
        |number, (rgba, dpi)| {
            if let Some(mut encoder) = header.take() {
                png_enc::set_dpi(&mut encoder, dpi);
                writer = Some(encoder.write_header().map_err(fail)?);
            }
            let Some(w) = writer.as_mut() else {
                return Err(Error::invalid_request("APNG header missing"));
            };
            if number > count {
                return Err(Error::invalid_request(format!(
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
        None => Err(Error::invalid_request(
            "an animation needs at least one frame",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::encode::animation::frames::Animation;
    use crate::library::scene::{Color, Scene};

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
                scene.push(crate::library::scene::PathItem::rect(0.0, 0.0, 4.0, 6.0).filled(c));
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
}
