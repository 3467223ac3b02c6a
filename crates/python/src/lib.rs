//! `nimscape._nimscape`: the Python module's native half, a front end over the
//! request layer like the command line, recipes and the server.
//!
//! Parameters arrive as `name = value` pairs and go through
//! [`nimscape::request::plan_pairs`], so a Python call is validated by the same
//! definitions as the command line and records the same `nimscape ...` words.
//! Bytes come from [`nimscape::request::Planned::render`], arrays from the plan's
//! own `.npy` data ([`nimscape::request::Planned::array`]) handed to NumPy
//! without a copy. Long work runs on another thread with the GIL released; the
//! calling thread polls for signals, so Ctrl-C cancels the request's
//! [`nimscape::Control`] and raises `KeyboardInterrupt` within a fraction of a
//! second. The Python half (`python/nimscape`) turns keywords into pairs and
//! lays out the public functions.
#![forbid(unsafe_code)]

use nimscape::request::data::{self, Array, Values};
use nimscape::request::{self, Budget, Naming, Planned, Value};
use nimscape::{Control, Error};
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::IntoPyArray;
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyOSError, PyRuntimeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How often the waiting thread looks for a signal (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(40);

/// A library error as the Python exception a user expects, its message naming
/// parameters as Python keywords (`p_color`).
fn to_py(err: Error) -> PyErr {
    let message = Naming::Keywords.message(&err);
    match err {
        Error::InvalidParameter { .. } | Error::Unsupported(_) => PyValueError::new_err(message),
        Error::TooLarge { .. } => PyMemoryError::new_err(keyword_example(&message)),
        Error::Cancelled => PyKeyboardInterrupt::new_err(message),
        // With its errno, Python picks the subclass (PermissionError, ...).
        Error::Io { source, .. } => match source.raw_os_error() {
            Some(errno) => PyOSError::new_err((errno, message)),
            None => PyOSError::new_err(message),
        },
        Error::Encode { .. } => PyOSError::new_err(message),
    }
}

/// A refusal's example of a larger limit as Python writes it: the message's
/// "(e.g. max_memory 37G)" becomes "(e.g. max_memory=\"37G\")", a keyword
/// argument to copy, not the command line's words.
fn keyword_example(message: &str) -> String {
    const SAID: &str = "e.g. max_memory ";
    match message.find(SAID) {
        Some(at) => {
            let value_at = at + SAID.len();
            let rest = &message[value_at..];
            let end = rest.find([')', ';', ' ']).unwrap_or(rest.len());
            format!(
                "{}e.g. max_memory=\"{}\"{}",
                &message[..at],
                &rest[..end],
                &rest[end..]
            )
        }
        None => message.to_string(),
    }
}

/// Runs `work` on its own thread with the GIL released, while this thread checks
/// for signals every [`SIGNAL_POLL`]: a `KeyboardInterrupt` (or any exception a
/// signal handler raises) cancels the work's control, waits for the work to stop
/// (it checks the control every few tens of milliseconds) and is raised.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Control) -> nimscape::Result<T> + Send,
) -> PyResult<T> {
    let control = Control::new();
    let done = Arc::new((Mutex::new(false), Condvar::new()));
    std::thread::scope(|scope| {
        let worker = {
            let done = Arc::clone(&done);
            let control = &control;
            scope.spawn(move || {
                let result = work(control);
                let (lock, wake) = &*done;
                *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
                wake.notify_all();
                result
            })
        };
        let mut interrupted = None;
        loop {
            let finished = py.detach(|| {
                let (lock, wake) = &*done;
                let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                let (guard, _) = wake
                    .wait_timeout_while(guard, SIGNAL_POLL, |finished| !*finished)
                    .unwrap_or_else(|e| e.into_inner());
                *guard
            });
            if finished {
                break;
            }
            if let Err(err) = py.check_signals() {
                control.cancel();
                interrupted = Some(err);
                break;
            }
        }
        let result = py.detach(|| worker.join());
        if let Some(err) = interrupted {
            return Err(err);
        }
        match result {
            Ok(result) => result.map_err(to_py),
            Err(_) => Err(PyRuntimeError::new_err(
                "nimscape panicked: this is a bug, please report it with the call that did it",
            )),
        }
    })
}

