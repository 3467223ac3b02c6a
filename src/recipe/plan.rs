//! A recipe's figure or survey as a request: its keys become `name = value`
//! pairs for the request layer, which validates them once; an error names the
//! recipe file, the line of the key at fault and the key itself.

use super::file::{same_key, FigureEntry, Param, ParamValue, ProveEntry, Recipe, SurveyEntry};
use crate::request::survey::PlannedSurvey;
use crate::request::{self, Budget, Naming, Planned, Value};
use std::path::{Component, Path, PathBuf};

/// `file:line: figure 'name': [what: ]message`, the key at fault's line when the
/// error names one of the figure's keys, the figure's header line otherwise.
pub(crate) fn located(
    recipe: &Recipe,
    entry: &FigureEntry,
    params: &[Param],
    what: Option<&str>,
    err: &crate::Error,
) -> String {
    locate(recipe, "figure", &entry.name, entry.line, params, what, err)
}

/// `file:line: KIND 'name': [what: ]message`, at the line of the key the error
/// names, else at `header` (the entry's first line).
fn locate(
    recipe: &Recipe,
    kind: &str,
    name: &str,
    header: usize,
    params: &[Param],
    what: Option<&str>,
    err: &crate::Error,
) -> String {
    let line = err
        .parameter()
        .and_then(|key| params.iter().find(|p| same_key(&p.key, key)))
        .map_or(header, |p| p.line);
    format!(
        "{}:{line}: {kind} '{name}': {}{}",
        recipe.path.display(),
        what.map(|w| format!("{w}: ")).unwrap_or_default(),
        Naming::Keys.message(err)
    )
}

/// Models whose `--no-caption` takes away a title drawn above the figure (the
/// game and box of a table, a chart's or a 3D view's headline), not the labels
/// that tell panels and frames apart (`m = 11`, `H(4,11)`), which stay.
const TITLED_MODELS: [&[&str]; 3] = [&["grundy"], &["count"], &["octahedron", "view"]];

/// The parameters a figure is drawn with: its own (with `quick` overrides when
/// asked), then the recipe's defaults for keys its model takes and it leaves out.
/// Unless the recipe says `titles = true`, a figure that draws a title leaves it
/// out (`no-caption = true` on the figure's header line): the recipe's caption is
/// the caption, in LaTeX and in the gallery. `no-caption = false` keeps it.
pub(crate) fn parameters(recipe: &Recipe, entry: &FigureEntry, quick: bool) -> Vec<Param> {
    let model: Vec<&str> = entry.model.iter().map(String::as_str).collect();
    let mut params = entry.effective_params(quick);
    if let Some(width) = layout_width(recipe, entry, &params) {
        if request::takes(&model, "width") {
            params.push(Param {
                key: "width".into(),
                value: ParamValue::Text(width),
                line: entry.line,
            });
        }
    }
    for default in &recipe.defaults {
        if request::takes(&model, &default.key)
            && !params.iter().any(|p| same_key(&p.key, &default.key))
        {
            params.push(default.clone());
        }
    }
    // A figure drawn as a PDF is drawn for the paper (figures.tex includes its PDF
    // first), so its text is set in the serif that sits beside a LaTeX body, unless
    // the figure or `[defaults]` names a font. Its other formats follow, so the
    // figure reads the same in the gallery as in the paper.
    if entry.formats.contains(&crate::request::Format::Pdf)
        && request::takes(&model, "font")
        && !params.iter().any(|p| same_key(&p.key, "font"))
    {
        params.push(Param {
            key: "font".into(),
            value: ParamValue::Text(PAPER_FONT.into()),
            line: entry.line,
        });
    }
    let says = |key: &str| params.iter().any(|p| same_key(&p.key, key));
    if !recipe.titles
        && TITLED_MODELS.contains(&model.as_slice())
        && !says("no-caption")
        && !says("no-title")
    {
        params.push(Param {
            key: "no-caption".into(),
            value: ParamValue::Switch(true),
            line: entry.line,
        });
    }
    params
}

/// The font of a recipe's PDF figures when neither the figure nor `[defaults]`
/// names one: DejaVu Serif, beside the paper's serif body text.
const PAPER_FONT: &str = "serif";

/// The column of a two-column layout when neither the recipe nor `render
/// --width` names one: a journal's (docs/print.md), inside the gallery's
/// `figure`/`figure*` line (89 mm).
pub(crate) const TWO_COLUMN_WIDTH: &str = "85mm";

