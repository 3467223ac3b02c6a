//! Generic Grundy solvers for impartial games given by a move function.
//!
//! Two solvers share one [`Game`] trait. [`MemoSolver`] is the papers' method
//! — memoised recursion from a position, exactly like `Gr[pos_] := Gr[pos] =
//! Mex[Map[Gr, move[pos]]]` — and is the naive oracle every faster method is
//! tested against. [`solve_dense`] fills a whole box in lexicographic order:
//! because every move lowers coordinates, every option of a tuple comes
//! earlier in that order, so one pass computes every value with no recursion
//! and no hashing.

use std::collections::HashMap;

use crate::control::Ticker;
use crate::error::check_memory;
use crate::{Control, Error, Result};

/// An impartial game whose positions are tuples of non-negative integers.
///
/// Contract: every option of a tuple is coordinate-wise `<=` the tuple and
/// differs from it, so a box `0..=b` is closed under moves and the game ends.
pub trait Game {
    /// A short name for messages, e.g. `triangular k=3`.
    fn name(&self) -> String;

    /// The names of the coordinates, e.g. `["x", "y", "z"]`.
    fn coordinate_names(&self) -> Vec<String>;

    /// Whether a tuple is a position of the game (inside the bar or band).
    /// Tuples that are not positions may still be reached as options (the
    /// seed programs allow it) and are solved like any other tuple.
    fn is_position(&self, p: &[u32]) -> bool;

    /// Calls `f` once for every option of `p` (repeats are allowed).
    fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32]));
}

/// The least non-negative integer not marked in `seen` (a bitset).
pub(crate) fn mex_of_bits(seen: &[u64]) -> u32 {
    for (i, &w) in seen.iter().enumerate() {
        if w != u64::MAX {
            return (i * 64) as u32 + w.trailing_ones();
        }
    }
    (seen.len() * 64) as u32
}

fn set_bit(bits: &mut Vec<u64>, v: u32) {
    let w = v as usize / 64;
    if w >= bits.len() {
        bits.resize(w + 1, 0);
    }
    bits[w] |= 1 << (v % 64);
}

/// Memoised recursion: the papers' method and the test oracle.
///
/// Uses an explicit stack, so deep games do not overflow the call stack.
pub struct MemoSolver<'g, G: Game + ?Sized> {
    game: &'g G,
    memo: HashMap<Vec<u32>, u32>,
}

impl<'g, G: Game + ?Sized> MemoSolver<'g, G> {
    /// A solver with an empty memo.
    pub fn new(game: &'g G) -> Self {
        MemoSolver {
            game,
            memo: HashMap::new(),
        }
    }

    /// The Grundy value of `p`.
    pub fn grundy(&mut self, p: &[u32]) -> u32 {
        if let Some(&g) = self.memo.get(p) {
            return g;
        }
        let mut stack: Vec<Vec<u32>> = vec![p.to_vec()];
        let mut options: Vec<Vec<u32>> = Vec::new();
        while let Some(top) = stack.last() {
            if self.memo.contains_key(top) {
                stack.pop();
                continue;
            }
            options.clear();
            self.game
                .for_each_option(top, &mut |o: &[u32]| options.push(o.to_vec()));
            let missing: Vec<Vec<u32>> = options
                .iter()
                .filter(|o| !self.memo.contains_key(*o))
                .cloned()
                .collect();
            if missing.is_empty() {
                let mut seen = Vec::new();
                for o in &options {
                    set_bit(&mut seen, self.memo[o]);
                }
                let g = mex_of_bits(&seen);
                let top = stack.pop().expect("non-empty");
                self.memo.insert(top, g);
            } else {
                stack.extend(missing);
            }
        }
        self.memo[p]
    }

    /// Number of tuples solved so far.
    pub fn solved(&self) -> usize {
        self.memo.len()
    }
}

