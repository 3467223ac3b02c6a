//! Grundy value against nim-sum: how many positions of the box have
//! `g(p) = XOR_i p_i`, and which do not, smallest first.

use std::collections::BinaryHeap;

use rayon::prelude::*;

use super::grid::Grid;
use crate::games::OUTSIDE;
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

/// The exceptions one part of the box found: counts, and its `listed` smallest
/// in a max-heap (the largest of them on top, to be displaced).
struct Partial {
    positions: u64,
    exceptions: u64,
    largest: Option<u32>,
    smallest: BinaryHeap<((u32, Vec<u32>), u16, u32)>,
}

impl Partial {
    fn new() -> Partial {
        Partial {
            positions: 0,
            exceptions: 0,
            largest: None,
            smallest: BinaryHeap::new(),
        }
    }

    /// Counts an exception at `p` and keeps it when it is among the `listed`
    /// smallest; the position is copied only then.
    fn add(&mut self, p: &[u32], size: u32, grundy: u16, nim_sum: u32, listed: usize) {
        self.exceptions += 1;
        self.largest = Some(self.largest.map_or(size, |l| l.max(size)));
        if listed == 0 {
            return;
        }
        if self.smallest.len() == listed {
            let top = &self.smallest.peek().expect("a full heap").0;
            if (size, p) >= (top.0, top.1.as_slice()) {
                return;
            }
            self.smallest.pop();
        }
        self.smallest.push(((size, p.to_vec()), grundy, nim_sum));
    }

    fn merge(mut self, other: Partial, listed: usize) -> Partial {
        self.positions += other.positions;
        self.exceptions += other.exceptions;
        self.largest = match (self.largest, other.largest) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        for item in other.smallest {
            self.smallest.push(item);
            if self.smallest.len() > listed {
                self.smallest.pop();
            }
        }
        self
    }
}

/// Compares every Grundy value of `grid` with the nim-sum of its coordinates;
/// keeps the `listed` smallest exceptions. Slabs of the first coordinate are
/// read in parallel; the result does not depend on how they are split (the
/// smallest exceptions are the least keys of a total order).
pub fn grundy_vs_nim_sum(grid: &Grid, listed: usize, control: &Control) -> Result<NimSumFit> {
    let dims = grid.shape.len();
    let len = grid.shape[dims - 1];
    let lines_per_slab: usize = grid.shape[1..dims - 1].iter().product();
    let slab = grid.strides[0].max(1);
    let partial = grid
        .values
        .par_chunks(slab)
        .enumerate()
        .fold(Partial::new, |mut part, (first, values)| {
            if control.is_cancelled() {
                return part;
            }
            let mut p = vec![0u32; dims];
            for line in 0..lines_per_slab {
                grid.line_start(dims - 1, first * lines_per_slab + line, &mut p);
                let fixed_max = p[..dims - 1].iter().copied().max().unwrap_or(0);
                let base = p[..dims - 1].iter().fold(0u32, |a, &c| a ^ c);
                let row = &values[line * len..(line + 1) * len];
                for (t, &g) in row.iter().enumerate() {
                    if g == OUTSIDE {
                        continue;
                    }
                    part.positions += 1;
                    let nim_sum = base ^ t as u32;
                    if u32::from(g) != nim_sum {
                        p[dims - 1] = t as u32;
                        part.add(&p, fixed_max.max(t as u32), g, nim_sum, listed);
                    }
                }
            }
            part
        })
        .reduce(Partial::new, |a, b| a.merge(b, listed));
    control.check()?;
    let mut smallest: Vec<_> = partial.smallest.into_vec();
    smallest.sort();
    Ok(NimSumFit {
        positions: partial.positions,
        exceptions: partial.exceptions,
        threshold: partial.largest.map_or(0, |l| u64::from(l) + 1),
        listed: smallest
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
    use crate::survey::rules::size_order;

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
        .solve(&GameBox::Uniform(20), 1 << 30, &crate::Control::default())
        .unwrap();
        let grid = Grid::of(&s, &Control::default()).unwrap();
        let fit = grundy_vs_nim_sum(&grid, 25, &Control::default()).unwrap();
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
            .solve(&GameBox::Uniform(6), 1 << 30, &crate::Control::default())
            .unwrap();
        let grid = Grid::of(&nim, &Control::default()).unwrap();
        let fit = grundy_vs_nim_sum(&grid, 5, &Control::default()).unwrap();
        assert_eq!((fit.exceptions, fit.threshold, fit.listed.len()), (0, 0, 0));
    }
}
