//! Exact tiles of R(m,n) for boards up to 2^62 on a side: the explorer's model.
//!
//! A zoomed-out pixel covers a block of many cells. Sampling one cell per
//! pixel draws moiré that looks like structure, so every pixel here is shaded
//! by the exact number of P-cells in its block, counted without visiting a
//! cell. The idea: with 0-based row a and `M = m-1`, the row signature is
//! `a ^ (M-a)` and a cell is P when row and column signatures are equal, so a
//! block's count is a histogram intersection of the signatures of its rows
//! and of its columns.
//!
//! * [`count_p`] counts any rectangle by a digit recursion over the bits
//!   (least significant first), carrying the borrows of `M-a` and `N-c` and
//!   whether the low bits already exceed the rectangle's bound: 16 states,
//!   64 bits, no cells.
//! * [`TilePlan`] is faster for a whole tile of aligned blocks of `2^k` rows
//!   and columns. Write a row of block q as `a = q·2^k + x`. Then `M - a`
//!   has high part `Mh - q - β` and low part `Ml - x (+ 2^k)`, where β is the
//!   borrow (x > Ml). The low halves of the signatures depend only on `Ml`,
//!   `k` and β, never on q, so the four intersections `I[βr][βc]` of low
//!   halves are computed once per tile and each pixel costs four comparisons
//!   of the high halves `q ^ (Mh-q-βr)` and `p ^ (Nh-p-βc)`.

use crate::{Error, Result};

/// The side of a tile in pixels.
pub const TILE: usize = 256;

/// The largest board side the explorer addresses exactly.
pub const MAX_SIDE: u64 = 1 << 62;

/// The largest zoom-out: one pixel covers `2^MAX_LEVEL` rows and columns.
pub const MAX_LEVEL: u32 = 62;

/// Validates a board for the explorer: both sides in 1..=2^62.
pub fn check_side(name: &str, side: u64) -> Result<()> {
    if side == 0 || side > MAX_SIDE {
        return Err(Error::invalid_marked(
            name,
            format!(
                "{name} = {side} is out of range: {name} must be between 1 and 2^62 = {MAX_SIDE}"
            ),
        ));
    }
    Ok(())
}

/// The number of P-cells of C(m,n) in rows `rows` and columns `cols`
/// (0-based, half-open: row a is the board's row a+1). Parts of the
/// rectangle outside the board count nothing.
pub fn count_p(m: u64, n: u64, rows: std::ops::Range<u64>, cols: std::ops::Range<u64>) -> u128 {
    let (r0, r1) = (rows.start.min(m), rows.end.min(m));
    let (c0, c1) = (cols.start.min(n), cols.end.min(n));
    if r0 >= r1 || c0 >= c1 {
        return 0;
    }
    let f = |a: u64, c: u64| prefix_count(m - 1, n - 1, a, c);
    // Inclusion-exclusion over prefix rectangles; the sum is never negative.
    f(r1, c1) + f(r0, c0) - f(r0, c1) - f(r1, c0)
}

/// Pairs (a, c) with a < `a_end`, c < `c_end`, a <= `big_m`, c <= `big_n` and
/// `a ^ (big_m - a) == c ^ (big_n - c)`.
///
/// Digit recursion from the least significant bit. State: the borrow of
/// `big_m - a`, the borrow of `big_n - c`, and for a and c whether their low
/// bits so far exceed those of the bound `end - 1` (a later, higher bit that
/// is smaller than the bound's decides the comparison the other way).
fn prefix_count(big_m: u64, big_n: u64, a_end: u64, c_end: u64) -> u128 {
    if a_end == 0 || c_end == 0 {
        return 0;
    }
    let (ha, hc) = (a_end - 1, c_end - 1);
    // state index: ba | bc << 1 | ga << 2 | gc << 3
    let mut ways = [0u128; 16];
    ways[0] = 1;
    for bit in 0..64 {
        let (mb, nb) = ((big_m >> bit) & 1, (big_n >> bit) & 1);
        let (hab, hcb) = ((ha >> bit) & 1, (hc >> bit) & 1);
        let mut next = [0u128; 16];
        for (state, &w) in ways.iter().enumerate() {
            if w == 0 {
                continue;
            }
            let (ba, bc) = ((state & 1) as u64, ((state >> 1) & 1) as u64);
            let (ga, gc) = ((state >> 2) & 1, (state >> 3) & 1);
            for ab in 0..2u64 {
                let da = mb as i64 - ab as i64 - ba as i64;
                let (oa, nba) = ((da & 1) as u64, (da < 0) as usize);
                let nga = if ab != hab { (ab > hab) as usize } else { ga };
                for cb in 0..2u64 {
                    let dc = nb as i64 - cb as i64 - bc as i64;
                    let (oc, nbc) = ((dc & 1) as u64, (dc < 0) as usize);
                    if ab ^ oa != cb ^ oc {
                        continue;
                    }
                    let ngc = if cb != hcb { (cb > hcb) as usize } else { gc };
                    next[nba | nbc << 1 | nga << 2 | ngc << 3] += w;
                }
            }
        }
        ways = next;
    }
    // No borrow left (a <= M, c <= N) and neither bound exceeded.
    ways[0]
}

