//! One stepper for every value type that is not bit-packed (residues mod p, big integers).
//!
//! The three frame buffers are `(last+1) x (last+1)` with a zero row 0 and a
//! zero column 0, so cell (i,j) sits at `i * stride + j` and the recurrence
//! reads its neighbours up and to the left without a bounds test.

use rayon::prelude::*;

use crate::{Control, Result};

/// How values add up: the only arithmetic the recurrence needs.
pub(crate) trait Arith: Sync {
    type Value: Clone + Send + Sync;
    fn zero(&self) -> Self::Value;
    fn one(&self) -> Self::Value;
    /// `out = a + b + c + d + e`, reusing `out`'s storage where it has any.
    fn sum5_into(&self, out: &mut Self::Value, terms: [&Self::Value; 5]);
    /// A rough cost of one addition, in machine words, to size rayon tasks.
    fn weight(&self, _frame: usize) -> usize {
        1
    }
}

pub(crate) struct Dense<A: Arith> {
    arith: A,
    frame: usize,
    last: usize,
    stride: usize,
    prev: Vec<A::Value>,
    cur: Vec<A::Value>,
    next: Vec<A::Value>,
}

impl<A: Arith> Dense<A> {
    /// Callers validate `last` and check the memory first.
    pub(crate) fn new(arith: A, last: usize) -> Self {
        let stride = last + 1;
        let plane = vec![arith.zero(); stride * stride];
        Dense {
            frame: 0,
            last,
            stride,
            prev: plane.clone(),
            cur: plane.clone(),
            next: plane,
            arith,
        }
    }

    pub(crate) fn arith(&self) -> &A {
        &self.arith
    }

    pub(crate) fn frame(&self) -> usize {
        self.frame
    }

    pub(crate) fn last(&self) -> usize {
        self.last
    }

    /// The next frame; a cancelled step leaves the stepper on the frame it was on
    /// (the rows written so far are in the scratch plane, which the next step
    /// overwrites whole). `control` is checked per row and advanced by one per frame.
    pub(crate) fn advance(&mut self, control: &Control) -> Result<Option<usize>> {
        control.check()?;
        if self.frame >= self.last {
            return Ok(None);
        }
        if self.frame == 0 {
            self.cur[self.stride + 1] = self.arith.one();
            self.frame = 1;
            control.advance(1);
            return Ok(Some(1));
        }
        let size = self.frame + 1;
        let stride = self.stride;
        let (arith, cur, prev) = (&self.arith, &self.cur, &self.prev);
        let min_rows = (4096 / (size * arith.weight(size)).max(1)).max(1);
        // Row 0 stays zero; rows 1..=size are recomputed. Whatever else the
        // buffer holds is frame n-1's zero surroundings.
        self.next[stride..(size + 1) * stride]
            .par_chunks_mut(stride)
            .with_min_len(min_rows)
            .enumerate()
            .for_each(|(r, out)| {
                if control.is_cancelled() {
                    return;
                }
                let i = r + 1;
                // Slices of exactly the lengths used let the compiler drop bounds checks.
                let here = &cur[i * stride..i * stride + size + 1];
                let above = &cur[(i - 1) * stride..(i - 1) * stride + size + 1];
                let prev_above = &prev[(i - 1) * stride..(i - 1) * stride + size];
                let out = &mut out[1..size + 1];
                for (j, cell) in out.iter_mut().enumerate() {
                    arith.sum5_into(
                        cell,
                        [
                            &here[j + 1],
                            &above[j + 1],
                            &here[j],
                            &above[j],
                            &prev_above[j],
                        ],
                    );
                }
            });
        control.check()?;
        std::mem::swap(&mut self.prev, &mut self.cur);
        std::mem::swap(&mut self.cur, &mut self.next);
        self.frame = size;
        control.advance(1);
        Ok(Some(size))
    }

    /// The value at 1-based (i, j) of the current frame, zero outside it.
    pub(crate) fn get(&self, i: usize, j: usize) -> Option<&A::Value> {
        (i >= 1 && j >= 1 && i <= self.frame && j <= self.frame)
            .then(|| &self.cur[i * self.stride + j])
    }

    /// Row i (1-based) of the current frame: columns 1..=n.
    pub(crate) fn row(&self, i: usize) -> &[A::Value] {
        let start = i * self.stride + 1;
        &self.cur[start..start + self.frame]
    }
}
