//! `nimscape survey` on the command line: plan through the request layer, run
//! under the command's control (Ctrl-C, progress), then write the reports `-o`
//! names (a Markdown page with its figures beside it, JSON, CSV), or a summary
//! on stdout.

use super::emit::announce;
use super::progress::Watch;
use super::report::{self, report};
use super::Context;
use anyhow::{bail, Result};
use nimscape::request::survey::{self, ReportKind, SurveyArgs, SurveyReport};
use nimscape::request::write_atomic;
use nimscape::request::NewFolders;
use std::io::Write;
use std::path::Path;

/// Runs `nimscape survey`.
pub fn run(mut args: SurveyArgs, ctx: &Context) -> Result<()> {
    let outputs = std::mem::take(&mut args.output);
    for path in &outputs {
        if ReportKind::of(path).is_err() {
            bail!(
                "-o {}: a survey writes .md (a page with figures), .json, .csv, .tex (a LaTeX table), or figures .png, .svg, .pdf, .tikz",
                path.display()
            );
        }
    }
    if outputs.is_empty() && ctx.format.is_some() {
        bail!("--format does not apply to a survey's summary; write files with -o report.md, .json, .csv or .tex");
    }
    let plan = survey::plan(&args, ctx.memory_limit)?;
    for p in &outputs {
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
    watch.finish();
    if outputs.is_empty() {
        let mut stdout = report::stdout();
        report!(stdout, "{}", survey::summary(&found).trim_end());
        return stdout.finish();
    }
    for path in &outputs {
        write_report(path, &found, ctx)?;
    }
    Ok(())
}

/// One report (a page with its figures beside it, JSON or CSV), each file
/// written atomically and announced.
fn write_report(path: &Path, found: &SurveyReport, ctx: &Context) -> Result<()> {
    let folders = NewFolders::make_parent(path)?;
    survey::report_files(
        found,
        path,
        &ctx.command_line,
        ctx.memory_limit,
        &ctx.control,
        |file, bytes| {
            write_atomic(file, ctx.output_limit, |out| {
                out.write_all(bytes)
                    .map_err(|e| nimscape::Error::write_failed(e).at(file))
            })?;
            announce(file, ctx);
            Ok(())
        },
    )?;
    folders.keep();
    Ok(())
}
