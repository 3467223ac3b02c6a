//! `-o figure.tikz` / `.pgf`: TikZ pictures to `\input` in a LaTeX document.
//! The rectangles read back paint the PNG's very pixels; merging merges; a
//! one-column article with a board, a sieve, a chart and a section compiles
//! with no warning, its figure text in the document's own fonts and the board
//! exactly as wide as asked; the same bytes whatever the thread count; and
//! refusals are one line that leave no file.
//!
//! The LaTeX check needs pdflatex with TikZ (texlive-latex-recommended,
//! texlive-pictures) and poppler's pdffonts and pdftotext: a missing tool fails
//! the test, it is never skipped.

use super::latex_cli::log_problems;
use super::support::{assert_one_line_error, decode_png, nimscape, run_ok};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// A TikZ file read back: its size in bp, its `\fill`ed rectangles in order as
/// (colour, x0, y0, x1, y1) in bp with y up, and the corners of its frames
/// (`\path[draw=...]`) as (x0, y0, x1, y1).
struct Tikz {
    width: f64,
    height: f64,
    fills: Vec<([u8; 3], f64, f64, f64, f64)>,
    frames: Vec<(f64, f64, f64, f64)>,
}

/// The numbers of every `(x,y)` in `text`, in order.
fn points(text: &str) -> Vec<(f64, f64)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        let Some(close) = rest[open..].find(')') else {
            break;
        };
        let inside = &rest[open + 1..open + close];
        if let Some((x, y)) = inside.split_once(',') {
            if let (Ok(x), Ok(y)) = (x.parse(), y.parse()) {
                found.push((x, y));
            }
        }
        rest = &rest[open + close + 1..];
    }
    found
}

fn parse_tikz(text: &str) -> Tikz {
    let mut colors = BTreeMap::new();
    let mut fills = Vec::new();
    let mut frames = Vec::new();
    let mut size = None;
    let mut current: Option<[u8; 3]> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("\\definecolor{") {
            let (name, rest) = rest.split_once('}').unwrap();
            let rgb = rest.trim_start_matches("{RGB}{").trim_end_matches('}');
            let rgb: Vec<u8> = rgb.split(',').map(|v| v.parse().unwrap()).collect();
            colors.insert(name.to_string(), [rgb[0], rgb[1], rgb[2]]);
        } else if let Some(rest) = line.strip_prefix("\\useasboundingbox ") {
            size = points(rest).last().copied();
        } else if let Some(rest) = line.strip_prefix("\\fill[") {
            let name = rest.split([']', ',']).next().unwrap();
            current = Some(colors[name]);
        } else if line.starts_with("\\path[") && line.contains("draw=") {
            let corners = points(line);
            let xs = corners.iter().map(|p| p.0);
            let ys = corners.iter().map(|p| p.1);
            frames.push((
                xs.clone().fold(f64::MAX, f64::min),
                ys.clone().fold(f64::MAX, f64::min),
                xs.fold(f64::MIN, f64::max),
                ys.fold(f64::MIN, f64::max),
            ));
        }
        if let Some(color) = current {
            let line = line.split_once(']').map_or(line, |(_, rest)| rest);
            for pair in points(line).chunks(2) {
                fills.push((color, pair[0].0, pair[0].1, pair[1].0, pair[1].1));
            }
            if line.ends_with(';') {
                current = None;
            }
        }
    }
    let (width, height) = size.expect("a bounding box");
    Tikz {
        width,
        height,
        fills,
        frames,
    }
}

