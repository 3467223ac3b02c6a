//! Periodicity of Grundy values along lines parallel to the axes.
//!
//! A sequence `g_0 .. g_{L-1}` (the values of consecutive positions on one line)
//! is *arithmetic-periodic* with pre-period `n0`, period `p >= 1` and saltus `s`
//! when `g_{n+p} = g_n + s` for every `n >= n0` with `n + p < L`; `s = 0` is
//! plain periodicity. Any sequence fits some `(n0, p)` in a finite box, so the
//! claim needs evidence: **the periodic part must hold at least three periods**,
//! `L >= n0 + 3p` (one period and two confirmed repetitions). Among the pairs
//! with that evidence the one reported is the shortest description: the least
//! `n0 + p`, then the least `p`. A line with no such pair is "not periodic in
//! the box"; that says nothing beyond the box either way.

use rayon::prelude::*;

use super::grid::Grid;
use crate::games::OUTSIDE;
use crate::{Control, Result};

/// Pre-period, period and saltus of one sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Periodicity {
    /// Values before the periodic part.
    pub preperiod: usize,
    /// The period.
    pub period: usize,
    /// What one period adds (0: plain periodicity).
    pub saltus: i64,
}

/// The shortest `(n0, p, s)` with the evidence the module asks for, or `None`.
pub fn find_period(values: &[i64]) -> Option<Periodicity> {
    let len = values.len();
    let mut best: Option<Periodicity> = None;
    let mut cost = usize::MAX;
    for p in 1..=len / 3 {
        // n0 + p >= p: no larger period can beat the best.
        if p >= cost {
            break;
        }
        let s = values[len - 1] - values[len - 1 - p];
        let mut n0 = len - 1 - p;
        while n0 > 0 && values[n0 - 1 + p] - values[n0 - 1] == s {
            n0 -= 1;
        }
        if len >= n0 + 3 * p && n0 + p < cost {
            cost = n0 + p;
            best = Some(Periodicity {
                preperiod: n0,
                period: p,
                saltus: s,
            });
        }
    }
    best
}

/// What the lines along one axis show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxisPeriods {
    /// The axis the lines run along.
    pub axis: usize,
    /// Runs of consecutive positions analysed (a line the game interrupts gives several).
    pub lines: u64,
    /// Runs with a period by the evidence rule.
    pub periodic: u64,
    /// Runs periodic with saltus 0.
    pub plain: u64,
    /// Runs periodic with a non-zero saltus.
    pub arithmetic: u64,
    /// The largest pre-period found.
    pub max_preperiod: usize,
    /// The largest period found.
    pub max_period: usize,
    /// `(period, saltus)` pairs with their counts, most common first (at most 8).
    pub common: Vec<((usize, i64), u64)>,
    /// The first runs (lexicographically by their first position) without a period.
    pub not_periodic: Vec<Vec<u32>>,
}

/// How many non-periodic runs are named per axis.
const NAMED: usize = 5;

#[derive(Default)]
struct Tally {
    lines: u64,
    periodic: u64,
    plain: u64,
    arithmetic: u64,
    max_preperiod: usize,
    max_period: usize,
    kinds: std::collections::BTreeMap<(usize, i64), u64>,
    /// The lexicographically first runs without a period seen, sorted, at most [`NAMED`].
    not_periodic: Vec<Vec<u32>>,
}

impl Tally {
    fn merge(mut self, other: Tally) -> Tally {
        self.lines += other.lines;
        self.periodic += other.periodic;
        self.plain += other.plain;
        self.arithmetic += other.arithmetic;
        self.max_preperiod = self.max_preperiod.max(other.max_preperiod);
        self.max_period = self.max_period.max(other.max_period);
        for (k, n) in other.kinds {
            *self.kinds.entry(k).or_default() += n;
        }
        self.not_periodic.extend(other.not_periodic);
        self.not_periodic.sort();
        self.not_periodic.truncate(NAMED);
        self
    }

    /// Tallies one run; `start` is its first position, copied only when it is
    /// among the first [`NAMED`] runs without a period (so that which runs are
    /// named does not depend on how the lines were split between threads).
    fn add(&mut self, start: &[u32], values: &[i64]) {
        self.lines += 1;
        match find_period(values) {
            Some(found) => {
                self.periodic += 1;
                if found.saltus == 0 {
                    self.plain += 1;
                } else {
                    self.arithmetic += 1;
                }
                self.max_preperiod = self.max_preperiod.max(found.preperiod);
                self.max_period = self.max_period.max(found.period);
                *self.kinds.entry((found.period, found.saltus)).or_default() += 1;
            }
            None => {
                let at = self
                    .not_periodic
                    .partition_point(|named| named.as_slice() < start);
                if at < NAMED {
                    self.not_periodic.insert(at, start.to_vec());
                    self.not_periodic.truncate(NAMED);
                }
            }
        }
    }
}

