//! Parsers and option groups shared by subcommands.

use crate::encode::animation::Animation;
use crate::encode::gif::Repeat;
use crate::scene::board::{BoardStyle, GridLines, PanelSize};
use crate::scene::layout::SheetLayout;
use crate::scene::Color;
use clap::{Args, ValueEnum};

/// A list of values given as `11`, `1..24`, `1..64:2` or `3,5,11` (a newtype, so
/// clap treats the whole list as one value). Every command reads its lists the
/// same way: a list is a set, sorted ascending, each value once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueList(pub Vec<u64>);

/// Parses a list: whole numbers, ranges `a..b` (or `a..=b`, both ends included),
/// ranges with a step `a..b:s`, and comma lists of those. Values below `min` are
/// refused, and so is a list of more than `limit` values, counted before any is
/// made. The result is sorted, without repeats.
pub fn parse_list(text: &str, min: u64, limit: u64) -> Result<ValueList, String> {
    let number = |s: &str| -> Result<u64, String> {
        let s = s.trim();
        let value: u64 = s.parse().map_err(|_| {
            format!("'{s}' is not a whole number; write e.g. 11, 1..24, 1..64:2 or 3,5,11")
        })?;
        if value < min {
            return Err(format!("values start at {min}; got {value}"));
        }
        Ok(value)
    };
    let mut parts = Vec::new();
    let mut count: u64 = 0;
    for part in text.split(',').map(str::trim) {
        let (range, step) = match part.split_once(':') {
            Some((range, step)) => {
                let step: u64 = step.trim().parse().ok().filter(|&s| s > 0).ok_or_else(|| {
                    format!(
                        "'{part}': the step after ':' must be a whole number from 1, as in 1..64:2"
                    )
                })?;
                (range, step)
            }
            None => (part, 1),
        };
        let (a, b) = match range.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.trim_start_matches('='))?),
            None if step == 1 => {
                let v = number(range)?;
                (v, v)
            }
            None => {
                return Err(format!(
                    "'{part}': a step belongs to a range, as in 1..64:2"
                ))
            }
        };
        if a > b {
            return Err(format!(
                "'{part}' is an empty range; write the smaller end first, e.g. {b}..{a}"
            ));
        }
        count = count.saturating_add((b - a) / step + 1);
        if count > limit {
            return Err(format!(
                "'{}' names more than {limit} values; ask for fewer",
                shorten(text)
            ));
        }
        parts.push((a, b, step));
    }
    let mut values = Vec::with_capacity(count as usize);
    for (a, b, step) in parts {
        values.extend((a..=b).step_by(step as usize));
    }
    values.sort_unstable();
    values.dedup();
    Ok(ValueList(values))
}

/// Board sides: from 1, at most 4096 boards at once.
pub fn parse_m_list(text: &str) -> Result<ValueList, String> {
    parse_list(text, 1, 4096)
}

/// Parses one board side (no ranges).
pub fn parse_side(text: &str) -> Result<u64, String> {
    if text.contains("..") || text.contains(',') {
        return Err("takes one number, the columns of every board; ranges go in --m".into());
    }
    match text.trim().parse::<u64>() {
        Ok(0) => Err("board sides start at 1, not 0".into()),
        Ok(v) => Ok(v),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

/// The largest size a byte-count flag takes: 1024 TiB.
pub const MAX_BYTES: u64 = 1 << 50;

/// Parses a byte count with an optional K/M/G/T suffix (powers of 1024).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim().to_ascii_uppercase();
    let t = t.trim_end_matches("IB").trim_end_matches('B');
    let (digits, shift) = match t.chars().last() {
        Some('K') => (&t[..t.len() - 1], 10),
        Some('M') => (&t[..t.len() - 1], 20),
        Some('G') => (&t[..t.len() - 1], 30),
        Some('T') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let value: f64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a size; write e.g. 512M or 4G"))?;
    if !(value > 0.0 && value.is_finite()) {
        return Err(format!("'{text}' must be a positive size"));
    }
    let bytes = value * (1u64 << shift) as f64;
    // Past this a size is no longer a limit (and would saturate to "unlimited").
    if bytes > MAX_BYTES as f64 {
        return Err(format!("'{text}' is more than the largest size, 1024T"));
    }
    Ok(bytes as u64)
}

/// Parses a caption size in pixels: any number from 4 to 200 (12.5 is fine).
pub fn parse_caption_size(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(size) if (4.0..=200.0).contains(&size) => Ok(size),
        Ok(_) => Err("must be between 4 and 200 px".into()),
        Err(_) => Err(format!("'{text}' is not a number of pixels")),
    }
}

/// The largest margin or gap, pixels: beyond it the figure is nearly all blank, and
/// sizes computed from it could overflow.
pub const MAX_SPACING: u32 = 4096;

/// The text itself if short, else its start: an error line stays one readable line
/// (a 200,000-value list once made a 700 KB message).
fn shorten(text: &str) -> String {
    if text.chars().count() <= 60 {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(60).collect::<String>())
    }
}

