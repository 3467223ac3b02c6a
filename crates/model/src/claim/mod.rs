//! The claim language, the claim dialect of the one expression language
//! (`crate::lang`, shared with caps and game files): integer expressions and predicates over named variables
//! (the heaps `x`, `y`, `z`, ...) and parameters bound to integers for a run
//! (such as `k`), as a researcher writes a rule: `(x+1)^y^(z+1) == 0`,
//! `y <= 3 and x^y^z != 0`, `floor(min(x, z) / k)`.
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
//! | 4 | comparisons `==` (also `=`), `!=`, `<`, `<=`, `>`, `>=`, chainable: `a <= b < c` is `a <= b and b < c` |
//! | 5 | `\|` bitwise OR |
//! | 6 | `^` bitwise XOR (the nim-sum, as the papers write it) |
//! | 7 | `&` bitwise AND |
//! | 8 | `+`, `-` |
//! | 9 | `*`, `%` by a constant, `//` by a constant |
//! | 10 | unary `-` |
//!
//! Atoms are integer literals, names, parentheses, `floor(a / c)`, `ceil(a / c)`,
//! `min(a, b, ...)`, `max(a, b, ...)` (two or more arguments) and `abs(a)`.
//! Names and keywords are case-insensitive (`Floor`, `AND`, `K`).
//!
//! `/` appears only as the last step inside `floor()` or `ceil()`, and `/`, `//`
//! and `%` only by a constant: a literal, a parameter, or arithmetic of those
//! (`floor((x + z) / (2*k))`). The constant must be positive.
//!
//! # Meaning
//!
//! Values are 64-bit signed integers and every operation is exact: a result
//! outside the 64-bit range is an error that names the operation, its
//! operands and the variables' values, never a wrapped number.
//!
//! **Negative operands of `^`, `&` and `|` have the two's-complement meaning**,
//! as Python's integers do: a number is its infinite string of binary digits,
//! bit `i` of `a` being `floor(a / 2^i) mod 2`, so `-1` is `...111` and `-2` is
//! `...110`. Hence `-1 ^ x == -x - 1`, `-1 & x == x`, and `(x - 1) ^ y` for
//! `x = 0` is `-1 ^ y = -y - 1`. This is the meaning the papers' shifted
//! nim-sums such as `(x-1)^y^(z-1) = 0` have at a zero heap, and the one
//! the prover uses.
//!
//! `floor(a / c)` and `a // c` round toward minus infinity, `ceil(a / c)` toward
//! plus infinity, and `a % c` lies in `0..c` (`-7 // 2 == -4`, `-7 % 3 == 2`).
//! `and` and `or` evaluate their right side only when the left does not decide.
//!
//! An expression is either an integer expression or a predicate (a comparison,
//! or `and`/`or`/`not` of predicates); mixing them (`x and y`, `(x < y) + 1`)
//! is refused when the text is parsed.
//!
//! # Limits
//!
//! The text is at most [`MAX_LENGTH`] characters, parentheses and calls nest at
//! most [`MAX_NESTING`] deep, and the syntax tree is at most [`MAX_DEPTH`] deep
//! (a chain `x + x + ...` is as deep as it is long). So a hostile or mistaken
//! text is refused with one line, never a stack overflow, and a consumer of
//! the tree may recurse over it.
//!
//! # For the prover
//!
//! [`Expr::ast`] gives the syntax tree as a public [`Node`]: parameters are
//! already replaced by their values and constant subexpressions folded (so
//! `8*k + 16` with `k = 3` is `Const(40)`), divisors are positive constants,
//! `a <= b < c` is `LogicAnd(Cmp(Le, a, b), Cmp(Lt, b, c))`, and `Var(i)` is
//! the `i`-th of the variables given to [`Expr::parse`].

#[cfg(test)]
mod tests;

use crate::lang::{self, code::Code, Ast, Bin, Builtin, Dialect};
use crate::{Error, Result};

/// The longest expression text, in characters.
pub const MAX_LENGTH: usize = 10_000;
/// The deepest nesting of parentheses and calls.
pub const MAX_NESTING: usize = lang::parse::MAX_NESTING;
/// The deepest syntax tree (leaves are depth 1).
pub const MAX_DEPTH: usize = lang::parse::MAX_DEPTH;

