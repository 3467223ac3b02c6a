//! The solver of game files: the whole box bottom-up, every move checked.
//!
//! Every option must be a position of the game and come strictly earlier in the
//! lexicographic order of tuples (a well-order on tuples of natural numbers, so
//! such a game always ends), and lie in the box being solved. Then one pass in
//! lexicographic order meets every option before the positions that reach it, and
//! each value is the mex of values already known, a bitset of the options' values.
//! A move that breaks this is refused with the position and the move: solving it
//! anyway would give values of some other game, or no values at all (a loopy game,
//! out of scope here). The positions of the box are found first, in parallel; the
//! values follow, in order, on one thread, so the output is the same whatever the
//! thread count.

use super::expr::Expr;
use super::{Family, GameFile};
use crate::control::Ticker;
use crate::games::solver::{box_tuples, describe_box, mex_of_bits, DenseGrundy, WORK_PER_CHECK};
use crate::{Control, Error, Result};
use rayon::prelude::*;

/// `(3, 4)`.
fn show<T: std::fmt::Display>(p: &[T]) -> String {
    let parts: Vec<String> = p.iter().map(ToString::to_string).collect();
    format!("({})", parts.join(", "))
}

fn strides(bounds: &[u32]) -> Vec<usize> {
    let mut s = vec![1usize; bounds.len()];
    for d in (0..bounds.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * (bounds[d + 1] as usize + 1);
    }
    s
}

/// What hears each option: its coordinates, the move's label and `t`.
pub(super) type OptionSink<'a> = dyn FnMut(&[i128], &str, i128) -> Result<()> + 'a;

impl GameFile {
    /// Calls `f` with every option of position `p` (coordinates as `i128`, maybe
    /// negative when a move's expression makes them so), in the file's order of
    /// moves. `t` runs upwards. An arithmetic fault stops with a message naming the
    /// position and the move.
    pub(super) fn for_each_option(&self, p: &[u32], f: &mut OptionSink<'_>) -> Result<()> {
        // Fixed arrays, not vectors: no allocation per position (at most six
        // heaps and `t`).
        let n = self.heaps.len();
        let mut vars_buf = [0i128; super::HEAPS_MAX + 1];
        let mut u_buf = [0i128; super::HEAPS_MAX + 1];
        let mut out_buf = [0i128; super::HEAPS_MAX];
        for (v, &c) in vars_buf.iter_mut().zip(p) {
            *v = i128::from(c);
        }
        let vars = &mut vars_buf[..=n];
        let u = &mut u_buf[..=n];
        let out = &mut out_buf[..n];
        for m in &self.moves {
            let fault = |t: i128, key: &str, e: super::expr::Fault| {
                Error::invalid(format!(
                    "{}: {} from {} with t = {t}: {e} in its '{key}'; the game file's arithmetic must stay within 128-bit fractions",
                    self.name(),
                    m.label,
                    show(p)
                ))
            };
            let range = match &m.family {
                Family::Lower { heap, .. } => 0..i128::from(p[*heap]),
                Family::Take { heaps } => {
                    1..heaps.iter().map(|&h| i128::from(p[h])).min().unwrap_or(0) + 1
                }
            };
            for t in range {
                vars[n] = t;
                match &m.family {
                    Family::Lower { heap, to: Some(to) } => {
                        let _ = heap;
                        for (slot, e) in u.iter_mut().zip(to) {
                            *slot = e.eval_int(vars).map_err(|e| fault(t, "to", e))?;
                        }
                    }
                    Family::Lower { heap, to: None } => {
                        u[..n].copy_from_slice(&vars[..n]);
                        u[*heap] = t;
                    }
                    Family::Take { heaps } => {
                        u[..n].copy_from_slice(&vars[..n]);
                        for &h in heaps {
                            u[h] -= t;
                        }
                    }
                }
                match &m.then {
                    Some(then) => {
                        u[n] = t;
                        for (slot, e) in out.iter_mut().zip(then) {
                            *slot = e.eval_int(u).map_err(|e| fault(t, "then", e))?;
                        }
                        f(out, &m.label, t)?;
                    }
                    None => f(&u[..n], &m.label, t)?,
                }
            }
        }
        Ok(())
    }

