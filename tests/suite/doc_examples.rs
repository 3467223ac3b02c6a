//! The documentation's shell examples, run as a newcomer runs them.
//!
//! Every ```` ```sh ```` block of `README.md` and `docs/*.md` runs in an empty
//! folder (one per document, blocks in the order they appear), with this build's
//! `nimscape` first on PATH. Each command must succeed, and every file it names
//! must exist afterwards and not be empty: the path after `-o` or `>`, and any path
//! its comment names (`# output/square-1-24.png: ...`). A comment that says a
//! command prints to stdout holds it to printing something.
//!
//! A line of its own just before a block changes how it runs:
//!
//! * `<!-- doc-example: skip (reason) -->`: not run here (`cargo` commands, a
//!   server that runs until stopped); the reason is required.
//! * `<!-- doc-example: with templates -->`: the repository's `templates/` folder
//!   is copied into the folder first (the `render` examples), with `games/`, the
//!   game files its recipes name.
//! * `<!-- doc-example: with games -->`: the repository's `games/` folder (the
//!   shipped game files) is copied into the folder first.
//! * `<!-- doc-example: fails -->`: every command must fail with one error line.
//!
//! Blocks that call other tools (`pdffonts`, `pdftotext`) need them; where one is
//! missing the block is skipped with a note, except in CI (`CI=true`), where that
//! fails. Every code fence must name its language, so a shell example cannot hide
//! in an unmarked block.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest one documented command may take (the slowest runs for seconds).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(120);

/// Tools a documented command may call besides nimscape and the shell's own.
const EXTERNAL_TOOLS: [&str; 2] = ["pdffonts", "pdftotext"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Run,
    Skip,
    WithTemplates,
    WithGames,
    Fails,
}

#[derive(Debug)]
struct Block {
    /// `file:line` of the opening fence.
    at: String,
    mode: Mode,
    /// Shell commands, continuation lines joined.
    commands: Vec<String>,
}

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn documents() -> Vec<PathBuf> {
    let root = repository();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    docs.insert(0, root.join("README.md"));
    docs
}

/// The mode a marker line asks for, or an error naming what is wrong with it.
fn marker(line: &str) -> Option<Result<Mode, String>> {
    let inner = line
        .trim()
        .strip_prefix("<!-- doc-example:")?
        .strip_suffix("-->")?
        .trim();
    Some(match inner {
        "with templates" => Ok(Mode::WithTemplates),
        "with games" => Ok(Mode::WithGames),
        "fails" => Ok(Mode::Fails),
        skip if skip.starts_with("skip (") && skip.ends_with(')') && skip.len() > 7 => {
            Ok(Mode::Skip)
        }
        other => Err(format!(
            "unknown marker '{other}' (write 'skip (reason)', 'with templates', 'with games' or 'fails')"
        )),
    })
}

/// The shell blocks of one Markdown document; an error for an unmarked fence or a
/// marker that is not followed by a shell block.
fn shell_blocks(name: &str, text: &str) -> Result<Vec<Block>, String> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    let mut pending: Option<(usize, Mode)> = None;
    while let Some((index, line)) = lines.next() {
        let number = index + 1;
        if let Some(mode) = marker(line) {
            let mode = mode.map_err(|e| format!("{name}:{number}: {e}"))?;
            pending = Some((number, mode));
            continue;
        }
        let Some(info) = line.strip_prefix("```") else {
            if let Some((at, _)) = pending.filter(|_| !line.trim().is_empty()) {
                return Err(format!(
                    "{name}:{at}: a doc-example marker must stand just before a ```sh block"
                ));
            }
            continue;
        };
        let language = info.trim();
        if language.is_empty() {
            return Err(format!(
                "{name}:{number}: a code fence without a language; write ```sh for a \
                 shell example (it is run) or ```text for anything else"
            ));
        }
        let mut body = Vec::new();
        for (_, inner) in lines.by_ref() {
            if inner.starts_with("```") {
                break;
            }
            body.push(inner);
        }
        let mode = pending.take().map(|(_, mode)| mode);
        if language != "sh" {
            if mode.is_some() {
                return Err(format!(
                    "{name}:{number}: a doc-example marker before a ```{language} block"
                ));
            }
            continue;
        }
        blocks.push(Block {
            at: format!("{name}:{number}"),
            mode: mode.unwrap_or(Mode::Run),
            commands: join_continuations(&body),
        });
    }
    Ok(blocks)
}

