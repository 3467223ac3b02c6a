//! PNG: full-colour figures, and 1-bit bilevel boards streamed in row bands.
//!
//! Bilevel boards are computed band by band in parallel while the previous
//! band is being compressed, so a 65536 x 65536 board needs a few MiB, not
//! gigabytes, and never sits in memory whole.

use super::metadata::Metadata;
use crate::{BitGrid, Error, Result};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

/// An encoder's error, its file named later by whoever opened it ([`Error::at`]).
fn encode_error() -> impl Fn(png::EncodingError) -> Error {
    move |err| match err {
        png::EncodingError::IoError(source) => Error::Io {
            path: PathBuf::new(),
            source,
        },
        other => Error::Encode {
            path: PathBuf::new(),
            message: other.to_string(),
        },
    }
}

fn encoder<'w>(
    out: &'w mut dyn Write,
    width: u32,
    height: u32,
    metadata: &Metadata,
) -> Result<png::Encoder<'w, &'w mut dyn Write>> {
    let mut encoder = png::Encoder::new(out, width, height);
    add_text(&mut encoder, metadata).map_err(encode_error())?;
    Ok(encoder)
}

/// Stores the metadata as text chunks: `tEXt` where the value is Latin-1 (the PNG
/// standard's charset for it, read by every tool), `iTXt` (UTF-8) where it is not,
/// e.g. a caption with an en dash in the command line.
pub(crate) fn add_text<W: Write>(
    encoder: &mut png::Encoder<'_, W>,
    metadata: &Metadata,
) -> std::result::Result<(), png::EncodingError> {
    for (key, value) in &metadata.entries {
        if value.chars().all(|c| u32::from(c) <= 0xFF) {
            encoder.add_text_chunk(key.clone(), value.clone())?;
        } else {
            encoder.add_itxt_chunk(key.clone(), value.clone())?;
        }
    }
    Ok(())
}

/// Writes a rasterised scene: indexed when it has at most 256 colours, else RGB when
/// every pixel is opaque, RGBA otherwise.
pub fn write_rgb(
    out: &mut dyn Write,
    width: u32,
    height: u32,
    pixmap: &tiny_skia::Pixmap,
    metadata: &Metadata,
) -> Result<()> {
    write_rgb_at(out, (width, height), pixmap, metadata, None)
}

/// [`write_rgb`] with the resolution stored in a pHYs chunk (pixels per metre), so
/// a page-layout program places the image at its physical size.
pub fn write_rgb_at(
    out: &mut dyn Write,
    (width, height): (u32, u32),
    pixmap: &tiny_skia::Pixmap,
    metadata: &Metadata,
    dpi: Option<f64>,
) -> Result<()> {
    let rgba = super::raster::straight_rgba(pixmap);
    let opaque = rgba.chunks_exact(4).all(|p| p[3] == 255);
    let mut encoder = encoder(out, width, height, metadata)?;
    set_dpi(&mut encoder, dpi);
    encoder.set_depth(png::BitDepth::Eight);
    // zlib's default level: on these figures as small as its best level (smaller, with
    // adaptive filters) in well under half the time.
    encoder.set_compression(png::Compression::Balanced);
    // Figures are drawn in a few flat colours and their antialiased blends, so most
    // fit a 256-colour palette: a third of the bytes to compress, and smaller files.
    // The decoded pixels are the same either way.
    // The rows are filtered and compressed here, as png itself would (see [`zlib`]):
    // palette indices are names, not intensities, so indexed rows go unfiltered
    // (differencing them only adds noise); colour rows get png's adaptive filter.
    let raw = if let Some(indexed) = Palette::of(&rgba) {
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_palette(indexed.rgb());
        if !opaque {
            encoder.set_trns(indexed.alpha());
        }
        unfiltered_rows(&indexed.indices, width as usize)
    } else if opaque {
        encoder.set_color(png::ColorType::Rgb);
        let mut rgb = Vec::with_capacity(rgba.len() / 4 * 3);
        for p in rgba.chunks_exact(4) {
            rgb.extend_from_slice(&p[..3]);
        }
        adaptive_rows(&rgb, width as usize * 3, 3)
    } else {
        encoder.set_color(png::ColorType::Rgba);
        adaptive_rows(&rgba, width as usize * 4, 4)
    };
    let zlib = zlib(&raw).map_err(|source| Error::Io {
        path: PathBuf::new(),
        source,
    })?;
    let mut writer = encoder.write_header().map_err(encode_error())?;
    for chunk in zlib.chunks(MAX_IDAT_LEN) {
        writer
            .write_chunk(png::chunk::IDAT, chunk)
            .map_err(encode_error())?;
    }
    writer.finish().map_err(encode_error())
}

