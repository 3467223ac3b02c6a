//! Clean interrupts: temporary files in flight are removed on SIGINT and SIGTERM.
//!
//! [`super::write_atomic`] registers its `.nimscape-XXXXXX.part` file here for as long
//! as it exists. [`install`] starts one thread that waits for SIGINT or SIGTERM,
//! removes every registered file and exits with 130 or 143, the shell's codes for
//! those signals — so an interrupted run leaves neither a half figure nor a temp file.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, Once};

static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn in_flight() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere must not stop the cleanup: the list is still valid.
    IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes its file from the cleanup list when dropped (the file itself is then
/// either persisted under its final name or deleted by `tempfile`).
#[derive(Debug)]
pub struct Registered(PathBuf);

/// Puts `path` on the list of files to remove if the process is interrupted.
pub fn register(path: PathBuf) -> Registered {
    in_flight().push(path.clone());
    Registered(path)
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut list = in_flight();
        if let Some(i) = list.iter().rposition(|p| *p == self.0) {
            list.swap_remove(i);
        }
    }
}

/// Installs the SIGINT / SIGTERM handler (once; later calls do nothing). The binary
/// calls it at start; a library user who handles signals itself need not.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGINT, SIGTERM};
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
                return;
            };
            let spawned = std::thread::Builder::new()
                .name("nimscape-signals".into())
                .spawn(move || {
                    if let Some(signal) = signals.forever().next() {
                        // Hold the lock to the end: no new file can be registered and
                        // then left behind while we exit.
                        let list = in_flight();
                        for path in list.iter() {
                            let _ = std::fs::remove_file(path);
                        }
                        std::process::exit(128 + signal);
                    }
                });
            // Without the thread, signals keep their default action (exit, files left):
            // no worse than before, so carry on.
            drop(spawned);
        }
    });
}