    /// The positions of the box `bounds`, as a bitset over its tuples in C order,
    /// and how many there are. Found in parallel, in blocks whose results are joined
    /// in order (the first fault in that order is the one reported).
    pub(super) fn position_bits(
        &self,
        bounds: &[u32],
        total: usize,
        control: &Control,
    ) -> Result<(Vec<u64>, usize)> {
        const WORDS: usize = 256;
        const PARALLEL_FROM: usize = 1 << 17;
        let strides = strides(bounds);
        let mut bits = vec![0u64; total.div_ceil(64)];
        let block = |(block, words): (usize, &mut [u64])| -> Result<usize> {
            control.check()?;
            let start = block * WORDS * 64;
            let end = (start + words.len() * 64).min(total);
            let mut p: Vec<u32> = strides
                .iter()
                .scan(start, |rest, &s| {
                    let c = (*rest / s) as u32;
                    *rest %= s;
                    Some(c)
                })
                .collect();
            let mut vars = vec![0i64; p.len()];
            let mut count = 0;
            for i in start..end {
                for (v, &c) in vars.iter_mut().zip(&p) {
                    *v = i64::from(c);
                }
                let broken = self.broken_inequality_i64(&vars).map_err(|e| {
                        Error::invalid(format!(
                            "{}: at {}: {e} in 'positions'; the game file's arithmetic must stay within 128-bit fractions",
                            self.name(),
                            show(&p)
                        ))
                    })?;
                if broken.is_none() {
                    words[(i - start) / 64] |= 1 << (i % 64);
                    count += 1;
                }
                // The next tuple: the odometer, last coordinate fastest.
                for d in (0..p.len()).rev() {
                    if p[d] < bounds[d] {
                        p[d] += 1;
                        break;
                    }
                    p[d] = 0;
                }
            }
            Ok(count)
        };
        // Threads pay off from about a hundred thousand tuples; below, starting
        // them costs more.
        let results: Vec<Result<usize>> = if total >= PARALLEL_FROM {
            bits.par_chunks_mut(WORDS).enumerate().map(block).collect()
        } else {
            bits.chunks_mut(WORDS).enumerate().map(block).collect()
        };
        let mut positions = 0;
        for r in results {
            positions += r?;
        }
        Ok((bits, positions))
    }

    /// How many options the solve of the box `bounds` tries: for each position
    /// (a bit of `valid`), `t` runs over `0..x` for a `lower` of heap `x` and over
    /// `1..=min` for a `take`, once per move family. Saturating.
    pub(super) fn option_count(&self, bounds: &[u32], valid: &[u64]) -> u64 {
        let strides = strides(bounds);
        let per_position = |idx: usize| -> u64 {
            let coordinate = |d: usize| ((idx / strides[d]) % (bounds[d] as usize + 1)) as u64;
            self.moves
                .iter()
                .map(|m| match &m.family {
                    Family::Lower { heap, .. } => coordinate(*heap),
                    Family::Take { heaps } => {
                        heaps.iter().map(|&h| coordinate(h)).min().unwrap_or(0)
                    }
                })
                .fold(0u64, u64::saturating_add)
        };
        valid
            .par_iter()
            .enumerate()
            .map(|(w, &word)| {
                let mut bits = word;
                let mut sum = 0u64;
                while bits != 0 {
                    let idx = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    sum = sum.saturating_add(per_position(idx));
                }
                sum
            })
            .reduce(|| 0, u64::saturating_add)
    }

    /// Grundy values of every position of the box `bounds` (coordinate `i` in
    /// `0..=bounds[i]`), by a faster solver when the file is a game nimscape knows
    /// (a capped game, Nim: see `recognise.rs` and [`GameFile::solver_choice`]),
    /// otherwise by [`GameFile::solve_generic`]. The values are the same either way.
    pub fn solve(&self, bounds: &[u32], limit: u64, control: &Control) -> Result<DenseGrundy> {
        match self.solve_known(bounds, limit, control)? {
            Some(solved) => Ok(solved),
            None => self.solve_generic(bounds, limit, control),
        }
    }

