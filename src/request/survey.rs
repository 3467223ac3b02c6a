//! `nimscape survey`: one game family over a range of a parameter, each value's
//! box tested against hypothesis families (see [`crate::survey`]).
//!
//! The family is chosen here, once: a cap with a named parameter (`cap`), or a
//! built-in game with an integer parameter (`game`), or a game file (`game`
//! FILE.toml) over one of its `[params]`.

use crate::games::GameParams;
use crate::library::encode::{Format, Metadata};
pub use crate::library::figure::survey::SurveyReport;
use crate::library::figure::survey::{self as pages, FigureView, SurveyPlot};
use crate::library::scene::units::PrintStyle;
use crate::survey::claims::{split_list, ClaimOptions};
use crate::survey::{
    self, BuiltinFamily, CapFamily, Finders, GameFamily, GameFileFamily, ShiftSpec, SurveyBox,
    SurveyOptions, BUILTIN_PARAMETERS,
};
use crate::{Control, Error, Result};
use clap::{Args, FromArgMatches};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// A survey's findings as the JSON document `-o survey.json` writes.
pub fn json(report: &SurveyReport) -> serde_json::Value {
    pages::json(report)
}

/// A survey's findings as the text `nimscape survey` prints without `-o`.
pub fn summary(report: &SurveyReport) -> String {
    pages::text(report)
}

