//! Tests of the one language: the same text means the same in every context,
//! the bytecode agrees with a direct evaluation of the tree, and limits hold.

use super::code::{Code, Value};
use super::parse::{parse, parse_function, Names};
use super::{Ast, Dialect};
use crate::exact::Rational;
use std::sync::Arc;

fn names<'a>(vars: &'a [String], params: &'a [(String, i128)]) -> Names<'a> {
    Names {
        vars,
        params,
        functions: &[],
        fold_case: false,
    }
}

fn xyz() -> Vec<String> {
    ["x", "y", "z"].iter().map(|s| s.to_string()).collect()
}

fn compile(text: &str, dialect: Dialect) -> Code {
    let vars = xyz();
    let ast = parse(text, &names(&vars, &[]), dialect).unwrap_or_else(|e| panic!("{text}: {e}"));
    Code::compile(&ast).unwrap()
}

fn problem(text: &str, dialect: Dialect) -> String {
    let vars = xyz();
    parse(text, &names(&vars, &[]), dialect).unwrap_err()
}

/// Bitwise operators against Rust's, negative operands included (two's
/// complement), in both dialects and on both the whole and the exact path.
#[test]
fn xor_and_or_are_rusts_operators_in_every_dialect() {
    type Rule = fn(i64, i64, i64) -> i64;
    let cases: [(&str, Rule); 8] = [
        ("x ^ y ^ z", |x, y, z| x ^ y ^ z),
        ("x & y | z", |x, y, z| (x & y) | z),
        ("x | y & z", |x, y, z| x | (y & z)),
        ("x ^ y & z", |x, y, z| x ^ (y & z)),
        ("(x + 1) ^ y ^ (z + 1)", |x, y, z| (x + 1) ^ y ^ (z + 1)),
        ("x + y ^ z", |x, y, z| (x + y) ^ z),
        ("xor(x, y, z) - (x ^ y ^ z)", |_, _, _| 0),
        ("-1 ^ x", |x, _, _| -x - 1),
    ];
    for (text, rule) in cases {
        for dialect in [Dialect::Exact, Dialect::Claim] {
            let code = compile(text, dialect);
            assert!(code.is_whole(), "{text}");
            for x in -4..6i64 {
                for y in -3..5i64 {
                    for z in [-7i64, -1, 0, 1, 2, 5, 12] {
                        let want = rule(x, y, z);
                        let v = [x, y, z];
                        assert_eq!(code.eval_i64(&v), Ok(want), "{text} at {v:?}");
                        assert_eq!(
                            code.eval_exact(&v),
                            Ok(Value::Exact(Rational::int(want.into()))),
                            "{text} at {v:?}, exact"
                        );
                    }
                }
            }
        }
    }
    // A condition with the nim-sum, as in a game file's `positions`.
    let code = compile("x ^ y ^ z != 0 and y <= 3", Dialect::Exact);
    for x in 0..8i64 {
        for y in 0..8i64 {
            for z in 0..8i64 {
                let want = (x ^ y ^ z) != 0 && y <= 3;
                assert_eq!(code.holds(&[x, y, z]), Ok(want));
            }
        }
    }
}

#[test]
fn a_caret_that_meant_a_power_is_refused_only_where_it_did() {
    for text in ["(x + z)^2", "x^3 + 1", "2^x", "floor((x + z)^2/5)"] {
        let e = problem(text, Dialect::Exact);
        assert!(e.contains("'^' is XOR") && e.contains("**"), "{text}: {e}");
    }
    // Claims never read `^` as a power: no refusal there.
    assert_eq!(
        compile("x ^ 2", Dialect::Claim).eval_i64(&[5i64, 0, 0]),
        Ok(7)
    );
    // `**` is the power; `xor(x, 2)` the nim-sum with a number.
    assert_eq!(
        compile("(x + z)**2", Dialect::Exact).floor(&[1i64, 0, 2]),
        Ok(9)
    );
    assert_eq!(
        compile("xor(x, 2)", Dialect::Exact).floor(&[5i64, 0, 0]),
        Ok(7)
    );
    assert_eq!(
        compile("-x**2", Dialect::Exact).floor(&[3i64, 0, 0]),
        Ok(-9)
    );
    assert_eq!(
        compile("2**3**2", Dialect::Exact).floor(&[0i64, 0, 0]),
        Ok(512)
    );
    assert!(problem("x ** 2", Dialect::Claim).contains("power"));
}

