//! The one expression language of nimscape: caps (`--cap`), game files and
//! claims (`survey --rule/--where`, `prove`) are all parsed by [`parse`] into one
//! syntax tree ([`Ast`]) and compiled by [`code`] into one small stack bytecode.
//!
//! # Syntax
//!
//! Python's operators and precedence, lowest first:
//!
//! | level | operators |
//! |---|---|
//! | 1 | `or` |
//! | 2 | `and` |
//! | 3 | `not` |
//! | 4 | comparisons `==`, `!=`, `<`, `<=`, `>`, `>=`, chainable (`a <= b < c`) |
//! | 5 | `\|` bitwise OR |
//! | 6 | `^` bitwise XOR (the nim-sum, as the papers write it) |
//! | 7 | `&` bitwise AND |
//! | 8 | `+`, `-` |
//! | 9 | `*`, `/`, `//`, `%` |
//! | 10 | unary `-`, `+` |
//! | 11 | `**` power, right-associative (`-x**2` is `-(x**2)`, `2**3**2` is 512) |
//!
//! Atoms are numbers, names (variables, parameters), calls of built-in
//! functions (`floor ceil round sqrt isqrt abs mod min max xor`) and of the
//! functions a game file defines, and parentheses.
//!
//! # Two dialects
//!
//! The language is one; a context keeps to a part of it ([`Dialect`]):
//!
//! * **Exact** (caps and game files): numbers are exact rationals as in the
//!   papers' Mathematica programs; `/` divides exactly; decimals are allowed;
//!   `**`, `sqrt` (rounded only) and functions of the game file are there. An
//!   expression with no bare `/` runs on 64-bit integers first and the exact
//!   fractions take over on any overflow, so speed never changes a value.
//!   **`^` is XOR here too**; since caps and game files once read `^` as a
//!   power, a `^` next to a number literal of 2 or more (`(x+z)^2`, `2^k`) is
//!   refused with a line saying to write `**` (or `xor(a, 2)` for the nim-sum
//!   with a number), so no old file changes meaning silently.
//! * **Claim** (rules and claims): whole numbers on `i64` only, every overflow
//!   an error; `/` only as `floor(a / c)` or `ceil(a / c)` and `//`, `%` only by
//!   a positive constant, no power: the fragment the prover decides.
//!
//! Bitwise operators have the two's-complement meaning on negative operands
//! (as Python's integers): `-1 ^ x == -x - 1`. On a fraction they are an error.

pub(crate) mod code;
pub(crate) mod parse;
#[cfg(test)]
mod tests;

use crate::exact::Rational;
use std::sync::Arc;

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==` (also written `=` in claims)
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    /// Whether `a op b` holds.
    pub fn holds<T: Ord>(self, a: T, b: T) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }

    /// Whether an ordering `a.cmp(b)` makes `a op b` hold.
    pub(crate) fn holds_for(self, ord: std::cmp::Ordering) -> bool {
        self.holds(ord, std::cmp::Ordering::Equal)
    }
}

/// Which part of the language a context accepts (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// Caps and game files: exact rationals, `/`, `**`, decimals, functions.
    Exact,
    /// Claims: whole numbers, division only by constants, no power.
    Claim,
}

/// A left-associative binary operator of one precedence level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Bin {
    Add,
    Sub,
    Mul,
    /// Exact division (the Exact dialect; in claims only inside floor/ceil).
    Div,
    /// `//`: floor division.
    FloorDiv,
    /// `%`: `a - b*floor(a/b)`, the sign of `b` (Python's and Mathematica's).
    Mod,
    Xor,
    BitAnd,
    BitOr,
}

impl Bin {
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Bin::Add => "+",
            Bin::Sub => "-",
            Bin::Mul => "*",
            Bin::Div => "/",
            Bin::FloorDiv => "//",
            Bin::Mod => "%",
            Bin::Xor => "^",
            Bin::BitAnd => "&",
            Bin::BitOr => "|",
        }
    }
}

/// A built-in function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Builtin {
    Floor,
    Ceil,
    /// Half to even.
    Round,
    /// Exact square root, only where it is rounded.
    Sqrt,
    /// The floor of the square root of the floor.
    Isqrt,
    Abs,
    /// `mod(a, b)`, Mathematica's `Mod`: the same as `a % b`.
    Mod,
    Min,
    Max,
    /// `xor(a, b, ...)`: the same as `a ^ b ^ ...`.
    Xor,
}

