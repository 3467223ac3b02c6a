//! `nimscape square` from the outside: every format, every bad input, raw pixels.

use super::support::{
    assert_one_line_error, assert_same_bytes_across_thread_counts, decode_png, nimscape,
};
use nimscape_model::pattern::p_grid;

#[test]
fn raw_png_is_one_black_pixel_per_p_cell() {
    let dir = tempfile::tempdir().unwrap();
    for (m, n) in [(11usize, 11usize), (37, 37), (100, 64), (5, 130)] {
        let file = format!("raw-{m}-{n}.png");
        nimscape(dir.path())
            .args([
                "square",
                "--m",
                &m.to_string(),
                "--n",
                &n.to_string(),
                "--raw",
                "-o",
                &file,
            ])
            .assert()
            .success();
        let (w, h, color, depth, rows) =
            decode_png(&std::fs::read(dir.path().join(&file)).unwrap());
        assert_eq!(
            (w as usize, h as usize, color, depth),
            (n, m, png::ColorType::Grayscale, png::BitDepth::One)
        );
        let grid = p_grid(m, n, &nimscape::Control::default()).unwrap();
        let row_bytes = n.div_ceil(8);
        for i in 0..m {
            for j in 0..n {
                let black = rows[i * row_bytes + j / 8] & (0x80 >> (j % 8)) == 0;
                assert_eq!(
                    black,
                    grid.get(i, j),
                    "C({m},{n}) cell ({},{})",
                    i + 1,
                    j + 1
                );
            }
        }
    }
}

#[test]
fn raw_png_spans_several_bands() {
    // 2500 rows cross the 1024-row bands of the streaming encoder.
    let dir = tempfile::tempdir().unwrap();
    nimscape(dir.path())
        .args(["square", "--m", "2500", "--raw", "-o", "big.png"])
        .assert()
        .success();
    let (w, h, _, _, rows) = decode_png(&std::fs::read(dir.path().join("big.png")).unwrap());
    assert_eq!((w, h), (2500, 2500));
    let grid = p_grid(2500, 2500, &nimscape::Control::default()).unwrap();
    let row_bytes = 2500usize.div_ceil(8);
    let black = rows
        .chunks(row_bytes)
        .enumerate()
        .flat_map(|(i, row)| (0..2500).map(move |j| (i, j, row[j / 8] & (0x80 >> (j % 8)) == 0)))
        .filter(|&(i, j, b)| b != grid.get(i, j))
        .count();
    assert_eq!(black, 0);
}

#[test]
fn raw_png_default_compression_makes_a_file_worth_keeping() {
    // m = 12345: 4.4 MB at `--compression fast`, 119 KB at zlib's default level.
    // The default must be the small one, for every command with a raw 1-bit PNG.
    let dir = tempfile::tempdir().unwrap();
    let size = |args: &[&str], name: &str| {
        let mut all = args.to_vec();
        all.extend(["-o", name]);
        nimscape(dir.path()).args(&all).assert().success();
        std::fs::metadata(dir.path().join(name)).unwrap().len()
    };
    // The compressed pixels alone: the text chunks hold the command, which differs.
    let idat = |name: &str| {
        let bytes = std::fs::read(dir.path().join(name)).unwrap();
        let (mut at, mut data) = (8, Vec::new());
        while at + 8 <= bytes.len() {
            let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            if &bytes[at + 4..at + 8] == b"IDAT" {
                data.extend_from_slice(&bytes[at + 8..at + 8 + len]);
            }
            at += 12 + len;
        }
        data
    };
    let square = ["square", "--m", "12345", "--raw"];
    let fast = size(
        &[&square[..], &["--compression", "fast"]].concat(),
        "fast.png",
    );
    let default = size(&square, "default.png");
    let balanced = size(
        &[&square[..], &["--compression", "balanced"]].concat(),
        "balanced.png",
    );
    assert!(fast > 4_000_000, "fast: {fast} bytes");
    assert!(default < 200_000, "default: {default} bytes");
    assert!(balanced.abs_diff(default) < 100);
    assert!(idat("default.png") == idat("balanced.png"));
    // The section's raw board is the same picture, drawn with the same default.
    let section = size(
        &[
            "octahedron",
            "section",
            "--n",
            "14",
            "--level",
            "12345",
            "--align",
            "--raw",
        ],
        "section.png",
    );
    assert!(section < 200_000, "section --raw: {section} bytes");
    let automaton = ["automaton", "--frames", "4095", "--raw"];
    let automaton_fast = size(
        &[&automaton[..], &["--compression", "fast"]].concat(),
        "automaton-fast.png",
    );
    let automaton_default = size(&automaton, "automaton.png");
    assert!(
        automaton_default < automaton_fast / 4,
        "automaton --raw: {automaton_default} bytes by default, {automaton_fast} fast"
    );
}

