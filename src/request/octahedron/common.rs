//! What the octahedron subcommands share: scale, section style, camera,
//! colours and 0..1 values.

use super::super::args;
use crate::library::figure::octahedron::camera::Camera;
use crate::library::figure::octahedron::section::{Scale, SectionStyle};
use crate::library::figure::octahedron::shading::PlaneOptions;
use crate::library::scene::Color;
use clap::{Args, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(super) enum ScaleArg {
    /// Every section fills its panel.
    Fit,
    /// One scale for all panels: true sizes.
    Common,
}

impl From<ScaleArg> for Scale {
    fn from(value: ScaleArg) -> Self {
        match value {
            ScaleArg::Fit => Scale::Fit,
            ScaleArg::Common => Scale::Common,
        }
    }
}

/// Colours and captions of section panels.
#[derive(Debug, Args)]
pub(super) struct SectionStyleArgs {
    /// Colour of the section (Okabe–Ito blue, colour-blind safe, as the cut in `view --plane`).
    #[arg(long, alias = "fill", value_name = "COLOR", default_value_t = args::hex(PlaneOptions::DEFAULT_CUT))]
    fill_color: String,
    /// Colour around the section (`none` for transparent PNG/SVG).
    #[arg(long, value_name = "COLOR", default_value = "white")]
    background: String,
    /// Colour of the outline of the octahedron's section |x|+|y| <= r (`none` for none).
    #[arg(long, value_name = "COLOR", default_value = "#888888")]
    frame_color: String,
    /// Leave out captions.
    #[arg(long, visible_alias = "no-title")]
    no_caption: bool,
    /// A title above the whole figure ($...$ for math: "$H(4,11)$ beside $R(11,11)$").
    #[arg(long, value_name = "TEXT", conflicts_with = "no_caption", value_parser = args::parse_caption)]
    caption: Option<String>,
    /// Caption size in pt (px without a physical size) [default: scaled to the panel].
    #[arg(long, value_name = "PT", value_parser = args::parse_caption_size)]
    caption_size: Option<f64>,
    /// Space around the figure: px, or mm / in / pt [default: 16 (pt on paper)].
    #[arg(long, value_name = "LEN", value_parser = args::parse_spacing)]
    pub(super) margin: Option<crate::library::scene::units::Length>,
    /// Space between panels: px, or mm / in / pt [default: 14 (pt on paper)].
    #[arg(long, value_name = "LEN", value_parser = args::parse_spacing)]
    pub(super) gap: Option<crate::library::scene::units::Length>,
}

impl SectionStyleArgs {
    /// The validated style, its margin and gap in units of `print`.
    pub(super) fn style(
        &self,
        print: crate::library::scene::units::PrintStyle,
    ) -> crate::Result<SectionStyle> {
        let frame = Color::parse(&self.frame_color, "`frame-color`")?;
        let (margin, gap) = args::spacing(self.margin, self.gap, print.print)?;
        Ok(SectionStyle {
            fill: Color::parse(&self.fill_color, "`fill-color`")?,
            background: Color::parse(&self.background, "`background`")?,
            frame: (frame.a > 0).then_some(frame),
            captions: !self.no_caption,
            caption_size: self.caption_size,
            margin,
            gap,
            print,
            title: self.caption.clone(),
        })
    }
}

pub(super) fn unit(value: f64, flag: &str) -> crate::Result<f64> {
    // NaN is not contained in any range, so it is refused here too.
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(crate::Error::invalid_marked(
            flag,
            format!("{flag} must be between 0 and 1; got {value}"),
        ))
    }
}

/// Where the 3D view is seen from (`view`, and `sweep --with-view`).
#[derive(Debug, Args)]
pub(super) struct CameraArgs {
    /// Camera direction around the z axis, degrees from +x towards +y.
    #[arg(
        long,
        value_name = "DEG",
        default_value_t = Camera::default().azimuth_deg,
        allow_hyphen_values = true
    )]
    azimuth: f64,
    /// Camera height above the xy plane, degrees (negative: from below)
    /// [default: 15, or 35 when a section plane is drawn].
    #[arg(long, value_name = "DEG", allow_hyphen_values = true)]
    elevation: Option<f64>,
}

/// The elevation of a view that shows a section plane: low views show S_n's
/// outline best, but foreshorten the section on its plane into thin strips.
pub(super) const PLANE_ELEVATION_DEG: f64 = 35.0;

impl CameraArgs {
    /// The camera; `with_plane` when a section plane is drawn, so the default
    /// elevation looks down on the section.
    pub(super) fn camera(&self, with_plane: bool) -> crate::Result<Camera> {
        let elevation = self.elevation.unwrap_or(if with_plane {
            PLANE_ELEVATION_DEG
        } else {
            Camera::default().elevation_deg
        });
        crate::library::scene::check_view_angles(self.azimuth, elevation)?;
        Ok(Camera {
            azimuth_deg: self.azimuth,
            elevation_deg: elevation,
        })
    }
}

pub(super) fn rgb(text: &str, flag: &str) -> crate::Result<[u8; 3]> {
    let c = Color::parse(text, flag)?;
    if c.a != 255 {
        return Err(crate::Error::invalid_marked(
            flag,
            format!(
                "{flag} must be an opaque colour (set opacity with its own option); got '{text}'"
            ),
        ));
    }
    Ok(c.rgb_array())
}
