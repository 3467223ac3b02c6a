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

/// Writes a rasterised scene: RGB when every pixel is opaque, RGBA otherwise.
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
    if let Some(dpi) = dpi {
        let per_metre = (dpi / crate::scene::units::MM_PER_IN * 1000.0).round() as u32;
        encoder.set_pixel_dims(Some(png::PixelDimensions {
            xppu: per_metre,
            yppu: per_metre,
            unit: png::Unit::Meter,
        }));
    }
    encoder.set_depth(png::BitDepth::Eight);
    let data: Vec<u8> = if opaque {
        encoder.set_color(png::ColorType::Rgb);
        rgba.chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect()
    } else {
        encoder.set_color(png::ColorType::Rgba);
        rgba
    };
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header().map_err(encode_error(path))?;
    writer.write_image_data(&data).map_err(encode_error(path))?;
    writer.finish().map_err(encode_error(path))
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
