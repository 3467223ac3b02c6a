//! The size matrix: every kind of figure at 40, 85, 120 and 178 mm and on a
//! 1920 px slide, checked in the files themselves.
//!
//! * **PDF** (words and boxes from poppler's `pdftotext -bbox`): the page is the
//!   width asked (±0.5 pt), no word under 6 pt, none over 10 pt on paper, no two
//!   words over each other, none outside the page. A figure that cannot fit
//!   refuses in one line naming the smallest width that does: that width
//!   works, 2 % less does not.
//! * **SVG** of the same scene: each text's role (its `class`) and size, so that
//!   one role has one size in every family at one width (the
//!   [`TypeScale`](nimscape::scene::TypeScale)); shrunk only to fit, never under
//!   its floor. No stroke under 0.25 pt.
//! * **PNG**: the size and pHYs of the same page at 300 dpi (none on a slide).
//!
//! Cases run on a few threads; the whole matrix takes seconds in release.

use super::print_cli::{box_ratio, have, media_box, overlapping_words, placed_words, type_size};
use super::support::nimscape;
use nimscape::scene::{Role, TypeScale};
use std::collections::BTreeMap;
use std::path::Path;

/// Every figure kind, as the arguments that draw a small one.
const KINDS: &[(&str, &str)] = &[
    ("square", "square --m 12"),
    ("sheet", "square --m 1..12"),
    ("decomposition", "square --m 3,5,11 --decompose"),
    (
        "nim-pass overlay",
        "square --m 14,18,21,22 --overlay nim-pass",
    ),
    ("count chart", "count --m 1..64"),
    // Its last number sits on the axis' end ("1000" was cut at 85 mm).
    ("count chart, log", "count --m 1..1000 --log"),
    ("automaton frame", "automaton --frames 12"),
    ("automaton sheet", "automaton --frames 1..8"),
    ("automaton mod p", "automaton --frames 12 --modulus 3"),
    ("rule 60", "automaton --frames 12 --rule60"),
    ("section", "octahedron section --n 3 --level 5"),
    ("levels", "octahedron section --n 3 --levels 4,5,6"),
    ("compare", "octahedron section --n 3 --level 5 --compare"),
    ("view", "octahedron view --n 2"),
    ("operation", "octahedron view --operation"),
    ("grundy table", "grundy band-7-2 --k 1 --h 3 --box 12"),
    ("points", "grundy nim --heaps 2 --plot points --box 16"),
    ("sieve", "grundy triangular --k 3 --box 48 --plot sieve"),
    (
        "points 3d",
        "grundy triangular --k 3 --box 12 --plot points3d",
    ),
    // A survey of one value writes its figure under the name given.
    (
        "survey sieve",
        "survey triangular --param k=2 --box 16 --find shift",
    ),
    (
        "survey slice",
        "survey triangular --param k=2 --box 16 --find shift --plot slice --slice y=3",
    ),
    // A sheet over a parameter: one panel per k at one scale, shared axes.
    (
        "grundy sheet",
        "grundy --cap floor(min(x,z)/k) --param k=1..4 --box 16 --plot sieve --scale common",
    ),
    // The parameter × finding table: one figure for the survey.
    (
        "survey table",
        "survey triangular --param k=2..4 --box 16 --find shift,nim-sum --rule x^y^z==0 --plot table",
    ),
];

/// Animated kinds, checked frame by frame.
const ANIMATIONS: &[(&str, &str)] = &[
    ("square frames", "square --m 1..3"),
    ("automaton frames", "automaton --frames 1..3"),
    ("sweep frames", "octahedron sweep --n 3 --frames 3"),
    // Frames over a parameter: every frame one page size (checked below).
    (
        "grundy frames",
        "grundy --cap floor(min(x,z)/k) --param k=1..4 --box 16 --plot sieve --scale common",
    ),
];

/// The widths: one column and two, either side, and a slide.
const WIDTHS: &[&str] = &["40mm", "85mm", "120mm", "178mm", "1920px"];

/// Page width in points of a `--width` as the matrix writes them.
fn width_pt(width: &str) -> f64 {
    let (number, unit) = width.split_at(width.find(|c: char| c.is_alphabetic()).unwrap());
    let value: f64 = number.parse().unwrap();
    match unit {
        "mm" => value / 25.4 * 72.0,
        "pt" | "px" => value,
        "in" => value * 72.0,
        other => panic!("unit {other}"),
    }
}

