//! The translation of the prover's logic into a MONA program (WS1S), and the
//! reading of MONA's answer.
//!
//! **Numbers as sets of bit positions.** A natural number `n` is the finite set
//! of the positions of its one bits (`6` is `{1, 2}`), a second-order variable
//! of weak monadic second-order logic with one successor (WS1S). An integer
//! that may be negative is a pair `(s, X)` of a sign (a Boolean, `var0`) and a
//! finite set: its bit at position `p` is `s xor (p in X)`, so `s` is the bit
//! its two's-complement expansion ends in (`-1` is `(true, {})`, `-2` is
//! `(true, {0})`). Every integer has exactly one such pair.
//!
//! **Every operation is a relation that defines its result uniquely**: addition
//! through a carry sequence (itself a sign and a finite set), comparison by
//! the highest differing bit, the bitwise operations position by position,
//! multiplication by a constant as shifts and additions, `q = floor(a / c)` as
//! `a = c*q + r` with `0 <= r < c`, `min`, `max` and `abs` by cases. Each
//! comparison of the source formula becomes `ex0 signs; ex2 values: the
//! definitions of its terms & the comparison`: because every definition has
//! exactly one solution, the existential is exact under negation too.
//!
//! Variables of the source formula range over the naturals; they become
//! second-order variables named `v_NAME`, and their quantifiers `ex2` / `all2`.

use super::ir::{CmpOp, Formula, Term};
use std::fmt::Write as _;

/// The predicates every program starts with (after `ws1s;`).
pub const PRELUDE: &str = "\
# Natural numbers: finite sets of the positions of their one bits.
pred nadd(var2 A, var2 B, var2 R) = ex2 C: (0 notin C) & (all1 p:
  ((p+1 in C) <=> ((p in A & p in B) | (p in A & p in C) | (p in B & p in C)))
  & ((p in R) <=> ((p in A) <=> ((p in B) <=> (p in C)))));
pred nlt(var2 A, var2 B) = ex1 p: p in B & p notin A & (all1 q: q > p => ((q in A) <=> (q in B)));
pred nshl(var2 A, var2 R) = (0 notin R) & (all1 p: (p+1 in R) <=> (p in A));
pred nxor(var2 A, var2 B, var2 R) = all1 p: (p in R) <=> ~((p in A) <=> (p in B));
pred nand(var2 A, var2 B, var2 R) = all1 p: (p in R) <=> ((p in A) & (p in B));
pred nor(var2 A, var2 B, var2 R) = all1 p: (p in R) <=> ((p in A) | (p in B));
# Integers: a sign s and a finite set X; the bit at p is s xor (p in X).
pred sbit(var1 p, var0 s, var2 X) = (p in X) <=> ~s;
pred sadd(var0 sa, var2 A, var0 sb, var2 B, var0 sr, var2 R) = ex0 cs: ex2 C:
  ((0 in C) <=> cs) & (all1 p:
  (sbit(p+1, cs, C) <=> ((sbit(p, sa, A) & sbit(p, sb, B)) | (sbit(p, sa, A) & sbit(p, cs, C)) | (sbit(p, sb, B) & sbit(p, cs, C))))
  & (sbit(p, sr, R) <=> (sbit(p, sa, A) <=> (sbit(p, sb, B) <=> sbit(p, cs, C)))));
pred slt(var0 sa, var2 A, var0 sb, var2 B) = (sa & ~sb) | ((sa <=> sb) & (ex1 p: ~sbit(p, sa, A) & sbit(p, sb, B)
  & (all1 q: q > p => (sbit(q, sa, A) <=> sbit(q, sb, B)))));
pred seq(var0 sa, var2 A, var0 sb, var2 B) = (sa <=> sb) & A = B;
pred sshl(var0 sa, var2 A, var0 sr, var2 R) = (sr <=> sa) & ~sbit(0, sr, R) & (all1 p: sbit(p+1, sr, R) <=> sbit(p, sa, A));
pred sxor(var0 sa, var2 A, var0 sb, var2 B, var0 sr, var2 R) = (sr <=> ~(sa <=> sb)) & (all1 p: sbit(p, sr, R) <=> ~(sbit(p, sa, A) <=> sbit(p, sb, B)));
pred sand(var0 sa, var2 A, var0 sb, var2 B, var0 sr, var2 R) = (sr <=> (sa & sb)) & (all1 p: sbit(p, sr, R) <=> (sbit(p, sa, A) & sbit(p, sb, B)));
pred sor(var0 sa, var2 A, var0 sb, var2 B, var0 sr, var2 R) = (sr <=> (sa | sb)) & (all1 p: sbit(p, sr, R) <=> (sbit(p, sa, A) | sbit(p, sb, B)));
";

