//! Known games inside game files, solved by their own fast solvers.
//!
//! A game file is compiled into expressions; some files are, move for move, a game
//! that nimscape has a faster solver for. This module proves that from the compiled
//! code (never from the text, never by sampling values) and hands the file to that
//! solver:
//!
//! * **capped**: three heaps, one position condition `y <= cap(x, z)` (any heap
//!   names and order; `cap` any expression of the other two heaps), and exactly the
//!   three move families of the capped games: lower `y`; lower `x` to `t` with `y`
//!   set to `min(y, cap(t, z))`; lower `z` likewise. The capped solver then evaluates
//!   the file's own compiled `cap`, so the two solvers play the same game: at a
//!   position `y <= cap(x, z)` every such option is a position, lies in the box and
//!   is lexicographically smaller, so the generic solver refuses none of them. The
//!   file's pass and misère play carry over ([`Play`]). Only a cap that faults or is
//!   negative somewhere in the box sends the file back to the generic solver, which
//!   then reports or handles it exactly as before.
//! * **band**: Examples 7.1 and 7.2 of the Miyadera web book, the two-heap band
//!   games that nimscape has built in ([`Band`]). The file must be the built-in
//!   game's definition tree for tree: its one position condition and its two moves
//!   are compared, functions written out and parameters put in, with the definition
//!   below written in the same language ([`BAND_7_1`], [`BAND_7_2`]); a file that
//!   says the same thing otherwise is left to the generic solver. From a position
//!   in the band every option of these games is again in the band, lower and in
//!   the box (Example 7.2 only when `h >= k - 1`: otherwise a move of `x` can leave
//!   the band, which the generic solver refuses as the file says), so the built-in
//!   solver, which would solve options outside the band too, meets none and plays
//!   the file's game. Neither a pass nor misère play: those stay generic.
//! * **Nim**: every tuple a position, one plain `lower` per heap and nothing else:
//!   the value is the nim-sum (with a pass: the solver of Nim with a pass).
//!
//! Everything else, and whatever the fast solvers cannot take, runs on the generic
//! solver (`solve.rs`), which stays the reference the fast paths are tested against.
//! [`GameFile::solver_choice`] says which solver runs and why the others do not.

use super::expr::Expr;
use super::{Family, GameFile, Move};
use crate::games::capped::{solve_capped_fn, CappedGrundy, Play};
use crate::games::solver::{box_tuples, DenseGrundy, Game};
use crate::games::Band;
use crate::games::NimPass;
use crate::{Control, Error, Result};
use rayon::prelude::*;

/// A game a file was recognised as.
#[derive(Clone, Debug)]
enum Known {
    /// `heaps[y] <= cap(heaps[x], heaps[z])` with the capped games' moves; `x` comes
    /// before `z` in the file's heaps.
    Capped {
        x: usize,
        y: usize,
        z: usize,
        cap: Expr,
    },
    /// Nim on the file's heaps, with a pass when the file has one.
    Nim,
    /// A built-in band game, definition for definition.
    Band(Band),
}

/// What a variable of a move's expression stands for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Means {
    /// The position's heap.
    Heap(usize),
    /// The move's `t`.
    T,
}

/// One move family as a tuple of what each heap becomes, with the meaning of the
/// variables its expressions read.
enum Shape<'a> {
    /// The position with the lowered heap set to `t`.
    Plain,
    /// Each heap's new value; variable `j` means `means(j)`.
    Tuple(&'a [Expr], Box<dyn Fn(usize) -> Means + 'a>),
}

fn shape(m: &Move, heaps: usize) -> std::result::Result<(usize, Shape<'_>), String> {
    let Family::Lower { heap, to } = &m.family else {
        return Err(format!("{} takes from several heaps at once", m.label));
    };
    let heap = *heap;
    Ok(match (to, &m.then) {
        (None, None) => (heap, Shape::Plain),
        (Some(to), None) => (
            heap,
            Shape::Tuple(
                to,
                Box::new(move |j| if j == heaps { Means::T } else { Means::Heap(j) }),
            ),
        ),
        // `then` reads the lowered position: its lowered heap is `t`.
        (None, Some(then)) => (
            heap,
            Shape::Tuple(
                then,
                Box::new(move |j| {
                    if j == heaps || j == heap {
                        Means::T
                    } else {
                        Means::Heap(j)
                    }
                }),
            ),
        ),
        (Some(_), Some(_)) => return Err(format!("{} has both 'to' and 'then'", m.label)),
    })
}

