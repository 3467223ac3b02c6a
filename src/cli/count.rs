//! `nimscape count`: g(m) = |P(m,m)| as a table or chart, and `--check`.

use super::args;
use crate::encode::{self, io_error, Format, Metadata};
use crate::pattern::count::{check, g};
use crate::scene::chart::{count_chart, ChartLabels};
use crate::scene::units::Length;
use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Rows a table may have: beyond this a table is no longer something to read.
const MAX_ROWS: usize = 10_000_000;
/// Points a chart draws at most; longer ranges are sampled evenly.
const MAX_CHART_POINTS: usize = 20_000;

/// g(m) by the recurrence g(2m) = 4 g(m), g(2m+1) = g(m) + g(m+1): instant for any m.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// Which m: one value (10^9 is fine), a range 1..64, or a list.
    #[arg(long, value_name = "M", value_parser = parse_counts)]
    m: Option<args::ValueList>,
    /// Output: a chart .png / .svg / .pdf, or .csv (m,g) / .json [default: a table on stdout]
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Logarithmic axes on the chart.
    #[arg(long)]
    log: bool,
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
    /// recurrences and the sum identities of seed 003 (Theorems 4.2, 4.3).
    #[arg(long)]
    check: bool,
    /// Bound of the direct count for --check.
    #[arg(long, value_name = "M", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    check_up_to: u64,
}

/// Like the board list, but ranges may be long (up to the table limit).
fn parse_counts(text: &str) -> Result<args::ValueList, String> {
    let mut values = Vec::new();
    for part in text.split(',').map(str::trim) {
        let number = |s: &str| -> Result<u64, String> {
            match s.trim().trim_start_matches('=').parse::<u64>() {
                Ok(0) => Err("m starts at 1, not 0".into()),
                Ok(v) => Ok(v),
                Err(_) => Err(format!(
                    "'{s}' is not a whole number; write e.g. 100, 1..64 or 1000000000"
                )),
            }
        };
        if let Some((a, b)) = part.split_once("..") {
            let (a, b) = (number(a)?, number(b)?);
            if a > b {
                return Err(format!(
                    "'{part}' is an empty range; write the smaller end first, e.g. {b}..{a}"
                ));
            }
            if b - a >= MAX_ROWS as u64 {
                return Err(format!(
                    "'{part}' has {} values; at most {MAX_ROWS} rows at once",
                    b - a + 1
                ));
            }
            values.extend(a..=b);
        } else {
            values.push(number(part)?);
        }
    }
    Ok(args::ValueList(values))
}

pub fn run(args: CountArgs) -> Result<()> {
    if args.m.is_none() && !args.check {
        anyhow::bail!("--m is required (e.g. --m 1..64), unless you only --check");
    }
    let ms = args.m.map(|list| list.0).unwrap_or_default();
    let rows: Vec<(u64, u128)> = ms.iter().map(|&m| (m, g(m))).collect();

    match &args.output {
        None => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            if !rows.is_empty() {
                writeln!(out, "m\tg(m)")?;
                for (m, gm) in &rows {
                    writeln!(out, "{m}\t{gm}")?;
                }
            }
            out.flush()?;
        }
        Some(path) => {
            let format =
                Format::of_path(path, &[Format::Png, Format::Svg, Format::Csv, Format::Json])?;
            encode::check_output_path(path)?;
            match format {
                Format::Csv => encode::write_atomic(path, |out| {
                    encode::write_csv(
                        out,
                        &["m", "g"],
                        rows.iter().map(|(m, gm)| [m.to_string(), gm.to_string()]),
                    )
                    .map_err(io_error(path))
                })?,
                Format::Json => encode::write_atomic(path, |out| {
                    let list: Vec<serde_json::Value> = rows
                        .iter()
                        .map(|(m, gm)| serde_json::json!({ "m": m, "g": gm.to_string() }))
                        .collect();
                    serde_json::to_writer(&mut *out, &list)
                        .map_err(|e| io_error(path)(e.into()))?;
                    writeln!(out).map_err(io_error(path))
                })?,
                _ => {
                    if rows.len() < 2 {
                        anyhow::bail!("a chart needs at least two values of m; give a range such as --m 1..64");
                    }
                    let stride = rows.len().div_ceil(MAX_CHART_POINTS);
                    let points: Vec<(u64, u128)> = rows.iter().step_by(stride).copied().collect();
                    let style = args.print.style(&[args.width, args.height], args.width);
                    let print = style.print;
                    let width = match args.width {
                        Some(w) => args::length_units("--width", w, print, 150..=8000)?,
                        None => 900,
                    };
                    let height = match (args.height, args.width) {
                        (Some(h), _) => args::length_units("--height", h, print, 100..=8000)?,
                        (None, Some(_)) => (f64::from(width) * 0.62).round() as u32,
                        (None, None) => 560,
                    };
                    let labels = args.labels.labels(ChartLabels::count());
                    let scene =
                        style.apply(count_chart(&points, args.log, width, height, &labels)?);
                    let metadata: Metadata = args::metadata();
                    encode::write_scene(path, &scene, &metadata, u64::MAX)?;
                }
            }
        }
    }

    if args.check {
        let mut failed = false;
        println!("checked\trange\tresult");
        for line in check(args.check_up_to) {
            println!(
                "{}\t{}\t{}",
                line.claim,
                line.range,
                if line.holds { "holds" } else { "FAILS" }
            );
            failed |= !line.holds;
        }
        if failed {
            anyhow::bail!("a g(m) identity failed its check (see the table above)");
        }
    }
    Ok(())
}
