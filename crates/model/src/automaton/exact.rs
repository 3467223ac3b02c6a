//! The automaton's exact values as big integers, for frames a reader can still read.
//!
//! How big do they get? Summing the recurrence over all of Z² gives the frame
//! totals S(n+2) = 4 S(n+1) + S(n), S(1) = 1, S(2) = 4 (so S(n) = F(3n)/2 with
//! F the Fibonacci numbers). All values are non-negative, so every value of
//! frame n is at most S(n) <= 4.25^n (induction: 4 * 4.25 + 1 < 4.25²), i.e.
//! at most `n log2 4.25 ≈ 2.09 n` bits. Frame 40 holds a value near 4.7e22
//! (76 bits; the bound says 84). The memory estimate uses this bound for every
//! cell, which is honest: all n² cells of a frame are positive.

use num_bigint::BigUint;
use num_traits::Zero;

use super::dense::{Arith, Dense};
use super::modp::ResidueGrid;
use super::{check_frames, check_modulus};
use crate::error::check_memory;
use crate::{BitGrid, Control, Result};

const HINT: &str =
    "exact values are for frames a reader can still read; use `modulus` p for larger frames";

/// An upper bound on the bit length of any value of frame `n`.
pub fn value_bits_bound(n: usize) -> u64 {
    // Saturating: for n near 2^63 the product passes u64 (the cast saturates), and
    // the estimates built on it must be refused, not wrap or panic.
    ((n as f64 * 4.25f64.log2()).floor() as u64).saturating_add(1)
}

/// Bytes one cell of frame `n` can take: the `BigUint` itself, its digits and
/// the allocator's bookkeeping for them.
fn cell_bytes(n: usize) -> u64 {
    let digits = value_bits_bound(n).div_ceil(64);
    (std::mem::size_of::<BigUint>() as u64 + 16).saturating_add(digits.saturating_mul(8))
}

/// An n x n frame of exact values; cell (i,j) is at 0-based `(i-1, j-1)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExactGrid {
    size: usize,
    values: Vec<BigUint>,
}

impl ExactGrid {
    /// The side n.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The value at 0-based `(row, col)`.
    ///
    /// # Panics
    /// If the cell is outside the grid.
    pub fn get(&self, row: usize, col: usize) -> &BigUint {
        assert!(
            row < self.size && col < self.size,
            "cell ({row}, {col}) outside {0}x{0}",
            self.size
        );
        &self.values[row * self.size + col]
    }

    /// All values, row-major.
    pub fn values(&self) -> &[BigUint] {
        &self.values
    }

    /// The largest value (zero for an empty grid).
    pub fn max_value(&self) -> BigUint {
        self.values
            .iter()
            .max()
            .cloned()
            .unwrap_or_else(BigUint::zero)
    }

    /// The cells with an odd value: P(n,n) by the theorem.
    pub fn odd_cells(&self) -> BitGrid {
        BitGrid::from_fn(self.size, self.size, |r, c| self.get(r, c).bit(0))
    }

    /// Every value reduced mod `modulus`.
    pub fn reduce(&self, modulus: u64) -> Result<ResidueGrid> {
        let p = check_modulus(modulus)?;
        let values = self
            .values
            .iter()
            .map(|v| (v % u32::from(p)).iter_u32_digits().next().unwrap_or(0) as u16)
            .collect();
        ResidueGrid::from_values(self.size, p, values)
    }
}

struct Big;

impl Arith for Big {
    type Value = BigUint;
    fn zero(&self) -> BigUint {
        BigUint::zero()
    }
    fn one(&self) -> BigUint {
        BigUint::from(1u32)
    }
    fn sum5_into(&self, out: &mut BigUint, [a, b, c, d, e]: [&BigUint; 5]) {
        out.clone_from(a);
        *out += b;
        *out += c;
        *out += d;
        *out += e;
    }
    fn weight(&self, frame: usize) -> usize {
        (value_bits_bound(frame).div_ceil(64) as usize).saturating_mul(8)
    }
}

/// Frames 1, 2, ... of the automaton with exact values, each computed from the two before.
pub struct ExactStepper {
    dense: Dense<Big>,
}