impl Shape<'_> {
    /// Whether heap `i` of the option is exactly `want` (a variable).
    fn entry_is(&self, lowered: usize, i: usize, want: Means) -> bool {
        match self {
            Shape::Plain => {
                want == if i == lowered {
                    Means::T
                } else {
                    Means::Heap(i)
                }
            }
            Shape::Tuple(entries, means) => entries[i].as_var().is_some_and(|j| means(j) == want),
        }
    }
}

/// The capped game in the file, or why it is not one.
fn capped(file: &GameFile) -> std::result::Result<Known, String> {
    let n = file.heaps.len();
    if n != 3 {
        return Err(format!("it has {n} heaps, not 3"));
    }
    let [(source, condition)] = file.positions.as_slice() else {
        return Err(format!(
            "it has {} position conditions, not one y <= cap(x, z)",
            file.positions.len()
        ));
    };
    let not_a_cap = || format!("its position condition '{source}' is not heap <= cap(other heaps)");
    let (left, op, right) = condition.single().ok_or_else(not_a_cap)?;
    let (y, cap) = match (op, left.as_var(), right.as_var()) {
        ("<=", Some(y), _) => (y, right),
        (">=", _, Some(y)) => (y, left),
        _ => return Err(not_a_cap()),
    };
    if cap.reads(y) {
        return Err(format!(
            "the cap in '{source}' reads {} itself",
            file.heaps[y]
        ));
    }
    let (x, z) = match y {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    };
    let name = |i: usize| file.heaps[i].as_str();
    let mut seen = [None::<&str>; 3];
    for m in &file.moves {
        let (lowered, shape) = shape(m, n)?;
        let others: Vec<usize> = (0..3).filter(|&i| i != lowered && i != y).collect();
        let clamp_ok = |e: &Expr| -> bool {
            // y becomes min(y, cap) with the cap's lowered heap read as `lowered_means`.
            let Shape::Tuple(_, means) = &shape else {
                return false;
            };
            e.min_with_var(y).is_some_and(|c| {
                // The cap read where the lowered heap is t: t stands for that heap.
                cap.same_as(&c, &|j| match means(j) {
                    Means::T => Some(lowered),
                    Means::Heap(h) if h != y && h != lowered => Some(h),
                    Means::Heap(_) => None,
                })
            })
        };
        if lowered == y {
            // Lower y to t: (x, t, z); a clamp min(t, cap(x, z)) changes nothing there,
            // since t < y <= cap(x, z).
            let keeps = others.iter().all(|&h| shape.entry_is(y, h, Means::Heap(h)));
            let sets_t = shape.entry_is(y, y, Means::T)
                || matches!(&shape, Shape::Tuple(e, means)
                if [y, n].into_iter().filter(|&v| means(v) == Means::T).any(|v| {
                    e[y].min_with_var(v).is_some_and(|c| cap.same_as(&c, &|j| match means(j) {
                        Means::Heap(h) if h != y => Some(h),
                        _ => None,
                    }))
                }));
            if !(keeps && sets_t) {
                return Err(format!(
                    "{} does not go to the position with {} set to t",
                    m.label,
                    name(y)
                ));
            }
        } else {
            let other = others[0];
            if !shape.entry_is(lowered, lowered, Means::T)
                || !shape.entry_is(lowered, other, Means::Heap(other))
            {
                return Err(format!(
                    "{} changes a heap other than {} and {}",
                    m.label,
                    name(lowered),
                    name(y)
                ));
            }
            let Shape::Tuple(entries, _) = &shape else {
                return Err(format!(
                    "{} leaves {} as it is, not min({}, cap(...))",
                    m.label,
                    name(y),
                    name(y)
                ));
            };
            if !clamp_ok(&entries[y]) {
                return Err(format!(
                    "{} sets {} by an expression that is not min({}, cap(...)) with the cap of the positions",
                    m.label,
                    name(y),
                    name(y)
                ));
            }
        }
        if let Some(earlier) = seen[lowered] {
            return Err(format!(
                "{} lowers {} as {earlier} does",
                m.label,
                name(lowered)
            ));
        }
        seen[lowered] = Some(m.label.as_str());
    }
    if let Some(missing) = (0..3).find(|&i| seen[i].is_none()) {
        return Err(format!("no move lowers {}", name(missing)));
    }
    Ok(Known::Capped {
        x,
        y,
        z,
        cap: cap.clone(),
    })
}

