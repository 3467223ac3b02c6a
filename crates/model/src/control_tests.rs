//! Every long-running entry point under a [`Control`]: a cancelled one returns
//! `Err(Cancelled)`, and a finished one reports all the work it announced.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::automaton::{
    check_parity, exact_frame, exact_frames, parity_frame, residue_frame, rule60, ExactStepper,
    ParityStepper, ResidueStepper,
};
use crate::error::DEFAULT_MEMORY_LIMIT as LIMIT;
use crate::games::{
    check_shifts, compare_nim_sum, solve_capped_fn, solve_dense, square_board, Band, CappedGame,
    GameBox, GameParams, GameSpec, Nim, NimPass, SixSided, Solution,
};
use crate::octahedron::{aligned_cells, sierpinski_faces, Cut, Level, Section, ViewAxes};
use crate::pattern::count::check;
use crate::pattern::{count_cells, p_grid};
use crate::{Control, Error, Result};

/// Runs `work` under a fresh control; asserts it finished with every announced unit
/// done, and returns its value.
fn finished<T>(work: impl FnOnce(&Control) -> Result<T>) -> T {
    let control = Control::new();
    let value = work(&control).unwrap();
    let (done, total) = control.progress();
    assert_eq!(done, total, "progress at the end");
    assert!(total > 0, "no work announced");
    value
}

/// Runs `work` under a control cancelled before it starts.
fn precancelled<T>(work: impl FnOnce(&Control) -> Result<T>) {
    let control = Control::new();
    control.cancel();
    assert!(matches!(work(&control), Err(Error::Cancelled)));
}

/// Runs `work` while another thread cancels it as soon as some progress is reported;
/// returns how long the work took to stop after the cancel.
fn cancelled_midway<T>(work: impl FnOnce(&Control) -> Result<T>) -> Duration {
    let control = Control::new();
    let over = AtomicBool::new(false);
    let (result, stopped, cancelled_at) = std::thread::scope(|s| {
        let watcher = s.spawn(|| loop {
            if over.load(Ordering::Relaxed) {
                return None;
            }
            if control.progress().0 > 0 {
                control.cancel();
                return Some(Instant::now());
            }
            std::thread::sleep(Duration::from_micros(200));
        });
        let result = work(&control);
        let stopped = Instant::now();
        over.store(true, Ordering::Relaxed);
        (result, stopped, watcher.join().unwrap())
    });
    let cancelled_at = cancelled_at.expect("the work ended before the watcher saw progress");
    assert!(matches!(result, Err(Error::Cancelled)));
    let (done, total) = control.progress();
    assert!(done < total, "stopped early: {done} of {total}");
    stopped.saturating_duration_since(cancelled_at)
}

/// A capped box, a dense box and every other game, as `GameSpec`s.
fn specs() -> Vec<(GameSpec, GameBox)> {
    let spec = |name: &str, params: GameParams| GameSpec::from_name(name, &params).unwrap();
    let k = |k| GameParams {
        k: Some(k),
        ..GameParams::default()
    };
    vec![
        (spec("triangular", k(3)), GameBox::Uniform(60)),
        (
            spec("min-half", GameParams::default()),
            GameBox::Uniform(40),
        ),
        (
            spec(
                "cap",
                GameParams {
                    cap: Some("max(x - z, z - x, 2) / 2".into()),
                    ..GameParams::default()
                },
            ),
            GameBox::Uniform(30),
        ),
        (
            spec("six-sided", GameParams::default()),
            GameBox::Uniform(3),
        ),
        (
            spec("band-7-1", GameParams::default()),
            GameBox::Uniform(22),
        ),
        (
            spec("nim-pass", GameParams::default()),
            GameBox::Uniform(12),
        ),
        (spec("nim", GameParams::default()), GameBox::Uniform(20)),
    ]
}

fn values(s: &Solution) -> Vec<(Vec<u32>, u16)> {
    s.positions().collect()
}