/// What one tile shows per pixel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileMode {
    /// The exact share of P-cells in the pixel's block, quantised to a byte
    /// (see [`shade`]).
    Density,
    /// The bit length of the four-heap nim-sum (0 for a P-cell) of the first
    /// cell of the block, plus one: sampled, not counted, when the block has
    /// more than one cell.
    NimSumBits,
}

/// The byte of a pixel whose block holds `count` P-cells among `area` cells:
/// 0 outside the board, 1 when no cell is P, 255 when all are, and in
/// between `2 + floor(256 · count / area)` capped at 254, so that any P-cell
/// at all is visible and only a full block looks full.
pub fn shade(count: u128, area: u128) -> u8 {
    if area == 0 {
        0
    } else if count == 0 {
        1
    } else if count >= area {
        255
    } else {
        (2 + share_256(count, area)).min(254) as u8
    }
}

/// Contrast-stretched weights (0..=255) for the shares `count / area` of the
/// pixels of one view: the distinct shares present, in order, spread evenly
/// over the scale by rank (the lowest 0, the highest 255, the one of rank r
/// among n distinct shares `round(255 · r / (n - 1))`). By rank, not by value:
/// the shares of a zoomed-out view of a 2^62 board can differ by one cell in
/// 2^106 inside the board and by far more along its last, shorter blocks, so a
/// linear stretch would still draw the inside flat. Order is kept, distances
/// are not. Compared exactly (big integers). `None` when every share is the
/// same (nothing to stretch). The explorer's page computes the same integers
/// (`stretchWeights` in app.js).
pub fn stretched_weights(shares: &[(u128, u128)]) -> Option<Vec<u8>> {
    use num_bigint::BigUint;
    use std::cmp::Ordering;
    // c1 / a1 against c2 / a2: c1 · a2 against c2 · a1.
    let order = |&(c1, a1): &(u128, u128), &(c2, a2): &(u128, u128)| -> Ordering {
        (BigUint::from(c1) * BigUint::from(a2)).cmp(&(BigUint::from(c2) * BigUint::from(a1)))
    };
    let mut distinct = shares.to_vec();
    distinct.sort_by(order);
    distinct.dedup_by(|a, b| order(a, b) == Ordering::Equal);
    let top = distinct.len().checked_sub(1).filter(|&t| t > 0)? as u64;
    Some(
        shares
            .iter()
            .map(|s| {
                let rank = distinct.partition_point(|d| order(d, s) == Ordering::Less) as u64;
                ((510 * rank + top) / (2 * top)) as u8
            })
            .collect(),
    )
}

/// `floor(256 · count / area)` for `count < area <= 2^126`, exactly and
/// without overflow (256 · count may not fit in u128): a shift for the
/// power-of-two areas of whole blocks, else eight steps of long division.
fn share_256(count: u128, area: u128) -> u128 {
    if area.is_power_of_two() {
        let t = area.trailing_zeros();
        return if t >= 8 {
            count >> (t - 8)
        } else {
            (count << 8) >> t
        };
    }
    let (mut rest, mut quotient) = (count, 0u128);
    for _ in 0..8 {
        rest <<= 1;
        quotient <<= 1;
        if rest >= area {
            rest -= area;
            quotient |= 1;
        }
    }
    quotient
}

