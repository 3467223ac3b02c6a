//! `nimscape square`: the P-position pattern of C(m,n).

use super::args::{self, AnimationArgs, BoardStyleArgs, PrintArgs};
use crate::figure::plan::Plan;
use crate::figure::square::{SquareFigure, SquareMode, SquareOverlay, SquarePlan};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Draw R(m,n), the P-cells of the m x n chocolate bar.
#[derive(Debug, Args)]
pub struct SquareArgs {
    /// Rows m: one board (11), a sheet of boards (1..24), or a list (3,5,11).
    #[arg(long, value_name = "M", value_parser = args::parse_m_list)]
    m: Option<args::ValueList>,
    /// Columns n, for rectangular boards (default: n = m).
    #[arg(long, value_name = "N", value_parser = args::parse_side)]
    n: Option<u64>,
    /// Output: .png, .svg / .pdf, .tikz / .pgf (a TikZ picture to \input in LaTeX, text in the document's font), .gif or .apng (an animation over m), frames/m-%03d.png or .pdf (numbered frames plus a LaTeX \animategraphics snippet frames/m-png.tex or m-pdf.tex), .csv (i,j of every P cell), .json or .npy (one board, uint8, 1 = P) [default: output/square-<m>.png]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// One pixel per cell, no margin or caption, 1-bit PNG with P cells black (streamed: any size).
    #[arg(long, conflicts_with_all = ["decompose", "cell", "panel", "width", "columns"])]
    raw: bool,
    /// PNG compression of --raw boards.
    #[arg(long, value_enum, default_value_t, requires = "raw")]
    compression: args::CompressionArg,
    /// Outline Theorem 3.4's blocks: four s x s corner copies of R(s,s) and the t x t centre R(t,t).
    #[arg(long)]
    decompose: bool,
    /// Draw another game's P-cells over the board: nim-pass (Nim blue, Nim with a pass red; as in Okubo, Kashiwagi, Niida, Figures 8–11).
    #[arg(long, value_enum, value_name = "GAME")]
    overlay: Option<OverlayArg>,
    #[command(flatten)]
    style: BoardStyleArgs,
    #[command(flatten)]
    animation: AnimationArgs,
    /// Animations (.gif, .apng, frame sequences): every board fills its frame (fit) or all share one cell size, frames sized to the largest (common).
    #[arg(long, value_enum, default_value = "fit")]
    scale: args::FrameScale,
    #[command(flatten)]
    print: PrintArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum OverlayArg {
    /// Nim with a one-time pass on the board's four heaps.
    NimPass,
}

/// The figure the flags describe, validated.
pub fn plan(args: SquareArgs, memory_limit: u64) -> crate::Result<SquarePlan> {
    let boards: Vec<u64> = args.m.map(|list| list.0).unwrap_or_default();
    if boards.is_empty() {
        return Err(crate::Error::invalid(
            "`m` is required: the board size, e.g. `m` 11, `m` 1..24 or `m` 3,5,11",
        ));
    }
    let mode = if args.raw {
        SquareMode::Raw {
            compression: args.compression.into(),
        }
    } else {
        args.style.check_columns(boards.len())?;
        let style = args.style.style_printed(&args.print)?;
        let captions: Vec<String> = boards
            .iter()
            .map(|m| match args.n {
                Some(n) if n != *m => format!("m = {m}, n = {n}"),
                _ => format!("m = {m}"),
            })
            .collect();
        let (size, columns) = args.style.layout(boards.len(), &style, &captions)?;
        SquareMode::Styled {
            style,
            size,
            columns,
            decompose: args.decompose,
        }
    };
    let figure = SquareFigure {
        n: args.n,
        memory_limit,
        animation: args.animation.animation()?,
        overlay: args
            .overlay
            .map(|OverlayArg::NimPass| SquareOverlay::NimPass),
        common_scale: args.scale == args::FrameScale::Common,
        ..SquareFigure::new(boards, mode)
    };
    Plan::new(figure)
}
