//! Games of your own: a game written in a small TOML file, the way the papers'
//! programs write it.
//!
//! ```toml
//! name = "band-7-1"
//! heaps = ["x", "y"]
//! functions = ["res(x) = 2*floor(x/2) + 1", "res2(x) = max(2*floor(x/2) - 2, 0)",
//!              "inv(x) = 2*floor(x/2) + 3"]
//! positions = ["res(x) >= y >= res2(x)"]
//!
//! [[move]]                      # Table[{t, Min[res[t], y]}, {t, 0, x - 1}]
//! lower = "x"
//! to = "(t, min(res(t), y))"
//!
//! [[move]]                      # Table[{Min[inverseres2[x], t], t}, {t, 0, y - 1}]
//! lower = "y"
//! to = "(min(inv(x), t), t)"
//! ```
//!
//! The one idea: a file is compiled once ([`GameFile::parse`]) into exact
//! expressions over the heaps (see `expr.rs`), and [`GameFile::solve`] fills the
//! whole box bottom-up in lexicographic order, refusing any move that leaves the
//! game, does not go down, or overflows. The full language is in `docs/games.md`.

mod expr;
mod logic;
mod recognise;
#[cfg(test)]
mod recognise_tests;
mod solve;
pub use logic::{FileGame, LogicGame, LogicMove};
#[cfg(test)]
mod tests;

use crate::{Error, Result};
use expr::{Condition, Expr, Helper, Scope};
pub use recognise::SolverChoice;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The largest game file read: a game is a few lines, not data.
pub const MAX_GAME_FILE_BYTES: usize = 256 * 1024;

/// How many heaps a game file may have.
pub const HEAPS: std::ops::RangeInclusive<usize> = 2..=HEAPS_MAX;

/// The most heaps a game file may have.
const HEAPS_MAX: usize = 6;

/// One family of moves, compiled.
#[derive(Clone, Debug)]
enum Family {
    /// Lower `heap` to any `t` below it; the option is `to` (in the position and
    /// `t`), by default the position with that heap set to `t`.
    Lower { heap: usize, to: Option<Vec<Expr>> },
    /// Take the same `t >= 1` from every heap listed (Wythoff's diagonal).
    Take { heaps: Vec<usize> },
}

#[derive(Clone, Debug)]
struct Move {
    family: Family,
    /// One simultaneous step applied to the option (`then`, in its heaps and `t`).
    then: Option<Vec<Expr>>,
    /// `move 2 (lower y)`, for messages.
    label: String,
    /// The `[[move]]` table it came from (0-based): the moves of one table
    /// (`lower = ["x", "y"]`) share its `then`.
    table: usize,
}

/// A game read from a game file, with its parameters set: validated and compiled.
#[derive(Clone, Debug)]
pub struct GameFile {
    name: String,
    file: String,
    heaps: Vec<String>,
    params: BTreeMap<String, i128>,
    positions: Vec<(String, Condition)>,
    moves: Vec<Move>,
    pass: bool,
    misere: bool,
    default_box: Option<Vec<u32>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMove {
    lower: Option<Spanned<OneOrMany>>,
    take: Option<Spanned<Vec<String>>>,
    to: Option<Spanned<String>>,
    then: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGame {
    name: Option<Spanned<String>>,
    #[serde(default)]
    description: Option<String>,
    heaps: Spanned<Vec<String>>,
    #[serde(default)]
    params: BTreeMap<String, Spanned<i64>>,
    #[serde(default)]
    functions: Vec<Spanned<String>>,
    #[serde(default)]
    positions: Vec<Spanned<String>>,
    #[serde(rename = "move", default)]
    moves: Vec<Spanned<RawMove>>,
    #[serde(default)]
    pass: bool,
    #[serde(default)]
    misere: bool,
    #[serde(rename = "box")]
    table: Option<Spanned<Vec<u32>>>,
}

/// Where a problem is: the file and the 1-based line of a byte offset.
struct Source<'a> {
    file: &'a str,
    text: &'a str,
}

impl Source<'_> {
    fn error(&self, offset: usize, what: &str, problem: impl std::fmt::Display) -> Error {
        let line = self.text[..offset.min(self.text.len())]
            .matches('\n')
            .count()
            + 1;
        Error::invalid_request(format!(
            "{}:{line}: {what}: {}",
            self.file,
            shorten_quotes(&problem.to_string())
        ))
    }
}