/// The gap between a two-column page's columns, which a wide figure spans too.
const COLUMN_GAP_MM: f64 = 8.0;

/// The width the layout gives a drawn figure that sets none of its own size
/// keys: the layout's column (`render --width`, the recipe's `width`, 85 mm in
/// two columns); a `wide` figure of two columns both columns and their gap.
fn layout_width(recipe: &Recipe, entry: &FigureEntry, params: &[Param]) -> Option<String> {
    const SIZE_KEYS: [&str; 6] = ["width", "panel", "cell", "size", "raw", "window"];
    // Data alone (CSV, JSON, NumPy) has no width.
    let drawn = entry.formats.iter().any(|f| {
        !matches!(
            f,
            crate::request::Format::Csv
                | crate::request::Format::Json
                | crate::request::Format::Npy
        )
    });
    if !drawn
        || params
            .iter()
            .any(|p| SIZE_KEYS.iter().any(|k| same_key(&p.key, k)))
    {
        return None;
    }
    let two = recipe.columns == Some(super::file::Columns::Two);
    let column = match (&recipe.width, two) {
        (Some(width), _) => width.clone(),
        (None, true) => TWO_COLUMN_WIDTH.to_string(),
        (None, false) => return None,
    };
    if !(two && entry.wide) {
        return Some(column);
    }
    // Both columns and the gap, when the column is a length on paper.
    match crate::request::millimetres(&column) {
        Some(mm) => Some(format!("{:.1}mm", 2.0 * mm + COLUMN_GAP_MM)),
        None => Some(column),
    }
}

/// `path` read from the recipe's folder (an absolute path stays as it is),
/// with `folder/..` folded away so the command a page prints names the file
/// as a reader finds it (`games/x.toml`, not `templates/../games/x.toml`).
fn relative_to(recipe: &Recipe, path: &str) -> String {
    match recipe.path.parent() {
        Some(folder) if !Path::new(path).is_absolute() => {
            fold_parents(&folder.join(path)).display().to_string()
        }
        _ => path.to_string(),
    }
}

/// `a/b/../c` as `a/c`, by the names alone; a `..` with no name before it stays.
fn fold_parents(path: &Path) -> PathBuf {
    let mut folded = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(folded.components().next_back(), Some(Component::Normal(_))) =>
            {
                folded.pop();
            }
            other => folded.push(other),
        }
    }
    folded
}

/// A recipe's keys as `name = value` pairs; a game file is named relative to the
/// recipe, like an include.
fn pairs_of(recipe: &Recipe, params: &[Param]) -> Vec<(String, Value)> {
    params
        .iter()
        .map(|p| {
            let value = match &p.value {
                ParamValue::Text(text)
                    if same_key(&p.key, "game") && request::grundy::is_game_file(text) =>
                {
                    Value::Text(relative_to(recipe, text))
                }
                ParamValue::Text(text) => Value::Text(text.clone()),
                ParamValue::Switch(on) => Value::Switch(*on),
            };
            (p.key.clone(), value)
        })
        .collect()
}

/// Plans one figure of a recipe and checks every format it asks for, all before
/// anything is drawn.
pub fn plan(
    recipe: &Recipe,
    entry: &FigureEntry,
    quick: bool,
    budget: &Budget,
) -> Result<Planned, String> {
    let params = parameters(recipe, entry, quick);
    let at = |err: &crate::Error| located(recipe, entry, &params, None, err);
    let model: Vec<&str> = entry.model.iter().map(String::as_str).collect();
    let pairs = pairs_of(recipe, &params);
    // A built-in recipe's game file is the copy in the binary, under the name
    // the recipe gives it.
    let embedded_game = pairs.iter().find_map(|(key, value)| match value {
        Value::Text(path) if recipe.embedded && same_key(key, "game") => {
            super::builtin::game(path).map(|text| (path.as_str(), text))
        }
        _ => None,
    });
    let files = match embedded_game {
        Some((name, text)) => request::grundy::GameFiles::Given { name, text },
        None => request::grundy::GameFiles::Disk,
    };
    let planned = request::plan_pairs_with(&model, &pairs, budget, files).map_err(|e| at(&e))?;
    for &format in &entry.formats {
        let probe = PathBuf::from(format!("probe.{}", format.extension()));
        planned.format_of(&probe).map_err(|e| at(&e))?;
        planned
            .check(format)
            .map_err(|e| located(recipe, entry, &params, Some(format.extension()), &e))?;
    }
    Ok(planned)
}

