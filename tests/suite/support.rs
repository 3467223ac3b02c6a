//! Helpers shared by the integration tests.

use assert_cmd::Command;
use std::path::Path;

/// The nimscape binary, run in `dir`.
pub fn nimscape(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("nimscape").expect("the binary is built");
    cmd.current_dir(dir);
    cmd
}

/// Decodes a PNG into (width, height, colour type, bit depth, raw rows).
pub fn decode_png(bytes: &[u8]) -> (u32, u32, png::ColorType, png::BitDepth, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    // Figures with few colours are written indexed: compare them as the RGB(A) they
    // decode to (1-bit boards stay packed, as their tests read them).
    const COLOR_TYPE_AT: usize = 25;
    if bytes.get(COLOR_TYPE_AT) == Some(&(png::ColorType::Indexed as u8)) {
        decoder.set_transformations(png::Transformations::EXPAND);
    }
    let mut reader = decoder.read_info().expect("a valid PNG");
    let mut buffer = vec![0; reader.output_buffer_size().expect("a sane size")];
    let info = reader.next_frame(&mut buffer).expect("one frame");
    buffer.truncate(info.buffer_size());
    (
        info.width,
        info.height,
        info.color_type,
        info.bit_depth,
        buffer,
    )
}

/// Asserts that a failed run printed exactly one line on stderr containing `needle`.
pub fn assert_one_line_error(output: &std::process::Output, needle: &str) {
    assert!(!output.status.success(), "expected failure");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "not one line: {stderr}"
    );
    assert!(stderr.contains(needle), "'{needle}' not in: {stderr}");
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
}

/// Runs nimscape in `dir`, asserts success (showing stderr if not) and returns stdout.
pub fn run_ok(dir: &Path, args: &[&str]) -> String {
    let out = nimscape(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `args -o name` with one thread, the default pool, `RAYON_NUM_THREADS=3`
/// and `--threads 2`, and asserts the four files are the same bytes.
pub fn assert_same_bytes_across_thread_counts(dir: &Path, args: &[&str], name: &str) {
    let mut outputs = Vec::new();
    for (k, (env, flag)) in [
        (Some("1"), None),
        (None, None),
        (Some("3"), None),
        (None, Some("2")),
    ]
    .into_iter()
    .enumerate()
    {
        let file = format!("{k}-{name}");
        let mut cmd = nimscape(dir);
        match env {
            Some(threads) => cmd.env("RAYON_NUM_THREADS", threads),
            None => cmd.env_remove("RAYON_NUM_THREADS"),
        };
        if let Some(threads) = flag {
            cmd.args(["--threads", threads]);
        }
        cmd.args(args).args(["-o", &file]).assert().success();
        outputs.push(std::fs::read(dir.join(&file)).unwrap());
    }
    assert!(
        outputs.windows(2).all(|w| w[0] == w[1]),
        "{args:?} -o {name} differs between runs"
    );
}

/// A decoded GIF: one global palette, and per frame its palette indices and delay.
pub struct Gif {
    pub width: usize,
    pub height: usize,
    pub palette: Vec<[u8; 3]>,
    /// Palette indices of every frame, row-major.
    pub frames: Vec<Vec<u8>>,
    /// Colours of every frame, row-major.
    pub rgb: Vec<Vec<[u8; 3]>>,
    /// Delay of every frame, hundredths of a second.
    pub delays: Vec<u16>,
    pub repeat: gif::Repeat,
}

/// Decodes a GIF with the `gif` crate, asserting that every frame covers the
/// whole canvas, uses the global palette only and indexes inside it.
pub fn decode_gif(bytes: &[u8]) -> Gif {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).unwrap();
    let palette: Vec<[u8; 3]> = decoder
        .global_palette()
        .unwrap()
        .chunks(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    let (mut frames, mut rgb, mut delays) = (Vec::new(), Vec::new(), Vec::new());
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(
            (usize::from(frame.width), usize::from(frame.height)),
            (width, height)
        );
        assert!(frame.palette.is_none(), "frames use the one global palette");
        assert!(frame.buffer.iter().all(|&i| usize::from(i) < palette.len()));
        rgb.push(
            frame
                .buffer
                .iter()
                .map(|&i| palette[usize::from(i)])
                .collect(),
        );
        frames.push(frame.buffer.to_vec());
        delays.push(frame.delay);
    }
    Gif {
        width,
        height,
        palette,
        frames,
        rgb,
        delays,
        repeat: decoder.repeat(),
    }
}
