//! `nimscape grundy` (and `square --overlay nim-pass`) from the outside: every
//! output, the numbers of SPEC §5–§7 through the CLI, every bad input, golden
//! tables and sieve, the same bytes whatever the thread count.

use super::golden::check_golden;
use super::support::{
    assert_one_line_error, assert_same_bytes_across_thread_counts, decode_png, nimscape, run_ok,
};
use nimscape_model::games::{GameBox, GameParams, GameSpec};
use std::path::Path;

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// Rows of a CSV file after its header, as numbers.
fn csv_rows(text: &str) -> Vec<Vec<i64>> {
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect()
}

#[test]
fn csv_has_every_position_and_the_977_to_2257_split() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "20",
            "-o",
            "t.csv",
        ],
    );
    let text = read(dir.path(), "t.csv");
    assert_eq!(text.lines().next(), Some("x,y,z,grundy"));
    let rows = csv_rows(&text);
    assert_eq!(rows.len(), 3234);
    let equal = rows.iter().filter(|r| r[0] ^ r[1] ^ r[2] == r[3]).count();
    assert_eq!((equal, rows.len() - equal), (977, 2257));
    // Every row is a position of the bar, and P iff x^y^z = 0 (k = 3, SPEC §5).
    for r in &rows {
        assert!(r[1] <= (r[0] + r[2]) / 3, "{r:?}");
        assert_eq!(r[3] == 0, r[0] ^ r[1] ^ r[2] == 0, "{r:?}");
    }
}

#[test]
fn p_only_lists_the_53_p_positions_of_k_2() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "grundy",
            "triangular",
            "--k",
            "2",
            "--box",
            "10",
            "--p-only",
            "-o",
            "p.csv",
        ],
    );
    let text = read(dir.path(), "p.csv");
    assert_eq!(text.lines().next(), Some("x,y,z"));
    assert_eq!(csv_rows(&text).len(), 53);
    run_ok(
        dir.path(),
        &[
            "grundy",
            "triangular",
            "--k",
            "2",
            "--box",
            "10",
            "--p-only",
            "-o",
            "p.json",
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&read(dir.path(), "p.json")).unwrap();
    assert_eq!(json["count"], 53);
    assert_eq!(json["coordinates"], serde_json::json!(["x", "y", "z"]));
    let listed: Vec<Vec<i64>> = serde_json::from_value(json["p_positions"].clone()).unwrap();
    assert_eq!(listed, csv_rows(&text));
}

#[test]
fn json_of_a_band_game_matches_the_library() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(dir.path(), &["grundy", "band-7-1", "-o", "b.json"]);
    let json: serde_json::Value = serde_json::from_str(&read(dir.path(), "b.json")).unwrap();
    assert_eq!(json["game"], "band-7-1");
    assert_eq!(json["box"], serde_json::json!([22, 23]));
    let game = GameSpec::from_name("band-7-1", &GameParams::default()).unwrap();
    let solution = game
        .solve(
            &GameBox::Uniform(22),
            1 << 30,
            &nimscape::Control::default(),
        )
        .unwrap();
    let expected: Vec<Vec<u32>> = solution
        .positions()
        .map(|(mut p, v)| {
            p.push(u32::from(v));
            p
        })
        .collect();
    let listed: Vec<Vec<u32>> = serde_json::from_value(json["positions"].clone()).unwrap();
    assert_eq!(listed, expected);
    assert_eq!(json["count"], expected.len());
    // Seed 002's Figure 7.9, first row: (0,0) = 0, (0,1) = 1.
    assert_eq!(&listed[..2], &[vec![0, 0, 0], vec![0, 1, 1]]);
}

#[test]
fn slices_select_rows_of_data() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "grundy", "min-half", "--box", "12", "--slice", "z=7", "-o", "s.csv",
        ],
    );
    let rows = csv_rows(&read(dir.path(), "s.csv"));
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r[2] == 7 && r[1] <= r[0].min(7) / 2));
}

