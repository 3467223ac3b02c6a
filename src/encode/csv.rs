//! Comma-separated values: a header line, then one line a row.

use std::io::Write;

/// Writes rows of comma-separated values with a header line.
pub fn write_csv<R: AsRef<[String]>>(
    out: &mut dyn Write,
    header: &[&str],
    rows: impl IntoIterator<Item = R>,
) -> std::io::Result<()> {
    writeln!(out, "{}", header.join(","))?;
    for row in rows {
        writeln!(out, "{}", row.as_ref().join(","))?;
    }
    Ok(())
}
