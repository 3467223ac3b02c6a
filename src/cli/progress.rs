//! Progress of one figure on the command line, read from its [`Control`]: a bar
//! with an ETA on a terminal once the work has taken over a second; without a
//! terminal (a log), a line of how far it is at 10 s, 30 s, 1 min and then every
//! minute, so a run of minutes or hours is not silent until it ends, and one
//! summary line at the end of work that succeeded ([`Watch::finish`]); nothing
//! with `--quiet`. The watcher is woken the moment the work ends, so watching
//! costs a command no time of its own.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nimscape::Control;
use std::io::{IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Work shorter than this shows nothing.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// How often the bar is redrawn.
const TICK: Duration = Duration::from_millis(100);

/// Without a terminal, when the next line of progress is due after a line at
/// `last` (none yet: `None`): 10 s, 30 s, 60 s, then every minute.
fn next_line_at(last: Option<Duration>) -> Duration {
    match last.map(|d| d.as_secs()) {
        None => Duration::from_secs(10),
        Some(s) if s < 30 => Duration::from_secs(30),
        Some(s) => Duration::from_secs((s / 60 + 1) * 60),
    }
}

/// A line of progress for a log: "x.png: 45% after 30 s".
fn progress_line(what: &str, done: u64, total: u64, elapsed: Duration) -> String {
    let after = elapsed.as_secs();
    if total == 0 {
        format!("{what}: still working after {after} s")
    } else {
        let percent = (done.min(total) as f64 * 100.0 / total as f64).floor();
        format!("{what}: {percent:.0}% after {after} s")
    }
}

/// How the work being watched ended, as the watcher sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// Still running.
    Running,
    /// Done: the log gets its summary line.
    Succeeded,
    /// Refused, failed or stopped: no summary (it would name a file never written).
    Failed,
}

/// Where the work tells the watcher it ended; the watcher waits on it between
/// ticks, so it wakes at once rather than at the end of a tick.
struct Finish {
    ending: Mutex<Ending>,
    wake: Condvar,
}

impl Finish {
    fn new() -> Finish {
        Finish {
            ending: Mutex::new(Ending::Running),
            wake: Condvar::new(),
        }
    }

    fn end(&self, ending: Ending) {
        let mut now = self.ending.lock().unwrap_or_else(|e| e.into_inner());
        if *now == Ending::Running {
            *now = ending;
        }
        self.wake.notify_all();
    }

    /// Waits up to `tick` for the end; the ending if it came.
    fn wait(&self, tick: Duration) -> Option<Ending> {
        let now = self.ending.lock().unwrap_or_else(|e| e.into_inner());
        let (now, _) = self
            .wake
            .wait_timeout_while(now, tick, |e| *e == Ending::Running)
            .unwrap_or_else(|e| e.into_inner());
        (*now != Ending::Running).then_some(*now)
    }
}

