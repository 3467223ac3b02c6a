//! `nimscape automaton` (and `square -o .gif`) from the outside: every output
//! decoded and compared with an independent computation (the XOR criterion, the
//! plain per-cell recurrence, Pascal's triangle by Lucas' theorem), GIFs decoded
//! with the `gif` crate, bad input, byte-identical output.

// Cells are compared by (row, column) across several grids: index loops say that best.
#![allow(clippy::needless_range_loop)]

use super::golden::check_golden;
use super::support::{
    assert_one_line_error, assert_same_bytes_across_thread_counts, decode_gif, decode_png,
    nimscape, run_ok,
};
use nimscape::scene::ramp::Palette;
use nimscape_model::automaton::naive;
use nimscape_model::pattern::p_grid;
use num_bigint::BigUint;
use std::collections::HashSet;
use std::path::Path;

const BLUE: [u8; 3] = [0x00, 0x72, 0xB2];
const WHITE: [u8; 3] = [255, 255, 255];

/// Exact values of frames 1..=last by the plain per-cell recurrence.
fn naive_exact(last: usize) -> Vec<Vec<Vec<BigUint>>> {
    let window =
        naive::frames_on_window(last, BigUint::from(0u32), BigUint::from(1u32), |a, b| a + b);
    (0..=last).map(|n| naive::square(&window[n], n)).collect()
}

/// The pixel at the centre of cell (r, c) of an n x n board drawn in the
/// `side` px box at (x0, y0), with edges as the scene places them.
fn cell_centre(x0: usize, y0: usize, side: usize, n: usize, r: usize, c: usize) -> (usize, usize) {
    let edge = |k: usize| k * side / n;
    (
        x0 + (edge(c) + edge(c + 1)) / 2,
        y0 + (edge(r) + edge(r + 1)) / 2,
    )
}

/// Colours a GIF frame may show: the cell colours, white, the frame and grid
/// greys, the caption ink and the key's swatch edge, each with its 7 shades
/// over white.
fn allowed_colours(cells: &[[u8; 3]]) -> HashSet<[u8; 3]> {
    let mut allowed: HashSet<[u8; 3]> = cells.iter().copied().collect();
    allowed.extend([WHITE, [0x88; 3], [0xD0; 3], [0x22; 3], [0x73; 3]]);
    for ink in [0x22u32, 0x73] {
        for k in 1..=7u32 {
            let v = ((ink * k + 255 * (8 - k)) as f64 / 8.0).round() as u8;
            allowed.insert([v; 3]);
        }
    }
    allowed
}

#[test]
fn gif_frames_are_the_parity_pattern_in_exact_palette_colours() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "automaton",
            "--frames",
            "1..16",
            "--panel",
            "128",
            "--grid",
            "off",
            "--delay",
            "7",
            "--hold-last",
            "250",
            "-o",
            "a.gif",
        ],
    );
    let gif = decode_gif(&std::fs::read(dir.path().join("a.gif")).unwrap());
    assert_eq!(gif.rgb.len(), 16);
    assert_eq!(gif.delays, [vec![7; 15], vec![250]].concat());
    assert_eq!(gif.repeat, gif::Repeat::Infinite);
    // 16 px margins around a 128 px box, a caption line below.
    assert_eq!(gif.width, 160);
    let allowed = allowed_colours(&[BLUE]);
    // The table is padded with black to a power of two, as the format wants;
    // the frames below never use the padding.
    assert!(
        gif.palette
            .iter()
            .all(|c| allowed.contains(c) || *c == [0, 0, 0]),
        "{:?}",
        gif.palette
    );
    for (k, frame) in gif.rgb.iter().enumerate() {
        let n = k + 1;
        assert!(frame.iter().all(|p| allowed.contains(p)), "frame {n}");
        let p = p_grid(n, n, &nimscape::Control::default()).unwrap();
        for r in 0..n {
            for c in 0..n {
                let (x, y) = cell_centre(16, 16, 128, n, r, c);
                let want = if p.get(r, c) { BLUE } else { WHITE };
                assert_eq!(
                    frame[y * gif.width + x],
                    want,
                    "frame {n} cell ({},{})",
                    r + 1,
                    c + 1
                );
            }
        }
        // Caption text is drawn: some ink below the board.
        assert!(
            frame[150 * gif.width..].contains(&[0x22; 3]),
            "frame {n} caption"
        );
    }
}

