//! Tree to code, and the code run: one postfix program per expression over a
//! fixed stack, with no recursion and no allocation per evaluation.
//!
//! An expression is compiled to exact code ([`Op`], values exact rationals or
//! square roots of them) and, when it has no bare `/`, no `sqrt` and only whole
//! constants of 64 bits, also to a whole-number program ([`W`]) on `i64` with
//! every operation checked. The whole program runs first; any overflow (or a
//! negative power) reruns the exact code, which decides, so speed never
//! changes a value. Claims use the whole program alone: an overflow is their
//! error. Functions of a game file are written out where they are called, and
//! `and`/`or` jump over the side they do not need (jumps are relative, so a
//! function's code can be copied anywhere).

use super::{Ast, Bin, Builtin, CmpOp, Fault};
use crate::exact::{isqrt, Rational};
use std::cmp::Ordering;
use std::sync::Arc;

/// The most instructions an expression may have once its functions are
/// written out: functions that call each other twice over would otherwise grow
/// without bound, and every position evaluates all of them.
pub(crate) const MAX_NODES: usize = 100_000;

/// The most values an expression holds at once on the stack of a cap or a game
/// file (claims, checked only as their trees are, have a stack on the heap).
pub(crate) const STACK: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Const(Rational),
    Var(usize),
    Neg,
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    CeilDiv,
    Mod,
    Pow,
    Xor,
    BitAnd,
    BitOr,
    Floor,
    Ceil,
    Round,
    Sqrt,
    Isqrt,
    Abs,
    Min(usize),
    Max(usize),
    Cmp(CmpOp),
    Not,
    /// If the top is false, jump this many instructions ahead keeping it; else pop it.
    JumpIfFalse(usize),
    /// If the top is true, jump this many instructions ahead keeping it; else pop it.
    JumpIfTrue(usize),
}

/// A binary operator of the whole-number program.
#[derive(Clone, Copy, Debug, PartialEq)]
enum B {
    Add,
    Sub,
    Mul,
    FloorDiv,
    CeilDiv,
    Mod,
    Pow,
    Xor,
    BitAnd,
    BitOr,
    Min,
    Max,
    Cmp(CmpOp),
}

/// One instruction of the whole-number program: [`Op`] on `i64` (floor, ceil
/// and round of a whole number are the number, so they are left out). A binary
/// operator whose right operand is a constant or a variable takes it in the
/// instruction (`BinK`, `BinV`): fewer instructions and stack moves per value.
#[derive(Clone, Copy, Debug, PartialEq)]
enum W {
    Const(i64),
    Var(usize),
    Neg,
    Isqrt,
    Abs,
    Not,
    /// `min` or `max` of more than two arguments.
    Min(usize),
    Max(usize),
    Bin(B),
    BinK(B, i64),
    BinV(B, usize),
    JumpIfFalse(usize),
    JumpIfTrue(usize),
}

/// An operand of a [`Chain`]: a constant or a variable.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Operand {
    K(i64),
    V(usize),
}

impl Operand {
    #[inline(always)]
    fn value<V: Copy + Into<i128>>(self, vars: &[V]) -> Result<i64, Fault> {
        match self {
            Operand::K(c) => Ok(c),
            Operand::V(i) => var64(vars[i]),
        }
    }
}

/// A whole-number program that is one value and then binary operators with a
/// constant or a variable each (`min(x6 + x2, x1)`, `x1 + x3 + 1 >= x2`): most
/// caps, moves and conditions of game files. It runs in one register, with no
/// stack and no jumps: the same operations, checked alike, as the program.
#[derive(Clone, Debug, PartialEq)]
struct Chain {
    first: Operand,
    steps: Vec<(B, Operand)>,
}

impl Chain {
    fn of(code: &[W]) -> Option<Chain> {
        let (first, rest) = code.split_first()?;
        let first = match *first {
            W::Const(c) => Operand::K(c),
            W::Var(i) => Operand::V(i),
            _ => return None,
        };
        let steps = rest
            .iter()
            .map(|w| match *w {
                W::BinK(op, c) => Some((op, Operand::K(c))),
                W::BinV(op, i) => Some((op, Operand::V(i))),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Chain { first, steps })
    }

    #[inline]
    fn run<V: Copy + Into<i128>>(&self, vars: &[V]) -> Result<i64, Fault> {
        let mut acc = self.first.value(vars)?;
        for &(op, b) in &self.steps {
            acc = apply(op, acc, b.value(vars)?)?;
        }
        Ok(acc)
    }

    /// [`Chain::run`] without the fault: `None` where it faults. Small enough to
    /// be inlined where it is called, with the value in a register throughout
    /// (a [`Fault`] would be returned through memory at every step).
    #[inline(always)]
    fn run_whole<V: Copy + Into<i128>>(&self, vars: &[V]) -> Option<i64> {
        let value = |o: Operand| match o {
            Operand::K(c) => Some(c),
            Operand::V(i) => i64::try_from(vars[i].into()).ok(),
        };
        let mut acc = value(self.first)?;
        for &(op, b) in &self.steps {
            acc = step_whole(op, acc, value(b)?)?;
        }
        Some(acc)
    }
}

/// One step of a chain on `i64`: `None` where [`apply`] faults. The usual
/// operators written out, so the step stays in registers where it is inlined.
#[inline(always)]
fn step_whole(op: B, acc: i64, b: i64) -> Option<i64> {
    match op {
        B::Add => acc.checked_add(b),
        B::Sub => acc.checked_sub(b),
        B::Min => Some(acc.min(b)),
        B::Max => Some(acc.max(b)),
        B::Mul => acc.checked_mul(b),
        B::Cmp(c) => Some(i64::from(c.holds(acc, b))),
        B::Xor => Some(acc ^ b),
        B::BitAnd => Some(acc & b),
        B::BitOr => Some(acc | b),
        _ => apply(op, acc, b).ok(),
    }
}

/// A [`Chain`] cut in two for a loop in which some variables change and the
/// rest stay put (a game file's options of one position, `t` running): the
/// head, up to the first step that reads a changing variable, is run once
/// with the value kept ([`SplitChain::head`]); only the tail runs for the
/// values that change ([`SplitChain::tail_batch`]). Head then tail are the chain's steps in
/// its order, checked alike, so the value is the chain's.
#[derive(Clone, Debug)]
pub(crate) struct SplitChain {
    /// The chain's first operand, when it does not change (else the tail starts with it).
    first: Option<Operand>,
    head: Vec<(B, Operand)>,
    /// The first operand when it changes.
    tail_first: Option<Operand>,
    tail: Vec<(B, Operand)>,
    /// Whether every step of the head is a sum (`x6 + x2 + 1`, the commonest
    /// head): then it runs with no operator to match.
    sums: bool,
}

impl SplitChain {
    fn new(
        first: Option<Operand>,
        head: Vec<(B, Operand)>,
        tail_first: Option<Operand>,
        tail: Vec<(B, Operand)>,
    ) -> SplitChain {
        let sums = head.iter().all(|&(op, _)| op == B::Add);
        SplitChain {
            first,
            head,
            tail_first,
            tail,
            sums,
        }
    }

