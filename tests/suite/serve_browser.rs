//! The explorer in a real headless Chromium (the distribution's package; no
//! browser download): every view loads, the m slider moves, a deep zoom
//! lands on exact cells, overlays toggle, and canvas pixels read back agree
//! with the model. Any console error or uncaught exception fails the test.
//!
//! Chromium is found at `$NIMSCAPE_CHROMIUM`, /usr/bin/chromium or
//! /usr/bin/chromium-browser. In CI (CI=true) a missing browser fails the
//! test; elsewhere it is skipped with a printed reason.

use super::cdp::Chromium;
use super::serve::server;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn chromium() -> Option<PathBuf> {
    let candidates = std::env::var_os("NIMSCAPE_CHROMIUM")
        .map(PathBuf::from)
        .into_iter()
        .chain(["/usr/bin/chromium", "/usr/bin/chromium-browser"].map(PathBuf::from));
    for path in candidates {
        if path.is_file() {
            return Some(path);
        }
    }
    let reason = "no Chromium found (install Debian's chromium, or set NIMSCAPE_CHROMIUM)";
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{reason}: the browser test must run in CI");
    }
    eprintln!("skipping the browser test: {reason}");
    None
}

/// The value of `js` (a promise is awaited); an exception fails the test.
fn eval(tab: &Chromium, js: &str) -> serde_json::Value {
    tab.evaluate(js)
        .unwrap_or_else(|e| panic!("evaluating {js}: {e}"))
}

/// Polls `js` until it is `true`; an exception counts as not yet (the page may
/// still be starting) and is reported if the wait times out.
fn wait_for(tab: &Chromium, what: &str, js: &str) {
    let start = Instant::now();
    let mut last = serde_json::Value::Null;
    while start.elapsed() < Duration::from_secs(20) {
        match tab.evaluate(js) {
            Ok(serde_json::Value::Bool(true)) => return,
            Ok(value) => last = value,
            Err(e) => last = serde_json::Value::String(format!("exception: {e}")),
        }
        std::thread::sleep(Duration::from_millis(40));
    }
    panic!("timed out waiting for {what} ({js}); last value: {last}");
}

fn wait_square(tab: &Chromium) {
    // Two animation frames after the last tile, so the canvas is final.
    std::thread::sleep(Duration::from_millis(60));
    wait_for(
        tab,
        "the square view's tiles",
        "document.body.dataset.squareReady === '1'",
    );
}

/// Screen pixels of the centres of cells (0-based row, col) of panel A, read
/// back from the canvas: `[row, col, r, g, b]` with row and col as strings.
const SAMPLE_CELLS: &str = r#"
(() => {
  const c = document.getElementById('sq-a'), ctx = c.getContext('2d');
  const s = window.nimscape.sq, U = 1n << BigInt(s.z + 8);
  const left = s.cx - BigInt(c.width >> 1) * U, top = s.cy - BigInt(c.height >> 1) * U;
  const out = [];
  for (let y = 2; y < c.height; y += 7) for (let x = 3; x < c.width; x += 7) {
    const ux = left + BigInt(x) * U, uy = top + BigInt(y) * U;
    if (ux < 0n || uy < 0n) continue;
    const col = ux / 256n, row = uy / 256n;
    if (row >= s.m || col >= s.m) continue;
    // Only the middle of a cell: never an edge pixel shared by two cells.
    if (s.z < -1) { const fx = ux % 256n, fy = uy % 256n; if (fx < 64n || fx > 192n || fy < 64n || fy > 192n) continue; }
    const d = ctx.getImageData(x, y, 1, 1).data;
    out.push([row.toString(), col.toString(), d[0], d[1], d[2]]);
  }
  return JSON.stringify({ m: s.m.toString(), z: s.z, cells: out });
})()
"#;

/// Checks sampled pixels against the P-criterion: black exactly on P-cells,
/// white on the others (one cell per pixel or larger).
fn check_cells_against_model(tab: &Chromium, want_m: u64) -> usize {
    check_cells(tab, want_m, |m, row, col| {
        if nimscape_model::pattern::is_p(m, m, row + 1, col + 1) {
            [0, 0, 0]
        } else {
            [255, 255, 255]
        }
    })
}

/// Checks sampled pixels of cells (0-based row, col) against `want`.
fn check_cells(tab: &Chromium, want_m: u64, want: impl Fn(u64, u64, u64) -> [u64; 3]) -> usize {
    let text = eval(tab, SAMPLE_CELLS);
    let sample: serde_json::Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
    let m: u64 = sample["m"].as_str().unwrap().parse().unwrap();
    assert_eq!(m, want_m);
    assert!(
        sample["z"].as_i64().unwrap() <= 0,
        "cells must be at least a pixel"
    );
    let cells = sample["cells"].as_array().unwrap();
    assert!(cells.len() > 50, "too few cells on screen: {}", cells.len());
    for cell in cells {
        let row: u64 = cell[0].as_str().unwrap().parse().unwrap();
        let col: u64 = cell[1].as_str().unwrap().parse().unwrap();
        let rgb: Vec<u64> = (2..5).map(|k| cell[k].as_u64().unwrap()).collect();
        assert_eq!(
            rgb,
            want(m, row, col),
            "R({m},{m}) cell ({}, {})",
            row + 1,
            col + 1,
        );
    }
    cells.len()
}

