//! Animations besides GIF: APNG and numbered frame sequences with their LaTeX
//! `\animategraphics` snippet, `--scale common`, and the same bytes whatever
//! the thread count.

use super::support::{assert_one_line_error, decode_png, nimscape, run_ok};
use std::path::Path;

/// Every frame of an APNG as RGBA rows, with its delay in hundredths.
fn apng_frames(bytes: &[u8]) -> (u32, u32, Vec<(Vec<u8>, u16)>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::ALPHA);
    let mut reader = decoder.read_info().unwrap();
    let control = reader.info().animation_control.expect("an animated PNG");
    let (width, height) = (reader.info().width, reader.info().height);
    let mut frames = Vec::new();
    for _ in 0..control.num_frames {
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buffer).unwrap();
        buffer.truncate(info.buffer_size());
        let fc = reader.info().frame_control.unwrap();
        assert_eq!((fc.width, fc.height), (width, height), "whole frames");
        assert_eq!(fc.delay_den, 100);
        frames.push((buffer, fc.delay_num));
    }
    (width, height, frames)
}

/// A PNG's pixels as RGBA.
fn rgba(bytes: &[u8]) -> Vec<u8> {
    let (_, _, color, _, data) = decode_png(bytes);
    match color {
        png::ColorType::Rgba => data,
        png::ColorType::Rgb => data
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("unexpected colour type {other:?}"),
    }
}

#[test]
fn apng_and_frame_sequence_hold_the_same_labelled_frames() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(dir.path(), &["square", "--m", "3..7", "-o", "sq.apng"]);
    run_ok(
        dir.path(),
        &["square", "--m", "3..7", "-o", "frames/m-%03d.png"],
    );
    let (width, height, frames) = apng_frames(&std::fs::read(dir.path().join("sq.apng")).unwrap());
    assert_eq!(frames.len(), 5, "one frame per board");
    let delays: Vec<u16> = frames.iter().map(|f| f.1).collect();
    assert_eq!(delays, [10, 10, 10, 10, 150]);
    // The two writers (one APNG stream, five PNG files) draw the same pixels.
    for (k, (pixels, _)) in frames.iter().enumerate() {
        let file = dir.path().join(format!("frames/m-{:03}.png", k + 1));
        let still = std::fs::read(&file).unwrap();
        let (w, h, ..) = decode_png(&still);
        assert_eq!((w, h), (width, height));
        assert!(&rgba(&still) == pixels, "frame {} differs", k + 1);
    }
    // Consecutive boards differ: the frames really are the sequence.
    assert!(frames.windows(2).all(|w| w[0].0 != w[1].0));
    let tex = std::fs::read_to_string(dir.path().join("frames/m-png.tex")).unwrap();
    assert!(
        tex.contains("\\animategraphics[controls,loop,poster=")
            && tex.contains("]{10}{frames/m-}{001}{005}"),
        "{tex}"
    );
    assert!(!dir.path().join("frames/m-006.png").exists());
}

#[test]
fn every_animation_writes_apng_and_pdf_frames() {
    let dir = tempfile::tempdir().unwrap();
    for (args, frames) in [
        (&["automaton", "--frames", "1..6", "--modulus", "3"][..], 6),
        (&["octahedron", "sweep", "--n", "4", "--frames", "4"][..], 4),
    ] {
        let mut with = args.to_vec();
        with.extend(["-o", "a.apng"]);
        run_ok(dir.path(), &with);
        let (_, _, got) = apng_frames(&std::fs::read(dir.path().join("a.apng")).unwrap());
        assert_eq!(got.len(), frames, "{args:?}");
        let folder = format!("{}-pdf", args[0]);
        let pattern = format!("{folder}/f-%d.pdf");
        let mut with = args.to_vec();
        with.extend(["-o", &pattern]);
        run_ok(dir.path(), &with);
        for k in 1..=frames {
            let pdf = std::fs::read(dir.path().join(format!("{folder}/f-{k}.pdf"))).unwrap();
            assert!(pdf.starts_with(b"%PDF"), "{args:?} frame {k}");
        }
        let tex = std::fs::read_to_string(dir.path().join(format!("{folder}/f-pdf.tex"))).unwrap();
        assert!(
            tex.contains(&format!("{{{folder}/f-}}{{1}}{{{frames}}}")),
            "{tex}"
        );
    }
}