/// The longest name a game file may give its game: it is a figure's title.
pub const MAX_NAME_CHARS: usize = 100;

/// `message` with every quotation in it (between `'`, `"` or `` ` `` on a line)
/// longer than an excerpt shortened to one ([`crate::error::excerpt`]), so a value
/// quoted back from a 60 KB line (a TOML type error quotes the value) stays short.
fn shorten_quotes(message: &str) -> String {
    let message = crate::error::one_line(message);
    let mut out = String::with_capacity(message.len().min(1024));
    let mut rest = message.as_str();
    while let Some(open) = rest.find(['"', '`', '\'']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        let body = &rest[open + 1..];
        let Some(close) = body.find(quote) else {
            break;
        };
        out.push_str(&rest[..=open]);
        out.push_str(&crate::error::excerpt(&body[..close]));
        out.push(quote);
        rest = &body[close + 1..];
    }
    // What is left has no quotation; a line longer than any message is cut anyway.
    if rest.chars().count() > 400 {
        out.extend(rest.chars().take(400));
        out.push_str("...");
    } else {
        out.push_str(rest);
    }
    out
}

/// The game's `name`: one line of plain text, short enough for a title. Like a
/// `--caption`, it is refused with a control character (no output format could
/// carry it alike); every writer escapes the rest for its own language.
fn check_name(src: &Source, name: Spanned<String>) -> Result<String> {
    let at = name.span().start;
    let name = name.into_inner();
    if let Some(control) = name.chars().find(|c| c.is_control()) {
        return Err(src.error(
            at,
            "name",
            format!(
                "holds a control character (U+{:04X}) in '{}'; write the name as one line of plain text",
                u32::from(control),
                crate::error::excerpt(&name.replace(|c: char| c.is_control(), "?"))
            ),
        ));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(src.error(
            at,
            "name",
            format!(
                "{chars} characters, more than the {MAX_NAME_CHARS} a title holds; give the game a short name and say more under 'description'"
            ),
        ));
    }
    if name.trim().is_empty() {
        return Err(src.error(
            at,
            "name",
            "empty; give the game a name, or leave `name` out to use the file's",
        ));
    }
    Ok(name)
}

