//! `nimscape prove`: a game and a claim about it, validated once, one case per
//! value of the parameter (`--param k=3..35:4` proves each value on its own).
//!
//! Games: the capped three-heap games (`triangular` with `k`, `min-half`, or
//! `--cap EXPR` linear in `x` and `z`), Nim with 1 to 8 heaps, and game files
//! whose positions and moves are linear. Claims are
//! written in the claim language ([`crate::claim`]): a P-set rule (`--claim`),
//! a Grundy formula (`--grundy`), optionally restricted to a region that moves
//! never leave (`--where`).

use crate::prove::ClaimText;
use crate::{Error, Result};
use nimscape_model::claim::Expr;
use nimscape_model::games::band::Band;
use nimscape_model::games::cap_expr::CapExpr;
use nimscape_model::games::capped::{Cap, CappedGame};
use nimscape_model::prove::from_claim;
use nimscape_model::prove::ir::Term;
use nimscape_model::prove::{Claim, ProofGame, Question};
use std::path::PathBuf;
use std::time::Duration;

pub use args::{ProveArgs, ProveCase, ProvePlan};

pub(super) mod args;

/// The most values one run proves.
const MAX_CASES: usize = 1000;

/// The parameter's values: `NAME=VALUES` as the survey takes them
/// (`k=3..35:4`, `k=1,5,9`), at most [`MAX_CASES`].
fn parse_param(text: &str) -> Result<(String, Vec<i64>)> {
    let (name, values) = super::survey::parse_param(text)?;
    if values.len() > MAX_CASES {
        return Err(Error::invalid_parameter(
            "param",
            format!(
                "`param`: {} values; prove takes at most {MAX_CASES} in one run",
                values.len()
            ),
        ));
    }
    Ok((name, values))
}

fn refused(message: String) -> Error {
    Error::Unsupported(message)
}

/// The game for one value of the parameter.
fn game_of(args: &ProveArgs, param: Option<(&str, i64)>) -> Result<ProofGame> {
    let value_of = |name: &str, fixed: Option<i64>| -> Result<i64> {
        match (param, fixed) {
            (Some((p, v)), None) if p == name => Ok(v),
            (_, Some(v)) => Ok(v),
            _ => Err(Error::invalid_parameter(
                name,
                format!("this game needs `{name}`: give `{name}` N or `param` {name}=VALUES"),
            )),
        }
    };
    match (&args.game, &args.cap) {
        (Some(_), Some(_)) => Err(Error::invalid_parameter("cap", 
            "give a game or `cap`, not both (a cap is its own game)",
        )),
        (None, Some(text)) => {
            let bound: Vec<(&str, i64)> = param.into_iter().collect();
            let cap = CapExpr::parse_with(text, &bound)?;
            let term = cap.to_logic().map_err(refused)?;
            Ok(ProofGame::capped(CappedGame::new(Cap::Expr(cap)), term))
        }
        (Some(game), None) => match game.to_ascii_lowercase().as_str() {
            "triangular" => {
                let k = value_of("k", args.k.map(i64::from))?;
                let k32 = u32::try_from(k).ok().filter(|&k| k >= 1).ok_or_else(|| {
                    Error::invalid_parameter("k", format!("`k` {k}: the divisor must be at least 1"))
                })?;
                let term = Term::var("x").add(Term::var("z")).floor_div(i64::from(k32));
                Ok(ProofGame::capped(CappedGame::triangular(k32)?, term))
            }
            "min-half" => Ok(ProofGame::capped(
                CappedGame::min_half(),
                Term::var("x").min(Term::var("z")).floor_div(2),
            )),
            "nim" => {
                let heaps = value_of("heaps", args.heaps.map(|h| h as i64))?;
                let heaps = usize::try_from(heaps)
                    .ok()
                    .filter(|h| (1..=8).contains(h))
                    .ok_or_else(|| {
                        Error::invalid_parameter("heaps", format!(
                            "`heaps` {heaps}: prove takes Nim with 1 to 8 heaps"
                        ))
                    })?;
                ProofGame::nim(heaps)
            }
            "band-7-1" => ProofGame::band(Band::Example71).map_err(refused),
            "band-7-2" => {
                // The book's Figure 7.14 has k = 1, h = 3 (as `grundy band-7-2`).
                let k = value_of("k", args.k.map(i64::from)).unwrap_or(1);
                let h = value_of("h", args.h.map(i64::from)).unwrap_or(3);
                let k = u32::try_from(k).map_err(|_| {
                    Error::invalid_parameter("k", format!("band-7-2: `k` {k} must be at least 1"))
                })?;
                let h = u32::try_from(h).map_err(|_| {
                    Error::invalid_parameter("h", format!("band-7-2: `h` {h} must be at least 0"))
                })?;
                ProofGame::band(Band::example72(k, h)?).map_err(refused)
            }
            _ if super::grundy::is_game_file(game) => {
                let (shown, text) = super::grundy::read_game_file(std::path::Path::new(game))?;
                let overrides: Vec<(String, i64)> =
                    param.map(|(n, v)| (n.to_string(), v)).into_iter().collect();
                let file = nimscape_model::games::GameFile::parse(&shown, &text, &overrides)?;
                ProofGame::game_file(&std::sync::Arc::new(file)).map_err(refused)
            }
            _ => Err(Error::invalid_request(format!(
                "unknown game '{}' for prove; choose triangular, min-half, nim, band-7-1, band-7-2, square (with --theorem), a game file FILE.toml, or give --cap EXPR",
                crate::error::excerpt(game)
            ))),
        },
        (None, None) => Err(Error::invalid_parameter("cap", 
            "give a game (triangular, min-half, nim, band-7-1, band-7-2) or `cap` EXPR",
        )),
    }
}

