//! The square-board figure: one board, a contact sheet, or a raw 1-bit board,
//! written as PNG, SVG, CSV or JSON. A validated spec that the CLI (and later
//! recipes) fill in; writing it is the only I/O.

pub mod overlay;
pub mod window;

use super::animation::BoardAnimation;
use crate::error::{check_memory, DEFAULT_MEMORY_LIMIT};
use crate::library::encode::animation::Animation;
use crate::library::encode::{self, npy, png as png_enc, Format, Metadata};
use crate::library::figure::plan::{Computed, Plan, Spec};
use crate::library::scene::board::{
    self, BlockMark, BoardPanel, BoardStyle, LegendEntry, PanelSize,
};
use crate::library::scene::color::okabe_ito;
use crate::library::scene::legend::Swatch;
use crate::library::scene::{Color, Scene};
use crate::pattern::decompose::Decomposition;
use crate::pattern::{check_board, count_cells, p_grid, write_bilevel_row, SignatureIndex};
use crate::Control;
use crate::{BitGrid, Error, Result};
use std::io::Write;
use std::sync::Arc;

/// How a square figure is drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum SquareMode {
    /// Panels with colours, captions and optional decomposition marks.
    Styled {
        /// Colours and spacing.
        style: BoardStyle,
        /// Cell or panel size; `None` picks one that suits the boards.
        size: Option<PanelSize>,
        /// Panels per row of a sheet; `None` picks one.
        columns: Option<usize>,
        /// Outline Theorem 3.4's corner and centre blocks.
        decompose: bool,
    },
    /// One pixel (or SVG unit) per cell, no margin, P cells black: for checking pixel by pixel.
    Raw {
        /// PNG compression effort.
        compression: png_enc::Compression,
    },
}

/// Boards of C(m,n) to draw or list.
#[derive(Debug, Clone, PartialEq)]
pub struct SquareFigure {
    /// The row counts m, one board each.
    pub boards: Vec<u64>,
    /// The column count n for rectangular boards; `None` means square (n = m).
    pub n: Option<u64>,
    /// Drawing mode.
    pub mode: SquareMode,
    /// Refuse figures whose raster would need more bytes than this.
    pub memory_limit: u64,
    /// Timing and looping of a `.gif` (one frame per board, in the order given).
    pub animation: Animation,
    /// Another game's P-cells drawn over the board (styled square boards only).
    pub overlay: Option<SquareOverlay>,
    /// Animations (`.gif`, `.apng`, frame sequences): one cell size for every
    /// board (`--scale common`) instead of every board filling its frame.
    pub common_scale: bool,
    /// Levels of `decompose` outlines: the board's blocks (1), their own
    /// blocks (2), and so on.
    pub decompose_depth: u32,
}

/// A game whose P-cells are drawn over the square board's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SquareOverlay {
    /// Nim with a pass on the board's four heaps (Okubo, Kashiwagi, Niida, Figures 8–11):
    /// Nim P-cells blue, pass-game P-cells red.
    NimPass,
}

/// Colours of the decomposition marks: corners and centre, distinct for colour-blind readers.
pub const CORNER_COLOR: Color = okabe_ito::VERMILLION;
/// See [`CORNER_COLOR`].
pub const CENTRE_COLOR: Color = okabe_ito::BLUISH_GREEN;

impl SquareMode {
    /// Styled boards in `style`, sized and laid out as suits them, without
    /// decomposition marks.
    pub fn styled(style: BoardStyle) -> Self {
        SquareMode::Styled {
            style,
            size: None,
            columns: None,
            decompose: false,
        }
    }
}

impl SquareFigure {
    /// Square boards `boards` drawn in `mode`, with the defaults for everything
    /// else: square (n = m), [`DEFAULT_MEMORY_LIMIT`], [`Animation::default`], no
    /// overlay. Set other fields with struct update syntax,
    /// `SquareFigure { n: Some(5), ..SquareFigure::new(boards, mode) }`, so that
    /// callers keep compiling when a field is added.
    pub fn new(boards: Vec<u64>, mode: SquareMode) -> Self {
        SquareFigure {
            boards,
            n: None,
            mode,
            memory_limit: DEFAULT_MEMORY_LIMIT,
            animation: Animation::default(),
            overlay: None,
            common_scale: false,
            decompose_depth: 1,
        }
    }

    fn size_of(&self, m: u64) -> (u64, u64) {
        (m, self.n.unwrap_or(m))
    }

