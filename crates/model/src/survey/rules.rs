//! XOR rules for the P-positions: `P iff XOR_i (p_i + s_i) = c`.
//!
//! Two hypothesis families are rules of this one shape: shifted nim-sums (a
//! shift `s_i` per coordinate, `c = 0`) and nim-sums equal to a constant (no
//! shift, `c` given). Sums are taken on `i64`, so a shifted coordinate may be
//! negative and the XOR is the two's-complement one (`(-1) ^ (-1) = 0`), as
//! the papers' `BitXor` on integers.
//!
//! A rule is *exact in the box* when the positions of the game in the box that
//! satisfy it are exactly its P-positions. Every other rule has exceptions: a
//! P-position that breaks it, or an N-position that satisfies it. The *size* of
//! a position is its largest coordinate; exceptions are ordered by size, then
//! lexicographically, so the first is the counterexample a reader checks by
//! hand. A rule's *threshold* is one more than the size of its largest
//! exception (0 when exact): every position of the box from that size on fits.
//!
//! **Artefacts.** An exact rule's *witnesses* are the P-positions (each
//! satisfies it). A witness is *regular* when every shifted coordinate
//! `p_i + s_i` is `>= 0` and the witness is not the all-zero position (which
//! only says the shifts XOR to `c`). An exact rule with no regular witness is an
//! **artefact**: every P-position it accounts for needs a negative
//! two's-complement value, and on every other line of the box its point lies
//! outside the game or the box, so it agrees with the box without predicting
//! any P-position there. Artefacts are reported apart from formulas.

use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::lines::PLines;
use crate::{Control, Error, Result};

/// A rule `P iff XOR_i (p_i + shift[i]) = constant`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct XorRule {
    /// The shift of each coordinate.
    pub shift: Vec<i64>,
    /// The value the XOR must take.
    pub constant: i64,
}

impl XorRule {
    /// The XOR of the shifted coordinates of `p`.
    pub fn value(&self, p: &[u32]) -> i64 {
        p.iter()
            .zip(&self.shift)
            .fold(0i64, |acc, (&c, &s)| acc ^ (i64::from(c) + s))
    }

    /// Whether `p` satisfies the rule.
    pub fn holds_at(&self, p: &[u32]) -> bool {
        self.value(p) == self.constant
    }

    /// The rule as a formula over `names`: `(x-1)^y^(z-1) = 0`.
    pub fn formula(&self, names: &[String]) -> String {
        let terms: Vec<String> = names
            .iter()
            .zip(&self.shift)
            .map(|(n, &s)| match s {
                0 => n.clone(),
                s if s > 0 => format!("({n}+{s})"),
                s => format!("({n}{s})"),
            })
            .collect();
        format!("{} = {}", terms.join("^"), self.constant)
    }

    /// The order candidates are listed and ties broken in: the smallest total
    /// shift and constant first, then lexicographically.
    fn order_key(&self) -> (i64, Vec<i64>, i64) {
        let size = self.shift.iter().map(|s| s.abs()).sum::<i64>() + self.constant.abs();
        (size, self.shift.clone(), self.constant)
    }
}

/// One exception of a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exception {
    /// The position.
    pub position: Vec<u32>,
    /// `true`: a P-position that breaks the rule; `false`: an N-position that satisfies it.
    pub is_p: bool,
}

/// The order of counterexamples: by the largest coordinate, then lexicographically.
pub fn size_order(p: &[u32]) -> (u32, Vec<u32>) {
    (p.iter().copied().max().unwrap_or(0), p.to_vec())
}

/// How a rule that is not exact fits the box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleFit {
    /// The rule.
    pub rule: XorRule,
    /// P-positions that break it.
    pub p_breaking: u64,
    /// N-positions that satisfy it.
    pub n_satisfying: u64,
    /// One more than the largest exception's size: every position of the box
    /// whose largest coordinate is at least this fits the rule.
    pub threshold: u64,
    /// The smallest exceptions, in size order (the first is the smallest counterexample).
    pub listed: Vec<Exception>,
    /// P-positions of size at least the threshold (each satisfies the rule): the
    /// rule's evidence beyond it. 0 when no position past the threshold
    /// satisfies the rule, which then "holds" there only vacuously.
    pub witnesses_beyond: u64,
}

