//! Print-ready output: physical sizes, stored resolution, text that stays text,
//! and no type under 6 pt in any template figure at its natural size.
//!
//! The checks that read PDFs use poppler's `pdftotext -bbox` and `pdffonts`.
//! Where poppler is missing they are skipped with a note, except in CI
//! (`CI=true`), where a missing tool fails the test: CI installs poppler-utils.

use super::support::{assert_one_line_error, nimscape, run_ok};
use std::path::Path;
use std::process::Command;

/// True when `tool` runs; panics in CI when it does not.
pub(super) fn have(tool: &str) -> bool {
    let found = Command::new(tool).arg("-v").output().is_ok();
    if !found {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "{tool} is missing; CI must install it (poppler-utils, see .ci/run)"
        );
        eprintln!("note: {tool} not installed; skipping a PDF check");
    }
    found
}

/// The page size of a one-page PDF in points, from its MediaBox.
pub(super) fn media_box(pdf: &[u8]) -> (f64, f64) {
    let text = String::from_utf8_lossy(pdf);
    let at = text.find("/MediaBox").expect("a MediaBox");
    let open = at + text[at..].find('[').unwrap();
    let close = open + text[open..].find(']').unwrap();
    let numbers: Vec<f64> = text[open + 1..close]
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    (numbers[2] - numbers[0], numbers[3] - numbers[1])
}

/// The pHYs chunk of a PNG: (pixels per unit x, y, unit is metre).
pub(super) fn phys(png: &[u8]) -> Option<(u32, u32, bool)> {
    let at = png.windows(4).position(|w| w == b"pHYs")?;
    let data = &png[at + 4..at + 13];
    let word = |k: usize| u32::from_be_bytes([data[k], data[k + 1], data[k + 2], data[k + 3]]);
    Some((word(0), word(4), data[8] == 1))
}

#[test]
fn width_85mm_gives_a_240_9_pt_page_and_a_300_dpi_png() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &["count", "--m", "1..64", "--width", "85mm", "-o", "c.pdf"],
    );
    let (w, h) = media_box(&std::fs::read(dir.path().join("c.pdf")).unwrap());
    assert!((w - 240.94).abs() < 0.05, "page width {w} pt");
    assert!((h / w - 0.62).abs() < 0.01, "page height {h} pt");

    run_ok(
        dir.path(),
        &["count", "--m", "1..64", "--width", "85mm", "-o", "c.png"],
    );
    let png = std::fs::read(dir.path().join("c.png")).unwrap();
    // 300 dpi = 11811 pixels per metre; 85 mm at 300 dpi = 1004 px.
    assert_eq!(phys(&png), Some((11811, 11811, true)));
    let (width, ..) = super::support::decode_png(&png);
    assert_eq!(width, 1004);

    run_ok(
        dir.path(),
        &[
            "count", "--m", "1..64", "--width", "85mm", "--dpi", "600", "-o", "c600.png",
        ],
    );
    let png = std::fs::read(dir.path().join("c600.png")).unwrap();
    assert_eq!(phys(&png), Some((23622, 23622, true)));
    assert_eq!(super::support::decode_png(&png).0, 2008);
}

