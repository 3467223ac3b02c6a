//! `nimscape survey` from the outside: every "holds" of a report re-checked
//! position by position against `nimscape grundy`'s own CSV, every reported
//! counterexample real and the smallest, artefacts told apart, the report files
//! and their figures, the same bytes whatever the thread count, bad input as one
//! line.

use super::support::{assert_one_line_error, decode_png, nimscape, run_ok};
use serde_json::Value;
use std::path::Path;

/// Every position of a CSV written by `grundy -o *.csv`: coordinates and value.
fn grundy_csv(dir: &Path, args: &[&str]) -> Vec<(Vec<i64>, i64)> {
    let mut all = args.to_vec();
    all.extend(["-o", "check.csv"]);
    run_ok(dir, &all);
    let text = std::fs::read_to_string(dir.join("check.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let v: Vec<i64> = l.split(',').map(|c| c.parse().unwrap()).collect();
            (v[..v.len() - 1].to_vec(), v[v.len() - 1])
        })
        .collect()
}

fn xor_rule(shift: &[i64], constant: i64, p: &[i64]) -> bool {
    p.iter().zip(shift).fold(0i64, |a, (c, s)| a ^ (c + s)) == constant
}

/// The order of counterexamples: largest coordinate, then lexicographic.
fn size_order(p: &[i64]) -> (i64, Vec<i64>) {
    (*p.iter().max().unwrap(), p.to_vec())
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_i64().unwrap())
        .collect()
}

/// Checks one rule family of one value against the positions: every formula and
/// artefact is exact; the best failing rule's counts, threshold and smallest
/// exceptions are those of brute force.
fn check_rules(found: &Value, positions: &[(Vec<i64>, i64)]) {
    for e in found["formulas"]
        .as_array()
        .unwrap()
        .iter()
        .chain(found["artefacts"].as_array().unwrap())
    {
        let (shift, c) = (ints(&e["shift"]), e["constant"].as_i64().unwrap());
        for (p, g) in positions {
            assert_eq!(*g == 0, xor_rule(&shift, c, p), "{} at {p:?}", e["rule"]);
        }
    }
    for a in found["artefacts"].as_array().unwrap() {
        let shift = ints(&a["shift"]);
        // No P-position other than 0 has all shifted coordinates >= 0.
        for (p, g) in positions {
            if *g == 0 && p.iter().any(|&c| c != 0) {
                assert!(
                    p.iter().zip(&shift).any(|(c, s)| c + s < 0),
                    "{} at {p:?}",
                    a["rule"]
                );
            }
        }
    }
    if let Some(best) = found["best_failing"].as_object() {
        let (shift, c) = (ints(&best["shift"]), best["constant"].as_i64().unwrap());
        let mut wrong: Vec<(Vec<i64>, bool)> = positions
            .iter()
            .filter(|(p, g)| (*g == 0) != xor_rule(&shift, c, p))
            .map(|(p, g)| (p.clone(), *g == 0))
            .collect();
        wrong.sort_by_key(|(p, _)| size_order(p));
        assert_eq!(best["exceptions"].as_u64().unwrap(), wrong.len() as u64);
        let threshold = size_order(&wrong.last().unwrap().0).0 + 1;
        assert_eq!(best["threshold"].as_i64().unwrap(), threshold);
        let listed = best["smallest_exceptions"].as_array().unwrap();
        assert!(!listed.is_empty());
        for (e, (p, is_p)) in listed.iter().zip(&wrong) {
            assert_eq!(
                (&ints(&e["position"]), e["is_p"].as_bool().unwrap()),
                (p, *is_p)
            );
        }
    }
}

#[test]
fn every_holds_of_the_researchers_survey_is_rechecked_position_by_position() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "survey",
            "--cap",
            "floor((x+z)^2/k)",
            "--param",
            "k=1..8",
            "--box",
            "14",
            "--shift",
            "x=-3..3,z=-3..3",
            "--constant",
            "0..3",
            "--find",
            "shift,constant,nim-sum",
            "-o",
            "r.json",
        ],
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    let values = report["values"].as_array().unwrap();
    assert_eq!(values.len(), 8);
    for v in values {
        let k = v["value"].as_i64().unwrap();
        let b = ints(&v["box"]);
        let positions = grundy_csv(
            dir.path(),
            &[
                "grundy",
                "--cap",
                &format!("floor((x+z)^2/{k})"),
                "--box",
                &format!("{},{},{}", b[0], b[1], b[2]),
            ],
        );
        assert_eq!(v["positions"].as_u64().unwrap(), positions.len() as u64);
        check_rules(&v["shifted_nim_sum"], &positions);
        check_rules(&v["nim_sum_constant"], &positions);
        // Miyadera et al.'s prediction, as this box shows it.
        let first = &v["shifted_nim_sum"]["formulas"][0]["shift"];
        let want = if k <= 4 { -1 } else { -2 };
        assert_eq!(ints(first), vec![want, 0, want], "k={k}");
        // Grundy against nim-sum: count and smallest exceptions by brute force.
        let fit = &v["grundy_equals_nim_sum"];
        let mut wrong: Vec<Vec<i64>> = positions
            .iter()
            .filter(|(p, g)| p.iter().fold(0, |a, c| a ^ c) != *g)
            .map(|(p, _)| p.clone())
            .collect();
        wrong.sort_by_key(|p| size_order(p));
        assert_eq!(fit["exceptions"].as_u64().unwrap(), wrong.len() as u64);
        for (e, p) in fit["smallest_exceptions"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&wrong)
        {
            assert_eq!(&ints(&e["position"]), p);
        }
    }
}

