//! Text for LaTeX: what `figures.tex` captions and `.tex` tables are made of.

/// Escapes text for LaTeX (pdflatex with its default fonts): specials, accented
/// Latin letters as accent commands, Greek and mathematical symbols in math mode.
/// `$...$` is the captions' math markup, which is LaTeX's own: it passes through,
/// its symbols mapped to math commands (`⊕` to `\oplus`) and its words of two or
/// more letters upright (`floor` to `\mathrm{floor}`), as the figures draw them;
/// so `$x ⊕ y ⊕ z = 0$` and `$S_4$` set as in the papers. A character with no
/// LaTeX spelling here is the error: pdflatex would stop at it.
///
/// This is the one way text from a command line, a recipe, a game file or a
/// request reaches LaTeX (`.tex` tables, TikZ, `figures.tex`), so it must never
/// let the text run a command of its own: in the markup only the symbol commands
/// listed here pass (`\oplus`, `\le`); any other (`\input`, `\write`) is set as
/// its visible name, as the figures draw it. Braces are balanced, a `$` without
/// its partner is a dollar sign, and no `^^` (TeX's notation for any character,
/// `^^5c` a backslash) or double script survives, so the output is always valid.
/// Line breaks and tabs become spaces (a caption is one line); other control
/// characters have no spelling.
pub fn tex_escape(text: &str) -> std::result::Result<String, char> {
    let chars: Vec<char> = text.chars().collect();
    // The dollars that switch to math and back; a last one without its partner
    // is a dollar sign.
    let mut switches: Vec<usize> = (0..chars.len())
        .filter(|&k| chars[k] == '$' && (k == 0 || chars[k - 1] != '\\'))
        .collect();
    if switches.len() % 2 == 1 {
        switches.pop();
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut math = false;
    let mut math_state = MathState::default();
    let mut k = 0;
    while k < chars.len() {
        let ch = chars[k];
        let next = chars.get(k + 1).copied();
        k += 1;
        if ch == '\\' && next == Some('$') {
            k += 1;
            if math {
                math_state.emit(&mut out, "\\$", true);
            } else {
                out += "\\$";
            }
            continue;
        }
        if ch == '$' {
            if switches.binary_search(&(k - 1)).is_err() {
                // A dollar without its partner (after the last switch): text.
                out += "\\$";
                continue;
            }
            if math {
                math_state.close(&mut out);
            } else {
                math_state = MathState::default();
            }
            math = !math;
            out.push('$');
            continue;
        }
        if ch.is_control() {
            if matches!(ch, '\n' | '\r' | '\t') {
                out.push(' ');
                continue;
            }
            return Err(ch);
        }
        if math {
            match ch {
                '%' | '&' | '#' => math_state.emit(&mut out, &format!("\\{ch}"), true),
                '\\' => {
                    let mut word = String::new();
                    while let Some(&c) = chars.get(k).filter(|c| c.is_ascii_alphabetic()) {
                        word.push(c);
                        k += 1;
                    }
                    if !word.is_empty() && is_symbol_command(&word) {
                        // A command typed in the markup (`\oplus`) passes whole.
                        math_state.emit(&mut out, &format!("\\{word}"), true);
                        end_command(&mut out, chars.get(k));
                    } else if word.is_empty()
                        && chars.get(k).is_some_and(|c| "{}_%&#,;: ".contains(*c))
                    {
                        // `\{`, `\_`, `\,`: a character or a space, not a command.
                        math_state.emit(&mut out, &format!("\\{}", chars[k]), true);
                        k += 1;
                    } else if word.is_empty() {
                        math_state.emit(&mut out, "\\backslash", true);
                        end_command(&mut out, chars.get(k));
                    } else {
                        // Any other command is text: its visible name.
                        math_state.emit(&mut out, &format!("\\backslash\\mathrm{{{word}}}"), false);
                    }
                }
                '{' => math_state.open(&mut out),
                '}' => math_state.close_group(&mut out),
                '^' | '_' => math_state.script(ch, &mut out),
                '\'' => math_state.prime(&mut out),
                ' ' => out.push(' '),
                c if c.is_ascii_alphabetic() => {
                    let mut word = c.to_string();
                    while let Some(&c) = chars.get(k).filter(|c| c.is_ascii_alphabetic()) {
                        word.push(c);
                        k += 1;
                    }
                    if word.len() == 1 {
                        math_state.emit(&mut out, &word, true);
                    } else if word == "mod" {
                        math_state.emit(&mut out, "\\bmod", false);
                        end_command(&mut out, chars.get(k));
                    } else {
                        // A name such as res2 keeps its digits.
                        while let Some(&c) = chars.get(k).filter(|c| c.is_ascii_digit()) {
                            word.push(c);
                            k += 1;
                        }
                        // An operator name, spaced as \operatorname spaces it.
                        math_state.emit(
                            &mut out,
                            &format!("\\mathop{{\\mathrm{{{word}}}}}\\nolimits"),
                            false,
                        );
                        end_command(&mut out, chars.get(k));
                    }
                }
                '−' => math_state.emit(&mut out, "-", true),
                '~' => math_state.emit(&mut out, "~", false),
                c if c.is_ascii() => math_state.emit(&mut out, &c.to_string(), true),
                c => match symbol(c) {
                    Some(tex) => {
                        // `₄` is `_4` and `°` is `^\circ`: scripts, checked as typed ones.
                        match tex.strip_prefix('_').or_else(|| tex.strip_prefix('^')) {
                            Some(argument) => {
                                math_state.script(tex.chars().next().unwrap_or('^'), &mut out);
                                math_state.emit(&mut out, argument, true);
                            }
                            None => {
                                let single = tex.starts_with('{')
                                    || (tex.starts_with('\\')
                                        && tex[1..].chars().all(|c| c.is_ascii_alphabetic()));
                                math_state.emit(&mut out, tex, single);
                            }
                        }
                        end_command(&mut out, chars.get(k));
                    }
                    None => return Err(c),
                },
            }
            continue;
        }
        match ch {
            '\\' => out += "\\textbackslash{}",
            '&' | '%' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out += "\\textasciitilde{}",
            '^' => out += "\\textasciicircum{}",
            '<' => out += "\\textless{}",
            '>' => out += "\\textgreater{}",
            '|' => out += "\\textbar{}",
            '²' => out += "\\textsuperscript{2}",
            '³' => out += "\\textsuperscript{3}",
            '–' => out += "--",
            '—' => out += "---",
            '‘' => out += "`",
            '’' => out += "'",
            '“' => out += "``",
            '”' => out += "''",
            '…' => out += "\\ldots{}",
            '§' => out += "\\S{}",
            '¶' => out += "\\P{}",
            '©' => out += "\\copyright{}",
            '†' => out += "\\dag{}",
            '‡' => out += "\\ddag{}",
            '•' => out += "\\textbullet{}",
            '£' => out += "\\pounds{}",
            '\u{a0}' => out += "~",
            '\u{2009}' | '\u{202f}' => out += "\\,",
            c if c.is_ascii() => out.push(c),
            c => {
                if let Some(tex) = accented(c) {
                    out += tex;
                } else if let Some(tex) = symbol(c) {
                    out += &format!("\\ensuremath{{{tex}}}");
                } else {
                    return Err(c);
                }
            }
        }
    }
    Ok(out)
}

/// Text for a LaTeX comment line (`% ...`): one line whatever it holds, since a
/// line break would end the comment and make the rest live LaTeX. Every control
/// character is a space; the rest is inert after `%`.
pub fn tex_comment(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// What math mode needs remembered to stay valid LaTeX: the open braces (where
/// each was written, to escape the unclosed ones), and the scripts of the atom
/// just set (a second `^` on one atom is a "double superscript" error).
#[derive(Default)]
struct MathState {
    /// Byte offsets in the output of the braces still open, each with the
    /// scripts of the atom before it (restored when it closes).
    open: Vec<(usize, Scripts)>,
    scripts: Scripts,
    /// A `^` or `_` was written and waits for its argument.
    pending: bool,
}

#[derive(Default, Clone, Copy)]
struct Scripts {
    sup: bool,
    sub: bool,
}

impl MathState {
    /// Sets `piece`, an atom (or a waiting script's argument); a piece of more
    /// than one token (`single` false) is braced when it is an argument.
    fn emit(&mut self, out: &mut String, piece: &str, single: bool) {
        if self.pending {
            if single {
                out.push_str(piece);
            } else {
                out.push('{');
                out.push_str(piece);
                out.push('}');
            }
            // The argument is set; the atom keeps its scripts.
            self.pending = false;
        } else {
            out.push_str(piece);
            self.scripts = Scripts::default();
        }
    }

    /// Something that cannot be a script's argument follows: give the waiting
    /// script an empty one.
    fn script_argument(&mut self, out: &mut String) {
        if self.pending {
            out.push_str("{}");
            self.pending = false;
        }
    }

    /// `^` or `_`: on an empty atom when the current one has that script already,
    /// or when the previous script still waits for its argument (so no `^^`).
    fn script(&mut self, kind: char, out: &mut String) {
        self.script_argument(out);
        let taken = if kind == '^' {
            self.scripts.sup
        } else {
            self.scripts.sub
        };
        if taken {
            out.push_str("{}");
            self.scripts = Scripts::default();
        }
        out.push(kind);
        if kind == '^' {
            self.scripts.sup = true;
        } else {
            self.scripts.sub = true;
        }
        self.pending = true;
    }

    /// A prime is a superscript of its own (`'` is `^\prime`).
    fn prime(&mut self, out: &mut String) {
        if self.pending {
            out.push_str("{'}");
            self.pending = false;
            return;
        }
        // Primes in a row are one superscript (`x''`), as TeX collects them.
        if self.scripts.sup && !out.ends_with('\'') {
            out.push_str("{}");
            self.scripts = Scripts::default();
        }
        out.push('\'');
        self.scripts.sup = true;
    }

    fn open(&mut self, out: &mut String) {
        // A group that is a script's argument belongs to the atom; any other
        // group is an atom of its own once it closes.
        let scripts = if self.pending {
            self.scripts
        } else {
            Scripts::default()
        };
        self.pending = false;
        self.scripts = Scripts::default();
        self.open.push((out.len(), scripts));
        out.push('{');
    }

    fn close_group(&mut self, out: &mut String) {
        self.script_argument(out);
        match self.open.pop() {
            Some((_, scripts)) => {
                out.push('}');
                self.scripts = scripts;
            }
            None => self.emit(out, "\\}", true),
        }
    }

    /// The end of math: a waiting script gets its argument and every brace left
    /// open is a brace character.
    fn close(&mut self, out: &mut String) {
        self.script_argument(out);
        while let Some((at, _)) = self.open.pop() {
            out.replace_range(at..at + 1, "\\{");
        }
    }
}

/// Whether `\word` is one of the symbol commands the markup may use: those this
/// file spells symbols with (`\oplus`, `\le`, `\alpha`), none of which takes an
/// argument or reads a file.
fn is_symbol_command(word: &str) -> bool {
    const MORE: [&str; 17] = [
        "leq",
        "geq",
        "ne",
        "lfloor",
        "rfloor",
        "lceil",
        "rceil",
        "ldots",
        "dots",
        "quad",
        "qquad",
        "bmod",
        "mid",
        "langle",
        "rangle",
        "circ",
        "backslash",
    ];
    MORE.contains(&word)
        || SYMBOLS
            .iter()
            .any(|(_, tex)| tex.strip_prefix('\\') == Some(word))
}

/// A command word (`\\le`) would run into a letter after it: a space keeps them apart.
fn end_command(out: &mut String, next: Option<&char>) {
    if out.ends_with(|c: char| c.is_ascii_alphabetic())
        && next.is_some_and(char::is_ascii_alphabetic)
    {
        out.push(' ');
    }
}

/// Latin letters with accents, as the accent commands every LaTeX font has.
fn accented(c: char) -> Option<&'static str> {
    const TABLE: &[(char, &str)] = &[
        ('à', "\\`{a}"),
        ('á', "\\'{a}"),
        ('â', "\\^{a}"),
        ('ã', "\\~{a}"),
        ('ä', "\\\"{a}"),
        ('å', "\\r{a}"),
        ('æ', "\\ae{}"),
        ('ç', "\\c{c}"),
        ('è', "\\`{e}"),
        ('é', "\\'{e}"),
        ('ê', "\\^{e}"),
        ('ë', "\\\"{e}"),
        ('ì', "\\`{\\i}"),
        ('í', "\\'{\\i}"),
        ('î', "\\^{\\i}"),
        ('ï', "\\\"{\\i}"),
        ('ñ', "\\~{n}"),
        ('ò', "\\`{o}"),
        ('ó', "\\'{o}"),
        ('ô', "\\^{o}"),
        ('õ', "\\~{o}"),
        ('ö', "\\\"{o}"),
        ('ø', "\\o{}"),
        ('ù', "\\`{u}"),
        ('ú', "\\'{u}"),
        ('û', "\\^{u}"),
        ('ü', "\\\"{u}"),
        ('ý', "\\'{y}"),
        ('ÿ', "\\\"{y}"),
        ('ß', "\\ss{}"),
        ('À', "\\`{A}"),
        ('Á', "\\'{A}"),
        ('Â', "\\^{A}"),
        ('Ã', "\\~{A}"),
        ('Ä', "\\\"{A}"),
        ('Å', "\\r{A}"),
        ('Æ', "\\AE{}"),
        ('Ç', "\\c{C}"),
        ('È', "\\`{E}"),
        ('É', "\\'{E}"),
        ('Ê', "\\^{E}"),
        ('Ë', "\\\"{E}"),
        ('Í', "\\'{I}"),
        ('Î', "\\^{I}"),
        ('Ñ', "\\~{N}"),
        ('Ó', "\\'{O}"),
        ('Ô', "\\^{O}"),
        ('Ö', "\\\"{O}"),
        ('Ø', "\\O{}"),
        ('Ú', "\\'{U}"),
        ('Ü', "\\\"{U}"),
        ('ā', "\\={a}"),
        ('ē', "\\={e}"),
        ('ī', "\\={\\i}"),
        ('ō', "\\={o}"),
        ('ū', "\\={u}"),
        ('ą', "\\k{a}"),
        ('ę', "\\k{e}"),
        ('ć', "\\'{c}"),
        ('č', "\\v{c}"),
        ('ď', "\\v{d}"),
        ('ě', "\\v{e}"),
        ('ğ', "\\u{g}"),
        ('ł', "\\l{}"),
        ('Ł', "\\L{}"),
        ('ń', "\\'{n}"),
        ('ň', "\\v{n}"),
        ('ő', "\\H{o}"),
        ('œ', "\\oe{}"),
        ('Œ', "\\OE{}"),
        ('ř', "\\v{r}"),
        ('ś', "\\'{s}"),
        ('ş', "\\c{s}"),
        ('š', "\\v{s}"),
        ('Š', "\\v{S}"),
        ('ť', "\\v{t}"),
        ('ů', "\\r{u}"),
        ('ű', "\\H{u}"),
        ('ź', "\\'{z}"),
        ('ż', "\\.{z}"),
        ('ž', "\\v{z}"),
        ('Ž', "\\v{Z}"),
        ('Č', "\\v{C}"),
        ('Ř', "\\v{R}"),
        ('Ś', "\\'{S}"),
    ];
    TABLE.iter().find(|(k, _)| *k == c).map(|(_, tex)| *tex)
}

/// Greek letters and mathematical symbols as math-mode commands.
fn symbol(c: char) -> Option<&'static str> {
    SYMBOLS.iter().find(|(k, _)| *k == c).map(|(_, tex)| *tex)
}

