//! Proofs about every position of a game, not a box: the games and claims as
//! sentences of Büchi arithmetic, decided by an automata engine.
//!
//! * [`ir`]: the prover's own logic (terms and formulas over the naturals).
//! * [`mona`]: its translation into a MONA (WS1S) program, and MONA's answer.
//! * [`ProofGame`]: a game written in that logic — its positions and its move
//!   relation — beside the exact solver that confirms every counterexample.
//! * [`Claim`]: a P-set rule or a Grundy formula, and the one formula whose
//!   solutions are exactly the claim's *violations*.
//!
//! **Why the violations decide the claim.** Every game here is finite and
//! every move lowers the sum of the heaps. A set `C` is the P-set exactly
//! when (a) no move leads from `C` into `C` and (b) every position outside
//! `C` has a move into `C`; a position breaking (a) or (b) is a violation. A
//! Grundy formula `f` is right exactly when `f >= 0`, no move keeps `f`'s
//! value and every smaller value is reached by a move. Order the positions
//! by the sum of the heaps, then lexicographically (`x`, then `y`, ...):
//! this order extends the moves. The smallest position where the claim is
//! wrong has every option right, so it is a violation; and below every
//! violation lies a position where the claim is wrong. So **the smallest
//! violation is the smallest counterexample**, and no violation means the
//! claim holds everywhere.

pub mod from_claim;
mod from_spec;
pub mod heap_sum;
pub mod ir;
pub mod linear;
pub mod mona;
pub mod square;

#[cfg(test)]
mod tests;

use crate::games::capped::{Cap, CappedGame};
use crate::games::nim::Nim;
use crate::games::solver::{solve_dense, Game};
use crate::{Control, Error, Result};
use ir::{Env, Formula, Term};

/// A game written in the prover's logic, with its exact solver beside it.
pub struct ProofGame {
    name: String,
    description: String,
    heaps: Vec<String>,
    position: Formula,
    moves: Formula,
    well_formed: Option<(Formula, String)>,
    families: Vec<MoveFamily>,
    solver: Box<dyn Game + Send + Sync>,
    /// A capped game, whose own solver checks far larger boxes than the dense one.
    capped: Option<CappedGame>,
}

/// One family of moves, the same relation as part of [`ProofGame::moves`]
/// written for the engine's sake: the position after the move as terms in
/// the heaps and a few new variables (`t` below), under a guard. Quantifying
/// one `t` instead of every heap's next value keeps the automata small.
#[derive(Clone, Debug)]
struct MoveFamily {
    vars: Vec<String>,
    guard: Formula,
    next: Vec<Term>,
}

/// The variable a move family chooses its new value with.
const MOVE_VAR: &str = "t_move";

/// The name of a heap's value after a move.
pub fn next_name(heap: &str) -> String {
    format!("{heap}_next")
}