/// The longest IDAT chunk png writes (2^31 - 1 bytes).
const MAX_IDAT_LEN: usize = (u32::MAX >> 1) as usize;

/// Rows of `row_len` bytes, each led by filter byte 0 (none).
fn unfiltered_rows(data: &[u8], row_len: usize) -> Vec<u8> {
    let row_len = row_len.max(1);
    let mut raw = Vec::with_capacity(data.len() + data.len() / row_len);
    for row in data.chunks(row_len) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    raw
}

/// Rows of `row_len` bytes (`bpp` bytes per pixel) filtered as png's
/// `Filter::Adaptive` does: of Up, Sub, Average and Paeth, tried in that order, the
/// last with the least sum of |byte as i8|, stopping early at a sum of 0. Each row
/// is led by its filter type.
fn adaptive_rows(data: &[u8], row_len: usize, bpp: usize) -> Vec<u8> {
    const SUB: u8 = 1;
    const UP: u8 = 2;
    const AVERAGE: u8 = 3;
    const PAETH: u8 = 4;
    let row_len = row_len.max(1);
    let zeros = vec![0u8; row_len];
    let mut raw = Vec::with_capacity(data.len() + data.len() / row_len);
    let mut trial = vec![0u8; row_len];
    let mut previous: &[u8] = &zeros;
    for row in data.chunks(row_len) {
        let trial = &mut trial[..row.len()];
        let mut best = (u64::MAX, UP);
        for filter in [UP, SUB, AVERAGE, PAETH] {
            filter_row(filter, bpp, previous, row, trial);
            let cost: u64 = trial
                .iter()
                .map(|&b| u32::from((b as i8).unsigned_abs()))
                .sum::<u32>()
                .into();
            if cost <= best.0 {
                best = (cost, filter);
                if cost == 0 {
                    break;
                }
            }
        }
        filter_row(best.1, bpp, previous, row, trial);
        raw.push(best.1);
        raw.extend_from_slice(trial);
        previous = row;
    }
    raw
}

/// One PNG row filter (1 Sub, 2 Up, 3 Average, 4 Paeth) of `row` over `previous`:
/// one plain loop per filter, which the compiler vectorises.
fn filter_row(filter: u8, bpp: usize, previous: &[u8], row: &[u8], out: &mut [u8]) {
    let n = row.len().min(previous.len()).min(out.len());
    let (row, previous, out) = (&row[..n], &previous[..n], &mut out[..n]);
    let head = bpp.min(n);
    match filter {
        1 => {
            out[..head].copy_from_slice(&row[..head]);
            for ((o, &r), &left) in out[head..].iter_mut().zip(&row[head..]).zip(row) {
                *o = r.wrapping_sub(left);
            }
        }
        2 => {
            for ((o, &r), &up) in out.iter_mut().zip(row).zip(previous) {
                *o = r.wrapping_sub(up);
            }
        }
        3 => {
            for i in 0..head {
                out[i] = row[i].wrapping_sub(previous[i] / 2);
            }
            for (((o, &r), &up), &left) in out[head..]
                .iter_mut()
                .zip(&row[head..])
                .zip(&previous[head..])
                .zip(row)
            {
                *o = r.wrapping_sub(((u16::from(left) + u16::from(up)) / 2) as u8);
            }
        }
        _ => {
            for i in 0..head {
                out[i] = row[i].wrapping_sub(paeth(0, previous[i], 0));
            }
            for ((((o, &r), &up), &left), &up_left) in out[head..]
                .iter_mut()
                .zip(&row[head..])
                .zip(&previous[head..])
                .zip(row)
                .zip(previous)
            {
                *o = r.wrapping_sub(paeth(left, up, up_left));
            }
        }
    }
}

/// The Paeth predictor of the PNG specification, without branches (p - a = b - c,
/// p - b = a - c, p - c = a + b - 2c) so the loop over a row vectorises.
#[inline(always)]
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (ia, ib, ic) = (i16::from(a), i16::from(b), i16::from(c));
    let pa = (ib - ic).abs();
    let pb = (ia - ic).abs();
    let pc = (ia + ib - 2 * ic).abs();
    let b_or_c = if pb <= pc { b } else { c };
    if pa <= pb && pa <= pc {
        a
    } else {
        b_or_c
    }
}

