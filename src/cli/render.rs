//! `nimscape render`: figure sets (and conjecture surveys) from TOML recipes.
//!
//! The work is the library's [`nimscape::recipe::render`]; this front end maps
//! the flags onto its options, shows its progress as a bar, prints the proofs'
//! verdicts, the solvers and the timings, and turns its problems into one error
//! line each. `--isolate` draws each file in a child process of this binary.

use super::report::{self, report};
use super::Context;
use anyhow::{anyhow, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nimscape::recipe::{self, Progress, RenderOptions};
use std::io::IsTerminal;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Render figure sets from recipes in templates/.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Recipe files, or folders whose .toml recipes are all rendered [default: the
    /// template sets built into nimscape, as --builtin renders them].
    #[arg(value_name = "RECIPE")]
    recipes: Vec<PathBuf>,
    /// Render these template sets built into nimscape (comma-separated or repeated:
    /// okubo2026, miyadera-tables, ...); with no recipe and no --builtin, all of them.
    #[arg(
        long,
        value_name = "NAME",
        value_delimiter = ',',
        conflicts_with = "recipes"
    )]
    builtin: Vec<String>,
    /// The paper's layout for figures.tex: 1 (every figure a `figure`) or 2 (figures
    /// wider than a column become `figure*`) [default: the recipe's `columns`, else 1].
    #[arg(long, value_name = "1|2", value_parser = parse_paper_columns)]
    columns: Option<i64>,
    /// The layout's column width: every figure without a size of its own is drawn at
    /// it, a `wide = true` figure of two columns at both columns' width [default: the
    /// recipe's `width`; in two columns 85mm].
    #[arg(long, value_name = "LEN", value_parser = parse_layout_width)]
    width: Option<String>,
    /// Root folder: each set goes to <OUTPUT>/<set name>/ (updated, never emptied).
    #[arg(
        short,
        long,
        alias = "out",
        value_name = "DIR",
        default_value = "output"
    )]
    output: PathBuf,
    /// Render only these figures and surveys (names, comma-separated or repeated).
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    only: Vec<String>,
    /// Apply each figure's `quick` overrides: small sizes, for tests and previews.
    #[arg(long)]
    quick: bool,
    /// Render the figures that are fine even when others are wrong or fail.
    #[arg(long)]
    keep_going: bool,
    /// Print the time each figure took.
    #[arg(long)]
    timings: bool,
    /// Figures drawn at once [default: the number of cores]. Figures and the work
    /// inside each share one pool of this many threads, so the cores are never oversubscribed.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: Option<u16>,
    /// Draw each file in a child process of its own (the old way: slower, but a
    /// figure that crashes cannot take the others down).
    #[arg(long)]
    isolate: bool,
}

