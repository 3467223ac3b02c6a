//! The Grundy table as LaTeX: a `tabular` whose numbers LaTeX sets in the
//! paper's own font, cells coloured by value mod m through `colortbl`, so the
//! table matches the body text at any size the paper sets it.

use std::io::Write;

use super::spec::{Frame, GrundyFigure};
use super::table::{TableCells, HEADER_GREY, OUTSIDE_GREY};
use crate::games::Solution;
use crate::library::encode::latex::{tex_comment, tex_escape};
use crate::library::encode::Metadata;
use crate::library::scene::color::ink_on;
use crate::library::scene::Color;
use crate::Result;

/// A colour as `\definecolor{name}{rgb}{r,g,b}` takes it.
fn rgb(color: Color) -> String {
    let [r, g, b] = color.rgb_array().map(|c| f64::from(c) / 255.0);
    format!("{r:.3},{g:.3},{b:.3}")
}

/// A coordinate name as LaTeX text, its trailing number a subscript (`x1` is
/// x₁); names are identifiers, so every character has a spelling.
fn coordinate(name: &str) -> Result<String> {
    let text = |t: &str| {
        tex_escape(t).map_err(|c| {
            crate::Error::unsupported(format!(
                "the coordinate name '{name}' holds '{c}' (U+{:04X}), which LaTeX cannot set here",
                u32::from(c)
            ))
        })
    };
    Ok(match super::names::numbered(name) {
        Some((stem, number)) => format!("{}\\textsubscript{{{number}}}", text(stem)?),
        None => text(name)?,
    })
}

/// A coordinate name as a math formula when it is one letter, with or without
/// a number (`x`, `x1` is `x_{1}`): the papers set those in math italic.
fn coordinate_math(name: &str) -> Option<String> {
    let letter = |stem: &str| stem.len() == 1 && stem.chars().all(|c| c.is_ascii_alphabetic());
    match super::names::numbered(name) {
        Some((stem, number)) if letter(stem) => Some(format!("{stem}_{{{number}}}")),
        None if letter(name) => Some(name.to_string()),
        _ => None,
    }
}

/// The table's corner, naming its rows and columns: `$x\backslash y$` when both
/// are formulas, else text.
fn corner(rows: &str, cols: &str) -> Result<String> {
    Ok(match (coordinate_math(rows), coordinate_math(cols)) {
        (Some(r), Some(c)) => format!("${r}\\backslash {c}$"),
        _ => format!(
            "{}\\textbackslash{{}}{}",
            coordinate(rows)?,
            coordinate(cols)?
        ),
    })
}

/// The colour key under the table, as rows of a one-column tabular: a framed
/// swatch per class and its residue, as the PNG's key has, three to a row
/// so that it fits a narrow column.
fn key_rows(palette: &[Color]) -> Vec<String> {
    let classes = palette.len();
    let entries: Vec<String> = palette
        .iter()
        .enumerate()
        .map(|(class, _)| {
            let words = if classes == 1 {
                "every value".to_string()
            } else {
                format!("$\\equiv {class}\\ (\\mathrm{{mod}}\\ {classes})$")
            };
            format!(
                "\\fcolorbox{{black}}{{nimscapeClass{class}}}{{\\rule{{0pt}}{{0.75em}}\\rule{{0.75em}}{{0pt}}}}~{words}"
            )
        })
        .collect();
    let rows = classes.div_ceil(3);
    let per_row = classes.div_ceil(rows.max(1)).max(1);
    entries
        .chunks(per_row)
        .map(|row| row.join("\\hspace{1em}"))
        .collect()
}