impl ProofGame {
    /// A capped three-heap game `y <= cap(x, z)` whose cap is the term
    /// `cap_term` over `x` and `z` (see [`crate::games::cap_expr::CapExpr::to_logic`]).
    pub fn capped(game: CappedGame, cap_term: Term) -> ProofGame {
        let heaps: Vec<String> = ["x", "y", "z"].iter().map(|s| s.to_string()).collect();
        let (x, y, z) = (Term::var("x"), Term::var("y"), Term::var("z"));
        let (xn, yn, zn) = (
            Term::var(&next_name("x")),
            Term::var(&next_name("y")),
            Term::var(&next_name("z")),
        );
        let cap_at = |a: &Term, b: &Term| {
            cap_term.substitute(&|v| if v == "x" { a.clone() } else { b.clone() })
        };
        let position = y.clone().le(cap_at(&x, &z));
        let moves = Formula::or([
            Formula::and([
                xn.clone().eq(x.clone()),
                zn.clone().eq(z.clone()),
                yn.clone().lt(y.clone()),
            ]),
            Formula::and([
                xn.clone().lt(x.clone()),
                zn.clone().eq(z.clone()),
                yn.clone().eq(y.clone().min(cap_at(&xn, &z))),
            ]),
            Formula::and([
                xn.clone().eq(x.clone()),
                zn.clone().lt(z.clone()),
                yn.eq(y.clone().min(cap_at(&x, &zn))),
            ]),
        ]);
        let t = Term::var(MOVE_VAR);
        let vars = vec![MOVE_VAR.to_string()];
        let families = vec![
            MoveFamily {
                vars: vars.clone(),
                guard: t.clone().lt(y.clone()),
                next: vec![x.clone(), t.clone(), z.clone()],
            },
            MoveFamily {
                vars: vars.clone(),
                guard: t.clone().lt(x.clone()),
                next: vec![t.clone(), y.clone().min(cap_at(&t, &z)), z.clone()],
            },
            MoveFamily {
                vars,
                guard: t.clone().lt(z.clone()),
                next: vec![x.clone(), y.clone().min(cap_at(&x, &t)), t],
            },
        ];
        let formula = game.cap().formula();
        let well_formed = Some((
            Term::Const(0).le(cap_at(&x, &z)),
            format!("the cap {formula} must be >= 0 for every (x, z)"),
        ));
        let name = crate::games::solver::Game::name(&game);
        let description = match game.cap() {
            Cap::Triangular { k } => format!(
                "the triangular chocolate bar game with positions $(x, y, z)$, $y \\le \\lfloor (x+z)/{k} \\rfloor$"
            ),
            _ => format!("the game with positions $(x, y, z)$, $y \\le {}$", latex_text(&formula)),
        };
        ProofGame {
            name,
            description,
            heaps,
            position,
            moves,
            well_formed,
            families,
            capped: Some(game.clone()),
            solver: Box::new(game),
        }
    }

    /// Nim on `heaps` heaps.
    pub fn nim(heaps: usize) -> Result<ProofGame> {
        let nim = Nim::new(heaps)?;
        let names = nim.coordinate_names();
        let moves = Formula::or((0..heaps).map(|i| {
            Formula::and((0..heaps).map(|j| {
                let (h, n) = (Term::var(&names[j]), Term::var(&next_name(&names[j])));
                if i == j {
                    n.lt(h)
                } else {
                    n.eq(h)
                }
            }))
        }));
        let families = (0..heaps)
            .map(|i| MoveFamily {
                vars: vec![MOVE_VAR.to_string()],
                guard: Term::var(MOVE_VAR).lt(Term::var(&names[i])),
                next: (0..heaps)
                    .map(|j| {
                        if i == j {
                            Term::var(MOVE_VAR)
                        } else {
                            Term::var(&names[j])
                        }
                    })
                    .collect(),
            })
            .collect();
        Ok(ProofGame {
            name: nim.name(),
            families,
            description: format!("Nim with {heaps} heaps ${}$", tuple(&names)),
            heaps: names,
            position: Formula::True,
            moves,
            well_formed: None,
            solver: Box::new(nim),
            capped: None,
        })
    }

    /// The game's name, e.g. `triangular k=3`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The game in words for a theorem (LaTeX).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The heaps' names.
    pub fn heaps(&self) -> &[String] {
        &self.heaps
    }

    /// Which tuples are positions (free variables: the heaps).
    pub fn position(&self) -> &Formula {
        &self.position
    }

    /// The move relation (free variables: the heaps and their next values).
    pub fn moves(&self) -> &Formula {
        &self.moves
    }

    /// A formula over the heaps that must hold for every tuple for the game to
    /// be well defined (a cap is never negative), with what it says.
    pub fn well_formed(&self) -> Option<&(Formula, String)> {
        self.well_formed.as_ref()
    }

    /// The exact solver's game.
    pub fn solver(&self) -> &(dyn Game + Send + Sync) {
        self.solver.as_ref()
    }

