//! `GET /api/<command>.<ext>?<flag>=<value>&...`: the CLI over HTTP.
//!
//! The path names the subcommand (a nested one as a path, e.g.
//! `octahedron/section.png`), the extension the output format, and the query
//! the flags by their long names (a positional argument by its value name).
//! Everything is parsed and drawn by [`crate::request::render_pairs`], so the
//! bytes are those `nimscape <command> ... -o x.<ext>` writes.

use super::error::ApiError;
use super::job::{files, Job};
use super::state::{compute_in, run_job, AppState, Lane, PastedGame, LIGHT_MEMORY};
use super::stream;
use crate::games::file::MAX_GAME_FILE_BYTES;
use crate::request::Format;
use crate::request::{self, Budget, Planned, Value};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Most `flag=value` pairs in one query.
pub const MAX_PARAMS: usize = 48;

/// The subcommand words and the extension of an API path, checked to be
/// plain words (no dots, slashes or escapes beyond the one extension).
pub fn parse_path(path: &str) -> Result<(Vec<String>, String), ApiError> {
    let (stem, ext) = path.rsplit_once('.').ok_or_else(|| {
        ApiError::bad(format!(
            "'/api/{path}' names no output format: add one, e.g. '/api/square.png'"
        ))
    })?;
    let plain = |w: &str| {
        !w.is_empty()
            && w.len() <= 32
            && w.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    let words: Vec<String> = stem.split('/').map(str::to_string).collect();
    if words.len() > 3 || !words.iter().all(|w| plain(w)) || !plain(ext) {
        return Err(ApiError::bad(format!(
            "'/api/{path}' is not a command: use /api/<command>.<ext>, e.g. /api/square.png?m=11"
        )));
    }
    Ok((words, ext.to_string()))
}

/// Decodes a query string into `(flag, value)` pairs, at most [`MAX_PARAMS`].
pub fn parse_query(query: Option<&str>) -> Result<Vec<(String, String)>, ApiError> {
    let Some(query) = query.filter(|q| !q.is_empty()) else {
        return Ok(Vec::new());
    };
    let pairs: Vec<(String, String)> = serde_urlencoded_pairs(query)?;
    if pairs.len() > MAX_PARAMS {
        return Err(ApiError::bad(format!(
            "too many parameters: at most {MAX_PARAMS}"
        )));
    }
    Ok(pairs)
}

fn serde_urlencoded_pairs(query: &str) -> Result<Vec<(String, String)>, ApiError> {
    use axum::extract::Query;
    let uri: axum::http::Uri = format!("/?{query}")
        .parse()
        .map_err(|_| ApiError::bad("the query is not valid"))?;
    Query::<Vec<(String, String)>>::try_from_uri(&uri)
        .map(|Query(pairs)| pairs)
        .map_err(|err| ApiError::bad(format!("the query is not valid: {err}")))
}

/// The media type of an output extension.
pub fn content_type(ext: &str) -> &'static str {
    match ext {
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "pdf" => "application/pdf",
        "gif" => "image/gif",
        "csv" => "text/csv; charset=utf-8",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        "tex" | "tikz" | "pgf" => "application/x-tex; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Plans the figure of `words` and `flags` as `ext` under `budget`: validated,
/// checked for the format, refused (413, with the estimate) when its memory is over
/// the budget or its known size over `--max-output`, all before any work. `None`
/// when `fallible` and its memory is over the budget: it belongs in the heavy lane.
fn ready(
    words: &[String],
    flags: &[(String, String)],
    ext: &str,
    budget: Budget,
    fallible: bool,
    game: Option<&(String, Arc<str>)>,
) -> Result<Option<(Planned, Format)>, ApiError> {
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let pairs: Vec<(String, Value)> = flags
        .iter()
        .map(|(n, v)| (n.clone(), Value::Text(v.clone())))
        .collect();
    let files = files(game);
    let checked = request::plan_pairs_with(&words, &pairs, &budget, files).and_then(|planned| {
        let format = planned.format(ext)?;
        planned.check(format)?;
        Ok((planned, format))
    });
    let (planned, format) = match checked {
        Ok(checked) => checked,
        Err(crate::Error::TooLarge { .. }) if fallible => return Ok(None),
        Err(err) => return Err(err.into()),
    };
    planned
        .check_stream_size(format, budget.output_limit)
        .map_err(|err| ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: request::Naming::Keys.message(&err),
        })?;
    Ok(Some((planned, format)))
}

/// `GET /api/<command>.<ext>`: tried in the light lane with the light memory
/// budget ([`LIGHT_MEMORY`]), and in the heavy lane with the full one when its
/// estimate (at planning or before its first byte) is over that; sent as it is made
/// ([`super::stream`]). Planning is instant work.
pub async fn figure(
    State(state): State<Arc<AppState>>,
    path: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    // A path that does not decode (`%FF`) is a bad request with our one line.
    let Path(path) = path.map_err(|_| {
        ApiError::bad(
            "the path is not valid UTF-8: use /api/<command>.<ext>, e.g. /api/square.png?m=11",
        )
    })?;
    let (words, ext) = parse_path(&path)?;
    let mut flags = parse_query(query.as_deref())?;
    let game = take_pasted(&state, &mut flags)?;
    let kind = content_type(&ext);
    let budget = Budget {
        memory_limit: state.memory_limit,
        output_limit: state.output_limit,
    };
    let light = Budget {
        memory_limit: budget.memory_limit.min(LIGHT_MEMORY),
        ..budget
    };
    let attempts = if light == budget {
        vec![(Lane::Light, budget, false)]
    } else {
        vec![(Lane::Light, light, true), (Lane::Heavy, budget, false)]
    };
    for (lane, budget, fallible) in attempts {
        let (w, f, e, g) = (words.clone(), flags.clone(), ext.clone(), game.clone());
        let plan = compute_in(&state, Lane::Instant, move |_| {
            ready(&w, &f, &e, budget, fallible, g.as_ref())
        })
        .await?;
        let Some((planned, format)) = plan else {
            continue;
        };
        let heavier = Arc::new(AtomicBool::new(false));
        let heavier_seen = heavier.clone();
        let answer = stream::respond(&state, lane, kind, move |out, control| {
            planned
                .write_stream(
                    format,
                    out,
                    std::path::Path::new("the response"),
                    control,
                    budget.output_limit,
                )
                .map_err(|err| match err {
                    crate::Error::TooLarge { .. } if fallible => {
                        heavier.store(true, Ordering::SeqCst);
                        ApiError::from(err)
                    }
                    // A write to the response fails only past `--max-output` (a
                    // client that went away hears nothing more).
                    crate::Error::Io { .. } => ApiError {
                        status: StatusCode::PAYLOAD_TOO_LARGE,
                        message: request::Naming::Keys.message(&err),
                    },
                    other => ApiError::from(other),
                })
        })
        .await;
        // Refused by the light budget before its first byte was sent: again, heavy.
        if answer.is_err() && heavier_seen.load(Ordering::SeqCst) {
            continue;
        }
        return answer;
    }
    Err(ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: "the figure could not be planned (internal error)".into(),
    })
}

