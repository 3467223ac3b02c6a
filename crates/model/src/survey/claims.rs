//! Rules of one's own, regions, per-slice fits and changed coordinates: the
//! survey options written in the claim language ([`crate::claim`]).
//!
//! * a **rule** is a predicate (`(x+1)^y^(z+1) == 0`: "P iff it holds") or an
//!   integer expression (`x^y^z`: "the Grundy value equals it"), checked at every
//!   position of the box, with its exceptions in the size order of
//!   [`super::rules::size_order`] and its threshold;
//! * a **region** (`where`) keeps only the positions where a predicate holds,
//!   for every finder;
//! * **per** a coordinate, the shift family and every rule are fitted on each
//!   slice `y = 0, 1, ...` of the box separately;
//! * **coordinates** (`u = x - k*y, w = z - k*y`) carry the box to new
//!   coordinates, one-to-one and non-negative, before the finders run.
//!
//! Every expression may use the game's coordinates and the family's parameter,
//! bound to the value surveyed.

use super::grid::Grid;
use super::lines::PLines;
use super::rules::{self, RuleSearch};
use crate::claim::{Expr, Node};
use crate::games::OUTSIDE;
use crate::{Control, Error, Result};

/// The claim-language options of a survey, as texts (parsed per value, with the
/// family's parameter bound to it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimOptions {
    /// Rules to check: predicates (P iff) or integer expressions (Grundy value =).
    pub rules: Vec<String>,
    /// Only positions where this predicate holds, for every finder.
    pub region: Option<String>,
    /// Fit the shift family and every rule on each slice of this coordinate.
    pub per: Option<String>,
    /// New coordinates: `u = x - k*y, w = z - k*y` (a bare name keeps a coordinate).
    pub coords: Option<String>,
}

/// Splits a list of expressions at its top-level commas and semicolons (a comma
/// inside `min( , )` belongs to its call).
pub fn split_list(text: &str) -> Vec<String> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0i64, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' | ';' if depth == 0 => {
                items.push(text[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(text[start..].trim().to_string());
    items.retain(|s| !s.is_empty());
    items
}

/// One new coordinate: its name and its expression over the old ones.
#[derive(Clone, Debug)]
struct NewCoordinate {
    name: String,
    expr: Expr,
}

/// The options parsed for one value.
#[derive(Clone, Debug)]
pub struct Claims {
    rules: Vec<Expr>,
    region: Option<Expr>,
    per: Option<usize>,
    coords: Option<Vec<NewCoordinate>>,
    /// The coordinates the finders and rules see.
    names: Vec<String>,
}

fn in_parameter(parameter: &str, e: Error) -> Error {
    Error::invalid_parameter(parameter, format!("`{parameter}`: {e}"))
}

impl ClaimOptions {
    /// Whether any option is given.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
            && self.region.is_none()
            && self.per.is_none()
            && self.coords.is_none()
    }

    /// Parses every expression for a game with coordinates `names` and the
    /// parameter `(name, value)`; an error names the option at fault.
    pub fn parse(&self, names: &[String], param: (&str, i64)) -> Result<Claims> {
        let old: Vec<&str> = names.iter().map(String::as_str).collect();
        let params = [param];
        let region = self
            .region
            .as_deref()
            .map(|t| Expr::parse_predicate(t, &old, &params).map_err(|e| in_parameter("where", e)))
            .transpose()?;
        let (coords, new_names) = match &self.coords {
            None => (None, names.to_vec()),
            Some(text) => {
                let (c, n) = parse_coords(text, &old, &params)?;
                (Some(c), n)
            }
        };
        let new: Vec<&str> = new_names.iter().map(String::as_str).collect();
        let rules = self
            .rules
            .iter()
            .map(|t| Expr::parse(t, &new, &params).map_err(|e| in_parameter("rule", e)))
            .collect::<Result<Vec<_>>>()?;
        let per = match &self.per {
            None => None,
            Some(name) => {
                let name = name.trim().to_ascii_lowercase();
                Some(new_names.iter().position(|n| *n == name).ok_or_else(|| {
                    Error::invalid_parameter(
                        "per",
                        format!(
                            "`per`: '{}' is not a coordinate; the coordinates are {}",
                            crate::error::excerpt(&name),
                            new_names.join(", ")
                        ),
                    )
                })?)
            }
        };
        Ok(Claims {
            rules,
            region,
            per,
            coords,
            names: new_names,
        })
    }
}

