//! Speed of square-board figures (issue 2).
//!
//! `cargo bench --bench square`. Targets on 2 cores: `--raw` at m = 16384 and
//! 65536 at 2·10^9 cells per second end to end (compute + 1-bit PNG, default
//! compression, written to a file); the contact sheet m = 1..24 at 1200 px wide
//! in under 0.3 s. The comparison with NumPy + Pillow is `benches/compare_square.py`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nimscape::encode::png::Compression;
use nimscape::encode::{Metadata, DEFAULT_OUTPUT_LIMIT};
use nimscape::figure::plan::Plan;
use nimscape::figure::square::{SquareFigure, SquareMode};
use nimscape::scene::board::{BoardStyle, PanelSize};
use nimscape::Control;
use std::time::Duration;

/// Plans `figure` and saves it to `path`'s format: a fresh plan each time, so
/// nothing drawn for one run is reused by the next.
fn save(figure: SquareFigure, path: &std::path::Path) {
    let plan = Plan::new(figure).unwrap();
    nimscape::figure::save(
        &plan,
        path,
        &Metadata::default(),
        &Control::default(),
        DEFAULT_OUTPUT_LIMIT,
    )
    .unwrap();
}

fn raw(m: u64) -> SquareFigure {
    SquareFigure::new(
        vec![m],
        SquareMode::Raw {
            compression: Compression::Fast,
        },
    )
}

fn bench_raw(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("square_raw_png");
    group.sample_size(10);
    // Powers of two are the easy case (every cell is P); 2^k - 1 is the hardest (isolated cells).
    for m in [16384u64, 16383, 65536, 65535] {
        group.throughput(Throughput::Elements(m * m));
        if m > 60000 {
            group.measurement_time(Duration::from_secs(30));
        }
        let path = dir.path().join(format!("raw-{m}.png"));
        group.bench_function(format!("m={m}"), |b| {
            b.iter(|| save(raw(m), &path));
        });
        eprintln!(
            "raw m = {m}: {} bytes",
            std::fs::metadata(&path).unwrap().len()
        );
    }
    group.finish();
}

fn bench_sheet(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sheet.png");
    let style = BoardStyle::default();
    // --width 1200 with 6 columns, the default gap and margin.
    let panel =
        nimscape::scene::layout::SheetLayout::panel_width_for(1200, 6, style.gap, style.margin);
    let figure = SquareFigure::new(
        (1..=24).collect(),
        SquareMode::Styled {
            style,
            size: Some(PanelSize::Panel(panel)),
            columns: None,
            decompose: false,
        },
    );
    let mut group = c.benchmark_group("square_sheet");
    group.sample_size(10);
    group.bench_function("m=1..24 at 1200 px, PNG", |b| {
        b.iter(|| save(figure.clone(), &path))
    });
    let svg = dir.path().join("sheet.svg");
    group.bench_function("m=1..24 at 1200 px, SVG", |b| {
        b.iter(|| save(figure.clone(), &svg))
    });
    group.finish();
}

criterion_group!(benches, bench_raw, bench_sheet);
criterion_main!(benches);
