//! `nimscape explore`: the explorer as one self-contained HTML file.
//!
//! The page is the very same `index.html` and `app.js` the server sends,
//! with its stylesheet and script inlined and the data it would fetch
//! embedded: tiles of each board (zlib, base64; the page inflates them with
//! the browser's own `DecompressionStream`) and automaton frames as PNG data
//! URLs made by the CLI's own renderer. It opens from disk with no server.
//! Views whose every state cannot be precomputed (octahedron, Grundy) are
//! left out of the exported page, and a sentence on it says so; its
//! downloads are only what it holds (a square view's PNG is cut from the
//! canvas: the pixels `square --window` draws).

use super::assets;
use crate::pattern::tiles::{check_side, TileMode, TilePlan, TILE};
use crate::request::{self, Budget};
use crate::{Error, Result};
use base64::Engine as _;
use std::collections::BTreeMap;

/// What to put into an exported explorer.
#[derive(Debug, Clone)]
pub struct ExploreSpec {
    /// Boards R(m,m) of the square view (each also with R(2m+1,2m+1) for the side-by-side panel).
    pub boards: Vec<u64>,
    /// Zoom levels below the fitted view to include (each one halves the cell size).
    pub zoom_levels: u32,
    /// Automaton frames 1..=frames (0: no automaton view).
    pub frames: u32,
    /// Most tiles the file may hold.
    pub max_tiles: usize,
}

/// The camera's fitted zoom for a board on the page's 640-pixel canvas (as `fitCamera` in app.js).
fn fitted_zoom(m: u64) -> i32 {
    let w = 640u128;
    let m = m as u128;
    let mut z = 0i32;
    if m > w {
        while (w << z) < m {
            z += 1;
        }
    } else {
        while z > -8 && (m << (1 - z)) <= w {
            z -= 1;
        }
    }
    z
}

/// The exported page.
pub fn explorer_html(
    spec: &ExploreSpec,
    memory_limit: u64,
    control: &crate::Control,
) -> Result<String> {
    let budget = Budget {
        memory_limit,
        ..Budget::default()
    };
    if spec.boards.is_empty() {
        return Err(Error::invalid_request(
            "--m is required: the boards to include, e.g. --m 11,12",
        ));
    }
    let engine = base64::engine::general_purpose::STANDARD;
    let mut tiles = BTreeMap::new();
    let mut figures = BTreeMap::new();
    for &m in &spec.boards {
        check_side("--m", m)?;
        let fit = fitted_zoom(m);
        for (board, extra) in [(m, 0), (2 * m + 1, 1)] {
            check_side("--m", board)?;
            let top = (fit + extra).max(0) as u32;
            let low = (fit - spec.zoom_levels as i32).max(0) as u32;
            for level in low..=top.min(62) {
                let plan = TilePlan::new(board, board, level)?;
                let per_side = plan.row_blocks().div_ceil(TILE as u64);
                // Saturating: a level of a 2^62 board has 2^100 tiles and more.
                let needed = per_side.saturating_mul(per_side).saturating_mul(2);
                if (tiles.len() as u64).saturating_add(needed) > spec.max_tiles as u64 {
                    return Err(Error::invalid_request(format!(
                        "the explorer would hold more than {} tiles (R({board},{board}) at level {level} alone needs {}): lower --zoom-levels or raise --max-tiles",
                        spec.max_tiles,
                        if needed == u64::MAX { "over 2^64".to_string() } else { needed.to_string() }
                    )));
                }
                let mut out = vec![0u8; TILE * TILE];
                for y in 0..per_side {
                    control.check()?;
                    for x in 0..per_side {
                        for (mode, name) in [
                            (TileMode::Density, "density"),
                            (TileMode::NimSumBits, "nimsum"),
                        ] {
                            plan.render(x, y, mode, &mut out);
                            let key = format!("m={board}&level={level}&x={x}&y={y}&mode={name}");
                            // zlib's default level, not fdeflate's fast one: the page is a file
                            // to keep, and fast made it 10 to 25x larger (m = 1000: 11 MB
                            // against 0.5 MB) for no gain in time.
                            let packed = request::pack_tile(&out).map_err(Error::write_failed)?;
                            tiles.insert(key, engine.encode(packed));
                        }
                    }
                }
            }
        }
    }
    // The largest frame first: its memory check, the page's largest, then
    // refuses before any other frame is drawn.
    for frame in (1..=spec.frames).rev() {
        let flags = [
            ("frames".to_string(), frame.to_string()),
            ("modulus".to_string(), "2".to_string()),
        ];
        let bytes = request::render_pairs(&["automaton"], &flags, "png", &budget, control)?;
        figures.insert(
            format!("automaton.png?frames={frame}&modulus=2"),
            format!("data:image/png;base64,{}", engine.encode(bytes)),
        );
    }
    let mut hide = vec!["octahedron", "grundy"];
    if spec.frames == 0 {
        hide.push("automaton");
    }
    let boards: Vec<String> = spec.boards.iter().map(u64::to_string).collect();
    let note = format!(
        "This page was written by nimscape explore and works offline: it holds the boards R(m,m) for m = {} (each beside R(2m+1,2m+1)){}. The octahedron and Grundy views have too many states to hold in a file: run nimscape serve for them.",
        boards.join(", "),
        if spec.frames > 0 {
            format!(" and automaton frames 1 to {}", spec.frames)
        } else {
            String::new()
        }
    );
    let embed = serde_json::json!({
        "tiles": tiles,
        "figures": figures,
        "hide": hide,
        "note": note,
        "start": spec.boards[0].to_string(),
        "frames": spec.frames,
    });
    // Nothing inside a <script> may close it.
    let embed = serde_json::to_string(&embed)
        .map_err(|e| Error::invalid_request(e.to_string()))?
        .replace("</", "<\\/");
    let text = |path: &str| {
        String::from_utf8_lossy(assets::find(path).expect("embedded asset").1).into_owned()
    };
    let page = text("/")
        .replace(
            r#"<link rel="stylesheet" href="style.css">"#,
            &format!("<style>\n{}</style>", text("/style.css")),
        )
        .replace(
            r#"<script src="app.js"></script>"#,
            &format!(
                "<script>window.NIMSCAPE_EMBED = {embed};</script>\n<script>\n{}</script>",
                text("/app.js").replace("</script", "<\\/script")
            ),
        );
    Ok(page)
}
