//! The two-heap band games of seed 002, Examples 7.1 and 7.2.
//!
//! Positions `(x, y)` lie in a band between two curves; the seed draws their
//! Grundy values as tables (x down, y across) with the cells outside the band
//! greyed, so each game says what is [`inside the band`](Band::in_band).
//! The moves are exactly those of the seed's Mathematica programs (SPEC §7).
//! An option may leave the band; like the programs, the solver solves it too.

use super::solver::{box_tuples, mex_of_bits, solve_dense, DenseGrundy, Game};
use crate::{Control, Error, Result};

/// A band game of seed 002.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    /// Example 7.1: `res2(x) <= y <= res(x)` with `res(x) = 2 floor(x/2) + 1`
    /// and `res2(x) = max(2 floor(x/2) - 2, 0)`; table `0..22`.
    Example71,
    /// Example 7.2: `(x - h)/k <= y <= x/k`; the seed uses `k = 1, h = 3`
    /// and the table `0..30`.
    Example72 {
        /// The slope divisor, at least 1.
        k: u32,
        /// The band's width, `h >= 0`.
        h: u32,
    },
}

/// `res(x) = 2 floor(x/2) + 1` of Example 7.1.
pub fn res(x: u32) -> u32 {
    2 * (x / 2) + 1
}

/// `res2(x) = max(2 floor(x/2) - 2, 0)` of Example 7.1.
pub fn res2(x: u32) -> u32 {
    (2 * (x / 2)).saturating_sub(2)
}

/// `inverseres2(x) = max{m : res2(m) <= x}` of Example 7.1, in closed form
/// `2 floor(x/2) + 3`.
///
/// The seed's program searches `m` in `0..30` only, which agrees for
/// `x <= 27` (tested). It never matters for the moves: a `y`-move from
/// `(x, y)` goes to `t < y <= res(x) < inverseres2(x)`, so the new `x`,
/// `min(inverseres2(x), t)`, is `t` either way for every table up to `x = 31`.
pub fn inverse_res2(x: u32) -> u32 {
    2 * (x / 2) + 3
}

impl Band {
    /// Example 7.2 with its parameters; `k = 0` is an error.
    pub fn example72(k: u32, h: u32) -> Result<Band> {
        if k == 0 {
            return Err(Error::invalid_parameter(
                "k",
                "band-7-2: `k` must be at least 1 (the band is (x-h)/k <= y <= x/k)",
            ));
        }
        Ok(Band::Example72 { k, h })
    }

    /// The seed's table: the largest `x` it shows.
    pub fn seed_table_size(&self) -> u32 {
        match self {
            Band::Example71 => 22,
            Band::Example72 { .. } => 30,
        }
    }

    /// The largest `y` inside the band for any `x <= x_max` (the table's width).
    pub fn y_max(&self, x_max: u32) -> u32 {
        match *self {
            Band::Example71 => res(x_max),
            Band::Example72 { k, .. } => x_max / k,
        }
    }

    /// Whether `(x, y)` is inside the band (tables grey out the other cells).
    pub fn in_band(&self, x: u32, y: u32) -> bool {
        match *self {
            Band::Example71 => res2(x) <= y && y <= res(x),
            // (x - h)/k <= y <= x/k, i.e. k y <= x <= k y + h, in integers.
            Band::Example72 { k, h } => {
                let ky = u64::from(k) * u64::from(y);
                ky <= u64::from(x) && u64::from(x) <= ky + u64::from(h)
            }
        }
    }
}

impl Band {
    /// Whether every option of a position in the band is in the band again: then
    /// the band alone is solved ([`Band::solve`]'s fast path). Example 7.1 always
    /// (a move of `x` keeps `y >= res2(x) >= res2(t)`, a move of `y` lands on
    /// `(t, t)`); Example 7.2 when `h >= k - 1` (a move of `x` to `t` lands on
    /// `y = floor(t/k)`, and `t - k floor(t/k) <= k - 1 <= h`; a move of `y` on
    /// `(min(kt + h, x), t)`, inside as `x <= k y + h` and `t < y`).
    pub fn is_closed(&self) -> bool {
        match *self {
            Band::Example71 => true,
            Band::Example72 { k, h } => u64::from(h) + 1 >= u64::from(k),
        }
    }

