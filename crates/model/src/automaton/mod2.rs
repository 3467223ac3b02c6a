//! The automaton mod 2, 64 cells per machine word.
//!
//! Mod 2 the recurrence is XOR, and a whole row of frame n+1 follows from
//! three rows of earlier frames with word operations only. Writing `cur` for
//! frame n, `prev` for frame n-1 and `<<` for a shift one column right:
//!
//! ```text
//! t = cur[i] ^ cur[i-1]
//! next[i] = t ^ (t << 1) ^ (prev[i-1] << 1) = t ^ ((t ^ prev[i-1]) << 1)
//! ```
//!
//! so one shift per word, carried across word boundaries. Three buffers sized
//! for the last frame rotate, so stepping allocates nothing.

use rayon::prelude::*;

use super::check::{first_mismatch_rows, Mismatch};
use super::check_frames;
use crate::error::check_memory;
use crate::{BitGrid, Control, Result};

/// Rows handed to one rayon task are chosen so a task has at least this many words:
/// small frames then run on one thread, and the result never depends on the split.
const WORDS_PER_TASK: usize = 4096;

/// Frames 1, 2, ... of the automaton mod 2, each computed from the two before.
///
/// Starts before frame 1; [`step`](Self::step) moves to the next frame.
#[derive(Clone, Debug)]
pub struct ParityStepper {
    frame: usize,
    last: usize,
    stride: usize,
    prev: Vec<u64>,
    cur: Vec<u64>,
    next: Vec<u64>,
}

impl ParityStepper {
    /// The bytes a stepper up to frame `last` needs: three `last x last` bit planes.
    pub fn memory_estimate(last: usize) -> u64 {
        // Saturating: a frame number near 2^62 must be refused, not wrap to a small estimate.
        (last as u64)
            .saturating_mul(last.div_ceil(64) as u64)
            .saturating_mul(24)
    }

    /// A stepper that can go up to frame `last`, refusing above `memory_limit` bytes.
    pub fn new(last: usize, memory_limit: u64) -> Result<Self> {
        check_frames(1, last)?;
        check_memory(
            || format!("the automaton mod 2 up to frame {last}"),
            Self::memory_estimate(last),
            memory_limit,
            "ask for fewer frames",
        )?;
        let stride = last.div_ceil(64);
        let plane = vec![0u64; last * stride];
        Ok(ParityStepper {
            frame: 0,
            last,
            stride,
            prev: plane.clone(),
            cur: plane.clone(),
            next: plane,
        })
    }

    /// The current frame number n (0 before the first [`step`](Self::step)).
    pub fn frame(&self) -> usize {
        self.frame
    }

    /// The last frame this stepper can reach.
    pub fn last(&self) -> usize {
        self.last
    }

    /// Moves to the next frame and returns its number, or `None` past the last frame.
    ///
    /// Under `control`: checked per row, advanced by one
    /// per frame (announcing the frames to come is the caller's). A cancelled step
    /// leaves the stepper on the frame it was on.
    pub fn step(&mut self, control: &Control) -> Result<Option<usize>> {
        control.check()?;
        if self.frame >= self.last {
            return Ok(None);
        }
        if self.frame == 0 {
            // a(1) is an initial condition, not a step of the recurrence.
            self.cur[0] = 1;
            self.frame = 1;
            control.advance(1);
            return Ok(Some(1));
        }
        let n = self.frame;
        let stride = self.stride;
        let rows = n + 1;
        let words = rows.div_ceil(64);
        let (cur, prev) = (&self.cur, &self.prev);
        let min_rows = (WORDS_PER_TASK / words).max(1);
        self.next[..rows * stride]
            .par_chunks_mut(stride)
            .with_min_len(min_rows)
            .enumerate()
            .for_each(|(r, out)| {
                // Rows left unwritten stay in the scratch plane, which is dropped below.
                if control.is_cancelled() {
                    return;
                }
                let here = &cur[r * stride..r * stride + words];
                let out = &mut out[..words];
                if r == 0 {
                    step_row(out, here, None, None);
                } else {
                    let above = (r - 1) * stride;
                    step_row(
                        out,
                        here,
                        Some(&cur[above..above + words]),
                        Some(&prev[above..above + words]),
                    );
                }
            });
        // A cancelled step has written only part of `next`: it is not swapped in,
        // and the step after a retry writes every word of it again.
        control.check()?;
        // The buffer that becomes `next` holds frame n-1, whose cells all lie
        // inside the region the following step overwrites, so no clearing is needed.
        std::mem::swap(&mut self.prev, &mut self.cur);
        std::mem::swap(&mut self.cur, &mut self.next);
        self.frame = rows;
        control.advance(1);
        Ok(Some(rows))
    }

