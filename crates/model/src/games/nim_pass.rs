//! Nim with a one-time pass (SPEC §4, seed 003 §6).
//!
//! Once per game, and not from the terminal position, a player may pass
//! instead of moving; after a pass nobody may pass again, so the rest is plain
//! Nim. A position with the pass still available is P iff it is terminal, or
//! its nim-sum is non-zero (passing would hand over a Nim N-position) and every
//! single-heap reduction is an N-position of the pass game.
//!
//! The one idea: that recursion only asks "is some smaller value on this heap's
//! line a P-position?", so one prefix flag per heap line answers it in O(1);
//! the whole P-set of a box costs `heaps + 1` bits per tuple.
//! Grundy values (pass available) are computed too: the pass is one more
//! option, worth the nim-sum.

use super::solver::{box_tuples, mex_of_bits, DenseGrundy, Game, WORK_PER_CHECK};
use crate::control::Ticker;
use crate::{BitGrid, Control, Error, Result};

/// Nim with a pass on a number of heaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimPass {
    heaps: usize,
}

fn strides(bounds: &[u32]) -> Vec<usize> {
    let mut s = vec![1usize; bounds.len()];
    for d in (0..bounds.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * (bounds[d + 1] as usize + 1);
    }
    s
}

/// Advances `p` to the next tuple of the box, last coordinate fastest.
fn advance(p: &mut [u32], bounds: &[u32]) {
    for d in (0..p.len()).rev() {
        if p[d] < bounds[d] {
            p[d] += 1;
            return;
        }
        p[d] = 0;
    }
}

fn get(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 == 1
}

