//! Text to tree: one lexer and one recursive-descent parser for every context.
//! Its recursion is bounded by [`MAX_NESTING`] (brackets and calls; in the
//! Exact dialect signs, powers and `not` too) and, in claims, the tree by
//! [`MAX_DEPTH`], checked as the tree is built. Chains at one precedence level
//! are loops building one flat node, so their length costs no stack.

use super::{Ast, Bin, Builtin, CmpOp, Dialect, Function};
use crate::exact::Rational;
use std::sync::Arc;

/// The deepest nesting of brackets and calls (and, in the Exact dialect,
/// signs, powers and `not`).
pub(crate) const MAX_NESTING: usize = 64;
/// The deepest tree of a claim (leaves are depth 1): the prover recurses over it.
pub(crate) const MAX_DEPTH: usize = 256;

/// A fault found while parsing: one line, saying what, where and how to fix it.
pub(crate) type Problem = String;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(Rational),
    Name(String),
    Plus,
    Minus,
    Star,
    StarStar,
    Slash,
    SlashSlash,
    Percent,
    Caret,
    Amp,
    Pipe,
    LParen,
    RParen,
    Comma,
    Cmp(CmpOp),
    /// A single `=` (a comparison in claims; a mistake elsewhere).
    Assign,
    End,
}

/// A token, its 0-based character offset and its text.
struct Token {
    tok: Tok,
    at: usize,
    text: String,
}

/// The text around character `at`, with the fault marked: `x + (y >>)<< + z`.
fn excerpt_at(chars: &[char], at: usize, len: usize) -> String {
    const SIDE: usize = 24;
    // A 60,000-character name is marked by its start.
    let len = len.min(SIDE);
    let start = at.saturating_sub(SIDE);
    let end = (at + len.max(1) + SIDE).min(chars.len());
    let before: String = chars[start..at.min(chars.len())].iter().collect();
    let fault: String = chars[at.min(chars.len())..(at + len).min(chars.len())]
        .iter()
        .collect();
    let after: String = chars[(at + len).min(chars.len())..end].iter().collect();
    let show = |s: &str| s.escape_debug().to_string();
    format!(
        "'{}{}>>{}<<{}{}'",
        if start > 0 { "..." } else { "" },
        show(&before),
        show(&fault),
        show(&after),
        if end < chars.len() { "..." } else { "" }
    )
}

/// The names an expression may use.
pub(crate) struct Names<'a> {
    /// Variables, in the order their values are given to the code.
    pub vars: &'a [String],
    /// Parameters and their values (constants).
    pub params: &'a [(String, i128)],
    /// Functions defined so far (a game file's `functions`).
    pub functions: &'a [Arc<Function>],
    /// Whether names match whatever their case (claims and caps; game files
    /// match heaps, parameters and functions as written).
    pub fold_case: bool,
}

impl Names<'_> {
    fn same(&self, known: &str, written: &str) -> bool {
        if self.fold_case {
            known.eq_ignore_ascii_case(written)
        } else {
            known == written
        }
    }
}

