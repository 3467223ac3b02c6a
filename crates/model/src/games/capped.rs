//! Capped three-heap games `y <= cap(x, z)` and their fast parallel solver.
//!
//! Positions are `(x, y, z)` with `y <= cap(x, z)`. Moves: lower `y` to any
//! smaller value; lower `x` to `t < x` and set `y := min(y, cap(t, z))`;
//! lower `z` to `t < z` and set `y := min(y, cap(x, t))` (SPEC §5).
//!
//! The one idea of the fast solver: **each move family reaches a prefix of a
//! line**, so the option values never need collecting from scratch.
//! * `y`-moves from `(x, y, z)` reach `(x, y', z)` for `y' < y`: a running
//!   bitset down the column `(x, ., z)`.
//! * `x`-moves reach `(t, min(y, cap(t, z)), z)` for `t < x`: for fixed
//!   `(y, z)` these are the first `x` entries of one "clamped line" along
//!   `x`, so a bitset `B[z][y]` gains one value per solved column.
//! * `z`-moves likewise with a bitset `C[x][y]` along `z`.
//!
//! The value at `(x, y, z)` is the first zero bit of `A | B[z][y] | C[x][y]`.
//! A column `(x, ., z)` needs only columns with smaller `x + z`, and the
//! columns of one level `x + z = s` touch distinct `B[z]` and `C[x]`, so each
//! level is solved in parallel with rayon. Every value is computed the same
//! way whatever the thread count.

use rayon::prelude::*;

use super::cap_expr::CapExpr;
use super::columns::Columns;
use super::monotone::{is_monotone, ruled, solve_monotone, solve_monotone_streamed, Rules, Solved};
use super::solver::Game;
use crate::error::check_memory;
use crate::{Control, Error, Result};

/// The cap of a capped three-heap game.
#[derive(Clone, Debug)]
pub enum Cap {
    /// `floor((x + z) / k)`, the triangular bar of seed 000 (`k >= 1`).
    Triangular {
        /// The divisor, at least 1.
        k: u32,
    },
    /// `floor(min(x, z) / 2)`, seed 004.
    MinHalf,
    /// A user expression in `x` and `z` (see [`CapExpr`]).
    Expr(CapExpr),
}

impl Cap {
    /// The triangular cap; `k = 0` is an error.
    pub fn triangular(k: u32) -> Result<Cap> {
        if k == 0 {
            return Err(Error::invalid_parameter(
                "k",
                "triangular: `k` must be at least 1 (the cap is floor((x+z)/k))",
            ));
        }
        Ok(Cap::Triangular { k })
    }

    /// A cap parsed from an expression such as `floor((x+z)**2/5)`.
    pub fn expr(source: &str) -> Result<Cap> {
        Ok(Cap::Expr(CapExpr::parse(source)?))
    }

    /// The cap at `(x, z)`; errors (for an expression) name the position.
    pub fn eval(&self, x: u32, z: u32) -> Result<u64> {
        match self {
            Cap::Triangular { k } => Ok((u64::from(x) + u64::from(z)) / u64::from(*k)),
            Cap::MinHalf => Ok(u64::from(x.min(z)) / 2),
            Cap::Expr(e) => e.cap(x, z),
        }
    }

    /// The cap written as a formula, e.g. `floor((x+z)/3)`.
    pub fn formula(&self) -> String {
        match self {
            Cap::Triangular { k } => format!("floor((x+z)/{k})"),
            Cap::MinHalf => "floor(min(x,z)/2)".into(),
            Cap::Expr(e) => e.to_string(),
        }
    }

    /// Evaluates the cap at every `(x, z)` of the box, clamped to `y_max`,
    /// row `x` after row `x`; rows in parallel, the first error in row order wins
    /// (cancellation first: `control` is checked per row).
    fn table(&self, bx: u32, by: u32, bz: u32, control: &Control) -> Result<Vec<u32>> {
        let width = bz as usize + 1;
        let rows: Vec<Result<Vec<u32>>> = (0..=bx)
            .into_par_iter()
            .map(|x| {
                control.check()?;
                let mut stack = Vec::new();
                (0..=bz)
                    .map(|z| {
                        let c = match self {
                            Cap::Expr(e) => e.cap_with(x, z, &mut stack)?,
                            other => other.eval(x, z)?,
                        };
                        Ok(c.min(u64::from(by)) as u32)
                    })
                    .collect()
            })
            .collect();
        control.check()?;
        let mut table = Vec::with_capacity((bx as usize + 1) * width);
        for row in rows {
            table.extend(row?);
        }
        Ok(table)
    }
}

/// How a game is played, with the conventions of game files (`docs/games.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Play {
    /// Once per game, and not from a position with no move, a player may pass
    /// instead of moving; the values are those with the pass still available.
    pub pass: bool,
    /// Misère play: the player who cannot move wins; a position with no move is
    /// worth 1, so the P-positions are still the positions of value 0.
    pub misere: bool,
}

impl Play {
    /// What a position with no move is worth: 0, or 1 in misère play.
    pub fn terminal(self) -> u16 {
        u16::from(self.misere)
    }

    /// ` with a pass`, ` misère`, both or nothing: what names and captions add.
    pub fn suffix(self) -> &'static str {
        match (self.misere, self.pass) {
            (false, false) => "",
            (false, true) => " with a pass",
            (true, false) => " misère",
            (true, true) => " misère with a pass",
        }
    }
}

/// A capped three-heap game: `(x, y, z)` with `y <= cap(x, z)`.
#[derive(Clone, Debug)]
pub struct CappedGame {
    cap: Cap,
    play: Play,
}

impl CappedGame {
    /// The game with this cap, in normal play without a pass.
    pub fn new(cap: Cap) -> Self {
        CappedGame {
            cap,
            play: Play::default(),
        }
    }

    /// The same game played with `play` (a pass, misère).
    pub fn with_play(self, play: Play) -> Self {
        CappedGame { play, ..self }
    }

    /// How the game is played.
    pub fn play(&self) -> Play {
        self.play
    }

