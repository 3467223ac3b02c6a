//! Every numeric flag of every subcommand at its type's limits (0, 1, 2^31, 2^32,
//! 2^62, 2^63, 2^64, negative, NaN), alone and in pairs of large values, in every
//! output format and to standard output: each run ends in success or one error
//! line, never a panic (exit 101) or an abort (a signal), within a few seconds or
//! still bounded by `--max-memory` and `--max-output` (a run still going after
//! [`PATIENCE`] is stopped: long accepted work is not a crash, and the guards cap
//! what it may take meanwhile).

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a run may take before it is stopped and counted as accepted work.
const PATIENCE: Duration = Duration::from_secs(3);

const LIMITS: [&str; 9] = [
    "0",
    "1",
    "2147483648",
    "4294967296",
    "4611686018427387904",
    "9223372036854775808",
    "18446744073709551616",
    "-1",
    "NaN",
];

const LARGE: [&str; 4] = [
    "2147483647",
    "4294967295",
    "4611686018427387903",
    "18446744073709551615",
];

/// What a run ended in, for the report.
enum Outcome {
    Fine,
    Stopped,
    Crash(String),
}

fn run(dir: &Path, args: &[String]) -> Outcome {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimscape"))
        .args(["--max-memory", "512M", "--max-output", "16M", "--quiet"])
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nimscape starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut stderr = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut stderr);
    let Some(status) = status else {
        return Outcome::Stopped;
    };
    let lines = stderr.lines().filter(|l| !l.trim().is_empty()).count();
    match status.code() {
        None => Outcome::Crash(format!("killed by a signal: {stderr}")),
        Some(101) => Outcome::Crash(format!("panicked: {stderr}")),
        Some(0) => Outcome::Fine,
        Some(_) if lines == 1 && stderr.starts_with("error: ") => Outcome::Fine,
        Some(code) => Outcome::Crash(format!("exit {code} with {lines} lines: {stderr}")),
    }
}

/// Commands with `{}` where the value goes; `{o}` is the output.
const SINGLE: [&str; 21] = [
    "square --m {} {o}",
    "square --m 11 --n {} {o}",
    "square --m 11 --cell {} {o}",
    "square --m 1..4 --panel {} {o}",
    "count --m {} {o}",
    "count --m 1..9 --width {} {o}",
    "automaton --frames {} {o}",
    "automaton --frames 9 --modulus {} {o}",
    "automaton --frames 9 --cell {} {o}",
    "automaton --rule60 --frames {} {o}",
    "octahedron section --n {} --level 1 {o}",
    "octahedron section --n 3 --level {} {o}",
    "octahedron section --n 3 --level 1 --size {} {o}",
    "octahedron view --n {} {o}",
    "octahedron view --n 2 --width {} {o}",
    "octahedron sweep --n 3 --frames {} {o}",
    "grundy triangular --k {} --box 9 {o}",
    "grundy triangular --k 3 --box {} {o}",
    "grundy nim --heaps {} --box 3 {o}",
    "grundy band-7-2 --k 1 --h {} --box 9 {o}",
    "--threads {} count --m 3 {o}",
];

const PAIRS: [&str; 8] = [
    "square --m {a} --n {b} {o}",
    "square --m {a} --cell {b} {o}",
    "grundy triangular --k {a} --box {b} {o}",
    "automaton --frames {a} --cell {b} {o}",
    "count --m {a}..{b} {o}",
    "explore --m {a} --zoom-levels {b} -o e.html",
    "survey triangular --param k={a} --box {b}",
    "survey --cap floor((x+z)/k) --param k={a} --box {b},{b},{b}",
];

const OUTPUTS: [&str; 6] = [
    "-o x.png",
    "-o x.svg",
    "-o x.gif",
    "-o x.csv",
    "-o x.npy",
    "-o - --format csv",
];

fn words(template: &str, fill: &[(&str, &str)]) -> Vec<String> {
    fill.iter()
        .fold(template.to_string(), |text, (key, value)| {
            text.replace(key, value)
        })
        .split_whitespace()
        .map(String::from)
        .collect()
}

fn sweep(cases: Vec<Vec<String>>) {
    let dir = tempfile::tempdir().unwrap();
    let (mut stopped, mut crashes) = (0, Vec::new());
    for args in &cases {
        match run(dir.path(), args) {
            Outcome::Fine => {}
            Outcome::Stopped => stopped += 1,
            Outcome::Crash(what) => crashes.push(format!("{}: {what}", args.join(" "))),
        }
    }
    eprintln!("{} runs, {stopped} stopped after {PATIENCE:?}", cases.len());
    assert!(crashes.is_empty(), "{}", crashes.join("\n"));
}

#[test]
fn every_numeric_flag_at_its_limits_ends_cleanly() {
    let mut cases = Vec::new();
    for template in SINGLE {
        for value in LIMITS {
            for output in OUTPUTS {
                cases.push(words(template, &[("{}", value), ("{o}", output)]));
            }
        }
    }
    for value in LIMITS {
        cases.push(words(
            "survey triangular --param k={} --box 9",
            &[("{}", value)],
        ));
        cases.push(words(
            "survey nim --param heaps={} --box 3",
            &[("{}", value)],
        ));
        cases.push(words("explore --m {} -o e.html", &[("{}", value)]));
        cases.push(words("verify --up-to {}", &[("{}", value)]));
    }
    sweep(cases);
}

#[test]
fn pairs_of_large_values_end_cleanly() {
    let mut cases = Vec::new();
    for template in PAIRS {
        for a in LARGE {
            for b in LARGE {
                let outputs: &[&str] = if template.contains("{o}") {
                    &["-o x.png", "-o x.csv", "-o - --format csv"]
                } else {
                    &[""]
                };
                for output in outputs {
                    cases.push(words(template, &[("{a}", a), ("{b}", b), ("{o}", output)]));
                }
            }
        }
    }
    sweep(cases);
}
