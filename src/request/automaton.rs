//! `nimscape automaton`: frames of the second-order automaton, Rule 60, `--check`.

use super::args::{self, AnimationArgs, BoardStyleArgs};
use crate::library::figure::automaton::{
    frame_list, AutomatonFigure, AutomatonMode, AutomatonPlan, Values,
};
use crate::library::figure::plan::Plan;
use crate::Result;
use clap::Args;
use std::path::PathBuf;

/// Draw frames of the 2D analogue of Rule 60, whose odd cells in frame n are P(n,n).
#[derive(Debug, Args)]
pub struct AutomatonArgs {
    /// Frames n: one (32), a range (1..32) or a list (8,16,32); several make a sheet or, with -o .gif, an animation.
    #[arg(long, value_name = "N", required = true, value_parser = parse_frames)]
    frames: Option<FrameRanges>,
    /// Values mod p (2 to 65535; 2 colours odd cells like P cells) or `exact` (data output only).
    #[arg(long, value_name = "P|exact", default_value = "2")]
    modulus: String,
    /// Colours of residues 1..p-1 for p >= 3 (residue 0 is the background).
    #[arg(long, value_enum, default_value = "viridis")]
    palette: args::PaletteArg,
    /// Draw the 1D Rule 60 space-time diagram for generations 1..N instead (row n = generation n).
    #[arg(long)]
    rule60: bool,
    /// Compare the parity of every frame 1..N with the P-positions of C(n,n) and report the first mismatch.
    #[arg(long)]
    pub check: bool,
    /// Output: .png, .svg / .pdf, .tikz / .pgf (TikZ to \input in LaTeX), .gif or .apng (animation), frames/f-%03d.png or .pdf (numbered frames plus a LaTeX snippet), .csv / .json (i,j,value of non-zero cells), .npy (uint16 frames mod p) [default: output/automaton-<frames>.png; none with --check]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// One pixel per cell, no margin or caption: 1-bit PNG with odd cells black for mod 2, palette colours for mod p.
    #[arg(long, conflicts_with_all = ["cell", "panel", "width", "columns"])]
    raw: bool,
    /// PNG compression of --raw mod 2 frames.
    #[arg(long, value_enum, default_value_t, requires = "raw")]
    compression: args::CompressionArg,
    #[command(flatten)]
    style: BoardStyleArgs,
    #[command(flatten)]
    animation: AnimationArgs,
    /// Animations (.gif, .apng, frame sequences): every board fills its frame (fit) or all share one cell size, frames sized to the largest (common).
    #[arg(long, value_enum, default_value = "fit")]
    scale: args::FrameScale,
    #[command(flatten)]
    print: args::PrintArgs,
}

/// Inclusive frame ranges as typed; validated by the library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameRanges(Vec<(u64, u64)>);

fn parse_frames(text: &str) -> Result<FrameRanges, String> {
    let list = super::args::parse_list(
        text,
        0,
        crate::library::figure::automaton::MAX_FRAMES as u64,
    )?;
    Ok(FrameRanges(list.0.into_iter().map(|n| (n, n)).collect()))
}

/// The figure the flags describe, validated.
pub fn plan(args: AutomatonArgs, memory_limit: u64) -> crate::Result<AutomatonPlan> {
    let ranges = args.frames.map(|f| f.0).unwrap_or_default();
    let frames = frame_list(&ranges)?;
    let values = Values::parse(&args.modulus)?;
    let palette = args.palette.into();
    let mode = if args.raw {
        AutomatonMode::Raw {
            compression: args.compression.into(),
            palette,
        }
    } else {
        // Rule 60 draws all its generations as one diagram: one panel.
        let panels = if args.rule60 { 1 } else { frames.len() };
        args.style.check_columns(panels)?;
        let style = args.style.style_printed(&args.print)?;
        let captions: Vec<String> = if args.rule60 {
            Vec::new()
        } else {
            frames.iter().map(|n| format!("n = {n}")).collect()
        };
        let (size, columns) = args.style.layout(panels, &style, &captions, &[])?;
        AutomatonMode::Styled {
            style,
            size,
            columns,
            palette,
            animation: args.animation.animation_of(
                crate::library::encode::animation::Animation::default(),
                frames.len(),
            )?,
            common_scale: args.scale == args::FrameScale::Common,
        }
    };
    let figure = AutomatonFigure {
        frames,
        values,
        rule60: args.rule60,
        mode,
        memory_limit,
    };
    Plan::new(figure)
}