/// `u = x - k*y, w = z - k*y`: each new coordinate takes the place of the first
/// coordinate its expression names that no earlier one took (`u` of `x`, `w` of
/// `z`); the coordinates no definition takes stay as they are.
fn parse_coords(
    text: &str,
    old: &[&str],
    params: &[(&str, i64)],
) -> Result<(Vec<NewCoordinate>, Vec<String>)> {
    let bad = |m: String| Error::invalid_parameter("coords", format!("`coords`: {m}"));
    let items = split_list(text);
    if items.is_empty() {
        return Err(bad(
            "no coordinates given; write e.g. 'u = x - k*y, w = z - k*y'".into(),
        ));
    }
    let mut taken: Vec<Option<NewCoordinate>> = vec![None; old.len()];
    for item in &items {
        let (name, expr_text) = match item.split_once('=') {
            Some((n, e)) if !e.starts_with('=') => (n.trim().to_ascii_lowercase(), e.trim()),
            _ => (item.trim().to_ascii_lowercase(), item.trim()),
        };
        if name.is_empty()
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            || name.starts_with(|c: char| c.is_ascii_digit())
        {
            return Err(bad(format!(
                "'{}' is not NAME = EXPR; write e.g. 'u = x - k*y'",
                crate::error::excerpt(item)
            )));
        }
        let expr =
            Expr::parse_integer(expr_text, old, params).map_err(|e| in_parameter("coords", e))?;
        let slot = match expr.ast() {
            Node::Var(i) if expr_text.eq_ignore_ascii_case(&name) => Some(*i),
            _ => first_var(expr.ast(), &taken),
        }
        .ok_or_else(|| {
            bad(format!(
                "'{}' names no coordinate that is still free; each new coordinate replaces one of {}",
                crate::error::excerpt(item),
                old.join(", ")
            ))
        })?;
        if taken[slot].is_some() {
            return Err(bad(format!("'{}' is kept twice", old[slot])));
        }
        taken[slot] = Some(NewCoordinate { name, expr });
    }
    let coords: Vec<NewCoordinate> = taken
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            c.unwrap_or_else(|| NewCoordinate {
                name: old[i].to_string(),
                expr: Expr::parse(old[i], old, &[]).expect("a coordinate's own name parses"),
            })
        })
        .collect();
    let names: Vec<String> = coords.iter().map(|c| c.name.clone()).collect();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(bad(format!("two coordinates are named '{n}'")));
        }
        if params.iter().any(|(p, _)| p == n) {
            return Err(bad(format!(
                "'{n}' is the parameter's name; choose another"
            )));
        }
    }
    Ok((coords, names))
}

/// The first variable of `node` (in reading order) that no new coordinate took.
fn first_var(node: &Node, taken: &[Option<NewCoordinate>]) -> Option<usize> {
    if let Node::Var(i) = node {
        return taken[*i].is_none().then_some(*i);
    }
    node.children()
        .into_iter()
        .find_map(|c| first_var(c, taken))
}

/// One exception of a rule of one's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleException {
    /// The position (in the coordinates the rule is written in).
    pub position: Vec<u32>,
    /// Whether it is a P-position.
    pub is_p: bool,
    /// Its Grundy value, for a Grundy rule.
    pub grundy: Option<u16>,
    /// The rule's value there, for a Grundy rule.
    pub predicted: Option<i64>,
}

/// How a rule of one's own fits the box (or one slice of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleCheck {
    /// The rule as written.
    pub rule: String,
    /// `true`: "the Grundy value equals it"; `false`: "P iff it holds".
    pub grundy: bool,
    /// Positions checked.
    pub positions: u64,
    /// P-positions where a P-rule fails (for a Grundy rule: P-positions it misses).
    pub p_breaking: u64,
    /// N-positions where a P-rule holds (for a Grundy rule: other mismatches).
    pub n_satisfying: u64,
    /// One more than the largest exception's size (0: exact).
    pub threshold: u64,
    /// The smallest exceptions, in size order.
    pub listed: Vec<RuleException>,
}

impl RuleCheck {
    /// Every exception.
    pub fn exceptions(&self) -> u64 {
        self.p_breaking + self.n_satisfying
    }

    /// Whether the rule is exact where it was checked.
    pub fn holds(&self) -> bool {
        self.exceptions() == 0
    }
}

/// The fits of one slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliceFit {
    /// The slice coordinate's value.
    pub value: u32,
    /// Positions in the slice.
    pub positions: u64,
    /// P-positions in the slice.
    pub p_count: u64,
    /// The shift family fitted on the slice (its own coordinate's shift fixed at 0).
    pub shifts: Option<RuleSearch>,
    /// Each rule of one's own on the slice.
    pub rules: Vec<RuleCheck>,
}

