//! Scene to pixels: crisp cell layers written straight into the canvas,
//! everything else (paths, text outlines) filled anti-aliased by tiny-skia.

use crate::library::scene::font;
use crate::library::scene::{CellLayer, Color, Item, PathCmd, PathItem, Scene};
use crate::{Error, Result};
use tiny_skia::{FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Stroke, Transform};

/// Draws a scene into a pixmap of [`Scene::pixel_size`]: one pixel per scene unit,
/// or the paper's dpi when the scene is on paper (cells then still end on whole
/// pixels: their rectangle is scaled and its edges shared out as always).
///
/// `control` is checked every few dozen items.
pub fn rasterize(scene: &Scene, control: &crate::Control) -> Result<Pixmap> {
    let (width, height) = scene.pixel_size();
    let mut pixmap = Pixmap::new(width, height).ok_or_else(|| {
        Error::invalid_request(format!(
            "cannot draw a {width} x {height} px image: both sides must be at least 1"
        ))
    })?;
    let (sx, sy) = device_scale(scene);
    let transform = if scene.paper.is_some() {
        Transform::from_scale(sx as f32, sy as f32)
    } else {
        Transform::identity()
    };
    pixmap.fill(skia_color(scene.background));
    for (k, item) in scene.items.iter().enumerate() {
        if k % 32 == 0 {
            control.check()?;
        }
        match item {
            Item::Cells(cells) if scene.paper.is_some() => {
                let (cols, rows) = device_edges(cells, sx, sy);
                draw_cells(&mut pixmap, cells, &cols, &rows)
            }
            Item::Cells(cells) => {
                let (cols, rows) = layer_edges(cells);
                draw_cells(&mut pixmap, cells, &cols, &rows)
            }
            Item::Path(path) => draw_path(&mut pixmap, path, transform),
            Item::Text(text) => {
                let outline = PathItem {
                    commands: font::text_path_in(scene.font, text),
                    fill: Some(text.color),
                    stroke: None,
                };
                draw_path(&mut pixmap, &outline, transform);
            }
        }
    }
    Ok(pixmap)
}

/// A layer's column and row edges in scene units, on the scene.
fn layer_edges(layer: &CellLayer) -> (Vec<usize>, Vec<usize>) {
    let (x0, y0) = (layer.rect.x as usize, layer.rect.y as usize);
    (
        (0..=layer.cols)
            .map(|k| x0 + layer.col_edge(k) as usize)
            .collect(),
        (0..=layer.rows)
            .map(|k| y0 + layer.row_edge(k) as usize)
            .collect(),
    )
}

/// A layer's column and row edges in device pixels on paper. Cells of a scene
/// unit or more end where the scene's edges do, scaled and rounded, as the PDF,
/// SVG and TikZ draw them: an outline drawn on the scene's edges then covers
/// the cells it outlines (shared out afresh in device pixels, a cell's edge
/// moved up to a scene unit, and slivers showed beyond the outlines). Finer
/// cells (a section's, one per device pixel) share out the device rectangle.
fn device_edges(layer: &CellLayer, sx: f64, sy: f64) -> (Vec<usize>, Vec<usize>) {
    let device = device_rect(layer.rect, sx, sy);
    let shared = CellLayer {
        rect: device,
        ..layer.clone()
    };
    let (shared_cols, shared_rows) = layer_edges(&shared);
    let (cols, rows) = layer_edges(layer);
    let scaled = |edges: Vec<usize>, s: f64| -> Vec<usize> {
        edges
            .into_iter()
            .map(|e| (e as f64 * s).round().max(0.0) as usize)
            .collect()
    };
    (
        if layer.cols <= layer.rect.width as usize {
            scaled(cols, sx)
        } else {
            shared_cols
        },
        if layer.rows <= layer.rect.height as usize {
            scaled(rows, sy)
        } else {
            shared_rows
        },
    )
}

