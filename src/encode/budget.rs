//! How much one output may take: the `--max-output` limit, or the free space
//! of the filesystem it goes to when that is less. Checked up front against an
//! estimate, and again byte by byte while writing.

use crate::{Error, Result};
use std::path::{Path, PathBuf};

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

/// The budget of an output to `path`: `limit`, or the free space where it is less.
pub(super) fn output_budget(path: &Path, limit: u64) -> OutputBudget {
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

/// The folder `path` goes in (`.` for a bare file name).
pub(super) fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}
