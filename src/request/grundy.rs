//! `nimscape grundy`: a game's Grundy values on a box, as data, a table or a
//! plot, and the papers' analyses (nim-sum comparison, shifted nim-sum rules).

use super::args;
use crate::games::{Band, GameBox, GameParams, GameSpec, SixSided, GAME_NAMES};
pub use crate::library::figure::grundy::GrundyPlan;
use crate::library::figure::grundy::{GrundyFigure, GrundyPlot, PlotView, Slice, TableStyle};
use crate::library::figure::plan::Plan;
use crate::library::scene::chart::ChartLabels;
use crate::library::scene::units::Length;
use crate::Result;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Grundy values of the papers' games: data, mod-3 tables, P-position plots, analyses.
#[derive(Debug, Clone, Args)]
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
    /// A game file's parameters, or the parameter named in --cap, NAME=INTEGER: repeat or
    /// separate by commas (--param k=2,h=1). Values of one (k=1..8, k=1..33:4, k=1,3,5)
    /// draw a sheet with a panel per value, or an animation over it (.gif, .apng, frames/k-%02d.pdf).
    #[arg(long = "param", value_name = "NAME=V,..", value_delimiter = ',')]
    param: Vec<String>,
    /// triangular: the cap is floor((x+z)/K); band-7-2: the slope (default 1).
    /// Several (1..8, 1,3,5) draw a sheet or an animation over k.
    #[arg(long, value_name = "K", value_parser = parse_k_values)]
    k: Option<String>,
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
    /// Several values of one (y=0..10) draw a sheet or an animation over the slice.
    #[arg(long, value_name = "NAME=V,..")]
    slice: Option<String>,
    /// Sheets over a parameter or slice: panels per row [default: as many as fit,
    /// up to a grid about 3:2 wide].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    columns: Option<u16>,
    /// Sheets and animations over a parameter or slice: every panel fills its own
    /// axes (fit), or all share one scale and their axes where the plot allows (common:
    /// sieve and points plots).
    #[arg(long, value_enum, value_name = "SCALE")]
    scale: Option<args::FrameScale>,
    #[command(flatten)]
    animation: args::AnimationArgs,
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
pub(super) fn parse_aspect(text: &str) -> std::result::Result<f64, String> {
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

/// `find-shift`'s range of shifts h for the game `plan` solves, when given:
/// the one check of the flag (the CLI's report reads it from here). Only the
/// capped three-heap games have the rule it tests.
pub fn shift_range(
    args: &GrundyArgs,
    plan: &GrundyPlan,
) -> Result<Option<std::ops::RangeInclusive<i64>>> {
    let Some(text) = &args.find_shift else {
        return Ok(None);
    };
    if !matches!(plan.game, GameSpec::Capped(_)) {
        return Err(crate::Error::invalid_parameter(
            "find-shift",
            format!(
                "`find-shift` tests (x+h)^y^(z+h) = 0, which applies to the capped three-heap games (triangular, min-half, cap), not {}",
                plan.game.name()
            ),
        ));
    }
    parse_shift_range(text).map(Some)
}

/// Parses `A..B` (or `A..=B`), integers that may be negative.
pub fn parse_shift_range(text: &str) -> Result<std::ops::RangeInclusive<i64>> {
    let bad = || {
        crate::Error::invalid_parameter(
            "find-shift",
            format!("`find-shift`: '{text}' is not a range A..B of integers; write e.g. -3..3"),
        )
    };
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let a: i64 = a.trim().parse().map_err(|_| bad())?;
    let b: i64 = b
        .trim()
        .trim_start_matches('=')
        .parse()
        .map_err(|_| bad())?;
    if a > b {
        return Err(crate::Error::invalid_parameter(
            "find-shift",
            format!("`find-shift`: {a}..{b} is empty; write the smaller end first, e.g. {b}..{a}"),
        ));
    }
    if b - a > 10_000 {
        return Err(crate::Error::invalid_parameter(
            "find-shift",
            format!(
                "`find-shift`: {a}..{b} has {} shifts; at most 10001",
                b - a + 1
            ),
        ));
    }
    Ok(a..=b)
}

impl GrundyPlan {
    /// Which solver solves the game and why no faster one applies (`--time`).
    pub fn solver_choice(
        &self,
        control: &crate::Control,
    ) -> Result<nimscape_model::games::SolverChoice> {
        self.game.solver_choice(&self.game_box, control)
    }

    /// Checks, before the (possibly long) solve, that the figure can be written
    /// to `output` (a file, `-` for a stream in `format`, or the default file in
    /// `format`).
    pub fn check_output(
        &self,
        output: Option<&std::path::Path>,
        format: Option<crate::library::encode::Format>,
    ) -> Result<()> {
        use crate::library::figure::Figure;
        let format = match output.filter(|p| p.as_os_str() != "-") {
            Some(path) => crate::library::figure::format_of(self, path)?,
            None => format.unwrap_or(self.formats()[0]),
        };
        self.check(format)
    }
}

/// The figure the flags describe (the game is solved when first written).
pub fn plan(args: &GrundyArgs, memory_limit: u64) -> crate::Result<GrundyPlan> {
    plan_with(args, memory_limit, GameFiles::Disk)
}

/// [`plan`] with game files read from `files`.
pub(crate) fn plan_with(
    args: &GrundyArgs,
    memory_limit: u64,
    files: GameFiles<'_>,
) -> crate::Result<GrundyPlan> {
    if let Some(varied) = varied(args)? {
        return Err(crate::Error::invalid_request(format!(
            "several values of {} draw a sheet or an animation, which this does not show; give one value (e.g. {}={})",
            varied.name, varied.name, varied.values[0]
        )));
    }
    for (flag, given) in [
        ("columns", args.columns.is_some()),
        ("scale", args.scale.is_some()),
        ("delay", args.animation.delay.is_some()),
        ("fps", args.animation.fps.is_some()),
        ("hold-last", args.animation.hold_last.is_some()),
        ("poster", args.animation.poster.is_some()),
    ] {
        if given {
            return Err(crate::Error::invalid_parameter(flag, format!(
                "`{flag}` is for sheets and animations over several values; give a parameter or slice a range, e.g. `param` k=1..8 or `slice` y=0..10"
            )));
        }
    }
    figure_of(args, memory_limit, files).and_then(Plan::new)
}

/// The figure the flags describe: one game's, or a sheet (and animation) over
/// several values of a parameter or slice.
pub(crate) fn plan_figure_with(
    args: &GrundyArgs,
    memory_limit: u64,
    files: GameFiles<'_>,
) -> crate::Result<Box<dyn crate::library::figure::Figure + Send>> {
    match varied(args)? {
        None => Ok(Box::new(plan_with(args, memory_limit, files)?)),
        Some(varied) => Ok(Box::new(sheet_of(args, varied, memory_limit, files)?)),
    }
}

/// Whether the flags give several values of a parameter or slice (a sheet).
pub fn is_sheet(args: &GrundyArgs) -> crate::Result<bool> {
    Ok(varied(args)?.is_some())
}

/// What a sheet varies, and where in the flags it is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// The `param` item at this index (of [`joined`] items).
    Param(usize),
    /// The built-in games' `k`.
    K,
    /// The `slice` item at this index.
    Slice(usize),
}

