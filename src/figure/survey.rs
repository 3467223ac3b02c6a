//! A conjecture survey as a report: a Markdown page with a table of parameter ×
//! finding and a small figure per value, JSON and CSV for scripts, a LaTeX
//! table for a paper, and a text summary. Every line that says "holds" names
//! the box it holds in, as far as the game really reaches in it.
//!
//! The figure of a value draws its P-positions (a three-heap game projected to
//! `(y, x − z)`, the Sierpinski sieve of Miyadera et al., or one slice as it
//! lies; a two-heap game as it lies) and marks the smallest exceptions of the
//! best failing rule by shape: a square ring where a P-position breaks the
//! rule, a diamond where an N-position fits it, so the two kinds differ in
//! greyscale and for every colour vision.

use plotters::prelude::*;

use crate::library::scene::chart::{chart_error, plotting_rect, whole_tick, SceneBackend};
use crate::library::scene::color::{okabe_ito, INK};
use crate::library::scene::legend::{KeyBlock, Swatch};
use crate::library::scene::{CellLayer, Color, PathItem, Scene, TextItem};
use crate::prove::survey::SurveyProof;
use crate::survey::claims::RuleCheck;
use crate::survey::rules::{Exception, RuleSearch};
use crate::survey::ValueReport;
use crate::survey::{Finder, GameFamily};
use crate::Result;

/// A survey run: the family, the values and what each showed.
pub struct SurveyReport {
    /// The family, e.g. `cap floor((x+z)**2/k)`.
    pub family: String,
    /// The parameter's name.
    pub parameter: String,
    /// The box as given (`64`: x, z up to 64, y up to the cap).
    pub game_box: String,
    /// One report per value, in the order asked.
    pub values: Vec<ValueReport>,
    /// How each value's figure is drawn.
    pub view: FigureView,
    /// The figures' print: resolution, exact width, typeface.
    pub style: crate::library::scene::units::PrintStyle,
    /// With `--prove`: per value, each rule that holds in its box and its proof.
    pub proofs: Option<Vec<Vec<SurveyProof>>>,
}

impl SurveyReport {
    /// Wraps what [`crate::survey::survey`] returned.
    pub fn new(family: &dyn GameFamily, game_box: String, values: Vec<ValueReport>) -> Self {
        SurveyReport {
            family: family.label(),
            parameter: family.parameter().to_string(),
            game_box,
            values,
            view: FigureView::default(),
            style: crate::library::scene::units::PrintStyle::default(),
            proofs: None,
        }
    }
}

/// A position as `(1, 0, 1)`.
fn point(p: &[u32]) -> String {
    let parts: Vec<String> = p.iter().map(u32::to_string).collect();
    format!("({})", parts.join(", "))
}

/// The box as each coordinate really spans it: `x 0..40, y 0..3 (box ≤ 40),
/// z 0..40`. The span is over the positions of the game in the box; the bound
/// is added where the game reaches less far (a cap lets `y` reach only 3).
pub fn box_text(v: &ValueReport) -> String {
    let parts: Vec<String> = v
        .names
        .iter()
        .zip(&v.bounds)
        .zip(&v.reach)
        .map(|((n, b), (lo, hi))| {
            if hi < b {
                format!("{n} {lo}..{hi} (box ≤ {b})")
            } else {
                format!("{n} {lo}..{hi}")
            }
        })
        .collect();
    parts.join(", ")
}