    #[inline(always)]
    fn operand(o: Operand, vars: &[i64]) -> Option<i64> {
        match o {
            Operand::K(c) => Some(c),
            Operand::V(i) => vars.get(i).copied(),
        }
    }

    /// The value of the head on `vars` (`None`: a fault, or a head that
    /// changes: the tail then starts from nothing and `acc` is not read).
    #[inline]
    pub(crate) fn head(&self, vars: &[i64]) -> Option<i64> {
        let mut acc = Self::operand(self.first?, vars)?;
        if self.sums {
            // `step_whole` of `B::Add`, unmatched.
            for &(_, b) in &self.head {
                acc = acc.checked_add(Self::operand(b, vars)?)?;
            }
            return Some(acc);
        }
        for &(op, b) in &self.head {
            acc = step_whole(op, acc, Self::operand(b, vars)?)?;
        }
        Some(acc)
    }

    /// Whether the head can be run once (the first operand does not change).
    pub(crate) fn has_head(&self) -> bool {
        self.first.is_some()
    }

    /// The chain's values for a batch of values of the variables that change
    /// (`changes[i]`: variable `i`'s values are `columns[i][..out.len()]`; the
    /// others' are in `vars`), from the head's value `acc`, into `out`;
    /// `false` where one faults. The chain's steps after its head, each
    /// over the whole batch.
    #[inline]
    pub(crate) fn tail_batch(
        &self,
        acc: i64,
        vars: &[i64],
        changes: &[bool],
        columns: &[[i64; BATCH]],
        out: &mut [i64],
    ) -> bool {
        let len = out.len();
        let operand = |o: Operand| -> Result<Option<&[i64]>, Option<i64>> {
            match o {
                Operand::K(c) => Err(Some(c)),
                Operand::V(i) if changes.get(i).copied().unwrap_or(false) => {
                    Ok(columns.get(i).map(|c| &c[..len]))
                }
                Operand::V(i) => Err(vars.get(i).copied()),
            }
        };
        match self.tail_first.map(operand) {
            None => out.fill(acc),
            Some(Ok(Some(column))) => out.copy_from_slice(column),
            Some(Err(Some(value))) => out.fill(value),
            Some(_) => return false,
        }
        for &(op, b) in &self.tail {
            let ok = match operand(b) {
                Ok(Some(column)) => step_batch(op, out, |k| column[k]),
                Err(Some(value)) => step_batch(op, out, |_| value),
                _ => false,
            };
            if !ok {
                return false;
            }
        }
        true
    }
}

impl SplitChain {
    /// The tail as a [`RampProgram`], when it is one whatever the values:
    /// sums, differences, `min` and `max`, each with a value that does not
    /// change (`changes(i)` false), or with one that does while what came
    /// before does not.
    pub(crate) fn ramp_program(&self, changes: impl Fn(usize) -> bool) -> Option<RampProgram> {
        let changing = |o: Operand| match o {
            Operand::V(i) if changes(i) => Some(i),
            _ => None,
        };
        let (start, mut varies) = match self.tail_first {
            None => (RampStart::Head, false),
            Some(o) => match changing(o) {
                Some(i) => (RampStart::Changing(i), true),
                None => (RampStart::Fixed(o), false),
            },
        };
        let mut steps = Vec::with_capacity(self.tail.len());
        for &(op, b) in &self.tail {
            let step = match (op, changing(b)) {
                (B::Add, None) => RampStep::Add(b),
                (B::Sub, None) => RampStep::Sub(b),
                (B::Min, None) => RampStep::Min(b),
                (B::Max, None) => RampStep::Max(b),
                (_, Some(_)) if varies => return None,
                (B::Add, Some(i)) => RampStep::AddRamp(i),
                (B::Sub, Some(i)) => RampStep::SubRamp(i),
                (B::Min, Some(i)) => RampStep::MinRamp(i),
                (B::Max, Some(i)) => RampStep::MaxRamp(i),
                _ => return None,
            };
            varies |= matches!(
                step,
                RampStep::AddRamp(_)
                    | RampStep::SubRamp(_)
                    | RampStep::MinRamp(_)
                    | RampStep::MaxRamp(_)
            );
            steps.push(step);
        }
        Some(RampProgram { start, steps })
    }
}

/// Where a [`RampProgram`] starts.
#[derive(Clone, Copy, Debug, PartialEq)]
enum RampStart {
    /// The head's value ([`SplitChain::head`]).
    Head,
    /// An operand that does not change.
    Fixed(Operand),
    /// A variable that changes: its ramp.
    Changing(usize),
}

/// A step of a [`RampProgram`]: an operation with an operand that does not
/// change, or (on a value that does not change yet) with the ramp of one
/// that does.
#[derive(Clone, Copy, Debug, PartialEq)]
enum RampStep {
    Add(Operand),
    Sub(Operand),
    Min(Operand),
    Max(Operand),
    AddRamp(usize),
    SubRamp(usize),
    MinRamp(usize),
    MaxRamp(usize),
}

/// A chain's tail (or a copied variable) as a [`Ramp`] of `t`, its shape
/// checked once when the solver starts: per position and move it runs on
/// the values of that position, with no case left to decide.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RampProgram {
    start: RampStart,
    steps: Vec<RampStep>,
}

impl RampProgram {
    /// The ramp of the changing variable `i`, copied.
    pub(crate) fn copy(i: usize) -> RampProgram {
        RampProgram {
            start: RampStart::Changing(i),
            steps: Vec::new(),
        }
    }

    /// The ramp on the position's values: `head` the head's value, `vars`
    /// the variables that do not change, `ramps[i]` those that do; `None`
    /// where a value leaves 64 bits (the caller gives up).
    #[inline(always)]
    pub(crate) fn run(&self, head: i64, vars: &[i64], ramps: &[Ramp]) -> Option<Ramp> {
        let fixed = |o: Operand| -> i64 {
            match o {
                Operand::K(c) => c,
                Operand::V(i) => vars[i],
            }
        };
        let mut r = match self.start {
            RampStart::Head => Ramp::constant(head),
            RampStart::Fixed(o) => Ramp::constant(fixed(o)),
            RampStart::Changing(i) => ramps[i],
        };
        for &step in &self.steps {
            r = match step {
                RampStep::Add(o) => r.shifted(fixed(o))?,
                RampStep::Sub(o) => r.shifted(fixed(o).checked_neg()?)?,
                RampStep::Min(o) => r.min(fixed(o)),
                RampStep::Max(o) => r.max(fixed(o)),
                // `r` does not change here (the program's shape): its value is `lo`.
                RampStep::AddRamp(i) => ramps[i].shifted(r.lo)?,
                RampStep::SubRamp(i) => ramps[i].negated()?.shifted(r.lo)?,
                RampStep::MinRamp(i) => ramps[i].min(r.lo),
                RampStep::MaxRamp(i) => ramps[i].max(r.lo),
            };
        }
        Some(r)
    }
}

