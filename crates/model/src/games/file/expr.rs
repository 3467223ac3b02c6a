//! The expressions of game files: the cap language's exact arithmetic over named
//! heaps, `t`, parameters and helper functions.
//!
//! Numbers are exact rationals ([`Rational`], checked `i128` fractions), as in the
//! papers' Mathematica programs: `/` divides exactly and only `floor`, `ceil`,
//! `round` (half to even), `isqrt` and `mod` make integers. Helper functions are
//! inlined where they are called and parameters are constants, so an expression
//! compiles to a short postfix program over the variables it reads (the heaps and
//! `t`); evaluating it is a loop over a small stack, with no allocation.

use crate::exact::{isqrt, Rational};
use crate::prove::ir::{CmpOp, Formula};
use crate::prove::linear::Linear;
use std::collections::BTreeMap;

/// Why an evaluation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// A value left the `i128` fractions.
    Overflow,
    /// A division (or `mod`) by zero.
    DivisionByZero,
    /// `isqrt` of a negative number, or a power with a fractional exponent.
    Domain,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Fault::Overflow => "arithmetic overflow (a value beyond 128-bit fractions)",
            Fault::DivisionByZero => "division by zero",
            Fault::Domain => "isqrt of a negative number, or a power with a fractional exponent",
        })
    }
}

