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

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(i128),
    Ident(String),
    Sym(&'static str),
}

fn lex(src: &str) -> Result<Vec<Tok>, Problem> {
    const SYMS: [&str; 16] = [
        "**", "<=", ">=", "==", "!=", "+", "-", "*", "/", "^", "(", ")", ",", "<", ">", "=",
    ];
    let mut out = Vec::new();
    let b = src.as_bytes();
    let mut i = 0;
    'outer: while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
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
                .map_err(|_| format!("the number {} is too large", &src[start..i]))?;
            out.push(Tok::Num(n));
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(src[start..i].to_string()));
            continue;
        }
        for s in SYMS {
            if src[i..].starts_with(s) {
                out.push(Tok::Sym(if s == "**" { "^" } else { s }));
                i += s.len();
                continue 'outer;
            }
        }
        return Err(format!(
            "unexpected character '{}' in '{src}' (allowed: numbers, names, + - * / ^ ( ) , and comparisons)",
            &src[i..].chars().next().unwrap_or(' ')
        ));
    }
    Ok(out)
}

/// The parse tree, before names are resolved.
#[derive(Clone, Debug)]
enum Node {
    Num(i128),
    Name(String),
    Neg(Box<Node>),
    Bin(&'static str, Box<Node>, Box<Node>),
    Call(String, Vec<Node>),
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
    src: String,
    depth: usize,
}

impl Parser {
    fn new(src: &str) -> Result<Parser, Problem> {
        Ok(Parser {
            toks: lex(src)?,
            at: 0,
            src: src.to_string(),
            depth: 0,
        })
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
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
                self.src
            ))
        }
    }

    fn where_(&self) -> String {
        match self.peek() {
            None => "at the end".into(),
            Some(Tok::Num(n)) => format!("before '{n}'"),
            Some(Tok::Ident(s)) => format!("before '{s}'"),
            Some(Tok::Sym(s)) => format!("before '{s}'"),
        }
    }

    fn done(&self) -> Result<(), Problem> {
        if self.at == self.toks.len() {
            Ok(())
        } else {
            Err(format!(
                "unexpected text {} in '{}'",
                self.where_(),
                self.src
            ))
        }
    }

    fn expr(&mut self) -> Result<Node, Problem> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(format!("'{}' is nested too deeply", self.src));
        }
        let mut left = self.term()?;
        loop {
            let op = if self.eat("+") {
                "+"
            } else if self.eat("-") {
                "-"
            } else {
                break;
            };
            let right = self.term()?;
            left = Node::Bin(op, Box::new(left), Box::new(right));
        }
        self.depth -= 1;
        Ok(left)
    }

    fn term(&mut self) -> Result<Node, Problem> {
        let mut left = self.unary()?;
        loop {
            let op = if self.eat("*") {
                "*"
            } else if self.eat("/") {
                "/"
            } else {
                break;
            };
            let right = self.unary()?;
            left = Node::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Node, Problem> {
        // Signs and exponents nest without parentheses: counted like them.
        self.depth += 1;
        if self.depth > 64 {
            return Err(format!("'{}' is nested too deeply", self.src));
        }
        let node = if self.eat("-") {
            Node::Neg(Box::new(self.unary()?))
        } else if self.eat("+") {
            self.unary()?
        } else {
            self.power()?
        };
        self.depth -= 1;
        Ok(node)
    }

    fn power(&mut self) -> Result<Node, Problem> {
        let base = self.atom()?;
        if self.eat("^") {
            // Right-associative, and -x^2 is -(x^2) as in Mathematica.
            let exp = self.unary()?;
            return Ok(Node::Bin("^", Box::new(base), Box::new(exp)));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<Node, Problem> {
        match self.peek().cloned() {
            Some(Tok::Num(n)) => {
                self.at += 1;
                Ok(Node::Num(n))
            }
            Some(Tok::Ident(name)) => {
                self.at += 1;
                if self.eat("(") {
                    let args = self.list(")")?;
                    Ok(Node::Call(name, args))
                } else {
                    Ok(Node::Name(name))
                }
            }
            Some(Tok::Sym("(")) => {
                self.at += 1;
                let inner = self.expr()?;
                self.expect(")")?;
                Ok(inner)
            }
            _ => Err(format!(
                "expected a number, a name or '(' {} in '{}'",
                self.where_(),
                self.src
            )),
        }
    }

    /// Comma-separated expressions up to `close` (already past the opening one).
    fn list(&mut self, close: &str) -> Result<Vec<Node>, Problem> {
        let mut items = Vec::new();
        if self.eat(close) {
            return Ok(items);
        }
        loop {
            items.push(self.expr()?);
            if self.eat(close) {
                return Ok(items);
            }
            self.expect(",")?;
        }
    }
}

/// A helper function `name(a, b) = body`, kept as a tree and inlined at each call.
#[derive(Clone, Debug)]
pub(crate) struct Helper {
    args: Vec<String>,
    body: Node,
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
        format!("'{src}' is not a definition; write it as name(a, b) = expression")
    })?;
    let mut p = Parser::new(head)?;
    let (name, args) = match p.atom()? {
        Node::Call(name, args) => {
            let args = args
                .into_iter()
                .map(|a| match a {
                    Node::Name(n) => Ok(n),
                    _ => Err(format!(
                        "the arguments of '{}' must be plain names, e.g. res(x) = 2*floor(x/2) + 1",
                        head.trim()
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?;
            (name, args)
        }
        _ => {
            return Err(format!(
                "'{}' is not a function head; write it as name(a, b) = expression",
                head.trim()
            ))
        }
    };
    p.done()?;
    if reserved(&name) || params.contains_key(&name) || helpers.contains_key(&name) {
        return Err(format!(
            "the function name '{name}' is taken (a built-in, a parameter or an earlier function)"
        ));
    }
    let mut p = Parser::new(body)?;
    let body = p.expr()?;
    p.done()?;
    // Check the body's names now, so a mistake is reported at its definition.
    let vars: Vec<String> = args.clone();
    resolve(
        &body,
        &Scope {
            vars: &vars,
            params,
            helpers,
        },
        &BTreeMap::new(),
        0,
        &mut { MAX_NODES },
    )?;
    Ok((name, Helper { args, body }))
}

/// A resolved tree: every name is a variable slot or a constant.
enum Res {
    Const(Rational),
    Var(usize),
    Neg(Box<Res>),
    Bin(&'static str, Box<Res>, Box<Res>),
    Call(Op, Vec<Res>),
}

/// The most nodes an expression may have once its helper functions are written
/// out: helpers that call each other twice over would otherwise grow without bound.
const MAX_NODES: usize = 100_000;

fn size(r: &Res) -> usize {
    match r {
        Res::Const(_) | Res::Var(_) => 1,
        Res::Neg(a) => 1 + size(a),
        Res::Bin(_, a, b) => 1 + size(a) + size(b),
        Res::Call(_, args) => 1 + args.iter().map(size).sum::<usize>(),
    }
}

fn spend(budget: &mut usize, nodes: usize) -> Result<(), Problem> {
    *budget = budget.checked_sub(nodes).ok_or_else(|| {
        format!("the expression is too large once its functions are written out (over {MAX_NODES} terms)")
    })?;
    Ok(())
}

fn resolve(
    node: &Node,
    scope: &Scope,
    locals: &BTreeMap<String, Res>,
    inlined: usize,
    budget: &mut usize,
) -> Result<Res, Problem> {
    if inlined > 64 {
        return Err("helper functions call each other more than 64 deep".into());
    }
    spend(budget, 1)?;
    Ok(match node {
        Node::Num(n) => Res::Const(Rational::int(*n)),
        Node::Name(name) => {
            if let Some(local) = locals.get(name) {
                spend(budget, size(local))?;
                clone_res(local)
            } else if let Some(i) = scope.vars.iter().position(|v| v == name) {
                Res::Var(i)
            } else if let Some(&v) = scope.params.get(name) {
                Res::Const(Rational::int(v))
            } else {
                let mut known: Vec<&str> = scope.vars.iter().map(String::as_str).collect();
                known.extend(scope.params.keys().map(String::as_str));
                known.extend(locals.keys().map(String::as_str));
                return Err(format!(
                    "unknown name '{name}'; here you may use {}",
                    if known.is_empty() {
                        "numbers only".to_string()
                    } else {
                        known.join(", ")
                    }
                ));
            }
        }
        Node::Neg(a) => Res::Neg(Box::new(resolve(a, scope, locals, inlined, budget)?)),
        Node::Bin(op, a, b) => Res::Bin(
            op,
            Box::new(resolve(a, scope, locals, inlined, budget)?),
            Box::new(resolve(b, scope, locals, inlined, budget)?),
        ),
        Node::Call(name, args) => {
            let args = args
                .iter()
                .map(|a| resolve(a, scope, locals, inlined, budget))
                .collect::<Result<Vec<_>, _>>()?;
            if let Some(h) = scope.helpers.get(name) {
                if h.args.len() != args.len() {
                    return Err(format!(
                        "'{name}' takes {} argument(s), given {}",
                        h.args.len(),
                        args.len()
                    ));
                }
                let inner: BTreeMap<String, Res> = h.args.iter().cloned().zip(args).collect();
                // A helper sees its arguments and the parameters, not the heaps.
                let body_scope = Scope {
                    vars: &[],
                    params: scope.params,
                    helpers: scope.helpers,
                };
                return resolve(&h.body, &body_scope, &inner, inlined + 1, budget);
            }
            let lower = name.to_ascii_lowercase();
            let arity = |n: usize| -> Result<(), Problem> {
                if args.len() == n {
                    Ok(())
                } else {
                    Err(format!(
                        "{lower} takes {n} argument(s), given {}",
                        args.len()
                    ))
                }
            };
            let op = match lower.as_str() {
                "floor" => arity(1).map(|_| Op::Floor)?,
                "ceil" => arity(1).map(|_| Op::Ceil)?,
                "round" => arity(1).map(|_| Op::Round)?,
                "isqrt" => arity(1).map(|_| Op::Isqrt)?,
                "abs" => arity(1).map(|_| Op::Abs)?,
                "mod" => arity(2).map(|_| Op::Mod)?,
                "min" | "max" if args.len() >= 2 => {
                    if lower == "min" {
                        Op::Min(args.len())
                    } else {
                        Op::Max(args.len())
                    }
                }
                "min" | "max" => return Err(format!("{lower} takes two or more arguments")),
                _ => {
                    return Err(format!(
                        "unknown function '{name}'; built in: {}; or define it under 'functions'",
                        BUILTINS.join(", ")
                    ))
                }
            };
            Res::Call(op, args)
        }
    })
}

fn clone_res(r: &Res) -> Res {
    match r {
        Res::Const(q) => Res::Const(*q),
        Res::Var(i) => Res::Var(*i),
        Res::Neg(a) => Res::Neg(Box::new(clone_res(a))),
        Res::Bin(op, a, b) => Res::Bin(op, Box::new(clone_res(a)), Box::new(clone_res(b))),
        Res::Call(op, args) => Res::Call(op.clone(), args.iter().map(clone_res).collect()),
    }
}

/// Postfix code of `r`; returns the stack depth it needs.
fn emit(r: &Res, code: &mut Vec<Op>) -> usize {
    match r {
        Res::Const(q) => {
            code.push(Op::Const(*q));
            1
        }
        Res::Var(i) => {
            code.push(Op::Var(*i));
            1
        }
        Res::Neg(a) => {
            let d = emit(a, code);
            code.push(Op::Neg);
            d
        }
        Res::Bin(op, a, b) => {
            let da = emit(a, code);
            let db = emit(b, code);
            code.push(match *op {
                "+" => Op::Add,
                "-" => Op::Sub,
                "*" => Op::Mul,
                "/" => Op::Div,
                _ => Op::Pow,
            });
            da.max(db + 1)
        }
        Res::Call(op, args) => {
            if let (Op::Floor, [Res::Bin("/", a, b)]) = (op, args.as_slice()) {
                let da = emit(a, code);
                let db = emit(b, code);
                code.push(Op::FloorDiv);
                return da.max(db + 1);
            }
            let mut depth = 0;
            for (i, a) in args.iter().enumerate() {
                depth = depth.max(emit(a, code) + i);
            }
            code.push(op.clone());
            depth
        }
    }
}

fn compile_node(node: &Node, scope: &Scope, src: &str) -> Result<Expr, Problem> {
    let mut budget = MAX_NODES;
    let res = resolve(node, scope, &BTreeMap::new(), 0, &mut budget)?;
    let mut code = Vec::new();
    let depth = emit(&res, &mut code);
    if depth > STACK || code.len() > 100_000 {
        return Err(format!(
            "'{src}' is too large once its functions are written out (stack {depth}, at most {STACK})"
        ));
    }
    let whole = whole_program(&code);
    Ok(Expr { code, whole, depth })
}

/// Compiles one expression (the tests; files use tuples and conditions).
#[cfg(test)]
pub(crate) fn compile(src: &str, scope: &Scope) -> Result<Expr, Problem> {
    let mut p = Parser::new(src)?;
    let node = p.expr()?;
    p.done()?;
    compile_node(&node, scope, src)
}

/// Compiles a tuple `(e1, e2, ...)` of exactly `len` expressions.
pub(crate) fn compile_tuple(src: &str, len: usize, scope: &Scope) -> Result<Vec<Expr>, Problem> {
    let mut p = Parser::new(src)?;
    if !p.eat("(") {
        return Err(format!(
            "'{src}' is not a tuple; write ({len} expressions separated by commas)"
        ));
    }
    let items = p.list(")")?;
    p.done()?;
    if items.len() != len {
        return Err(format!(
            "'{src}' has {} entries; the game has {len} heaps, one entry each",
            items.len()
        ));
    }
    items.iter().map(|n| compile_node(n, scope, src)).collect()
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

/// Compiles `a >= b >= c` (any of `< <= > >= == !=`, chained).
pub(crate) fn compile_condition(src: &str, scope: &Scope) -> Result<Condition, Problem> {
    let mut p = Parser::new(src)?;
    let mut exprs = vec![p.expr()?];
    let mut ops = Vec::new();
    while let Some(Tok::Sym(s)) = p.peek().cloned() {
        if !matches!(s, "<" | "<=" | ">" | ">=" | "==" | "!=") {
            break;
        }
        p.at += 1;
        ops.push(s);
        exprs.push(p.expr()?);
    }
    if p.eat("=") {
        return Err(format!(
            "'{src}' uses '='; compare with ==, <=, >=, <, > or !="
        ));
    }
    p.done()?;
    if ops.is_empty() {
        return Err(format!(
            "'{src}' compares nothing; write an inequality such as y <= res(x)"
        ));
    }
    let compiled = exprs
        .iter()
        .map(|n| compile_node(n, scope, src))
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
