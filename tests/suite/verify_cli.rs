//! `nimscape verify` from the outside.

use super::support::{assert_one_line_error, nimscape};

#[test]
fn every_claim_holds_at_the_default_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path()).arg("verify").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = table.lines().skip(1).collect();
    assert!(rows.len() >= 15, "{table}");
    assert!(rows.iter().all(|r| r.contains("holds")), "{table}");
    for source in [
        "Thm 2.3",
        "Thm 3.4",
        "Thm 5.2",
        "Thm 5.4",
        "Thm 7.3",
        "Miyadera web book, Exs 2.1–2.4",
        "Miyadera et al. III, Pred. 2.1",
    ] {
        assert!(table.contains(source), "{source} missing:\n{table}");
    }
    // Every column starts at the same character in every row, en dashes and all.
    let column_of = |row: &str, needle: &str| {
        let byte = row.find(needle).unwrap();
        row[..byte].chars().count()
    };
    let header = table.lines().next().unwrap();
    let result_column = column_of(header, "result");
    for row in &rows {
        assert_eq!(column_of(row, "holds"), result_column, "{row}");
    }
    // And no column is wider than its widest entry plus the two-space gap.
    let (source_at, range_at) = (column_of(header, "source"), column_of(header, "checked on"));
    let widest_source = rows
        .iter()
        .map(|row| {
            let cells: String = row
                .chars()
                .skip(source_at)
                .take(range_at - source_at)
                .collect();
            cells.trim_end().chars().count()
        })
        .max()
        .unwrap();
    assert_eq!(range_at - source_at, widest_source + 2, "{table}");
}

#[test]
fn a_deliberately_wrong_claim_fails_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args(["verify", "--up-to", "8", "--inject-false-claim"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "1 proven claim(s) failed: test hook");
    assert!(String::from_utf8_lossy(&out.stdout).contains("FAILS"));
}
