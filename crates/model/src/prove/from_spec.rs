//! The solver's games ([`GameSpec`]) as games of the prover's logic: what a
//! survey hands to prove, one value of its parameter at a time.
//!
//! The capped games and Nim translate as `nimscape prove` names them; a game
//! file translates when its positions and moves are linear (see
//! [`crate::games::GameFile::to_logic`]). Everything else is refused with one
//! line naming the construct and why.

use super::ir::{Formula, Term};
use super::{next_name, MoveFamily, ProofGame, MOVE_VAR};
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
            GameSpec::Band(_) => Err(
                "the band games are not translated for the prover yet"
                    .into(),
            ),
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
        let mut relation = Vec::with_capacity(logic.moves.len());
        let mut lands = Vec::with_capacity(logic.moves.len());
        let mut families = Vec::with_capacity(logic.moves.len());
        for m in &logic.moves {
            let same: Vec<Formula> = heaps
                .iter()
                .zip(&m.next)
                .map(|(h, n)| Term::var(&next_name(h)).eq(n.clone()))
                .collect();
            relation.push(Formula::exists(
                &[MOVE_VAR.to_string()],
                Formula::and(std::iter::once(m.guard.clone()).chain(same)),
            ));
            let mut good: Vec<Formula> = m
                .next
                .iter()
                .map(|n| Term::Const(0).le(n.clone()))
                .collect();
            good.push(at(&logic.position, &m.next));
            good.push(sum(&m.next).lt(sum(&here)));
            lands.push(Formula::forall(
                &[MOVE_VAR.to_string()],
                m.guard.clone().implies(Formula::and(good)),
            ));
            families.push(MoveFamily {
                vars: vec![MOVE_VAR.to_string()],
                guard: m.guard.clone(),
                next: m.next.clone(),
            });
        }
        let well_formed = logic.position.clone().implies(Formula::and(lands));
        let name = file.name();
        Ok(ProofGame {
            description: format!(
                "the game {} of the game file {} with positions ${}$",
                super::latex_text(&name),
                super::latex_text(file.file()),
                super::tuple(&heaps)
            ),
            name,
            heaps,
            position: logic.position,
            moves: Formula::or(relation),
            well_formed: Some((
                well_formed,
                "every move lands on a position (no heap negative) and lowers the sum of the heaps"
                    .to_string(),
            )),
            families,
            solver: Box::new(FileGame(file.clone())),
            capped: None,
        })
    }
}
