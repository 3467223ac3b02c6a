//! The prover's translation into MONA, atom by atom: every operation against
//! Rust's own arithmetic on hundreds of random values (asked of the engine as
//! statements about concrete numbers, many in one program), every operation's
//! definition shown functional for all inputs (exactly one value), and the
//! games' position sets and moves against the solver on a small box.

use nimscape::prove::engine::{Engine, Limits, Mona, Outcome};
use nimscape::Control;
use nimscape_model::prove::ir::{CmpOp, Formula, Term};
use std::time::Duration;

/// MONA, or `None` with a note on a developer's machine without it; with
/// CI=true a missing MONA fails the test (.ci/run installs it).
pub(super) fn mona() -> Option<Mona> {
    match Mona::from_path() {
        Ok(m) => Some(m),
        Err(e) => {
            assert!(
                std::env::var("CI").map_or(true, |v| v != "true"),
                "mona is missing; CI must install it (apt-get install mona; see .ci/run): {e}"
            );
            eprintln!("note: mona not installed; skipping the prover's translation tests");
            None
        }
    }
}

pub(super) fn limits() -> Limits {
    Limits {
        timeout: Duration::from_secs(120),
        memory: 4 << 30,
    }
}

/// Whether `formula` (free variables `free`) holds for all their values.
pub(super) fn decide(mona: &Mona, formula: &Formula, free: &[&str]) -> Outcome {
    let free: Vec<String> = free.iter().map(|s| s.to_string()).collect();
    let input = mona.input(formula, &free).expect("translates");
    mona.decide(&input, &free, limits(), &Control::new())
        .expect("mona answers")
        .outcome
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A value in -limit..=limit, small ones (the edge cases) more often.
    fn int(&mut self, limit: i64) -> i64 {
        let r = self.next();
        let magnitude = match r % 4 {
            0 => (r >> 8) % 4,
            1 => (r >> 8) % 17,
            _ => (r >> 8) % (limit as u64 + 1),
        } as i64;
        if (r >> 3) & 1 == 1 {
            -magnitude
        } else {
            magnitude
        }
    }
}

fn c(v: i64) -> Term {
    Term::Const(v)
}

fn b(t: Term) -> Box<Term> {
    Box::new(t)
}

/// Every binary operation, built from two terms, and a constant for the unary ones.
/// Builds an operation's term from two operands and a constant.
type Build = fn(Term, Term, i64) -> Term;

fn operations(k: i64) -> Vec<(&'static str, Build)> {
    let _ = k;
    vec![
        ("add", |a, b_, _| Term::Add(b(a), b(b_))),
        ("sub", |a, b_, _| Term::Sub(b(a), b(b_))),
        ("xor", |a, b_, _| Term::Xor(b(a), b(b_))),
        ("and", |a, b_, _| Term::And(b(a), b(b_))),
        ("or", |a, b_, _| Term::Or(b(a), b(b_))),
        ("min", |a, b_, _| Term::Min(b(a), b(b_))),
        ("max", |a, b_, _| Term::Max(b(a), b(b_))),
        ("abs", |a, _, _| Term::Abs(b(a))),
        ("mul", |a, _, k| Term::MulConst(k, b(a))),
        ("floordiv", |a, _, k| Term::FloorDiv(b(a), k.abs().max(1))),
    ]
}

