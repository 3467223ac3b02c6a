//! The grammar every subcommand shares: outputs, stdout, lists, provenance,
//! completions and the man page; and render in process against `--isolate`.

use super::support::{assert_one_line_error, nimscape, run_ok};
use std::path::{Path, PathBuf};

fn templates() -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "templates"].iter().collect()
}

fn png_parameters(bytes: &[u8]) -> String {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().unwrap();
    reader
        .info()
        .uncompressed_latin1_text
        .iter()
        .find(|t| t.keyword == "Parameters")
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

#[test]
fn without_o_every_figure_goes_to_output_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    for (args, file) in [
        (&["square", "--m", "11"][..], "output/square-11.png"),
        (&["square", "--m", "3,5"][..], "output/square-3-5.png"),
        (
            &["automaton", "--frames", "8"][..],
            "output/automaton-8.png",
        ),
        (
            &["octahedron", "section", "--n", "3", "--level", "5"][..],
            "output/octahedron-3-5.png",
        ),
        (
            &["--format", "svg", "count", "--m", "1..8", "-o", "-"][..],
            "",
        ),
    ] {
        let out = nimscape(dir.path()).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        if file.is_empty() {
            assert!(
                String::from_utf8_lossy(&out.stdout).starts_with("<svg")
                    || String::from_utf8_lossy(&out.stdout).starts_with("<?xml")
            );
            assert!(out.stderr.is_empty());
        } else {
            assert!(dir.path().join(file).is_file(), "{file}");
            assert_eq!(
                String::from_utf8_lossy(&out.stderr).trim(),
                format!("wrote {file}")
            );
        }
    }
}

#[test]
fn stdout_gives_the_same_bytes_as_a_file() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "6",
            "-o",
            "t.csv",
        ],
    );
    let piped = run_ok(
        dir.path(),
        &[
            "--format",
            "csv",
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "6",
            "-o",
            "-",
        ],
    );
    assert_eq!(
        piped,
        std::fs::read_to_string(dir.path().join("t.csv")).unwrap()
    );
    let out = nimscape(dir.path())
        .args(["--format", "gif", "octahedron", "view", "-o", "-"])
        .output()
        .unwrap();
    assert_one_line_error(&out, ".gif");
}

#[test]
fn lists_are_sets_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let table = run_ok(dir.path(), &["count", "--m", "4,1..3,2,8..12:2"]);
    let ms: Vec<&str> = table
        .lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(ms, ["1", "2", "3", "4", "8", "10", "12"]);
    run_ok(dir.path(), &["square", "--m", "5,3,5", "-o", "s.csv"]);
    let csv = std::fs::read_to_string(dir.path().join("s.csv")).unwrap();
    let boards: std::collections::BTreeSet<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(boards.into_iter().collect::<Vec<_>>(), ["3", "5"]);
    for args in [
        &["count", "--m", "1..20000000"][..],
        &["square", "--m", "1..9:0", "-o", "x.png"][..],
        &["automaton", "--frames", "1..100000", "-o", "x.png"][..],
    ] {
        let out = nimscape(dir.path()).args(args).output().unwrap();
        assert!(
            !out.status.success() && String::from_utf8_lossy(&out.stderr).lines().count() == 1,
            "{args:?}"
        );
    }
}

#[test]
fn provenance_is_the_same_from_the_command_line_and_a_recipe() {
    let dir = tempfile::tempdir().unwrap();
    // Flags in another order, a space-separated and an = value: the record is canonical.
    run_ok(
        dir.path(),
        &[
            "square",
            "--decompose",
            "--m=3,5,11",
            "-o",
            "a.png",
            "--threads",
            "1",
        ],
    );
    let recipe = "name = \"p\"\n[[figure]]\nname = \"b\"\nmodel = \"square\"\nformats = [\"png\"]\ndecompose = true\nm = \"3,5,11\"\n";
    std::fs::write(dir.path().join("p.toml"), recipe).unwrap();
    run_ok(dir.path(), &["render", "p.toml", "-o", "out"]);
    let a = std::fs::read(dir.path().join("a.png")).unwrap();
    let b = std::fs::read(dir.path().join("out/p/b.png")).unwrap();
    assert_eq!(png_parameters(&a), "nimscape square --m 3,5,11 --decompose");
    assert_eq!(a, b, "the CLI and a recipe write the same bytes");
    let index = std::fs::read_to_string(dir.path().join("out/p/index.md")).unwrap();
    assert!(
        index.contains("nimscape square --m 3,5,11 --decompose"),
        "{index}"
    );
}