fn lex(chars: &[char], dialect: Dialect, fault: &Fault) -> Result<Vec<Token>, Problem> {
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let decimal_start = c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit());
        if c.is_ascii_digit() || (decimal_start && dialect == Dialect::Exact) {
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '_') {
                i += 1;
            }
            let mut frac = String::new();
            if dialect == Dialect::Exact && i < chars.len() && chars[i] == '.' {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    frac.push(chars[i]);
                    i += 1;
                }
            }
            let text: String = chars[start..i].iter().collect();
            if i < chars.len() && (chars[i] == '.' || chars[i].is_ascii_alphabetic()) {
                return Err(fault.at(
                    i,
                    1,
                    if dialect == Dialect::Claim {
                        "only whole numbers are allowed (write a fraction as floor(a / c))"
                    } else {
                        "a number must be followed by an operator"
                    },
                ));
            }
            let whole: String = text
                .split('.')
                .next()
                .unwrap_or("")
                .chars()
                .filter(|c| *c != '_')
                .collect();
            let digits = format!("{whole}{frac}");
            let too_long = || {
                fault.at(
                    start,
                    i - start,
                    if dialect == Dialect::Claim {
                        "number is outside the 64-bit integers (largest 9223372036854775807)"
                    } else {
                        "number is too large (beyond 128-bit fractions)"
                    },
                )
            };
            let num: i128 = if digits.is_empty() {
                0
            } else {
                digits.parse().map_err(|_| too_long())?
            };
            if dialect == Dialect::Claim && i64::try_from(num).is_err() {
                return Err(too_long());
            }
            let den = 10i128.checked_pow(frac.len() as u32).ok_or_else(too_long)?;
            let value = Rational::new(num, den).map_err(|_| too_long())?;
            toks.push(Token {
                tok: Tok::Num(value),
                at: start,
                text,
            });
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            toks.push(Token {
                tok: Tok::Name(text.clone()),
                at: start,
                text,
            });
            continue;
        }
        let next = chars.get(i + 1).copied();
        let shifts = "shifts are not in the language; multiply or floor-divide by a power of two";
        let (tok, len) = match (c, next) {
            ('+', _) => (Tok::Plus, 1),
            ('-', _) => (Tok::Minus, 1),
            ('*', Some('*')) if dialect == Dialect::Claim => {
                return Err(fault.at(
                    i,
                    2,
                    "'**' (power) is not in the claim language; multiply by constants instead",
                ))
            }
            ('*', Some('*')) => (Tok::StarStar, 2),
            ('*', _) => (Tok::Star, 1),
            ('/', Some('/')) => (Tok::SlashSlash, 2),
            ('/', _) => (Tok::Slash, 1),
            ('%', _) => (Tok::Percent, 1),
            ('^', _) => (Tok::Caret, 1),
            ('&', Some('&')) => return Err(fault.at(i, 2, "'&&' is written 'and'")),
            ('&', _) => (Tok::Amp, 1),
            ('|', Some('|')) => return Err(fault.at(i, 2, "'||' is written 'or'")),
            ('|', _) => (Tok::Pipe, 1),
            ('(', _) => (Tok::LParen, 1),
            (')', _) => (Tok::RParen, 1),
            (',', _) => (Tok::Comma, 1),
            ('=', Some('=')) => (Tok::Cmp(CmpOp::Eq), 2),
            ('=', _) => (Tok::Assign, 1),
            ('!', Some('=')) => (Tok::Cmp(CmpOp::Ne), 2),
            ('!', _) => return Err(fault.at(i, 1, "'!' is written 'not'")),
            ('<', Some('=')) => (Tok::Cmp(CmpOp::Le), 2),
            ('<', Some('<')) => return Err(fault.at(i, 2, shifts)),
            ('<', _) => (Tok::Cmp(CmpOp::Lt), 1),
            ('>', Some('=')) => (Tok::Cmp(CmpOp::Ge), 2),
            ('>', Some('>')) => return Err(fault.at(i, 2, shifts)),
            ('>', _) => (Tok::Cmp(CmpOp::Gt), 1),
            _ => return Err(fault.at(i, 1, format_args!("unexpected '{}'", c.escape_debug()))),
        };
        toks.push(Token {
            tok,
            at: i,
            text: chars[i..i + len].iter().collect(),
        });
        i += len;
    }
    toks.push(Token {
        tok: Tok::End,
        at: chars.len(),
        text: String::new(),
    });
    Ok(toks)
}

struct Fault<'a> {
    chars: &'a [char],
}

impl Fault<'_> {
    fn at(&self, at: usize, len: usize, message: impl std::fmt::Display) -> Problem {
        format!(
            "{message} at column {} in {}",
            at + 1,
            excerpt_at(self.chars, at, len)
        )
    }
}

/// Integer or predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Bool,
}

/// A parsed piece: its tree, kind and depth, a claim's division `a / c`
/// waiting for the `floor(` or `ceil(` around it, and an unrounded `sqrt`.
struct Item {
    node: Ast,
    kind: Kind,
    depth: usize,
    /// `Some((c, offset of '/'))` when this item is `node / c` in a claim,
    /// legal only as the whole argument of floor() or ceil().
    divided: Option<(Rational, usize)>,
    /// Where a `sqrt` is that is not rounded yet (legal only inside floor,
    /// ceil, round, min or max, or as the whole number).
    raw_sqrt: Option<usize>,
}

impl Item {
    fn leaf(node: Ast) -> Item {
        Item {
            node,
            kind: Kind::Int,
            depth: 1,
            divided: None,
            raw_sqrt: None,
        }
    }
}

struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    nesting: usize,
    names: &'a Names<'a>,
    dialect: Dialect,
    fault: Fault<'a>,
}

