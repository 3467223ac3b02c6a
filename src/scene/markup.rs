//! A small math markup for captions and labels, LaTeX-like: inside `$...$`
//! single letters are italic variables, `_x` / `_{..}` lower and `^x` / `^{..}`
//! raise, and the usual function names (floor, min, max, mod, ...) stay
//! upright. So `$R(m,m)$`, `$S_4$` and `$H(4,11)$` look as they do in the
//! papers. Outside dollars text is taken literally (`x^y^z = 0` stays as is),
//! and `\$` writes a dollar sign.

/// Size of sub- and superscripts relative to the text around them.
pub const SCRIPT_SCALE: f64 = 0.75;

/// Where a run sits relative to the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// On the baseline.
    Base,
    /// Lowered and smaller.
    Sub,
    /// Raised and smaller.
    Sup,
}

impl Level {
    /// Size factor of the level.
    pub fn scale(self) -> f64 {
        match self {
            Level::Base => 1.0,
            Level::Sub | Level::Sup => SCRIPT_SCALE,
        }
    }

    /// Baseline shift in ems of the surrounding text, positive downwards.
    pub fn shift(self) -> f64 {
        match self {
            Level::Base => 0.0,
            Level::Sub => 0.22,
            Level::Sup => -0.38,
        }
    }
}

/// A stretch of text in one style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The characters.
    pub text: String,
    /// Italic (a variable).
    pub italic: bool,
    /// Baseline level.
    pub level: Level,
}

const UPRIGHT_WORDS: &[&str] = &[
    "floor", "ceil", "min", "max", "mod", "sqrt", "round", "res", "res2", "inv", "log", "gcd",
];

/// True when `text` uses the markup (a `$` that is not escaped).
pub fn has_markup(text: &str) -> bool {
    text.contains('$')
}

/// Splits `text` into styled runs; adjacent runs of one style are merged.
pub fn parse(text: &str) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut push = |text: &str, italic: bool, level: Level| {
        if text.is_empty() {
            return;
        }
        if let Some(last) = runs.last_mut() {
            if last.italic == italic && last.level == level {
                last.text.push_str(text);
                return;
            }
        }
        runs.push(Run {
            text: text.to_string(),
            italic,
            level,
        });
    };
    let chars: Vec<char> = text.chars().collect();
    let mut k = 0;
    let mut math = false;
    while k < chars.len() {
        let c = chars[k];
        if c == '\\' && chars.get(k + 1) == Some(&'$') {
            push("$", false, Level::Base);
            k += 2;
            continue;
        }
        if c == '$' {
            math = !math;
            k += 1;
            continue;
        }
        if !math {
            push(&c.to_string(), false, Level::Base);
            k += 1;
            continue;
        }
        // In math: scripts take one character or a {group}.
        let (level, start) = match c {
            '_' => (Level::Sub, k + 1),
            '^' => (Level::Sup, k + 1),
            _ => (Level::Base, k),
        };
        let (body, next) = if level != Level::Base {
            if chars.get(start) == Some(&'{') {
                let end = chars[start..]
                    .iter()
                    .position(|&c| c == '}')
                    .map_or(chars.len(), |p| start + p);
                (chars[start + 1..end].to_vec(), (end + 1).min(chars.len()))
            } else if start < chars.len() {
                (vec![chars[start]], start + 1)
            } else {
                (Vec::new(), start)
            }
        } else {
            // A word of letters, or one other character.
            let end = if c.is_ascii_alphabetic() {
                chars[k..]
                    .iter()
                    .position(|c| !c.is_ascii_alphanumeric())
                    .map_or(chars.len(), |p| k + p)
            } else {
                k + 1
            };
            (chars[k..end].to_vec(), end)
        };
        math_runs(&body, level, &mut push);
        k = next;
    }
    runs
}

fn math_runs(body: &[char], level: Level, push: &mut impl FnMut(&str, bool, Level)) {
    let word: String = body.iter().collect();
    if UPRIGHT_WORDS.contains(&word.as_str()) {
        push(&word, false, level);
        return;
    }
    for &c in body {
        // Letters are variables; a hyphen in math is a minus sign.
        let shown = if c == '-' { '−' } else { c };
        push(&shown.to_string(), c.is_alphabetic(), level);
    }
}

/// The text without markup: what search and screen readers get.
pub fn plain(text: &str) -> String {
    if !has_markup(text) {
        return text.to_string();
    }
    parse(text).into_iter().map(|run| run.text).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn styles(text: &str) -> Vec<(String, bool, Level)> {
        parse(text)
            .into_iter()
            .map(|r| (r.text, r.italic, r.level))
            .collect()
    }

    #[test]
    fn variables_are_italic_and_digits_upright() {
        assert_eq!(
            styles("$R(m,m)$"),
            vec![
                ("R".into(), true, Level::Base),
                ("(".into(), false, Level::Base),
                ("m".into(), true, Level::Base),
                (",".into(), false, Level::Base),
                ("m".into(), true, Level::Base),
                (")".into(), false, Level::Base),
            ]
        );
        assert_eq!(
            styles("$S_4$ and $x^{2k}$"),
            vec![
                ("S".into(), true, Level::Base),
                ("4".into(), false, Level::Sub),
                (" and ".into(), false, Level::Base),
                ("x".into(), true, Level::Base),
                ("2".into(), false, Level::Sup),
                ("k".into(), true, Level::Sup),
            ]
        );
    }

    #[test]
    fn plain_text_is_untouched_and_functions_stay_upright() {
        assert_eq!(plain("x^y^z = 0"), "x^y^z = 0");
        assert_eq!(plain("$H(4,11)$ costs \\$5"), "H(4,11) costs $5");
        assert_eq!(styles("$floor$")[0], ("floor".into(), false, Level::Base));
        assert_eq!(plain("$x-1$"), "x−1");
    }

    #[test]
    fn unbalanced_markup_does_not_panic() {
        for text in ["$", "$_", "$^{", "$a_{b", "\\", "$$$"] {
            let _ = parse(text);
        }
    }
}
