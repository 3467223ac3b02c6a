//! `nimscape prove`: a claim about a game decided for every position, by an
//! automata engine, with counterexamples confirmed by the exact solver.
//!
//! The logic, the games' and claims' formulas and the confirmation live in the
//! model ([`nimscape_model::prove`]); here are the engines (separate
//! processes), the order of the questions asked, and the certificates.

pub mod certificate;
pub mod engine;
pub mod square;
pub(crate) mod survey;

use crate::{Control, Error, Result};
use engine::{Engine, Limits, Outcome, Run};
use nimscape_model::prove::heap_sum::{smallest_by_heap_sum, HeapSumSearch};
use nimscape_model::prove::ir::{Formula, Term};
use nimscape_model::prove::mona::Sizes;
use nimscape_model::prove::{
    confirm, smallest_disagreement, Claim, Confirmed, ProofGame, Question,
};
use serde::Serialize;

/// The verdict on a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// True for every position of the game.
    Proved,
    /// False, with a counterexample confirmed by the exact solver.
    False,
    /// Not decided within the time and memory given.
    Undecided,
}

impl Verdict {
    /// The verdict as one word.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Proved => "proved",
            Verdict::False => "false",
            Verdict::Undecided => "undecided",
        }
    }
}

/// One sentence handed to the engine.
#[derive(Clone, Debug, Serialize)]
pub struct Sentence {
    /// What it asks, in words.
    pub purpose: String,
    /// The engine input's file name in a certificate, e.g. `claim.mona`.
    pub file: String,
    /// The engine's input.
    #[serde(skip)]
    pub input: String,
    /// "valid", "counter-example (..)" or "undecided: why".
    pub outcome: String,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The automata sizes the engine reported.
    pub sizes: Sizes,
}

/// Everything known about one claim on one game.
#[derive(Clone, Debug, Serialize)]
pub struct ProofReport {
    /// The game, e.g. `triangular k=3`.
    pub game: String,
    /// The game in words (LaTeX).
    #[serde(skip)]
    pub game_description: String,
    /// The heaps' names.
    pub heaps: Vec<String>,
    /// "P-positions" or "Grundy value".
    pub kind: String,
    /// The claim as written.
    pub claim: String,
    /// The region it is restricted to, as written.
    pub region: Option<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// Why undecided, when it is.
    pub undecided_because: Option<String>,
    /// The smallest counterexample, confirmed by the exact solver.
    pub counterexample: Option<Confirmed>,
    /// Whether the counterexample is the smallest (by the heap sum, then
    /// lexicographically): false only when the engine could not finish the
    /// search for the smallest.
    pub counterexample_is_smallest: bool,
    /// The exact solver's search over every position of bounded heap sum,
    /// when the engine left the claim undecided.
    pub heap_sum_search: Option<HeapSumSearch>,
    /// The engine, e.g. `MONA`.
    pub engine: String,
    /// Its version.
    pub engine_version: String,
    /// The sentences asked, in order.
    pub sentences: Vec<Sentence>,
    /// Total seconds.
    pub seconds: f64,
}

/// The claim as the user wrote it, with its meaning.
pub struct ClaimText {
    /// The claim.
    pub question: Question,
    /// The claim's text, e.g. `x^y^z == 0`.
    pub text: String,
    /// The region's text, if restricted.
    pub region: Option<String>,
}

fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Valid => "valid".into(),
        Outcome::CounterExample(values) => {
            let parts: Vec<String> = values.iter().map(|(n, v)| format!("{n}={v}")).collect();
            format!("counter-example ({})", parts.join(", "))
        }
        Outcome::Undecided(why) => format!("undecided: {why}"),
    }
}

/// The heaps' values of a counter-example, in the heaps' order.
fn position_of(values: &[(String, u128)], heaps: &[String]) -> Result<Vec<u64>> {
    heaps
        .iter()
        .map(|h| {
            values
                .iter()
                .find(|(n, _)| n == h)
                .and_then(|(_, v)| u64::try_from(*v).ok())
                .ok_or_else(|| {
                    Error::Unsupported(format!(
                        "internal error of the prover (please report it): no value of {h} in the engine's counter-example"
                    ))
                })
        })
        .collect()
}

fn show(p: &[u64]) -> String {
    let parts: Vec<String> = p.iter().map(|v| v.to_string()).collect();
    format!("({})", parts.join(", "))
}

