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

use crate::{BitGrid, Control, Error, Result};

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
        return Err(Error::invalid_parameter(
            "m",
            format!("board {m} x {n} is empty: `m` and `n` must be at least 1"),
        ));
    }
    const MAX_SIDE: u64 = 1 << 31;
    if m > MAX_SIDE || n > MAX_SIDE {
        return Err(Error::invalid_request(format!(
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

/// Runs of equal cells (P or not) along the rows of C(m,n), summed over the
/// rows, without the grid: a row's P-cells are the columns of its signature,
/// so a signature's run count is found once from its sorted columns, in
/// O(n log n + m) in all. What drawing the board as SVG or PDF costs (one
/// rectangle per run at most), known before the model is computed.
pub fn row_runs(m: u64, n: u64) -> u64 {
    if m == 0 || n == 0 {
        return 0;
    }
    let index = SignatureIndex::new(n);
    // (signature, runs of a row with that signature), by signature.
    let runs_of: Vec<(u32, u64)> = index
        .sorted
        .chunk_by(|a, b| a.0 == b.0)
        .map(|group| {
            let breaks = group.windows(2).filter(|w| w[1].1 != w[0].1 + 1).count() as u64;
            let blocks = breaks + 1;
            let at_start = u64::from(group[0].1 == 0);
            let at_end = u64::from(u64::from(group[group.len() - 1].1) == n - 1);
            // Each block of P-cells starts and ends a run, except at the row's ends.
            (group[0].0, 2 * blocks - at_start - at_end + 1)
        })
        .collect();
    (1..=m)
        .map(|i| {
            let sig = signature(m, i);
            u32::try_from(sig)
                .ok()
                .and_then(|sig| {
                    runs_of
                        .binary_search_by_key(&sig, |&(s, _)| s)
                        .ok()
                        .map(|k| runs_of[k].1)
                })
                // No column shares the row's signature: one run of non-P cells.
                .unwrap_or(1)
        })
        .fold(0u64, u64::saturating_add)
}

/// The bytes of a [`SignatureIndex`] of a side of length `n`: 8 per column.
pub fn signature_index_bytes(n: u64) -> u64 {
    n.saturating_mul(8)
}

/// The bytes [`p_grid`] allocates for C(m,n): the m x n bit grid, the column
/// index, and the ready rows of widely shared signatures (at most n / words of
/// them, a row's words each: 8 bytes per column again).
/// Saturating, so that any side is refused rather than wrapped.
pub fn p_grid_bytes(m: u64, n: u64) -> u64 {
    m.saturating_mul(n.div_ceil(64))
        .saturating_mul(8)
        .saturating_add(signature_index_bytes(n).saturating_mul(2))
}

/// Rows between two reports of progress in the parallel row loops: the shared counter
/// is touched once per 64 rows, not per row.
const ROWS_PER_REPORT: usize = 64;

/// The P-cells of C(m,n) as an m x n grid (row i-1, column j-1 for cell (i,j)).
///
/// Under `control`: progress in rows, checked per row (a row is a few
/// words to a few thousand, never more than microseconds).
pub fn p_grid(m: usize, n: usize, control: &Control) -> Result<BitGrid> {
    let index = SignatureIndex::new(n as u64);
    let mut grid = BitGrid::new(m, n);
    // A signature shared by many columns (by all of them when n is a power of
    // two, where every cell is P) is cheaper as a ready row of words, copied,
    // than as its bits set one by one. At most n / threshold such rows.
    let threshold = grid.words_per_row().max(64);
    let mut ready: Vec<(u32, Vec<u64>)> = Vec::new();
    for run in index.sorted.chunk_by(|a, b| a.0 == b.0) {
        if run.len() > threshold {
            let mut words = vec![0u64; grid.words_per_row()];
            for &(_, col) in run {
                words[col as usize / 64] |= 1 << (col % 64);
            }
            ready.push((run[0].0, words));
        }
    }
    control.add_total(m as u64);
    grid.fill_rows(|row, words| {
        // A cancelled grid is dropped below: the rows it skips do not matter.
        if control.is_cancelled() {
            return;
        }
        if (row + 1) % ROWS_PER_REPORT == 0 {
            control.advance(ROWS_PER_REPORT as u64);
        } else if row + 1 == m {
            control.advance(((row + 1) % ROWS_PER_REPORT) as u64);
        }
        let sig = signature(m as u64, row as u64 + 1);
        if let Some((_, row_words)) = ready.iter().find(|(s, _)| u64::from(*s) == sig) {
            words.copy_from_slice(row_words);
            return;
        }
        for col in index.columns_with(sig) {
            words[col / 64] |= 1 << (col % 64);
        }
    });
    control.check()?;
    Ok(grid)
}

/// The number of P-cells in row `row` (0-based) of C(m,n), in O(1): with the
/// signature s of the row, the P-columns are the 2^popcount(s) solutions described at
/// [`PRow`], or none.
pub fn row_count(m: u64, n: u64, row: u64) -> u64 {
    PRow::new(m, n, row).count()
}

/// The number of P-cells of C(m,n), in O(m).
///
/// Under `control`: progress in rows, checked every 2^20 rows (a row
/// is a few ns: m may be 2^31).
pub fn count_cells(m: u64, n: u64, control: &Control) -> Result<u64> {
    const ROWS: u64 = 1 << 20;
    control.add_total(m);
    let mut sum = 0u64;
    // Whole batches of rows between checks keep the row loop itself as it was.
    for start in (0..m).step_by(ROWS as usize) {
        control.check()?;
        let end = (start + ROWS).min(m);
        sum = (start..end).fold(sum, |sum, row| sum.saturating_add(row_count(m, n, row)));
        control.advance(end - start);
    }
    Ok(sum)
}

/// The P-columns of one row of C(m,n), packed 64 columns to a word: the one
/// kernel behind bilevel image rows ([`write_bilevel_row`]) and the automaton
/// check (`automaton::check`).
///
/// No search: the P-columns of a row with signature s are the columns j whose
/// a = j-1 and b = n-j satisfy a + b = n-1 and a ^ b = s. Since
/// a + b = (a ^ b) + 2(a & b), that fixes c = a & b = (n-1-s)/2 (which must be a
/// whole number disjoint from s), and the solutions are exactly a = c | t for every
/// subset t of s's bits (each is a column, as c + s <= n-1). The low six bits of s
/// pick bits inside a 64-column word, the rest pick words, so a row costs one word
/// per P-word, not one step per P-cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PRow {
    /// The bits free to be 0 or 1: the row's signature s.
    free: u64,
    /// The bits fixed to 1: c = (n-1-s)/2.
    fixed: u64,
    /// The P-bits of every non-empty word (bit k = column 64w + k); 0 when the row
    /// has no P-cell.
    low: u64,
}

impl PRow {
    /// Row `row` (0-based) of C(m,n).
    pub fn new(m: u64, n: u64, row: u64) -> PRow {
        let last = n - 1;
        let sig = signature(m, row + 1);
        if sig > last || (last - sig) % 2 == 1 || ((last - sig) / 2) & sig != 0 {
            return PRow {
                free: 0,
                fixed: 0,
                low: 0,
            };
        }
        let fixed = (last - sig) / 2;
        // All x < 64 with x & !s == c & 63: start at c's low bits and let each
        // free bit of s below 64 double the set.
        let mut low = 1u64 << (fixed & 63);
        for k in 0..6 {
            if sig >> k & 1 == 1 {
                low |= low << (1 << k);
            }
        }
        PRow {
            free: sig,
            fixed,
            low,
        }
    }

    /// The number of P-cells in the row.
    pub fn count(&self) -> u64 {
        if self.low == 0 {
            0
        } else {
            1 << self.free.count_ones()
        }
    }

    /// The P-bits of columns 64w..64w+63 (bit k = column 64w + k, 0-based).
    pub fn word(&self, w: usize) -> u64 {
        let base = (w as u64) << 6;
        if (base ^ self.fixed) & !self.free & !63 == 0 {
            self.low
        } else {
            0
        }
    }

    /// Calls `f(w, bits)` for every non-empty word, in increasing `w`.
    pub fn for_each_word(&self, mut f: impl FnMut(usize, u64)) {
        if self.low == 0 {
            return;
        }
        let (base, high) = (self.fixed & !63, self.free & !63);
        // Every subset of the high signature bits names one word; this walk
        // visits the subsets in increasing order.
        let mut t = 0u64;
        loop {
            f(((base | t) >> 6) as usize, self.low);
            if t == high {
                break;
            }
            t = t.wrapping_sub(high) & high;
        }
    }
}

/// Writes row `row` (0-based) of C(m,n) as 1-bit grayscale pixels, most significant
/// bit first, P-cells black (bit 0) and all other cells white (bit 1); `out` holds at
/// least ceil(n/8) bytes. Only the bytes holding P-cells are touched after the fill.
pub fn write_bilevel_row(m: u64, n: u64, row: usize, out: &mut [u8]) {
    out.fill(0xFF);
    PRow::new(m, n, row as u64).for_each_word(|w, bits| {
        for (k, byte) in bits.to_le_bytes().into_iter().enumerate() {
            if byte != 0 {
                // Columns run from the most significant bit in an image row.
                out[w * 8 + k] &= !byte.reverse_bits();
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_runs_match_the_grid() {
        for (m, n) in [
            (1, 1),
            (1, 7),
            (5, 1),
            (11, 11),
            (16, 16),
            (17, 9),
            (63, 64),
            (100, 37),
            (255, 255),
        ] {
            let grid = p_grid(m, n, &crate::Control::default()).unwrap();
            let mut runs = 0u64;
            for r in 0..m {
                runs += 1
                    + (1..n)
                        .filter(|&c| grid.get(r, c) != grid.get(r, c - 1))
                        .count() as u64;
            }
            assert_eq!(row_runs(m as u64, n as u64), runs, "{m} x {n}");
        }
    }

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
            let grid = p_grid(m, n, &crate::Control::default()).unwrap();
            for row in 0..m {
                let direct = grid.ones().filter(|&(r, _)| r == row).count() as u64;
                assert_eq!(
                    row_count(m as u64, n as u64, row as u64),
                    direct,
                    "{m}x{n} row {row}"
                );
            }
            assert_eq!(
                count_cells(m as u64, n as u64, &crate::Control::default()).unwrap(),
                grid.ones().count() as u64
            );
        }
    }

    #[test]
    fn grid_matches_the_criterion_cell_by_cell() {
        // The larger boards have signatures shared by more than 64 columns,
        // whose rows are copied whole.
        for (m, n) in [
            (1, 1),
            (3, 3),
            (11, 11),
            (7, 12),
            (70, 65),
            (256, 256),
            (300, 255),
            (520, 513),
        ] {
            let grid = p_grid(m, n, &crate::Control::default()).unwrap();
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
            let grid = p_grid(m, n, &crate::Control::default()).unwrap();
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

    /// The kernel, word by word, against the four-heap criterion cell by cell.
    fn assert_row_matches_criterion(m: u64, n: u64, row: u64) {
        let p = PRow::new(m, n, row);
        let words = n.div_ceil(64) as usize;
        let mut listed = Vec::new();
        p.for_each_word(|w, bits| listed.push((w, bits)));
        let mut expected = Vec::new();
        let mut ones = 0;
        // One word past the end too: it must be empty.
        for w in 0..=words {
            let bits = p.word(w);
            for k in 0..64 {
                let col = w as u64 * 64 + k;
                let want = col < n && {
                    let (i, j) = (row + 1, col + 1);
                    (i - 1) ^ (j - 1) ^ (m - i) ^ (n - j) == 0
                };
                assert_eq!(
                    bits >> k & 1 == 1,
                    want,
                    "C({m},{n}) cell ({i}, {j})",
                    i = row + 1,
                    j = col + 1
                );
            }
            ones += u64::from(bits.count_ones());
            if bits != 0 {
                expected.push((w, bits));
            }
        }
        assert_eq!(
            listed, expected,
            "C({m},{n}) row {row}: the non-empty words"
        );
        assert_eq!(p.count(), ones, "C({m},{n}) row {row}: the count");
    }

    #[test]
    fn p_row_kernel_matches_the_criterion_cell_by_cell() {
        for (m, n) in [
            (1, 1),
            (2, 1),
            (1, 7),
            (11, 11),
            (7, 12),
            (64, 64),
            (65, 63),
            (100, 37),
            (37, 300),
            (255, 256),
            (513, 513),
        ] {
            for row in 0..m {
                assert_row_matches_criterion(m, n, row);
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn p_row_kernel_matches_the_criterion_on_large_boards(
            m in 1u64..5000,
            n in 1u64..5000,
            row in 0u64..5000,
        ) {
            assert_row_matches_criterion(m, n, row % m);
        }
    }

    #[test]
    fn empty_boards_are_refused_with_the_flag_named() {
        let err = check_board(0, 3).unwrap_err().to_string();
        assert!(err.contains("`m`"), "{err}");
    }
}
