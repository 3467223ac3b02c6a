//! Contact-sheet layout: equal panels in a grid, each with a caption below.

/// The geometry of a sheet of equal panels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SheetLayout {
    /// Panels per row.
    pub columns: usize,
    /// Width of a panel's drawing area in pixels.
    pub panel_width: u32,
    /// Height of a panel's drawing area in pixels.
    pub panel_height: u32,
    /// Space between panels.
    pub gap: u32,
    /// Space around the whole sheet.
    pub margin: u32,
    /// Height reserved under each panel for its caption (0 for none).
    pub caption_height: u32,
}

impl SheetLayout {
    /// A sensible number of columns for `count` panels: a grid about 3:2 wide
    /// (6 columns for 24 panels, 3 for 3).
    pub fn default_columns(count: usize) -> usize {
        ((count as f64 * 1.5).sqrt().ceil() as usize).clamp(1, count.max(1))
    }

    /// Rows needed for `count` panels.
    pub fn rows(&self, count: usize) -> usize {
        count.div_ceil(self.columns.max(1)).max(1)
    }

    /// The size of the whole sheet for `count` panels.
    pub fn size(&self, count: usize) -> (u32, u32) {
        let columns = self.columns.min(count.max(1)) as u32;
        let rows = self.rows(count) as u32;
        let width = 2 * self.margin + columns * self.panel_width + (columns - 1) * self.gap;
        let height = 2 * self.margin
            + rows * (self.panel_height + self.caption_height)
            + (rows - 1) * self.gap;
        (width, height)
    }

    /// Top-left corner of panel `k`.
    pub fn panel_origin(&self, k: usize) -> (u32, u32) {
        let (col, row) = ((k % self.columns) as u32, (k / self.columns) as u32);
        (
            self.margin + col * (self.panel_width + self.gap),
            self.margin + row * (self.panel_height + self.caption_height + self.gap),
        )
    }

    /// Panel width that makes a sheet `total_width` pixels wide.
    pub fn panel_width_for(total_width: u32, columns: usize, gap: u32, margin: u32) -> u32 {
        let columns = columns.max(1) as u32;
        total_width.saturating_sub(2 * margin + (columns - 1) * gap) / columns
    }
}

/// A title set in at most `max_lines` lines no wider than `room`: wrapped at spaces
/// at `size` when that is enough, otherwise shrunk until it fits, but never below
/// `min_size` (then the lines may spill; callers pick rooms where that cannot
/// happen at the sizes they allow). Returns the lines and the size.
pub fn fit_title(
    text: &str,
    size: f64,
    min_size: f64,
    room: f64,
    max_lines: usize,
) -> (Vec<String>, f64) {
    let mut size = size.max(min_size);
    loop {
        let lines = wrap(text, size, room);
        let widest = lines
            .iter()
            .map(|l| crate::library::scene::font::text_width(l, size))
            .fold(0.0, f64::max);
        if (lines.len() <= max_lines.max(1) && widest <= room) || size <= min_size {
            return (balance(text, size, room, lines), size);
        }
        size = (size * 0.94).max(min_size);
    }
}

/// The same number of lines as `lines` (the greedy wrap of `text` into `room`),
/// each as short as that number allows: the narrowest room that still wraps into
/// that many lines, so that no line ends up a lone word under a full one.
fn balance(text: &str, size: f64, room: f64, lines: Vec<String>) -> Vec<String> {
    if lines.len() < 2 {
        return lines;
    }
    let (mut lo, mut hi) = (0.0, room);
    for _ in 0..24 {
        let mid = (lo + hi) / 2.0;
        if wrap(text, size, mid).len() == lines.len() {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    wrap(text, size, hi)
}

/// Greedy word wrap of `text` at `size` into lines no wider than `room` (a single
/// word wider than the room gets a line of its own). Newlines in `text` are kept.
pub fn wrap(text: &str, size: f64, room: f64) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        for word in paragraph.split(' ').filter(|w| !w.is_empty()) {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if line.is_empty() || crate::library::scene::font::text_width(&candidate, size) <= room
            {
                line = candidate;
            } else {
                lines.push(std::mem::replace(&mut line, word.to_string()));
            }
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_wrap_before_they_shrink() {
        let text = "g(m) = number of P-positions of C(m,m)";
        let (lines, size) = fit_title(text, 12.0, 7.0, 130.0, 2);
        assert_eq!(lines.len(), 2);
        assert_eq!(size, 12.0);
        for line in &lines {
            assert!(crate::library::scene::font::text_width(line, size) <= 130.0);
        }
        let (lines, size) = fit_title(text, 12.0, 7.0, 60.0, 2);
        assert!((7.0..12.0).contains(&size), "{size} {lines:?}");
        assert_eq!(
            fit_title(text, 12.0, 7.0, 1000.0, 2).0,
            vec![text.to_string()]
        );
    }

    #[test]
    fn twenty_four_panels_make_six_columns_and_fill_the_width() {
        assert_eq!(SheetLayout::default_columns(24), 6);
        assert_eq!(SheetLayout::default_columns(3), 3);
        let panel = SheetLayout::panel_width_for(1200, 6, 12, 20);
        let layout = SheetLayout {
            columns: 6,
            panel_width: panel,
            panel_height: panel,
            gap: 12,
            margin: 20,
            caption_height: 30,
        };
        let (w, _) = layout.size(24);
        assert!(w <= 1200 && w > 1200 - 6);
        assert_eq!(
            layout.panel_origin(7),
            (20 + panel + 12, 20 + panel + 30 + 12)
        );
    }

    #[test]
    fn wrapped_titles_leave_no_lone_word() {
        let text = "P-positions of triangular k=3 (box x 0..30, y 0..30, z): 99 points";
        let size = 10.0;
        let full = crate::library::scene::font::text_width(text, size);
        // Just too narrow for one line: greedily, the last word would be alone.
        let room = full * 0.95;
        assert_eq!(wrap(text, size, room).len(), 2);
        assert_eq!(wrap(text, size, room)[1], "points");
        let (lines, _) = fit_title(text, size, size, room, 2);
        assert_eq!(lines.len(), 2);
        let widths: Vec<f64> = lines
            .iter()
            .map(|l| crate::library::scene::font::text_width(l, size))
            .collect();
        assert!(widths.iter().all(|&w| w <= room));
        assert!(widths[1] > widths[0] * 0.6, "{lines:?}");
        assert_eq!(lines.join(" "), text);
    }
}
