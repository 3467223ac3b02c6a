//! One type scale for every figure: what size each kind of text (a [`Role`])
//! gets at a figure's width, the same in every family.
//!
//! The one idea: a role's size depends only on the **figure's width** and on
//! whether it goes on paper or on a screen, never on the family that draws it.
//!
//! * **On paper** (a size in mm, cm, in or pt, or a `--dpi`): 7 pt at 40 mm
//!   rising linearly to 9 pt at two columns (178 mm), flat beyond; titles one
//!   point larger (10 pt at most), tick numbers, axis names and keys half a point
//!   smaller but never under 7 pt. At one column (85 mm) that is 8.7 pt titles,
//!   7.7 pt panel labels and 7.2 pt ticks. Nothing is over 10 pt unless asked.
//! * **On screen** (pixel widths, no dpi: one pixel is one point): a figure `W`
//!   px wide is a one-column (85 mm) figure shown `W` px wide, so every role is
//!   the same fraction of the width as in print, never under 12 px: the screen
//!   and the column show the same picture. A 1920 px slide gets 69 px titles,
//!   61 px labels and 57 px ticks (beamer's body text on a full-width figure); a
//!   900 px chart 32 px titles and 27 px ticks.
//!
//! Numbers in table cells are bounded by their cells too: at most the label size,
//! never under the 6 pt floor (`units::MIN_TEXT_PT`). Sizes the user
//! gives (`--font-size`, `--caption-size`) bypass the scale.

// As in `units` (which imports the font, which imports the items, which name
// their role: importing `units` here would close a circle).
const PT_PER_IN: f64 = 72.0;
const MM_PER_IN: f64 = 25.4;

/// What a piece of text is for. Each role has one size per figure width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Role {
    /// Not classified (decorations, user text drawn as given).
    #[default]
    Other,
    /// A figure's title (charts, tables, sieves, point plots).
    Title,
    /// A panel's label or caption (`m = 12` under a board, a section's level).
    Label,
    /// The name of an axis.
    AxisName,
    /// A number at an axis tick.
    Tick,
    /// A key's entry (a legend line, a colour key).
    Key,
    /// A number in a table cell.
    TableNumber,
}

impl Role {
    /// Every role, for reports and tests.
    pub const ALL: [Role; 7] = [
        Role::Other,
        Role::Title,
        Role::Label,
        Role::AxisName,
        Role::Tick,
        Role::Key,
        Role::TableNumber,
    ];

    /// Its class in an SVG file (`<g class="tick">`).
    pub fn class(self) -> &'static str {
        match self {
            Role::Other => "other",
            Role::Title => "title",
            Role::Label => "label",
            Role::AxisName => "axis-name",
            Role::Tick => "tick",
            Role::Key => "key",
            Role::TableNumber => "table-number",
        }
    }

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Role::Other => "other",
            Role::Title => "title",
            Role::Label => "label",
            Role::AxisName => "axis name",
            Role::Tick => "tick",
            Role::Key => "key",
            Role::TableNumber => "table number",
        }
    }
}

/// Narrowest and widest figure of the paper scale's ramp, mm.
const RAMP_MM: (f64, f64) = (40.0, 178.0);
/// Label size at either end of the ramp, pt.
const RAMP_PT: (f64, f64) = (7.0, 9.0);
/// The smallest lettering the scale gives on paper, pt (journals' 7 pt).
pub const MIN_ROLE_PT: f64 = 7.0;
/// The largest size the scale gives on paper, pt.
pub const MAX_ROLE_PT: f64 = 10.0;
/// The paper width whose proportions a screen figure keeps, mm: one column.
const SCREEN_AS_MM: f64 = 85.0;
/// The smallest text the scale gives on screen, px.
pub const MIN_SCREEN_PX: f64 = 12.0;

/// The sizes of one figure's text roles, in scene units (points on paper, pixels
/// on screen).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TypeScale {
    /// The paper width whose sizes apply, points.
    paper_width: f64,
    /// Scene units per paper point: 1 on paper, more on screen.
    zoom: f64,
    /// Smallest size of a role, scene units.
    floor: f64,
}

/// Paper sizes of the roles for a figure `width_pt` wide.
fn paper_pt(role: Role, width_pt: f64) -> f64 {
    let mm = width_pt / PT_PER_IN * MM_PER_IN;
    let t = ((mm - RAMP_MM.0) / (RAMP_MM.1 - RAMP_MM.0)).clamp(0.0, 1.0);
    let label = RAMP_PT.0 + t * (RAMP_PT.1 - RAMP_PT.0);
    match role {
        Role::Title => (label + 1.0).min(MAX_ROLE_PT),
        Role::Label | Role::Other | Role::TableNumber => label,
        Role::AxisName | Role::Tick | Role::Key => (label - 0.5).max(MIN_ROLE_PT),
    }
}

impl TypeScale {
    /// The scale of a figure `width` scene units wide; `on_paper` when a physical
    /// size or a dpi was asked for (scene units are then points).
    pub fn new(width: f64, on_paper: bool) -> Self {
        let width = width.max(1.0);
        if on_paper {
            TypeScale {
                paper_width: width,
                zoom: 1.0,
                floor: MIN_ROLE_PT,
            }
        } else {
            let as_pt = SCREEN_AS_MM / MM_PER_IN * PT_PER_IN;
            TypeScale {
                paper_width: as_pt,
                zoom: width / as_pt,
                floor: MIN_SCREEN_PX,
            }
        }
    }

    /// The size of `role`, scene units.
    pub fn size(&self, role: Role) -> f64 {
        let size = paper_pt(role, self.paper_width) * self.zoom;
        // Rounded to a tenth so that the same role is the same size in every family.
        (size.max(self.floor) * 10.0).round() / 10.0
    }

    /// The smallest size the scale allows a role that must shrink to fit (a long
    /// title, a panel label under a narrow panel): 7 pt on paper, 12 px on screen.
    pub fn floor(&self) -> f64 {
        self.floor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(mm: f64) -> f64 {
        mm / MM_PER_IN * PT_PER_IN
    }

    #[test]
    fn one_column_is_7_to_9_pt_and_nothing_is_over_10() {
        let column = TypeScale::new(pt(85.0), true);
        for role in Role::ALL {
            let size = column.size(role);
            assert!((7.0..=9.0).contains(&size), "{}: {size}", role.name());
        }
        for mm in [20.0, 40.0, 85.0, 120.0, 178.0, 400.0] {
            let scale = TypeScale::new(pt(mm), true);
            for role in Role::ALL {
                assert!((7.0..=10.0).contains(&scale.size(role)), "{mm} mm");
            }
            assert!(scale.size(Role::Title) > scale.size(Role::Tick));
        }
        assert_eq!(TypeScale::new(pt(178.0), true).size(Role::Title), 10.0);
        assert_eq!(TypeScale::new(pt(40.0), true).size(Role::Label), 7.0);
    }

    #[test]
    fn a_slide_scales_with_its_width() {
        let slide = TypeScale::new(1920.0, false);
        // The proportions of one column: 7.15 pt ticks on 240.9 pt are 57 px on 1920.
        assert_eq!(slide.size(Role::Tick), 57.0);
        assert_eq!(slide.size(Role::Title), 68.9);
        let column = TypeScale::new(pt(85.0), true);
        for role in Role::ALL {
            let ratio = slide.size(role) / 1920.0 / (column.size(role) / pt(85.0));
            assert!((ratio - 1.0).abs() < 0.01, "{}: {ratio}", role.name());
        }
        let small = TypeScale::new(200.0, false);
        assert_eq!(small.size(Role::Tick), MIN_SCREEN_PX);
    }
}
