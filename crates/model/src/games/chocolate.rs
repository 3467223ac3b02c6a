//! The chocolate game C(m,n) of Okubo–Kashiwagi–Niida as the bar itself: an
//! m x n bar (m rows, n columns) with the poisoned cell at (i,j); a move
//! breaks the bar along a grid line and keeps the piece with the poisoned
//! cell. Positions are the tuples `(i, j, m, n)` with `1 <= i <= m` and
//! `1 <= j <= n`.
//!
//! No nim-sum here: this is the game the P-criterion
//! `(i-1) ^ (j-1) ^ (m-i) ^ (n-j) == 0` is proved about
//! (`nimscape prove square --theorem criterion`), solved by plain game search.

use super::solver::Game;

/// The chocolate bar game in the coordinates `(i, j, m, n)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChocolateBar;

impl Game for ChocolateBar {
    fn name(&self) -> String {
        "chocolate C(m,n)".into()
    }

    fn coordinate_names(&self) -> Vec<String> {
        ["i", "j", "m", "n"].iter().map(|s| s.to_string()).collect()
    }

    fn is_position(&self, p: &[u32]) -> bool {
        let [i, j, m, n] = [p[0], p[1], p[2], p[3]];
        1 <= i && i <= m && 1 <= j && j <= n
    }

    fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
        if !self.is_position(p) {
            return;
        }
        let [i, j, m, n] = [p[0], p[1], p[2], p[3]];
        // Break off t rows above the poisoned cell (it moves up t rows).
        for t in 1..i {
            f(&[i - t, j, m - t, n]);
        }
        // Break off the rows below row `rows`.
        for rows in i..m {
            f(&[i, j, rows, n]);
        }
        // The same for columns: to the left, then to the right.
        for t in 1..j {
            f(&[i, j - t, m, n - t]);
        }
        for cols in j..n {
            f(&[i, j, m, cols]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::solver::solve_dense;

    #[test]
    fn the_bar_is_four_heap_nim_by_game_search() {
        // Theorem 2.3 of Okubo–Kashiwagi–Niida on a box, by search alone.
        let solved = solve_dense(
            &ChocolateBar,
            &[7, 7, 7, 7],
            1 << 28,
            &crate::Control::default(),
        )
        .unwrap();
        let mut checked = 0;
        for (p, g) in solved.positions() {
            let [i, j, m, n] = [p[0], p[1], p[2], p[3]];
            assert_eq!(g == 0, (i - 1) ^ (j - 1) ^ (m - i) ^ (n - j) == 0, "{p:?}");
            checked += 1;
        }
        // 1 <= i <= m <= 7 and the same for j, n: 28 * 28 positions.
        assert_eq!(checked, 28 * 28);
    }
}
