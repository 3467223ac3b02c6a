//! The solver's games ([`GameSpec`]) as games of the prover's logic: what a
//! survey hands to prove, one value of its parameter at a time.
//!
//! The capped games and Nim translate as `nimscape prove` names them; a game
//! file translates when its positions and moves are linear (see
//! [`crate::games::GameFile::to_logic`]). Everything else is refused with one
//! line naming the construct and why.

use super::ir::{Formula, Term};
use super::{next_name, MoveFamily, ProofGame, MOVE_VAR};
use crate::games::band::Band;
use crate::games::capped::Cap;
use crate::games::file::FileGame;
use crate::games::{GameFile, GameSpec};
use std::sync::Arc;

impl ProofGame {
    /// The game `spec` in the prover's logic, or one line saying why it
    /// cannot be written there.
    pub fn from_spec(spec: &GameSpec) -> Result<ProofGame, String> {
        match spec {
            GameSpec::Capped(game) => {
                let term = match game.cap() {
                    Cap::Triangular { k } => Term::var("x")
                        .add(Term::var("z"))
                        .floor_div(i64::from(*k)),
                    Cap::MinHalf => Term::var("x").min(Term::var("z")).floor_div(2),
                    Cap::Expr(expr) => expr.to_logic()?,
                };
                Ok(ProofGame::capped(game.clone(), term))
            }
            GameSpec::Nim(nim) => ProofGame::nim(nim.heaps()).map_err(|e| e.to_string()),
            GameSpec::File(file) => ProofGame::game_file(file),
            GameSpec::NimPass(_) => Err(
                "Nim with a pass is not translated for the prover: the pass, usable once per game, is state outside the heaps"
                    .into(),
            ),
            GameSpec::SixSided => Err(
                "the six-sided bar is not translated for the prover; write it as a game file with linear moves"
                    .into(),
            ),
            GameSpec::Band(band) => ProofGame::band(*band),
        }
    }
}

/// Names the prover gives variables of its own: a heap may not take them.
fn clashes(heap: &str) -> bool {
    heap.ends_with("_next") || [MOVE_VAR, "value_here", "grundy_value"].contains(&heap)
}

impl ProofGame {
    /// A game file whose positions and moves are linear. Besides the formulas,
    /// the game's well-formedness for the prover: every option of every
    /// position is a position (no heap negative) and has a smaller heap sum
    /// (the order in which the smallest counterexample is the smallest
    /// violation; the solver asks only that options go down lexicographically).
    pub fn game_file(file: &Arc<GameFile>) -> Result<ProofGame, String> {
        let heaps: Vec<String> = file.heap_names().to_vec();
        if let Some(h) = heaps.iter().find(|h| clashes(h)) {
            return Err(format!(
                "{}: the heap name '{h}' is one the prover keeps for itself; rename it",
                file.file()
            ));
        }
        let logic = file.to_logic(MOVE_VAR)?;
        let moves: Vec<(Formula, Vec<Term>)> = logic
            .moves
            .iter()
            .map(|m| (m.guard.clone(), m.next.clone()))
            .collect();
        let name = file.name();
        let description = format!(
            "the game {} of the game file {} with positions ${}$",
            super::latex_text(&name),
            super::latex_text(file.file()),
            super::tuple(&heaps)
        );
        Ok(linear_game(
            name,
            description,
            heaps,
            logic.position,
            &moves,
            Box::new(FileGame(file.clone())),
            "every move lands on a position (no heap negative) and lowers the sum of the heaps",
        ))
    }

