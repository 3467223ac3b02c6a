//! `nimscape octahedron`: sections of the Sierpinski octahedron, its 3D view,
//! and animated sweeps of the section level.

use super::args;
use super::output::{self, Context};
use crate::figure::octahedron::section::{NamedLevel, Scale, SectionFigure, SectionStyle};
use crate::figure::octahedron::sweep::{self, SweepFigure, SweepView};
use crate::figure::octahedron::view::{Edges, ViewFigure, ViewSubject};
use crate::figure::Figure;
use crate::octahedron::{Camera, OperationOptions, PlaneOptions, ViewOptions};
use crate::scene::units::Length;
use crate::scene::Color;
use anyhow::{bail, Result};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Sections of the Sierpinski octahedron S_n, its 3D view, and sweeps of the level.
#[derive(Debug, Args)]
pub struct OctahedronArgs {
    #[command(subcommand)]
    command: OctahedronCommand,
}

#[derive(Debug, Subcommand)]
enum OctahedronCommand {
    /// The section H(n,m) or H_r of S_n: alone, in a row of levels, beside R(m,m), or as data.
    Section(SectionArgs),
    /// A shaded 3D picture of S_n, optionally with the section plane, or operation T.
    View(ViewArgs),
    /// An animated GIF of the section as the level r sweeps from --from to --to.
    Sweep(SweepArgs),
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ScaleArg {
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
struct SectionStyleArgs {
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
    #[arg(long, value_name = "TEXT", conflicts_with = "no_caption")]
    caption: Option<String>,
    /// Caption size in pt (px without a physical size) [default: scaled to the panel].
    #[arg(long, value_name = "PX", value_parser = args::parse_caption_size)]
    caption_size: Option<f64>,
    /// Space around the figure, pixels.
    #[arg(long, value_name = "PX", default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=args::MAX_SPACING as i64))]
    margin: u32,
    /// Space between panels, pixels.
    #[arg(long, value_name = "PX", default_value_t = 14, value_parser = clap::value_parser!(u32).range(0..=args::MAX_SPACING as i64))]
    gap: u32,
}

impl SectionStyleArgs {
    fn style(&self) -> crate::Result<SectionStyle> {
        let frame = Color::parse(&self.frame_color, "--frame-color")?;
        Ok(SectionStyle {
            fill: Color::parse(&self.fill_color, "--fill-color")?,
            background: Color::parse(&self.background, "--background")?,
            frame: (frame.a > 0).then_some(frame),
            captions: !self.no_caption,
            caption_size: self.caption_size,
            margin: self.margin,
            gap: self.gap,
            print: Default::default(),
            title: self.caption.clone(),
        })
    }
}

/// Draw a horizontal section of S_n.
#[derive(Debug, Args)]
pub struct SectionArgs {
    /// Order n of S_n (6^n octahedra; only those the plane meets are visited).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=60))]
    n: u32,
    /// Level m of H(n,m): the plane z = 1 - m/2^n, 1 <= m <= 2^n; a half level like 5.5 too.
    #[arg(long, value_name = "M", conflicts_with_all = ["levels", "r"])]
    level: Option<String>,
    /// A row of sections, e.g. 5,5.5,6 (Figure 5 of Okubo, Kashiwagi, Niida).
    #[arg(long, value_name = "LIST", conflicts_with_all = ["r", "compare"])]
    levels: Option<String>,
    /// A real level r in [0,1] (the plane z = 1 - r), read exactly: 0.37, 3e-6 or 3/8.
    #[arg(long, value_name = "R", allow_hyphen_values = true)]
    r: Option<String>,
    /// Turn the section by 45° so it lines up with the board R(m,m).
    #[arg(long)]
    align: bool,
    /// With --align and an integer --level: one pixel per diamond, 1-bit, P black (as `square --raw`).
    #[arg(long, conflicts_with_all = ["compare", "levels"])]
    raw: bool,
    /// Draw H(n,m) beside the board R(m,m) (at a half level m.5: beside R(2m+1,2m+1)).
    #[arg(long)]
    compare: bool,
    /// Size along each panel: px, or mm / in / pt (default 640 px alone, 400 with
    /// --compare, 300 in a row).
    #[arg(long, alias = "size", value_name = "LEN", value_parser = args::parse_size, conflicts_with = "width")]
    panel: Option<Length>,
    /// Width of the whole figure (85mm, 3.35in, 240pt, 1200px); the panel size follows.
    #[arg(long, value_name = "LEN", value_parser = args::parse_size)]
    width: Option<Length>,
    #[command(flatten)]
    print: args::PrintArgs,
    /// Panels of a row: each fills its panel (fit) or all share one scale (common).
    #[arg(long, value_enum, default_value = "fit")]
    scale: ScaleArg,
    #[command(flatten)]
    style: SectionStyleArgs,
    /// Output: .png (anti-aliased), .svg / .pdf (exact polygons), .csv or .json (exact diamonds)
    /// [default: output/octahedron-<n>-<level>.png]
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Draw S_n in 3D.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// Order n of S_n (6^n octahedra; n <= 5 draws in under a second).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=60))]
    n: u32,
    #[command(flatten)]
    camera: CameraArgs,
    /// Direction towards the light in camera coordinates x,y,z (x right, y up, z to the viewer).
    #[arg(
        long,
        value_name = "X,Y,Z",
        default_value_t = args::joined(&ViewOptions::default().light),
        allow_hyphen_values = true
    )]
    light: String,
    /// Share of the colour a face keeps with no direct light, 0..1.
    #[arg(long, value_name = "K", default_value_t = ViewOptions::default().ambient)]
    ambient: f64,
    /// Colour of the octahedra (Okabe–Ito orange).
    #[arg(long, alias = "color", value_name = "COLOR", default_value_t = args::hex(ViewOptions::default().base))]
    solid_color: String,
    /// Add the translucent section plane at this level of S_n (e.g. 11 or 5.5) with the cut drawn on it.
    #[arg(long, value_name = "M", conflicts_with = "operation")]
    plane: Option<String>,
    /// Colour of the plane.
    #[arg(long, value_name = "COLOR", default_value_t = args::hex(PlaneOptions::DEFAULT_COLOUR))]
    plane_color: String,
    /// Opacity of the plane, 0..1.
    #[arg(long, value_name = "A", default_value_t = PlaneOptions::DEFAULT_OPACITY)]
    plane_opacity: f32,
    /// Colour of the section drawn on the plane (Okabe–Ito blue, as the section figures).
    #[arg(long, value_name = "COLOR", default_value_t = args::hex(PlaneOptions::DEFAULT_CUT))]
    cut_color: String,
    /// Opacity of the solid above the plane, 0..1 (0, the default, cuts it away so the
    /// section is the first thing seen; above 0 it is drawn without edges, as a ghost).
    #[arg(long, value_name = "A", default_value_t = PlaneOptions::DEFAULT_ABOVE_OPACITY)]
    above_opacity: f32,
    /// Draw operation T on one octahedron: the six kept octahedra and the eight removed tetrahedra.
    #[arg(long, conflicts_with = "n")]
    operation: bool,
    /// How far operation T's removed tetrahedra are pushed out (0: in place).
    #[arg(long, value_name = "K", default_value_t = 0.35, requires = "operation")]
    explode: f64,
    /// Colour of the removed tetrahedra.
    #[arg(
        long,
        value_name = "COLOR",
        default_value = "#56b4e9",
        requires = "operation"
    )]
    removed_color: String,
    /// Side of the square picture: px, or mm / in / pt [default: 800 px].
    #[arg(long, alias = "size", value_name = "LEN", value_parser = args::parse_size)]
    width: Option<Length>,
    #[command(flatten)]
    print: args::PrintArgs,
    /// Colour behind the solid (`none` for transparent).
    #[arg(long, value_name = "COLOR", default_value = "white")]
    background: String,
    /// Width of the facet edges, pixels (default: scaled to the facets; 0 for none).
    #[arg(long, value_name = "PX")]
    edge_width: Option<f64>,
    /// Caption under the picture (default: says what is drawn).
    #[arg(long, value_name = "TEXT", conflicts_with = "no_caption")]
    caption: Option<String>,
    /// Leave out the caption.
    #[arg(long, visible_alias = "no-title")]
    no_caption: bool,
    /// Caption size in pt (px without a physical size) [default: scaled to the picture].
    #[arg(long, value_name = "PT", value_parser = args::parse_caption_size)]
    caption_size: Option<f64>,
    /// Output: .png (anti-aliased) or .svg / .pdf [default: output/octahedron-view-<n>.png]
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

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
    /// Pixels along each panel.
    #[arg(long, alias = "size", value_name = "PX", default_value_t = 512, value_parser = clap::value_parser!(u32).range(16..=4096))]
    panel: u32,
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
    /// Output: .gif or .apng, or frames/r-%03d.png / .pdf (numbered frames plus a LaTeX \\animategraphics snippet frames/r.tex) [default: output/octahedron-sweep.gif]
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The figure the subcommand's flags describe, validated.
pub fn plan(args: OctahedronArgs, memory_limit: u64) -> Result<Box<dyn Figure + Send>> {
    Ok(match args.command {
        OctahedronCommand::Section(a) => Box::new(section(a, memory_limit)?),
        OctahedronCommand::View(a) => Box::new(view(a, memory_limit)?),
        OctahedronCommand::Sweep(a) => Box::new(sweep(a, memory_limit)?),
    })
}