/// The claim for one value of the parameter, over the game's heaps.
fn claim_of(args: &ProveArgs, heaps: &[String], param: Option<(&str, i64)>) -> Result<ClaimText> {
    let names: Vec<&str> = heaps.iter().map(String::as_str).collect();
    let bound: Vec<(&str, i64)> = param
        .into_iter()
        .filter(|(n, _)| !names.contains(n))
        .collect();
    let (claim, text) = match (&args.claim, &args.grundy) {
        (Some(text), None) => {
            let expr = Expr::parse_predicate(text, &names, &bound)?;
            (Claim::PSet(from_claim::predicate(&expr).map_err(refused)?), text.clone())
        }
        (None, Some(text)) => {
            let expr = Expr::parse_integer(text, &names, &bound)?;
            (Claim::Grundy(from_claim::integer(&expr).map_err(refused)?), text.clone())
        }
        (Some(_), Some(_)) => {
            return Err(Error::invalid_parameter("claim", 
                "give `claim` (a P-set rule) or `grundy` (a Grundy formula), not both",
            ))
        }
        (None, None) => {
            return Err(Error::invalid_parameter("claim", 
                "give a claim: `claim` '(x-1)^y^(z-1) == 0' (the P-positions) or `grundy` 'x^y^z' (the Grundy values)",
            ))
        }
    };
    let region = match &args.region {
        Some(text) => {
            let expr = Expr::parse_predicate(text, &names, &bound)?;
            Some(from_claim::predicate(&expr).map_err(refused)?)
        }
        None => None,
    };
    Ok(ClaimText {
        question: Question { claim, region },
        text,
        region: args.region.clone(),
    })
}

/// Validates the arguments into one case per parameter value.
pub fn plan(args: &ProveArgs) -> Result<ProvePlan> {
    if !(args.timeout > 0.0 && args.timeout <= 1e6) {
        return Err(Error::invalid_parameter(
            "timeout",
            format!(
                "`timeout` {}: give seconds between 0 and 1000000",
                args.timeout
            ),
        ));
    }
    let values: Vec<Option<(String, i64)>> = match &args.param {
        Some(text) => {
            let (name, values) = parse_param(text)?;
            values
                .into_iter()
                .map(|v| Some((name.clone(), v)))
                .collect()
        }
        None => vec![None],
    };
    let mut cases = Vec::with_capacity(values.len());
    for value in values {
        let param = value.as_ref().map(|(n, v)| (n.as_str(), *v));
        let game = game_of(args, param)?;
        let claim = claim_of(args, game.heaps(), param)?;
        cases.push(ProveCase {
            parameter: value,
            game,
            claim,
        });
    }
    Ok(ProvePlan {
        cases,
        timeout: Duration::from_secs_f64(args.timeout),
    })
}

