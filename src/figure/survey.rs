//! A conjecture survey as a report: a Markdown page with a table of parameter ×
//! finding and a small figure per value, JSON and CSV for scripts, and a text
//! summary. Every line that says "holds" names the box it holds in.
//!
//! The figure of a value draws its P-positions (a three-heap game projected to
//! `(y, x − z)`, the Sierpinski sieve of Miyadera et al.; a two-heap game as
//! they lie) and marks the smallest exceptions of the best failing rule in a
//! contrasting colour with a ring around each, so they stand out in greyscale
//! too.

use plotters::prelude::*;

use crate::scene::chart::{chart_error, plotting_rect, whole_tick, SceneBackend};
use crate::scene::color::{okabe_ito, INK};
use crate::scene::legend::KeyBlock;
use crate::scene::{CellLayer, Color, PathItem, Scene, TextItem};
use crate::survey::claims::RuleCheck;
use crate::survey::rules::{Exception, RuleSearch};
use crate::survey::GameFamily;
use crate::survey::ValueReport;
use crate::Result;

/// A survey run: the family, the values and what each showed.
pub struct SurveyReport {
    /// The family, e.g. `cap floor((x+z)^2/k)`.
    pub family: String,
    /// The parameter's name.
    pub parameter: String,
    /// The box as given (`64`: x, z up to 64, y up to the cap).
    pub game_box: String,
    /// One report per value, in the order asked.
    pub values: Vec<ValueReport>,
}

impl SurveyReport {
    /// Wraps what [`crate::survey::survey`] returned.
    pub fn new(family: &dyn GameFamily, game_box: String, values: Vec<ValueReport>) -> Self {
        SurveyReport {
            family: family.label(),
            parameter: family.parameter().to_string(),
            game_box,
            values,
        }
    }
}

/// A position as `(1, 0, 1)`.
fn point(p: &[u32]) -> String {
    let parts: Vec<String> = p.iter().map(u32::to_string).collect();
    format!("({})", parts.join(", "))
}

/// The box as `0..64 × 0..4096 × 0..64`.
pub fn box_text(v: &ValueReport) -> String {
    let parts: Vec<String> = v
        .names
        .iter()
        .zip(&v.bounds)
        .map(|(n, b)| format!("{n} ≤ {b}"))
        .collect();
    parts.join(", ")
}

/// One finding of a rule family, in words.
fn rule_finding(v: &ValueReport, search: &RuleSearch) -> String {
    let formulas: Vec<String> = search
        .formulas()
        .map(|e| e.rule.formula(&v.names))
        .collect();
    let artefacts: Vec<String> = search
        .artefacts()
        .map(|e| e.rule.formula(&v.names))
        .collect();
    let mut text = if !formulas.is_empty() {
        let mut t = format!("holds: P iff {}", formulas[0]);
        if formulas.len() > 1 {
            t.push_str(&format!(
                " (also exact in this box: {})",
                formulas[1..].join("; ")
            ));
        }
        t
    } else {
        match &search.best {
            Some(best) => {
                let first = best.listed.first().map(exception_text).unwrap_or_default();
                let beyond = match v.beyond(best.threshold) {
                    Some(t) => format!("; holds for every position with largest coordinate ≥ {t}"),
                    None => String::new(),
                };
                format!(
                    "fails: best {} has {} exceptions, smallest {first}{beyond}",
                    best.rule.formula(&v.names),
                    best.exceptions()
                )
            }
            None => "no rule tried".to_string(),
        }
    };
    if !artefacts.is_empty() {
        text.push_str(&format!(
            "; artefacts (exact only through negative values and points outside the game): {}",
            artefacts.join("; ")
        ));
    }
    text
}

fn exception_text(e: &Exception) -> String {
    let kind = if e.is_p { "P breaks it" } else { "N fits it" };
    format!("{} ({kind})", point(&e.position))
}

