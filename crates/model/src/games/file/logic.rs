//! A game file in the prover's logic: its positions as one formula over the
//! heaps, its moves as families "some `t` under a guard, the option as terms",
//! exactly the options [`GameFile::for_each_option`] lists. Refused, with one
//! line naming the file, the place and the construct: a pass, misère play, and
//! anything not linear (products or powers of heaps, `isqrt`, `round`).

use super::{Family, GameFile};
use crate::games::solver::Game;
use crate::prove::ir::{Formula, Term};
use crate::prove::linear::Linear;

/// One family of moves: for every natural `t` with `guard`, the option `next`.
#[derive(Clone, Debug)]
pub struct LogicMove {
    /// `move 2 (lower x)`.
    pub label: String,
    /// The guard, over the heaps and the move's variable.
    pub guard: Formula,
    /// The option's heaps, terms over the heaps and the move's variable.
    pub next: Vec<Term>,
}

/// A game file's positions and moves in the prover's logic.
#[derive(Clone, Debug)]
pub struct LogicGame {
    /// Which tuples are positions (free variables: the heaps).
    pub position: Formula,
    /// The moves.
    pub moves: Vec<LogicMove>,
}

impl GameFile {
    /// The game in the prover's logic, the move's `t` named `t_name`; one line
    /// saying why when it cannot be written there.
    pub fn to_logic(&self, t_name: &str) -> Result<LogicGame, String> {
        let file = &self.file;
        if self.pass {
            return Err(format!(
                "{file}: a pass (usable once per game) is state outside the heaps; prove takes games without one"
            ));
        }
        if self.misere {
            return Err(format!(
                "{file}: misère play is not translated for the prover (it checks the normal-play P-positions)"
            ));
        }
        let heaps: Vec<Linear> = self.heaps.iter().map(|h| Linear::var(h)).collect();
        let mut position = Vec::with_capacity(self.positions.len());
        for (src, condition) in &self.positions {
            position.push(
                condition
                    .to_formula(&heaps)
                    .map_err(|e| format!("{file}, positions '{src}': {e}"))?,
            );
        }
        let t = Term::var(t_name);
        let mut moves = Vec::with_capacity(self.moves.len());
        for m in &self.moves {
            let at = |key: &str, e: String| format!("{file}, {}, {key}: {e}", m.label);
            let mut with_t = heaps.clone();
            with_t.push(Linear::var(t_name));
            let (guard, option): (Formula, Vec<Term>) = match &m.family {
                Family::Lower { heap, to } => {
                    let guard = t.clone().lt(Term::var(&self.heaps[*heap]));
                    let option = match to {
                        Some(to) => to
                            .iter()
                            .map(|e| e.to_linear(&with_t).and_then(Linear::floor_term))
                            .collect::<Result<Vec<_>, _>>()
                            .map_err(|e| at("to", e))?,
                        None => (0..self.heaps.len())
                            .map(|i| {
                                if i == *heap {
                                    t.clone()
                                } else {
                                    Term::var(&self.heaps[i])
                                }
                            })
                            .collect(),
                    };
                    (guard, option)
                }
                Family::Take { heaps: taken } => {
                    let mut guard = vec![Term::Const(1).le(t.clone())];
                    guard.extend(
                        taken
                            .iter()
                            .map(|&h| t.clone().le(Term::var(&self.heaps[h]))),
                    );
                    let option = (0..self.heaps.len())
                        .map(|i| {
                            let h = Term::var(&self.heaps[i]);
                            if taken.contains(&i) {
                                h.sub(t.clone())
                            } else {
                                h
                            }
                        })
                        .collect();
                    (Formula::and(guard), option)
                }
            };
            let next = match &m.then {
                Some(then) => {
                    let mut over: Vec<Linear> = option
                        .iter()
                        .map(|term| Linear::Over(term.clone(), 1))
                        .collect();
                    over.push(Linear::var(t_name));
                    then.iter()
                        .map(|e| e.to_linear(&over).and_then(Linear::floor_term))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| at("then", e))?
                }
                None => option,
            };
            moves.push(LogicMove {
                label: m.label.clone(),
                guard,
                next,
            });
        }
        Ok(LogicGame {
            position: Formula::and(position),
            moves,
        })
    }
}

/// A game file as the exact solver's [`Game`] (normal play, no pass): the
/// prover's solver beside its formulas. Options that break the file's rules
/// (which the prover's engine rules out first) are left out.
#[derive(Clone, Debug)]
pub struct FileGame(pub std::sync::Arc<GameFile>);

impl Game for FileGame {
    fn name(&self) -> String {
        self.0.name()
    }
    fn coordinate_names(&self) -> Vec<String> {
        self.0.heap_names().to_vec()
    }
    fn is_position(&self, p: &[u32]) -> bool {
        self.0.is_position(p)
    }
    fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
        let _ = self.0.for_each_option(p, &mut |o, _, _| {
            let q: Option<Vec<u32>> = o.iter().map(|&c| u32::try_from(c).ok()).collect();
            if let Some(q) = q {
                f(&q);
            }
            Ok(())
        });
    }
}
