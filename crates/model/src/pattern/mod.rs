//! The square chocolate game C(m,n) and its P-position pattern (SPEC §1).
//!
//! An m x n bar with the poisoned cell at (i,j) is four Nim heaps
//! `(i-1, j-1, m-i, n-j)`, so (i,j) is a P-position iff
//! `(i-1) ^ (m-i) == (j-1) ^ (n-j)`. That one idea makes huge boards cheap:
//! every row i has a *signature* `(i-1) ^ (m-i)`, every column j one too,
//! and the P-cells of a row are the columns that share its signature. Columns
//! are bucketed by signature once; a row is then a handful of set bits.

pub mod count;
pub mod decompose;
pub mod tiles;

use crate::{BitGrid, Error, Result};

/// The signature `(k-1) ^ (len-k)` of row or column `k` (1-based) on a side of length `len`.
pub fn signature(len: u64, k: u64) -> u64 {
    (k - 1) ^ (len - k)
}

/// True when cell (i,j) (1-based) of the m x n board is a P-position.
pub fn is_p(m: u64, n: u64, i: u64, j: u64) -> bool {
    signature(m, i) == signature(n, j)
}

/// Validates a board size: both sides at least 1 and small enough to index.
pub fn check_board(m: u64, n: u64) -> Result<()> {
    if m == 0 || n == 0 {
        return Err(Error::invalid(format!(
            "board {m} x {n} is empty: --m and --n must be at least 1"
        )));
    }
    const MAX_SIDE: u64 = 1 << 31;
    if m > MAX_SIDE || n > MAX_SIDE {
        return Err(Error::invalid(format!(
            "board {m} x {n} is too large: each side must be at most {MAX_SIDE}"
        )));
    }
    Ok(())
}

/// The columns of a side of length `n`, sorted by signature, so that the
/// columns sharing a row's signature are one binary search away.
#[derive(Debug, Clone)]
pub struct SignatureIndex {
    sorted: Vec<(u32, u32)>,
}

impl SignatureIndex {
    /// Buckets the columns 1..=n by signature.
    pub fn new(n: u64) -> Self {
        let mut sorted: Vec<(u32, u32)> = (1..=n)
            .map(|j| (signature(n, j) as u32, (j - 1) as u32))
            .collect();
        sorted.sort_unstable();
        SignatureIndex { sorted }
    }

    /// The 0-based columns whose signature is `sig`, in increasing order.
    pub fn columns_with(&self, sig: u64) -> impl Iterator<Item = usize> + '_ {
        let sig = sig as u32;
        let start = self.sorted.partition_point(|&(s, _)| s < sig);
        self.sorted[start..]
            .iter()
            .take_while(move |&&(s, _)| s == sig)
            .map(|&(_, j)| j as usize)
    }
}

/// The P-cells of C(m,n) as an m x n grid (row i-1, column j-1 for cell (i,j)).
pub fn p_grid(m: usize, n: usize) -> BitGrid {
    let index = SignatureIndex::new(n as u64);
    let mut grid = BitGrid::new(m, n);
    grid.fill_rows(|row, words| {
        for col in index.columns_with(signature(m as u64, row as u64 + 1)) {
            words[col / 64] |= 1 << (col % 64);
        }
    });
    grid
}

/// The number of P-cells in row `row` (0-based) of C(m,n), in O(1): with the
/// signature s of the row, the P-columns are the 2^popcount(s) solutions described at
/// [`write_bilevel_row`], or none.
pub fn row_count(m: u64, n: u64, row: u64) -> u64 {
    let last = n - 1;
    let sig = signature(m, row + 1);
    if sig > last || (last - sig) % 2 == 1 || ((last - sig) / 2) & sig != 0 {
        return 0;
    }
    1 << sig.count_ones()
}

/// The number of P-cells of C(m,n), in O(m).
pub fn count_cells(m: u64, n: u64) -> u64 {
    (0..m).fold(0u64, |sum, row| sum.saturating_add(row_count(m, n, row)))
}

