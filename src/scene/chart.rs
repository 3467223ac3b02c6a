//! Charts drawn by plotters into a [`Scene`].
//!
//! [`SceneBackend`] is a plotters drawing backend that records lines,
//! polygons and text as scene items instead of pixels. A chart therefore goes
//! through the same encoders as every other figure: the same embedded font,
//! the same look in PNG and SVG.

use super::{Color, HAlign, PathCmd, PathItem, Scene, TextItem, VAlign};
use crate::library::scene::font;
use plotters::prelude::*;
use plotters::style::Color as _;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use std::convert::Infallible;

/// A plotters backend that appends to a scene.
pub struct SceneBackend<'a> {
    scene: &'a mut Scene,
}

impl<'a> SceneBackend<'a> {
    /// A backend drawing onto `scene`.
    pub fn new(scene: &'a mut Scene) -> Self {
        register_embedded_font();
        SceneBackend { scene }
    }
}

/// Plotters measures some text itself (legends, label areas); it must find the
/// embedded font under the family names charts use.
fn register_embedded_font() {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        for family in ["sans-serif", "serif", "monospace"] {
            for style in [
                FontStyle::Normal,
                FontStyle::Bold,
                FontStyle::Italic,
                FontStyle::Oblique,
            ] {
                // The bytes are the embedded font, which parses (a font test checks it).
                let _ = plotters::style::register_font(family, style, font::DEJAVU_SANS);
            }
        }
    });
}

