//! The hardening guarantees of docs/reliability.md, one reproduction each: reports on
//! stdout survive closed pipes and full devices, resource bombs end in one line,
//! values are checked whether used or not, temp files never outlive a run.

use super::support::{assert_one_line_error, nimscape};
use std::process::Stdio;

/// Runs `args` with stdout a pipe whose reader has already gone.
fn with_closed_pipe(args: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimscape"))
        .current_dir(dir.path())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// Runs `args` with stdout on /dev/full.
fn with_full_device(args: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full exists on Linux");
    std::process::Command::new(assert_cmd::cargo::cargo_bin("nimscape"))
        .current_dir(dir.path())
        .args(args)
        .stdout(Stdio::from(full))
        .output()
        .unwrap()
}

const REPORTS: &[&[&str]] = &[
    &["verify", "--up-to", "16"],
    &["count", "--m", "1..5000"],
    &["count", "--check", "--check-up-to", "64"],
    &[
        "grundy",
        "triangular",
        "--k",
        "3",
        "--box",
        "8",
        "--compare-nim-sum",
    ],
    &[
        "grundy",
        "triangular",
        "--k",
        "3",
        "--box",
        "8",
        "--find-shift",
        "0..3",
    ],
    &["grundy", "triangular", "--k", "3", "--box", "8", "--time"],
    &["automaton", "--frames", "8", "--check"],
    &["--help"],
    &["grundy", "--help"],
    &["--version"],
];

#[test]
fn a_closed_pipe_is_a_quiet_success() {
    for args in REPORTS {
        let out = with_closed_pipe(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[test]
fn a_full_device_is_one_error_line() {
    for args in REPORTS {
        let out = with_full_device(args);
        assert_one_line_error(&out, "writing to standard output");
    }
}

#[test]
fn slices_fixing_every_coordinate_are_refused_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &[
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "6",
            "--slice",
            "x=1,y=0,z=3",
        ][..],
        &[
            "grundy",
            "nim",
            "--heaps",
            "2",
            "--box",
            "6",
            "--slice",
            "h1=1,h2=0",
        ],
        &[
            "grundy",
            "six-sided",
            "--slice",
            "x1=1,x2=0,x3=1,x4=0,x5=1,x6=0",
        ],
    ] {
        let out = nimscape(dir.path())
            .args(args)
            .args(["-o", "o.png"])
            .output()
            .unwrap();
        assert_one_line_error(&out, "0 free coordinates");
    }
}

#[test]
fn resource_bombs_end_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--threads", "4294967296", "count", "--m", "3"],
            "threads per core",
        ),
        (
            &[
                "square",
                "--m",
                "5",
                "--margin",
                "4294967295",
                "-o",
                "m.png",
            ],
            "0 px to 4096 px",
        ),
        (
            &[
                "octahedron",
                "section",
                "--n",
                "3",
                "--level",
                "3",
                "--margin",
                "4294967295",
                "-o",
                "s.png",
            ],
            "0 px to 4096 px",
        ),
        (
            &[
                "octahedron",
                "sweep",
                "--n",
                "3",
                "--gap",
                "99999999",
                "-o",
                "s.gif",
            ],
            "0 px to 4096 px",
        ),
        (
            &["--max-memory", "1e30", "count", "--m", "3"],
            "largest size",
        ),
        (
            &[
                "octahedron",
                "view",
                "--plane-opacity",
                "NaN",
                "-o",
                "v.png",
            ],
            "--plane-opacity",
        ),
        (
            &[
                "octahedron",
                "view",
                "--plane-opacity",
                "1.5",
                "-o",
                "v.png",
            ],
            "--plane-opacity",
        ),
        (
            &[
                "octahedron",
                "view",
                "--above-opacity",
                "inf",
                "-o",
                "v.png",
            ],
            "--above-opacity",
        ),
        (
            &["octahedron", "sweep", "--elevation", "NaN", "-o", "v.gif"],
            "--elevation",
        ),
        (
            &["octahedron", "sweep", "--azimuth", "NaN", "-o", "v.gif"],
            "--azimuth",
        ),
        (
            &[
                "octahedron",
                "view",
                "--light",
                "1e308,1e308,1e308",
                "-o",
                "v.png",
            ],
            "--light",
        ),
        (
            &[
                "grundy",
                "triangular",
                "--k",
                "3",
                "--box",
                "100000",
                "-o",
                "x.csv",
            ],
            // The box that fits, not just "smaller".
            "use --box 1313 or less",
        ),
        (
            &[
                "--max-memory",
                "1M",
                "grundy",
                "--cap",
                "0",
                "--box",
                "40000,0,40000",
                "-o",
                "x.csv",
            ],
            "use a smaller --box",
        ),
        (
            &["grundy", "min-half", "--box", "4294967295", "-o", "x.csv"],
            "use --box 1655 or less",
        ),
        (
            &[
                "grundy",
                "--cap",
                "0",
                "--box",
                "4000000000,0,0",
                "-o",
                "x.csv",
            ],
            "use a smaller --box",
        ),
        (
            &[
                "grundy",
                "nim",
                "--heaps",
                "4294967295",
                "--box",
                "1",
                "-o",
                "x.csv",
            ],
            "more than 32",
        ),
        (
            &[
                "grundy",
                "nim",
                "--heaps",
                "100000000",
                "--box",
                "1",
                "-o",
                "x.csv",
            ],
            "more than 32",
        ),
        (
            &[
                "grundy", "nim", "--heaps", "20", "--box", "3", "-o", "x.csv",
            ],
            "in each of 20 coordinates",
        ),
        (
            &["count", "--m", "1..9000000,9000001..18000000"],
            "more than 10000000",
        ),
        (&["square", "--m", "65536", "-o", "x.csv"], "on disk"),
        (
            &[
                "automaton",
                "--frames",
                "1..1000",
                "--modulus",
                "exact",
                "-o",
                "x.csv",
            ],
            "on disk",
        ),
        (
            &["--max-output", "1K", "square", "--m", "64", "-o", "x.json"],
            "--max-output",
        ),
    ];
    for (args, needle) in cases {
        let out = nimscape(dir.path())
            .args(*args)
            .timeout(std::time::Duration::from_secs(30))
            .output()
            .unwrap();
        assert_one_line_error(&out, needle);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.len() < 400, "{args:?}: a long line: {stderr}");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "files left behind"
    );
}

