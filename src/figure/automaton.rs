//! The automaton figure: frames as one board, a contact sheet or an animated
//! GIF, coloured by parity or by residue mod p; exact or mod-p values as data;
//! the Rule 60 companion; and the check of every frame against P(n,n).
//!
//! A validated spec that the CLI (and later recipes) fill in; writing it is the
//! only I/O. The one idea: frames are produced by one stepper in increasing
//! order and consumed as they come (a GIF or a CSV never holds more than a few
//! frames), so the same code path serves one frame, a sheet and 4096 frames.

use super::animation::BoardAnimation;
use crate::automaton::{
    check_frames, check_modulus, rule60, ExactGrid, ExactStepper, Mismatch, ParityStepper,
    ResidueGrid, ResidueStepper,
};
use crate::error::check_memory;
use crate::library::encode::animation::Animation;
use crate::library::encode::{self, npy, png as png_enc, Format, Metadata};
use crate::library::figure::plan::{Computed, Plan, Spec};
use crate::library::scene::board::{self, BoardPanel, BoardStyle, PanelSize};
use crate::library::scene::ramp::{Palette, ResidueColours};
use crate::library::scene::{Color, Scene};
use crate::Control;
use crate::{BitGrid, Error, Result};
use std::io::Write;
use std::sync::Arc;

/// The most frames one figure lists (a range 1..65536 is the most a stepper could reach).
pub const MAX_FRAMES: usize = 65536;

/// Panel size of animation frames when none is asked for.
pub const DEFAULT_GIF_PANEL: u32 = 512;

/// What a frame's cells hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Values {
    /// a_{i,j}(n) mod p, p in 2..=65535 (2 is the bit-parallel path).
    Modulus(u16),
    /// The exact integers.
    Exact,
}

impl Values {
    /// Parses `--modulus`: `exact` or a number from 2 to 65535.
    pub fn parse(text: &str) -> Result<Self> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("exact") {
            return Ok(Values::Exact);
        }
        let p: u64 = text.parse().map_err(|_| {
            Error::invalid_parameter("modulus", format!(
                "`modulus` '{text}' is neither a number nor 'exact'; write e.g. `modulus` 2, `modulus` 3 or `modulus` exact"
            ))
        })?;
        Ok(Values::Modulus(check_modulus(p)?))
    }
}

/// The sorted list of frames that `ranges` (inclusive, 1-based) name, without repeats.
pub fn frame_list(ranges: &[(u64, u64)]) -> Result<Vec<usize>> {
    let mut frames = Vec::new();
    for &(a, b) in ranges {
        check_frames(
            a.min(usize::MAX as u64) as usize,
            b.min(usize::MAX as u64) as usize,
        )?;
        if b - a >= MAX_FRAMES as u64 || frames.len() as u64 + (b - a) >= MAX_FRAMES as u64 {
            return Err(Error::invalid_parameter(
                "frames",
                format!("`frames` names more than {MAX_FRAMES} frames; ask for fewer"),
            ));
        }
        frames.extend(a as usize..=b as usize);
    }
    if frames.is_empty() {
        return Err(Error::invalid_parameter(
            "frames",
            "`frames`: no frame given; write e.g. `frames` 32 or `frames` 1..32",
        ));
    }
    frames.sort_unstable();
    frames.dedup();
    Ok(frames)
}

/// How the figure is drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum AutomatonMode {
    /// Panels with colours and captions: one board, a sheet, or GIF frames.
    Styled {
        /// Colours and spacing; odd cells (mod 2) take the P colour.
        style: BoardStyle,
        /// Cell or panel size; `None` picks one that suits the frames.
        size: Option<PanelSize>,
        /// Panels per row of a sheet; `None` picks one.
        columns: Option<usize>,
        /// Colours of residues 1..p-1 for p >= 3.
        palette: Palette,
        /// Timing and looping of a `.gif`.
        animation: Animation,
        /// Animations: one cell size for every frame (`--scale common`), so the
        /// triangle's growth shows, instead of every frame filling its panel.
        common_scale: bool,
    },
    /// One pixel per cell, no margin: 1-bit PNG (odd cells black) for mod 2,
    /// the palette's colours on white for mod p.
    Raw {
        /// PNG compression of 1-bit output.
        compression: png_enc::Compression,
        /// Colours of residues 1..p-1 for p >= 3.
        palette: Palette,
    },
}

/// Frames of the second-order automaton (or Rule 60) to draw, check or list.
#[derive(Debug, Clone, PartialEq)]
pub struct AutomatonFigure {
    /// Frames n, increasing, from 1 (see [`frame_list`]).
    pub frames: Vec<usize>,
    /// Residues mod p or exact values.
    pub values: Values,
    /// Draw Rule 60's space-time diagram for generations 1..=last frame instead.
    pub rule60: bool,
    /// Drawing mode.
    pub mode: AutomatonMode,
    /// Refuse work that would need more bytes than this.
    pub memory_limit: u64,
}