/// One zoom level of one board: blocks of `2^level` rows by `2^level` columns.
#[derive(Debug, Clone)]
pub struct TilePlan {
    m: u64,
    n: u64,
    level: u32,
    /// High and low parts of M = m-1 and N = n-1 around bit `level`.
    mh: u64,
    nh: u64,
    /// Number of rows (columns) of a full block in borrow class 0 and 1.
    row_class: [u128; 2],
    col_class: [u128; 2],
    /// `inter[βr][βc]`: pairs of a class-βr row offset and a class-βc column
    /// offset whose low signature halves agree.
    inter: [[u128; 2]; 2],
}

impl TilePlan {
    /// The plan for board C(m,n) with blocks of side `2^level`.
    pub fn new(m: u64, n: u64, level: u32) -> Result<Self> {
        check_side("m", m)?;
        check_side("n", n)?;
        if level > MAX_LEVEL {
            return Err(Error::invalid_request(format!(
                "zoom level {level} is out of range: it must be between 0 and {MAX_LEVEL}"
            )));
        }
        let (big_m, big_n) = (m - 1, n - 1);
        let mask = (1u64 << level) - 1;
        let (ml, nl) = (big_m & mask, big_n & mask);
        let side = 1u128 << level;
        Ok(TilePlan {
            m,
            n,
            level,
            mh: big_m >> level,
            nh: big_n >> level,
            row_class: [ml as u128 + 1, side - ml as u128 - 1],
            col_class: [nl as u128 + 1, side - nl as u128 - 1],
            inter: low_intersections(ml, nl, level),
        })
    }

    /// The number of row blocks (pixel rows of the whole board at this level).
    pub fn row_blocks(&self) -> u64 {
        self.mh + 1
    }

    /// The number of column blocks.
    pub fn col_blocks(&self) -> u64 {
        self.nh + 1
    }

    /// The number of cells of block (q, p): 0 outside the board.
    pub fn area(&self, q: u64, p: u64) -> u128 {
        self.rows_in(q) * self.cols_in(p)
    }

    fn rows_in(&self, q: u64) -> u128 {
        if q > self.mh {
            0
        } else {
            let first = (q as u128) << self.level;
            (1u128 << self.level).min(self.m as u128 - first)
        }
    }

    fn cols_in(&self, p: u64) -> u128 {
        if p > self.nh {
            0
        } else {
            let first = (p as u128) << self.level;
            (1u128 << self.level).min(self.n as u128 - first)
        }
    }

    /// The exact number of P-cells in block (q, p): rows `q·2^level ..`,
    /// columns `p·2^level ..`.
    pub fn count(&self, q: u64, p: u64) -> u128 {
        if q > self.mh || p > self.nh {
            return 0;
        }
        let mut total = 0;
        for br in 0..2u64 {
            // The last block has no borrow class: its rows would lie past M.
            if self.mh - q < br || self.row_class[br as usize] == 0 {
                continue;
            }
            let hr = q ^ (self.mh - q - br);
            for bc in 0..2u64 {
                if self.nh - p < bc || self.col_class[bc as usize] == 0 {
                    continue;
                }
                if hr == p ^ (self.nh - p - bc) {
                    total += self.inter[br as usize][bc as usize];
                }
            }
        }
        total
    }

    /// The byte of pixel block (q, p) in `mode`.
    pub fn pixel(&self, q: u64, p: u64, mode: TileMode) -> u8 {
        match mode {
            TileMode::Density => shade(self.count(q, p), self.area(q, p)),
            TileMode::NimSumBits => {
                if q > self.mh || p > self.nh {
                    return 0;
                }
                let (a, c) = (q << self.level, p << self.level);
                let sum = (a ^ (self.m - 1 - a)) ^ (c ^ (self.n - 1 - c));
                (1 + (64 - sum.leading_zeros())) as u8
            }
        }
    }

