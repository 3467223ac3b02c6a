//! `square --window`: a window of any board up to 2^62, drawn as the
//! explorer draws it. A window is the crop of the whole board; a pixel that
//! covers a block is shaded by the block's exact share of P-cells (checked
//! against a brute count); bad windows are refused in one line.

use super::support::{assert_one_line_error, decode_png, nimscape};
use nimscape::figure::square::window::{mix, share_weight};
use nimscape::request::{render_pairs, Budget};
use nimscape::scene::Color;
use nimscape_model::pattern::is_p;
use nimscape_model::pattern::tiles::shade;

/// A square figure in `format`, through the request layer (as the CLI and
/// the server's /api/square.* parse it).
fn square(flags: &[(&str, &str)], format: &str) -> Vec<u8> {
    let pairs: Vec<(String, String)> = flags
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let budget = Budget {
        memory_limit: 1 << 30,
        ..Budget::default()
    };
    render_pairs(
        &["square"],
        &pairs,
        format,
        &budget,
        &nimscape::Control::default(),
    )
    .unwrap_or_else(|e| panic!("{flags:?}: {e}"))
}

/// The window's RGB pixels, through the request layer (as the CLI and the
/// server's /api/square.png parse them).
fn window(flags: &[(&str, &str)]) -> (u32, u32, Vec<[u8; 3]>) {
    let png = square(flags, "png");
    let (w, h, color, _, bytes) = decode_png(&png);
    let step = match color {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("unexpected colour type {other:?}"),
    };
    let pixels = bytes
        .chunks_exact(step)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (w, h, pixels)
}

#[test]
fn square_window_is_the_crop_of_the_whole_board() {
    for m in [1u64, 11, 23, 40] {
        let side = m.to_string();
        let all = format!("1..{m},1..{m}");
        let (w, h, whole) = window(&[("m", &side), ("window", &all), ("p-color", "black")]);
        assert_eq!((w, h), (m as u32, m as u32));
        // One pixel per cell: P black, the others white.
        for r in 0..m {
            for c in 0..m {
                let want = if is_p(m, m, r + 1, c + 1) {
                    [0, 0, 0]
                } else {
                    [255, 255, 255]
                };
                assert_eq!(whole[(r * m + c) as usize], want, "R({m},{m}) ({r}, {c})");
            }
        }
        for (r0, r1, c0, c1) in [
            (1, m, 1, m),
            (m / 2 + 1, m, 1, m / 3 + 1),
            (2.min(m), m, m, m),
        ] {
            let spec = format!("{r0}..{r1},{c0}..{c1}");
            let (w, h, part) = window(&[
                ("m", &side),
                ("window", &spec),
                ("p-color", "black"),
                ("cell", "3"),
            ]);
            assert_eq!((w as u64, h as u64), ((c1 - c0 + 1) * 3, (r1 - r0 + 1) * 3));
            for y in 0..h as u64 {
                for x in 0..w as u64 {
                    let (r, c) = (r0 - 1 + y / 3, c0 - 1 + x / 3);
                    assert_eq!(
                        part[(y * w as u64 + x) as usize],
                        whole[(r * m + c) as usize],
                        "R({m},{m}) window {spec} pixel ({x}, {y})"
                    );
                }
            }
        }
    }
}

/// The colour a pixel of `count` P-cells among `area` gets between white and black.
fn share_colour(count: u128, area: u128) -> [u8; 3] {
    let byte = shade(count, area);
    let c = match byte {
        1 => Color::WHITE,
        255 => Color::BLACK,
        b => mix(Color::WHITE, Color::BLACK, share_weight(b)),
    };
    [c.r, c.g, c.b]
}

#[test]
fn square_window_shades_a_block_by_its_brute_count_of_p_cells() {
    // At 8 x 8 cells per pixel; the last block of m = 1003 is 3 rows and
    // columns. (m = 1000 = 8 · 125 would be R(125,125) scaled: two shades.)
    for m in [1001u64, 1003] {
        check_window_shades(m);
    }
}

fn check_window_shades(m: u64) {
    let (w, h, pixels) = window(&[
        ("m", &m.to_string()),
        ("window", &format!("9..{m},17..{m}")),
        ("bin", "8"),
        ("p-color", "black"),
    ]);
    assert_eq!(
        (w as u64, h as u64),
        ((m - 16).div_ceil(8), (m - 8).div_ceil(8))
    );
    let mut shades = std::collections::BTreeSet::new();
    for y in 0..h as u64 {
        for x in 0..w as u64 {
            let (r0, c0) = (8 + 8 * y, 16 + 8 * x);
            let (r1, c1) = ((r0 + 8).min(m), (c0 + 8).min(m));
            let count = (r0..r1)
                .flat_map(|r| (c0..c1).map(move |c| (r, c)))
                .filter(|&(r, c)| is_p(m, m, r + 1, c + 1))
                .count() as u128;
            let area = u128::from((r1 - r0) * (c1 - c0));
            let want = share_colour(count, area);
            shades.insert(want);
            assert_eq!(
                pixels[(y * w as u64 + x) as usize],
                want,
                "block at row {r0}, column {c0}"
            );
        }
    }
    assert!(shades.len() > 5, "only {} shades", shades.len());
}

