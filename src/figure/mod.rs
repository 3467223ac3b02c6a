//! The figure layer: one module per figure family.
//!
//! A figure module is the only code that knows both the mathematics (the
//! model crate) and the looks (scenes and encoders). It turns validated
//! parameters into a model, a scene and data, once, for every output format.
//! The CLI, recipes and the HTTP server are front ends over this layer.

pub mod animation;
pub mod automaton;
pub mod count;
pub mod grundy;
pub mod octahedron;
pub mod plan;
pub mod square;
pub mod survey;

use crate::library::encode::animation::{write_frame_files, FramePattern, Frames};
use crate::library::encode::{self, Format, Metadata};
use crate::{Control, Result};
use std::io::Write;
use std::path::Path;

/// The one contract every figure family keeps: a validated plan that writes any
/// of its formats to any writer. Files, stdout and HTTP responses are all the
/// same call; only [`write_file`] knows about paths.
pub trait Figure: Sync {
    /// The formats this figure can be written as, the usual one first.
    fn formats(&self) -> Vec<Format>;

    /// Checks everything that can be checked before any work: parameters, and
    /// whether `format` can show this figure at all.
    fn check(&self, format: Format) -> Result<()>;

    /// Writes the figure as `format` to `out`. Models that cost real time are
    /// computed once per plan, however many formats are written.
    /// `control` is checked at short intervals (the work stops with
    /// [`crate::Error::Cancelled`] once it is cancelled) and hears of progress.
    fn write_to(
        &self,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()>;

    /// The file name it gets without `-o`, e.g. `square-11` (no extension).
    fn default_stem(&self) -> String;

    /// The size of the output in `format`, estimated in O(parameters) for the disk
    /// guard ([`write_file`] refuses what exceeds `--max-output` or the free space
    /// before any work); `None` where outputs are small (pictures).
    fn output_bytes(&self, _format: Format) -> Option<u64> {
        None
    }

    /// The scene a still figure is drawn from (what its PNG, SVG and PDF show),
    /// for checks of its text and lines ([`crate::library::scene::audit`]); `None` for
    /// figures that are not one scene (animations, data).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    fn still_scene(
        &self,
        _control: &Control,
    ) -> Result<Option<std::sync::Arc<crate::library::scene::Scene>>> {
        Ok(None)
    }

    /// A line the command line prints after writing the figure, where the
    /// picture could read as wrong without it (a deep window that is one flat
    /// colour, correctly); `None` for most figures.
    fn note(&self, _control: &Control) -> Option<String> {
        None
    }

    /// Which solver solves the figure's game, and why no faster one applies:
    /// what `grundy --time` reports as `solver` and `solver_why`, for the
    /// command line, recipes and Python alike; `None` for a figure of no one
    /// game (a board, a sheet over a parameter).
    fn solver(&self, _control: &Control) -> Result<Option<crate::games::SolverChoice>> {
        Ok(None)
    }

    /// The frames of an animated figure, for APNG and numbered frame
    /// sequences; still figures refuse.
    fn frames(&self) -> Result<Frames<'_>> {
        Err(crate::Error::unsupported(
            "this figure is one picture, not an animation: a frame sequence (-o frames/f-%03d.png) or .apng needs frames (several `m`, automaton frames, an octahedron sweep)",
        ))
    }
}

/// Writes an animated figure as a numbered frame sequence (`pattern`) plus its
/// LaTeX `\animategraphics` snippet; `wrote` hears of every file written.
pub fn write_frame_sequence(
    figure: &dyn Figure,
    pattern: &FramePattern,
    metadata: &Metadata,
    wrote: impl FnMut(&Path),
    control: &Control,
    output_limit: u64,
) -> Result<()> {
    // Whatever makes an animation impossible (a single board, --raw) is refused
    // as it is for an .apng, before any frame is drawn.
    figure.check(Format::Apng)?;
    encode::check_output_path(&pattern.frame_path(1))?;
    let frames = controlled(figure.frames()?, control);
    pattern.check_count(frames.count)?;
    write_frame_files(pattern, frames, metadata, wrote, output_limit)
}