impl ExactStepper {
    /// The bytes a stepper up to frame `last` can need: three `(last+1)²` planes
    /// whose cells hold values of up to [`value_bits_bound`]`(last)` bits.
    pub fn memory_estimate(last: usize) -> u64 {
        let side = (last as u64).saturating_add(1);
        side.saturating_mul(side)
            .saturating_mul(3)
            .saturating_mul(cell_bytes(last))
    }

    /// A stepper that can go up to frame `last`, refusing above `memory_limit` bytes.
    pub fn new(last: usize, memory_limit: u64) -> Result<Self> {
        check_frames(1, last)?;
        check_memory(
            || format!("exact values up to frame {last}"),
            Self::memory_estimate(last),
            memory_limit,
            HINT,
        )?;
        Ok(ExactStepper {
            dense: Dense::new(Big, last),
        })
    }

    /// The current frame number n (0 before the first [`step`](Self::step)).
    pub fn frame(&self) -> usize {
        self.dense.frame()
    }

    /// The last frame this stepper can reach.
    pub fn last(&self) -> usize {
        self.dense.last()
    }

    /// Moves to the next frame and returns its number, or `None` past the last frame.
    ///
    /// Under `control`: checked per row, advanced by one
    /// per frame (announcing the frames to come is the caller's). A cancelled step
    /// leaves the stepper on the frame it was on.
    pub fn step(&mut self, control: &Control) -> Result<Option<usize>> {
        self.dense.advance(control)
    }

    /// a_{i,j}(n) at 1-based (i, j) of the current frame; `None` outside it (where it is 0).
    pub fn get(&self, i: usize, j: usize) -> Option<&BigUint> {
        self.dense.get(i, j)
    }

    /// Row i (1-based) of the current frame, columns 1..=n.
    ///
    /// # Panics
    /// If `i` is not in 1..=n.
    pub fn row(&self, i: usize) -> &[BigUint] {
        assert!(
            i >= 1 && i <= self.frame(),
            "row {i} outside frame {}",
            self.frame()
        );
        self.dense.row(i)
    }

    /// The current frame as an n x n grid.
    pub fn to_grid(&self) -> ExactGrid {
        let n = self.frame();
        let mut values = Vec::with_capacity(n * n);
        for i in 1..=n {
            values.extend_from_slice(self.dense.row(i));
        }
        ExactGrid { size: n, values }
    }
}

/// The bytes [`exact_frames`]`(first, last, ..)` can need: the stepper plus every frame kept.
pub fn exact_memory_estimate(first: usize, last: usize) -> u64 {
    let kept = (first..=last).fold(0u64, |kept, n| {
        kept.saturating_add(
            (n as u64)
                .saturating_mul(n as u64)
                .saturating_mul(cell_bytes(n)),
        )
    });
    ExactStepper::memory_estimate(last).saturating_add(kept)
}

/// Frames `first..=last` with exact values, refusing above `memory_limit` bytes;
/// progress in frames, `control` checked per row.
pub fn exact_frames(
    first: usize,
    last: usize,
    memory_limit: u64,
    control: &Control,
) -> Result<Vec<ExactGrid>> {
    check_frames(first, last)?;
    check_memory(
        || format!("exact values of frames {first}..{last}"),
        exact_memory_estimate(first, last),
        memory_limit,
        HINT,
    )?;
    let mut stepper = ExactStepper::new(last, memory_limit)?;
    let mut frames = Vec::with_capacity(last - first + 1);
    control.add_total(last as u64);
    while let Some(n) = stepper.step(control)? {
        if n >= first {
            frames.push(stepper.to_grid());
        }
    }
    Ok(frames)
}

/// Frame `n` with exact values, refusing above `memory_limit` bytes; progress in
/// frames, `control` checked per row.
pub fn exact_frame(n: usize, memory_limit: u64, control: &Control) -> Result<ExactGrid> {
    check_frames(n, n)?;
    check_memory(
        || format!("exact values of frame {n}"),
        exact_memory_estimate(n, n),
        memory_limit,
        HINT,
    )?;
    let mut stepper = ExactStepper::new(n, memory_limit)?;
    control.add_total(n as u64);
    while stepper.step(control)?.is_some() {}
    Ok(stepper.to_grid())
}
