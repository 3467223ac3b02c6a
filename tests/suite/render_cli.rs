//! `nimscape render`: recipes, galleries, LaTeX snippets, bad recipes.

use super::support::{assert_one_line_error, nimscape};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn templates() -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "templates"].iter().collect()
}

fn files_under(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.insert(
                    path.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&path).unwrap(),
                );
            }
        }
    }
    files
}

#[test]
fn every_template_renders_quickly_with_gallery_and_latex() {
    let dir = tempfile::tempdir().unwrap();
    nimscape(dir.path())
        .args(["render", "--quick", "--quiet", "--out", "out"])
        .arg(templates())
        .assert()
        .success();
    let recipes: Vec<nimscape::recipe::Recipe> = nimscape::recipe::collect(&[templates()]).unwrap();
    assert!(recipes.len() >= 5);
    for recipe in &recipes {
        let folder = dir.path().join("out").join(&recipe.name);
        for figure in &recipe.figures {
            for format in &figure.formats {
                let file = folder.join(format!("{}.{}", figure.name, format.extension()));
                assert!(
                    std::fs::metadata(&file).is_ok_and(|m| m.len() > 0),
                    "{} missing",
                    file.display()
                );
            }
        }
        let index = std::fs::read_to_string(folder.join("index.md")).unwrap();
        let tex = std::fs::read_to_string(folder.join("figures.tex")).unwrap();
        for figure in &recipe.figures {
            assert!(
                index.contains(&format!("## {}", figure.name)),
                "{} not in the gallery",
                figure.name
            );
            // Pictures are in figures.tex, animations by their last frame; data is not.
            let drawn = figure
                .formats
                .iter()
                .any(|f| matches!(f.extension(), "pdf" | "png" | "gif" | "apng"));
            assert_eq!(
                tex.contains(&format!("fig:{}:{}", recipe.name, figure.name)),
                drawn
            );
        }
        assert!(index.contains("```sh\nnimscape "));
    }
}

#[test]
fn rerendering_gives_the_same_bytes_and_only_renders_a_subset() {
    let dir = tempfile::tempdir().unwrap();
    let recipe = templates().join("okubo2026.toml");
    for out in ["a", "b"] {
        nimscape(dir.path())
            .args(["render", "--quick", "--quiet", "--out", out])
            .arg(&recipe)
            .assert()
            .success();
    }
    let (a, b) = (
        files_under(&dir.path().join("a")),
        files_under(&dir.path().join("b")),
    );
    assert!(a.len() > 20);
    for (name, bytes) in &a {
        // The gallery names the recipe file, which is the same; everything must match.
        assert!(
            Some(bytes) == b.get(name),
            "{} differs between two renders",
            name.display()
        );
    }
    nimscape(dir.path())
        .args([
            "render",
            "--quick",
            "--quiet",
            "--out",
            "c",
            "--only",
            "figure-2,count",
        ])
        .arg(&recipe)
        .assert()
        .success();
    let c = files_under(&dir.path().join("c"));
    let names: Vec<String> = c
        .keys()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["count.pdf", "count.png", "figure-2.pdf", "figure-2.png"]
    );
}

const GOOD_FIGURE: &str =
    "[[figure]]\nname = \"ok\"\nmodel = \"square\"\nm = 5\nformats = [\"png\"]\n";

#[test]
fn bad_recipes_name_file_line_and_key_and_write_nothing() {
    let cases: &[(&str, &str)] = &[
        ("title = \"x\n", "bad.toml:1: TOML"),
        (
            "[[figure]]\nname = \"a\"\nmodel = \"square\"\nmm = 5\n",
            "bad.toml:4: figure 'a': 'mm' is not a parameter of model 'square'; allowed: m, n",
        ),
        (
            "[[figure]]\nname = \"a\"\nmodel = \"square\"\nm = true\n",
            "bad.toml:4: figure 'a': m takes a value",
        ),
        (
            "[[figure]]\nname = \"a\"\nmodel = \"squares\"\nm = 5\n",
            "bad.toml:1: figure 'a': unknown model 'squares'; allowed: square",
        ),
        (
            "[[figure]]\nname = \"a\"\nmodel = \"square\"\n\nm = 0\n",
            "bad.toml:5: figure 'a': invalid value '0' for m: values start at 1",
        ),
        (
            "[[figure]]\nname = \"a\"\nmodel = \"square\"\nm = 5\ndecompose = \"yes\"\n",
            "bad.toml:5: figure 'a': decompose is a switch",
        ),
        (
            "[[figure]]\nname = \"a\"\nmodel = \"octahedron section\"\nn = 4\nlevel = 17\n",
            "bad.toml:5: figure 'a': level must be at most 2^n = 16",
        ),
    ];
    for (text, needle) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("bad.toml"),
            format!("{GOOD_FIGURE}\n{text}"),
        )
        .unwrap();
        // Lines shift by the good figure in front.
        let shift = GOOD_FIGURE.lines().count() + 1;
        let needle = shift_line(needle, shift);
        let output = nimscape(dir.path())
            .args(["render", "--quiet", "--out", "out", "bad.toml"])
            .output()
            .unwrap();
        assert_one_line_error(&output, &needle);
        let written = if dir.path().join("out").exists() {
            files_under(&dir.path().join("out")).len()
        } else {
            0
        };
        // Only a figure that fails while drawing can come after the good one has been drawn.
        assert!(
            written == 0 || needle.contains("(a.png)"),
            "{needle}: files were written"
        );
    }
}

