//! The papers' games and their Grundy solvers.
//!
//! Every game here is impartial and every move lowers coordinates, so the
//! Grundy value of a position is the mex of its options' values and a box
//! `0..=N` per coordinate is solved bottom-up. Three solvers:
//! * [`MemoSolver`]: memoised recursion, the papers' method, kept as the
//!   naive oracle that every faster path is tested against;
//! * [`solve_dense`]: any [`Game`] on a whole box, in lexicographic order;
//! * [`CappedGame::solve`]: the capped three-heap family `y <= cap(x, z)`
//!   (triangular, min-half, user caps), with running bitsets along lines; monotone
//!   caps take a tiled solver (`monotone.rs`): the 335 million positions of the
//!   triangular box of side 1000 in about 7 CPU-seconds, under 3 bytes each.
//!
//! [`GameSpec`] names each game the way the command line does
//! (`triangular --k 3`, `band-7-2 --k 1 --h 3`, ...), and
//! [`GameSpec::solve`] gives a [`Solution`] whatever the game.

pub mod analysis;
pub mod band;
pub mod bounds;
pub mod cap_expr;
#[cfg(test)]
mod cap_fuzz;
pub mod capped;
pub mod chocolate;
mod columns;
pub mod file;
mod monotone;

pub mod nim;
pub mod nim_pass;
pub mod six_sided;
pub mod solver;

pub use analysis::{
    check_shifts, compare_nim_sum, find_shift, sierpinski_projection, NimSumComparison, ShiftCheck,
};
pub use band::Band;
pub use bounds::GameBox;
pub use cap_expr::CapExpr;
pub use capped::{solve_capped_fn, Cap, CappedGame, CappedGrundy, Play};
pub use file::{GameFile, SolverChoice};
pub use nim::Nim;
pub use nim_pass::{nim_p_points, nim_pass_p_points, square_board, NimPass, NimPassTree};
pub use six_sided::SixSided;
pub use solver::{solve_dense, DenseGrundy, Game, MemoSolver};

use crate::{Control, Error, Result};

/// The game names the command line accepts, in the order help lists them.
pub const GAME_NAMES: [&str; 8] = [
    "triangular",
    "min-half",
    "cap",
    "six-sided",
    "band-7-1",
    "band-7-2",
    "nim-pass",
    "nim",
];

/// The parameters a game may take; which ones apply depends on the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameParams {
    /// `--k`: the divisor of `triangular` (required) and the slope of `band-7-2` (default 1).
    pub k: Option<u32>,
    /// `--h`: the width of `band-7-2`'s band (default 3).
    pub h: Option<u32>,
    /// `--heaps`: the number of heaps of `nim-pass` and `nim` (default 3).
    pub heaps: Option<usize>,
    /// `--cap`: the cap expression of `cap` (required), e.g. `floor((x+z)**2/5)`.
    pub cap: Option<String>,
}

/// A game chosen by name with its parameters, validated.
#[derive(Clone, Debug)]
pub enum GameSpec {
    /// A capped three-heap game: `triangular`, `min-half` or `cap`.
    Capped(CappedGame),
    /// The six-sided bar of seed 001.
    SixSided,
    /// A band game of seed 002.
    Band(Band),
    /// Nim with a pass, P-positions with the pass still available.
    NimPass(NimPass),
    /// Plain Nim, the reference.
    Nim(Nim),
    /// A game read from a game file ([`GameFile::parse`]), parameters set.
    File(std::sync::Arc<GameFile>),
}

/// Grundy values of a game on a box, whichever solver produced them.
#[derive(Clone, Debug)]
pub enum Solution {
    /// From the capped three-heap solver.
    Capped(CappedGrundy),
    /// From the dense solver (six-sided, band games, nim-pass).
    Dense(DenseGrundy),
}

