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

/// Grundy values of the game file below (y <= x ^ z ^ k, a heap lowered to
/// any t with y clipped to the cap at the new x or z) in the box 0..=n, by
/// trying every move with Rust's `^`; `None` off the game.
fn brute_xor_grundy(k: usize, n: usize) -> Vec<Vec<Vec<Option<u32>>>> {
    let cap = |x: usize, z: usize| x ^ z ^ k;
    let mut g = vec![vec![vec![None; n + 1]; n + 1]; n + 1];
    // Every option lowers x + y + z: fill by that sum.
    for sum in 0..=3 * n {
        for x in 0..=n.min(sum) {
            for z in 0..=n.min(sum - x) {
                let y = sum - x - z;
                if y > n || y > cap(x, z) {
                    continue;
                }
                let mut seen = Vec::new();
                seen.extend((0..y).map(|t| g[x][t][z]));
                seen.extend((0..x).map(|t| g[t][y.min(cap(t, z))][z]));
                seen.extend((0..z).map(|t| g[x][y.min(cap(x, t))][t]));
                let seen: Vec<u32> = seen
                    .into_iter()
                    .map(|v| v.expect("an option is a position"))
                    .collect();
                g[x][y][z] = Some((0..).find(|m| !seen.contains(m)).unwrap());
            }
        }
    }
    g
}

/// `^` is XOR in a game file: a file whose positions and moves use it is
/// surveyed, and every count, "holds" and smallest exception agrees with a
/// brute-force solve that uses Rust's `^`.
#[test]
fn a_game_file_with_xor_in_its_moves_is_surveyed_as_a_brute_force_solves_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("xor-cap.toml"),
        r#"name = "xor-cap"
heaps = ["x", "y", "z"]
functions = ["cap(a, b) = a ^ b ^ k"]
positions = ["y <= cap(x, z)"]

[params]
k = 0

[[move]]
lower = "y"

[[move]]
lower = "x"
to = "(t, min(y, cap(t, z)), z)"

