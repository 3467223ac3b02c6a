//! A solved game as data: CSV and JSON of the positions in the slice, and
//! `.npy` arrays (streamed while solving for the whole box).

use std::io::Write;

use super::spec::GrundyFigure;
use crate::games::Solution;
use crate::library::encode::npy;
use crate::Control;
use crate::{Error, Result};

impl GrundyFigure {
    /// The `.npy` array's size, at most: two bytes per tuple of the free coordinates
    /// (a capped game's `y` axis stops at its tallest column, see
    /// [`Solution::data_shape`]).
    pub fn npy_bytes(&self) -> Result<u64> {
        let frame = self.frame()?;
        let shape = self.game.data_shape_bound(&self.game_box)?;
        let cells = frame
            .free
            .iter()
            .fold(1u64, |n, &d| n.saturating_mul(shape[d]));
        Ok(npy::file_bytes(cells, 2))
    }

    /// Solves the game and writes the whole box as `.npy` on the way (see
    /// [`GameSpec::solve_streamed`]): the first slabs reach the disk while the last
    /// are still being solved.
    pub(super) fn solve_to_npy(&self, out: &mut dyn Write, control: &Control) -> Result<Solution> {
        let out = std::cell::RefCell::new(out);
        self.game.solve_streamed(
            &self.game_box,
            self.memory_limit,
            |shape| {
                npy::write_header(&mut **out.borrow_mut(), "<u2", shape)
                    .map_err(Error::write_failed)
            },
            &mut |bytes| {
                out.borrow_mut()
                    .write_all(bytes)
                    .map_err(Error::write_failed)
            },
            control,
        )
    }

    /// The box as a `uint16` array, one axis per free coordinate (in the game's
    /// order, a capped game's `y` up to its tallest column), [`crate::games::OUTSIDE`]
    /// (65535) where a tuple is not a position.
    pub(super) fn write_npy(&self, solution: &Solution, out: &mut dyn Write) -> Result<()> {
        let frame = self.frame()?;
        let data = solution.data_shape();
        let shape: Vec<u64> = frame.free.iter().map(|&d| data[d]).collect();
        npy::write_header(out, "<u2", &shape).map_err(Error::write_failed)?;
        let mut le = npy::LeWriter::new();
        if frame.is_whole_box() {
            // Little-endian slabs straight from the solution, built in parallel while
            // the previous ones are written.
            return solution
                .for_each_le_slab(|bytes| out.write_all(bytes).map_err(Error::write_failed));
        }
        // A slice: walk the free coordinates, the fixed ones set, last fastest.
        let mut p: Vec<u32> = frame.fixed.iter().map(|f| f.unwrap_or(0)).collect();
        let last = frame.free.last().copied();
        let row_len = last.map_or(1, |d| data[d] as usize);
        let mut row = Vec::with_capacity(row_len);
        loop {
            row.clear();
            for v in 0..row_len {
                if let Some(d) = last {
                    p[d] = v as u32;
                }
                row.push(solution.get(&p).unwrap_or(crate::games::OUTSIDE));
            }
            le.u16s(out, &row).map_err(Error::write_failed)?;
            // Odometer over the other free coordinates.
            let mut carried = true;
            for &d in frame.free.iter().rev().skip(1) {
                if u64::from(p[d]) + 1 < data[d] {
                    p[d] += 1;
                    carried = false;
                    break;
                }
                p[d] = 0;
            }
            if carried {
                return Ok(());
            }
        }
    }

    pub(super) fn write_csv(
        &self,
        solution: &Solution,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let frame = self.frame().map_err(std::io::Error::other)?;
        let mut header = frame.names.join(",");
        if !self.p_only {
            header.push_str(",grundy");
        }
        writeln!(out, "{header}")?;
        // Rows gather in one buffer written in large pieces: a game file's box
        // has millions of numbers, and formatting them was a tenth of a run.
        let mut chunk: Vec<u8> = Vec::with_capacity(CHUNK + 256);
        solution.try_for_each_position(|p, v| {
            if (self.p_only && v != 0) || !frame.matches(p) {
                return Ok::<(), std::io::Error>(());
            }
            for &c in p {
                push_number(&mut chunk, u64::from(c));
                chunk.push(b',');
            }
            if self.p_only {
                chunk.pop();
            } else {
                push_number(&mut chunk, u64::from(v));
            }
            chunk.push(b'\n');
            if chunk.len() >= CHUNK {
                out.write_all(&chunk)?;
                chunk.clear();
            }
            Ok(())
        })?;
        out.write_all(&chunk)
    }

    /// `{"game", "coordinates", "box", ["slice"], "count", "positions" | "p_positions"}`;
    /// a position is its coordinates followed by its Grundy value, a P-position
    /// its coordinates. Streamed: any box that solves can be written.
    pub(super) fn write_json(
        &self,
        solution: &Solution,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let frame = self.frame().map_err(std::io::Error::other)?;
        let count = self.rows(solution, &frame).count();
        let head = serde_json::json!({
            "game": self.game.name(),
            "coordinates": frame.names,
            "box": frame.bounds,
        });
        let head = serde_json::to_string(&head).map_err(std::io::Error::other)?;
        // Reopen the object to append the streamed list.
        write!(out, "{},", head.trim_end_matches('}'))?;
        if !self.slice.0.is_empty() {
            let slice: serde_json::Map<String, serde_json::Value> = self
                .slice
                .0
                .iter()
                .map(|(n, v)| (n.clone(), serde_json::Value::from(*v)))
                .collect();
            write!(out, "\"slice\":{},", serde_json::Value::Object(slice))?;
        }
        let key = if self.p_only {
            "p_positions"
        } else {
            "positions"
        };
        write!(out, "\"count\":{count},\"{key}\":[")?;
        let mut line: Vec<u8> = Vec::new();
        for (i, (p, v)) in self.rows(solution, &frame).enumerate() {
            line.clear();
            if i > 0 {
                line.push(b',');
            }
            line.push(b'[');
            for (k, c) in p.iter().enumerate() {
                if k > 0 {
                    line.push(b',');
                }
                push_number(&mut line, u64::from(*c));
            }
            if !self.p_only {
                line.push(b',');
                push_number(&mut line, u64::from(v));
            }
            line.push(b']');
            out.write_all(&line)?;
        }
        writeln!(out, "]}}")
    }
}

/// How many bytes of CSV rows gather before they are written.
const CHUNK: usize = 1 << 16;

/// Appends `n` in decimal (`itoa`: a few instructions a digit, where `write!`
/// went through the whole formatting machinery for each number).
/// One digit, the commonest case in a box's coordinates, is pushed as a byte.
#[inline]
pub(super) fn push_number(s: &mut Vec<u8>, n: u64) {
    match u8::try_from(n) {
        Ok(digit @ 0..=9) => s.push(b'0' + digit),
        _ => s.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
    }
}
