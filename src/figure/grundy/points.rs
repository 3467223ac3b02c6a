//! The 3D point plot of P-positions (the ListPointPlot3D of Miyadera et al. III;
//! Okubo, Kashiwagi, Niida, Figures 6–7).

use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use plotters::style::Color as _;

use super::names::subscripted;
use super::spec::{Frame, GrundyFigure, MAX_PLOT_POINTS};
use super::text::{colour_bar, drop_overlapping_texts, whole_tick};
use crate::error::check_memory;
use crate::games::Solution;
use crate::library::scene::chart::{chart_error, SceneBackend};
use crate::library::scene::color::INK;
use crate::library::scene::{Color, HAlign, Item, Role, Scene, TextItem, VAlign};
use crate::{Error, Result};

impl GrundyFigure {
    pub(super) fn points(&self, solution: &Solution, frame: &Frame) -> Result<Vec<[u32; 3]>> {
        let points: Vec<[u32; 3]> = solution
            .positions_where(|p, v| v == 0 && frame.matches(p))
            .map(|(p, _)| [p[frame.free[0]], p[frame.free[1]], p[frame.free[2]]])
            .collect();
        if points.len() > MAX_PLOT_POINTS {
            return Err(Error::unsupported(format!(
                "{} P-positions are too many to plot (at most {MAX_PLOT_POINTS}); use a smaller `box`",
                points.len()
            )));
        }
        check_memory(
            || format!("a plot of {} points", points.len()),
            points.len() as u64 * 600,
            self.memory_limit,
            "use a smaller `box`",
        )?;
        Ok(points)
    }