/// The run of pixels of one colour that starts at the first board pixel of the
/// middle row of the first cell row: the drawn size of one cell.
fn first_cell_width(pixels: &[u8], width: usize) -> usize {
    let at = |x: usize, y: usize| &pixels[(y * width + x) * 4..(y * width + x) * 4 + 3];
    let white = [255u8, 255, 255];
    // The board's top-left corner: the first non-white pixel on the diagonal.
    let corner = (0..width).find(|&d| at(d, d) != white).unwrap();
    let (x0, y) = (corner + 2, corner + 3);
    let colour = at(x0, y).to_vec();
    (x0..width).take_while(|&x| at(x, y) == &colour[..]).count() + 2
}

#[test]
fn common_scale_keeps_the_cell_size_and_fit_fills_the_frame() {
    let dir = tempfile::tempdir().unwrap();
    let cells = |scale: &str| -> Vec<usize> {
        let name = format!("{scale}.apng");
        run_ok(
            dir.path(),
            &["square", "--m", "4,8,16", "--scale", scale, "-o", &name],
        );
        let (width, _, frames) = apng_frames(&std::fs::read(dir.path().join(&name)).unwrap());
        frames
            .iter()
            .map(|(p, _)| first_cell_width(p, width as usize))
            .collect()
    };
    let common = cells("common");
    assert!(common.iter().all(|&c| c == common[0]), "{common:?}");
    let fit = cells("fit");
    // Fit draws R(4,4)'s cells four times as wide as R(16,16)'s.
    assert!(fit[0] > 3 * fit[2], "{fit:?}");
    assert_eq!(fit[2], common[2], "the largest board is drawn the same way");
}

#[test]
fn animations_are_the_same_bytes_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    super::support::assert_same_bytes_across_thread_counts(
        dir.path(),
        &["automaton", "--frames", "1..12", "--modulus", "3"],
        "a.apng",
    );
    let mut sequences = Vec::new();
    for threads in ["1", "3"] {
        let pattern = format!("t{threads}/f-%02d.png");
        run_ok(
            dir.path(),
            &[
                "--threads",
                threads,
                "square",
                "--m",
                "2..13",
                "-o",
                &pattern,
            ],
        );
        let folder = dir.path().join(format!("t{threads}"));
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        files.sort();
        sequences.push(files);
    }
    assert_eq!(sequences[0].len(), 13, "12 frames and f-png.tex");
    let tex = |s: &Vec<(String, Vec<u8>)>| s.iter().find(|f| f.0 == "f-png.tex").unwrap().1.clone();
    // The snippets name their own folders; the frames are the same bytes.
    assert_ne!(tex(&sequences[0]), tex(&sequences[1]));
    for (a, b) in sequences[0]
        .iter()
        .zip(&sequences[1])
        .filter(|(a, _)| a.0 != "f-png.tex")
    {
        assert_eq!(a, b, "{} differs between thread counts", a.0);
    }
}

#[test]
fn bad_frame_sequences_are_refused_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["square", "--m", "1..120", "-o", "x/f-%02d.png"],
            "write %03d",
        ),
        (
            &["square", "--m", "3..5", "-o", "x/f-%03d-b.png"],
            "frames/m-%03d.png",
        ),
        (
            &["square", "--m", "3..5", "--raw", "-o", "x/f-%03d.png"],
            "--raw",
        ),
        (
            &["count", "--m", "1..8", "-o", "x/f-%03d.png"],
            "not an animation",
        ),
    ];
    for (args, needle) in cases {
        let out = nimscape(dir.path()).args(args).output().unwrap();
        assert_one_line_error(&out, needle);
        assert!(
            !Path::new(&dir.path().join("x")).exists(),
            "{args:?} left x/"
        );
    }
}

/// The logical screen of a GIF: its frame size in pixels.
fn gif_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.starts_with(b"GIF89a"), "a GIF");
    let word = |k: usize| u32::from(u16::from_le_bytes([bytes[k], bytes[k + 1]]));
    (word(6), word(8))
}