#[test]
fn mod_3_gif_colours_each_cell_by_its_exact_residue() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "automaton",
            "--frames",
            "1..12",
            "--modulus",
            "3",
            "--panel",
            "96",
            "--grid",
            "off",
            "--no-caption",
            "--loop",
            "3",
            "-o",
            "m3.gif",
        ],
    );
    let gif = decode_gif(&std::fs::read(dir.path().join("m3.gif")).unwrap());
    assert_eq!(gif.repeat, gif::Repeat::Finite(2), "--loop 3 plays 3 times");
    // 128 x 128 px boards, the key of the three classes under them.
    assert_eq!((gif.width, gif.rgb.len()), (128, 12));
    assert!(gif.height > 128);
    let ramp: Vec<[u8; 3]> = Palette::Viridis
        .colours(3)
        .unwrap()
        .colours()
        .iter()
        .map(|c| c.rgb_array())
        .collect();
    let allowed = allowed_colours(&ramp);
    let exact = naive_exact(12);
    for (k, frame) in gif.rgb.iter().enumerate() {
        let n = k + 1;
        // The margin and the board; the key starts in what was the bottom margin.
        let board = &frame[..(16 + 96) * gif.width];
        assert!(board.iter().all(|p| allowed.contains(p)), "frame {n}");
        for r in 0..n {
            for c in 0..n {
                let residue = (&exact[n][r][c] % 3u32)
                    .to_u32_digits()
                    .first()
                    .copied()
                    .unwrap_or(0);
                let want = if residue == 0 {
                    WHITE
                } else {
                    ramp[residue as usize - 1]
                };
                let (x, y) = cell_centre(16, 16, 96, n, r, c);
                assert_eq!(
                    frame[y * gif.width + x],
                    want,
                    "frame {n} cell ({},{})",
                    r + 1,
                    c + 1
                );
            }
        }
    }
}

/// Whether `colour` fills a square of at least `side` x `side` pixels at or
/// below row `from` of a `width`-wide image: a key's swatch.
fn has_swatch(pixels: &[[u8; 3]], width: usize, from: usize, colour: [u8; 3], side: usize) -> bool {
    let height = pixels.len() / width;
    (from..height.saturating_sub(side)).any(|y| {
        (0..width.saturating_sub(side)).any(|x| {
            (0..side).all(|dy| (0..side).all(|dx| pixels[(y + dy) * width + x + dx] == colour))
        })
    })
}

#[test]
fn mod_p_animations_and_sheets_carry_a_key_of_every_class() {
    // Frames 1..64 mod 5 had no key: which colour is which residue was
    // anyone's guess. Every GIF frame and the sheet now end in a swatch per
    // class 0..4, in the palette's exact colours, under the boards.
    let dir = tempfile::tempdir().unwrap();
    let ramp: Vec<[u8; 3]> = Palette::Viridis
        .colours(5)
        .unwrap()
        .colours()
        .iter()
        .map(|c| c.rgb_array())
        .collect();
    let args = ["automaton", "--frames", "1..64", "--modulus", "5", "-o"];
    run_ok(dir.path(), &[&args[..], &["m5.gif"]].concat());
    let gif = decode_gif(&std::fs::read(dir.path().join("m5.gif")).unwrap());
    for colour in &ramp {
        assert!(
            gif.palette.contains(colour),
            "{colour:?} not in the GIF palette"
        );
    }
    // The board and its caption take the top 560 px of the 544 px wide frame.
    for k in [0, 31, 63] {
        for &colour in &ramp {
            assert!(
                has_swatch(&gif.rgb[k], gif.width, 560, colour, 8),
                "frame {}: no swatch of {colour:?} in the key",
                k + 1
            );
        }
    }
    run_ok(dir.path(), &[&args[..], &["m5.png"]].concat());
    let (w, h, _, _, rgba) = decode_png(&std::fs::read(dir.path().join("m5.png")).unwrap());
    let channels = rgba.len() / (w * h) as usize;
    let pixels: Vec<[u8; 3]> = rgba.chunks(channels).map(|p| [p[0], p[1], p[2]]).collect();
    let below = h as usize - 60;
    for &colour in &ramp {
        assert!(
            has_swatch(&pixels, w as usize, below, colour, 8),
            "sheet: no swatch of {colour:?} in its last 60 rows"
        );
    }
    // Parity (mod 2) needs no key: its odd cells are the P cells.
    run_ok(
        dir.path(),
        &["automaton", "--frames", "1..4", "-o", "m2.gif"],
    );
    let parity = decode_gif(&std::fs::read(dir.path().join("m2.gif")).unwrap());
    assert!(parity.height < gif.height);
}