/// Why a formula could not be translated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranslateError(pub String);

impl std::fmt::Display for TranslateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The MONA name of a source variable.
pub fn var_name(v: &str) -> String {
    format!("v_{v}")
}

/// Whether `v` can be a variable name (letters, digits, `_`, not first a digit).
pub fn is_valid_name(v: &str) -> bool {
    let mut chars = v.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The largest divisor with a predicate of its own (its text grows with it).
const MAX_DIVISOR_PREDICATE: i64 = 1024;

/// `div_c(A, Q)`: `Q = floor(A / c)` for naturals, as one carry automaton
/// reading the bits from the lowest: `A = c*Q + R` with `R < c`, where at
/// each position `p` the carry `k` (at most `c + 1`, in binary in the sets
/// `K0, K1, ...`) and the bits give `t = c*q_p + r_p + k`, whose parity is
/// `a_p` and whose half is the next carry. One small automaton instead of a
/// chain of additions, so large divisors stay fast.
fn division_predicate(c: i64) -> String {
    let max_carry = c + 1;
    let bits = (64 - max_carry.leading_zeros()) as usize;
    let carry_sets: Vec<String> = (0..bits).map(|i| format!("K{i}")).collect();
    let carry_is = |value: i64, at: &str| -> String {
        (0..bits)
            .map(|i| {
                if (value >> i) & 1 == 1 {
                    format!("{at} in K{i}")
                } else {
                    format!("{at} notin K{i}")
                }
            })
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let mut cases = Vec::new();
    for k in 0..=max_carry {
        for q in 0..2 {
            for r in 0..2 {
                let t = c * q + r + k;
                let bit = |set: &str, on: bool| {
                    if on {
                        format!("p in {set}")
                    } else {
                        format!("p notin {set}")
                    }
                };
                cases.push(format!(
                    "({} & {} & {} & {} & {})",
                    carry_is(k, "p"),
                    bit("Q", q == 1),
                    bit("R", r == 1),
                    bit("A", t & 1 == 1),
                    carry_is(t >> 1, "p+1")
                ));
            }
        }
    }
    format!(
        "pred div_{c}(var2 A, var2 Q) = ex2 R, {}: (ex2 D: D = {} & nlt(R, D)) & {} & (all1 p:\n  {});\n",
        carry_sets.join(", "),
        set_literal(c as u128),
        carry_is(0, "0"),
        cases.join("\n  | ")
    )
}

/// A MONA program deciding whether `formula` holds for all naturals assigned
/// to `free` (its free variables, declared `var2` so that MONA names a
/// counter-example by their values).
pub fn program(formula: &Formula, free: &[String]) -> Result<String, TranslateError> {
    for v in free {
        if !is_valid_name(v) {
            return Err(TranslateError(format!(
                "'{v}' cannot be a variable name (letters, digits and _)"
            )));
        }
    }
    let mut t = Translator::default();
    let body = t.formula(formula)?;
    let mut out = String::from("ws1s;\n");
    out.push_str(PRELUDE);
    for &c in &t.divisors {
        out.push_str(&division_predicate(c));
    }
    if !free.is_empty() {
        let names: Vec<String> = free.iter().map(|v| var_name(v)).collect();
        let _ = writeln!(out, "var2 {};", names.join(", "));
    }
    let _ = writeln!(out, "{body};");
    Ok(out)
}

/// A comparison with a floor division `floor(e / k)` (`k >= 2`) on one side,
/// written without the quotient: for every integer `a` and `e`,
/// `a <= floor(e/k)` iff `k*a <= e` and `floor(e/k) < a` iff `e < k*a`
/// (`floor(e/k)` is the largest `q` with `k*q <= e`). No quotient to
/// quantify, and `k*a` is a few shifts and additions. `None` when neither
/// side is such a division.
pub fn without_floor_division(op: CmpOp, a: &Term, b: &Term) -> Option<Formula> {
    let division = |t: &Term| match t {
        Term::FloorDiv(e, k) if *k >= 2 => Some((e.as_ref().clone(), *k)),
        _ => None,
    };
    // `other <= floor(e/k)` and `floor(e/k) < other`, `other` any term.
    let le = |other: Term, e: Term, k: i64| other.times(k).le(e);
    let lt_other = |e: Term, k: i64, other: Term| e.lt(other.times(k));
    // Flip so that the division is on the right: `a op floor(e/k)`.
    let (op, other, (e, k)) = match (division(a), division(b)) {
        (_, Some(d)) => (op, a.clone(), d),
        (Some(d), None) => (flip(op), b.clone(), d),
        (None, None) => return None,
    };
    let one_more = || other.clone().add(Term::Const(1));
    Some(match op {
        // a <= q
        CmpOp::Le => le(other, e, k),
        // a < q  iff  a + 1 <= q
        CmpOp::Lt => le(one_more(), e, k),
        // a > q  iff  q < a
        CmpOp::Gt => lt_other(e, k, other),
        // a >= q  iff  q < a + 1
        CmpOp::Ge => lt_other(e, k, one_more()),
        CmpOp::Eq => Formula::and([le(other.clone(), e.clone(), k), lt_other(e, k, one_more())]),
        CmpOp::Ne => {
            Formula::and([le(other.clone(), e.clone(), k), lt_other(e, k, one_more())]).not()
        }
    })
}

/// `b op' a` saying the same as `a op b`.
fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Ge => CmpOp::Le,
        CmpOp::Eq => CmpOp::Eq,
        CmpOp::Ne => CmpOp::Ne,
    }
}

