//! `survey --prove`: every rule a survey finds holding in its box, handed to
//! the prover for every position of the game.
//!
//! The rules are those the report says hold: the shifted nim-sums and nim-sum
//! constants exact in the box (artefacts are not rules), "Grundy = nim-sum"
//! without an exception, and the rules of one's own (`--rule`) without an
//! exception, each within the survey's region (`--where`). A rule the prover
//! cannot take (a game or construct outside linear arithmetic, changed
//! coordinates) gets "not decidable" and why; the survey itself never fails
//! for it. The same claim found twice (a nim-sum 0 by the shift and the
//! constant finders) is proved once.

use super::engine::{Engine, Limits};
use super::{prove, ClaimText, ProofReport, Verdict};
use crate::survey::{GameFamily, ValueReport};
use crate::{Control, Error, Result};
use nimscape_model::claim::Expr;
use nimscape_model::prove::ir::{Formula, Term};
use nimscape_model::prove::{from_claim, Claim, ProofGame, Question};
use nimscape_model::survey::rules::XorRule;
use rayon::prelude::*;

/// What the prover said about one rule of one value.
#[derive(Clone, Debug)]
pub enum ProofOutcome {
    /// Decided, or undecided within the limits: the prover's report.
    Done(Box<ProofReport>),
    /// The rule or the game is outside what the prover takes, and why.
    NotDecidable(String),
    /// The prover stopped with an error (one line).
    Failed(String),
}

/// One rule of one value and its proof.
#[derive(Clone, Debug)]
pub struct SurveyProof {
    /// The finding as the report's rows name it: `shifted nim-sum`, `rule x^y^z`.
    pub finding: String,
    /// The rule as the report writes it: `(x-1)^y^(z-1) = 0`, `grundy = x^y^z`.
    pub rule: String,
    /// Whether the rule is a Grundy formula (else a P-set rule).
    pub grundy: bool,
    /// The outcome.
    pub outcome: ProofOutcome,
    /// Whether the counterexample (if any) lies outside the value's box.
    pub beyond_box: bool,
}

fn point(p: &[u64]) -> String {
    let parts: Vec<String> = p.iter().map(u64::to_string).collect();
    format!("({})", parts.join(", "))
}

impl SurveyProof {
    /// The claim in words: `P iff (x-1)^y^(z-1) = 0`, `grundy = x^y^z`.
    pub fn claim(&self) -> String {
        if self.grundy {
            self.rule.clone()
        } else {
            format!("P iff {}", self.rule)
        }
    }

    /// One word: `proved`, `false`, `undecided`, `not decidable`, `error`.
    pub fn word(&self) -> &'static str {
        match &self.outcome {
            ProofOutcome::Done(r) => r.verdict.word(),
            ProofOutcome::NotDecidable(_) => "not decidable",
            ProofOutcome::Failed(_) => "error",
        }
    }

    /// The counterexample, when the rule is false.
    pub fn counterexample(&self) -> Option<&[u64]> {
        match &self.outcome {
            ProofOutcome::Done(r) => r.counterexample.as_ref().map(|c| c.position.as_slice()),
            _ => None,
        }
    }

    /// The verdict in a few words, for a table cell: `proved for all
    /// positions`, `false beyond the box: smallest counterexample (9, 6, 15)`.
    pub fn short(&self) -> String {
        match &self.outcome {
            ProofOutcome::Done(r) => match r.verdict {
                Verdict::Proved => "proved for all positions".into(),
                Verdict::False => {
                    let at = r
                        .counterexample
                        .as_ref()
                        .map(|c| point(&c.position))
                        .unwrap_or_default();
                    let which = if r.counterexample_is_smallest {
                        "smallest counterexample"
                    } else {
                        "counterexample"
                    };
                    if self.beyond_box {
                        format!("false beyond the box: {which} {at}")
                    } else {
                        format!("false: {which} {at}")
                    }
                }
                Verdict::Undecided => "undecided".into(),
            },
            ProofOutcome::NotDecidable(_) => "not decidable".into(),
            ProofOutcome::Failed(_) => "not proved (error)".into(),
        }
    }

    /// The verdict in full: the short one with the reason, the solver's
    /// confirmation, or the time taken.
    pub fn long(&self) -> String {
        match &self.outcome {
            ProofOutcome::Done(r) => match r.verdict {
                Verdict::Proved => {
                    format!("proved for all positions ({} {:.2} s)", r.engine, r.seconds)
                }
                Verdict::False => {
                    let why = r
                        .counterexample
                        .as_ref()
                        .map(|c| format!(", confirmed by the solver: {}", c.explanation))
                        .unwrap_or_default();
                    format!("{}{why}", self.short())
                }
                Verdict::Undecided => format!(
                    "undecided: {}",
                    r.undecided_because.as_deref().unwrap_or("no answer")
                ),
            },
            ProofOutcome::NotDecidable(why) => format!("not decidable: {why}"),
            ProofOutcome::Failed(why) => format!("not proved: {why}"),
        }
    }
}

