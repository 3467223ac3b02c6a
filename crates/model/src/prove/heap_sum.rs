//! The exact solver's search for the smallest counterexample among the
//! positions of bounded heap sum, for capped games.
//!
//! The smallest counterexample (by the heap sum, then lexicographically) of
//! heap sum at most `S` lies among the positions `x + y + z <= S`: a simplex,
//! far smaller than the box of side `S` that holds it (at `S = 1024` the
//! triangular game with `k = 32` has about 12 million positions in the
//! simplex, 35 million in the box). Every move of a capped game lowers the
//! heap sum, so the simplex is closed under moves and its Grundy values are
//! the game's.
//!
//! The simplex is solved as a capped game of its own: the cap clamped to
//! `min(cap(x, z), S - x - z)`, and to 0 where `x + z > S`. From a position
//! `(x, y, z)` of the simplex, an `x`-move to `t` leaves
//! `min(y, cap(t, z))`, and since `y <= S - x - z < S - t - z` that is
//! `min(y, min(cap(t, z), S - t - z))`: the clamped game's move. The columns
//! with `x + z > S` hold one position `(x, 0, z)` each, whose moves stay at
//! `y = 0`, so their values are the game's too (and they are not looked at).
//! The clamped cap is not monotone, so the general capped solver solves it,
//! not the tiled one that confirms a counterexample afterwards.

use super::{disagrees_at, show, ProofGame, Question};
use crate::games::capped::{solve_capped_fn, Cap, CappedGrundy, Play};
use crate::{Control, Error, Result};
use rayon::prelude::*;

/// What a search over the positions of bounded heap sum found.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HeapSumSearch {
    /// Every position with `x + y + z <= max_heap_sum` was checked.
    pub max_heap_sum: u64,
    /// How many positions that is.
    pub positions: u64,
    /// The smallest position where the claim is wrong, if any.
    pub counterexample: Option<Vec<u64>>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// A position with its heap sum first, so that the order of the pairs is
/// the order of the smallest counterexample.
type Ranked = (u64, [u64; 3]);

/// The clamped cap of the simplex `x + y + z <= max_sum` at `(x, z)`.
fn clamped(cap: u64, x: u32, z: u32, max_sum: u64) -> u64 {
    let level = u64::from(x) + u64::from(z);
    if level > max_sum {
        0
    } else {
        cap.min(max_sum - level)
    }
}

impl ProofGame {
    /// The positions with heap sum at most `max_sum`, or `None` for a game
    /// that is not a capped one in normal play without a pass (its columns counted, so the count is exact;
    /// the columns past the simplex, one position each, included).
    pub fn heap_sum_positions(&self, max_sum: u64) -> Option<u64> {
        let game = self
            .capped
            .as_ref()
            .filter(|c| c.play() == Play::default())?;
        let side = u32::try_from(max_sum).ok()?;
        let mut total = 0u64;
        for x in 0..=side {
            for z in 0..=side {
                let cap = game.cap().eval(x, z).unwrap_or(0);
                total = total.saturating_add(clamped(cap, x, z, max_sum) + 1);
            }
        }
        Some(total)
    }

    /// The largest heap sum (from `from` up, growing by a quarter, at most
    /// 65535) whose positions number at most `budget`; `None` for a game that
    /// is not a capped one, or when not even `from` fits.
    pub fn heap_sum_reach(&self, from: u64, budget: u64) -> Option<u64> {
        let mut best = None;
        let mut sum = from.max(16);
        while sum <= 65_535 && self.heap_sum_positions(sum)? <= budget {
            best = Some(sum);
            sum += sum / 4;
        }
        best
    }
}

/// The Grundy values of the capped game `cap` at every position of heap sum
/// at most `max_sum` (and at the positions `(x, 0, z)` with `x + z > max_sum`).
fn solve_simplex(
    cap: &Cap,
    game: &str,
    max_sum: u32,
    memory_limit: u64,
    control: &Control,
) -> Result<CappedGrundy> {
    let name = format!("{game} on the positions of heap sum at most {max_sum}");
    let limit = u64::from(max_sum);
    solve_capped_fn(
        &name,
        |x, z| Ok(clamped(cap.eval(x, z)?, x, z, limit)),
        [max_sum, max_sum, max_sum],
        Play::default(),
        memory_limit,
        control,
    )
}