/// Example 7.1 as the built-in [`Band::Example71`] plays it (its functions are
/// `band::res`, `band::res2` and `band::inverse_res2`).
const BAND_7_1: &str = r#"
heaps = ["x", "y"]
functions = [
  "res(x) = 2*floor(x/2) + 1",
  "res2(x) = max(2*floor(x/2) - 2, 0)",
  "inverseres2(x) = 2*floor(x/2) + 3",
]
positions = ["res(x) >= y >= res2(x)"]
[[move]]
lower = "x"
to = "(t, min(res(t), y))"
[[move]]
lower = "y"
to = "(min(inverseres2(x), t), t)"
"#;

/// Example 7.2 as the built-in [`Band::Example72`] plays it, `k` and `h` those of
/// the file.
const BAND_7_2: &str = r#"
heaps = ["x", "y"]
positions = ["x/k >= y >= (x - h)/k"]
[params]
k = 1
h = 3
[[move]]
lower = "x"
to = "(t, min(floor(t/k), y))"
[[move]]
lower = "y"
to = "(min(k*t + h, x), t)"
"#;

/// Whether `file` is `definition` tree for tree (the moves in either order), or
/// the first difference.
fn same_game(file: &GameFile, definition: &GameFile) -> std::result::Result<(), String> {
    if file.heaps.len() != definition.heaps.len() {
        return Err(format!("it has {} heaps, not 2", file.heaps.len()));
    }
    let same_positions = file.positions.len() == definition.positions.len()
        && file
            .positions
            .iter()
            .zip(&definition.positions)
            .all(|((_, a), (_, b))| a.same_as(b));
    if !same_positions {
        return Err("its positions are not the band's".into());
    }
    if file.moves.len() != definition.moves.len() {
        return Err(format!("it has {} moves, not 2", file.moves.len()));
    }
    for m in &file.moves {
        let found = definition
            .moves
            .iter()
            .any(|d| match (&m.family, &d.family) {
                (
                    Family::Lower {
                        heap: a,
                        to: Some(to_a),
                    },
                    Family::Lower {
                        heap: b,
                        to: Some(to_b),
                    },
                ) => {
                    a == b
                        && m.then.is_none()
                        && to_a.len() == to_b.len()
                        && to_a.iter().zip(to_b).all(|(e, f)| e.same_as(f, &Some))
                }
                _ => false,
            });
        if !found {
            return Err(format!("{} is not a move of the band", m.label));
        }
    }
    // Two moves, each one of the definition's, lowering different heaps: both of them.
    let lowered = |m: &Move| match &m.family {
        Family::Lower { heap, .. } => Some(*heap),
        Family::Take { .. } => None,
    };
    if lowered(&file.moves[0]) == lowered(&file.moves[1]) {
        return Err("its two moves lower the same heap".into());
    }
    Ok(())
}