/// `XOR_i (p_i + s_i) == c` as a formula.
fn xor_rule(rule: &XorRule, names: &[String]) -> Formula {
    let term = names
        .iter()
        .zip(&rule.shift)
        .map(|(n, &s)| match s {
            0 => Term::var(n),
            s if s > 0 => Term::var(n).add(Term::Const(s)),
            s => Term::var(n).sub(Term::Const(-s)),
        })
        .reduce(|a, b| a.xor(b))
        .unwrap_or(Term::Const(0));
    term.eq(Term::Const(rule.constant))
}

/// A rule to prove, or why it cannot be.
struct Candidate {
    finding: String,
    rule: String,
    grundy: bool,
    claim: std::result::Result<Claim, String>,
}

/// The rules `v` says hold in its box.
fn candidates(v: &ValueReport, parameter: (&str, i64)) -> Vec<Candidate> {
    let names = &v.names;
    let mut out = Vec::new();
    for (finding, search) in [
        ("shifted nim-sum", &v.shifts),
        ("nim-sum constant", &v.constants),
    ] {
        for e in search.iter().flat_map(|s| s.formulas()) {
            out.push(Candidate {
                finding: finding.into(),
                rule: e.rule.formula(names),
                grundy: false,
                claim: Ok(Claim::PSet(xor_rule(&e.rule, names))),
            });
        }
    }
    if let Some(fit) = &v.nim_sum {
        if fit.exceptions == 0 && fit.positions > 0 {
            let xor = names
                .iter()
                .map(|n| Term::var(n))
                .reduce(|a, b| a.xor(b))
                .unwrap_or(Term::Const(0));
            out.push(Candidate {
                finding: "grundy = nim-sum".into(),
                rule: format!("grundy = {}", names.join("^")),
                grundy: true,
                claim: Ok(Claim::Grundy(xor)),
            });
        }
    }
    let vars: Vec<&str> = names.iter().map(String::as_str).collect();
    let params = [parameter];
    for check in v.claims.rules.iter().filter(|c| c.holds()) {
        let claim = Expr::parse(&check.rule, &vars, &params)
            .map_err(|e| e.to_string())
            .and_then(|expr| {
                if expr.is_predicate() {
                    from_claim::predicate(&expr).map(Claim::PSet)
                } else {
                    from_claim::integer(&expr).map(Claim::Grundy)
                }
            });
        out.push(Candidate {
            finding: format!("rule {}", check.rule),
            rule: if check.grundy {
                format!("grundy = {}", check.rule)
            } else {
                check.rule.clone()
            },
            grundy: check.grundy,
            claim,
        });
    }
    out
}

/// One proof to run: a value's game and one claim.
struct Job {
    game: std::sync::Arc<ProofGame>,
    claim: ClaimText,
    key: String,
}