/// Compares every panel of the square view with the PNG its command draws,
/// fetched from the server's /api (the same request layer as the CLI): the
/// whole cells on screen, pixel for pixel. Returns the views compared.
fn square_views_are_their_commands(tab: &Chromium, what: &str) -> usize {
    const COMPARE: &str = r#"
(async () => {
  const out = [];
  for (const v of window.nimscape.squareViews()) {
    const q = Object.entries(v.params).map(([k, x]) => `${k}=${encodeURIComponent(x === true ? 'true' : String(x))}`).join('&');
    const response = await fetch('/api/square.png?' + q);
    if (!response.ok) { out.push(`${q}: ${response.status} ${await response.text()}`); continue; }
    const bitmap = await createImageBitmap(await response.blob());
    const c = document.createElement('canvas');
    c.width = bitmap.width; c.height = bitmap.height;
    const cx = c.getContext('2d');
    cx.drawImage(bitmap, 0, 0);
    const want = cx.getImageData(0, 0, c.width, c.height).data;
    if (bitmap.width !== v.w || bitmap.height !== v.h) { out.push(`${q}: the PNG is ${bitmap.width} x ${bitmap.height}, the view ${v.w} x ${v.h}`); continue; }
    const got = document.getElementById(v.canvas).getContext('2d').getImageData(v.x, v.y, v.w, v.h).data;
    let bad = 0, first = '';
    for (let i = 0; i < want.length; i += 4) {
      if (got[i] !== want[i] || got[i + 1] !== want[i + 1] || got[i + 2] !== want[i + 2] || got[i + 3] !== 255) {
        if (!bad) first = `pixel (${(i / 4) % v.w}, ${Math.floor(i / 4 / v.w)}): canvas ${got.slice(i, i + 4)}, command ${want.slice(i, i + 4)}`;
        bad++;
      }
    }
    out.push(bad ? `${q}: ${bad} pixels differ, first ${first}` : 'same');
  }
  return JSON.stringify(out);
})()
"#;
    wait_square(tab);
    let got: Vec<String> = serde_json::from_str(eval(tab, COMPARE).as_str().unwrap()).unwrap();
    assert!(!got.is_empty(), "{what}: no view on screen");
    for line in &got {
        assert_eq!(
            line, "same",
            "{what}: the canvas is not its command's picture"
        );
    }
    got.len()
}

/// Runs the command line shown on the page (every `&&` part) with the CLI
/// and compares each PNG with the canvas of its panel, pixel for pixel.
fn square_command_run_is_the_canvas(tab: &Chromium) {
    use base64::Engine as _;
    let command = eval(tab, "document.getElementById('command').textContent");
    let command = command.as_str().unwrap();
    let views = eval(tab, "JSON.stringify(window.nimscape.squareViews())");
    let views: Vec<serde_json::Value> = serde_json::from_str(views.as_str().unwrap()).unwrap();
    let parts: Vec<&str> = command.split(" && ").collect();
    assert_eq!(parts.len(), views.len(), "{command}");
    let dir = tempfile::tempdir().unwrap();
    for (part, view) in parts.iter().zip(&views) {
        let words: Vec<&str> = part.split_whitespace().collect();
        assert_eq!(words[0], "nimscape", "{part}");
        // The words are plain (no quoting needed): run them as they are shown.
        assert!(words.iter().all(|w| !w.contains('\'')), "{part}");
        let out = super::support::nimscape(dir.path())
            .args(&words[1..])
            .arg("-q")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{part}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let file = words[words.iter().position(|w| *w == "-o").unwrap() + 1];
        let (w, h, _, _, pixels) =
            super::support::decode_png(&std::fs::read(dir.path().join(file)).unwrap());
        let step = pixels.len() / (w as usize * h as usize);
        let js = format!(
            "(() => {{ const d = document.getElementById('{}').getContext('2d').getImageData({}, {}, {}, {}).data; let s = ''; for (let i = 0; i < d.length; i += 8192) s += String.fromCharCode.apply(null, d.subarray(i, i + 8192)); return btoa(s); }})()",
            view["canvas"].as_str().unwrap(), view["x"], view["y"], view["w"], view["h"]
        );
        let canvas = base64::engine::general_purpose::STANDARD
            .decode(eval(tab, &js).as_str().unwrap())
            .unwrap();
        assert_eq!(
            (w as u64, h as u64),
            (view["w"].as_u64().unwrap(), view["h"].as_u64().unwrap()),
            "{part}"
        );
        let differ = canvas
            .chunks_exact(4)
            .zip(pixels.chunks_exact(step))
            .filter(|(c, p)| c[..3] != p[..3] || c[3] != 255)
            .count();
        assert_eq!(differ, 0, "{part}: {differ} pixels differ from the canvas");
    }
}

