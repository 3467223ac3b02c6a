//! Help, manual pages, suggestions and the other words a newcomer reads first.

use super::support::{assert_one_line_error, nimscape, run_ok};

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn global_flags_have_their_own_heading_in_a_subcommands_help() {
    let dir = temp();
    let help = run_ok(dir.path(), &["square", "--help"]);
    let (own, global) = help
        .split_once("Global options:")
        .unwrap_or_else(|| panic!("no 'Global options:' heading in: {help}"));
    for flag in ["--threads", "--max-memory", "--max-output", "--quiet", "--format"] {
        assert!(global.contains(flag), "{flag} not under the heading: {global}");
        assert!(!own.contains(flag), "{flag} among square's own flags: {own}");
    }
    assert!(own.contains("--cell"), "{own}");
}

#[test]
fn help_shows_the_latex_macro_with_one_backslash() {
    let dir = temp();
    for args in [&["square", "--help"][..], &["octahedron", "sweep", "--help"]] {
        let help = run_ok(dir.path(), args);
        assert!(help.contains("\\animategraphics"), "{args:?}: {help}");
        assert!(!help.contains("\\\\animategraphics"), "{args:?}: {help}");
    }
}

#[test]
fn sweep_is_described_by_every_format_it_writes() {
    let dir = temp();
    let help = run_ok(dir.path(), &["octahedron", "--help"]);
    let line = help.lines().find(|l| l.trim_start().starts_with("sweep")).unwrap();
    assert!(line.contains("GIF") && line.contains("APNG") && line.contains("frames"), "{line}");
}

#[test]
fn man_prints_one_page_per_command_and_writes_them_all_with_dir() {
    let dir = temp();
    let top = run_ok(dir.path(), &["man"]);
    assert!(top.contains(".TH nimscape 1"), "{top}");
    let square = run_ok(dir.path(), &["man", "square"]);
    assert!(square.contains(".TH nimscape-square 1"), "{square}");
    assert!(square.contains("\\-\\-cell"), "square's page lists its flags");
    let section = run_ok(dir.path(), &["man", "octahedron", "section"]);
    assert!(section.contains(".TH nimscape-octahedron-section 1"), "{section}");

    let out = nimscape(dir.path()).args(["man", "squares"]).output().unwrap();
    assert_one_line_error(&out, "no manual page for 'squares'");

    nimscape(dir.path())
        .args(["man", "--dir", "pages/man1"])
        .assert()
        .success();
    for page in [
        "nimscape.1",
        "nimscape-square.1",
        "nimscape-grundy.1",
        "nimscape-octahedron.1",
        "nimscape-octahedron-sweep.1",
        "nimscape-verify.1",
    ] {
        let path = dir.path().join("pages/man1").join(page);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(text.starts_with(".ie"), "{page} is not roff");
    }
}
