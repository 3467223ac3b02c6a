//! The six-sided chocolate bar of seed 001: six coupled heaps.
//!
//! A position is `(x1, .., x6)`; the bar's shape couples each heap to its two
//! neighbours (cyclically). A move lowers one heap by `t >= 1` and then
//! **normalises every heap at once**, exactly as the seed's Mathematica
//! program `pos[x, y]` does (SPEC §6; the printed inequality for `x6` has a
//! typo, the program is the authority):
//!
//! `(min(u6+u2, u1), min(u1+u3+1, u2), min(u2+u4, u3), min(u3+u5+1, u4),
//!   min(u4+u6, u5), min(u5+u1+1, u6))`.
//!
//! The positions are the tuples that normalisation leaves unchanged (the
//! program's `allcases`). An option may itself not be such a tuple; like the
//! program, the solver just solves it too.

use super::solver::Game;

/// The six-sided bar game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SixSided;

impl SixSided {
    /// The seed's box for size `ss`: odd heaps `0..=ss+2`, even heaps `0..=ss`.
    /// `ss = 1` is the box of Graph 2.2 (76 positions), `ss = 2` the box of
    /// Graph 2.6 (118 P-positions).
    pub fn seed_box(ss: u32) -> [u32; 6] {
        [ss + 2, ss, ss + 2, ss, ss + 2, ss]
    }

    /// The start position of seed 001's Graph 2.1.
    pub const START: [u32; 6] = [2, 1, 2, 1, 2, 1];

    /// Normalises a tuple after a cut, all heaps at once (1-based in the docs,
    /// 0-based here).
    pub fn normalise(u: [u32; 6]) -> [u32; 6] {
        [
            (u[5] + u[1]).min(u[0]),
            (u[0] + u[2] + 1).min(u[1]),
            (u[1] + u[3]).min(u[2]),
            (u[2] + u[4] + 1).min(u[3]),
            (u[3] + u[5]).min(u[4]),
            (u[4] + u[0] + 1).min(u[5]),
        ]
    }

    /// The program's `allcases` test: the six inequalities of the bar.
    pub fn is_valid(p: [u32; 6]) -> bool {
        p[0] + p[2] + 1 >= p[1]
            && p[1] + p[3] >= p[2]
            && p[2] + p[4] + 1 >= p[3]
            && p[3] + p[5] >= p[4]
            && p[4] + p[0] + 1 >= p[5]
            && p[5] + p[1] >= p[0]
    }
}

fn as_six(p: &[u32]) -> [u32; 6] {
    let mut a = [0; 6];
    a.copy_from_slice(&p[..6]);
    a
}

impl Game for SixSided {
    fn name(&self) -> String {
        "six-sided".into()
    }

    fn coordinate_names(&self) -> Vec<String> {
        (1..=6).map(|i| format!("x{i}")).collect()
    }

    fn is_position(&self, p: &[u32]) -> bool {
        p.len() == 6 && SixSided::is_valid(as_six(p))
    }

    fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
        let p = as_six(p);
        for i in 0..6 {
            for t in 1..=p[i] {
                let mut u = p;
                u[i] -= t;
                f(&SixSided::normalise(u));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::solver::{solve_dense, MemoSolver};

    #[test]
    fn valid_means_normalisation_changes_nothing() {
        let b = SixSided::seed_box(2);
        let mut count = 0;
        for a in 0..=b[0] {
            for c in 0..=b[2] {
                for e in 0..=b[4] {
                    for bb in 0..=b[1] {
                        for d in 0..=b[3] {
                            for f in 0..=b[5] {
                                let p = [a, bb, c, d, e, f];
                                assert_eq!(
                                    SixSided::is_valid(p),
                                    SixSided::normalise(p) == p,
                                    "{p:?}"
                                );
                                count += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(count, 125 * 27);
    }

    #[test]
    fn seed_001_small_box_has_76_positions_and_20_p_positions() {
        let g = solve_dense(
            &SixSided,
            &SixSided::seed_box(1),
            1 << 24,
            &crate::Control::default(),
        )
        .unwrap();
        assert_eq!(g.len(), 76);
        assert_eq!(g.p_positions().len(), 20);
        // The start position is an N-position (seed 001, Graph 2.1).
        assert!(g.get(&SixSided::START).unwrap() > 0);
        // The dense solver agrees with the program's memoised recursion.
        let mut memo = MemoSolver::new(&SixSided);
        for (p, v) in g.positions() {
            assert_eq!(memo.grundy(&p), u32::from(v), "{p:?}");
        }
    }

    #[test]
    fn seed_001_larger_box_has_118_p_positions() {
        let g = solve_dense(
            &SixSided,
            &SixSided::seed_box(2),
            1 << 24,
            &crate::Control::default(),
        )
        .unwrap();
        assert_eq!(g.p_positions().len(), 118);
        assert!(g.get(&SixSided::START).unwrap() > 0);
    }
}
