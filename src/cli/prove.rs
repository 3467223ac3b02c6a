//! `nimscape prove` on the command line: plan through the request layer, find
//! the engine, decide each case under the command's control (Ctrl-C kills the
//! engine), print one line per case and write the certificates `-o` names.

use super::progress::Watch;
use super::report::{self, report};
use super::Context;
use anyhow::{bail, Result};
use nimscape::prove::engine::{Limits, Mona};
use nimscape::prove::{certificate, ProofReport};
use nimscape::request::prove::{self, ProveArgs};
use std::io::Write;
use std::path::Path;

/// Runs `nimscape prove`.
pub fn run(mut args: ProveArgs, ctx: &Context) -> Result<()> {
    let output = args.output.take();
    if ctx.format.is_some() {
        bail!("--format does not apply to prove; -o DIR writes the report as Markdown, JSON and LaTeX");
    }
    if let Some(dir) = &output {
        if dir.exists() && !dir.is_dir() {
            bail!(
                "-o {}: is a file; give a folder for the certificate",
                dir.display()
            );
        }
    }
    if let Some(plan) = nimscape::request::prove_square::plan(&args)? {
        return super::prove_square::run(plan, output.as_deref(), ctx);
    }
    let plan = prove::plan(&args)?;
    let engine = Mona::from_path()?;
    let limits = Limits {
        timeout: plan.timeout,
        memory: ctx.memory_limit,
    };
    let several = plan.cases.len() > 1;
    let mut stdout = report::stdout();
    for case in &plan.cases {
        let label = case
            .parameter
            .as_ref()
            .map(|(n, v)| format!("{n}={v}: "))
            .unwrap_or_default();
        let watch = Watch::start(
            &ctx.control,
            format!("proving {} on {}", case.claim.text, case.game.name()),
            ctx.quiet,
        );
        let found = nimscape::prove::prove(
            &case.game,
            &case.claim,
            &engine,
            limits,
            ctx.memory_limit,
            &ctx.control,
        )?;
        drop(watch);
        report!(stdout, "{label}{}", certificate::summary(&found));
        if let Some(dir) = &output {
            let dir = match (&case.parameter, several) {
                (Some((n, v)), true) => dir.join(format!("{n}{v}")),
                _ => dir.clone(),
            };
            write_certificate(&dir, &found, ctx)?;
        }
    }
    stdout.finish()
}

/// The certificate's files, each written atomically and announced.
fn write_certificate(dir: &Path, found: &ProofReport, ctx: &Context) -> Result<()> {
    super::prove_square::write_files(dir, ctx, &mut |write| {
        certificate::write(dir, found, &ctx.command_line, write)
    })
}
