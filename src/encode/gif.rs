//! Animated GIFs with exact colours: one fixed palette, indexed frames, streamed.
//!
//! The figures are crisp cell grids in a handful of known colours, so nothing
//! here quantises or dithers: the caller gives one global palette of at most
//! 256 RGB colours and frames of palette indices, and those colours are what a
//! viewer shows. Frames go to the writer one at a time, so a long animation
//! never sits in memory; only the last frame is held back, already compressed,
//! because its delay is only known once the caller says the animation is over
//! ([`GifWriter::finish_holding_last`]).
//!
//! Output bytes depend only on the inputs (no threads, no timestamps).

use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;

use crate::{Error, Result};

/// The GIF format stores widths and heights as 16-bit numbers.
pub const MAX_SIDE: usize = 65535;

/// How often an animation plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Repeat {
    /// Loop forever (NETSCAPE2.0 loop count 0).
    #[default]
    Forever,
    /// Play this many times in all, at least once. Once means no NETSCAPE
    /// extension at all; n > 1 is written as loop count n - 1, which browsers
    /// read as "play once, then repeat n - 1 times".
    Times(u16),
}

impl Repeat {
    /// The meaning of `--loop N`: 0 loops forever (as in the NETSCAPE2.0 extension
    /// and ImageMagick's `-loop 0`), N >= 1 plays N times in all.
    pub fn from_loop_count(count: u16) -> Self {
        match count {
            0 => Repeat::Forever,
            n => Repeat::Times(n),
        }
    }
}

/// A streaming GIF writer with one fixed global palette.
///
/// ```
/// # use nimscape::encode::gif::{GifWriter, Repeat};
/// let palette = [[255, 255, 255], [20, 60, 160]];
/// let mut gif = GifWriter::new(Vec::new(), 2, 2, &palette, Repeat::Forever)?;
/// gif.write_frame(&[0, 1, 1, 0], 10)?;
/// gif.write_frame(&[1, 0, 0, 1], 10)?;
/// let bytes = gif.finish_holding_last(200)?;
/// assert!(bytes.starts_with(b"GIF89a"));
/// # Ok::<(), nimscape::Error>(())
/// ```
pub struct GifWriter<W: Write> {
    encoder: gif::Encoder<W>,
    width: u16,
    height: u16,
    colours: usize,
    frames: usize,
    pending: Option<gif::Frame<'static>>,
}

