//! The sweep: an animated GIF of the section as the plane z = 1 - r moves
//! from r0 to r1, optionally beside the 3D view with the moving plane.
//!
//! The one idea: a GIF has one fixed palette, and anti-aliased frames have
//! many colours. The palette here is built before any frame from the
//! colours the figure can contain — background, fill, caption ink, the eight
//! shades flat shading gives an octahedron's faces, the glass plane over each
//! of them, the cut, their darker edges — plus short ramps between the pairs
//! that meet at anti-aliased edges. Every frame is drawn exactly as the PNG
//! would be and each pixel is mapped to its nearest palette colour (a pure
//! function), so interiors keep their exact colours, edges stay smooth, and
//! the bytes never depend on the thread count. Frame levels are exact
//! rationals r_k = r0 + (r1 - r0)·k/(N - 1).

use super::section::{Detail, DeviceGrid, NamedLevel, Scale, SectionPanel, SectionStyle};
use super::shading::{face_shades, sierpinski_view, PlaneOptions, ViewOptions};
use super::view::{bounds, darker, polygon_items, Edges, ViewFigure};
use crate::error::check_memory;
use crate::exact::gcd;
use crate::library::encode::animation::{
    check_opaque_background, nearest_indices, write_frames, Animation,
};
use crate::library::encode::gif::Repeat;
use crate::library::encode::{raster, Format, Metadata};
use crate::library::figure::plan::{Plan, Spec};
use crate::library::scene::color::INK;
use crate::library::scene::font::fitted_size;
use crate::library::scene::layout::SheetLayout;
use crate::library::scene::{Color, Scene, TextItem};
use crate::octahedron::level::Level;
use crate::Control;
use crate::{Error, Result};
use std::io::Write;

/// The timing a sweep plays with unless told otherwise: a little faster than
/// [`Animation::default`] (8 cs a frame, the last held 1 s), since a sweep
/// has many frames that differ little.
pub const DEFAULT_ANIMATION: Animation = Animation {
    repeat: Repeat::Forever,
    delay_cs: 8,
    hold_last_cs: Some(100),
    poster: None,
};

/// The 3D panel of a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepView {
    /// Order of the solid drawn (S_4 draws in a few ms per frame).
    pub n: u32,
    /// Camera, light, base colour; its plane is replaced by the moving one.
    pub options: ViewOptions,
    /// Colour of the glass plane.
    pub plane: [u8; 3],
    /// Opacity of the glass plane.
    pub plane_opacity: f32,
}

/// A sweep of the section level, as an animated GIF.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepFigure {
    /// Order n of S_n.
    pub n: u32,
    /// First level.
    pub from: NamedLevel,
    /// Last level.
    pub to: NamedLevel,
    /// Number of frames (at least 1).
    pub frames: u32,
    /// Side of each panel, scene units (points once on paper, see `style.print`).
    pub size: u32,
    /// Each frame fitted to its panel, or one scale for the whole sweep.
    pub scale: Scale,
    /// Turn the section by 45° onto the board.
    pub align: bool,
    /// Colours and captions of the section panel.
    pub style: SectionStyle,
    /// The 3D view beside the section, if any.
    pub view: Option<SweepView>,
    /// Timing and looping ([`DEFAULT_ANIMATION`] unless told otherwise).
    pub animation: Animation,
    /// Refuse work that would need more bytes than this.
    pub memory_limit: u64,
}

/// The most frames a sweep draws.
pub const MAX_FRAMES: u32 = 10_000;

/// `r` as a short caption: the exact decimal when it has at most six
/// digits (`r = 0.3125`), else rounded (`r ≈ 0.3333`).
pub fn level_caption(level: Level) -> String {
    let (num, den) = (u128::from(level.numer()), u128::from(level.denom()));
    let mut scale = 1u128;
    for digits in 0..=6 {
        if (num * scale).is_multiple_of(den) {
            let value = num * scale / den;
            if digits == 0 {
                return format!("r = {value}");
            }
            let int = value / scale;
            let frac = value % scale;
            return format!("r = {int}.{frac:0width$}", width = digits);
        }
        scale *= 10;
    }
    format!("r ≈ {:.4}", level.r())
}

