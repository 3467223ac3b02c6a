//! `nimscape square`: the P-position pattern of C(m,n).

use super::args::{self, AnimationArgs, BoardStyleArgs, PrintArgs};
use crate::library::figure::plan::Plan;
use crate::library::figure::square::window::{WindowColour, WindowFigure, WindowZoom};
use crate::library::figure::square::{SquareFigure, SquareMode, SquareOverlay};
use crate::library::figure::Figure;
use crate::library::scene::units::Unit;
use crate::library::scene::Color;
use clap::{Args, ValueEnum};
use std::ops::Range;
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
    /// With --decompose: outline the blocks' own blocks too, this many levels deep (1: the board's only).
    #[arg(long, value_name = "D", requires = "decompose", value_parser = clap::value_parser!(u32).range(1..=16))]
    decompose_depth: Option<u32>,
    /// Draw only cells ROWS,COLS of one board as the explorer shows them (1-based, both ends included, e.g. 1..64,1..64): any board up to 2^62, a pixel covering many cells (--bin) shaded by its exact share of P-cells. Writes .png.
    #[arg(long, value_name = "ROWS,COLS", value_parser = parse_window, conflicts_with_all = ["raw", "panel", "width", "columns"])]
    window: Option<(Range<u64>, Range<u64>)>,
    /// With --window: one pixel shows a K x K block of cells (K a power of two; blocks start at the board's first cell, as the explorer's tiles) [default: 1].
    #[arg(long, value_name = "K", requires = "window", conflicts_with = "cell", value_parser = parse_bin)]
    bin: Option<u32>,
    /// With --window: colour a pixel by the share of P-cells in it (share), or by the bit length of the nim-sum of its first cell on an ordered, colour-blind-safe ramp (nim-sum; sampled), or by the share stretched over the shares in the window (share-stretched: the distinct shares in order, evenly from white to the P colour, for deep views whose shares agree to far below one grey step) [default: share].
    #[arg(long, value_enum, value_name = "BY", requires = "window")]
    colour_by: Option<ColourBy>,
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
enum ColourBy {
    /// The exact share of P-cells in the pixel's block.
    Share,
    /// The bit length of the four-heap nim-sum of the block's first cell.
    NimSum,
    /// The share, contrast-stretched: the distinct shares in the window in order, evenly spaced from the other colour (lowest) to the P colour (highest).
    ShareStretched,
}

/// Parses `--window ROWS,COLS`: each `a..b` (1-based, both ends included;
/// `a..=b` too) or one number.
fn parse_window(text: &str) -> Result<(Range<u64>, Range<u64>), String> {
    let Some((rows, cols)) = text.split_once(',') else {
        return Err(format!(
            "'{text}' is not ROWS,COLS: write e.g. 1..64,1..64 (1-based, both ends included)"
        ));
    };
    let range = |part: &str, what: &str| -> Result<Range<u64>, String> {
        let number = |s: &str| -> Result<u64, String> {
            let s = s.trim();
            s.parse::<u64>()
                .ok()
                .filter(|&v| v >= 1)
                .ok_or_else(|| format!("the {what} '{part}': '{s}' is not a whole number from 1"))
        };
        let (a, b) = match part.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.trim_start_matches('='))?),
            None => (number(part)?, number(part)?),
        };
        if a > b {
            return Err(format!(
                "the {what} {a}..{b} are empty: write the first before the last"
            ));
        }
        Ok(a - 1..b)
    };
    Ok((range(rows, "rows")?, range(cols, "columns")?))
}

/// Parses `--bin K`: a power of two up to 2^62; gives its exponent.
fn parse_bin(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u64>() {
        Ok(k) if k.is_power_of_two() && k <= 1 << 62 => Ok(k.trailing_zeros()),
        _ => Err(format!(
            "'{text}' is not a power of two from 1 to 2^62 (cells per pixel along a side: 1, 2, 4, ...)"
        )),
    }
}

/// The window the flags describe, validated.
fn window_plan(
    args: &SquareArgs,
    (rows, cols): (Range<u64>, Range<u64>),
    boards: &[u64],
    memory_limit: u64,
) -> crate::Result<Box<dyn Figure + Send>> {
    let &[m] = boards else {
        return Err(crate::Error::invalid_parameter(
            "window",
            "`window` draws one board: give a single `m`",
        ));
    };
    let zoom = match (args.bin, args.style.cell) {
        (Some(level), _) => WindowZoom::Bin(level),
        (None, Some(cell)) => {
            if cell.unit != Unit::Px
                || cell.value.fract() != 0.0
                || !(1.0..=4096.0).contains(&cell.value)
            {
                return Err(crate::Error::invalid_parameter("cell", 
                    "`cell` with `window` is a whole number of pixels from 1 to 4096, e.g. 8 or 8px",
                ));
            }
            WindowZoom::Cell(cell.value as u32)
        }
        (None, None) => WindowZoom::Cell(1),
    };
    let figure = WindowFigure {
        m,
        n: args.n.unwrap_or(m),
        rows,
        cols,
        zoom,
        colour: match args.colour_by {
            Some(ColourBy::NimSum) => WindowColour::NimSum,
            Some(ColourBy::ShareStretched) => WindowColour::ShareStretched,
            Some(ColourBy::Share) | None => WindowColour::Share,
        },
        p_color: Color::parse(&args.style.p_color, "p-color")?,
        other_color: Color::parse(&args.style.other_color, "other-color")?,
        decompose_depth: if args.decompose {
            args.decompose_depth.unwrap_or(1)
        } else {
            0
        },
        pass_overlay: args.overlay.is_some(),
        memory_limit,
    };
    Ok(Box::new(Plan::new(figure)?))
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum OverlayArg {
    /// Nim with a one-time pass on the board's four heaps.
    NimPass,
}

/// The figure the flags describe, validated.
pub(crate) fn plan(args: SquareArgs, memory_limit: u64) -> crate::Result<Box<dyn Figure + Send>> {
    let boards = args::required_m(
        args.m.clone(),
        ": the board size, e.g. `m` 11, `m` 1..24 or `m` 3,5,11",
    )?;
    if let Some(window) = args.window.clone() {
        return window_plan(&args, window, &boards, memory_limit);
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
        // The lines under the captions (at the key's size) must fit as well.
        let mut lines = Vec::new();
        for &m in &boards {
            if args.decompose {
                lines.push(crate::library::figure::square::decomposition_line(m));
            }
            if args.overlay.is_some() {
                // At most every cell is P: as wide as any count can be.
                lines.push(format!("pass: {}", m.saturating_mul(m)));
            }
        }
        let (size, columns) = args.style.layout(boards.len(), &style, &captions, &lines)?;
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
        animation: args.animation.animation_of(
            crate::library::encode::animation::Animation::default(),
            boards.len(),
        )?,
        overlay: args
            .overlay
            .map(|OverlayArg::NimPass| SquareOverlay::NimPass),
        common_scale: args.scale == args::FrameScale::Common,
        decompose_depth: args.decompose_depth.unwrap_or(1),
        ..SquareFigure::new(boards, mode)
    };
    Ok(Box::new(Plan::new(figure)?))
}
