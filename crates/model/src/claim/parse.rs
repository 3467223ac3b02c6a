//! Text to tree: a lexer and a recursive-descent parser whose recursion is bounded
//! by [`MAX_NESTING`] and whose tree is bounded by [`MAX_DEPTH`], checked as the
//! tree is built (so no over-deep tree ever exists, even for a moment).

use super::{CmpOp, Node, MAX_DEPTH, MAX_LENGTH, MAX_NESTING};
use crate::{Error, Result};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i64),
    Name(String),
    Plus,
    Minus,
    Star,
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

struct Fault<'a> {
    chars: &'a [char],
}

impl Fault<'_> {
    fn at(&self, at: usize, len: usize, message: impl std::fmt::Display) -> Error {
        Error::invalid(format!(
            "expression: {message} at column {} in {}",
            at + 1,
            excerpt_at(self.chars, at, len)
        ))
    }
}

fn lex(chars: &[char], fault: &Fault) -> Result<Vec<Token>> {
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '_') {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            if i < chars.len() && (chars[i] == '.' || chars[i].is_ascii_alphabetic()) {
                return Err(fault.at(
                    i,
                    1,
                    "only whole numbers are allowed (write a fraction as floor(a / c))",
                ));
            }
            let value: i64 = text.replace('_', "").parse().map_err(|_| {
                fault.at(
                    start,
                    i - start,
                    "number is outside the 64-bit integers (largest 9223372036854775807)",
                )
            })?;
            toks.push(Token {
                tok: Tok::Int(value),
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
                tok: Tok::Name(text.to_ascii_lowercase()),
                at: start,
                text,
            });
            continue;
        }
        let next = chars.get(i + 1).copied();
        let (tok, len) = match (c, next) {
            ('+', _) => (Tok::Plus, 1),
            ('-', _) => (Tok::Minus, 1),
            ('*', Some('*')) => {
                return Err(fault.at(
                    i,
                    2,
                    "'**' (power) is not in the claim language; multiply by constants instead",
                ))
            }
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
            ('=', _) => (Tok::Cmp(CmpOp::Eq), 1),
            ('!', Some('=')) => (Tok::Cmp(CmpOp::Ne), 2),
            ('!', _) => return Err(fault.at(i, 1, "'!' is written 'not'")),
            ('<', Some('=')) => (Tok::Cmp(CmpOp::Le), 2),
            ('<', Some('<')) => return Err(fault.at(
                i,
                2,
                "shifts are not in the claim language; multiply or floor-divide by a power of two",
            )),
            ('<', _) => (Tok::Cmp(CmpOp::Lt), 1),
            ('>', Some('=')) => (Tok::Cmp(CmpOp::Ge), 2),
            ('>', Some('>')) => return Err(fault.at(
                i,
                2,
                "shifts are not in the claim language; multiply or floor-divide by a power of two",
            )),
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

/// Integer or predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Bool,
}

/// A parsed piece: its tree, kind and depth, and a division `a / c` waiting for
/// the `floor(` or `ceil(` around it.
struct Item {
    node: Node,
    kind: Kind,
    depth: usize,
    /// `Some((c, offset of '/'))` when this item is `node / c`, legal only as
    /// the whole argument of floor() or ceil().
    divided: Option<(i64, usize)>,
}

struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    nesting: usize,
    variables: &'a [String],
    params: &'a [(String, i64)],
    fault: Fault<'a>,
}

/// Parses `text` into a tree (see the module documentation for the grammar).
pub(super) fn parse(text: &str, variables: &[String], params: &[(String, i64)]) -> Result<Node> {
    let length = text.chars().count();
    if length > MAX_LENGTH {
        return Err(Error::invalid(format!(
            "expression '{}' is {length} characters long; the limit is {MAX_LENGTH}",
            crate::error::excerpt(text)
        )));
    }
    let chars: Vec<char> = text.chars().collect();
    let fault = Fault { chars: &chars };
    let toks = lex(&chars, &fault)?;
    let mut parser = Parser {
        toks,
        pos: 0,
        nesting: 0,
        variables,
        params,
        fault,
    };
    if parser.peek() == &Tok::End {
        return Err(Error::invalid(
            "expression is empty; write a rule such as 'x^y^z == 0'",
        ));
    }
    let item = parser.or()?;
    if parser.peek() != &Tok::End {
        return Err(parser.unexpected("an operator or the end"));
    }
    let item = parser.plain(item)?;
    Ok(item.node)
}