/// The warning a claim carries when a coordinate spans only a few values:
/// `y spans only 0..3 in this box: the rule says nothing about larger y`.
pub fn narrow_warning(v: &ValueReport, what: &str) -> Option<String> {
    let narrow = v.narrow();
    if narrow.is_empty() {
        return None;
    }
    let spans: Vec<String> = narrow
        .iter()
        .map(|(n, lo, hi)| format!("{n} spans only {lo}..{hi}"))
        .collect();
    let names: Vec<&str> = narrow.iter().map(|(n, _, _)| *n).collect();
    Some(format!(
        "{} in this box: {what} says nothing about larger {}",
        spans.join(" and "),
        names.join(" or ")
    ))
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
        if let Some(w) = narrow_warning(v, "the rule") {
            t.push_str(&format!(" (warning: {w})"));
        }
        t
    } else {
        match &search.best {
            Some(best) => {
                let first = best.listed.first().map(exception_text).unwrap_or_default();
                let beyond = match v.rule_beyond(best) {
                    Some(t) => {
                        let warning = narrow_warning(v, "the rule")
                            .map(|w| format!(" (warning: {w})"))
                            .unwrap_or_default();
                        format!("; holds for every position with largest coordinate ≥ {t}{warning}")
                    }
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
    let warning = || {
        narrow_warning(v, "the rule")
            .map(|w| format!(" (warning: {w})"))
            .unwrap_or_default()
    };
    Some(if fit.exceptions == 0 {
        format!(
            "holds: grundy = {xor} at all {} positions{}",
            fit.positions,
            warning()
        )
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
            Some(t) => format!(
                "; holds for every position with largest coordinate ≥ {t}{}",
                warning()
            ),
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
    best_failing(v).map(|best| (best.rule.formula(&v.names), best.listed.as_slice()))
}

/// The rule whose exceptions a figure marks (see [`marked`]).
fn best_failing(v: &ValueReport) -> Option<&crate::survey::rules::RuleFit> {
    for search in [v.shifts.as_ref(), v.constants.as_ref()]
        .into_iter()
        .flatten()
    {
        if search.formulas().next().is_some() {
            return None;
        }
        if let Some(best) = &search.best {
            return Some(best);
        }
    }
    None
}

/// How many exceptions a figure marks of how many the rule has in the box, as
/// its title says it: a figure marks the smallest `list` only.
fn marked_count_text(v: &ValueReport, plot: &SurveyPlot, marks_drawn: usize) -> Option<String> {
    let best = best_failing(v)?;
    let (total, listed) = (best.exceptions(), best.listed.len() as u64);
    let plural = |n: u64| if n == 1 { "exception" } else { "exceptions" };
    Some(match plot {
        SurveyPlot::Slice(..) if listed == total => {
            format!("all {marks_drawn} of its exceptions marked ({total} in the box)")
        }
        SurveyPlot::Slice(..) => format!(
            "{marks_drawn} marked (of the smallest {listed} of {total} {})",
            plural(total)
        ),
        _ if listed == total => format!("all {total} {} marked", plural(total)),
        _ => format!(
            "{listed} of {total} {} marked (the smallest)",
            plural(total)
        ),
    })
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
    for (finder, why) in &v.skipped {
        rows.push((finder_name(*finder).to_string(), why.clone()));
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

/// A skippable finder's row name, as [`findings`] names it.
fn finder_name(f: Finder) -> &'static str {
    match f {
        Finder::NimSum => "grundy = nim-sum",
        Finder::Period => "periods",
    }
}

/// The text summary printed without `-o`.
pub fn text(report: &SurveyReport) -> String {
    let mut out = format!(
        "survey of {} over {}; every finding is a claim about the box shown only\n",
        report.family, report.parameter
    );
    for (i, v) in report.values.iter().enumerate() {
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
        if let Some(w) = narrow_warning(v, "a rule that holds") {
            out.push_str(&format!("  warning: {w}\n"));
        }
        for (name, text) in findings(v) {
            out.push_str(&format!("  {name}: {text}\n"));
        }
        for line in proof_lines(report, i) {
            out.push_str(&format!("  {line}\n"));
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

/// The proofs of value `i`: empty without `--prove`.
fn proofs_at(report: &SurveyReport, i: usize) -> &[SurveyProof] {
    report
        .proofs
        .as_ref()
        .and_then(|p| p.get(i))
        .map_or(&[], Vec::as_slice)
}

/// Value `i`'s proofs in words, one line each (none without `--prove`).
pub fn proof_lines(report: &SurveyReport, i: usize) -> Vec<String> {
    if report.proofs.is_none() {
        return Vec::new();
    }
    let proofs = proofs_at(report, i);
    if proofs.is_empty() {
        return vec!["proof: no rule holds in the box, nothing to prove".to_string()];
    }
    // The same claim found by two finders (a nim-sum 0) is one line.
    let mut lines: Vec<(String, Vec<&str>, String)> = Vec::new();
    for p in proofs {
        let (claim, long) = (p.claim(), p.long());
        match lines.iter_mut().find(|(c, _, l)| *c == claim && *l == long) {
            Some((_, findings, _)) => findings.push(&p.finding),
            None => lines.push((claim, vec![&p.finding], long)),
        }
    }
    lines
        .into_iter()
        .map(|(claim, findings, long)| {
            format!("proof of {claim} ({}): {long}", findings.join(", "))
        })
        .collect()
}

/// Value `i`'s proofs as one short table cell.
fn proof_cell(report: &SurveyReport, i: usize) -> String {
    let proofs = proofs_at(report, i);
    if proofs.is_empty() {
        return "no rule to prove".to_string();
    }
    let mut seen: Vec<String> = Vec::new();
    for p in proofs {
        let item = format!("{}: {}", p.claim(), p.short());
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen.join("; ")
}

/// The counterexamples beyond the box of value `i`, for its figure.
pub fn beyond_box(report: &SurveyReport, i: usize) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = Vec::new();
    for p in proofs_at(report, i).iter().filter(|p| p.beyond_box) {
        if let Some(c) = p.counterexample() {
            if !out.iter().any(|o| o.as_slice() == c) {
                out.push(c.to_vec());
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
    let proved = report.proofs.is_some();
    if proved {
        out.push_str(
            "The **proof** column: each rule that holds in its box, decided for **every position** \
             of the game by the MONA decision procedure; a counterexample is confirmed by the exact \
             solver (see docs/prove.md in nimscape).\n\n",
        );
    }
    out.push_str(&format!("| {} | box | positions | P |", report.parameter));
    for n in &names {
        out.push_str(&format!(" {} |", cell(n)));
    }
    if proved {
        out.push_str(" proof |");
    }
    out.push_str("\n|---|---|---|---|");
    for _ in &names {
        out.push_str("---|");
    }
    if proved {
        out.push_str("---|");
    }
    out.push('\n');
    for (i, v) in report.values.iter().enumerate() {
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
        if proved {
            out.push_str(&format!(" {} |", cell(&proof_cell(report, i))));
        }
        out.push('\n');
    }
    out.push('\n');
    // A table figure (`plot` table) is one for the page, under the table.
    let per_value: &[Option<String>] = if report.view.plot == SurveyPlot::Table {
        if let Some(Some(file)) = figures.first() {
            out.push_str(&format!(
                "![The table above as a figure; a tinted cell holds in its row's box]({file})\n\n"
            ));
        }
        &[]
    } else {
        figures
    };
    let none = std::iter::repeat(&None);
    for (i, (v, figure)) in report
        .values
        .iter()
        .zip(per_value.iter().chain(none))
        .enumerate()
    {
        out.push_str(&format!(
            "## {} = {}: {}\n\n",
            report.parameter, v.value, v.game
        ));
        out.push_str(&format!("Box: {}.\n\n", box_text(v)));
        for line in claims_header(v) {
            out.push_str(&format!("* {line}\n"));
        }
        if let Some(w) = narrow_warning(v, "a rule that holds") {
            out.push_str(&format!("**Warning**: {w}.\n\n"));
        }
        for (name, text) in findings(v) {
            out.push_str(&format!("* **{name}**: {text}\n"));
        }
        for line in proof_lines(report, i) {
            out.push_str(&format!("* {line}\n"));
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
        if figure.is_none() && report.view.plot != SurveyPlot::Table {
            out.push_str(&format!(
                "* no figure: {}\n",
                no_figure_reason(v, &report.view)
            ));
        }
        if let Some(file) = figure {
            out.push_str(&format!(
                "\n![P-positions of {} = {}; a square ring marks a P-position that breaks the rule, a diamond an N-position that fits it{}]({file})\n",
                report.parameter,
                v.value,
                if proved {
                    ", a triangle a counterexample beyond the box"
                } else {
                    ""
                }
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
                "vacuous_lines": v.vacuous_lines(),
            })).collect::<Vec<_>>(),
            "artefacts": s.artefacts().map(|e| json!({
                "rule": e.rule.formula(&v.names),
                "shift": e.rule.shift,
                "constant": e.rule.constant,
                "witnesses_through_negatives": e.through_negatives,
                "vacuous_lines": v.vacuous_lines(),
            })).collect::<Vec<_>>(),
            "best_failing": s.best.as_ref().map(|b| json!({
                "rule": b.rule.formula(&v.names),
                "shift": b.rule.shift,
                "constant": b.rule.constant,
                "exceptions": b.exceptions(),
                "p_breaking": b.p_breaking,
                "n_satisfying": b.n_satisfying,
                "threshold": b.threshold,
                "witnesses_beyond": b.witnesses_beyond,
                "holds_beyond": v.rule_beyond(b),
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
                "reach": v.reach.iter().map(|r| [r.0, r.1]).collect::<Vec<_>>(),
                "narrow": v.narrow().iter().map(|(n, lo, hi)| json!({
                    "coordinate": n, "from": lo, "to": hi,
                })).collect::<Vec<_>>(),
                "warning": narrow_warning(v, "a rule that holds"),
                "lines_along_last": v.lines_along_last,
                "skipped": v.skipped.iter().map(|(f, why)| json!({
                    "finder": finder_name(*f), "why": why,
                })).collect::<Vec<_>>(),
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
    let mut values = values;
    if report.proofs.is_some() {
        for (i, v) in values.iter_mut().enumerate() {
            v["proofs"] =
                serde_json::Value::Array(proofs_at(report, i).iter().map(proof_json).collect());
        }
    }
    json!({
        "family": report.family,
        "parameter": report.parameter,
        "box": report.game_box,
        "claims": "every finding holds or fails in its value's box only",
        "values": values,
    })
}

/// One proof of `survey --prove` as JSON.
fn proof_json(p: &SurveyProof) -> serde_json::Value {
    use crate::prove::survey::ProofOutcome;
    use serde_json::json;
    let mut out = json!({
        "finding": p.finding,
        "rule": p.rule,
        "claim": if p.grundy { "grundy" } else { "p-positions" },
        "verdict": p.word(),
        "text": p.long(),
    });
    match &p.outcome {
        ProofOutcome::Done(r) => {
            out["engine"] = json!(format!("{} ({})", r.engine, r.engine_version));
            out["seconds"] = json!(r.seconds);
            out["undecided_because"] = json!(r.undecided_because);
            out["counterexample"] = match &r.counterexample {
                Some(c) => json!({
                    "position": c.position,
                    "grundy": c.grundy,
                    "claimed": c.claimed,
                    "actual": c.actual,
                    "explanation": c.explanation,
                    "smallest": r.counterexample_is_smallest,
                    "beyond_box": p.beyond_box,
                }),
                None => serde_json::Value::Null,
            };
        }
        ProofOutcome::NotDecidable(why) | ProofOutcome::Failed(why) => {
            out["why"] = json!(why);
        }
    }
    out
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

/// A CSV field: CSVs are never quoted (docs/data-formats.md), so no field may
/// hold a comma or a line end; the fields below hold none by construction
/// (positions are written `(1 0 1)`), and this keeps it so for any name.
fn csv_field(text: &str) -> String {
    text.replace(',', ";").replace(['\n', '\r'], " ")
}

/// A position as `(1 0 1)`: a CSV field without commas.
fn csv_point(p: &[u32]) -> String {
    let parts: Vec<String> = p.iter().map(u32::to_string).collect();
    format!("({})", parts.join(" "))
}

/// The CSV's header: one row per value and finding.
pub fn csv_header(parameter: &str) -> String {
    format!(
        "{},box,reach,finding,holds,rule,exceptions,smallest,holds_beyond,narrow\n",
        csv_field(parameter)
    )
}

/// The report as CSV: one row per value and finding (per value and axis for
/// periods), unquoted; `holds` is `true`, `false`, or empty for a finder
/// skipped; `rule` the exact rule, or the best failing one; `smallest` its
/// smallest exception; `narrow` the coordinates spanning at most 8 values
/// (`y=0..3`), whose findings say nothing about larger values.
pub fn csv(report: &SurveyReport) -> String {
    let mut out = csv_header(&report.parameter);
    let proved = report.proofs.is_some();
    if proved {
        out.insert_str(out.len() - 1, ",proof");
    }
    for (i, v) in report.values.iter().enumerate() {
        let proofs = proofs_at(report, i);
        let used = vec![std::cell::Cell::new(false); proofs.len()];
        let bounds: Vec<String> = v.bounds.iter().map(u32::to_string).collect();
        let reach: Vec<String> = v.reach.iter().map(|(a, b)| format!("{a}..{b}")).collect();
        let narrow: Vec<String> = v
            .narrow()
            .iter()
            .map(|(n, a, b)| format!("{n}={a}..{b}"))
            .collect();
        let mut row = |finding: &str,
                       holds: Option<bool>,
                       rule: String,
                       exceptions: Option<u64>,
                       smallest: Option<&[u32]>,
                       beyond: Option<u64>| {
            // The proof of the rule this row names, when the survey proved.
            let proof = if proved {
                let found = proofs.iter().enumerate().position(|(k, p)| {
                    !used[k].get()
                        && p.finding == finding
                        && (p.rule == rule || finding.starts_with("rule "))
                });
                let text = found.map_or(String::new(), |k| {
                    used[k].set(true);
                    csv_field(&proofs[k].short())
                });
                format!(",{text}")
            } else {
                String::new()
            };
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{}{proof}\n",
                v.value,
                bounds.join("x"),
                reach.join(" "),
                csv_field(finding),
                holds.map_or(String::new(), |h| h.to_string()),
                csv_field(&rule),
                exceptions.map_or(String::new(), |e| e.to_string()),
                smallest.map_or(String::new(), csv_point),
                beyond.map_or(String::new(), |b| b.to_string()),
                csv_field(&narrow.join(" "))
            ));
        };
        for (name, search) in [
            ("shifted nim-sum", &v.shifts),
            ("nim-sum constant", &v.constants),
        ] {
            let Some(search) = search else { continue };
            if let Some(e) = search.formulas().next() {
                row(
                    name,
                    Some(true),
                    e.rule.formula(&v.names),
                    Some(0),
                    None,
                    None,
                );
            } else if let Some(best) = &search.best {
                row(
                    name,
                    Some(false),
                    best.rule.formula(&v.names),
                    Some(best.exceptions()),
                    best.listed.first().map(|e| e.position.as_slice()),
                    v.rule_beyond(best),
                );
            } else {
                row(name, Some(false), String::new(), None, None, None);
            }
        }
        if let Some(fit) = &v.nim_sum {
            row(
                "grundy = nim-sum",
                Some(fit.exceptions == 0),
                format!("grundy = {}", v.names.join("^")),
                Some(fit.exceptions),
                fit.listed.first().map(|e| e.position.as_slice()),
                v.beyond(fit.threshold),
            );
        }
        for a in v.periods.iter().flatten() {
            let common = a
                .common
                .first()
                .map(|((p, s), _)| format!("most often period {p} saltus {s}"))
                .unwrap_or_default();
            row(
                &format!("periods along {}", v.names[a.axis]),
                Some(a.periodic == a.lines),
                common,
                Some(a.lines - a.periodic),
                a.not_periodic.first().map(Vec::as_slice),
                None,
            );
        }
        for (finder, _) in &v.skipped {
            row(
                finder_name(*finder),
                None,
                "skipped".to_string(),
                None,
                None,
                None,
            );
        }
        for check in &v.claims.rules {
            row(
                &format!("rule {}", check.rule),
                Some(check.holds()),
                check.rule.clone(),
                Some(check.exceptions()),
                check.listed.first().map(|e| e.position.as_slice()),
                v.beyond(check.threshold),
            );
        }
        // Rules also exact in the box, which the rows above do not name.
        for (p, used) in proofs.iter().zip(&used) {
            if !used.get() {
                row(&p.finding, Some(true), p.rule.clone(), Some(0), None, None);
            }
        }
    }
    out
}

/// The narrowest survey figure: room for its title and key.
const MIN_FIGURE_WIDTH: u32 = 400;

/// A survey figure's width on screen when none is asked for, pixels.
pub const DEFAULT_FIGURE_WIDTH: u32 = 560;

/// Figures larger than this many cells a side are left out (the page says so).
pub const MAX_FIGURE_CELLS: usize = 1024;

/// What a value's figure draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SurveyPlot {
    /// A three-heap game's P-positions projected to `(y, x − z)` (the sieve of
    /// Miyadera et al.; the projection may put several positions on one cell,
    /// which the title counts); a two-heap game as it lies.
    Sieve,
    /// One slice of a three-heap game, `coordinate = value`: the other two as they
    /// lie, positions of the game grey, P-positions blue, nothing merged.
    Slice(String, u32),
    /// The parameter × finding table, one figure for the whole survey (the
    /// LaTeX table's words, set as a figure).
    Table,
}

/// How a value's figure is drawn: what, and how wide.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureView {
    /// What it draws.
    pub plot: SurveyPlot,
    /// Width in scene units (points on paper, pixels on screen).
    pub width: u32,
    /// Whether the width is physical (`85mm`): the type scale is then the paper's.
    pub on_paper: bool,
    /// Whether the width was asked for (`--width`): the figure is then exactly
    /// that wide; otherwise it narrows to a narrow pattern.
    pub exact: bool,
    /// A cell's height over its width (`--aspect`), or `None`: square cells
    /// unless a width asked for flattens them to keep the plot within 1.25 of
    /// its width.
    pub aspect: Option<f64>,
}

impl Default for FigureView {
    fn default() -> Self {
        FigureView {
            plot: SurveyPlot::Sieve,
            width: DEFAULT_FIGURE_WIDTH,
            on_paper: false,
            exact: false,
            aspect: None,
        }
    }
}

/// How an exception is marked: a P-position the rule misses by a square ring,
/// an N-position the rule calls P by a diamond. Shapes, not colours, tell them
/// apart, so they survive greyscale printing and every colour vision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExceptionMark {
    /// "P breaks it": a square ring.
    PBreaks,
    /// "N fits it": a diamond.
    NFits,
    /// A counterexample beyond the box, found by the prover: a triangle.
    Beyond,
}

impl ExceptionMark {
    /// The mark of an exception.
    pub fn of(e: &Exception) -> Self {
        if e.is_p {
            ExceptionMark::PBreaks
        } else {
            ExceptionMark::NFits
        }
    }

    /// The outline of the mark centred at `(cx, cy)`, `r` from centre to side.
    pub fn path(self, cx: f64, cy: f64, r: f64) -> PathItem {
        match self {
            ExceptionMark::PBreaks => PathItem::rect(cx - r, cy - r, 2.0 * r, 2.0 * r),
            ExceptionMark::NFits => {
                let d = r * 1.3;
                PathItem::polygon(&[(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)])
            }
            ExceptionMark::Beyond => crate::library::scene::legend::triangle(cx, cy, r),
        }
    }
}

/// Draws a mark in ink over a white casing, so it shows on blue cells and white alike.
fn push_mark(scene: &mut Scene, mark: ExceptionMark, cx: f64, cy: f64, r: f64, line: f64) {
    scene.push(mark.path(cx, cy, r).stroked(Color::WHITE, line * 2.2));
    scene.push(mark.path(cx, cy, r).stroked(INK, line));
}

/// The grey of positions of the game in a slice (N-positions, and the ground of
/// the P-positions' blue): light enough that blue and ink stand out in greyscale.
const GAME_GREY: Color = Color::rgb(0xdd, 0xdd, 0xdd);

/// What a figure draws, before it is laid out: cells `(across, up)` with a
/// palette index (1 game, 2 P-position), the marks, the axis names and title.
struct Drawn {
    cells: Vec<((i64, i64), u8)>,
    marks: Vec<((i64, i64), ExceptionMark)>,
    across: String,
    up: String,
    title: String,
    /// The sieve's smallest `up` shown, from the origin (−1 so x − z = 0 is off
    /// the edge); `None` for a slice, which spans its positions only.
    low_up: Option<i64>,
}

/// The cells and marks of the sieve (or of a two-heap game as it lies).
fn sieve_cells(v: &ValueReport, parameter: &str, listed: &[Exception]) -> Drawn {
    let dims = v.names.len();
    let axis = v.lines.axis;
    let project = |p: &[u32]| -> (i64, i64) {
        if dims == 3 {
            (i64::from(p[1]), i64::from(p[0]) - i64::from(p[2]))
        } else {
            (i64::from(p[0]), i64::from(p[1]))
        }
    };
    let mut cells: Vec<((i64, i64), u8)> = v
        .lines
        .segments()
        .flat_map(|s| s.p.iter().map(move |&t| s.point(axis, t)))
        .map(|p| (project(&p), 2))
        .collect();
    let p_count = cells.len();
    cells.sort_unstable();
    cells.dedup();
    let merged = p_count - cells.len();
    let marks = listed
        .iter()
        .map(|e| (project(&e.position), ExceptionMark::of(e)))
        .collect();
    let (across, up) = if dims == 3 {
        (
            v.names[1].clone(),
            format!("{} − {}", v.names[0], v.names[2]),
        )
    } else {
        (v.names[0].clone(), v.names[1].clone())
    };
    let title = if merged > 0 {
        format!(
            "{parameter} = {}: {p_count} P-positions on {} cells ({merged} merged by the projection)",
            v.value,
            cells.len()
        )
    } else {
        format!("{parameter} = {}: {p_count} P-positions", v.value)
    };
    Drawn {
        cells,
        marks,
        across,
        up,
        title,
        low_up: Some(if dims == 3 { -1 } else { 0 }),
    }
}

/// The cells and marks of one slice `coordinate = at` of a three-heap game.
fn slice_cells(
    v: &ValueReport,
    parameter: &str,
    listed: &[Exception],
    coordinate: &str,
    at: u32,
) -> Result<Drawn> {
    let fixed = v
        .names
        .iter()
        .position(|n| n == coordinate)
        .ok_or_else(|| {
            crate::Error::invalid_parameter(
                "slice",
                format!(
                    "`slice`: '{}' is not a coordinate; the game has {}",
                    crate::error::excerpt(coordinate),
                    v.names.join(", ")
                ),
            )
        })?;
    let free: Vec<usize> = (0..v.names.len()).filter(|&d| d != fixed).collect();
    if free.len() != 2 {
        return Err(crate::Error::invalid_parameter(
            "slice",
            format!(
                "`slice` needs a game of three coordinates; {} has {}",
                v.game,
                v.names.len()
            ),
        ));
    }
    let to_cell = |p: &[u32]| (i64::from(p[free[0]]), i64::from(p[free[1]]));
    let axis = v.lines.axis;
    let limit = (MAX_FIGURE_CELLS * MAX_FIGURE_CELLS) as u64;
    let mut cells = Vec::new();
    for seg in v.lines.segments() {
        let range = if axis == fixed {
            if seg.lo <= at && at <= seg.hi {
                at..=at
            } else {
                continue;
            }
        } else if seg.fixed[fixed] == at {
            seg.lo..=seg.hi
        } else {
            continue;
        };
        for t in range {
            let p = seg.point(axis, t);
            let is_p = seg.p.binary_search(&t).is_ok();
            cells.push((to_cell(&p), if is_p { 2 } else { 1 }));
        }
        if cells.len() as u64 > limit {
            break;
        }
    }
    let p_count = cells.iter().filter(|c| c.1 == 2).count();
    let marks = listed
        .iter()
        .filter(|e| e.position[fixed] == at)
        .map(|e| (to_cell(&e.position), ExceptionMark::of(e)))
        .collect();
    Ok(Drawn {
        cells,
        marks,
        across: v.names[free[0]].clone(),
        up: v.names[free[1]].clone(),
        title: format!(
            "{parameter} = {}, {coordinate} = {at}: {p_count} P-positions",
            v.value
        ),
        low_up: None,
    })
}

/// Why value `v` has no figure drawn as `view` asks: its slice holds no
/// position, it has not two or three coordinates, or it is too wide.
pub fn no_figure_reason(v: &ValueReport, view: &FigureView) -> String {
    let dims = v.names.len();
    if !(2..=3).contains(&dims) {
        return format!(
            "a figure needs two or three coordinates; {} has {dims}",
            v.game
        );
    }
    if let SurveyPlot::Slice(c, at) = &view.plot {
        if let Some(d) = v.names.iter().position(|n| n == c) {
            let (lo, hi) = v.reach[d];
            if v.lines.positions == 0 {
                return format!("the slice {c} = {at} holds no position: the box holds none");
            }
            if *at < lo || *at > hi {
                return format!(
                    "the slice {c} = {at} holds no position of the game in this box ({c} spans {lo}..{hi})"
                );
            }
        }
    }
    format!("its drawing would be more than {MAX_FIGURE_CELLS} cells a side")
}

/// The figure of one value: P-positions, the marked exceptions (a square ring
/// where P breaks the rule, a diamond where N fits it), and a key. `None` for
/// games of more than three coordinates, or when the figure would be wider than
/// [`MAX_FIGURE_CELLS`] cells a side. The scene is laid out at `view.width`
/// with the type scale of every figure at that width.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub fn value_scene(v: &ValueReport, parameter: &str, view: &FigureView) -> Result<Option<Scene>> {
    value_scene_with(v, parameter, view, &[])
}

/// [`value_scene`] with the prover's counterexamples beyond the box (`survey
/// --prove`), each marked by a triangle where it falls inside the drawing.
pub fn value_scene_with(
    v: &ValueReport,
    parameter: &str,
    view: &FigureView,
    beyond: &[Vec<u64>],
) -> Result<Option<Scene>> {
    let dims = v.names.len();
    if !(2..=3).contains(&dims) {
        return Ok(None);
    }
    let marked = marked(v);
    let listed: &[Exception] = marked.as_ref().map_or(&[], |(_, l)| l);
    let mut drawn = match &view.plot {
        SurveyPlot::Sieve | SurveyPlot::Table => sieve_cells(v, parameter, listed),
        SurveyPlot::Slice(c, at) => slice_cells(v, parameter, listed, c, *at)?,
    };
    if let Some(count) = marked_count_text(v, &view.plot, drawn.marks.len()) {
        drawn.title = format!("{}; {count}", drawn.title);
    }
    let mut all = drawn
        .cells
        .iter()
        .map(|c| c.0)
        .chain(drawn.marks.iter().map(|m| m.0));
    // The sieve starts at the origin as the papers' plots do; a slice spans its
    // positions only (a slice y = 4 of y <= min(x, z)/11 starts at x = 44).
    let Some((mut a0, mut a1, mut u0, mut u1)) = (match drawn.low_up {
        Some(low) => Some((0i64, 1i64, low.min(0), 1i64)),
        None => all.next().map(|(a, u)| (a, a, u, u)),
    }) else {
        return Ok(None);
    };
    for (a, u) in all {
        a0 = a0.min(a);
        a1 = a1.max(a);
        u0 = u0.min(u);
        u1 = u1.max(u);
    }
    if let Some(low) = drawn.low_up {
        u0 = u0.min(low);
    }
    // The prover's counterexamples where they fall inside the drawing (a
    // counterexample beyond the box may project onto the sieve's cells).
    for p in beyond {
        let p: Vec<i64> = p
            .iter()
            .map(|&c| i64::try_from(c).unwrap_or(i64::MAX))
            .collect();
        let cell = match &view.plot {
            SurveyPlot::Sieve | SurveyPlot::Table if dims == 3 => {
                Some((p[1], p[0].saturating_sub(p[2])))
            }
            SurveyPlot::Sieve | SurveyPlot::Table => Some((p[0], p[1])),
            SurveyPlot::Slice(c, at) => v.names.iter().position(|n| n == c).and_then(|fixed| {
                let free: Vec<usize> = (0..dims).filter(|&d| d != fixed).collect();
                (p[fixed] == i64::from(*at) && free.len() == 2).then(|| (p[free[0]], p[free[1]]))
            }),
        };
        if let Some((a, u)) = cell {
            if (a0..=a1).contains(&a) && (u0..=u1).contains(&u) {
                drawn.marks.push(((a, u), ExceptionMark::Beyond));
            }
        }
    }
    let (cols, rows) = ((a1 - a0 + 1) as usize, (u1 - u0 + 1) as usize);
    if cols > MAX_FIGURE_CELLS || rows > MAX_FIGURE_CELLS {
        return Ok(None);
    }
    let mut indices = vec![0u8; rows * cols];
    let at = |(a, u): (i64, i64)| (u1 - u) as usize * cols + (a - a0) as usize;
    for &(c, i) in &drawn.cells {
        let k = at(c);
        indices[k] = indices[k].max(i);
    }

    // A figure is the width asked for (85 mm is 241 pt), its text wrapped; by
    // default it is at least wide enough for its title and key.
    let width = if view.exact {
        view.width
    } else {
        view.width.max(MIN_FIGURE_WIDTH)
    };
    // The type scale of every figure at this width: paper sizes for a physical
    // width, the screen scale otherwise.
    let scale = crate::library::scene::TypeScale::new(f64::from(width), view.on_paper);
    let label_size = scale.size(crate::library::scene::Role::Tick);
    let name_size = scale.size(crate::library::scene::Role::AxisName);
    let y_label_area = (label_size * 2.6 + name_size * 1.6).ceil() as u32;
    // Room left of the turned axis name, whose box plotters sets on the edge.
    let left = y_label_area + (name_size * 0.3).ceil() as u32;
    // The axis name just under the tick numbers, with room for its descender.
    let label_area = (label_size * 2.4 + name_size * 1.4).ceil() as u32;
    let bottom = label_area + (name_size * 0.4).ceil() as u32;
    let top = (label_size * 2.6).ceil() as u32;
    let right = (label_size * 1.5).ceil() as u32;
    let room = f64::from(width.saturating_sub(left + right).max(1));
    // A width asked for is filled: the cells are as wide as the room allows,
    // square unless that makes the plot taller than 1.25 of its width (a
    // column's figure), where they are flattened instead of the plot narrowed.
    // On a screen the cells stay square, whole pixels, the plot narrowed.
    // `--aspect` fixes the cells' shape instead: as wide as the room allows
    // while the plot stays within 1.25 of its width, the plot centred.
    let (cell_w, cell_h) = match (view.aspect, view.exact) {
        (None, true) => {
            let cell_w = room / cols as f64;
            (cell_w, cell_w.min(room * 1.25 / rows as f64))
        }
        (aspect, exact) => {
            let aspect = aspect.unwrap_or(1.0);
            let cell_w = (room / cols as f64).min(room * 1.25 / rows as f64 / aspect);
            let cell_w = if exact {
                cell_w
            } else {
                cell_w.clamp(1.0, 24.0)
            };
            let cell_h = cell_w * aspect;
            if exact || view.on_paper {
                (cell_w, cell_h)
            } else {
                (cell_w.floor(), cell_h.floor().max(1.0))
            }
        }
    };
    let cell = cell_w.min(cell_h);
    let plot_w = ((cols as f64 * cell_w).round() as u32).max(1);
    let plot_h = ((rows as f64 * cell_h).round() as u32).max(1);
    let p_colour = okabe_ito::BLUE;
    let mut entries: Vec<(Swatch, String)> = vec![(Swatch::Fill(p_colour), "P-position".into())];
    if matches!(view.plot, SurveyPlot::Slice(..)) {
        entries.push((Swatch::Fill(GAME_GREY), "N-position".into()));
    }
    if let Some((rule, _)) = &marked {
        // As the papers set it: ⊕ for XOR, a minus sign.
        let rule = rule.replace('^', " ⊕ ").replace('-', "\u{2212}");
        for (mark, what) in [
            (ExceptionMark::PBreaks, format!("P, breaks {rule}")),
            (ExceptionMark::NFits, "N, fits it".to_string()),
        ] {
            if drawn.marks.iter().any(|m| m.1 == mark) {
                entries.push((Swatch::Mark(mark_swatch(mark)), what));
            }
        }
    }
    if drawn.marks.iter().any(|m| m.1 == ExceptionMark::Beyond) {
        entries.push((
            Swatch::Mark(mark_swatch(ExceptionMark::Beyond)),
            "counterexample beyond the box (prove)".to_string(),
        ));
    }
    let chart_w = left + plot_w + right;
    let width = if view.exact {
        width
    } else {
        chart_w.max(MIN_FIGURE_WIDTH)
    };
    let key = KeyBlock::new(
        &entries,
        scale.size(crate::library::scene::Role::Key),
        f64::from(width) - 16.0,
    );
    let key_h = key.as_ref().map_or(0, |k| k.height);
    let title_size = scale.size(crate::library::scene::Role::Title);
    let (title_lines, title_size) = crate::library::scene::layout::fit_title(
        &drawn.title,
        title_size,
        title_size.min(scale.floor()),
        f64::from(width) - 16.0,
        3,
    );
    let line_h = title_size * 1.25;
    let top = top + (line_h * (title_lines.len().max(1) - 1) as f64).ceil() as u32;
    let height = top + plot_h + bottom + key_h;
    // The chart is centred.
    let x_off = width.saturating_sub(chart_w) / 2;
    let mut scene = Scene::new(width, height, Color::WHITE);
    // Centred on the canvas: a title of the whole width never leaves it.
    let title_x = f64::from(width) / 2.0;
    for (i, line) in title_lines.iter().enumerate() {
        scene.push(
            TextItem::centered(
                title_x,
                title_size * 1.35 + line_h * i as f64,
                line.as_str(),
                title_size,
                INK,
            )
            .with_role(crate::library::scene::Role::Title),
        );
    }
    let first_plotted = scene.items.len();
    let area;
    {
        let root = SceneBackend::new(&mut scene).into_drawing_area();
        let ink = RGBColor(0x22, 0x22, 0x22);
        let sub = root.clone().shrink(
            (x_off + left - y_label_area, top),
            (plot_w + y_label_area, plot_h + label_area),
        );
        let mut chart = ChartBuilder::on(&sub)
            .x_label_area_size(label_area)
            .y_label_area_size(y_label_area)
            .build_cartesian_2d(
                a0 as f64 - 0.5..a1 as f64 + 0.5,
                u0 as f64 - 0.5..u1 as f64 + 0.5,
            )
            .map_err(chart_error)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(drawn.across.as_str())
            .y_desc(drawn.up.as_str())
            .x_labels(((f64::from(plot_w) / (label_size * 3.0)) as usize).clamp(2, 10))
            .y_labels(((f64::from(plot_h) / (label_size * 2.0)) as usize).clamp(2, 10))
            .label_style(("sans-serif", label_size).into_font().color(&ink))
            .axis_desc_style(("sans-serif", name_size).into_font().color(&ink))
            .x_label_formatter(&|v| whole_tick(*v))
            .y_label_formatter(&|v| whole_tick(*v))
            .draw()
            .map_err(chart_error)?;
        area = plotting_rect(chart.plotting_area().get_pixel_range());
        root.present().map_err(chart_error)?;
    }
    crate::library::scene::chart::tag_roles(
        &mut scene,
        first_plotted,
        &[drawn.across.as_str(), drawn.up.as_str()],
        &[],
    );
    let layer = CellLayer {
        rect: area,
        rows,
        cols,
        indices,
        palette: vec![Color::TRANSPARENT, GAME_GREY, p_colour],
        grid_line: None,
    };
    // Each mark centred on its cell: inside large cells, around small ones
    // (so that it shows at all); one size for every mark of the figure, from
    // the cells' size before their edges are rounded (edges of 7 and 8 units
    // side by side must not give rings of two sizes), the same for both shapes.
    let line = (cell * 0.12).clamp(0.8, 1.6);
    let radius = if cell >= 8.0 {
        cell * 0.32
    } else {
        cell / 2.0 + 2.5
    };
    let marks: Vec<(ExceptionMark, f64, f64, f64)> = drawn
        .marks
        .iter()
        .map(|&(c, mark)| {
            let k = at(c);
            let (r, q) = (k / cols, k % cols);
            let w = f64::from(layer.col_edge(q + 1) - layer.col_edge(q));
            let h = f64::from(layer.row_edge(r + 1) - layer.row_edge(r));
            let cx = f64::from(area.x + layer.col_edge(q)) + w / 2.0;
            let cy = f64::from(area.y + layer.row_edge(r)) + h / 2.0;
            (mark, cx, cy, radius)
        })
        .collect();
    scene.push(layer);
    for (mark, cx, cy, radius) in marks {
        push_mark(&mut scene, mark, cx, cy, radius, line);
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

/// The box a value's row names, `x ≤ 16, y ≤ 5†, z ≤ 16` (a coordinate that
/// spans at most [`crate::survey::NARROW_SPAN`] values marked †), and whether
/// one is marked.
fn row_box(v: &ValueReport) -> (String, bool) {
    let narrow = v.narrow();
    let mut any = false;
    let spans: Vec<String> = v
        .names
        .iter()
        .zip(&v.reach)
        .map(|(n, (_, hi))| {
            let mark = if narrow.iter().any(|(m, _, _)| m == n) {
                any = true;
                "†"
            } else {
                ""
            };
            // No break inside `y ≤ 5`: a narrow column breaks after the commas.
            format!("{n}\u{a0}≤\u{a0}{hi}{mark}")
        })
        .collect();
    (spans.join(", "), any)
}

/// The tint of a table cell whose finding holds in its row's box: light
/// enough for ink on it, darker than white in greyscale.
const HOLDS_TINT: Color = Color::rgb(0xcf, 0xe6, 0xf5);

/// The parameter × finding table as a figure (`--plot table`): one row per
/// value, its box as the game spans it, one column per finding in the words of
/// the LaTeX table, a finding that holds on a tinted ground. The figure is the
/// width asked, its text at the type scale's table size, columns sharing the
/// width by what they hold; a width too narrow for the longest word of a
/// column is refused, naming the least width that fits.
pub fn table_scene(report: &SurveyReport) -> Result<Scene> {
    let view = &report.view;
    let Some(first) = report.values.first() else {
        return Err(crate::Error::invalid_request(
            "a survey table needs a value",
        ));
    };
    let names: Vec<String> = findings(first).into_iter().map(|(n, _)| n).collect();
    let mut header = vec![report.parameter.clone(), "box".to_string()];
    header.extend(names.iter().map(|n| n.replace('^', "⊕")));
    let mut rows: Vec<Vec<(String, bool)>> = Vec::new();
    let mut narrow_seen = false;
    for v in &report.values {
        let (spans, narrow) = row_box(v);
        narrow_seen |= narrow;
        let mut row = vec![(v.value.to_string(), false), (spans, false)];
        row.extend(names.iter().map(|n| {
            // The words say it too, for a copy without the tint.
            let (text, holds) = table_cell(v, n);
            match holds && !text.starts_with("holds") {
                true => (format!("holds: {text}"), true),
                false => (text, holds),
            }
        }));
        rows.push(row);
    }
    let title = format!(
        "{} over {}: what holds in each row's box",
        report.family, report.parameter
    );
    let layout = |width: u32| TableLayout::new(&header, &rows, width, view.on_paper);
    let width = if view.exact {
        view.width
    } else {
        view.width.max(MIN_FIGURE_WIDTH)
    };
    let width = match (layout(width), view.exact) {
        (Some(_), _) => width,
        (None, false) => least_table_width(&layout, width),
        (None, true) => {
            let least = least_table_width(&layout, width);
            let (what, unit) = if view.on_paper {
                (
                    format!(
                        "{:.1} mm",
                        (f64::from(least) / 72.0 * 25.4 * 10.0).ceil() / 10.0
                    ),
                    "pt",
                )
            } else {
                (format!("{least} px"), "px")
            };
            return Err(crate::Error::invalid_parameter("width", format!(
                "`width` {} {unit} is too narrow for the survey table's longest words at its type size; use {what} or more, fewer findings (`find`), or the LaTeX table (-o table.tex)",
                view.width
            )));
        }
    };
    let layout = layout(width).expect("the least width fits");
    let scale = crate::library::scene::TypeScale::new(f64::from(width), view.on_paper);
    let size = layout.size;
    let margin = layout.margin;
    let room = f64::from(width) - 2.0 * margin;
    let title_size = scale.size(crate::library::scene::Role::Title);
    let (title_lines, title_size) = crate::library::scene::layout::fit_title(
        &title,
        title_size,
        title_size.min(scale.floor()),
        room,
        3,
    );
    let line_h = size * 1.3;
    let rule = (size * 0.07).max(0.5);
    let mut notes: Vec<(Swatch, String)> = Vec::new();
    if rows.iter().flatten().any(|c| c.1) {
        notes.push((Swatch::Fill(HOLDS_TINT), "holds in its row's box".into()));
    }
    let key = KeyBlock::new(&notes, scale.size(crate::library::scene::Role::Key), room);
    let dagger = narrow_seen.then(|| {
        let text = format!(
            "† spans at most {} values in the box: the findings say nothing about larger values of it.",
            crate::survey::NARROW_SPAN
        );
        crate::library::scene::layout::wrap(&text, scale.size(crate::library::scene::Role::Key), room)
    });
    // Top to bottom: title, rule, header, rule, rows, rule, key, note.
    let mut y = margin * 0.6;
    let mut scene_items: Vec<crate::library::scene::Item> = Vec::new();
    let text_at = |x: f64, baseline: f64, text: &str, size: f64, role| {
        crate::library::scene::Item::Text(TextItem {
            x,
            y: baseline,
            text: text.to_string(),
            size,
            color: INK,
            halign: crate::library::scene::HAlign::Left,
            valign: crate::library::scene::VAlign::Baseline,
            rotation: 0.0,
            role,
        })
    };
    let title_line = title_size * 1.25;
    for line in &title_lines {
        y += title_line;
        scene_items.push(crate::library::scene::Item::Text(
            TextItem::centered(f64::from(width) / 2.0, y, line.as_str(), title_size, INK)
                .with_role(crate::library::scene::Role::Title),
        ));
    }
    y += title_size * 0.6;
    let hline = |y: f64| {
        crate::library::scene::Item::Path(
            PathItem::polyline(&[(margin, y), (f64::from(width) - margin, y)]).stroked(INK, rule),
        )
    };
    scene_items.push(hline(y));
    let (ascent, descent) = crate::library::scene::font::vertical_metrics(size);
    let pad = size * 0.35;
    let draw_row = |y: &mut f64,
                    cells: &[(String, bool)],
                    role: crate::library::scene::Role,
                    items: &mut Vec<crate::library::scene::Item>| {
        let wrapped: Vec<Vec<String>> = cells
            .iter()
            .zip(&layout.columns)
            .map(|((text, _), &w)| crate::library::scene::layout::wrap(text, size, w))
            .collect();
        let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1).max(1);
        let height = pad * 2.0 + ascent + descent + line_h * (lines - 1) as f64;
        let mut x = margin;
        for (k, ((_, holds), w)) in cells.iter().zip(&layout.columns).enumerate() {
            let left = if k == 0 { x } else { x - layout.gap / 2.0 };
            let right = if k + 1 == cells.len() {
                x + w
            } else {
                x + w + layout.gap / 2.0
            };
            if *holds {
                items.push(crate::library::scene::Item::Path(
                    PathItem::rect(left, *y + rule, right - left, height - 2.0 * rule)
                        .filled(HOLDS_TINT),
                ));
            }
            for (j, line) in wrapped[k].iter().enumerate() {
                let baseline = *y + pad + ascent + line_h * j as f64;
                items.push(text_at(x, baseline, line, size, role));
            }
            x += w + layout.gap;
        }
        *y += height;
    };
    let header_cells: Vec<(String, bool)> = header.iter().map(|h| (h.clone(), false)).collect();
    draw_row(
        &mut y,
        &header_cells,
        crate::library::scene::Role::Label,
        &mut scene_items,
    );
    scene_items.push(hline(y));
    for row in &rows {
        draw_row(
            &mut y,
            row,
            crate::library::scene::Role::TableNumber,
            &mut scene_items,
        );
    }
    scene_items.push(hline(y));
    let key_top = y;
    y += key.as_ref().map_or(0.0, |k| f64::from(k.height));
    let key_size = scale.size(crate::library::scene::Role::Key);
    if let Some(lines) = &dagger {
        y += key_size * 0.4;
        for line in lines {
            y += key_size * 1.3;
            scene_items.push(text_at(
                margin,
                y,
                line,
                key_size,
                crate::library::scene::Role::Key,
            ));
        }
        y += key_size * 0.3;
    }
    let height = (y + margin * 0.6).ceil() as u32;
    let mut scene = Scene::new(width, height, Color::WHITE);
    for item in scene_items {
        scene.items.push(item);
    }
    if let Some(key) = key {
        key.draw(&mut scene, f64::from(width) / 2.0, key_top, INK);
    }
    Ok(scene)
}

/// The least width at or above `from` at which the survey table fits (its
/// type grows with the width, so the search runs over widths).
fn least_table_width(layout: &impl Fn(u32) -> Option<TableLayout>, from: u32) -> u32 {
    let (mut lo, mut hi) = (from, from.max(1) * 2);
    while layout(hi).is_none() {
        lo = hi;
        hi = hi.saturating_mul(2);
        if hi >= 1 << 20 {
            return hi;
        }
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if layout(mid).is_some() {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// The survey table's columns at one width: each at least its longest word,
/// the rest of the width shared by what each column holds beyond that.
struct TableLayout {
    /// Text size, scene units.
    size: f64,
    /// Left and right margin.
    margin: f64,
    /// Space between columns.
    gap: f64,
    /// Each column's width for its text.
    columns: Vec<f64>,
}

impl TableLayout {
    /// The layout at `width`, or `None` when a column's longest word does not fit.
    fn new(
        header: &[String],
        rows: &[Vec<(String, bool)>],
        width: u32,
        on_paper: bool,
    ) -> Option<TableLayout> {
        let scale = crate::library::scene::TypeScale::new(f64::from(width), on_paper);
        let size = scale.size(crate::library::scene::Role::TableNumber);
        let (margin, gap) = (size * 0.8, size * 1.1);
        let n = header.len();
        let texts = |c: usize| {
            std::iter::once(header[c].as_str()).chain(rows.iter().map(move |r| r[c].0.as_str()))
        };
        let widest = |text: &str| crate::library::scene::font::text_width(text, size);
        let least: Vec<f64> = (0..n)
            .map(|c| {
                texts(c)
                    .flat_map(|t| t.split(' '))
                    .map(widest)
                    .fold(0.0, f64::max)
            })
            .collect();
        let natural: Vec<f64> = (0..n)
            .map(|c| texts(c).map(widest).fold(0.0, f64::max))
            .collect();
        let room = f64::from(width) - 2.0 * margin - gap * (n - 1) as f64;
        let least_sum: f64 = least.iter().sum();
        if least_sum > room {
            return None;
        }
        let natural_sum: f64 = natural.iter().sum();
        let columns = if natural_sum <= room {
            // Everything on one line: the spare width to the last column, so the
            // table spans its figure and each column stays by its neighbour.
            let mut columns = natural.clone();
            columns[n - 1] += room - natural_sum;
            columns
        } else {
            let want: f64 = natural.iter().zip(&least).map(|(n, l)| n - l).sum();
            let spare = room - least_sum;
            natural
                .iter()
                .zip(&least)
                .map(|(n, l)| {
                    l + if want > 0.0 {
                        (n - l) * spare / want
                    } else {
                        0.0
                    }
                })
                .collect()
        };
        Some(TableLayout {
            size,
            margin,
            gap,
            columns,
        })
    }
}

/// The key's sample of a mark.
fn mark_swatch(mark: ExceptionMark) -> crate::library::scene::legend::MarkSwatch {
    match mark {
        ExceptionMark::PBreaks => crate::library::scene::legend::MarkSwatch::Square,
        ExceptionMark::NFits => crate::library::scene::legend::MarkSwatch::Diamond,
        ExceptionMark::Beyond => crate::library::scene::legend::MarkSwatch::Triangle,
    }
}

/// Text for the LaTeX table, escaped in text mode: a `$` from a name or a
/// formula is a dollar sign, never math, so nothing read from a game file can
/// reach LaTeX as a command.
fn tex_text(text: &str) -> Result<String> {
    crate::library::encode::latex::tex_escape(&text.replace('$', "\\$")).map_err(|c| {
        crate::Error::unsupported(format!(
            "the survey table holds '{c}' (U+{:04X}), which LaTeX cannot set; rename it in the game file",
            u32::from(c)
        ))
    })
}

/// A rule as the papers set it: `(x + 1) ⊕ y ⊕ (z + 1) = 0`, spaced so that a
/// narrow column may break it.
fn set_rule(formula: &str) -> String {
    formula
        .replace('^', " ⊕ ")
        .replace('+', " + ")
        .replace('-', " − ")
        .replace("  ", " ")
}

/// One finding as a short table cell (the page and the JSON have the rest).
fn tex_cell(v: &ValueReport, name: &str) -> String {
    table_cell(v, name).0
}

/// One finding as a short table cell, and whether it holds in the value's box
/// (a formula found, a rule of one's own without exception, Grundy values equal
/// to the nim-sum everywhere).
fn table_cell(v: &ValueReport, name: &str) -> (String, bool) {
    let holds = match name {
        "shifted nim-sum" => v
            .shifts
            .as_ref()
            .is_some_and(|s| s.formulas().next().is_some()),
        "nim-sum constant" => v
            .constants
            .as_ref()
            .is_some_and(|s| s.formulas().next().is_some()),
        "grundy = nim-sum" => v.nim_sum.as_ref().is_some_and(|f| f.exceptions == 0),
        _ => v
            .claims
            .rules
            .iter()
            .find(|c| name.strip_prefix("rule ") == Some(c.rule.as_str()))
            .is_some_and(|c| c.holds()),
    } && !v.skipped.iter().any(|(f, _)| finder_name(*f) == name);
    (cell_text(v, name), holds)
}

/// The words of [`table_cell`].
fn cell_text(v: &ValueReport, name: &str) -> String {
    let rule = |s: &RuleSearch| -> String {
        if let Some(e) = s.formulas().next() {
            set_rule(&e.rule.formula(&v.names))
        } else if let Some(best) = &s.best {
            let first = best
                .listed
                .first()
                .map(|e| format!(", first {}", point(&e.position)))
                .unwrap_or_default();
            let beyond = v
                .rule_beyond(best)
                .map(|t| format!(", exact from size {t}"))
                .unwrap_or_default();
            format!(
                "fails: {} ({} exceptions{first}{beyond})",
                set_rule(&best.rule.formula(&v.names)),
                best.exceptions()
            )
        } else if s.artefacts().next().is_some() {
            "artefacts only".to_string()
        } else {
            "no rule".to_string()
        }
    };
    if v.skipped.iter().any(|(f, _)| finder_name(*f) == name) {
        return "skipped (misère)".to_string();
    }
    if let Some(check) = v
        .claims
        .rules
        .iter()
        .find(|c| name.strip_prefix("rule ") == Some(c.rule.as_str()))
    {
        return if check.holds() {
            "holds".to_string()
        } else {
            let first = check
                .listed
                .first()
                .map(|e| format!(", first {}", point(&e.position)))
                .unwrap_or_default();
            format!("fails ({} exceptions{first})", check.exceptions())
        };
    }
    match name {
        "shifted nim-sum" => v.shifts.as_ref().map(rule).unwrap_or_default(),
        "nim-sum constant" => v.constants.as_ref().map(rule).unwrap_or_default(),
        "grundy = nim-sum" => v
            .nim_sum
            .as_ref()
            .map(|f| {
                if f.exceptions == 0 {
                    "holds".to_string()
                } else {
                    format!("fails at {} of {}", f.exceptions, f.positions)
                }
            })
            .unwrap_or_default(),
        _ => v
            .periods
            .as_ref()
            .map(|axes| {
                let parts: Vec<String> = axes
                    .iter()
                    .map(|a| format!("{} {}/{}", v.names[a.axis], a.periodic, a.lines))
                    .collect();
                format!("periodic lines: {}", parts.join(", "))
            })
            .unwrap_or_default(),
    }
}

/// The proofs of one value as a short table cell: `x ⊕ y ⊕ z = 0: proved`.
fn tex_proof_cell(proofs: &[SurveyProof]) -> String {
    if proofs.is_empty() {
        return "no rule to prove".to_string();
    }
    let mut items: Vec<String> = Vec::new();
    for p in proofs {
        let verdict = match (p.word(), p.counterexample()) {
            ("false", Some(c)) => {
                let parts: Vec<String> = c.iter().map(u64::to_string).collect();
                format!("false, ({})", parts.join(", "))
            }
            (word, _) => word.to_string(),
        };
        let item = format!("{}: {verdict}", set_rule(&p.rule));
        if !items.contains(&item) {
            items.push(item);
        }
    }
    items.join("; ")
}

/// The parameter × finding table as a LaTeX `tabular` for a paper: one row per
/// value, its box as the game really spans it (a coordinate spanning at most 8
/// values marked †, with a note under the table), one column per finding.
/// Columns share `\linewidth`, so the table fits a column of a two-column
/// article in `\footnotesize`; needs `\usepackage{array}`.
pub fn tex(report: &SurveyReport, command: &str) -> Result<String> {
    let names: Vec<String> = report
        .values
        .first()
        .map(|v| findings(v).into_iter().map(|(n, _)| n).collect())
        .unwrap_or_default();
    let mut out = String::new();
    out.push_str(&format!(
        "% Survey of {} over {}: every finding holds or fails in its row's box only.\n",
        report.family.replace(['\n', '\r'], " "),
        report.parameter
    ));
    out.push_str(&format!(
        "% Made by: {}\n",
        command.replace(['\n', '\r'], " ")
    ));
    out.push_str(
        "% Needs \\usepackage{array} in the preamble; \\input this file where the table goes.\n",
    );
    // No paragraph indent before the table: it would push it past the column.
    // `%` at the line ends: a space beside the table would widen its paragraph.
    out.push_str("\\noindent\\begingroup\\footnotesize\\setlength{\\tabcolsep}{0.25em}%\n");
    // The box takes a fifth of the line, the findings share most of the rest,
    // and the parameter's numbers what is left (about 0.08 of a column).
    let proved = report.proofs.is_some();
    let share = 0.70 / (names.len() + usize::from(proved)).max(1) as f64;
    let column = |f: f64| {
        format!(">{{\\raggedright\\arraybackslash}}p{{\\dimexpr {f:.3}\\linewidth-2\\tabcolsep\\relax}}")
    };
    let mut spec = format!("@{{}}r{}", column(0.22));
    for _ in 0..names.len() + usize::from(proved) {
        spec.push_str(&column(share));
    }
    spec.push_str("@{}");
    out.push_str(&format!("\\begin{{tabular}}{{{spec}}}\n\\hline\n"));
    let mut header = vec![
        format!("\\textit{{{}}}", tex_text(&report.parameter)?),
        "box".to_string(),
    ];
    for n in &names {
        header.push(tex_text(n)?);
    }
    if proved {
        header.push("proof".to_string());
    }
    out.push_str(&header.join(" & "));
    out.push_str(" \\\\\n\\hline\n");
    let mut narrow_seen = false;
    for (i, v) in report.values.iter().enumerate() {
        let narrow = v.narrow();
        let spans: Vec<String> = v
            .names
            .iter()
            .zip(&v.reach)
            .map(|(n, (_, hi))| {
                let mark = if narrow.iter().any(|(m, _, _)| m == n) {
                    narrow_seen = true;
                    "†"
                } else {
                    ""
                };
                format!("{n} ≤ {hi}{mark}")
            })
            .collect();
        let mut row = vec![v.value.to_string(), tex_text(&spans.join(", "))?];
        for n in &names {
            row.push(tex_text(&tex_cell(v, n))?);
        }
        if proved {
            row.push(tex_text(&tex_proof_cell(proofs_at(report, i)))?);
        }
        out.push_str(&row.join(" & "));
        out.push_str(" \\\\\n");
    }
    out.push_str("\\hline\n");
    if narrow_seen {
        let note = tex_text(&format!(
            "† spans at most {} values in the box: the findings say nothing about larger values of it.",
            crate::survey::NARROW_SPAN
        ))?;
        out.push_str(&format!(
            "\\multicolumn{{{}}}{{@{{}}>{{\\raggedright\\arraybackslash}}p{{\\linewidth}}@{{}}}}{{{note}}} \\\\\n",
            names.len() + 2 + usize::from(proved),
        ));
    }
    out.push_str("\\end{tabular}%\n\\endgroup%\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameBox, GameParams, GameSpec};
    use crate::survey::{BuiltinFamily, Finders, ShiftSpec, SurveyBox, SurveyOptions};
    use crate::Control;

    /// The survey of triangular k over a box, shift rules only.
    fn triangular(k: i64, n: u32) -> ValueReport {
        let family = BuiltinFamily::new("triangular", "k", GameParams::default()).unwrap();
        let options = SurveyOptions {
            game_box: SurveyBox::fixed(&GameBox::Uniform(n)),
            finders: Finders {
                shifts: Some(ShiftSpec::Each(vec![-2..=2, 0..=0, -2..=2])),
                constants: None,
                nim_sum: false,
                periods: false,
            },
            listed: 40,
            memory_limit: 1 << 30,
        };
        crate::survey::survey(&family, &[k], &options, &Control::default())
            .unwrap()
            .remove(0)
    }

    /// Every position of the game and whether it is P, by the solver.
    fn positions(k: u32, bounds: &[u32]) -> Vec<(Vec<u32>, bool)> {
        let game = GameSpec::from_name(
            "triangular",
            &GameParams {
                k: Some(k),
                ..Default::default()
            },
        )
        .unwrap();
        game.solve(
            &GameBox::Each(bounds.to_vec()),
            1 << 30,
            &crate::Control::default(),
        )
        .unwrap()
        .positions()
        .map(|(p, g)| (p, g == 0))
        .collect()
    }

    #[test]
    fn the_sieve_counts_the_positions_its_projection_merges() {
        let v = triangular(2, 16);
        let drawn = sieve_cells(&v, "k", &[]);
        let all = positions(2, &v.bounds);
        let p: Vec<&Vec<u32>> = all
            .iter()
            .filter(|(_, is_p)| *is_p)
            .map(|(p, _)| p)
            .collect();
        let cells: std::collections::BTreeSet<(i64, i64)> = p
            .iter()
            .map(|p| (i64::from(p[1]), i64::from(p[0]) - i64::from(p[2])))
            .collect();
        assert_eq!(drawn.cells.len(), cells.len());
        let merged = p.len() - cells.len();
        assert!(merged > 0);
        assert!(
            drawn.title.contains(&format!(
                "{} P-positions on {} cells ({merged} merged by the projection)",
                p.len(),
                cells.len()
            )),
            "{}",
            drawn.title
        );
    }

    #[test]
    fn a_slice_draws_every_position_of_it_and_marks_exceptions_by_kind() {
        let v = triangular(2, 16);
        let (_, listed) = marked(&v).expect("k = 2 has no rule: its exceptions are marked");
        assert!(listed.iter().any(|e| e.is_p) && listed.iter().any(|e| !e.is_p));
        let all = positions(2, &v.bounds);
        for y in 0..4u32 {
            let drawn = slice_cells(&v, "k", listed, "y", y).unwrap();
            let mut want: Vec<((i64, i64), u8)> = all
                .iter()
                .filter(|(p, _)| p[1] == y)
                .map(|(p, is_p)| {
                    (
                        (i64::from(p[0]), i64::from(p[2])),
                        if *is_p { 2 } else { 1 },
                    )
                })
                .collect();
            let mut got = drawn.cells.clone();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "y = {y}");
            let mut marks = drawn.marks.clone();
            marks.sort_by_key(|m| m.0);
            let mut expected: Vec<((i64, i64), ExceptionMark)> = listed
                .iter()
                .filter(|e| e.position[1] == y)
                .map(|e| {
                    let p = &e.position;
                    let is_p = all.iter().any(|(q, is_p)| q == p && *is_p);
                    assert_eq!(is_p, e.is_p);
                    (
                        (i64::from(p[0]), i64::from(p[2])),
                        if is_p {
                            ExceptionMark::PBreaks
                        } else {
                            ExceptionMark::NFits
                        },
                    )
                })
                .collect();
            expected.sort_by_key(|m| m.0);
            assert_eq!(marks, expected, "y = {y}");
        }
        assert!(slice_cells(&v, "k", listed, "w", 1).is_err());
    }

    #[test]
    fn the_marks_differ_by_shape_and_the_fills_by_grey() {
        let v = triangular(2, 16);
        let (_, listed) = marked(&v).unwrap();
        let y = listed[0].position[1];
        let in_slice = listed.iter().filter(|e| e.position[1] == y).count();
        let view = FigureView {
            plot: SurveyPlot::Slice("y".into(), y),
            width: 241,
            on_paper: true,
            exact: true,
            aspect: None,
        };
        let scene = value_scene(&v, "k", &view).unwrap().unwrap();
        assert_eq!(scene.width, 241);
        // Two shapes: rectangles (5 commands) for P breaks, diamonds for N fits,
        // each an ink line over a white casing.
        let ink_paths: Vec<&PathItem> = scene
            .items
            .iter()
            .filter_map(|i| match i {
                crate::library::scene::Item::Path(p) if p.stroke.is_some_and(|s| s.0 == INK) => {
                    Some(p)
                }
                _ => None,
            })
            .collect();
        // The axes are ink too: at least one more path per mark.
        let white: Vec<&crate::library::scene::Item> = scene
            .items
            .iter()
            .filter(|i| matches!(i, crate::library::scene::Item::Path(p) if p.stroke.is_some_and(|s| s.0 == Color::WHITE)))
            .collect();
        assert_eq!(white.len(), in_slice);
        assert!(ink_paths.len() >= in_slice);
        // In greyscale the P-positions' blue, the game's grey and white differ.
        let greys = [okabe_ito::BLUE, GAME_GREY, Color::WHITE].map(|c| c.luminance());
        assert!(
            greys[1] - greys[0] > 0.25 && greys[2] - greys[1] > 0.1,
            "{greys:?}"
        );
    }

    #[test]
    fn a_counterexample_beyond_the_box_is_marked_where_the_sieve_draws_it() {
        // k = 3 in the box 16: the sieve spans y 0..10 and x - z -16..16.
        let v = triangular(3, 16);
        let view = FigureView::default();
        let white = |scene: &Scene| {
            scene
                .items
                .iter()
                .filter(|i| matches!(i, crate::library::scene::Item::Path(p) if p.stroke.is_some_and(|s| s.0 == Color::WHITE)))
                .count()
        };
        let texts = |scene: &Scene| format!("{:?}", scene.items);
        let plain = value_scene(&v, "k", &view).unwrap().unwrap();
        // (20, 4, 18) lies beyond the box (x = 20 > 16) and on the sieve's cell (4, 2).
        let inside = value_scene_with(&v, "k", &view, &[vec![20, 4, 18]])
            .unwrap()
            .unwrap();
        assert_eq!(white(&inside), white(&plain) + 1);
        assert!(texts(&inside).contains("counterexample beyond the box"));
        assert!(!texts(&plain).contains("counterexample beyond the box"));
        // (90, 40, 3): y = 40 is past the drawing; nothing marked, no key entry.
        let outside = value_scene_with(&v, "k", &view, &[vec![90, 40, 3]])
            .unwrap()
            .unwrap();
        assert_eq!(white(&outside), white(&plain));
        assert!(!texts(&outside).contains("counterexample beyond the box"));
    }

    #[test]
    fn the_latex_table_escapes_what_a_game_file_names() {
        let mut v = triangular(2, 8);
        v.names = vec!["x$\\input{a}".into(), "y".into(), "z%".into()];
        let report = SurveyReport {
            family: "game file \\write18{rm}".into(),
            parameter: "k".into(),
            game_box: "8".into(),
            values: vec![v],
            view: FigureView::default(),
            style: Default::default(),
            proofs: None,
        };
        let tex = tex(&report, "nimscape survey $x").unwrap();
        let body: Vec<&str> = tex.lines().filter(|l| !l.starts_with('%')).collect();
        let body = body.join("\n");
        assert!(!body.contains("\\input{"), "{body}");
        assert!(!body.contains("\\write18"), "{body}");
        assert!(body.contains("x\\$\\textbackslash{}input\\{a\\}"), "{body}");
        assert!(body.contains("z\\%"), "{body}");
        assert!(body.contains("\\begin{tabular}") && body.contains("\\end{tabular}"));
        // The family named in a comment cannot end it: one line.
        assert!(tex
            .lines()
            .next()
            .unwrap()
            .starts_with("% Survey of game file"));
    }
}
