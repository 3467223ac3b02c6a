//! The square chocolate game's theorems for **every** m, as sentences of
//! Büchi arithmetic in which m is a variable.
//!
//! Okubo–Kashiwagi–Niida, "Recursive Patterns in the Chocolate Game", prove
//! by hand that the P-positions of the chocolate game are given by a nim-sum
//! (Theorem 2.3), and from it the symmetries of the pattern R(m,m)
//! (Propositions 3.1, 3.2), its self-similarity R(2m,2m) = 2R(m,m) (Theorem
//! 3.3), its decomposition into corner copies of R(s,s) and a centre copy of
//! R(t,t) (Theorem 3.4) and the recurrences of the number g(m) of P-cells
//! (Lemma 4.1). Here each is one sentence:
//!
//! * **The criterion** (`criterion`) is a claim about a game: the bar itself,
//!   positions `(i, j, m, n)`, moves the breaks ([`ChocolateBar`]). It is
//!   decided as every other P-set claim (no move inside the set, a move into
//!   it from outside), for every m and n, so it rests on no nim-sum argument.
//! * **The pattern theorems** speak about cells of boards of sizes that are
//!   terms in m (`C(2m,2m)`, `C(s,s)`): a [`Cells`] formula whose atom
//!   `P(n, x, y)` ("cell (x, y) of C(n,n) is a P-position") the engine reads
//!   as the proved criterion, and the confirmation of a counterexample reads
//!   as a game search (the Grundy value by the mex of the moves, no nim-sum).
//! * The top bit `p = 2^(k+1)` of m in Theorem 3.4 is the variable `p` with
//!   `p & (p - 1) == 0` and `p <= m < 2p`: a power of two is expressible.
//! * **Counting is not**: `g(m)` is the size of a set of cells, and neither
//!   first-order Büchi arithmetic nor WS1S (where a number is already a set)
//!   can compare sizes of sets of numbers. Lemma 4.1 is proved at the cell
//!   level, as statements that give the counts at once: P(2m,2m) is the
//!   preimage of P(m,m) under a map whose fibres all have four cells, and
//!   P(2m+1,2m+1) is a copy of P(m+1,m+1) on the odd cells and one of P(m,m)
//!   on the even cells. Theorems 4.2 and 4.3 (sums over m) follow from them
//!   by the paper's induction and are listed as not expressible.

use super::ir::{CmpOp, Env, Formula, Term};
use super::ProofGame;
use crate::games::chocolate::ChocolateBar;
use crate::games::nim::Nim;
use crate::games::solver::solve_dense;
use crate::{Control, Error, Result};
use std::collections::BTreeMap;

/// The paper every theorem here comes from, as the references cite it.
pub const PAPER: &str = "Okubo–Kashiwagi–Niida, \"Recursive Patterns in the Chocolate Game\"";

/// The same for LaTeX.
pub const PAPER_LATEX: &str =
    "Okubo--Kashiwagi--Niida, \\emph{Recursive Patterns in the Chocolate Game}";

/// A statement about P-cells of square boards: arithmetic, and the atom
/// `P(n, x, y)`, "cell (x, y) of C(n,n) is a P-position" (false off the board).
#[derive(Clone, Debug)]
pub enum Cells {
    /// An arithmetic formula (quantifier-free, so that it evaluates).
    Holds(Formula),
    /// Cell `(x, y)` of the `n x n` board is a P-position.
    P(Term, Term, Term),
    /// Negation.
    Not(Box<Cells>),
    /// Conjunction.
    And(Vec<Cells>),
    /// `a => b`.
    Implies(Box<Cells>, Box<Cells>),
    /// `a <=> b`.
    Iff(Box<Cells>, Box<Cells>),
}

fn v(name: &str) -> Term {
    Term::var(name)
}

fn c(k: i64) -> Term {
    Term::Const(k)
}

/// `P(n, x, y)`.
fn p(n: Term, x: Term, y: Term) -> Cells {
    Cells::P(n, x, y)
}

impl Cells {
    fn iff(self, b: Cells) -> Cells {
        Cells::Iff(Box::new(self), Box::new(b))
    }

    fn when(f: Formula, then: Cells) -> Cells {
        Cells::Implies(Box::new(Cells::Holds(f)), Box::new(then))
    }

    fn not(self) -> Cells {
        Cells::Not(Box::new(self))
    }

    /// The engine's reading: every `P` atom as the criterion of Theorem 2.3
    /// over the four sides of the bar, natural numbers quantified per atom
    /// ([`criterion_by_sides`]); `atoms` numbers their names.
    pub fn to_logic(&self, atoms: &mut usize) -> Formula {
        match self {
            Cells::Holds(f) => f.clone(),
            Cells::P(n, x, y) => {
                *atoms += 1;
                criterion_by_sides(n, x, y, *atoms)
            }
            Cells::Not(a) => a.to_logic(atoms).not(),
            Cells::And(all) => Formula::and(all.iter().map(|a| a.to_logic(atoms))),
            Cells::Implies(a, b) => a.to_logic(atoms).implies(b.to_logic(atoms)),
            Cells::Iff(a, b) => a.to_logic(atoms).iff(b.to_logic(atoms)),
        }
    }

    /// The reference reading: every `P` atom as [`criterion`], quantifier-free
    /// (so that it evaluates; the tests check it against the engine's).
    pub fn to_reference(&self) -> Formula {
        match self {
            Cells::Holds(f) => f.clone(),
            Cells::P(n, x, y) => criterion(n, x, y),
            Cells::Not(a) => a.to_reference().not(),
            Cells::And(all) => Formula::and(all.iter().map(Cells::to_reference)),
            Cells::Implies(a, b) => a.to_reference().implies(b.to_reference()),
            Cells::Iff(a, b) => a.to_reference().iff(b.to_reference()),
        }
    }

    /// The truth value under `env`, each cell's P-status asked of `is_p`
    /// (board side, row, column; the cell is on the board).
    pub fn eval(
        &self,
        env: &Env,
        is_p: &mut dyn FnMut(u64, u64, u64) -> Result<bool>,
    ) -> Result<bool> {
        let num = |t: &Term| {
            t.eval(env)
                .map_err(|e| Error::invalid_request(format!("{t}: {e}")))
        };
        Ok(match self {
            Cells::Holds(f) => f
                .eval(env)
                .map_err(|e| Error::invalid_request(format!("{f}: {e}")))?,
            Cells::P(n, x, y) => {
                let (n, x, y) = (num(n)?, num(x)?, num(y)?);
                if !(1 <= x && x <= n && 1 <= y && y <= n) {
                    return Ok(false);
                }
                let side = |v: i128| {
                    u64::try_from(v).map_err(|_| Error::invalid_request(format!("board side {v}")))
                };
                is_p(side(n)?, side(x)?, side(y)?)?
            }
            Cells::Not(a) => !a.eval(env, is_p)?,
            Cells::And(all) => {
                for a in all {
                    if !a.eval(env, is_p)? {
                        return Ok(false);
                    }
                }
                true
            }
            Cells::Implies(a, b) => !a.eval(env, is_p)? || b.eval(env, is_p)?,
            Cells::Iff(a, b) => a.eval(env, is_p)? == b.eval(env, is_p)?,
        })
    }
}

