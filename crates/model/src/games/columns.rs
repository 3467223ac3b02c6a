//! The column layout of a capped game's values, read as `.npy` slabs.
//!
//! Both capped solvers store one column `(x, ., z)` after another (each in its own
//! order); [`Columns`] reads them, whole or as the solved prefix the tiled solver
//! streams, as C-order `(y, z)` slabs of one `x` each. It is a module of its own
//! because the solution ([`super::CappedGrundy`]) and the tiled solver both write
//! slabs and neither should depend on the other for it.

use crate::{Control, Result};

/// The columns of a solution, whole or (while the tiled solver streams) a solved
/// prefix of it: what a `.npy` slab is built from.
#[derive(Clone, Copy)]
pub(super) struct Columns<'a> {
    /// Columns per row of `x` (`bz + 1`).
    pub(super) nz: usize,
    /// Rows of a slab: the tallest column of the whole box, plus one.
    pub(super) ny: usize,
    pub(super) caps: &'a [u32],
    pub(super) offsets: &'a [usize],
    pub(super) values: &'a [u16],
}

impl Columns<'_> {
    /// The values of column `(x, ., z)`, `y` from 0 to its cap.
    pub(super) fn column(&self, x: usize, z: usize) -> &[u16] {
        let i = x * self.nz + z;
        &self.values[self.offsets[i]..=self.offsets[i] + self.caps[i] as usize]
    }

    /// Slabs `xs` in order, each built into `buf` and handed to `write`; stops at the
    /// first error, or at the first slab after `control` is cancelled.
    pub(super) fn write_slabs(
        &self,
        xs: std::ops::Range<usize>,
        outside: u16,
        buf: &mut Vec<u8>,
        write: &mut dyn FnMut(&[u8]) -> Result<()>,
        control: &Control,
    ) -> Result<()> {
        for x in xs {
            control.check()?;
            self.le_slab(x, outside, buf);
            write(buf)?;
        }
        Ok(())
    }

    /// Slab `x` (all `(y, z)`, z fastest) as little-endian bytes into `buf`: everything
    /// `outside` first (one fill), then the columns over it, 64 at a time, so reads go
    /// down 64 columns and writes along rows of the slab; rows above a block's tallest
    /// column are never visited.
    pub(super) fn le_slab(&self, x: usize, outside: u16, buf: &mut Vec<u8>) {
        const BLOCK: usize = 64;
        let (ny, nz) = (self.ny, self.nz);
        let out = outside.to_le_bytes();
        buf.clear();
        if out[0] == out[1] {
            buf.resize(ny * nz * 2, out[0]);
        } else {
            buf.resize(ny * nz * 2, 0);
            buf.chunks_exact_mut(2)
                .for_each(|c| c.copy_from_slice(&out));
        }
        let mut columns: Vec<&[u16]> = Vec::with_capacity(BLOCK);
        for z0 in (0..nz).step_by(BLOCK) {
            let z1 = (z0 + BLOCK).min(nz);
            columns.clear();
            columns.extend((z0..z1).map(|z| self.column(x, z)));
            let top = columns.iter().map(|c| c.len()).max().unwrap_or(0);
            for (y, row) in buf.chunks_exact_mut(nz * 2).take(top).enumerate() {
                let row = &mut row[z0 * 2..z1 * 2];
                for (cell, column) in row.chunks_exact_mut(2).zip(&columns) {
                    if let Some(v) = column.get(y) {
                        cell.copy_from_slice(&v.to_le_bytes());
                    }
                }
            }
        }
    }
}
