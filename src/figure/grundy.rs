//! Grundy figures: a game on a box, written as data (CSV, JSON), as a Grundy
//! table coloured by value mod 3 (Miyadera web book, Figures 7.9, 7.14), as a
//! 3D point plot of P-positions (the ListPointPlot3D of Miyadera et al. III;
//! Okubo, Kashiwagi, Niida, Figures 6–7) or as the `(y, x - z)` projection
//! that shows the Sierpinski sieve.
//!
//! A [`GrundyFigure`] is a validated spec that the CLI (and later recipes)
//! fill in. The one idea: every picture is drawn from *free coordinates* —
//! the game's coordinates minus those a [`Slice`] fixes — so a table needs
//! two of them and a point plot three, whatever the game.

use std::io::Write;

use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use plotters::style::Color as _;

use crate::encode::{self, npy, Format, Metadata};
use crate::error::check_memory;
use crate::figure::square::{SquareFigure, SquareMode};
use crate::font;
use crate::games::nim_pass::square_board;
use crate::games::{GameBox, GameSpec, Solution};
use crate::scene::board::{BoardPanel, BoardStyle, LegendEntry};
use crate::scene::chart::{chart_error, SceneBackend};
use crate::scene::color::{ink_on, okabe_ito, INK};
use crate::scene::legend::{draw_key, key_rows};
use crate::scene::ramp::Palette;
use crate::scene::units::MIN_TEXT_PT;
use crate::scene::{CellLayer, Color, HAlign, Item, PathItem, PixelRect, Scene, TextItem, VAlign};
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
    /// A title line above and a colour key below the table.
    pub title: bool,
    /// The title instead of the default (game and box).
    pub caption: Option<String>,
    /// Width of the whole figure in scene units: the cell size follows.
    pub width: Option<u32>,
    /// Resolution, paper size, typeface and text handling.
    pub print: crate::scene::units::PrintStyle,
}