/// The filled rectangles painted in order on a `width x height` canvas of pixels
/// (one per bp, y down): a pixel takes the colour of the last rectangle holding
/// its centre.
fn rasterize(tikz: &Tikz) -> Vec<[u8; 3]> {
    let (w, h) = (tikz.width.round() as usize, tikz.height.round() as usize);
    let mut canvas = vec![[0u8; 3]; w * h];
    for &(color, x0, y0, x1, y1) in &tikz.fills {
        let (left, right) = (x0.min(x1), x0.max(x1));
        let (bottom, top) = (y0.min(y1), y0.max(y1));
        let first_col = (left - 0.5).ceil().max(0.0) as usize;
        let first_row = (tikz.height - top - 0.5).ceil().max(0.0) as usize;
        for row in first_row..h {
            let cy = tikz.height - (row as f64 + 0.5);
            if cy < bottom {
                break;
            }
            for col in first_col..w {
                if col as f64 + 0.5 > right {
                    break;
                }
                canvas[row * w + col] = color;
            }
        }
    }
    canvas
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// Boards at panel sizes that do and do not divide by m (cells of 6 and 7 px,
/// grid lines or not): inside the frame, the TikZ rectangles paint exactly the
/// PNG's pixels.
#[test]
fn tikz_rectangles_paint_the_pngs_pixels_exactly() {
    let dir = tempfile::tempdir().unwrap();
    for (m, panel, grid) in [
        ("11", "200", "auto"),
        ("37", "250", "on"),
        ("37", "250", "off"),
        ("100", "333", "off"),
        ("64", "256", "on"),
        ("300", "1000", "off"),
    ] {
        let args = [
            "square",
            "--m",
            m,
            "--panel",
            panel,
            "--grid",
            grid,
            "--no-caption",
            "--quiet",
        ];
        let mut png = args.to_vec();
        png.extend(["-o", "b.png"]);
        run_ok(dir.path(), &png);
        let mut tikz = args.to_vec();
        tikz.extend(["-o", "b.tikz"]);
        run_ok(dir.path(), &tikz);
        let parsed = parse_tikz(&read(dir.path(), "b.tikz"));
        let (w, h, _, _, rows) = decode_png(&std::fs::read(dir.path().join("b.png")).unwrap());
        assert_eq!(
            (f64::from(w), f64::from(h)),
            (parsed.width, parsed.height),
            "m = {m}: the picture is the PNG's size in bp"
        );
        let channels = rows.len() / (w as usize * h as usize);
        let painted = rasterize(&parsed);
        // Inside the frame's stroke: the board's cells and grid lines.
        assert_eq!(parsed.frames.len(), 1, "m = {m}");
        let (x0, y0, x1, y1) = parsed.frames[0];
        let (first_col, last_col) = ((x0 + 0.5) as usize, (x1 - 0.5) as usize);
        let (first_row, last_row) = (
            (parsed.height - y1 + 0.5) as usize,
            (parsed.height - y0 - 0.5) as usize,
        );
        assert!(last_col - first_col >= 199, "m = {m}: {x0}..{x1}");
        let mut compared = 0;
        for row in first_row..last_row {
            for col in first_col..last_col {
                let at = (row * w as usize + col) * channels;
                let png_pixel = [rows[at], rows[at + 1], rows[at + 2]];
                assert_eq!(
                    painted[row * w as usize + col],
                    png_pixel,
                    "m = {m}, panel {panel}, grid {grid}: pixel ({col}, {row})"
                );
                compared += 1;
            }
        }
        assert!(compared >= 200 * 200);
    }
}

/// The P cells' rectangles are at most the rows' maximal runs of P cells (the
/// CSV's), and on C(m,m) far fewer than the cells: C(64,64) is one rectangle,
/// C(1000,1000) a few thousand for 174,656 P-positions.
#[test]
fn tikz_merges_runs_into_far_fewer_rectangles_than_cells() {
    let dir = tempfile::tempdir().unwrap();
    for (m, most) in [("11", 40), ("37", 400), ("64", 1), ("1000", 4000)] {
        let args = ["square", "--m", m, "--grid", "off", "--quiet"];
        run_ok(dir.path(), &[&args[..], &["-o", "p.csv"]].concat());
        run_ok(
            dir.path(),
            &[&args[..], &["--p-color", "#ff0000", "-o", "p.tikz"]].concat(),
        );
        let mut rows: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
        for line in read(dir.path(), "p.csv").lines().skip(1) {
            let (i, j) = line.split_once(',').unwrap();
            rows.entry(i.parse().unwrap())
                .or_default()
                .push(j.parse().unwrap());
        }
        let cells: usize = rows.values().map(Vec::len).sum();
        let runs: usize = rows
            .values_mut()
            .map(|js| {
                js.sort_unstable();
                1 + js.windows(2).filter(|w| w[1] != w[0] + 1).count()
            })
            .sum();
        let parsed = parse_tikz(&read(dir.path(), "p.tikz"));
        let p_rectangles = parsed.fills.iter().filter(|f| f.0 == [255, 0, 0]).count();
        assert!(
            p_rectangles <= runs && p_rectangles <= most,
            "C({m},{m}): {p_rectangles} rectangles, {runs} runs, {cells} cells"
        );
        if m == "1000" {
            assert!(
                p_rectangles * 40 < cells,
                "{p_rectangles} rectangles for {cells} cells"
            );
        }
    }
}

/// A one-column article that `\input`s a board, a sieve, a chart and an
/// octahedron section: no warning, no overfull box; every font in the PDF is the
/// document's Computer Modern (no embedded DejaVu: the figure text is LaTeX's),
/// the labels are real text, and the 85 mm board is 85 mm wide.
#[test]
fn tikz_figures_compile_in_a_one_column_article_in_its_own_font() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (args, name) in [
        (
            &["square", "--m", "11", "--width", "85mm"][..],
            "board.tikz",
        ),
        (
            &[
                "grundy",
                "triangular",
                "--k",
                "3",
                "--box",
                "40",
                "--plot",
                "sieve",
                "--width",
                "85mm",
            ][..],
            "sieve.pgf",
        ),
        (
            &["count", "--m", "1..12", "--width", "85mm"][..],
            "chart.tikz",
        ),
        (
            &[
                "octahedron",
                "section",
                "--n",
                "4",
                "--level",
                "11",
                "--width",
                "70mm",
            ][..],
            "section.tikz",
        ),
    ] {
        run_ok(d, &[args, &["--quiet", "-o", name]].concat());
    }
    let body = "\\documentclass{article}\n\\usepackage[a4paper,margin=25mm]{geometry}\n\
                \\usepackage{fix-cm}\n\\usepackage{tikz}\n\\begin{document}\n\
                The board of $C(11,11)$, its positions $x \\oplus y$:\n\n\
                \\setbox0=\\hbox{\\input{board.tikz}}\\typeout{BOARD WIDTH \\the\\wd0}\n\
                \\noindent\\box0\n\n\\noindent\\input{sieve.pgf}\n\n\
                \\noindent\\input{chart.tikz}\n\n\\noindent\\input{section.tikz}\n\
                \\end{document}\n";
    std::fs::write(d.join("paper.tex"), body).unwrap();
    let started = std::time::Instant::now();
    let out = Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", "paper.tex"])
        .current_dir(d)
        .output()
        .expect("pdflatex is installed (texlive-latex-recommended, texlive-pictures)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "paper.tex does not compile:\n{}",
        &stdout[stdout.len().saturating_sub(3000)..]
    );
    eprintln!("pdflatex: {:.2} s", started.elapsed().as_secs_f64());
    let log = String::from_utf8_lossy(&std::fs::read(d.join("paper.log")).unwrap()).to_string();
    assert_eq!(log_problems(&log), Vec::<String>::new());
    assert!(!log.contains("Overfull"), "{log}");
    // 85 mm = 241.85 TeX points; the board is that, to half a bp.
    let width: f64 = log
        .lines()
        .find_map(|l| l.strip_prefix("BOARD WIDTH "))
        .expect("the width line")
        .trim_end_matches("pt")
        .parse()
        .unwrap();
    let asked = 85.0 / 25.4 * 72.27;
    assert!(
        (width - asked).abs() < 0.5 * 72.27 / 72.0,
        "{width} pt, asked {asked}"
    );
    // The fonts are the document's: Computer Modern only, embedded by LaTeX.
    let fonts = Command::new("pdffonts")
        .arg("paper.pdf")
        .current_dir(d)
        .output()
        .expect("pdffonts is installed (poppler-utils)");
    let fonts = String::from_utf8_lossy(&fonts.stdout).to_string();
    let names: Vec<&str> = fonts
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(!names.is_empty(), "{fonts}");
    for name in &names {
        let base = name.split('+').next_back().unwrap();
        assert!(
            base.starts_with("CM") || base.starts_with("LM"),
            "{name} is not the document's font:\n{fonts}"
        );
    }
    // The labels are real text: the caption, the chart's axis name, the section's.
    let text = Command::new("pdftotext")
        .args(["-bbox", "paper.pdf", "-"])
        .current_dir(d)
        .output()
        .expect("pdftotext is installed (poppler-utils)");
    let text = String::from_utf8_lossy(&text.stdout).to_string();
    for word in [">11<", ">P-positions<", ">H(4,11)<", ">g(m)<"] {
        assert!(text.contains(word), "{word} not in the PDF's text");
    }
}

