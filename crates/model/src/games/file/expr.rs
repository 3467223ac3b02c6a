//! The expressions of game files: the Exact dialect of the one expression
//! language (`crate::lang`, shared with caps and claims) over the heaps, `t`,
//! parameters and the file's functions. This module only fits the language to
//! a game file's keys: conditions, tuples and function definitions.
//!
//! Numbers are exact rationals, as in the papers' Mathematica programs; a
//! function of the file is written out where it is called and parameters are
//! constants, so an expression compiles to a short program over the variables
//! it reads, run on 64-bit integers first and on exact fractions where they
//! cannot decide, with no allocation per evaluation.

use crate::lang::code::{Code, STACK};
use crate::lang::parse::{self, Names};
use crate::lang::{Ast, Dialect, Function};
use crate::prove::ir::{Formula, Term};
use crate::prove::linear::Linear;
use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) use crate::lang::Fault;

/// A syntax or name error: the message says what and, where it can, how to fix it.
pub(crate) type Problem = String;

/// A compiled number (a coordinate of a move), with the tree it came from.
#[derive(Clone, Debug)]
pub(crate) struct Expr {
    /// The parsed tree, for a reader that matches the file's structure.
    pub(crate) ast: Ast,
    code: Code,
}

impl Expr {
    /// The value floored to an integer (a coordinate).
    #[inline]
    pub(crate) fn eval_int(&self, vars: &[i128]) -> Result<i128, Fault> {
        self.code.floor(vars)
    }

    /// The value on 64-bit integers, when the whole-number program decides it
    /// (`None`: a fraction, a square root or an overflow, which the exact code
    /// decides; the solver's fast loop then solves the position the slow way).
    #[inline]
    pub(crate) fn eval_whole(&self, vars: &[i64]) -> Option<i64> {
        self.code.eval_whole_i64(vars)
    }

    /// The variable this expression is as compiled (functions written out),
    /// when it is one and nothing else.
    pub(crate) fn compiled_var(&self) -> Option<usize> {
        self.code.only_var()
    }

    /// The whole-number program as a chain cut before its first operand that
    /// changes (`changes(var)`), when the program is a chain.
    pub(crate) fn split_chain(
        &self,
        changes: impl Fn(usize) -> bool,
    ) -> Option<crate::lang::code::SplitChain> {
        self.code.split_chain(changes)
    }

    /// Whether the compiled expression reads variable `var`.
    pub(crate) fn reads_compiled(&self, var: usize) -> bool {
        self.code.reads_var(var)
    }
}

/// A compiled condition of `positions`, with its tree.
#[derive(Clone, Debug)]
pub(crate) struct Condition {
    /// The parsed tree, for a reader that matches the file's structure.
    pub(crate) ast: Ast,
    code: Code,
}

impl Condition {
    /// Whether the condition holds (a chain `a >= b >= c` stops at its first
    /// false link, and `and`/`or` at the side that decides).
    #[inline]
    pub(crate) fn holds<V: Copy + Into<i128>>(&self, vars: &[V]) -> Result<bool, Fault> {
        self.code.holds(vars)
    }

    /// [`Condition::holds`] on `i64` variables where the closures decide it
    /// (`None`: a fraction, an overflow or a fault; ask [`Condition::holds_i64`]).
    #[inline]
    pub(crate) fn holds_whole(&self, vars: &[i64]) -> Option<bool> {
        self.code.eval_whole_i64(vars).map(|v| v != 0)
    }

    /// Whether the condition reads the variable with index `var`.
    pub(crate) fn reads_compiled(&self, var: usize) -> bool {
        self.code.reads_var(var)
    }

    /// [`Condition::holds`] on `i64` variables: the closures first, where they decide.
    #[inline]
    pub(crate) fn holds_i64(&self, vars: &[i64]) -> Result<bool, Fault> {
        match self.code.eval_whole_i64(vars) {
            Some(v) => Ok(v != 0),
            None => self.code.holds(vars),
        }
    }
}