/// The built-in band game the file is, or why it is neither.
fn band(file: &GameFile) -> std::result::Result<Known, String> {
    if file.heaps.len() != 2 {
        return Err(format!("it has {} heaps, not 2", file.heaps.len()));
    }
    let definition = |text: &str, params: &[(String, i64)]| {
        GameFile::parse("the built-in band", text, params)
            .map_err(|e| format!("the band's definition does not parse ({e})"))
    };
    let seven_one = same_game(file, &definition(BAND_7_1, &[])?).map(|()| Band::Example71);
    let seven_two = match (file.params.get("k"), file.params.get("h")) {
        (Some(&k), Some(&h)) => match (u32::try_from(k), u32::try_from(h)) {
            (Ok(k), Ok(h)) if k >= 1 => {
                let params = [
                    ("k".to_string(), i64::from(k)),
                    ("h".to_string(), i64::from(h)),
                ];
                same_game(file, &definition(BAND_7_2, &params)?).and_then(|()| {
                    if u64::from(h) + 1 < u64::from(k) {
                        Err(format!(
                            "it is Example 7.2 with h = {h} < k - 1 = {}, where a move of x can leave the band",
                            k - 1
                        ))
                    } else {
                        Band::example72(k, h).map_err(|e| e.to_string())
                    }
                })
            }
            _ => Err(format!(
                "its k = {k}, h = {h} are not 1..{max} and 0..{max}",
                max = u32::MAX
            )),
        },
        _ => Err("it has no parameters k and h".into()),
    };
    let found = match (seven_one, seven_two) {
        (Ok(band), _) | (_, Ok(band)) => band,
        (Err(one), Err(two)) => {
            return Err(format!("as Example 7.1, {one}; as Example 7.2, {two}"))
        }
    };
    if file.pass || file.misere {
        return Err(format!(
            "it is {}, but played {}, which the band solver does not play",
            found.name(),
            if file.pass { "with a pass" } else { "misère" }
        ));
    }
    Ok(Known::Band(found))
}

/// Nim in the file, or why it is not Nim.
fn nim(file: &GameFile) -> std::result::Result<Known, String> {
    if let Some((source, _)) = file.positions.first() {
        return Err(format!("its positions are limited ('{source}')"));
    }
    if file.misere {
        return Err("it is played misère (no faster solver of misère Nim here)".into());
    }
    let n = file.heaps.len();
    let mut seen = vec![false; n];
    for m in &file.moves {
        let (lowered, shape) = shape(m, n)?;
        if !(0..n).all(|i| {
            shape.entry_is(
                lowered,
                i,
                if i == lowered {
                    Means::T
                } else {
                    Means::Heap(i)
                },
            )
        }) {
            return Err(format!("{} is not a plain lower of one heap", m.label));
        }
        if std::mem::replace(&mut seen[lowered], true) {
            return Err(format!("{} lowers {} twice", m.label, file.heaps[lowered]));
        }
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(format!("no move lowers {}", file.heaps[missing]));
    }
    Ok(Known::Nim)
}

/// Which solver a file's solve runs on, and why the faster ones do not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverChoice {
    /// `capped (tiled)`, `capped (general)`, `nim-sum`, `nim with a pass`, `generic`.
    pub solver: String,
    /// Why: what was recognised, or why each faster solver does not apply.
    pub why: String,
}

/// The plan of one solve: the known game and what the box lets it use.
enum Plan {
    /// The capped solver on this cap table (row-major in x, `bz + 1` per row).
    Capped {
        x: usize,
        y: usize,
        z: usize,
        table: Vec<u64>,
    },
    Nim,
    NimPass,
    Band(Band),
    Generic(String),
}

impl GameFile {
    /// The game this file was recognised as, or why it is none of them.
    fn known(&self) -> std::result::Result<Known, String> {
        match (capped(self), nim(self)) {
            (Ok(k), _) | (_, Ok(k)) => Ok(k),
            (Err(c), Err(n)) => band(self)
                .map_err(|b| format!("not a capped game: {c}; not Nim: {n}; not a band game: {b}")),
        }
    }