    /// Checks the parameters, before anything is computed.
    pub fn validate(&self) -> Result<()> {
        for &m in &self.boards {
            let (m, n) = self.size_of(m);
            check_board(m, n).map_err(|err| too_large_to_draw_whole(m, n).unwrap_or(err))?;
        }
        match &self.mode {
            SquareMode::Raw { .. } if self.boards.len() > 1 => Err(Error::unsupported(
                "`raw` draws one board; give a single `m` (a sheet of several boards is the styled mode)",
            )),
            SquareMode::Styled { decompose: true, .. } if self.n.is_some_and(|n| self.boards.iter().any(|&m| m != n)) => {
                Err(Error::unsupported("`decompose` needs square boards; drop `n`"))
            }
            _ if self.overlay.is_some() => overlay::check_overlay(
                &self.boards,
                self.n,
                matches!(self.mode, SquareMode::Raw { .. }),
                self.memory_limit,
            ),
            _ => Ok(()),
        }
    }

    /// The caption of board m.
    fn caption(&self, m: u64) -> String {
        match self.n {
            Some(n) if n != m => format!("m = {m}, n = {n}"),
            _ => format!("m = {m}"),
        }
    }

    fn default_size(&self, decompose: bool) -> PanelSize {
        if self.boards.len() == 1 {
            let (m, n) = self.size_of(self.boards[0]);
            PanelSize::Cell((640 / m.max(n)).clamp(1, 48) as u32)
        } else if decompose {
            // Room for the legend naming s and t under each board.
            PanelSize::Panel(240)
        } else {
            PanelSize::Panel(180)
        }
    }

    /// The scene, refused first when writing it as `format` would pass the memory
    /// limit; drawn once per plan (`cache`) for every format.
    fn scene_for(
        &self,
        format: Format,
        cache: &SquareCache,
        control: &Control,
    ) -> Result<Arc<Scene>> {
        let SquareMode::Styled {
            style,
            size,
            columns,
            decompose,
        } = &self.mode
        else {
            return cache.scene.get_or_compute(|| self.raw_scene(control));
        };
        let size = size.unwrap_or_else(|| self.default_size(*decompose));
        let shapes: Vec<(usize, usize)> = self
            .boards
            .iter()
            .map(|&m| self.size_of(m))
            .map(|(m, n)| (m as usize, n as usize))
            .collect();
        let pixels = board::sheet_pixels(&shapes, size, *columns, style);
        let cells: u64 = shapes.iter().fold(0u64, |n, &(m, c)| {
            n.saturating_add((m as u64).saturating_mul(c as u64))
        });
        // Before the scene exists: building it (two bytes a cell) and, for a raster,
        // drawing it (encode::scene_peak_bytes' rate). SVG and PDF cost by runs of
        // equal cells, which the boards' signatures give without the model (a
        // lower bound with an overlay, whose cells split runs further; encode
        // checks the scene's own once it exists): the scene and its runs then.
        let peak = match format {
            Format::Svg | Format::Pdf | Format::Tikz => {
                let building = cells.saturating_mul(2);
                // Runs are counted only for boards the building check lets through.
                if building <= self.memory_limit {
                    let runs = shapes.iter().fold(0u64, |sum, &(m, n)| {
                        sum.saturating_add(crate::pattern::row_runs(m as u64, n as u64))
                    });
                    building
                        .max(cells.saturating_add(crate::library::encode::run_bytes(format, runs)))
                } else {
                    building
                }
            }
            _ => pixels
                .saturating_mul(11)
                .saturating_add(cells.saturating_mul(2)),
        };
        check_memory(
            || describe(&self.boards, self.n, size),
            peak,
            self.memory_limit,
            "use `raw` for one pixel per cell (streamed, a few MiB), or a smaller `cell` / `panel`",
        )?;
        cache.scene.get_or_compute(|| {
            let grids = match self.overlay {
                Some(_) => None,
                None => Some(self.grids(cache, control)?),
            };
            self.styled_scene(
                style,
                size,
                *columns,
                *decompose,
                grids.as_deref().map(Vec::as_slice),
                control,
            )
        })
    }

    /// The P-set of every board, computed once per plan for its pictures and data.
    fn grids(&self, cache: &SquareCache, control: &Control) -> Result<Arc<Vec<BitGrid>>> {
        cache.grids.get_or_compute(|| {
            crate::library::figure::plan::computing_model();
            self.boards
                .iter()
                .map(|&m| {
                    let (rows, cols) = self.size_of(m);
                    p_grid(rows as usize, cols as usize, control)
                })
                .collect()
        })
    }