#[test]
fn svg_on_paper_has_millimetres_and_a_viewbox() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &["square", "--m", "1..6", "--width", "85mm", "-o", "s.svg"],
    );
    let svg = std::fs::read_to_string(dir.path().join("s.svg")).unwrap();
    let head = svg.lines().nth(1).unwrap();
    assert!(head.contains(r#"width="85mm""#), "{head}");
    // The sheet shares 241 pt among whole-unit panels; the page is still 85 mm.
    assert!(head.contains(r#"viewBox="0 0 24"#), "{head}");
}

#[test]
fn pixels_without_a_dpi_keep_one_pixel_per_point_and_no_phys() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(dir.path(), &["count", "--m", "1..64", "-o", "c.png"]);
    let png = std::fs::read(dir.path().join("c.png")).unwrap();
    assert_eq!(phys(&png), None);
    assert_eq!(super::support::decode_png(&png).0, 900);
    run_ok(dir.path(), &["count", "--m", "1..64", "-o", "c.pdf"]);
    let (w, h) = media_box(&std::fs::read(dir.path().join("c.pdf")).unwrap());
    assert_eq!((w, h), (900.0, 560.0));
}

#[test]
fn pdf_text_is_embedded_and_searchable_unless_outlines_are_asked_for() {
    if !have("pdffonts") || !have("pdftotext") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (name, extra) in [("text.pdf", None), ("outlines.pdf", Some("outlines"))] {
        let mut args = vec!["count", "--m", "1..64", "--font", "serif", "-o", name];
        if let Some(mode) = extra {
            args.extend(["--text", mode]);
        }
        run_ok(dir.path(), &args);
    }
    let fonts = |name: &str| {
        let out = Command::new("pdffonts")
            .arg(dir.path().join(name))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let text = |name: &str| {
        let out = Command::new("pdftotext")
            .args([dir.path().join(name).as_os_str(), "-".as_ref()])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let listed = fonts("text.pdf");
    assert!(listed.contains("DejaVuSerif"), "{listed}");
    // Every font embedded ("emb yes") and subset ("sub yes"), none Type 3.
    for line in listed.lines().skip(2) {
        assert!(line.contains("yes yes"), "not embedded and subset: {line}");
        assert!(!line.contains("Type 3"), "{line}");
    }
    assert!(
        text("text.pdf").contains("P-positions"),
        "{}",
        text("text.pdf")
    );
    assert_eq!(fonts("outlines.pdf").lines().skip(2).count(), 0);
    assert!(!text("outlines.pdf").contains("P-positions"));
}

/// The PDF writer keeps nothing in hash order and writes no date and no random
/// identifier: a figure's PDF is the same bytes on every run, whatever the thread
/// count. Text in both families with math markup, a contact sheet on paper, and
/// a 3D view with its caption.
#[test]
fn a_pdf_is_the_same_bytes_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["count", "--m", "1..64", "--font", "serif"], "count.pdf"),
        (&["square", "--m", "1..12", "--width", "85mm"], "sheet.pdf"),
        (
            &[
                "octahedron",
                "section",
                "--n",
                "4",
                "--level",
                "11",
                "--compare",
            ],
            "section.pdf",
        ),
        (
            &["octahedron", "view", "--n", "3", "--width", "200"],
            "view.pdf",
        ),
    ];
    for (args, name) in cases {
        super::support::assert_same_bytes_across_thread_counts(dir.path(), args, name);
    }
}

#[test]
fn sizes_that_cannot_apply_are_refused_with_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args(["square", "--m", "1..24", "--width", "50", "-o", "s.png"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "--width");
    let out = nimscape(dir.path())
        .args(["square", "--m", "11", "--columns", "3", "-o", "s.png"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "--columns");
    let out = nimscape(dir.path())
        .args(["grundy", "band-7-1", "--cell", "8", "-o", "t.png"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "--cell");
    let out = nimscape(dir.path())
        .args([
            "count",
            "--m",
            "1..9",
            "--width",
            "3 furlongs",
            "-o",
            "c.png",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown unit"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// The words of a PDF with their box sizes (width, height), from `pdftotext -bbox`.
pub(super) fn word_boxes(pdf: &Path) -> Vec<(String, f64, f64)> {
    placed_words(pdf)
        .into_iter()
        .map(|(word, [x0, y0, x1, y1])| (word, x1 - x0, y1 - y0))
        .collect()
}

/// Every word of a PDF with its box (xMin, yMin, xMax, yMax) in points.
pub(super) fn placed_words(pdf: &Path) -> Vec<(String, [f64; 4])> {
    let out = Command::new("pdftotext")
        .args(["-bbox".as_ref(), pdf.as_os_str(), "-".as_ref()])
        .output()
        .unwrap();
    let html = String::from_utf8_lossy(&out.stdout);
    html.lines()
        .filter(|l| l.trim_start().starts_with("<word"))
        .filter_map(|l| {
            let attr = |name: &str| -> Option<f64> {
                let at = l.find(&format!("{name}=\""))? + name.len() + 2;
                l[at..].split('"').next()?.parse().ok()
            };
            let word = l.split('>').nth(1)?.split('<').next()?.to_string();
            Some((
                word,
                [attr("xMin")?, attr("yMin")?, attr("xMax")?, attr("yMax")?],
            ))
        })
        .collect()
}

/// Pairs of words whose boxes share more than a fifth of the smaller one: labels
/// printed over each other ("0" over "4" reading as "04").
pub(super) fn overlapping_words(words: &[(String, [f64; 4])]) -> Vec<String> {
    let area = |b: &[f64; 4]| (b[2] - b[0]).max(0.0) * (b[3] - b[1]).max(0.0);
    let mut found = Vec::new();
    for (i, (a, ba)) in words.iter().enumerate() {
        for (b, bb) in &words[i + 1..] {
            let w = ba[2].min(bb[2]) - ba[0].max(bb[0]);
            let h = ba[3].min(bb[3]) - ba[1].max(bb[1]);
            if w > 0.0 && h > 0.0 && w * h > 0.2 * area(ba).min(area(bb)) {
                found.push(format!("'{a}' and '{b}'"));
            }
        }
    }
    found
}

/// The type size of a word from its box: the box is the font's height across
/// the line (`em` times `ratio`) and the advance along it. Rotated words (axis
/// names) run up the page: a single character's box is then wider than tall, a
/// longer word taller than wide.
pub(super) fn type_size(word: &str, width: f64, height: f64, ratio: f64) -> f64 {
    let rotated = if word.chars().count() == 1 {
        height < width
    } else {
        height > width
    };
    if rotated {
        width / ratio
    } else {
        height / ratio
    }
}

/// Height of pdftotext's box per point of type, measured on a chart whose tick
/// numbers are set at exactly 10 pt, rather than assumed from font metrics.
pub(super) fn box_ratio(dir: &Path) -> f64 {
    run_ok(
        dir,
        &[
            "count",
            "--m",
            "1..64",
            "--font-size",
            "10pt",
            "--no-caption",
            "--no-axis-names",
            "--no-key",
            "-o",
            "ratio.pdf",
        ],
    );
    let heights: Vec<f64> = word_boxes(&dir.join("ratio.pdf"))
        .into_iter()
        .filter(|(w, ..)| w.len() > 1 && w.chars().all(|c| c.is_ascii_digit()))
        .map(|(_, _, h)| h)
        .collect();
    assert!(heights.len() >= 4, "no tick numbers found: {heights:?}");
    let ratio = heights[0] / 10.0;
    assert!((0.9..1.4).contains(&ratio), "box height per point {ratio}");
    ratio
}

/// Every template figure rendered as PDF at its natural size: no word under 6 pt,
/// no two words over each other.
#[test]
fn no_template_figure_has_type_under_6_pt() {
    if !have("pdftotext") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "render",
            root.join("templates").to_str().unwrap(),
            "--out",
            "sets",
            "--quiet",
        ],
    );
    let ratio = box_ratio(dir.path());
    let mut checked = 0;
    let mut small = Vec::new();
    let mut overlaps = Vec::new();
    for set in std::fs::read_dir(dir.path().join("sets")).unwrap() {
        for file in std::fs::read_dir(set.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "pdf") {
                checked += 1;
                for pair in overlapping_words(&placed_words(&path)) {
                    overlaps.push(format!(
                        "{}: {pair}",
                        path.file_name().unwrap().to_string_lossy()
                    ));
                }
                for (word, width, height) in word_boxes(&path) {
                    let size = type_size(&word, width, height, ratio);
                    // A hair of tolerance: sizes of exactly 6 pt come back as 5.999.
                    if size < 6.0 - 0.01 {
                        small.push(format!(
                            "{}: '{word}' {size:.2} pt",
                            path.file_name().unwrap().to_string_lossy()
                        ));
                    }
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} PDFs rendered");
    assert!(small.is_empty(), "type under 6 pt:\n{}", small.join("\n"));
    assert!(
        overlaps.is_empty(),
        "labels printed over each other:\n{}",
        overlaps.join("\n")
    );

    // figures.tex of every set compiles, with every figure at its natural size.
    if !have("pdflatex") {
        return;
    }
    for set in std::fs::read_dir(dir.path().join("sets")).unwrap() {
        let name = set.unwrap().file_name().to_string_lossy().to_string();
        let main = format!(
            "\\documentclass{{article}}\n\\usepackage[a4paper,margin=20mm]{{geometry}}\n\\usepackage{{graphicx}}\n\\graphicspath{{{{sets/{name}/}}}}\n\\begin{{document}}\n\\input{{sets/{name}/figures.tex}}\n\\end{{document}}\n"
        );
        let tex = format!("main-{name}.tex");
        std::fs::write(dir.path().join(&tex), main).unwrap();
        let out = Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error", &tex])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "figures.tex of {name} does not compile:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let log = std::fs::read_to_string(dir.path().join(format!("main-{name}.log"))).unwrap();
        // At natural size, nothing is wider than the 170 mm text of the test page.
        assert!(
            !log.contains("Overfull \\hbox"),
            "{name}: a figure overflows the page"
        );
    }
}

#[test]
fn the_overlap_check_sees_labels_over_each_other_and_not_neighbours() {
    let word = |w: &str, x: f64| (w.to_string(), [x, 10.0, x + 6.0, 18.0]);
    // "0" printed over "4" at the same corner: caught.
    assert_eq!(
        overlapping_words(&[word("0", 100.0), word("4", 101.0)]).len(),
        1
    );
    // Neighbours that touch, or kern into each other by a hair: not overlaps.
    assert!(overlapping_words(&[word("10", 100.0), word("15", 106.0)]).is_empty());
    assert!(overlapping_words(&[word("10", 100.0), word("15", 105.5)]).is_empty());
}

#[test]
fn a_grundy_table_as_tex_is_a_tabular_of_the_same_values_that_pdflatex_sets() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Figure 7.9 of the Miyadera web book, as LaTeX and as CSV.
    run_ok(d, &["grundy", "band-7-1", "--box", "22", "-o", "t.tex"]);
    run_ok(d, &["grundy", "band-7-1", "--box", "22", "-o", "t.csv"]);
    let tex = std::fs::read_to_string(d.join("t.tex")).unwrap();
    assert!(tex.contains("% 24 columns of numbers"), "{tex}");
    let mut values = std::collections::BTreeMap::new();
    for line in std::fs::read_to_string(d.join("t.csv"))
        .unwrap()
        .lines()
        .skip(1)
    {
        let v: Vec<u32> = line.split(',').map(|f| f.parse().unwrap()).collect();
        values.insert((v[0], v[1]), v[2]);
    }
    // The rows of the tabular, read back cell by cell: header row, then one row
    // per x with its y cells; a cell outside the game is empty.
    let body: Vec<&str> = tex
        .lines()
        .filter(|l| l.starts_with("\\cellcolor"))
        .collect();
    let number = |cell: &str| -> Option<u32> {
        let digits: String = cell
            .rsplit('}')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| c.is_ascii_digit())
            .collect();
        let inner: String = cell
            .split("textcolor{white}{")
            .nth(1)
            .map(|s| s.trim_end_matches('}').to_string())
            .unwrap_or_default();
        (inner + &digits).parse().ok()
    };
    let header: Vec<&str> = body[0]
        .trim_end_matches(" \\\\ \\hline")
        .split(" & ")
        .collect();
    let ys: Vec<u32> = header[1..].iter().map(|c| number(c).unwrap()).collect();
    let mut seen = 0;
    for row in &body[1..] {
        let cells: Vec<&str> = row.trim_end_matches(" \\\\ \\hline").split(" & ").collect();
        let x = number(cells[0]).unwrap();
        for (cell, &y) in cells[1..].iter().zip(&ys) {
            assert_eq!(
                number(cell),
                values.get(&(x, y)).copied(),
                "({x}, {y}): {cell}"
            );
            seen += usize::from(number(cell).is_some());
        }
    }
    assert_eq!(seen, values.len());
    // A plot other than the table, and P-only rows, are refused in one line.
    let out = nimscape(d)
        .args([
            "grundy", "band-7-1", "--box", "22", "--plot", "points", "-o", "s.tex",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, "a .tex file is the table of two free coordinates");
    if !have("pdflatex") {
        return;
    }
    std::fs::write(
        d.join("doc.tex"),
        // 24 columns of two digits fit the 170 mm text of an A4 page with 20 mm margins.
        "\\documentclass{article}\n\\usepackage[a4paper,margin=20mm]{geometry}\n\\usepackage{colortbl}\n\\begin{document}\n\\noindent\\input{t.tex}\n\\end{document}\n",
    )
    .unwrap();
    let out = Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", "doc.tex"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let log = std::fs::read_to_string(d.join("doc.log")).unwrap();
    assert!(
        !log.contains("Warning") && !log.contains("Overfull"),
        "{log}"
    );
    if have("pdftotext") {
        let text = Command::new("pdftotext")
            .args(["doc.pdf", "-"])
            .current_dir(d)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&text.stdout);
        // The largest value, typeset by LaTeX in the document's font.
        let largest = values.values().max().unwrap().to_string();
        assert!(text.contains(&largest), "{text}");
    }
}

/// A word of a PDF and its box (xMin, yMin, xMax, yMax).
type Placed = (String, [f64; 4]);

/// Words on one line of a PDF that touch or run into their neighbour, and
/// words that are two labels run together ("1m" of "m = 1m = 2").
fn run_together(words: &[Placed]) -> Vec<String> {
    let mut lines: Vec<(f64, Vec<&Placed>)> = Vec::new();
    for word in words {
        match lines.iter_mut().find(|(y, _)| (y - word.1[3]).abs() < 0.5) {
            Some((_, line)) => line.push(word),
            None => lines.push((word.1[3], vec![word])),
        }
    }
    let mut found: Vec<String> = words
        .iter()
        .filter(|(w, _)| {
            w.chars()
                .zip(w.chars().skip(1))
                .any(|(a, b)| a.is_ascii_digit() && b.is_alphabetic())
        })
        .map(|(w, _)| format!("'{w}'"))
        .collect();
    for (_, mut line) in lines {
        line.sort_by(|a, b| a.1[0].total_cmp(&b.1[0]));
        for pair in line.windows(2) {
            if pair[1].1[0] < pair[0].1[2] + 0.5 {
                found.push(format!("'{}' and '{}'", pair[0].0, pair[1].0));
            }
        }
    }
    found
}

/// Contact sheets at one- and two-column width (issue 19): exactly the width
/// asked, panel labels at the type scale (7 to 9 pt, never over 10), none
/// running into the next, in every family that lays panels out in a grid.
#[test]
fn sheet_labels_at_column_width_are_at_the_type_scale_and_never_touch() {
    if !have("pdftotext") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ratio = box_ratio(dir.path());
    let cases: [(&[&str], f64); 5] = [
        (&["square", "--m", "1..24", "--width", "85mm"], 240.94),
        (&["square", "--m", "1..24", "--width", "178mm"], 504.57),
        (&["square", "--m", "1..100", "--width", "85mm"], 240.94),
        (
            &["automaton", "--frames", "1..16", "--width", "85mm"],
            240.94,
        ),
        (
            &[
                "octahedron",
                "section",
                "--n",
                "4",
                "--levels",
                "5,5.5,6,6.5",
                "--width",
                "85mm",
            ],
            240.94,
        ),
    ];
    for (k, (args, width)) in cases.into_iter().enumerate() {
        let name = format!("sheet-{k}.pdf");
        run_ok(dir.path(), &[args, &["-o", name.as_str()]].concat());
        let path = dir.path().join(&name);
        let (w, _) = media_box(&std::fs::read(&path).unwrap());
        assert!((w - width).abs() < 0.5, "{args:?}: {w} pt wide");
        let words = placed_words(&path);
        assert!(words.len() >= 4, "{args:?}: {words:?}");
        for (word, [x0, y0, x1, y1]) in &words {
            let size = type_size(word, x1 - x0, y1 - y0, ratio);
            assert!(
                (6.5..=10.0).contains(&size),
                "{args:?}: '{word}' is {size:.2} pt"
            );
        }
        let touching = run_together(&words);
        assert!(touching.is_empty(), "{args:?}: {touching:?}");
    }
}

#[test]
fn sheet_labels_that_cannot_fit_are_refused_naming_what_fits() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args([
            "square",
            "--m",
            "1..24",
            "--width",
            "85mm",
            "--columns",
            "12",
            "-o",
            "x.pdf",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, "give --columns 6 or fewer");
    let out = nimscape(dir.path())
        .args(["square", "--m", "1..24", "--panel", "20", "-o", "x.png"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "give --panel 38 px or more");
    assert!(!dir.path().join("x.pdf").exists() && !dir.path().join("x.png").exists());
    // A caption size asked for is kept: the sheet takes fewer columns instead.
    run_ok(
        dir.path(),
        &[
            "square",
            "--m",
            "1..24",
            "--width",
            "85mm",
            "--caption-size",
            "12pt",
            "-o",
            "big.pdf",
        ],
    );
}

#[test]
fn margins_and_gaps_take_lengths_and_zero() {
    let dir = tempfile::tempdir().unwrap();
    let width = |extra: &[&str]| {
        let args = [
            &["square", "--m", "1", "--cell", "10pt"][..],
            extra,
            &["-o", "m.pdf"],
        ]
        .concat();
        run_ok(dir.path(), &args);
        media_box(&std::fs::read(dir.path().join("m.pdf")).unwrap()).0
    };
    // One 10 pt cell between two margins: 16 pt each by default, 10 mm = 28.35 pt.
    assert!((width(&[]) - 42.0).abs() < 0.5);
    assert!((width(&["--margin", "10mm"]) - 66.0).abs() < 0.5);
    assert!((width(&["--margin", "0"]) - 10.0).abs() < 0.5);
    let out = nimscape(dir.path())
        .args(["square", "--m", "1..4", "--gap", "2furlongs", "-o", "x.pdf"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "unknown unit");
    run_ok(
        dir.path(),
        &[
            "octahedron",
            "section",
            "--n",
            "4",
            "--levels",
            "5,6",
            "--gap",
            "1mm",
            "--margin",
            "0",
            "-o",
            "o.pdf",
        ],
    );
}

#[test]
fn a_sieve_is_exactly_the_width_asked() {
    // It used to cut its canvas to the plot: 234 pt for an 85 mm (240.9 pt) column.
    // Without its title it dropped to 146 pt.
    let dir = tempfile::tempdir().unwrap();
    for (width, points) in [("85mm", 85.0 / 25.4 * 72.0), ("178mm", 178.0 / 25.4 * 72.0)] {
        for title in [None, Some("--no-title")] {
            let mut args = vec![
                "grundy",
                "triangular",
                "--k",
                "3",
                "--box",
                "48",
                "--plot",
                "sieve",
                "--width",
                width,
                "-o",
                "s.pdf",
            ];
            args.extend(title);
            run_ok(dir.path(), &args);
            let (w, _) = media_box(&std::fs::read(dir.path().join("s.pdf")).unwrap());
            assert!(
                (w - points).abs() <= 0.5,
                "{width} {title:?}: {w} pt, not {points:.1}"
            );
        }
    }
}

/// A board or sheet too narrow for its margins names the width that fits, and
/// that width is drawn (it used to name 5.644 mm, itself refused for 36 pt).
#[test]
fn a_board_too_narrow_names_a_width_that_is_drawn() {
    let dir = tempfile::tempdir().unwrap();
    for (boards, named) in [("11", "36"), ("1..24", "126")] {
        let out = nimscape(dir.path())
            .args(["square", "--m", boards, "--width", "2mm", "-o", "w.pdf"])
            .output()
            .unwrap();
        assert_one_line_error(&out, &format!("give --width {named} pt or more"));
        let width = format!("{named}pt");
        run_ok(
            dir.path(),
            &["square", "--m", boards, "--width", &width, "-o", "w.pdf"],
        );
        let (w, _) = media_box(&std::fs::read(dir.path().join("w.pdf")).unwrap());
        assert!((w - named.parse::<f64>().unwrap()).abs() <= 0.5, "{w}");
    }
}
