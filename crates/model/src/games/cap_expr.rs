//! The cap expression language: a user-defined cap `y <= cap(x, z)`.
//!
//! An expression over `x` and `z` with integer (or decimal) literals,
//! `+ - * /`, `^` or `**` (power, right-associative, integer exponents),
//! unary minus, `floor`, `ceil`, `round` (half to even), `sqrt`, `min`, `max`
//! (two or more arguments) and parentheses. Names are case-insensitive, so a
//! Mathematica-style `Floor(...)` reads the same.
//!
//! **The number domain is exact rationals**, as in the Mathematica programs of
//! the papers: `/` divides exactly and never rounds on its own, and the cap
//! is the floor of the expression's value (because `y <= e` is the same as
//! `y <= floor(e)` for an integer `y`). So `(x+z)/3` and `floor((x+z)/3)`
//! are the same cap, `floor(min(x,z)/2)` and `floor((x+z)^2/5)` mean exactly
//! what the papers write, and `x/2 + z/2` is `floor((x+z)/2)`, not
//! `floor(x/2) + floor(z/2)` (write the latter if you mean it).
//!
//! `sqrt` is kept exact too: its value may be irrational, so it may only be
//! rounded — stand directly inside `floor`, `ceil` or `round`, be the whole
//! expression, or be an argument of `min` / `max` in such a place — and every
//! comparison and rounding of a square root is done in integers.
//! `round(sqrt(x+z))` is therefore exact for any box. Any other use of `sqrt`
//! is refused when the expression is parsed.
//!
//! **Named parameters.** [`CapExpr::parse_with`] binds names such as `k` to
//! integers when the text is parsed (`floor((x+z)^2/k)` with `k = 5`), so one
//! text describes a whole family of caps and a survey parses it once per value.
//! A bound name is a constant; any other name is still an error.
//!
//! The text is parsed once into postfix code and evaluated with a small
//! stack; intermediate values are `i128` fractions, and an overflow, a
//! division by zero or a negative cap is an error naming the position.

use crate::exact::{isqrt, ArithError, Rational};
use crate::{Error, Result};

/// The exact rationals of the number domain (checked `i128` fractions).
pub(crate) type Q = Rational;

/// Why an evaluation failed; turned into a message naming the position.
#[derive(Debug, Clone, PartialEq)]
enum EvalFault {
    Overflow,
    DivisionByZero,
    NegativeSqrt(String),
    NonIntegerExponent(String),
}

impl From<ArithError> for EvalFault {
    fn from(e: ArithError) -> EvalFault {
        match e {
            ArithError::Overflow => EvalFault::Overflow,
            ArithError::DivisionByZero => EvalFault::DivisionByZero,
        }
    }
}

/// `base ^ e` for an exponent that must be a whole number.
fn pow(base: Q, e: Q) -> Result<Q, EvalFault> {
    if !e.is_integer() {
        return Err(EvalFault::NonIntegerExponent(e.to_string()));
    }
    Ok(base.checked_pow(e.numer())?)
}

/// A value on the evaluation stack: a rational, or the square root of a
/// non-negative rational (possibly irrational), kept symbolic so that it
/// can be compared and rounded exactly.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Value {
    Exact(Q),
    Sqrt(Q),
}

impl Value {
    fn exact(self) -> Q {
        match self {
            Value::Exact(q) => q,
            // The parser only lets a square root reach floor/ceil/round/min/max.
            Value::Sqrt(_) => unreachable!("sqrt used outside a rounding context"),
        }
    }

    fn floor(self) -> i128 {
        match self {
            Value::Exact(q) => q.floor(),
            // floor(sqrt(q)) = isqrt(floor(q)) for q >= 0.
            Value::Sqrt(q) => isqrt(q.floor() as u128) as i128,
        }
    }

    fn ceil(self) -> i128 {
        match self {
            Value::Exact(q) => q.ceil(),
            Value::Sqrt(q) => {
                let f = isqrt(q.floor() as u128) as i128;
                if q.is_integer() && f * f == q.numer() {
                    f
                } else {
                    f + 1
                }
            }
        }
    }