    /// Every board's panel (the model: P-sets, or the overlay's games), laid out.
    fn styled_scene(
        &self,
        style: &BoardStyle,
        size: PanelSize,
        columns: Option<usize>,
        decompose: bool,
        grids: Option<&[BitGrid]>,
        control: &Control,
    ) -> Result<Scene> {
        if grids.is_none() {
            // The overlay's games: Nim and Nim with a pass on every board.
            crate::library::figure::plan::computing_model();
        }
        let panels: Vec<BoardPanel> = self
            .boards
            .iter()
            .enumerate()
            .map(|(k, &m)| {
                let mut panel = match grids {
                    Some(grids) => BoardPanel::from_bits(&grids[k], style),
                    None => overlay::nim_pass_panel(m, style, self.memory_limit, control)?,
                }
                .with_caption(self.caption(m));
                if decompose {
                    mark_decomposition(&mut panel, m);
                    mark_nested(&mut panel, m, self.decompose_depth);
                }
                Ok(panel)
            })
            .collect::<Result<_>>()?;
        if self.overlay.is_some() {
            let key = overlay::overlay_key(style);
            return Ok(board::sheet_with_key(&panels, size, columns, style, &key));
        }
        if !decompose {
            return Ok(board::sheet(&panels, size, columns, style));
        }
        let widest = panels
            .iter()
            .map(|p| board::board_pixels(p.rows, p.cols, size).0)
            .max()
            .unwrap_or(0);
        let key = decomposition_key(widest, self.decompose_depth);
        Ok(board::sheet_with_key(&panels, size, columns, style, &key))
    }

    fn raw_scene(&self, control: &Control) -> Result<Scene> {
        crate::library::figure::plan::computing_model();
        let (m, n) = self.size_of(self.boards[0]);
        check_memory(
            || format!("a raw {m} x {n} board as SVG"),
            m * n,
            self.memory_limit,
            "write the raw board as .png, which is streamed",
        )?;
        Ok(Scene::raw_bits(&p_grid(m as usize, n as usize, control)?))
    }

    /// Refuses the formats this figure cannot show, before any work.
    fn check_format(&self, format: Format) -> Result<()> {
        if format == Format::Npy {
            if self.boards.len() != 1 {
                return Err(Error::unsupported(
                    "a .npy array holds one board: give one `m` (a sheet is an image)",
                ));
            }
            if self.overlay.is_some() {
                return Err(Error::unsupported(
                    "`overlay` draws still images (.png, .svg); for the P-positions as data use nimscape grundy nim-pass `heaps` 4",
                ));
            }
            return Ok(());
        }
        match (format, &self.mode) {
            (Format::Csv | Format::Json | Format::Gif | Format::Apng, _) if self.overlay.is_some() => Err(Error::unsupported(
                "`overlay` draws still images (.png, .svg); for the P-positions as data use nimscape grundy nim-pass `heaps` 4",
            )),
            (Format::Csv | Format::Json | Format::Gif | Format::Apng, SquareMode::Raw { .. }) => {
                Err(Error::unsupported(
                    "`raw` draws one image; write .png or .svg, or drop `raw` for .gif, .csv or .json",
                ))
            }
            // The cells are streamed row by row from an index of the columns (or the
            // P-sets a picture of this plan computed, which cost more still).
            (Format::Csv | Format::Json, _) => self.boards.iter().try_for_each(|&m| {
                let (rows, cols) = self.size_of(m);
                check_memory(
                    || format!("the P-cells of a {rows} x {cols} board"),
                    crate::pattern::signature_index_bytes(cols),
                    self.memory_limit,
                    "use a smaller `n` (or `m`)",
                )
            }),
            (Format::Png, SquareMode::Raw { .. }) => {
                let (m, n) = self.size_of(self.boards[0]);
                check_memory(
                    || format!("a raw {m} x {n} board as a 1-bit .png"),
                    png_enc::bilevel_peak_bytes(n, m),
                    self.memory_limit,
                    "use a smaller `m` (or `n`)",
                )
            }
            _ => Ok(()),
        }
    }

