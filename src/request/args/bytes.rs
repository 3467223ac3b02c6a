//! Byte counts with a K/M/G/T suffix, for the memory and output limits.

/// The largest size a byte-count flag takes: 1024 TiB.
pub const MAX_BYTES: u64 = 1 << 50;

/// Parses a byte count with an optional K/M/G/T suffix (powers of 1024).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim().to_ascii_uppercase();
    let t = t.trim_end_matches("IB").trim_end_matches('B');
    let (digits, shift) = match t.chars().last() {
        Some('K') => (&t[..t.len() - 1], 10),
        Some('M') => (&t[..t.len() - 1], 20),
        Some('G') => (&t[..t.len() - 1], 30),
        Some('T') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let value: f64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a size; write e.g. 512M or 4G"))?;
    if !(value > 0.0 && value.is_finite()) {
        return Err(format!("'{text}' must be a positive size"));
    }
    let bytes = value * (1u64 << shift) as f64;
    // Past this a size is no longer a limit (and would saturate to "unlimited").
    if bytes > MAX_BYTES as f64 {
        return Err(format!("'{text}' is more than the largest size, 1024T"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sizes() {
        assert_eq!(parse_bytes("2G").unwrap(), 2 << 30);
        assert_eq!(parse_bytes("512MiB").unwrap(), 512 << 20);
        assert_eq!(parse_bytes("1000").unwrap(), 1000);
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("1e30").unwrap_err().contains("largest"));
        assert!(parse_bytes("NaN").is_err());
    }
}