    fn round(self) -> Result<i128, EvalFault> {
        match self {
            Value::Exact(q) => Ok(q.round()),
            Value::Sqrt(q) => {
                // sqrt(q) lies in [f, f+1); compare it with f + 1/2 by
                // comparing 4q with (2f+1)^2.
                let f = isqrt(q.floor() as u128) as i128;
                let four_q_num = q.numer().checked_mul(4).ok_or(EvalFault::Overflow)?;
                let odd = 2 * f + 1;
                let rhs = odd
                    .checked_mul(odd)
                    .and_then(|s| s.checked_mul(q.denom()))
                    .ok_or(EvalFault::Overflow)?;
                Ok(match four_q_num.cmp(&rhs) {
                    std::cmp::Ordering::Less => f,
                    std::cmp::Ordering::Greater => f + 1,
                    std::cmp::Ordering::Equal => {
                        if f % 2 == 0 {
                            f
                        } else {
                            f + 1
                        }
                    }
                })
            }
        }
    }

    /// Exact comparison, square roots included.
    fn cmp(self, other: Value) -> Result<std::cmp::Ordering, EvalFault> {
        use std::cmp::Ordering;
        fn cmp_q(a: Q, b: Q) -> Result<Ordering, EvalFault> {
            Ok(a.checked_cmp(b)?)
        }
        // sqrt(a) against an exact b: a negative b is smaller; else compare a with b^2.
        fn cmp_sqrt_q(a: Q, b: Q) -> Result<Ordering, EvalFault> {
            if b.numer() < 0 {
                return Ok(Ordering::Greater);
            }
            cmp_q(a, b.checked_mul(b)?)
        }
        match (self, other) {
            (Value::Exact(a), Value::Exact(b)) => cmp_q(a, b),
            (Value::Sqrt(a), Value::Sqrt(b)) => cmp_q(a, b),
            (Value::Sqrt(a), Value::Exact(b)) => cmp_sqrt_q(a, b),
            (Value::Exact(a), Value::Sqrt(b)) => Ok(cmp_sqrt_q(b, a)?.reverse()),
        }
    }
}

/// One instruction of the compiled (postfix) expression.
#[derive(Clone, Debug)]
enum Op {
    Const(Q),
    X,
    Z,
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Neg,
    Floor,
    Ceil,
    Round,
    Sqrt,
    Min(usize),
    Max(usize),
}

/// A parsed cap expression, ready to evaluate at any `(x, z)`.
#[derive(Clone, Debug)]
pub struct CapExpr {
    source: String,
    /// The named parameters bound when parsing, as `k=5`, in the order given.
    bindings: Vec<(String, i64)>,
    code: Vec<Op>,
    depth: usize,
}

/// Names a parameter may not take: the coordinates and the functions.
const RESERVED: [&str; 10] = [
    "x", "y", "z", "floor", "ceil", "ceiling", "round", "sqrt", "min", "max",
];

/// The expression tree, only used between parsing and compiling.
enum Node {
    Num(Q),
    X,
    Z,
    Unary(Op, Box<Node>),
    Binary(Op, Box<Node>, Box<Node>),
    Call(Op, Vec<Node>),
    /// A square root and the column of its name, for the exactness check.
    Sqrt(Box<Node>, usize),
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(Q),
    Ident(String),
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    LParen,
    RParen,
    Comma,
    End,
}

impl Tok {
    fn describe(&self, text: &str) -> String {
        match self {
            Tok::End => "end of expression".to_string(),
            _ => format!("'{text}'"),
        }
    }
}

struct Lexer {
    /// Tokens with their 1-based column and source text.
    toks: Vec<(Tok, usize, String)>,
}

fn syntax(message: impl std::fmt::Display) -> Error {
    Error::invalid(format!("cap expression: {message}"))
}