/// The operations with variables (naturals) or constants (any sign) as
/// operands: a variable operand `v` is bound by `v == value` in the formula,
/// so the natural-number path of the translation is exercised too.
#[test]
fn every_atom_agrees_with_rust_on_random_values() {
    let Some(mona) = mona() else { return };
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    let cmps = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ];
    let mut checked = 0;
    for (name, build) in operations(0) {
        // Each program: 40 statements "op(a, b) == the value Rust computes",
        // and 40 with a wrong value that must be false, on random values.
        for round in 0..3 {
            let mut statements = Vec::new();
            let mut wrong = Vec::new();
            for i in 0..40 {
                let (va, vb) = (random.int(300), random.int(300));
                // Constants up to 70 in magnitude: powers of two (floor
                // division by a shift), odd parts (a carry automaton) and the
                // non-adjacent forms of multiplication (29 = 32 - 4 + 1).
                let k = if round == 2 {
                    random.int(70)
                } else {
                    random.int(12)
                };
                // Alternate constants and variables for the non-negative operands.
                let as_term = |v: i64, var: &str| {
                    if v >= 0 && (i + round) % 2 == 0 {
                        Term::var(var)
                    } else {
                        c(v)
                    }
                };
                let t = build(as_term(va, "a"), as_term(vb, "b"), k);
                let env = [
                    ("a".to_string(), i128::from(va)),
                    ("b".to_string(), i128::from(vb)),
                ]
                .into_iter()
                .collect();
                let want = t.eval(&env).expect("evaluates") as i64;
                let binding = Formula::and([
                    Term::var("a").eq(c(va.max(0))),
                    Term::var("b").eq(c(vb.max(0))),
                ]);
                let vars = ["a".to_string(), "b".to_string()];
                statements.push(Formula::exists(
                    &vars,
                    Formula::and([binding.clone(), t.clone().eq(c(want))]),
                ));
                wrong.push(Formula::exists(
                    &vars,
                    Formula::and([binding.clone(), t.clone().eq(c(want + 1 + (i % 3)))]),
                ));
                // A comparison of the result with another random value.
                let other = random.int(300);
                let op = cmps[i as usize % cmps.len()];
                let holds = op.holds(i128::from(want), i128::from(other));
                let cmp = Formula::exists(
                    &vars,
                    Formula::and([binding, Formula::Cmp(op, t.clone(), c(other))]),
                );
                statements.push(if holds { cmp } else { cmp.not() });
                // And the other way round: a floor division on the right of
                // a comparison is written without its quotient (k*a <= e).
                let op = cmps[(i as usize + round as usize) % cmps.len()];
                let holds = op.holds(i128::from(other), i128::from(want));
                let cmp = Formula::exists(
                    &vars,
                    Formula::and([
                        Term::var("a").eq(c(va.max(0))),
                        Term::var("b").eq(c(vb.max(0))),
                        Formula::Cmp(op, c(other), t),
                    ]),
                );
                statements.push(if holds { cmp } else { cmp.not() });
            }
            checked += statements.len() + wrong.len();
            assert_eq!(
                decide(&mona, &Formula::and(statements), &[]),
                Outcome::Valid,
                "{name}: a statement Rust calls true is not valid (round {round})"
            );
            assert_eq!(
                decide(
                    &mona,
                    &Formula::and(wrong.into_iter().map(Formula::not)),
                    &[]
                ),
                Outcome::Valid,
                "{name}: a wrong value is accepted (round {round})"
            );
        }
    }
    assert!(checked >= 1000, "{checked}");
}

/// Soundness rests on each operation's definition having exactly one value
/// for every input: `t == t` for all inputs shows one exists, `not (t < t)`
/// that no two differ. Checked for all naturals, and for negative operands
/// through `a - b`.
#[test]
fn every_definition_is_a_function_of_its_inputs() {
    let Some(mona) = mona() else { return };
    let (x, y) = (Term::var("x"), Term::var("y"));
    let signed_x = x.clone().sub(Term::var("u"));
    let signed_y = y.clone().sub(Term::var("v"));
    for (name, build) in operations(0) {
        for k in [-3, 3, 5, 29, 32, 48] {
            for (a, b_) in [(x.clone(), y.clone()), (signed_x.clone(), signed_y.clone())] {
                let t = build(a, b_, k);
                let free = ["x", "y", "u", "v"];
                assert_eq!(
                    decide(&mona, &t.clone().eq(t.clone()), &free),
                    Outcome::Valid,
                    "{name} (k = {k}) has no value somewhere: {t}"
                );
                assert_eq!(
                    decide(&mona, &t.clone().lt(t.clone()).not(), &free),
                    Outcome::Valid,
                    "{name} (k = {k}) has two values somewhere: {t}"
                );
            }
        }
    }
}