impl RuleFit {
    /// Every exception.
    pub fn exceptions(&self) -> u64 {
        self.p_breaking + self.n_satisfying
    }
}

/// An exact rule and what supports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactRule {
    /// The rule.
    pub rule: XorRule,
    /// Regular witnesses: P-positions other than 0 whose shifted coordinates are all `>= 0`.
    pub regular: u64,
    /// P-positions that satisfy the rule only through a negative shifted coordinate.
    pub through_negatives: u64,
}

impl ExactRule {
    /// No regular witness: the rule holds only through the box's edge.
    pub fn is_artefact(&self) -> bool {
        self.regular == 0
    }
}

/// What one family of rules says about one box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSearch {
    /// How many rules were tried.
    pub candidates: u64,
    /// The exact rules, formulas and artefacts, in candidate order.
    pub exact: Vec<ExactRule>,
    /// The best rule that is not exact, by threshold, then exceptions, then
    /// candidate order; `None` when a formula (an exact rule that is not an
    /// artefact) holds, or every candidate is exact.
    pub best: Option<RuleFit>,
}

impl RuleSearch {
    /// The exact rules that are not artefacts.
    pub fn formulas(&self) -> impl Iterator<Item = &ExactRule> {
        self.exact.iter().filter(|e| !e.is_artefact())
    }

    /// The exact rules that are artefacts.
    pub fn artefacts(&self) -> impl Iterator<Item = &ExactRule> {
        self.exact.iter().filter(|e| e.is_artefact())
    }
}

/// The most rules one search tries.
pub const MAX_CANDIDATES: u64 = 1_000_000;

/// Every shift in `ranges` (one range per coordinate) with constant 0, or an
/// error naming the count when there are more than [`MAX_CANDIDATES`].
pub fn shift_candidates(ranges: &[std::ops::RangeInclusive<i64>]) -> Result<Vec<XorRule>> {
    let mut count: u64 = 1;
    for r in ranges {
        if r.is_empty() {
            return Err(Error::invalid_parameter(
                "shift",
                format!(
                    "`shift`: the range {}..{} is empty; write the smaller end first",
                    r.start(),
                    r.end()
                ),
            ));
        }
        let n = u64::try_from(r.end() - r.start())
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        count = count.saturating_mul(n);
    }
    if count > MAX_CANDIDATES {
        return Err(Error::invalid_parameter("shift", format!(
            "`shift`: the ranges give {count} shifts to try, more than {MAX_CANDIDATES}; narrow them (e.g. 0..0 for a coordinate)"
        )));
    }
    let mut rules = vec![XorRule {
        shift: Vec::new(),
        constant: 0,
    }];
    for r in ranges {
        rules = rules
            .into_iter()
            .flat_map(|rule| {
                r.clone().map(move |s| {
                    let mut shift = rule.shift.clone();
                    shift.push(s);
                    XorRule { shift, constant: 0 }
                })
            })
            .collect();
    }
    Ok(rules)
}

/// The rules `XOR = c` for every `c` in `range`, for `dims` coordinates.
pub fn constant_candidates(
    dims: usize,
    range: std::ops::RangeInclusive<i64>,
) -> Result<Vec<XorRule>> {
    if range.is_empty() || *range.start() < 0 {
        return Err(Error::invalid_parameter(
            "constant",
            format!(
                "`constant`: {}..{} is not a range of non-negative constants, smaller end first",
                range.start(),
                range.end()
            ),
        ));
    }
    if range.end() - range.start() >= MAX_CANDIDATES as i64 {
        return Err(Error::invalid_parameter(
            "constant",
            format!("`constant`: at most {MAX_CANDIDATES} constants"),
        ));
    }
    Ok(range
        .map(|constant| XorRule {
            shift: vec![0; dims],
            constant,
        })
        .collect())
}

/// `(threshold, exceptions)` packed so that the lexicographic order is the
/// integer order; both saturate, which keeps the order monotone.
fn pack(threshold: u64, exceptions: u64) -> u64 {
    (threshold.min(u64::from(u32::MAX)) << 32) | exceptions.min(u64::from(u32::MAX))
}