/// The zlib stream of filtered rows exactly as png's encoder makes it at
/// `Compression::Balanced` (flate2's default level, miniz backend), but fed in one
/// write: png feeds flate2 row by row, and on every call flate2's miniz backend
/// zero-fills its 32 KiB output buffer, which cost more than compressing most
/// figures. A deflate stream does not depend on how its input was split, so the
/// bytes are png's own (`images_are_the_bytes_png_itself_writes` checks it).
pub(crate) fn zlib(raw: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut zlib = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(raw.len() / 4 + 64),
        flate2::Compression::default(),
    );
    zlib.write_all(raw)?;
    zlib.finish()
}

/// Stores `dpi` in a pHYs chunk (pixels per metre), so a page-layout program
/// places the image at its physical size; nothing without one.
pub fn set_dpi(encoder: &mut png::Encoder<'_, &mut dyn Write>, dpi: Option<f64>) {
    if let Some(dpi) = dpi {
        let per_metre = (dpi / crate::library::scene::units::MM_PER_IN * 1000.0).round() as u32;
        encoder.set_pixel_dims(Some(png::PixelDimensions {
            xppu: per_metre,
            yppu: per_metre,
            unit: png::Unit::Meter,
        }));
    }
}

/// The colours of an image in order of first appearance, and each pixel's index.
struct Palette {
    colors: Vec<[u8; 4]>,
    indices: Vec<u8>,
}

impl Palette {
    /// `None` when the straight-alpha RGBA pixels hold more than 256 colours.
    fn of(rgba: &[u8]) -> Option<Palette> {
        let mut colors: Vec<[u8; 4]> = Vec::new();
        // A colour is looked up as one u32: one multiply to hash.
        let mut lookup: rustc_hash::FxHashMap<u32, u8> = Default::default();
        let mut indices = Vec::with_capacity(rgba.len() / 4);
        let mut last: Option<(u32, u8)> = None;
        for pixel in rgba.chunks_exact(4) {
            let key = u32::from_le_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
            // Runs of one colour are the common case: skip the map for them.
            let index = match last {
                Some((previous, index)) if previous == key => index,
                _ => match lookup.get(&key) {
                    Some(&index) => index,
                    None => {
                        let index = u8::try_from(colors.len()).ok()?;
                        colors.push(key.to_le_bytes());
                        lookup.insert(key, index);
                        index
                    }
                },
            };
            last = Some((key, index));
            indices.push(index);
        }
        Some(Palette { colors, indices })
    }

    fn rgb(&self) -> Vec<u8> {
        self.colors
            .iter()
            .flat_map(|c| [c[0], c[1], c[2]])
            .collect()
    }

    fn alpha(&self) -> Vec<u8> {
        self.colors.iter().map(|c| c[3]).collect()
    }
}

/// How hard to compress bilevel boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compression {
    /// Fastest, but files up to 40x larger than `Balanced` (m = 12345: 4.4 MB
    /// against 119 KB), for only about 3x less time.
    Fast,
    /// zlib's usual balance of size and speed (the default: the file a user
    /// keeps, m = 65535 in under a second).
    #[default]
    Balanced,
    /// Smallest files, slowest.
    Best,
}

/// Rows per band: enough work to share among threads, little enough memory.
const BAND_ROWS: usize = 1024;

/// The bytes [`write_bilevel`] holds for a `width` x `height` image: two bands
/// of rows (one compressed while the next is computed), the encoder's few rows
/// and its 1 MiB stream buffer. Saturating, so that any size is refused rather
/// than wrapped.
pub fn bilevel_peak_bytes(width: u64, height: u64) -> u64 {
    let row_bytes = width.div_ceil(8).saturating_add(1);
    let band = height.min(BAND_ROWS as u64);
    row_bytes
        .saturating_mul(band.saturating_mul(2).saturating_add(4))
        .saturating_add(1 << 20)
}

