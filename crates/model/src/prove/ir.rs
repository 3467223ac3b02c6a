//! The prover's logic: integer terms and first-order formulas over the naturals.
//!
//! A small language of its own, independent of any engine: what the games, caps
//! and claims are translated into, and what an engine (MONA today) decides.
//!
//! * **Variables** stand for natural numbers (heaps, moves' targets, quantified
//!   values); they are named, and every quantifier ranges over `0, 1, 2, ...`.
//! * **Terms** are integers: intermediate values may be negative (`x - 1` at
//!   `x = 0`), and the bitwise operations `^ & |` take the two's-complement
//!   meaning of a negative operand (`-1` is `...111`, as Python's `int`).
//! * Only **linear** arithmetic is expressible: a product has one constant
//!   factor ([`Term::MulConst`]) and division is floor division by a positive
//!   constant ([`Term::FloorDiv`]). That is what keeps every formula decidable
//!   (Büchi arithmetic: Presburger arithmetic with bitwise operations).
//!
//! [`Term::eval`] and [`Formula::eval`] are the reference meaning: the
//! translation tests check each engine atom by atom against them.

use std::collections::BTreeMap;
use std::fmt;

/// An integer term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A variable (a natural number).
    Var(String),
    /// An integer constant.
    Const(i64),
    /// `a + b`.
    Add(Box<Term>, Box<Term>),
    /// `a - b` (may be negative).
    Sub(Box<Term>, Box<Term>),
    /// `c * a` for a constant `c`.
    MulConst(i64, Box<Term>),
    /// `floor(a / c)` for a constant `c >= 1` (rounding toward minus infinity).
    FloorDiv(Box<Term>, i64),
    /// `min(a, b)`.
    Min(Box<Term>, Box<Term>),
    /// `max(a, b)`.
    Max(Box<Term>, Box<Term>),
    /// `|a|`.
    Abs(Box<Term>),
    /// Bitwise XOR (two's complement for negative operands).
    Xor(Box<Term>, Box<Term>),
    /// Bitwise AND.
    And(Box<Term>, Box<Term>),
    /// Bitwise OR.
    Or(Box<Term>, Box<Term>),
}

/// A comparison of two terms: the claim language's own operators.
pub use crate::claim::CmpOp;

/// A formula of first-order arithmetic over the naturals.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Formula {
    /// Always true.
    True,
    /// Always false.
    False,
    /// A comparison of two terms.
    Cmp(CmpOp, Term, Term),
    /// Negation.
    Not(Box<Formula>),
    /// Conjunction of all (true when empty).
    And(Vec<Formula>),
    /// Disjunction of all (false when empty).
    Or(Vec<Formula>),
    /// `a => b`.
    Implies(Box<Formula>, Box<Formula>),
    /// `a <=> b`.
    Iff(Box<Formula>, Box<Formula>),
    /// There are naturals for these variables such that ...
    Exists(Vec<String>, Box<Formula>),
    /// For all naturals for these variables ...
    Forall(Vec<String>, Box<Formula>),
}

/// Values of variables, by name.
pub type Env = BTreeMap<String, i128>;

/// Why a term could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A variable had no value.
    Unbound(String),
    /// The value left the range of `i128`.
    Overflow,
    /// A formula with a quantifier (only quantifier-free formulas evaluate).
    Quantifier,
    /// A floor division by a constant below 1.
    BadDivisor(i64),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Unbound(v) => write!(f, "the variable `{v}` has no value"),
            EvalError::Overflow => write!(f, "a value overflowed 128-bit integers"),
            EvalError::Quantifier => write!(f, "a quantified formula cannot be evaluated"),
            EvalError::BadDivisor(c) => write!(f, "floor division by {c} (must be at least 1)"),
        }
    }
}