/// The rule's point on a segment: the free coordinate that satisfies it, when
/// it lies in the segment.
#[inline]
fn target(rule: &XorRule, axis: usize, seg: &super::lines::Segment<'_>) -> Option<u32> {
    let mut x = 0i64;
    for (i, (&f, &s)) in seg.fixed.iter().zip(&rule.shift).enumerate() {
        if i != axis {
            x ^= i64::from(f) + s;
        }
    }
    let t = (x ^ rule.constant) - rule.shift[axis];
    (t >= i64::from(seg.lo) && t <= i64::from(seg.hi)).then_some(t as u32)
}

/// Scans every segment for `rule`'s `(threshold, exceptions)`; `None` once the
/// partial key exceeds `best` (it can then be no best: both only grow).
/// `others(i)` is the XOR of segment `i`'s shifted fixed coordinates.
#[inline(always)]
fn scan_with(
    rule: &XorRule,
    lines: &PLines,
    best: &AtomicU64,
    others: impl Fn(usize) -> i64,
) -> Option<(u64, u64)> {
    let axis_shift = rule.shift[lines.axis];
    let (mut threshold, mut count) = (0u64, 0u64);
    // Largest lines first: a poor rule meets a large exception at once.
    for (k, i) in (0..lines.lo.len()).rev().enumerate() {
        let t = (others(i) ^ rule.constant) - axis_shift;
        let target =
            (t >= i64::from(lines.lo[i]) && t <= i64::from(lines.hi[i])).then_some(t as u32);
        let fixed_max = lines.fixed_max[i];
        let mut hit = false;
        for &q in &lines.p[lines.p_at[i]..lines.p_at[i + 1]] {
            if Some(q) == target {
                hit = true;
            } else {
                count += 1;
                threshold = threshold.max(u64::from(fixed_max.max(q)) + 1);
            }
        }
        if let (Some(t), false) = (target, hit) {
            count += 1;
            threshold = threshold.max(u64::from(fixed_max.max(t)) + 1);
        }
        if k % 32 == 31 && count > 0 && pack(threshold, count) > best.load(Ordering::Relaxed) {
            return None;
        }
    }
    Some((threshold, count))
}

/// [`scan_with`] for `N` coordinates, known at compile time so the XOR unrolls.
fn scan<const N: usize>(rule: &XorRule, lines: &PLines, best: &AtomicU64) -> Option<(u64, u64)> {
    // The free axis' fixed entry is 0: with its shift set to 0 it drops out of the XOR.
    let mut shift = [0i64; N];
    shift.copy_from_slice(&rule.shift);
    shift[lines.axis] = 0;
    scan_with(rule, lines, best, |i| {
        let fixed: &[u32; N] = lines.fixed[i * N..(i + 1) * N]
            .try_into()
            .expect("N coordinates");
        (0..N).fold(0i64, |x, d| x ^ (i64::from(fixed[d]) + shift[d]))
    })
}

/// [`scan`] for the number of coordinates of `lines`.
fn scan_any(rule: &XorRule, lines: &PLines, best: &AtomicU64) -> Option<(u64, u64)> {
    match lines.bounds.len() {
        2 => scan::<2>(rule, lines, best),
        3 => scan::<3>(rule, lines, best),
        4 => scan::<4>(rule, lines, best),
        5 => scan::<5>(rule, lines, best),
        6 => scan::<6>(rule, lines, best),
        dims => scan_with(rule, lines, best, |i| {
            let fixed = &lines.fixed[i * dims..(i + 1) * dims];
            fixed
                .iter()
                .zip(&rule.shift)
                .enumerate()
                .filter(|&(d, _)| d != lines.axis)
                .fold(0i64, |x, (_, (&f, &s))| x ^ (i64::from(f) + s))
        }),
    }
}