    /// Writes the figure as `format` to `out`.
    fn write_format(
        &self,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        cache: &SquareCache,
        control: &Control,
    ) -> Result<()> {
        match (format, &self.mode) {
            (Format::Gif, SquareMode::Styled { .. }) => self.write_gif(out, control),
            (Format::Apng, _) => encode::animation::write_apng(
                out,
                crate::library::figure::controlled(self.board_frames()?, control),
                metadata,
            ),
            (Format::Png, SquareMode::Raw { compression }) => {
                let (m, n) = self.size_of(self.boards[0]);
                if m > u64::from(u32::MAX) || n > u64::from(u32::MAX) {
                    return Err(Error::invalid_parameter(
                        "raw",
                        "`raw` PNG sides must fit in 32 bits",
                    ));
                }
                png_enc::write_bilevel(
                    out,
                    n as u32,
                    m as u32,
                    *compression,
                    metadata,
                    control,
                    |row, bytes| write_bilevel_row(m, n, row, bytes),
                )
            }
            (Format::Npy, _) => self.write_npy(out, control),
            (Format::Csv, _) => self
                .write_csv(out, cache.grids.get().as_deref().map(Vec::as_slice))
                .map_err(Error::write_failed),
            (Format::Json, _) => self
                .write_json(out, cache.grids.get().as_deref().map(Vec::as_slice))
                .map_err(Error::write_failed),
            _ => encode::write_scene_to(
                out,
                format,
                &*self.scene_for(format, cache, control)?,
                metadata,
                self.memory_limit,
                control,
            ),
        }
    }

    /// One frame per board, every board drawn at the same size (the paper's
    /// (1/m)·R(m,m)), so the animation over m reads as refinement; or, with
    /// `--scale common`, every board at one cell size so growth shows.
    fn board_animation(&self) -> Result<BoardAnimation> {
        let SquareMode::Styled {
            style,
            size,
            decompose,
            ..
        } = &self.mode
        else {
            return Err(Error::unsupported(
                "`raw` draws one image; drop `raw` for an animation",
            ));
        };
        if self.n.is_some_and(|n| self.boards.iter().any(|&m| m != n)) {
            return Err(Error::unsupported(
                "an animation shows square boards over m, every frame the same size; drop `n`",
            ));
        }
        let largest = self.boards.iter().copied().max().unwrap_or(1);
        let panel_px = super::animation::frame_panel(
            style,
            *size,
            largest,
            crate::library::figure::automaton::DEFAULT_GIF_PANEL,
        )?;
        if panel_px > crate::library::encode::gif::MAX_SIDE as u64 {
            return Err(Error::invalid_parameter("panel", format!(
                "animation frames of {panel_px} px (board {largest} at the asked size) exceed the GIF format's limit of {} px per side; use a smaller `panel` or `cell`",
                crate::library::encode::gif::MAX_SIDE
            )));
        }
        if self.common_scale && panel_px < largest {
            return Err(Error::invalid_parameter("scale", format!(
                "`scale` common draws board {largest} at a whole number of pixels per cell: give `panel` {largest} or more (or `cell` 1)"
            )));
        }
        let animation = BoardAnimation {
            panel_px: panel_px as u32,
            largest: largest as usize,
            // Under each board its caption and, decomposed, its s and t.
            text_lines: usize::from(style.captions) + usize::from(*decompose),
            style: style.clone(),
            colours: if *decompose {
                vec![CORNER_COLOR, CENTRE_COLOR]
            } else {
                Vec::new()
            },
            animation: self.animation,
            common_scale: self.common_scale,
            key: if *decompose {
                decomposition_key(panel_px as u32, self.decompose_depth)
            } else {
                Vec::new()
            },
        };
        animation.validate()?;
        Ok(animation)
    }