#[test]
fn loop_and_fps_settings_reach_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let base = ["automaton", "--frames", "1..3", "--panel", "32"];
    for (extra, repeat, delays) in [
        (
            vec!["--loop", "0", "--fps", "20"],
            gif::Repeat::Infinite,
            vec![5, 5, 150],
        ),
        (
            vec!["--loop", "1", "--fps", "4", "--hold-last", "9"],
            gif::Repeat::Finite(0),
            vec![25, 25, 9],
        ),
    ] {
        let args: Vec<&str> = base
            .iter()
            .copied()
            .chain(extra)
            .chain(["-o", "l.gif"])
            .collect();
        run_ok(dir.path(), &args);
        let bytes = std::fs::read(dir.path().join("l.gif")).unwrap();
        let gif = decode_gif(&bytes);
        assert_eq!((gif.repeat, gif.delays), (repeat, delays), "{args:?}");
        let netscape = bytes.windows(11).any(|w| w == b"NETSCAPE2.0");
        assert_eq!(netscape, repeat == gif::Repeat::Infinite, "{args:?}");
    }
}

#[test]
fn square_gif_animates_over_m() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "square", "--m", "1..12", "--panel", "96", "--grid", "off", "-o", "sq.gif",
        ],
    );
    let gif = decode_gif(&std::fs::read(dir.path().join("sq.gif")).unwrap());
    assert_eq!(gif.rgb.len(), 12);
    assert_eq!(gif.delays.last(), Some(&150));
    let allowed = allowed_colours(&[BLUE]);
    for (k, frame) in gif.rgb.iter().enumerate() {
        let m = k + 1;
        assert!(frame.iter().all(|p| allowed.contains(p)), "board {m}");
        let p = p_grid(m, m, &nimscape::Control::default()).unwrap();
        for r in 0..m {
            for c in 0..m {
                let (x, y) = cell_centre(16, 16, 96, m, r, c);
                let want = if p.get(r, c) { BLUE } else { WHITE };
                assert_eq!(
                    frame[y * gif.width + x],
                    want,
                    "board {m} ({},{})",
                    r + 1,
                    c + 1
                );
            }
        }
    }
}

#[test]
fn raw_png_is_one_bit_per_cell_and_matches_the_xor_criterion() {
    let dir = tempfile::tempdir().unwrap();
    for n in [1usize, 37, 130] {
        let file = format!("raw-{n}.png");
        run_ok(
            dir.path(),
            &[
                "automaton",
                "--frames",
                &n.to_string(),
                "--raw",
                "-o",
                &file,
            ],
        );
        let (w, h, color, depth, rows) =
            decode_png(&std::fs::read(dir.path().join(&file)).unwrap());
        assert_eq!(
            (w as usize, h as usize, color, depth),
            (n, n, png::ColorType::Grayscale, png::BitDepth::One)
        );
        let p = p_grid(n, n, &nimscape::Control::default()).unwrap();
        let row_bytes = n.div_ceil(8);
        for r in 0..n {
            for c in 0..n {
                let black = rows[r * row_bytes + c / 8] & (0x80 >> (c % 8)) == 0;
                assert_eq!(black, p.get(r, c), "frame {n} ({},{})", r + 1, c + 1);
            }
        }
    }
}

#[test]
fn raw_mod_5_png_is_one_palette_pixel_per_residue() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "automaton",
            "--frames",
            "20",
            "--modulus",
            "5",
            "--raw",
            "-o",
            "r.png",
        ],
    );
    let (w, h, color, _, pixels) = decode_png(&std::fs::read(dir.path().join("r.png")).unwrap());
    assert_eq!((w, h, color), (20, 20, png::ColorType::Rgb));
    let ramp = Palette::Viridis.colours(5).unwrap();
    let exact = naive_exact(20);
    for r in 0..20 {
        for c in 0..20 {
            let residue = (&exact[20][r][c] % 5u32)
                .to_u32_digits()
                .first()
                .copied()
                .unwrap_or(0);
            let want = if residue == 0 {
                WHITE
            } else {
                ramp.colours()[residue as usize - 1].rgb_array()
            };
            let at = (r * 20 + c) * 3;
            assert_eq!(pixels[at..at + 3], want, "({},{})", r + 1, c + 1);
        }
    }
}

