//! `nimscape prove square --theorem NAME` on the command line: the theorem
//! list, or each theorem decided under the command's control, one line each,
//! and the certificates `-o` names (one folder per theorem with `all`).

use super::emit::announce;
use super::progress::Watch;
use super::report::{self, report};
use super::Context;
use anyhow::Result;
use nimscape::prove::engine::{Limits, Mona};
use nimscape::prove::{certificate, square};
use nimscape::request::prove_square::{TheoremCase, TheoremPlan};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Runs a `--theorem` plan.
pub fn run(plan: TheoremPlan, output: Option<&Path>, ctx: &Context) -> Result<()> {
    let mut stdout = report::stdout();
    let (cases, timeout) = match plan {
        TheoremPlan::List => {
            report!(stdout, "{}", square::list().trim_end());
            return stdout.finish();
        }
        TheoremPlan::Prove { cases, timeout } => (cases, timeout),
    };
    let engine = Mona::from_path()?;
    let limits = Limits {
        timeout,
        memory: ctx.memory_limit,
    };
    let several = cases.len() > 1;
    for case in &cases {
        let dir = output.map(|dir| {
            if several {
                dir.join(case.name())
            } else {
                dir.to_path_buf()
            }
        });
        let label = if several {
            format!("{}: ", case.name())
        } else {
            String::new()
        };
        let watch = Watch::start(
            &ctx.control,
            format!("proving {} of the square game", case.name()),
            ctx.quiet,
        );
        match case {
            TheoremCase::Game(game_case) => {
                let found = nimscape::prove::prove(
                    &game_case.game,
                    &game_case.claim,
                    &engine,
                    limits,
                    ctx.memory_limit,
                    &ctx.control,
                )?;
                drop(watch);
                report!(
                    stdout,
                    "{label}{} [Theorem 2.3 of {}]",
                    certificate::summary(&found),
                    square::PAPER
                );
                if let Some(dir) = &dir {
                    write_files(dir, ctx, &mut |write| {
                        certificate::write(dir, &found, &ctx.command_line, write)
                    })?;
                }
            }
            TheoremCase::Cells(theorem) => {
                let found =
                    square::prove(theorem, &engine, limits, ctx.memory_limit, &ctx.control)?;
                drop(watch);
                report!(stdout, "{label}{}", square::summary(&found));
                if let Some(dir) = &dir {
                    write_files(dir, ctx, &mut |write| {
                        square::write(dir, &found, &ctx.command_line, write)
                    })?;
                }
            }
        }
    }
    stdout.finish()
}

/// Writes one file of a certificate.
pub(super) type WriteFile<'a> = dyn FnMut(&Path, &str) -> nimscape::Result<()> + 'a;

/// A certificate's files (`files` calls its writer once per file), each
/// written atomically and announced; `prove`'s certificates too.
pub(super) fn write_files(
    dir: &Path,
    ctx: &Context,
    files: &mut dyn FnMut(&mut WriteFile<'_>) -> nimscape::Result<()>,
) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| nimscape::Error::write_failed(e).at(dir))?;
    let mut written: Vec<PathBuf> = Vec::new();
    files(&mut |path, text| {
        nimscape::prove::engine::write_text(path, text, ctx.output_limit)?;
        written.push(path.to_path_buf());
        Ok(())
    })?;
    for path in &written {
        announce(path, ctx);
    }
    let _ = std::io::stderr().flush();
    Ok(())
}