    /// The triangular bar `y <= floor((x+z)/k)`; `k = 0` is an error.
    pub fn triangular(k: u32) -> Result<Self> {
        Ok(CappedGame::new(Cap::triangular(k)?))
    }

    /// The bar `y <= floor(min(x,z)/2)`.
    pub fn min_half() -> Self {
        CappedGame::new(Cap::MinHalf)
    }

    /// The bar `y <= EXPR` for a user expression.
    pub fn with_expr(source: &str) -> Result<Self> {
        Ok(CappedGame::new(Cap::expr(source)?))
    }

    /// The cap.
    pub fn cap(&self) -> &Cap {
        &self.cap
    }

    /// Grundy values of every position in the box `0..=bounds[i]` (x, y, z),
    /// by the fast parallel solver; refused with an estimate over `limit` bytes.
    ///
    /// Under `control`: progress in positions, cancellation
    /// checked per row of the cap table and per block of 32 rows of a tile (or per
    /// column of the general solver).
    pub fn solve(&self, bounds: [u32; 3], limit: u64, control: &Control) -> Result<CappedGrundy> {
        precheck(&self.name(), bounds, limit)?;
        let table = self.cap.table(bounds[0], bounds[1], bounds[2], control)?;
        solve_table(&self.name(), bounds, table, self.play, limit, control)
    }

    /// The bytes [`CappedGame::solve`] would ask its memory guard for in the box
    /// `bounds` (the same estimate, from the cap table), without solving.
    pub fn solve_bytes(&self, bounds: [u32; 3], control: &Control) -> Result<u64> {
        precheck(&self.name(), bounds, u64::MAX)?;
        let table = self.cap.table(bounds[0], bounds[1], bounds[2], control)?;
        Ok(table_bytes(bounds, &table, self.play))
    }

    /// Whether a solve of the box `bounds` takes the tiled solver (the cap, clamped
    /// to the box, never decreases along `x` nor `z`) rather than the general one.
    pub fn is_tiled(&self, bounds: [u32; 3], control: &Control) -> Result<bool> {
        precheck(&self.name(), bounds, u64::MAX)?;
        let table = self.cap.table(bounds[0], bounds[1], bounds[2], control)?;
        Ok(is_monotone(&table, bounds[2] as usize + 1))
    }

    /// [`CappedGame::solve`], streaming the box as `.npy` data on the way: `shape`
    /// hears the array's shape `(x, y, z)` (with `y` up to the tallest column, see
    /// [`CappedGrundy::y_reach`]) once the cap table is known, then `write` gets the
    /// little-endian slabs, `outside` above each column. Monotone caps are written
    /// while the tiled solver still works on larger `x`; other caps after solving.
    /// `control` as in [`CappedGame::solve`], and checked per slab written.
    pub fn solve_streamed(
        &self,
        bounds: [u32; 3],
        limit: u64,
        outside: u16,
        shape: impl FnOnce([u64; 3]) -> Result<()>,
        write: &mut dyn FnMut(&[u8]) -> Result<()>,
        control: &Control,
    ) -> Result<CappedGrundy> {
        precheck(&self.name(), bounds, limit)?;
        let table = self.cap.table(bounds[0], bounds[1], bounds[2], control)?;
        let reach = table.iter().copied().max().unwrap_or(0);
        shape([
            u64::from(bounds[0]) + 1,
            u64::from(reach) + 1,
            u64::from(bounds[2]) + 1,
        ])?;
        let name = self.name();
        if is_monotone(&table, bounds[2] as usize + 1) {
            // With a pass, the game without it first; the values with it are streamed.
            let (passless, reserve) =
                passless_values(&name, bounds, &table, self.play, limit, control)?;
            let (offsets, values) = solve_monotone_streamed(
                &name,
                bounds,
                &table,
                limit,
                Rules {
                    terminal: self.play.terminal(),
                    passless: passless.as_deref(),
                    reserve,
                },
                Some((outside, write)),
                control,
            )?;
            Ok(CappedGrundy::from_parts(
                &name, bounds, table, offsets, values,
            ))
        } else {
            let solution = solve_table(&name, bounds, table, self.play, limit, control)?;
            solution.for_each_le_slab(outside, |slab| {
                control.check()?;
                write(slab)
            })?;
            Ok(solution)
        }
    }
}

impl Game for CappedGame {
    fn name(&self) -> String {
        let game = match &self.cap {
            Cap::Triangular { k } => format!("triangular k={k}"),
            Cap::MinHalf => "min-half".into(),
            Cap::Expr(e) => format!("cap {e}"),
        };
        game + self.play.suffix()
    }

    fn coordinate_names(&self) -> Vec<String> {
        vec!["x".into(), "y".into(), "z".into()]
    }

    fn is_position(&self, p: &[u32]) -> bool {
        self.cap
            .eval(p[0], p[2])
            .is_ok_and(|c| u64::from(p[1]) <= c)
    }

    /// The moves exactly as SPEC §5 states them (caps that fail to evaluate
    /// give no option; the fast solver reports them as errors instead), without the
    /// pass and in normal play: the memoised recursion of the tests reads them.
    fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
        let (x, y, z) = (p[0], p[1], p[2]);
        for t in 0..y {
            f(&[x, t, z]);
        }
        for t in 0..x {
            if let Ok(c) = self.cap.eval(t, z) {
                f(&[t, y.min(c.min(u64::from(u32::MAX)) as u32), z]);
            }
        }
        for t in 0..z {
            if let Ok(c) = self.cap.eval(x, t) {
                f(&[x, y.min(c.min(u64::from(u32::MAX)) as u32), t]);
            }
        }
    }
}

/// The Grundy values of a capped game on a box, one column `(x, ., z)` each.
#[derive(Clone, Debug)]
pub struct CappedGrundy {
    name: String,
    bounds: [u32; 3],
    /// The cap clamped to the box, `min(cap(x, z), y_max)`, row-major in `x`.
    caps: Vec<u32>,
    /// Where column `(x, ., z)` starts in `values`, row-major in `x`.
    offsets: Vec<usize>,
    values: Vec<u16>,
}