/// Test hypotheses (shifted nim-sums, nim-sum constants, Grundy = nim-sum,
/// periods) on each value of a game family's parameter.
#[derive(Debug, Args)]
pub struct SurveyArgs {
    /// A built-in game with an integer parameter: triangular (k), band-7-2 (k, h),
    /// nim, nim-pass (heaps); or a game file (FILE.toml) over one of its [params];
    /// with --cap it is left out.
    #[arg(value_name = "GAME")]
    pub game: Option<String>,
    /// A cap y <= EXPR with the parameter in it, e.g. 'floor((x+z)**2/k)'.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    pub cap: Option<String>,
    /// The parameter and its values: k=1..64, k=1..33:2 (a step), k=1,3,5, or h=1..9,20.
    #[arg(long, value_name = "NAME=VALUES", allow_hyphen_values = true)]
    pub param: String,
    /// The box: N (a capped game's y then runs up to its cap), one bound per coordinate,
    /// or named bounds x=N,z=N; a bound may follow the parameter: 'x=8*k+16,z=8*k+16'.
    #[arg(
        long = "box",
        value_name = "N|N,N,..|x=EXPR,..",
        allow_hyphen_values = true
    )]
    pub game_box: String,
    /// Finders to run, comma-separated: shift, constant, nim-sum, period [default: all],
    /// or none (only the rules of --rule).
    #[arg(long, value_name = "LIST")]
    pub find: Option<String>,
    /// Shifts to try: A..B for every coordinate, x=A..B,z=C..D (others 0), or one range per coordinate.
    #[arg(
        long,
        value_name = "RANGES",
        allow_hyphen_values = true,
        default_value = "-2..2"
    )]
    pub shift: String,
    /// Constants c to try in "P iff the nim-sum is c".
    #[arg(long, value_name = "A..B", default_value = "0..15")]
    pub constant: String,
    /// What each value's figure draws: sieve (a three-heap game projected to
    /// (y, x − z), positions merged and counted) or slice (one slice as it lies,
    /// nothing merged; with --slice); or table: one figure of the parameter ×
    /// finding table for the whole survey.
    #[arg(long, value_enum, default_value = "sieve")]
    pub plot: SurveyPlotArg,
    /// The slice a slice figure draws, NAME=V (y=4).
    #[arg(long, value_name = "NAME=V")]
    pub slice: Option<String>,
    /// Width of each value's figure: px, or 85mm, 3.35in, 240pt [default: 560 px].
    #[arg(long, value_name = "LEN", value_parser = super::args::parse_size)]
    pub width: Option<crate::library::scene::units::Length>,
    /// Sieve and slice figures: a cell's height over its width (1: square cells, one
    /// scale up and across) [default: the plot takes the whole width, square cells
    /// while its height stays within 1.25 of its width].
    #[arg(long, value_name = "RATIO", value_parser = super::grundy::parse_aspect)]
    pub aspect: Option<f64>,
    /// The figures' resolution, typeface and text handling, as every figure's.
    #[command(flatten)]
    pub print: super::args::PrintArgs,
    /// How many of the smallest exceptions each finding lists.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub list: usize,
    /// With --cap: a pass, once per game and not from a position with no move
    /// (the values with the pass still available), as `grundy --cap EXPR --pass`.
    #[arg(long)]
    pub pass: bool,
    /// With --cap: misère play (the player who cannot move wins; a position with
    /// no move is worth 1), as `grundy --cap EXPR --misere`.
    #[arg(long)]
    pub misere: bool,
    /// A fixed parameter of the built-in game (triangular's divisor, band-7-2's slope).
    #[arg(long, value_name = "K")]
    pub k: Option<u32>,
    /// A fixed parameter of band-7-2: the band's width.
    #[arg(long, value_name = "H")]
    pub h: Option<u32>,
    /// A fixed number of heaps of nim or nim-pass.
    #[arg(long, value_name = "N")]
    pub heaps: Option<usize>,
    /// A rule of one's own, tested beside the finders: a condition ('(x+1)^y^(z+1) == 0':
    /// P iff it holds) or an integer expression ('x^y^z': Grundy value = it); repeat the
    /// flag, or separate rules with ';'.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    pub rule: Vec<String>,
    /// Only the positions where this condition holds, for every finder and rule (e.g. 'y <= 3').
    #[arg(long = "where", value_name = "EXPR", allow_hyphen_values = true)]
    pub region: Option<String>,
    /// Fit the shift family and every rule on each slice of this coordinate (e.g. y).
    #[arg(long, value_name = "NAME")]
    pub per: Option<String>,
    /// New coordinates for the finders and rules, e.g. 'u = x - k*y, w = z - k*y'
    /// (each replaces the first coordinate it names; one-to-one and >= 0 in the box).
    #[arg(long, value_name = "DEFS", allow_hyphen_values = true)]
    pub coords: Option<String>,
    /// Hand every rule that holds in its box to the prover (MONA): proved for all
    /// positions, false beyond the box with the smallest counterexample, or undecided.
    #[arg(long)]
    pub prove: bool,
    /// Seconds the prover may take on one question, with --prove [default: 20].
    #[arg(long, value_name = "SECONDS")]
    pub prove_timeout: Option<f64>,
    /// Reports to write: .md (a page, with a figure per value beside it), .json, .csv,
    /// .tex (the parameter × finding table as a LaTeX tabular), or figures alone:
    /// .png, .svg, .pdf, .tikz (one per value, fig-k11.pdf beside -o fig.pdf);
    /// several -o write several. Without -o a summary goes to stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Vec<PathBuf>,
}

/// What each value's figure draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SurveyPlotArg {
    /// P-positions projected to (y, x − z); a two-heap game as it lies.
    Sieve,
    /// One slice (--slice y=4) as it lies: positions grey, P-positions blue.
    Slice,
    /// The parameter × finding table as one figure (the .tex table's words).
    Table,
}

/// A validated survey, ready to run.
pub struct SurveyPlan {
    view: FigureView,
    style: PrintStyle,
    family: Box<dyn GameFamily + Send + Sync>,
    values: Vec<i64>,
    options: SurveyOptions,
    claims: ClaimOptions,
    prove: Option<ProveSettings>,
}

/// How `survey --prove` proves: the engine and its time per question.
struct ProveSettings {
    engine: crate::prove::engine::Mona,
    timeout: std::time::Duration,
}

/// The prover's time per question when none is given, seconds: a survey
/// proves many rules, and a hard one should not hold up the rest for long.
pub(crate) const DEFAULT_PROVE_TIMEOUT: f64 = 20.0;

/// The most values one survey takes.
pub(crate) const MAX_VALUES: usize = 10_000;

