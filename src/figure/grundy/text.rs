//! Captions, labels and keys shared by the Grundy pictures.

pub(super) use crate::library::scene::chart::whole_tick;
use plotters::style::colors::colormaps::ViridisRGB;

use super::spec::{Frame, GrundyFigure};
use crate::library::scene::color::INK;
use crate::library::scene::font;
use crate::library::scene::{Color, HAlign, Item, PathItem, Scene, TextItem, VAlign};

impl GrundyFigure {
    pub(super) fn caption(&self, frame: &Frame) -> String {
        if self.slice.0.is_empty() {
            self.game.name()
        } else {
            format!(
                "{}, {}",
                self.game.name(),
                super::names::subscripted_in(&self.slice.to_string())
            )
        }
        .replace("k=", "k = ")
        .replace("h=", "h = ")
        .replace("heaps=", "heaps = ")
            + &format!(" (box {})", frame.describe_box())
    }
}

/// Removes text items (from `first` on) that would overlap an earlier one, such as
/// two axes' "0" where they meet, which read as "00" or "200".
pub(super) fn drop_overlapping_texts(scene: &mut Scene, first: usize) {
    let mut kept: Vec<[f64; 4]> = Vec::new();
    let mut k = first;
    while k < scene.items.len() {
        let Item::Text(t) = &scene.items[k] else {
            k += 1;
            continue;
        };
        if t.text.is_empty() {
            scene.items.remove(k);
            continue;
        }
        let bbox = text_box(t);
        let pad = t.size * 0.15;
        let overlaps = kept.iter().any(|b| {
            bbox[0] < b[2] + pad
                && b[0] < bbox[2] + pad
                && bbox[1] < b[3] + pad
                && b[1] < bbox[3] + pad
        });
        if overlaps {
            scene.items.remove(k);
        } else {
            kept.push(bbox);
            k += 1;
        }
    }
}

/// The box `[x0, y0, x1, y1]` an unrotated text covers (capitals and digits).
pub fn text_box(t: &TextItem) -> [f64; 4] {
    let w = font::text_width(&t.text, t.size);
    let h = t.size * 0.73;
    let x0 = match t.halign {
        HAlign::Left => t.x,
        HAlign::Center => t.x - w / 2.0,
        HAlign::Right => t.x - w,
    };
    let y0 = match t.valign {
        VAlign::Top => t.y,
        VAlign::Middle => t.y - h / 2.0,
        VAlign::Baseline => t.y - h,
        VAlign::Bottom => t.y - h - t.size * 0.24,
    };
    [x0, y0, x0 + w, y0 + h]
}

/// A vertical viridis bar from 0 (bottom) to `max` (top) with its end values and
/// the coordinate's name above.
pub(super) fn colour_bar(
    scene: &mut Scene,
    (x, y): (f64, f64),
    (w, h): (f64, f64),
    max: f64,
    name: &str,
    size: f64,
) {
    const STEPS: usize = 64;
    for k in 0..STEPS {
        let v = (k as f64 + 0.5) / STEPS as f64;
        let c = ViridisRGB::get_color_normalized(v, 0.0, 1.0);
        let top = y + h * (1.0 - (k + 1) as f64 / STEPS as f64);
        // A hair of overlap hides seams between the bands in every viewer.
        scene.push(
            PathItem::rect(x, top, w, h / STEPS as f64 + 1.0).filled(Color::rgb(c.0, c.1, c.2)),
        );
    }
    scene.push(PathItem::rect(x, y, w, h).stroked(Color::gray(0.45), 0.5));
    for (value, at) in [(max, y), (0.0, y + h)] {
        scene.push(TextItem {
            x: x + w + size * 0.4,
            y: at,
            text: whole_tick(value.round()),
            size,
            color: INK,
            halign: HAlign::Left,
            valign: VAlign::Middle,
            rotation: 0.0,
            role: crate::library::scene::Role::Tick,
        });
    }
    scene.push(TextItem {
        x: x + w / 2.0,
        y: y - size * 0.7,
        text: name.to_string(),
        size,
        color: INK,
        halign: HAlign::Center,
        valign: VAlign::Baseline,
        rotation: 0.0,
        // The bar is the axis of the coordinate its colour shows.
        role: crate::library::scene::Role::AxisName,
    });
}
