//! Cross-checks of the automaton: fast paths against the per-cell reference,
//! exact values against residues, parity against the XOR criterion for P(n,n).

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;

use super::*;
use crate::error::DEFAULT_MEMORY_LIMIT as LIMIT;
use crate::{Control, Error};

/// P(n,n) straight from SPEC §1, one cell at a time (0-based row, col).
fn is_p(n: usize, row: usize, col: usize) -> bool {
    row ^ col ^ (n - 1 - row) ^ (n - 1 - col) == 0
}

fn parity_frames(last: usize) -> Vec<crate::BitGrid> {
    let mut stepper = ParityStepper::new(last, LIMIT).unwrap();
    std::iter::from_fn(|| {
        stepper.step(&Control::new()).unwrap()?;
        Some(stepper.to_grid())
    })
    .collect()
}

#[test]
fn nothing_outside_the_n_by_n_square_is_ever_nonzero() {
    let frames = naive::frames_on_window(40, false, true, |a, b| a ^ b);
    let exact = naive::frames_on_window(20, BigUint::zero(), BigUint::one(), |a, b| a + b);
    for (n, frame) in frames.iter().enumerate() {
        for (i, row) in frame.iter().enumerate() {
            for (j, &odd) in row.iter().enumerate() {
                let inside = (1..=n).contains(&i) && (1..=n).contains(&j);
                assert!(
                    inside || !odd,
                    "frame {n} has an odd cell ({i}, {j}) outside"
                );
            }
        }
    }
    for (n, frame) in exact.iter().enumerate() {
        for (i, row) in frame.iter().enumerate() {
            for (j, value) in row.iter().enumerate() {
                let inside = (1..=n).contains(&i) && (1..=n).contains(&j);
                // Every cell of the square is positive, which the memory estimate relies on.
                assert_eq!(inside, !value.is_zero(), "frame {n}, cell ({i}, {j})");
            }
        }
    }
}

#[test]
fn bit_parallel_parity_is_p_n_n_for_every_n_up_to_256() {
    for (k, grid) in parity_frames(256).iter().enumerate() {
        let n = k + 1;
        assert_eq!((grid.rows(), grid.cols()), (n, n));
        let expected = crate::BitGrid::from_fn(n, n, |r, c| is_p(n, r, c));
        assert_eq!(grid, &expected, "frame {n}");
    }
}

#[test]
fn exact_parity_is_p_n_n_for_every_n_up_to_40() {
    for grid in exact_frames(1, 40, LIMIT, &Control::new()).unwrap() {
        let n = grid.size();
        for r in 0..n {
            for c in 0..n {
                assert_eq!(
                    grid.get(r, c).bit(0),
                    is_p(n, r, c),
                    "frame {n}, cell ({r}, {c})"
                );
            }
        }
    }
}

#[test]
fn frame_40_has_a_value_near_4_7e22_as_spec_says() {
    let max = exact_frame(40, LIMIT, &Control::new()).unwrap().max_value();
    let max: f64 = max.to_string().parse().unwrap();
    assert!((4.65e22..4.75e22).contains(&max), "{max}");
}

#[test]
fn exact_values_equal_the_per_cell_reference() {
    let naive = naive::frames_on_window(24, BigUint::zero(), BigUint::one(), |a, b| a + b);
    for grid in exact_frames(1, 24, LIMIT, &Control::new()).unwrap() {
        let n = grid.size();
        let square: Vec<BigUint> = naive::square(&naive[n], n).concat();
        assert_eq!(grid.values(), &square[..], "frame {n}");
    }
}

#[test]
fn frame_totals_are_half_of_every_third_fibonacci_number() {
    // Summing the recurrence over Z² gives S(n+2) = 4 S(n+1) + S(n); with
    // S(1) = 1, S(2) = 4 that is F(3n)/2, computed here from F alone.
    let mut fib = vec![BigUint::zero(), BigUint::one()];
    while fib.len() <= 3 * 60 {
        let next = &fib[fib.len() - 1] + &fib[fib.len() - 2];
        fib.push(next);
    }
    for grid in exact_frames(1, 60, LIMIT, &Control::new()).unwrap() {
        let n = grid.size();
        let total: BigUint = grid.values().iter().sum();
        assert_eq!(total * 2u32, fib[3 * n], "frame {n}");
        assert!(
            grid.max_value().bits() <= exact::value_bits_bound(n),
            "frame {n}"
        );
    }
}