/// The nim-sum bar's labels, as boxes: none overlaps the next, all inside the bar.
fn bar_labels_keep_apart(tab: &Chromium, what: &str) -> usize {
    let labels = eval(tab, "JSON.stringify({ w: document.getElementById('sq-bar').width, labels: window.nimscape.barLabels() })");
    let labels: serde_json::Value = serde_json::from_str(labels.as_str().unwrap()).unwrap();
    let width = labels["w"].as_f64().unwrap();
    let boxes: Vec<(f64, f64)> = labels["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["x"].as_f64().unwrap(), l["width"].as_f64().unwrap()))
        .collect();
    assert!(boxes.len() >= 2, "{what}: {labels}");
    for pair in boxes.windows(2) {
        assert!(
            pair[0].0 + pair[0].1 + 4.0 <= pair[1].0,
            "{what}: labels run together: {labels}"
        );
    }
    assert!(
        boxes.iter().all(|&(x, w)| x >= 0.0 && x + w <= width),
        "{what}: {labels}"
    );
    boxes.len()
}

/// Runs each `&&` part of the page's command line with the CLI and checks
/// that its PNG is the very bytes of the /api image the page loaded (`api`,
/// one path per part, as the page requested it).
fn command_is_the_loaded_picture(
    tab: &Chromium,
    server: &nimscape::serve::RunningServer,
    api: &[&str],
) {
    let command = eval(tab, "document.getElementById('command').textContent");
    let command = command.as_str().unwrap();
    let parts: Vec<&str> = command.split(" && ").collect();
    assert_eq!(parts.len(), api.len(), "{command}");
    for (part, query) in parts.into_iter().zip(api) {
        // Polled, not read once: the controls' state can read "ready" for the
        // previous picture while the new one is still on its way (seen at
        // load 15 from a fresh clone).
        wait_for(
            tab,
            &format!("the page to load /api/{query}"),
            &format!("performance.getEntriesByType('resource').some((e) => e.name.endsWith('/api/{query}'))"),
        );
        let dir = tempfile::tempdir().unwrap();
        // A game file the server read from its folder, where the command reads it.
        std::fs::create_dir(dir.path().join("games")).unwrap();
        for file in std::fs::read_dir("games").unwrap() {
            let file = file.unwrap().path();
            std::fs::copy(
                &file,
                dir.path().join("games").join(file.file_name().unwrap()),
            )
            .unwrap();
        }
        let words: Vec<&str> = part.split_whitespace().collect();
        assert_eq!(words[0], "nimscape", "{part}");
        let out = super::support::nimscape(dir.path())
            .args(&words[1..])
            .arg("-q")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{part}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let file = words[words.iter().position(|w| *w == "-o").unwrap() + 1];
        let cli = std::fs::read(dir.path().join(file)).unwrap();
        let reply = super::serve::get(server.addr, &format!("/api/{query}"));
        assert!(
            cli == reply.body,
            "{part}: the CLI's PNG is not the page's /api/{query}"
        );
    }
}

/// The octahedron view's command: today's flags, the level in lowest terms
/// (H(4,5.5) at the slider's 1408/4096 = 11/32), and the CLI's bytes are the
/// picture the page loaded.
fn octahedron_command_is_the_picture(tab: &Chromium, server: &nimscape::serve::RunningServer) {
    let command = eval(tab, "document.getElementById('command').textContent");
    let command = command.as_str().unwrap();
    assert_eq!(
        command,
        "nimscape octahedron section --n 4 --level 5.5 --panel 480 -o octahedron-4-section.png && nimscape octahedron view --n 4 --azimuth 30 --elevation 25 --width 480 --plane 5.5 -o octahedron-4-view.png"
    );
    let text = eval(tab, "document.getElementById('oc-rtext').textContent");
    assert!(
        text.as_str()
            .unwrap()
            .starts_with("r = 11/32 = 0.343750 · the section H(4,5.5)"),
        "{text}"
    );
    command_is_the_loaded_picture(
        tab,
        server,
        &[
            "octahedron/section.png?n=4&level=5.5&panel=480",
            "octahedron/view.png?n=4&azimuth=30&elevation=25&width=480&plane=5.5",
        ],
    );
    // A level that is no H(n,m) is written as a reduced fraction.
    eval(tab, "(() => { const r = document.getElementById('oc-r'); r.value = '1000'; r.dispatchEvent(new Event('change')); return true; })()");
    let command = eval(tab, "document.getElementById('command').textContent");
    assert!(
        command
            .as_str()
            .unwrap()
            .starts_with("nimscape octahedron section --n 4 --r 125/512 --panel 480 "),
        "{command}"
    );
    eval(tab, "(() => { const r = document.getElementById('oc-r'); r.value = '1408'; r.dispatchEvent(new Event('change')); return true; })()");
}

/// Drags the m slider over 60 values on a 1024 x 1024 canvas, one input
/// event per animation frame as a real drag delivers them, and reports the
/// frames per second (every frame complete: no tile missing); then the same
/// near 2^62 through the same code path.
const DRAG: &str = r#"
(async () => {
  const c = document.getElementById('sq-a'), s = document.getElementById('sq-slider');
  c.width = c.height = 1024;
  s.max = '5000';
  const frame = () => new Promise((r) => requestAnimationFrame((t) => r(t)));
  const run = async (values, step) => {
    let incomplete = 0, drawing = 0;
    await frame();
    const t0 = await frame();
    let t = t0;
    for (const v of values) {
      step(v); t = await frame();
      if (document.body.dataset.squareReady !== '1') incomplete++;
      drawing += parseFloat(/drawn in ([0-9.]+) ms/.exec(document.getElementById('sq-status').textContent)[1]);
    }
    const round = (x) => Math.round(10 * x) / 10;
    return { fps: round(values.length * 1000 / (t - t0)), draw_ms: round(drawing / values.length), incomplete };
  };
  const slider = await run(Array.from({ length: 60 }, (_, k) => 3000 + 7 * k),
    (m) => { s.value = String(m); s.dispatchEvent(new Event('input')); });
  const huge = await run(Array.from({ length: 60 }, (_, k) => (1n << 62n) - 1n - 3n * BigInt(k)),
    (m) => window.nimscape.setM(m, { dragging: true }));
  c.width = c.height = 640;
  s.max = '64'; s.value = '23'; s.dispatchEvent(new Event('change'));
  return JSON.stringify({ frames_per_second_m_3000_to_3413: slider, frames_per_second_m_near_2_62: huge });
})()
"#;

/// Compares tiles computed in the page with the server's for a spread of
/// boards, levels and tile positions; returns (tiles compared, mismatches).
fn page_tiles_against_server(tab: &Chromium) -> (usize, Vec<String>) {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut cases = Vec::new();
    let boards = [
        1u64,
        2,
        11,
        300,
        1 << 20,
        (1 << 32) + 5,
        (1 << 62) - 1,
        1 << 62,
        (1 << 61) + 12345,
    ];
    for k in 0..48usize {
        let m = if k < boards.len() * 4 {
            boards[k % boards.len()]
        } else {
            1 + next() % (1 << 62)
        };
        let bits = 64 - (m - 1).leading_zeros();
        let level = match k % 4 {
            0 => 0,
            1 => bits.saturating_sub(8),
            _ => (next() % u64::from(bits + 1)) as u32,
        };
        let last = ((m - 1) >> level) / 256;
        for (x, y) in [(last, last / 2), (next() % (last + 1), next() % (last + 1))] {
            for mode in ["density", "nimsum"] {
                cases.push(format!("['{m}', {level}, '{x}', '{y}', '{mode}']"));
            }
        }
    }
    let js = format!(
        r#"(async () => {{
  const bad = [];
  for (const [m, level, x, y, mode] of [{}]) {{
    const q = `m=${{m}}&level=${{level}}&x=${{x}}&y=${{y}}&mode=${{mode}}`;
    const response = await fetch('/api/tiles/square.bin?' + q);
    const server = new Uint8Array(await response.arrayBuffer());
    const local = window.nimscape.localTile(BigInt(m), BigInt(m), level, BigInt(x), BigInt(y), mode);
    let i = 0;
    while (i < 65536 && server[i] === local[i]) i++;
    if (!response.ok || server.length !== 65536 || i < 65536) bad.push(`${{q}}: first difference at byte ${{i}} (${{response.status}})`);
  }}
  return JSON.stringify(bad);
}})()"#,
        cases.join(", ")
    );
    let bad: Vec<String> = serde_json::from_str(eval(tab, &js).as_str().unwrap()).unwrap();
    (cases.len(), bad)
}

