//! Tree to postfix code, and the code run on a stack: no recursion per
//! position, and `and`/`or` jump over the side they do not need.

use super::{CmpOp, Node};

/// `ceil(a / c)` for `c > 0`; `None` never happens for `c > 0` but keeps the
/// arithmetic checked.
pub(super) fn ceil_div(a: i64, c: i64) -> Option<i64> {
    let q = a.div_euclid(c);
    if a.rem_euclid(c) == 0 {
        Some(q)
    } else {
        q.checked_add(1)
    }
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Const(i64),
    Var(usize),
    Neg,
    Add,
    Sub,
    Mul,
    FloorDiv(i64),
    CeilDiv(i64),
    Mod(i64),
    Min(usize),
    Max(usize),
    Abs,
    Xor,
    And,
    Or,
    Cmp(CmpOp),
    Not,
    /// If the top is false, jump to the target keeping it; else pop it.
    JumpIfFalse(usize),
    /// If the top is true, jump to the target keeping it; else pop it.
    JumpIfTrue(usize),
}

/// Compiled code of one expression.
#[derive(Clone, Debug)]
pub(super) struct Code {
    ops: Vec<Op>,
}

/// What overflowed, e.g. `3037000500 * 3037000500`.
pub(super) struct Overflow(String);

impl std::fmt::Display for Overflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Code {
    pub(super) fn compile(node: &Node) -> Code {
        let mut ops = Vec::new();
        emit(node, &mut ops);
        Code { ops }
    }

    pub(super) fn run(&self, vars: &[i64], stack: &mut Vec<i64>) -> Result<i64, Overflow> {
        stack.clear();
        let mut pc = 0;
        while pc < self.ops.len() {
            let op = self.ops[pc];
            pc += 1;
            match op {
                Op::Const(v) => stack.push(v),
                Op::Var(i) => stack.push(vars[i]),
                Op::Neg => {
                    let a = stack.pop().expect("operand");
                    stack.push(a.checked_neg().ok_or_else(|| Overflow(format!("-({a})")))?);
                }
                Op::Abs => {
                    let a = stack.pop().expect("operand");
                    stack.push(
                        a.checked_abs()
                            .ok_or_else(|| Overflow(format!("abs({a})")))?,
                    );
                }
                Op::Not => {
                    let a = stack.pop().expect("operand");
                    stack.push((a == 0) as i64);
                }
                Op::FloorDiv(c) => {
                    let a = stack.pop().expect("operand");
                    stack.push(a.div_euclid(c));
                }
                Op::CeilDiv(c) => {
                    let a = stack.pop().expect("operand");
                    stack.push(ceil_div(a, c).ok_or_else(|| Overflow(format!("ceil({a} / {c})")))?);
                }
                Op::Mod(c) => {
                    let a = stack.pop().expect("operand");
                    stack.push(a.rem_euclid(c));
                }
                Op::Min(n) | Op::Max(n) => {
                    let start = stack.len() - n;
                    let args = stack[start..].iter().copied();
                    let v = if matches!(op, Op::Min(_)) {
                        args.min()
                    } else {
                        args.max()
                    };
                    stack.truncate(start);
                    stack.push(v.expect("two or more arguments"));
                }
                Op::JumpIfFalse(target) => {
                    if *stack.last().expect("operand") == 0 {
                        pc = target;
                    } else {
                        stack.pop();
                    }
                }
                Op::JumpIfTrue(target) => {
                    if *stack.last().expect("operand") != 0 {
                        pc = target;
                    } else {
                        stack.pop();
                    }
                }
                _ => {
                    let b = stack.pop().expect("operand");
                    let a = stack.pop().expect("operand");
                    let v = match op {
                        Op::Add => a
                            .checked_add(b)
                            .ok_or_else(|| Overflow(format!("{a} + {b}")))?,
                        Op::Sub => a
                            .checked_sub(b)
                            .ok_or_else(|| Overflow(format!("{a} - {b}")))?,
                        Op::Mul => a
                            .checked_mul(b)
                            .ok_or_else(|| Overflow(format!("{a} * {b}")))?,
                        Op::Xor => a ^ b,
                        Op::And => a & b,
                        Op::Or => a | b,
                        Op::Cmp(c) => c.holds(a, b) as i64,
                        _ => unreachable!("unary and jump operators are handled above"),
                    };
                    stack.push(v);
                }
            }
        }
        Ok(stack.pop().expect("a value"))
    }
}

fn emit(node: &Node, ops: &mut Vec<Op>) {
    let unary = |a: &Node, op: Op, ops: &mut Vec<Op>| {
        emit(a, ops);
        ops.push(op);
    };
    let binary = |a: &Node, b: &Node, op: Op, ops: &mut Vec<Op>| {
        emit(a, ops);
        emit(b, ops);
        ops.push(op);
    };
    match node {
        Node::Const(v) => ops.push(Op::Const(*v)),
        Node::Var(i) => ops.push(Op::Var(*i)),
        Node::Neg(a) => unary(a, Op::Neg, ops),
        Node::Abs(a) => unary(a, Op::Abs, ops),
        Node::Not(a) => unary(a, Op::Not, ops),
        Node::FloorDiv(a, c) => unary(a, Op::FloorDiv(*c), ops),
        Node::CeilDiv(a, c) => unary(a, Op::CeilDiv(*c), ops),
        Node::Mod(a, c) => unary(a, Op::Mod(*c), ops),
        Node::Add(a, b) => binary(a, b, Op::Add, ops),
        Node::Sub(a, b) => binary(a, b, Op::Sub, ops),
        Node::Mul(a, b) => binary(a, b, Op::Mul, ops),
        Node::Xor(a, b) => binary(a, b, Op::Xor, ops),
        Node::And(a, b) => binary(a, b, Op::And, ops),
        Node::Or(a, b) => binary(a, b, Op::Or, ops),
        Node::Cmp(c, a, b) => binary(a, b, Op::Cmp(*c), ops),
        Node::Min(args) | Node::Max(args) => {
            for a in args {
                emit(a, ops);
            }
            ops.push(if matches!(node, Node::Min(_)) {
                Op::Min(args.len())
            } else {
                Op::Max(args.len())
            });
        }
        Node::LogicAnd(a, b) | Node::LogicOr(a, b) => {
            emit(a, ops);
            let jump = ops.len();
            ops.push(Op::Const(0)); // placeholder, patched below
            emit(b, ops);
            let end = ops.len();
            ops[jump] = if matches!(node, Node::LogicAnd(..)) {
                Op::JumpIfFalse(end)
            } else {
                Op::JumpIfTrue(end)
            };
        }
    }
}