impl<W: Write> GifWriter<W> {
    /// Starts a `width x height` px animation with `palette` as its global
    /// colour table, and writes the header at once.
    pub fn new(
        writer: W,
        width: usize,
        height: usize,
        palette: &[[u8; 3]],
        repeat: Repeat,
    ) -> Result<Self> {
        if width == 0 || height == 0 {
            return Err(Error::invalid_request(format!(
                "a GIF frame needs at least 1 px per side, got {width} x {height} px"
            )));
        }
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(Error::invalid_request(format!(
                "a {width} x {height} px animation exceeds the GIF format's limit of {MAX_SIDE} px per side; draw it smaller"
            )));
        }
        if palette.is_empty() || palette.len() > 256 {
            return Err(Error::invalid_request(format!(
                "a GIF palette holds 1 to 256 colours, got {}",
                palette.len()
            )));
        }
        if repeat == Repeat::Times(0) {
            return Err(Error::invalid_parameter("loop", 
                "an animation plays at least once: Times(0) is not a play count; `loop` 0 (Repeat::Forever) loops forever",
            ));
        }
        let table: Vec<u8> = palette.iter().flatten().copied().collect();
        let (width, height) = (width as u16, height as u16);
        let mut encoder = gif::Encoder::new(writer, width, height, &table).map_err(encode_error)?;
        match repeat {
            Repeat::Forever => encoder.set_repeat(gif::Repeat::Infinite),
            Repeat::Times(1) => Ok(()),
            Repeat::Times(n) => encoder.set_repeat(gif::Repeat::Finite(n - 1)),
        }
        .map_err(encode_error)?;
        Ok(GifWriter {
            encoder,
            width,
            height,
            colours: palette.len(),
            frames: 0,
            pending: None,
        })
    }

    /// Number of frames written so far.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Adds a frame of palette indices, row-major, `width x height` of them,
    /// shown for `delay_cs` hundredths of a second.
    ///
    /// Browsers show delays below 2 cs as 10 cs; ask for 2 or more.
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn write_frame(&mut self, indices: &[u8], delay_cs: u16) -> Result<()> {
        let frame = self.frame_encoder().encode(indices, self.frames + 1)?;
        self.write_encoded(frame, delay_cs)
    }

    /// A `Send + Sync` handle that compresses frames for this writer, so several
    /// frames can be compressed at once on other threads and then written in order
    /// with [`write_encoded`](Self::write_encoded).
    pub fn frame_encoder(&self) -> FrameEncoder {
        FrameEncoder {
            width: self.width,
            height: self.height,
            colours: self.colours,
        }
    }

    /// Adds a frame compressed by [`FrameEncoder::encode`], shown for `delay_cs` cs.
    pub fn write_encoded(&mut self, frame: EncodedFrame, delay_cs: u16) -> Result<()> {
        if (frame.0.width, frame.0.height) != (self.width, self.height) {
            return Err(Error::invalid_request(format!(
                "GIF frame {} is {} x {} px, but the animation is {} x {} px",
                self.frames + 1,
                frame.0.width,
                frame.0.height,
                self.width,
                self.height
            )));
        }
        let frame = gif::Frame {
            delay: delay_cs,
            ..frame.0
        };
        self.flush_pending()?;
        self.pending = Some(frame);
        self.frames += 1;
        Ok(())
    }

    /// Ends the animation, every frame keeping its own delay, and returns the writer.
    pub fn finish(self) -> Result<W> {
        self.finish_with(None)
    }

    /// Ends the animation with the last frame shown for `delay_cs` instead of
    /// its own delay (a pause before the loop starts again), and returns the writer.
    pub fn finish_holding_last(self, delay_cs: u16) -> Result<W> {
        self.finish_with(Some(delay_cs))
    }

    fn finish_with(mut self, last_delay: Option<u16>) -> Result<W> {
        if self.frames == 0 {
            return Err(Error::invalid_request(
                "a GIF animation needs at least one frame",
            ));
        }
        if let (Some(frame), Some(delay)) = (self.pending.as_mut(), last_delay) {
            frame.delay = delay;
        }
        self.flush_pending()?;
        self.encoder.into_inner().map_err(encode_error)
    }

    fn flush_pending(&mut self) -> Result<()> {
        if let Some(frame) = self.pending.take() {
            self.encoder
                .write_lzw_pre_encoded_frame(&frame)
                .map_err(encode_error)?;
        }
        Ok(())
    }
}

/// Compresses frames of palette indices for one [`GifWriter`] (its size and palette).
#[derive(Clone, Copy, Debug)]
pub struct FrameEncoder {
    width: u16,
    height: u16,
    colours: usize,
}