#[test]
fn rayon_threads_from_the_environment_are_bounded_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .env("RAYON_NUM_THREADS", "100000")
        .args(["count", "--m", "3"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "RAYON_NUM_THREADS 100000");
    let out = nimscape(dir.path())
        .env("RAYON_NUM_THREADS", "2")
        .args(["count", "--m", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
}

#[test]
fn a_deep_cap_expression_is_refused_not_a_stack_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let deep = format!("{}x{}", "(".repeat(6000), ")".repeat(6000));
    let nested = format!("{}x{}", "floor(sqrt(".repeat(40), "))".repeat(40));
    let chain = vec!["1"; 300].join("**");
    for (cap, needle) in [
        (&deep, "characters"),
        (&nested, "nesting"),
        (&chain, "nesting"),
    ] {
        let out = nimscape(dir.path())
            .args(["grundy", "--cap", cap, "--box", "3", "--time"])
            .output()
            .unwrap();
        assert_one_line_error(&out, needle);
    }
}

#[test]
fn a_failure_while_computing_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    // The cap divides by zero at (0, 0): found while solving, after the output was named.
    let out = nimscape(dir.path())
        .args(["grundy", "--cap", "1/(x+z)", "--box", "3", "-o", "x.csv"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "divides by zero");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn an_interrupted_write_removes_its_temporary_file() {
    use std::time::{Duration, Instant};
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let dir = tempfile::tempdir().unwrap();
        // A large CSV: long enough to be caught while writing.
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimscape"))
            .current_dir(dir.path())
            .args([
                "--max-output",
                "100G",
                "square",
                "--m",
                "8192",
                "-o",
                "x.csv",
            ])
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        let part = loop {
            let found = std::fs::read_dir(dir.path())
                .unwrap()
                .filter_map(|e| e.ok())
                .find(|e| e.file_name().to_string_lossy().ends_with(".part"));
            if let Some(entry) = found {
                break entry.path();
            }
            if let Some(status) = child.try_wait().unwrap() {
                panic!("finished ({status}) before it could be interrupted");
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no temp file appeared"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let status = std::process::Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let exit = child.wait().unwrap();
        assert_eq!(exit.code(), Some(code), "SIG{signal}");
        assert!(!part.exists(), "SIG{signal} left {}", part.display());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}

#[test]
fn recipe_values_are_never_read_as_flags() {
    let cases: &[(&str, &str)] = &[
        (
            "[[figure]]\nname = \"a\"\nmodel = \"grundy\"\ngame = \"--max-memory=100T\"\nbox = \"3\"\n",
            "r.toml:4: figure 'a': unknown game '--max-memory=100T'",
        ),
        (
            "[[figure]]\nname = \"a\"\nmodel = \"grundy\"\ngame = \"--threads=100000\"\nbox = \"3\"\n",
            "r.toml:4: figure 'a': unknown game '--threads=100000'",
        ),
        // A value of a keyed option stays that option's value: here a (bad) cap.
        (
            "[[figure]]\nname = \"a\"\nmodel = \"grundy\"\ncap = \"--threads=100000\"\nbox = \"3\"\nformats = [\"png\"]\n",
            "cap expression",
        ),
    ];
    for (text, needle) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("r.toml"), text).unwrap();
        let out = nimscape(dir.path())
            .args(["render", "--quiet", "--out", "out", "r.toml"])
            .output()
            .unwrap();
        assert_one_line_error(&out, needle);
    }
}

#[test]
fn an_interrupted_isolated_render_stops_its_children() {
    use std::time::{Duration, Instant};
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let dir = tempfile::tempdir().unwrap();
        // One slow figure (a large CSV written by a child process).
        std::fs::write(
            dir.path().join("slow.toml"),
            "name = \"slow\"\n[defaults]\nformats = [\"csv\"]\n\n[[figure]]\nname = \"big\"\nmodel = \"square\"\nm = 8192\n",
        )
        .unwrap();
        let mut render = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimscape"))
            .current_dir(dir.path())
            .args([
                "--max-output",
                "100G",
                "render",
                "slow.toml",
                "--isolate",
                "--quiet",
                "--out",
                "out",
            ])
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        // Wait until the child writes its temporary file: it is running then.
        let part = loop {
            let found = std::fs::read_dir(dir.path().join("out/slow"))
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok())
                .find(|e| e.file_name().to_string_lossy().ends_with(".part"));
            if let Some(entry) = found {
                break entry.path();
            }
            if let Some(status) = render.try_wait().unwrap() {
                panic!("finished ({status}) before it could be interrupted");
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no child started writing"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        // Only the parent gets the signal (as from `kill`, not a terminal's Ctrl-C).
        let status = std::process::Command::new("kill")
            .args([format!("-{signal}"), render.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let exit = render.wait().unwrap();
        assert_eq!(exit.code(), Some(code), "SIG{signal}");
        // The child was stopped (it removed its own temporary file) before render exited.
        assert!(!part.exists(), "SIG{signal} left {}", part.display());
        std::thread::sleep(Duration::from_millis(300));
        // An interrupted render removes the set folders it made and left empty,
        // so a missing folder is a clean one.
        let left: Vec<_> = std::fs::read_dir(dir.path().join("out/slow"))
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name())
            .filter(|n| {
                n.to_string_lossy().ends_with(".part") || n.to_string_lossy().ends_with(".csv")
            })
            .collect();
        assert!(
            left.is_empty(),
            "SIG{signal}: a child kept writing: {left:?}"
        );
    }
}

/// Runs `args` in a fresh folder with descriptor 1 closed, as `nimscape ... >&-`.
fn with_stdout_closed(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimscape"));
    command.current_dir(dir).args(args).stderr(Stdio::piped());
    // SAFETY: close(2) is async-signal-safe, and nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            rustix::io::close(1);
            Ok(())
        });
    }
    command.output().unwrap()
}