/// Proves every rule the survey found holding, value by value (the result is
/// in the order of `values`). `limits.memory` is shared by the engines running
/// at once.
pub fn prove_survey(
    family: &dyn GameFamily,
    values: &[ValueReport],
    engine: &(dyn Engine + Sync),
    limits: Limits,
    control: &Control,
) -> Result<Vec<Vec<SurveyProof>>> {
    let mut results: Vec<Vec<SurveyProof>> = Vec::with_capacity(values.len());
    let mut jobs: Vec<Job> = Vec::new();
    // Per value and rule: the job's key, or the outcome known without one.
    let mut pending: Vec<Vec<(Candidate, std::result::Result<String, ProofOutcome>)>> =
        Vec::with_capacity(values.len());
    for (index, v) in values.iter().enumerate() {
        let list = candidates(v, (family.parameter(), v.value));
        let mut rows = Vec::with_capacity(list.len());
        if list.is_empty() {
            pending.push(rows);
            continue;
        }
        // Why none of this value's rules can be proved, if so.
        let game = family
            .game(v.value)
            .map_err(|e| e.to_string())
            .and_then(|spec| {
                if v.claims.coords.is_some() {
                    return Err("the rules are written in new coordinates (`coords`); prove them in the game's own with nimscape prove".to_string());
                }
                ProofGame::from_spec(&spec)
            });
        let region = match &v.claims.region {
            None => Ok(None),
            Some(text) => {
                let vars: Vec<&str> = v.names.iter().map(String::as_str).collect();
                Expr::parse_predicate(text, &vars, &[(family.parameter(), v.value)])
                    .map_err(|e| e.to_string())
                    .and_then(|e| from_claim::predicate(&e))
                    .map(Some)
            }
        };
        let game = game.map(std::sync::Arc::new);
        for c in list {
            let claim = match (&game, &region, &c.claim) {
                (Err(why), _, _) | (_, Err(why), _) | (_, _, Err(why)) => {
                    let why = why.clone();
                    rows.push((c, Err(ProofOutcome::NotDecidable(why))));
                    continue;
                }
                (Ok(_), Ok(region), Ok(claim)) => Question {
                    claim: claim.clone(),
                    region: region.clone(),
                },
            };
            let key = format!("{index} {claim:?}");
            if !jobs.iter().any(|j| j.key == key) {
                if let Ok(game) = &game {
                    jobs.push(Job {
                        game: game.clone(),
                        claim: ClaimText {
                            question: claim,
                            text: c.rule.clone(),
                            region: v.claims.region.clone(),
                        },
                        key: key.clone(),
                    });
                }
            }
            rows.push((c, Ok(key)));
        }
        pending.push(rows);
    }
    control.add_total(jobs.len() as u64);
    let at_once = rayon::current_num_threads().clamp(1, jobs.len().max(1)) as u64;
    let limits = Limits {
        memory: limits.memory / at_once,
        ..limits
    };
    let done: Vec<Result<ProofOutcome>> = jobs
        .par_iter()
        .map(|job| {
            control.check()?;
            let outcome = match prove(
                &job.game,
                &job.claim,
                engine,
                limits,
                limits.memory,
                control,
            ) {
                Ok(report) => ProofOutcome::Done(Box::new(report)),
                Err(Error::Cancelled) => return Err(Error::Cancelled),
                Err(e) => ProofOutcome::Failed(nimscape_model::error::one_line(&e.to_string())),
            };
            control.advance(1);
            Ok(outcome)
        })
        .collect();
    control.check()?;
    let mut outcomes = Vec::with_capacity(done.len());
    for d in done {
        outcomes.push(d?);
    }
    for (index, rows) in pending.into_iter().enumerate() {
        let v = &values[index];
        let mut list = Vec::with_capacity(rows.len());
        for (c, outcome) in rows {
            let outcome = match outcome {
                Err(known) => known,
                Ok(key) => {
                    let at = jobs.iter().position(|j| j.key == key).ok_or_else(|| {
                        Error::Unsupported(
                            "internal error of the survey's proofs (please report it): a proof went missing".into(),
                        )
                    })?;
                    outcomes[at].clone()
                }
            };
            let beyond_box = match &outcome {
                ProofOutcome::Done(r) => r.counterexample.as_ref().is_some_and(|c| {
                    c.position
                        .iter()
                        .zip(&v.bounds)
                        .any(|(&p, &b)| p > u64::from(b))
                }),
                _ => false,
            };
            list.push(SurveyProof {
                finding: c.finding,
                rule: c.rule,
                grundy: c.grundy,
                outcome,
                beyond_box,
            });
        }
        results.push(list);
    }
    Ok(results)
}