/// Cell `(x, y)` is on the `n x n` board.
fn on_board(n: &Term, x: &Term, y: &Term) -> Formula {
    Formula::and([
        c(1).le(x.clone()),
        x.clone().le(n.clone()),
        c(1).le(y.clone()),
        y.clone().le(n.clone()),
    ])
}

/// Theorem 2.3 of the paper as a formula: cell `(x, y)` is on the `n x n`
/// board and `(x-1) ^ (y-1) ^ (n-x) ^ (n-y) == 0`.
pub fn criterion(n: &Term, x: &Term, y: &Term) -> Formula {
    let nim_sum = x
        .clone()
        .sub(c(1))
        .xor(y.clone().sub(c(1)))
        .xor(n.clone().sub(x.clone()))
        .xor(n.clone().sub(y.clone()));
    Formula::and([on_board(n, x, y), nim_sum.eq(c(0))])
}

/// The criterion as the engine reads it: there are naturals `above`,
/// `left`, `below`, `right` (the rows above the cell, the columns left of
/// it, ...) with `above + 1 = x`, `left + 1 = y`, `x + below = n`,
/// `y + right = n` and `above ^ left ^ below ^ right == 0`. The same as
/// [`criterion`] (the engine checks it for all values), but every value is
/// natural, which keeps the automata small. `atom` makes the names unique.
pub fn criterion_by_sides(n: &Term, x: &Term, y: &Term, atom: usize) -> Formula {
    let names: Vec<String> = ["above", "left", "below", "right"]
        .iter()
        .map(|side| format!("{side}_{atom}"))
        .collect();
    let [above, left, below, right] = [0, 1, 2, 3].map(|k| v(&names[k]));
    Formula::exists(
        &names,
        Formula::and([
            above.clone().add(c(1)).eq(x.clone()),
            left.clone().add(c(1)).eq(y.clone()),
            x.clone().add(below.clone()).eq(n.clone()),
            y.clone().add(right.clone()).eq(n.clone()),
            above.xor(left).xor(below).xor(right).eq(c(0)),
        ]),
    )
}

/// A theorem about the cells of square boards, for every value of its variables.
#[derive(Clone, Debug)]
pub struct CellTheorem {
    /// The name `--theorem` takes, e.g. `decomposition`.
    pub name: String,
    /// Where the paper states it, e.g. `Theorem 3.4`.
    pub source: String,
    /// The statement in words (plain text).
    pub statement: String,
    /// The statement for a paper (LaTeX, the body of a theorem environment).
    pub latex: String,
    /// What it gives beyond itself, e.g. `g(2m) = 4 g(m)`.
    pub gives: Option<String>,
    /// The free variables, in the order a counterexample names them.
    pub vars: Vec<String>,
    /// How many of [`Self::vars`] (from the first) the search for the
    /// smallest counterexample minimises; the others follow from them.
    pub searched: usize,
    /// Where it is claimed (the variables' range, the top bit's definition).
    pub hypothesis: Formula,
    /// The parts of the claim, each with its words.
    pub clauses: Vec<(String, Cells)>,
}

impl CellTheorem {
    /// The sentence the engine decides (valid for all values of [`Self::vars`]).
    pub fn sentence(&self) -> Formula {
        self.sentence_where(Formula::True)
    }

    /// The sentence with some variables bounded, `var <= value` or `var == value`
    /// (the search for the smallest counterexample).
    pub fn sentence_where(&self, extra: Formula) -> Formula {
        let mut atoms = 0;
        Formula::and([extra, self.hypothesis.clone()]).implies(Formula::and(
            self.clauses.iter().map(|(_, c)| c.to_logic(&mut atoms)),
        ))
    }

    /// The sentence with the quantifier-free criterion (see [`Cells::to_reference`]).
    pub fn reference_sentence(&self) -> Formula {
        self.hypothesis.clone().implies(Formula::and(
            self.clauses.iter().map(|(_, c)| c.to_reference()),
        ))
    }
}

/// What `--theorem NAME` names.
#[derive(Clone, Debug)]
pub enum Theorem {
    /// Theorem 2.3, the criterion, a P-set claim about the bar game.
    Criterion,
    /// A statement about the cells of square boards.
    Cells(Box<CellTheorem>),
}

/// One line of the theorem list.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The name `--theorem` takes; `None` when it cannot be proved here.
    pub name: Option<&'static str>,
    /// Where the paper states it.
    pub source: &'static str,
    /// What it says, and for counts how it is proved.
    pub says: &'static str,
}

/// Why counting is out of reach, said wherever a count is.
pub const COUNTING: &str = "counting is not expressible: g(m) is the size of a set of cells, and Büchi arithmetic (or WS1S, where a number is already a set) cannot compare sizes of sets of numbers";

/// Every theorem of the paper's Sections 2–4, in its order, with the name
/// that proves it, or why none does.
pub fn catalogue() -> Vec<Entry> {
    vec![
        Entry {
            name: Some("criterion"),
            source: "Theorem 2.3",
            says: "a cell (i,j) of C(m,n) is a P-position iff (i-1)^(j-1)^(m-i)^(n-j) = 0, decided on the bar game itself (moves are breaks), every m and n; the other theorems read P-cells by this criterion",
        },
        Entry {
            name: Some("symmetry"),
            source: "Proposition 3.1",
            says: "R(m,m) is symmetric under both mirrors and the diagonal flip: cells (i,j), (i,m+1-j), (m+1-i,j), (j,i) are all P or all not",
        },
        Entry {
            name: Some("diagonals"),
            source: "Proposition 3.2",
            says: "every cell (k,k) and (k,m+1-k) of both diagonals is a P-position",
        },
        Entry {
            name: Some("doubling"),
            source: "Theorem 3.3",
            says: "R(2m,2m) = 2R(m,m): cell (i,j) of C(2m,2m) is P iff cell (ceil(i/2), ceil(j/2)) of C(m,m) is (each cell a 2x2 block)",
        },
        Entry {
            name: Some("decomposition"),
            source: "Theorem 3.4",
            says: "m = 2^(k+1) + s with 0 <= s < 2^(k+1), t = 2^(k+1) - s: R(m,m) is four copies of R(s,s) at the corners, one copy of R(t,t) at the centre, and empty edge blocks",
        },
        Entry {
            name: Some("count-doubling"),
            source: "Lemma 4.1",
            says: "g(2m) = 4g(m): the count itself is not expressible (counting is not first-order); proved at the cell level: P(2m,2m) is the preimage of P(m,m) under (x,y) -> (ceil(x/2), ceil(y/2)), each of whose fibres is four cells",
        },
        Entry {
            name: Some("count-odd"),
            source: "Lemma 4.1",
            says: "g(2m+1) = g(m) + g(m+1): the count itself is not expressible; proved at the cell level: the odd cells of C(2m+1,2m+1) copy C(m+1,m+1), the even cells C(m,m), the mixed cells are never P",
        },
        Entry {
            name: None,
            source: "Theorems 4.2, 4.3",
            says: "sums of g(m) over m equal 6^(n-1) and (4^n + 6^n)/2: not expressible (counting, and powers with a variable exponent); they follow from Lemma 4.1 by the paper's induction",
        },
    ]
}