/// What one case found wrong, one line per finding.
type Findings = Vec<String>;

/// The smallest width a one-line refusal names: the first length after "use"
/// or "give" (`use 52.917 mm (625 px at 300 dpi) to ...`).
fn named_width(message: &str) -> Option<String> {
    let at = ["use ", "give "]
        .iter()
        .filter_map(|w| message.find(w).map(|k| k + w.len()))
        .min()?;
    let words: Vec<&str> = message[at..].split_whitespace().collect();
    let units = ["mm", "pt", "in", "px"];
    words.iter().enumerate().find_map(|(k, word)| {
        let word = word.trim_matches(|c: char| c == '(' || c == ')' || c == ',');
        let split = word.find(|c: char| c.is_alphabetic()).unwrap_or(word.len());
        let (number, unit) = word.split_at(split);
        number.parse::<f64>().ok()?;
        let unit = if unit.is_empty() {
            *words.get(k + 1)?
        } else {
            unit
        };
        units.contains(&unit).then(|| format!("{number}{unit}"))
    })
}

/// Checks one PDF page against the width asked.
fn check_pdf(path: &Path, width: &str, ratio: f64, on_paper: bool, findings: &mut Findings) {
    let bytes = std::fs::read(path).unwrap();
    let (w, h) = media_box(&bytes);
    let asked = width_pt(width);
    if (w - asked).abs() > 0.5 {
        findings.push(format!("page {w:.2} pt wide, asked {asked:.2}"));
    }
    let words = placed_words(path);
    for (k, (word, [x0, y0, x1, y1])) in words.iter().enumerate() {
        // A word with a neighbour on its line runs across the page; a lone word
        // may run up it (axis names), which the box's shape tells.
        // A neighbour is near, as words of a line are: the panels of a sheet put
        // their rotated axis names at one height too, far apart.
        let near = 2.0 * (y1 - y0);
        let on_a_line = words.iter().enumerate().any(|(j, (_, b))| {
            j != k
                && (b[1] - y0).abs() < 0.05
                && (b[3] - y1).abs() < 0.05
                && ((b[0] - x1).abs() < near || (x0 - b[2]).abs() < near)
        });
        let size = if on_a_line {
            (y1 - y0) / ratio
        } else {
            type_size(word, x1 - x0, y1 - y0, ratio)
        };
        if size < 6.0 - 0.01 {
            findings.push(format!("'{word}' is {size:.2} pt"));
        }
        if on_paper && size > 10.0 + 0.05 {
            findings.push(format!("'{word}' is {size:.2} pt, over 10"));
        }
        // The bottom edge is held to the font's descent: an axis name "y" whose
        // tail touched the page's edge was cut in print.
        if *x0 < -0.5 || *y0 < -0.5 || *x1 > w + 0.5 || *y1 > h + 0.05 {
            findings.push(format!(
                "'{word}' outside the {w:.1} x {h:.1} page: [{x0:.1}, {y0:.1}, {x1:.1}, {y1:.1}]"
            ));
        }
    }
    for pair in overlapping_words(&words) {
        findings.push(format!("{pair} overlap"));
    }
}