/// Fits slice by slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerSlice {
    /// The coordinate sliced.
    pub name: String,
    /// Its index.
    pub axis: usize,
    /// One fit per value of the coordinate that has positions, increasing.
    pub slices: Vec<SliceFit>,
}

/// What the claim-language options found for one value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimsReport {
    /// The region every finder was restricted to.
    pub region: Option<String>,
    /// The new coordinates: `(name, definition)`, one per coordinate.
    pub coords: Option<Vec<(String, String)>>,
    /// The rules of one's own.
    pub rules: Vec<RuleCheck>,
    /// The per-slice fits.
    pub per: Option<PerSlice>,
}

impl Claims {
    /// The coordinates the finders and rules see.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Whether a rule needs Grundy values.
    pub fn need_grundy(&self) -> bool {
        self.rules.iter().any(|r| !r.is_predicate())
    }

    /// Applies the region and the change of coordinates to a solved box:
    /// the grid (when there is one) and the lines the finders read.
    pub fn transform(
        &self,
        grid: Option<Grid>,
        lines: PLines,
        memory_limit: u64,
        control: &Control,
    ) -> Result<(Option<Grid>, PLines)> {
        let axis = lines.axis;
        let (mut grid, mut lines) = (grid, lines);
        if let Some(region) = &self.region {
            match &mut grid {
                Some(g) => {
                    restrict_grid(g, region, control)?;
                    lines = PLines::from_grid(g, lines.bounds.clone(), axis, control)?;
                }
                None => lines = restrict_lines(&lines, control, |p| eval_bool(region, p))?,
            }
        }
        if let Some(coords) = &self.coords {
            let (g, l) = change_coordinates(coords, grid.as_ref(), &lines, memory_limit, control)?;
            grid = g;
            lines = l;
        }
        Ok((grid, lines))
    }

    /// Checks every rule, and fits per slice when asked. `grid` holds Grundy
    /// values when the rules need them (else `None`).
    pub fn report(
        &self,
        grid: Option<&Grid>,
        lines: &PLines,
        shift_ranges: Option<&[std::ops::RangeInclusive<i64>]>,
        listed: usize,
        control: &Control,
    ) -> Result<ClaimsReport> {
        let rules = self
            .rules
            .iter()
            .map(|r| check_rule(r, grid, lines, listed, control))
            .collect::<Result<Vec<_>>>()?;
        let per = match self.per {
            None => None,
            Some(axis) => Some(self.per_slice(axis, grid, lines, shift_ranges, listed, control)?),
        };
        Ok(ClaimsReport {
            region: self.region.as_ref().map(|e| e.to_string()),
            coords: self.coords.as_ref().map(|c| {
                c.iter()
                    .map(|n| (n.name.clone(), n.expr.to_string()))
                    .collect()
            }),
            rules,
            per,
        })
    }

    fn per_slice(
        &self,
        axis: usize,
        grid: Option<&Grid>,
        lines: &PLines,
        shift_ranges: Option<&[std::ops::RangeInclusive<i64>]>,
        listed: usize,
        control: &Control,
    ) -> Result<PerSlice> {
        let mut slices = Vec::new();
        // Across the lines' own axis a segment lies in one slice: one pass sorts
        // them all; along it, each slice takes one point of every segment.
        let mut across = if axis != lines.axis {
            Some(partition(lines, axis, control)?.into_iter())
        } else {
            None
        };
        for value in 0..=lines.bounds[axis] {
            control.check()?;
            let slice = match &mut across {
                Some(parts) => parts.next().expect("one part per value"),
                None => restrict_lines(lines, control, |p| Ok(p[axis] == value))?,
            };
            if slice.positions == 0 {
                continue;
            }
            let shifts = match shift_ranges {
                Some(ranges) => {
                    let mut ranges = ranges.to_vec();
                    ranges[axis] = 0..=0;
                    let candidates = rules::shift_candidates(&ranges)?;
                    Some(rules::search(&slice, candidates, listed, control)?)
                }
                None => None,
            };
            let rules = self
                .rules
                .iter()
                .map(|r| check_rule(r, grid, &slice, listed, control))
                .collect::<Result<Vec<_>>>()?;
            slices.push(SliceFit {
                value,
                positions: slice.positions,
                p_count: slice.p_count,
                shifts,
                rules,
            });
        }
        Ok(PerSlice {
            name: self.names[axis].clone(),
            axis,
            slices,
        })
    }
}