    /// For a capped game, the side of the largest box (up to 1024) whose
    /// positions number at most `budget`: its own solver checks such a box in
    /// about a second, so a counterexample of heap sum up to that side is
    /// found, and is the smallest, before the engine is asked. `None` for
    /// other games.
    pub fn capped_box_side(&self, budget: u64) -> Option<u64> {
        let game = self.capped.as_ref()?;
        let positions = |side: u32| -> u64 {
            let mut total = 0u64;
            for x in 0..=side {
                for z in 0..=side {
                    // A tuple of heap sum past the side is never looked at.
                    let cap = game.cap().eval(x, z).unwrap_or(0).min(u64::from(side));
                    total = total.saturating_add(cap + 1);
                }
            }
            total
        };
        let mut side = 16u32;
        while side < 1024 && positions(side * 2) <= budget {
            side *= 2;
        }
        Some(u64::from(side))
    }

    fn next_names(&self) -> Vec<String> {
        self.heaps.iter().map(|h| next_name(h)).collect()
    }

    /// `f` with the heaps replaced by their values after a move.
    fn at_next(&self, f: &Formula) -> Formula {
        f.rename(&|v| {
            if self.heaps.iter().any(|h| h == v) {
                next_name(v)
            } else {
                v.to_string()
            }
        })
    }

    /// "Some move leads to a position where `f` holds", family by family
    /// (the same as `∃ next: moves ∧ f(next)`, which the tests check).
    fn some_move_to(&self, f: &Formula) -> Formula {
        let families: Vec<MoveFamily> = self.families.iter().flat_map(split_min).collect();
        Formula::or(families.iter().map(|family| {
            let after = f.substitute(&|v| match self.heaps.iter().position(|h| h == v) {
                Some(i) => family.next[i].clone(),
                None => Term::var(v),
            });
            Formula::exists(&family.vars, Formula::and([family.guard.clone(), after]))
        }))
    }

    /// [`ProofGame::some_move_to`] written with the move relation itself.
    pub fn some_move_to_by_relation(&self, f: &Formula) -> Formula {
        Formula::exists(
            &self.next_names(),
            Formula::and([self.moves.clone(), self.at_next(f)]),
        )
    }

    /// "Some move leads to a position where `f` holds" (see [`MoveFamily`]).
    pub fn some_move_to_by_families(&self, f: &Formula) -> Formula {
        self.some_move_to(f)
    }
}

/// `family` split by cases at every heap whose next value is a `min(a, b)`:
/// one family with the guard `a <= b` and the value `a`, one with `b < a`
/// and `b`. The same moves (the cases cover every `t` once), but the engine
/// no longer carries both candidates of the `min` through the projection of
/// `t`: in the triangular game's `y' = min(y, floor((t+z)/k))` the case
/// `y' = y` often fixes `t` bit by bit (`t = y ^ z` for the claim
/// `x^y^z == 0`), and the guard `y <= floor((t+z)/k)` becomes `k*y <= t+z`.
fn split_min(family: &MoveFamily) -> Vec<MoveFamily> {
    let Some(at) = family.next.iter().position(|t| matches!(t, Term::Min(..))) else {
        return vec![family.clone()];
    };
    let Term::Min(a, b) = &family.next[at] else {
        return vec![family.clone()];
    };
    let case = |guard: Formula, value: &Term| {
        let mut next = family.next.clone();
        next[at] = value.clone();
        MoveFamily {
            vars: family.vars.clone(),
            guard: Formula::and([family.guard.clone(), guard]),
            next,
        }
    };
    let first = case(a.as_ref().clone().le(b.as_ref().clone()), a);
    let second = case(b.as_ref().clone().lt(a.as_ref().clone()), b);
    split_min(&first)
        .into_iter()
        .chain(split_min(&second))
        .collect()
}

