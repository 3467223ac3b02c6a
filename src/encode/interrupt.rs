//! Clean interrupts: temporary files in flight are removed on SIGINT and SIGTERM.
//!
//! [`super::write_atomic`] registers its `.nimscape-XXXXXX.part` file here for as long
//! as it exists. [`install`] starts one thread that waits for SIGINT or SIGTERM,
//! removes every registered file and exits with 130 or 143, the shell's codes for
//! those signals — so an interrupted run leaves neither a half figure nor a temp file.
//!
//! `render --isolate` starts its children through [`spawn_child`]: on a signal they
//! get SIGTERM (they clean up their own temporary files the same way), the handler
//! waits for them (at most [`CHILD_GRACE`]) and no new child starts meanwhile.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, Once};

static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn in_flight() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere must not stop the cleanup: the list is still valid.
    IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Child processes running now, and whether a signal came (no new child may start).
struct Children {
    pids: Vec<u32>,
    stopping: bool,
}

static CHILDREN: Mutex<Children> = Mutex::new(Children {
    pids: Vec::new(),
    stopping: false,
});

/// How long an interrupted process waits for its children to clean up and exit.
pub const CHILD_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

fn children() -> MutexGuard<'static, Children> {
    CHILDREN.lock().unwrap_or_else(|e| e.into_inner())
}

/// A child process on the list of those to stop on a signal; off the list when dropped
/// (after the child has been waited for).
#[derive(Debug)]
pub struct ChildGuard(u32);

impl Drop for ChildGuard {
    fn drop(&mut self) {
        let stopping = {
            let mut list = children();
            if let Some(i) = list.pids.iter().position(|p| *p == self.0) {
                list.pids.swap_remove(i);
            }
            list.stopping
        };
        if stopping {
            // The signal handler exits the process with the signal's code as soon as
            // every child is done: this thread must not go on to report the child's
            // failure and exit with another code first.
            loop {
                std::thread::park();
            }
        }
    }
}

/// Spawns `command` and puts the child on the list of those to stop on SIGINT /
/// SIGTERM. Refused once a signal has come, so no child escapes the cleanup.
pub fn spawn_child(
    command: &mut std::process::Command,
) -> std::io::Result<(std::process::Child, ChildGuard)> {
    let mut list = children();
    if list.stopping {
        return Err(std::io::Error::other("interrupted"));
    }
    let child = command.spawn()?;
    let id = child.id();
    list.pids.push(id);
    Ok((child, ChildGuard(id)))
}

/// Sends SIGTERM to every child and waits until their guards are dropped (their
/// owners have waited for them) or [`CHILD_GRACE`] has passed.
#[cfg(unix)]
fn stop_children() {
    let pids = {
        let mut list = children();
        list.stopping = true;
        list.pids.clone()
    };
    if pids.is_empty() {
        return;
    }
    for pid in pids {
        if let Some(pid) = i32::try_from(pid)
            .ok()
            .and_then(rustix::process::Pid::from_raw)
        {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        }
    }
    let start = std::time::Instant::now();
    while !children().pids.is_empty() && start.elapsed() < CHILD_GRACE {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
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
                        stop_children();
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