#[test]
fn compare_nim_sum_prints_977_and_2257() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_ok(
        dir.path(),
        &[
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "20",
            "--compare-nim-sum",
        ],
    );
    assert!(out.contains("3234\t977\t2257"), "{out}");
    // With -o too: the table and the file.
    let out = run_ok(
        dir.path(),
        &[
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "20",
            "--compare-nim-sum",
            "-o",
            "a.csv",
        ],
    );
    assert!(out.contains("3234\t977\t2257"), "{out}");
    assert!(dir.path().join("a.csv").exists());
}

#[test]
fn find_shift_reports_minus_one_for_k_5_and_none_for_k_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_ok(
        dir.path(),
        &[
            "grundy",
            "triangular",
            "--k",
            "5",
            "--box",
            "20,10,20",
            "--find-shift",
            "-3..3",
        ],
    );
    assert!(out.contains("exact for h = -1\n"), "{out}");
    assert!(out.contains("\n-1\t0\t0\tyes\n"), "{out}");
    let out = run_ok(
        dir.path(),
        &[
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "20",
            "--find-shift=-2..2",
        ],
    );
    assert!(out.contains("exact for h = 0\n"), "{out}");
    let out = run_ok(
        dir.path(),
        &[
            "grundy",
            "triangular",
            "--k",
            "2",
            "--box",
            "10",
            "--find-shift",
            "-4..4",
        ],
    );
    assert!(out.contains("no h in -4..4"), "{out}");
    // A user cap: seed 004's sqrt game and its shift 3 (SPEC §5), in the program's box.
    let out = run_ok(
        dir.path(),
        &[
            "grundy",
            "--cap",
            "round(sqrt(x+z))",
            "--box",
            "200,20,200",
            "--find-shift",
            "-6..6",
        ],
    );
    assert!(out.contains("exact for h = 3\n"), "{out}");
}

#[test]
fn tables_are_drawn_as_png_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["grundy", "band-7-2", "--k", "2", "--h", "3", "--box", "16"],
        vec![
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "12",
            "--slice",
            "z=5",
        ],
        vec![
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "12",
            "--slice",
            "y=2",
        ],
        vec![
            "grundy",
            "nim-pass",
            "--heaps",
            "2",
            "--box",
            "9",
            "--palette",
            "okabe-ito",
        ],
        vec!["grundy", "band-7-1", "--modulus", "4", "--no-title"],
    ] {
        let mut png = args.clone();
        png.extend(["-o", "t.png"]);
        run_ok(dir.path(), &png);
        let (w, h, ..) = decode_png(&std::fs::read(dir.path().join("t.png")).unwrap());
        assert!(w > 200 && h > 200, "{args:?}");
        let mut svg = args.clone();
        svg.extend(["-o", "t.svg"]);
        run_ok(dir.path(), &svg);
        let text = read(dir.path(), "t.svg");
        assert!(text.starts_with("<svg") || text.starts_with("<?xml"));
        assert!(text.contains(&format!("width=\"{w}\"")), "{args:?}");
    }
}

#[test]
fn plots_of_p_positions_are_drawn() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec![
            "grundy", "nim-pass", "--heaps", "3", "--box", "15", "--plot", "points3d",
        ],
        vec!["grundy", "nim", "--heaps", "3", "--box", "15"],
        vec![
            "grundy",
            "min-half",
            "--box",
            "30",
            "--azimuth",
            "-30",
            "--elevation",
            "40",
        ],
        vec![
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "40",
            "--plot",
            "sieve",
        ],
        vec![
            "grundy",
            "six-sided",
            "--slice",
            "x4=1,x5=2,x6=1",
            "--plot",
            "points3d",
        ],
    ] {
        let mut png = args.clone();
        png.extend(["-o", "p.png", "--width", "500", "--height", "400"]);
        run_ok(dir.path(), &png);
        let (w, h, ..) = decode_png(&std::fs::read(dir.path().join("p.png")).unwrap());
        // Point clouds fill the size asked for; sieves are cut to their content.
        assert!(w <= 500 && h <= 400 && w >= 300, "{args:?}: {w} x {h}");
        if args.contains(&"points3d") {
            assert_eq!((w, h), (500, 400), "{args:?}");
        }
    }
}

