//! SVG: the same scene as the PNG, as vectors.
//!
//! Cell layers are merged into one path per colour made of maximal
//! rectangles (runs along a row, stacked while the next row repeats them),
//! so a 1024 x 1024 pattern stays small. Cell edges are the PNG's whole-pixel
//! edges and are drawn with `crispEdges`. Text is drawn as the glyph outlines
//! of the embedded font, with the words as real (invisible, selectable) text
//! over them (the PDF, written from the scene itself, embeds a subset of the
//! font instead). A scene on paper gets `width="85mm"` and a viewBox in its
//! units.

use super::metadata::Metadata;
use crate::library::scene::font;
use crate::library::scene::units::trim_number;
use crate::library::scene::{CellLayer, Color, Item, PathCmd, Scene, TextItem, TextMode};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

/// Writes a scene as a standalone SVG document: exact outlines, whatever fonts
/// the viewer has.
pub fn write_svg(out: &mut dyn Write, scene: &Scene, metadata: &Metadata) -> io::Result<()> {
    let (w, h) = (scene.width, scene.height);
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    let (width, height) = match &scene.paper {
        Some(paper) => {
            let (mm_w, mm_h) = paper.millimetres();
            (
                format!("{}mm", trim_number(mm_w)),
                format!("{}mm", trim_number(mm_h)),
            )
        }
        None => (w.to_string(), h.to_string()),
    };
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {w} {h}">"#
    )?;
    if !metadata.entries.is_empty() {
        write!(out, "<metadata>")?;
        for (key, value) in &metadata.entries {
            write!(out, "{}: {}; ", escape(key), escape(value))?;
        }
        writeln!(out, "</metadata>")?;
    }
    if scene.background.a > 0 {
        writeln!(
            out,
            r#"<rect width="{w}" height="{h}"{}/>"#,
            paint("fill", scene.background)
        )?;
    }
    for item in &scene.items {
        match item {
            Item::Cells(layer) => write_cells(out, layer)?,
            Item::Path(path) => {
                let mut attributes = match path.fill {
                    Some(fill) => paint("fill", fill),
                    None => r#" fill="none""#.to_string(),
                };
                if let Some((color, width)) = path.stroke {
                    attributes += &paint("stroke", color);
                    let _ = write!(
                        attributes,
                        r#" stroke-width="{}" stroke-linejoin="miter""#,
                        num(width)
                    );
                }
                writeln!(
                    out,
                    r#"<path d="{}"{attributes}/>"#,
                    path_data(&path.commands)
                )?;
            }
            Item::Text(text) => match scene.text {
                TextMode::Text => {
                    writeln!(
                        out,
                        r#"<path aria-hidden="true" d="{}"{}/>"#,
                        path_data(&font::text_path_in(scene.font, text)),
                        paint("fill", text.color)
                    )?;
                    write_text(out, scene, text)?;
                }
                TextMode::Outlines => {
                    // The words for screen readers; the outlines are what shows.
                    writeln!(
                        out,
                        r#"<path aria-label="{}" d="{}"{}/>"#,
                        escape(&crate::library::scene::markup::plain(&text.text)),
                        path_data(&font::text_path_in(scene.font, text)),
                        paint("fill", text.color)
                    )?;
                }
            },
        }
    }
    writeln!(out, "</svg>")
}

