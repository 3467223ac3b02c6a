//! `GET /api/<command>.<ext>?<flag>=<value>&...`: the CLI over HTTP.
//!
//! The path names the subcommand (a nested one as a path, e.g.
//! `octahedron/section.png`), the extension the output format, and the query
//! the flags by their long names (a positional argument by its value name).
//! Everything is parsed and drawn by [`crate::request::render_pairs`], so the
//! bytes are those `nimscape <command> ... -o x.<ext>` writes.

use super::error::ApiError;
use super::job::Job;
use super::state::{run_job, AppState, PastedGame};
use crate::games::file::MAX_GAME_FILE_BYTES;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
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
        _ => "application/octet-stream",
    }
}

/// `GET /api/<command>.<ext>`.
pub async fn figure(
    State(state): State<Arc<AppState>>,
    Path(path): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let (words, ext) = parse_path(&path)?;
    let mut flags = parse_query(query.as_deref())?;
    let game = take_pasted(&state, &mut flags)?;
    let job = Job::Figure {
        command: words,
        flags,
        extension: ext.clone(),
        memory_limit: state.memory_limit,
        game,
    };
    let bytes = run_job(&state, job).await?;
    let mut response = bytes.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(&ext)),
    );
    Ok(response)
}

/// `GET /api/layout/grundy.json?<grundy flags>`: where the cells of that
/// Grundy figure are in its PNG, for the page's hover readout.
pub async fn grundy_layout(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let mut flags = parse_query(query.as_deref())?;
    let game = take_pasted(&state, &mut flags)?;
    let job = Job::GrundyLayout {
        flags,
        memory_limit: state.memory_limit,
        game,
    };
    let bytes = run_job(&state, job).await?;
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