fn definition() -> &'static clap::Command {
    static DEFINITION: std::sync::LazyLock<clap::Command> = std::sync::LazyLock::new(|| {
        use clap::Args as _;
        clap::Command::new("nimscape")
            .subcommand(ProveArgs::augment_args(clap::Command::new("prove")))
    });
    &DEFINITION
}

/// A `prove` run from `name = value` pairs, validated, with its command line.
pub struct PlannedProve {
    /// The parsed flags (the certificate folder is the front end's business).
    pub args: ProveArgs,
    /// `nimscape prove ...`: the words the command line would run it with.
    pub command_line: String,
}

/// A `prove` run from `name = value` pairs (the flags of `nimscape prove` by
/// their long names, `game` by position), validated by the same definition and
/// plans as the command line before the engine is looked for; `-o` is the front
/// end's business and not a parameter.
pub fn plan_pairs(pairs: &[(String, super::Value)]) -> Result<PlannedProve> {
    use clap::FromArgMatches as _;
    let found = definition()
        .find_subcommand("prove")
        .expect("the prove definition has its subcommand");
    let matches = super::parse_pairs_in(definition(), found, &["prove"], pairs)?;
    super::refuse_control_characters_under(definition(), &matches)?;
    let command_line = super::provenance::command_line(definition(), &matches);
    let (_, inner) = matches
        .subcommand()
        .ok_or_else(|| Error::invalid_request("prove needs its parameters"))?;
    let args = ProveArgs::from_arg_matches(inner).map_err(|e| super::from_clap(&e))?;
    match super::prove_square::plan(&args)? {
        Some(super::prove_square::TheoremPlan::List) => {
            return Err(Error::invalid_parameter(
                "theorem",
                "`theorem` list only lists the theorems; name one (e.g. decomposition) or all",
            ))
        }
        Some(_) => {}
        None => {
            plan(&args)?;
        }
    }
    Ok(PlannedProve { args, command_line })
}

/// One decided case of a run: a parameter value's claim, or a theorem.
pub struct ProvedCase {
    /// `k=5` for a parameter value, the theorem's name when a run proves several.
    pub label: Option<String>,
    /// Proved, false or undecided.
    pub verdict: crate::prove::Verdict,
    /// The one line the command line prints.
    pub summary: String,
    /// The counterexample's values by name (heaps, or the theorem's variables).
    pub counterexample: Option<Vec<(String, u64)>>,
    /// Why the counterexample is one, in a sentence.
    pub explanation: Option<String>,
    /// The certificate's folder, when one was written.
    pub folder: Option<PathBuf>,
    /// The certificate's files.
    pub files: Vec<PathBuf>,
}

/// Writes one file of a certificate.
type WriteFile<'a> = dyn FnMut(&std::path::Path, &str) -> Result<()> + 'a;

/// Writes a certificate's files into a folder, each through the writer it is given.
type CertificateFiles<'a> = dyn FnMut(&std::path::Path, &mut WriteFile<'_>) -> Result<()> + 'a;

/// A decided case's label, certificate folder and files.
type Kept = (Option<String>, Option<PathBuf>, Vec<PathBuf>);