impl From<crate::exact::ArithError> for Fault {
    fn from(e: crate::exact::ArithError) -> Fault {
        match e {
            crate::exact::ArithError::Overflow => Fault::Overflow,
            crate::exact::ArithError::DivisionByZero => Fault::DivisionByZero,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Op {
    Const(Rational),
    Var(usize),
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Neg,
    Floor,
    /// `floor(a / b)`, fused: whole numbers divide without building a fraction.
    FloorDiv,
    Ceil,
    Round,
    Isqrt,
    Abs,
    Mod,
    Min(usize),
    Max(usize),
}

/// Exact comparison, with whole numbers compared directly.
fn compare(a: Rational, b: Rational) -> Result<std::cmp::Ordering, Fault> {
    if a.is_integer() && b.is_integer() {
        return Ok(a.numer().cmp(&b.numer()));
    }
    Ok(a.checked_cmp(b)?)
}

/// `floor(a / b)`.
fn floor_div(a: Rational, b: Rational) -> Result<Rational, Fault> {
    if a.is_integer() && b.is_integer() {
        let (n, d) = (a.numer(), b.numer());
        if d == 0 {
            return Err(Fault::DivisionByZero);
        }
        let q = n.checked_div(d).ok_or(Fault::Overflow)?;
        let floor = if n % d != 0 && ((n < 0) != (d < 0)) {
            q - 1
        } else {
            q
        };
        return Ok(Rational::int(floor));
    }
    Ok(Rational::int(a.checked_div(b)?.floor()))
}

/// A compiled expression: evaluate it with [`Expr::eval`] on the variables' values.
///
/// An expression with no bare `/` (divisions only as `floor(a/b)`) has whole
/// values all the way through on whole inputs, so it is first run on `i64`
/// ([`Expr::eval_whole`]), several times faster; any overflow there, or a negative
/// power, reruns it on the exact fractions, which decide.
#[derive(Clone, Debug)]
pub(crate) struct Expr {
    code: Vec<Op>,
    whole: Option<Vec<W>>,
    /// The stack the program needs.
    depth: usize,
}

/// `floor(n / d)` of `i64`s; `None` on overflow or a zero `d`.
fn floor_div_i64(n: i64, d: i64) -> Option<i64> {
    let q = n.checked_div(d)?;
    Some(if n % d != 0 && ((n < 0) != (d < 0)) {
        q - 1
    } else {
        q
    })
}

impl Expr {
    /// The expression in the prover's logic, `Op::Var(i)` standing for
    /// `vars[i]`; refused (one line naming the construct) where it is not
    /// linear: a product or power of heaps, a division by a heap, `isqrt`,
    /// `round`.
    pub(crate) fn to_linear(&self, vars: &[Linear]) -> Result<Linear, String> {
        let mut stack: Vec<Linear> = Vec::with_capacity(self.depth);
        let broken = || "a compiled expression is unbalanced".to_string();
        for op in &self.code {
            let v = match op {
                Op::Const(q) => Linear::Known(*q),
                Op::Var(i) => vars.get(*i).cloned().ok_or_else(broken)?,
                Op::Neg | Op::Floor | Op::Ceil | Op::Abs | Op::Round | Op::Isqrt => {
                    let a = stack.pop().ok_or_else(broken)?;
                    match op {
                        Op::Neg => a.negated()?,
                        Op::Floor => a.floor()?,
                        Op::Ceil => a.ceil()?,
                        Op::Abs => a.abs()?,
                        Op::Round => return Err(
                            "round() (half to even) is not translated for the prover; write floor(E + 1/2) if ties may round up".into(),
                        ),
                        _ => return Err(
                            "a square root (isqrt) is outside linear arithmetic".into(),
                        ),
                    }
                }
                Op::Min(n) | Op::Max(n) => {
                    let at = stack.len().checked_sub(*n).ok_or_else(broken)?;
                    let args = stack.split_off(at);
                    Linear::extreme(args, matches!(op, Op::Max(_)))?
                }
                _ => {
                    let b = stack.pop().ok_or_else(broken)?;
                    let a = stack.pop().ok_or_else(broken)?;
                    match op {
                        Op::Add => a.add(b, false)?,
                        Op::Sub => a.add(b, true)?,
                        Op::Mul => a.times(b)?,
                        Op::Div => a.divided_by(b)?,
                        Op::FloorDiv => a.divided_by(b)?.floor()?,
                        Op::Pow => a.pow(b)?,
                        _ => a.modulo(b)?,
                    }
                }
            };
            stack.push(v);
        }
        stack.pop().ok_or_else(broken)
    }
}

/// The stack of an evaluation; deeper expressions are refused when compiled.
const STACK: usize = 32;

impl Expr {
    /// The value with variable `i` equal to `vars[i]`.
    pub(crate) fn eval(&self, vars: &[i128]) -> Result<Rational, Fault> {
        let mut stack = [Rational::ZERO; STACK];
        let mut top = 0usize;
        for op in &self.code {
            match op {
                Op::Const(q) => {
                    stack[top] = *q;
                    top += 1;
                }
                Op::Var(i) => {
                    stack[top] = Rational::int(vars[*i]);
                    top += 1;
                }
                Op::Neg | Op::Floor | Op::Ceil | Op::Round | Op::Isqrt | Op::Abs => {
                    let a = stack[top - 1];
                    stack[top - 1] = match op {
                        Op::Neg => a.checked_neg()?,
                        Op::Floor => Rational::int(a.floor()),
                        Op::Ceil => Rational::int(a.ceil()),
                        Op::Round => Rational::int(a.round()),
                        Op::Abs if a.numer() < 0 => a.checked_neg()?,
                        Op::Abs => a,
                        _ => {
                            let n = a.floor();
                            if n < 0 {
                                return Err(Fault::Domain);
                            }
                            Rational::int(isqrt(n as u128) as i128)
                        }
                    };
                }
                Op::Min(n) | Op::Max(n) => {
                    let want = if matches!(op, Op::Min(_)) {
                        std::cmp::Ordering::Less
                    } else {
                        std::cmp::Ordering::Greater
                    };
                    let mut best = stack[top - n];
                    for &q in &stack[top - n + 1..top] {
                        if compare(q, best)? == want {
                            best = q;
                        }
                    }
                    top -= n - 1;
                    stack[top - 1] = best;
                }
                _ => {
                    let (a, b) = (stack[top - 2], stack[top - 1]);
                    top -= 1;
                    stack[top - 1] = match op {
                        Op::Add => a.checked_add(b)?,
                        Op::Sub => a.checked_sub(b)?,
                        Op::Mul if a.is_integer() && b.is_integer() => {
                            Rational::int(a.numer().checked_mul(b.numer()).ok_or(Fault::Overflow)?)
                        }
                        Op::Mul => a.checked_mul(b)?,
                        Op::FloorDiv => floor_div(a, b)?,
                        Op::Div => a.checked_div(b)?,
                        Op::Pow => {
                            if !b.is_integer() {
                                return Err(Fault::Domain);
                            }
                            a.checked_pow(b.numer())?
                        }
                        // Mathematica's Mod: a - b floor(a/b), the sign of b.
                        _ => {
                            let q = a.checked_div(b)?.floor();
                            a.checked_sub(b.checked_mul(Rational::int(q))?)?
                        }
                    };
                }
            }
        }
        Ok(stack[0])
    }

    /// The value floored to an integer (a coordinate, a bound).
    pub(crate) fn eval_int(&self, vars: &[i128]) -> Result<i128, Fault> {
        if let Some(v) = self.eval_whole(vars) {
            return Ok(i128::from(v));
        }
        Ok(self.eval(vars)?.floor())
    }

    /// The value on `i64`, when the expression has whole values throughout and
    /// nothing overflows; `None` sends the caller to the exact [`Expr::eval`].
    fn eval_whole(&self, vars: &[i128]) -> Option<i64> {
        let code = self.whole.as_deref()?;
        // A plain variable (`t`, `y`) needs no program; a shallow program a small stack.
        if let [W::Var(i)] = code {
            return i64::try_from(vars[*i]).ok();
        }
        if self.depth <= 8 {
            run_whole::<8>(code, vars)
        } else {
            run_whole::<STACK>(code, vars)
        }
    }
}

/// Runs a whole-number program on a stack of `N` (at least its depth).
fn run_whole<const N: usize>(code: &[W], vars: &[i128]) -> Option<i64> {
    {
        let mut stack = [0i64; N];
        let mut top = 0usize;
        for op in code {
            match *op {
                W::Const(c) => {
                    stack[top] = c;
                    top += 1;
                }
                W::Var(i) => {
                    stack[top] = i64::try_from(vars[i]).ok()?;
                    top += 1;
                }
                W::Neg => stack[top - 1] = stack[top - 1].checked_neg()?,
                W::Abs => stack[top - 1] = stack[top - 1].checked_abs()?,
                W::Isqrt => {
                    let a = stack[top - 1];
                    if a < 0 {
                        return None;
                    }
                    stack[top - 1] = isqrt(a as u128) as i64;
                }
                W::Min(n) | W::Max(n) => {
                    let args = &stack[top - n..top];
                    let v = if matches!(op, W::Min(_)) {
                        args.iter().copied().min()?
                    } else {
                        args.iter().copied().max()?
                    };
                    top -= n - 1;
                    stack[top - 1] = v;
                }
                W::Add | W::Sub | W::Mul | W::FloorDiv | W::Pow | W::Mod => {
                    let (a, b) = (stack[top - 2], stack[top - 1]);
                    top -= 1;
                    stack[top - 1] = match op {
                        W::Add => a.checked_add(b)?,
                        W::Sub => a.checked_sub(b)?,
                        W::Mul => a.checked_mul(b)?,
                        W::FloorDiv => floor_div_i64(a, b)?,
                        W::Pow => a.checked_pow(u32::try_from(b).ok()?)?,
                        _ => a.checked_sub(b.checked_mul(floor_div_i64(a, b)?)?)?,
                    };
                }
            }
        }
        Some(stack[0])
    }
}

/// One instruction of the whole-number program: [`Op`] without fractions (floor,
/// ceil and round of a whole number are the number, so they are left out).
#[derive(Clone, Copy, Debug)]
enum W {
    Const(i64),
    Var(usize),
    Add,
    Sub,
    Mul,
    FloorDiv,
    Pow,
    Neg,
    Abs,
    Isqrt,
    Mod,
    Min(usize),
    Max(usize),
}

/// The whole-number program of `code`, when it has one: no bare `/`, every
/// constant a whole number that fits `i64`.
fn whole_program(code: &[Op]) -> Option<Vec<W>> {
    let mut out = Vec::with_capacity(code.len());
    for op in code {
        out.push(match op {
            Op::Const(q) if q.is_integer() => W::Const(i64::try_from(q.numer()).ok()?),
            Op::Const(_) | Op::Div => return None,
            Op::Var(i) => W::Var(*i),
            Op::Add => W::Add,
            Op::Sub => W::Sub,
            Op::Mul => W::Mul,
            Op::FloorDiv => W::FloorDiv,
            Op::Pow => W::Pow,
            Op::Neg => W::Neg,
            Op::Abs => W::Abs,
            Op::Isqrt => W::Isqrt,
            Op::Mod => W::Mod,
            Op::Min(n) => W::Min(*n),
            Op::Max(n) => W::Max(*n),
            Op::Floor | Op::Ceil | Op::Round => continue,
        });
    }
    Some(out)
}

/// A syntax or name error: the message says what and, where it can, how to fix it.
pub(crate) type Problem = String;

/// An expression as messages quote it: one line, at most 60 characters
/// ([`crate::error::excerpt`]), so a 60 KB expression gives a short error.
fn quoted(src: &str) -> String {
    crate::error::excerpt(&crate::error::one_line(src.trim()))
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(i128),
    Ident(String),
    Sym(&'static str),
}

/// The tokens of `src`, each with the byte offset where it starts.
fn lex(src: &str) -> Result<Vec<(Tok, usize)>, Problem> {
    const SYMS: [&str; 16] = [
        "**", "<=", ">=", "==", "!=", "+", "-", "*", "/", "^", "(", ")", ",", "<", ">", "=",
    ];
    let mut out = Vec::new();
    let b = src.as_bytes();
    let mut i = 0;
    'outer: while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let n: i128 = src[start..i]
                .parse()
                .map_err(|_| format!("the number {} is too large", quoted(&src[start..i])))?;
            out.push((Tok::Num(n), start));
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Ident(src[start..i].to_string()), start));
            continue;
        }
        for s in SYMS {
            if src[i..].starts_with(s) {
                out.push((Tok::Sym(if s == "**" { "^" } else { s }), i));
                i += s.len();
                continue 'outer;
            }
        }
        let bad = src[i..].chars().next().unwrap_or(' ');
        return Err(format!(
            "unexpected character '{}' at character {} of '{}' (allowed: numbers, names, + - * / ^ ( ) , and comparisons)",
            bad.escape_debug(),
            src[..i].chars().count() + 1,
            quoted(src)
        ));
    }
    Ok(out)
}

