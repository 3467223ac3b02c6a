//! `--check`: every frame mod 2 against the P-positions of C(n,n).

use super::stepping::Stepper;
use super::{AutomatonPlan, CheckReport, Values};
use crate::Control;
use crate::{Error, Result};

impl AutomatonPlan {
    /// Compares the parity of every frame 1..=last with P(n,n) and reports the
    /// first cell that disagrees. Parity comes from the values asked for: the
    /// bit-parallel stepper mod 2, residues mod an even p, or exact values;
    /// residues mod an odd p do not determine parity and are refused.
    pub fn check(&self, control: &Control) -> Result<CheckReport> {
        if self.rule60 {
            return Err(Error::unsupported(
                "`check` compares the 2D automaton with P(n,n); drop `rule60`",
            ));
        }
        let last = self.last();
        let method = match self.values {
            Values::Modulus(2) => "mod 2, 64 cells per word".to_string(),
            Values::Modulus(p) if p % 2 == 0 => format!("residues mod {p}, taken mod 2"),
            Values::Modulus(p) => {
                return Err(Error::unsupported(format!(
                    "`check` compares parity, which residues mod the odd {p} do not determine; use `modulus` 2 (the default), an even modulus or exact"
                )))
            }
            Values::Exact => "exact values".to_string(),
        };
        let mut stepper = self.stepper()?;
        let mut cells = 0u64;
        // Progress in cells, 1^2 + ... + last^2 (frame n costs n^2, so counting frames
        // would promise an ETA far too short); the stepper counts one a frame, the
        // rest is counted here.
        let total = (1..=last as u64).fold(0u64, |sum, n| sum.saturating_add(n * n));
        control.add_total(total);
        while let Some(n) = stepper.advance(control) {
            control.advance((n as u64 * n as u64).saturating_sub(1));
            let mismatch = match &stepper {
                Stepper::Parity(s) => s.first_mismatch(control)?,
                Stepper::Residue(s) => crate::automaton::check_grid(&s.to_grid().odd_cells())?,
                Stepper::Exact(s) => crate::automaton::check_grid(&s.to_grid().odd_cells())?,
            };
            if let Some(m) = mismatch {
                cells += ((m.i - 1) * n + m.j) as u64;
                return Ok(CheckReport {
                    last,
                    method,
                    cells,
                    mismatch: Some(m),
                });
            }
            cells += (n * n) as u64;
        }
        control.check()?;
        Ok(CheckReport {
            last,
            method,
            cells,
            mismatch: None,
        })
    }
}
