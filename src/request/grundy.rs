//! `nimscape grundy`: a game's Grundy values on a box, as data, a table or a
//! plot, and the papers' analyses (nim-sum comparison, shifted nim-sum rules).

use super::args;
use crate::figure::grundy::{GrundyFigure, GrundyPlan, GrundyPlot, PlotView, Slice, TableStyle};
use crate::figure::plan::Plan;
use crate::games::{Band, GameBox, GameParams, GameSpec, SixSided, GAME_NAMES};
use crate::scene::chart::ChartLabels;
use crate::scene::units::Length;
use crate::Result;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Grundy values of the papers' games: data, mod-3 tables, P-position plots, analyses.
#[derive(Debug, Args)]
pub struct GrundyArgs {
    /// The game: triangular, min-half, cap, six-sided, band-7-1, band-7-2, nim-pass, nim
    /// (with --cap EXPR or --game FILE it may be left out).
    /// A path ending in .toml names a game file, as --game does.
    #[arg(value_name = "GAME", value_parser = GameName, hide_possible_values = true)]
    game: Option<String>,
    /// A game file instead of a built-in game: heaps, positions and moves in TOML
    /// (docs/games.md; the papers' games are in games/).
    #[arg(long = "game", value_name = "FILE")]
    game_file: Option<PathBuf>,
    /// A game file's parameters, NAME=INTEGER: repeat or separate by commas (--param k=2,h=1).
    #[arg(long = "param", value_name = "NAME=V,..", value_delimiter = ',')]
    param: Vec<String>,
    /// triangular: the cap is floor((x+z)/K); band-7-2: the slope (default 1).
    #[arg(long, value_name = "K")]
    k: Option<u32>,
    /// band-7-2: the band's width (default 3).
    #[arg(long, value_name = "H")]
    h: Option<u32>,
    /// nim-pass, nim: the number of heaps (default 3).
    #[arg(long, value_name = "N")]
    heaps: Option<usize>,
    /// A user cap y <= EXPR over x and z: integers, + - * / ^ **, floor ceil round sqrt min max.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    cap: Option<String>,
    /// A pass: once per game, and not from a position with no move, a player may pass;
    /// values are those with the pass still available (capped games; a game file says pass = true).
    #[arg(long)]
    pass: bool,
    /// Misère play: the player who cannot move wins; a position with no move is worth 1,
    /// so P-positions keep value 0 (capped games; a game file says misere = true).
    #[arg(long)]
    misere: bool,
    /// The box: every coordinate in 0..N, or one bound each (20,10,20)
    /// [default for band games and six-sided: the paper's table or box].
    #[arg(long = "box", value_name = "N|N,N,..")]
    game_box: Option<String>,
    /// Output: .png / .svg / .pdf / .tikz / .pgf (a table or plot; TikZ to \input in LaTeX), .csv / .json (every position and its value), .npy (uint16 box, 65535 outside the game).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Data lists only the P-positions.
    #[arg(long)]
    p_only: bool,
    /// What a .png / .svg shows [default: table for two free coordinates, points3d for three].
    #[arg(long, value_enum)]
    plot: Option<PlotArg>,
    /// Fix coordinates: a table of a three-heap game is one slice (z=5 or y=2).
    #[arg(long, value_name = "NAME=V,..")]
    slice: Option<String>,
    /// Colour table cells by their value's class mod this (1..8; the papers use 3).
    #[arg(long, alias = "modulus", value_name = "M", default_value_t = 3)]
    color_classes: u32,
    /// Colours of the value classes 1.. (class 0 is white).
    #[arg(long, value_enum, default_value = "paper")]
    palette: args::PaletteArg,
    /// Table cell size: px, or mm / in / pt [default: fitted to the widest number;
    /// with --width, the width shared out].
    #[arg(long, value_name = "LEN", value_parser = args::parse_size, conflicts_with = "width")]
    cell: Option<Length>,
    #[command(flatten)]
    labels: args::ChartLabelArgs,
    #[command(flatten)]
    print: args::PrintArgs,
    /// 3D plots: rotation about the vertical axis, degrees.
    #[arg(
        long,
        value_name = "DEG",
        default_value_t = -60.0,
        allow_hyphen_values = true
    )]
    azimuth: f64,
    /// 3D plots: tilt, degrees in -90..90.
    #[arg(
        long,
        value_name = "DEG",
        default_value_t = 20.0,
        allow_hyphen_values = true
    )]
    elevation: f64,
    /// Width of the figure: px, or 85mm, 3.35in, 240pt [default: plots 900 px,
    /// tables as their cells need].
    #[arg(long, value_name = "LEN", value_parser = args::parse_size)]
    width: Option<Length>,
    /// Height of a plot, exactly: the figure centred on it, or refused naming the
    /// height it needs [default: 720 px, or 0.8 of a given --width, cut to the plot].
    #[arg(long, value_name = "LEN", value_parser = args::parse_size)]
    height: Option<Length>,
    /// Sieve and points plots: a cell's height over its width (1: square cells, one
    /// scale up and across) [default: the plot takes the whole width, square cells
    /// unless --height is too low for them].
    #[arg(long, value_name = "RATIO", value_parser = parse_aspect)]
    aspect: Option<f64>,
    /// Print how many positions have Grundy value = the nim-sum of their coordinates.
    #[arg(long)]
    pub compare_nim_sum: bool,
    /// Print, for each h in A..B, whether the P-positions are exactly (x+h)^y^(z+h) = 0.
    #[arg(long, value_name = "A..B", allow_hyphen_values = true)]
    pub find_shift: Option<String>,
    /// Print how long solving took (the solver alone: no start-up, no output).
    #[arg(long)]
    pub time: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum PlotArg {
    /// Grundy values, two free coordinates.
    Table,
    /// P-positions as a 3D point cloud, three free coordinates.
    Points3d,
    /// P-positions projected to (y, x - z).
    Sieve,
    /// P-positions as points, two free coordinates (Wythoff's game, say).
    Points,
}