/// The non-adjacent form of `n >= 1`: digits in `{-1, 0, 1}`, lowest first,
/// no two adjacent non-zero (`29 = 32 - 4 + 1`). Its partial sums from the
/// highest digit down are all positive (the digits below position `j` sum to
/// less than `2^j * 2/3` in magnitude), so for a natural `a` every partial
/// product is natural too.
fn non_adjacent_form(mut n: u128) -> Vec<i8> {
    let mut digits = Vec::new();
    while n > 0 {
        if n & 1 == 1 {
            let digit: i8 = if n & 3 == 3 { -1 } else { 1 };
            digits.push(digit);
            if digit == 1 {
                n -= 1;
            } else {
                n += 1;
            }
        } else {
            digits.push(0);
        }
        n >>= 1;
    }
    digits
}

/// The sign of a translated term's value.
#[derive(Clone, Debug)]
enum Sign {
    /// Known non-negative: the value is a plain set.
    Natural,
    /// The sign is this `var0`.
    Var(String),
}

/// A translated term: its sign and the `var2` holding its bits.
#[derive(Clone, Debug)]
struct Val {
    sign: Sign,
    set: String,
}

/// The definitions one comparison needs, and a counter for fresh names.
#[derive(Default)]
struct Translator {
    fresh: usize,
    /// Divisors `c` whose `div_c` predicate the program needs.
    divisors: std::collections::BTreeSet<i64>,
    signs: Vec<String>,
    sets: Vec<String>,
    defs: Vec<String>,
}

fn set_literal(n: u128) -> String {
    let bits: Vec<String> = (0..128)
        .filter(|b| (n >> b) & 1 == 1)
        .map(|b| b.to_string())
        .collect();
    format!("{{{}}}", bits.join(","))
}

