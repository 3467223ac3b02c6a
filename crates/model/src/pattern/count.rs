//! g(m) = |P(m,m)|, the number of P-positions of the square game (seed 003 §4).
//!
//! The recurrence g(1) = 1, g(2m) = 4 g(m), g(2m+1) = g(m) + g(m+1) is run on
//! the pair (g(k), g(k+1)) from the top bit of m down, so one value costs
//! O(log m) and m up to 10^9 (or 2^63) is instant. [`count_direct`] counts
//! cells instead, as the independent check.

use crate::control::Ticker;
use crate::pattern::signature;
use crate::{Control, Result};
use std::collections::HashMap;

/// Rows counted between two checks of a [`Control`]: a row costs a hash-map update
/// (tens of ns), so 65536 of them are a few milliseconds.
const ROWS_PER_CHECK: u64 = 1 << 16;

/// g(m) by the recurrence; m >= 1. Exact for every u64 m (g(m) <= m^2 < 2^128).
pub fn g(m: u64) -> u128 {
    assert!(m >= 1, "g(m) needs m >= 1");
    // (g(k), g(k+1)) starting from k = 1.
    let (mut low, mut high): (u128, u128) = (1, 4);
    for bit in (0..(63 - m.leading_zeros())).rev() {
        if m >> bit & 1 == 0 {
            // k -> 2k: (g(2k), g(2k+1)) = (4 g(k), g(k) + g(k+1))
            (low, high) = (4 * low, low + high);
        } else {
            // k -> 2k+1: (g(2k+1), g(2k+2)) = (g(k) + g(k+1), 4 g(k+1)). For
            // m = 2^64 - 1 the last g(2k+2) is g(2^64) = 2^128, past u128; it is
            // never read, so saturating it leaves g(m) exact.
            (low, high) = (low + high, high.saturating_mul(4));
        }
    }
    low
}

#[cfg(test)]
mod largest_m_tests {
    use super::g;

    #[test]
    fn the_largest_m_is_exact_by_the_odd_step() {
        // g(2k+1) = g(k) + g(k+1), with k = 2^63 - 1: g(2^63) = 4^63 = 2^126.
        assert_eq!(g(u64::MAX), g(u64::MAX >> 1) + (1u128 << 126));
    }
}

/// g(m) by counting P-cells: the number of (i,j) whose row and column signatures agree,
/// i.e. the sum over signatures of (rows with it)^2. O(m) time.
pub fn count_direct(m: u64) -> u128 {
    let control = Control::default();
    count_direct_ticked(m, &mut Ticker::new(&control, u64::MAX))
        .expect("a Control nobody holds is never cancelled")
}

/// [`count_direct`], one tick per row.
fn count_direct_ticked(m: u64, ticker: &mut Ticker<'_>) -> Result<u128> {
    let mut buckets: HashMap<u64, u128> = HashMap::new();
    for k in 1..=m {
        ticker.tick(1)?;
        *buckets.entry(signature(m, k)).or_default() += 1;
    }
    Ok(buckets.values().map(|c| c * c).sum())
}

/// One line of `count --check`: what was checked, over which range, and whether it held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckLine {
    /// The claim, in words.
    pub claim: String,
    /// The range it was checked on.
    pub range: String,
    /// Whether it held everywhere in the range.
    pub holds: bool,
}

/// Checks the recurrence against direct counting for m <= `up_to`, and both sum
/// identities of seed 003 (Theorems 4.2 and 4.3) for every power of two they reach.
///
/// Under `control`: progress in board rows counted (`m` of them for each
/// m, the direct counts being all the work), checked every 65536 rows.
pub fn check(up_to: u64, control: &Control) -> Result<Vec<CheckLine>> {
    let up_to = up_to.max(2);
    control.add_total(up_to / 2 * (up_to + 1) + up_to % 2 * (up_to + 1) / 2);
    let mut ticker = Ticker::new(control, ROWS_PER_CHECK);
    let direct = (1..=up_to)
        .map(|m| count_direct_ticked(m, &mut ticker))
        .collect::<Result<Vec<u128>>>()?;
    ticker.flush()?;
    let gd = |m: u64| direct[(m - 1) as usize];
    let mut lines = Vec::new();
    lines.push(CheckLine {
        claim: "g(m) by the recurrence equals the number of P-cells counted on the board".into(),
        range: format!("m = 1..{up_to}"),
        holds: (1..=up_to).all(|m| g(m) == gd(m)),
    });
    lines.push(CheckLine {
        claim: "g(2m) = 4 g(m) (counted)".into(),
        range: format!("m = 1..{}", up_to / 2),
        holds: (1..=up_to / 2).all(|m| gd(2 * m) == 4 * gd(m)),
    });
    lines.push(CheckLine {
        claim: "g(2m+1) = g(m) + g(m+1) (counted)".into(),
        range: format!("m = 1..{}", (up_to - 1) / 2),
        holds: (1..=(up_to - 1) / 2).all(|m| gd(2 * m + 1) == gd(m) + gd(m + 1)),
    });
    let top_power = 63 - up_to.leading_zeros();
    // The odd sum up to 2^(n-1) reaches g(2^n - 1).
    let odd_top = 63 - (up_to + 1).leading_zeros();
    lines.push(CheckLine {
        claim: "sum of g(2m-1) for m = 1..2^(n-1) equals 6^(n-1) (Theorem 4.2)".into(),
        range: format!("n = 1..{odd_top}"),
        holds: (1..=odd_top).all(|n| {
            let odd_sum: u128 = (1..=1u64 << (n - 1)).map(|m| gd(2 * m - 1)).sum();
            odd_sum == 6u128.pow(n - 1)
        }),
    });
    lines.push(CheckLine {
        claim: "sum of g(m) for m = 1..2^n equals (4^n + 6^n) / 2 (Theorem 4.3)".into(),
        range: format!("n = 0..{top_power}"),
        holds: (0..=top_power).all(|n| {
            let sum: u128 = (1..=1u64 << n).map(gd).sum();
            sum == (4u128.pow(n) + 6u128.pow(n)) / 2
        }),
    });
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_terms_match_the_spec() {
        let first: Vec<u128> = (1..=16).map(g).collect();
        assert_eq!(
            first,
            [1, 4, 5, 16, 9, 20, 21, 64, 25, 36, 29, 80, 41, 84, 85, 256]
        );
    }

    #[test]
    fn huge_m_is_instant_and_exact_at_powers_of_two() {
        assert_eq!(g(1 << 30), 1u128 << 60);
        assert_eq!(g(1 << 63), 1u128 << 126);
        assert!(g(1_000_000_000) > 0);
    }

    #[test]
    fn every_check_holds_up_to_300() {
        for line in check(300, &crate::Control::default()).unwrap() {
            assert!(line.holds, "{line:?}");
        }
    }
}