pub use crate::lang::CmpOp;

/// The syntax tree of an expression (see the module documentation for what each
/// node means). Integer nodes: `Const` to `Or`; predicate nodes: `Cmp` to
/// `LogicOr`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// An integer constant (literals, parameters and folded constant parts).
    Const(i64),
    /// The `i`-th variable given to [`Expr::parse`].
    Var(usize),
    /// `-a`
    Neg(Box<Node>),
    /// `a + b`
    Add(Box<Node>, Box<Node>),
    /// `a - b`
    Sub(Box<Node>, Box<Node>),
    /// `a * b` (the prover accepts it only when one side is a `Const`)
    Mul(Box<Node>, Box<Node>),
    /// `floor(a / c)` or `a // c`, with `c > 0`
    FloorDiv(Box<Node>, i64),
    /// `ceil(a / c)`, with `c > 0`
    CeilDiv(Box<Node>, i64),
    /// `a % c`, with `c > 0`: a value in `0..c`
    Mod(Box<Node>, i64),
    /// `min(a, b, ...)`, two or more arguments
    Min(Vec<Node>),
    /// `max(a, b, ...)`, two or more arguments
    Max(Vec<Node>),
    /// `abs(a)`
    Abs(Box<Node>),
    /// `a ^ b`, bitwise exclusive or in two's complement
    Xor(Box<Node>, Box<Node>),
    /// `a & b`, bitwise and in two's complement
    And(Box<Node>, Box<Node>),
    /// `a | b`, bitwise or in two's complement
    Or(Box<Node>, Box<Node>),
    /// `a op b` of two integer expressions
    Cmp(CmpOp, Box<Node>, Box<Node>),
    /// `not p`
    Not(Box<Node>),
    /// `p and q`
    LogicAnd(Box<Node>, Box<Node>),
    /// `p or q`
    LogicOr(Box<Node>, Box<Node>),
}

impl Node {
    /// Whether this node is a predicate (true/false) rather than an integer.
    pub fn is_predicate(&self) -> bool {
        matches!(
            self,
            Node::Cmp(..) | Node::Not(_) | Node::LogicAnd(..) | Node::LogicOr(..)
        )
    }

    /// The node's children, in order.
    pub fn children(&self) -> Vec<&Node> {
        match self {
            Node::Const(_) | Node::Var(_) => Vec::new(),
            Node::Neg(a)
            | Node::FloorDiv(a, _)
            | Node::CeilDiv(a, _)
            | Node::Mod(a, _)
            | Node::Abs(a)
            | Node::Not(a) => vec![a],
            Node::Add(a, b)
            | Node::Sub(a, b)
            | Node::Mul(a, b)
            | Node::Xor(a, b)
            | Node::And(a, b)
            | Node::Or(a, b)
            | Node::Cmp(_, a, b)
            | Node::LogicAnd(a, b)
            | Node::LogicOr(a, b) => vec![a, b],
            Node::Min(args) | Node::Max(args) => args.iter().collect(),
        }
    }

    /// Whether the subtree names any variable.
    pub fn has_var(&self) -> bool {
        matches!(self, Node::Var(_)) || self.children().into_iter().any(Node::has_var)
    }
}

/// A parsed expression: its text, the names it was parsed against, its tree and
/// the compiled code that evaluates it.
#[derive(Clone, Debug)]
pub struct Expr {
    source: String,
    variables: Vec<String>,
    params: Vec<(String, i64)>,
    ast: Node,
    code: Code,
}

