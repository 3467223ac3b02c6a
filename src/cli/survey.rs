//! `nimscape survey` on the command line: plan through the request layer, run
//! under the command's control (Ctrl-C, progress), then write the reports `-o`
//! names (a Markdown page with its figures beside it, JSON, CSV), or a summary
//! on stdout.

use super::out::{self, report};
use super::output::{announce, make_parent, Context};
use super::progress::Watch;
use anyhow::{bail, Result};
use nimscape::encode::{self, Format};
use nimscape::figure::survey::{self as pages, SurveyReport};
use nimscape::request::survey::{self, SurveyArgs};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What one `-o` asks for.
enum Target {
    Page(PathBuf),
    Json(PathBuf),
    Csv(PathBuf),
}

/// Runs `nimscape survey`.
pub fn run(mut args: SurveyArgs, ctx: &Context) -> Result<()> {
    let outputs = std::mem::take(&mut args.output);
    let mut targets = Vec::new();
    for path in outputs {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default();
        targets.push(match ext.to_ascii_lowercase().as_str() {
            "md" => Target::Page(path),
            "json" => Target::Json(path),
            "csv" => Target::Csv(path),
            _ => bail!(
                "-o {}: a survey writes .md (a page with figures), .json or .csv",
                path.display()
            ),
        });
    }
    if targets.is_empty() && ctx.format.is_some() {
        bail!("--format does not apply to a survey's summary; write files with -o report.md, .json or .csv");
    }
    let plan = survey::plan(&args, ctx.memory_limit)?;
    for t in &targets {
        let (Target::Page(p) | Target::Json(p) | Target::Csv(p)) = t;
        if p.is_dir() {
            bail!("-o {}: is a folder; give a file name", p.display());
        }
    }
    let watch = Watch::start(
        &ctx.control,
        format!("survey of {}", plan.describe()),
        ctx.quiet,
    );
    let found = plan.run(&ctx.control)?;
    drop(watch);
    if targets.is_empty() {
        let mut stdout = out::stdout();
        report!(stdout, "{}", pages::text(&found).trim_end());
        return stdout.finish();
    }
    for target in &targets {
        match target {
            Target::Json(path) => {
                let text = format!("{:#}\n", pages::json(&found));
                write_text(path, &text, ctx)?;
            }
            Target::Csv(path) => write_text(path, &pages::csv(&found), ctx)?,
            Target::Page(path) => write_page(path, &found, ctx)?,
        }
    }
    Ok(())
}

/// Writes `text` to `path` atomically and says so.
fn write_text(path: &Path, text: &str, ctx: &Context) -> Result<()> {
    let folders = make_parent(path)?;
    encode::write_atomic(path, ctx.output_limit, |out| {
        out.write_all(text.as_bytes())
            .map_err(|e| nimscape::Error::write_failed(e).at(path))
    })?;
    folders.keep();
    announce(path, ctx);
    Ok(())
}

/// The figure of value `value` next to the page `page`: `report-k5.png`.
fn figure_path(page: &Path, parameter: &str, value: i64) -> PathBuf {
    let stem = page
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("survey");
    page.with_file_name(format!("{stem}-{parameter}{value}.png"))
}

/// The page and its figures.
fn write_page(path: &Path, found: &SurveyReport, ctx: &Context) -> Result<()> {
    let folders = make_parent(path)?;
    let mut names = Vec::with_capacity(found.values.len());
    for v in &found.values {
        ctx.control.check()?;
        let Some(scene) = pages::value_scene(v, &found.parameter)? else {
            names.push(None);
            continue;
        };
        let figure = figure_path(path, &found.parameter, v.value);
        encode::write_atomic(&figure, ctx.output_limit, |out| {
            encode::write_scene_to(out, Format::Png, &scene, &ctx.metadata(), ctx.memory_limit)
                .map_err(|e| e.at(&figure))
        })?;
        announce(&figure, ctx);
        names.push(figure.file_name().map(|n| n.to_string_lossy().into_owned()));
    }
    let page = pages::markdown(found, &names, &ctx.command_line);
    encode::write_atomic(path, ctx.output_limit, |out| {
        out.write_all(page.as_bytes())
            .map_err(|e| nimscape::Error::write_failed(e).at(path))
    })?;
    folders.keep();
    announce(path, ctx);
    Ok(())
}