/// Parses `A..B` (inclusive, `A..=B` too) of integers, for the parameter `what`.
fn parse_range(text: &str, what: &str) -> Result<RangeInclusive<i64>> {
    let bad = || {
        Error::invalid_parameter(
            what,
            format!(
                "`{what}`: '{}' is not a range A..B of integers; write e.g. -3..3",
                crate::error::excerpt(text)
            ),
        )
    };
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let a: i64 = a.trim().parse().map_err(|_| bad())?;
    let b: i64 = b
        .trim()
        .trim_start_matches('=')
        .trim()
        .parse()
        .map_err(|_| bad())?;
    if a > b {
        return Err(Error::invalid_parameter(
            what,
            format!("`{what}`: {a}..{b} is empty; write the smaller end first, e.g. {b}..{a}"),
        ));
    }
    if b.checked_sub(a).is_none_or(|d| d > 1_000_000) {
        return Err(Error::invalid_parameter(
            what,
            format!("`{what}`: {a}..{b} is too wide; at most 1000001 values"),
        ));
    }
    Ok(a..=b)
}

/// Parses `NAME=VALUES`: integers, ranges `A..B` and ranges with a step
/// `A..B:S` (A, A+S, … up to B), comma-separated, as the README's list grammar
/// has them; the values keep the order given (a survey reports them so).
pub(crate) fn parse_param(text: &str) -> Result<(String, Vec<i64>)> {
    let (name, list) = text.split_once('=').ok_or_else(|| {
        Error::invalid_parameter(
            "param",
            format!(
                "`param`: '{}' is not NAME=VALUES; write e.g. k=1..64",
                crate::error::excerpt(text)
            ),
        )
    })?;
    let name = name.trim().to_ascii_lowercase();
    if name.is_empty() {
        return Err(Error::invalid_parameter(
            "param",
            "`param`: the parameter has no name; write e.g. k=1..64",
        ));
    }
    let mut values = Vec::new();
    for item in list.split(',') {
        let item = item.trim();
        if item.contains("..") {
            let (range, step) = match item.split_once(':') {
                Some((range, step)) => {
                    let step: u64 = step.trim().parse().ok().filter(|&s| s > 0).ok_or_else(|| {
                        Error::invalid_parameter("param", format!(
                            "`param`: '{}': the step after ':' must be a whole number from 1, as in k=1..33:2",
                            crate::error::excerpt(item)
                        ))
                    })?;
                    (range, step)
                }
                None => (item, 1),
            };
            let range = parse_range(range, "param")?;
            let count = (range.end() - range.start()) as u64 / step + 1;
            if count > MAX_VALUES as u64 {
                return Err(Error::invalid_parameter(
                    "param",
                    format!("`param`: {item} has more than {MAX_VALUES} values"),
                ));
            }
            values.extend(range.step_by(step as usize));
        } else if item.contains(':') {
            return Err(Error::invalid_parameter(
                "param",
                format!(
                    "`param`: '{}': a step belongs to a range, as in k=1..33:2",
                    crate::error::excerpt(item)
                ),
            ));
        } else {
            values.push(item.parse().map_err(|_| {
                Error::invalid_parameter(
                    "param",
                    format!(
                    "`param`: '{}' is not an integer, a range A..B or a range with a step A..B:S",
                    crate::error::excerpt(item)
                ),
                )
            })?);
        }
        if values.len() > MAX_VALUES {
            return Err(Error::invalid_parameter(
                "param",
                format!("`param`: more than {MAX_VALUES} values"),
            ));
        }
    }
    Ok((name, values))
}