/// Identities over all naturals that a wrong translation would break:
/// two's complement (x - 1 at x = 0 is ...111), floor division rounding
/// toward minus infinity, and a counter-example named by its values.
#[test]
fn identities_hold_for_all_values_and_a_false_one_is_refuted() {
    let Some(mona) = mona() else { return };
    let x = || Term::var("x");
    let y = || Term::var("y");
    let valid = [
        // -1 ^ x == -1 - x (two's complement: XOR with ...111 is NOT).
        c(-1).xor(x()).eq(c(-1).sub(x())),
        // (x - 1) ^ y == -1 exactly when x = 0 and y = 0... stated one way:
        Formula::and([x().eq(c(0)), y().eq(c(0))]).implies(x().sub(c(1)).xor(y()).eq(c(-1))),
        // floor((x - 7) / 3) * 3 <= x - 7 < floor((x - 7) / 3) * 3 + 3.
        x().sub(c(7)).floor_div(3).times(3).le(x().sub(c(7))),
        x().sub(c(7))
            .lt(x().sub(c(7)).floor_div(3).times(3).add(c(3))),
        // min + max == x + y; |x - y| == max - min.
        x().min(y()).add(x().max(y())).eq(x().add(y())),
        Term::Abs(b(x().sub(y()))).eq(x().max(y()).sub(x().min(y()))),
        // x & y <= x, x | y >= y, (x ^ y) ^ y == x, -x & ... sign: (x - y) < 0 iff x < y.
        Term::And(b(x()), b(y())).le(x()),
        Term::Or(b(x()), b(y())).le(c(0)).implies(x().eq(c(0))),
        x().xor(y()).xor(y()).eq(x()),
        Formula::Cmp(CmpOp::Lt, x().sub(y()), c(0)).implies(x().lt(y())),
        // A comparison with a floor division is written without the
        // quotient (k*a <= e); the quotient's own definition must agree:
        // q = floor(e/k) is the one q with k*q <= e < k*q + k.
        y().le(x().floor_div(29)).iff(y().times(29).le(x())),
        y().lt(x().sub(c(5)).floor_div(32))
            .iff(y().add(c(1)).times(32).le(x().sub(c(5)))),
        Formula::Cmp(CmpOp::Ge, x().sub(y()).floor_div(12), c(-2)).iff(Formula::Cmp(
            CmpOp::Ge,
            x().sub(y()),
            c(-24),
        )),
        x().floor_div(24).eq(y()).iff(Formula::and([
            y().times(24).le(x()),
            x().lt(y().times(24).add(c(24))),
        ])),
        // 29x = 32x - 4x + x, 31x = 32x - x, by their sums of x.
        x().times(29)
            .eq(x().times(16).add(x().times(8)).add(x().times(4)).add(x())),
        x().times(31).add(x()).eq(x().times(32)),
        // -5 * x == -(5 * x), and 5 * x == x+x+x+x+x.
        x().times(-5).eq(c(0).sub(x().times(5))),
        x().times(5).eq(x().add(x()).add(x()).add(x()).add(x())),
    ];
    for f in &valid {
        assert_eq!(decide(&mona, f, &["x", "y"]), Outcome::Valid, "{f}");
    }
    // x ^ y == x + y is false; MONA's counter-example must really break it.
    let f = x().xor(y()).eq(x().add(y()));
    match decide(&mona, &f, &["x", "y"]) {
        Outcome::CounterExample(values) => {
            let env = values
                .iter()
                .map(|(n, v)| (n.clone(), *v as i128))
                .collect();
            assert!(!f.eval(&env).unwrap(), "{values:?}");
        }
        other => panic!("{other:?}"),
    }
}

/// The move families the engine quantifies one value at a time say the same
/// as the move relation (checked for all positions by the engine), and the
/// relation is the solver's (checked on a box in the model's unit tests).
#[test]
fn move_families_equal_the_move_relation() {
    let Some(mona) = mona() else { return };
    use nimscape_model::games::capped::CappedGame;
    use nimscape_model::prove::ProofGame;
    let claim = Term::var("x")
        .xor(Term::var("y"))
        .xor(Term::var("z"))
        .eq(c(0));
    // k = 29, 8: the cap's quotient by a carry automaton or a shift, with a
    // linear claim (at k = 32 the relation's sentence exhausts 4 GiB).
    let linear = Term::var("x")
        .add(Term::var("y"))
        .eq(Term::var("z").add(c(1)));
    for (k, claim) in [
        (1u32, &claim),
        (3, &claim),
        (4, &claim),
        (29, &linear),
        (8, &linear),
    ] {
        let game = ProofGame::capped(
            CappedGame::triangular(k).unwrap(),
            Term::var("x").add(Term::var("z")).floor_div(i64::from(k)),
        );
        let same = game
            .some_move_to_by_relation(claim)
            .iff(game.some_move_to_by_families(claim));
        assert_eq!(
            decide(&mona, &same, &["x", "y", "z"]),
            Outcome::Valid,
            "k = {k}"
        );
    }
    let nim = ProofGame::nim(3).unwrap();
    let same = nim
        .some_move_to_by_relation(&claim)
        .iff(nim.some_move_to_by_families(&claim));
    assert_eq!(decide(&mona, &same, &["x", "y", "z"]), Outcome::Valid);
    // The band games: both moves end in a min, split into cases.
    use nimscape_model::games::band::Band;
    let two = Term::var("x").xor(Term::var("y")).eq(c(1));
    for band in [
        Band::Example71,
        Band::example72(1, 3).unwrap(),
        Band::example72(3, 1).unwrap(),
        Band::example72(2, 5).unwrap(),
    ] {
        let game = ProofGame::band(band).unwrap();
        let same = game
            .some_move_to_by_relation(&two)
            .iff(game.some_move_to_by_families(&two));
        assert_eq!(
            decide(&mona, &same, &["x", "y"]),
            Outcome::Valid,
            "{band:?}"
        );
    }
}