pub fn run(args: RenderArgs, ctx: &Context) -> Result<()> {
    let started = Instant::now();
    let recipes = if args.recipes.is_empty() {
        recipe::builtin::recipes(&args.builtin)?
    } else {
        recipe::collect(&args.recipes)?
    };
    let workers = args.jobs.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    let exe = if args.isolate {
        Some(std::env::current_exe()?)
    } else {
        None
    };
    // Each child gets its share of the cores, so children x threads <= cores.
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    let child_threads = (cores / workers.max(1)).max(1);
    let draw_in_child = |words: &[String]| -> Result<(), String> {
        let exe = exe
            .as_ref()
            .expect("the binary is found before --isolate draws");
        draw_in_child(exe, words, child_threads, ctx)
    };
    let options = RenderOptions {
        output: args.output.clone(),
        only: args.only.clone(),
        quick: args.quick,
        keep_going: args.keep_going,
        workers,
        columns: args.columns.and_then(recipe::Columns::from_count),
        width: args.width.clone(),
        memory_limit: ctx.memory_limit,
        output_limit: ctx.output_limit,
        isolate: args.isolate.then_some(&draw_in_child as recipe::Isolate),
    };
    let bar = if ctx.quiet || !std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
    } else {
        ProgressBar::no_length()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}").expect("a valid template"),
    );
    // A proof's verdict is printed as it is decided; the first failure to print
    // is the run's error.
    let printing: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let progress = |event: Progress| match event {
        Progress::Planned { files } => bar.set_length(files as u64),
        Progress::File(path) => {
            bar.inc(1);
            bar.set_message(
                path.file_name()
                    .and_then(|f| f.to_str())
                    .unwrap_or_default()
                    .to_string(),
            );
        }
        Progress::Proved {
            name,
            label,
            summary,
        } => {
            let label = label.map(|l| format!("{l}: ")).unwrap_or_default();
            let printed = (|| {
                let mut out = report::stdout();
                report!(out, "{name}: {label}{summary}");
                out.finish()
            })();
            if let Err(error) = printed {
                printing
                    .lock()
                    .expect("no printer panics holding the lock")
                    .get_or_insert(error);
            }
        }
        _ => {}
    };
    let rendered = recipe::render(recipes, &options, &ctx.control, &progress);
    bar.finish_and_clear();
    let rendered = rendered?;
    if let Some(error) = printing.into_inner().expect("rendering finished") {
        return Err(error);
    }

    if !rendered.solvers.is_empty() {
        let mut out = report::stdout();
        for (name, choice) in &rendered.solvers {
            report!(out, "{name}: solver: {} ({})", choice.solver, choice.why);
        }
        out.finish()?;
    }
    if args.timings {
        let mut out = report::stdout();
        report!(out, "seconds\tfigure");
        for (name, elapsed) in &rendered.timings {
            report!(out, "{:.3}\t{name}", elapsed.as_secs_f64());
        }
        let total: Duration = rendered.timings.iter().map(|(_, t)| *t).sum();
        report!(
            out,
            "{:.3}\ttotal of {} figures ({workers} threads)",
            total.as_secs_f64(),
            rendered.timings.len(),
        );
        out.finish()?;
    }
    if !rendered.problems.is_empty() {
        return Err(problems(rendered.problems));
    }
    if !ctx.quiet {
        let mut out = std::io::stderr();
        let _ = writeln!(
            out,
            "rendered {} files of {} figures into {} in {:.1} s",
            rendered.written,
            rendered.timings.len(),
            args.output.display(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// All problems, each printed once: the first is the error, the rest go before it.
fn problems(problems: Vec<String>) -> anyhow::Error {
    let mut problems = problems.into_iter();
    let first = problems.next().unwrap_or_default();
    for problem in problems {
        eprintln!("error: {problem}");
    }
    anyhow!("{first}")
}

/// Draws one file (`words` name it with `-o`) in a child process of this binary
/// with `threads` threads; the error is the child's error lines in one.
fn draw_in_child(
    exe: &std::path::Path,
    words: &[String],
    threads: usize,
    ctx: &Context,
) -> Result<(), String> {
    let mut command = std::process::Command::new(exe);
    command
        .arg(format!("--max-memory={}", ctx.memory_limit))
        .arg(format!("--threads={threads}"))
        .arg("--quiet")
        .args(words)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    // Registered, so a SIGINT / SIGTERM to render stops the child too.
    let output = super::signals::spawn_child(&mut command)
        .and_then(|(child, _registered)| child.wait_with_output())
        .map_err(|e| format!("cannot run nimscape: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    Err(String::from_utf8_lossy(&output.stderr)
        .lines()
        .map(|l| l.trim_start_matches("error: ").to_string())
        .collect::<Vec<_>>()
        .join("; "))
}

/// `--width`: a length, kept as written (figures parse it as their own `width`).
fn parse_layout_width(text: &str) -> Result<String, String> {
    nimscape::request::parse_size(text).map(|_| text.to_string())
}

/// `--columns`: the paper's columns, 1 or 2.
fn parse_paper_columns(text: &str) -> Result<i64, String> {
    match text.trim() {
        "1" => Ok(1),
        "2" => Ok(2),
        _ => Err("the paper has 1 or 2 columns".into()),
    }
}
