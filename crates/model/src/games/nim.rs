//! Plain Nim on a number of heaps: the reference the papers' games are
//! measured against (seed 003 Figure 6 draws its three-heap P-positions).
//!
//! Bouton's theorem gives every Grundy value as the nim-sum of the heaps, so
//! the box is filled in closed form; the tests check the closed form against
//! the dense solver running the moves.

use super::solver::{box_tuples, DenseGrundy, Game, WORK_PER_CHECK};
use crate::control::Ticker;
use crate::{Control, Error, Result};

/// Nim on `heaps` heaps: a move lowers one heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nim {
    heaps: usize,
}

impl Nim {
    /// Nim on `heaps` heaps (at least 1).
    pub fn new(heaps: usize) -> Result<Self> {
        check_heaps("nim", heaps)?;
        Ok(Nim { heaps })
    }

    /// The number of heaps.
    pub fn heaps(&self) -> usize {
        self.heaps
    }

    /// Grundy values of every position of the box `0..=bounds[i]`: the
    /// nim-sums, refused over `limit` bytes or when one exceeds 65535. Progress in
    /// tuples over two passes (values, positions), checked every 65536 tuples.
    pub fn solve(&self, bounds: &[u32], limit: u64, control: &Control) -> Result<DenseGrundy> {
        if bounds.len() != self.heaps {
            return Err(Error::invalid_request(format!(
                "nim: the box has {} bounds for {} heaps",
                bounds.len(),
                self.heaps
            )));
        }
        // The nim-sum of heaps below 2^16 stays below 2^16; a larger heap may not.
        if let Some(&b) = bounds.iter().find(|&&b| b > 0xFFFF) {
            return Err(Error::unsupported(format!(
                "nim: a heap of {b} gives nim-sums over the 65535 that values are stored in; use a smaller `box`"
            )));
        }
        let total = box_tuples("Grundy values of nim", bounds, 3, limit)?;
        control.add_total(2 * total as u64);
        let mut ticker = Ticker::new(control, WORK_PER_CHECK);
        let mut values = Vec::with_capacity(total);
        let mut h = vec![0u32; self.heaps];
        for _ in 0..total {
            ticker.tick(1)?;
            values.push(h.iter().fold(0, |a, &v| a ^ v) as u16);
            for d in (0..h.len()).rev() {
                if h[d] < bounds[d] {
                    h[d] += 1;
                    break;
                }
                h[d] = 0;
            }
        }
        ticker.flush()?;
        DenseGrundy::from_values(
            self.coordinate_names(),
            bounds.to_vec(),
            values,
            |_| true,
            control,
        )
    }
}

/// Heap names: `x, y, z` for three heaps, as the papers' plots call them,
/// otherwise `h1, h2, ...`.
/// The most heaps a game may have: a box of only 0..1 per heap already holds 2^32
/// tuples at 32 heaps, and a bound keeps names and messages small.
pub const MAX_HEAPS: usize = 32;

/// Checks a heap count before anything is allocated for it.
pub(crate) fn check_heaps(game: &str, heaps: usize) -> Result<()> {
    if heaps == 0 {
        return Err(Error::invalid_parameter(
            "heaps",
            format!("{game}: `heaps` must be at least 1"),
        ));
    }
    if heaps > MAX_HEAPS {
        return Err(Error::invalid_parameter("heaps", format!(
            "{game}: `heaps` {heaps} is more than {MAX_HEAPS}; even a box of 0..1 per heap would hold 2^{heaps} positions"
        )));
    }
    Ok(())
}

pub(crate) fn heap_names(heaps: usize) -> Vec<String> {
    if heaps == 3 {
        return vec!["x".into(), "y".into(), "z".into()];
    }
    (1..=heaps).map(|i| format!("h{i}")).collect()
}

impl Game for Nim {
    fn name(&self) -> String {
        format!("nim heaps={}", self.heaps)
    }

    fn coordinate_names(&self) -> Vec<String> {
        heap_names(self.heaps)
    }

    fn is_position(&self, _: &[u32]) -> bool {
        true
    }

    fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
        let mut q = p.to_vec();
        for d in 0..p.len() {
            for t in 0..p[d] {
                q[d] = t;
                f(&q);
            }
            q[d] = p[d];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::solver::solve_dense;

    #[test]
    fn closed_form_equals_the_moves() {
        for (heaps, b) in [(1usize, 20u32), (2, 12), (3, 7), (4, 4)] {
            let nim = Nim::new(heaps).unwrap();
            let bounds = vec![b; heaps];
            let fast = nim.solve(&bounds, 1 << 28, &Control::new()).unwrap();
            let slow = solve_dense(&nim, &bounds, 1 << 28, &crate::Control::default()).unwrap();
            let a: Vec<_> = fast.positions().collect();
            let b: Vec<_> = slow.positions().collect();
            assert_eq!(a, b, "{heaps} heaps");
        }
        assert!(Nim::new(0).is_err());
        assert!(Nim::new(1)
            .unwrap()
            .solve(&[70_000], 1 << 30, &Control::new())
            .is_err());
    }
}
