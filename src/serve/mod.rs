//! `nimscape serve`: a local web explorer on the same figure layer as the CLI.
//!
//! The server does three things and nothing else:
//! * serves the page and its scripts, embedded in the binary ([`assets`]);
//!   any other path is a 404, so nothing on disk can be reached;
//! * mirrors the CLI at `GET /api/<command>.<ext>?<flag>=<value>` through
//!   [`crate::request::render_pairs`]: same names, same validation, same bytes;
//! * computes exact tiles of R(m,n) for the deep-zoom view ([`tiles`]).
//!
//! Heavy work runs behind a semaphore sized to the cores, each request
//! bounded in time, in process under a [`Control`] ([`job`]): when the client
//! goes away or the time limit passes, the control is cancelled, the work
//! stops at its next check and its slot is free at once.

pub mod api;
pub mod assets;
pub mod explore;
pub mod job;
pub mod tiles;

use crate::Control;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Longest accepted request target (path and query), bytes.
pub const MAX_URI: usize = 4096;
/// Most `flag=value` pairs in one query.
pub const MAX_PARAMS: usize = 48;

/// How the server is set up.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Address to bind (loopback unless the user says otherwise).
    pub host: IpAddr,
    /// Port; 0 picks any free port.
    pub port: u16,
    /// The `--max-memory` limit every figure request is checked against.
    pub memory_limit: u64,
    /// Longest time one request may compute before it gets a 503.
    pub time_limit: Duration,
    /// Requests computing at once (default: one per core).
    pub workers: usize,
}

impl ServeOptions {
    /// Loopback, any free port, the CLI's default memory limit.
    pub fn local(memory_limit: u64) -> Self {
        ServeOptions {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 0,
            memory_limit,
            time_limit: Duration::from_secs(30),
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }
}

/// What every handler shares.
#[derive(Debug)]
pub struct AppState {
    /// Bounds how many requests compute at once.
    pub permits: Arc<Semaphore>,
    /// See [`ServeOptions::memory_limit`].
    pub memory_limit: u64,
    /// See [`ServeOptions::time_limit`].
    pub time_limit: Duration,
    /// Requests computing right now (work started, not yet ended or stopped).
    pub in_flight: Arc<AtomicUsize>,
    /// The last few Nim-with-a-pass boards (side, one byte per cell).
    pub pass_boards: Mutex<Vec<(u32, Arc<Vec<u8>>)>>,
    /// Held while a Nim-with-a-pass board is solved, so that the tiles of
    /// one board asked for at once share one solve.
    pub pass_solving: tokio::sync::Mutex<()>,
}

/// Counts one piece of work in [`AppState::in_flight`] while it lives.
struct Busy(Arc<AtomicUsize>);

impl Busy {
    fn new(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        Busy(count.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

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
        let mut response = (self.status, format!("{}\n", self.message)).into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        response
    }
}

/// Cancels its control when dropped: the request's future is dropped when its
/// client goes away or its time limit passes, and the work then stops.
struct CancelOnDrop(Control);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Runs `work` on the blocking pool once a permit is free, within the time
/// limit. Dropping this future (the client went away) or passing the time
/// limit cancels `work`'s control: the work stops at its next check, and the
/// permit is free again when it has.
pub async fn compute<T, F>(state: &AppState, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&Control) -> Result<T, ApiError> + Send + 'static,
{
    let limit = state.time_limit;
    let control = Control::new();
    let cancel = CancelOnDrop(control.clone());
    let run = async {
        let permit = state
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message: "the server is shutting down".into(),
            })?;
        let busy = Busy::new(&state.in_flight);
        let result = tokio::task::spawn_blocking(move || {
            // The permit lives as long as the work, so a cancelled request holds
            // its core only until the work has seen the cancellation.
            let _permit = permit;
            let _busy = busy;
            work(&control)
        })
        .await;
        match result {
            Ok(answer) => answer,
            Err(_) => Err(ApiError {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                message: "the figure could not be drawn (internal error)".into(),
            }),
        }
    };
    let answer = match tokio::time::timeout(limit, run).await {
        Ok(answer) => answer,
        Err(_) => Err(too_slow(limit)),
    };
    drop(cancel);
    answer
}

