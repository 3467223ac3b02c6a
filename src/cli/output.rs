//! Where figures go, the same for every subcommand: `-o FILE` (missing folders
//! are made), `-o -` (stdout), or `output/<name>.<ext>` without `-o`; every
//! write is announced on stderr unless `--quiet`.

use super::progress::Watch;
use anyhow::{bail, Result};
use nimscape::request::Format;
use nimscape::request::{FramePattern, Planned};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// What every command run shares: limits, verbosity, its own canonical command
/// line, and the control a signal cancels.
#[derive(Debug, Clone)]
pub struct Context {
    /// Cancelled by Ctrl-C / SIGTERM; watched for the progress bar.
    pub control: nimscape::Control,
    /// Refuse work over this many bytes.
    pub memory_limit: u64,
    /// Refuse files larger than this (`--max-output`).
    pub output_limit: u64,
    /// No "wrote ..." lines, no progress bars.
    pub quiet: bool,
    /// The format for `-o -` and for the default file, when given.
    pub format: Option<Format>,
    /// `nimscape <subcommand> <flags>`, rebuilt from the parsed parameters (never
    /// from argv), so the CLI, a recipe and the server record the same words.
    pub command_line: String,
}

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
            super::out::ensure_open()?;
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
                let folders = make_parent(&pattern.frame_path(1))?;
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
    let folders = make_parent(path)?;
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

/// Creates the folders above `path` when they are missing. Unless the write that
/// needed them succeeds ([`NewFolders::keep`]), they are removed again when empty:
/// a refused or stopped run leaves no folder behind.
pub fn make_parent(path: &Path) -> Result<NewFolders> {
    let mut created = Vec::new();
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        let mut missing: Vec<&Path> = parent
            .ancestors()
            .take_while(|a| !a.as_os_str().is_empty() && !a.is_dir())
            .collect();
        missing.reverse();
        for folder in missing {
            match std::fs::create_dir(folder) {
                Ok(()) => created.push(folder.to_path_buf()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && folder.is_dir() => {}
                Err(source) => {
                    drop(NewFolders(created));
                    return Err(nimscape::Error::Io {
                        path: folder.to_path_buf(),
                        source,
                    }
                    .into());
                }
            }
        }
    }
    Ok(NewFolders(created))
}

/// Folders [`make_parent`] created, outermost first; removed on drop unless kept.
#[must_use = "call keep() once the file is written"]
pub struct NewFolders(Vec<PathBuf>);

impl NewFolders {
    /// No folders yet, to [`NewFolders::add`] to.
    pub fn none() -> NewFolders {
        NewFolders(Vec::new())
    }

    /// Takes over `more`'s folders (made after these): on drop, the innermost
    /// go first, so a shared outer folder is tried once it is empty.
    pub fn add(&mut self, mut more: NewFolders) {
        self.0.append(&mut more.0);
    }

    /// The file was written: its folders stay.
    pub fn keep(mut self) {
        self.0.clear();
    }
}

impl Drop for NewFolders {
    fn drop(&mut self) {
        for folder in self.0.iter().rev() {
            // Only an empty folder goes: anything written into it meanwhile stays.
            let _ = std::fs::remove_dir(folder);
        }
    }
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
