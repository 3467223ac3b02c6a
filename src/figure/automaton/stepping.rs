//! The frames themselves: one stepper for the values asked for (parity,
//! residues mod p, exact), run in increasing order; or, for parity, each frame
//! straight from the P-position criterion. Computed once for a picture, or
//! streamed one by one for data.

use super::{AutomatonPlan, Frame, Values};
use crate::automaton::{ExactStepper, ParityStepper, ResidueStepper};
use crate::Control;
use crate::Result;
use std::sync::Arc;

pub(super) enum Stepper {
    Parity(ParityStepper),
    Residue(ResidueStepper),
    Exact(ExactStepper),
}

impl Stepper {
    /// The next frame's number; `None` at the end, or once `control` is cancelled
    /// (the caller then checks `control` to tell the two apart).
    pub(super) fn advance(&mut self, control: &Control) -> Option<usize> {
        let stepped = match self {
            Stepper::Parity(s) => s.step(control),
            Stepper::Residue(s) => s.step(control),
            Stepper::Exact(s) => s.step(control),
        };
        stepped.ok().flatten()
    }

    fn frame(&self, n: usize) -> Frame {
        match self {
            Stepper::Parity(s) => Frame::Parity(n, s.to_grid()),
            Stepper::Residue(s) => Frame::Residue(n, s.to_grid()),
            Stepper::Exact(s) => Frame::Exact(n, s.to_grid()),
        }
    }
}

impl AutomatonPlan {
    /// The stepper for the values asked for, able to reach the last frame
    /// (refused with an estimate above the memory limit).
    pub(super) fn stepper(&self) -> Result<Stepper> {
        let last = self.last();
        Ok(match self.values {
            Values::Modulus(2) => Stepper::Parity(ParityStepper::new(last, self.memory_limit)?),
            Values::Modulus(p) => {
                Stepper::Residue(ResidueStepper::new(u64::from(p), last, self.memory_limit)?)
            }
            Values::Exact => Stepper::Exact(ExactStepper::new(last, self.memory_limit)?),
        })
    }

    /// The listed frames, computed in increasing order and yielded as they come.
    /// The iterator ends early once `control` is cancelled: whoever consumes it
    /// checks `control` after it.
    pub fn computed_frames(
        &self,
        control: &Control,
    ) -> Result<Box<dyn Iterator<Item = Frame> + '_>> {
        crate::library::figure::plan::computing_model();
        let control = control.clone();
        if self.values == Values::Modulus(2) {
            // Frame n mod 2 is exactly P(n,n) (Okubo–Kashiwagi–Niida, Theorem 5.4,
            // re-proved for every frame by `--check` and the tests): drawn from the
            // P-criterion, a frame costs one board, not n steps of the automaton.
            return Ok(Box::new(self.frames.clone().into_iter().map_while(
                move |n| {
                    let grid = crate::pattern::p_grid(n, n, &control);
                    grid.ok().map(|grid| Frame::Parity(n, grid))
                },
            )));
        }
        let mut stepper = self.stepper()?;
        let mut wanted = self.frames.clone().into_iter();
        Ok(Box::new(std::iter::from_fn(move || {
            let target = wanted.next()?;
            loop {
                let n = stepper.advance(&control)?;
                if n == target {
                    return Some(stepper.frame(n));
                }
            }
        })))
    }

    /// The frames by stepping the automaton itself, whatever the values: the
    /// independent method the closed form of [`Self::computed_frames`] is tested against.
    pub fn stepped_frames(&self, control: &Control) -> Result<Vec<Frame>> {
        let mut stepper = self.stepper()?;
        let mut frames = Vec::new();
        for target in self.frames.clone() {
            while let Some(n) = stepper.advance(control) {
                if n == target {
                    frames.push(stepper.frame(n));
                    break;
                }
            }
        }
        control.check()?;
        Ok(frames)
    }

    /// The listed frames, all at once, computed once per plan: a picture of the
    /// frames holds them all anyway, and its data formats then reuse them.
    pub(super) fn frame_list(&self, control: &Control) -> Result<Arc<Vec<Frame>>> {
        self.cache().frames.get_or_compute(|| {
            let frames: Vec<Frame> = self.computed_frames(control)?.collect();
            control.check()?;
            Ok(frames)
        })
    }

    /// The frames for the data formats: those a picture already computed, or
    /// streamed one by one (a 4096-frame CSV never holds them all).
    pub(super) fn data_frames(
        &self,
        control: &Control,
    ) -> Result<Box<dyn Iterator<Item = Frame> + '_>> {
        match self.cache().frames.get() {
            Some(frames) => Ok(Box::new((0..frames.len()).map(move |k| frames[k].clone()))),
            None => self.computed_frames(control),
        }
    }

    pub(super) fn stepper_bytes(&self) -> u64 {
        match self.values {
            Values::Modulus(2) => ParityStepper::memory_estimate(self.last()),
            Values::Modulus(_) => ResidueStepper::memory_estimate(self.last()),
            Values::Exact => ExactStepper::memory_estimate(self.last()),
        }
    }
}