#[test]
fn the_triangular_family_and_the_artefacts_of_nim() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_ok(
        dir.path(),
        &[
            "survey",
            "triangular",
            "--param",
            "k=2..5",
            "--box",
            "16",
            "--find",
            "shift",
            "--shift",
            "x=-2..2,z=-2..2",
        ],
    );
    assert!(
        out.contains("every finding is a claim about the box"),
        "{out}"
    );
    assert!(out.contains("k=3  box x ≤ 16, y ≤ 10, z ≤ 16"), "{out}");
    assert!(out.contains("holds: P iff x^y^z = 0"), "{out}");
    assert!(out.contains("holds: P iff (x-1)^y^(z-1) = 0"), "{out}");
    run_ok(
        dir.path(),
        &[
            "survey",
            "nim",
            "--param",
            "heaps=3",
            "--box",
            "7",
            "--find",
            "shift",
            "--shift",
            "x=-8..8,y=-8..8",
            "-o",
            "nim.json",
        ],
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("nim.json")).unwrap())
            .unwrap();
    let found = &report["values"][0]["shifted_nim_sum"];
    let artefacts: Vec<Vec<i64>> = found["artefacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| ints(&a["shift"]))
        .collect();
    assert_eq!(artefacts, vec![vec![-8, -8, 0]]);
    let positions = grundy_csv(dir.path(), &["grundy", "nim", "--box", "7"]);
    check_rules(found, &positions);
}

#[test]
fn a_two_heap_family_reports_periods_and_band_games_survey_too() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "survey",
            "nim",
            "--param",
            "heaps=2",
            "--box",
            "31",
            "--find",
            "period,nim-sum",
            "-o",
            "p.json",
        ],
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("p.json")).unwrap()).unwrap();
    let v = &report["values"][0];
    assert_eq!(v["grundy_equals_nim_sum"]["holds"], Value::Bool(true));
    for axis in v["periods"].as_array().unwrap() {
        assert_eq!(axis["lines"], 32);
        // Row x < 8 has period and saltus 8 or less; the most common is period 32's
        // tail or the rows' own periods: every row is found periodic in this box.
        assert!(axis["periodic"].as_u64().unwrap() >= 8);
    }
    let out = run_ok(
        dir.path(),
        &[
            "survey",
            "band-7-2",
            "--param",
            "h=1..4",
            "--box",
            "30",
            "--find",
            "shift,period",
            "--shift",
            "-2..2",
        ],
    );
    assert_eq!(out.matches("  periods: along x:").count(), 4, "{out}");
}

#[test]
fn the_page_its_figures_json_and_csv_are_the_same_bytes_whatever_the_threads() {
    let mut runs = Vec::new();
    for threads in ["1", "2"] {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = nimscape(dir.path());
        cmd.env("RAYON_NUM_THREADS", threads).args([
            "survey",
            "triangular",
            "--param",
            "k=1..4",
            "--box",
            "14",
            "--shift",
            "x=-2..2,z=-2..2",
            "-o",
            "out/r.md",
            "-o",
            "r.json",
            "-o",
            "r.csv",
        ]);
        cmd.assert().success();
        let mut files: Vec<(String, Vec<u8>)> = Vec::new();
        for sub in [dir.path().to_path_buf(), dir.path().join("out")] {
            for entry in std::fs::read_dir(&sub).unwrap() {
                let path = entry.unwrap().path();
                if path.is_file() {
                    files.push((
                        path.file_name().unwrap().to_string_lossy().into(),
                        std::fs::read(&path).unwrap(),
                    ));
                }
            }
        }
        files.sort();
        runs.push((dir, files));
    }
    assert_eq!(runs[0].1, runs[1].1);
    let names: Vec<&str> = runs[0].1.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["r-k1.png", "r-k2.png", "r-k3.png", "r-k4.png", "r.csv", "r.json", "r.md"]
    );
    let page = String::from_utf8(runs[0].1[6].1.clone()).unwrap();
    assert!(
        page.contains("| k | box | positions | P | shifted nim-sum |"),
        "{page}"
    );
    assert!(page.contains("claim about **the box named in its row only**"));
    assert!(page.contains("![P-positions of k = 2, exceptions marked](r-k2.png)"));
    let csv = String::from_utf8(runs[0].1[4].1.clone()).unwrap();
    assert!(csv.starts_with("k,box,finding,holds,result\n"));
    assert!(
        csv.contains("3,\"14x9x14\",\"shifted nim-sum\",true,"),
        "{csv}"
    );
    // k = 2 has no rule: its figure marks the exceptions in vermillion; k = 3 has
    // one, and its figure has no vermillion.
    let vermillion = |bytes: &[u8]| {
        let (_, _, colour, _, pixels) = decode_png(bytes);
        let channels = if colour == png::ColorType::Rgba { 4 } else { 3 };
        pixels
            .chunks(channels)
            .filter(|p| p[..3] == [0xD5, 0x5E, 0x00])
            .count()
    };
    assert!(vermillion(&runs[0].1[1].1) > 0);
    assert_eq!(vermillion(&runs[0].1[2].1), 0);
}