/// The family the flags name: the one place a new kind of family is chosen.
fn family_of(args: &SurveyArgs, parameter: &str) -> Result<Box<dyn GameFamily + Send + Sync>> {
    match (&args.game, &args.cap) {
        (Some(_), Some(_)) => Err(Error::invalid_parameter("cap", 
            "give a game or `cap`, not both (a cap is its own game)",
        )),
        (None, Some(cap)) => Ok(Box::new(CapFamily::new(cap, parameter)?.with_play(
            crate::games::Play {
                pass: args.pass,
                misere: args.misere,
            },
        ))),
        (Some(game), None) if args.pass || args.misere => Err(Error::invalid_parameter(if args.pass { "pass" } else { "misere" }, format!(
            "`{}` goes with `cap` only; a game file says pass = true or misere = true, and {} is played as it says",
            if args.pass { "pass" } else { "misere" },
            crate::error::excerpt(game)
        ))),
        (Some(game), None) if super::grundy::is_game_file(game) => {
            let (shown, text) = super::grundy::read_game_file(std::path::Path::new(game))?;
            Ok(Box::new(GameFileFamily::new(&shown, &text, parameter)?))
        }
        (Some(game), None) => {
            let fixed = GameParams {
                k: args.k,
                h: args.h,
                heaps: args.heaps,
                cap: None,
            };
            Ok(Box::new(BuiltinFamily::new(game, parameter, fixed)?))
        }
        (None, None) => {
            let names: Vec<&str> = BUILTIN_PARAMETERS.iter().map(|(g, _)| *g).collect();
            Err(Error::invalid_parameter("cap", format!(
                "give a family: `cap` EXPR with the parameter in it, or a game ({})",
                names.join(", ")
            )))
        }
    }
}

/// The finders `find` names.
fn finders_of(args: &SurveyArgs, names: &[String]) -> Result<Finders> {
    const ALL: [&str; 4] = ["shift", "constant", "nim-sum", "period"];
    let chosen: Vec<String> = match &args.find {
        None => ALL.iter().map(|s| s.to_string()).collect(),
        // Only the rules of one's own.
        Some(list) if list.trim() == "none" => Vec::new(),
        Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
    };
    for c in &chosen {
        if !ALL.contains(&c.as_str()) {
            return Err(Error::invalid_parameter(
                "find",
                format!(
                    "`find`: unknown finder '{}'; choose from {}, or none (only `rule`)",
                    crate::error::excerpt(c),
                    ALL.join(", ")
                ),
            ));
        }
    }
    let on = |name: &str| chosen.iter().any(|c| c == name);
    Ok(Finders {
        shifts: if on("shift") {
            let spec = parse_shifts(&args.shift)?;
            // Checked against the first value's game now; each value's again later.
            spec.resolve(names)?;
            Some(spec)
        } else {
            None
        },
        constants: if on("constant") {
            Some(parse_range(&args.constant, "constant")?)
        } else {
            None
        },
        nim_sum: on("nim-sum"),
        periods: on("period"),
    })
}

/// `A..B` (every coordinate), `x=A..B,z=C..D` (the others 0..0) or one range per
/// coordinate; which coordinates exist is checked per game ([`ShiftSpec::resolve`]).
pub(crate) fn parse_shifts(text: &str) -> Result<ShiftSpec> {
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    if items.iter().any(|i| i.contains('=') && !i.contains("..=")) {
        let mut named = Vec::with_capacity(items.len());
        for item in items {
            let (name, range) = item.split_once('=').ok_or_else(|| {
                Error::invalid_parameter(
                    "shift",
                    format!(
                        "`shift`: '{}' has no coordinate name; write every item as NAME=A..B",
                        crate::error::excerpt(item)
                    ),
                )
            })?;
            named.push((name.trim().to_string(), parse_range(range, "shift")?));
        }
        return Ok(ShiftSpec::Named(named));
    }
    if items.len() == 1 {
        return Ok(ShiftSpec::Every(parse_range(items[0], "shift")?));
    }
    Ok(ShiftSpec::Each(
        items
            .iter()
            .map(|i| parse_range(i, "shift"))
            .collect::<Result<_>>()?,
    ))
}