pub fn run(mut args: OctahedronArgs, ctx: &Context) -> Result<()> {
    let output_path = match &mut args.command {
        OctahedronCommand::Section(a) => a.output.take(),
        OctahedronCommand::View(a) => a.output.take(),
        OctahedronCommand::Sweep(a) => a.output.take(),
    };
    let figure = plan(args, ctx.memory_limit)?;
    output::emit(figure.as_ref(), output_path.as_deref(), ctx)?;
    Ok(())
}

fn section(args: SectionArgs, memory_limit: u64) -> Result<SectionFigure> {
    let n = args.n;
    let levels: Vec<NamedLevel> = match (&args.level, &args.levels, &args.r) {
        (Some(level), None, None) => vec![NamedLevel::parse_level(n, level)?],
        (None, Some(list), None) => list
            .split(',')
            .map(|t| NamedLevel::parse_level(n, t))
            .collect::<crate::Result<_>>()?,
        (None, None, Some(r)) => vec![NamedLevel::parse_r(r)?],
        _ => bail!("give the level: --level 11, --level 5.5, --levels 5,5.5,6 or --r 0.37"),
    };
    let print = args.print.style(&[args.panel, args.width], args.width);
    let mut panel = args
        .panel
        .map(|p| args::length_units("--panel", p, print.print, 16..=16384))
        .transpose()?;
    if let Some(width) = args.width {
        let units = args::length_units("--width", width, print.print, 32..=65535)?;
        let panels = levels.len() + usize::from(args.compare);
        let side = crate::scene::layout::SheetLayout::panel_width_for(
            units,
            panels,
            args.style.gap,
            args.style.margin,
        );
        if side < 16 {
            bail!("--width {width} leaves {side} px per panel for {panels} panels; give a larger --width");
        }
        panel = Some(side);
    }
    let figure = SectionFigure {
        n,
        levels,
        align: args.align,
        compare: args.compare,
        raw: args.raw,
        panel,
        scale: args.scale.into(),
        style: SectionStyle {
            print,
            ..args.style.style()?
        },
        memory_limit,
    };
    figure.validate()?;
    Ok(figure)
}

