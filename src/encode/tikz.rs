//! TikZ/PGF: a scene as a `tikzpicture` for `\input{figure.tikz}` in a LaTeX
//! document that loads tikz, its text typeset by LaTeX in the document's font.
//!
//! The one idea: geometry is drawn, text is not. Cells, paths and the
//! background become TikZ paths in big points (`x=1bp`), the picture exactly
//! the scene's paper size (one scene unit per bp when the scene has none, as
//! in the PDF); text items become `\node`s whose words are set by LaTeX at the
//! item's size, through the same escaper and math markup as `figures.tex`
//! captions ([`super::latex::tex_escape`]), so labels match the body text.
//! Cell layers are the SVG's merged rectangles on the raster's whole-pixel
//! edges, one `\fill` per colour (split every [`RECTANGLES_PER_PATH`]
//! rectangles: TeX holds a whole path in its main memory until it is used,
//! and 5000 rectangles exhaust it). A figure of more than [`MAX_RECTANGLES`]
//! rectangles' work (a label counting as [`LABEL_COST`], a path by its steps)
//! is refused before a byte is written: pdflatex would run for minutes or out
//! of memory on it.

use super::metadata::Metadata;
use super::svg::merged_rectangles;
use crate::library::scene::units::trim_number;
use crate::library::scene::{
    CellLayer, Color, HAlign, Item, PathCmd, PathItem, Scene, TextItem, VAlign,
};
use crate::{Error, Result};
use std::collections::BTreeMap;
use std::io::Write;

/// The most rectangles a TikZ figure may hold: pdflatex sets about this many in
/// about ten seconds (0.4 ms each on a loaded two-core machine), within its
/// default memory (see docs/tikz.md).
pub const MAX_RECTANGLES: u64 = 20_000;

/// What one text node costs pdflatex, in rectangles: a Grundy table's numbers
/// are set at about 2 ms each, four to five times a rectangle. A path costs one
/// plus one per two steps (a filled and stroked triangle, about 1 ms, is three).
pub const LABEL_COST: u64 = 4;

/// Rectangles per `\fill` path: long enough that a board is a handful of paths,
/// short enough that TeX keeps the path in its main memory (5000 rectangles in
/// one path exhaust it).
pub const RECTANGLES_PER_PATH: usize = 500;

/// Steps of an open stroke per `\path`, for the same reason as
/// [`RECTANGLES_PER_PATH`].
pub const STEPS_PER_PATH: usize = 1000;

/// TeX points per big point (PDF point).
const PT_PER_BP: f64 = 72.27 / 72.0;

/// The rectangles a scene's cell layers become in TikZ (grid lines included),
/// counted without drawing anything.
#[cfg(test)]
pub fn rectangle_count(scene: &Scene) -> u64 {
    scene
        .items
        .iter()
        .map(|item| match item {
            Item::Cells(layer) => {
                let (rects, lines) = layer_rectangles(layer);
                (rects.len() + lines.len()) as u64
            }
            _ => 0,
        })
        .sum()
}

/// A layer's merged rectangles of visible colours, and its grid lines as
/// `(x, y, width, height)` in scene units.
#[allow(clippy::type_complexity)]
fn layer_rectangles(
    layer: &CellLayer,
) -> (
    Vec<(u8, usize, usize, usize, usize)>,
    Vec<(u32, u32, u32, u32)>,
) {
    let mut rects = merged_rectangles(layer);
    rects.retain(|r| layer.palette.get(usize::from(r.0)).is_some_and(|c| c.a > 0));
    let mut lines = Vec::new();
    if layer.grid_line.is_some() {
        let (x0, y0) = (layer.rect.x, layer.rect.y);
        let (xs, ys) = super::raster::grid_lines(layer);
        for x in xs {
            lines.push((x as u32, y0, 1, layer.rect.height));
        }
        for y in ys {
            lines.push((x0, y as u32, layer.rect.width, 1));
        }
    }
    (rects, lines)
}

/// Scene units to the picture's big points, y turned upwards.
struct Frame {
    scale: f64,
    height: f64,
}

