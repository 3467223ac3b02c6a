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

use super::expr::{Condition, Expr};
use super::{Family, GameFile};
use crate::control::Ticker;
use crate::games::solver::{box_tuples, describe_box, mex_of_bits, DenseGrundy, WORK_PER_CHECK};
use crate::lang::code::{Ramp, RampProgram, SplitChain, BATCH};
use crate::{Control, Error, Result};
use rayon::prelude::*;

/// Moves the tuple `p` one on, as [`advance`] by 1 without dividing.
#[inline(always)]
fn next_tuple(p: &mut [u32], bounds: &[u32]) {
    for (c, &b) in p.iter_mut().zip(bounds).rev() {
        if *c < b {
            *c += 1;
            return;
        }
        *c = 0;
    }
}

/// Moves the tuple `p` (coordinate `d` in `0..=bounds[d]`, the last fastest)
/// `steps` tuples on; past the box's end it wraps to the start.
fn advance(p: &mut [u32], bounds: &[u32], mut steps: usize) {
    for (c, &b) in p.iter_mut().zip(bounds).rev() {
        if steps == 0 {
            return;
        }
        let sum = *c as usize + steps;
        let base = b as usize + 1;
        *c = (sum % base) as u32;
        steps = sum / base;
    }
}

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
                Error::invalid_request(format!(
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
        let split = SplitInequalities::new(self);
        let split = &split;
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
            // What the inequalities that ignore the last coordinate say about
            // the run of tuples that shares the others (`None`: ask each tuple).
            let mut run: Option<bool> = None;
            for i in start..end {
                for (v, &c) in vars.iter_mut().zip(&p) {
                    *v = i64::from(c);
                }
                if i == start || p.last() == Some(&0) {
                    run = split.run_holds(&vars);
                }
                let quick = match run {
                    Some(false) => Some(false),
                    Some(true) => split.tuple_holds(&vars),
                    None => None,
                };
                if let Some(holds) = quick {
                    if holds {
                        words[(i - start) / 64] |= 1 << (i % 64);
                        count += 1;
                    }
                } else {
                    let broken = self.broken_inequality_i64(&vars).map_err(|e| {
                        Error::invalid_request(format!(
                            "{}: at {}: {e} in 'positions'; the game file's arithmetic must stay within 128-bit fractions",
                            self.name(),
                            show(&p)
                        ))
                    })?;
                    if broken.is_none() {
                        words[(i - start) / 64] |= 1 << (i % 64);
                        count += 1;
                    }
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
        const WORDS: usize = 256;
        let strides = strides(bounds);
        // A `lower` of heap `h` has `p[h]` options: how many such families
        // each heap has, so a position's count is one weighted sum.
        let mut lowers = vec![0u64; bounds.len()];
        let mut takes: Vec<&[usize]> = Vec::new();
        for m in &self.moves {
            match &m.family {
                Family::Lower { heap, .. } => lowers[*heap] += 1,
                Family::Take { heaps } => takes.push(heaps),
            }
        }
        let (lowers, takes) = (&lowers, &takes);
        let per_position = |p: &[u32]| -> u64 {
            let lowered = lowers
                .iter()
                .zip(p)
                .fold(0u64, |sum, (&w, &c)| sum.saturating_add(w * u64::from(c)));
            takes
                .iter()
                .map(|heaps| heaps.iter().map(|&h| u64::from(p[h])).min().unwrap_or(0))
                .fold(lowered, u64::saturating_add)
        };
        // The coordinates by an odometer over each block's tuples, not by
        // dividing every position's index: that was most of the count.
        valid
            .par_chunks(WORDS)
            .enumerate()
            .map(|(block, words)| {
                let mut p: Vec<u32> = strides
                    .iter()
                    .scan(block * WORDS * 64, |rest, &s| {
                        let c = (*rest / s) as u32;
                        *rest %= s;
                        Some(c)
                    })
                    .collect();
                let mut sum = 0u64;
                for &word in words {
                    if word == 0 {
                        advance(&mut p, bounds, 64);
                        continue;
                    }
                    for bit in 0..64 {
                        if word >> bit & 1 == 1 {
                            sum = sum.saturating_add(per_position(&p));
                        }
                        next_tuple(&mut p, bounds);
                    }
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
            return Err(Error::invalid_request(format!(
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
        let mut fast = FastMoves::new(self, bounds, &strides);
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
            let mut small_mex: Option<u32> = None;
            // The fast loop first; where it cannot decide an option (a fraction, an
            // overflow, a move it would refuse), the position is solved again below,
            // option by option, which decides or refuses in its own words.
            let done = {
                let (values_ref, passless_ref) = (&values, &passless);
                let (seen, seen_pass, used, options) =
                    (&mut seen, &mut seen_pass, &mut used, &mut options);
                let pass = self.pass;
                let done = fast.options(&p, idx, &valid);
                // Without a pass, while every value seen is under 64: the
                // values as one word, the mex its first zero.
                if done && !pass {
                    let (mut word, mut high) = (0u64, false);
                    for &oi in &fast.found {
                        let v = values_ref[oi];
                        high |= v >= 64;
                        word |= 1 << (v % 64);
                    }
                    if !high {
                        small_mex = Some(if fast.found.is_empty() {
                            terminal
                        } else {
                            word.trailing_ones()
                        });
                    }
                }
                if done && small_mex.is_none() {
                    for &oi in &fast.found {
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
                    }
                    *options = fast.found.len() as u64;
                }
                done
            };
            if let Some(g) = small_mex {
                ticker.tick(1 + fast.found.len() as u64)?;
                // At most 64: fits.
                values[idx] = g as u16;
                continue;
            }
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
                    Error::invalid_request(format!(
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

/// The inequalities of `positions` split by whether they read the last
/// coordinate, which runs fastest: those that do not are asked once per run
/// of tuples that share the other coordinates. Only an answer the original
/// order would give is given: a run is out only when an inequality broken by
/// it comes before every one that reads the last coordinate; anything the
/// whole-number closures cannot decide is left to the tuple's own check
/// ([`GameFile::broken_inequality_i64`]), which decides or faults in its words.
struct SplitInequalities<'a> {
    /// The inequalities that ignore the last coordinate, in the file's order,
    /// each with whether one that reads it comes earlier.
    run: Vec<(&'a Condition, bool)>,
    /// Those that read it, in the file's order.
    tuple: Vec<&'a Condition>,
}

impl<'a> SplitInequalities<'a> {
    fn new(file: &'a GameFile) -> SplitInequalities<'a> {
        let last = file.heaps.len().checked_sub(1);
        let mut split = SplitInequalities {
            run: Vec::new(),
            tuple: Vec::new(),
        };
        for (_, c) in &file.positions {
            if last.is_some_and(|d| c.reads_compiled(d)) {
                split.tuple.push(c);
            } else {
                split.run.push((c, !split.tuple.is_empty()));
            }
        }
        split
    }

    /// Whether the inequalities that ignore the last coordinate all hold on
    /// `vars` (`Some(false)`: the run is out, whatever the last coordinate).
    #[inline]
    fn run_holds(&self, vars: &[i64]) -> Option<bool> {
        for &(c, after_tuple) in &self.run {
            if !c.holds_whole(vars)? {
                return if after_tuple { None } else { Some(false) };
            }
        }
        Some(true)
    }

    /// Whether those that read it all hold (the others hold).
    #[inline]
    fn tuple_holds(&self, vars: &[i64]) -> Option<bool> {
        for c in &self.tuple {
            if !c.holds_whole(vars)? {
                return Some(false);
            }
        }
        Some(true)
    }
}

/// Words of the bitsets of seen values: every `u16` value and one more word, so
/// the mex of a full set is 65536 (refused as too large), never out of bounds.
const SEEN_WORDS: usize = 1025;

/// An entry of a move's `to` or `then` tuple, prepared for the fast loop.
#[derive(Clone)]
enum Entry<'a> {
    /// The input variable, copied (`x`, `t`).
    Copy(usize),
    /// An expression that reads nothing that changes with `t`: evaluated at the
    /// first `t` of a position only. `cache`: for an entry of a `then` after a
    /// plain family, its slot in the position's cache, shared by every move of
    /// its `[[move]]` table that keeps it fixed (its value is then one of the
    /// position's alone: `lower = [...]` evaluates it once, not once per heap).
    Fixed {
        expr: &'a Expr,
        cache: Option<usize>,
    },
    /// A chain of operations that changes with `t`: its head, up to its first
    /// operand that changes, at the first `t` of a position; its tail at every `t`.
    Split(SplitChain),
    /// Any other expression that changes with `t`: evaluated at every `t`.
    Varying(&'a Expr),
}

impl<'a> Entry<'a> {
    /// `varies[i]`: whether input variable `i` changes with `t`.
    fn of(e: &'a Expr, varies: &[bool], cache: Option<usize>) -> Entry<'a> {
        if let Some(i) = e.compiled_var() {
            return Entry::Copy(i);
        }
        let changes = |i: usize| varies.get(i).copied().unwrap_or(false);
        if (0..varies.len()).any(|i| changes(i) && e.reads_compiled(i)) {
            match e.split_chain(changes) {
                Some(chain) => Entry::Split(chain),
                None => Entry::Varying(e),
            }
        } else {
            Entry::Fixed { expr: e, cache }
        }
    }

    /// Whether the entry's value changes with `t` (given what its inputs do).
    fn varies(&self, varies: &[bool]) -> bool {
        match *self {
            Entry::Copy(i) => varies[i],
            Entry::Fixed { .. } => false,
            Entry::Split(_) | Entry::Varying(_) => true,
        }
    }

    /// What the entry needs once per position and move, on `vars` (the
    /// values of the variables that do not change with `t`): the value of an
    /// entry that does not change, into `value`; a chain's head, into `head`.
    /// `None` when the whole-number program cannot decide it.
    #[inline(always)]
    fn prepare(
        &self,
        vars: &[i64],
        value: &mut i64,
        head: &mut i64,
        cache: &mut PositionCache,
    ) -> Option<()> {
        match self {
            Entry::Copy(i) => *value = vars.get(*i).copied()?,
            Entry::Fixed { expr, cache: None } => *value = expr.eval_whole(vars)?,
            Entry::Fixed {
                expr,
                cache: Some(slot),
            } => *value = cache.get_or(*slot, || expr.eval_whole(vars))?,
            Entry::Split(chain) if chain.has_head() => *head = chain.head(vars)?,
            Entry::Split(_) | Entry::Varying(_) => {}
        }
        Some(())
    }

    /// The entry, which changes with `t`, as a [`RampProgram`], when it is
    /// one whatever the position (`varies[i]`: input `i` changes with `t`).
    fn ramp_program(&self, varies: &[bool]) -> Option<RampProgram> {
        match self {
            Entry::Copy(i) => Some(RampProgram::copy(*i)),
            Entry::Split(chain) => chain.ramp_program(|i| varies.get(i).copied().unwrap_or(false)),
            Entry::Fixed { .. } | Entry::Varying(_) => None,
        }
    }

    /// The values of an entry that changes with `t`, for a batch of `t`:
    /// `vars` the inputs that do not change, `changes` which do and
    /// `columns` their values; into `out` (one per `t`).
    #[inline(always)]
    fn batch(
        &self,
        vars: &[i64],
        changes: &[bool],
        columns: &[[i64; BATCH]],
        head: i64,
        out: &mut [i64],
    ) -> Option<()> {
        let len = out.len();
        match self {
            Entry::Copy(i) => out.copy_from_slice(&columns.get(*i)?[..len]),
            Entry::Split(chain) => {
                if !chain.tail_batch(head, vars, changes, columns, out) {
                    return None;
                }
            }
            Entry::Varying(e) => {
                let mut inputs = [0i64; super::HEAPS_MAX + 1];
                let inputs = inputs.get_mut(..vars.len())?;
                inputs.copy_from_slice(vars);
                for (k, slot) in out.iter_mut().enumerate() {
                    for (i, input) in inputs.iter_mut().enumerate() {
                        if changes[i] {
                            *input = columns[i][k];
                        }
                    }
                    *slot = e.eval_whole(inputs)?;
                }
            }
            // Not in a list of changing entries: never asked.
            Entry::Fixed { .. } => return None,
        }
        Some(())
    }
}

/// The values of `then` entries that are the position's alone, for one
/// position: a slot holds a value while its stamp is the position's.
struct PositionCache {
    stamp: u64,
    slots: Vec<(u64, i64)>,
}

impl PositionCache {
    fn new(slots: usize) -> PositionCache {
        PositionCache {
            stamp: 1,
            slots: vec![(0, 0); slots],
        }
    }

    /// Forgets every value: the next position's begin.
    fn next_position(&mut self) {
        self.stamp += 1;
    }

    #[inline(always)]
    fn get_or(&mut self, slot: usize, compute: impl FnOnce() -> Option<i64>) -> Option<i64> {
        let stamp = self.stamp;
        let entry = self.slots.get_mut(slot)?;
        if entry.0 == stamp {
            return Some(entry.1);
        }
        let value = compute()?;
        *entry = (stamp, value);
        Some(value)
    }
}

/// How the fast loop enumerates a move family's options.
enum Kind {
    /// `lower` with no `to` and no `then`: strides alone.
    PlainLower(usize),
    /// `take` with no `then`: one step of the summed strides per `t`.
    PlainTake { step: usize },
    /// Every entry that changes with `t` a [`Ramp`] of it (sums and
    /// `min`/`max` of one changing value: the six-sided bar's `then`): the
    /// ramps found once per position and move, the options then index
    /// arithmetic along `t`.
    Ramped,
    /// Everything else: entries evaluated.
    General,
}

/// A move family prepared for the fast loop.
struct FastMove<'a> {
    family: &'a Family,
    kind: Kind,
    /// The entries of `to` (empty: the family's own option).
    to: Vec<Entry<'a>>,
    /// The entries of `then` (empty: none).
    then: Vec<Entry<'a>>,
    /// The entries of `to` that change with `t`, by place: all that is
    /// evaluated after a position's first `t`.
    to_varying: Vec<usize>,
    /// The same for `then`.
    then_varying: Vec<usize>,
    /// Which inputs of `then` (the heaps after the family's move, and `t`)
    /// change with `t`.
    then_changes: [bool; super::HEAPS_MAX + 1],
    /// Which coordinates of the option change with `t`.
    out_varies: [bool; super::HEAPS_MAX],
    /// The same, as a list.
    out_varying: Vec<usize>,
    /// For [`Kind::Ramped`]: the entries of `to` and of `then` that change
    /// with `t`, as ramp programs (by place; `None` for the others).
    to_ramps: Vec<Option<RampProgram>>,
    then_ramps: Vec<Option<RampProgram>>,
}

/// The moves of a game file, prepared once per solve for the generic solver's
/// fast loop: options enumerated on `i64` with no allocation; an entry that does
/// not change with `t` computed once per position and move (once per position
/// for a `then` shared by the heaps of `lower = [...]`); a chain of operations
/// that changes with `t` (`min(x6 + x2, x1)` with `x1` lowered) run from the
/// value of its part that does not; the coordinates that do not change with `t`
/// checked and added to the option's index once per position and move; a plain
/// `lower` or `take` (no `to`, no `then`) as index arithmetic alone. It never
/// refuses and never guesses: where it cannot decide an option (an expression the
/// whole-number program cannot decide, a move off the game, not lower, out of
/// the box) it gives up on the position, and the solver enumerates that
/// position again the slow way ([`GameFile::for_each_option`]), which decides
/// or refuses in its own words.
struct FastMoves<'a> {
    moves: Vec<FastMove<'a>>,
    heaps: usize,
    bounds: &'a [u32],
    strides: &'a [usize],
    cache: PositionCache,
    columns: Box<Columns>,
    /// The ramps of the inputs of [`Kind::Ramped`] moves that change: of a
    /// `to` (only `t`), and of a `then`.
    t_ramps: [Ramp; super::HEAPS_MAX + 1],
    u_ramps: [Ramp; super::HEAPS_MAX + 1],
    /// The options of the last position, by tuple index.
    found: Vec<usize>,
}

/// The columns of one batch of `t` ([`BATCH`] values), kept between
/// positions (not zeroed for every position and move).
struct Columns {
    /// The inputs of `to` that change: `t`, at the heaps' count.
    to_columns: [[i64; BATCH]; super::HEAPS_MAX + 1],
    /// The option before `then`, and `t`.
    u_columns: [[i64; BATCH]; super::HEAPS_MAX + 1],
    /// The option.
    out_columns: [[i64; BATCH]; super::HEAPS_MAX],
    /// The option's tuple index.
    index: [usize; BATCH],
}

impl<'a> FastMoves<'a> {
    fn new(file: &'a GameFile, bounds: &'a [u32], strides: &'a [usize]) -> FastMoves<'a> {
        let n = file.heaps.len();
        let tables = file.moves.iter().map(|m| m.table + 1).max().unwrap_or(0);
        let moves = file
            .moves
            .iter()
            .map(|m| {
                // Which of the family's outputs (the heaps and `t`) change with `t`.
                let mut varies = vec![false; n + 1];
                varies[n] = true;
                // The inputs of `to`: the position's heaps, and `t`, which changes.
                let to_inputs = varies.clone();
                let mut to = Vec::new();
                let mut to_varying = Vec::new();
                match &m.family {
                    Family::Lower { heap, to: None } => varies[*heap] = true,
                    Family::Lower {
                        to: Some(exprs), ..
                    } => {
                        let mut inputs = vec![false; n + 1];
                        inputs[n] = true;
                        to = exprs.iter().map(|e| Entry::of(e, &inputs, None)).collect();
                        for (i, (v, e)) in varies.iter_mut().zip(&to).enumerate() {
                            *v = e.varies(&inputs);
                            if *v {
                                to_varying.push(i);
                            }
                        }
                    }
                    Family::Take { heaps } => {
                        for &h in heaps {
                            varies[h] = true;
                        }
                    }
                }
                // After a plain family, a fixed `then` entry reads only heaps the
                // move leaves alone: the position's, whichever heap is lowered.
                let plain = to.is_empty();
                let then: Vec<Entry> = m
                    .then
                    .iter()
                    .flatten()
                    .enumerate()
                    .map(|(j, e)| {
                        let slot = plain.then_some(m.table * super::HEAPS_MAX + j);
                        Entry::of(e, &varies, slot)
                    })
                    .collect();
                let then_varying: Vec<usize> = (0..then.len())
                    .filter(|&j| then[j].varies(&varies))
                    .collect();
                let mut out_varies = [false; super::HEAPS_MAX];
                if then.is_empty() {
                    out_varies[..n].copy_from_slice(&varies[..n]);
                } else {
                    for &j in &then_varying {
                        out_varies[j] = true;
                    }
                }
                let out_varying = (0..n).filter(|&d| out_varies[d]).collect();
                let to_ramps: Vec<Option<RampProgram>> = to
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        to_varying
                            .contains(&i)
                            .then(|| e.ramp_program(&to_inputs))
                            .flatten()
                    })
                    .collect();
                let then_ramps: Vec<Option<RampProgram>> = then
                    .iter()
                    .enumerate()
                    .map(|(j, e)| {
                        then_varying
                            .contains(&j)
                            .then(|| e.ramp_program(&varies))
                            .flatten()
                    })
                    .collect();
                let kind = match (&m.family, to.is_empty(), then.is_empty()) {
                    (&Family::Lower { heap, .. }, true, true) => Kind::PlainLower(heap),
                    (Family::Take { heaps }, _, true) => Kind::PlainTake {
                        step: heaps.iter().map(|&h| strides[h]).sum(),
                    },
                    _ if to_varying.iter().all(|&i| to_ramps[i].is_some())
                        && then_varying.iter().all(|&j| then_ramps[j].is_some()) =>
                    {
                        Kind::Ramped
                    }
                    _ => Kind::General,
                };
                let mut then_changes = [false; super::HEAPS_MAX + 1];
                then_changes[..=n].copy_from_slice(&varies);
                FastMove {
                    family: &m.family,
                    kind,
                    to,
                    then,
                    to_varying,
                    then_varying,
                    then_changes,
                    out_varies,
                    out_varying,
                    to_ramps,
                    then_ramps,
                }
            })
            .collect();
        FastMoves {
            moves,
            heaps: n,
            bounds,
            strides,
            cache: PositionCache::new(tables * super::HEAPS_MAX),
            columns: Box::new(Columns {
                to_columns: [[0; BATCH]; super::HEAPS_MAX + 1],
                u_columns: [[0; BATCH]; super::HEAPS_MAX + 1],
                out_columns: [[0; BATCH]; super::HEAPS_MAX],
                index: [0; BATCH],
            }),
            t_ramps: [Ramp::default(); super::HEAPS_MAX + 1],
            u_ramps: [Ramp::default(); super::HEAPS_MAX + 1],
            found: Vec::new(),
        }
    }

    /// The tuple index of every option of the position `p` (tuple `idx`), in
    /// the file's order of moves, into [`FastMoves::found`]; `false` when it
    /// gave up (the caller then enumerates the position the slow way).
    #[inline]
    fn options(&mut self, p: &[u32], idx: usize, valid: &[u64]) -> bool {
        self.found.clear();
        self.cache.next_position();
        let is_valid = |oi: usize| valid.get(oi / 64).is_some_and(|w| w >> (oi % 64) & 1 == 1);
        let mut vars = [0i64; super::HEAPS_MAX + 1];
        for (v, &c) in vars.iter_mut().zip(p) {
            *v = i64::from(c);
        }
        let Self {
            moves,
            heaps: n,
            bounds,
            strides,
            cache,
            columns,
            t_ramps,
            u_ramps,
            found,
        } = self;
        let mark = &mut |oi: usize| found.push(oi);
        let n = *n;
        for m in moves.iter() {
            match m.kind {
                // Lower a heap: the option is the position with that heap set to t,
                // always in the box and lower; only whether it is a position is asked.
                Kind::PlainLower(heap) => {
                    let stride = strides[heap];
                    let base = idx - p[heap] as usize * stride;
                    for t in 0..p[heap] as usize {
                        let oi = base + t * stride;
                        if !is_valid(oi) {
                            return false;
                        }
                        mark(oi);
                    }
                }
                Kind::PlainTake { step } => {
                    let Family::Take { heaps } = m.family else {
                        return false;
                    };
                    let most = heaps.iter().map(|&h| p[h]).min().unwrap_or(0) as usize;
                    for t in 1..=most {
                        let oi = idx - t * step;
                        if !is_valid(oi) {
                            return false;
                        }
                        mark(oi);
                    }
                }
                Kind::Ramped => {
                    let ramps = (&mut *t_ramps, &mut *u_ramps);
                    if ramped(
                        m, n, &mut vars, bounds, strides, cache, ramps, &is_valid, mark,
                    )
                    .is_none()
                    {
                        return false;
                    }
                }
                Kind::General => {
                    if general(
                        m, n, &mut vars, bounds, strides, cache, columns, &is_valid, mark,
                    )
                    .is_none()
                    {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// The options of a [`Kind::General`] move from the position in `vars`
/// (`vars[n]` is free for `t`), marked; `None` where the fast loop gives up.
/// What does not change with `t` is computed once; what does, for [`BATCH`]
/// values of `t` at a time, each operation of an expression once per batch.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn general(
    m: &FastMove,
    n: usize,
    vars: &mut [i64; super::HEAPS_MAX + 1],
    bounds: &[u32],
    strides: &[usize],
    cache: &mut PositionCache,
    columns: &mut Columns,
    is_valid: &impl Fn(usize) -> bool,
    mark: &mut impl FnMut(usize),
) -> Option<()> {
    let (from, to) = match m.family {
        Family::Lower { heap, .. } => (0, vars[*heap]),
        Family::Take { heaps } => (1, heaps.iter().map(|&h| vars[h]).min().unwrap_or(0) + 1),
    };
    if from >= to {
        return Some(());
    }
    // Once per position and move: the entries that do not change with t, the
    // heads of the chains that do.
    let mut u = [0i64; super::HEAPS_MAX + 1];
    let mut out = [0i64; super::HEAPS_MAX];
    let mut to_heads = [0i64; super::HEAPS_MAX];
    let mut then_heads = [0i64; super::HEAPS_MAX];
    let mut to_changes = [false; super::HEAPS_MAX + 1];
    to_changes[n] = true;
    vars[n] = from;
    if m.to.is_empty() {
        u[..n].copy_from_slice(&vars[..n]);
    } else {
        for ((slot, e), head) in u.iter_mut().zip(&m.to).zip(&mut to_heads) {
            e.prepare(&vars[..=n], slot, head, cache)?;
        }
    }
    if m.then.is_empty() {
        out[..n].copy_from_slice(&u[..n]);
    } else {
        for ((slot, e), head) in out.iter_mut().zip(&m.then).zip(&mut then_heads) {
            e.prepare(&u[..=n], slot, head, cache)?;
        }
    }
    // The coordinates that do not change: in the box, their part of the
    // index, and whether one decides the lexicographic order before any that
    // changes can.
    let mut base = 0usize;
    let mut order_check = [0usize; super::HEAPS_MAX];
    let mut checks = 0;
    let mut decided: Option<bool> = None;
    for d in 0..n {
        if m.out_varies[d] {
            if decided.is_none() {
                order_check[checks] = d;
                checks += 1;
            }
            continue;
        }
        let c = out[d];
        if c < 0 || c > i64::from(bounds[d]) {
            return None;
        }
        base += c as usize * strides[d];
        if decided.is_none() && c != vars[d] {
            decided = Some(c < vars[d]);
        }
    }
    let order_check = &order_check[..checks];
    let lower_by_fixed = decided.unwrap_or(false);
    // Batches of t: the inputs that change as columns, then the entries.
    let Columns {
        to_columns,
        u_columns,
        out_columns,
        index,
    } = columns;
    let mut start = from;
    while start < to {
        let len = (to - start).min(BATCH as i64) as usize;
        for k in 0..len {
            let t = start + k as i64;
            to_columns[n][k] = t;
            u_columns[n][k] = t;
        }
        if m.to.is_empty() {
            match m.family {
                Family::Lower { heap, .. } => {
                    for (k, slot) in u_columns[*heap][..len].iter_mut().enumerate() {
                        *slot = start + k as i64;
                    }
                }
                Family::Take { heaps } => {
                    for &h in heaps {
                        for (k, slot) in u_columns[h][..len].iter_mut().enumerate() {
                            *slot = vars[h] - (start + k as i64);
                        }
                    }
                }
            }
        } else {
            for &i in &m.to_varying {
                m.to[i].batch(
                    &vars[..=n],
                    &to_changes[..=n],
                    to_columns,
                    to_heads[i],
                    &mut u_columns[i][..len],
                )?;
            }
        }
        if m.then.is_empty() {
            for &d in &m.out_varying {
                out_columns[d][..len].copy_from_slice(&u_columns[d][..len]);
            }
        } else {
            for &j in &m.then_varying {
                m.then[j].batch(
                    &u[..=n],
                    &m.then_changes[..=n],
                    u_columns,
                    then_heads[j],
                    &mut out_columns[j][..len],
                )?;
            }
        }
        // In the box, and the index.
        let index = &mut index[..len];
        index.fill(base);
        let mut outside = false;
        for &d in &m.out_varying {
            let (bound, stride) = (i64::from(bounds[d]), strides[d]);
            for (slot, &c) in index.iter_mut().zip(&out_columns[d][..len]) {
                outside |= c < 0 || c > bound;
                *slot = slot.wrapping_add((c as usize).wrapping_mul(stride));
            }
        }
        if outside {
            return None;
        }
        // Lower, on the game's positions: else the slow way.
        for (k, &oi) in index.iter().enumerate() {
            let mut lower = lower_by_fixed;
            for &d in order_check {
                let c = out_columns[d][k];
                if c != vars[d] {
                    lower = c < vars[d];
                    break;
                }
            }
            if !lower || !is_valid(oi) {
                return None;
            }
            mark(oi);
        }
        start += len as i64;
    }
    Some(())
}

/// The options of a [`Kind::Ramped`] move from the position in `vars`
/// (`vars[n]` is free for `t`), marked; `None` where the fast loop gives up.
/// Every coordinate of the option is a [`Ramp`] of `t`, found once per
/// position and move, so `t` runs with no expression evaluated, and each
/// coordinate, monotone in `t`, is in the box for every `t` when it is at
/// both ends. `ramps`: room for the ramps of the inputs of `to` and `then`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn ramped(
    m: &FastMove,
    n: usize,
    vars: &mut [i64; super::HEAPS_MAX + 1],
    bounds: &[u32],
    strides: &[usize],
    cache: &mut PositionCache,
    (to_ramps, u_ramps): (
        &mut [Ramp; super::HEAPS_MAX + 1],
        &mut [Ramp; super::HEAPS_MAX + 1],
    ),
    is_valid: &impl Fn(usize) -> bool,
    mark: &mut impl FnMut(usize),
) -> Option<()> {
    let (from, to) = match m.family {
        Family::Lower { heap, .. } => (0, vars[*heap]),
        Family::Take { heaps } => (1, heaps.iter().map(|&h| vars[h]).min().unwrap_or(0) + 1),
    };
    if from >= to {
        return Some(());
    }
    let last = to - 1;
    let t_ramp = Ramp::line(0, 1, from, last)?;
    let mut u = [0i64; super::HEAPS_MAX + 1];
    let mut out = [0i64; super::HEAPS_MAX];
    let mut head = 0i64;
    vars[n] = from;
    // The ramps of the inputs of `then` that change: after a plain `lower`,
    // `t` for the heap and for `t`; after a `take`, the heaps' values less
    // `t`; after a `to`, its entries.
    u_ramps[n] = t_ramp;
    if m.to.is_empty() {
        u[..n].copy_from_slice(&vars[..n]);
        match m.family {
            Family::Lower { heap, .. } => u_ramps[*heap] = t_ramp,
            Family::Take { heaps } => {
                for &h in heaps {
                    u_ramps[h] = Ramp::line(vars[h], -1, from, last)?;
                }
            }
        }
    } else {
        to_ramps[n] = t_ramp;
        for (i, e) in m.to.iter().enumerate() {
            e.prepare(&vars[..=n], &mut u[i], &mut head, cache)?;
            if let Some(program) = &m.to_ramps[i] {
                u_ramps[i] = program.run(head, &vars[..=n], &to_ramps[..])?;
            }
        }
    }
    // The coordinates that change: each in the box at both ends.
    let mut lines = [Ramp::default(); super::HEAPS_MAX];
    let in_box = |ramp: Ramp, bound: u32| -> Option<Ramp> {
        let (a, b) = (ramp.at(from), ramp.at(last));
        (a.min(b) >= 0 && a.max(b) <= i64::from(bound)).then_some(ramp)
    };
    if m.then.is_empty() {
        out[..n].copy_from_slice(&u[..n]);
        for &d in &m.out_varying {
            lines[d] = in_box(u_ramps[d], bounds[d])?;
        }
    } else {
        for (j, e) in m.then.iter().enumerate() {
            e.prepare(&u[..=n], &mut out[j], &mut head, cache)?;
            if let Some(program) = &m.then_ramps[j] {
                let ramp = program.run(head, &u[..=n], &u_ramps[..])?;
                lines[j] = in_box(ramp, bounds[j])?;
            }
        }
    }
    // The coordinates that do not change: in the box, their part of the
    // index, and whether one decides the lexicographic order before any that
    // changes can.
    let mut base = 0usize;
    let mut order = [(Ramp::default(), 0i64); super::HEAPS_MAX];
    let mut checks = 0;
    let mut decided: Option<bool> = None;
    for d in 0..n {
        if m.out_varies[d] {
            if decided.is_none() {
                order[checks] = (lines[d], vars[d]);
                checks += 1;
            }
            continue;
        }
        let c = out[d];
        if c < 0 || c > i64::from(bounds[d]) {
            return None;
        }
        base += c as usize * strides[d];
        if decided.is_none() && c != vars[d] {
            decided = Some(c < vars[d]);
        }
    }
    let mut order = &order[..checks];
    let mut lower_by_fixed = decided.unwrap_or(false);
    // A coordinate whose comparison with the position's is the same for every
    // `t` (it is monotone: its ends bound it) decides once, not once per
    // option: equal throughout, it is passed; lower throughout, the option is
    // lower; higher throughout, no option is (the first `t` would give up).
    // The loop below compares from the first coordinate that can go either way.
    while let Some(&(ramp, at)) = order.first() {
        let (a, b) = (ramp.at(from), ramp.at(last));
        let (least, most) = (a.min(b), a.max(b));
        if most < at {
            lower_by_fixed = true;
            order = &[];
        } else if least > at {
            return None;
        } else if least == at && most == at {
            order = &order[1..];
        } else {
            break;
        }
    }
    let mut changing = [(Ramp::default(), 0usize); super::HEAPS_MAX];
    for (slot, &d) in changing.iter_mut().zip(&m.out_varying) {
        *slot = (lines[d], strides[d]);
    }
    let changing = &changing[..m.out_varying.len()];
    for t in from..to {
        // In the box (both ends were): no wrap.
        let mut oi = base;
        for (ramp, stride) in changing {
            oi = oi.wrapping_add((ramp.at(t) as usize).wrapping_mul(*stride));
        }
        let mut lower = lower_by_fixed;
        for (ramp, at) in order {
            let c = ramp.at(t);
            if c != *at {
                lower = c < *at;
                break;
            }
        }
        if !lower || !is_valid(oi) {
            return None;
        }
        mark(oi);
    }
    Some(())
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
    Err(Error::invalid_parameter("box", format!(
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every position of the box through the fast loop and the slow
    /// enumeration ([`GameFile::for_each_option`]): where the fast loop
    /// decides, it marks exactly the slow one's options, in its order. How
    /// many positions it decided and how many it gave up on.
    fn fast_against_slow(file: &GameFile, bounds: &[u32]) -> (usize, usize) {
        let total: usize = bounds.iter().map(|&b| b as usize + 1).product();
        let (valid, _) = file.position_bits(bounds, total, &Control::new()).unwrap();
        let strides = strides(bounds);
        let mut fast = FastMoves::new(file, bounds, &strides);
        let (mut decided, mut gave_up) = (0, 0);
        for idx in 0..total {
            if valid[idx / 64] >> (idx % 64) & 1 == 0 {
                continue;
            }
            let p: Vec<u32> = strides
                .iter()
                .zip(bounds)
                .map(|(&s, &b)| ((idx / s) % (b as usize + 1)) as u32)
                .collect();
            if !fast.options(&p, idx, &valid) {
                gave_up += 1;
                continue;
            }
            let marked = fast.found.clone();
            decided += 1;
            let mut slow = Vec::new();
            file.for_each_option(&p, &mut |o, _, _| {
                slow.push(o.iter().zip(&strides).map(|(&c, &s)| c as usize * s).sum());
                Ok(())
            })
            .unwrap();
            assert_eq!(marked, slow, "{} at {p:?}", file.name());
        }
        (decided, gave_up)
    }

    /// The six-sided bar: each heap lowered, then three entries of the shared
    /// `then` change with `t`, each a chain run from its head; the other three
    /// are the position's own, shared by the six moves.
    #[test]
    fn the_six_sided_bar_runs_as_chains_and_shared_entries() {
        let file = super::super::tests::game("six-sided", &[]);
        let bounds = [4u32; 6];
        let strides = strides(&bounds);
        let fast = FastMoves::new(&file, &bounds, &strides);
        for m in &fast.moves {
            assert!(matches!(m.kind, Kind::Ramped), "{}", file.name());
            assert_eq!(m.then_varying.len(), 3);
            for (j, e) in m.then.iter().enumerate() {
                match e {
                    Entry::Split(_) => assert!(m.then_varying.contains(&j)),
                    Entry::Fixed { cache: Some(_), .. } => assert!(!m.then_varying.contains(&j)),
                    _ => panic!("entry {j} of {}: neither a chain nor shared", file.name()),
                }
            }
        }
        let (decided, gave_up) = fast_against_slow(&file, &bounds);
        assert!(decided > 1000 && gave_up == 0, "{decided} {gave_up}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]
        /// Random files (chains cut at every place, closures, copies, shared
        /// `then` tables, `to`, diagonal `take`, batches of t longer than one):
        /// the fast loop marks the slow enumeration's options, and gives up
        /// only on the files with sums that overflow 64 bits.
        #[test]
        fn the_fast_loop_marks_the_slow_enumerations_options(
            n in 2usize..5, pick in proptest::collection::vec(any::<u8>(), 40),
            bound in 2u32..6, long in 0usize..4,
        ) {
            // Heap sums up to 40, so t runs over more than one batch.
            let text = super::super::tests::random_generic_file_within(n, &pick, false, false, 40);
            let file = GameFile::parse("random.toml", &text, &[]).unwrap();
            let mut bounds = vec![bound; n];
            // One long heap: batches of t of more than one BATCH.
            bounds[long % n] = BATCH as u32 + 3;
            let (decided, gave_up) = fast_against_slow(&file, &bounds);
            prop_assert!(decided + gave_up > 0);
            if !text.contains("4611686018427387904") {
                prop_assert_eq!(gave_up, 0, "{}", text);
            }
        }
    }
}
