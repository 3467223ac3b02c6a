//! Rendering recipes: every figure, survey and proof of a set of recipes drawn
//! into `<output>/<set name>/`, with the set's gallery (`index.md`) and LaTeX
//! snippets (`figures.tex`). Any front end calls [`render`]; the command line's
//! `render` only maps its flags onto [`RenderOptions`] and prints [`Progress`].
//!
//! A figure's parameters are its subcommand's flags, so each figure is checked
//! by the very command definition the command line uses, and by its own
//! validation, before anything is drawn. Then every figure is one job on one
//! rayon pool, in this process: its plan is made once and writes all of its
//! formats, so each model is computed once. Provenance is the plan's canonical
//! command line.

use super::file::{same_key, Columns, ParamValue, Recipe, SurveyEntry};
use super::gallery::{self, ProvedEntry, Rendered, RenderedSurvey};
use super::plan;
use crate::request::survey::{self, PlannedSurvey};
use crate::request::{write_atomic, Budget, Format, Naming, NewFolders, Planned};
use crate::{Control, Error, Result};
use nimscape_model::games::SolverChoice;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Draws one file in a process of its own: called with the figure's canonical
/// command-line words (`-o FILE` among them); the error is one line.
pub type Isolate<'a> = &'a (dyn Fn(&[String]) -> std::result::Result<(), String> + Sync);

/// How [`render`] draws a set of recipes.
#[derive(Clone)]
pub struct RenderOptions<'a> {
    /// Root folder: each set goes to `<output>/<set name>/` (updated, never emptied).
    pub output: PathBuf,
    /// Only these figures, surveys and proofs (by name); all when empty. A partial
    /// render writes no `index.md` or `figures.tex`.
    pub only: Vec<String>,
    /// Apply each entry's `quick` overrides (small sizes, for tests and previews).
    pub quick: bool,
    /// Draw what is fine even when other entries are wrong or fail.
    pub keep_going: bool,
    /// Figures drawn at once; the figures' own parallel work shares the same pool.
    pub workers: usize,
    /// The paper's layout, overriding every recipe's `columns`.
    pub columns: Option<Columns>,
    /// The layout's column width, overriding every recipe's `width`.
    pub width: Option<String>,
    /// Refuse work over this many bytes.
    pub memory_limit: u64,
    /// Refuse files larger than this.
    pub output_limit: u64,
    /// Draw each file through this instead of in this process (a figure that
    /// crashes cannot take the others down); animations' stills are drawn here.
    pub isolate: Option<Isolate<'a>>,
}

/// What [`render`] reports as it goes, to show progress.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Progress<'a> {
    /// Every entry is planned and checked: this many figure files will be written.
    Planned {
        /// Figure files to write (formats and animations' stills).
        files: usize,
    },
    /// One figure file is done (written, or failed: the report names failures).
    File(&'a Path),
    /// A `[[prove]]` entry decided one of its cases.
    Proved {
        /// The entry's name.
        name: &'a str,
        /// The case's label, when the entry has several.
        label: Option<&'a str>,
        /// The verdict in one line.
        summary: &'a str,
    },
}

