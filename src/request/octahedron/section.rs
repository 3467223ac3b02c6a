//! `nimscape octahedron section`: one section, a row of levels, beside R(m,m), or as data.

use super::super::args;
use super::common::{ScaleArg, SectionStyleArgs};
use crate::library::figure::octahedron::section::{NamedLevel, SectionFigure, SectionPlan};
use crate::library::scene::units::Length;
use crate::Result;
use clap::Args;
use std::path::PathBuf;

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
    /// Output: .png (anti-aliased), .svg / .pdf / .tikz (exact polygons; .tikz or .pgf set its text in the LaTeX document's font), .csv or .json (exact diamonds)
    /// [default: output/octahedron-<n>-<level>.png]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub(super) fn plan(args: SectionArgs, memory_limit: u64) -> Result<SectionPlan> {
    let n = args.n;
    let levels: Vec<NamedLevel> = match (&args.level, &args.levels, &args.r) {
        (Some(level), None, None) => vec![NamedLevel::parse_level(n, level)?],
        (None, Some(list), None) => list
            .split(',')
            .map(|t| NamedLevel::parse_level(n, t))
            .collect::<crate::Result<_>>()?,
        (None, None, Some(r)) => vec![NamedLevel::parse_r(r)?],
        _ => {
            return Err(crate::Error::invalid_parameter(
                "level",
                "give the level: `level` 11, `level` 5.5, `levels` 5,5.5,6 or `r` 0.37",
            ))
        }
    };
    let print = args.print.style(&[args.panel, args.width], args.width);
    let mut panel = args
        .panel
        .map(|p| args::length_units("`panel`", p, print.print, 16..=16384))
        .transpose()?;
    let (margin, gap) = args::spacing(args.style.margin, args.style.gap, print.print)?;
    if let Some(width) = args.width {
        let units = args::length_units("`width`", width, print.print, 32..=65535)?;
        let panels = levels.len() + usize::from(args.compare);
        let side =
            crate::library::scene::layout::SheetLayout::panel_width_for(units, panels, gap, margin);
        if side < 16 {
            return Err(crate::Error::invalid_parameter("width", format!("`width` {width} leaves {side} px per panel for {panels} panels; give a larger `width`")));
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
        style: args.style.style(print)?,
        memory_limit,
    };
    crate::library::figure::plan::Plan::new(figure)
}