/// `file:line: survey 'name': message`, at the line of the key at fault when the
/// error names one of the survey's keys, at the survey's header otherwise.
pub(crate) fn located_survey(
    recipe: &Recipe,
    entry: &SurveyEntry,
    params: &[Param],
    err: &crate::Error,
) -> String {
    locate(recipe, "survey", &entry.name, entry.line, params, None, err)
}

/// Plans one survey of a recipe through the request layer (the same definition
/// and validation as `nimscape survey`), a game file named relative to the
/// recipe; nothing is solved yet. `[defaults]` are for figures and do not apply.
pub fn plan_survey(
    recipe: &Recipe,
    entry: &SurveyEntry,
    quick: bool,
    budget: &Budget,
) -> Result<PlannedSurvey, String> {
    let params = entry.effective_params(quick);
    let pairs = pairs_of(recipe, &params);
    request::survey::plan_pairs(&pairs, budget.memory_limit)
        .map_err(|e| located_survey(recipe, entry, &params, &e))
}

/// Plans one `[[prove]]` of a recipe through the request layer (the same
/// definition and validation as `nimscape prove`), a game file named relative
/// to the recipe; the engine is not run yet.
pub fn plan_prove(
    recipe: &Recipe,
    entry: &ProveEntry,
    quick: bool,
) -> Result<request::prove::PlannedProve, String> {
    let params = entry.effective_params(quick);
    let pairs = pairs_of(recipe, &params);
    request::prove::plan_pairs(&pairs)
        .map_err(|e| locate(recipe, "prove", &entry.name, entry.line, &params, None, &e))
}

#[cfg(test)]
mod tests {
    use super::fold_parents;
    use std::path::Path;

    #[test]
    fn a_folder_and_its_parent_fold_away_by_name() {
        let folded = |p: &str| fold_parents(Path::new(p)).display().to_string();
        assert_eq!(folded("templates/../games/nim.toml"), "games/nim.toml");
        assert_eq!(folded("a/./b/../../c.toml"), "c.toml");
        // Nothing to fold into: the `..` is kept, so the path still resolves.
        assert_eq!(folded("../games/nim.toml"), "../games/nim.toml");
        assert_eq!(folded("/srv/r/../g.toml"), "/srv/g.toml");
    }

    /// The layout's width reaches the figures without a size of their own; a
    /// wide figure of two columns spans both and their gap; data has none.
    #[test]
    fn the_layout_width_reaches_figures_without_a_size_of_their_own() {
        use super::super::file::{Columns, Recipe};
        let text = r#"
title = "T"
width = "160mm"
[[figure]]
name = "plain"
model = "square"
m = 5
[[figure]]
name = "wide"
model = "square"
m = "3,5"
wide = true
[[figure]]
name = "own"
model = "square"
m = 5
width = "50mm"
[[figure]]
name = "panel"
model = "square"
m = 5
panel = 40
[[figure]]
name = "data"
model = "square"
m = 5
formats = ["csv"]
"#;
        let mut recipe = Recipe::parse(Path::new("t.toml"), text).unwrap();
        let width = |recipe: &Recipe, k: usize| {
            super::parameters(recipe, &recipe.figures[k], false)
                .iter()
                .find(|p| p.key == "width")
                .map(|p| format!("{:?}", p.value))
        };
        let text_of = |w: &str| Some(format!("{:?}", super::ParamValue::Text(w.into())));
        assert_eq!(width(&recipe, 0), text_of("160mm"));
        assert_eq!(width(&recipe, 1), text_of("160mm"));
        assert_eq!(width(&recipe, 2), text_of("50mm"));
        assert_eq!(width(&recipe, 3), None);
        assert_eq!(width(&recipe, 4), None);
        // Two columns of 85 mm (the recipe's width was its one column's).
        recipe.columns = Some(Columns::Two);
        recipe.width = None;
        assert_eq!(width(&recipe, 0), text_of("85mm"));
        assert_eq!(width(&recipe, 1), text_of("178.0mm"));
        assert!(Recipe::parse(
            Path::new("t.toml"),
            "[[figure]]\nname = \"a\"\nmodel = \"square\"\nwide = 2"
        )
        .unwrap_err()
        .to_string()
        .contains("'wide' takes true or false"));
    }
}