/// The role and size of every text an SVG carries (`<g class="tick" ...><text
/// font-size="7.2"`), and its thinnest stroke, in SVG units (points on paper).
fn svg_roles(svg: &str) -> (Vec<(String, f64)>, f64) {
    let mut roles = Vec::new();
    for group in svg.split("<g").skip(1) {
        let Some(at) = group.find(r#"class=""#) else {
            continue;
        };
        let class = group[at + 7..].split('"').next().unwrap().to_string();
        if let Some(k) = group.find(r#"font-size=""#) {
            let size: f64 = group[k + 11..].split('"').next().unwrap().parse().unwrap();
            roles.push((class, size));
        }
    }
    let thinnest = svg
        .split(r#"stroke-width=""#)
        .skip(1)
        .filter_map(|s| s.split('"').next()?.parse::<f64>().ok())
        .fold(f64::INFINITY, f64::min);
    (roles, thinnest)
}

/// The roles' largest sizes in one family at one width: the size it sets each
/// role at before anything shrinks to fit.
type RoleSizes = BTreeMap<String, f64>;

/// Runs one kind at one width in every format and checks it.
fn check_case(
    dir: &Path,
    name: &str,
    args: &str,
    width: &str,
    ratio: f64,
    animated: bool,
) -> (Findings, Option<RoleSizes>) {
    let mut findings = Vec::new();
    let args_text = args;
    let slug: String = format!("{name}-{width}")
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    let args: Vec<&str> = args.split_whitespace().collect();
    let on_paper = !width.ends_with("px");
    let run = |width: &str, out: &str| {
        nimscape(dir)
            .args(&args)
            .args(["--width", width, "-o", out, "--quiet"])
            .output()
            .unwrap()
    };
    let pdf = if animated {
        format!("{slug}/f-%d.pdf")
    } else {
        format!("{slug}.pdf")
    };
    let out = run(width, &pdf);
    let pdfs: Vec<std::path::PathBuf> = if animated {
        let mut files: Vec<_> = std::fs::read_dir(dir.join(&slug))
            .map(|d| d.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|e| e == "pdf"));
        files.sort();
        files
    } else {
        vec![dir.join(&pdf)]
            .into_iter()
            .filter(|p| p.exists())
            .collect()
    };
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr).trim_end().to_string();
        if stderr.lines().count() != 1 || stderr.contains("panicked") || !pdfs.is_empty() {
            findings.push(format!("unclean refusal: {stderr}"));
            return (findings, None);
        }
        // A refusal names the smallest width that fits, and that width works.
        let Some(least) = named_width(&stderr) else {
            findings.push(format!("refusal names no width: {stderr}"));
            return (findings, None);
        };
        if width_pt(&least) <= width_pt(width) {
            findings.push(format!("refused {width} but names {least}: {stderr}"));
        }
        let retry = format!("{slug}-least.pdf");
        let again = run(&least, &retry);
        // The smallest: 2 % less is refused too.
        let less = format!("{:.3}pt", width_pt(&least) * 0.98);
        if run(&less, &format!("{slug}-less.pdf")).status.success() {
            findings.push(format!("refused {width} naming {least}, but {less} works"));
        }
        if again.status.success() {
            check_pdf(&dir.join(&retry), &least, ratio, on_paper, &mut findings);
        } else {
            findings.push(format!(
                "refused {width} naming {least}, which is refused too: {}",
                String::from_utf8_lossy(&again.stderr).trim_end()
            ));
        }
        return (findings, None);
    }
    if pdfs.is_empty() {
        findings.push("no PDF written".into());
    }
    for path in &pdfs {
        let mut found = Vec::new();
        check_pdf(path, width, ratio, on_paper, &mut found);
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        findings.extend(found.into_iter().map(|f| format!("{file}: {f}")));
    }
    if animated {
        // Every frame one page size, or the animation jumps.
        let sizes: Vec<(f64, f64)> = pdfs
            .iter()
            .map(|p| media_box(&std::fs::read(p).unwrap()))
            .collect();
        if sizes
            .windows(2)
            .any(|w| (w[0].0 - w[1].0).abs() > 0.01 || (w[0].1 - w[1].1).abs() > 0.01)
        {
            findings.push(format!("frames of different page sizes: {sizes:?}"));
        }
        return (findings, None);
    }

    // The same scene as SVG: roles, their sizes and the thinnest line.
    let svg_name = format!("{slug}.svg");
    let out = run(width, &svg_name);
    assert!(
        out.status.success(),
        "{name} {width}: SVG refused but PDF not"
    );
    let svg = std::fs::read_to_string(dir.join(&svg_name)).unwrap();
    let view_width: f64 = svg
        .split(r#"viewBox="0 0 "#)
        .nth(1)
        .and_then(|s| s.split(' ').next()?.parse().ok())
        .unwrap();
    // SVG units per point of the page.
    let per_pt = view_width / width_pt(width);
    let (roles, thinnest) = svg_roles(&svg);
    if thinnest / per_pt < 0.25 - 1e-3 {
        findings.push(format!("a line {:.3} pt wide", thinnest / per_pt));
    }
    let mut sizes = RoleSizes::new();
    for (role, size) in roles {
        let size = size / per_pt;
        let entry = sizes.entry(role).or_insert(0.0);
        *entry = entry.max(size);
    }

    // The scene itself: markers, lines, text boxes from the font's metrics.
    match audit_scene(args_text, width) {
        Ok((found, roles)) => {
            findings.extend(found.into_iter().map(|f| format!("scene: {f}")));
            for (role, size) in roles {
                if role != Role::Other {
                    let entry = sizes.entry(role.class().to_string()).or_insert(0.0);
                    if (*entry - size).abs() > 0.06 {
                        findings.push(format!(
                            "{} is {size:.2} in the scene, {:.2} in the SVG",
                            role.name(),
                            *entry
                        ));
                    }
                }
            }
        }
        Err(e) => findings.push(format!("scene refused where the CLI was not: {e}")),
    }

    // The PNG of the same page: its size, and pHYs on paper only.
    if matches!(width, "85mm" | "1920px") {
        let png_name = format!("{slug}.png");
        let out = run(width, &png_name);
        assert!(
            out.status.success(),
            "{name} {width}: PNG refused but PDF not"
        );
        let png = std::fs::read(dir.join(&png_name)).unwrap();
        let (px, ..) = super::support::decode_png(&png);
        let phys = super::print_cli::phys(&png);
        if on_paper {
            let expected = (width_pt(width) / 72.0 * 300.0).round() as u32;
            if px.abs_diff(expected) > 1 || phys != Some((11811, 11811, true)) {
                findings.push(format!(
                    "PNG {px} px, pHYs {phys:?}; expected {expected} px"
                ));
            }
        } else if px != 1920 || phys.is_some() {
            findings.push(format!("PNG {px} px, pHYs {phys:?} on a slide"));
        }
    }
    (findings, Some(sizes))
}

