//! A recipe file read: TOML parsed into a [`Recipe`] of figure, survey and
//! prove entries, every key kept with its line so that errors can name it.

use crate::request::Format;
use crate::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// A parameter value, already in the words a command line would use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamValue {
    /// A single value (`m = 11`, `p-color = "navy"`).
    Text(String),
    /// A switch (`decompose = true`).
    Switch(bool),
}

/// One `key = value` of a figure, with the line it stands on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// The key as written.
    pub key: String,
    /// Its value.
    pub value: ParamValue,
    /// 1-based line in the recipe file.
    pub line: usize,
}

/// One figure of a set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FigureEntry {
    /// File stem of its outputs, and its `--only` name.
    pub name: String,
    /// The subcommand words, e.g. `["octahedron", "section"]`.
    pub model: Vec<String>,
    /// Caption for the gallery and the LaTeX snippet.
    pub caption: String,
    /// Caption for LaTeX, when the plain one has characters pdflatex would choke on.
    pub tex_caption: Option<String>,
    /// Files to write, one per format.
    pub formats: Vec<Format>,
    /// The subcommand's flags (defaults already merged in where the figure has none).
    pub params: Vec<Param>,
    /// Overrides for quick renders.
    pub quick: Vec<Param>,
    /// Line of the figure's `[[figure]]` header.
    pub line: usize,
    /// `wide = true`: in a two-column layout the figure spans both columns
    /// (drawn at their width, set as `figure*`); otherwise it is a column's.
    pub wide: bool,
}

impl FigureEntry {
    /// The parameters in force: the figure's own, with quick overrides when asked.
    pub fn effective_params(&self, quick: bool) -> Vec<Param> {
        overridden(&self.params, &self.quick, quick)
    }
}

/// Keys match whether written with `-` or `_`.
pub fn same_key(a: &str, b: &str) -> bool {
    a.replace('_', "-") == b.replace('_', "-")
}

/// One conjecture survey of a set: `nimscape survey`'s flags as keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurveyEntry {
    /// File stem of its reports, and its `--only` name.
    pub name: String,
    /// A line for the gallery.
    pub caption: String,
    /// Reports to write: `md` (a page with a figure per value beside it), `json`, `csv`, `tex` (a LaTeX table).
    pub formats: Vec<String>,
    /// The survey's flags (`game`, `cap`, `param`, `box`, `find`, ...).
    pub params: Vec<Param>,
    /// Overrides for quick renders.
    pub quick: Vec<Param>,
    /// Line of the survey's `[[survey]]` header.
    pub line: usize,
}

impl SurveyEntry {
    /// The parameters in force: the survey's own, with quick overrides when asked.
    pub fn effective_params(&self, quick: bool) -> Vec<Param> {
        overridden(&self.params, &self.quick, quick)
    }
}

/// `params` with `overrides` in force when `quick`.
fn overridden(params: &[Param], overrides: &[Param], quick: bool) -> Vec<Param> {
    let mut params = params.to_vec();
    if quick {
        for over in overrides {
            match params.iter_mut().find(|p| same_key(&p.key, &over.key)) {
                Some(p) => *p = over.clone(),
                None => params.push(over.clone()),
            }
        }
    }
    params
}

/// One claim to prove of a set: `nimscape prove`'s flags as keys; its
/// certificate goes into the folder `name` beside the figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProveEntry {
    /// The certificate's folder, and its `--only` name.
    pub name: String,
    /// A line for the gallery.
    pub caption: String,
    /// The prover's flags (`game`, `cap`, `param`, `claim`, `grundy`, `where`, `theorem`, `timeout`).
    pub params: Vec<Param>,
    /// Overrides for quick renders.
    pub quick: Vec<Param>,
    /// Line of the entry's `[[prove]]` header.
    pub line: usize,
}

impl ProveEntry {
    /// The parameters in force: the entry's own, with quick overrides when asked.
    pub fn effective_params(&self, quick: bool) -> Vec<Param> {
        overridden(&self.params, &self.quick, quick)
    }
}

/// The reports a `[[survey]]` may ask for.
pub(crate) const SURVEY_FORMATS: [&str; 4] = ["md", "json", "csv", "tex"];

/// The paper's layout, which decides the environment of a wide figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Columns {
    /// One column (or slides): every figure a `figure`.
    #[default]
    One,
    /// Two columns: a figure wider than a column (89 mm, COLUMN_BP in the gallery)
    /// spans both (`figure*`).
    Two,
}