fn put(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

impl NimPass {
    /// Nim with a pass on `heaps` heaps (at least 1).
    pub fn new(heaps: usize) -> Result<Self> {
        super::nim::check_heaps("nim-pass", heaps)?;
        Ok(NimPass { heaps })
    }

    /// The number of heaps.
    pub fn heaps(&self) -> usize {
        self.heaps
    }

    fn check_bounds(&self, bounds: &[u32]) -> Result<()> {
        if bounds.len() != self.heaps {
            return Err(Error::invalid_request(format!(
                "nim-pass: the box has {} bounds for {} heaps",
                bounds.len(),
                self.heaps
            )));
        }
        Ok(())
    }

    /// The P-positions (pass still available) of the box `0..=bounds[i]`, as a
    /// bitset over tuples in lexicographic order (last heap fastest). Progress in
    /// tuples, `control` checked every [`WORK_PER_CHECK`] tuples times heaps.
    fn p_bits(&self, bounds: &[u32], limit: u64, control: &Control) -> Result<Vec<u64>> {
        self.check_bounds(bounds)?;
        let total = box_tuples("the P-positions of nim-pass", bounds, 1, limit)?;
        control.add_total(total as u64);
        let mut ticker = Ticker::new(control, WORK_PER_CHECK);
        let strides = strides(bounds);
        let words = total.div_ceil(64);
        let mut p_set = vec![0u64; words];
        // below[d]: some smaller value on this tuple's heap-d line is P.
        let mut below: Vec<Vec<u64>> = vec![vec![0u64; words]; self.heaps];
        // One row at a time: the last heap runs along the row, every other heap (and
        // so its part of the nim-sum, and whether it can be lowered) is fixed in it.
        let last = self.heaps - 1;
        let row_len = bounds[last] as usize + 1;
        let mut h = vec![0u32; self.heaps];
        let mut idx = 0;
        while idx < total {
            let prefix_sum = h[..last].iter().fold(0, |a, &v| a ^ v);
            let prefix_zero = h[..last].iter().all(|&v| v == 0);
            let lowered: Vec<usize> = (0..last).filter(|&d| h[d] > 0).collect();
            for t in 0..row_len as u32 {
                let mut reaches_p = false;
                for &d in &lowered {
                    let j = idx - strides[d];
                    if get(&p_set, j) || get(&below[d], j) {
                        reaches_p = true;
                        put(&mut below[d], idx);
                    }
                }
                if t > 0 && (get(&p_set, idx - 1) || get(&below[last], idx - 1)) {
                    reaches_p = true;
                    put(&mut below[last], idx);
                }
                let terminal = prefix_zero && t == 0;
                if terminal || (prefix_sum ^ t != 0 && !reaches_p) {
                    put(&mut p_set, idx);
                }
                idx += 1;
            }
            ticker.tick_weighted(row_len as u64, (row_len * self.heaps) as u64)?;
            // Next row: the last heap wraps, the others advance as an odometer.
            if last > 0 {
                advance(&mut h[..last], &bounds[..last]);
            }
        }
        ticker.flush()?;
        Ok(p_set)
    }

    /// The P-positions (pass still available) in the box, lexicographic order.
    /// Progress in tuples (twice: solved, then listed), checked every 65536 tuples.
    pub fn p_positions(
        &self,
        bounds: &[u32],
        limit: u64,
        control: &Control,
    ) -> Result<Vec<Vec<u32>>> {
        let bits = self.p_bits(bounds, limit, control)?;
        let mut out = Vec::new();
        let mut h = vec![0u32; self.heaps];
        let total: usize = bounds.iter().map(|&b| b as usize + 1).product();
        control.add_total(total as u64);
        let mut ticker = Ticker::new(control, WORK_PER_CHECK);
        for idx in 0..total {
            ticker.tick(1)?;
            if get(&bits, idx) {
                out.push(h.clone());
            }
            advance(&mut h, bounds);
        }
        ticker.flush()?;
        Ok(out)
    }

    /// Grundy values of every position with the pass still available.
    ///
    /// Options: every single-heap reduction (pass still available) and, unless
    /// terminal, the pass, whose value is the Nim value, the nim-sum.
    /// Direct mex per tuple: fine for the boxes a table or plot shows. Progress in
    /// tuples over two passes (values, positions), checked every [`WORK_PER_CHECK`]
    /// tuples and options.
    pub fn solve(&self, bounds: &[u32], limit: u64, control: &Control) -> Result<DenseGrundy> {
        self.check_bounds(bounds)?;
        let total = box_tuples("Grundy values of nim-pass", bounds, 3, limit)?;
        control.add_total(2 * total as u64);
        let mut ticker = Ticker::new(control, WORK_PER_CHECK);
        let strides = strides(bounds);
        let mut values = vec![0u16; total];
        let mut h = vec![0u32; self.heaps];
        let mut seen: Vec<u64> = Vec::new();
        for idx in 0..total {
            let options: usize = h.iter().map(|&v| v as usize).sum::<usize>() + 1;
            seen.clear();
            seen.resize(options / 64 + 1, 0);
            let mut mark = |v: u32| {
                if (v as usize) < options {
                    seen[v as usize / 64] |= 1 << (v % 64);
                }
            };
            let terminal = h.iter().all(|&v| v == 0);
            if !terminal {
                mark(h.iter().fold(0, |a, &v| a ^ v));
            }
            for d in 0..self.heaps {
                for t in 1..=h[d] as usize {
                    mark(u32::from(values[idx - t * strides[d]]));
                }
            }
            ticker.tick_weighted(1, options as u64)?;
            let g = mex_of_bits(&seen);
            values[idx] = u16::try_from(g).map_err(|_| {
                Error::unsupported(format!(
                    "nim-pass: the Grundy value at {h:?} is {g}, over the 65535 that values are stored in"
                ))
            })?;
            advance(&mut h, bounds);
        }
        ticker.flush()?;
        let names = super::nim::heap_names(self.heaps);
        DenseGrundy::from_values(names, bounds.to_vec(), values, |_| true, control)
    }
}

/// Nim with a pass, encoded as an ordinary game on `(h1, .., hn, pass)` with
/// `pass` 1 while the pass is available: the pass move lowers that flag. This
/// is the plain game-tree definition, used as the oracle in tests.
#[derive(Clone, Copy, Debug)]
pub struct NimPassTree {
    /// Number of heaps.
    pub heaps: usize,
}

impl Game for NimPassTree {
    fn name(&self) -> String {
        format!("nim-pass tree, {} heaps", self.heaps)
    }

    fn coordinate_names(&self) -> Vec<String> {
        let mut names: Vec<String> = (1..=self.heaps).map(|i| format!("h{i}")).collect();
        names.push("pass".into());
        names
    }

    fn is_position(&self, p: &[u32]) -> bool {
        p[self.heaps] <= 1
    }

    fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
        let mut q = p.to_vec();
        for d in 0..self.heaps {
            for t in 0..p[d] {
                q[d] = t;
                f(&q);
            }
            q[d] = p[d];
        }
        let terminal = p[..self.heaps].iter().all(|&v| v == 0);
        if p[self.heaps] == 1 && !terminal {
            q[self.heaps] = 0;
            f(&q);
        }
    }
}

