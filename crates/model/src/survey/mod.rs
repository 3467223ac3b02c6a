//! Conjecture surveys: one game family over a range of a parameter, each value's
//! box tested against hypothesis families.
//!
//! A [`GameFamily`] turns a parameter value into a [`GameSpec`]; everything after
//! that works on what every game gives, a [`Solution`] (or, for the capped
//! three-heap games, their P-positions alone, which is all the XOR rules need).
//! A new kind of game joins by implementing [`GameFamily`].
//!
//! Finders, each a claim about the box only:
//! * [`rules`]: shifted nim-sums `XOR (p_i + s_i) = 0` and nim-sums equal to a
//!   constant, with artefacts told apart and the best failing rule's threshold;
//! * [`nimsum`]: Grundy value against nim-sum, exceptions counted and listed;
//! * [`period`]: pre-period, period and saltus along lines parallel to the axes.

pub mod box_spec;
pub mod claims;
pub mod grid;
pub mod lines;
pub mod nimsum;
pub mod period;
pub mod rules;

use rayon::prelude::*;

use crate::error::check_memory;
use crate::games::cap_expr::CapExpr;
use crate::games::{Cap, CappedGame, GameBox, GameParams, GameSpec};
use crate::{Control, Error, Result};
use box_spec::MAX_CAPPED_COLUMNS;
pub use box_spec::{survey_bounds, SurveyBox};
use claims::{ClaimOptions, Claims, ClaimsReport};
use grid::Grid;
use lines::PLines;
use nimsum::NimSumFit;
use period::AxisPeriods;
use rules::RuleSearch;

/// A family of games with one integer parameter.
pub trait GameFamily: Sync {
    /// The family as a reader sees it, e.g. `cap floor((x+z)**2/k)`.
    fn label(&self) -> String;
    /// The parameter's name, e.g. `k`.
    fn parameter(&self) -> &str;
    /// The game at one value of the parameter; an invalid value is an error naming it.
    fn game(&self, value: i64) -> Result<GameSpec>;
}

/// A game file's games over one of its parameters (`[params]`), the others at
/// their defaults.
#[derive(Clone, Debug)]
pub struct GameFileFamily {
    file: String,
    text: String,
    parameter: String,
}

impl GameFileFamily {
    /// The family of the game file `text` (named `file` in messages) over
    /// `parameter`; the file is compiled now, and must declare the parameter.
    pub fn new(file: &str, text: &str, parameter: &str) -> Result<GameFileFamily> {
        let game = crate::games::GameFile::parse(file, text, &[])?;
        if !game.params().contains_key(parameter) {
            let declared: Vec<&str> = game.params().keys().map(String::as_str).collect();
            return Err(Error::invalid_parameter(
                "param",
                format!(
                    "`param`: '{parameter}' is not a parameter of {file}; it declares {}",
                    if declared.is_empty() {
                        "none (add it under [params])".to_string()
                    } else {
                        declared.join(", ")
                    }
                ),
            ));
        }
        Ok(GameFileFamily {
            file: file.to_string(),
            text: text.to_string(),
            parameter: parameter.to_string(),
        })
    }
}

impl GameFamily for GameFileFamily {
    fn label(&self) -> String {
        format!("game file {}", self.file)
    }

    fn parameter(&self) -> &str {
        &self.parameter
    }

    fn game(&self, value: i64) -> Result<GameSpec> {
        GameSpec::from_game_file(&self.file, &self.text, &[(self.parameter.clone(), value)])
    }
}

/// The capped games `y <= EXPR` for an expression with a named parameter.
#[derive(Clone, Debug)]
pub struct CapFamily {
    source: String,
    parameter: String,
    play: crate::games::Play,
}

impl CapFamily {
    /// The family of `source` (e.g. `floor((x+z)**2/k)`) over `parameter`; the text
    /// is checked now, with the parameter bound to 1.
    pub fn new(source: &str, parameter: &str) -> Result<CapFamily> {
        CapExpr::parse_with(source, &[(parameter, 1)])?;
        Ok(CapFamily {
            source: source.trim().to_string(),
            parameter: parameter.to_ascii_lowercase(),
            play: crate::games::Play::default(),
        })
    }

