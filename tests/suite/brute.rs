//! The pattern against an independent game search: the bar as four Nim heaps
//! (rows above, columns left, rows below, columns right of the poisoned cell),
//! solved by brute force over all moves — no XOR anywhere.

use nimscape_model::pattern::p_grid;

const SIDE: usize = 12;

/// P/N of every four-heap position with heaps < SIDE, by backward induction:
/// a position is P iff no move (lowering one heap) reaches a P-position.
fn solve_all() -> Vec<bool> {
    let index = |h: [usize; 4]| ((h[0] * SIDE + h[1]) * SIDE + h[2]) * SIDE + h[3];
    let mut is_p = vec![false; SIDE.pow(4)];
    // Increasing total size: every option of a position is smaller in one heap.
    let mut positions: Vec<[usize; 4]> = (0..SIDE.pow(4))
        .map(|k| {
            [
                k / SIDE.pow(3),
                k / SIDE.pow(2) % SIDE,
                k / SIDE % SIDE,
                k % SIDE,
            ]
        })
        .collect();
    positions.sort_by_key(|h| h.iter().sum::<usize>());
    for heaps in positions {
        let mut reaches_p = false;
        for pile in 0..4 {
            for smaller in 0..heaps[pile] {
                let mut next = heaps;
                next[pile] = smaller;
                reaches_p |= is_p[index(next)];
            }
        }
        is_p[index(heaps)] = !reaches_p;
    }
    is_p
}

#[test]
fn pattern_equals_brute_force_game_search_for_every_board_up_to_12() {
    let is_p = solve_all();
    let index = |h: [usize; 4]| ((h[0] * SIDE + h[1]) * SIDE + h[2]) * SIDE + h[3];
    for m in 1..=SIDE {
        for n in 1..=SIDE {
            let grid = p_grid(m, n, &nimscape::Control::default()).unwrap();
            for i in 1..=m {
                for j in 1..=n {
                    let searched = is_p[index([i - 1, j - 1, m - i, n - j])];
                    assert_eq!(grid.get(i - 1, j - 1), searched, "C({m},{n}) at ({i},{j})");
                }
            }
        }
    }
}
