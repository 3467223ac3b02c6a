//! `nimscape octahedron view`: S_n in 3D, with the section plane, or operation T.

use super::super::args;
use super::common::{rgb, unit, CameraArgs};
use crate::library::figure::octahedron::section::NamedLevel;
use crate::library::figure::octahedron::shading::{OperationOptions, PlaneOptions, ViewOptions};
use crate::library::figure::octahedron::view::{Edges, ViewFigure, ViewPlan, ViewSubject};
use crate::library::scene::units::Length;
use crate::library::scene::Color;
use crate::Result;
use clap::Args;
use std::path::PathBuf;

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
    /// Width of the picture: px, or mm / in / pt; its height fits the solid, at most as tall as wide [default: 800 px].
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
    #[arg(long, value_name = "TEXT", conflicts_with = "no_caption", value_parser = args::parse_caption)]
    caption: Option<String>,
    /// Leave out the caption.
    #[arg(long, visible_alias = "no-title")]
    no_caption: bool,
    /// Caption size in pt (px without a physical size) [default: scaled to the picture].
    #[arg(long, value_name = "PT", value_parser = args::parse_caption_size)]
    caption_size: Option<f64>,
    /// Output: .png (anti-aliased), .svg / .pdf, or .tikz / .pgf (to \input in LaTeX) [default: output/octahedron-view-<n>.png]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

fn parse_light(text: &str) -> crate::Result<[f64; 3]> {
    let bad = || {
        crate::Error::invalid_parameter("light", format!(
            "`light` must be three numbers x,y,z (each at most 1e6 in size), not all zero, such as -0.4,0.6,0.7; got '{text}'"
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

pub(super) fn plan(args: ViewArgs, memory_limit: u64) -> Result<ViewPlan> {
    // Every value is checked, used or not: a typo must not wait for the day it is used.
    unit(f64::from(args.plane_opacity), "`plane-opacity`")?;
    unit(f64::from(args.above_opacity), "`above-opacity`")?;
    if !(0.0..=4.0).contains(&args.explode) {
        return Err(crate::Error::invalid_parameter(
            "explode",
            format!("`explode` must be between 0 and 4; got {}", args.explode),
        ));
    }
    let removed = rgb(&args.removed_color, "`removed-color`")?;
    let plane_colour = rgb(&args.plane_color, "`plane-color`")?;
    let cut = rgb(&args.cut_color, "`cut-color`")?;
    let options = ViewOptions {
        camera: args
            .camera
            .camera(args.plane.is_some() && !args.operation)?,
        light: parse_light(&args.light)?,
        ambient: unit(args.ambient, "`ambient`")?,
        base: rgb(&args.solid_color, "`solid-color`")?,
        plane: None,
        memory_limit,
    };
    let n = args.n;
    let (subject, caption) = if args.operation {
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
                colour: plane_colour,
                opacity: unit(f64::from(args.plane_opacity), "`plane-opacity`")? as f32,
                cut,
                above_opacity: unit(f64::from(args.above_opacity), "`above-opacity`")? as f32,
            });
            caption = format!("{caption} and the plane of ${}$", named.caption(n));
        }
        (ViewSubject::Sierpinski { n, options }, caption)
    };
    let print = args.print.style(&[args.width], args.width);
    let size = match args.width {
        Some(w) => args::length_units("`width`", w, print.print, 16..=16384)?,
        None => 800,
    };
    let mut figure = ViewFigure {
        subject,
        size,
        print,
        caption_size: args.caption_size,
        background: Color::parse(&args.background, "`background`")?,
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
    crate::library::figure::plan::Plan::new(figure)
}