impl GameSpec {
    /// The game called `name` with `params`; an unknown name, a missing or
    /// invalid parameter, or one that does not apply is an error naming it.
    pub fn from_name(name: &str, params: &GameParams) -> Result<GameSpec> {
        let allowed: &[&str] = match name {
            "triangular" => &["k"],
            "band-7-2" => &["k", "h"],
            "cap" => &["cap"],
            "nim-pass" | "nim" => &["heaps"],
            _ => &[],
        };
        let given = [
            ("k", params.k.is_some()),
            ("h", params.h.is_some()),
            ("heaps", params.heaps.is_some()),
            ("cap", params.cap.is_some()),
        ];
        if GAME_NAMES.contains(&name) {
            for (flag, set) in given {
                if set && !allowed.contains(&flag) {
                    return Err(Error::invalid_parameter(
                        flag,
                        format!("`{flag}` does not apply to the game '{name}'"),
                    ));
                }
            }
        }
        Ok(match name {
            "triangular" => {
                let k = params.k.ok_or_else(|| {
                    Error::invalid_parameter(
                        "k",
                        "triangular needs `k` K (the cap is floor((x+z)/K), K >= 1)",
                    )
                })?;
                GameSpec::Capped(CappedGame::triangular(k)?)
            }
            "min-half" => GameSpec::Capped(CappedGame::min_half()),
            "cap" => {
                let src = params.cap.as_deref().ok_or_else(|| {
                    Error::invalid_parameter(
                        "cap",
                        "cap needs `cap` EXPR, e.g. `cap` \"floor((x+z)**2/5)\"",
                    )
                })?;
                GameSpec::Capped(CappedGame::with_expr(src)?)
            }
            "six-sided" => GameSpec::SixSided,
            "band-7-1" => GameSpec::Band(Band::Example71),
            "band-7-2" => GameSpec::Band(Band::example72(
                params.k.unwrap_or(1),
                params.h.unwrap_or(3),
            )?),
            "nim-pass" => GameSpec::NimPass(NimPass::new(params.heaps.unwrap_or(3))?),
            "nim" => GameSpec::Nim(Nim::new(params.heaps.unwrap_or(3))?),
            other => {
                return Err(Error::invalid_request(format!(
                    "unknown game '{other}'; expected one of {}",
                    GAME_NAMES.join(", ")
                )))
            }
        })
    }

    /// The game of a game file: `text` is the file's contents, `file` names it in
    /// messages, `params` override the parameters it declares (`k = 5`). See
    /// [`GameFile::parse`]; the file is read by the caller (the model does no I/O).
    pub fn from_game_file(file: &str, text: &str, params: &[(String, i64)]) -> Result<GameSpec> {
        Ok(GameSpec::File(std::sync::Arc::new(GameFile::parse(
            file, text, params,
        )?)))
    }

    /// The game played with `play`: a pass (once per game, not from a position with
    /// no move) and misère play, as game files play them (`docs/games.md`). The
    /// capped games (triangular, min-half, cap) take them on their fast solvers; a
    /// game file says `pass = true` or `misere = true` itself; the other built-in
    /// games are refused with what to use instead.
    pub fn with_play(self, play: Play) -> Result<GameSpec> {
        if play == Play::default() {
            return Ok(self);
        }
        let asked = match (play.pass, play.misere) {
            (true, true) => "`pass` and `misere`",
            (true, false) => "`pass`",
            _ => "`misere`",
        };
        match self {
            GameSpec::Capped(g) => Ok(GameSpec::Capped(g.with_play(play))),
            GameSpec::File(_) => Err(Error::invalid_marked(asked, format!(
                "{asked}: a game file says how it is played itself; write pass = true or misere = true in the file"
            ))),
            other => Err(Error::invalid_marked(asked, format!(
                "{asked}: a pass and misère play exist for the capped games (triangular, min-half, cap) and game files, not for {}; for another game, write it as a game file with pass = true or misere = true (docs/games.md)",
                other.name()
            ))),
        }
    }

    /// Which solver [`GameSpec::solve`] runs on the box `b`, and why (for a game
    /// file: what it was recognised as, or why no faster solver applies).
    pub fn solver_choice(&self, b: &GameBox, control: &Control) -> Result<SolverChoice> {
        let bounds = self.resolve_box(b)?;
        let built_in = |solver: &str, why: &str| SolverChoice {
            solver: solver.into(),
            why: why.into(),
        };
        Ok(match self {
            GameSpec::File(g) => g.solver_choice(&bounds, control)?,
            GameSpec::Capped(g) => {
                let tiled = g.is_tiled([bounds[0], bounds[1], bounds[2]], control)?;
                if tiled {
                    built_in("capped (tiled)", "the cap never decreases in the box")
                } else {
                    built_in(
                        "capped (general)",
                        "the cap decreases somewhere in the box, so not the tiled solver",
                    )
                }
            }
            GameSpec::Nim(_) => built_in("nim-sum", "the built-in Nim"),
            GameSpec::NimPass(_) => built_in("nim with a pass", "the built-in Nim with a pass"),
            GameSpec::Band(b) if b.is_closed() => built_in(
                "band",
                "the built-in band game: every option of a band position is in the band, so the band alone is solved",
            ),
            GameSpec::Band(_) => built_in(
                "dense",
                "the built-in band game with h < k - 1: moves leave the band, so every tuple they reach is solved",
            ),
            GameSpec::SixSided => built_in(
                "dense",
                "the built-in game's moves, every tuple of the box in order",
            ),
        })
    }