/// The values a sheet varies over.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Varied {
    name: String,
    values: Vec<i64>,
    place: Place,
}

/// `--param` items as given, rejoined where the comma split a list of values
/// (`k=1,3,5` comes in as `k=1`, `3`, `5`).
fn joined(items: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        match out.last_mut() {
            Some(last) if !item.contains('=') => {
                last.push(',');
                last.push_str(item);
            }
            _ => out.push(item.clone()),
        }
    }
    out
}

/// `--k` as typed: one whole number, or several (a range or list) for a sheet.
fn parse_k_values(text: &str) -> Result<String, String> {
    if text.contains("..") || text.contains(',') {
        args::parse_list(text, 0, 4096)?;
    } else if text.trim().parse::<u32>().is_err() {
        return Err("not a whole number; write digits, e.g. 3".into());
    }
    Ok(text.to_string())
}

/// One `k` value: a whole number from 0.
fn parse_k(text: &str) -> crate::Result<u32> {
    text.trim().parse::<u32>().map_err(|_| {
        crate::Error::invalid_parameter(
            "k",
            format!(
                "`k` '{}' is not a whole number; give one (3) or several for a sheet (1..8, 1,3,5)",
                args::excerpt(text)
            ),
        )
    })
}

/// `NAME=VALUES` with several values (a range or a list), or `None` for one value.
fn several(flag: &str, text: &str) -> crate::Result<Option<(String, Vec<i64>)>> {
    let Some((_, values)) = text.split_once('=') else {
        return Ok(None);
    };
    if !values.contains("..") && !values.contains(',') {
        return Ok(None);
    }
    let (name, values) = text.split_once('=').unwrap_or((text, ""));
    let values = args::parse_list(values, 0, 4096).map_err(|why| {
        crate::Error::invalid_parameter(flag, format!("`{}`: {why}", args::excerpt(name.trim())))
    })?;
    let values: Vec<i64> = values.0.iter().map(|&v| v as i64).collect();
    Ok((values.len() > 1).then_some((name.trim().to_string(), values)))
}