/// `frames` that stop with [`crate::Error::Cancelled`] before the next frame once
/// `control` is cancelled, and count one unit of progress per frame.
pub fn controlled<'a>(mut frames: Frames<'a>, control: &Control) -> Frames<'a> {
    frames.scenes = Box::new(counted(frames.scenes, frames.count, control));
    frames
}

/// `items` (the `count` frames or levels of an animation) under `control`: one
/// unit of progress each, and [`crate::Error::Cancelled`] instead of the next
/// item once `control` is cancelled.
pub fn counted<'a, T: 'a>(
    mut items: impl Iterator<Item = Result<T>> + 'a,
    count: usize,
    control: &Control,
) -> impl Iterator<Item = Result<T>> + 'a {
    let control = control.clone();
    control.add_total(count as u64);
    std::iter::from_fn(move || {
        if let Err(cancelled) = control.check() {
            return Some(Err(cancelled));
        }
        let next = items.next();
        if next.is_some() {
            control.advance(1);
        }
        next
    })
}

/// [`counted`] for items of uneven cost: item k counts `weights[k]` units of
/// progress, so the ETA of frames that grow (boards 1..4096, 16 million cells at the
/// end) is not promised from the cheap first ones.
pub fn weighted<'a, T: 'a>(
    mut items: impl Iterator<Item = Result<T>> + 'a,
    weights: Vec<u64>,
    control: &Control,
) -> impl Iterator<Item = Result<T>> + 'a {
    let control = control.clone();
    control.add_total(weights.iter().fold(0u64, |sum, &w| sum.saturating_add(w)));
    let mut weights = weights.into_iter();
    std::iter::from_fn(move || {
        if let Err(cancelled) = control.check() {
            return Some(Err(cancelled));
        }
        let next = items.next();
        if next.is_some() {
            control.advance(weights.next().unwrap_or(1));
        }
        next
    })
}

/// The still of an animated figure as a PNG at `path`: the frame a LaTeX
/// document shows, since a PDF cannot play a GIF. It is the `poster` frame
/// asked for, else the most detailed one (not an all-P board; the later of
/// equals, so a figure that grows shows its end).
pub fn write_last_frame(
    figure: &dyn Figure,
    path: &Path,
    metadata: &Metadata,
    control: &Control,
    output_limit: u64,
) -> Result<()> {
    figure.check(Format::Apng)?;
    encode::check_output_path(path)?;
    let frames = controlled(figure.frames()?, control);
    let memory_limit = frames.memory_limit;
    let count = frames.count;
    let mut pick = crate::library::encode::animation::PosterPick {
        asked: frames.animation.poster,
        best: None,
    };
    crate::library::encode::animation::check_poster(pick.asked, count)?;
    let mut poster = None;
    for (k, scene) in frames.scenes.enumerate() {
        let scene = scene?;
        if pick.offer(k + 1, || {
            crate::library::encode::animation::frame_detail(&scene)
        }) {
            poster = Some(scene);
        }
    }
    pick.number(count)?;
    let scene =
        poster.ok_or_else(|| crate::Error::invalid_request("the animation has no frames"))?;
    encode::write_atomic(path, output_limit, |out| {
        encode::write_scene_to(out, Format::Png, &scene, metadata, memory_limit, control)
            .map_err(|e| e.at(path))
    })
}

/// A writer that fails once `control` is cancelled: every encoder that streams
/// (PNG bands, GIF frames, CSV rows, `.npy` slabs) stops at its next write.
struct Checked<'a> {
    out: &'a mut dyn Write,
    control: &'a Control,
}

impl Write for Checked<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.control.is_cancelled() {
            // Not ErrorKind::Interrupted: write_all would retry that.
            return Err(std::io::Error::other("interrupted"));
        }
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Writes `figure` as `format` to `out` under `control`: a cancelled run ends in
/// [`crate::Error::Cancelled`], whatever step noticed it.
fn write_checked(
    figure: &dyn Figure,
    format: Format,
    out: &mut dyn Write,
    metadata: &Metadata,
    control: &Control,
) -> Result<()> {
    control.check()?;
    let mut checked = Checked { out, control };
    figure
        .write_to(format, &mut checked, metadata, control)
        .map_err(|e| {
            if control.is_cancelled() {
                crate::Error::Cancelled
            } else {
                e
            }
        })
}