/// One step of a parsed expression in postfix order, before names are resolved.
///
/// The parser writes postfix directly and every later pass is a loop over a
/// `Vec`: no pass recurses over the expression, so a chain `x+1+1+...` of any
/// length cannot overflow a stack (a tree of boxed nodes would be as deep as the
/// chain is long, in the passes over it and in its `Drop`). Only brackets, signs
/// and powers make the parser recurse, and those are counted ([`MAX_NESTING`]).
#[derive(Clone, Debug)]
enum Step {
    Num(i128),
    Name(String),
    Neg,
    Bin(&'static str),
    /// A call of a built-in or a helper function with this many arguments.
    Call(String, usize),
}

/// The deepest nesting of brackets, calls, signs and powers.
const MAX_NESTING: usize = 64;

struct Parser<'a> {
    toks: Vec<(Tok, usize)>,
    at: usize,
    src: &'a str,
    depth: usize,
    out: Vec<Step>,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Result<Parser<'a>, Problem> {
        Ok(Parser {
            toks: lex(src)?,
            at: 0,
            src,
            depth: 0,
            out: Vec::new(),
        })
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|(t, _)| t)
    }

    fn eat(&mut self, sym: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Sym(s)) if *s == sym) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, sym: &str) -> Result<(), Problem> {
        if self.eat(sym) {
            Ok(())
        } else {
            Err(format!(
                "expected '{sym}' {} in '{}'",
                self.where_(),
                quoted(self.src)
            ))
        }
    }

    /// Where the parser stands: the next token and the character it starts at
    /// (1-based), so a mistake in a long expression can be found.
    fn where_(&self) -> String {
        let Some((tok, offset)) = self.toks.get(self.at) else {
            return "at the end".into();
        };
        let column = self.src[..*offset].chars().count() + 1;
        let tok = match tok {
            Tok::Num(n) => n.to_string(),
            Tok::Ident(s) => crate::error::excerpt(s),
            Tok::Sym(s) => s.to_string(),
        };
        format!("before '{tok}' at character {column}")
    }

    fn done(&self) -> Result<(), Problem> {
        if self.at == self.toks.len() {
            Ok(())
        } else {
            Err(format!(
                "unexpected text {} in '{}'",
                self.where_(),
                quoted(self.src)
            ))
        }
    }

    /// Counts one level of nesting; the parser recurses only through here.
    fn enter(&mut self) -> Result<(), Problem> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(format!(
                "'{}' is nested too deeply (brackets, signs and powers more than {MAX_NESTING} levels deep)",
                quoted(self.src)
            ));
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<(), Problem> {
        self.enter()?;
        self.term()?;
        loop {
            let op = if self.eat("+") {
                "+"
            } else if self.eat("-") {
                "-"
            } else {
                break;
            };
            self.term()?;
            self.out.push(Step::Bin(op));
        }
        self.depth -= 1;
        Ok(())
    }

    fn term(&mut self) -> Result<(), Problem> {
        self.unary()?;
        loop {
            let op = if self.eat("*") {
                "*"
            } else if self.eat("/") {
                "/"
            } else {
                break;
            };
            self.unary()?;
            self.out.push(Step::Bin(op));
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<(), Problem> {
        // Signs and exponents nest without parentheses: counted like them.
        self.enter()?;
        if self.eat("-") {
            self.unary()?;
            self.out.push(Step::Neg);
        } else if self.eat("+") {
            self.unary()?;
        } else {
            self.power()?;
        }
        self.depth -= 1;
        Ok(())
    }

    fn power(&mut self) -> Result<(), Problem> {
        self.atom()?;
        if self.eat("^") {
            // Right-associative, and -x^2 is -(x^2) as in Mathematica.
            self.unary()?;
            self.out.push(Step::Bin("^"));
        }
        Ok(())
    }

    fn atom(&mut self) -> Result<(), Problem> {
        match self.peek().cloned() {
            Some(Tok::Num(n)) => {
                self.at += 1;
                self.out.push(Step::Num(n));
                Ok(())
            }
            Some(Tok::Ident(name)) => {
                self.at += 1;
                if self.eat("(") {
                    let args = self.list(")")?.len();
                    self.out.push(Step::Call(name, args));
                } else {
                    self.out.push(Step::Name(name));
                }
                Ok(())
            }
            Some(Tok::Sym("(")) => {
                self.at += 1;
                self.expr()?;
                self.expect(")")
            }
            _ => Err(format!(
                "expected a number, a name or '(' {} in '{}'",
                self.where_(),
                quoted(self.src)
            )),
        }
    }

    /// Comma-separated expressions up to `close` (already past the opening one):
    /// where each one's steps start in `out`.
    fn list(&mut self, close: &str) -> Result<Vec<usize>, Problem> {
        let mut starts = Vec::new();
        if self.eat(close) {
            return Ok(starts);
        }
        loop {
            starts.push(self.out.len());
            self.expr()?;
            if self.eat(close) {
                return Ok(starts);
            }
            self.expect(",")?;
        }
    }

    /// One whole expression: its steps.
    fn whole(src: &str) -> Result<Vec<Step>, Problem> {
        let mut p = Parser::new(src)?;
        p.expr()?;
        p.done()?;
        Ok(p.out)
    }
}

/// A helper function `name(a, b) = body`, compiled once where it is defined
/// (`Op::Var(i)` is argument `i`) and written out at each call.
#[derive(Clone, Debug)]
pub(crate) struct Helper {
    args: usize,
    code: Vec<Op>,
}

/// The names an expression may use, and what they stand for.
pub(crate) struct Scope<'a> {
    /// Variables, in the order of the values [`Expr::eval`] is given.
    pub vars: &'a [String],
    /// Parameters and their values (constants).
    pub params: &'a BTreeMap<String, i128>,
    /// Helper functions defined so far.
    pub helpers: &'a BTreeMap<String, Helper>,
}