/// Parses `--aspect`: a positive ratio, `1`, `0.5` or `3/4`.
fn parse_aspect(text: &str) -> std::result::Result<f64, String> {
    let value = match text.split_once('/') {
        Some((a, b)) => a
            .trim()
            .parse::<f64>()
            .ok()
            .zip(b.trim().parse::<f64>().ok())
            .map(|(a, b)| a / b),
        None => text.trim().parse::<f64>().ok(),
    };
    match value {
        Some(v) if v.is_finite() && (0.05..=20.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "'{text}' is not a ratio from 0.05 to 20; write e.g. 1 (square cells), 0.5 or 3/4"
        )),
    }
}

/// Parses `A..B` (or `A..=B`), integers that may be negative.
pub fn parse_shift_range(text: &str) -> Result<std::ops::RangeInclusive<i64>> {
    let bad = || {
        crate::Error::invalid(format!(
            "`find-shift`: '{text}' is not a range A..B of integers; write e.g. -3..3"
        ))
    };
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let a: i64 = a.trim().parse().map_err(|_| bad())?;
    let b: i64 = b
        .trim()
        .trim_start_matches('=')
        .parse()
        .map_err(|_| bad())?;
    if a > b {
        return Err(crate::Error::invalid(format!(
            "`find-shift`: {a}..{b} is empty; write the smaller end first, e.g. {b}..{a}"
        )));
    }
    if b - a > 10_000 {
        return Err(crate::Error::invalid(format!(
            "`find-shift`: {a}..{b} has {} shifts; at most 10001",
            b - a + 1
        )));
    }
    Ok(a..=b)
}

/// The figure the flags describe (the game is solved when first written).
pub fn plan(args: &GrundyArgs, memory_limit: u64) -> crate::Result<GrundyPlan> {
    plan_with(args, memory_limit, GameFiles::Disk)
}

/// [`plan`] with game files read from `files`.
pub fn plan_with(
    args: &GrundyArgs,
    memory_limit: u64,
    files: GameFiles<'_>,
) -> crate::Result<GrundyPlan> {
    figure_of(args, memory_limit, files).and_then(Plan::new)
}

/// Where the game file a `game` parameter names is read from.
#[derive(Debug, Clone, Copy, Default)]
pub enum GameFiles<'a> {
    /// From the disk, as the command line reads it.
    #[default]
    Disk,
    /// From the disk, only below the current folder (a relative path without
    /// `..`): what the server reads, so that a request cannot name any file of
    /// the machine.
    Below,
    /// One game file a front end holds in memory (a game pasted into the
    /// explorer): the file called `name` has the text `text`, and no other file
    /// is read. The figure records `name`, so its command line reproduces it
    /// wherever `name` holds that text.
    Given {
        /// The file name the figure's command line names.
        name: &'a str,
        /// The game file's text.
        text: &'a str,
    },
}