/// `NIMSCAPE_GALLERY=docs/gallery cargo test gallery_screenshots -- --ignored`:
/// the README gallery's screenshots of each view.
#[test]
#[ignore = "writes the gallery screenshots: run on demand with NIMSCAPE_GALLERY set"]
fn gallery_screenshots() {
    let Some(path) = chromium() else { return };
    let out = PathBuf::from(
        std::env::var_os("NIMSCAPE_GALLERY").expect("set NIMSCAPE_GALLERY to a folder"),
    );
    let server = server();
    let tab = Chromium::launch(&path, (1320, 900));
    let shots: [(&str, &str, &str); 8] = [
        ("serve-square.png", "view=square&m=11&depth=2&pair=1", "document.body.dataset.squareReady === '1'"),
        ("serve-pass.png", "view=square&m=27&pass=1", "document.body.dataset.squareReady === '1'"),
        ("serve-deep-zoom.png", "view=square&m=4611686018427387903&mode=nimsum&z=-3&cx=316049379871604938112&cy=768000000000000000384", "document.body.dataset.squareReady === '1'"),
        ("serve-automaton.png", "view=automaton&n=40&p=3&palette=viridis", "document.getElementById('au-img').dataset.state === 'ready'"),
        ("serve-octahedron.png", "view=octahedron&n=4&k=1408", "document.getElementById('oc-view').dataset.state === 'ready' && document.getElementById('oc-section').dataset.state === 'ready'"),
        ("serve-grundy.png", "view=grundy&game=triangular&k=3&box=10&plot=table&slice=z%3D5", "document.body.dataset.grundyHover === '1'"),
        ("serve-deep-flat.png", "view=square&m=4611686018427387903&mode=density", "document.body.dataset.squareReady === '1' && !document.getElementById('sq-uniform').hidden"),
        ("serve-deep-stretched.png", "view=square&m=4611686018427387903&mode=stretch", "document.body.dataset.squareReady === '1'"),
    ];
    for (file, hash, ready) in shots {
        tab.navigate("about:blank");
        tab.navigate(&format!("{}#{hash}", server.url()));
        wait_for(&tab, file, ready);
        if file == "serve-grundy.png" {
            // A hover readout on screen: the centre of the cell x = 4, y = 2.
            eval(&tab, "(() => { const img = document.getElementById('gr-img'), h = window.nimscape.grundyHover(), g = h.grid, b = img.getBoundingClientRect(), s = h.width / img.clientWidth; img.dispatchEvent(new MouseEvent('mousemove', { clientX: b.left + img.clientLeft + (g.x + g.width * 3.5 / g.cols) / s, clientY: b.top + img.clientTop + (g.y + g.height * 5.5 / g.rows) / s })); return true; })()");
        }
        std::thread::sleep(Duration::from_millis(300));
        let png = tab.screenshot_png();
        std::fs::write(out.join(file), png).unwrap();
        println!("wrote {}", out.join(file).display());
    }
}

