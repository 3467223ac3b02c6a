//! Theorem 3.4 of seed 003: the 3 x 3 block structure of R(m,m).
//!
//! Write m = 2^(k+1) + s with 0 <= s < 2^(k+1) (s is m without its top bit)
//! and t = 2^(k+1) - s. Blocks of widths s, t, s: the four s x s corners are
//! copies of R(s,s), the t x t centre a copy of R(t,t), the edges are empty.

/// The block widths of the decomposition of R(m,m).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decomposition {
    /// The board side.
    pub m: u64,
    /// The side of the four corner blocks (m without its top bit; 0 when m is a power of two).
    pub s: u64,
    /// The side of the centre block.
    pub t: u64,
}

impl Decomposition {
    /// The decomposition of an m x m board, m >= 1.
    pub fn of(m: u64) -> Self {
        assert!(m >= 1, "the decomposition needs m >= 1");
        let top = 1u64 << (63 - m.leading_zeros());
        let s = m - top;
        Decomposition { m, s, t: top - s }
    }

    /// The corner blocks as 0-based `(first row, first column, side)`; none when s = 0.
    pub fn corners(&self) -> Vec<(u64, u64, u64)> {
        if self.s == 0 {
            return Vec::new();
        }
        let far = self.s + self.t;
        vec![
            (0, 0, self.s),
            (0, far, self.s),
            (far, 0, self.s),
            (far, far, self.s),
        ]
    }

    /// The centre block as 0-based `(first row, first column, side)`.
    pub fn centre(&self) -> (u64, u64, u64) {
        (self.s, self.s, self.t)
    }

    /// Every block, the corners then the centre (last), for a board whose
    /// first cell is at (`row`, `col`): how nested levels cut a block again.
    pub fn blocks_at(&self, row: u64, col: u64) -> Vec<(u64, u64, u64)> {
        self.corners()
            .into_iter()
            .chain([self.centre()])
            .map(|(r, c, side)| (row + r, col + c, side))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eleven_splits_into_three_and_five() {
        let d = Decomposition::of(11);
        assert_eq!((d.s, d.t), (3, 5));
        assert_eq!(d.centre(), (3, 3, 5));
        assert_eq!(d.corners()[3], (8, 8, 3));
        assert_eq!(d.blocks_at(10, 20)[3], (18, 28, 3));
        assert_eq!(d.blocks_at(10, 20)[4], (13, 23, 5));
    }

    #[test]
    fn powers_of_two_are_all_centre() {
        let d = Decomposition::of(16);
        assert_eq!((d.s, d.t), (0, 16));
        assert!(d.corners().is_empty());
    }
}
