//! The Grundy table: two free coordinates, cells coloured by value mod m
//! (Miyadera web book, Figures 7.9, 7.14).

use super::spec::{Frame, GrundyFigure};
use crate::games::Solution;
use crate::library::scene::color::{ink_on, INK};
use crate::library::scene::font;
use crate::library::scene::legend::{draw_key, key_rows};
use crate::library::scene::units::MIN_TEXT_PT;
use crate::library::scene::{
    CellLayer, Color, HAlign, PathItem, PixelRect, Role, Scene, TextItem, VAlign,
};
use crate::{Error, Result};

/// Grey of the header row and column.
pub(super) const HEADER_GREY: f64 = 0.75;
/// Grey of the cells outside the game.
pub(super) const OUTSIDE_GREY: f64 = 0.87;

/// The cells of a table: the rectangle of the box that holds positions.
pub(super) struct TableCells {
    /// The first coordinate of the first row and column.
    pub first_row: usize,
    pub first_col: usize,
    pub rows: usize,
    pub cols: usize,
    /// Row by row; `None` outside the game.
    pub values: Vec<Option<u16>>,
}

impl TableCells {
    pub(super) fn of(solution: &Solution, frame: &Frame) -> TableCells {
        let (dr, dc) = (frame.free[0], frame.free[1]);
        let (box_rows, box_cols) = (frame.bounds[dr] as usize + 1, frame.bounds[dc] as usize + 1);
        let box_values: Vec<Option<u16>> = (0..box_rows * box_cols)
            .map(|i| solution.get(&frame.point(&[(i / box_cols) as u32, (i % box_cols) as u32])))
            .collect();
        // Rows and columns wholly outside the game say nothing: the table keeps the
        // rectangle of the box that holds positions (all of it when none does).
        let (row_span, col_span) = game_span(&box_values, box_cols);
        let (first_row, first_col) = (*row_span.start(), *col_span.start());
        let (rows, cols) = (row_span.clone().count(), col_span.clone().count());
        let values: Vec<Option<u16>> = row_span
            .flat_map(|r| col_span.clone().map(move |k| (r, k)))
            .map(|(r, k)| box_values[r * box_cols + k])
            .collect();
        TableCells {
            first_row,
            first_col,
            rows,
            cols,
            values,
        }
    }
}