impl Columns {
    /// `1` or `2`.
    pub fn from_count(count: i64) -> Option<Columns> {
        match count {
            1 => Some(Columns::One),
            2 => Some(Columns::Two),
            _ => None,
        }
    }
}

/// A parsed figure set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipe {
    /// The file it came from.
    pub path: PathBuf,
    /// The set's title.
    pub title: String,
    /// The set's folder name under the output root.
    pub name: String,
    /// Which paper it redraws, for the gallery.
    pub source: Option<String>,
    /// Parameters from `[defaults]`, each applied to the figures whose model takes it.
    pub defaults: Vec<Param>,
    /// The figures, in file order.
    pub figures: Vec<FigureEntry>,
    /// The conjecture surveys, in file order.
    pub surveys: Vec<SurveyEntry>,
    /// The claims to prove, in file order.
    pub proofs: Vec<ProveEntry>,
    /// The paper's layout (`columns = 1` or `2`), which `render --columns` overrides.
    pub columns: Option<Columns>,
    /// The width of the layout's column (`width = "85mm"`; one column: the text's
    /// width), which `render --width` overrides: every figure without a size of
    /// its own is drawn at it (a `wide` figure of a two-column layout at both
    /// columns'). Unset, a two-column layout's column is 85 mm.
    pub width: Option<String>,
    /// `titles = true`: figures keep the title they draw on top. By default a
    /// recipe's figures leave it out, since `caption` captions them in LaTeX and
    /// in the gallery.
    pub titles: bool,
    /// Built into the binary ([`super::builtin`]): its game files are the embedded copies.
    pub embedded: bool,
}

/// The formats a recipe may ask for.
const FORMATS: [Format; 9] = [
    Format::Png,
    Format::Svg,
    Format::Pdf,
    Format::Tikz,
    Format::Gif,
    Format::Apng,
    Format::Csv,
    Format::Json,
    Format::Npy,
];

type Table = BTreeMap<Spanned<String>, Spanned<toml::Value>>;

struct Source<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Source<'_> {
    fn line(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    fn error(&self, offset: usize, message: impl std::fmt::Display) -> Error {
        Error::invalid_request(format!(
            "{}:{}: {message}",
            self.path.display(),
            self.line(offset)
        ))
    }
}

fn type_name(value: &toml::Value) -> &'static str {
    match value {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "a whole number",
        toml::Value::Float(_) => "a number",
        toml::Value::Boolean(_) => "true or false",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "a list",
        toml::Value::Table(_) => "a table",
    }
}

fn scalar_text(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        _ => None,
    }
}

fn param(src: &Source, key: &Spanned<String>, value: &Spanned<toml::Value>) -> Result<Param> {
    let line = src.line(key.span().start);
    let value = match value.get_ref() {
        toml::Value::Boolean(b) => ParamValue::Switch(*b),
        toml::Value::Array(items) => {
            let words: Option<Vec<String>> = items.iter().map(scalar_text).collect();
            ParamValue::Text(
                words
                    .ok_or_else(|| {
                        src.error(
                            key.span().start,
                            format!(
                                "key '{}': a list may hold only numbers and strings",
                                key.get_ref()
                            ),
                        )
                    })?
                    .join(","),
            )
        }
        other => ParamValue::Text(scalar_text(other).ok_or_else(|| {
            src.error(
                key.span().start,
                format!(
                    "key '{}' takes a value, not {}",
                    key.get_ref(),
                    type_name(other)
                ),
            )
        })?),
    };
    Ok(Param {
        key: key.get_ref().clone(),
        value,
        line,
    })
}

fn string_of(src: &Source, key: &Spanned<String>, value: &Spanned<toml::Value>) -> Result<String> {
    match value.get_ref() {
        toml::Value::String(s) => Ok(s.clone()),
        other => Err(src.error(
            key.span().start,
            format!(
                "key '{}' must be a string, not {}",
                key.get_ref(),
                type_name(other)
            ),
        )),
    }
}

