//! Analyses of capped three-heap games: how far Grundy values are from the
//! nim-sum, which shifted nim-sum rule describes the P-positions, and the
//! `(y, x - z)` projection in which P-positions draw a Sierpinski sieve.
//!
//! These are the checks the papers make by hand in Mathematica; each is a
//! plain scan of a solved box, so a claim holds *in that box* only.

use rayon::prelude::*;

use super::capped::CappedGrundy;
use crate::{Control, Error, Result};

/// How many positions have Grundy value equal to the nim-sum `x ^ y ^ z`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimSumComparison {
    /// Positions in the box.
    pub positions: u64,
    /// Positions whose Grundy value is `x ^ y ^ z`.
    pub equal: u64,
    /// Positions whose Grundy value is not `x ^ y ^ z`.
    pub different: u64,
}

/// Compares every Grundy value in the box with the nim-sum (seed 000 §8.2).
///
/// Under `control`: progress in rows of `x`, checked per row.
pub fn compare_nim_sum(g: &CappedGrundy, control: &Control) -> Result<NimSumComparison> {
    let [bx, _, bz] = g.bounds();
    control.add_total(u64::from(bx) + 1);
    let equal: u64 = (0..=bx)
        .into_par_iter()
        .map(|x| {
            // A cancelled scan skips its rows and is reported below.
            if control.is_cancelled() {
                return 0;
            }
            let mut n = 0u64;
            for z in 0..=bz {
                let h = g.column_height(x, z).unwrap_or(0);
                for y in 0..=h {
                    n += u64::from(
                        g.get(x, y, z) == Some((x ^ y ^ z) as u16) && x ^ y ^ z <= 0xFFFF,
                    );
                }
            }
            control.advance(1);
            n
        })
        .sum();
    control.check()?;
    let positions = g.len() as u64;
    Ok(NimSumComparison {
        positions,
        equal,
        different: positions - equal,
    })
}

/// Whether `(x + h) ^ y ^ (z + h) == 0`, on two's-complement integers.
pub fn shifted_nim_sum_is_zero(x: u32, y: u32, z: u32, h: i64) -> bool {
    ((i64::from(x) + h) ^ i64::from(y) ^ (i64::from(z) + h)) == 0
}

/// One shift `h` and how the P-positions of a box relate to the rule
/// `(x + h) ^ y ^ (z + h) == 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShiftCheck {
    /// The shift.
    pub h: i64,
    /// P-positions that break the rule.
    pub p_breaking: u64,
    /// N-positions that satisfy the rule.
    pub n_satisfying: u64,
}

impl ShiftCheck {
    /// The P-positions are exactly the positions satisfying the rule.
    pub fn exact(&self) -> bool {
        self.p_breaking == 0 && self.n_satisfying == 0
    }

    /// Every P-position satisfies the rule (the one-sided test seed 004's
    /// search program makes).
    pub fn p_satisfy(&self) -> bool {
        self.p_breaking == 0
    }
}

/// Checks the shifted nim-sum rule for every `h` in `range` on a solved box.
///
/// Under `control`: progress in shifts, checked per row of `x` of
/// each shift's scan of the box.
pub fn check_shifts(
    g: &CappedGrundy,
    range: std::ops::RangeInclusive<i64>,
    control: &Control,
) -> Result<Vec<ShiftCheck>> {
    if range.is_empty() {
        return Err(Error::invalid_request(format!(
            "shift range {}..{} is empty; give A..B with A <= B",
            range.start(),
            range.end()
        )));
    }
    let span = range.end().saturating_sub(*range.start());
    if span > 1_000_000 {
        return Err(Error::invalid_request(format!(
            "shift range {}..{} is too wide; give at most 1000001 shifts",
            range.start(),
            range.end()
        )));
    }
    let [bx, _, bz] = g.bounds();
    control.add_total(span as u64 + 1);
    let checks = range
        .into_par_iter()
        .map(|h| {
            let mut check = ShiftCheck {
                h,
                p_breaking: 0,
                n_satisfying: 0,
            };
            for x in 0..=bx {
                // A cancelled scan stops here and is reported below.
                if control.is_cancelled() {
                    break;
                }
                for z in 0..=bz {
                    let top = g.column_height(x, z).unwrap_or(0);
                    for y in 0..=top {
                        let is_p = g.get(x, y, z) == Some(0);
                        let rule = shifted_nim_sum_is_zero(x, y, z, h);
                        if is_p && !rule {
                            check.p_breaking += 1;
                        } else if !is_p && rule {
                            check.n_satisfying += 1;
                        }
                    }
                }
            }
            control.advance(1);
            check
        })
        .collect();
    control.check()?;
    Ok(checks)
}

/// Every `h` in `range` for which the P-positions of the box are exactly
/// `{(x, y, z) : (x + h) ^ y ^ (z + h) == 0}`; empty when none is.
///
/// Under `control`, as [`check_shifts`].
pub fn find_shift(
    g: &CappedGrundy,
    range: std::ops::RangeInclusive<i64>,
    control: &Control,
) -> Result<Vec<i64>> {
    Ok(check_shifts(g, range, control)?
        .into_iter()
        .filter(ShiftCheck::exact)
        .map(|c| c.h)
        .collect())
}

/// The P-positions projected to `(y, x - z)`, distinct and sorted: the
/// Sierpinski sieve of seed 004.
pub fn sierpinski_projection(g: &CappedGrundy) -> Vec<(u32, i64)> {
    let mut points: Vec<(u32, i64)> = g
        .p_positions()
        .into_iter()
        .map(|[x, y, z]| (y, i64::from(x) - i64::from(z)))
        .collect();
    points.sort_unstable();
    points.dedup();
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::capped::CappedGame;

    const LIMIT: u64 = 1 << 30;

    #[test]
    fn shifted_nim_sum_handles_negatives() {
        // (0 - 1) ^ 0 ^ (0 - 1) = 0.
        assert!(shifted_nim_sum_is_zero(0, 0, 0, -1));
        assert!(!shifted_nim_sum_is_zero(1, 0, 0, -1));
        assert!(shifted_nim_sum_is_zero(4, 2, 2, -1));
        assert!(!shifted_nim_sum_is_zero(4, 2, 2, 0));
    }

    #[test]
    fn projection_of_nim_is_the_sieve() {
        // Cap large: plain three-heap Nim in a box; P iff x ^ y ^ z = 0.
        let g = CappedGame::with_expr("x + z + 100")
            .unwrap()
            .solve([15, 15, 15], LIMIT, &crate::Control::default())
            .unwrap();
        assert_eq!(
            find_shift(&g, -3..=3, &crate::Control::default()).unwrap(),
            vec![0]
        );
        let pts = sierpinski_projection(&g);
        for &(y, d) in &pts {
            assert!(y <= 15 && d.abs() <= 15);
        }
        assert!(pts.contains(&(0, 0)));
        let (lo, hi) = (3, -3);
        assert!(find_shift(&g, lo..=hi, &crate::Control::default()).is_err());
    }
}