/// The device pixels a scene rectangle of cells covers on a canvas drawn `sx`, `sy`
/// device pixels per scene unit: its corners rounded to whole pixels. A layer
/// with exactly this many columns and rows gets one cell per device pixel.
pub fn device_rect(
    rect: crate::library::scene::PixelRect,
    sx: f64,
    sy: f64,
) -> crate::library::scene::PixelRect {
    let round = |v: f64| v.round().max(0.0) as u32;
    let (x0, y0) = (round(f64::from(rect.x) * sx), round(f64::from(rect.y) * sy));
    let x1 = round(f64::from(rect.x + rect.width) * sx);
    let y1 = round(f64::from(rect.y + rect.height) * sy);
    crate::library::scene::PixelRect {
        x: x0,
        y: y0,
        width: x1.saturating_sub(x0),
        height: y1.saturating_sub(y0),
    }
}

/// Device pixels per scene unit across and down when `scene` is rasterised:
/// 1 without paper, the paper's dpi over 72 (to the pixel) on it.
pub fn device_scale(scene: &Scene) -> (f64, f64) {
    if scene.paper.is_none() {
        return (1.0, 1.0);
    }
    let (width, height) = scene.pixel_size();
    (
        f64::from(width) / f64::from(scene.width.max(1)),
        f64::from(height) / f64::from(scene.height.max(1)),
    )
}

fn skia_color(c: Color) -> tiny_skia::Color {
    tiny_skia::Color::from_rgba8(c.r, c.g, c.b, c.a)
}

/// Premultiplied RGBA of a colour, as tiny-skia stores pixels.
fn premultiplied(c: Color) -> [u8; 4] {
    let scale = |v: u8| ((u16::from(v) * u16::from(c.a) + 127) / 255) as u8;
    [scale(c.r), scale(c.g), scale(c.b), c.a]
}

fn blend(dst: &mut [u8], src: [u8; 4]) {
    if src[3] == 255 {
        dst.copy_from_slice(&src);
    } else if src[3] > 0 {
        let keep = 255 - u16::from(src[3]);
        for k in 0..4 {
            dst[k] = (u16::from(src[k]) + (u16::from(dst[k]) * keep + 127) / 255) as u8;
        }
    }
}

/// Draws a layer's cells between the pixel edges given (`cols + 1` and
/// `rows + 1` of them), and its grid lines on each cell's first pixels.
fn draw_cells(pixmap: &mut Pixmap, layer: &CellLayer, col_edges: &[usize], row_edges: &[usize]) {
    let (canvas_w, canvas_h) = (pixmap.width() as usize, pixmap.height() as usize);
    let colors: Vec<[u8; 4]> = layer.palette.iter().map(|&c| premultiplied(c)).collect();
    let data = pixmap.data_mut();
    let (x0, y0) = (col_edges[0], row_edges[0]);
    for row in 0..layer.rows {
        let (top, bottom) = (row_edges[row], row_edges[row + 1]);
        for y in top..bottom.min(canvas_h) {
            let line = &mut data[y * canvas_w * 4..(y + 1) * canvas_w * 4];
            for col in 0..layer.cols {
                let index = usize::from(layer.indices[row * layer.cols + col]);
                let Some(&color) = colors.get(index) else {
                    continue;
                };
                if color[3] == 0 {
                    continue;
                }
                for x in col_edges[col]..col_edges[col + 1].min(canvas_w) {
                    blend(&mut line[x * 4..x * 4 + 4], color);
                }
            }
        }
    }
    if let Some(grid) = layer.grid_line {
        let color = premultiplied(grid);
        let (right, bottom) = (col_edges[layer.cols], row_edges[layer.rows]);
        let (xs, ys) = (
            grid_positions(col_edges, right),
            grid_positions(row_edges, bottom),
        );
        for y in y0..bottom.min(canvas_h) {
            let line = &mut data[y * canvas_w * 4..(y + 1) * canvas_w * 4];
            if ys.contains(&y) {
                for x in x0..right.min(canvas_w) {
                    blend(&mut line[x * 4..x * 4 + 4], color);
                }
            } else {
                for &x in xs.iter().filter(|&&x| x < canvas_w) {
                    blend(&mut line[x * 4..x * 4 + 4], color);
                }
            }
        }
    }
}

