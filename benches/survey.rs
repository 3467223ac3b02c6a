//! Survey speed. Targets: the researcher's survey (cap floor((x+z)**2/k),
//! k = 1..64, x, z <= 64 with y up to its cap, shifts -20..20 on x and z) under
//! 2 s; a three-heap game of about 10^7 positions surveyed with every finder
//! (Grundy values included) at a comparable rate per position.

use criterion::{criterion_group, criterion_main, Criterion};
use nimscape_model::control::Control;
use nimscape_model::error::DEFAULT_MEMORY_LIMIT;
use nimscape_model::games::{GameBox, GameParams};
use nimscape_model::survey::{
    survey, BuiltinFamily, CapFamily, Finders, ShiftSpec, SurveyBox, SurveyOptions,
};

fn researchers_survey(c: &mut Criterion) {
    let family = CapFamily::new("floor((x+z)**2/k)", "k").expect("a valid cap");
    let values: Vec<i64> = (1..=64).collect();
    let options = SurveyOptions {
        game_box: SurveyBox::fixed(&GameBox::Uniform(64)),
        finders: Finders {
            shifts: Some(ShiftSpec::Each(vec![-20..=20, 0..=0, -20..=20])),
            constants: Some(0..=15),
            nim_sum: false,
            periods: false,
        },
        listed: 10,
        memory_limit: DEFAULT_MEMORY_LIMIT,
    };
    let mut group = c.benchmark_group("survey");
    group.sample_size(10);
    group.bench_function(
        "cap (x+z)**2/k, k=1..64, box 64, shifts -20..20 on x and z",
        |b| {
            b.iter(|| {
                let found = survey(&family, &values, &options, &Control::default()).expect("fits");
                assert_eq!(found.len(), 64);
                found
            })
        },
    );
    // About 10^7 positions (triangular k = 3, box 300: 9,120,501), every finder.
    let family = BuiltinFamily::new("triangular", "k", GameParams::default()).expect("valid");
    let options = SurveyOptions {
        game_box: SurveyBox::fixed(&GameBox::Uniform(300)),
        finders: Finders {
            shifts: Some(ShiftSpec::Every(-3..=3)),
            constants: Some(0..=15),
            nim_sum: true,
            periods: true,
        },
        listed: 10,
        memory_limit: DEFAULT_MEMORY_LIMIT,
    };
    group.bench_function(
        "triangular k=3, box 300 (9.1e6 positions), every finder",
        |b| {
            b.iter(|| {
                let found = survey(&family, &[3], &options, &Control::default()).expect("fits");
                assert_eq!(found[0].lines.positions, 9_120_501);
                found
            })
        },
    );
    // Three-heap Nim, box 215 (216^3 = 10,077,696 positions), every finder.
    let family = BuiltinFamily::new("nim", "heaps", GameParams::default()).expect("valid");
    let options = SurveyOptions {
        game_box: SurveyBox::fixed(&GameBox::Uniform(215)),
        ..options
    };
    group.bench_function(
        "nim heaps=3, box 215 (1.0e7 positions), every finder",
        |b| {
            b.iter(|| {
                let found = survey(&family, &[3], &options, &Control::default()).expect("fits");
                assert_eq!(found[0].lines.positions, 216 * 216 * 216);
                found
            })
        },
    );
    // Six heaps, box 14 (11.4e6 positions): 729 shift rules on 759,375 lines.
    let options = SurveyOptions {
        game_box: SurveyBox::fixed(&GameBox::Uniform(14)),
        finders: Finders {
            shifts: Some(ShiftSpec::Every(-1..=1)),
            ..options.finders
        },
        ..options
    };
    group.bench_function(
        "nim heaps=6, box 14 (1.1e7 positions), every finder, shifts -1..1",
        |b| {
            b.iter(|| {
                let found = survey(&family, &[6], &options, &Control::default()).expect("fits");
                assert_eq!(found[0].lines.positions, 15u64.pow(6));
                found
            })
        },
    );
    group.finish();
}

criterion_group!(benches, researchers_survey);
criterion_main!(benches);