const BUILTINS: [&str; 8] = [
    "floor", "ceil", "round", "isqrt", "abs", "mod", "min", "max",
];

/// Whether `name` is a built-in function or a word the language keeps.
pub(crate) fn reserved(name: &str) -> bool {
    BUILTINS.contains(&name.to_ascii_lowercase().as_str())
}

/// Parses `name(a, b) = body`; the body may call only helpers defined before it
/// (so no helper is recursive) and use its arguments and the parameters.
pub(crate) fn parse_helper(
    src: &str,
    params: &BTreeMap<String, i128>,
    helpers: &BTreeMap<String, Helper>,
) -> Result<(String, Helper), Problem> {
    let (head, body) = src.split_once('=').ok_or_else(|| {
        format!(
            "'{}' is not a definition; write it as name(a, b) = expression",
            quoted(src)
        )
    })?;
    let not_a_head = || {
        format!(
            "'{}' is not a function head; write it as name(a, b) = expression",
            quoted(head)
        )
    };
    let plain_names = || {
        format!(
            "the arguments of '{}' must be plain names, e.g. res(x) = 2*floor(x/2) + 1",
            quoted(head)
        )
    };
    // The head is a name, '(', names separated by commas, ')': read as tokens.
    let toks: Vec<Tok> = lex(head)?.into_iter().map(|(t, _)| t).collect();
    let (name, inner) = match toks.as_slice() {
        [Tok::Ident(name), Tok::Sym("("), inner @ .., Tok::Sym(")")] => (name.clone(), inner),
        _ => return Err(not_a_head()),
    };
    let mut args = Vec::new();
    for (i, tok) in inner.iter().enumerate() {
        match tok {
            Tok::Ident(a) if i % 2 == 0 => args.push(a.clone()),
            Tok::Sym(",") if i % 2 == 1 && i + 1 < inner.len() => {}
            _ => return Err(plain_names()),
        }
    }
    if reserved(&name) || params.contains_key(&name) || helpers.contains_key(&name) {
        return Err(format!(
            "the function name '{}' is taken (a built-in, a parameter or an earlier function)",
            crate::error::excerpt(&name)
        ));
    }
    let steps = Parser::whole(body)?;
    // Compiled now, so a mistake is reported at its definition.
    let code = resolve(
        &steps,
        &Scope {
            vars: &args,
            params,
            helpers,
        },
    )?;
    Ok((
        name,
        Helper {
            args: args.len(),
            code,
        },
    ))
}