#[test]
fn residues_equal_exact_values_reduced() {
    let exact = exact_frames(1, 40, LIMIT, &Control::new()).unwrap();
    for p in [2u64, 3, 4, 5, 6, 7, 10, 12, 255, 256, 65521, 65535] {
        let mut stepper = ResidueStepper::new(p, 40, LIMIT).unwrap();
        let residues: Vec<_> = std::iter::from_fn(|| {
            stepper.step(&Control::new()).unwrap()?;
            Some(stepper.to_grid())
        })
        .collect();
        assert_eq!(residues.len(), 40);
        for (got, want) in residues.iter().zip(&exact) {
            assert_eq!(got.modulus() as u64, p);
            assert_eq!(
                got,
                &want.reduce(p).unwrap(),
                "p = {p}, frame {}",
                got.size()
            );
        }
    }
}

#[test]
fn even_moduli_give_the_parity_too() {
    let grid = residue_frame(100, 6, LIMIT, &Control::new()).unwrap();
    assert_eq!(
        grid.odd_cells(),
        parity_frame(100, LIMIT, &Control::new()).unwrap()
    );
}

#[test]
fn bit_parallel_equals_per_cell_across_word_boundaries() {
    let last = 130;
    let naive = naive::frames_on_window(last, false, true, |a, b| a ^ b);
    for (k, grid) in parity_frames(last).iter().enumerate() {
        let n = k + 1;
        let square = naive::square(&naive[n], n);
        assert_eq!(
            grid,
            &crate::BitGrid::from_fn(n, n, |r, c| square[r][c]),
            "frame {n}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn bit_parallel_equals_per_cell_on_random_sizes(last in 1usize..200) {
        let naive = naive::frames_on_window(last, false, true, |a, b| a ^ b);
        let grid = parity_frame(last, LIMIT, &Control::new()).unwrap();
        let square = naive::square(&naive[last], last);
        prop_assert_eq!(grid, crate::BitGrid::from_fn(last, last, |r, c| square[r][c]));
    }

    #[test]
    fn check_finds_exactly_the_first_flipped_cell(n in 1usize..200, a in 0usize..40000, b in 0usize..40000) {
        let mut grid = parity_frame(n, LIMIT, &Control::new()).unwrap();
        let mut cells = vec![(a / n % n, a % n), (b / n % n, b % n)];
        cells.sort();
        cells.dedup();
        for &(r, c) in &cells {
            let value = grid.get(r, c);
            grid.set(r, c, !value);
        }
        let (r, c) = cells[0];
        let expected = Some(Mismatch { frame: n, i: r + 1, j: c + 1, odd: !is_p(n, r, c) });
        prop_assert_eq!(check_grid(&grid).unwrap(), expected);
    }
}

#[test]
fn p_row_words_match_the_per_cell_criterion() {
    for n in 1..=200usize {
        let mut words = vec![0u64; n.div_ceil(64)];
        for row in 0..n {
            check::p_row_words(n, row, &mut words);
            for col in 0..n {
                let bit = words[col / 64] >> (col % 64) & 1 == 1;
                assert_eq!(bit, is_p(n, row, col), "n = {n}, cell ({row}, {col})");
            }
            let tail = n % 64;
            if tail != 0 {
                assert_eq!(words[n / 64] >> tail, 0, "n = {n}: bits past the board");
            }
        }
    }
}

#[test]
fn check_parity_finds_no_mismatch_up_to_300() {
    assert_eq!(
        check_parity(300, LIMIT, &crate::Control::default()).unwrap(),
        None
    );
}

#[test]
fn mismatch_reads_as_one_line() {
    let m = Mismatch {
        frame: 5,
        i: 1,
        j: 2,
        odd: true,
    };
    assert_eq!(
        m.to_string(),
        "frame 5: cell (1, 2) is odd but is not a P-position of C(5, 5)"
    );
}

#[test]
fn stepper_accessors_agree_and_stop_at_the_last_frame() {
    let mut stepper = ParityStepper::new(70, LIMIT).unwrap();
    let mut residues = ResidueStepper::new(2, 70, LIMIT).unwrap();
    assert_eq!(stepper.frame(), 0);
    while let Some(n) = stepper.step(&Control::new()).unwrap() {
        assert_eq!(residues.step(&Control::new()).unwrap(), Some(n));
        let grid = stepper.to_grid();
        for i in 0..=n + 1 {
            for j in 0..=n + 1 {
                let inside = i >= 1 && j >= 1 && i <= n && j <= n;
                let want = inside && grid.get(i - 1, j - 1);
                assert_eq!(stepper.get(i, j), want, "frame {n}, ({i}, {j})");
                assert_eq!(residues.get(i, j) == 1, want, "frame {n}, ({i}, {j})");
            }
        }
    }
    assert_eq!(stepper.frame(), 70);
    assert_eq!(stepper.step(&Control::new()).unwrap(), None);
    assert_eq!(residues.step(&Control::new()).unwrap(), None);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                (
                    parity_frame(700, LIMIT, &Control::new()).unwrap(),
                    residue_frame(300, 7, LIMIT, &Control::new()).unwrap(),
                )
            })
    };
    assert_eq!(run(1), run(3));
}