#[test]
fn games_finish_with_full_progress_and_streamed_values_equal_solved_ones() {
    for (spec, b) in specs() {
        let solved = finished(|c| spec.solve(&b, LIMIT, c));
        let mut bytes = Vec::new();
        let streamed = finished(|c| {
            spec.solve_streamed(
                &b,
                LIMIT,
                |_| Ok(()),
                &mut |s| {
                    bytes.extend_from_slice(s);
                    Ok(())
                },
                c,
            )
        });
        assert_eq!(values(&solved), values(&streamed), "{}", spec.name());
        precancelled(|c| spec.solve(&b, LIMIT, c));
        precancelled(|c| spec.solve_streamed(&b, LIMIT, |_| Ok(()), &mut |_| Ok(()), c));
    }
    let game = CappedGame::triangular(2).unwrap();
    let g = finished(|c| game.solve([40, 40, 40], LIMIT, c));
    finished(|c| compare_nim_sum(&g, c));
    finished(|c| check_shifts(&g, -3..=3, c));
    precancelled(|c| compare_nim_sum(&g, c));
    precancelled(|c| check_shifts(&g, -3..=3, c));
    let cap = |x: u32, z: u32| Ok(u64::from(x ^ z) % 7);
    let by_fn =
        finished(|c| solve_capped_fn("xor", cap, [30, 6, 30], Default::default(), LIMIT, c));
    assert_eq!(by_fn.len(), {
        let mut n = 0;
        for x in 0..=30u32 {
            for z in 0..=30u32 {
                n += (u64::from(x ^ z) % 7).min(6) as usize + 1;
            }
        }
        n
    });
    precancelled(|c| solve_capped_fn("xor", cap, [30, 6, 30], Default::default(), LIMIT, c));
    let nim = Nim::new(3).unwrap();
    finished(|c| solve_dense(&nim, &[9, 9, 9], LIMIT, c));
    precancelled(|c| solve_dense(&Band::Example71, &[22, 23], LIMIT, c));
    precancelled(|c| solve_dense(&SixSided, &SixSided::seed_box(1), LIMIT, c));
    precancelled(|c| NimPass::new(3).unwrap().p_positions(&[5, 5, 5], LIMIT, c));
    finished(|c| square_board(9, LIMIT, c));
    precancelled(|c| square_board(9, LIMIT, c));
}

#[test]
fn games_stop_midway_when_cancelled() {
    // The tiled solver (progress per anti-diagonal of tiles), the general one (per
    // level), the dense solver and nim-pass (per batch of tuples).
    let triangular = CappedGame::triangular(1).unwrap();
    let late = cancelled_midway(|c| triangular.solve([300, 300, 300], LIMIT, c));
    let wavy = CappedGame::with_expr("max(x - z, z - x) + 20").unwrap();
    cancelled_midway(|c| wavy.solve([200, 400, 200], LIMIT, c));
    cancelled_midway(|c| solve_dense(&Band::Example71, &[3000, 3001], LIMIT, c));
    cancelled_midway(|c| NimPass::new(2).unwrap().solve(&[3000, 3000], LIMIT, c));
    cancelled_midway(|c| square_board(120, LIMIT, c));
    assert!(
        late < Duration::from_secs(2),
        "{late:?} from cancel to stop"
    );
    // A writer that cancels on the first slab stops the streamed solve at the next
    // anti-diagonal, deterministically.
    let control = Control::new();
    let err = triangular
        .solve_streamed(
            [200, 200, 200],
            LIMIT,
            u16::MAX,
            |_| Ok(()),
            &mut |_| {
                control.cancel();
                Ok(())
            },
            &control,
        )
        .unwrap_err();
    assert!(matches!(err, Error::Cancelled), "{err}");
}