/// A function `name(a, b) = body` of the file.
#[derive(Clone, Debug)]
pub(crate) struct Helper(pub(crate) Arc<Function>);

/// The names an expression may use, and what they stand for.
pub(crate) struct Scope<'a> {
    /// Variables, in the order of the values the code is given.
    pub vars: &'a [String],
    /// Parameters and their values (constants).
    pub params: &'a BTreeMap<String, i128>,
    /// Functions defined so far.
    pub helpers: &'a BTreeMap<String, Helper>,
}

/// Whether `name` is a built-in function or a keyword of the language.
pub(crate) fn reserved(name: &str) -> bool {
    crate::lang::reserved(name)
}

fn params_of(params: &BTreeMap<String, i128>) -> Vec<(String, i128)> {
    params.iter().map(|(n, v)| (n.clone(), *v)).collect()
}

fn functions_of(helpers: &BTreeMap<String, Helper>) -> Vec<Arc<Function>> {
    helpers.values().map(|h| h.0.clone()).collect()
}

/// Compiles a tree, refusing one that needs more than [`STACK`] values at once.
fn compile(ast: &Ast, src: &str) -> Result<Code, Problem> {
    let code = Code::compile(ast)?;
    if code.depth() > STACK {
        return Err(format!(
            "'{}' holds {} values at once while it is evaluated, at most {STACK}: give min and max fewer arguments each, or nest fewer brackets",
            crate::error::excerpt(&crate::error::one_line(src.trim())),
            code.depth()
        ));
    }
    Ok(code)
}

fn with_names<T>(scope: &Scope, f: impl FnOnce(&Names) -> T) -> T {
    let params = params_of(scope.params);
    let functions = functions_of(scope.helpers);
    f(&Names {
        vars: scope.vars,
        params: &params,
        functions: &functions,
        fold_case: false,
    })
}

/// Compiles one number (the tests; files use tuples and conditions).
#[cfg(test)]
pub(crate) fn compile_number(src: &str, scope: &Scope) -> Result<Expr, Problem> {
    let ast = with_names(scope, |names| parse::parse(src, names, Dialect::Exact))?;
    if ast.is_predicate() {
        return Err("a condition where a number is wanted".into());
    }
    let code = compile(&ast, src)?;
    Ok(Expr { ast, code })
}

/// Compiles a tuple `(e1, e2, ...)` of exactly `len` expressions.
pub(crate) fn compile_tuple(src: &str, len: usize, scope: &Scope) -> Result<Vec<Expr>, Problem> {
    let entries = with_names(scope, |names| {
        parse::parse_tuple(src, names, Dialect::Exact)
    })?;
    if entries.len() != len {
        return Err(format!(
            "'{}' has {} entries; the game has {len} heaps, one entry each",
            crate::error::excerpt(&crate::error::one_line(src.trim())),
            entries.len()
        ));
    }
    entries
        .into_iter()
        .map(|ast| {
            let code = compile(&ast, src)?;
            Ok(Expr { ast, code })
        })
        .collect()
}

/// Compiles a condition: comparisons (chained: `a >= b >= c`), joined by
/// `and`, `or`, `not`.
pub(crate) fn compile_condition(src: &str, scope: &Scope) -> Result<Condition, Problem> {
    let ast = with_names(scope, |names| parse::parse(src, names, Dialect::Exact))?;
    if !ast.is_predicate() {
        return Err(format!(
            "'{}' compares nothing; write an inequality such as y <= res(x)",
            crate::error::excerpt(&crate::error::one_line(src.trim()))
        ));
    }
    let code = compile(&ast, src)?;
    Ok(Condition { ast, code })
}