/// A text item as real, transparent text over its outlines, for search and
/// selection: a group placed and turned like the item, with one `<text>` per
/// styled run at the position the font module laid out (italic runs slanted, as
/// the outlines are).
fn write_text(out: &mut dyn Write, scene: &Scene, text: &TextItem) -> io::Result<()> {
    let (dx, dy) = font::baseline_offset(scene.font, text);
    let mut transform = format!("translate({} {})", num3(text.x), num3(text.y));
    if text.rotation != 0.0 {
        let _ = write!(transform, " rotate({})", num3(text.rotation));
    }
    let fill = r##" fill="#000" fill-opacity="0""##;
    let label = format!(
        r#" aria-label="{}""#,
        escape(&crate::library::scene::markup::plain(&text.text))
    );
    // The role as a class: style sheets can restyle one kind of text, and tests
    // read each role's size from the file.
    let class = match text.role {
        crate::library::scene::Role::Other => String::new(),
        role => format!(r#" class="{}""#, role.class()),
    };
    write!(
        out,
        r#"<g{label}{class} transform="{transform}" font-family="{}"{fill}>"#,
        scene.font.name()
    )?;
    for run in font::placed_runs(scene.font, &text.text, text.size) {
        let (x, y) = (num3(dx + run.dx), num3(dy + run.dy));
        let place = if run.italic {
            format!(r#" transform="translate({x} {y}) skewX(-{})""#, font::SLANT)
        } else {
            format!(r#" x="{x}" y="{y}""#)
        };
        // textLength pins each run to the width the layout measured, whatever the
        // text engine's shaping makes of it.
        write!(
            out,
            r#"<text{place} font-size="{}" textLength="{}" xml:space="preserve">{}</text>"#,
            num3(run.size),
            num3(run.width),
            escape(&run.text)
        )?;
    }
    writeln!(out, "</g>")
}

/// A number with at most three decimals: text positions want a little more than
/// [`num`]'s two.
fn num3(value: f64) -> String {
    trim_number(value)
}

fn paint(attribute: &str, color: Color) -> String {
    let mut text = format!(r#" {attribute}="{}""#, color.hex());
    if color.a < 255 {
        let _ = write!(
            text,
            r#" {attribute}-opacity="{}""#,
            num(f64::from(color.a) / 255.0)
        );
    }
    text
}

/// Text for SVG (XML), in content or in a quoted attribute: the one way text
/// from a command line, a recipe, a game file or a request reaches SVG. Markup characters become entities, and a
/// character XML 1.0 cannot hold at all (a control character other than tab and
/// line breaks, U+FFFE, U+FFFF) becomes U+FFFD, so the file is always
/// well-formed; the front ends refuse such text before this, with a message.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() && u32::from(c) < 0x20 => out.push('\u{fffd}'),
            '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A number with at most two decimals and no trailing zeros: short, and identical
/// between runs.
pub fn num(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == rounded.trunc() {
        format!("{}", rounded as i64)
    } else {
        let text = format!("{rounded:.2}");
        text.trim_end_matches('0').to_string()
    }
}

fn path_data(commands: &[PathCmd]) -> String {
    let mut d = String::new();
    for cmd in commands {
        let _ = match *cmd {
            PathCmd::MoveTo(x, y) => write!(d, "M{} {}", num(x), num(y)),
            PathCmd::LineTo(x, y) => write!(d, "L{} {}", num(x), num(y)),
            PathCmd::QuadTo(a, b, x, y) => {
                write!(d, "Q{} {} {} {}", num(a), num(b), num(x), num(y))
            }
            PathCmd::CubicTo(a, b, c, e, x, y) => {
                write!(
                    d,
                    "C{} {} {} {} {} {}",
                    num(a),
                    num(b),
                    num(c),
                    num(e),
                    num(x),
                    num(y)
                )
            }
            PathCmd::Close => write!(d, "Z"),
        };
    }
    d
}

/// Maximal rectangles of equal cells: `(colour index, first row, first col, rows, cols)`,
/// sorted. Each row is cut into runs; a run that repeats exactly in the next row grows
/// its rectangle downwards.
pub fn merged_rectangles(layer: &CellLayer) -> Vec<(u8, usize, usize, usize, usize)> {
    let mut open: BTreeMap<(usize, usize, u8), usize> = BTreeMap::new();
    let mut done = Vec::new();
    for row in 0..=layer.rows {
        let mut runs = Vec::new();
        if row < layer.rows {
            let cells = &layer.indices[row * layer.cols..(row + 1) * layer.cols];
            let mut start = 0;
            for col in 1..=layer.cols {
                if col == layer.cols || cells[col] != cells[start] {
                    runs.push((start, col, cells[start]));
                    start = col;
                }
            }
        }
        let mut next = BTreeMap::new();
        for run in runs {
            let first_row = open.remove(&run).unwrap_or(row);
            next.insert(run, first_row);
        }
        for ((c0, c1, index), first_row) in std::mem::replace(&mut open, next) {
            done.push((index, first_row, c0, row - first_row, c1 - c0));
        }
    }
    done.sort_unstable();
    done
}

fn write_cells(out: &mut dyn Write, layer: &CellLayer) -> io::Result<()> {
    let (x0, y0) = (layer.rect.x, layer.rect.y);
    let rects = merged_rectangles(layer);
    for (index, color) in layer.palette.iter().enumerate() {
        if color.a == 0 {
            continue;
        }
        let mut d = String::new();
        // Relative moves from the previous rectangle's corner keep numbers short.
        let mut last: Option<(i64, i64)> = None;
        for &(_, row, col, rows, cols) in rects.iter().filter(|r| usize::from(r.0) == index) {
            let (x, y) = (x0 + layer.col_edge(col), y0 + layer.row_edge(row));
            let (w, h) = (
                x0 + layer.col_edge(col + cols) - x,
                y0 + layer.row_edge(row + rows) - y,
            );
            let (x, y) = (i64::from(x), i64::from(y));
            let _ = match last {
                None => write!(d, "M{x} {y}h{w}v{h}h-{w}z"),
                Some((lx, ly)) => write!(d, "m{} {}h{w}v{h}h-{w}z", x - lx, y - ly),
            };
            last = Some((x, y));
        }
        if !d.is_empty() {
            writeln!(
                out,
                r#"<path shape-rendering="crispEdges"{} d="{d}"/>"#,
                paint("fill", *color)
            )?;
        }
    }
    if let Some(grid) = layer.grid_line {
        let (xs, ys) = super::raster::grid_lines(layer);
        let mut d = String::new();
        for x in xs {
            let _ = write!(d, "M{x} {y0}h1v{}h-1z", layer.rect.height);
        }
        for y in ys {
            let _ = write!(d, "M{x0} {y}h{}v1h-{}z", layer.rect.width, layer.rect.width);
        }
        writeln!(
            out,
            r#"<path shape-rendering="crispEdges"{} d="{d}"/>"#,
            paint("fill", grid)
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::scene::PixelRect;

    fn layer(rows: usize, cols: usize, indices: Vec<u8>) -> CellLayer {
        CellLayer {
            rect: PixelRect {
                x: 0,
                y: 0,
                width: cols as u32,
                height: rows as u32,
            },
            rows,
            cols,
            indices,
            palette: vec![Color::WHITE, Color::BLACK],
            grid_line: None,
        }
    }

    #[test]
    fn a_uniform_board_is_one_rectangle() {
        assert_eq!(
            merged_rectangles(&layer(64, 64, vec![1; 64 * 64])),
            vec![(1, 0, 0, 64, 64)]
        );
    }

    #[test]
    fn rectangles_cover_every_cell_exactly_once() {
        let (rows, cols) = (17, 23);
        let indices: Vec<u8> = (0..rows * cols)
            .map(|k| ((k * 7919 / 13) % 3 == 0) as u8)
            .collect();
        let mut covered = vec![None; rows * cols];
        for (index, r0, c0, h, w) in merged_rectangles(&layer(rows, cols, indices.clone())) {
            for r in r0..r0 + h {
                for c in c0..c0 + w {
                    assert!(covered[r * cols + c].is_none(), "cell ({r},{c}) twice");
                    covered[r * cols + c] = Some(index);
                }
            }
        }
        assert!(covered.iter().zip(&indices).all(|(c, &i)| *c == Some(i)));
    }

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
    }
}
