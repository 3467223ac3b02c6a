//! Nim with a pass over the square board (Okubo, Kashiwagi, Niida, Figures
//! 8–11): the pass game's P-cells drawn over Nim's. Its own module so that the
//! square family does not borrow it from the Grundy family.

use crate::error::check_memory;
use crate::games::nim_pass::square_board;
use crate::library::scene::board::{BoardPanel, BoardStyle, LegendEntry};
use crate::library::scene::color::okabe_ito;
use crate::library::scene::Color;
use crate::{Error, Result};

/// Colour of the Nim-with-a-pass P-cells on the square board: Okubo,
/// Kashiwagi, Niida draw them red; Okabe–Ito vermillion stays distinct from
/// the blue Nim cells for colour-blind readers.
pub const PASS_COLOR: Color = okabe_ito::VERMILLION;

/// Checks a Nim-with-a-pass overlay on the boards `boards` (with column count
/// `n`, `None` for square boards): styled (`raw` false) square boards whose
/// four-heap box fits `memory_limit`.
pub fn check_overlay(boards: &[u64], n: Option<u64>, raw: bool, memory_limit: u64) -> Result<()> {
    if raw {
        return Err(Error::unsupported(
            "`overlay` draws styled boards; drop `raw`",
        ));
    }
    if n.is_some_and(|n| boards.iter().any(|&m| m != n)) {
        return Err(Error::unsupported(
            "`overlay` nim-pass needs square boards; drop `n`",
        ));
    }
    let largest = boards.iter().copied().max().unwrap_or(1);
    // The pass game is solved on the box of the four heaps, 0..m-1 each: about a byte per tuple.
    check_memory(
        || {
            format!(
                "Nim with a pass on the {largest} x {largest} board (its four heaps up to {})",
                largest - 1
            )
        },
        largest.saturating_pow(4),
        memory_limit,
        "use a smaller `m`",
    )
}

/// The `m x m` board panel of Okubo, Kashiwagi, Niida, Figures 8–11: Nim
/// P-cells (index 1, the style's P colour) and Nim-with-a-pass P-cells (index 2, [`PASS_COLOR`]),
/// with a line under it counting each.
pub fn nim_pass_panel(
    m: u64,
    style: &BoardStyle,
    limit: u64,
    control: &crate::Control,
) -> Result<BoardPanel> {
    let side = u32::try_from(m)
        .map_err(|_| Error::invalid_parameter("m", "`m` is too large for `overlay`"))?;
    let (nim, pass) = square_board(side, limit, control)?;
    let mut panel = BoardPanel::from_bits(&nim, style);
    for (r, c) in pass.ones() {
        // Only the terminal position is P in both games, and it is no cell of a board with m > 1.
        panel.indices[r * pass.cols() + c] = 2;
    }
    panel.palette.push(PASS_COLOR);
    // The colours are said once, in the sheet's key (`overlay_key`).
    panel.legend = vec![
        LegendEntry {
            text: format!("Nim: {}", nim.ones().count()),
        },
        LegendEntry {
            text: format!("pass: {}", pass.ones().count()),
        },
    ];
    Ok(panel)
}

/// What the overlay's colours mean (whose P-cells), said once under the
/// sheet, in words short enough for a 40 mm figure.
pub fn overlay_key(style: &BoardStyle) -> Vec<(Color, String)> {
    vec![
        (style.p_color, "Nim".to_string()),
        (PASS_COLOR, "Nim with a pass".to_string()),
    ]
}
