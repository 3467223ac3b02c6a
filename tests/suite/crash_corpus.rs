//! The corpus of past crashes (`tests/corpus/crashes.tsv`): every input that once
//! panicked, hung, wrapped or was accepted silently, run again as a command. Each must
//! end as its line says, with no panic and within a bounded time.

use super::support::nimscape;
use std::time::Duration;

/// Expands `${N*TEXT}` (TEXT repeated N times) and `${n}` (a line break) in a
/// corpus argument.
fn expand(arg: &str) -> String {
    let mut out = String::new();
    let mut rest = arg;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let body = &rest[start + 2..];
        let end = body.find('}').expect("a closing brace");
        if &body[..end] == "n" {
            out.push('\n');
        } else {
            let (count, text) = body[..end].split_once('*').expect("N*TEXT");
            out.push_str(&text.repeat(count.parse().expect("a count")));
        }
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn expansion_repeats_text() {
    assert_eq!(expand("a${3*(}x${2*)}b"), "a(((x))b");
    assert_eq!(expand("a${n}b"), "a\nb");
    assert_eq!(expand("plain"), "plain");
}

#[test]
fn past_crashes_end_cleanly() {
    let corpus = include_str!("../corpus/crashes.tsv");
    let dir = tempfile::tempdir().unwrap();
    let mut cases = 0;
    for (number, line) in corpus.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let outcome = fields.next().expect("an outcome");
        if outcome == "file" {
            // `file NAME TEXT`: a file the commands after it read (a game file).
            let name = fields.next().expect("a file name");
            let text = expand(fields.next().expect("the file's text"));
            std::fs::write(dir.path().join(name), text).unwrap();
            continue;
        }
        let args: Vec<String> = fields.map(expand).collect();
        let where_ = format!("crashes.tsv line {}", number + 1);
        let out = nimscape(dir.path())
            .args(&args)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap_or_else(|e| panic!("{where_}: {e}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("panicked") && out.status.code() != Some(101),
            "{where_}: panic: {stderr}"
        );
        assert!(out.status.code().is_some(), "{where_}: killed (timeout?)");
        match outcome.strip_prefix("error: ") {
            Some(needle) => {
                assert!(!out.status.success(), "{where_}: expected a failure");
                assert_eq!(stderr.trim_end().lines().count(), 1, "{where_}: {stderr}");
                assert!(stderr.len() < 1000, "{where_}: a long line: {stderr}");
                assert!(
                    stderr.contains(needle),
                    "{where_}: '{needle}' not in {stderr}"
                );
            }
            None => {
                assert_eq!(outcome, "ok", "{where_}: unknown outcome");
                assert!(out.status.success(), "{where_}: {stderr}");
            }
        }
        cases += 1;
    }
    assert!(cases >= 20, "the corpus lost its lines: {cases}");
    // No temporary file is left behind by any of them.
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let name = entry.unwrap().file_name();
        assert!(
            !name.to_string_lossy().ends_with(".part"),
            "left behind: {name:?}"
        );
    }
}
