//! The library's one error type, ordered by whose fault it is.
//!
//! Nothing below the CLI prints or exits: every failure is a value of
//! [`Error`] whose `Display` is a single line that names what was wrong and,
//! where there is one, how to fix it. The binary prints it and exits non-zero.

use std::path::PathBuf;

/// Everything that can go wrong in nimscape.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A parameter the user gave is out of range or malformed.
    /// The message names the parameter and what is allowed.
    #[error("{0}")]
    InvalidParameter(String),

    /// The requested work would need more memory than the limit allows.
    #[error("{what} would need about {} of memory, over the limit of {}; {hint}", human_bytes(*.needed), human_bytes(*.limit))]
    TooLarge {
        /// What was asked for, e.g. "a 65536 x 65536 board at 4 px per cell".
        what: String,
        /// The estimated number of bytes the work would need.
        needed: u64,
        /// The limit in force, in bytes.
        limit: u64,
        /// How to get what the user wants anyway (a smaller size, `--raw`, ...).
        hint: String,
    },

    /// A combination of options or an output format that this figure cannot do.
    #[error("{0}")]
    Unsupported(String),

    /// Writing a file failed: the library only writes (the recipe loader reports
    /// its reads as "cannot read ...").
    #[error("cannot write '{}': {source}", path.display())]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },

    /// An encoder failed for a reason that is not plain I/O.
    #[error("cannot encode '{}': {message}", path.display())]
    Encode {
        /// The file being written.
        path: PathBuf,
        /// What the encoder said.
        message: String,
    },

    /// The work was stopped through its [`crate::Control`] before it finished:
    /// nothing is wrong with the request. Front ends map it to exit code 130 (a
    /// command interrupted by Ctrl-C) or to a dropped request.
    #[error("interrupted")]
    Cancelled,
}

/// The result type of the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A bad parameter, with a message that names it and says what is allowed.
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::InvalidParameter(message.into())
    }

    /// An unsupported option or format combination.
    pub fn unsupported(message: impl Into<String>) -> Self {
        Error::Unsupported(message.into())
    }

    /// A write to an output that has no name yet: the boundary that knows the
    /// file (or stdout, or an HTTP response) names it with [`Error::at`].
    pub fn write_failed(source: std::io::Error) -> Self {
        Error::Io {
            path: PathBuf::new(),
            source,
        }
    }

    /// Names the output `path` in an I/O or encoder error that has none yet.
    /// Encoders write to any `io::Write`; only the place that opened the file knows its name.
    pub fn at(self, path: &std::path::Path) -> Self {
        match self {
            Error::Io { path: p, source } if p.as_os_str().is_empty() => Error::Io {
                path: path.to_path_buf(),
                source,
            },
            Error::Encode { path: p, message } if p.as_os_str().is_empty() => Error::Encode {
                path: path.to_path_buf(),
                message,
            },
            other => other,
        }
    }
}

/// Formats a byte count the way a person reads it: `1.5 GiB`, `640 KiB`, `12 B`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The default memory limit for one figure: 2 GiB, well inside the 24 GiB machines
/// this runs on, and far more than any figure meant for a page needs.
pub const DEFAULT_MEMORY_LIMIT: u64 = 2 << 30;

static LARGEST_ESTIMATE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The largest estimate [`check_memory`] has seen in this process: the memory guard's
/// tests compare it with the measured peak.
pub fn largest_estimate() -> u64 {
    LARGEST_ESTIMATE.load(std::sync::atomic::Ordering::Relaxed)
}

/// Refuses work whose estimated memory need exceeds `limit`.
pub fn check_memory(
    what: impl FnOnce() -> String,
    needed: u64,
    limit: u64,
    hint: &str,
) -> Result<()> {
    LARGEST_ESTIMATE.fetch_max(needed, std::sync::atomic::Ordering::Relaxed);
    if needed > limit {
        return Err(Error::TooLarge {
            what: what(),
            needed,
            limit,
            hint: hint.to_string(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_bytes_reads_naturally() {
        assert_eq!(human_bytes(12), "12 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
    }

    #[test]
    fn too_large_is_one_line_with_the_estimate() {
        let err = check_memory(|| "a big board".into(), 5 << 30, 2 << 30, "use `raw`").unwrap_err();
        let text = err.to_string();
        assert!(!text.contains('\n'));
        assert!(text.contains("5.0 GiB") && text.contains("2.0 GiB") && text.contains("`raw`"));
    }
}
