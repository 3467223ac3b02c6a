//! `nimscape prove square --theorem NAME`: the square game's theorems of
//! Okubo–Kashiwagi–Niida for every m. The engine's reading of a P-cell is
//! checked against game search on the bar itself for every cell of every
//! m up to 40; every theorem is proved; wrong versions of Theorem 3.4 are
//! refuted with the smallest counterexample, confirmed by game search and
//! re-derived here by brute force; the certificates are written.

use super::prove_logic::{decide, limits, mona};
use nimscape::prove::engine::Outcome;
use nimscape::prove::Verdict;
use nimscape::Control;
use nimscape_model::games::chocolate::ChocolateBar;
use nimscape_model::games::solver::solve_dense;
use nimscape_model::pattern::is_p;
use nimscape_model::prove::ir::{Formula, Term};
use nimscape_model::prove::square::{
    self as theorems, criterion, criterion_by_sides, Decomposition,
};

/// The engine's P-cell, for every cell of every m up to 40, against the
/// P-positions that game search on the bar (moves are breaks; no nim-sum)
/// finds: per m, "P(m, i, j) holds exactly at these (i, j)" for all i and j
/// (off the board included), the cells listed as numbers.
#[test]
fn the_engines_p_cell_is_game_search_for_every_cell_up_to_40() {
    let Some(mona) = mona() else { return };
    let top = 40u32;
    let solved = solve_dense(
        &ChocolateBar,
        &[top, top, top, top],
        1 << 30,
        &nimscape::Control::default(),
    )
    .unwrap();
    let (i, j) = (Term::var("i"), Term::var("j"));
    let mut cells = 0;
    for m in 1..=top {
        let mut p_cells = Vec::new();
        for a in 1..=m {
            for b in 1..=m {
                let g = solved.get(&[a, b, m, m]).expect("a position");
                cells += 1;
                if g == 0 {
                    p_cells.push(Formula::and([
                        i.clone().eq(Term::Const(a.into())),
                        j.clone().eq(Term::Const(b.into())),
                    ]));
                }
            }
        }
        let m_term = Term::Const(m.into());
        let by_engine = criterion_by_sides(&m_term, &i, &j, 1);
        let listed = Formula::or(p_cells);
        assert_eq!(
            decide(&mona, &by_engine.iff(listed), &["i", "j"]),
            Outcome::Valid,
            "m = {m}: the engine's P-cells are not the game's"
        );
    }
    assert_eq!(cells, (1..=40).map(|m| m * m).sum::<u32>());
}

/// The natural-number reading the engine uses is the paper's formula with
/// its subtractions, for every n, x, y.
#[test]
fn the_criterion_by_sides_is_the_papers_formula_for_all_values() {
    let Some(mona) = mona() else { return };
    let [n, x, y] = ["n", "x", "y"].map(Term::var);
    let same = criterion_by_sides(&n, &x, &y, 1).iff(criterion(&n, &x, &y));
    assert_eq!(decide(&mona, &same, &["n", "x", "y"]), Outcome::Valid);
}

