//! Every file is written atomically: into a temporary file beside the target,
//! made only when the first bytes are ready and renamed over the target only
//! when all went well, so a failed or interrupted run never leaves half a
//! figure. The target is checked before any work: its folder exists and is
//! writable, and it is a regular file (or a link to one).

use super::budget::{output_budget, parent_dir, OutputBudget};
use crate::{Error, Result};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

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

/// Maps an I/O error while writing `path` to a library error.
#[cfg(test)]
fn io_error(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::super::budget::DEFAULT_OUTPUT_LIMIT;
    use super::*;

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
