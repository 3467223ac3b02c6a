//! A Grundy figure over a parameter or a slice (`--param k=1..8`, `--k 1..8`,
//! `--slice y=0..10`): one panel per value, laid out as a sheet (the squares'
//! [`SheetLayout`]) or played as the frames of an animation, every frame one
//! page size.
//!
//! A panel is the one-value figure as it lays itself out, drawn at the panel's
//! width with the sheet's type scale and labelled "k = 3"; the sheet only places
//! panels. With one scale (`--scale common`) the P-position plots (sieve,
//! points) share their axes, so k = 2 and k = 3 read at the same scale.

use super::spec::{GrundyFigure, GrundyPlot};
use crate::games::Solution;
use crate::library::encode::animation::{self, Animation, FramePalette, Frames};
use crate::library::encode::{self, Format, Metadata};
use crate::library::figure::plan::{Computed, Plan, Spec};
use crate::library::scene::color::INK;
use crate::library::scene::layout::{fit_title, SheetLayout};
use crate::library::scene::units::PrintStyle;
use crate::library::scene::{Color, Item, Role, Scene, TypeScale};
use crate::{Control, Error, Result};
use std::io::Write;
use std::sync::Arc;

/// The most panels one sheet or animation takes.
pub const MAX_PANELS: usize = 64;

/// The narrowest panel a plot is drawn in, scene units: a plot's own least
/// `width` (its axes' labels need it).
pub const MIN_PANEL: u32 = 120;

/// A sheet's width when none is asked for, px.
pub const DEFAULT_SHEET_WIDTH: u32 = 1200;

/// An animation frame's width when none is asked for, px.
pub const DEFAULT_FRAME_WIDTH: u32 = 720;

/// One Grundy figure per value of a parameter or a slice coordinate.
#[derive(Clone, Debug)]
pub struct GrundySheet {
    /// What varies, as the labels name it (`k`, `y`).
    pub name: String,
    /// The family as the default title names it (`cap floor(min(x,z)/k)`).
    pub family: String,
    /// The figure of each value and its label (`k = 3`), in order.
    pub panels: Vec<(String, GrundyFigure)>,
    /// The title over the sheet and over every frame; `None` for none.
    pub title: Option<String>,
    /// Panels per row of the sheet; `None`: as many as fit, up to a grid about 3:2 wide.
    pub columns: Option<usize>,
    /// One scale for every panel: P-position plots share their axes.
    pub common_scale: bool,
    /// The sheet's (or a frame's) whole width in scene units, if asked.
    pub width: Option<u32>,
    /// Resolution, paper, typeface and text handling of the whole sheet.
    pub print: PrintStyle,
    /// Timing and looping of the animation.
    pub animation: Animation,
    /// Refuse work that would need more bytes than this (shared out among the panels).
    pub memory_limit: u64,
}

/// Where the panels go: the sheet's width, the panels' and the spacing.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Geometry {
    width: u32,
    columns: usize,
    panel: u32,
    gap: u32,
    margin: u32,
}

impl GrundySheet {
    fn on_paper(&self) -> bool {
        self.print.print.dpi.is_some()
    }

    /// The type scale of a sheet `width` units wide.
    fn scale(&self, width: u32) -> TypeScale {
        TypeScale::new(f64::from(width), self.on_paper())
    }

    /// Gap between panels and margin around them at `width`: half the label
    /// size between panels (a plot keeps room around its axes itself, so no
    /// more is needed), none around them: the page is the panels' own.
    fn spacing(&self, width: u32) -> (u32, u32) {
        let label = self.scale(width).size(Role::Label);
        ((label / 2.0).round() as u32, 0)
    }

    /// The geometry of `columns` panels in a sheet `width` units wide.
    fn geometry_at(&self, width: u32, columns: usize) -> Geometry {
        let (gap, margin) = self.spacing(width);
        Geometry {
            width,
            columns,
            panel: SheetLayout::panel_width_for(width, columns, gap, margin),
            gap,
            margin,
        }
    }

    /// A width in words: mm and pt on paper, px on screen.
    fn length(&self, units: u32) -> String {
        if self.on_paper() {
            let mm = (f64::from(units) / 72.0 * 25.4 * 1000.0).ceil() / 1000.0;
            format!(
                "{} mm ({units} pt)",
                crate::library::scene::units::trim_number(mm)
            )
        } else {
            format!("{units} px")
        }
    }