    /// The ListPointPlot3D of Miyadera et al. III: the P-positions as points,
    /// the third free
    /// coordinate up (as Mathematica draws `{x, y, z}`), coloured by height.
    pub(super) fn points_scene(&self, solution: &Solution, frame: &Frame) -> Result<Scene> {
        let points = self.points(solution, frame)?;
        let [a, b, c] = [0, 1, 2].map(|i| subscripted(&frame.names[frame.free[i]]));
        let [ba, bb, bc] = [0, 1, 2].map(|i| f64::from(frame.bounds[frame.free[i]]).max(1.0));
        let (width, height) = (self.view.width, self.view.height);
        // Lower than 0.8 of its width (the default), a 3D plot's axes crowd its
        // numbers into each other.
        let least = (f64::from(width) * 0.8).round() as u32;
        if self.view.height_asked && height < least {
            let length = |units: u32| match self.view_print().print.dpi {
                Some(_) => format!(
                    "{:.1} mm ({units} pt)",
                    (f64::from(units) / 72.0 * 25.4 * 10.0).ceil() / 10.0
                ),
                None => format!("{units} px"),
            };
            return Err(crate::Error::invalid_parameter("height", format!(
                "`height` {} is too low for a 3D plot this wide: its axes' numbers would collide; use {} or more, or a smaller `width`",
                length(height),
                length(least)
            )));
        }
        let labels = &self.view.labels;
        // Drawn OVERSAMPLE times larger, then scaled down: plotters rounds every
        // coordinate to a whole unit, which shows on a 240 pt plot.
        const K: u32 = crate::library::scene::chart::OVERSAMPLE;
        let kf = f64::from(K);
        let mut scene = Scene::new(width * K, height * K, Color::WHITE);
        let w = f64::from(width);
        let scale = self.type_scale();
        let natural_title = scale.size(Role::Title);
        let label_size = labels.font_size.unwrap_or_else(|| scale.size(Role::Tick));
        let name_size = labels
            .font_size
            .map_or_else(|| scale.size(Role::AxisName), |s| s * 1.2);
        let title = labels.caption.as_ref().map(|text| {
            let text = if text.is_empty() {
                format!(
                    "P-positions of {}: {} points",
                    self.caption(frame),
                    points.len()
                )
            } else {
                text.clone()
            };
            let size = labels.caption_size.unwrap_or(natural_title);
            // A long title wraps, then shrinks, rather than run off the page.
            crate::library::scene::layout::fit_title(
                &text,
                size,
                size.min(scale.floor()),
                w - 48.0,
                2,
            )
        });
        let title_h = title.as_ref().map_or(0.0, |(lines, size)| {
            lines.len() as f64 * size * 1.3 + size * 0.8
        });
        // The colour bar: z (up) by colour, so heights can be read off.
        let bar = labels.key;
        // As wide as the bar draws: its gap, the bar, the gap and the widest number.
        let bar_w = if bar {
            (label_size * 2.6
                + crate::library::scene::font::text_width(&whole_tick(bc.round()), label_size))
            .ceil()
        } else {
            0.0
        };
        let radius =
            ((f64::from(width.min(height)) / 3.0) / ba.max(bb).max(bc)).clamp(0.8, 5.0) * 0.8;
        let radius = (radius * kf).round() as u32;
        let pad = (ba.max(bb).max(bc) * 0.04).max(0.5);
        let tick_counts;
        let first_tick = scene.items.len();
        let corners: [(f64, f64); 3];
        {
            let root = SceneBackend::new(&mut scene).into_drawing_area().margin(
                (title_h * kf).round() as u32,
                0,
                0,
                (bar_w * kf) as u32,
            );
            let ink = RGBColor(0x22, 0x22, 0x22);
            let mut chart = ChartBuilder::on(&root)
                .margin(((label_size * 2.6).max(w / 37.5) * kf) as u32)
                // Padded: a point at 0 (or at the box's end) stays off the walls' edges,
                // where the tick labels are.
                .build_cartesian_3d(-pad..ba + pad, -pad..bc + pad, -pad..bb + pad)
                .map_err(chart_error)?;
            let (yaw, pitch) = (
                self.view.azimuth.to_radians(),
                self.view.elevation.to_radians(),
            );
            chart.with_projection(|mut p| {
                p.yaw = yaw;
                p.pitch = pitch;
                p.scale = 0.8;
                p.into_matrix()
            });
            let grey = RGBColor(0xC8, 0xC8, 0xC8);
            // Count the tick labels of each axis, to put its name beside them.
            let counts = [0, 1, 2].map(|_| std::cell::Cell::new(0usize));
            let ticks = labels.ticks;
            let tick = |axis: usize, v: f64| {
                counts[axis].set(counts[axis].get() + 1);
                if ticks {
                    whole_tick(v)
                } else {
                    String::new()
                }
            };
            chart
                .configure_axes()
                .label_style(("sans-serif", label_size * kf).into_font().color(&ink))
                .bold_grid_style(grey.stroke_width(K / 2))
                .light_grid_style(TRANSPARENT)
                .axis_panel_style(RGBColor(0xF4, 0xF4, 0xF4))
                .max_light_lines(0)
                .x_formatter(&|v| tick(0, *v))
                .y_formatter(&|v| tick(1, *v))
                .z_formatter(&|v| tick(2, *v))
                .draw()
                .map_err(chart_error)?;
            tick_counts = counts.map(|c| c.get());
            // Painter's order: far points first, so near ones cover them.
            let spec = chart.as_coord_spec();
            let project = |x: f64, y: f64, z: f64| {
                let (px, py) = spec.translate(&(x, y, z));
                (f64::from(px), f64::from(py))
            };
            corners = [
                project(ba / 2.0, bc / 2.0, bb / 2.0),
                project(0.0, 0.0, 0.0),
                project(ba, bc, bb),
            ];
            let mut order: Vec<(i32, [u32; 3])> = points
                .iter()
                .map(|&[x, y, z]| {
                    let (x, y, z) = (f64::from(x), f64::from(y), f64::from(z));
                    (
                        spec.projected_depth(&x, &z, &y),
                        [x as u32, y as u32, z as u32],
                    )
                })
                .collect();
            order.sort_by(|p, q| q.0.cmp(&p.0).then(p.1.cmp(&q.1)));
            chart
                .draw_series(order.iter().map(|&(_, [x, y, z])| {
                    let rgb = ViridisRGB::get_color_normalized(f64::from(z), 0.0, bc);
                    Circle::new(
                        (f64::from(x), f64::from(z), f64::from(y)),
                        radius,
                        rgb.filled(),
                    )
                }))
                .map_err(chart_error)?;
            root.present().map_err(chart_error)?;
        }
        scene.scale_down(K);
        let corners = corners.map(|(x, y)| (x / kf, y / kf));
        // plotters centres the middle of the box, not its picture, and keeps a margin
        // for any turn of it: fit the drawing to its room (below the title, left of the
        // colour bar, with space for the axis names), so a plot made small is not
        // mostly margin. Positions move; text keeps its size.
        // The names sit `label_size * 1.3 + name_size * 0.6` out from their tick
        // numbers' middle: a short name (one letter, a subscript) needs that and
        // half its own width.
        let reach = label_size * 1.3 + name_size * 1.0;
        // A width asked for is filled: without a height asked the page grows
        // (to 1.25 of its width) until the width, not the height, bounds the drawing.
        let height = match scene.bounds_from(first_tick) {
            Some((x0, y0, x1, y1)) if self.view.width_asked && !self.view.height_asked => {
                let s = ((w - bar_w - 2.0 * reach) / (x1 - x0).max(1.0)).clamp(0.8, 1.5);
                let needed = (title_h + label_size * 0.5 + s * (y1 - y0) + reach).ceil();
                let grown = (needed.min((w * 1.25).round()) as u32).max(height);
                scene.height = grown;
                grown
            }
            _ => height,
        };
        let room = (
            reach,
            title_h + label_size * 0.5,
            w - bar_w - reach,
            f64::from(height) - reach,
        );
        let fit = scene.bounds_from(first_tick).and_then(|(x0, y0, x1, y1)| {
            let s = ((room.2 - room.0) / (x1 - x0).max(1.0))
                .min((room.3 - room.1) / (y1 - y0).max(1.0))
                .clamp(0.8, 1.5);
            // The drawing and its colour bar are centred together: a plot that the
            // height limits leaves no gap between itself and its bar.
            let group = s * (x1 - x0) + 2.0 * reach + bar_w;
            let dx = ((w - group) / 2.0).max(0.0) + reach - s * x0;
            let dy = room.1 + ((room.3 - room.1) - s * (y1 - y0)) / 2.0 - s * y0;
            s.is_finite().then_some((s, dx, dy, dx + s * x1 + reach))
        });
        let bar_x = fit.map_or(w - bar_w, |f| f.3);
        let place = |(x, y): (f64, f64)| match fit {
            Some((s, dx, dy, _)) => (x * s + dx, y * s + dy),
            None => (x, y),
        };
        scene.map_points_from(first_tick, |x, y| place((x, y)));
        let corners = corners.map(place);
        // The tick labels of plotters' x (game a), y (up: game c) and z (game b)
        // axes, in that order. Each axis name sits beside the middle of its tick
        // labels, on the side away from the box, so it names the right axis.
        let texts: Vec<(f64, f64)> = scene.items[first_tick..]
            .iter()
            .filter_map(|i| match i {
                Item::Text(t) => Some((t.x, t.y)),
                _ => None,
            })
            .collect();
        let centre = corners[0];
        let mut names = Vec::new();
        // Plotters' axes are (a, c up, b); names are given in the game's order a, b, c.
        let axis_names = labels
            .axis_names
            .as_ref()
            .map(|given| [0, 2, 1].map(|k| given.get(k).cloned().unwrap_or_default()));
        let mut start = 0;
        for (axis, (count, default_name)) in tick_counts.into_iter().zip([a, c, b]).enumerate() {
            let name = match &axis_names {
                None => None,
                Some(given) if !given[axis].is_empty() => Some(given[axis].clone()),
                Some(_) => Some(default_name),
            };
            if let (Some(name), true) = (name, count >= 2 && start + count <= texts.len()) {
                let (first, last) = (texts[start], texts[start + count - 1]);
                let mid = ((first.0 + last.0) / 2.0, (first.1 + last.1) / 2.0);
                let (dx, dy) = (last.0 - first.0, last.1 - first.1);
                let norm = (dx * dx + dy * dy).sqrt().max(1.0);
                // The normal of the axis pointing away from the box's centre.
                let (mut nx, mut ny) = (-dy / norm, dx / norm);
                if (mid.0 - centre.0) * nx + (mid.1 - centre.1) * ny < 0.0 {
                    nx = -nx;
                    ny = -ny;
                }
                let reach = label_size * 1.3 + name_size * 0.6;
                names.push(TextItem {
                    x: mid.0 + nx * reach,
                    y: mid.1 + ny * reach,
                    text: name,
                    size: name_size,
                    color: INK,
                    halign: HAlign::Center,
                    valign: VAlign::Middle,
                    rotation: 0.0,
                    role: crate::library::scene::Role::AxisName,
                });
            }
            start += count;
        }
        crate::library::scene::chart::tag_roles(&mut scene, first_tick, &[], &[]);
        drop_overlapping_texts(&mut scene, first_tick);
        for name in names {
            scene.push(name);
        }
        if let Some((lines, size)) = title {
            for (k, line) in lines.into_iter().enumerate() {
                scene.push(
                    TextItem::centered(w / 2.0, size * (1.1 + 1.3 * k as f64), line, size, INK)
                        .with_role(Role::Title),
                );
            }
        }
        if bar {
            let top = title_h + label_size * 2.0;
            let bar_h = (f64::from(height) - top - label_size * 3.0).min(f64::from(height) * 0.5);
            let x = bar_x + label_size * 0.6;
            colour_bar(
                &mut scene,
                (x, top + label_size * 1.2),
                (label_size * 1.1, bar_h.max(label_size * 4.0)),
                bc,
                &subscripted(&frame.names[frame.free[2]]),
                label_size,
            );
        }
        let _ = corners;
        Ok(self.view_print().apply(scene))
    }

    /// The type scale of plots `view.width` units wide.
    pub(super) fn type_scale(&self) -> crate::library::scene::TypeScale {
        crate::library::scene::TypeScale::new(
            f64::from(self.view.type_width.unwrap_or(self.view.width)),
            self.view_print().print.dpi.is_some(),
        )
    }

    /// The print style of plots: the table's, which the command line fills.
    pub(super) fn view_print(&self) -> crate::library::scene::units::PrintStyle {
        self.table.print
    }
}