impl Expr {
    /// Parses `text` over `variables` (in the order [`Expr::eval_int`] takes
    /// their values) with `params` bound to fixed integers. A parameter may not
    /// share a variable's name. An error is one line naming the fault, its column
    /// and an excerpt of the text around it.
    pub fn parse(text: &str, variables: &[&str], params: &[(&str, i64)]) -> Result<Expr> {
        let variables: Vec<String> = variables.iter().map(|v| v.to_ascii_lowercase()).collect();
        let params: Vec<(String, i64)> = params
            .iter()
            .map(|(n, v)| (n.to_ascii_lowercase(), *v))
            .collect();
        if let Some((name, _)) = params.iter().find(|(n, _)| variables.contains(n)) {
            return Err(Error::invalid_request(format!(
                "expression '{}': '{name}' is both a variable and a parameter; rename the parameter",
                crate::error::excerpt(text)
            )));
        }
        let length = text.chars().count();
        if length > MAX_LENGTH {
            return Err(Error::invalid_request(format!(
                "expression '{}' is {length} characters long; the limit is {MAX_LENGTH}",
                crate::error::excerpt(text)
            )));
        }
        if text.trim().is_empty() {
            return Err(Error::invalid_request(
                "expression is empty; write a rule such as 'x^y^z == 0'",
            ));
        }
        let wide: Vec<(String, i128)> = params
            .iter()
            .map(|(n, v)| (n.clone(), i128::from(*v)))
            .collect();
        let names = lang::parse::Names {
            vars: &variables,
            params: &wide,
            functions: &[],
            fold_case: true,
        };
        let tree = lang::parse::parse(text, &names, Dialect::Claim)
            .map_err(|p| Error::invalid_request(format!("expression: {p}")))?;
        let ast = lower(&tree);
        let code = Code::compile(&tree).map_err(Error::invalid_request)?;
        Ok(Expr {
            source: text.to_string(),
            variables,
            params,
            ast,
            code,
        })
    }

    /// Parses a predicate (a rule such as `x^y^z == 0`); an integer expression is
    /// refused with a hint.
    pub fn parse_predicate(text: &str, variables: &[&str], params: &[(&str, i64)]) -> Result<Expr> {
        let expr = Expr::parse(text, variables, params)?;
        if !expr.is_predicate() {
            return Err(Error::invalid_request(format!(
                "expression '{}' is an integer, not a condition; compare it, e.g. '{} == 0'",
                crate::error::excerpt(text),
                crate::error::excerpt(text.trim())
            )));
        }
        Ok(expr)
    }

    /// Parses an integer expression; a predicate is refused.
    pub fn parse_integer(text: &str, variables: &[&str], params: &[(&str, i64)]) -> Result<Expr> {
        let expr = Expr::parse(text, variables, params)?;
        if expr.is_predicate() {
            return Err(Error::invalid_request(format!(
                "expression '{}' is a condition, not an integer expression",
                crate::error::excerpt(text)
            )));
        }
        Ok(expr)
    }

    /// The text as given.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The variables' names (lower case), in the order values are given.
    pub fn variables(&self) -> &[String] {
        &self.variables
    }

    /// The parameters bound when the text was parsed (lower case names).
    pub fn params(&self) -> &[(String, i64)] {
        &self.params
    }

    /// The syntax tree, parameters replaced by their values.
    pub fn ast(&self) -> &Node {
        &self.ast
    }

    /// Whether the expression is a predicate rather than an integer expression.
    pub fn is_predicate(&self) -> bool {
        self.ast.is_predicate()
    }

    /// Whether the expression uses the `i`-th variable.
    pub fn uses(&self, i: usize) -> bool {
        fn walk(n: &Node, i: usize) -> bool {
            matches!(n, Node::Var(j) if *j == i) || n.children().into_iter().any(|c| walk(c, i))
        }
        walk(&self.ast, i)
    }

    /// The integer value at `values` (one per variable). A predicate gives 1 or 0.
    pub fn eval_int(&self, values: &[i64]) -> Result<i64> {
        self.eval_with(values, &mut Vec::new())
    }

    /// Whether the predicate holds at `values`; an integer expression is true
    /// where it is non-zero.
    pub fn eval_bool(&self, values: &[i64]) -> Result<bool> {
        Ok(self.eval_with(values, &mut Vec::new())? != 0)
    }

    /// [`Expr::eval_int`]; the stack is kept for callers that held one (the
    /// compiled code runs on a fixed stack of its own, no allocation per call).
    pub fn eval_with(&self, values: &[i64], _stack: &mut Vec<i64>) -> Result<i64> {
        assert_eq!(
            values.len(),
            self.variables.len(),
            "one value per variable of the expression"
        );
        self.code.eval_i64(values).map_err(|fault| {
            let at: Vec<String> = self
                .variables
                .iter()
                .zip(values)
                .map(|(n, v)| format!("{n} = {v}"))
                .collect();
            Error::invalid_request(format!(
                "expression '{}': {fault} is outside the 64-bit integers at {}",
                crate::error::excerpt(&self.source),
                at.join(", ")
            ))
        })
    }
}

impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.source.trim())
    }
}

/// The claim's tree from the language's tree: chains nest to the left, a
/// comparison chain is the `and` of its links, `floor(a / c)` is `FloorDiv`.
/// The parser has checked the claim dialect (whole constants of 64 bits,
/// divisions by positive constants inside floor/ceil), so this cannot fail.
fn lower(ast: &Ast) -> Node {
    let int = |q: &crate::exact::Rational| -> i64 {
        i64::try_from(q.numer()).expect("the claim parser folds constants into 64 bits")
    };
    let b = |n: &Ast| Box::new(lower(n));
    match ast {
        Ast::Const(q) => Node::Const(int(q)),
        Ast::Var(i) => Node::Var(*i),
        Ast::Neg(a) => Node::Neg(b(a)),
        Ast::Chain(first, links) => {
            let mut acc = lower(first);
            for (op, rhs) in links {
                let l = Box::new(acc);
                let divisor = || match rhs {
                    Ast::Const(c) => int(c),
                    _ => unreachable!("claims divide by constants"),
                };
                acc = match op {
                    Bin::Add => Node::Add(l, b(rhs)),
                    Bin::Sub => Node::Sub(l, b(rhs)),
                    Bin::Mul => Node::Mul(l, b(rhs)),
                    Bin::FloorDiv | Bin::Div => Node::FloorDiv(l, divisor()),
                    Bin::Mod => Node::Mod(l, divisor()),
                    Bin::Xor => Node::Xor(l, b(rhs)),
                    Bin::BitAnd => Node::And(l, b(rhs)),
                    Bin::BitOr => Node::Or(l, b(rhs)),
                };
            }
            acc
        }
        Ast::Call(f, args) => match f {
            Builtin::Floor | Builtin::Ceil => {
                let Ast::Chain(a, links) = &args[0] else {
                    unreachable!("a claim's floor() holds a division")
                };
                let [(Bin::Div, Ast::Const(c))] = links.as_slice() else {
                    unreachable!("a claim's floor() holds a division by a constant")
                };
                let (a, c) = (lower(a), int(c));
                match (f, a) {
                    (Builtin::Floor, Node::Const(v)) => Node::Const(v.div_euclid(c)),
                    (Builtin::Floor, a) => Node::FloorDiv(Box::new(a), c),
                    (_, Node::Const(v)) => {
                        Node::Const(v.div_euclid(c) + i64::from(v.rem_euclid(c) != 0))
                    }
                    (_, a) => Node::CeilDiv(Box::new(a), c),
                }
            }
            Builtin::Min => Node::Min(args.iter().map(lower).collect()),
            Builtin::Max => Node::Max(args.iter().map(lower).collect()),
            Builtin::Abs => Node::Abs(b(&args[0])),
            Builtin::Xor => {
                let mut acc = lower(&args[0]);
                for a in &args[1..] {
                    acc = Node::Xor(Box::new(acc), b(a));
                }
                acc
            }
            _ => unreachable!("not a function of the claim dialect"),
        },
        Ast::Compare(first, links) => {
            let mut left = lower(first);
            let mut acc: Option<Node> = None;
            for (op, rhs) in links {
                let right = lower(rhs);
                let link = Node::Cmp(*op, Box::new(left), Box::new(right.clone()));
                acc = Some(match acc {
                    None => link,
                    Some(prev) => Node::LogicAnd(Box::new(prev), Box::new(link)),
                });
                left = right;
            }
            acc.expect("a comparison has a link")
        }
        Ast::Not(a) => Node::Not(b(a)),
        Ast::All(parts) | Ast::Any(parts) => {
            let mut acc = lower(&parts[0]);
            for p in &parts[1..] {
                acc = if matches!(ast, Ast::All(_)) {
                    Node::LogicAnd(Box::new(acc), b(p))
                } else {
                    Node::LogicOr(Box::new(acc), b(p))
                };
            }
            acc
        }
        Ast::Pow(..) | Ast::Apply(..) => unreachable!("not in the claim dialect"),
    }
}