    /// Refuses `columns` panels in `width` when a panel would be narrower than
    /// a plot can be, naming the smallest width that holds them.
    fn check_fits(&self, geometry: Geometry, what: &str) -> Result<()> {
        if geometry.panel >= MIN_PANEL || self.tables() {
            return Ok(());
        }
        let columns = geometry.columns;
        let least = (geometry.width..=65_535)
            .find(|&w| self.geometry_at(w, columns).panel >= MIN_PANEL)
            .unwrap_or(65_535);
        Err(Error::invalid_parameter("width", format!(
            "`width` {} leaves {} per panel for {columns} column(s) of {what}, under the {} a plot needs; give `width` {} or more{}",
            self.length(geometry.width),
            self.length(geometry.panel),
            self.length(MIN_PANEL),
            self.length(least),
            if columns > 1 { ", or fewer `columns`" } else { "" }
        )))
    }

    /// Whether the panels are tables, whose cells decide their own width.
    fn tables(&self) -> bool {
        self.panels
            .first()
            .is_some_and(|(_, f)| matches!(f.resolved_plot(), Ok(GrundyPlot::Table)))
    }

    /// The sheet's geometry: the columns asked for, or the most (up to a grid
    /// about 3:2 wide) whose panels are wide enough.
    fn sheet_geometry(&self) -> Result<Geometry> {
        let count = self.panels.len();
        let width = self.width.unwrap_or(DEFAULT_SHEET_WIDTH);
        if let Some(columns) = self.columns {
            let geometry = self.geometry_at(width, columns.min(count));
            self.check_fits(geometry, "the sheet")?;
            return Ok(geometry);
        }
        let most = SheetLayout::default_columns(count);
        let fitting = (1..=most)
            .rev()
            .map(|c| self.geometry_at(width, c))
            .find(|g| g.panel >= MIN_PANEL || self.tables());
        match fitting {
            Some(geometry) => Ok(geometry),
            None => {
                self.check_fits(self.geometry_at(width, 1), "the sheet")?;
                Ok(self.geometry_at(width, 1))
            }
        }
    }

    /// The geometry of every animation frame: one panel the frame's width.
    fn frame_geometry(&self) -> Result<Geometry> {
        let geometry = self.geometry_at(self.width.unwrap_or(DEFAULT_FRAME_WIDTH), 1);
        self.check_fits(geometry, "an animation frame")?;
        Ok(geometry)
    }

    /// Value `k`'s figure as a panel `panel` units wide, its text at the type
    /// scale of a figure `type_width` wide, its axes spanning `extent` at least.
    fn panel_figure(
        &self,
        k: usize,
        panel: u32,
        type_width: u32,
        extent: Option<(i64, i64, i64)>,
    ) -> GrundyFigure {
        let (label, figure) = &self.panels[k];
        let mut figure = figure.clone();
        let scale = self.scale(type_width);
        figure.view.width = panel;
        figure.view.width_asked = true;
        // Tall enough for any plot: the plot cuts its page to what it draws.
        figure.view.height = (panel * 2).clamp(64, 8000);
        figure.view.height_asked = false;
        figure.view.height_pt = None;
        figure.view.type_width = Some(type_width);
        figure.view.common_extent = extent;
        figure.view.labels.caption = Some(label.clone());
        figure.view.labels.caption_size = Some(scale.size(Role::Label));
        figure.table.caption = Some(label.clone());
        figure.table.title = true;
        if figure.table.cell.is_none() {
            figure.table.width = Some(panel);
        }
        // The page is the sheet's; a panel is no page of its own.
        figure.table.print = PrintStyle {
            exact_width_pt: None,
            ..self.print
        };
        figure.memory_limit = self.memory_limit / self.panels.len().max(1) as u64;
        figure
    }

    /// Checks the panels as the sheet draws them, before anything is solved.
    pub fn validate(&self) -> Result<()> {
        if self.panels.is_empty() {
            return Err(Error::invalid_request("a sheet needs at least one value"));
        }
        if self.panels.len() > MAX_PANELS {
            return Err(Error::invalid_request(format!(
                "{} values of {} make {} panels; a sheet or animation takes at most {MAX_PANELS}: give fewer values (a step, e.g. {}=1..64:4)",
                self.panels.len(),
                self.name,
                self.panels.len(),
                self.name
            )));
        }
        let geometry = self.sheet_geometry()?;
        for k in 0..self.panels.len() {
            let figure = self.panel_figure(k, geometry.panel, geometry.width, None);
            if !matches!(figure.resolved_plot()?, GrundyPlot::Table) {
                figure.validate()?;
            } else {
                figure.frame()?;
            }
        }
        Ok(())
    }

    /// Refuses, before any work, a format a sheet cannot be written as.
    pub fn check_format(&self, format: Format) -> Result<()> {
        match format {
            Format::Png | Format::Svg | Format::Pdf | Format::Tikz => Ok(()),
            Format::Gif | Format::Apng => {
                self.frame_geometry()?;
                Ok(())
            }
            other => Err(Error::unsupported(format!(
                "a sheet over {} is a picture (.png, .svg, .pdf, .tikz) or an animation (.gif, .apng, frames/{}-%02d.pdf); for .{} data ask for one value, e.g. {}={}",
                self.name,
                self.name,
                other.extension(),
                self.name,
                self.panels[0].0.rsplit(' ').next().unwrap_or("1")
            ))),
        }
    }

