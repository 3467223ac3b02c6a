//! Encoders: scenes and models to bytes on disk.
//!
//! Every file is written atomically: into a temporary file beside the target,
//! then renamed over it, so a failed or interrupted run never leaves half a
//! figure. Output is deterministic: the same scene gives the same bytes,
//! whatever the thread count.

pub mod animation;
pub mod gif;
pub mod latex;
pub mod lzw;
pub mod metadata;
pub mod npy;
pub mod pdf;
pub mod png;
pub mod raster;
pub mod svg;
pub mod tikz;

pub use metadata::Metadata;

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
    /// Vector PDF (for pdflatex, written from the same scene), wherever SVG is written.
    Pdf,
    /// Animated GIF.
    Gif,
    /// Animated PNG: full colour, played by browsers and slide software.
    Apng,
    /// Comma-separated data with a header line.
    Csv,
    /// JSON data.
    Json,
    /// A NumPy array (`numpy.load` reads it as is).
    Npy,
    /// A LaTeX table (`tabular`, coloured with `colortbl`) to `\input`.
    Tex,
    /// A TikZ picture to `\input` (`.tikz` or `.pgf`), its text set by LaTeX,
    /// wherever SVG is written.
    Tikz,
}

impl Format {
    /// Every format nimscape writes.
    pub const ALL: [Format; 10] = [
        Format::Png,
        Format::Svg,
        Format::Pdf,
        Format::Gif,
        Format::Apng,
        Format::Csv,
        Format::Json,
        Format::Npy,
        Format::Tex,
        Format::Tikz,
    ];

    /// The lower-case extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Svg => "svg",
            Format::Pdf => "pdf",
            Format::Gif => "gif",
            Format::Apng => "apng",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Npy => "npy",
            Format::Tex => "tex",
            Format::Tikz => "tikz",
        }
    }

    /// True for the animations (GIF, APNG).
    pub fn is_animation(self) -> bool {
        matches!(self, Format::Gif | Format::Apng)
    }

    /// True for the still-image formats (PNG, SVG, PDF, TikZ).
    pub fn is_image(self) -> bool {
        matches!(self, Format::Png | Format::Svg | Format::Pdf | Format::Tikz)
    }

    /// `formats` with PDF and TikZ after SVG where they are missing: every figure
    /// that can be SVG can also be PDF and TikZ (written from the same scene).
    pub fn with_vectors(formats: &[Format]) -> Vec<Format> {
        let mut all = formats.to_vec();
        for vector in [Format::Tikz, Format::Pdf] {
            if all.contains(&Format::Svg) && !all.contains(&vector) {
                all.insert(
                    all.iter().position(|&f| f == Format::Svg).unwrap_or(0) + 1,
                    vector,
                );
            }
        }
        all
    }

    /// The format of `path` by its extension, if it is one of `allowed` (with
    /// [`Format::with_vectors`]); `.pgf` is another name for `.tikz`.
    pub fn of_path(path: &Path, allowed: &[Format]) -> Result<Format> {
        let allowed = &Format::with_vectors(allowed)[..];
        let list = allowed
            .iter()
            .map(|f| match f {
                Format::Tikz => ".tikz, .pgf".to_string(),
                f => format!(".{}", f.extension()),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let Some(ext) = ext else {
            return Err(Error::invalid_request(format!(
                "output '{}' has no extension; name it with one of {list}",
                path.display()
            )));
        };
        allowed
            .iter()
            .copied()
            .find(|f| f.extension() == ext || (*f == Format::Tikz && ext == "pgf"))
            .ok_or_else(|| {
                if matches!(ext.as_str(), "tikz" | "pgf") && !allowed.iter().any(|f| f.is_image())
                {
                    return Error::invalid_request(format!(
                        "output '{}': a TikZ picture is one still figure and this one is an animation; use one of {list}",
                        path.display()
                    ));
                }
                Error::invalid_request(format!(
                    "output '{}': unknown extension '.{ext}' here; use one of {list}",
                    path.display()
                ))
            })
    }
}

/// Checks that `path`'s folder exists and is a folder, before any work is done.
pub fn check_output_path(path: &Path) -> Result<()> {
    output_target(path).map(|_| ())
}

/// The file a write to `path` replaces: `path` itself, or where its symbolic links
/// lead (a figure written through a link lands in the link's target, and the link
/// stays). Refuses a folder, a missing folder, and anything that is not a regular
/// file (a FIFO, a device, a socket): an atomic write would replace it.
pub fn output_target(path: &Path) -> Result<PathBuf> {
    const MAX_LINKS: usize = 40;
    let mut target = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let metadata = match std::fs::symlink_metadata(&target) {
            Ok(metadata) => metadata,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let dir = parent_dir(&target);
                if !dir.is_dir() {
                    return Err(Error::invalid_request(format!(
                        "output folder '{}' does not exist; create it first or choose another -o",
                        dir.display()
                    )));
                }
                check_writable_folder(&dir)?;
                return Ok(target);
            }
            Err(source) => {
                return Err(Error::Io {
                    path: target,
                    source,
                })
            }
        };
        let kind = metadata.file_type();
        if kind.is_symlink() {
            let link = std::fs::read_link(&target).map_err(|source| Error::Io {
                path: target.clone(),
                source,
            })?;
            target = parent_dir(&target).join(link);
            continue;
        }
        if kind.is_dir() {
            return Err(Error::invalid_request(format!(
                "output '{}' is a folder; give a file name",
                path.display()
            )));
        }
        if !kind.is_file() {
            return Err(Error::invalid_request(format!(
                "output '{}' is not a regular file (a FIFO, device or socket); nimscape \
                 replaces files atomically, so write to a stream with -o - instead",
                path.display()
            )));
        }
        check_writable_folder(&parent_dir(&target))?;
        return Ok(target);
    }
    Err(Error::invalid_request(format!(
        "output '{}' goes through more than {MAX_LINKS} symbolic links",
        path.display()
    )))
}