/// `(x, y, z)` for a list of names.
fn tuple(names: &[String]) -> String {
    format!("({})", names.join(", "))
}

/// A formula as LaTeX-safe text (the few characters TeX treats specially).
pub fn latex_text(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '^' => out.push_str("\\oplus "),
            '_' => out.push_str("\\_"),
            '%' => out.push_str("\\%"),
            '&' => out.push_str("\\mathbin{\\&}"),
            '#' => out.push_str("\\#"),
            '{' => out.push_str("\\{"),
            '}' => out.push_str("\\}"),
            '<' => out.push('<'),
            c => out.push(c),
        }
    }
    out.replace("<=", "\\le ")
        .replace(">=", "\\ge ")
        .replace("!=", "\\ne ")
        .replace("==", "=")
}

/// What is claimed about a game.
#[derive(Clone, Debug)]
pub enum Claim {
    /// The P-positions are exactly the positions where this formula holds.
    PSet(Formula),
    /// The Grundy value of every position is this term.
    Grundy(Term),
}

/// A claim, optionally restricted to a region that moves never leave.
#[derive(Clone, Debug)]
pub struct Question {
    /// The claim.
    pub claim: Claim,
    /// Only positions where this holds are claimed about.
    pub region: Option<Formula>,
}

/// The smallest-first order of positions: by the sum of the heaps, then
/// lexicographically. `p < q` as a formula over two lists of names.
pub fn order_less(p: &[String], q: &[String]) -> Formula {
    let sum = |names: &[String]| {
        names
            .iter()
            .map(|n| Term::var(n))
            .reduce(|a, b| a.add(b))
            .unwrap_or(Term::Const(0))
    };
    let mut lex = Vec::new();
    for i in 0..p.len() {
        let mut parts: Vec<Formula> = (0..i)
            .map(|j| Term::var(&p[j]).eq(Term::var(&q[j])))
            .collect();
        parts.push(Term::var(&p[i]).lt(Term::var(&q[i])));
        lex.push(Formula::and(parts));
    }
    Formula::or([
        sum(p).lt(sum(q)),
        Formula::and([sum(p).eq(sum(q)), Formula::or(lex)]),
    ])
}

/// The name of the Grundy formula's value at the position itself.
const HERE: &str = "value_here";

/// The name the engine gives the value quantified in a Grundy claim.
const VALUE: &str = "grundy_value";

impl Question {
    /// The formula over the heaps whose solutions are the violations (see
    /// the module documentation).
    pub fn violation(&self, game: &ProofGame) -> Formula {
        let body = match &self.claim {
            Claim::PSet(c) => {
                // Claimed with a move into the claim, or unclaimed without one;
                // written once, so the engine builds the reach automaton once.
                c.clone().iff(game.some_move_to(c))
            }
            Claim::Grundy(f) => {
                let value = Term::var(VALUE);
                // "A move keeps f's value": some move reaches f == w where w
                // is f here (no natural w when f < 0, a violation anyway).
                let here = Term::var(HERE);
                let keeps = Formula::exists(
                    &[HERE.to_string()],
                    Formula::and([
                        here.clone().eq(f.clone()),
                        game.some_move_to(&f.clone().eq(here)),
                    ]),
                );
                let reaches_value = game.some_move_to(&f.clone().eq(value.clone()));
                Formula::or([
                    f.clone().lt(Term::Const(0)),
                    keeps,
                    Formula::exists(
                        &[VALUE.to_string()],
                        Formula::and([value.lt(f.clone()), reaches_value.not()]),
                    ),
                ])
            }
        };
        Formula::and([
            game.position.clone(),
            self.region.clone().unwrap_or(Formula::True),
            body,
        ])
    }

    /// The sentence "no violation": valid exactly when the claim holds.
    pub fn no_violation(&self, game: &ProofGame) -> Formula {
        self.violation(game).not()
    }