/// A whole number that changes with `t` as `clamp(slope * t + offset, lo,
/// hi)` (`lo <= hi`) for `t` in a range fixed when the ramp is made: what a
/// chain of sums and `min`/`max` of one changing value is (`min(x6 + t,
/// x1)`). A line is made with its own least and most values over the range
/// as its bounds, so every bound is a number and the value of a ramp that
/// does not change is `lo`. Every operation is checked: a value that would
/// leave 64 bits gives `None`, never a wrong value. The line itself stays
/// within 2^62 in size, so `slope * t + offset` cannot wrap for a `t` of 32
/// bits.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Ramp {
    slope: i64,
    offset: i64,
    lo: i64,
    hi: i64,
}

/// The largest offset of a [`Ramp`]'s line.
const RAMP_OFFSET_MAX: i64 = 1 << 62;

impl Ramp {
    /// The value `c`, whatever `t`.
    #[inline(always)]
    pub(crate) fn constant(c: i64) -> Ramp {
        Ramp {
            slope: 0,
            offset: c,
            lo: c,
            hi: c,
        }
    }

    /// `c + slope * t` for `t` in `first..=last` (`0 <= first <= last <
    /// 2^32`; `slope` 1: `t`; -1: `c - t`).
    #[inline(always)]
    pub(crate) fn line(c: i64, slope: i64, first: i64, last: i64) -> Option<Ramp> {
        if c.unsigned_abs() > RAMP_OFFSET_MAX as u64
            || !(0..1 << 32).contains(&first)
            || !(first..1 << 32).contains(&last)
            || slope.unsigned_abs() > 1
        {
            return None;
        }
        let (a, b) = (c + slope * first, c + slope * last);
        Some(Ramp {
            slope,
            offset: c,
            lo: a.min(b),
            hi: a.max(b),
        })
    }

    #[inline(always)]
    fn shifted(self, k: i64) -> Option<Ramp> {
        let offset = self.offset.checked_add(k)?;
        if offset.unsigned_abs() > RAMP_OFFSET_MAX as u64 {
            return None;
        }
        Some(Ramp {
            slope: self.slope,
            offset,
            lo: self.lo.checked_add(k)?,
            hi: self.hi.checked_add(k)?,
        })
    }

    #[inline(always)]
    fn negated(self) -> Option<Ramp> {
        Some(Ramp {
            slope: -self.slope,
            offset: self.offset.checked_neg()?,
            lo: self.hi.checked_neg()?,
            hi: self.lo.checked_neg()?,
        })
    }

    #[inline(always)]
    fn min(self, k: i64) -> Ramp {
        Ramp {
            lo: self.lo.min(k),
            hi: self.hi.min(k),
            ..self
        }
    }

    #[inline(always)]
    fn max(self, k: i64) -> Ramp {
        Ramp {
            lo: self.lo.max(k),
            hi: self.hi.max(k),
            ..self
        }
    }

    /// The value at `t`, for a `t` of the ramp's range (the least and the
    /// most over the range are at its ends: a ramp is monotone).
    #[inline(always)]
    pub(crate) fn at(&self, t: i64) -> i64 {
        // Cannot wrap (see the type): no check.
        self.slope
            .wrapping_mul(t)
            .wrapping_add(self.offset)
            .max(self.lo)
            .min(self.hi)
    }
}

/// How many values of a changing variable a [`SplitChain`] takes at once
/// ([`SplitChain::tail_batch`]).
pub(crate) const BATCH: usize = 16;

/// `acc[k] = acc[k] op b(k)` for every `k`; `false` where one faults. The
/// operator is matched once for the whole batch, not once per value.
#[inline(always)]
fn step_batch(op: B, acc: &mut [i64], b: impl Fn(usize) -> i64) -> bool {
    let mut bad = false;
    match op {
        B::Add => {
            for (k, a) in acc.iter_mut().enumerate() {
                let (r, o) = a.overflowing_add(b(k));
                *a = r;
                bad |= o;
            }
        }
        B::Sub => {
            for (k, a) in acc.iter_mut().enumerate() {
                let (r, o) = a.overflowing_sub(b(k));
                *a = r;
                bad |= o;
            }
        }
        B::Min => {
            for (k, a) in acc.iter_mut().enumerate() {
                *a = (*a).min(b(k));
            }
        }
        B::Max => {
            for (k, a) in acc.iter_mut().enumerate() {
                *a = (*a).max(b(k));
            }
        }
        _ => {
            for (k, a) in acc.iter_mut().enumerate() {
                match step_whole(op, *a, b(k)) {
                    Some(v) => *a = v,
                    None => return false,
                }
            }
        }
    }
    !bad
}

/// A whole-number program as nested closures on `i64` variables: each
/// operation is its own small function calling its operands' (so every call
/// site has one target, which the processor predicts, where an interpreter's
/// one dispatch guesses among all instructions). `None` where it faults.
type Closure = dyn Fn(&[i64]) -> Option<i64> + Send + Sync;

/// The longest whole-number program run as closures (instructions).
const NATIVE_MAX: usize = 64;

/// [`Closure`], cloneable and printable with the [`Code`] that holds it.
#[derive(Clone)]
struct Native(Arc<Closure>);

impl std::fmt::Debug for Native {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Native(..)")
    }
}

/// A value on the closures' stack while they are built: a constant or a
/// variable stays a leaf, read inside the operation that takes it (no call).
#[derive(Clone)]
enum Node {
    K(i64),
    V(usize),
    /// `x op y` of two variables, inlined into the operation that takes it
    /// (`min(x6 + x2, x1)` is one closure).
    Pair(B, usize, usize),
    F(Arc<Closure>),
}

impl Node {
    fn closure(self) -> Arc<Closure> {
        match self {
            Node::K(c) => Arc::new(move |_: &[i64]| Some(c)),
            Node::V(i) => Arc::new(move |v: &[i64]| v.get(i).copied()),
            Node::Pair(op, i, j) => Arc::new(pair(op, i, j)),
            Node::F(f) => f,
        }
    }
}

/// The closure of `vars[i] op vars[j]`.
fn pair(op: B, i: usize, j: usize) -> impl Fn(&[i64]) -> Option<i64> + Send + Sync + 'static {
    move |v: &[i64]| {
        let (x, y) = (*v.get(i)?, *v.get(j)?);
        match op {
            B::Add => x.checked_add(y),
            B::Sub => x.checked_sub(y),
            B::Min => Some(x.min(y)),
            B::Max => Some(x.max(y)),
            _ => apply(op, x, y).ok(),
        }
    }
}