/// When to draw grid lines.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum GridArg {
    /// Only where every board's cells are at least 6 px.
    Auto,
    /// Always.
    On,
    /// Never.
    Off,
}

/// Colours, sizes and spacing of board figures.
#[derive(Debug, Clone, Args)]
pub struct BoardStyleArgs {
    /// Pixels per cell (default: about 640 px per board alone, sheets use --panel).
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub cell: Option<u32>,
    /// Pixels along each board of a sheet: every board drawn the same size, as (1/m)·R(m,m).
    #[arg(long, value_name = "PX", conflicts_with_all = ["cell", "width"], value_parser = clap::value_parser!(u32).range(4..=16384))]
    pub panel: Option<u32>,
    /// Total width of a sheet in pixels; the panel size follows.
    #[arg(long, value_name = "PX", conflicts_with = "cell", value_parser = clap::value_parser!(u32).range(16..=65535))]
    pub width: Option<u32>,
    /// Panels per row of a sheet (default: a grid about 3:2 wide, 6 for 24 panels).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub columns: Option<u16>,
    /// Colour of P cells (#rrggbb or a CSS name; default Okabe–Ito blue, colour-blind safe).
    #[arg(long, value_name = "COLOR", default_value = "#0072b2")]
    pub p_color: String,
    /// Colour of the other cells.
    #[arg(long, value_name = "COLOR", default_value = "white")]
    pub other_color: String,
    /// Colour around and between panels (`none` for transparent).
    #[arg(long, value_name = "COLOR", default_value = "white")]
    pub background: String,
    /// Lines between cells.
    #[arg(long, value_enum, default_value = "auto")]
    pub grid: GridArg,
    /// Colour of grid lines.
    #[arg(long, value_name = "COLOR", default_value = "#d0d0d0")]
    pub grid_color: String,
    /// Colour of the thin frame around each board (`none` for no frame).
    #[arg(long, value_name = "COLOR", default_value = "#888888")]
    pub frame_color: String,
    /// Space around the figure, pixels.
    #[arg(long, value_name = "PX", default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=MAX_SPACING as i64))]
    pub margin: u32,
    /// Space between panels, pixels.
    #[arg(long, value_name = "PX", default_value_t = 14, value_parser = clap::value_parser!(u32).range(0..=MAX_SPACING as i64))]
    pub gap: u32,
    /// Leave out captions.
    #[arg(long)]
    pub no_caption: bool,
    /// Caption size in pixels (default: scaled to the panel).
    #[arg(long, value_name = "PX", value_parser = parse_caption_size)]
    pub caption_size: Option<f64>,
}

impl BoardStyleArgs {
    /// The validated style.
    pub fn style(&self) -> crate::Result<BoardStyle> {
        let frame = Color::parse(&self.frame_color, "--frame-color")?;
        Ok(BoardStyle {
            p_color: Color::parse(&self.p_color, "--p-color")?,
            other_color: Color::parse(&self.other_color, "--other-color")?,
            background: Color::parse(&self.background, "--background")?,
            grid: match self.grid {
                GridArg::Auto => GridLines::Auto,
                GridArg::On => GridLines::On,
                GridArg::Off => GridLines::Off,
            },
            grid_color: Color::parse(&self.grid_color, "--grid-color")?,
            frame_color: (frame.a > 0).then_some(frame),
            margin: self.margin,
            gap: self.gap,
            captions: !self.no_caption,
            caption_size: self.caption_size,
            caption_color: crate::scene::color::INK,
        })
    }

    /// The panel size asked for, if any; `boards` is the number of panels.
    pub fn size(&self, boards: usize) -> Option<PanelSize> {
        if let Some(cell) = self.cell {
            return Some(PanelSize::Cell(cell));
        }
        if let Some(panel) = self.panel {
            return Some(PanelSize::Panel(panel));
        }
        self.width.map(|width| {
            let columns = self
                .columns()
                .unwrap_or_else(|| SheetLayout::default_columns(boards));
            let columns = columns.min(boards.max(1));
            PanelSize::Panel(
                SheetLayout::panel_width_for(width, columns, self.gap, self.margin).max(4),
            )
        })
    }

