//! `nimscape prove square --theorem NAME`: the square chocolate game's
//! theorems for every m, decided by the engine, a counterexample confirmed by
//! game search, and the certificate.
//!
//! Theorem 2.3 (`criterion`) is a P-set claim about the bar game and goes
//! through [`super::prove`] like every game claim; the pattern theorems
//! ([`CellTheorem`]) are single sentences in which m is a variable.

use super::engine::{Engine, Limits, Outcome, Run};
use super::{Sentence, Verdict};
use crate::{Control, Error, Result};
use nimscape_model::prove::ir::{CmpOp, Formula, Term};
use nimscape_model::prove::square::{self, CellCounterexample, CellTheorem};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

pub use nimscape_model::prove::square::PAPER;

/// Everything known about one theorem of the square game.
#[derive(Clone, Debug, Serialize)]
pub struct TheoremReport {
    /// The name `--theorem` takes.
    pub theorem: String,
    /// Where the paper states it, e.g. `Theorem 3.4`.
    pub source: String,
    /// The paper.
    pub paper: String,
    /// The statement in words.
    pub statement: String,
    /// The statement for a paper.
    #[serde(skip)]
    pub latex: String,
    /// What it gives beyond itself (a count).
    pub gives: Option<String>,
    /// The sentence's free variables (m, a cell, ...).
    pub variables: Vec<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// Why undecided, when it is.
    pub undecided_because: Option<String>,
    /// The counterexample, confirmed by game search.
    pub counterexample: Option<CellCounterexample>,
    /// Whether it is the smallest (first in m, then in each further variable).
    pub counterexample_is_smallest: bool,
    /// The engine.
    pub engine: String,
    /// Its version.
    pub engine_version: String,
    /// The sentences asked, in order.
    pub sentences: Vec<Sentence>,
    /// Total seconds.
    pub seconds: f64,
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

/// Decides `theorem` for every value of its variables; when false, the
/// smallest counterexample (by the variables in order, m first), checked by
/// the engine and confirmed by game search.
pub fn prove(
    theorem: &CellTheorem,
    engine: &dyn Engine,
    limits: Limits,
    memory_limit: u64,
    control: &Control,
) -> Result<TheoremReport> {
    let start = std::time::Instant::now();
    let mut report = TheoremReport {
        theorem: theorem.name.clone(),
        source: theorem.source.clone(),
        paper: square::PAPER.into(),
        statement: theorem.statement.clone(),
        latex: theorem.latex.clone(),
        gives: theorem.gives.clone(),
        variables: theorem.vars.clone(),
        verdict: Verdict::Undecided,
        undecided_because: None,
        counterexample: None,
        counterexample_is_smallest: false,
        engine: engine.name().to_string(),
        engine_version: engine.version()?,
        sentences: Vec::new(),
        seconds: 0.0,
    };
    let ext = engine.extension().to_string();
    let vars = theorem.vars.clone();
    let ask = |report: &mut TheoremReport,
               purpose: String,
               file: String,
               formula: &Formula,
               free: &[String]|
     -> Result<Run> {
        let input = engine.input(formula, free)?;
        let run = engine.decide(&input, free, limits, control)?;
        report.sentences.push(Sentence {
            purpose,
            file: format!("{file}.{ext}"),
            input,
            outcome: describe(&run.outcome),
            seconds: run.seconds,
            sizes: run.sizes.clone(),
        });
        Ok(run)
    };
    let finish = |mut report: TheoremReport| {
        report.seconds = start.elapsed().as_secs_f64();
        report
    };
    let run = ask(
        &mut report,
        format!("{} {}: no values break it", theorem.source, theorem.name),
        "theorem".into(),
        &theorem.sentence(),
        &vars,
    )?;
    let mut found = match run.outcome {
        Outcome::Valid => {
            report.verdict = Verdict::Proved;
            return Ok(finish(report));
        }
        Outcome::Undecided(why) => {
            report.undecided_because = Some(why);
            return Ok(finish(report));
        }
        Outcome::CounterExample(values) => values_in_order(&values, &vars)?,
    };
    // The smallest: bisection on each variable in turn (m first), the ones
    // before it fixed.
    let mut smallest = true;
    let mut fixed: Vec<Formula> = Vec::new();
    let mut asked = 0;
    'vars: for (k, var) in vars.iter().enumerate() {
        let (mut lo, mut hi) = (0u64, found[k]);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let mut parts = fixed.clone();
            parts.push(square::bound(var, CmpOp::Le, mid));
            asked += 1;
            let run = ask(
                &mut report,
                format!("search for the smallest: no counterexample with {var} <= {mid}"),
                format!("search-{asked}"),
                &theorem.sentence_where(Formula::and(parts)),
                &vars,
            )?;
            match run.outcome {
                Outcome::Valid => lo = mid + 1,
                Outcome::CounterExample(values) => {
                    found = values_in_order(&values, &vars)?;
                    hi = found[k];
                }
                Outcome::Undecided(_) => {
                    smallest = false;
                    break 'vars;
                }
            }
        }
        fixed.push(square::bound(var, CmpOp::Eq, lo));
    }
    // The engine checks its counterexample as a closed sentence ...
    let values: Vec<(String, u128)> = vars
        .iter()
        .cloned()
        .zip(found.iter().map(|&v| u128::from(v)))
        .collect();
    let at = |name: &str| -> Term {
        match vars.iter().position(|v| v == name) {
            Some(k) => Term::Const(i64::try_from(found[k]).unwrap_or(i64::MAX)),
            None => Term::var(name),
        }
    };
    let shown: Vec<String> = values.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let check = ask(
        &mut report,
        format!("the theorem fails at {}", shown.join(", ")),
        "counterexample".into(),
        &theorem.sentence().substitute(&at).not(),
        &[],
    )?;
    if let Outcome::CounterExample(_) = check.outcome {
        return Err(internal(format!(
            "the engine's counterexample {} is not one when asked again",
            shown.join(", ")
        )));
    }
    // ... and game search confirms it.
    report.counterexample = Some(square::confirm(theorem, &values, memory_limit, control)?);
    report.counterexample_is_smallest = smallest;
    report.verdict = Verdict::False;
    Ok(finish(report))
}