/// The scene of a still figure, planned from the same words as the command
/// line (`--m 12 --decompose` as the pairs `m = 12`, `decompose = on`), and
/// what [`nimscape::scene::audit`] finds in it: markers over tick numbers,
/// hairlines, text over text or off the page, and each role's size.
fn audit_scene(args: &str, width: &str) -> Result<Audited, String> {
    let scene = plan_scene(args, width)?;
    Ok((
        nimscape::scene::audit::audit(&scene),
        nimscape::scene::audit::role_sizes(&scene),
    ))
}

/// The scene of a still figure planned from the words of a command line.
fn plan_scene(args: &str, width: &str) -> Result<nimscape::scene::Scene, String> {
    use nimscape::request::{plan_pairs, Budget, Value};
    let words: Vec<&str> = args.split_whitespace().collect();
    let flags = words
        .iter()
        .position(|w| w.starts_with("--"))
        .unwrap_or(words.len());
    let (command, mut positional) = (
        words[..flags]
            .iter()
            .take_while(|w| !is_game(w))
            .copied()
            .collect::<Vec<_>>(),
        words[..flags]
            .iter()
            .filter(|w| is_game(w))
            .map(|w| w.to_string()),
    );
    let mut pairs: Vec<(String, Value)> = Vec::new();
    if let Some(game) = positional.next() {
        pairs.push(("game".into(), Value::Text(game)));
    }
    let mut k = flags;
    while k < words.len() {
        let name = words[k].trim_start_matches("--").to_string();
        match words.get(k + 1).filter(|v| !v.starts_with("--")) {
            Some(value) => {
                pairs.push((name, Value::Text(value.to_string())));
                k += 2;
            }
            None => {
                pairs.push((name, Value::Switch(true)));
                k += 1;
            }
        }
    }
    pairs.push(("width".into(), Value::Text(width.into())));
    if command == ["survey"] {
        // A survey's figure: planned and run by its own request, drawn as the
        // command line draws it.
        let planned =
            nimscape::request::survey::plan_pairs(&pairs, 1 << 32).map_err(|e| e.to_string())?;
        let found = planned
            .plan
            .run(&nimscape::Control::default())
            .map_err(|e| e.to_string())?;
        let scene = if found.view.plot == nimscape::figure::survey::SurveyPlot::Table {
            nimscape::figure::survey::table_scene(&found).map_err(|e| e.to_string())?
        } else {
            nimscape::figure::survey::value_scene(&found.values[0], &found.parameter, &found.view)
                .map_err(|e| e.to_string())?
                .expect("a survey of three heaps has a figure")
        };
        return Ok(found.style.apply(scene));
    }
    let planned = plan_pairs(&command, &pairs, &Budget::default()).map_err(|e| e.to_string())?;
    let scene = planned
        .figure()
        .still_scene(&nimscape::Control::default())
        .map_err(|e| e.to_string())?
        .expect("a still figure has a scene");
    Ok(std::sync::Arc::unwrap_or_clone(scene))
}

/// What the audit found, and each role's largest size.
type Audited = (Vec<String>, Vec<(Role, f64)>);