/// The square board of seed 003 Figures 8–11: cell `(i, j)` of the `m x m`
/// board (row `i - 1`, column `j - 1` of the grids) is the four-heap position
/// `(i-1, j-1, m-i, m-j)`. Returns (Nim P-cells, Nim-with-a-pass P-cells).
///
/// Under `control`: progress in tuples of the `m^4` box solved,
/// checked every 16384 tuples.
pub fn square_board(m: u32, limit: u64, control: &Control) -> Result<(BitGrid, BitGrid)> {
    if m == 0 {
        return Err(Error::invalid_parameter(
            "m",
            "nim-pass square board: `m` must be at least 1",
        ));
    }
    let b = m - 1;
    let bounds = [b; 4];
    let pass = NimPass::new(4)?.p_bits(&bounds, limit, control)?;
    let n = m as usize;
    let stride = strides(&bounds);
    let heaps = |r: usize, c: usize| [r, c, n - 1 - r, n - 1 - c];
    let nim = BitGrid::from_fn(n, n, |r, c| heaps(r, c).iter().fold(0, |a, &v| a ^ v) == 0);
    let pass_grid = BitGrid::from_fn(n, n, |r, c| {
        let idx: usize = heaps(r, c).iter().zip(&stride).map(|(&v, &s)| v * s).sum();
        get(&pass, idx)
    });
    Ok((nim, pass_grid))
}

/// Three-heap Nim P-positions `x ^ y ^ z = 0` in `0..=n` (seed 003 Figure 6).
pub fn nim_p_points(n: u32) -> Vec<[u32; 3]> {
    let mut out = Vec::new();
    for x in 0..=n {
        for y in 0..=n {
            let z = x ^ y;
            if z <= n {
                out.push([x, y, z]);
            }
        }
    }
    out
}