fn too_slow(limit: Duration) -> ApiError {
    ApiError {
        status: StatusCode::SERVICE_UNAVAILABLE,
        message: format!(
            "the request took longer than {} s: ask for a smaller figure",
            limit.as_secs()
        ),
    }
}

/// Runs `job` in process (see [`compute`]).
pub async fn run_job(state: &AppState, job: job::Job) -> Result<Vec<u8>, ApiError> {
    compute(state, move |control| job.run(control)).await
}

/// Refuses over-long request targets and anything but GET/HEAD, and sets
/// headers that keep the page from loading anything from elsewhere.
async fn guard(request: Request, next: Next) -> Response {
    let target_len = request
        .uri()
        .path_and_query()
        .map_or(0, |pq| pq.as_str().len());
    if target_len > MAX_URI {
        return ApiError {
            status: StatusCode::URI_TOO_LONG,
            message: format!("the request is longer than {MAX_URI} bytes"),
        }
        .into_response();
    }
    if request.method() != axum::http::Method::GET && request.method() != axum::http::Method::HEAD {
        return ApiError {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message: "only GET requests are served".into(),
        }
        .into_response();
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'",
        ),
    );
    response
}

/// The application: routes, state and the request guard.
pub fn router(options: &ServeOptions) -> Router {
    router_with(state_for(options))
}

/// The shared state of a server set up by `options`.
pub fn state_for(options: &ServeOptions) -> Arc<AppState> {
    Arc::new(AppState {
        permits: Arc::new(Semaphore::new(options.workers.max(1))),
        memory_limit: options.memory_limit,
        time_limit: options.time_limit,
        in_flight: Arc::new(AtomicUsize::new(0)),
        pass_boards: Mutex::new(Vec::new()),
        pass_solving: tokio::sync::Mutex::new(()),
    })
}

/// The application on a given state.
pub fn router_with(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/api/tiles/square.bin", get(tiles::square_tile))
        .route("/api/tiles/count", get(tiles::count))
        .route("/api/layout/grundy.json", get(api::grundy_layout))
        .route("/api/{*path}", get(api::figure))
        .fallback(get(assets::asset))
        .with_state(state)
        .layer(middleware::from_fn(guard))
}

/// A server running on its own runtime thread (used by `nimscape serve` and
/// by the tests, which start one on 127.0.0.1:0 in process).
pub struct RunningServer {
    /// The address it listens on.
    pub addr: SocketAddr,
    state: Arc<AppState>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl RunningServer {
    /// `http://addr/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Requests computing right now: work started and neither ended nor
    /// stopped (a request whose client went away leaves this count).
    pub fn in_flight(&self) -> usize {
        self.state.in_flight.load(Ordering::SeqCst)
    }

    /// Waits until the server stops (it runs until the process ends).
    pub fn wait(mut self) -> std::io::Result<()> {
        match self.thread.take() {
            Some(thread) => thread
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("the server thread panicked"))),
            None => Ok(()),
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        if let Some(stop) = self.shutdown.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Binds and starts the server; returns once it is listening.
pub fn start(options: &ServeOptions) -> std::io::Result<RunningServer> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(options.workers.max(1) + 2)
        .enable_all()
        .build()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind((options.host, options.port)))?;
    let addr = listener.local_addr()?;
    let state = state_for(options);
    let app = router_with(state.clone());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("nimscape-serve".into())
        .spawn(move || {
            runtime.block_on(async move {
                axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = stopped.await;
                    })
                    .await
            })
        })?;
    Ok(RunningServer {
        addr,
        state,
        shutdown: Some(stop),
        thread: Some(thread),
    })
}

/// True when `host` only accepts connections from this machine.
pub fn is_loopback(host: IpAddr) -> bool {
    host.is_loopback()
}
