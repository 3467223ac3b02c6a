//! Tests of the prover's logic that need no engine: the caps' translation
//! and the violation formulas' meaning, checked by evaluation.

use super::ir::{Env, Term};
use super::*;
use crate::games::cap_expr::CapExpr;

fn env(pairs: &[(&str, i128)]) -> Env {
    pairs.iter().map(|(n, v)| (n.to_string(), *v)).collect()
}

#[test]
fn linear_caps_translate_to_the_same_values() {
    let caps: &[(&str, &[(&str, i64)])] = &[
        ("floor((x+z)/k)", &[("k", 3)]),
        ("(x+z)/k", &[("k", 5)]),
        ("floor(min(x,z)/2)", &[]),
        ("x/2 + z/3", &[]),
        ("ceil((2*x + z)/3) - 1 + max(x, 1)", &[]),
        ("min(x, z, 7/2) - 0", &[]),
        ("-(x - 3*z)/4 + 10*x", &[]),
        ("x**1 + z**0 + 2**3", &[]),
        ("ceil(x/3)", &[]),
    ];
    for (src, params) in caps {
        let cap = CapExpr::parse_with(src, params).unwrap();
        let term = cap.to_logic().unwrap();
        for x in 0..30u32 {
            for z in 0..30u32 {
                let want = cap.cap(x, z);
                let got = term
                    .eval(&env(&[("x", x.into()), ("z", z.into())]))
                    .unwrap();
                match want {
                    Ok(v) => assert_eq!(i128::from(v), got, "{src} at ({x}, {z})"),
                    // The evaluator refuses a negative cap; the term just is negative.
                    Err(_) => assert!(got < 0, "{src} at ({x}, {z})"),
                }
            }
        }
    }
}

#[test]
fn non_linear_caps_are_refused_with_one_line() {
    for (src, word) in [
        ("floor((x+z)**2/5)", "power of a heap"),
        ("x*z", "product of two heaps"),
        ("round(sqrt(x+z))", "round"),
        ("floor(sqrt(x+z))", "square root"),
        ("x/z", "division by a heap"),
    ] {
        let err = CapExpr::parse(src).unwrap().to_logic().unwrap_err();
        assert!(err.contains(word), "{src}: {err}");
        assert!(!err.contains('\n'));
    }
}

#[test]
fn the_order_extends_the_moves() {
    let names: Vec<String> = ["x", "y", "z"].iter().map(|s| s.to_string()).collect();
    let other: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let less = order_less(&other, &names);
    let mut all = Vec::new();
    for x in 0..4 {
        for y in 0..4 {
            for z in 0..4 {
                all.push([x, y, z]);
            }
        }
    }
    for p in &all {
        for q in &all {
            let e = env(&[
                ("x", p[0]),
                ("y", p[1]),
                ("z", p[2]),
                ("a", q[0]),
                ("b", q[1]),
                ("c", q[2]),
            ]);
            let want = (q.iter().sum::<i128>(), q) < (p.iter().sum::<i128>(), p);
            assert_eq!(less.eval(&e).unwrap(), want, "{q:?} < {p:?}");
        }
    }
}

#[test]
fn the_move_relation_is_the_solvers() {
    // Quantifier-free: the move formula evaluated on every pair of a small box
    // against the options the solver enumerates.
    let game = CappedGame::triangular(2).unwrap();
    let cap = CapExpr::parse_with("floor((x+z)/k)", &[("k", 2)]).unwrap();
    let pg = ProofGame::capped(game.clone(), cap.to_logic().unwrap());
    let n = 6u32;
    for x in 0..n {
        for z in 0..n {
            for y in 0..=((x + z) / 2) {
                let mut options = std::collections::BTreeSet::new();
                game.for_each_option(&[x, y, z], &mut |q| {
                    options.insert(q.to_vec());
                });
                for a in 0..n {
                    for c in 0..n {
                        for b in 0..n {
                            let e = env(&[
                                ("x", x.into()),
                                ("y", y.into()),
                                ("z", z.into()),
                                ("x_next", a.into()),
                                ("y_next", b.into()),
                                ("z_next", c.into()),
                            ]);
                            let is_move = pg.moves().eval(&e).unwrap();
                            assert_eq!(
                                is_move,
                                options.contains(&vec![a, b, c]),
                                "({x},{y},{z}) -> ({a},{b},{c})"
                            );
                        }
                    }
                }
            }
        }
    }
    let _ = Term::Const(0);
}