    /// The sentence "no violation where `extra` holds" (a bound on the
    /// heaps, for the search of the smallest violation).
    pub fn no_violation_where(&self, game: &ProofGame, extra: Formula) -> Formula {
        Formula::and([extra, self.violation(game)]).not()
    }

    /// The closed sentence "`p` is a violation" (the engine's check of a
    /// counterexample the solver found).
    pub fn violation_at(&self, game: &ProofGame, p: &[u64]) -> Result<Formula> {
        let mut values = Vec::with_capacity(p.len());
        for &v in p {
            values.push(i64::try_from(v).map_err(|_| {
                Error::invalid_request(format!("the position {} is too large", show(p)))
            })?);
        }
        let heaps = game.heaps.clone();
        Ok(self
            .violation(game)
            .substitute(&|v| match heaps.iter().position(|h| h == v) {
                Some(i) => Term::Const(values[i]),
                None => Term::var(v),
            }))
    }

    /// The sentence "moves never leave the region" (a region must be closed
    /// under moves for a claim on it to be about a game of its own).
    pub fn region_closed(&self, game: &ProofGame) -> Option<Formula> {
        let region = self.region.as_ref()?;
        Some(
            Formula::and([game.position.clone(), region.clone(), game.moves.clone()])
                .implies(game.at_next(region))
                .pipe_forall(&game.next_names()),
        )
    }
}

trait PipeForall {
    fn pipe_forall(self, vars: &[String]) -> Formula;
}

impl PipeForall for Formula {
    fn pipe_forall(self, vars: &[String]) -> Formula {
        Formula::forall(vars, self)
    }
}

/// A counterexample confirmed by the exact solver.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Confirmed {
    /// The position, heap by heap.
    pub position: Vec<u64>,
    /// Its Grundy value by the exact solver.
    pub grundy: u32,
    /// What the claim says there: "P" / "N" for a P-set claim, the formula's
    /// value for a Grundy claim.
    pub claimed: String,
    /// What the solver says there ("P" / "N", or the Grundy value).
    pub actual: String,
    /// A move that shows it: to a P-position, or keeping the claimed value.
    pub witness_move: Option<(Vec<u64>, u32)>,
    /// One sentence saying why the claim fails there.
    pub explanation: String,
    /// Whether the solver also checked that no smaller position is a
    /// counterexample (in the box of side the position's heap sum).
    pub smallest_checked_by_solver: bool,
}

fn env_of(names: &[String], values: &[u64]) -> Env {
    names
        .iter()
        .zip(values)
        .map(|(n, &v)| (n.clone(), i128::from(v)))
        .collect()
}

fn show(p: &[u64]) -> String {
    let parts: Vec<String> = p.iter().map(|v| v.to_string()).collect();
    format!("({})", parts.join(", "))
}

/// Whether the claim and the solver disagree at `p` of a solved box.
fn disagrees(
    question: &Question,
    names: &[String],
    p: &[u64],
    g: u16,
) -> std::result::Result<bool, ir::EvalError> {
    disagrees_at(question, &env_of(names, p), g)
}

/// Whether the claim and the solver's value `g` disagree at the position `env`.
fn disagrees_at(
    question: &Question,
    env: &Env,
    g: u16,
) -> std::result::Result<bool, ir::EvalError> {
    if let Some(r) = &question.region {
        if !r.eval(env)? {
            return Ok(false);
        }
    }
    Ok(match &question.claim {
        Claim::PSet(c) => c.eval(env)? != (g == 0),
        Claim::Grundy(f) => f.eval(env)? != i128::from(g),
    })
}

fn internal(message: String) -> Error {
    Error::Unsupported(format!(
        "internal error of the prover (please report it): {message}"
    ))
}

/// The Grundy value at a tuple of a solved box (`None` off the game).
type ValueAt = Box<dyn Fn(&[u32]) -> Option<u16>>;

/// Tuples of the box below a counterexample up to which the dense solver
/// confirms it (a few seconds at most).
const DENSE_CONFIRM_TUPLES: u64 = 2_000_000;