/// Writes a 1-bit grayscale PNG (0 = black, 1 = white). `fill_row(row, bytes)` writes one
/// row of packed pixels, most significant bit first; rows are filled in parallel and
/// compressed in order, so the bytes never depend on the thread count. `control`
/// is checked between bands of rows (tens of milliseconds each at 65536 columns),
/// and advanced by a row each.
pub fn write_bilevel(
    out: &mut dyn Write,
    width: u32,
    height: u32,
    compression: Compression,
    metadata: &Metadata,
    control: &crate::Control,
    fill_row: impl Fn(usize, &mut [u8]) + Sync,
) -> Result<()> {
    control.add_total(u64::from(height));
    let mut encoder = encoder(out, width, height, metadata)?;
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::One);
    encoder.set_compression(match compression {
        Compression::Fast => png::Compression::Fast,
        Compression::Balanced => png::Compression::Balanced,
        Compression::Best => png::Compression::High,
    });
    // Sub turns the long runs of equal bytes in these patterns into zeros, which
    // fdeflate packs tightly; unfiltered, near-checkerboard rows (m = 2^k - 1) grow.
    encoder.set_filter(png::Filter::Sub);
    let mut writer = encoder.write_header().map_err(encode_error())?;
    let row_bytes = (width as usize).div_ceil(8);
    let height = height as usize;
    let band_of = |start: usize, buffer: &mut Vec<u8>| {
        let rows = BAND_ROWS.min(height - start);
        buffer.resize(rows * row_bytes, 0);
        buffer
            .par_chunks_mut(row_bytes)
            .enumerate()
            .for_each(|(k, row)| fill_row(start + k, row));
    };
    {
        let mut stream = writer
            .stream_writer_with_size(1 << 20)
            .map_err(encode_error())?;
        let (mut current, mut next) = (Vec::new(), Vec::new());
        if height > 0 {
            band_of(0, &mut current);
        }
        let mut start = 0;
        while start < height {
            control.check()?;
            let next_start = start + BAND_ROWS;
            // Compress this band on this thread while the pool computes the next one.
            let written = std::thread::scope(|scope| {
                let computing = scope.spawn(|| {
                    if next_start < height {
                        band_of(next_start, &mut next);
                    }
                });
                let written = stream.write_all(&current);
                if let Err(panic) = computing.join() {
                    std::panic::resume_unwind(panic);
                }
                written
            });
            written.map_err(|source| Error::Io {
                path: PathBuf::new(),
                source,
            })?;
            std::mem::swap(&mut current, &mut next);
            control.advance((next_start.min(height) - start) as u64);
            start = next_start;
        }
        stream.finish().map_err(encode_error())?;
    }
    Ok(())
}

