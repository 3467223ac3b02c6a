//! Ctrl-C and SIGTERM for the command line: the work in progress is cancelled
//! through its [`Control`], unwinds (temporary files are dropped on the way, so
//! nothing half-written is left), and the process exits 130 or 143, the shell's
//! codes for those signals.
//!
//! The library knows nothing of signals: it checks its `Control` at short
//! intervals. This binary owns the handler, the list of controls to cancel, and
//! the child processes of `render --isolate` (they get SIGTERM and clean up the
//! same way; the parent waits for them).

use nimscape::Control;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, Once};
use std::time::Duration;

/// The signal that came, or 0.
static SIGNALLED: AtomicI32 = AtomicI32::new(0);

/// The controls of the work running now.
static CONTROLS: Mutex<Vec<Control>> = Mutex::new(Vec::new());

/// Set by commands whose work takes no control (`serve`, `verify`): a signal
/// ends them at once, as the shell's default would, since they write no file.
static AT_ONCE: AtomicBool = AtomicBool::new(false);

/// Makes a signal end this process at once: for commands that run no cancellable
/// work and leave no file half-written (the server, `verify`'s checks).
pub fn exit_at_once() {
    AT_ONCE.store(true, Ordering::SeqCst);
    // A signal that came before this (while the command line was read) ends it now.
    let signal = SIGNALLED.load(Ordering::SeqCst);
    if signal != 0 {
        std::process::exit(128 + signal);
    }
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

/// How long work may take to stop after a signal before the process exits anyway:
/// the library checks its control every few tens of milliseconds, so this is only
/// for a write the kernel holds up (a full disk, a slow network file system).
const STOP_GRACE: Duration = Duration::from_secs(5);

/// How long an interrupted process waits for its children to clean up and exit.
const CHILD_GRACE: Duration = Duration::from_secs(10);

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere must not stop the cleanup: the lists are still valid.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The exit code of the signal that came (130 for SIGINT, 143 for SIGTERM), if one did.
pub fn exit_code() -> Option<u8> {
    match SIGNALLED.load(Ordering::SeqCst) {
        0 => None,
        signal => u8::try_from(128 + signal).ok(),
    }
}

/// A new control, cancelled when a signal comes (at once, if one already came).
pub fn control() -> Control {
    let control = Control::new();
    if SIGNALLED.load(Ordering::SeqCst) != 0 {
        control.cancel();
    }
    lock(&CONTROLS).push(control.clone());
    control
}

/// A child process on the list of those to stop on a signal; off it when dropped
/// (after the child has been waited for).
#[derive(Debug)]
pub struct ChildGuard(u32);

impl Drop for ChildGuard {
    fn drop(&mut self) {
        let mut list = lock(&CHILDREN);
        if let Some(i) = list.pids.iter().position(|p| *p == self.0) {
            list.pids.swap_remove(i);
        }
    }
}

/// Spawns `command` and puts the child on the list of those to stop on SIGINT /
/// SIGTERM. Refused once a signal has come, so no child escapes the cleanup.
pub fn spawn_child(
    command: &mut std::process::Command,
) -> std::io::Result<(std::process::Child, ChildGuard)> {
    let mut list = lock(&CHILDREN);
    if list.stopping {
        return Err(std::io::Error::other("interrupted"));
    }
    let child = command.spawn()?;
    let id = child.id();
    list.pids.push(id);
    Ok((child, ChildGuard(id)))
}

/// Sends SIGTERM to every child; their owners wait for them.
#[cfg(unix)]
fn stop_children() {
    let pids = {
        let mut list = lock(&CHILDREN);
        list.stopping = true;
        list.pids.clone()
    };
    for pid in pids {
        if let Some(pid) = i32::try_from(pid)
            .ok()
            .and_then(rustix::process::Pid::from_raw)
        {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        }
    }
}

/// Installs the SIGINT / SIGTERM handler (once), first thing in `main`.
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
                        SIGNALLED.store(signal, Ordering::SeqCst);
                        if AT_ONCE.load(Ordering::SeqCst) {
                            std::process::exit(128 + signal);
                        }
                        for control in lock(&CONTROLS).iter() {
                            control.cancel();
                        }
                        stop_children();
                        // The work unwinds and main exits with the signal's code; should
                        // it hang in the kernel, exit anyway once the children are done.
                        let start = std::time::Instant::now();
                        while !lock(&CHILDREN).pids.is_empty() && start.elapsed() < CHILD_GRACE {
                            std::thread::sleep(Duration::from_millis(10));
                        }
                        std::thread::sleep(STOP_GRACE);
                        std::process::exit(128 + signal);
                    }
                });
            // Without the thread, signals keep their default action: carry on.
            drop(spawned);
        }
    });
}