    /// Every board as a panel, in the order given, captioned with its m.
    fn animation_panels(&self) -> impl Iterator<Item = Result<BoardPanel>> + '_ {
        let (style, decompose) = match &self.mode {
            SquareMode::Styled {
                style, decompose, ..
            } => (style.clone(), *decompose),
            SquareMode::Raw { .. } => (BoardStyle::default(), false),
        };
        self.boards.iter().map(move |&m| {
            let m_usize = m as usize;
            // The caller's controlled iterator stops a cancelled run between boards.
            let grid = p_grid(m_usize, m_usize, &Control::default())?;
            let mut panel = BoardPanel::from_bits(&grid, &style).with_caption(self.caption(m));
            if decompose {
                mark_decomposition(&mut panel, m);
                mark_nested(&mut panel, m, self.decompose_depth);
            }
            Ok(panel)
        })
    }

    fn write_gif(&self, out: &mut dyn Write, control: &Control) -> Result<()> {
        let animation = self.board_animation()?;
        // A frame costs its board's cells and its pixels: boards 1..4096 spend
        // nearly all their time on the last few hundred.
        let (width, height) = animation.frame_size();
        let pixels = u64::from(width) * u64::from(height);
        let weights = self
            .boards
            .iter()
            .map(|&m| m.saturating_mul(m).saturating_add(pixels))
            .collect();
        let panels = crate::library::figure::weighted(self.animation_panels(), weights, control);
        animation.write(out, panels, self.memory_limit)
    }

    fn board_frames(&self) -> Result<crate::library::encode::animation::Frames<'_>> {
        self.board_animation()?.frames(
            self.boards.len(),
            self.animation_panels(),
            self.memory_limit,
        )
    }

    /// `i,j` (one board) or `m,i,j` (several): every P cell, 1-based, sorted.
    /// `grids` are the boards' P-sets when a picture of this plan computed them;
    /// without them the cells are streamed from the P-criterion row by row.
    fn write_csv(&self, out: &mut dyn Write, grids: Option<&[BitGrid]>) -> std::io::Result<()> {
        let several = self.boards.len() > 1;
        writeln!(out, "{}", if several { "m,i,j" } else { "i,j" })?;
        if grids.is_none() {
            crate::library::figure::plan::computing_model();
        }
        for (k, &m) in self.boards.iter().enumerate() {
            let (rows, cols) = self.size_of(m);
            for_each_p_cell(rows, cols, grids.map(|g| &g[k]), |i, j| {
                if several {
                    writeln!(out, "{m},{i},{j}")
                } else {
                    writeln!(out, "{i},{j}")
                }
            })?;
        }
        Ok(())
    }

    /// Every board with its P-cells, streamed (a 16383 board has 10^8 cells: building
    /// a JSON tree of them took gigabytes). Keys in sorted order, as serde_json writes
    /// a map; one board alone, several as `{"boards": [...]}`.
    fn write_json(&self, out: &mut dyn Write, grids: Option<&[BitGrid]>) -> std::io::Result<()> {
        let several = self.boards.len() > 1;
        if grids.is_none() {
            crate::library::figure::plan::computing_model();
        }
        if several {
            write!(out, "{{\"boards\":[")?;
        }
        for (k, &m) in self.boards.iter().enumerate() {
            if k > 0 {
                write!(out, ",")?;
            }
            let (rows, cols) = self.size_of(m);
            let count =
                count_cells(rows, cols, &Control::default()).map_err(std::io::Error::other)?;
            write!(out, "{{\"count\":{count}")?;
            if rows == cols {
                let d = Decomposition::of(rows);
                write!(out, ",\"decomposition\":{{\"s\":{},\"t\":{}}}", d.s, d.t)?;
            }
            write!(out, ",\"m\":{rows},\"n\":{cols},\"p_positions\":[")?;
            let mut first = true;
            for_each_p_cell(rows, cols, grids.map(|g| &g[k]), |i, j| {
                let comma = if std::mem::take(&mut first) { "" } else { "," };
                write!(out, "{comma}[{i},{j}]")
            })?;
            write!(out, "]}}")?;
        }
        if several {
            write!(out, "]}}")?;
        }
        writeln!(out)
    }

    /// One board as a `uint8` array of shape `(m, n)`: 1 for a P-cell, 0 otherwise,
    /// `a[i-1, j-1]` for cell (i, j). Streamed row by row.
    fn write_npy(&self, out: &mut dyn Write, control: &Control) -> Result<()> {
        let (rows, cols) = self.size_of(self.boards[0]);
        control.add_total(rows);
        let mut write = || -> Result<()> {
            npy::write_header(out, "|u1", &[rows, cols]).map_err(Error::write_failed)?;
            let cols = cols as usize;
            let mut packed = vec![0u8; cols.div_ceil(8)];
            let mut row = vec![0u8; cols];
            for r in 0..rows as usize {
                // A row of 65536 cells is tens of microseconds: check every 64.
                if r % 64 == 0 {
                    control.check()?;
                    control.advance(64.min(rows - r as u64));
                }
                // The 1-bit PNG row kernel: P-cells are the 0 bits.
                write_bilevel_row(rows, cols as u64, r, &mut packed);
                for (c, cell) in row.iter_mut().enumerate() {
                    *cell = u8::from(packed[c / 8] >> (7 - c % 8) & 1 == 0);
                }
                out.write_all(&row).map_err(Error::write_failed)?;
            }
            Ok(())
        };
        write()
    }

    /// Bytes of the `.csv` or `.json` data, computed from the P-cell counts (O(m) per
    /// board), for the disk guard before anything is written.
    pub fn data_bytes(&self, format: Format) -> u64 {
        let digits = |v: u64| u64::from(v.checked_ilog10().unwrap_or(0) + 1);
        let several = self.boards.len() > 1;
        self.boards.iter().fold(0u64, |total, &m| {
            let (rows, cols) = self.size_of(m);
            // An estimate, O(m): a control nobody holds is never cancelled.
            let cells = count_cells(rows, cols, &Control::default()).unwrap_or(u64::MAX);
            // "i,j\n" or "[i,j]," at most, with the widest coordinates.
            let mut line = digits(rows) + digits(cols) + 3;
            if several && format == Format::Csv {
                line += digits(m) + 1;
            }
            total
                .saturating_add(cells.saturating_mul(line))
                .saturating_add(128)
        })
    }
}

