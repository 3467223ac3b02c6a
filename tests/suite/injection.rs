//! Text from a file or a request (a game file's `name`, a caption) reaches each
//! output language through that language's one escaping function: the SVG is
//! well-formed XML, the PDF is written, and no LaTeX output (`.tex` tables, TikZ,
//! `figures.tex`) holds a live control sequence from the text: no `\input`, no
//! `\write18`, no `^^5c` (TeX's spelling of a backslash). Control characters are
//! refused in one line, before anything is written. Where pdflatex is installed,
//! the files compile (with shell escape off, and nothing runs).

use super::latex_cli::have_latex;
use super::support::{assert_one_line_error, nimscape, run_ok};
use std::path::Path;
use std::process::Command;

/// Text an attacker would put in a shared file: LaTeX commands outside and
/// inside the captions' `$...$` markup, TeX's `^^` notation, unbalanced braces
/// and dollars, XML markup.
const HOSTILE: [&str; 9] = [
    "\\input{/etc/hostname}",
    "\\immediate\\write18{touch pwned}",
    "$\\input{/etc/hostname}$",
    "$\\immediate\\write18{touch pwned}$",
    "$x^^5cinput{/etc/hostname}$ and $^^5c^^5c$",
    "$}\\input{/etc/hostname}{$ a}b{",
    "$x_1_2^3^4''$ $ $a^$ $_$",
    "<svg onload=\"alert(1)\"> & 'quotes' ]]> <!-- -->",
    "a$b % c # d & e _ f ~ g ^ h { i \\",
];

/// A TOML basic string holding `text`.
fn toml_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A game file (nim on two heaps) named `name`.
fn game(name: &str) -> String {
    format!(
        "name = {}\nheaps = [\"x\", \"y\"]\n[[move]]\nlower = [\"x\", \"y\"]\n",
        toml_string(name)
    )
}

/// The LaTeX that runs: every line with its comment (from an unescaped `%`) cut.
fn live_tex(text: &str) -> String {
    let mut live = String::new();
    for line in text.lines() {
        let mut backslashes = 0;
        for c in line.chars() {
            if c == '%' && backslashes % 2 == 0 {
                break;
            }
            backslashes = if c == '\\' { backslashes + 1 } else { 0 };
            live.push(c);
        }
        live.push('\n');
    }
    live
}

fn assert_inert(tex: &str, what: &str) {
    let live = live_tex(tex);
    for command in ["\\input", "\\write", "\\immediate", "^^", "\\csname"] {
        assert!(!live.contains(command), "{what}: a live {command}:\n{live}");
    }
}

/// Compiles `body` (a document's body, in `dir`) with shell escape off.
fn compile(dir: &Path, body: &str) {
    let document = format!(
        "\\documentclass{{article}}\n\\usepackage[a4paper,margin=20mm]{{geometry}}\n\
         \\usepackage{{graphicx}}\n\\usepackage{{colortbl}}\n\\usepackage{{tikz}}\n\
         \\begin{{document}}\n{body}\n\\end{{document}}\n"
    );
    std::fs::write(dir.join("paper.tex"), document).unwrap();
    let out = Command::new("pdflatex")
        .args([
            "-no-shell-escape",
            "-interaction=nonstopmode",
            "-halt-on-error",
            "paper.tex",
        ])
        .current_dir(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "paper.tex does not compile:\n{}",
        &stdout[stdout.len().saturating_sub(3000)..]
    );
    assert!(!dir.join("pwned").exists());
}

#[test]
fn a_game_files_name_is_escaped_for_every_output_language() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut body = String::new();
    for (k, name) in HOSTILE.iter().enumerate() {
        let file = format!("g{k}.toml");
        std::fs::write(d.join(&file), game(name)).unwrap();
        // SVG: well-formed XML, the name in it as text.
        let svg = format!("g{k}.svg");
        run_ok(d, &["grundy", &file, "--box", "4", "--quiet", "-o", &svg]);
        let svg_text = std::fs::read_to_string(d.join(&svg)).unwrap();
        let parsed = roxmltree::Document::parse(&svg_text);
        assert!(parsed.is_ok(), "{name}: {parsed:?}\n{svg_text}");
        // PDF (made from the SVG).
        let pdf = format!("g{k}.pdf");
        run_ok(d, &["grundy", &file, "--box", "4", "--quiet", "-o", &pdf]);
        assert!(std::fs::read(d.join(&pdf)).unwrap().starts_with(b"%PDF-"));
        // The LaTeX table and TikZ.
        for ext in ["tex", "tikz"] {
            let out = format!("g{k}.{ext}");
            run_ok(d, &["grundy", &file, "--box", "4", "--quiet", "-o", &out]);
            let text = std::fs::read_to_string(d.join(&out)).unwrap();
            assert_inert(&text, &format!("{name} .{ext}"));
            body += &format!("\\input{{{out}}}\n\n");
        }
        // A caption on the command line takes the same way.
        let out = format!("c{k}.tikz");
        run_ok(
            d,
            &[
                "square",
                "--m",
                "5",
                "--caption",
                name,
                "--quiet",
                "-o",
                &out,
            ],
        );
        assert_inert(
            &std::fs::read_to_string(d.join(&out)).unwrap(),
            &format!("--caption {name}"),
        );
        body += &format!("\\input{{{out}}}\n\n");
    }
    if have_latex() {
        compile(d, &body);
    }
}

#[test]
fn control_characters_in_a_game_files_name_are_refused_for_every_format() {
    let dir = tempfile::tempdir().unwrap();
    for (k, name) in [
        "a\u{1}b",
        "x\n\\input{/etc/hostname}\n",
        "tab\there",
        "\u{7f}",
    ]
    .iter()
    .enumerate()
    {
        let file = format!("n{k}.toml");
        // Written with TOML's escapes, as a file would carry them.
        let escaped: String = name
            .chars()
            .map(|c| match c {
                '\\' => "\\\\".to_string(),
                c if c.is_control() => format!("\\u{:04X}", u32::from(c)),
                c => c.to_string(),
            })
            .collect();
        std::fs::write(
            dir.path().join(&file),
            format!("name = \"{escaped}\"\nheaps = [\"x\", \"y\"]\n[[move]]\nlower = \"x\"\n"),
        )
        .unwrap();
        for ext in ["svg", "pdf", "png", "tex", "tikz", "csv", "json"] {
            let out_file = format!("n{k}.{ext}");
            let out = nimscape(dir.path())
                .args(["grundy", &file, "--box", "3", "-o", &out_file])
                .output()
                .unwrap();
            assert_one_line_error(&out, "name: holds a control character");
            assert!(!dir.path().join(&out_file).exists(), "{out_file} written");
        }
    }
}

#[test]
fn recipe_captions_reach_figures_tex_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut recipe = String::new();
    for (k, caption) in HOSTILE.iter().enumerate() {
        recipe += &format!(
            "[[figure]]\nname = \"f{k}\"\nmodel = \"count\"\nm = \"1..4\"\nwidth = \"60mm\"\nformats = [\"pdf\"]\ncaption = {}\n\n",
            toml_string(caption)
        );
    }
    std::fs::write(d.join("hostile.toml"), recipe).unwrap();
    run_ok(d, &["render", "hostile.toml", "--quiet"]);
    let tex = std::fs::read_to_string(d.join("output/hostile/figures.tex")).unwrap();
    assert_inert(&tex, "figures.tex");
    if have_latex() {
        compile(
            d,
            "\\graphicspath{{output/hostile/}}\n\\newcommand{\\nimscapeunused}{}\n\\input{output/hostile/figures.tex}",
        );
    }
}
