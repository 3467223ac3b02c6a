//! `nimscape verify`: the papers' computational claims, re-checked.

use super::out::{self, report};
use anyhow::Result;
use clap::Args;
use nimscape::verify::{self, Standing};
use std::io::Write;

/// Re-check the papers' claims: a table of claim, range, result and time.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// How far to check: boards, frames and boxes grow with it (each claim caps its own range).
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(2..=4096))]
    up_to: u64,
    /// Test hook: add a claim that is false on purpose, to see verify fail.
    #[arg(long, hide = true)]
    inject_false_claim: bool,
}

pub fn run(args: VerifyArgs, memory_limit: u64) -> Result<()> {
    let mut claims = verify::claims();
    if args.inject_false_claim {
        claims.push(verify::deliberately_false_claim());
    }
    let outcomes = verify::run(&claims, args.up_to, memory_limit)?;
    // Columns are padded by characters, as `{:<w$}` pads: the sources' en dashes
    // are three bytes but one column.
    let widest = |text: fn(&verify::Outcome) -> &str, least: usize| {
        outcomes
            .iter()
            .map(|o| text(o).chars().count())
            .max()
            .unwrap_or(least)
    };
    let width = widest(|o| &o.claim, 5);
    let source_width = widest(|o| o.source, 6);
    let range_width = widest(|o| &o.range, 5);
    let mut out = out::stdout();
    report!(
        out,
        "{:<width$}  {:<source_width$}  {:<range_width$}  {:<22}  time",
        "claim",
        "source",
        "checked on",
        "result"
    );
    for o in &outcomes {
        let result = match (o.standing, o.holds) {
            (Standing::Proven, true) => "holds",
            (Standing::Proven, false) => "FAILS",
            (Standing::Conjecture, true) => "holds (conjecture)",
            (Standing::Conjecture, false) => "does not hold (conj.)",
        };
        report!(
            out,
            "{:<width$}  {:<source_width$}  {:<range_width$}  {:<22}  {:.3} s",
            o.claim,
            o.source,
            o.range,
            result,
            o.elapsed.as_secs_f64()
        );
    }
    out.finish()?;
    let failed: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.is_failure())
        .map(|o| o.source)
        .collect();
    if !failed.is_empty() {
        anyhow::bail!(
            "{} proven claim(s) failed: {}",
            failed.len(),
            failed.join(", ")
        );
    }
    Ok(())
}