/// Calls `f(i, j)` for every P-cell of C(rows, cols), 1-based, row by row, columns
/// increasing: from `grid` when the board's P-set is at hand, else from the
/// P-criterion in memory O(cols), whatever the board.
fn for_each_p_cell(
    rows: u64,
    cols: u64,
    grid: Option<&BitGrid>,
    mut f: impl FnMut(u64, u64) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if let Some(grid) = grid {
        for (r, c) in grid.ones() {
            f(r as u64 + 1, c as u64 + 1)?;
        }
        return Ok(());
    }
    let index = SignatureIndex::new(cols);
    let mut columns = Vec::new();
    for i in 1..=rows {
        columns.clear();
        columns.extend(index.columns_with(crate::pattern::signature(rows, i)));
        columns.sort_unstable();
        for &c in &columns {
            f(i, c as u64 + 1)?;
        }
    }
    Ok(())
}

fn describe(boards: &[u64], n: Option<u64>, size: PanelSize) -> String {
    let largest = boards.iter().copied().max().unwrap_or(0);
    let n = n.unwrap_or(largest);
    let size = match size {
        PanelSize::Cell(px) => format!("{px} px per cell"),
        PanelSize::Panel(px) => format!("{px} px panels"),
    };
    if boards.len() == 1 {
        format!("a {largest} x {n} board at {size}")
    } else {
        format!(
            "a sheet of {} boards up to {largest} x {n} at {size}",
            boards.len()
        )
    }
}

/// Outlines Theorem 3.4's blocks on a square panel and names its s and t on
/// a line under the caption; what the outlines mean is said once, in
/// [`decomposition_key`].
fn mark_decomposition(panel: &mut BoardPanel, m: u64) {
    let d = Decomposition::of(m);
    for (row, col, side) in d.corners() {
        panel.marks.push(block_mark(row, col, side, Block::Corner));
    }
    let (row, col, side) = d.centre();
    panel.marks.push(block_mark(row, col, side, Block::Centre));
    panel.legend.push(LegendEntry {
        text: decomposition_line(m),
    });
}

/// The line naming board m's s and t under its caption.
pub fn decomposition_line(m: u64) -> String {
    let d = Decomposition::of(m);
    format!("s = {}, t = {}", d.s, d.t)
}

/// The two kinds of block Theorem 3.4 finds in C(m,m).
#[derive(Clone, Copy)]
enum Block {
    /// The four corner copies of R(s,s): solid outlines.
    Corner,
    /// The centre R(t,t): dashed outlines, told from the corners in grey too.
    Centre,
}

fn block_mark(row: u64, col: u64, side: u64, block: Block) -> BlockMark {
    BlockMark {
        row: row as usize,
        col: col as usize,
        height: side as usize,
        width: side as usize,
        color: match block {
            Block::Corner => CORNER_COLOR,
            Block::Centre => CENTRE_COLOR,
        },
        dashed: matches!(block, Block::Centre),
    }
}

/// The outline colour of nested level `depth` (2 and deeper).
fn nested_colour(depth: u32) -> Color {
    // Level 1 is vermillion and bluish green; the default P-cells are
    // blue: deeper levels take the outline colours after those.
    window::OUTLINE_COLOURS[(depth as usize + 1) % window::OUTLINE_COLOURS.len()]
}

/// The decomposition's key, under the whole sheet or frame: each outline
/// drawn as on boards `panel_width` pixels wide, with its meaning; one more
/// entry per nested level down to `depth`.
fn decomposition_key(panel_width: u32, depth: u32) -> Vec<(Swatch, String)> {
    let mut key: Vec<(Swatch, String)> = [
        (Block::Corner, "corners R(s,s)"),
        (Block::Centre, "centre R(t,t)"),
    ]
    .into_iter()
    .map(|(block, text)| {
        let line = block_mark(0, 0, 1, block).line(panel_width);
        (Swatch::Line(line), text.to_string())
    })
    .collect();
    for d in 2..=depth {
        let mark = BlockMark {
            color: nested_colour(d),
            ..block_mark(0, 0, 1, Block::Corner)
        };
        key.push((
            Swatch::Line(mark.line(panel_width)),
            format!("level {d}: their blocks"),
        ));
    }
    key
}