    /// Grundy values of every position of the box `bounds` (coordinate `i` in
    /// `0..=bounds[i]`) by the generic solver, whatever the game (the reference the
    /// faster solvers are tested against): with a pass, the values while the pass is still available;
    /// misère, the mex values with a terminal position worth 1 (so a position is P,
    /// a win for the player who moved last, iff its value is 0). Memory (two bytes a
    /// tuple, four with a pass, and a bit) is refused over `limit` before anything
    /// is allocated. Refused, with the position and the move: a move to a tuple
    /// that is not a position, that is not lexicographically smaller, or outside
    /// the box; an arithmetic overflow; a value over 65535.
    pub fn solve_generic(
        &self,
        bounds: &[u32],
        limit: u64,
        control: &Control,
    ) -> Result<DenseGrundy> {
        let n = self.heaps.len();
        if bounds.len() != n {
            return Err(Error::invalid(format!(
                "{}: the box has {} bounds, the game {n} heaps",
                self.name(),
                bounds.len()
            )));
        }
        let what = format!("Grundy values of {}", self.name());
        let per_tuple = if self.pass { 5 } else { 3 };
        let total = box_tuples(&what, bounds, per_tuple, limit)?;
        let strides = strides(bounds);
        // Progress: the tuples while positions are found, then every option tried
        // (one unit per position besides), so the bar moves with the real work.
        control.add_total(total as u64);
        let (valid, positions) = self.position_bits(bounds, total, control)?;
        control.advance(total as u64);
        let options = self.option_count(bounds, &valid);
        check_option_work(&self.name(), bounds, options)?;
        control.add_total(total as u64 + options);

        let terminal = u32::from(self.misere);
        let mut values = vec![0u16; total];
        let mut passless = if self.pass {
            vec![0u16; total]
        } else {
            Vec::new()
        };
        // Every value fits in 65536 bits; only the words a position used are cleared.
        let mut seen: Vec<u64> = vec![0; SEEN_WORDS];
        let mut seen_pass: Vec<u64> = vec![0; SEEN_WORDS];
        let mut used = SEEN_WORDS;
        let mut ticker = Ticker::new(control, WORK_PER_CHECK);
        let mut p = vec![0u32; n];
        let name = self.name();
        let fast = FastMoves::new(self, bounds, &strides);
        for idx in 0..total {
            if idx > 0 {
                for d in (0..n).rev() {
                    if p[d] < bounds[d] {
                        p[d] += 1;
                        break;
                    }
                    p[d] = 0;
                }
            }
            if valid[idx / 64] >> (idx % 64) & 1 == 0 {
                ticker.tick(1)?;
                continue;
            }
            seen[..used].fill(0);
            seen_pass[..used].fill(0);
            used = 0;
            let mut options = 0u64;
            // The fast loop first; where it cannot decide an option (a fraction, an
            // overflow, a move it would refuse), the position is solved again below,
            // option by option, which decides or refuses in its own words.
            let done = {
                let (values_ref, passless_ref) = (&values, &passless);
                let (seen, seen_pass, used, options) =
                    (&mut seen, &mut seen_pass, &mut used, &mut options);
                let pass = self.pass;
                fast.options(&p, idx, &valid, &mut |oi| {
                    let v = passless_or(values_ref, passless_ref, pass, oi);
                    let w = usize::from(v) / 64;
                    seen[w] |= 1 << (v % 64);
                    let mut top = w;
                    if pass {
                        let v = values_ref[oi];
                        let w = usize::from(v) / 64;
                        seen_pass[w] |= 1 << (v % 64);
                        top = top.max(w);
                    }
                    *used = (*used).max(top + 1);
                    *options += 1;
                })
            };
            if !done {
                seen.fill(0);
                seen_pass.fill(0);
                used = SEEN_WORDS;
                options = 0;
            }
            let (values_ref, passless_ref) = (&values, &passless);
            let slow = |f: &mut OptionSink<'_>| {
                if done {
                    Ok(())
                } else {
                    self.for_each_option(&p, f)
                }
            };
            slow(&mut |o, label, t| {
                let refuse = |why: String| {
                    Error::invalid(format!(
                        "{name}: {label} from {} with t = {t} goes to {}, {why}",
                        show(&p),
                        show(o)
                    ))
                };
                let mut oi = 0usize;
                let mut order = std::cmp::Ordering::Equal;
                for (d, &c) in o.iter().enumerate() {
                    if c < 0 {
                        return Err(refuse(format!(
                            "which leaves the game ({} would be negative); a move must land on a position",
                            self.heaps[d]
                        )));
                    }
                    if order == std::cmp::Ordering::Equal {
                        order = c.cmp(&i128::from(p[d]));
                    }
                }
                if order != std::cmp::Ordering::Less {
                    return Err(refuse(
                        "which is not lower (lexicographically) than where it starts; every move must go down so the game ends: loopy games are out of scope".into(),
                    ));
                }
                for (d, &c) in o.iter().enumerate() {
                    if c > i128::from(bounds[d]) {
                        return Err(refuse(format!(
                            "outside the box {} ({} raised); give a `box` that holds every option",
                            describe_box(bounds),
                            self.heaps[d]
                        )));
                    }
                    oi += c as usize * strides[d];
                }
                if valid[oi / 64] >> (oi % 64) & 1 == 0 {
                    let broken = self
                        .broken_inequality(o)
                        .ok()
                        .flatten()
                        .unwrap_or("positions")
                        .to_string();
                    return Err(refuse(format!(
                        "which is not a position of the game (it breaks {broken}); a move must land on a position"
                    )));
                }
                set_bit(
                    &mut seen,
                    passless_or(values_ref, passless_ref, self.pass, oi),
                );
                if self.pass {
                    set_bit(&mut seen_pass, values_ref[oi]);
                }
                options += 1;
                Ok(())
            })?;
            ticker.tick(1 + options)?;
            let too_large = |g: u32| {
                Error::unsupported(format!(
                    "{name}: the Grundy value at {} is {g}, over the 65535 that values are stored in; use a smaller `box`",
                    show(&p)
                ))
            };
            let g = if options == 0 {
                terminal
            } else {
                mex_of_bits(&seen[..used])
            };
            let g16 = u16::try_from(g).map_err(|_| too_large(g))?;
            if self.pass {
                passless[idx] = g16;
                let with_pass = if options == 0 {
                    terminal
                } else {
                    set_bit(&mut seen_pass, g16);
                    used = used.max(usize::from(g16) / 64 + 1);
                    mex_of_bits(&seen_pass[..used])
                };
                values[idx] = u16::try_from(with_pass).map_err(|_| too_large(with_pass))?;
            } else {
                values[idx] = g16;
            }
        }
        ticker.flush()?;
        Ok(DenseGrundy::from_parts(
            self.heaps.clone(),
            bounds.to_vec(),
            values,
            valid,
            positions,
        ))
    }
}

