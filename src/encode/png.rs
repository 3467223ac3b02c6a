//! PNG: full-colour figures, and 1-bit bilevel boards streamed in row bands.
//!
//! Bilevel boards are computed band by band in parallel while the previous
//! band is being compressed, so a 65536 x 65536 board needs a few MiB, not
//! gigabytes, and never sits in memory whole.

use super::Metadata;
use crate::{BitGrid, Error, Result};
use rayon::prelude::*;
use std::io::Write;
use std::path::Path;

fn encode_error(path: &Path) -> impl Fn(png::EncodingError) -> Error + '_ {
    move |err| match err {
        png::EncodingError::IoError(source) => Error::Io {
            path: path.to_path_buf(),
            source,
        },
        other => Error::Encode {
            path: path.to_path_buf(),
            message: other.to_string(),
        },
    }
}

fn encoder<'w>(
    out: &'w mut dyn Write,
    path: &Path,
    width: u32,
    height: u32,
    metadata: &Metadata,
) -> Result<png::Encoder<'w, &'w mut dyn Write>> {
    let mut encoder = png::Encoder::new(out, width, height);
    for (key, value) in &metadata.entries {
        encoder
            .add_text_chunk(key.clone(), value.clone())
            .map_err(encode_error(path))?;
    }
    Ok(encoder)
}

/// Writes a rasterised scene: indexed when it has at most 256 colours, else RGB when
/// every pixel is opaque, RGBA otherwise.
pub fn write_rgb(
    out: &mut dyn Write,
    path: &Path,
    width: u32,
    height: u32,
    pixmap: &tiny_skia::Pixmap,
    metadata: &Metadata,
) -> Result<()> {
    write_rgb_at(out, path, (width, height), pixmap, metadata, None)
}

/// [`write_rgb`] with the resolution stored in a pHYs chunk (pixels per metre), so
/// a page-layout program places the image at its physical size.
pub fn write_rgb_at(
    out: &mut dyn Write,
    path: &Path,
    (width, height): (u32, u32),
    pixmap: &tiny_skia::Pixmap,
    metadata: &Metadata,
    dpi: Option<f64>,
) -> Result<()> {
    let rgba = super::raster::straight_rgba(pixmap);
    let opaque = rgba.chunks_exact(4).all(|p| p[3] == 255);
    let mut encoder = encoder(out, path, width, height, metadata)?;
    set_dpi(&mut encoder, dpi);
    encoder.set_depth(png::BitDepth::Eight);
    // zlib's default level: on these figures as small as its best level (smaller, with
    // adaptive filters) in well under half the time.
    encoder.set_compression(png::Compression::Balanced);
    // Figures are drawn in a few flat colours and their antialiased blends, so most
    // fit a 256-colour palette: a third of the bytes to compress, and smaller files.
    // The decoded pixels are the same either way.
    let data: Vec<u8> = if let Some(indexed) = Palette::of(&rgba) {
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_palette(indexed.rgb());
        if !opaque {
            encoder.set_trns(indexed.alpha());
        }
        // Palette indices are names, not intensities: differencing them only adds noise.
        encoder.set_filter(png::Filter::NoFilter);
        let zlib =
            unfiltered_zlib(&indexed.indices, width as usize).map_err(|source| Error::Io {
                path: path.to_path_buf(),
                source,
            })?;
        let mut writer = encoder.write_header().map_err(encode_error(path))?;
        for chunk in zlib.chunks(MAX_IDAT_LEN) {
            writer
                .write_chunk(png::chunk::IDAT, chunk)
                .map_err(encode_error(path))?;
        }
        return writer.finish().map_err(encode_error(path));
    } else if opaque {
        encoder.set_color(png::ColorType::Rgb);
        rgba.chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect()
    } else {
        encoder.set_color(png::ColorType::Rgba);
        rgba
    };
    let mut writer = encoder.write_header().map_err(encode_error(path))?;
    writer.write_image_data(&data).map_err(encode_error(path))?;
    writer.finish().map_err(encode_error(path))
}

/// The longest IDAT chunk png writes (2^31 - 1 bytes).
const MAX_IDAT_LEN: usize = (u32::MAX >> 1) as usize;

/// The zlib stream of unfiltered rows (each led by filter byte 0) exactly as png's
/// encoder makes it at `Compression::Balanced` (flate2's default level, miniz
/// backend), but fed in one write: png feeds flate2 row by row, and on every call
/// flate2's miniz backend zero-fills its 32 KiB output buffer, which cost more than
/// compressing these images. A deflate stream does not depend on how its input was
/// split (`indexed_images_are_the_bytes_png_itself_writes` checks it).
fn unfiltered_zlib(indices: &[u8], width: usize) -> std::io::Result<Vec<u8>> {
    let width = width.max(1);
    let mut raw = Vec::with_capacity(indices.len() + indices.len() / width);
    for row in indices.chunks(width) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let mut zlib = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(raw.len() / 4 + 64),
        flate2::Compression::default(),
    );
    zlib.write_all(&raw)?;
    zlib.finish()
}

