//! Animated board figures (automaton frames, square boards over m): board
//! panels laid out as equal-size frames by the scene layer
//! ([`BoardFrames`]), written as GIF, APNG or frame files by the encoders.

use crate::error::check_memory;
use crate::library::encode::animation::{
    check_frame_size, check_opaque_background, write_gif, Animation, FramePalette, Frames,
};
use crate::library::scene::board::{BoardPanel, BoardStyle, PanelSize};
use crate::library::scene::frames::BoardFrames;
use crate::library::scene::layout::SheetLayout;
use crate::library::scene::legend::Swatch;
use crate::library::scene::Color;
use crate::Result;
use std::io::Write;

/// Board panels as the frames of an animation, every board drawn in the same
/// `panel_px` square box (one panel per frame, caption and legend below it).
#[derive(Debug, Clone, PartialEq)]
pub struct BoardAnimation {
    /// Pixels along each board's longer side.
    pub panel_px: u32,
    /// The most cells along a side of any board: decides grid lines once for all
    /// frames, so they do not come and go.
    pub largest: usize,
    /// Lines of text under a board (caption plus legend lines) in the frame with the most.
    pub text_lines: usize,
    /// Colours and spacing.
    pub style: BoardStyle,
    /// Every colour a cell or mark of some panel may use, besides the style's.
    pub colours: Vec<Color>,
    /// Timing and looping.
    pub animation: Animation,
    /// One cell size for every frame (`--scale common`): each board keeps its
    /// true size in frames sized to the largest, so growth is visible; otherwise
    /// every board fills the frame.
    pub common_scale: bool,
    /// A key under every frame (swatch and text per entry).
    pub key: Vec<(Swatch, String)>,
}

/// The side of every frame's board box, in scene units: the frame is exactly
/// `style.width` wide when a width was asked for (one board a frame: the width
/// less the margins), else `size` holds (a panel, or a cell times the
/// `largest` board's side), else `default`.
pub fn frame_panel(
    style: &BoardStyle,
    size: Option<PanelSize>,
    largest: u64,
    default: u32,
) -> Result<u64> {
    if let Some(width) = style.width {
        let panel = SheetLayout::panel_width_for(width, 1, style.gap, style.margin);
        let smallest = 2 * style.margin + 4;
        if panel < 4 {
            let unit = if style.print.print.dpi.is_some() {
                "pt"
            } else {
                "px"
            };
            return Err(crate::Error::invalid_parameter("width", format!(
                "`width` {width} {unit} leaves no room for a frame's board inside its margins; give `width` {smallest} {unit} or more (or a smaller `margin`)"
            )));
        }
        return Ok(u64::from(panel));
    }
    Ok(match size {
        None => u64::from(default),
        Some(PanelSize::Panel(px)) => u64::from(px),
        Some(PanelSize::Cell(px)) => u64::from(px) * largest,
    })
}

impl BoardAnimation {
    /// The layout of the frames.
    fn layout(&self) -> BoardFrames {
        BoardFrames {
            panel_px: self.panel_px,
            largest: self.largest,
            text_lines: self.text_lines,
            style: self.style.clone(),
            common_scale: self.common_scale,
            key: self.key.clone(),
        }
    }

    /// The size of every frame in scene units (points once on paper).
    pub fn frame_size(&self) -> (u32, u32) {
        self.layout().frame_size()
    }

    /// The pixel size of every raster frame (the frame on paper at its dpi).
    pub fn pixel_size(&self) -> (u32, u32) {
        self.layout().pixel_size()
    }

    /// The GIF palette: background, cell and line colours, then caption shades.
    pub fn palette(&self) -> Result<FramePalette> {
        let (solid, text) = self.layout().colours(&self.colours);
        FramePalette::new(&solid, &text)
    }

    /// Checks the frame size and palette before any board is computed.
    pub fn validate(&self) -> Result<()> {
        self.animation.validate()?;
        check_opaque_background(self.style.background)?;
        let (width, height) = self.pixel_size();
        check_frame_size(width, height)?;
        self.palette().map(|_| ())
    }

    /// The panels as equal-size frames (see [`BoardFrames::scenes`]).
    pub fn frames<'a>(
        &self,
        count: usize,
        panels: impl Iterator<Item = Result<BoardPanel>> + 'a,
        memory_limit: u64,
    ) -> Result<Frames<'a>> {
        self.animation.validate()?;
        let batch = (rayon::current_num_threads() * 2).max(2) as u64;
        let side = self.largest as u64;
        check_memory(
            || format!("{batch} boards of up to {side} x {side} cells drawn at once"),
            side.saturating_mul(side)
                .saturating_mul(3)
                .saturating_mul(batch),
            memory_limit,
            "animate smaller boards, or run with fewer `threads`",
        )?;
        let layout = self.layout();
        Ok(Frames {
            size: layout.pixel_size(),
            count,
            animation: self.animation,
            memory_limit,
            scenes: Box::new(layout.scenes(panels)),
        })
    }

    /// Writes `panels`, one frame each, as an animated GIF to `out`.
    pub fn write(
        &self,
        out: &mut dyn Write,
        panels: impl Iterator<Item = Result<BoardPanel>>,
        memory_limit: u64,
    ) -> Result<()> {
        self.validate()?;
        let palette = self.palette()?;
        let frames = self.frames(0, panels, memory_limit)?;
        write_gif(
            out,
            frames.size,
            &palette,
            frames.scenes,
            &self.animation,
            memory_limit,
        )
    }
}
