//! The values as data: non-zero cells of every frame as CSV or JSON, and a
//! NumPy array of the frames.

use super::{AutomatonPlan, Frame, Values};
use crate::library::encode::npy;
use crate::Control;
use crate::{Error, Result};
use std::io::Write;

impl AutomatonPlan {
    /// The shape of the `.npy` array: `(n, n)` for one frame, `(frames, N, N)` for several.
    pub(super) fn npy_shape(&self) -> Vec<u64> {
        let side = self.last() as u64;
        if self.frames.len() == 1 {
            vec![side, side]
        } else {
            vec![self.frames.len() as u64, side, side]
        }
    }

    /// Frames mod p as one `uint16` array (see [`Self::npy_shape`]), N the last frame,
    /// smaller frames padded with zeros (their cells beyond n are zero anyway).
    /// Streamed one frame at a time.
    pub(super) fn write_npy(&self, out: &mut dyn Write, control: &Control) -> Result<()> {
        let shape = self.npy_shape();
        let frames = self.data_frames(control)?;
        let side = self.last();
        let write = || -> std::io::Result<()> {
            npy::write_header(out, "<u2", &shape)?;
            let mut le = npy::LeWriter::new();
            let mut row = vec![0u16; side];
            for frame in frames {
                let n = frame.number();
                for r in 0..side {
                    row.fill(0);
                    if r < n {
                        match &frame {
                            Frame::Parity(_, grid) => {
                                for (c, cell) in row.iter_mut().enumerate().take(n) {
                                    *cell = u16::from(grid.get(r, c));
                                }
                            }
                            Frame::Residue(_, grid) => {
                                row[..n].copy_from_slice(&grid.values()[r * n..(r + 1) * n]);
                            }
                            Frame::Exact(..) => {
                                return Err(std::io::Error::other("exact values in a .npy"))
                            }
                        }
                    }
                    le.u16s(out, &row)?;
                }
            }
            Ok(())
        };
        write().map_err(Error::write_failed)?;
        control.check()
    }

    /// An estimate of the `.csv` / `.json` data's size, in O(frames): odd cells of frame
    /// n number g(n) exactly (they are P(n,n)); residues and exact values are taken
    /// as filling the n x n frame, exact values with about 0.6 digits per frame
    /// number (frame 40 reaches 4.7e22).
    pub fn data_bytes(&self) -> u64 {
        let digits = |v: u64| u64::from(v.checked_ilog10().unwrap_or(0) + 1);
        self.frames.iter().fold(0u64, |total, &n| {
            let n = n as u64;
            let (cells, value) = match self.values {
                Values::Modulus(2) => (
                    u64::try_from(crate::pattern::count::g(n)).unwrap_or(u64::MAX),
                    1,
                ),
                Values::Modulus(p) => (n.saturating_mul(n), digits(u64::from(p))),
                Values::Exact => (n.saturating_mul(n), n * 3 / 5 + 1),
            };
            let line = 3 * digits(n) + value + 4;
            total.saturating_add(cells.saturating_mul(line))
        })
    }

    /// `i,j,value` (one frame) or `n,i,j,value` (several) as CSV, or JSON: the
    /// non-zero cells, 1-based, row by row; values mod p or exact.
    pub(super) fn write_data(
        &self,
        out: &mut dyn Write,
        frames: impl Iterator<Item = Frame>,
        csv: bool,
    ) -> std::io::Result<()> {
        let several = self.frames.len() > 1;
        let modulus = match self.values {
            Values::Modulus(p) => p.to_string(),
            Values::Exact => "\"exact\"".to_string(),
        };
        if csv {
            writeln!(out, "{}", if several { "n,i,j,value" } else { "i,j,value" })?;
        } else if several {
            write!(out, "{{\"modulus\":{modulus},\"frames\":[")?;
        }
        for (k, frame) in frames.enumerate() {
            let n = frame.number();
            if !csv {
                if k > 0 {
                    write!(out, ",")?;
                }
                write!(out, "{{\"n\":{n},\"modulus\":{modulus},\"cells\":[")?;
            }
            let mut first = true;
            let mut cell = |out: &mut dyn Write, i: usize, j: usize, v: &dyn std::fmt::Display| {
                if csv {
                    if several {
                        writeln!(out, "{n},{i},{j},{v}")
                    } else {
                        writeln!(out, "{i},{j},{v}")
                    }
                } else {
                    let comma = if std::mem::take(&mut first) { "" } else { "," };
                    write!(out, "{comma}[{i},{j},{v}]")
                }
            };
            match &frame {
                Frame::Parity(_, grid) => {
                    for (r, c) in grid.ones() {
                        cell(out, r + 1, c + 1, &1)?;
                    }
                }
                Frame::Residue(_, grid) => {
                    for (k, &v) in grid.values().iter().enumerate() {
                        if v != 0 {
                            cell(out, k / n + 1, k % n + 1, &v)?;
                        }
                    }
                }
                Frame::Exact(_, grid) => {
                    for (k, v) in grid.values().iter().enumerate() {
                        if v.bits() > 0 {
                            cell(out, k / n + 1, k % n + 1, v)?;
                        }
                    }
                }
            }
            if !csv {
                write!(out, "]}}")?;
            }
        }
        if !csv {
            if several {
                write!(out, "]}}")?;
            }
            writeln!(out)?;
        }
        Ok(())
    }
}
