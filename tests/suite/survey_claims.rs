//! Rules of one's own in `nimscape survey` (`--rule`, `--where`, `--per`,
//! `--coords`) from the outside, each report re-checked against a brute-force
//! solve written here: the capped game's moves tried one by one.

// The brute force reads positions by their coordinates, as the rules name them.
#![allow(clippy::needless_range_loop)]

use super::support::{assert_one_line_error, nimscape, run_ok};
use serde_json::Value;
use std::path::Path;

/// P-positions of y <= floor(min(x, z)/k) with x, z <= n and y <= top, by trying
/// every move: y down to any smaller value, or x (or z) down to t, y then
/// clipped to the cap at the new x (or z).
fn brute_p(k: i64, n: usize, top: usize) -> Vec<Vec<Vec<bool>>> {
    let cap = |x: usize, z: usize| (x.min(z) as i64 / k) as usize;
    let mut p = vec![vec![vec![false; n + 1]; top + 1]; n + 1];
    for x in 0..=n {
        for z in 0..=n {
            for y in 0..=cap(x, z).min(top) {
                let reaches_p = (0..y).any(|t| p[x][t][z])
                    || (0..x).any(|t| p[t][y.min(cap(t, z))][z])
                    || (0..z).any(|t| p[x][y.min(cap(x, t))][t]);
                p[x][y][z] = !reaches_p;
            }
        }
    }
    p
}

fn survey_json(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["survey"];
    all.extend(args);
    all.extend(["-o", "r.json"]);
    run_ok(dir, &all);
    serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap()
}

fn position(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize)
        .collect()
}

/// The researcher's odd-k finding for y <= floor(min(x, z)/k) in one command:
/// P iff (x+1)^y^(z+1) = 0 exactly on y <= 3, the first exception (4k, 4,
/// 4k+3), for every odd k <= 31, in a box 8k + 16 that grows with k.
#[test]
fn the_odd_k_rule_holds_on_y_at_most_3_and_first_fails_at_4k_4_4k_plus_3() {
    let dir = tempfile::tempdir().unwrap();
    let rule = "(x+1)^y^(z+1) == 0";
    let shifted = |x: usize, y: usize, z: usize| ((x + 1) ^ y ^ (z + 1)) == 0;
    let family = [
        "--cap",
        "floor(min(x,z)/k)",
        "--param",
        "k=1..31:2",
        "--box",
        "x=8*k+16,z=8*k+16",
    ];
    let mut args = family.to_vec();
    args.extend(["--find", "none", "--rule", rule, "--per", "y"]);
    let report = survey_json(dir.path(), &args);
    let mut region_args = family.to_vec();
    region_args.extend([
        "--find",
        "shift",
        "--shift",
        "x=-1..1,z=-1..1",
        "--rule",
        rule,
        "--where",
        "y <= 3",
    ]);
    let region = survey_json(dir.path(), &region_args);
    let values = report["values"].as_array().unwrap();
    assert_eq!(values.len(), 16);
    for (i, value) in values.iter().enumerate() {
        let k = 2 * i + 1;
        assert_eq!(value["value"], k as u64);
        let n = 8 * k + 16;
        assert_eq!(value["box"][0], n as u64, "the box grows with k");
        let whole = &value["claims"]["rules"][0];
        assert_eq!(whole["rule"], rule);
        assert_eq!(whole["holds"], false, "k={k}");
        let first = position(&whole["smallest_exceptions"][0]["position"]);
        assert_eq!(first, vec![4 * k, 4, 4 * k + 3], "k={k}");
        assert_eq!(whole["smallest_exceptions"][0]["is_p"], true, "k={k}");
        // Brute force: exact on every position with y <= 3 of the box, and
        // (4k, 4, 4k+3) is an exception with nothing smaller in size order
        // (a position's status depends only on smaller ones, so the box up to
        // 4k + 3 decides it).
        let low = brute_p(k as i64, n, 3);
        for x in 0..=n {
            for z in 0..=n {
                for y in 0..=(x.min(z) / k).min(3) {
                    assert_eq!(low[x][y][z], shifted(x, y, z), "k={k} at ({x}, {y}, {z})");
                }
            }
        }
        let m = 4 * k + 3;
        let small = brute_p(k as i64, m, m);
        let mut exceptions = Vec::new();
        for x in 0..=m {
            for z in 0..=m {
                for y in 0..=(x.min(z) / k) {
                    if small[x][y][z] != shifted(x, y, z) {
                        exceptions.push((x.max(y).max(z), vec![x, y, z]));
                    }
                }
            }
        }
        exceptions.sort();
        assert_eq!(exceptions[0].1, first, "k={k}: the smallest exception");
        // The per-slice table says the same: every slice y <= 3 exact, y = 4 not.
        let slices = value["claims"]["per"]["slices"].as_array().unwrap();
        for s in slices {
            let y = s["value"].as_u64().unwrap();
            let holds = s["rules"][0]["holds"].as_bool().unwrap();
            if y <= 3 {
                assert!(holds, "k={k} y={y}");
            }
            if y == 4 {
                assert!(!holds, "k={k} y={y}");
                assert_eq!(
                    position(&s["rules"][0]["smallest_exceptions"][0]["position"]),
                    first
                );
            }
        }
        // Restricted to y <= 3 the rule holds, and so does the shift finder's.
        let value = &region["values"][i];
        assert_eq!(value["claims"]["region"], "y <= 3");
        assert_eq!(value["claims"]["rules"][0]["holds"], true, "k={k}");
        let positions: u64 = (0..=n)
            .flat_map(|x| (0..=n).map(move |z| (x.min(z) / k).min(3) as u64 + 1))
            .sum();
        assert_eq!(value["claims"]["rules"][0]["positions"], positions);
        assert_eq!(value["positions"], positions);
        assert_eq!(
            value["shifted_nim_sum"]["formulas"][0]["shift"],
            serde_json::json!([1, 0, 1])
        );
    }
}