fn values_of(p: &[u32]) -> Vec<i64> {
    p.iter().map(|&c| i64::from(c)).collect()
}

fn eval_bool(expr: &Expr, p: &[u32]) -> Result<bool> {
    expr.eval_bool(&values_of(p))
}

/// The positions of `lines` where `keep` holds, as lines again (a segment is cut
/// where the region leaves it).
pub fn restrict_lines(
    lines: &PLines,
    control: &Control,
    mut keep: impl FnMut(&[u32]) -> Result<bool>,
) -> Result<PLines> {
    let dims = lines.bounds.len();
    let mut out = PLines::empty(lines.axis, lines.bounds.clone(), lines.len());
    let mut point = vec![0u32; dims];
    let mut p = Vec::new();
    for (i, seg) in lines.segments().enumerate() {
        if i % 4096 == 0 {
            control.check()?;
        }
        point.copy_from_slice(seg.fixed);
        let mut run: Option<u32> = None;
        let mut next_p = seg.p.iter().peekable();
        for t in seg.lo..=seg.hi {
            point[lines.axis] = t;
            let is_p = next_p.next_if(|&&q| q == t).is_some();
            if keep(&point)? {
                if run.is_none() {
                    run = Some(t);
                    p.clear();
                }
                if is_p {
                    p.push(t);
                }
            } else if let Some(lo) = run.take() {
                out.push(seg.fixed, lo, t - 1, p.iter().copied());
            }
        }
        if let Some(lo) = run {
            out.push(seg.fixed, lo, seg.hi, p.iter().copied());
        }
    }
    Ok(out)
}

/// The lines split by the value of coordinate `axis` (not the lines' own axis):
/// one set of lines per value `0..=bounds[axis]`, in one pass.
fn partition(lines: &PLines, axis: usize, control: &Control) -> Result<Vec<PLines>> {
    debug_assert_ne!(axis, lines.axis);
    let mut parts: Vec<PLines> = (0..=lines.bounds[axis])
        .map(|_| PLines::empty(lines.axis, lines.bounds.clone(), 0))
        .collect();
    for (i, seg) in lines.segments().enumerate() {
        if i % 4096 == 0 {
            control.check()?;
        }
        parts[seg.fixed[axis] as usize].push(seg.fixed, seg.lo, seg.hi, seg.p.iter().copied());
    }
    Ok(parts)
}

/// Marks every position of `grid` outside `region` as outside the game.
fn restrict_grid(grid: &mut Grid, region: &Expr, control: &Control) -> Result<()> {
    let dims = grid.shape.len();
    let mut point = vec![0i64; dims];
    let mut stack = Vec::new();
    for (i, v) in grid.values.iter_mut().enumerate() {
        if i % 65536 == 0 {
            control.check()?;
        }
        if *v == OUTSIDE {
            continue;
        }
        let mut rest = i;
        for d in (0..dims).rev() {
            point[d] = (rest % grid.shape[d]) as i64;
            rest /= grid.shape[d];
        }
        if region.eval_with(&point, &mut stack)? == 0 {
            *v = OUTSIDE;
        }
    }
    Ok(())
}

/// Every position of the lines with its value: the grid's Grundy value, or 0
/// for a P- and 1 for an N-position when there is no grid.
fn for_each_position(
    grid: Option<&Grid>,
    lines: &PLines,
    control: &Control,
    mut f: impl FnMut(&[u32], bool, Option<u16>) -> Result<()>,
) -> Result<()> {
    let mut point = vec![0u32; lines.bounds.len()];
    for (i, seg) in lines.segments().enumerate() {
        if i % 4096 == 0 {
            control.check()?;
        }
        point.copy_from_slice(seg.fixed);
        let mut next_p = seg.p.iter().peekable();
        for t in seg.lo..=seg.hi {
            point[lines.axis] = t;
            let is_p = next_p.next_if(|&&q| q == t).is_some();
            let g = grid.and_then(|g| g.get(&point));
            f(&point, is_p, g)?;
        }
    }
    Ok(())
}

