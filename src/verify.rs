//! The papers' computational claims, re-checked (`nimscape verify`).
//!
//! Each [`Claim`] names its source and whether the papers prove it. A proven
//! claim that fails makes the run fail; predictions and conjectures are only
//! reported, as holding or not in the box checked, never assumed. Every check
//! goes through a different route than the figures do where one exists: game
//! search against the XOR criterion, the automaton against the board, the
//! octahedron's geometry against the board.

use crate::automaton;
use crate::games::analysis::{compare_nim_sum, find_shift};
use crate::games::six_sided::SixSided;
use crate::games::solver::solve_dense;
use crate::games::CappedGame;
use crate::octahedron::{aligned_cells, Level, Section};
use crate::pattern::count;
use crate::pattern::decompose::Decomposition;
use crate::pattern::p_grid;
use crate::{Control, Error, Result};
use std::time::{Duration, Instant};

/// How a claim stands in the papers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Proved (or computed and stated as fact) in the papers: it must hold.
    Proven,
    /// A conjecture or prediction: reported, never assumed.
    Conjecture,
}

/// One re-checked claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The claim in words.
    pub claim: String,
    /// Where it comes from.
    pub source: &'static str,
    /// Proven or conjectured.
    pub standing: Standing,
    /// The range or box it was checked on.
    pub range: String,
    /// Whether it held everywhere in that range.
    pub holds: bool,
    /// Time the check took.
    pub elapsed: Duration,
}

impl Outcome {
    /// A proven claim that does not hold: the run fails.
    pub fn is_failure(&self) -> bool {
        self.standing == Standing::Proven && !self.holds
    }
}

/// A claim's check: given the `--up-to` bound, the memory limit and the run's
/// control, the range it covered and whether the claim held there.
pub type Check = Box<dyn Fn(u64, u64, &Control) -> Result<(String, bool)> + Send + Sync>;

/// A claim to check: its text, source, standing, and the check.
pub struct Claim {
    /// The claim in words.
    pub claim: String,
    /// Where it comes from.
    pub source: &'static str,
    /// Proven or conjectured.
    pub standing: Standing,
    /// Runs the check.
    pub check: Check,
}

fn claim(
    claim: &str,
    source: &'static str,
    standing: Standing,
    check: impl Fn(u64, u64, &Control) -> Result<(String, bool)> + Send + Sync + 'static,
) -> Claim {
    Claim {
        claim: claim.to_string(),
        source,
        standing,
        check: Box::new(check),
    }
}

/// Backward induction over every four-heap Nim position with heaps below `side`:
/// P iff no single-heap reduction reaches a P-position. No XOR involved.
fn four_heap_search(side: usize) -> Vec<bool> {
    let index = |h: [usize; 4]| ((h[0] * side + h[1]) * side + h[2]) * side + h[3];
    let mut is_p = vec![false; side.pow(4)];
    let mut order: Vec<[usize; 4]> = (0..side.pow(4))
        .map(|k| {
            [
                k / side.pow(3),
                k / side.pow(2) % side,
                k / side % side,
                k % side,
            ]
        })
        .collect();
    order.sort_by_key(|h| h.iter().sum::<usize>());
    for heaps in order {
        let reaches_p = (0..4).any(|pile| {
            (0..heaps[pile]).any(|smaller| {
                let mut next = heaps;
                next[pile] = smaller;
                is_p[index(next)]
            })
        });
        is_p[index(heaps)] = !reaches_p;
    }
    is_p
}