impl Native {
    /// The closures of a whole-number program without jumps (`and`, `or` and
    /// chained comparisons jump, and stay interpreted): the program's stack of
    /// values becomes a stack of closures, each operation taking its operands'.
    fn of(code: &[W]) -> Option<Native> {
        // Closures nest as deep as the program is long, and run (and drop) by
        // recursion: a long program stays interpreted, off the thread's stack.
        if code.len() > NATIVE_MAX {
            return None;
        }
        let mut stack: Vec<Node> = Vec::new();
        for w in code {
            let node = match *w {
                W::Const(c) => Node::K(c),
                W::Var(i) => Node::V(i),
                W::Neg | W::Abs | W::Not | W::Isqrt => {
                    let a = stack.pop()?.closure();
                    Node::F(match *w {
                        W::Neg => Arc::new(move |v: &[i64]| a(v)?.checked_neg()),
                        W::Abs => Arc::new(move |v: &[i64]| a(v)?.checked_abs()),
                        W::Not => Arc::new(move |v: &[i64]| Some(i64::from(a(v)? == 0))),
                        _ => Arc::new(move |v: &[i64]| {
                            let x = a(v)?;
                            (x >= 0).then(|| isqrt(x as u128) as i64)
                        }),
                    })
                }
                W::Min(n) | W::Max(n) => {
                    let args: Vec<Arc<Closure>> = stack
                        .split_off(stack.len().checked_sub(n)?)
                        .into_iter()
                        .map(Node::closure)
                        .collect();
                    let min = matches!(w, W::Min(_));
                    Node::F(Arc::new(move |v: &[i64]| {
                        let mut best = args.first()?(v)?;
                        for a in &args[1..] {
                            let x = a(v)?;
                            best = if min { best.min(x) } else { best.max(x) };
                        }
                        Some(best)
                    }))
                }
                W::Bin(op) => {
                    let b = stack.pop()?;
                    let a = stack.pop()?;
                    Node::F(combine(op, a, b))
                }
                W::BinK(op, c) => Node::F(combine(op, stack.pop()?, Node::K(c))),
                W::BinV(op, j) => match stack.pop()? {
                    Node::V(i) => Node::Pair(op, i, j),
                    a => Node::F(combine(op, a, Node::V(j))),
                },
                W::JumpIfFalse(_) | W::JumpIfTrue(_) => return None,
            };
            stack.push(node);
        }
        match stack.pop() {
            Some(node) if stack.is_empty() => Some(Native(node.closure())),
            _ => None,
        }
    }
}

/// `a op b` as one closure, a leaf operand read in place.
fn combine(op: B, a: Node, b: Node) -> Arc<Closure> {
    let var = |i: usize| move |v: &[i64]| v.get(i).copied();
    let konst = |c: i64| move |_: &[i64]| Some(c);
    let call = |f: Arc<Closure>| move |v: &[i64]| f(v);
    match (a, b) {
        (Node::Pair(o, i, j), Node::V(k)) => binary(op, pair(o, i, j), var(k)),
        (Node::Pair(o, i, j), Node::K(c)) => binary(op, pair(o, i, j), konst(c)),
        (Node::V(k), Node::Pair(o, i, j)) => binary(op, var(k), pair(o, i, j)),
        (a @ Node::Pair(..), b) => combine(op, Node::F(a.closure()), b),
        (a, b @ Node::Pair(..)) => combine(op, a, Node::F(b.closure())),
        (Node::V(i), Node::V(j)) => binary(op, var(i), var(j)),
        (Node::V(i), Node::K(c)) => binary(op, var(i), konst(c)),
        (Node::V(i), Node::F(g)) => binary(op, var(i), call(g)),
        (Node::K(c), Node::V(j)) => binary(op, konst(c), var(j)),
        (Node::K(c), Node::K(d)) => binary(op, konst(c), konst(d)),
        (Node::K(c), Node::F(g)) => binary(op, konst(c), call(g)),
        (Node::F(f), Node::V(j)) => binary(op, call(f), var(j)),
        (Node::F(f), Node::K(c)) => binary(op, call(f), konst(c)),
        (Node::F(f), Node::F(g)) => binary(op, call(f), call(g)),
    }
}

/// The closure of `a op b`, both operands inlined into it, the usual operators
/// written out so each is its own code; the rest through [`apply`].
fn binary<L, R>(op: B, a: L, b: R) -> Arc<Closure>
where
    L: Fn(&[i64]) -> Option<i64> + Send + Sync + 'static,
    R: Fn(&[i64]) -> Option<i64> + Send + Sync + 'static,
{
    macro_rules! with {
        (|$x:ident, $y:ident| $e:expr) => {
            Arc::new(move |v: &[i64]| {
                let $x = a(v)?;
                let $y = b(v)?;
                $e
            })
        };
    }
    match op {
        B::Add => with!(|x, y| x.checked_add(y)),
        B::Sub => with!(|x, y| x.checked_sub(y)),
        B::Mul => with!(|x, y| x.checked_mul(y)),
        B::Min => with!(|x, y| Some(x.min(y))),
        B::Max => with!(|x, y| Some(x.max(y))),
        B::Xor => with!(|x, y| Some(x ^ y)),
        B::Cmp(CmpOp::Le) => with!(|x, y| Some(i64::from(x <= y))),
        B::Cmp(CmpOp::Lt) => with!(|x, y| Some(i64::from(x < y))),
        B::Cmp(CmpOp::Ge) => with!(|x, y| Some(i64::from(x >= y))),
        B::Cmp(CmpOp::Gt) => with!(|x, y| Some(i64::from(x > y))),
        B::Cmp(CmpOp::Eq) => with!(|x, y| Some(i64::from(x == y))),
        B::Cmp(CmpOp::Ne) => with!(|x, y| Some(i64::from(x != y))),
        _ => with!(|x, y| apply(op, x, y).ok()),
    }
}

/// The faster forms of a whole-number program.
#[derive(Clone, Debug)]
struct Fast {
    /// As closures, when it has no jumps.
    native: Option<Native>,
    /// As a [`Chain`], when it is one.
    chain: Option<Chain>,
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub(crate) struct Code {
    ops: Vec<Op>,
    whole: Option<Vec<W>>,
    /// The whole-number program's faster forms, when it has one (boxed: a
    /// [`Code`] is held in games and caps, which stay small).
    fast: Option<Box<Fast>>,
    /// The most values the program holds at once.
    depth: usize,
}

/// A value of the exact code: a rational, or the square root of a non-negative
/// rational (maybe irrational), kept symbolic so it is compared and rounded exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Value {
    Exact(Rational),
    Sqrt(Rational),
}

impl Value {
    const ZERO: Value = Value::Exact(Rational::ZERO);

    /// The rational; a square root here is a compiler bug (the parser lets it
    /// reach only rounding, min and max), reported as a fault rather than a panic.
    fn exact(self) -> Result<Rational, Fault> {
        match self {
            Value::Exact(q) => Ok(q),
            Value::Sqrt(q) => Err(Fault::NegativeSqrt(q)),
        }
    }