/// One computed frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    /// Odd cells (mod 2).
    Parity(usize, BitGrid),
    /// Residues mod p.
    Residue(usize, ResidueGrid),
    /// Exact values.
    Exact(usize, ExactGrid),
}

impl Frame {
    /// The frame number n.
    pub fn number(&self) -> usize {
        match self {
            Frame::Parity(n, _) | Frame::Residue(n, _) | Frame::Exact(n, _) => *n,
        }
    }
}

enum Stepper {
    Parity(ParityStepper),
    Residue(ResidueStepper),
    Exact(ExactStepper),
}

impl Stepper {
    /// The next frame's number; `None` at the end, or once `control` is cancelled
    /// (the caller then checks `control` to tell the two apart).
    fn advance(&mut self, control: &Control) -> Option<usize> {
        let stepped = match self {
            Stepper::Parity(s) => s.step(control),
            Stepper::Residue(s) => s.step(control),
            Stepper::Exact(s) => s.step(control),
        };
        stepped.ok().flatten()
    }

    fn frame(&self, n: usize) -> Frame {
        match self {
            Stepper::Parity(s) => Frame::Parity(n, s.to_grid()),
            Stepper::Residue(s) => Frame::Residue(n, s.to_grid()),
            Stepper::Exact(s) => Frame::Exact(n, s.to_grid()),
        }
    }
}

/// What `--check` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// Frames 1..=last were each compared with P(n,n).
    pub last: usize,
    /// How parity was computed.
    pub method: String,
    /// Cells compared, 1² + 2² + ... + last² (up to the first mismatch).
    pub cells: u64,
    /// The first cell that disagreed, if any.
    pub mismatch: Option<Mismatch>,
}

impl std::fmt::Display for CheckReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.mismatch {
            None => write!(
                f,
                "checked frames 1..{} ({}): all {} cells agree, the odd cells of frame n are exactly the P-positions of C(n,n)",
                self.last, self.method, self.cells
            ),
            Some(m) => write!(
                f,
                "MISMATCH after {} cells of frames 1..{} ({}): {m}",
                self.cells, self.last, self.method
            ),
        }
    }
}

impl AutomatonFigure {
    /// The last frame (the stepper goes this far).
    pub fn last(&self) -> usize {
        self.frames.last().copied().unwrap_or(0)
    }

    fn palette(&self) -> Palette {
        match &self.mode {
            AutomatonMode::Styled { palette, .. } | AutomatonMode::Raw { palette, .. } => *palette,
        }
    }

    /// Checks the parameters, before anything is computed.
    pub fn validate(&self) -> Result<()> {
        if self.frames.is_empty() {
            return Err(Error::invalid_parameter(
                "frames",
                "`frames`: no frame given; write e.g. `frames` 32 or `frames` 1..32",
            ));
        }
        if self.frames.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Error::invalid_request(
                "frames must be listed in increasing order",
            ));
        }
        check_frames(self.frames[0], self.last())?;
        if let Values::Modulus(p) = self.values {
            check_modulus(u64::from(p))?;
            if p > 2 {
                self.palette().check(u64::from(p))?;
            }
        }
        if self.rule60 {
            let last = self.last();
            if self.frames.len() > 1 && self.frames != (1..=last).collect::<Vec<_>>() {
                return Err(Error::invalid_parameter("rule60", format!(
                    "`rule60` draws generations 1..N as one diagram; give `frames` {last} or `frames` 1..{last}"
                )));
            }
            if self.values != Values::Modulus(2) {
                return Err(Error::unsupported(
                    "`rule60` is a 0/1 automaton; drop `modulus`",
                ));
            }
        }
        self.check_model_memory()?;
        match &self.mode {
            AutomatonMode::Raw { .. } if self.values == Values::Exact => Err(Error::unsupported(
                "`raw` draws pixels and exact values have no colours; write them to .csv or .json, or use `modulus` p",
            )),
            AutomatonMode::Raw { .. } if self.frames.len() > 1 && !self.rule60 => {
                Err(Error::unsupported(
                    "`raw` draws one frame; give a single `frames` N (a sheet or animation is the styled mode)",
                ))
            }
            AutomatonMode::Styled {
                columns: Some(0), ..
            } => Err(Error::invalid_parameter("columns", "`columns` must be at least 1")),
            _ => Ok(()),
        }
    }
}

impl AutomatonFigure {
    /// Refuses, before any work, frames whose model alone would pass the memory
    /// limit: frame n mod 2 is one n x n P-set (or Rule 60's diagram), residues and
    /// exact values take the stepper's three planes. The estimates saturate, so a
    /// frame near 2^62 is refused, not wrapped to a few bytes.
    fn check_model_memory(&self) -> Result<()> {
        let last = self.last();
        let (needed, what, hint) = match self.values {
            _ if self.rule60 => (
                crate::automaton::rule60_bytes(last),
                format!("Rule 60 for {last} generations"),
                "ask for fewer `frames`",
            ),
            Values::Modulus(2) => (
                crate::pattern::p_grid_bytes(last as u64, last as u64),
                format!("frame {last} of the automaton mod 2"),
                "ask for fewer `frames`",
            ),
            Values::Modulus(p) => (
                ResidueStepper::memory_estimate(last),
                format!("the automaton mod {p} up to frame {last}"),
                "ask for fewer `frames`, or use `modulus` 2 which packs 64 cells per word",
            ),
            Values::Exact => (
                ExactStepper::memory_estimate(last),
                format!("exact values up to frame {last}"),
                "ask for fewer `frames`, or use `modulus` p for larger frames",
            ),
        };
        check_memory(|| what, needed, self.memory_limit, hint)
    }
}