#[test]
fn rule60_is_pascals_triangle_mod_2() {
    for n in [1, 2, 63, 64, 65, 200] {
        let grid = rule60(n, LIMIT, &crate::Control::default()).unwrap();
        assert_eq!((grid.rows(), grid.cols()), (n, n));
        assert_eq!(grid, crate::BitGrid::from_fn(n, n, |r, k| r & k == k));
    }
}

fn one_line_naming(err: Error, flag: &str) {
    let text = err.to_string();
    assert!(matches!(err, Error::InvalidParameter { .. }), "{text}");
    assert!(!text.contains('\n') && text.contains(flag), "{text}");
}

#[test]
fn bad_parameters_are_one_line_errors_naming_the_flag() {
    for p in [0u64, 1, 65536, 70000] {
        one_line_naming(check_modulus(p).unwrap_err(), "`modulus`");
        one_line_naming(ResidueStepper::new(p, 4, LIMIT).err().unwrap(), "`modulus`");
    }
    assert_eq!(check_modulus(65535).unwrap(), 65535);
    one_line_naming(check_frames(0, 5).unwrap_err(), "`frames`");
    one_line_naming(check_frames(6, 5).unwrap_err(), "`frames`");
    one_line_naming(ParityStepper::new(0, LIMIT).unwrap_err(), "`frames`");
    one_line_naming(
        exact_frames(0, 3, LIMIT, &Control::new()).unwrap_err(),
        "`frames`",
    );
    one_line_naming(
        rule60(0, LIMIT, &crate::Control::default()).unwrap_err(),
        "`frames`",
    );
    let residues = ResidueGrid::from_values(1, 3, vec![3]);
    assert!(matches!(residues, Err(Error::InvalidParameter { .. })));
}

#[test]
fn too_large_requests_are_refused_with_an_estimate() {
    for err in [
        exact_frames(1, 4096, LIMIT, &Control::new()).unwrap_err(),
        ExactStepper::new(4096, LIMIT).err().unwrap(),
        ParityStepper::new(1 << 20, LIMIT).unwrap_err(),
        ResidueStepper::new(3, 1 << 16, LIMIT).err().unwrap(),
    ] {
        assert!(matches!(err, Error::TooLarge { .. }), "{err}");
        assert!(!err.to_string().contains('\n'));
    }
    // The estimate covers what the frames really hold, and what a reader can
    // still read (frames up to 40) stays small.
    let frames = exact_frames(1, 40, LIMIT, &Control::new()).unwrap();
    let held: u64 = frames
        .iter()
        .flat_map(|grid| grid.values())
        .map(|v| std::mem::size_of::<BigUint>() as u64 + v.bits().div_ceil(64) * 8)
        .sum();
    let estimate = exact_memory_estimate(1, 40);
    assert!(held <= estimate && estimate < 16 << 20, "{held} {estimate}");
    assert!(ParityStepper::new(4096, LIMIT).is_ok());
}

#[test]
fn estimates_saturate_so_huge_frames_are_refused_not_wrapped() {
    for last in [1usize << 31, 1 << 32, 1 << 62, usize::MAX] {
        assert!(ParityStepper::memory_estimate(last) > LIMIT, "{last}");
        assert!(ResidueStepper::memory_estimate(last) > LIMIT, "{last}");
        assert!(rule60_bytes(last) > LIMIT, "{last}");
        assert!(matches!(
            ParityStepper::new(last, LIMIT),
            Err(Error::TooLarge { .. })
        ));
        assert!(matches!(
            ResidueStepper::new(3, last, LIMIT),
            Err(Error::TooLarge { .. })
        ));
        assert!(matches!(
            rule60(last, LIMIT, &crate::Control::default()),
            Err(Error::TooLarge { .. })
        ));
    }
    assert!(ExactStepper::memory_estimate(1 << 62) > LIMIT);
    assert!(crate::pattern::p_grid_bytes(1 << 62, 1 << 62) > LIMIT);
    assert_eq!(crate::pattern::p_grid_bytes(64, 64), 64 * 8 + 2 * 64 * 8);
}