#[test]
fn square_overlay_draws_nim_and_nim_with_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "square",
            "--m",
            "14",
            "--overlay",
            "nim-pass",
            "--cell",
            "10",
            "-o",
            "o.png",
        ],
    );
    let (w, h, _, _, pixels) = decode_png(&std::fs::read(dir.path().join("o.png")).unwrap());
    let has = |rgb: [u8; 3]| pixels.chunks(3).any(|p| p == rgb);
    // Nim blue and pass vermillion are both on the board.
    assert!(
        has([0x00, 0x72, 0xB2]) && has([0xD5, 0x5E, 0x00]),
        "{w}x{h}"
    );
    run_ok(
        dir.path(),
        &[
            "square",
            "--m",
            "14,18,21,22",
            "--overlay",
            "nim-pass",
            "--columns",
            "4",
            "-o",
            "sheet.svg",
        ],
    );
    assert!(read(dir.path(), "sheet.svg").contains("#d55e00"));
}

#[test]
fn golden_table_figure_7_9() {
    check_golden("grundy-7-9.png", &["grundy", "band-7-1"]);
}

#[test]
fn golden_table_figure_7_14() {
    check_golden("grundy-7-14.png", &["grundy", "band-7-2"]);
}

#[test]
fn golden_sieve_of_the_triangular_bar() {
    check_golden(
        "grundy-sieve-k3.png",
        &[
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "48",
            "--plot",
            "sieve",
            "--width",
            "500",
            "--height",
            "700",
            // Square cells, the sieve's own shape, centred in the page asked.
            "--aspect",
            "1",
        ],
    );
}

#[test]
fn same_bytes_across_runs_and_thread_counts() {
    let dir = tempfile::tempdir().unwrap();
    for (args, name) in [
        (
            vec!["grundy", "triangular", "--k", "3", "--box", "60"],
            "v.csv",
        ),
        (vec!["grundy", "band-7-2"], "t.png"),
        (vec!["grundy", "min-half", "--box", "24"], "p.svg"),
    ] {
        assert_same_bytes_across_thread_counts(dir.path(), &args, name);
    }
}