/// `GET /api/layout/grundy.json?<grundy flags>`: where the cells of that
/// Grundy figure are in its PNG, for the page's hover readout.
pub async fn grundy_layout(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let mut flags = parse_query(query.as_deref())?;
    let game = take_pasted(&state, &mut flags)?;
    // As a figure: the light lane when the solve fits the light budget (the page
    // asks for it beside every Grundy figure), the heavy one otherwise.
    let light = state.memory_limit.min(LIGHT_MEMORY);
    let mut bytes = None;
    if light < state.memory_limit {
        let pairs: Vec<(String, Value)> = flags
            .iter()
            .map(|(n, v)| (n.clone(), Value::Text(v.clone())))
            .collect();
        let budget = Budget {
            memory_limit: light,
            ..Budget::default()
        };
        let game = game.clone();
        bytes = compute_in(
            &state,
            Lane::Light,
            move |control| match request::grundy_layout_with(
                &pairs,
                &budget,
                control,
                files(game.as_ref()),
            ) {
                Err(crate::Error::TooLarge { .. }) => Ok(None),
                answer => answer.map(Some).map_err(ApiError::from),
            },
        )
        .await?;
    }
    let bytes = match bytes {
        Some(bytes) => bytes,
        None => {
            let job = Job::GrundyLayout {
                flags,
                memory_limit: state.memory_limit,
                game,
            };
            run_job(&state, job).await?
        }
    };
    let mut response = bytes.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Ok(response)
}

