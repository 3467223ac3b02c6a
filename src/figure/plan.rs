//! Validated plans: a figure family's parameters checked once, read-only after
//! that, with the expensive part of the figure computed once for all its formats.
//!
//! A spec (`SquareFigure`, `AutomatonFigure`, ...) is what a front end fills in:
//! public fields, no guarantees. [`Plan::new`] validates it and is the only way to
//! a value that implements [`super::Figure`], so nothing downstream checks again.
//! A plan reads through to its spec (`Deref`, never `DerefMut`), and keeps the
//! family's caches (`M`): a [`Computed`] value per model or scene that several
//! formats share, so PNG, SVG and PDF of one plan draw one scene.

use crate::Result;
use std::ops::Deref;
use std::sync::{Arc, Mutex};

/// A figure family's parameters, as a front end fills them in.
pub trait Spec {
    /// Checks every parameter and combination, before anything is computed.
    fn validate(&self) -> Result<()>;
}

/// A spec validated once, with the family's caches.
pub struct Plan<S, M = ()> {
    spec: S,
    cache: M,
}

impl<S: Spec, M: Default> Plan<S, M> {
    /// Validates `spec`: the one place a figure's parameters are checked.
    pub fn new(spec: S) -> Result<Self> {
        #[cfg(test)]
        counts::VALIDATIONS.with(|c| c.set(c.get() + 1));
        spec.validate()?;
        Ok(Plan {
            spec,
            cache: M::default(),
        })
    }
}

impl<S, M> Plan<S, M> {
    /// The validated parameters.
    pub fn spec(&self) -> &S {
        &self.spec
    }

    /// The family's caches.
    pub(crate) fn cache(&self) -> &M {
        &self.cache
    }
}

impl<S, M> Deref for Plan<S, M> {
    type Target = S;

    fn deref(&self) -> &S {
        &self.spec
    }
}

/// A value computed on first use and shared after that, by every format and
/// thread. Computing holds a lock, so two formats drawn side by side wait for
/// one computation instead of making two; a failed computation (refused,
/// cancelled) is not kept, and the next use tries again.
pub struct Computed<T>(Mutex<Option<Arc<T>>>);

impl<T> Default for Computed<T> {
    fn default() -> Self {
        Computed(Mutex::new(None))
    }
}

impl<T> Computed<T> {
    /// The value, computed by `compute` if this is the first use.
    pub fn get_or_compute(&self, compute: impl FnOnce() -> Result<T>) -> Result<Arc<T>> {
        let mut slot = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(value) = slot.as_ref() {
            return Ok(value.clone());
        }
        let value = Arc::new(compute()?);
        *slot = Some(value.clone());
        Ok(value)
    }

    /// The value, if it has been computed.
    pub fn get(&self) -> Option<Arc<T>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Marks one computation of a figure's model (its P-sets, frames, solution,
/// section or solids): the tests count them to hold "once per plan" to account.
#[inline]
pub(crate) fn computing_model() {
    #[cfg(test)]
    counts::COMPUTATIONS.with(|c| c.set(c.get() + 1));
}

/// How often this thread validated a spec and computed a figure's model: the
/// tests' view of "once".
#[cfg(test)]
pub(crate) mod counts {
    use std::cell::Cell;

    thread_local! {
        pub(crate) static VALIDATIONS: Cell<usize> = const { Cell::new(0) };
        pub(crate) static COMPUTATIONS: Cell<usize> = const { Cell::new(0) };
    }

    /// Resets both counts; returns (validations, computations) `f` made.
    pub(crate) fn during(f: impl FnOnce()) -> (usize, usize) {
        VALIDATIONS.with(|c| c.set(0));
        COMPUTATIONS.with(|c| c.set(0));
        f();
        (VALIDATIONS.with(Cell::get), COMPUTATIONS.with(Cell::get))
    }
}