impl GrundyFigure {
    /// The table of the Miyadera web book (Figures 7.9, 7.14): a header row and
    /// column of coordinate values on grey
    /// 0.75, cells outside the game on grey 0.87, every value printed in its
    /// cell on the colour of its class mod the modulus.
    pub(super) fn table_scene(&self, solution: &Solution, frame: &Frame) -> Result<Scene> {
        let (dr, dc) = (frame.free[0], frame.free[1]);
        let TableCells {
            first_row,
            first_col,
            rows,
            cols,
            values,
        } = TableCells::of(solution, frame);
        let digits = |n: u64| n.to_string().len();
        let widest = values
            .iter()
            .flatten()
            .map(|&v| digits(u64::from(v)))
            .chain([
                digits((first_row + rows) as u64 - 1),
                digits((first_col + cols) as u64 - 1),
            ])
            .max()
            .unwrap_or(1);
        let margin = 16u32;
        // Numbers take at most 80% of a cell's width and half its height; a cell
        // that would print them under the 6 pt floor is refused, saying what fits.
        let sample: String = "0".repeat(widest);
        let number_size = |c: f64| (c * 0.5).min(c * 0.8 / font::text_width(&sample, 1.0));
        let min_cell = (1..=400)
            .find(|&c| number_size(f64::from(c)) >= MIN_TEXT_PT)
            .unwrap_or(400);
        let cell = match (self.table.cell, self.table.width) {
            (Some(cell), _) => cell,
            (None, Some(width)) => width.saturating_sub(2 * margin) / (cols as u32 + 1),
            (None, None) => match widest {
                0..=2 => 28,
                3 => 34,
                4 => 42,
                _ => 50,
            },
        };
        if cell < min_cell {
            let need = min_cell * (cols as u32 + 1) + 2 * margin;
            let (flag, have) = match (self.table.cell, self.table.width) {
                (Some(c), _) => ("`cell`", format!("{c}")),
                (None, Some(w)) => ("`width`", format!("{w} pt")),
                _ => ("`cell`", format!("{cell}")),
            };
            if flag == "`width`" {
                // The smallest width named first, so it can be used as it stands.
                return Err(Error::invalid_parameter("width", format!(
                    "{flag} {have} gives {cell} pt cells, too small for {widest}-digit numbers at the {MIN_TEXT_PT} pt minimum; give `width` {} mm ({need} pt) or more for {} columns (`cell` {min_cell}pt), or a smaller `box`, or write the table as .tex (LaTeX sets it at the text's size)",
                    (f64::from(need) / 72.0 * 25.4 * 10.0).ceil() / 10.0,
                    cols + 1
                )));
            }
            return Err(Error::invalid_parameter("cell", format!(
                "{flag} {have} gives {cell} pt cells, too small for {widest}-digit numbers at the {MIN_TEXT_PT} pt minimum; give `cell` {min_cell}pt or more (a width of at least {need} pt = {:.0} mm for {} columns), or a smaller `box`, or write the table as .tex (LaTeX sets it at the text's size)",
                f64::from(need) / 72.0 * 25.4,
                cols + 1
            )));
        }
        let c = f64::from(cell);
        let table_w = (cols as u32 + 1) * cell;
        // Numbers fill their cells up to the type scale's label size: a table
        // made wide does not get numbers larger than the words around it.
        let scale = crate::library::scene::TypeScale::new(
            f64::from(
                self.view
                    .type_width
                    .unwrap_or_else(|| self.table.width.unwrap_or(table_w.max(200) + 2 * margin)),
            ),
            self.view_print().print.dpi.is_some(),
        );
        let text_size = number_size(c).min(scale.size(Role::TableNumber));

        let classes = self.table.modulus as usize;
        let mut palette: Vec<Color> = self.table.palette.class_colors(self.table.modulus)?;
        let header = palette.len() as u8;
        palette.push(Color::gray(HEADER_GREY));
        let outside = palette.len() as u8;
        palette.push(Color::gray(OUTSIDE_GREY));
        let corner = palette.len() as u8;
        palette.push(Color::WHITE);

        let table_h = (rows as u32 + 1) * cell;
        // The words fit the table, not the other way round: a narrow table gets a
        // wrapped title and a key in several rows, never a canvas wider than itself
        // (down to 200 units, the room two lines of title need).
        let inner_w = match self.table.width {
            Some(width) => width.saturating_sub(2 * margin).max(table_w),
            None => table_w.max(200),
        };
        let room = f64::from(inner_w);
        let title = self
            .table
            .caption
            .clone()
            .unwrap_or_else(|| self.caption(frame));
        let (title_lines, title_size) = if self.table.title {
            // Words in proportion to the numbers: a table made small keeps a small title.
            let natural = scale.size(Role::Title);
            crate::library::scene::layout::fit_title(&title, natural, scale.floor(), room, 3)
        } else {
            (Vec::new(), 16.0)
        };
        let title_height = if self.table.title {
            (title_lines.len() as f64 * title_size * 1.3 + title_size * 0.6).ceil() as u32
        } else {
            0
        };
        let key = self.key_entries()?;
        let key_size = scale.size(Role::Key);
        let key_rows = if self.table.key {
            key_rows(&key, key_size, room)
        } else {
            Vec::new()
        };
        let key_height = (key_rows.len() as f64 * key_size * 1.6).ceil() as u32
            + if key_rows.is_empty() {
                0
            } else {
                (key_size * 0.8) as u32
            };
        let width = inner_w + 2 * margin;
        let height = table_h + 2 * margin + title_height + key_height;
        let mut scene = Scene::new(width, height, Color::WHITE);
        let x0 = margin + (inner_w - table_w) / 2;
        let y0 = margin + title_height;

        for (k, line) in title_lines.into_iter().enumerate() {
            scene.push(
                TextItem::centered(
                    f64::from(width) / 2.0,
                    f64::from(margin) + title_size * (1.0 + 1.3 * k as f64),
                    line,
                    title_size,
                    INK,
                )
                .with_role(Role::Title),
            );
        }

        let mut indices = vec![0u8; (rows + 1) * (cols + 1)];
        indices[0] = corner;
        indices[1..=cols].fill(header);
        let mut texts = Vec::with_capacity((rows + 1) * (cols + 1));
        let centre = |r: usize, k: usize| {
            (
                f64::from(x0) + (k as f64 + 0.5) * c,
                f64::from(y0) + (r as f64 + 0.5) * c,
            )
        };
        let mut label = |r: usize, k: usize, text: String, color: Color, size: f64| {
            let (x, y) = centre(r, k);
            texts.push(TextItem {
                x,
                y,
                text,
                size,
                color,
                halign: HAlign::Center,
                valign: VAlign::Middle,
                rotation: 0.0,
                role: crate::library::scene::Role::TableNumber,
            });
        };
        let corner_text = format!(
            "{}\\{}",
            super::names::subscripted(&frame.names[dr]),
            super::names::subscripted(&frame.names[dc])
        );
        let corner_size = text_size.min(c * 0.8 / font::text_width(&corner_text, 1.0));
        label(0, 0, corner_text, INK, corner_size);
        for k in 0..cols {
            label(
                0,
                k + 1,
                (first_col + k).to_string(),
                Color::BLACK,
                text_size,
            );
        }
        for r in 0..rows {
            indices[(r + 1) * (cols + 1)] = header;
            label(
                r + 1,
                0,
                (first_row + r).to_string(),
                Color::BLACK,
                text_size,
            );
            for k in 0..cols {
                let at = (r + 1) * (cols + 1) + k + 1;
                match values[r * cols + k] {
                    None => indices[at] = outside,
                    Some(v) => {
                        let class = usize::from(v) % classes;
                        indices[at] = class as u8;
                        label(
                            r + 1,
                            k + 1,
                            v.to_string(),
                            ink_on(palette[class]),
                            text_size,
                        );
                    }
                }
            }
        }
        scene.push(CellLayer {
            rect: PixelRect {
                x: x0,
                y: y0,
                width: table_w,
                height: table_h,
            },
            rows: rows + 1,
            cols: cols + 1,
            indices,
            palette,
            grid_line: Some(Color::gray(0.45)),
        });
        scene.push(
            PathItem::rect(
                f64::from(x0) - 0.5,
                f64::from(y0) - 0.5,
                f64::from(table_w) + 1.0,
                f64::from(table_h) + 1.0,
            )
            .stroked(Color::gray(0.45), 1.0),
        );
        for t in texts {
            scene.push(t);
        }
        for (k, row) in key_rows.iter().enumerate() {
            let baseline = f64::from(y0 + table_h) + key_size * (2.0 + 1.6 * k as f64);
            draw_key(&mut scene, row, f64::from(width) / 2.0, baseline, key_size);
        }
        Ok(self.table.print.apply(scene))
    }