/// The counts of `rule`'s exceptions and its `listed` smallest, in size order
/// (a bounded max-heap: the best rule may have an exception on most lines).
fn fit(rule: &XorRule, lines: &PLines, listed: usize) -> RuleFit {
    let mut smallest: BinaryHeap<((u32, Vec<u32>), bool)> = BinaryHeap::new();
    let (mut p_breaking, mut n_satisfying, mut largest) = (0, 0, None::<u32>);
    let mut keep = |seg: &super::lines::Segment<'_>, t: u32, is_p: bool| {
        let size = seg.fixed_max.max(t);
        largest = Some(largest.map_or(size, |l| l.max(size)));
        if listed == 0 {
            return;
        }
        let point = seg.point(lines.axis, t);
        if smallest.len() == listed {
            let ((top_size, top), _) = smallest.peek().expect("a full heap");
            if (size, &point) >= (*top_size, top) {
                return;
            }
            smallest.pop();
        }
        smallest.push(((size, point), is_p));
    };
    for seg in lines.segments() {
        let t = target(rule, lines.axis, &seg);
        let mut hit = false;
        for &q in seg.p {
            if Some(q) == t {
                hit = true;
            } else {
                p_breaking += 1;
                keep(&seg, q, true);
            }
        }
        if let (Some(t), false) = (t, hit) {
            n_satisfying += 1;
            keep(&seg, t, false);
        }
    }
    let mut listed = smallest.into_vec();
    listed.sort_unstable();
    let threshold = largest.map_or(0, |l| u64::from(l) + 1);
    // Past the threshold there is no exception: every P-position there satisfies the rule.
    let witnesses_beyond = lines
        .segments()
        .map(|seg| {
            seg.p
                .iter()
                .filter(|&&q| u64::from(seg.fixed_max.max(q)) >= threshold)
                .count() as u64
        })
        .sum();
    RuleFit {
        rule: rule.clone(),
        p_breaking,
        n_satisfying,
        threshold,
        witnesses_beyond,
        listed: listed
            .into_iter()
            .map(|((_, position), is_p)| Exception { position, is_p })
            .collect(),
    }
}

/// The support of an exact rule.
fn support(rule: &XorRule, lines: &PLines) -> ExactRule {
    let (mut regular, mut through_negatives) = (0, 0);
    for seg in lines.segments() {
        for &q in seg.p {
            let p = seg.point(lines.axis, q);
            let negative = p
                .iter()
                .zip(&rule.shift)
                .any(|(&c, &s)| i64::from(c) + s < 0);
            if negative {
                through_negatives += 1;
            } else if p.iter().any(|&c| c != 0) {
                regular += 1;
            }
        }
    }
    ExactRule {
        rule: rule.clone(),
        regular,
        through_negatives,
    }
}

