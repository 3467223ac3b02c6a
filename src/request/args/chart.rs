//! The words of charts and plots: title, axis names, ticks and key.

use super::captions::{parse_caption, parse_caption_size};
use crate::library::scene::units::{self, Length, Print};
use clap::Args;

/// The words of a chart or plot: title, axis names, tick numbers and key, each
/// settable or removable.
#[derive(Debug, Clone, Args)]
pub struct ChartLabelArgs {
    /// Leave out the title.
    #[arg(long, visible_alias = "no-title")]
    pub no_caption: bool,
    /// The title instead of the default ($...$ for math: $R(m,m)$, $S_4$).
    #[arg(long, value_name = "TEXT", conflicts_with = "no_caption", value_parser = parse_caption)]
    pub caption: Option<String>,
    /// Title size in pt (px without a physical size) [default: scaled to the figure].
    #[arg(long, value_name = "PT", value_parser = parse_caption_size)]
    pub caption_size: Option<f64>,
    /// Size of tick numbers, axis names and key, e.g. 8pt [default: scaled, at least 7].
    #[arg(long, value_name = "PT", value_parser = units::parse_font_size)]
    pub font_size: Option<Length>,
    /// Leave out the axis names.
    #[arg(long)]
    pub no_axis_names: bool,
    /// Axis names instead of the defaults, comma-separated: --axis-names "m,g(m)".
    #[arg(long, value_name = "X,Y[,Z]", conflicts_with = "no_axis_names")]
    pub axis_names: Option<String>,
    /// Leave out the numbers at the ticks.
    #[arg(long)]
    pub no_ticks: bool,
    /// Leave out the key (legend or colour bar).
    #[arg(long)]
    pub no_key: bool,
}

impl ChartLabelArgs {
    /// `defaults` with the flags given applied.
    pub fn labels(
        &self,
        defaults: crate::library::scene::chart::ChartLabels,
    ) -> crate::library::scene::chart::ChartLabels {
        let mut labels = defaults;
        if self.no_caption {
            labels.caption = None;
        } else if let Some(caption) = &self.caption {
            labels.caption = Some(caption.clone());
        }
        labels.caption_size = self.caption_size.or(labels.caption_size);
        if let Some(size) = self.font_size {
            labels.font_size = Some(size.points(Print::default()));
        }
        if self.no_axis_names {
            labels.axis_names = None;
        } else if let Some(names) = &self.axis_names {
            labels.axis_names = Some(names.split(',').map(|p| p.trim().to_string()).collect());
        }
        labels.ticks &= !self.no_ticks;
        labels.key &= !self.no_key;
        labels
    }
}
