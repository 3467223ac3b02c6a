//! `GET /api/tiles/square.bin`: one 256 x 256 tile of R(m,n), exact.
//!
//! Query: `m`, `n` (default m), `level` (one pixel covers 2^level rows and
//! columns, 0..=62), `x`, `y` (the tile's column and row; its top-left pixel
//! covers rows from `y·256·2^level`), `mode` (`density`, the default, or
//! `nimsum`). The answer is 65536 bytes, row-major, one byte per pixel; see
//! [`crate::pattern::tiles::shade`] and [`TileMode`] for what they mean.
//!
//! `GET /api/tiles/count?m=&n=&r0=&r1=&c0=&c1=` answers the exact number of
//! P-cells in rows r0..r1 and columns c0..c1 (0-based, half-open) as text.

use super::api::parse_query;
use super::error::ApiError;
use super::job::Job;
use super::state::{compute_in, run_job, AppState, Lane};
use crate::pattern::tiles::{check_side, count_p, TileMode, TilePlan, TILE};
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Named query parameters, each allowed once, unknown names refused.
fn params(query: Option<&str>, allowed: &[&str]) -> Result<BTreeMap<String, String>, ApiError> {
    let mut map = BTreeMap::new();
    for (name, value) in parse_query(query)? {
        if !allowed.contains(&name.as_str()) {
            return Err(ApiError::bad(format!(
                "unexpected parameter '{name}': expected {}",
                allowed.join(", ")
            )));
        }
        if map.insert(name.clone(), value).is_some() {
            return Err(ApiError::bad(format!("'{name}' is given twice")));
        }
    }
    Ok(map)
}

fn number(
    map: &BTreeMap<String, String>,
    name: &str,
    default: Option<u64>,
) -> Result<u64, ApiError> {
    match map.get(name) {
        Some(text) => text
            .parse::<u64>()
            .map_err(|_| ApiError::bad(format!("{name} = '{text}' is not a whole number"))),
        None => default.ok_or_else(|| ApiError::bad(format!("{name} is required"))),
    }
}

/// What a tile query asks for.
#[derive(Debug, Clone, Copy)]
pub struct TileQuery {
    m: u64,
    n: u64,
    level: u32,
    x: u64,
    y: u64,
    /// `None` for the Nim-with-a-pass overlay.
    mode: Option<TileMode>,
}

/// Parses and checks a tile query.
pub fn tile_query(query: Option<&str>) -> Result<TileQuery, ApiError> {
    let map = params(query, &["m", "n", "level", "x", "y", "mode"])?;
    let m = number(&map, "m", None)?;
    let n = number(&map, "n", Some(m))?;
    let level = number(&map, "level", Some(0))?;
    let (x, y) = (number(&map, "x", Some(0))?, number(&map, "y", Some(0))?);
    let mode = match map.get("mode").map(String::as_str) {
        None | Some("density") => Some(TileMode::Density),
        Some("nimsum") => Some(TileMode::NimSumBits),
        Some("pass") => None,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "mode = '{other}' is not a tile mode: use density, nimsum or pass"
            )))
        }
    };
    let level = u32::try_from(level).unwrap_or(u32::MAX);
    // Checks m, n and the level whatever the mode.
    TilePlan::new(m, n, level)?;
    if mode.is_none() && (m != n || u32::try_from(m).is_err()) {
        return Err(ApiError::bad(format!(
            "mode = pass draws square boards only: give n = m (here m = {m}, n = {n})"
        )));
    }
    Ok(TileQuery {
        m,
        n,
        level,
        x,
        y,
        mode,
    })
}

/// The tile the query names, as bytes.
pub fn tile_bytes(query: Option<&str>) -> Result<Vec<u8>, ApiError> {
    let q = tile_query(query)?;
    let Some(mode) = q.mode else {
        return Err(ApiError::bad("mode = pass needs the server"));
    };
    let plan = TilePlan::new(q.m, q.n, q.level)?;
    let mut out = vec![0u8; TILE * TILE];
    plan.render(q.x, q.y, mode, &mut out);
    Ok(out)
}