    /// The title's lines and size at `width`, if the sheet has a title.
    fn title_lines(&self, geometry: Geometry) -> Option<(Vec<String>, f64)> {
        let text = self.title.as_ref()?;
        let scale = self.scale(geometry.width);
        let size = scale.size(Role::Title);
        let room = f64::from(geometry.width.saturating_sub(4 * geometry.gap)).max(1.0);
        Some(fit_title(text, size, size.min(scale.floor()), room, 2))
    }

    /// The panels drawn at `geometry`, from the solutions.
    fn panel_scenes(&self, solutions: &[Solution], geometry: Geometry) -> Result<Vec<Scene>> {
        let extent = if self.common_scale {
            let mut joined: Option<(i64, i64, i64)> = None;
            for ((_, figure), solution) in self.panels.iter().zip(solutions) {
                if let Some((y, lo, hi)) = figure.plotted_extent(solution)? {
                    joined = Some(match joined {
                        Some((a, b, c)) => (a.max(y), b.min(lo), c.max(hi)),
                        None => (y, lo, hi),
                    });
                }
            }
            joined
        } else {
            None
        };
        let label_size = self.scale(geometry.width).size(Role::Label);
        (0..self.panels.len())
            .map(|k| {
                let figure = self.panel_figure(k, geometry.panel, geometry.width, extent);
                let mut scene = figure.scene(&solutions[k])?;
                scene.paper = None;
                // The panel's title is its label ("k = 3"), at the label size.
                for item in &mut scene.items {
                    if let Item::Text(text) = item {
                        if text.role == Role::Title {
                            text.role = Role::Label;
                            text.size = text.size.min(label_size);
                        }
                    }
                }
                Ok(scene)
            })
            .collect()
    }

    /// `panels` placed in a grid of cells `cell` units large at `geometry`,
    /// the title over them, on the sheet's page.
    fn compose(&self, panels: Vec<Scene>, geometry: Geometry, cell: (u32, u32)) -> Scene {
        let columns = geometry.columns.min(panels.len()).max(1);
        let rows = panels.len().div_ceil(columns).max(1) as u32;
        let grid_width = columns as u32 * cell.0 + (columns as u32 - 1) * geometry.gap;
        let width = geometry.width.max(grid_width + 2 * geometry.margin);
        let height = 2 * geometry.margin + rows * cell.1 + (rows - 1) * geometry.gap;
        let left = (width - grid_width) / 2;
        let mut sheet = Scene::new(width, height, Color::WHITE);
        for (k, panel) in panels.into_iter().enumerate() {
            let (column, row) = ((k % columns) as u32, (k / columns) as u32);
            let x =
                left + column * (cell.0 + geometry.gap) + (cell.0 - panel.width.min(cell.0)) / 2;
            let y = geometry.margin + row * (cell.1 + geometry.gap);
            sheet.font = panel.font;
            for mut item in panel.items {
                item.translate(x, y);
                sheet.items.push(item);
            }
        }
        let sheet = match self.title_lines(geometry) {
            Some((lines, size)) => sheet.with_title(&lines, size, INK),
            None => sheet,
        };
        self.print.apply(sheet)
    }

    /// The sheet of every panel.
    pub fn sheet_scene(&self, solutions: &[Solution]) -> Result<Scene> {
        let geometry = self.sheet_geometry()?;
        let panels = match self.panel_scenes(solutions, geometry) {
            // A table's cells decide how narrow it may be, which only its
            // values tell: without `columns`, fewer and wider panels are tried.
            Err(err) if self.tables() && self.columns.is_none() => (1..geometry.columns)
                .rev()
                .find_map(|columns| {
                    let fewer = self.geometry_at(geometry.width, columns);
                    self.panel_scenes(solutions, fewer)
                        .ok()
                        .map(|panels| (panels, fewer))
                })
                .map(|(panels, fewer)| {
                    let cell = largest(&panels);
                    self.compose(panels, fewer, cell)
                })
                .ok_or(err),
            other => other.map(|panels| {
                let cell = largest(&panels);
                self.compose(panels, geometry, cell)
            }),
        }?;
        Ok(panels)
    }

    /// One frame per panel, every frame the size of the largest.
    pub fn frame_scenes(&self, solutions: &[Solution]) -> Result<Vec<Scene>> {
        let geometry = self.frame_geometry()?;
        let panels = self.panel_scenes(solutions, geometry)?;
        let cell = largest(&panels);
        Ok(panels
            .into_iter()
            .map(|panel| self.compose(vec![panel], geometry, cell))
            .collect())
    }

