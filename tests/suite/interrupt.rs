//! Ctrl-C during long work: the request's control is cancelled, the work stops at
//! its next check, and the process exits 130 promptly with no file left behind
//! (no temporary file, no half-written output, no folder it made).

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a run may take to stop after SIGINT: ten times and more what a
/// quiet machine measures (tens of milliseconds; about 0.9 s seen at load 9–14),
/// and still below the 5 s after which the signal handler exits anyway, so work
/// that never checks its control fails here. The latency itself is measured in
/// docs/speed.md.
const PROMPTLY: Duration = Duration::from_secs(3);

fn spawn(dir: &Path, args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("nimscape"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Every file under `dir`, recursively.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files(&path));
        } else {
            found.push(path);
        }
    }
    found
}

/// Sends SIGINT once `busy` says the work is under way; returns how long the
/// process took to exit after the signal, and its exit code.
fn interrupt(child: &mut Child, mut busy: impl FnMut() -> bool) -> (Duration, Option<i32>) {
    let start = Instant::now();
    while !busy() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("finished ({status}) before it could be interrupted");
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the work never got under way"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = rustix::process::Pid::from_child(child);
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    let sent = Instant::now();
    let status = child.wait().unwrap();
    (sent.elapsed(), status.code())
}

fn assert_stopped(what: &str, (took, code): (Duration, Option<i32>), left: Vec<PathBuf>) {
    assert_eq!(code, Some(130), "{what}: exit code");
    assert!(
        took < PROMPTLY,
        "{what}: stopped {} ms after SIGINT",
        took.as_millis()
    );
    assert!(left.is_empty(), "{what}: left {left:?}");
    println!("{what}: stopped {} ms after SIGINT", took.as_millis());
}

#[test]
fn ctrl_c_stops_a_grundy_solve_streamed_to_npy() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(
        dir.path(),
        &[
            "--max-memory",
            "8G",
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "1200",
            "-o",
            "x.npy",
        ],
    );
    // The streamed solve writes its first slabs long before it is done.
    let stopped = interrupt(&mut child, || !files(dir.path()).is_empty());
    assert_stopped("grundy box 1200 to .npy", stopped, files(dir.path()));
}

#[test]
fn ctrl_c_stops_a_two_thousand_frame_gif() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(
        dir.path(),
        &[
            "automaton",
            "--frames",
            "1..2000",
            "--cell",
            "1",
            "-o",
            "a.gif",
        ],
    );
    // Frames are encoded as they come: wait for the first bytes.
    let stopped = interrupt(&mut child, || !files(dir.path()).is_empty());
    assert_stopped("a 2000-frame GIF", stopped, files(dir.path()));
}

#[test]
fn ctrl_c_stops_a_render_of_the_templates() {
    let dir = tempfile::tempdir().unwrap();
    let templates = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let mut child = spawn(
        dir.path(),
        &["render", templates.to_str().unwrap(), "--out", "out"],
    );
    let out = dir.path().join("out");
    // Once the first figure is written, the rest are being drawn.
    let stopped = interrupt(&mut child, || {
        files(&out)
            .iter()
            .any(|p| !p.to_string_lossy().ends_with(".part"))
    });
    // Figures finished before the signal stay (each is whole); nothing half-written
    // does, and no gallery is written for a stopped render.
    let partial: Vec<PathBuf> = files(&out)
        .into_iter()
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.ends_with(".part") || name == "index.md" || name == "figures.tex"
        })
        .collect();
    assert_stopped("render templates/", stopped, partial);
}

#[cfg(feature = "serve")]
#[test]
fn ctrl_c_stops_the_server_at_once() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("nimscape"))
        .current_dir(dir.path())
        .args(["serve", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Listening once it prints its address.
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("http://127.0.0.1:"), "{line}");
    let stopped = interrupt(&mut child, || true);
    assert_stopped("nimscape serve", stopped, files(dir.path()));
}

#[test]
fn ctrl_c_stops_a_survey_and_writes_no_report() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(
        dir.path(),
        &[
            "--max-memory",
            "8G",
            "survey",
            "--cap",
            "floor((x+z)**2/k)",
            "--param",
            "k=1..64",
            "--box",
            "64",
            "-o",
            "out/report.md",
        ],
    );
    // The survey writes nothing before every value is done (about ten seconds):
    // interrupt it while it solves.
    let start = Instant::now();
    let stopped = interrupt(&mut child, || start.elapsed() > Duration::from_millis(700));
    assert_stopped("a survey of 64 values", stopped, files(dir.path()));
}