    /// The same family played with `play` (a pass, misère), as `grundy --cap
    /// EXPR --pass` and `--misere` play it, on the capped solver.
    pub fn with_play(self, play: crate::games::Play) -> CapFamily {
        CapFamily { play, ..self }
    }
}

impl GameFamily for CapFamily {
    fn label(&self) -> String {
        format!("cap {}{}", self.source, self.play.suffix())
    }

    fn parameter(&self) -> &str {
        &self.parameter
    }

    fn game(&self, value: i64) -> Result<GameSpec> {
        let expr = CapExpr::parse_with(&self.source, &[(&self.parameter, value)])?;
        Ok(GameSpec::Capped(
            CappedGame::new(Cap::Expr(expr)).with_play(self.play),
        ))
    }
}

/// A built-in game with one of its integer parameters varied (`triangular` over
/// `k`, `band-7-2` over `k` or `h`, `nim` and `nim-pass` over `heaps`).
#[derive(Clone, Debug)]
pub struct BuiltinFamily {
    game: String,
    parameter: String,
    fixed: GameParams,
}

/// The built-in games' integer parameters.
pub const BUILTIN_PARAMETERS: [(&str, &[&str]); 4] = [
    ("triangular", &["k"]),
    ("band-7-2", &["k", "h"]),
    ("nim", &["heaps"]),
    ("nim-pass", &["heaps"]),
];

impl BuiltinFamily {
    /// The game `game` over `parameter`, its other parameters `fixed`.
    pub fn new(game: &str, parameter: &str, fixed: GameParams) -> Result<BuiltinFamily> {
        let Some((_, allowed)) = BUILTIN_PARAMETERS.iter().find(|(g, _)| *g == game) else {
            let names: Vec<&str> = BUILTIN_PARAMETERS.iter().map(|(g, _)| *g).collect();
            return Err(Error::invalid_parameter("param", format!(
                "`param`: the game '{game}' has no integer parameter to survey; games with one: {}, or a `cap` with a named parameter",
                names.join(", ")
            )));
        };
        if !allowed.contains(&parameter) {
            return Err(Error::invalid_parameter(
                "param",
                format!(
                    "`param`: '{parameter}' is not a parameter of {game}; it has {}",
                    allowed.join(", ")
                ),
            ));
        }
        Ok(BuiltinFamily {
            game: game.to_string(),
            parameter: parameter.to_string(),
            fixed,
        })
    }
}

impl GameFamily for BuiltinFamily {
    fn label(&self) -> String {
        self.game.clone()
    }

    fn parameter(&self) -> &str {
        &self.parameter
    }

    fn game(&self, value: i64) -> Result<GameSpec> {
        let bad = || {
            Error::invalid_parameter(
                "param",
                format!(
                    "`param`: {}={value} is out of range for {}",
                    self.parameter, self.game
                ),
            )
        };
        let mut params = self.fixed.clone();
        match self.parameter.as_str() {
            "k" => params.k = Some(u32::try_from(value).map_err(|_| bad())?),
            "h" => params.h = Some(u32::try_from(value).map_err(|_| bad())?),
            _ => params.heaps = Some(usize::try_from(value).map_err(|_| bad())?),
        }
        GameSpec::from_name(&self.game, &params)
    }
}

/// The shifts to try, before a game names its coordinates (a family's values
/// may differ in how many they have: `nim` over `heaps`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShiftSpec {
    /// The same range for every coordinate.
    Every(std::ops::RangeInclusive<i64>),
    /// Ranges for the named coordinates; the others keep shift 0.
    Named(Vec<(String, std::ops::RangeInclusive<i64>)>),
    /// One range per coordinate, in order.
    Each(Vec<std::ops::RangeInclusive<i64>>),
}