/// One LZW-compressed frame, ready for [`GifWriter::write_encoded`].
#[derive(Clone, Debug)]
pub struct EncodedFrame(gif::Frame<'static>);

impl FrameEncoder {
    /// Compresses `indices` (row-major palette indices, `width x height` of them);
    /// `number` is the 1-based frame number for error messages.
    pub fn encode(&self, indices: &[u8], number: usize) -> Result<EncodedFrame> {
        let expected = usize::from(self.width) * usize::from(self.height);
        if indices.len() != expected {
            return Err(Error::invalid_request(format!(
                "GIF frame {number} has {} pixels, but a {} x {} px frame has {expected}",
                indices.len(),
                self.width,
                self.height
            )));
        }
        let max = indices.iter().copied().max().unwrap_or(0);
        if usize::from(max) >= self.colours {
            return Err(Error::invalid_request(format!(
                "GIF frame {number} uses colour index {max}, but the palette has only {} colours",
                self.colours
            )));
        }
        // The bytes of `gif::Frame::make_lzw_pre_encoded`, faster (see encode::lzw).
        Ok(EncodedFrame(gif::Frame {
            width: self.width,
            height: self.height,
            buffer: Cow::Owned(super::lzw::pre_encoded(indices)),
            palette: None,
            ..gif::Frame::default()
        }))
    }
}

/// An encoder's error, its file named later by whoever opened it ([`Error::at`]).
fn encode_error(error: gif::EncodingError) -> Error {
    match error {
        gif::EncodingError::Io(source) => Error::Io {
            path: PathBuf::new(),
            source,
        },
        other => Error::Encode {
            path: PathBuf::new(),
            message: other.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PALETTE: [[u8; 3]; 5] = [
        [255, 255, 255],
        [17, 34, 51],
        [200, 100, 7],
        [0, 158, 115],
        [1, 2, 3],
    ];

    /// A deterministic but irregular frame so compression has work to do.
    fn frame(k: usize, width: usize, height: usize, colours: usize) -> Vec<u8> {
        (0..width * height)
            .map(|p| ((p * 7 + k * 13 + p / width * 3) % colours) as u8)
            .collect()
    }

    struct Decoded {
        palette: Vec<u8>,
        frames: Vec<(u16, Vec<u8>)>,
        rgba: Vec<Vec<u8>>,
        repeat: gif::Repeat,
        size: (u16, u16),
    }

    fn decode(bytes: &[u8]) -> Decoded {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(bytes).unwrap();
        let palette = decoder.global_palette().unwrap().to_vec();
        let mut frames = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            frames.push((frame.delay, frame.buffer.to_vec()));
        }
        let repeat = decoder.repeat();
        let size = (decoder.width(), decoder.height());

        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(bytes).unwrap();
        let mut rgba = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            rgba.push(frame.buffer.to_vec());
        }
        Decoded {
            palette,
            frames,
            rgba,
            repeat,
            size,
        }
    }

    fn write(repeat: Repeat, delays: &[u16], hold: Option<u16>) -> Vec<u8> {
        let (width, height) = (13, 7);
        let mut gif = GifWriter::new(Vec::new(), width, height, &PALETTE, repeat).unwrap();
        for (k, &delay) in delays.iter().enumerate() {
            gif.write_frame(&frame(k, width, height, PALETTE.len()), delay)
                .unwrap();
        }
        assert_eq!(gif.frames(), delays.len());
        match hold {
            Some(hold) => gif.finish_holding_last(hold).unwrap(),
            None => gif.finish().unwrap(),
        }
    }

    #[test]
    fn decoded_frames_have_exact_colours_indices_and_delays() {
        let bytes = write(Repeat::Forever, &[7, 9, 11, 4], Some(250));
        let decoded = decode(&bytes);
        assert_eq!(decoded.size, (13, 7));
        assert_eq!(&decoded.palette[..15], PALETTE.as_flattened());
        let delays: Vec<u16> = decoded.frames.iter().map(|f| f.0).collect();
        assert_eq!(delays, [7, 9, 11, 250]);
        for (k, (indices, rgba)) in decoded
            .frames
            .iter()
            .map(|f| &f.1)
            .zip(&decoded.rgba)
            .enumerate()
        {
            let expected = frame(k, 13, 7, PALETTE.len());
            assert_eq!(indices, &expected, "frame {k}");
            let colours: Vec<u8> = expected
                .iter()
                .flat_map(|&i| {
                    let [r, g, b] = PALETTE[usize::from(i)];
                    [r, g, b, 255]
                })
                .collect();
            assert_eq!(rgba, &colours, "frame {k}");
        }
    }

    #[test]
    fn finish_keeps_the_last_frames_own_delay() {
        let decoded = decode(&write(Repeat::Forever, &[5, 6], None));
        assert_eq!(
            decoded.frames.iter().map(|f| f.0).collect::<Vec<_>>(),
            [5, 6]
        );
    }

    #[test]
    fn loop_settings_reach_the_netscape_extension() {
        let forever = write(Repeat::Forever, &[3, 3], None);
        assert_eq!(decode(&forever).repeat, gif::Repeat::Infinite);
        let three = write(Repeat::Times(3), &[3, 3], None);
        assert_eq!(decode(&three).repeat, gif::Repeat::Finite(2));
        let has_netscape = |bytes: &[u8]| bytes.windows(11).any(|w| w == b"NETSCAPE2.0");
        assert!(has_netscape(&forever) && has_netscape(&three));
        assert!(!has_netscape(&write(Repeat::Times(1), &[3, 3], None)));
    }

    #[test]
    fn a_full_256_colour_palette_round_trips() {
        let palette: Vec<[u8; 3]> = (0..=255u8)
            .map(|i| [i, 255 - i, i.wrapping_mul(37)])
            .collect();
        let indices: Vec<u8> = (0..=255u8).collect();
        let mut gif = GifWriter::new(Vec::new(), 16, 16, &palette, Repeat::Forever).unwrap();
        gif.write_frame(&indices, 10).unwrap();
        let decoded = decode(&gif.finish().unwrap());
        assert_eq!(decoded.palette, palette.as_flattened());
        assert_eq!(decoded.frames[0].1, indices);
    }

    #[test]
    fn bytes_are_identical_across_runs_and_thread_counts() {
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| write(Repeat::Times(2), &[4, 5, 6], Some(100)))
        };
        let first = run(1);
        assert_eq!(first, run(1));
        assert_eq!(first, run(3));
    }

    fn invalid_one_line(result: Result<impl Sized>, needles: &[&str]) {
        let err = result.err().expect("should be refused");
        let text = err.to_string();
        assert!(matches!(err, Error::InvalidParameter { .. }), "{text}");
        assert!(!text.contains('\n'), "{text}");
        for needle in needles {
            assert!(text.contains(needle), "{text} lacks {needle}");
        }
    }

    #[test]
    fn bad_sizes_palettes_and_indices_are_refused() {
        let new =
            |w, h, palette: &[[u8; 3]], repeat| GifWriter::new(Vec::new(), w, h, palette, repeat);
        invalid_one_line(
            new(70000, 10, &PALETTE, Repeat::Forever),
            &["70000 x 10", "65535"],
        );
        invalid_one_line(
            new(10, 65536, &PALETTE, Repeat::Forever),
            &["65536", "65535"],
        );
        invalid_one_line(new(0, 10, &PALETTE, Repeat::Forever), &["0 x 10"]);
        invalid_one_line(new(10, 10, &[], Repeat::Forever), &["palette", "got 0"]);
        invalid_one_line(
            new(10, 10, &[[0; 3]; 257], Repeat::Forever),
            &["palette", "got 257"],
        );
        invalid_one_line(new(10, 10, &PALETTE, Repeat::Times(0)), &["`loop`"]);
        assert!(new(MAX_SIDE, 1, &PALETTE, Repeat::Forever).is_ok());

        let mut gif = new(4, 2, &PALETTE, Repeat::Forever).unwrap();
        invalid_one_line(gif.write_frame(&[0; 7], 5), &["7 pixels", "4 x 2"]);
        invalid_one_line(
            gif.write_frame(&[0, 0, 5, 0, 0, 0, 0, 0], 5),
            &["index 5", "5 colours"],
        );
        invalid_one_line(gif.finish(), &["at least one frame"]);
    }

    #[test]
    fn io_errors_name_the_file() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let err = GifWriter::new(Broken, 2, 2, &PALETTE, Repeat::Forever)
            .err()
            .unwrap();
        assert!(matches!(err, Error::Io { .. }), "{err}");
        assert!(err.to_string().contains("disk full"));
    }
}