/// Confirms with the exact solver that `p` (the engine's smallest violation)
/// is a counterexample, and explains it. A disagreement between the engine
/// and the solver is an internal error, never a verdict.
///
/// `minimal_box_limit` bounds the tuples of the box of side `sum(p)` in
/// which the solver also checks that nothing smaller is a counterexample.
pub fn confirm(
    game: &ProofGame,
    question: &Question,
    p: &[u64],
    memory_limit: u64,
    minimal_box_limit: u64,
    control: &Control,
) -> Result<Confirmed> {
    let names = game.heaps().to_vec();
    let bounds: Vec<u32> = p
        .iter()
        .map(|&v| u32::try_from(v))
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| {
            Error::invalid_request(format!(
                "the counterexample {} is too large for the solver to confirm",
                show(p)
            ))
        })?;
    // The dense solver reads the game's moves one by one: independent of
    // every search, but slow past a few million tuples. A capped game's box
    // beyond that goes to its own solver (tested against the dense one, and
    // not the general capped solver the search by heap sum runs on the
    // monotone caps of the papers' games).
    let tuples = bounds
        .iter()
        .map(|&b| u64::from(b) + 1)
        .try_fold(1u64, |a, b| a.checked_mul(b))
        .unwrap_or(u64::MAX);
    let value_at: ValueAt = match &game.capped {
        Some(capped) if tuples > DENSE_CONFIRM_TUPLES && bounds.len() == 3 => {
            let solved = capped.solve([bounds[0], bounds[1], bounds[2]], memory_limit, control)?;
            Box::new(move |q: &[u32]| solved.get(q[0], q[1], q[2]))
        }
        _ => {
            let solved = solve_dense(game.solver(), &bounds, memory_limit, control)?;
            Box::new(move |q: &[u32]| solved.get(q))
        }
    };
    let p32: Vec<u32> = bounds.clone();
    let g = value_at(&p32).ok_or_else(|| {
        internal(format!(
            "the engine's counterexample {} is not a position of {}",
            show(p),
            game.name()
        ))
    })?;
    let eval_err = |e: ir::EvalError| Error::invalid_request(format!("at {}: {e}", show(p)));
    if !disagrees(question, &names, p, g).map_err(eval_err)? {
        return Err(internal(format!(
            "the engine says the claim fails at {} of {}, the exact solver says it holds there",
            show(p),
            game.name()
        )));
    }
    let env = env_of(&names, p);
    let mut options: Vec<(Vec<u64>, u32)> = Vec::new();
    game.solver().for_each_option(&p32, &mut |q| {
        if let Some(v) = value_at(q) {
            options.push((q.iter().map(|&c| u64::from(c)).collect(), u32::from(v)));
        }
    });
    let (claimed, actual, witness_move, explanation) = match &question.claim {
        Claim::PSet(c) => {
            let claimed_p = c.eval(&env).map_err(eval_err)?;
            if claimed_p {
                let to_p = options.iter().find(|(_, v)| *v == 0).cloned();
                let explanation = match &to_p {
                    Some((q, _)) => format!(
                        "{} satisfies the claim but is not a P-position (Grundy value {g}): it has a move to {}, a P-position that satisfies the claim too",
                        show(p),
                        show(q)
                    ),
                    None => return Err(internal(format!("{} has Grundy value {g} but no move to a P-position", show(p)))),
                };
                ("P".into(), "N".into(), to_p, explanation)
            } else {
                (
                    "N".into(),
                    "P".into(),
                    None,
                    format!(
                        "{} is a P-position (Grundy value 0) that the claim leaves out: none of its {} moves reaches a position that satisfies the claim",
                        show(p),
                        options.len()
                    ),
                )
            }
        }
        Claim::Grundy(f) => {
            let fv = f.eval(&env).map_err(eval_err)?;
            let keeps = options
                .iter()
                .find(|(q, _)| f.eval(&env_of(&names, q)).is_ok_and(|v| v == fv))
                .cloned();
            let explanation = if fv < 0 {
                format!("the formula is negative ({fv}) at {}", show(p))
            } else if let Some((q, _)) = &keeps {
                format!(
                    "the formula is {fv} at {} and also at {}, which one move reaches; the Grundy value at {} is {g}",
                    show(p),
                    show(q),
                    show(p)
                )
            } else {
                format!(
                    "the formula is {fv} at {}, but its Grundy value is {g}: no move reaches a position where the formula is {g}",
                    show(p)
                )
            };
            (fv.to_string(), g.to_string(), keeps, explanation)
        }
    };
    // The smallest? Solve the box of side sum(p) if it is small enough.
    let side: u64 = p.iter().sum();
    let tuples = (side + 1)
        .checked_pow(names.len() as u32)
        .unwrap_or(u64::MAX);
    let mut smallest_checked_by_solver = false;
    if tuples <= minimal_box_limit {
        let side32 = u32::try_from(side).unwrap_or(u32::MAX);
        let big = solve_dense(
            game.solver(),
            &vec![side32; names.len()],
            memory_limit,
            control,
        )?;
        let rank = |q: &[u64]| (q.iter().sum::<u64>(), q.to_vec());
        for (q, gq) in big.positions() {
            let q: Vec<u64> = q.iter().map(|&c| u64::from(c)).collect();
            if rank(&q) >= rank(p) {
                continue;
            }
            if disagrees(question, &names, &q, gq).map_err(eval_err)? {
                return Err(internal(format!(
                    "the engine's smallest counterexample is {}, but the exact solver finds a smaller one, {}",
                    show(p),
                    show(&q)
                )));
            }
        }
        smallest_checked_by_solver = true;
    }
    Ok(Confirmed {
        position: p.to_vec(),
        grundy: u32::from(g),
        claimed,
        actual,
        witness_move,
        explanation,
        smallest_checked_by_solver,
    })
}

