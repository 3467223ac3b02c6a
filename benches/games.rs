//! Grundy solver speed: the triangular bar y <= floor((x+z)/3), every value
//! in the box 0..256 (about 5.7 million positions). Target: under 2 s.

use criterion::{criterion_group, criterion_main, Criterion};
use nimscape_model::error::DEFAULT_MEMORY_LIMIT;
use nimscape_model::games::CappedGame;
use nimscape_model::Control;

fn triangular_k3_box_256(c: &mut Criterion) {
    let game = CappedGame::triangular(3).expect("k = 3 is valid");
    let mut group = c.benchmark_group("grundy");
    group.sample_size(10);
    group.bench_function("triangular k=3 box 256", |b| {
        b.iter(|| {
            let g = game
                .solve([256, 256, 256], DEFAULT_MEMORY_LIMIT, &Control::new())
                .expect("fits the memory limit");
            assert_eq!(g.get(0, 0, 0), Some(0));
            g
        })
    });
    group.finish();
}

criterion_group!(benches, triangular_k3_box_256);
criterion_main!(benches);