#[test]
fn bad_input_is_one_line_and_large_surveys_are_refused_with_an_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["survey", "triangular", "--param", "k=5..1", "--box", "9"],
            "--param: 5..1 is empty",
        ),
        (
            &["survey", "triangular", "--param", "k", "--box", "9"],
            "is not NAME=VALUES",
        ),
        (
            &[
                "survey",
                "triangular",
                "--param",
                "k=1..3",
                "--box",
                "9",
                "--shift",
                "x=3..-3",
            ],
            "--shift: 3..-3 is empty",
        ),
        (
            &[
                "survey",
                "triangular",
                "--param",
                "k=1..3",
                "--box",
                "9",
                "--shift",
                "w=0..1",
            ],
            "'w' is not a coordinate",
        ),
        (
            &[
                "survey",
                "triangular",
                "--param",
                "k=1..3",
                "--box",
                "9",
                "--find",
                "magic",
            ],
            "unknown finder 'magic'",
        ),
        (
            &["survey", "triangular", "--param", "k=0..3", "--box", "9"],
            "at least 1",
        ),
        (
            &["survey", "min-half", "--param", "k=1..3", "--box", "9"],
            "no integer parameter",
        ),
        (
            &["survey", "triangular", "--param", "h=1..3", "--box", "9"],
            "'h' is not a parameter of triangular",
        ),
        (
            &[
                "survey",
                "--cap",
                "floor((x+z)/j)",
                "--param",
                "k=1..3",
                "--box",
                "9",
            ],
            "unknown name 'j'",
        ),
        (
            &["survey", "--cap", "x/k", "--param", "k=0..2", "--box", "9"],
            "divides by zero",
        ),
        (
            &[
                "survey",
                "triangular",
                "--param",
                "k=1..3",
                "--box",
                "9",
                "-o",
                "r.txt",
            ],
            "writes .md",
        ),
        (
            &[
                "survey",
                "triangular",
                "--param",
                "k=1..3",
                "--box",
                "9",
                "--shift",
                "-900..900",
            ],
            "would test 5841725417 rules",
        ),
        (
            &[
                "survey",
                "--cap",
                "floor((x+z)^2/k)",
                "--param",
                "k=1..4",
                "--box",
                "64",
                "--max-memory",
                "64M",
            ],
            "would need about",
        ),
    ];
    for (args, needle) in cases {
        let out = nimscape(dir.path()).args(*args).output().unwrap();
        assert_one_line_error(&out, needle);
    }
    // The refusal names the estimate and a way out, and nothing was written.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_game_file_family_finds_what_the_built_in_family_finds() {
    // games/triangular.toml over its `k` against the built-in triangular game: the
    // same positions in the box (y's cap floor((x+z)/k) stays within 16 for k >= 2),
    // so the same rules, exceptions and artefacts.
    let dir = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/triangular.toml");
    let common = [
        "--param",
        "k=2..5",
        "--box",
        "16",
        "--find",
        "shift,constant",
        "--shift",
        "x=-2..2,z=-2..2",
    ];
    let survey = |family: &str, out: &str| -> Value {
        let mut args = vec!["survey", family];
        args.extend(common);
        args.extend(["-o", out]);
        run_ok(dir.path(), &args);
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(out)).unwrap()).unwrap()
    };
    let built_in = survey("triangular", "built-in.json");
    let from_file = survey(file.to_str().unwrap(), "file.json");
    let values = |report: &Value| report["values"].as_array().unwrap().clone();
    assert_eq!(values(&built_in).len(), 4);
    // The boxes differ in y (the built-in box stops at the largest cap), so lines
    // with no position differ too (`vacuous_lines`); the findings do not.
    let findings = |found: &Value| {
        let rules: Vec<Value> = found["formulas"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].clone())
            .collect();
        (
            found["holds"].clone(),
            rules,
            found["best_failing"].clone(),
            found["artefacts"].clone(),
        )
    };
    for (a, b) in values(&built_in).iter().zip(values(&from_file).iter()) {
        for finder in ["shifted_nim_sum", "nim_sum_constant"] {
            assert_eq!(
                findings(&a[finder]),
                findings(&b[finder]),
                "{finder}, k = {}",
                a["value"]
            );
        }
    }
    let missing = nimscape(dir.path())
        .args([
            "survey",
            file.to_str().unwrap(),
            "--param",
            "q=1..3",
            "--box",
            "8",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&missing, "'q' is not a parameter");
}