impl AutomatonPlan {
    /// The stepper for the values asked for, able to reach the last frame
    /// (refused with an estimate above the memory limit).
    fn stepper(&self) -> Result<Stepper> {
        let last = self.last();
        Ok(match self.values {
            Values::Modulus(2) => Stepper::Parity(ParityStepper::new(last, self.memory_limit)?),
            Values::Modulus(p) => {
                Stepper::Residue(ResidueStepper::new(u64::from(p), last, self.memory_limit)?)
            }
            Values::Exact => Stepper::Exact(ExactStepper::new(last, self.memory_limit)?),
        })
    }

    /// The listed frames, computed in increasing order and yielded as they come.
    /// The iterator ends early once `control` is cancelled: whoever consumes it
    /// checks `control` after it.
    pub fn computed_frames(
        &self,
        control: &Control,
    ) -> Result<Box<dyn Iterator<Item = Frame> + '_>> {
        crate::library::figure::plan::computing_model();
        let control = control.clone();
        if self.values == Values::Modulus(2) {
            // Frame n mod 2 is exactly P(n,n) (Okubo–Kashiwagi–Niida, Theorem 5.4,
            // re-proved for every frame by `--check` and the tests): drawn from the
            // P-criterion, a frame costs one board, not n steps of the automaton.
            return Ok(Box::new(self.frames.clone().into_iter().map_while(
                move |n| {
                    let grid = crate::pattern::p_grid(n, n, &control);
                    grid.ok().map(|grid| Frame::Parity(n, grid))
                },
            )));
        }
        let mut stepper = self.stepper()?;
        let mut wanted = self.frames.clone().into_iter();
        Ok(Box::new(std::iter::from_fn(move || {
            let target = wanted.next()?;
            loop {
                let n = stepper.advance(&control)?;
                if n == target {
                    return Some(stepper.frame(n));
                }
            }
        })))
    }

    /// The frames by stepping the automaton itself, whatever the values: the
    /// independent method the closed form of [`Self::computed_frames`] is tested against.
    pub fn stepped_frames(&self, control: &Control) -> Result<Vec<Frame>> {
        let mut stepper = self.stepper()?;
        let mut frames = Vec::new();
        for target in self.frames.clone() {
            while let Some(n) = stepper.advance(control) {
                if n == target {
                    frames.push(stepper.frame(n));
                    break;
                }
            }
        }
        control.check()?;
        Ok(frames)
    }

    /// Compares the parity of every frame 1..=last with P(n,n) and reports the
    /// first cell that disagrees. Parity comes from the values asked for: the
    /// bit-parallel stepper mod 2, residues mod an even p, or exact values;
    /// residues mod an odd p do not determine parity and are refused.
    pub fn check(&self, control: &Control) -> Result<CheckReport> {
        if self.rule60 {
            return Err(Error::unsupported(
                "`check` compares the 2D automaton with P(n,n); drop `rule60`",
            ));
        }
        let last = self.last();
        let method = match self.values {
            Values::Modulus(2) => "mod 2, 64 cells per word".to_string(),
            Values::Modulus(p) if p % 2 == 0 => format!("residues mod {p}, taken mod 2"),
            Values::Modulus(p) => {
                return Err(Error::unsupported(format!(
                    "`check` compares parity, which residues mod the odd {p} do not determine; use `modulus` 2 (the default), an even modulus or exact"
                )))
            }
            Values::Exact => "exact values".to_string(),
        };
        let mut stepper = self.stepper()?;
        let mut cells = 0u64;
        // Progress in cells, 1^2 + ... + last^2 (frame n costs n^2, so counting frames
        // would promise an ETA far too short); the stepper counts one a frame, the
        // rest is counted here.
        let total = (1..=last as u64).fold(0u64, |sum, n| sum.saturating_add(n * n));
        control.add_total(total);
        while let Some(n) = stepper.advance(control) {
            control.advance((n as u64 * n as u64).saturating_sub(1));
            let mismatch = match &stepper {
                Stepper::Parity(s) => s.first_mismatch(control)?,
                Stepper::Residue(s) => crate::automaton::check_grid(&s.to_grid().odd_cells())?,
                Stepper::Exact(s) => crate::automaton::check_grid(&s.to_grid().odd_cells())?,
            };
            if let Some(m) = mismatch {
                cells += ((m.i - 1) * n + m.j) as u64;
                return Ok(CheckReport {
                    last,
                    method,
                    cells,
                    mismatch: Some(m),
                });
            }
            cells += (n * n) as u64;
        }
        control.check()?;
        Ok(CheckReport {
            last,
            method,
            cells,
            mismatch: None,
        })
    }

    /// The colour key of values mod p, classes 0..p-1 (as under a Grundy
    /// table), for p from 3 up to [`MAX_KEY_CLASSES`]; none for parity, whose
    /// odd cells are the P cells.
    fn key(&self, style: &BoardStyle) -> Result<Vec<(Color, String)>> {
        let (Values::Modulus(p), Some(ramp)) = (self.values, self.ramp()?) else {
            return Ok(Vec::new());
        };
        if p > MAX_KEY_CLASSES {
            return Ok(Vec::new());
        }
        // The modulus is named once, so the key of a 288 px frame takes two
        // rows instead of five.
        let mut key = vec![(style.other_color, format!("≡ 0 (mod {p})"))];
        for r in 1..p {
            let colour = ramp.colours()[ramp.index(u64::from(r))];
            key.push((colour, format!("≡ {r}")));
        }
        Ok(key)
    }

    fn ramp(&self) -> Result<Option<ResidueColours>> {
        match self.values {
            Values::Modulus(p) if p > 2 => Ok(Some(self.palette().colours(u64::from(p))?)),
            _ => Ok(None),
        }
    }

    /// The panel of one frame: parity in the P colour, residues on the ramp
    /// with residue 0 in the "other" colour.
    fn panel(
        frame: &Frame,
        style: &BoardStyle,
        ramp: Option<&ResidueColours>,
    ) -> Result<BoardPanel> {
        let caption = format!("n = {}", frame.number());
        match (frame, ramp) {
            (Frame::Parity(_, grid), _) => {
                Ok(BoardPanel::from_bits(grid, style).with_caption(caption))
            }
            (Frame::Residue(_, grid), Some(ramp)) => {
                Ok(residue_panel(grid, style.other_color, ramp).with_caption(caption))
            }
            _ => Err(Error::unsupported(
                "exact values have no colours; write them to .csv or .json, or draw `modulus` p",
            )),
        }
    }

    fn default_size(&self) -> PanelSize {
        if self.frames.len() == 1 || self.rule60 {
            PanelSize::Cell((640 / self.last().max(1)).clamp(1, 48) as u32)
        } else {
            PanelSize::Panel(180)
        }
    }

    /// The styled scene: one frame, a sheet of frames, or the Rule 60 diagram
    /// (or the raw one-pixel-per-cell scene in raw mode).
    pub fn scene(&self, control: &Control) -> Result<Arc<Scene>> {
        self.cache()
            .scene
            .get_or_compute(|| self.build_scene(control))
    }

    /// The listed frames, all at once, computed once per plan: a picture of the
    /// frames holds them all anyway, and its data formats then reuse them.
    fn frame_list(&self, control: &Control) -> Result<Arc<Vec<Frame>>> {
        self.cache().frames.get_or_compute(|| {
            let frames: Vec<Frame> = self.computed_frames(control)?.collect();
            control.check()?;
            Ok(frames)
        })
    }

    /// The frames for the data formats: those a picture already computed, or
    /// streamed one by one (a 4096-frame CSV never holds them all).
    fn data_frames(&self, control: &Control) -> Result<Box<dyn Iterator<Item = Frame> + '_>> {
        match self.cache().frames.get() {
            Some(frames) => Ok(Box::new((0..frames.len()).map(move |k| frames[k].clone()))),
            None => self.computed_frames(control),
        }
    }

    /// Refuses a sheet (or Rule 60's diagram) whose frames, scene and, with
    /// `raster`, PNG raster (encode::scene_peak_bytes' 11 bytes a pixel) would pass
    /// the memory limit. SVG and PDF cost by runs of equal cells, which encode
    /// checks once the scene exists.
    fn check_sheet_memory(&self, raster: bool) -> Result<()> {
        let AutomatonMode::Styled {
            style,
            size,
            columns,
            ..
        } = &self.mode
        else {
            return Ok(());
        };
        let size = size.unwrap_or_else(|| self.default_size());
        let shapes: Vec<(usize, usize)> = if self.rule60 {
            vec![(self.last(), self.last())]
        } else {
            self.frames.iter().map(|&n| (n, n)).collect()
        };
        let pixels = if raster {
            board::sheet_pixels(&shapes, size, *columns, style)
        } else {
            0
        };
        let cells: u64 = shapes.iter().fold(0u64, |n, &(r, c)| {
            n.saturating_add((r as u64).saturating_mul(c as u64).saturating_mul(2))
        });
        check_memory(
            || {
                format!(
                    "a sheet of {} frame(s) up to {} x {}",
                    shapes.len(),
                    self.last(),
                    self.last()
                )
            },
            pixels
                .saturating_mul(11)
                .saturating_add(cells)
                .saturating_add(self.stepper_bytes()),
            self.memory_limit,
            "draw fewer or smaller frames, use `raw` for one pixel per cell, or -o .gif which is streamed",
        )
    }

    fn build_scene(&self, control: &Control) -> Result<Scene> {
        let AutomatonMode::Styled {
            style,
            size,
            columns,
            ..
        } = &self.mode
        else {
            return self.raw_scene(control);
        };
        if self.values == Values::Exact {
            return Err(Error::unsupported(
                "exact values have no colours: write them to .csv or .json, or draw `modulus` p",
            ));
        }
        let size = size.unwrap_or_else(|| self.default_size());
        // Building the scene; a PNG's raster on top was checked with the format.
        self.check_sheet_memory(false)?;
        if self.rule60 {
            let grid = rule60(self.last(), self.memory_limit, control)?;
            let panel = BoardPanel::from_bits(&grid, style)
                .with_caption(format!("Rule 60, generations 1..{}", self.last()));
            return Ok(board::sheet(&[panel], size, Some(1), style));
        }
        let ramp = self.ramp()?;
        let panels = self
            .frame_list(control)?
            .iter()
            .map(|frame| Self::panel(frame, style, ramp.as_ref()))
            .collect::<Result<Vec<_>>>()?;
        control.check()?;
        let key = self.key(style)?;
        Ok(board::sheet_with_key(&panels, size, *columns, style, &key))
    }

    fn stepper_bytes(&self) -> u64 {
        match self.values {
            Values::Modulus(2) => ParityStepper::memory_estimate(self.last()),
            Values::Modulus(_) => ResidueStepper::memory_estimate(self.last()),
            Values::Exact => ExactStepper::memory_estimate(self.last()),
        }
    }

    fn raw_scene(&self, control: &Control) -> Result<Scene> {
        let n = self.last();
        check_memory(
            || format!("a raw {n} x {n} frame as an image scene"),
            (n as u64)
                .saturating_mul(n as u64)
                .saturating_mul(5)
                .saturating_add(self.stepper_bytes()),
            self.memory_limit,
            "write `raw` with `modulus` 2 as .png, which is streamed 1 bit per cell",
        )?;
        if self.rule60 {
            return Ok(Scene::raw_bits(&rule60(n, self.memory_limit, control)?));
        }
        let first = self.computed_frames(control)?.next();
        control.check()?;
        match first {
            Some(Frame::Parity(_, grid)) => Ok(Scene::raw_bits(&grid)),
            Some(Frame::Residue(_, grid)) => {
                let ramp = self
                    .ramp()?
                    .ok_or_else(|| Error::invalid_request("no ramp for mod 2"))?;
                let panel = residue_panel(&grid, Color::TRANSPARENT, &ramp);
                Ok(Scene::pixel_cells(n, n, panel.indices, panel.palette))
            }
            _ => Err(Error::unsupported(
                "`raw` needs `modulus` p, not exact values",
            )),
        }
    }

    /// Refuses, before any work, a format that cannot show this figure.
    fn check_format(&self, format: Format) -> Result<()> {
        if format == Format::Npy {
            if self.rule60 {
                return Err(Error::unsupported(
                    "`rule60` draws one diagram: write .png or .svg",
                ));
            }
            if self.values == Values::Exact {
                return Err(Error::unsupported(
                    "exact values outgrow 64 bits by frame 40: write them as .csv or .json, or a .npy of residues with `modulus` p",
                ));
            }
            return Ok(());
        }
        if self.values == Values::Exact && (format.is_image() || format.is_animation()) {
            return Err(Error::unsupported(
                "`modulus` exact writes data: use -o .csv or .json (images colour residues: use `modulus` p)",
            ));
        }
        match (format, &self.mode) {
            (Format::Csv | Format::Json | Format::Gif | Format::Apng, _) if self.rule60 => Err(
                Error::unsupported("`rule60` draws one diagram: write .png or .svg"),
            ),
            (
                Format::Csv | Format::Json | Format::Gif | Format::Apng,
                AutomatonMode::Raw { .. },
            ) => Err(Error::unsupported(
                "`raw` draws one image; write .png or .svg, or drop `raw`",
            )),
            _ => Ok(()),
        }
    }

    /// Writes the figure as `format`: `.png`/`.svg` (one frame, a sheet, Rule 60),
    /// `.gif` (an animation of the frames), `.csv`/`.json` (the non-zero cells of every frame).
    fn write_format(
        &self,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        match (format, &self.mode) {
            (Format::Png, AutomatonMode::Raw { compression, .. })
                if self.values == Values::Modulus(2) =>
            {
                self.write_raw_png(out, *compression, metadata, control)
            }
            (Format::Gif, AutomatonMode::Styled { .. }) => self.write_gif(out, control),
            (Format::Apng, _) => encode::animation::write_apng(
                out,
                crate::library::figure::controlled(self.board_frames()?, control),
                metadata,
            ),
            (Format::Npy, _) => self.write_npy(out, control),
            (Format::Csv | Format::Json, _) => {
                let csv = format == Format::Csv;
                let frames = self.data_frames(control)?;
                self.write_data(out, frames, csv)
                    .map_err(Error::write_failed)?;
                control.check()
            }
            _ => encode::write_scene_to(
                out,
                format,
                &*self.scene(control)?,
                metadata,
                self.memory_limit,
                control,
            ),
        }
    }

    fn write_raw_png(
        &self,
        out: &mut dyn Write,
        compression: png_enc::Compression,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        let n = self.last();
        // The grid (checked with the spec) and the PNG encoder's bands of rows.
        let grid_bytes = if self.rule60 {
            crate::automaton::rule60_bytes(n)
        } else {
            crate::pattern::p_grid_bytes(n as u64, n as u64)
        };
        check_memory(
            || format!("a raw {n} x {n} frame as a 1-bit .png"),
            grid_bytes.saturating_add(png_enc::bilevel_peak_bytes(n as u64, n as u64)),
            self.memory_limit,
            "ask for fewer `frames`",
        )?;
        let grid = if self.rule60 {
            rule60(n, self.memory_limit, control)?
        } else {
            let first = self.computed_frames(control)?.next();
            control.check()?;
            match first {
                Some(Frame::Parity(_, grid)) => grid,
                _ => {
                    return Err(Error::invalid_parameter(
                        "modulus",
                        "raw 1-bit output needs `modulus` 2",
                    ))
                }
            }
        };
        // Odd cells black.
        png_enc::write_bilevel_grid(out, &grid, compression, metadata, control)
    }

    /// The animation the GIF output uses, with its frame geometry.
    pub fn board_animation(&self) -> Result<BoardAnimation> {
        let AutomatonMode::Styled {
            style,
            size,
            animation,
            common_scale,
            ..
        } = &self.mode
        else {
            return Err(Error::unsupported(
                "`raw` draws one image; drop `raw` for a .gif",
            ));
        };
        let last = self.last();
        let panel_px = super::animation::frame_panel(style, *size, last as u64, DEFAULT_GIF_PANEL)?;
        if panel_px > crate::library::encode::gif::MAX_SIDE as u64 {
            return Err(Error::invalid_parameter("panel", format!(
                "animation frames of {panel_px} px (frame {last} at the asked size) exceed the GIF format's limit of {} px per side; use a smaller `panel` or `cell`",
                crate::library::encode::gif::MAX_SIDE
            )));
        }
        let colours = match self.ramp()? {
            Some(ramp) => ramp.colours().to_vec(),
            None => Vec::new(),
        };
        let animation = BoardAnimation {
            panel_px: panel_px as u32,
            largest: last,
            text_lines: usize::from(style.captions),
            style: style.clone(),
            colours,
            animation: *animation,
            common_scale: *common_scale,
            key: self
                .key(style)?
                .into_iter()
                .map(|(colour, text)| (colour.into(), text))
                .collect(),
        };
        animation.validate()?;
        Ok(animation)
    }

    fn write_gif(&self, out: &mut dyn Write, control: &Control) -> Result<()> {
        let AutomatonMode::Styled { style, .. } = &self.mode else {
            return Err(Error::unsupported(
                "`raw` draws one image; drop `raw` for a .gif",
            ));
        };
        let animation = self.board_animation()?;
        let ramp = self.ramp()?;
        let panels = self
            .computed_frames(control)?
            .map(|frame| Self::panel(&frame, style, ramp.as_ref()));
        let panels = crate::library::figure::counted(panels, self.frames.len(), control);
        animation.write(out, panels, self.memory_limit)?;
        // The frames end early when cancelled mid-frame: a short GIF is no result.
        control.check()
    }

    /// The frames as scenes, for APNG and frame sequences.
    fn board_frames(&self) -> Result<crate::library::encode::animation::Frames<'_>> {
        let AutomatonMode::Styled { style, .. } = &self.mode else {
            return Err(Error::unsupported(
                "`raw` draws one image; drop `raw` for an animation",
            ));
        };
        let animation = self.board_animation()?;
        let ramp = self.ramp()?;
        // Frames are checked one by one by whoever draws them (figure::controlled).
        let panels = self
            .computed_frames(&Control::default())?
            .map(move |frame| Self::panel(&frame, style, ramp.as_ref()));
        animation.frames(self.frames.len(), panels, self.memory_limit)
    }

    /// The shape of the `.npy` array: `(n, n)` for one frame, `(frames, N, N)` for several.
    fn npy_shape(&self) -> Vec<u64> {
        let side = self.last() as u64;
        if self.frames.len() == 1 {
            vec![side, side]
        } else {
            vec![self.frames.len() as u64, side, side]
        }
    }

    /// Frames mod p as one `uint16` array (see [`Self::npy_shape`]), N the last frame,
    /// smaller frames padded with zeros (their cells beyond n are zero anyway).
    /// Streamed one frame at a time.
    fn write_npy(&self, out: &mut dyn Write, control: &Control) -> Result<()> {
        let shape = self.npy_shape();
        let frames = self.data_frames(control)?;
        let side = self.last();
        let write = || -> std::io::Result<()> {
            npy::write_header(out, "<u2", &shape)?;
            let mut le = npy::LeWriter::new();
            let mut row = vec![0u16; side];
            for frame in frames {
                let n = frame.number();
                for r in 0..side {
                    row.fill(0);
                    if r < n {
                        match &frame {
                            Frame::Parity(_, grid) => {
                                for (c, cell) in row.iter_mut().enumerate().take(n) {
                                    *cell = u16::from(grid.get(r, c));
                                }
                            }
                            Frame::Residue(_, grid) => {
                                row[..n].copy_from_slice(&grid.values()[r * n..(r + 1) * n]);
                            }
                            Frame::Exact(..) => {
                                return Err(std::io::Error::other("exact values in a .npy"))
                            }
                        }
                    }
                    le.u16s(out, &row)?;
                }
            }
            Ok(())
        };
        write().map_err(Error::write_failed)?;
        control.check()
    }

    /// An estimate of the `.csv` / `.json` data's size, in O(frames): odd cells of frame
    /// n number g(n) exactly (they are P(n,n)); residues and exact values are taken
    /// as filling the n x n frame, exact values with about 0.6 digits per frame
    /// number (frame 40 reaches 4.7e22).
    pub fn data_bytes(&self) -> u64 {
        let digits = |v: u64| u64::from(v.checked_ilog10().unwrap_or(0) + 1);
        self.frames.iter().fold(0u64, |total, &n| {
            let n = n as u64;
            let (cells, value) = match self.values {
                Values::Modulus(2) => (
                    u64::try_from(crate::pattern::count::g(n)).unwrap_or(u64::MAX),
                    1,
                ),
                Values::Modulus(p) => (n.saturating_mul(n), digits(u64::from(p))),
                Values::Exact => (n.saturating_mul(n), n * 3 / 5 + 1),
            };
            let line = 3 * digits(n) + value + 4;
            total.saturating_add(cells.saturating_mul(line))
        })
    }

    /// `i,j,value` (one frame) or `n,i,j,value` (several) as CSV, or JSON: the
    /// non-zero cells, 1-based, row by row; values mod p or exact.
    fn write_data(
        &self,
        out: &mut dyn Write,
        frames: impl Iterator<Item = Frame>,
        csv: bool,
    ) -> std::io::Result<()> {
        let several = self.frames.len() > 1;
        let modulus = match self.values {
            Values::Modulus(p) => p.to_string(),
            Values::Exact => "\"exact\"".to_string(),
        };
        if csv {
            writeln!(out, "{}", if several { "n,i,j,value" } else { "i,j,value" })?;
        } else if several {
            write!(out, "{{\"modulus\":{modulus},\"frames\":[")?;
        }
        for (k, frame) in frames.enumerate() {
            let n = frame.number();
            if !csv {
                if k > 0 {
                    write!(out, ",")?;
                }
                write!(out, "{{\"n\":{n},\"modulus\":{modulus},\"cells\":[")?;
            }
            let mut first = true;
            let mut cell = |out: &mut dyn Write, i: usize, j: usize, v: &dyn std::fmt::Display| {
                if csv {
                    if several {
                        writeln!(out, "{n},{i},{j},{v}")
                    } else {
                        writeln!(out, "{i},{j},{v}")
                    }
                } else {
                    let comma = if std::mem::take(&mut first) { "" } else { "," };
                    write!(out, "{comma}[{i},{j},{v}]")
                }
            };
            match &frame {
                Frame::Parity(_, grid) => {
                    for (r, c) in grid.ones() {
                        cell(out, r + 1, c + 1, &1)?;
                    }
                }
                Frame::Residue(_, grid) => {
                    for (k, &v) in grid.values().iter().enumerate() {
                        if v != 0 {
                            cell(out, k / n + 1, k % n + 1, &v)?;
                        }
                    }
                }
                Frame::Exact(_, grid) => {
                    for (k, v) in grid.values().iter().enumerate() {
                        if v.bits() > 0 {
                            cell(out, k / n + 1, k % n + 1, v)?;
                        }
                    }
                }
            }
            if !csv {
                write!(out, "]}}")?;
            }
        }
        if !csv {
            if several {
                write!(out, "]}}")?;
            }
            writeln!(out)?;
        }
        Ok(())
    }
}