/// The smallest position (by the heap sum, then lexicographically) where the
/// exact solver and the claim disagree, among positions with heap sum at most
/// `side` (the solver fills the box `0..=side` in every heap); `None` if
/// there is none.
pub fn smallest_disagreement(
    game: &ProofGame,
    question: &Question,
    side: u64,
    memory_limit: u64,
    control: &Control,
) -> Result<Option<Vec<u64>>> {
    let names = game.heaps().to_vec();
    let side32 = u32::try_from(side).map_err(|_| {
        Error::invalid_request(format!("a box of side {side} is too large to solve"))
    })?;
    let mut best: Option<(u64, Vec<u64>)> = None;
    let mut visit = |q: &[u32], g: u16| -> Result<()> {
        let q: Vec<u64> = q.iter().map(|&c| u64::from(c)).collect();
        let sum: u64 = q.iter().sum();
        if sum > side {
            return Ok(());
        }
        let key = (sum, q.clone());
        if best.as_ref().is_some_and(|b| *b <= key) {
            return Ok(());
        }
        let bad = disagrees(question, &names, &q, g)
            .map_err(|e| Error::invalid_request(format!("at {}: {e}", show(&q))))?;
        if bad {
            best = Some(key);
        }
        Ok(())
    };
    match &game.capped {
        // The capped solver: the same values (its tests check it against
        // the dense one), far faster.
        Some(capped) => {
            let solved = capped.solve([side32; 3], memory_limit, control)?;
            for (q, g) in solved.positions() {
                visit(&q, g)?;
            }
        }
        None => {
            let solved = solve_dense(
                game.solver(),
                &vec![side32; names.len()],
                memory_limit,
                control,
            )?;
            for (q, g) in solved.positions() {
                visit(&q, g)?;
            }
        }
    }
    Ok(best.map(|(_, q)| q))
}
