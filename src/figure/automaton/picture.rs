//! The picture: one frame, a sheet of frames with their key, Rule 60's
//! diagram, or the raw one-pixel-per-cell board, refused up front where its
//! frames, scene or raster would pass the memory limit.

use super::{AutomatonMode, AutomatonPlan, Frame, Values, MAX_KEY_CLASSES};
use crate::automaton::{rule60, ResidueGrid};
use crate::error::check_memory;
use crate::library::scene::board::{self, BoardPanel, BoardStyle, PanelSize};
use crate::library::scene::ramp::ResidueColours;
use crate::library::scene::{Color, Scene};
use crate::Control;
use crate::{Error, Result};
use std::sync::Arc;

impl AutomatonPlan {
    /// The colour key of values mod p, classes 0..p-1 (as under a Grundy
    /// table), for p from 3 up to [`MAX_KEY_CLASSES`]; none for parity, whose
    /// odd cells are the P cells.
    pub(super) fn key(&self, style: &BoardStyle) -> Result<Vec<(Color, String)>> {
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

    pub(super) fn ramp(&self) -> Result<Option<ResidueColours>> {
        match self.values {
            Values::Modulus(p) if p > 2 => Ok(Some(self.palette().colours(u64::from(p))?)),
            _ => Ok(None),
        }
    }

    /// The panel of one frame: parity in the P colour, residues on the ramp
    /// with residue 0 in the "other" colour.
    pub(super) fn panel(
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

    /// Refuses a sheet (or Rule 60's diagram) whose frames, scene and, with
    /// `raster`, PNG raster (encode::scene_peak_bytes' 11 bytes a pixel) would pass
    /// the memory limit. SVG and PDF cost by runs of equal cells, which encode
    /// checks once the scene exists.
    pub(super) fn check_sheet_memory(&self, raster: bool) -> Result<()> {
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