    /// A short name with parameters, e.g. `triangular k=3`.
    pub fn name(&self) -> String {
        match self {
            GameSpec::Capped(g) => g.name(),
            GameSpec::SixSided => SixSided.name(),
            GameSpec::Band(b) => b.name(),
            GameSpec::NimPass(n) => format!("nim-pass heaps={}", n.heaps()),
            GameSpec::Nim(n) => n.name(),
            GameSpec::File(g) => g.name(),
        }
    }

    /// The coordinate names, e.g. `["x", "y", "z"]` (CSV headers use them).
    pub fn coordinate_names(&self) -> Vec<String> {
        match self {
            GameSpec::Capped(g) => g.coordinate_names(),
            GameSpec::SixSided => SixSided.coordinate_names(),
            GameSpec::Band(b) => b.coordinate_names(),
            GameSpec::NimPass(n) => nim::heap_names(n.heaps()),
            GameSpec::Nim(n) => n.coordinate_names(),
            GameSpec::File(g) => g.heap_names().to_vec(),
        }
    }

    /// The per-coordinate bounds for a box. A single `N` means every
    /// coordinate in `0..=N`, except that a band game widens `y` to the band
    /// (the seed's tables: `N = 22` shows `y` up to 23 for Example 7.1).
    pub fn resolve_box(&self, b: &GameBox) -> Result<Vec<u32>> {
        let names = self.coordinate_names();
        let dims = names.len();
        match self {
            GameSpec::Band(band) => b.resolve(&names, |n| vec![n, band.y_max(n)]),
            _ => b.resolve(&names, |n| vec![n; dims]),
        }
    }

    /// Whether a tuple is a position of the game (a table greys the others).
    pub fn is_position(&self, p: &[u32]) -> bool {
        if p.len() != self.coordinate_names().len() {
            return false;
        }
        match self {
            GameSpec::Capped(g) => g.is_position(p),
            GameSpec::SixSided => SixSided.is_position(p),
            GameSpec::Band(b) => b.is_position(p),
            GameSpec::NimPass(_) | GameSpec::Nim(_) => true,
            GameSpec::File(g) => g.is_position(p),
        }
    }

    /// An upper bound of [`Solution::data_shape`] in O(1), before solving (for the
    /// disk guard): the triangular bar's and min-half's tallest column in closed
    /// form, the box for the other games.
    pub fn data_shape_bound(&self, b: &GameBox) -> Result<Vec<u64>> {
        let mut bounds = self.resolve_box(b)?;
        if let GameSpec::Capped(g) = self {
            let (x, z) = (u64::from(bounds[0]), u64::from(bounds[2]));
            let tallest = match g.cap() {
                Cap::Triangular { k } => Some((x + z) / u64::from(*k)),
                Cap::MinHalf => Some(x.min(z) / 2),
                Cap::Expr(_) => None,
            };
            if let Some(tallest) = tallest {
                bounds[1] = bounds[1].min(u32::try_from(tallest).unwrap_or(u32::MAX));
            }
        }
        Ok(bounds.iter().map(|&b| u64::from(b) + 1).collect())
    }