/// What a [`render`] did.
#[derive(Debug, Default)]
pub struct RenderReport {
    /// Figure files written.
    pub written: usize,
    /// Each figure drawn or tried, in recipe order, with the time it took.
    pub timings: Vec<(String, Duration)>,
    /// The solver each figure with `time = true` used, and why.
    pub solvers: Vec<(String, SolverChoice)>,
    /// Everything that went wrong, one line each naming the recipe file, line and
    /// entry. Without `keep_going`, problems found while checking stop the render
    /// before anything is drawn.
    pub problems: Vec<String>,
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

/// A survey that ran: its set, its index, the files written and its command line.
type Surveyed = (usize, usize, Vec<String>, String);

/// Renders `recipes`: checks every entry first (nothing is drawn while any is
/// wrong, unless `keep_going`), draws the figures side by side, then runs the
/// surveys and the proofs, and writes each set's `index.md` and `figures.tex`.
///
/// Errors are bad input found before anything is written (two sets of one
/// name, an unknown `only` name), a stopped `control`, or a failed gallery
/// write; an entry that fails is one of the report's `problems`.
pub fn render(
    mut recipes: Vec<Recipe>,
    options: &RenderOptions,
    control: &Control,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<RenderReport> {
    // The layout asked for by the front end is every recipe's.
    for recipe in &mut recipes {
        if let Some(columns) = options.columns {
            // The recipe's width is its own layout's: another layout has its own
            // (85 mm columns, or `width`).
            if recipe.columns.unwrap_or_default() != columns {
                recipe.width = None;
            }
            recipe.columns = Some(columns);
        }
        if let Some(width) = &options.width {
            recipe.width = Some(width.clone());
        }
    }
    check_set_names(&recipes)?;
    check_only(&recipes, &options.only)?;
    let chosen = |name: &str| options.only.is_empty() || options.only.iter().any(|n| n == name);
    let mut report = RenderReport {
        problems: recipes
            .iter()
            .filter_map(|recipe| gallery::check_captions(recipe).err())
            .collect(),
        ..RenderReport::default()
    };
    let problems = &mut report.problems;
    let figures: Vec<(usize, usize)> = recipes
        .iter()
        .enumerate()
        .flat_map(|(set, recipe)| {
            (0..recipe.figures.len())
                .filter(|&figure| chosen(&recipe.figures[figure].name))
                .map(move |figure| (set, figure))
        })
        .collect();
    // The whole recipe, semantics included, is checked before anything is drawn: every
    // figure planned, side by side on the pool, the results kept in recipe order.
    let budget = Budget {
        memory_limit: options.memory_limit,
        ..Budget::default()
    };
    let mut proofs = Vec::new();
    for (set, recipe) in recipes.iter().enumerate() {
        for (index, entry) in recipe.proofs.iter().enumerate() {
            if !chosen(&entry.name) {
                continue;
            }
            match plan::plan_prove(recipe, entry, options.quick) {
                Ok(planned) => proofs.push((set, index, planned)),
                Err(message) => problems.push(message),
            }
        }
    }
    // The engine is looked for before anything is drawn, so a missing one costs no work.
    if let Some((set, index, _)) = proofs.first() {
        if let Err(error) = crate::prove::engine::Mona::from_path() {
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
    for (set, recipe) in recipes.iter().enumerate() {
        for (index, entry) in recipe.surveys.iter().enumerate() {
            if !chosen(&entry.name) {
                continue;
            }
            match plan::plan_survey(recipe, entry, options.quick, &budget) {
                Ok(planned) => surveys.push((set, index, planned)),
                Err(message) => problems.push(message),
            }
        }
    }
    let checked: Vec<_> = figures
        .par_iter()
        .map(|&(set, figure)| {
            let recipe = &recipes[set];
            plan::plan(recipe, &recipe.figures[figure], options.quick, &budget)
        })
        .collect();
    let mut jobs = Vec::new();
    for (&(set, figure), checked) in figures.iter().zip(checked) {
        let recipe = &recipes[set];
        let entry = &recipe.figures[figure];
        let folder = options.output.join(&recipe.name);
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
    if !problems.is_empty() && !options.keep_going {
        return Ok(report);
    }
    // Folders made here are removed again when the render stops or fails before
    // anything went into them: no empty set folders are left behind.
    let mut folders = NewFolders::none();
    for recipe in &recipes {
        let folder = options.output.join(&recipe.name);
        folders.add(NewFolders::make_parent(&folder.join("index.md"))?);
    }

    let files: usize = jobs
        .iter()
        .map(|j| j.outputs.len() + usize::from(j.still.is_some()))
        .sum();
    progress(Progress::Planned { files });
    let results = match options.isolate {
        Some(isolate) => draw_isolated(&jobs, isolate, options, control, progress),
        None => draw_in_process(&jobs, options, control, progress)?,
    };
    // A stopped render writes no gallery: the figures it finished stay, each whole.
    control.check()?;

    // Surveys after the figures: each runs its values in parallel on its own.
    let mut surveyed: Vec<Surveyed> = Vec::new();
    let figures_failed = results.iter().any(|d| d.error.is_some());
    if !figures_failed || options.keep_going {
        for (set, index, planned) in &surveys {
            let recipe = &recipes[*set];
            let entry = &recipe.surveys[*index];
            let folder = options.output.join(&recipe.name);
            match run_survey(entry, planned, &folder, options, control) {
                Ok(files) => {
                    surveyed.push((*set, *index, files, planned.command_line.clone()));
                }
                Err(error) => {
                    control.check()?;
                    problems.push(format!(
                        "{}:{}: survey '{}': {error}",
                        recipe.path.display(),
                        entry.line,
                        entry.name,
                    ));
                    if !options.keep_going {
                        break;
                    }
                }
            }
        }
    }

    // Proofs last: each is a run of the engine, its certificate a folder of the set.
    let mut proved = Vec::new();
    if problems.is_empty() || options.keep_going {
        for (set, index, planned) in &proofs {
            let recipe = &recipes[*set];
            let entry = &recipe.proofs[*index];
            let folder = options.output.join(&recipe.name).join(&entry.name);
            let decided = crate::request::prove::run(
                planned,
                Some(&folder),
                options.memory_limit,
                control,
                &mut |path, text| {
                    crate::prove::engine::write_text(path, text, options.output_limit)
                },
            );
            match decided {
                Ok(cases) => {
                    for case in &cases {
                        progress(Progress::Proved {
                            name: &entry.name,
                            label: case.label.as_deref(),
                            summary: &case.summary,
                        });
                    }
                    proved.push((*set, *index, cases, planned.command_line.clone()));
                }
                Err(error) => {
                    control.check()?;
                    problems.push(format!(
                        "{}:{}: prove '{}': {}",
                        recipe.path.display(),
                        entry.line,
                        entry.name,
                        Naming::Keys.message(&error),
                    ));
                    if !options.keep_going {
                        break;
                    }
                }
            }
        }
    }

    // Failures, one line each, naming the recipe line.
    let mut drawn = BTreeSet::new();
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

    if options.only.is_empty() {
        for (set, recipe) in recipes.iter().enumerate() {
            write_gallery(recipe, set, &jobs, &drawn, &surveyed, &proved, options)?;
        }
    }

    // A figure with `time = true` (grundy's --time) reports which solver solved
    // its game and why no faster one applies, as `nimscape grundy --time` does.
    for done in results.iter().filter(|done| done.error.is_none()) {
        let job = &jobs[done.job];
        let entry = &recipes[job.set].figures[job.figure];
        let timed = entry
            .effective_params(options.quick)
            .iter()
            .any(|p| same_key(&p.key, "time") && p.value == ParamValue::Switch(true));
        if timed {
            if let Some(choice) = job.planned.solver(control)? {
                report.solvers.push((entry.name.clone(), choice));
            }
        }
    }
    report.timings = results
        .iter()
        .map(|done| {
            let job = &jobs[done.job];
            let name = recipes[job.set].figures[job.figure].name.clone();
            (name, done.elapsed)
        })
        .collect();
    report.written = results.iter().map(|d| d.written).sum();
    folders.keep();
    Ok(report)
}

/// Writes one set's `index.md` and `figures.tex`, listing only what was drawn
/// (a stopped render links no missing file); a set with nothing drawn keeps its
/// old pages.
fn write_gallery(
    recipe: &Recipe,
    set: usize,
    jobs: &[Job],
    drawn: &BTreeSet<(usize, usize)>,
    surveyed: &[Surveyed],
    proved: &[(usize, usize, Vec<crate::request::prove::ProvedCase>, String)],
    options: &RenderOptions,
) -> Result<()> {
    let folder = options.output.join(&recipe.name);
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
    let decided: Vec<ProvedEntry> = proved
        .iter()
        .filter(|(s, ..)| *s == set)
        .map(|(_, index, cases, command)| ProvedEntry {
            entry: &recipe.proofs[*index],
            verdicts: cases
                .iter()
                .map(|c| {
                    (
                        c.label.clone(),
                        c.summary.clone(),
                        c.folder
                            .as_ref()
                            .and_then(|f| f.strip_prefix(&folder).ok())
                            .map(|f| f.display().to_string()),
                    )
                })
                .collect(),
            command: command.clone(),
        })
        .collect();
    if rendered.is_empty() && ran.is_empty() && decided.is_empty() {
        return Ok(());
    }
    let write_text = |path: &Path, text: &str| {
        crate::prove::engine::write_text(path, text, options.output_limit)
    };
    write_text(
        &folder.join("index.md"),
        &(gallery::index_md(recipe, &rendered)
            + &gallery::surveys_md(recipe, &ran)
            + &gallery::proofs_md(&decided)),
    )?;
    if !rendered.is_empty() {
        let columns = options.columns.or(recipe.columns).unwrap_or_default();
        write_text(
            &folder.join("figures.tex"),
            &gallery::figures_tex(recipe, &rendered, columns),
        )?;
    }
    Ok(())
}

/// Two recipes with the same set name would write the same files in a race.
fn check_set_names(recipes: &[Recipe]) -> Result<()> {
    let mut seen: BTreeMap<&str, &Path> = BTreeMap::new();
    for recipe in recipes {
        if let Some(first) = seen.insert(&recipe.name, &recipe.path) {
            return Err(Error::invalid_parameter(
                "name",
                format!(
                    "{} and {} both name their set '{}', so both would write output/{}/; give one of them another name = \"...\"",
                    first.display(),
                    recipe.path.display(),
                    recipe.name,
                    recipe.name
                ),
            ));
        }
    }
    Ok(())
}

/// Every `only` name must be a figure, survey or proof of these recipes.
fn check_only(recipes: &[Recipe], only: &[String]) -> Result<()> {
    let names: BTreeSet<&str> = recipes
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
        return Err(Error::invalid_parameter(
            "only",
            format!(
                "`only` {}: no figure or survey of these recipes has that name; they have {}",
                unknown.join(","),
                names.into_iter().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    Ok(())
}

/// Runs one survey of a recipe and writes its reports into `folder` (the page's
/// figures beside it), through the request layer's one report writer; the
/// files written, relative to the folder.
fn run_survey(
    entry: &SurveyEntry,
    planned: &PlannedSurvey,
    folder: &Path,
    options: &RenderOptions,
    control: &Control,
) -> std::result::Result<Vec<String>, String> {
    let found = planned
        .plan
        .run(control)
        .map_err(|e| Naming::Keys.message(&e))?;
    let mut files = Vec::new();
    for ext in &entry.formats {
        let path = folder.join(format!("{}.{ext}", entry.name));
        survey::report_files(
            &found,
            &path,
            &planned.command_line,
            options.memory_limit,
            control,
            |file, bytes| {
                write_atomic(file, options.output_limit, |out| {
                    out.write_all(bytes).map_err(|source| Error::Io {
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

/// Draws every figure in this process: each figure one job on a pool of
/// `workers` threads (the figures' own parallel work shares the same pool), every
/// format of a figure from one plan, so each model is computed once.
fn draw_in_process(
    jobs: &[Job],
    options: &RenderOptions,
    control: &Control,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<Done>> {
    let stop = AtomicBool::new(false);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.workers.max(1))
        .build()
        .map_err(|e| Error::Unsupported(format!("cannot start the figures' threads: {e}")))?;
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
                let outcomes: Vec<Result<()>> = job
                    .outputs
                    .par_iter()
                    .map(|(format, path)| {
                        let result = planned.save(*format, path, control, options.output_limit);
                        progress(Progress::File(path));
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
                    match write_still(planned, path, options, control, progress) {
                        Ok(()) => written += 1,
                        Err(message) => error = Some(message),
                    }
                }
                if error.is_some() && !options.keep_going {
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
    options: &RenderOptions,
    control: &Control,
    progress: &(dyn Fn(Progress) + Sync),
) -> std::result::Result<(), String> {
    let result = planned.save_poster(path, control, options.output_limit);
    progress(Progress::File(path));
    result.map_err(|e| format!("{}: {}", file_label(path), Naming::Keys.message(&e)))
}

fn file_label(path: &Path) -> String {
    path.file_name()
        .and_then(|f| f.to_str())
        .unwrap_or_default()
        .to_string()
}

/// Draws every file through `isolate`, `workers` at a time. Without
/// `keep_going`, the first failure stops new jobs from starting.
fn draw_isolated(
    jobs: &[Job],
    isolate: Isolate,
    options: &RenderOptions,
    control: &Control,
    progress: &(dyn Fn(Progress) + Sync),
) -> Vec<Done> {
    let next = Mutex::new(0usize);
    let stop = AtomicBool::new(false);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..options.workers.max(1) {
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
                    let words = with_output(job.planned.arguments(), &path.to_string_lossy());
                    let drawn = isolate(&words);
                    progress(Progress::File(path));
                    match drawn {
                        Ok(()) => written += 1,
                        Err(message) => {
                            error = Some(format!("{}: {message}", file_label(path)));
                            break;
                        }
                    }
                }
                // The still is one frame, drawn here rather than in a child.
                if let (None, Some(path)) = (&error, &job.still) {
                    match write_still(&job.planned, path, options, control, progress) {
                        Ok(()) => written += 1,
                        Err(message) => error = Some(message),
                    }
                }
                if error.is_some() && !options.keep_going {
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
    results
}

/// `words` with `-o path` before any `--` (after it, `-o` would be a value).
fn with_output(words: &[String], path: &str) -> Vec<String> {
    let at = words.iter().position(|w| w == "--").unwrap_or(words.len());
    let mut out = words[..at].to_vec();
    out.extend(["-o".to_string(), path.to_string()]);
    out.extend_from_slice(&words[at..]);
    out
}
