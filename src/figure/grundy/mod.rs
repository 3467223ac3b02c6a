//! Grundy figures: a game on a box, written as data (CSV, JSON), as a Grundy
//! table coloured by value mod 3 (Miyadera web book, Figures 7.9, 7.14), as a
//! 3D point plot of P-positions (the ListPointPlot3D of Miyadera et al. III;
//! Okubo, Kashiwagi, Niida, Figures 6–7) or as the `(y, x - z)` projection
//! that shows the Sierpinski sieve.
//!
//! A [`GrundyFigure`] is a validated spec that the CLI (and later recipes)
//! fill in. The one idea: every picture is drawn from *free coordinates* —
//! the game's coordinates minus those a [`Slice`] fixes — so a table needs
//! two of them and a point plot three, whatever the game.
//!
//! The family in files: [`spec`] (what a figure is, checked), [`data`] (CSV,
//! JSON, `.npy`), [`table`], [`points`] and [`sieve`] (the three pictures) and
//! [`text`] (captions and labels they share); this file writes a solved game in
//! any format and is the family's [`Figure`](super::Figure).

mod data;
mod names;
mod points;
mod sheet;
mod sieve;
mod spec;
mod table;
mod tex;
mod text;

pub use sheet::{GrundySheet, GrundySheetPlan, MAX_PANELS};
pub use spec::{GrundyFigure, GrundyPlot, PlotView, Slice, TableStyle, MAX_PLOT_POINTS};

use std::io::Write;

use super::plan::{Plan, Spec};
use crate::games::Solution;
use crate::library::encode::{self, Format, Metadata};
use crate::library::scene::Scene;
use crate::Control;
use crate::{Error, Result};

impl GrundyFigure {
    /// Writes the figure of an already solved game (from [`GrundyFigure::solve`]).
    pub fn write_solved(
        &self,
        solution: &Solution,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        match format {
            Format::Csv => self.write_csv(solution, out).map_err(Error::write_failed),
            Format::Json => self.write_json(solution, out).map_err(Error::write_failed),
            Format::Npy => self.write_npy(solution, out),
            Format::Tex => self.write_tex(solution, &self.frame()?, metadata, out),
            _ => encode::write_scene_to(
                out,
                format,
                &self.scene(solution)?,
                metadata,
                self.memory_limit,
                control,
            ),
        }
    }

    /// The picture of a solved game.
    pub fn scene(&self, solution: &Solution) -> Result<Scene> {
        let plot = self.resolved_plot()?;
        let frame = self.frame()?;
        let scene = match plot {
            GrundyPlot::Table => self.table_scene(solution, &frame),
            GrundyPlot::Points3d => self.points_scene(solution, &frame),
            GrundyPlot::Sieve => self.sieve_scene(solution, &frame),
            GrundyPlot::Points => self.points2d_scene(solution, &frame),
        }?;
        self.at_asked_height(scene)
    }

    /// The scene on a page exactly `--height` tall: a figure that came out
    /// shorter (square cells, a table's rows) centred in it, one taller refused
    /// in one line naming the height it needs at this width.
    fn at_asked_height(&self, mut scene: Scene) -> Result<Scene> {
        let asked = self.view.height;
        if !self.view.height_asked {
            return Ok(scene);
        }
        // The page exactly as tall as asked, not the whole points the layout used.
        let exact = |mut scene: Scene| {
            if let (Some(paper), Some(pt)) = (scene.paper.as_mut(), self.view.height_pt) {
                paper.height_pt = pt;
            }
            scene
        };
        if scene.height == asked {
            return Ok(exact(scene));
        }
        let on_paper = self.view_print().print.dpi.is_some();
        let length = |units: u32| {
            if on_paper {
                format!(
                    "{:.1} mm ({units} pt)",
                    (f64::from(units) / 72.0 * 25.4 * 10.0).ceil() / 10.0
                )
            } else {
                format!("{units} px")
            }
        };
        if scene.height > asked {
            return Err(crate::Error::invalid_parameter("height", format!(
                "`height` {} is less than this figure needs at its width; use {} or more, or a smaller `width` or `box`",
                length(asked),
                length(scene.height)
            )));
        }
        let pad = f64::from((asked - scene.height) / 2);
        scene.map_points_from(0, |x, y| (x, y + pad));
        for item in &mut scene.items {
            if let crate::library::scene::Item::Cells(cells) = item {
                cells.rect.y += (asked - scene.height) / 2;
            }
        }
        scene.height = asked;
        // The page again, from the new height.
        scene.paper = None;
        Ok(exact(self.view_print().apply(scene)))
    }
}

impl super::Figure for GrundyPlan {
    fn still_scene(&self, control: &Control) -> Result<Option<std::sync::Arc<Scene>>> {
        let solution = self.solution(control)?;
        self.spec()
            .scene(solution)
            .map(|scene| Some(std::sync::Arc::new(scene)))
    }

    fn formats(&self) -> Vec<Format> {
        vec![
            Format::Png,
            Format::Svg,
            Format::Csv,
            Format::Json,
            Format::Npy,
            Format::Tex,
        ]
    }