/// Stores `dpi` in a pHYs chunk (pixels per metre), so a page-layout program
/// places the image at its physical size; nothing without one.
pub fn set_dpi(encoder: &mut png::Encoder<'_, &mut dyn Write>, dpi: Option<f64>) {
    if let Some(dpi) = dpi {
        let per_metre = (dpi / crate::scene::units::MM_PER_IN * 1000.0).round() as u32;
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
        let mut lookup: rustc_hash::FxHashMap<[u8; 4], u8> = Default::default();
        let mut indices = Vec::with_capacity(rgba.len() / 4);
        let mut last: Option<([u8; 4], u8)> = None;
        for pixel in rgba.chunks_exact(4) {
            let color = [pixel[0], pixel[1], pixel[2], pixel[3]];
            // Runs of one colour are the common case: skip the map for them.
            let index = match last {
                Some((previous, index)) if previous == color => index,
                _ => match lookup.get(&color) {
                    Some(&index) => index,
                    None => {
                        let index = u8::try_from(colors.len()).ok()?;
                        colors.push(color);
                        lookup.insert(color, index);
                        index
                    }
                },
            };
            last = Some((color, index));
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
    /// Fastest (the default: huge boards stay quick, files are still small).
    #[default]
    Fast,
    /// zlib's usual balance of size and speed.
    Balanced,
    /// Smallest files, slowest.
    Best,
}

/// Rows per band: enough work to share among threads, little enough memory.
const BAND_ROWS: usize = 1024;

/// Writes a 1-bit grayscale PNG (0 = black, 1 = white). `fill_row(row, bytes)` writes one
/// row of packed pixels, most significant bit first; rows are filled in parallel and
/// compressed in order, so the bytes never depend on the thread count.
pub fn write_bilevel(
    out: &mut dyn Write,
    path: &Path,
    width: u32,
    height: u32,
    compression: Compression,
    metadata: &Metadata,
    fill_row: impl Fn(usize, &mut [u8]) + Sync,
) -> Result<()> {
    let mut encoder = encoder(out, path, width, height, metadata)?;
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
    let mut writer = encoder.write_header().map_err(encode_error(path))?;
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
            .map_err(encode_error(path))?;
        let (mut current, mut next) = (Vec::new(), Vec::new());
        if height > 0 {
            band_of(0, &mut current);
        }
        let mut start = 0;
        while start < height {
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
                path: path.to_path_buf(),
                source,
            })?;
            std::mem::swap(&mut current, &mut next);
            start = next_start;
        }
        stream.finish().map_err(encode_error(path))?;
    }
    Ok(())
}

/// Writes `grid` as a 1-bit PNG, one pixel per cell: true cells black, the
/// others white (see [`write_bilevel`]).
pub fn write_bilevel_grid(
    out: &mut dyn Write,
    path: &Path,
    grid: &BitGrid,
    compression: Compression,
    metadata: &Metadata,
) -> Result<()> {
    write_bilevel(
        out,
        path,
        grid.cols() as u32,
        grid.rows() as u32,
        compression,
        metadata,
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
        write_rgb_at(
            &mut out,
            Path::new("t.png"),
            size,
            pixmap,
            &Metadata::default(),
            None,
        )
        .unwrap();
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

    /// The indexed path writes its IDAT itself: the bytes are those png's own
    /// `write_image_data` writes for the same image, whatever the size.
    #[test]
    fn indexed_images_are_the_bytes_png_itself_writes() {
        let sizes = [(1, 1), (40, 30), (333, 257), (800, 900), (3, 20000)];
        for (k, &(width, height)) in sizes.iter().enumerate() {
            let pixmap = pixmap_of(width, height, |x, y| {
                let v = ((x * 7 + y * 13 + (x * y) % (5 + k as u32)) % 200) as u8;
                [
                    v / 20 * 20,
                    (y % 3) as u8 * 90,
                    200,
                    if k == 2 { 128 } else { 255 },
                ]
            });
            let ours = written(&pixmap);
            let rgba = crate::encode::raster::straight_rgba(&pixmap);
            let indexed = Palette::of(&rgba).expect("at most 256 colours");
            let mut theirs = Vec::new();
            let mut encoder = png::Encoder::new(&mut theirs, width, height);
            encoder.set_depth(png::BitDepth::Eight);
            encoder.set_compression(png::Compression::Balanced);
            encoder.set_color(png::ColorType::Indexed);
            encoder.set_palette(indexed.rgb());
            if rgba.chunks_exact(4).any(|p| p[3] != 255) {
                encoder.set_trns(indexed.alpha());
            }
            encoder.set_filter(png::Filter::NoFilter);
            let mut writer = encoder.write_header().unwrap();
            writer.write_image_data(&indexed.indices).unwrap();
            writer.finish().unwrap();
            assert!(ours == theirs, "{width} x {height}");
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
