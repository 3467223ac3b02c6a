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
    // One block per claim, each starting with its result; within 100 columns,
    // en dashes and all.
    let results: Vec<&str> = table
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with(' '))
        .collect();
    let (summary, rows) = results.split_last().unwrap();
    assert!(rows.len() >= 15, "{table}");
    assert!(rows.iter().all(|r| r.starts_with("holds")), "{table}");
    assert_eq!(
        *summary,
        format!("{} claims hold, 0 fail", rows.len()),
        "{table}"
    );
    for line in table.lines() {
        assert!(
            line.chars().count() <= 100,
            "wider than 100 columns: {line}"
        );
    }
    // The claims' text starts at the same character in every block.
    let header = table.lines().next().unwrap();
    let byte = header.find("claim").unwrap();
    let claim_column = header[..byte].chars().count();
    for line in table.lines().skip(1).filter(|l| l.starts_with(' ')) {
        assert_eq!(line.len() - line.trim_start().len(), claim_column, "{line}");
    }
}

#[test]
fn verify_reports_json_with_format_json_and_refuses_other_formats() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args(["verify", "--up-to", "8", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let claims = document["claims"].as_array().unwrap();
    assert!(claims.len() >= 15, "{document}");
    assert!(claims
        .iter()
        .all(|c| c["holds"] == true && c["source"].is_string()));
    assert_eq!(document["hold"], claims.len());
    assert_eq!(document["fail"], 0);

    let out = nimscape(dir.path())
        .args(["verify", "--up-to", "8", "--format", "png"])
        .output()
        .unwrap();
    assert_one_line_error(
        &out,
        "verify reports as text, or as JSON with --format json",
    );
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