/// The longest name of a heap, parameter or function.
const MAX_NAME_LEN: usize = 32;

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    s.len() <= MAX_NAME_LEN
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl GameFile {
    /// Compiles the game file `text`; `file` names it in messages (its path as
    /// given). `overrides` set parameters (`--param k=5`); each must be declared
    /// under `[params]` in the file. Every error is one line naming the file, the
    /// line and the key, and saying how to fix it.
    pub fn parse(file: &str, text: &str, overrides: &[(String, i64)]) -> Result<GameFile> {
        let src = Source { file, text };
        if text.len() > MAX_GAME_FILE_BYTES {
            return Err(Error::invalid_request(format!(
                "{file}: larger than {} KiB; a game file is a few lines of rules",
                MAX_GAME_FILE_BYTES / 1024
            )));
        }
        let raw: RawGame = toml::from_str(text).map_err(|e| {
            let offset = e.span().map(|s| s.start).unwrap_or(0);
            let message = e.message().trim().replace('\n', " ");
            let message = message
                .replace("unknown field", "unknown key")
                .replace("expected one of", "allowed:");
            src.error(offset, "TOML", message)
        })?;
        let _ = raw.description;

        // Heaps.
        let heaps_at = raw.heaps.span().start;
        let heaps = raw.heaps.into_inner();
        if !HEAPS.contains(&heaps.len()) {
            return Err(src.error(
                heaps_at,
                "heaps",
                format!(
                    "{} heaps given; a game file has 2 to 6 heaps, e.g. heaps = [\"x\", \"y\"]",
                    heaps.len()
                ),
            ));
        }
        for (i, h) in heaps.iter().enumerate() {
            if !is_name(h) || expr::reserved(h) || h == "t" {
                return Err(src.error(
                    heaps_at,
                    "heaps",
                    format!("'{h}' cannot name a heap; use a letter and then letters, digits or _, at most {MAX_NAME_LEN} in all (not t, floor, min, ...)"),
                ));
            }
            if heaps[..i].contains(h) {
                return Err(src.error(heaps_at, "heaps", format!("'{h}' is named twice")));
            }
        }

        // Parameters: the file's defaults, then the overrides.
        let mut params = BTreeMap::new();
        for (name, value) in &raw.params {
            if !is_name(name) || expr::reserved(name) || name == "t" || heaps.contains(name) {
                return Err(src.error(
                    value.span().start,
                    "params",
                    format!("'{name}' cannot name a parameter: use a letter and then letters, digits or _, at most {MAX_NAME_LEN} in all, not the name of a heap, t or a built-in function"),
                ));
            }
            params.insert(name.clone(), i128::from(*value.get_ref()));
        }
        for (name, value) in overrides {
            match params.get_mut(name) {
                Some(v) => *v = i128::from(*value),
                None => {
                    return Err(Error::invalid_parameter(
                        "param",
                        format!(
                            "`param` {name}={value}: {file} has no parameter '{name}'; {}",
                            if params.is_empty() {
                                "it takes none".to_string()
                            } else {
                                format!(
                                    "it takes {}",
                                    params.keys().cloned().collect::<Vec<_>>().join(", ")
                                )
                            }
                        ),
                    ))
                }
            }
        }

        // Helper functions, each seeing the ones defined before it.
        let mut helpers: BTreeMap<String, Helper> = BTreeMap::new();
        for def in &raw.functions {
            let (name, helper) = expr::parse_helper(def.get_ref(), &params, &helpers)
                .map_err(|p| src.error(def.span().start, "functions", p))?;
            if !is_name(&name) {
                return Err(src.error(
                    def.span().start,
                    "functions",
                    format!("the function name '{name}' is longer than {MAX_NAME_LEN} characters"),
                ));
            }
            if heaps.contains(&name) || name == "t" {
                return Err(src.error(
                    def.span().start,
                    "functions",
                    format!("the function name '{name}' is a heap's name"),
                ));
            }
            helpers.insert(name, helper);
        }

        let heap_scope = Scope {
            vars: &heaps,
            params: &params,
            helpers: &helpers,
        };
        let positions = raw
            .positions
            .iter()
            .map(|p| {
                expr::compile_condition(p.get_ref(), &heap_scope)
                    .map(|c| (p.get_ref().clone(), c))
                    .map_err(|e| src.error(p.span().start, "positions", e))
            })
            .collect::<Result<Vec<_>>>()?;

        // Moves: heaps and `t` in `to` and `then`.
        let mut with_t = heaps.clone();
        with_t.push("t".into());
        let move_scope = Scope {
            vars: &with_t,
            params: &params,
            helpers: &helpers,
        };
        let heap_index = |name: &str, at: usize, key: &str| -> Result<usize> {
            heaps.iter().position(|h| h == name).ok_or_else(|| {
                src.error(
                    at,
                    key,
                    format!("'{name}' is not a heap; the heaps are {}", heaps.join(", ")),
                )
            })
        };
        let mut moves = Vec::new();
        if raw.moves.is_empty() {
            return Err(src.error(
                text.len(),
                "move",
                "no moves; add a [[move]] table, e.g. lower = \"x\"",
            ));
        }
        for (n, m) in raw.moves.iter().enumerate() {
            let at = m.span().start;
            let m = m.get_ref();
            let then = m
                .then
                .as_ref()
                .map(|t| {
                    expr::compile_tuple(t.get_ref(), heaps.len(), &move_scope)
                        .map_err(|e| src.error(t.span().start, &format!("move {}, then", n + 1), e))
                })
                .transpose()?;
            match (&m.lower, &m.take) {
                (Some(lower), None) => {
                    let names = match lower.get_ref() {
                        OneOrMany::One(h) => vec![h.clone()],
                        OneOrMany::Many(hs) => hs.clone(),
                    };
                    if names.len() > 1 && m.to.is_some() {
                        return Err(src.error(
                            at,
                            &format!("move {}", n + 1),
                            "'to' needs one heap to lower; write one [[move]] per heap",
                        ));
                    }
                    let to = m
                        .to
                        .as_ref()
                        .map(|t| {
                            expr::compile_tuple(t.get_ref(), heaps.len(), &move_scope).map_err(
                                |e| src.error(t.span().start, &format!("move {}, to", n + 1), e),
                            )
                        })
                        .transpose()?;
                    for name in &names {
                        let heap =
                            heap_index(name, lower.span().start, &format!("move {}, lower", n + 1))?;
                        moves.push(Move {
                            family: Family::Lower {
                                heap,
                                to: to.clone(),
                            },
                            then: then.clone(),
                            label: format!("move {} (lower {name})", n + 1),
                            table: n,
                        });
                    }
                }
                (None, Some(take)) => {
                    if m.to.is_some() {
                        return Err(src.error(
                            at,
                            &format!("move {}", n + 1),
                            "'take' moves go to the heaps less t; use 'then' to change the result",
                        ));
                    }
                    let mut idx = Vec::new();
                    for name in take.get_ref() {
                        let i = heap_index(name, take.span().start, &format!("move {}, take", n + 1))?;
                        if idx.contains(&i) {
                            return Err(src.error(
                                take.span().start,
                                &format!("move {}, take", n + 1),
                                format!("'{name}' is listed twice"),
                            ));
                        }
                        idx.push(i);
                    }
                    if idx.is_empty() {
                        return Err(src.error(
                            take.span().start,
                            &format!("move {}, take", n + 1),
                            "name the heaps to take from, e.g. take = [\"x\", \"y\"]",
                        ));
                    }
                    moves.push(Move {
                        family: Family::Take { heaps: idx },
                        then,
                        label: format!("move {} (take from {})", n + 1, take.get_ref().join(", ")),
                        table: n,
                    });
                }
                _ => {
                    return Err(src.error(
                        at,
                        &format!("move {}", n + 1),
                        "give either lower = \"x\" (lower one heap to any smaller t) or take = [\"x\", \"y\"] (take the same t from each)",
                    ))
                }
            }
        }

        let default_box = match raw.table {
            Some(b) if b.get_ref().len() != heaps.len() => {
                return Err(src.error(
                    b.span().start,
                    "box",
                    format!(
                        "{} bounds for {} heaps; give one bound per heap",
                        b.get_ref().len(),
                        heaps.len()
                    ),
                ))
            }
            Some(b) => Some(b.into_inner()),
            None => None,
        };
        let name = match raw.name {
            Some(name) => check_name(&src, name)?,
            None => {
                let stem = file.rsplit(['/', '\\']).next().unwrap_or(file);
                stem.strip_suffix(".toml").unwrap_or(stem).to_string()
            }
        };
        Ok(GameFile {
            name,
            file: file.to_string(),
            heaps,
            params,
            positions,
            moves,
            pass: raw.pass,
            misere: raw.misere,
            default_box,
        })
    }

    /// The game's name with its parameters, e.g. `band-7-2 k=1 h=3`.
    pub fn name(&self) -> String {
        let mut name = self.name.clone();
        for (k, v) in &self.params {
            name.push_str(&format!(" {k}={v}"));
        }
        name
    }

    /// The file as it was named when parsed.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The heaps' names, in order.
    pub fn heap_names(&self) -> &[String] {
        &self.heaps
    }

    /// The parameters in force (defaults with overrides applied).
    pub fn params(&self) -> &BTreeMap<String, i128> {
        &self.params
    }

    /// Whether the game has a pass (usable once per game, not from a terminal position).
    pub fn has_pass(&self) -> bool {
        self.pass
    }

    /// Whether the game is played misère (the player who cannot move wins).
    pub fn is_misere(&self) -> bool {
        self.misere
    }

    /// The box the file suggests (`box = [22, 23]`), used when none is given.
    pub fn default_box(&self) -> Option<&[u32]> {
        self.default_box.as_deref()
    }

    /// Whether `p` is a position: every inequality under `positions` holds. A tuple
    /// of the wrong length, or one on which an inequality overflows, is not.
    pub fn is_position(&self, p: &[u32]) -> bool {
        if p.len() != self.heaps.len() {
            return false;
        }
        let vars: Vec<i128> = p.iter().map(|&c| i128::from(c)).collect();
        self.broken_inequality(&vars).is_ok_and(|b| b.is_none())
    }

    /// [`GameFile::broken_inequality`] on `i64` variables (the solver's positions).
    fn broken_inequality_i64(
        &self,
        vars: &[i64],
    ) -> std::result::Result<Option<&str>, expr::Fault> {
        for (src, c) in &self.positions {
            if !c.holds_i64(vars)? {
                return Ok(Some(src));
            }
        }
        Ok(None)
    }

    /// The first inequality that `vars` breaks, if any.
    fn broken_inequality<V: Copy + Into<i128>>(
        &self,
        vars: &[V],
    ) -> std::result::Result<Option<&str>, expr::Fault> {
        for (src, c) in &self.positions {
            if !c.holds(vars)? {
                return Ok(Some(src));
            }
        }
        Ok(None)
    }
}