impl Lexer {
    fn run(src: &str) -> Result<Lexer> {
        let chars: Vec<char> = src.chars().collect();
        let mut toks = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let col = i + 1;
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            if c.is_ascii_digit()
                || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
            {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let mut frac = String::new();
                if i < chars.len() && chars[i] == '.' {
                    i += 1;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        frac.push(chars[i]);
                        i += 1;
                    }
                }
                let text: String = chars[start..i].iter().collect();
                let whole: String = text.split('.').next().unwrap_or("").to_string();
                let digits = format!("{whole}{frac}");
                let too_long = || syntax(format!("number '{text}' at column {col} is too long"));
                let num: i128 = if digits.is_empty() {
                    0
                } else {
                    digits.parse().map_err(|_| too_long())?
                };
                let den = 10i128.checked_pow(frac.len() as u32).ok_or_else(too_long)?;
                let q = Q::new(num, den).map_err(|_| too_long())?;
                toks.push((Tok::Num(q), col, text));
                continue;
            }
            if c.is_ascii_alphabetic() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let text: String = chars[start..i].iter().collect();
                toks.push((Tok::Ident(text.to_ascii_lowercase()), col, text));
                continue;
            }
            let (tok, len) = match c {
                '+' => (Tok::Plus, 1),
                '-' => (Tok::Minus, 1),
                '*' if chars.get(i + 1) == Some(&'*') => (Tok::Caret, 2),
                '*' => (Tok::Star, 1),
                '/' => (Tok::Slash, 1),
                '^' => (Tok::Caret, 1),
                '(' => (Tok::LParen, 1),
                ')' => (Tok::RParen, 1),
                ',' => (Tok::Comma, 1),
                _ => {
                    return Err(syntax(format!(
                        "unexpected '{}' at column {col}",
                        c.escape_debug()
                    )))
                }
            };
            toks.push((tok, col, chars[i..i + len].iter().collect()));
            i += len;
        }
        toks.push((Tok::End, chars.len() + 1, String::new()));
        Ok(Lexer { toks })
    }
}

/// The deepest nesting of parentheses, calls, signs and powers an expression may have.
/// The parser and compiler recurse once per level; without a bound, 6,000 parentheses
/// overflowed the stack.
pub const MAX_NESTING: usize = 64;

/// The longest expression, in characters: it bounds the tree's size and depth (a chain
/// `x+x+...` is one level of nesting but as deep as it is long).
pub const MAX_LENGTH: usize = 1000;

