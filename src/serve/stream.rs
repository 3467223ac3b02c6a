//! Responses sent as they are made, with bounded memory.
//!
//! The work writes into a [`ChannelWriter`] on its blocking thread: chunks of
//! [`CHUNK`] bytes go through a channel of [`IN_FLIGHT`] chunks to the response
//! body, and the work waits while the client has not read them. The first
//! [`HOLD`] bytes are held back: a response that ends within them is sent whole
//! (with its length), and an error before then is still a 4xx or 503 with one
//! line. Past them the status line is sent and the rest streams; an error after
//! that (the time limit, `--max-output` passed) cuts the response short, which the
//! client sees as an incomplete body, as a pipe sees the CLI's `-o -` stop. So a
//! response costs the server at most `HOLD + (IN_FLIGHT + 1) · CHUNK` bytes of
//! buffers beyond the work's own memory, whatever its size (R(16000) as CSV, 474
//! MB, was once held whole).

use super::error::ApiError;
use super::state::{permit, too_slow, AppState, Busy, CancelOnDrop, Lane};
use crate::Control;
use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body::Frame;
use std::collections::VecDeque;
use std::future::Future;
use std::io::Write;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::sync::mpsc;

/// Bytes of one chunk sent to the client.
pub const CHUNK: usize = 64 << 10;
/// Chunks on their way to the client at most: the work waits for a slow reader.
pub const IN_FLIGHT: usize = 4;
/// Bytes held before the response is committed to success.
pub const HOLD: usize = 1 << 20;

/// What the work sends to the response.
enum Piece {
    Data(Bytes),
    End(Result<(), ApiError>),
}

/// The work's side of the channel: a writer that sends full chunks and waits
/// while the channel is full.
struct ChannelWriter {
    tx: mpsc::Sender<Piece>,
    buffer: Vec<u8>,
}

impl ChannelWriter {
    fn send(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.buffer, Vec::with_capacity(CHUNK));
        self.tx
            .blocking_send(Piece::Data(Bytes::from(chunk)))
            .map_err(|_| std::io::Error::other("the client went away"))
    }
}

impl Write for ChannelWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = CHUNK - self.buffer.len();
        let taken = buf.len().min(room);
        self.buffer.extend_from_slice(&buf[..taken]);
        if self.buffer.len() >= CHUNK {
            self.send()?;
        }
        Ok(taken)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        // Encoders flush often (a PNG band, a GIF frame): chunks stay full, and
        // whatever is left goes at the end.
        Ok(())
    }
}

/// The response body after the status line: the chunks held, then the channel,
/// until the work ends, fails, or the deadline passes. Dropping it (the client
/// went away) cancels the work.
struct Streamed {
    held: VecDeque<Bytes>,
    rx: mpsc::Receiver<Piece>,
    deadline: Pin<Box<tokio::time::Sleep>>,
    done: bool,
    _cancel: CancelOnDrop,
}

impl http_body::Body for Streamed {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        let this = &mut *self;
        if let Some(chunk) = this.held.pop_front() {
            return Poll::Ready(Some(Ok(Frame::data(chunk))));
        }
        if this.done {
            return Poll::Ready(None);
        }
        if this.deadline.as_mut().poll(cx).is_ready() {
            this.done = true;
            this._cancel.0.cancel();
            return Poll::Ready(Some(Err(std::io::Error::other(
                "the response took longer than the time limit",
            ))));
        }
        match this.rx.poll_recv(cx) {
            Poll::Ready(Some(Piece::Data(chunk))) => Poll::Ready(Some(Ok(Frame::data(chunk)))),
            Poll::Ready(Some(Piece::End(Ok(())))) => {
                this.done = true;
                Poll::Ready(None)
            }
            Poll::Ready(Some(Piece::End(Err(err)))) => {
                this.done = true;
                Poll::Ready(Some(Err(std::io::Error::other(err.message))))
            }
            Poll::Ready(None) => {
                this.done = true;
                Poll::Ready(Some(Err(std::io::Error::other("the work stopped"))))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// How the first [`HOLD`] bytes went.
enum Held {
    /// The work ended within them: the whole response.
    Whole(Vec<Bytes>),
    /// The work goes on: the bytes so far.
    Partial(VecDeque<Bytes>),
}

/// Runs `work` in `lane` (see [`super::state::compute_in`]) and answers with what
/// it writes as `content_type`, streamed past the first [`HOLD`] bytes (see the
/// module's comment). The time limit covers the whole response.
pub async fn respond<F>(
    state: &AppState,
    lane: Lane,
    content_type: &'static str,
    work: F,
) -> Result<Response, ApiError>
where
    F: FnOnce(&mut dyn Write, &Control) -> Result<(), ApiError> + Send + 'static,
{
    let limit = state.time_limit;
    let deadline = tokio::time::Instant::now() + limit;
    let control = Control::new();
    let cancel = CancelOnDrop(control.clone());
    let (tx, mut rx) = mpsc::channel(IN_FLIGHT);
    let start = async {
        let permit = permit(state, lane).await?;
        let busy = Busy::new(&state.in_flight);
        let control = control.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _busy = busy;
            let mut out = ChannelWriter {
                tx: tx.clone(),
                buffer: Vec::with_capacity(CHUNK),
            };
            let result = work(&mut out, &control).and_then(|()| {
                out.send().map_err(|_| ApiError {
                    status: StatusCode::SERVICE_UNAVAILABLE,
                    message: "the client went away".into(),
                })
            });
            // Nobody listens any more when the client went away: nothing to do.
            let _ = tx.blocking_send(Piece::End(result));
        });
        let mut held = VecDeque::new();
        let mut len = 0;
        loop {
            match rx.recv().await {
                Some(Piece::Data(chunk)) => {
                    len += chunk.len();
                    held.push_back(chunk);
                    if len > HOLD {
                        return Ok(Held::Partial(held));
                    }
                }
                Some(Piece::End(Ok(()))) => return Ok(Held::Whole(held.into())),
                Some(Piece::End(Err(err))) => return Err(err),
                None => {
                    return Err(ApiError {
                        status: StatusCode::INTERNAL_SERVER_ERROR,
                        message: "the figure could not be drawn (internal error)".into(),
                    })
                }
            }
        }
    };
    let held = match tokio::time::timeout_at(deadline, start).await {
        Ok(held) => held?,
        Err(_) => return Err(too_slow(limit)),
    };
    let body = match held {
        Held::Whole(chunks) => {
            drop(cancel);
            Body::from(chunks.concat())
        }
        Held::Partial(held) => Body::new(Streamed {
            held,
            rx,
            deadline: Box::pin(tokio::time::sleep_until(deadline)),
            done: false,
            _cancel: cancel,
        }),
    };
    let mut response = body.into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    Ok(response)
}
