//! `nimscape render`: figure sets from TOML recipes.
//!
//! A figure's parameters are its subcommand's flags, so each figure is checked
//! by the very command definition the command line uses, before anything is
//! drawn, and then drawn by running that command: in child processes of this
//! binary, several at once, so figures are independent (one that fails or is
//! refused leaves the others alone) and each records its own command line.

use super::out::{self, report};
use super::Cli;
use crate::encode::{self, io_error};
use crate::recipe::gallery::{self, Rendered};
use crate::recipe::{self, same_key, FigureEntry, Param, ParamValue, Recipe};
use anyhow::{anyhow, bail, Result};
use clap::{Args, CommandFactory, Parser};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Render figure sets from recipes in templates/.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Recipe files, or folders whose .toml recipes are all rendered.
    #[arg(required = true, value_name = "RECIPE")]
    recipes: Vec<PathBuf>,
    /// Root folder: each set goes to <OUT>/<set name>/ (updated, never emptied).
    #[arg(long, value_name = "DIR", default_value = "output")]
    out: PathBuf,
    /// Render only these figures (names, comma-separated or repeated).
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
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Figures drawn at once [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: Option<u16>,
}

/// One file to draw.
struct Job {
    set: usize,
    figure: usize,
    words: Vec<String>,
    output: PathBuf,
}

/// What drawing a file gave.
struct Done {
    job: usize,
    elapsed: Duration,
    error: Option<String>,
}

pub fn run(args: RenderArgs, memory_limit: u64) -> Result<()> {
    let recipes = recipe::collect(&args.recipes)?;
    let mut problems: Vec<String> = Vec::new();
    // Every figure's words, checked before anything is drawn.
    let mut plan: Vec<Vec<Option<Vec<String>>>> = Vec::new();
    let mut wanted = 0;
    for recipe in &recipes {
        let mut figures = Vec::new();
        for entry in &recipe.figures {
            if !args.only.is_empty() && !args.only.contains(&entry.name) {
                figures.push(None);
                continue;
            }
            wanted += 1;
            match figure_words(recipe, entry, args.quick) {
                Ok(words) => figures.push(Some(words)),
                Err(message) => {
                    problems.push(message);
                    figures.push(None);
                }
            }
        }
        plan.push(figures);
    }
    if wanted == 0 {
        bail!(
            "--only {}: no figure of these recipes has that name",
            args.only.join(",")
        );
    }
    if !problems.is_empty() && !args.keep_going {
        for problem in &problems[1..] {
            eprintln!("error: {problem}");
        }
        bail!("{}", problems[0]);
    }

    let mut jobs = Vec::new();
    for (set, recipe) in recipes.iter().enumerate() {
        let folder = args.out.join(&recipe.name);
        std::fs::create_dir_all(&folder).map_err(io_error(&folder))?;
        for (figure, words) in plan[set].iter().enumerate() {
            let Some(words) = words else { continue };
            let entry = &recipe.figures[figure];
            for &format in &entry.formats {
                let output = folder.join(gallery::file_name(entry, format));
                jobs.push(Job {
                    set,
                    figure,
                    words: words.clone(),
                    output,
                });
            }
        }
    }

    let bar = if args.quiet || !std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(jobs.len() as u64), ProgressDrawTarget::hidden())
    } else {
        ProgressBar::new(jobs.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}").expect("a valid template"),
    );
    let workers = args.jobs.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    let results = draw_all(&jobs, workers, memory_limit, args.keep_going, &bar)?;
    bar.finish_and_clear();

    // Report failures, one line each, naming the recipe line.
    let mut failed_figures = std::collections::BTreeSet::new();
    for done in &results {
        if let Some(error) = &done.error {
            let job = &jobs[done.job];
            let recipe = &recipes[job.set];
            let entry = &recipe.figures[job.figure];
            problems.push(format!(
                "{}:{}: figure '{}' ({}): {error}",
                recipe.path.display(),
                entry.line,
                entry.name,
                job.output
                    .file_name()
                    .and_then(|f| f.to_str())
                    .unwrap_or("?")
            ));
            failed_figures.insert((job.set, job.figure));
        }
    }

    for (set, recipe) in recipes.iter().enumerate() {
        let rendered: Vec<Rendered> = recipe
            .figures
            .iter()
            .enumerate()
            .filter(|(figure, _)| {
                plan[set][*figure].is_some() && !failed_figures.contains(&(set, *figure))
            })
            .map(|(figure, entry)| Rendered {
                entry,
                files: entry
                    .formats
                    .iter()
                    .map(|&f| gallery::file_name(entry, f))
                    .collect(),
                command: format!(
                    "nimscape {}",
                    shell_words(plan[set][figure].as_deref().unwrap_or_default())
                ),
            })
            .collect();
        if rendered.is_empty() || !args.only.is_empty() {
            // A partial render must not shrink a gallery that lists the whole set.
            if args.only.is_empty() {
                continue;
            }
        }
        let folder = args.out.join(&recipe.name);
        if args.only.is_empty() {
            write_text(
                &folder.join("index.md"),
                &gallery::index_md(recipe, &rendered),
            )?;
            write_text(
                &folder.join("figures.tex"),
                &gallery::figures_tex(recipe, &rendered),
            )?;
        }
    }

    if args.timings {
        let mut out = out::stdout();
        report!(out, "seconds\tfile");
        for done in &results {
            report!(
                out,
                "{:.3}\t{}",
                done.elapsed.as_secs_f64(),
                jobs[done.job].output.display()
            );
        }
        let total: Duration = results.iter().map(|d| d.elapsed).sum();
        report!(
            out,
            "{:.3}\ttotal of {} files (drawn {} at a time)",
            total.as_secs_f64(),
            results.len(),
            workers
        );
        out.finish()?;
    }
    if let Some((first, rest)) = problems.split_first() {
        for problem in rest {
            eprintln!("error: {problem}");
        }
        return Err(anyhow!("{first}"));
    }
    Ok(())
}