struct Parser {
    toks: Vec<(Tok, usize, String)>,
    pos: usize,
    depth: usize,
    /// Named parameters (lower case) and their values.
    params: Vec<(String, i64)>,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }

    fn bump(&mut self) -> (Tok, usize, String) {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn unexpected(&self) -> Error {
        let (tok, col, text) = &self.toks[self.pos];
        syntax(format!("unexpected {} at column {col}", tok.describe(text)))
    }

    fn expect(&mut self, want: Tok) -> Result<()> {
        if *self.peek() == want {
            self.bump();
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    // expr := term (('+'|'-') term)*
    fn expr(&mut self) -> Result<Node> {
        let mut left = self.term()?;
        loop {
            let op = match self.peek() {
                Tok::Plus => Op::Add,
                Tok::Minus => Op::Sub,
                _ => return Ok(left),
            };
            self.bump();
            let right = self.term()?;
            left = Node::Binary(op, Box::new(left), Box::new(right));
        }
    }

    // term := unary (('*'|'/') unary)*
    fn term(&mut self) -> Result<Node> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Star => Op::Mul,
                Tok::Slash => Op::Div,
                _ => return Ok(left),
            };
            self.bump();
            let right = self.unary()?;
            left = Node::Binary(op, Box::new(left), Box::new(right));
        }
    }

    // unary := '-' unary | '+' unary | power   (so -x^2 is -(x^2))
    //
    // Every recursion (parentheses, calls, signs, powers) passes through here, so this
    // is where the nesting is counted.
    fn unary(&mut self) -> Result<Node> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let col = self.toks[self.pos].1;
            return Err(syntax(format!(
                "nesting deeper than {MAX_NESTING} levels at column {col}; write a flatter expression"
            )));
        }
        let node = self.unary_inner();
        self.depth -= 1;
        node
    }

    fn unary_inner(&mut self) -> Result<Node> {
        match self.peek() {
            Tok::Minus => {
                self.bump();
                Ok(Node::Unary(Op::Neg, Box::new(self.unary()?)))
            }
            Tok::Plus => {
                self.bump();
                self.unary()
            }
            _ => self.power(),
        }
    }

    // power := atom (('^'|'**') unary)?   (right-associative)
    fn power(&mut self) -> Result<Node> {
        let base = self.atom()?;
        if *self.peek() == Tok::Caret {
            self.bump();
            let exp = self.unary()?;
            return Ok(Node::Binary(Op::Pow, Box::new(base), Box::new(exp)));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<Node> {
        let (tok, col, text) = self.toks[self.pos].clone();
        match tok {
            Tok::Num(q) => {
                self.bump();
                Ok(Node::Num(q))
            }
            Tok::LParen => {
                self.bump();
                let inner = self.expr()?;
                self.expect(Tok::RParen)?;
                Ok(inner)
            }
            Tok::Ident(name) => {
                self.bump();
                match name.as_str() {
                    "x" => return Ok(Node::X),
                    "z" => return Ok(Node::Z),
                    _ => {}
                }
                if let Some((_, v)) = self.params.iter().find(|(n, _)| *n == name) {
                    return Ok(Node::Num(Q::int(i128::from(*v))));
                }
                let (op, min_args, max_args) = match name.as_str() {
                    "floor" => (Op::Floor, 1, 1),
                    "ceil" | "ceiling" => (Op::Ceil, 1, 1),
                    "round" => (Op::Round, 1, 1),
                    "sqrt" => (Op::Sqrt, 1, 1),
                    "min" => (Op::Min(0), 2, usize::MAX),
                    "max" => (Op::Max(0), 2, usize::MAX),
                    "y" => {
                        return Err(syntax(format!(
                            "'{text}' at column {col}: a cap is a function of x and z only"
                        )))
                    }
                    _ => {
                        let params: String =
                            self.params.iter().map(|(n, _)| format!(", {n}")).collect();
                        return Err(syntax(format!(
                            "unknown name '{text}' at column {col}; use x, z{params}, numbers, \
                             floor, ceil, round, sqrt, min, max"
                        )));
                    }
                };
                self.expect(Tok::LParen)?;
                let mut args = vec![self.expr()?];
                while *self.peek() == Tok::Comma {
                    self.bump();
                    args.push(self.expr()?);
                }
                if args.len() > max_args {
                    return Err(syntax(format!("{name} at column {col} takes one argument")));
                }
                if args.len() < min_args {
                    return Err(syntax(format!(
                        "{name} at column {col} takes at least {min_args} arguments"
                    )));
                }
                self.expect(Tok::RParen)?;
                Ok(match op {
                    Op::Sqrt => Node::Sqrt(Box::new(args.pop().expect("one argument")), col),
                    Op::Min(_) => Node::Call(Op::Min(args.len()), args),
                    Op::Max(_) => Node::Call(Op::Max(args.len()), args),
                    op => Node::Unary(op, Box::new(args.pop().expect("one argument"))),
                })
            }
            _ => Err(self.unexpected()),
        }
    }
}

/// Checks that every `sqrt` only flows into a rounding (see the module docs),
/// and emits postfix code. Returns the stack depth the code needs.
fn compile(node: &Node, rounded: bool, code: &mut Vec<Op>) -> Result<usize> {
    Ok(match node {
        Node::Num(q) => {
            code.push(Op::Const(*q));
            1
        }
        Node::X => {
            code.push(Op::X);
            1
        }
        Node::Z => {
            code.push(Op::Z);
            1
        }
        Node::Sqrt(arg, col) => {
            if !rounded {
                return Err(syntax(format!(
                    "sqrt at column {col} must be rounded to stay exact: write floor(sqrt(...)), \
                     ceil(sqrt(...)) or round(sqrt(...))"
                )));
            }
            let d = compile(arg, false, code)?;
            code.push(Op::Sqrt);
            d
        }
        Node::Unary(op, arg) => {
            let inner_rounded = matches!(op, Op::Floor | Op::Ceil | Op::Round);
            let d = compile(arg, inner_rounded, code)?;
            code.push(op.clone());
            d
        }
        Node::Binary(op, a, b) => {
            let da = compile(a, false, code)?;
            let db = compile(b, false, code)?;
            code.push(op.clone());
            da.max(db + 1)
        }
        Node::Call(op, args) => {
            // floor/ceil/round commute with min and max, so the context passes through.
            let mut depth = 0;
            for (i, arg) in args.iter().enumerate() {
                depth = depth.max(compile(arg, rounded, code)? + i);
            }
            code.push(op.clone());
            depth
        }
    })
}

impl CapExpr {
    /// Parses an expression such as `floor((x+z)/3)` or `round(sqrt(x+z))`.
    ///
    /// Errors name the column (1-based) of the first thing that does not fit,
    /// e.g. `cap expression: unexpected ')' at column 7`.
    pub fn parse(source: &str) -> Result<CapExpr> {
        CapExpr::parse_with(source, &[])
    }

    /// [`CapExpr::parse`] with named integer parameters bound to values, e.g.
    /// `floor((x+z)^2/k)` with `[("k", 5)]`. A name must be a word of letters,
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
            if !word || RESERVED.contains(&lower.as_str()) {
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
        let lexer = Lexer::run(source)?;
        let mut parser = Parser {
            toks: lexer.toks,
            pos: 0,
            depth: 0,
            params: bound.clone(),
        };
        if *parser.peek() == Tok::End {
            return Err(syntax(
                "the expression is empty; write a cap such as floor((x+z)/3)",
            ));
        }
        let tree = parser.expr()?;
        if *parser.peek() != Tok::End {
            return Err(parser.unexpected());
        }
        let mut code = Vec::new();
        let depth = compile(&tree, true, &mut code)?;
        Ok(CapExpr {
            source: source.trim().to_string(),
            bindings: bound,
            code,
            depth,
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
    /// the square root of a negative number — each naming the position.
    pub fn cap(&self, x: u32, z: u32) -> Result<u64> {
        let mut stack = Vec::with_capacity(self.depth);
        self.cap_with(x, z, &mut stack)
    }

    /// [`CapExpr::cap`] with a caller-provided stack, to evaluate many
    /// positions without allocating.
    pub(crate) fn cap_with(&self, x: u32, z: u32, stack: &mut Vec<Value>) -> Result<u64> {
        let value = self.floor_value(x, z, stack).map_err(|fault| {
            let why = match fault {
                EvalFault::Overflow => "overflows".to_string(),
                EvalFault::DivisionByZero => "divides by zero".to_string(),
                EvalFault::NegativeSqrt(v) => format!("takes the square root of {v}"),
                EvalFault::NonIntegerExponent(v) => format!("raises to the non-integer power {v}"),
            };
            Error::invalid(format!(
                "cap expression '{}' {why} at (x, z) = ({x}, {z}); choose a cap defined on the whole box",
                self.source
            ))
        })?;
        if value < 0 {
            return Err(Error::invalid(format!(
                "cap expression '{}' is negative ({value}) at (x, z) = ({x}, {z}); a cap must be >= 0 everywhere in the box",
                self.source
            )));
        }
        Ok(u64::try_from(value).unwrap_or(u64::MAX))
    }

    fn floor_value(&self, x: u32, z: u32, stack: &mut Vec<Value>) -> Result<i128, EvalFault> {
        stack.clear();
        let pop_exact =
            |stack: &mut Vec<Value>| stack.pop().expect("compiled code is balanced").exact();
        for op in &self.code {
            let v = match op {
                Op::Const(q) => Value::Exact(*q),
                Op::X => Value::Exact(Q::int(x.into())),
                Op::Z => Value::Exact(Q::int(z.into())),
                Op::Neg => Value::Exact(pop_exact(stack).checked_neg()?),
                Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Pow => {
                    let b = pop_exact(stack);
                    let a = pop_exact(stack);
                    Value::Exact(match op {
                        Op::Add => a.checked_add(b)?,
                        Op::Sub => a.checked_sub(b)?,
                        Op::Mul => a.checked_mul(b)?,
                        Op::Div => a.checked_div(b)?,
                        _ => pow(a, b)?,
                    })
                }
                Op::Floor => Value::Exact(Q::int(stack.pop().expect("balanced").floor())),
                Op::Ceil => Value::Exact(Q::int(stack.pop().expect("balanced").ceil())),
                Op::Round => Value::Exact(Q::int(stack.pop().expect("balanced").round()?)),
                Op::Sqrt => {
                    let q = pop_exact(stack);
                    if q.numer() < 0 {
                        return Err(EvalFault::NegativeSqrt(q.to_string()));
                    }
                    Value::Sqrt(q)
                }
                Op::Min(n) | Op::Max(n) => {
                    let want_max = matches!(op, Op::Max(_));
                    let args = stack.split_off(stack.len() - n);
                    let mut best = args[0];
                    for &a in &args[1..] {
                        let ord = a.cmp(best)?;
                        if (want_max && ord.is_gt()) || (!want_max && ord.is_lt()) {
                            best = a;
                        }
                    }
                    best
                }
            };
            stack.push(v);
        }
        Ok(stack.pop().expect("an expression leaves one value").floor())
    }
}

impl std::fmt::Display for CapExpr {
    /// The text, then its bound parameters: `floor((x+z)^2/k) with k=5`.
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
    /// why) where the expression is not linear, e.g. `(x+z)^2` or `sqrt`.
    ///
    /// Rationals are multiplied through by their denominators, since
    /// `floor(t / d)` of an integer term `t` is the prover's floor division.
    pub fn to_logic(&self) -> std::result::Result<crate::prove::ir::Term, String> {
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
        let product_refused = format!(
            "cap '{}': a product of two heaps is outside linear arithmetic; prove works for caps linear in x and z (with floor, ceil, min, max and constants)",
            self.source
        );
        let mut stack: Vec<Symbolic> = Vec::new();
        let pop = |stack: &mut Vec<Symbolic>| stack.pop().expect("compiled code is balanced");
        for op in &self.code {
            let v = match op {
                Op::Const(q) => Symbolic::Known(*q),
                Op::X => Symbolic::Linear(Term::var("x"), 1),
                Op::Z => Symbolic::Linear(Term::var("z"), 1),
                Op::Neg => match pop(&mut stack) {
                    Symbolic::Known(q) => Symbolic::Known(q.checked_neg().map_err(arith)?),
                    Symbolic::Linear(t, d) => Symbolic::Linear(t.times(-1), d),
                },
                Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Pow => {
                    let b = pop(&mut stack);
                    let a = pop(&mut stack);
                    match (op, a, b) {
                        (_, Symbolic::Known(a), Symbolic::Known(b)) => Symbolic::Known(match op {
                            Op::Add => a.checked_add(b).map_err(arith)?,
                            Op::Sub => a.checked_sub(b).map_err(arith)?,
                            Op::Mul => a.checked_mul(b).map_err(arith)?,
                            Op::Div => a.checked_div(b).map_err(arith)?,
                            _ => pow(a, b).map_err(|_| {
                                format!("cap '{}': a power with an exponent that is not a whole number", self.source)
                            })?,
                        }),
                        (Op::Add | Op::Sub, a, b) => {
                            let ((ta, da), (tb, db)) = (linear(a)?, linear(b)?);
                            let d = lcm(da, db)?;
                            let (ta, tb) = (scale(ta, d / da)?, scale(tb, d / db)?);
                            let t = if matches!(op, Op::Add) { ta.add(tb) } else { ta.sub(tb) };
                            Symbolic::Linear(t, d)
                        }
                        (Op::Mul, Symbolic::Known(q), Symbolic::Linear(t, d))
                        | (Op::Mul, Symbolic::Linear(t, d), Symbolic::Known(q)) => {
                            let den = d.checked_mul(q.denom()).ok_or("a denominator overflows")?;
                            Symbolic::Linear(scale(t, q.numer())?, den)
                        }
                        (Op::Mul, _, _) => return Err(product_refused),
                        (Op::Div, Symbolic::Linear(t, d), Symbolic::Known(q)) => {
                            if q.numer() == 0 {
                                return Err(format!("cap '{}': it divides by zero", self.source));
                            }
                            // (t/d) / (n/m) = (t*m) / (d*n), the sign moved to the term.
                            let sign = q.numer().signum();
                            let den = d
                                .checked_mul(q.numer().abs())
                                .ok_or("a denominator overflows")?;
                            Symbolic::Linear(scale(t, sign * q.denom())?, den)
                        }
                        (Op::Div, _, _) => {
                            return Err(format!(
                                "cap '{}': a division by a heap is outside linear arithmetic; divide by constants only",
                                self.source
                            ))
                        }
                        (_, base, Symbolic::Known(e)) if e == Q::int(1) => base,
                        (_, _, Symbolic::Known(e)) if e == Q::int(0) => Symbolic::Known(Q::int(1)),
                        _ => {
                            return Err(format!(
                                "cap '{}': a power of a heap (as in (x+z)^2) is outside linear arithmetic; prove works for caps linear in x and z",
                                self.source
                            ))
                        }
                    }
                }
                Op::Floor | Op::Ceil => match pop(&mut stack) {
                    Symbolic::Known(q) => Symbolic::Known(Q::int(if matches!(op, Op::Floor) {
                        q.floor()
                    } else {
                        q.ceil()
                    })),
                    Symbolic::Linear(t, 1) => Symbolic::Linear(t, 1),
                    Symbolic::Linear(t, d) => {
                        let d64 = int(d)?;
                        if matches!(op, Op::Floor) {
                            Symbolic::Linear(t.floor_div(d64), 1)
                        } else {
                            // ceil(t/d) = -floor(-t/d).
                            Symbolic::Linear(t.times(-1).floor_div(d64).times(-1), 1)
                        }
                    }
                },
                Op::Round => {
                    return Err(format!(
                        "cap '{}': round() (half to even) is not translated for the prover; write floor((2*E+1)/2) if ties round up",
                        self.source
                    ))
                }
                Op::Sqrt => {
                    return Err(format!(
                        "cap '{}': a square root is outside linear arithmetic (its values are not defined by +, constants and floor)",
                        self.source
                    ))
                }
                Op::Min(n) | Op::Max(n) => {
                    let args: Vec<Symbolic> = stack.split_off(stack.len() - n);
                    let mut parts = Vec::with_capacity(args.len());
                    for a in args {
                        parts.push(linear(a)?);
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
                            Some(f) if matches!(op, Op::Min(_)) => f.min(t),
                            Some(f) => f.max(t),
                        });
                    }
                    Symbolic::Linear(folded.expect("min and max take two or more arguments"), d)
                }
            };
            stack.push(v);
        }
        Ok(match pop(&mut stack) {
            Symbolic::Known(q) => Term::Const(int(q.floor())?),
            Symbolic::Linear(t, 1) => t,
            Symbolic::Linear(t, d) => t.floor_div(int(d)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                assert_eq!(cap("floor((x+z)^2/5)", x, z), (xi + zi).pow(2) / 5);
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
        assert_eq!(cap("2^-1*x", 5, 0), 2);
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
        assert_eq!(cap("2^3^2", 0, 0), 512);
        assert_eq!(cap("-x^2 + 100", 3, 0), 91);
        assert_eq!(cap("10-4-3", 0, 0), 3);
        assert_eq!(cap("64/4/2", 0, 0), 8);
        assert_eq!(cap("--x", 4, 0), 4);
    }

    #[test]
    fn syntax_errors_point_at_the_column() {
        assert_eq!(
            parse_err("floor()"),
            "cap expression: unexpected ')' at column 7"
        );
        assert_eq!(
            parse_err("(x+z"),
            "cap expression: unexpected end of expression at column 5"
        );
        assert_eq!(
            parse_err("x+*z"),
            "cap expression: unexpected '*' at column 3"
        );
        assert_eq!(
            parse_err("x z"),
            "cap expression: unexpected 'z' at column 3"
        );
        assert_eq!(
            parse_err("x % 2"),
            "cap expression: unexpected '%' at column 3"
        );
        assert!(parse_err("foo(x)").contains("unknown name 'foo' at column 1"));
        assert!(parse_err("x + y").contains("'y' at column 5"));
        assert!(parse_err("floor(x, z)").contains("floor at column 1 takes one argument"));
        assert!(parse_err("min(x)").contains("at least 2"));
        assert!(parse_err("  ").contains("empty"));
        assert!(parse_err("2*sqrt(x)").contains("sqrt at column 3 must be rounded"));
        assert!(parse_err("floor(sqrt(x)+1)").contains("sqrt at column 7"));
        for e in ["floor()", "(x+z", "2*sqrt(x)", "foo(x)"] {
            assert!(!parse_err(e).contains('\n'));
        }
    }

    #[test]
    fn evaluation_errors_name_the_position() {
        let e = CapExpr::parse("x - z").unwrap();
        assert_eq!(e.cap(5, 3).unwrap(), 2);
        let msg = e.cap(0, 3).unwrap_err().to_string();
        assert!(msg.contains("negative (-3) at (x, z) = (0, 3)"), "{msg}");
        let msg = CapExpr::parse("x^200")
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
        let msg = CapExpr::parse("2^(x/2)")
            .unwrap()
            .cap(1, 0)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("non-integer power 1/2"), "{msg}");
        // 1^huge and 0^huge do not overflow.
        assert_eq!(cap("1^(x*1000000000000)", 7, 0), 1);
        assert_eq!(cap("0^(x+1)", 7, 0), 0);
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
            parse_err(&deep).contains("nesting deeper than 64"),
            "{}",
            parse_err(&deep)
        );
        let chain = vec!["1"; 400].join("^");
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
            let e = CapExpr::parse_with("floor((x+z)^2/k)", &[("k", k)]).unwrap();
            for (x, z) in [(0u32, 0u32), (3, 4), (10, 1), (64, 64)] {
                let want = (u64::from(x) + u64::from(z)).pow(2) / k as u64;
                assert_eq!(e.cap(x, z).unwrap(), want, "k={k} x={x} z={z}");
            }
            assert_eq!(e.to_string(), format!("floor((x+z)^2/k) with k={k}"));
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