impl ShiftSpec {
    /// One range per coordinate of a game whose coordinates are `names`.
    pub fn resolve(&self, names: &[String]) -> Result<Vec<std::ops::RangeInclusive<i64>>> {
        match self {
            ShiftSpec::Every(r) => Ok(vec![r.clone(); names.len()]),
            ShiftSpec::Named(items) => {
                let mut ranges = vec![0..=0; names.len()];
                for (name, range) in items {
                    let k = names.iter().position(|n| n == name).ok_or_else(|| {
                        Error::invalid_parameter("shift", format!(
                            "`shift`: '{}' is not a coordinate; the game has {}",
                            crate::error::excerpt(name),
                            names.join(", ")
                        ))
                    })?;
                    ranges[k] = range.clone();
                }
                Ok(ranges)
            }
            ShiftSpec::Each(ranges) if ranges.len() == names.len() => Ok(ranges.clone()),
            ShiftSpec::Each(ranges) => Err(Error::invalid_parameter("shift", format!(
                "`shift`: {} ranges for a game of {} coordinates ({}); give one range, one per coordinate, or NAME=A..B items",
                ranges.len(),
                names.len(),
                names.join(", ")
            ))),
        }
    }
}

/// Which finders run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finders {
    /// Shifted nim-sums: the shifts to try, resolved for each value's coordinates.
    pub shifts: Option<ShiftSpec>,
    /// Nim-sum equal to a constant: the constants tried.
    pub constants: Option<std::ops::RangeInclusive<i64>>,
    /// Grundy value against nim-sum.
    pub nim_sum: bool,
    /// Periodicity along lines.
    pub periods: bool,
}

impl Finders {
    /// Whether a finder needs Grundy values (and not only the P-positions).
    pub fn need_grundy(&self) -> bool {
        self.nim_sum || self.periods
    }
}

/// How to survey.
#[derive(Clone, Debug)]
pub struct SurveyOptions {
    /// The box, which may follow the parameter ([`SurveyBox`]).
    pub game_box: SurveyBox,
    /// The finders.
    pub finders: Finders,
    /// How many exceptions each finding lists.
    pub listed: usize,
    /// Refuse a survey whose estimated memory exceeds this.
    pub memory_limit: u64,
}

/// What a survey found for one value of the parameter.
#[derive(Clone, Debug)]
pub struct ValueReport {
    /// The parameter's value.
    pub value: i64,
    /// The game, e.g. `cap floor((x+z)**2/k) with k=5`.
    pub game: String,
    /// The coordinate names.
    pub names: Vec<String>,
    /// The box, one bound per coordinate.
    pub bounds: Vec<u32>,
    /// What each coordinate really spans over the positions of the game in the
    /// box, `(smallest, largest)`: a cap may let `y` reach far less than its bound.
    pub reach: Vec<(u32, u32)>,
    /// Lines parallel to the last coordinate that hold a position of the game
    /// in the box (what a rule's vacuous lines are counted among).
    pub lines_along_last: u64,
    /// The P-positions along lines (also what figures draw).
    pub lines: PLines,
    /// Shifted nim-sums.
    pub shifts: Option<RuleSearch>,
    /// Nim-sum equal to a constant.
    pub constants: Option<RuleSearch>,
    /// Grundy value against nim-sum.
    pub nim_sum: Option<NimSumFit>,
    /// Periodicity along each axis.
    pub periods: Option<Vec<AxisPeriods>>,
    /// Finders asked for that do not apply to this game, each with why.
    pub skipped: Vec<(Finder, String)>,
    /// Rules of one's own, region, per-slice fits and changed coordinates.
    pub claims: ClaimsReport,
}

/// A finder that may be skipped for a game it does not apply to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finder {
    /// Grundy value against nim-sum.
    NimSum,
    /// Periodicity along lines.
    Period,
}

/// A heap that takes at most this many values in a box is "narrow": a rule
/// that holds there says nothing about larger values of it.
pub const NARROW_SPAN: u32 = 8;

impl ValueReport {
    /// A rule "holds beyond its threshold" when it fails only below half the
    /// smallest span of the box (the largest value each coordinate really
    /// reaches, not its bound): the other half of the box is its evidence.
    pub fn beyond(&self, threshold: u64) -> Option<u64> {
        let smallest = self.reach.iter().map(|r| r.1).min().unwrap_or(0);
        (threshold > 0 && threshold <= u64::from(smallest) / 2).then_some(threshold)
    }

