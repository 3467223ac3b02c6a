//! `.npy` write speed: the Grundy values of the triangular bar k = 3 in the box
//! 0..400 (about 21 million positions; a 401 x 267 x 401 uint16 array of 86 MB, `y`
//! stopping at the tallest column) streamed to a sink, slab by slab, as
//! `grundy ... -o x.npy` writes an already solved box. Target: over 1 GB/s.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nimscape::encode::npy;
use nimscape_model::games::{CappedGame, Solution};
use nimscape_model::Control;

fn npy_write_box_400(c: &mut Criterion) {
    let game = CappedGame::triangular(3).expect("k = 3 is valid");
    let solution = Solution::Capped(
        game.solve([400, 400, 400], 4 << 30, &Control::new())
            .expect("fits"),
    );
    let shape = solution.data_shape();
    let bytes = shape.iter().product::<u64>() * 2;
    let mut group = c.benchmark_group("npy");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function("grundy box 400 to a sink", |b| {
        b.iter(|| {
            let mut out = std::io::sink();
            npy::write_header(&mut out, "<u2", &shape).expect("a sink");
            solution
                .for_each_le_slab(|bytes| {
                    std::io::Write::write_all(&mut out, bytes)
                        .map_err(|e| nimscape::Error::invalid_request(e.to_string()))
                })
                .expect("no value is 65535");
        })
    });
    group.finish();
}

criterion_group!(benches, npy_write_box_400);
criterion_main!(benches);
