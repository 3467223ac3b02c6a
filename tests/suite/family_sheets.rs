//! Figures over a parameter or a slice (`grundy --param k=1..8`, `--k 1..8`,
//! `--slice y=0..10`): one panel per value, each value's P-positions checked
//! against a brute-force game search; a sheet at one scale shares its axes;
//! every frame of the animation has one page size; recipes take the same keys;
//! bad combinations are refused in one line.

use super::print_cli::{have, media_box};
use super::support::{assert_one_line_error, decode_gif, decode_png, nimscape, run_ok};
use nimscape::request::{plan_pairs, Budget, Value};
use nimscape::scene::{Item, Role};
use std::collections::BTreeSet;
use std::path::Path;

/// The headline family: the bar y <= floor(min(x, z)/k).
const CAP: &str = "floor(min(x,z)/k)";

/// P-positions of y <= floor(min(x, z)/k) with x, z <= `side`, by backward
/// induction over every move (lower y; lower x or z, y cut to the new cap),
/// no nim-sum anywhere: the independent check of each panel.
fn brute_p_positions(k: u32, side: u32) -> Vec<[u32; 3]> {
    let cap = |x: u32, z: u32| x.min(z) / k;
    let n = (side + 1) as usize;
    let index = |x: u32, y: u32, z: u32| (x as usize * n + y as usize) * n + z as usize;
    let mut is_p = vec![false; n * n * n];
    let mut positions = Vec::new();
    for x in 0..=side {
        for z in 0..=side {
            for y in 0..=cap(x, z) {
                positions.push([x, y, z]);
            }
        }
    }
    // Every move lowers x + y + z.
    positions.sort_by_key(|p| p[0] + p[1] + p[2]);
    for &[x, y, z] in &positions {
        let mut reaches_p = (0..y).any(|t| is_p[index(x, t, z)]);
        reaches_p |= (0..x).any(|t| is_p[index(t, y.min(cap(t, z)), z)]);
        reaches_p |= (0..z).any(|t| is_p[index(x, y.min(cap(x, t)), t)]);
        is_p[index(x, y, z)] = !reaches_p;
    }
    positions
        .into_iter()
        .filter(|&[x, y, z]| is_p[index(x, y, z)])
        .collect()
}

fn pairs(words: &[(&str, &str)]) -> Vec<(String, Value)> {
    words
        .iter()
        .map(|(k, v)| (k.to_string(), Value::Text(v.to_string())))
        .collect()
}

#[test]
fn every_panel_of_a_sheet_is_its_values_p_positions_at_one_scale() {
    let planned = plan_pairs(
        &["grundy"],
        &pairs(&[
            ("cap", CAP),
            ("param", "k=1..4"),
            ("box", "16"),
            ("plot", "sieve"),
            ("scale", "common"),
            ("columns", "4"),
            ("width", "178mm"),
        ]),
        &Budget::default(),
    )
    .unwrap();
    let scene = planned
        .figure()
        .still_scene(&nimscape::Control::default())
        .unwrap()
        .unwrap();
    let layers: Vec<_> = scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Cells(cells) => Some(cells.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(layers.len(), 4, "one cell layer per panel");
    // One scale: the same cells and the same size in every panel.
    for layer in &layers[1..] {
        assert_eq!(
            (layer.rows, layer.cols, layer.rect.width, layer.rect.height),
            (
                layers[0].rows,
                layers[0].cols,
                layers[0].rect.width,
                layers[0].rect.height
            )
        );
    }
    // Panels left to right, labelled in order, on the label size of the sheet.
    let labels: Vec<(String, f64)> = scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Text(t) if t.role == Role::Label => Some((t.text.clone(), t.x)),
            _ => None,
        })
        .collect();
    let texts: Vec<&str> = labels.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(texts, ["k = 1", "k = 2", "k = 3", "k = 4"]);
    assert!(labels.windows(2).all(|w| w[0].1 < w[1].1), "{labels:?}");
    assert!(layers.windows(2).all(|w| w[0].rect.x < w[1].rect.x));
    let top_row = layers[0].rows as i64 - 1;
    for (k, layer) in (1..=4).zip(&layers) {
        // Lit cells as (y, up) with up counted from the bottom row.
        let lit: BTreeSet<(i64, i64)> = (0..layer.rows)
            .flat_map(|r| (0..layer.cols).map(move |c| (r, c)))
            .filter(|&(r, c)| layer.indices[r * layer.cols + c] == 1)
            .map(|(r, c)| (c as i64, top_row - r as i64))
            .collect();
        let brute: BTreeSet<(i64, i64)> = brute_p_positions(k, 16)
            .iter()
            .map(|&[x, y, z]| (i64::from(y), i64::from(x) - i64::from(z)))
            .collect();
        // The axes are shared, so the rows are offset by the lowest x - z drawn.
        let offset =
            lit.iter().map(|p| p.1).min().unwrap() - brute.iter().map(|p| p.1).min().unwrap();
        let shifted: BTreeSet<(i64, i64)> = brute.iter().map(|&(y, d)| (y, d + offset)).collect();
        assert_eq!(lit, shifted, "k = {k}");
        assert!(brute.len() > 3, "k = {k}: {brute:?}");
    }
}