/// Lines handed to one task at a time: neighbouring lines share cache lines.
const LINES_PER_TASK: usize = 256;

/// Periodicity of every run of positions along every axis of `grid`.
pub fn line_periods(grid: &Grid, control: &Control) -> Result<Vec<AxisPeriods>> {
    let shape = &grid.shape;
    let dims = shape.len();
    let mut out = Vec::with_capacity(dims);
    for axis in 0..dims {
        let count = grid.line_count(axis);
        let (len, stride) = (shape[axis], grid.strides[axis]);
        control.check()?;
        let tally = (0..count.div_ceil(LINES_PER_TASK))
            .into_par_iter()
            .fold(Tally::default, |mut tally, task| {
                if control.is_cancelled() {
                    return tally;
                }
                let mut p = vec![0u32; dims];
                let mut run: Vec<i64> = Vec::with_capacity(len);
                let mut start = vec![0u32; dims];
                for line in task * LINES_PER_TASK..((task + 1) * LINES_PER_TASK).min(count) {
                    let base = grid.line_start(axis, line, &mut p);
                    run.clear();
                    for t in 0..len {
                        let g = grid.values[base + t * stride];
                        if g != OUTSIDE {
                            if run.is_empty() {
                                start.copy_from_slice(&p);
                                start[axis] = t as u32;
                            }
                            run.push(i64::from(g));
                        } else if !run.is_empty() {
                            tally.add(&start, &run);
                            run.clear();
                        }
                    }
                    if !run.is_empty() {
                        tally.add(&start, &run);
                    }
                }
                tally
            })
            .reduce(Tally::default, Tally::merge);
        control.check()?;
        let mut common: Vec<((usize, i64), u64)> = tally.kinds.into_iter().collect();
        common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        common.truncate(8);
        out.push(AxisPeriods {
            axis,
            lines: tally.lines,
            periodic: tally.periodic,
            plain: tally.plain,
            arithmetic: tally.arithmetic,
            max_preperiod: tally.max_preperiod,
            max_period: tally.max_period,
            common,
            not_periodic: tally.not_periodic,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameBox, GameParams, GameSpec};

    /// The least `n0 + p` (then `p`) by trying every pair: the definition itself.
    fn brute(values: &[i64]) -> Option<Periodicity> {
        let len = values.len();
        let mut all = Vec::new();
        for p in 1..=len {
            for n0 in 0..len {
                if len < n0 + 3 * p {
                    continue;
                }
                let s = values[n0 + p] - values[n0];
                if (n0..len - p).all(|n| values[n + p] - values[n] == s) {
                    all.push((n0 + p, p, n0, s));
                }
            }
        }
        all.into_iter().min().map(|(_, p, n0, s)| Periodicity {
            preperiod: n0,
            period: p,
            saltus: s,
        })
    }

    #[test]
    fn planted_periods_are_found_and_agree_with_the_definition() {
        // Pre-period 3, period 4, saltus 5, six periods long.
        let mut v = vec![9, 0, 7];
        for n in 0..24 {
            v.push([1, 3, 2, 0][n % 4] + 5 * (n as i64 / 4));
        }
        assert_eq!(
            find_period(&v),
            Some(Periodicity {
                preperiod: 3,
                period: 4,
                saltus: 5
            })
        );
        // Too short a periodic part: 2 periods are no evidence.
        assert_eq!(find_period(&[5, 1, 2, 1, 2]), None);
        let mut seed = 12345u64;
        for _ in 0..3000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = (seed >> 60) as usize + 1;
            let kinds = (seed >> 56) % 3 + 1;
            let v: Vec<i64> = (0..len)
                .map(|i| {
                    let r = seed.rotate_left(i as u32 * 7);
                    if i > len / 2 {
                        (i as i64 % 2) * 2
                    } else {
                        (r % kinds) as i64
                    }
                })
                .collect();
            assert_eq!(find_period(&v), brute(&v), "{v:?}");
        }
    }

    #[test]
    fn two_heap_nim_rows_are_arithmetic_periodic() {
        // Nim on two heaps: g(x, y) = x ^ y. Row x = 5 from y = 0: 5,4,7,6,1,0,3,2,13,...
        // has period 8 and saltus 8 (adding 8 to y adds 8 to x ^ y once 8 > x).
        let s = GameSpec::from_name(
            "nim",
            &GameParams {
                heaps: Some(2),
                ..Default::default()
            },
        )
        .unwrap()
        .solve(&GameBox::Uniform(31), 1 << 30, &crate::Control::default())
        .unwrap();
        let grid = Grid::of(&s, &Control::default()).unwrap();
        let axes = line_periods(&grid, &Control::default()).unwrap();
        assert_eq!(axes.len(), 2);
        let mut periodic = 0;
        // Brute force: each row's values against the definition.
        for x in 0..=31u32 {
            let row: Vec<i64> = (0..=31)
                .map(|y| i64::from(s.get(&[x, y]).unwrap()))
                .collect();
            let found = find_period(&row);
            assert_eq!(found, brute(&row));
            periodic += u64::from(found.is_some());
            // Three periods fit in the box for x < 8: the true period is seen.
            if x < 8 {
                let found = found.unwrap();
                assert_eq!(
                    (found.preperiod, found.period),
                    (0, (x + 1).next_power_of_two() as usize)
                );
                assert_eq!(found.saltus, found.period as i64);
            }
        }
        for a in &axes {
            assert_eq!((a.lines, a.periodic), (32, periodic));
        }
    }

    /// Wythoff's game by its definition: take any amount from one heap, or the
    /// same amount from both; Grundy values by mex over every option.
    fn wythoff_by_mex(n: usize) -> Vec<Vec<u16>> {
        let mut g = vec![vec![0u16; n + 1]; n + 1];
        for x in 0..=n {
            for y in 0..=n {
                let mut seen = vec![false; 3 * (n + 1) + 1];
                for k in 1..=x {
                    seen[g[x - k][y] as usize] = true;
                }
                for k in 1..=y {
                    seen[g[x][y - k] as usize] = true;
                }
                for k in 1..=x.min(y) {
                    seen[g[x - k][y - k] as usize] = true;
                }
                g[x][y] = seen.iter().position(|&s| !s).unwrap() as u16;
            }
        }
        g
    }

    #[test]
    fn wythoffs_rows_are_found_arithmetic_periodic_with_their_known_periods() {
        // Dress, Flammenkamp and Pink: every row of Wythoff's game is arithmetic-
        // periodic with saltus equal to its period; rows 0..6 have periods
        // 1, 3, 3, 6, 12, 24, 12.
        const N: usize = 160;
        let text = include_str!("../../../../games/wythoff.toml");
        let solved = GameSpec::from_game_file("wythoff.toml", text, &[])
            .unwrap()
            .solve(
                &GameBox::Uniform(N as u32),
                1 << 30,
                &crate::Control::default(),
            )
            .unwrap();
        let by_mex = wythoff_by_mex(N);
        let grid = Grid::of(&solved, &Control::default()).unwrap();
        for (x, row) in by_mex.iter().enumerate() {
            for (y, &g) in row.iter().enumerate() {
                assert_eq!(grid.get(&[x as u32, y as u32]), Some(g), "({x}, {y})");
            }
        }
        let rows: Vec<Vec<i64>> = by_mex
            .iter()
            .map(|r| r.iter().map(|&g| i64::from(g)).collect())
            .collect();
        for (x, period) in [1, 3, 3, 6, 12, 24, 12].into_iter().enumerate() {
            let found = find_period(&rows[x]).unwrap();
            assert_eq!(Some(found), brute(&rows[x]), "row {x}");
            assert_eq!(
                (found.period, found.saltus),
                (period, period as i64),
                "row {x}"
            );
        }
        // The finder's tally along y against the definition, row by row.
        let axes = line_periods(&grid, &Control::default()).unwrap();
        let along_y = &axes[1];
        let found: Vec<Option<Periodicity>> = rows.iter().map(|r| brute(r)).collect();
        let periodic: Vec<&Periodicity> = found.iter().flatten().collect();
        assert_eq!(along_y.lines, N as u64 + 1);
        assert_eq!(along_y.periodic, periodic.len() as u64);
        assert_eq!(
            along_y.arithmetic,
            periodic.iter().filter(|p| p.saltus != 0).count() as u64
        );
        assert_eq!(
            along_y.max_period,
            periodic.iter().map(|p| p.period).max().unwrap()
        );
        let unnamed: Vec<Vec<u32>> = (0..=N as u32)
            .filter(|&x| found[x as usize].is_none())
            .take(NAMED)
            .map(|x| vec![x, 0])
            .collect();
        assert_eq!(along_y.not_periodic, unnamed);
        // Wythoff's game is symmetric: the columns tell the same.
        assert_eq!(axes[0].periodic, along_y.periodic);
    }

    #[test]
    fn the_tally_does_not_depend_on_the_thread_count() {
        let s = GameSpec::from_name(
            "triangular",
            &GameParams {
                k: Some(5),
                ..Default::default()
            },
        )
        .unwrap()
        .solve(&GameBox::Uniform(60), 1 << 30, &crate::Control::default())
        .unwrap();
        let grid = Grid::of(&s, &Control::default()).unwrap();
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| line_periods(&grid, &Control::default()).unwrap())
        };
        let one = run(1);
        assert!(one.iter().any(|a| a.not_periodic.len() == NAMED));
        assert_eq!(one, run(3));
        assert_eq!(one, run(7));
    }
}
