//! The 3D figure: S_n (optionally with the section plane and its cut) or
//! operation T on one octahedron, as a scene for PNG and SVG.
//!
//! The picture ([`super::shading`] over the model's geometry) already comes
//! as shaded polygons in painter's order; this module only places them in a
//! picture as wide as asked and as tall as the solid needs, strokes every facet
//! with a thin darker edge so the facets read, and adds a caption.

use super::shading::{
    operation_t_view, sierpinski_view, OperationOptions, ViewOptions, ViewPolygon,
};
use crate::error::check_memory;
use crate::library::encode::{self, Format, Metadata};
use crate::library::figure::plan::{Computed, Plan, Spec};
use crate::library::scene::color::INK;
use crate::library::scene::{Color, Item, PathCmd, PathItem, Scene, TextItem};
use crate::octahedron::PolygonKind;
use crate::Control;
use crate::{Error, Result};
use std::io::Write;
use std::sync::Arc;

/// What the 3D figure shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ViewSubject {
    /// S_n with the options' camera, light, colour and optional plane.
    Sierpinski {
        /// Order n.
        n: u32,
        /// Camera, light, colours, plane.
        options: ViewOptions,
    },
    /// Operation T on one octahedron: six kept octahedra, eight removed tetrahedra.
    Operation(OperationOptions),
}

/// Facet edges: a darker copy of each facet's colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edges {
    /// Stroke width in pixels.
    pub width: f64,
    /// How much darker than the facet, in [0, 1] (0: same colour, 1: black).
    pub darken: f64,
}

/// A 3D figure, as tall as its solid needs, with an optional caption.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewFigure {
    /// What to draw.
    pub subject: ViewSubject,
    /// Width of the picture, pixels; its height fits the solid, at most this.
    pub size: u32,
    /// Colour behind the solid.
    pub background: Color,
    /// Facet edges, or none ([`ViewFigure::default_edges`] suits most pictures).
    pub edges: Option<Edges>,
    /// Caption under the picture, if any.
    pub caption: Option<String>,
    /// Refuse work that would need more bytes than this.
    pub memory_limit: u64,
    /// Resolution, paper size, typeface and text handling.
    pub print: crate::library::scene::units::PrintStyle,
    /// Caption size; `None` scales with the picture.
    pub caption_size: Option<f64>,
}

/// Bytes per octahedron of a view: the model's solid and its up to four visible
/// faces, then the scene's paths of them. Measured on S_6 and S_7 (about 2.4 KiB).
const BYTES_PER_OCTAHEDRON: u64 = 2560;

impl ViewFigure {
    /// The default edges for a picture `size` px wide of octahedra of radius 2^-order.
    pub fn default_edges(size: u32, order: u32) -> Edges {
        Edges {
            width: (f64::from(size) * 0.5f64.powi(order as i32) / 40.0).clamp(0.4, 2.0),
            darken: 0.45,
        }
    }

    /// Checks the parameters, before anything is computed.
    pub fn validate(&self) -> Result<()> {
        if !(16..=16384).contains(&self.size) {
            return Err(Error::invalid_parameter(
                "width",
                format!("`width` must be between 16 and 16384 px; got {}", self.size),
            ));
        }
        if let Some(edges) = self.edges {
            if !(edges.width >= 0.0 && edges.width <= 64.0) {
                return Err(Error::invalid_parameter(
                    "edge-width",
                    "`edge-width` must be between 0 and 64 px",
                ));
            }
        }
        Ok(())
    }

    /// The polygons, in painter's order.
    pub fn polygons(&self, control: &Control) -> Result<Vec<ViewPolygon>> {
        match &self.subject {
            ViewSubject::Sierpinski { n, options } => {
                let options = ViewOptions {
                    memory_limit: self.memory_limit,
                    ..*options
                };
                sierpinski_view(*n, &options, control)
            }
            ViewSubject::Operation(options) => Ok(operation_t_view(options)),
        }
    }

    /// The order whose octahedra are drawn (1 for operation T's children).
    pub fn order(&self) -> u32 {
        match self.subject {
            ViewSubject::Sierpinski { n, .. } => n,
            ViewSubject::Operation(_) => 1,
        }
    }
}