/// End to end through the command line: proofs, refutations with the
/// smallest counterexample (re-derived here by brute force over the box),
/// a Grundy formula, Nim, refusals, and the certificate's files.
#[test]
fn prove_end_to_end() {
    if mona().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = super::support::nimscape(dir.path())
            .arg("prove")
            .args(args)
            .arg("-q")
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (ok, out, err) = run(&["triangular", "--param", "k=3,7", "--claim", "x^y^z == 0"]);
    assert!(ok, "{err}");
    assert_eq!(out.matches("proved:").count(), 2, "{out}");
    let (ok, out, _) = run(&[
        "triangular",
        "--param",
        "k=1,5",
        "--claim",
        "(x-1)^y^(z-1) == 0",
    ]);
    assert!(ok);
    assert_eq!(out.matches("proved:").count(), 2, "{out}");
    // k = 4: the smallest counterexample, by brute force over the box of its heap sum.
    let (ok, out, err) = run(&[
        "triangular",
        "--k",
        "4",
        "--claim",
        "x^y^z == 0",
        "-o",
        "cert",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("false: smallest counterexample (5, 3, 8)"),
        "{out}"
    );
    let game = nimscape_model::games::capped::CappedGame::triangular(4).unwrap();
    let solved = nimscape_model::games::solver::solve_dense(
        &game,
        &[16, 16, 16],
        1 << 30,
        &nimscape::Control::default(),
    )
    .unwrap();
    let mut wrong: Vec<(u32, Vec<u32>)> = solved
        .positions()
        .filter(|(p, g)| (p[0] ^ p[1] ^ p[2] == 0) != (*g == 0))
        .map(|(p, _)| (p.iter().sum(), p))
        .collect();
    wrong.sort();
    assert_eq!(wrong[0].1, vec![5, 3, 8]);
    for file in [
        "well-defined.mona",
        "counterexample.mona",
        "report.md",
        "report.json",
        "theorem.tex",
    ] {
        assert!(dir.path().join("cert").join(file).is_file(), "{file}");
    }
    let json = std::fs::read_to_string(dir.path().join("cert/report.json")).unwrap();
    assert!(json.contains("\"verdict\": \"false\""), "{json}");
    // Grundy formulas and Nim.
    let (ok, out, _) = run(&["min-half", "--grundy", "x^y^z"]);
    assert!(ok && out.starts_with("proved:"), "{out}");
    let (ok, out, _) = run(&["triangular", "--k", "3", "--grundy", "x^y^z"]);
    assert!(
        ok && out.starts_with("false: smallest counterexample"),
        "{out}"
    );
    let (ok, out, _) = run(&["nim", "--heaps", "4", "--claim", "h1^h2^h3^h4 == 0"]);
    assert!(ok && out.starts_with("proved:"), "{out}");
    // Refused in one line: a product of heaps, a power of a heap in a cap.
    let (ok, _, err) = run(&["triangular", "--k", "3", "--claim", "x*y == 0"]);
    assert!(
        !ok && err.contains("product of two heaps") && err.trim().lines().count() == 1,
        "{err}"
    );
    let (ok, _, err) = run(&["--cap", "floor((x+z)**2/5)", "--claim", "x^y^z == 0"]);
    assert!(!ok && err.contains("power of a heap"), "{err}");
}