/// Parses `name(a, b) = body`; the body may call only functions defined before
/// it (so none is recursive) and use its arguments and the parameters. It is
/// compiled now, so a mistake (or a body too large once written out) is
/// reported at its definition.
pub(crate) fn parse_helper(
    src: &str,
    params: &BTreeMap<String, i128>,
    helpers: &BTreeMap<String, Helper>,
) -> Result<(String, Helper), Problem> {
    let function = parse::parse_function(src, &params_of(params), &functions_of(helpers))?;
    compile(&function.body, src)?;
    Ok((function.name.clone(), Helper(Arc::new(function))))
}

/// Structure the solver's recognition of known games reads (`recognise.rs`):
/// exact questions about the parsed tree with the file's functions written out
/// where they are called (parameters are already constants), never about the text.
impl Expr {
    /// An expression of a tree (compiled, so the solver can run it).
    fn of_ast(ast: Ast) -> Option<Expr> {
        let code = Code::compile(&ast).ok()?;
        (code.depth() <= STACK).then_some(Expr { ast, code })
    }

    /// The variable this expression is, when it is one and nothing else.
    pub(crate) fn as_var(&self) -> Option<usize> {
        match written_out(&self.ast, None) {
            Ast::Var(i) => Some(i),
            _ => None,
        }
    }

    /// Whether the expression reads variable `var`.
    pub(crate) fn reads(&self, var: usize) -> bool {
        reads_var(&written_out(&self.ast, None), var)
    }

    /// `e` when this expression is `min(v, e)` or `min(e, v)` of the variable `var`
    /// and one more argument.
    pub(crate) fn min_with_var(&self, var: usize) -> Option<Expr> {
        let Ast::Call(crate::lang::Builtin::Min, args) = written_out(&self.ast, None) else {
            return None;
        };
        let other = match args.as_slice() {
            [Ast::Var(i), other] | [other, Ast::Var(i)] if *i == var => other.clone(),
            _ => return None,
        };
        Expr::of_ast(other)
    }

    /// Whether this expression is `other` with each variable `j` of `other` read as
    /// variable `rename(j)` (`None`: `other` may not read `j`): the same tree.
    pub(crate) fn same_as(&self, other: &Expr, rename: &dyn Fn(usize) -> Option<usize>) -> bool {
        let mut unmapped = false;
        let renamed = rename_vars(&written_out(&other.ast, None), &mut |j| {
            rename(j).unwrap_or_else(|| {
                unmapped = true;
                j
            })
        });
        !unmapped && written_out(&self.ast, None) == renamed
    }
}

impl Condition {
    /// Whether this condition is `other`'s tree (each file's functions written out,
    /// variables by index): the same comparison of the same expressions.
    pub(crate) fn same_as(&self, other: &Condition) -> bool {
        written_out(&self.ast, None) == written_out(&other.ast, None)
    }

    /// The one comparison of a condition that is not a chain: left, operator, right.
    pub(crate) fn single(&self) -> Option<(Expr, &'static str, Expr)> {
        let Ast::Compare(left, links) = &self.ast else {
            return None;
        };
        let [(op, right)] = links.as_slice() else {
            return None;
        };
        Some((
            Expr::of_ast((**left).clone())?,
            op.symbol(),
            Expr::of_ast(right.clone())?,
        ))
    }
}

/// The prover's reading of game files (`logic.rs`): the tree, functions written
/// out, as a linear value, refused in one line naming a construct outside linear
/// arithmetic.
impl Expr {
    /// The expression in the prover's logic, `Var(i)` standing for `vars[i]`;
    /// refused (one line naming the construct) where it is not linear: a product
    /// or power of heaps, a division by a heap, a square root, `round`, `&`, `|`.
    pub(crate) fn to_linear(&self, vars: &[Linear]) -> Result<Linear, String> {
        linear_of(&written_out(&self.ast, None), vars)
    }
}

impl Condition {
    /// The condition in the prover's logic (see [`Expr::to_linear`]).
    pub(crate) fn to_formula(&self, vars: &[Linear]) -> Result<Formula, String> {
        formula_of(&written_out(&self.ast, None), vars)
    }
}