impl Frame {
    fn of(scene: &Scene) -> Self {
        let scale = match &scene.paper {
            Some(paper) => paper.width_pt / f64::from(scene.width.max(1)),
            None => 1.0,
        };
        Frame {
            scale,
            height: f64::from(scene.height),
        }
    }

    fn point(&self, x: f64, y: f64) -> String {
        format!(
            "({},{})",
            trim_number(x * self.scale),
            trim_number((self.height - y) * self.scale)
        )
    }
}

/// Colours named once each, in order of first use.
#[derive(Default)]
struct Colors {
    names: BTreeMap<(u8, u8, u8), usize>,
    order: Vec<(u8, u8, u8)>,
}

impl Colors {
    fn name(&mut self, color: Color) -> String {
        let key = (color.r, color.g, color.b);
        let next = self.order.len();
        let k = *self.names.entry(key).or_insert(next);
        if k == next {
            self.order.push(key);
        }
        format!("nimscapeC{k}")
    }
}

/// `name` and, for a translucent colour, its opacity key (`fill opacity=0.5`).
fn paint(colors: &mut Colors, key: &str, color: Color) -> String {
    let name = colors.name(color);
    if color.a < 255 {
        format!(
            "{name},{key} opacity={}",
            trim_number(f64::from(color.a) / 255.0)
        )
    } else {
        name
    }
}