#[test]
fn rules_coordinates_and_slices_reach_every_report() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "survey",
        "--cap",
        "floor(min(x,z)/k)",
        "--param",
        "k=2",
        "--box",
        "12",
        "--find",
        "shift,nim-sum",
        "--coords",
        "u = x - k*y, w = z - k*y",
        "--rule",
        "u^y^w; u^y^w == 0",
        "--per",
        "y",
        "-o",
        "r.md",
        "-o",
        "r.csv",
        "-o",
        "r.json",
    ];
    run_ok(dir.path(), &args);
    let page = std::fs::read_to_string(dir.path().join("r.md")).unwrap();
    assert!(
        page.contains("coordinates: u = x - k*y, y, w = z - k*y"),
        "{page}"
    );
    assert!(page.contains("Per slice of y"), "{page}");
    assert!(page.contains("**rule u^y^w**"), "{page}");
    let csv = std::fs::read_to_string(dir.path().join("r.csv")).unwrap();
    assert!(csv.contains(",rule u^y^w == 0,"), "{csv}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    let v = &json["values"][0];
    assert_eq!(v["coordinates"], serde_json::json!(["u", "y", "w"]));
    assert_eq!(v["claims"]["rules"][0]["claim"], "grundy");
    assert_eq!(v["claims"]["rules"][1]["claim"], "p-positions");
    // The Grundy rule's mismatches are the nim-sum finder's (the same claim).
    assert_eq!(
        v["claims"]["rules"][0]["exceptions"],
        v["grundy_equals_nim_sum"]["exceptions"]
    );
    // Brute force in the old coordinates: P iff u^y^w = 0 fails exactly where
    // the status and the rule disagree.
    let p = brute_p(2, 12, 6);
    let mut bad = 0u64;
    for x in 0..=12usize {
        for z in 0..=12usize {
            for y in 0..=x.min(z) / 2 {
                if p[x][y][z] != (((x - 2 * y) ^ y ^ (z - 2 * y)) == 0) {
                    bad += 1;
                }
            }
        }
    }
    assert_eq!(v["claims"]["rules"][1]["exceptions"], bad);
    let slices = v["claims"]["per"]["slices"].as_array().unwrap();
    assert_eq!(slices.len(), 7);
    let sum: u64 = slices
        .iter()
        .map(|s| s["rules"][1]["exceptions"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, bad, "the slices split the exceptions");
}

#[test]
fn bad_claims_are_one_line_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "survey",
        "--cap",
        "floor(min(x,z)/k)",
        "--param",
        "k=2",
        "--box",
        "8",
    ];
    for (extra, says) in [
        (
            ["--rule", "x ^ q == 0"],
            "--rule: expression: unknown name 'q'",
        ),
        (
            ["--rule", "x / 2 == y"],
            "only as the last step inside floor()",
        ),
        (["--where", "y <="], "--where"),
        (["--where", "x + y"], "is an integer, not a condition"),
        (["--per", "q"], "--per: 'q' is not a coordinate"),
        (["--coords", "u = x - 3*y"], "must be >= 0"),
        (["--find", "colour"], "or none"),
    ] {
        let mut args = base.to_vec();
        args.extend(extra);
        let out = nimscape(dir.path()).args(&args).output().unwrap();
        assert_one_line_error(&out, says);
    }
    let deep = vec!["x"; 30_000].join("+");
    let out = nimscape(dir.path())
        .args(base)
        .args(["--rule", &deep])
        .output()
        .unwrap();
    assert_one_line_error(&out, "the limit is 10000");
}

/// A recipe's `[[survey]]` takes `rule` (a list is several rules), `where`, `per`
/// and `coords`, and writes the command line's report byte for byte.
#[test]
fn a_recipe_survey_takes_the_claim_keys() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("recipes")).unwrap();
    std::fs::write(
        d.join("recipes/set.toml"),
        r#"title = "Claims"
name = "set"

[[survey]]
name = "odd"
cap = "floor(min(x,z)/k)"
param = "k=3"
box = 40
find = "shift"
shift = "x=-1..1,z=-1..1"
rule = ["(x+1)^y^(z+1) == 0", "min(x, z) >= 0 and x^y^z == 0"]
where = "y <= 5"
per = "y"
formats = ["json"]
"#,
    )
    .unwrap();
    run_ok(
        d,
        &["render", "--quiet", "--out", "out", "recipes/set.toml"],
    );
    let from_recipe = std::fs::read_to_string(d.join("out/set/odd.json")).unwrap();
    run_ok(
        d,
        &[
            "survey",
            "--cap",
            "floor(min(x,z)/k)",
            "--param",
            "k=3",
            "--box",
            "40",
            "--find",
            "shift",
            "--shift",
            "x=-1..1,z=-1..1",
            "--rule",
            "(x+1)^y^(z+1) == 0",
            "--rule",
            "min(x, z) >= 0 and x^y^z == 0",
            "--where",
            "y <= 5",
            "--per",
            "y",
            "-o",
            "cli.json",
        ],
    );
    assert_eq!(
        from_recipe,
        std::fs::read_to_string(d.join("cli.json")).unwrap()
    );
    let report: Value = serde_json::from_str(&from_recipe).unwrap();
    let claims = &report["values"][0]["claims"];
    assert_eq!(claims["rules"].as_array().unwrap().len(), 2);
    assert_eq!(claims["region"], "y <= 5");
    assert_eq!(claims["per"]["slices"].as_array().unwrap().len(), 6);
}
