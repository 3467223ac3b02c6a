//! The structure theorems of seed 003 §3–4, checked on the computed patterns.

use nimscape_model::pattern::count::{check, count_direct, g};
use nimscape_model::pattern::decompose::Decomposition;
use nimscape_model::pattern::p_grid;

#[test]
fn square_patterns_have_both_mirrors_the_diagonal_flip_and_both_diagonals() {
    for m in 1..=130 {
        let grid = p_grid(m, m, &nimscape::Control::default()).unwrap();
        assert_eq!(grid.flip_rows(), grid, "m = {m}");
        assert_eq!(grid.flip_cols(), grid, "m = {m}");
        assert_eq!(grid.transpose(), grid, "m = {m}");
        for k in 0..m {
            assert!(
                grid.get(k, k) && grid.get(k, m - 1 - k),
                "diagonal cell {k} of m = {m}"
            );
        }
    }
}

#[test]
fn doubling_the_board_doubles_the_pattern() {
    for m in 1..=256 {
        assert_eq!(
            p_grid(2 * m, 2 * m, &nimscape::Control::default()).unwrap(),
            p_grid(m, m, &nimscape::Control::default())
                .unwrap()
                .upscale(2),
            "m = {m}"
        );
    }
}

#[test]
fn theorem_3_4_corners_centre_and_empty_edges_up_to_512() {
    for m in 2..=512usize {
        let grid = p_grid(m, m, &nimscape::Control::default()).unwrap();
        let d = Decomposition::of(m as u64);
        let (s, t) = (d.s as usize, d.t as usize);
        assert_eq!(2 * s + t, m);
        if s > 0 {
            let corner = p_grid(s, s, &nimscape::Control::default()).unwrap();
            for (r, c, side) in d.corners() {
                assert_eq!(
                    grid.crop(r as usize, c as usize, side as usize, side as usize),
                    corner,
                    "m = {m}"
                );
            }
            // The four edge blocks hold no P cell.
            for (r, c, h, w) in [
                (0, s, s, t),
                (s, 0, t, s),
                (s, s + t, t, s),
                (s + t, s, s, t),
            ] {
                assert!(grid.crop(r, c, h, w).is_empty(), "edge block of m = {m}");
            }
        }
        assert_eq!(
            grid.crop(s, s, t, t),
            p_grid(t, t, &nimscape::Control::default()).unwrap(),
            "centre of m = {m}"
        );
    }
}

#[test]
fn g_counts_the_cells_of_the_pattern() {
    for m in 1..=300u64 {
        assert_eq!(
            g(m),
            u128::from(
                p_grid(m as usize, m as usize, &nimscape::Control::default())
                    .unwrap()
                    .count_ones()
            ),
            "m = {m}"
        );
        assert_eq!(g(m), count_direct(m));
    }
}

#[test]
fn recurrences_and_sum_identities_hold_up_to_1024() {
    for line in check(1024, &nimscape::Control::default()).unwrap() {
        assert!(line.holds, "{line:?}");
    }
}