/// Shorthands that read like the formulas they build.
impl Term {
    /// A variable.
    pub fn var(name: &str) -> Term {
        Term::Var(name.to_string())
    }
    /// `self + b`.
    // Builds a term or formula (no operator overloading on syntax trees).
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, b: Term) -> Term {
        Term::Add(Box::new(self), Box::new(b))
    }
    /// `self - b`.
    // Builds a term or formula (no operator overloading on syntax trees).
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, b: Term) -> Term {
        Term::Sub(Box::new(self), Box::new(b))
    }
    /// `c * self`.
    pub fn times(self, c: i64) -> Term {
        Term::MulConst(c, Box::new(self))
    }
    /// `floor(self / c)`.
    pub fn floor_div(self, c: i64) -> Term {
        Term::FloorDiv(Box::new(self), c)
    }
    /// `min(self, b)`.
    pub fn min(self, b: Term) -> Term {
        Term::Min(Box::new(self), Box::new(b))
    }
    /// `max(self, b)`.
    pub fn max(self, b: Term) -> Term {
        Term::Max(Box::new(self), Box::new(b))
    }
    /// `self ^ b` (bitwise XOR).
    pub fn xor(self, b: Term) -> Term {
        Term::Xor(Box::new(self), Box::new(b))
    }
    /// `self == b`.
    pub fn eq(self, b: Term) -> Formula {
        Formula::Cmp(CmpOp::Eq, self, b)
    }
    /// `self < b`.
    pub fn lt(self, b: Term) -> Formula {
        Formula::Cmp(CmpOp::Lt, self, b)
    }
    /// `self <= b`.
    pub fn le(self, b: Term) -> Formula {
        Formula::Cmp(CmpOp::Le, self, b)
    }

    /// The value under `env`, exactly (checked `i128`).
    pub fn eval(&self, env: &Env) -> Result<i128, EvalError> {
        let ov = |v: Option<i128>| v.ok_or(EvalError::Overflow);
        Ok(match self {
            Term::Var(v) => *env.get(v).ok_or_else(|| EvalError::Unbound(v.clone()))?,
            Term::Const(c) => i128::from(*c),
            Term::Add(a, b) => ov(a.eval(env)?.checked_add(b.eval(env)?))?,
            Term::Sub(a, b) => ov(a.eval(env)?.checked_sub(b.eval(env)?))?,
            Term::MulConst(c, a) => ov(a.eval(env)?.checked_mul(i128::from(*c)))?,
            Term::FloorDiv(a, c) => {
                if *c < 1 {
                    return Err(EvalError::BadDivisor(*c));
                }
                a.eval(env)?.div_euclid(i128::from(*c))
            }
            Term::Min(a, b) => a.eval(env)?.min(b.eval(env)?),
            Term::Max(a, b) => a.eval(env)?.max(b.eval(env)?),
            Term::Abs(a) => ov(a.eval(env)?.checked_abs())?,
            Term::Xor(a, b) => a.eval(env)? ^ b.eval(env)?,
            Term::And(a, b) => a.eval(env)? & b.eval(env)?,
            Term::Or(a, b) => a.eval(env)? | b.eval(env)?,
        })
    }

    /// Whether the value is non-negative whenever every variable is (a
    /// syntactic check, so `false` only means "not known").
    pub fn is_natural(&self) -> bool {
        match self {
            Term::Var(_) => true,
            Term::Const(c) => *c >= 0,
            Term::Add(a, b) | Term::Min(a, b) | Term::Xor(a, b) | Term::Or(a, b) => {
                a.is_natural() && b.is_natural()
            }
            Term::Max(a, b) => a.is_natural() || b.is_natural(),
            Term::And(a, b) => a.is_natural() || b.is_natural(),
            Term::Sub(..) => false,
            Term::MulConst(c, a) => *c >= 0 && a.is_natural(),
            Term::FloorDiv(a, _) => a.is_natural(),
            Term::Abs(_) => true,
        }
    }

    /// Calls `f` with the name of every variable, repeats included.
    pub fn for_each_var(&self, f: &mut dyn FnMut(&str)) {
        match self {
            Term::Var(v) => f(v),
            Term::Const(_) => {}
            Term::MulConst(_, a) | Term::FloorDiv(a, _) | Term::Abs(a) => a.for_each_var(f),
            Term::Add(a, b)
            | Term::Sub(a, b)
            | Term::Min(a, b)
            | Term::Max(a, b)
            | Term::Xor(a, b)
            | Term::And(a, b)
            | Term::Or(a, b) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
        }
    }

    /// The term with every variable renamed by `rename` (a substitution of
    /// variables by variables, e.g. a heap by its value after a move).
    pub fn rename(&self, rename: &dyn Fn(&str) -> String) -> Term {
        self.substitute(&|v| Term::Var(rename(v)))
    }

    /// The term with every variable replaced by a term.
    pub fn substitute(&self, by: &dyn Fn(&str) -> Term) -> Term {
        let b = |t: &Term| Box::new(t.substitute(by));
        match self {
            Term::Var(v) => by(v),
            Term::Const(c) => Term::Const(*c),
            Term::Add(x, y) => Term::Add(b(x), b(y)),
            Term::Sub(x, y) => Term::Sub(b(x), b(y)),
            Term::MulConst(c, x) => Term::MulConst(*c, b(x)),
            Term::FloorDiv(x, c) => Term::FloorDiv(b(x), *c),
            Term::Min(x, y) => Term::Min(b(x), b(y)),
            Term::Max(x, y) => Term::Max(b(x), b(y)),
            Term::Abs(x) => Term::Abs(b(x)),
            Term::Xor(x, y) => Term::Xor(b(x), b(y)),
            Term::And(x, y) => Term::And(b(x), b(y)),
            Term::Or(x, y) => Term::Or(b(x), b(y)),
        }
    }
}