/// The most instructions an expression may have once its helper functions are
/// written out: helpers that call each other twice over would otherwise grow
/// without bound, and every position evaluates all of them.
const MAX_NODES: usize = 100_000;

fn too_large() -> Problem {
    format!(
        "the expression is too large once its functions are written out (over {MAX_NODES} terms)"
    )
}

/// Resolves names and writes out helper calls: postfix steps in, postfix
/// instructions out, in one loop. `starts` holds, for each value the program has
/// on its stack at this point, where the instructions computing it begin, so a
/// helper's arguments are the slices between them.
fn resolve(steps: &[Step], scope: &Scope) -> Result<Vec<Op>, Problem> {
    let mut code: Vec<Op> = Vec::with_capacity(steps.len());
    let mut starts: Vec<usize> = Vec::new();
    for step in steps {
        match step {
            Step::Num(n) => {
                starts.push(code.len());
                code.push(Op::Const(Rational::int(*n)));
            }
            Step::Name(name) => {
                starts.push(code.len());
                code.push(if let Some(i) = scope.vars.iter().position(|v| v == name) {
                    Op::Var(i)
                } else if let Some(&v) = scope.params.get(name) {
                    Op::Const(Rational::int(v))
                } else {
                    let mut known: Vec<&str> = scope.vars.iter().map(String::as_str).collect();
                    known.extend(scope.params.keys().map(String::as_str));
                    return Err(format!(
                        "unknown name '{}'; here you may use {}",
                        crate::error::excerpt(name),
                        if known.is_empty() {
                            "numbers only".to_string()
                        } else {
                            known.join(", ")
                        }
                    ));
                });
            }
            Step::Neg => code.push(Op::Neg),
            Step::Bin(op) => {
                // The left operand's start is the result's start.
                starts.pop();
                code.push(match *op {
                    "+" => Op::Add,
                    "-" => Op::Sub,
                    "*" => Op::Mul,
                    "/" => Op::Div,
                    _ => Op::Pow,
                });
            }
            Step::Call(name, n) => {
                let n = *n;
                let first = starts.len() - n;
                let begin = starts.get(first).copied().unwrap_or(code.len());
                if let Some(h) = scope.helpers.get(name) {
                    if h.args != n {
                        return Err(format!(
                            "'{}' takes {} argument(s), given {n}",
                            crate::error::excerpt(name),
                            h.args
                        ));
                    }
                    let mut bounds = starts.split_off(first);
                    bounds.push(code.len());
                    let args: Vec<Vec<Op>> = bounds
                        .windows(2)
                        .map(|w| code[w[0]..w[1]].to_vec())
                        .collect();
                    let written: usize = h
                        .code
                        .iter()
                        .map(|op| match op {
                            Op::Var(i) => args[*i].len(),
                            _ => 1,
                        })
                        .sum();
                    if begin + written > MAX_NODES {
                        return Err(too_large());
                    }
                    code.truncate(begin);
                    for op in &h.code {
                        match op {
                            Op::Var(i) => code.extend_from_slice(&args[*i]),
                            op => code.push(op.clone()),
                        }
                    }
                    starts.push(begin);
                    continue;
                }
                let lower = name.to_ascii_lowercase();
                let arity = |want: usize| -> Result<(), Problem> {
                    if n == want {
                        Ok(())
                    } else {
                        Err(format!("{lower} takes {want} argument(s), given {n}"))
                    }
                };
                let op = match lower.as_str() {
                    "floor" => arity(1).map(|_| Op::Floor)?,
                    "ceil" => arity(1).map(|_| Op::Ceil)?,
                    "round" => arity(1).map(|_| Op::Round)?,
                    "isqrt" => arity(1).map(|_| Op::Isqrt)?,
                    "abs" => arity(1).map(|_| Op::Abs)?,
                    "mod" => arity(2).map(|_| Op::Mod)?,
                    "min" if n >= 2 => Op::Min(n),
                    "max" if n >= 2 => Op::Max(n),
                    "min" | "max" => return Err(format!("{lower} takes two or more arguments")),
                    _ => {
                        return Err(format!(
                            "unknown function '{}'; built in: {}; or define it under 'functions'",
                            crate::error::excerpt(name),
                            BUILTINS.join(", ")
                        ))
                    }
                };
                starts.truncate(first);
                starts.push(begin);
                code.push(op);
            }
        }
        if code.len() > MAX_NODES {
            return Err(too_large());
        }
    }
    Ok(code)
}

