//! The cap expression language: a user-defined cap `y <= cap(x, z)`, the
//! Exact dialect of the one expression language (`crate::lang`, shared with
//! game files and claims) over `x` and `z`.
//!
//! Integer (or decimal) literals, `+ - * /`, `//` and `%`, `**` (power,
//! right-associative, integer exponents), unary minus, `floor`, `ceil`,
//! `round` (half to even), `sqrt`, `isqrt`, `abs`, `mod`, `min`, `max` (two or
//! more arguments), the bitwise `^` (XOR, the nim-sum), `&`, `|` and `xor(a,
//! b)`, and parentheses. Names are case-insensitive, so a Mathematica-style
//! `Floor(...)` reads the same.
//!
//! **`^` is XOR, `**` is power.** Caps once read `^` as a power, so a `^` next
//! to a number literal of 2 or more (`(x+z)^2`, `2^x`) is refused with one
//! line saying to write `**` (or `xor(a, 2)` for the nim-sum with a number):
//! an old cap never silently changes its meaning.
//!
//! **The number domain is exact rationals**, as in the Mathematica programs of
//! the papers: `/` divides exactly and never rounds on its own, and the cap
//! is the floor of the expression's value (because `y <= e` is the same as
//! `y <= floor(e)` for an integer `y`). So `(x+z)/3` and `floor((x+z)/3)`
//! are the same cap, `floor(min(x,z)/2)` and `floor((x+z)**2/5)` mean exactly
//! what the papers write, and `x/2 + z/2` is `floor((x+z)/2)`, not
//! `floor(x/2) + floor(z/2)` (write the latter if you mean it).
//!
//! `sqrt` is kept exact too: its value may be irrational, so it may only be
//! rounded: stand directly inside `floor`, `ceil` or `round`, be the whole
//! expression, or be an argument of `min` / `max` in such a place; every
//! comparison and rounding of a square root is done in integers.
//!
//! **Named parameters.** [`CapExpr::parse_with`] binds names such as `k` to
//! integers when the text is parsed (`floor((x+z)**2/k)` with `k = 5`), so one
//! text describes a whole family of caps and a survey parses it once per value.

use crate::exact::{ArithError, Rational};
use crate::lang::code::Code;
use crate::lang::parse::{self, Names};
use crate::lang::{Ast, Bin, Builtin, Dialect, Fault};
use crate::{Error, Result};

pub(crate) use crate::lang::code::Value;

/// The exact rationals of the number domain (checked `i128` fractions).
pub(crate) type Q = Rational;

/// The deepest nesting of parentheses, calls, signs and powers an expression may have.
pub const MAX_NESTING: usize = parse::MAX_NESTING;

/// The longest cap expression, in characters.
pub const MAX_LENGTH: usize = 1000;

/// A parsed cap expression, ready to evaluate at any `(x, z)`.
#[derive(Clone, Debug)]
pub struct CapExpr {
    source: String,
    /// The named parameters bound when parsing, as `k=5`, in the order given.
    bindings: Vec<(String, i64)>,
    ast: Ast,
    code: Code,
}

fn syntax(message: impl std::fmt::Display) -> Error {
    Error::invalid_request(format!("cap expression: {message}"))
}

impl CapExpr {
    /// Parses an expression such as `floor((x+z)/3)` or `round(sqrt(x+z))`.
    ///
    /// Errors name the column (1-based) of the first thing that does not fit,
    /// with the text around it.
    pub fn parse(source: &str) -> Result<CapExpr> {
        CapExpr::parse_with(source, &[])
    }

