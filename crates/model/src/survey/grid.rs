//! A solved box as one array of Grundy values, what the Grundy finders read.
//!
//! The finders visit every position, and lines along every axis; reading each
//! value through [`Solution::get`] (a bounds check and a lookup per value) and
//! building a coordinate vector per position cost several times the solve
//! itself. The grid is filled once, in C order with [`OUTSIDE`] where a tuple is
//! not a position, and then read by offsets.

use crate::games::{Solution, OUTSIDE};
use crate::{Control, Result};

/// The box of a solution in C order (last coordinate fastest).
#[derive(Clone, Debug)]
pub struct Grid {
    /// Tuples per axis (`data_shape`: a capped game's `y` stops at its tallest column).
    pub shape: Vec<usize>,
    /// Distance between neighbours along each axis.
    pub strides: Vec<usize>,
    /// The values, [`OUTSIDE`] where a tuple is not a position.
    pub values: Vec<u16>,
}

impl Grid {
    /// The grid of `solution`.
    pub fn of(solution: &Solution, control: &Control) -> Result<Grid> {
        let shape: Vec<usize> = solution.data_shape().iter().map(|&n| n as usize).collect();
        let mut values = vec![OUTSIDE; shape.iter().product()];
        solution.fill_dense(&mut values, control)?;
        Ok(Grid::from_values(shape, values))
    }

    /// A grid of `values` in C order over `shape`.
    pub fn from_values(shape: Vec<usize>, values: Vec<u16>) -> Grid {
        debug_assert_eq!(shape.iter().product::<usize>(), values.len());
        let mut strides = vec![1usize; shape.len()];
        for d in (0..shape.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * shape[d + 1];
        }
        Grid {
            shape,
            strides,
            values,
        }
    }

    /// How many lines run along `axis`: one per tuple of the other coordinates.
    pub fn line_count(&self, axis: usize) -> usize {
        self.shape
            .iter()
            .enumerate()
            .filter(|&(d, _)| d != axis)
            .map(|(_, &n)| n)
            .product()
    }

    /// Line `line` along `axis` (the other coordinates in C order): its first
    /// tuple written into `p` (`p[axis]` = 0), and that tuple's offset in
    /// [`Grid::values`]; the line's values are `strides[axis]` apart.
    pub fn line_start(&self, axis: usize, line: usize, p: &mut [u32]) -> usize {
        let mut rest = line;
        for d in (0..self.shape.len()).rev() {
            if d == axis {
                p[d] = 0;
            } else {
                p[d] = (rest % self.shape[d]) as u32;
                rest /= self.shape[d];
            }
        }
        p.iter()
            .zip(&self.strides)
            .map(|(&c, &s)| c as usize * s)
            .sum()
    }

    /// The value at `p`, `None` outside the box or the game.
    pub fn get(&self, p: &[u32]) -> Option<u16> {
        if p.len() != self.shape.len() || p.iter().zip(&self.shape).any(|(&c, &n)| c as usize >= n)
        {
            return None;
        }
        let i: usize = p
            .iter()
            .zip(&self.strides)
            .map(|(&c, &s)| c as usize * s)
            .sum();
        Some(self.values[i]).filter(|&v| v != OUTSIDE)
    }
}