/// Theorem 3.4's blocks of the blocks, levels 2..=`depth`: every block of
/// the level above (its corners, and its centre when smaller than it) cut
/// in turn, outlined in [`window::OUTLINE_COLOURS`] by level (purple, orange, ...).
fn mark_nested(panel: &mut BoardPanel, m: u64, depth: u32) {
    // The blocks a block is cut into, those smaller than it (a power of two
    // is all centre, and is not cut again).
    let inner = |(row, col, side): (u64, u64, u64)| -> Vec<(u64, u64, u64)> {
        Decomposition::of(side)
            .blocks_at(row, col)
            .into_iter()
            .filter(|b| b.2 < side)
            .collect()
    };
    let mut level = inner((0, 0, m));
    for d in 2..=depth {
        let color = nested_colour(d);
        let mut next = Vec::new();
        for (row, col, side) in level.into_iter().filter(|b| b.2 >= 2) {
            let blocks = Decomposition::of(side).blocks_at(row, col);
            let centre = blocks.len() - 1;
            for (k, (r, c, b)) in blocks.into_iter().enumerate() {
                // As on level 1: corners solid, the centre dashed.
                let kind = if k == centre {
                    Block::Centre
                } else {
                    Block::Corner
                };
                panel.marks.push(BlockMark {
                    color,
                    ..block_mark(r, c, b, kind)
                });
            }
            next.extend(inner((row, col, side)));
        }
        level = next;
    }
}

impl Spec for SquareFigure {
    fn validate(&self) -> Result<()> {
        SquareFigure::validate(self)
    }
}

/// The refusal of a board too large to draw whole, naming the way that draws
/// it anyway: a window (`--window`, shrunk by `--bin`), for boards up to 2^62.
/// `None` when the board is not over the whole-board limit (2^31 a side).
fn too_large_to_draw_whole(m: u64, n: u64) -> Option<Error> {
    const WHOLE: u64 = 1 << 31;
    const WINDOWED: u64 = 1 << 62;
    if m.max(n) <= WHOLE || m == 0 || n == 0 {
        return None;
    }
    if m.max(n) > WINDOWED {
        return Some(Error::invalid_parameter("window", format!(
            "board {m} x {n} is too large: a board is drawn whole up to {WHOLE} a side, and a window (`window`, `bin`) of one up to 2^62 = {WINDOWED}"
        )));
    }
    // The whole board in about 512 px a side: blocks of a power of two cells.
    let bin = m.max(n).div_ceil(512).next_power_of_two();
    Some(Error::invalid_parameter("window", format!(
        "board {m} x {n} is too large to draw whole (at most {WHOLE} a side); a board up to 2^62 is drawn through a window: `window` 1..512,1..512 for its first cells, or `window` 1..{m},1..{n} `bin` {bin} for all of it in about 512 px, each pixel shaded by its block's exact share of P-cells"
    )))
}

/// A validated square figure; its scene is drawn once for PNG, SVG and PDF.
pub type SquarePlan = Plan<SquareFigure, SquareCache>;

/// What a square plan computes once: the boards' P-sets and the picture.
#[derive(Default)]
pub struct SquareCache {
    grids: Computed<Vec<BitGrid>>,
    scene: Computed<Scene>,
}

impl SquarePlan {
    /// The scene (panels, captions, marks), drawn once per plan.
    pub fn scene(&self) -> Result<Arc<Scene>> {
        self.spec()
            .scene_for(Format::Png, self.cache(), &Control::default())
    }
}

impl super::Figure for SquarePlan {
    fn still_scene(&self, _control: &Control) -> Result<Option<Arc<Scene>>> {
        self.scene().map(Some)
    }

    fn formats(&self) -> Vec<Format> {
        vec![
            Format::Png,
            Format::Svg,
            Format::Gif,
            Format::Apng,
            Format::Csv,
            Format::Json,
            Format::Npy,
        ]
    }

    fn check(&self, format: Format) -> Result<()> {
        self.check_format(format)
    }

    fn output_bytes(&self, format: Format) -> Option<u64> {
        match format {
            Format::Csv | Format::Json => Some(self.data_bytes(format)),
            Format::Npy => {
                let (rows, cols) = self.size_of(*self.boards.first()?);
                Some(npy::file_bytes(rows.saturating_mul(cols), 1))
            }
            _ => None,
        }
    }