#[test]
fn ctrl_c_stops_a_raw_board_and_leaves_no_folder() {
    let dir = tempfile::tempdir().unwrap();
    // 2^18 - 1 a side: tens of seconds of bands of rows (65535 takes about one,
    // and its compressed bytes sit in buffers until the end, so no file shows
    // when it is under way).
    let mut child = spawn(
        dir.path(),
        &["square", "--m", "262143", "--raw", "-o", "out/r.png"],
    );
    // `-o` makes out/ before the work: interrupt a moment after it appears.
    let out = dir.path().join("out");
    let mut seen: Option<Instant> = None;
    let stopped = interrupt(&mut child, || {
        if out.is_dir() && seen.is_none() {
            seen = Some(Instant::now());
        }
        seen.is_some_and(|at| at.elapsed() > Duration::from_millis(500))
    });
    assert_stopped("square --m 262143 --raw", stopped, files(dir.path()));
    assert!(!out.exists(), "the folder -o made is left");
}

#[test]
fn ctrl_c_stops_a_sweep_with_a_3d_view() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(
        dir.path(),
        &[
            "octahedron",
            "sweep",
            "--n",
            "8",
            "--frames",
            "120",
            "--panel",
            "512",
            "--with-view",
            "-o",
            "s.gif",
        ],
    );
    let stopped = interrupt(&mut child, || !files(dir.path()).is_empty());
    assert_stopped("octahedron sweep --with-view", stopped, files(dir.path()));
}

#[test]
fn an_interrupted_render_leaves_no_empty_set_folders() {
    let dir = tempfile::tempdir().unwrap();
    // Two sets; the first's one figure is slow (a large CSV), so the signal comes
    // while it is written and before anything is done.
    for (name, m) in [("first", 8192), ("second", 5)] {
        std::fs::write(
            dir.path().join(format!("{name}.toml")),
            format!("name = \"{name}\"\n[defaults]\nformats = [\"csv\"]\n\n[[figure]]\nname = \"big\"\nmodel = \"square\"\nm = {m}\n"),
        )
        .unwrap();
    }
    let mut child = spawn(
        dir.path(),
        &[
            "--max-output",
            "100G",
            "render",
            "first.toml",
            "second.toml",
            "--jobs",
            "1",
            "--out",
            "out",
        ],
    );
    let first = dir.path().join("out/first");
    let stopped = interrupt(&mut child, || !files(&first).is_empty());
    let left: Vec<PathBuf> = files(dir.path())
        .into_iter()
        .filter(|p| !p.ends_with("first.toml") && !p.ends_with("second.toml"))
        .collect();
    let second_done = dir.path().join("out/second/big.csv").exists();
    if !second_done {
        // Nothing was finished: no folder of the render is left, empty or not.
        assert!(!dir.path().join("out").exists(), "out/ left: {left:?}");
    }
    let partial: Vec<PathBuf> = left
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".part"))
        .collect();
    assert_stopped("render of two sets", stopped, partial);
}

/// Whether process `pid` runs the signal handler's thread yet.
fn has_signal_thread(pid: u32) -> bool {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|task| {
            std::fs::read_to_string(task.path().join("comm"))
                .is_ok_and(|name| name.starts_with("nimscape-signal"))
        })
}

#[cfg(target_os = "linux")]
#[test]
fn sigterm_at_start_up_exits_143() {
    // The handler is installed first thing in `main`, before the command line is
    // read: a SIGTERM the moment it exists is the shell's 143, not death by the
    // signal (which it was for the first ~20 ms, while the words were parsed).
    for _ in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let mut child = spawn(
            dir.path(),
            &[
                "grundy",
                "triangular",
                "--k",
                "3",
                "--box",
                "600",
                "-o",
                "x.npy",
            ],
        );
        let start = Instant::now();
        while !has_signal_thread(child.id()) {
            assert!(
                child.try_wait().unwrap().is_none(),
                "ended before its handler ran"
            );
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no signal handler"
            );
            std::thread::sleep(Duration::from_micros(100));
        }
        let pid = rustix::process::Pid::from_child(&child);
        rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(143), "{status}");
        assert!(
            files(dir.path()).is_empty(),
            "a SIGTERM at start-up left a file"
        );
    }
}
