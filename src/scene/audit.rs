//! A print editor's checks of a finished scene: type sizes, text over text,
//! text off the page, hairlines and markers over tick numbers.
//!
//! The one idea: every check works on the scene itself, with text boxes from
//! the embedded font's metrics, so it needs no PDF tools and sees exactly what
//! every encoder draws. Sizes are measured on paper (points) when the scene is
//! on paper, in scene units otherwise. The size-matrix test runs it on every
//! figure kind at every size; figures may run it in their own tests.

use super::font;
use super::item::{Item, PathCmd, TextItem};
use super::units::MIN_TEXT_PT;
use super::{Role, Scene};

/// The thinnest line a printed figure may have, pt.
pub const MIN_LINE_PT: f64 = 0.25;

/// A text item's box `[x0, y0, x1, y1]` in scene units: capitals' height to the
/// font's descent across the line (where ink is; the ascent above the capitals
/// is the line's air) and its advance along it, turned with the item.
pub fn text_box(family: font::Family, text: &TextItem) -> [f64; 4] {
    let (dx, dy) = font::baseline_offset(family, text);
    let width = font::text_width_in(family, &text.text, text.size);
    let (_, descent) = font::vertical_metrics(text.size);
    let ascent = font::CAP_HEIGHT * text.size;
    // Relative to the anchor before rotation: x along the line, y down.
    let (x0, x1) = (dx, dx + width);
    let (y0, y1) = (dy - ascent, dy + descent);
    let corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)];
    let (sin, cos) = text.rotation.to_radians().sin_cos();
    let turned = corners.map(|(x, y)| (text.x + x * cos - y * sin, text.y + x * sin + y * cos));
    let xs = turned.map(|p| p.0);
    let ys = turned.map(|p| p.1);
    let min = |v: [f64; 4]| v.into_iter().fold(f64::INFINITY, f64::min);
    let max = |v: [f64; 4]| v.into_iter().fold(f64::NEG_INFINITY, f64::max);
    [min(xs), min(ys), max(xs), max(ys)]
}

/// The area two boxes share.
fn shared(a: &[f64; 4], b: &[f64; 4]) -> f64 {
    let w = a[2].min(b[2]) - a[0].max(b[0]);
    let h = a[3].min(b[3]) - a[1].max(b[1]);
    if w > 0.0 && h > 0.0 {
        w * h
    } else {
        0.0
    }
}

fn area(b: &[f64; 4]) -> f64 {
    (b[2] - b[0]).max(0.0) * (b[3] - b[1]).max(0.0)
}

/// The bounding box of a path's points.
fn path_box(commands: &[PathCmd]) -> Option<[f64; 4]> {
    let mut b = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    let mut add = |x: f64, y: f64| {
        b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
    };
    for (x, y) in commands.iter().flat_map(|c| c.points()) {
        add(x, y);
    }
    b[0].is_finite().then_some(b)
}

/// What [`audit`] found: one line per problem, naming the text or line.
pub fn audit(scene: &Scene) -> Vec<String> {
    let mut found = Vec::new();
    // Points per scene unit: the paper's, or one.
    let pt = scene
        .paper
        .map_or(1.0, |p| p.width_pt / f64::from(scene.width.max(1)));
    let texts: Vec<(&TextItem, [f64; 4])> = scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Text(t) if !t.text.trim().is_empty() && t.color.a > 0 => {
                Some((t, text_box(scene.font, t)))
            }
            _ => None,
        })
        .collect();
    let (w, h) = (f64::from(scene.width), f64::from(scene.height));
    for (text, b) in &texts {
        if scene.paper.is_some() && text.size * pt < MIN_TEXT_PT - 0.01 {
            found.push(format!("'{}' is {:.2} pt", text.text, text.size * pt));
        }
        let slack = 0.5;
        if b[0] < -slack || b[1] < -slack || b[2] > w + slack || b[3] > h + slack {
            found.push(format!(
                "'{}' runs off the {w} x {h} page: [{:.1}, {:.1}, {:.1}, {:.1}]",
                text.text, b[0], b[1], b[2], b[3]
            ));
        }
    }
    for (k, (a, ba)) in texts.iter().enumerate() {
        for (b, bb) in &texts[k + 1..] {
            // Boxes include the font's line gap: neighbours may touch, not cover.
            if shared(ba, bb) > 0.2 * area(ba).min(area(bb)) {
                found.push(format!("'{}' and '{}' overlap", a.text, b.text));
            }
        }
    }
    let ticks: Vec<&(&TextItem, [f64; 4])> =
        texts.iter().filter(|(t, _)| t.role == Role::Tick).collect();
    for item in &scene.items {
        let Item::Path(path) = item else { continue };
        if let Some((color, width)) = path.stroke {
            if color.a > 0 && width > 0.0 && width * pt < MIN_LINE_PT - 1e-3 {
                found.push(format!("a line {:.3} pt wide", width * pt));
            }
        }
        // A marker or a key's swatch: a small filled shape. Off the page it is
        // cut; over a tick number it hides it.
        let (Some(fill), Some(b)) = (path.fill, path_box(&path.commands)) else {
            continue;
        };
        if fill.a == 0 {
            continue;
        }
        let largest_text = texts.iter().map(|(t, _)| t.size).fold(0.0, f64::max);
        let small_shape = (b[2] - b[0]).max(b[3] - b[1]) <= largest_text * 2.0;
        if small_shape && (b[0] < -0.5 || b[1] < -0.5 || b[2] > w + 0.5 || b[3] > h + 0.5) {
            found.push(format!(
                "a mark or swatch off the page: [{:.1}, {:.1}, {:.1}, {:.1}]",
                b[0], b[1], b[2], b[3]
            ));
        }
        for (tick, tb) in &ticks {
            let small = (b[2] - b[0]).max(b[3] - b[1]) <= tick.size * 2.0;
            if small && shared(&b, tb) > 0.1 * area(&b).min(area(tb)) {
                found.push(format!("a marker over the tick number '{}'", tick.text));
            }
        }
    }
    found
}

