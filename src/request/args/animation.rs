//! Timing, looping and scaling of animations.

use crate::library::encode::animation::Animation;
use crate::library::encode::gif::Repeat;
use clap::Args;

/// How the frames of a board animation are scaled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FrameScale {
    /// Every board fills its frame (the paper's (1/m)·R(m,m)): growth reads as refinement.
    #[default]
    Fit,
    /// One cell size for all frames, sized to the largest board: growth is visible.
    Common,
}

/// Timing and looping of animated GIFs, shared by every figure that animates.
#[derive(Debug, Clone, Args)]
pub struct AnimationArgs {
    /// How often a .gif plays: 0 (the default) loops forever, N plays N times in all.
    #[arg(long = "loop", value_name = "N", default_value_t = 0)]
    pub loop_count: u16,
    /// Hundredths of a second per frame of a .gif [default: 10, i.e. 10 fps].
    #[arg(long, value_name = "CS", conflicts_with = "fps", value_parser = clap::value_parser!(u16).range(2..))]
    pub delay: Option<u16>,
    /// Frames per second of a .gif (at most 50; stored as a delay in hundredths of a second).
    #[arg(long, value_name = "FPS")]
    pub fps: Option<f64>,
    /// Hundredths of a second the last frame of a .gif stays before it loops [default: 150].
    #[arg(long, value_name = "CS", value_parser = clap::value_parser!(u16).range(2..))]
    pub hold_last: Option<u16>,
    /// The frame (1 = first) that stands for the animation where it cannot play:
    /// the still beside it in figures.tex and the poster of a frames snippet
    /// [default: the most detailed frame, the later of equals].
    #[arg(long, value_name = "N", value_parser = parse_frame_number)]
    pub poster: Option<u32>,
}

/// A frame's number, counted from 1 as the frames' file names are.
fn parse_frame_number(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("give a frame's number, 1 for the first".into()),
    }
}

impl AnimationArgs {
    /// [`AnimationArgs::animation_with`] for an animation of `frames` frames:
    /// a `poster` past the last is refused here, whatever the output (a GIF
    /// has no poster to show, but a wrong number is still a mistake to name).
    pub fn animation_of(&self, defaults: Animation, frames: usize) -> crate::Result<Animation> {
        let animation = self.animation_with(defaults)?;
        crate::library::encode::animation::check_poster(animation.poster, frames)?;
        Ok(animation)
    }

    /// The validated animation settings, `defaults` where no flag is given (a figure
    /// with its own defaults also says them in its help, see `octahedron sweep`).
    pub fn animation_with(&self, defaults: Animation) -> crate::Result<Animation> {
        let delay_cs = match (self.delay, self.fps) {
            (Some(delay), _) => delay,
            (None, Some(fps)) => {
                if !(fps.is_finite() && (0.01..=50.0).contains(&fps)) {
                    return Err(crate::Error::invalid_parameter("fps", format!(
                        "`fps` {fps}: GIF delays are whole hundredths of a second and viewers slow anything under 2 cs down; use 0.01 to 50 fps"
                    )));
                }
                (100.0 / fps).round() as u16
            }
            (None, None) => defaults.delay_cs,
        };
        let animation = Animation {
            repeat: Repeat::from_loop_count(self.loop_count),
            delay_cs,
            hold_last_cs: Some(
                self.hold_last
                    .unwrap_or(defaults.hold_last_cs.unwrap_or(delay_cs)),
            ),
            poster: self.poster,
        };
        animation.validate()?;
        Ok(animation)
    }
}
