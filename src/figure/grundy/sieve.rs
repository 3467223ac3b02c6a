//! P-positions as crisp cells on a plane: the `(y, x - z)` projection that shows the
//! Sierpinski sieve, and the plain `points` plot of a game with two free coordinates.

use plotters::prelude::*;

use super::names::subscripted;
use super::spec::{Frame, GrundyFigure};
use super::text::whole_tick;
use crate::games::Solution;
use crate::library::scene::chart::{chart_error, plotting_rect, SceneBackend};
use crate::library::scene::color::{okabe_ito, INK};
use crate::library::scene::{CellLayer, Color, Role, Scene, TextItem};
use crate::Result;

impl GrundyFigure {
    /// The ListPlot of Miyadera et al. III of the P-positions projected to
    /// `(y, x - z)`: one
    /// crisp square cell per projected point, `y` across and `x - z` up, the
    /// axes spanning the points.
    pub(super) fn sieve_scene(&self, solution: &Solution, frame: &Frame) -> Result<Scene> {
        let points = self.points(solution, frame)?;
        let [a, b, c] = [0, 1, 2].map(|i| subscripted(&frame.names[frame.free[i]]));
        let projected: Vec<(i64, i64)> = points
            .iter()
            .map(|&[x, y, z]| (i64::from(y), i64::from(x) - i64::from(z)))
            .collect();
        let caption = self.caption(frame);
        self.p_cells_scene(
            &projected,
            -1,
            |distinct| format!("P-positions of {caption} as ({b}, {a} − {c}): {distinct} points"),
            (b.clone(), format!("{a} − {c}")),
        )
    }

    /// The P-positions of a game with two free coordinates as crisp cells: the
    /// first free coordinate across, the second up (Wythoff's two rays, say).
    pub(super) fn points2d_scene(&self, solution: &Solution, frame: &Frame) -> Result<Scene> {
        let points: Vec<(i64, i64)> = solution
            .positions_where(|p, v| v == 0 && frame.matches(p))
            .map(|(p, _)| (i64::from(p[frame.free[0]]), i64::from(p[frame.free[1]])))
            .collect();
        if points.len() > super::MAX_PLOT_POINTS {
            return Err(crate::Error::unsupported(format!(
                "{} P-positions are too many to plot (at most {}); use a smaller `box`",
                points.len(),
                super::MAX_PLOT_POINTS
            )));
        }
        let [a, b] = [0, 1].map(|i| subscripted(&frame.names[frame.free[i]]));
        let caption = self.caption(frame);
        self.p_cells_scene(
            &points,
            0,
            |distinct| format!("P-positions of {caption}: {distinct} points"),
            (a, b),
        )
    }

    /// The span of the axes a `sieve` or `points` plot of `solution` draws,
    /// `(across, lowest up, highest up)`; `None` for the other kinds. A sheet
    /// at one scale joins its panels' spans ([`super::spec::PlotView::common_extent`]).
    pub(super) fn plotted_extent(&self, solution: &Solution) -> Result<Option<(i64, i64, i64)>> {
        let frame = self.frame()?;
        Ok(match self.resolved_plot()? {
            super::GrundyPlot::Sieve => {
                let projected: Vec<(i64, i64)> = self
                    .points(solution, &frame)?
                    .iter()
                    .map(|&[x, y, z]| (i64::from(y), i64::from(x) - i64::from(z)))
                    .collect();
                Some(extent(&projected, -1, None))
            }
            super::GrundyPlot::Points => {
                let points: Vec<(i64, i64)> = solution
                    .positions_where(|p, v| v == 0 && frame.matches(p))
                    .map(|(p, _)| (i64::from(p[frame.free[0]]), i64::from(p[frame.free[1]])))
                    .collect();
                Some(extent(&points, 0, None))
            }
            _ => None,
        })
    }

