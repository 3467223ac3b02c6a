//! Proofs from recipes (`[[prove]]`): the same request layer as `nimscape
//! prove`, so the same verdicts and certificates; each verdict cross-checked
//! here by a brute force of the triangular game in a small box.

use super::prove_logic::mona;
use super::support::{assert_one_line_error, nimscape, run_ok};
use std::path::Path;

const RECIPE: &str = r#"title = "Proofs"
name = "set"

[[prove]]
name = "tri"
caption = "P iff x^y^z = 0 in the triangular game"
game = "tri.toml"
param = "k=3,4"
claim = "x^y^z == 0"
"#;

/// The triangular game y <= floor((x+z)/k), solved by brute force: P-positions
/// of the box 0..=side, each found from its options (a move lowers one heap;
/// lowering x or z lowers y to the new bound when it is above it, as in
/// games/triangular.toml).
fn p_positions(k: u64, side: u64) -> std::collections::BTreeSet<(u64, u64, u64)> {
    let cap = |x: u64, z: u64| (x + z) / k;
    let fits = |x: u64, y: u64, z: u64| y <= cap(x, z);
    let mut p = std::collections::BTreeSet::new();
    // In order of the sum of the heaps, so every option is decided first.
    let mut all: Vec<(u64, u64, u64)> = (0..=side)
        .flat_map(|x| (0..=side).flat_map(move |y| (0..=side).map(move |z| (x, y, z))))
        .filter(|&(x, y, z)| fits(x, y, z))
        .collect();
    all.sort_by_key(|&(x, y, z)| x + y + z);
    for (x, y, z) in all {
        let mut options = (0..x)
            .map(|a| (a, y.min(cap(a, z)), z))
            .chain((0..y).map(|b| (x, b, z)))
            .chain((0..z).map(|c| (x, y.min(cap(x, c)), c)));
        if !options.any(|o| p.contains(&o)) {
            p.insert((x, y, z));
        }
    }
    p
}

fn report(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap()
}

#[test]
fn prove_in_a_recipe_proves_one_value_and_refutes_the_other_as_the_command_line_does() {
    if mona().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("recipes")).unwrap();
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    std::fs::copy(games.join("triangular.toml"), d.join("recipes/tri.toml")).unwrap();
    std::fs::write(d.join("recipes/set.toml"), RECIPE).unwrap();
    let printed = run_ok(
        d,
        &["render", "--quiet", "--out", "out", "recipes/set.toml"],
    );
    assert!(printed.contains("tri: k=3: proved:"), "{printed}");
    assert!(
        printed.contains("tri: k=4: false: smallest counterexample"),
        "{printed}"
    );

    // The command line on the same game file and claim: the same verdicts and
    // counterexample, and the certificate's command names the file from here.
    run_ok(
        d,
        &[
            "prove",
            "--quiet",
            "recipes/tri.toml",
            "--param",
            "k=3,4",
            "--claim",
            "x^y^z == 0",
            "-o",
            "cli",
        ],
    );
    for value in ["k3", "k4"] {
        let (recipe, cli) = (
            report(&d.join("out/set/tri").join(value)),
            report(&d.join("cli").join(value)),
        );
        for key in ["verdict", "counterexample", "statement", "command"] {
            assert_eq!(recipe[key], cli[key], "{value} {key}");
        }
        for file in ["report.md", "theorem.tex", "well-defined.mona"] {
            assert!(
                d.join("out/set/tri").join(value).join(file).is_file(),
                "{value}/{file}"
            );
        }
    }
    let proved = report(&d.join("out/set/tri/k3"));
    assert_eq!(proved["verdict"], "proved");
    assert_eq!(
        proved["command"],
        "nimscape prove recipes/tri.toml --param k=3,4 --claim 'x^y^z == 0'"
    );
    let refuted = report(&d.join("out/set/tri/k4"));
    assert_eq!(refuted["verdict"], "false");

    // The brute force agrees: for k = 3 the claim holds in the box, for k = 4
    // the counterexample is a P-position the claim leaves out.
    let side = 16;
    let p3 = p_positions(3, side);
    for x in 0..=side {
        for y in 0..=side {
            for z in 0..=side {
                if y <= (x + z) / 3 {
                    assert_eq!(
                        p3.contains(&(x, y, z)),
                        x ^ y ^ z == 0,
                        "k=3 at ({x}, {y}, {z})"
                    );
                }
            }
        }
    }
    let position: Vec<u64> = refuted["counterexample"]["position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let (x, y, z) = (position[0], position[1], position[2]);
    assert_ne!(x ^ y ^ z, 0, "{position:?}");
    assert!(
        p_positions(4, side).contains(&(x, y, z)),
        "{position:?} is no P-position"
    );

    // The gallery page lists both verdicts with links to their certificates.
    let index = std::fs::read_to_string(d.join("out/set/index.md")).unwrap();
    assert!(
        index.contains("- k=3: proved:") && index.contains("(tri/k3/report.md)"),
        "{index}"
    );
    assert!(
        index.contains("- k=4: false:") && index.contains("(tri/k4/report.md)"),
        "{index}"
    );
}

#[test]
fn a_bad_prove_table_is_one_line_naming_the_recipe_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases = [
        ("[[prove]]\nname = \"p\"\ngame = \"triangular\"\nparam = \"k=3\"\nclam = \"x^y^z == 0\"\n", "set.toml:5: prove 'p': 'clam' is not a parameter"),
        ("[[prove]]\nname = \"p\"\ngame = \"triangular\"\nout = \"proof\"\n", "set.toml:4: key 'out' is not for a [[prove]]"),
        ("[[prove]]\nname = \"p\"\ngame = \"square\"\ntheorem = \"list\"\n", "set.toml:4: prove 'p': theorem list only lists"),
    ];
    for (recipe, needle) in cases {
        std::fs::write(d.join("set.toml"), recipe).unwrap();
        let out = nimscape(d)
            .args(["render", "--out", "out", "set.toml"])
            .output()
            .unwrap();
        assert_one_line_error(&out, needle);
        assert!(!d.join("out").join("set").exists());
    }
}