fn shift_line(needle: &str, by: usize) -> String {
    let (file, rest) = needle.split_once(':').unwrap();
    let (line, rest) = rest.split_once(':').unwrap();
    format!("{file}:{}:{rest}", line.parse::<usize>().unwrap() + by)
}

#[test]
fn keep_going_renders_the_good_figures() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{GOOD_FIGURE}\n[[figure]]\nname = \"huge\"\nmodel = \"square\"\nm = 60000\nformats = [\"png\"]\n");
    std::fs::write(dir.path().join("r.toml"), text).unwrap();
    let output = nimscape(dir.path())
        .args([
            "render",
            "--quiet",
            "--keep-going",
            "--out",
            "out",
            "r.toml",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&output, "r.toml:7: figure 'huge': huge.png: ");
    // A recipe names the key to change, not the flag.
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(" raw") && !stderr.contains("--raw"),
        "{stderr}"
    );
    assert!(dir.path().join("out/r/ok.png").is_file());
    assert!(!dir.path().join("out/r/huge.png").exists());
}

#[test]
fn unwritable_output_root_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("r.toml"), GOOD_FIGURE).unwrap();
    std::fs::write(dir.path().join("plain"), b"").unwrap();
    let output = nimscape(dir.path())
        .args(["render", "--quiet", "--out", "plain", "r.toml"])
        .output()
        .unwrap();
    assert_one_line_error(&output, "plain");
}

#[test]
fn the_latex_snippet_compiles_where_a_tex_engine_is_present() {
    let Ok(which) = std::process::Command::new("sh")
        .args(["-c", "command -v pdflatex"])
        .output()
    else {
        return;
    };
    if !which.status.success() {
        // CI installs TeX (.ci/run): there a missing engine is a failure, not a skip.
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "pdflatex is missing; CI must install it (texlive-latex-base, see .ci/run)"
        );
        eprintln!("skipped: no pdflatex on this machine");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    nimscape(dir.path())
        .args(["render", "--quick", "--quiet", "--out", "out"])
        .arg(templates().join("miyadera-tables.toml"))
        .assert()
        .success();
    let folder = dir.path().join("out/miyadera-tables");
    std::fs::write(
        folder.join("doc.tex"),
        "\\documentclass{article}\\usepackage{graphicx}\\begin{document}\\input{figures.tex}\\end{document}\n",
    )
    .unwrap();
    let status = std::process::Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", "doc.tex"])
        .current_dir(&folder)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stdout)
    );
}

