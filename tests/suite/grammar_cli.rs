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
