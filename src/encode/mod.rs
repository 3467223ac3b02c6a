//! Encoders: scenes and models to bytes on disk.
//!
//! Every file is written atomically: into a temporary file beside the target,
//! then renamed over it, so a failed or interrupted run never leaves half a
//! figure. Output is deterministic: the same scene gives the same bytes,
//! whatever the thread count.

pub mod animation;
pub mod gif;
pub mod pdf;
pub mod png;
pub mod raster;
pub mod svg;

use crate::{Error, Result};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The file formats nimscape writes, chosen by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Raster image.
    Png,
    /// Vector image.
    Svg,
    /// Vector PDF (the SVG converted, for pdflatex), wherever SVG is written.
    Pdf,
    /// Animated GIF.
    Gif,
    /// Comma-separated data with a header line.
    Csv,
    /// JSON data.
    Json,
}

impl Format {
    /// Every format nimscape writes.
    pub const ALL: [Format; 6] = [
        Format::Png,
        Format::Svg,
        Format::Pdf,
        Format::Gif,
        Format::Csv,
        Format::Json,
    ];

    /// The lower-case extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Svg => "svg",
            Format::Pdf => "pdf",
            Format::Gif => "gif",
            Format::Csv => "csv",
            Format::Json => "json",
        }
    }

    /// True for the still-image formats (PNG, SVG, PDF).
    pub fn is_image(self) -> bool {
        matches!(self, Format::Png | Format::Svg | Format::Pdf)
    }

    /// The format of `path` by its extension, if it is one of `allowed`. Every figure
    /// that can be SVG can also be PDF.
    pub fn of_path(path: &Path, allowed: &[Format]) -> Result<Format> {
        let mut allowed = allowed.to_vec();
        if allowed.contains(&Format::Svg) && !allowed.contains(&Format::Pdf) {
            allowed.insert(
                allowed.iter().position(|&f| f == Format::Svg).unwrap_or(0) + 1,
                Format::Pdf,
            );
        }
        let allowed = &allowed[..];
        let list = allowed
            .iter()
            .map(|f| format!(".{}", f.extension()))
            .collect::<Vec<_>>()
            .join(", ");
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let Some(ext) = ext else {
            return Err(Error::invalid(format!(
                "output '{}' has no extension; name it with one of {list}",
                path.display()
            )));
        };
        allowed
            .iter()
            .copied()
            .find(|f| f.extension() == ext)
            .ok_or_else(|| {
                Error::invalid(format!(
                    "output '{}': unknown extension '.{ext}' here; use one of {list}",
                    path.display()
                ))
            })
    }
}

/// Key–value text stored in image files (PNG `tEXt`, SVG `<metadata>`) so any figure
/// can be redrawn: the tool, its version and the parameters that made it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    /// Pairs in the order written.
    pub entries: Vec<(String, String)>,
}

impl Metadata {
    /// Metadata naming nimscape and its version, plus a `Parameters` entry.
    pub fn with_parameters(parameters: impl Into<String>) -> Self {
        Metadata {
            entries: vec![
                (
                    "Software".into(),
                    format!("nimscape {}", env!("CARGO_PKG_VERSION")),
                ),
                ("Parameters".into(), parameters.into()),
            ],
        }
    }
}

/// Checks that `path`'s folder exists and is a folder, before any work is done.
pub fn check_output_path(path: &Path) -> Result<()> {
    let dir = parent_dir(path);
    if !dir.is_dir() {
        return Err(Error::invalid(format!(
            "output folder '{}' does not exist; create it first or choose another -o",
            dir.display()
        )));
    }
    if path.is_dir() {
        return Err(Error::invalid(format!(
            "output '{}' is a folder; give a file name",
            path.display()
        )));
    }
    Ok(())
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes a file atomically: `write` fills a buffered temporary file in the same folder,
/// which replaces `path` only if everything succeeded.
pub fn write_atomic(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    check_output_path(path)?;
    let dir = parent_dir(path);
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".nimscape-").suffix(".part");
    // A figure is an ordinary file: readable by others, like anything `cp` would make.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    let temp = builder.tempfile_in(&dir).map_err(io)?;
    let mut writer = BufWriter::with_capacity(1 << 20, temp);
    write(&mut writer)?;
    let temp = writer.into_inner().map_err(|e| io(e.into_error()))?;
    temp.as_file().sync_data().map_err(io)?;
    temp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Maps an I/O error while writing `path` to a library error.
pub fn io_error(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes rows of comma-separated values with a header line.
pub fn write_csv<R: AsRef<[String]>>(
    out: &mut dyn Write,
    header: &[&str],
    rows: impl IntoIterator<Item = R>,
) -> std::io::Result<()> {
    writeln!(out, "{}", header.join(","))?;
    for row in rows {
        writeln!(out, "{}", row.as_ref().join(","))?;
    }
    Ok(())
}

/// Writes a scene in the format its path names (PNG, SVG or PDF), atomically.
pub fn write_scene(
    path: &Path,
    scene: &crate::scene::Scene,
    metadata: &Metadata,
    memory_limit: u64,
) -> Result<()> {
    let format = Format::of_path(path, &[Format::Png, Format::Svg])?;
    write_atomic(path, |out| {
        write_scene_to(out, format, scene, metadata, memory_limit).map_err(|e| e.at(path))
    })
}

/// Writes a scene as PNG, SVG or PDF to any writer.
pub fn write_scene_to(
    out: &mut dyn Write,
    format: Format,
    scene: &crate::scene::Scene,
    metadata: &Metadata,
    memory_limit: u64,
) -> Result<()> {
    match format {
        Format::Pdf => {
            let pdf = pdf::scene_to_pdf(scene, metadata, Path::new(""))?;
            out.write_all(&pdf).map_err(Error::write_failed)
        }
        Format::Png => {
            crate::error::check_memory(
                || {
                    let (width, height) = scene.pixel_size();
                    format!("a {width} x {height} px image")
                },
                scene.raster_bytes(),
                memory_limit,
                "draw it smaller (a smaller cell or panel size) or as .svg",
            )?;
            let pixels = raster::rasterize(scene)?;
            let dpi = scene.paper.map(|paper| paper.dpi);
            png::write_rgb_at(
                out,
                Path::new(""),
                (pixels.width(), pixels.height()),
                &pixels,
                metadata,
                dpi,
            )
        }
        Format::Svg => svg::write_svg(out, scene, metadata).map_err(Error::write_failed),
        other => Err(Error::unsupported(format!(
            "a picture cannot be written as .{}",
            other.extension()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_by_extension_names_the_choices() {
        assert_eq!(
            Format::of_path(Path::new("a/b.PNG"), &[Format::Png]).unwrap(),
            Format::Png
        );
        let err = Format::of_path(Path::new("x.bmp"), &[Format::Png, Format::Svg])
            .unwrap_err()
            .to_string();
        assert!(err.contains(".bmp") && err.contains(".png, .svg"), "{err}");
    }

    #[test]
    fn atomic_write_leaves_nothing_when_the_writer_fails() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        let result = write_atomic(&path, |out| {
            out.write_all(b"half").unwrap();
            Err(Error::invalid("stop"))
        });
        assert!(result.is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        write_atomic(&path, |out| {
            out.write_all(b"whole").map_err(io_error(&path))
        })
        .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"whole");
    }

    #[test]
    fn missing_folder_is_refused_up_front() {
        let err = check_output_path(Path::new("/no/such/folder/x.png"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not exist"), "{err}");
    }
}