/// The names `--theorem` takes, in the list's order.
pub fn names() -> Vec<&'static str> {
    catalogue().iter().filter_map(|e| e.name).collect()
}

/// The theorem `name` proves; an error listing the names otherwise.
pub fn theorem(name: &str) -> Result<Theorem> {
    Ok(match name {
        "criterion" | "2.3" => Theorem::Criterion,
        "symmetry" | "3.1" => Theorem::Cells(Box::new(symmetry())),
        "diagonals" | "3.2" => Theorem::Cells(Box::new(diagonals())),
        "doubling" | "3.3" => Theorem::Cells(Box::new(doubling())),
        "decomposition" | "3.4" => {
            Theorem::Cells(Box::new(decomposition(Decomposition::AsStated)))
        }
        "count-doubling" => Theorem::Cells(Box::new(count_doubling())),
        "count-odd" => Theorem::Cells(Box::new(count_odd())),
        _ => {
            return Err(Error::invalid_request(format!(
                "unknown theorem '{}' of the square game; choose one of {} (or the paper's number, 2.3 to 3.4), all, or list",
                crate::error::excerpt(name),
                names().join(", ")
            )))
        }
    })
}

/// `m`, `i`, `j` as strings.
fn names_of(vars: &[&str]) -> Vec<String> {
    vars.iter().map(|s| s.to_string()).collect()
}

fn symmetry() -> CellTheorem {
    let (m, i, j) = (v("m"), v("i"), v("j"));
    let here = || p(m.clone(), i.clone(), j.clone());
    let flip = |a: &Term| m.clone().add(c(1)).sub(a.clone());
    CellTheorem {
        name: "symmetry".into(),
        source: "Proposition 3.1".into(),
        statement: "For every m >= 1 and every cell (i, j) of C(m,m), the cells (i, j), (i, m-j+1), (m-i+1, j) and (j, i) are either all P-positions or all not: R(m,m) is symmetric under both mirrors and the diagonal flip.".into(),
        latex: "For every $m \\ge 1$ and every cell $(i,j)$ of $C_{m,m}$, the cells $(i,j)$, $(i,m-j+1)$, $(m-i+1,j)$ and $(j,i)$ are either all P-positions or all non-P-positions.".into(),
        gives: None,
        vars: names_of(&["m", "i", "j"]),
        searched: 3,
        hypothesis: on_board(&m, &i, &j),
        clauses: vec![
            ("the vertical mirror: cell (i, m+1-j)".into(), here().iff(p(m.clone(), i.clone(), flip(&j)))),
            ("the horizontal mirror: cell (m+1-i, j)".into(), here().iff(p(m.clone(), flip(&i), j.clone()))),
            ("the diagonal flip: cell (j, i)".into(), here().iff(p(m.clone(), j.clone(), i.clone()))),
        ],
    }
}

fn diagonals() -> CellTheorem {
    let (m, k) = (v("m"), v("k"));
    CellTheorem {
        name: "diagonals".into(),
        source: "Proposition 3.2".into(),
        statement: "For every m >= 1 and 1 <= k <= m, the cells (k, k) and (k, m+1-k) of C(m,m) are P-positions.".into(),
        latex: "For every $m \\ge 1$ and $1 \\le k \\le m$, the cells $(k,k)$ and $(k,m+1-k)$ of $C_{m,m}$ are P-positions.".into(),
        gives: None,
        vars: names_of(&["m", "k"]),
        searched: 2,
        hypothesis: Formula::and([c(1).le(k.clone()), k.clone().le(m.clone())]),
        clauses: vec![
            ("the main diagonal: cell (k, k)".into(), p(m.clone(), k.clone(), k.clone())),
            (
                "the other diagonal: cell (k, m+1-k)".into(),
                p(m.clone(), k.clone(), m.clone().add(c(1)).sub(k)),
            ),
        ],
    }
}

/// `ceil(a / 2)` for a natural `a`.
fn half_up(a: &Term) -> Term {
    a.clone().add(c(1)).floor_div(2)
}

fn doubling() -> CellTheorem {
    let (m, i, j) = (v("m"), v("i"), v("j"));
    let two_m = m.clone().times(2);
    CellTheorem {
        name: "doubling".into(),
        source: "Theorem 3.3".into(),
        statement: "For every m >= 1, R(2m,2m) = 2R(m,m): a cell (i, j) of C(2m,2m) is a P-position if and only if the cell (ceil(i/2), ceil(j/2)) of C(m,m) is, so every cell of R(m,m) becomes a 2 x 2 block.".into(),
        latex: "For every $m \\ge 1$, $R_{2m,2m} = 2R_{m,m}$: a cell $(i,j)$ of $C_{2m,2m}$ is a P-position if and only if the cell $(\\lceil i/2 \\rceil, \\lceil j/2 \\rceil)$ of $C_{m,m}$ is.".into(),
        gives: None,
        vars: names_of(&["m", "i", "j"]),
        searched: 3,
        hypothesis: Formula::and([c(1).le(m.clone()), on_board(&two_m, &i, &j)]),
        clauses: vec![(
            "cell (i, j) of C(2m,2m) against cell (ceil(i/2), ceil(j/2)) of C(m,m)".into(),
            p(two_m, i.clone(), j.clone()).iff(p(m, half_up(&i), half_up(&j))),
        )],
    }
}

/// Theorem 3.4 as the paper states it, or a wrong variant built by the same
/// code (for the tests: a refutation must come with a confirmed counterexample).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decomposition {
    /// The paper's statement.
    AsStated,
    /// Wrong: the edge blocks claimed full of P-cells.
    EdgesFull,
    /// Wrong: the centre claimed a copy of R(t+1,t+1).
    CentreOffByOne,
}