    /// Fills `out` (TILE x TILE bytes, row-major) with tile (`tx`, `ty`): its
    /// top-left pixel is block (ty·TILE, tx·TILE). Pixels off the board are 0.
    pub fn render(&self, tx: u64, ty: u64, mode: TileMode, out: &mut [u8]) {
        assert_eq!(out.len(), TILE * TILE, "a tile is {TILE} x {TILE} bytes");
        out.fill(0);
        let q0 = ty.saturating_mul(TILE as u64);
        let p0 = tx.saturating_mul(TILE as u64);
        if q0 > self.mh || p0 > self.nh {
            return;
        }
        let rows = ((self.mh - q0 + 1).min(TILE as u64)) as usize;
        let cols = ((self.nh - p0 + 1).min(TILE as u64)) as usize;
        if mode == TileMode::NimSumBits {
            for (dy, line) in out.chunks_exact_mut(TILE).take(rows).enumerate() {
                for (dx, px) in line.iter_mut().take(cols).enumerate() {
                    *px = self.pixel(q0 + dy as u64, p0 + dx as u64, mode);
                }
            }
            return;
        }
        // High halves of the column signatures, once per tile column.
        let mut col_high = [[u64::MAX; 2]; TILE];
        let mut col_valid = [[false; 2]; TILE];
        let mut col_cells = [0u128; TILE];
        for dx in 0..cols {
            let p = p0 + dx as u64;
            col_cells[dx] = self.cols_in(p);
            for bc in 0..2u64 {
                if self.nh - p >= bc && self.col_class[bc as usize] != 0 {
                    col_high[dx][bc as usize] = p ^ (self.nh - p - bc);
                    col_valid[dx][bc as usize] = true;
                }
            }
        }
        let full_area = |rows_here: u128, dx: usize| rows_here * col_cells[dx];
        for (dy, line) in out.chunks_exact_mut(TILE).take(rows).enumerate() {
            let q = q0 + dy as u64;
            let rows_here = self.rows_in(q);
            let mut row_high = [u64::MAX; 2];
            let mut row_valid = [false; 2];
            for br in 0..2u64 {
                if self.mh - q >= br && self.row_class[br as usize] != 0 {
                    row_high[br as usize] = q ^ (self.mh - q - br);
                    row_valid[br as usize] = true;
                }
            }
            for (dx, px) in line.iter_mut().take(cols).enumerate() {
                let mut count = 0u128;
                for br in 0..2 {
                    if !row_valid[br] {
                        continue;
                    }
                    for bc in 0..2 {
                        if col_valid[dx][bc] && row_high[br] == col_high[dx][bc] {
                            count += self.inter[br][bc];
                        }
                    }
                }
                *px = shade(count, full_area(rows_here, dx));
            }
        }
    }
}