    /// [`ValueReport::beyond`] for a failing XOR rule, which must also predict
    /// a P-position beyond its threshold: a rule no position there satisfies
    /// (every exception P, none past T) "holds" beyond T only vacuously.
    pub fn rule_beyond(&self, fit: &rules::RuleFit) -> Option<u64> {
        self.beyond(fit.threshold)
            .filter(|_| fit.witnesses_beyond > 0)
    }

    /// A rule's vacuous lines: the lines parallel to the last coordinate that
    /// hold a position of the game in the box but not the rule's point. For an
    /// exact rule each such line's point is a P-position or no position at all,
    /// so it is those lines less the P-positions, the same for every exact rule
    /// of the box; one definition for every game, built-in or file.
    pub fn vacuous_lines(&self) -> u64 {
        self.lines_along_last.saturating_sub(self.lines.p_count)
    }

    /// The coordinates that take at most [`NARROW_SPAN`] values over the box's
    /// positions, as `(name, smallest, largest)`.
    pub fn narrow(&self) -> Vec<(&str, u32, u32)> {
        self.names
            .iter()
            .zip(&self.reach)
            .filter(|(_, r)| r.1 - r.0 < NARROW_SPAN)
            .map(|(n, r)| (n.as_str(), r.0, r.1))
            .collect()
    }
}

/// Whether a game is played misère: its values are the misère colouring (mex
/// with a terminal position worth 1), not Grundy values.
pub fn is_misere(game: &GameSpec) -> bool {
    match game {
        GameSpec::File(g) => g.is_misere(),
        GameSpec::Capped(g) => g.play().misere,
        _ => false,
    }
}

/// Why the Grundy-value finders skip a misère game.
pub const MISERE_SKIP: &str = "skipped: the game is played misère, so its values are the misère colouring (a terminal position is worth 1), not Grundy values; nim-sum and period tests on them would mean nothing (the shift and constant finders use the P-positions, which are right)";

/// Tuples of a box, saturating (six bounds of 2^32 pass u128).
fn box_tuples(bounds: &[u32]) -> u128 {
    bounds
        .iter()
        .map(|&b| u128::from(b) + 1)
        .fold(1u128, u128::saturating_mul)
}

/// Bytes one value's survey needs, as `(while working, kept)`. Kept: its
/// lines, which the report's figures draw once every value is done. While
/// working, on top of those: the solve (the solver's own estimate: 2 per
/// position plus its line sets for capped games, 3 per tuple of the box for the
/// others) and the grid it is read into (2 per tuple); the lines are built from
/// the grid once the solution is dropped, so only the solve's excess over them
/// adds. The capped games' P-position path needs only its lines.
fn value_bytes(
    game: &GameSpec,
    bounds: &[u32],
    need_grundy: bool,
    control: &Control,
) -> Result<(u64, u64)> {
    let tuples = box_tuples(bounds);
    let grid = u64::try_from(tuples.saturating_mul(2)).unwrap_or(u64::MAX);
    let (solve, lines) = match game {
        GameSpec::Capped(g) => {
            let columns = (u64::from(bounds[0]) + 1).saturating_mul(u64::from(bounds[2]) + 1);
            // The solver's estimate tabulates the cap over the columns: bound them
            // first, so estimating never allocates past what the box may hold.
            if columns > MAX_CAPPED_COLUMNS {
                return Err(Error::invalid_parameter("box", format!(
                    "`box` x {} by z {} gives {columns} columns of a capped game; give at most {MAX_CAPPED_COLUMNS} (8191 by 8191)",
                    bounds[0], bounds[2]
                )));
            }
            let lines = lines::capped_p_lines_bytes(columns);
            if !need_grundy {
                return Ok((0, lines));
            }
            (
                g.solve_bytes([bounds[0], bounds[1], bounds[2]], control)?,
                lines,
            )
        }
        _ => {
            // Segments along the last coordinate: one per line when the game
            // does not break its lines.
            let count = tuples / (u128::from(bounds[bounds.len() - 1]) + 1);
            (
                u64::try_from(tuples.saturating_mul(3).saturating_add(tuples / 8))
                    .unwrap_or(u64::MAX),
                PLines::bytes(u64::try_from(count).unwrap_or(u64::MAX), bounds.len()),
            )
        }
    };
    Ok((grid.saturating_add(solve.saturating_sub(lines)), lines))
}

