//! What a Grundy figure is: the game, its box, the slice and the looks, checked
//! against each other before any solving ([`GrundyFigure::validate`]).

use crate::games::{GameBox, GameSpec, Solution};
use crate::library::encode::Format;
use crate::library::scene::ramp::Palette;
use crate::Control;
use crate::{Error, Result};

/// The most rows or columns a Grundy table may have: beyond this the numbers
/// in the cells are no longer something to read (write `.csv` instead).
pub const MAX_TABLE_SIDE: usize = 256;
/// The most points a 3D plot draws.
pub const MAX_PLOT_POINTS: usize = 1_000_000;
/// The most cells (rows x columns) of the sieve plot's grid.
pub const MAX_SIEVE_CELLS: u64 = 64 << 20;

/// What a `.png` / `.svg` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrundyPlot {
    /// The Grundy table of two free coordinates: first down the rows, second across.
    Table,
    /// The P-positions of three free coordinates as a 3D point cloud.
    Points3d,
    /// The P-positions of three free coordinates `(a, b, c)` projected to `(b, a - c)`:
    /// `(y, x - z)`, the Sierpinski sieve of Miyadera et al. III.
    Sieve,
    /// The P-positions of two free coordinates as points (one cell each).
    Points,
}

/// How a Grundy table looks.
#[derive(Clone, Debug, PartialEq)]
pub struct TableStyle {
    /// Cells are coloured by value mod this (the papers: 3); 1..=8.
    pub modulus: u32,
    /// The class colours.
    pub palette: Palette,
    /// Pixels per cell; `None` fits the widest number.
    pub cell: Option<u32>,
    /// A title line above the table.
    pub title: bool,
    /// A colour key below the table (removable on its own: `--no-key`).
    pub key: bool,
    /// The title instead of the default (game and box).
    pub caption: Option<String>,
    /// Width of the whole figure in scene units: the cell size follows.
    pub width: Option<u32>,
    /// Resolution, paper size, typeface and text handling.
    pub print: crate::library::scene::units::PrintStyle,
}

impl Default for TableStyle {
    fn default() -> Self {
        TableStyle {
            modulus: 3,
            palette: Palette::Paper,
            cell: None,
            title: true,
            key: true,
            caption: None,
            width: None,
            print: Default::default(),
        }
    }
}

/// Size and view of the plots (3D points and sieve).
#[derive(Clone, Debug, PartialEq)]
pub struct PlotView {
    /// Rotation about the vertical axis, degrees.
    pub azimuth: f64,
    /// Tilt towards the viewer, degrees in -90..=90.
    pub elevation: f64,
    /// Image width in pixels.
    pub width: u32,
    /// The width was asked for (`--width`): a plot that could be narrower keeps it.
    pub width_asked: bool,
    /// Image height in pixels.
    pub height: u32,
    /// The height was asked for (`--height`): the page is then exactly that
    /// tall, the figure centred in it, or refused naming the height it needs.
    pub height_asked: bool,
    /// The height asked in PDF points, on paper: the page's height exactly (the
    /// layout rounds it to whole points).
    pub height_pt: Option<f64>,
    /// Cell plots (sieve, points): a cell's height over its width when asked
    /// (`--aspect 1`: square cells, one scale up and across). `None` lets the
    /// plot take the whole width: square cells when the page may grow to hold
    /// them, else cells as tall as the height allows.
    pub aspect: Option<f64>,
    /// Title, axis names, ticks and key. An empty caption or axis name means
    /// the default one.
    pub labels: crate::library::scene::chart::ChartLabels,
    /// The width whose type scale sets the text, when the plot is a panel of a
    /// wider sheet: a panel's ticks are the sheet's size, not a small figure's.
    pub type_width: Option<u32>,
    /// The least span of a P-position plot's axes, `(across, lowest up,
    /// highest up)`: the panels of a sheet at one scale share their axes.
    pub common_extent: Option<(i64, i64, i64)>,
}