fn formats_of(
    src: &Source,
    key: &Spanned<String>,
    value: &Spanned<toml::Value>,
) -> Result<Vec<Format>> {
    let allowed = FORMATS
        .iter()
        .map(|f| f.extension())
        .collect::<Vec<_>>()
        .join(", ");
    let toml::Value::Array(items) = value.get_ref() else {
        return Err(src.error(
            key.span().start,
            format!("key 'formats' must be a list such as [\"png\", \"pdf\"] ({allowed})"),
        ));
    };
    items
        .iter()
        .map(|item| {
            let text = item.as_str().unwrap_or_default().to_ascii_lowercase();
            FORMATS
                .iter()
                .copied()
                .find(|f| f.extension() == text)
                .ok_or_else(|| {
                    let shown = item
                        .as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| item.to_string());
                    src.error(
                        key.span().start,
                        format!("unknown format '{shown}' in 'formats'; allowed: {allowed}"),
                    )
                })
        })
        .collect()
}

/// The largest recipe file read (the papers' recipes are a few KiB).
pub(crate) const MAX_RECIPE_BYTES: u64 = 1024 * 1024;

/// The recipe file as TOML gives it, spans kept for every key that can be wrong.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecipe {
    title: Option<String>,
    name: Option<Spanned<String>>,
    source: Option<String>,
    columns: Option<Spanned<i64>>,
    width: Option<String>,
    titles: Option<bool>,
    defaults: Option<Table>,
    figure: Option<Vec<Spanned<Table>>>,
    survey: Option<Vec<Spanned<Table>>>,
    prove: Option<Vec<Spanned<Table>>>,
}

impl Recipe {
    /// Reads and parses a recipe file.
    /// Only regular files of at most `MAX_RECIPE_BYTES` are read: a FIFO would block
    /// for ever, `/dev/zero` would be read until memory runs out.
    pub fn load(path: &Path) -> Result<Recipe> {
        use std::io::Read;
        let cannot = |why: String| {
            Error::invalid_request(format!("cannot read recipe '{}': {why}", path.display()))
        };
        let metadata = std::fs::metadata(path).map_err(|e| cannot(e.to_string()))?;
        if !metadata.is_file() {
            return Err(cannot(
                "not a regular file (a recipe is a .toml file; FIFOs and devices are not read)"
                    .into(),
            ));
        }
        let too_large = || {
            cannot(format!(
                "larger than {} KiB; a recipe lists figures, not data",
                MAX_RECIPE_BYTES / 1024
            ))
        };
        if metadata.len() > MAX_RECIPE_BYTES {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|file| file.take(MAX_RECIPE_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| cannot(e.to_string()))?;
        if bytes.len() as u64 > MAX_RECIPE_BYTES {
            return Err(too_large());
        }
        let text = String::from_utf8(bytes).map_err(|_| cannot("not UTF-8 text".into()))?;
        Recipe::parse(path, &text)
    }

    /// Parses recipe text; `path` names the file in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Recipe> {
        let src = Source { path, text };
        let raw: RawRecipe = toml::from_str(text).map_err(|e| {
            let offset = e.span().map(|s| s.start).unwrap_or(0);
            let message = e.message().trim().replace('\n', " ");
            let message = message
                .replace("unknown field", "unknown key")
                .replace("expected one of", "allowed:");
            src.error(offset, format!("TOML: {message}"))
        })?;
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("figures")
            .to_string();
        let (name, name_at) = match raw.name {
            Some(name) => (name.get_ref().clone(), name.span().start),
            None => (stem.clone(), 0),
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(src.error(name_at, format!("name '{name}' must be letters, digits, '-' or '_' (it names the output folder)")));
        }
        let columns = match raw.columns {
            Some(count) => Some(Columns::from_count(*count.get_ref()).ok_or_else(|| {
                src.error(
                    count.span().start,
                    format!(
                        "columns = {}: the paper has 1 or 2 columns",
                        count.get_ref()
                    ),
                )
            })?),
            None => None,
        };
        let mut defaults = Vec::new();
        let mut default_formats = vec![Format::Png, Format::Svg];
        for (key, value) in raw.defaults.iter().flatten() {
            if key.get_ref() == "formats" {
                default_formats = formats_of(&src, key, value)?;
            } else {
                defaults.push(param(&src, key, value)?);
            }
        }
        if raw.figure.is_none() && raw.survey.is_none() && raw.prove.is_none() {
            return Err(src.error(
                text.len(),
                "no [[figure]], [[survey]] or [[prove]] in the recipe",
            ));
        }
        let figures = raw
            .figure
            .iter()
            .flatten()
            .map(|figure| parse_figure(&src, figure, &default_formats))
            .collect::<Result<Vec<_>>>()?;
        let surveys = raw
            .survey
            .iter()
            .flatten()
            .map(|survey| parse_survey(&src, survey))
            .collect::<Result<Vec<_>>>()?;
        let proofs = raw
            .prove
            .iter()
            .flatten()
            .map(|entry| parse_prove(&src, entry))
            .collect::<Result<Vec<_>>>()?;
        let mut seen = std::collections::BTreeSet::new();
        let named = figures
            .iter()
            .map(|f| ("figure", &f.name, f.line))
            .chain(surveys.iter().map(|s| ("survey", &s.name, s.line)))
            .chain(proofs.iter().map(|p| ("prove", &p.name, p.line)));
        for (kind, name, line) in named {
            if !seen.insert(name.clone()) {
                return Err(Error::invalid_request(format!(
                    "{}:{line}: a second {kind} named '{name}'; names of figures, surveys and proofs must be unique (they name the files)",
                    path.display(),
                )));
            }
        }
        Ok(Recipe {
            path: path.to_path_buf(),
            title: raw.title.unwrap_or(stem),
            name,
            source: raw.source,
            defaults,
            figures,
            surveys,
            proofs,
            columns,
            width: raw.width,
            titles: raw.titles.unwrap_or(false),
            embedded: false,
        })
    }
}

