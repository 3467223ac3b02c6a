//! `nimscape render`: figure sets (and conjecture surveys) from TOML recipes.
//!
//! A figure's parameters are its subcommand's flags, so each figure is checked
//! by the very command definition the command line uses, and by its own
//! validation, before anything is drawn. Then every figure is one job on one
//! rayon pool, in this process: its plan is made once and writes all of its
//! formats, so each model is computed once. `--isolate` draws each file in a
//! child process instead. Provenance is the plan's canonical command line.

use super::out::{self, report};
use super::output::Context;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nimscape::recipe::gallery::{self, Rendered, RenderedSurvey};
use nimscape::recipe::{self, Recipe};
use nimscape::request::survey::{self, PlannedSurvey};
use nimscape::request::{write_atomic, Format};
use nimscape::request::{Budget, Naming, Planned};
use rayon::prelude::*;
use std::io::IsTerminal;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
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

/// One figure to draw: its recipe, its entry, and its checked plan.
struct Job {
    set: usize,
    figure: usize,
    planned: Planned,
    outputs: Vec<(Format, PathBuf)>,
    /// The last frame of an animation as a PNG, for `figures.tex` (LaTeX cannot
    /// play a GIF), when the recipe asks for no still format itself.
    still: Option<PathBuf>,
}

/// What drawing a figure gave.
struct Done {
    job: usize,
    elapsed: Duration,
    /// The first failure, naming the file.
    error: Option<String>,
    /// Files written.
    written: usize,
}