fn parse_light(text: &str) -> crate::Result<[f64; 3]> {
    let bad = || {
        crate::Error::invalid(format!(
            "--light must be three numbers x,y,z (each at most 1e6 in size), not all zero, such as -0.4,0.6,0.7; got '{text}'"
        ))
    };
    let parts: Vec<f64> = text
        .split(',')
        .map(|p| p.trim().parse::<f64>().map_err(|_| bad()))
        .collect::<crate::Result<_>>()?;
    // A direction: its length does not matter, but squaring 1e308 would overflow.
    match parts[..] {
        [x, y, z]
            if parts.iter().all(|v| v.is_finite() && v.abs() <= 1e6)
                && parts.iter().any(|&v| v != 0.0) =>
        {
            Ok([x, y, z])
        }
        _ => Err(bad()),
    }
}

fn unit(value: f64, flag: &str) -> crate::Result<f64> {
    // NaN is not contained in any range, so it is refused here too.
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(crate::Error::invalid(format!(
            "{flag} must be between 0 and 1; got {value}"
        )))
    }
}

/// Where the 3D view is seen from (`view`, and `sweep --with-view`).
#[derive(Debug, Args)]
struct CameraArgs {
    /// Camera direction around the z axis, degrees from +x towards +y.
    #[arg(
        long,
        value_name = "DEG",
        default_value_t = Camera::default().azimuth_deg,
        allow_hyphen_values = true
    )]
    azimuth: f64,
    /// Camera height above the xy plane, degrees (negative: from below).
    #[arg(
        long,
        value_name = "DEG",
        default_value_t = Camera::default().elevation_deg,
        allow_hyphen_values = true
    )]
    elevation: f64,
}

impl CameraArgs {
    fn camera(&self) -> crate::Result<Camera> {
        crate::scene::check_view_angles(self.azimuth, self.elevation)?;
        Ok(Camera {
            azimuth_deg: self.azimuth,
            elevation_deg: self.elevation,
        })
    }
}