/// Checks one rule at every position of `lines`, keeping the `listed` smallest
/// exceptions.
fn check_rule(
    rule: &Expr,
    grid: Option<&Grid>,
    lines: &PLines,
    listed: usize,
    control: &Control,
) -> Result<RuleCheck> {
    let grundy = !rule.is_predicate();
    if grundy && grid.is_none() {
        return Err(Error::invalid_parameter(
            "rule",
            format!(
                "`rule` '{}' is a Grundy formula and needs Grundy values, which this survey did not compute",
                crate::error::excerpt(rule.source())
            ),
        ));
    }
    let mut out = RuleCheck {
        rule: rule.to_string(),
        grundy,
        positions: 0,
        p_breaking: 0,
        n_satisfying: 0,
        threshold: 0,
        listed: Vec::new(),
    };
    // The smallest exceptions so far, largest on top: (size order, is P, Grundy, rule's value).
    type Kept = ((u32, Vec<u32>), bool, Option<u16>, Option<i64>);
    let mut heap: std::collections::BinaryHeap<Kept> = std::collections::BinaryHeap::new();
    let mut values = vec![0i64; lines.bounds.len()];
    let mut stack = Vec::new();
    for_each_position(grid, lines, control, |p, is_p, g| {
        out.positions += 1;
        for (v, &c) in values.iter_mut().zip(p) {
            *v = i64::from(c);
        }
        let value = rule.eval_with(&values, &mut stack)?;
        let (bad, predicted) = if grundy {
            let g = g.expect("the grid covers every position of its lines");
            (i64::from(g) != value, Some(value))
        } else {
            ((value != 0) != is_p, None)
        };
        if !bad {
            return Ok(());
        }
        if is_p {
            out.p_breaking += 1;
        } else {
            out.n_satisfying += 1;
        }
        let key = rules::size_order(p);
        out.threshold = out.threshold.max(u64::from(key.0) + 1);
        if heap.len() < listed || heap.peek().is_some_and(|top| key < top.0) {
            heap.push((key, is_p, if grundy { g } else { None }, predicted));
            if heap.len() > listed {
                heap.pop();
            }
        }
        Ok(())
    })?;
    let mut kept = heap.into_vec();
    kept.sort();
    out.listed = kept
        .into_iter()
        .map(|((_, position), is_p, grundy, predicted)| RuleException {
            position,
            is_p,
            grundy,
            predicted,
        })
        .collect();
    Ok(out)
}

/// The box carried to new coordinates: a grid of the same values (Grundy values,
/// or 0 for P and 1 for N without one), and its lines along the same axis.
fn change_coordinates(
    coords: &[NewCoordinate],
    grid: Option<&Grid>,
    lines: &PLines,
    memory_limit: u64,
    control: &Control,
) -> Result<(Option<Grid>, PLines)> {
    let dims = coords.len();
    let names: Vec<&str> = coords.iter().map(|c| c.name.as_str()).collect();
    let bad = |m: String| Error::invalid_parameter("coords", format!("`coords`: {m}"));
    let map = |p: &[u32], out: &mut [i64], stack: &mut Vec<i64>| -> Result<()> {
        let old = values_of(p);
        for (c, o) in coords.iter().zip(out.iter_mut()) {
            *o = c.expr.eval_with(&old, stack)?;
        }
        Ok(())
    };
    // First the extent of the image, and that every image is non-negative.
    let mut top = vec![0i64; dims];
    let mut image = vec![0i64; dims];
    let mut stack = Vec::new();
    for_each_position(None, lines, control, |p, _, _| {
        map(p, &mut image, &mut stack)?;
        for (d, &v) in image.iter().enumerate() {
            if v < 0 {
                return Err(bad(format!(
                    "{} = {} is {v} at {:?}; new coordinates must be >= 0 in the box (restrict it with `where`)",
                    names[d],
                    coords[d].expr,
                    p
                )));
            }
            if v > i64::from(u32::MAX - 1) {
                return Err(bad(format!("{} reaches {v}, past 2^32", names[d])));
            }
            top[d] = top[d].max(v);
        }
        Ok(())
    })?;
    let shape: Vec<usize> = top.iter().map(|&t| t as usize + 1).collect();
    let cells = shape.iter().fold(1u64, |a, &n| a.saturating_mul(n as u64));
    crate::error::check_memory(
        || format!("the box in the coordinates {}", names.join(", ")),
        cells.saturating_mul(2),
        memory_limit,
        "use a smaller `box` or coordinates that spread less",
    )?;
    let mut values = vec![OUTSIDE; cells as usize];
    let strides: Vec<usize> = (0..dims).map(|d| shape[d + 1..].iter().product()).collect();
    for_each_position(grid, lines, control, |p, is_p, g| {
        map(p, &mut image, &mut stack)?;
        let at: usize = image
            .iter()
            .zip(&strides)
            .map(|(&v, &s)| v as usize * s)
            .sum();
        if values[at] != OUTSIDE {
            return Err(bad(format!(
                "two positions, one of them {p:?}, go to the same point {image:?}; the new coordinates must be one-to-one"
            )));
        }
        values[at] = g.unwrap_or(if is_p { 0 } else { 1 });
        Ok(())
    })?;
    let new_grid = Grid::from_values(shape, values);
    let bounds: Vec<u32> = top.iter().map(|&t| t as u32).collect();
    let new_lines = PLines::from_grid(&new_grid, bounds, lines.axis, control)?;
    Ok((grid.is_some().then_some(new_grid), new_lines))
}