    /// [`GameSpec::solve`], streaming the whole box as `.npy` data on the way:
    /// `shape` hears [`Solution::data_shape`] before any value, `write` the bytes of
    /// [`Solution::for_each_le_slab`]. The tiled solver of capped games writes the
    /// first slabs while it still solves the last ones; other games are solved first.
    ///
    /// Under `control`, as [`GameSpec::solve`];
    /// also checked per slab written.
    pub fn solve_streamed(
        &self,
        b: &GameBox,
        limit: u64,
        shape: impl FnOnce(&[u64]) -> Result<()>,
        write: &mut dyn FnMut(&[u8]) -> Result<()>,
        control: &Control,
    ) -> Result<Solution> {
        let bounds = self.resolve_box(b)?;
        let refused = |err| self.with_box_that_fits(err, b, control);
        match self {
            // No value can be OUTSIDE here, so nothing needs checking before it is written.
            GameSpec::Capped(g) if !may_reach_outside(&bounds) => {
                let solution = g
                    .solve_streamed(
                        [bounds[0], bounds[1], bounds[2]],
                        limit,
                        OUTSIDE,
                        |s| shape(&s),
                        write,
                        control,
                    )
                    .map_err(refused)?;
                Ok(Solution::Capped(solution))
            }
            _ => {
                let solution = self.solve(b, limit, control)?;
                shape(&solution.data_shape())?;
                solution.for_each_le_slab(|slab| {
                    control.check()?;
                    write(slab)
                })?;
                Ok(solution)
            }
        }
    }

    /// The bytes a solve of the box `bounds` asks its memory guard for (the
    /// solvers' own estimates: the cap table's footprint for capped games, a few
    /// bytes a tuple for the others), without solving.
    pub fn solve_bytes(&self, bounds: &[u32], control: &Control) -> Result<u64> {
        let tuples = bounds
            .iter()
            .fold(1u64, |n, &b| n.saturating_mul(u64::from(b) + 1));
        Ok(match self {
            GameSpec::Capped(g) => match bounds {
                &[x, y, z] => g.solve_bytes([x, y, z], control)?,
                _ => u64::MAX,
            },
            GameSpec::File(g) if g.has_pass() => tuples.saturating_mul(5),
            _ => tuples.saturating_mul(3),
        })
    }

    /// A memory refusal of the uniform box `b` with the largest uniform box that
    /// fits named in its hint ("use `box` 1234 or less"), as the docs promise; any
    /// other error, or another box, as it is.
    fn with_box_that_fits(&self, err: Error, b: &GameBox, control: &Control) -> Error {
        let (
            Error::TooLarge {
                what,
                needed,
                limit,
                ..
            },
            GameBox::Uniform(n),
        ) = (&err, b)
        else {
            return err;
        };
        let fits = |k: u32| {
            let Ok(bounds) = self.resolve_box(&GameBox::Uniform(k)) else {
                return false;
            };
            // A capped game's estimate tabulates its cap over the columns: a box
            // whose columns alone pass the limit (14 bytes each at least, as the
            // solver's own first check) is out before any table is made.
            if let (GameSpec::Capped(_), &[x, _, z]) = (self, bounds.as_slice()) {
                let columns = (u64::from(x) + 1).saturating_mul(u64::from(z) + 1);
                if columns.saturating_mul(14) > *limit {
                    return false;
                }
            }
            self.solve_bytes(&bounds, control)
                .is_ok_and(|bytes| bytes <= *limit)
        };
        // The estimates grow with the box: the largest k below n that fits,
        // found by doubling from 1 and then halving, so the largest box whose
        // estimate is computed is at most twice the answer (a capped game's
        // estimate tabulates its cap: never a table near the refused box's).
        if !fits(0) {
            return err;
        }
        let (mut low, mut high) = (0u32, 1u32);
        while high < *n && fits(high) {
            low = high;
            high = high.saturating_mul(2).min(*n);
        }
        while high - low > 1 {
            let mid = low + (high - low) / 2;
            if fits(mid) {
                low = mid;
            } else {
                high = mid;
            }
        }
        Error::TooLarge {
            what: what.clone(),
            needed: *needed,
            limit: *limit,
            hint: format!("use `box` {low} or less"),
        }
    }

    /// Solves the game on a box; refused with an estimate over `limit` bytes.
    ///
    /// Under `control`. Progress is in the solver's units
    /// (positions for capped games, tuples for the others); `control` is checked
    /// after at most about a millisecond of work on one thread.
    pub fn solve(&self, b: &GameBox, limit: u64, control: &Control) -> Result<Solution> {
        self.solve_unhinted(b, limit, control)
            .map_err(|err| self.with_box_that_fits(err, b, control))
    }