/// Words of the bitsets of seen values: every `u16` value and one more word, so
/// the mex of a full set is 65536 (refused as too large), never out of bounds.
const SEEN_WORDS: usize = 1025;

/// An entry of a move's `to` or `then` tuple, prepared for the fast loop.
#[derive(Clone, Copy)]
enum Entry<'a> {
    /// The input variable, copied (`x`, `t`).
    Copy(usize),
    /// An expression that reads nothing that changes with `t`: evaluated at the
    /// first `t` of a position only.
    Fixed(&'a Expr),
    /// An expression evaluated at every `t`.
    Varying(&'a Expr),
}

impl Entry<'_> {
    /// `varies[i]`: whether input variable `i` changes with `t`.
    fn of<'a>(e: &'a Expr, varies: &[bool]) -> Entry<'a> {
        match e.compiled_var() {
            Some(i) => Entry::Copy(i),
            None if varies
                .iter()
                .enumerate()
                .any(|(i, &v)| v && e.reads_compiled(i)) =>
            {
                Entry::Varying(e)
            }
            None => Entry::Fixed(e),
        }
    }

    /// Whether the entry's value changes with `t` (given what its inputs do).
    fn varies(&self, varies: &[bool]) -> bool {
        match *self {
            Entry::Copy(i) => varies[i],
            Entry::Fixed(_) => false,
            Entry::Varying(_) => true,
        }
    }

    /// The entry's value on `vars`, into `slot`; `false` when the whole-number
    /// program cannot decide it.
    #[inline(always)]
    fn eval(&self, vars: &[i64], slot: &mut i64, first: bool) -> bool {
        match *self {
            Entry::Copy(i) => *slot = vars[i],
            Entry::Fixed(e) if first => match e.eval_whole(vars) {
                Some(v) => *slot = v,
                None => return false,
            },
            Entry::Fixed(_) => {}
            Entry::Varying(e) => match e.eval_whole(vars) {
                Some(v) => *slot = v,
                None => return false,
            },
        }
        true
    }
}

