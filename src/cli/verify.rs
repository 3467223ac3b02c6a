//! `nimscape verify`: the papers' computational claims, re-checked.

use super::report::{self, report};
use anyhow::Result;
use clap::Args;
use nimscape::request::Format;
use nimscape::verify::{self, Standing};
use std::io::Write;

/// Re-check the papers' claims: a table of claim, range, result and time.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// How far to check: boards, frames and boxes grow with it (each claim caps its own range).
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(2..=4096))]
    up_to: u64,
    /// Test hook: add a claim that is false on purpose, to see verify fail.
    #[arg(long, hide = true)]
    inject_false_claim: bool,
}

/// The widest line of the text report: it fits a 100-column terminal.
const COLUMNS: usize = 100;

pub fn run(
    args: VerifyArgs,
    memory_limit: u64,
    format: Option<Format>,
    control: &nimscape::Control,
) -> Result<()> {
    let json = super::figures::report_format(format, "verify")?;
    let mut claims = verify::claims();
    if args.inject_false_claim {
        claims.push(verify::deliberately_false_claim());
    }
    let outcomes = verify::run(&claims, args.up_to, memory_limit, control)?;
    let holding = outcomes.iter().filter(|o| o.holds).count();
    let failing: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.is_failure())
        .map(|o| o.source)
        .collect();
    let unheld = outcomes.len() - holding - failing.len();
    let mut out = report::stdout();
    if json {
        let claims: Vec<serde_json::Value> = outcomes
            .iter()
            .map(|o| {
                serde_json::json!({
                    "claim": o.claim,
                    "source": o.source,
                    "standing": match o.standing {
                        Standing::Proven => "proven",
                        Standing::Conjecture => "conjecture",
                    },
                    "checked_on": o.range,
                    "holds": o.holds,
                    "seconds": o.elapsed.as_secs_f64(),
                })
            })
            .collect();
        let document = serde_json::json!({
            "claims": claims,
            "hold": holding,
            "fail": failing.len(),
            "conjectures_not_holding": unheld,
        });
        report!(out, "{document:#}");
    } else {
        write_table(&mut out, &outcomes)?;
        let mut summary = format!(
            "{holding} claim{} hold{}, {} fail{}",
            plural(holding),
            if holding == 1 { "s" } else { "" },
            failing.len(),
            if failing.len() == 1 { "s" } else { "" },
        );
        if unheld > 0 {
            summary.push_str(&format!(
                ", {unheld} conjecture{} not holding",
                plural(unheld)
            ));
        }
        report!(out, "{summary}");
    }
    out.finish()?;
    if !failing.is_empty() {
        anyhow::bail!(
            "{} proven claim(s) failed: {}",
            failing.len(),
            failing.join(", ")
        );
    }
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// One block per claim within [`COLUMNS`]: the result and time, then the claim
/// wrapped beside them, then its source and the range checked.
fn write_table(out: &mut report::Report, outcomes: &[verify::Outcome]) -> Result<()> {
    const RESULT: usize = 21; // "does not hold (conj.)"
    const TIME: usize = 9; // "123.456 s"
    let indent = RESULT + 2 + TIME + 2;
    let width = COLUMNS - indent;
    report!(
        out,
        "{:<RESULT$}  {:>TIME$}  claim / source; checked on",
        "result",
        "time"
    );
    for o in outcomes {
        let result = match (o.standing, o.holds) {
            (Standing::Proven, true) => "holds",
            (Standing::Proven, false) => "FAILS",
            (Standing::Conjecture, true) => "holds (conjecture)",
            (Standing::Conjecture, false) => "does not hold (conj.)",
        };
        let time = format!("{:.3} s", o.elapsed.as_secs_f64());
        let mut lines = wrap(&o.claim, width);
        lines.extend(wrap(&format!("{}; {}", o.source, o.range), width));
        for (i, line) in lines.iter().enumerate() {
            if i == 0 {
                report!(out, "{result:<RESULT$}  {time:>TIME$}  {line}");
            } else {
                report!(out, "{:indent$}{line}", "");
            }
        }
    }
    Ok(())
}

/// `text` in lines of at most `width` characters, broken at spaces (a longer
/// word gets a line of its own).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let needed = line.chars().count() + usize::from(!line.is_empty()) + word.chars().count();
        if !line.is_empty() && needed > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    #[test]
    fn wrap_breaks_at_spaces_within_the_width() {
        assert_eq!(super::wrap("ab cd ef", 5), ["ab cd", "ef"]);
        assert_eq!(super::wrap("abcdefgh ij", 4), ["abcdefgh", "ij"]);
        assert_eq!(super::wrap("–– ––", 5), ["–– ––"]);
        assert!(super::wrap("", 5).is_empty());
    }
}