/// The Grundy-vs-nim-sum finding in words.
fn nim_sum_finding(v: &ValueReport) -> Option<String> {
    let fit = v.nim_sum.as_ref()?;
    let xor = v.names.join("^");
    Some(if fit.exceptions == 0 {
        format!("holds: grundy = {xor} at all {} positions", fit.positions)
    } else {
        let first = fit.listed.first().map_or(String::new(), |e| {
            format!(
                ", smallest {} (grundy {}, {xor} = {})",
                point(&e.position),
                e.grundy,
                e.nim_sum
            )
        });
        let beyond = match v.beyond(fit.threshold) {
            Some(t) => format!("; holds for every position with largest coordinate ≥ {t}"),
            None => String::new(),
        };
        format!(
            "fails at {} of {} positions{first}{beyond}",
            fit.exceptions, fit.positions
        )
    })
}

/// The periodicity finding in words.
fn period_finding(v: &ValueReport) -> Option<String> {
    let axes = v.periods.as_ref()?;
    let parts: Vec<String> = axes
        .iter()
        .map(|a| {
            let common = a
                .common
                .first()
                .map(|((p, s), n)| format!(", most often period {p} saltus {s} ({n})"))
                .unwrap_or_default();
            let first_not = a
                .not_periodic
                .first()
                .map(|p| format!(", first without: from {}", point(p)))
                .unwrap_or_default();
            format!(
                "along {}: {}/{} lines periodic ({} with saltus ≠ 0), pre-period ≤ {}, period ≤ {}{common}{first_not}",
                v.names[a.axis], a.periodic, a.lines, a.arithmetic, a.max_preperiod, a.max_period
            )
        })
        .collect();
    Some(parts.join("; "))
}

/// The exceptions a value's figure marks: those of the best failing shift rule,
/// else of the best failing constant rule; none when a formula holds.
pub fn marked(v: &ValueReport) -> Option<(String, &[Exception])> {
    for search in [v.shifts.as_ref(), v.constants.as_ref()]
        .into_iter()
        .flatten()
    {
        if search.formulas().next().is_some() {
            return None;
        }
        if let Some(best) = &search.best {
            return Some((best.rule.formula(&v.names), &best.listed));
        }
    }
    None
}

/// The findings of one value as `(name, text)` rows: the finders', then each
/// rule of one's own (`rule (x+1)^y^(z+1) == 0`).
pub fn findings(v: &ValueReport) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    if let Some(s) = &v.shifts {
        rows.push(("shifted nim-sum".to_string(), rule_finding(v, s)));
    }
    if let Some(s) = &v.constants {
        rows.push(("nim-sum constant".to_string(), rule_finding(v, s)));
    }
    if let Some(t) = nim_sum_finding(v) {
        rows.push(("grundy = nim-sum".to_string(), t));
    }
    if let Some(t) = period_finding(v) {
        rows.push(("periods".to_string(), t));
    }
    for check in &v.claims.rules {
        rows.push((format!("rule {}", check.rule), own_rule_finding(v, check)));
    }
    rows
}

/// A rule of one's own in words: "holds: P iff ... at all N positions", or its
/// exceptions, the smallest first, and where it holds beyond.
pub fn own_rule_finding(v: &ValueReport, check: &RuleCheck) -> String {
    let claim = if check.grundy {
        format!("grundy = {}", check.rule)
    } else {
        format!("P iff {}", check.rule)
    };
    if check.holds() {
        return format!("holds: {claim} at all {} positions", check.positions);
    }
    let first = check.listed.first().map_or(String::new(), |e| {
        let what = match (e.grundy, e.predicted) {
            (Some(g), Some(p)) => format!("grundy {g}, rule {p}"),
            _ if e.is_p => "P breaks it".to_string(),
            _ => "N fits it".to_string(),
        };
        format!(", smallest {} ({what})", point(&e.position))
    });
    let beyond = match v.beyond(check.threshold) {
        Some(t) => format!("; holds for every position with largest coordinate ≥ {t}"),
        None => String::new(),
    };
    let kinds = if check.grundy {
        String::new()
    } else {
        format!(
            " ({} P break it, {} N fit it)",
            check.p_breaking, check.n_satisfying
        )
    };
    format!(
        "fails: {claim} at {} of {} positions{kinds}{first}{beyond}",
        check.exceptions(),
        check.positions
    )
}

