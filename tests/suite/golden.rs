//! Reference images: a golden file per case in `tests/golden/`.
//!
//! `NIMSCAPE_UPDATE_GOLDEN=1 cargo test golden` rewrites them. On a mismatch the
//! new output is written beside the golden file as `<name>.actual.<ext>` to compare.
//! PNGs are compared by their decoded pixels (a newer PNG encoder may pack the same
//! picture differently); everything else byte for byte.

use super::support::{decode_png, nimscape};
use std::path::PathBuf;

pub fn check_golden(name: &str, args: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    nimscape(dir.path())
        .args(args)
        .args(["-o", name])
        .assert()
        .success();
    let actual = std::fs::read(dir.path().join(name)).unwrap();
    let golden: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "golden", name]
        .iter()
        .collect();
    if std::env::var_os("NIMSCAPE_UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &actual).unwrap();
        return;
    }
    let expected = std::fs::read(&golden).unwrap_or_else(|_| {
        panic!(
            "no golden file {}; run with NIMSCAPE_UPDATE_GOLDEN=1",
            golden.display()
        )
    });
    let same = if name.ends_with(".png") {
        decode_png(&expected) == decode_png(&actual)
    } else {
        expected == actual
    };
    if !same {
        let (stem, ext) = name.rsplit_once('.').unwrap();
        let beside = golden.with_file_name(format!("{stem}.actual.{ext}"));
        std::fs::write(&beside, &actual).unwrap();
        panic!(
            "{name} differs from its golden file; the new output is {}",
            beside.display()
        );
    }
}

#[test]
fn figure_1_sheet_of_boards_1_to_8() {
    check_golden("sheet-1-8.png", &["square", "--m", "1..8", "--panel", "96"]);
}

#[test]
fn figure_2_decomposition_of_3_5_11() {
    check_golden("figure-2.png", &["square", "--m", "3,5,11", "--decompose"]);
}

#[test]
fn board_11_as_svg() {
    check_golden("square-11.svg", &["square", "--m", "11", "--decompose"]);
}

#[test]
fn count_chart_as_svg() {
    check_golden("count-1-64.svg", &["count", "--m", "1..64"]);
}
