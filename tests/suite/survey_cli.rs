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
            "floor((x+z)**2/k)",
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
                &format!("floor((x+z)**2/{k})"),
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
    assert!(out.contains("k=3  box x 0..16, y 0..10, z 0..16"), "{out}");
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
    assert!(page.contains("a diamond an N-position that fits it](r-k2.png)"));
    let csv = String::from_utf8(runs[0].1[4].1.clone()).unwrap();
    assert!(
        csv.starts_with("k,box,reach,finding,holds,rule,exceptions,smallest,holds_beyond,narrow\n")
    );
    assert!(
        csv.contains("3,14x9x14,0..14 0..9 0..14,shifted nim-sum,true,x^y^z = 0,0,,,\n"),
        "{csv}"
    );
    // CSVs are never quoted (docs/data-formats.md): every row has the header's
    // ten fields, and no field a quote.
    for line in csv.lines() {
        assert_eq!(line.split(',').count(), 10, "{line}");
        assert!(!line.contains('"'), "{line}");
    }
    // k = 2 has no rule: its figure marks exceptions in ink; k = 3 has one, and
    // its figure differs from k = 2's in having none (the same pixels apart from
    // the pattern: checked on the scene in the figure's own tests).
    let (_, _, _, _, k2) = decode_png(&runs[0].1[1].1);
    assert!(!k2.is_empty());
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
                "floor((x+z)**2/k)",
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

fn game_file(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(name)
        .display()
        .to_string()
}