/// Validates the flags and every estimate (the rule search, the memory);
/// nothing is solved yet.
pub fn plan(args: &SurveyArgs, memory_limit: u64) -> Result<SurveyPlan> {
    let (parameter, values) = parse_param(&args.param)?;
    let family = family_of(args, &parameter)?;
    let game_box = SurveyBox::parse(&args.game_box, &parameter)?;
    let first = family.game(values[0])?;
    let claims = claims_of(args);
    // Every expression checked now against the first value's game, each value's again later.
    let parsed = claims.parse(&first.coordinate_names(), (family.parameter(), values[0]))?;
    let finders = finders_of(args, parsed.names())?;
    if claims.per.is_some() && finders.shifts.is_none() && claims.rules.is_empty() {
        return Err(Error::invalid_parameter("per", 
            "`per` fits the shift family (`find` shift) or a `rule` on each slice; give one of them",
        ));
    }
    if args.list > 1000 {
        return Err(Error::invalid_parameter(
            "list",
            "`list`: at most 1000 exceptions per finding",
        ));
    }
    let prove = match (args.prove, args.prove_timeout) {
        (false, None) => None,
        (false, Some(_)) => {
            return Err(Error::invalid_parameter("prove-timeout", 
                "`prove-timeout` is the prover's time per question; add `prove` to prove the rules found",
            ))
        }
        (true, timeout) => {
            let seconds = timeout.unwrap_or(DEFAULT_PROVE_TIMEOUT);
            if !(seconds > 0.0 && seconds <= 1e6) {
                return Err(Error::invalid_parameter("prove-timeout", format!(
                    "`prove-timeout` {seconds}: give seconds between 0 and 1000000"
                )));
            }
            Some(ProveSettings {
                engine: crate::prove::engine::Mona::from_path()?,
                timeout: std::time::Duration::from_secs_f64(seconds),
            })
        }
    };
    let style = args.print.style(&[args.width], args.width);
    let width = match args.width {
        // A figure of one value fits a 60 mm column; the table's words need more.
        Some(w) => {
            let least = if args.plot == SurveyPlotArg::Table {
                200
            } else {
                150
            };
            super::args::length_units("`width`", w, style.print, least..=20_000)?
        }
        None => pages::DEFAULT_FIGURE_WIDTH,
    };
    let plot = match (args.plot, &args.slice) {
        (SurveyPlotArg::Sieve, None) => SurveyPlot::Sieve,
        (SurveyPlotArg::Sieve | SurveyPlotArg::Table, Some(_)) => return Err(Error::invalid_parameter("slice", 
            "`slice` is for `plot` slice; add --plot slice (or leave --slice out for the sieve or the table)",
        )),
        (SurveyPlotArg::Table, None) => SurveyPlot::Table,
        (SurveyPlotArg::Slice, None) => {
            return Err(Error::invalid_parameter("plot", 
                "`plot` slice needs the slice: add --slice NAME=V, e.g. --slice y=4",
            ))
        }
        (SurveyPlotArg::Slice, Some(text)) => {
            let bad = || {
                Error::invalid_parameter("slice", format!(
                    "`slice`: '{}' is not NAME=V; write e.g. y=4",
                    crate::error::excerpt(text)
                ))
            };
            let (name, value) = text.split_once('=').ok_or_else(bad)?;
            let value: u32 = value.trim().parse().map_err(|_| bad())?;
            let name = name.trim().to_string();
            // The figure draws the coordinates the finders read: the new ones
            // under `coords` (a slice u=4), the game's own otherwise.
            let names = parsed.names();
            if names.len() != 3 || !names.contains(&name) {
                let whose = if claims.coords.is_some() {
                    "the survey's coordinates (after `coords`) are".to_string()
                } else {
                    format!("{} has", first.name())
                };
                return Err(Error::invalid_parameter("slice", format!(
                    "`slice`: '{}' is not a coordinate of a three-heap game; {whose} {}",
                    crate::error::excerpt(&name),
                    names.join(", ")
                )));
            }
            SurveyPlot::Slice(name, value)
        }
    };
    if args.aspect.is_some() && plot == SurveyPlot::Table {
        return Err(Error::invalid_parameter("aspect", 
            "`aspect` shapes the cells of a sieve or slice figure; the table has none: leave it out, or use --plot sieve or slice",
        ));
    }
    let plan = SurveyPlan {
        view: FigureView {
            plot,
            width,
            on_paper: style.print.dpi.is_some(),
            exact: args.width.is_some(),
            aspect: args.aspect,
        },
        style,
        family,
        values,
        options: SurveyOptions {
            game_box,
            finders,
            listed: args.list,
            memory_limit,
        },
        claims,
        prove,
    };
    // The boxes, the claims, the rule search's size and the memory, before any
    // other work (a render draws its figures first; the solve takes seconds to hours).
    survey::check_survey(
        plan.family.as_ref(),
        &plan.values,
        &plan.options,
        &plan.claims,
        &Control::new(),
    )?;
    Ok(plan)
}

