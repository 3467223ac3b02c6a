//! Game files against the built-in solver, side by side in one run: Example 7.1 of
//! Miyadera et al.'s web book written as a game file (games/band-7-1.toml) and the
//! built-in `band-7-1`, every value of the box x 0..300, y 0..301. Target: the game
//! file within 1.5x of the built-in game (the file is recognised as the built-in band
//! and solved by its solver; the generic solver on the same file is measured beside
//! it). (The Python peer, the papers' memoised recursion, is
//! benches/compare_game_file.py.)

use criterion::{criterion_group, criterion_main, Criterion};
use nimscape::Control;
use nimscape_model::error::DEFAULT_MEMORY_LIMIT;
use nimscape_model::games::{Band, GameBox, GameFile, GameSpec};
use std::sync::Arc;

fn band_7_1_box_300(c: &mut Criterion) {
    let text = include_str!("../games/band-7-1.toml");
    let file = GameFile::parse("games/band-7-1.toml", text, &[]).expect("the shipped file parses");
    let generic = file.clone();
    let from_file = GameSpec::File(Arc::new(file));
    let builtin = GameSpec::Band(Band::Example71);
    let game_box = GameBox::Each(vec![300, 301]);
    let mut group = c.benchmark_group("game file");
    group.sample_size(30);
    for (name, game) in [
        ("band-7-1 built-in box 300", &builtin),
        ("band-7-1 game file box 300", &from_file),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let s = game
                    .solve(&game_box, DEFAULT_MEMORY_LIMIT, &Control::new())
                    .expect("fits the memory limit");
                assert_eq!(s.len(), 1200);
                s
            })
        });
    }
    group.bench_function("band-7-1 game file box 300, generic solver", |b| {
        b.iter(|| {
            let s = generic
                .solve_generic(&[300, 301], DEFAULT_MEMORY_LIMIT, &Control::new())
                .expect("fits the memory limit");
            assert_eq!(s.len(), 1200);
            s
        })
    });
    group.finish();
}

criterion_group!(benches, band_7_1_box_300);
criterion_main!(benches);