#[test]
fn automaton_frames_finish_with_full_progress_and_stop_when_cancelled() {
    let mut stepper = ParityStepper::new(200, LIMIT).unwrap();
    while stepper.step(&Control::new()).unwrap().is_some() {}
    assert_eq!(stepper.to_grid(), finished(|c| parity_frame(200, LIMIT, c)));
    let mut residues = ResidueStepper::new(7, 90, LIMIT).unwrap();
    while residues.step(&Control::new()).unwrap().is_some() {}
    assert_eq!(
        residues.to_grid(),
        finished(|c| residue_frame(90, 7, LIMIT, c))
    );
    let mut exact = ExactStepper::new(30, LIMIT).unwrap();
    while exact.step(&Control::new()).unwrap().is_some() {}
    assert_eq!(exact.to_grid(), finished(|c| exact_frame(30, LIMIT, c)));
    assert_eq!(finished(|c| exact_frames(5, 30, LIMIT, c)).len(), 26);
    finished(|c| rule60(300, LIMIT, c));
    finished(|c| rule60(64, LIMIT, c));
    finished(|c| check_parity(150, LIMIT, c));
    precancelled(|c| parity_frame(50, LIMIT, c));
    precancelled(|c| residue_frame(50, 3, LIMIT, c));
    precancelled(|c| exact_frames(1, 20, LIMIT, c));
    precancelled(|c| rule60(50, LIMIT, c));
    precancelled(|c| check_parity(50, LIMIT, c));

    cancelled_midway(|c| parity_frame(6000, LIMIT, c));
    cancelled_midway(|c| residue_frame(1500, 5, LIMIT, c));
    cancelled_midway(|c| exact_frame(500, LIMIT, c));
    cancelled_midway(|c| check_parity(6000, LIMIT, c));

    // A cancelled step leaves the stepper on its frame: stepping on gives the same frames.
    let mut stepper = ParityStepper::new(100, LIMIT).unwrap();
    let control = Control::new();
    for _ in 0..40 {
        stepper.step(&control).unwrap();
    }
    control.cancel();
    assert!(matches!(stepper.step(&control), Err(Error::Cancelled)));
    assert_eq!(stepper.frame(), 40);
    while stepper.step(&Control::new()).unwrap().is_some() {}
    assert_eq!(
        stepper.to_grid(),
        parity_frame(100, LIMIT, &Control::new()).unwrap()
    );
}

#[test]
fn octahedron_sections_walks_and_views_finish_and_stop() {
    let level = Level::parse_r("0.37").unwrap();
    finished(|c| Section::compute(12, level, LIMIT, c));
    precancelled(|c| Section::compute(12, level, LIMIT, c));
    finished(|c| aligned_cells(5, 13, LIMIT, c));
    precancelled(|c| aligned_cells(5, 13, LIMIT, c));
    let axes = ViewAxes {
        right: [0.0, 1.0, 0.0],
        up: [0.0, 0.0, 1.0],
        toward: [1.0, 0.0, 0.0],
    };
    finished(|c| sierpinski_faces(3, &axes, None, LIMIT, c));
    precancelled(|c| sierpinski_faces(3, &axes, None, LIMIT, c));

    // The walk: progress reaching the whole area however early the visitor stops,
    // and a visitor that cancels stops it.
    let cut = Cut::new(14, level).unwrap();
    let mut visited = 0u64;
    finished(|c| {
        cut.walk(
            |node| {
                visited += 1;
                node.depth < 9
            },
            c,
        )
    });
    assert!(visited > 1, "{visited} nodes");
    let control = Control::new();
    let mut seen = 0u64;
    let err = cut.walk(
        |_| {
            seen += 1;
            if seen == 10 {
                control.cancel();
            }
            true
        },
        &control,
    );
    assert!(matches!(err, Err(Error::Cancelled)));
    // The check comes within a batch of nodes, not at the end of the walk.
    assert!(seen < 10 + (1 << 17), "{seen} nodes");

    // Diamonds streamed to a callback that cancels: stopped within a batch.
    let control = Control::new();
    let mut diamonds = 0u64;
    let err = Cut::new(20, level).unwrap().for_each(
        |_| {
            diamonds += 1;
            control.cancel();
        },
        &control,
    );
    assert!(matches!(err, Err(Error::Cancelled)));
    assert!(diamonds <= 1 << 17, "{diamonds} diamonds");
}

#[test]
fn patterns_finish_with_full_progress_and_stop_when_cancelled() {
    finished(|c| p_grid(300, 257, c));
    finished(|c| p_grid(64, 64, c));
    finished(|c| count_cells(1000, 999, c));
    finished(|c| check(300, c));
    finished(|c| check(301, c));
    precancelled(|c| p_grid(300, 257, c));
    precancelled(|c| count_cells(1000, 999, c));
    precancelled(|c| check(300, c));
    cancelled_midway(|c| count_cells(1 << 31, 1 << 31, c));
    cancelled_midway(|c| check(40_000, c));
}