/// What a statement in the form of Theorem 3.4 says of each block of
/// R(m,m), cut into widths s, t, s: the corner blocks are copies of
/// R(c,c), the centre block a copy of R(d,d), the edge blocks empty (or
/// full), with `c` and `d` terms in `m`, `p` (the top bit 2^(k+1) of m),
/// `s` and `t`. The paper: `c = s`, `d = t`, edges empty.
#[derive(Clone, Debug)]
pub struct Blocks {
    /// The side of the boards the corner blocks copy, and its text.
    pub corners: (Term, String),
    /// The side of the board the centre block copies, and its text.
    pub centre: (Term, String),
    /// Whether the edge blocks are claimed full of P-positions (else empty).
    pub edges_full: bool,
}

/// The names a `--variant` side may use: m, the top bit p = 2^(k+1), s, t.
pub const VARIANT_VARIABLES: [&str; 4] = ["m", "p", "s", "t"];

impl Blocks {
    /// The paper's statement.
    pub fn as_stated() -> Blocks {
        Blocks {
            corners: (v("s"), "s".into()),
            centre: (v("t"), "t".into()),
            edges_full: false,
        }
    }

    /// One of the named variants.
    pub fn of(variant: Decomposition) -> Blocks {
        let mut blocks = Blocks::as_stated();
        match variant {
            Decomposition::AsStated => {}
            Decomposition::EdgesFull => blocks.edges_full = true,
            Decomposition::CentreOffByOne => {
                blocks.centre = (v("t").add(c(1)), "t+1".into());
            }
        }
        blocks
    }

    /// The paper's statement with the blocks `spec` names changed:
    /// `centre=EXPR`, `corners=EXPR` (integer expressions in m, p, s, t of
    /// the claim language) and `edges=empty|full`, separated by commas, e.g.
    /// `centre=t+1` or `corners=s+1, edges=full`.
    pub fn parse(spec: &str) -> Result<Blocks> {
        let mut blocks = Blocks::as_stated();
        let usage = "give KEY=VALUE pairs separated by commas: centre=EXPR and corners=EXPR (expressions in m, p = 2^(k+1), s, t; the paper has centre=t, corners=s) and edges=empty|full";
        let mut seen: Vec<String> = Vec::new();
        let mut any = false;
        for part in split_top_level(spec) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            any = true;
            let Some((key, value)) = part.split_once('=') else {
                return Err(Error::invalid_parameter(
                    "variant",
                    format!(
                        "`variant` '{}': '{}' has no '='; {usage}",
                        crate::error::excerpt(spec),
                        crate::error::excerpt(part)
                    ),
                ));
            };
            let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
            if seen.contains(&key) {
                return Err(Error::invalid_parameter(
                    "variant",
                    format!(
                        "`variant` '{}': {key} is given twice; {usage}",
                        crate::error::excerpt(spec)
                    ),
                ));
            }
            seen.push(key.clone());
            let side = |value: &str| -> Result<(Term, String)> {
                let expr =
                    crate::claim::Expr::parse(value, &VARIANT_VARIABLES, &[]).map_err(|e| {
                        Error::invalid_parameter(
                            "variant",
                            format!("`variant` {key}={}: {e}", crate::error::excerpt(value)),
                        )
                    })?;
                if expr.is_predicate() {
                    return Err(Error::invalid_parameter(
                        "variant",
                        format!(
                        "`variant` {key}={}: a side is a number, not a condition; e.g. {key}=t+1",
                        crate::error::excerpt(value)
                    ),
                    ));
                }
                let term = super::from_claim::integer(&expr).map_err(|e| {
                    Error::invalid_parameter(
                        "variant",
                        format!("`variant` {key}={}: {e}", crate::error::excerpt(value)),
                    )
                })?;
                Ok((term, value.split_whitespace().collect::<Vec<_>>().join("")))
            };
            match key.as_str() {
                "centre" | "center" => blocks.centre = side(value)?,
                "corners" | "corner" => blocks.corners = side(value)?,
                "edges" | "edge" => {
                    blocks.edges_full = match value.to_ascii_lowercase().as_str() {
                        "empty" => false,
                        "full" => true,
                        _ => {
                            return Err(Error::invalid_parameter(
                                "variant",
                                format!(
                                    "`variant` edges={}: the edge blocks are claimed empty or full",
                                    crate::error::excerpt(value)
                                ),
                            ))
                        }
                    }
                }
                _ => {
                    return Err(Error::invalid_parameter(
                        "variant",
                        format!(
                            "`variant` '{}': unknown block '{}'; {usage}",
                            crate::error::excerpt(spec),
                            crate::error::excerpt(&key)
                        ),
                    ))
                }
            }
        }
        if !any {
            return Err(Error::invalid_parameter(
                "variant",
                format!("`variant` is empty; {usage}"),
            ));
        }
        Ok(blocks)
    }

    /// Whether these are the paper's blocks, as written.
    pub fn is_as_stated(&self) -> bool {
        self.corners.1 == "s" && self.centre.1 == "t" && !self.edges_full
    }

    /// The variant in words, e.g. `corners=s, centre=t+1, edges=empty`.
    pub fn describe(&self) -> String {
        format!(
            "corners={}, centre={}, edges={}",
            self.corners.1,
            self.centre.1,
            if self.edges_full { "full" } else { "empty" }
        )
    }
}

/// `text` split at the commas outside parentheses (`min(s, t)` stays whole).
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (at, ch) in text.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Theorem 3.4 (or a wrong variant).
pub fn decomposition(variant: Decomposition) -> CellTheorem {
    let mut theorem = decomposition_of(&Blocks::of(variant));
    theorem.name = match variant {
        Decomposition::AsStated => "decomposition",
        Decomposition::EdgesFull => "decomposition-wrong-edges",
        Decomposition::CentreOffByOne => "decomposition-wrong-centre",
    }
    .into();
    match variant {
        Decomposition::AsStated => {}
        Decomposition::EdgesFull => {
            theorem.statement =
                "(a deliberately wrong Theorem 3.4: the edge blocks claimed full of P-positions)"
                    .into()
        }
        Decomposition::CentreOffByOne => {
            theorem.statement =
                "(a deliberately wrong Theorem 3.4: the centre claimed a copy of R(t+1,t+1))".into()
        }
    }
    theorem
}