#[test]
fn animations_take_physical_sizes_and_are_exactly_the_width_asked() {
    use super::print_cli::{media_box, phys};
    let dir = tempfile::tempdir().unwrap();
    let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    // 60 mm at the default 300 dpi is 708.66 px: 709.
    let board = ["square", "--m", "1..8", "--width", "60mm"];
    run_ok(dir.path(), &[&board[..], &["-o", "x.gif"]].concat());
    assert_eq!(gif_size(&read("x.gif")).0, 709);
    run_ok(dir.path(), &[&board[..], &["-o", "x.apng"]].concat());
    let apng = read("x.apng");
    let (w, ..) = apng_frames(&apng);
    assert_eq!(w, 709);
    assert_eq!(phys(&apng), Some((11811, 11811, true)), "300 dpi in pHYs");
    run_ok(dir.path(), &[&board[..], &["-o", "f/m-%d.pdf"]].concat());
    for k in 1..=8 {
        let (w, _) = media_box(&read(&format!("f/m-{k}.pdf")));
        assert!((w - 170.08).abs() < 0.5, "frame {k} is {w} pt wide");
    }
    // Pixels without a dpi stay pixels: the frame is the width asked, not a
    // panel of a sheet of 8.
    run_ok(
        dir.path(),
        &["square", "--m", "1..8", "--width", "1080", "-o", "w.gif"],
    );
    assert_eq!(gif_size(&read("w.gif")).0, 1080);
    // --panel in mm and --dpi alone work on every animation.
    run_ok(
        dir.path(),
        &["square", "--m", "1..4", "--panel", "20mm", "-o", "p.gif"],
    );
    run_ok(
        dir.path(),
        &["square", "--m", "1..4", "--dpi", "150", "-o", "d.apng"],
    );
    // 512 pt frames' board at 150 dpi: the frame is 150/72 times its point size.
    let (dw, ..) = apng_frames(&read("d.apng"));
    run_ok(dir.path(), &["square", "--m", "1..4", "-o", "n.apng"]);
    let (nw, ..) = apng_frames(&read("n.apng"));
    assert_eq!(dw, (f64::from(nw) * 150.0 / 72.0).round() as u32);
    run_ok(
        dir.path(),
        &[
            "automaton",
            "--frames",
            "1..6",
            "--width",
            "50mm",
            "-o",
            "a.gif",
        ],
    );
    assert_eq!(gif_size(&read("a.gif")).0, 591, "50 mm at 300 dpi");
    // The sweep takes lengths too, and --width makes every frame that wide.
    let sweep = ["octahedron", "sweep", "--n", "3", "--frames", "3"];
    run_ok(
        dir.path(),
        &[&sweep[..], &["--panel", "45mm", "-o", "s.gif"]].concat(),
    );
    run_ok(
        dir.path(),
        &[&sweep[..], &["--width", "85mm", "-o", "s/r-%d.pdf"]].concat(),
    );
    for k in 1..=3 {
        let (w, _) = media_box(&read(&format!("s/r-{k}.pdf")));
        assert!((w - 240.94).abs() < 0.5, "sweep frame {k} is {w} pt wide");
    }
    run_ok(
        dir.path(),
        &[&sweep[..], &["--width", "85mm", "-o", "s.apng"]].concat(),
    );
    assert_eq!(apng_frames(&read("s.apng")).0, 1004);
}

