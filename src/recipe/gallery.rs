//! What `render` writes beside the figures: `index.md`, a gallery with each
//! figure's caption and the command that redraws it, and `figures.tex`, one
//! LaTeX `figure` environment per figure.

use super::file::{Columns, FigureEntry, Recipe};
use crate::request::{tex_comment, tex_escape, Format};

/// One rendered figure: its entry, the files written, and the command line that made them.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered<'a> {
    /// The recipe entry.
    pub entry: &'a FigureEntry,
    /// File names written, relative to the set's folder, in the entry's format order.
    pub files: Vec<String>,
    /// The command that redraws it (without `-o`).
    pub command: String,
    /// The natural size of the file `figures.tex` includes, in PDF points
    /// ([`natural_size`]); `None` bounds it by the line width alone.
    pub size: Option<(f64, f64)>,
}

/// The gallery page of a set.
pub fn index_md(recipe: &Recipe, figures: &[Rendered]) -> String {
    let mut page = format!("# {}\n\n", recipe.title);
    if let Some(source) = &recipe.source {
        page += &format!("Redraws the computational figures of {source}.\n\n");
    }
    if recipe.embedded {
        // The commands name the recipe's game files as the repository has them.
        page += &format!(
            "Rendered by nimscape {} from its built-in `{}` (`nimscape render --builtin {}`); every figure below lists the command that redraws it, with game files as the repository's `games/` folder has them.\n\n",
            env!("CARGO_PKG_VERSION"),
            recipe.path.display(),
            recipe.name
        );
    } else {
        page += &format!(
            "Rendered by nimscape {} from `{}`; every figure below lists the command that redraws it.\n\n",
            env!("CARGO_PKG_VERSION"),
            recipe.path.display()
        );
    }
    for figure in figures {
        page += &format!("## {}\n\n", figure.entry.name);
        if !figure.entry.caption.is_empty() {
            page += &format!("{}\n\n", figure.entry.caption);
        }
        let shown = figure
            .files
            .iter()
            .find(|f| f.ends_with(".png") || f.ends_with(".gif"))
            .or_else(|| figure.files.iter().find(|f| f.ends_with(".svg")));
        if let Some(file) = shown {
            page += &format!(
                "![{}]({file})\n\n",
                figure.entry.caption.replace(['[', ']'], "")
            );
        }
        page += &format!(
            "Files: {}\n\n",
            figure
                .files
                .iter()
                .map(|f| format!("[{f}]({f})"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        page += &format!("```sh\n{}\n```\n\n", figure.command);
        page += &format!(
            "Recipe: `{}`, line {}.\n\n",
            recipe.path.display(),
            figure.entry.line
        );
    }
    page
}

/// A survey of a set that ran: its entry, its reports, its command.
pub struct RenderedSurvey<'a> {
    /// The recipe entry.
    pub entry: &'a super::file::SurveyEntry,
    /// Report file names (`name.md`, `name.json`, ...), relative to the set's folder.
    pub files: Vec<String>,
    /// The command that runs it again (without `-o`).
    pub command: String,
}

/// The gallery page's part for a set's surveys: a link to each report, its
/// command and its recipe line (appended to [`index_md`]).
pub fn surveys_md(recipe: &Recipe, surveys: &[RenderedSurvey]) -> String {
    let mut page = String::new();
    for survey in surveys {
        page += &format!("## {} (survey)\n\n", survey.entry.name);
        if !survey.entry.caption.is_empty() {
            page += &format!("{}\n\n", survey.entry.caption);
        }
        page += &format!(
            "Reports: {}\n\n",
            survey
                .files
                .iter()
                .map(|f| format!("[{f}]({f})"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        page += &format!("```sh\n{}\n```\n\n", survey.command);
        page += &format!(
            "Recipe: `{}`, line {}.\n\n",
            recipe.path.display(),
            survey.entry.line
        );
    }
    page
}

/// A `[[prove]]` of a set that ran: its entry, its verdicts, its command.
pub struct ProvedEntry<'a> {
    /// The recipe entry.
    pub entry: &'a super::file::ProveEntry,
    /// Per case: its label (`k=5`, a theorem's name), the verdict line, and
    /// the certificate's folder relative to the set's folder.
    pub verdicts: Vec<(Option<String>, String, Option<String>)>,
    /// The command that proves it again (without `-o`).
    pub command: String,
}

/// The gallery page's part for a set's proofs: each verdict with a link to its
/// certificate's report, and the command (appended to [`index_md`]).
pub fn proofs_md(proofs: &[ProvedEntry]) -> String {
    let mut page = String::new();
    for proof in proofs {
        page += &format!(
            "## {} (prove)

",
            proof.entry.name
        );
        if !proof.entry.caption.is_empty() {
            page += &format!(
                "{}

",
                proof.entry.caption
            );
        }
        for (label, summary, folder) in &proof.verdicts {
            let label = label
                .as_deref()
                .map(|l| format!("{l}: "))
                .unwrap_or_default();
            let link = folder
                .as_deref()
                .map(|f| format!(" ([certificate]({f}/report.md))"))
                .unwrap_or_default();
            page += &format!("- {label}{summary}{link}\n");
        }
        page += &format!("\n```sh\n{}\n```\n\n", proof.command);
    }
    page
}

/// The widest column of a two-column journal page, in PDF points: 3.5 in
/// (89 mm; journals' columns are 84 to 89 mm, docs/print.md). A figure wider
/// than this was made for the page, not for a column.
pub(crate) const COLUMN_BP: f64 = 252.0;

/// The macro every figure is set with, defined once at the top of `figures.tex`:
/// the file at its natural size, scaled down (never up) to fit the line's width
/// and `\nimscapemaxheight` (0.8\textheight, 0.65\textheight in beamer, or
/// yours: `\newcommand\nimscapemaxheight{...}` before the `\input`).
/// pdfTeX keeps one transparency page group per page and warns when a second
/// figure brings its own; the figures' groups only say "sRGB, isolated", which
/// the page keeps from the first, so that warning is switched off.
const PREAMBLE: &str = r"\ifdefined\nimscapemaxheight\else
  \ifdefined\insertframetitle \def\nimscapemaxheight{0.65\textheight}%
  \else \def\nimscapemaxheight{0.8\textheight}\fi
\fi
\ifdefined\pdfsuppresswarningpagegroup \pdfsuppresswarningpagegroup=1 \fi
% \nimscapegraphics{natural width}{natural height}{file}
\providecommand\nimscapegraphics[3]{{%
  \dimen0=#1\relax \ifdim\dimen0>\linewidth \dimen0=\linewidth \fi
  \dimen2=#2\relax \ifdim\dimen2>\nimscapemaxheight \dimen2=\nimscapemaxheight \fi
  \edef\next{\noexpand\includegraphics[width=\the\dimen0,height=\the\dimen2,keepaspectratio]{#3}}%
  \next}}
";

/// The LaTeX snippet of a set: `\input` it from a document whose `\graphicspath`
/// includes the set's folder. Vector figures are included as PDF, rasters as PNG,
/// each at its natural size (the size it was rendered for: `width = "85mm"` in a
/// recipe makes a column-wide figure) with the line's width and a share of the
/// text height as upper bounds, never stretched, so type keeps the size it was
/// drawn at unless the page is smaller than the figure. In a two-column paper
/// a figure wider than a column spans both (`figure*`). An animation is shown by
/// its last frame, with a note.
pub fn figures_tex(recipe: &Recipe, figures: &[Rendered], columns: Columns) -> String {
    let mut tex = format!(
        "% {} — generated by nimscape {}; do not edit.\n",
        tex_comment(&one_line(&recipe.title)),
        env!("CARGO_PKG_VERSION")
    );
    tex += "% Needs \\usepackage{graphicx}. Figures are set at their natural size, scaled\n";
    tex += "% down only where the line or the page is smaller; render them at the width\n";
    tex += &format!(
        "% your page needs (width = \"85mm\" for a column). Layout: {}.\n",
        match columns {
            Columns::One => "one column (columns = 1; figure everywhere)",
            Columns::Two =>
                "two columns (columns = 2; figures wider than 89 mm span both as figure*)",
        }
    );
    tex += PREAMBLE;
    tex += "\n";
    for figure in figures {
        let pick = |ext: &str| figure.files.iter().find(|f| f.ends_with(ext));
        let Some(file) = pick(".pdf").or_else(|| pick(".png")) else {
            continue;
        };
        if let (Some(still), Some(animation)) = (
            still_name(figure.entry),
            pick(".gif").or_else(|| pick(".apng")),
        ) {
            tex += &format!(
                "% {}: an animation ({animation}), which a PDF cannot play: shown here as its\n% last frame ({still}). For the animation in a beamer PDF, render numbered\n% frames for the animate package's \\animategraphics (see docs/print.md).\n",
                figure.entry.name
            );
        }
        let caption = figure
            .entry
            .tex_caption
            .clone()
            .unwrap_or_else(|| tex_caption(&figure.entry.caption));
        // A blank line would end \caption's argument (a LaTeX error): one paragraph.
        let caption = one_line(&caption);
        let wide = columns == Columns::Two && figure.size.is_some_and(|(w, _)| w > COLUMN_BP);
        let (environment, placement) = if wide {
            ("figure*", "tbp")
        } else {
            ("figure", "htbp")
        };
        tex += &format!("\\begin{{{environment}}}[{placement}]\n  \\centering\n");
        match figure.size {
            Some((w, h)) => {
                tex += &format!("  \\nimscapegraphics{{{w:.2}bp}}{{{h:.2}bp}}{{{file}}}\n")
            }
            None => {
                tex += &format!(
                    "  \\nimscapegraphics{{\\linewidth}}{{\\nimscapemaxheight}}{{{file}}}\n"
                )
            }
        }
        if !caption.is_empty() {
            tex += &format!("  \\caption{{{caption}}}\n");
        }
        tex += &format!(
            "  \\label{{fig:{}:{}}}\n\\end{{{environment}}}\n\n",
            label_text(&recipe.name),
            label_text(&figure.entry.name)
        );
    }
    tex
}

/// A caption for LaTeX; a character pdflatex cannot set becomes `?` here, but
/// [`check_captions`] refuses such a caption before anything is drawn.
fn tex_caption(caption: &str) -> String {
    tex_escape(caption).unwrap_or_else(|_| {
        caption
            .chars()
            .map(|c| tex_escape(&c.to_string()).unwrap_or_else(|_| "?".into()))
            .collect()
    })
}

/// Every figure caption of a recipe that has no `tex-caption` can be set by
/// pdflatex; the error names the recipe line, the figure and the character.
pub fn check_captions(recipe: &Recipe) -> std::result::Result<(), String> {
    for entry in &recipe.figures {
        if entry.tex_caption.is_some() {
            continue;
        }
        if let Err(c) = tex_escape(&entry.caption) {
            return Err(format!(
                "{}:{}: figure '{}': its caption has '{c}' (U+{:04X}), which pdflatex cannot set; write the LaTeX caption as `tex-caption`",
                recipe.path.display(),
                entry.line,
                entry.name,
                u32::from(c)
            ));
        }
    }
    Ok(())
}

/// The size a figure file is included at, in PDF points (`bp`): a PDF's
/// MediaBox, or a PNG's pixels at its stored resolution (72 dpi when it stores
/// none, as pdfTeX reads it). `None` when the bytes are neither.
pub fn natural_size(bytes: &[u8]) -> Option<(f64, f64)> {
    if bytes.starts_with(b"%PDF-") {
        let text = String::from_utf8_lossy(bytes);
        let at = text.find("/MediaBox")?;
        let open = at + text[at..].find('[')?;
        let close = open + text[open..].find(']')?;
        let numbers: Vec<f64> = text[open + 1..close]
            .split_whitespace()
            .map(str::parse)
            .collect::<std::result::Result<_, _>>()
            .ok()?;
        let [x0, y0, x1, y1] = numbers[..] else {
            return None;
        };
        return Some((x1 - x0, y1 - y0));
    }
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() >= 24 {
        let word = |at: usize| {
            u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let (w, h) = (f64::from(word(16)), f64::from(word(20)));
        let mut per_inch = (72.0, 72.0);
        let mut at = 8;
        while at + 8 <= bytes.len() {
            let length = word(at) as usize;
            let kind = &bytes[at + 4..at + 8];
            if kind == b"pHYs" && at + 17 <= bytes.len() && bytes[at + 16] == 1 {
                per_inch = (
                    f64::from(word(at + 8)) * 0.0254,
                    f64::from(word(at + 12)) * 0.0254,
                );
            }
            if kind == b"IDAT" || kind == b"IEND" {
                break;
            }
            at += 12 + length;
        }
        return Some((w * 72.0 / per_inch.0, h * 72.0 / per_inch.1));
    }
    None
}

/// Text on one line: newlines and runs of spaces become one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A name safe inside `\label{}`: letters, digits and `-:.` kept, the rest `-`.
fn label_text(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-:.".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// File name of a figure's output in a format.
pub fn file_name(entry: &FigureEntry, format: Format) -> String {
    format!("{}.{}", entry.name, format.extension())
}

/// The still PNG (the last frame) drawn beside an animation that has no still
/// format of its own, so `figures.tex` has something to show.
pub fn still_name(entry: &FigureEntry) -> Option<String> {
    let animated = entry.formats.iter().any(|f| f.is_animation());
    let still = entry
        .formats
        .iter()
        .any(|f| matches!(f, Format::Png | Format::Pdf | Format::Svg));
    (animated && !still).then(|| format!("{}-last-frame.png", entry.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tex(text: &str) -> String {
        tex_escape(text).unwrap()
    }

    #[test]
    fn accents_math_and_lines_come_out_right() {
        assert_eq!(tex("Müller"), "M\\\"{u}ller");
        assert_eq!(tex("$S_4$ and $R(m,m)$"), "$S_4$ and $R(m,m)$");
        assert_eq!(tex("costs \\$5"), "costs \\$5");
        assert_eq!(tex("$x ≤ y$"), "$x \\le y$");
        assert_eq!(tex("S₄"), "S\\ensuremath{_4}");
        assert_eq!(one_line("a\n\nb  c"), "a b c");
        assert_eq!(tex_escape("日本"), Err('日'));
    }

    #[test]
    fn latex_specials_and_symbols_are_escaped() {
        assert_eq!(
            tex("R(m,m)·1/m, 50% & x_1"),
            "R(m,m)\\ensuremath{\\cdot}1/m, 50\\% \\& x\\_1"
        );
        assert_eq!(tex("m² ≤ 4"), "m\\textsuperscript{2} \\ensuremath{\\le} 4");
    }

    #[test]
    fn the_math_markup_becomes_latex_math() {
        // Nim-sums, subscripts and function names as the papers set them.
        assert_eq!(tex("$x⊕y⊕z = 0$"), "$x\\oplus y\\oplus z = 0$");
        assert_eq!(
            tex("$x_1$, $x_{odd}$"),
            "$x_1$, $x_{\\mathop{\\mathrm{odd}}\\nolimits}$"
        );
        assert_eq!(
            tex("$y ≤ min(x,z)$, $res2(x)$, $a mod 3$"),
            "$y \\le \\mathop{\\mathrm{min}}\\nolimits(x,z)$, $\\mathop{\\mathrm{res2}}\\nolimits(x)$, $a \\bmod 3$"
        );
        assert_eq!(tex("$x − z$, $\\oplus$"), "$x - z$, $\\oplus$");
        assert_eq!(tex("$2^{62}−1$"), "$2^{62}-1$");
        assert_eq!(tex("$m = 1, …, 24$"), "$m = 1, \\ldots, 24$");
    }

    #[test]
    fn every_unicode_character_of_the_templates_has_a_spelling() {
        for text in ["§8.4", "≤ − φ → ⊕ ° · ½", "Figures 8–11", "“x”"] {
            let out = tex(text);
            assert!(out.is_ascii() && !out.contains('?'), "{text} -> {out}");
        }
        assert_eq!(tex("§8.4"), "\\S{}8.4");
        assert_eq!(
            tex("φ → ψ"),
            "\\ensuremath{\\varphi} \\ensuremath{\\to} \\ensuremath{\\psi}"
        );
    }

    #[test]
    fn natural_sizes_come_from_the_media_box_and_the_png_resolution() {
        let pdf = b"%PDF-1.5\n1 0 obj << /MediaBox [0 0 240.94 180.5] >>";
        assert_eq!(natural_size(pdf), Some((240.94, 180.5)));
        // A 300 x 150 px PNG at 300 dpi (11811 px per metre) is 72 x 36 pt.
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend(300u32.to_be_bytes());
        png.extend(150u32.to_be_bytes());
        png.extend([8, 3, 0, 0, 0, 0, 0, 0, 0]);
        png.extend(9u32.to_be_bytes());
        png.extend(b"pHYs");
        png.extend(11811u32.to_be_bytes());
        png.extend(11811u32.to_be_bytes());
        png.extend([1, 0, 0, 0, 0]);
        let (w, h) = natural_size(&png).unwrap();
        assert!(
            (w - 72.0).abs() < 0.01 && (h - 36.0).abs() < 0.01,
            "{w} {h}"
        );
        assert_eq!(natural_size(b"GIF89a"), None);
    }
}