    /// Grundy values of every position of the box `bounds` (`[x_max, y_max]`),
    /// laid out as [`solve_dense`] lays them out (every tuple in C
    /// order, the band's positions marked), with the same values. A closed band
    /// ([`Band::is_closed`]) is solved row by row over its own positions only,
    /// each option's value read from a flat table and the mex taken in one
    /// reused bitset: the box of a band is mostly outside it (1200 positions of
    /// 90 902 tuples at `x <= 300`). Otherwise (Example 7.2 with `h < k - 1`,
    /// whose moves leave the band) the dense solver, which solves those options
    /// too.
    pub fn solve(&self, bounds: &[u32], limit: u64, control: &Control) -> Result<DenseGrundy> {
        if !self.is_closed() || bounds.len() != 2 {
            return solve_dense(self, bounds, limit, control);
        }
        let what = format!("Grundy values of {}", self.name());
        let total = box_tuples(&what, bounds, 3, limit)?;
        let (bx, by) = (bounds[0], bounds[1]);
        let width = by as usize + 1;
        let mut values = vec![0u16; total];
        let mut valid = vec![0u64; total.div_ceil(64)];
        let mut positions = 0usize;
        // A value is at most the number of options, x + y.
        let mut seen = vec![0u64; (bx as usize + by as usize) / 64 + 2];
        control.add_total(u64::from(bx) + 1);
        for x in 0..=bx {
            control.check()?;
            let (low, high) = match *self {
                Band::Example71 => (res2(x), res(x)),
                Band::Example72 { k, .. } => (x.saturating_sub(self.width_h()).div_ceil(k), x / k),
            };
            let row = x as usize * width;
            for y in low..=high.min(by) {
                let used = (x as usize + y as usize) / 64 + 1;
                seen[..used].fill(0);
                let mut mark = |i: usize| {
                    let v = usize::from(values[i]);
                    seen[v / 64] |= 1 << (v % 64);
                };
                match *self {
                    Band::Example71 => {
                        for t in 0..x {
                            mark(t as usize * width + res(t).min(y) as usize);
                        }
                        let back = inverse_res2(x);
                        for t in 0..y {
                            mark(back.min(t) as usize * width + t as usize);
                        }
                    }
                    Band::Example72 { k, h } => {
                        for t in 0..x {
                            mark(t as usize * width + (t / k).min(y) as usize);
                        }
                        for t in 0..y {
                            let back =
                                (u64::from(k) * u64::from(t) + u64::from(h)).min(u64::from(x));
                            mark(back as usize * width + t as usize);
                        }
                    }
                }
                let g = mex_of_bits(&seen[..used]);
                let i = row + y as usize;
                values[i] = u16::try_from(g).map_err(|_| {
                    Error::unsupported(format!(
                        "{}: the Grundy value at [{x}, {y}] is {g}, over the 65535 that values are stored in",
                        self.name()
                    ))
                })?;
                valid[i / 64] |= 1 << (i % 64);
                positions += 1;
            }
            control.advance(1);
        }
        Ok(DenseGrundy::from_parts(
            self.coordinate_names(),
            bounds.to_vec(),
            values,
            valid,
            positions,
        ))
    }

    /// Example 7.2's `h` (0 for Example 7.1).
    fn width_h(&self) -> u32 {
        match *self {
            Band::Example71 => 0,
            Band::Example72 { h, .. } => h,
        }
    }
}

impl Game for Band {
    fn name(&self) -> String {
        match self {
            Band::Example71 => "band-7-1".into(),
            Band::Example72 { k, h } => format!("band-7-2 k={k} h={h}"),
        }
    }

    fn coordinate_names(&self) -> Vec<String> {
        vec!["x".into(), "y".into()]
    }

