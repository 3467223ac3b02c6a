//! What `nimscape prove` takes (its arguments) and what it decides (one case
//! per parameter value): kept apart from the planning so that the square
//! theorems' planner can build cases without importing the planner.

use crate::prove::ClaimText;
use clap::Args;
use nimscape_model::prove::ProofGame;
use std::path::PathBuf;
use std::time::Duration;

/// Prove a claim about a game for every position (or refute it with the
/// smallest counterexample), by an automata engine (MONA).
#[derive(Debug, Args)]
pub struct ProveArgs {
    /// The game: triangular (with --k or --param k=..), min-half, nim (with --heaps or
    /// --param heaps=..), band-7-1, band-7-2 (with --k, --h or --param), square (with --theorem), or a game file FILE.toml whose
    /// moves are linear (its [params] set with --param); with --cap it is left out.
    #[arg(value_name = "GAME")]
    pub game: Option<String>,
    /// A capped game y <= EXPR, linear in x and z, e.g. 'floor(min(x,z)/k)'.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    pub cap: Option<String>,
    /// A parameter and its values, each proved on its own: k=3..35:4, k=1,5,9.
    #[arg(long, value_name = "NAME=VALUES", allow_hyphen_values = true)]
    pub param: Option<String>,
    /// The triangular game's divisor: y <= floor((x+z)/k).
    #[arg(long, value_name = "K")]
    pub k: Option<u32>,
    /// band-7-2: the band's width (default 3; the slope is --k, default 1).
    #[arg(long, value_name = "H")]
    pub h: Option<u32>,
    /// Nim's number of heaps (1 to 8; named x, y, z for three, else h1, h2, ...).
    #[arg(long, value_name = "N")]
    pub heaps: Option<usize>,
    /// A P-set rule: the P-positions are exactly the positions where it holds,
    /// e.g. '(x-1)^y^(z-1) == 0' (^ is the nim-sum).
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    pub claim: Option<String>,
    /// A Grundy formula: every position's Grundy value is this, e.g. 'x^y^z'.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    pub grundy: Option<String>,
    /// Claim only where this holds, a region moves never leave, e.g. 'y <= 3'.
    #[arg(long = "where", value_name = "EXPR", allow_hyphen_values = true)]
    pub region: Option<String>,
    /// A theorem of the square game by name, proved for every m: criterion,
    /// symmetry, diagonals, doubling, decomposition, count-doubling, count-odd
    /// (or by the paper's number, 2.3 to 3.4); `all` proves each, `list` lists them.
    #[arg(long, value_name = "NAME")]
    pub theorem: Option<String>,
    /// With --theorem decomposition: your own version of Theorem 3.4, the blocks
    /// changed, e.g. 'centre=t+1' or 'corners=s, edges=full' (centre=EXPR and
    /// corners=EXPR in m, p = 2^(k+1), s, t; edges=empty|full).
    #[arg(long, value_name = "BLOCKS", allow_hyphen_values = true)]
    pub variant: Option<String>,
    /// Seconds the engine may take on one question before the verdict is "undecided".
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Write the certificate into this folder: the engine's inputs, report.md,
    /// report.json, theorem.tex (one folder per parameter value when there are several).
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
}

/// One game and claim to decide.
pub struct ProveCase {
    /// The parameter's name and value, when the run has one.
    pub parameter: Option<(String, i64)>,
    /// The game.
    pub game: ProofGame,
    /// The claim.
    pub claim: ClaimText,
}

/// A validated `prove` run.
pub struct ProvePlan {
    /// The cases, in the order of the parameter's values.
    pub cases: Vec<ProveCase>,
    /// The engine's time limit per question.
    pub timeout: Duration,
}
