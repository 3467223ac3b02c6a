//! Property-based fuzzing of the cap expression parser: random well-formed
//! expressions against an exact big-rational reference, and adversarial text (deep
//! nesting, huge literals, unicode, control characters) for no panic and no hang.
//! Past failures are kept by proptest in `proptest-regressions/`.

use super::cap_expr::{CapExpr, MAX_NESTING};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use proptest::prelude::*;

/// An expression tree, rendered to text and evaluated by the reference.
#[derive(Clone, Debug)]
enum E {
    Num(u64),
    X,
    Z,
    Add(Box<E>, Box<E>),
    Sub(Box<E>, Box<E>),
    Mul(Box<E>, Box<E>),
    Div(Box<E>, Box<E>),
    Neg(Box<E>),
    Floor(Box<E>),
    Ceil(Box<E>),
    Round(Box<E>),
    Min(Box<E>, Box<E>),
    Max(Box<E>, Box<E>),
    Pow(Box<E>, u8),
}

fn render(e: &E) -> String {
    match e {
        E::Num(n) => n.to_string(),
        E::X => "x".into(),
        E::Z => "Z".into(),
        E::Add(a, b) => format!("({} + {})", render(a), render(b)),
        E::Sub(a, b) => format!("({} - {})", render(a), render(b)),
        E::Mul(a, b) => format!("({}*{})", render(a), render(b)),
        E::Div(a, b) => format!("({} / {})", render(a), render(b)),
        E::Neg(a) => format!("(-{})", render(a)),
        E::Floor(a) => format!("floor({})", render(a)),
        E::Ceil(a) => format!("Ceiling({})", render(a)),
        E::Round(a) => format!("round({})", render(a)),
        E::Min(a, b) => format!("min({}, {})", render(a), render(b)),
        E::Max(a, b) => format!("MAX({},{})", render(a), render(b)),
        E::Pow(a, k) => format!("({})**{k}", render(a)),
    }
}

/// An exact rational num/den (den > 0), unreduced.
#[derive(Clone, Debug)]
struct R(BigInt, BigInt);

fn floor(r: &R) -> BigInt {
    let (q, m) = (&r.0 / &r.1, &r.0 % &r.1);
    if m.is_negative() {
        q - 1
    } else {
        q
    }
}

fn cmp(a: &R, b: &R) -> std::cmp::Ordering {
    (&a.0 * &b.1).cmp(&(&b.0 * &a.1))
}

/// The exact value, or None on division by zero.
fn reference(e: &E, x: u32, z: u32) -> Option<R> {
    let int = |n: BigInt| R(n, BigInt::from(1));
    Some(match e {
        E::Num(n) => int(BigInt::from(*n)),
        E::X => int(BigInt::from(x)),
        E::Z => int(BigInt::from(z)),
        E::Add(a, b) | E::Sub(a, b) => {
            let (a, b) = (reference(a, x, z)?, reference(b, x, z)?);
            let sign = if matches!(e, E::Sub(..)) { -1 } else { 1 };
            R(&a.0 * &b.1 + sign * &b.0 * &a.1, &a.1 * &b.1)
        }
        E::Mul(a, b) => {
            let (a, b) = (reference(a, x, z)?, reference(b, x, z)?);
            R(&a.0 * &b.0, &a.1 * &b.1)
        }
        E::Div(a, b) => {
            let (a, b) = (reference(a, x, z)?, reference(b, x, z)?);
            if b.0.is_zero() {
                return None;
            }
            let (num, den) = (&a.0 * &b.1, &a.1 * &b.0);
            if den.is_negative() {
                R(-num, -den)
            } else {
                R(num, den)
            }
        }
        E::Neg(a) => {
            let a = reference(a, x, z)?;
            R(-a.0, a.1)
        }
        E::Floor(a) => int(floor(&reference(a, x, z)?)),
        E::Ceil(a) => {
            let a = reference(a, x, z)?;
            int(-floor(&R(-a.0, a.1)))
        }
        E::Round(a) => {
            // Half to even: floor(a + 1/2), one less on an exact odd half.
            let a = reference(a, x, z)?;
            let twice = R(&a.0 * 2 + &a.1, &a.1 * 2);
            let f = floor(&twice);
            let exact_half = (&a.0 * 2 + &a.1) % (&a.1 * 2) == BigInt::zero();
            if exact_half && (&f % 2) != BigInt::zero() {
                int(f - 1)
            } else {
                int(f)
            }
        }
        E::Min(a, b) | E::Max(a, b) => {
            let (a, b) = (reference(a, x, z)?, reference(b, x, z)?);
            let a_less = cmp(&a, &b).is_lt();
            match (matches!(e, E::Min(..)), a_less) {
                (true, true) | (false, false) => a,
                _ => b,
            }
        }
        E::Pow(a, k) => {
            let a = reference(a, x, z)?;
            R(a.0.pow(u32::from(*k)), a.1.pow(u32::from(*k)))
        }
    })
}

