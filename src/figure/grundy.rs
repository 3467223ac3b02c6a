//! Grundy figures: a game on a box, written as data (CSV, JSON), as a Grundy
//! table coloured by value mod 3 (seed 002 Figures 7.9, 7.14), as a 3D point
//! plot of P-positions (seed 004's ListPointPlot3D, seed 003 Figures 6–7) or
//! as the `(y, x - z)` projection that shows the Sierpinski sieve.
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
use crate::scene::color::{okabe_ito, INK};
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
    /// `(y, x - z)`, the Sierpinski sieve of seed 004.
    Sieve,
}

/// Colours of a table's value classes (value mod the modulus).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TablePalette {
    /// The papers': 0 white, 1 red, 2 blue (then green, orange, purple, ...).
    #[default]
    Paper,
    /// Okabe–Ito: 0 white, 1 orange, 2 sky blue, ...; safe for colour-blind readers.
    OkabeIto,
}

impl TablePalette {
    /// The class colours; class `v mod m` takes entry `v mod m`.
    pub fn colors(self) -> &'static [Color] {
        const PAPER: [Color; 8] = [
            Color::WHITE,
            Color::rgb(0xF2, 0x6B, 0x6B),
            Color::rgb(0x5B, 0x8D, 0xEF),
            Color::rgb(0x6B, 0xC7, 0x6B),
            Color::rgb(0xF5, 0xB0, 0x4A),
            Color::rgb(0xB0, 0x7F, 0xD8),
            Color::rgb(0x5F, 0xCF, 0xCF),
            Color::rgb(0xEE, 0xE0, 0x5A),
        ];
        const OKABE_ITO: [Color; 8] = [
            Color::WHITE,
            okabe_ito::ORANGE,
            okabe_ito::SKY_BLUE,
            okabe_ito::BLUISH_GREEN,
            okabe_ito::YELLOW,
            okabe_ito::REDDISH_PURPLE,
            okabe_ito::VERMILLION,
            okabe_ito::BLUE,
        ];
        match self {
            TablePalette::Paper => &PAPER,
            TablePalette::OkabeIto => &OKABE_ITO,
        }
    }
}

/// How a Grundy table looks.
#[derive(Clone, Debug, PartialEq)]
pub struct TableStyle {
    /// Cells are coloured by value mod this (the papers: 3); 1..=8.
    pub modulus: u32,
    /// The class colours.
    pub palette: TablePalette,
    /// Pixels per cell; `None` fits the widest number.
    pub cell: Option<u32>,
    /// A title line above and a colour key below the table.
    pub title: bool,
}

