//! Certificates: everything a referee needs to rerun a proof without nimscape
//! (the engine's input files, the engine's name and version, the command),
//! and the report as Markdown, JSON and a LaTeX snippet for a paper.

use super::{heaps_tuple, ProofReport, Verdict};
use crate::Result;
use std::fmt::Write as _;
use std::path::Path;

/// The claim's text as LaTeX mathematics: `^` as the nim-sum `\oplus`, `==`
/// as `=`, `and` / `or` / `not` as logic signs.
pub(crate) fn latex_formula(text: &str) -> String {
    let mut out = String::new();
    let spaced = text
        .replace("==", " = ")
        .replace("!=", " \\ne ")
        .replace("<=", " \\le ")
        .replace(">=", " \\ge ");
    for word in spaced.split_inclusive(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
        let (name, rest) = word.split_at(
            word.find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .unwrap_or(word.len()),
        );
        let name = match name.to_ascii_lowercase().as_str() {
            "and" => "\\wedge".to_string(),
            "or" => "\\vee".to_string(),
            "not" => "\\neg".to_string(),
            "min" => "\\min".to_string(),
            "max" => "\\max".to_string(),
            "floor" => "\\operatorname{floor}".to_string(),
            "ceil" => "\\operatorname{ceil}".to_string(),
            "abs" => "\\operatorname{abs}".to_string(),
            _ => name.replace('_', "\\_"),
        };
        out.push_str(&name);
        for c in rest.chars() {
            match c {
                '^' => out.push_str(" \\oplus "),
                '&' => out.push_str(" \\mathbin{\\&} "),
                '|' => out.push_str(" \\mathbin{|} "),
                '*' => out.push_str(" \\cdot "),
                '%' => out.push_str(" \\bmod "),
                '#' | '$' | '{' | '}' | '\\' | '~' => {}
                c => out.push(c),
            }
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn show(p: &[u64]) -> String {
    let parts: Vec<String> = p.iter().map(|v| v.to_string()).collect();
    format!("({})", parts.join(", "))
}

/// The sentence stating what was claimed, in words (Markdown).
pub(crate) fn statement(r: &ProofReport) -> String {
    let position = match &r.region {
        Some(region) => format!("a position {} with {region}", heaps_tuple(&r.heaps)),
        None => format!("a position {}", heaps_tuple(&r.heaps)),
    };
    if r.kind == "Grundy value" {
        format!(
            "In {}, the Grundy value of {position} is {}.",
            r.game, r.claim
        )
    } else {
        format!(
            "In {}, {position} is a P-position if and only if {}.",
            r.game, r.claim
        )
    }
}

/// The LaTeX snippet: the theorem (or the refutation) and one sentence on the method.
pub(crate) fn latex(r: &ProofReport) -> String {
    let heaps = heaps_tuple(&r.heaps);
    let region = r
        .region
        .as_deref()
        .map(|g| format!(" with ${}$", latex_formula(g)))
        .unwrap_or_default();
    let claim = latex_formula(&r.claim);
    let engine = format!("{} ({})", r.engine, r.engine_version);
    let files: Vec<&str> = r.sentences.iter().map(|s| s.file.as_str()).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "% Written by nimscape prove: {} on {}; verdict: {}.",
        r.claim,
        r.game,
        r.verdict.word()
    );
    match r.verdict {
        Verdict::Proved => {
            let body = if r.kind == "Grundy value" {
                format!(
                    "In {}, the Grundy value of a position ${heaps}${region} is ${claim}$.",
                    r.game_description
                )
            } else {
                format!(
                    "In {}, a position ${heaps}${region} is a P-position if and only if ${claim}$.",
                    r.game_description
                )
            };
            let _ = writeln!(out, "\\begin{{theorem}}\n{body}\n\\end{{theorem}}");
            let _ = writeln!(
                out,
                "\\noindent\\emph{{Method.}} The statement is a sentence of Presburger arithmetic with bitwise operations on binary representations (B\\\"uchi arithmetic), decided by the automata-based procedure {engine} in {:.2}~s (input: \\texttt{{{}}}).",
                r.seconds,
                files.join(", ").replace('_', "\\_")
            );
        }
        Verdict::False => {
            let c = r.counterexample.as_ref();
            let at = c.map(|c| show(&c.position)).unwrap_or_default();
            let why = c.map(|c| c.explanation.clone()).unwrap_or_default();
            let what = if r.kind == "Grundy value" {
                format!("the Grundy value of a position ${heaps}${region} is not always ${claim}$")
            } else {
                format!("the P-positions ${heaps}${region} are not exactly those with ${claim}$")
            };
            let smallest = if r.counterexample_is_smallest {
                "The smallest counterexample (by the sum of the heaps, then lexicographically) is"
            } else {
                "A counterexample is"
            };
            let _ = writeln!(
                out,
                "\\begin{{proposition}}\nIn {}, {what}. {smallest} ${at}$: {}.\n\\end{{proposition}}",
                r.game_description,
                why.replace('^', "\\oplus ")
            );
            match &r.heap_sum_search {
                Some(search) => {
                    let _ = writeln!(
                        out,
                        "\\noindent\\emph{{Method.}} The sentence of B\\\"uchi arithmetic stating the claim was left undecided by {engine}; the Grundy values of all {} positions of heap sum at most {} were computed exactly, which gives the smallest counterexample, checked by {engine} as a closed sentence and confirmed by a second exact computation.",
                        search.positions,
                        search.max_heap_sum
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        "\\noindent\\emph{{Method.}} Found by {engine} deciding the claim in B\\\"uchi arithmetic, and confirmed by computing Grundy values exactly."
                    );
                }
            }
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
pub(crate) fn markdown(r: &ProofReport, command_line: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}: {}\n", r.verdict.word(), statement(r));
    let _ = writeln!(out, "- game: {}", r.game);
    let _ = writeln!(out, "- claim ({}): `{}`", r.kind, r.claim);
    if let Some(region) = &r.region {
        let _ = writeln!(out, "- region: `{region}` (moves never leave it: checked)");
    }
    let _ = writeln!(out, "- verdict: **{}**", r.verdict.word());
    if let Some(why) = &r.undecided_because {
        let _ = writeln!(out, "- undecided because: {why}");
    }
    if let Some(c) = &r.counterexample {
        let _ = writeln!(
            out,
            "- {}counterexample: {} — {} (confirmed by nimscape's exact solver: Grundy value {}; the claim says {}, the solver {}){}",
            if r.counterexample_is_smallest { "smallest " } else { "" },
            show(&c.position),
            c.explanation,
            c.grundy,
            c.claimed,
            c.actual,
            if c.smallest_checked_by_solver {
                "; no smaller counterexample in the box of that heap sum, checked by the solver too"
            } else {
                ""
            }
        );
    }
    if let Some(search) = &r.heap_sum_search {
        let _ = writeln!(
            out,
            "- the exact solver's search (the engine left the claim undecided): every position of heap sum up to {} ({} positions, {:.2} s): {}",
            search.max_heap_sum,
            search.positions,
            search.seconds,
            match &search.counterexample {
                Some(p) => format!("the smallest counterexample is {}", show(p)),
                None => "no counterexample".into(),
            }
        );
    }
    engine_record(
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
Run `mona -t FILE`: \"Formula is valid\" means the statement holds for every value of its free variables (the heaps); \
otherwise MONA prints a counter-example of least length. Numbers are finite sets of bit positions (`{{1,2}}` is 6); \
an integer that may be negative is a sign and a set (bit p is the sign xor membership of p), so `-1` is `...111`. \
The predicates at the top of each file define addition (with a carry set), comparison, the bitwise operations and doubling; \
each comparison of the claim existentially quantifies its intermediate values, each of which its definition fixes uniquely.\n\n\
The claim holds exactly when no position is a *violation*: for a P-set claim, a claimed position with a move to a claimed position, \
or an unclaimed position with no move into the claimed set; for a Grundy formula f, f < 0, a move keeping f's value, or a value below f reached by no move. \
The game is finite and every move lowers the sum of the heaps, so the smallest violation (by the heap sum, then lexicographically) is the smallest counterexample."
    );
    out
}

/// Writes the certificate into `dir`: the engine's inputs, `report.md`,
/// `report.json` and `theorem.tex`; `write` writes one file (atomically).
pub fn write(
    dir: &Path,
    r: &ProofReport,
    command_line: &str,
    write: &mut dyn FnMut(&Path, &str) -> Result<()>,
) -> Result<()> {
    for s in &r.sentences {
        write(&dir.join(&s.file), &s.input)?;
    }
    write(&dir.join("report.md"), &markdown(r, command_line))?;
    let mut json = serde_json::to_value(r).map_err(|e| crate::Error::Unsupported(e.to_string()))?;
    if let Some(obj) = json.as_object_mut() {
        obj.insert("command".into(), command_line.into());
        obj.insert("statement".into(), statement(r).into());
    }
    let text = serde_json::to_string_pretty(&json)
        .map_err(|e| crate::Error::Unsupported(e.to_string()))?;
    write(&dir.join("report.json"), &(text + "\n"))?;
    write(&dir.join("theorem.tex"), &latex(r))?;
    Ok(())
}

/// One line for a terminal: the verdict, and the statement or the counterexample.
pub fn summary(r: &ProofReport) -> String {
    match r.verdict {
        Verdict::Proved => format!("proved: {} ({} {:.2} s)", statement(r), r.engine, r.seconds),
        Verdict::False => {
            let c = r.counterexample.as_ref();
            format!(
                "false: {} {} — {} (confirmed by the exact solver; {:.2} s)",
                if r.counterexample_is_smallest {
                    "smallest counterexample"
                } else {
                    "counterexample (the search for the smallest ran out of time)"
                },
                c.map(|c| show(&c.position)).unwrap_or_default(),
                c.map(|c| c.explanation.as_str()).unwrap_or_default(),
                r.seconds
            )
        }
        Verdict::Undecided => format!(
            "undecided: {} ({:.2} s); raise --timeout or --max-memory",
            r.undecided_because.as_deref().unwrap_or("no answer"),
            r.seconds
        ),
    }
}

/// The engine's part of a report: engine, time, the command, and the table of
/// sentences with the command that reruns each.
pub(crate) fn engine_record(
    out: &mut String,
    engine: &str,
    engine_version: &str,
    seconds: f64,
    command_line: &str,
    sentences: &[super::Sentence],
) {
    let _ = writeln!(out, "- engine: {engine} ({engine_version})");
    let _ = writeln!(out, "- time: {seconds:.3} s in all");
    let _ = writeln!(out, "- made by: `{command_line}`\n");
    let _ = writeln!(out, "## The sentences the engine decided\n");
    let _ = writeln!(
        out,
        "| question | input | rerun | answer | seconds | states (final / largest) |\n|---|---|---|---|---|---|"
    );
    for s in sentences {
        let states = |v: Option<u64>| v.map(|n| n.to_string()).unwrap_or_else(|| "?".into());
        let _ = writeln!(
            out,
            "| {} | `{}` | `mona -t {}` | {} | {:.3} | {} / {} |",
            s.purpose,
            s.file,
            s.file,
            s.outcome,
            s.seconds,
            states(s.sizes.final_states),
            states(s.sizes.largest_states)
        );
    }
}