/// The stack a postfix program needs: the most values it holds at once.
fn stack_depth(code: &[Op]) -> usize {
    let (mut held, mut most) = (0usize, 0usize);
    for op in code {
        match op {
            Op::Const(_) | Op::Var(_) => held += 1,
            Op::Neg | Op::Floor | Op::Ceil | Op::Round | Op::Isqrt | Op::Abs => {}
            Op::Min(n) | Op::Max(n) => held -= n - 1,
            _ => held -= 1,
        }
        most = most.max(held);
    }
    most
}

fn compile_steps(steps: &[Step], scope: &Scope, src: &str) -> Result<Expr, Problem> {
    let mut code = resolve(steps, scope)?;
    // floor(a / b), fused: whole numbers divide without building a fraction. The
    // instruction before a `floor` computes its argument, so a `/` there is `a / b`.
    let mut fused = Vec::with_capacity(code.len());
    for op in code.drain(..) {
        match (fused.last(), &op) {
            (Some(Op::Div), Op::Floor) => *fused.last_mut().expect("a last") = Op::FloorDiv,
            _ => fused.push(op),
        }
    }
    let code = fused;
    let depth = stack_depth(&code);
    if depth > STACK {
        return Err(format!(
            "'{}' holds {depth} values at once while it is evaluated, at most {STACK}: give min and max fewer arguments each, or nest fewer brackets",
            quoted(src)
        ));
    }
    let whole = whole_program(&code);
    Ok(Expr { code, whole, depth })
}

