//! `GET /api/<command>.<ext>?<flag>=<value>&...`: the CLI over HTTP.
//!
//! The path names the subcommand (a nested one as a path, e.g.
//! `octahedron/section.png`), the extension the output format, and the query
//! the flags by their long names (a positional argument by its value name).
//! Everything is parsed and drawn by [`crate::request::render_pairs`], so the
//! bytes are those `nimscape <command> ... -o x.<ext>` writes.

use super::error::ApiError;
use super::job::Job;
use super::state::{run_job, AppState};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderValue};
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
    let flags = parse_query(query.as_deref())?;
    let job = Job::Figure {
        command: words,
        flags,
        extension: ext.clone(),
        memory_limit: state.memory_limit,
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
    let flags = parse_query(query.as_deref())?;
    let job = Job::GrundyLayout {
        flags,
        memory_limit: state.memory_limit,
    };
    let bytes = run_job(&state, job).await?;
    let mut response = bytes.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Ok(response)
}