/// Each bad input: one line on stderr, non-zero exit, and no file left behind.
#[test]
fn bad_input_gets_one_line_and_no_file() {
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["grundy", "hexagonal", "--box", "5"],
            "unknown game 'hexagonal'; expected one of triangular, min-half",
        ),
        (vec!["grundy", "--box", "5"], "give a game"),
        (vec!["grundy", "triangular", "--box", "5"], "needs --k"),
        (
            vec!["grundy", "triangular", "--k", "0", "--box", "5"],
            "--k must be at least 1",
        ),
        (
            vec!["grundy", "triangular", "--k", "3"],
            "--box is required",
        ),
        (
            vec!["grundy", "triangular", "--k", "3", "--box", "5,5"],
            "2 bounds",
        ),
        (
            vec!["grundy", "six-sided", "--k", "3"],
            "--k does not apply",
        ),
        (
            vec!["grundy", "--cap", "floor((x+z)/3))", "--box", "5"],
            "at column 15",
        ),
        (
            vec!["grundy", "--cap", "x - z - 1", "--box", "5"],
            "is negative (-1) at (x, z) = (0, 0)",
        ),
        (
            vec!["grundy", "--cap", "x**(z+60)", "--box", "5"],
            "overflows at (x, z) = (",
        ),
        (
            vec![
                "grundy",
                "triangular",
                "--k",
                "1",
                "--box",
                "3000",
                "--max-memory",
                "1G",
            ],
            "would need about",
        ),
        (
            vec![
                "grundy",
                "triangular",
                "--k",
                "3",
                "--box",
                "400",
                "--slice",
                "z=1",
            ],
            "a Grundy table of 401 x 401 cells is too large",
        ),
        (
            vec![
                "grundy",
                "triangular",
                "--k",
                "3",
                "--box",
                "9",
                "--slice",
                "w=1",
            ],
            "no coordinate 'w'",
        ),
        (
            vec!["grundy", "band-7-1", "--plot", "sieve"],
            "needs 3 free coordinates",
        ),
        (vec!["grundy", "six-sided"], "6 free coordinates"),
        (
            vec!["grundy", "band-7-1", "--find-shift", "-3..3"],
            "--find-shift tests (x+h)^y^(z+h) = 0, which applies to the capped three-heap games (triangular, min-half, cap), not band-7-1",
        ),
        (
            vec![
                "grundy",
                "triangular",
                "--k",
                "3",
                "--box",
                "5",
                "--find-shift",
                "3..-3",
            ],
            "is empty",
        ),
        (
            vec!["grundy", "band-7-1", "--color-classes", "9"],
            "--color-classes 9",
        ),
    ];
    for (args, needle) in cases {
        let dir = tempfile::tempdir().unwrap();
        let mut with_output = args.clone();
        with_output.extend(["-o", "out.png"]);
        let out = nimscape(dir.path()).args(&with_output).output().unwrap();
        assert_one_line_error(&out, needle);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "{args:?} left a file"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (
            vec!["grundy", "band-7-1", "-o", "t.bmp"],
            "unknown extension '.bmp'",
        ),
        (
            vec!["grundy", "band-7-1", "--p-only", "-o", "t.png"],
            "--p-only",
        ),
        (
            vec![
                "square",
                "--m",
                "14",
                "--overlay",
                "nim-pass",
                "-o",
                "p.csv",
            ],
            "--overlay draws still images",
        ),
        (
            vec![
                "square",
                "--m",
                "14",
                "--n",
                "9",
                "--overlay",
                "nim-pass",
                "-o",
                "p.png",
            ],
            "square boards",
        ),
        (
            vec![
                "square",
                "--m",
                "300",
                "--overlay",
                "nim-pass",
                "-o",
                "p.png",
                "--max-memory",
                "1G",
            ],
            "Nim with a pass on the 300 x 300 board",
        ),
    ] {
        let out = nimscape(dir.path()).args(&args).output().unwrap();
        assert_one_line_error(&out, needle);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "{args:?}"
        );
    }
}

#[test]
fn without_o_or_a_report_the_figure_goes_to_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args(["grundy", "triangular", "--k", "3", "--box", "5"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(dir
        .path()
        .join("output/grundy-triangular-k-3.png")
        .is_file());
    // A report alone writes no file.
    let out = nimscape(dir.path())
        .args([
            "grundy",
            "triangular",
            "--k",
            "3",
            "--box",
            "5",
            "--compare-nim-sum",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_dir(dir.path().join("output"))
            .unwrap()
            .count(),
        1
    );
}

#[test]
fn grundy_reports_honour_format_json() {
    let dir = tempfile::tempdir().unwrap();
    let base = ["grundy", "triangular", "--k", "3", "--box", "12"];
    let reports = ["--find-shift", "-3..3", "--compare-nim-sum", "--time"];
    let out = nimscape(dir.path())
        .args(base)
        .args(reports)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(document["game"], "triangular k=3");
    assert_eq!(document["box"], serde_json::json!([12, 12, 12]));
    let compared = &document["compare_nim_sum"];
    assert_eq!(
        compared["positions"],
        compared["equal"].as_u64().unwrap() + compared["different"].as_u64().unwrap()
    );
    assert_eq!(document["find_shift"]["exact"], serde_json::json!([0]));
    assert_eq!(
        document["find_shift"]["shifts"].as_array().unwrap().len(),
        7
    );
    assert!(document["seconds"].is_f64());

    // Without --format: the text tables, as before.
    let text = nimscape(dir.path())
        .args(base)
        .args(reports)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&text.stdout).contains("exact for h = 0"));

    let out = nimscape(dir.path())
        .args(base)
        .args(["--time", "--format", "csv"])
        .output()
        .unwrap();
    assert_one_line_error(
        &out,
        "grundy reports as text, or as JSON with --format json; not as csv",
    );
}
