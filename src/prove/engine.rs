//! Decision engines, run as separate processes, and the MONA engine.
//!
//! An [`Engine`] turns a formula of the prover's logic into its own input,
//! runs on it under the request's [`Control`] (cancelling kills the child),
//! a time limit and a memory limit, and reports a verdict with its sizes.
//! MONA is GPL software: it is only ever run as a program found on `PATH`,
//! never linked.

use crate::{Control, Error, Result};
use nimscape_model::prove::ir::Formula;
use nimscape_model::prove::mona::{self, Answer, Sizes};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The limits one engine run works under.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Stop the engine after this long (then the answer is "undecided").
    pub timeout: Duration,
    /// The engine's address space, in bytes (then "undecided" when exhausted).
    pub memory: u64,
}

/// What an engine concluded about `formula` for all values of its free variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// True for every value.
    Valid,
    /// False for these values (by variable name).
    CounterExample(Vec<(String, u128)>),
    /// No answer within the limits; the reason in words.
    Undecided(String),
}

/// One run of an engine.
#[derive(Clone, Debug)]
pub struct Run {
    /// The verdict.
    pub outcome: Outcome,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The automata sizes the engine reported.
    pub sizes: Sizes,
}

/// A decision procedure for the prover's logic.
pub trait Engine {
    /// The engine's name, e.g. `MONA`.
    fn name(&self) -> &str;
    /// Its version as it reports it, e.g. `MONA v1.4-18`.
    fn version(&self) -> Result<String>;
    /// The input file's extension, e.g. `mona`.
    fn extension(&self) -> &str;
    /// The engine's input deciding whether `formula` holds for every natural
    /// value of the variables `free`.
    fn input(&self, formula: &Formula, free: &[String]) -> Result<String>;
    /// The command that reruns an input file by hand.
    fn rerun_command(&self, file: &str) -> String;
    /// Runs the engine on `input` (made by [`Engine::input`] for `free`).
    fn decide(
        &self,
        input: &str,
        free: &[String],
        limits: Limits,
        control: &Control,
    ) -> Result<Run>;
}

/// MONA, the WS1S decision procedure of Aarhus University, found on `PATH`.
pub struct Mona {
    program: PathBuf,
}

/// How to get MONA, said once wherever it is missing.
pub(crate) const MONA_MISSING: &str =
    "prove needs the MONA decision procedure: install it with `apt-get install mona` (Debian, Ubuntu) or from https://www.brics.dk/mona/, then run again";

/// The file `name` in a folder of `PATH`, if it is there.
pub(crate) fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

impl Mona {
    /// MONA from `PATH`; a one-line error saying how to install it otherwise.
    pub fn from_path() -> Result<Mona> {
        find_on_path("mona")
            .map(|program| Mona { program })
            .ok_or_else(|| Error::Unsupported(MONA_MISSING.into()))
    }
}

impl Engine for Mona {
    fn name(&self) -> &str {
        "MONA"
    }

    fn version(&self) -> Result<String> {
        let out = Command::new(&self.program)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| Error::Unsupported(format!("cannot run mona: {e}")))?;
        let text = String::from_utf8_lossy(&out.stdout);
        Ok(text
            .lines()
            .find(|l| l.starts_with("MONA"))
            .map(|l| l.trim_end_matches(" for WS1S/WS2S").trim().to_string())
            .unwrap_or_else(|| "MONA (version not reported)".into()))
    }

    fn extension(&self) -> &str {
        "mona"
    }

    fn input(&self, formula: &Formula, free: &[String]) -> Result<String> {
        mona::program(formula, free)
            .map_err(|e| Error::Unsupported(format!("cannot translate the claim for MONA: {e}")))
    }

    fn rerun_command(&self, file: &str) -> String {
        format!("mona -t {file}")
    }

    fn decide(
        &self,
        input: &str,
        free: &[String],
        limits: Limits,
        control: &Control,
    ) -> Result<Run> {
        let dir = tempfile::tempdir().map_err(|e| {
            Error::Unsupported(format!("cannot make a temporary folder for mona: {e}"))
        })?;
        let file = dir.path().join("claim.mona");
        let out_path = dir.path().join("out.txt");
        let err_path = dir.path().join("err.txt");
        let io = |e: std::io::Error| Error::Unsupported(format!("cannot run mona: {e}"));
        std::fs::write(&file, input).map_err(io)?;
        let stdout = std::fs::File::create(&out_path).map_err(io)?;
        let stderr = std::fs::File::create(&err_path).map_err(io)?;
        // The memory bound is the shell's `ulimit -v` (KiB), set in the child
        // just before it becomes mona: no unsafe code on our side.
        let kib = (limits.memory / 1024).max(16 * 1024);
        let start = Instant::now();
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v \"$1\" && exec \"$2\" -s -t \"$3\"")
            .arg("nimscape-prove")
            .arg(kib.to_string())
            .arg(&self.program)
            .arg(&file)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr)
            .spawn()
            .map_err(io)?;
        let stopped = loop {
            if let Some(status) = child.try_wait().map_err(io)? {
                break Ok(status);
            }
            if control.is_cancelled() {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Error::Cancelled);
            }
            if start.elapsed() > limits.timeout {
                let _ = child.kill();
                let _ = child.wait();
                break Err(format!(
                    "stopped after the time limit of {} s",
                    limits.timeout.as_secs_f64()
                ));
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let seconds = start.elapsed().as_secs_f64();
        let output = std::fs::read_to_string(&out_path).unwrap_or_default();
        let errors = std::fs::read_to_string(&err_path).unwrap_or_default();
        let sizes = mona::parse_sizes(&output);
        let status = match stopped {
            Err(why) => {
                return Ok(Run {
                    outcome: Outcome::Undecided(why),
                    seconds,
                    sizes,
                })
            }
            Ok(status) => status,
        };
        match mona::parse_answer(&output, free) {
            Some(Ok(Answer::Valid)) => Ok(Run {
                outcome: Outcome::Valid,
                seconds,
                sizes,
            }),
            Some(Ok(Answer::CounterExample(values) | Answer::Unsatisfiable(values))) => Ok(Run {
                outcome: Outcome::CounterExample(values),
                seconds,
                sizes,
            }),
            Some(Err(why)) => Err(Error::Unsupported(format!(
                "internal error of the prover (please report it): cannot read mona's answer: {why}"
            ))),
            None => {
                let said = format!("{output}\n{errors}");
                let memory = said.contains("memory")
                    || said.contains("bad_alloc")
                    || said.contains("failed to map")
                    || status.code().is_none();
                if memory {
                    Ok(Run {
                        outcome: Outcome::Undecided(format!(
                            "mona ran out of its memory limit of {}",
                            nimscape_model::error::human_bytes(limits.memory)
                        )),
                        seconds,
                        sizes,
                    })
                } else {
                    let first = said
                        .lines()
                        .map(str::trim)
                        .find(|l| {
                            !l.is_empty() && !l.starts_with("MONA") && !l.starts_with("Copyright")
                        })
                        .unwrap_or("no output")
                        .to_string();
                    Err(Error::Unsupported(format!(
                        "internal error of the prover (please report it): mona failed ({status}): {first}"
                    )))
                }
            }
        }
    }
}

/// Writes `text` to `path` (for certificates), as the library's one error type.
pub fn write_text(path: &Path, text: &str, output_limit: u64) -> Result<()> {
    crate::library::encode::write_atomic(path, output_limit, |out| {
        out.write_all(text.as_bytes())
            .map_err(|e| Error::write_failed(e).at(path))
    })
}