#[test]
fn a_sheet_at_178_mm_and_its_frames_have_one_page_size_each() {
    if !have("pdftotext") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = [
        "grundy", "--cap", CAP, "--param", "k=1..8", "--box", "24", "--plot", "sieve", "--scale",
        "common", "--quiet",
    ];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        run_ok(d, &args);
    };
    with(&["--columns", "4", "--width", "178mm", "-o", "sheet.pdf"]);
    let (w, _) = media_box(&std::fs::read(d.join("sheet.pdf")).unwrap());
    assert!((w - 178.0 / 25.4 * 72.0).abs() < 0.5, "{w}");
    let text = std::process::Command::new("pdftotext")
        .args(["sheet.pdf", "-"])
        .current_dir(d)
        .output()
        .unwrap();
    let text: String = String::from_utf8_lossy(&text.stdout)
        .split_whitespace()
        .collect();
    for k in 1..=8 {
        assert!(text.contains(&format!("k={k}")), "k = {k} in {text}");
    }
    // Frames: one page size, the snippet beside them.
    with(&["--width", "120mm", "-o", "frames/k-%02d.pdf"]);
    let sizes: BTreeSet<String> = (1..=8)
        .map(|k| {
            let (w, h) = media_box(&std::fs::read(d.join(format!("frames/k-{k:02}.pdf"))).unwrap());
            format!("{w:.3} x {h:.3}")
        })
        .collect();
    assert_eq!(sizes.len(), 1, "frames of several sizes: {sizes:?}");
    let snippet = std::fs::read_to_string(d.join("frames/k-pdf.tex")).unwrap();
    assert!(snippet.contains("{frames/k-}{01}{08}"), "{snippet}");
    with(&["--width", "120mm", "-o", "png/k-%d.png"]);
    let png_sizes: BTreeSet<(u32, u32)> = (1..=8)
        .map(|k| {
            let (w, h, ..) = decode_png(&std::fs::read(d.join(format!("png/k-{k}.png"))).unwrap());
            (w, h)
        })
        .collect();
    assert_eq!(png_sizes.len(), 1, "{png_sizes:?}");
    with(&["-o", "k.gif"]);
    let gif = decode_gif(&std::fs::read(d.join("k.gif")).unwrap());
    assert_eq!(gif.frames.len(), 8);
    with(&["-o", "k.apng"]);
    let apng = std::fs::read(d.join("k.apng")).unwrap();
    assert!(apng.starts_with(b"\x89PNG") && apng.windows(4).any(|w| w == b"acTL"));
}

