//! Rule 60, the one-dimensional automaton the 2D recurrence generalises.
//!
//! `b_k(n+1) = b_k(n) XOR b_{k-1}(n)` from one live cell draws Pascal's
//! triangle mod 2 (a Sierpinski triangle): generation r holds C(r, k) mod 2 in
//! cell k. A row is the previous row XOR itself shifted one cell right, a
//! handful of word operations per 64 cells.

use super::check_frames;
use crate::error::check_memory;
use crate::{BitGrid, Control, Result};

/// The bytes of the diagram for `generations` generations (saturating: a count
/// near 2^62 is refused, not wrapped to a small estimate).
pub fn rule60_bytes(generations: usize) -> u64 {
    let n = generations as u64;
    n.saturating_mul(n.div_ceil(64)).saturating_mul(8)
}

/// Rows checked and counted together: a row is at most a few thousand words, so 64
/// of them stay far under a millisecond, and the counter is not touched per row.
const ROWS_PER_CHECK: usize = 64;

/// The space-time diagram of Rule 60 for `generations` generations from one live cell.
///
/// A `generations x generations` grid: row r (0-based) is generation r + 1,
/// generation 1 being the single live cell at column 0 (the same 1-based count
/// as the automaton's frames, so `--frames 1..N` means N rows). Cell k of row
/// r is C(r, k) mod 2; the triangle fills columns 0..=r.
///
/// Under `control`: progress in generations, checked every 64 of them.
pub fn rule60(generations: usize, memory_limit: u64, control: &Control) -> Result<BitGrid> {
    check_frames(1, generations)?;
    check_memory(
        || format!("Rule 60 for {generations} generations"),
        rule60_bytes(generations),
        memory_limit,
        "ask for fewer generations",
    )?;
    control.add_total(generations as u64);
    let mut grid = BitGrid::new(generations, generations);
    let mut row = vec![0u64; grid.words_per_row()];
    row[0] = 1;
    grid.row_words_mut(0).copy_from_slice(&row);
    for r in 1..generations {
        if r % ROWS_PER_CHECK == 0 {
            control.check()?;
            control.advance(ROWS_PER_CHECK as u64);
        }
        let mut carry = 0;
        for word in row.iter_mut() {
            let old = *word;
            *word = old ^ (old << 1) ^ carry;
            carry = old >> 63;
        }
        // Generation r reaches column r < generations: nothing spills past the grid.
        grid.row_words_mut(r).copy_from_slice(&row);
    }
    control.check()?;
    // Rows 0..generations, less the full batches counted in the loop.
    control.advance((generations - (generations - 1) / ROWS_PER_CHECK * ROWS_PER_CHECK) as u64);
    Ok(grid)
}
