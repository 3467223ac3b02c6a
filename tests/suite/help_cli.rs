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
    for flag in [
        "--threads",
        "--max-memory",
        "--max-output",
        "--quiet",
        "--format",
    ] {
        assert!(
            global.contains(flag),
            "{flag} not under the heading: {global}"
        );
        assert!(
            !own.contains(flag),
            "{flag} among square's own flags: {own}"
        );
    }
    assert!(own.contains("--cell"), "{own}");
}

#[test]
fn help_shows_the_latex_macro_with_one_backslash() {
    let dir = temp();
    for args in [
        &["square", "--help"][..],
        &["octahedron", "sweep", "--help"],
    ] {
        let help = run_ok(dir.path(), args);
        assert!(help.contains("\\animategraphics"), "{args:?}: {help}");
        assert!(!help.contains("\\\\animategraphics"), "{args:?}: {help}");
    }
}

#[test]
fn sweep_is_described_by_every_format_it_writes() {
    let dir = temp();
    let help = run_ok(dir.path(), &["octahedron", "--help"]);
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("sweep"))
        .unwrap();
    assert!(
        line.contains("GIF") && line.contains("APNG") && line.contains("frames"),
        "{line}"
    );
}

#[test]
fn man_prints_one_page_per_command_and_writes_them_all_with_dir() {
    let dir = temp();
    let top = run_ok(dir.path(), &["man"]);
    assert!(top.contains(".TH nimscape 1"), "{top}");
    let square = run_ok(dir.path(), &["man", "square"]);
    assert!(square.contains(".TH nimscape-square 1"), "{square}");
    assert!(
        square.contains("\\-\\-cell"),
        "square's page lists its flags"
    );
    let section = run_ok(dir.path(), &["man", "octahedron", "section"]);
    assert!(
        section.contains(".TH nimscape-octahedron-section 1"),
        "{section}"
    );

    let out = nimscape(dir.path())
        .args(["man", "squares"])
        .output()
        .unwrap();
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

#[test]
fn a_typo_gets_one_suggestion_the_nearest() {
    let dir = temp();
    for (args, needle) in [
        (&["sqaure"][..], "did you mean 'square'?"),
        (
            &["automaton", "--palete", "paper"][..],
            "did you mean '--palette'?",
        ),
        (
            &["square", "--thread", "2"][..],
            "did you mean '--threads'?",
        ),
        (
            &["grundy", "triangle", "--box", "5"][..],
            "did you mean 'triangular'?",
        ),
    ] {
        let out = nimscape(dir.path()).args(args).output().unwrap();
        assert_one_line_error(&out, needle);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr.matches("did you mean").count(),
            1,
            "{args:?}: {stderr}"
        );
        assert!(
            !stderr.contains(", square"),
            "{args:?}: two candidates: {stderr}"
        );
    }
    // square has no --palette: no suggestion beats a wrong one (clap's `--panel`).
    let out = nimscape(dir.path())
        .args(["square", "--palete", "paper"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "'--palete'");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("--panel"));
}

#[cfg(feature = "serve")]
#[test]
fn an_http_error_keeps_the_suggestion() {
    let server = super::serve::server();
    let reply = super::serve::get(server.addr, "/api/grundy.png?game=triangle&box=5");
    assert_eq!(reply.status, 400);
    assert!(
        reply.text().contains("did you mean 'triangular'?"),
        "{}",
        reply.text()
    );
}