/// The value of a node whose operands are constants, or `None` (a variable, or
/// a fault the evaluation reports where it happens).
fn fold(node: &Ast) -> Option<Rational> {
    let c = |n: &Ast| match n {
        Ast::Const(v) => Some(*v),
        _ => None,
    };
    let int = |q: Rational| q.is_integer().then(|| q.numer());
    match node {
        Ast::Const(v) => Some(*v),
        Ast::Neg(a) => c(a)?.checked_neg().ok(),
        Ast::Chain(first, links) => {
            let mut acc = c(first)?;
            for (op, b) in links {
                let b = c(b)?;
                acc = match op {
                    Bin::Add => acc.checked_add(b).ok()?,
                    Bin::Sub => acc.checked_sub(b).ok()?,
                    Bin::Mul => acc.checked_mul(b).ok()?,
                    Bin::Div => acc.checked_div(b).ok()?,
                    Bin::FloorDiv => Rational::int(acc.checked_div(b).ok()?.floor()),
                    Bin::Mod => {
                        let q = Rational::int(acc.checked_div(b).ok()?.floor());
                        acc.checked_sub(b.checked_mul(q).ok()?).ok()?
                    }
                    Bin::Xor => Rational::int(int(acc)? ^ int(b)?),
                    Bin::BitAnd => Rational::int(int(acc)? & int(b)?),
                    Bin::BitOr => Rational::int(int(acc)? | int(b)?),
                };
            }
            Some(acc)
        }
        Ast::Pow(a, b) => {
            let (a, b) = (c(a)?, c(b)?);
            a.checked_pow(int(b)?).ok()
        }
        Ast::Call(f, args) => {
            let vals: Vec<Rational> = args.iter().map(c).collect::<Option<_>>()?;
            Some(match f {
                Builtin::Floor => Rational::int(vals[0].floor()),
                Builtin::Ceil => Rational::int(vals[0].ceil()),
                Builtin::Round => Rational::int(vals[0].round()),
                Builtin::Abs if vals[0].numer() < 0 => vals[0].checked_neg().ok()?,
                Builtin::Abs => vals[0],
                Builtin::Min | Builtin::Max => {
                    let mut best = vals[0];
                    for &v in &vals[1..] {
                        let ord = v.checked_cmp(best).ok()?;
                        if (*f == Builtin::Min && ord.is_lt())
                            || (*f == Builtin::Max && ord.is_gt())
                        {
                            best = v;
                        }
                    }
                    best
                }
                Builtin::Xor => {
                    let mut acc = 0i128;
                    for v in vals {
                        acc ^= int(v)?;
                    }
                    Rational::int(acc)
                }
                // sqrt may be irrational, isqrt and mod may fault: left to the code.
                Builtin::Sqrt | Builtin::Isqrt | Builtin::Mod => return None,
            })
        }
        _ => None,
    }
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn bump(&mut self) -> usize {
        let at = self.toks[self.pos].at;
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        at
    }

    fn is_keyword(&self, word: &str) -> bool {
        matches!(self.peek(), Tok::Name(n) if n.eq_ignore_ascii_case(word))
    }

    fn unexpected(&self, wanted: &str) -> Problem {
        let t = &self.toks[self.pos];
        let what = match t.tok {
            Tok::End => "end of expression".to_string(),
            _ => format!("'{}'", t.text),
        };
        if t.tok == Tok::Assign {
            return self.fault.at(
                t.at,
                1,
                "'=' compares nothing here; write == (or <=, >=, <, >, !=) to compare",
            );
        }
        self.fault.at(
            t.at,
            t.text.chars().count(),
            format_args!("unexpected {what}, wanted {wanted}"),
        )
    }

    fn expect(&mut self, want: Tok, wanted: &str) -> Result<usize, Problem> {
        if *self.peek() == want {
            Ok(self.bump())
        } else {
            Err(self.unexpected(wanted))
        }
    }

    /// A finished item: a pending division is refused here.
    fn plain(&self, item: Item) -> Result<Item, Problem> {
        if let Some((_, at)) = item.divided {
            return Err(self.fault.at(
                at,
                1,
                "'/' is allowed only as the last step inside floor() or ceil(), e.g. floor((x+z) / k); use // for floor division",
            ));
        }
        Ok(item)
    }

    /// An item of kind `kind` for the operator at `at`, else a one-line fault.
    /// A square root may not be an operand (only rounded).
    fn want(&self, item: Item, kind: Kind, op: &str, at: usize) -> Result<Item, Problem> {
        let item = self.want_rounding(item, kind, op, at)?;
        if let Some(root) = item.raw_sqrt {
            return Err(self.unrounded(root));
        }
        Ok(item)
    }

    fn unrounded(&self, root: usize) -> Problem {
        self.fault.at(
            root,
            4,
            "sqrt must be rounded: put it directly inside floor(), ceil() or round() (or min/max there), e.g. floor(sqrt(x + z)); or use isqrt",
        )
    }

    /// [`Parser::want`] for floor, ceil, round, min and max, which may take a square root.
    fn want_rounding(&self, item: Item, kind: Kind, op: &str, at: usize) -> Result<Item, Problem> {
        let item = self.plain(item)?;
        if item.kind != kind {
            let (wanted, got) = match kind {
                Kind::Int => ("integers", "a condition (true/false)"),
                Kind::Bool => (
                    "conditions such as 'x == 0'",
                    "a number (compare it, e.g. '... == 0')",
                ),
            };
            return Err(self.fault.at(
                at,
                op.chars().count(),
                format_args!("'{op}' works on {wanted}, but one side is {got}"),
            ));
        }
        Ok(item)
    }

    /// Builds a node one level above `depth`, folding constants; refuses a claim
    /// deeper than [`MAX_DEPTH`] and a claim's constant outside the 64-bit integers.
    fn make(&self, node: Ast, kind: Kind, depth: usize, at: usize) -> Result<Item, Problem> {
        let depth = depth + 1;
        if self.dialect == Dialect::Claim && depth > MAX_DEPTH {
            return Err(self.fault.at(
                at,
                1,
                format_args!(
                    "expression is nested deeper than {MAX_DEPTH} operations; split it or shorten the chain"
                ),
            ));
        }
        if kind == Kind::Int && !matches!(node, Ast::Const(_)) {
            let folded = fold(&node);
            if self.dialect == Dialect::Claim {
                if operands_const(&node) {
                    let value = folded
                        .filter(|q| q.is_integer() && i64::try_from(q.numer()).is_ok())
                        .ok_or_else(|| {
                            self.fault
                                .at(at, 1, "constant is outside the 64-bit integers")
                        })?;
                    return Ok(Item::leaf(Ast::Const(value)));
                }
            } else if let Some(value) = folded {
                return Ok(Item::leaf(Ast::Const(value)));
            }
        }
        Ok(Item {
            node,
            kind,
            depth,
            divided: None,
            raw_sqrt: None,
        })
    }

    /// Enters one level of nesting (brackets, calls; signs, powers and `not` in
    /// the Exact dialect).
    fn enter(&mut self, at: usize) -> Result<(), Problem> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(self.fault.at(
                at,
                1,
                if self.dialect == Dialect::Claim {
                    format!("parentheses and calls nest deeper than {MAX_NESTING}")
                } else {
                    format!(
                        "expression is nested too deeply (nesting of brackets, calls, signs and powers is limited to {MAX_NESTING} levels)"
                    )
                },
            ));
        }
        Ok(())
    }

    // or := and ('or' and)*
    fn or(&mut self) -> Result<Item, Problem> {
        self.logic("or", Self::and)
    }

    // and := not ('and' not)*
    fn and(&mut self) -> Result<Item, Problem> {
        self.logic("and", Self::not)
    }

    fn logic(
        &mut self,
        word: &str,
        next: fn(&mut Self) -> Result<Item, Problem>,
    ) -> Result<Item, Problem> {
        let first = next(self)?;
        if !self.is_keyword(word) {
            return Ok(first);
        }
        let mut depth = first.depth;
        let mut parts = Vec::new();
        let mut first = Some(first);
        while self.is_keyword(word) {
            let at = self.bump();
            let right = next(self)?;
            if let Some(l) = first.take() {
                let l = self.want(l, Kind::Bool, word, at)?;
                parts.push(l.node);
            }
            let r = self.want(right, Kind::Bool, word, at)?;
            depth = depth.max(r.depth);
            if self.dialect == Dialect::Claim {
                // A claim's `and`/`or` is binary: each link one level deeper.
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(self.fault.at(
                        at,
                        1,
                        format_args!(
                            "expression is nested deeper than {MAX_DEPTH} operations; split it or shorten the chain"
                        ),
                    ));
                }
            }
            parts.push(r.node);
        }
        let node = if word == "or" {
            Ast::Any(parts)
        } else {
            Ast::All(parts)
        };
        Ok(Item {
            node,
            kind: Kind::Bool,
            depth: depth + usize::from(self.dialect == Dialect::Exact),
            divided: None,
            raw_sqrt: None,
        })
    }

    // not := 'not'* comparison   (a loop, not recursion: 'not not ... p')
    fn not(&mut self) -> Result<Item, Problem> {
        let mut nots = Vec::new();
        while self.is_keyword("not") {
            let at = self.bump();
            if self.dialect == Dialect::Exact {
                self.enter(at)?;
            }
            nots.push(at);
        }
        let mut item = self.comparison()?;
        for at in nots.into_iter().rev() {
            let p = self.want(item, Kind::Bool, "not", at)?;
            item = self.make(Ast::Not(Box::new(p.node)), Kind::Bool, p.depth, at)?;
            if self.dialect == Dialect::Exact {
                self.nesting -= 1;
            }
        }
        Ok(item)
    }

    // comparison := bitor (cmp bitor)*   (a chain: every link holds)
    fn comparison(&mut self) -> Result<Item, Problem> {
        let first = self.bitor()?;
        let cmp = |t: &Tok, claim: bool| match t {
            Tok::Cmp(op) => Some(*op),
            Tok::Assign if claim => Some(CmpOp::Eq),
            _ => None,
        };
        let claim = self.dialect == Dialect::Claim;
        if cmp(self.peek(), claim).is_none() {
            return Ok(first);
        }
        let mut links = Vec::new();
        let mut depth = first.depth;
        let mut head: Option<Ast> = None;
        let mut left = Some(first);
        while let Some(op) = cmp(self.peek(), claim) {
            let op_text = self.toks[self.pos].text.clone();
            let at = self.bump();
            let right = self.bitor()?;
            if let Some(l) = left.take() {
                let l = self.want(l, Kind::Int, &op_text, at)?;
                head = Some(l.node);
            }
            let r = self.want(right, Kind::Int, &op_text, at)?;
            depth = depth.max(r.depth) + usize::from(claim);
            if claim && depth + 1 > MAX_DEPTH {
                return Err(self.fault.at(
                    at,
                    1,
                    format_args!(
                        "expression is nested deeper than {MAX_DEPTH} operations; split it or shorten the chain"
                    ),
                ));
            }
            links.push((op, r.node));
        }
        let head = head.expect("a first operand");
        let at = self.toks[self.pos].at;
        self.make(Ast::Compare(Box::new(head), links), Kind::Bool, depth, at)
    }

    /// A left-associative chain of integer operators at one level, one flat node.
    fn chain(
        &mut self,
        ops: &[(Tok, Bin)],
        next: fn(&mut Self) -> Result<Item, Problem>,
    ) -> Result<Item, Problem> {
        let mut first = next(self)?;
        let mut links: Vec<(Bin, Ast)> = Vec::new();
        let mut depth = first.depth;
        let mut checked = false;
        while let Some(&(_, bin)) = ops.iter().find(|(t, _)| t == self.peek()) {
            let op_text = self.toks[self.pos].text.clone();
            let at = self.bump();
            if bin == Bin::Xor && self.dialect == Dialect::Exact {
                self.xor_not_power(at)?;
            }
            let right = next(self)?;
            if !checked {
                first = self.want(first, Kind::Int, &op_text, at)?;
                checked = true;
            }
            let r = self.want(right, Kind::Int, &op_text, at)?;
            // A constant prefix folds as it goes (claims report an overflowing
            // constant at its operator).
            if links.is_empty() {
                if let (Ast::Const(_), Ast::Const(_)) = (&first.node, &r.node) {
                    let pair =
                        Ast::Chain(Box::new(first.node.clone()), vec![(bin, r.node.clone())]);
                    let folded = self.make(pair, Kind::Int, 1, at)?;
                    if matches!(folded.node, Ast::Const(_)) {
                        first = folded;
                        continue;
                    }
                }
            }
            depth = depth.max(r.depth);
            if self.dialect == Dialect::Claim {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(self.fault.at(
                        at,
                        1,
                        format_args!(
                            "expression is nested deeper than {MAX_DEPTH} operations; split it or shorten the chain"
                        ),
                    ));
                }
            }
            links.push((bin, r.node));
        }
        if links.is_empty() {
            return Ok(first);
        }
        let at = self.toks[self.pos].at;
        let depth = if self.dialect == Dialect::Claim {
            depth - 1
        } else {
            depth
        };
        self.make(
            Ast::Chain(Box::new(first.node), links),
            Kind::Int,
            depth,
            at,
        )
    }

    /// Caps and game files once read `^` as a power: a `^` next to a number of
    /// 2 or more is refused rather than silently read as XOR.
    fn xor_not_power(&self, at: usize) -> Result<(), Problem> {
        let literal = |i: usize| match self.toks.get(i).map(|t| &t.tok) {
            Some(Tok::Num(q)) => q.is_integer() && q.numer() >= 2,
            _ => false,
        };
        let caret = self.pos - 1;
        if literal(caret + 1) || (caret > 0 && literal(caret - 1)) {
            return Err(self.fault.at(
                at,
                1,
                "'^' is XOR (the nim-sum), no longer a power: write ** for a power, as in (x + z)**2, or xor(a, 2) for the nim-sum with a number",
            ));
        }
        Ok(())
    }

    fn bitor(&mut self) -> Result<Item, Problem> {
        self.chain(&[(Tok::Pipe, Bin::BitOr)], Self::bitxor)
    }

    fn bitxor(&mut self) -> Result<Item, Problem> {
        self.chain(&[(Tok::Caret, Bin::Xor)], Self::bitand)
    }

    fn bitand(&mut self) -> Result<Item, Problem> {
        self.chain(&[(Tok::Amp, Bin::BitAnd)], Self::sum)
    }

    fn sum(&mut self) -> Result<Item, Problem> {
        self.chain(&[(Tok::Plus, Bin::Add), (Tok::Minus, Bin::Sub)], Self::term)
    }

    /// A claim's positive constant divisor for the operator at `at`.
    fn divisor(&self, item: Item, op: &str, at: usize) -> Result<Rational, Problem> {
        let item = self.want(item, Kind::Int, op, at)?;
        match item.node {
            Ast::Const(c) if c.numer() > 0 => Ok(c),
            Ast::Const(c) => Err(self.fault.at(
                at,
                op.chars().count(),
                format_args!("'{op}' needs a positive divisor, got {c}"),
            )),
            _ => Err(self.fault.at(
                at,
                op.chars().count(),
                format_args!(
                    "'{op}' divides only by a constant (a number or a parameter), not by a variable"
                ),
            )),
        }
    }

    // term := unary (('*' | '/' | '//' | '%') unary)*
    fn term(&mut self) -> Result<Item, Problem> {
        if self.dialect == Dialect::Exact {
            return self.chain(
                &[
                    (Tok::Star, Bin::Mul),
                    (Tok::Slash, Bin::Div),
                    (Tok::SlashSlash, Bin::FloorDiv),
                    (Tok::Percent, Bin::Mod),
                ],
                Self::unary,
            );
        }
        // Claims: division only by positive constants, `/` only inside floor/ceil.
        let mut left = self.unary()?;
        loop {
            let bin = match self.peek() {
                Tok::Star => Bin::Mul,
                Tok::SlashSlash => Bin::FloorDiv,
                Tok::Percent => Bin::Mod,
                Tok::Slash => Bin::Div,
                _ => return Ok(left),
            };
            let op_text = self.toks[self.pos].text.clone();
            let at = self.bump();
            let right = self.unary()?;
            let l = self.want(left, Kind::Int, &op_text, at)?;
            left = match bin {
                Bin::Mul => {
                    let r = self.want(right, Kind::Int, &op_text, at)?;
                    let depth = l.depth.max(r.depth);
                    self.make(
                        Ast::Chain(Box::new(l.node), vec![(Bin::Mul, r.node)]),
                        Kind::Int,
                        depth,
                        at,
                    )?
                }
                Bin::Div => {
                    let c = self.divisor(right, &op_text, at)?;
                    Item {
                        divided: Some((c, at)),
                        ..l
                    }
                }
                _ => {
                    let c = self.divisor(right, &op_text, at)?;
                    self.make(
                        Ast::Chain(Box::new(l.node), vec![(bin, Ast::Const(c))]),
                        Kind::Int,
                        l.depth,
                        at,
                    )?
                }
            };
        }
    }

    // unary := ('-' | '+')* power   (a loop, not recursion)
    fn unary(&mut self) -> Result<Item, Problem> {
        let mut signs = Vec::new();
        let mut entered = 0;
        while self.peek() == &Tok::Minus || self.peek() == &Tok::Plus {
            let negative = self.peek() == &Tok::Minus;
            let at = self.bump();
            if self.dialect == Dialect::Exact {
                // Signs nest without brackets: counted like them.
                self.enter(at)?;
                entered += 1;
            }
            if negative {
                signs.push(at);
            }
        }
        let mut item = self.power()?;
        for at in signs.into_iter().rev() {
            let a = self.want(item, Kind::Int, "-", at)?;
            item = self.make(Ast::Neg(Box::new(a.node)), Kind::Int, a.depth, at)?;
        }
        self.nesting -= entered;
        Ok(item)
    }

    // power := atom ['**' unary]   (right-associative; -x**2 is -(x**2))
    fn power(&mut self) -> Result<Item, Problem> {
        let base = self.atom()?;
        if self.peek() != &Tok::StarStar {
            return Ok(base);
        }
        let at = self.bump();
        self.enter(at)?;
        let exponent = self.unary()?;
        self.nesting -= 1;
        let b = self.want(base, Kind::Int, "**", at)?;
        let e = self.want(exponent, Kind::Int, "**", at)?;
        let depth = b.depth.max(e.depth);
        self.make(
            Ast::Pow(Box::new(b.node), Box::new(e.node)),
            Kind::Int,
            depth,
            at,
        )
    }

    fn atom(&mut self) -> Result<Item, Problem> {
        let t = &self.toks[self.pos];
        let at = t.at;
        match t.tok.clone() {
            Tok::Num(v) => {
                self.bump();
                Ok(Item::leaf(Ast::Const(v)))
            }
            Tok::LParen => {
                self.bump();
                self.enter(at)?;
                let inner = self.or()?;
                self.expect(Tok::RParen, "')'")?;
                self.nesting -= 1;
                let inner = self.plain(inner)?;
                // Brackets close over a square root: (sqrt(x)) is still unrounded.
                Ok(inner)
            }
            Tok::Name(name) => {
                let text = t.text.clone();
                self.bump();
                if self.peek() == &Tok::LParen {
                    return self.call(&name, at);
                }
                let names = self.names;
                if let Some(i) = names.vars.iter().position(|v| names.same(v, &name)) {
                    return Ok(Item::leaf(Ast::Var(i)));
                }
                if let Some((_, v)) = names.params.iter().find(|(p, _)| names.same(p, &name)) {
                    return Ok(Item::leaf(Ast::Const(Rational::int(*v))));
                }
                let lower = name.to_ascii_lowercase();
                if matches!(lower.as_str(), "and" | "or" | "not") {
                    return Err(self.fault.at(
                        at,
                        text.chars().count(),
                        format_args!("'{text}' needs a condition before it"),
                    ));
                }
                let mut known: Vec<&str> = names.vars.iter().map(String::as_str).collect();
                known.extend(names.params.iter().map(|(p, _)| p.as_str()));
                Err(self.fault.at(
                    at,
                    text.chars().count(),
                    format_args!(
                        "unknown name '{}' (the names here are {})",
                        crate::error::excerpt(&text),
                        if known.is_empty() {
                            "none: numbers only".to_string()
                        } else {
                            known.join(", ")
                        }
                    ),
                ))
            }
            _ => Err(self.unexpected("a number, a name or '('")),
        }
    }

    fn functions_list(&self) -> String {
        let builtins: &[&str] = if self.dialect == Dialect::Claim {
            &["floor", "ceil", "min", "max", "abs", "xor"]
        } else {
            &[
                "floor", "ceil", "round", "sqrt", "isqrt", "abs", "mod", "min", "max", "xor",
            ]
        };
        let mut all: Vec<&str> = builtins.to_vec();
        all.extend(self.names.functions.iter().map(|f| f.name.as_str()));
        all.join(", ")
    }

    fn call(&mut self, name: &str, at: usize) -> Result<Item, Problem> {
        let width = name.chars().count();
        let user = self
            .names
            .functions
            .iter()
            .find(|f| self.names.same(&f.name, name))
            .cloned();
        let builtin = Builtin::named(name).filter(|b| {
            self.dialect == Dialect::Exact
                || matches!(
                    b,
                    Builtin::Floor
                        | Builtin::Ceil
                        | Builtin::Min
                        | Builtin::Max
                        | Builtin::Abs
                        | Builtin::Xor
                )
        });
        if user.is_none() && builtin.is_none() {
            return Err(self.fault.at(
                at,
                width,
                format_args!(
                    "unknown function '{}' (the functions are {}{})",
                    crate::error::excerpt(name),
                    self.functions_list(),
                    if self.dialect == Dialect::Exact {
                        "; a game file defines more under 'functions'"
                    } else {
                        ""
                    }
                ),
            ));
        }
        self.bump(); // '('
        self.enter(at)?;
        let mut args = Vec::new();
        if self.peek() != &Tok::RParen {
            args.push(self.bitor()?);
            while self.peek() == &Tok::Comma {
                self.bump();
                args.push(self.bitor()?);
            }
        }
        self.expect(Tok::RParen, "',' or ')'")?;
        self.nesting -= 1;
        let count = |want: &str, args: &[Item]| {
            self.fault.at(
                at,
                width,
                format_args!("{name}() takes {want}, got {}", args.len()),
            )
        };
        if let Some(f) = user {
            if args.len() != f.args.len() {
                return Err(count(&format!("{} argument(s)", f.args.len()), &args));
            }
            let mut nodes = Vec::with_capacity(args.len());
            let mut depth = 0;
            for a in args {
                let a = self.want(a, Kind::Int, name, at)?;
                depth = depth.max(a.depth);
                nodes.push(a.node);
            }
            return self.make(Ast::Apply(f, nodes), Kind::Int, depth, at);
        }
        let builtin = builtin.expect("a built-in");
        match builtin {
            Builtin::Floor | Builtin::Ceil | Builtin::Round if self.dialect == Dialect::Exact => {
                if args.len() != 1 {
                    return Err(count("one argument", &args));
                }
                let a = self.want_rounding(args.pop().expect("one"), Kind::Int, name, at)?;
                self.make(Ast::Call(builtin, vec![a.node]), Kind::Int, a.depth, at)
            }
            Builtin::Floor | Builtin::Ceil => {
                if args.len() != 1 {
                    return Err(count(
                        "one argument, a division such as floor(x / 2)",
                        &args,
                    ));
                }
                let arg = args.pop().expect("one argument");
                let Some((c, _)) = arg.divided else {
                    self.want(arg, Kind::Int, name, at)?;
                    return Err(self.fault.at(
                        at,
                        width,
                        format_args!(
                            "{name}() of a whole number is the number itself; write {name}(a / c) to divide by a constant"
                        ),
                    ));
                };
                let arg = Item {
                    divided: None,
                    ..arg
                };
                let a = self.want(arg, Kind::Int, name, at)?;
                let divided = Ast::Chain(Box::new(a.node), vec![(Bin::Div, Ast::Const(c))]);
                self.make(Ast::Call(builtin, vec![divided]), Kind::Int, a.depth, at)
            }
            Builtin::Sqrt => {
                if args.len() != 1 {
                    return Err(count("one argument", &args));
                }
                let a = self.want(args.pop().expect("one"), Kind::Int, name, at)?;
                let mut item =
                    self.make(Ast::Call(builtin, vec![a.node]), Kind::Int, a.depth, at)?;
                item.raw_sqrt = Some(at);
                Ok(item)
            }
            Builtin::Isqrt | Builtin::Abs => {
                if args.len() != 1 {
                    return Err(count("one argument", &args));
                }
                let a = self.want(args.pop().expect("one"), Kind::Int, name, at)?;
                self.make(Ast::Call(builtin, vec![a.node]), Kind::Int, a.depth, at)
            }
            Builtin::Mod => {
                if args.len() != 2 {
                    return Err(count("two arguments", &args));
                }
                let b = self.want(args.pop().expect("two"), Kind::Int, name, at)?;
                let a = self.want(args.pop().expect("two"), Kind::Int, name, at)?;
                let depth = a.depth.max(b.depth);
                self.make(
                    Ast::Call(builtin, vec![a.node, b.node]),
                    Kind::Int,
                    depth,
                    at,
                )
            }
            Builtin::Min | Builtin::Max | Builtin::Xor => {
                if args.len() < 2 {
                    return Err(count("two or more arguments", &args));
                }
                let mut nodes = Vec::with_capacity(args.len());
                let mut depth = 0;
                let mut raw = None;
                for a in args {
                    let a = if builtin == Builtin::Xor {
                        self.want(a, Kind::Int, name, at)?
                    } else {
                        self.want_rounding(a, Kind::Int, name, at)?
                    };
                    depth = depth.max(a.depth);
                    raw = raw.or(a.raw_sqrt);
                    nodes.push(a.node);
                }
                let mut item = self.make(Ast::Call(builtin, nodes), Kind::Int, depth, at)?;
                item.raw_sqrt = raw;
                Ok(item)
            }
            Builtin::Round => unreachable!("round is only in the Exact dialect"),
        }
    }
}