/// The games of `grundy` (its positional argument).
fn is_game(word: &str) -> bool {
    word.contains('-') && !word.starts_with("--") || matches!(word, "nim" | "triangular" | "cap")
}

/// The class a role has in an SVG.
fn class_role(class: &str) -> Option<Role> {
    Role::ALL.into_iter().find(|r| r.class() == class)
}

#[test]
fn every_figure_kind_holds_at_every_size() {
    if !have("pdftotext") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ratio = box_ratio(dir.path());
    let mut cases: Vec<(&str, &str, &str, bool)> = Vec::new();
    for &width in WIDTHS {
        cases.extend(KINDS.iter().map(|&(n, a)| (n, a, width, false)));
        cases.extend(ANIMATIONS.iter().map(|&(n, a)| (n, a, width, true)));
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&(name, args, width, animated)) = cases.get(k) else {
                    break;
                };
                let (found, sizes) = check_case(dir.path(), name, args, width, ratio, animated);
                results.lock().unwrap().push((name, width, found, sizes));
            });
        }
    });
    let results = results.into_inner().unwrap();
    let mut findings = Vec::new();
    for (name, width, found, sizes) in &results {
        findings.extend(found.iter().map(|f| format!("{name} at {width}: {f}")));
        // One role, one size: each family's largest size of a role is the scale's
        // (smaller only where text shrank to fit, never under the floor).
        let on_paper = !width.ends_with("px");
        let scale = TypeScale::new(width_pt(width), on_paper);
        for (class, size) in sizes.iter().flatten() {
            let Some(role) = class_role(class) else {
                continue;
            };
            let nominal = scale.size(role);
            let floor = match role {
                Role::TableNumber => 6.0,
                _ => scale.floor(),
            };
            let shrinks = matches!(role, Role::Title | Role::Label | Role::TableNumber);
            let fine = (size - nominal).abs() < 0.06
                || (shrinks && *size < nominal && *size >= floor - 0.06);
            if !fine {
                findings.push(format!(
                    "{name} at {width}: {} at {size:.2}, the scale says {nominal:.2}",
                    role.name()
                ));
            }
        }
    }
    assert!(
        findings.is_empty(),
        "{} findings:\n{}",
        findings.len(),
        findings.join("\n")
    );
}

#[test]
fn a_refusal_names_a_width_the_matrix_can_use() {
    assert_eq!(
        named_width(
            "--width 40mm is 113.386 points; use 52.917 mm (625 px at 300 dpi) to 2822.222 mm"
        )
        .as_deref(),
        Some("52.917mm")
    );
    assert_eq!(
        named_width("give `width` 42.5 mm (120 pt) or more for 13 columns").as_deref(),
        Some("42.5mm")
    );
    assert_eq!(named_width("no width here"), None);
}

/// The Grundy plot kinds `--height` applies to.
const PLOT_KINDS: &[(&str, &str)] = &[
    ("grundy table", "grundy band-7-2 --k 1 --h 3 --box 12"),
    (
        "slice table",
        "grundy triangular --k 3 --box 12 --slice y=2",
    ),
    ("points", "grundy nim --heaps 2 --plot points --box 16"),
    ("sieve", "grundy triangular --k 3 --box 48 --plot sieve"),
    (
        "points 3d",
        "grundy triangular --k 3 --box 12 --plot points3d",
    ),
];