/// Refuses, in O(1) and before the cap table is evaluated, a box whose columns alone
/// would not fit: every column `(x, ., z)` costs a cap (4 bytes), an offset (8) and at
/// least one value (2). [`solve_table`] then checks the full estimate.
fn precheck(name: &str, [bx, by, bz]: [u32; 3], limit: u64) -> Result<()> {
    let columns = (u128::from(bx) + 1) * (u128::from(bz) + 1);
    let needed = u64::try_from(columns * 14).unwrap_or(u64::MAX);
    check_memory(
        || {
            format!("Grundy values of {name} in the box 0..{bx} x 0..{by} x 0..{bz} ({columns} columns)")
        },
        needed,
        limit,
        "use a smaller `box`",
    )?;
    usize::try_from(columns)
        .map(|_| ())
        .map_err(|_| Error::invalid_request(format!("box too large: {columns} columns")))
}

/// Solves a capped game whose clamped caps are already tabled.
///
/// `caps[x * (bz + 1) + z]` must be `min(cap(x, z), by)`. Monotone caps (the
/// triangular bar, min-half, most expressions) take the fast tiled solver
/// [`solve_monotone`]; any other table the general one, which is also its
/// independent cross-check in the tests.
///
/// With a pass, the game without it is solved first and its values kept while the
/// same solver solves the game with it (see [`Rules`]).
fn solve_table(
    name: &str,
    bounds: [u32; 3],
    caps: Vec<u32>,
    play: Play,
    limit: u64,
    control: &Control,
) -> Result<CappedGrundy> {
    let (passless, reserve) = passless_values(name, bounds, &caps, play, limit, control)?;
    let rules = Rules {
        terminal: play.terminal(),
        passless: passless.as_deref(),
        reserve,
    };
    let (offsets, values) = solve_once(name, bounds, &caps, rules, limit, control)?;
    Ok(CappedGrundy::from_parts(
        name, bounds, caps, offsets, values,
    ))
}

/// One solve of a clamped cap table by the solver that fits it.
fn solve_once(
    name: &str,
    bounds: [u32; 3],
    caps: &[u32],
    rules: Rules<'_>,
    limit: u64,
    control: &Control,
) -> Result<Solved> {
    if is_monotone(caps, bounds[2] as usize + 1) {
        solve_monotone(name, bounds, caps, limit, rules, control)
    } else {
        solve_general(name, bounds, caps, limit, rules, control)
    }
}

/// With a pass: the values without it (what [`Rules::passless`] reads) and the bytes
/// they hold while the game with the pass is solved; otherwise nothing.
fn passless_values(
    name: &str,
    bounds: [u32; 3],
    caps: &[u32],
    play: Play,
    limit: u64,
    control: &Control,
) -> Result<(Option<Vec<u16>>, u64)> {
    if !play.pass {
        return Ok((None, 0));
    }
    let positions: u64 = caps.iter().map(|&c| u64::from(c) + 1).sum();
    let reserve = positions.saturating_mul(2);
    let rules = Rules {
        terminal: play.terminal(),
        passless: None,
        reserve,
    };
    // Progress: the solve without the pass is half the work.
    let (_, values) = solve_once(name, bounds, caps, rules, limit, control)?;
    Ok((Some(values), reserve))
}

/// The bytes a solve of this clamped table asks its memory guard for.
fn table_bytes(bounds: [u32; 3], caps: &[u32], play: Play) -> u64 {
    let (positions, bytes) = if is_monotone(caps, bounds[2] as usize + 1) {
        super::monotone::footprint(bounds, caps)
    } else {
        general_footprint(bounds, caps)
    };
    if play.pass {
        bytes.saturating_add(positions.saturating_mul(2))
    } else {
        bytes
    }
}

/// Heights and widths (in words) of the general solver's line bitsets:
/// `B[z]` along `x` and `C[x]` along `z`.
fn line_shape(
    [bx, _, bz]: [u32; 3],
    caps: &[u32],
) -> (Vec<usize>, Vec<usize>, Vec<usize>, Vec<usize>) {
    let (nx, nz) = (bx as usize + 1, bz as usize + 1);
    let cap = |x: usize, z: usize| caps[x * nz + z] as usize;
    let y_b: Vec<usize> = (0..nz)
        .map(|z| (0..nx).map(|x| cap(x, z)).max().unwrap_or(0))
        .collect();
    let y_c: Vec<usize> = (0..nx)
        .map(|x| (0..nz).map(|z| cap(x, z)).max().unwrap_or(0))
        .collect();
    // No x-move exists when bx = 0 (no z-move when bz = 0): no line sets then. A
    // value is at most the number of options, plus one with a pass.
    let w_b: Vec<usize> = (0..nz)
        .map(|z| {
            if bx == 0 {
                0
            } else {
                (bx as usize + y_b[z] + z + 1) / 64 + 1
            }
        })
        .collect();
    let w_c: Vec<usize> = (0..nx)
        .map(|x| {
            if bz == 0 {
                0
            } else {
                (x + y_c[x] + bz as usize + 1) / 64 + 1
            }
        })
        .collect();
    (y_b, y_c, w_b, w_c)
}

/// Positions and bytes of the general solver on a clamped cap table: the values,
/// the line bitsets, the column tables.
fn general_footprint(bounds: [u32; 3], caps: &[u32]) -> (u64, u64) {
    let (nx, nz) = (bounds[0] as usize + 1, bounds[2] as usize + 1);
    let (y_b, y_c, w_b, w_c) = line_shape(bounds, caps);
    let positions: u64 = caps.iter().map(|&c| u64::from(c) + 1).sum();
    let line_words: u64 = (0..nz).map(|z| ((y_b[z] + 1) * w_b[z]) as u64).sum::<u64>()
        + (0..nx).map(|x| ((y_c[x] + 1) * w_c[x]) as u64).sum::<u64>();
    let needed = 2 * positions + 8 * line_words + 12 * (nx * nz) as u64;
    (positions, needed)
}

