//! Progress of one figure on the command line, read from its [`Control`]: a bar
//! with an ETA on a terminal once the work has taken over a second, one summary
//! line on stderr without a terminal (for logs), nothing with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nimscape::Control;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Work shorter than this shows nothing.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// How often the bar is redrawn.
const TICK: Duration = Duration::from_millis(100);

/// Watches a control while the work runs; stops watching when dropped.
pub struct Watch {
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watch {
    /// Starts watching `control` for the work called `what` (e.g. `output/square-11.png`).
    pub fn start(control: &Control, what: String, quiet: bool) -> Watch {
        let done = Arc::new(AtomicBool::new(false));
        if quiet {
            return Watch { done, thread: None };
        }
        let (control, finished) = (control.clone(), done.clone());
        let terminal = std::io::stderr().is_terminal();
        let thread = std::thread::Builder::new()
            .name("nimscape-progress".into())
            .spawn(move || watch(&control, &what, terminal, &finished))
            .ok();
        Watch { done, thread }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn watch(control: &Control, what: &str, terminal: bool, finished: &AtomicBool) {
    let start = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    while !finished.load(Ordering::SeqCst) {
        std::thread::sleep(TICK);
        if !terminal || start.elapsed() < QUIET_FOR {
            continue;
        }
        let (done, total) = control.progress();
        let bar = bar.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(
                Some(total.max(1)),
                ProgressDrawTarget::stderr_with_hz(10),
            )
            .with_elapsed(start.elapsed());
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} {msg} [{bar:30}] {percent:>3}% {elapsed_precise} (ETA {eta})",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar.set_message(what.to_string());
            bar
        });
        bar.set_length(total.max(1));
        bar.set_position(done.min(total));
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let elapsed = start.elapsed();
    if !terminal && elapsed >= QUIET_FOR && !control.is_cancelled() {
        // One line for a log: what took the time, and how long.
        let _ = writeln!(std::io::stderr(), "{what}: {:.1} s", elapsed.as_secs_f64());
    }
}