const SYMBOLS: &[(char, &str)] = &[
    ('·', "\\cdot"),
    ('×', "\\times"),
    ('÷', "\\div"),
    ('≤', "\\le"),
    ('≥', "\\ge"),
    ('≡', "\\equiv"),
    ('≠', "\\neq"),
    ('≈', "\\approx"),
    ('°', "^\\circ"),
    ('→', "\\to"),
    ('←', "\\leftarrow"),
    ('↦', "\\mapsto"),
    ('⊕', "\\oplus"),
    ('−', "-"),
    ('±', "\\pm"),
    ('∞', "\\infty"),
    ('∈', "\\in"),
    ('∑', "\\sum"),
    ('√', "\\surd"),
    ('½', "{\\textstyle\\frac12}"),
    ('¼', "{\\textstyle\\frac14}"),
    ('…', "\\ldots"),
    ('⋯', "\\cdots"),
    ('⊗', "\\otimes"),
    ('∧', "\\wedge"),
    ('∨', "\\vee"),
    ('¬', "\\neg"),
    ('∅', "\\emptyset"),
    ('⊂', "\\subset"),
    ('⊆', "\\subseteq"),
    ('∪', "\\cup"),
    ('∩', "\\cap"),
    ('∉', "\\notin"),
    ('∀', "\\forall"),
    ('∃', "\\exists"),
    ('∂', "\\partial"),
    ('∫', "\\int"),
    ('∏', "\\prod"),
    ('≅', "\\cong"),
    ('∼', "\\sim"),
    ('≃', "\\simeq"),
    ('≪', "\\ll"),
    ('≫', "\\gg"),
    ('∣', "\\mid"),
    ('′', "'"),
    ('⌊', "\\lfloor"),
    ('⌋', "\\rfloor"),
    ('⌈', "\\lceil"),
    ('⌉', "\\rceil"),
    ('⟨', "\\langle"),
    ('⟩', "\\rangle"),
    ('⇒', "\\Rightarrow"),
    ('⇔', "\\Leftrightarrow"),
    ('↔', "\\leftrightarrow"),
    ('↑', "\\uparrow"),
    ('↓', "\\downarrow"),
    ('ℓ', "\\ell"),
    ('ϕ', "\\phi"),
    ('ϑ', "\\vartheta"),
    ('ϵ', "\\epsilon"),
    ('ι', "\\iota"),
    ('Ξ', "\\Xi"),
    ('Υ', "\\Upsilon"),
    ('υ', "\\upsilon"),
    ('²', "^2"),
    ('³', "^3"),
    ('⁰', "^0"),
    ('⁵', "^5"),
    ('⁶', "^6"),
    ('⁷', "^7"),
    ('⁸', "^8"),
    ('⁹', "^9"),
    ('ᵢ', "_i"),
    ('ₖ', "_k"),
    ('ₘ', "_m"),
    ('α', "\\alpha"),
    ('β', "\\beta"),
    ('γ', "\\gamma"),
    ('δ', "\\delta"),
    ('ε', "\\varepsilon"),
    ('ζ', "\\zeta"),
    ('η', "\\eta"),
    ('θ', "\\theta"),
    ('κ', "\\kappa"),
    ('λ', "\\lambda"),
    ('μ', "\\mu"),
    ('ν', "\\nu"),
    ('ξ', "\\xi"),
    ('π', "\\pi"),
    ('ρ', "\\rho"),
    ('σ', "\\sigma"),
    ('τ', "\\tau"),
    ('φ', "\\varphi"),
    ('χ', "\\chi"),
    ('ψ', "\\psi"),
    ('ω', "\\omega"),
    ('Γ', "\\Gamma"),
    ('Δ', "\\Delta"),
    ('Θ', "\\Theta"),
    ('Λ', "\\Lambda"),
    ('Π', "\\Pi"),
    ('Σ', "\\Sigma"),
    ('Φ', "\\Phi"),
    ('Ψ', "\\Psi"),
    ('Ω', "\\Omega"),
    ('₀', "_0"),
    ('₁', "_1"),
    ('₂', "_2"),
    ('₃', "_3"),
    ('₄', "_4"),
    ('₅', "_5"),
    ('₆', "_6"),
    ('₇', "_7"),
    ('₈', "_8"),
    ('₉', "_9"),
    ('ₙ', "_n"),
    ('¹', "^1"),
    ('⁴', "^4"),
    ('ⁿ', "^n"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn tex(text: &str) -> String {
        tex_escape(text).unwrap()
    }

    #[test]
    fn the_markup_keeps_its_symbols_and_sets_any_other_command_as_text() {
        assert_eq!(tex("$x \\oplus y \\le z$"), "$x \\oplus y \\le z$");
        assert_eq!(tex("$\\alpha_1$"), "$\\alpha_1$");
        assert_eq!(tex("\\input{x}"), "\\textbackslash{}input\\{x\\}");
        for text in [
            "$\\input{/etc/hostname}$",
            "$\\immediate\\write18{touch x}$",
            "$\\csname input\\endcsname{x}$",
            "$x^^5cinput{x}$",
            "$^^5c^^5c$",
        ] {
            let out = tex(text);
            for live in ["\\input", "\\write", "\\immediate", "\\csname", "^^"] {
                assert!(!out.contains(live), "{text}: {out}");
            }
        }
        assert!(tex("$\\input{x}$").starts_with("$\\backslash\\mathrm{input}{"));
    }

    #[test]
    fn braces_dollars_and_scripts_always_make_valid_latex() {
        // What the papers' captions write is unchanged.
        assert_eq!(tex("$S_4$ and $2^{10}$"), "$S_4$ and $2^{10}$");
        assert_eq!(tex("$x^2_3$ $x''$"), "$x^2_3$ $x''$");
        assert_eq!(tex("$x ≤ y$"), "$x \\le y$");
        // An unpaired dollar is a dollar sign; unbalanced braces are brace characters.
        assert_eq!(tex("a$b"), "a\\$b");
        assert_eq!(tex("$a$ b$c"), "$a$ b\\$c");
        assert_eq!(tex("$}x{$"), "$\\}x\\{$");
        assert_eq!(tex("${x$"), "$\\{x$");
        // No double script and no ^^: a script on an empty atom instead.
        assert_eq!(tex("$x^^5c$"), "$x^{}{}^5c$");
        assert_eq!(tex("$x_1_2$"), "$x_1{}_2$");
        assert_eq!(tex("$x^{2}^3$"), "$x^{2}{}^3$");
        assert_eq!(tex("$S₄₅$"), "$S_4{}_5$");
        // A script with nothing after it gets an empty argument.
        assert_eq!(tex("$a^$ $_$"), "$a^{}$ $_{}$");
        assert_eq!(tex("$x^}$"), "$x^{}\\}$");
        // A word as a script's argument is one group.
        assert_eq!(tex("$x^ab$"), "$x^{\\mathop{\\mathrm{ab}}\\nolimits}$");
        // Line breaks are spaces; other control characters have no spelling.
        assert_eq!(tex("a\nb"), "a b");
        assert_eq!(tex_escape("a\u{1}b"), Err('\u{1}'));
    }

    #[test]
    fn a_comment_stays_one_line() {
        assert_eq!(
            tex_comment("x\n\\input{/etc/hostname}\r\n"),
            "x \\input{/etc/hostname}  "
        );
    }
}