#[test]
fn division_forms_agree_with_python() {
    // Python: // and % floor; `mod` is %; floor(a/b) of the exact quotient.
    let code = compile("x // y * 1000 + x % y", Dialect::Exact);
    let fused = compile(
        "floor(x / y) - x // y + ceil(x / y) + mod(x, y)",
        Dialect::Exact,
    );
    for x in -20..20i64 {
        for y in [-7i64, -3, -1, 1, 2, 5] {
            // Python's floor division and a remainder with the divisor's sign.
            let fq = (x as f64 / y as f64).floor() as i64;
            let fr = x - y * fq;
            assert!(fr == 0 || (fr < 0) == (y < 0));
            assert_eq!(
                code.floor(&[x, y, 0]),
                Ok(i128::from(fq * 1000 + fr)),
                "{x} {y}"
            );
            let ceil = (x as f64 / y as f64).ceil() as i64;
            let want = ceil + fr;
            assert_eq!(fused.floor(&[x, y, 0]), Ok(i128::from(want)), "{x} {y}");
        }
    }
    // Exact division: x/2 + z/2 is floor((x+z)/2) at the end only.
    assert_eq!(
        compile("x/2 + z/2", Dialect::Exact).floor(&[1i64, 0, 1]),
        Ok(1)
    );
}

#[test]
fn functions_are_written_out_and_parameters_are_constants() {
    let params = vec![("k".to_string(), 3i128)];
    let cap = Arc::new(parse_function("cap(x, z) = floor(min(x, z)/k)", &params, &[]).unwrap());
    let vars = xyz();
    let functions = [cap];
    let names = Names {
        vars: &vars,
        params: &params,
        functions: &functions,
        fold_case: false,
    };
    let ast = parse("y <= cap(x, z)", &names, Dialect::Exact).unwrap();
    // The tree keeps the call, for a reader that recognises the structure.
    let Ast::Compare(left, links) = &ast else {
        panic!("{ast:?}")
    };
    assert_eq!(**left, Ast::Var(1));
    assert!(matches!(&links[0].1, Ast::Apply(f, args) if f.name == "cap" && args.len() == 2));
    let code = Code::compile(&ast).unwrap();
    for x in 0..12i64 {
        for y in 0..6i64 {
            for z in 0..12i64 {
                assert_eq!(code.holds(&[x, y, z]), Ok(y <= x.min(z) / 3));
            }
        }
    }
}

#[test]
fn claim_and_exact_dialects_agree_where_both_apply() {
    let texts = [
        "floor((x + z) / 3) - y",
        "max(x, y, 2) * 3 - min(z, 4)",
        "x // 4 + z % 3",
        "abs(x - 2*z) + ceil(y / 4)",
        "(x + 1) ^ y ^ (z + 1) == 0 or not x < y",
    ];
    for text in texts {
        let claim = compile(text, Dialect::Claim);
        let exact = compile(text, Dialect::Exact);
        for x in -5..9i64 {
            for y in -5..9i64 {
                for z in -5..9i64 {
                    let v = [x, y, z];
                    let c = claim.eval_i64(&v).unwrap();
                    assert_eq!(exact.floor(&v), Ok(i128::from(c)), "{text} at {v:?}");
                    assert_eq!(exact.eval_exact(&v).unwrap().floor(), i128::from(c));
                }
            }
        }
    }
}

#[test]
fn claims_report_overflow_where_exact_code_falls_back_to_fractions() {
    let big = i64::MAX / 2 + 1;
    let claim = compile("x + x", Dialect::Claim);
    let fault = claim.eval_i64(&[big, 0, 0]).unwrap_err();
    assert_eq!(fault.to_string(), format!("{big} + {big}"));
    let exact = compile("x + x - x", Dialect::Exact);
    assert_eq!(exact.floor(&[big, 0, 0]), Ok(i128::from(big)));
}

/// Programs that are one value and binary operators with a constant or a
/// variable run in one register ([`Code`]'s chain): the same values and the
/// same faults as the stack program of the same text that is not a chain
/// (the same operations written with brackets around a leading pair), and as
/// the exact code.
#[test]
fn chains_agree_with_the_stack_program_and_the_exact_code() {
    let pairs = [
        ("min(x + y, z)", "min((x + y) + 0, z + 0)"),
        ("x + z + 1 >= y", "(x + z) + (1 + 0) >= y + 0"),
        ("(x * y - z) // 3 % 5", "((x * y) - (z + 0)) // 3 % 5"),
        ("max(x ^ y, y) & z | y", "(max(x ^ y, y) & z) | (y + 0)"),
        ("x * 3 - y", "(x * 3) - (y + 0)"),
        ("3 - x", "3 - (x + 0)"),
    ];
    for (text, other) in pairs {
        let chain = compile(text, Dialect::Claim);
        let stack = compile(other, Dialect::Claim);
        let exact = compile(text, Dialect::Exact);
        assert!(chain.is_chain(), "{text}");
        assert!(!stack.is_chain(), "{other}");
        let big = i64::MAX / 2 + 1;
        for x in [-7i64, -1, 0, 1, 2, 9, big, -big - 1] {
            for y in [-3i64, 0, 4, big] {
                for z in [-5i64, 0, 1, 6, i64::MAX] {
                    let v = [x, y, z];
                    let (c, s) = (chain.eval_i64(&v), stack.eval_i64(&v));
                    assert_eq!(chain.eval_whole_i64(&v), c.ok(), "{text} at {v:?}");
                    assert_eq!(stack.eval_whole_i64(&v), s.ok(), "{other} at {v:?}");
                    assert_eq!(c.is_ok(), s.is_ok(), "{text} at {v:?}: {c:?} {s:?}");
                    if let (Ok(c), Ok(_)) = (c, s) {
                        assert_eq!(c, s.unwrap(), "{text} at {v:?}");
                        assert_eq!(exact.floor(&v), Ok(i128::from(c)), "{text} at {v:?}");
                        assert_eq!(exact.eval_whole(&v), Some(c), "{text} at {v:?}");
                    }
                }
            }
        }
    }
}

