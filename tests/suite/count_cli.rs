//! `nimscape count` from the outside.

use super::support::{assert_one_line_error, nimscape};
use nimscape_model::pattern::count::count_direct;

#[test]
fn table_on_stdout_matches_direct_counts() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args(["count", "--m", "1..40"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("m\tg(m)"));
    for (m, line) in (1..=40u64).zip(lines) {
        assert_eq!(line, format!("{m}\t{}", count_direct(m)));
    }
}

#[test]
fn a_billion_is_instant_and_exact_at_a_power_of_two() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args(["count", "--m", "1073741824,1000000000"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("1073741824\t{}", 1u128 << 60)),
        "{text}"
    );
    assert!(text.contains("1000000000\t"));
}

#[test]
fn csv_json_and_charts() {
    let dir = tempfile::tempdir().unwrap();
    nimscape(dir.path())
        .args(["count", "--m", "1..16", "-o", "g.csv"])
        .assert()
        .success();
    let csv = std::fs::read_to_string(dir.path().join("g.csv")).unwrap();
    assert!(csv.starts_with("m,g\n1,1\n2,4\n3,5\n"));
    nimscape(dir.path())
        .args(["count", "--m", "1..16", "-o", "g.json"])
        .assert()
        .success();
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("g.json")).unwrap()).unwrap();
    // Exact integers are JSON numbers in every data file.
    assert_eq!(json[15]["g"], 256);
    for file in ["g.png", "g.svg"] {
        nimscape(dir.path())
            .args(["count", "--m", "1..200", "--log", "-o", file])
            .assert()
            .success();
        assert!(std::fs::metadata(dir.path().join(file)).unwrap().len() > 1000);
    }
}

#[test]
fn check_reports_every_identity() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimscape(dir.path())
        .args(["count", "--check", "--check-up-to", "512"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("\tholds").count(), 5, "{text}");
    assert!(text.contains("Theorem 4.2") && text.contains("Theorem 4.3"));
}

#[test]
fn bad_counts() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (vec!["count", "--m", "0"], "start"),
        (vec!["count", "--m", "9..3"], "empty range"),
        (
            vec!["count", "--m", "1..100000000"],
            "more than 10000000 values",
        ),
        (vec!["count", "--m", "7", "-o", "g.png"], "at least two"),
        (vec!["count"], "--m is required"),
    ] {
        let output = nimscape(dir.path()).args(&args).output().unwrap();
        assert_one_line_error(&output, needle);
    }
}

#[test]
fn count_reports_honour_format() {
    let dir = tempfile::tempdir().unwrap();
    // The table without -o: in the --format asked for, as `-o -` writes it.
    let json = nimscape(dir.path())
        .args(["count", "--m", "1..4", "--format", "json"])
        .output()
        .unwrap();
    let piped = nimscape(dir.path())
        .args(["count", "--m", "1..4", "-o", "-", "--format", "json"])
        .output()
        .unwrap();
    assert!(json.status.success() && !json.stdout.is_empty());
    assert_eq!(json.stdout, piped.stdout);
    // --check with --format json: one document, the table beside the checks.
    let out = nimscape(dir.path())
        .args([
            "count",
            "--m",
            "1..4",
            "--check",
            "--check-up-to",
            "16",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(document["g"][3]["g"], 16);
    let checks = document["checks"].as_array().unwrap();
    assert!(checks.len() >= 5 && checks.iter().all(|c| c["holds"] == true));
    let out = nimscape(dir.path())
        .args(["count", "--check", "--format", "svg"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "count --check reports as text, or as JSON");
}
