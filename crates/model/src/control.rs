//! Stopping and watching long computations from inside: a [`Control`] is
//! handed to every long-running entry point of the model.
//!
//! The work checks [`Control::check`] at a bounded interval (a row, a band, a
//! level, a frame: never per cell, so checking costs nothing measurable) and
//! returns [`Error::Cancelled`] once someone called [`Control::cancel`]. It
//! announces how much work there is with [`Control::add_total`] and reports
//! what is done with [`Control::advance`], so a front end can show
//! [`Control::progress`] as a percentage. The units are the work's own (levels,
//! rows, frames, positions); only the ratio is meaningful.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use crate::{Error, Result};

/// Cancellation and progress of one piece of work, shared by all the threads doing it.
/// Cheap to clone (an Arc): every clone sees the same state.
#[derive(Debug, Clone, Default)]
pub struct Control {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    cancelled: AtomicBool,
    done: AtomicU64,
    total: AtomicU64,
}

impl Control {
    /// A control that is not cancelled and has no work announced.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the work to stop; callable from any thread, any number of times.
    pub fn cancel(&self) {
        // Relaxed is enough: the flag carries no data, and the work reads it
        // again at its next check.
        self.inner.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`Control::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::Relaxed)
    }

    /// `Err(Error::Cancelled)` once cancelled, `Ok(())` before.
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }

    /// Announces `units` more work (any unit; the totals of several steps add up).
    pub fn add_total(&self, units: u64) {
        self.inner.total.fetch_add(units, Ordering::Relaxed);
    }

    /// Reports `units` of work done.
    pub fn advance(&self, units: u64) {
        self.inner.done.fetch_add(units, Ordering::Relaxed);
    }

    /// `(done, total)` so far.
    pub fn progress(&self) -> (u64, u64) {
        (
            self.inner.done.load(Ordering::Relaxed),
            self.inner.total.load(Ordering::Relaxed),
        )
    }
}

/// A sequential loop's view of a [`Control`]: units done and work spent are added up
/// locally and, every `every` units of work, the control is checked and told the
/// units, so a loop of tiny steps touches the shared state once per batch, not once
/// per step, and a loop of uneven steps (a tuple with ten options, one with ten
/// thousand) still checks after a bounded amount of work.
pub(crate) struct Ticker<'a> {
    control: &'a Control,
    every: u64,
    units: u64,
    work: u64,
}

impl<'a> Ticker<'a> {
    /// A ticker that checks and reports every `every` units of work.
    pub(crate) fn new(control: &'a Control, every: u64) -> Self {
        Ticker {
            control,
            every: every.max(1),
            units: 0,
            work: 0,
        }
    }

    /// Counts `units` done at a cost of `units` work.
    #[inline]
    pub(crate) fn tick(&mut self, units: u64) -> Result<()> {
        self.tick_weighted(units, units)
    }

    /// Counts `units` done at a cost of `work`; `Err(Cancelled)` at a batch boundary
    /// once cancelled.
    #[inline]
    pub(crate) fn tick_weighted(&mut self, units: u64, work: u64) -> Result<()> {
        self.units += units;
        self.work += work;
        if self.work >= self.every {
            self.flush()?;
        }
        Ok(())
    }

    /// Checks and reports what is pending (call at the end of the loop).
    pub(crate) fn flush(&mut self) -> Result<()> {
        self.control.check()?;
        self.control.advance(std::mem::take(&mut self.units));
        self.work = 0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_shares_cancellation_and_progress() {
        let control = Control::new();
        let other = control.clone();
        assert!(control.check().is_ok() && !other.is_cancelled());
        other.add_total(10);
        control.advance(4);
        assert_eq!(other.progress(), (4, 10));
        other.cancel();
        assert!(control.is_cancelled());
        assert!(matches!(control.check(), Err(Error::Cancelled)));
        // Cancelling twice is harmless and stays cancelled.
        control.cancel();
        assert!(other.check().is_err());
    }

    #[test]
    fn progress_sums_over_steps_and_threads() {
        let control = Control::new();
        control.add_total(100);
        control.add_total(28);
        std::thread::scope(|s| {
            for _ in 0..4 {
                let c = control.clone();
                s.spawn(move || (0..32).for_each(|_| c.advance(1)));
            }
        });
        assert_eq!(control.progress(), (128, 128));
    }

    #[test]
    fn a_ticker_reports_in_batches_and_stops_when_cancelled() {
        let control = Control::new();
        let mut ticker = Ticker::new(&control, 10);
        for _ in 0..25 {
            ticker.tick(1).unwrap();
        }
        assert_eq!(control.progress(), (20, 0));
        ticker.flush().unwrap();
        assert_eq!(control.progress(), (25, 0));
        // One unit of much work is reported at once.
        ticker.tick_weighted(1, 1000).unwrap();
        assert_eq!(control.progress(), (26, 0));
        control.cancel();
        let stopped = (0..10).try_for_each(|_| ticker.tick(1));
        assert!(matches!(stopped, Err(Error::Cancelled)));
    }

    #[test]
    fn cancel_from_another_thread_is_seen() {
        let control = Control::new();
        let other = control.clone();
        std::thread::spawn(move || other.cancel()).join().unwrap();
        assert_eq!(control.check().unwrap_err().to_string(), "interrupted");
    }
}
