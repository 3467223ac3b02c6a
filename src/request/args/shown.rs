//! How a default is written in `--help` so that its flag parses it back.

/// `#rrggbb`: how a default colour is shown in `--help` and parsed back.
pub fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// `x,y,z`: a default vector as `--light` takes it.
pub fn joined(values: &[f64]) -> String {
    values
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}
