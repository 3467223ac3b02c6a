//! Speed of the automaton and the GIF encoder (SPEC §3, issue 3).
//!
//! `cargo bench --bench automaton`. Targets: every frame 1..4096 computed and
//! checked against the XOR criterion in under 10 s on 2 cores; a 64-frame
//! 512 x 512 GIF in under 1 s.

use criterion::{criterion_group, criterion_main, Criterion};
use nimscape::encode::gif::{GifWriter, Repeat};
use nimscape::figure::square::{SquareFigure, SquareMode};
use nimscape::scene::board::BoardStyle;
use nimscape_model::automaton::{ParityStepper, ResidueStepper};
use nimscape_model::error::DEFAULT_MEMORY_LIMIT;
use nimscape_model::Control;

/// Frames 1..=last mod 2, each checked against P(n,n); panics on a mismatch.
fn parity_and_check(last: usize) {
    let mut stepper = ParityStepper::new(last, DEFAULT_MEMORY_LIMIT).unwrap();
    let control = Control::new();
    while stepper.step(&control).unwrap().is_some() {
        assert_eq!(stepper.first_mismatch(&control).unwrap(), None);
    }
}

/// Frames 1..=64 mod 2, each scaled to 512 x 512 px (cell (r, c) covers
/// pixels with `r = y * n / 512`), as one looping GIF.
fn gif_64_frames() -> Vec<u8> {
    const SIDE: usize = 512;
    let palette = [[255, 255, 255], [20, 60, 160]];
    let mut gif = GifWriter::new(Vec::new(), SIDE, SIDE, &palette, Repeat::Forever).unwrap();
    let mut stepper = ParityStepper::new(64, DEFAULT_MEMORY_LIMIT).unwrap();
    let mut pixels = vec![0u8; SIDE * SIDE];
    let control = Control::new();
    while let Some(n) = stepper.step(&control).unwrap() {
        for (y, row) in pixels.chunks_mut(SIDE).enumerate() {
            let i = y * n / SIDE + 1;
            for (x, px) in row.iter_mut().enumerate() {
                *px = u8::from(stepper.get(i, x * n / SIDE + 1));
            }
        }
        gif.write_frame(&pixels, 8).unwrap();
    }
    gif.finish_holding_last(200).unwrap()
}

/// `nimscape square --m 1..64 -o squares.gif`: 64 styled frames (512 px boards,
/// captions, grid lines) through the shared animation helper; returns the file size.
fn square_gif(path: &std::path::Path) -> u64 {
    let figure = SquareFigure::new(
        (1..=64).collect(),
        SquareMode::styled(BoardStyle::default()),
    );
    let plan = nimscape::figure::plan::Plan::new(figure).unwrap();
    nimscape::figure::save(
        &plan,
        path,
        &nimscape::encode::Metadata::default(),
        &Control::new(),
        nimscape::encode::DEFAULT_OUTPUT_LIMIT,
    )
    .unwrap();
    std::fs::metadata(path).unwrap().len()
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("automaton");
    group.sample_size(10);
    group.bench_function("mod 2 + check, frames 1..4096", |b| {
        b.iter(|| parity_and_check(4096))
    });
    group.bench_function("mod 2 + check, frames 1..1024", |b| {
        b.iter(|| parity_and_check(1024))
    });
    group.bench_function("mod 7, frames 1..1024", |b| {
        b.iter(|| {
            let mut stepper = ResidueStepper::new(7, 1024, DEFAULT_MEMORY_LIMIT).unwrap();
            let control = Control::new();
            while stepper.step(&control).unwrap().is_some() {}
            stepper.get(512, 512)
        })
    });
    let size = gif_64_frames().len();
    eprintln!("64-frame 512 x 512 GIF: {size} bytes");
    group.bench_function("GIF, 64 frames of 512 x 512", |b| b.iter(gif_64_frames));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("squares.gif");
    eprintln!(
        "square --m 1..64 -o squares.gif: {} bytes",
        square_gif(&path)
    );
    group.bench_function("square --m 1..64 -o squares.gif", |b| {
        b.iter(|| square_gif(&path))
    });
    group.finish();
}

criterion_group!(automaton, benches);
criterion_main!(automaton);
