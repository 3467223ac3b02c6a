//! An animation as a stream of scenes: how it plays ([`Animation`]) and the
//! frames themselves ([`Frames`]), drawn and encoded a batch at a time.

use crate::encode::gif::Repeat;
use crate::error::check_memory;
use crate::scene::Scene;
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
}

impl Default for Animation {
    fn default() -> Self {
        Animation {
            repeat: Repeat::Forever,
            delay_cs: 10,
            hold_last_cs: Some(150),
        }
    }
}

impl Animation {
    /// Checks the delays: GIF viewers slow delays under 2 cs down to 10 cs.
    pub fn validate(&self) -> Result<()> {
        if self.delay_cs < 2 {
            return Err(Error::invalid(format!(
                "`delay` {} cs is too short: viewers show delays under 2 cs as 10 cs; use `delay` 2 (50 fps) or more",
                self.delay_cs
            )));
        }
        if let Some(hold) = self.hold_last_cs {
            if hold < 2 {
                return Err(Error::invalid(format!(
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
                        return Err(Error::invalid(format!(
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
            return Err(Error::invalid("an animation needs at least one frame"));
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