fn join_continuations(lines: &[&str]) -> Vec<String> {
    let mut commands = Vec::new();
    let mut current = String::new();
    for line in lines {
        match line.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head);
                current.push(' ');
            }
            None => {
                current.push_str(line);
                let command = std::mem::take(&mut current);
                if !command.trim().is_empty() && !command.trim_start().starts_with('#') {
                    commands.push(command);
                }
            }
        }
    }
    commands
}

/// The command and its comment (the text after the first ` #`).
fn split_comment(command: &str) -> (&str, &str) {
    match command.find(" #") {
        Some(at) => (&command[..at], &command[at + 2..]),
        None => (command, ""),
    }
}

/// Whether a word reads as a file the example promises: a known extension, and no
/// placeholder (`<set>`, `%03d`, `*`).
fn is_named_file(word: &str) -> bool {
    const EXTENSIONS: [&str; 13] = [
        "png", "svg", "pdf", "gif", "apng", "csv", "json", "npy", "tex", "md", "html", "toml",
        "txt",
    ];
    !word.contains(['<', '>', '%', '*', '$', '{'])
        && word
            .rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && EXTENSIONS.contains(&ext))
}

/// The files one command names: after `-o` or `>` in the command, and paths with a
/// folder in its comment.
fn named_files(command: &str) -> Vec<String> {
    let (code, comment) = split_comment(command);
    let words: Vec<&str> = code.split_whitespace().collect();
    let mut files: Vec<String> = words
        .windows(2)
        .filter(|pair| matches!(pair[0], "-o" | "--output" | ">"))
        .map(|pair| pair[1].trim_matches(['"', '\'']))
        .filter(|word| is_named_file(word))
        .map(str::to_string)
        .collect();
    for word in comment.split_whitespace() {
        let word = word.trim_end_matches([':', ',', ';', ')', '.']);
        let word = word.trim_start_matches(['(', '`']).trim_end_matches('`');
        if word.contains('/') && !word.contains("://") && is_named_file(word) {
            files.push(word.to_string());
        }
    }
    files.sort();
    files.dedup();
    files
}

/// The external tools a block calls, missing ones first.
fn missing_tools(block: &Block) -> Vec<&'static str> {
    EXTERNAL_TOOLS
        .into_iter()
        .filter(|tool| {
            block
                .commands
                .iter()
                .any(|c| split_comment(c).0.split_whitespace().any(|w| w == *tool))
        })
        .filter(|tool| Command::new(tool).arg("-v").output().is_err())
        .collect()
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

struct Ran {
    success: bool,
    stdout: String,
    stderr: String,
}

