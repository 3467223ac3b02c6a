//! Figure commands on the command line: plan through the request layer, write
//! where `-o` says, and print the reports (`--check`, `--compare-nim-sum`,
//! `--find-shift`, `--time`, `count`'s table) on stdout.

use super::emit;
use super::progress::Watch;
use super::report::{self, report};
use super::Context;
use anyhow::{bail, Result};
use nimscape::request::automaton::AutomatonArgs;
use nimscape::request::count::CountArgs;
use nimscape::request::grundy::{GrundyArgs, GrundyPlan};
use nimscape::request::{self, Budget, FigureCommand, Format, Planned};
use nimscape_model::games::check_shifts;
use nimscape_model::pattern::count::check;
use std::io::Write;

/// Runs one figure command.
pub fn run(command: FigureCommand, ctx: &Context) -> Result<()> {
    match command {
        FigureCommand::Square(mut args) => {
            let output = args.output.take();
            let figure = plan(FigureCommand::Square(args), ctx)?;
            emit::emit(&figure, output.as_deref(), ctx)?;
        }
        FigureCommand::Count(args) => run_count(args, ctx)?,
        FigureCommand::Automaton(args) => run_automaton(args, ctx)?,
        FigureCommand::Grundy(args) => run_grundy(args, ctx)?,
        FigureCommand::Octahedron(mut args) => {
            let output = args.take_output();
            let figure = plan(FigureCommand::Octahedron(args), ctx)?;
            emit::emit(&figure, output.as_deref(), ctx)?;
        }
    }
    Ok(())
}

/// The figure of `command` (its `-o` taken out), recording the context's command line.
fn plan(command: FigureCommand, ctx: &Context) -> Result<Planned> {
    let budget = Budget {
        memory_limit: ctx.memory_limit,
        output_limit: ctx.output_limit,
    };
    Ok(request::plan_parsed(
        command,
        ctx.command_line.clone(),
        &budget,
    )?)
}

fn run_automaton(mut args: AutomatonArgs, ctx: &Context) -> Result<()> {
    let output_path = args.output.take();
    let check = args.check;
    let figure = request::automaton::plan(args, ctx.memory_limit)?;
    if check {
        // With -o, --format is the figure's (for `-o -`); without, the report's.
        let json = match output_path {
            Some(_) => ctx.format == Some(Format::Json),
            None => report_format(ctx.format, "automaton --check")?,
        };
        // Frame n costs n^2 cells: 65536 frames take hours, so the check shows its
        // progress (in cells, for an honest ETA) like any long figure.
        let watch = Watch::start(&ctx.control, "automaton --check".to_string(), ctx.quiet);
        // A failed check is an error line alone, with no summary before it.
        let report = figure.check(&ctx.control)?;
        if report.mismatch.is_some() {
            anyhow::bail!("{report}");
        }
        watch.finish();
        let mut out = report::stdout();
        if json {
            let document = serde_json::json!({
                "frames": [1, report.last],
                "method": report.method,
                "cells": report.cells,
                "agree": true,
            });
            report!(out, "{document:#}");
        } else {
            report!(out, "{report}");
        }
        out.finish()?;
        if output_path.is_none() {
            return Ok(());
        }
    }
    let figure = figure.into_planned(ctx.command_line.clone());
    emit::emit(&figure, output_path.as_deref(), ctx)?;
    Ok(())
}