impl Default for TableStyle {
    fn default() -> Self {
        TableStyle {
            modulus: 3,
            palette: TablePalette::Paper,
            cell: None,
            title: true,
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
}

impl Default for PlotView {
    fn default() -> Self {
        PlotView {
            azimuth: -60.0,
            elevation: 20.0,
            width: 900,
            height: 720,
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
                        "--slice: '{part}' is not NAME=VALUE; write e.g. --slice z=5 or --slice x3=2,x4=1"
                    )))
                }
            }
        }
        if fixed.is_empty() {
            return Err(Error::invalid(
                "--slice: nothing given; write e.g. --slice z=5",
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
                    "--slice: {} has no coordinate '{name}'; its coordinates are {}",
                    self.game.name(),
                    names.join(", ")
                )));
            };
            if fixed[d].is_some() {
                return Err(Error::invalid(format!("--slice: '{name}' is fixed twice")));
            }
            if *v > bounds[d] {
                return Err(Error::invalid(format!(
                    "--slice: {name} = {v} is outside the box ({name} runs over 0..{})",
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
                "--modulus {} is out of range; tables colour by value mod 1..8 (the papers use 3)",
                self.table.modulus
            )));
        }
        if let Some(cell) = self.table.cell {
            if !(8..=200).contains(&cell) {
                return Err(Error::invalid(format!(
                    "--cell {cell} is out of range; give 8..200 pixels"
                )));
            }
        }
        let v = &self.view;
        crate::scene::check_view_angles(v.azimuth, v.elevation)?;
        for (what, px) in [("--width", v.width), ("--height", v.height)] {
            if !(200..=8000).contains(&px) {
                return Err(Error::invalid(format!(
                    "{what} {px} is out of range; give 200..8000 pixels"
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
                            "fix the others with --slice, e.g. --slice {}=0",
                            frame.names[d]
                        )
                    }
                    _ => "fix fewer of them with --slice".to_string(),
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
                    "fix {} of them with --slice, e.g. --slice {}=0",
                    free - needed,
                    frame.names[*frame.free.last().unwrap_or(&0)]
                )
            } else {
                "fix fewer with --slice".to_string()
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
                     {MAX_TABLE_SIDE} per side); use a smaller --box, or write the values as .csv / .json"
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
                    "the sieve projection of this box has {cells} cells, over the {MAX_SIEVE_CELLS} a plot draws; use a smaller --box"
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
                "--p-only selects rows of .csv / .json data; a .npy array holds the whole box (P-positions are its zeros)",
            ));
        }
        if format.is_image() {
            if self.p_only {
                return Err(Error::unsupported(
                    "--p-only selects rows of .csv / .json data; plots of P-positions are --plot points3d or sieve",
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
        solution
            .positions()
            .filter(move |(p, v)| (!self.p_only || *v == 0) && frame.matches(p))
    }

    /// The `.npy` array's size: two bytes per tuple of the free coordinates.
    pub fn npy_bytes(&self) -> Result<u64> {
        let frame = self.frame()?;
        let cells = frame.free.iter().fold(1u64, |n, &d| {
            n.saturating_mul(u64::from(frame.bounds[d]) + 1)
        });
        Ok(npy::file_bytes(cells, 2))
    }

    /// The box as a `uint16` array, one axis per free coordinate (in the game's
    /// order), [`crate::games::OUTSIDE`] (65535) where a tuple is not a position.
    fn write_npy(&self, solution: &Solution, out: &mut dyn Write) -> Result<()> {
        let frame = self.frame()?;
        let shape: Vec<u64> = frame
            .free
            .iter()
            .map(|&d| u64::from(frame.bounds[d]) + 1)
            .collect();
        npy::write_header(out, "<u2", &shape).map_err(Error::write_failed)?;
        let mut le = npy::LeWriter::new();
        if frame.free.len() == frame.names.len() {
            // The whole box: slabs straight from the solution.
            return solution.for_each_slab(|slab| le.u16s(out, slab).map_err(Error::write_failed));
        }
        // A slice: walk the free coordinates, the fixed ones set, last fastest.
        let mut p: Vec<u32> = frame.fixed.iter().map(|f| f.unwrap_or(0)).collect();
        let last = frame.free.last().copied();
        let row_len = last.map_or(1, |d| frame.bounds[d] as usize + 1);
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
                if p[d] < frame.bounds[d] {
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

    /// Seed 002's table: a header row and column of coordinate values on grey
    /// 0.75, cells outside the game on grey 0.87, every value printed in its
    /// cell on the colour of its class mod the modulus.
    fn table_scene(&self, solution: &Solution, frame: &Frame) -> Result<Scene> {
        let (dr, dc) = (frame.free[0], frame.free[1]);
        let (rows, cols) = (frame.bounds[dr] as usize + 1, frame.bounds[dc] as usize + 1);
        let values: Vec<Option<u16>> = (0..rows * cols)
            .map(|i| solution.get(&frame.point(&[(i / cols) as u32, (i % cols) as u32])))
            .collect();
        let digits = |n: u64| n.to_string().len();
        let widest = values
            .iter()
            .flatten()
            .map(|&v| digits(u64::from(v)))
            .chain([digits(rows as u64 - 1), digits(cols as u64 - 1)])
            .max()
            .unwrap_or(1);
        let cell = self.table.cell.unwrap_or(match widest {
            0..=2 => 28,
            3 => 34,
            4 => 42,
            _ => 50,
        });
        let c = f64::from(cell);
        let sample: String = "0".repeat(widest);
        let text_size = (c * 0.5).min(c * 0.8 / font::text_width(&sample, 1.0));

        let classes = self.table.modulus as usize;
        let mut palette: Vec<Color> = self.table.palette.colors()[..classes].to_vec();
        let header = palette.len() as u8;
        palette.push(Color::gray(0.75));
        let outside = palette.len() as u8;
        palette.push(Color::gray(0.87));
        let corner = palette.len() as u8;
        palette.push(Color::WHITE);

        let margin = 16u32;
        let title_size = 16.0;
        let title = self.caption(frame);
        let title_height = if self.table.title { 30 } else { 0 };
        let key_height = if self.table.title { 34 } else { 0 };
        let table_w = (cols as u32 + 1) * cell;
        let table_h = (rows as u32 + 1) * cell;
        let title_w = if self.table.title {
            font::text_width(&title, title_size).ceil() as u32
        } else {
            0
        };
        let key = self.key_entries();
        let key_w = key_width(&key, 13.0).ceil() as u32;
        let inner_w = table_w
            .max(title_w)
            .max(if self.table.title { key_w } else { 0 });
        let width = inner_w + 2 * margin;
        let height = table_h + 2 * margin + title_height + key_height;
        let mut scene = Scene::new(width, height, Color::WHITE);
        let x0 = margin + (inner_w - table_w) / 2;
        let y0 = margin + title_height;

        if self.table.title {
            scene.push(TextItem::centered(
                f64::from(width) / 2.0,
                f64::from(margin) + title_size,
                title,
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
            label(0, k + 1, k.to_string(), Color::BLACK, text_size);
        }
        for r in 0..rows {
            indices[(r + 1) * (cols + 1)] = header;
            label(r + 1, 0, r.to_string(), Color::BLACK, text_size);
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
        if self.table.title {
            let baseline = f64::from(y0 + table_h) + 26.0;
            draw_key(&mut scene, &key, f64::from(width) / 2.0, baseline, 13.0);
        }
        Ok(scene)
    }

    /// The colour key under a table: a swatch per class.
    fn key_entries(&self) -> Vec<(Color, String)> {
        let m = self.table.modulus;
        self.table.palette.colors()[..m as usize]
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
            .collect()
    }

    fn points(&self, solution: &Solution, frame: &Frame) -> Result<Vec<[u32; 3]>> {
        let points: Vec<[u32; 3]> = solution
            .positions()
            .filter(|(p, v)| *v == 0 && frame.matches(p))
            .map(|(p, _)| [p[frame.free[0]], p[frame.free[1]], p[frame.free[2]]])
            .collect();
        if points.len() > MAX_PLOT_POINTS {
            return Err(Error::unsupported(format!(
                "{} P-positions are too many to plot (at most {MAX_PLOT_POINTS}); use a smaller --box",
                points.len()
            )));
        }
        check_memory(
            || format!("a plot of {} points", points.len()),
            points.len() as u64 * 600,
            self.memory_limit,
            "use a smaller --box",
        )?;
        Ok(points)
    }

    /// Seed 004's ListPointPlot3D: the P-positions as points, the third free
    /// coordinate up (as Mathematica draws `{x, y, z}`), coloured by height.
    fn points_scene(&self, solution: &Solution, frame: &Frame) -> Result<Scene> {
        let points = self.points(solution, frame)?;
        let [a, b, c] = [0, 1, 2].map(|i| frame.names[frame.free[i]].clone());
        let [ba, bb, bc] = [0, 1, 2].map(|i| f64::from(frame.bounds[frame.free[i]]).max(1.0));
        let (width, height) = (self.view.width, self.view.height);
        let mut scene = Scene::new(width, height, Color::WHITE);
        let title = format!(
            "P-positions of {}: {} points",
            self.caption(frame),
            points.len()
        );
        let natural_title = (f64::from(width) / 45.0).clamp(13.0, 20.0);
        let label_size = (natural_title * 0.8).round();
        // A long title (six coordinates, say) shrinks to fit rather than run off the page.
        let title_size =
            crate::font::fitted_size(&title, natural_title, f64::from(width) - 48.0).floor();
        let radius = ((f64::from(width.min(height)) / 3.0) / ba.max(bb).max(bc))
            .clamp(1.5, 5.0)
            .round() as u32;
        let tick_counts;
        {
            let root = SceneBackend::new(&mut scene).into_drawing_area();
            let ink = RGBColor(0x22, 0x22, 0x22);
            let mut chart = ChartBuilder::on(&root)
                .caption(title, ("sans-serif", title_size).into_font().color(&ink))
                .margin(24)
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
            // Count the tick labels of each axis, to put its name after them.
            let counts = [0, 1, 2].map(|_| std::cell::Cell::new(0usize));
            let tick = |axis: usize, v: f64| {
                counts[axis].set(counts[axis].get() + 1);
                whole_tick(v)
            };
            chart
                .configure_axes()
                .label_style(("sans-serif", label_size).into_font().color(&ink))
                .bold_grid_style(grey)
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
        // The texts so far: the title, then the tick labels of plotters' x
        // (game a), y (up: game c) and z (game b) axes in that order. Each
        // axis name goes one step beyond its last tick label.
        let texts: Vec<(f64, f64)> = scene
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Text(t) => Some((t.x, t.y)),
                _ => None,
            })
            .skip(1)
            .collect();
        let mut start = 0;
        for (count, name) in tick_counts.into_iter().zip([a, c, b]) {
            if count >= 2 && start + count <= texts.len() {
                let (first, last) = (texts[start], texts[start + count - 1]);
                let step = count as f64 - 1.0;
                let (dx, dy) = ((last.0 - first.0) / step, (last.1 - first.1) / step);
                let norm = (dx * dx + dy * dy).sqrt().max(1.0);
                let reach = natural_title * 1.6;
                scene.push(TextItem {
                    x: last.0 + dx / norm * reach,
                    y: last.1 + dy / norm * reach,
                    text: name,
                    size: natural_title,
                    color: INK,
                    halign: HAlign::Center,
                    valign: VAlign::Middle,
                    rotation: 0.0,
                });
            }
            start += count;
        }
        Ok(scene)
    }

    /// Seed 004's ListPlot of the P-positions projected to `(y, x - z)`: one
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
        let mut scene = Scene::new(width, height, Color::WHITE);
        let title = format!(
            "P-positions of {} as ({b}, {a} − {c}): {distinct} points",
            self.caption(frame)
        );
        let title_size = (f64::from(width) / 45.0)
            .clamp(11.0, 20.0)
            .min(f64::from(width - 24) / font::text_width(&title, 1.0));
        let label_size = (f64::from(width) / 56.0).clamp(11.0, 16.0).round();
        // Square cells, as large as fit beside the axes' labels.
        let (left, bottom, top, right) = (64u32, 52u32, (title_size * 2.4) as u32, 24u32);
        let room_w = f64::from(width.saturating_sub(left + right).max(1));
        let room_h = f64::from(height.saturating_sub(top + bottom).max(1));
        let cell = (room_w / cols as f64).min(room_h / rows as f64);
        let cell = if cell >= 1.0 { cell.floor() } else { cell };
        let (plot_w, plot_h) = (
            ((cols as f64 * cell).round() as u32).max(1),
            ((rows as f64 * cell).round() as u32).max(1),
        );
        let x0 = left + (width - left - right).saturating_sub(plot_w) / 2;
        let y0 = top + (height - top - bottom).saturating_sub(plot_h) / 2;
        scene.push(TextItem::centered(
            f64::from(width) / 2.0,
            title_size * 1.5,
            title,
            title_size,
            INK,
        ));
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
            chart
                .configure_mesh()
                .disable_mesh()
                .x_desc(b.as_str())
                .y_desc(format!("{a} − {c}"))
                .label_style(("sans-serif", label_size).into_font().color(&ink))
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
        Ok(scene)
    }
}

/// Colour of the Nim-with-a-pass P-cells on the square board: seed 003 draws
/// them red; Okabe–Ito vermillion stays distinct from the blue Nim cells for
/// colour-blind readers.
pub const PASS_COLOR: Color = okabe_ito::VERMILLION;

/// Checks a square figure with a Nim-with-a-pass overlay: styled square boards
/// whose four-heap box fits the memory limit.
pub fn check_overlay(figure: &SquareFigure) -> Result<()> {
    if matches!(figure.mode, SquareMode::Raw { .. }) {
        return Err(Error::unsupported(
            "--overlay draws styled boards; drop --raw",
        ));
    }
    if figure
        .n
        .is_some_and(|n| figure.boards.iter().any(|&m| m != n))
    {
        return Err(Error::unsupported(
            "--overlay nim-pass needs square boards; drop --n",
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
        "use a smaller --m",
    )
}

/// The `m x m` board panel of seed 003 Figures 8–11: Nim P-cells (index 1, the
/// style's P colour) and Nim-with-a-pass P-cells (index 2, [`PASS_COLOR`]),
/// with a legend counting both.
pub fn nim_pass_panel(m: u64, style: &BoardStyle, limit: u64) -> Result<BoardPanel> {
    let side = u32::try_from(m).map_err(|_| Error::invalid("--m is too large for --overlay"))?;
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

/// Black on light cells, white on dark ones: whichever contrasts more.
fn ink_on(background: Color) -> Color {
    let linear = |v: u8| {
        let c = f64::from(v) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * linear(background.r)
        + 0.7152 * linear(background.g)
        + 0.0722 * linear(background.b);
    if luminance > 0.179 {
        Color::BLACK
    } else {
        Color::WHITE
    }
}

fn key_width(entries: &[(Color, String)], size: f64) -> f64 {
    entries
        .iter()
        .map(|(_, text)| size * 1.5 + font::text_width(text, size) + size * 1.5)
        .sum()
}

fn draw_key(scene: &mut Scene, entries: &[(Color, String)], centre: f64, baseline: f64, size: f64) {
    let mut x = centre - key_width(entries, size) / 2.0;
    for (color, text) in entries {
        let swatch = size;
        scene.push(
            PathItem::rect(x, baseline - swatch, swatch, swatch)
                .filled(*color)
                .stroked(Color::gray(0.45), 1.0),
        );
        x += size * 1.5;
        scene.push(TextItem {
            x,
            y: baseline,
            text: text.clone(),
            size,
            color: INK,
            halign: HAlign::Left,
            valign: VAlign::Baseline,
            rotation: 0.0,
        });
        x += font::text_width(text, size) + size * 1.5;
    }
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
        self.figure
            .write_solved(self.solution()?, format, out, metadata)
    }

    fn default_stem(&self) -> String {
        format!("grundy-{}", self.figure.game.name())
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
            err.contains("needs 2 free coordinates") && err.contains("--slice"),
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
        assert_eq!((layer.rows, layer.cols), (8, 8));
        let texts: Vec<String> = scene
            .items
            .iter()
            .filter_map(|i| match i {
                crate::scene::Item::Text(t) => Some(t.text.clone()),
                _ => None,
            })
            .collect();
        // Header labels 0..6 twice, the corner, then one label per position.
        let positions = (0..=6u32)
            .flat_map(|x| (0..=6u32).map(move |y| (x, y)))
            .filter(|&(x, y)| y <= (x + 4) / 3)
            .count();
        assert_eq!(texts.len(), 1 + 7 + 7 + positions);
        for x in 0..=6u32 {
            for y in 0..=6u32 {
                let index = layer.indices[(x as usize + 1) * 8 + y as usize + 1];
                match sol.get(&[x, y, 4]) {
                    Some(v) => assert_eq!(u32::from(index), u32::from(v) % 3),
                    None => assert_eq!(index, 4, "outside grey at {x},{y}"),
                }
            }
        }
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

    #[test]
    fn ink_contrasts_with_the_cell() {
        assert_eq!(ink_on(Color::WHITE), Color::BLACK);
        assert_eq!(ink_on(Color::rgb(0, 0, 0x80)), Color::WHITE);
        for c in TablePalette::Paper.colors() {
            assert_eq!(ink_on(*c), Color::BLACK, "{c:?}");
        }
    }
}