    /// [`CapExpr::parse`] with named integer parameters bound to values, e.g.
    /// `floor((x+z)**2/k)` with `[("k", 5)]`. A name must be a word of letters,
    /// digits and `_` that is not `x`, `y`, `z` or a function; names are
    /// case-insensitive like the rest of the language.
    pub fn parse_with(source: &str, params: &[(&str, i64)]) -> Result<CapExpr> {
        let mut bound: Vec<(String, i64)> = Vec::with_capacity(params.len());
        for &(name, value) in params {
            let lower = name.to_ascii_lowercase();
            let word = lower
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && lower.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !word || matches!(lower.as_str(), "x" | "y" | "z") || crate::lang::reserved(&lower) {
                return Err(syntax(format!(
                    "'{}' cannot name a parameter: use a word such as k that is not x, y, z or a function",
                    crate::error::excerpt(name)
                )));
            }
            if bound.iter().any(|(n, _)| *n == lower) {
                return Err(syntax(format!("the parameter '{name}' is given twice")));
            }
            bound.push((lower, value));
        }
        let length = source.chars().count();
        if length > MAX_LENGTH {
            return Err(syntax(format!(
                "the expression has {length} characters, more than the {MAX_LENGTH} allowed"
            )));
        }
        if source.trim().is_empty() {
            return Err(syntax(
                "the expression is empty; write a cap such as floor((x+z)/3)",
            ));
        }
        let vars = ["x".to_string(), "z".to_string()];
        let wide: Vec<(String, i128)> = bound
            .iter()
            .map(|(n, v)| (n.clone(), i128::from(*v)))
            .collect();
        let names = Names {
            vars: &vars,
            params: &wide,
            functions: &[],
            fold_case: true,
        };
        let ast = parse::parse(source, &names, Dialect::Exact).map_err(syntax)?;
        if ast.is_predicate() {
            return Err(syntax(
                "a cap is a number, not a condition; write y's bound, e.g. floor((x+z)/3)",
            ));
        }
        // A deeper stack than the usual (a min of many arguments) is allocated
        // per evaluation: rare, and a cap has at most 1000 characters.
        let code = Code::compile(&ast).map_err(syntax)?;
        Ok(CapExpr {
            source: source.trim().to_string(),
            bindings: bound,
            ast,
            code,
        })
    }

    /// The text the expression was parsed from (trimmed).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The named parameters bound by [`CapExpr::parse_with`], e.g. `[("k", 5)]`.
    pub fn bindings(&self) -> &[(String, i64)] {
        &self.bindings
    }

    /// The cap at `(x, z)`: the floor of the expression's exact value.
    ///
    /// Errors if the value is negative, if an intermediate value overflows
    /// 128-bit fractions, on division by zero, on a non-integer exponent or
    /// the square root of a negative number, each naming the position.
    pub fn cap(&self, x: u32, z: u32) -> Result<u64> {
        self.cap_with(x, z, &mut Vec::new())
    }

    /// [`CapExpr::cap`] for a caller that evaluates many positions (the code
    /// runs on a fixed stack of its own: no allocation per position; the
    /// caller's stack is no longer needed).
    pub(crate) fn cap_with(&self, x: u32, z: u32, _stack: &mut Vec<Value>) -> Result<u64> {
        let value = self.code.floor(&[x, z]).map_err(|fault| {
            let why = match fault {
                Fault::Overflow | Fault::Overflow64(..) => "overflows".to_string(),
                Fault::DivisionByZero => "divides by zero".to_string(),
                Fault::NegativeSqrt(v) => format!("takes the square root of {v}"),
                Fault::FractionalExponent(v) => format!("raises to the non-integer power {v}"),
                other => format!("meets {other}"),
            };
            Error::invalid_request(format!(
                "cap expression '{}' {why} at (x, z) = ({x}, {z}); choose a cap defined on the whole box",
                self.source
            ))
        })?;
        if value < 0 {
            return Err(Error::invalid_request(format!(
                "cap expression '{}' is negative ({value}) at (x, z) = ({x}, {z}); a cap must be >= 0 everywhere in the box",
                self.source
            )));
        }
        Ok(u64::try_from(value).unwrap_or(u64::MAX))
    }
}

impl std::fmt::Display for CapExpr {
    /// The text, then its bound parameters: `floor((x+z)**2/k) with k=5`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.source)?;
        for (i, (name, value)) in self.bindings.iter().enumerate() {
            let sep = if i == 0 { " with " } else { ", " };
            write!(f, "{sep}{name}={value}")?;
        }
        Ok(())
    }
}

/// A value of the cap on the way to the prover's logic: a known rational, or
/// `term / den` for an integer term and a positive denominator.
enum Symbolic {
    Known(Q),
    Linear(crate::prove::ir::Term, i128),
}