/// Grundy values of every tuple of a box, stored densely (`u16` each).
#[derive(Clone, Debug)]
pub struct DenseGrundy {
    names: Vec<String>,
    bounds: Vec<u32>,
    strides: Vec<usize>,
    values: Vec<u16>,
    /// Bit `i` set when tuple `i` is a position of the game.
    valid: Vec<u64>,
    positions: usize,
}

impl DenseGrundy {
    /// The coordinate names, e.g. `["x", "y"]`.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The box: coordinate `i` runs over `0..=bounds()[i]`.
    pub fn bounds(&self) -> &[u32] {
        &self.bounds
    }

    fn index(&self, p: &[u32]) -> Option<usize> {
        if p.len() != self.bounds.len() || p.iter().zip(&self.bounds).any(|(c, b)| c > b) {
            return None;
        }
        Some(
            p.iter()
                .zip(&self.strides)
                .map(|(&c, &s)| c as usize * s)
                .sum(),
        )
    }

    /// The same values under other coordinate names (a game file's heaps).
    pub(crate) fn with_names(self, names: Vec<String>) -> DenseGrundy {
        DenseGrundy { names, ..self }
    }

    /// Whether `p` is in the box and a position of the game.
    pub fn is_position(&self, p: &[u32]) -> bool {
        self.index(p)
            .is_some_and(|i| self.valid[i / 64] >> (i % 64) & 1 == 1)
    }

    /// The Grundy value of position `p`; `None` outside the box or the game
    /// (a band game's cells outside its band, say).
    pub fn get(&self, p: &[u32]) -> Option<u16> {
        if self.is_position(p) {
            self.index(p).map(|i| self.values[i])
        } else {
            None
        }
    }

    /// Number of positions of the game in the box.
    pub fn len(&self) -> usize {
        self.positions
    }

    /// True when the box holds no position.
    pub fn is_empty(&self) -> bool {
        self.positions == 0
    }

