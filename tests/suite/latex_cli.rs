//! `figures.tex` in the documents people write: every template set compiled in a
//! one-column article, a two-column article and a beamer deck with no overfull
//! box over 1 pt, no "Float too large" and no warning; captions in LaTeX's own
//! math; the template sets built into the binary.
//!
//! The LaTeX checks need pdflatex and beamer (texlive-latex-base,
//! texlive-latex-recommended). Where they are missing they are skipped with a
//! note, except in CI (`CI=true`), where a missing tool fails the test.

use super::support::{assert_one_line_error, decode_png, nimscape, run_ok};
use std::path::Path;
use std::process::Command;

/// True when pdflatex and the beamer class are installed; panics in CI when not.
pub(super) fn have_latex() -> bool {
    let pdflatex = Command::new("pdflatex").arg("-version").output().is_ok();
    let beamer = Command::new("kpsewhich")
        .arg("beamer.cls")
        .output()
        .is_ok_and(|out| out.status.success());
    if !(pdflatex && beamer) {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "pdflatex or beamer.cls is missing; CI must install them (texlive-latex-base, texlive-latex-recommended; see .ci/run)"
        );
        eprintln!("note: pdflatex or beamer.cls not installed; skipping the LaTeX layout checks");
    }
    pdflatex && beamer
}

/// What a pdflatex log says is wrong with the page: overfull boxes over 1 pt,
/// floats too large, and every LaTeX, package, class or pdfTeX warning.
pub(super) fn log_problems(log: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for line in log.lines() {
        if line.starts_with("Overfull \\") {
            // "Overfull \hbox (12.3pt too wide) in paragraph at lines 5--6"
            let amount = line
                .split('(')
                .nth(1)
                .and_then(|rest| rest.split("pt").next())
                .and_then(|number| number.parse::<f64>().ok());
            if amount.is_none_or(|pt| pt > 1.0) {
                problems.push(line.to_string());
            }
        } else if line.contains("Float too large")
            || line.contains("Warning:")
            || line.contains("pdfTeX warning")
        {
            problems.push(line.to_string());
        }
    }
    problems
}

/// Compiles `main` (a file in `dir`) twice, as one does for labels, and returns
/// its log; a failed run is a test failure with the log's end.
fn compile(dir: &Path, main: &str) -> String {
    for _ in 0..2 {
        let out = Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error", main])
            .current_dir(dir)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{main} does not compile:\n{}",
            &stdout[stdout.len().saturating_sub(3000)..]
        );
    }
    let log = dir.join(main.replace(".tex", ".log"));
    String::from_utf8_lossy(&std::fs::read(log).unwrap()).to_string()
}

/// The three kinds of document, each with the set's folder on its graphics path.
fn document(layout: &str, folder: &str) -> String {
    let (preamble, body) = match layout {
        "one-column" => (
            "\\documentclass{article}\n\\usepackage[a4paper,margin=25mm]{geometry}",
            format!("\\input{{{folder}/figures.tex}}"),
        ),
        "two-column" => (
            "\\documentclass[twocolumn]{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[letterpaper,margin=18mm]{geometry}",
            format!("\\input{{{folder}/figures.tex}}"),
        ),
        _ => (
            "\\documentclass{beamer}",
            format!("\\begin{{frame}}[allowframebreaks]{{Figures}}\n\\input{{{folder}/figures.tex}}\n\\end{{frame}}"),
        ),
    };
    format!(
        "{preamble}\n\\usepackage{{graphicx}}\n\\graphicspath{{{{{folder}/}}}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"
    )
}

#[test]
fn the_log_check_sees_overfull_boxes_floats_and_warnings_and_lets_a_hair_pass() {
    let log = "Package: infwarerr 2019/12/03 v1.5 Providing info/warning/error messages (HO)\n\
               Overfull \\hbox (0.4pt too wide) in paragraph at lines 3--4\n\
               Overfull \\hbox (181.2pt too wide) in paragraph at lines 9--10\n\
               LaTeX Warning: Float too large for page by 257.7pt on input line 30.\n\
               pdfTeX warning: pdflatex (file ./f.pdf): PDF inclusion: found PDF version <1.7>, but at most version <1.5> allowed\n";
    let problems = log_problems(log);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems[0].contains("181.2pt"));
}

