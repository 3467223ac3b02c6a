//! How big a sheet's panels are and how many go in a row, from the size a
//! figure asks for: a cell size, a panel size, or the whole width (the panels
//! then follow). The one idea: captions must not run into each other, so a
//! width without a column count takes fewer columns where the default would
//! crowd them, and a size whose captions cannot fit is refused, naming the
//! flag and what fits.

use crate::library::scene::board::{self, BoardStyle, PanelSize};
use crate::library::scene::layout::SheetLayout;
use crate::library::scene::units::{self, length_units, px_hint, Length};

/// The size a sheet asks for: at most one of `cell`, `panel` and `width`
/// (`--cell`, `--panel`, `--width`), and the panels per row if given.
#[derive(Debug, Clone, Copy, Default)]
pub struct SheetSize {
    /// The size of a cell.
    pub cell: Option<Length>,
    /// The size of every panel.
    pub panel: Option<Length>,
    /// The whole figure's width as given (for messages) and in scene units,
    /// already checked where the style was made ([`BoardStyle::width`]).
    pub width: Option<(Length, u32)>,
    /// Panels per row.
    pub columns: Option<usize>,
}

impl SheetSize {
    /// The panel size asked for, if any, in scene units, and the panels per row;
    /// `boards` is the number of panels, `captions` their captions, `lines`
    /// the lines under them (set at the key's size). A `width`
    /// without `columns` takes fewer columns than the default where the
    /// captions would run into each other; sizes whose captions cannot fit are
    /// refused, naming what fits. Errors name the flag and the range that works.
    pub fn fit(
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
            .columns
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
            return Ok((Some(PanelSize::Cell(cell)), self.columns));
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
            return Ok((Some(PanelSize::Panel(units)), self.columns));
        }
        let Some((width, width_units)) = self.width else {
            return Ok((None, self.columns));
        };
        let given = self.columns;
        let most = given
            .unwrap_or_else(|| SheetLayout::default_columns(boards))
            .min(boards.max(1));
        let panel_for = |columns: usize| {
            SheetLayout::panel_width_for(width_units, columns, style.gap, style.margin)
        };
        let panel = panel_for(most);
        // The refusal when the panels come out under 4 units: the width that would do.
        let too_narrow = || {
            let columns = most as u32;
            let smallest = 2 * style.margin + 4 * columns + style.gap * (columns - 1);
            crate::Error::invalid_parameter("width", format!(
                "`width` {width} leaves {panel} {unit} per panel for {columns} column(s) after margins and gaps; give `width` {smallest} {unit} or more, fewer `columns` or a smaller `gap` / `margin`{}",
                px_hint(width, print)
            ))
        };
        if panel < 4 && given.is_some() {
            return Err(too_narrow());
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
                    return Err(too_narrow());
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
}

/// The width of `text` at `size` in `style`'s typeface.
fn widest_of(style: &BoardStyle, text: &str, size: f64) -> f64 {
    crate::library::scene::font::text_width_in(style.print.font, text, size)
}