/// Tuples of the box in which the solver looks for the smallest
/// counterexample below the engine's (about 2 MB of values per million).
const SMALLEST_CHECK_TUPLES: u64 = 4_000_000;

/// Decides `claim` on `game` with `engine`: the game's well-formedness, the
/// region's closure, then "no violation", and when that fails, the smallest
/// violation, confirmed by the exact solver (`memory_limit` bounds its box).
pub fn prove(
    game: &ProofGame,
    claim: &ClaimText,
    engine: &dyn Engine,
    limits: Limits,
    memory_limit: u64,
    control: &Control,
) -> Result<ProofReport> {
    let start = std::time::Instant::now();
    let heaps = game.heaps().to_vec();
    let mut report = ProofReport {
        game: game.name().to_string(),
        game_description: game.description().to_string(),
        heaps: heaps.clone(),
        kind: match claim.question.claim {
            Claim::PSet(_) => "P-positions".into(),
            Claim::Grundy(_) => "Grundy value".into(),
        },
        claim: claim.text.clone(),
        region: claim.region.clone(),
        verdict: Verdict::Undecided,
        undecided_because: None,
        counterexample: None,
        counterexample_is_smallest: false,
        heap_sum_search: None,
        engine: engine.name().to_string(),
        engine_version: engine.version()?,
        sentences: Vec::new(),
        seconds: 0.0,
    };
    let ext = engine.extension().to_string();
    let mut ask = |report: &mut ProofReport,
                   purpose: &str,
                   file: &str,
                   formula: &Formula,
                   free: &[String]|
     -> Result<Run> {
        let input = engine.input(formula, free)?;
        let run = engine.decide(&input, free, limits, control)?;
        report.sentences.push(Sentence {
            purpose: purpose.to_string(),
            file: format!("{file}.{ext}"),
            input,
            outcome: describe(&run.outcome),
            seconds: run.seconds,
            sizes: run.sizes.clone(),
        });
        Ok(run)
    };
    let finish = |mut report: ProofReport, why: Option<String>| {
        if let Some(why) = why {
            report.verdict = Verdict::Undecided;
            report.undecided_because = Some(why);
        }
        report.seconds = start.elapsed().as_secs_f64();
        report
    };
    if let Some((formula, says)) = game.well_formed() {
        let run = ask(
            &mut report,
            &format!("the game is well defined: {says}"),
            "well-defined",
            formula,
            &heaps,
        )?;
        match run.outcome {
            Outcome::Valid => {}
            Outcome::CounterExample(values) => {
                let p = position_of(&values, &heaps)?;
                return Err(Error::invalid_request(format!(
                    "{}: {says}, but it fails at {} = {}; prove needs a game defined everywhere",
                    game.name(),
                    crate::prove::heaps_tuple(&heaps),
                    show(&p)
                )));
            }
            Outcome::Undecided(why) => return Ok(finish(report, Some(why))),
        }
    }
    let mut with_next = heaps.clone();
    with_next.extend(heaps.iter().map(|h| nimscape_model::prove::next_name(h)));
    if let Some(closed) = claim.question.region_closed(game) {
        let run = ask(
            &mut report,
            "no move leaves the region",
            "region-closed",
            &closed,
            &heaps,
        )?;
        match run.outcome {
            Outcome::Valid => {}
            Outcome::CounterExample(values) => {
                let p = position_of(&values, &heaps)?;
                return Err(Error::invalid_parameter("where", format!(
                    "`where` {}: a move leaves the region from {} = {}; a claim restricted to a region needs a region that moves never leave (e.g. y <= 3 in a capped game)",
                    claim.region.as_deref().unwrap_or(""),
                    crate::prove::heaps_tuple(&heaps),
                    show(&p)
                )));
            }
            Outcome::Undecided(why) => return Ok(finish(report, Some(why))),
        }
    }
    // First the exact solver on the positions of small heap sum: a
    // disagreement there is the smallest counterexample outright (every
    // position before it in the order lies in that box).
    let n = heaps.len() as u32;
    let first_side = game
        .capped_box_side(CAPPED_BOX_POSITIONS)
        .unwrap_or_else(|| first_box_side(n));
    for side in [first_side.min(16), first_side] {
        if let Some(p) = smallest_disagreement(game, &claim.question, side, memory_limit, control)?
        {
            return refuted(
                report,
                game,
                claim,
                p,
                (true, true),
                &mut ask,
                memory_limit,
                control,
                finish,
            );
        }
    }
    let run = ask(
        &mut report,
        "the claim holds: no position breaks it",
        "claim",
        &claim.question.no_violation(game),
        &heaps,
    )?;
    let first = match run.outcome {
        Outcome::Valid => {
            report.verdict = Verdict::Proved;
            return Ok(finish(report, None));
        }
        Outcome::Undecided(why) => {
            // The engine gave up: a capped game's own solver searches every
            // position of heap sum up to far past the first box. A
            // disagreement there is the smallest counterexample (every
            // position before it in the order lies in the search).
            let Some(search) = search_by_heap_sum(game, claim, first_side, memory_limit, control)?
            else {
                return Ok(finish(report, Some(why)));
            };
            report.heap_sum_search = Some(search.clone());
            return match search.counterexample {
                Some(p) => refuted(
                    report,
                    game,
                    claim,
                    p,
                    (true, true),
                    &mut ask,
                    memory_limit,
                    control,
                    finish,
                ),
                None => {
                    let why = format!(
                        "{why}; the exact solver finds no counterexample of heap sum up to {} either",
                        search.max_heap_sum
                    );
                    Ok(finish(report, Some(why)))
                }
            };
        }
        Outcome::CounterExample(values) => position_of(&values, &heaps)?,
    };
    // The smallest counterexample: by the solver when the box of side
    // sum(first) is small enough (every position before it lies in it), else
    // by a search with the engine.
    let side: u64 = first.iter().sum();
    let tuples = (side + 1).checked_pow(n).unwrap_or(u64::MAX);
    if tuples <= SMALLEST_CHECK_TUPLES {
        let found = smallest_disagreement(game, &claim.question, side, memory_limit, control)?
            .ok_or_else(|| {
                internal(format!(
                    "the engine says the claim breaks at {}, but the exact solver finds it right at every position of heap sum up to {side}",
                    show(&first)
                ))
            })?;
        return refuted(
            report,
            game,
            claim,
            found,
            (true, true),
            &mut ask,
            memory_limit,
            control,
            finish,
        );
    }
    let searched = search_smallest(
        game,
        claim,
        &first,
        &mut |report, purpose, file, formula| ask(report, purpose, file, formula, &heaps),
        &mut report,
    )?;
    match searched {
        Some(p) => refuted(
            report,
            game,
            claim,
            p,
            (true, false),
            &mut ask,
            memory_limit,
            control,
            finish,
        ),
        // The search ran out of time: the engine's counterexample, confirmed,
        // without the claim that it is the smallest.
        None => refuted(
            report,
            game,
            claim,
            first,
            (false, false),
            &mut ask,
            memory_limit,
            control,
            finish,
        ),
    }
}