    /// The colour key under a table: a swatch per class.
    pub(super) fn key_entries(&self) -> Result<Vec<(Color, String)>> {
        let m = self.table.modulus;
        Ok(self
            .table
            .palette
            .class_colors(m)?
            .iter()
            .enumerate()
            .map(|(class, &color)| {
                let text = if m == 1 {
                    "every value".to_string()
                } else {
                    format!("≡ {class} (mod {m})")
                };
                (color, text)
            })
            .collect())
    }
}

/// The rows and columns of a `cols`-wide table of values that hold at least one
/// position of the game (`Some`), as two ranges; the whole table when none does.
pub(super) fn game_span(
    values: &[Option<u16>],
    cols: usize,
) -> (
    std::ops::RangeInclusive<usize>,
    std::ops::RangeInclusive<usize>,
) {
    let rows = values.len() / cols.max(1);
    let inside = |r: usize, k: usize| values[r * cols + k].is_some();
    let any_in_row = |r: usize| (0..cols).any(|k| inside(r, k));
    let any_in_col = |k: usize| (0..rows).any(|r| inside(r, k));
    match (
        (0..rows).find(|&r| any_in_row(r)),
        (0..rows).rev().find(|&r| any_in_row(r)),
        (0..cols).find(|&k| any_in_col(k)),
        (0..cols).rev().find(|&k| any_in_col(k)),
    ) {
        (Some(r0), Some(r1), Some(k0), Some(k1)) => (r0..=r1, k0..=k1),
        _ => (0..=rows.saturating_sub(1), 0..=cols.saturating_sub(1)),
    }
}
