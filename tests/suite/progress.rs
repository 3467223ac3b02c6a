//! Progress of long figures on the command line: a bar with an ETA on a
//! terminal (the test runs the binary under a pseudo-terminal, with `script`),
//! one summary line without a terminal (after lines of how far it is when the work
//! runs past 10 s), nothing with `--quiet`.

#![cfg(unix)]

use std::process::Command;

/// Long enough (over a second) in the test build for the bar to appear.
const SLOW: &[&[&str]] = &[
    &[
        "grundy",
        "triangular",
        "--k",
        "3",
        "--box",
        "900",
        "--slice",
        "z=5",
        "-o",
        "t.csv",
    ],
    &[
        "automaton",
        "--frames",
        "1..700",
        "--cell",
        "1",
        "-o",
        "a.gif",
    ],
    // No output: the check itself (65536 frames take hours) showed nothing at all.
    &["automaton", "--frames", "5500", "--check"],
];

fn nimscape() -> String {
    assert_cmd::cargo::cargo_bin("nimscape")
        .to_string_lossy()
        .into_owned()
}

/// What the terminal showed while `args` ran under a pseudo-terminal.
fn on_a_terminal(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let command = std::iter::once(nimscape())
        .chain(args.iter().map(|a| a.to_string()))
        .collect::<Vec<_>>()
        .join(" ");
    let out = Command::new("script")
        .current_dir(dir.path())
        .args(["-qfec", &command, "/dev/null"])
        .output()
        .expect("script (util-linux) runs");
    assert!(out.status.success(), "{command}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn long_figures_show_a_bar_with_an_eta_on_a_terminal() {
    for args in SLOW {
        let screen = on_a_terminal(args);
        assert!(
            screen.contains("ETA") && screen.contains('%'),
            "{args:?}: no progress bar on the terminal: {screen:?}"
        );
        let quiet: Vec<&str> = std::iter::once("--quiet")
            .chain(args.iter().copied())
            .collect();
        let screen = on_a_terminal(&quiet);
        assert!(!screen.contains("ETA"), "{args:?} --quiet: {screen:?}");
    }
}

#[test]
fn without_a_terminal_a_long_figure_says_one_summary_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(nimscape())
        .current_dir(dir.path())
        .args(SLOW[0])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(!stderr.contains("ETA"), "{stderr}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("t.csv: ") && l.ends_with(" s")),
        "{stderr}"
    );
    // "wrote t.csv" and the summary; a loaded machine may take past 10 s, and then
    // a line of how far it is comes first ("t.csv: 45% after 10 s").
    let progress = lines
        .iter()
        .filter(|l| l.starts_with("t.csv: ") && l.contains("% after "))
        .count();
    assert_eq!(lines.len(), 2 + progress, "{stderr}");
}