#[test]
fn an_animation_in_a_recipe_gets_a_still_for_latex_and_apng_is_a_format() {
    let dir = tempfile::tempdir().unwrap();
    let recipe = "[[figure]]\nname = \"growth\"\nmodel = \"square\"\nformats = [\"gif\", \"apng\"]\nm = \"3,5,11\"\npanel = 96\n\n[[figure]]\nname = \"still\"\nmodel = \"square\"\nformats = [\"gif\", \"png\"]\nm = \"3,5\"\npanel = 64\n";
    std::fs::write(dir.path().join("anim.toml"), recipe).unwrap();
    nimscape(dir.path())
        .args(["render", "--quiet", "-o", "out", "anim.toml"])
        .assert()
        .success();
    let folder = dir.path().join("out/anim");
    let apng = std::fs::read(folder.join("growth.apng")).unwrap();
    assert!(apng.windows(4).any(|w| w == b"acTL"), "an animated PNG");
    // The still is the last frame: R(11,11), as the last frame of the APNG.
    let still = std::fs::read(folder.join("growth-last-frame.png")).unwrap();
    let mut direct = nimscape(dir.path());
    direct.args(["square", "--m", "11", "--panel", "96", "-o", "eleven.png"]);
    direct.assert().success();
    let eleven = std::fs::read(dir.path().join("eleven.png")).unwrap();
    let pixels = |bytes: &[u8]| super::support::decode_png(bytes).4;
    assert_eq!(
        pixels(&still),
        pixels(&eleven),
        "the still is the last board"
    );
    // A figure with a still format of its own gets no extra file.
    assert!(!folder.join("still-last-frame.png").exists());
    let tex = std::fs::read_to_string(folder.join("figures.tex")).unwrap();
    // Each at its natural size (a PNG without a stored resolution: a pixel a point).
    let included = |file: &str| {
        tex.lines()
            .find(|line| line.ends_with(&format!("}}{{{file}}}")))
            .unwrap_or_else(|| panic!("{file} not included:\n{tex}"))
            .trim()
            .to_string()
    };
    let natural = |file: &str| {
        let (w, h, ..) = super::support::decode_png(&std::fs::read(folder.join(file)).unwrap());
        format!("\\nimscapegraphics{{{w}.00bp}}{{{h}.00bp}}{{{file}}}")
    };
    for file in ["growth-last-frame.png", "still.png"] {
        assert_eq!(included(file), natural(file), "{tex}");
    }
    assert!(tex.contains("shown here as its\n% last frame"), "{tex}");
}

/// The library's `recipe::render` (what any front end calls) writes the same
/// files as the command line's `render` of the same recipe, and reports every
/// file it drew, its figures' timings and, for a bad figure, one problem naming
/// the recipe line, without drawing anything.
#[test]
fn the_library_renders_a_recipe_as_the_command_line_does() {
    use nimscape::recipe::{render, Progress, Recipe, RenderOptions};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let text = "title = \"T\"\nname = \"lib\"\n[[figure]]\nname = \"sq\"\nmodel = \"square\"\nm = \"3,5\"\nformats = [\"png\", \"svg\", \"pdf\"]\ncaption = \"Squares.\"\n\n[[figure]]\nname = \"nim\"\nmodel = \"grundy\"\ngame = \"nim\"\nheaps = 2\nbox = 6\nformats = [\"png\", \"csv\"]\ncaption = \"Nim.\"\n";
    let path = dir.path().join("lib.toml");
    std::fs::write(&path, text).unwrap();
    nimscape(dir.path())
        .args(["render", "lib.toml", "--quiet", "-o", "cli"])
        .assert()
        .success();
    let options = |output: &str| RenderOptions {
        output: dir.path().join(output),
        only: Vec::new(),
        quick: false,
        keep_going: false,
        workers: 2,
        columns: None,
        width: None,
        memory_limit: 1 << 30,
        output_limit: 1 << 30,
        isolate: None,
    };
    let (files, planned) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let progress = |event: Progress| match event {
        Progress::Planned { files } => planned.store(files, Ordering::SeqCst),
        Progress::File(_) => {
            files.fetch_add(1, Ordering::SeqCst);
        }
        _ => {}
    };
    // The recipe read as `render lib.toml` reads it, so its path is the same.
    let recipe = Recipe::parse(Path::new("lib.toml"), text).unwrap();
    let report = render(
        vec![recipe.clone()],
        &options("lib"),
        &nimscape::Control::new(),
        &progress,
    )
    .unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(report.written, 5);
    assert_eq!(files.load(Ordering::SeqCst), 5);
    assert_eq!(planned.load(Ordering::SeqCst), 5);
    let names: Vec<&str> = report.timings.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["sq", "nim"]);
    let from_cli = files_under(&dir.path().join("cli"));
    let from_library = files_under(&dir.path().join("lib"));
    assert_eq!(
        from_cli.keys().collect::<Vec<_>>(),
        from_library.keys().collect::<Vec<_>>()
    );
    assert!(from_cli.keys().any(|k| k.ends_with("figures.tex")));
    for (name, bytes) in &from_cli {
        assert!(from_library[name] == *bytes, "{} differs", name.display());
    }

    // A bad key is a problem at its line; nothing is drawn, no folder is made.
    let bad = Recipe::parse(
        Path::new("bad.toml"),
        "[[figure]]\nname = \"b\"\nmodel = \"square\"\nm = 0\n",
    )
    .unwrap();
    let report = render(
        vec![bad],
        &options("bad"),
        &nimscape::Control::new(),
        &progress,
    )
    .unwrap();
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert!(
        report.problems[0].starts_with("bad.toml:4: figure 'b': "),
        "{:?}",
        report.problems
    );
    assert_eq!(report.written, 0);
    assert!(!dir.path().join("bad").exists());
}