/// Tries every rule of `candidates` on the box: the exact ones with their
/// support and, when none of them is a formula, the best of the others with its
/// `listed` smallest exceptions.
/// Rules are tried in parallel; the result does not depend on the thread count
/// (pruning only drops rules strictly worse than one already scanned in full).
pub fn search(
    lines: &PLines,
    mut candidates: Vec<XorRule>,
    listed: usize,
    control: &Control,
) -> Result<RuleSearch> {
    let dims = lines.bounds.len();
    if let Some(bad) = candidates.iter().find(|r| r.shift.len() != dims) {
        return Err(Error::invalid_request(format!(
            "a rule with {} shifts for a game of {dims} coordinates",
            bad.shift.len()
        )));
    }
    candidates.sort_by_key(XorRule::order_key);
    candidates.dedup();
    // First the exact rules: a bound of 0 stops every other rule within a few
    // segments of its first exception (a box of fewer segments than the check's
    // stride is scanned whole: exact means no exception, not "not stopped").
    let none_inexact = AtomicU64::new(0);
    let is_exact: Vec<bool> = candidates
        .par_iter()
        .map(|rule| {
            !control.is_cancelled() && matches!(scan_any(rule, lines, &none_inexact), Some((_, 0)))
        })
        .collect();
    control.check()?;
    let exact: Vec<ExactRule> = candidates
        .iter()
        .zip(&is_exact)
        .filter(|(_, &e)| e)
        .map(|(rule, _)| support(rule, lines))
        .collect();
    // The best failing rule only matters when no formula holds: each failing
    // rule is scanned until it is worse than the best so far.
    let winner = if exact.iter().any(|e| !e.is_artefact()) {
        None
    } else {
        let best = AtomicU64::new(u64::MAX);
        let scanned: Vec<Option<(u64, u64)>> = candidates
            .par_iter()
            .zip(&is_exact)
            .map(|(rule, &exact)| {
                if exact || control.is_cancelled() {
                    return None;
                }
                let result = scan_any(rule, lines, &best);
                if let Some((threshold, count)) = result {
                    best.fetch_min(pack(threshold, count), Ordering::Relaxed);
                }
                result
            })
            .collect();
        control.check()?;
        candidates
            .iter()
            .zip(&scanned)
            .filter_map(|(rule, s)| s.map(|key| (key, rule)))
            // min_by_key keeps the first of equal keys: candidate order breaks ties.
            .min_by_key(|(key, _)| *key)
            .map(|(_, rule)| fit(rule, lines, listed))
    };
    Ok(RuleSearch {
        candidates: candidates.len() as u64,
        exact,
        best: winner,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameBox, GameParams, GameSpec, Solution};

    const LIMIT: u64 = 1 << 30;

    fn solve(name: &str, params: GameParams, b: GameBox) -> Solution {
        GameSpec::from_name(name, &params)
            .unwrap()
            .solve(&b, LIMIT, &crate::Control::default())
            .unwrap()
    }

    fn lines(s: &Solution) -> PLines {
        PLines::from_solution(s, &Control::default()).unwrap()
    }

    /// Every exception of `rule`, position by position, in size order.
    fn brute_exceptions(s: &Solution, rule: &XorRule) -> Vec<(Vec<u32>, bool)> {
        let mut out: Vec<(Vec<u32>, bool)> = s
            .positions()
            .filter(|(p, g)| (*g == 0) != rule.holds_at(p))
            .map(|(p, g)| (p, g == 0))
            .collect();
        out.sort_by_key(|(p, _)| size_order(p));
        out
    }

    /// Checks a search against brute force: every exact rule is exact position by
    /// position, every candidate left out is not, and the best fit's counts,
    /// threshold and exceptions are real and the smallest.
    fn check_search(s: &Solution, candidates: Vec<XorRule>, found: &RuleSearch) {
        let mut best_key = None;
        for rule in &candidates {
            let brute = brute_exceptions(s, rule);
            let listed_exact = found.exact.iter().any(|e| &e.rule == rule);
            assert_eq!(brute.is_empty(), listed_exact, "{rule:?}");
            if !brute.is_empty() {
                let threshold = u64::from(size_order(&brute.last().unwrap().0).0) + 1;
                let key = (threshold, brute.len() as u64);
                if best_key.is_none_or(|b| key < b) {
                    best_key = Some(key);
                }
            }
        }
        match &found.best {
            None if found.formulas().next().is_some() => {}
            None => assert!(best_key.is_none()),
            Some(fit) => {
                assert_eq!(Some((fit.threshold, fit.exceptions())), best_key);
                let brute = brute_exceptions(s, &fit.rule);
                assert_eq!(brute.len() as u64, fit.exceptions());
                for (e, (p, is_p)) in fit.listed.iter().zip(&brute) {
                    assert_eq!((&e.position, e.is_p), (p, *is_p));
                    assert_eq!(s.get(p) == Some(0), e.is_p);
                }
            }
        }
    }

    #[test]
    fn the_triangular_rules_of_the_papers_are_found() {
        // k = 3, 7 (k = 3 mod 4): P iff x^y^z = 0; k = 5, 9 (1 mod 4): (x-1)^y^(z-1) = 0.
        for (k, h) in [(3u32, 0i64), (7, 0), (5, -1), (9, -1)] {
            let s = solve(
                "triangular",
                GameParams {
                    k: Some(k),
                    ..Default::default()
                },
                GameBox::Uniform(24),
            );
            let candidates = shift_candidates(&[-3..=3, 0..=0, -3..=3]).unwrap();
            let found = search(&lines(&s), candidates.clone(), 10, &Control::default()).unwrap();
            let formulas: Vec<&XorRule> = found.formulas().map(|e| &e.rule).collect();
            assert_eq!(
                formulas,
                vec![&XorRule {
                    shift: vec![h, 0, h],
                    constant: 0
                }],
                "k={k}"
            );
            check_search(&s, candidates, &found);
        }
    }

    #[test]
    fn in_a_box_of_a_few_lines_only_the_exact_rules_are_exact() {
        // Two-heap Nim, box 0..7: 8 lines, fewer than the scan's pruning stride.
        let nim = solve(
            "nim",
            GameParams {
                heaps: Some(2),
                ..Default::default()
            },
            GameBox::Uniform(7),
        );
        let c = constant_candidates(2, 0..=15).unwrap();
        let found = search(&lines(&nim), c.clone(), 5, &Control::default()).unwrap();
        let exact: Vec<i64> = found.exact.iter().map(|e| e.rule.constant).collect();
        assert_eq!(exact, [0]);
        check_search(&nim, c, &found);
        let shifts = shift_candidates(&[1..=2, 1..=2]).unwrap();
        let found = search(&lines(&nim), shifts.clone(), 5, &Control::default()).unwrap();
        check_search(&nim, shifts, &found);
    }

    #[test]
    fn min_half_and_nim_are_nim_sums_and_even_k_has_no_rule() {
        let s = solve("min-half", GameParams::default(), GameBox::Uniform(20));
        let found = search(
            &lines(&s),
            shift_candidates(&[-2..=2, 0..=0, -2..=2]).unwrap(),
            5,
            &Control::default(),
        )
        .unwrap();
        assert_eq!(found.formulas().next().unwrap().rule.shift, vec![0, 0, 0]);
        let nim = solve("nim", GameParams::default(), GameBox::Uniform(7));
        let c = constant_candidates(3, 0..=7).unwrap();
        let found = search(&lines(&nim), c.clone(), 5, &Control::default()).unwrap();
        assert_eq!(found.exact.len(), 1);
        assert_eq!(found.exact[0].rule.constant, 0);
        check_search(&nim, c, &found);
        let even = solve(
            "triangular",
            GameParams {
                k: Some(2),
                ..Default::default()
            },
            GameBox::Uniform(10),
        );
        let candidates = shift_candidates(&[-2..=2, -1..=1, -2..=2]).unwrap();
        let found = search(&lines(&even), candidates.clone(), 8, &Control::default()).unwrap();
        assert!(found.exact.is_empty());
        check_search(&even, candidates, &found);
    }

    #[test]
    fn two_complement_artefacts_are_told_from_formulas() {
        // Nim in the box 0..7: (x-8)^(y-8)^z = 0 agrees with x^y^z = 0 on every
        // position (x - 8 and y - 8 are negative with the same low bits), but
        // every P-position it accounts for needs a negative value: an artefact.
        let nim = solve("nim", GameParams::default(), GameBox::Uniform(7));
        let candidates = shift_candidates(&[-8..=8, -8..=8, 0..=0]).unwrap();
        let found = search(&lines(&nim), candidates.clone(), 4, &Control::default()).unwrap();
        let artefacts: Vec<Vec<i64>> = found.artefacts().map(|e| e.rule.shift.clone()).collect();
        assert_eq!(artefacts, vec![vec![-8, -8, 0]]);
        let formulas: Vec<Vec<i64>> = found.formulas().map(|e| e.rule.shift.clone()).collect();
        // x + 8 and y + 8 only add a bit the box never reaches: equal in the box.
        assert_eq!(formulas, vec![vec![0, 0, 0], vec![8, 8, 0]]);
        for e in found.artefacts() {
            assert_eq!(e.regular, 0);
            assert!(e.through_negatives > 0);
            // Brute force: every P-position has a negative shifted coordinate.
            for p in nim
                .p_positions()
                .into_iter()
                .filter(|p| p.iter().any(|&c| c != 0))
            {
                assert!(p
                    .iter()
                    .zip(&e.rule.shift)
                    .any(|(&c, &s)| i64::from(c) + s < 0));
            }
        }
        check_search(&nim, candidates, &found);
    }

    #[test]
    fn the_best_of_failing_rules_is_the_brute_force_best() {
        // min-half is exactly x^y^z = 0 in the box; these rules are not, and the
        // best of them (threshold, then exceptions) is checked against brute force.
        let s = solve("min-half", GameParams::default(), GameBox::Uniform(16));
        let rules = vec![
            XorRule {
                shift: vec![1, 0, 1],
                constant: 0,
            },
            XorRule {
                shift: vec![0, 0, 0],
                constant: 1,
            },
            XorRule {
                shift: vec![2, 0, 2],
                constant: 0,
            },
        ];
        let found = search(&lines(&s), rules.clone(), 50, &Control::default()).unwrap();
        assert!(found.exact.is_empty());
        check_search(&s, rules, &found);
        let best = found.best.unwrap();
        assert!(best.threshold > 0 && !best.listed.is_empty());
    }
}