/// The region and the changed coordinates, as lines for a report's header.
pub fn claims_header(v: &ValueReport) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(region) = &v.claims.region {
        lines.push(format!(
            "region: only positions with {region} (every finding and count is about them)"
        ));
    }
    if let Some(coords) = &v.claims.coords {
        let defs: Vec<String> = coords
            .iter()
            .map(|(n, d)| {
                if n == d {
                    n.clone()
                } else {
                    format!("{n} = {d}")
                }
            })
            .collect();
        lines.push(format!(
            "coordinates: {} (the box and every finding in these)",
            defs.join(", ")
        ));
    }
    lines
}

/// The shift family's fit on one slice, in a few words.
fn slice_shift_text(v: &ValueReport, search: &RuleSearch) -> String {
    if let Some(e) = search.formulas().next() {
        let also = search.formulas().count() - 1;
        let formula = e.rule.formula(&v.names);
        if also > 0 {
            format!("{formula} (+{also} also exact)")
        } else {
            formula
        }
    } else if let Some(best) = &search.best {
        format!(
            "none exact; best {} with {} exceptions",
            best.rule.formula(&v.names),
            best.exceptions()
        )
    } else {
        "none exact".to_string()
    }
}

fn slice_rule_text(check: &RuleCheck) -> String {
    if check.holds() {
        "holds".to_string()
    } else {
        let first = check.listed.first().map_or(String::new(), |e| {
            format!(", smallest {}", point(&e.position))
        });
        format!("{} exceptions{first}", check.exceptions())
    }
}

/// The per-slice fits as a table: a header row and one row per slice.
pub fn per_slice_table(v: &ValueReport) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    let per = v.claims.per.as_ref()?;
    let mut header = vec![per.name.clone(), "positions".to_string(), "P".to_string()];
    let with_shifts = per.slices.iter().any(|s| s.shifts.is_some());
    if with_shifts {
        header.push("fitted shifted nim-sum".to_string());
    }
    for check in &v.claims.rules {
        header.push(format!("rule {}", check.rule));
    }
    let rows = per
        .slices
        .iter()
        .map(|s| {
            let mut row = vec![
                s.value.to_string(),
                s.positions.to_string(),
                s.p_count.to_string(),
            ];
            if with_shifts {
                row.push(
                    s.shifts
                        .as_ref()
                        .map_or(String::new(), |r| slice_shift_text(v, r)),
                );
            }
            row.extend(s.rules.iter().map(slice_rule_text));
            row
        })
        .collect();
    Some((header, rows))
}

/// The text summary printed without `-o`.
pub fn text(report: &SurveyReport) -> String {
    let mut out = format!(
        "survey of {} over {}; every finding is a claim about the box shown only\n",
        report.family, report.parameter
    );
    for v in &report.values {
        out.push_str(&format!(
            "{}={}  box {}: {} positions, {} P\n",
            report.parameter,
            v.value,
            box_text(v),
            v.lines.positions,
            v.lines.p_count
        ));
        for line in claims_header(v) {
            out.push_str(&format!("  {line}\n"));
        }
        for (name, text) in findings(v) {
            out.push_str(&format!("  {name}: {text}\n"));
        }
        if let Some((header, rows)) = per_slice_table(v) {
            out.push_str(&format!("  per {}: {}\n", header[0], header.join(" | ")));
            for row in rows {
                out.push_str(&format!("    {}\n", row.join(" | ")));
            }
        }
    }
    out
}