fn binary(op: &Tok, a: Box<Node>, b: Box<Node>) -> Node {
    match op {
        Tok::Plus => Node::Add(a, b),
        Tok::Minus => Node::Sub(a, b),
        Tok::Star => Node::Mul(a, b),
        Tok::Caret => Node::Xor(a, b),
        Tok::Amp => Node::And(a, b),
        Tok::Pipe => Node::Or(a, b),
        _ => unreachable!("not a binary integer operator"),
    }
}

/// The value of an integer node whose operands are constants, or `None` when it
/// has a variable. `Some(Err)` when the constant overflows.
fn fold(node: &Node) -> Option<Option<i64>> {
    let c = |n: &Node| match n {
        Node::Const(v) => Some(*v),
        _ => None,
    };
    Some(match node {
        Node::Const(v) => Some(*v),
        Node::Neg(a) => c(a)?.checked_neg(),
        Node::Add(a, b) => c(a)?.checked_add(c(b)?),
        Node::Sub(a, b) => c(a)?.checked_sub(c(b)?),
        Node::Mul(a, b) => c(a)?.checked_mul(c(b)?),
        Node::Xor(a, b) => Some(c(a)? ^ c(b)?),
        Node::And(a, b) => Some(c(a)? & c(b)?),
        Node::Or(a, b) => Some(c(a)? | c(b)?),
        Node::FloorDiv(a, d) => Some(c(a)?.div_euclid(*d)),
        Node::CeilDiv(a, d) => super::eval::ceil_div(c(a)?, *d),
        Node::Mod(a, d) => Some(c(a)?.rem_euclid(*d)),
        Node::Abs(a) => c(a)?.checked_abs(),
        Node::Min(args) => args
            .iter()
            .map(c)
            .collect::<Option<Vec<_>>>()?
            .into_iter()
            .min(),
        Node::Max(args) => args
            .iter()
            .map(c)
            .collect::<Option<Vec<_>>>()?
            .into_iter()
            .max(),
        _ => return None,
    })
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

    fn unexpected(&self, wanted: &str) -> Error {
        let t = &self.toks[self.pos];
        let what = match t.tok {
            Tok::End => "end of expression".to_string(),
            _ => format!("'{}'", t.text),
        };
        self.fault.at(
            t.at,
            t.text.chars().count(),
            format_args!("unexpected {what}, wanted {wanted}"),
        )
    }

    fn expect(&mut self, want: Tok, wanted: &str) -> Result<usize> {
        if *self.peek() == want {
            Ok(self.bump())
        } else {
            Err(self.unexpected(wanted))
        }
    }

    /// A finished item: a pending division is refused here.
    fn plain(&self, item: Item) -> Result<Item> {
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
    fn want(&self, item: Item, kind: Kind, op: &str, at: usize) -> Result<Item> {
        let item = self.plain(item)?;
        if item.kind != kind {
            let (wanted, got) = match kind {
                Kind::Int => ("integers", "a condition (true/false)"),
                Kind::Bool => (
                    "conditions such as 'x == 0'",
                    "an integer (compare it, e.g. '... == 0')",
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

    /// Builds a node one level above `depth`, folding constants; refuses a tree
    /// deeper than [`MAX_DEPTH`].
    fn make(&self, node: Node, kind: Kind, depth: usize, at: usize) -> Result<Item> {
        let depth = depth + 1;
        if depth > MAX_DEPTH {
            return Err(self.fault.at(
                at,
                1,
                format_args!(
                    "expression is nested deeper than {MAX_DEPTH} operations; split it or shorten the chain"
                ),
            ));
        }
        if kind == Kind::Int {
            if let Some(folded) = fold(&node) {
                let value = folded.ok_or_else(|| {
                    self.fault
                        .at(at, 1, "constant is outside the 64-bit integers")
                })?;
                return Ok(Item {
                    node: Node::Const(value),
                    kind,
                    depth: 1,
                    divided: None,
                });
            }
        }
        Ok(Item {
            node,
            kind,
            depth,
            divided: None,
        })
    }

    fn enter(&mut self, at: usize) -> Result<()> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(self.fault.at(
                at,
                1,
                format_args!("parentheses and calls nest deeper than {MAX_NESTING}"),
            ));
        }
        Ok(())
    }

    // or := and ('or' and)*
    fn or(&mut self) -> Result<Item> {
        let mut left = self.and()?;
        while self.peek() == &Tok::Name("or".into()) {
            let at = self.bump();
            let right = self.and()?;
            let l = self.want(left, Kind::Bool, "or", at)?;
            let r = self.want(right, Kind::Bool, "or", at)?;
            let depth = l.depth.max(r.depth);
            left = self.make(
                Node::LogicOr(Box::new(l.node), Box::new(r.node)),
                Kind::Bool,
                depth,
                at,
            )?;
        }
        Ok(left)
    }

    // and := not ('and' not)*
    fn and(&mut self) -> Result<Item> {
        let mut left = self.not()?;
        while self.peek() == &Tok::Name("and".into()) {
            let at = self.bump();
            let right = self.not()?;
            let l = self.want(left, Kind::Bool, "and", at)?;
            let r = self.want(right, Kind::Bool, "and", at)?;
            let depth = l.depth.max(r.depth);
            left = self.make(
                Node::LogicAnd(Box::new(l.node), Box::new(r.node)),
                Kind::Bool,
                depth,
                at,
            )?;
        }
        Ok(left)
    }

    // not := 'not'* comparison   (a loop, not recursion: 'not not ... p')
    fn not(&mut self) -> Result<Item> {
        let mut nots = Vec::new();
        while self.peek() == &Tok::Name("not".into()) {
            nots.push(self.bump());
        }
        let mut item = self.comparison()?;
        for at in nots.into_iter().rev() {
            let p = self.want(item, Kind::Bool, "not", at)?;
            item = self.make(Node::Not(Box::new(p.node)), Kind::Bool, p.depth, at)?;
        }
        Ok(item)
    }

    // comparison := bitor (cmp bitor)*   (a chain is the 'and' of its links)
    fn comparison(&mut self) -> Result<Item> {
        let first = self.bitor()?;
        let mut result: Option<Item> = None;
        let mut left = first;
        while let Tok::Cmp(op) = *self.peek() {
            let op_text = self.toks[self.pos].text.clone();
            let at = self.bump();
            let right = self.bitor()?;
            let l = self.want(left, Kind::Int, &op_text, at)?;
            let r = self.want(right, Kind::Int, &op_text, at)?;
            let link = self.make(
                Node::Cmp(op, Box::new(l.node), Box::new(r.node.clone())),
                Kind::Bool,
                l.depth.max(r.depth),
                at,
            )?;
            result = Some(match result {
                None => link,
                Some(prev) => {
                    let depth = prev.depth.max(link.depth);
                    self.make(
                        Node::LogicAnd(Box::new(prev.node), Box::new(link.node)),
                        Kind::Bool,
                        depth,
                        at,
                    )?
                }
            });
            left = r;
        }
        Ok(result.unwrap_or(left))
    }

    /// A left-associative chain of integer operators at one level.
    fn chain(&mut self, ops: &[Tok], next: fn(&mut Self) -> Result<Item>) -> Result<Item> {
        let mut left = next(self)?;
        while ops.contains(self.peek()) {
            let op = self.peek().clone();
            let op_text = self.toks[self.pos].text.clone();
            let at = self.bump();
            let right = next(self)?;
            let l = self.want(left, Kind::Int, &op_text, at)?;
            let r = self.want(right, Kind::Int, &op_text, at)?;
            let depth = l.depth.max(r.depth);
            left = self.make(
                binary(&op, Box::new(l.node), Box::new(r.node)),
                Kind::Int,
                depth,
                at,
            )?;
        }
        Ok(left)
    }

    fn bitor(&mut self) -> Result<Item> {
        self.chain(&[Tok::Pipe], Self::bitxor)
    }

    fn bitxor(&mut self) -> Result<Item> {
        self.chain(&[Tok::Caret], Self::bitand)
    }

    fn bitand(&mut self) -> Result<Item> {
        self.chain(&[Tok::Amp], Self::sum)
    }

    fn sum(&mut self) -> Result<Item> {
        self.chain(&[Tok::Plus, Tok::Minus], Self::term)
    }

    /// A positive constant divisor for the operator at `at`.
    fn divisor(&self, item: Item, op: &str, at: usize) -> Result<(i64, usize)> {
        let item = self.want(item, Kind::Int, op, at)?;
        match item.node {
            Node::Const(c) if c > 0 => Ok((c, item.depth)),
            Node::Const(c) => Err(self.fault.at(
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

    // term := unary (('*' | '//' | '%' | '/') unary)*
    fn term(&mut self) -> Result<Item> {
        let mut left = self.unary()?;
        loop {
            let op = self.peek().clone();
            if !matches!(op, Tok::Star | Tok::SlashSlash | Tok::Percent | Tok::Slash) {
                return Ok(left);
            }
            let op_text = self.toks[self.pos].text.clone();
            let at = self.bump();
            let right = self.unary()?;
            let l = self.want(left, Kind::Int, &op_text, at)?;
            left = match op {
                Tok::Star => {
                    let r = self.want(right, Kind::Int, &op_text, at)?;
                    let depth = l.depth.max(r.depth);
                    self.make(
                        Node::Mul(Box::new(l.node), Box::new(r.node)),
                        Kind::Int,
                        depth,
                        at,
                    )?
                }
                Tok::SlashSlash => {
                    let (c, _) = self.divisor(right, &op_text, at)?;
                    self.make(Node::FloorDiv(Box::new(l.node), c), Kind::Int, l.depth, at)?
                }
                Tok::Percent => {
                    let (c, _) = self.divisor(right, &op_text, at)?;
                    self.make(Node::Mod(Box::new(l.node), c), Kind::Int, l.depth, at)?
                }
                _ => {
                    let (c, _) = self.divisor(right, &op_text, at)?;
                    Item {
                        divided: Some((c, at)),
                        ..l
                    }
                }
            };
        }
    }

    // unary := '-'* atom   (a loop, not recursion)
    fn unary(&mut self) -> Result<Item> {
        let mut signs = Vec::new();
        while self.peek() == &Tok::Minus || self.peek() == &Tok::Plus {
            let negative = self.peek() == &Tok::Minus;
            let at = self.bump();
            if negative {
                signs.push(at);
            }
        }
        let mut item = self.atom()?;
        for at in signs.into_iter().rev() {
            let a = self.want(item, Kind::Int, "-", at)?;
            item = self.make(Node::Neg(Box::new(a.node)), Kind::Int, a.depth, at)?;
        }
        Ok(item)
    }

    fn atom(&mut self) -> Result<Item> {
        let t = &self.toks[self.pos];
        let at = t.at;
        match t.tok.clone() {
            Tok::Int(v) => {
                self.bump();
                Ok(Item {
                    node: Node::Const(v),
                    kind: Kind::Int,
                    depth: 1,
                    divided: None,
                })
            }
            Tok::LParen => {
                self.bump();
                self.enter(at)?;
                let inner = self.or()?;
                self.expect(Tok::RParen, "')'")?;
                self.nesting -= 1;
                self.plain(inner)
            }
            Tok::Name(name) => {
                let text = t.text.clone();
                self.bump();
                if self.peek() == &Tok::LParen {
                    return self.call(&name, &text, at);
                }
                if let Some(i) = self.variables.iter().position(|v| *v == name) {
                    return Ok(Item {
                        node: Node::Var(i),
                        kind: Kind::Int,
                        depth: 1,
                        divided: None,
                    });
                }
                if let Some((_, v)) = self.params.iter().find(|(p, _)| *p == name) {
                    return Ok(Item {
                        node: Node::Const(*v),
                        kind: Kind::Int,
                        depth: 1,
                        divided: None,
                    });
                }
                if matches!(name.as_str(), "and" | "or" | "not") {
                    return Err(self.fault.at(
                        at,
                        text.chars().count(),
                        format_args!("'{text}' needs a condition before it"),
                    ));
                }
                let mut known: Vec<&str> = self.variables.iter().map(String::as_str).collect();
                known.extend(self.params.iter().map(|(p, _)| p.as_str()));
                Err(self.fault.at(
                    at,
                    text.chars().count(),
                    format_args!(
                        "unknown name '{text}' (the names here are {})",
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ),
                ))
            }
            _ => Err(self.unexpected("a number, a name or '('")),
        }
    }

    fn call(&mut self, name: &str, text: &str, at: usize) -> Result<Item> {
        const FUNCTIONS: &str = "floor, ceil, min, max and abs";
        if !matches!(name, "floor" | "ceil" | "min" | "max" | "abs") {
            return Err(self.fault.at(
                at,
                text.chars().count(),
                format_args!("unknown function '{text}' (the functions are {FUNCTIONS})"),
            ));
        }
        self.bump(); // '('
        self.enter(at)?;
        let mut args = vec![self.bitor()?];
        while self.peek() == &Tok::Comma {
            self.bump();
            args.push(self.bitor()?);
        }
        self.expect(Tok::RParen, "',' or ')'")?;
        self.nesting -= 1;
        let count = |want: &str| {
            self.fault.at(
                at,
                text.chars().count(),
                format_args!("{text}() takes {want}, got {}", args.len()),
            )
        };
        match name {
            "floor" | "ceil" => {
                if args.len() != 1 {
                    return Err(count("one argument, a division such as floor(x / 2)"));
                }
                let arg = args.pop().expect("one argument");
                let Some((c, _)) = arg.divided else {
                    self.want(arg, Kind::Int, text, at)?;
                    return Err(self.fault.at(
                        at,
                        text.chars().count(),
                        format_args!(
                            "{text}() of a whole number is the number itself; write {text}(a / c) to divide by a constant"
                        ),
                    ));
                };
                let arg = Item {
                    divided: None,
                    ..arg
                };
                let a = self.want(arg, Kind::Int, text, at)?;
                let node = if name == "floor" {
                    Node::FloorDiv(Box::new(a.node), c)
                } else {
                    Node::CeilDiv(Box::new(a.node), c)
                };
                self.make(node, Kind::Int, a.depth, at)
            }
            "abs" => {
                if args.len() != 1 {
                    return Err(count("one argument"));
                }
                let a = self.want(args.pop().expect("one argument"), Kind::Int, text, at)?;
                self.make(Node::Abs(Box::new(a.node)), Kind::Int, a.depth, at)
            }
            _ => {
                if args.len() < 2 {
                    return Err(count("two or more arguments"));
                }
                let mut nodes = Vec::with_capacity(args.len());
                let mut depth = 0;
                for a in args {
                    let a = self.want(a, Kind::Int, text, at)?;
                    depth = depth.max(a.depth);
                    nodes.push(a.node);
                }
                let node = if name == "min" {
                    Node::Min(nodes)
                } else {
                    Node::Max(nodes)
                };
                self.make(node, Kind::Int, depth, at)
            }
        }
    }
}
