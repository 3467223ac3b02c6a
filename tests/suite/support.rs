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
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
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