/// The claim-language options: rules (each flag may hold several, split at
/// top-level ';' and ','), region, per, coordinates.
fn claims_of(args: &SurveyArgs) -> ClaimOptions {
    ClaimOptions {
        rules: args.rule.iter().flat_map(|r| split_list(r)).collect(),
        region: args.region.clone(),
        per: args.per.clone(),
        coords: args.coords.clone(),
    }
}

impl SurveyPlan {
    /// The family's name and parameter, e.g. `cap floor((x+z)**2/k) over k`.
    pub fn describe(&self) -> String {
        format!("{} over {}", self.family.label(), self.family.parameter())
    }

    /// Runs the survey: values in parallel, the report the same whatever the thread count.
    pub fn run(&self, control: &Control) -> Result<crate::library::figure::survey::SurveyReport> {
        let values = survey::survey_with_claims(
            self.family.as_ref(),
            &self.values,
            &self.options,
            &self.claims,
            control,
        )?;
        let mut report = crate::library::figure::survey::SurveyReport::new(
            self.family.as_ref(),
            self.options.game_box.text().to_string(),
            values,
        );
        report.view = self.view.clone();
        report.style = self.style;
        if let Some(settings) = &self.prove {
            let limits = crate::prove::engine::Limits {
                timeout: settings.timeout,
                memory: self.options.memory_limit,
            };
            report.proofs = Some(crate::prove::survey::prove_survey(
                self.family.as_ref(),
                &report.values,
                &settings.engine,
                limits,
                control,
            )?);
        }
        Ok(report)
    }
}

/// `nimscape survey`'s definition, alone under a root: the one source of the
/// survey's parameter names for the front ends that hand in `name = value`
/// pairs (recipes, Python), as the figures' is for theirs.
fn definition() -> &'static clap::Command {
    static DEFINITION: LazyLock<clap::Command> = LazyLock::new(|| {
        clap::Command::new("nimscape")
            .subcommand(SurveyArgs::augment_args(clap::Command::new("survey")))
    });
    &DEFINITION
}

fn survey_definition() -> &'static clap::Command {
    definition()
        .find_subcommand("survey")
        .expect("the survey's definition has its subcommand")
}

/// The survey's parameters as a recipe or Python names them, each with its
/// one-line help.
pub fn parameter_help() -> Vec<(String, String)> {
    super::parameter_help_of(survey_definition())
}

/// A survey planned from `name = value` pairs, with its command line.
pub struct PlannedSurvey {
    /// The validated survey.
    pub plan: SurveyPlan,
    /// `nimscape survey ...`: the words the command line would run it with,
    /// rebuilt from the parsed parameters (the same as the command line's own).
    pub command_line: String,
}

/// A survey from `name = value` pairs (the flags of `nimscape survey` by their
/// long names, `game` by position), validated by the same definition and
/// [`plan`] as the command line; `-o` is the front end's business and not a
/// parameter.
pub fn plan_pairs(pairs: &[(String, super::Value)], memory_limit: u64) -> Result<PlannedSurvey> {
    let matches = super::parse_pairs_in(definition(), survey_definition(), &["survey"], pairs)?;
    super::refuse_control_characters_under(definition(), &matches)?;
    let command_line = super::provenance::command_line(definition(), &matches);
    let (_, inner) = matches
        .subcommand()
        .ok_or_else(|| Error::invalid_request("a survey needs its parameters"))?;
    let args = SurveyArgs::from_arg_matches(inner).map_err(|e| super::from_clap(&e))?;
    Ok(PlannedSurvey {
        plan: plan(&args, memory_limit)?,
        command_line,
    })
}