/// The same figure is the same bytes with one thread and with four.
#[test]
fn tikz_is_the_same_bytes_with_one_and_four_threads() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["square", "--m", "1..6", "--width", "178mm"][..],
        &["square", "--m", "300", "--decompose"][..],
        &[
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "40",
            "--plot",
            "sieve",
        ][..],
        &["octahedron", "view", "--n", "2"][..],
    ] {
        let mut outputs = Vec::new();
        for threads in ["1", "4"] {
            let name = format!("t{threads}.tikz");
            nimscape(dir.path())
                .env("RAYON_NUM_THREADS", threads)
                .args(args)
                .args(["--quiet", "-o", &name])
                .assert()
                .success();
            outputs.push(std::fs::read(dir.path().join(&name)).unwrap());
        }
        assert!(
            outputs[0] == outputs[1],
            "{args:?} differs between 1 and 4 threads"
        );
    }
}

/// Too many rectangles or labels, a character LaTeX has no spelling for, an animation:
/// one line, a failed exit, and no file.
#[test]
fn tikz_refusals_are_one_line_and_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["square", "--m", "2047", "-o", "big.tikz"],
            "1398101 rectangles, 1 label, 1 path of 5 steps as TikZ",
        ),
        (
            &["square", "--m", "11", "--caption", "盤 11", "-o", "c.tikz"],
            "U+76E4",
        ),
        (
            &["octahedron", "sweep", "--n", "3", "-o", "s.tikz"],
            "animation; use one of .gif",
        ),
        (&["square", "--m", "2047", "-o", "big.pgf"], ".pdf"),
        // A Grundy table of 6891 numbers (and its title, axis and key
        // labels): labels cost pdflatex more than cells, and the refusal
        // counts them.
        (
            &[
                "grundy",
                "triangular",
                "--k",
                "3",
                "--box",
                "140",
                "--slice",
                "z=70",
                "-o",
                "table.tikz",
            ],
            " labels, ",
        ),
    ];
    for (args, needle) in cases {
        let out = nimscape(dir.path())
            .args(args)
            .arg("--quiet")
            .output()
            .unwrap();
        assert_one_line_error(&out, needle);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
}

