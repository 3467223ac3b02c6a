//! The automaton mod any p in 2..=65535.
//!
//! Residues are `u16`, added in `u32` and reduced after every addition, so the
//! arithmetic is exact: the frames are the exact values reduced mod p, which
//! the tests check against [`super::exact`].

use super::dense::{Arith, Dense};
use super::{check_frames, check_modulus};
use crate::error::check_memory;
use crate::{BitGrid, Control, Error, Result};

/// An n x n frame of residues mod p; cell (i,j) is at 0-based `(i-1, j-1)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResidueGrid {
    size: usize,
    modulus: u16,
    values: Vec<u16>,
}

impl ResidueGrid {
    /// A grid from row-major residues; each must be below `modulus`.
    pub fn from_values(size: usize, modulus: u16, values: Vec<u16>) -> Result<Self> {
        check_modulus(u64::from(modulus))?;
        if values.len() != size * size {
            return Err(Error::invalid_request(format!(
                "a {size} x {size} residue grid needs {} values, got {}",
                size * size,
                values.len()
            )));
        }
        if let Some(bad) = values.iter().find(|&&v| v >= modulus) {
            return Err(Error::invalid_request(format!(
                "residue {bad} is not below the modulus {modulus}"
            )));
        }
        Ok(ResidueGrid {
            size,
            modulus,
            values,
        })
    }

    /// The side n.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The modulus p.
    pub fn modulus(&self) -> u16 {
        self.modulus
    }

    /// The residue at 0-based `(row, col)`.
    ///
    /// # Panics
    /// If the cell is outside the grid.
    pub fn get(&self, row: usize, col: usize) -> u16 {
        assert!(
            row < self.size && col < self.size,
            "cell ({row}, {col}) outside {0}x{0}",
            self.size
        );
        self.values[row * self.size + col]
    }

    /// All residues, row-major.
    pub fn values(&self) -> &[u16] {
        &self.values
    }

    /// The cells whose residue is odd. This is the parity of the value itself
    /// only when p is even; for odd p it is just the parity of the residue.
    pub fn odd_cells(&self) -> BitGrid {
        BitGrid::from_fn(self.size, self.size, |r, c| self.get(r, c) & 1 == 1)
    }
}

struct ModP(u32);

impl Arith for ModP {
    type Value = u16;
    fn zero(&self) -> u16 {
        0
    }
    fn one(&self) -> u16 {
        1
    }
    fn sum5_into(&self, out: &mut u16, [a, b, c, d, e]: [&u16; 5]) {
        // Each partial sum of two residues is below 2p, so one conditional
        // subtraction reduces it; `min` with the wrapped difference does that
        // without a branch or a division.
        let p = self.0;
        let add = |s: u32, v: &u16| {
            let t = s + u32::from(*v);
            t.min(t.wrapping_sub(p))
        };
        *out = add(add(add(add(u32::from(*a), b), c), d), e) as u16;
    }
}

/// Frames 1, 2, ... of the automaton mod p, each computed from the two before.
pub struct ResidueStepper {
    dense: Dense<ModP>,
}

impl ResidueStepper {
    /// The bytes a stepper up to frame `last` needs: three `(last+1)²` planes of `u16`.
    pub fn memory_estimate(last: usize) -> u64 {
        let side = (last as u64).saturating_add(1);
        side.saturating_mul(side).saturating_mul(6)
    }

    /// A stepper mod `modulus` that can go up to frame `last`, refusing above `memory_limit` bytes.
    pub fn new(modulus: u64, last: usize, memory_limit: u64) -> Result<Self> {
        let p = check_modulus(modulus)?;
        check_frames(1, last)?;
        check_memory(
            || format!("the automaton mod {p} up to frame {last}"),
            Self::memory_estimate(last),
            memory_limit,
            "ask for fewer frames, or use `modulus` 2 which packs 64 cells per word",
        )?;
        Ok(ResidueStepper {
            dense: Dense::new(ModP(u32::from(p)), last),
        })
    }

    /// The modulus p.
    pub fn modulus(&self) -> u16 {
        self.dense.arith().0 as u16
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

    /// a_{i,j}(n) mod p at 1-based (i, j) of the current frame; 0 outside it.
    pub fn get(&self, i: usize, j: usize) -> u16 {
        self.dense.get(i, j).copied().unwrap_or(0)
    }

    /// The current frame as an n x n grid.
    pub fn to_grid(&self) -> ResidueGrid {
        let n = self.frame();
        let mut values = Vec::with_capacity(n * n);
        for i in 1..=n {
            values.extend_from_slice(self.dense.row(i));
        }
        ResidueGrid {
            size: n,
            modulus: self.modulus(),
            values,
        }
    }
}

/// Frame `n` mod `modulus`, computed through frames 1..n; progress in frames,
/// `control` checked per row.
pub fn residue_frame(
    n: usize,
    modulus: u64,
    memory_limit: u64,
    control: &Control,
) -> Result<ResidueGrid> {
    let mut stepper = ResidueStepper::new(modulus, n, memory_limit)?;
    control.add_total(n as u64);
    while stepper.step(control)?.is_some() {}
    Ok(stepper.to_grid())
}