    /// Solves every value's game in turn (each within its share of the memory limit).
    fn solve(&self, control: &Control) -> Result<Vec<Solution>> {
        let geometry = self.sheet_geometry()?;
        crate::library::figure::counted(
            (0..self.panels.len()).map(|k| {
                self.panel_figure(k, geometry.panel, geometry.width, None)
                    .solve(control)
            }),
            self.panels.len(),
            control,
        )
        .collect()
    }
}

/// The size of the largest of `panels`, so every cell (and frame) holds any.
fn largest(panels: &[Scene]) -> (u32, u32) {
    panels
        .iter()
        .fold((1, 1), |(w, h), p| (w.max(p.width), h.max(p.height)))
}

/// The GIF palette of `frames`: every colour they paint with, and shades of
/// those drawn anti-aliased (text and lines).
fn palette_of(frames: &[Scene]) -> Result<FramePalette> {
    let mut solid = vec![Color::WHITE];
    let mut shaded = Vec::new();
    let add = |list: &mut Vec<Color>, c: Color| {
        if c.a != 0 && !list.contains(&c) {
            list.push(c);
        }
    };
    for scene in frames {
        add(&mut solid, scene.background);
        for item in &scene.items {
            match item {
                Item::Cells(cells) => cells.palette.iter().for_each(|&c| add(&mut solid, c)),
                Item::Path(path) => {
                    if let Some(c) = path.fill {
                        add(&mut solid, c);
                    }
                    if let Some((c, _)) = path.stroke {
                        add(&mut solid, c);
                        add(&mut shaded, c);
                    }
                }
                Item::Text(text) => {
                    add(&mut solid, text.color);
                    add(&mut shaded, text.color);
                }
            }
        }
    }
    FramePalette::new(&solid, &shaded)
}

impl Spec for GrundySheet {
    fn validate(&self) -> Result<()> {
        GrundySheet::validate(self)
    }
}

/// A sheet and its games' solutions, solved once for every format.
pub type GrundySheetPlan = Plan<GrundySheet, Computed<Vec<Solution>>>;

impl GrundySheetPlan {
    /// The solutions, computed on first use.
    pub fn solutions(&self, control: &Control) -> Result<Arc<Vec<Solution>>> {
        self.cache().get_or_compute(|| {
            crate::library::figure::plan::computing_model();
            self.spec().solve(control)
        })
    }

    fn frames_of(&self, control: &Control) -> Result<(Vec<Scene>, (u32, u32))> {
        let frames = self.spec().frame_scenes(&self.solutions(control)?)?;
        let size = frames.first().map_or((1, 1), Scene::pixel_size);
        Ok((frames, size))
    }
}

impl crate::library::figure::Figure for GrundySheetPlan {
    fn formats(&self) -> Vec<Format> {
        vec![Format::Png, Format::Svg, Format::Gif, Format::Apng]
    }

    fn check(&self, format: Format) -> Result<()> {
        self.spec().check_format(format)
    }

    fn write_to(
        &self,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        match format {
            Format::Gif => {
                let (frames, size) = self.frames_of(control)?;
                let palette = palette_of(&frames)?;
                animation::write_gif(
                    out,
                    size,
                    &palette,
                    frames.into_iter().map(Ok),
                    &self.animation,
                    self.memory_limit,
                )
            }
            Format::Apng => {
                // Solved under `control`, so a cancelled run stops in the solve too.
                let (frames, size) = self.frames_of(control)?;
                let frames = Frames {
                    size,
                    count: frames.len(),
                    animation: self.animation,
                    memory_limit: self.memory_limit,
                    scenes: Box::new(frames.into_iter().map(Ok)),
                };
                animation::write_apng(
                    out,
                    crate::library::figure::controlled(frames, control),
                    metadata,
                )
            }
            _ => {
                let scene = self.spec().sheet_scene(&self.solutions(control)?)?;
                encode::write_scene_to(out, format, &scene, metadata, self.memory_limit, control)
            }
        }
    }

    fn default_stem(&self) -> String {
        let words: String = format!("{} {}", self.family, self.name)
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let words: Vec<&str> = words.split('-').filter(|w| !w.is_empty()).collect();
        format!("grundy-sheet-{}", words.join("-"))
    }

    fn still_scene(&self, control: &Control) -> Result<Option<Arc<Scene>>> {
        let scene = self.spec().sheet_scene(&self.solutions(control)?)?;
        Ok(Some(Arc::new(scene)))
    }

    fn frames(&self) -> Result<Frames<'_>> {
        let (frames, size) = self.frames_of(&Control::default())?;
        Ok(Frames {
            size,
            count: frames.len(),
            animation: self.animation,
            memory_limit: self.memory_limit,
            scenes: Box::new(frames.into_iter().map(Ok)),
        })
    }
}