impl Default for PlotView {
    fn default() -> Self {
        PlotView {
            azimuth: -60.0,
            elevation: 20.0,
            width: 900,
            width_asked: false,
            height: 720,
            height_asked: false,
            height_pt: None,
            aspect: None,
            labels: crate::library::scene::chart::ChartLabels {
                caption: Some(String::new()),
                caption_size: None,
                font_size: None,
                axis_names: Some(Vec::new()),
                ticks: true,
                key: true,
            },
            type_width: None,
            common_extent: None,
        }
    }
}

/// Coordinates fixed to one value each, e.g. `z=5` or `x3=2,x4=1`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Slice(pub Vec<(String, u32)>);

impl std::str::FromStr for Slice {
    type Err = Error;

    /// Parses `NAME=VALUE` pairs separated by commas.
    fn from_str(s: &str) -> Result<Slice> {
        let mut fixed = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let parsed = part
                .split_once('=')
                .and_then(|(name, v)| Some((name.trim(), v.trim().parse::<u32>().ok()?)));
            match parsed {
                Some((name, v)) if !name.is_empty() => fixed.push((name.to_string(), v)),
                _ => {
                    return Err(Error::invalid_parameter("slice", format!(
                        "`slice`: '{part}' is not NAME=VALUE; write e.g. `slice` z=5 or `slice` x3=2,x4=1"
                    )))
                }
            }
        }
        if fixed.is_empty() {
            return Err(Error::invalid_parameter(
                "slice",
                "`slice`: nothing given; write e.g. `slice` z=5",
            ));
        }
        Ok(Slice(fixed))
    }
}

impl std::fmt::Display for Slice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        f.write_str(&parts.join(", "))
    }
}

/// A game on a box, and what to write of it.
#[derive(Clone, Debug)]
pub struct GrundyFigure {
    /// The game.
    pub game: GameSpec,
    /// The box it is solved in.
    pub game_box: GameBox,
    /// What a `.png` / `.svg` shows; `None`: a table for two free coordinates,
    /// a 3D point plot for three.
    pub plot: Option<GrundyPlot>,
    /// Coordinates held fixed in tables, plots and data.
    pub slice: Slice,
    /// Data files list only the P-positions.
    pub p_only: bool,
    /// How tables look.
    pub table: TableStyle,
    /// How plots look.
    pub view: PlotView,
    /// Refuse work that would need more bytes than this.
    pub memory_limit: u64,
}

/// The box, the free coordinates and the slice, resolved against the game.
pub(super) struct Frame {
    pub(super) names: Vec<String>,
    pub(super) bounds: Vec<u32>,
    /// `Some(v)` where the slice fixes the coordinate.
    pub(super) fixed: Vec<Option<u32>>,
    pub(super) free: Vec<usize>,
}

impl Frame {
    /// True when no coordinate is fixed: the figure is the whole box.
    pub(super) fn is_whole_box(&self) -> bool {
        self.free.len() == self.names.len()
    }

    pub(super) fn matches(&self, p: &[u32]) -> bool {
        p.iter().zip(&self.fixed).all(|(c, f)| match f {
            Some(v) => v == c,
            None => true,
        })
    }

    /// The tuple with the free coordinates set to `values`.
    pub(super) fn point(&self, values: &[u32]) -> Vec<u32> {
        let mut p: Vec<u32> = self.fixed.iter().map(|f| f.unwrap_or(0)).collect();
        for (&d, &v) in self.free.iter().zip(values) {
            p[d] = v;
        }
        p
    }

    pub(super) fn describe_box(&self) -> String {
        let parts: Vec<String> = self
            .names
            .iter()
            .zip(&self.bounds)
            // A no-break space: a wrapped title keeps each name with its range.
            .map(|(n, b)| format!("{}\u{a0}0..{b}", super::names::subscripted(n)))
            .collect();
        parts.join(", ")
    }
}

impl GrundyFigure {
    /// A figure of `game` on `game_box` with every other setting at its default.
    pub fn new(game: GameSpec, game_box: GameBox) -> Self {
        GrundyFigure {
            game,
            game_box,
            plot: None,
            slice: Slice::default(),
            p_only: false,
            table: TableStyle::default(),
            view: PlotView::default(),
            memory_limit: crate::error::DEFAULT_MEMORY_LIMIT,
        }
    }

