//! `nimscape serve`: a local web explorer on the same figure layer as the CLI.
//!
//! The server does three things and nothing else:
//! * serves the page and its scripts, embedded in the binary (`assets`);
//!   any other path is a 404, so nothing on disk can be reached;
//! * mirrors the CLI at `GET /api/<command>.<ext>?<flag>=<value>` through
//!   [`crate::request::render_pairs`]: same names, same validation, same bytes;
//! * computes exact tiles of R(m,n) for the deep-zoom view (`tiles`);
//! * keeps game files pasted into the page (`POST /api/games`, bounded in
//!   size and number, held in memory) for the Grundy view to draw.
//!
//! Heavy work runs behind a semaphore sized to the cores, each request
//! bounded in time, in process under a `Control` (`job`): when the client
//! goes away or the time limit passes, the control is cancelled, the work
//! stops at its next check and its slot is free at once.

mod api;
mod assets;
mod error;
mod explore;
mod job;
mod state;
mod stream;
mod theorem;
mod tiles;

pub(crate) use error::ApiError;
pub use explore::{explorer_html, ExploreSpec};
pub(crate) use state::AppState;

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
pub(crate) const MAX_URI: usize = 4096;

/// How the server is set up.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Address to bind (loopback unless the user says otherwise).
    pub host: IpAddr,
    /// Port; 0 picks any free port.
    pub port: u16,
    /// The `--max-memory` limit every figure request is checked against.
    pub memory_limit: u64,
    /// The `--max-output` limit of one response: refused before any work when
    /// its size is known to be over it, cut off once it grows past it.
    pub output_limit: u64,
    /// Longest time one request may compute before it gets a 503.
    pub time_limit: Duration,
    /// Requests computing at once (default: one per core).
    pub workers: usize,
    /// Longest time a client may take to send a request's headers, and to start
    /// its next request on a kept-alive connection: a slow or idle client is
    /// closed, never holds a connection for ever.
    pub header_timeout: Duration,
    /// Connections served at once; further clients wait in the listen queue.
    pub max_connections: usize,
}

impl ServeOptions {
    /// Loopback, any free port, the CLI's default memory limit.
    pub fn local(memory_limit: u64) -> Self {
        ServeOptions {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 0,
            memory_limit,
            output_limit: crate::request::DEFAULT_OUTPUT_LIMIT,
            time_limit: Duration::from_secs(30),
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            header_timeout: Duration::from_secs(10),
            max_connections: 256,
        }
    }
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
    let method = request.method();
    let paste = method == axum::http::Method::POST && request.uri().path() == "/api/games";
    if method != axum::http::Method::GET && method != axum::http::Method::HEAD && !paste {
        return ApiError {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message: "only GET requests are served (and POST of a game file to /api/games)".into(),
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

/// The shared state of a server set up by `options`.
pub(crate) fn state_for(options: &ServeOptions) -> Arc<AppState> {
    Arc::new(AppState {
        permits: Arc::new(Semaphore::new(options.workers.max(1))),
        light_permits: Arc::new(Semaphore::new(options.workers.max(1))),
        instant_permits: Arc::new(Semaphore::new(options.workers.max(1))),
        memory_limit: options.memory_limit,
        output_limit: options.output_limit,
        time_limit: options.time_limit,
        in_flight: Arc::new(AtomicUsize::new(0)),
        pass_boards: Mutex::new(Vec::new()),
        pass_solving: tokio::sync::Mutex::new(()),
        pasted: Mutex::new(Vec::new()),
    })
}

/// The application on a given state.
pub(crate) fn router_with(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/api/tiles/square.bin", get(tiles::square_tile))
        .route("/api/tiles/count", get(tiles::count))
        .route("/api/layout/grundy.json", get(api::grundy_layout))
        .route("/api/games", axum::routing::post(api::paste_game))
        .route("/api/game.json", get(api::game_info))
        .route("/api/theorem/square.json", get(theorem::square_theorem))
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
    thread: Option<std::thread::JoinHandle<()>>,
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
                .map_err(|_| std::io::Error::other("the server thread panicked")),
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
        // The three lanes' work (see `state::Lane`).
        .max_blocking_threads(3 * options.workers.max(1) + 2)
        .enable_all()
        .build()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind((options.host, options.port)))?;
    let addr = listener.local_addr()?;
    let state = state_for(options);
    let app = router_with(state.clone());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let limits = ConnectionLimits {
        header_timeout: options.header_timeout,
        max_connections: options.max_connections.max(1),
    };
    let thread = std::thread::Builder::new()
        .name("nimscape-serve".into())
        .spawn(move || {
            runtime.block_on(serve_connections(listener, app, limits, stopped));
        })?;
    Ok(RunningServer {
        addr,
        state,
        shutdown: Some(stop),
        thread: Some(thread),
    })
}

/// What one client may hold of the server.
#[derive(Debug, Clone, Copy)]
struct ConnectionLimits {
    header_timeout: Duration,
    max_connections: usize,
}

/// The accept loop: hyper's HTTP/1 with a header time-out (a slow-loris or an idle
/// kept-alive client is closed; `axum::serve` sets no timer, so it had none), and
/// at most `max_connections` served at once. A half-closed client is not waited
/// for: its end of file reads exactly like a client that went away, and that one's
/// work must stop (`half_close(true)` would compute every abandoned figure to the end).
async fn serve_connections(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    limits: ConnectionLimits,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
) {
    let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(limits.max_connections));
    loop {
        let slot = tokio::select! {
            _ = &mut stopped => return,
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => return,
            },
        };
        let stream = tokio::select! {
            _ = &mut stopped => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of descriptors or a connection reset before it was taken:
                // wait a moment rather than spin, then go on serving.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
            drop(slot);
        });
    }
}

/// True when `host` only accepts connections from this machine.
pub fn is_loopback(host: IpAddr) -> bool {
    // `::ffff:127.0.0.1` is 127.0.0.1 written as IPv6: loopback too.
    host.to_canonical().is_loopback()
}