fn internal(message: String) -> Error {
    Error::Unsupported(format!(
        "internal error of the prover (please report it): {message}"
    ))
}

/// The engine's values in the order of `vars`.
fn values_in_order(values: &[(String, u128)], vars: &[String]) -> Result<Vec<u64>> {
    vars.iter()
        .map(|var| {
            values
                .iter()
                .find(|(n, _)| n == var)
                .and_then(|(_, v)| u64::try_from(*v).ok())
                .ok_or_else(|| {
                    internal(format!("no value of {var} in the engine's counter-example"))
                })
        })
        .collect()
}

/// One line for a terminal.
pub fn summary(r: &TheoremReport) -> String {
    let gives = r
        .gives
        .as_deref()
        .map(|g| format!(" (so {g})"))
        .unwrap_or_default();
    match r.verdict {
        Verdict::Proved => format!(
            "proved for every m: {} of {}: {}{gives} ({} {:.2} s)",
            r.source, r.paper, r.statement, r.engine, r.seconds
        ),
        Verdict::False => format!(
            "false: {}: {} {} (confirmed by game search; {:.2} s)",
            r.theorem,
            if r.counterexample_is_smallest {
                "smallest counterexample"
            } else {
                "counterexample (the search for the smallest ran out of time)"
            },
            r.counterexample
                .as_ref()
                .map(|c| c.explanation.as_str())
                .unwrap_or_default(),
            r.seconds
        ),
        Verdict::Undecided => format!(
            "undecided: {} ({:.2} s); raise --timeout or --max-memory",
            r.undecided_because.as_deref().unwrap_or("no answer"),
            r.seconds
        ),
    }
}

/// The LaTeX snippet: the theorem with the paper cited, and the method.
pub(crate) fn latex(r: &TheoremReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "% Written by nimscape prove square --theorem {}; verdict: {}.",
        r.theorem,
        r.verdict.word()
    );
    let number = r.source.replace(' ', "~");
    let files: Vec<&str> = r.sentences.iter().map(|s| s.file.as_str()).collect();
    match r.verdict {
        Verdict::Proved => {
            let _ = writeln!(
                out,
                "\\begin{{theorem}}[{}, {number}]\n{}\n\\end{{theorem}}",
                square::PAPER_LATEX,
                r.latex
            );
            let _ = writeln!(
                out,
                "\\noindent\\emph{{Method.}} A cell $(x,y)$ of $C_{{n,n}}$ is read as a P-position when $(x-1) \\oplus (y-1) \\oplus (n-x) \\oplus (n-y) = 0$, the criterion of Theorem~2.3, itself proved for the game by \\texttt{{nimscape prove square --theorem criterion}}. The statement is then one sentence of Presburger arithmetic with bitwise operations (B\\\"uchi arithmetic) in which $m$ is a variable, decided for every $m$ by the automata-based procedure {} ({}) in {:.2}~s (input: \\texttt{{{}}}).",
                r.engine,
                r.engine_version,
                r.seconds,
                files.join(", ").replace('_', "\\_")
            );
        }
        Verdict::False => {
            let why = r
                .counterexample
                .as_ref()
                .map(|c| c.explanation.clone())
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "\\begin{{proposition}}\nThe statement \\texttt{{{}}} is false: {}.\n\\end{{proposition}}",
                r.theorem,
                why.replace('^', "\\oplus ").replace('_', "\\_")
            );
            let _ = writeln!(
                out,
                "\\noindent\\emph{{Method.}} Found by {} ({}) in B\\\"uchi arithmetic, and confirmed by computing the cells' Grundy values by game search.",
                r.engine, r.engine_version
            );
        }
        Verdict::Undecided => {
            let _ = writeln!(
                out,
                "% Undecided: {}. No theorem is stated.",
                r.undecided_because.as_deref().unwrap_or("no answer")
            );
        }
    }
    out
}