    /// A band game of Examples 7.1 and 7.2 of Miyadera et al.'s web book,
    /// with the moves of the book's programs (as [`Band`] plays them). The
    /// band's tuples are the positions; the engine checks first that every
    /// move lands in the band (it does for Example 7.1 and for Example 7.2
    /// with `h >= k - 1`; otherwise an option outside the band would be a
    /// tuple the claim says nothing about, and prove refuses with the move).
    pub fn band(band: Band) -> Result<ProofGame, String> {
        let (x, y, t) = (Term::var("x"), Term::var("y"), Term::var(MOVE_VAR));
        let heaps = vec!["x".to_string(), "y".to_string()];
        let (position, moves, description) = match band {
            Band::Example71 => {
                // res(x) = 2 floor(x/2) + 1, res2(x) = max(2 floor(x/2) - 2, 0),
                // inverseres2(x) = 2 floor(x/2) + 3.
                let res = |v: &Term| v.clone().floor_div(2).times(2).add(Term::Const(1));
                let res2 = |v: &Term| {
                    v.clone()
                        .floor_div(2)
                        .times(2)
                        .sub(Term::Const(2))
                        .max(Term::Const(0))
                };
                let inverse_res2 = |v: &Term| v.clone().floor_div(2).times(2).add(Term::Const(3));
                (
                    Formula::and([res2(&x).le(y.clone()), y.clone().le(res(&x))]),
                    vec![
                        (t.clone().lt(x.clone()), vec![t.clone(), res(&t).min(y.clone())]),
                        (t.clone().lt(y.clone()), vec![inverse_res2(&x).min(t.clone()), t.clone()]),
                    ],
                    "the band game of Example 7.1 of Miyadera et al. with positions $(x, y)$, $\\max(2\\lfloor x/2 \\rfloor - 2, 0) \\le y \\le 2\\lfloor x/2 \\rfloor + 1$".to_string(),
                )
            }
            Band::Example72 { k, h } => {
                let (k, h) = (i64::from(k), i64::from(h));
                (
                    // (x - h)/k <= y <= x/k, i.e. k y <= x <= k y + h.
                    Formula::and([
                        y.clone().times(k).le(x.clone()),
                        x.clone().le(y.clone().times(k).add(Term::Const(h))),
                    ]),
                    vec![
                        (t.clone().lt(x.clone()), vec![t.clone(), t.clone().floor_div(k).min(y.clone())]),
                        (t.clone().lt(y.clone()), vec![t.clone().times(k).add(Term::Const(h)).min(x.clone()), t.clone()]),
                    ],
                    format!("the band game of Example 7.2 of Miyadera et al. with $k = {k}$, $h = {h}$ and positions $(x, y)$, $(x - {h})/{k} \\le y \\le x/{k}$"),
                )
            }
        };
        Ok(linear_game(
            crate::games::solver::Game::name(&band),
            description,
            heaps,
            position,
            &moves,
            Box::new(band),
            match band {
                Band::Example71 => "every move stays in the band and lowers the sum of the heaps",
                Band::Example72 { .. } => "every move stays in the band and lowers the sum of the heaps (true when h >= k - 1; with a smaller h a move of x leaves the band, to a tuple a claim about the band says nothing about)",
            },
        ))
    }
}

/// A game whose moves are families `(guard, next)` over the variable
/// [`MOVE_VAR`], with its well-formedness for the prover: every option of
/// every position is a position (no heap negative) and has a smaller heap
/// sum (the order in which the smallest counterexample is the smallest
/// violation; the solver asks only that options go down lexicographically).
fn linear_game(
    name: String,
    description: String,
    heaps: Vec<String>,
    position: Formula,
    moves: &[(Formula, Vec<Term>)],
    solver: Box<dyn crate::games::solver::Game + Send + Sync>,
    says: &str,
) -> ProofGame {
    let sum = |terms: &[Term]| {
        terms
            .iter()
            .cloned()
            .reduce(|a, b| a.add(b))
            .unwrap_or(Term::Const(0))
    };
    let here: Vec<Term> = heaps.iter().map(|h| Term::var(h)).collect();
    let at = |f: &Formula, values: &[Term]| {
        f.substitute(&|v| match heaps.iter().position(|h| h == v) {
            Some(i) => values[i].clone(),
            None => Term::var(v),
        })
    };
    let mut relation = Vec::with_capacity(moves.len());
    let mut lands = Vec::with_capacity(moves.len());
    let mut families = Vec::with_capacity(moves.len());
    for (guard, next) in moves {
        let same: Vec<Formula> = heaps
            .iter()
            .zip(next)
            .map(|(h, n)| Term::var(&next_name(h)).eq(n.clone()))
            .collect();
        relation.push(Formula::exists(
            &[MOVE_VAR.to_string()],
            Formula::and(std::iter::once(guard.clone()).chain(same)),
        ));
        let mut good: Vec<Formula> = next.iter().map(|n| Term::Const(0).le(n.clone())).collect();
        good.push(at(&position, next));
        good.push(sum(next).lt(sum(&here)));
        lands.push(Formula::forall(
            &[MOVE_VAR.to_string()],
            guard.clone().implies(Formula::and(good)),
        ));
        families.push(MoveFamily {
            vars: vec![MOVE_VAR.to_string()],
            guard: guard.clone(),
            next: next.clone(),
        });
    }
    let well_formed = position.clone().implies(Formula::and(lands));
    ProofGame {
        description,
        name,
        heaps,
        position,
        moves: Formula::or(relation),
        well_formed: Some((well_formed, says.to_string())),
        families,
        solver,
        capped: None,
    }
}