fn json_of(dir: &Path, name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

#[test]
fn a_box_where_y_spans_a_few_values_says_so_and_a_box_may_follow_the_parameter() {
    // y <= floor(min(x, z)/k): in the box 40, k = 11 and 13 let y reach only 3,
    // where (x+1)^y^(z+1) = 0 is exact; it fails first at (4k, 4, 4k+3).
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let min_k = game_file("min-k.toml");
    let out = run_ok(
        d,
        &[
            "survey", &min_k, "--param", "k=11,13", "--box", "40", "--find", "shift",
        ],
    );
    assert!(
        out.contains("k=11  box x 0..40, y 0..3 (box ≤ 40), z 0..40"),
        "{out}"
    );
    assert!(
        out.contains(
            "warning: y spans only 0..3 in this box: a rule that holds says nothing about larger y"
        ),
        "{out}"
    );
    assert!(
        out.contains("holds: P iff (x+1)^y^(z+1) = 0 (warning: y spans only 0..3 in this box: the rule says nothing about larger y)"),
        "{out}"
    );
    // The cap path: its box is cut to y <= 3 by the cap, and it warns too.
    let out = run_ok(
        d,
        &[
            "survey",
            "--cap",
            "floor(min(x,z)/k)",
            "--param",
            "k=11",
            "--box",
            "40",
            "--find",
            "shift",
        ],
    );
    assert!(out.contains("y 0..3, z 0..40"), "{out}");
    assert!(out.contains("warning: y spans only 0..3"), "{out}");
    // A box that grows with k reaches y = 4 for every k, and the rule fails at
    // (4k, 4, 4k+3), checked position by position against grundy's own values.
    run_ok(
        d,
        &[
            "survey",
            &min_k,
            "--param",
            "k=11..13:2",
            "--box",
            "x=4*k+8, z=4*k+8",
            "--find",
            "shift",
            "--shift",
            "x=1..1,y=0..0,z=1..1",
            "-o",
            "grow.json",
        ],
    );
    let report = json_of(d, "grow.json");
    let values = report["values"].as_array().unwrap();
    assert_eq!(values.len(), 2);
    for v in values {
        let k = v["value"].as_i64().unwrap();
        let b = ints(&v["box"]);
        // y, unnamed, takes the largest bound given; the game reaches y = 4 in it.
        assert_eq!(b, vec![4 * k + 8; 3]);
        assert_eq!(ints(&v["reach"][1]), vec![0, (4 * k + 8) / k]);
        // Still few values of y: the warning stays (the rule fails, so it warns
        // the reader of the page, not of a "holds").
        assert!(
            v["warning"]
                .as_str()
                .unwrap()
                .starts_with("y spans only 0..4"),
            "k={k}"
        );
        let found = &v["shifted_nim_sum"];
        assert_eq!(found["holds"], Value::Bool(false));
        let first = ints(&found["best_failing"]["smallest_exceptions"][0]["position"]);
        assert_eq!(first, vec![4 * k, 4, 4 * k + 3], "k={k}");
        let positions = grundy_csv(
            d,
            &[
                "grundy",
                "--game",
                &min_k,
                "--param",
                &format!("k={k}"),
                "--box",
                &format!("{},{},{}", b[0], b[1], b[2]),
            ],
        );
        check_rules(found, &positions);
        // Exact for y <= 3, by brute force.
        for (p, g) in &positions {
            if p[1] <= 3 {
                assert_eq!(*g == 0, xor_rule(&[1, 0, 1], 0, p), "{p:?}");
            }
        }
    }
    for (args, needle) in [
        (vec!["--box", "x=8*x"], "uses the heap x"),
        (vec!["--box", "w=8*k"], "'w' is not a coordinate"),
        (vec!["--box", "k-20"], "negative"),
    ] {
        let mut all = vec![
            "survey",
            min_k.as_str(),
            "--param",
            "k=11",
            "--find",
            "shift",
        ];
        all.extend(args);
        let out = nimscape(d).args(&all).output().unwrap();
        assert_one_line_error(&out, needle);
    }
}

#[test]
fn parameter_ranges_take_a_step() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "survey",
            "triangular",
            "--param",
            "k=1..9:4",
            "--box",
            "8",
            "--find",
            "shift",
            "-o",
            "s.json",
        ],
    );
    let values: Vec<i64> = json_of(dir.path(), "s.json")["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["value"].as_i64().unwrap())
        .collect();
    assert_eq!(values, [1, 5, 9]);
    let out = nimscape(dir.path())
        .args(["survey", "triangular", "--param", "k=1..9:0", "--box", "8"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "the step after ':'");
}

/// A game file of two heaps in which every position but (0, 0) moves to
/// (0, 0): its one P-position is the origin. `misere` plays it misère.
fn origin_game(dir: &Path, misere: bool) -> String {
    let path = dir.join(if misere { "mis.toml" } else { "origin.toml" });
    std::fs::write(
        &path,
        format!(
            "name = \"origin\"\nheaps = [\"x\", \"y\"]\npositions = [\"x <= 100*k\"]\nmisere = {misere}\n\n[params]\nk = 1\n\n[[move]]\nlower = [\"x\", \"y\"]\n\n[[move]]\nlower = \"x\"\nto = \"(t, 0)\"\n"
        ),
    )
    .unwrap();
    path.display().to_string()
}

#[test]
fn misere_games_skip_the_grundy_finders_with_a_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = origin_game(d, true);
    run_ok(
        d,
        &[
            "survey", &file, "--param", "k=1", "--box", "6", "-o", "m.json", "-o", "m.csv",
        ],
    );
    let v = &json_of(d, "m.json")["values"][0];
    assert_eq!(v["grundy_equals_nim_sum"], Value::Null);
    assert_eq!(v["periods"], Value::Null);
    let skipped = v["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 2);
    assert!(skipped[0]["why"]
        .as_str()
        .unwrap()
        .contains("played misère"));
    // The P-position finders still run: misère P-positions are right.
    assert!(v["shifted_nim_sum"].is_object());
    let csv = std::fs::read_to_string(d.join("m.csv")).unwrap();
    assert!(csv.contains(",grundy = nim-sum,,skipped,"), "{csv}");
    let summary = run_ok(d, &["survey", &file, "--param", "k=1", "--box", "6"]);
    assert!(
        summary.contains("grundy = nim-sum: skipped: the game is played misère"),
        "{summary}"
    );
    // The same game played normally runs them.
    let normal = origin_game(d, false);
    let v = run_ok(d, &["survey", &normal, "--param", "k=1", "--box", "6"]);
    assert!(v.contains("grundy = nim-sum: fails"), "{v}");
}

#[test]
fn a_rule_no_position_satisfies_does_not_hold_beyond_its_threshold() {
    // The origin game's one P-position is (0, 0); x^y = c for c >= 8 holds at no
    // position of the box 0..7, so its one exception is (0, 0) and its threshold
    // 1, but it predicts no P-position beyond: not "holds beyond 1".
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = origin_game(d, false);
    run_ok(
        d,
        &[
            "survey",
            &file,
            "--param",
            "k=1",
            "--box",
            "7",
            "--find",
            "constant",
            "--constant",
            "8..9",
            "-o",
            "o.json",
        ],
    );
    let best = &json_of(d, "o.json")["values"][0]["nim_sum_constant"]["best_failing"];
    assert_eq!(best["threshold"], 1);
    assert_eq!(best["witnesses_beyond"], 0);
    assert_eq!(best["holds_beyond"], Value::Null);
    let out = run_ok(
        d,
        &[
            "survey",
            &file,
            "--param",
            "k=1",
            "--box",
            "7",
            "--find",
            "constant",
            "--constant",
            "8..9",
        ],
    );
    assert!(!out.contains("holds for every position"), "{out}");
}

#[test]
fn vacuous_lines_mean_the_same_for_a_built_in_game_and_its_file() {
    // One definition: lines parallel to the last coordinate holding a position of
    // the game in the box, less the P-positions (for an exact rule, its point on
    // every other such line is outside the game). Checked by brute force.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tri = game_file("triangular.toml");
    let mut vacuous = Vec::new();
    for (family, out) in [("triangular", "b.json"), (tri.as_str(), "f.json")] {
        run_ok(
            d,
            &[
                "survey", family, "--param", "k=3", "--box", "16,10,16", "--find", "shift",
                "--shift", "0..0", "-o", out,
            ],
        );
        let v = &json_of(d, out)["values"][0];
        vacuous.push(
            v["shifted_nim_sum"]["formulas"][0]["vacuous_lines"]
                .as_u64()
                .unwrap(),
        );
    }
    let positions = grundy_csv(
        d,
        &["grundy", "triangular", "--k", "3", "--box", "16,10,16"],
    );
    let lines: std::collections::BTreeSet<(i64, i64)> =
        positions.iter().map(|(p, _)| (p[0], p[1])).collect();
    let p_count = positions.iter().filter(|(_, g)| *g == 0).count();
    assert_eq!(vacuous, vec![(lines.len() - p_count) as u64; 2]);
}

/// `--aspect` shapes a survey figure's cells as it does a Grundy sieve's: a
/// cell's height over its width, the plot narrowed and centred to keep it; the
/// table, which has no cells, refuses it in one line.
#[test]
fn survey_figures_take_the_aspect_of_their_cells() {
    use super::survey_claims::{cells, survey_scene};
    let base = [
        ("game", "triangular"),
        ("param", "k=2"),
        ("box", "24"),
        ("find", "shift"),
        ("width", "85mm"),
    ];
    for plot in [&[][..], &[("plot", "slice"), ("slice", "y=4")][..]] {
        let mut shapes = Vec::new();
        for aspect in ["1", "0.5", "3/2"] {
            let mut args = base.to_vec();
            args.extend_from_slice(plot);
            args.push(("aspect", aspect));
            let scene = survey_scene(&args);
            // Still the width asked: 85 mm is 241 pt.
            assert_eq!(scene.width, 241, "{plot:?} --aspect {aspect}");
            let layer = cells(&scene);
            let cell_w = f64::from(layer.rect.width) / layer.cols as f64;
            let cell_h = f64::from(layer.rect.height) / layer.rows as f64;
            let want = match aspect {
                "1" => 1.0,
                "0.5" => 0.5,
                _ => 1.5,
            };
            // The plot's sides are whole points, each within a point or two.
            let (w, h) = (f64::from(layer.rect.width), f64::from(layer.rect.height));
            assert!(
                (cell_h / cell_w - want).abs() <= want * (2.0 / w + 2.0 / h),
                "{plot:?} --aspect {aspect}: cells {cell_w:.2} x {cell_h:.2}"
            );
            // The plot stays within 1.25 of the room's width and fills one way.
            assert!(
                layer.rect.height as f64 <= 1.25 * 241.0,
                "{plot:?} {aspect}"
            );
            shapes.push((layer.rect.width, layer.rect.height));
        }
        assert!(
            shapes[0] != shapes[1] && shapes[1] != shapes[2],
            "{shapes:?}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args([
            "survey",
            "triangular",
            "--param",
            "k=2..3",
            "--box",
            "16",
            "--plot",
            "table",
            "--aspect",
            "1",
            "-o",
            "t.png",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, "--aspect shapes the cells of a sieve or slice figure");
    let out = nimscape(dir.path())
        .args([
            "survey",
            "triangular",
            "--param",
            "k=2",
            "--box",
            "16",
            "--aspect",
            "0",
            "-o",
            "t.png",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, "is not a ratio from 0.05 to 20");
}

/// A PGM (`P5`) as pdftoppm writes it: width, height, one grey byte a pixel.
fn read_pgm(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).to_string());
    }
    assert_eq!((fields[0].as_str(), fields[3].as_str()), ("P5", "255"));
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    // One whitespace byte ends the header.
    let pixels = bytes[at + 1..].to_vec();
    assert_eq!(pixels.len(), w * h);
    (w, h, pixels)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    Square,
    Diamond,
}