/// Runs one command line under `sh` in `dir`, with this build's nimscape on PATH.
fn run(dir: &Path, command: &str) -> Result<Ran, String> {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_nimscape"));
    let path = std::env::join_paths(
        std::iter::once(binary.parent().unwrap().to_path_buf()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap();
    let out_dir = dir.join(".doc-example-out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let (stdout_path, stderr_path) = (out_dir.join("stdout"), out_dir.join("stderr"));
    let mut child = Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("RAYON_NUM_THREADS")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .map_err(|e| format!("cannot start sh: {e}"))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > COMMAND_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {COMMAND_TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    Ok(Ran {
        success: status.success(),
        stdout: read(&stdout_path),
        stderr: read(&stderr_path),
    })
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// What is wrong with one command's run, if anything.
fn check_command(dir: &Path, mode: Mode, command: &str) -> Option<String> {
    let ran = match run(dir, command) {
        Ok(ran) => ran,
        Err(e) => return Some(e),
    };
    let shown = || format!("stdout:\n{}\nstderr:\n{}", ran.stdout, ran.stderr);
    if mode == Mode::Fails {
        let lines = ran.stderr.trim_end().lines().count();
        return match (ran.success, lines) {
            (true, _) => Some(format!("succeeded but is documented to fail\n{}", shown())),
            (false, 1) if !ran.stderr.contains("panicked") => None,
            _ => Some(format!("did not fail with one error line\n{}", shown())),
        };
    }
    if !ran.success {
        return Some(format!("failed\n{}", shown()));
    }
    let missing: Vec<String> = named_files(command)
        .into_iter()
        .filter(|file| std::fs::metadata(dir.join(file)).map_or(true, |m| m.len() == 0))
        .collect();
    if !missing.is_empty() {
        return Some(format!(
            "names {} but left it missing or empty\n{}",
            missing.join(", "),
            shown()
        ));
    }
    let (_, comment) = split_comment(command);
    if comment.contains("stdout") && ran.stdout.trim().is_empty() {
        return Some(format!(
            "says it prints to stdout but printed nothing\n{}",
            shown()
        ));
    }
    None
}

#[test]
fn every_shell_example_in_the_docs_runs_in_an_empty_folder() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for document in documents() {
        let name = document
            .strip_prefix(repository())
            .unwrap()
            .display()
            .to_string();
        let text = std::fs::read_to_string(&document).unwrap();
        let blocks = match shell_blocks(&name, &text) {
            Ok(blocks) => blocks,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let folder = tempfile::tempdir().unwrap();
        for block in blocks {
            if block.mode == Mode::Skip {
                continue;
            }
            let missing = missing_tools(&block);
            if !missing.is_empty() {
                assert!(
                    !in_ci(),
                    "{}: needs {} (CI installs poppler-utils, see .ci/run)",
                    block.at,
                    missing.join(", ")
                );
                eprintln!(
                    "note: {} skipped here: {} not installed",
                    block.at,
                    missing.join(", ")
                );
                continue;
            }
            let mut folders = Vec::new();
            if block.mode == Mode::WithTemplates {
                folders.extend(["templates", "games"]);
            }
            if block.mode == Mode::WithGames {
                folders.push("games");
            }
            for name in folders {
                if !folder.path().join(name).exists() {
                    copy_dir(&repository().join(name), &folder.path().join(name));
                }
            }
            for command in &block.commands {
                ran += 1;
                if let Some(problem) = check_command(folder.path(), block.mode, command) {
                    failures.push(format!("{}: `{}`: {problem}", block.at, command.trim()));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} documented commands went wrong:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(ran >= 40, "only {ran} documented commands ran");
}

#[test]
fn the_example_reader_finds_files_markers_and_unmarked_fences() {
    assert_eq!(
        named_files("nimscape square --m 1..24 --width 1200   # output/square-1-24.png: R(m,m)/m"),
        ["output/square-1-24.png"]
    );
    assert_eq!(
        named_files("nimscape verify --format json > claims.json"),
        ["claims.json"]
    );
    assert_eq!(
        named_files("nimscape square --m 1..32 -o frames/m-%03d.pdf   # frames/m-001.pdf ... m-032.pdf + frames/m.tex"),
        ["frames/m-001.pdf", "frames/m.tex"]
    );
    assert!(named_files("nimscape serve   # http://127.0.0.1:8737/ (Ctrl-C stops it)").is_empty());
    assert!(named_files("nimscape square --m 1 -o -").is_empty());

    let doc = "intro\n<!-- doc-example: skip (builds the repository) -->\n```sh\ncargo test \\\n  --release\n```\n\n```sh\n# a comment line\nnimscape verify\n```\n";
    let blocks = shell_blocks("x.md", doc).unwrap();
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].mode, Mode::Skip);
    assert_eq!(blocks[0].commands, ["cargo test    --release"]);
    assert_eq!(blocks[1].mode, Mode::Run);
    assert_eq!(blocks[1].at, "x.md:8");
    assert_eq!(blocks[1].commands, ["nimscape verify"]);

    let unmarked = shell_blocks("x.md", "```\nnimscape verify\n```\n").unwrap_err();
    assert!(
        unmarked.contains("x.md:1: a code fence without a language"),
        "{unmarked}"
    );
    let reasonless = shell_blocks("x.md", "<!-- doc-example: skip -->\n```sh\nls\n```\n");
    assert!(reasonless.unwrap_err().contains("unknown marker"));
    let stray = shell_blocks(
        "x.md",
        "<!-- doc-example: fails -->\ntext\n```sh\nls\n```\n",
    );
    assert!(stray.unwrap_err().contains("must stand just before"));
}