/// Positions of a capped game's search by heap sum after the engine gave up:
/// about three seconds of its general solver, 60 MB of values.
const HEAP_SUM_POSITIONS: u64 = 30_000_000;

/// The search by heap sum of a capped game (see
/// [`nimscape_model::prove::heap_sum`]), from past the heap sum `searched`
/// up to [`HEAP_SUM_POSITIONS`] positions, with a smaller reach while the
/// memory limit refuses it; `None` for other games, or when nothing past
/// `searched` fits.
fn search_by_heap_sum(
    game: &ProofGame,
    claim: &ClaimText,
    searched: u64,
    memory_limit: u64,
    control: &Control,
) -> Result<Option<HeapSumSearch>> {
    let Some(mut reach) = game.heap_sum_reach(searched + 1, HEAP_SUM_POSITIONS) else {
        return Ok(None);
    };
    loop {
        match smallest_by_heap_sum(game, &claim.question, reach, memory_limit, control) {
            Ok(search) => return Ok(Some(search)),
            Err(Error::TooLarge { .. }) if reach * 3 / 4 > searched => reach = reach * 3 / 4,
            Err(Error::TooLarge { .. }) => return Ok(None),
            Err(e) => return Err(e),
        }
    }
}

/// The side of the box the solver searches first: about a quarter million tuples.
fn first_box_side(heaps: u32) -> u64 {
    let mut side = 1u64;
    while (side + 2)
        .checked_pow(heaps)
        .is_some_and(|t| t <= FIRST_BOX_TUPLES)
        && side < 60
    {
        side += 1;
    }
    side
}

