//! What every handler shares, and how work runs: in process under a [`Control`]
//! that a dropped or timed-out request cancels, bounded in time, behind one of three
//! semaphores sized to the cores ([`Lane`]): tiles and counts, small figures, and
//! the rest. Light work never queues behind heavy solves: with one lane, a tile
//! asked for while two Grundy solves held both permits waited 4 s for one of them
//! to end.

use super::error::ApiError;
use super::job;
use crate::Control;
use axum::http::StatusCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// What every handler shares.
#[derive(Debug)]
pub struct AppState {
    /// Bounds how many heavy requests compute at once.
    pub permits: Arc<Semaphore>,
    /// Bounds how many small figures compute at once, apart from the heavy ones.
    pub light_permits: Arc<Semaphore>,
    /// Bounds how many tiles, counts and plannings compute at once, apart from
    /// any figure.
    pub instant_permits: Arc<Semaphore>,
    /// See [`ServeOptions::memory_limit`].
    pub memory_limit: u64,
    /// See [`ServeOptions::output_limit`].
    pub output_limit: u64,
    /// See [`ServeOptions::time_limit`].
    pub time_limit: Duration,
    /// Requests computing right now (work started, not yet ended or stopped).
    pub in_flight: Arc<AtomicUsize>,
    /// The last few Nim-with-a-pass boards (side, one byte per cell).
    pub pass_boards: Mutex<Vec<(u32, Arc<Vec<u8>>)>>,
    /// Held while a Nim-with-a-pass board is solved, so that the tiles of
    /// one board asked for at once share one solve.
    pub pass_solving: tokio::sync::Mutex<()>,
    /// Game files pasted into the explorer (`POST /api/games`), the most
    /// recently used first, at most [`MAX_PASTED`].
    pub pasted: Mutex<Vec<PastedGame>>,
}

/// Most pasted game files a server keeps (each at most
/// [`crate::games::file::MAX_GAME_FILE_BYTES`]).
pub const MAX_PASTED: usize = 32;

/// A game file pasted into the explorer.
#[derive(Debug, Clone)]
pub struct PastedGame {
    /// Its id: a hash of its name and text, the same for the same paste.
    pub id: String,
    /// The file name its figures' command lines name (`my-game.toml`).
    pub name: String,
    /// The game file's text.
    pub text: Arc<str>,
}

impl AppState {
    /// Keeps a pasted game (the most recent first, the oldest forgotten).
    pub fn keep_pasted(&self, game: PastedGame) {
        let mut kept = self.pasted.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|g| g.id != game.id);
        kept.insert(0, game);
        kept.truncate(MAX_PASTED);
    }

    /// The pasted game `id`, if this server still has it.
    pub fn pasted(&self, id: &str) -> Option<PastedGame> {
        let kept = self.pasted.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter().find(|g| g.id == id).cloned()
    }
}

/// Which semaphore a piece of work waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Work of a millisecond or so whatever its parameters: a tile, a count, the
    /// planning of a figure (validation and estimates, O(parameters)).
    Instant,
    /// A figure whose estimated memory is at most [`LIGHT_MEMORY`]. Small in
    /// memory is not always quick (a GIF of automaton frames 1..2000 takes about
    /// 6 s in 36 MiB), which is why tiles have a lane of their own.
    Light,
    /// Anything else: solves, large boards, long animations.
    Heavy,
}

/// A figure whose memory estimate is at most this runs in the light lane: the
/// estimate grows with the cells, pixels or positions the work visits, so it
/// stands for the time too (a 4095 x 4095 board's PNG is about 230 MiB, R(100)
/// about 1 MiB).
pub const LIGHT_MEMORY: u64 = 48 << 20;

impl AppState {
    /// The semaphore of `lane`.
    pub fn permits_of(&self, lane: Lane) -> &Arc<Semaphore> {
        match lane {
            Lane::Instant => &self.instant_permits,
            Lane::Light => &self.light_permits,
            Lane::Heavy => &self.permits,
        }
    }
}

/// Counts one piece of work in [`AppState::in_flight`] while it lives.
pub(super) struct Busy(Arc<AtomicUsize>);

impl Busy {
    pub(super) fn new(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        Busy(count.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Cancels its control when dropped: the request's future is dropped when its
/// client goes away or its time limit passes, and the work then stops.
pub(super) struct CancelOnDrop(pub(super) Control);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// [`compute_in`] the heavy lane.
pub async fn compute<T, F>(state: &AppState, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&Control) -> Result<T, ApiError> + Send + 'static,
{
    compute_in(state, Lane::Heavy, work).await
}

/// Waits for a permit of `lane`.
pub(super) async fn permit(
    state: &AppState,
    lane: Lane,
) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    state
        .permits_of(lane)
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: "the server is shutting down".into(),
        })
}

/// Runs `work` on the blocking pool once a permit of `lane` is free, within the
/// time limit. Dropping this future (the client went away) or passing the time
/// limit cancels `work`'s control: the work stops at its next check, and the
/// permit is free again when it has.
pub async fn compute_in<T, F>(state: &AppState, lane: Lane, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&Control) -> Result<T, ApiError> + Send + 'static,
{
    let limit = state.time_limit;
    let control = Control::new();
    let cancel = CancelOnDrop(control.clone());
    let run = async {
        let permit = permit(state, lane).await?;
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

pub(super) fn too_slow(limit: Duration) -> ApiError {
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