    fn check(&self, format: Format) -> Result<()> {
        self.check_format(format)
    }

    fn output_bytes(&self, format: Format) -> Option<u64> {
        (format == Format::Npy)
            .then(|| self.npy_bytes().ok())
            .flatten()
    }

    fn write_to(
        &self,
        format: Format,
        out: &mut dyn Write,
        metadata: &Metadata,
        control: &Control,
    ) -> Result<()> {
        if format == Format::Npy && self.cache().get().is_none() && self.frame()?.is_whole_box() {
            // The whole box's array is the solution's own: solving and writing
            // overlap, and the solution is kept for other formats.
            super::plan::computing_model();
            let solution = self.spec().solve_to_npy(out, control)?;
            let _ = self.cache().set(solution);
            return Ok(());
        }
        self.spec()
            .write_solved(self.solution(control)?, format, out, metadata, control)
    }

    fn solver(&self, control: &Control) -> Result<Option<crate::games::SolverChoice>> {
        self.game.solver_choice(&self.game_box, control).map(Some)
    }

    fn default_stem(&self) -> String {
        // A file name without spaces or '=': "triangular k=3" -> grundy-triangular-k-3.
        let name: String = self
            .game
            .name()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let words: Vec<&str> = name.split('-').filter(|w| !w.is_empty()).collect();
        format!("grundy-{}", words.join("-"))
    }
}

impl Spec for GrundyFigure {
    fn validate(&self) -> Result<()> {
        GrundyFigure::validate(self)
    }
}

/// A Grundy figure and its solution, solved at most once however many formats
/// are written (solving is the expensive part).
pub type GrundyPlan = Plan<GrundyFigure, std::sync::OnceLock<Solution>>;

impl GrundyPlan {
    /// Whether the figure's data is the whole box (no `slice`): its array is then
    /// the solution's own ([`crate::games::Solution::fill_dense`]).
    pub fn is_whole_box(&self) -> Result<bool> {
        Ok(self.frame()?.is_whole_box())
    }

    /// The solution, computed on first use (stopping early when `control` is cancelled).
    pub fn solution(&self, control: &Control) -> Result<&Solution> {
        if let Some(solution) = self.cache().get() {
            return Ok(solution);
        }
        super::plan::computing_model();
        let solution = self.spec().solve(control)?;
        Ok(self.cache().get_or_init(|| solution))
    }
}

#[cfg(test)]
mod tests {
    use super::table::game_span;
    use super::*;
    use crate::games::{GameParams, GameSpec};
    use crate::library::scene::ramp::Palette;
    use crate::library::scene::Color;

    fn figure(name: &str, params: GameParams, b: &str) -> GrundyFigure {
        GrundyFigure::new(
            GameSpec::from_name(name, &params).unwrap(),
            b.parse().unwrap(),
        )
    }

    fn tri(k: u32, b: &str) -> GrundyFigure {
        figure(
            "triangular",
            GameParams {
                k: Some(k),
                ..Default::default()
            },
            b,
        )
    }

    #[test]
    fn slices_parse_and_are_checked_against_the_game() {
        let s: Slice = "z=5, y = 2".parse().unwrap();
        assert_eq!(s.0, vec![("z".into(), 5), ("y".into(), 2)]);
        assert!("z".parse::<Slice>().is_err());
        assert!("z=-1".parse::<Slice>().is_err());
        let mut f = tri(3, "10");
        f.slice = "w=1".parse().unwrap();
        let err = f.validate().unwrap_err().to_string();
        assert!(
            err.contains("no coordinate 'w'") && err.contains("x, y, z"),
            "{err}"
        );
        f.slice = "z=11".parse().unwrap();
        assert!(f
            .validate()
            .unwrap_err()
            .to_string()
            .contains("outside the box"));
        f.slice = "z=3".parse().unwrap();
        assert_eq!(f.resolved_plot().unwrap(), GrundyPlot::Table);
        f.slice = Slice::default();
        assert_eq!(f.resolved_plot().unwrap(), GrundyPlot::Points3d);
        f.plot = Some(GrundyPlot::Table);
        let err = f.resolved_plot().unwrap_err().to_string();
        assert!(
            err.contains("needs 2 free coordinates") && err.contains("`slice`"),
            "{err}"
        );
    }

    fn first_cell_layer(scene: &Scene) -> crate::library::scene::CellLayer {
        scene
            .items
            .iter()
            .find_map(|i| match i {
                crate::library::scene::Item::Cells(c) => Some(c.clone()),
                _ => None,
            })
            .unwrap()
    }

