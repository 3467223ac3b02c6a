//! NumPy `.npy` arrays (format version 1.0), written as a stream.
//!
//! A `.npy` file is a short text header — dtype, C order, shape — padded so the data
//! starts on a 64-byte boundary, then the raw little-endian values. `numpy.load`
//! reads it as is; nothing here depends on NumPy. The header goes first and the data
//! follows in slabs, so a 5 GB array never sits whole in memory.

use std::io::{self, Write};

/// Writes the header of a C-order array of `dtype` (a NumPy type string such as
/// `<u2`, `<u8` or `|u1`) and `shape`.
pub fn write_header(out: &mut dyn Write, dtype: &str, shape: &[u64]) -> io::Result<()> {
    let shape = match shape {
        [one] => format!("({one},)"),
        dims => format!(
            "({})",
            dims.iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let dict = format!("{{'descr': '{dtype}', 'fortran_order': False, 'shape': {shape}, }}");
    // Magic (6) + version (2) + length (2) + dict + padding + '\n', a multiple of 64.
    let unpadded = 10 + dict.len() + 1;
    let padding = unpadded.next_multiple_of(64) - unpadded;
    let length = u16::try_from(dict.len() + padding + 1)
        .map_err(|_| io::Error::other("a .npy header over 64 KiB"))?;
    out.write_all(b"\x93NUMPY\x01\x00")?;
    out.write_all(&length.to_le_bytes())?;
    out.write_all(dict.as_bytes())?;
    out.write_all(&vec![b' '; padding])?;
    out.write_all(b"\n")
}

/// The size in bytes of an array of `count` values of `width` bytes with its header
/// (at most 128 bytes for the shapes nimscape writes), for the disk guard.
pub fn file_bytes(count: u64, width: u64) -> u64 {
    count.saturating_mul(width).saturating_add(128)
}

/// Writes values as little-endian bytes through a reused buffer.
pub struct LeWriter {
    bytes: Vec<u8>,
}

impl Default for LeWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl LeWriter {
    /// A writer with an empty buffer.
    pub fn new() -> Self {
        LeWriter { bytes: Vec::new() }
    }

    /// Writes `values` as `<u2`.
    pub fn u16s(&mut self, out: &mut dyn Write, values: &[u16]) -> io::Result<()> {
        self.bytes.clear();
        self.bytes.reserve(values.len() * 2);
        for v in values {
            self.bytes.extend_from_slice(&v.to_le_bytes());
        }
        out.write_all(&self.bytes)
    }

    /// Writes `values` as `<u8`.
    pub fn u64s(&mut self, out: &mut dyn Write, values: &[u64]) -> io::Result<()> {
        self.bytes.clear();
        self.bytes.reserve(values.len() * 8);
        for v in values {
            self.bytes.extend_from_slice(&v.to_le_bytes());
        }
        out.write_all(&self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_padded_to_64_bytes_and_names_the_shape() {
        for shape in [&[3u64][..], &[2, 3], &[2001, 2001, 2001], &[]] {
            let mut out = Vec::new();
            write_header(&mut out, "<u2", shape).unwrap();
            assert_eq!(out.len() % 64, 0);
            assert_eq!(&out[..8], b"\x93NUMPY\x01\x00");
            let length = u16::from_le_bytes([out[8], out[9]]) as usize;
            assert_eq!(10 + length, out.len());
            assert_eq!(out.last(), Some(&b'\n'));
            let text = std::str::from_utf8(&out[10..]).unwrap();
            assert!(text.contains("'descr': '<u2'"), "{text}");
            assert!(text.contains("'fortran_order': False"), "{text}");
        }
        let mut out = Vec::new();
        write_header(&mut out, "|u1", &[7]).unwrap();
        assert!(std::str::from_utf8(&out[10..])
            .unwrap()
            .contains("'shape': (7,)"));
    }

    #[test]
    fn values_are_little_endian() {
        let mut out = Vec::new();
        LeWriter::new().u16s(&mut out, &[1, 0x0203]).unwrap();
        assert_eq!(out, [1, 0, 3, 2]);
    }
}