/// The budget of one call: `max_memory` as the command line's `--max-memory`
/// (bytes, or text such as "512M", "4G").
fn budget(max_memory: Option<&Bound<'_, PyAny>>) -> PyResult<Budget> {
    let mut budget = Budget::default();
    if let Some(value) = max_memory.filter(|v| !v.is_none()) {
        budget.memory_limit = if let Ok(bytes) = value.extract::<u64>() {
            bytes
        } else {
            let text: String = value.str()?.extract()?;
            request::parse_bytes(&text).map_err(|why| {
                PyValueError::new_err(format!("invalid value '{text}' for max_memory: {why}"))
            })?
        };
    }
    Ok(budget)
}

/// Pairs from Python: `True`/`False` are switches, anything else its text.
fn pairs(items: &Bound<'_, PyList>) -> PyResult<Vec<(String, Value)>> {
    let mut out = Vec::with_capacity(items.len());
    for item in items.iter() {
        let (name, value): (String, Bound<'_, PyAny>) = item.extract()?;
        let value = if value.is_instance_of::<pyo3::types::PyBool>() {
            Value::Switch(value.extract()?)
        } else {
            Value::Text(value.str()?.extract()?)
        };
        out.push((name, value));
    }
    Ok(out)
}

/// An array as NumPy's, owning the Rust memory (no copy).
fn to_numpy(py: Python<'_>, array: Array) -> PyResult<Py<PyAny>> {
    let shape = IxDyn(&array.shape);
    let bad = |e: numpy::ndarray::ShapeError| PyRuntimeError::new_err(e.to_string());
    Ok(match array.values {
        Values::Bool(v) => ArrayD::from_shape_vec(shape, v)
            .map_err(bad)?
            .into_pyarray(py)
            .into_any()
            .unbind(),
        Values::U8(v) => ArrayD::from_shape_vec(shape, v)
            .map_err(bad)?
            .into_pyarray(py)
            .into_any()
            .unbind(),
        Values::U16(v) => ArrayD::from_shape_vec(shape, v)
            .map_err(bad)?
            .into_pyarray(py)
            .into_any()
            .unbind(),
        Values::U64(v) => ArrayD::from_shape_vec(shape, v)
            .map_err(bad)?
            .into_pyarray(py)
            .into_any()
            .unbind(),
    })
}

/// A validated figure request: what `nimscape.figure(...)` wraps.
#[pyclass(frozen, module = "nimscape._nimscape")]
struct Plan {
    planned: Planned,
    budget: Budget,
}

#[pymethods]
impl Plan {
    /// `nimscape <command> <flags>`: the command line that draws the same bytes.
    #[getter]
    fn command(&self) -> &str {
        self.planned.command_line()
    }

    /// The words after `nimscape` for another process (values as --flag=value).
    #[getter]
    fn arguments(&self) -> Vec<String> {
        self.planned.arguments().to_vec()
    }

    /// The file extensions this figure writes, the usual one first.
    fn formats(&self) -> Vec<&'static str> {
        self.planned
            .formats()
            .iter()
            .map(|f| f.extension())
            .collect()
    }

    /// The figure as `extension` (png, svg, pdf, tikz, csv, json, npy, gif, apng, ...), in memory.
    fn render<'py>(&self, py: Python<'py>, extension: &str) -> PyResult<Bound<'py, PyBytes>> {
        let format = self.planned.format(extension).map_err(to_py)?;
        // In memory, an output the command line would stream to a file counts
        // against the memory limit, before any work.
        if let Some(bytes) = self.planned.output_bytes(format) {
            nimscape_model::error::check_memory(
                || format!("this .{extension} output, in memory"),
                bytes,
                self.budget.memory_limit,
                "ask for less, or save() it to a file",
            )
            .map_err(to_py)?;
        }
        let bytes = interruptible(py, |control| self.planned.render(format, control))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Writes the figure to `path` atomically, in the format its extension names;
    /// a frame pattern (`frames/f-%03d.png`) writes numbered frames and a LaTeX snippet.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let planned = &self.planned;
        let limit = self.budget.output_limit;
        let pattern = request::FramePattern::parse(&path).map_err(to_py)?;
        interruptible(py, |control| match &pattern {
            Some(pattern) => planned.save_frames(pattern, |_| {}, control, limit),
            None => planned.save(planned.format_of(&path)?, &path, control, limit),
        })
    }

    /// `(solver, why)`: which solver solves the figure's game and why no faster
    /// one applies, as `grundy --time` reports it; None for a figure of no one game.
    fn solver(&self, py: Python<'_>) -> PyResult<Option<(String, String)>> {
        let choice = interruptible(py, |control| self.planned.solver(control))?;
        Ok(choice.map(|c| (c.solver, c.why)))
    }

    /// The figure's `.npy` data as a NumPy array (no file, no copy).
    fn array(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let array = interruptible(py, |control| self.planned.array(&self.budget, control))?;
        to_numpy(py, array)
    }

    fn __repr__(&self) -> String {
        format!("<nimscape figure: {}>", self.planned.command_line())
    }
}