fn rgb(text: &str, flag: &str) -> crate::Result<[u8; 3]> {
    let c = Color::parse(text, flag)?;
    if c.a != 255 {
        return Err(crate::Error::invalid(format!(
            "{flag} must be an opaque colour (set opacity with its own option); got '{text}'"
        )));
    }
    Ok(c.rgb_array())
}

fn view(args: ViewArgs, memory_limit: u64) -> Result<ViewFigure> {
    // Every value is checked, used or not: a typo must not wait for the day it is used.
    unit(f64::from(args.plane_opacity), "--plane-opacity")?;
    unit(f64::from(args.above_opacity), "--above-opacity")?;
    if !(0.0..=4.0).contains(&args.explode) {
        bail!("--explode must be between 0 and 4; got {}", args.explode);
    }
    let options = ViewOptions {
        camera: args.camera.camera()?,
        light: parse_light(&args.light)?,
        ambient: unit(args.ambient, "--ambient")?,
        base: rgb(&args.solid_color, "--solid-color")?,
        plane: None,
        memory_limit,
    };
    let n = args.n;
    let (subject, caption) = if args.operation {
        let removed = rgb(&args.removed_color, "--removed-color")?;
        if !(0.0..=4.0).contains(&args.explode) {
            bail!("--explode must be between 0 and 4; got {}", args.explode);
        }
        (
            ViewSubject::Operation(OperationOptions {
                view: options,
                removed,
                removed_opacity: 0.55,
                explode: args.explode,
            }),
            "operation T: 6 octahedra kept, 8 tetrahedra removed".to_string(),
        )
    } else {
        let mut options = options;
        // Math markup: italic S and H with the order as a subscript, as in the paper.
        let mut caption = format!("$S_{{{n}}}$");
        if let Some(text) = &args.plane {
            let named = NamedLevel::parse_level(n, text)?;
            options.plane = Some(PlaneOptions {
                level: named.level,
                colour: rgb(&args.plane_color, "--plane-color")?,
                opacity: unit(f64::from(args.plane_opacity), "--plane-opacity")? as f32,
                cut: rgb(&args.cut_color, "--cut-color")?,
                above_opacity: unit(f64::from(args.above_opacity), "--above-opacity")? as f32,
            });
            caption = format!("{caption} and the plane of ${}$", named.caption(n));
        }
        (ViewSubject::Sierpinski { n, options }, caption)
    };
    let print = args.print.style(&[args.width], args.width);
    let size = match args.width {
        Some(w) => args::length_units("--width", w, print.print, 16..=16384)?,
        None => 800,
    };
    let mut figure = ViewFigure {
        subject,
        size,
        print,
        caption_size: args.caption_size,
        background: Color::parse(&args.background, "--background")?,
        edges: None,
        caption: if args.no_caption {
            None
        } else {
            Some(args.caption.clone().unwrap_or(caption))
        },
        memory_limit,
    };
    figure.edges = Some(match args.edge_width {
        Some(width) => Edges {
            width,
            ..ViewFigure::default_edges(size, figure.order())
        },
        None => ViewFigure::default_edges(size, figure.order()),
    });
    figure.validate()?;
    Ok(figure)
}

fn sweep(args: SweepArgs, memory_limit: u64) -> Result<SweepFigure> {
    // Checked with or without --with-view: a NaN angle is a mistake either way.
    let camera = args.camera.camera()?;
    let base = rgb(&args.solid_color, "--solid-color")?;
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
    let figure = SweepFigure {
        n: args.n,
        from: named_r(&args.from, "from")?,
        to: named_r(&args.to, "to")?,
        frames: args.frames,
        size: args.panel,
        scale: args.scale.into(),
        align: args.align,
        style: args.style.style()?,
        view,
        animation: args.animation.animation_with(sweep::DEFAULT_ANIMATION)?,
        memory_limit,
    };
    figure.validate()?;
    Ok(figure)
}

/// A sweep end as a real level; errors name its parameter.
fn named_r(text: &str, parameter: &str) -> crate::Result<NamedLevel> {
    NamedLevel::parse_r(text).map_err(|e| match e {
        crate::Error::InvalidParameter(msg) => {
            crate::Error::InvalidParameter(msg.replace("`r`", &format!("`{parameter}`")))
        }
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
        assert_eq!(fast.repeat, crate::encode::gif::Repeat::Times(2));
    }
}