/// `1 label`, `2 labels`.
fn plural(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Whether an axis name is a formula of coordinates (`y`, `x − z`, `x₁`,
/// `2x + 1`): single letters, digits, subscripts, operators and brackets only. The
/// papers set those in math italic, so TikZ does too; a name with a word in it
/// (`count`, `P-positions`) stays text.
fn is_math_name(text: &str) -> bool {
    let allowed = |c: char| {
        c.is_ascii_alphanumeric() || ('₀'..='₉').contains(&c) || " +-−*/()=⊕,".contains(c)
    };
    let mut run = 0;
    for c in text.chars() {
        if !allowed(c) {
            return false;
        }
        run = if c.is_ascii_alphabetic() { run + 1 } else { 0 };
        if run > 1 {
            return false;
        }
    }
    text.chars().any(|c| c.is_ascii_alphabetic())
}

/// The words of a text item as the papers set them, in the scene's markup:
/// axis names that are formulas (`x − z`, a colour bar's `z`) and panel labels
/// that give a parameter's value (`k = 3`) in math, a table's corner (`x\y`,
/// its row and column names) as `$x\backslash y$`; the rest as they are.
fn as_math(text: &TextItem) -> String {
    use crate::library::scene::Role;
    let words = &text.text;
    if words.contains('$') {
        return words.clone();
    }
    let formula = match text.role {
        Role::AxisName => is_math_name(words),
        Role::Label => words.contains('=') && is_math_name(words),
        Role::TableNumber => match words.split_once('\\') {
            Some((row, col)) if is_math_name(row) && is_math_name(col) => {
                return format!("${row}\\backslash {col}$");
            }
            _ => false,
        },
        _ => false,
    };
    if formula {
        format!("${words}$")
    } else {
        words.clone()
    }
}

/// A text item's words as LaTeX, or the one-line refusal naming the character.
fn text_tex(text: &TextItem) -> Result<String> {
    let words = as_math(text);
    super::latex::tex_escape(&words).map_err(|c| {
        Error::unsupported(format!(
            "the text '{}' holds '{c}' (U+{:04X}), which LaTeX cannot set; change the text, or write .pdf or .svg",
            crate::error::excerpt(&text.text),
            u32::from(c)
        ))
    })
}

/// The TikZ anchor that sits where the scene's alignment puts the anchor point.
fn anchor(halign: HAlign, valign: VAlign) -> &'static str {
    match (valign, halign) {
        (VAlign::Top, HAlign::Left) => "north west",
        (VAlign::Top, HAlign::Center) => "north",
        (VAlign::Top, HAlign::Right) => "north east",
        (VAlign::Middle, HAlign::Left) => "mid west",
        (VAlign::Middle, HAlign::Center) => "mid",
        (VAlign::Middle, HAlign::Right) => "mid east",
        (VAlign::Baseline, HAlign::Left) => "base west",
        (VAlign::Baseline, HAlign::Center) => "base",
        (VAlign::Baseline, HAlign::Right) => "base east",
        (VAlign::Bottom, HAlign::Left) => "south west",
        (VAlign::Bottom, HAlign::Center) => "south",
        (VAlign::Bottom, HAlign::Right) => "south east",
    }
}

/// Writes `scene` as a `tikzpicture`. Everything that can refuse (too many
/// rectangles, a character LaTeX cannot set) does so before the first byte.
pub fn write_tikz(out: &mut dyn Write, scene: &Scene, metadata: &Metadata) -> Result<()> {
    let mut layers = Vec::new();
    let mut texts = Vec::new();
    for item in &scene.items {
        match item {
            Item::Cells(layer) => layers.push(layer_rectangles(layer)),
            Item::Text(text) => texts.push(text_tex(text)?),
            Item::Path(_) => {}
        }
    }
    let rectangles: u64 = layers
        .iter()
        .map(|(rects, lines)| (rects.len() + lines.len()) as u64)
        .sum();
    let labels = texts.len() as u64;
    let (paths, steps) = scene
        .items
        .iter()
        .fold((0u64, 0u64), |(n, steps), item| match item {
            Item::Path(path) => (n + 1, steps + path.commands.len() as u64),
            _ => (n, steps),
        });
    let work = rectangles + LABEL_COST * labels + paths + steps / 2;
    if work > MAX_RECTANGLES {
        let mut parts = Vec::new();
        if rectangles > 0 {
            parts.push(plural(rectangles, "rectangle"));
        }
        if labels > 0 {
            parts.push(plural(labels, "label"));
        }
        if paths > 0 {
            parts.push(format!("{} of {steps} steps", plural(paths, "path")));
        }
        return Err(Error::unsupported(format!(
            "this figure would be {} as TikZ, the work of {work} rectangles, more than pdflatex sets in reasonable time (at most {MAX_RECTANGLES}); write .pdf instead, or a smaller figure (a smaller m, n or box, fewer boards)",
            parts.join(", ")
        )));
    }
    let frame = Frame::of(scene);
    let mut colors = Colors::default();
    let mut body = String::new();
    let (width, height) = match &scene.paper {
        Some(paper) => (paper.width_pt, paper.height_pt),
        None => (f64::from(scene.width), f64::from(scene.height)),
    };
    let corner = format!("({},{})", trim_number(width), trim_number(height));
    // The picture is exactly the figure: nothing drawn later (a label's overhang,
    // a stroke's half width) moves its edges.
    body += &format!("\\useasboundingbox (0,0) rectangle {corner};\n");
    if scene.background.a > 0 {
        let fill = paint(&mut colors, "fill", scene.background);
        body += &format!("\\fill[{fill}] (0,0) rectangle {corner};\n");
    }
    let mut layers = layers.into_iter();
    let mut texts = texts.into_iter();
    for item in &scene.items {
        match item {
            Item::Cells(layer) => {
                let (rects, lines) = layers.next().unwrap_or_default();
                write_cells(&mut body, &frame, &mut colors, layer, &rects, &lines);
            }
            Item::Path(path) => write_path(&mut body, &frame, &mut colors, path),
            Item::Text(text) => {
                let tex = texts.next().unwrap_or_default();
                write_text(&mut body, &frame, &mut colors, text, &tex);
            }
        }
    }
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(
            out,
            "% nimscape TikZ picture, {} x {} bp: \\input it in a document that loads tikz.",
            trim_number(width),
            trim_number(height)
        )?;
        for (key, value) in &metadata.entries {
            writeln!(out, "% {key}: {}", super::latex::tex_comment(value))?;
        }
        writeln!(
            out,
            "\\begin{{tikzpicture}}[x=1bp,y=1bp,inner sep=0pt,outer sep=0pt,miter limit=4]"
        )?;
        for (k, (r, g, b)) in colors.order.iter().enumerate() {
            writeln!(out, "\\definecolor{{nimscapeC{k}}}{{RGB}}{{{r},{g},{b}}}")?;
        }
        out.write_all(body.as_bytes())?;
        writeln!(out, "\\end{{tikzpicture}}%")
    };
    write(out).map_err(Error::write_failed)
}

