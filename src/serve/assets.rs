//! The page and its scripts, compiled into the binary. Only these paths are
//! served: nothing is read from disk, so no path can escape to the file system.

use super::error::ApiError;
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

/// `(path, media type, bytes)` of every embedded asset.
pub const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_bytes!("web/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("web/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_bytes!("web/style.css"),
    ),
];

/// The embedded asset at `path`, if there is one.
pub fn find(path: &str) -> Option<(&'static str, &'static [u8])> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, t, b)| (t, b))
}

/// Any path that is not an API route: an embedded asset or a 404.
pub async fn asset(uri: Uri) -> Response {
    match find(uri.path()) {
        Some((media, bytes)) => {
            let mut response = bytes.into_response();
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(media));
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            response
        }
        None => ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!(
                "nothing at '{}': the explorer serves only its page and /api/",
                uri.path()
            ),
        }
        .into_response(),
    }
}