/// Whether `holds` is true of every item, stopping at the first that is not (or
/// at the first error: a cancelled run).
fn all<T>(
    items: impl IntoIterator<Item = T>,
    mut holds: impl FnMut(T) -> Result<bool>,
) -> Result<bool> {
    for item in items {
        if !holds(item)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn triangular_xor_rule(
    k: u32,
    side: u32,
    shift: i64,
    limit: u64,
    control: &Control,
) -> Result<bool> {
    let grundy = CappedGame::triangular(k)?.solve([side, side, side], limit, control)?;
    Ok(find_shift(&grundy, shift..=shift, control)? == vec![shift])
}

/// Every claim `verify` knows, in the papers' order.
pub fn claims() -> Vec<Claim> {
    use Standing::*;
    vec![
        claim(
            "C(m,n): (i,j) is P iff (i-1)^(j-1)^(m-i)^(n-j) = 0, by brute-force game search",
            "Okubo–Kashiwagi–Niida, Thm 2.3",
            Proven,
            |up_to, _, control| {
                let side = up_to.clamp(2, 14) as usize;
                let searched = four_heap_search(side);
                let index = |h: [usize; 4]| ((h[0] * side + h[1]) * side + h[2]) * side + h[3];
                let holds = all(1..=side, |m| {
                    all(1..=side, |n| {
                        let grid = p_grid(m, n, control)?;
                        Ok((1..=m).all(|i| {
                            (1..=n).all(|j| grid.get(i - 1, j - 1) == searched[index([i - 1, j - 1, m - i, n - j])])
                        }))
                    })
                })?;
                Ok((format!("m, n = 1..{side}"), holds))
            },
        ),
        claim("R(2m,2m) = 2·R(m,m)", "Okubo–Kashiwagi–Niida, Thm 3.3", Proven, |up_to, _, control| {
            let top = up_to.clamp(1, 512) as usize;
            let holds = all(1..=top, |m| Ok(p_grid(2 * m, 2 * m, control)? == p_grid(m, m, control)?.upscale(2)))?;
            Ok((format!("m = 1..{top}"), holds))
        }),
        claim(
            "R(m,m) is four corner copies of R(s,s), a centre R(t,t), empty edges",
            "Okubo–Kashiwagi–Niida, Thm 3.4",
            Proven,
            |up_to, _, control| {
                let top = (4 * up_to).clamp(2, 1024) as usize;
                let holds = all(2..=top, |m| {
                    let grid = p_grid(m, m, control)?;
                    let d = Decomposition::of(m as u64);
                    let (s, t) = (d.s as usize, d.t as usize);
                    let corners = s == 0 || {
                        let corner = p_grid(s, s, control)?;
                        d.corners().iter().all(|&(r, c, _)| grid.crop(r as usize, c as usize, s, s) == corner)
                            && [(0, s, s, t), (s, 0, t, s), (s, s + t, t, s), (s + t, s, s, t)]
                                .iter()
                                .all(|&(r, c, h, w)| grid.crop(r, c, h, w).is_empty())
                    };
                    Ok(corners && grid.crop(s, s, t, t) == p_grid(t, t, control)?)
                })?;
                Ok((format!("m = 2..{top}"), holds))
            },
        ),
        claim(
            "g(m) recurrences, counted cells, and both sum identities",
            "Okubo–Kashiwagi–Niida, Lem. 4.1, Thms 4.2–4.3",
            Proven,
            |up_to, _, control| {
                let top = (16 * up_to).clamp(2, 4096);
                Ok((format!("m = 1..{top}"), count::check(top, control)?.iter().all(|line| line.holds)))
            },
        ),
        claim(
            "the automaton's frame n is odd exactly on P(n,n)",
            "Okubo–Kashiwagi–Niida, Thm 5.4",
            Proven,
            |up_to, limit, control| {
                let top = (8 * up_to).clamp(1, 4096) as usize;
                Ok((format!("n = 1..{top}"), automaton::check_parity(top, limit, control)?.is_none()))
            },
        ),
        claim(
            "H(n,m) turned by 45° is R(m,m)",
            "Okubo–Kashiwagi–Niida, Thm 5.2",
            Proven,
            |up_to, limit, control| {
                let order = (64 - up_to.max(2).leading_zeros()).clamp(1, 7);
                let holds = all(1..=order, |n| {
                    all(1..=1u64 << n, |m| {
                        Ok(match aligned_cells(n, m, limit, control) {
                            Ok(cells) => cells == p_grid(m as usize, m as usize, control)?,
                            Err(Error::Cancelled) => return Err(Error::Cancelled),
                            Err(_) => false,
                        })
                    })
                })?;
                Ok((format!("n = 1..{order}, every m <= 2^n"), holds))
            },
        ),
        claim(
            "H(n,m+1/2) is congruent to (1/2)·H(n,2m+1)",
            "Okubo–Kashiwagi–Niida, §5",
            Proven,
            |up_to, limit, control| {
                let order = (64 - up_to.max(2).leading_zeros()).clamp(2, 7);
                let mut holds = true;
                for n in 2..=order {
                    for m in 1..(1u64 << (n - 1)) {
                        let half = Section::compute(n, Level::half(n, m)?, limit, control)?.aligned();
                        let odd = Section::compute(n, Level::integer(n, 2 * m + 1)?, limit, control)?.aligned();
                        holds &= half.is_some() && half == odd;
                    }
                }
                Ok((format!("n = 2..{order}, 2m+1 < 2^n"), holds))
            },
        ),
        claim(
            "triangular game, k ≡ 3 (mod 4): P iff x^y^z = 0 (k = 3, 7, 11)",
            "Miyadera–Nakamura–Fukui, Thm 7.3",
            Proven,
            |up_to, limit, control| {
                let side = up_to.clamp(4, 48) as u32;
                let mut holds = true;
                for k in [3, 7, 11] {
                    holds &= triangular_xor_rule(k, side, 0, limit, control)?;
                }
                Ok((format!("box 0..{side}"), holds))
            },
        ),
        claim(
            "triangular k = 3, box 0..20: 3234 positions, 977 with Grundy = x^y^z, 2257 without",
            "Miyadera–Nakamura–Fukui, §8.2",
            Proven,
            |_, limit, control| {
                let c = compare_nim_sum(&CappedGame::triangular(3)?.solve([20, 20, 20], limit, control)?, control)?;
                Ok(("box 0..20".into(), (c.positions, c.equal, c.different) == (3234, 977, 2257)))
            },
        ),
        claim(
            "triangular k = 2, box 0..10: exactly 53 P-positions",
            "Miyadera–Nakamura–Fukui, §8.4",
            Proven,
            |_, limit, control| {
                let p = CappedGame::triangular(2)?.solve([10, 10, 10], limit, control)?.p_positions().len();
                Ok(("box 0..10".into(), p == 53))
            },
        ),
        claim(
            "triangular game, k ≡ 1 (mod 4): P iff (x-1)^y^(z-1) = 0 (k = 5, 9)",
            "Miyadera–Nakamura–Fukui, Conj. 8.1",
            Conjecture,
            |up_to, limit, control| {
                let side = up_to.clamp(4, 48) as u32;
                Ok((format!("box 0..{side}"), triangular_xor_rule(5, side, -1, limit, control)? && triangular_xor_rule(9, side, -1, limit, control)?))
            },
        ),
        claim(
            "six-sided bar: 76 positions and 20 P-positions (small box), 118 P-positions (larger box), start is N",
            "Miyadera web book, Exs 2.1–2.4",
            Proven,
            |_, limit, control| {
                let small = solve_dense(&SixSided, &SixSided::seed_box(1), limit, control)?;
                let large = solve_dense(&SixSided, &SixSided::seed_box(2), limit, control)?;
                let start_is_n = small.get(&SixSided::START).is_some_and(|g| g > 0);
                let holds = small.len() == 76 && small.p_positions().len() == 20 && large.p_positions().len() == 118;
                Ok(("the book's two boxes".into(), holds && start_is_n))
            },
        ),
        claim("y <= floor(min(x,z)/2): P iff x^y^z = 0", "Miyadera et al. III, Thm 13", Proven, |up_to, limit, control| {
            let side = up_to.clamp(4, 64) as u32;
            let grundy = CappedGame::min_half().solve([side, side, side], limit, control)?;
            Ok((format!("box 0..{side}"), find_shift(&grundy, 0..=0, control)? == vec![0]))
        }),
        claim(
            "y <= floor((x+z)**2/k): P iff (x-1)^y^(z-1) = 0 for k = 1..4, (x-2)^y^(z-2) = 0 for k = 5..10",
            "Miyadera et al. III, Pred. 2.3",
            Conjecture,
            |_, limit, control| {
                let mut holds = true;
                for k in 1..=10u32 {
                    let game = CappedGame::with_expr(&format!("floor((x+z)**2/{k})"))?;
                    let grundy = game.solve([10, 50, 10], limit, control)?;
                    let shift = if k <= 4 { -1 } else { -2 };
                    holds &= find_shift(&grundy, shift..=shift, control)? == vec![shift];
                }
                Ok(("box x, z <= 10, y <= 50".into(), holds))
            },
        ),
        claim(
            "y <= round(sqrt(x+z)): P iff (x+3)^y^(z+3) = 0",
            "Miyadera et al. III, Pred. 2.1",
            Conjecture,
            |_, limit, control| {
                let grundy = CappedGame::with_expr("round(sqrt(x+z))")?.solve([200, 20, 200], limit, control)?;
                Ok(("box x, z <= 200, y <= 20".into(), find_shift(&grundy, 3..=3, control)? == vec![3]))
            },
        ),
    ]
}

/// A claim that is false on purpose, for testing that `verify` fails when it should.
pub fn deliberately_false_claim() -> Claim {
    claim(
        "g(2m) = 3 g(m) (deliberately false, a test hook)",
        "test hook",
        Standing::Proven,
        |up_to, _, _| {
            let top = up_to.clamp(1, 1000);
            Ok((
                format!("m = 1..{top}"),
                (1..=top).all(|m| count::g(2 * m) == 3 * count::g(m)),
            ))
        },
    )
}

/// Runs claims one after another (each check is parallel inside where it is large),
/// timing each.
pub fn run(
    claims: &[Claim],
    up_to: u64,
    memory_limit: u64,
    control: &Control,
) -> Result<Vec<Outcome>> {
    claims
        .iter()
        .map(|c| {
            let start = Instant::now();
            let (range, holds) = (c.check)(up_to, memory_limit, control)?;
            Ok(Outcome {
                claim: c.claim.clone(),
                source: c.source,
                standing: c.standing,
                range,
                holds,
                elapsed: start.elapsed(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_claim_holds_at_a_small_bound_and_the_false_one_fails() {
        let control = Control::new();
        let outcomes = run(&claims(), 8, crate::error::DEFAULT_MEMORY_LIMIT, &control).unwrap();
        for outcome in &outcomes {
            assert!(outcome.holds, "{outcome:?}");
        }
        let wrong = run(
            &[deliberately_false_claim()],
            8,
            crate::error::DEFAULT_MEMORY_LIMIT,
            &control,
        )
        .unwrap();
        assert!(wrong[0].is_failure());
    }
}