/// Escapes a table cell of Markdown.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The Markdown page; `figures[i]` is the file name of value `i`'s figure (next
/// to the page), if it has one.
pub fn markdown(report: &SurveyReport, figures: &[Option<String>], command: &str) -> String {
    let mut out = format!("# Survey: {} over {}\n\n", report.family, report.parameter);
    out.push_str(&format!(
        "Made by `{command}`.\n\nEvery finding below is a claim about **the box named in its row only** \
         (`box` {}): a rule that holds there may fail in a larger box. \"Holds beyond T\" means every \
         exception has all coordinates below T and the rule fits every other position of the box. \
         Artefacts are shifts exact in the box only through negative (two's-complement) values and \
         points outside the game; see docs/survey.md in nimscape for the definitions.\n\n",
        report.game_box
    ));
    let names: Vec<String> = report
        .values
        .first()
        .map(|v| findings(v).into_iter().map(|(n, _)| n).collect())
        .unwrap_or_default();
    out.push_str(&format!("| {} | box | positions | P |", report.parameter));
    for n in &names {
        out.push_str(&format!(" {} |", cell(n)));
    }
    out.push_str("\n|---|---|---|---|");
    for _ in &names {
        out.push_str("---|");
    }
    out.push('\n');
    for v in &report.values {
        out.push_str(&format!(
            "| {} | {} | {} | {} |",
            v.value,
            cell(&box_text(v)),
            v.lines.positions,
            v.lines.p_count
        ));
        for (_, text) in findings(v) {
            out.push_str(&format!(" {} |", cell(&text)));
        }
        out.push('\n');
    }
    out.push('\n');
    for (v, figure) in report.values.iter().zip(figures) {
        out.push_str(&format!(
            "## {} = {}: {}\n\n",
            report.parameter, v.value, v.game
        ));
        out.push_str(&format!("Box: {}.\n\n", box_text(v)));
        for line in claims_header(v) {
            out.push_str(&format!("* {line}\n"));
        }
        for (name, text) in findings(v) {
            out.push_str(&format!("* **{name}**: {text}\n"));
        }
        if let Some((header, rows)) = per_slice_table(v) {
            out.push_str(&format!("\nPer slice of {}:\n\n", header[0]));
            out.push_str(&format!(
                "| {} |\n|{}\n",
                header
                    .iter()
                    .map(|h| cell(h))
                    .collect::<Vec<_>>()
                    .join(" | "),
                "---|".repeat(header.len())
            ));
            for row in rows {
                out.push_str(&format!(
                    "| {} |\n",
                    row.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | ")
                ));
            }
            out.push('\n');
        }
        if let Some((rule, listed)) = marked(v) {
            let list: Vec<String> = listed.iter().map(exception_text).collect();
            out.push_str(&format!(
                "* smallest exceptions of {rule}: {}\n",
                list.join(", ")
            ));
        }
        if let Some(file) = figure {
            out.push_str(&format!(
                "\n![P-positions of {} = {}, exceptions marked]({file})\n",
                report.parameter, v.value
            ));
        }
        out.push('\n');
    }
    out
}