    fn is_position(&self, p: &[u32]) -> bool {
        self.in_band(p[0], p[1])
    }

    fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
        let (x, y) = (p[0], p[1]);
        match *self {
            Band::Example71 => {
                for t in 0..x {
                    f(&[t, res(t).min(y)]);
                }
                for t in 0..y {
                    f(&[inverse_res2(x).min(t), t]);
                }
            }
            Band::Example72 { k, h } => {
                for t in 0..x {
                    f(&[t, (t / k).min(y)]);
                }
                for t in 0..y {
                    let back = u64::from(k) * u64::from(t) + u64::from(h);
                    f(&[back.min(u64::from(x)) as u32, t]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::solver::{solve_dense, Game, MemoSolver};
    use std::collections::{BTreeSet, HashMap};

    /// A literal port of the seed's Mathematica programs (lists, `Union`, the
    /// bounded `inverseres2` search over `0..30`, rational band tests), as an
    /// oracle independent of [`Band`]'s own code.
    struct Literal {
        example: u8,
        k: i64,
        h: i64,
        memo: HashMap<(i64, i64), u32>,
    }

    impl Literal {
        fn inverseres2(x: i64) -> i64 {
            (0..=30)
                .filter(|&m| i64::from(res2(m as u32)) <= x)
                .max()
                .unwrap()
        }

        fn moves(&self, x: i64, y: i64) -> BTreeSet<(i64, i64)> {
            let mut out = BTreeSet::new();
            if self.example == 1 {
                for t1 in 0..x {
                    out.insert((t1, i64::from(res(t1 as u32)).min(y)));
                }
                for t2 in 0..y {
                    out.insert((Self::inverseres2(x).min(t2), t2));
                }
            } else {
                for t1 in 0..x {
                    // Floor[(1/k)(t1)] on exact rationals.
                    out.insert((t1, t1.div_euclid(self.k).min(y)));
                }
                for t2 in 0..y {
                    out.insert(((self.k * t2 + self.h).min(x), t2));
                }
            }
            out
        }

        fn gr(&mut self, x: i64, y: i64) -> u32 {
            if let Some(&g) = self.memo.get(&(x, y)) {
                return g;
            }
            let vals: BTreeSet<u32> = self
                .moves(x, y)
                .into_iter()
                .map(|(a, b)| self.gr(a, b))
                .collect();
            let g = (0..).find(|v| !vals.contains(v)).unwrap();
            self.memo.insert((x, y), g);
            g
        }

        fn in_band(&self, x: i64, y: i64) -> bool {
            if self.example == 1 {
                i64::from(res(x as u32)) >= y && y >= i64::from(res2(x as u32))
            } else {
                // (1/k) x >= y >= (1/k)(x - h), multiplied through by k > 0.
                x >= self.k * y && self.k * y >= x - self.h
            }
        }
    }

    fn check_table(band: Band, literal: &mut Literal, x_max: u32) {
        let y_max = band.y_max(x_max);
        let g = solve_dense(&band, &[x_max, y_max], 1 << 24, &crate::Control::default()).unwrap();
        for x in 0..=x_max {
            for y in 0..=y_max {
                assert_eq!(
                    band.in_band(x, y),
                    literal.in_band(x.into(), y.into()),
                    "({x},{y})"
                );
                let expect = band
                    .in_band(x, y)
                    .then(|| literal.gr(x.into(), y.into()) as u16);
                assert_eq!(g.get(&[x, y]), expect, "{} at ({x},{y})", band.name());
            }
        }
    }

    fn row(band: Band, x: u32) -> Vec<u16> {
        let g = solve_dense(
            &band,
            &[x, band.y_max(x)],
            1 << 20,
            &crate::Control::default(),
        )
        .unwrap();
        (0..=band.y_max(x)).filter_map(|y| g.get(&[x, y])).collect()
    }

    #[test]
    fn figure_7_9_table_equals_the_literal_program() {
        let mut lit = Literal {
            example: 1,
            k: 0,
            h: 0,
            memo: HashMap::new(),
        };
        check_table(Band::Example71, &mut lit, 22);
        // A larger table still agrees while the program's search bound is harmless.
        check_table(Band::Example71, &mut lit, 31);
    }

    #[test]
    fn figure_7_14_table_equals_the_literal_program() {
        let mut lit = Literal {
            example: 2,
            k: 1,
            h: 3,
            memo: HashMap::new(),
        };
        check_table(Band::example72(1, 3).unwrap(), &mut lit, 30);
        for (k, h) in [(2, 3), (2, 0), (3, 5), (1, 0)] {
            let mut lit = Literal {
                example: 2,
                k: k.into(),
                h: h.into(),
                memo: HashMap::new(),
            };
            check_table(Band::example72(k, h).unwrap(), &mut lit, 24);
        }
    }

    #[test]
    fn first_rows_of_both_tables_worked_by_hand() {
        // The seed's figures are images lost in extraction; these rows were
        // worked out by hand from the programs' moves (see the issue report).
        let b71 = Band::Example71;
        assert_eq!(row(b71, 0), vec![0, 1]);
        assert_eq!(row(b71, 1), vec![1, 2]);
        assert_eq!(row(b71, 2), vec![2, 3, 3, 4]);
        let b72 = Band::example72(1, 3).unwrap();
        assert_eq!(row(b72, 0), vec![0]);
        assert_eq!(row(b72, 1), vec![1, 2]);
        assert_eq!(row(b72, 2), vec![2, 1, 3]);
        assert_eq!(row(b72, 3), vec![3, 4, 1, 5]);
    }

    #[test]
    fn inverse_res2_matches_the_programs_bounded_search_where_it_can() {
        for x in 0..=27 {
            assert_eq!(
                i64::from(inverse_res2(x)),
                Literal::inverseres2(x.into()),
                "x={x}"
            );
        }
    }

    /// The fast path of [`Band::solve`] against the dense solver (which solves
    /// every option it meets, in or out of the band), tuple for tuple, on boxes
    /// that cut the band short in `y` too; open bands take the dense solver.
    #[test]
    fn band_solver_equals_the_dense_solver() {
        let mut bands = vec![Band::Example71];
        for k in 1..=4 {
            for h in 0..=6 {
                bands.push(Band::example72(k, h).unwrap());
            }
        }
        for band in bands {
            for (bx, by) in [
                (0, 0),
                (1, 0),
                (9, 3),
                (40, band.y_max(40)),
                (61, 7),
                (33, 50),
            ] {
                let fast = band.solve(&[bx, by], 1 << 24, &Control::new()).unwrap();
                let dense =
                    solve_dense(&band, &[bx, by], 1 << 24, &crate::Control::default()).unwrap();
                assert_eq!(fast.len(), dense.len(), "{} box {bx},{by}", band.name());
                for x in 0..=bx {
                    for y in 0..=by {
                        assert_eq!(
                            fast.get(&[x, y]),
                            dense.get(&[x, y]),
                            "{} at ({x},{y}), box {bx},{by}",
                            band.name()
                        );
                    }
                }
            }
        }
        assert!(Band::Example71.is_closed() && Band::example72(3, 2).unwrap().is_closed());
        assert!(!Band::example72(3, 1).unwrap().is_closed());
    }

    #[test]
    fn band_shapes_and_bad_parameters() {
        assert!(Band::example72(0, 3)
            .unwrap_err()
            .to_string()
            .contains("`k` must be at least 1"));
        let b = Band::example72(2, 3).unwrap();
        assert!(b.in_band(4, 2) && b.in_band(7, 2) && !b.in_band(8, 2) && !b.in_band(3, 2));
        assert_eq!(b.y_max(30), 15);
        assert_eq!(Band::Example71.y_max(22), 23);
        let mut memo = MemoSolver::new(&Band::Example71);
        assert_eq!(memo.grundy(&[0, 0]), 0);
    }
}