/// What one report file is, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportKind {
    /// `.md`: a page, with a figure per value beside it.
    Page,
    /// `.json`: everything, for scripts.
    Json,
    /// `.csv`: one row per value and finding.
    Csv,
    /// `.tex`: the parameter × finding table as a LaTeX `tabular`, for a paper.
    Tex,
    /// `.png`, `.svg`, `.pdf`, `.tikz`: one figure per value, `fig-k11.pdf`
    /// beside `fig.pdf` (a survey of one value writes `fig.pdf` itself).
    Figures(Format),
}

impl ReportKind {
    /// The kind of the report `path` names, or why it is none.
    pub fn of(path: &Path) -> Result<ReportKind> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default()
            .to_ascii_lowercase();
        match ext.as_str() {
            "md" => Ok(ReportKind::Page),
            "json" => Ok(ReportKind::Json),
            "csv" => Ok(ReportKind::Csv),
            "tex" => Ok(ReportKind::Tex),
            "png" => Ok(ReportKind::Figures(Format::Png)),
            "svg" => Ok(ReportKind::Figures(Format::Svg)),
            "pdf" => Ok(ReportKind::Figures(Format::Pdf)),
            "tikz" => Ok(ReportKind::Figures(Format::Tikz)),
            _ => Err(Error::invalid_parameter(
                "output",
                format!(
                    "'{}': a survey writes .md (a page with figures), .json, .csv, .tex (a LaTeX table), or figures .png, .svg, .pdf, .tikz",
                    crate::error::excerpt(&path.display().to_string())
                ),
            )),
        }
    }
}

/// The figure of value `value` beside the page or figure name `page`:
/// `report-k5.png` (the extension `ext`).
pub(crate) fn figure_path(page: &Path, parameter: &str, value: i64, ext: &str) -> PathBuf {
    let stem = page
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("survey");
    page.with_file_name(format!("{stem}-{parameter}{value}.{ext}"))
}

/// Each value's figure in `format`, handed to `emit` as it is made; `None` for
/// a value that has none (more than three coordinates, or too wide). The table
/// (`plot` table) is one figure for the whole survey, its name the only one.
fn figures(
    found: &SurveyReport,
    path: &Path,
    (format, alone): (Format, bool),
    metadata: &Metadata,
    memory_limit: u64,
    control: &Control,
    emit: &mut impl FnMut(&Path, &[u8]) -> Result<()>,
) -> Result<Vec<Option<String>>> {
    let ext = match format {
        Format::Png => "png",
        Format::Svg => "svg",
        Format::Pdf => "pdf",
        _ => "tikz",
    };
    // One figure's file: its bytes handed to `emit`, its name for the page.
    let mut write =
        |figure: &Path, scene: &crate::library::scene::Scene| -> Result<Option<String>> {
            let mut bytes = Vec::new();
            crate::library::encode::write_scene_to(
                &mut bytes,
                format,
                scene,
                metadata,
                memory_limit,
                control,
            )?;
            emit(figure, &bytes)?;
            Ok(figure.file_name().map(|n| n.to_string_lossy().into_owned()))
        };
    let mut names = Vec::with_capacity(found.values.len());
    if found.view.plot == SurveyPlot::Table {
        // One figure for the whole survey: the name given, or `report-table.png`
        // beside a page.
        let scene = found.style.apply(pages::table_scene(found)?);
        let figure = if alone {
            path.to_path_buf()
        } else {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("survey");
            path.with_file_name(format!("{stem}-table.{ext}"))
        };
        names.push(write(&figure, &scene)?);
        return Ok(names);
    }
    for (i, v) in found.values.iter().enumerate() {
        control.check()?;
        let beyond = pages::beyond_box(found, i);
        let Some(scene) = pages::value_scene_with(v, &found.parameter, &found.view, &beyond)?
        else {
            names.push(None);
            continue;
        };
        let scene = found.style.apply(scene);
        // Figures alone of one value take the name given; a page's figures, and
        // several values' figures, are named by their value beside it.
        let figure = if found.values.len() != 1 || !alone {
            figure_path(path, &found.parameter, v.value, ext)
        } else {
            path.to_path_buf()
        };
        names.push(write(&figure, &scene)?);
    }
    Ok(names)
}