#[test]
fn explorer_views_draw_the_models_cells_in_headless_chromium() {
    let Some(path) = chromium() else { return };
    let server = server();
    // Console errors, failed console assertions and uncaught exceptions of the
    // page are collected by the driver all along (tab.problems() below).
    let tab = Chromium::launch(&path, (1400, 1100));

    // Square view, m = 11, fitted.
    tab.navigate(&format!("{}#view=square&m=11", server.url()));
    wait_square(&tab);
    let first_paint = eval(&tab, "window.nimscapeFirstPaint").as_f64().unwrap();
    println!("speed: navigation to first complete square view {first_paint:.0} ms");
    check_cells_against_model(&tab, 11);
    assert!(eval(&tab, "document.getElementById('command').textContent")
        .as_str()
        .unwrap()
        .starts_with("nimscape square --m 11"));

    // Move the m slider as a user does: input events while dragging, change on release.
    eval(&tab, "(() => { const s = document.getElementById('sq-slider'); s.value = '23'; s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change')); return true; })()");
    wait_square(&tab);
    check_cells_against_model(&tab, 23);
    // The page writes the hash 150 ms after the last change (writeHash in
    // app.js): a fast driver gets here sooner, so wait for it first.
    wait_for(
        &tab,
        "the hash to record m=23",
        "location.hash.includes('m=23')",
    );
    assert!(eval(&tab, "location.hash")
        .as_str()
        .unwrap()
        .contains("m=23"));

    // While the slider moves, tiles are computed in the page: the pixels of
    // a frame drawn mid-drag are the model's cells too.
    eval(&tab, "(() => { const s = document.getElementById('sq-slider'); s.value = '29'; s.dispatchEvent(new Event('input')); return true; })()");
    wait_for(&tab, "a frame while dragging", "window.nimscape.sq.dragging && document.body.dataset.squareReady === '1' && document.getElementById('sq-m').value === '29'");
    std::thread::sleep(Duration::from_millis(60));
    check_cells_against_model(&tab, 29);
    eval(&tab, "(() => { const s = document.getElementById('sq-slider'); s.dispatchEvent(new Event('change')); return true; })()");
    wait_square(&tab);

    // The page's tiles are the server's bytes: boards up to 2^62, every level,
    // first, middle and last tiles, both modes.
    let compare = page_tiles_against_server(&tab);
    assert!(compare.0 >= 80, "only {} tiles compared", compare.0);
    assert!(
        compare.1.is_empty(),
        "page tiles differ from the server's: {:#?}",
        compare.1
    );

    // Dragging the m slider on a 1024 x 1024 canvas, timed by animation
    // frames. Printed, not asserted: the machine may be busy.
    println!(
        "speed: m slider on a 1024 x 1024 view: {}",
        eval(&tab, DRAG)
    );
    wait_square(&tab);

    // Toggle the Theorem 3.4 overlay: its colours appear on the canvas.
    const OVERLAY_PIXELS: &str = "(() => { const c = document.getElementById('sq-a'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] === 213 && d[i + 1] === 94 && d[i + 2] === 0) n++; return n; })()";
    assert_eq!(eval(&tab, OVERLAY_PIXELS).as_u64(), Some(0));
    eval(&tab, "(() => { const d = document.getElementById('sq-depth'); d.value = '2'; d.dispatchEvent(new Event('change')); return true; })()");
    wait_square(&tab);
    assert!(
        eval(&tab, OVERLAY_PIXELS).as_u64().unwrap() > 100,
        "the decomposition overlay is not drawn"
    );
    // Beside it, Theorem 3.4's status for every m: proved by the server when
    // MONA is installed (CI installs it), else how to prove it.
    let proved = super::prove_logic::mona().is_some();
    wait_for(
        &tab,
        "the status of Theorem 3.4 beside the decomposition",
        if proved {
            "document.getElementById('sq-theorem').textContent.includes('proved for every m by `nimscape prove square --theorem decomposition`')"
        } else {
            "document.getElementById('sq-theorem').textContent.includes('install MONA')"
        },
    );
    let shown = eval(&tab, "document.getElementById('sq-theorem').textContent");
    assert!(
        shown
            .as_str()
            .unwrap()
            .starts_with("Theorem 3.4 (Okubo–Kashiwagi–Niida)"),
        "{shown}"
    );
    eval(&tab, "(() => { const d = document.getElementById('sq-depth'); d.value = '0'; d.dispatchEvent(new Event('change')); return true; })()");

    // Nim with a pass: its P-cells are drawn over the board in vermillion,
    // exactly where the model's solve puts them (R(27,27) has 40 of them).
    eval(&tab, "(() => { const s = document.getElementById('sq-slider'); s.value = '27'; s.dispatchEvent(new Event('change')); return true; })()");
    wait_square(&tab);
    eval(&tab, "(() => { const p = document.getElementById('sq-pass'); p.checked = true; p.dispatchEvent(new Event('change')); return true; })()");
    wait_square(&tab);
    let (_, pass) = nimscape_model::games::nim_pass::square_board(
        27,
        1 << 30,
        &nimscape_model::Control::default(),
    )
    .unwrap();
    assert_eq!(pass.ones().count(), 40);
    let drawn = eval(&tab, "(() => { const c = document.getElementById('sq-a'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] === 213 && d[i + 1] === 94 && d[i + 2] === 0) n++; return n; })()");
    assert!(
        drawn.as_u64().unwrap() > 40 * 100,
        "{drawn} vermillion pixels"
    );
    check_cells(&tab, 27, |m, row, col| {
        if pass.get(row as usize, col as usize) {
            [213, 94, 0]
        } else if nimscape_model::pattern::is_p(m, m, row + 1, col + 1) {
            [0, 0, 0]
        } else {
            [255, 255, 255]
        }
    });
    assert!(eval(&tab, "document.getElementById('command').textContent")
        .as_str()
        .unwrap()
        .contains("--overlay nim-pass"));
    assert_eq!(square_views_are_their_commands(&tab, "Nim with a pass"), 1);
    eval(&tab, "(() => { const p = document.getElementById('sq-pass'); p.checked = false; p.dispatchEvent(new Event('change')); return true; })()");
    wait_square(&tab);
    check_cells_against_model(&tab, 27);

    // Deep zoom into the largest board: type m, zoom to 4 pixels per cell somewhere far inside.
    let big = (1u64 << 62) - 1;
    eval(&tab, &format!("(() => {{ const i = document.getElementById('sq-m'); i.value = '{big}'; i.dispatchEvent(new Event('change')); return true; }})()"));
    wait_square(&tab);
    eval(&tab, "(() => { const s = window.nimscape.sq; s.cx = 1234567890123456789n * 256n + 77n; s.cy = 3000000000000000001n * 256n; window.nimscape.zoomAt(document.getElementById('sq-a'), 320, 320, -2 - s.z); return true; })()");
    wait_square(&tab);
    let checked = check_cells_against_model(&tab, big);
    assert!(checked > 1000, "{checked} cells checked at the deep zoom");
    // A deep-zoom view is a command too: `square --m 2^62-1 --window ... --cell 4`.
    let command = eval(&tab, "document.getElementById('command').textContent");
    assert!(
        command
            .as_str()
            .unwrap()
            .contains(&format!("--m {big} --window ")),
        "{command}"
    );
    let mut compared = square_views_are_their_commands(&tab, "deep zoom in, share");

    // Nim-sum colouring: P-cells stay black, others take colour, the bar shows.
    eval(&tab, "(() => { const s = document.getElementById('sq-mode'); s.value = 'nimsum'; s.dispatchEvent(new Event('change')); return true; })()");
    wait_square(&tab);
    assert_eq!(
        eval(&tab, "document.getElementById('sq-bar').hidden"),
        serde_json::Value::Bool(false)
    );
    compared += square_views_are_their_commands(&tab, "deep zoom in, nim-sum");
    // 63 bit lengths on 640 px: labels thinned, never touching; and on a narrow bar.
    let wide = bar_labels_keep_apart(&tab, "m = 2^62 - 1");
    eval(&tab, "(() => { document.getElementById('sq-bar').width = 180; window.nimscape.setM(window.nimscape.sq.m); return true; })()");
    wait_square(&tab);
    let narrow = bar_labels_keep_apart(&tab, "m = 2^62 - 1 on a 180 px bar");
    assert!(narrow < wide, "{narrow} labels on 180 px, {wide} on 640 px");
    eval(
        &tab,
        "(() => { document.getElementById('sq-bar').width = 640; return true; })()",
    );

    // Zoomed out over the whole 2^62 board: a pixel is 2^53 x 2^53 cells.
    eval(
        &tab,
        "(() => { document.getElementById('sq-fit').click(); return true; })()",
    );
    compared += square_views_are_their_commands(&tab, "2^62 - 1 fitted, nim-sum");
    eval(&tab, "(() => { const s = document.getElementById('sq-mode'); s.value = 'density'; s.dispatchEvent(new Event('change')); return true; })()");
    compared += square_views_are_their_commands(&tab, "2^62 - 1 fitted, share");
    // Half a board, panned off a block edge: m = 1000 at 2 x 2 cells a pixel.
    eval(&tab, "(() => { const i = document.getElementById('sq-m'); i.value = '1000'; i.dispatchEvent(new Event('change')); const s = window.nimscape.sq; s.cx = 700n * 256n + 77n; s.cy = 333n * 256n; window.nimscape.zoomAt(document.getElementById('sq-a'), 320, 320, 1 - s.z); return true; })()");
    compared += square_views_are_their_commands(&tab, "m = 1000, 2 cells a pixel, panned");
    // The issue's view: R(11,11) beside R(23,23), Theorem 3.4 two levels deep.
    eval(&tab, "(() => { const i = document.getElementById('sq-m'); i.value = '11'; i.dispatchEvent(new Event('change')); document.getElementById('sq-fit').click(); const d = document.getElementById('sq-depth'); d.value = '2'; d.dispatchEvent(new Event('change')); const p = document.getElementById('sq-pair'); p.checked = true; p.dispatchEvent(new Event('change')); return true; })()");
    compared += square_views_are_their_commands(&tab, "pair at depth 2");
    let command = eval(&tab, "document.getElementById('command').textContent");
    assert_eq!(
        command.as_str().unwrap(),
        "nimscape square --m 11 --window 1..11,1..11 --cell 32 --p-color black --decompose --decompose-depth 2 -o square-11-window.png && nimscape square --m 23 --window 1..23,1..23 --cell 16 --p-color black --decompose --decompose-depth 2 -o square-23-window.png"
    );
    square_command_run_is_the_canvas(&tab);
    eval(&tab, "(() => { const s = document.getElementById('sq-mode'); s.value = 'nimsum'; s.dispatchEvent(new Event('change')); return true; })()");
    compared += square_views_are_their_commands(&tab, "pair at depth 2, nim-sum");
    square_command_run_is_the_canvas(&tab);
    println!("the square view is its command's picture in {compared} views");
    eval(&tab, "(() => { const p = document.getElementById('sq-pair'); p.checked = false; p.dispatchEvent(new Event('change')); const d = document.getElementById('sq-depth'); d.value = '0'; d.dispatchEvent(new Event('change')); return true; })()");
    wait_square(&tab);

    // The figure views load their images through the API mirror.
    for (view, image) in [
        ("automaton", "au-img"),
        ("octahedron", "oc-section"),
        ("octahedron", "oc-view"),
        ("grundy", "gr-img"),
    ] {
        eval(
            &tab,
            &format!("(() => {{ window.nimscape.show('{view}'); return true; }})()"),
        );
        wait_for(&tab, view, &format!("document.getElementById('{image}').dataset.state === 'ready' && document.getElementById('{image}').naturalWidth > 0"));
        if view == "octahedron" && image == "oc-view" {
            octahedron_command_is_the_picture(&tab, &server);
        }
        if view == "automaton" {
            command_is_the_loaded_picture(&tab, &server, &["automaton.png?frames=16&modulus=2"]);
        }
        if view == "grundy" {
            command_is_the_loaded_picture(
                &tab,
                &server,
                &["grundy.png?game=triangular&k=3&box=10&plot=table&slice=z%3D5"],
            );
        }
    }
    // Hovering the Grundy table reads out the position and its value: the
    // cell of x = 2, y = 1 in the default slice z = 5 of triangular k = 3.
    wait_for(
        &tab,
        "the Grundy hover map",
        "document.body.dataset.grundyHover === '1'",
    );
    const HOVER: &str = r#"
(() => {
  const img = document.getElementById('gr-img'), h = window.nimscape.grundyHover(), g = h.grid;
  const box = img.getBoundingClientRect(), scale = h.width / img.clientWidth;
  const edge = (k, n, span) => Math.floor(k * span / n);
  const at = (row, col) => {
    const x = g.x + (edge(col, g.cols, g.width) + edge(col + 1, g.cols, g.width)) / 2;
    const y = g.y + (edge(row, g.rows, g.height) + edge(row + 1, g.rows, g.height)) / 2;
    img.dispatchEvent(new MouseEvent('mousemove', { clientX: box.left + img.clientLeft + x / scale, clientY: box.top + img.clientTop + y / scale, bubbles: true }));
    return document.getElementById('gr-readout').textContent;
  };
  return JSON.stringify([at(3, 2), at(0, 4), at(1, 1)]);
})()
"#;
    let read: Vec<String> = serde_json::from_str(eval(&tab, HOVER).as_str().unwrap()).unwrap();
    let flags: Vec<(String, String)> = [
        ("game", "triangular"),
        ("k", "3"),
        ("box", "10"),
        ("plot", "table"),
        ("slice", "z=5"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let csv = String::from_utf8(
        nimscape::request::render_pairs(
            &["grundy"],
            &flags,
            "csv",
            &nimscape::request::Budget {
                memory_limit: 1 << 30,
                ..Default::default()
            },
            &nimscape::Control::default(),
        )
        .unwrap(),
    )
    .unwrap();
    let value_of = |x: u32, y: u32| {
        csv.lines().find_map(|line| {
            line.strip_prefix(&format!("{x},{y},5,"))
                .map(str::to_string)
        })
    };
    let want = |x: u32, y: u32| match value_of(x, y) {
        Some(v) => format!(
            "(x, y, z) = ({x}, {y}, 5): Grundy value {v} ({})",
            if v == "0" { "P" } else { "N" }
        ),
        None => format!("(x, y, z) = ({x}, {y}, 5): not a position of this game"),
    };
    assert_eq!(read[0], want(2, 1));
    assert_eq!(read[1], "y = 3");
    assert_eq!(read[2], want(0, 0));

    // A cap expression error is shown, not thrown.
    eval(&tab, "(() => { document.getElementById('gr-game').value = 'cap'; document.getElementById('gr-game').dispatchEvent(new Event('change')); const c = document.getElementById('gr-cap'); c.value = 'floor((x+z)/'; c.dispatchEvent(new Event('change')); return true; })()");
    wait_for(
        &tab,
        "the cap error",
        "!document.getElementById('gr-error').hidden",
    );

    // A game of your own: the text area's game file (Wythoff's, as the page
    // starts) is drawn, and the command names the file it is saved under.
    eval(&tab, "(() => { const g = document.getElementById('gr-game'); g.value = 'file'; g.dispatchEvent(new Event('change')); document.getElementById('gr-file-use').click(); return true; })()");
    wait_for(
        &tab,
        "the pasted game's figure",
        "document.getElementById('gr-error').hidden && document.getElementById('gr-img').dataset.state === 'ready' && document.getElementById('gr-img').src.includes('blob:') && document.getElementById('command').textContent.includes('my-game.toml')",
    );
    assert_eq!(
        eval(&tab, "document.getElementById('command').textContent"),
        "nimscape grundy my-game.toml --box 10 --plot table -o grundy-my-game.png"
    );
    // A game that does not compile shows the parser's one line.
    eval(&tab, "(() => { document.getElementById('gr-file-text').value = 'heaps = ['; document.getElementById('gr-file-use').click(); return true; })()");
    wait_for(
        &tab,
        "the pasted game's error",
        "!document.getElementById('gr-error').hidden && document.getElementById('gr-error').textContent.includes('my-game.toml')",
    );

    // The offline explorer.html: opened from disk, it shows what it holds,
    // says in a sentence which views need the server, and links only to
    // what it contains.
    let dir = tempfile::tempdir().unwrap();
    let out = super::support::nimscape(dir.path())
        .args([
            "explore", "--m", "11", "--frames", "3", "-q", "-o", "e.html",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = format!("file://{}", dir.path().join("e.html").display());
    tab.navigate("about:blank");
    tab.navigate(&format!("{file}#view=octahedron"));
    wait_square(&tab);
    const OFFLINE: &str = r#"
(() => JSON.stringify({
  view: ['square', 'automaton', 'octahedron', 'grundy'].filter((v) => !document.getElementById(`view-${v}`).hidden),
  tabs: [...document.querySelectorAll('#tabs button')].filter((b) => !b.hidden).map((b) => b.dataset.view),
  note: document.getElementById('offline-note').hidden ? '' : document.getElementById('offline-note').textContent,
  links: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href').slice(0, 40)),
  downloads: document.getElementById('downloads').textContent,
  command: document.getElementById('command').textContent,
}))()
"#;
    let state: serde_json::Value =
        serde_json::from_str(eval(&tab, OFFLINE).as_str().unwrap()).unwrap();
    assert_eq!(state["view"], serde_json::json!(["square"]), "{state}");
    assert_eq!(
        state["tabs"],
        serde_json::json!(["square", "automaton"]),
        "{state}"
    );
    let note = state["note"].as_str().unwrap();
    assert!(
        note.contains("octahedron and Grundy") && note.contains("nimscape serve"),
        "{state}"
    );
    assert!(
        state["links"].as_array().unwrap().is_empty(),
        "the square view links to nothing it lacks: {state}"
    );
    assert_eq!(state["downloads"], "PNG", "{state}");
    assert!(
        state["command"]
            .as_str()
            .unwrap()
            .starts_with("nimscape square --m 11 --window 1..11,1..11 --cell 32 --p-color black"),
        "{state}"
    );
    check_cells_against_model(&tab, 11);
    // The automaton's links are the frames the file holds, as data URLs.
    eval(
        &tab,
        "(() => { window.nimscape.show('automaton'); return true; })()",
    );
    wait_for(&tab, "the offline automaton frame", "document.getElementById('au-img').dataset.state === 'ready' && document.getElementById('au-img').naturalWidth > 0");
    let state: serde_json::Value =
        serde_json::from_str(eval(&tab, OFFLINE).as_str().unwrap()).unwrap();
    let links = state["links"].as_array().unwrap();
    assert!(
        !links.is_empty()
            && links
                .iter()
                .all(|l| l.as_str().unwrap().starts_with("data:image/png;base64,")),
        "{state}"
    );

    let problems = tab.problems();
    assert!(problems.is_empty(), "console errors: {problems:#?}");
}

/// Waits for the Grundy picture of the page's current controls.
fn wait_grundy(tab: &Chromium, what: &str, command_has: &str) {
    wait_for(
        tab,
        what,
        &format!(
            "document.getElementById('gr-img').dataset.state === 'ready' && document.getElementById('gr-error').hidden && document.getElementById('command').textContent.includes({command_has:?})"
        ),
    );
}

fn text_of(tab: &Chromium, id: &str) -> String {
    eval(tab, &format!("document.getElementById('{id}').textContent"))
        .as_str()
        .unwrap()
        .to_string()
}

/// Whether the element is drawn at all (the `hidden` attribute must win over
/// the stylesheet's display rules).
fn displayed(tab: &Chromium, id: &str) -> bool {
    eval(
        tab,
        &format!("(() => {{ const e = document.getElementById('{id}'); return !!e && getComputedStyle(e).display !== 'none' && e.getClientRects().length > 0; }})()"),
    )
    .as_bool()
    .unwrap()
}

fn set_value(tab: &Chromium, id: &str, value: &str, event: &str) {
    eval(
        tab,
        &format!("(() => {{ const e = document.getElementById('{id}'); e.value = {value:?}; e.dispatchEvent(new Event('{event}')); return true; }})()"),
    );
}

/// The explorer's controls show what its pictures draw (issue: "the explorer
/// draws what it says"): the game-file editor only for a game file being
/// edited; a game file's parameter from a link is the one drawn; a band game's
/// box is the table's; three-heap games step through slices; a deep view that
/// is one flat colour says why and offers the stretched shading, which is its
/// command's picture pixel for pixel.
#[test]
fn explorer_controls_show_what_is_drawn() {
    let Some(path) = chromium() else { return };
    let server = server();
    let tab = Chromium::launch(&path, (1400, 1100));

    // A built-in game: no editor, and only the parameter the game takes.
    tab.navigate(&format!(
        "{}#view=grundy&game=triangular&k=3&box=10&plot=table&slice=z%3D5",
        server.url()
    ));
    wait_grundy(&tab, "triangular", "--k 3");
    assert!(
        !displayed(&tab, "gr-file-box"),
        "the editor shows for a built-in game"
    );
    assert!(displayed(&tab, "gr-param-k"));
    // The editor shows once a game file is to be written, and goes again.
    set_value(&tab, "gr-game", "file", "change");
    wait_for(
        &tab,
        "the editor",
        "document.getElementById('command').textContent.includes('draw this game')",
    );
    assert!(displayed(&tab, "gr-file-box"));
    set_value(&tab, "gr-game", "min-half", "change");
    wait_grundy(&tab, "min-half", "grundy min-half");
    assert!(
        !displayed(&tab, "gr-file-box"),
        "the editor stays after leaving the game file"
    );
    assert_eq!(
        eval(&tab, "document.getElementById('gr-params').children.length"),
        0,
        "min-half takes no parameter"
    );

    // A game file on the server named by a link, with its parameter: the
    // control shows k = 3, the command and the picture are k = 3 (the file's
    // default is 2, and k = 2 draws another picture).
    tab.navigate("about:blank");
    tab.navigate(&format!(
        "{}#view=grundy&game=games%2Fmin-k.toml&param=k%3D3",
        server.url()
    ));
    wait_grundy(&tab, "min-k with k = 3", "--param k=3");
    assert_eq!(
        eval(&tab, "document.getElementById('gr-param-k').value"),
        "3"
    );
    assert_eq!(
        eval(&tab, "document.getElementById('gr-game').value"),
        "games/min-k.toml"
    );
    assert_eq!(
        text_of(&tab, "command"),
        "nimscape grundy games/min-k.toml --param k=3 --box 10 --plot table --slice z=5 -o grundy-min-k.png"
    );
    let k3 = "grundy.png?game=games%2Fmin-k.toml&param=k%3D3&box=10&plot=table&slice=z%3D5";
    command_is_the_loaded_picture(&tab, &server, &[k3]);
    let k2 = super::serve::get(
        server.addr,
        "/api/grundy.png?game=games%2Fmin-k.toml&param=k%3D2&box=10&plot=table&slice=z%3D5",
    );
    assert_eq!(k2.status, 200);
    assert!(
        k2.body != super::serve::get(server.addr, &format!("/api/{k3}")).body,
        "k = 2 and k = 3 draw the same picture: the check above could not fail"
    );
    assert!(
        !displayed(&tab, "gr-file-box"),
        "the editor shows for a game file on the server"
    );
    // Changing the parameter changes the picture, the command and the link.
    set_value(&tab, "gr-param-k", "4", "change");
    wait_grundy(&tab, "min-k with k = 4", "--param k=4");
    wait_for(
        &tab,
        "the link to record k = 4",
        "location.hash.includes('param=k%3D4')",
    );

    // The slice slider of a three-heap game: choose the coordinate, step
    // through 0..box; the table is that slice (its hover map fixes it).
    assert!(displayed(&tab, "gr-slice"));
    set_value(&tab, "gr-slice-name", "y", "change");
    wait_grundy(&tab, "the slice y", "--slice y=");
    assert_eq!(eval(&tab, "document.getElementById('gr-slice').max"), "10");
    set_value(&tab, "gr-slice", "3", "input");
    wait_grundy(&tab, "the slice y = 3", "--slice y=3");
    wait_for(
        &tab,
        "the hover map of the slice y = 3",
        "document.body.dataset.grundyHover === '1' && JSON.stringify(window.nimscape.grundyHover().fixed) === '{\"y\":3}'",
    );
    assert!(
        text_of(&tab, "gr-slice-v").starts_with("y = 3 of 0..10"),
        "{}",
        text_of(&tab, "gr-slice-v")
    );
    command_is_the_loaded_picture(
        &tab,
        &server,
        &["grundy.png?game=games%2Fmin-k.toml&param=k%3D4&box=10&plot=table&slice=y%3D3"],
    );
    // The same slice as points; the whole box as 3D points (the slider then waits).
    set_value(&tab, "gr-plot", "points", "change");
    wait_grundy(&tab, "the slice as points", "--plot points --slice y=3");
    set_value(&tab, "gr-plot", "points3d", "change");
    wait_grundy(&tab, "3D points", "--plot points3d -o");
    assert_eq!(
        eval(&tab, "document.getElementById('gr-slice').disabled"),
        true
    );
    // A built-in three-heap game has the slider too.
    set_value(&tab, "gr-plot", "table", "change");
    set_value(&tab, "gr-game", "triangular", "change");
    wait_grundy(
        &tab,
        "triangular, slice y",
        "grundy triangular --k 3 --box 10 --plot table --slice y=3",
    );

    // A band game: the box shown is the box drawn (the book's table 0..22).
    set_value(&tab, "gr-game", "band-7-1", "change");
    wait_grundy(&tab, "band-7-1", "grundy band-7-1 --box 22");
    assert_eq!(eval(&tab, "document.getElementById('gr-box').value"), "22");
    assert!(
        !displayed(&tab, "gr-slice-box"),
        "a two-heap game has no slice"
    );
    assert!(!displayed(&tab, "gr-param-k"), "band-7-1 takes no k");
    command_is_the_loaded_picture(
        &tab,
        &server,
        &["grundy.png?game=band-7-1&box=22&plot=table"],
    );
    wait_for(
        &tab,
        "the band's hover map",
        "document.body.dataset.grundyHover === '1'",
    );
    // The table's rows are x = 0..22 (and a header row): what the box says.
    assert_eq!(eval(&tab, "window.nimscape.grundyHover().grid.rows"), 24);

    // The fitted R(2^62-1): one flat grey (share) or white (nim-sum), both
    // correct; the page says why and offers the stretched shading.
    let big = (1u64 << 62) - 1;
    tab.navigate("about:blank");
    tab.navigate(&format!(
        "{}#view=square&m={big}&mode=density",
        server.url()
    ));
    wait_square(&tab);
    wait_for(
        &tab,
        "the flat-view note",
        "!document.getElementById('sq-uniform').hidden",
    );
    assert!(
        text_of(&tab, "sq-uniform").contains("one grey, and that is correct"),
        "{}",
        text_of(&tab, "sq-uniform")
    );
    set_value(&tab, "sq-mode", "nimsum", "change");
    wait_square(&tab);
    wait_for(
        &tab,
        "the nim-sum flat-view note",
        "document.getElementById('sq-uniform-text').textContent.includes('samples the first cell')",
    );
    // A view that is not flat says nothing.
    set_value(&tab, "sq-m", "1000", "change");
    wait_square(&tab);
    wait_for(
        &tab,
        "no note for R(1000)",
        "document.getElementById('sq-uniform').hidden",
    );
    set_value(&tab, "sq-m", &big.to_string(), "change");
    wait_square(&tab);
    eval(
        &tab,
        "(() => { document.getElementById('sq-stretch').click(); return true; })()",
    );
    wait_square(&tab);
    assert_eq!(
        eval(&tab, "document.getElementById('sq-mode').value"),
        "stretch"
    );
    wait_for(
        &tab,
        "the note to go",
        "document.getElementById('sq-uniform').hidden",
    );
    let colours = eval(&tab, "(() => { const v = window.nimscape.squareViews()[0]; const d = new Uint32Array(document.getElementById('sq-a').getContext('2d').getImageData(v.x, v.y, v.w, v.h).data.buffer); return new Set(d).size; })()");
    assert!(
        colours.as_u64().unwrap() >= 3,
        "{colours} colours in the stretched view"
    );
    assert!(text_of(&tab, "command").contains("--colour-by share-stretched"));
    // The page's stretch (its own tile maths) is the CLI's, pixel for pixel,
    // here and on a view whose shares span the whole scale.
    let mut compared = square_views_are_their_commands(&tab, "2^62 - 1 fitted, stretched");
    square_command_run_is_the_canvas(&tab);
    eval(&tab, "(() => { const i = document.getElementById('sq-m'); i.value = '1000'; i.dispatchEvent(new Event('change')); const s = window.nimscape.sq; s.cx = 700n * 256n + 77n; s.cy = 333n * 256n; window.nimscape.zoomAt(document.getElementById('sq-a'), 320, 320, 3 - s.z); const p = document.getElementById('sq-pair'); p.checked = true; p.dispatchEvent(new Event('change')); return true; })()");
    compared +=
        square_views_are_their_commands(&tab, "m = 1000 beside 2001, 8 cells a pixel, stretched");
    square_command_run_is_the_canvas(&tab);
    assert_eq!(compared, 3);

    let problems = tab.problems();
    assert!(problems.is_empty(), "console errors: {problems:#?}");
}
