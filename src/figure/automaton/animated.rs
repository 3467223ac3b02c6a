//! Animations of the frames: the GIF, and the board frames that APNG and
//! frame sequences are made of.

use super::{AutomatonMode, AutomatonPlan, DEFAULT_GIF_PANEL};
use crate::library::figure::animation::BoardAnimation;
use crate::Control;
use crate::{Error, Result};
use std::io::Write;

impl AutomatonPlan {
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
        let panel_px = crate::library::figure::animation::frame_panel(
            style,
            *size,
            last as u64,
            DEFAULT_GIF_PANEL,
        )?;
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

    pub(super) fn write_gif(&self, out: &mut dyn Write, control: &Control) -> Result<()> {
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
    pub(super) fn board_frames(&self) -> Result<crate::library::encode::animation::Frames<'_>> {
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
}