impl SweepFigure {
    /// Checks the parameters, before anything is computed.
    pub fn validate(&self) -> Result<()> {
        if !(1..=MAX_FRAMES).contains(&self.frames) {
            return Err(Error::invalid_parameter(
                "frames",
                format!(
                    "`frames` must be between 1 and {MAX_FRAMES}; got {}",
                    self.frames
                ),
            ));
        }
        if !(16..=4096).contains(&self.size) {
            return Err(Error::invalid_parameter(
                "panel",
                format!("`panel` must be between 16 and 4096 px; got {}", self.size),
            ));
        }
        check_opaque_background(self.style.background)?;
        self.animation.validate()
    }

    /// The exact level of every frame.
    pub fn levels(&self) -> Result<Vec<Level>> {
        let (a, b) = (
            u128::from(self.from.level.numer()),
            u128::from(self.from.level.denom()),
        );
        let (c, d) = (
            u128::from(self.to.level.numer()),
            u128::from(self.to.level.denom()),
        );
        let steps = u128::from(self.frames.max(2) - 1);
        let den = b * d * steps;
        (0..self.frames)
            .map(|k| {
                let k = u128::from(k);
                // r_k = (a·d·(N-1)·... ) / (b·d·(N-1)), moving up or down.
                let start = a * d * steps;
                let num = if c * b >= a * d {
                    start + (c * b - a * d) * k
                } else {
                    start - (a * d - c * b) * k
                };
                let g = gcd(num, den).max(1);
                let (num, den) = (num / g, den / g);
                match (u64::try_from(num), u64::try_from(den)) {
                    (Ok(num), Ok(den)) => Level::ratio(num, den),
                    _ => Err(Error::invalid_parameter("from", 
                        "`from` / `to` / `frames` give frame levels with denominators over 2^60; use fewer digits",
                    )),
                }
            })
            .collect()
    }

    /// The width of a frame: its panels between margins.
    fn frame_width(&self) -> u32 {
        let panels = 1 + u32::from(self.view.is_some());
        panels * self.size + (panels - 1) * self.style.gap + 2 * self.style.margin
    }

    fn layout(&self) -> SheetLayout {
        let (_, caption_height) = self.style.caption_metrics(self.frame_width());
        SheetLayout {
            columns: 1 + usize::from(self.view.is_some()),
            panel_width: self.size,
            panel_height: self.size,
            gap: self.style.gap,
            margin: self.style.margin,
            caption_height,
        }
    }

    /// The scene of one frame at `level`.
    #[cfg(test)]
    pub fn frame_scene(&self, level: Level) -> Result<Scene> {
        let fit = match &self.view {
            Some(view) => Some(self.view_bounds(view)?),
            None => None,
        };
        self.frame_scene_in(level, fit)
    }