/// The files of the report `path` names, each handed to `emit` with its path
/// and bytes as soon as it is made (a page's figures first, then the page, so
/// the page never links a figure that is not there): the one way every front
/// end writes a survey's reports, byte for byte alike. `command_line` is what
/// the page and the figures' metadata record.
pub fn report_files(
    found: &SurveyReport,
    path: &Path,
    command_line: &str,
    memory_limit: u64,
    control: &Control,
    mut emit: impl FnMut(&Path, &[u8]) -> Result<()>,
) -> Result<()> {
    match ReportKind::of(path)? {
        ReportKind::Json => emit(path, format!("{:#}\n", pages::json(found)).as_bytes()),
        ReportKind::Csv => emit(path, pages::csv(found).as_bytes()),
        ReportKind::Tex => emit(path, pages::tex(found, command_line)?.as_bytes()),
        ReportKind::Figures(format) => {
            let metadata = Metadata::with_parameters(command_line);
            let names = figures(
                found,
                path,
                (format, true),
                &metadata,
                memory_limit,
                control,
                &mut emit,
            )?;
            if names.iter().all(Option::is_none) {
                let first = &found.values[0];
                return Err(Error::unsupported(format!(
                    "no value has a figure ({} = {}: {}); write .md, .json, .csv or .tex",
                    found.parameter,
                    first.value,
                    pages::no_figure_reason(first, &found.view)
                )));
            }
            Ok(())
        }
        ReportKind::Page => {
            let metadata = Metadata::with_parameters(command_line);
            let names = figures(
                found,
                path,
                (Format::Png, false),
                &metadata,
                memory_limit,
                control,
                &mut emit,
            )?;
            emit(
                path,
                pages::markdown(found, &names, command_line).as_bytes(),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_and_shifts_parse_or_name_what_is_wrong() {
        assert_eq!(
            parse_param("k=1..4,9").unwrap(),
            ("k".into(), vec![1, 2, 3, 4, 9])
        );
        assert_eq!(parse_param("h=-2..0").unwrap().1, vec![-2, -1, 0]);
        let odd: Vec<i64> = (1..=33).step_by(2).collect();
        assert_eq!(parse_param("k=1..33:2").unwrap().1, odd);
        assert_eq!(parse_param("k=-3..4:3,9").unwrap().1, vec![-3, 0, 3, 9]);
        assert_eq!(parse_param("k=1..=7:3").unwrap().1, vec![1, 4, 7]);
        for bad in [
            "k",
            "=1..3",
            "k=3..1",
            "k=a",
            "k=1..20000",
            "k=1..9:0",
            "k=1..9:x",
            "k=5:2",
            "k=1..1000000:1",
        ] {
            let e = parse_param(bad).unwrap_err().to_string();
            assert!(e.contains("`param`") && !e.contains('\n'), "{bad}: {e}");
        }
        let names: Vec<String> = ["x", "y", "z"].map(String::from).to_vec();
        let parse = |t: &str| parse_shifts(t).and_then(|s| s.resolve(&names));
        assert_eq!(parse("-2..2").unwrap(), vec![-2..=2; 3]);
        assert_eq!(
            parse("x=-20..20,z=-1..1").unwrap(),
            vec![-20..=20, 0..=0, -1..=1]
        );
        assert_eq!(
            parse("0..1,2..2,-1..0").unwrap(),
            vec![0..=1, 2..=2, -1..=0]
        );
        assert!(parse("w=0..1")
            .unwrap_err()
            .to_string()
            .contains("not a coordinate"));
        assert!(parse("0..1,0..1")
            .unwrap_err()
            .to_string()
            .contains("2 ranges"));
    }
}