impl Translator {
    fn formula(&mut self, f: &Formula) -> Result<String, TranslateError> {
        Ok(match f {
            Formula::True => "true".into(),
            Formula::False => "false".into(),
            Formula::Cmp(op, a, b) => match without_floor_division(*op, a, b) {
                Some(rewritten) => self.formula(&rewritten)?,
                None => self.atom(*op, a, b)?,
            },
            Formula::Not(a) => format!("~({})", self.formula(a)?),
            Formula::And(all) => self.join(all, "&", "true")?,
            Formula::Or(all) => self.join(all, "|", "false")?,
            Formula::Implies(a, b) => format!("({} => {})", self.formula(a)?, self.formula(b)?),
            Formula::Iff(a, b) => format!("({} <=> {})", self.formula(a)?, self.formula(b)?),
            Formula::Exists(vars, body) | Formula::Forall(vars, body) => {
                for v in vars {
                    if !is_valid_name(v) {
                        return Err(TranslateError(format!(
                            "'{v}' cannot be a variable name (letters, digits and _)"
                        )));
                    }
                }
                let q = if matches!(f, Formula::Exists(..)) {
                    "ex2"
                } else {
                    "all2"
                };
                let names: Vec<String> = vars.iter().map(|v| var_name(v)).collect();
                format!("({q} {}: {})", names.join(", "), self.formula(body)?)
            }
        })
    }

    fn join(&mut self, all: &[Formula], op: &str, empty: &str) -> Result<String, TranslateError> {
        if all.is_empty() {
            return Ok(empty.into());
        }
        let parts: Result<Vec<String>, _> = all.iter().map(|a| self.formula(a)).collect();
        Ok(format!("({})", parts?.join(&format!(" {op} "))))
    }

    /// One comparison with the definitions of its terms, quantified here.
    fn atom(&mut self, op: CmpOp, a: &Term, b: &Term) -> Result<String, TranslateError> {
        let saved = (
            std::mem::take(&mut self.signs),
            std::mem::take(&mut self.sets),
            std::mem::take(&mut self.defs),
        );
        let va = self.term(a)?;
        let vb = self.term(b)?;
        let cmp = self.compare(op, &va, &vb);
        let signs = std::mem::replace(&mut self.signs, saved.0);
        let sets = std::mem::replace(&mut self.sets, saved.1);
        let mut defs = std::mem::replace(&mut self.defs, saved.2);
        defs.push(cmp);
        // Each definition parenthesised: `|` binds looser than `&` in MONA.
        let defs: Vec<String> = defs.into_iter().map(|d| format!("({d})")).collect();
        let mut text = defs.join(" & ");
        if !sets.is_empty() {
            text = format!("ex2 {}: {text}", sets.join(", "));
        }
        if !signs.is_empty() {
            text = format!("ex0 {}: {text}", signs.join(", "));
        }
        Ok(format!("({text})"))
    }

    fn fresh_set(&mut self) -> String {
        self.fresh += 1;
        let name = format!("t_{}", self.fresh);
        self.sets.push(name.clone());
        name
    }

    fn fresh_sign(&mut self) -> String {
        self.fresh += 1;
        let name = format!("s_{}", self.fresh);
        self.signs.push(name.clone());
        name
    }

    /// A fresh value: natural, or with a sign of its own.
    fn fresh(&mut self, natural: bool) -> Val {
        let set = self.fresh_set();
        let sign = if natural {
            Sign::Natural
        } else {
            Sign::Var(self.fresh_sign())
        };
        Val { sign, set }
    }

    /// The sign of `v` as a `var0` name (a natural gets one fixed to false).
    fn sign_of(&mut self, v: &Val) -> String {
        match &v.sign {
            Sign::Var(s) => s.clone(),
            Sign::Natural => {
                let s = self.fresh_sign();
                self.defs.push(format!("~{s}"));
                s
            }
        }
    }

    fn constant(&mut self, c: i128) -> Val {
        let set = self.fresh_set();
        if c >= 0 {
            self.defs
                .push(format!("{set} = {}", set_literal(c as u128)));
            Val {
                sign: Sign::Natural,
                set,
            }
        } else {
            let sign = self.fresh_sign();
            // The bits of c differ from its sign (1) exactly where !c = -c-1 has ones.
            self.defs
                .push(format!("{sign} & {set} = {}", set_literal(!c as u128)));
            Val {
                sign: Sign::Var(sign),
                set,
            }
        }
    }

    fn natural(v: &Val) -> bool {
        matches!(v.sign, Sign::Natural)
    }