#[cfg(test)]
mod tests {
    use super::super::{
        survey_bounds, survey_with_claims, CapFamily, Finders, GameFamily, ShiftSpec,
        SurveyOptions, ValueReport,
    };
    use super::*;
    use crate::games::{GameBox, Solution};
    use crate::survey::SurveyBox;

    const LIMIT: u64 = 1 << 30;

    fn finders(shift: bool, nim_sum: bool) -> Finders {
        Finders {
            shifts: shift.then_some(ShiftSpec::Every(-2..=2)),
            constants: None,
            nim_sum,
            periods: false,
        }
    }

    fn run(k: i64, n: u32, finders: Finders, claims: ClaimOptions) -> ValueReport {
        let family = CapFamily::new("floor(min(x,z)/k)", "k").unwrap();
        let options = SurveyOptions {
            game_box: SurveyBox::fixed(&GameBox::Uniform(n)),
            finders,
            listed: 5,
            memory_limit: LIMIT,
        };
        survey_with_claims(&family, &[k], &options, &claims, &Control::default())
            .unwrap()
            .remove(0)
    }

    /// Every position of the survey's box with its Grundy value, from the solver.
    fn brute(k: i64, n: u32) -> Vec<(Vec<u32>, u16)> {
        let family = CapFamily::new("floor(min(x,z)/k)", "k").unwrap();
        let game = family.game(k).unwrap();
        let bounds = survey_bounds(&game, &GameBox::Uniform(n)).unwrap();
        let solved: Solution = game
            .solve(
                &GameBox::Each(bounds.clone()),
                LIMIT,
                &crate::Control::default(),
            )
            .unwrap();
        let mut out = Vec::new();
        for x in 0..=bounds[0] {
            for y in 0..=bounds[1] {
                for z in 0..=bounds[2] {
                    if let Some(g) = solved.get(&[x, y, z]) {
                        out.push((vec![x, y, z], g));
                    }
                }
            }
        }
        out
    }

    /// Exceptions of "P iff rule" found position by position, in size order.
    fn brute_exceptions(
        all: &[(Vec<u32>, u16)],
        rule: impl Fn(i64, i64, i64) -> bool,
        region: impl Fn(&[u32]) -> bool,
    ) -> (u64, Vec<Vec<u32>>) {
        let mut bad: Vec<Vec<u32>> = all
            .iter()
            .filter(|(p, _)| region(p))
            .filter(|(p, g)| rule(p[0] as i64, p[1] as i64, p[2] as i64) != (*g == 0))
            .map(|(p, _)| p.clone())
            .collect();
        bad.sort_by_key(|p| rules::size_order(p));
        let checked = all.iter().filter(|(p, _)| region(p)).count() as u64;
        (checked, bad)
    }

    fn opts(
        rules: &[&str],
        region: Option<&str>,
        per: Option<&str>,
        coords: Option<&str>,
    ) -> ClaimOptions {
        ClaimOptions {
            rules: rules.iter().map(|s| s.to_string()).collect(),
            region: region.map(String::from),
            per: per.map(String::from),
            coords: coords.map(String::from),
        }
    }