#[test]
fn animation_sizes_that_cannot_fit_are_refused_with_the_width_that_fits() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args(["square", "--m", "3", "--width", "30", "-o", "x.gif"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "give --width 36 px or more");
    let out = nimscape(dir.path())
        .args([
            "octahedron",
            "sweep",
            "--n",
            "3",
            "--width",
            "40",
            "-o",
            "x.gif",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, "give --width 48 px or more");
    let out = nimscape(dir.path())
        .args([
            "octahedron",
            "sweep",
            "--n",
            "3",
            "--panel",
            "3furlongs",
            "-o",
            "x.gif",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, "unknown unit");
    let out = nimscape(dir.path())
        .args([
            "octahedron",
            "sweep",
            "--n",
            "3",
            "--width",
            "9000",
            "-o",
            "x.gif",
        ])
        .output()
        .unwrap();
    assert_one_line_error(&out, "at most 4096");
    assert!(!dir.path().join("x.gif").exists());
}

/// The box (left, top, right, bottom) of the pixels that are not white in rows
/// `rows` of an RGBA frame.
fn ink_box(pixels: &[u8], width: usize, rows: std::ops::Range<usize>) -> [usize; 4] {
    let mut b = [usize::MAX, usize::MAX, 0, 0];
    for y in rows {
        for x in 0..width {
            let p = &pixels[(y * width + x) * 4..(y * width + x) * 4 + 3];
            if p != [255, 255, 255] {
                b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
            }
        }
    }
    b
}

#[test]
fn common_scale_centres_every_board_and_keeps_one_caption_size() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "square", "--m", "1,4,16", "--scale", "common", "-o", "c.apng",
        ],
    );
    let (width, height, frames) = apng_frames(&std::fs::read(dir.path().join("c.apng")).unwrap());
    let (w, h) = (width as usize, height as usize);
    // The board box is square: the frame's width less its margins.
    let margin = 16;
    // The board and its one-pixel frame, which sits just outside the board box.
    let board_rows = 0..w - margin + 1;
    let mut captions = Vec::new();
    for (k, (pixels, _)) in frames.iter().enumerate() {
        let [left, top, right, bottom] = ink_box(pixels, w, board_rows.clone());
        // Centred: as much white to the left as to the right, above as below.
        assert!(
            left.abs_diff(w - 1 - right) <= 1,
            "frame {k}: {left}..{right} of {w}"
        );
        assert!(
            (top + 1 - margin).abs_diff(w - margin - bottom) <= 1,
            "frame {k}: {top}..{bottom} of {w}"
        );
        captions.push(ink_box(pixels, w, w - margin + 1..h));
    }
    // "m = 1" is the same size as "m = 16" but for its last digit: one type size,
    // at one place.
    let height_of = |b: &[usize; 4]| b[3] - b[1];
    assert!(height_of(&captions[0]) >= 12, "caption {:?}", captions[0]);
    // (within a pixel of anti-aliasing: the captions sit at different x).
    let first = captions[0];
    for c in &captions {
        assert!(
            height_of(c).abs_diff(height_of(&first)) <= 1 && c[1].abs_diff(first[1]) <= 1,
            "{captions:?}"
        );
    }
}

#[test]
fn pdf_and_png_frames_of_one_prefix_keep_their_own_snippets() {
    let dir = tempfile::tempdir().unwrap();
    run_ok(dir.path(), &["square", "--m", "1..3", "-o", "f/m-%d.pdf"]);
    run_ok(dir.path(), &["square", "--m", "1..5", "-o", "f/m-%d.png"]);
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    assert!(read("f/m-pdf.tex").contains("{f/m-}{1}{3}"));
    assert!(read("f/m-pdf.tex").contains("f/m-1.pdf"));
    assert!(read("f/m-png.tex").contains("{f/m-}{1}{5}"));
    assert!(!dir.path().join("f/m.tex").exists());
}

/// The `\animategraphics` snippet in a slide-sized page (beamer's 128 x 96 mm
/// with its text area), with a stand-in for the animate package (which
/// texlive-latex-base lacks) that logs its options and places the first frame
/// as animate would: frames at their natural size when they fit, scaled down
/// to the text area when they do not, never an overfull box.
#[test]
fn the_frames_snippet_fits_a_slide_whatever_the_frame_size() {
    if !super::print_cli::have("pdflatex") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        dir.path(),
        &[
            "square",
            "--m",
            "1..3",
            "--width",
            "178mm",
            "-o",
            "big/m-%d.pdf",
        ],
    );
    run_ok(
        dir.path(),
        &[
            "square",
            "--m",
            "1..3",
            "--width",
            "40mm",
            "-o",
            "small/m-%d.pdf",
        ],
    );
    for (folder, scaled) in [("big", true), ("small", false)] {
        let doc = format!(
            "\\documentclass{{article}}\\usepackage{{graphicx}}\n\
             \\setlength\\paperwidth{{128mm}}\\setlength\\paperheight{{96mm}}\n\
             \\setlength\\textwidth{{118mm}}\\setlength\\textheight{{80mm}}\n\
             \\makeatletter\\define@key{{Gin}}{{controls}}[]{{}}\\define@key{{Gin}}{{loop}}[]{{}}\\define@key{{Gin}}{{poster}}[]{{}}\\makeatother\n\
             \\newcommand\\animategraphics[5][]{{\\typeout{{NIMSCAPE[#1]}}\\includegraphics[#1]{{#3#4}}}}\n\
             \\begin{{document}}\\noindent\\input{{{folder}/m-pdf.tex}}\\end{{document}}\n"
        );
        std::fs::write(dir.path().join(format!("{folder}.tex")), doc).unwrap();
        let out = std::process::Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error"])
            .arg(format!("{folder}.tex"))
            .current_dir(dir.path())
            .output()
            .unwrap();
        let log = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{log}");
        let options = log
            .lines()
            .find_map(|l| l.strip_prefix("NIMSCAPE["))
            .expect("the snippet calls \\animategraphics");
        assert_eq!(
            options.contains("height=0.8\\textheight"),
            scaled,
            "{folder}: {options}"
        );
        assert!(options.starts_with("controls,loop"), "{options}");
        assert!(!log.contains("Overfull"), "{folder}: {log}");
        assert!(!log.contains("Float too large"), "{folder}: {log}");
    }
}