/// The `pasted=ID` of a query, taken out of `flags`: the pasted game file it
/// names (its name and text), which `game` must name; none without `pasted`.
fn take_pasted(
    state: &AppState,
    flags: &mut Vec<(String, String)>,
) -> Result<Option<(String, Arc<str>)>, ApiError> {
    let Some(at) = flags.iter().position(|(name, _)| name == "pasted") else {
        return Ok(None);
    };
    let (_, id) = flags.remove(at);
    let game = state.pasted(&id).ok_or_else(|| {
        ApiError::bad(format!(
            "pasted game '{}' is not on this server (it keeps the last {}); paste it again",
            crate::error::excerpt(&id),
            super::state::MAX_PASTED
        ))
    })?;
    match flags.iter().find(|(name, _)| name == "game") {
        Some((_, named)) if *named == game.name => {}
        Some((_, named)) => {
            return Err(ApiError::bad(format!(
                "game: '{}' is not the pasted game '{}'",
                crate::error::excerpt(named),
                game.name
            )))
        }
        None => flags.insert(0, ("game".to_string(), game.name.clone())),
    }
    Ok(Some((game.name, game.text)))
}

/// FNV-1a, 64 bits: a pasted game's id, the same for the same name and text in
/// every run.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &byte in *part {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        hash ^= 0xff;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Whether `name` is a plain game file name: letters, digits, `-`, `_`, `.`,
/// ending in `.toml`, so the command line that names it is one plain word.
fn plain_game_name(name: &str) -> bool {
    (6..=64).contains(&name.len())
        && name.ends_with(".toml")
        && !name.starts_with(['.', '-'])
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
}

/// `POST /api/games?name=NAME.toml` with a game file's text as the body (at
/// most [`MAX_GAME_FILE_BYTES`]): compiles it with the game-file parser (its
/// `[params]` at their defaults) and keeps it in memory. Answers
/// `{"id", "name", "heaps", "params", "box"}`; the figures of
/// `/api/grundy.*?game=NAME.toml&pasted=ID` then draw it, with the command
/// line `nimscape grundy NAME.toml ...` that reproduces them from that file.
/// A game that does not compile is a 400 with the parser's one line.
pub async fn paste_game(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
    body: axum::body::Body,
) -> Result<Response, ApiError> {
    let flags = parse_query(query.as_deref())?;
    let name = match flags.iter().find(|(k, _)| k == "name") {
        Some((_, name)) => name.clone(),
        None => "game.toml".to_string(),
    };
    if !plain_game_name(&name) {
        return Err(ApiError::bad(format!(
            "name: '{}' is not a game file name: letters, digits, '-', '_' or '.', ending in .toml (at most 64 characters)",
            crate::error::excerpt(&name)
        )));
    }
    let bytes = axum::body::to_bytes(body, MAX_GAME_FILE_BYTES)
        .await
        .map_err(|_| ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!(
                "the game file is larger than {} KiB",
                MAX_GAME_FILE_BYTES / 1024
            ),
        })?;
    let text = String::from_utf8(bytes.to_vec())
        .map_err(|_| ApiError::bad("the game file is not UTF-8 text"))?;
    let game = crate::games::GameSpec::from_game_file(&name, &text, &[])?;
    let params = match &game {
        crate::games::GameSpec::File(file) => file
            .params()
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::from(v.to_string())))
            .collect::<serde_json::Map<_, _>>(),
        _ => serde_json::Map::new(),
    };
    let default_box = match &game {
        crate::games::GameSpec::File(file) => file.default_box().map(<[u32]>::to_vec),
        _ => None,
    };
    let id = format!("{:016x}", fnv1a(&[name.as_bytes(), text.as_bytes()]));
    let answer = serde_json::json!({
        "id": id,
        "name": name,
        "heaps": game.coordinate_names(),
        "params": params,
        "box": default_box,
    });
    state.keep_pasted(PastedGame {
        id,
        name,
        text: Arc::from(text),
    });
    let mut response = answer.to_string().into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Ok(response)
}