    #[test]
    fn rules_of_ones_own_agree_with_a_position_by_position_check() {
        for k in [2i64, 3, 5] {
            let n = 6 * k as u32 + 6;
            let all = brute(k, n);
            let rule = "(x+1)^y^(z+1) == 0";
            let report = run(
                k,
                n,
                finders(false, true),
                opts(&[rule, "x^y^z == 0", "x^y^z"], None, None, None),
            );
            let shifted = |x: i64, y: i64, z: i64| ((x + 1) ^ y ^ (z + 1)) == 0;
            let plain = |x: i64, y: i64, z: i64| (x ^ y ^ z) == 0;
            for (check, f) in report.claims.rules[..2]
                .iter()
                .zip([&shifted as &dyn Fn(i64, i64, i64) -> bool, &plain])
            {
                let (checked, bad) = brute_exceptions(&all, f, |_| true);
                assert_eq!(check.positions, checked, "k={k} {}", check.rule);
                assert_eq!(check.exceptions(), bad.len() as u64, "k={k} {}", check.rule);
                let listed: Vec<Vec<u32>> =
                    check.listed.iter().map(|e| e.position.clone()).collect();
                assert_eq!(
                    listed,
                    bad.iter().take(5).cloned().collect::<Vec<_>>(),
                    "k={k}"
                );
                let threshold = bad
                    .iter()
                    .map(|p| u64::from(*p.iter().max().unwrap()) + 1)
                    .max()
                    .unwrap_or(0);
                assert_eq!(check.threshold, threshold);
                for e in &check.listed {
                    let g = all.iter().find(|(p, _)| *p == e.position).unwrap().1;
                    assert_eq!(e.is_p, g == 0, "the exception's kind is real");
                }
            }
            // The Grundy formula: mismatches counted position by position.
            let grundy = &report.claims.rules[2];
            assert!(grundy.grundy);
            let bad = all
                .iter()
                .filter(|(p, g)| i64::from(*g) != (p[0] ^ p[1] ^ p[2]) as i64)
                .count() as u64;
            assert_eq!(grundy.exceptions(), bad, "k={k}");
            assert_eq!(grundy.holds(), k == 2, "Grundy = x^y^z for k = 2 only here");
            // The planted rule of k = 2 is found exact.
            if k == 2 {
                assert!(report.claims.rules[1].holds());
            }
        }
    }

    #[test]
    fn a_region_restricts_every_finder() {
        let k = 3;
        let n = 8 * k as u32 + 16;
        let all = brute(k, n);
        let report = run(
            k,
            n,
            finders(true, false),
            opts(&["(x+1)^y^(z+1) == 0"], Some("y <= 3"), None, None),
        );
        let in_region = |p: &[u32]| p[1] <= 3;
        assert_eq!(
            report.lines.positions,
            all.iter().filter(|(p, _)| in_region(p)).count() as u64
        );
        assert_eq!(
            report.lines.p_count,
            all.iter().filter(|(p, g)| in_region(p) && *g == 0).count() as u64
        );
        let check = &report.claims.rules[0];
        let (checked, bad) =
            brute_exceptions(&all, |x, y, z| ((x + 1) ^ y ^ (z + 1)) == 0, in_region);
        assert_eq!((check.positions, check.exceptions()), (checked, 0));
        assert!(bad.is_empty());
        // The shift finder in the region finds the same rule.
        let shifts = report.shifts.as_ref().unwrap();
        let found: Vec<Vec<i64>> = shifts.formulas().map(|e| e.rule.shift.clone()).collect();
        assert_eq!(found.first(), Some(&vec![1, 0, 1]), "{found:?}");
        // Without the region it fails first at (4k, 4, 4k+3).
        let whole = run(
            k,
            n,
            finders(false, false),
            opts(&["(x+1)^y^(z+1) == 0"], None, None, None),
        );
        assert_eq!(whole.claims.rules[0].listed[0].position, vec![12, 4, 15]);
    }

    #[test]
    fn per_slice_fits_are_rederived_slice_by_slice() {
        let k = 5;
        let n = 8 * k as u32 + 16;
        let all = brute(k, n);
        let report = run(
            k,
            n,
            finders(true, false),
            opts(&["(x+1)^y^(z+1) == 0"], None, Some("y"), None),
        );
        let per = report.claims.per.as_ref().unwrap();
        assert_eq!(per.name, "y");
        let top = all.iter().map(|(p, _)| p[1]).max().unwrap();
        assert_eq!(per.slices.len() as u32, top + 1);
        for slice in &per.slices {
            let y = slice.value;
            let here: Vec<&(Vec<u32>, u16)> = all.iter().filter(|(p, _)| p[1] == y).collect();
            assert_eq!(slice.positions, here.len() as u64);
            // Exact shifts (a, 0, c), found by trying each on every position of the slice.
            let mut exact = Vec::new();
            for a in -2i64..=2 {
                for c in -2i64..=2 {
                    let fits = here.iter().all(|(p, g)| {
                        (((p[0] as i64 + a) ^ y as i64 ^ (p[2] as i64 + c)) == 0) == (*g == 0)
                    });
                    if fits {
                        exact.push(vec![a, 0, c]);
                    }
                }
            }
            let mut found: Vec<Vec<i64>> = slice
                .shifts
                .as_ref()
                .unwrap()
                .exact
                .iter()
                .map(|e| e.rule.shift.clone())
                .collect();
            found.sort();
            assert_eq!(found, exact, "y = {y}");
            let (_, bad) =
                brute_exceptions(&all, |x, y, z| ((x + 1) ^ y ^ (z + 1)) == 0, |p| p[1] == y);
            assert_eq!(slice.rules[0].exceptions(), bad.len() as u64, "y = {y}");
            assert_eq!(slice.rules[0].holds(), bad.is_empty(), "y = {y}");
            if y <= 4 {
                assert_eq!(slice.rules[0].holds(), y <= 3, "y = {y}");
            }
        }
    }