/// The one parameter or slice coordinate given several values, if any.
fn varied(args: &GrundyArgs) -> crate::Result<Option<Varied>> {
    let mut found = Vec::new();
    for (k, item) in joined(&args.param).iter().enumerate() {
        if let Some((name, values)) = several("param", item)? {
            found.push(Varied {
                name,
                values,
                place: Place::Param(k),
            });
        }
    }
    if let Some(k) = &args.k {
        if let Some((name, values)) = several("k", &format!("k={k}"))? {
            found.push(Varied {
                name,
                values,
                place: Place::K,
            });
        }
    }
    if let Some(slice) = &args.slice {
        let items: Vec<String> = slice.split(',').map(String::from).collect();
        for (k, item) in joined(&items).iter().enumerate() {
            if let Some((name, values)) = several("slice", item)? {
                found.push(Varied {
                    name,
                    values,
                    place: Place::Slice(k),
                });
            }
        }
    }
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.pop()),
        _ => Err(crate::Error::invalid_request(format!(
            "a sheet varies one thing, but {} and {} both have several values; give one of them a single value",
            found[0].name, found[1].name
        ))),
    }
}

/// `values` as a title shows them: `1..8` when they run in steps of one, else a list.
fn shown_values(values: &[i64]) -> String {
    let consecutive = values.windows(2).all(|w| w[1] == w[0] + 1);
    match values {
        [first, .., last] if consecutive => format!("{first}..{last}"),
        _ if values.len() > 8 => {
            let head: Vec<String> = values[..3].iter().map(i64::to_string).collect();
            format!("{}, …, {}", head.join(", "), values[values.len() - 1])
        }
        _ => values
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The sheet over `varied`'s values: every value's figure planned as one
/// figure is (the same checks), then laid out by the sheet.
fn sheet_of(
    args: &GrundyArgs,
    varied: Varied,
    memory_limit: u64,
    files: GameFiles<'_>,
) -> crate::Result<crate::library::figure::grundy::GrundySheetPlan> {
    use crate::library::figure::grundy::{GrundySheet, MAX_PANELS};
    for (flag, given, why) in [
        (
            "height",
            args.height.is_some(),
            "a sheet's height follows from its panels; leave it out",
        ),
        (
            "compare-nim-sum",
            args.compare_nim_sum,
            "it reports on one game; give one value",
        ),
        (
            "find-shift",
            args.find_shift.is_some(),
            "it reports on one game; give one value (or use nimscape survey)",
        ),
        ("time", args.time, "it times one game; give one value"),
    ] {
        if given {
            return Err(crate::Error::invalid_parameter(
                flag,
                format!(
                    "`{flag}` does not apply to a sheet over {}: {why}",
                    varied.name
                ),
            ));
        }
    }
    if varied.values.len() > MAX_PANELS {
        return Err(crate::Error::invalid_request(format!(
            "{} has {} values; a sheet or animation takes at most {MAX_PANELS}: give fewer (a step, e.g. {}=1..64:4)",
            varied.name,
            varied.values.len(),
            varied.name
        )));
    }
    let params = joined(&args.param);
    let slices: Vec<String> = args
        .slice
        .as_deref()
        .map(|s| joined(&s.split(',').map(String::from).collect::<Vec<_>>()))
        .unwrap_or_default();
    let mut panels = Vec::with_capacity(varied.values.len());
    for &value in &varied.values {
        let mut one = args.clone();
        one.width = None;
        one.height = None;
        one.columns = None;
        one.scale = None;
        match varied.place {
            Place::Param(k) => {
                let mut params = params.clone();
                params[k] = format!("{}={value}", varied.name);
                one.param = params;
            }
            Place::K => one.k = Some(value.to_string()),
            Place::Slice(k) => {
                let mut slices = slices.clone();
                slices[k] = format!("{}={value}", varied.name);
                one.slice = Some(slices.join(","));
            }
        }
        let figure = figure_of(&one, memory_limit, files)?;
        panels.push((format!("{} = {value}", varied.name), figure));
    }
    let first = &panels[0].1;
    let family = match (&varied.place, &args.cap) {
        (Place::Param(_), Some(cap)) => format!("y ≤ {}", cap.trim()),
        (Place::Param(_), None) => match first.game.name().split_whitespace().next() {
            Some(name) => name.to_string(),
            None => "the game".to_string(),
        },
        (Place::K, _) => args.game.clone().unwrap_or_default(),
        (Place::Slice(_), _) => first.game.name(),
    };
    let what = match first.resolved_plot()? {
        crate::library::figure::grundy::GrundyPlot::Table => "Grundy values",
        _ => "P-positions",
    };
    let title = if args.labels.no_caption {
        None
    } else {
        Some(args.labels.caption.clone().unwrap_or_else(|| {
            format!(
                "{what} of {family}, {} = {}",
                varied.name,
                shown_values(&varied.values)
            )
        }))
    };
    let print = args.print.style(&[args.cell, args.width], args.width);
    let width = args
        .width
        .map(|w| args::length_units("`width`", w, print.print, 16..=16384))
        .transpose()?;
    let sheet = GrundySheet {
        name: varied.name.clone(),
        family,
        panels,
        title,
        columns: args.columns.map(usize::from),
        common_scale: args.scale == Some(args::FrameScale::Common),
        width,
        print,
        animation: args
            .animation
            .animation_of(Default::default(), varied.values.len())?,
        memory_limit,
    };
    Plan::new(sheet)
}

/// Where the game file a `game` parameter names is read from.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) enum GameFiles<'a> {
    /// From the disk, as the command line reads it.
    #[default]
    Disk,
    /// From the disk, only below the current folder (a relative path without
    /// `..`): what the server reads, so that a request cannot name any file of
    /// the machine.
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
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
pub(crate) fn is_game_file(game: &str) -> bool {
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
pub(crate) fn read_game_file(path: &std::path::Path) -> crate::Result<(String, String)> {
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
                return Err(crate::Error::invalid_parameter(flag, format!(
                    "`{flag}` is for the built-in games; a game file sets its parameters with `param`, e.g. `param` k=5"
                )));
            }
        }
        for (flag, given, key) in [
            ("pass", args.pass, "pass = true"),
            ("misere", args.misere, "misere = true"),
        ] {
            if given {
                return Err(crate::Error::invalid_parameter(flag, format!(
                    "`{flag}` is for the built-in capped games; a game file says how it is played itself: write {key} in the file"
                )));
            }
        }
        let game = game_from_file(&path, &joined(&args.param), files)?;
        return finish(args, game, "a game file", memory_limit);
    }
    let name = match (&args.game, &args.cap) {
        (Some(name), _) => name.clone(),
        (None, Some(_)) => "cap".to_string(),
        (None, None) => {
            return Err(crate::Error::invalid_parameter("game", format!(
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
    let params = joined(&args.param);
    let game = if params.is_empty() {
        GameSpec::from_name(
            &name,
            &GameParams {
                k: args.k.as_deref().map(parse_k).transpose()?,
                h: args.h,
                heaps: args.heaps,
                cap: args.cap.clone(),
            },
        )?
    } else {
        // A cap with a named parameter: `cap` 'floor(min(x,z)/k)' `param` k=3.
        let builtin_flags = args.k.is_some() || args.h.is_some() || args.heaps.is_some();
        let (Some(cap), [param], "cap", false) =
            (&args.cap, params.as_slice(), name.as_str(), builtin_flags)
        else {
            return Err(crate::Error::invalid_parameter("param", 
                "`param` sets a game file's parameters (`game` FILE) or the one parameter a `cap` names (e.g. `cap` 'floor(min(x,z)/k)' `param` k=3); the built-in games take `k`, `h` or `heaps`",
            ));
        };
        let (parameter, value) = parse_param(param)?;
        let named = cap
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|word| word.eq_ignore_ascii_case(&parameter));
        if !named {
            return Err(crate::Error::invalid_parameter("param", format!(
                "`param` {}: the cap '{}' has no '{}' in it; name the parameter in the cap, e.g. `cap` 'floor(min(x,z)/{})'",
                args::excerpt(param),
                args::excerpt(cap),
                args::excerpt(&parameter),
                args::excerpt(&parameter)
            )));
        }
        crate::survey::GameFamily::game(&crate::survey::CapFamily::new(cap, &parameter)?, value)?
    };
    let game = game.with_play(crate::games::Play {
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
        (None, _) => return Err(crate::Error::invalid_parameter("box", format!("`box` is required for {name}: e.g. `box` 20, or `box` 20,10,20 for one bound per coordinate"))),
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
            type_width: None,
            common_extent: None,
        },
        memory_limit,
    };
    Ok(figure)
}