/// The general solver: any cap table (see the module notes). Progress in positions,
/// cancellation checked per column.
fn solve_general(
    name: &str,
    bounds: [u32; 3],
    caps: &[u32],
    limit: u64,
    rules: Rules<'_>,
    control: &Control,
) -> Result<Solved> {
    let [bx, by, bz] = bounds;
    let (nx, nz) = (bx as usize + 1, bz as usize + 1);
    debug_assert_eq!(caps.len(), nx * nz);
    let cap = |x: usize, z: usize| caps[x * nz + z] as usize;

    // Line heights and widths. A value at (x, y, z) is at most x + y + z
    // (the number of options), which bounds every bitset.
    let (y_b, y_c, w_b, w_c) = line_shape(bounds, caps);
    let (positions, needed) = general_footprint(bounds, caps);
    let needed = needed.saturating_add(rules.reserve);
    check_memory(
        || {
            format!(
                "Grundy values of {name} in the box 0..{bx} x 0..{by} x 0..{bz} ({positions} positions)"
            )
        },
        needed,
        limit,
        "use a smaller `box`",
    )?;
    control.add_total(positions);

    // Columns ordered by level s = x + z, then by x, so that a level's
    // values are one contiguous slice.
    let mut offsets = vec![0usize; nx * nz];
    let mut level_start = Vec::with_capacity(nx + nz);
    let mut next = 0usize;
    for s in 0..(nx + nz - 1) {
        level_start.push(next);
        let (lo, hi) = (s.saturating_sub(nz - 1), s.min(nx - 1));
        for x in lo..=hi {
            offsets[x * nz + (s - x)] = next;
            next += cap(x, s - x) + 1;
        }
    }
    level_start.push(next);
    let mut values = vec![0u16; next];
    let mut lines_b: Vec<Vec<u64>> = (0..nz).map(|z| vec![0u64; (y_b[z] + 1) * w_b[z]]).collect();
    let mut lines_c: Vec<Vec<u64>> = (0..nx).map(|x| vec![0u64; (y_c[x] + 1) * w_c[x]]).collect();

    let mut rest: &mut [u16] = &mut values;
    for s in 0..(nx + nz - 1) {
        let (lo, hi) = (s.saturating_sub(nz - 1), s.min(nx - 1));
        let (level, tail) = rest.split_at_mut(level_start[s + 1] - level_start[s]);
        rest = tail;
        let mut columns: Vec<&mut [u16]> = Vec::with_capacity(hi - lo + 1);
        let mut level = level;
        for x in lo..=hi {
            let (col, more) = level.split_at_mut(cap(x, s - x) + 1);
            columns.push(col);
            level = more;
        }
        let (z_lo, z_hi) = (s - hi, s - lo);
        let overflow = columns
            .into_par_iter()
            .zip(lines_b[z_lo..=z_hi].par_iter_mut().rev())
            .zip(lines_c[lo..=hi].par_iter_mut())
            .enumerate()
            .map_init(Vec::new, |col_set, (i, ((col, line_b), line_c))| {
                // A cancelled level is abandoned column by column and reported below.
                if control.is_cancelled() {
                    return Ok(());
                }
                let (x, z) = (lo + i, s - lo - i);
                let passless = rules
                    .passless
                    .map(|p| &p[offsets[x * nz + z]..][..cap(x, z) + 1]);
                solve_column(
                    Column {
                        x,
                        z,
                        last_x: x == nx - 1,
                        last_z: z == nz - 1,
                    },
                    col,
                    (line_b, w_b[z], y_b[z]),
                    (line_c, w_c[x], y_c[x]),
                    col_set,
                    (rules.terminal, passless),
                )
            })
            .filter_map(|r| r.err())
            .min();
        control.check()?;
        control.advance((level_start[s + 1] - level_start[s]) as u64);
        if let Some([x, y, z]) = overflow {
            return Err(Error::unsupported(format!(
                "{name}: the Grundy value at (x, y, z) = ({x}, {y}, {z}) exceeds 65535, \
                 the most values are stored in; use a smaller `box`"
            )));
        }
    }

    Ok((offsets, values))
}

struct Column {
    x: usize,
    z: usize,
    last_x: bool,
    last_z: bool,
}

/// Solves one column `(x, 0..=c, z)` and adds its values to the two line
/// sets it feeds. Returns the first position whose value overflows `u16`.
fn solve_column(
    at: Column,
    col: &mut [u16],
    (line_b, w_b, y_b): (&mut Vec<u64>, usize, usize),
    (line_c, w_c, y_c): (&mut Vec<u64>, usize, usize),
    set_a: &mut Vec<u64>,
    (terminal, passless): (u16, Option<&[u16]>),
) -> std::result::Result<(), [u32; 3]> {
    let c = col.len() - 1;
    // A value is at most the number of options, x + y + z, plus one with a pass.
    let w_a = (at.x + c + at.z + 1) / 64 + 1;
    set_a.clear();
    set_a.resize(w_a, 0);
    // set_a only grows, so the words before its first non-full one stay full: the
    // mex search starts there (a column's values fill 0..y densely, so this skips
    // most of the scan in large boxes).
    let mut full_a = 0;
    for y in 0..=c {
        let b = &line_b[y * w_b..(y + 1) * w_b];
        let cc = &line_c[y * w_c..(y + 1) * w_c];
        while full_a < w_a && set_a[full_a] == u64::MAX {
            full_a += 1;
        }
        // The value is at most x + y + z < 64 * w_a, so the first non-full
        // word is always found. A line set that no move family feeds (the
        // box is flat in that direction) is empty.
        let mut g = usize::MAX;
        for (i, &a) in set_a.iter().enumerate().skip(full_a) {
            let w = a | b.get(i).copied().unwrap_or(0) | cc.get(i).copied().unwrap_or(0);
            if w != u64::MAX {
                g = i * 64 + w.trailing_ones() as usize;
                break;
            }
        }
        let g = ruled(
            (g != usize::MAX).then_some(g),
            at.x == 0 && at.z == 0 && y == 0,
            terminal,
            passless.map(|p| p[y]),
            [&set_a[..], b, cc],
        );
        let Some(v) = g.and_then(|g| u16::try_from(g).ok()) else {
            return Err([at.x as u32, y as u32, at.z as u32]);
        };
        col[y] = v;
        let g = usize::from(v);
        set_a[g / 64] |= 1 << (g % 64);
    }
    // Later columns (x' > x, ., z) reach (x, min(y, c), z) by an x-move.
    if !at.last_x {
        for y in 0..=y_b {
            let g = usize::from(col[y.min(c)]);
            line_b[y * w_b + g / 64] |= 1 << (g % 64);
        }
    }
    // Later columns (x, ., z' > z) reach (x, min(y, c), z) by a z-move.
    if !at.last_z {
        for y in 0..=y_c {
            let g = usize::from(col[y.min(c)]);
            line_c[y * w_c + g / 64] |= 1 << (g % 64);
        }
    }
    Ok(())
}