/// Three-heap Nim-with-a-pass P-positions in `0..=n` (seed 003 Figure 7), under
/// `control` as [`NimPass::p_positions`].
pub fn nim_pass_p_points(n: u32, limit: u64, control: &Control) -> Result<Vec<[u32; 3]>> {
    Ok(NimPass::new(3)?
        .p_positions(&[n; 3], limit, control)?
        .into_iter()
        .map(|p| [p[0], p[1], p[2]])
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::solver::MemoSolver;

    const LIMIT: u64 = 1 << 28;

    /// The row-by-row sweep of `p_bits` against the plain one, tuple by tuple, on
    /// boxes of unequal sides.
    #[test]
    fn row_sweep_equals_the_tuple_sweep() {
        fn plain(heaps: usize, bounds: &[u32]) -> Vec<u64> {
            let total: usize = bounds.iter().map(|&b| b as usize + 1).product();
            let strides = strides(bounds);
            let mut p_set = vec![0u64; total.div_ceil(64)];
            let mut below = vec![vec![0u64; total.div_ceil(64)]; heaps];
            let mut h = vec![0u32; heaps];
            for idx in 0..total {
                let mut reaches_p = false;
                for d in 0..heaps {
                    if h[d] > 0 {
                        let j = idx - strides[d];
                        if get(&p_set, j) || get(&below[d], j) {
                            reaches_p = true;
                            put(&mut below[d], idx);
                        }
                    }
                }
                let terminal = h.iter().all(|&v| v == 0);
                let nim_sum = h.iter().fold(0, |a, &v| a ^ v);
                if terminal || (nim_sum != 0 && !reaches_p) {
                    put(&mut p_set, idx);
                }
                advance(&mut h, bounds);
            }
            p_set
        }
        for bounds in [
            vec![7u32],
            vec![5, 9],
            vec![3, 0, 6],
            vec![2, 4, 1, 5],
            vec![1, 2, 3, 2, 1],
        ] {
            let heaps = bounds.len();
            let fast = NimPass::new(heaps)
                .unwrap()
                .p_bits(&bounds, LIMIT, &Control::new())
                .unwrap();
            assert_eq!(fast, plain(heaps, &bounds), "{bounds:?}");
        }
    }

    #[test]
    fn small_cases_by_hand() {
        // One heap: only 0 is P. Two heaps: (1,1) is N (pass to Nim's P),
        // (1,2) is P (every reduction and the pass lose).
        let g = NimPass::new(2).unwrap();
        let ps = g.p_positions(&[3, 3], LIMIT, &Control::new()).unwrap();
        assert!(ps.contains(&vec![0, 0]));
        assert!(!ps.contains(&vec![1, 1]));
        assert!(ps.contains(&vec![1, 2]) && ps.contains(&vec![2, 1]));
        let one = NimPass::new(1)
            .unwrap()
            .p_positions(&[9], LIMIT, &Control::new())
            .unwrap();
        assert_eq!(one, vec![vec![0]]);
    }

    #[test]
    fn p_sets_and_values_agree_with_the_game_tree() {
        for (heaps, b) in [(1usize, 12u32), (2, 9), (3, 6), (4, 3)] {
            let bounds = vec![b; heaps];
            let game = NimPass::new(heaps).unwrap();
            let ps = game.p_positions(&bounds, LIMIT, &Control::new()).unwrap();
            let values = game.solve(&bounds, LIMIT, &Control::new()).unwrap();
            let tree = NimPassTree { heaps };
            let mut memo = MemoSolver::new(&tree);
            let mut count = 0;
            for (h, g) in values.positions() {
                let mut with_pass = h.clone();
                with_pass.push(1);
                assert_eq!(memo.grundy(&with_pass), u32::from(g), "{h:?}");
                let mut no_pass = h.clone();
                no_pass.push(0);
                assert_eq!(memo.grundy(&no_pass), h.iter().fold(0, |a, &v| a ^ v));
                assert_eq!(ps.contains(&h), g == 0, "{h:?}");
                count += usize::from(g == 0);
            }
            assert_eq!(count, ps.len());
        }
    }

    #[test]
    fn square_boards_are_symmetric_and_match_the_heaps() {
        for m in [1u32, 2, 5, 14] {
            let (nim, pass) = square_board(m, LIMIT, &crate::Control::default()).unwrap();
            assert_eq!(nim, nim.transpose());
            assert_eq!(pass, pass.transpose());
            assert_eq!(pass, pass.flip_rows());
            assert_eq!(pass, pass.flip_cols());
            // Both diagonals are Nim P-positions (SPEC §1).
            for i in 0..m as usize {
                assert!(nim.get(i, i) && nim.get(i, m as usize - 1 - i));
            }
            // Spot-check cells against the P-position list of the box.
            let ps = NimPass::new(4)
                .unwrap()
                .p_positions(&[m - 1; 4], LIMIT, &Control::new())
                .unwrap();
            for r in 0..m {
                for c in 0..m {
                    let h = vec![r, c, m - 1 - r, m - 1 - c];
                    assert_eq!(pass.get(r as usize, c as usize), ps.contains(&h));
                    // Only the terminal position is P in both games.
                    let both = pass.get(r as usize, c as usize) && nim.get(r as usize, c as usize);
                    assert_eq!(both, h.iter().all(|&v| v == 0));
                }
            }
        }
        assert!(square_board(0, LIMIT, &crate::Control::default()).is_err());
    }

    #[test]
    fn three_heap_point_sets() {
        let nim = nim_p_points(7);
        assert_eq!(nim.len(), 64);
        assert!(nim.iter().all(|p| p[0] ^ p[1] ^ p[2] == 0));
        let pass = nim_pass_p_points(7, LIMIT, &Control::new()).unwrap();
        assert!(pass.contains(&[0, 0, 0]));
        assert!(pass
            .iter()
            .all(|p| *p == [0, 0, 0] || p[0] ^ p[1] ^ p[2] != 0));
        assert!(NimPass::new(0).is_err());
    }
}