fn write_cells(
    body: &mut String,
    frame: &Frame,
    colors: &mut Colors,
    layer: &CellLayer,
    rects: &[(u8, usize, usize, usize, usize)],
    lines: &[(u32, u32, u32, u32)],
) {
    let (x0, y0) = (f64::from(layer.rect.x), f64::from(layer.rect.y));
    // Sorted by colour index: each colour's rectangles are one stretch.
    for same in rects.chunk_by(|a, b| a.0 == b.0) {
        let color = layer.palette[usize::from(same[0].0)];
        let fill = paint(colors, "fill", color);
        for chunk in same.chunks(RECTANGLES_PER_PATH) {
            *body += &format!("\\fill[{fill}]");
            for &(_, row, col, rows, cols) in chunk {
                let left = x0 + f64::from(layer.col_edge(col));
                let right = x0 + f64::from(layer.col_edge(col + cols));
                let top = y0 + f64::from(layer.row_edge(row));
                let bottom = y0 + f64::from(layer.row_edge(row + rows));
                *body += &format!(
                    "\n {} rectangle {}",
                    frame.point(left, bottom),
                    frame.point(right, top)
                );
            }
            *body += ";\n";
        }
    }
    if let (Some(grid), false) = (layer.grid_line, lines.is_empty()) {
        let fill = paint(colors, "fill", grid);
        for chunk in lines.chunks(RECTANGLES_PER_PATH) {
            *body += &format!("\\fill[{fill}]");
            for &(x, y, w, h) in chunk {
                let (x, y, w, h) = (f64::from(x), f64::from(y), f64::from(w), f64::from(h));
                *body += &format!(
                    "\n {} rectangle {}",
                    frame.point(x, y + h),
                    frame.point(x + w, y)
                );
            }
            *body += ";\n";
        }
    }
}

fn write_path(body: &mut String, frame: &Frame, colors: &mut Colors, path: &PathItem) {
    let mut options = Vec::new();
    if let Some(fill) = path.fill {
        options.push(format!("fill={}", paint(colors, "fill", fill)));
    }
    if let Some((stroke, width)) = path.stroke {
        options.push(format!("draw={}", paint(colors, "draw", stroke)));
        options.push(format!("line width={}bp", trim_number(width * frame.scale)));
    }
    if options.is_empty() || path.commands.is_empty() {
        return;
    }
    let options = options.join(",");
    // Each step as TikZ, with the point it ends at: (text, is a move, end).
    let mut steps: Vec<(String, bool, (f64, f64))> = Vec::with_capacity(path.commands.len());
    // Where the pen is and where its sub-path began: a quadratic curve needs its
    // start to become a cubic, and a line after a close starts at the closed start.
    let (mut pen, mut start) = ((0.0, 0.0), (0.0, 0.0));
    let mut closed = false;
    for cmd in &path.commands {
        if closed && !matches!(cmd, PathCmd::MoveTo(..) | PathCmd::Close) {
            steps.push((frame.point(start.0, start.1), true, start));
            closed = false;
        }
        let (text, end) = match *cmd {
            PathCmd::MoveTo(x, y) => {
                (start, closed) = ((x, y), false);
                steps.push((frame.point(x, y), true, (x, y)));
                pen = (x, y);
                continue;
            }
            PathCmd::LineTo(x, y) => (format!("-- {}", frame.point(x, y)), (x, y)),
            PathCmd::QuadTo(a, b, x, y) => {
                let c1 = (
                    pen.0 + 2.0 / 3.0 * (a - pen.0),
                    pen.1 + 2.0 / 3.0 * (b - pen.1),
                );
                let c2 = (x + 2.0 / 3.0 * (a - x), y + 2.0 / 3.0 * (b - y));
                let text = format!(
                    ".. controls {} and {} .. {}",
                    frame.point(c1.0, c1.1),
                    frame.point(c2.0, c2.1),
                    frame.point(x, y)
                );
                (text, (x, y))
            }
            PathCmd::CubicTo(a, b, c, d, x, y) => {
                let text = format!(
                    ".. controls {} and {} .. {}",
                    frame.point(a, b),
                    frame.point(c, d),
                    frame.point(x, y)
                );
                (text, (x, y))
            }
            PathCmd::Close => {
                closed = true;
                ("-- cycle".to_string(), start)
            }
        };
        steps.push((text, false, end));
        pen = end;
    }
    // TeX holds a path whole until it is drawn: a long open stroke (a chart's
    // curve of 20000 points) is drawn in pieces, each starting where the last
    // ended. A filled outline cannot be cut; no figure has one that long.
    let piece = if path.fill.is_none() {
        STEPS_PER_PATH
    } else {
        usize::MAX
    };
    let mut count = 0;
    *body += &format!("\\path[{options}]");
    for (k, (text, is_move, _)) in steps.iter().enumerate() {
        if count == piece && !is_move {
            let from = steps[k - 1].2;
            *body += &format!(";\n\\path[{options}] {}", frame.point(from.0, from.1));
            count = 0;
        }
        // Short lines: TeX reads a line into a buffer of limited size.
        let sep = if k % 8 == 0 && k > 0 { "\n " } else { " " };
        *body += sep;
        *body += text;
        count += 1;
    }
    *body += ";\n";
}