/// A survey figure printed in grey: rasterised from its PDF by poppler's
/// `pdftoppm -gray`, where the figure's own scene says a mark is, a P-position
/// that breaks the rule (a square ring) has ink at the four corners of its
/// box and an N-position that fits it (a diamond) has none there but ink at
/// its four tips, in the plot and in the key alike; and the P-positions'
/// blue and the other positions' grey print as different greys. Needs
/// pdftoppm (poppler-utils): skipped with a note without it, failing in CI.
#[test]
fn the_two_kinds_of_exception_differ_in_a_greyscale_print() {
    use super::survey_claims::{cells, survey_scene};
    use nimscape::scene::{Item, PathCmd};
    if !super::print_cli::have("pdftoppm") {
        return;
    }
    let args = [
        ("game", "triangular"),
        ("param", "k=2"),
        ("box", "16"),
        ("find", "shift"),
        ("plot", "slice"),
        ("slice", "y=4"),
        ("width", "85mm"),
    ];
    let scene = survey_scene(&args);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut cli: Vec<String> = vec!["survey".into()];
    for (flag, value) in args {
        if flag != "game" {
            cli.push(format!("--{flag}"));
        }
        cli.push(value.into());
    }
    cli.extend(["-o".into(), "fig.pdf".into()]);
    let cli: Vec<&str> = cli.iter().map(String::as_str).collect();
    run_ok(d, &cli);
    // The page is the scene, a point a unit, stretched to exactly 85 mm.
    let (page_w, page_h) = super::print_cli::media_box(&std::fs::read(d.join("fig.pdf")).unwrap());
    assert!((page_w - f64::from(scene.width)).abs() < 0.5, "{page_w}");
    assert!((page_h - f64::from(scene.height)).abs() < 0.5, "{page_h}");
    let dpi = 288.0;
    let out = std::process::Command::new("pdftoppm")
        .args(["-gray", "-r", "288", "-singlefile", "fig.pdf", "grey"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (w, h, grey) = read_pgm(&std::fs::read(d.join("grey.pgm")).unwrap());
    let scale = page_w / f64::from(scene.width) * dpi / 72.0;
    // The darkest pixel within a pixel of a point of the scene.
    let ink_at = |x: f64, y: f64| -> u8 {
        let (px, py) = ((x * scale).round() as i64, (y * scale).round() as i64);
        let mut darkest = 255;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (qx, qy) = (px + dx, py + dy);
                if (0..w as i64).contains(&qx) && (0..h as i64).contains(&qy) {
                    darkest = darkest.min(grey[qy as usize * w + qx as usize]);
                }
            }
        }
        darkest
    };
    // Ink (#222) prints near 34, the P-positions' blue near 87.
    const INK: u8 = 70;
    // Every mark of the scene: an ink outline of four corners, no fill.
    let mut marks = Vec::new();
    for item in &scene.items {
        let Item::Path(p) = item else { continue };
        if p.fill.is_some() || p.stroke.is_none_or(|s| s.0 != nimscape::scene::color::INK) {
            continue;
        }
        let points: Vec<(f64, f64)> = p
            .commands
            .iter()
            .filter_map(|c| match c {
                PathCmd::MoveTo(x, y) | PathCmd::LineTo(x, y) => Some((*x, *y)),
                _ => None,
            })
            .collect();
        if points.len() != 4 || !matches!(p.commands.last(), Some(PathCmd::Close)) {
            continue;
        }
        let cx = points.iter().map(|p| p.0).sum::<f64>() / 4.0;
        let cy = points.iter().map(|p| p.1).sum::<f64>() / 4.0;
        let half = points.iter().map(|p| (p.0 - cx).abs()).fold(0.0, f64::max);
        let square = points
            .iter()
            .zip(points.iter().cycle().skip(1))
            .all(|(a, b)| (a.0 - b.0).abs() < 1e-6 || (a.1 - b.1).abs() < 1e-6);
        // A diamond reaches 1.3 times as far as the square ring of its size.
        let (shape, r) = if square {
            (Shape::Square, half)
        } else {
            (Shape::Diamond, half / 1.3)
        };
        marks.push((shape, cx, cy, r));
    }
    let layer = cells(&scene);
    let rect = layer.rect;
    let inside = |x: f64, y: f64, margin: f64| {
        x - margin > f64::from(rect.x)
            && x + margin < f64::from(rect.x + rect.width)
            && y - margin > f64::from(rect.y)
            && y + margin < f64::from(rect.y + rect.height)
    };
    // Every mark of the plot one size, whatever its cell's rounded edges.
    let radii: Vec<f64> = marks
        .iter()
        .filter(|m| inside(m.1, m.2, 0.0))
        .map(|m| m.3)
        .collect();
    assert!(
        radii.windows(2).all(|w| (w[0] - w[1]).abs() < 1e-6),
        "marks of several sizes: {marks:?}"
    );
    let mut checked = std::collections::BTreeMap::new();
    for &(shape, cx, cy, r) in &marks {
        // Alone: no other mark within reach of the points read, and in the
        // plot clear of its edges (the axes are ink too).
        let alone = marks
            .iter()
            .all(|&(_, x, y, s)| (x == cx && y == cy) || (x - cx).hypot(y - cy) > 3.2 * r.max(s));
        let in_plot = inside(cx, cy, 0.0);
        if !alone || (in_plot && !inside(cx, cy, 1.6 * r + 1.0)) {
            continue;
        }
        let corners = [(-r, -r), (r, -r), (r, r), (-r, r)].map(|(dx, dy)| ink_at(cx + dx, cy + dy));
        let d = 1.3 * r;
        let tips =
            [(0.0, -d), (d, 0.0), (0.0, d), (-d, 0.0)].map(|(dx, dy)| ink_at(cx + dx, cy + dy));
        match shape {
            Shape::Square => assert!(
                corners.iter().all(|&g| g < INK),
                "a square ring at ({cx:.1}, {cy:.1}) without ink at its corners: {corners:?}"
            ),
            Shape::Diamond => {
                assert!(
                    corners.iter().all(|&g| g > INK),
                    "a diamond at ({cx:.1}, {cy:.1}) with ink where a square ring's corners are: {corners:?}"
                );
                assert!(
                    tips.iter().all(|&g| g < INK),
                    "a diamond at ({cx:.1}, {cy:.1}) without ink at its tips: {tips:?}"
                );
            }
        }
        *checked.entry((in_plot, format!("{shape:?}"))).or_insert(0) += 1;
    }
    // Both kinds, in the plot and in the key.
    for place in [true, false] {
        for shape in ["Square", "Diamond"] {
            assert!(
                checked
                    .get(&(place, shape.to_string()))
                    .is_some_and(|&n| n > 0),
                "no {shape} checked {}: {checked:?} of {marks:?}",
                if place { "in the plot" } else { "in the key" }
            );
        }
    }
    // The fills: a P-position's cell and another position's print apart.
    let cell_grey = |index: u8| -> Vec<u8> {
        let (cw, ch) = (
            f64::from(rect.width) / layer.cols as f64,
            f64::from(rect.height) / layer.rows as f64,
        );
        (0..layer.rows * layer.cols)
            .filter(|&k| layer.indices[k] == index)
            .map(|k| {
                let (row, col) = (k / layer.cols, k % layer.cols);
                let (x, y) = (
                    f64::from(rect.x) + (col as f64 + 0.5) * cw,
                    f64::from(rect.y) + (row as f64 + 0.5) * ch,
                );
                grey[(y * scale) as usize * w + (x * scale) as usize]
            })
            .collect()
    };
    let (p_cells, n_cells) = (cell_grey(2), cell_grey(1));
    let median = |mut v: Vec<u8>| {
        v.sort_unstable();
        v[v.len() / 2]
    };
    let (p, n) = (median(p_cells), median(n_cells));
    assert!(
        n > INK && p > INK && n.abs_diff(p) > 80,
        "P-positions print {p}, the others {n}"
    );
}
