//! `nimscape count`: g(m) = |P(m,m)| as a table or chart, and `--check`.

use super::args;
use crate::library::figure::count::{CountFigure, CountPlan};
use crate::library::figure::plan::Plan;
use crate::library::scene::chart::ChartLabels;
use crate::library::scene::units::Length;
use crate::Result;
use clap::Args;
use std::path::PathBuf;

/// Rows a table may have: beyond this a table is no longer something to read.
const MAX_ROWS: u64 = 10_000_000;

/// g(m) by the recurrence g(2m) = 4 g(m), g(2m+1) = g(m) + g(m+1): instant for any m.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// Which m: one value (10^9 is fine), a range 1..64, or a list.
    #[arg(long, value_name = "M", value_parser = parse_counts)]
    pub m: Option<args::ValueList>,
    /// Output: a chart .png / .svg / .pdf / .tikz (LaTeX-native, also .pgf), or .csv (m,g) / .json / .npy (uint64 rows m, g) [default: a table on stdout]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Logarithmic axes on the chart.
    #[arg(long)]
    pub log: bool,
    /// Chart width: px, or 85mm, 3.35in, 240pt [default: 900 px].
    #[arg(long, value_name = "LEN", value_parser = args::parse_size)]
    width: Option<Length>,
    /// Chart height [default: 560 px, or 0.62 of a given --width].
    #[arg(long, value_name = "LEN", value_parser = args::parse_size)]
    height: Option<Length>,
    #[command(flatten)]
    labels: args::ChartLabelArgs,
    #[command(flatten)]
    print: args::PrintArgs,
    /// Also count P-cells directly for every m up to --check-up-to and check the
    /// recurrences and the sum identities of Okubo, Kashiwagi, Niida (Theorems 4.2, 4.3).
    #[arg(long)]
    pub check: bool,
    /// Bound of the direct count for --check.
    #[arg(long, value_name = "M", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    pub check_up_to: u64,
}

/// The board list's grammar, with up to a table's worth of values.
fn parse_counts(text: &str) -> Result<args::ValueList, String> {
    args::parse_list(text, 1, MAX_ROWS)
}

/// The chart or data the flags describe.
pub fn plan(args: CountArgs, memory_limit: u64) -> crate::Result<CountPlan> {
    let style = args.print.style(&[args.width, args.height], args.width);
    let width = match args.width {
        Some(w) => args::length_units("`width`", w, style.print, 150..=8000)?,
        None => 900,
    };
    let height = match (args.height, args.width) {
        (Some(h), _) => args::length_units("`height`", h, style.print, 100..=8000)?,
        (None, Some(_)) => (f64::from(width) * 0.62).round() as u32,
        (None, None) => 560,
    };
    let ms = args::required_m(args.m, " (e.g. `m` 1..64), unless you only `check`")?;
    let figure = CountFigure {
        ms,
        log: args.log,
        width,
        height,
        labels: args.labels.labels(ChartLabels::count()),
        print: style,
        memory_limit,
    };
    Plan::new(figure)
}