#[test]
fn closed_stdout_is_an_error_not_a_silent_success() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["square", "--m", "5", "-o", "-", "--format", "csv"][..],
        &["count", "--m", "1..5"],
        &[
            "grundy",
            "nim",
            "--heaps",
            "2",
            "--box",
            "3",
            "--compare-nim-sum",
        ],
    ] {
        let out = with_stdout_closed(dir.path(), args);
        assert_one_line_error(&out, "standard output is closed");
    }
    // A redirection to /dev/null is a place to write, not a closed output.
    let status = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimscape"))
        .current_dir(dir.path())
        .args(["count", "--m", "1..5"])
        .stdout(std::fs::File::create("/dev/null").unwrap())
        .status()
        .unwrap();
    assert!(status.success());
    // Nor is /dev/null opened for reading and writing, as Python's
    // `stdout=subprocess.DEVNULL` and most job runners open it: that looks just
    // like the descriptor the Rust runtime puts in place of a closed one.
    for args in [
        &["count", "--m", "5"][..],
        &["square", "--m", "5", "-o", "-", "--format", "csv"],
    ] {
        let devnull = std::fs::File::options()
            .read(true)
            .write(true)
            .open("/dev/null")
            .unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimscape"))
            .current_dir(dir.path())
            .args(args)
            .stdout(std::process::Stdio::from(devnull))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stderr.is_empty(), "{args:?}: {:?}", out.stderr);
    }
}