fn write_text(path: &Path, text: &str) -> Result<()> {
    encode::write_atomic(path, |out| {
        out.write_all(text.as_bytes()).map_err(io_error(path))
    })?;
    Ok(())
}

/// Draws every job in child processes of this binary, `workers` at a time. Without
/// `keep_going`, the first failure stops new jobs from starting.
fn draw_all(
    jobs: &[Job],
    workers: usize,
    memory_limit: u64,
    keep_going: bool,
    bar: &ProgressBar,
) -> Result<Vec<Done>> {
    let exe = std::env::current_exe()?;
    let next = Mutex::new(0usize);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| loop {
                let index = {
                    let mut next = next.lock().expect("no worker panics holding the lock");
                    if *next >= jobs.len() || stop.load(std::sync::atomic::Ordering::SeqCst) {
                        return;
                    }
                    *next += 1;
                    *next - 1
                };
                let job = &jobs[index];
                let start = Instant::now();
                let output = std::process::Command::new(&exe)
                    .arg("--max-memory")
                    .arg(memory_limit.to_string())
                    .args(&job.words)
                    .arg("-o")
                    .arg(&job.output)
                    .stdin(std::process::Stdio::null())
                    .output();
                let error = match output {
                    Ok(out) if out.status.success() => None,
                    Ok(out) => Some(
                        String::from_utf8_lossy(&out.stderr)
                            .lines()
                            .map(|l| l.trim_start_matches("error: ").to_string())
                            .collect::<Vec<_>>()
                            .join("; "),
                    ),
                    Err(e) => Some(format!("cannot run nimscape: {e}")),
                };
                if error.is_some() && !keep_going {
                    stop.store(true, std::sync::atomic::Ordering::SeqCst);
                }
                bar.inc(1);
                bar.set_message(
                    job.output
                        .file_name()
                        .and_then(|f| f.to_str())
                        .unwrap_or_default()
                        .to_string(),
                );
                results
                    .lock()
                    .expect("no worker panics holding the lock")
                    .push(Done {
                        job: index,
                        elapsed: start.elapsed(),
                        error,
                    });
            });
        }
    });
    let mut results = results.into_inner().expect("workers finished");
    results.sort_by_key(|d| d.job);
    Ok(results)
}