fn color(c: BackendColor) -> Color {
    let (r, g, b) = c.rgb;
    Color::rgb(r, g, b).with_alpha((c.alpha.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// Plotters hands out integer pixel coordinates; odd-width strokes are centred on
/// pixel centres so they stay crisp.
fn crisp(p: BackendCoord, width: u32) -> (f64, f64) {
    let shift = if width % 2 == 1 { 0.5 } else { 0.0 };
    (f64::from(p.0) + shift, f64::from(p.1) + shift)
}

type DrawResult = Result<(), DrawingErrorKind<Infallible>>;

impl DrawingBackend for SceneBackend<'_> {
    type ErrorType = Infallible;

    fn get_size(&self) -> (u32, u32) {
        (self.scene.width, self.scene.height)
    }

    fn ensure_prepared(&mut self) -> DrawResult {
        Ok(())
    }

    fn present(&mut self) -> DrawResult {
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, c: BackendColor) -> DrawResult {
        if c.alpha > 0.0 {
            let (x, y) = (f64::from(point.0), f64::from(point.1));
            self.scene
                .push(PathItem::rect(x, y, 1.0, 1.0).filled(color(c)));
        }
        Ok(())
    }

    fn draw_line<S: plotters_backend::BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> DrawResult {
        self.draw_path([from, to], style)
    }

    fn draw_rect<S: plotters_backend::BackendStyle>(
        &mut self,
        ul: BackendCoord,
        br: BackendCoord,
        style: &S,
        fill: bool,
    ) -> DrawResult {
        let c = color(style.color());
        if c.a == 0 {
            return Ok(());
        }
        if fill {
            let (x, y) = (f64::from(ul.0), f64::from(ul.1));
            let (w, h) = (f64::from(br.0 - ul.0 + 1), f64::from(br.1 - ul.1 + 1));
            self.scene.push(PathItem::rect(x, y, w, h).filled(c));
        } else {
            let width = style.stroke_width().max(1);
            let (x0, y0) = crisp(ul, width);
            let (x1, y1) = crisp(br, width);
            self.scene
                .push(PathItem::rect(x0, y0, x1 - x0, y1 - y0).stroked(c, f64::from(width)));
        }
        Ok(())
    }

    fn draw_path<S: plotters_backend::BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> DrawResult {
        let c = color(style.color());
        let width = style.stroke_width();
        if c.a == 0 || width == 0 {
            return Ok(());
        }
        let points: Vec<(f64, f64)> = path.into_iter().map(|p| crisp(p, width)).collect();
        if points.len() >= 2 {
            self.scene
                .push(PathItem::polyline(&points).stroked(c, f64::from(width)));
        }
        Ok(())
    }

    fn draw_circle<S: plotters_backend::BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> DrawResult {
        let c = color(style.color());
        if c.a == 0 {
            return Ok(());
        }
        let (cx, cy) = (f64::from(center.0) + 0.5, f64::from(center.1) + 0.5);
        let r = f64::from(radius);
        // Four cubic arcs: the usual circle approximation, error below 0.03 %.
        const K: f64 = 0.552_284_749_8;
        let commands = vec![
            PathCmd::MoveTo(cx + r, cy),
            PathCmd::CubicTo(cx + r, cy + K * r, cx + K * r, cy + r, cx, cy + r),
            PathCmd::CubicTo(cx - K * r, cy + r, cx - r, cy + K * r, cx - r, cy),
            PathCmd::CubicTo(cx - r, cy - K * r, cx - K * r, cy - r, cx, cy - r),
            PathCmd::CubicTo(cx + K * r, cy - r, cx + r, cy - K * r, cx + r, cy),
            PathCmd::Close,
        ];
        let item = PathItem {
            commands,
            fill: None,
            stroke: None,
        };
        self.scene.push(if fill {
            item.filled(c)
        } else {
            item.stroked(c, f64::from(style.stroke_width().max(1)))
        });
        Ok(())
    }

    fn fill_polygon<S: plotters_backend::BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> DrawResult {
        let c = color(style.color());
        let points: Vec<(f64, f64)> = vert
            .into_iter()
            .map(|p| (f64::from(p.0), f64::from(p.1)))
            .collect();
        if c.a > 0 && points.len() >= 3 {
            self.scene.push(PathItem::polygon(&points).filled(c));
        }
        Ok(())
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> DrawResult {
        let c = color(style.color());
        if c.a == 0 {
            return Ok(());
        }
        let anchor = style.anchor();
        self.scene.push(TextItem {
            x: f64::from(pos.0),
            y: f64::from(pos.1),
            text: text.to_string(),
            size: style.size(),
            color: c,
            halign: match anchor.h_pos {
                HPos::Left => HAlign::Left,
                HPos::Center => HAlign::Center,
                HPos::Right => HAlign::Right,
            },
            valign: match anchor.v_pos {
                VPos::Top => VAlign::Top,
                VPos::Center => VAlign::Middle,
                VPos::Bottom => VAlign::Bottom,
            },
            rotation: match style.transform() {
                FontTransform::None => 0.0,
                FontTransform::Rotate90 => 90.0,
                FontTransform::Rotate180 => 180.0,
                FontTransform::Rotate270 => 270.0,
            },
            role: super::Role::Other,
        });
        Ok(())
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<Infallible>> {
        let width = font::text_width(text, style.size()).ceil() as u32;
        let height = style.size().ceil() as u32;
        Ok(match style.transform() {
            FontTransform::Rotate90 | FontTransform::Rotate270 => (height, width),
            _ => (width, height),
        })
    }
}

/// A tick label for a whole-number axis: coordinates are whole numbers, so a tick
/// between two of them stays unlabelled rather than print a rounded duplicate.
pub fn whole_tick(value: f64) -> String {
    if (value - value.round()).abs() < 1e-9 {
        minus(format!("{value:.0}"))
    } else {
        String::new()
    }
}

/// The rectangle of a plotters plotting area, from its pixel ranges
/// (`chart.plotting_area().get_pixel_range()`), where a cell layer is drawn.
pub fn plotting_rect((xr, yr): (std::ops::Range<i32>, std::ops::Range<i32>)) -> super::PixelRect {
    super::PixelRect {
        x: xr.start.max(0) as u32,
        y: yr.start.max(0) as u32,
        width: (xr.end - xr.start).max(1) as u32,
        height: (yr.end - yr.start).max(1) as u32,
    }
}

/// Tags the text plotters drew from item `from` on: words in `names` are axis
/// names, in `key` key entries, the rest tick numbers (plotters draws nothing
/// else).
pub fn tag_roles(scene: &mut Scene, from: usize, names: &[&str], key: &[&str]) {
    for item in &mut scene.items[from..] {
        if let super::Item::Text(text) = item {
            if text.role == super::Role::Other {
                // Keys are set from the left; names centred (a key entry may be
                // the same word as an axis name: g(m)).
                let keyed = text.halign == HAlign::Left && key.contains(&text.text.as_str());
                text.role = if keyed {
                    super::Role::Key
                } else if names.contains(&text.text.as_str()) {
                    super::Role::AxisName
                } else {
                    super::Role::Tick
                };
            }
        }
    }
}

/// Turns a plotters error (there are none from [`SceneBackend`], but the chart layer
/// can still refuse, e.g. an empty range) into a library error.
pub fn chart_error(err: impl std::fmt::Display) -> crate::Error {
    crate::Error::unsupported(format!("cannot draw the chart: {err}"))
}

/// The words of a chart, each settable or removable.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartLabels {
    /// The title; `None` leaves it out.
    pub caption: Option<String>,
    /// Title size in scene units (points); `None` scales with the chart.
    pub caption_size: Option<f64>,
    /// Size of tick labels, axis names and the key; `None` scales with the chart.
    pub font_size: Option<f64>,
    /// Axis names in coordinate order (x, y[, z]); `None` leaves them out, an empty
    /// name keeps the figure's default.
    pub axis_names: Option<Vec<String>>,
    /// Numbers at the ticks.
    pub ticks: bool,
    /// The key naming the lines.
    pub key: bool,
}

impl ChartLabels {
    /// The count chart's words.
    pub fn count() -> Self {
        ChartLabels {
            caption: Some("g(m) = number of P-positions of C(m,m)".into()),
            caption_size: None,
            font_size: None,
            axis_names: Some(vec!["m".into(), "g(m)".into()]),
            ticks: true,
            key: true,
        }
    }
}

/// The chart of g(m) against m, with the reference curve m² that g touches at powers of two.
/// Text is at the figure's [`super::TypeScale`] (`on_paper` when a physical size
/// or a dpi was asked for); a long title wraps onto two lines, then shrinks.
pub fn count_chart(
    points: &[(u64, u128)],
    log_scale: bool,
    width: u32,
    height: u32,
    labels: &ChartLabels,
    on_paper: bool,
) -> crate::Result<Scene> {
    // Drawn at OVERSAMPLE times the size and scaled down (see Scene::scale_down).
    const K: u32 = OVERSAMPLE;
    let kf = f64::from(K);
    let mut scene = Scene::new(width * K, height * K, Color::WHITE);
    let w = f64::from(width);
    let scale = super::TypeScale::new(w, on_paper);
    let label_size = labels
        .font_size
        .unwrap_or_else(|| scale.size(super::Role::Tick));
    let name_size = labels
        .font_size
        .unwrap_or_else(|| scale.size(super::Role::AxisName));
    let key_size = labels
        .font_size
        .unwrap_or_else(|| scale.size(super::Role::Key));
    let margin = (w / 50.0).clamp(6.0, 18.0);
    let line_width = (w / 450.0).clamp(0.75, 2.0);
    let title = labels.caption.as_ref().map(|text| {
        let natural = labels
            .caption_size
            .unwrap_or_else(|| scale.size(super::Role::Title));
        let min = labels.caption_size.unwrap_or(scale.floor()).min(natural);
        crate::library::scene::layout::fit_title(text, natural, min, w - 2.0 * margin, 2)
    });
    let title_height = title.as_ref().map_or(0.0, |(lines, size)| {
        (lines.len() as f64 * size * 1.25 + size * 0.6).ceil()
    });
    let m_max = points.iter().map(|p| p.0).max().unwrap_or(1).max(2) as f64;
    let m_min = points.iter().map(|p| p.0).min().unwrap_or(1) as f64;
    let y_max = (m_max * m_max).max(1.0);
    let named = labels.axis_names.is_some();
    // The axes end where the ranges below end.
    let x_numbers = AxisNumbers::for_axis(m_max, log_scale);
    let y_numbers = AxisNumbers::for_axis(y_max * if log_scale { 1.5 } else { 1.05 }, log_scale);
    // Room left of the plot: the widest tick number, then the rotated axis name.
    // A log axis numbers only powers of ten: its widest is the top one, not
    // y_max written out (1046529 took room for seven digits beside "10⁶").
    let tick_values = if log_scale {
        vec![10f64.powi((y_max * 1.5).log10().floor() as i32), 1.0]
    } else {
        vec![y_max, y_max / 2.0, 0.0]
    };
    let widest_tick = tick_values
        .iter()
        .map(|&v| font::text_width(&y_numbers.label(v.round()), label_size))
        .fold(0.0, f64::max);
    let y_area = if labels.ticks {
        widest_tick + label_size * 0.9
    } else {
        0.0
    } + if named { name_size * 2.0 } else { 0.0 };
    let right_margin = if labels.ticks {
        // No x number is wider than the axis' end written out.
        let last = x_numbers.label(m_max);
        margin.max(font::text_width(&last, label_size) / 2.0 + 2.0)
    } else {
        margin
    };
    let x_area = if labels.ticks { label_size * 1.9 } else { 0.0 }
        + if named { name_size * 1.6 } else { 0.0 };
    {
        let root = SceneBackend::new(&mut scene).into_drawing_area().margin(
            (title_height * kf) as u32,
            0,
            0,
            0,
        );
        let blue = RGBColor(0x00, 0x72, 0xB2);
        let orange = RGBColor(0xE6, 0x9F, 0x00);
        let ink = RGBColor(0x22, 0x22, 0x22);
        let label_style = ("sans-serif", label_size * kf).into_font().color(&ink);
        let name_style = ("sans-serif", name_size * kf).into_font().color(&ink);
        let key_style = ("sans-serif", key_size * kf).into_font().color(&ink);
        let mut builder = ChartBuilder::on(&root);
        builder
            .margin((margin * kf) as u32)
            // The last x number is centred on the axis' end: half of it
            // must fit right of the plot ("1000" was cut at 85 mm).
            .margin_right((right_margin * kf) as u32)
            .x_label_area_size((x_area * kf).round() as u32)
            .y_label_area_size((y_area * kf).round() as u32);
        let names = labels.axis_names.clone().unwrap_or_default();
        let name = |k: usize, default: &str| {
            names
                .get(k)
                .filter(|n| !n.is_empty())
                .cloned()
                .unwrap_or_else(|| default.to_string())
        };
        let (x_name, y_name) = (name(0, "m"), name(1, "g(m)"));
        let g_line: Vec<(f64, f64)> = points.iter().map(|&(m, g)| (m as f64, g as f64)).collect();
        let reference: Vec<(f64, f64)> = reference_curve(m_min, m_max);
        let stroke = (line_width * kf).round() as u32;
        macro_rules! draw {
            ($chart:expr) => {{
                let mut chart = $chart;
                let mut mesh = chart.configure_mesh();
                if named {
                    mesh.x_desc(x_name.as_str()).y_desc(y_name.as_str());
                }
                if labels.ticks {
                    // As many numbers as fit without touching: a narrow chart gets fewer.
                    let plot_w = w - margin * 2.0 - y_area;
                    let plot_h = f64::from(height) - title_height - x_area - margin * 2.0;
                    mesh.x_labels(((plot_w / (label_size * 4.5)) as usize).clamp(3, 11))
                        .y_labels(((plot_h / (label_size * 2.5)) as usize).clamp(3, 11));
                } else {
                    mesh.x_labels(0).y_labels(0);
                }
                mesh.label_style(label_style.clone())
                    .axis_desc_style(name_style.clone())
                    .light_line_style(TRANSPARENT)
                    // Both log axes start at 1, at the same corner: its
                    // x number would sit on the y axis' 10⁰ at large sizes
                    // (a 1920 px slide), so the corner is numbered once.
                    .x_label_formatter(&|v| {
                        if log_scale && *v <= m_min {
                            String::new()
                        } else {
                            x_numbers.label(*v)
                        }
                    })
                    .y_label_formatter(&|v| y_numbers.label(*v))
                    .bold_line_style(RGBColor(0xD0, 0xD0, 0xD0).stroke_width(K / 2))
                    .axis_style(ink.stroke_width(K * 3 / 4))
                    .draw()
                    .map_err(chart_error)?;
                let key_length = (label_size * 1.6 * kf).round() as i32;
                for (points, color, label) in [(&reference, orange, "m²"), (&g_line, blue, "g(m)")]
                {
                    chart
                        .draw_series(LineSeries::new(
                            points.iter().copied(),
                            color.stroke_width(stroke),
                        ))
                        .map_err(chart_error)?
                        .label(label)
                        .legend(move |(x, y)| {
                            PathElement::new(
                                vec![(x, y), (x + key_length, y)],
                                color.stroke_width(stroke),
                            )
                        });
                }
                if g_line.len() <= 128 {
                    let radius = (line_width * 1.5 * kf).round() as i32;
                    chart
                        .draw_series(
                            g_line
                                .iter()
                                .map(|&p| Circle::new(p, radius, blue.filled())),
                        )
                        .map_err(chart_error)?;
                }
                if labels.key {
                    chart
                        .configure_series_labels()
                        .position(SeriesLabelPosition::UpperLeft)
                        .legend_area_size(key_length + (label_size * 0.8 * kf) as i32)
                        .margin((label_size * 0.8 * kf) as i32)
                        .label_font(key_style.clone())
                        .background_style(WHITE.mix(0.9))
                        .border_style(RGBColor(0xB0, 0xB0, 0xB0).stroke_width(K / 2))
                        .draw()
                        .map_err(chart_error)?;
                }
            }};
        }
        if log_scale {
            draw!(builder
                .build_cartesian_2d(
                    (m_min.max(1.0)..m_max).log_scale(),
                    (1.0..y_max * 1.5).log_scale()
                )
                .map_err(chart_error)?);
        } else {
            draw!(builder
                .build_cartesian_2d(m_min..m_max, 0.0..y_max * 1.05)
                .map_err(chart_error)?);
        }
        root.present().map_err(chart_error)?;
        drop(root);
        tag_roles(&mut scene, 0, &[&x_name, &y_name], &["m²", "g(m)"]);
    }
    scene.scale_down(K);
    if let Some((lines, size)) = title {
        for (k, line) in lines.into_iter().enumerate() {
            scene.push(
                TextItem::centered(
                    w / 2.0,
                    size * (1.0 + 1.25 * k as f64) + margin * 0.5,
                    line,
                    size,
                    Color::rgb(0x22, 0x22, 0x22),
                )
                .with_role(super::Role::Title),
            );
        }
    }
    Ok(scene)
}

/// Charts are drawn this many times larger, then scaled down: plotters rounds
/// every coordinate to a whole unit.
pub const OVERSAMPLE: u32 = 4;

/// The numbers of one axis, all in one notation: plain numbers when the axis
/// stays below a million, else multiples of a power of ten: one exponent for
/// the whole of a linear axis (`0`, `0.5×10¹²`, `1×10¹²`), each tick's own on a
/// logarithmic one (`10⁶`, `10⁹`). Negatives take U+2212.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisNumbers {
    /// `Some(e)`: every tick of a linear axis as a multiple of 10^e.
    common: Option<i32>,
    /// A logarithmic axis reaching a million: every tick as `m×10^k`.
    per_tick: bool,
}

impl AxisNumbers {
    /// The notation of an axis that ends at `max`.
    pub fn for_axis(max: f64, log_scale: bool) -> AxisNumbers {
        let large = max.abs() >= 1e6;
        AxisNumbers {
            common: (large && !log_scale).then(|| max.abs().log10().floor() as i32),
            per_tick: large && log_scale,
        }
    }

    /// The label of the tick at `value`.
    pub fn label(&self, value: f64) -> String {
        if value == 0.0 {
            return "0".into();
        }
        let exponent = match (self.common, self.per_tick) {
            (Some(e), _) => e,
            (None, true) => value.abs().log10().floor() as i32,
            (None, false) => return minus(plain_number(value)),
        };
        let mantissa = value / 10f64.powi(exponent);
        let power = format!("10{}", superscript(exponent));
        if self.per_tick && (mantissa - 1.0).abs() < 1e-9 {
            power
        } else {
            minus(format!("{}×{power}", plain_number(mantissa)))
        }
    }
}

/// A number as a reader writes it: whole numbers without a point, others with
/// at most two decimals.
fn plain_number(value: f64) -> String {
    if (value - value.round()).abs() < 1e-9 {
        format!("{}", value.round() as i64)
    } else {
        let text = format!("{value:.2}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// `text` with a leading hyphen turned into the minus sign U+2212.
fn minus(text: String) -> String {
    match text.strip_prefix('-') {
        Some(rest) => format!("\u{2212}{rest}"),
        None => text,
    }
}

/// `n` in superscript digits.
fn superscript(n: i32) -> String {
    n.to_string()
        .chars()
        .map(|d| match d {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹']
                [d.to_digit(10).unwrap_or(0) as usize],
        })
        .collect()
}

/// m² sampled geometrically, so it is smooth on linear and logarithmic axes alike.
fn reference_curve(from: f64, to: f64) -> Vec<(f64, f64)> {
    const SAMPLES: usize = 600;
    let (from, to) = (from.max(1.0), to.max(from.max(1.0)));
    (0..=SAMPLES)
        .map(|k| {
            let m = from * (to / from).powf(k as f64 / SAMPLES as f64);
            (m, m * m)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_axis_has_one_notation() {
        let linear = AxisNumbers::for_axis(1.05e12, false);
        let labels: Vec<String> = [0.0, 2e11, 5e11, 1e12]
            .iter()
            .map(|&v| linear.label(v))
            .collect();
        assert_eq!(labels, ["0", "0.2×10¹²", "0.5×10¹²", "1×10¹²"]);
        let log = AxisNumbers::for_axis(1.5e12, true);
        let labels: Vec<String> = [1.0, 1e3, 1e6, 3e9].iter().map(|&v| log.label(v)).collect();
        assert_eq!(labels, ["10⁰", "10³", "10⁶", "3×10⁹"]);
        let small = AxisNumbers::for_axis(999_999.0, true);
        assert_eq!(small.label(100_000.0), "100000");
        assert_eq!(small.label(-20.0), "\u{2212}20");
        assert_eq!(whole_tick(-40.0), "\u{2212}40");
        assert_eq!(whole_tick(0.5), "");
    }
}