/// The panel of a residue frame: index 0 (residue 0) in `zero`, residue r at
/// index 1 + its place on the ramp.
fn residue_panel(grid: &ResidueGrid, zero: Color, ramp: &ResidueColours) -> BoardPanel {
    let indices = grid
        .values()
        .iter()
        .map(|&v| {
            if v == 0 {
                0
            } else {
                1 + ramp.index(u64::from(v)) as u8
            }
        })
        .collect();
    let mut palette = vec![zero];
    palette.extend_from_slice(ramp.colours());
    BoardPanel {
        rows: grid.size(),
        cols: grid.size(),
        indices,
        palette,
        caption: None,
        marks: Vec::new(),
        legend: Vec::new(),
    }
}

/// The most classes a key names: beyond, colours are told apart by order on
/// the ramp, not one by one.
pub const MAX_KEY_CLASSES: u16 = 12;

impl Spec for AutomatonFigure {
    fn validate(&self) -> Result<()> {
        AutomatonFigure::validate(self)
    }
}

/// A validated automaton figure; its picture is drawn once for PNG, SVG and PDF.
pub type AutomatonPlan = Plan<AutomatonFigure, AutomatonCache>;

/// What an automaton plan computes once: its frames (when a picture needs them
/// all) and its picture.
#[derive(Default)]
pub struct AutomatonCache {
    frames: Computed<Vec<Frame>>,
    scene: Computed<Scene>,
}