#[test]
fn control_characters_in_text_are_refused_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    for (flag, value, args) in [
        ("--caption", "a\u{1}b", &["square", "--m", "11"][..]),
        ("--caption", "two\nlines", &["square", "--m", "11"]),
        ("--axis-names", "m,\tg", &["count", "--m", "1..5"]),
        (
            "--caption",
            "a\u{7f}",
            &["grundy", "nim", "--heaps", "2", "--box", "4"],
        ),
    ] {
        for file in ["x.svg", "x.png", "x.pdf"] {
            let out = nimscape(dir.path())
                .args(args)
                .args([flag, value, "-o", file])
                .output()
                .unwrap();
            assert_one_line_error(&out, &format!("{flag} holds a control character"));
            assert!(!dir.path().join(file).exists(), "{file} was written");
        }
    }
}

#[test]
fn text_beyond_latin_1_goes_into_an_itxt_chunk() {
    let dir = tempfile::tempdir().unwrap();
    for file in ["dash.png", "dash.apng"] {
        let m = if file.ends_with(".apng") {
            "1..3"
        } else {
            "11"
        };
        let out = nimscape(dir.path())
            .args(["square", "--m", m, "--caption", "R(m,m) – ∑", "-o", file])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let bytes = std::fs::read(dir.path().join(file)).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let reader = decoder.read_info().unwrap();
        let info = reader.info();
        let parameters = info
            .utf8_text
            .iter()
            .find(|chunk| chunk.keyword == "Parameters")
            .expect("the command line in an iTXt chunk");
        assert!(parameters.get_text().unwrap().contains("R(m,m) – ∑"));
        // Latin-1 text stays in tEXt, where every reader finds it.
        assert!(info
            .uncompressed_latin1_text
            .iter()
            .any(|c| c.keyword == "Software"));
    }
}