fn run(dir: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = super::support::nimscape(dir)
        .arg("prove")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Every theorem of the list proved from the command line, with certificates.
#[test]
fn every_square_theorem_is_proved_with_a_certificate() {
    if mona().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (ok, out, err) = run(
        dir.path(),
        &["square", "--theorem", "all", "-o", "proofs", "-q"],
    );
    assert!(ok, "{err}");
    let names = theorems::names();
    assert_eq!(out.lines().count(), names.len(), "{out}");
    for (line, name) in out.lines().zip(&names) {
        assert!(line.starts_with(&format!("{name}: proved")), "{line}");
        let folder = dir.path().join("proofs").join(name);
        for file in ["report.md", "report.json", "theorem.tex"] {
            assert!(folder.join(file).is_file(), "{name}/{file}");
        }
        let tex = std::fs::read_to_string(folder.join("theorem.tex")).unwrap();
        assert!(
            tex.contains("Okubo--Kashiwagi--Niida")
                && tex.contains("Recursive Patterns in the Chocolate Game"),
            "{name}: {tex}"
        );
        let json = std::fs::read_to_string(folder.join("report.json")).unwrap();
        assert!(json.contains("\"verdict\": \"proved\""), "{name}: {json}");
    }
    assert!(dir
        .path()
        .join("proofs/decomposition/theorem.mona")
        .is_file());
    assert!(dir.path().join("proofs/criterion/claim.mona").is_file());
    let tex = std::fs::read_to_string(dir.path().join("proofs/decomposition/theorem.tex")).unwrap();
    assert!(
        tex.contains("Theorem~3.4") && tex.contains("\\begin{theorem}"),
        "{tex}"
    );
    // The list names every theorem, and says that counting is not expressible.
    let (ok, out, _) = run(dir.path(), &["square", "--theorem", "list"]);
    assert!(ok);
    for name in &names {
        assert!(out.contains(name), "{name}: {out}");
    }
    assert!(out.contains("not expressible"), "{out}");
}

/// Wrong versions of Theorem 3.4, built by the same code, are refuted: the
/// smallest counterexample (in m, then i, then j) confirmed by game search,
/// and no smaller one by brute force over every cell of every smaller m.
#[test]
fn wrong_decompositions_are_refuted_with_the_smallest_confirmed_counterexample() {
    let Some(mona) = mona() else { return };
    for variant in [Decomposition::EdgesFull, Decomposition::CentreOffByOne] {
        let theorem = theorems::decomposition(variant);
        let report =
            nimscape::prove::square::prove(&theorem, &mona, limits(), 1 << 30, &Control::new())
                .unwrap();
        assert_eq!(report.verdict, Verdict::False, "{variant:?}");
        let line = nimscape::prove::square::summary(&report);
        assert!(line.starts_with("false: decomposition-wrong-"), "{line}");
        println!(
            "speed: {variant:?} refuted in {:.2} s: {line}",
            report.seconds
        );
        assert!(report.counterexample_is_smallest);
        let found = report.counterexample.expect("a counterexample");
        let value = |name: &str| found.values.iter().find(|(n, _)| n == name).unwrap().1;
        let (m, i, j) = (value("m"), value("i"), value("j"));
        let centre_extra = u64::from(variant == Decomposition::CentreOffByOne);
        let edges_full = variant == Decomposition::EdgesFull;
        let claim_holds = |m, i, j| decomposition_holds(centre_extra, edges_full, m, i, j);
        assert!(
            !claim_holds(m, i, j),
            "{variant:?}: ({m}, {i}, {j}) is no counterexample"
        );
        for m2 in 2..=m {
            for i2 in 1..=m2 {
                for j2 in 1..=m2 {
                    if (m2, i2, j2) < (m, i, j) {
                        assert!(
                            claim_holds(m2, i2, j2),
                            "{variant:?}: ({m2}, {i2}, {j2}) is smaller"
                        );
                    }
                }
            }
        }
        assert!(!found.cells.is_empty(), "{variant:?}");
        for cell in &found.cells {
            assert_eq!(
                cell.grundy == 0,
                is_p(cell.board, cell.board, cell.cell.0, cell.cell.1)
            );
        }
    }
}

/// The brute-force reading of a version of Theorem 3.4 at one cell (the
/// centre a copy of R(t + centre_extra), the edges empty or full): what it
/// says the cell is, against the pattern.
fn decomposition_holds(centre_extra: u64, edges_full: bool, m: u64, i: u64, j: u64) -> bool {
    let top = 1u64 << (63 - m.leading_zeros());
    let (s, t) = (m - top, 2 * top - m);
    let band = |x: u64| {
        if x <= s {
            0
        } else if x <= top {
            1
        } else {
            2
        }
    };
    let here = is_p(m, m, i, j);
    let cell =
        |n: u64, x: u64, y: u64| (1..=n).contains(&x) && (1..=n).contains(&y) && is_p(n, n, x, y);
    let back = |x: u64| if band(x) == 2 { x - top } else { x };
    match (band(i), band(j)) {
        (1, 1) => here == cell(t + centre_extra, i - s, j - s),
        (1, _) | (_, 1) => here == edges_full,
        _ => here == cell(s, back(i), back(j)),
    }
}

/// A researcher's own version of Theorem 3.4 from the command line: a wrong
/// one (`--variant 'centre=t+1'`, `--variant 'edges=full'`) is refuted with
/// the smallest counterexample (m, cell), confirmed by game search and
/// re-derived here by brute force over every cell of every smaller m; a
/// right one written differently (`corners=m-p`, which is s) is proved.
#[test]
fn a_variant_of_theorem_3_4_from_the_command_line_is_proved_or_refuted() {
    if mona().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (variant, centre_extra, edges_full) in [("centre=t+1", 1, false), ("edges=full", 0, true)] {
        let (ok, out, err) = run(
            dir.path(),
            &[
                "square",
                "--theorem",
                "3.4",
                "--variant",
                variant,
                "-o",
                variant,
                "-q",
            ],
        );
        assert!(ok, "{variant}: {err}");
        assert!(
            out.starts_with("false: decomposition-variant: smallest counterexample at m = "),
            "{variant}: {out}"
        );
        let json: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join(variant).join("report.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(json["verdict"], "false", "{json}");
        assert!(
            json["statement"].as_str().unwrap().contains(variant),
            "{json}"
        );
        let value = |name: &str| -> u64 {
            json["counterexample"]["values"]
                .as_array()
                .unwrap()
                .iter()
                .find(|pair| pair[0] == name)
                .unwrap()[1]
                .as_u64()
                .unwrap()
        };
        let (m, i, j) = (value("m"), value("i"), value("j"));
        let holds = |m, i, j| decomposition_holds(centre_extra, edges_full, m, i, j);
        assert!(
            !holds(m, i, j),
            "{variant}: ({m}, {i}, {j}) is no counterexample"
        );
        for m2 in 2..=m {
            for i2 in 1..=m2 {
                for j2 in 1..=m2 {
                    if (m2, i2, j2) < (m, i, j) {
                        assert!(
                            holds(m2, i2, j2),
                            "{variant}: ({m2}, {i2}, {j2}) is smaller"
                        );
                    }
                }
            }
        }
        // The cells the failing clause speaks of, by game search.
        for cell in json["counterexample"]["cells"].as_array().unwrap() {
            let board = cell["board"].as_u64().unwrap();
            let (x, y) = (
                cell["cell"][0].as_u64().unwrap(),
                cell["cell"][1].as_u64().unwrap(),
            );
            assert_eq!(cell["grundy"] == 0, is_p(board, board, x, y), "{cell}");
        }
    }
    let (ok, out, err) = run(
        dir.path(),
        &[
            "square",
            "--theorem",
            "decomposition",
            "--variant",
            "corners=m-p",
            "-q",
        ],
    );
    assert!(ok, "{err}");
    assert!(
        out.starts_with("proved for every m: Theorem 3.4 of Okubo–Kashiwagi–Niida"),
        "{out}"
    );
    assert!(out.contains("corners=m-p"), "{out}");
}

/// Misuse is refused in one line naming what is wrong.
#[test]
fn theorem_misuse_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 9] = [
        (&["square"], "--theorem"),
        (&["square", "--theorem", "nope"], "decomposition"),
        (
            &["triangular", "--k", "3", "--theorem", "doubling"],
            "square game",
        ),
        (
            &["square", "--theorem", "doubling", "--claim", "x == 0"],
            "--claim",
        ),
        (
            &["square", "--variant", "centre=t+1"],
            "--theorem decomposition",
        ),
        (
            &["square", "--theorem", "doubling", "--variant", "centre=t+1"],
            "Theorem 3.4 only",
        ),
        (
            &["square", "--theorem", "3.4", "--variant", "middle=t"],
            "unknown block 'middle'",
        ),
        (
            &["square", "--theorem", "3.4", "--variant", "centre=t+q"],
            "centre=t+q",
        ),
        (
            &["square", "--theorem", "3.4", "--variant", "edges=half"],
            "empty or full",
        ),
    ];
    for (args, needle) in cases {
        let out = super::support::nimscape(dir.path())
            .arg("prove")
            .args(args)
            .output()
            .unwrap();
        super::support::assert_one_line_error(&out, needle);
    }
}