    /// [`SweepFigure::frame_scene`] with the 3D panel's box already known.
    fn frame_scene_in(&self, level: Level, fit: Option<[f64; 4]>) -> Result<Scene> {
        let layout = self.layout();
        let panels = layout.columns;
        let (width, height) = layout.size(panels);
        let mut scene = Scene::new(width, height, self.style.background);
        let largest = self.from.level.r().max(self.to.level.r());
        let window = match self.scale {
            Scale::Fit if level.r() > 0.0 => level.r(),
            _ if largest > 0.0 => largest,
            _ => 1.0,
        };
        let (px, py) = layout.panel_origin(0);
        let panel = SectionPanel {
            n: self.n,
            level,
            align: self.align,
            x: f64::from(px),
            y: f64::from(py),
            side: f64::from(self.size),
            window,
            detail: Detail::Pixels,
            device: DeviceGrid::SCENE,
        };
        scene.items.extend(panel.items(
            self.style.fill,
            self.style.frame,
            self.memory_limit,
            &Control::default(),
        )?);
        if let (Some(view), Some(fit)) = (&self.view, fit) {
            let (vx, vy) = layout.panel_origin(1);
            let polygons = sierpinski_view(
                view.n,
                &self.view_options(view, level),
                &crate::Control::default(),
            )?;
            scene.items.extend(polygon_items(
                &polygons,
                f64::from(vx),
                f64::from(vy),
                f64::from(self.size),
                fit,
                Some(self.edges(view)),
            ));
        }
        if self.style.captions {
            let (size, _) = self.style.caption_metrics(self.frame_width());
            let line = (size * 1.45).ceil();
            let room = f64::from(self.size + self.style.gap) - 4.0;
            let text = level_caption(level);
            scene.push(
                TextItem::centered(
                    f64::from(px) + f64::from(self.size) / 2.0,
                    f64::from(py + self.size) + line - size * 0.25,
                    text.clone(),
                    fitted_size(&text, size, room),
                    INK,
                )
                .with_role(crate::library::scene::Role::Label),
            );
            if let Some(view) = &self.view {
                let (vx, vy) = layout.panel_origin(1);
                let text = format!("S{}, plane z = 1 − r", subscript(view.n));
                scene.push(
                    TextItem::centered(
                        f64::from(vx) + f64::from(self.size) / 2.0,
                        f64::from(vy + self.size) + line - size * 0.25,
                        text.clone(),
                        fitted_size(&text, size, room),
                        INK,
                    )
                    .with_role(crate::library::scene::Role::Label),
                );
            }
        }
        Ok(self.style.print.apply(scene))
    }

    /// The pixel size of every raster frame: the frame on paper at its dpi when a
    /// physical size or a dpi was asked for, else one pixel per unit.
    pub fn pixel_size(&self) -> (u32, u32) {
        let layout = self.layout();
        let (width, height) = layout.size(layout.columns);
        self.style
            .print
            .apply(Scene::new(width, height, self.style.background))
            .pixel_size()
    }

    fn view_options(&self, view: &SweepView, level: Level) -> ViewOptions {
        ViewOptions {
            plane: Some(PlaneOptions {
                level,
                colour: view.plane,
                opacity: view.plane_opacity,
                cut: self.style.fill.rgb_array(),
                // Cut away above the plane: the section caps the solid below.
                above_opacity: 0.0,
            }),
            memory_limit: self.memory_limit,
            ..view.options
        }
    }

    /// One box for every frame, so the solid does not jump: the plane's
    /// square moves linearly between the end levels and the solid below the
    /// plane is largest at one of them, so the union of the end frames'
    /// boxes holds every frame.
    fn view_bounds(&self, view: &SweepView) -> Result<[f64; 4]> {
        let a = bounds(&sierpinski_view(
            view.n,
            &self.view_options(view, self.from.level),
            &crate::Control::default(),
        )?);
        let b = bounds(&sierpinski_view(
            view.n,
            &self.view_options(view, self.to.level),
            &crate::Control::default(),
        )?);
        Ok([
            a[0].min(b[0]),
            a[1].min(b[1]),
            a[2].max(b[2]),
            a[3].max(b[3]),
        ])
    }

    fn edges(&self, view: &SweepView) -> Edges {
        ViewFigure::default_edges(self.size, view.n)
    }