/// How much of the page's width the drawing takes: the span across of its
/// cells and of every path larger than a mark (axes, grids, a 3D box), over
/// the scene's width. Text, tick marks, markers and key swatches do not count:
/// what is left is the plot itself, which should fill the width less its labels.
pub fn drawing_span(scene: &Scene) -> f64 {
    let largest_text = scene
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Text(t) => Some(t.size),
            _ => None,
        })
        .fold(0.0, f64::max);
    let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
    for item in &scene.items {
        let span = match item {
            Item::Cells(c) => Some((f64::from(c.rect.x), f64::from(c.rect.x + c.rect.width))),
            Item::Path(p) => path_box(&p.commands)
                .filter(|b| (b[2] - b[0]).max(b[3] - b[1]) > largest_text * 2.0)
                .map(|b| (b[0], b[2])),
            Item::Text(_) => None,
        };
        if let Some((a, b)) = span {
            x0 = x0.min(a);
            x1 = x1.max(b);
        }
    }
    if x1 > x0 {
        (x1 - x0) / f64::from(scene.width.max(1))
    } else {
        0.0
    }
}

/// The largest size of each role in a scene, in points on paper (scene units
/// otherwise): what the figure sets each role at before anything shrinks to fit.
pub fn role_sizes(scene: &Scene) -> Vec<(Role, f64)> {
    let pt = scene
        .paper
        .map_or(1.0, |p| p.width_pt / f64::from(scene.width.max(1)));
    let mut sizes: Vec<(Role, f64)> = Vec::new();
    for item in &scene.items {
        if let Item::Text(t) = item {
            match sizes.iter_mut().find(|(r, _)| *r == t.role) {
                Some((_, size)) => *size = size.max(t.size * pt),
                None => sizes.push((t.role, t.size * pt)),
            }
        }
    }
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::scene::{Color, PathItem};

    #[test]
    fn the_audit_sees_small_overlapping_and_stray_text_and_hairlines() {
        let mut scene = Scene::new(100, 50, Color::WHITE);
        scene.push(TextItem::centered(50.0, 20.0, "10", 8.0, Color::BLACK).with_role(Role::Tick));
        scene.push(TextItem::centered(51.0, 20.0, "40", 8.0, Color::BLACK));
        scene.push(TextItem::centered(
            99.0,
            45.0,
            "far away",
            8.0,
            Color::BLACK,
        ));
        scene.push(PathItem::rect(48.0, 14.0, 4.0, 4.0).filled(Color::BLACK));
        scene.push(PathItem::polyline(&[(0.0, 0.0), (9.0, 9.0)]).stroked(Color::BLACK, 0.1));
        let found = audit(&scene).join("\n");
        assert!(found.contains("'10' and '40' overlap"), "{found}");
        assert!(found.contains("'far away' runs off"), "{found}");
        assert!(found.contains("a line 0.100 pt wide"), "{found}");
        assert!(
            found.contains("a marker over the tick number '10'"),
            "{found}"
        );

        let mut clean = Scene::new(100, 50, Color::WHITE);
        clean.push(TextItem::centered(30.0, 20.0, "10", 8.0, Color::BLACK));
        clean.push(TextItem::centered(60.0, 20.0, "40", 8.0, Color::BLACK));
        assert!(audit(&clean).is_empty(), "{:?}", audit(&clean));
    }

    #[test]
    fn a_rotated_label_has_a_tall_box() {
        let mut text = TextItem::centered(50.0, 50.0, "g(m)", 10.0, Color::BLACK);
        text.rotation = 270.0;
        let b = text_box(font::Family::Sans, &text);
        assert!(b[3] - b[1] > b[2] - b[0], "{b:?}");
    }
}