/// A move family prepared for the fast loop.
struct FastMove<'a> {
    family: &'a Family,
    /// The entries of `to` (empty: the family's own option).
    to: Vec<Entry<'a>>,
    /// The entries of `then` (empty: none).
    then: Vec<Entry<'a>>,
    /// The entries of `to` that change with `t`, by place: all that is
    /// evaluated after a position's first `t`.
    to_varying: Vec<(usize, Entry<'a>)>,
    /// The same for `then`.
    then_varying: Vec<(usize, Entry<'a>)>,
}

/// Evaluates `entries` on `vars` into `slots`: all of them at a position's
/// first `t`, then only the `varying` ones; `false` when one is undecided.
#[inline(always)]
fn fill(
    entries: &[Entry],
    varying: &[(usize, Entry)],
    vars: &[i64],
    slots: &mut [i64],
    first: bool,
) -> bool {
    if first {
        for (slot, e) in slots.iter_mut().zip(entries) {
            if !e.eval(vars, slot, true) {
                return false;
            }
        }
    } else {
        for (i, e) in varying {
            if !e.eval(vars, &mut slots[*i], false) {
                return false;
            }
        }
    }
    true
}

/// The moves of a game file, prepared once per solve for the generic solver's
/// fast loop: options enumerated on `i64` with no allocation, an entry that does
/// not change with `t` computed once per position and move, a plain `lower` or
/// `take` (no `to`, no `then`) as index arithmetic alone. It never refuses and
/// never guesses: where it cannot decide an option (an expression the
/// whole-number program cannot decide, a move off the game, not lower, out of
/// the box) it gives up on the position, and the solver enumerates that
/// position again the slow way ([`GameFile::for_each_option`]), which decides
/// or refuses in its own words.
struct FastMoves<'a> {
    moves: Vec<FastMove<'a>>,
    heaps: usize,
    bounds: &'a [u32],
    strides: &'a [usize],
}

impl<'a> FastMoves<'a> {
    fn new(file: &'a GameFile, bounds: &'a [u32], strides: &'a [usize]) -> FastMoves<'a> {
        let n = file.heaps.len();
        let moves = file
            .moves
            .iter()
            .map(|m| {
                // Which of the family's outputs (the heaps and `t`) change with `t`.
                let mut varies = vec![false; n + 1];
                varies[n] = true;
                let mut to = Vec::new();
                let mut to_varying = Vec::new();
                match &m.family {
                    Family::Lower { heap, to: None } => varies[*heap] = true,
                    Family::Lower {
                        to: Some(exprs), ..
                    } => {
                        let mut inputs = vec![false; n + 1];
                        inputs[n] = true;
                        to = exprs.iter().map(|e| Entry::of(e, &inputs)).collect();
                        for (i, (v, e)) in varies.iter_mut().zip(&to).enumerate() {
                            *v = e.varies(&inputs);
                            if *v {
                                to_varying.push((i, *e));
                            }
                        }
                    }
                    Family::Take { heaps } => {
                        for &h in heaps {
                            varies[h] = true;
                        }
                    }
                }
                let then: Vec<Entry> = m
                    .then
                    .iter()
                    .flatten()
                    .map(|e| Entry::of(e, &varies))
                    .collect();
                let then_varying = then
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.varies(&varies))
                    .map(|(i, e)| (i, *e))
                    .collect();
                FastMove {
                    family: &m.family,
                    to,
                    then,
                    to_varying,
                    then_varying,
                }
            })
            .collect();
        FastMoves {
            moves,
            heaps: n,
            bounds,
            strides,
        }
    }