impl GameFiles<'_> {
    /// The file's name as messages show it, and its text.
    pub fn read(&self, path: &std::path::Path) -> crate::Result<(String, String)> {
        match self {
            GameFiles::Disk => read_game_file(path),
            GameFiles::Below => {
                use std::path::Component;
                if path
                    .components()
                    .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
                {
                    read_game_file(path)
                } else {
                    Err(crate::Error::invalid_parameter(
                        "game",
                        format!(
                            "game file '{}' is outside the folder the server was started in; give a path inside it, without '..'",
                            args::excerpt(&path.display().to_string())
                        ),
                    ))
                }
            }
            GameFiles::Given { name, text } if path == std::path::Path::new(name) => {
                if text.len() > crate::games::file::MAX_GAME_FILE_BYTES {
                    return Err(crate::Error::invalid_parameter(
                        "game",
                        format!(
                            "game file '{name}' is larger than {} KiB",
                            crate::games::file::MAX_GAME_FILE_BYTES / 1024
                        ),
                    ));
                }
                Ok((name.to_string(), text.to_string()))
            }
            GameFiles::Given { name, .. } => Err(crate::Error::invalid_parameter(
                "game",
                format!(
                    "game file '{}' is not the one given ('{name}'); no other file is read here",
                    args::excerpt(&path.display().to_string())
                ),
            )),
        }
    }
}

/// The `game` positional's parser: any word (an unknown game is refused with a
/// suggestion when the figure is planned, on every front end alike), with the
/// game names as its possible values, for shell completion only.
#[derive(Clone, Copy, Debug)]
struct GameName;

impl clap::builder::TypedValueParser for GameName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            GAME_NAMES
                .iter()
                .map(|&name| clap::builder::PossibleValue::new(name)),
        ))
    }
}

/// Whether the `game` positional names a game file rather than a built-in game.
pub fn is_game_file(game: &str) -> bool {
    game.ends_with(".toml")
}

/// `k=5` as a parameter of a game file.
fn parse_param(text: &str) -> crate::Result<(String, i64)> {
    let bad = |why: &str| {
        crate::Error::invalid_parameter(
            "param",
            format!(
                "`param` '{}': {why}; write NAME=INTEGER, e.g. k=5",
                args::excerpt(text)
            ),
        )
    };
    let (name, value) = text.split_once('=').ok_or_else(|| bad("no '='"))?;
    let value = value
        .trim()
        .parse::<i64>()
        .map_err(|_| bad("the value is not a whole number"))?;
    Ok((name.trim().to_string(), value))
}

/// Reads and compiles a game file with its `--param` values.
fn game_from_file(
    path: &std::path::Path,
    params: &[String],
    files: GameFiles<'_>,
) -> crate::Result<GameSpec> {
    let (shown, text) = files.read(path)?;
    let overrides = params
        .iter()
        .map(|p| parse_param(p))
        .collect::<crate::Result<Vec<_>>>()?;
    GameSpec::from_game_file(&shown, &text, &overrides)
}

/// A game file's name as messages show it, and its text: a regular file of at
/// most `MAX_GAME_FILE_BYTES` (the model refuses longer text).
pub fn read_game_file(path: &std::path::Path) -> crate::Result<(String, String)> {
    use std::io::Read;
    let shown = path.display().to_string();
    let cannot = |why: String| {
        crate::Error::invalid_parameter("game", format!("cannot read game file '{shown}': {why}"))
    };
    let metadata = std::fs::metadata(path).map_err(|e| cannot(e.to_string()))?;
    if !metadata.is_file() {
        return Err(cannot(
            "not a regular file (a game file is a .toml file; FIFOs and devices are not read)"
                .into(),
        ));
    }
    let limit = crate::games::file::MAX_GAME_FILE_BYTES as u64;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(limit + 1).read_to_end(&mut bytes))
        .map_err(|e| cannot(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| cannot("not UTF-8 text".into()))?;
    Ok((shown, text))
}