    /// `a + b`.
    fn add(&mut self, a: &Val, b: &Val) -> Val {
        if Self::natural(a) && Self::natural(b) {
            let r = self.fresh(true);
            self.defs
                .push(format!("nadd({}, {}, {})", a.set, b.set, r.set));
            r
        } else {
            let r = self.fresh(false);
            let (sa, sb, sr) = (self.sign_of(a), self.sign_of(b), self.sign_of(&r));
            self.defs.push(format!(
                "sadd({sa}, {}, {sb}, {}, {sr}, {})",
                a.set, b.set, r.set
            ));
            r
        }
    }

    /// `a - b`, as the `r` with `r + b = a`.
    fn sub(&mut self, a: &Val, b: &Val) -> Val {
        let r = self.fresh(false);
        let (sa, sb, sr) = (self.sign_of(a), self.sign_of(b), self.sign_of(&r));
        self.defs.push(format!(
            "sadd({sr}, {}, {sb}, {}, {sa}, {})",
            r.set, b.set, a.set
        ));
        r
    }

    /// `2 * a`.
    fn double(&mut self, a: &Val) -> Val {
        if Self::natural(a) {
            let r = self.fresh(true);
            self.defs.push(format!("nshl({}, {})", a.set, r.set));
            r
        } else {
            let r = self.fresh(false);
            let (sa, sr) = (self.sign_of(a), self.sign_of(&r));
            self.defs
                .push(format!("sshl({sa}, {}, {sr}, {})", a.set, r.set));
            r
        }
    }

    /// `2^bits * a` for a natural `a`, as one shift.
    fn shift_left(&mut self, a: &Val, bits: usize) -> Val {
        if bits == 0 {
            return a.clone();
        }
        let r = self.fresh(true);
        self.defs.push(format!(
            "(all1 p: (p + {bits} in {r}) <=> (p in {a})) & (all1 p: p < {bits} => p notin {r})",
            r = r.set,
            a = a.set
        ));
        r
    }

    /// `floor(a / 2^bits)` for a natural `a`, as one shift.
    fn shift_right(&mut self, a: &Val, bits: u32) -> Val {
        if bits == 0 {
            return a.clone();
        }
        let r = self.fresh(true);
        self.defs.push(format!(
            "all1 p: (p in {r}) <=> (p + {bits} in {a})",
            r = r.set,
            a = a.set
        ));
        r
    }

    /// `c * a` for a natural `a` and `c >= 1`: the non-adjacent form's
    /// shifted copies of `a`, added and subtracted from the highest down
    /// (`29a = 32a - 4a + a`, two operations instead of three additions),
    /// each partial product natural.
    fn mul_natural(&mut self, a: &Val, c: u128) -> Val {
        let digits = non_adjacent_form(c);
        let mut sum: Option<Val> = None;
        for (bits, &digit) in digits.iter().enumerate().rev() {
            if digit == 0 {
                continue;
            }
            let shifted = self.shift_left(a, bits);
            sum = Some(match sum {
                None => shifted,
                Some(s) if digit > 0 => self.add(&s, &shifted),
                Some(s) => {
                    // s - shifted, natural: the r with r + shifted = s.
                    let r = self.fresh(true);
                    self.defs
                        .push(format!("nadd({}, {}, {})", r.set, shifted.set, s.set));
                    r
                }
            });
        }
        sum.unwrap_or_else(|| a.clone())
    }

    /// `c * a` for a constant `c`: shifts and additions, then a negation.
    fn mul_const(&mut self, a: &Val, c: i128) -> Val {
        if c == 0 {
            return self.constant(0);
        }
        if Self::natural(a) && c > 0 {
            return self.mul_natural(a, c as u128);
        }
        let mut magnitude = c.unsigned_abs();
        let mut shifted = a.clone();
        let mut sum: Option<Val> = None;
        loop {
            if magnitude & 1 == 1 {
                sum = Some(match sum {
                    None => shifted.clone(),
                    Some(s) => self.add(&s, &shifted),
                });
            }
            magnitude >>= 1;
            if magnitude == 0 {
                break;
            }
            shifted = self.double(&shifted);
        }
        let sum = sum.unwrap_or_else(|| a.clone());
        if c < 0 {
            let zero = self.constant(0);
            self.sub(&zero, &sum)
        } else {
            sum
        }
    }