impl super::Figure for AutomatonPlan {
    fn still_scene(&self, control: &Control) -> Result<Option<Arc<Scene>>> {
        self.scene(control).map(Some)
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
        self.check_format(format)?;
        if format == Format::Png && self.values != Values::Exact {
            self.check_sheet_memory(true)?;
        }
        Ok(())
    }

    fn output_bytes(&self, format: Format) -> Option<u64> {
        match format {
            Format::Csv | Format::Json => Some(self.data_bytes()),
            Format::Npy => Some(npy::file_bytes(
                self.npy_shape()
                    .iter()
                    .fold(1u64, |n, &d| n.saturating_mul(d)),
                2,
            )),
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
        self.write_format(format, out, metadata, control)
    }

    fn frames(&self) -> Result<crate::library::encode::animation::Frames<'_>> {
        self.board_frames()
    }

    fn default_stem(&self) -> String {
        let first = self.frames.first().copied().unwrap_or(1);
        let last = self.last();
        if self.rule60 {
            format!("rule60-{last}")
        } else if self.frames.len() > 1 {
            format!("automaton-{first}-{last}")
        } else {
            format!("automaton-{last}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_lists_are_sorted_without_repeats_and_start_at_one() {
        assert_eq!(frame_list(&[(8, 8), (1, 3), (2, 2)]).unwrap(), [1, 2, 3, 8]);
        assert!(frame_list(&[(0, 4)])
            .unwrap_err()
            .to_string()
            .contains("starts at 1"));
        assert!(frame_list(&[(1, 100_000)]).is_err());
        assert_eq!(Values::parse("Exact").unwrap(), Values::Exact);
        assert_eq!(Values::parse("3").unwrap(), Values::Modulus(3));
        assert!(Values::parse("1").is_err() && Values::parse("x").is_err());
    }

    #[test]
    fn a_mismatch_report_names_the_cell() {
        let report = CheckReport {
            last: 9,
            method: "mod 2".into(),
            cells: 30,
            mismatch: Some(Mismatch {
                frame: 5,
                i: 2,
                j: 3,
                odd: true,
            }),
        };
        let text = report.to_string();
        assert!(
            text.starts_with("MISMATCH") && text.contains("cell (2, 3)"),
            "{text}"
        );
    }

    /// Styled frames of `values` with every other setting at its default.
    fn styled(frames: Vec<usize>, values: Values) -> AutomatonFigure {
        AutomatonFigure {
            frames,
            values,
            rule60: false,
            mode: AutomatonMode::Styled {
                style: BoardStyle::default(),
                size: None,
                columns: None,
                palette: Palette::Viridis,
                animation: Animation::default(),
                common_scale: false,
            },
            memory_limit: crate::error::DEFAULT_MEMORY_LIMIT,
        }
    }

    #[test]
    fn parity_frames_from_the_criterion_equal_the_stepped_automaton() {
        let figure = styled(
            (1..=70).chain([127, 128, 129, 200]).collect(),
            Values::Modulus(2),
        );
        let plan = Plan::new(figure).unwrap();
        let control = Control::default();
        let closed: Vec<Frame> = plan.computed_frames(&control).unwrap().collect();
        assert_eq!(closed, plan.stepped_frames(&control).unwrap());
    }

    #[test]
    fn a_check_counts_its_progress_in_cells() {
        // Frame n costs n^2 cells: counted in frames, the ETA of a long check was
        // promised from its cheap first frames.
        let figure = styled(vec![40], Values::Modulus(2));
        let control = Control::default();
        let report = Plan::new(figure).unwrap().check(&control).unwrap();
        let cells: u64 = (1..=40u64).map(|n| n * n).sum();
        assert_eq!(report.cells, cells);
        assert_eq!(control.progress(), (cells, cells));
    }

    #[test]
    fn every_path_agrees_on_parity_of_the_data() {
        // Mod 2, mod 4 and exact frames, computed by three steppers, have the same odd cells.
        let figure = |values| styled(vec![17, 30], values);
        let odd = |values| -> Vec<BitGrid> {
            Plan::new(figure(values))
                .unwrap()
                .computed_frames(&Control::default())
                .unwrap()
                .map(|f| match f {
                    Frame::Parity(_, g) => g,
                    Frame::Residue(_, g) => g.odd_cells(),
                    Frame::Exact(_, g) => g.odd_cells(),
                })
                .collect()
        };
        let parity = odd(Values::Modulus(2));
        assert_eq!(parity.len(), 2);
        assert_eq!(parity, odd(Values::Modulus(4)));
        assert_eq!(parity, odd(Values::Exact));
        assert_eq!(
            parity[1],
            crate::pattern::p_grid(30, 30, &Control::new()).unwrap()
        );
    }
}