/// Writes row `row` (0-based) of C(m,n) as 1-bit grayscale pixels, most significant
/// bit first, P-cells black (bit 0) and all other cells white (bit 1).
///
/// No search: the P-columns of a row with signature s are the columns j whose
/// a = j-1 and b = n-j satisfy a + b = n-1 and a ^ b = s. Since
/// a + b = (a ^ b) + 2(a & b), that fixes c = a & b = (n-1-s)/2 (which must be a
/// whole number disjoint from s), and the solutions are exactly a = c | t for every
/// subset t of s's bits. The low three bits of s pick bits inside a byte, the rest
/// pick bytes, so a row costs one byte write per P-byte, not one per P-cell.
pub fn write_bilevel_row(m: u64, n: u64, row: usize, out: &mut [u8]) {
    out.fill(0xFF);
    let last = n - 1;
    let sig = signature(m, row as u64 + 1);
    if sig > last || (last - sig) % 2 == 1 {
        return;
    }
    let common = (last - sig) / 2;
    if common & sig != 0 {
        return;
    }
    let (sig_low, sig_high) = (sig & 7, sig & !7);
    let (common_low, common_high) = (common & 7, common & !7);
    // The P-bits inside one byte: every subset of the low signature bits.
    let mut byte_mask = 0u8;
    let mut low = 0u64;
    loop {
        byte_mask |= 0x80 >> (common_low | low);
        if low == sig_low {
            break;
        }
        low = (low.wrapping_sub(sig_low)) & sig_low;
    }
    // Every subset of the high signature bits names one byte.
    let mut high = 0u64;
    loop {
        out[((common_high | high) >> 3) as usize] &= !byte_mask;
        if high == sig_high {
            break;
        }
        high = (high.wrapping_sub(sig_high)) & sig_high;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_counts_match_the_grid() {
        for (m, n) in [
            (1, 1),
            (3, 3),
            (11, 11),
            (7, 12),
            (70, 65),
            (64, 64),
            (33, 100),
        ] {
            let grid = p_grid(m, n);
            for row in 0..m {
                let direct = grid.ones().filter(|&(r, _)| r == row).count() as u64;
                assert_eq!(
                    row_count(m as u64, n as u64, row as u64),
                    direct,
                    "{m}x{n} row {row}"
                );
            }
            assert_eq!(count_cells(m as u64, n as u64), grid.ones().count() as u64);
        }
    }

    #[test]
    fn grid_matches_the_criterion_cell_by_cell() {
        for (m, n) in [(1, 1), (3, 3), (11, 11), (7, 12), (70, 65)] {
            let grid = p_grid(m, n);
            for i in 1..=m {
                for j in 1..=n {
                    let heaps = (i - 1) ^ (j - 1) ^ (m - i) ^ (n - j);
                    assert_eq!(
                        grid.get(i - 1, j - 1),
                        heaps == 0,
                        "C({m},{n}) cell ({i},{j})"
                    );
                }
            }
        }
    }

    #[test]
    fn bilevel_rows_agree_with_the_signature_buckets() {
        for (m, n) in [
            (13usize, 21usize),
            (64, 64),
            (100, 37),
            (37, 100),
            (129, 129),
            (256, 255),
        ] {
            let grid = p_grid(m, n);
            let mut row = vec![0u8; n.div_ceil(8)];
            for r in 0..m {
                write_bilevel_row(m as u64, n as u64, r, &mut row);
                for c in 0..n {
                    let black = row[c / 8] & (0x80 >> (c % 8)) == 0;
                    assert_eq!(
                        black,
                        grid.get(r, c),
                        "C({m},{n}) cell ({}, {})",
                        r + 1,
                        c + 1
                    );
                }
            }
        }
    }

    #[test]
    fn empty_boards_are_refused_with_the_flag_named() {
        let err = check_board(0, 3).unwrap_err().to_string();
        assert!(err.contains("--m"), "{err}");
    }
}