    fn plan(&self, bounds: &[u32], control: &Control) -> Result<Plan> {
        if bounds.len() != self.heaps.len() {
            return Ok(Plan::Generic("the box does not fit the heaps".into()));
        }
        Ok(match self.known() {
            Err(why) => Plan::Generic(why),
            Ok(Known::Nim) if bounds.iter().any(|&b| b > 0xFFFF) => Plan::Generic(
                "Nim, but a heap over 65535 gives values over the 65535 that values are stored in"
                    .into(),
            ),
            Ok(Known::Nim) if self.pass => Plan::NimPass,
            Ok(Known::Nim) => Plan::Nim,
            Ok(Known::Band(band)) => Plan::Band(band),
            Ok(Known::Capped { x, y, z, cap }) => {
                let (bx, bz) = (bounds[x], bounds[z]);
                let rows: Vec<std::result::Result<Vec<u64>, String>> = (0..=bx)
                    .into_par_iter()
                    .map(|a| {
                        control.check().map_err(|_| String::new())?;
                        let mut vars = [0i128; 4];
                        vars[x] = i128::from(a);
                        (0..=bz)
                            .map(|c| {
                                vars[z] = i128::from(c);
                                let at = || {
                                    format!("({}, {}) = ({a}, {c})", self.heaps[x], self.heaps[z])
                                };
                                match cap.eval_int(&vars) {
                                    Ok(v) if v >= 0 => Ok(u64::try_from(v).unwrap_or(u64::MAX)),
                                    Ok(v) => Err(format!("the cap is negative ({v}) at {}", at())),
                                    Err(e) => Err(format!("the cap faults ({e}) at {}", at())),
                                }
                            })
                            .collect()
                    })
                    .collect();
                control.check()?;
                let mut table = Vec::with_capacity((bx as usize + 1) * (bz as usize + 1));
                for row in rows {
                    match row {
                        Ok(row) => table.extend(row),
                        Err(why) => {
                            return Ok(Plan::Generic(format!(
                                "a capped game, but {why} (the generic solver handles it as the file says)"
                            )))
                        }
                    }
                }
                Plan::Capped { x, y, z, table }
            }
        })
    }

    /// Which solver [`GameFile::solve`] runs on the box `bounds`, and why.
    pub fn solver_choice(&self, bounds: &[u32], control: &Control) -> Result<SolverChoice> {
        let heaps = |i: usize| self.heaps[i].as_str();
        Ok(match self.plan(bounds, control)? {
            Plan::Capped { x, y, z, table } => {
                let clamped: Vec<u32> = table
                    .iter()
                    .map(|&c| c.min(u64::from(bounds[y])) as u32)
                    .collect();
                let tiled = crate::games::monotone::is_monotone(&clamped, bounds[z] as usize + 1);
                SolverChoice {
                    solver: format!("capped ({})", if tiled { "tiled" } else { "general" }),
                    why: format!(
                        "the file is {} <= cap({}, {}) with the capped games' three moves{}",
                        heaps(y),
                        heaps(x),
                        heaps(z),
                        if tiled {
                            "; the cap never decreases in the box"
                        } else {
                            "; the cap decreases somewhere in the box, so not the tiled solver"
                        }
                    ),
                }
            }
            Plan::Nim => SolverChoice {
                solver: "nim-sum".into(),
                why: "the file is Nim: every tuple a position, one plain lower per heap".into(),
            },
            Plan::NimPass => SolverChoice {
                solver: "nim with a pass".into(),
                why:
                    "the file is Nim with a pass: every tuple a position, one plain lower per heap"
                        .into(),
            },
            Plan::Band(band) => SolverChoice {
                solver: "band".into(),
                why: format!(
                    "the file is the built-in {} (Example 7.{} of Miyadera et al.'s web book), position condition and moves tree for tree",
                    band.name(),
                    if band == Band::Example71 { 1 } else { 2 }
                ),
            },
            Plan::Generic(why) => SolverChoice {
                solver: "generic".into(),
                why,
            },
        })
    }