    /// Every position and its value, in lexicographic order (last coordinate fastest).
    pub fn positions(&self) -> impl Iterator<Item = (Vec<u32>, u16)> + '_ {
        (0..self.values.len())
            .filter(|&i| self.valid[i / 64] >> (i % 64) & 1 == 1)
            .map(|i| (self.coords(i), self.values[i]))
    }

    /// The P-positions (value 0), in lexicographic order.
    pub fn p_positions(&self) -> Vec<Vec<u32>> {
        self.positions()
            .filter(|(_, g)| *g == 0)
            .map(|(p, _)| p)
            .collect()
    }

    /// The largest value over the positions (0 for an empty box).
    pub fn max_value(&self) -> u16 {
        self.positions().map(|(_, g)| g).max().unwrap_or(0)
    }

    /// The box in C order, one slab per value of the first coordinate, `outside`
    /// where a tuple is not a position (see [`super::Solution::for_each_slab`]).
    pub(crate) fn for_each_slab<E>(
        &self,
        outside: u16,
        mut f: impl FnMut(&[u16]) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        let slab = self.strides.first().copied().unwrap_or(1).max(1);
        let mut buffer = Vec::with_capacity(slab.min(self.values.len()));
        for (k, chunk) in self.values.chunks(slab).enumerate() {
            buffer.clear();
            buffer.extend(chunk.iter().enumerate().map(|(j, &v)| {
                let i = k * slab + j;
                if self.valid[i / 64] >> (i % 64) & 1 == 1 {
                    v
                } else {
                    outside
                }
            }));
            f(&buffer)?;
        }
        Ok(())
    }

    fn coords(&self, i: usize) -> Vec<u32> {
        let mut p = vec![0; self.bounds.len()];
        self.coords_into(i, &mut p);
        p
    }

    /// The tuple of flat index `i`, written into `p` (one entry per coordinate).
    fn coords_into(&self, mut i: usize, p: &mut [u32]) {
        for (d, &s) in self.strides.iter().enumerate() {
            p[d] = (i / s) as u32;
            i %= s;
        }
    }

    /// Every position and its value, lexicographic, lent to `f` (no allocation
    /// per position: a writer of millions of rows feels it); stops at `f`'s
    /// first error.
    pub fn try_for_each_position<E>(
        &self,
        mut f: impl FnMut(&[u32], u16) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        let mut p = vec![0u32; self.bounds.len()];
        for (i, &v) in self.values.iter().enumerate() {
            if i > 0 {
                // The next tuple: the odometer, last coordinate fastest.
                for (c, &b) in p.iter_mut().zip(&self.bounds).rev() {
                    if *c < b {
                        *c += 1;
                        break;
                    }
                    *c = 0;
                }
            }
            if self.valid[i / 64] >> (i % 64) & 1 == 1 {
                f(&p, v)?;
            }
        }
        Ok(())
    }

    /// [`DenseGrundy::positions`] that `keep` accepts; the others cost no allocation.
    pub fn positions_where<'a>(
        &'a self,
        keep: impl Fn(&[u32], u16) -> bool + 'a,
    ) -> impl Iterator<Item = (Vec<u32>, u16)> + 'a {
        let mut p = vec![0; self.bounds.len()];
        (0..self.values.len())
            .filter(|&i| self.valid[i / 64] >> (i % 64) & 1 == 1)
            .filter_map(move |i| {
                let v = self.values[i];
                self.coords_into(i, &mut p);
                keep(&p, v).then(|| (p.clone(), v))
            })
    }

    /// Builds a grid from values of every tuple, the positions as a bitset over the
    /// tuples (C order) and their count (the game-file solver finds them first).
    pub(crate) fn from_parts(
        names: Vec<String>,
        bounds: Vec<u32>,
        values: Vec<u16>,
        valid: Vec<u64>,
        positions: usize,
    ) -> DenseGrundy {
        DenseGrundy {
            strides: strides(&bounds),
            names,
            bounds,
            values,
            valid,
            positions,
        }
    }

    /// Builds a grid from values of every tuple and the position test; progress in
    /// tuples, `control` checked every [`WORK_PER_CHECK`] of them.
    pub(crate) fn from_values(
        names: Vec<String>,
        bounds: Vec<u32>,
        values: Vec<u16>,
        is_position: impl Fn(&[u32]) -> bool,
        control: &Control,
    ) -> Result<DenseGrundy> {
        let strides = strides(&bounds);
        let mut grid = DenseGrundy {
            names,
            bounds,
            strides,
            valid: vec![0; values.len().div_ceil(64)],
            values,
            positions: 0,
        };
        let mut ticker = Ticker::new(control, WORK_PER_CHECK);
        let mut p = vec![0; grid.bounds.len()];
        for i in 0..grid.values.len() {
            ticker.tick(1)?;
            grid.coords_into(i, &mut p);
            if is_position(&p) {
                grid.valid[i / 64] |= 1 << (i % 64);
                grid.positions += 1;
            }
        }
        ticker.flush()?;
        Ok(grid)
    }
}

/// Work between two checks of a [`Control`] in the dense loops, counted in tuples
/// visited plus options enumerated (a few to a few tens of ns each): about a
/// millisecond, so a check is never per tuple yet never 50 ms apart, whether a tuple
/// has one option (plain Nim) or fifty thousand (a wide band game).
pub(crate) const WORK_PER_CHECK: u64 = 1 << 16;

fn strides(bounds: &[u32]) -> Vec<usize> {
    let mut strides = vec![1usize; bounds.len()];
    for d in (0..bounds.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * (bounds[d + 1] as usize + 1);
    }
    strides
}

/// `0..4 x 0..2 x 0..4`, or `0..3 in each of 20 coordinates` (a message stays one short line).
pub(crate) fn describe_box(bounds: &[u32]) -> String {
    match bounds {
        [first, rest @ ..] if bounds.len() > 6 && rest.iter().all(|b| b == first) => {
            format!("0..{first} in each of {} coordinates", bounds.len())
        }
        _ if bounds.len() > 6 => format!("of {} coordinates", bounds.len()),
        _ => bounds
            .iter()
            .map(|b| format!("0..{b}"))
            .collect::<Vec<_>>()
            .join(" x "),
    }
}