    /// Points `(across, up)` as one square cell each, the axes spanning them (and
    /// `0` across, `low` up at least); `title` hears how many distinct cells.
    fn p_cells_scene(
        &self,
        projected: &[(i64, i64)],
        low: i64,
        title: impl FnOnce(usize) -> String,
        (b, a_c): (String, String),
    ) -> Result<Scene> {
        let (y_max, d_min, d_max) = extent(projected, low, self.view.common_extent);
        let (cols, rows) = ((y_max + 1) as usize, (d_max - d_min + 1) as usize);
        let mut indices = vec![0u8; rows * cols];
        for &(y, d) in projected {
            indices[(d_max - d) as usize * cols + y as usize] = 1;
        }
        let distinct = indices.iter().filter(|&&i| i == 1).count();

        let (width, height) = (self.view.width, self.view.height);
        let labels = &self.view.labels;
        let scale = self.type_scale();
        let title = labels.caption.as_ref().map(|text| {
            let text = if text.is_empty() {
                title(distinct)
            } else {
                text.clone()
            };
            let size = labels
                .caption_size
                .unwrap_or_else(|| scale.size(Role::Title));
            let least = size.min(scale.floor());
            crate::library::scene::layout::fit_title(&text, size, least, f64::from(width) - 24.0, 2)
        });
        // Tick numbers and axis names at the type scale: they used to be clamped
        // to 11 units at least, larger than the title of an 85 mm sieve.
        let label_size = labels.font_size.unwrap_or_else(|| scale.size(Role::Tick));
        let name_size = labels
            .font_size
            .map_or_else(|| scale.size(Role::AxisName), |s| s * 1.15);
        let title_h = title.as_ref().map_or(label_size, |(lines, size)| {
            lines.len() as f64 * size * 1.3 + size * 1.1
        });
        let names = labels.axis_names.as_ref().map(|given| {
            let pick = |k: usize, default: String| {
                given
                    .get(k)
                    .filter(|n| !n.is_empty())
                    .cloned()
                    .unwrap_or(default)
            };
            (pick(0, b.clone()), pick(1, a_c.clone()))
        });
        // The plot takes the width less its axes' labels; its height follows
        // from square cells when the page may grow to hold them (to 1.25 of its
        // width), else from the height asked. `--aspect` fixes the cells' shape
        // instead, the plot then centred in its room.
        let ticks = if labels.ticks { 1.0 } else { 0.0 };
        let named = if names.is_some() { 1.0 } else { 0.0 };
        let y_label_area = (label_size * (1.2 + 2.8 * ticks + 1.6 * named)).ceil() as u32;
        // Room left of the turned axis name, whose box plotters sets on the edge.
        let left = y_label_area + (name_size * 0.3 * named).ceil() as u32;
        // Room under the axis name for its descender ("y" ended on the page's edge).
        let label_area = (label_size * (0.8 + 1.6 * ticks) + name_size * 1.6 * named).ceil() as u32;
        let bottom = label_area + (name_size * 0.4 * named).ceil() as u32;
        let (top, right) = (title_h.ceil() as u32, (label_size * 1.5).ceil() as u32);
        let room_w = f64::from(width.saturating_sub(left + right).max(1));
        // Without a width the plot keeps its square cells in the default
        // canvas, cut to the plot, as on a screen.
        let aspect = self.view.aspect.or((!self.view.width_asked).then_some(1.0));
        // A height too low for two tick numbers up the plot comes out taller, so
        // that the page's height check refuses it naming the height needed.
        let least_plot = (label_size * 4.0).ceil() as u32;
        let tallest = if self.view.height_asked {
            height.max(top + bottom + least_plot)
        } else if !self.view.width_asked {
            height
        } else {
            (f64::from(width) * 1.25).round() as u32
        };
        let room_h = f64::from(tallest.saturating_sub(top + bottom).max(1));
        let (cell_w, cell_h) = match aspect {
            Some(aspect) => {
                let cell_w = (room_w / cols as f64).min(room_h / rows as f64 / aspect);
                (cell_w, cell_w * aspect)
            }
            None if self.view.height_asked => (room_w / cols as f64, room_h / rows as f64),
            None => {
                let cell_w = room_w / cols as f64;
                (cell_w, cell_w.min(room_h / rows as f64))
            }
        };
        // On a screen whole-unit cells keep their edges crisp.
        let (cell_w, cell_h) = if !self.view.width_asked && cell_w >= 1.0 && cell_h >= 1.0 {
            (cell_w.floor(), cell_h.floor())
        } else {
            (cell_w, cell_h)
        };
        let (plot_w, plot_h) = (
            ((cols as f64 * cell_w).round() as u32).max(1),
            ((rows as f64 * cell_h).round() as u32).max(1),
        );
        let title_w = title.as_ref().map_or(0.0, |(lines, size)| {
            lines
                .iter()
                .map(|l| crate::library::scene::font::text_width(l, *size))
                .fold(0.0, f64::max)
                + 24.0
        });
        let (width, height) = (
            if self.view.width_asked {
                width
            } else {
                (left + plot_w + right)
                    .max(title_w.ceil() as u32)
                    .min(width)
            },
            if self.view.height_asked {
                tallest
            } else {
                top + plot_h + bottom
            },
        );
        let mut scene = Scene::new(width, height, Color::WHITE);
        let x0 = left + (width - left - right).saturating_sub(plot_w) / 2;
        let y0 = top + (height - top - bottom).saturating_sub(plot_h) / 2;
        if let Some((lines, size)) = title {
            for (k, line) in lines.into_iter().enumerate() {
                scene.push(
                    TextItem::centered(
                        f64::from(width) / 2.0,
                        size * (1.3 + 1.3 * k as f64),
                        line,
                        size,
                        INK,
                    )
                    .with_role(Role::Title),
                );
            }
        }
        let area;
        let first_plotted = scene.items.len();
        {
            let root = SceneBackend::new(&mut scene).into_drawing_area();
            let ink = RGBColor(0x22, 0x22, 0x22);
            let sub = root.clone().shrink(
                (x0 - y_label_area, y0),
                (plot_w + y_label_area, plot_h + label_area),
            );
            let mut chart = ChartBuilder::on(&sub)
                .x_label_area_size(label_area)
                .y_label_area_size(y_label_area)
                .build_cartesian_2d(
                    -0.5..y_max as f64 + 0.5,
                    d_min as f64 - 0.5..d_max as f64 + 0.5,
                )
                .map_err(chart_error)?;
            let mut mesh = chart.configure_mesh();
            mesh.disable_mesh();
            if let Some((x_name, y_name)) = &names {
                mesh.x_desc(x_name.as_str()).y_desc(y_name.as_str());
            }
            if !labels.ticks {
                mesh.x_labels(0).y_labels(0);
            } else {
                mesh.x_labels(((f64::from(plot_w) / (label_size * 3.0)) as usize).clamp(2, 10))
                    .y_labels(((f64::from(plot_h) / (label_size * 2.0)) as usize).clamp(2, 10));
            }
            mesh.label_style(("sans-serif", label_size).into_font().color(&ink))
                .axis_desc_style(("sans-serif", name_size).into_font().color(&ink))
                .x_label_formatter(&|v| whole_tick(*v))
                .y_label_formatter(&|v| whole_tick(*v))
                .draw()
                .map_err(chart_error)?;
            area = plotting_rect(chart.plotting_area().get_pixel_range());
            root.present().map_err(chart_error)?;
        }
        let axis_names: Vec<&str> = names
            .iter()
            .flat_map(|(x, y)| [x.as_str(), y.as_str()])
            .collect();
        crate::library::scene::chart::tag_roles(&mut scene, first_plotted, &axis_names, &[]);
        scene.push(CellLayer {
            rect: area,
            rows,
            cols,
            indices,
            palette: vec![Color::TRANSPARENT, okabe_ito::BLUE],
            grid_line: None,
        });
        Ok(self.view_print().apply(scene))
    }
}

/// The span of the axes of points `(across, up)`: every point, `0` across and
/// `low` up at least, and `common` (a sheet's shared axes) when given.
fn extent(projected: &[(i64, i64)], low: i64, common: Option<(i64, i64, i64)>) -> (i64, i64, i64) {
    let y_max = projected.iter().map(|p| p.0).max().unwrap_or(0).max(1);
    let d_min = projected.iter().map(|p| p.1).min().unwrap_or(0).min(low);
    let d_max = projected.iter().map(|p| p.1).max().unwrap_or(0).max(1);
    match common {
        Some((y, lo, hi)) => (y_max.max(y), d_min.min(lo), d_max.max(hi)),
        None => (y_max, d_min, d_max),
    }
}
