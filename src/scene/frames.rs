//! Board panels laid out as the frames of an animation: every board in the same
//! `panel_px` square box (one panel per frame, caption and legend below it), or
//! at one cell size in frames sized to the largest board. Plain scenes, no
//! encoding: the figure layer hands them to an encoder.

use super::board::{self, BoardPanel, BoardStyle, GridLines, LegendEntry, PanelSize};
use super::color::Color;
use super::legend::{self, Swatch};
use super::Scene;
use crate::{Error, Result};

/// How board panels become equal-size frames.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardFrames {
    /// Pixels along each board's longer side.
    pub panel_px: u32,
    /// The most cells along a side of any board: decides grid lines once for all
    /// frames, so they do not come and go.
    pub largest: usize,
    /// Lines of text under a board (caption plus legend lines) in the frame with the most.
    pub text_lines: usize,
    /// Colours and spacing.
    pub style: BoardStyle,
    /// One cell size for every frame (`--scale common`): each board keeps its
    /// true size in frames sized to the largest, so growth is visible; otherwise
    /// every board fills the frame.
    pub common_scale: bool,
    /// A key under every frame (swatch and text per entry), the same in all.
    pub key: Vec<(Swatch, String)>,
}

impl BoardFrames {
    /// The style with grid lines decided for the whole animation.
    pub fn frame_style(&self) -> BoardStyle {
        let cell = self.panel_px as usize / self.largest.max(1);
        let grid = match self.style.grid {
            GridLines::Auto if cell >= 6 => GridLines::On,
            GridLines::Auto => GridLines::Off,
            other => other,
        };
        BoardStyle {
            grid,
            ..self.style.clone()
        }
    }

    /// Lines of legend under a board in the frame with the most.
    fn legend_lines(&self) -> usize {
        self.text_lines
            .saturating_sub(usize::from(self.style.captions))
    }

    /// The pixel size of every raster frame: the frame on paper at its dpi when
    /// a physical size or a dpi was asked for, else one pixel per unit.
    pub fn pixel_size(&self) -> (u32, u32) {
        let (width, height) = self.frame_size();
        let style = &self.style.print;
        Scene::new(width, height, self.style.background)
            .on_paper(style.print, style.exact_width_pt)
            .pixel_size()
    }

    /// The size of every frame in scene units.
    pub fn frame_size(&self) -> (u32, u32) {
        let (width, height) = self.board_size();
        let key = self.key_block(width).map_or(0, |k| k.height);
        (width, height + key)
    }

    /// The key laid out under frames `width` pixels wide.
    fn key_block(&self, width: u32) -> Option<legend::KeyBlock> {
        let room = f64::from(width.saturating_sub(2 * self.style.margin.max(4)));
        let size = board::key_size(&self.style, self.panel_px, 1);
        legend::KeyBlock::new(&self.key, size, room)
    }

    /// The pixel size of every frame without its key.
    fn board_size(&self) -> (u32, u32) {
        let legend = self.legend_lines();
        let probe = BoardPanel {
            rows: 1,
            cols: 1,
            indices: vec![0],
            palette: vec![self.style.other_color],
            caption: (self.style.captions && self.text_lines > 0).then(String::new),
            marks: Vec::new(),
            legend: vec![
                LegendEntry {
                    text: String::new(),
                };
                legend
            ],
        };
        let scene = board::sheet(
            &[probe],
            PanelSize::Panel(self.panel_px),
            Some(1),
            &self.frame_style(),
        );
        (scene.width, scene.height)
    }

    /// The colours the frames are painted in: solid ones (background, cell and
    /// line colours, `extra` cell or mark colours, captions) and those drawn
    /// anti-aliased like text (captions, legend swatch edges).
    pub fn colours(&self, extra: &[Color]) -> (Vec<Color>, Vec<Color>) {
        let s = &self.style;
        let mut solid = vec![s.background, s.other_color, s.p_color, s.grid_color];
        solid.extend(s.frame_color);
        solid.extend(extra);
        solid.push(s.caption_color);
        // Legend swatches are filled with their colours (among the above) inside a
        // thin grey edge, which anti-aliases like text.
        solid.push(Color::WHITE);
        let mut text = Vec::new();
        if self.text_lines > 0 {
            text.push(s.caption_color);
        }
        if self.legend_lines() > 0 || !self.key.is_empty() {
            text.push(board::SWATCH_EDGE);
        }
        if !self.key.is_empty() && !text.contains(&s.caption_color) {
            text.push(s.caption_color);
        }
        (solid, text)
    }

    /// The panels as equal-size frames: each board in the same square box
    /// (scaled 1/n), or, with a common scale, at one cell size in frames sized
    /// to the largest board, each centred in the same box.
    pub fn scenes<'a>(
        &self,
        panels: impl Iterator<Item = Result<BoardPanel>> + 'a,
    ) -> impl Iterator<Item = Result<Scene>> + 'a {
        let (width, height) = self.frame_size();
        let key_top = self.board_size().1.saturating_sub(self.style.margin);
        let key = self.key_block(width);
        let style = self.frame_style();
        let size = if self.common_scale {
            PanelSize::Cell((self.panel_px / self.largest.max(1) as u32).max(1))
        } else {
            PanelSize::Panel(self.panel_px)
        };
        let common_scale = self.common_scale;
        let panel_px = self.panel_px;
        panels.map(move |panel| {
            let panel = panel?;
            // With a common scale every board is centred in the same box, its
            // caption under the box at one size.
            let min_box = if common_scale { panel_px } else { 1 };
            let mut scene = board::sheet_in_boxes(
                std::slice::from_ref(&panel),
                size,
                Some(1),
                &style,
                &[],
                min_box,
            );
            let fits = scene.width == width;
            if !fits || scene.height > height {
                return Err(Error::invalid_request(format!(
                    "a {} x {} board does not fit the {width} x {height} px frames of this animation",
                    panel.rows, panel.cols
                )));
            }
            // Smaller boards and frames with fewer text lines get the same size
            // (the background fills the rest).
            scene.width = width;
            scene.height = height;
            if let Some(key) = &key {
                // At the same place in every frame, whatever the board's size.
                let centre = f64::from(width) / 2.0;
                key.draw(&mut scene, centre, f64::from(key_top), style.caption_color);
            }
            // On paper at the frame's size, not the board sheet's it was drawn as.
            scene.paper = None;
            Ok(style.print.apply(scene))
        })
    }
}