/// Overrides of a `quick = { ... }` table; inline tables keep no spans of their
/// own, so each reports the `quick` line.
fn quick_params(
    src: &Source,
    key: &Spanned<String>,
    value: &Spanned<toml::Value>,
    example: &str,
) -> Result<Vec<Param>> {
    let toml::Value::Table(inner) = value.get_ref() else {
        return Err(src.error(
            key.span().start,
            format!("key 'quick' must be a table such as {example}"),
        ));
    };
    inner
        .iter()
        .map(|(k, v)| {
            let spanned_key = Spanned::new(key.span(), k.clone());
            let spanned_value = Spanned::new(key.span(), v.clone());
            param(src, &spanned_key, &spanned_value)
        })
        .collect()
}

fn parse_survey(src: &Source, survey: &Spanned<Table>) -> Result<SurveyEntry> {
    let at = survey.span().start;
    let mut entry = SurveyEntry {
        name: String::new(),
        caption: String::new(),
        formats: vec!["md".to_string()],
        params: Vec::new(),
        quick: Vec::new(),
        line: src.line(at),
    };
    for (key, value) in survey.get_ref() {
        match key.get_ref().replace('_', "-").as_str() {
            "name" => entry.name = string_of(src, key, value)?,
            "caption" => entry.caption = string_of(src, key, value)?,
            "formats" => {
                let bad = |shown: String| {
                    src.error(
                        key.span().start,
                        format!(
                            "key 'formats' of a survey: {shown}; allowed: a list of {}",
                            SURVEY_FORMATS.join(", ")
                        ),
                    )
                };
                let toml::Value::Array(items) = value.get_ref() else {
                    return Err(bad(format!("not {}", type_name(value.get_ref()))));
                };
                entry.formats = items
                    .iter()
                    .map(|item| {
                        let text = item.as_str().unwrap_or_default().to_ascii_lowercase();
                        if SURVEY_FORMATS.contains(&text.as_str()) {
                            Ok(text)
                        } else {
                            Err(bad(format!("unknown report '{item}'")))
                        }
                    })
                    .collect::<Result<_>>()?;
            }
            "quick" => entry.quick = quick_params(src, key, value, "{ param = \"k=1..4\" }")?,
            "model" | "output" | "o" => {
                return Err(src.error(
                    key.span().start,
                    format!(
                    "key '{}' is not for a [[survey]]: its files are named by `name` and `formats`",
                    key.get_ref()
                ),
                ))
            }
            _ => entry.params.push(param(src, key, value)?),
        }
    }
    check_entry_name(src, at, "survey", &entry.name)?;
    if entry.formats.is_empty() {
        return Err(src.error(at, format!("survey '{}' has no formats", entry.name)));
    }
    Ok(entry)
}

fn parse_prove(src: &Source, entry: &Spanned<Table>) -> Result<ProveEntry> {
    let at = entry.span().start;
    let mut prove = ProveEntry {
        name: String::new(),
        caption: String::new(),
        params: Vec::new(),
        quick: Vec::new(),
        line: src.line(at),
    };
    for (key, value) in entry.get_ref() {
        match key.get_ref().replace('_', "-").as_str() {
            "name" => prove.name = string_of(src, key, value)?,
            "caption" => prove.caption = string_of(src, key, value)?,
            "quick" => prove.quick = quick_params(src, key, value, "{ param = \"k=3\" }")?,
            "model" | "formats" | "output" | "out" | "o" => {
                return Err(src.error(
                    key.span().start,
                    format!(
                        "key '{}' is not for a [[prove]]: its certificate goes into the folder `name` of the set",
                        key.get_ref()
                    ),
                ))
            }
            _ => prove.params.push(param(src, key, value)?),
        }
    }
    check_entry_name(src, at, "prove", &prove.name)?;
    Ok(prove)
}