    fn solve_unhinted(&self, b: &GameBox, limit: u64, control: &Control) -> Result<Solution> {
        let bounds = self.resolve_box(b)?;
        Ok(match self {
            GameSpec::Capped(g) => {
                Solution::Capped(g.solve([bounds[0], bounds[1], bounds[2]], limit, control)?)
            }
            GameSpec::SixSided => Solution::Dense(solve_dense(&SixSided, &bounds, limit, control)?),
            GameSpec::Band(band) => Solution::Dense(band.solve(&bounds, limit, control)?),
            GameSpec::NimPass(n) => Solution::Dense(n.solve(&bounds, limit, control)?),
            GameSpec::Nim(n) => Solution::Dense(n.solve(&bounds, limit, control)?),
            GameSpec::File(g) => Solution::Dense(g.solve(&bounds, limit, control)?),
        })
    }
}

/// The value dense arrays (`.npy`) hold for a tuple of the box that is not a position
/// of the game (above the cap, outside the band): 65535, which no stored value reaches
/// there (see [`Solution::for_each_slab`]).
pub const OUTSIDE: u16 = u16::MAX;

/// Whether a value in a box with these bounds could equal [`OUTSIDE`]: a value is at
/// most the number of options, at most the sum of the coordinates plus one (a pass).
fn may_reach_outside(bounds: &[u32]) -> bool {
    bounds.iter().map(|&b| u64::from(b)).sum::<u64>() + 1 >= u64::from(OUTSIDE)
}

impl Solution {
    /// Every tuple of the box in C order (last coordinate fastest), in slabs of one
    /// value of the first coordinate each: the Grundy value, or [`OUTSIDE`] where the
    /// tuple is not a position. Memory: one slab. Errors (before calling `f`) when a
    /// value equals [`OUTSIDE`] and would read as "not a position".
    pub fn for_each_slab<E: From<Error>>(
        &self,
        f: impl FnMut(&[u16]) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        self.check_outside()?;
        match self {
            Solution::Capped(g) => g.for_each_slab(OUTSIDE, f),
            Solution::Dense(g) => g.for_each_slab(OUTSIDE, f),
        }
    }

    /// [`Solution::for_each_slab`] into one array: `out` must hold
    /// `data_shape().product()` values, and gets them in C order, [`OUTSIDE`] where a
    /// tuple is not a position. A capped game's slabs are filled in parallel.
    pub fn fill_dense(&self, out: &mut [u16], control: &Control) -> Result<()> {
        let wanted: u64 = self.data_shape().iter().product();
        if out.len() as u64 != wanted {
            return Err(Error::invalid_request(format!(
                "the box has {wanted} values, the array {}",
                out.len()
            )));
        }
        self.check_outside()?;
        match self {
            Solution::Capped(g) => g.fill_dense(OUTSIDE, out, control),
            Solution::Dense(g) => {
                let mut at = 0;
                g.for_each_slab(OUTSIDE, |slab| -> Result<()> {
                    control.check()?;
                    out[at..at + slab.len()].copy_from_slice(slab);
                    at += slab.len();
                    Ok(())
                })
            }
        }
    }

    /// Errors when a value equals [`OUTSIDE`] and would read as "not a position".
    fn check_outside(&self) -> Result<()> {
        // Only large boxes need the scan.
        if may_reach_outside(&self.bounds()) {
            let max = match self {
                Solution::Capped(g) => g.max_value(),
                Solution::Dense(g) => g.max_value(),
            };
            if max == OUTSIDE {
                return Err(Error::unsupported(format!(
                    "a Grundy value of this box is {OUTSIDE}, the value .npy arrays keep for \"not a position\"; use .csv, or a smaller `box`"
                )));
            }
        }
        Ok(())
    }

    /// [`Solution::for_each_slab`] as little-endian bytes (the `.npy` `<u2` data),
    /// the same bytes whatever the thread count. Capped games build the next slabs on
    /// other threads while `f` writes the previous ones, a few slabs at a time.
    pub fn for_each_le_slab<E: From<Error>>(
        &self,
        mut f: impl FnMut(&[u8]) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        match self {
            Solution::Capped(g) => {
                self.check_outside()?;
                g.for_each_le_slab(OUTSIDE, f)
            }
            Solution::Dense(_) => {
                let mut bytes = Vec::new();
                self.for_each_slab(|slab| {
                    bytes.clear();
                    bytes.extend(slab.iter().flat_map(|v| v.to_le_bytes()));
                    f(&bytes)
                })
            }
        }
    }