/// A statement in the form of Theorem 3.4 with the blocks `blocks` says
/// (the paper's own with [`Blocks::as_stated`]).
///
/// The paper's `2^(k+1)`, `s` and `t` are the variables `p`, `s`, `t`, fixed
/// by the hypothesis (`p` a power of two with `p <= m < 2p`, `s + p = m`,
/// `s + t = p`), and a cell's place in its block is `(a, b)`, fixed by the
/// clause it is used in (`a + p = i` in a lower corner, `a + s = i` in the
/// centre): every number is a natural variable, which keeps the automata small.
pub fn decomposition_of(blocks: &Blocks) -> CellTheorem {
    let [m, i, j, top, s, t, a, b] = ["m", "i", "j", "p", "s", "t", "a", "b"].map(v);
    let low = |x: &Term| x.clone().le(s.clone());
    // The middle band is rows s+1 .. s+t = p, the far band p+1 .. m.
    let middle = |x: &Term| Formula::and([s.clone().lt(x.clone()), x.clone().le(top.clone())]);
    let high = |x: &Term| top.clone().lt(x.clone());
    let here = || p(m.clone(), i.clone(), j.clone());
    let (corner_side, corner_text) = blocks.corners.clone();
    let (centre_side, centre_text) = blocks.centre.clone();
    let corner = |place: Vec<Formula>, x: Term, y: Term| {
        Cells::when(
            Formula::and(place),
            here().iff(p(corner_side.clone(), x, y)),
        )
    };
    let row_far = a.clone().add(top.clone()).eq(i.clone());
    let col_far = b.clone().add(top.clone()).eq(j.clone());
    let edges = Formula::or([
        Formula::and([middle(&i), middle(&j).not()]),
        Formula::and([middle(&i).not(), middle(&j)]),
    ]);
    let edge_claim = if blocks.edges_full {
        here()
    } else {
        here().not()
    };
    let power_of_two = Formula::and([
        c(1).le(top.clone()),
        Term::And(Box::new(top.clone()), Box::new(top.clone().sub(c(1)))).eq(c(0)),
    ]);
    let as_stated = blocks.is_as_stated();
    let board = |side: &str| format!("C({side},{side})");
    let copy = |side: &str| format!("R({side},{side})");
    let latex_copy = |side: &str| {
        let side = super::latex_text(side);
        format!("R_{{{side},{side}}}")
    };
    CellTheorem {
        name: if as_stated {
            "decomposition"
        } else {
            "decomposition-variant"
        }
        .into(),
        source: "Theorem 3.4".into(),
        statement: if as_stated {
            "For every m >= 2, written m = 2^(k+1) + s with 0 <= s < 2^(k+1), and t = 2^(k+1) - s: cut C(m,m) into blocks of widths s, t, s; the four s x s corner blocks are copies of R(s,s), the t x t centre block is a copy of R(t,t), and the four edge blocks hold no P-position.".into()
        } else {
            format!(
                "(a variant of Theorem 3.4, {}) For every m >= 2, written m = 2^(k+1) + s with 0 <= s < 2^(k+1), p = 2^(k+1) and t = p - s: cut C(m,m) into blocks of widths s, t, s; the four corner blocks are copies of {}, the centre block is a copy of {}, and the four edge blocks {}.",
                blocks.describe(),
                copy(&corner_text),
                copy(&centre_text),
                if blocks.edges_full { "are full of P-positions" } else { "hold no P-position" }
            )
        },
        latex: if as_stated {
            "Let $m \\ge 2$ be an integer with binary expansion $m = a_0 + a_1 2 + \\dots + a_k 2^k + 2^{k+1}$, and let $s = a_0 + a_1 2 + \\dots + a_k 2^k$ and $t = 2^{k+1} - s$. Then the pattern $R_{m,m}$ consists of four copies of $R_{s,s}$ placed at the corners and one copy of $R_{t,t}$ placed at the center: cut into blocks of widths $s$, $t$, $s$, the corner blocks are copies of $R_{s,s}$, the centre block is a copy of $R_{t,t}$, and the four edge blocks contain no P-position.".into()
        } else {
            format!(
                "Let $m \\ge 2$ be an integer, $p = 2^{{k+1}}$ its highest power of two, $s = m - p$ and $t = p - s$. Cut $R_{{m,m}}$ into blocks of widths $s$, $t$, $s$: the corner blocks are copies of ${}$, the centre block is a copy of ${}$, and the four edge blocks {}.",
                latex_copy(&corner_text),
                latex_copy(&centre_text),
                if blocks.edges_full { "consist of P-positions only" } else { "contain no P-position" }
            )
        },
        gives: None,
        vars: names_of(&["m", "i", "j", "p", "s", "t", "a", "b"]),
        searched: 3,
        hypothesis: Formula::and([
            c(2).le(m.clone()),
            power_of_two,
            top.clone().le(m.clone()),
            m.clone().lt(top.clone().times(2)),
            s.clone().add(top.clone()).eq(m.clone()),
            s.clone().add(t.clone()).eq(top.clone()),
            on_board(&m, &i, &j),
        ]),
        clauses: vec![
            (
                format!("top-left corner: cell (i, j) of {}", board(&corner_text)),
                corner(vec![low(&i), low(&j)], i.clone(), j.clone()),
            ),
            (
                format!(
                    "top-right corner: cell (i, j-s-t) of {}",
                    board(&corner_text)
                ),
                corner(
                    vec![low(&i), high(&j), col_far.clone()],
                    i.clone(),
                    b.clone(),
                ),
            ),
            (
                format!(
                    "bottom-left corner: cell (i-s-t, j) of {}",
                    board(&corner_text)
                ),
                corner(
                    vec![high(&i), low(&j), row_far.clone()],
                    a.clone(),
                    j.clone(),
                ),
            ),
            (
                format!(
                    "bottom-right corner: cell (i-s-t, j-s-t) of {}",
                    board(&corner_text)
                ),
                corner(
                    vec![high(&i), high(&j), row_far, col_far],
                    a.clone(),
                    b.clone(),
                ),
            ),
            (
                format!("centre: cell (i-s, j-s) of {}", board(&centre_text)),
                Cells::when(
                    Formula::and([
                        middle(&i),
                        middle(&j),
                        a.clone().add(s.clone()).eq(i.clone()),
                        b.clone().add(s.clone()).eq(j.clone()),
                    ]),
                    here().iff(p(centre_side, a, b)),
                ),
            ),
            (
                if blocks.edges_full {
                    "edge blocks: every cell a P-position"
                } else {
                    "edge blocks: no P-position"
                }
                .into(),
                Cells::when(edges, edge_claim),
            ),
        ],
    }
}