#[test]
fn csv_lists_every_p_cell_sorted_and_json_agrees() {
    let dir = tempfile::tempdir().unwrap();
    nimscape(dir.path())
        .args(["square", "--m", "11", "-o", "p.csv"])
        .assert()
        .success();
    nimscape(dir.path())
        .args(["square", "--m", "11", "-o", "p.json"])
        .assert()
        .success();
    let csv = std::fs::read_to_string(dir.path().join("p.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("i,j"));
    let cells: Vec<(usize, usize)> = lines
        .map(|l| {
            let (i, j) = l.split_once(',').unwrap();
            (i.parse().unwrap(), j.parse().unwrap())
        })
        .collect();
    let expected: Vec<(usize, usize)> = p_grid(11, 11, &nimscape::Control::default())
        .unwrap()
        .ones()
        .map(|(r, c)| (r + 1, c + 1))
        .collect();
    assert_eq!(cells, expected);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("p.json")).unwrap()).unwrap();
    assert_eq!(json["count"], 29);
    assert_eq!(json["decomposition"]["s"], 3);
    assert_eq!(json["p_positions"].as_array().unwrap().len(), cells.len());
}

#[test]
fn styled_png_and_svg_sheets_are_written() {
    let dir = tempfile::tempdir().unwrap();
    nimscape(dir.path())
        .args([
            "square",
            "--m",
            "1..24",
            "--width",
            "1200",
            "-o",
            "sheet.png",
        ])
        .assert()
        .success();
    let (w, h, color, _, _) = decode_png(&std::fs::read(dir.path().join("sheet.png")).unwrap());
    assert!(w <= 1200 && w > 1190, "width {w}");
    assert!(h > 700 && color == png::ColorType::Rgb);
    nimscape(dir.path())
        .args([
            "square",
            "--m",
            "1..24",
            "--width",
            "1200",
            "-o",
            "sheet.svg",
        ])
        .assert()
        .success();
    let svg = std::fs::read_to_string(dir.path().join("sheet.svg")).unwrap();
    assert!(svg.starts_with("<?xml") && svg.contains(&format!(r#"width="{w}" height="{h}""#)));
    assert!(svg.contains(r#"aria-label="m = 24""#));
}

#[test]
fn default_output_goes_to_the_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    nimscape(dir.path())
        .args(["square", "--m", "6"])
        .assert()
        .success();
    assert!(dir.path().join("output/square-6.png").is_file());
}

#[test]
fn big_svg_patterns_stay_small() {
    let dir = tempfile::tempdir().unwrap();
    // Every cell of R(1024,1024) is P: merged, the whole board is one rectangle.
    nimscape(dir.path())
        .args(["square", "--m", "1024", "--raw", "-o", "full.svg"])
        .assert()
        .success();
    let full = std::fs::read_to_string(dir.path().join("full.svg")).unwrap();
    assert!(full.len() < 1000, "{} bytes", full.len());
    assert!(full.contains("M0 0h1024v1024h-1024z"));
    // R(1000,1000) has g(1000) = 174656 P cells, many of them alone; merging and
    // relative moves keep it to a few bytes a cell.
    nimscape(dir.path())
        .args(["square", "--m", "1000", "--raw", "-o", "r.svg"])
        .assert()
        .success();
    let size = std::fs::metadata(dir.path().join("r.svg")).unwrap().len();
    assert!(size < 174_656 * 12, "{size} bytes");
}

#[test]
fn same_bytes_across_runs_and_thread_counts() {
    let dir = tempfile::tempdir().unwrap();
    for (args, name) in [
        (vec!["--m", "1..24", "--decompose"], "a.png"),
        (vec!["--m", "1..24"], "a.svg"),
        (vec!["--m", "3000", "--raw"], "r.png"),
    ] {
        let args: Vec<&str> = ["square"].into_iter().chain(args).collect();
        assert_same_bytes_across_thread_counts(dir.path(), &args, name);
    }
}

#[test]
fn png_records_the_command_that_made_it() {
    let dir = tempfile::tempdir().unwrap();
    nimscape(dir.path())
        .args(["square", "--m", "5", "-o", "five.png"])
        .assert()
        .success();
    let bytes = std::fs::read(dir.path().join("five.png")).unwrap();
    let reader = png::Decoder::new(std::io::Cursor::new(&bytes[..]))
        .read_info()
        .unwrap();
    let text: Vec<(String, String)> = reader
        .info()
        .uncompressed_latin1_text
        .iter()
        .map(|t| (t.keyword.clone(), t.text.clone()))
        .collect();
    assert!(text
        .iter()
        .any(|(k, v)| k == "Software" && v.starts_with("nimscape ")));
    assert!(text
        .iter()
        .any(|(k, v)| k == "Parameters" && v.contains("square --m 5")));
}

#[test]
fn missing_output_folders_are_created_and_the_path_is_announced() {
    let dir = tempfile::tempdir().unwrap();
    let output = nimscape(dir.path())
        .args(["square", "--m", "5", "-o", "new/deeper/x.png"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(dir.path().join("new/deeper/x.png").is_file());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim(), "wrote new/deeper/x.png");
    let quiet = nimscape(dir.path())
        .args(["--quiet", "square", "--m", "5", "-o", "q.png"])
        .output()
        .unwrap();
    assert!(
        quiet.status.success() && quiet.stderr.is_empty(),
        "{quiet:?}"
    );
}

#[test]
fn bad_input_gets_one_line_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["square", "--m", "0", "-o", "x.png"], "start at 1"),
        (&["square", "--m", "5..2", "-o", "x.png"], "empty range"),
        (
            &["square", "--m", "abc", "-o", "x.png"],
            "not a whole number",
        ),
        (
            &["square", "--m", "5", "--n", "1..3", "-o", "x.png"],
            "ranges go in --m",
        ),
        (
            &["square", "--m", "5", "-o", "x.bmp"],
            "unknown extension '.bmp'",
        ),
        (&["square", "--m", "65536", "-o", "x.png"], "--raw"),
        (
            &["square", "--m", "1..3", "--raw", "-o", "x.png"],
            "single --m",
        ),
        (
            &["square", "--m", "5", "--p-color", "blurple", "-o", "x.png"],
            "--p-color",
        ),
        (
            &[
                "square",
                "--m",
                "5",
                "--n",
                "7",
                "--decompose",
                "-o",
                "x.png",
            ],
            "square boards",
        ),
        (&["square", "-o", "x.png"], "--m is required"),
        // Checked once, in the request layer (the figure trusts its plan).
        (
            &["square", "--n", "5", "-o", "x.png"],
            "--m is required: the board size, e.g. --m 11, --m 1..24 or --m 3,5,11",
        ),
        (
            &["square", "--m", "1..4", "--columns", "0", "-o", "x.png"],
            "invalid value '0' for --columns",
        ),
        (
            &["square", "--m", "1..24", "--width", "100", "--columns", "6", "-o", "x.png"],
            "--width 100px leaves 0 px per panel for 6 column(s) after margins and gaps; give --width 126 px or more",
        ),
    ];
    for (args, needle) in cases {
        let output = nimscape(dir.path()).args(*args).output().unwrap();
        assert_one_line_error(&output, needle);
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "a file was left behind"
    );
}

#[test]
fn a_margin_in_pixels_on_paper_is_checked_once_at_its_resolution() {
    // 5000 px at 300 dpi is 1200 pt, within the 4096 allowed: a second check at
    // 72 dpi (5000 "points") used to refuse it.
    let dir = tempfile::tempdir().unwrap();
    super::support::run_ok(
        dir.path(),
        &[
            "square", "--m", "1..2", "--margin", "5000", "--dpi", "300", "-o", "x.svg",
        ],
    );
    let output = nimscape(dir.path())
        .args(["square", "--m", "1..2", "--margin", "5000", "-o", "y.svg"])
        .output()
        .unwrap();
    assert_one_line_error(
        &output,
        "--margin 5000px is 5000 points; use 0 px to 4096 px",
    );
}

#[test]
fn unwritable_output_folder_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    // A file where a folder should be: the path cannot be written, whoever runs the test.
    std::fs::write(dir.path().join("plain"), b"").unwrap();
    let output = nimscape(dir.path())
        .args(["square", "--m", "5", "-o", "plain/x.png"])
        .output()
        .unwrap();
    assert_one_line_error(&output, "plain");
}

#[test]
fn memory_refusal_states_the_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let output = nimscape(dir.path())
        .args(["square", "--m", "65536", "-o", "x.png"])
        .output()
        .unwrap();
    assert_one_line_error(&output, "GiB of memory, over the limit of 2.0 GiB");
}