fn run_count(mut args: CountArgs, ctx: &Context) -> Result<()> {
    if args.m.is_none() && !args.check {
        anyhow::bail!("--m is required (e.g. --m 1..64), unless you only --check");
    }
    let check_report = args.check.then_some(args.check_up_to);
    // With --check the reports are one document: text, or JSON with --format json.
    let json = match check_report {
        Some(_) => report_format(ctx.format, "count --check")?,
        None => false,
    };
    // Only the chart has axes: a table (on stdout without -o) or data ignores --log.
    let is_chart = |format: Option<Format>| {
        matches!(
            format,
            Some(Format::Png | Format::Svg | Format::Pdf | Format::Tikz)
        )
    };
    let draws_a_chart = match args.output.as_deref() {
        Some(path) if path.as_os_str() != "-" => {
            path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                matches!(
                    e.to_ascii_lowercase().as_str(),
                    "png" | "svg" | "pdf" | "tikz" | "pgf"
                )
            })
        }
        _ => is_chart(ctx.format),
    };
    if args.log && !draws_a_chart {
        bail!("--log draws the chart on logarithmic axes, but a table or data has none; give -o count.png (or .svg, .pdf, .tikz) for the chart");
    }
    let mut table = None;
    if args.m.is_some() {
        let output = args.output.take();
        let figure = request::count::plan(args, ctx.memory_limit)?;
        let line = ctx.command_line.clone();
        match output {
            Some(path) => {
                emit::emit(&figure.into_planned(line), Some(&path), ctx)?;
            }
            // Without -o, --format says how the table goes to stdout (json, csv).
            None if ctx.format.is_some() && check_report.is_none() => {
                let stdout = std::path::Path::new("-");
                emit::emit(&figure.into_planned(line), Some(stdout), ctx)?;
            }
            None if json => {
                // The figure's own JSON: g(m) may pass 2^64, more than a serde_json number holds.
                let bytes = figure
                    .into_planned(line)
                    .render(Format::Json, &ctx.control)?;
                table = Some(String::from_utf8(bytes)?);
            }
            None => {
                // Without -o the table is a report: it goes to stdout.
                let mut out = report::stdout();
                report!(out, "m\tg(m)");
                for (m, gm) in figure.rows() {
                    report!(out, "{m}\t{gm}");
                }
                out.finish()?;
            }
        }
    }
    if let Some(check_up_to) = check_report {
        let lines = check(check_up_to, &ctx.control)?;
        let failed = lines.iter().any(|line| !line.holds);
        let mut out = report::stdout();
        if json {
            let checks: Vec<serde_json::Value> = lines
                .iter()
                .map(|line| {
                    serde_json::json!({
                        "claim": line.claim,
                        "range": line.range,
                        "holds": line.holds,
                    })
                })
                .collect();
            let checks = serde_json::to_string(&checks)?;
            match table {
                Some(table) => report!(out, "{{\"g\":{},\"checks\":{checks}}}", table.trim_end()),
                None => report!(out, "{{\"checks\":{checks}}}"),
            }
        } else {
            report!(out, "checked\trange\tresult");
            for line in &lines {
                report!(
                    out,
                    "{}\t{}\t{}",
                    line.claim,
                    line.range,
                    if line.holds { "holds" } else { "FAILS" }
                );
            }
        }
        out.finish()?;
        if failed {
            anyhow::bail!("a g(m) identity failed its check (see the table above)");
        }
    }
    Ok(())
}