[[move]]
lower = "z"
to = "(x, min(y, xor(x, t, k)), t)"
"#,
    )
    .unwrap();
    let n = 12usize;
    let json = survey_json(
        d,
        &[
            "xor-cap.toml",
            "--param",
            "k=0..3",
            "--box",
            "12",
            "--find",
            "nim-sum",
            "--rule",
            "x^y^z == 0",
            "--rule",
            "(x ^ z) - y",
            "--list",
            "1000",
        ],
    );
    // (rule, the rule's value) for the P-rule and the Grundy rule.
    type Rule = fn(i64, i64, i64) -> i64;
    let rules: [Rule; 2] = [|x, y, z| x ^ y ^ z, |x, y, z| (x ^ z) - y];
    for (i, k) in (0..=3usize).enumerate() {
        let g = brute_xor_grundy(k, n);
        let v = &json["values"][i];
        assert_eq!(v["value"], k as i64);
        let mut all: Vec<(Vec<usize>, u32)> = Vec::new();
        for x in 0..=n {
            for y in 0..=n {
                for z in 0..=n {
                    if let Some(value) = g[x][y][z] {
                        all.push((vec![x, y, z], value));
                    }
                }
            }
        }
        // The documented order: the largest coordinate, then lexicographic.
        all.sort_by_key(|(p, _)| (*p.iter().max().unwrap(), p.clone()));
        assert_eq!(v["positions"], all.len() as u64, "k = {k}");
        let p_count = all.iter().filter(|(_, g)| *g == 0).count();
        assert_eq!(v["p_positions"], p_count as u64, "k = {k}");
        let at = |p: &[usize]| (p[0] as i64, p[1] as i64, p[2] as i64);
        // Grundy = nim-sum, against the solve.
        let nim_bad: Vec<&Vec<usize>> = all
            .iter()
            .filter(|(p, g)| (p[0] ^ p[1] ^ p[2]) as u32 != *g)
            .map(|(p, _)| p)
            .collect();
        let found = &v["grundy_equals_nim_sum"];
        assert_eq!(found["exceptions"], nim_bad.len() as u64, "k = {k}");
        let listed: Vec<Vec<usize>> = found["smallest_exceptions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| position(&e["position"]))
            .collect();
        assert_eq!(listed.len(), nim_bad.len().min(1000), "k = {k}");
        assert!(listed.iter().zip(&nim_bad).all(|(a, b)| a == *b), "k = {k}");
        // P iff x^y^z == 0: the P-positions that break it and the N that fit it.
        let claims = &v["claims"]["rules"];
        let p_rule: Vec<(&Vec<usize>, bool)> = all
            .iter()
            .filter(|(p, g)| (*g == 0) != (rules[0](at(p).0, at(p).1, at(p).2) == 0))
            .map(|(p, g)| (p, *g == 0))
            .collect();
        assert_eq!(claims[0]["rule"], "x^y^z == 0");
        assert_eq!(claims[0]["holds"], p_rule.is_empty(), "k = {k}");
        assert_eq!(claims[0]["exceptions"], p_rule.len() as u64, "k = {k}");
        let listed: Vec<(Vec<usize>, bool)> = claims[0]["smallest_exceptions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (position(&e["position"]), e["is_p"].as_bool().unwrap()))
            .collect();
        let want: Vec<(Vec<usize>, bool)> = p_rule
            .iter()
            .take(1000)
            .map(|(p, is_p)| ((*p).clone(), *is_p))
            .collect();
        assert_eq!(listed, want, "k = {k}");
        // Grundy value = (x ^ z) - y.
        let g_rule = all
            .iter()
            .filter(|(p, g)| i64::from(*g) != rules[1](at(p).0, at(p).1, at(p).2))
            .count();
        assert_eq!(claims[1]["claim"], "grundy");
        assert_eq!(claims[1]["exceptions"], g_rule as u64, "k = {k}");
        assert_eq!(claims[1]["holds"], g_rule == 0, "k = {k}");
    }
}

/// The survey's first figure as the command line draws it: planned and run
/// by the request layer from `(flag, value)` pairs.
pub(super) fn survey_scene(args: &[(&str, &str)]) -> nimscape::scene::Scene {
    use nimscape::request::Value;
    let pairs: Vec<(String, Value)> = args
        .iter()
        .map(|(k, v)| (k.to_string(), Value::Text(v.to_string())))
        .collect();
    let planned = nimscape::request::survey::plan_pairs(&pairs, 1 << 32).unwrap();
    let found = planned.plan.run(&nimscape::Control::default()).unwrap();
    let scene =
        nimscape::figure::survey::value_scene(&found.values[0], &found.parameter, &found.view)
            .unwrap()
            .expect("a figure");
    found.style.apply(scene)
}

/// The scene's one cell layer.
pub(super) fn cells(scene: &nimscape::scene::Scene) -> nimscape::scene::item::CellLayer {
    scene
        .items
        .iter()
        .find_map(|i| match i {
            nimscape::scene::Item::Cells(c) => Some(c.clone()),
            _ => None,
        })
        .expect("a cell layer")
}

fn axis_names(scene: &nimscape::scene::Scene) -> Vec<String> {
    let mut names: Vec<String> = scene
        .items
        .iter()
        .filter_map(|i| match i {
            nimscape::scene::Item::Text(t) if t.role == nimscape::scene::Role::AxisName => {
                Some(t.text.clone())
            }
            _ => None,
        })
        .collect();
    names.sort();
    names
}

/// Figures in changed coordinates draw the new coordinates: the axes named
/// u and w, each cell where the brute force puts the position (u + k y, y,
/// w + k y), the slice named by a new coordinate, and a slice of an old one
/// refused before any work.
#[test]
fn figures_in_changed_coordinates_draw_and_name_the_new_coordinates() {
    let k = 3usize;
    let base = [
        ("cap", "floor(min(x,z)/k)"),
        ("param", "k=3"),
        ("box", "40"),
        ("find", "shift"),
        ("shift", "u=-1..1,w=-1..1"),
        ("coords", "u = x - k*y, w = z - k*y"),
        ("width", "85mm"),
    ];
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        survey_scene(&args)
    };
    let p = brute_p(k as i64, 40, 13);
    let is_position = |x: usize, y: usize, z: usize| x <= 40 && z <= 40 && y <= x.min(z) / k;
    // The slice y = 4 as it lies in (u, w).
    let y = 4;
    let scene = with(&[("plot", "slice"), ("slice", "y=4")]);
    assert_eq!(axis_names(&scene), ["u", "w"]);
    let layer = cells(&scene);
    let (mut u1, mut w1) = (0, 0);
    for x in 0..=40 {
        for z in 0..=40 {
            if is_position(x, y, z) {
                u1 = u1.max(x - k * y);
                w1 = w1.max(z - k * y);
            }
        }
    }
    // The slice spans its positions: u and w from 0 (x, z = 12) to 28.
    assert_eq!((layer.cols, layer.rows), (u1 + 1, w1 + 1));
    for row in 0..layer.rows {
        for col in 0..layer.cols {
            let (u, w) = (col, w1 - row);
            let (x, z) = (u + k * y, w + k * y);
            let want = if !is_position(x, y, z) {
                0
            } else if p[x][y][z] {
                2
            } else {
                1
            };
            assert_eq!(
                layer.indices[row * layer.cols + col],
                want,
                "(u, w) = ({u}, {w})"
            );
        }
    }
    // The sieve projects (u, y, w) to (y, u − w), which is x − z.
    assert_eq!(axis_names(&with(&[])), ["u − w", "y"]);
    // A slice of a new coordinate: u = 2 draws y and w.
    assert_eq!(
        axis_names(&with(&[("plot", "slice"), ("slice", "u=2")])),
        ["w", "y"]
    );
    // A slice of a coordinate the survey no longer has is refused up front.
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args([
            "survey",
            "--cap",
            "floor(min(x,z)/k)",
            "--param",
            "k=3",
            "--box",
            "40",
            "--coords",
            "u = x - k*y, w = z - k*y",
            "--plot",
            "slice",
            "--slice",
            "x=4",
            "-o",
            "f.png",
        ])
        .output()
        .unwrap();
    assert_one_line_error(
        &out,
        "'x' is not a coordinate of a three-heap game; the survey's coordinates (after --coords) are u, y, w",
    );
    assert!(!dir.path().join("f.png").exists());
}

