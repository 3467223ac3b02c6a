//! Heavy work in worker processes, so that it can be stopped.
//!
//! The figure layer has no cancellation hook (and its loops run on rayon
//! threads), so a request cannot be stopped from inside once it computes. A
//! process can: every figure request and every Nim-with-a-pass board runs in
//! a long-lived `nimscape serve --worker` child, one request at a time, over
//! its stdin and stdout. When the client goes away (the server drops the
//! request's future) or the time limit passes, the child doing that work is
//! killed and its place freed at once; the next request starts a fresh
//! worker. Idle workers are kept warm, so a request pays no process start.
//!
//! Protocol: the server writes one [`Job`] as a JSON line; the worker answers
//! a header line `<status> <length>` and then `length` bytes: the figure, or
//! the one-line error message when the status is not 200.

use super::ApiError;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// One piece of work for a worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Job {
    /// [`crate::request::render_pairs`] of `command`, `flags` and `extension`.
    Figure {
        /// The subcommand path, e.g. `["octahedron", "section"]`.
        command: Vec<String>,
        /// `(flag, value)` pairs as the API received them.
        flags: Vec<(String, String)>,
        /// The output format.
        extension: String,
        /// The `--max-memory` limit.
        memory_limit: u64,
    },
    /// Where the cells of the Grundy figure of `flags` are (JSON), for the
    /// hover readout: [`crate::request::grundy::layout`].
    GrundyLayout {
        /// `(flag, value)` pairs of `grundy`, as for the figure.
        flags: Vec<(String, String)>,
        /// The `--max-memory` limit.
        memory_limit: u64,
    },
    /// The P-positions of Nim with a pass on the m x m board, one byte per
    /// cell (1 = P), row-major.
    PassBoard {
        /// The board side.
        m: u32,
        /// The `--max-memory` limit.
        memory_limit: u64,
    },
}

impl Job {
    /// Does the work in this process.
    pub fn run(&self) -> Result<Vec<u8>, ApiError> {
        match self {
            Job::Figure {
                command,
                flags,
                extension,
                memory_limit,
            } => {
                let words: Vec<&str> = command.iter().map(String::as_str).collect();
                crate::request::render_pairs(&words, flags, extension, &budget(*memory_limit))
                    .map_err(ApiError::from)
            }
            Job::GrundyLayout {
                flags,
                memory_limit,
            } => {
                let pairs: Vec<(String, crate::request::Value)> = flags
                    .iter()
                    .map(|(n, v)| (n.clone(), crate::request::Value::Text(v.clone())))
                    .collect();
                crate::request::grundy::layout(&pairs, &budget(*memory_limit))
                    .map_err(ApiError::from)
            }
            Job::PassBoard { m, memory_limit } => {
                let (_, pass) = crate::games::nim_pass::square_board(*m, *memory_limit)?;
                let side = *m as usize;
                let mut cells = vec![0u8; side * side];
                for (r, c) in pass.ones() {
                    cells[r * side + c] = 1;
                }
                Ok(cells)
            }
        }
    }
}

fn budget(memory_limit: u64) -> crate::request::Budget {
    crate::request::Budget {
        memory_limit,
        ..crate::request::Budget::default()
    }
}

/// `nimscape serve --worker`: answers jobs from stdin until it closes.
pub fn worker_main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout().lock();
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let (status, body) = match serde_json::from_str::<Job>(&line) {
            Ok(job) => match job.run() {
                Ok(bytes) => (200, bytes),
                Err(err) => (err.status.as_u16(), err.message.into_bytes()),
            },
            Err(err) => (500, format!("bad job: {err}").into_bytes()),
        };
        writeln!(output, "{status} {}", body.len())?;
        output.write_all(&body)?;
        output.flush()?;
    }
}

/// A running worker process.
struct Worker {
    // Killed when dropped: a worker dropped mid-job is the cancellation.
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// Worker processes of one server.
#[derive(Debug)]
pub struct Pool {
    exe: PathBuf,
    idle: Mutex<Vec<WorkerSlot>>,
    keep: usize,
    started: Mutex<Vec<u32>>,
}

// Debug without the process handles.
struct WorkerSlot(Worker);

impl std::fmt::Debug for WorkerSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Worker")
    }
}

fn internal(message: impl Into<String>) -> ApiError {
    ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: message.into(),
    }
}

impl Pool {
    /// Workers run `exe serve --worker`; at most `keep` idle ones are kept.
    pub fn new(exe: PathBuf, keep: usize) -> Self {
        Pool {
            exe,
            idle: Mutex::new(Vec::new()),
            keep: keep.max(1),
            started: Mutex::new(Vec::new()),
        }
    }

    /// The process ids of every worker started so far.
    pub fn pids(&self) -> Vec<u32> {
        self.started.lock().unwrap().clone()
    }

    fn spawn(&self) -> Result<Worker, ApiError> {
        let mut child = Command::new(&self.exe)
            .args(["serve", "--worker"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|err| {
                internal(format!(
                    "cannot start a worker process '{}': {err}",
                    self.exe.display()
                ))
            })?;
        if let Some(pid) = child.id() {
            let mut started = self.started.lock().unwrap();
            // Only the latest few: a long-running server starts many.
            if started.len() >= 64 {
                started.remove(0);
            }
            started.push(pid);
        }
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| internal("no worker stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| internal("no worker stdout"))?;
        Ok(Worker {
            _child: child,
            stdin,
            stdout: BufReader::new(stdout),
        })
    }

    /// Starts one idle worker ahead of the first request.
    pub fn warm(&self) {
        if let Ok(worker) = self.spawn() {
            self.idle.lock().unwrap().push(WorkerSlot(worker));
        }
    }

    /// Runs `job` in a worker. If this future is dropped before it ends, the
    /// worker is killed with it (the work stops) and is not reused.
    pub async fn run(&self, job: &Job) -> Result<Vec<u8>, ApiError> {
        let taken = self.idle.lock().unwrap().pop();
        let mut worker = match taken {
            Some(WorkerSlot(worker)) => worker,
            None => self.spawn()?,
        };
        let lost = |err: std::io::Error| internal(format!("a worker process failed: {err}"));
        let mut line = serde_json::to_string(job).map_err(|err| internal(err.to_string()))?;
        line.push('\n');
        worker
            .stdin
            .write_all(line.as_bytes())
            .await
            .map_err(lost)?;
        worker.stdin.flush().await.map_err(lost)?;
        let mut header = String::new();
        worker.stdout.read_line(&mut header).await.map_err(lost)?;
        let parsed = header
            .split_once(' ')
            .and_then(|(s, n)| Some((s.parse::<u16>().ok()?, n.trim().parse::<usize>().ok()?)));
        let Some((status, len)) = parsed else {
            return Err(internal(
                "the figure could not be drawn (a worker process stopped)",
            ));
        };
        let mut body = vec![0u8; len];
        worker.stdout.read_exact(&mut body).await.map_err(lost)?;
        {
            let mut idle = self.idle.lock().unwrap();
            if idle.len() < self.keep {
                idle.push(WorkerSlot(worker));
            }
        }
        if status == 200 {
            Ok(body)
        } else {
            Err(ApiError {
                status: StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                message: String::from_utf8_lossy(&body).into_owned(),
            })
        }
    }
}
