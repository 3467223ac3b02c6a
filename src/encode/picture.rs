//! A scene to any writer, as PNG, SVG, PDF or TikZ, after the memory guard.

use super::estimate::scene_peak_bytes;
use super::format::Format;
use super::metadata::Metadata;
use super::{pdf, png, raster, svg, tikz};
use crate::{Error, Result};
use std::io::Write;

/// Writes a scene as PNG, SVG, PDF or TikZ to any writer, stopping with
/// [`Error::Cancelled`] once `control` is cancelled: rasterising a print-size 3D
/// view is long enough to need it.
pub fn write_scene_to(
    out: &mut dyn Write,
    format: Format,
    scene: &crate::library::scene::Scene,
    metadata: &Metadata,
    memory_limit: u64,
    control: &crate::Control,
) -> Result<()> {
    crate::error::check_memory(
        || {
            format!(
                "a {} x {} px figure as .{}",
                scene.width,
                scene.height,
                format.extension()
            )
        },
        scene_peak_bytes(scene, format),
        memory_limit,
        "draw it smaller (a smaller cell or panel size)",
    )?;
    match format {
        Format::Pdf => {
            let pdf = pdf::scene_to_pdf(scene, metadata)?;
            out.write_all(&pdf).map_err(Error::write_failed)
        }
        Format::Png => {
            let pixels = raster::rasterize(scene, control)?;
            let dpi = scene.paper.map(|paper| paper.dpi);
            png::write_rgb_at(
                out,
                (pixels.width(), pixels.height()),
                &pixels,
                metadata,
                dpi,
            )
        }
        Format::Svg => svg::write_svg(out, scene, metadata).map_err(Error::write_failed),
        Format::Tikz => tikz::write_tikz(out, scene, metadata),
        other => Err(Error::unsupported(format!(
            "a picture cannot be written as .{}",
            other.extension()
        ))),
    }
}