    pub(super) fn frame(&self) -> Result<Frame> {
        let names = self.game.coordinate_names();
        let bounds = self.game.resolve_box(&self.game_box)?;
        let mut fixed = vec![None; names.len()];
        for (name, v) in &self.slice.0 {
            let Some(d) = names.iter().position(|n| n == name) else {
                return Err(Error::invalid_parameter(
                    "slice",
                    format!(
                        "`slice`: {} has no coordinate '{name}'; its coordinates are {}",
                        self.game.name(),
                        names.join(", ")
                    ),
                ));
            };
            if fixed[d].is_some() {
                return Err(Error::invalid_parameter(
                    "slice",
                    format!("`slice`: '{name}' is fixed twice"),
                ));
            }
            if *v > bounds[d] {
                return Err(Error::invalid_parameter(
                    "slice",
                    format!(
                        "`slice`: {name} = {v} is outside the box ({name} runs over 0..{})",
                        bounds[d]
                    ),
                ));
            }
            fixed[d] = Some(*v);
        }
        let free = (0..names.len()).filter(|&d| fixed[d].is_none()).collect();
        Ok(Frame {
            names,
            bounds,
            fixed,
            free,
        })
    }

    /// Checks the parameters, before anything is solved.
    pub fn validate(&self) -> Result<()> {
        self.frame()?;
        if !(1..=8).contains(&self.table.modulus) {
            return Err(Error::invalid_parameter("color-classes", format!(
                "`color-classes` {} is out of range; tables colour by value mod 1..8 (the papers use 3)",
                self.table.modulus
            )));
        }
        self.table.palette.check(u64::from(self.table.modulus))?;
        if let Some(cell) = self.table.cell {
            if !(8..=200).contains(&cell) {
                return Err(Error::invalid_parameter(
                    "cell",
                    format!("`cell` {cell} is out of range; give 8..200 px (or pt on paper)"),
                ));
            }
        }
        let v = &self.view;
        crate::library::scene::check_view_angles(v.azimuth, v.elevation)?;
        // A table's cells decide its width (and it says what fits); a plot
        // needs room for its axes.
        if matches!(self.resolved_plot(), Ok(GrundyPlot::Table)) {
            return Ok(());
        }
        let on_paper = self.table.print.print.dpi.is_some();
        for (what, units, least) in [("`width`", v.width, 120), ("`height`", v.height, 64)] {
            if !(least..=8000).contains(&units) {
                let shown = |u: u32| {
                    if on_paper {
                        let mm = (f64::from(u) / 72.0 * 25.4 * 10.0).ceil() / 10.0;
                        format!(
                            "{} mm ({u} pt)",
                            crate::library::scene::units::trim_number(mm)
                        )
                    } else {
                        format!("{u} px")
                    }
                };
                return Err(Error::invalid_marked(
                    what,
                    format!(
                        "{what} {} is out of range for a plot; give {what} {} to {}",
                        shown(units),
                        shown(least),
                        shown(8000)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The picture a `.png` / `.svg` shows, checked against the free coordinates.
    pub fn resolved_plot(&self) -> Result<GrundyPlot> {
        let frame = self.frame()?;
        let free = frame.free.len();
        let plot = match self.plot {
            Some(plot) => plot,
            None if free == 2 => GrundyPlot::Table,
            None if free == 3 => GrundyPlot::Points3d,
            None => {
                // Too many free coordinates: name one to fix; too few: fix fewer.
                let hint = match frame.free.first() {
                    Some(&d) if free > 3 => {
                        format!(
                            "fix the others with `slice`, e.g. `slice` {}=0",
                            frame.names[d]
                        )
                    }
                    _ => "fix fewer of them with `slice`".to_string(),
                };
                return Err(Error::unsupported(format!(
                    "{} has {free} free coordinates ({}); a table needs 2 and a point plot 3: {hint}",
                    self.game.name(),
                    if free == 0 { "none".to_string() } else { free_names(&frame) },
                )));
            }
        };
        let (needed, what) = match plot {
            GrundyPlot::Table => (2, "a table"),
            GrundyPlot::Points3d => (3, "a 3D point plot"),
            GrundyPlot::Sieve => (3, "the sieve projection"),
            GrundyPlot::Points => (2, "a plot of P-positions"),
        };
        if free != needed {
            let hint = if free > needed {
                format!(
                    "fix {} of them with `slice`, e.g. `slice` {}=0",
                    free - needed,
                    frame.names[*frame.free.last().unwrap_or(&0)]
                )
            } else {
                "fix fewer with `slice`".to_string()
            };
            return Err(Error::unsupported(format!(
                "{what} needs {needed} free coordinates; {} has {free} ({}) here: {hint}",
                self.game.name(),
                free_names(&frame)
            )));
        }
        if plot == GrundyPlot::Table {
            let (rows, cols) = (
                frame.bounds[frame.free[0]] as usize + 1,
                frame.bounds[frame.free[1]] as usize + 1,
            );
            if rows > MAX_TABLE_SIDE || cols > MAX_TABLE_SIDE {
                return Err(Error::unsupported(format!(
                    "a Grundy table of {rows} x {cols} cells is too large to read (at most \
                     {MAX_TABLE_SIDE} per side); use a smaller `box`, or write the values as .csv / .json"
                )));
            }
        }
        if plot == GrundyPlot::Points {
            // In u128: two sides of 2^32 make 2^64, one past u64.
            let cells = (u128::from(frame.bounds[frame.free[0]]) + 1)
                * (u128::from(frame.bounds[frame.free[1]]) + 1);
            if cells > u128::from(MAX_SIEVE_CELLS) {
                return Err(Error::unsupported(format!(
                    "a plot of P-positions of this box has {cells} cells, over the {MAX_SIEVE_CELLS} a plot draws; use a smaller `box`"
                )));
            }
        }
        if plot == GrundyPlot::Sieve {
            let (a, b, c) = (
                frame.bounds[frame.free[0]],
                frame.bounds[frame.free[1]],
                frame.bounds[frame.free[2]],
            );
            let cells = (u128::from(b) + 1) * (u128::from(a) + u128::from(c) + 1);
            if cells > u128::from(MAX_SIEVE_CELLS) {
                return Err(Error::unsupported(format!(
                    "the sieve projection of this box has {cells} cells, over the {MAX_SIEVE_CELLS} a plot draws; use a smaller `box`"
                )));
            }
        }
        Ok(plot)
    }

    /// Refuses, before any work, a format that cannot show this figure.
    pub(super) fn check_format(&self, format: Format) -> Result<()> {
        if format == Format::Npy && self.p_only {
            return Err(Error::unsupported(
                "`p-only` selects rows of .csv / .json data; a .npy array holds the whole box (P-positions are its zeros)",
            ));
        }
        if format == Format::Tex {
            if self.resolved_plot()? != GrundyPlot::Table {
                return Err(Error::unsupported(
                    "a .tex file is the table of two free coordinates (`plot` table); draw the other plots as .pdf or .svg",
                ));
            }
            if self.p_only {
                return Err(Error::unsupported(
                    "`p-only` selects rows of .csv / .json data; a .tex table shows every value",
                ));
            }
        }
        if format.is_image() {
            if self.p_only {
                return Err(Error::unsupported(
                    "`p-only` selects rows of .csv / .json data; plots of P-positions are `plot` points3d or sieve",
                ));
            }
            self.resolved_plot()?;
        }
        Ok(())
    }

    /// Solves the game on the box (refused with an estimate over the memory limit).
    pub(super) fn solve(&self, control: &Control) -> Result<Solution> {
        self.game.solve(&self.game_box, self.memory_limit, control)
    }

    /// The positions (and values) inside the slice, lexicographic.
    pub(super) fn rows<'a>(
        &'a self,
        solution: &'a Solution,
        frame: &'a Frame,
    ) -> impl Iterator<Item = (Vec<u32>, u16)> + 'a {
        solution.positions_where(move |p, v| (!self.p_only || v == 0) && frame.matches(p))
    }
}

pub(super) fn free_names(frame: &Frame) -> String {
    frame
        .free
        .iter()
        .map(|&d| frame.names[d].as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