    fn equal(&mut self, a: &Val, b: &Val) -> String {
        if Self::natural(a) && Self::natural(b) {
            format!("{} = {}", a.set, b.set)
        } else {
            let (sa, sb) = (self.sign_of(a), self.sign_of(b));
            format!("seq({sa}, {}, {sb}, {})", a.set, b.set)
        }
    }

    fn less(&mut self, a: &Val, b: &Val) -> String {
        if Self::natural(a) && Self::natural(b) {
            format!("nlt({}, {})", a.set, b.set)
        } else {
            let (sa, sb) = (self.sign_of(a), self.sign_of(b));
            format!("slt({sa}, {}, {sb}, {})", a.set, b.set)
        }
    }

    fn compare(&mut self, op: CmpOp, a: &Val, b: &Val) -> String {
        match op {
            CmpOp::Eq => self.equal(a, b),
            CmpOp::Ne => format!("~({})", self.equal(a, b)),
            CmpOp::Lt => self.less(a, b),
            CmpOp::Gt => self.less(b, a),
            CmpOp::Le => format!("~({})", self.less(b, a)),
            CmpOp::Ge => format!("~({})", self.less(a, b)),
        }
    }

    /// `min` (`pick_less`) or `max` of two values, by cases.
    fn select(&mut self, a: &Val, b: &Val, pick_less: bool) -> Val {
        let natural = if pick_less {
            Self::natural(a) && Self::natural(b)
        } else {
            Self::natural(a) || Self::natural(b)
        };
        let r = self.fresh(natural);
        let a_first = self.less(a, b);
        let ra = self.equal(&r, a);
        let rb = self.equal(&r, b);
        let (first, second) = if pick_less { (ra, rb) } else { (rb, ra) };
        self.defs.push(format!(
            "((({a_first}) & {first}) | (~({a_first}) & {second}))"
        ));
        r
    }

    fn bitwise(&mut self, a: &Val, b: &Val, op: &str) -> Val {
        if Self::natural(a) && Self::natural(b) {
            let r = self.fresh(true);
            self.defs
                .push(format!("n{op}({}, {}, {})", a.set, b.set, r.set));
            r
        } else {
            let r = self.fresh(false);
            let (sa, sb, sr) = (self.sign_of(a), self.sign_of(b), self.sign_of(&r));
            self.defs.push(format!(
                "s{op}({sa}, {}, {sb}, {}, {sr}, {})",
                a.set, b.set, r.set
            ));
            r
        }
    }

    fn term(&mut self, t: &Term) -> Result<Val, TranslateError> {
        Ok(match t {
            Term::Var(v) => {
                if !is_valid_name(v) {
                    return Err(TranslateError(format!(
                        "'{v}' cannot be a variable name (letters, digits and _)"
                    )));
                }
                Val {
                    sign: Sign::Natural,
                    set: var_name(v),
                }
            }
            Term::Const(c) => self.constant(i128::from(*c)),
            Term::Add(a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                self.add(&a, &b)
            }
            Term::Sub(a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                self.sub(&a, &b)
            }
            Term::MulConst(c, a) => {
                let a = self.term(a)?;
                self.mul_const(&a, i128::from(*c))
            }
            Term::FloorDiv(a, c) => {
                if *c < 1 {
                    return Err(TranslateError(format!(
                        "floor division by {c}: the divisor must be a constant of at least 1"
                    )));
                }
                let a = self.term(a)?;
                if *c == 1 {
                    return Ok(a);
                }
                if Self::natural(&a) {
                    // floor(a / (2^j m)) = floor(floor(a / 2^j) / m): the
                    // power of two a shift, the odd part a carry automaton.
                    let twos = c.trailing_zeros();
                    let odd = c >> twos;
                    if odd <= MAX_DIVISOR_PREDICATE {
                        let shifted = self.shift_right(&a, twos);
                        if odd == 1 {
                            return Ok(shifted);
                        }
                        let q = self.fresh(true);
                        self.divisors.insert(odd);
                        self.defs
                            .push(format!("div_{odd}({}, {})", shifted.set, q.set));
                        return Ok(q);
                    }
                }
                // q = floor(a / c)  iff  a = c*q + r with 0 <= r < c.
                let q = self.fresh(Self::natural(&a));
                let r = self.fresh(true);
                let bound = self.constant(i128::from(*c));
                let r_small = self.less(&r, &bound);
                self.defs.push(r_small);
                let cq = self.mul_const(&q, i128::from(*c));
                let sum = self.add(&cq, &r);
                let back = self.equal(&sum, &a);
                self.defs.push(back);
                q
            }
            Term::Min(a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                self.select(&a, &b, true)
            }
            Term::Max(a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                self.select(&a, &b, false)
            }
            Term::Abs(a) => {
                let a = self.term(a)?;
                if Self::natural(&a) {
                    return Ok(a);
                }
                let zero = self.constant(0);
                let negated = self.sub(&zero, &a);
                let r = self.fresh(true);
                let sa = self.sign_of(&a);
                let ra = self.equal(&r, &a);
                let rn = self.equal(&r, &negated);
                self.defs.push(format!("(({sa} & {rn}) | (~{sa} & {ra}))"));
                r
            }
            Term::Xor(a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                self.bitwise(&a, &b, "xor")
            }
            Term::And(a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                self.bitwise(&a, &b, "and")
            }
            Term::Or(a, b) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                self.bitwise(&a, &b, "or")
            }
        })
    }
}

