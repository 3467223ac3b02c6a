//! `nimscape prove square --theorem NAME`: the square game's theorems of
//! Okubo–Kashiwagi–Niida by name, validated once.

use super::prove::args::{ProveArgs, ProveCase};
use crate::prove::ClaimText;
use crate::{Error, Result};
use nimscape_model::prove::square::{self, CellTheorem, Theorem};
use nimscape_model::prove::{Claim, Question};
use std::time::Duration;

/// One theorem to decide.
pub enum TheoremCase {
    /// Theorem 2.3: a P-set claim about the bar game, decided as every game claim.
    Game(Box<ProveCase>),
    /// A statement about the cells of square boards.
    Cells(Box<CellTheorem>),
}

impl TheoremCase {
    /// The name `--theorem` takes.
    pub fn name(&self) -> &str {
        match self {
            TheoremCase::Game(_) => "criterion",
            TheoremCase::Cells(t) => &t.name,
        }
    }
}

/// What `--theorem` asks for.
pub enum TheoremPlan {
    /// The list of theorems.
    List,
    /// These theorems, each proved on its own.
    Prove {
        /// The theorems, in the list's order.
        cases: Vec<TheoremCase>,
        /// The engine's time limit per question.
        timeout: Duration,
    },
}

/// The bar game's case for Theorem 2.3.
pub(crate) fn criterion_case() -> ProveCase {
    let (formula, text) = square::criterion_claim();
    ProveCase {
        parameter: None,
        game: square::criterion_game(),
        claim: ClaimText {
            question: Question {
                claim: Claim::PSet(formula),
                region: None,
            },
            text: text.to_string(),
            region: None,
        },
    }
}

/// The case for one theorem name.
pub(crate) fn case(name: &str) -> Result<TheoremCase> {
    Ok(match square::theorem(name)? {
        Theorem::Criterion => TheoremCase::Game(Box::new(criterion_case())),
        Theorem::Cells(t) => TheoremCase::Cells(t),
    })
}

/// `None` when the run names no theorem (a game claim); the validated
/// theorems otherwise.
pub fn plan(args: &ProveArgs) -> Result<Option<TheoremPlan>> {
    let is_square = args
        .game
        .as_deref()
        .is_some_and(|g| g.eq_ignore_ascii_case("square"));
    let Some(name) = &args.theorem else {
        if args.variant.is_some() {
            return Err(Error::invalid_parameter("variant", 
                "`variant` states your own version of Theorem 3.4 of the square game: nimscape prove square --theorem decomposition --variant 'centre=t+1'",
            ));
        }
        if is_square {
            return Err(Error::invalid_parameter("theorem", 
                "the square game is proved by theorem: give `theorem` NAME (`theorem` list shows them, e.g. decomposition)",
            ));
        }
        return Ok(None);
    };
    if !is_square {
        return Err(Error::invalid_parameter(
            "theorem",
            "`theorem` names a theorem of the square game: nimscape prove square --theorem NAME",
        ));
    }
    let stray = [
        ("cap", args.cap.is_some()),
        ("param", args.param.is_some()),
        ("k", args.k.is_some()),
        ("heaps", args.heaps.is_some()),
        ("claim", args.claim.is_some()),
        ("grundy", args.grundy.is_some()),
        ("where", args.region.is_some()),
    ];
    if let Some((flag, _)) = stray.iter().find(|(_, given)| *given) {
        return Err(Error::invalid_parameter(flag, format!(
            "`{flag}` does not apply to a theorem of the square game: the theorem states its own claim, for every m"
        )));
    }
    if !(args.timeout > 0.0 && args.timeout <= 1e6) {
        return Err(Error::invalid_parameter(
            "timeout",
            format!(
                "`timeout` {}: give seconds between 0 and 1000000",
                args.timeout
            ),
        ));
    }
    let timeout = Duration::from_secs_f64(args.timeout);
    if let Some(variant) = &args.variant {
        let is_decomposition = matches!(
            square::theorem(&name.to_ascii_lowercase()),
            Ok(Theorem::Cells(t)) if t.name == "decomposition"
        );
        if !is_decomposition {
            return Err(Error::invalid_parameter(
                "variant",
                format!(
                    "`variant` applies to Theorem 3.4 only (`theorem` decomposition), not to '{}'",
                    nimscape_model::error::excerpt(name)
                ),
            ));
        }
        let blocks = square::Blocks::parse(variant)?;
        let theorem = square::decomposition_of(&blocks);
        return Ok(Some(TheoremPlan::Prove {
            cases: vec![TheoremCase::Cells(Box::new(theorem))],
            timeout,
        }));
    }
    let cases = match name.to_ascii_lowercase().as_str() {
        "list" => return Ok(Some(TheoremPlan::List)),
        "all" => square::names()
            .into_iter()
            .map(case)
            .collect::<Result<Vec<_>>>()?,
        other => vec![case(other)?],
    };
    Ok(Some(TheoremPlan::Prove { cases, timeout }))
}