/// `--height` is the page's height (±0.5 pt) for every plot kind at 40, 60 and
/// 100 mm, with nothing outside the page; or a one-line refusal naming a height
/// that fits, which then works.
#[test]
fn every_plot_kind_is_the_height_asked() {
    if !have("pdftotext") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ratio = box_ratio(dir.path());
    let mut findings = Vec::new();
    for &(name, args) in PLOT_KINDS {
        for height in ["40mm", "60mm", "100mm"] {
            let slug: String = format!("{name}-h{height}")
                .chars()
                .map(|c| if c.is_alphanumeric() { c } else { '-' })
                .collect();
            let run = |height: &str, out: &str| {
                nimscape(dir.path())
                    .args(args.split_whitespace())
                    .args(["--width", "85mm", "--height", height, "-o", out, "--quiet"])
                    .output()
                    .unwrap()
            };
            let check = |height: &str, file: &str, findings: &mut Findings| {
                let path = dir.path().join(file);
                let (_, h) = media_box(&std::fs::read(&path).unwrap());
                let asked = width_pt(height);
                if (h - asked).abs() > 0.5 {
                    findings.push(format!(
                        "{name}: page {h:.2} pt high, asked {height} = {asked:.2} pt"
                    ));
                }
                let mut found = Vec::new();
                check_pdf(&path, "85mm", ratio, true, &mut found);
                findings.extend(
                    found
                        .into_iter()
                        .map(|f| format!("{name} at {height}: {f}")),
                );
            };
            let file = format!("{slug}.pdf");
            let out = run(height, &file);
            if out.status.success() {
                check(height, &file, &mut findings);
                continue;
            }
            let stderr = String::from_utf8_lossy(&out.stderr).trim_end().to_string();
            if stderr.lines().count() != 1 || stderr.contains("panicked") {
                findings.push(format!("{name} at {height}: unclean refusal: {stderr}"));
                continue;
            }
            let Some(least) = named_width(&stderr) else {
                findings.push(format!(
                    "{name} at {height}: refusal names no height: {stderr}"
                ));
                continue;
            };
            let retry = format!("{slug}-least.pdf");
            if run(&least, &retry).status.success() {
                check(&least, &retry, &mut findings);
            } else {
                findings.push(format!(
                    "{name} at {height}: refused naming {least}, which is refused too"
                ));
            }
        }
    }
    assert!(
        findings.is_empty(),
        "{} findings:\n{}",
        findings.len(),
        findings.join("\n")
    );
}

/// The plots that fill their width: every Grundy plot kind and the survey's
/// figures of one value.
const FILLING_KINDS: &[(&str, &str)] = &[
    ("grundy table", "grundy band-7-2 --k 1 --h 3 --box 12"),
    (
        "slice table",
        "grundy triangular --k 3 --box 12 --slice y=2",
    ),
    ("points", "grundy nim --heaps 2 --plot points --box 16"),
    ("sieve", "grundy triangular --k 3 --box 48 --plot sieve"),
    (
        "large sieve",
        "grundy triangular --k 3 --box 96 --plot sieve",
    ),
    (
        "points 3d",
        "grundy triangular --k 3 --box 12 --plot points3d",
    ),
    (
        "survey sieve",
        "survey triangular --param k=2 --box 16 --find shift",
    ),
    (
        "survey slice",
        "survey triangular --param k=2 --box 16 --find shift --plot slice --slice y=3",
    ),
];

/// At a column's 85 mm and a page's 160 mm every plot's drawing (its cells,
/// axes and frames; not its words) spans at least 70 % of the width asked: the
/// width less the axes' labels, no fixed aspect leaving the page half empty.
#[test]
fn every_plot_fills_its_width() {
    let mut findings = Vec::new();
    for &(name, args) in FILLING_KINDS {
        for width in ["85mm", "160mm"] {
            match plan_scene(args, width) {
                Ok(scene) => {
                    let span = nimscape::scene::audit::drawing_span(&scene);
                    if span < 0.70 {
                        findings.push(format!(
                            "{name} at {width}: the drawing spans {:.0} % of the width",
                            span * 100.0
                        ));
                    }
                }
                Err(e) => findings.push(format!("{name} at {width}: {e}")),
            }
        }
    }
    assert!(
        findings.is_empty(),
        "{} findings:\n{}",
        findings.len(),
        findings.join("\n")
    );
}

/// `--aspect` keeps the cells' shape asked: square cells leave a flat sieve
/// narrower than the page, which is then its own choice.
#[test]
fn aspect_keeps_the_cells_shape() {
    let args = "grundy triangular --k 3 --box 48 --plot sieve --height 60mm --aspect 1";
    let scene = plan_scene(args, "160mm").unwrap();
    let cells = scene
        .items
        .iter()
        .find_map(|i| match i {
            nimscape::scene::Item::Cells(c) => Some(c.clone()),
            _ => None,
        })
        .expect("a sieve has cells");
    let (w, h) = (
        f64::from(cells.rect.width) / cells.cols as f64,
        f64::from(cells.rect.height) / cells.rows as f64,
    );
    assert!((w - h).abs() < 0.05 * w, "cells {w:.2} x {h:.2}");
    // Without it the same page is filled.
    let filled = plan_scene(
        "grundy triangular --k 3 --box 48 --plot sieve --height 60mm",
        "160mm",
    )
    .unwrap();
    assert!(nimscape::scene::audit::drawing_span(&filled) >= 0.7);
}