#[test]
fn an_error_quotes_at_most_a_line_of_what_was_typed() {
    let dir = tempfile::tempdir().unwrap();
    let colour = "x".repeat(10_001);
    let out = nimscape(dir.path())
        .args(["square", "--m", "5", "--p-color", &colour, "-o", "x.png"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "is not a colour");
    assert!(out.stderr.len() < 300, "{} bytes", out.stderr.len());
}

#[test]
fn a_value_with_a_newline_still_gives_one_error_line() {
    // The value is quoted back, its newline escaped: it printed two lines.
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (&["square", "--m", "1\n2", "-o", "x.png"][..], "'1\\n2'"),
        (
            &[
                "automaton",
                "--frames",
                "3",
                "--palette",
                "a\r\nb",
                "-o",
                "x.png",
            ][..],
            "'a\\r\\nb'",
        ),
    ] {
        let out = nimscape(dir.path()).args(args).output().unwrap();
        assert_one_line_error(&out, needle);
    }
}

#[test]
fn recipes_are_regular_files_of_bounded_size() {
    let dir = tempfile::tempdir().unwrap();
    let sets = dir.path().join("sets");
    std::fs::create_dir(&sets).unwrap();
    // A FIFO blocked the render for ever; /dev/zero was read until memory ran out.
    let fifo = sets.join("f.toml");
    make_fifo(&fifo);
    for args in [&["render", "sets"][..], &["render", "sets/f.toml"]] {
        let out = nimscape(dir.path())
            .args(args)
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        assert_one_line_error(&out, "not a regular file");
    }
    std::fs::remove_file(&fifo).unwrap();
    std::os::unix::fs::symlink("/dev/zero", sets.join("z.toml")).unwrap();
    let out = nimscape(dir.path())
        .args(["render", "sets"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_one_line_error(&out, "not a regular file");
    std::fs::remove_file(sets.join("z.toml")).unwrap();
    std::fs::write(sets.join("big.toml"), "#".repeat(2 << 20)).unwrap();
    let out = nimscape(dir.path())
        .args(["render", "sets"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "larger than 1024 KiB");
}

#[test]
fn a_refused_run_leaves_no_folder_it_made() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("kept")).unwrap();
    for target in ["new/deeper/x.png", "kept/new/x.png", "fr/m-%03d.png"] {
        let m = if target.contains('%') {
            "1..3"
        } else {
            "100000"
        };
        let out = nimscape(dir.path())
            .args(["--max-memory", "1M", "square", "--m", m, "--cell", "4000"])
            .args(["-o", target])
            .output()
            .unwrap();
        assert!(!out.status.success());
    }
    let out = nimscape(dir.path())
        .args([
            "--max-output",
            "1K",
            "explore",
            "--m",
            "11",
            "-o",
            "e/x.html",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, "max-output");
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["kept"]);
    assert_eq!(
        std::fs::read_dir(dir.path().join("kept")).unwrap().count(),
        0
    );
    // A written file keeps the folders made for it; the explorer is an ordinary file.
    let out = nimscape(dir.path())
        .args(["explore", "--m", "11", "-o", "e/f/x.html"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mode = std::fs::metadata(dir.path().join("e/f/x.html")).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777,
        0o644
    );
}

#[test]
fn an_output_link_is_written_through_and_special_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("real.svg"), "old").unwrap();
    std::os::unix::fs::symlink("real.svg", dir.path().join("link.svg")).unwrap();
    let out = nimscape(dir.path())
        .args(["square", "--m", "5", "-o", "link.svg"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let link = std::fs::symlink_metadata(dir.path().join("link.svg")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    let written = std::fs::read_to_string(dir.path().join("real.svg")).unwrap();
    assert!(
        written.starts_with("<?xml") || written.starts_with("<svg"),
        "{written:.40}"
    );

    let fifo = dir.path().join("pipe.png");
    make_fifo(&fifo);
    let out = nimscape(dir.path())
        .args(["square", "--m", "5", "-o", "pipe.png"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_one_line_error(&out, "is not a regular file");
    let still = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(
        rustix::fs::FileType::from_raw_mode(std::os::unix::fs::MetadataExt::mode(&still))
            == rustix::fs::FileType::Fifo
    );
}

/// A named pipe at `path` (what `mkfifo` makes).
fn make_fifo(path: &std::path::Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
}