/// Compiles one expression (the tests; files use tuples and conditions).
#[cfg(test)]
pub(crate) fn compile(src: &str, scope: &Scope) -> Result<Expr, Problem> {
    compile_steps(&Parser::whole(src)?, scope, src)
}

/// Compiles a tuple `(e1, e2, ...)` of exactly `len` expressions.
pub(crate) fn compile_tuple(src: &str, len: usize, scope: &Scope) -> Result<Vec<Expr>, Problem> {
    let mut p = Parser::new(src)?;
    if !p.eat("(") {
        return Err(format!(
            "'{}' is not a tuple; write ({len} expressions separated by commas)",
            quoted(src)
        ));
    }
    let mut bounds = p.list(")")?;
    p.done()?;
    if bounds.len() != len {
        return Err(format!(
            "'{}' has {} entries; the game has {len} heaps, one entry each",
            quoted(src),
            bounds.len()
        ));
    }
    bounds.push(p.out.len());
    bounds
        .windows(2)
        .map(|w| compile_steps(&p.out[w[0]..w[1]], scope, src))
        .collect()
}

/// One comparison of a chain `a <= b < c`.
#[derive(Clone, Debug)]
pub(crate) struct Comparison {
    left: Expr,
    op: &'static str,
    right: Expr,
}

impl Comparison {
    fn holds(&self, vars: &[i128]) -> Result<bool, Fault> {
        use std::cmp::Ordering::*;
        let ord = match (self.left.eval_whole(vars), self.right.eval_whole(vars)) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => compare(self.left.eval(vars)?, self.right.eval(vars)?)?,
        };
        Ok(match self.op {
            "<" => ord == Less,
            "<=" => ord != Greater,
            ">" => ord == Greater,
            ">=" => ord != Less,
            "==" => ord == Equal,
            _ => ord != Equal,
        })
    }
}

/// A condition: a chain of comparisons, all of which must hold.
#[derive(Clone, Debug)]
pub(crate) struct Condition {
    parts: Vec<Comparison>,
}