impl Default for TableStyle {
    fn default() -> Self {
        TableStyle {
            modulus: 3,
            palette: Palette::Paper,
            cell: None,
            title: true,
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
    /// Image height in pixels.
    pub height: u32,
    /// Title, axis names, ticks and key. An empty caption or axis name means
    /// the default one.
    pub labels: crate::scene::chart::ChartLabels,
}

impl Default for PlotView {
    fn default() -> Self {
        PlotView {
            azimuth: -60.0,
            elevation: 20.0,
            width: 900,
            height: 720,
            labels: crate::scene::chart::ChartLabels {
                caption: Some(String::new()),
                caption_size: None,
                font_size: None,
                axis_names: Some(Vec::new()),
                ticks: true,
                key: true,
            },
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
                    return Err(Error::invalid(format!(
                        "`slice`: '{part}' is not NAME=VALUE; write e.g. `slice` z=5 or `slice` x3=2,x4=1"
                    )))
                }
            }
        }
        if fixed.is_empty() {
            return Err(Error::invalid(
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
struct Frame {
    names: Vec<String>,
    bounds: Vec<u32>,
    /// `Some(v)` where the slice fixes the coordinate.
    fixed: Vec<Option<u32>>,
    free: Vec<usize>,
}

impl Frame {
    /// True when no coordinate is fixed: the figure is the whole box.
    fn is_whole_box(&self) -> bool {
        self.free.len() == self.names.len()
    }

    fn matches(&self, p: &[u32]) -> bool {
        p.iter().zip(&self.fixed).all(|(c, f)| match f {
            Some(v) => v == c,
            None => true,
        })
    }

    /// The tuple with the free coordinates set to `values`.
    fn point(&self, values: &[u32]) -> Vec<u32> {
        let mut p: Vec<u32> = self.fixed.iter().map(|f| f.unwrap_or(0)).collect();
        for (&d, &v) in self.free.iter().zip(values) {
            p[d] = v;
        }
        p
    }

    fn describe_box(&self) -> String {
        let parts: Vec<String> = self
            .names
            .iter()
            .zip(&self.bounds)
            .map(|(n, b)| format!("{n} 0..{b}"))
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

    fn frame(&self) -> Result<Frame> {
        let names = self.game.coordinate_names();
        let bounds = self.game.resolve_box(&self.game_box)?;
        let mut fixed = vec![None; names.len()];
        for (name, v) in &self.slice.0 {
            let Some(d) = names.iter().position(|n| n == name) else {
                return Err(Error::invalid(format!(
                    "`slice`: {} has no coordinate '{name}'; its coordinates are {}",
                    self.game.name(),
                    names.join(", ")
                )));
            };
            if fixed[d].is_some() {
                return Err(Error::invalid(format!("`slice`: '{name}' is fixed twice")));
            }
            if *v > bounds[d] {
                return Err(Error::invalid(format!(
                    "`slice`: {name} = {v} is outside the box ({name} runs over 0..{})",
                    bounds[d]
                )));
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
            return Err(Error::invalid(format!(
                "`color-classes` {} is out of range; tables colour by value mod 1..8 (the papers use 3)",
                self.table.modulus
            )));
        }
        self.table.palette.check(u64::from(self.table.modulus))?;
        if let Some(cell) = self.table.cell {
            if !(8..=200).contains(&cell) {
                return Err(Error::invalid(format!(
                    "`cell` {cell} is out of range; give 8..200 px (or pt on paper)"
                )));
            }
        }
        let v = &self.view;
        crate::scene::check_view_angles(v.azimuth, v.elevation)?;
        for (what, px) in [("`width`", v.width), ("`height`", v.height)] {
            if !(120..=8000).contains(&px) {
                return Err(Error::invalid(format!(
                    "{what} {px} is out of range; give 120..8000 px (1.7 in to 111 in on paper)"
                )));
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
        if plot == GrundyPlot::Sieve {
            let (a, b, c) = (
                frame.bounds[frame.free[0]],
                frame.bounds[frame.free[1]],
                frame.bounds[frame.free[2]],
            );
            let cells = (u64::from(b) + 1) * (u64::from(a) + u64::from(c) + 1);
            if cells > MAX_SIEVE_CELLS {
                return Err(Error::unsupported(format!(
                    "the sieve projection of this box has {cells} cells, over the {MAX_SIEVE_CELLS} a plot draws; use a smaller `box`"
                )));
            }
        }
        Ok(plot)
    }

    /// Refuses, before any work, a format that cannot show this figure.
    pub fn check_format(&self, format: Format) -> Result<()> {
        self.validate()?;
        if format == Format::Npy && self.p_only {
            return Err(Error::unsupported(
                "`p-only` selects rows of .csv / .json data; a .npy array holds the whole box (P-positions are its zeros)",
            ));
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
    pub fn solve(&self) -> Result<Solution> {
        self.validate()?;
        self.game.solve(&self.game_box, self.memory_limit)
    }

    /// Writes the figure of an already solved game (from [`GrundyFigure::solve`]).
    pub fn write_solved(
        &self,
        solution: &Solution,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
    ) -> Result<()> {
        match format {
            Format::Csv => self.write_csv(solution, out).map_err(Error::write_failed),
            Format::Json => self.write_json(solution, out).map_err(Error::write_failed),
            Format::Npy => self.write_npy(solution, out),
            _ => encode::write_scene_to(
                out,
                format,
                &self.scene(solution)?,
                metadata,
                self.memory_limit,
            ),
        }
    }

    /// The picture of a solved game.
    pub fn scene(&self, solution: &Solution) -> Result<Scene> {
        let plot = self.resolved_plot()?;
        let frame = self.frame()?;
        match plot {
            GrundyPlot::Table => self.table_scene(solution, &frame),
            GrundyPlot::Points3d => self.points_scene(solution, &frame),
            GrundyPlot::Sieve => self.sieve_scene(solution, &frame),
        }
    }

    /// The positions (and values) inside the slice, lexicographic.
    fn rows<'a>(
        &'a self,
        solution: &'a Solution,
        frame: &'a Frame,
    ) -> impl Iterator<Item = (Vec<u32>, u16)> + 'a {
        solution.positions_where(move |p, v| (!self.p_only || v == 0) && frame.matches(p))
    }

    /// The `.npy` array's size, at most: two bytes per tuple of the free coordinates
    /// (a capped game's `y` axis stops at its tallest column, see
    /// [`Solution::data_shape`]).
    pub fn npy_bytes(&self) -> Result<u64> {
        let frame = self.frame()?;
        let shape = self.game.data_shape_bound(&self.game_box)?;
        let cells = frame
            .free
            .iter()
            .fold(1u64, |n, &d| n.saturating_mul(shape[d]));
        Ok(npy::file_bytes(cells, 2))
    }

    /// Solves the game and writes the whole box as `.npy` on the way (see
    /// [`GameSpec::solve_streamed`]): the first slabs reach the disk while the last
    /// are still being solved.
    fn solve_to_npy(&self, out: &mut dyn Write) -> Result<Solution> {
        self.validate()?;
        let out = std::cell::RefCell::new(out);
        self.game.solve_streamed(
            &self.game_box,
            self.memory_limit,
            |shape| {
                npy::write_header(&mut **out.borrow_mut(), "<u2", shape)
                    .map_err(Error::write_failed)
            },
            &mut |bytes| {
                out.borrow_mut()
                    .write_all(bytes)
                    .map_err(Error::write_failed)
            },
        )
    }

    /// The box as a `uint16` array, one axis per free coordinate (in the game's
    /// order, a capped game's `y` up to its tallest column), [`crate::games::OUTSIDE`]
    /// (65535) where a tuple is not a position.
    fn write_npy(&self, solution: &Solution, out: &mut dyn Write) -> Result<()> {
        let frame = self.frame()?;
        let data = solution.data_shape();
        let shape: Vec<u64> = frame.free.iter().map(|&d| data[d]).collect();
        npy::write_header(out, "<u2", &shape).map_err(Error::write_failed)?;
        let mut le = npy::LeWriter::new();
        if frame.is_whole_box() {
            // Little-endian slabs straight from the solution, built in parallel while
            // the previous ones are written.
            return solution
                .for_each_le_slab(|bytes| out.write_all(bytes).map_err(Error::write_failed));
        }
        // A slice: walk the free coordinates, the fixed ones set, last fastest.
        let mut p: Vec<u32> = frame.fixed.iter().map(|f| f.unwrap_or(0)).collect();
        let last = frame.free.last().copied();
        let row_len = last.map_or(1, |d| data[d] as usize);
        let mut row = Vec::with_capacity(row_len);
        loop {
            row.clear();
            for v in 0..row_len {
                if let Some(d) = last {
                    p[d] = v as u32;
                }
                row.push(solution.get(&p).unwrap_or(crate::games::OUTSIDE));
            }
            le.u16s(out, &row).map_err(Error::write_failed)?;
            // Odometer over the other free coordinates.
            let mut carried = true;
            for &d in frame.free.iter().rev().skip(1) {
                if u64::from(p[d]) + 1 < data[d] {
                    p[d] += 1;
                    carried = false;
                    break;
                }
                p[d] = 0;
            }
            if carried {
                return Ok(());
            }
        }
    }

    fn write_csv(&self, solution: &Solution, out: &mut dyn Write) -> std::io::Result<()> {
        let frame = self.frame().map_err(std::io::Error::other)?;
        let mut header = frame.names.join(",");
        if !self.p_only {
            header.push_str(",grundy");
        }
        writeln!(out, "{header}")?;
        let mut line = String::new();
        for (p, v) in self.rows(solution, &frame) {
            line.clear();
            for c in &p {
                push_number(&mut line, u64::from(*c));
                line.push(',');
            }
            if self.p_only {
                line.pop();
            } else {
                push_number(&mut line, u64::from(v));
            }
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// `{"game", "coordinates", "box", ["slice"], "count", "positions" | "p_positions"}`;
    /// a position is its coordinates followed by its Grundy value, a P-position
    /// its coordinates. Streamed: any box that solves can be written.
    fn write_json(&self, solution: &Solution, out: &mut dyn Write) -> std::io::Result<()> {
        let frame = self.frame().map_err(std::io::Error::other)?;
        let count = self.rows(solution, &frame).count();
        let head = serde_json::json!({
            "game": self.game.name(),
            "coordinates": frame.names,
            "box": frame.bounds,
        });
        let head = serde_json::to_string(&head).map_err(std::io::Error::other)?;
        // Reopen the object to append the streamed list.
        write!(out, "{},", head.trim_end_matches('}'))?;
        if !self.slice.0.is_empty() {
            let slice: serde_json::Map<String, serde_json::Value> = self
                .slice
                .0
                .iter()
                .map(|(n, v)| (n.clone(), serde_json::Value::from(*v)))
                .collect();
            write!(out, "\"slice\":{},", serde_json::Value::Object(slice))?;
        }
        let key = if self.p_only {
            "p_positions"
        } else {
            "positions"
        };
        write!(out, "\"count\":{count},\"{key}\":[")?;
        let mut line = String::new();
        for (i, (p, v)) in self.rows(solution, &frame).enumerate() {
            line.clear();
            if i > 0 {
                line.push(',');
            }
            line.push('[');
            for (k, c) in p.iter().enumerate() {
                if k > 0 {
                    line.push(',');
                }
                push_number(&mut line, u64::from(*c));
            }
            if !self.p_only {
                line.push(',');
                push_number(&mut line, u64::from(v));
            }
            line.push(']');
            out.write_all(line.as_bytes())?;
        }
        writeln!(out, "]}}")
    }

    fn caption(&self, frame: &Frame) -> String {
        if self.slice.0.is_empty() {
            self.game.name()
        } else {
            format!("{}, {}", self.game.name(), self.slice)
        }
        .replace("k=", "k = ")
        .replace("h=", "h = ")
        .replace("heaps=", "heaps = ")
            + &format!(" (box {})", frame.describe_box())
    }

    /// The table of the Miyadera web book (Figures 7.9, 7.14): a header row and
    /// column of coordinate values on grey
    /// 0.75, cells outside the game on grey 0.87, every value printed in its
    /// cell on the colour of its class mod the modulus.
    fn table_scene(&self, solution: &Solution, frame: &Frame) -> Result<Scene> {
        let (dr, dc) = (frame.free[0], frame.free[1]);
        let (box_rows, box_cols) = (frame.bounds[dr] as usize + 1, frame.bounds[dc] as usize + 1);
        let box_values: Vec<Option<u16>> = (0..box_rows * box_cols)
            .map(|i| solution.get(&frame.point(&[(i / box_cols) as u32, (i % box_cols) as u32])))
            .collect();
        // Rows and columns wholly outside the game say nothing: the table keeps the
        // rectangle of the box that holds positions (all of it when none does).
        let (row_span, col_span) = game_span(&box_values, box_cols);
        let (first_row, first_col) = (*row_span.start(), *col_span.start());
        let (rows, cols) = (row_span.clone().count(), col_span.clone().count());
        let values: Vec<Option<u16>> = row_span
            .flat_map(|r| col_span.clone().map(move |k| (r, k)))
            .map(|(r, k)| box_values[r * box_cols + k])
            .collect();
        let digits = |n: u64| n.to_string().len();
        let widest = values
            .iter()
            .flatten()
            .map(|&v| digits(u64::from(v)))
            .chain([
                digits((first_row + rows) as u64 - 1),
                digits((first_col + cols) as u64 - 1),
            ])
            .max()
            .unwrap_or(1);
        let margin = 16u32;
        // Numbers take at most 80% of a cell's width and half its height; a cell
        // that would print them under the 6 pt floor is refused, saying what fits.
        let sample: String = "0".repeat(widest);
        let number_size = |c: f64| (c * 0.5).min(c * 0.8 / font::text_width(&sample, 1.0));
        let min_cell = (1..=400)
            .find(|&c| number_size(f64::from(c)) >= MIN_TEXT_PT)
            .unwrap_or(400);
        let cell = match (self.table.cell, self.table.width) {
            (Some(cell), _) => cell,
            (None, Some(width)) => width.saturating_sub(2 * margin) / (cols as u32 + 1),
            (None, None) => match widest {
                0..=2 => 28,
                3 => 34,
                4 => 42,
                _ => 50,
            },
        };
        if cell < min_cell {
            let need = min_cell * (cols as u32 + 1) + 2 * margin;
            let (flag, have) = match (self.table.cell, self.table.width) {
                (Some(c), _) => ("`cell`", format!("{c}")),
                (None, Some(w)) => ("`width`", format!("{w} pt")),
                _ => ("`cell`", format!("{cell}")),
            };
            return Err(Error::invalid(format!(
                "{flag} {have} gives {cell} pt cells, too small for {widest}-digit numbers at the {MIN_TEXT_PT} pt minimum; give `cell` {min_cell}pt or more (a width of at least {need} pt = {:.0} mm for {} columns), or a smaller `box`",
                f64::from(need) / 72.0 * 25.4,
                cols + 1
            )));
        }
        let c = f64::from(cell);
        let text_size = number_size(c);

        let classes = self.table.modulus as usize;
        let mut palette: Vec<Color> = self.table.palette.class_colors(self.table.modulus)?;
        let header = palette.len() as u8;
        palette.push(Color::gray(0.75));
        let outside = palette.len() as u8;
        palette.push(Color::gray(0.87));
        let corner = palette.len() as u8;
        palette.push(Color::WHITE);

        let table_w = (cols as u32 + 1) * cell;
        let table_h = (rows as u32 + 1) * cell;
        // The words fit the table, not the other way round: a narrow table gets a
        // wrapped title and a key in several rows, never a canvas wider than itself
        // (down to 200 units, the room two lines of title need).
        let inner_w = match self.table.width {
            Some(width) => width.saturating_sub(2 * margin).max(table_w),
            None => table_w.max(200),
        };
        let room = f64::from(inner_w);
        let title = self
            .table
            .caption
            .clone()
            .unwrap_or_else(|| self.caption(frame));
        let (title_lines, title_size) = if self.table.title {
            // Words in proportion to the numbers: a table made small keeps a small title.
            crate::scene::layout::fit_title(
                &title,
                (text_size * 1.5).clamp(8.0, 16.0),
                8.0,
                room,
                3,
            )
        } else {
            (Vec::new(), 16.0)
        };
        let title_height = if self.table.title {
            (title_lines.len() as f64 * title_size * 1.3 + title_size * 0.6).ceil() as u32
        } else {
            0
        };
        let key = self.key_entries()?;
        let key_size = (text_size * 1.2).clamp(7.0, 13.0);
        let key_rows = if self.table.title {
            key_rows(&key, key_size, room)
        } else {
            Vec::new()
        };
        let key_height = (key_rows.len() as f64 * key_size * 1.6).ceil() as u32
            + if key_rows.is_empty() {
                0
            } else {
                (key_size * 0.8) as u32
            };
        let width = inner_w + 2 * margin;
        let height = table_h + 2 * margin + title_height + key_height;
        let mut scene = Scene::new(width, height, Color::WHITE);
        let x0 = margin + (inner_w - table_w) / 2;
        let y0 = margin + title_height;

        for (k, line) in title_lines.into_iter().enumerate() {
            scene.push(TextItem::centered(
                f64::from(width) / 2.0,
                f64::from(margin) + title_size * (1.0 + 1.3 * k as f64),
                line,
                title_size,
                INK,
            ));
        }

        let mut indices = vec![0u8; (rows + 1) * (cols + 1)];
        indices[0] = corner;
        indices[1..=cols].fill(header);
        let mut texts = Vec::with_capacity((rows + 1) * (cols + 1));
        let centre = |r: usize, k: usize| {
            (
                f64::from(x0) + (k as f64 + 0.5) * c,
                f64::from(y0) + (r as f64 + 0.5) * c,
            )
        };
        let mut label = |r: usize, k: usize, text: String, color: Color, size: f64| {
            let (x, y) = centre(r, k);
            texts.push(TextItem {
                x,
                y,
                text,
                size,
                color,
                halign: HAlign::Center,
                valign: VAlign::Middle,
                rotation: 0.0,
            });
        };
        let corner_text = format!("{}\\{}", frame.names[dr], frame.names[dc]);
        let corner_size = text_size.min(c * 0.8 / font::text_width(&corner_text, 1.0));
        label(0, 0, corner_text, INK, corner_size);
        for k in 0..cols {
            label(
                0,
                k + 1,
                (first_col + k).to_string(),
                Color::BLACK,
                text_size,
            );
        }
        for r in 0..rows {
            indices[(r + 1) * (cols + 1)] = header;
            label(
                r + 1,
                0,
                (first_row + r).to_string(),
                Color::BLACK,
                text_size,
            );
            for k in 0..cols {
                let at = (r + 1) * (cols + 1) + k + 1;
                match values[r * cols + k] {
                    None => indices[at] = outside,
                    Some(v) => {
                        let class = usize::from(v) % classes;
                        indices[at] = class as u8;
                        label(
                            r + 1,
                            k + 1,
                            v.to_string(),
                            ink_on(palette[class]),
                            text_size,
                        );
                    }
                }
            }
        }
        scene.push(CellLayer {
            rect: PixelRect {
                x: x0,
                y: y0,
                width: table_w,
                height: table_h,
            },
            rows: rows + 1,
            cols: cols + 1,
            indices,
            palette,
            grid_line: Some(Color::gray(0.45)),
        });
        scene.push(
            PathItem::rect(
                f64::from(x0) - 0.5,
                f64::from(y0) - 0.5,
                f64::from(table_w) + 1.0,
                f64::from(table_h) + 1.0,
            )
            .stroked(Color::gray(0.45), 1.0),
        );
        for t in texts {
            scene.push(t);
        }
        for (k, row) in key_rows.iter().enumerate() {
            let baseline = f64::from(y0 + table_h) + key_size * (2.0 + 1.6 * k as f64);
            draw_key(&mut scene, row, f64::from(width) / 2.0, baseline, key_size);
        }
        Ok(self.table.print.apply(scene))
    }

    /// The colour key under a table: a swatch per class.
    fn key_entries(&self) -> Result<Vec<(Color, String)>> {
        let m = self.table.modulus;
        Ok(self
            .table
            .palette
            .class_colors(m)?
            .iter()
            .enumerate()
            .map(|(class, &color)| {
                let text = if m == 1 {
                    "every value".to_string()
                } else {
                    format!("≡ {class} (mod {m})")
                };
                (color, text)
            })
            .collect())
    }

    fn points(&self, solution: &Solution, frame: &Frame) -> Result<Vec<[u32; 3]>> {
        let points: Vec<[u32; 3]> = solution
            .positions_where(|p, v| v == 0 && frame.matches(p))
            .map(|(p, _)| [p[frame.free[0]], p[frame.free[1]], p[frame.free[2]]])
            .collect();
        if points.len() > MAX_PLOT_POINTS {
            return Err(Error::unsupported(format!(
                "{} P-positions are too many to plot (at most {MAX_PLOT_POINTS}); use a smaller `box`",
                points.len()
            )));
        }
        check_memory(
            || format!("a plot of {} points", points.len()),
            points.len() as u64 * 600,
            self.memory_limit,
            "use a smaller `box`",
        )?;
        Ok(points)
    }

    /// The ListPointPlot3D of Miyadera et al. III: the P-positions as points,
    /// the third free
    /// coordinate up (as Mathematica draws `{x, y, z}`), coloured by height.
    fn points_scene(&self, solution: &Solution, frame: &Frame) -> Result<Scene> {
        let points = self.points(solution, frame)?;
        let [a, b, c] = [0, 1, 2].map(|i| frame.names[frame.free[i]].clone());
        let [ba, bb, bc] = [0, 1, 2].map(|i| f64::from(frame.bounds[frame.free[i]]).max(1.0));
        let (width, height) = (self.view.width, self.view.height);
        let labels = &self.view.labels;
        // Drawn OVERSAMPLE times larger, then scaled down: plotters rounds every
        // coordinate to a whole unit, which shows on a 240 pt plot.
        const K: u32 = crate::scene::chart::OVERSAMPLE;
        let kf = f64::from(K);
        let mut scene = Scene::new(width * K, height * K, Color::WHITE);
        let w = f64::from(width);
        let natural_title = (w / 45.0).clamp(9.0, 20.0);
        let label_size = labels
            .font_size
            .unwrap_or_else(|| (natural_title * 0.8).max(7.0));
        let name_size = labels.font_size.map_or(natural_title, |s| s * 1.2);
        let title = labels.caption.as_ref().map(|text| {
            let text = if text.is_empty() {
                format!(
                    "P-positions of {}: {} points",
                    self.caption(frame),
                    points.len()
                )
            } else {
                text.clone()
            };
            let size = labels.caption_size.unwrap_or(natural_title);
            // A long title wraps, then shrinks, rather than run off the page.
            crate::scene::layout::fit_title(&text, size, size.min(7.0), w - 48.0, 2)
        });
        let title_h = title.as_ref().map_or(0.0, |(lines, size)| {
            lines.len() as f64 * size * 1.3 + size * 0.8
        });
        // The colour bar: z (up) by colour, so heights can be read off.
        let bar = labels.key;
        let bar_w = if bar { (label_size * 5.5).round() } else { 0.0 };
        let radius =
            ((f64::from(width.min(height)) / 3.0) / ba.max(bb).max(bc)).clamp(0.8, 5.0) * 0.8;
        let radius = (radius * kf).round() as u32;
        let tick_counts;
        let first_tick = scene.items.len();
        let corners: [(f64, f64); 3];
        {
            let root = SceneBackend::new(&mut scene).into_drawing_area().margin(
                (title_h * kf).round() as u32,
                0,
                0,
                (bar_w * kf) as u32,
            );
            let ink = RGBColor(0x22, 0x22, 0x22);
            let mut chart = ChartBuilder::on(&root)
                .margin(((label_size * 2.6).max(w / 37.5) * kf) as u32)
                .build_cartesian_3d(0.0..ba, 0.0..bc, 0.0..bb)
                .map_err(chart_error)?;
            let (yaw, pitch) = (
                self.view.azimuth.to_radians(),
                self.view.elevation.to_radians(),
            );
            chart.with_projection(|mut p| {
                p.yaw = yaw;
                p.pitch = pitch;
                p.scale = 0.8;
                p.into_matrix()
            });
            let grey = RGBColor(0xC8, 0xC8, 0xC8);
            // Count the tick labels of each axis, to put its name beside them.
            let counts = [0, 1, 2].map(|_| std::cell::Cell::new(0usize));
            let ticks = labels.ticks;
            let tick = |axis: usize, v: f64| {
                counts[axis].set(counts[axis].get() + 1);
                if ticks {
                    whole_tick(v)
                } else {
                    String::new()
                }
            };
            chart
                .configure_axes()
                .label_style(("sans-serif", label_size * kf).into_font().color(&ink))
                .bold_grid_style(grey.stroke_width(K / 2))
                .light_grid_style(TRANSPARENT)
                .axis_panel_style(RGBColor(0xF4, 0xF4, 0xF4))
                .max_light_lines(0)
                .x_formatter(&|v| tick(0, *v))
                .y_formatter(&|v| tick(1, *v))
                .z_formatter(&|v| tick(2, *v))
                .draw()
                .map_err(chart_error)?;
            tick_counts = counts.map(|c| c.get());
            // Painter's order: far points first, so near ones cover them.
            let spec = chart.as_coord_spec();
            let project = |x: f64, y: f64, z: f64| {
                let (px, py) = spec.translate(&(x, y, z));
                (f64::from(px), f64::from(py))
            };
            corners = [
                project(ba / 2.0, bc / 2.0, bb / 2.0),
                project(0.0, 0.0, 0.0),
                project(ba, bc, bb),
            ];
            let mut order: Vec<(i32, [u32; 3])> = points
                .iter()
                .map(|&[x, y, z]| {
                    let (x, y, z) = (f64::from(x), f64::from(y), f64::from(z));
                    (
                        spec.projected_depth(&x, &z, &y),
                        [x as u32, y as u32, z as u32],
                    )
                })
                .collect();
            order.sort_by(|p, q| q.0.cmp(&p.0).then(p.1.cmp(&q.1)));
            chart
                .draw_series(order.iter().map(|&(_, [x, y, z])| {
                    let rgb = ViridisRGB::get_color_normalized(f64::from(z), 0.0, bc);
                    Circle::new(
                        (f64::from(x), f64::from(z), f64::from(y)),
                        radius,
                        rgb.filled(),
                    )
                }))
                .map_err(chart_error)?;
            root.present().map_err(chart_error)?;
        }
        scene.scale_down(K);
        let corners = corners.map(|(x, y)| (x / kf, y / kf));
        // plotters centres the middle of the box, not its picture, and keeps a margin
        // for any turn of it: fit the drawing to its room (below the title, left of the
        // colour bar, with space for the axis names), so a plot made small is not
        // mostly margin. Positions move; text keeps its size.
        let reach = label_size * 1.3 + name_size * 1.2;
        let room = (
            reach,
            title_h + label_size * 0.5,
            w - bar_w - reach,
            f64::from(height) - reach,
        );
        let fit = scene.bounds_from(first_tick).and_then(|(x0, y0, x1, y1)| {
            let s = ((room.2 - room.0) / (x1 - x0).max(1.0))
                .min((room.3 - room.1) / (y1 - y0).max(1.0))
                .clamp(0.8, 1.5);
            // The drawing and its colour bar are centred together: a plot that the
            // height limits leaves no gap between itself and its bar.
            let group = s * (x1 - x0) + 2.0 * reach + bar_w;
            let dx = ((w - group) / 2.0).max(0.0) + reach - s * x0;
            let dy = room.1 + ((room.3 - room.1) - s * (y1 - y0)) / 2.0 - s * y0;
            s.is_finite().then_some((s, dx, dy, dx + s * x1 + reach))
        });
        let bar_x = fit.map_or(w - bar_w, |f| f.3);
        let place = |(x, y): (f64, f64)| match fit {
            Some((s, dx, dy, _)) => (x * s + dx, y * s + dy),
            None => (x, y),
        };
        scene.map_points_from(first_tick, |x, y| place((x, y)));
        let corners = corners.map(place);
        // The tick labels of plotters' x (game a), y (up: game c) and z (game b)
        // axes, in that order. Each axis name sits beside the middle of its tick
        // labels, on the side away from the box, so it names the right axis.
        let texts: Vec<(f64, f64)> = scene.items[first_tick..]
            .iter()
            .filter_map(|i| match i {
                Item::Text(t) => Some((t.x, t.y)),
                _ => None,
            })
            .collect();
        let centre = corners[0];
        let mut names = Vec::new();
        // Plotters' axes are (a, c up, b); names are given in the game's order a, b, c.
        let axis_names = labels
            .axis_names
            .as_ref()
            .map(|given| [0, 2, 1].map(|k| given.get(k).cloned().unwrap_or_default()));
        let mut start = 0;
        for (axis, (count, default_name)) in tick_counts.into_iter().zip([a, c, b]).enumerate() {
            let name = match &axis_names {
                None => None,
                Some(given) if !given[axis].is_empty() => Some(given[axis].clone()),
                Some(_) => Some(default_name),
            };
            if let (Some(name), true) = (name, count >= 2 && start + count <= texts.len()) {
                let (first, last) = (texts[start], texts[start + count - 1]);
                let mid = ((first.0 + last.0) / 2.0, (first.1 + last.1) / 2.0);
                let (dx, dy) = (last.0 - first.0, last.1 - first.1);
                let norm = (dx * dx + dy * dy).sqrt().max(1.0);
                // The normal of the axis pointing away from the box's centre.
                let (mut nx, mut ny) = (-dy / norm, dx / norm);
                if (mid.0 - centre.0) * nx + (mid.1 - centre.1) * ny < 0.0 {
                    nx = -nx;
                    ny = -ny;
                }
                let reach = label_size * 1.3 + name_size * 0.6;
                names.push(TextItem {
                    x: mid.0 + nx * reach,
                    y: mid.1 + ny * reach,
                    text: name,
                    size: name_size,
                    color: INK,
                    halign: HAlign::Center,
                    valign: VAlign::Middle,
                    rotation: 0.0,
                });
            }
            start += count;
        }
        drop_overlapping_texts(&mut scene, first_tick);
        for name in names {
            scene.push(name);
        }
        if let Some((lines, size)) = title {
            for (k, line) in lines.into_iter().enumerate() {
                scene.push(TextItem::centered(
                    w / 2.0,
                    size * (1.1 + 1.3 * k as f64),
                    line,
                    size,
                    INK,
                ));
            }
        }
        if bar {
            let top = title_h + label_size * 2.0;
            let bar_h = (f64::from(height) - top - label_size * 3.0).min(f64::from(height) * 0.5);
            let x = bar_x + label_size * 0.6;
            colour_bar(
                &mut scene,
                (x, top + label_size * 1.2),
                (label_size * 1.1, bar_h.max(label_size * 4.0)),
                bc,
                &frame.names[frame.free[2]],
                label_size,
            );
        }
        let _ = corners;
        Ok(self.view_print().apply(scene))
    }

    /// The print style of plots: the table's, which the command line fills.
    fn view_print(&self) -> crate::scene::units::PrintStyle {
        self.table.print
    }

    /// The ListPlot of Miyadera et al. III of the P-positions projected to
    /// `(y, x - z)`: one
    /// crisp square cell per projected point, `y` across and `x - z` up, the
    /// axes spanning the points.
    fn sieve_scene(&self, solution: &Solution, frame: &Frame) -> Result<Scene> {
        let points = self.points(solution, frame)?;
        let [a, b, c] = [0, 1, 2].map(|i| frame.names[frame.free[i]].clone());
        let projected: Vec<(i64, i64)> = points
            .iter()
            .map(|&[x, y, z]| (i64::from(y), i64::from(x) - i64::from(z)))
            .collect();
        let y_max = projected.iter().map(|p| p.0).max().unwrap_or(0).max(1);
        let d_min = projected.iter().map(|p| p.1).min().unwrap_or(0).min(-1);
        let d_max = projected.iter().map(|p| p.1).max().unwrap_or(0).max(1);
        let (cols, rows) = ((y_max + 1) as usize, (d_max - d_min + 1) as usize);
        let mut indices = vec![0u8; rows * cols];
        for &(y, d) in &projected {
            indices[(d_max - d) as usize * cols + y as usize] = 1;
        }
        let distinct = indices.iter().filter(|&&i| i == 1).count();

        let (width, height) = (self.view.width, self.view.height);
        let labels = &self.view.labels;
        let title = labels.caption.as_ref().map(|text| {
            let text = if text.is_empty() {
                format!(
                    "P-positions of {} as ({b}, {a} − {c}): {distinct} points",
                    self.caption(frame)
                )
            } else {
                text.clone()
            };
            let size = labels
                .caption_size
                .unwrap_or_else(|| (f64::from(width) / 45.0).clamp(11.0, 20.0));
            crate::scene::layout::fit_title(&text, size, size.min(7.0), f64::from(width) - 24.0, 2)
        });
        let label_size = labels
            .font_size
            .unwrap_or_else(|| (f64::from(width) / 56.0).clamp(11.0, 16.0).round());
        let title_h = title.as_ref().map_or(label_size, |(lines, size)| {
            lines.len() as f64 * size * 1.3 + size * 1.1
        });
        let names = labels.axis_names.as_ref().map(|given| {
            let pick = |k: usize, default: String| {
                given
                    .get(k)
                    .filter(|n| !n.is_empty())
                    .cloned()
                    .unwrap_or(default)
            };
            (pick(0, b.clone()), pick(1, format!("{a} − {c}")))
        });
        // Square cells, as large as fit beside the axes' labels; the canvas is then
        // cut to the plot, so a flat sieve leaves no blank half page.
        let ticks = if labels.ticks { 1.0 } else { 0.0 };
        let named = if names.is_some() { 1.0 } else { 0.0 };
        let left = (label_size * (1.2 + 2.8 * ticks + 1.6 * named)).ceil() as u32;
        let bottom = (label_size * (0.8 + 1.6 * ticks + 1.6 * named)).ceil() as u32;
        let (top, right) = (title_h.ceil() as u32, (label_size * 1.5) as u32);
        let room_w = f64::from(width.saturating_sub(left + right).max(1));
        let room_h = f64::from(height.saturating_sub(top + bottom).max(1));
        let cell = (room_w / cols as f64).min(room_h / rows as f64);
        let cell = if cell >= 1.0 { cell.floor() } else { cell };
        let (plot_w, plot_h) = (
            ((cols as f64 * cell).round() as u32).max(1),
            ((rows as f64 * cell).round() as u32).max(1),
        );
        let title_w = title.as_ref().map_or(0.0, |(lines, size)| {
            lines
                .iter()
                .map(|l| font::text_width(l, *size))
                .fold(0.0, f64::max)
                + 24.0
        });
        let (width, height) = (
            (left + plot_w + right)
                .max(title_w.ceil() as u32)
                .min(width),
            (top + plot_h + bottom).min(height),
        );
        let mut scene = Scene::new(width, height, Color::WHITE);
        let x0 = left + (width - left - right).saturating_sub(plot_w) / 2;
        let y0 = top;
        if let Some((lines, size)) = title {
            for (k, line) in lines.into_iter().enumerate() {
                scene.push(TextItem::centered(
                    f64::from(width) / 2.0,
                    size * (1.3 + 1.3 * k as f64),
                    line,
                    size,
                    INK,
                ));
            }
        }
        let area;
        {
            let root = SceneBackend::new(&mut scene).into_drawing_area();
            let ink = RGBColor(0x22, 0x22, 0x22);
            let sub = root
                .clone()
                .shrink((x0 - left, y0), (plot_w + left, plot_h + bottom));
            let mut chart = ChartBuilder::on(&sub)
                .x_label_area_size(bottom)
                .y_label_area_size(left)
                .build_cartesian_2d(
                    -0.5..y_max as f64 + 0.5,
                    d_min as f64 - 0.5..d_max as f64 + 0.5,
                )
                .map_err(chart_error)?;
            let mut mesh = chart.configure_mesh();
            mesh.disable_mesh();
            if let Some((x_name, y_name)) = &names {
                mesh.x_desc(x_name.as_str()).y_desc(y_name.as_str());
            }
            if !labels.ticks {
                mesh.x_labels(0).y_labels(0);
            } else {
                mesh.x_labels(((f64::from(plot_w) / (label_size * 3.0)) as usize).clamp(2, 10))
                    .y_labels(((f64::from(plot_h) / (label_size * 2.0)) as usize).clamp(2, 10));
            }
            mesh.label_style(("sans-serif", label_size).into_font().color(&ink))
                .axis_desc_style(("sans-serif", label_size * 1.15).into_font().color(&ink))
                .x_label_formatter(&|v| whole_tick(*v))
                .y_label_formatter(&|v| whole_tick(*v))
                .draw()
                .map_err(chart_error)?;
            let (xr, yr) = chart.plotting_area().get_pixel_range();
            area = PixelRect {
                x: xr.start.max(0) as u32,
                y: yr.start.max(0) as u32,
                width: (xr.end - xr.start).max(1) as u32,
                height: (yr.end - yr.start).max(1) as u32,
            };
            root.present().map_err(chart_error)?;
        }
        scene.push(CellLayer {
            rect: area,
            rows,
            cols,
            indices,
            palette: vec![Color::TRANSPARENT, okabe_ito::BLUE],
            grid_line: None,
        });
        Ok(self.view_print().apply(scene))
    }
}

/// Colour of the Nim-with-a-pass P-cells on the square board: Okubo,
/// Kashiwagi, Niida draw them red; Okabe–Ito vermillion stays distinct from
/// the blue Nim cells for colour-blind readers.
pub const PASS_COLOR: Color = okabe_ito::VERMILLION;

/// Checks a square figure with a Nim-with-a-pass overlay: styled square boards
/// whose four-heap box fits the memory limit.
pub fn check_overlay(figure: &SquareFigure) -> Result<()> {
    if matches!(figure.mode, SquareMode::Raw { .. }) {
        return Err(Error::unsupported(
            "`overlay` draws styled boards; drop `raw`",
        ));
    }
    if figure
        .n
        .is_some_and(|n| figure.boards.iter().any(|&m| m != n))
    {
        return Err(Error::unsupported(
            "`overlay` nim-pass needs square boards; drop `n`",
        ));
    }
    let largest = figure.boards.iter().copied().max().unwrap_or(1);
    // The pass game is solved on the box of the four heaps, 0..m-1 each: about a byte per tuple.
    check_memory(
        || {
            format!(
                "Nim with a pass on the {largest} x {largest} board (its four heaps up to {})",
                largest - 1
            )
        },
        largest.saturating_pow(4),
        figure.memory_limit,
        "use a smaller `m`",
    )
}

/// The `m x m` board panel of Okubo, Kashiwagi, Niida, Figures 8–11: Nim
/// P-cells (index 1, the style's P colour) and Nim-with-a-pass P-cells (index 2, [`PASS_COLOR`]),
/// with a legend counting both.
pub fn nim_pass_panel(m: u64, style: &BoardStyle, limit: u64) -> Result<BoardPanel> {
    let side = u32::try_from(m).map_err(|_| Error::invalid("`m` is too large for `overlay`"))?;
    let (nim, pass) = square_board(side, limit)?;
    let mut panel = BoardPanel::from_bits(&nim, style);
    for (r, c) in pass.ones() {
        // Only the terminal position is P in both games, and it is no cell of a board with m > 1.
        panel.indices[r * pass.cols() + c] = 2;
    }
    panel.palette.push(PASS_COLOR);
    panel.legend = vec![
        LegendEntry {
            color: style.p_color,
            text: format!("Nim: {} P-cells", nim.ones().count()),
        },
        LegendEntry {
            color: PASS_COLOR,
            text: format!("Nim with a pass: {}", pass.ones().count()),
        },
    ];
    Ok(panel)
}

fn free_names(frame: &Frame) -> String {
    frame
        .free
        .iter()
        .map(|&d| frame.names[d].as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Removes text items (from `first` on) that would overlap an earlier one, such as
/// two axes' "0" where they meet, which read as "00" or "200".
fn drop_overlapping_texts(scene: &mut Scene, first: usize) {
    let mut kept: Vec<[f64; 4]> = Vec::new();
    let mut k = first;
    while k < scene.items.len() {
        let Item::Text(t) = &scene.items[k] else {
            k += 1;
            continue;
        };
        if t.text.is_empty() {
            scene.items.remove(k);
            continue;
        }
        let bbox = text_box(t);
        let pad = t.size * 0.15;
        let overlaps = kept.iter().any(|b| {
            bbox[0] < b[2] + pad
                && b[0] < bbox[2] + pad
                && bbox[1] < b[3] + pad
                && b[1] < bbox[3] + pad
        });
        if overlaps {
            scene.items.remove(k);
        } else {
            kept.push(bbox);
            k += 1;
        }
    }
}

/// The box `[x0, y0, x1, y1]` an unrotated text covers (capitals and digits).
pub fn text_box(t: &TextItem) -> [f64; 4] {
    let w = font::text_width(&t.text, t.size);
    let h = t.size * 0.73;
    let x0 = match t.halign {
        HAlign::Left => t.x,
        HAlign::Center => t.x - w / 2.0,
        HAlign::Right => t.x - w,
    };
    let y0 = match t.valign {
        VAlign::Top => t.y,
        VAlign::Middle => t.y - h / 2.0,
        VAlign::Baseline => t.y - h,
        VAlign::Bottom => t.y - h - t.size * 0.24,
    };
    [x0, y0, x0 + w, y0 + h]
}

/// A vertical viridis bar from 0 (bottom) to `max` (top) with its end values and
/// the coordinate's name above.
fn colour_bar(
    scene: &mut Scene,
    (x, y): (f64, f64),
    (w, h): (f64, f64),
    max: f64,
    name: &str,
    size: f64,
) {
    const STEPS: usize = 64;
    for k in 0..STEPS {
        let v = (k as f64 + 0.5) / STEPS as f64;
        let c = ViridisRGB::get_color_normalized(v, 0.0, 1.0);
        let top = y + h * (1.0 - (k + 1) as f64 / STEPS as f64);
        // A hair of overlap hides seams between the bands in every viewer.
        scene.push(
            PathItem::rect(x, top, w, h / STEPS as f64 + 1.0).filled(Color::rgb(c.0, c.1, c.2)),
        );
    }
    scene.push(PathItem::rect(x, y, w, h).stroked(Color::gray(0.45), 0.5));
    for (value, at) in [(max, y), (0.0, y + h)] {
        scene.push(TextItem {
            x: x + w + size * 0.4,
            y: at,
            text: whole_tick(value.round()),
            size,
            color: INK,
            halign: HAlign::Left,
            valign: VAlign::Middle,
            rotation: 0.0,
        });
    }
    scene.push(TextItem {
        x: x + w / 2.0,
        y: y - size * 0.7,
        text: name.to_string(),
        size: size * 1.1,
        color: INK,
        halign: HAlign::Center,
        valign: VAlign::Baseline,
        rotation: 0.0,
    });
}

fn push_number(s: &mut String, n: u64) {
    use std::fmt::Write as _;
    let _ = write!(s, "{n}");
}

/// A tick label for a whole-number axis: coordinates are whole numbers, so a tick
/// between two of them stays unlabelled rather than print a rounded duplicate.
fn whole_tick(value: f64) -> String {
    if (value - value.round()).abs() < 1e-9 {
        format!("{value:.0}")
    } else {
        String::new()
    }
}

impl super::Figure for GrundyPlan {
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
        self.figure.check_format(format)
    }

    fn output_bytes(&self, format: Format) -> Option<u64> {
        (format == Format::Npy)
            .then(|| self.figure.npy_bytes().ok())
            .flatten()
    }

    fn write_to(&self, format: Format, out: &mut dyn Write, metadata: &Metadata) -> Result<()> {
        if format == Format::Npy
            && self.solution.get().is_none()
            && self.figure.frame()?.is_whole_box()
        {
            // The whole box's array is the solution's own: solving and writing
            // overlap, and the solution is kept for other formats.
            let solution = self.figure.solve_to_npy(out)?;
            let _ = self.solution.set(solution);
            return Ok(());
        }
        self.figure
            .write_solved(self.solution()?, format, out, metadata)
    }

    fn default_stem(&self) -> String {
        // A file name without spaces or '=': "triangular k=3" -> grundy-triangular-k-3.
        let name: String = self
            .figure
            .game
            .name()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let words: Vec<&str> = name.split('-').filter(|w| !w.is_empty()).collect();
        format!("grundy-{}", words.join("-"))
    }
}

/// A Grundy figure and its solution, solved at most once however many formats
/// are written (solving is the expensive part).
#[derive(Debug)]
pub struct GrundyPlan {
    /// What to draw.
    pub figure: GrundyFigure,
    solution: std::sync::OnceLock<Solution>,
}

impl GrundyPlan {
    /// A plan that solves the game when first written.
    pub fn new(figure: GrundyFigure) -> Self {
        GrundyPlan {
            figure,
            solution: std::sync::OnceLock::new(),
        }
    }

    /// The solution, computed on first use.
    pub fn solution(&self) -> Result<&Solution> {
        if let Some(solution) = self.solution.get() {
            return Ok(solution);
        }
        let solution = self.figure.solve()?;
        Ok(self.solution.get_or_init(|| solution))
    }
}

/// The rows and columns of a `cols`-wide table of values that hold at least one
/// position of the game (`Some`), as two ranges; the whole table when none does.
fn game_span(
    values: &[Option<u16>],
    cols: usize,
) -> (
    std::ops::RangeInclusive<usize>,
    std::ops::RangeInclusive<usize>,
) {
    let rows = values.len() / cols.max(1);
    let inside = |r: usize, k: usize| values[r * cols + k].is_some();
    let any_in_row = |r: usize| (0..cols).any(|k| inside(r, k));
    let any_in_col = |k: usize| (0..rows).any(|r| inside(r, k));
    match (
        (0..rows).find(|&r| any_in_row(r)),
        (0..rows).rev().find(|&r| any_in_row(r)),
        (0..cols).find(|&k| any_in_col(k)),
        (0..cols).rev().find(|&k| any_in_col(k)),
    ) {
        (Some(r0), Some(r1), Some(k0), Some(k1)) => (r0..=r1, k0..=k1),
        _ => (0..=rows.saturating_sub(1), 0..=cols.saturating_sub(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameParams;

    fn figure(name: &str, params: GameParams, b: &str) -> GrundyFigure {
        GrundyFigure::new(
            GameSpec::from_name(name, &params).unwrap(),
            b.parse().unwrap(),
        )
    }

    fn tri(k: u32, b: &str) -> GrundyFigure {
        figure(
            "triangular",
            GameParams {
                k: Some(k),
                ..Default::default()
            },
            b,
        )
    }

    #[test]
    fn slices_parse_and_are_checked_against_the_game() {
        let s: Slice = "z=5, y = 2".parse().unwrap();
        assert_eq!(s.0, vec![("z".into(), 5), ("y".into(), 2)]);
        assert!("z".parse::<Slice>().is_err());
        assert!("z=-1".parse::<Slice>().is_err());
        let mut f = tri(3, "10");
        f.slice = "w=1".parse().unwrap();
        let err = f.validate().unwrap_err().to_string();
        assert!(
            err.contains("no coordinate 'w'") && err.contains("x, y, z"),
            "{err}"
        );
        f.slice = "z=11".parse().unwrap();
        assert!(f
            .validate()
            .unwrap_err()
            .to_string()
            .contains("outside the box"));
        f.slice = "z=3".parse().unwrap();
        assert_eq!(f.resolved_plot().unwrap(), GrundyPlot::Table);
        f.slice = Slice::default();
        assert_eq!(f.resolved_plot().unwrap(), GrundyPlot::Points3d);
        f.plot = Some(GrundyPlot::Table);
        let err = f.resolved_plot().unwrap_err().to_string();
        assert!(
            err.contains("needs 2 free coordinates") && err.contains("`slice`"),
            "{err}"
        );
    }

    fn first_cell_layer(scene: &Scene) -> crate::scene::CellLayer {
        scene
            .items
            .iter()
            .find_map(|i| match i {
                crate::scene::Item::Cells(c) => Some(c.clone()),
                _ => None,
            })
            .unwrap()
    }

    #[test]
    fn table_cells_hold_the_values_of_the_slice() {
        let mut f = tri(3, "6");
        f.slice = "z=4".parse().unwrap();
        f.table.title = false;
        let sol = f.solve().unwrap();
        let scene = f.scene(&sol).unwrap();
        let layer = first_cell_layer(&scene);
        // Positions have y <= (x + 4) / 3 <= 3 in the box 0..6: columns y = 4..6 lie
        // wholly outside the game and are dropped; every row keeps a position.
        let last_y = (0..=6u32).map(|x| (x + 4) / 3).max().unwrap();
        assert_eq!(last_y, 3);
        for y in last_y + 1..=6 {
            assert!(
                (0..=6).all(|x| sol.get(&[x, y, 4]).is_none()),
                "column y = {y}"
            );
        }
        let cols = last_y as usize + 1;
        assert_eq!((layer.rows, layer.cols), (8, cols + 1));
        let texts: Vec<String> = scene
            .items
            .iter()
            .filter_map(|i| match i {
                crate::scene::Item::Text(t) => Some(t.text.clone()),
                _ => None,
            })
            .collect();
        // The corner, header labels 0..6 and 0..3, then one label per position.
        let positions = (0..=6u32)
            .flat_map(|x| (0..=6u32).map(move |y| (x, y)))
            .filter(|&(x, y)| y <= (x + 4) / 3)
            .count();
        assert_eq!(texts.len(), 1 + cols + 7 + positions);
        assert_eq!(texts[1..=cols], ["0", "1", "2", "3"]);
        for x in 0..=6u32 {
            for y in 0..=last_y {
                let index = layer.indices[(x as usize + 1) * (cols + 1) + y as usize + 1];
                match sol.get(&[x, y, 4]) {
                    Some(v) => assert_eq!(u32::from(index), u32::from(v) % 3),
                    None => assert_eq!(index, 4, "outside grey at {x},{y}"),
                }
            }
        }
    }

    #[test]
    fn a_table_keeps_the_rectangle_that_holds_positions() {
        let values = [
            None,
            None,
            None,
            None,
            Some(1),
            None,
            None,
            Some(2),
            None,
            None,
            None,
            None,
        ];
        // 4 rows of 3: positions at (1, 1) and (2, 1).
        assert_eq!(game_span(&values, 3), (1..=2, 1..=1));
        assert_eq!(game_span(&[None; 6], 3), (0..=1, 0..=2));
    }

    #[test]
    fn huge_tables_and_wrong_plots_are_refused_before_solving() {
        let mut f = tri(3, "400");
        f.slice = "z=0".parse().unwrap();
        let err = f.resolved_plot().unwrap_err().to_string();
        assert!(err.contains("401 x 401") && err.contains(".csv"), "{err}");
        let band = figure("band-7-1", GameParams::default(), "22");
        let mut b = band.clone();
        b.plot = Some(GrundyPlot::Sieve);
        assert!(b.resolved_plot().is_err());
        let mut m = band;
        m.table.modulus = 0;
        assert!(m.validate().is_err());
    }

    #[test]
    fn sieve_cells_are_the_projection() {
        let mut f = tri(3, "12");
        f.plot = Some(GrundyPlot::Sieve);
        let sol = f.solve().unwrap();
        let scene = f.scene(&sol).unwrap();
        let layer = first_cell_layer(&scene);
        let expected = crate::games::sierpinski_projection(sol.as_capped().unwrap());
        let d_max = expected.iter().map(|p| p.1).max().unwrap();
        let mut got = Vec::new();
        for r in 0..layer.rows {
            for c in 0..layer.cols {
                if layer.indices[r * layer.cols + c] == 1 {
                    got.push((c as u32, d_max - r as i64));
                }
            }
        }
        got.sort_unstable();
        assert_eq!(got, expected);
    }

    fn contrast(a: Color, b: Color) -> f64 {
        a.contrast(b)
    }

    #[test]
    fn paper_mod_3_classes_survive_greyscale_print() {
        let c = Palette::Paper.class_colors(3).unwrap();
        for (k, &colour) in c.iter().enumerate().take(3).skip(1) {
            let r = contrast(colour, Color::WHITE);
            assert!(r >= 3.0, "class {k}: {r:.2}:1 on white");
        }
        let r = contrast(c[1], c[2]);
        assert!(r >= 3.0, "classes 1 and 2: {r:.2}:1 in grey");
    }
}
