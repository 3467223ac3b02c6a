//! g(m) = |P(m,m)| as data or a chart.

use super::Figure;
use crate::library::encode::{self, Format, Metadata};
use crate::library::figure::plan::{Plan, Spec};
use crate::library::scene::chart::{count_chart, ChartLabels};
use crate::library::scene::units::PrintStyle;
use crate::pattern::count::g;
use crate::Control;
use crate::{Error, Result};
use std::io::Write;

/// Points a chart draws at most; longer ranges are sampled evenly.
pub const MAX_CHART_POINTS: usize = 20_000;

/// The count series g(m) for the chosen m, drawn as a chart or written as data.
#[derive(Debug, Clone, PartialEq)]
pub struct CountFigure {
    /// The m values, in the order asked.
    pub ms: Vec<u64>,
    /// Logarithmic axes on the chart.
    pub log: bool,
    /// Chart width in pixels.
    pub width: u32,
    /// Chart height in pixels.
    pub height: u32,
    /// Title, axis names, ticks and key.
    pub labels: ChartLabels,
    /// Resolution, paper size, typeface and text handling.
    pub print: PrintStyle,
    /// Refuse work whose estimated memory exceeds this many bytes.
    pub memory_limit: u64,
}

impl Default for CountFigure {
    fn default() -> Self {
        CountFigure {
            ms: Vec::new(),
            log: false,
            width: 900,
            height: 560,
            labels: ChartLabels::count(),
            print: PrintStyle::default(),
            memory_limit: crate::error::DEFAULT_MEMORY_LIMIT,
        }
    }
}

impl CountFigure {
    /// Every (m, g(m)), by the recurrence (instant for any m).
    pub fn rows(&self) -> impl Iterator<Item = (u64, u128)> + '_ {
        self.ms.iter().map(|&m| (m, g(m)))
    }

    /// The chart's points: every m, or an even sample of at most
    /// [`MAX_CHART_POINTS`] of them.
    fn chart_points(&self) -> Vec<(u64, u128)> {
        let stride = self.ms.len().div_ceil(MAX_CHART_POINTS).max(1);
        self.ms.iter().step_by(stride).map(|&m| (m, g(m))).collect()
    }

    /// Memory the list of m takes: the front end parsed it once and the plan holds
    /// it again (8 bytes a value, twice). Rows are written as they are computed, so
    /// data adds nothing to it; a chart adds its scene's (checked when drawn).
    fn list_bytes(&self) -> u64 {
        (self.ms.len() as u64).saturating_mul(16)
    }

    fn refuse_over_limit(&self, format: Format, bytes: u64) -> Result<()> {
        crate::error::check_memory(
            || {
                format!(
                    "g(m) for {} values of m as .{}",
                    self.ms.len(),
                    format.extension()
                )
            },
            bytes,
            self.memory_limit,
            "ask for fewer values of `m` (a range with a step, such as 1..10000000:1000)",
        )
    }
}

impl Spec for CountFigure {
    /// Nothing left to check: the request layer refuses an empty `m` (its one
    /// check, `args::required_m`), and every m from 1 has a g(m).
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

/// A validated g(m) figure (its values come from the recurrence, instantly).
pub type CountPlan = Plan<CountFigure>;

impl Figure for CountPlan {
    fn still_scene(
        &self,
        _control: &Control,
    ) -> Result<Option<std::sync::Arc<crate::library::scene::Scene>>> {
        let scene = count_chart(
            &self.chart_points(),
            self.log,
            self.width,
            self.height,
            &self.labels,
            self.print.print.dpi.is_some(),
        )?;
        Ok(Some(std::sync::Arc::new(self.print.apply(scene))))
    }

    fn formats(&self) -> Vec<Format> {
        vec![
            Format::Png,
            Format::Svg,
            Format::Csv,
            Format::Json,
            Format::Npy,
        ]
    }

    fn check(&self, format: Format) -> Result<()> {
        self.refuse_over_limit(format, self.list_bytes())?;
        if format == Format::Npy {
            if let Some(m) = self.ms.iter().find(|&&m| m >= 1 << 32) {
                return Err(Error::unsupported(format!(
                    "g({m}) may not fit the 64-bit integers of a .npy array (m must be below 2^32); write .csv or .json"
                )));
            }
        }
        if format.is_image() && self.ms.len() < 2 {
            return Err(Error::invalid_request(
                "a chart needs at least two values of m; give a range such as 1..64",
            ));
        }
        Ok(())
    }

    fn write_to(
        &self,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        match format {
            Format::Csv => encode::write_csv(
                out,
                &["m", "g"],
                self.rows().map(|(m, gm)| [m.to_string(), gm.to_string()]),
            )
            .map_err(Error::write_failed),
            // Rows (m, g(m)) as uint64: g(m) <= m^2 fits while m < 2^32 (checked).
            Format::Npy => {
                let mut write = || -> std::io::Result<()> {
                    encode::npy::write_header(out, "<u8", &[self.ms.len() as u64, 2])?;
                    // In blocks, so the rows are never all in memory at once.
                    let mut writer = encode::npy::LeWriter::new();
                    let mut block = Vec::with_capacity(2 * 4096);
                    for chunk in self.ms.chunks(4096) {
                        block.clear();
                        block.extend(
                            chunk
                                .iter()
                                .flat_map(|&m| [m, u64::try_from(g(m)).unwrap_or(u64::MAX)]),
                        );
                        writer.u64s(out, &block)?;
                    }
                    Ok(())
                };
                write().map_err(Error::write_failed)
            }
            Format::Json => {
                // Exact integers are JSON numbers everywhere (see the README's data formats).
                let mut write = || -> std::io::Result<()> {
                    out.write_all(b"[")?;
                    for (k, (m, gm)) in self.rows().enumerate() {
                        let comma = if k > 0 { "," } else { "" };
                        write!(out, "{comma}{{\"m\":{m},\"g\":{gm}}}")?;
                    }
                    out.write_all(b"]\n")
                };
                write().map_err(Error::write_failed)
            }
            _ => {
                let points = self.chart_points();
                let scene = self.print.apply(count_chart(
                    &points,
                    self.log,
                    self.width,
                    self.height,
                    &self.labels,
                    self.print.print.dpi.is_some(),
                )?);
                let drawing = encode::scene_peak_bytes(&scene, format);
                self.refuse_over_limit(format, self.list_bytes().saturating_add(drawing))?;
                encode::write_scene_to(out, format, &scene, metadata, u64::MAX, control)
            }
        }
    }

    fn default_stem(&self) -> String {
        match (self.ms.first(), self.ms.last()) {
            (Some(a), Some(b)) if self.ms.len() > 1 => format!("count-{a}-{b}"),
            (Some(a), _) => format!("count-{a}"),
            _ => "count".into(),
        }
    }
}