    /// The shape of the dense array ([`Solution::for_each_slab`]): one axis per
    /// coordinate, `bound + 1` long, except that a capped game's `y` axis stops at its
    /// tallest column ([`CappedGrundy::y_reach`]): every row above would be
    /// [`OUTSIDE`].
    pub fn data_shape(&self) -> Vec<u64> {
        match self {
            Solution::Capped(g) => {
                let [bx, _, bz] = g.bounds();
                [bx, g.y_reach(), bz]
                    .iter()
                    .map(|&b| u64::from(b) + 1)
                    .collect()
            }
            Solution::Dense(g) => g.bounds().iter().map(|&b| u64::from(b) + 1).collect(),
        }
    }

    /// The box, one bound per coordinate.
    pub fn bounds(&self) -> Vec<u32> {
        match self {
            Solution::Capped(g) => g.bounds().to_vec(),
            Solution::Dense(g) => g.bounds().to_vec(),
        }
    }

    /// The value of a position, `None` outside the box or the game.
    pub fn get(&self, p: &[u32]) -> Option<u16> {
        match self {
            Solution::Capped(g) if p.len() == 3 => g.get(p[0], p[1], p[2]),
            Solution::Capped(_) => None,
            Solution::Dense(g) => g.get(p),
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        match self {
            Solution::Capped(g) => g.len(),
            Solution::Dense(g) => g.len(),
        }
    }

    /// True when there is no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every position and its value, lexicographic (last coordinate fastest).
    pub fn positions(&self) -> Box<dyn Iterator<Item = (Vec<u32>, u16)> + '_> {
        match self {
            Solution::Capped(g) => Box::new(g.positions().map(|(p, v)| (p.to_vec(), v))),
            Solution::Dense(g) => Box::new(g.positions()),
        }
    }

    /// [`Solution::positions`] that `keep` accepts (given the tuple and its value);
    /// the others are never built, which matters for a box of a million positions
    /// of which a plot keeps the few thousand P-positions.
    pub fn positions_where<'a>(
        &'a self,
        keep: impl Fn(&[u32], u16) -> bool + 'a,
    ) -> Box<dyn Iterator<Item = (Vec<u32>, u16)> + 'a> {
        match self {
            Solution::Capped(g) => Box::new(
                g.positions()
                    .filter(move |(p, v)| keep(p, *v))
                    .map(|(p, v)| (p.to_vec(), v)),
            ),
            Solution::Dense(g) => Box::new(g.positions_where(keep)),
        }
    }

    /// Every position and its value, lexicographic, lent to `f` (no
    /// allocation per position, unlike [`Solution::positions`]); stops at
    /// `f`'s first error.
    pub fn try_for_each_position<E>(
        &self,
        mut f: impl FnMut(&[u32], u16) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        match self {
            Solution::Capped(g) => g.positions().try_for_each(|(p, v)| f(&p, v)),
            Solution::Dense(g) => g.try_for_each_position(f),
        }
    }

    /// The P-positions, lexicographic.
    pub fn p_positions(&self) -> Vec<Vec<u32>> {
        self.positions()
            .filter(|(_, v)| *v == 0)
            .map(|(p, _)| p)
            .collect()
    }

    /// How many positions have a Grundy value equal to the nim-sum of their
    /// coordinates (seed 000 §8.2), for any game; a capped box under `control` as
    /// [`compare_nim_sum`], a dense one (already in memory, one pass) checked once.
    pub fn compare_nim_sum(&self, control: &Control) -> Result<NimSumComparison> {
        match self {
            Solution::Capped(g) => compare_nim_sum(g, control),
            Solution::Dense(g) => {
                control.check()?;
                let (mut positions, mut equal) = (0u64, 0u64);
                for (p, v) in g.positions() {
                    positions += 1;
                    equal += u64::from(p.iter().fold(0, |a, &c| a ^ c) == u32::from(v));
                }
                Ok(NimSumComparison {
                    positions,
                    equal,
                    different: positions - equal,
                })
            }
        }
    }

    /// The capped solution, for the analyses that only apply to it.
    pub fn as_capped(&self) -> Option<&CappedGrundy> {
        match self {
            Solution::Capped(g) => Some(g),
            Solution::Dense(_) => None,
        }
    }
}

#[cfg(test)]
mod play_tests;
#[cfg(test)]
mod tests;
