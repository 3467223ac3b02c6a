//! An animation as a stream of scenes: how it plays ([`Animation`]) and the
//! frames themselves ([`Frames`]), drawn and encoded a batch at a time.

use crate::error::check_memory;
use crate::library::encode::gif::Repeat;
use crate::library::scene::Scene;
use crate::{Error, Result};
use rayon::prelude::*;

/// How an animation plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Animation {
    /// How often it plays (default: forever).
    pub repeat: Repeat,
    /// Hundredths of a second per frame (default 10, i.e. 10 frames a second).
    pub delay_cs: u16,
    /// Hundredths of a second the last frame stays before the loop starts again;
    /// `None` gives it the same delay as the others (default 150).
    pub hold_last_cs: Option<u16>,
    /// The frame (1-based) that stands for the animation where it cannot play:
    /// the still of `figures.tex` and the frames snippet's poster. `None`: the
    /// most informative frame ([`poster_frame`]).
    pub poster: Option<u32>,
}

impl Default for Animation {
    fn default() -> Self {
        Animation {
            repeat: Repeat::Forever,
            delay_cs: 10,
            hold_last_cs: Some(150),
            poster: None,
        }
    }
}

/// How much a frame shows: the colour changes between neighbouring cells of its
/// boards (an all-P board has none) and the points of its shapes (a section of
/// many diamonds has many; text counts nothing).
pub fn frame_detail(scene: &Scene) -> u64 {
    use crate::library::scene::Item;
    scene
        .items
        .iter()
        .map(|item| match item {
            Item::Cells(cells) => {
                let (rows, cols) = (cells.rows, cells.cols);
                let at = |r: usize, c: usize| cells.indices.get(r * cols + c);
                let mut changes = 0u64;
                for r in 0..rows {
                    for c in 0..cols {
                        changes += u64::from(c > 0 && at(r, c) != at(r, c - 1));
                        changes += u64::from(r > 0 && at(r, c) != at(r - 1, c));
                    }
                }
                changes
            }
            Item::Path(path) => path.commands.len() as u64,
            Item::Text(_) => 0,
        })
        .sum()
}

/// Keeps the poster frame while frames go by in order: the one asked for, else
/// the most detailed (the later of equals, so a growing figure shows its end).
#[derive(Debug, Clone, Copy, Default)]
pub struct PosterPick {
    /// The frame asked for, 1-based.
    pub asked: Option<u32>,
    /// The frame picked so far (1-based) and its detail.
    pub best: Option<(usize, u64)>,
}

impl PosterPick {
    /// Notes frame `number` (1-based) of detail `detail`; true when it is the
    /// poster so far.
    pub fn offer(&mut self, number: usize, detail: impl FnOnce() -> u64) -> bool {
        let better = match self.asked {
            Some(asked) => number == asked as usize,
            None => {
                let detail = detail();
                let better = self.best.is_none_or(|(_, best)| detail >= best);
                if better {
                    self.best = Some((number, detail));
                }
                return better;
            }
        };
        if better {
            self.best = Some((number, 0));
        }
        better
    }

    /// The poster's number, 1-based; an error when the frame asked for is past
    /// the last of `count` frames.
    pub fn number(&self, count: usize) -> Result<usize> {
        check_poster(self.asked, count)?;
        self.best
            .map(|(n, _)| n)
            .ok_or_else(|| Error::invalid_request("an animation needs at least one frame"))
    }
}

/// Refuses a `poster` frame past the last of `count` frames.
pub fn check_poster(poster: Option<u32>, count: usize) -> Result<()> {
    match poster {
        Some(n) if n as usize > count || n == 0 => Err(Error::invalid_parameter(
            "poster",
            format!("`poster` {n}: the animation has {count} frame(s); give 1 to {count}"),
        )),
        _ => Ok(()),
    }
}

impl Animation {
    /// Checks the delays: GIF viewers slow delays under 2 cs down to 10 cs.
    pub fn validate(&self) -> Result<()> {
        if self.delay_cs < 2 {
            return Err(Error::invalid_parameter("delay", format!(
                "`delay` {} cs is too short: viewers show delays under 2 cs as 10 cs; use `delay` 2 (50 fps) or more",
                self.delay_cs
            )));
        }
        if let Some(hold) = self.hold_last_cs {
            if hold < 2 {
                return Err(Error::invalid_parameter("hold-last", format!(
                    "`hold-last` {hold} cs is too short: viewers show delays under 2 cs as 10 cs; use 2 or more"
                )));
            }
        }
        Ok(())
    }
}

/// An animation as scenes: the one value every animated figure hands to the
/// GIF-free writers (APNG, frame sequences). Scenes come in order from a
/// sequential iterator (automaton frames build on each other) and are drawn and
/// encoded a batch at a time on the rayon pool, so a long animation never sits
/// in memory whole and its bytes do not depend on the thread count.
pub struct Frames<'a> {
    /// Pixel size of every frame.
    pub size: (u32, u32),
    /// How many frames the iterator yields.
    pub count: usize,
    /// Timing and looping.
    pub animation: Animation,
    /// Refuse batches of frames needing more bytes than this.
    pub memory_limit: u64,
    /// The frames, in order.
    pub scenes: Box<dyn Iterator<Item = Result<Scene>> + 'a>,
}

impl Frames<'_> {
    /// Frames drawn at once: enough to keep every thread busy, few enough to
    /// bound memory; checked against the memory limit.
    fn batch(&self) -> Result<usize> {
        let batch = (rayon::current_num_threads() * 2).max(2);
        let (width, height) = self.size;
        check_memory(
            || format!("{batch} frames of {width} x {height} px drawn at once"),
            u64::from(width) * u64::from(height) * 8 * batch as u64,
            self.memory_limit,
            "draw smaller frames (`panel`) or run with fewer `threads`",
        )?;
        Ok(batch)
    }

    /// Maps every frame through `encode` (numbered from 1) a batch at a time in
    /// parallel, handing the results to `sink` in order.
    pub(super) fn for_each_encoded<T: Send>(
        mut self,
        encode: impl Fn(usize, &Scene) -> Result<T> + Sync,
        mut sink: impl FnMut(usize, T) -> Result<()>,
    ) -> Result<()> {
        let batch = self.batch()?;
        let mut done = 0;
        loop {
            let chunk: Vec<Scene> = self.scenes.by_ref().take(batch).collect::<Result<_>>()?;
            if chunk.is_empty() {
                break;
            }
            let encoded: Vec<Result<T>> = chunk
                .par_iter()
                .enumerate()
                .map(|(k, scene)| {
                    let number = done + k + 1;
                    if scene.pixel_size() != self.size {
                        return Err(Error::invalid_request(format!(
                            "frame {number} is {:?} px, but the animation is {:?} px",
                            scene.pixel_size(),
                            self.size
                        )));
                    }
                    encode(number, scene)
                })
                .collect();
            for item in encoded {
                done += 1;
                sink(done, item?)?;
            }
        }
        if done == 0 {
            return Err(Error::invalid_request(
                "an animation needs at least one frame",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_zero_means_forever() {
        assert_eq!(Repeat::from_loop_count(0), Repeat::Forever);
        assert_eq!(Repeat::from_loop_count(3), Repeat::Times(3));
        assert!(Animation {
            delay_cs: 1,
            ..Animation::default()
        }
        .validate()
        .is_err());
    }
}
