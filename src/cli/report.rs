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
/// run that prints nothing of what it was asked for does not end with exit 0.
///
/// Only a descriptor that was really closed counts. The Rust runtime reopens a
/// closed descriptor 1 on `/dev/null` (read and write) before `main`, which is
/// exactly what `stdout=subprocess.DEVNULL` and most job runners hand a program
/// to silence it; so whether it was closed is read before the runtime starts, by
/// [`STDOUT_CHECK`] (where the platform has no such hook it counts as open).
pub fn ensure_open() -> std::io::Result<()> {
    // Referenced here so that the linker keeps the check with this file.
    std::hint::black_box(&STDOUT_CHECK);
    if STDOUT_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(std::io::Error::other(
            "standard output is closed; redirect it (> file) or write a file with -o FILE",
        ));
    }
    Ok(())
}

/// Whether descriptor 1 was closed when the process started.
static STDOUT_CLOSED_AT_START: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Runs as the program is loaded, before the Rust runtime's own start-up: the
/// C runtime calls the functions listed in this section first.
#[used]
#[cfg_attr(
    any(target_os = "linux", target_os = "android"),
    link_section = ".init_array"
)]
#[cfg_attr(
    any(target_os = "macos", target_os = "ios"),
    link_section = "__DATA,__mod_init_func"
)]
static STDOUT_CHECK: extern "C" fn() = check_stdout_at_start;

extern "C" fn check_stdout_at_start() {
    // F_GETFD fails (EBADF) only on a descriptor that is not open.
    let closed = rustix::io::fcntl_getfd(rustix::stdio::stdout()).is_err();
    STDOUT_CLOSED_AT_START.store(closed, std::sync::atomic::Ordering::Relaxed);
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
        writeln!($out, $($arg)*).map_err(crate::cli::report::stdout_error)?
    };
}
pub(crate) use report;
