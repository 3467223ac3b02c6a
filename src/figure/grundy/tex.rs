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
        text.push_str(&format!(
            "\\begin{{tabular}}{{|c|*{{{}}}{{w{{c}}{{{column:.1}em}}|}}}}\n\\hline\n",
            cells.cols,
        ));
        let header = |s: String| format!("\\cellcolor{{nimscapeHeader}}{s}");
        let mut row: Vec<String> = vec![header(format!(
            "{}\\textbackslash{{}}{}",
            coordinate(&frame.names[dr])?,
            coordinate(&frame.names[dc])?
        ))];
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
        text.push_str("\\end{tabular}\n\\endgroup\n");
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
}
