//! The automaton figure: frames as one board, a contact sheet or an animated
//! GIF, coloured by parity or by residue mod p; exact or mod-p values as data;
//! the Rule 60 companion; and the check of every frame against P(n,n).
//!
//! A validated spec that the CLI (and later recipes) fill in; writing it is the
//! only I/O. The one idea: frames are produced by one stepper in increasing
//! order and consumed as they come (a GIF or a CSV never holds more than a few
//! frames), so the same code path serves one frame, a sheet and 4096 frames.
//!
//! This file holds the spec, its validation and the plan; the plan's work is
//! split by idea: `stepping` (the frames), `check` (`--check`), `picture`
//! (frames, sheets, Rule 60 and raw boards as a scene), `animated` (GIF and
//! frame sequences), `data` (CSV, JSON, NumPy) and `output` (formats).

use crate::automaton::{
    check_frames, check_modulus, ExactGrid, ExactStepper, Mismatch, ResidueGrid, ResidueStepper,
};
use crate::error::check_memory;
use crate::library::encode::animation::Animation;
use crate::library::encode::{npy, png as png_enc, Format, Metadata};
use crate::library::figure::plan::{Computed, Plan, Spec};
use crate::library::scene::board::{BoardStyle, PanelSize};
use crate::library::scene::ramp::Palette;
use crate::library::scene::Scene;
use crate::Control;
use crate::{BitGrid, Error, Result};
use std::io::Write;
use std::sync::Arc;

mod animated;
mod check;
mod data;
mod output;
mod picture;
mod stepping;

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