    /// [`GameFile::solve_generic`]'s values by a faster solver when the file is a
    /// known game on this box (see the module notes); `None` when it is not.
    pub(super) fn solve_known(
        &self,
        bounds: &[u32],
        limit: u64,
        control: &Control,
    ) -> Result<Option<DenseGrundy>> {
        let plan = self.plan(bounds, control)?;
        if matches!(plan, Plan::Generic(_)) {
            return Ok(None);
        }
        // The generic solver's own memory refusal first, word for word.
        let what = format!("Grundy values of {}", self.name());
        let per_tuple = if self.pass { 5 } else { 3 };
        let total = box_tuples(&what, bounds, per_tuple, limit)?;
        Ok(Some(match plan {
            Plan::Capped { x, y, z, table } => {
                let nz = bounds[z] as usize + 1;
                let play = Play {
                    pass: self.pass,
                    misere: self.misere,
                };
                // The dense copy is made after the solve: its bytes are held besides.
                let dense_bytes = (total as u64).saturating_mul(2) + (total as u64) / 8;
                let solved = solve_capped_fn(
                    &self.name(),
                    |a, c| Ok(table[a as usize * nz + c as usize]),
                    [bounds[x], bounds[y], bounds[z]],
                    play,
                    limit.saturating_sub(dense_bytes),
                    control,
                );
                match solved {
                    Ok(solved) => dense(self, bounds, [x, y, z], &solved, control)?,
                    // Near the limit the two copies may not fit where the generic solver does.
                    Err(Error::TooLarge { .. }) => return Ok(None),
                    Err(e) => return Err(e),
                }
            }
            Plan::Nim => nim_sums(self, bounds, total, control)?,
            Plan::NimPass => NimPass::new(self.heaps.len())?
                .solve(bounds, limit, control)?
                .with_names(self.heaps.clone()),
            // Every option of a band position is a band position in the box (see the
            // module notes), so the built-in solver meets only the file's positions.
            Plan::Band(band) => match band.solve(bounds, limit, control) {
                Ok(solved) => solved.with_names(self.heaps.clone()),
                // A value over 65535, or memory near the limit: the generic solver
                // reports it in its own words.
                Err(Error::TooLarge { .. } | Error::Unsupported(_)) => return Ok(None),
                Err(e) => return Err(e),
            },
            Plan::Generic(_) => return Ok(None),
        }))
    }
}

/// Strides of the file's box in C order.
fn strides(bounds: &[u32]) -> Vec<usize> {
    let mut s = vec![1usize; bounds.len()];
    for d in (0..bounds.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * (bounds[d + 1] as usize + 1);
    }
    s
}

/// The capped solution as the generic solver lays its values out: every tuple of
/// the file's box in C order of the file's heaps. Written column by column, so only
/// the positions are touched (the rest of the box stays 0 and out of `valid`).
fn dense(
    file: &GameFile,
    bounds: &[u32],
    [x, y, z]: [usize; 3],
    solved: &CappedGrundy,
    control: &Control,
) -> Result<DenseGrundy> {
    let strides = strides(bounds);
    let total = strides[0] * (bounds[0] as usize + 1);
    let mut values = vec![0u16; total];
    let mut valid = vec![0u64; total.div_ceil(64)];
    let mut positions = 0;
    for a in 0..=bounds[x] {
        control.check()?;
        for c in 0..=bounds[z] {
            let base = a as usize * strides[x] + c as usize * strides[z];
            let column = solved.column_values(a, c);
            for (b, &v) in column.iter().enumerate() {
                let i = base + b * strides[y];
                values[i] = v;
                valid[i / 64] |= 1 << (i % 64);
            }
            positions += column.len();
        }
    }
    Ok(DenseGrundy::from_parts(
        file.heaps.clone(),
        bounds.to_vec(),
        values,
        valid,
        positions,
    ))
}

/// Nim's values: the nim-sum of every tuple (heaps at most 65535, so it fits).
fn nim_sums(
    file: &GameFile,
    bounds: &[u32],
    total: usize,
    control: &Control,
) -> Result<DenseGrundy> {
    let strides = strides(bounds);
    let mut values = vec![0u16; total];
    values
        .par_chunks_mut(strides[0].max(1))
        .enumerate()
        .for_each(|(first, chunk)| {
            if control.is_cancelled() {
                return;
            }
            for (i, v) in chunk.iter_mut().enumerate() {
                let idx = first * strides[0] + i;
                let sum = strides
                    .iter()
                    .zip(bounds)
                    .map(|(&s, &b)| (idx / s) % (b as usize + 1))
                    .fold(0, |a, c| a ^ c);
                *v = sum as u16;
            }
        });
    control.check()?;
    let mut valid = vec![u64::MAX; total.div_ceil(64)];
    if !total.is_multiple_of(64) {
        if let Some(last) = valid.last_mut() {
            *last = (1u64 << (total % 64)) - 1;
        }
    }
    Ok(DenseGrundy::from_parts(
        file.heaps.clone(),
        bounds.to_vec(),
        values,
        valid,
        total,
    ))
}