/// The blank rows over and under a sheet are balanced (within 1.2 of each
/// other) at a column's, a page's and two columns' widths, with the
/// decomposition's key under it and without a key: the key and the captions'
/// spacing once left the bottom 1.5 times the top (figure-2: 96 px against 62).
#[test]
fn a_sheets_blank_under_it_matches_its_blank_over_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (m, decompose) in [("3,5,11", true), ("1..8", false)] {
        for width in ["85mm", "160mm", "178mm"] {
            let mut args = vec![
                "square", "--m", m, "--width", width, "--quiet", "-o", "s.png",
            ];
            if decompose {
                args.push("--decompose");
            }
            super::support::run_ok(d, &args);
            let (w, h, _, _, data) =
                super::support::decode_png(&std::fs::read(d.join("s.png")).unwrap());
            let (w, h) = (w as usize, h as usize);
            let channels = data.len() / (w * h);
            let row = |y: usize| &data[y * w * channels..(y + 1) * w * channels];
            let background = &row(0)[..channels];
            let blank = |y: usize| row(y).chunks(channels).all(|p| p == background);
            let top = (0..h).take_while(|&y| blank(y)).count();
            let bottom = (0..h).rev().take_while(|&y| blank(y)).count();
            assert!(
                top > 0 && bottom > 0,
                "m = {m} at {width}: {top} / {bottom}"
            );
            let ratio = top.max(bottom) as f64 / top.min(bottom) as f64;
            assert!(
                ratio <= 1.2,
                "m = {m} at {width}: {top} px blank over the sheet, {bottom} px under it"
            );
        }
    }
}