/// A region's figure and header name what the region reaches: a slice the
/// region leaves empty is one line saying so, and the header gives y's reach
/// in the region, not the box's.
#[test]
fn a_region_heads_its_value_with_its_own_reach_and_an_empty_slice_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = [
        "survey",
        "--cap",
        "floor(min(x,z)/k)",
        "--param",
        "k=3",
        "--box",
        "40",
        "--find",
        "shift",
        "--where",
        "y <= 3 and x <= 30",
    ];
    let out = run_ok(d, &base);
    // Brute force: in the region x reaches 30, y 3, z 40; the box lets y reach 13.
    assert!(
        out.contains("box x 0..30 (box ≤ 40), y 0..3 (box ≤ 13), z 0..40:"),
        "{out}"
    );
    let mut args = base.to_vec();
    args.extend(["--plot", "slice", "--slice", "y=5", "-o", "f.png"]);
    let out = nimscape(d).args(&args).output().unwrap();
    assert_one_line_error(
        &out,
        "no value has a figure (k = 3: the slice y = 5 holds no position of the game in this box (y spans 0..3))",
    );
    let mut args = base.to_vec();
    args.extend(["--plot", "slice", "--slice", "y=5", "-o", "r.md"]);
    run_ok(d, &args);
    let page = std::fs::read_to_string(d.join("r.md")).unwrap();
    assert!(
        page.contains(
            "* no figure: the slice y = 5 holds no position of the game in this box (y spans 0..3)"
        ),
        "{page}"
    );
}
