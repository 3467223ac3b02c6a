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
use super::{compute, ApiError, AppState};
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

/// The tile the query names, as bytes.
pub fn tile_bytes(query: Option<&str>) -> Result<Vec<u8>, ApiError> {
    let map = params(query, &["m", "n", "level", "x", "y", "mode"])?;
    let m = number(&map, "m", None)?;
    let n = number(&map, "n", Some(m))?;
    let level = number(&map, "level", Some(0))?;
    let (x, y) = (number(&map, "x", Some(0))?, number(&map, "y", Some(0))?);
    let mode = match map.get("mode").map(String::as_str) {
        None | Some("density") => TileMode::Density,
        Some("nimsum") => TileMode::NimSumBits,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "mode = '{other}' is not a tile mode: use density or nimsum"
            )))
        }
    };
    let level = u32::try_from(level).unwrap_or(u32::MAX);
    let plan = TilePlan::new(m, n, level)?;
    let mut out = vec![0u8; TILE * TILE];
    plan.render(x, y, mode, &mut out);
    Ok(out)
}

/// `GET /api/tiles/square.bin`.
pub async fn square_tile(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let bytes = compute(&state, move || tile_bytes(query.as_deref())).await?;
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
    let text = compute(&state, move || count_text(query.as_deref())).await?;
    Ok(text.into_response())
}