/// Writes `grid` as a 1-bit PNG, one pixel per cell: true cells black, the
/// others white (see [`write_bilevel`]).
pub fn write_bilevel_grid(
    out: &mut dyn Write,
    grid: &BitGrid,
    compression: Compression,
    metadata: &Metadata,
    control: &crate::Control,
) -> Result<()> {
    write_bilevel(
        out,
        grid.cols() as u32,
        grid.rows() as u32,
        compression,
        metadata,
        control,
        |row, bytes| {
            // Padding bits past the last column stay white, as in every row written here.
            bytes.fill(0xFF);
            for (w, &word) in grid.row_words(row).iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let col = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    bytes[col / 8] &= !(0x80 >> (col % 8));
                }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes a PNG to straight RGBA, whatever colour type it was written in.
    fn decoded_rgba(bytes: &[u8]) -> Vec<u8> {
        image::load_from_memory(bytes)
            .unwrap()
            .to_rgba8()
            .into_raw()
    }

    fn written(pixmap: &tiny_skia::Pixmap) -> Vec<u8> {
        let mut out = Vec::new();
        let size = (pixmap.width(), pixmap.height());
        write_rgb_at(&mut out, size, pixmap, &Metadata::default(), None).unwrap();
        out
    }

    fn pixmap_of(
        width: u32,
        height: u32,
        color_at: impl Fn(u32, u32) -> [u8; 4],
    ) -> tiny_skia::Pixmap {
        let mut pixmap = tiny_skia::Pixmap::new(width, height).unwrap();
        for (k, pixel) in pixmap.pixels_mut().iter_mut().enumerate() {
            let [r, g, b, a] = color_at(k as u32 % width, k as u32 / width);
            *pixel = tiny_skia::ColorU8::from_rgba(r, g, b, a).premultiply();
        }
        pixmap
    }

    #[test]
    fn few_colours_are_written_indexed_and_decode_to_the_same_pixels() {
        let pixmap = pixmap_of(40, 30, |x, y| {
            [(x / 10 * 60) as u8, (y / 10 * 80) as u8, 200, 255]
        });
        let bytes = written(&pixmap);
        assert_eq!(bytes[25], 3, "colour type 3 (indexed) in IHDR");
        assert_eq!(
            decoded_rgba(&bytes),
            super::super::raster::straight_rgba(&pixmap)
        );
    }

    /// The rows are filtered and compressed here, not by png: whatever the size,
    /// indexed, RGB or RGBA, png's decoder reads back every pixel, the colour type is
    /// the one the pixels call for, the bytes are the same on every run, and the file
    /// is no larger than png's own `write_image_data` makes of the same image.
    #[test]
    fn images_decode_back_with_png_and_are_no_larger_than_its_own() {
        let sizes = [(1, 1), (40, 30), (333, 257), (800, 900), (3, 20000)];
        for (k, &(width, height)) in sizes.iter().enumerate() {
            for colours in [16u32, 4096] {
                for alpha in [255u8, 128] {
                    let case = format!("{width} x {height}, {colours}, alpha {alpha}");
                    let pixmap = pixmap_of(width, height, |x, y| {
                        let v = (x * 7 + y * 13 + (x * y) % (5 + k as u32)) % colours;
                        let a = if (x + y) % 3 == 0 { alpha } else { 255 };
                        [
                            (v % 256) as u8 / 20 * 20,
                            (v / 16) as u8,
                            (y % 3) as u8 * 90,
                            a,
                        ]
                    });
                    let ours = written(&pixmap);
                    assert!(ours == written(&pixmap), "deterministic: {case}");
                    let rgba = crate::library::encode::raster::straight_rgba(&pixmap);
                    let opaque = rgba.chunks_exact(4).all(|p| p[3] == 255);
                    let palette = Palette::of(&rgba);
                    let want_colour = match (&palette, opaque) {
                        (Some(_), _) => png::ColorType::Indexed,
                        (None, true) => png::ColorType::Rgb,
                        (None, false) => png::ColorType::Rgba,
                    };
                    let mut reader = png::Decoder::new(std::io::Cursor::new(&ours))
                        .read_info()
                        .unwrap();
                    assert_eq!(reader.info().color_type, want_colour, "{case}");
                    let mut raw = vec![0; reader.output_buffer_size().unwrap()];
                    let frame = reader.next_frame(&mut raw).unwrap();
                    assert_eq!((frame.width, frame.height), (width, height), "{case}");
                    assert!(decoded_rgba(&ours) == rgba, "pixels: {case}");

                    let mut theirs = Vec::new();
                    let mut encoder = png::Encoder::new(&mut theirs, width, height);
                    encoder.set_depth(png::BitDepth::Eight);
                    encoder.set_compression(png::Compression::Balanced);
                    let data = if let Some(indexed) = palette {
                        encoder.set_color(png::ColorType::Indexed);
                        encoder.set_palette(indexed.rgb());
                        if !opaque {
                            encoder.set_trns(indexed.alpha());
                        }
                        encoder.set_filter(png::Filter::NoFilter);
                        indexed.indices
                    } else if opaque {
                        encoder.set_color(png::ColorType::Rgb);
                        rgba.chunks_exact(4)
                            .flat_map(|p| [p[0], p[1], p[2]])
                            .collect()
                    } else {
                        encoder.set_color(png::ColorType::Rgba);
                        rgba
                    };
                    let mut writer = encoder.write_header().unwrap();
                    writer.write_image_data(&data).unwrap();
                    writer.finish().unwrap();
                    assert!(
                        ours.len() <= theirs.len(),
                        "{case}: {} bytes vs png's {}",
                        ours.len(),
                        theirs.len()
                    );
                }
            }
        }
    }

    #[test]
    fn transparent_pixels_keep_their_alpha_through_the_palette() {
        let pixmap = pixmap_of(16, 16, |x, y| {
            [255, 0, 0, if (x + y) % 2 == 0 { 255 } else { 0 }]
        });
        let bytes = written(&pixmap);
        assert_eq!(bytes[25], 3);
        assert_eq!(
            decoded_rgba(&bytes),
            super::super::raster::straight_rgba(&pixmap)
        );
    }

    #[test]
    fn more_than_256_colours_fall_back_to_full_colour() {
        let pixmap = pixmap_of(257, 2, |x, y| [x as u8, (x >> 8) as u8, y as u8, 255]);
        let bytes = written(&pixmap);
        assert_eq!(bytes[25], 2, "colour type 2 (RGB) in IHDR");
        assert_eq!(
            decoded_rgba(&bytes),
            super::super::raster::straight_rgba(&pixmap)
        );
    }
}