impl ViewPlan {
    /// The scene: the picture, then the caption under it.
    pub fn scene(&self, control: &Control) -> Result<Arc<Scene>> {
        self.cache().get_or_compute(|| self.build_scene(control))
    }

    fn build_scene(&self, control: &Control) -> Result<Scene> {
        crate::library::figure::plan::computing_model();
        let size = self.size;
        let scale =
            crate::library::scene::TypeScale::new(f64::from(size), self.print.print.dpi.is_some());
        let caption_size = self
            .caption_size
            .unwrap_or_else(|| scale.size(crate::library::scene::Role::Label));
        // A long caption wraps onto a second line before it shrinks, never under
        // the scale's floor (7 pt on paper).
        let caption = self.caption.as_ref().map(|text| {
            crate::library::scene::layout::fit_title(
                text,
                caption_size,
                caption_size.min(scale.floor()),
                f64::from(size) - 8.0,
                2,
            )
        });
        let caption_size = caption.as_ref().map_or(caption_size, |c| c.1);
        let line = (caption_size * 1.45).ceil() as u32;
        let lines = caption.as_ref().map_or(0, |c| c.0.len() as u32);
        let caption_height = if lines > 0 {
            lines * line + line / 3
        } else {
            0
        };
        // The page is at most square above its caption: the memory check takes that
        // bound, before the polygons say how much of it the solid needs.
        let (width, height) = (size, size + caption_height);
        // Checked once, before any work: the raster (PNG's peak per pixel in
        // encode::scene_peak_bytes: canvas, straight copy, RGB) and the model's
        // octahedra with their polygons, which the scene holds again as paths.
        let raster = u64::from(width) * u64::from(height) * 11;
        let octahedra = match self.subject {
            ViewSubject::Sierpinski { n, .. } => 6u64.checked_pow(n).unwrap_or(u64::MAX),
            ViewSubject::Operation(_) => 14,
        };
        let solid = octahedra.saturating_mul(BYTES_PER_OCTAHEDRON);
        check_memory(
            || match self.subject {
                ViewSubject::Sierpinski { n, .. } => {
                    format!("a {width} x {height} px 3D view of S_{n} ({octahedra} octahedra)")
                }
                ViewSubject::Operation(_) => format!("a {width} x {height} px 3D view"),
            },
            raster.saturating_add(solid),
            self.memory_limit,
            if raster >= solid {
                "choose a smaller `width`"
            } else {
                "choose a smaller `n` (n <= 5 draws in under a second, 6 in a few)"
            },
        )?;
        let polygons = self.polygons(control)?;
        let fit = subject_bounds(&polygons);
        let picture = fitted_height(size, fit);
        let mut scene = Scene::new(width, picture + caption_height, self.background);
        let edges = self.edges.filter(|e| e.width > 0.0);
        // Drawn as in the square panel, which is centred on the shorter picture:
        // the rows the solid leaves blank over and under it are cut off evenly.
        scene.items.extend(polygon_items(
            &polygons,
            0.0,
            (f64::from(picture) - f64::from(size)) / 2.0,
            f64::from(size),
            fit,
            edges,
        ));
        for (k, text) in caption.into_iter().flat_map(|c| c.0).enumerate() {
            scene.push(
                TextItem::centered(
                    f64::from(size) / 2.0,
                    f64::from(picture + line * (k as u32 + 1)) - caption_size * 0.25,
                    text,
                    caption_size,
                    INK,
                )
                .with_role(crate::library::scene::Role::Label),
            );
        }
        Ok(self.print.apply(scene))
    }
}

impl Spec for ViewFigure {
    fn validate(&self) -> Result<()> {
        ViewFigure::validate(self)
    }
}

/// A validated 3D view; its picture is drawn once for PNG, SVG and PDF.
pub type ViewPlan = Plan<ViewFigure, Computed<Scene>>;

impl crate::library::figure::Figure for ViewPlan {
    fn still_scene(&self, control: &Control) -> Result<Option<Arc<Scene>>> {
        self.scene(control).map(Some)
    }