/// Refuses a folder this process cannot create files in (read-only, or another
/// user's), before any work: the temporary file is only made when the first
/// bytes are ready, which for a large figure is long after the start.
fn check_writable_folder(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use rustix::fs::{access, Access};
        if let Err(errno) = access(dir, Access::WRITE_OK | Access::EXEC_OK) {
            let why = match errno {
                rustix::io::Errno::ROFS => "is on a read-only file system".to_string(),
                rustix::io::Errno::ACCESS | rustix::io::Errno::PERM => {
                    "is not writable (permission denied)".to_string()
                }
                other => format!("cannot be written into ({})", std::io::Error::from(other)),
            };
            return Err(Error::invalid_request(format!(
                "output folder '{}' {why}; choose another -o",
                dir.display()
            )));
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
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
///
/// The temporary file (`.nimscape-XXXXXX.part`) is created only when the first bytes
/// are ready, so a failure while computing leaves nothing behind, and it is removed
/// whenever `write` fails (a cancelled run included). Writing more than
/// `output_limit` (`--max-output`) or the free space of the target's filesystem
/// stops with an error instead of filling the disk.
pub fn write_atomic(
    path: &Path,
    output_limit: u64,
    write: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    let target = output_target(path)?;
    let path = target.as_path();
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let budget = output_budget(path, output_limit);
    let mut writer = BufWriter::with_capacity(
        1 << 20,
        LazyTemp {
            dir: parent_dir(path),
            file: None,
            written: 0,
            budget,
        },
    );
    write(&mut writer)?;
    let lazy = writer.into_inner().map_err(|e| io(e.into_error()))?;
    let temp = match lazy.file {
        Some(open) => open,
        // Nothing was written: still an (empty) file, made the same way.
        None => LazyTemp::create(&lazy.dir).map_err(io)?,
    };
    temp.as_file().sync_data().map_err(io)?;
    temp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// The temporary file of [`write_atomic`], created on the first write.
struct LazyTemp {
    dir: PathBuf,
    file: Option<tempfile::NamedTempFile>,
    written: u64,
    budget: OutputBudget,
}

impl LazyTemp {
    fn create(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(".nimscape-").suffix(".part");
        // A figure is an ordinary file: readable by others, like anything `cp` would make.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
        builder.tempfile_in(dir)
    }
}

impl Write for LazyTemp {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.budget
            .charge(&mut self.written, buf.len(), " before filling the disk")?;
        if self.file.is_none() {
            self.file = Some(Self::create(&self.dir)?);
        }
        match &mut self.file {
            Some(file) => file.write(buf),
            None => unreachable!("created above"),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

/// How much one output may take, and why.
#[derive(Debug, Clone, Copy)]
pub struct OutputBudget {
    bytes: u64,
    why: &'static str,
    from_flag: bool,
}

impl OutputBudget {
    /// The `--max-output` limit alone: a stream has no filesystem to measure.
    pub fn of_limit(bytes: u64) -> Self {
        OutputBudget {
            bytes,
            why: "the `max-output` limit",
            from_flag: true,
        }
    }

    /// Counts `len` more bytes into `written`; an error once they pass the budget,
    /// saying it stopped (`stopped_how`, e.g. " before filling the disk").
    pub fn charge(&self, written: &mut u64, len: usize, stopped_how: &str) -> std::io::Result<()> {
        *written = written.saturating_add(len as u64);
        if *written > self.bytes {
            return Err(std::io::Error::other(format!(
                "the output grew past {} ({}); stopped{stopped_how}{}",
                crate::error::human_bytes(self.bytes),
                self.why,
                if self.from_flag {
                    "; raise `max-output` if you mean it"
                } else {
                    ""
                }
            )));
        }
        Ok(())
    }
}

/// The default output limit: 4 GiB (`--max-output` raises it).
pub const DEFAULT_OUTPUT_LIMIT: u64 = 4 << 30;

/// Free bytes on the filesystem that holds `path`'s folder (None where unknown).
pub fn free_space(path: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        let stat = rustix::fs::statvfs(parent_dir(path)).ok()?;
        Some(stat.f_bavail.saturating_mul(stat.f_frsize))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

fn output_budget(path: &Path, limit: u64) -> OutputBudget {
    match free_space(path) {
        Some(free) if free < limit => OutputBudget {
            bytes: free,
            why: "the free space on its filesystem",
            from_flag: false,
        },
        _ => OutputBudget {
            bytes: limit,
            why: "the `max-output` limit",
            from_flag: true,
        },
    }
}

/// Refuses, before any work, an output whose estimated size exceeds `--max-output`
/// or the free space of the target's filesystem. `what` describes the output and
/// `hint` says how to make it smaller.
pub fn check_output_size(
    path: &Path,
    output_limit: u64,
    estimate: u64,
    what: &str,
    hint: &str,
) -> Result<()> {
    let budget = output_budget(path, output_limit);
    if estimate > budget.bytes {
        return Err(Error::unsupported(format!(
            "{what} would be {} on disk, over {} ({}); {hint}{}",
            crate::error::about_bytes(estimate),
            crate::error::human_bytes(budget.bytes),
            budget.why,
            if budget.from_flag {
                ", or raise `max-output`"
            } else {
                ""
            }
        )));
    }
    Ok(())
}

/// Maps an I/O error while writing `path` to a library error.
#[cfg(test)]
fn io_error(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
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
        let result = write_atomic(&path, DEFAULT_OUTPUT_LIMIT, |out| {
            out.write_all(b"half").unwrap();
            Err(Error::invalid_request("stop"))
        });
        assert!(result.is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        write_atomic(&path, DEFAULT_OUTPUT_LIMIT, |out| {
            out.write_all(b"whole").map_err(io_error(&path))
        })
        .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"whole");
    }

    #[test]
    fn nothing_is_created_before_the_first_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        let result = write_atomic(&path, DEFAULT_OUTPUT_LIMIT, |_out| {
            // While computing, before writing: no temporary file exists yet.
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
            Err(Error::invalid_request("failed while computing"))
        });
        assert!(result.is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        write_atomic(&path, DEFAULT_OUTPUT_LIMIT, |_out| Ok(())).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"");
    }

    #[test]
    fn missing_folder_is_refused_up_front() {
        let err = check_output_path(Path::new("/no/such/folder/x.png"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not exist"), "{err}");
    }
}
