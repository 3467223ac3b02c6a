//! `GET /api/theorem/square.json?theorem=NAME`: the status of a theorem of the
//! square game for every m, shown beside the square view's decomposition.
//!
//! With MONA on `PATH` the theorem is proved the first time it is asked for
//! (`nimscape prove square --theorem NAME`, a fraction of a second) and the
//! verdict kept for the life of the process: it is a fact about every m, the
//! same for every request. Without MONA the answer says how to prove it.

use super::error::ApiError;
use super::state::{compute_in, AppState, Lane};
use crate::prove::engine::{Limits, Mona, MONA_MISSING};
use crate::prove::square as proof;
use crate::request::prove_square::{self, TheoremCase};
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Verdicts already reached, by theorem name.
static PROVED: Mutex<Vec<(String, Value)>> = Mutex::new(Vec::new());

/// The longest the engine may take on one question here.
const TIMEOUT: Duration = Duration::from_secs(60);

fn status(name: &str, control: &crate::Control, memory_limit: u64) -> Result<Value, ApiError> {
    // One theorem at a time, and only those drawn beside the board: the CLI's
    // `all` and `list`, and the criterion (a game claim), are not statuses.
    let shown: Vec<&str> = nimscape_model::prove::square::names()
        .into_iter()
        .filter(|n| *n != "criterion")
        .collect();
    if !shown.contains(&name) {
        return Err(ApiError::bad(format!(
            "theorem: '{}' is not a theorem the explorer shows; give one of {} (all, list and the criterion are for `nimscape prove square --theorem`)",
            crate::error::excerpt(name),
            shown.join(", ")
        )));
    }
    let command = format!("nimscape prove square --theorem {name}");
    let TheoremCase::Cells(theorem) = prove_square::case(name)? else {
        return Err(ApiError::bad(
            "the explorer shows the status of the pattern theorems (decomposition, doubling, ...); prove the criterion on the command line",
        ));
    };
    let head = json!({
        "theorem": name,
        "source": theorem.source,
        "paper": proof::PAPER,
        "command": command,
    });
    let engine = match Mona::from_path() {
        Ok(engine) => engine,
        Err(_) => {
            let mut answer = head;
            answer["verdict"] = "unavailable".into();
            answer["how"] = format!("{MONA_MISSING}: {command}").into();
            return Ok(answer);
        }
    };
    let limits = Limits {
        timeout: TIMEOUT,
        memory: memory_limit,
    };
    let report = proof::prove(&theorem, &engine, limits, memory_limit, control)?;
    let mut answer = head;
    answer["verdict"] = report.verdict.word().into();
    answer["engine"] = format!("{} ({})", report.engine, report.engine_version).into();
    answer["seconds"] = report.seconds.into();
    answer["summary"] = proof::summary(&report).into();
    Ok(answer)
}

/// `GET /api/theorem/square.json?theorem=NAME`.
pub async fn square_theorem(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let pairs = super::api::parse_query(query.as_deref())?;
    let name = match pairs.as_slice() {
        [(key, value)] if key == "theorem" => value.to_ascii_lowercase(),
        _ => return Err(ApiError::bad(
            "give one parameter, theorem=NAME, e.g. /api/theorem/square.json?theorem=decomposition",
        )),
    };
    let kept = PROVED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.clone());
    let answer = match kept {
        Some(answer) => answer,
        None => {
            let memory_limit = state.memory_limit;
            let key = name.clone();
            let answer = compute_in(&state, Lane::Light, move |control| {
                status(&key, control, memory_limit)
            })
            .await?;
            // Keep a verdict (proved or false), not an "unavailable" or an
            // "undecided" that a later request may turn into one.
            if matches!(answer["verdict"].as_str(), Some("proved" | "false")) {
                let mut kept = PROVED.lock().unwrap_or_else(|e| e.into_inner());
                if !kept.iter().any(|(n, _)| *n == name) {
                    kept.push((name, answer.clone()));
                }
            }
            answer
        }
    };
    let mut response = answer.to_string().into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Ok(response)
}