fn count_doubling() -> CellTheorem {
    let (m, x, y, i) = (v("m"), v("x"), v("y"), v("i"));
    let two_m = m.clone().times(2);
    let (cx, cy) = (half_up(&x), half_up(&y));
    CellTheorem {
        name: "count-doubling".into(),
        source: "Lemma 4.1".into(),
        statement: "For every m >= 1, a cell (x, y) of C(2m,2m) is a P-position if and only if the cell (ceil(x/2), ceil(y/2)) of C(m,m) is, and the rows (or columns) x of C(2m,2m) with ceil(x/2) = i are exactly 2i-1 and 2i, for each row i of C(m,m). So P(2m,2m) is the preimage of P(m,m) under a map each of whose fibres has four cells: g(2m) = 4g(m).".into(),
        latex: "For every $m \\ge 1$, a cell $(x,y)$ of $C_{2m,2m}$ is a P-position if and only if the cell $(\\lceil x/2 \\rceil, \\lceil y/2 \\rceil)$ of $C_{m,m}$ is, and the rows $x$ of $C_{2m,2m}$ with $\\lceil x/2 \\rceil = i$ are exactly $2i-1$ and $2i$ for every row $i$ of $C_{m,m}$. Hence $P_{2m,2m}$ is the preimage of $P_{m,m}$ under a map whose fibres have four cells each, and $g(2m) = 4g(m)$.".into(),
        gives: Some("g(2m) = 4g(m)".into()),
        vars: names_of(&["m", "x", "y", "i"]),
        searched: 4,
        hypothesis: c(1).le(m.clone()),
        clauses: vec![
            (
                "cell (x, y) of C(2m,2m) against cell (ceil(x/2), ceil(y/2)), a cell of C(m,m)".into(),
                Cells::when(
                    on_board(&two_m, &x, &y),
                    Cells::And(vec![
                        p(two_m.clone(), x.clone(), y.clone()).iff(p(m.clone(), cx.clone(), cy.clone())),
                        Cells::Holds(on_board(&m, &cx, &cy)),
                    ]),
                ),
            ),
            (
                "the rows x with ceil(x/2) = i are 2i-1 and 2i, rows of C(2m,2m) when i is a row of C(m,m)".into(),
                Cells::Holds(Formula::and([
                    half_up(&x).eq(i.clone()).iff(Formula::or([
                        x.clone().eq(i.clone().times(2).sub(c(1))),
                        x.clone().eq(i.clone().times(2)),
                    ])),
                    Formula::and([c(1).le(i.clone()), i.clone().le(m.clone())]).implies(
                        Formula::and([
                            c(1).le(i.clone().times(2).sub(c(1))),
                            i.clone().times(2).le(two_m.clone()),
                        ]),
                    ),
                ])),
            ),
        ],
    }
}

fn count_odd() -> CellTheorem {
    let (m, x, y, i) = (v("m"), v("x"), v("y"), v("i"));
    let side = m.clone().times(2).add(c(1));
    let odd = |a: &Term| a.clone().sub(a.clone().floor_div(2).times(2)).eq(c(1));
    let here = || p(side.clone(), x.clone(), y.clone());
    let m1 = m.clone().add(c(1));
    CellTheorem {
        name: "count-odd".into(),
        source: "Lemma 4.1".into(),
        statement: "For every m >= 1, a cell (x, y) of C(2m+1,2m+1) with x and y odd is a P-position if and only if the cell ((x+1)/2, (y+1)/2) of C(m+1,m+1) is; with x and y even, if and only if the cell (x/2, y/2) of C(m,m) is; with x + y odd it is never one. The odd rows of C(2m+1,2m+1) are 2i-1 for the rows i of C(m+1,m+1), the even rows 2i for the rows i of C(m,m). So g(2m+1) = g(m+1) + g(m).".into(),
        latex: "For every $m \\ge 1$, a cell $(x,y)$ of $C_{2m+1,2m+1}$ with $x$ and $y$ odd is a P-position if and only if the cell $((x+1)/2, (y+1)/2)$ of $C_{m+1,m+1}$ is; with $x$ and $y$ even, if and only if the cell $(x/2, y/2)$ of $C_{m,m}$ is; with $x+y$ odd it is not a P-position. The odd rows of $C_{2m+1,2m+1}$ are the $2i-1$ for the rows $i$ of $C_{m+1,m+1}$ and the even rows the $2i$ for the rows $i$ of $C_{m,m}$; hence $g(2m+1) = g(m+1) + g(m)$.".into(),
        gives: Some("g(2m+1) = g(m) + g(m+1)".into()),
        vars: names_of(&["m", "x", "y", "i"]),
        searched: 4,
        hypothesis: c(1).le(m.clone()),
        clauses: vec![
            (
                "x, y odd: cell ((x+1)/2, (y+1)/2) of C(m+1,m+1)".into(),
                Cells::when(
                    Formula::and([on_board(&side, &x, &y), odd(&x), odd(&y)]),
                    here().iff(p(m1.clone(), x.clone().add(c(1)).floor_div(2), y.clone().add(c(1)).floor_div(2))),
                ),
            ),
            (
                "x, y even: cell (x/2, y/2) of C(m,m)".into(),
                Cells::when(
                    Formula::and([on_board(&side, &x, &y), odd(&x).not(), odd(&y).not()]),
                    here().iff(p(m.clone(), x.clone().floor_div(2), y.clone().floor_div(2))),
                ),
            ),
            (
                "x + y odd: no P-position".into(),
                Cells::when(
                    Formula::and([on_board(&side, &x, &y), odd(&x.clone().add(y.clone()))]),
                    here().not(),
                ),
            ),
            (
                "the odd rows are 2i-1 for i = 1..m+1, the even rows 2i for i = 1..m".into(),
                Cells::Holds(Formula::and([
                    Formula::and([c(1).le(i.clone()), i.clone().le(m1.clone())]).iff(Formula::and([
                        c(1).le(i.clone().times(2).sub(c(1))),
                        i.clone().times(2).sub(c(1)).le(side.clone()),
                    ])),
                    Formula::and([c(1).le(i.clone()), i.clone().le(m.clone())]).iff(Formula::and([
                        c(1).le(i.clone().times(2)),
                        i.clone().times(2).le(side.clone()),
                    ])),
                    Formula::and([on_board(&side, &x, &y), odd(&x)]).implies(
                        x.clone().add(c(1)).floor_div(2).times(2).sub(c(1)).eq(x.clone()),
                    ),
                    Formula::and([on_board(&side, &x, &y), odd(&x).not()])
                        .implies(x.clone().floor_div(2).times(2).eq(x.clone())),
                ])),
            ),
        ],
    }
}