/// The built-in games' parameters the Grundy view offers, with the value the
/// page starts from (`triangular` has no default: the page starts at 3, the
/// papers' example).
fn built_in_params(name: &str) -> &'static [(&'static str, u32)] {
    match name {
        "triangular" => &[("k", 3)],
        "band-7-2" => &[("k", 1), ("h", 3)],
        _ => &[],
    }
}

/// A game's box as the `box` flag writes it: `N`, or one bound per coordinate.
fn box_flag(game_box: &crate::games::GameBox) -> String {
    match game_box {
        crate::games::GameBox::Uniform(n) => n.to_string(),
        crate::games::GameBox::Each(bounds) => bounds
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(","),
    }
}

/// `GET /api/game.json?game=NAME` (a built-in game, a game file below the
/// server's folder, or a pasted one with `pasted=ID`): what the Grundy view
/// needs to show the controls of that game before it draws it, so that they
/// show what is drawn: `{"name", "file", "heaps", "params": {NAME: value},
/// "box"}`, with the parameters the game takes and their defaults, and its
/// default box as the `box` flag writes it (null when it has none). Compiling
/// a game file is instant work; nothing is solved.
pub async fn game_info(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let mut flags = parse_query(query.as_deref())?;
    let pasted = take_pasted(&state, &mut flags)?;
    let name = match flags.as_slice() {
        [(key, name)] if key == "game" => name.clone(),
        _ => {
            return Err(ApiError::bad(
                "give one parameter, game=NAME (a built-in game or a .toml game file), and pasted=ID for a pasted game, e.g. /api/game.json?game=triangular",
            ))
        }
    };
    let answer = compute_in(&state, Lane::Instant, move |_| {
        use crate::games::{GameBox, GameParams, GameSpec};
        use crate::request::grundy::{is_game_file, GameFiles};
        let described = |game: &GameSpec,
                         params: serde_json::Value,
                         default_box: Option<String>,
                         file: bool| {
            serde_json::json!({
                "name": name,
                "file": file,
                "heaps": game.coordinate_names(),
                "params": params,
                "box": default_box,
            })
        };
        if is_game_file(&name) {
            let files = match &pasted {
                Some((pasted_name, text)) => GameFiles::Given {
                    name: pasted_name,
                    text,
                },
                None => GameFiles::Below,
            };
            let (shown, text) = files.read(std::path::Path::new(&name))?;
            let game = GameSpec::from_game_file(&shown, &text, &[])?;
            let GameSpec::File(file) = &game else {
                return Err(ApiError::bad("not a game file"));
            };
            let params: serde_json::Map<_, _> = file
                .params()
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::from(v.to_string())))
                .collect();
            let default_box = file
                .default_box()
                .map(|b| box_flag(&GameBox::Each(b.to_vec())));
            return Ok(described(&game, params.into(), default_box, true));
        }
        let offered = built_in_params(&name);
        let value = |flag: &str| offered.iter().find(|(n, _)| *n == flag).map(|&(_, v)| v);
        let game = GameSpec::from_name(
            &name,
            &GameParams {
                k: value("k"),
                h: value("h"),
                heaps: None,
                cap: (name == "cap").then(|| "x".to_string()),
            },
        )?;
        let default_box = match &game {
            GameSpec::Band(band) => Some(GameBox::Uniform(band.seed_table_size())),
            GameSpec::SixSided => Some(GameBox::Each(crate::games::SixSided::seed_box(1).to_vec())),
            _ => None,
        };
        let params: serde_json::Map<_, _> = offered
            .iter()
            .map(|&(n, v)| (n.to_string(), serde_json::Value::from(v.to_string())))
            .collect();
        Ok(described(
            &game,
            params.into(),
            default_box.as_ref().map(box_flag),
            false,
        ))
    })
    .await?;
    let mut response = answer.to_string().into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Ok(response)
}