/// The pixels of a PNG file as RGBA.
fn png_pixels(path: &Path) -> Vec<u8> {
    rgba(&std::fs::read(path).unwrap())
}

#[test]
fn the_poster_is_the_most_detailed_frame_or_the_one_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    // m = 5..8: R(8,8) is all P cells, R(7,7) the most detailed board.
    let recipe = "[[figure]]\nname = \"growth\"\nmodel = \"square\"\nformats = [\"gif\"]\nm = \"5..8\"\npanel = 64\n\n[[figure]]\nname = \"first\"\nmodel = \"square\"\nformats = [\"gif\"]\nm = \"5..8\"\npanel = 64\nposter = 1\n";
    std::fs::write(dir.path().join("anim.toml"), recipe).unwrap();
    run_ok(dir.path(), &["render", "--quiet", "-o", "out", "anim.toml"]);
    run_ok(
        dir.path(),
        &["square", "--m", "5..8", "--panel", "64", "-o", "q/m-%d.png"],
    );
    let frame = |k: usize| png_pixels(&dir.path().join(format!("q/m-{k}.png")));
    let still =
        |name: &str| png_pixels(&dir.path().join(format!("out/anim/{name}-last-frame.png")));
    assert!(still("growth") == frame(3), "the default still is R(7,7)");
    assert!(still("first") == frame(1), "poster = 1 is the first frame");
    // The frames snippet names the same poster, counted from 0 as animate does.
    let tex = std::fs::read_to_string(dir.path().join("q/m-png.tex")).unwrap();
    assert!(tex.contains("loop,poster=2#1]"), "{tex}");
    run_ok(
        dir.path(),
        &["square", "--m", "5..8", "--poster", "4", "-o", "p/m-%d.pdf"],
    );
    let tex = std::fs::read_to_string(dir.path().join("p/m-pdf.tex")).unwrap();
    assert!(tex.contains("loop,poster=3#1]"), "{tex}");
    let out = nimscape(dir.path())
        .args(["square", "--m", "5..8", "--poster", "5", "-o", "x/m-%d.png"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "give 1 to 4");
    assert!(!dir.path().join("x").exists());
}

/// A poster past the last frame is a mistake whatever the output: a GIF or
/// APNG has no poster to show, but the number asked for names no frame.
#[test]
fn a_poster_past_the_last_frame_is_refused_for_every_output() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (
            &["square", "--m", "1..8", "--poster", "99", "-o", "a.gif"][..],
            "--poster 99: the animation has 8 frame(s); give 1 to 8",
        ),
        (
            &["square", "--m", "1..8", "--poster", "9", "-o", "a.apng"],
            "give 1 to 8",
        ),
        (
            &["square", "--m", "11", "--poster", "2", "-o", "s.png"],
            "has 1 frame(s)",
        ),
        (
            &[
                "automaton",
                "--frames",
                "1..4",
                "--poster",
                "5",
                "-o",
                "a.gif",
            ],
            "give 1 to 4",
        ),
        (
            &[
                "octahedron",
                "sweep",
                "--n",
                "3",
                "--frames",
                "5",
                "--poster",
                "6",
                "-o",
                "s.gif",
            ],
            "give 1 to 5",
        ),
        (
            &["square", "--m", "1..8", "--poster", "0", "-o", "a.gif"],
            "give a frame's number, 1 for the first",
        ),
        (
            &["render", "--columns", "two"],
            "the paper has 1 or 2 columns",
        ),
    ] {
        let out = nimscape(dir.path()).args(args).output().unwrap();
        assert_one_line_error(&out, needle);
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
