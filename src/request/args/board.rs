//! The style flags of board figures (square sheets, automaton frames):
//! colours, sizes, spacing and captions, validated into a [`BoardStyle`].

use super::captions::{parse_caption, parse_caption_size};
use super::lengths::{parse_size, parse_spacing, spacing};
use super::print::PrintArgs;
use crate::library::scene::board::{BoardStyle, GridLines, PanelSize};
use crate::library::scene::sheet_size::SheetSize;
use crate::library::scene::units::{length_units, Length};
use crate::library::scene::Color;
use clap::{Args, ValueEnum};

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
    /// The validated style, printed as `print` says. Margin, gap and width are
    /// checked here once, in scene units under that print.
    pub fn style_printed(&self, print: &PrintArgs) -> crate::Result<BoardStyle> {
        let print = print.style(&self.lengths(), self.width);
        let (margin, gap) = spacing(self.margin, self.gap, print.print)?;
        let width = self
            .width
            .map(|w| length_units("`width`", w, print.print, 1..=65535))
            .transpose()?;
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
            margin,
            gap,
            captions: !self.no_caption,
            caption_size: self.caption_size,
            caption_color: crate::library::scene::color::INK,
            print,
            title: self.caption.clone(),
            width,
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

    /// The size flags, for [`PrintArgs::style`].
    pub fn lengths(&self) -> [Option<Length>; 3] {
        [self.cell, self.panel, self.width]
    }

    /// The panel size and panels per row of a sheet in `style` (made by
    /// [`BoardStyleArgs::style_printed`], which checked the width): the scene's
    /// [`SheetSize::fit`] of these flags.
    pub fn layout(
        &self,
        boards: usize,
        style: &BoardStyle,
        captions: &[String],
        lines: &[String],
    ) -> crate::Result<(Option<PanelSize>, Option<usize>)> {
        SheetSize {
            cell: self.cell,
            panel: self.panel,
            width: self.width.zip(style.width),
            columns: self.columns.map(usize::from),
        }
        .fit(boards, style, captions, lines)
    }
}