#[test]
fn square_window_draws_a_board_of_2_pow_62_by_exact_counts() {
    let m = (1u64 << 62) - 1;
    let bin = 1u64 << 40;
    let rows = format!("{}..{}", 3 * bin + 1, 67 * bin);
    let cols = format!("{}..{}", 1, 64 * bin);
    let (w, h, pixels) = window(&[
        ("m", &m.to_string()),
        ("window", &format!("{rows},{cols}")),
        ("bin", &bin.to_string()),
        ("p-color", "black"),
    ]);
    assert_eq!((w, h), (64, 64));
    for (y, x) in [(0u64, 0u64), (5, 9), (63, 63), (31, 2), (40, 17)] {
        let (r0, c0) = ((3 + y) * bin, x * bin);
        let count = nimscape_model::pattern::tiles::count_p(m, m, r0..r0 + bin, c0..c0 + bin);
        assert_eq!(
            pixels[(y * 64 + x) as usize],
            share_colour(count, u128::from(bin) * u128::from(bin))
        );
    }
}

#[test]
fn square_window_refuses_bad_windows_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (
            vec!["--m", "11", "--window", "1..12,1..3"],
            "run outside the board",
        ),
        (vec!["--m", "11", "--window", "5..3,1..3"], "are empty"),
        (
            vec!["--m", "11", "--window", "0..3,1..3"],
            "not a whole number from 1",
        ),
        (vec!["--m", "11", "--window", "1..3"], "ROWS,COLS"),
        (
            vec![
                "--m",
                "4611686018427387903",
                "--window",
                "1..4611686018427387903,1..9",
            ],
            "too many pixels",
        ),
        (
            vec!["--m", "1000", "--window", "5..100,1..64", "--bin", "32"],
            "use 1..128 instead of 5..100",
        ),
        (
            vec!["--m", "11", "--window", "1..3,1..3", "--bin", "3"],
            "not a power of two",
        ),
        (vec!["--m", "11,12", "--window", "1..3,1..3"], "one board"),
        (
            vec!["--m", "11", "--window", "1..3,1..3", "--cell", "2mm"],
            "whole number of pixels",
        ),
    ] {
        let mut all = vec!["square"];
        all.extend(args.iter().copied());
        all.extend(["-o", "w.png"]);
        let out = nimscape(dir.path()).args(&all).output().unwrap();
        assert_one_line_error(&out, needle);
    }
    let out = nimscape(dir.path())
        .args([
            "square",
            "--m",
            "11",
            "--window",
            "1..3,1..3",
            "-o",
            "w.svg",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, ".png");
}

#[test]
fn square_window_outlines_the_decomposition_to_the_depth_asked() {
    let count = |depth: &str| {
        let (_, _, pixels) = window(&[
            ("m", "11"),
            ("window", "1..11,1..11"),
            ("cell", "32"),
            ("decompose", "true"),
            ("decompose-depth", depth),
            ("p-color", "black"),
        ]);
        let vermillion = pixels.iter().filter(|p| **p == [0xd5, 0x5e, 0x00]).count();
        let blue = pixels.iter().filter(|p| **p == [0x00, 0x72, 0xb2]).count();
        (vermillion, blue)
    };
    let (one_v, _) = count("1");
    let (two_v, two_b) = count("2");
    assert!(one_v > 1000, "{one_v} vermillion pixels at depth 1");
    // Depth 2 draws the corners' own blocks in blue over the first level.
    assert!(
        two_b > 0 && two_v < one_v,
        "depth 2: {two_v} vermillion, {two_b} blue"
    );
}

#[test]
fn square_decompose_depth_outlines_the_blocks_of_the_blocks_in_a_figure() {
    let purple = |depth: Option<&str>| {
        let mut pairs = vec![("m", "11"), ("decompose", "true")];
        if let Some(d) = depth {
            pairs.push(("decompose-depth", d));
        }
        let svg = square(&pairs, "svg");
        String::from_utf8(svg)
            .unwrap()
            .to_lowercase()
            .matches("#cc79a7")
            .count()
    };
    assert_eq!(purple(None), 0);
    assert_eq!(purple(Some("1")), 0);
    assert!(purple(Some("2")) > 0, "no second level drawn");
}