impl Builtin {
    /// Every built-in, by the name it is called with.
    pub(crate) const ALL: [(&'static str, Builtin); 11] = [
        ("floor", Builtin::Floor),
        ("ceil", Builtin::Ceil),
        ("ceiling", Builtin::Ceil),
        ("round", Builtin::Round),
        ("sqrt", Builtin::Sqrt),
        ("isqrt", Builtin::Isqrt),
        ("abs", Builtin::Abs),
        ("mod", Builtin::Mod),
        ("min", Builtin::Min),
        ("max", Builtin::Max),
        ("xor", Builtin::Xor),
    ];

    pub(crate) fn named(name: &str) -> Option<Builtin> {
        let lower = name.to_ascii_lowercase();
        Builtin::ALL
            .iter()
            .find(|(n, _)| *n == lower)
            .map(|(_, b)| *b)
    }

    pub(crate) fn name(self) -> &'static str {
        Builtin::ALL
            .iter()
            .find(|(_, b)| *b == self)
            .map(|(n, _)| *n)
            .expect("every built-in has a name")
    }
}

/// Whether `name` is a built-in function or a keyword (`and`, `or`, `not`):
/// names a game file, a cap or a claim may not give to a heap or parameter.
pub(crate) fn reserved(name: &str) -> bool {
    Builtin::named(name).is_some()
        || matches!(name.to_ascii_lowercase().as_str(), "and" | "or" | "not")
}

/// A function a game file defines, `cap(x, z) = floor(min(x, z)/k)`: in its
/// body, `Var(i)` is its `i`-th argument.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Function {
    pub name: String,
    pub args: Vec<String>,
    pub body: Ast,
}

/// The syntax tree. Parameters are already replaced by their values and
/// constant parts folded; a chain `a + b - c` at one precedence level is one
/// node (so a 12,000-term chain is a flat list, not a tree 12,000 deep: no
/// pass over the tree recurses over a chain's length). A recogniser matches
/// this tree; the compiler turns it into [`code::Code`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ast {
    /// A number: a literal, a parameter, or a folded constant part.
    Const(Rational),
    /// The `i`-th variable of the context (a heap, `t`, or a function's argument).
    Var(usize),
    /// `-a`
    Neg(Box<Ast>),
    /// `a op1 b op2 c ...`, left-associative, all operators of one level.
    Chain(Box<Ast>, Vec<(Bin, Ast)>),
    /// `a ** b`
    Pow(Box<Ast>, Box<Ast>),
    /// A built-in function.
    Call(Builtin, Vec<Ast>),
    /// A function of the game file, with its definition.
    Apply(Arc<Function>, Vec<Ast>),
    /// `a op1 b op2 c ...`: every comparison holds.
    Compare(Box<Ast>, Vec<(CmpOp, Ast)>),
    /// `not p`
    Not(Box<Ast>),
    /// `p and q and ...`
    All(Vec<Ast>),
    /// `p or q or ...`
    Any(Vec<Ast>),
}

impl Ast {
    /// Whether the node is a condition (true/false) rather than a number.
    pub(crate) fn is_predicate(&self) -> bool {
        matches!(
            self,
            Ast::Compare(..) | Ast::Not(_) | Ast::All(_) | Ast::Any(_)
        )
    }
}

/// Why an evaluation failed (the one fault type of every context).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// A value left the 64-bit integers where only they are allowed (claims):
    /// the operation and its operands.
    Overflow64(&'static str, i64, i64),
    /// A value left the `i128` fractions.
    Overflow,
    /// A division (or `%`, `mod`) by zero.
    DivisionByZero,
    /// `sqrt` of a negative number.
    NegativeSqrt(Rational),
    /// `isqrt` of a negative number.
    NegativeIsqrt,
    /// A power with an exponent that is not a whole number.
    FractionalExponent(Rational),
    /// `^`, `&` or `|` of a fraction.
    FractionalBits(Rational),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Overflow64(op, a, b) => match *op {
                "-()" => write!(f, "-({a})"),
                "abs" => write!(f, "abs({a})"),
                "ceil" => write!(f, "ceil({a} / {b})"),
                op => write!(f, "{a} {op} {b}"),
            },
            Fault::Overflow => {
                f.write_str("arithmetic overflow (a value beyond 128-bit fractions)")
            }
            Fault::DivisionByZero => f.write_str("division by zero"),
            Fault::NegativeSqrt(v) => write!(f, "the square root of {v}"),
            Fault::NegativeIsqrt => f.write_str("isqrt of a negative number"),
            Fault::FractionalExponent(v) => {
                write!(f, "a power with a fractional exponent ({v})")
            }
            Fault::FractionalBits(v) => write!(
                f,
                "a bitwise operation (^ & |) of the fraction {v}; floor it first"
            ),
        }
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
