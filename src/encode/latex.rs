//! Text for LaTeX: what `figures.tex` captions and `.tex` tables are made of.

/// Escapes text for LaTeX (pdflatex with its default fonts): specials, accented
/// Latin letters as accent commands, Greek and mathematical symbols in math mode.
/// `$...$` is the captions' math markup, which is LaTeX's own: it passes through,
/// its symbols mapped to math commands (`⊕` to `\oplus`) and its words of two or
/// more letters upright (`floor` to `\mathrm{floor}`), as the figures draw them;
/// so `$x ⊕ y ⊕ z = 0$` and `$S_4$` set as in the papers. A character with no
/// LaTeX spelling here is the error: pdflatex would stop at it.
pub fn tex_escape(text: &str) -> std::result::Result<String, char> {
    let mut out = String::with_capacity(text.len() + 16);
    let mut math = false;
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch == '\\' && chars.peek() == Some(&'$') {
            chars.next();
            out += "\\$";
            continue;
        }
        if ch == '$' {
            math = !math;
            out.push('$');
            continue;
        }
        if math {
            match ch {
                '%' | '&' | '#' => {
                    out.push('\\');
                    out.push(ch);
                }
                // A command typed in the markup (`\oplus`) passes whole.
                '\\' => {
                    out.push('\\');
                    while let Some(&c) = chars.peek().filter(|c| c.is_ascii_alphabetic()) {
                        out.push(c);
                        chars.next();
                    }
                }
                c if c.is_ascii_alphabetic() => {
                    let mut word = c.to_string();
                    while let Some(&c) = chars.peek().filter(|c| c.is_ascii_alphabetic()) {
                        word.push(c);
                        chars.next();
                    }
                    if word.len() == 1 {
                        out += &word;
                    } else if word == "mod" {
                        out += "\\bmod";
                        end_command(&mut out, chars.peek());
                    } else {
                        // A name such as res2 keeps its digits.
                        while let Some(&c) = chars.peek().filter(|c| c.is_ascii_digit()) {
                            word.push(c);
                            chars.next();
                        }
                        // An operator name, spaced as \operatorname spaces it.
                        out += &format!("\\mathop{{\\mathrm{{{word}}}}}\\nolimits");
                        end_command(&mut out, chars.peek());
                    }
                }
                '−' => out.push('-'),
                c if c.is_ascii() => out.push(c),
                c => match symbol(c) {
                    Some(tex) => {
                        out += tex;
                        end_command(&mut out, chars.peek());
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
    const TABLE: &[(char, &str)] = &[
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
    TABLE.iter().find(|(k, _)| *k == c).map(|(_, tex)| *tex)
}