    /// Calls `mark` with the tuple index of every option of the position `p`
    /// (tuple `idx`), in the file's order of moves; `false` when it gave up (some
    /// options may have been marked: the caller starts the position again).
    #[inline]
    fn options(&self, p: &[u32], idx: usize, valid: &[u64], mark: &mut impl FnMut(usize)) -> bool {
        let n = self.heaps;
        let is_valid = |oi: usize| valid[oi / 64] >> (oi % 64) & 1 == 1;
        let mut vars = [0i64; super::HEAPS_MAX + 1];
        for (v, &c) in vars.iter_mut().zip(p) {
            *v = i64::from(c);
        }
        let mut u = [0i64; super::HEAPS_MAX + 1];
        let mut out = [0i64; super::HEAPS_MAX];
        for m in &self.moves {
            match (m.family, m.to.is_empty(), m.then.is_empty()) {
                // Lower a heap: the option is the position with that heap set to t,
                // always in the box and lower; only whether it is a position is asked.
                (&Family::Lower { heap, .. }, true, true) => {
                    let stride = self.strides[heap];
                    let base = idx - p[heap] as usize * stride;
                    for t in 0..p[heap] as usize {
                        let oi = base + t * stride;
                        if !is_valid(oi) {
                            return false;
                        }
                        mark(oi);
                    }
                    continue;
                }
                (Family::Take { heaps }, _, true) => {
                    let step: usize = heaps.iter().map(|&h| self.strides[h]).sum();
                    let most = heaps.iter().map(|&h| p[h]).min().unwrap_or(0) as usize;
                    for t in 1..=most {
                        let oi = idx - t * step;
                        if !is_valid(oi) {
                            return false;
                        }
                        mark(oi);
                    }
                    continue;
                }
                _ => {}
            }
            let (from, to) = match m.family {
                Family::Lower { heap, .. } => (0, i64::from(p[*heap])),
                Family::Take { heaps } => (
                    1,
                    heaps.iter().map(|&h| i64::from(p[h])).min().unwrap_or(0) + 1,
                ),
            };
            u[..n].copy_from_slice(&vars[..n]);
            let mut first = true;
            for t in from..to {
                vars[n] = t;
                match m.family {
                    Family::Lower { heap, .. } if m.to.is_empty() => u[*heap] = t,
                    Family::Lower { .. } => {
                        if !fill(&m.to, &m.to_varying, &vars, &mut u, first) {
                            return false;
                        }
                    }
                    Family::Take { heaps } => {
                        for &h in heaps {
                            u[h] = vars[h] - t;
                        }
                    }
                }
                u[n] = t;
                let o: &[i64] = if m.then.is_empty() {
                    &u[..n]
                } else {
                    if !fill(&m.then, &m.then_varying, &u, &mut out, first) {
                        return false;
                    }
                    &out[..n]
                };
                first = false;
                // On the game's positions, lower, in the box: else the slow way.
                let mut oi = 0usize;
                let mut lower = false;
                let mut equal = true;
                for d in 0..n {
                    let c = o[d];
                    if c < 0 || c > i64::from(self.bounds[d]) {
                        return false;
                    }
                    if equal && c != vars[d] {
                        equal = false;
                        lower = c < vars[d];
                    }
                    oi += c as usize * self.strides[d];
                }
                if !lower || !is_valid(oi) {
                    return false;
                }
                mark(oi);
            }
        }
        true
    }
}

/// The most options a game-file solve may try: about eight hours at the 30 ns an
/// option of interpreted expressions takes. Past it the solve is refused with the
/// count before any value is computed, not left running for days.
pub const MAX_OPTIONS: u64 = 1_000_000_000_000;

/// Nanoseconds an option costs, for the estimate in a refusal (measured on the
/// band of the Miyadera web book: 360 000 options in 12.7 ms, docs/speed.md).
const NANOS_PER_OPTION: u64 = 30;

/// Refuses a solve that would try more than [`MAX_OPTIONS`] options.
fn check_option_work(name: &str, bounds: &[u32], options: u64) -> Result<()> {
    if options <= MAX_OPTIONS {
        return Ok(());
    }
    let seconds = options.saturating_mul(NANOS_PER_OPTION) / 1_000_000_000;
    let time = match seconds {
        s if s >= 2 * 365 * 86_400 => format!("about {} years", s / (365 * 86_400)),
        s if s >= 2 * 86_400 => format!("about {} days", s / 86_400),
        s => format!("about {} hours", s / 3600),
    };
    Err(Error::invalid(format!(
        "{name}: the box {} has {options} options to try ({time} at about {NANOS_PER_OPTION} ns each), over the {MAX_OPTIONS} a solve may take; use a smaller `box`",
        describe_box(bounds)
    )))
}

/// The value of tuple `oi` in the game without a pass.
fn passless_or(values: &[u16], passless: &[u16], pass: bool, oi: usize) -> u16 {
    if pass {
        passless[oi]
    } else {
        values[oi]
    }
}

fn set_bit(bits: &mut Vec<u64>, v: u16) {
    let w = usize::from(v) / 64;
    if w >= bits.len() {
        bits.resize(w + 1, 0);
    }
    bits[w] |= 1 << (v % 64);
}