impl CapExpr {
    /// The cap as a term of the prover's logic over `x` and `z`, exactly
    /// `floor` of the expression: refused (one line naming the construct and
    /// why) where the expression is not linear, e.g. `(x+z)**2` or `sqrt`.
    ///
    /// Rationals are multiplied through by their denominators, since
    /// `floor(t / d)` of an integer term `t` is the prover's floor division.
    pub fn to_logic(&self) -> std::result::Result<crate::prove::ir::Term, String> {
        use crate::prove::ir::Term;
        let int = |v: i128| -> std::result::Result<i64, String> {
            i64::try_from(v).map_err(|_| format!("the constant {v} is too large for the prover"))
        };
        Ok(match self.symbolic(&self.ast)? {
            Symbolic::Known(q) => Term::Const(int(q.floor())?),
            Symbolic::Linear(t, 1) => t,
            Symbolic::Linear(t, d) => t.floor_div(int(d)?),
        })
    }

    fn symbolic(&self, ast: &Ast) -> std::result::Result<Symbolic, String> {
        use crate::prove::ir::Term;
        let int = |v: i128| -> std::result::Result<i64, String> {
            i64::try_from(v).map_err(|_| format!("the constant {v} is too large for the prover"))
        };
        let linear = |s: Symbolic| -> std::result::Result<(Term, i128), String> {
            Ok(match s {
                Symbolic::Known(q) => (Term::Const(int(q.numer())?), q.denom()),
                Symbolic::Linear(t, d) => (t, d),
            })
        };
        let scale = |t: Term, c: i128| -> std::result::Result<Term, String> {
            Ok(if c == 1 {
                t
            } else {
                Term::MulConst(int(c)?, Box::new(t))
            })
        };
        let lcm = |a: i128, b: i128| -> std::result::Result<i128, String> {
            let g = crate::exact::gcd(a.unsigned_abs(), b.unsigned_abs()) as i128;
            (a / g)
                .checked_mul(b)
                .ok_or_else(|| "a denominator overflows".to_string())
        };
        let arith = |e: ArithError| match e {
            ArithError::Overflow => "a constant overflows".to_string(),
            ArithError::DivisionByZero => "it divides by zero".to_string(),
        };
        let refuse = |what: &str| format!("cap '{}': {what}", self.source);
        let floor_of = |s: Symbolic, ceil: bool| -> std::result::Result<Symbolic, String> {
            Ok(match s {
                Symbolic::Known(q) => {
                    Symbolic::Known(Q::int(if ceil { q.ceil() } else { q.floor() }))
                }
                Symbolic::Linear(t, 1) => Symbolic::Linear(t, 1),
                // ceil(t/d) = -floor(-t/d).
                Symbolic::Linear(t, d) if ceil => {
                    Symbolic::Linear(t.times(-1).floor_div(int(d)?).times(-1), 1)
                }
                Symbolic::Linear(t, d) => Symbolic::Linear(t.floor_div(int(d)?), 1),
            })
        };
        let binary = |op: Bin, a: Symbolic, b: Symbolic| -> std::result::Result<Symbolic, String> {
            Ok(match (op, a, b) {
                (Bin::Add | Bin::Sub | Bin::Mul | Bin::Div, Symbolic::Known(a), Symbolic::Known(b)) => {
                    Symbolic::Known(match op {
                        Bin::Add => a.checked_add(b).map_err(arith)?,
                        Bin::Sub => a.checked_sub(b).map_err(arith)?,
                        Bin::Mul => a.checked_mul(b).map_err(arith)?,
                        _ => a.checked_div(b).map_err(arith)?,
                    })
                }
                (Bin::Add | Bin::Sub, a, b) => {
                    let ((ta, da), (tb, db)) = (linear(a)?, linear(b)?);
                    let d = lcm(da, db)?;
                    let (ta, tb) = (scale(ta, d / da)?, scale(tb, d / db)?);
                    let t = if op == Bin::Add { ta.add(tb) } else { ta.sub(tb) };
                    Symbolic::Linear(t, d)
                }
                (Bin::Mul, Symbolic::Known(q), Symbolic::Linear(t, d))
                | (Bin::Mul, Symbolic::Linear(t, d), Symbolic::Known(q)) => {
                    let den = d.checked_mul(q.denom()).ok_or("a denominator overflows")?;
                    Symbolic::Linear(scale(t, q.numer())?, den)
                }
                (Bin::Mul, _, _) => {
                    return Err(refuse("a product of two heaps is outside linear arithmetic; prove works for caps linear in x and z (with floor, ceil, min, max and constants)"))
                }
                (Bin::Div, Symbolic::Linear(t, d), Symbolic::Known(q)) => {
                    if q.numer() == 0 {
                        return Err(refuse("it divides by zero"));
                    }
                    // (t/d) / (n/m) = (t*m) / (d*n), the sign moved to the term.
                    let sign = q.numer().signum();
                    let den = d
                        .checked_mul(q.numer().abs())
                        .ok_or("a denominator overflows")?;
                    Symbolic::Linear(scale(t, sign * q.denom())?, den)
                }
                (Bin::Div, _, _) => {
                    return Err(refuse("a division by a heap is outside linear arithmetic; divide by constants only"))
                }
                (op, _, _) => {
                    return Err(refuse(&format!(
                        "'{}' is not translated for the prover; write it with floor(a / c) and + - * by constants",
                        op.symbol()
                    )))
                }
            })
        };
        Ok(match ast {
            Ast::Const(q) => Symbolic::Known(*q),
            Ast::Var(0) => Symbolic::Linear(Term::var("x"), 1),
            Ast::Var(_) => Symbolic::Linear(Term::var("z"), 1),
            Ast::Neg(a) => match self.symbolic(a)? {
                Symbolic::Known(q) => Symbolic::Known(q.checked_neg().map_err(arith)?),
                Symbolic::Linear(t, d) => Symbolic::Linear(t.times(-1), d),
            },
            Ast::Chain(first, links) => {
                let mut acc = self.symbolic(first)?;
                for (op, b) in links {
                    let b = self.symbolic(b)?;
                    acc = match op {
                        // a // b = floor(a / b)
                        Bin::FloorDiv => floor_of(binary(Bin::Div, acc, b)?, false)?,
                        op => binary(*op, acc, b)?,
                    };
                }
                acc
            }
            Ast::Pow(base, e) => match (self.symbolic(base)?, self.symbolic(e)?) {
                (Symbolic::Known(a), Symbolic::Known(e)) => {
                    if !e.is_integer() {
                        return Err(refuse("a power with an exponent that is not a whole number"));
                    }
                    Symbolic::Known(a.checked_pow(e.numer()).map_err(arith)?)
                }
                (base, Symbolic::Known(e)) if e == Q::int(1) => base,
                (_, Symbolic::Known(e)) if e == Q::int(0) => Symbolic::Known(Q::int(1)),
                _ => {
                    return Err(refuse("a power of a heap (as in (x+z)**2) is outside linear arithmetic; prove works for caps linear in x and z"))
                }
            },
            Ast::Call(f, args) => match f {
                Builtin::Floor | Builtin::Ceil => {
                    floor_of(self.symbolic(&args[0])?, *f == Builtin::Ceil)?
                }
                Builtin::Round => {
                    return Err(refuse("round() (half to even) is not translated for the prover; write floor((2*E+1)/2) if ties round up"))
                }
                Builtin::Sqrt | Builtin::Isqrt => {
                    return Err(refuse("a square root is outside linear arithmetic (its values are not defined by +, constants and floor)"))
                }
                Builtin::Min | Builtin::Max => {
                    let mut parts = Vec::with_capacity(args.len());
                    for a in args {
                        parts.push(linear(self.symbolic(a)?)?);
                    }
                    let mut d = 1;
                    for (_, di) in &parts {
                        d = lcm(d, *di)?;
                    }
                    let mut folded: Option<Term> = None;
                    for (t, di) in parts {
                        let t = scale(t, d / di)?;
                        folded = Some(match folded {
                            None => t,
                            Some(acc) if *f == Builtin::Min => acc.min(t),
                            Some(acc) => acc.max(t),
                        });
                    }
                    Symbolic::Linear(folded.expect("min and max take two or more arguments"), d)
                }
                other => {
                    return Err(refuse(&format!(
                        "{}() is not translated for the prover; write the cap with floor, ceil, min, max, + - and constants",
                        other.name()
                    )))
                }
            },
            Ast::Apply(..) | Ast::Compare(..) | Ast::Not(_) | Ast::All(_) | Ast::Any(_) => {
                return Err(refuse("a cap is a number over x and z"))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::isqrt;

    fn cap(src: &str, x: u32, z: u32) -> u64 {
        CapExpr::parse(src).unwrap().cap(x, z).unwrap()
    }

    fn parse_err(src: &str) -> String {
        CapExpr::parse(src).unwrap_err().to_string()
    }

    #[test]
    fn the_papers_caps_mean_what_the_papers_mean() {
        for x in 0..40u32 {
            for z in 0..40u32 {
                let (xi, zi) = (u64::from(x), u64::from(z));
                assert_eq!(cap("floor((x+z)/3)", x, z), (xi + zi) / 3);
                assert_eq!(cap("(x+z)/3", x, z), (xi + zi) / 3);
                assert_eq!(cap("floor(min(x,z)/2)", x, z), xi.min(zi) / 2);
                assert_eq!(cap("floor((x+z)**2/5)", x, z), (xi + zi).pow(2) / 5);
                assert_eq!(cap("Floor((x + z)**2 / 5)", x, z), (xi + zi).pow(2) / 5);
                // Round(Sqrt(n)) half to even; for an integer n the root is never
                // a half-integer, so this is the nearest integer: compare with f64.
                let s = ((xi + zi) as f64).sqrt().round() as u64;
                assert_eq!(cap("round(sqrt(x+z))", x, z), s, "x={x} z={z}");
                assert_eq!(
                    cap("sqrt(x+z)", x, z),
                    ((xi + zi) as f64).sqrt().floor() as u64
                );
                assert_eq!(
                    cap("ceil(sqrt(x+z))", x, z),
                    ((xi + zi) as f64).sqrt().ceil() as u64
                );
            }
        }
    }

    #[test]
    fn division_is_exact_and_only_the_result_is_floored() {
        assert_eq!(cap("x/2 + z/2", 1, 1), 1);
        assert_eq!(cap("floor(x/2) + floor(z/2)", 1, 1), 0);
        assert_eq!(cap("x/3*3", 2, 0), 2);
        assert_eq!(cap("0.5*x + 1.25", 3, 0), 2);
        assert_eq!(cap("2**-1*x", 5, 0), 2);
    }

    #[test]
    fn round_is_half_to_even_and_exact() {
        assert_eq!(cap("round(x/2)", 1, 0), 0);
        assert_eq!(cap("round(x/2)", 3, 0), 2);
        assert_eq!(cap("round(x/2)", 5, 0), 2);
        assert_eq!(cap("round(x/3)", 2, 0), 1);
        assert_eq!(cap("round(-x/2) + 5", 3, 0), 3);
        // sqrt(9/4) = 3/2 exactly: a tie, rounds to 2; sqrt(25/4) = 5/2 -> 2.
        assert_eq!(cap("round(sqrt(x/4))", 9, 0), 2);
        assert_eq!(cap("round(sqrt(x/4))", 25, 0), 2);
        assert_eq!(cap("ceil(sqrt(x/4))", 9, 0), 2);
        assert_eq!(cap("floor(sqrt(x/4))", 9, 0), 1);
        // Huge perfect squares stay exact where f64 would not.
        let n: u64 = (1u64 << 31) - 1;
        assert_eq!(cap("floor(sqrt(x*x*x*x - 1))", n as u32, 0), n * n - 1);
        assert_eq!(cap("floor(sqrt(x*x*x*x))", n as u32, 0), n * n);
    }

    #[test]
    fn min_and_max_compare_roots_exactly() {
        assert_eq!(cap("min(sqrt(x), z)", 10, 3), 3);
        assert_eq!(cap("min(sqrt(x), z)", 8, 3), 2);
        assert_eq!(cap("max(sqrt(x), sqrt(z), 1)", 0, 17), 4);
        assert_eq!(cap("floor(max(sqrt(x), -5))", 0, 0), 0);
        assert_eq!(cap("min(x, z, 7)", 9, 8), 7);
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(cap("2+3*4", 0, 0), 14);
        assert_eq!(cap("(2+3)*4", 0, 0), 20);
        assert_eq!(cap("2**3**2", 0, 0), 512);
        assert_eq!(cap("-x**2 + 100", 3, 0), 91);
        assert_eq!(cap("10-4-3", 0, 0), 3);
        assert_eq!(cap("64/4/2", 0, 0), 8);
        assert_eq!(cap("--x", 4, 0), 4);
    }

    #[test]
    fn syntax_errors_point_at_the_column() {
        let at = |src: &str, column: usize| {
            let e = parse_err(src);
            assert!(e.starts_with("cap expression: "), "{e}");
            assert!(e.contains(&format!("at column {column} in")), "{src}: {e}");
            assert!(!e.contains('\n'));
            e
        };
        assert!(at("floor()", 1).contains("takes one argument"));
        assert!(at("(x+z", 5).contains("unexpected end of expression"));
        assert!(at("x+*z", 3).contains("unexpected '*'"));
        assert!(at("x z", 3).contains("unexpected 'z'"));
        assert!(at("x $ 2", 3).contains("unexpected '$'"));
        assert!(at("foo(x)", 1).contains("unknown function 'foo'"));
        assert!(at("x + y", 5).contains("unknown name 'y'"));
        assert!(at("floor(x, z)", 1).contains("takes one argument"));
        assert!(at("min(x)", 1).contains("two or more"));
        assert!(parse_err("  ").contains("empty"));
        assert!(at("2*sqrt(x)", 3).contains("sqrt must be rounded"));
        assert!(at("floor(sqrt(x)+1)", 7).contains("sqrt must be rounded"));
        assert!(parse_err("x < z").contains("not a condition"));
    }

    #[test]
    fn caret_is_xor_and_a_caret_that_meant_a_power_is_refused() {
        // `^` next to a literal 2 or more once meant a power: refused, naming `**`.
        for src in ["floor((x+z)^2/5)", "x^3", "2^x", "(x + z)^2", "x ^ 10"] {
            let e = parse_err(src);
            assert!(e.contains("'^' is XOR") && e.contains("**"), "{src}: {e}");
            assert!(!e.contains('\n'));
        }
        // Otherwise `^` is the nim-sum, `&` and `|` the bitwise and/or.
        for x in 0..20u32 {
            for z in 0..20u32 {
                assert_eq!(cap("x ^ z", x, z), u64::from(x ^ z));
                assert_eq!(
                    cap("(x+1) ^ (z+1) ^ 1", x, z),
                    u64::from((x + 1) ^ (z + 1) ^ 1)
                );
                assert_eq!(cap("x & z | 1", x, z), u64::from(x & z | 1));
                assert_eq!(cap("xor(x, 2)", x, z), u64::from(x ^ 2));
                assert_eq!(
                    cap("floor((x+z)**2/5)", x, z),
                    u64::from((x + z).pow(2) / 5)
                );
            }
        }
        // A fraction has no bits.
        let e = CapExpr::parse("(x/2) ^ z")
            .unwrap()
            .cap(1, 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("fraction 1/2"), "{e}");
    }

    #[test]
    fn evaluation_errors_name_the_position() {
        let e = CapExpr::parse("x - z").unwrap();
        assert_eq!(e.cap(5, 3).unwrap(), 2);
        let msg = e.cap(0, 3).unwrap_err().to_string();
        assert!(msg.contains("negative (-3) at (x, z) = (0, 3)"), "{msg}");
        let msg = CapExpr::parse("x**200")
            .unwrap()
            .cap(2, 0)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("overflows at (x, z) = (2, 0)"), "{msg}");
        let msg = CapExpr::parse("x/z")
            .unwrap()
            .cap(2, 0)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("divides by zero at (x, z) = (2, 0)"), "{msg}");
        let msg = CapExpr::parse("floor(sqrt(x-z))")
            .unwrap()
            .cap(1, 2)
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("square root of -1 at (x, z) = (1, 2)"),
            "{msg}"
        );
        let msg = CapExpr::parse("2**(x/2)")
            .unwrap()
            .cap(1, 0)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("non-integer power 1/2"), "{msg}");
        // 1^huge and 0^huge do not overflow.
        assert_eq!(cap("1**(x*1000000000000)", 7, 0), 1);
        assert_eq!(cap("0**(x+1)", 7, 0), 0);
    }