impl fmt::Display for Term {
    /// Fully parenthesised, in the claim language's notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Var(v) => write!(f, "{v}"),
            Term::Const(c) => write!(f, "{c}"),
            Term::Add(a, b) => write!(f, "({a} + {b})"),
            Term::Sub(a, b) => write!(f, "({a} - {b})"),
            Term::MulConst(c, a) => write!(f, "{c}*{a}"),
            Term::FloorDiv(a, c) => write!(f, "floor({a} / {c})"),
            Term::Min(a, b) => write!(f, "min({a}, {b})"),
            Term::Max(a, b) => write!(f, "max({a}, {b})"),
            Term::Abs(a) => write!(f, "abs({a})"),
            Term::Xor(a, b) => write!(f, "({a} ^ {b})"),
            Term::And(a, b) => write!(f, "({a} & {b})"),
            Term::Or(a, b) => write!(f, "({a} | {b})"),
        }
    }
}

impl Formula {
    /// `a and b`, flattening nested conjunctions.
    pub fn and(parts: impl IntoIterator<Item = Formula>) -> Formula {
        let mut all = Vec::new();
        for p in parts {
            match p {
                Formula::True => {}
                Formula::And(inner) => all.extend(inner),
                other => all.push(other),
            }
        }
        if all.len() == 1 {
            all.pop().unwrap_or(Formula::True)
        } else {
            Formula::And(all)
        }
    }

    /// `a or b`, flattening nested disjunctions.
    pub fn or(parts: impl IntoIterator<Item = Formula>) -> Formula {
        let mut all = Vec::new();
        for p in parts {
            match p {
                Formula::False => {}
                Formula::Or(inner) => all.extend(inner),
                other => all.push(other),
            }
        }
        if all.len() == 1 {
            all.pop().unwrap_or(Formula::False)
        } else {
            Formula::Or(all)
        }
    }

    /// `not self`.
    // Builds a term or formula (no operator overloading on syntax trees).
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Formula {
        match self {
            Formula::Not(inner) => *inner,
            Formula::True => Formula::False,
            Formula::False => Formula::True,
            other => Formula::Not(Box::new(other)),
        }
    }

    /// `self <=> b`.
    pub fn iff(self, b: Formula) -> Formula {
        Formula::Iff(Box::new(self), Box::new(b))
    }

    /// `self => b`.
    pub fn implies(self, b: Formula) -> Formula {
        Formula::Implies(Box::new(self), Box::new(b))
    }

    /// There exist naturals `vars` with `body`.
    pub fn exists(vars: &[String], body: Formula) -> Formula {
        if vars.is_empty() {
            body
        } else {
            Formula::Exists(vars.to_vec(), Box::new(body))
        }
    }