#[test]
fn rule_60_raw_is_pascals_triangle_mod_2() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "automaton",
            "--rule60",
            "--frames",
            "1..100",
            "--raw",
            "-o",
            "r60.png",
        ],
    );
    let (w, h, _, _, rows) = decode_png(&std::fs::read(dir.path().join("r60.png")).unwrap());
    assert_eq!((w, h), (100, 100));
    for r in 0..100usize {
        for k in 0..100usize {
            // Lucas: C(r, k) is odd iff the bits of k are among those of r.
            let odd = k <= r && k & r == k;
            let black = rows[r * 13 + k / 8] & (0x80 >> (k % 8)) == 0;
            assert_eq!(black, odd, "generation {} cell {k}", r + 1);
        }
    }
    run_ok(
        dir.path(),
        &["automaton", "--rule60", "--frames", "64", "-o", "r60.svg"],
    );
}

fn read_csv(path: &Path) -> (String, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap().to_string();
    (
        header,
        lines
            .map(|l| l.split(',').map(String::from).collect())
            .collect(),
    )
}

#[test]
fn exact_csv_and_json_list_every_non_zero_value() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "automaton",
            "--frames",
            "40",
            "--modulus",
            "exact",
            "-o",
            "e.csv",
        ],
    );
    run_ok(
        dir.path(),
        &[
            "automaton",
            "--frames",
            "40",
            "--modulus",
            "exact",
            "-o",
            "e.json",
        ],
    );
    let exact = naive_exact(40);
    let (header, rows) = read_csv(&dir.path().join("e.csv"));
    assert_eq!(header, "i,j,value");
    let expected: Vec<Vec<String>> = (0..40)
        .flat_map(|r| (0..40).map(move |c| (r, c)))
        .filter(|&(r, c)| exact[40][r][c] != BigUint::from(0u32))
        .map(|(r, c)| {
            vec![
                (r + 1).to_string(),
                (c + 1).to_string(),
                exact[40][r][c].to_string(),
            ]
        })
        .collect();
    assert_eq!(rows, expected);
    // SPEC §3: frame 40 holds a value of about 4.7e22.
    let largest = exact[40].iter().flatten().max().unwrap();
    assert!(largest.to_string().starts_with("47") && largest.to_string().len() == 23);

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("e.json")).unwrap()).unwrap();
    assert_eq!(json["n"], 40);
    assert_eq!(json["modulus"], "exact");
    // Big values are JSON numbers with every digit; compare their text.
    let text = std::fs::read_to_string(dir.path().join("e.json")).unwrap();
    assert!(text.contains(&format!(",{largest}]")));
    assert_eq!(json["cells"].as_array().unwrap().len(), expected.len());
}

#[test]
fn mod_p_data_is_the_exact_values_reduced() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "automaton",
            "--frames",
            "9..11",
            "--modulus",
            "7",
            "-o",
            "m.csv",
        ],
    );
    run_ok(
        dir.path(),
        &[
            "automaton",
            "--frames",
            "9..11",
            "--modulus",
            "7",
            "-o",
            "m.json",
        ],
    );
    let exact = naive_exact(11);
    let (header, rows) = read_csv(&dir.path().join("m.csv"));
    assert_eq!(header, "n,i,j,value");
    let mut expected = Vec::new();
    for n in 9..=11usize {
        for r in 0..n {
            for c in 0..n {
                let v = (&exact[n][r][c] % 7u32)
                    .to_u32_digits()
                    .first()
                    .copied()
                    .unwrap_or(0);
                if v != 0 {
                    expected.push(vec![
                        n.to_string(),
                        (r + 1).to_string(),
                        (c + 1).to_string(),
                        v.to_string(),
                    ]);
                }
            }
        }
    }
    assert_eq!(rows, expected);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("m.json")).unwrap()).unwrap();
    let frames = json["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 3);
    let cells: usize = frames
        .iter()
        .map(|f| f["cells"].as_array().unwrap().len())
        .sum();
    assert_eq!(cells, expected.len());
    assert_eq!(frames[1]["n"], 10);
}

#[test]
fn check_reports_what_it_checked() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_ok(dir.path(), &["automaton", "--frames", "1..300", "--check"]);
    let cells: u64 = (1..=300u64).map(|n| n * n).sum();
    assert!(
        out.contains("frames 1..300") && out.contains(&cells.to_string()),
        "{out}"
    );
    let out = run_ok(
        dir.path(),
        &[
            "automaton",
            "--frames",
            "30",
            "--modulus",
            "exact",
            "--check",
        ],
    );
    assert!(out.contains("exact values"), "{out}");
    let out = run_ok(
        dir.path(),
        &["automaton", "--frames", "50", "--modulus", "6", "--check"],
    );
    assert!(out.contains("mod 6"), "{out}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "--check alone writes no file"
    );
}

