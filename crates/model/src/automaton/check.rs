//! Compares automaton frames with the P-positions of C(n,n), word by word.
//!
//! Cell (i,j) of the n x n bar is a P-position iff
//! `(i-1) ^ (j-1) ^ (n-i) ^ (n-j) == 0`. For a fixed row put `x = j-1`,
//! `m = n-1`, `c = (i-1) ^ (n-i)` and `d = (i-1) & (n-i)`; the condition is
//! `x ^ (m-x) == c`. Since `x + (m-x) = (x ^ (m-x)) + 2 (x & (m-x))`, the
//! solutions are exactly the `x` with `x & !c == d`: the bits of `d` fixed,
//! the bits of `c` free (and `d & c == 0`, `d + c <= m`, so every such `x` is
//! a column of the board). A whole 64-column word of expected bits is thus one
//! comparison on the high bits and one of 64 precomputable low patterns, so a
//! frame is checked in the time it takes to read it. That kernel is
//! [`crate::pattern::PRow`], the same one that writes the square figures' image rows.

use rayon::prelude::*;

use crate::pattern::PRow;
use crate::{BitGrid, Control, Error, Result};

/// A cell whose parity disagrees with P(n,n).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The frame n.
    pub frame: usize,
    /// The 1-based row i.
    pub i: usize,
    /// The 1-based column j.
    pub j: usize,
    /// Whether the automaton made the cell odd (so it is odd but not P, or else P but even).
    pub odd: bool,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (is, should) = if self.odd {
            ("odd", "not a P-position")
        } else {
            ("even", "a P-position")
        };
        write!(
            f,
            "frame {}: cell ({}, {}) is {is} but is {should} of C({}, {})",
            self.frame, self.i, self.j, self.frame, self.frame
        )
    }
}

/// The expected words of P(n,n) in 0-based `row`, written into `out` (ceil(n/64) words).
pub fn p_row_words(n: usize, row: usize, out: &mut [u64]) {
    out.fill(0);
    PRow::new(n as u64, n as u64, row as u64).for_each_word(|w, bits| {
        if let Some(word) = out.get_mut(w) {
            *word = bits;
        }
    });
}

/// The first cell (row-major) of an n x n frame given by its packed rows that
/// differs from P(n,n). Rows are checked in parallel; the answer does not depend
/// on the thread count. Once `control` is cancelled the remaining rows are skipped
/// (the answer is then meaningless: the caller checks `control` after).
pub(crate) fn first_mismatch_rows<'a>(
    n: usize,
    row_words: impl Fn(usize) -> &'a [u64] + Sync,
    control: &Control,
) -> Option<Mismatch> {
    let words = n.div_ceil(64).max(1);
    (0..n)
        .into_par_iter()
        .with_min_len((4096 / words).max(1))
        .find_map_first(|row| {
            if control.is_cancelled() {
                return None;
            }
            let mask = PRow::new(n as u64, n as u64, row as u64);
            row_words(row).iter().enumerate().find_map(|(w, &got)| {
                let diff = got ^ mask.word(w);
                (diff != 0).then(|| {
                    let col = w * 64 + diff.trailing_zeros() as usize;
                    Mismatch {
                        frame: n,
                        i: row + 1,
                        j: col + 1,
                        odd: got >> (col % 64) & 1 == 1,
                    }
                })
            })
        })
}

/// The first cell of frame `n`, given as an n x n grid of odd cells, that is not
/// as P(n,n) says. Works for parity from any source (mod 2, even moduli, exact).
pub fn check_grid(grid: &BitGrid) -> Result<Option<Mismatch>> {
    if grid.rows() != grid.cols() {
        return Err(Error::invalid_request(format!(
            "an automaton frame is square, but this grid is {} x {}",
            grid.rows(),
            grid.cols()
        )));
    }
    Ok(first_mismatch_rows(
        grid.rows(),
        |row| grid.row_words(row),
        &Control::default(),
    ))
}
