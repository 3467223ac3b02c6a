//! Folders made for a file, and taken away again when the file never comes: a
//! refused or stopped run leaves no empty folder behind.

use crate::{Error, Result};
use std::path::{Path, PathBuf};

/// Folders made for files, outermost first; removed on drop (each only when
/// empty) unless kept.
#[must_use = "call keep() once the file is written"]
#[derive(Debug)]
pub struct NewFolders(Vec<PathBuf>);

impl NewFolders {
    /// No folders yet, to [`NewFolders::add`] to.
    pub fn none() -> NewFolders {
        NewFolders(Vec::new())
    }

    /// Creates the folders above `path` when they are missing. Unless the write
    /// that needed them succeeds ([`NewFolders::keep`]), they are removed again
    /// when empty.
    pub fn make_parent(path: &Path) -> Result<NewFolders> {
        let mut created = NewFolders::none();
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            let mut missing: Vec<&Path> = parent
                .ancestors()
                .take_while(|a| !a.as_os_str().is_empty() && !a.is_dir())
                .collect();
            missing.reverse();
            for folder in missing {
                match std::fs::create_dir(folder) {
                    Ok(()) => created.0.push(folder.to_path_buf()),
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && folder.is_dir() => {}
                    // `created` is dropped: what this call made goes again.
                    Err(source) => {
                        return Err(Error::Io {
                            path: folder.to_path_buf(),
                            source,
                        })
                    }
                }
            }
        }
        Ok(created)
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