#[test]
fn square_window_paints_nim_with_a_pass_over_the_cells() {
    let (_, pass) = nimscape_model::games::nim_pass::square_board(
        14,
        1 << 30,
        &nimscape_model::Control::default(),
    )
    .unwrap();
    let (w, h, pixels) = window(&[
        ("m", "14"),
        ("window", "3..14,2..9"),
        ("overlay", "nim-pass"),
        ("p-color", "black"),
    ]);
    assert_eq!((w, h), (8, 12));
    let mut vermillion = 0;
    for y in 0..12usize {
        for x in 0..8usize {
            let (r, c) = (2 + y, 1 + x);
            let want = if pass.get(r, c) {
                vermillion += 1;
                [0xd5, 0x5e, 0x00]
            } else if is_p(14, 14, r as u64 + 1, c as u64 + 1) {
                [0, 0, 0]
            } else {
                [255, 255, 255]
            };
            assert_eq!(pixels[y * 8 + x], want, "cell ({r}, {c})");
        }
    }
    assert!(vermillion > 0);
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args([
            "square",
            "--m",
            "14",
            "--window",
            "1..14,1..14",
            "--bin",
            "2",
            "--overlay",
            "nim-pass",
            "-o",
            "w.png",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, "one pixel per cell or more");
}

/// `--colour-by share-stretched`: the distinct shares of the window's blocks
/// (brute counts here), in order, spread evenly from white to the P colour.
#[test]
fn square_window_stretches_the_shares_present_by_rank() {
    let m = 1003u64;
    let (w, h, pixels) = window(&[
        ("m", &m.to_string()),
        ("window", &format!("9..{m},17..{m}")),
        ("bin", "8"),
        ("p-color", "black"),
        ("colour-by", "share-stretched"),
    ]);
    let mut blocks = Vec::new();
    for y in 0..h as u64 {
        for x in 0..w as u64 {
            let (r0, c0) = (8 + 8 * y, 16 + 8 * x);
            let (r1, c1) = ((r0 + 8).min(m), (c0 + 8).min(m));
            let count = (r0..r1)
                .flat_map(|r| (c0..c1).map(move |c| (r, c)))
                .filter(|&(r, c)| is_p(m, m, r + 1, c + 1))
                .count() as u128;
            blocks.push((count, u128::from((r1 - r0) * (c1 - c0))));
        }
    }
    // Shares as exact fractions (small here: cross products fit).
    let mut distinct: Vec<(u128, u128)> = blocks.clone();
    distinct.sort_by(|x, y| (x.0 * y.1).cmp(&(y.0 * x.1)));
    distinct.dedup_by(|x, y| x.0 * y.1 == y.0 * x.1);
    let top = (distinct.len() - 1) as u32;
    assert!(top >= 5, "only {} shares", top + 1);
    for (i, &(c, a)) in blocks.iter().enumerate() {
        let rank = distinct
            .iter()
            .position(|&(dc, da)| dc * a == c * da)
            .unwrap() as u32;
        let weight = (510 * rank + top) / (2 * top);
        let want = mix(Color::WHITE, Color::BLACK, weight);
        assert_eq!(
            pixels[i],
            [want.r, want.g, want.b],
            "block {i}: {c}/{a}, rank {rank} of {}",
            top + 1
        );
    }
}

/// The docs' R(2^62-1) window at 2^53 cells a pixel is one flat grey (every
/// block's share agrees to far below a grey step): correct, and the command
/// says why and what shows more; stretched, it is not flat and says nothing.
#[test]
fn square_window_says_why_a_deep_window_is_flat() {
    let dir = tempfile::tempdir().unwrap();
    let big = ((1u64 << 62) - 1).to_string();
    let all = format!("1..{big},1..{big}");
    let run = |colour: &str| {
        let out = nimscape(dir.path())
            .args([
                "square",
                "--m",
                &big,
                "--window",
                &all,
                "--bin",
                "9007199254740992",
            ])
            .args(["--colour-by", colour, "--p-color", "black", "-o", "w.png"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (w, h, _, _, rgb) = decode_png(&std::fs::read(dir.path().join("w.png")).unwrap());
        let colours: std::collections::BTreeSet<&[u8]> = rgb
            .chunks_exact(rgb.len() / (w as usize * h as usize))
            .collect();
        (
            String::from_utf8_lossy(&out.stderr).into_owned(),
            colours.len(),
        )
    };
    let (said, colours) = run("share");
    assert_eq!(colours, 1);
    assert!(
        said.contains("note: every pixel is one grey, and that is correct")
            && said.contains("share-stretched"),
        "{said}"
    );
    let (said, colours) = run("nim-sum");
    assert_eq!(colours, 1);
    assert!(said.contains("samples the first cell"), "{said}");
    let (said, colours) = run("share-stretched");
    assert!(colours >= 3, "{colours} colours stretched");
    assert!(!said.contains("note:"), "{said}");
}