/// The report as Markdown.
pub(crate) fn markdown(r: &TheoremReport, command_line: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {}: {} of {}\n\n{}\n",
        r.verdict.word(),
        r.source,
        r.paper,
        r.statement
    );
    let _ = writeln!(out, "- theorem: `{}`", r.theorem);
    if let Some(gives) = &r.gives {
        let _ = writeln!(
            out,
            "- gives: {gives} (the count itself is not expressible: {})",
            square::COUNTING
        );
    }
    let _ = writeln!(out, "- verdict: **{}**", r.verdict.word());
    if let Some(why) = &r.undecided_because {
        let _ = writeln!(out, "- undecided because: {why}");
    }
    if let Some(c) = &r.counterexample {
        let _ = writeln!(
            out,
            "- {}counterexample: {} (confirmed by game search: the Grundy values of the cells)",
            if r.counterexample_is_smallest {
                "smallest "
            } else {
                ""
            },
            c.explanation
        );
    }
    super::certificate::engine_record(
        &mut out,
        &r.engine,
        &r.engine_version,
        r.seconds,
        command_line,
        &r.sentences,
    );
    let _ = writeln!(
        out,
        "\n## How to check it\n\nEach input file is a complete program for MONA (WS1S, free software from Aarhus University; `apt-get install mona`). \
Run `mona -t FILE`: \"Formula is valid\" means the statement holds for every value of its free variables ({}); \
otherwise MONA prints a counter-example of least length. Numbers are finite sets of bit positions (`{{1,2}}` is 6); \
an integer that may be negative is a sign and a set (bit p is the sign xor membership of p).\n\n\
A cell (x, y) of C(n,n) is read as a P-position when (x-1)^(y-1)^(n-x)^(n-y) = 0, with 1 <= x, y <= n: the criterion of Theorem 2.3, \
proved for the chocolate game itself (the bar and its breaks) by `nimscape prove square --theorem criterion`.",
        r.variables.join(", ")
    );
    out
}

/// Writes the certificate into `dir` (the engine's inputs, `report.md`,
/// `report.json`, `theorem.tex`); `write` writes one file atomically.
pub fn write(
    dir: &Path,
    r: &TheoremReport,
    command_line: &str,
    write: &mut dyn FnMut(&Path, &str) -> Result<()>,
) -> Result<()> {
    for s in &r.sentences {
        write(&dir.join(&s.file), &s.input)?;
    }
    write(&dir.join("report.md"), &markdown(r, command_line))?;
    let mut json = serde_json::to_value(r).map_err(|e| Error::Unsupported(e.to_string()))?;
    if let Some(obj) = json.as_object_mut() {
        obj.insert("command".into(), command_line.into());
    }
    let text =
        serde_json::to_string_pretty(&json).map_err(|e| Error::Unsupported(e.to_string()))?;
    write(&dir.join("report.json"), &(text + "\n"))?;
    write(&dir.join("theorem.tex"), &latex(r))?;
    Ok(())
}

/// The theorem list as text: one line per theorem of the paper's Sections
/// 2–4, with the name that proves it or why none does.
pub fn list() -> String {
    let mut out = format!(
        "Theorems of {}, each proved for every m by `nimscape prove square --theorem NAME` (or `--theorem all`):\n",
        square::PAPER
    );
    for e in square::catalogue() {
        let _ = writeln!(
            out,
            "  {:<16}{:<19}{}",
            e.name.unwrap_or("(none)"),
            e.source,
            e.says
        );
    }
    out
}