/// A `[[figure]]`, `[[survey]]` or `[[prove]]` name: present, and fit to name files.
fn check_entry_name(src: &Source, at: usize, kind: &str, name: &str) -> Result<()> {
    if name.is_empty() {
        return Err(src.error(
            at,
            format!("a [[{kind}]] needs a name (it names the files)"),
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
    {
        return Err(src.error(
            at,
            format!("{kind} name '{name}' must be letters, digits, '-', '_' or '.'"),
        ));
    }
    Ok(())
}

fn parse_figure(
    src: &Source,
    figure: &Spanned<Table>,
    default_formats: &[Format],
) -> Result<FigureEntry> {
    let at = figure.span().start;
    let table = figure.get_ref();
    let mut entry = FigureEntry {
        name: String::new(),
        model: Vec::new(),
        caption: String::new(),
        tex_caption: None,
        formats: default_formats.to_vec(),
        params: Vec::new(),
        quick: Vec::new(),
        line: src.line(at),
        wide: false,
    };
    for (key, value) in table {
        match key.get_ref().replace('_', "-").as_str() {
            "name" => entry.name = string_of(src, key, value)?,
            "model" => {
                entry.model = string_of(src, key, value)?
                    .split_whitespace()
                    .map(str::to_string)
                    .collect()
            }
            "caption" => entry.caption = string_of(src, key, value)?,
            "tex-caption" => entry.tex_caption = Some(string_of(src, key, value)?),
            "formats" => entry.formats = formats_of(src, key, value)?,
            "quick" => entry.quick = quick_params(src, key, value, "{ m = \"1..6\" }")?,
            "wide" => {
                entry.wide = value
                    .get_ref()
                    .as_bool()
                    .ok_or_else(|| src.error(key.span().start, "key 'wide' takes true or false"))?
            }
            _ => entry.params.push(param(src, key, value)?),
        }
    }
    check_entry_name(src, at, "figure", &entry.name)?;
    if entry.model.is_empty() {
        return Err(src.error(at, format!("figure '{}' needs a model (square, count, automaton, grundy, octahedron section, octahedron view, octahedron sweep)", entry.name)));
    }
    if entry.formats.is_empty() {
        return Err(src.error(at, format!("figure '{}' has no formats", entry.name)));
    }
    Ok(entry)
}

/// Recipes named by the command line: files, or folders whose `*.toml` files are all
/// taken, in name order.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<Recipe>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| {
                    Error::invalid_request(format!("cannot read folder '{}': {e}", path.display()))
                })?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "toml"))
                .collect();
            inside.sort();
            if inside.is_empty() {
                return Err(Error::invalid_request(format!(
                    "folder '{}' holds no .toml recipes",
                    path.display()
                )));
            }
            files.extend(inside);
        } else if path.exists() {
            // Recipe::load refuses what is not a regular file, with the reason.
            files.push(path.clone());
        } else {
            return Err(Error::invalid_request(format!(
                "recipe '{}' does not exist",
                path.display()
            )));
        }
    }
    files.iter().map(|f| Recipe::load(f)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"title = "T"
name = "set"

[defaults]
formats = ["png", "pdf"]
p-color = "navy"

[[figure]]
name = "one"
model = "square"
caption = "R(11,11)"
m = 11
decompose = true
quick = { m = 5 }

[[figure]]
name = "two"
model = "octahedron section"
levels = [5, 5.5, 6]
formats = ["svg"]
"#;

    #[test]
    fn parses_figures_defaults_and_lines() {
        let recipe = Recipe::parse(Path::new("t.toml"), GOOD).unwrap();
        assert_eq!(recipe.name, "set");
        assert_eq!((recipe.columns, recipe.titles), (None, false));
        assert_eq!(
            recipe.defaults[0],
            Param {
                key: "p-color".into(),
                value: ParamValue::Text("navy".into()),
                line: 6
            }
        );
        let one = &recipe.figures[0];
        assert_eq!(
            (one.line, one.formats.clone()),
            (8, vec![Format::Png, Format::Pdf])
        );
        assert_eq!(
            one.params[0],
            Param {
                key: "decompose".into(),
                value: ParamValue::Switch(true),
                line: 13
            }
        );
        assert_eq!(
            one.effective_params(true)
                .iter()
                .find(|p| p.key == "m")
                .unwrap()
                .value,
            ParamValue::Text("5".into())
        );
        assert!(recipe.surveys.is_empty());
        let two = &recipe.figures[1];
        assert_eq!(two.model, ["octahedron", "section"]);
        assert_eq!(two.params[0].value, ParamValue::Text("5,5.5,6".into()));
        assert_eq!(two.formats, [Format::Svg]);
    }

    #[test]
    fn parses_surveys_with_their_keys_formats_and_quick_overrides() {
        let text = "title = \"T\"\n[[survey]]\nname = \"s\"\ncap = \"floor((x+z)/k)\"\nparam = \"k=1..9\"\nfind = [\"shift\", \"constant\"]\nformats = [\"md\", \"CSV\"]\nquick = { param = \"k=1..2\" }\n";
        let recipe = Recipe::parse(Path::new("t.toml"), text).unwrap();
        assert!(recipe.figures.is_empty());
        let survey = &recipe.surveys[0];
        assert_eq!((survey.name.as_str(), survey.line), ("s", 2));
        assert_eq!(survey.formats, ["md", "csv"]);
        let find = survey.params.iter().find(|p| p.key == "find").unwrap();
        assert_eq!(
            (find.value.clone(), find.line),
            (ParamValue::Text("shift,constant".into()), 6)
        );
        let param = |quick| {
            survey
                .effective_params(quick)
                .into_iter()
                .find(|p| p.key == "param")
                .unwrap()
                .value
        };
        assert_eq!(param(false), ParamValue::Text("k=1..9".into()));
        assert_eq!(param(true), ParamValue::Text("k=1..2".into()));
    }

    #[test]
    fn errors_name_file_line_and_key() {
        let cases = [
            ("title = \"T\"\n[[figure]\nname = 1", "t.toml:2: TOML"),
            ("titel = \"T\"\n[[figure]]\nname=\"a\"\nmodel=\"square\"", "t.toml:1: TOML: unknown key `titel`"),
            ("[[figure]]\nname = \"a\"\nmodel = \"square\"\nm = { a = 1 }", "t.toml:4: key 'm' takes a value, not a table"),
            ("[[figure]]\nname = \"a\"\nmodel = 3", "t.toml:3: key 'model' must be a string"),
            ("[[figure]]\nname = \"a\"\nmodel = \"square\"\nformats = [\"bmp\"]", "t.toml:4: unknown format 'bmp'"),
            ("[[figure]]\nmodel = \"square\"", "t.toml:1: a [[figure]] needs a name"),
            ("[[figure]]\nname = \"a\"\nmodel = \"square\"\n[[figure]]\nname = \"a\"\nmodel = \"count\"", "t.toml:4: a second figure named 'a'"),
            ("title = \"T\"", "t.toml:1: no [[figure]], [[survey]] or [[prove]] in the recipe"),
            ("[[prove]]\nname = \"p\"\nout = \"proof\"", "t.toml:3: key 'out' is not for a [[prove]]"),
            ("[[prove]]\ngame = \"nim\"", "t.toml:1: a [[prove]] needs a name"),
            ("[[survey]]\ncap = \"x\"", "t.toml:1: a [[survey]] needs a name"),
            ("[[survey]]\nname = \"s\"\nmodel = \"grundy\"", "t.toml:3: key 'model' is not for a [[survey]]"),
            ("[[survey]]\nname = \"s\"\nformats = [\"png\"]", "t.toml:3: key 'formats' of a survey: unknown report '\"png\"'"),
            ("[[figure]]\nname = \"a\"\nmodel = \"square\"\n[[survey]]\nname = \"a\"", "t.toml:4: a second survey named 'a'"),
            ("title = \"T\"\ncolumns = 3\n[[figure]]\nname = \"a\"\nmodel = \"square\"", "t.toml:2: columns = 3: the paper has 1 or 2 columns"),
        ];
        for (text, expected) in cases {
            let err = Recipe::parse(Path::new("t.toml"), text)
                .unwrap_err()
                .to_string();
            assert!(err.starts_with(expected), "{err}\n  expected: {expected}");
            assert!(!err.contains('\n'), "{err}");
        }
    }
}