/// A tile of the Nim-with-a-pass overlay of board `cells` (side m, one byte
/// per cell, 1 = P): each pixel shaded as [`crate::pattern::tiles::shade`]
/// by the exact number of pass-game P-cells in its block.
pub fn pass_tile(cells: &[u8], m: u64, level: u32, x: u64, y: u64) -> Vec<u8> {
    let mut out = vec![0u8; TILE * TILE];
    let side = m as usize;
    // Blocks on the board along a side; past them a pixel stays 0.
    let blocks = u128::from(((m - 1) >> level) + 1);
    let first = |tile: u64, d: usize| u128::from(tile) * TILE as u128 + d as u128;
    let span = |b: u128| {
        let start = (b << level) as usize;
        start..(((b + 1) << level).min(u128::from(m))) as usize
    };
    for (dy, line) in out.chunks_exact_mut(TILE).enumerate() {
        if first(y, dy) >= blocks {
            break;
        }
        let rows = span(first(y, dy));
        for (dx, px) in line.iter_mut().enumerate() {
            if first(x, dx) >= blocks {
                break;
            }
            let cols = span(first(x, dx));
            let count: usize = rows
                .clone()
                .map(|r| {
                    cells[r * side + cols.start..r * side + cols.end]
                        .iter()
                        .map(|&b| usize::from(b))
                        .sum::<usize>()
                })
                .sum();
            let area = rows.len() as u128 * cols.len() as u128;
            *px = crate::pattern::tiles::shade(count as u128, area);
        }
    }
    out
}

/// The Nim-with-a-pass board of side `m`: from the cache, or solved in a
/// worker (the solve grows as m^4, so it is the one slow tile).
async fn pass_board(state: &AppState, m: u32) -> Result<Arc<Vec<u8>>, ApiError> {
    let cached = || {
        state
            .pass_boards
            .lock()
            .unwrap()
            .iter()
            .find(|(side, _)| *side == m)
            .map(|(_, cells)| cells.clone())
    };
    if let Some(cells) = cached() {
        return Ok(cells);
    }
    let _solving = state.pass_solving.lock().await;
    if let Some(cells) = cached() {
        return Ok(cells);
    }
    let job = Job::PassBoard {
        m,
        memory_limit: state.memory_limit,
    };
    let cells = Arc::new(run_job(state, job).await?);
    let mut boards = state.pass_boards.lock().unwrap();
    if boards.len() >= 4 {
        boards.remove(0);
    }
    boards.push((m, cells.clone()));
    Ok(cells)
}

/// `GET /api/tiles/square.bin`.
pub async fn square_tile(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let q = tile_query(query.as_deref())?;
    let bytes = match q.mode {
        Some(_) => compute_in(&state, Lane::Instant, move |_| tile_bytes(query.as_deref())).await?,
        None => {
            let cells = pass_board(&state, q.m as u32).await?;
            pass_tile(&cells, q.m, q.level, q.x, q.y)
        }
    };
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/octet-stream"),
    );
    // A tile is a pure function of its query.
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    Ok(response)
}

/// The count the query names.
pub fn count_text(query: Option<&str>) -> Result<String, ApiError> {
    let map = params(query, &["m", "n", "r0", "r1", "c0", "c1"])?;
    let m = number(&map, "m", None)?;
    let n = number(&map, "n", Some(m))?;
    check_side("m", m)?;
    check_side("n", n)?;
    let (r0, r1) = (number(&map, "r0", None)?, number(&map, "r1", None)?);
    let (c0, c1) = (number(&map, "c0", None)?, number(&map, "c1", None)?);
    Ok(format!("{}\n", count_p(m, n, r0..r1, c0..c1)))
}

/// `GET /api/tiles/count`.
pub async fn count(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let text = compute_in(&state, Lane::Instant, move |_| count_text(query.as_deref())).await?;
    Ok(text.into_response())
}