/// Plans `command` (["square"], ["octahedron", "section"]) with `pairs`
/// ([(name, value)]): the request layer validates them as the command line does.
#[pyfunction]
#[pyo3(signature = (command, pairs, max_memory=None))]
fn plan(
    py: Python<'_>,
    command: Vec<String>,
    pairs: &Bound<'_, PyList>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Plan> {
    let budget = budget(max_memory)?;
    let pairs = self::pairs(pairs)?;
    let words: Vec<&str> = command.iter().map(String::as_str).collect();
    let planned = py
        .detach(|| request::plan_pairs(&words, &pairs, &budget))
        .map_err(to_py)?;
    Ok(Plan { planned, budget })
}

/// The parameter names of `command`, as the command line's long flags.
#[pyfunction]
fn parameters(command: Vec<String>) -> PyResult<Vec<String>> {
    let words: Vec<&str> = command.iter().map(String::as_str).collect();
    request::parameters(&words).map_err(to_py)
}

/// Grundy values of `nimscape grundy`'s `pairs`: the whole box solved, then
/// written in place into Rust memory that NumPy then owns; a slice through the
/// figure's `.npy` data.
#[pyfunction]
#[pyo3(signature = (pairs, max_memory=None))]
fn grundy_values(
    py: Python<'_>,
    pairs: &Bound<'_, PyList>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let budget = budget(max_memory)?;
    let pairs = self::pairs(pairs)?;
    match interruptible(py, |control| data::grundy_values(&pairs, &budget, control))? {
        data::GrundyValues::Slice(array) => to_numpy(py, array),
        data::GrundyValues::Whole(solved) => {
            // Rust's allocation, handed over without a copy: NumPy's own asks the
            // kernel for huge pages, whose compaction stalled for seconds here.
            let shape = solved.shape().map_err(to_py)?;
            let mut values = vec![0u16; shape.iter().product()];
            interruptible(py, |control| solved.fill(&mut values, control))?;
            to_numpy(
                py,
                Array {
                    shape,
                    values: Values::U16(values),
                },
            )
        }
    }
}

/// `(name, help)` of every parameter of `command`, as `--help` shows them.
#[pyfunction]
fn parameter_help(command: Vec<String>) -> PyResult<Vec<(String, String)>> {
    let words: Vec<&str> = command.iter().map(String::as_str).collect();
    request::parameter_help(&words).map_err(to_py)
}

/// The P-set of R(m, n) as a boolean array, filled on every core into Rust's
/// allocation and handed to NumPy without a copy.
#[pyfunction]
#[pyo3(signature = (m, n=None, max_memory=None))]
fn p_set(
    py: Python<'_>,
    m: u64,
    n: Option<u64>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let budget = budget(max_memory)?;
    let array = interruptible(py, |control| data::p_set(m, n, &budget, control))?;
    to_numpy(py, array)
}

/// Exact P-share tiles: (counts, areas, fits) with counts and areas flat lists of
/// ints when a value passes 64 bits (fits = False), else uint64 arrays.
#[pyfunction]
#[pyo3(signature = (m, n, level, rows=None, cols=None, max_memory=None))]
fn tiles(
    py: Python<'_>,
    m: u64,
    n: u64,
    level: u32,
    rows: Option<(u64, u64)>,
    cols: Option<(u64, u64)>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let budget = budget(max_memory)?;
    let tiles = interruptible(py, |control| {
        data::tiles(
            m,
            n,
            level,
            rows.map(|(a, b)| a..b),
            cols.map(|(a, b)| a..b),
            &budget,
            control,
        )
    })?;
    let shape = tiles.shape.to_vec();
    let as_numpy = |values: Vec<u128>| -> PyResult<Py<PyAny>> {
        match values
            .iter()
            .map(|&v| u64::try_from(v))
            .collect::<Result<Vec<u64>, _>>()
        {
            Ok(small) => to_numpy(
                py,
                Array {
                    shape: shape.clone(),
                    values: Values::U64(small),
                },
            ),
            Err(_) => Ok(PyList::new(py, values)?.into_any().unbind()),
        }
    };
    Ok((as_numpy(tiles.counts)?, as_numpy(tiles.areas)?))
}