/// `I[βr][βc]`: pairs (x, y) in [0, 2^level)^2 where `ml - x` ends with
/// borrow βr, `nl - y` with borrow βc, and `x ^ (ml - x)` equals
/// `y ^ (nl - y)` in the low `level` bits. A digit recursion whose state is
/// the two borrows, so its final state is exactly the pair of classes.
fn low_intersections(ml: u64, nl: u64, level: u32) -> [[u128; 2]; 2] {
    let mut ways = [0u128; 4];
    ways[0] = 1;
    for bit in 0..level {
        let (mb, nb) = ((ml >> bit) & 1, (nl >> bit) & 1);
        let mut next = [0u128; 4];
        for (state, &w) in ways.iter().enumerate() {
            if w == 0 {
                continue;
            }
            let (ba, bc) = ((state & 1) as i64, ((state >> 1) & 1) as i64);
            for xb in 0..2i64 {
                let da = mb as i64 - xb - ba;
                let oa = da & 1;
                for yb in 0..2i64 {
                    let dc = nb as i64 - yb - bc;
                    let oc = dc & 1;
                    if xb ^ oa == yb ^ oc {
                        next[(da < 0) as usize | ((dc < 0) as usize) << 1] += w;
                    }
                }
            }
        }
        ways = next;
    }
    [[ways[0], ways[2]], [ways[1], ways[3]]]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stretch by rank: ends 0 and 255, equal shares (3/8 = 6/16) one
    /// weight, order kept however close the shares are (one cell in 2^106).
    #[test]
    fn stretched_weights_rank_the_shares_present() {
        assert_eq!(stretched_weights(&[]), None);
        assert_eq!(stretched_weights(&[(3, 8), (6, 16)]), None);
        let shares = [(1u128, 4u128), (3, 8), (0, 7), (6, 16), (3, 4)];
        assert_eq!(stretched_weights(&shares), Some(vec![85, 170, 0, 170, 255]));
        let area = 1u128 << 106;
        let base = area / 3;
        let deep = [
            (base + 1, area),
            (base, area),
            (base * 2, area - 7),
            (base, area),
        ];
        assert_eq!(stretched_weights(&deep), Some(vec![128, 0, 255, 0]));
    }
    use proptest::prelude::*;

    fn brute(m: u64, n: u64, rows: std::ops::Range<u64>, cols: std::ops::Range<u64>) -> u128 {
        let mut count = 0;
        for a in rows.start..rows.end.min(m) {
            for c in cols.start..cols.end.min(n) {
                if crate::pattern::is_p(m, n, a + 1, c + 1) {
                    count += 1;
                }
            }
        }
        count
    }

    #[test]
    fn whole_boards_count_g_of_m() {
        // g(m) = |P(m,m)|: 1, 4, 5, 16, 9, 20, 21, 64, ... from the paper.
        let g = [
            1u128, 4, 5, 16, 9, 20, 21, 64, 25, 36, 29, 80, 41, 84, 85, 256,
        ];
        for (m, &want) in (1..=16u64).zip(g.iter()) {
            assert_eq!(count_p(m, m, 0..m, 0..m), want, "g({m})");
        }
        // g(2^k) = 4^k at the explorer's largest board.
        assert_eq!(
            count_p(1 << 62, 1 << 62, 0..1 << 62, 0..1 << 62),
            1u128 << 124
        );
    }

    #[test]
    fn every_block_of_small_boards_matches_brute_force() {
        for m in 1..=13u64 {
            for n in [1u64, 2, 5, 8, 13] {
                for level in 0..=4u32 {
                    let plan = TilePlan::new(m, n, level).unwrap();
                    let side = 1u64 << level;
                    for q in 0..=plan.row_blocks() {
                        for p in 0..=plan.col_blocks() {
                            let rows = q * side..(q + 1) * side;
                            let cols = p * side..(p + 1) * side;
                            let want = brute(m, n, rows.clone(), cols.clone());
                            assert_eq!(
                                plan.count(q, p),
                                want,
                                "C({m},{n}) level {level} block ({q},{p})"
                            );
                            assert_eq!(count_p(m, n, rows, cols), want);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn rendered_tiles_agree_with_the_block_counts() {
        for (m, n, level) in [
            (1000u64, 777u64, 1u32),
            (5000, 5000, 3),
            ((1 << 62) - 3, (1 << 61) + 5, 54),
        ] {
            let plan = TilePlan::new(m, n, level).unwrap();
            let mut out = vec![0u8; TILE * TILE];
            plan.render(0, 0, TileMode::Density, &mut out);
            for (i, &px) in out.iter().enumerate() {
                let (q, p) = ((i / TILE) as u64, (i % TILE) as u64);
                assert_eq!(
                    px,
                    shade(plan.count(q, p), plan.area(q, p)),
                    "C({m},{n}) pixel ({q},{p})"
                );
            }
        }
    }

    #[test]
    fn nim_sum_bits_are_zero_plus_one_exactly_on_p_cells() {
        let plan = TilePlan::new(37, 41, 0).unwrap();
        let mut out = vec![0u8; TILE * TILE];
        plan.render(0, 0, TileMode::NimSumBits, &mut out);
        for a in 0..40u64 {
            for c in 0..45u64 {
                let px = out[a as usize * TILE + c as usize];
                if a >= 37 || c >= 41 {
                    assert_eq!(px, 0);
                } else {
                    assert_eq!(px == 1, crate::pattern::is_p(37, 41, a + 1, c + 1));
                }
            }
        }
    }

    #[test]
    fn out_of_range_boards_and_levels_are_refused() {
        assert!(TilePlan::new(0, 5, 0)
            .unwrap_err()
            .to_string()
            .contains("m = 0"));
        assert!(TilePlan::new(5, (1 << 62) + 1, 0).is_err());
        assert!(TilePlan::new(5, 5, 63).is_err());
    }

    proptest! {
        #[test]
        fn shades_are_the_exact_share_in_256ths(area in 2u128..=(1u128 << 124), count_seed in any::<u128>()) {
            let count = 1 + count_seed % (area - 1);
            let exact = (num_bigint::BigUint::from(count) * 256u32) / num_bigint::BigUint::from(area);
            let want = (2 + u128::try_from(exact).unwrap()).min(254) as u8;
            prop_assert_eq!(shade(count, area), want);
            let pow = 1u128 << (area.leading_zeros() % 124);
            let c = 1 + count_seed % (pow.max(2) - 1);
            let exact = (num_bigint::BigUint::from(c) * 256u32) / num_bigint::BigUint::from(pow.max(2));
            prop_assert_eq!(shade(c, pow.max(2)), (2 + u128::try_from(exact).unwrap()).min(254) as u8);
        }

        #[test]
        fn random_rectangles_match_brute_force(
            m in 1u64..200, n in 1u64..200,
            r0 in 0u64..210, rl in 0u64..60, c0 in 0u64..210, cl in 0u64..60,
        ) {
            let (rows, cols) = (r0..r0 + rl, c0..c0 + cl);
            prop_assert_eq!(count_p(m, n, rows.clone(), cols.clone()), brute(m, n, rows, cols));
        }

        #[test]
        fn aligned_blocks_match_the_general_count_on_huge_boards(
            m in 1u64..=MAX_SIDE, n in 1u64..=MAX_SIDE, level in 0u32..=62,
            qs in any::<u64>(), ps in any::<u64>(),
        ) {
            let plan = TilePlan::new(m, n, level).unwrap();
            let (q, p) = (qs % (plan.row_blocks() + 1), ps % (plan.col_blocks() + 1));
            let side = 1u128 << level;
            let clip = |v: u128| v.min(u64::MAX as u128) as u64;
            let rows = clip(q as u128 * side)..clip((q as u128 + 1) * side);
            let cols = clip(p as u128 * side)..clip((p as u128 + 1) * side);
            prop_assert_eq!(plan.count(q, p), count_p(m, n, rows, cols));
        }

        #[test]
        fn small_blocks_of_huge_boards_match_brute_force(
            m in 1u64..=MAX_SIDE, n in 1u64..=MAX_SIDE, level in 0u32..=3,
            qs in any::<u64>(), ps in any::<u64>(),
        ) {
            let plan = TilePlan::new(m, n, level).unwrap();
            let (q, p) = (qs % plan.row_blocks(), ps % plan.col_blocks());
            let side = 1u64 << level;
            let rows = q * side..(q + 1) * side;
            let cols = p * side..(p + 1) * side;
            prop_assert_eq!(plan.count(q, p), brute(m, n, rows, cols));
        }
    }
}

/// Tile speed in the test profile (opt-level 2); the criterion bench is
/// `cargo bench --bench tiles`. `cargo test -p nimscape-model tile_speed -- --ignored --nocapture`
#[cfg(test)]
mod speed {
    use super::*;

    #[test]
    #[ignore = "timing: run on demand"]
    fn tile_speed() {
        let mut out = vec![0u8; TILE * TILE];
        for (m, level) in [
            (1_000_003u64, 0u32),
            ((1 << 62) - 1, 54),
            ((1 << 62) - 1, 0),
            ((1 << 61) + 12345, 30),
        ] {
            let start = std::time::Instant::now();
            let rounds = 200u32;
            for _ in 0..rounds {
                let plan = TilePlan::new(m, m, level).unwrap();
                let mid = plan.row_blocks() / 2 / TILE as u64;
                plan.render(mid, mid, TileMode::Density, &mut out);
            }
            let each = start.elapsed() / rounds;
            println!(
                "tile m={m} level={level}: {:.3} ms",
                each.as_secs_f64() * 1e3
            );
            assert!(
                out.iter().any(|&b| b != 0),
                "m={m} level={level}: {:?}",
                &out[..8]
            );
        }
    }
}