fn expr() -> impl Strategy<Value = E> {
    let leaf = prop_oneof![
        (0u64..1000).prop_map(E::Num),
        Just(E::X),
        Just(E::Z),
        (0u64..u64::MAX).prop_map(E::Num),
    ];
    leaf.prop_recursive(6, 40, 2, |inner| {
        let b = |f: fn(Box<E>, Box<E>) -> E, i: BoxedStrategy<E>| {
            (i.clone(), i).prop_map(move |(a, c)| f(Box::new(a), Box::new(c)))
        };
        let inner = inner.boxed();
        prop_oneof![
            b(E::Add, inner.clone()),
            b(E::Sub, inner.clone()),
            b(E::Mul, inner.clone()),
            b(E::Div, inner.clone()),
            b(E::Min, inner.clone()),
            b(E::Max, inner.clone()),
            inner.clone().prop_map(|a| E::Neg(Box::new(a))),
            inner.clone().prop_map(|a| E::Floor(Box::new(a))),
            inner.clone().prop_map(|a| E::Ceil(Box::new(a))),
            inner.clone().prop_map(|a| E::Round(Box::new(a))),
            (inner, 0u8..5).prop_map(|(a, k)| E::Pow(Box::new(a), k)),
        ]
    })
}

/// Whether every intermediate of the reference stays well inside i128 (the
/// parser's arithmetic; beyond it an overflow error is the right answer).
fn fits(e: &E, x: u32, z: u32) -> bool {
    let small = |r: &R| r.0.bits() < 60 && r.1.bits() < 60;
    let here = reference(e, x, z).is_none_or(|r| small(&r));
    here && match e {
        E::Num(_) | E::X | E::Z => true,
        E::Neg(a) | E::Floor(a) | E::Ceil(a) | E::Round(a) | E::Pow(a, _) => fits(a, x, z),
        E::Add(a, b) | E::Sub(a, b) | E::Mul(a, b) | E::Div(a, b) | E::Min(a, b) | E::Max(a, b) => {
            fits(a, x, z) && fits(b, x, z)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn well_formed_expressions_equal_the_exact_reference(e in expr(), x in 0u32..50, z in 0u32..50) {
        let text = render(&e);
        let parsed = CapExpr::parse(&text);
        let cap = match parsed {
            Ok(c) => c,
            // Only the documented limits may refuse a well-formed expression.
            Err(err) => {
                let msg = err.to_string();
                prop_assert!(msg.contains("nesting") || msg.contains("characters") || msg.contains("too long"), "{text}: {msg}");
                return Ok(());
            }
        };
        let got = cap.cap(x, z);
        match reference(&e, x, z) {
            None => prop_assert!(got.is_err(), "{text}: division by zero gave {got:?}"),
            Some(r) => {
                let want = floor(&r);
                if want.is_negative() {
                    prop_assert!(got.is_err(), "{text} at ({x},{z}): negative {want} gave {got:?}");
                } else if fits(&e, x, z) {
                    let got = got.map_err(|e| TestCaseError::fail(format!("{text} at ({x},{z}): {e}")))?;
                    prop_assert_eq!(BigInt::from(got), want, "{} at ({}, {})", text, x, z);
                } else if let Ok(got) = got {
                    // Out of i128 somewhere: an error is fine, a value must be right.
                    let want = want.min(BigInt::from(u64::MAX));
                    prop_assert_eq!(BigInt::from(got), want, "{} at ({}, {})", text, x, z);
                }
            }
        }
    }

    #[test]
    fn adversarial_text_never_panics(
        text in prop_oneof![
            "[()xz0-9+*/^,.\\- ]{0,200}",
            "(floor|ceil|round|sqrt|min|max|x|z|\\(|\\)|,|\\^|\\*\\*|[0-9]{1,45}|\\.|-){0,120}",
            any::<String>(),
            "[\\x00-\\x1f\\u{80}-\\u{10ffff}x()]{0,50}",
        ],
        x in 0u32..5,
        z in 0u32..5,
    ) {
        if let Ok(cap) = CapExpr::parse(&text) {
            let _ = cap.cap(x, z);
            let _ = cap.cap(u32::MAX, u32::MAX);
        }
    }

    #[test]
    fn nesting_at_any_depth_is_parsed_or_refused(depth in 0usize..3000, kind in 0usize..5) {
        let text = match kind {
            0 => format!("{}x{}", "(".repeat(depth), ")".repeat(depth)),
            1 => format!("{}x{}", "floor(sqrt(".repeat(depth), "))".repeat(depth)),
            2 => vec!["2"; depth + 1].join("**"),
            // `^` is XOR: a chain of any length is flat, refused only by its length.
            3 => vec!["1"; depth + 1].join("^"),
            _ => format!("{}x", "-".repeat(depth)),
        };
        match CapExpr::parse(&text) {
            Ok(cap) if kind == 3 => prop_assert_eq!(cap.cap(0, 0).unwrap(), 1 - depth as u64 % 2),
            Ok(_) => prop_assert!(depth <= MAX_NESTING + 1, "depth {depth} accepted"),
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.contains("nesting") || msg.contains("characters") || msg.contains("sqrt"), "{msg}");
            }
        }
    }
}