/// The most line checks one value's rule search may take (rules times lines):
/// about ten seconds of one core. Past it the survey is refused before any work.
pub const MAX_RULE_WORK: u128 = 4_000_000_000;

/// Refuses a rule search of more than [`MAX_RULE_WORK`] line checks, naming them.
fn check_rule_work(
    game: &GameSpec,
    bounds: &[u32],
    finders: &Finders,
    claims: &Claims,
) -> Result<()> {
    let tuples = box_tuples(bounds);
    // Lines along y for capped games, along the last coordinate for the others.
    let axis = if matches!(game, GameSpec::Capped(_)) {
        1
    } else {
        bounds.len() - 1
    };
    let lines = tuples / (u128::from(bounds[axis]) + 1);
    let shifts: u128 = match &finders.shifts {
        Some(spec) => spec
            .resolve(claims.names())?
            .iter()
            .map(|r| (r.end() - r.start()).unsigned_abs() as u128 + 1)
            .fold(1u128, u128::saturating_mul),
        None => 0,
    };
    let constants = finders
        .constants
        .as_ref()
        .map_or(0, |r| (r.end() - r.start()).unsigned_abs() as u128 + 1);
    let work = shifts.saturating_add(constants).saturating_mul(lines);
    if work > MAX_RULE_WORK {
        return Err(Error::invalid_parameter("shift", format!(
            "the rule search of {} would test {} rules on {lines} lines ({work} checks, over {MAX_RULE_WORK}); narrow `shift` (e.g. 0..0 for some coordinates) or use a smaller `box`",
            game.name(),
            shifts + constants
        )));
    }
    Ok(())
}

/// The games of a survey, their claims and their boxes, checked: every box
/// resolved, every claim parsed, the rule search and the memory of the values
/// solved at once within their limits.
struct Prepared {
    games: Vec<GameSpec>,
    claims: Vec<Claims>,
    boxes: Vec<Vec<u32>>,
    at_once: u64,
}

/// Everything [`survey_with_claims`] checks before it solves anything: the
/// boxes, the claims, the rule search's line checks ([`MAX_RULE_WORK`]) and the
/// memory estimate. Front ends call it when they plan a survey, so a refusal
/// comes before any other work (a render's figures, a page's other surveys).
pub fn check_survey(
    family: &dyn GameFamily,
    values: &[i64],
    options: &SurveyOptions,
    claim_options: &ClaimOptions,
    control: &Control,
) -> Result<()> {
    prepare(family, values, options, claim_options, control).map(|_| ())
}