fn write_text(body: &mut String, frame: &Frame, colors: &mut Colors, text: &TextItem, tex: &str) {
    if tex.trim().is_empty() {
        return;
    }
    let size = trim_number(text.size * frame.scale * PT_PER_BP);
    let leading = trim_number(text.size * frame.scale * PT_PER_BP * 1.2);
    let mut options = vec![
        format!("anchor={}", anchor(text.halign, text.valign)),
        format!("text={}", paint(colors, "text", text.color)),
        format!("font={{\\fontsize{{{size}}}{{{leading}}}\\selectfont}}"),
    ];
    if text.rotation != 0.0 {
        // The scene turns clockwise, TikZ counter-clockwise.
        let turn = (-text.rotation).rem_euclid(360.0);
        let turn = if turn > 180.0 { turn - 360.0 } else { turn };
        options.push(format!("rotate={}", trim_number(turn)));
    }
    *body += &format!(
        "\\node[{}] at {} {{{tex}}};\n",
        options.join(","),
        frame.point(text.x, text.y)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::scene::PixelRect;

    fn tikz(scene: &Scene) -> String {
        let mut out = Vec::new();
        write_tikz(&mut out, scene, &Metadata::default()).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn axis_names_that_are_formulas_are_math_and_words_stay_text() {
        use crate::library::scene::Role;
        let name = |text: &str, role: Role| {
            text_tex(&TextItem::centered(0.0, 0.0, text, 8.0, Color::BLACK).with_role(role))
                .unwrap()
        };
        assert_eq!(name("y", Role::AxisName), "$y$");
        assert_eq!(name("x − z", Role::AxisName), "$x - z$");
        assert_eq!(name("x₁", Role::AxisName), "$x_1$");
        // Words, text of other roles and names with their own markup as they are.
        assert_eq!(name("count", Role::AxisName), "count");
        assert_eq!(name("P-positions", Role::AxisName), "P-positions");
        assert_eq!(name("y", Role::Tick), "y");
        assert_eq!(name("$m$", Role::AxisName), "$m$");
        // A panel's parameter and a table's corner are formulas too; a label
        // that is a word or a letter of its own is not.
        assert_eq!(name("k = 3", Role::Label), "$k = 3$");
        assert_eq!(name("y = 10", Role::Label), "$y = 10$");
        assert_eq!(name("(a)", Role::Label), "(a)");
        assert_eq!(name("x\\y", Role::TableNumber), "$x\\backslash y$");
        assert_eq!(name("x₁\\x₂", Role::TableNumber), "$x_1\\backslash x_2$");
        assert_eq!(name("heap\\y", Role::TableNumber), "heap\\textbackslash{}y");
        assert_eq!(name("12", Role::TableNumber), "12");
    }

    #[test]
    fn a_board_is_a_few_rectangles_on_the_raster_edges() {
        let mut scene = Scene::new(10, 10, Color::WHITE);
        // 3 x 3 cells over 10 px: edges at 0, 3, 6, 10.
        scene.push(CellLayer {
            rect: PixelRect {
                x: 0,
                y: 0,
                width: 10,
                height: 10,
            },
            rows: 3,
            cols: 3,
            indices: vec![1, 1, 0, 1, 1, 0, 0, 0, 1],
            palette: vec![Color::TRANSPARENT, Color::BLACK],
            grid_line: None,
        });
        let text = tikz(&scene);
        assert!(
            text.contains("\\useasboundingbox (0,0) rectangle (10,10);"),
            "{text}"
        );
        assert!(
            text.contains("\\definecolor{nimscapeC1}{RGB}{0,0,0}"),
            "{text}"
        );
        // Rows 0-1, columns 0-1 merged; the corner cell alone; nothing transparent.
        assert!(text.contains("(0,4) rectangle (6,10)"), "{text}");
        assert!(text.contains("(6,0) rectangle (10,4)"), "{text}");
        assert_eq!(text.matches(" rectangle ").count(), 1 + 2 + 1, "{text}");
        assert_eq!(rectangle_count(&scene), 2);
    }

    #[test]
    fn text_is_latex_and_a_character_without_a_spelling_is_refused() {
        let mut scene = Scene::new(100, 40, Color::WHITE);
        scene.push(TextItem::centered(
            50.0,
            30.0,
            "$x ⊕ y$ ≤ 3",
            10.0,
            Color::BLACK,
        ));
        let text = tikz(&scene);
        assert!(text.contains("\\oplus"), "{text}");
        assert!(text.contains("anchor=base"), "{text}");
        assert!(text.contains("\\fontsize{10.037}{12.045}"), "{text}");
        assert!(text.contains("at (50,10)"), "{text}");
        scene.push(TextItem::centered(5.0, 5.0, "日", 10.0, Color::BLACK));
        let err = write_tikz(&mut Vec::new(), &scene, &Metadata::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("U+65E5") && !err.contains('\n'), "{err}");
    }

    #[test]
    fn a_long_stroke_is_drawn_in_pieces_that_meet_and_lines_stay_short() {
        let mut scene = Scene::new(100, 100, Color::TRANSPARENT);
        let points: Vec<(f64, f64)> = (0..2500).map(|k| (k as f64 / 25.0, 50.0)).collect();
        scene.push(PathItem::polyline(&points).stroked(Color::BLACK, 1.0));
        let text = tikz(&scene);
        assert_eq!(text.matches("\\path[").count(), 3, "{text}");
        // The second piece starts where the first ended: step 999's point.
        assert!(text.contains(";\n\\path[draw=nimscapeC0,line width=1bp] (39.96,50)"));
        assert!(text.lines().all(|line| line.len() < 200));
        assert_eq!(text.matches("-- ").count(), 2499);
    }

    #[test]
    fn curves_and_widths_are_in_big_points_on_paper() {
        let mut scene = Scene::new(200, 100, Color::TRANSPARENT);
        scene.paper = Some(crate::library::scene::units::Paper::for_scene(
            200,
            100,
            300.0,
            Some(100.0),
        ));
        let mut path = PathItem::polyline(&[(0.0, 0.0), (100.0, 50.0)]).stroked(Color::BLACK, 2.0);
        path.commands
            .push(PathCmd::QuadTo(200.0, 0.0, 200.0, 100.0));
        scene.push(path);
        let text = tikz(&scene);
        assert!(text.contains("rectangle (100,50);"), "{text}");
        assert!(text.contains("line width=1bp"), "{text}");
        assert!(text.contains("(0,50) -- (50,25) .. controls"), "{text}");
        assert!(text.contains(".. (100,0);"), "{text}");
    }
}
