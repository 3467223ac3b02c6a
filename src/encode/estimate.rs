//! Estimates of the memory a picture takes while it is written, measured per
//! run of equal cells, per path command and per pixel: what the memory guard
//! checks before any drawing.

use super::format::Format;

/// Bytes per run of equal cells along a row of a cell layer while writing SVG (the
/// merged rectangles and the path text, both whole in memory) and PDF (the merged
/// rectangles, the content stream and its compressed copy). Runs, not cells: a board
/// of large blocks is a few rectangles whatever its size. Measured on P-position
/// boards of 2047 and 4095 (44-47 bytes a run for SVG; PDF 52-54 when it went through
/// an SVG and a converter's tree, a little under SVG's since it is written straight
/// from the scene, so the PDF rate errs high): docs/reliability.md.
const SVG_BYTES_PER_RUN: u64 = 48;
const PDF_BYTES_PER_RUN: u64 = 56;
/// The bytes `runs` runs of equal cells cost while writing `format` (SVG's rate
/// for TikZ; nothing for a raster, which costs by pixels): for a figure that
/// knows its runs before its scene exists (a board, from its signatures).
pub fn run_bytes(format: Format, runs: u64) -> u64 {
    match format {
        Format::Pdf => runs.saturating_mul(PDF_BYTES_PER_RUN),
        Format::Svg | Format::Tikz => runs.saturating_mul(SVG_BYTES_PER_RUN),
        _ => 0,
    }
}

/// Bytes per path command in memory while writing SVG / PDF (the command and its
/// text; the PDF rate was set for a converter's tree of it and errs high now that
/// the PDF is written straight from the scene).
const SVG_BYTES_PER_COMMAND: u64 = 64;
const PDF_BYTES_PER_COMMAND: u64 = 400;
/// Bytes per pixel of a PNG: tiny-skia's premultiplied canvas (4), its straight-alpha
/// copy (4) and the RGB rows handed to the encoder (3).
const PNG_BYTES_PER_PIXEL: u64 = 11;

/// The peak memory of writing `scene` as `format`, the scene's own cells included,
/// in one pass over its items: the memory guard's estimate for every figure drawn
/// through a scene.
pub fn scene_peak_bytes(scene: &crate::library::scene::Scene, format: Format) -> u64 {
    use crate::library::scene::Item;
    let (mut cells, mut runs, mut commands) = (0u64, 0u64, 0u64);
    for item in &scene.items {
        match item {
            Item::Cells(layer) => {
                cells = cells.saturating_add(layer.indices.len() as u64);
                if format != Format::Png {
                    runs = runs.saturating_add(row_runs(layer));
                }
            }
            Item::Path(path) => commands = commands.saturating_add(path.commands.len() as u64),
            // Text outlines: a few hundred commands per line of text.
            Item::Text(text) => {
                commands = commands.saturating_add(40 * text.text.chars().count() as u64)
            }
        }
    }
    // The raster's size, which at a physical size and --dpi is not the scene's in points.
    let (width, height) = scene.pixel_size();
    let pixels = u64::from(width) * u64::from(height);
    match format {
        Format::Png => pixels
            .saturating_mul(PNG_BYTES_PER_PIXEL)
            .saturating_add(cells),
        Format::Pdf => runs
            .saturating_mul(PDF_BYTES_PER_RUN)
            .saturating_add(commands.saturating_mul(PDF_BYTES_PER_COMMAND))
            .saturating_add(cells),
        _ => runs
            .saturating_mul(SVG_BYTES_PER_RUN)
            .saturating_add(commands.saturating_mul(SVG_BYTES_PER_COMMAND))
            .saturating_add(cells),
    }
}

/// Runs of equal cells along the rows of a layer: at least the number of
/// rectangles `svg::merged_rectangles` makes of it, and a linear scan.
fn row_runs(layer: &crate::library::scene::CellLayer) -> u64 {
    if layer.cols == 0 {
        return 0;
    }
    layer
        .indices
        .chunks(layer.cols)
        .map(|row| 1 + row.windows(2).filter(|pair| pair[0] != pair[1]).count() as u64)
        .sum()
}