/// The bar game `(i, j, m, n)` for Theorem 2.3, every m and n at once.
pub fn criterion_game() -> ProofGame {
    let names = ["i", "j", "m", "n"];
    let heaps: Vec<String> = names_of(&names);
    let [i, j, m, n] = names.map(v);
    let next = |h: &str| v(&super::next_name(h));
    let [i2, j2, m2, n2] = names.map(next);
    let t = v(super::MOVE_VAR);
    let vars = vec![super::MOVE_VAR.to_string()];
    let position = on_board_rect(&m, &n, &i, &j);
    // Breaking off rows above the poisoned cell moves it up (i and m drop
    // together); breaking off rows below lowers m alone; columns alike.
    let moves = Formula::or([
        Formula::and([
            c(1).le(i2.clone()),
            i2.clone().lt(i.clone()),
            m2.clone().sub(i2.clone()).eq(m.clone().sub(i.clone())),
            j2.clone().eq(j.clone()),
            n2.clone().eq(n.clone()),
        ]),
        Formula::and([
            i2.clone().eq(i.clone()),
            i.clone().le(m2.clone()),
            m2.clone().lt(m.clone()),
            j2.clone().eq(j.clone()),
            n2.clone().eq(n.clone()),
        ]),
        Formula::and([
            c(1).le(j2.clone()),
            j2.clone().lt(j.clone()),
            n2.clone().sub(j2.clone()).eq(n.clone().sub(j.clone())),
            i2.clone().eq(i.clone()),
            m2.clone().eq(m.clone()),
        ]),
        Formula::and([
            j2.clone().eq(j.clone()),
            j.clone().le(n2.clone()),
            n2.lt(n.clone()),
            i2.eq(i.clone()),
            m2.eq(m.clone()),
        ]),
    ]);
    let family = |guard: Formula, next: [Term; 4]| super::MoveFamily {
        vars: vars.clone(),
        guard,
        next: next.to_vec(),
    };
    let families = vec![
        family(
            Formula::and([c(1).le(t.clone()), t.clone().lt(i.clone())]),
            [
                i.clone().sub(t.clone()),
                j.clone(),
                m.clone().sub(t.clone()),
                n.clone(),
            ],
        ),
        family(
            Formula::and([i.clone().le(t.clone()), t.clone().lt(m.clone())]),
            [i.clone(), j.clone(), t.clone(), n.clone()],
        ),
        family(
            Formula::and([c(1).le(t.clone()), t.clone().lt(j.clone())]),
            [
                i.clone(),
                j.clone().sub(t.clone()),
                m.clone(),
                n.clone().sub(t.clone()),
            ],
        ),
        family(
            Formula::and([j.clone().le(t.clone()), t.clone().lt(n.clone())]),
            [i, j, m, t],
        ),
    ];
    ProofGame {
        name: "the chocolate game C(m,n)".into(),
        description: format!(
            "the chocolate game $C_{{m,n}}$ ({PAPER_LATEX}, Theorem~2.3: an $m \\times n$ bar with the poisoned cell $(i,j)$, a move breaks it along a grid line and keeps the piece with the poisoned cell), for every $m$ and $n$"
        ),
        heaps,
        position,
        moves,
        well_formed: None,
        families,
        solver: Box::new(ChocolateBar),
        capped: None,
    }
}

/// `1 <= i <= m` and `1 <= j <= n`.
fn on_board_rect(m: &Term, n: &Term, i: &Term, j: &Term) -> Formula {
    Formula::and([
        c(1).le(i.clone()),
        i.clone().le(m.clone()),
        c(1).le(j.clone()),
        j.clone().le(n.clone()),
    ])
}

/// The criterion's claim over the bar game's heaps, with its text.
pub fn criterion_claim() -> (Formula, &'static str) {
    let [i, j, m, n] = ["i", "j", "m", "n"].map(v);
    let nim_sum = i
        .clone()
        .sub(c(1))
        .xor(j.clone().sub(c(1)))
        .xor(m.sub(i))
        .xor(n.sub(j));
    (nim_sum.eq(c(0)), "(i-1)^(j-1)^(m-i)^(n-j) == 0")
}

/// One cell a counterexample speaks of, solved by game search.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CellFact {
    /// The board side n (the board is C(n,n)).
    pub board: u64,
    /// The cell (row, column), 1-based.
    pub cell: (u64, u64),
    /// Its Grundy value by game search.
    pub grundy: u32,
}

/// A counterexample to a cell theorem, confirmed by the exact solver.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CellCounterexample {
    /// The variables' values, in the theorem's order.
    pub values: Vec<(String, u64)>,
    /// The clause that fails there.
    pub clause: String,
    /// The cells that clause speaks of, with their Grundy values.
    pub cells: Vec<CellFact>,
    /// One sentence saying why.
    pub explanation: String,
}

fn internal(message: String) -> Error {
    Error::Unsupported(format!(
        "internal error of the prover (please report it): {message}"
    ))
}

/// The Grundy value of cell `(x, y)` of C(n,n) by game search: the bar's four
/// sides as heaps, solved by the mex of the moves (no nim-sum).
pub fn grundy_of_cell(n: u64, x: u64, y: u64, memory_limit: u64, control: &Control) -> Result<u32> {
    let sides = [x - 1, y - 1, n - x, n - y];
    let bounds: Vec<u32> = sides
        .iter()
        .map(|&s| u32::try_from(s))
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| {
            Error::invalid_request(format!(
                "the cell ({x}, {y}) of C({n},{n}) is too large to solve by game search"
            ))
        })?;
    let nim = Nim::new(4)?;
    let solved = solve_dense(&nim, &bounds, memory_limit, control)?;
    solved
        .get(&bounds)
        .map(u32::from)
        .ok_or_else(|| internal(format!("no Grundy value at ({x}, {y}) of C({n},{n})")))
}