impl GrundyFigure {
    /// Writes the table (two free coordinates) as a LaTeX `tabular`, to be
    /// `\input` in a document that loads `colortbl`.
    pub(super) fn write_tex(
        &self,
        solution: &Solution,
        frame: &Frame,
        metadata: &Metadata,
        out: &mut dyn Write,
    ) -> Result<()> {
        let (dr, dc) = (frame.free[0], frame.free[1]);
        let cells = TableCells::of(solution, frame);
        let classes = self.table.modulus as usize;
        let palette = self.table.palette.class_colors(self.table.modulus)?;
        let mut text = String::new();
        text.push_str(&format!(
            "% Grundy values of {}, coloured by value mod {classes}.\n",
            tex_comment(&self.caption(frame))
        ));
        for (key, value) in &metadata.entries {
            text.push_str(&format!("% {key}: {}\n", tex_comment(value)));
        }
        text.push_str(
            "% Needs \\usepackage{colortbl} in the preamble; \\input this file where the table goes.\n",
        );
        text.push_str("\\begingroup\n");
        for (class, &color) in palette.iter().enumerate() {
            text.push_str(&format!(
                "\\definecolor{{nimscapeClass{class}}}{{rgb}}{{{}}}\n",
                rgb(color)
            ));
        }
        text.push_str(&format!(
            "\\definecolor{{nimscapeHeader}}{{rgb}}{{{}}}\n\\definecolor{{nimscapeOutside}}{{rgb}}{{{}}}\n",
            rgb(Color::gray(HEADER_GREY)),
            rgb(Color::gray(OUTSIDE_GREY))
        ));
        text.push_str("\\setlength{\\tabcolsep}{0.3em}\\renewcommand{\\arraystretch}{1.15}\n");
        // Columns as wide as the widest number (digits are half an em in text
        // fonts), so that a table's grid is even.
        let widest = cells
            .values
            .iter()
            .flatten()
            .map(|v| v.to_string().len())
            .chain([(cells.first_col + cells.cols - 1).to_string().len()])
            .max()
            .unwrap_or(1);
        let column = 0.5 * widest as f64 + 0.1;
        text.push_str(&format!(
            "% {} columns of numbers; wider than the column? Set it in \\small or \\footnotesize.\n",
            cells.cols
        ));
        // The table over its colour key, one box wherever the file is input.
        let key = self.table.key;
        if key {
            text.push_str("\\begin{tabular}{@{}c@{}}\n");
        }
        text.push_str(&format!(
            "\\begin{{tabular}}{{|c|*{{{}}}{{w{{c}}{{{column:.1}em}}|}}}}\n\\hline\n",
            cells.cols,
        ));
        let header = |s: String| format!("\\cellcolor{{nimscapeHeader}}{s}");
        let mut row: Vec<String> = vec![header(corner(&frame.names[dr], &frame.names[dc])?)];
        row.extend((0..cells.cols).map(|k| header((cells.first_col + k).to_string())));
        text.push_str(&row.join(" & "));
        text.push_str(" \\\\ \\hline\n");
        for r in 0..cells.rows {
            let mut row = vec![header((cells.first_row + r).to_string())];
            for k in 0..cells.cols {
                row.push(match cells.values[r * cells.cols + k] {
                    None => "\\cellcolor{nimscapeOutside}".to_string(),
                    Some(v) => {
                        let class = usize::from(v) % classes;
                        let number = if ink_on(palette[class]) == Color::WHITE {
                            format!("\\textcolor{{white}}{{{v}}}")
                        } else {
                            v.to_string()
                        };
                        format!("\\cellcolor{{nimscapeClass{class}}}{number}")
                    }
                });
            }
            text.push_str(&row.join(" & "));
            text.push_str(" \\\\ \\hline\n");
        }
        text.push_str("\\end{tabular}\n");
        if key {
            text.push_str("\\\\[0.8ex]\n\\setlength{\\fboxsep}{0pt}");
            text.push_str(&key_rows(&palette).join("\\\\\n"));
            text.push_str("\n\\end{tabular}\n");
        }
        text.push_str("\\endgroup\n");
        out.write_all(text.as_bytes())
            .map_err(crate::Error::write_failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_reach_latex_as_text() {
        assert_eq!(coordinate("x1").unwrap(), "x\\textsubscript{1}");
        assert_eq!(coordinate("heap_a").unwrap(), "heap\\_a");
        assert_eq!(rgb(Color::gray(0.5)), "0.502,0.502,0.502");
    }

    #[test]
    fn a_corner_of_letters_is_math_and_of_words_is_text() {
        assert_eq!(corner("x", "y").unwrap(), "$x\\backslash y$");
        assert_eq!(corner("x1", "x2").unwrap(), "$x_{1}\\backslash x_{2}$");
        assert_eq!(corner("heap_a", "y").unwrap(), "heap\\_a\\textbackslash{}y");
    }

    #[test]
    fn the_key_has_a_swatch_and_residue_per_class_three_to_a_row() {
        let rows = key_rows(&[Color::WHITE; 3]);
        assert_eq!(rows.len(), 1, "{rows:?}");
        for class in 0..3 {
            assert!(rows[0].contains(&format!("{{nimscapeClass{class}}}")));
            assert!(rows[0].contains(&format!("$\\equiv {class}\\ (\\mathrm{{mod}}\\ 3)$")));
        }
        let rows = key_rows(&[Color::WHITE; 8]);
        assert_eq!(rows.len(), 3, "{rows:?}");
        assert_eq!(
            rows.iter()
                .map(|r| r.matches("fcolorbox").count())
                .sum::<usize>(),
            8
        );
        assert!(key_rows(&[Color::WHITE])[0].ends_with("every value"));
    }
}
