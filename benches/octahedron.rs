//! Speed of the octahedron model: exact sections of S_30 and the 3D view of S_5.
//!
//! Section sizes (printed once): S_30 at r = 1e-6 has 125 589 diamonds, at
//! r = 5e-6 1 962 825; at r = 0.37 it would have about 5·10^13 and is refused
//! up front, so real levels far from the apex are drawn with level of detail.

use criterion::{criterion_group, criterion_main, Criterion};
use nimscape::figure::octahedron::shading::{sierpinski_view, PlaneOptions, ViewOptions};
use nimscape::Control;
use nimscape_model::error::DEFAULT_MEMORY_LIMIT;
use nimscape_model::octahedron::{count_diamonds, detail_order, Level, Section};

fn sections(c: &mut Criterion) {
    let mut group = c.benchmark_group("octahedron_section");
    group.sample_size(10);
    for text in ["1e-6", "5e-6"] {
        let level = Level::parse_r(text).unwrap();
        eprintln!(
            "S_30 at r = {text}: {} diamonds",
            count_diamonds(30, level).unwrap()
        );
        group.bench_function(format!("S_30 r={text}"), |b| {
            b.iter(|| Section::compute(30, level, DEFAULT_MEMORY_LIMIT, &Control::new()).unwrap())
        });
    }
    // Level of detail for a 1024-pixel drawing of S_30 at r = 0.37.
    let level = Level::parse_r("0.37").unwrap();
    let k = detail_order(30, 2.0 / 1024.0);
    eprintln!(
        "S_30 at r = 0.37 drawn at 1024 px: order {k}, {} diamonds",
        count_diamonds(k, level).unwrap()
    );
    group.bench_function("S_30 r=0.37 at 1024 px (level of detail)", |b| {
        b.iter(|| Section::compute(k, level, DEFAULT_MEMORY_LIMIT, &Control::new()).unwrap())
    });
    group.finish();
}

fn views(c: &mut Criterion) {
    let mut group = c.benchmark_group("octahedron_view");
    group.sample_size(10);
    let plain = ViewOptions::default();
    group.bench_function("S_5 view geometry", |b| {
        b.iter(|| sierpinski_view(5, &plain, &Control::new()).unwrap())
    });
    let with_plane = ViewOptions {
        plane: Some(PlaneOptions::at(Level::integer(5, 22).unwrap())),
        ..ViewOptions::default()
    };
    group.bench_function("S_5 view geometry with section plane", |b| {
        b.iter(|| sierpinski_view(5, &with_plane, &Control::new()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, sections, views);
criterion_main!(benches);