    pub(crate) fn floor(self) -> i128 {
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

    fn round(self) -> Result<i128, Fault> {
        match self {
            Value::Exact(q) => Ok(q.round()),
            Value::Sqrt(q) => {
                // sqrt(q) lies in [f, f+1); compare it with f + 1/2 by
                // comparing 4q with (2f+1)^2.
                let f = isqrt(q.floor() as u128) as i128;
                let four_q_num = q.numer().checked_mul(4).ok_or(Fault::Overflow)?;
                let odd = 2 * f + 1;
                let rhs = odd
                    .checked_mul(odd)
                    .and_then(|s| s.checked_mul(q.denom()))
                    .ok_or(Fault::Overflow)?;
                Ok(match four_q_num.cmp(&rhs) {
                    Ordering::Less => f,
                    Ordering::Greater => f + 1,
                    Ordering::Equal if f % 2 == 0 => f,
                    Ordering::Equal => f + 1,
                })
            }
        }
    }

    /// Exact comparison, square roots included.
    fn cmp(self, other: Value) -> Result<Ordering, Fault> {
        fn cmp_q(a: Rational, b: Rational) -> Result<Ordering, Fault> {
            if a.is_integer() && b.is_integer() {
                return Ok(a.numer().cmp(&b.numer()));
            }
            Ok(a.checked_cmp(b)?)
        }
        // sqrt(a) against an exact b: a negative b is smaller; else compare a with b^2.
        fn cmp_sqrt_q(a: Rational, b: Rational) -> Result<Ordering, Fault> {
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

    fn truth(self) -> bool {
        !matches!(self, Value::Exact(q) if q.numer() == 0)
    }
}

fn too_large() -> String {
    format!(
        "the expression is too large once its functions are written out (over {MAX_NODES} terms)"
    )
}

/// Emits postfix code for trees, writing functions out at their calls.
struct Emitter {
    ops: Vec<Op>,
}

impl Emitter {
    fn push(&mut self, op: Op) -> Result<(), String> {
        self.ops.push(op);
        if self.ops.len() > MAX_NODES {
            return Err(too_large());
        }
        Ok(())
    }

    /// `env`: the code of a function's arguments while its body is written out.
    fn emit(&mut self, ast: &Ast, env: Option<&[Vec<Op>]>) -> Result<(), String> {
        match ast {
            Ast::Const(q) => self.push(Op::Const(*q)),
            Ast::Var(i) => match env {
                None => self.push(Op::Var(*i)),
                Some(args) => {
                    self.ops.extend_from_slice(&args[*i]);
                    if self.ops.len() > MAX_NODES {
                        return Err(too_large());
                    }
                    Ok(())
                }
            },
            Ast::Neg(a) => {
                self.emit(a, env)?;
                self.push(Op::Neg)
            }
            Ast::Chain(first, links) => {
                self.emit(first, env)?;
                for (op, b) in links {
                    self.emit(b, env)?;
                    self.push(match op {
                        Bin::Add => Op::Add,
                        Bin::Sub => Op::Sub,
                        Bin::Mul => Op::Mul,
                        Bin::Div => Op::Div,
                        Bin::FloorDiv => Op::FloorDiv,
                        Bin::Mod => Op::Mod,
                        Bin::Xor => Op::Xor,
                        Bin::BitAnd => Op::BitAnd,
                        Bin::BitOr => Op::BitOr,
                    })?;
                }
                Ok(())
            }
            Ast::Pow(a, b) => {
                self.emit(a, env)?;
                self.emit(b, env)?;
                self.push(Op::Pow)
            }
            Ast::Call(f, args) => {
                for a in args {
                    self.emit(a, env)?;
                }
                let n = args.len();
                match f {
                    // floor(a / b), fused: whole numbers divide without a fraction.
                    Builtin::Floor | Builtin::Ceil => {
                        let fused = if *f == Builtin::Floor {
                            Op::FloorDiv
                        } else {
                            Op::CeilDiv
                        };
                        match self.ops.last_mut() {
                            Some(last) if *last == Op::Div => {
                                *last = fused;
                                Ok(())
                            }
                            _ => self.push(if *f == Builtin::Floor {
                                Op::Floor
                            } else {
                                Op::Ceil
                            }),
                        }
                    }
                    Builtin::Round => self.push(Op::Round),
                    Builtin::Sqrt => self.push(Op::Sqrt),
                    Builtin::Isqrt => self.push(Op::Isqrt),
                    Builtin::Abs => self.push(Op::Abs),
                    Builtin::Mod => self.push(Op::Mod),
                    Builtin::Min => self.push(Op::Min(n)),
                    Builtin::Max => self.push(Op::Max(n)),
                    Builtin::Xor => {
                        for _ in 1..n {
                            self.push(Op::Xor)?;
                        }
                        Ok(())
                    }
                }
            }
            Ast::Apply(f, args) => {
                let mut codes = Vec::with_capacity(args.len());
                for a in args {
                    let mut sub = Emitter { ops: Vec::new() };
                    sub.emit(a, env)?;
                    codes.push(sub.ops);
                }
                self.emit(&f.body, Some(&codes))
            }
            Ast::Compare(first, links) => {
                // a < b < c: each link compares, and a false link ends the chain.
                let mut jumps = Vec::new();
                let mut left: &Ast = first;
                for (i, (op, right)) in links.iter().enumerate() {
                    self.emit(left, env)?;
                    self.emit(right, env)?;
                    self.push(Op::Cmp(*op))?;
                    if i + 1 < links.len() {
                        jumps.push(self.ops.len());
                        self.push(Op::JumpIfFalse(0))?;
                    }
                    left = right;
                }
                self.patch(jumps, true);
                Ok(())
            }
            Ast::Not(a) => {
                self.emit(a, env)?;
                self.push(Op::Not)
            }
            Ast::All(parts) | Ast::Any(parts) => {
                let all = matches!(ast, Ast::All(_));
                let mut jumps = Vec::new();
                for (i, p) in parts.iter().enumerate() {
                    self.emit(p, env)?;
                    if i + 1 < parts.len() {
                        jumps.push(self.ops.len());
                        self.push(if all {
                            Op::JumpIfFalse(0)
                        } else {
                            Op::JumpIfTrue(0)
                        })?;
                    }
                }
                self.patch(jumps, all);
                Ok(())
            }
        }
    }

    /// Points the jumps at `jumps` past the end of the code so far.
    fn patch(&mut self, jumps: Vec<usize>, if_false: bool) {
        let end = self.ops.len();
        for j in jumps {
            let ahead = end - j - 1;
            self.ops[j] = if if_false {
                Op::JumpIfFalse(ahead)
            } else {
                Op::JumpIfTrue(ahead)
            };
        }
    }
}

/// The stack a postfix program needs: the most values it holds at once (a jump
/// is counted as the pop of its fall-through, which holds at least as many).
fn stack_depth(ops: &[Op]) -> usize {
    let (mut held, mut most) = (0usize, 0usize);
    for op in ops {
        match op {
            Op::Const(_) | Op::Var(_) => held += 1,
            Op::Neg
            | Op::Floor
            | Op::Ceil
            | Op::Round
            | Op::Sqrt
            | Op::Isqrt
            | Op::Abs
            | Op::Not => {}
            Op::Min(n) | Op::Max(n) => held -= n - 1,
            _ => held -= 1,
        }
        most = most.max(held);
    }
    most
}

/// The whole-number program of `ops`, when it has one: no bare `/`, no `sqrt`,
/// every constant a whole number of 64 bits.
fn whole_program(ops: &[Op]) -> Option<Vec<W>> {
    let mut out = Vec::with_capacity(ops.len());
    // Jumps count instructions: where one is dropped (floor of a whole number),
    // the jumps over it are shortened.
    let mut kept_index = Vec::with_capacity(ops.len() + 1);
    for op in ops {
        kept_index.push(out.len());
        let w = match *op {
            Op::Const(q) if q.is_integer() => W::Const(i64::try_from(q.numer()).ok()?),
            Op::Const(_) | Op::Div | Op::Sqrt => return None,
            Op::Var(i) => W::Var(i),
            Op::Neg => W::Neg,
            Op::Add => W::Bin(B::Add),
            Op::Sub => W::Bin(B::Sub),
            Op::Mul => W::Bin(B::Mul),
            Op::FloorDiv => W::Bin(B::FloorDiv),
            Op::CeilDiv => W::Bin(B::CeilDiv),
            Op::Mod => W::Bin(B::Mod),
            Op::Pow => W::Bin(B::Pow),
            Op::Xor => W::Bin(B::Xor),
            Op::BitAnd => W::Bin(B::BitAnd),
            Op::BitOr => W::Bin(B::BitOr),
            Op::Isqrt => W::Isqrt,
            Op::Abs => W::Abs,
            Op::Min(2) => W::Bin(B::Min),
            Op::Max(2) => W::Bin(B::Max),
            Op::Min(n) => W::Min(n),
            Op::Max(n) => W::Max(n),
            Op::Cmp(c) => W::Bin(B::Cmp(c)),
            Op::Not => W::Not,
            Op::JumpIfFalse(n) => W::JumpIfFalse(n),
            Op::JumpIfTrue(n) => W::JumpIfTrue(n),
            Op::Floor | Op::Ceil | Op::Round => continue,
        };
        out.push(w);
    }
    kept_index.push(out.len());
    for (i, op) in ops.iter().enumerate() {
        if let Op::JumpIfFalse(n) | Op::JumpIfTrue(n) = *op {
            let from = kept_index[i];
            let ahead = kept_index[i + 1 + n] - from - 1;
            out[from] = match out[from] {
                W::JumpIfFalse(_) => W::JumpIfFalse(ahead),
                _ => W::JumpIfTrue(ahead),
            };
        }
    }
    Some(fuse(out))
}

/// Folds a constant or a variable pushed just before a binary operator into
/// it (`Const(3), Bin(Add)` is `BinK(Add, 3)`), unless a jump lands between them.
fn fuse(code: Vec<W>) -> Vec<W> {
    let mut landing = vec![false; code.len() + 1];
    for (i, w) in code.iter().enumerate() {
        if let W::JumpIfFalse(n) | W::JumpIfTrue(n) = *w {
            landing[i + 1 + n] = true;
        }
    }
    let mut out = Vec::with_capacity(code.len());
    let mut map = vec![0usize; code.len() + 1];
    let mut i = 0;
    while i < code.len() {
        map[i] = out.len();
        if let (Some(W::Bin(op)), false) = (code.get(i + 1), landing[i + 1]) {
            let fused = match code[i] {
                W::Const(c) => Some(W::BinK(*op, c)),
                W::Var(v) => Some(W::BinV(*op, v)),
                _ => None,
            };
            if let Some(f) = fused {
                map[i + 1] = out.len();
                out.push(f);
                i += 2;
                continue;
            }
        }
        out.push(code[i]);
        i += 1;
    }
    map[code.len()] = out.len();
    for (i, w) in code.iter().enumerate() {
        if let W::JumpIfFalse(n) | W::JumpIfTrue(n) = *w {
            let from = map[i];
            let ahead = map[i + 1 + n] - from - 1;
            out[from] = match w {
                W::JumpIfFalse(_) => W::JumpIfFalse(ahead),
                _ => W::JumpIfTrue(ahead),
            };
        }
    }
    out
}

/// `a op b` on `i64`, every operation checked.
#[inline(always)]
fn apply(op: B, a: i64, b: i64) -> Result<i64, Fault> {
    Ok(match op {
        B::Add => a.checked_add(b).ok_or(Fault::Overflow64("+", a, b))?,
        B::Sub => a.checked_sub(b).ok_or(Fault::Overflow64("-", a, b))?,
        B::Mul => a.checked_mul(b).ok_or(Fault::Overflow64("*", a, b))?,
        B::Min => a.min(b),
        B::Max => a.max(b),
        B::FloorDiv => floor_div_i64(a, b)?,
        B::CeilDiv => {
            let f = floor_div_i64(a, b)?;
            if a % b == 0 {
                f
            } else {
                f.checked_add(1).ok_or(Fault::Overflow64("ceil", a, b))?
            }
        }
        B::Mod => {
            let f = floor_div_i64(a, b)?;
            a.checked_sub(b.checked_mul(f).ok_or(Fault::Overflow64("%", a, b))?)
                .ok_or(Fault::Overflow64("%", a, b))?
        }
        B::Pow => {
            let e =
                u32::try_from(b).map_err(|_| Fault::FractionalExponent(Rational::int(b.into())))?;
            a.checked_pow(e).ok_or(Fault::Overflow64("**", a, b))?
        }
        B::Xor => a ^ b,
        B::BitAnd => a & b,
        B::BitOr => a | b,
        B::Cmp(c) => i64::from(c.holds(a, b)),
    })
}

/// `floor(n / d)` of `i64`s.
fn floor_div_i64(n: i64, d: i64) -> Result<i64, Fault> {
    if d == 0 {
        return Err(Fault::DivisionByZero);
    }
    let q = n.checked_div(d).ok_or(Fault::Overflow64("//", n, d))?;
    Ok(if n % d != 0 && ((n < 0) != (d < 0)) {
        q - 1
    } else {
        q
    })
}

/// The variables' values on `i64`: one past it goes to the exact code.
#[inline]
fn var64<V: Copy + Into<i128>>(v: V) -> Result<i64, Fault> {
    i64::try_from(v.into()).map_err(|_| Fault::Overflow)
}

/// Runs a whole-number program on `stack` (at least its depth long).
fn run_whole<V: Copy + Into<i128>>(
    code: &[W],
    vars: &[V],
    stack: &mut [i64],
) -> Result<i64, Fault> {
    let mut top = 0usize;
    let mut pc = 0usize;
    while pc < code.len() {
        let op = code[pc];
        pc += 1;
        match op {
            W::Const(c) => {
                stack[top] = c;
                top += 1;
            }
            W::Var(i) => {
                stack[top] = var64(vars[i])?;
                top += 1;
            }
            W::BinK(op, b) => stack[top - 1] = apply(op, stack[top - 1], b)?,
            W::BinV(op, i) => stack[top - 1] = apply(op, stack[top - 1], var64(vars[i])?)?,
            W::Bin(op) => {
                top -= 1;
                stack[top - 1] = apply(op, stack[top - 1], stack[top])?;
            }
            W::Neg => {
                let a = stack[top - 1];
                stack[top - 1] = a.checked_neg().ok_or(Fault::Overflow64("-()", a, 0))?;
            }
            W::Abs => {
                let a = stack[top - 1];
                stack[top - 1] = a.checked_abs().ok_or(Fault::Overflow64("abs", a, 0))?;
            }
            W::Not => stack[top - 1] = i64::from(stack[top - 1] == 0),
            W::Isqrt => {
                let a = stack[top - 1];
                if a < 0 {
                    return Err(Fault::NegativeIsqrt);
                }
                stack[top - 1] = isqrt(a as u128) as i64;
            }
            W::Min(n) | W::Max(n) => {
                let args = &stack[top - n..top];
                let v = if matches!(op, W::Min(_)) {
                    args.iter().copied().min()
                } else {
                    args.iter().copied().max()
                }
                .expect("two or more arguments");
                top -= n - 1;
                stack[top - 1] = v;
            }
            W::JumpIfFalse(ahead) => {
                if stack[top - 1] == 0 {
                    pc += ahead;
                } else {
                    top -= 1;
                }
            }
            W::JumpIfTrue(ahead) => {
                if stack[top - 1] != 0 {
                    pc += ahead;
                } else {
                    top -= 1;
                }
            }
        }
    }
    Ok(stack[0])
}

/// Runs the exact code on `stack` (at least its depth long).
fn run_exact<V: Copy + Into<i128>>(
    ops: &[Op],
    vars: &[V],
    stack: &mut [Value],
) -> Result<Value, Fault> {
    let int = |q: Rational| -> Result<i128, Fault> {
        if q.is_integer() {
            Ok(q.numer())
        } else {
            Err(Fault::FractionalBits(q))
        }
    };
    let mut top = 0usize;
    let mut pc = 0usize;
    while pc < ops.len() {
        let op = ops[pc];
        pc += 1;
        match op {
            Op::Const(q) => {
                stack[top] = Value::Exact(q);
                top += 1;
            }
            Op::Var(i) => {
                stack[top] = Value::Exact(Rational::int(vars[i].into()));
                top += 1;
            }
            Op::Floor | Op::Ceil | Op::Round | Op::Sqrt => {
                let a = stack[top - 1];
                stack[top - 1] = match op {
                    Op::Floor => Value::Exact(Rational::int(a.floor())),
                    Op::Ceil => Value::Exact(Rational::int(a.ceil())),
                    Op::Round => Value::Exact(Rational::int(a.round()?)),
                    _ => {
                        let q = a.exact()?;
                        if q.numer() < 0 {
                            return Err(Fault::NegativeSqrt(q));
                        }
                        Value::Sqrt(q)
                    }
                };
            }
            Op::Neg | Op::Abs | Op::Isqrt | Op::Not => {
                let a = stack[top - 1];
                stack[top - 1] = match op {
                    Op::Not => Value::Exact(Rational::int(i128::from(!a.truth()))),
                    _ => {
                        let q = a.exact()?;
                        Value::Exact(match op {
                            Op::Neg => q.checked_neg()?,
                            Op::Abs if q.numer() < 0 => q.checked_neg()?,
                            Op::Abs => q,
                            _ => {
                                let n = q.floor();
                                if n < 0 {
                                    return Err(Fault::NegativeIsqrt);
                                }
                                Rational::int(isqrt(n as u128) as i128)
                            }
                        })
                    }
                };
            }
            Op::Min(n) | Op::Max(n) => {
                let want = if matches!(op, Op::Min(_)) {
                    Ordering::Less
                } else {
                    Ordering::Greater
                };
                let mut best = stack[top - n];
                for &v in &stack[top - n + 1..top] {
                    if v.cmp(best)? == want {
                        best = v;
                    }
                }
                top -= n - 1;
                stack[top - 1] = best;
            }
            Op::JumpIfFalse(ahead) => {
                if !stack[top - 1].truth() {
                    pc += ahead;
                } else {
                    top -= 1;
                }
            }
            Op::JumpIfTrue(ahead) => {
                if stack[top - 1].truth() {
                    pc += ahead;
                } else {
                    top -= 1;
                }
            }
            Op::Cmp(c) => {
                let (a, b) = (stack[top - 2], stack[top - 1]);
                top -= 1;
                stack[top - 1] = Value::Exact(Rational::int(i128::from(c.holds_for(a.cmp(b)?))));
            }
            _ => {
                let (a, b) = (stack[top - 2].exact()?, stack[top - 1].exact()?);
                top -= 1;
                stack[top - 1] = Value::Exact(match op {
                    Op::Add => a.checked_add(b)?,
                    Op::Sub => a.checked_sub(b)?,
                    Op::Mul if a.is_integer() && b.is_integer() => {
                        Rational::int(a.numer().checked_mul(b.numer()).ok_or(Fault::Overflow)?)
                    }
                    Op::Mul => a.checked_mul(b)?,
                    Op::Div => a.checked_div(b)?,
                    Op::FloorDiv => floor_div(a, b)?,
                    Op::CeilDiv => Rational::int(a.checked_div(b)?.ceil()),
                    // a - b floor(a/b), the sign of b (Mathematica's Mod, Python's %).
                    Op::Mod => a.checked_sub(b.checked_mul(floor_div(a, b)?)?)?,
                    Op::Pow => {
                        if !b.is_integer() {
                            return Err(Fault::FractionalExponent(b));
                        }
                        a.checked_pow(b.numer())?
                    }
                    Op::Xor => Rational::int(int(a)? ^ int(b)?),
                    Op::BitAnd => Rational::int(int(a)? & int(b)?),
                    Op::BitOr => Rational::int(int(a)? | int(b)?),
                    _ => unreachable!("the other instructions are handled above"),
                });
            }
        }
    }
    Ok(stack[0])
}

/// `floor(a / b)`, whole numbers divided directly.
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

impl Code {
    /// Compiles a tree (functions written out, at most [`MAX_NODES`] instructions).
    pub(crate) fn compile(ast: &Ast) -> Result<Code, String> {
        let mut e = Emitter { ops: Vec::new() };
        e.emit(ast, None)?;
        let depth = stack_depth(&e.ops);
        let whole = whole_program(&e.ops);
        let chain = whole.as_deref().and_then(Chain::of);
        let native = whole.as_deref().and_then(Native::of);
        let fast = (chain.is_some() || native.is_some()).then(|| Box::new(Fast { native, chain }));
        Ok(Code {
            ops: e.ops,
            whole,
            fast,
            depth,
        })
    }

    /// The whole-number program as a [`SplitChain`] when it is a [`Chain`]:
    /// cut before its first operand that reads a variable for which `changes`
    /// holds.
    pub(crate) fn split_chain(&self, changes: impl Fn(usize) -> bool) -> Option<SplitChain> {
        let chain = self.fast.as_deref()?.chain.as_ref()?;
        let reads_changing = |o: Operand| matches!(o, Operand::V(i) if changes(i));
        // A chain that starts with a sum (`x1 + x3 + 1`, `t - 1`): the sum's
        // terms that do not change are added first, into the head, so the
        // tail adds only those that do. A sum is the same in any order, and
        // an overflow on the way (in either order) reruns on exact fractions,
        // as always: the value is the chain's.
        let run = chain
            .steps
            .iter()
            .take_while(|(op, _)| matches!(op, B::Add | B::Sub))
            .count();
        let terms: Vec<(bool, Operand)> = std::iter::once((false, chain.first))
            .chain(chain.steps[..run].iter().map(|&(op, o)| (op == B::Sub, o)))
            .collect();
        let (changing, fixed): (Vec<_>, Vec<_>) =
            terms.iter().partition(|(_, o)| reads_changing(*o));
        let in_order = terms
            .iter()
            .position(|(_, o)| reads_changing(*o))
            .is_none_or(|at| terms[at..].iter().all(|(_, o)| reads_changing(*o)));
        if !changing.is_empty() && !fixed.is_empty() && !in_order {
            let as_step = |&(minus, o): &(bool, Operand)| (if minus { B::Sub } else { B::Add }, o);
            let (first, head) = match fixed[0] {
                (false, o) => (o, fixed[1..].iter().map(as_step).collect()),
                (true, _) => (Operand::K(0), fixed.iter().map(as_step).collect()),
            };
            return Some(SplitChain::new(
                Some(first),
                head,
                None,
                changing
                    .iter()
                    .map(as_step)
                    .chain(chain.steps[run..].iter().copied())
                    .collect(),
            ));
        }
        if reads_changing(chain.first) {
            return Some(SplitChain::new(
                None,
                Vec::new(),
                Some(chain.first),
                chain.steps.clone(),
            ));
        }
        let cut = chain
            .steps
            .iter()
            .position(|&(_, o)| reads_changing(o))
            .unwrap_or(chain.steps.len());
        Some(SplitChain::new(
            Some(chain.first),
            chain.steps[..cut].to_vec(),
            None,
            chain.steps[cut..].to_vec(),
        ))
    }

    /// Whether the program reads variable `var` (functions written out).
    pub(crate) fn reads_var(&self, var: usize) -> bool {
        self.ops.contains(&Op::Var(var))
    }

    /// The variable the program is, when it is one and nothing else.
    pub(crate) fn only_var(&self) -> Option<usize> {
        match self.ops.as_slice() {
            [Op::Var(i)] => Some(*i),
            _ => None,
        }
    }

    /// [`Code::eval_whole`] on `i64` variables, by the closures where the
    /// program has them (the same operations, checked alike).
    #[inline]
    pub(crate) fn eval_whole_i64(&self, vars: &[i64]) -> Option<i64> {
        match self.fast.as_deref().and_then(|f| f.native.as_ref()) {
            Some(f) => (f.0)(vars),
            None => self.eval_whole(vars),
        }
    }

    /// Whether the whole-number program runs as closures (tests).
    #[cfg(test)]
    pub(crate) fn is_native(&self) -> bool {
        self.fast.as_ref().is_some_and(|f| f.native.is_some())
    }

    /// Whether the whole-number program runs as a [`Chain`] (tests).
    #[cfg(test)]
    pub(crate) fn is_chain(&self) -> bool {
        self.fast.as_ref().is_some_and(|f| f.chain.is_some())
    }

    /// The most values the program holds at once while it runs.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// Whether the program runs on 64-bit integers (no bare `/`, no `sqrt`, whole constants).
    #[cfg(test)]
    pub(crate) fn is_whole(&self) -> bool {
        self.whole.is_some()
    }

    /// The value on `i64` alone (claims): any overflow is the fault.
    pub(crate) fn eval_i64<V: Copy + Into<i128>>(&self, vars: &[V]) -> Result<i64, Fault> {
        if let Some(chain) = self.fast.as_deref().and_then(|f| f.chain.as_ref()) {
            return chain.run(vars);
        }
        let code = self
            .whole
            .as_deref()
            .expect("a claim compiles to whole numbers");
        if self.depth <= STACK {
            run_whole(code, vars, &mut [0i64; STACK])
        } else {
            run_whole(code, vars, &mut vec![0i64; self.depth])
        }
    }

    /// The exact value: the whole-number program first, the exact code where it
    /// cannot decide.
    #[cfg(test)]
    pub(crate) fn eval<V: Copy + Into<i128>>(&self, vars: &[V]) -> Result<Value, Fault> {
        if let Some(v) = self.eval_whole(vars) {
            return Ok(Value::Exact(Rational::int(i128::from(v))));
        }
        self.eval_exact(vars)
    }

    /// The value floored to an integer (a coordinate, a bound, a cap).
    #[inline]
    pub(crate) fn floor<V: Copy + Into<i128>>(&self, vars: &[V]) -> Result<i128, Fault> {
        if let Some(v) = self.eval_whole(vars) {
            return Ok(i128::from(v));
        }
        Ok(self.eval_exact(vars)?.floor())
    }

    /// Whether a condition holds (a number holds where it is not zero).
    #[inline]
    pub(crate) fn holds<V: Copy + Into<i128>>(&self, vars: &[V]) -> Result<bool, Fault> {
        if let Some(v) = self.eval_whole(vars) {
            return Ok(v != 0);
        }
        Ok(self.eval_exact(vars)?.truth())
    }

    /// The exact code alone.
    pub(crate) fn eval_exact<V: Copy + Into<i128>>(&self, vars: &[V]) -> Result<Value, Fault> {
        if self.depth <= STACK {
            run_exact(&self.ops, vars, &mut [Value::ZERO; STACK])
        } else {
            run_exact(&self.ops, vars, &mut vec![Value::ZERO; self.depth])
        }
    }

    /// The value on `i64`, when the program has whole values throughout and
    /// nothing overflows; `None` sends the caller to the exact code.
    #[inline]
    pub(crate) fn eval_whole<V: Copy + Into<i128>>(&self, vars: &[V]) -> Option<i64> {
        if let Some(chain) = self.fast.as_deref().and_then(|f| f.chain.as_ref()) {
            return chain.run_whole(vars);
        }
        let code = self.whole.as_deref()?;
        // A plain variable (`t`, `y`) needs no program; a shallow one a small stack.
        if let [W::Var(i)] = code {
            return var64(vars[*i]).ok();
        }
        if self.depth <= 8 {
            run_whole(code, vars, &mut [0i64; 8]).ok()
        } else if self.depth <= STACK {
            run_whole(code, vars, &mut [0i64; STACK]).ok()
        } else {
            run_whole(code, vars, &mut vec![0i64; self.depth]).ok()
        }
    }
}