/// The report as JSON.
pub fn json(report: &SurveyReport) -> serde_json::Value {
    use serde_json::json;
    let rules = |v: &ValueReport, s: &RuleSearch| {
        json!({
            "candidates": s.candidates,
            "holds": s.formulas().next().is_some(),
            "formulas": s.formulas().map(|e| json!({
                "rule": e.rule.formula(&v.names),
                "shift": e.rule.shift,
                "constant": e.rule.constant,
                "regular_witnesses": e.regular,
                "witnesses_through_negatives": e.through_negatives,
                "vacuous_lines": e.vacuous_lines,
            })).collect::<Vec<_>>(),
            "artefacts": s.artefacts().map(|e| json!({
                "rule": e.rule.formula(&v.names),
                "shift": e.rule.shift,
                "constant": e.rule.constant,
                "witnesses_through_negatives": e.through_negatives,
                "vacuous_lines": e.vacuous_lines,
            })).collect::<Vec<_>>(),
            "best_failing": s.best.as_ref().map(|b| json!({
                "rule": b.rule.formula(&v.names),
                "shift": b.rule.shift,
                "constant": b.rule.constant,
                "exceptions": b.exceptions(),
                "p_breaking": b.p_breaking,
                "n_satisfying": b.n_satisfying,
                "threshold": b.threshold,
                "holds_beyond": v.beyond(b.threshold),
                "smallest_exceptions": b.listed.iter().map(|e| json!({
                    "position": e.position, "is_p": e.is_p,
                })).collect::<Vec<_>>(),
            })),
        })
    };
    let values: Vec<serde_json::Value> = report
        .values
        .iter()
        .map(|v| {
            json!({
                "value": v.value,
                "game": v.game,
                "coordinates": v.names,
                "box": v.bounds,
                "positions": v.lines.positions,
                "p_positions": v.lines.p_count,
                "shifted_nim_sum": v.shifts.as_ref().map(|s| rules(v, s)),
                "nim_sum_constant": v.constants.as_ref().map(|s| rules(v, s)),
                "grundy_equals_nim_sum": v.nim_sum.as_ref().map(|f| json!({
                    "positions": f.positions,
                    "exceptions": f.exceptions,
                    "holds": f.exceptions == 0,
                    "threshold": f.threshold,
                    "holds_beyond": v.beyond(f.threshold),
                    "smallest_exceptions": f.listed.iter().map(|e| json!({
                        "position": e.position, "grundy": e.grundy, "nim_sum": e.nim_sum,
                    })).collect::<Vec<_>>(),
                })),
                "periods": v.periods.as_ref().map(|axes| axes.iter().map(|a| json!({
                    "axis": v.names[a.axis],
                    "lines": a.lines,
                    "periodic": a.periodic,
                    "with_saltus": a.arithmetic,
                    "max_preperiod": a.max_preperiod,
                    "max_period": a.max_period,
                    "common": a.common.iter().map(|((p, s), n)| json!({"period": p, "saltus": s, "lines": n})).collect::<Vec<_>>(),
                    "first_not_periodic": a.not_periodic,
                })).collect::<Vec<_>>()),
                "claims": claims_json(v, &rules),
            })
        })
        .collect();
    json!({
        "family": report.family,
        "parameter": report.parameter,
        "box": report.game_box,
        "claims": "every finding holds or fails in its value's box only",
        "values": values,
    })
}

/// A rule of one's own as JSON.
fn rule_check_json(v: &ValueReport, check: &RuleCheck) -> serde_json::Value {
    serde_json::json!({
        "rule": check.rule,
        "claim": if check.grundy { "grundy" } else { "p-positions" },
        "positions": check.positions,
        "holds": check.holds(),
        "exceptions": check.exceptions(),
        "p_breaking": check.p_breaking,
        "n_satisfying": check.n_satisfying,
        "threshold": check.threshold,
        "holds_beyond": v.beyond(check.threshold),
        "smallest_exceptions": check.listed.iter().map(|e| serde_json::json!({
            "position": e.position,
            "is_p": e.is_p,
            "grundy": e.grundy,
            "rule_value": e.predicted,
        })).collect::<Vec<_>>(),
    })
}