    /// Panels per row, if given.
    pub fn columns(&self) -> Option<usize> {
        self.columns.map(usize::from)
    }
}

/// Timing and looping of animated GIFs, shared by every figure that animates.
#[derive(Debug, Clone, Args)]
pub struct AnimationArgs {
    /// How often a .gif plays: 0 (the default) loops forever, N plays N times in all.
    #[arg(long = "loop", value_name = "N", default_value_t = 0)]
    pub loop_count: u16,
    /// Hundredths of a second per frame of a .gif [default: 10, i.e. 10 fps].
    #[arg(long, value_name = "CS", conflicts_with = "fps", value_parser = clap::value_parser!(u16).range(2..))]
    pub delay: Option<u16>,
    /// Frames per second of a .gif (at most 50; stored as a delay in hundredths of a second).
    #[arg(long, value_name = "FPS")]
    pub fps: Option<f64>,
    /// Hundredths of a second the last frame of a .gif stays before it loops [default: 150].
    #[arg(long, value_name = "CS", value_parser = clap::value_parser!(u16).range(2..))]
    pub hold_last: Option<u16>,
}

impl AnimationArgs {
    /// The validated animation settings, [`Animation::default`] where no flag is given.
    pub fn animation(&self) -> crate::Result<Animation> {
        self.animation_with(Animation::default())
    }

    /// The validated animation settings, `defaults` where no flag is given (a figure
    /// with its own defaults also says them in its help, see `octahedron sweep`).
    pub fn animation_with(&self, defaults: Animation) -> crate::Result<Animation> {
        let delay_cs = match (self.delay, self.fps) {
            (Some(delay), _) => delay,
            (None, Some(fps)) => {
                if !(fps.is_finite() && (0.01..=50.0).contains(&fps)) {
                    return Err(crate::Error::invalid(format!(
                        "--fps {fps}: GIF delays are whole hundredths of a second and viewers slow anything under 2 cs down; use 0.01 to 50 fps"
                    )));
                }
                (100.0 / fps).round() as u16
            }
            (None, None) => defaults.delay_cs,
        };
        let animation = Animation {
            repeat: Repeat::from_loop_count(self.loop_count),
            delay_cs,
            hold_last_cs: Some(
                self.hold_last
                    .unwrap_or(defaults.hold_last_cs.unwrap_or(delay_cs)),
            ),
        };
        animation.validate()?;
        Ok(animation)
    }
}

/// Parses a format name (`png`, `.svg`, `PDF`, ...) for `--format`.
pub fn parse_format(text: &str) -> Result<crate::encode::Format, String> {
    let name = text.trim().trim_start_matches('.').to_ascii_lowercase();
    crate::encode::Format::of_path(
        std::path::Path::new(&format!("x.{name}")),
        &crate::encode::Format::ALL,
    )
    .map_err(|_| format!("'{text}' is not a format; use png, svg, pdf, gif, csv, json or npy"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m_lists_ranges_and_errors() {
        assert_eq!(parse_m_list("11").unwrap().0, vec![11]);
        assert_eq!(parse_m_list("1..4").unwrap().0, vec![1, 2, 3, 4]);
        assert_eq!(parse_m_list("1..=3, 8").unwrap().0, vec![1, 2, 3, 8]);
        assert!(parse_m_list("5..2").unwrap_err().contains("empty range"));
        assert!(parse_m_list("0").unwrap_err().contains("start at 1"));
        assert_eq!(parse_m_list("11,3,5,3").unwrap().0, vec![3, 5, 11]);
        assert_eq!(parse_m_list("1..9:4").unwrap().0, vec![1, 5, 9]);
        assert!(parse_m_list("1..100000")
            .unwrap_err()
            .contains("more than 4096"));
        assert!(parse_m_list("1..9:0").unwrap_err().contains("step"));
        assert!(parse_list("1..18446744073709551615", 1, 10).is_err());
        assert!(parse_m_list("abc")
            .unwrap_err()
            .contains("not a whole number"));
    }

    #[test]
    fn byte_sizes() {
        assert_eq!(parse_bytes("2G").unwrap(), 2 << 30);
        assert_eq!(parse_bytes("512MiB").unwrap(), 512 << 20);
        assert_eq!(parse_bytes("1000").unwrap(), 1000);
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("1e30").unwrap_err().contains("largest"));
        assert!(parse_bytes("NaN").is_err());
    }
}