/// The format of `path` among the figure's formats (every figure that writes SVG
/// writes PDF too), with the figure's own choices named when it is not one.
pub fn format_of(figure: &dyn Figure, path: &Path) -> Result<Format> {
    Format::of_path(path, &figure.formats())
}

/// Checks the figure for `format`, then writes it to `path` atomically: nothing
/// is left behind when any step fails.
pub fn write_file(
    figure: &dyn Figure,
    format: Format,
    path: &Path,
    metadata: &Metadata,
    control: &Control,
    output_limit: u64,
) -> Result<()> {
    figure.check(format)?;
    encode::check_output_path(path)?;
    if let Some(bytes) = figure.output_bytes(format) {
        encode::check_output_size(
            path,
            output_limit,
            bytes,
            &format!("this .{} output", format.extension()),
            "ask for less (a smaller box, fewer frames or boards)",
        )?;
    }
    encode::write_atomic(path, output_limit, |out| {
        write_checked(figure, format, out, metadata, control).map_err(|e| e.at(path))
    })
}

/// Writes `figure` as `format` to a stream (`-o -`, an HTTP response; errors call
/// it `stream`): as it is made, never whole in memory, and refused past
/// `output_limit` (`--max-output`) as a file would be: before any work when the
/// output's size is known, else once it grows past it. A stream cannot be taken
/// back: a failure leaves what was already written.
pub fn write_stream_to(
    figure: &dyn Figure,
    format: Format,
    out: &mut dyn Write,
    stream: &Path,
    metadata: &Metadata,
    control: &Control,
    output_limit: u64,
) -> Result<()> {
    figure.check(format)?;
    check_stream_size(figure, format, output_limit)?;
    let mut bounded = Bounded {
        out,
        written: 0,
        budget: encode::OutputBudget::of_limit(output_limit),
    };
    // Errors name the stream as errors of a file name the file.
    write_checked(figure, format, &mut bounded, metadata, control).map_err(|e| e.at(stream))?;
    bounded
        .flush()
        .map_err(|e| crate::Error::write_failed(e).at(stream))
}

/// Refuses, before any work, a stream whose size [`Figure::output_bytes`] knows to
/// be over `output_limit` (`--max-output`), with the estimate.
pub fn check_stream_size(figure: &dyn Figure, format: Format, output_limit: u64) -> Result<()> {
    if let Some(bytes) = figure.output_bytes(format) {
        if bytes > output_limit {
            return Err(crate::Error::unsupported(format!(
                "this .{} output would be {}, over {} (the `max-output` limit); \
                 ask for less (a smaller box, fewer frames or boards), or raise `max-output`",
                format.extension(),
                crate::error::about_bytes(bytes),
                crate::error::human_bytes(output_limit),
            )));
        }
    }
    Ok(())
}

/// A stream that refuses to grow past its budget.
struct Bounded<'a> {
    out: &'a mut dyn Write,
    written: u64,
    budget: encode::OutputBudget,
}

impl Write for Bounded<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.budget.charge(&mut self.written, buf.len(), "")?;
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The figure's bytes in `format`, in memory (for the HTTP server and tests).
pub fn to_bytes(
    figure: &dyn Figure,
    format: Format,
    metadata: &Metadata,
    control: &Control,
) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    to_writer(figure, format, &mut bytes, metadata, control)?;
    Ok(bytes)
}

/// Checks the figure for `format`, then writes it to `out` under `control` (the
/// Python module catches `.npy` data this way, straight into an array).
pub fn to_writer(
    figure: &dyn Figure,
    format: Format,
    out: &mut dyn Write,
    metadata: &Metadata,
    control: &Control,
) -> Result<()> {
    figure.check(format)?;
    write_checked(figure, format, out, metadata, control)
}

/// [`write_file`] in the format `path`'s extension names (for the benchmarks).
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub fn save(
    figure: &dyn Figure,
    path: &Path,
    metadata: &Metadata,
    control: &Control,
    output_limit: u64,
) -> Result<()> {
    write_file(
        figure,
        format_of(figure, path)?,
        path,
        metadata,
        control,
        output_limit,
    )
}