/// Solves every position of `game` with heap sum at most `max_sum` and
/// returns the smallest where `question` is wrong (see the module notes).
/// Only a capped game in normal play without a pass is searched; the solver
/// refuses with an estimate what `memory_limit` does not hold.
pub fn smallest_by_heap_sum(
    game: &ProofGame,
    question: &Question,
    max_sum: u64,
    memory_limit: u64,
    control: &Control,
) -> Result<HeapSumSearch> {
    let start = std::time::Instant::now();
    let capped = game
        .capped
        .as_ref()
        .filter(|c| c.play() == Play::default())
        .ok_or_else(|| {
            Error::invalid_request(format!(
                "{}: the search by heap sum needs a capped game in normal play without a pass",
                game.name()
            ))
        })?;
    let side = u32::try_from(max_sum)
        .ok()
        .filter(|&s| s < u32::MAX)
        .ok_or_else(|| {
            Error::invalid_request(format!("a heap sum of {max_sum} is too large to search"))
        })?;
    let solved = solve_simplex(capped.cap(), &game.name, side, memory_limit, control)?;
    let names = game.heaps().to_vec();
    // Row by row of x (in parallel), the smallest disagreement of the row by
    // (heap sum, then x, y, z); then the smallest of the rows.
    let rows: Vec<Result<(u64, Option<Ranked>)>> = (0..=side)
        .into_par_iter()
        .map(|x| {
            control.check()?;
            let mut count = 0u64;
            let mut best: Option<Ranked> = None;
            let mut env: super::ir::Env = names.iter().map(|n| (n.clone(), 0)).collect();
            for z in 0..=side - x {
                let height = solved.column_height(x, z).unwrap_or(0);
                let top = clamped(u64::from(height), x, z, max_sum);
                for y in 0..=top as u32 {
                    count += 1;
                    let p = [u64::from(x), u64::from(y), u64::from(z)];
                    let key = (p.iter().sum::<u64>(), p);
                    if best.is_some_and(|b| b <= key) {
                        continue;
                    }
                    let g = solved.get(x, y, z).ok_or_else(|| {
                        Error::Unsupported(format!(
                            "internal error of the prover (please report it): no value at {} in the search by heap sum",
                            show(&p)
                        ))
                    })?;
                    for (name, v) in names.iter().zip(p) {
                        if let Some(slot) = env.get_mut(name) {
                            *slot = i128::from(v);
                        }
                    }
                    let bad = disagrees_at(question, &env, g)
                        .map_err(|e| Error::invalid_request(format!("at {}: {e}", show(&p))))?;
                    if bad {
                        best = Some(key);
                    }
                }
            }
            Ok((count, best))
        })
        .collect();
    control.check()?;
    let mut positions = 0u64;
    let mut best: Option<Ranked> = None;
    for row in rows {
        let (count, found) = row?;
        positions += count;
        if let Some(found) = found {
            if best.is_none_or(|b| found < b) {
                best = Some(found);
            }
        }
    }
    Ok(HeapSumSearch {
        max_heap_sum: max_sum,
        positions,
        counterexample: best.map(|(_, p)| p.to_vec()),
        seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::capped::CappedGame;
    use crate::games::solver::solve_dense;
    use crate::prove::ir::{Formula, Term};
    use crate::prove::{smallest_disagreement, Claim};

    const LIMIT: u64 = 1 << 30;

    fn games() -> Vec<CappedGame> {
        vec![
            CappedGame::triangular(1).unwrap(),
            CappedGame::triangular(3).unwrap(),
            CappedGame::triangular(4).unwrap(),
            CappedGame::triangular(32).unwrap(),
            CappedGame::min_half(),
            CappedGame::with_expr("max(x, z) - min(x, z)").unwrap(),
            CappedGame::with_expr("floor((2*x + z)/3)").unwrap(),
        ]
    }

    /// The clamped simplex has the game's values at every position of
    /// bounded heap sum: against the dense solver, which reads the game's
    /// moves one by one, on the box of side the heap sum.
    #[test]
    fn the_simplex_has_the_dense_solvers_values() {
        for game in games() {
            for max_sum in [0u32, 1, 7, 20] {
                let simplex =
                    solve_simplex(game.cap(), "test", max_sum, LIMIT, &Control::new()).unwrap();
                let dense = solve_dense(&game, &[max_sum; 3], LIMIT, &Control::new()).unwrap();
                let mut seen = 0;
                for (p, g) in dense.positions() {
                    if p.iter().map(|&c| u64::from(c)).sum::<u64>() > u64::from(max_sum) {
                        continue;
                    }
                    seen += 1;
                    assert_eq!(
                        simplex.get(p[0], p[1], p[2]),
                        Some(g),
                        "{} at {p:?}, heap sum <= {max_sum}",
                        crate::games::solver::Game::name(&game)
                    );
                }
                let proof = ProofGame::capped(game.clone(), Term::Const(0));
                let counted = proof.heap_sum_positions(u64::from(max_sum)).unwrap();
                let outside = (0..=u64::from(max_sum))
                    .flat_map(|x| (0..=u64::from(max_sum)).map(move |z| x + z))
                    .filter(|&s| s > u64::from(max_sum))
                    .count() as u64;
                assert_eq!(counted, seen + outside, "heap sum {max_sum}");
            }
        }
    }

    /// The smallest counterexample by heap sum is the box search's, for
    /// right and wrong claims of both kinds, with and without a region.
    #[test]
    fn the_smallest_counterexample_is_the_box_searchs() {
        let (x, y, z) = (Term::var("x"), Term::var("y"), Term::var("z"));
        let xor = x.clone().xor(y.clone()).xor(z.clone());
        let shifted = x
            .clone()
            .sub(Term::Const(1))
            .xor(y.clone())
            .xor(z.clone().sub(Term::Const(1)));
        let questions = [
            (Claim::PSet(xor.clone().eq(Term::Const(0))), None),
            (Claim::PSet(shifted.eq(Term::Const(0))), None),
            (Claim::Grundy(xor.clone()), None),
            (Claim::Grundy(x.clone().add(z.clone())), None),
            (
                Claim::PSet(xor.clone().eq(Term::Const(0))),
                Some(y.clone().le(Term::Const(1))),
            ),
            (Claim::PSet(Formula::False), None),
        ];
        for game in games() {
            for (claim, region) in &questions {
                let question = Question {
                    claim: claim.clone(),
                    region: region.clone(),
                };
                let proof = ProofGame::capped(game.clone(), Term::Const(0));
                let searched =
                    smallest_by_heap_sum(&proof, &question, 24, LIMIT, &Control::new()).unwrap();
                let boxed =
                    smallest_disagreement(&proof, &question, 24, LIMIT, &Control::new()).unwrap();
                assert_eq!(
                    searched.counterexample,
                    boxed,
                    "{} {question:?}",
                    proof.name()
                );
                assert_eq!(
                    searched.positions,
                    proof.heap_sum_positions(24).unwrap() - outside(24)
                );
            }
        }
    }

    fn outside(max_sum: u64) -> u64 {
        (0..=max_sum)
            .flat_map(|x| (0..=max_sum).map(move |z| x + z))
            .filter(|&s| s > max_sum)
            .count() as u64
    }

    /// The triangular game with k = 32: "P iff x^y^z = 0" holds at every
    /// position of heap sum below 1024 and fails first at (481, 31, 512),
    /// where the survey of box 520 finds it. The box searched before the
    /// engine is asked (side 512) cannot see it.
    #[test]
    fn k32_fails_first_at_heap_sum_1024() {
        let game = CappedGame::triangular(32).unwrap();
        let proof = ProofGame::capped(game, Term::Const(0));
        let (x, y, z) = (Term::var("x"), Term::var("y"), Term::var("z"));
        let question = Question {
            claim: Claim::PSet(x.xor(y).xor(z).eq(Term::Const(0))),
            region: None,
        };
        let reach = proof.heap_sum_reach(513, 30_000_000).unwrap();
        assert!(reach >= 1024, "{reach}");
        let found = smallest_by_heap_sum(&proof, &question, 1024, LIMIT, &Control::new()).unwrap();
        assert_eq!(found.counterexample, Some(vec![481, 31, 512]));
    }
}
