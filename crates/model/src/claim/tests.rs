//! The claim language against an independent reference: random trees printed as
//! text (with the fewest parentheses Python's precedence allows, and fully
//! parenthesised), parsed, evaluated, and compared with a slow evaluator in
//! `i128` whose bitwise operators are built from floor division alone.

use super::*;

const XYZ: [&str; 3] = ["x", "y", "z"];

fn eval(text: &str, values: [i64; 3]) -> i64 {
    Expr::parse(text, &XYZ, &[("k", 3)])
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .eval_int(&values)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn err(text: &str) -> String {
    match Expr::parse(text, &XYZ, &[("k", 3)]) {
        Ok(_) => panic!("'{text}' parsed"),
        Err(e) => {
            let m = e.to_string();
            assert!(!m.contains('\n'), "one line: {m}");
            m
        }
    }
}

/// Bit `i` of `a` in the arithmetic definition: floor(a / 2^i) mod 2.
fn bit(a: i128, i: u32) -> i128 {
    let p = 1i128 << i;
    let q = floor_div(a, p);
    q - 2 * floor_div(q, 2)
}

/// Floor division from truncating division, independent of `div_euclid`.
fn floor_div(a: i128, c: i128) -> i128 {
    let q = a / c;
    if a % c != 0 && ((a < 0) != (c < 0)) {
        q - 1
    } else {
        q
    }
}

/// A bitwise operation on 64-bit two's-complement numbers, bit by bit from the
/// arithmetic definition (bit 63 stands for all higher bits, the sign).
fn bitwise(a: i128, b: i128, f: fn(bool, bool) -> bool) -> i128 {
    let mut r = 0i128;
    for i in 0..64 {
        if f(bit(a, i) == 1, bit(b, i) == 1) {
            r += if i == 63 { -(1i128 << 63) } else { 1i128 << i };
        }
    }
    r
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn value(&mut self) -> i64 {
        match self.below(4) {
            0 => self.below(41) as i64 - 20,
            1 => self.below(2001) as i64 - 1000,
            2 => (self.next() >> 1) as i64 * if self.below(2) == 0 { 1 } else { -1 },
            _ => (self.next() >> 33) as i64 - (1 << 30),
        }
    }
}

#[test]
fn bitwise_operators_are_twos_complement_as_the_arithmetic_definition_says() {
    let mut rng = Rng(0x9e3779b97f4a7c15);
    type BitOp = (&'static str, fn(bool, bool) -> bool, fn(i64, i64) -> i64);
    let ops: [BitOp; 3] = [
        ("^", |a, b| a != b, |a, b| a ^ b),
        ("&", |a, b| a && b, |a, b| a & b),
        ("|", |a, b| a || b, |a, b| a | b),
    ];
    for (symbol, f, rust) in ops {
        let expr = Expr::parse(&format!("x {symbol} y"), &["x", "y"], &[]).unwrap();
        for _ in 0..2000 {
            let (a, b) = (rng.value(), rng.value());
            let want = bitwise(a as i128, b as i128, f);
            assert_eq!(
                want,
                rust(a, b) as i128,
                "reference vs Rust for {a} {symbol} {b}"
            );
            assert_eq!(
                expr.eval_int(&[a, b]).unwrap() as i128,
                want,
                "{a} {symbol} {b}"
            );
        }
    }
    // The facts the module documentation states.
    for x in -50..50 {
        assert_eq!(eval("-1 ^ x", [x, 0, 0]), -x - 1);
        assert_eq!(eval("-1 & x", [x, 0, 0]), x);
        assert_eq!(eval("-2", [0, 0, 0]) & 1, 0);
        assert_eq!(eval("(x - 1) ^ y", [0, x, 0]), -x - 1);
    }
}

#[test]
fn division_rounds_as_documented() {
    for a in -40i64..40 {
        for c in 1i64..9 {
            let want_floor = floor_div(a as i128, c as i128) as i64;
            let want_ceil = -floor_div(-(a as i128), c as i128) as i64;
            let want_mod = a - c * want_floor;
            let v = [a, c, 0];
            let text = |t: &str| t.replace('C', &c.to_string());
            assert_eq!(eval(&text("floor(x / C)"), v), want_floor, "floor({a}/{c})");
            assert_eq!(eval(&text("x // C"), v), want_floor, "{a}//{c}");
            assert_eq!(eval(&text("ceil(x / C)"), v), want_ceil, "ceil({a}/{c})");
            assert_eq!(eval(&text("x % C"), v), want_mod, "{a}%{c}");
            assert!((0..c).contains(&want_mod));
        }
    }
    assert_eq!(eval("-7 // 2", [0; 3]), -4);
    assert_eq!(eval("-7 % 3", [0; 3]), 2);
    assert_eq!(eval("floor(min(x, z) / k)", [10, 0, 7]), 2);
}

#[test]
fn precedence_is_pythons() {
    // Values Python 3 gives for the same texts.
    assert_eq!(eval("-5 ^ 3 & 6 | 1", [0; 3]), -7);
    assert_eq!(eval("1 + 2 * 3 ^ 4", [0; 3]), 3);
    assert_eq!(eval("x ^ y & z", [5, 6, 3]), 5 ^ (6 & 3));
    assert_eq!(eval("x | y ^ z", [5, 6, 3]), 5 | (6 ^ 3));
    assert_eq!(eval("-x * y", [2, 3, 0]), -6);
    assert_eq!(eval("x - y - z", [10, 3, 2]), 5);
    assert_eq!(eval("not 1 == 2", [0; 3]), 1);
    assert_eq!(eval("1 < 2 < 3", [0; 3]), 1);
    assert_eq!(eval("3 > 2 > 2", [0; 3]), 0);
    assert_eq!(eval("x == 1 or y == 1 and z == 1", [1, 0, 0]), 1);
    assert_eq!(eval("(x == 1 or y == 1) and z == 1", [1, 0, 0]), 0);
    assert_eq!(eval("x = 1", [1, 0, 0]), 1);
    assert_eq!(eval("Floor(X / K) == 3 AND y >= 0", [9, 0, 0]), 1);
}

#[test]
fn the_tree_has_parameters_folded_and_chains_spelled_out() {
    let e = Expr::parse("8*k + 16", &XYZ, &[("k", 3)]).unwrap();
    assert_eq!(e.ast(), &Node::Const(40));
    let e = Expr::parse("0 <= y <= floor(min(x, z) / k)", &XYZ, &[("k", 3)]).unwrap();
    let v = |i| Box::new(Node::Var(i));
    assert_eq!(
        e.ast(),
        &Node::LogicAnd(
            Box::new(Node::Cmp(CmpOp::Le, Box::new(Node::Const(0)), v(1))),
            Box::new(Node::Cmp(
                CmpOp::Le,
                v(1),
                Box::new(Node::FloorDiv(
                    Box::new(Node::Min(vec![Node::Var(0), Node::Var(2)])),
                    3
                ))
            ))
        )
    );
    assert!(e.is_predicate());
    let e = Expr::parse("(x+1)^y^(z+1) == 0", &XYZ, &[]).unwrap();
    assert_eq!(
        e.ast(),
        &Node::Cmp(
            CmpOp::Eq,
            Box::new(Node::Xor(
                Box::new(Node::Xor(
                    Box::new(Node::Add(v(0), Box::new(Node::Const(1)))),
                    v(1)
                )),
                Box::new(Node::Add(v(2), Box::new(Node::Const(1))))
            )),
            Box::new(Node::Const(0))
        )
    );
    assert!(e.uses(0) && e.uses(1) && e.uses(2));
    assert!(!Expr::parse("x + k", &XYZ, &[("k", 1)]).unwrap().uses(1));
}

#[test]
fn errors_are_one_line_with_the_place_marked() {
    let m = err("x ^ (y + )");
    assert!(
        m.contains("column 10") && m.contains("'x ^ (y + >>)<<'"),
        "{m}"
    );
    let m = err("x ^ q == 0");
    assert!(
        m.contains("unknown name 'q'") && m.contains("x, y, z, k"),
        "{m}"
    );
    assert!(err("x / 2").contains("only as the last step inside floor()"));
    assert!(err("floor(x / 2 + 1)").contains("only as the last step"));
    assert!(err("floor(x / y)").contains("only by a constant"));
    assert!(err("x % 0").contains("positive divisor, got 0"));
    assert!(err("floor(x)").contains("write floor(a / c)"));
    assert!(err("x ** 2").contains("power"));
    assert!(err("x and y").contains("'and' works on conditions"));
    assert!(err("(x < y) + 1").contains("'+' works on integers"));
    assert!(err("sqrt(x)").contains("unknown function 'sqrt'"));
    assert!(err("min(x)").contains("two or more"));
    assert!(err("").contains("empty"));
    assert!(err("1.5 * x").contains("whole numbers"));
    assert!(err("99999999999999999999").contains("64-bit"));
    assert!(err("9223372036854775807 + 1").contains("64-bit"));
    assert!(err("x \u{7} y").contains("'\\u{7}'"));
    assert!(Expr::parse("x", &XYZ, &[("x", 1)])
        .unwrap_err()
        .to_string()
        .contains("both a variable and a parameter"));
    assert!(Expr::parse_predicate("x ^ y", &XYZ, &[])
        .unwrap_err()
        .to_string()
        .contains("'x ^ y == 0'"));
    // A long text shows a window around the fault, not all of it.
    let long = format!("{} + )", vec!["x"; 200].join(" + "));
    let m = Expr::parse(&long, &XYZ, &[]).unwrap_err().to_string();
    assert!(
        m.len() < 200 && m.contains("...") && m.contains(">>)<<"),
        "{m}"
    );
}

#[test]
fn overflow_is_an_error_naming_the_operation_and_the_values() {
    let e = Expr::parse("x * y * z", &XYZ, &[]).unwrap();
    let m = e.eval_int(&[1 << 40, 1 << 30, 1]).unwrap_err().to_string();
    assert!(
        m.contains("1099511627776 * 1073741824")
            && m.contains("x = 1099511627776, y = 1073741824, z = 1"),
        "{m}"
    );
    assert!(Expr::parse("-x", &XYZ, &[])
        .unwrap()
        .eval_int(&[i64::MIN, 0, 0])
        .is_err());
    assert!(Expr::parse("abs(x)", &XYZ, &[])
        .unwrap()
        .eval_int(&[i64::MIN, 0, 0])
        .is_err());
    // `or` does not evaluate its right side when the left decides.
    let e = Expr::parse("y == 0 or x * x == 1", &XYZ, &[]).unwrap();
    assert!(e.eval_bool(&[i64::MAX, 0, 0]).unwrap());
    assert!(e.eval_bool(&[i64::MAX, 1, 0]).is_err());
}

#[test]
fn huge_texts_are_refused_without_a_stack_overflow() {
    let chain = vec!["x"; 100_000].join("+");
    assert!(err(&chain).contains("the limit is 10000"));
    let chain = vec!["x"; 4_000].join("+");
    assert!(err(&chain).contains("deeper than 256"), "{}", err(&chain));
    let parens = format!("{}x{}", "(".repeat(4_000), ")".repeat(4_000));
    assert!(err(&parens).contains("nest deeper than 64"));
    let signs = format!("{}x", "-".repeat(9_000));
    assert!(err(&signs).contains("deeper than 256"));
    let nots = format!("{}x == 0", "not ".repeat(2_000));
    assert!(err(&nots).contains("deeper than 256"));
    let calls = format!("{}x{}", "abs(".repeat(1_000), ")".repeat(1_000));
    assert!(
        err(&calls).contains("nest deeper than 64"),
        "{}",
        err(&calls)
    );
    let cmps = vec!["x"; 2_000].join(" < ");
    assert!(err(&cmps).contains("deeper than 256"));
    // Within the bounds all is well.
    assert_eq!(eval(&vec!["x"; 200].join("+"), [2, 0, 0]), 400);
    assert_eq!(
        eval(&format!("{}x{}", "(".repeat(60), ")".repeat(60)), [5, 0, 0]),
        5
    );
}

// ---- random trees against the reference evaluator ----

#[derive(Clone, Debug)]
enum T {
    Lit(i64),
    Var(usize),
    K,
    Neg(Box<T>),
    Bin(&'static str, Box<T>, Box<T>),
    Div(&'static str, Box<T>, i64),
    Call(&'static str, Vec<T>),
    Cmp(Vec<T>, Vec<&'static str>),
    Not(Box<T>),
    Logic(&'static str, Box<T>, Box<T>),
}

const K: i64 = 5;

/// Python's binding power of a tree's top operator (higher binds tighter).
fn prec(t: &T) -> u8 {
    match t {
        T::Logic("or", ..) => 1,
        T::Logic(..) => 2,
        T::Not(_) => 3,
        T::Cmp(..) => 4,
        T::Bin("|", ..) => 5,
        T::Bin("^", ..) => 6,
        T::Bin("&", ..) => 7,
        T::Bin("+" | "-", ..) => 8,
        T::Bin(..) | T::Div("//" | "%", ..) => 9,
        T::Neg(_) => 10,
        T::Lit(v) if *v < 0 => 10,
        _ => 11,
    }
}

fn show(t: &T, full: bool) -> String {
    let wrap = |c: &T, need: bool| {
        let s = show(c, full);
        if need || (full && prec(c) < 11) {
            format!("({s})")
        } else {
            s
        }
    };
    let p = prec(t);
    match t {
        T::Lit(v) => v.to_string(),
        T::Var(i) => XYZ[*i].to_string(),
        T::K => "k".into(),
        T::Neg(a) => format!("-{}", wrap(a, prec(a) < 10)),
        T::Bin(op, a, b) => format!("{} {op} {}", wrap(a, prec(a) < p), wrap(b, prec(b) <= p)),
        T::Div("//" | "%", a, c) => format!(
            "{} {} {c}",
            wrap(a, prec(a) < p),
            match t {
                T::Div(op, ..) => op,
                _ => unreachable!(),
            }
        ),
        T::Div(f, a, c) => format!("{f}({} / {c})", wrap(a, prec(a) < 9)),
        T::Call(f, args) => format!(
            "{f}({})",
            args.iter()
                .map(|a| show(a, full))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        T::Cmp(args, ops) => {
            let mut s = wrap(&args[0], prec(&args[0]) <= 4);
            for (op, a) in ops.iter().zip(&args[1..]) {
                s += &format!(" {op} {}", wrap(a, prec(a) <= 4));
            }
            s
        }
        T::Not(a) => format!("not {}", wrap(a, prec(a) < 3)),
        T::Logic(op, a, b) => format!("{} {op} {}", wrap(a, prec(a) < p), wrap(b, prec(b) <= p)),
    }
}

/// The reference value; `None` when an intermediate value leaves the 64-bit
/// range. `eager` evaluates both sides of `and`/`or` (as constant folding does).
fn reference(t: &T, v: &[i64; 3], eager: bool) -> Option<i128> {
    let fits = |x: i128| {
        (i64::MIN as i128..=i64::MAX as i128)
            .contains(&x)
            .then_some(x)
    };
    let r = |a: &T| reference(a, v, eager);
    match t {
        T::Lit(x) => Some(*x as i128),
        T::Var(i) => Some(v[*i] as i128),
        T::K => Some(K as i128),
        T::Neg(a) => fits(-r(a)?),
        T::Bin(op, a, b) => {
            let (a, b) = (r(a)?, r(b)?);
            fits(match *op {
                "+" => a + b,
                "-" => a - b,
                "*" => a.checked_mul(b)?,
                "^" => bitwise(a, b, |p, q| p != q),
                "&" => bitwise(a, b, |p, q| p && q),
                _ => bitwise(a, b, |p, q| p || q),
            })
        }
        T::Div(op, a, c) => {
            let (a, c) = (r(a)?, *c as i128);
            fits(match *op {
                "floor" | "//" => floor_div(a, c),
                "ceil" => -floor_div(-a, c),
                _ => a - c * floor_div(a, c),
            })
        }
        T::Call(f, args) => {
            let vals: Option<Vec<i128>> = args.iter().map(r).collect();
            let vals = vals?;
            fits(match *f {
                "min" => *vals.iter().min()?,
                "max" => *vals.iter().max()?,
                _ => vals[0].abs(),
            })
        }
        T::Cmp(args, ops) => {
            // A chain stops at its first false link, as Python's does.
            let mut a = r(&args[0])?;
            for (op, next) in ops.iter().zip(&args[1..]) {
                let b = r(next)?;
                let holds = match *op {
                    "==" => a == b,
                    "!=" => a != b,
                    "<" => a < b,
                    "<=" => a <= b,
                    ">" => a > b,
                    _ => a >= b,
                };
                if !holds {
                    return Some(0);
                }
                a = b;
            }
            Some(1)
        }
        T::Not(a) => Some((r(a)? == 0) as i128),
        T::Logic(op, a, b) => {
            let left = r(a)?;
            let decided = if *op == "and" { left == 0 } else { left != 0 };
            if decided {
                if eager {
                    r(b)?;
                }
                Some(left)
            } else {
                r(b)
            }
        }
    }
}

fn int_tree(rng: &mut Rng, depth: u32) -> T {
    if depth == 0 || rng.below(5) == 0 {
        return match rng.below(5) {
            0 => T::Lit(rng.below(41) as i64 - 20),
            1 => T::K,
            _ => T::Var(rng.below(3) as usize),
        };
    }
    let sub = |rng: &mut Rng| Box::new(int_tree(rng, depth - 1));
    match rng.below(12) {
        0 => T::Neg(sub(rng)),
        1..=6 => {
            let op = ["+", "-", "*", "^", "&", "|"][rng.below(6) as usize];
            T::Bin(op, sub(rng), sub(rng))
        }
        7 | 8 => {
            let op = ["floor", "ceil", "//", "%"][rng.below(4) as usize];
            T::Div(op, sub(rng), 1 + rng.below(9) as i64)
        }
        _ => {
            let f = ["min", "max", "abs"][rng.below(3) as usize];
            let n = if f == "abs" {
                1
            } else {
                2 + rng.below(2) as usize
            };
            T::Call(f, (0..n).map(|_| int_tree(rng, depth - 1)).collect())
        }
    }
}

fn bool_tree(rng: &mut Rng, depth: u32) -> T {
    if depth == 0 || rng.below(3) == 0 {
        let n = 2 + (rng.below(4) == 0) as usize;
        let ops = (1..n)
            .map(|_| ["==", "!=", "<", "<=", ">", ">="][rng.below(6) as usize])
            .collect();
        return T::Cmp((0..n).map(|_| int_tree(rng, 3)).collect(), ops);
    }
    match rng.below(3) {
        0 => T::Not(Box::new(bool_tree(rng, depth - 1))),
        _ => T::Logic(
            ["and", "or"][rng.below(2) as usize],
            Box::new(bool_tree(rng, depth - 1)),
            Box::new(bool_tree(rng, depth - 1)),
        ),
    }
}

#[test]
fn random_expressions_agree_with_the_reference() {
    let mut rng = Rng(0x2545f4914f6cdd1d);
    let mut compared = 0;
    for round in 0..3000 {
        let tree = if round % 2 == 0 {
            int_tree(&mut rng, 5)
        } else {
            bool_tree(&mut rng, 3)
        };
        let values: Vec<[i64; 3]> = (0..8)
            .map(|_| [rng.value(), rng.value(), rng.value()])
            .collect();
        for full in [false, true] {
            let text = show(&tree, full);
            let expr = match Expr::parse(&text, &XYZ, &[("k", K)]) {
                Ok(e) => e,
                Err(e) => {
                    // Only a constant part that overflows may be refused.
                    assert!(e.to_string().contains("64-bit"), "{text}: {e}");
                    continue;
                }
            };
            for v in &values {
                let got = expr.eval_int(v);
                match reference(&tree, v, false) {
                    Some(want) => {
                        assert_eq!(
                            got.unwrap_or_else(|e| panic!("{text}: {e}")) as i128,
                            want,
                            "{text} at {v:?}"
                        );
                        compared += 1;
                    }
                    None => assert!(got.is_err(), "{text} at {v:?}: no overflow reported"),
                }
            }
        }
    }
    assert!(compared > 20_000, "only {compared} values compared");
}