    #[test]
    fn the_title_and_the_key_of_a_table_go_separately() {
        let texts = |title: bool, key: bool| -> Vec<String> {
            let mut f = figure("band-7-1", GameParams::default(), "8");
            f.table.title = title;
            f.table.key = key;
            let sol = f.solve(&Control::default()).unwrap();
            f.scene(&sol)
                .unwrap()
                .items
                .iter()
                .filter_map(|item| match item {
                    crate::library::scene::Item::Text(t) => Some(t.text.clone()),
                    _ => None,
                })
                .collect()
        };
        let has_key = |t: &[String]| t.iter().any(|s| s.contains("(mod 3)"));
        let has_title = |t: &[String]| t.iter().any(|s| s.contains("band-7-1"));
        let both = texts(true, true);
        assert!(has_key(&both) && has_title(&both));
        let no_title = texts(false, true);
        assert!(has_key(&no_title) && !has_title(&no_title));
        let no_key = texts(true, false);
        assert!(!has_key(&no_key) && has_title(&no_key));
    }

    #[test]
    fn table_cells_hold_the_values_of_the_slice() {
        let mut f = tri(3, "6");
        f.slice = "z=4".parse().unwrap();
        f.table.title = false;
        f.table.key = false;
        let sol = f.solve(&Control::default()).unwrap();
        let scene = f.scene(&sol).unwrap();
        let layer = first_cell_layer(&scene);
        // Positions have y <= (x + 4) / 3 <= 3 in the box 0..6: columns y = 4..6 lie
        // wholly outside the game and are dropped; every row keeps a position.
        let last_y = (0..=6u32).map(|x| (x + 4) / 3).max().unwrap();
        assert_eq!(last_y, 3);
        for y in last_y + 1..=6 {
            assert!(
                (0..=6).all(|x| sol.get(&[x, y, 4]).is_none()),
                "column y = {y}"
            );
        }
        let cols = last_y as usize + 1;
        assert_eq!((layer.rows, layer.cols), (8, cols + 1));
        let texts: Vec<String> = scene
            .items
            .iter()
            .filter_map(|i| match i {
                crate::library::scene::Item::Text(t) => Some(t.text.clone()),
                _ => None,
            })
            .collect();
        // The corner, header labels 0..6 and 0..3, then one label per position.
        let positions = (0..=6u32)
            .flat_map(|x| (0..=6u32).map(move |y| (x, y)))
            .filter(|&(x, y)| y <= (x + 4) / 3)
            .count();
        assert_eq!(texts.len(), 1 + cols + 7 + positions);
        assert_eq!(texts[1..=cols], ["0", "1", "2", "3"]);
        for x in 0..=6u32 {
            for y in 0..=last_y {
                let index = layer.indices[(x as usize + 1) * (cols + 1) + y as usize + 1];
                match sol.get(&[x, y, 4]) {
                    Some(v) => assert_eq!(u32::from(index), u32::from(v) % 3),
                    None => assert_eq!(index, 4, "outside grey at {x},{y}"),
                }
            }
        }
    }

    #[test]
    fn a_table_keeps_the_rectangle_that_holds_positions() {
        let values = [
            None,
            None,
            None,
            None,
            Some(1),
            None,
            None,
            Some(2),
            None,
            None,
            None,
            None,
        ];
        // 4 rows of 3: positions at (1, 1) and (2, 1).
        assert_eq!(game_span(&values, 3), (1..=2, 1..=1));
        assert_eq!(game_span(&[None; 6], 3), (0..=1, 0..=2));
    }

    #[test]
    fn huge_tables_and_wrong_plots_are_refused_before_solving() {
        let mut f = tri(3, "400");
        f.slice = "z=0".parse().unwrap();
        let err = f.resolved_plot().unwrap_err().to_string();
        assert!(err.contains("401 x 401") && err.contains(".csv"), "{err}");
        let band = figure("band-7-1", GameParams::default(), "22");
        let mut b = band.clone();
        b.plot = Some(GrundyPlot::Sieve);
        assert!(b.resolved_plot().is_err());
        let mut m = band;
        m.table.modulus = 0;
        assert!(m.validate().is_err());
    }

    #[test]
    fn sieve_cells_are_the_projection() {
        let mut f = tri(3, "12");
        f.plot = Some(GrundyPlot::Sieve);
        let sol = f.solve(&Control::default()).unwrap();
        let scene = f.scene(&sol).unwrap();
        let layer = first_cell_layer(&scene);
        let expected = crate::games::sierpinski_projection(sol.as_capped().unwrap());
        let d_max = expected.iter().map(|p| p.1).max().unwrap();
        let mut got = Vec::new();
        for r in 0..layer.rows {
            for c in 0..layer.cols {
                if layer.indices[r * layer.cols + c] == 1 {
                    got.push((c as u32, d_max - r as i64));
                }
            }
        }
        got.sort_unstable();
        assert_eq!(got, expected);
    }

    fn contrast(a: Color, b: Color) -> f64 {
        a.contrast(b)
    }

    #[test]
    fn paper_mod_3_classes_survive_greyscale_print() {
        let c = Palette::Paper.class_colors(3).unwrap();
        for (k, &colour) in c.iter().enumerate().take(3).skip(1) {
            let r = contrast(colour, Color::WHITE);
            assert!(r >= 3.0, "class {k}: {r:.2}:1 on white");
        }
        let r = contrast(c[1], c[2]);
        assert!(r >= 3.0, "classes 1 and 2: {r:.2}:1 in grey");
    }
}
