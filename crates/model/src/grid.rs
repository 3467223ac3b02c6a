//! Bit-packed boolean grids: the common currency of every P-position set.
//!
//! A [`BitGrid`] stores `rows x cols` cells, 64 per machine word, each row
//! starting on a fresh word so rows can be filled in parallel and compared
//! or streamed as whole words. Bit `c % 64` of word `c / 64` is column `c`.
//! Coordinates are 0-based here; the mathematics (and the CSV output) is
//! 1-based, and the callers translate.

use rayon::prelude::*;

/// A `rows x cols` grid of booleans, bit-packed row by row.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct BitGrid {
    rows: usize,
    cols: usize,
    words_per_row: usize,
    words: Vec<u64>,
}

impl std::fmt::Debug for BitGrid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "BitGrid {}x{}", self.rows, self.cols)?;
        for r in 0..self.rows.min(64) {
            let line: String = (0..self.cols.min(128))
                .map(|c| if self.get(r, c) { '#' } else { '.' })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

impl BitGrid {
    /// An all-false grid.
    pub fn new(rows: usize, cols: usize) -> Self {
        let words_per_row = cols.div_ceil(64);
        BitGrid {
            rows,
            cols,
            words_per_row,
            words: vec![0; rows * words_per_row],
        }
    }

    /// Builds a grid by evaluating `cell(row, col)` for every cell, rows in parallel.
    pub fn from_fn(rows: usize, cols: usize, cell: impl Fn(usize, usize) -> bool + Sync) -> Self {
        let mut grid = BitGrid::new(rows, cols);
        grid.fill_rows(|row, words| {
            for col in 0..cols {
                if cell(row, col) {
                    words[col / 64] |= 1 << (col % 64);
                }
            }
        });
        grid
    }

    /// Lets `fill(row, words)` write each row's words (initially zero), rows in parallel.
    pub fn fill_rows(&mut self, fill: impl Fn(usize, &mut [u64]) + Sync) {
        let words_per_row = self.words_per_row;
        if words_per_row == 0 {
            return;
        }
        self.words
            .par_chunks_mut(words_per_row)
            .enumerate()
            .for_each(|(row, words)| fill(row, words));
        self.clear_padding();
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Words per row (`ceil(cols / 64)`).
    pub fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    /// The cell at 0-based `(row, col)`.
    ///
    /// # Panics
    /// If the coordinates are outside the grid.
    pub fn get(&self, row: usize, col: usize) -> bool {
        assert!(
            row < self.rows && col < self.cols,
            "cell ({row}, {col}) outside {}x{}",
            self.rows,
            self.cols
        );
        self.words[row * self.words_per_row + col / 64] >> (col % 64) & 1 == 1
    }

    /// Sets the cell at 0-based `(row, col)`.
    ///
    /// # Panics
    /// If the coordinates are outside the grid.
    pub fn set(&mut self, row: usize, col: usize, value: bool) {
        assert!(
            row < self.rows && col < self.cols,
            "cell ({row}, {col}) outside {}x{}",
            self.rows,
            self.cols
        );
        let word = &mut self.words[row * self.words_per_row + col / 64];
        let bit = 1u64 << (col % 64);
        if value {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }

    /// The packed words of one row.
    pub fn row_words(&self, row: usize) -> &[u64] {
        &self.words[row * self.words_per_row..(row + 1) * self.words_per_row]
    }

    /// The packed words of one row, mutable. Bits past `cols` must stay zero.
    pub fn row_words_mut(&mut self, row: usize) -> &mut [u64] {
        &mut self.words[row * self.words_per_row..(row + 1) * self.words_per_row]
    }

    /// All words, row after row.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Number of true cells.
    pub fn count_ones(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// One byte per cell, row-major: 1 for a true cell, 0 for a false one (the
    /// palette indices of a two-colour cell layer).
    pub fn to_indices(&self) -> Vec<u8> {
        let mut indices = vec![0u8; self.rows * self.cols];
        for (r, c) in self.ones() {
            indices[r * self.cols + c] = 1;
        }
        indices
    }

    /// The true cells as 0-based `(row, col)`, row-major.
    pub fn ones(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.rows).flat_map(move |row| {
            self.row_words(row)
                .iter()
                .enumerate()
                .flat_map(move |(w, &word)| {
                    let mut bits = word;
                    std::iter::from_fn(move || {
                        if bits == 0 {
                            return None;
                        }
                        let bit = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        Some((row, w * 64 + bit))
                    })
                })
        })
    }

    /// The sub-grid of `height x width` cells whose top-left cell is `(row, col)`.
    pub fn crop(&self, row: usize, col: usize, height: usize, width: usize) -> BitGrid {
        assert!(
            row + height <= self.rows && col + width <= self.cols,
            "crop outside the grid"
        );
        BitGrid::from_fn(height, width, |r, c| self.get(row + r, col + c))
    }

    /// Each cell becomes a `factor x factor` block.
    pub fn upscale(&self, factor: usize) -> BitGrid {
        BitGrid::from_fn(self.rows * factor, self.cols * factor, |r, c| {
            self.get(r / factor, c / factor)
        })
    }

    /// True when no cell is set.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The grid mirrored top to bottom.
    pub fn flip_rows(&self) -> BitGrid {
        BitGrid::from_fn(self.rows, self.cols, |r, c| self.get(self.rows - 1 - r, c))
    }

    /// The grid mirrored left to right.
    pub fn flip_cols(&self) -> BitGrid {
        BitGrid::from_fn(self.rows, self.cols, |r, c| self.get(r, self.cols - 1 - c))
    }

    /// The grid flipped about its main diagonal.
    pub fn transpose(&self) -> BitGrid {
        BitGrid::from_fn(self.cols, self.rows, |r, c| self.get(c, r))
    }

    fn clear_padding(&mut self) {
        let tail = self.cols % 64;
        if tail == 0 || self.words_per_row == 0 {
            return;
        }
        let mask = (1u64 << tail) - 1;
        let last = self.words_per_row - 1;
        for row in self.words.chunks_mut(self.words_per_row) {
            row[last] &= mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_and_count_across_word_boundaries() {
        let mut grid = BitGrid::new(3, 130);
        for &(r, c) in &[(0, 0), (1, 63), (1, 64), (2, 129)] {
            grid.set(r, c, true);
        }
        assert_eq!(grid.count_ones(), 4);
        assert!(grid.get(1, 64) && !grid.get(1, 65));
        assert_eq!(
            grid.ones().collect::<Vec<_>>(),
            vec![(0, 0), (1, 63), (1, 64), (2, 129)]
        );
        grid.set(1, 63, false);
        assert_eq!(grid.count_ones(), 3);
    }

    #[test]
    fn from_fn_clears_bits_past_the_last_column() {
        let mut grid = BitGrid::new(2, 70);
        grid.fill_rows(|_, words| words.iter_mut().for_each(|w| *w = u64::MAX));
        assert_eq!(grid.count_ones(), 140);
    }

    #[test]
    fn flips_transpose_upscale_crop() {
        let grid = BitGrid::from_fn(3, 5, |r, c| r == 0 && c == 1);
        assert!(grid.flip_rows().get(2, 1));
        assert!(grid.flip_cols().get(0, 3));
        assert!(grid.transpose().get(1, 0));
        let big = grid.upscale(2);
        assert_eq!(big.count_ones(), 4);
        assert!(big.get(1, 3));
        assert_eq!(big.crop(0, 2, 2, 2).count_ones(), 4);
    }
}
