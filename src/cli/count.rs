//! `nimscape count`: g(m) = |P(m,m)| as a table or chart, and `--check`.

use super::args;
use super::out::{self, report};
use super::output::{self, Context};
use crate::figure::count::CountFigure;
use crate::pattern::count::check;
use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Rows a table may have: beyond this a table is no longer something to read.
const MAX_ROWS: u64 = 10_000_000;

/// g(m) by the recurrence g(2m) = 4 g(m), g(2m+1) = g(m) + g(m+1): instant for any m.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// Which m: one value (10^9 is fine), a range 1..64, or a list.
    #[arg(long, value_name = "M", value_parser = parse_counts)]
    m: Option<args::ValueList>,
    /// Output: a chart .png / .svg / .pdf, or .csv (m,g) / .json / .npy (uint64 rows m, g) [default: a table on stdout]
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Logarithmic axes on the chart.
    #[arg(long)]
    log: bool,
    /// Chart width in pixels.
    #[arg(long, value_name = "PX", default_value_t = 900, value_parser = clap::value_parser!(u32).range(200..=8000))]
    width: u32,
    /// Chart height in pixels.
    #[arg(long, value_name = "PX", default_value_t = 560, value_parser = clap::value_parser!(u32).range(150..=8000))]
    height: u32,
    /// Also count P-cells directly for every m up to --check-up-to and check the
    /// recurrences and the sum identities of seed 003 (Theorems 4.2, 4.3).
    #[arg(long)]
    check: bool,
    /// Bound of the direct count for --check.
    #[arg(long, value_name = "M", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    check_up_to: u64,
}

/// The board list's grammar, with up to a table's worth of values.
fn parse_counts(text: &str) -> Result<args::ValueList, String> {
    args::parse_list(text, 1, MAX_ROWS)
}

/// The chart or data the flags describe.
pub fn plan(args: CountArgs) -> crate::Result<CountFigure> {
    let figure = CountFigure {
        ms: args.m.map(|list| list.0).unwrap_or_default(),
        log: args.log,
        width: args.width,
        height: args.height,
    };
    if figure.ms.is_empty() {
        return Err(crate::Error::invalid(
            "--m is required (e.g. --m 1..64), unless you only --check",
        ));
    }
    Ok(figure)
}

pub fn run(mut args: CountArgs, ctx: &Context) -> Result<()> {
    if args.m.is_none() && !args.check {
        anyhow::bail!("--m is required (e.g. --m 1..64), unless you only --check");
    }
    let check_report = args.check.then_some(args.check_up_to);
    if args.m.is_some() {
        let output = args.output.take();
        let figure = plan(args)?;
        match output {
            Some(path) => {
                output::emit(&figure, Some(&path), ctx)?;
            }
            None => {
                // Without -o the table is a report: it goes to stdout.
                let mut out = out::stdout();
                report!(out, "m\tg(m)");
                for (m, gm) in figure.rows() {
                    report!(out, "{m}\t{gm}");
                }
                out.finish()?;
            }
        }
    }
    if let Some(check_up_to) = check_report {
        let mut failed = false;
        let mut out = out::stdout();
        report!(out, "checked\trange\tresult");
        for line in check(check_up_to) {
            report!(
                out,
                "{}\t{}\t{}",
                line.claim,
                line.range,
                if line.holds { "holds" } else { "FAILS" }
            );
            failed |= !line.holds;
        }
        out.finish()?;
        if failed {
            anyhow::bail!("a g(m) identity failed its check (see the table above)");
        }
    }
    Ok(())
}
