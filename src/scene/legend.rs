//! Colour keys: a swatch and a line of text per colour.
//!
//! Two layouts use them: a board panel's legend (one entry a line, under the
//! panel, in [`super::board`]) and a figure's key (entries side by side,
//! wrapped into centred rows, under a Grundy table). Both draw the swatch the
//! same way, with [`swatch`].

use super::color::INK;
use super::{Color, HAlign, PathItem, Scene, TextItem, VAlign};
use crate::font;

/// The thin edge of every legend swatch (so a white swatch shows).
pub const SWATCH_EDGE: Color = Color::rgb(0x73, 0x73, 0x73);

/// A square swatch of `side` pixels with its top-left corner at (`x`, `top`):
/// filled with the colour, a thin grey edge so white shows.
pub fn swatch(x: f64, top: f64, side: f64, color: Color) -> PathItem {
    PathItem::rect(x, top, side, side)
        .filled(color)
        .stroked(SWATCH_EDGE, 1.0)
}

/// Key entries in rows no wider than `room` (at least one entry a row).
pub fn key_rows(entries: &[(Color, String)], size: f64, room: f64) -> Vec<Vec<(Color, String)>> {
    let mut rows: Vec<Vec<(Color, String)>> = Vec::new();
    for entry in entries {
        let fits = rows.last().is_some_and(|row| {
            let mut trial = row.clone();
            trial.push(entry.clone());
            key_width(&trial, size) <= room
        });
        match rows.last_mut() {
            Some(row) if fits => row.push(entry.clone()),
            _ => rows.push(vec![entry.clone()]),
        }
    }
    rows
}

/// The width of one row of the key at text size `size`.
pub fn key_width(entries: &[(Color, String)], size: f64) -> f64 {
    entries
        .iter()
        .map(|(_, text)| size * 1.5 + font::text_width(text, size) + size * 1.5)
        .sum()
}

/// Draws one row of the key centred on `centre`, its text on `baseline`.
pub fn draw_key(
    scene: &mut Scene,
    entries: &[(Color, String)],
    centre: f64,
    baseline: f64,
    size: f64,
) {
    draw_key_in(scene, entries, centre, baseline, size, INK);
}

/// [`draw_key`] with text in `ink`.
fn draw_key_in(
    scene: &mut Scene,
    entries: &[(Color, String)],
    centre: f64,
    baseline: f64,
    size: f64,
    ink: Color,
) {
    let mut x = centre - key_width(entries, size) / 2.0;
    for (color, text) in entries {
        scene.push(swatch(x, baseline - size, size, *color));
        x += size * 1.5;
        scene.push(TextItem {
            x,
            y: baseline,
            text: text.clone(),
            size,
            color: ink,
            halign: HAlign::Left,
            valign: VAlign::Baseline,
            rotation: 0.0,
            role: super::Role::Key,
        });
        x += font::text_width(text, size) + size * 1.5;
    }
}

/// A figure's key laid out under a sheet: rows of entries wrapped to the
/// sheet's width, at a size shrunk only if one entry alone would not fit.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyBlock {
    rows: Vec<Vec<(Color, String)>>,
    size: f64,
    /// Pixels the key adds under the sheet.
    pub height: u32,
}

impl KeyBlock {
    /// The key of `entries` at text size `natural`, in rows no wider than
    /// `room`; `None` without entries.
    pub fn new(entries: &[(Color, String)], natural: f64, room: f64) -> Option<KeyBlock> {
        if entries.is_empty() {
            return None;
        }
        let widest = entries
            .iter()
            .map(|e| key_width(std::slice::from_ref(e), natural))
            .fold(0.0, f64::max);
        let size = if widest > room && room > 0.0 {
            natural * room / widest
        } else {
            natural
        };
        let rows = key_rows(entries, size, room);
        let height = (size * (0.6 + 1.6 * rows.len() as f64)).ceil() as u32;
        Some(KeyBlock { rows, size, height })
    }

    /// Draws the rows centred on `centre`, the first from `top` down, text in `ink`.
    pub fn draw(&self, scene: &mut Scene, centre: f64, top: f64, ink: Color) {
        for (k, row) in self.rows.iter().enumerate() {
            let baseline = top + self.size * (1.3 + 1.6 * k as f64);
            draw_key_in(scene, row, centre, baseline, self.size, ink);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(k: usize) -> Vec<(Color, String)> {
        (0..k)
            .map(|i| (Color::gray(i as f64 / k as f64), format!("≡ {i} (mod {k})")))
            .collect()
    }

    #[test]
    fn key_rows_keep_every_entry_in_order_and_fit_the_room() {
        let size = 10.0;
        let all = entries(7);
        let one = key_width(&all[..1], size);
        for room in [0.0, one, 2.5 * one, 1e9] {
            let rows = key_rows(&all, size, room);
            let flat: Vec<_> = rows.iter().flatten().cloned().collect();
            assert_eq!(flat, all, "room {room}");
            for row in &rows {
                assert!(!row.is_empty());
                // A row wider than the room holds only the one entry that cannot be split.
                assert!(
                    row.len() == 1 || key_width(row, size) <= room,
                    "room {room}"
                );
            }
            // Greedy: the first entry of each next row would not have fitted.
            for pair in rows.windows(2) {
                let mut trial = pair[0].clone();
                trial.push(pair[1][0].clone());
                assert!(key_width(&trial, size) > room);
            }
        }
        assert_eq!(key_rows(&all, size, 1e9).len(), 1);
        assert_eq!(key_rows(&all, size, 0.0).len(), 7);
    }

    #[test]
    fn a_key_row_is_centred_with_one_swatch_and_text_per_entry() {
        let mut scene = Scene::new(400, 100, Color::WHITE);
        let row = entries(3);
        let size = 12.0;
        draw_key(&mut scene, &row, 200.0, 50.0, size);
        assert_eq!(scene.items.len(), 6);
        let mut left = f64::INFINITY;
        let mut right = f64::NEG_INFINITY;
        for item in &scene.items {
            match item {
                super::super::Item::Path(p) => {
                    if let Some(super::super::PathCmd::MoveTo(x, _)) = p.commands.first() {
                        left = left.min(*x);
                    }
                    assert_eq!(p.stroke.map(|s| s.0), Some(SWATCH_EDGE));
                }
                super::super::Item::Text(t) => {
                    right = right.max(t.x + font::text_width(&t.text, t.size) + size * 1.5);
                    assert_eq!(t.y, 50.0);
                }
                other => panic!("unexpected item {other:?}"),
            }
        }
        assert!((left + right - 400.0).abs() < 1e-9, "{left}..{right}");
    }
}