    /// The fixed palette every frame is mapped to (at most 256 colours).
    pub fn palette(&self) -> Vec<[u8; 3]> {
        let bg = self.style.background;
        let mut keys: Vec<(Color, Vec<Color>, usize)> = Vec::new();
        // Section: the fill and captions over the background, with long ramps
        // (their anti-aliased edges are the figure).
        keys.push((self.style.fill, vec![bg], 15));
        keys.push((INK, vec![bg], 7));
        if let Some(frame) = self.style.frame {
            keys.push((frame, vec![bg], 3));
        }
        if let Some(view) = &self.view {
            let darken = self.edges(view).darken;
            let options = self.view_options(view, self.from.level);
            let plane = view.plane;
            let a = f64::from(view.plane_opacity);
            let over = |top: [u8; 3], under: Color| {
                let mix =
                    |t: u8, u: u8| (a * f64::from(t) + (1.0 - a) * f64::from(u)).round() as u8;
                Color::rgb(
                    mix(top[0], under.r),
                    mix(top[1], under.g),
                    mix(top[2], under.b),
                )
            };
            let cut = self.style.fill;
            let shades: Vec<Color> = face_shades(&options, options.base)
                .into_iter()
                .map(|[r, g, b]| Color::rgb(r, g, b))
                .collect();
            for &s in &shades {
                keys.push((s, vec![darker(s, darken), bg], 2));
                keys.push((darker(s, darken), vec![], 0));
                let glass = over(plane, s);
                keys.push((glass, vec![darker(glass, darken), s], 2));
            }
            let glass = over(plane, bg);
            keys.push((glass, vec![darker(glass, darken), bg], 2));
            keys.push((darker(cut, darken), vec![cut], 2));
        }
        let mut palette: Vec<[u8; 3]> = vec![bg.rgb_array()];
        let add = |c: Color, palette: &mut Vec<[u8; 3]>| {
            let c = c.rgb_array();
            if palette.len() < 256 && !palette.contains(&c) {
                palette.push(c);
            }
        };
        for (key, _, _) in &keys {
            add(*key, &mut palette);
        }
        for (key, partners, steps) in &keys {
            let steps = *steps;
            for partner in partners {
                for s in 1..=steps {
                    let t = s as f64 / (steps + 1) as f64;
                    let mix =
                        |a: u8, b: u8| ((1.0 - t) * f64::from(a) + t * f64::from(b)).round() as u8;
                    add(
                        Color::rgb(
                            mix(key.r, partner.r),
                            mix(key.g, partner.g),
                            mix(key.b, partner.b),
                        ),
                        &mut palette,
                    );
                }
            }
        }
        palette
    }

    /// The frame at `level` as palette indices, row-major.
    #[cfg(test)]
    pub fn frame_indices(
        &self,
        level: Level,
        palette: &[[u8; 3]],
        control: &Control,
    ) -> Result<Vec<u8>> {
        let fit = match &self.view {
            Some(view) => Some(self.view_bounds(view)?),
            None => None,
        };
        self.frame_indices_in(level, fit, palette, control)
    }

    fn frame_indices_in(
        &self,
        level: Level,
        fit: Option<[f64; 4]>,
        palette: &[[u8; 3]],
        control: &Control,
    ) -> Result<Vec<u8>> {
        let scene = self.frame_scene_in(level, fit)?;
        let pixmap = raster::rasterize(&scene, control)?;
        Ok(nearest_indices(pixmap.data(), palette))
    }

    /// Writes the animation as a GIF to `out`.
    fn write_gif(&self, out: &mut dyn Write, control: &Control) -> Result<()> {
        let levels = self.levels()?;
        let (width, height) = self.pixel_size();
        const BATCH: usize = 16;
        // Each thread draws one frame at a time: its canvas, the palette indices
        // and the LZW coder's state, about 7.3 bytes a pixel measured at 1, 2 and 4
        // threads; the batch's compressed frames are small beside them.
        let drawing = rayon::current_num_threads().min(BATCH) as u64;
        check_memory(
            || format!("a {width} x {height} px sweep, {drawing} frame(s) drawn at once"),
            u64::from(width) * u64::from(height) * 8 * drawing,
            self.memory_limit,
            "choose a smaller `panel`, or run with fewer --threads",
        )?;
        // Fail before writing anything if a frame cannot be drawn (e.g. too many diamonds).
        let fit = match &self.view {
            Some(view) => Some(self.view_bounds(view)?),
            None => None,
        };
        for level in [levels[0], levels[levels.len() - 1]] {
            self.frame_scene_in(level, fit)?;
        }
        let palette = self.palette();
        let count = levels.len();
        write_frames(
            out,
            (width, height),
            &palette,
            // One check per level: frames are drawn in batches of `BATCH`.
            crate::library::figure::counted(levels.into_iter().map(Ok), count, control),
            BATCH,
            &self.animation,
            // Checked per frame too: a batch of frames with a 3D view beside them
            // is seconds of drawing, which a signal must not wait for.
            |_, &level| {
                control.check()?;
                self.frame_indices_in(level, fit, &palette, control)
            },
        )
    }
}