/// Whether every direct operand of `node` is a constant (operands are folded
/// already, so then the node is a constant part, or a fault folding it).
fn operands_const(node: &Ast) -> bool {
    let c = |n: &Ast| matches!(n, Ast::Const(_));
    match node {
        Ast::Const(_) => true,
        Ast::Neg(a) => c(a),
        Ast::Chain(a, links) => c(a) && links.iter().all(|(_, b)| c(b)),
        Ast::Pow(a, b) => c(a) && c(b),
        Ast::Call(_, args) => args.iter().all(c),
        _ => false,
    }
}

fn parser<'a>(
    chars: &'a [char],
    names: &'a Names<'a>,
    dialect: Dialect,
) -> Result<Parser<'a>, Problem> {
    let fault = Fault { chars };
    let toks = lex(chars, dialect, &fault)?;
    Ok(Parser {
        toks,
        pos: 0,
        nesting: 0,
        names,
        dialect,
        fault,
    })
}

/// Parses one whole expression (a number or a condition); a square root may
/// be the whole of it (a number is floored where it is used).
pub(crate) fn parse(text: &str, names: &Names, dialect: Dialect) -> Result<Ast, Problem> {
    let chars: Vec<char> = text.chars().collect();
    let mut p = parser(&chars, names, dialect)?;
    if p.peek() == &Tok::End {
        return Err("expression is empty".to_string());
    }
    let item = p.or()?;
    if p.peek() != &Tok::End {
        return Err(p.unexpected("an operator or the end"));
    }
    Ok(p.plain(item)?.node)
}