/// The closures agree with the interpreted program on every program without
/// jumps, and programs with jumps keep the interpreter.
#[test]
fn closures_agree_with_the_interpreted_program() {
    let texts = [
        "min(2*floor(x/2) + 1, y)",
        "floor(min(x, z) / 3) - abs(y - 4) + isqrt(x*x + 1)",
        "max(x, y, z, 2) * -x ** 2 % 7",
        "x // y + x % y + ceil(z / 3)",
        "(x ^ y) & (z | 5) != 0",
        "not x < y",
        "mod(x, 3) - min(x, y, z)",
    ];
    let big = i64::MAX / 2 + 1;
    for text in texts {
        let code = compile(text, Dialect::Exact);
        assert!(code.is_native(), "{text}");
        for x in [-7i64, -1, 0, 1, 2, 9, big] {
            for y in [-3i64, 0, 4, 7, big] {
                for z in [-5i64, 0, 1, 6, i64::MAX] {
                    let v = [x, y, z];
                    assert_eq!(
                        code.eval_whole_i64(&v),
                        code.eval_whole(&v),
                        "{text} at {v:?}"
                    );
                }
            }
        }
    }
    for text in ["x < y and y < z", "x < y < z", "x == 0 or y == 0"] {
        assert!(!compile(text, Dialect::Exact).is_native(), "{text}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
    /// A chain of sums, differences, `min` and `max` over `x`, `y` and a
    /// changing `z` (the game file's `t`), as a ramp of `z` (the solver's
    /// closed form): where the chain's shape is a ramp, its value at every
    /// `z` of a range is the exact code's, constants near 2^62 included.
    #[test]
    fn ramps_give_the_exact_values_of_their_chains(
        first in 0usize..6,
        steps in proptest::collection::vec((0usize..4, 0usize..6), 1..6),
        x in -6i64..9, y in 0i64..12, from in 0i64..4, len in 1i64..24,
    ) {
        use super::code::Ramp;
        let operand = |k: usize| ["x", "y", "z", "3", "4611686018427387904", "0"][k];
        let mut text = operand(first).to_string();
        for &(op, o) in &steps {
            let o = operand(o);
            text = match op {
                0 => format!("({text}) + {o}"),
                1 => format!("({text}) - {o}"),
                2 => format!("min({text}, {o})"),
                _ => format!("max({text}, {o})"),
            };
        }
        let code = compile(&text, Dialect::Exact);
        let big = text.contains("46116");
        let Some(split) = code.split_chain(|i| i == 2) else {
            // Only constants that overflow when folded leave the whole numbers.
            proptest::prop_assert!(big, "{} is a chain", text);
            return Ok(());
        };
        let once = text.matches('z').count() <= 1;
        let Some(program) = split.ramp_program(|i| i == 2) else {
            // One changing operand: always a ramp.
            proptest::prop_assert!(!once, "{}", text);
            return Ok(());
        };
        let vars = [x, y, 0];
        let head = if split.has_head() {
            match split.head(&vars) {
                Some(h) => h,
                None => return Ok(()),
            }
        } else {
            0
        };
        let last = from + len - 1;
        let ramps = [Ramp::line(0, 1, from, last).unwrap(); 3];
        let ramp = program.run(head, &vars, &ramps);
        // Small values: always a ramp.
        proptest::prop_assert!(ramp.is_some() || big, "{}", text);
        if let Some(ramp) = ramp {
            for z in from..=last {
                let want = code.floor(&[x, y, z]).unwrap();
                proptest::prop_assert_eq!(i128::from(ramp.at(z)), want, "{} at z = {}", text, z);
            }
        }
    }
}
