//! Ctrl-C during long work: the request's control is cancelled, the work stops at
//! its next check, and the process exits 130 within half a second with no file
//! left behind (no temporary file, no half-written output).

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a run may take to stop after SIGINT.
const PROMPTLY: Duration = Duration::from_millis(500);

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
fn interrupt(child: &mut Child, busy: impl Fn() -> bool) -> (Duration, Option<i32>) {
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
            "floor((x+z)^2/k)",
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