/// Confirms with game search that `values` (the engine's counterexample)
/// break `theorem`, and says which clause and why. A disagreement between
/// the engine, the game search and the pattern's criterion is an internal
/// error, never a verdict.
pub fn confirm(
    theorem: &CellTheorem,
    values: &[(String, u128)],
    memory_limit: u64,
    control: &Control,
) -> Result<CellCounterexample> {
    let mut env = Env::new();
    let mut named = Vec::new();
    for var in &theorem.vars {
        let value = values
            .iter()
            .find(|(n, _)| n == var)
            .map(|(_, v)| *v)
            .ok_or_else(|| internal(format!("no value of {var} in the counterexample")))?;
        let value = u64::try_from(value).map_err(|_| {
            Error::invalid_request(format!("the counterexample's {var} is too large"))
        })?;
        env.insert(var.clone(), i128::from(value));
        named.push((var.clone(), value));
    }
    let shown = named
        .iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect::<Vec<_>>()
        .join(", ");
    if !theorem
        .hypothesis
        .eval(&env)
        .map_err(|e| internal(e.to_string()))?
    {
        return Err(internal(format!(
            "the engine's counterexample {shown} lies outside the theorem's range"
        )));
    }
    let mut solved: BTreeMap<(u64, u64, u64), u32> = BTreeMap::new();
    for (words, clause) in &theorem.clauses {
        let mut asked: Vec<(u64, u64, u64)> = Vec::new();
        let mut by_search = |n: u64, x: u64, y: u64| -> Result<bool> {
            let g = match solved.get(&(n, x, y)) {
                Some(&g) => g,
                None => {
                    let g = grundy_of_cell(n, x, y, memory_limit, control)?;
                    // The pattern the figures draw must say the same.
                    if crate::pattern::is_p(n, n, x, y) != (g == 0) {
                        return Err(internal(format!(
                            "game search and the criterion disagree at cell ({x}, {y}) of C({n},{n})"
                        )));
                    }
                    solved.insert((n, x, y), g);
                    g
                }
            };
            if !asked.contains(&(n, x, y)) {
                asked.push((n, x, y));
            }
            Ok(g == 0)
        };
        if clause.eval(&env, &mut by_search)? {
            continue;
        }
        let cells: Vec<CellFact> = asked
            .iter()
            .map(|&(n, x, y)| CellFact {
                board: n,
                cell: (x, y),
                grundy: solved[&(n, x, y)],
            })
            .collect();
        let facts: Vec<String> = cells
            .iter()
            .map(|f| {
                let (x, y) = f.cell;
                if f.grundy == 0 {
                    format!("cell ({x}, {y}) of C({n},{n}) is a P-position", n = f.board)
                } else {
                    format!(
                        "cell ({x}, {y}) of C({n},{n}) is not (Grundy value {g})",
                        n = f.board,
                        g = f.grundy
                    )
                }
            })
            .collect();
        let explanation = if facts.is_empty() {
            format!("at {shown} the arithmetic of \"{words}\" fails")
        } else {
            format!("at {shown}, \"{words}\" fails: {}", facts.join("; "))
        };
        return Ok(CellCounterexample {
            values: named,
            clause: words.clone(),
            cells,
            explanation,
        });
    }
    Err(internal(format!(
        "the engine says {} fails at {shown}, game search finds every clause true there",
        theorem.name
    )))
}

/// The bound `var op value` (the search for the smallest counterexample).
pub fn bound(var: &str, op: CmpOp, value: u64) -> Formula {
    Formula::Cmp(
        op,
        v(var),
        Term::Const(i64::try_from(value).unwrap_or(i64::MAX)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::is_p;

    /// Every theorem, evaluated with the criterion on every small value of its
    /// variables: true (the engine proves them for all values; this is the
    /// cheap cross-check that the sentences say what the paper says).
    #[test]
    fn the_theorems_hold_on_small_values_and_the_wrong_ones_fail() {
        let mut theorems: Vec<CellTheorem> = names()
            .into_iter()
            .filter_map(|n| match theorem(n).unwrap() {
                Theorem::Cells(t) => Some(*t),
                Theorem::Criterion => None,
            })
            .collect();
        theorems.push(decomposition(Decomposition::EdgesFull));
        theorems.push(decomposition(Decomposition::CentreOffByOne));
        for t in &theorems {
            let mut failures = 0;
            let mut in_range = 0;
            // Every value 0..=17 of the variables the search minimises; the
            // others (the top bit, s, t, a cell's place in its block) from
            // every value 0..=17 that the hypothesis and the clauses allow.
            let free = &t.vars[..t.searched];
            // The top bit p of m, s and t by Rust's arithmetic; the rest enumerated.
            let (derived, fixed): (Vec<String>, Vec<String>) = t.vars[t.searched..]
                .iter()
                .cloned()
                .partition(|n| ["p", "s", "t"].contains(&n.as_str()));
            let reference = t.reference_sentence();
            for_each_tuple(free.len(), 17, &mut |values| {
                let mut env: Env = free.iter().cloned().zip(values.iter().copied()).collect();
                if let Some(&m) = env.get("m") {
                    let top = if m >= 1 {
                        1i128 << (127 - m.leading_zeros())
                    } else {
                        0
                    };
                    for (name, value) in [("p", top), ("s", m - top), ("t", 2 * top - m)] {
                        if derived.iter().any(|d| d == name) {
                            env.insert(name.to_string(), value);
                        }
                    }
                }
                let mut all_ok = true;
                let mut any = false;
                for_each_tuple(fixed.len(), 17, &mut |rest| {
                    for (name, value) in fixed.iter().zip(rest) {
                        env.insert(name.clone(), *value);
                    }
                    if !t.hypothesis.eval(&env).unwrap() {
                        return;
                    }
                    any = true;
                    let ok = t
                        .clauses
                        .iter()
                        .all(|(_, cl)| cl.eval(&env, &mut |n, x, y| Ok(is_p(n, n, x, y))).unwrap());
                    // The reference reading (the criterion as arithmetic) agrees.
                    let logic = reference.eval(&env).unwrap();
                    assert_eq!(ok, logic, "{} at {env:?}", t.name);
                    all_ok &= ok;
                });
                in_range += usize::from(any);
                failures += usize::from(!all_ok);
            });
            assert!(in_range > 100, "{}: {in_range}", t.name);
            if t.name.contains("wrong") {
                assert!(failures > 0, "{} never fails", t.name);
            } else {
                assert_eq!(failures, 0, "{}", t.name);
            }
        }
    }

    /// Calls `f` with every tuple of `len` values in `0..=top`.
    fn for_each_tuple(len: usize, top: i128, f: &mut dyn FnMut(&[i128])) {
        let mut values = vec![0i128; len];
        loop {
            f(&values);
            let mut k = 0;
            while k < len {
                values[k] += 1;
                if values[k] <= top {
                    break;
                }
                values[k] = 0;
                k += 1;
            }
            if k == len {
                return;
            }
        }
    }

    #[test]
    fn a_wrong_decomposition_is_confirmed_with_its_cells() {
        let t = decomposition(Decomposition::EdgesFull);
        // m = 3: s = 1, t = 1; cell (1, 2) is in the top edge block.
        let values: Vec<(String, u128)> = [
            ("m", 3),
            ("i", 1),
            ("j", 2),
            ("p", 2),
            ("s", 1),
            ("t", 1),
            ("a", 0),
            ("b", 0),
        ]
        .iter()
        .map(|(n, v)| (n.to_string(), *v))
        .collect();
        let found = confirm(&t, &values, 1 << 28, &Control::new()).unwrap();
        assert_eq!(found.clause, "edge blocks: every cell a P-position");
        assert_eq!(found.cells.len(), 1);
        assert_ne!(found.cells[0].grundy, 0);
        // The statement as the paper has it holds there: an internal error.
        let right = decomposition(Decomposition::AsStated);
        assert!(confirm(&right, &values, 1 << 28, &Control::new()).is_err());
    }

    #[test]
    fn game_search_gives_the_grundy_values_of_cells() {
        for n in 1..=9u64 {
            for x in 1..=n {
                for y in 1..=n {
                    let g = grundy_of_cell(n, x, y, 1 << 28, &Control::new()).unwrap();
                    assert_eq!(u64::from(g), (x - 1) ^ (y - 1) ^ (n - x) ^ (n - y));
                }
            }
        }
    }
}
