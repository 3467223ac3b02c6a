//! The second-order cellular automaton of SPEC §3, a 2D analogue of Rule 60.
//!
//! Values a_{i,j}(n) on Z² follow
//!
//! ```text
//! a_{i,j}(n+2) = a_{i,j}(n+1) + a_{i-1,j}(n+1) + a_{i,j-1}(n+1)
//!              + a_{i-1,j-1}(n+1) + a_{i-1,j-1}(n)
//! ```
//!
//! from a(0) = 0 and a(1) = 1 at (1,1) only, and the odd cells of frame n are
//! exactly the P-positions of the n x n chocolate bar C(n,n).
//!
//! The one idea a reader needs: **frame n is exactly the n x n square.** Every
//! term of the recurrence looks up and to the left, so by induction the
//! support of a(n) lies in 1 <= i,j <= n (a(n+1) reaches one step further
//! right and down, a(n) shifted by (1,1) likewise). Nothing outside the square
//! is ever non-zero, so the "growing window" loses nothing; `naive` checks this
//! on a wider window. Frames are therefore `n x n` grids whose 0-based
//! `(row, col)` is the cell `(i, j) = (row + 1, col + 1)`.
//!
//! Four ways to compute frames, fastest first:
//! * [`ParityStepper`] — values mod 2, 64 cells per word, rows in parallel;
//! * [`ResidueStepper`] — values mod any p in 2..=65535;
//! * [`ExactStepper`] — exact big integers (frame 40 already passes 4.7e22);
//! * [`naive`] — a plain per-cell reference for tests.
//!
//! [`rule60()`] is the 1D companion, and [`check`] compares frames with the
//! XOR criterion for P(n,n).

pub mod check;
mod dense;
pub mod exact;

pub mod mod2;
pub mod modp;
pub mod naive;
pub mod rule60;

#[cfg(test)]
mod tests;

pub use check::{check_grid, Mismatch};
pub use exact::{exact_frame, exact_frames, exact_memory_estimate, ExactGrid, ExactStepper};
pub use mod2::{check_parity, parity_frame, ParityStepper};
pub use modp::{residue_frame, ResidueGrid, ResidueStepper};
pub use rule60::{rule60, rule60_bytes};

use crate::{Error, Result};

/// The largest modulus: residues are stored as `u16`.
pub const MAX_MODULUS: u64 = 65535;

/// Validates a modulus given by the user and returns it as a residue type.
pub fn check_modulus(modulus: u64) -> Result<u16> {
    if modulus < 2 {
        return Err(Error::invalid_parameter(
            "modulus",
            format!("`modulus` must be at least 2 (got {modulus}); `modulus` 2 colours odd cells"),
        ));
    }
    if modulus > MAX_MODULUS {
        return Err(Error::invalid_parameter("modulus", format!(
            "`modulus` must be at most {MAX_MODULUS} (got {modulus}); residues are stored in 16 bits"
        )));
    }
    Ok(modulus as u16)
}

/// Validates a range of frames `first..=last` given by the user.
pub fn check_frames(first: usize, last: usize) -> Result<()> {
    if first == 0 || last == 0 {
        return Err(Error::invalid_parameter(
            "frames",
            "`frames` starts at 1 (frame 0 is empty); use e.g. `frames` 1..32",
        ));
    }
    if first > last {
        return Err(Error::invalid_parameter("frames", format!(
            "`frames` {first}..{last} is empty; write the smaller frame first, e.g. `frames` {last}..{first}"
        )));
    }
    Ok(())
}