    #[test]
    fn isqrt_is_exact() {
        for n in 0..10_000u128 {
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n);
        }
        let big = (1u128 << 100) + 12345;
        let r = isqrt(big);
        assert!(r * r <= big && (r + 1) * (r + 1) > big);
        assert_eq!(isqrt(u128::MAX), (1u128 << 64) - 1);
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let deep = format!("{}x{}", "(".repeat(6000), ")".repeat(6000));
        assert!(parse_err(&deep).contains("characters"));
        let deep = format!("{}x{}", "(".repeat(400), ")".repeat(400));
        assert!(
            parse_err(&deep).contains("limited to 64 levels"),
            "{}",
            parse_err(&deep)
        );
        let chain = vec!["1"; 300].join("**");
        assert!(parse_err(&chain).contains("nesting"));
        let roots = format!("{}x{}", "floor(sqrt(".repeat(40), "))".repeat(40));
        assert!(parse_err(&roots).contains("nesting"));
        // Just inside the bound still parses.
        let ok = format!(
            "{}x{}",
            "(".repeat(MAX_NESTING - 1),
            ")".repeat(MAX_NESTING - 1)
        );
        assert_eq!(cap(&ok, 3, 4), 3);
        // A long flat chain is one level deep and fine.
        let flat = vec!["x"; 400].join("+");
        assert_eq!(cap(&flat, 2, 0), 800);
    }

    #[test]
    fn the_longest_chains_fit_a_small_stack() {
        // The tree of a chain `x+x+...` is as deep as the chain is long; the
        // length limit keeps that under 500, which a thread with a 256 KiB stack
        // (an eighth of a spawned thread's default) parses, compiles and drops.
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let longest = format!("x{}", "+x".repeat((MAX_LENGTH - 1) / 2));
                assert!(longest.len() <= MAX_LENGTH);
                assert_eq!(cap(&longest, 1, 0), MAX_LENGTH.div_ceil(2) as u64);
                let min = format!("min({})", vec!["x"; 32].join(","));
                assert_eq!(cap(&min, 3, 0), 3);
                let min = format!("min({})", vec!["x"; (MAX_LENGTH - 5) / 2].join(","));
                assert_eq!(cap(&min, 3, 0), 3);
                let signs = format!("{}x", "-".repeat(MAX_LENGTH - 1));
                assert!(parse_err(&signs).contains("nesting"));
                let long = format!("x{}", "+x".repeat(MAX_LENGTH));
                assert!(parse_err(&long).contains("characters"));
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn rounding_near_the_i128_limit_is_exact() {
        let max = i128::MAX;
        let expr = format!("round({}/{})", max - 1, max);
        assert_eq!(cap(&expr, 0, 0), 1);
        let expr = format!("round(1/{max})");
        assert_eq!(cap(&expr, 0, 0), 0);
        let expr = format!("ceil({}/{})", max - 1, max);
        assert_eq!(cap(&expr, 0, 0), 1);
    }

    #[test]
    fn named_parameters_are_constants_bound_at_parse_time() {
        for k in 1..=12i64 {
            let e = CapExpr::parse_with("floor((x+z)**2/k)", &[("k", k)]).unwrap();
            for (x, z) in [(0u32, 0u32), (3, 4), (10, 1), (64, 64)] {
                let want = (u64::from(x) + u64::from(z)).pow(2) / k as u64;
                assert_eq!(e.cap(x, z).unwrap(), want, "k={k} x={x} z={z}");
            }
            assert_eq!(e.to_string(), format!("floor((x+z)**2/k) with k={k}"));
        }
        // Case-insensitive, several parameters, a negative value.
        let e = CapExpr::parse_with("a*x + B", &[("A", 2), ("b", -1)]).unwrap();
        assert_eq!(e.cap(3, 0).unwrap(), 5);
        // Without the binding the name is unknown, and the message lists the bound ones.
        assert!(parse_err("floor((x+z)/k)").contains("unknown name 'k'"));
        let msg = CapExpr::parse_with("x/j", &[("k", 1)])
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("unknown name 'j'") && msg.contains("x, z, k"),
            "{msg}"
        );
        for bad in ["x", "floor", "2k", "", "k-1"] {
            let msg = CapExpr::parse_with("x", &[(bad, 1)])
                .unwrap_err()
                .to_string();
            assert!(msg.contains("cannot name a parameter"), "{bad}: {msg}");
        }
        assert!(CapExpr::parse_with("x", &[("k", 1), ("K", 2)])
            .unwrap_err()
            .to_string()
            .contains("twice"));
        // Division by a parameter of 0 is an evaluation error naming the position.
        let e = CapExpr::parse_with("x/k", &[("k", 0)]).unwrap();
        assert!(e
            .cap(1, 0)
            .unwrap_err()
            .to_string()
            .contains("divides by zero"));
    }

    #[test]
    fn control_characters_are_named_escaped() {
        assert!(
            parse_err("x\u{7}").contains("\\u{7}"),
            "{}",
            parse_err("x\u{7}")
        );
    }
}
