//! Speed of explorer tiles (issue 11): one 256 x 256 tile of R(m,m) with
//! every pixel shaded by its exact P-cell count.
//!
//! `cargo bench --bench tiles`. Target: under 2 ms per tile for any
//! m <= 2^62, at every zoom level. Small samples and short measurements keep
//! the whole run to well under a minute; a tile takes about a millisecond,
//! so a second of measurement still times hundreds of them.

use criterion::{criterion_group, criterion_main, Criterion};
use nimscape_model::pattern::tiles::{TileMode, TilePlan, TILE};
use std::time::Duration;

fn bench_tiles(c: &mut Criterion) {
    let mut group = c.benchmark_group("tile_256");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    let mut out = vec![0u8; TILE * TILE];
    // (m, level): single cells of a mid board, the whole of a huge board in one
    // tile, and a deep zoom into the largest board.
    let cases = [
        (1_000_003u64, 0u32),
        ((1u64 << 62) - 1, 54),
        ((1u64 << 62) - 1, 0),
        ((1u64 << 61) + 12345, 30),
    ];
    for (m, level) in cases {
        let plan = TilePlan::new(m, m, level).unwrap();
        // A tile near the middle of the board, where both borrow classes occur.
        let mid = (plan.row_blocks() / 2) / TILE as u64;
        group.bench_function(format!("density m={m} level={level}"), |b| {
            b.iter(|| {
                let plan = TilePlan::new(m, m, level).unwrap();
                plan.render(mid, mid, TileMode::Density, &mut out);
                out[0]
            });
        });
    }
    group.bench_function("nimsum m=2^62-1 level=0", |b| {
        let plan = TilePlan::new((1 << 62) - 1, (1 << 62) - 1, 0).unwrap();
        b.iter(|| {
            plan.render(12345, 67890, TileMode::NimSumBits, &mut out);
            out[0]
        });
    });
    group.finish();
}

criterion_group!(benches, bench_tiles);
criterion_main!(benches);