/// Quotes words for a shell where needed, for the gallery's commands.
fn shell_words(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            if !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.,=/:+".contains(c))
            {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The command-line words of a figure (without `-o`), checked against the subcommand's
/// definition; errors name the recipe file, the line and the key.
fn figure_words(recipe: &Recipe, entry: &FigureEntry, quick: bool) -> Result<Vec<String>, String> {
    let file = recipe.path.display();
    let at =
        |line: usize, message: String| format!("{file}:{line}: figure '{}': {message}", entry.name);
    let root = Cli::command();
    let mut command = &root;
    for word in &entry.model {
        command = command.find_subcommand(word).ok_or_else(|| {
            at(
                entry.line,
                format!(
                    "unknown model '{}'; allowed: {}",
                    entry.model.join(" "),
                    models(&root).join(", ")
                ),
            )
        })?;
    }
    if command.has_subcommands() {
        return Err(at(
            entry.line,
            format!(
                "model '{}' needs one more word; allowed: {}",
                entry.model.join(" "),
                models(&root).join(", ")
            ),
        ));
    }
    if !command
        .get_arguments()
        .any(|a| a.get_long() == Some("output"))
    {
        return Err(at(
            entry.line,
            format!("model '{}' writes no figure file", entry.model.join(" ")),
        ));
    }
    let reserved = ["output", "threads", "max-memory", "help", "version"];
    let takes = |key: &str| {
        command.get_arguments().find(|a| {
            let long = a.get_long().map(str::to_string);
            (long.as_deref().is_some_and(|l| same_key(l, key))
                || (a.is_positional() && same_key(a.get_id().as_str(), key)))
                && !reserved.contains(&key.replace('_', "-").as_str())
        })
    };
    let allowed = || {
        command
            .get_arguments()
            .filter(|a| !a.is_hide_set())
            .filter_map(|a| {
                if a.is_positional() {
                    Some(a.get_id().to_string())
                } else {
                    a.get_long().map(str::to_string)
                }
            })
            .filter(|k| !reserved.contains(&k.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut params: Vec<Param> = entry.effective_params(quick);
    for default in &recipe.defaults {
        if takes(&default.key).is_some() && !params.iter().any(|p| same_key(&p.key, &default.key)) {
            params.push(default.clone());
        }
    }
    let mut words: Vec<String> = entry.model.clone();
    let mut positional = Vec::new();
    for param in &params {
        let arg = takes(&param.key).ok_or_else(|| {
            at(
                param.line,
                format!(
                    "key '{}' is not a parameter of model '{}'; allowed: {}",
                    param.key,
                    entry.model.join(" "),
                    allowed()
                ),
            )
        })?;
        let switch = matches!(arg.get_action(), clap::ArgAction::SetTrue);
        match (&param.value, switch) {
            (ParamValue::Switch(true), true) => {
                words.push(format!("--{}", arg.get_long().unwrap_or_default()))
            }
            (ParamValue::Switch(false), true) => {}
            // A recipe value is a value, never a flag: `game = "--max-memory=100T"` must
            // not reach the command line as an option.
            (ParamValue::Text(text), false) if arg.is_positional() => {
                if text.starts_with('-') {
                    return Err(at(
                        param.line,
                        format!(
                            "key '{}' = '{text}': a value cannot start with '-' (options are keys of their own)",
                            param.key
                        ),
                    ));
                }
                positional.push(text.clone())
            }
            // `--key=value` keeps a value that starts with '-' a value.
            (ParamValue::Text(text), false) => {
                words.push(format!("--{}={text}", arg.get_long().unwrap_or_default()));
            }
            (ParamValue::Switch(_), false) => {
                return Err(at(
                    param.line,
                    format!("key '{}' takes a value, not true or false", param.key),
                ));
            }
            (ParamValue::Text(text), true) => {
                return Err(at(
                    param.line,
                    format!(
                        "key '{}' is a switch: write {} = true, not '{text}'",
                        param.key, param.key
                    ),
                ));
            }
        }
    }
    // Positionals first after the model words, as the command line expects them.
    let model_len = entry.model.len();
    words.splice(model_len..model_len, positional);

    // The command definition itself checks values, ranges and combinations.
    let probe = entry
        .formats
        .first()
        .map(|f| format!("probe.{}", f.extension()))
        .unwrap_or_default();
    let mut argv = vec!["nimscape".to_string()];
    argv.extend(words.iter().cloned());
    argv.extend(["-o".to_string(), probe]);
    if let Err(err) = Cli::try_parse_from(&argv) {
        let text = err.to_string();
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("invalid parameters");
        let first = first.trim_start_matches("error: ").to_string();
        let line = err
            .get(clap::error::ContextKind::InvalidArg)
            .map(|value| value.to_string())
            .and_then(|flag| {
                let long = flag
                    .trim_start_matches("--")
                    .split([' ', '='])
                    .next()
                    .unwrap_or_default()
                    .to_string();
                params
                    .iter()
                    .find(|p| same_key(&p.key, &long))
                    .map(|p| p.line)
            })
            .unwrap_or(entry.line);
        return Err(at(line, first));
    }
    Ok(words)
}

fn models(root: &clap::Command) -> Vec<String> {
    let mut names = Vec::new();
    for sub in root.get_subcommands() {
        if sub.has_subcommands() {
            for inner in sub.get_subcommands() {
                if inner.get_name() != "help" {
                    names.push(format!("{} {}", sub.get_name(), inner.get_name()));
                }
            }
        } else if sub.get_arguments().any(|a| a.get_long() == Some("output")) {
            names.push(sub.get_name().to_string());
        }
    }
    names
}