#[test]
fn bad_input_is_one_line_and_leaves_no_file() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--frames", "5", "--modulus", "1", "-o", "x.png"],
            "at least 2",
        ),
        (
            &["--frames", "5", "--modulus", "0", "-o", "x.png"],
            "at least 2",
        ),
        (
            &["--frames", "5", "--modulus", "70000", "-o", "x.png"],
            "at most 65535",
        ),
        (
            &["--frames", "5", "--modulus", "seven", "-o", "x.png"],
            "--modulus",
        ),
        (&["--frames", "0", "-o", "x.png"], "--frames starts at 1"),
        (
            &["--frames", "1..3", "--columns", "0", "-o", "x.png"],
            "invalid value '0' for --columns",
        ),
        (&["--frames", "9..3", "-o", "x.png"], "empty"),
        (
            &["--frames", "1..3000", "--modulus", "exact", "-o", "x.csv"],
            "GiB",
        ),
        (
            &["--frames", "1..32", "--cell", "4096", "-o", "x.gif"],
            "65535",
        ),
        (
            &[
                "--frames",
                "5",
                "--raw",
                "--modulus",
                "exact",
                "-o",
                "x.png",
            ],
            "exact",
        ),
        (
            &[
                "--frames",
                "5",
                "--modulus",
                "3",
                "--palette",
                "rainbow",
                "-o",
                "x.png",
            ],
            "possible values: paper, okabe-ito",
        ),
        (
            &[
                "--frames",
                "5",
                "--modulus",
                "11",
                "--palette",
                "okabe-ito",
                "-o",
                "x.png",
            ],
            "mod 9 at most",
        ),
        (
            &["--frames", "5", "--modulus", "exact", "-o", "x.png"],
            ".csv",
        ),
        (&["--frames", "1..5", "--raw", "-o", "x.png"], "one frame"),
        (
            &["--frames", "1..5", "--fps", "100", "-o", "x.gif"],
            "--fps",
        ),
        (
            &["--frames", "1..5", "--delay", "1", "-o", "x.gif"],
            "--delay",
        ),
        (
            &["--frames", "1..5", "--background", "none", "-o", "x.gif"],
            "opaque",
        ),
        (&["--rule60", "--frames", "1..5", "-o", "x.gif"], "--rule60"),
        (
            &["--frames", "5", "--modulus", "3", "--check", "-o", "x.png"],
            "odd",
        ),
        (&["--frames", "5", "-o", "x.bmp"], ".bmp"),
    ];
    for (args, needle) in cases {
        let dir = tempfile::tempdir().unwrap();
        let out = nimscape(dir.path())
            .arg("automaton")
            .args(*args)
            .output()
            .unwrap();
        assert_one_line_error(&out, needle);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "{args:?} left a file"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args(["square", "--m", "1..4", "--n", "5", "-o", "x.gif"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "--n");
    let out = nimscape(dir.path())
        .args(["square", "--m", "1..64", "--cell", "2048", "-o", "x.gif"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "65535");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn output_is_byte_identical_across_runs_and_thread_counts() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[&[&str]] = &[
        &[
            "automaton",
            "--frames",
            "1..24",
            "--modulus",
            "3",
            "--panel",
            "64",
        ],
        &["square", "--m", "1..20", "--panel", "72", "--decompose"],
    ];
    for (k, args) in cases.iter().enumerate() {
        for ext in ["gif", "png"] {
            assert_same_bytes_across_thread_counts(dir.path(), args, &format!("{k}.{ext}"));
        }
    }
}

#[test]
fn golden_sheet_of_frames_1_to_8() {
    check_golden(
        "automaton-sheet-1-8.png",
        &["automaton", "--frames", "1..8", "--panel", "96"],
    );
}

#[test]
fn golden_frame_12_mod_3() {
    check_golden(
        "automaton-12-mod3.png",
        &["automaton", "--frames", "12", "--modulus", "3"],
    );
}

#[test]
fn automaton_check_honours_format_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args(["automaton", "--frames", "16", "--check", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(document["frames"], serde_json::json!([1, 16]));
    assert_eq!(document["agree"], true);
    assert_eq!(document["cells"], (1..=16u64).map(|n| n * n).sum::<u64>());
    let out = nimscape(dir.path())
        .args(["automaton", "--frames", "4", "--check", "--format", "gif"])
        .output()
        .unwrap();
    super::support::assert_one_line_error(&out, "automaton --check reports as text, or as JSON");
}
