//! `nimscape octahedron sweep`: the section as the level r sweeps, as an animation.

use super::super::args;
use super::common::{rgb, CameraArgs, ScaleArg, SectionStyleArgs};
use crate::library::figure::octahedron::section::NamedLevel;
use crate::library::figure::octahedron::shading::{PlaneOptions, ViewOptions};
use crate::library::figure::octahedron::sweep::{self, SweepFigure, SweepPlan, SweepView};
use crate::library::scene::units::Length;
use crate::Result;
use clap::Args;
use std::path::PathBuf;

/// Animate the section as the level sweeps.
#[derive(Debug, Args)]
// A sweep's frames differ little, so it plays faster than other GIFs by default
// (sweep::DEFAULT_ANIMATION); its help says so.
#[command(
    mut_arg("delay", |a| a.help("Hundredths of a second per frame of a .gif [default: 8, i.e. 12.5 fps]")),
    mut_arg("hold_last", |a| a.help("Hundredths of a second the last frame of a .gif stays before it loops [default: 100]"))
)]
pub struct SweepArgs {
    /// Order n of S_n (frames are drawn with level of detail, so any n up to 60 is quick).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=60))]
    n: u32,
    /// First level r (exact decimal or fraction).
    #[arg(
        long,
        value_name = "R",
        default_value = "0",
        allow_hyphen_values = true
    )]
    from: String,
    /// Last level r.
    #[arg(
        long,
        value_name = "R",
        default_value = "1",
        allow_hyphen_values = true
    )]
    to: String,
    /// Number of frames; r_k = from + (to - from)·k/(frames - 1). 129 from 0 to 1 lands on every m/128.
    #[arg(long, value_name = "N", default_value_t = 129)]
    frames: u32,
    /// Size along each panel: px, or mm / in / pt [default: 512 px].
    #[arg(long, alias = "size", value_name = "LEN", value_parser = args::parse_size, conflicts_with = "width")]
    panel: Option<Length>,
    /// Width of every frame (85mm, 3.35in, 240pt, 1200px); the panel size follows.
    #[arg(long, value_name = "LEN", value_parser = args::parse_size)]
    width: Option<Length>,
    #[command(flatten)]
    print: args::PrintArgs,
    /// Each frame fills its panel (fit) or one scale for the whole sweep (common).
    #[arg(long, value_enum, default_value = "fit")]
    scale: ScaleArg,
    /// Turn the section by 45° onto the board.
    #[arg(long)]
    align: bool,
    /// Put the 3D view with the moving plane beside the section (the solid above the plane cut away).
    #[arg(long)]
    with_view: bool,
    /// Order of the solid in the 3D view.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=6), requires = "with_view")]
    view_n: u32,
    #[command(flatten)]
    camera: CameraArgs,
    /// Colour of the octahedra in the 3D view (Okabe–Ito orange, as `view`).
    #[arg(long, alias = "color", value_name = "COLOR", default_value_t = args::hex(ViewOptions::default().base), requires = "with_view")]
    solid_color: String,
    #[command(flatten)]
    style: SectionStyleArgs,
    #[command(flatten)]
    animation: args::AnimationArgs,
    /// Output: .gif or .apng, or frames/r-%03d.png / .pdf (numbered frames plus a LaTeX \animategraphics snippet frames/r-png.tex or r-pdf.tex) [default: output/octahedron-sweep.gif]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub(super) fn plan(args: SweepArgs, memory_limit: u64) -> Result<SweepPlan> {
    // Checked with or without --with-view: a NaN angle is a mistake either way.
    // The sweep's 3D panel always shows the moving plane.
    let camera = args.camera.camera(true)?;
    let base = rgb(&args.solid_color, "`solid-color`")?;
    // The plan's defaults (light, ambient, plane glass) are `view`'s: one place.
    let view = if args.with_view {
        Some(SweepView {
            n: args.view_n,
            options: ViewOptions {
                camera,
                base,
                ..ViewOptions::default()
            },
            plane: PlaneOptions::DEFAULT_COLOUR,
            plane_opacity: PlaneOptions::DEFAULT_OPACITY,
        })
    } else {
        None
    };
    let print = args.print.style(&[args.panel, args.width], args.width);
    let columns = 1 + usize::from(args.with_view);
    let style = args.style.style(print)?;
    let size = match (args.panel, args.width) {
        (Some(panel), _) => args::length_units("`panel`", panel, print.print, 16..=4096)?,
        (None, Some(width)) => {
            let units = args::length_units("`width`", width, print.print, 32..=65535)?;
            let side = crate::library::scene::layout::SheetLayout::panel_width_for(
                units,
                columns,
                style.gap,
                style.margin,
            );
            if side < 16 {
                let smallest =
                    2 * style.margin + 16 * columns as u32 + style.gap * (columns as u32 - 1);
                return Err(crate::Error::invalid_parameter("width", format!(
                    "`width` {width} leaves {side} units per panel for {columns} panel(s) after margins and gaps; give `width` {smallest} {} or more",
                    if print.print.dpi.is_some() { "pt" } else { "px" }
                )));
            }
            if side > 4096 {
                return Err(crate::Error::invalid_parameter("width", format!(
                    "`width` {width} gives {side}-unit panels; a sweep's panels are at most 4096 (give a smaller `width`, or `panel`)"
                )));
            }
            side
        }
        (None, None) => 512,
    };
    let figure = SweepFigure {
        n: args.n,
        from: named_r(&args.from, "from")?,
        to: named_r(&args.to, "to")?,
        frames: args.frames,
        size,
        scale: args.scale.into(),
        align: args.align,
        style,
        view,
        animation: args
            .animation
            .animation_of(sweep::DEFAULT_ANIMATION, args.frames as usize)?,
        memory_limit,
    };
    crate::library::figure::plan::Plan::new(figure)
}

/// A sweep end as a real level; errors name its parameter.
fn named_r(text: &str, parameter: &str) -> crate::Result<NamedLevel> {
    NamedLevel::parse_r(text).map_err(|e| match e {
        crate::Error::InvalidParameter { message: msg, .. } => crate::Error::invalid_parameter(
            parameter,
            msg.replace("`r`", &format!("`{parameter}`")),
        ),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[derive(Debug, clap::Parser)]
    struct Sweep {
        #[command(flatten)]
        args: SweepArgs,
    }

    #[test]
    fn sweep_help_states_the_sweep_defaults() {
        let command = Sweep::command();
        let help = |id: &str| {
            let arg = command.get_arguments().find(|a| a.get_id() == id).unwrap();
            arg.get_help().unwrap().to_string()
        };
        let defaults = sweep::DEFAULT_ANIMATION;
        assert!(help("delay").contains(&format!("[default: {}", defaults.delay_cs)));
        assert!(
            help("hold_last").contains(&format!("[default: {}]", defaults.hold_last_cs.unwrap()))
        );
    }

    #[test]
    fn loop_zero_loops_forever_and_no_flag_keeps_the_sweep_timing() {
        use clap::Parser;
        let parse = |extra: &[&str]| {
            let args = Sweep::try_parse_from(["sweep"].iter().chain(extra)).unwrap();
            args.args
                .animation
                .animation_with(sweep::DEFAULT_ANIMATION)
                .unwrap()
        };
        assert_eq!(parse(&[]), sweep::DEFAULT_ANIMATION);
        assert_eq!(parse(&["--loop", "0"]), sweep::DEFAULT_ANIMATION);
        let fast = parse(&["--fps", "25", "--loop", "2"]);
        assert_eq!(fast.delay_cs, 4);
        assert_eq!(fast.repeat, crate::library::encode::gif::Repeat::Times(2));
    }
}