/// `n` in subscript digits (S₄).
pub fn subscript(n: u32) -> String {
    n.to_string()
        .chars()
        .map(|c| char::from_u32(0x2080 + c.to_digit(10).unwrap_or(0)).unwrap_or(c))
        .collect()
}

impl Spec for SweepFigure {
    fn validate(&self) -> Result<()> {
        SweepFigure::validate(self)
    }
}

/// A validated sweep (its frames are streamed: nothing to keep between formats).
pub type SweepPlan = Plan<SweepFigure>;

impl crate::library::figure::Figure for SweepPlan {
    fn formats(&self) -> Vec<Format> {
        vec![Format::Gif, Format::Apng]
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
        match format {
            Format::Apng => crate::library::encode::animation::write_apng(
                out,
                crate::library::figure::controlled(self.frames()?, control),
                metadata,
            ),
            _ => self.write_gif(out, control),
        }
    }

    /// Every level as a full-colour scene (APNG, frame sequences): no palette,
    /// so no quantising.
    fn frames(&self) -> Result<crate::library::encode::animation::Frames<'_>> {
        let levels = self.levels()?;
        let size = self.pixel_size();
        let fit = match &self.view {
            Some(view) => Some(self.view_bounds(view)?),
            None => None,
        };
        Ok(crate::library::encode::animation::Frames {
            size,
            count: levels.len(),
            animation: self.animation,
            memory_limit: self.memory_limit,
            scenes: Box::new(
                levels
                    .into_iter()
                    .map(move |level| self.frame_scene_in(level, fit)),
            ),
        })
    }

    fn default_stem(&self) -> String {
        "octahedron-sweep".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sweep(from: &str, to: &str, frames: u32) -> SweepFigure {
        SweepFigure {
            n: 6,
            from: NamedLevel::parse_r(from).unwrap(),
            to: NamedLevel::parse_r(to).unwrap(),
            frames,
            size: 64,
            scale: Scale::Fit,
            align: false,
            style: SectionStyle::default(),
            view: None,
            animation: DEFAULT_ANIMATION,
            memory_limit: crate::error::DEFAULT_MEMORY_LIMIT,
        }
    }

    #[test]
    fn frame_levels_are_exact_and_hit_the_grid() {
        let levels = sweep("0", "1", 65).levels().unwrap();
        assert_eq!(levels.len(), 65);
        for (k, l) in levels.iter().enumerate() {
            assert_eq!(*l, Level::ratio(k as u64, 64).unwrap());
        }
        let down = sweep("0.5", "0.25", 3).levels().unwrap();
        assert_eq!(
            down,
            ["1/2", "3/8", "1/4"].map(|t| Level::parse_r(t).unwrap())
        );
        assert_eq!(level_caption(Level::ratio(5, 16).unwrap()), "r = 0.3125");
        assert_eq!(level_caption(Level::ratio(1, 3).unwrap()), "r ≈ 0.3333");
        assert_eq!(level_caption(Level::ratio(1, 1).unwrap()), "r = 1");
    }

    #[test]
    fn quantised_interiors_keep_their_exact_colours() {
        let figure = sweep("0.5", "0.5", 1);
        let palette = figure.palette();
        let level = Level::ratio(1, 2).unwrap();
        let indices = figure
            .frame_indices(level, &palette, &Control::default())
            .unwrap();
        let scene = figure.frame_scene(level).unwrap();
        let rgba = raster::rasterize(&scene, &Control::default()).unwrap();
        // Every pixel whose colour is in the palette maps to exactly that colour.
        let mut exact = 0;
        for (p, &i) in rgba.data().chunks(4).zip(&indices) {
            let c = [p[0], p[1], p[2]];
            if palette.contains(&c) {
                assert_eq!(palette[usize::from(i)], c);
                exact += 1;
            }
        }
        assert!(
            exact * 10 > indices.len() * 9,
            "{exact} of {}",
            indices.len()
        );
    }
}