/// Every template set's figures.tex in a one-column article, a two-column article
/// (rendered with `--columns 2`) and a beamer deck: no overfull box, no float too
/// large, no warning. A figure set at its natural width by a bare
/// `\includegraphics` (figures.tex before the width guard) fails the same check.
#[test]
fn every_template_set_fits_one_and_two_column_articles_and_a_beamer_deck() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let templates = root.join("templates");
    let dir = tempfile::tempdir().unwrap();
    let templates = templates.to_str().unwrap();
    run_ok(
        dir.path(),
        &["render", templates, "--out", "one", "--quiet"],
    );
    run_ok(
        dir.path(),
        &[
            "render",
            templates,
            "--out",
            "two",
            "--columns",
            "2",
            "--quiet",
        ],
    );
    let sets: Vec<String> = std::fs::read_dir(dir.path().join("one"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(sets.len() >= 6, "{sets:?}");
    let mut wide = 0;
    for set in &sets {
        let one =
            std::fs::read_to_string(dir.path().join(format!("one/{set}/figures.tex"))).unwrap();
        let two =
            std::fs::read_to_string(dir.path().join(format!("two/{set}/figures.tex"))).unwrap();
        // One column: figure everywhere; two columns: the wide figures span both.
        assert!(!one.contains("\\begin{figure*}"), "{set}: {one}");
        wide += two.matches("\\begin{figure*}").count();
        // Every figure bounded by the line: no bare \includegraphics.
        assert!(!one.contains("\\includegraphics{"), "{set}: {one}");
        // Captions are the recipe's, in LaTeX: no glyph lost, no literal markup.
        for tex in [&one, &two] {
            assert!(
                !tex.contains('?') && !tex.contains("textasciicircum"),
                "{set}: {tex}"
            );
        }
        // Every PDF says 1.5, so pdflatex includes it without a version warning.
        for file in std::fs::read_dir(dir.path().join(format!("one/{set}"))).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "pdf") {
                let bytes = std::fs::read(&path).unwrap();
                assert!(bytes.starts_with(b"%PDF-1.5\n"), "{}", path.display());
            }
        }
    }
    // Two columns draw the sets at the column's 85 mm: the wide figures (sheets of
    // panels side by side) span both, the rest are a column's `figure`.
    assert!(wide >= 10, "only {wide} figure* in the two-column sets");
    let okubo = std::fs::read_to_string(dir.path().join("two/okubo2026/figures.tex")).unwrap();
    let (narrow, spanning) = (
        okubo.matches("\\begin{figure}").count(),
        okubo.matches("\\begin{figure*}").count(),
    );
    // Six figures marked wide, and the animation's last frame (384 px panels,
    // no paper size).
    assert!(
        narrow >= 6 && spanning == 7,
        "{narrow} figure, {spanning} figure*: {okubo}"
    );
    if !have_latex() {
        return;
    }
    let started = std::time::Instant::now();
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for layout in ["one-column", "two-column", "beamer"] {
            let (dir, sets, failures) = (dir.path(), &sets, &failures);
            scope.spawn(move || {
                let source = if layout == "two-column" { "two" } else { "one" };
                for set in sets {
                    let main = format!("{layout}-{set}.tex");
                    std::fs::write(
                        dir.join(&main),
                        document(layout, &format!("{source}/{set}")),
                    )
                    .unwrap();
                    for problem in log_problems(&compile(dir, &main)) {
                        failures.lock().unwrap().push(format!("{main}: {problem}"));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!(
        "compiled {} documents twice each in {:.1} s",
        3 * sets.len(),
        started.elapsed().as_secs_f64()
    );

    // The check is not blind: the same 160 mm figure set bare in a column overflows.
    let bare = "\\documentclass[twocolumn]{article}\n\\usepackage{graphicx}\n\\begin{document}\n\\begin{figure}\\centering\\includegraphics{one/okubo2026/figure-2.pdf}\\caption{Bare.}\\end{figure}\n\\end{document}\n";
    std::fs::write(dir.path().join("bare.tex"), bare).unwrap();
    let problems = log_problems(&compile(dir.path(), "bare.tex"));
    assert!(
        problems.iter().any(|p| p.starts_with("Overfull \\hbox")),
        "{problems:?}"
    );
}

/// A survey's figures and its table as a paper sets them: a two-column article
/// with a sieve, a slice and the table figure at 85 mm through `\includegraphics`
/// and the `-o table.tex` tabular, compiled by pdflatex with no overfull box and
/// no warning, every font embedded and none Type 3, and the figures' words at
/// 7 to 9 pt on the page.
#[test]
fn survey_figures_and_their_table_set_in_a_two_column_article_without_a_warning() {
    if !have_latex() || !super::print_cli::have("pdftotext") || !super::print_cli::have("pdffonts")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let survey = [
        "survey",
        "triangular",
        "--param",
        "k=2..4",
        "--box",
        "24",
        "--find",
        "shift",
        "--rule",
        "x^y^z == 0",
        "--width",
        "85mm",
        "--quiet",
    ];
    let with = |extra: &[&str]| {
        let mut args = survey.to_vec();
        args.extend_from_slice(extra);
        run_ok(d, &args);
    };
    with(&["-o", "sieve.pdf", "-o", "table.tex"]);
    with(&["--plot", "slice", "--slice", "y=3", "-o", "slice.pdf"]);
    with(&["--plot", "table", "-o", "table-figure.pdf"]);
    let figures = ["sieve-k2.pdf", "slice-k3.pdf", "table-figure.pdf"];
    let ratio = super::print_cli::box_ratio(d);
    for figure in figures {
        let words = super::print_cli::placed_words(&d.join(figure));
        assert!(words.len() > 5, "{figure}: {words:?}");
        for (word, [x0, y0, x1, y1]) in &words {
            // Words with a neighbour on their line run across; lone ones may run up.
            let on_a_line = words
                .iter()
                .any(|(w, b)| w != word && (b[1] - y0).abs() < 0.05 && (b[3] - y1).abs() < 0.05);
            let size = if on_a_line {
                (y1 - y0) / ratio
            } else {
                super::print_cli::type_size(word, x1 - x0, y1 - y0, ratio)
            };
            assert!(
                (7.0 - 0.05..=9.0 + 0.05).contains(&size),
                "{figure}: '{word}' is {size:.2} pt at 85 mm"
            );
        }
    }
    let floats: String = figures
        .iter()
        .map(|f| {
            format!("\\begin{{figure}}\\centering\\includegraphics{{{f}}}\\caption{{{f}.}}\\end{{figure}}\n")
        })
        .collect();
    let article = format!(
        "\\documentclass[twocolumn]{{article}}\n\\usepackage[letterpaper,margin=18mm]{{geometry}}\n\\usepackage{{graphicx}}\n\\usepackage{{array}}\n\\begin{{document}}\nA survey of the triangular games.\n\n{floats}\\input{{table.tex}}\n\n\\end{{document}}\n"
    );
    std::fs::write(d.join("paper.tex"), article).unwrap();
    let log = compile(d, "paper.tex");
    // No warning, no overfull box, and no underfull one either: the table's
    // ragged-right columns and the figures leave TeX nothing to stretch badly.
    let mut problems = log_problems(&log);
    problems.extend(
        log.lines()
            .filter(|l| l.starts_with("Underfull \\"))
            .map(str::to_string),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Every font embedded, none Type 3 (pdffonts: name, type, encoding, emb, ...);
    // the body in Computer Modern's Type 1 (T1 without cm-super would be Type 3).
    let fonts = Command::new("pdffonts")
        .arg(d.join("paper.pdf"))
        .output()
        .unwrap();
    let fonts = String::from_utf8_lossy(&fonts.stdout);
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(!rows.is_empty(), "{fonts}");
    for row in rows {
        assert!(!row.contains("Type 3"), "{fonts}");
        let columns: Vec<&str> = row.split_whitespace().collect();
        // emb, sub, uni, object, generation: emb is fifth from the end.
        let emb = columns[columns.len() - 5];
        assert_eq!(emb, "yes", "a font not embedded:\n{fonts}");
    }

    // The check is not blind: the 85 mm figure in a column narrower than it overflows.
    let narrow = format!(
        "\\documentclass[twocolumn]{{article}}\n\\usepackage[letterpaper,margin=30mm]{{geometry}}\n\\usepackage{{graphicx}}\n\\begin{{document}}\n{floats}\\end{{document}}\n"
    );
    std::fs::write(d.join("narrow.tex"), narrow).unwrap();
    let problems = log_problems(&compile(d, "narrow.tex"));
    assert!(
        problems.iter().any(|p| p.starts_with("Overfull \\hbox")),
        "{problems:?}"
    );
}

/// `render` with no recipe renders the template sets built into the binary, from
/// an empty folder, game files included; `--builtin` picks sets by name.
#[test]
fn render_without_a_recipe_renders_the_built_in_sets_in_an_empty_folder() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(dir.path(), &["render", "--quick", "--quiet"]);
    let mut sets: Vec<String> = std::fs::read_dir(dir.path().join("output"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    sets.sort();
    assert_eq!(
        sets,
        [
            "game-files",
            "min-half",
            "miyadera-tables",
            "miyadera-triangular",
            "okubo2026",
            "six-sided"
        ]
    );
    for set in &sets {
        assert!(dir
            .path()
            .join(format!("output/{set}/figures.tex"))
            .is_file());
        let index =
            std::fs::read_to_string(dir.path().join(format!("output/{set}/index.md"))).unwrap();
        assert!(
            index.contains(&format!("`nimscape render --builtin {set}`")),
            "{index}"
        );
        // Game files are named as a reader finds them beside the templates,
        // not through the templates folder that is not on their disk.
        assert!(!index.contains("templates/../"), "{index}");
    }
    let games = std::fs::read_to_string(dir.path().join("output/game-files/index.md")).unwrap();
    assert!(
        games.contains("nimscape grundy games/band-7-1.toml"),
        "{games}"
    );
    // The game files come from the binary and draw what the files on disk draw.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let from_disk = tempfile::tempdir().unwrap();
    run_ok(
        from_disk.path(),
        &[
            "render",
            root.join("templates/game-files.toml").to_str().unwrap(),
            "--quick",
            "--quiet",
        ],
    );
    for file in ["figure-7-9-from-game-file.png", "wythoff-pass.png"] {
        let read = |base: &Path| std::fs::read(base.join("output/game-files").join(file)).unwrap();
        assert_eq!(
            decode_png(&read(dir.path())).4,
            decode_png(&read(from_disk.path())).4,
            "{file}"
        );
    }
    // --builtin renders only the sets named.
    let only = tempfile::tempdir().unwrap();
    run_ok(
        only.path(),
        &[
            "render",
            "--builtin",
            "miyadera-tables",
            "--quick",
            "--quiet",
            "-o",
            "sets",
        ],
    );
    let made: Vec<_> = std::fs::read_dir(only.path().join("sets"))
        .unwrap()
        .collect();
    assert_eq!(made.len(), 1);
    let out = nimscape(only.path())
        .args(["render", "--builtin", "okubo"])
        .output()
        .unwrap();
    assert_one_line_error(
        &out,
        "--builtin okubo: no built-in template set has that name",
    );
}

/// A recipe's figures leave their generated title out unless the recipe asks
/// for titles; a caption pdflatex cannot set is refused before anything is drawn.
#[test]
fn recipe_titles_columns_and_captions() {
    let dir = tempfile::tempdir().unwrap();
    // One figure for a column (80 mm), one for the page (120 mm).
    let figure = "[[figure]]\nname = \"t\"\nmodel = \"grundy\"\ngame = \"nim\"\nheaps = 2\nbox = 6\nwidth = \"80mm\"\nformats = [\"pdf\"]\ncaption = \"Nim: $x ⊕ y = 0$ (§2).\"\n\n[[figure]]\nname = \"w\"\nmodel = \"count\"\nm = \"1..8\"\nwidth = \"120mm\"\nformats = [\"pdf\"]\ncaption = \"Counts.\"\n";
    std::fs::write(
        dir.path().join("plain.toml"),
        format!("columns = 2\n{figure}"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("titled.toml"),
        format!("titles = true\n{figure}"),
    )
    .unwrap();
    run_ok(
        dir.path(),
        &["render", "plain.toml", "titled.toml", "--quiet"],
    );
    let read = |path: &str| std::fs::read_to_string(dir.path().join(path)).unwrap();
    assert!(read("output/plain/index.md").contains("--no-caption"));
    assert!(!read("output/titled/index.md").contains("--no-caption"));
    let tex = read("output/plain/figures.tex");
    assert!(
        tex.contains("\\caption{Nim: $x \\oplus y = 0$ (\\S{}2).}"),
        "{tex}"
    );
    // In two columns the 80 mm figure stays a `figure`, the 120 mm one spans both;
    // --columns 1 overrides the recipe.
    assert_eq!(tex.matches("\\begin{figure}[htbp]").count(), 1, "{tex}");
    assert_eq!(tex.matches("\\begin{figure*}[tbp]").count(), 1, "{tex}");
    assert!(tex.contains("\\nimscapegraphics{226.77bp}"), "{tex}");
    assert!(tex.contains("Layout: two columns"), "{tex}");
    run_ok(
        dir.path(),
        &["render", "plain.toml", "--columns", "1", "--quiet"],
    );
    assert!(read("output/plain/figures.tex").contains("Layout: one column"));

    std::fs::write(
        dir.path().join("bad.toml"),
        "[[figure]]\nname = \"b\"\nmodel = \"count\"\nm = \"1..4\"\ncaption = \"日本\"\n",
    )
    .unwrap();
    let out = nimscape(dir.path())
        .args(["render", "bad.toml"])
        .output()
        .unwrap();
    assert_one_line_error(
        &out,
        "bad.toml:1: figure 'b': its caption has '日' (U+65E5)",
    );
    assert!(!dir.path().join("output/bad").exists(), "nothing drawn");
    for bad in [["--columns", "3"], ["--builtin", "x"]] {
        let out = nimscape(dir.path())
            .args(["render", "bad.toml", bad[0], bad[1]])
            .output()
            .unwrap();
        assert!(!out.status.success());
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
}

/// A sheet over a parameter as a paper sets it: `grundy --param k=1..8` at
/// 178 mm, four columns, as a `figure*` across a two-column article, compiled
/// with no overfull box and no warning; in a narrower text block it overflows,
/// so the check is not blind.
#[test]
fn a_parameter_sheet_at_178_mm_sets_as_figure_star_in_a_two_column_article() {
    if !have_latex() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_ok(
        d,
        &[
            "grundy",
            "--cap",
            "floor(min(x,z)/k)",
            "--param",
            "k=1..8",
            "--box",
            "24",
            "--plot",
            "sieve",
            "--columns",
            "4",
            "--scale",
            "common",
            "--width",
            "178mm",
            "-o",
            "sheet.pdf",
            "--quiet",
        ],
    );
    let article = |margin: &str| {
        format!(
            "\\documentclass[twocolumn]{{article}}\n\\usepackage[letterpaper,margin={margin}]{{geometry}}\n\\usepackage{{graphicx}}\n\\begin{{document}}\nThe bar $y \\le \\lfloor \\min(x,z)/k \\rfloor$ over $k$.\n\n\\begin{{figure*}}\\centering\\includegraphics{{sheet.pdf}}\\caption{{P-positions for $k = 1, \\dots, 8$.}}\\end{{figure*}}\nText.\n\\end{{document}}\n"
        )
    };
    std::fs::write(d.join("paper.tex"), article("18mm")).unwrap();
    let problems = log_problems(&compile(d, "paper.tex"));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    std::fs::write(d.join("narrow.tex"), article("30mm")).unwrap();
    let problems = log_problems(&compile(d, "narrow.tex"));
    assert!(
        problems.iter().any(|p| p.starts_with("Overfull \\hbox")),
        "{problems:?}"
    );
}

/// A recipe's PDF figures are set in DejaVu Serif, beside the paper's serif body,
/// unless the figure or the recipe's `[defaults]` names a font; the redraw command
/// in the gallery says `--font serif`, so it draws the same bytes.
#[test]
fn a_recipes_pdf_figures_are_serif_unless_the_recipe_names_a_font() {
    if !super::print_cli::have("pdffonts") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let figure = |name: &str, extra: &str| {
        format!("[[figure]]\nname = \"{name}\"\nmodel = \"count\"\nm = \"1..8\"\nformats = [\"pdf\"]\ncaption = \"Counts.\"\n{extra}\n")
    };
    std::fs::write(
        dir.path().join("paper.toml"),
        figure("plain", "") + &figure("sans", "font = \"sans\""),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("slides.toml"),
        "[defaults]\nfont = \"sans\"\n\n".to_string() + &figure("deck", ""),
    )
    .unwrap();
    run_ok(
        dir.path(),
        &["render", "paper.toml", "slides.toml", "--quiet"],
    );
    let fonts = |path: &str| {
        let out = Command::new("pdffonts")
            .arg(dir.path().join(path))
            .output()
            .unwrap();
        assert!(out.status.success(), "pdffonts {path}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let plain = fonts("output/paper/plain.pdf");
    assert!(
        plain.contains("DejaVuSerif") && !plain.contains("DejaVuSans"),
        "{plain}"
    );
    for sans in ["output/paper/sans.pdf", "output/slides/deck.pdf"] {
        let listed = fonts(sans);
        assert!(
            listed.contains("DejaVuSans") && !listed.contains("DejaVuSerif"),
            "{sans}: {listed}"
        );
    }
    let index = std::fs::read_to_string(dir.path().join("output/paper/index.md")).unwrap();
    assert_eq!(index.matches("--font serif").count(), 1, "{index}");
}

/// Every overfull or underfull box the log reports, however small, besides
/// [`log_problems`]: a figure drawn at the column's width must leave TeX
/// nothing to squeeze or stretch.
fn any_box_or_warning(log: &str) -> Vec<String> {
    let mut problems = log_problems(log);
    problems.extend(
        log.lines()
            .filter(|l| l.starts_with("Overfull \\") || l.starts_with("Underfull \\"))
            .filter(|l| !problems.iter().any(|p| p == l))
            .map(str::to_string)
            .collect::<Vec<_>>(),
    );
    problems
}

/// A two-column article whose `\columnwidth` is `column` mm and whose columns are
/// 8 mm apart (what `render --columns 2` gives a wide figure), with `floats`.
fn article_with_columns_of(column: f64, floats: &str) -> String {
    format!(
        "\\documentclass[twocolumn]{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage[a4paper,textwidth={text}mm,columnsep=8mm,textheight=250mm]{{geometry}}\n\\usepackage{{graphicx}}\n\\begin{{document}}\n\\typeout{{column width: \\the\\columnwidth}}\nSome journals' columns are 83 mm wide.\n\n{floats}\\end{{document}}\n",
        text = 2.0 * column + 8.0
    )
}

/// Some journals' columns are 83 mm, not 85 (85 mm figures overflow them by
/// 5.7 pt): figures drawn at `--width 83mm` (a sieve plot, a points plot, a
/// square board, a sheet of boards, a Grundy table, a 3D view) set at their own
/// size by `\includegraphics` in an 83 mm column, and `render --columns 2 --width
/// 83mm`'s figures.tex for the okubo2026 set (column figures and `figure*`s
/// across both columns), compile with no overfull or underfull box at all and no
/// warning (but for a long caption's underfull line: the caption's text, not the
/// figure). The same plot drawn at 85 mm overflows the column, so the check is
/// not blind.
#[test]
fn figures_drawn_at_83_mm_set_in_an_83_mm_column_without_a_box_warning() {
    if !have_latex() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cap = ["grundy", "--cap", "floor(min(x,z)/k)", "--param", "k=3"];
    let draws: Vec<(Vec<&str>, &str)> = vec![
        (
            [&cap[..], &["--box", "30", "--plot", "sieve"]].concat(),
            "sieve.pdf",
        ),
        (
            [
                &cap[..],
                &["--box", "30", "--slice", "y=2", "--plot", "points"],
            ]
            .concat(),
            "points.pdf",
        ),
        (
            [
                &cap[..],
                &["--box", "8", "--slice", "y=2", "--plot", "table"],
            ]
            .concat(),
            "table.pdf",
        ),
        (vec!["square", "--m", "11"], "board.pdf"),
        (
            vec!["square", "--m", "1..8", "--columns", "4"],
            "boards.pdf",
        ),
        (
            vec!["octahedron", "view", "--n", "2", "--plane", "3"],
            "view.pdf",
        ),
    ];
    let mut floats = String::new();
    for (args, file) in &draws {
        let mut args = args.clone();
        args.extend(["--width", "83mm", "--quiet", "-o", file]);
        run_ok(d, &args);
        floats.push_str(&format!(
            "\\begin{{figure}}\\centering\\includegraphics{{{file}}}\\caption{{{file}.}}\\end{{figure}}\n"
        ));
    }
    std::fs::write(d.join("paper.tex"), article_with_columns_of(83.0, &floats)).unwrap();
    let log = compile(d, "paper.tex");
    // 83 mm is 236.15787 pt in TeX's points.
    assert!(
        log.contains("column width: 236.157"),
        "the column is not 83 mm"
    );
    let problems = any_box_or_warning(&log);
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    // A recipe's figures drawn for the layout: the column figures at 83 mm, the
    // sheets marked wide across both columns and their gap, 174 mm.
    run_ok(
        d,
        &[
            "render",
            "--builtin",
            "okubo2026",
            "--quick",
            "--columns",
            "2",
            "--width",
            "83mm",
            "--quiet",
            "-o",
            "set",
        ],
    );
    let tex = std::fs::read_to_string(d.join("set/okubo2026/figures.tex")).unwrap();
    assert!(
        tex.matches("\\begin{figure}").count() >= 6
            && tex.matches("\\begin{figure*}").count() >= 5
            && tex.contains("{235.28bp}"),
        "{tex}"
    );
    std::fs::write(
        d.join("set.tex"),
        article_with_columns_of(
            83.0,
            "\\graphicspath{{set/okubo2026/}}\n\\input{set/okubo2026/figures.tex}\n",
        ),
    )
    .unwrap();
    // A recipe's long caption may leave an underfull line in a column this
    // narrow: that is the caption's text, set by the paper's class, not a
    // figure's size; every other box is a failure.
    let lines: Vec<&str> = tex.lines().collect();
    let in_a_caption = |problem: &str| {
        problem.starts_with("Underfull \\hbox")
            && problem
                .split("at lines ")
                .nth(1)
                .and_then(|rest| rest.split("--").next())
                .and_then(|line| line.parse::<usize>().ok())
                .and_then(|line| lines.get(line.wrapping_sub(1)))
                .is_some_and(|line| line.trim_start().starts_with("\\caption"))
    };
    let problems: Vec<String> = any_box_or_warning(&compile(d, "set.tex"))
        .into_iter()
        .filter(|p| !in_a_caption(p))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    // Not blind: the sieve drawn at 85 mm overflows the 83 mm column.
    let mut args = draws[0].0.clone();
    args.extend(["--width", "85mm", "--quiet", "-o", "sieve-85.pdf"]);
    run_ok(d, &args);
    std::fs::write(
        d.join("wide.tex"),
        article_with_columns_of(
            83.0,
            "\\begin{figure}\\centering\\includegraphics{sieve-85.pdf}\\caption{85 mm.}\\end{figure}\n",
        ),
    )
    .unwrap();
    let problems = any_box_or_warning(&compile(d, "wide.tex"));
    assert!(
        problems.iter().any(|p| p.starts_with("Overfull \\hbox")),
        "{problems:?}"
    );
}