/// The pixel columns and the pixel rows (on the scene, not the layer) that
/// carry a layer's grid lines: one place for the raster, SVG and TikZ alike.
pub fn grid_lines(layer: &CellLayer) -> (Vec<usize>, Vec<usize>) {
    let (x0, y0) = (layer.rect.x as usize, layer.rect.y as usize);
    let col_edges: Vec<usize> = (0..=layer.cols)
        .map(|k| x0 + layer.col_edge(k) as usize)
        .collect();
    let row_edges: Vec<usize> = (0..=layer.rows)
        .map(|k| y0 + layer.row_edge(k) as usize)
        .collect();
    (
        grid_positions(&col_edges, x0 + layer.rect.width as usize),
        grid_positions(&row_edges, y0 + layer.rect.height as usize),
    )
}

/// The pixel columns (or rows) that carry grid lines: each cell's first pixel, and the
/// last pixel of the layer, so the grid is closed on all four sides.
fn grid_positions(edges: &[usize], end: usize) -> Vec<usize> {
    let mut positions: Vec<usize> = edges[..edges.len() - 1].to_vec();
    if end > 0 {
        positions.push(end - 1);
    }
    positions.dedup();
    positions
}

fn skia_path(commands: &[PathCmd]) -> Option<tiny_skia::Path> {
    let mut builder = PathBuilder::new();
    for &cmd in commands {
        match cmd {
            PathCmd::MoveTo(x, y) => builder.move_to(x as f32, y as f32),
            PathCmd::LineTo(x, y) => builder.line_to(x as f32, y as f32),
            PathCmd::QuadTo(a, b, x, y) => builder.quad_to(a as f32, b as f32, x as f32, y as f32),
            PathCmd::CubicTo(a, b, c, d, x, y) => {
                builder.cubic_to(a as f32, b as f32, c as f32, d as f32, x as f32, y as f32)
            }
            PathCmd::Close => builder.close(),
        }
    }
    builder.finish()
}

fn draw_path(pixmap: &mut Pixmap, item: &PathItem, transform: Transform) {
    let Some(path) = skia_path(&item.commands) else {
        return;
    };
    if let Some(fill) = item.fill {
        let mut paint = Paint::default();
        paint.set_color(skia_color(fill));
        paint.anti_alias = true;
        pixmap.fill_path(&path, &paint, FillRule::Winding, transform, None);
    }
    if let Some((color, width)) = item.stroke {
        let mut paint = Paint::default();
        paint.set_color(skia_color(color));
        paint.anti_alias = true;
        let stroke = Stroke {
            width: width as f32,
            line_cap: LineCap::Butt,
            line_join: LineJoin::Miter,
            ..Stroke::default()
        };
        pixmap.stroke_path(&path, &paint, &stroke, transform, None);
    }
}