/// What MONA said about a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The formula holds for every value of the free variables.
    Valid,
    /// It does not: these values of the free variables (by source name)
    /// make it false (MONA's counter-example of least length).
    CounterExample(Vec<(String, u128)>),
    /// No value makes it true (and some value makes it false).
    Unsatisfiable(Vec<(String, u128)>),
}

/// Sizes MONA reports.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Sizes {
    /// States of the final automaton.
    pub final_states: Option<u64>,
    /// BDD nodes of the final automaton.
    pub final_bdd_nodes: Option<u64>,
    /// States of the largest automaton MONA built on the way (with `-s`).
    pub largest_states: Option<u64>,
    /// BDD nodes of that automaton.
    pub largest_bdd_nodes: Option<u64>,
}

/// The set literal `{0,3}` as the number with those one bits; `None` when
/// not a set of small positions.
fn parse_set(text: &str) -> Option<u128> {
    let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?;
    let mut n: u128 = 0;
    for part in inner.split(',') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let bit: u32 = part.parse().ok()?;
        if bit >= 127 {
            return None;
        }
        n |= 1 << bit;
    }
    Some(n)
}

/// Reads MONA's verdict for the free variables `free`; `None` when the output
/// has none (MONA failed, ran out of memory or was stopped).
pub fn parse_answer(output: &str, free: &[String]) -> Option<Result<Answer, String>> {
    let values_after = |marker: &str| -> Result<Vec<(String, u128)>, String> {
        let start = output.find(marker).ok_or("no example")?;
        let mut found = Vec::new();
        for v in free {
            let name = var_name(v);
            let prefix = format!("{name} = ");
            let line = output[start..]
                .lines()
                .find(|l| l.starts_with(&prefix))
                .ok_or_else(|| format!("MONA gave no value for {v}"))?;
            let value = parse_set(&line[prefix.len()..])
                .ok_or_else(|| format!("MONA's value of {v} is too large: {line}"))?;
            found.push((v.clone(), value));
        }
        Ok(found)
    };
    if output.contains("Formula is valid") {
        return Some(Ok(Answer::Valid));
    }
    if output.contains("Formula is unsatisfiable") {
        return Some(values_after("counter-example of least length").map(Answer::Unsatisfiable));
    }
    if output.contains("A counter-example of least length") {
        return Some(values_after("counter-example of least length").map(Answer::CounterExample));
    }
    None
}

/// Reads the automata sizes from MONA's statistics.
pub fn parse_sizes(output: &str) -> Sizes {
    let mut sizes = Sizes::default();
    let numbers = |line: &str| -> Vec<u64> {
        line.split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    for line in output.lines() {
        if line.starts_with("Automaton has ") {
            let n = numbers(line);
            sizes.final_states = n.first().copied();
            sizes.final_bdd_nodes = n.get(1).copied();
        } else if line.starts_with("Largest number of states in a minimized automaton") {
            let n = numbers(line);
            sizes.largest_states = n.first().copied();
            sizes.largest_bdd_nodes = n.get(1).copied();
        }
    }
    sizes
}