    /// For all naturals `vars`, `body`.
    pub fn forall(vars: &[String], body: Formula) -> Formula {
        if vars.is_empty() {
            body
        } else {
            Formula::Forall(vars.to_vec(), Box::new(body))
        }
    }

    /// The truth value of a quantifier-free formula under `env`.
    pub fn eval(&self, env: &Env) -> Result<bool, EvalError> {
        Ok(match self {
            Formula::True => true,
            Formula::False => false,
            Formula::Cmp(op, a, b) => op.holds(a.eval(env)?, b.eval(env)?),
            Formula::Not(a) => !a.eval(env)?,
            Formula::And(all) => {
                for a in all {
                    if !a.eval(env)? {
                        return Ok(false);
                    }
                }
                true
            }
            Formula::Or(all) => {
                for a in all {
                    if a.eval(env)? {
                        return Ok(true);
                    }
                }
                false
            }
            Formula::Implies(a, b) => !a.eval(env)? || b.eval(env)?,
            Formula::Iff(a, b) => a.eval(env)? == b.eval(env)?,
            Formula::Exists(..) | Formula::Forall(..) => return Err(EvalError::Quantifier),
        })
    }

    /// The formula with every free variable renamed by `rename` (bound
    /// variables are kept; callers keep bound and free names apart).
    pub fn rename(&self, rename: &dyn Fn(&str) -> String) -> Formula {
        self.substitute(&|v| Term::Var(rename(v)))
    }

    /// The formula with free variables replaced by terms. Bound variables
    /// shadow: a quantified name is never substituted inside its scope.
    pub fn substitute(&self, by: &dyn Fn(&str) -> Term) -> Formula {
        match self {
            Formula::True => Formula::True,
            Formula::False => Formula::False,
            Formula::Cmp(op, a, b) => Formula::Cmp(*op, a.substitute(by), b.substitute(by)),
            Formula::Not(a) => Formula::Not(Box::new(a.substitute(by))),
            Formula::And(all) => Formula::And(all.iter().map(|a| a.substitute(by)).collect()),
            Formula::Or(all) => Formula::Or(all.iter().map(|a| a.substitute(by)).collect()),
            Formula::Implies(a, b) => {
                Formula::Implies(Box::new(a.substitute(by)), Box::new(b.substitute(by)))
            }
            Formula::Iff(a, b) => {
                Formula::Iff(Box::new(a.substitute(by)), Box::new(b.substitute(by)))
            }
            Formula::Exists(vars, body) | Formula::Forall(vars, body) => {
                let inner = |v: &str| {
                    if vars.iter().any(|b| b == v) {
                        Term::Var(v.to_string())
                    } else {
                        by(v)
                    }
                };
                let body = Box::new(body.substitute(&inner));
                match self {
                    Formula::Exists(..) => Formula::Exists(vars.clone(), body),
                    _ => Formula::Forall(vars.clone(), body),
                }
            }
        }
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |f: &mut fmt::Formatter<'_>, all: &[Formula], word: &str| {
            write!(f, "(")?;
            for (i, a) in all.iter().enumerate() {
                if i > 0 {
                    write!(f, " {word} ")?;
                }
                write!(f, "{a}")?;
            }
            write!(f, ")")
        };
        match self {
            Formula::True => write!(f, "true"),
            Formula::False => write!(f, "false"),
            Formula::Cmp(op, a, b) => write!(f, "{a} {} {b}", op.symbol()),
            Formula::Not(a) => write!(f, "not ({a})"),
            Formula::And(all) => join(f, all, "and"),
            Formula::Or(all) => join(f, all, "or"),
            Formula::Implies(a, b) => write!(f, "(({a}) => ({b}))"),
            Formula::Iff(a, b) => write!(f, "(({a}) <=> ({b}))"),
            Formula::Exists(v, b) => write!(f, "(exists {}: {b})", v.join(", ")),
            Formula::Forall(v, b) => write!(f, "(forall {}: {b})", v.join(", ")),
        }
    }
}
