//! Parsers and option groups shared by subcommands.

use crate::library::encode::animation::Animation;
use crate::library::encode::gif::Repeat;
use crate::library::scene::board::{self, BoardStyle, GridLines, PanelSize};
use crate::library::scene::font::Family;
use crate::library::scene::layout::SheetLayout;
use crate::library::scene::units::{self, parse_length, Length, Print, PrintStyle};
use crate::library::scene::{Color, TextMode};
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
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                format!(
                    "'{}' is over {}, the largest value taken (2^64 - 1)",
                    excerpt(s),
                    u64::MAX
                )
            } else {
                format!(
                    "'{}' is not a whole number; write e.g. 11, 1..24, 1..64:2 or 3,5,11",
                    excerpt(s)
                )
            }
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
                excerpt(text)
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

/// Sequences of m that show self-similarity, so an animation over them does not
/// flicker as one over consecutive m does:
///
/// * `2^k+S:A..B` (or `2^k-S:A..B`): 2^k + S for k = A..=B, e.g. `2^k+1:1..6` is
///   3, 5, 9, 17, 33, 65;
/// * `S,Am+B,...,LIMIT` (or `Am-B`): S, then m ↦ A·m + B while the value stays at
///   most LIMIT (LIMIT left out: 12 terms), e.g. `3,2m+1,...,255` is 3, 7, 15, 31,
///   63, 127, 255 and `1,4m-1,...` is 1, 3, 11, 43, ...
///
/// `Ok(None)` when `text` is neither form (then it is an ordinary list).
pub fn parse_self_similar(text: &str) -> Result<Option<Vec<u64>>, String> {
    const MAX_TERMS: usize = 64;
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let number = |s: &str, what: &str| -> Result<u64, String> {
        s.parse::<u64>()
            .map_err(|_| format!("'{s}' in '{text}' is not a whole number ({what})"))
    };
    if let Some(rest) = t.strip_prefix("2^k") {
        let (shift, range) = rest.split_once(':').ok_or_else(|| {
            format!("'{text}': give the range of k after a colon, e.g. 2^k+1:1..6")
        })?;
        let (sign, s) = match shift.chars().next() {
            Some('+') => (1i128, &shift[1..]),
            Some('-') => (-1i128, &shift[1..]),
            None => (1, "0"),
            _ => return Err(format!("'{text}': write 2^k+S or 2^k-S, e.g. 2^k+1:1..6")),
        };
        let s = i128::from(number(s, "the shift S")?) * sign;
        let (a, b) = range
            .split_once("..")
            .ok_or_else(|| format!("'{text}': k runs over a range, e.g. 1..6"))?;
        let (a, b) = (
            number(a, "first k")?,
            number(b.trim_start_matches('='), "last k")?,
        );
        if a > b || b > 62 {
            return Err(format!("'{text}': k must run upwards and stay at most 62"));
        }
        let values = (a..=b)
            .map(|k| {
                let m = (1i128 << k) + s;
                u64::try_from(m)
                    .ok()
                    .filter(|&m| m >= 1)
                    .ok_or_else(|| format!("'{text}': 2^{k}{shift} = {m} is not a board side"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(Some(values));
    }
    let parts: Vec<&str> = t.split(',').collect();
    let Some(rule) = parts.get(1).filter(|p| p.contains('m')) else {
        return Ok(None);
    };
    if parts.get(2) != Some(&"...") || parts.len() > 4 {
        return Err(format!(
            "'{text}': a recursion is S,Am+B,... or S,Am+B,...,LIMIT, e.g. 3,2m+1,...,255"
        ));
    }
    let start = number(parts[0], "the start S")?;
    let (a, b) = rule.split_once('m').expect("checked above");
    let a = if a.is_empty() {
        1
    } else {
        number(a, "the factor A")?
    };
    let b: i128 = match b.chars().next() {
        None => 0,
        Some('+') => i128::from(number(&b[1..], "the step B")?),
        Some('-') => -i128::from(number(&b[1..], "the step B")?),
        _ => {
            return Err(format!(
                "'{text}': write the rule as Am+B or Am-B, e.g. 4m-1"
            ))
        }
    };
    let limit = parts.get(3).map(|l| number(l, "the limit")).transpose()?;
    if start == 0 {
        return Err("board sides start at 1, not 0".into());
    }
    let mut values = vec![start];
    let mut m = i128::from(start);
    while values.len() < limit.map_or(12, |_| MAX_TERMS) {
        let next = i128::from(a) * m + b;
        if next <= m || next > i128::from(limit.unwrap_or(u64::MAX)) || next > i128::from(u32::MAX)
        {
            break;
        }
        values.push(next as u64);
        m = next;
    }
    if values.len() < 2 && limit.is_none() {
        return Err(format!("'{text}': m ↦ {rule} does not grow from {start}"));
    }
    Ok(Some(values))
}

/// Board sides: from 1, at most 4096 boards at once; or a self-similar sequence
/// (`parse_self_similar`).
pub fn parse_m_list(text: &str) -> Result<ValueList, String> {
    if let Some(values) = parse_self_similar(text)? {
        return Ok(ValueList(values));
    }
    parse_list(text, 1, 4096)
}

/// Parses one board side (no ranges).
pub fn parse_side(text: &str) -> Result<u64, String> {
    if text.contains("..") || text.contains(',') {
        return Err("takes one number, the columns of every board; ranges go in `m`".into());
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
/// A caption size: a bare number is pt (px without a physical size), as `--help`
/// says; `7pt`, `9px` and `3mm` are taken too, as `--font-size` takes them.
pub fn parse_caption_size(text: &str) -> Result<f64, String> {
    units::parse_font_size(text).map(|length| length.points(Print::default()))
}

/// The largest margin or gap, pixels: beyond it the figure is nearly all blank, and
/// sizes computed from it could overflow.
pub const MAX_SPACING: u32 = 4096;

pub use crate::error::excerpt;

/// `#rrggbb`: how a default colour is shown in `--help` and parsed back.
pub fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// `x,y,z`: a default vector as `--light` takes it.
pub fn joined(values: &[f64]) -> String {
    values
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// `--palette`: one set of colour maps for every command that colours values by
/// class (Grundy tables, automaton frames mod p).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PaletteArg {
    /// The papers' colours: red, blue, then green, orange, purple, ... (p <= 8).
    Paper,
    /// Okabe–Ito: orange, sky blue, bluish green, ...: colour-blind safe (p <= 9).
    OkabeIto,
    /// Dark purple through blue, teal and green to orange: ordered, colour-blind safe.
    Viridis,
    /// Evenly spaced hues at one lightness: categorical, not ordered.
    Hues,
    /// Dark to light grey, for print.
    #[value(alias = "gray")]
    Grey,
}

impl From<PaletteArg> for crate::library::scene::ramp::Palette {
    fn from(arg: PaletteArg) -> Self {
        use crate::library::scene::ramp::Palette;
        match arg {
            PaletteArg::Paper => Palette::Paper,
            PaletteArg::OkabeIto => Palette::OkabeIto,
            PaletteArg::Viridis => Palette::Viridis,
            PaletteArg::Hues => Palette::Hues,
            PaletteArg::Grey => Palette::Grey,
        }
    }
}

/// PNG compression of 1-bit `--raw` images (`--compression`).
#[derive(Debug, Clone, Copy, Default, ValueEnum)]
pub enum CompressionArg {
    /// Fastest: about 3x quicker than balanced, but files up to 40x larger.
    Fast,
    /// zlib's default level: small files, still fast (the default).
    #[default]
    Balanced,
    /// zlib's highest level: slower, and rarely smaller than balanced.
    Best,
}

impl From<CompressionArg> for crate::library::encode::png::Compression {
    fn from(arg: CompressionArg) -> Self {
        use crate::library::encode::png::Compression;
        match arg {
            CompressionArg::Fast => Compression::Fast,
            CompressionArg::Balanced => Compression::Balanced,
            CompressionArg::Best => Compression::Best,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
/// The typeface of a figure's text.
pub enum FontArg {
    /// DejaVu Sans.
    Sans,
    /// DejaVu Serif, which sits well beside LaTeX text.
    Serif,
}

/// How SVG and PDF carry text.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TextArg {
    /// Real text: an embedded subset font in PDF, selectable words in SVG.
    Text,
    /// Glyph outlines (paths) only.
    Outlines,
}

/// Resolution, typeface and text handling, shared by every figure.
#[derive(Debug, Clone, Args)]
pub struct PrintArgs {
    /// Pixels per inch of PNGs (stored in the file). Sizes in px then mean pixels at
    /// this resolution [default: 300 when any size is in mm, cm, in or pt; otherwise
    /// one pixel per PDF point, 1/72 in].
    #[arg(long, value_name = "DPI", value_parser = units::parse_dpi)]
    pub dpi: Option<f64>,
    /// Typeface of every text.
    #[arg(long, value_enum, default_value = "sans")]
    pub font: FontArg,
    /// Text in SVG and PDF: real text with an embedded subset font, or outlines.
    #[arg(long, value_enum, default_value = "text")]
    pub text: TextArg,
}

impl PrintArgs {
    /// The print style of a figure whose size flags are `sizes`; `width` is the
    /// whole-figure width flag, if the figure has one.
    pub fn style(&self, sizes: &[Option<Length>], width: Option<Length>) -> PrintStyle {
        let print = Print::new(self.dpi, sizes);
        PrintStyle {
            print,
            exact_width_pt: width.filter(|w| w.is_physical()).map(|w| w.points(print)),
            font: match self.font {
                FontArg::Sans => Family::Sans,
                FontArg::Serif => Family::Serif,
            },
            text: match self.text {
                TextArg::Text => TextMode::Text,
                TextArg::Outlines => TextMode::Outlines,
            },
        }
    }
}

/// A length flag in whole scene units (points; pixels at 72 dpi unless `--dpi`),
/// checked against `range` with an error naming the flag.
pub fn length_units(
    flag: &str,
    length: Length,
    print: Print,
    range: std::ops::RangeInclusive<u32>,
) -> crate::Result<u32> {
    let points = length.points(print);
    let units = points.round();
    if !(f64::from(*range.start())..=f64::from(*range.end())).contains(&units) {
        let shown = |v: u32| match print.dpi {
            None => format!("{v} px"),
            Some(dpi) => format!(
                "{} mm ({} px at {} dpi)",
                units::trim_number(f64::from(v) / units::PT_PER_IN * units::MM_PER_IN),
                (f64::from(v) / units::PT_PER_IN * dpi).round(),
                units::trim_number(dpi)
            ),
        };
        let bare = px_hint(length, print);
        return Err(crate::Error::invalid_marked(
            flag,
            format!(
                "{flag} {length} is {} points; use {} to {}{bare}",
                units::trim_number(points),
                shown(*range.start()),
                shown(*range.end())
            ),
        ));
    }
    Ok(units as u32)
}

/// What a length without a unit means, for a refusal of one: " (a number alone
/// is px; for print write 60mm)". Empty for a length in a physical unit, or on
/// paper (`--dpi`), where px are already pixels of a print.
pub fn px_hint(length: Length, print: Print) -> String {
    if length.unit == units::Unit::Px && print.dpi.is_none() {
        format!(
            " (a number alone is px; for print write {}mm)",
            units::trim_number(length.value)
        )
    } else {
        String::new()
    }
}

/// Parses a margin or gap: a length as [`parse_size`] takes it, or zero.
pub fn parse_spacing(text: &str) -> Result<Length, String> {
    let t = text.trim().to_ascii_lowercase();
    let number = t.trim_end_matches(|c: char| c.is_ascii_alphabetic()).trim();
    if number.parse::<f64>() == Ok(0.0) {
        return parse_length(&t.replacen(number, "1", 1)).map(|l| Length { value: 0.0, ..l });
    }
    parse_length(text)
}

/// The margin and gap a figure has unless told, scene units (points on paper).
pub const DEFAULT_SPACING: (u32, u32) = (16, 14);

/// A margin and a gap in whole scene units under `print`, each at most
/// [`MAX_SPACING`] ([`DEFAULT_SPACING`] where not given); errors name the flag.
pub fn spacing(
    margin: Option<Length>,
    gap: Option<Length>,
    print: Print,
) -> crate::Result<(u32, u32)> {
    let units = |flag: &str, length: Option<Length>, default: u32| match length {
        None => Ok(default),
        Some(length) if length.value == 0.0 => Ok(0),
        Some(length) => length_units(flag, length, print, 0..=MAX_SPACING),
    };
    Ok((
        units("`margin`", margin, DEFAULT_SPACING.0)?,
        units("`gap`", gap, DEFAULT_SPACING.1)?,
    ))
}

/// The width of `text` at `size` in `style`'s typeface.
fn widest_of(style: &BoardStyle, text: &str, size: f64) -> f64 {
    crate::library::scene::font::text_width_in(style.print.font, text, size)
}

/// The longest caption or title, in characters: a few lines under a figure.
/// Longer text belongs in the document's own caption, and laying it out (every
/// glyph shaped, the lines wrapped) would take seconds to minutes.
pub const MAX_CAPTION_CHARS: usize = 1000;

/// Parses a caption or title: any text up to [`MAX_CAPTION_CHARS`] characters.
pub fn parse_caption(text: &str) -> Result<String, String> {
    let chars = text.chars().count();
    if chars > MAX_CAPTION_CHARS {
        return Err(format!(
            "{chars} characters; a caption holds at most {MAX_CAPTION_CHARS} (put longer text in the document's caption)"
        ));
    }
    Ok(text.to_string())
}

/// Parses a length flag: `85mm`, `3.35in`, `240pt`, `1200px` or a bare number (px).
pub fn parse_size(text: &str) -> Result<Length, String> {
    parse_length(text)
}

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
    /// Size of a cell: px, or mm / in / pt (default: about 640 px per board alone,
    /// sheets use --panel).
    #[arg(long, value_name = "LEN", value_parser = parse_size)]
    pub cell: Option<Length>,
    /// Size along each board of a sheet: every board drawn the same size, as (1/m)·R(m,m).
    #[arg(long, value_name = "LEN", conflicts_with_all = ["cell", "width"], value_parser = parse_size)]
    pub panel: Option<Length>,
    /// Total width of the figure, or of every frame of an animation (85mm, 3.35in,
    /// 240pt, 1200px); the panel size follows.
    #[arg(long, value_name = "LEN", conflicts_with = "cell", value_parser = parse_size)]
    pub width: Option<Length>,
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
    /// Space around the figure: px, or mm / in / pt [default: 16 (pt on paper)].
    #[arg(long, value_name = "LEN", value_parser = parse_spacing)]
    pub margin: Option<Length>,
    /// Space between panels: px, or mm / in / pt [default: 14 (pt on paper)].
    #[arg(long, value_name = "LEN", value_parser = parse_spacing)]
    pub gap: Option<Length>,
    /// Leave out captions.
    #[arg(long, visible_alias = "no-title")]
    pub no_caption: bool,
    /// A title above the whole figure ($...$ for math: "$R(m,m)$ for $m = 1..24$").
    #[arg(long, value_name = "TEXT", value_parser = parse_caption)]
    pub caption: Option<String>,
    /// Caption size in pt (px without a physical size) [default: scaled to the panel].
    #[arg(long, value_name = "PT", value_parser = parse_caption_size)]
    pub caption_size: Option<f64>,
}

impl BoardStyleArgs {
    /// The validated style, printed as `print` says.
    pub fn style_printed(&self, print: &PrintArgs) -> crate::Result<BoardStyle> {
        let print = print.style(&self.lengths(), self.width);
        let (margin, gap) = spacing(self.margin, self.gap, print.print)?;
        let width = self
            .width
            .map(|w| length_units("`width`", w, print.print, 1..=65535))
            .transpose()?;
        Ok(BoardStyle {
            print,
            width,
            margin,
            gap,
            ..self.style()?
        })
    }

    /// Refuses `--columns` where there is only one panel to lay out.
    pub fn check_columns(&self, panels: usize) -> crate::Result<()> {
        if self.columns.is_some() && panels < 2 {
            return Err(crate::Error::invalid_parameter("columns", 
                "`columns` lays out a sheet of several boards; this figure has one (give `m` a range or list, or leave out `columns`)",
            ));
        }
        Ok(())
    }

    /// The validated style.
    pub fn style(&self) -> crate::Result<BoardStyle> {
        let frame = Color::parse(&self.frame_color, "`frame-color`")?;
        Ok(BoardStyle {
            p_color: Color::parse(&self.p_color, "`p-color`")?,
            other_color: Color::parse(&self.other_color, "`other-color`")?,
            background: Color::parse(&self.background, "`background`")?,
            grid: match self.grid {
                GridArg::Auto => GridLines::Auto,
                GridArg::On => GridLines::On,
                GridArg::Off => GridLines::Off,
            },
            grid_color: Color::parse(&self.grid_color, "`grid-color`")?,
            frame_color: (frame.a > 0).then_some(frame),
            margin: spacing(self.margin, self.gap, Print::default())?.0,
            gap: spacing(self.margin, self.gap, Print::default())?.1,
            captions: !self.no_caption,
            caption_size: self.caption_size,
            caption_color: crate::library::scene::color::INK,
            print: PrintStyle::default(),
            title: self.caption.clone(),
            width: None,
        })
    }

    /// The size flags, for [`PrintArgs::style`].
    pub fn lengths(&self) -> [Option<Length>; 3] {
        [self.cell, self.panel, self.width]
    }

    /// The panel size asked for, if any, in scene units, and the panels per row;
    /// `boards` is the number of panels, `captions` their captions, `lines`
    /// the lines under them (set at the key's size). A `width`
    /// without `columns` takes fewer columns than the default where the
    /// captions would run into each other; sizes whose captions cannot fit are
    /// refused, naming what fits. Errors name the flag and the range that works.
    pub fn layout(
        &self,
        boards: usize,
        style: &BoardStyle,
        captions: &[String],
        lines: &[String],
    ) -> crate::Result<(Option<PanelSize>, Option<usize>)> {
        let print = style.print.print;
        let unit = if print.dpi.is_some() { "pt" } else { "px" };
        // The scale is the width's when one is given, otherwise the sheet's.
        let columns_at = self
            .columns()
            .unwrap_or_else(|| SheetLayout::default_columns(boards))
            .min(boards.max(1));
        let caption_at = |panel: u32| board::caption_size(style, panel, columns_at);
        let widest_of_all = |texts: &[String], size: f64| {
            texts
                .iter()
                .map(|c| crate::library::scene::font::text_width_in(style.print.font, c, size))
                .fold(0.0, f64::max)
        };
        let widest = |size: f64| widest_of_all(captions, size);
        let sheet = boards > 1 && style.captions;
        let fits = |panel: u32| {
            let line_size = board::key_size(style, panel, columns_at);
            let text = widest(caption_at(panel)).max(widest_of_all(lines, line_size));
            !sheet || board::captions_fit(text, panel, style.gap)
        };
        let longest = || {
            let size = caption_at(0);
            let text = captions
                .iter()
                .max_by(|a, b| widest_of(style, a, size).total_cmp(&widest_of(style, b, size)))
                .cloned()
                .unwrap_or_default();
            text
        };
        if let Some(cell) = self.cell {
            let cell = length_units("`cell`", cell, print, 1..=4096)?;
            return Ok((Some(PanelSize::Cell(cell)), self.columns()));
        }
        if let Some(panel) = self.panel {
            let units = length_units("`panel`", panel, print, 4..=16384)?;
            if !fits(units) {
                let needed = (units..=16384).find(|&p| fits(p)).map_or_else(
                    || "a smaller `caption-size`".to_string(),
                    |p| format!("`panel` {p} {unit} or more"),
                );
                return Err(crate::Error::invalid_parameter("panel", format!(
                    "`panel` {panel} is too narrow for its captions ('{}' at {} pt runs into the next); give {needed}, or `no-caption`",
                    longest(),
                    units::trim_number(caption_at(units))
                )));
            }
            return Ok((Some(PanelSize::Panel(units)), self.columns()));
        }
        let Some(width) = self.width else {
            return Ok((None, self.columns()));
        };
        let width_units = length_units("`width`", width, print, 1..=65535)?;
        let given = self.columns();
        let most = given
            .unwrap_or_else(|| SheetLayout::default_columns(boards))
            .min(boards.max(1));
        let panel_for = |columns: usize| {
            SheetLayout::panel_width_for(width_units, columns, style.gap, style.margin)
        };
        let panel = panel_for(most);
        if panel < 4 && given.is_some() {
            let columns = most as u32;
            let smallest = 2 * style.margin + 4 * columns + style.gap * (columns - 1);
            return Err(crate::Error::invalid_parameter("width", format!(
                "`width` {width} leaves {panel} {unit} per panel for {columns} column(s) after margins and gaps; give `width` {smallest} {unit} or more, fewer `columns` or a smaller `gap` / `margin`{}",
                px_hint(width, print)
            )));
        }
        // The most columns whose panels hold their captions (and 4 units).
        let fitting = (1..=most)
            .rev()
            .find(|&c| panel_for(c) >= 4 && fits(panel_for(c)));
        match (fitting, given) {
            (Some(columns), None) => {
                Ok((Some(PanelSize::Panel(panel_for(columns))), Some(columns)))
            }
            (Some(columns), Some(asked)) if columns == asked => {
                Ok((Some(PanelSize::Panel(panel)), Some(columns)))
            }
            (fewer, _) => {
                if panel < 4 || (fewer.is_none() && !sheet) {
                    let columns = most as u32;
                    let smallest = 2 * style.margin + 4 * columns + style.gap * (columns - 1);
                    return Err(crate::Error::invalid_parameter("width", format!(
                        "`width` {width} leaves {panel} {unit} per panel for {columns} column(s) after margins and gaps; give `width` {smallest} {unit} or more, fewer `columns` or a smaller `gap` / `margin`{}",
                        px_hint(width, print)
                    )));
                }
                let what = match fewer {
                    Some(c) => format!("`columns` {c} or fewer"),
                    None => "a larger `width`".to_string(),
                };
                Err(crate::Error::invalid_parameter("width", format!(
                    "`width` {width} with {most} column(s) leaves {panel} {unit} panels, too narrow for their captions ('{}' at {} pt runs into the next); give {what}, a smaller `caption-size`, or `no-caption`{}",
                    longest(),
                    units::trim_number(caption_at(panel)),
                    px_hint(width, print)
                )))
            }
        }
    }

    /// Panels per row, if given.
    pub fn columns(&self) -> Option<usize> {
        self.columns.map(usize::from)
    }
}

/// How the frames of a board animation are scaled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FrameScale {
    /// Every board fills its frame (the paper's (1/m)·R(m,m)): growth reads as refinement.
    #[default]
    Fit,
    /// One cell size for all frames, sized to the largest board: growth is visible.
    Common,
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
    /// The frame (1 = first) that stands for the animation where it cannot play:
    /// the still beside it in figures.tex and the poster of a frames snippet
    /// [default: the most detailed frame, the later of equals].
    #[arg(long, value_name = "N", value_parser = parse_frame_number)]
    pub poster: Option<u32>,
}

/// A frame's number, counted from 1 as the frames' file names are.
fn parse_frame_number(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("give a frame's number, 1 for the first".into()),
    }
}

impl AnimationArgs {
    /// [`AnimationArgs::animation_with`] for an animation of `frames` frames:
    /// a `poster` past the last is refused here, whatever the output (a GIF
    /// has no poster to show, but a wrong number is still a mistake to name).
    pub fn animation_of(&self, defaults: Animation, frames: usize) -> crate::Result<Animation> {
        let animation = self.animation_with(defaults)?;
        crate::library::encode::animation::check_poster(animation.poster, frames)?;
        Ok(animation)
    }

    /// The validated animation settings, `defaults` where no flag is given (a figure
    /// with its own defaults also says them in its help, see `octahedron sweep`).
    pub fn animation_with(&self, defaults: Animation) -> crate::Result<Animation> {
        let delay_cs = match (self.delay, self.fps) {
            (Some(delay), _) => delay,
            (None, Some(fps)) => {
                if !(fps.is_finite() && (0.01..=50.0).contains(&fps)) {
                    return Err(crate::Error::invalid_parameter("fps", format!(
                        "`fps` {fps}: GIF delays are whole hundredths of a second and viewers slow anything under 2 cs down; use 0.01 to 50 fps"
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
            poster: self.poster,
        };
        animation.validate()?;
        Ok(animation)
    }
}

/// Parses a format name (`png`, `.svg`, `PDF`, ...) for `--format`.
pub fn parse_format(text: &str) -> Result<crate::library::encode::Format, String> {
    let name = text.trim().trim_start_matches('.').to_ascii_lowercase();
    crate::library::encode::Format::of_path(
        std::path::Path::new(&format!("x.{name}")),
        &crate::library::encode::Format::ALL,
    )
    .map_err(|_| {
        format!("'{text}' is not a format; use png, svg, pdf, tikz, gif, apng, csv, json or npy")
    })
}

/// The closest allowed name to `wanted`, when it is close (a typo).
pub fn suggestion<'a>(wanted: &str, allowed: &'a [String]) -> Option<&'a str> {
    allowed
        .iter()
        .map(|a| (strsim::levenshtein(wanted, a), a))
        .filter(|(d, a)| *d <= 2.max(a.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, a)| a.as_str())
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
    fn self_similar_sequences() {
        assert_eq!(
            parse_m_list("2^k+1:1..6").unwrap().0,
            vec![3, 5, 9, 17, 33, 65]
        );
        assert_eq!(parse_m_list("2^k-1:2..4").unwrap().0, vec![3, 7, 15]);
        assert_eq!(
            parse_m_list("3, 2m+1, ..., 255").unwrap().0,
            vec![3, 7, 15, 31, 63, 127, 255]
        );
        assert_eq!(
            parse_m_list("1,4m-1,...,200").unwrap().0,
            vec![1, 3, 11, 43, 171]
        );
        // The recurrence itself, checked term by term rather than trusted.
        let seq = parse_m_list("2,4m-1,...").unwrap().0;
        assert_eq!(seq.len(), 12);
        assert!(seq.windows(2).all(|w| w[1] == 4 * w[0] - 1));
        assert!(parse_m_list("2^k+1").unwrap_err().contains("colon"));
        assert!(parse_m_list("2^k-5:1..2")
            .unwrap_err()
            .contains("not a board side"));
        assert!(parse_m_list("3,m-1,...")
            .unwrap_err()
            .contains("does not grow"));
        // Ordinary lists are untouched.
        assert_eq!(parse_m_list("3,5,11").unwrap().0, vec![3, 5, 11]);
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