fn run_grundy(mut args: GrundyArgs, ctx: &Context) -> Result<()> {
    let output_path = args.output.take();
    if request::grundy::is_sheet(&args)? {
        // Several values of a parameter or slice: a sheet, or an animation over them.
        let figure = plan(FigureCommand::Grundy(args), ctx)?;
        emit::emit(&figure, output_path.as_deref(), ctx)?;
        return Ok(());
    }
    // Reports go to stdout; a figure is written when -o is given or nothing else is asked.
    let reports = args.compare_nim_sum || args.find_shift.is_some() || args.time;
    let write_figure = output_path.is_some() || !reports;
    let plan = plan_checked(&args, output_path.as_deref(), write_figure, ctx)?;
    let figure = plan.spec();
    let shifts = request::grundy::shift_range(&args, &plan)?;
    // Reports need the solution first; a figure alone solves while it is written.
    if reports {
        let json = report_format(ctx.format, "grundy")?;
        if output_path.as_deref().is_some_and(|p| p.as_os_str() == "-") {
            bail!("the reports (--compare-nim-sum, --find-shift, --time) go to stdout: give -o a file for the figure");
        }
        let watch = Watch::start(
            &ctx.control,
            format!("solving {}", figure.game.name()),
            ctx.quiet,
        );
        let mut out = report::stdout();
        let start = std::time::Instant::now();
        let solution = plan.solution(&ctx.control)?;
        let seconds = start.elapsed().as_secs_f64();
        let bounds = solution.bounds();
        let described: Vec<String> = bounds.iter().map(|b| format!("0..{b}")).collect();
        let mut document = serde_json::json!({
            "game": figure.game.name(),
            "box": bounds,
        });
        if args.time {
            let choice = plan.solver_choice(&ctx.control)?;
            document["positions"] = solution.len().into();
            document["seconds"] = seconds.into();
            document["solver"] = choice.solver.clone().into();
            document["solver_why"] = choice.why.clone().into();
            if !json {
                report!(out, "solved {} positions in {seconds:.6} s", solution.len());
                report!(out, "solver: {} ({})", choice.solver, choice.why);
            }
        }
        if args.compare_nim_sum {
            let c = solution.compare_nim_sum(&ctx.control)?;
            let xor = figure.game.coordinate_names().join("^");
            document["compare_nim_sum"] = serde_json::json!({
                "nim_sum": xor,
                "positions": c.positions,
                "equal": c.equal,
                "different": c.different,
            });
            if !json {
                report!(out, "{}, box {}", figure.game.name(), described.join(" x "));
                report!(out, "positions\tgrundy = {xor}\tgrundy != {xor}");
                report!(out, "{}\t{}\t{}", c.positions, c.equal, c.different);
            }
        }
        if let (Some(range), Some(capped)) = (shifts, solution.as_capped()) {
            let checks = check_shifts(capped, range.clone(), &ctx.control)?;
            let exact: Vec<i64> = checks.iter().filter(|c| c.exact()).map(|c| c.h).collect();
            if json {
                let rows: Vec<serde_json::Value> = checks
                    .iter()
                    .map(|c| {
                        serde_json::json!({
                            "h": c.h,
                            "p_breaking": c.p_breaking,
                            "n_fitting": c.n_satisfying,
                            "exact": c.exact(),
                        })
                    })
                    .collect();
                document["find_shift"] = serde_json::json!({
                    "rule": "(x+h)^y^(z+h) = 0",
                    "from": range.start(),
                    "to": range.end(),
                    "shifts": rows,
                    "exact": exact,
                });
            } else {
                report!(
                    out,
                    "{}, box {}: is P exactly (x+h)^y^(z+h) = 0?",
                    figure.game.name(),
                    described.join(" x ")
                );
                report!(out, "h\tP breaking it\tN fitting it\texact");
                for c in &checks {
                    report!(
                        out,
                        "{}\t{}\t{}\t{}",
                        c.h,
                        c.p_breaking,
                        c.n_satisfying,
                        if c.exact() { "yes" } else { "no" }
                    );
                }
                if exact.is_empty() {
                    report!(
                        out,
                        "no h in {}..{} gives the P-positions exactly",
                        range.start(),
                        range.end()
                    );
                } else {
                    let exact: Vec<String> = exact.iter().map(i64::to_string).collect();
                    report!(out, "exact for h = {}", exact.join(", "));
                }
            }
        }
        if json {
            report!(out, "{document:#}");
        }
        out.finish()?;
        watch.finish();
    }
    if write_figure {
        let figure = plan.into_planned(ctx.command_line.clone());
        emit::emit(&figure, output_path.as_deref(), ctx)?;
    }
    Ok(())
}

/// Whether `command`'s report is JSON (`--format json`) rather than text (no
/// `--format`); any other format is refused: a report is no picture.
pub fn report_format(format: Option<Format>, command: &str) -> Result<bool> {
    match format {
        None => Ok(false),
        Some(Format::Json) => Ok(true),
        Some(other) => bail!(
            "{command} reports as text, or as JSON with --format json; not as {}",
            other.extension()
        ),
    }
}

/// The plan, with the output's format checked before the (possibly long) solve.
fn plan_checked(
    args: &GrundyArgs,
    output_path: Option<&std::path::Path>,
    write_figure: bool,
    ctx: &Context,
) -> Result<GrundyPlan> {
    let plan = request::grundy::plan(args, ctx.memory_limit)?;
    if write_figure {
        plan.check_output(output_path, ctx.format)?;
    }
    Ok(plan)
}