/// Solves the capped game with an arbitrary cap function (clamped to the box);
/// the first failing `(x, z)` in row order is reported. `control` as in
/// [`CappedGame::solve`].
pub fn solve_capped_fn(
    name: &str,
    cap: impl Fn(u32, u32) -> Result<u64> + Sync,
    bounds: [u32; 3],
    play: Play,
    limit: u64,
    control: &Control,
) -> Result<CappedGrundy> {
    precheck(name, bounds, limit)?;
    let [bx, by, bz] = bounds;
    let mut caps = Vec::with_capacity((bx as usize + 1) * (bz as usize + 1));
    for x in 0..=bx {
        control.check()?;
        for z in 0..=bz {
            caps.push(cap(x, z)?.min(u64::from(by)) as u32);
        }
    }
    solve_table(name, bounds, caps, play, limit, control)
}

impl CappedGrundy {
    /// A solution from its parts (the solvers' common result).
    fn from_parts(
        name: &str,
        bounds: [u32; 3],
        caps: Vec<u32>,
        offsets: Vec<usize>,
        values: Vec<u16>,
    ) -> CappedGrundy {
        CappedGrundy {
            name: name.to_string(),
            bounds,
            caps,
            offsets,
            values,
        }
    }

    /// The game's name, e.g. `triangular k=3`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The box: `x` in `0..=bounds[0]`, `y` in `0..=bounds[1]`, `z` in `0..=bounds[2]`.
    pub fn bounds(&self) -> [u32; 3] {
        self.bounds
    }

    /// The largest `y` of a position at `(x, ., z)`: the cap clamped to the box.
    pub fn column_height(&self, x: u32, z: u32) -> Option<u32> {
        if x > self.bounds[0] || z > self.bounds[2] {
            return None;
        }
        Some(self.caps[x as usize * (self.bounds[2] as usize + 1) + z as usize])
    }

    /// The values of column `(x, ., z)`, `y` from 0 to its height (in the box).
    pub(crate) fn column_values(&self, x: u32, z: u32) -> &[u16] {
        let i = x as usize * (self.bounds[2] as usize + 1) + z as usize;
        &self.values[self.offsets[i]..=self.offsets[i] + self.caps[i] as usize]
    }

    /// The Grundy value of `(x, y, z)`, or `None` when it is not a position in the box.
    pub fn get(&self, x: u32, y: u32, z: u32) -> Option<u16> {
        let h = self.column_height(x, z)?;
        if y > h {
            return None;
        }
        let i = x as usize * (self.bounds[2] as usize + 1) + z as usize;
        Some(self.values[self.offsets[i] + y as usize])
    }

    /// Number of positions in the box.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// The largest `y` of any position in the box: the tallest column. Slabs (and
    /// `.npy` arrays) stop there, since every row above it would be "not a position".
    pub fn y_reach(&self) -> u32 {
        self.caps.iter().copied().max().unwrap_or(0)
    }

