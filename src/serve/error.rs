//! An error as the API answers it: a status and the command line's one-line
//! message, parameters named as the query names them.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// An error as the API answers it: a status and the CLI's one-line message.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// One line, as the CLI would print it.
    pub message: String,
}

impl ApiError {
    /// A 400 with `message`.
    pub fn bad(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }
}

impl From<crate::Error> for ApiError {
    fn from(err: crate::Error) -> Self {
        let status = match &err {
            crate::Error::InvalidParameter { .. } | crate::Error::Unsupported(_) => {
                StatusCode::BAD_REQUEST
            }
            // The request is well formed but the work is over the memory limit.
            crate::Error::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError {
            status,
            // The CLI's own line, parameters named as the query names them.
            message: crate::request::Naming::Keys.message(&err),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // One line whatever the message quotes (a value with a newline in it).
        let line = crate::error::one_line(&self.message);
        let mut response = (self.status, format!("{line}\n")).into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        response
    }
}