    #[test]
    fn slices_across_the_lines_are_the_same_as_along_them() {
        // Per x (across the capped game's lines along y): counts and exceptions by brute force.
        let k = 3;
        let n = 30;
        let all = brute(k, n);
        let rule = |x: i64, y: i64, z: i64| ((x + 1) ^ y ^ (z + 1)) == 0;
        let report = run(
            k,
            n,
            finders(true, false),
            opts(&["(x+1)^y^(z+1) == 0"], None, Some("x"), None),
        );
        let per = report.claims.per.as_ref().unwrap();
        assert_eq!(per.slices.len(), n as usize + 1);
        for slice in &per.slices {
            let x = slice.value;
            let (checked, bad) = brute_exceptions(&all, rule, |p| p[0] == x);
            assert_eq!(slice.positions, checked, "x = {x}");
            assert_eq!(slice.rules[0].positions, checked, "x = {x}");
            assert_eq!(slice.rules[0].exceptions(), bad.len() as u64, "x = {x}");
            let listed: Vec<Vec<u32>> = slice.rules[0]
                .listed
                .iter()
                .map(|e| e.position.clone())
                .collect();
            assert_eq!(
                listed,
                bad.into_iter().take(5).collect::<Vec<_>>(),
                "x = {x}"
            );
        }
    }

    #[test]
    fn changed_coordinates_carry_every_position_and_its_value() {
        let k = 2;
        let n = 20;
        let all = brute(k, n);
        let report = run(
            k,
            n,
            finders(true, true),
            opts(&[], None, None, Some("u = x - k*y, w = z - k*y")),
        );
        assert_eq!(report.names, vec!["u", "y", "w"]);
        assert_eq!(report.lines.positions, all.len() as u64);
        // The P-positions are the images of the P-positions.
        let mut images: Vec<Vec<u32>> = all
            .iter()
            .filter(|(_, g)| *g == 0)
            .map(|(p, _)| vec![p[0] - 2 * p[1], p[1], p[2] - 2 * p[1]])
            .collect();
        images.sort();
        let mut ps: Vec<Vec<u32>> = report
            .lines
            .segments()
            .flat_map(|s| s.p.iter().map(move |&t| s.point(1, t)))
            .collect();
        ps.sort();
        assert_eq!(ps, images);
        // Grundy = u^y^w counted position by position.
        let bad = all
            .iter()
            .filter(|(p, g)| u32::from(*g) != (p[0] - 2 * p[1]) ^ p[1] ^ (p[2] - 2 * p[1]))
            .count() as u64;
        assert_eq!(report.nim_sum.as_ref().unwrap().exceptions, bad);
        // Not one-to-one, or negative: refused with one line.
        let family = CapFamily::new("floor(min(x,z)/k)", "k").unwrap();
        let options = SurveyOptions {
            game_box: SurveyBox::fixed(&GameBox::Uniform(6)),
            finders: finders(true, false),
            listed: 5,
            memory_limit: LIMIT,
        };
        for (coords, says) in [
            ("u = x - 3*y", "must be >= 0"),
            ("u = x - x", "one-to-one"),
            ("q = 7", "names no coordinate"),
        ] {
            let e = survey_with_claims(
                &family,
                &[2],
                &options,
                &opts(&[], None, None, Some(coords)),
                &Control::default(),
            )
            .unwrap_err()
            .to_string();
            assert!(e.contains(says) && e.contains("`coords`"), "{coords}: {e}");
        }
    }

    #[test]
    fn lists_split_at_top_level_commas_only() {
        assert_eq!(
            split_list("x^y == 0, floor(min(x, z)/2) == y; y <= 3"),
            vec!["x^y == 0", "floor(min(x, z)/2) == y", "y <= 3"]
        );
        assert_eq!(split_list(" , "), Vec::<String>::new());
    }
}