    fn write_to(
        &self,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        self.spec()
            .write_format(format, out, metadata, self.cache(), control)
    }

    fn frames(&self) -> Result<crate::library::encode::animation::Frames<'_>> {
        self.board_frames()
    }

    fn default_stem(&self) -> String {
        match (self.boards.first(), self.boards.last()) {
            (Some(a), Some(b)) if self.boards.len() > 1 => format!("square-{a}-{b}"),
            (Some(a), _) => format!("square-{a}"),
            _ => "square".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::scene::{Item, PathCmd};

    /// Luma as a greyscale print or conversion sees it (ITU-R BT.601).
    fn grey(c: Color) -> f64 {
        0.299 * f64::from(c.r) + 0.587 * f64::from(c.g) + 0.114 * f64::from(c.b)
    }

    fn decomposed(m: u64) -> BoardPanel {
        let style = BoardStyle::default();
        let grid = p_grid(m as usize, m as usize, &Control::new()).unwrap();
        let mut panel = BoardPanel::from_bits(&grid, &style).with_caption(format!("m = {m}"));
        mark_decomposition(&mut panel, m);
        panel
    }

    #[test]
    fn each_board_names_its_s_and_t_and_the_key_says_the_meanings_once() {
        let panel = decomposed(11);
        assert_eq!(panel.caption.as_deref(), Some("m = 11"));
        assert_eq!(panel.legend[0].text, "s = 3, t = 5");
        let corners: Vec<_> = panel.marks.iter().filter(|k| !k.dashed).collect();
        let centre: Vec<_> = panel.marks.iter().filter(|k| k.dashed).collect();
        assert_eq!((corners.len(), centre.len()), (4, 1));
        assert_eq!((centre[0].row, centre[0].width), (3, 5));

        let panels: Vec<BoardPanel> = (9..15).map(decomposed).collect();
        let style = BoardStyle::default();
        let key = decomposition_key(240, 1);
        let scene = board::sheet_with_key(&panels, PanelSize::Panel(240), None, &style, &key);
        let said = |needle: &str| {
            scene
                .items
                .iter()
                .filter(|i| matches!(i, Item::Text(t) if t.text.contains(needle)))
                .count()
        };
        assert_eq!(said("R(s,s)"), 1);
        assert_eq!(said("R(t,t)"), 1);
        assert_eq!(said("s = "), 6);
        // Nested levels keep the convention (one dashed centre a cut block)
        // and each gets one key entry in its own colour.
        let mut nested = decomposed(23);
        mark_nested(&mut nested, 23, 2);
        let level_2: Vec<_> = nested.marks[5..].iter().collect();
        assert!(level_2.iter().all(|k| k.color == nested_colour(2)));
        assert_eq!(level_2.iter().filter(|k| k.dashed).count(), 5);
        let key = decomposition_key(240, 3);
        assert_eq!(key.len(), 4);
        assert_eq!(key[3].1, "level 3: their blocks");
    }

    #[test]
    fn corner_and_centre_outlines_differ_in_grey_by_dashes_and_stand_out_on_any_cell() {
        let style = BoardStyle::default();
        let scene = board::sheet(&[decomposed(11)], PanelSize::Panel(240), None, &style);
        let strokes: Vec<(Color, f64, usize)> = scene
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Path(p) => p.stroke.map(|(c, w)| {
                    let pieces = p
                        .commands
                        .iter()
                        .filter(|c| matches!(c, PathCmd::MoveTo(..)))
                        .count();
                    (c, w, pieces)
                }),
                _ => None,
            })
            .collect();
        let cores = |colour: Color| -> Vec<usize> {
            strokes
                .iter()
                .filter(|s| s.0 == colour)
                .map(|s| s.2)
                .collect()
        };
        // Solid corners (one closed outline each), a dashed centre (many pieces).
        assert_eq!(cores(CORNER_COLOR), vec![1; 4]);
        assert!(cores(CENTRE_COLOR).iter().all(|&n| n >= 8));
        // Every core lies on a white casing wider than itself, and is dark enough
        // in grey to show on the casing as on the P cells' colour.
        let casings = strokes.iter().filter(|s| s.0 == Color::WHITE).count();
        assert_eq!(casings, 5);
        for colour in [CORNER_COLOR, CENTRE_COLOR] {
            assert!(grey(colour) < 160.0, "{colour:?} is too light in grey");
        }
    }
}