fn formula_of(ast: &Ast, vars: &[Linear]) -> Result<Formula, String> {
    Ok(match ast {
        Ast::Compare(first, links) => {
            let mut parts = Vec::with_capacity(links.len());
            let mut left = linear_of(first, vars)?;
            for (op, right) in links {
                let right = linear_of(right, vars)?;
                parts.push(left.compare(*op, right.clone())?);
                left = right;
            }
            Formula::and(parts)
        }
        Ast::Not(p) => Formula::not(formula_of(p, vars)?),
        Ast::All(ps) => Formula::and(
            ps.iter()
                .map(|p| formula_of(p, vars))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Ast::Any(ps) => Formula::or(
            ps.iter()
                .map(|p| formula_of(p, vars))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        _ => return Err("a number where a condition is wanted".into()),
    })
}

/// An integer term of a value that must be whole (an operand of `^`).
fn whole_term(v: Linear) -> Result<Term, String> {
    match v {
        Linear::Known(q) if q.denom() == 1 => Ok(Term::Const(
            i64::try_from(q.numer()).map_err(|_| "a constant is too large for the prover")?,
        )),
        Linear::Over(t, 1) => Ok(t),
        _ => Err("a nim-sum (^) of a fraction; take floor(...) first".into()),
    }
}

fn linear_of(ast: &Ast, vars: &[Linear]) -> Result<Linear, String> {
    use crate::lang::{Bin, Builtin};
    Ok(match ast {
        Ast::Const(q) => Linear::Known(*q),
        Ast::Var(i) => vars
            .get(*i)
            .cloned()
            .ok_or("an expression reads a variable the prover was not given")?,
        Ast::Neg(a) => linear_of(a, vars)?.negated()?,
        Ast::Pow(a, b) => linear_of(a, vars)?.pow(linear_of(b, vars)?)?,
        Ast::Chain(first, links) => {
            let mut value = linear_of(first, vars)?;
            for (op, b) in links {
                let b = linear_of(b, vars)?;
                value = match op {
                    Bin::Add => value.add(b, false)?,
                    Bin::Sub => value.add(b, true)?,
                    Bin::Mul => value.times(b)?,
                    Bin::Div => value.divided_by(b)?,
                    Bin::FloorDiv => value.divided_by(b)?.floor()?,
                    Bin::Mod => value.modulo(b)?,
                    Bin::Xor => Linear::Over(whole_term(value)?.xor(whole_term(b)?), 1),
                    Bin::BitAnd | Bin::BitOr => {
                        return Err(format!(
                            "'{}' (bitwise and/or) in a game file is not translated for the prover; the nim-sum ^ is",
                            op.symbol()
                        ))
                    }
                };
            }
            value
        }
        Ast::Call(f, args) => {
            let mut values = args
                .iter()
                .map(|a| linear_of(a, vars))
                .collect::<Result<Vec<_>, _>>()?;
            match f {
                Builtin::Min | Builtin::Max => Linear::extreme(values, *f == Builtin::Max)?,
                Builtin::Xor => {
                    let mut term: Option<Term> = None;
                    for v in values {
                        let t = whole_term(v)?;
                        term = Some(match term {
                            None => t,
                            Some(acc) => acc.xor(t),
                        });
                    }
                    Linear::Over(term.ok_or("xor() needs arguments")?, 1)
                }
                Builtin::Round => {
                    return Err("round() (half to even) is not translated for the prover; write floor(E + 1/2) if ties may round up".into())
                }
                Builtin::Sqrt | Builtin::Isqrt => {
                    return Err("a square root is outside linear arithmetic".into())
                }
                _ if values.len() == 2 => {
                    let b = values.pop().expect("two values");
                    let a = values.pop().expect("two values");
                    a.modulo(b)?
                }
                _ => {
                    let a = values.pop().ok_or("a function without its argument")?;
                    match f {
                        Builtin::Floor => a.floor()?,
                        Builtin::Ceil => a.ceil()?,
                        _ => a.abs()?,
                    }
                }
            }
        }
        Ast::Apply(f, args) => {
            let values: Vec<Ast> = args.to_vec();
            linear_of(&written_out(&f.body, Some(&values)), vars)?
        }
        Ast::Compare(..) | Ast::Not(_) | Ast::All(_) | Ast::Any(_) => {
            return Err("a condition where a number is wanted".into())
        }
    })
}

/// The tree with every call of a file's function replaced by its body, the
/// arguments put in for its variables (`args`: the values of `Var(i)` inside a body).
fn written_out(ast: &Ast, args: Option<&[Ast]>) -> Ast {
    let each = |a: &Ast| written_out(a, args);
    match ast {
        Ast::Const(c) => Ast::Const(*c),
        Ast::Var(i) => match args {
            Some(values) => values[*i].clone(),
            None => Ast::Var(*i),
        },
        Ast::Neg(a) => Ast::Neg(Box::new(each(a))),
        Ast::Chain(first, rest) => Ast::Chain(
            Box::new(each(first)),
            rest.iter().map(|(op, a)| (*op, each(a))).collect(),
        ),
        Ast::Pow(a, b) => Ast::Pow(Box::new(each(a)), Box::new(each(b))),
        Ast::Call(f, xs) => Ast::Call(*f, xs.iter().map(each).collect()),
        Ast::Apply(f, xs) => {
            let values: Vec<Ast> = xs.iter().map(each).collect();
            written_out(&f.body, Some(&values))
        }
        Ast::Compare(first, rest) => Ast::Compare(
            Box::new(each(first)),
            rest.iter().map(|(op, a)| (*op, each(a))).collect(),
        ),
        Ast::Not(a) => Ast::Not(Box::new(each(a))),
        Ast::All(xs) => Ast::All(xs.iter().map(each).collect()),
        Ast::Any(xs) => Ast::Any(xs.iter().map(each).collect()),
    }
}

/// The tree (functions written out) with each variable `j` read as `to(j)`.
fn rename_vars(ast: &Ast, to: &mut dyn FnMut(usize) -> usize) -> Ast {
    match ast {
        Ast::Var(j) => Ast::Var(to(*j)),
        Ast::Const(c) => Ast::Const(*c),
        Ast::Neg(a) => Ast::Neg(Box::new(rename_vars(a, to))),
        Ast::Chain(first, rest) => Ast::Chain(
            Box::new(rename_vars(first, to)),
            rest.iter()
                .map(|(op, a)| (*op, rename_vars(a, to)))
                .collect(),
        ),
        Ast::Pow(a, b) => Ast::Pow(Box::new(rename_vars(a, to)), Box::new(rename_vars(b, to))),
        Ast::Call(f, xs) => Ast::Call(*f, xs.iter().map(|a| rename_vars(a, to)).collect()),
        Ast::Apply(f, xs) => Ast::Apply(f.clone(), xs.iter().map(|a| rename_vars(a, to)).collect()),
        Ast::Compare(first, rest) => Ast::Compare(
            Box::new(rename_vars(first, to)),
            rest.iter()
                .map(|(op, a)| (*op, rename_vars(a, to)))
                .collect(),
        ),
        Ast::Not(a) => Ast::Not(Box::new(rename_vars(a, to))),
        Ast::All(xs) => Ast::All(xs.iter().map(|a| rename_vars(a, to)).collect()),
        Ast::Any(xs) => Ast::Any(xs.iter().map(|a| rename_vars(a, to)).collect()),
    }
}

/// Whether a tree (functions written out) reads variable `var`.
fn reads_var(ast: &Ast, var: usize) -> bool {
    match ast {
        Ast::Var(j) => *j == var,
        Ast::Const(_) => false,
        Ast::Neg(a) | Ast::Not(a) => reads_var(a, var),
        Ast::Chain(first, rest) => {
            reads_var(first, var) || rest.iter().any(|(_, a)| reads_var(a, var))
        }
        Ast::Compare(first, rest) => {
            reads_var(first, var) || rest.iter().any(|(_, a)| reads_var(a, var))
        }
        Ast::Pow(a, b) => reads_var(a, var) || reads_var(b, var),
        Ast::Call(_, xs) | Ast::Apply(_, xs) | Ast::All(xs) | Ast::Any(xs) => {
            xs.iter().any(|a| reads_var(a, var))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::Rational;

    fn scope_eval(src: &str, vars: &[&str], values: &[i128]) -> Result<Rational, String> {
        let vars: Vec<String> = vars.iter().map(|s| s.to_string()).collect();
        let params = BTreeMap::from([("k".to_string(), 3)]);
        let mut helpers = BTreeMap::new();
        let (n, h) = parse_helper("res(x) = 2*floor(x/2) + 1", &params, &helpers).unwrap();
        helpers.insert(n, h);
        let (n, h) = parse_helper("twice(a) = res(a) + res(a)", &params, &helpers).unwrap();
        helpers.insert(n, h);
        let scope = Scope {
            vars: &vars,
            params: &params,
            helpers: &helpers,
        };
        match compile_number(src, &scope)?.code.eval(values) {
            Ok(crate::lang::code::Value::Exact(q)) => Ok(q),
            Ok(v) => Err(format!("not a rational: {v:?}")),
            Err(f) => Err(f.to_string()),
        }
    }

    #[test]
    fn evaluates_exactly_with_helpers_and_parameters() {
        let v = |s: &str, x: i128, y: i128| scope_eval(s, &["x", "y"], &[x, y]).unwrap();
        assert_eq!(v("res(x)", 4, 0), Rational::int(5));
        assert_eq!(v("res(y) + k", 0, 7), Rational::int(10));
        assert_eq!(v("twice(x+1)", 4, 0), Rational::int(10));
        assert_eq!(v("x/2 + y/2", 1, 1), Rational::int(1));
        assert_eq!(v("floor(x/2) + floor(y/2)", 1, 1), Rational::int(0));
        assert_eq!(v("2**3**2", 0, 0), Rational::int(512));
        assert_eq!(v("-x**2", 3, 0), Rational::int(-9));
        assert_eq!(v("mod(-7, 3)", 0, 0), Rational::int(2));
        assert_eq!(v("min(x, y, 2)", 5, 9), Rational::int(2));
        assert_eq!(v("Max(x, y)", 5, 9), Rational::int(9));
        assert_eq!(v("round(5/2) + round(7/2)", 0, 0), Rational::int(6));
        assert_eq!(v("isqrt(x)", 99, 0), Rational::int(9));
        assert_eq!(v("ceil(x/3)", 7, 0), Rational::int(3));
        // floor(a/b) of whole numbers, every sign, against the exact fraction's floor.
        for (a, b) in [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (-6, 3), (0, 5)] {
            let fused = v(&format!("floor(({a})/({b}))"), 0, 0);
            let exact = v(&format!("floor(({a})/({b}) + 0)"), 0, 0);
            assert_eq!(fused, exact, "{a}/{b}");
            assert_eq!(fused, Rational::int((a as f64 / b as f64).floor() as i128));
        }
        assert_eq!(v("floor(x/2/3)", 13, 0), Rational::int(2));
        assert_eq!(v("floor((x/2)/(y/3))", 5, 2), Rational::int(3));
        assert_eq!(v("abs(x - y)", 2, 9), Rational::int(7));
    }

    #[test]
    fn the_whole_number_path_agrees_with_the_exact_one() {
        let vars = vec!["x".to_string(), "y".to_string()];
        let params = BTreeMap::from([("k".to_string(), 3)]);
        let helpers = BTreeMap::new();
        let scope = Scope {
            vars: &vars,
            params: &params,
            helpers: &helpers,
        };
        let sources = [
            "2*floor(x/2) + 1",
            "max(2*floor(x/2) - 2, 0)",
            "floor((x - y)/k) - mod(y - x, 4)",
            "min(x*y, isqrt(x + y), abs(y - 2*x))",
            "(x - y)**3 - floor((x + y)**2/5)",
            "x**(y - 3)",
            "isqrt(x - y)",
            "mod(x, y - 2)",
            "floor(x/(y - 2))",
            "x * 3037000500 * 3037000500",
        ];
        let mut whole = 0;
        for src in sources {
            let e = compile_number(src, &scope).unwrap().code;
            assert!(e.is_whole(), "{src}");
            for x in -6..=6 {
                for y in -6..=6 {
                    let exact = e.eval_exact(&[x, y]).map(|q| q.floor());
                    match e.eval_whole(&[x, y]) {
                        Some(v) => {
                            whole += 1;
                            assert_eq!(Ok(i128::from(v)), exact, "{src} at {x}, {y}");
                        }
                        // Only overflow, faults and negative powers leave the fast path.
                        None => assert!(
                            exact.is_err() || src.contains("**") || src.contains("3037000500"),
                            "{src} at {x}, {y}"
                        ),
                    }
                    assert_eq!(e.floor(&[x, y]), exact, "{src} at {x}, {y}");
                }
            }
        }
        assert!(whole > 1000);
        assert!(!compile_number("x/2", &scope).unwrap().code.is_whole());
    }

    #[test]
    fn faults_and_problems_are_reported() {
        let e = |s: &str| scope_eval(s, &["x"], &[0]).unwrap_err();
        assert!(e("1/x").contains("division by zero"));
        assert!(e("floor(1/x)").contains("division by zero"));
        assert!(e("2**200").contains("overflow"));
        assert!(e("isqrt(x - 1)").contains("isqrt"));
        assert!(e("2**(1/2)").contains("fractional exponent"));
        assert!(e("w + 1").contains("unknown name 'w'"), "{}", e("w + 1"));
        assert!(e("foo(x)").contains("unknown function 'foo'"));
        assert!(e("res(x, x)").contains("takes 1 argument"));
        assert!(e("(x + 1").contains("wanted ')'"));
        assert!(e("x $ 1").contains("unexpected '$'"));
        // Nesting without parentheses, and helpers that double at every level, are
        // refused when compiled rather than overflowing a stack or memory.
        assert!(e(&format!("{}x", "-".repeat(100_000))).contains("nested too deeply"));
        assert!(e(&format!("x{}", "**2".repeat(100_000))).contains("nested too deeply"));
        let params = BTreeMap::new();
        let mut helpers = BTreeMap::new();
        let (n, h) = parse_helper("f0(a) = a + a", &params, &helpers).unwrap();
        helpers.insert(n, h);
        // Each level doubles the body: refused where it is defined, long before memory runs out.
        let mut refused = None;
        for i in 1..40 {
            match parse_helper(
                &format!("f{i}(a) = f{}(a) + f{}(a)", i - 1, i - 1),
                &params,
                &helpers,
            ) {
                Ok((n, h)) => {
                    helpers.insert(n, h);
                }
                Err(p) => {
                    refused = Some((i, p));
                    break;
                }
            }
        }
        let (level, err) = refused.expect("refused");
        assert!(level < 20, "{level}");
        assert!(
            err.contains("too large once its functions are written out"),
            "{err}"
        );
        // A helper's body does not see the heaps of the expression that calls it.
        let err = parse_helper("f(a) = a + y", &params, &BTreeMap::new()).unwrap_err();
        assert!(err.contains("unknown name 'y'"), "{err}");
        let err = parse_helper("floor(a) = a", &params, &BTreeMap::new()).unwrap_err();
        assert!(err.contains("taken"), "{err}");
    }

    #[test]
    fn long_chains_and_argument_lists_need_no_stack() {
        // On a 128 KiB stack, a sixteenth of a spawned thread's: no pass over an
        // expression (parsing, resolving, evaluating, dropping) may recurse over a
        // chain's length. A boxed tree overflowed 8 MiB at 12,000 terms.
        let run = || {
            let chain = |terms: usize, op: &str| format!("x{}", op.repeat(terms - 1));
            let v = |s: &str| scope_eval(s, &["x"], &[5]);
            // 12,000 terms compile and evaluate exactly, on both paths.
            assert_eq!(v(&chain(12_000, "+1")), Ok(Rational::int(5 + 11_999)));
            assert_eq!(v(&chain(12_000, "-x/5")), Ok(Rational::int(5 - 11_999)));
            assert_eq!(v(&chain(12_000, "*1")), Ok(Rational::int(5)));
            // Inside a helper and called from one, a long chain is still a loop.
            assert_eq!(
                v(&format!("twice({})", chain(12_000, "+1"))),
                Ok(Rational::int(2 * (2 * ((5 + 11_999) / 2) + 1)))
            );
            // 100,000 terms are refused as too large, in a line of its own length.
            for src in [chain(100_000, "+1"), chain(100_000, "^1")] {
                let err = v(&src).unwrap_err();
                assert!(
                    err.contains("too large") || err.contains("nested too deeply"),
                    "{err}"
                );
                assert!(err.len() < 300, "{} bytes", err.len());
            }
            // Long argument lists: refused by the evaluation stack, not a crash.
            let many = format!("min({})", vec!["x"; 50_000].join(", "));
            let err = v(&many).unwrap_err();
            assert!(err.contains("values at once"), "{err}");
            assert!(err.len() < 300, "{} bytes", err.len());
            assert_eq!(
                v(&format!("min({})", vec!["x"; 32].join(", "))),
                Ok(Rational::int(5))
            );
            // Signs and powers nest: counted as nesting.
            assert!(v(&format!("{}x", "-".repeat(12_000)))
                .unwrap_err()
                .contains("nested too deeply"));
            assert!(v(&format!("{}x", "- ".repeat(100_000)))
                .unwrap_err()
                .contains("nested too deeply"));
        };
        std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(run)
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn a_mistake_in_a_long_expression_is_quoted_short_and_located() {
        let long = format!("x{})", "+1".repeat(30_000));
        let err = scope_eval(&long, &["x"], &[0]).unwrap_err();
        assert!(
            err.contains("')'") && err.contains("at column 60002"),
            "{err}"
        );
        assert!(err.len() < 300, "{} bytes: {err}", err.len());
        let name = "w".repeat(60_000);
        let err = scope_eval(&name, &["x"], &[0]).unwrap_err();
        assert!(err.contains("unknown name 'www"), "{err}");
        assert!(err.len() < 300, "{} bytes", err.len());
    }

    #[test]
    fn conditions_chain_and_tuples_count_their_entries() {
        let vars = vec!["x".to_string(), "y".to_string()];
        let params = BTreeMap::new();
        let helpers = BTreeMap::new();
        let scope = Scope {
            vars: &vars,
            params: &params,
            helpers: &helpers,
        };
        let c = compile_condition("x + 1 >= y >= x - 2", &scope).unwrap();
        assert!(c.holds(&[3, 4]).unwrap());
        assert!(!c.holds(&[3, 5]).unwrap());
        assert!(!c.holds(&[3, 0]).unwrap());
        assert!(compile_condition("x = y", &scope)
            .unwrap_err()
            .contains("=="));
        assert!(compile_condition("x + y", &scope)
            .unwrap_err()
            .contains("compares nothing"));
        let t = compile_tuple("(y, min(x, y))", 2, &scope).unwrap();
        assert_eq!(t[1].eval_int(&[4, 2]).unwrap(), 2);
        assert!(compile_tuple("(y)", 2, &scope)
            .unwrap_err()
            .contains("2 heaps"));
    }
}