pub fn run(args: RenderArgs, ctx: &Context) -> Result<()> {
    let started = Instant::now();
    let mut recipes = if args.recipes.is_empty() {
        recipe::builtin::recipes(&args.builtin)?
    } else {
        recipe::collect(&args.recipes)?
    };
    // The layout asked for on the command line is every recipe's.
    for recipe in &mut recipes {
        if let Some(columns) = args.columns.and_then(recipe::Columns::from_count) {
            // The recipe's width is its own layout's: another layout has its own
            // (85 mm columns, or --width).
            if recipe.columns.unwrap_or_default() != columns {
                recipe.width = None;
            }
            recipe.columns = Some(columns);
        }
        if let Some(width) = &args.width {
            recipe.width = Some(width.clone());
        }
    }
    check_set_names(&recipes)?;
    check_only(&recipes, &args.only)?;
    let mut problems: Vec<String> = recipes
        .iter()
        .filter_map(|recipe| gallery::check_captions(recipe).err())
        .collect();
    let mut jobs = Vec::new();
    let chosen: Vec<(usize, usize)> = recipes
        .iter()
        .enumerate()
        .flat_map(|(set, recipe)| {
            let only = &args.only;
            recipe
                .figures
                .iter()
                .enumerate()
                .filter(move |(_, entry)| only.is_empty() || only.contains(&entry.name))
                .map(move |(figure, _)| (set, figure))
        })
        .collect();
    // The whole recipe, semantics included, is checked before anything is drawn: every
    // figure planned, side by side on the pool, the results kept in recipe order.
    let budget = Budget {
        memory_limit: ctx.memory_limit,
        ..Budget::default()
    };
    let chosen_surveys: Vec<(usize, usize)> = recipes
        .iter()
        .enumerate()
        .flat_map(|(set, recipe)| {
            let only = &args.only;
            recipe
                .surveys
                .iter()
                .enumerate()
                .filter(move |(_, entry)| only.is_empty() || only.contains(&entry.name))
                .map(move |(survey, _)| (set, survey))
        })
        .collect();
    let mut proofs = Vec::new();
    for (set, recipe) in recipes.iter().enumerate() {
        for (index, entry) in recipe.proofs.iter().enumerate() {
            if !args.only.is_empty() && !args.only.contains(&entry.name) {
                continue;
            }
            match recipe::plan::plan_prove(recipe, entry, args.quick) {
                Ok(planned) => proofs.push((set, index, planned)),
                Err(message) => problems.push(message),
            }
        }
    }
    // The engine is looked for before anything is drawn, so a missing one costs no work.
    if let Some((set, index, _)) = proofs.first() {
        if let Err(error) = nimscape::prove::engine::Mona::from_path() {
            let recipe = &recipes[*set];
            let entry = &recipe.proofs[*index];
            problems.push(format!(
                "{}:{}: prove '{}': {error}",
                recipe.path.display(),
                entry.line,
                entry.name
            ));
        }
    }
    let mut surveys = Vec::new();
    for &(set, survey) in &chosen_surveys {
        let recipe = &recipes[set];
        let entry = &recipe.surveys[survey];
        match recipe::plan::plan_survey(recipe, entry, args.quick, &budget) {
            Ok(planned) => surveys.push((set, survey, planned)),
            Err(message) => problems.push(message),
        }
    }
    let checked: Vec<_> = chosen
        .par_iter()
        .map(|&(set, figure)| {
            let recipe = &recipes[set];
            recipe::plan::plan(recipe, &recipe.figures[figure], args.quick, &budget)
        })
        .collect();
    for (&(set, figure), checked) in chosen.iter().zip(checked) {
        let recipe = &recipes[set];
        let entry = &recipe.figures[figure];
        let folder = args.output.join(&recipe.name);
        match checked {
            Ok(planned) => jobs.push(Job {
                set,
                figure,
                planned,
                outputs: entry
                    .formats
                    .iter()
                    .map(|&f| (f, folder.join(gallery::file_name(entry, f))))
                    .collect(),
                still: gallery::still_name(entry).map(|name| folder.join(name)),
            }),
            Err(message) => problems.push(message),
        }
    }
    if !problems.is_empty() && !args.keep_going {
        return Err(report(problems));
    }
    // Folders made here are removed again when the render stops or fails before
    // anything went into them: no empty set folders are left behind.
    let mut folders = super::output::NewFolders::none();
    for recipe in &recipes {
        let folder = args.output.join(&recipe.name);
        folders.add(super::output::make_parent(&folder.join("index.md"))?);
    }

    let files: usize = jobs
        .iter()
        .map(|j| j.outputs.len() + usize::from(j.still.is_some()))
        .sum();
    let bar = if ctx.quiet || !std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::hidden())
    } else {
        ProgressBar::new(files as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}").expect("a valid template"),
    );
    let workers = args.jobs.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    let results = if args.isolate {
        draw_isolated(&jobs, workers, args.keep_going, &bar, ctx)?
    } else {
        draw_in_process(&jobs, workers, args.keep_going, &bar, ctx)?
    };
    bar.finish_and_clear();
    // A stopped render writes no gallery: the figures it finished stay, each whole.
    ctx.control.check()?;

    // Surveys after the figures: each runs its values in parallel on its own.
    let mut surveyed: Vec<(usize, usize, Vec<String>, String)> = Vec::new();
    let figures_failed = results.iter().any(|d| d.error.is_some());
    if !figures_failed || args.keep_going {
        for (set, survey, planned) in &surveys {
            let recipe = &recipes[*set];
            let entry = &recipe.surveys[*survey];
            let folder = args.output.join(&recipe.name);
            match run_survey(entry, planned, &folder, ctx) {
                Ok(files) => {
                    surveyed.push((*set, *survey, files, planned.command_line.clone()));
                }
                Err(error) => {
                    ctx.control.check()?;
                    problems.push(format!(
                        "{}:{}: survey '{}': {error}",
                        recipe.path.display(),
                        entry.line,
                        entry.name,
                    ));
                    if !args.keep_going {
                        break;
                    }
                }
            }
        }
    }

    // Proofs last: each is a run of the engine, its certificate a folder of the set.
    let mut proved = Vec::new();
    if problems.is_empty() || args.keep_going {
        let mut stdout = out::stdout();
        for (set, index, planned) in &proofs {
            let recipe = &recipes[*set];
            let entry = &recipe.proofs[*index];
            let folder = args.output.join(&recipe.name).join(&entry.name);
            let decided = nimscape::request::prove::run(
                planned,
                Some(&folder),
                ctx.memory_limit,
                &ctx.control,
                &mut |path, text| nimscape::prove::engine::write_text(path, text, ctx.output_limit),
            );
            match decided {
                Ok(cases) => {
                    for case in &cases {
                        let label = case
                            .label
                            .as_deref()
                            .map(|l| format!("{l}: "))
                            .unwrap_or_default();
                        report!(stdout, "{}: {label}{}", entry.name, case.summary);
                    }
                    proved.push((*set, *index, cases, planned.command_line.clone()));
                }
                Err(error) => {
                    ctx.control.check()?;
                    problems.push(format!(
                        "{}:{}: prove '{}': {}",
                        recipe.path.display(),
                        entry.line,
                        entry.name,
                        Naming::Keys.message(&error),
                    ));
                    if !args.keep_going {
                        break;
                    }
                }
            }
        }
        stdout.finish()?;
    }

    // Report failures, one line each, naming the recipe line.
    let mut drawn = std::collections::BTreeSet::new();
    for done in &results {
        let job = &jobs[done.job];
        match &done.error {
            Some(error) => {
                let recipe = &recipes[job.set];
                let entry = &recipe.figures[job.figure];
                problems.push(format!(
                    "{}:{}: figure '{}': {error}",
                    recipe.path.display(),
                    entry.line,
                    entry.name,
                ));
            }
            None => {
                drawn.insert((job.set, job.figure));
            }
        }
    }

    if args.only.is_empty() {
        for (set, recipe) in recipes.iter().enumerate() {
            // Only figures that were drawn are listed: a stopped render links no missing file.
            let rendered: Vec<Rendered> = jobs
                .iter()
                .filter(|job| job.set == set && drawn.contains(&(set, job.figure)))
                .map(|job| {
                    let entry = &recipe.figures[job.figure];
                    // figures.tex includes the PDF, else the PNG (or an animation's still).
                    let included = job
                        .outputs
                        .iter()
                        .find(|(format, _)| *format == Format::Pdf)
                        .or_else(|| {
                            job.outputs
                                .iter()
                                .find(|(format, _)| *format == Format::Png)
                        })
                        .map(|(_, path)| path)
                        .or(job.still.as_ref());
                    let size = included
                        .and_then(|path| std::fs::read(path).ok())
                        .and_then(|bytes| gallery::natural_size(&bytes));
                    Rendered {
                        entry,
                        size,
                        files: entry
                            .formats
                            .iter()
                            .map(|&f| gallery::file_name(entry, f))
                            .chain(gallery::still_name(entry))
                            .collect(),
                        command: job.planned.command_line().to_string(),
                    }
                })
                .collect();
            let ran: Vec<RenderedSurvey> = surveyed
                .iter()
                .filter(|(s, ..)| *s == set)
                .map(|(_, survey, files, command)| RenderedSurvey {
                    entry: &recipe.surveys[*survey],
                    files: files.clone(),
                    command: command.clone(),
                })
                .collect();
            let decided: Vec<gallery::ProvedEntry> = proved
                .iter()
                .filter(|(s, ..)| *s == set)
                .map(|(_, index, cases, command)| gallery::ProvedEntry {
                    entry: &recipe.proofs[*index],
                    verdicts: cases
                        .iter()
                        .map(|c| {
                            (
                                c.label.clone(),
                                c.summary.clone(),
                                c.folder
                                    .as_ref()
                                    .and_then(|f| {
                                        f.strip_prefix(args.output.join(&recipe.name)).ok()
                                    })
                                    .map(|f| f.display().to_string()),
                            )
                        })
                        .collect(),
                    command: command.clone(),
                })
                .collect();
            if rendered.is_empty() && ran.is_empty() && decided.is_empty() {
                continue;
            }
            let folder = args.output.join(&recipe.name);
            write_text(
                &folder.join("index.md"),
                &(gallery::index_md(recipe, &rendered)
                    + &gallery::surveys_md(recipe, &ran)
                    + &gallery::proofs_md(&decided)),
                ctx.output_limit,
            )?;
            if !rendered.is_empty() {
                write_text(
                    &folder.join("figures.tex"),
                    &gallery::figures_tex(
                        recipe,
                        &rendered,
                        args.columns
                            .and_then(recipe::Columns::from_count)
                            .or(recipe.columns)
                            .unwrap_or_default(),
                    ),
                    ctx.output_limit,
                )?;
            }
        }
    }

    // A figure with `time = true` (grundy's --time) reports which solver solved
    // its game and why no faster one applies, as `nimscape grundy --time` does.
    let timed: Vec<&Done> = results
        .iter()
        .filter(|done| done.error.is_none())
        .filter(|done| {
            let job = &jobs[done.job];
            recipes[job.set].figures[job.figure]
                .effective_params(args.quick)
                .iter()
                .any(|p| {
                    recipe::same_key(&p.key, "time") && p.value == recipe::ParamValue::Switch(true)
                })
        })
        .collect();
    if !timed.is_empty() {
        let mut out = out::stdout();
        for done in timed {
            let job = &jobs[done.job];
            if let Some(choice) = job.planned.solver(&ctx.control)? {
                report!(
                    out,
                    "{}: solver: {} ({})",
                    recipes[job.set].figures[job.figure].name,
                    choice.solver,
                    choice.why
                );
            }
        }
        out.finish()?;
    }

    if args.timings {
        let mut out = out::stdout();
        report!(out, "seconds\tfigure");
        for done in &results {
            let job = &jobs[done.job];
            report!(
                out,
                "{:.3}\t{}",
                done.elapsed.as_secs_f64(),
                recipes[job.set].figures[job.figure].name
            );
        }
        let total: Duration = results.iter().map(|d| d.elapsed).sum();
        report!(
            out,
            "{:.3}\ttotal of {} figures ({workers} threads)",
            total.as_secs_f64(),
            results.len(),
        );
        out.finish()?;
    }
    folders.keep();
    if !problems.is_empty() {
        return Err(report(problems));
    }
    if !ctx.quiet {
        let written: usize = results.iter().map(|d| d.written).sum();
        let mut out = std::io::stderr();
        let _ = writeln!(
            out,
            "rendered {written} files of {} figures into {} in {:.1} s",
            results.len(),
            args.output.display(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// All problems, each printed once: the first is the error, the rest go before it.
fn report(problems: Vec<String>) -> anyhow::Error {
    let mut problems = problems.into_iter();
    let first = problems.next().unwrap_or_default();
    for problem in problems {
        eprintln!("error: {problem}");
    }
    anyhow!("{first}")
}

/// Two recipes with the same set name would write the same files in a race.
fn check_set_names(recipes: &[Recipe]) -> Result<()> {
    let mut seen: std::collections::BTreeMap<&str, &Path> = Default::default();
    for recipe in recipes {
        if let Some(first) = seen.insert(&recipe.name, &recipe.path) {
            bail!(
                "{} and {} both name their set '{}', so both would write output/{}/; give one of them another `name`",
                first.display(),
                recipe.path.display(),
                recipe.name,
                recipe.name
            );
        }
    }
    Ok(())
}

/// Every `--only` name must be a figure or survey of these recipes.
fn check_only(recipes: &[Recipe], only: &[String]) -> Result<()> {
    let names: std::collections::BTreeSet<&str> = recipes
        .iter()
        .flat_map(|r| {
            r.figures
                .iter()
                .map(|f| f.name.as_str())
                .chain(r.surveys.iter().map(|s| s.name.as_str()))
                .chain(r.proofs.iter().map(|p| p.name.as_str()))
        })
        .collect();
    let unknown: Vec<&str> = only
        .iter()
        .map(String::as_str)
        .filter(|n| !names.contains(n))
        .collect();
    if !unknown.is_empty() {
        bail!(
            "--only {}: no figure or survey of these recipes has that name; they have {}",
            unknown.join(","),
            names.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    Ok(())
}

/// Runs one survey of a recipe and writes its reports into `folder` (the page's
/// figures beside it), through the request layer's one report writer; the
/// files written, relative to the folder.
fn run_survey(
    entry: &recipe::SurveyEntry,
    planned: &PlannedSurvey,
    folder: &Path,
    ctx: &Context,
) -> Result<Vec<String>, String> {
    let found = planned
        .plan
        .run(&ctx.control)
        .map_err(|e| Naming::Keys.message(&e))?;
    let mut files = Vec::new();
    for ext in &entry.formats {
        let path = folder.join(format!("{}.{ext}", entry.name));
        survey::report_files(
            &found,
            &path,
            &planned.command_line,
            ctx.memory_limit,
            &ctx.control,
            |file, bytes| {
                write_atomic(file, ctx.output_limit, |out| {
                    out.write_all(bytes).map_err(|source| nimscape::Error::Io {
                        path: file.to_path_buf(),
                        source,
                    })
                })
            },
        )
        .map_err(|e| format!("{}: {}", file_label(&path), Naming::Keys.message(&e)))?;
        files.push(file_label(&path));
    }
    Ok(files)
}

fn write_text(path: &Path, text: &str, output_limit: u64) -> Result<()> {
    write_atomic(path, output_limit, |out| {
        out.write_all(text.as_bytes())
            .map_err(|source| nimscape::Error::Io {
                path: path.to_path_buf(),
                source,
            })
    })?;
    Ok(())
}

/// Draws every figure in this process: each figure one job on a pool of
/// `workers` threads (the figures' own parallel work shares the same pool), every
/// format of a figure from one plan, so each model is computed once.
fn draw_in_process(
    jobs: &[Job],
    workers: usize,
    keep_going: bool,
    bar: &ProgressBar,
    ctx: &Context,
) -> Result<Vec<Done>> {
    let stop = AtomicBool::new(false);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers.max(1))
        .build()?;
    // The figures that take longest (3D views, animations) start first, so the
    // pool does not end waiting on one of them: the order figures are drawn in
    // never changes a byte.
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&index| std::cmp::Reverse(expected_work(&jobs[index])));
    let results = Mutex::new(Vec::with_capacity(jobs.len()));
    pool.scope_fifo(|scope| {
        for &index in &order {
            let (job, stop, results) = (&jobs[index], &stop, &results);
            scope.spawn_fifo(move |_| {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                let start = Instant::now();
                let mut written = 0;
                let mut error = None;
                let planned = &job.planned;
                // A figure's formats are drawn side by side (the PNG of a 3D view
                // need not wait for its PDF); the first failure in recipe order is
                // the one reported.
                let outcomes: Vec<nimscape::Result<()>> = job
                    .outputs
                    .par_iter()
                    .map(|(format, path)| {
                        let result = planned.save(*format, path, &ctx.control, ctx.output_limit);
                        bar.inc(1);
                        bar.set_message(file_label(path));
                        result
                    })
                    .collect();
                for ((_, path), outcome) in job.outputs.iter().zip(outcomes) {
                    match outcome {
                        Ok(()) => written += 1,
                        Err(e) => {
                            error = Some(format!(
                                "{}: {}",
                                file_label(path),
                                Naming::Keys.message(&e)
                            ));
                            break;
                        }
                    }
                }
                if let (None, Some(path)) = (&error, &job.still) {
                    match write_still(planned, path, bar, ctx) {
                        Ok(()) => written += 1,
                        Err(message) => error = Some(message),
                    }
                }
                if error.is_some() && !keep_going {
                    stop.store(true, Ordering::SeqCst);
                }
                results
                    .lock()
                    .expect("no job panics holding the lock")
                    .push(Done {
                        job: index,
                        elapsed: start.elapsed(),
                        error,
                        written,
                    });
            });
        }
    });
    let mut results = results.into_inner().expect("every job finished");
    results.sort_by_key(|d| d.job);
    Ok(results)
}

/// A rough rank of how long a figure takes, to start the long ones first: 3D views
/// and animations draw many pictures, data and 2D figures one.
fn expected_work(job: &Job) -> u8 {
    let model: Vec<&str> = job
        .planned
        .arguments()
        .iter()
        .map(String::as_str)
        .take(2)
        .collect();
    let animated = job.outputs.iter().any(|(format, _)| format.is_animation());
    match (model.as_slice(), animated) {
        (_, true) | (["octahedron", "sweep"], _) => 2,
        (["octahedron", "view"], _) => 2,
        (["grundy", ..], _) => 1,
        _ => 0,
    }
}

/// An animation's still for `figures.tex`; the error names the file.
fn write_still(
    planned: &Planned,
    path: &Path,
    bar: &ProgressBar,
    ctx: &Context,
) -> Result<(), String> {
    let result = planned.save_poster(path, &ctx.control, ctx.output_limit);
    bar.inc(1);
    bar.set_message(file_label(path));
    result.map_err(|e| format!("{}: {}", file_label(path), Naming::Keys.message(&e)))
}

fn file_label(path: &Path) -> String {
    path.file_name()
        .and_then(|f| f.to_str())
        .unwrap_or_default()
        .to_string()
}

/// Draws every file in child processes of this binary, `workers` at a time. Without
/// `keep_going`, the first failure stops new jobs from starting.
fn draw_isolated(
    jobs: &[Job],
    workers: usize,
    keep_going: bool,
    bar: &ProgressBar,
    ctx: &Context,
) -> Result<Vec<Done>> {
    let memory_limit = ctx.memory_limit;
    let exe = std::env::current_exe()?;
    let next = Mutex::new(0usize);
    let stop = AtomicBool::new(false);
    let results = Mutex::new(Vec::new());
    // Each child gets its share of the cores, so children x threads <= cores.
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    let threads = (cores / workers.max(1)).max(1);
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| loop {
                let index = {
                    let mut next = next.lock().expect("no worker panics holding the lock");
                    if *next >= jobs.len() || stop.load(Ordering::SeqCst) {
                        return;
                    }
                    *next += 1;
                    *next - 1
                };
                let job = &jobs[index];
                let start = Instant::now();
                let mut written = 0;
                let mut error = None;
                for (_, path) in &job.outputs {
                    let mut command = std::process::Command::new(&exe);
                    command
                        .arg(format!("--max-memory={memory_limit}"))
                        .arg(format!("--threads={threads}"))
                        .arg("--quiet")
                        .args(with_output(
                            job.planned.arguments(),
                            &path.to_string_lossy(),
                        ))
                        .stdin(std::process::Stdio::null())
                        .stdout(std::process::Stdio::piped())
                        .stderr(std::process::Stdio::piped());
                    // Registered, so a SIGINT / SIGTERM to render stops the child too.
                    let output = super::signals::spawn_child(&mut command)
                        .and_then(|(child, _registered)| child.wait_with_output());
                    bar.inc(1);
                    bar.set_message(file_label(path));
                    match output {
                        Ok(out) if out.status.success() => written += 1,
                        Ok(out) => {
                            error = Some(format!(
                                "{}: {}",
                                file_label(path),
                                String::from_utf8_lossy(&out.stderr)
                                    .lines()
                                    .map(|l| l.trim_start_matches("error: ").to_string())
                                    .collect::<Vec<_>>()
                                    .join("; ")
                            ));
                            break;
                        }
                        Err(e) => {
                            error = Some(format!("cannot run nimscape: {e}"));
                            break;
                        }
                    }
                }
                // The still is one frame, drawn here rather than in a child.
                if let (None, Some(path)) = (&error, &job.still) {
                    let planned = &job.planned;
                    let drawn = write_still(planned, path, bar, ctx);
                    match drawn {
                        Ok(()) => written += 1,
                        Err(message) => error = Some(message),
                    }
                }
                if error.is_some() && !keep_going {
                    stop.store(true, Ordering::SeqCst);
                }
                results
                    .lock()
                    .expect("no worker panics holding the lock")
                    .push(Done {
                        job: index,
                        elapsed: start.elapsed(),
                        error,
                        written,
                    });
            });
        }
    });
    let mut results = results.into_inner().expect("workers finished");
    results.sort_by_key(|d| d.job);
    Ok(results)
}

/// `words` with `-o path` before any `--` (after it, `-o` would be a value).
fn with_output(words: &[String], path: &str) -> Vec<String> {
    let at = words.iter().position(|w| w == "--").unwrap_or(words.len());
    let mut out = words[..at].to_vec();
    out.extend(["-o".to_string(), path.to_string()]);
    out.extend_from_slice(&words[at..]);
    out
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