#[cfg(feature = "serve")]
#[test]
fn explore_writes_under_output_and_says_so_on_stderr() {
    let dir = temp();
    let small = ["explore", "--frames", "2", "--zoom-levels", "0"];
    let out = nimscape(dir.path()).args(small).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(
        out.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "wrote output/explorer.html"
    );
    assert!(dir.path().join("output/explorer.html").is_file());
    assert!(!dir.path().join("explorer.html").exists());

    let out = nimscape(dir.path())
        .args(small)
        .args(["-q", "-o", "new/folder/page.html"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    assert!(dir.path().join("new/folder/page.html").is_file());
}

#[test]
fn section_messages_report_what_was_given() {
    let dir = temp();
    let out = nimscape(dir.path())
        .args(["octahedron", "section", "--n", "60", "--level", "77.5"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "--n must be at most 59 for exact arithmetic (got 60)");
    nimscape(dir.path())
        .args([
            "octahedron",
            "section",
            "--n",
            "3",
            "--r",
            "-0",
            "-o",
            "apex.svg",
        ])
        .assert()
        .success();
    let out = nimscape(dir.path())
        .args(["octahedron", "section", "--n", "3", "--r", "-0.5"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "--r must not be negative");
}

#[test]
fn a_memory_refusal_names_the_limit_to_raise_to_and_that_limit_is_enough() {
    let dir = temp();
    let args = ["square", "--m", "100", "--cell", "4", "-o", "board.png"];
    let out = nimscape(dir.path())
        .args(args)
        .args(["--max-memory", "1M"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "would need about");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let (_, example) = stderr
        .split_once("or raise --max-memory (e.g. --max-memory ")
        .unwrap_or_else(|| panic!("no way out named: {stderr}"));
    let limit = example.split(')').next().unwrap();
    nimscape(dir.path())
        .args(args)
        .args(["--max-memory", limit])
        .assert()
        .success();
}

#[test]
fn completions_offer_the_game_names_after_grundy() {
    let dir = temp();
    let bash = run_ok(dir.path(), &["completions", "bash"]);
    let grundy = bash
        .lines()
        .find(|l| l.contains("opts=") && l.contains("--compare-nim-sum"))
        .expect("grundy's options in the bash script");
    for game in [
        "triangular",
        "min-half",
        "six-sided",
        "band-7-1",
        "nim-pass",
    ] {
        assert!(grundy.contains(game), "{game} not offered: {grundy}");
    }
    let zsh = run_ok(dir.path(), &["completions", "zsh"]);
    assert!(
        zsh.contains("(triangular min-half cap six-sided"),
        "zsh offers no games"
    );
    // Completion only: help does not list them twice, and an unknown game is still
    // the request layer's refusal, with its suggestion.
    let help = run_ok(dir.path(), &["grundy", "--help"]);
    assert!(!help.contains("possible values"), "{help}");
    let out = nimscape(dir.path())
        .args(["grundy", "chess", "--box", "5"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "unknown game 'chess'; expected one of triangular");
}

#[test]
fn a_positional_is_named_as_written_not_as_a_flag() {
    // `render` with no recipe renders the built-in sets; with --builtin as well,
    // the positional is refused under its own name.
    let dir = temp();
    let out = nimscape(dir.path())
        .args(["render", "x.toml", "--builtin", "okubo2026"])
        .output()
        .unwrap();
    assert_one_line_error(&out, "[RECIPE]... cannot be used with --builtin");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("--recipe"));
}

/// Every size flag of every figure says it takes a length (LEN), a type size
/// (PT) or a resolution (DPI), as it parses them (issue 19): none is left in
/// pixels only.
#[test]
fn size_flags_take_lengths_in_every_help() {
    let dir = temp();
    for args in [
        &["square"][..],
        &["automaton"],
        &["count"],
        &["grundy"],
        &["octahedron", "section"],
        &["octahedron", "view"],
        &["octahedron", "sweep"],
    ] {
        let help = run_ok(dir.path(), &[args, &["--help"]].concat());
        for line in help.lines().map(str::trim_start) {
            let Some(flag) = line.split_whitespace().next() else {
                continue;
            };
            let size_flag = [
                "--width", "--height", "--panel", "--cell", "--margin", "--gap",
            ]
            .contains(&flag);
            if size_flag {
                assert!(line.contains("<LEN>"), "{args:?}: {line}");
            }
            if ["--caption-size", "--font-size"].contains(&flag) {
                assert!(line.contains("<PT>"), "{args:?}: {line}");
            }
        }
    }
}
