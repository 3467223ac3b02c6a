//! A recipe's figure or survey as a request: its keys become `name = value`
//! pairs for the request layer, which validates them once; an error names the
//! recipe file, the line of the key at fault and the key itself.

use super::{same_key, FigureEntry, Param, ParamValue, Recipe, SurveyEntry};
use crate::figure;
use crate::request::survey::PlannedSurvey;
use crate::request::{self, Budget, Naming, Planned, Value};
use std::path::PathBuf;

/// `file:line: figure 'name': [what: ]message`, the key at fault's line when the
/// error names one of the figure's keys, the figure's header line otherwise.
pub fn located(
    recipe: &Recipe,
    entry: &FigureEntry,
    params: &[Param],
    what: Option<&str>,
    err: &crate::Error,
) -> String {
    let line = err
        .parameter()
        .and_then(|name| params.iter().find(|p| same_key(&p.key, name)))
        .map_or(entry.line, |p| p.line);
    format!(
        "{}:{line}: figure '{}': {}{}",
        recipe.path.display(),
        entry.name,
        what.map(|w| format!("{w}: ")).unwrap_or_default(),
        Naming::Keys.message(err)
    )
}

/// The parameters a figure is drawn with: its own (with `quick` overrides when
/// asked), then the recipe's defaults for keys its model takes and it leaves out.
pub fn parameters(recipe: &Recipe, entry: &FigureEntry, quick: bool) -> Vec<Param> {
    let model: Vec<&str> = entry.model.iter().map(String::as_str).collect();
    let mut params = entry.effective_params(quick);
    for default in &recipe.defaults {
        if request::takes(&model, &default.key)
            && !params.iter().any(|p| same_key(&p.key, &default.key))
        {
            params.push(default.clone());
        }
    }
    params
}

/// `path` read from the recipe's folder (an absolute path stays as it is).
fn relative_to(recipe: &Recipe, path: &str) -> String {
    match recipe.path.parent() {
        Some(folder) if !std::path::Path::new(path).is_absolute() => {
            folder.join(path).display().to_string()
        }
        _ => path.to_string(),
    }
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
    let planned = request::plan_pairs(&model, &pairs, budget).map_err(|e| at(&e))?;
    for &format in &entry.formats {
        let probe = PathBuf::from(format!("probe.{}", format.extension()));
        figure::format_of(planned.figure(), &probe).map_err(|e| at(&e))?;
        planned
            .figure()
            .check(format)
            .map_err(|e| located(recipe, entry, &params, Some(format.extension()), &e))?;
    }
    Ok(planned)
}

/// `file:line: survey 'name': message`, at the line of the key at fault when the
/// error names one of the survey's keys, at the survey's header otherwise.
pub fn located_survey(
    recipe: &Recipe,
    entry: &SurveyEntry,
    params: &[Param],
    err: &crate::Error,
) -> String {
    let line = err
        .parameter()
        .and_then(|name| params.iter().find(|p| same_key(&p.key, name)))
        .map_or(entry.line, |p| p.line);
    format!(
        "{}:{line}: survey '{}': {}",
        recipe.path.display(),
        entry.name,
        Naming::Keys.message(err)
    )
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
