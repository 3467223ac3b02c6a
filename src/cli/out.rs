//! Reports on standard output (tables, `--check`, `--time`, `--help`).
//!
//! `println!` panics when stdout is a closed pipe or a full device, so every report
//! goes through one locked, buffered writer whose errors travel back as values: a
//! closed pipe (`nimscape verify | head -1`) ends the run quietly with exit 0 (see
//! `main`), a full device (`> /dev/full`) is one error line and a non-zero exit.

use std::io::{BufWriter, StdoutLock, Write};

/// The report writer: write with [`report!`], end with [`Report::finish`].
pub struct Report(BufWriter<StdoutLock<'static>>);

/// Opens the report writer on standard output.
pub fn stdout() -> Report {
    Report(BufWriter::new(std::io::stdout().lock()))
}

/// Fails when the process was started with standard output closed (`>&-`), so a
/// run that prints nothing of what it was asked for does not end with exit 0. The
/// Rust runtime reopens a closed descriptor 1 on `/dev/null` for reading and writing
/// before `main`; a shell's `> /dev/null` opens it for writing only, and passes.
pub fn ensure_open() -> std::io::Result<()> {
    use rustix::fs::{FileType, OFlags};
    use std::os::fd::AsFd;
    let stdout = std::io::stdout();
    let fd = stdout.as_fd();
    let reopened_by_runtime = rustix::fs::fcntl_getfl(fd)
        .is_ok_and(|flags| flags & OFlags::ACCMODE == OFlags::RDWR)
        && rustix::fs::fstat(fd).is_ok_and(|stat| {
            FileType::from_raw_mode(stat.st_mode) == FileType::CharacterDevice
                && rustix::fs::major(stat.st_rdev) == 1
                && rustix::fs::minor(stat.st_rdev) == 3
        });
    if reopened_by_runtime {
        return Err(std::io::Error::other(
            "standard output is closed; redirect it (> file) or write a file with -o FILE",
        ));
    }
    Ok(())
}

impl Report {
    /// Flushes everything written; a failure is the run's error.
    pub fn finish(mut self) -> anyhow::Result<()> {
        ensure_open().map_err(stdout_error)?;
        self.0.flush().map_err(stdout_error)
    }
}

impl Write for Report {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// An error writing standard output, with the cause kept for `main`'s broken-pipe test.
pub fn stdout_error(err: std::io::Error) -> anyhow::Error {
    if err.kind() == std::io::ErrorKind::Other {
        // ensure_open's sentence says it all.
        return anyhow::Error::new(err);
    }
    anyhow::Error::new(err).context("writing to standard output")
}

/// Writes `text` to standard output at once (help and version texts).
pub fn print_all(text: &str) -> anyhow::Result<()> {
    let mut out = stdout();
    out.write_all(text.as_bytes()).map_err(stdout_error)?;
    out.finish()
}

/// `writeln!` into a [`Report`], returning the handled error from the enclosing function.
macro_rules! report {
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*).map_err(crate::cli::out::stdout_error)?
    };
}
pub(crate) use report;
