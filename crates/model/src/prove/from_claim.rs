//! The claim language's syntax tree ([`crate::claim`]) as the prover's logic.
//!
//! Everything the language writes is linear except a product of two
//! non-constant terms, which is refused with one line naming it and why.

use super::ir::{Formula, Term};
use crate::claim::{Expr, Node};

/// Why a claim cannot be proved.
fn refuse(what: &str, why: &str) -> String {
    format!("{what}: {why}")
}

const PRODUCT: &str = "a product of two heaps is outside linear arithmetic; prove works for a fixed k, one value at a time (write a parameter as --param k=..., never a heap)";

/// An integer node as a term over `names` (the expression's variables).
pub fn term(node: &Node, names: &[String], source: &str) -> Result<Term, String> {
    let t = |n: &Node| term(n, names, source);
    let b = |n: &Node| t(n).map(Box::new);
    Ok(match node {
        Node::Const(c) => Term::Const(*c),
        Node::Var(i) => Term::Var(names[*i].clone()),
        Node::Neg(a) => t(a)?.times(-1),
        Node::Add(a, c) => Term::Add(b(a)?, b(c)?),
        Node::Sub(a, c) => Term::Sub(b(a)?, b(c)?),
        Node::Mul(a, c) => match (t(a)?, t(c)?) {
            (Term::Const(k), other) | (other, Term::Const(k)) => Term::MulConst(k, Box::new(other)),
            _ => return Err(refuse(&format!("'{source}'"), PRODUCT)),
        },
        Node::FloorDiv(a, c) => t(a)?.floor_div(*c),
        // ceil(a / c) = -floor(-a / c).
        Node::CeilDiv(a, c) => t(a)?.times(-1).floor_div(*c).times(-1),
        // a % c = a - c * floor(a / c).
        Node::Mod(a, c) => {
            let a = t(a)?;
            a.clone().sub(a.floor_div(*c).times(*c))
        }
        Node::Min(args) | Node::Max(args) => {
            let mut folded: Option<Term> = None;
            for a in args {
                let a = t(a)?;
                folded = Some(match folded {
                    None => a,
                    Some(f) if matches!(node, Node::Min(_)) => f.min(a),
                    Some(f) => f.max(a),
                });
            }
            folded.ok_or_else(|| refuse(&format!("'{source}'"), "min and max need arguments"))?
        }
        Node::Abs(a) => Term::Abs(b(a)?),
        Node::Xor(a, c) => Term::Xor(b(a)?, b(c)?),
        Node::And(a, c) => Term::And(b(a)?, b(c)?),
        Node::Or(a, c) => Term::Or(b(a)?, b(c)?),
        Node::Cmp(..) | Node::Not(_) | Node::LogicAnd(..) | Node::LogicOr(..) => {
            return Err(refuse(
                &format!("'{source}'"),
                "a condition stands where a number is expected",
            ))
        }
    })
}

/// A predicate node as a formula over `names`.
pub fn formula(node: &Node, names: &[String], source: &str) -> Result<Formula, String> {
    let f = |n: &Node| formula(n, names, source);
    Ok(match node {
        Node::Cmp(c, a, b) => Formula::Cmp(*c, term(a, names, source)?, term(b, names, source)?),
        Node::Not(a) => f(a)?.not(),
        Node::LogicAnd(a, b) => Formula::and([f(a)?, f(b)?]),
        Node::LogicOr(a, b) => Formula::or([f(a)?, f(b)?]),
        _ => {
            return Err(refuse(
                &format!("'{source}'"),
                "a number stands where a condition is expected; compare it, e.g. '... == 0'",
            ))
        }
    })
}

/// A parsed predicate as a formula over its variables.
pub fn predicate(expr: &Expr) -> Result<Formula, String> {
    formula(expr.ast(), expr.variables(), expr.source())
}

/// A parsed integer expression as a term over its variables.
pub fn integer(expr: &Expr) -> Result<Term, String> {
    term(expr.ast(), expr.variables(), expr.source())
}