    fn formats(&self) -> Vec<Format> {
        vec![Format::Png, Format::Svg]
    }

    fn check(&self, _format: Format) -> Result<()> {
        Ok(())
    }

    fn write_to(
        &self,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        encode::write_scene_to(
            out,
            format,
            &*self.scene(control)?,
            metadata,
            self.memory_limit,
            control,
        )
    }

    fn default_stem(&self) -> String {
        match &self.subject {
            ViewSubject::Sierpinski { n, .. } => format!("octahedron-view-{n}"),
            _ => "octahedron-operation".into(),
        }
    }
}

/// Space left around the frame [-1, 1]² inside a panel, as a share of its side.
const INSET: f64 = 0.03;

/// The height in px of a picture `size` px wide that holds the box `fit` (frame
/// units, e.g. from [`subject_bounds`]) as [`polygon_items`] draws it in a square
/// panel of that side, with the same blank over and under it as at its sides.
/// A solid wider than tall (S_4 with its plane, the paper's Figure 4, is about
/// 0.9 as tall as wide) once sat in a square page with 144 px of blank under it
/// at 160 mm; a solid taller than wide keeps the square page, as wide as asked.
pub fn fitted_height(size: u32, fit: [f64; 4]) -> u32 {
    let side = f64::from(size);
    let (wide, tall) = (fit[2] - fit[0], fit[3] - fit[1]);
    let span = wide.max(tall).max(1e-9);
    let drawn = side * (1.0 - 2.0 * INSET) * tall / span;
    let needed = ((drawn + 2.0 * INSET * side).ceil() as u32).clamp(1, size);
    // Whole pixels cut over and under alike: the solid keeps its pixels.
    size - (size - needed) / 2 * 2
}

/// The bounds of what a view is about: the solid and its section, not the plane,
/// which is only there to show where the cut lies. Fitting the plane's corners
/// left a third of the canvas empty; the plane now runs off the picture's edges.
pub fn subject_bounds(polygons: &[ViewPolygon]) -> [f64; 4] {
    let subject: Vec<ViewPolygon> = polygons
        .iter()
        .filter(|p| p.kind != PolygonKind::Plane)
        .cloned()
        .collect();
    if subject.is_empty() {
        bounds(polygons)
    } else {
        bounds(&subject)
    }
}

/// The bounding box `[x0, y0, x1, y1]` of the polygons' points (frame units, y up).
pub fn bounds(polygons: &[ViewPolygon]) -> [f64; 4] {
    let mut b = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    for q in polygons.iter().flat_map(|p| p.points.iter()) {
        b = [
            b[0].min(q[0]),
            b[1].min(q[1]),
            b[2].max(q[0]),
            b[3].max(q[1]),
        ];
    }
    if b[0] > b[2] {
        [-1.0, -1.0, 1.0, 1.0]
    } else {
        b
    }
}

/// The polygons placed in the square panel at (`x`, `y`) of side `side`,
/// the box `fit` (frame units, y up, e.g. from [`bounds`]) centred and
/// filling it, each polygon filled and, with `edges`, stroked darker.
pub fn polygon_items(
    polygons: &[ViewPolygon],
    x: f64,
    y: f64,
    side: f64,
    fit: [f64; 4],
    edges: Option<Edges>,
) -> Vec<Item> {
    let span = (fit[2] - fit[0]).max(fit[3] - fit[1]).max(1e-9);
    let k = side * (1.0 - 2.0 * INSET) / span;
    let (mx, my) = ((fit[0] + fit[2]) / 2.0, (fit[1] + fit[3]) / 2.0);
    let (cx, cy) = (x + side / 2.0, y + side / 2.0);
    polygons
        .iter()
        .map(|p| {
            let mut commands = Vec::with_capacity(p.points.len() + 1);
            for (i, q) in p.points.iter().enumerate() {
                let (px, py) = (cx + (q[0] - mx) * k, cy - (q[1] - my) * k);
                commands.push(if i == 0 {
                    PathCmd::MoveTo(px, py)
                } else {
                    PathCmd::LineTo(px, py)
                });
            }
            commands.push(PathCmd::Close);
            let alpha = (f64::from(p.opacity).clamp(0.0, 1.0) * 255.0).round() as u8;
            let [r, g, b] = p.fill;
            let fill = Color { r, g, b, a: alpha };
            // Translucent solids stay ghosts: their edges would hide what is behind.
            let ghost = p.opacity < 1.0 && p.kind == PolygonKind::Face;
            let stroke = edges
                .filter(|_| !ghost)
                .map(|e| (darker(fill, e.darken), e.width));
            Item::Path(PathItem {
                commands,
                fill: Some(fill),
                stroke,
            })
        })
        .collect()
}