    /// The packed words of 0-based `row` of the current n x n frame
    /// (`ceil(n / 64)` words, bit `c % 64` of word `c / 64` is column `c`).
    ///
    /// # Panics
    /// If `row >= n`.
    pub fn row_words(&self, row: usize) -> &[u64] {
        assert!(row < self.frame, "row {row} outside frame {}", self.frame);
        let start = row * self.stride;
        &self.cur[start..start + self.frame.div_ceil(64)]
    }

    /// The cell (i, j), 1-based, of the current frame: true when a_{i,j}(n) is odd.
    /// Cells outside the frame are even (zero).
    pub fn get(&self, i: usize, j: usize) -> bool {
        if i == 0 || j == 0 || i > self.frame || j > self.frame {
            return false;
        }
        self.row_words(i - 1)[(j - 1) / 64] >> ((j - 1) % 64) & 1 == 1
    }

    /// The current frame as an n x n [`BitGrid`] (odd cells set).
    pub fn to_grid(&self) -> BitGrid {
        let n = self.frame;
        let mut grid = BitGrid::new(n, n);
        grid.fill_rows(|row, words| words.copy_from_slice(self.row_words(row)));
        grid
    }

    /// The first cell of the current frame whose parity differs from P(n,n), if any.
    ///
    /// Under `control`, checked per row.
    pub fn first_mismatch(&self, control: &Control) -> Result<Option<Mismatch>> {
        let found = first_mismatch_rows(self.frame, |row| self.row_words(row), control);
        control.check()?;
        Ok(found)
    }
}

/// One row of the next frame from the row itself and the row above (absent for row 0).
fn step_row(out: &mut [u64], here: &[u64], above: Option<&[u64]>, prev_above: Option<&[u64]>) {
    let mut carry = 0u64;
    match (above, prev_above) {
        (Some(above), Some(prev_above)) => {
            for w in 0..out.len() {
                let t = here[w] ^ above[w];
                let u = t ^ prev_above[w];
                out[w] = t ^ (u << 1) ^ carry;
                carry = u >> 63;
            }
        }
        _ => {
            for w in 0..out.len() {
                let t = here[w];
                out[w] = t ^ (t << 1) ^ carry;
                carry = t >> 63;
            }
        }
    }
}

/// Frame `n` mod 2 as an n x n grid (odd cells set), computed through frames 1..n.
/// Progress in frames; `control` is checked per row.
pub fn parity_frame(n: usize, memory_limit: u64, control: &Control) -> Result<BitGrid> {
    let mut stepper = ParityStepper::new(n, memory_limit)?;
    control.add_total(n as u64);
    while stepper.step(control)?.is_some() {}
    Ok(stepper.to_grid())
}

/// Computes frames 1..=`last` mod 2 and returns the first mismatch with P(n,n), if any.
///
/// Under `control`: progress in frames, checked per row of each
/// step and of each comparison.
pub fn check_parity(last: usize, memory_limit: u64, control: &Control) -> Result<Option<Mismatch>> {
    let mut stepper = ParityStepper::new(last, memory_limit)?;
    control.add_total(last as u64);
    while stepper.step(control)?.is_some() {
        if let Some(mismatch) = stepper.first_mismatch(control)? {
            // The frames not stepped count as done: the answer is known.
            control.advance((last - stepper.frame()) as u64);
            return Ok(Some(mismatch));
        }
    }
    Ok(None)
}