/// `(name, help)` of every parameter of `nimscape survey`, as `--help` shows them.
#[pyfunction]
fn survey_parameter_help() -> Vec<(String, String)> {
    request::survey::parameter_help()
}

/// Runs the conjecture survey of `pairs` (`nimscape survey`'s flags, planned by
/// the request layer as the command line plans them), writes the reports
/// `outputs` names (`.md` with a figure per value beside it, `.json`, `.csv`;
/// atomically, the command line's bytes) and returns the JSON report's text and
/// the survey's command line.
#[pyfunction]
#[pyo3(signature = (pairs, outputs, max_memory=None))]
fn survey(
    py: Python<'_>,
    pairs: &Bound<'_, PyList>,
    outputs: Vec<PathBuf>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, String)> {
    let budget = budget(max_memory)?;
    let pairs = self::pairs(pairs)?;
    for path in &outputs {
        request::survey::ReportKind::of(path).map_err(|e| {
            PyValueError::new_err(format!("save: {}", Naming::Keywords.message(&e)))
        })?;
    }
    let planned = py
        .detach(|| request::survey::plan_pairs(&pairs, budget.memory_limit))
        .map_err(to_py)?;
    interruptible(py, |control| {
        let found = planned.plan.run(control)?;
        for path in &outputs {
            request::survey::report_files(
                &found,
                path,
                &planned.command_line,
                budget.memory_limit,
                control,
                |file, bytes| {
                    request::write_atomic(file, budget.output_limit, |out| {
                        out.write_all(bytes)
                            .map_err(|e| Error::write_failed(e).at(file))
                    })
                },
            )?;
        }
        let json = format!("{:#}\n", request::survey::json(&found));
        Ok((json, planned.command_line.clone()))
    })
}

/// One decided case of `prove`: label, verdict, summary line, counterexample
/// (names and values), its explanation, the certificate's folder and files.
type ProvedTuple = (
    Option<String>,
    String,
    String,
    Option<Vec<(String, u64)>>,
    Option<String>,
    Option<PathBuf>,
    Vec<PathBuf>,
);

/// Proves the claim of `pairs` (`nimscape prove`'s flags, planned by the request
/// layer as the command line plans them) with the engine found on PATH, writes
/// each certificate into `out` (atomically, the command line's files), and
/// returns the command line and one tuple per decided case.
#[pyfunction]
#[pyo3(signature = (pairs, out=None, max_memory=None))]
fn prove(
    py: Python<'_>,
    pairs: &Bound<'_, PyList>,
    out: Option<PathBuf>,
    max_memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, Vec<ProvedTuple>)> {
    let budget = budget(max_memory)?;
    let pairs = self::pairs(pairs)?;
    let planned = py
        .detach(|| request::prove::plan_pairs(&pairs))
        .map_err(to_py)?;
    interruptible(py, |control| {
        let cases = request::prove::run(
            &planned,
            out.as_deref(),
            budget.memory_limit,
            control,
            &mut |path, text| nimscape::prove::engine::write_text(path, text, budget.output_limit),
        )?;
        let cases = cases
            .into_iter()
            .map(|c| {
                (
                    c.label,
                    c.verdict.word().to_string(),
                    c.summary,
                    c.counterexample,
                    c.explanation,
                    c.folder,
                    c.files,
                )
            })
            .collect();
        Ok((planned.command_line.clone(), cases))
    })
}

/// The native half of the `nimscape` package.
#[pymodule]
fn _nimscape(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Plan>()?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(parameters, m)?)?;
    m.add_function(wrap_pyfunction!(parameter_help, m)?)?;
    m.add_function(wrap_pyfunction!(p_set, m)?)?;
    m.add_function(wrap_pyfunction!(grundy_values, m)?)?;
    m.add_function(wrap_pyfunction!(tiles, m)?)?;
    m.add_function(wrap_pyfunction!(survey, m)?)?;
    m.add_function(wrap_pyfunction!(survey_parameter_help, m)?)?;
    m.add_function(wrap_pyfunction!(prove, m)?)?;
    m.add("OUTSIDE", nimscape_model::games::OUTSIDE)?;
    m.add(
        "DEFAULT_MEMORY_LIMIT",
        nimscape_model::error::DEFAULT_MEMORY_LIMIT,
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