/// What the claim-language options found for one value, as JSON: `region`,
/// `coordinates`, `rules` and `per` (each `null` or empty when not asked).
fn claims_json(
    v: &ValueReport,
    rules: &dyn Fn(&ValueReport, &RuleSearch) -> serde_json::Value,
) -> serde_json::Value {
    use serde_json::json;
    let c = &v.claims;
    json!({
        "region": c.region,
        "coordinates": c.coords.as_ref().map(|cs| cs.iter().map(|(n, d)| json!({
            "name": n, "definition": d,
        })).collect::<Vec<_>>()),
        "rules": c.rules.iter().map(|r| rule_check_json(v, r)).collect::<Vec<_>>(),
        "per": c.per.as_ref().map(|per| json!({
            "coordinate": per.name,
            "slices": per.slices.iter().map(|s| json!({
                "value": s.value,
                "positions": s.positions,
                "p_positions": s.p_count,
                "shifted_nim_sum": s.shifts.as_ref().map(|r| rules(v, r)),
                "rules": s.rules.iter().map(|r| rule_check_json(v, r)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })),
    })
}

/// The report as CSV: one row per value and finding.
pub fn csv(report: &SurveyReport) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut out = format!("{},box,finding,holds,result\n", report.parameter);
    for v in &report.values {
        let bounds: Vec<String> = v.bounds.iter().map(u32::to_string).collect();
        for (name, text) in findings(v) {
            let holds = text.starts_with("holds");
            out.push_str(&format!(
                "{},{},{},{},{}\n",
                v.value,
                quote(&bounds.join("x")),
                quote(&name),
                holds,
                quote(&text)
            ));
        }
    }
    out
}

/// The narrowest survey figure: room for its title and key.
const MIN_FIGURE_WIDTH: u32 = 400;

/// Figures larger than this many cells a side are left out (the page says so).
pub const MAX_FIGURE_CELLS: usize = 1024;

/// The figure of one value: P-positions, the marked exceptions in vermillion
/// with rings, and a key. `None` for games of more than three coordinates, or
/// when the P-positions spread wider than [`MAX_FIGURE_CELLS`].
pub fn value_scene(v: &ValueReport, parameter: &str) -> Result<Option<Scene>> {
    let dims = v.names.len();
    if !(2..=3).contains(&dims) {
        return Ok(None);
    }
    let axis = v.lines.axis;
    let p_points = v
        .lines
        .segments()
        .flat_map(|s| s.p.iter().map(move |&t| s.point(axis, t)));
    let marked = marked(v);
    let marks: Vec<Vec<u32>> = marked
        .as_ref()
        .map(|(_, l)| l.iter().map(|e| e.position.clone()).collect())
        .unwrap_or_default();
    // (across, up) of a position.
    let project = |p: &[u32]| -> (i64, i64) {
        if dims == 3 {
            (i64::from(p[1]), i64::from(p[0]) - i64::from(p[2]))
        } else {
            (i64::from(p[0]), i64::from(p[1]))
        }
    };
    let p_cells: Vec<(i64, i64)> = p_points.map(|p| project(&p)).collect();
    let mark_cells: Vec<(i64, i64)> = marks.iter().map(|p| project(p)).collect();
    let all = p_cells.iter().chain(&mark_cells);
    let (mut a0, mut a1, mut u0, mut u1) = (0i64, 1i64, 0i64, 1i64);
    for &(a, u) in all {
        a0 = a0.min(a);
        a1 = a1.max(a);
        u0 = u0.min(u);
        u1 = u1.max(u);
    }
    if dims == 3 {
        u0 = u0.min(-1);
    }
    let (cols, rows) = ((a1 - a0 + 1) as usize, (u1 - u0 + 1) as usize);
    if cols > MAX_FIGURE_CELLS || rows > MAX_FIGURE_CELLS {
        return Ok(None);
    }
    let mut indices = vec![0u8; rows * cols];
    let at = |(a, u): (i64, i64)| (u1 - u) as usize * cols + (a - a0) as usize;
    for &c in &p_cells {
        indices[at(c)] = 1;
    }
    for &c in &mark_cells {
        indices[at(c)] = 2;
    }

    let width = 560u32;
    // A screen figure at the type scale of its narrowest (a tall pattern
    // narrows the figure to it): ticks, axis names and key alike.
    let scale = crate::scene::TypeScale::new(f64::from(MIN_FIGURE_WIDTH), false);
    let label_size = scale.size(crate::scene::Role::Tick);
    let title = format!("{parameter} = {}: P-positions", v.value);
    let (across, up) = if dims == 3 {
        (
            v.names[1].clone(),
            format!("{} − {}", v.names[0], v.names[2]),
        )
    } else {
        (v.names[0].clone(), v.names[1].clone())
    };
    let left = (label_size * 4.2).ceil() as u32;
    let bottom = (label_size * 4.0).ceil() as u32;
    let top = (label_size * 2.6).ceil() as u32;
    let right = (label_size * 1.5) as u32;
    let room = f64::from(width - left - right);
    // A tall pattern may be a little taller than wide; the figure then narrows
    // to it rather than leave a third of its width blank.
    let cell = (room / cols as f64)
        .min(room * 1.25 / rows as f64)
        .clamp(1.0, 24.0)
        .floor();
    let plot_w = ((cols as f64 * cell) as u32).max(1);
    let plot_h = ((rows as f64 * cell) as u32).max(1);
    let mark_colour = okabe_ito::VERMILLION;
    let mut entries = vec![(okabe_ito::BLUE, "P-position".to_string())];
    if let Some((rule, _)) = &marked {
        entries.push((
            mark_colour,
            // As the papers set it: ⊕ for XOR, a minus sign.
            format!(
                "smallest exceptions of {} (ringed)",
                rule.replace('^', " ⊕ ").replace('-', "\u{2212}")
            ),
        ));
    }
    let chart_w = left + plot_w + right;
    let width = chart_w.max(MIN_FIGURE_WIDTH);
    let key = KeyBlock::new(&entries, label_size, f64::from(width) - 16.0);
    let key_h = key.as_ref().map_or(0, |k| k.height);
    let height = top + plot_h + bottom + key_h;
    // The chart is centred; its title is centred over the plot, not the canvas.
    let x_off = (width - chart_w) / 2;
    let mut scene = Scene::new(width, height, Color::WHITE);
    let title_size = scale.size(crate::scene::Role::Title);
    scene.push(
        TextItem::centered(
            f64::from(x_off + left) + f64::from(plot_w) / 2.0,
            title_size * 1.35,
            title,
            title_size,
            INK,
        )
        .with_role(crate::scene::Role::Title),
    );
    let first_plotted = scene.items.len();
    let area;
    {
        let root = SceneBackend::new(&mut scene).into_drawing_area();
        let ink = RGBColor(0x22, 0x22, 0x22);
        let sub = root
            .clone()
            .shrink((x_off, top), (plot_w + left, plot_h + bottom));
        let mut chart = ChartBuilder::on(&sub)
            .x_label_area_size(bottom)
            .y_label_area_size(left)
            .build_cartesian_2d(
                a0 as f64 - 0.5..a1 as f64 + 0.5,
                u0 as f64 - 0.5..u1 as f64 + 0.5,
            )
            .map_err(chart_error)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(across.as_str())
            .y_desc(up.as_str())
            .x_labels(((f64::from(plot_w) / (label_size * 3.0)) as usize).clamp(2, 10))
            .y_labels(((f64::from(plot_h) / (label_size * 2.0)) as usize).clamp(2, 10))
            .label_style(("sans-serif", label_size).into_font().color(&ink))
            .axis_desc_style(
                ("sans-serif", scale.size(crate::scene::Role::AxisName))
                    .into_font()
                    .color(&ink),
            )
            .x_label_formatter(&|v| whole_tick(*v))
            .y_label_formatter(&|v| whole_tick(*v))
            .draw()
            .map_err(chart_error)?;
        area = plotting_rect(chart.plotting_area().get_pixel_range());
        root.present().map_err(chart_error)?;
    }
    crate::scene::chart::tag_roles(
        &mut scene,
        first_plotted,
        &[across.as_str(), up.as_str()],
        &[],
    );
    let layer = CellLayer {
        rect: area,
        rows,
        cols,
        indices,
        palette: vec![Color::TRANSPARENT, okabe_ito::BLUE, mark_colour],
        grid_line: None,
    };
    // A ring around each marked cell: the marks differ from P-positions by shape
    // as well as by colour, which survives greyscale and colour blindness.
    let rings: Vec<PathItem> = mark_cells
        .iter()
        .map(|&c| {
            let k = at(c);
            let (r, q) = (k / cols, k % cols);
            let w = f64::from(layer.col_edge(q + 1) - layer.col_edge(q));
            let h = f64::from(layer.row_edge(r + 1) - layer.row_edge(r));
            // Inside a large cell (neighbouring rings never cross), around a small one
            // (so that it shows at all).
            let pad = if w.min(h) >= 8.0 {
                -w.min(h) * 0.22
            } else {
                2.5
            };
            let x = f64::from(area.x + layer.col_edge(q)) - pad;
            let y = f64::from(area.y + layer.row_edge(r)) - pad;
            let (w, h) = (w + 2.0 * pad, h + 2.0 * pad);
            PathItem::rect(x, y, w, h).stroked(INK, 1.5)
        })
        .collect();
    scene.push(layer);
    for ring in rings {
        scene.push(ring);
    }
    if let Some(key) = key {
        key.draw(
            &mut scene,
            f64::from(width) / 2.0,
            f64::from(top + plot_h + bottom),
            INK,
        );
    }
    Ok(Some(scene))
}