/// `colour` darkened by `amount` in [0, 1], alpha kept.
pub fn darker(colour: Color, amount: f64) -> Color {
    let k = 1.0 - amount.clamp(0.0, 1.0);
    let f = |v: u8| (f64::from(v) * k).round() as u8;
    Color {
        r: f(colour.r),
        g: f(colour.g),
        b: f(colour.b),
        a: colour.a,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::encode::raster;
    use crate::library::figure::octahedron::shading::PlaneOptions;
    use crate::octahedron::Level;

    #[test]
    fn a_wide_solid_gets_a_page_as_tall_as_it_with_its_side_margins() {
        // Half as tall as wide: 94 % of 1000 px for the solid's width, 470 for
        // its height, and 30 px over and under it as at its sides.
        assert_eq!(fitted_height(1000, [-1.0, -0.5, 1.0, 0.5]), 530);
        // An odd number of rows to cut (1000 - 531) rounds down to an even one,
        // shared alike.
        assert_eq!(fitted_height(1000, [-1.0, -0.501, 1.0, 0.501]), 532);
        // Taller than wide, or square: the square page.
        assert_eq!(fitted_height(800, [-0.5, -1.0, 0.5, 1.0]), 800);
        assert_eq!(fitted_height(800, [-1.0, -1.0, 1.0, 1.0]), 800);
    }

    #[test]
    fn the_solid_fills_the_panel_without_clipping_and_the_plane_runs_off() {
        let figure = ViewFigure {
            subject: ViewSubject::Sierpinski {
                n: 2,
                options: ViewOptions {
                    plane: Some(PlaneOptions::at(Level::integer(2, 3).unwrap())),
                    ..ViewOptions::default()
                },
            },
            size: 200,
            print: Default::default(),
            caption_size: None,
            background: Color::WHITE,
            edges: Some(ViewFigure::default_edges(200, 2)),
            caption: None,
            memory_limit: crate::error::DEFAULT_MEMORY_LIMIT,
        };
        let scene = Plan::new(figure)
            .unwrap()
            .scene(&Control::default())
            .unwrap();
        let rgba =
            raster::straight_rgba(&raster::rasterize(&scene, &crate::Control::default()).unwrap());
        // As wide as asked; as tall as the solid needs, no taller than wide.
        let height = scene.height as usize;
        assert_eq!(scene.width, 200);
        assert!((100..=200).contains(&height), "{height} px tall");
        let px = |x: usize, y: usize| &rgba[(y * 200 + x) * 4..][..3];
        // The solid (orange: red well above blue) touches no outermost pixel; only
        // the bluish plane and its outline, fitted out of the frame, may.
        let solid = |x: usize, y: usize| i32::from(px(x, y)[0]) > i32::from(px(x, y)[2]) + 30;
        for x in 0..200 {
            for y in [0, height - 1] {
                assert!(!solid(x, y), "solid at ({x}, {y}): {:?}", px(x, y));
            }
        }
        for y in 0..height {
            for x in [0, 199] {
                assert!(!solid(x, y), "solid at ({x}, {y}): {:?}", px(x, y));
            }
        }
        let middle = height / 2;
        assert!((middle - 20..middle + 20).any(|y| (80..120).any(|x| solid(x, y))));
        let plane_at_edge =
            (0..height).any(|i| px(0, i) != [255, 255, 255] || px(199, i) != [255, 255, 255]);
        assert!(plane_at_edge, "the plane should run off the picture");
    }
}