#[test]
fn game_files_built_in_families_and_slices_make_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/min-k.toml");
    let games = games.to_str().unwrap();
    for args in [
        vec![
            games, "--param", "k=1..4", "--box", "12", "--plot", "sieve", "-o", "file.png",
        ],
        vec![
            "triangular",
            "--k",
            "1..4",
            "--box",
            "12",
            "--plot",
            "sieve",
            "-o",
            "tri.svg",
        ],
        vec![
            "triangular",
            "--k",
            "3",
            "--box",
            "12",
            "--slice",
            "y=0..3",
            "--plot",
            "points",
            "-o",
            "slice.png",
        ],
        vec![
            "triangular",
            "--k",
            "3",
            "--box",
            "8",
            "--slice",
            "y=0..2",
            "-o",
            "tables.gif",
        ],
        vec![
            "--cap", CAP, "--param", "k=1,3,5", "--box", "12", "--plot", "sieve", "-o", "list.pdf",
        ],
    ] {
        let mut all = vec!["grundy", "--quiet"];
        all.extend(args);
        run_ok(d, &all);
    }
    // A game file's sheet is the cap's, panel for panel: the same game.
    let sieve = |game: &[&str], out: &str| {
        let mut all = vec!["grundy"];
        all.extend_from_slice(game);
        all.extend([
            "--param",
            "k=2..3",
            "--box",
            "12",
            "--plot",
            "sieve",
            "--no-caption",
            "-o",
            out,
            "--quiet",
        ]);
        run_ok(d, &all);
        decode_png(&std::fs::read(d.join(out)).unwrap()).4
    };
    assert_eq!(sieve(&[games], "a.png"), sieve(&["--cap", CAP], "b.png"));
}

#[test]
fn bad_sheets_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |args: &[&str]| nimscape(d).arg("grundy").args(args).output().unwrap();
    let sheet = [
        "--cap", CAP, "--param", "k=1..4", "--box", "12", "--plot", "sieve",
    ];
    let with = |extra: &[&str]| {
        let mut all = sheet.to_vec();
        all.extend_from_slice(extra);
        run(&all)
    };
    assert_one_line_error(
        &with(&["--slice", "y=0..2", "-o", "a.png"]),
        "varies one thing",
    );
    assert_one_line_error(
        &with(&["--height", "60mm", "-o", "a.png"]),
        "--height does not apply",
    );
    assert_one_line_error(&with(&["-o", "a.csv"]), "unknown extension '.csv'");
    assert_one_line_error(
        &with(&["--columns", "4", "--width", "40mm", "-o", "a.pdf"]),
        "give --width",
    );
    assert_one_line_error(
        &run(&[
            "triangular",
            "--k",
            "3",
            "--box",
            "12",
            "--columns",
            "2",
            "-o",
            "a.png",
        ]),
        "--columns",
    );
    assert_one_line_error(
        &run(&[
            "--cap", CAP, "--param", "k=1..65", "--box", "4", "-o", "a.png",
        ]),
        "at most 64",
    );
    assert_one_line_error(
        &run(&[
            "--cap",
            "floor(min(x,z)/2)",
            "--param",
            "k=1..4",
            "--box",
            "4",
            "-o",
            "a.png",
        ]),
        "has no 'k' in it",
    );
    assert!(
        std::fs::read_dir(d).unwrap().next().is_none(),
        "nothing written"
    );
}

#[test]
fn a_recipe_draws_the_command_lines_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("sheets.toml"),
        format!(
            r#"title = "Sheets"
name = "sheets"

[[figure]]
name = "min-k"
model = "grundy"
cap = "{CAP}"
param = "k=1..4"
box = 12
plot = "sieve"
scale = "common"
columns = 2
width = "120mm"
formats = ["png", "gif"]
"#
        ),
    )
    .unwrap();
    run_ok(d, &["render", "--quiet", "--out", "out", "sheets.toml"]);
    run_ok(
        d,
        &[
            "grundy",
            "--cap",
            CAP,
            "--param",
            "k=1..4",
            "--box",
            "12",
            "--plot",
            "sieve",
            "--scale",
            "common",
            "--columns",
            "2",
            "--width",
            "120mm",
            "--no-caption",
            "-o",
            "cli.png",
            "--quiet",
        ],
    );
    let rendered = decode_png(&std::fs::read(d.join("out/sheets/min-k.png")).unwrap());
    let cli = decode_png(&std::fs::read(d.join("cli.png")).unwrap());
    assert_eq!((rendered.0, rendered.1), (cli.0, cli.1));
    assert_eq!(
        rendered.4, cli.4,
        "the recipe's sheet is the command line's"
    );
    assert_eq!(
        decode_gif(&std::fs::read(d.join("out/sheets/min-k.gif")).unwrap())
            .frames
            .len(),
        4
    );
}