/// The pixels of a raster as straight-alpha RGBA bytes.
pub fn straight_rgba(pixmap: &Pixmap) -> Vec<u8> {
    // An opaque pixel is its own straight colour: copy every byte, then demultiply
    // only the (few) pixels with some transparency.
    let mut rgba = pixmap.data().to_vec();
    for (out, p) in rgba.chunks_exact_mut(4).zip(pixmap.pixels()) {
        if p.alpha() != 255 {
            let c = p.demultiply();
            out.copy_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
        }
    }
    rgba
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::scene::PixelRect;

    /// Straight alpha of every pixel, opaque or not, is tiny-skia's own demultiply.
    #[test]
    fn straight_rgba_demultiplies_every_pixel() {
        let mut pixmap = Pixmap::new(64, 4).unwrap();
        for (k, p) in pixmap.pixels_mut().iter_mut().enumerate() {
            let a = [255, 0, 1, 128, 254][k % 5];
            *p =
                tiny_skia::ColorU8::from_rgba((k * 37) as u8, (k * 11) as u8, 200, a).premultiply();
        }
        let expected: Vec<u8> = pixmap
            .pixels()
            .iter()
            .flat_map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect();
        assert_eq!(straight_rgba(&pixmap), expected);
    }

    /// A block of cells outlined on the scene's edges, as a board's
    /// decomposition marks are, on paper at 300 dpi where the cells (26.2 units)
    /// do not divide the board: no pixel of the block's colour shows beyond the
    /// outline (the cells' edges were shared out afresh in device pixels, up to
    /// a scene unit past the outline: blue slivers beside the outlines).
    #[test]
    fn an_outline_on_the_scenes_cell_edges_covers_its_cells_on_paper() {
        let blue = Color::rgb(0, 114, 178);
        let mut scene = Scene::new(163, 163, Color::WHITE);
        let (cols, rows) = (5, 5);
        let block = 1..4;
        let layer = CellLayer {
            rect: PixelRect {
                x: 16,
                y: 16,
                width: 131,
                height: 131,
            },
            rows,
            cols,
            indices: (0..rows * cols)
                .map(|k| u8::from(block.contains(&(k / cols)) && block.contains(&(k % cols))))
                .collect(),
            palette: vec![Color::TRANSPARENT, blue],
            grid_line: None,
        };
        let (left, right) = (
            16.0 + f64::from(layer.col_edge(block.start)),
            16.0 + f64::from(layer.col_edge(block.end)),
        );
        let (top, bottom) = (
            16.0 + f64::from(layer.row_edge(block.start)),
            16.0 + f64::from(layer.row_edge(block.end)),
        );
        scene.push(layer);
        // A white casing 2.4 units wide, inside the block up to its edges.
        let inset = 1.2;
        scene.push(
            PathItem::polygon(&[
                (left + inset, top + inset),
                (right - inset, top + inset),
                (right - inset, bottom - inset),
                (left + inset, bottom - inset),
            ])
            .stroked(Color::WHITE, 2.0 * inset),
        );
        let scene = scene.on_paper(
            crate::library::scene::units::Print { dpi: Some(300.0) },
            None,
        );
        let pixmap = rasterize(&scene, &crate::Control::default()).unwrap();
        let (sx, sy) = device_scale(&scene);
        let is_blue = |x: u32, y: u32| {
            let p = pixmap.pixel(x, y).unwrap().demultiply();
            (p.red(), p.green(), p.blue()) == (blue.r, blue.g, blue.b)
        };
        let (x0, x1) = ((left * sx) as u32, (right * sx).ceil() as u32);
        let (y0, y1) = ((top * sy) as u32, (bottom * sy).ceil() as u32);
        let mut slivers = Vec::new();
        for y in 0..pixmap.height() {
            for x in 0..pixmap.width() {
                let inside = (x0..x1).contains(&x) && (y0..y1).contains(&y);
                if !inside && is_blue(x, y) {
                    slivers.push((x, y));
                }
            }
        }
        assert!(
            slivers.is_empty(),
            "{} blue pixels outside the outline, first {:?}",
            slivers.len(),
            slivers.first()
        );
        // And the cells inside are there.
        assert!(is_blue((x0 + x1) / 2, (y0 + y1) / 2));
    }

    #[test]
    fn a_scene_on_paper_is_drawn_at_its_dpi() {
        let mut scene = Scene::new(72, 36, Color::WHITE);
        scene.push(PathItem::rect(0.0, 0.0, 36.0, 36.0).filled(Color::BLACK));
        let scene = scene.on_paper(
            crate::library::scene::units::Print { dpi: Some(300.0) },
            None,
        );
        let pixmap = rasterize(&scene, &crate::Control::default()).unwrap();
        assert_eq!((pixmap.width(), pixmap.height()), (300, 150));
        let rgba = straight_rgba(&pixmap);
        assert_eq!(rgba[(75 * 300 + 140) * 4], 0);
        assert_eq!(rgba[(75 * 300 + 160) * 4], 255);
    }

    #[test]
    fn cells_land_on_whole_pixels_with_uneven_edges() {
        let mut scene = Scene::new(10, 7, Color::WHITE);
        scene.push(CellLayer {
            rect: PixelRect {
                x: 0,
                y: 0,
                width: 10,
                height: 7,
            },
            rows: 3,
            cols: 3,
            indices: vec![1, 0, 0, 0, 1, 0, 0, 0, 1],
            palette: vec![Color::WHITE, Color::BLACK],
            grid_line: None,
        });
        let rgba = straight_rgba(&rasterize(&scene, &crate::Control::default()).unwrap());
        let black = |x: usize, y: usize| rgba[(y * 10 + x) * 4] == 0;
        // Column edges 0,3,6,10 and row edges 0,2,4,7: no grey pixels anywhere.
        assert!(rgba.chunks(4).all(|p| p[0] == 0 || p[0] == 255));
        assert!(
            black(0, 0)
                && black(2, 1)
                && !black(3, 1)
                && black(3, 2)
                && black(9, 6)
                && !black(5, 6)
        );
    }
}