impl Condition {
    /// Whether every comparison of the chain holds.
    pub(crate) fn holds(&self, vars: &[i128]) -> Result<bool, Fault> {
        for c in &self.parts {
            if !c.holds(vars)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

impl Condition {
    /// The condition in the prover's logic (see [`Expr::to_linear`]).
    pub(crate) fn to_formula(&self, vars: &[Linear]) -> Result<Formula, String> {
        let mut parts = Vec::with_capacity(self.parts.len());
        for c in &self.parts {
            let op = match c.op {
                "<" => CmpOp::Lt,
                "<=" => CmpOp::Le,
                ">" => CmpOp::Gt,
                ">=" => CmpOp::Ge,
                "==" => CmpOp::Eq,
                _ => CmpOp::Ne,
            };
            let (left, right) = (c.left.to_linear(vars)?, c.right.to_linear(vars)?);
            parts.push(left.compare(op, right)?);
        }
        Ok(Formula::and(parts))
    }
}

/// Compiles `a >= b >= c` (any of `< <= > >= == !=`, chained).
pub(crate) fn compile_condition(src: &str, scope: &Scope) -> Result<Condition, Problem> {
    let mut p = Parser::new(src)?;
    let mut bounds = vec![0];
    p.expr()?;
    let mut ops = Vec::new();
    while let Some(Tok::Sym(s)) = p.peek().cloned() {
        if !matches!(s, "<" | "<=" | ">" | ">=" | "==" | "!=") {
            break;
        }
        p.at += 1;
        ops.push(s);
        bounds.push(p.out.len());
        p.expr()?;
    }
    if p.eat("=") {
        return Err(format!(
            "'{}' uses '='; compare with ==, <=, >=, <, > or !=",
            quoted(src)
        ));
    }
    p.done()?;
    if ops.is_empty() {
        return Err(format!(
            "'{}' compares nothing; write an inequality such as y <= res(x)",
            quoted(src)
        ));
    }
    bounds.push(p.out.len());
    let compiled = bounds
        .windows(2)
        .map(|w| compile_steps(&p.out[w[0]..w[1]], scope, src))
        .collect::<Result<Vec<_>, _>>()?;
    let parts = ops
        .iter()
        .enumerate()
        .map(|(i, op)| Comparison {
            left: compiled[i].clone(),
            op,
            right: compiled[i + 1].clone(),
        })
        .collect();
    Ok(Condition { parts })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        compile(src, &scope)?
            .eval(values)
            .map_err(|f| f.to_string())
    }

    #[test]
    fn evaluates_exactly_with_helpers_and_parameters() {
        let v = |s: &str, x: i128, y: i128| scope_eval(s, &["x", "y"], &[x, y]).unwrap();
        assert_eq!(v("res(x)", 4, 0), Rational::int(5));
        assert_eq!(v("res(y) + k", 0, 7), Rational::int(10));
        assert_eq!(v("twice(x+1)", 4, 0), Rational::int(10));
        assert_eq!(v("x/2 + y/2", 1, 1), Rational::int(1));
        assert_eq!(v("floor(x/2) + floor(y/2)", 1, 1), Rational::int(0));
        assert_eq!(v("2^3^2", 0, 0), Rational::int(512));
        assert_eq!(v("-x^2", 3, 0), Rational::int(-9));
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
            "(x - y)^3 - floor((x + y)^2/5)",
            "x^(y - 3)",
            "isqrt(x - y)",
            "mod(x, y - 2)",
            "floor(x/(y - 2))",
            "3037000500 * 3037000500 * x",
        ];
        let mut whole = 0;
        for src in sources {
            let e = compile(src, &scope).unwrap();
            assert!(e.whole.is_some(), "{src}");
            for x in -6..=6 {
                for y in -6..=6 {
                    let exact = e.eval(&[x, y]).map(|q| q.floor());
                    match e.eval_whole(&[x, y]) {
                        Some(v) => {
                            whole += 1;
                            assert_eq!(Ok(i128::from(v)), exact, "{src} at {x}, {y}");
                        }
                        // Only overflow, faults and negative powers leave the fast path.
                        None => assert!(
                            exact.is_err() || src.contains('^') || src.contains("3037000500"),
                            "{src} at {x}, {y}"
                        ),
                    }
                    assert_eq!(e.eval_int(&[x, y]), exact, "{src} at {x}, {y}");
                }
            }
        }
        assert!(whole > 1000);
        assert!(compile("x/2", &scope).unwrap().whole.is_none());
    }

    #[test]
    fn faults_and_problems_are_reported() {
        let e = |s: &str| scope_eval(s, &["x"], &[0]).unwrap_err();
        assert!(e("1/x").contains("division by zero"));
        assert!(e("floor(1/x)").contains("division by zero"));
        assert!(e("2^200").contains("overflow"));
        assert!(e("isqrt(x - 1)").contains("isqrt"));
        assert!(e("2^(1/2)").contains("fractional exponent"));
        assert!(e("w + 1").contains("unknown name 'w'"), "{}", e("w + 1"));
        assert!(e("foo(x)").contains("unknown function 'foo'"));
        assert!(e("res(x, x)").contains("takes 1 argument"));
        assert!(e("(x + 1").contains("expected ')'"));
        assert!(e("x $ 1").contains("unexpected character '$'"));
        // Nesting without parentheses, and helpers that double at every level, are
        // refused when compiled rather than overflowing a stack or memory.
        assert!(e(&format!("{}x", "-".repeat(100_000))).contains("nested too deeply"));
        assert!(e(&format!("x{}", "^2".repeat(100_000))).contains("nested too deeply"));
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
        assert!(err.contains("before ')' at character 60002"), "{err}");
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