fn prepare(
    family: &dyn GameFamily,
    values: &[i64],
    options: &SurveyOptions,
    claim_options: &ClaimOptions,
    control: &Control,
) -> Result<Prepared> {
    if values.is_empty() {
        return Err(Error::invalid_parameter(
            "param",
            "`param`: no values to survey",
        ));
    }
    let games: Vec<GameSpec> = values
        .iter()
        .map(|&v| family.game(v))
        .collect::<Result<_>>()?;
    let claims: Vec<Claims> = games
        .iter()
        .zip(values)
        .map(|(g, &v)| claim_options.parse(&g.coordinate_names(), (family.parameter(), v)))
        .collect::<Result<_>>()?;
    // A Grundy formula among the rules needs Grundy values, as the nim-sum finder does.
    let need_grundy = options.finders.need_grundy() || claims.iter().any(Claims::need_grundy);
    let mut boxes = Vec::with_capacity(games.len());
    let (mut working, mut kept) = (Vec::with_capacity(games.len()), 0u64);
    for (game, &value) in games.iter().zip(values) {
        let bounds = options.game_box.bounds(game, value)?;
        if bounds.len() < 2 {
            return Err(Error::unsupported(format!(
                "{} has one coordinate; a survey needs two or more",
                game.name()
            )));
        }
        // The box's columns first (the corpus expects that refusal), then the
        // rule search's size, both known from the box alone.
        let (work, lines) = value_bytes(game, &bounds, need_grundy, control)?;
        working.push(work);
        kept = kept.saturating_add(lines);
        check_rule_work(game, &bounds, &options.finders, &claims[boxes.len()])?;
        boxes.push(bounds);
    }
    let at_once = (rayon::current_num_threads() as u64)
        .min(values.len() as u64)
        .max(1);
    // At worst the largest values are worked on together.
    working.sort_unstable_by(|a, b| b.cmp(a));
    let needed = working
        .iter()
        .take(at_once as usize)
        .fold(kept, |sum, &w| sum.saturating_add(w));
    check_memory(
        || {
            format!(
                "a survey of {} over {}={}..{} ({at_once} values at once)",
                family.label(),
                family.parameter(),
                values[0],
                values[values.len() - 1]
            )
        },
        needed,
        options.memory_limit,
        "use a smaller `box`, or leave out the finders that need Grundy values (`find` shift,constant)",
    )?;
    Ok(Prepared {
        games,
        claims,
        boxes,
        at_once,
    })
}

/// Surveys `family` at every value of `values` (in that order in the result),
/// values solved in parallel; the result does not depend on the thread count.
/// Refused with an estimate when the values solved at once would need more
/// than the memory limit.
pub fn survey(
    family: &dyn GameFamily,
    values: &[i64],
    options: &SurveyOptions,
    control: &Control,
) -> Result<Vec<ValueReport>> {
    survey_with_claims(family, values, options, &ClaimOptions::default(), control)
}

/// [`survey`] with rules of one's own, a region, per-slice fits or changed
/// coordinates ([`claims`]), every expression parsed per value with the
/// family's parameter bound to it.
pub fn survey_with_claims(
    family: &dyn GameFamily,
    values: &[i64],
    options: &SurveyOptions,
    claim_options: &ClaimOptions,
    control: &Control,
) -> Result<Vec<ValueReport>> {
    let Prepared {
        games,
        claims,
        boxes,
        at_once,
    } = prepare(family, values, options, claim_options, control)?;
    control.add_total(values.len() as u64);
    let per_value_limit = options.memory_limit / at_once;
    let reports: Vec<Result<ValueReport>> = games
        .par_iter()
        .zip(boxes.par_iter())
        .zip(values.par_iter())
        .zip(claims.par_iter())
        .map(|(((game, bounds), &value), claims)| {
            control.check()?;
            let report = survey_one(
                game,
                value,
                bounds,
                options,
                claims,
                per_value_limit,
                control,
            )?;
            control.advance(1);
            Ok(report)
        })
        .collect();
    control.check()?;
    // The first error in parameter order, whatever finished first.
    reports.into_iter().collect()
}