/// The number of tuples in a box, or an error when it does not fit memory.
pub(crate) fn box_tuples(
    what: &str,
    bounds: &[u32],
    bytes_per_tuple: u64,
    limit: u64,
) -> Result<usize> {
    let mut total: u64 = 1;
    for &b in bounds {
        total = total.saturating_mul(u64::from(b) + 1);
    }
    check_memory(
        || {
            format!(
                "{what} in the box {} ({total} tuples)",
                describe_box(bounds)
            )
        },
        total.saturating_mul(bytes_per_tuple),
        limit,
        "use a smaller `box`",
    )?;
    usize::try_from(total)
        .map_err(|_| Error::invalid_request(format!("box too large: {total} tuples")))
}

/// Solves every position of the box `0..=bounds[i]`, and every tuple reachable
/// from one, in lexicographic order.
///
/// A first pass, from the top of the box down, marks the positions and
/// everything they reach (the seed programs' recursion solves exactly these);
/// the second pass solves the marked tuples bottom-up. Tuples that are neither
/// positions nor reachable are never asked for their options, so a game only
/// has to keep the [`Game`] contract on reachable tuples.
///
/// Memory: two bytes and two bits per tuple; refused over `limit`. Errors if
/// a value does not fit `u16` or the game breaks the contract.
///
/// Under `control`: progress in tuples over its three passes (mark,
/// solve, build), checked every [`WORK_PER_CHECK`] tuples and options.
pub fn solve_dense<G: Game + ?Sized>(
    game: &G,
    bounds: &[u32],
    limit: u64,
    control: &Control,
) -> Result<DenseGrundy> {
    let names = game.coordinate_names();
    if bounds.len() != names.len() {
        return Err(Error::invalid_request(format!(
            "{}: the box has {} bounds, the game {} coordinates",
            game.name(),
            bounds.len(),
            names.len()
        )));
    }
    let what = format!("Grundy values of {}", game.name());
    let total = box_tuples(&what, bounds, 3, limit)?;
    let strides = strides(bounds);
    let coords = |mut i: usize| -> Vec<u32> {
        strides
            .iter()
            .map(|&s| {
                let c = (i / s) as u32;
                i %= s;
                c
            })
            .collect()
    };
    let mut fault: Option<String> = None;
    // Calls `f(index)` for each option of tuple `idx`, checking the contract.
    let options = |idx: usize, p: &[u32], fault: &mut Option<String>, f: &mut dyn FnMut(usize)| {
        game.for_each_option(p, &mut |o: &[u32]| {
            let inside = o.len() == bounds.len() && o.iter().zip(bounds).all(|(c, b)| c <= b);
            let oi: usize = o.iter().zip(&strides).map(|(&c, &s)| c as usize * s).sum();
            if !inside || oi >= idx {
                fault.get_or_insert_with(|| format!("{o:?} from {p:?}"));
                return;
            }
            f(oi);
        });
    };
    let contract = |fault: &Option<String>| match fault {
        Some(f) => Err(Error::invalid_request(format!(
            "{}: the move to {f} does not lower the position",
            game.name()
        ))),
        None => Ok(()),
    };

    control.add_total(3 * total as u64);
    let mut ticker = Ticker::new(control, WORK_PER_CHECK);
    let mut needed = vec![0u64; total.div_ceil(64)];
    for idx in (0..total).rev() {
        let p = coords(idx);
        if needed[idx / 64] >> (idx % 64) & 1 == 0 {
            if !game.is_position(&p) {
                ticker.tick(1)?;
                continue;
            }
            needed[idx / 64] |= 1 << (idx % 64);
        }
        let mut work = 1;
        options(idx, &p, &mut fault, &mut |oi| {
            needed[oi / 64] |= 1 << (oi % 64);
            work += 1;
        });
        ticker.tick_weighted(1, work)?;
    }
    contract(&fault)?;

    let mut values = vec![0u16; total];
    let mut seen: Vec<u64> = Vec::new();
    for idx in 0..total {
        if needed[idx / 64] >> (idx % 64) & 1 == 0 {
            ticker.tick(1)?;
            continue;
        }
        let p = coords(idx);
        seen.iter_mut().for_each(|w| *w = 0);
        let mut work = 1;
        options(idx, &p, &mut fault, &mut |oi| {
            set_bit(&mut seen, u32::from(values[oi]));
            work += 1;
        });
        ticker.tick_weighted(1, work)?;
        let g = mex_of_bits(&seen);
        values[idx] = u16::try_from(g).map_err(|_| {
            Error::unsupported(format!(
                "{}: the Grundy value at {p:?} is {g}, over the 65535 that values are stored in",
                game.name()
            ))
        })?;
    }
    contract(&fault)?;
    ticker.flush()?;
    DenseGrundy::from_values(
        names,
        bounds.to_vec(),
        values,
        |q| game.is_position(q),
        control,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain Nim on n heaps (its moves; the check is Bouton's nim-sum): the
    /// classic check of any Grundy solver. Written out here rather than taken from
    /// `nim.rs`, which builds on this module.
    struct Heaps(usize);
    impl Game for Heaps {
        fn name(&self) -> String {
            format!("nim on {} heaps", self.0)
        }
        fn coordinate_names(&self) -> Vec<String> {
            (1..=self.0).map(|i| format!("h{i}")).collect()
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

    fn nim(heaps: usize) -> Heaps {
        Heaps(heaps)
    }

    #[test]
    fn nim_values_are_the_nim_sum_in_both_solvers() {
        let game = nim(3);
        let dense = solve_dense(&game, &[7, 5, 9], 1 << 20, &crate::Control::default()).unwrap();
        let mut memo = MemoSolver::new(&game);
        assert_eq!(dense.len(), 8 * 6 * 10);
        for (p, g) in dense.positions() {
            assert_eq!(u32::from(g), p[0] ^ p[1] ^ p[2]);
            assert_eq!(memo.grundy(&p), u32::from(g));
        }
        assert_eq!(dense.get(&[8, 0, 0]), None);
        assert_eq!(
            dense.p_positions().len(),
            dense
                .positions()
                .filter(|(p, _)| p[0] ^ p[1] == p[2])
                .count()
        );
    }

    /// Subtract 1 or 2 from one heap: values n mod 3, depth n.
    struct Subtract12;
    impl Game for Subtract12 {
        fn name(&self) -> String {
            "subtract 1 or 2".into()
        }
        fn coordinate_names(&self) -> Vec<String> {
            vec!["n".into()]
        }
        fn is_position(&self, _: &[u32]) -> bool {
            true
        }
        fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
            for t in 1..=2 {
                if p[0] >= t {
                    f(&[p[0] - t]);
                }
            }
        }
    }

    #[test]
    fn memo_solver_survives_deep_games() {
        // Recursion 200000 deep would overflow a call stack.
        let mut memo = MemoSolver::new(&Subtract12);
        assert_eq!(memo.grundy(&[200_000]), 200_000 % 3);
        assert_eq!(memo.solved(), 200_001);
    }

    struct Broken;
    impl Game for Broken {
        fn name(&self) -> String {
            "broken".into()
        }
        fn coordinate_names(&self) -> Vec<String> {
            vec!["a".into()]
        }
        fn is_position(&self, _: &[u32]) -> bool {
            true
        }
        fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
            f(&[p[0] + 1]);
        }
    }

    #[test]
    fn dense_solver_refuses_moves_that_do_not_lower_and_huge_boxes() {
        let err = solve_dense(&Broken, &[3], 1 << 20, &crate::Control::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not lower"), "{err}");
        let err = solve_dense(
            &nim(3),
            &[5000, 5000, 5000],
            1 << 30,
            &crate::Control::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("GiB") && err.contains("`box`"), "{err}");
    }
}