/// Decides every case of a planned run with the engine found on PATH, and
/// writes each certificate into `out` (a folder per parameter value or theorem
/// when there are several) through `write`, which writes one file atomically.
pub fn run(
    planned: &PlannedProve,
    out: Option<&std::path::Path>,
    memory_limit: u64,
    control: &crate::Control,
    write: &mut WriteFile<'_>,
) -> Result<Vec<ProvedCase>> {
    use super::prove_square::{TheoremCase, TheoremPlan};
    use crate::prove::engine::{Limits, Mona};
    use crate::prove::{certificate, square};
    let args = &planned.args;
    let command_line = &planned.command_line;
    let mut decided = Vec::new();
    let mut keep = |label: Option<String>,
                    folder: Option<PathBuf>,
                    write_files: &mut CertificateFiles<'_>|
     -> Result<Kept> {
        let mut files = Vec::new();
        if let Some(dir) = &folder {
            std::fs::create_dir_all(dir).map_err(|e| Error::write_failed(e).at(dir))?;
            write_files(dir, &mut |path, text| {
                write(path, text)?;
                files.push(path.to_path_buf());
                Ok(())
            })?;
        }
        Ok((label, folder, files))
    };
    if let Some(theorems) = super::prove_square::plan(args)? {
        let TheoremPlan::Prove { cases, timeout } = theorems else {
            return Err(Error::invalid_parameter(
                "theorem",
                "`theorem` list only lists the theorems; name one (e.g. decomposition) or all",
            ));
        };
        let engine = Mona::from_path()?;
        let limits = Limits {
            timeout,
            memory: memory_limit,
        };
        let several = cases.len() > 1;
        for case in &cases {
            let label = several.then(|| case.name().to_string());
            let folder = out.map(|dir| match &label {
                Some(name) => dir.join(name),
                None => dir.to_path_buf(),
            });
            match case {
                TheoremCase::Game(game_case) => {
                    let found = crate::prove::prove(
                        &game_case.game,
                        &game_case.claim,
                        &engine,
                        limits,
                        memory_limit,
                        control,
                    )?;
                    let (label, folder, files) = keep(label, folder, &mut |dir, w| {
                        certificate::write(dir, &found, command_line, w)
                    })?;
                    decided.push(game_case_outcome(&found, label, folder, files));
                }
                TheoremCase::Cells(theorem) => {
                    let found = square::prove(theorem, &engine, limits, memory_limit, control)?;
                    let (label, folder, files) = keep(label, folder, &mut |dir, w| {
                        square::write(dir, &found, command_line, w)
                    })?;
                    decided.push(ProvedCase {
                        label,
                        verdict: found.verdict,
                        summary: square::summary(&found),
                        counterexample: found.counterexample.as_ref().map(|c| c.values.clone()),
                        explanation: found.counterexample.as_ref().map(|c| c.explanation.clone()),
                        folder,
                        files,
                    });
                }
            }
        }
        return Ok(decided);
    }
    let plan = plan(args)?;
    let engine = Mona::from_path()?;
    let limits = Limits {
        timeout: plan.timeout,
        memory: memory_limit,
    };
    let several = plan.cases.len() > 1;
    for case in &plan.cases {
        let found = crate::prove::prove(
            &case.game,
            &case.claim,
            &engine,
            limits,
            memory_limit,
            control,
        )?;
        let label = case.parameter.as_ref().map(|(n, v)| format!("{n}={v}"));
        let folder = out.map(|dir| match (&case.parameter, several) {
            (Some((n, v)), true) => dir.join(format!("{n}{v}")),
            _ => dir.to_path_buf(),
        });
        let (label, folder, files) = keep(label, folder, &mut |dir, w| {
            certificate::write(dir, &found, command_line, w)
        })?;
        decided.push(game_case_outcome(&found, label, folder, files));
    }
    Ok(decided)
}

fn game_case_outcome(
    found: &crate::prove::ProofReport,
    label: Option<String>,
    folder: Option<PathBuf>,
    files: Vec<PathBuf>,
) -> ProvedCase {
    ProvedCase {
        label,
        verdict: found.verdict,
        summary: crate::prove::certificate::summary(found),
        counterexample: found.counterexample.as_ref().map(|c| {
            found
                .heaps
                .iter()
                .cloned()
                .zip(c.position.iter().copied())
                .collect()
        }),
        explanation: found.counterexample.as_ref().map(|c| c.explanation.clone()),
        folder,
        files,
    }
}
