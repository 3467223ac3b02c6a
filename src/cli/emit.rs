//! Emitting a figure where the user asked, the same for every subcommand:
//! `-o FILE` (missing folders are made), `-o -` (stdout), or
//! `output/<name>.<ext>` without `-o`; every write is announced on stderr unless
//! `--quiet`.

use super::progress::Watch;
use super::Context;
use anyhow::{bail, Result};
use nimscape::request::{Format, FramePattern, NewFolders, Planned};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// The folder figures go to without `-o`.
pub const DEFAULT_FOLDER: &str = "output";

/// Writes `figure` where the user asked, after checking everything that can be
/// checked, and says where it went. Returns the path written (None for stdout).
pub fn emit(figure: &Planned, output: Option<&Path>, ctx: &Context) -> Result<Option<PathBuf>> {
    match output {
        Some(path) if path.as_os_str() == "-" => {
            let format = ctx.format.unwrap_or(figure.formats()[0]);
            // The same choice of formats as for a file (PDF wherever SVG is).
            figure.format_of(Path::new(&format!("stdout.{}", format.extension())))?;
            super::report::ensure_open()?;
            let stdout = std::io::stdout();
            if is_binary(format) && stdout.is_terminal() {
                bail!(
                    "-o - would print a binary .{} to the terminal; redirect it (> file.{0}) or choose --format svg, csv or json",
                    format.extension()
                );
            }
            let watch = Watch::start(&ctx.control, "stdout".to_string(), ctx.quiet);
            // Streamed as it is made: a large data output never sits whole in memory.
            let mut lock = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
            figure.write_stream(
                format,
                &mut lock,
                Path::new("standard output"),
                &ctx.control,
                ctx.output_limit,
            )?;
            watch.finish();
            Ok(None)
        }
        Some(path) => {
            if let Some(pattern) = FramePattern::parse(path)? {
                if ctx.format.is_some() {
                    bail!("--format does not apply to a frame sequence; the extension after %03d decides");
                }
                // Bad input is refused before a folder is made.
                figure.check(Format::Apng)?;
                pattern.check_count(figure.frame_count()?)?;
                let folders = NewFolders::make_parent(&pattern.frame_path(1))?;
                let watch = Watch::start(&ctx.control, path.display().to_string(), ctx.quiet);
                figure.save_frames(
                    &pattern,
                    |p| announce(p, ctx),
                    &ctx.control,
                    ctx.output_limit,
                )?;
                watch.finish();
                folders.keep();
                return Ok(Some(pattern.tex_path()));
            }
            let format = figure.format_of(path)?;
            if ctx.format.is_some_and(|f| f != format) {
                bail!(
                    "--format {} disagrees with -o {}; the file's extension decides, so drop --format",
                    ctx.format.map(Format::extension).unwrap_or_default(),
                    path.display()
                );
            }
            write(figure, format, path, ctx)?;
            Ok(Some(path.to_path_buf()))
        }
        None => {
            let format = ctx.format.unwrap_or(figure.formats()[0]);
            let path = Path::new(DEFAULT_FOLDER).join(format!(
                "{}.{}",
                figure.default_stem(),
                format.extension()
            ));
            // The extension must be one the figure writes (PDF wherever SVG is).
            figure.format_of(&path)?;
            write(figure, format, &path, ctx)?;
            Ok(Some(path))
        }
    }
}

fn write(figure: &Planned, format: Format, path: &Path, ctx: &Context) -> Result<()> {
    // Bad input is refused before a folder is made, so it leaves nothing behind.
    figure.check(format)?;
    let folders = NewFolders::make_parent(path)?;
    let watch = Watch::start(&ctx.control, path.display().to_string(), ctx.quiet);
    figure.save(format, path, &ctx.control, ctx.output_limit)?;
    watch.finish();
    folders.keep();
    announce(path, ctx);
    if !ctx.quiet {
        if let Some(note) = figure.note(&ctx.control) {
            let _ = writeln!(std::io::stderr(), "note: {note}");
        }
    }
    Ok(())
}

/// Says on stderr which file was written (stdout stays for reports and data).
pub fn announce(path: &Path, ctx: &Context) {
    if !ctx.quiet {
        // A closed stderr is no reason to fail a figure that was written.
        let _ = writeln!(std::io::stderr(), "wrote {}", path.display());
    }
}

fn is_binary(format: Format) -> bool {
    matches!(
        format,
        Format::Png | Format::Gif | Format::Apng | Format::Pdf
    )
}