    /// The columns as the slab writers read them.
    fn columns(&self) -> Columns<'_> {
        Columns {
            nz: self.bounds[2] as usize + 1,
            ny: self.y_reach() as usize + 1,
            caps: &self.caps,
            offsets: &self.offsets,
            values: &self.values,
        }
    }

    /// The box in C order `(x, y, z)` with `y` up to [`CappedGrundy::y_reach`], one
    /// `(y, z)` slab per `x`, `outside` above each column's cap (see
    /// [`super::Solution::for_each_slab`]). Memory: one slab.
    pub(crate) fn for_each_slab<E>(
        &self,
        outside: u16,
        mut f: impl FnMut(&[u16]) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        let columns = self.columns();
        let (ny, nz) = (columns.ny, columns.nz);
        let mut slab = vec![outside; ny * nz];
        for x in 0..=self.bounds[0] as usize {
            slab.fill(outside);
            for z in 0..nz {
                for (y, &v) in columns.column(x, z).iter().enumerate() {
                    slab[y * nz + z] = v;
                }
            }
            f(&slab)?;
        }
        Ok(())
    }

    /// [`CappedGrundy::for_each_slab`] into one array `out` (every slab in order),
    /// the slabs filled in parallel: each `outside` first, then its columns over
    /// it, 64 at a time, so that writes go along the rows of the slab.
    pub(crate) fn fill_dense(
        &self,
        outside: u16,
        out: &mut [u16],
        control: &Control,
    ) -> Result<()> {
        const BLOCK: usize = 64;
        let columns = self.columns();
        let (ny, nz) = (columns.ny, columns.nz);
        out.par_chunks_mut(ny * nz)
            .enumerate()
            .for_each(|(x, slab)| {
                if control.is_cancelled() {
                    return;
                }
                slab.fill(outside);
                let mut block: Vec<&[u16]> = Vec::with_capacity(BLOCK);
                for z0 in (0..nz).step_by(BLOCK) {
                    let z1 = (z0 + BLOCK).min(nz);
                    block.clear();
                    block.extend((z0..z1).map(|z| columns.column(x, z)));
                    let top = block.iter().map(|c| c.len()).max().unwrap_or(0);
                    for (y, row) in slab.chunks_exact_mut(nz).take(top).enumerate() {
                        for (cell, column) in row[z0..z1].iter_mut().zip(&block) {
                            if let Some(&v) = column.get(y) {
                                *cell = v;
                            }
                        }
                    }
                }
            });
        control.check()
    }

    /// [`CappedGrundy::for_each_slab`] as little-endian bytes. Slabs are built a few
    /// at a time in parallel (rayon), on a helper thread while `f` writes the previous
    /// ones. Memory: two groups of slabs.
    pub(crate) fn for_each_le_slab<E>(
        &self,
        outside: u16,
        mut f: impl FnMut(&[u8]) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        let columns = self.columns();
        let nx = self.bounds[0] as usize + 1;
        let group = rayon::current_num_threads().clamp(1, 8);
        let build = |first: usize, bufs: &mut Vec<Vec<u8>>| {
            let count = group.min(nx.saturating_sub(first));
            bufs.resize_with(count.max(bufs.len()), Vec::new);
            bufs.truncate(count);
            bufs.par_iter_mut()
                .enumerate()
                .for_each(|(i, buf)| columns.le_slab(first + i, outside, buf));
        };
        let (mut ready, mut spare) = (Vec::new(), Vec::new());
        build(0, &mut ready);
        let mut first = 0;
        while first < nx {
            let next = first + group;
            let written = std::thread::scope(|s| {
                let builder = (next < nx).then(|| s.spawn(|| build(next, &mut spare)));
                let written = ready.iter().try_for_each(|slab| f(slab));
                if let Some(builder) = builder {
                    // A panic while building is a bug: pass it on.
                    if let Err(panic) = builder.join() {
                        std::panic::resume_unwind(panic);
                    }
                }
                written
            });
            written?;
            std::mem::swap(&mut ready, &mut spare);
            first = next;
        }
        Ok(())
    }

    /// True when the box holds no position (never: (0,0,0) is always one).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Every position and its value in lexicographic `(x, y, z)` order.
    pub fn positions(&self) -> impl Iterator<Item = ([u32; 3], u16)> + '_ {
        let [bx, _, bz] = self.bounds;
        (0..=bx).flat_map(move |x| {
            let top = (0..=bz)
                .map(|z| self.column_height(x, z).unwrap_or(0))
                .max()
                .unwrap_or(0);
            (0..=top).flat_map(move |y| {
                (0..=bz).filter_map(move |z| self.get(x, y, z).map(|g| ([x, y, z], g)))
            })
        })
    }

    /// The P-positions (value 0) in lexicographic `(x, y, z)` order.
    pub fn p_positions(&self) -> Vec<[u32; 3]> {
        self.positions()
            .filter(|(_, g)| *g == 0)
            .map(|(p, _)| p)
            .collect()
    }

    /// The largest value in the box.
    pub fn max_value(&self) -> u16 {
        self.values.par_iter().copied().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::solver::MemoSolver;
    use proptest::prelude::*;

    const LIMIT: u64 = 1 << 30;

    fn check_against_memo(game: &CappedGame, bounds: [u32; 3]) {
        let fast = game
            .solve(bounds, LIMIT, &crate::Control::default())
            .unwrap();
        let mut memo = MemoSolver::new(game);
        let mut count = 0;
        for x in 0..=bounds[0] {
            for z in 0..=bounds[2] {
                for y in 0..=bounds[1] {
                    let expect = if game.is_position(&[x, y, z]) {
                        Some(memo.grundy(&[x, y, z]) as u16)
                    } else {
                        None
                    };
                    assert_eq!(
                        fast.get(x, y, z),
                        expect,
                        "{} at ({x},{y},{z})",
                        game.name()
                    );
                    count += usize::from(expect.is_some());
                }
            }
        }
        assert_eq!(fast.len(), count);
        assert_eq!(fast.positions().count(), count);
    }

    #[test]
    fn triangular_k3_box_20_has_3234_positions() {
        let g = CappedGame::triangular(3)
            .unwrap()
            .solve([20, 20, 20], LIMIT, &crate::Control::default())
            .unwrap();
        assert_eq!(g.len(), 3234);
    }

    #[test]
    fn fast_solver_equals_memoised_recursion_on_the_papers_games() {
        check_against_memo(&CappedGame::triangular(3).unwrap(), [12, 12, 12]);
        check_against_memo(&CappedGame::triangular(2).unwrap(), [10, 10, 10]);
        check_against_memo(&CappedGame::triangular(1).unwrap(), [7, 9, 6]);
        check_against_memo(&CappedGame::min_half(), [13, 5, 11]);
        check_against_memo(
            &CappedGame::with_expr("round(sqrt(x+z))").unwrap(),
            [15, 4, 12],
        );
        check_against_memo(
            &CappedGame::with_expr("floor((x+z)**2/5)").unwrap(),
            [6, 20, 6],
        );
        check_against_memo(&CappedGame::with_expr("0").unwrap(), [5, 3, 4]);
        check_against_memo(&CappedGame::triangular(2).unwrap(), [0, 0, 0]);
    }

    #[test]
    fn positions_come_in_lexicographic_order() {
        let g = CappedGame::triangular(2)
            .unwrap()
            .solve([4, 3, 5], LIMIT, &crate::Control::default())
            .unwrap();
        let ps: Vec<[u32; 3]> = g.positions().map(|(p, _)| p).collect();
        let mut sorted = ps.clone();
        sorted.sort();
        assert_eq!(ps, sorted);
        assert_eq!(ps.len(), g.len());
    }

    #[test]
    fn same_values_whatever_the_thread_count() {
        let game = CappedGame::triangular(3).unwrap();
        let solve_with = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| {
                    game.solve([40, 30, 35], LIMIT, &crate::Control::default())
                        .unwrap()
                })
        };
        assert_eq!(solve_with(1).values, solve_with(3).values);
    }

    #[test]
    fn bad_caps_and_big_boxes_are_refused() {
        assert!(CappedGame::triangular(0)
            .unwrap_err()
            .to_string()
            .contains("`k` must be at least 1"));
        let err = CappedGame::with_expr("x - z")
            .unwrap()
            .solve([5, 5, 5], LIMIT, &crate::Control::default())
            .unwrap_err();
        assert!(
            err.to_string().contains("negative (-1) at (x, z) = (0, 1)"),
            "{err}"
        );
        let err = CappedGame::triangular(3)
            .unwrap()
            .solve([3000, 3000, 3000], 2 << 30, &crate::Control::default())
            .unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("GiB") && text.contains("`box`") && text.contains("positions"),
            "{text}"
        );
    }

    #[test]
    fn values_past_u16_are_an_error_not_a_wrap() {
        // With cap 0 and z = 0 the game is one Nim heap: value x.
        let err = solve_capped_fn(
            "nim",
            |_, _| Ok(0),
            [65536, 0, 0],
            Play::default(),
            LIMIT,
            &Control::new(),
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("(65536, 0, 0) exceeds 65535"),
            "{err}"
        );
        let ok = solve_capped_fn(
            "nim",
            |_, _| Ok(0),
            [65535, 0, 0],
            Play::default(),
            LIMIT,
            &Control::new(),
        )
        .unwrap();
        assert_eq!(ok.get(65535, 0, 0), Some(65535));
    }

    /// A capped game whose cap is an arbitrary table (not monotone at all).
    struct TableGame {
        nz: usize,
        table: Vec<u64>,
    }

    impl Game for TableGame {
        fn name(&self) -> String {
            "table".into()
        }
        fn coordinate_names(&self) -> Vec<String> {
            vec!["x".into(), "y".into(), "z".into()]
        }
        fn is_position(&self, p: &[u32]) -> bool {
            u64::from(p[1]) <= self.table[p[0] as usize * self.nz + p[2] as usize]
        }
        fn for_each_option(&self, p: &[u32], f: &mut dyn FnMut(&[u32])) {
            let cap = |x: u32, z: u32| self.table[x as usize * self.nz + z as usize] as u32;
            for t in 0..p[1] {
                f(&[p[0], t, p[2]]);
            }
            for t in 0..p[0] {
                f(&[t, p[1].min(cap(t, p[2])), p[2]]);
            }
            for t in 0..p[2] {
                f(&[p[0], p[1].min(cap(p[0], t)), t]);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn fast_solver_equals_naive_recursion_on_random_tables(
            bx in 0u32..7, by in 0u32..7, bz in 0u32..7,
            seed in proptest::collection::vec(0u64..9, 64),
        ) {
            let nz = bz as usize + 1;
            let table: Vec<u64> = (0..(bx as usize + 1) * nz).map(|i| seed[i % 64]).collect();
            let game = TableGame { nz, table: table.clone() };
            let fast = solve_capped_fn("table", |x, z| Ok(table[x as usize * nz + z as usize]), [bx, by, bz], Play::default(), LIMIT, &Control::new()).unwrap();
            let mut memo = MemoSolver::new(&game);
            for x in 0..=bx { for y in 0..=by { for z in 0..=bz {
                let p = [x, y, z];
                let expect = game.is_position(&p).then(|| memo.grundy(&p) as u16);
                prop_assert_eq!(fast.get(x, y, z), expect);
            }}}
        }

        #[test]
        fn fast_solver_equals_naive_recursion_on_random_expressions(
            a in 0u32..4, b in 0u32..4, c in 0u32..5, k in 1u32..6, form in 0usize..4,
            bx in 0u32..9, by in 0u32..9, bz in 0u32..9,
        ) {
            let src = match form {
                0 => format!("({a}*x + {b}*z + {c})/{k}"),
                1 => format!("min({a}*x, {b}*z + {c})/{k}"),
                2 => format!("max(x - z, z - x, {c}) / {k}"),
                _ => format!("round(sqrt({a}*x + {b}*z + {c}))"),
            };
            let game = CappedGame::with_expr(&src).unwrap();
            let fast = game.solve([bx, by, bz], LIMIT, &crate::Control::default()).unwrap();
            let mut memo = MemoSolver::new(&game);
            for x in 0..=bx { for y in 0..=by { for z in 0..=bz {
                let p = [x, y, z];
                let expect = game.is_position(&p).then(|| memo.grundy(&p) as u16);
                prop_assert_eq!(fast.get(x, y, z), expect, "{} at {:?}", src, p);
            }}}
        }
    }

    /// The tiled solver (`monotone.rs`) against the general one and the recursion,
    /// through the capped game that picks it.
    mod tiled {
        use super::super::*;
        use crate::games::solver::MemoSolver;
        use proptest::prelude::*;

        const LIMIT: u64 = 4 << 30;

        fn solve_monotone(
            name: &str,
            bounds: [u32; 3],
            caps: Vec<u32>,
            limit: u64,
        ) -> Result<CappedGrundy> {
            solve_table(name, bounds, caps, Play::default(), limit, &Control::new())
        }

        fn general(
            name: &str,
            bounds: [u32; 3],
            caps: Vec<u32>,
            limit: u64,
        ) -> Result<CappedGrundy> {
            let (offsets, values) = solve_general(
                name,
                bounds,
                &caps,
                limit,
                Rules::default(),
                &Control::new(),
            )?;
            Ok(CappedGrundy::from_parts(
                name, bounds, caps, offsets, values,
            ))
        }

        fn table(bounds: [u32; 3], cap: impl Fn(u32, u32) -> u64) -> Vec<u32> {
            let mut caps = Vec::new();
            for x in 0..=bounds[0] {
                for z in 0..=bounds[2] {
                    caps.push(cap(x, z).min(u64::from(bounds[1])) as u32);
                }
            }
            caps
        }

        /// The tiled solver and the general one give the same values everywhere.
        fn same_as_general(bounds: [u32; 3], caps: Vec<u32>) {
            let nz = bounds[2] as usize + 1;
            assert!(is_monotone(&caps, nz));
            let fast = solve_monotone("t", bounds, caps.clone(), LIMIT).unwrap();
            let slow = general("t", bounds, caps, LIMIT).unwrap();
            assert_eq!(fast.len(), slow.len());
            for x in 0..=bounds[0] {
                for z in 0..=bounds[2] {
                    for y in 0..=bounds[1] {
                        assert_eq!(fast.get(x, y, z), slow.get(x, y, z), "at ({x},{y},{z})");
                    }
                }
            }
        }

        #[test]
        fn triangular_boxes_across_tile_edges_equal_the_general_solver() {
            // Sides not a multiple of the tile, one below it, several tiles, flat boxes.
            for bounds in [
                [40, 40, 40],
                [15, 9, 33],
                [16, 16, 16],
                [47, 30, 17],
                [0, 9, 40],
                [40, 9, 0],
                [0, 0, 0],
                [70, 0, 5],
            ] {
                same_as_general(bounds, table(bounds, |x, z| u64::from(x + z) / 3));
            }
            let b = [37, 20, 29];
            same_as_general(b, table(b, |x, z| u64::from(x.min(z)) / 2));
        }

        #[test]
        fn triangular_k3_equals_the_memoised_recursion() {
            let game = CappedGame::triangular(3).unwrap();
            let b = [20, 20, 20];
            let fast =
                solve_monotone("t", b, table(b, |x, z| u64::from(x + z) / 3), LIMIT).unwrap();
            let mut memo = MemoSolver::new(&game);
            for ([x, y, z], g) in fast.positions() {
                assert_eq!(u32::from(g), memo.grundy(&[x, y, z]), "at ({x},{y},{z})");
                assert!(game.is_position(&[x, y, z]));
            }
        }

        #[test]
        fn byte_slabs_equal_value_slabs_whatever_the_thread_count() {
            let game = CappedGame::triangular(3).unwrap();
            let solution = crate::games::Solution::Capped(
                game.solve([70, 50, 65], LIMIT, &crate::Control::default())
                    .unwrap(),
            );
            let mut expect = Vec::new();
            solution
                .for_each_slab(|s| {
                    expect.extend(s.iter().flat_map(|v| v.to_le_bytes()));
                    Ok::<(), crate::Error>(())
                })
                .unwrap();
            // y stops at the tallest column, floor((70 + 65) / 3) = 45.
            assert_eq!(expect.len(), 71 * 46 * 66 * 2);
            for threads in [1, 2, 3] {
                let bytes = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
                    .install(|| {
                        let mut bytes = Vec::new();
                        solution
                            .for_each_le_slab(|s| {
                                bytes.extend_from_slice(s);
                                Ok::<(), crate::Error>(())
                            })
                            .unwrap();
                        bytes
                    });
                assert!(bytes == expect, "{threads} threads");
            }
            // A failing writer stops the stream at its first error.
            let mut calls = 0;
            let err = solution.for_each_le_slab(|_| {
                calls += 1;
                Err(crate::Error::invalid_request("disk full"))
            });
            assert!(err.is_err() && calls == 1);
        }

        /// Streaming while solving writes the bytes of the solved box, whatever the thread
        /// count, including boxes of one row of tiles and boxes flat in `x` or `z`.
        #[test]
        fn streamed_slabs_equal_the_solved_box() {
            let game = CappedGame::triangular(3).unwrap();
            for b in [
                [70, 50, 65],
                [15, 9, 80],
                [40, 30, 0],
                [0, 5, 33],
                [33, 200, 40],
            ] {
                let solved = game.solve(b, LIMIT, &crate::Control::default()).unwrap();
                let mut expect = Vec::new();
                solved
                    .for_each_le_slab(u16::MAX, |s| {
                        expect.extend_from_slice(s);
                        Ok::<(), ()>(())
                    })
                    .unwrap();
                let reach = (b[0] + b[2]) / 3;
                let ny = u64::from(reach.min(b[1])) + 1;
                let shape = [u64::from(b[0]) + 1, ny, u64::from(b[2]) + 1];
                assert_eq!(expect.len() as u64, shape.iter().product::<u64>() * 2);
                for threads in [1, 2, 3] {
                    let (mut bytes, mut heard) = (Vec::new(), None);
                    let streamed = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap()
                        .install(|| {
                            game.solve_streamed(
                                b,
                                LIMIT,
                                u16::MAX,
                                |s| {
                                    heard = Some(s);
                                    Ok(())
                                },
                                &mut |s| {
                                    bytes.extend_from_slice(s);
                                    Ok(())
                                },
                                &Control::new(),
                            )
                        })
                        .unwrap();
                    assert_eq!(heard, Some(shape), "{b:?}");
                    assert!(bytes == expect, "{b:?}, {threads} threads");
                    assert_eq!(streamed.positions().count(), solved.positions().count());
                }
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            /// Random monotone tables (running sums of random steps) against the general
            /// solver, on boxes that cross tile edges.
            #[test]
            fn random_monotone_tables_equal_the_general_solver(
                bx in 0u32..40, by in 0u32..30, bz in 0u32..40,
                steps_x in proptest::collection::vec(0u32..3, 40),
                steps_z in proptest::collection::vec(0u32..3, 40),
                bumps in proptest::collection::vec(0u32..2, 64),
            ) {
                // cap(x, z) = f(x) + g(z) + a bump that keeps both directions monotone.
                let f: Vec<u32> = steps_x.iter().scan(0, |a, s| { *a += s; Some(*a) }).collect();
                let g: Vec<u32> = steps_z.iter().scan(0, |a, s| { *a += s; Some(*a) }).collect();
                let b = [bx, by, bz];
                let caps = table(b, |x, z| {
                    let bump = u32::from(x >= 8 && z >= 8) * bumps[((x / 8) * 5 + z / 8) as usize % 64];
                    u64::from(f[x as usize] + g[z as usize] + bump)
                });
                prop_assume!(is_monotone(&caps, bz as usize + 1));
                let fast = solve_monotone("t", b, caps.clone(), LIMIT).unwrap();
                let slow = general("t", b, caps, LIMIT).unwrap();
                for x in 0..=bx { for z in 0..=bz { for y in 0..=by {
                    prop_assert_eq!(fast.get(x, y, z), slow.get(x, y, z), "at ({},{},{})", x, y, z);
                }}}
            }
        }
    }
}
