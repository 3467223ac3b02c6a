//! Grundy value against nim-sum: how many positions of the box have
//! `g(p) = XOR_i p_i`, and which do not, smallest first.

use std::collections::BinaryHeap;

use super::rules::size_order;
use crate::games::{Solution, OUTSIDE};
use crate::{Control, Result};

/// A position whose Grundy value is not the nim-sum of its coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NimSumException {
    /// The position.
    pub position: Vec<u32>,
    /// Its Grundy value.
    pub grundy: u16,
    /// The nim-sum of its coordinates.
    pub nim_sum: u32,
}

/// Grundy values against nim-sums on one box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NimSumFit {
    /// Positions in the box.
    pub positions: u64,
    /// Positions whose Grundy value is not the nim-sum.
    pub exceptions: u64,
    /// One more than the largest exception's size (0 when there is none).
    pub threshold: u64,
    /// The smallest exceptions, by largest coordinate then lexicographically.
    pub listed: Vec<NimSumException>,
}

/// Compares every Grundy value of `solution` with the nim-sum of its
/// coordinates; keeps the `listed` smallest exceptions.
pub fn grundy_vs_nim_sum(
    solution: &Solution,
    listed: usize,
    control: &Control,
) -> Result<NimSumFit> {
    let shape = solution.data_shape();
    let dims = shape.len();
    let mut positions = 0u64;
    let mut exceptions = 0u64;
    let mut largest: Option<u32> = None;
    // A max-heap of the smallest `listed` keys seen.
    let mut smallest: BinaryHeap<((u32, Vec<u32>), u16, u32)> = BinaryHeap::new();
    let mut first = 0u32;
    let mut p = vec![0u32; dims];
    solution.for_each_slab(|slab: &[u16]| -> Result<()> {
        control.check()?;
        for (i, &g) in slab.iter().enumerate() {
            if g == OUTSIDE {
                continue;
            }
            positions += 1;
            p[0] = first;
            let mut rest = i;
            for d in (1..dims).rev() {
                p[d] = (rest % shape[d] as usize) as u32;
                rest /= shape[d] as usize;
            }
            let nim_sum = p.iter().fold(0u32, |a, &c| a ^ c);
            if u32::from(g) == nim_sum {
                continue;
            }
            exceptions += 1;
            let key = size_order(&p);
            largest = Some(largest.map_or(key.0, |l| l.max(key.0)));
            if smallest.len() < listed {
                smallest.push((key, g, nim_sum));
            } else if listed > 0 && smallest.peek().is_some_and(|top| key < top.0) {
                smallest.pop();
                smallest.push((key, g, nim_sum));
            }
        }
        first += 1;
        Ok(())
    })?;
    let mut listed: Vec<_> = smallest.into_vec();
    listed.sort();
    Ok(NimSumFit {
        positions,
        exceptions,
        threshold: largest.map_or(0, |l| u64::from(l) + 1),
        listed: listed
            .into_iter()
            .map(|((_, position), grundy, nim_sum)| NimSumException {
                position,
                grundy,
                nim_sum,
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameBox, GameParams, GameSpec};

    #[test]
    fn the_papers_count_for_k3_and_the_smallest_exceptions_by_brute_force() {
        let s = GameSpec::from_name(
            "triangular",
            &GameParams {
                k: Some(3),
                ..Default::default()
            },
        )
        .unwrap()
        .solve(&GameBox::Uniform(20), 1 << 30)
        .unwrap();
        let fit = grundy_vs_nim_sum(&s, 25, &Control::default()).unwrap();
        // Miyadera, Nakamura, Fukui: 3234 positions, 977 with Grundy = nim-sum.
        assert_eq!((fit.positions, fit.exceptions), (3234, 2257));
        let mut brute: Vec<(Vec<u32>, u16)> = s
            .positions()
            .filter(|(p, g)| u32::from(*g) != p.iter().fold(0, |a, &c| a ^ c))
            .collect();
        brute.sort_by_key(|(p, _)| size_order(p));
        assert_eq!(fit.listed.len(), 25);
        for (e, (p, g)) in fit.listed.iter().zip(&brute) {
            assert_eq!((&e.position, e.grundy), (p, *g));
        }
        assert_eq!(
            fit.threshold,
            u64::from(size_order(&brute.last().unwrap().0).0) + 1
        );
        let nim = GameSpec::from_name("nim", &GameParams::default())
            .unwrap()
            .solve(&GameBox::Uniform(6), 1 << 30)
            .unwrap();
        let fit = grundy_vs_nim_sum(&nim, 5, &Control::default()).unwrap();
        assert_eq!((fit.exceptions, fit.threshold, fit.listed.len()), (0, 0, 0));
    }
}