/// A recipe may ask for `tikz` among a figure's formats.
#[test]
fn a_recipe_writes_tikz_when_its_formats_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let recipe = "title = \"TikZ\"\nname = \"tz\"\n[defaults]\nformats = [\"tikz\", \"pdf\"]\n\n\
                  [[figure]]\nname = \"board\"\nmodel = \"square\"\ncaption = \"The board.\"\nm = 11\nwidth = \"85mm\"\n";
    std::fs::write(dir.path().join("r.toml"), recipe).unwrap();
    run_ok(dir.path(), &["render", "r.toml", "--quiet"]);
    let tikz = read(dir.path(), "output/tz/board.tikz");
    assert!(tikz.starts_with("% nimscape TikZ picture"), "{tikz}");
    let direct = tempfile::tempdir().unwrap();
    run_ok(
        direct.path(),
        &["square", "--m", "11", "--width", "85mm", "-o", "b.tikz"],
    );
    // The same picture as the command line's (the provenance comment aside).
    let body = |text: &str| {
        text.lines()
            .filter(|l| !l.starts_with('%'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&tikz), body(&read(direct.path(), "b.tikz")));
}

/// The names in a Grundy figure are formulas, set as the papers set them: in
/// TikZ a sieve's axis names (`$y$`, `$x - z$`), a 3D plot's colour bar (`$z$`),
/// a sheet's panel labels (`$k = 2$`) and a table's corner (`$x\backslash y$`)
/// are math, and the `.tex` table ends in its colour key. Compiled, the
/// sieve's words (no title, no ticks) are all math italic and symbols, no
/// upright text font; the table's key reads "≡ 0 (mod 3)" to "≡ 2 (mod 3)".
#[test]
fn grundy_names_are_math_italic_in_tikz_and_the_tex_table_has_its_colour_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let game = ["grundy", "triangular", "--k", "2", "--width", "85mm"];
    let draw = |extra: &[&str]| run_ok(d, &[&game[..], extra, &["--quiet"]].concat());
    draw(&[
        "--box",
        "12",
        "--plot",
        "sieve",
        "--no-caption",
        "--no-ticks",
        "-o",
        "names.tikz",
    ]);
    draw(&["--box", "8", "-o", "cloud.tikz"]);
    draw(&["--box", "6", "--slice", "z=5", "-o", "table.tikz"]);
    draw(&["--box", "10", "--slice", "z=5", "-o", "table.tex"]);
    run_ok(
        d,
        &[
            "grundy",
            "--cap",
            "floor(min(x,z)/k)",
            "--param",
            "k=1..3",
            "--box",
            "10",
            "--plot",
            "sieve",
            "--width",
            "178mm",
            "--quiet",
            "-o",
            "sheet.tikz",
        ],
    );
    let read = |name: &str| std::fs::read_to_string(d.join(name)).unwrap();
    let names = read("names.tikz");
    assert!(
        names.contains("{$y$}") && names.contains("{$x - z$}"),
        "{names}"
    );
    assert!(read("cloud.tikz").contains("{$z$}"));
    assert!(read("table.tikz").contains("{$x\\backslash y$}"));
    let sheet = read("sheet.tikz");
    for k in 1..=3 {
        assert!(sheet.contains(&format!("{{$k = {k}$}}")), "{sheet}");
    }
    let table = read("table.tex");
    assert!(table.contains("$x\\backslash y$"), "{table}");
    assert_eq!(table.matches("\\fcolorbox{black}{nimscapeClass").count(), 3);

    let compile = |main: &str, body: &str| -> String {
        std::fs::write(
            d.join(format!("{main}.tex")),
            format!(
                "\\documentclass{{article}}\n\\usepackage[a4paper,margin=25mm]{{geometry}}\n\
                 \\usepackage{{fix-cm}}\n\\usepackage{{colortbl}}\n\\usepackage{{tikz}}\n\
                 \\begin{{document}}\n\\pagestyle{{empty}}\n{body}\n\\end{{document}}\n"
            ),
        )
        .unwrap();
        let out = Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error", main])
            .current_dir(d)
            .output()
            .expect("pdflatex is installed (texlive-latex-recommended, texlive-pictures)");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{main} does not compile:\n{}",
            &stdout[stdout.len().saturating_sub(3000)..]
        );
        let log = std::fs::read_to_string(d.join(format!("{main}.log"))).unwrap();
        assert_eq!(log_problems(&log), Vec::<String>::new(), "{main}");
        let fonts = Command::new("pdffonts")
            .arg(format!("{main}.pdf"))
            .current_dir(d)
            .output()
            .expect("pdffonts is installed (poppler-utils)");
        String::from_utf8_lossy(&fonts.stdout).to_string()
    };
    // The sieve alone: its only words are its axis names.
    let fonts = compile("names", "\\noindent\\input{names.tikz}");
    let bases: Vec<&str> = fonts
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().next())
        .map(|name| name.split('+').next_back().unwrap())
        .collect();
    assert!(bases.iter().any(|b| b.starts_with("CMMI")), "{fonts}");
    assert!(
        bases
            .iter()
            .all(|b| b.starts_with("CMMI") || b.starts_with("CMSY")),
        "an axis name in an upright text font:\n{fonts}"
    );
    // Everything in one document, the table with its key under it.
    compile(
        "all",
        "\\noindent\\input{table.tex}\n\n\\noindent\\input{table.tikz}\n\n\
         \\noindent\\input{cloud.tikz}\n\n\\noindent\\resizebox{\\linewidth}{!}{\\input{sheet.tikz}}",
    );
    let text = Command::new("pdftotext")
        .args(["-f", "1", "-l", "1", "all.pdf", "-"])
        .current_dir(d)
        .output()
        .expect("pdftotext is installed (poppler-utils)");
    let text = String::from_utf8_lossy(&text.stdout).to_string();
    for class in 0..3 {
        let key = format!("≡ {class} (mod 3)");
        assert!(text.contains(&key), "'{key}' not under the table:\n{text}");
    }
}