fn figure_of(
    args: &GrundyArgs,
    memory_limit: u64,
    files: GameFiles<'_>,
) -> crate::Result<GrundyFigure> {
    let file = match (&args.game_file, &args.game) {
        (Some(_), Some(name)) => {
            return Err(crate::Error::invalid_parameter(
                "game",
                format!(
                    "give a built-in game ('{}') or a game file (`game` FILE), not both",
                    args::excerpt(name)
                ),
            ))
        }
        (Some(path), None) => Some(path.clone()),
        (None, Some(name)) if is_game_file(name) => Some(PathBuf::from(name)),
        _ => None,
    };
    if let Some(path) = file {
        for (flag, given) in [
            ("k", args.k.is_some()),
            ("h", args.h.is_some()),
            ("heaps", args.heaps.is_some()),
            ("cap", args.cap.is_some()),
        ] {
            if given {
                return Err(crate::Error::invalid(format!(
                    "`{flag}` is for the built-in games; a game file sets its parameters with `param`, e.g. `param` k=5"
                )));
            }
        }
        for (flag, given, key) in [
            ("pass", args.pass, "pass = true"),
            ("misere", args.misere, "misere = true"),
        ] {
            if given {
                return Err(crate::Error::invalid(format!(
                    "`{flag}` is for the built-in capped games; a game file says how it is played itself: write {key} in the file"
                )));
            }
        }
        let game = game_from_file(&path, &args.param, files)?;
        return finish(args, game, "a game file", memory_limit);
    }
    if !args.param.is_empty() {
        return Err(crate::Error::invalid(
            "`param` sets a game file's parameters (`game` FILE); the built-in games take `k`, `h`, `heaps` or `cap`",
        ));
    }
    let name = match (&args.game, &args.cap) {
        (Some(name), _) => name.clone(),
        (None, Some(_)) => "cap".to_string(),
        (None, None) => {
            return Err(crate::Error::invalid(format!(
                "give a game: one of {}, or `game` FILE (e.g. nimscape grundy triangular --k 3 --box 20 -o t.csv)",
                GAME_NAMES.join(", ")
            )))
        }
    };
    if !GAME_NAMES.contains(&name.as_str()) {
        return Err(crate::Error::invalid_parameter(
            "game",
            format!(
                "unknown game '{}'; expected one of {}{}",
                args::excerpt(&name),
                GAME_NAMES.join(", "),
                args::suggestion(&name, &GAME_NAMES.map(String::from))
                    .map(|best| format!("; did you mean '{best}'?"))
                    .unwrap_or_default()
            ),
        ));
    }
    let game = GameSpec::from_name(
        &name,
        &GameParams {
            k: args.k,
            h: args.h,
            heaps: args.heaps,
            cap: args.cap.clone(),
        },
    )?
    .with_play(crate::games::Play {
        pass: args.pass,
        misere: args.misere,
    })?;
    finish(args, game, &name, memory_limit)
}

/// The figure of a validated game: the box and the looks from the flags.
fn finish(
    args: &GrundyArgs,
    game: GameSpec,
    name: &str,
    memory_limit: u64,
) -> crate::Result<GrundyFigure> {
    let game_box = match (&args.game_box, &game) {
        (Some(text), _) => text.parse::<GameBox>()?,
        (None, GameSpec::Band(band)) => GameBox::Uniform(Band::seed_table_size(band)),
        (None, GameSpec::SixSided) => GameBox::Each(SixSided::seed_box(1).to_vec()),
        (None, GameSpec::File(g)) if g.default_box().is_some() => {
            GameBox::Each(g.default_box().unwrap_or_default().to_vec())
        }
        (None, _) => return Err(crate::Error::invalid(format!("`box` is required for {name}: e.g. `box` 20, or `box` 20,10,20 for one bound per coordinate"))),
    };
    let print = args
        .print
        .style(&[args.cell, args.width, args.height], args.width);
    let cell_units = args
        .cell
        .map(|c| args::length_units("`cell`", c, print.print, 1..=200))
        .transpose()?;
    let width_units = args
        .width
        .map(|w| args::length_units("`width`", w, print.print, 16..=16384))
        .transpose()?;
    let figure = GrundyFigure {
        game,
        game_box,
        plot: args.plot.map(|p| match p {
            PlotArg::Table => GrundyPlot::Table,
            PlotArg::Points3d => GrundyPlot::Points3d,
            PlotArg::Sieve => GrundyPlot::Sieve,
            PlotArg::Points => GrundyPlot::Points,
        }),
        slice: match &args.slice {
            Some(text) => text.parse::<Slice>()?,
            None => Slice::default(),
        },
        p_only: args.p_only,
        table: TableStyle {
            modulus: args.color_classes,
            palette: args.palette.into(),
            cell: cell_units,
            title: !args.labels.no_caption,
            key: !args.labels.no_key,
            caption: args.labels.caption.clone(),
            width: width_units,
            print,
        },
        view: PlotView {
            azimuth: args.azimuth,
            elevation: args.elevation,
            width: width_units.unwrap_or(900),
            width_asked: width_units.is_some(),
            height: match (args.height, width_units) {
                (Some(h), _) => args::length_units("`height`", h, print.print, 64..=16384)?,
                (None, Some(w)) => (f64::from(w) * 0.8).round() as u32,
                (None, None) => 720,
            },
            height_asked: args.height.is_some(),
            height_pt: args
                .height
                .filter(|_| print.print.dpi.is_some())
                .map(|h| h.points(print.print)),
            aspect: args.aspect,
            labels: args.labels.labels(ChartLabels {
                caption: Some(String::new()),
                caption_size: None,
                font_size: None,
                axis_names: Some(Vec::new()),
                ticks: true,
                key: true,
            }),
        },
        memory_limit,
    };
    Ok(figure)
}