/// Parses a tuple `(e1, e2, ...)` of numbers.
pub(crate) fn parse_tuple(
    text: &str,
    names: &Names,
    dialect: Dialect,
) -> Result<Vec<Ast>, Problem> {
    let chars: Vec<char> = text.chars().collect();
    let mut p = parser(&chars, names, dialect)?;
    let open = p.expect(Tok::LParen, "'(' opening a tuple")?;
    p.enter(open)?;
    let mut entries = Vec::new();
    if p.peek() != &Tok::RParen {
        loop {
            let at = p.toks[p.pos].at;
            let item = p.or()?;
            let item = p.want_rounding(item, Kind::Int, ",", at)?;
            entries.push(item.node);
            if p.peek() != &Tok::Comma {
                break;
            }
            p.bump();
        }
    }
    p.expect(Tok::RParen, "',' or ')'")?;
    if p.peek() != &Tok::End {
        return Err(p.unexpected("the end after the tuple's ')'"));
    }
    Ok(entries)
}

/// Parses a function definition `name(a, b) = body` (the Exact dialect): the
/// body may use its arguments, the parameters and the functions before it.
pub(crate) fn parse_function(
    text: &str,
    params: &[(String, i128)],
    functions: &[Arc<Function>],
) -> Result<Function, Problem> {
    let chars: Vec<char> = text.chars().collect();
    let Some(eq) = chars.iter().enumerate().position(|(i, c)| {
        *c == '=' && chars.get(i + 1) != Some(&'=') && (i == 0 || !"=!<>".contains(chars[i - 1]))
    }) else {
        return Err("not a definition; write it as name(a, b) = expression".to_string());
    };
    let head: String = chars[..eq].iter().collect();
    let body: String = chars[eq + 1..].iter().collect();
    let no_names = Names {
        vars: &[],
        params: &[],
        functions: &[],
        fold_case: false,
    };
    let head_chars: Vec<char> = head.chars().collect();
    let p = parser(&head_chars, &no_names, Dialect::Exact)?;
    let toks: Vec<&Tok> = p.toks.iter().map(|t| &t.tok).collect();
    let (name, inner) = match toks.as_slice() {
        [Tok::Name(name), Tok::LParen, inner @ .., Tok::RParen, Tok::End] => (name.clone(), inner),
        _ => {
            return Err(format!(
                "'{}' is not a function head; write it as name(a, b) = expression",
                crate::error::excerpt(head.trim())
            ))
        }
    };
    let mut args = Vec::new();
    for (i, tok) in inner.iter().enumerate() {
        match tok {
            Tok::Name(a) if i % 2 == 0 && !args.contains(a) => args.push(a.clone()),
            Tok::Comma if i % 2 == 1 && i + 1 < inner.len() => {}
            _ => {
                return Err(format!(
                    "the arguments of '{}' must be different plain names, e.g. res(x) = 2*floor(x/2) + 1",
                    crate::error::excerpt(head.trim())
                ))
            }
        }
    }
    if super::reserved(&name)
        || params.iter().any(|(p, _)| *p == name)
        || functions.iter().any(|f| f.name == name)
    {
        return Err(format!(
            "the function name '{}' is taken (a built-in, a keyword, a parameter or an earlier function)",
            crate::error::excerpt(&name)
        ));
    }
    let names = Names {
        vars: &args,
        params,
        functions,
        fold_case: false,
    };
    let body_ast = parse(&body, &names, Dialect::Exact)?;
    if body_ast.is_predicate() {
        return Err(format!(
            "the body of '{}' is a condition; a function gives a number",
            crate::error::excerpt(&name)
        ));
    }
    Ok(Function {
        name,
        args,
        body: body_ast,
    })
}
