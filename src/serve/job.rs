//! The heavy work of a request, run in process under a [`Control`]: when the
//! client goes away or the time limit passes, the server cancels the control
//! and the work stops at its next check (every few tens of milliseconds), so
//! its slot is free again at once. No worker processes: the memory guard
//! refuses work over `--max-memory` before it starts, so a process boundary
//! would contain nothing the guard does not.

use super::error::ApiError;
use crate::request::grundy::GameFiles;
use crate::request::{self, Budget, Value};
use crate::Control;
use std::sync::Arc;

/// One piece of work whose answer is small and sent whole (figures stream: see
/// [`super::stream`]).
#[derive(Debug, Clone)]
pub enum Job {
    /// Where the cells of the Grundy figure of `flags` are (JSON), for the
    /// hover readout: [`crate::request::grundy_layout_with`].
    GrundyLayout {
        /// `(flag, value)` pairs of `grundy`, as for the figure.
        flags: Vec<(String, String)>,
        /// The `--max-memory` limit.
        memory_limit: u64,
        /// A pasted game file (its name and text) that `game` names.
        game: Option<(String, Arc<str>)>,
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
    /// Does the work, stopping early when `control` is cancelled.
    pub fn run(&self, control: &Control) -> Result<Vec<u8>, ApiError> {
        match self {
            Job::GrundyLayout {
                flags,
                memory_limit,
                game,
            } => {
                let pairs: Vec<(String, Value)> = flags
                    .iter()
                    .map(|(n, v)| (n.clone(), Value::Text(v.clone())))
                    .collect();
                request::grundy_layout_with(
                    &pairs,
                    &budget(*memory_limit),
                    control,
                    files(game.as_ref()),
                )
                .map_err(ApiError::from)
            }
            Job::PassBoard { m, memory_limit } => {
                let (_, pass) = crate::games::nim_pass::square_board(*m, *memory_limit, control)?;
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

/// Where a request's game file comes from: the pasted one, else the disk below
/// the folder the server was started in.
pub(super) fn files(game: Option<&(String, Arc<str>)>) -> GameFiles<'_> {
    match game {
        Some((name, text)) => GameFiles::Given { name, text },
        None => GameFiles::Below,
    }
}

fn budget(memory_limit: u64) -> Budget {
    Budget {
        memory_limit,
        ..Budget::default()
    }
}