#[test]
fn a_recipe_value_is_never_read_as_a_flag() {
    let dir = tempfile::tempdir().unwrap();
    let recipe = "[[figure]]\nname = \"g\"\nmodel = \"grundy\"\nformats = [\"csv\"]\ngame = \"--max-memory=100T\"\nbox = 4\n";
    std::fs::write(dir.path().join("r.toml"), recipe).unwrap();
    let out = nimscape(dir.path())
        .args(["render", "r.toml"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "r.toml:");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-memory=100T"));
}

#[test]
fn render_refuses_colliding_sets_and_unknown_only_names_before_drawing() {
    let dir = tempfile::tempdir().unwrap();
    let figure = "[[figure]]\nname = \"f\"\nmodel = \"square\"\nm = 3\nformats = [\"png\"]\n";
    std::fs::write(
        dir.path().join("a.toml"),
        format!("name = \"same\"\n{figure}"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.toml"),
        format!("name = \"same\"\n{figure}"),
    )
    .unwrap();
    let out = nimscape(dir.path())
        .args(["render", "a.toml", "b.toml"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "both name their set 'same'");
    let out = nimscape(dir.path())
        .args(["render", "a.toml", "--only", "f,typo"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "--only typo");
    assert!(!dir.path().join("output").exists(), "nothing drawn");
}

fn files_under(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push((
                    path.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn render_in_process_writes_the_same_bytes_as_isolated_child_processes() {
    let dir = tempfile::tempdir().unwrap();
    let t = templates();
    let t = t.to_str().unwrap();
    run_ok(dir.path(), &["render", t, "--quick", "-o", "a"]);
    run_ok(
        dir.path(),
        &["render", t, "--quick", "--isolate", "-o", "b"],
    );
    let (a, b) = (
        files_under(&dir.path().join("a")),
        files_under(&dir.path().join("b")),
    );
    assert!(a.len() > 40);
    assert_eq!(a.len(), b.len());
    // The README's count of the figure files `render templates/` writes (each
    // set's index.md and figures.tex besides): kept true as sets are added.
    let figures = a
        .iter()
        .filter(|(path, _)| !path.ends_with("index.md") && !path.ends_with("figures.tex"))
        .count();
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("({figures} figure files")),
        "README.md should say the render writes {figures} figure files"
    );
    for ((pa, ba), (pb, bb)) in a.iter().zip(&b) {
        assert_eq!(pa, pb);
        assert!(ba == bb, "{} differs", pa.display());
    }
}

#[test]
fn completions_and_man_page_print_and_survive_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let text = run_ok(dir.path(), &["completions", shell]);
        assert!(
            text.contains("nimscape") && text.contains("octahedron"),
            "{shell}"
        );
    }
    let man = run_ok(dir.path(), &["man"]);
    assert!(man.contains(".TH nimscape 1"));
    // A reader that stops early: the pipe closes, nimscape exits 0 without a word.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimscape"))
        .args(["completions", "bash"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn clap_detail_survives_on_the_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (&["square", "--mm", "3"][..], "did you mean '--m'?"),
        (&["squar"][..], "did you mean 'square'?"),
        (
            &["automaton", "--frames", "5", "--palette", "gre"][..],
            "possible values: paper, okabe-ito, viridis, hues, grey; did you mean 'grey'?",
        ),
        (&["square"][..], "--m"),
        (
            &["octahedron", "sweep", "--solid-color", "red"][..],
            "--with-view is required",
        ),
    ] {
        let output = nimscape(dir.path()).args(args).output().unwrap();
        assert_one_line_error(&output, needle);
    }
}

/// The distinct RGB colours of a PNG.
fn colours_of(bytes: &[u8]) -> std::collections::HashSet<[u8; 3]> {
    let (_, _, color, _, data) = super::support::decode_png(bytes);
    let step = if color == png::ColorType::Rgba { 4 } else { 3 };
    data.chunks(step).map(|p| [p[0], p[1], p[2]]).collect()
}

#[test]
fn one_palette_enum_colours_grundy_tables_and_automaton_frames_alike() {
    use nimscape::scene::ramp::Palette;
    let dir = tempfile::tempdir().unwrap();
    for (name, palette) in Palette::ALL {
        let classes = palette.class_colors(3).unwrap();
        let wanted = |c: nimscape::scene::Color| [c.r, c.g, c.b];
        // A Grundy table coloured by value mod 3 shows classes 1 and 2 in the palette's colours.
        run_ok(
            dir.path(),
            &[
                "grundy",
                "band-7-1",
                "--box",
                "12",
                "--palette",
                name,
                "-o",
                "t.png",
            ],
        );
        let table = colours_of(&std::fs::read(dir.path().join("t.png")).unwrap());
        // An automaton frame mod 3, one pixel per cell: exactly white and the same two colours.
        run_ok(
            dir.path(),
            &[
                "automaton",
                "--frames",
                "24",
                "--modulus",
                "3",
                "--raw",
                "--palette",
                name,
                "-o",
                "a.png",
            ],
        );
        let frame = colours_of(&std::fs::read(dir.path().join("a.png")).unwrap());
        let expected: std::collections::HashSet<[u8; 3]> =
            classes.iter().map(|&c| wanted(c)).collect();
        assert_eq!(frame, expected, "automaton --palette {name}");
        for &c in &classes[1..] {
            assert!(table.contains(&wanted(c)), "grundy --palette {name}: {c:?}");
        }
    }
}

#[test]
fn colour_flags_are_named_by_their_role_and_old_names_still_work() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = |args: &[&str]| {
        run_ok(dir.path(), args);
        std::fs::read(dir.path().join(args.last().unwrap())).unwrap()
    };
    let section = ["octahedron", "section", "--n", "3", "--level", "3"];
    let new = bytes(&[&section[..], &["--fill-color", "red", "-o", "a.svg"]].concat());
    let old = bytes(&[&section[..], &["--fill", "red", "-o", "b.svg"]].concat());
    assert_eq!(new, old, "--fill is an alias of --fill-color");
    let view = ["octahedron", "view", "--n", "1", "--width", "120"];
    let new = bytes(&[&view[..], &["--solid-color", "red", "-o", "a.svg"]].concat());
    let old = bytes(&[&view[..], &["--color", "red", "-o", "b.svg"]].concat());
    assert_eq!(new, old, "--color is an alias of --solid-color");
}

/// A command's stderr lines, with the run's exit status.
fn stderr_of(dir: &Path, args: &[&str]) -> (bool, String) {
    let out = nimscape(dir).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn messages_name_the_way_out_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let board = "4611686018427387903";
    let cases: &[(&[&str], &str)] = &[
        // A flag at the end of the line, without its value.
        (&["square", "--m"], "error: --m needs a value after it: --m <M>"),
        // A subcommand's flag written before the subcommand.
        (
            &["--m", "11", "square"],
            "error: --m is an option of 'square': write it after the command (nimscape square --m ...)",
        ),
        (
            &["--level", "5", "octahedron", "section", "--n", "3"],
            "error: --level is an option of 'octahedron section': write it after the command",
        ),
        // Words where digits belong.
        (
            &["grundy", "triangular", "--k", "three", "--box", "3"],
            "error: invalid value 'three' for --k: not a whole number; write digits, e.g. 3",
        ),
        // Past u64: the limit, not "not a whole number".
        (
            &["count", "--m", "18446744073709551616"],
            "'18446744073709551616' is over 18446744073709551615, the largest value taken (2^64 - 1)",
        ),
        // A board past 2^31 a side: the window route, with a window that works.
        (
            &["square", "--m", board, "-o", "x.png"],
            "a board up to 2^62 is drawn through a window: --window 1..512,1..512 for its first cells, or --window 1..4611686018427387903,1..4611686018427387903 --bin 9007199254740992 for all of it",
        ),
        // The Grundy memory refusal names the box that fits.
        (
            &["--max-memory", "100M", "grundy", "triangular", "--k", "3", "--box", "1000", "-o", "x.csv"],
            "use --box 473 or less; or raise --max-memory",
        ),
        // --log without a chart.
        (
            &["count", "--m", "1..64", "--log"],
            "error: --log draws the chart on logarithmic axes, but a table or data has none; give -o count.png",
        ),
        (
            &["count", "--m", "1..64", "--log", "-o", "c.csv"],
            "--log draws the chart on logarithmic axes",
        ),
        // A bare width that cannot be pixels says what it is and how to write mm.
        (
            &["square", "--m", "1..24", "--width", "60", "-o", "s.png"],
            "(a number alone is px; for print write 60mm)",
        ),
        // A caption past a few lines.
        (
            &["square", "--m", "11", "--caption", &"word ".repeat(20_000), "-o", "c.pdf"],
            "100000 characters; a caption holds at most 1000",
        ),
    ];
    for (args, needle) in cases {
        let out = nimscape(dir.path()).args(*args).output().unwrap();
        assert_one_line_error(&out, needle);
    }
    // The window it names is drawn.
    run_ok(
        dir.path(),
        &[
            "square",
            "--m",
            board,
            "--window",
            &format!("1..{board},1..{board}"),
            "--bin",
            "9007199254740992",
            "-o",
            "w.png",
        ],
    );
    // The box it names fits.
    run_ok(
        dir.path(),
        &[
            "--max-memory",
            "100M",
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "473",
            "--time",
        ],
    );
    // Nothing was written by the refusals.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n != "w.png")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_bare_width_says_it_is_pixels_and_a_split_unit_is_joined() {
    let dir = tempfile::tempdir().unwrap();
    // Accepted (a thumbnail is a fine thing to ask for), with a note after the work.
    let (ok, stderr) = stderr_of(
        dir.path(),
        &["square", "--m", "11", "--width", "85", "-o", "a.png"],
    );
    assert!(ok, "{stderr}");
    assert_eq!(
        stderr,
        "wrote a.png\nnote: --width 85 is 85 px; for print write --width 85mm (or in, pt)\n"
    );
    // `--width 85 mm` as the shell splits it is 85mm; `--width=85 mm` too.
    for args in [
        &["square", "--m", "11", "--width", "85", "mm", "-o", "b.png"][..],
        &["square", "--m", "11", "--width=85", "mm", "-o", "c.png"][..],
        &["square", "--m", "11", "--width", "85mm", "-o", "d.png"][..],
    ] {
        let (ok, stderr) = stderr_of(dir.path(), args);
        assert!(ok && !stderr.contains("note"), "{args:?}: {stderr}");
    }
    let b = std::fs::read(dir.path().join("b.png")).unwrap();
    assert_eq!(b, std::fs::read(dir.path().join("d.png")).unwrap());
    assert_eq!(b, std::fs::read(dir.path().join("c.png")).unwrap());
    // A unit word after anything but a length flag's number stays an error.
    let out = nimscape(dir.path())
        .args(["square", "--m", "11", "mm"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "'mm'");
    // Quiet: no note.
    let (ok, stderr) = stderr_of(
        dir.path(),
        &["-q", "square", "--m", "11", "--width", "85", "-o", "e.png"],
    );
    assert!(ok && stderr.is_empty(), "{stderr}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_folder_that_cannot_be_written_is_refused_before_any_drawing() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    // Root writes anywhere its mode bits say no; /proc/1 refuses even root.
    let folder = if rustix::process::geteuid().is_root() {
        PathBuf::from("/proc/1")
    } else {
        let folder = dir.path().join("ro");
        std::fs::create_dir(&folder).unwrap();
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).unwrap();
        folder
    };
    // A board of seconds to draw: refused at once, not after the drawing.
    let target = folder.join("x.png");
    let started = std::time::Instant::now();
    let out = nimscape(dir.path())
        .args(["square", "--m", "4095", "-o", target.to_str().unwrap()])
        .output()
        .unwrap();
    assert_one_line_error(
        &out,
        &format!(
            "output folder '{}' is not writable (permission denied); choose another -o",
            folder.display()
        ),
    );
    // The drawing takes over a second; the refusal milliseconds (a generous bound).
    println!("refused in {:?}", started.elapsed());
    assert!(!target.exists());
}

#[test]
fn refusals_come_before_the_work_they_refuse() {
    let dir = tempfile::tempdir().unwrap();
    // A board whose SVG runs pass the limit: refused from its signatures, before
    // the P-set is computed (1.2 s of model work before).
    let out = nimscape(dir.path())
        .args(["square", "--m", "16383", "-o", "x.svg"])
        .output()
        .unwrap();
    assert_one_line_error(
        &out,
        "would need about 8.2 GiB of memory, over the limit of 2.0 GiB",
    );
    // A render's survey that would be refused is refused with the recipe, before
    // its figures are drawn: nothing is written.
    std::fs::write(
        dir.path().join("sr.toml"),
        "name = \"sr\"\n[[figure]]\nname = \"big\"\nmodel = \"square\"\nm = 4095\nformats = [\"png\"]\n\n[[survey]]\nname = \"too-many\"\ngame = \"nim\"\nparam = \"heaps=6\"\nbox = \"14\"\nshift = \"-3..3\"\n",
    )
    .unwrap();
    let out = nimscape(dir.path())
        .args(["render", "sr.toml", "--out", "out"])
        .output()
        .unwrap();
    assert_one_line_error(
        &out,
        "survey 'too-many': the rule search of nim heaps=6 would test 117665 rules",
    );
    assert!(
        !dir.path().join("out").exists(),
        "the render drew before refusing"
    );
    // A game-file solve of years is refused with its count of options.
    std::fs::write(
        dir.path().join("g.toml"),
        "heaps = [\"x\", \"y\"]\n[[move]]\nlower = \"x\"\n",
    )
    .unwrap();
    let out = nimscape(dir.path())
        .args([
            "grundy",
            "--game",
            "g.toml",
            "--box",
            "100000000,0",
            "-o",
            "g.csv",
        ])
        .output()
        .unwrap();
    assert_one_line_error(
        &out,
        "g: the box 0..100000000 x 0..0 has 5000000050000000 options to try (about 4 years at about 30 ns each)",
    );
    assert!(!dir.path().join("g.csv").exists());
}

#[test]
fn a_refusal_after_long_work_is_the_only_line_on_stderr() {
    // Without a terminal, work over a second ends with a summary line naming its
    // file; a refusal at the end of such work must not print it (the file was
    // never written). Over --max-output is found once the CSV grows past it,
    // after the solve (seconds; the watcher's own test in src/cli/progress.rs
    // covers the rule on any machine).
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args([
            "--max-output",
            "1K",
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "700",
            "-o",
            "t.csv",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| !(l.starts_with("t.csv: ") && l.contains("% after ")))
        .collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].starts_with("error: ")
            && lines[0].contains("the output grew past 1.0 KiB (the --max-output limit)"),
        "{stderr}"
    );
    assert!(!dir.path().join("t.csv").exists());
}