fn survey_one(
    game: &GameSpec,
    value: i64,
    bounds: &[u32],
    options: &SurveyOptions,
    claims: &Claims,
    limit: u64,
    control: &Control,
) -> Result<ValueReport> {
    let finders = &options.finders;
    // The capped games' P-positions need no Grundy value; every other path
    // solves the box and reads it as one grid.
    let (grid, lines) = match game {
        // Normal play without a pass only: that is the game the P-position solver plays.
        GameSpec::Capped(g)
            if g.play() == crate::games::Play::default()
                && !finders.need_grundy()
                && !claims.need_grundy() =>
        {
            (
                None,
                lines::capped_p_lines(g, [bounds[0], bounds[1], bounds[2]], control)?,
            )
        }
        _ => {
            let solution = game.solve(&GameBox::Each(bounds.to_vec()), limit, control)?;
            let grid = Grid::of(&solution, control)?;
            let axis = PLines::axis_of(&solution);
            drop(solution);
            let lines = PLines::from_grid(&grid, bounds.to_vec(), axis, control)?;
            (Some(grid), lines)
        }
    };
    // A region and new coordinates change what every finder below reads.
    let (grid, lines) = claims.transform(grid, lines, limit, control)?;
    let names = claims.names().to_vec();
    let bounds = &lines.bounds.clone();
    let dims = bounds.len();
    let shift_ranges = match &finders.shifts {
        Some(spec) => Some(spec.resolve(&names)?),
        None => None,
    };
    let shifts = match &shift_ranges {
        Some(ranges) => {
            let candidates = rules::shift_candidates(ranges)?;
            Some(rules::search(&lines, candidates, options.listed, control)?)
        }
        None => None,
    };
    let constants = match &finders.constants {
        Some(range) => {
            let candidates = rules::constant_candidates(dims, range.clone())?;
            Some(rules::search(&lines, candidates, options.listed, control)?)
        }
        None => None,
    };
    let misere = is_misere(game);
    let mut skipped = Vec::new();
    for (finder, on) in [
        (Finder::NimSum, finders.nim_sum),
        (Finder::Period, finders.periods),
    ] {
        if on && misere {
            skipped.push((finder, MISERE_SKIP.to_string()));
        }
    }
    let nim_sum = match (&grid, finders.nim_sum && !misere) {
        (Some(g), true) => Some(nimsum::grundy_vs_nim_sum(g, options.listed, control)?),
        _ => None,
    };
    let periods = match (&grid, finders.periods && !misere) {
        (Some(g), true) => Some(period::line_periods(g, control)?),
        _ => None,
    };
    let claims = claims.report(
        grid.as_ref(),
        &lines,
        shift_ranges.as_deref(),
        options.listed,
        control,
    )?;
    Ok(ValueReport {
        value,
        game: game.name(),
        names,
        bounds: bounds.to_vec(),
        reach: lines.reach(),
        lines_along_last: lines.lines_along_last(),
        lines,
        shifts,
        constants,
        nim_sum,
        periods,
        skipped,
        claims,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Play;

    fn options(finders: Finders, game_box: GameBox) -> SurveyOptions {
        SurveyOptions {
            game_box: SurveyBox::fixed(&game_box),
            finders,
            listed: 10,
            memory_limit: 1 << 30,
        }
    }

    #[test]
    fn the_triangular_family_shows_the_mod_4_rules() {
        let family = BuiltinFamily::new("triangular", "k", GameParams::default()).unwrap();
        let finders = Finders {
            shifts: Some(ShiftSpec::Each(vec![-2..=2, 0..=0, -2..=2])),
            constants: Some(0..=3),
            nim_sum: true,
            periods: false,
        };
        let values: Vec<i64> = (1..=9).collect();
        let reports = survey(
            &family,
            &values,
            &options(finders, GameBox::Uniform(20)),
            &Control::default(),
        )
        .unwrap();
        for r in &reports {
            let shifts = r.shifts.as_ref().unwrap();
            let formulas: Vec<Vec<i64>> = shifts.formulas().map(|e| e.rule.shift.clone()).collect();
            match r.value % 4 {
                3 => assert_eq!(formulas, vec![vec![0, 0, 0]], "k={}", r.value),
                1 if r.value > 1 => assert_eq!(formulas, vec![vec![-1, 0, -1]], "k={}", r.value),
                _ => {}
            }
        }
        // k = 3: Miyadera, Nakamura, Fukui's counts.
        assert_eq!(reports[2].nim_sum.as_ref().unwrap().exceptions, 2257);
    }

    /// `survey --cap EXPR --pass` / `--misere`: the capped solver's values are the
    /// generic solver's on a game file of the same game, and the survey finds the
    /// same as over that file.
    #[test]
    fn cap_families_with_a_pass_or_misere_match_their_game_files() {
        let file_text = |play: Play| {
            format!(
                "heaps = [\"x\", \"y\", \"z\"]\nfunctions = [\"cap(x, z) = floor(min(x, z)/k)\"]\npositions = [\"y <= cap(x, z)\"]\npass = {}\nmisere = {}\n[params]\nk = 1\n[[move]]\nlower = \"y\"\n[[move]]\nlower = \"x\"\nto = \"(t, min(y, cap(t, z)), z)\"\n[[move]]\nlower = \"z\"\nto = \"(x, min(y, cap(x, t)), t)\"\n",
                play.pass, play.misere
            )
        };
        let bounds = vec![11, 11, 11];
        let game_box = GameBox::Each(bounds.clone());
        let finders = Finders {
            shifts: Some(ShiftSpec::Every(-1..=1)),
            constants: Some(0..=3),
            nim_sum: true,
            periods: true,
        };
        for (pass, misere) in [(true, false), (false, true), (true, true)] {
            let play = Play { pass, misere };
            let family = CapFamily::new("floor(min(x, z)/k)", "k")
                .unwrap()
                .with_play(play);
            let text = file_text(play);
            for k in 1..=3 {
                let capped = family
                    .game(k)
                    .unwrap()
                    .solve(&game_box, 1 << 30, &crate::Control::default())
                    .unwrap();
                let file = crate::games::GameFile::parse("min-k.toml", &text, &[("k".into(), k)])
                    .unwrap()
                    .solve_generic(&bounds, 1 << 30, &Control::new())
                    .unwrap();
                let file = crate::games::Solution::Dense(file);
                assert!(capped.len() > 100);
                assert_eq!(
                    capped.positions().collect::<Vec<_>>(),
                    file.positions().collect::<Vec<_>>(),
                    "k={k} {play:?}"
                );
            }
            let by_cap = survey(
                &family,
                &[1, 2, 3],
                &options(finders.clone(), game_box.clone()),
                &Control::default(),
            )
            .unwrap();
            let by_file = survey(
                &GameFileFamily::new("min-k.toml", &text, "k").unwrap(),
                &[1, 2, 3],
                &options(finders.clone(), game_box.clone()),
                &Control::default(),
            )
            .unwrap();
            assert!(family.label().ends_with(play.suffix()));
            for (c, f) in by_cap.iter().zip(&by_file) {
                let findings = |r: &ValueReport| {
                    format!(
                        "{:?} {:?} {:?} {:?} {:?}",
                        r.shifts, r.constants, r.nim_sum, r.periods, r.skipped
                    )
                };
                assert_eq!(findings(c), findings(f), "k={} {play:?}", c.value);
            }
        }
    }

    #[test]
    fn the_cap_family_and_the_survey_box() {
        let family = CapFamily::new("floor((x+z)**2/k)", "k").unwrap();
        let game = family.game(5).unwrap();
        assert_eq!(
            survey_bounds(&game, &GameBox::Uniform(10)).unwrap(),
            vec![10, 80, 10]
        );
        assert!(CapFamily::new("floor((x+z)**2/j)", "k").is_err());
        let finders = Finders {
            shifts: Some(ShiftSpec::Each(vec![-2..=2, 0..=0, -2..=2])),
            constants: None,
            nim_sum: false,
            periods: false,
        };
        // The fast P-only path and the Grundy path give the same findings.
        let fast = survey(
            &family,
            &[1, 5],
            &options(finders.clone(), GameBox::Uniform(12)),
            &Control::default(),
        )
        .unwrap();
        let slow_finders = Finders {
            nim_sum: true,
            ..finders
        };
        let slow = survey(
            &family,
            &[1, 5],
            &options(slow_finders, GameBox::Uniform(12)),
            &Control::default(),
        )
        .unwrap();
        for (a, b) in fast.iter().zip(&slow) {
            assert_eq!(a.shifts, b.shifts);
            assert_eq!(a.lines, b.lines);
        }
        let err = survey(
            &family,
            &[1],
            &SurveyOptions {
                memory_limit: 1000,
                ..options(
                    Finders {
                        nim_sum: true,
                        ..fast_finders()
                    },
                    GameBox::Uniform(12),
                )
            },
            &Control::default(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("would need about"), "{err}");
    }

    fn fast_finders() -> Finders {
        Finders {
            shifts: None,
            constants: Some(0..=0),
            nim_sum: false,
            periods: false,
        }
    }
}