/// Positions of a capped game's box searched before asking the engine: its
/// own solver does about ten million a second.
const CAPPED_BOX_POSITIONS: u64 = 8_000_000;

/// Tuples of the box the solver searches before asking the engine.
const FIRST_BOX_TUPLES: u64 = 250_000;

type AskFn<'a> = dyn FnMut(&mut ProofReport, &str, &str, &Formula, &[String]) -> Result<Run> + 'a;

/// The verdict "false" at `p`: the engine checks that `p` breaks the claim,
/// the exact solver confirms it and says why. `smallest`: whether `p` is the
/// smallest counterexample, and whether the solver found it so.
#[allow(clippy::too_many_arguments)]
fn refuted(
    mut report: ProofReport,
    game: &ProofGame,
    claim: &ClaimText,
    p: Vec<u64>,
    smallest: (bool, bool),
    ask: &mut AskFn<'_>,
    memory_limit: u64,
    control: &Control,
    finish: impl Fn(ProofReport, Option<String>) -> ProofReport,
) -> Result<ProofReport> {
    let check = claim.question.violation_at(game, &p)?;
    let run = ask(
        &mut report,
        &format!("{} breaks the claim", show(&p)),
        "counterexample",
        &check,
        &[],
    )?;
    match run.outcome {
        Outcome::Valid | Outcome::Undecided(_) => {}
        Outcome::CounterExample(_) => {
            return Err(internal(format!(
                "the exact solver finds the claim wrong at {}, the engine says it holds there",
                show(&p)
            )))
        }
    }
    let mut confirmed = confirm(game, &claim.question, &p, memory_limit, 0, control)?;
    confirmed.smallest_checked_by_solver = smallest.1;
    report.verdict = Verdict::False;
    report.counterexample = Some(confirmed);
    report.counterexample_is_smallest = smallest.0;
    Ok(finish(report, None))
}

fn internal(message: String) -> Error {
    Error::Unsupported(format!(
        "internal error of the prover (please report it): {message}"
    ))
}

/// A search key of a position (its heap sum, or one heap).
type KeyOf = Box<dyn Fn(&[u64]) -> u64>;

type Ask<'a> = dyn FnMut(&mut ProofReport, &str, &str, &Formula) -> Result<Run> + 'a;

/// Finds the smallest violation with the engine alone: bisection on the heap
/// sum, then on each heap but the last (which the sum then fixes). `None`
/// when a question goes undecided.
fn search_smallest(
    game: &ProofGame,
    claim: &ClaimText,
    first: &[u64],
    ask: &mut Ask<'_>,
    report: &mut ProofReport,
) -> Result<Option<Vec<u64>>> {
    let heaps = game.heaps().to_vec();
    let sum = heaps
        .iter()
        .map(|h| Term::var(h))
        .reduce(|a, b| a.add(b))
        .unwrap_or(Term::Const(0));
    let mut current = first.to_vec();
    let mut fixed: Vec<Formula> = Vec::new();
    let mut asked = 0;
    for level in 0..heaps.len() {
        let (key_term, key_of): (Term, KeyOf) = if level == 0 {
            (sum.clone(), Box::new(|p: &[u64]| p.iter().sum()))
        } else {
            let i = level - 1;
            (Term::var(&heaps[i]), Box::new(move |p: &[u64]| p[i]))
        };
        let (mut lo, mut hi) = (0u64, key_of(&current));
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let bound = i64::try_from(mid).map_err(|_| internal("a bound overflows".into()))?;
            let mut parts = fixed.clone();
            parts.push(key_term.clone().le(Term::Const(bound)));
            asked += 1;
            let run = ask(
                report,
                &format!("search for the smallest: no counterexample with {key_term} <= {mid}"),
                &format!("search-{asked}"),
                &claim.question.no_violation_where(game, Formula::and(parts)),
            )?;
            match run.outcome {
                Outcome::Valid => lo = mid + 1,
                Outcome::CounterExample(values) => {
                    current = position_of(&values, &heaps)?;
                    hi = key_of(&current);
                }
                Outcome::Undecided(_) => return Ok(None),
            }
        }
        let value = i64::try_from(lo).map_err(|_| internal("a bound overflows".into()))?;
        fixed.push(key_term.eq(Term::Const(value)));
    }
    Ok(Some(current))
}

/// `(x, y, z)`.
pub(crate) fn heaps_tuple(heaps: &[String]) -> String {
    format!("({})", heaps.join(", "))
}