/// Watches a control while the work runs. [`Watch::finish`] when the work
/// succeeded; dropped without it (an error on the way out), it stops quietly.
pub struct Watch {
    finish: Arc<Finish>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watch {
    /// Starts watching `control` for the work called `what` (e.g. `output/square-11.png`).
    pub fn start(control: &Control, what: String, quiet: bool) -> Watch {
        let finish = Arc::new(Finish::new());
        if quiet {
            return Watch {
                finish,
                thread: None,
            };
        }
        let (control, ended) = (control.clone(), finish.clone());
        let terminal = std::io::stderr().is_terminal();
        let thread = std::thread::Builder::new()
            .name("nimscape-progress".into())
            .spawn(move || watch(&control, &what, terminal, &ended))
            .ok();
        Watch { finish, thread }
    }

    /// The work succeeded: the bar is cleared, a log gets its summary line.
    pub fn finish(mut self) {
        self.stop(Ending::Succeeded);
    }

    fn stop(&mut self, ending: Ending) {
        self.finish.end(ending);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop(Ending::Failed);
    }
}

fn watch(control: &Control, what: &str, terminal: bool, finish: &Finish) {
    let log = &mut std::io::stderr();
    watch_with(control, what, terminal, finish, next_line_at, log);
}

/// [`watch`] with the lines for a log written to `log` when they are due by
/// `schedule` ([`next_line_at`]; the tests' is quicker).
fn watch_with(
    control: &Control,
    what: &str,
    terminal: bool,
    finish: &Finish,
    schedule: fn(Option<Duration>) -> Duration,
    log: &mut dyn Write,
) {
    let start = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    let mut line_due = schedule(None);
    let ending = loop {
        if let Some(ending) = finish.wait(TICK) {
            break ending;
        }
        if !terminal {
            let elapsed = start.elapsed();
            if elapsed >= line_due && !control.is_cancelled() {
                let (done, total) = control.progress();
                let line = progress_line(what, done, total, elapsed);
                let _ = writeln!(log, "{line}");
                line_due = schedule(Some(elapsed));
            }
            continue;
        }
        if start.elapsed() < QUIET_FOR {
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
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let elapsed = start.elapsed();
    let succeeded = ending == Ending::Succeeded && !control.is_cancelled();
    if !terminal && elapsed >= QUIET_FOR && succeeded {
        // One line for a log: what took the time, and how long.
        let _ = writeln!(log, "{what}: {:.1} s", elapsed.as_secs_f64());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_hears_of_long_work_at_10_s_30_s_1_min_then_every_minute() {
        let mut at = Vec::new();
        let mut last = None;
        for _ in 0..6 {
            let due = next_line_at(last);
            at.push(due.as_secs());
            // The watcher notices a little after the line is due.
            last = Some(due + Duration::from_millis(150));
        }
        assert_eq!(at, [10, 30, 60, 120, 180, 240]);
    }

    #[test]
    fn without_a_terminal_the_watcher_writes_lines_when_due_then_the_summary() {
        // A line at 0.3 s, then every 0.3 s after the last.
        fn quick(last: Option<Duration>) -> Duration {
            last.unwrap_or_default() + Duration::from_millis(300)
        }
        let control = Control::new();
        control.add_total(200);
        control.advance(90);
        let finish = Finish::new();
        let mut log = Vec::new();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(1500));
                finish.end(Ending::Succeeded);
            });
            watch_with(&control, "x.png", false, &finish, quick, &mut log);
        });
        let text = String::from_utf8(log).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // Lines of how far (about four in 1.5 s), and the summary last (the work
        // took over a second).
        assert!(lines.len() >= 3, "{text}");
        let how_far = |l: &str| {
            l.strip_prefix("x.png: 45% after ")
                .and_then(|rest| rest.strip_suffix(" s"))
                .is_some_and(|secs| secs.parse::<u64>().is_ok())
        };
        assert!(
            lines[..lines.len() - 1].iter().all(|l| how_far(l)),
            "{text}"
        );
        let summary = lines[lines.len() - 1];
        assert!(
            summary.starts_with("x.png: ") && summary.ends_with(" s") && !summary.contains('%'),
            "{text}"
        );
    }

    #[test]
    fn work_that_fails_after_a_long_time_gets_no_summary() {
        // The summary names a file; a refusal after long work wrote none, and its
        // error must be the only line on stderr.
        let control = Control::new();
        let finish = Finish::new();
        let mut log = Vec::new();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(1200));
                finish.end(Ending::Failed);
            });
            watch_with(&control, "x.png", false, &finish, next_line_at, &mut log);
        });
        assert_eq!(String::from_utf8(log).unwrap(), "");
    }

    #[test]
    fn the_watcher_wakes_when_the_work_ends_not_at_its_next_tick() {
        // Measured: well under a millisecond. Bounded at 10x the tick, so that a
        // loaded machine cannot fail it; the latency itself is in docs/speed.md.
        let control = Control::new();
        let started = std::time::Instant::now();
        for _ in 0..20 {
            Watch::start(&control, "x.png".into(), false).finish();
        }
        assert!(
            started.elapsed() < 10 * TICK,
            "20 watches took {:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_progress_line_says_how_far_and_how_long() {
        let line = progress_line("x.png", 450, 1000, Duration::from_millis(30_400));
        assert_eq!(line, "x.png: 45% after 30 s");
        assert_eq!(
            progress_line("x.png", 0, 0, Duration::from_secs(10)),
            "x.png: still working after 10 s"
        );
        assert_eq!(
            progress_line("x.png", 7, 5, Duration::from_secs(60)),
            "x.png: 100% after 60 s"
        );
    }
}
