// nimscape explorer. Vanilla JS, no build step, nothing fetched from elsewhere.
//
// The square view keeps its camera as exact integers (BigInt) in units of
// 1/256 cell, so every cell of a board up to 2^62 is addressed exactly at
// every zoom; tiles come from the server's exact model (or, in an exported
// explorer.html, from data embedded in the page).
'use strict';

const EMBED = window.NIMSCAPE_EMBED || null;
const UNIT = 256n;           // camera units per cell
const TILE = 256;            // tile side, pixels
const MIN_Z = -8;            // 256 px per cell
const MAX_Z = 62;
const $ = (id) => document.getElementById(id);

// ---------- helpers ----------
const bitLength = (v) => (v <= 0n ? 0 : v.toString(2).length);
const floorDiv = (a, b) => { const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; };
const parseBig = (text) => { const t = String(text).trim(); if (!/^[0-9]+$/.test(t)) return null; return BigInt(t); };
const MAX_SIDE = 1n << 62n;

function query(params) {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== false && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v === true ? 'true' : String(v))}`)
    .join('&');
}

function shellWord(v) { return /^[A-Za-z0-9_.,:=\/+-]+$/.test(v) ? v : `'${String(v).replace(/'/g, "'\\''")}'`; }

// The exact `nimscape` command for an API path and its parameters.
function commandLine(command, params, positional, out) {
  const words = ['nimscape', ...command.split('/')];
  for (const name of positional) if (params[name]) words.push(shellWord(params[name]));
  for (const [k, v] of Object.entries(params)) {
    if (positional.includes(k) || v === undefined || v === null || v === false || v === '') continue;
    words.push(`--${k}`);
    if (v !== true) words.push(shellWord(String(v)));
  }
  words.push('-o', out);
  return words.join(' ');
}

// ---------- data: the server, or what an exported page embeds ----------
function base64Bytes(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function inflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function fetchTile(q) {
  if (EMBED) {
    const packed = EMBED.tiles[q];
    if (!packed) return null;
    return inflate(base64Bytes(packed));
  }
  const response = await fetch('/api/tiles/square.bin?' + q);
  if (!response.ok) throw new Error((await response.text()).trim());
  return new Uint8Array(await response.arrayBuffer());
}

// An image for an API path: an object URL, or an error message.
async function fetchFigure(path) {
  if (EMBED) {
    const url = EMBED.figures[path];
    return url ? { url } : { error: 'this frame is not in the exported page: run nimscape serve for every value' };
  }
  const response = await fetch('/api/' + path);
  if (!response.ok) return { error: (await response.text()).trim() };
  return { url: URL.createObjectURL(await response.blob()), owned: true };
}

// `extra` goes into the API's query but not into the command (a pasted game's id).
function setDownloads(command, params, positional, exts, stem, extra = {}) {
  const box = $('downloads');
  box.textContent = '';
  for (const ext of exts) {
    // An exported page links only to what it holds.
    const href = EMBED ? EMBED.figures[`${command}.${ext}?${query(params)}`] : `/api/${command}.${ext}?${query({ ...params, ...extra })}`;
    if (!href) continue;
    const a = document.createElement('a');
    a.textContent = ext.toUpperCase();
    a.download = `${stem}.${ext}`;
    a.href = href;
    box.appendChild(a);
  }
  $('command').textContent = commandLine(command, params, positional, `${stem}.${exts[0]}`);
}

// ---------- state in the URL ----------
function readHash() {
  const out = {};
  for (const part of location.hash.replace(/^#/, '').split('&')) {
    if (!part) continue;
    const [k, v = ''] = part.split('=');
    out[decodeURIComponent(k)] = decodeURIComponent(v);
  }
  return out;
}
let hashTimer = null;
function writeHash(state) {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(() => history.replaceState(null, '', '#' + query(state)), 150);
}

// ---------- square boards ----------
const sq = {
  m: 11n, z: 0, cx: 0n, cy: 0n, fitted: true,
  mode: 'density', depth: 0, pass: false, pair: false, sync: 'fit', dragging: false,
};
const tiles = new Map();     // key -> canvas | 'pending' | 'failed' (the server's tiles)
let tileOrder = [];
let tileError = '';           // the server's last refusal, shown in the status line
const localTiles = new Map(); // key -> canvas (tiles computed in the page, a few only)
const palettes = new Map();

// The nim-sum ramp: the viridis palette of src/scene/ramp.rs at 64 steps,
// dark to light, ordered and colour-blind safe (a unit test keeps it equal to
// figure::square::window::nimsum_ramp). Bit length k of a board whose
// nim-sums have at most `top` bits takes entry 63 - rampIndex(k, top).
const NIMSUM_RAMP = ['#31003c', '#300041', '#300046', '#2f014a', '#2f044f', '#2e0854', '#2c0d58', '#2a115c', '#281560', '#261964', '#231d67', '#1f206a', '#1a246d', '#142870', '#0b2c72', '#003074', '#003475', '#003777', '#003b78', '#003f78', '#004379', '#004779', '#004a78', '#004e78', '#005177', '#005575', '#005874', '#005c72', '#005f70', '#00626d', '#00656a', '#006867', '#006a64', '#006d61', '#006f5d', '#007259', '#007455', '#007650', '#00784b', '#007946', '#007b41', '#007c3c', '#187e36', '#2c7f2f', '#3a8028', '#468020', '#518115', '#5b8206', '#658200', '#6e8200', '#778200', '#808200', '#888200', '#918200', '#988100', '#a08100', '#a88000', '#af8000', '#b67f00', '#bc7f00', '#c37e00', '#c97e00', '#cf7d00', '#d57c11'];
const hexRgb = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
function rampIndex(k, top) {
  top = Math.max(1, top);
  if (top === 1) return 0;
  k = Math.min(Math.max(k, 1), top);
  return Math.floor(((k - 1) * 63 * 2 + (top - 1)) / (2 * (top - 1)));
}
// The colours of `nimscape square --window ... --p-color black`: P black,
// other cells white, a share byte b in 2..254 a mix at weight shareWeight(b)
// of 255 (the integer rules of figure::square::window, so the command's PNG
// and this canvas are the same pixels).
const P_RGB = [0, 0, 0], OTHER_RGB = [255, 255, 255];
const shareWeight = (b) => 20 + Math.floor((235 * (Math.min(Math.max(b, 2), 254) - 2) + 126) / 252);
const mixRgb = (o, p, w) => o.map((c, i) => Math.floor((c * (255 - w) + p[i] * w + 127) / 255));
const rampTop = (m) => Math.max(1, bitLength(m));

function paletteFor(mode, m) {
  const pal = new Uint8ClampedArray(256 * 4);
  const set = (i, r, g, b, a = 255) => { pal.set([r, g, b, a], i * 4); };
  set(0, 0, 0, 0, 0); // off the board: the canvas background shows
  if (mode === 'pass') {
    // Over the board: clear where no pass-game P-cell is, vermillion (the
    // CLI's --overlay nim-pass colour) with the share of P-cells as opacity.
    set(1, 0, 0, 0, 0);
    set(255, 213, 94, 0);
    for (let b = 2; b < 255; b++) set(b, 213, 94, 0, Math.round(64 + 191 * (b - 2) / 252));
  } else if (mode === 'density') {
    set(1, ...OTHER_RGB);
    set(255, ...P_RGB);
    for (let b = 2; b < 255; b++) set(b, ...mixRgb(OTHER_RGB, P_RGB, shareWeight(b)));
  } else {
    // P-cells (nim-sum 0) white, then light to dark as the nim-sum grows:
    // one order of lightness (`--colour-by nim-sum --p-color white`).
    set(1, 255, 255, 255);
    const top = rampTop(m);
    for (let k = 1; k <= 64; k++) set(k + 1, ...hexRgb(NIMSUM_RAMP[63 - rampIndex(k, top)]));
  }
  return pal;
}

// The palette as one RGBA word per byte value, to fill ImageData a word at a time.
function palette32(mode, m) {
  const key = mode === 'nimsum' ? `${mode},${bitLength(m)}` : mode;
  let pal = palettes.get(key);
  if (!pal) { pal = new Uint32Array(paletteFor(mode, m).buffer); palettes.set(key, pal); }
  return pal;
}

let scratchImage = null;
function paintTile(canvas, bytes, mode, m) {
  const ctx = canvas.getContext('2d');
  const image = scratchImage || (scratchImage = ctx.createImageData(TILE, TILE));
  const words = new Uint32Array(image.data.buffer), pal = palette32(mode, m);
  for (let i = 0; i < bytes.length; i++) words[i] = pal[bytes[i]];
  ctx.putImageData(image, 0, 0);
  return canvas;
}

function tileKey(m, level, tx, ty, mode) { return query({ m: m.toString(), level, x: tx.toString(), y: ty.toString(), mode }); }

// ---------- tiles computed in the page ----------
// A port of the model's TilePlan (crates/model/src/pattern/tiles.rs), byte for
// byte: the browser test compares it with the server's tiles for boards up to
// 2^62 at every level. It lets the m slider redraw without a round trip per
// frame. Everything that depends on m once per tile is done in BigInt; the
// per-pixel work compares 62-bit signature halves split into two 32-bit ints.
const MASK32 = 0xffffffffn;
const plans = new Map();

// I[βr][βc]: pairs of low offsets (x, y) in [0, 2^level)^2 whose low signature
// halves agree, by the borrow classes of ml - x and nl - y (a digit recursion).
function lowIntersections(ml, nl, level) {
  let ways = [1n, 0n, 0n, 0n];
  for (let bit = 0n; bit < BigInt(level); bit++) {
    const mb = (ml >> bit) & 1n, nb = (nl >> bit) & 1n;
    const next = [0n, 0n, 0n, 0n];
    for (let state = 0; state < 4; state++) {
      const w = ways[state];
      if (w === 0n) continue;
      const ba = BigInt(state & 1), bc = BigInt(state >> 1);
      for (let xb = 0n; xb < 2n; xb++) {
        const da = mb - xb - ba, oa = da & 1n;
        for (let yb = 0n; yb < 2n; yb++) {
          const dc = nb - yb - bc, oc = dc & 1n;
          if ((xb ^ oa) === (yb ^ oc)) next[(da < 0n ? 1 : 0) | (dc < 0n ? 2 : 0)] += w;
        }
      }
    }
    ways = next;
  }
  return [[ways[0], ways[2]], [ways[1], ways[3]]];
}

// The model's shade(): 0 off the board, 1 no P-cell, 255 all, else 2 + ⌊256·count/area⌋ capped at 254.
function shadeByte(count, area) {
  if (area === 0n) return 0;
  if (count === 0n) return 1;
  if (count >= area) return 255;
  const v = 2n + (256n * count) / area;
  return Number(v > 254n ? 254n : v);
}

function tilePlan(m, n, level) {
  const key = `${m},${n},${level}`;
  let plan = plans.get(key);
  if (plan) return plan;
  const L = BigInt(level), side = 1n << L, mask = side - 1n;
  const M = m - 1n, N = n - 1n, ml = M & mask, nl = N & mask;
  plan = { m, n, level, L, side, M, N, mh: M >> L, nh: N >> L,
    rowClass: [ml + 1n, side - ml - 1n], colClass: [nl + 1n, side - nl - 1n], inter: lowIntersections(ml, nl, level) };
  // Shade of a pixel by (row block kind, column block kind, which of the four
  // class pairs match): kind 1 is the board's last, possibly short, block.
  const rowsOf = [side, m - plan.mh * side], colsOf = [side, n - plan.nh * side];
  plan.rowsOf = rowsOf; plan.colsOf = colsOf;
  plan.table = new Uint8Array(64);
  for (let rk = 0; rk < 2; rk++) for (let ck = 0; ck < 2; ck++) for (let bits = 0; bits < 16; bits++) {
    let count = 0n;
    for (let k = 0; k < 4; k++) if (bits & (1 << k)) count += plan.inter[k >> 1][k & 1];
    plan.table[rk * 32 + ck * 16 + bits] = shadeByte(count, rowsOf[rk] * colsOf[ck]);
  }
  if (plans.size > 64) plans.delete(plans.keys().next().value);
  plans.set(key, plan);
  return plan;
}

const TWO32 = 4294967296;
const split = (v) => [Number(v >> 32n), Number(v & MASK32)];

// The high halves q ^ (h - q - β) of blocks first..first+count for β = 0, 1,
// as (hi, lo) 32-bit pairs (exact: every value is below 2^62); `none` marks a
// class the block does not have. kind 1 marks the board's last block.
function highHalves(h, cls, first, count, none) {
  const hi = new Int32Array(2 * count), lo = new Int32Array(2 * count), kind = new Uint8Array(count);
  const [hH, hL] = split(h);
  let [qH, qL] = split(first);
  for (let d = 0; d < count; d++) {
    kind[d] = qH === hH && qL === hL ? 1 : 0;
    for (let b = 0; b < 2; b++) {
      let dL = hL - qL - b, dH = hH - qH;
      if (dL < 0) { dL += TWO32; dH -= 1; }
      if (dH >= 0 && cls[b] !== 0n) { hi[2 * d + b] = qH ^ dH; lo[2 * d + b] = qL ^ dL; } else { hi[2 * d + b] = none; lo[2 * d + b] = 0; }
    }
    if (++qL === TWO32) { qL = 0; qH++; }
  }
  return { hi, lo, kind };
}

// The signature a ^ (S - a) of each block's first line a = q·2^level, split.
function firstSignatures(S, L, first, count) {
  const hi = new Int32Array(count), lo = new Int32Array(count);
  const [sH, sL] = split(S), [stepH, stepL] = split(1n << L);
  let [aH, aL] = split(first << L);
  for (let d = 0; d < count; d++) {
    let dL = sL - aL, dH = sH - aH;
    if (dL < 0) { dL += TWO32; dH -= 1; }
    hi[d] = aH ^ dH; lo[d] = aL ^ dL;
    aL += stepL; aH += stepH;
    if (aL >= TWO32) { aL -= TWO32; aH++; }
  }
  return { hi, lo };
}

// Tile (tx, ty) of board C(m,n) at `level` in `mode`, as the server's bytes.
// With `keys` (density only), each pixel is instead 1 + its index into the
// plan's 64 (row kind, column kind, matching classes) cases: the exact count
// and area of its block (see shareOfKey).
function localTile(m, n, level, tx, ty, mode, out = new Uint8Array(TILE * TILE), keys = null) {
  const plan = tilePlan(m, n, level);
  out.fill(0);
  const q0 = ty * BigInt(TILE), p0 = tx * BigInt(TILE);
  if (q0 > plan.mh || p0 > plan.nh) return out;
  const rowsLeft = plan.mh - q0 + 1n, colsLeft = plan.nh - p0 + 1n;
  const rows = rowsLeft < BigInt(TILE) ? Number(rowsLeft) : TILE;
  const cols = colsLeft < BigInt(TILE) ? Number(colsLeft) : TILE;
  if (mode === 'nimsum') {
    const r = firstSignatures(plan.M, plan.L, q0, rows), c = firstSignatures(plan.N, plan.L, p0, cols);
    for (let dy = 0; dy < rows; dy++) {
      const rh = r.hi[dy], rl = r.lo[dy], base = dy * TILE;
      for (let dx = 0; dx < cols; dx++) {
        const hi = rh ^ c.hi[dx], lo = rl ^ c.lo[dx];
        out[base + dx] = 1 + (hi !== 0 ? 64 - Math.clz32(hi) : 32 - Math.clz32(lo));
      }
    }
    return out;
  }
  const r = highHalves(plan.mh, plan.rowClass, q0, rows, -1);
  const c = highHalves(plan.nh, plan.colClass, p0, cols, -2);
  // Each distinct column high half gets a small id, so a pixel costs four
  // integer comparisons; a row whose halves no column has (most rows at
  // fine levels) is one fill, and a row matched by a few columns visits
  // only those.
  const table = keys || plan.table, ck = c.kind;
  const ids = new Map(), members = [];
  const c0 = new Int32Array(cols), c1 = new Int32Array(cols);
  const idOf = (h, l, make) => {
    let list = ids.get(l);
    if (list) for (let k = 0; k < list.length; k += 2) if (list[k] === h) return list[k + 1];
    if (!make) return -1;
    if (!list) { list = []; ids.set(l, list); }
    list.push(h, members.length);
    members.push([]);
    return members.length - 1;
  };
  for (let dx = 0; dx < cols; dx++) {
    for (let b = 0; b < 2; b++) {
      const h = c.hi[2 * dx + b], id = h < 0 ? -2 : idOf(h, c.lo[2 * dx + b], true);
      if (b === 0) c0[dx] = id; else c1[dx] = id;
      if (id >= 0) members[id].push(dx);
    }
  }
  const lastKind = ck[cols - 1], seen = new Map();
  for (let dy = 0; dy < rows; dy++) {
    const h0 = r.hi[2 * dy], h1 = r.hi[2 * dy + 1];
    const r0 = h0 < 0 ? -1 : idOf(h0, r.lo[2 * dy], false), r1 = h1 < 0 ? -1 : idOf(h1, r.lo[2 * dy + 1], false);
    const rk = r.kind[dy] * 32, base = dy * TILE;
    // A line depends only on the row's ids and kind: copy an equal one.
    const key = ((r0 + 2) * 1024 + (r1 + 2)) * 2 + (rk ? 1 : 0), same = seen.get(key);
    if (same !== undefined) { out.copyWithin(base, same * TILE, same * TILE + cols); continue; }
    seen.set(key, dy);
    const n0 = r0 < 0 ? 0 : members[r0].length, n1 = r1 < 0 ? 0 : members[r1].length;
    if (n0 + n1 > 32) {
      for (let dx = 0; dx < cols; dx++) {
        const a = c0[dx], b = c1[dx];
        out[base + dx] = table[rk + ck[dx] * 16 + ((r0 === a ? 1 : 0) | (r0 === b ? 2 : 0) | (r1 === a ? 4 : 0) | (r1 === b ? 8 : 0))];
      }
      continue;
    }
    out.fill(table[rk], base, base + cols);
    if (lastKind) out[base + cols - 1] = table[rk + 16];
    for (let k = 0; k < n0 + n1; k++) {
      const dx = k < n0 ? members[r0][k] : members[r1][k - n0];
      const a = c0[dx], b = c1[dx];
      out[base + dx] = table[rk + ck[dx] * 16 + ((r0 === a ? 1 : 0) | (r0 === b ? 2 : 0) | (r1 === a ? 4 : 0) | (r1 === b ? 8 : 0))];
    }
  }
  return out;
}

// ---------- contrast-stretched shading ----------
// Zoomed far out, the shares of all blocks in view can agree to far below one
// step of the share shading (R(2^62-1) fitted: every pixel the same grey).
// Stretched, the distinct shares in view, in order, are spread evenly from
// white (the lowest) to black (the highest): by rank, so order is kept and
// distances are not (inside R(2^62-1) shares differ by one cell in 2^106,
// along its last, shorter blocks by far more). `nimscape square --window ...
// --colour-by share-stretched` draws the same pixels (stretched_weights in
// crates/model/src/pattern/tiles.rs holds the same integer rule).
const KEY_TABLE = Uint8Array.from({ length: 64 }, (_, i) => i + 1);
function shareOfKey(plan, key) {
  const rk = key >> 5, ck = (key >> 4) & 1, bits = key & 15;
  let count = 0n;
  for (let k = 0; k < 4; k++) if (bits & (1 << k)) count += plan.inter[k >> 1][k & 1];
  return [count, plan.rowsOf[rk] * plan.colsOf[ck]];
}
// Weights 0..255 of shares [count, area]: rank r of n distinct shares gets
// round(255 r / (n - 1)), exactly; null when all shares are equal.
function stretchWeights(shares) {
  const cmp = ([c1, a1], [c2, a2]) => { const l = c1 * a2, r = c2 * a1; return l < r ? -1 : l > r ? 1 : 0; };
  const distinct = [...shares].sort(cmp).filter((s, i, all) => i === 0 || cmp(all[i - 1], s) !== 0);
  const top = BigInt(distinct.length - 1);
  if (top === 0n) return null;
  return shares.map((s) => {
    const rank = BigInt(distinct.findIndex((d) => cmp(d, s) === 0));
    return Number((510n * rank + top) / (2n * top));
  });
}
// The board's pixels of a zoomed-out panel (cam.z > 0), stretched; computed in
// the page from the exact tile maths (the page's tiles are the server's bytes).
let stretchedBytes = null;
function drawStretched(ctx, canvas, cam) {
  const view = windowOf(canvas, cam);
  if (!view) return;
  const U = 1n << BigInt(cam.z + 8);
  const q0 = floorDiv(cam.cy, U) - BigInt(canvas.height >> 1) + BigInt(view.y);
  const p0 = floorDiv(cam.cx, U) - BigInt(canvas.width >> 1) + BigInt(view.x);
  const plan = tilePlan(cam.m, cam.m, cam.z);
  const keys = new Uint8Array(view.w * view.h), T = BigInt(TILE);
  for (let ty = q0 / T; ty <= (q0 + BigInt(view.h) - 1n) / T; ty++) {
    for (let tx = p0 / T; tx <= (p0 + BigInt(view.w) - 1n) / T; tx++) {
      stretchedBytes = localTile(cam.m, cam.m, cam.z, tx, ty, 'density', stretchedBytes || undefined, KEY_TABLE);
      for (let dy = 0; dy < TILE; dy++) {
        const y = Number(ty * T - q0) + dy;
        if (y < 0 || y >= view.h) continue;
        for (let dx = 0; dx < TILE; dx++) {
          const x = Number(tx * T - p0) + dx;
          if (x >= 0 && x < view.w) keys[y * view.w + x] = stretchedBytes[dy * TILE + dx];
        }
      }
    }
  }
  const present = [...new Set(keys)].filter((k) => k > 0);
  const shares = present.map((k) => shareOfKey(plan, k - 1));
  const weights = stretchWeights(shares);
  const colour = new Uint32Array(65);
  const share = palette32('density', cam.m);
  present.forEach((k, i) => {
    if (weights) colour[k] = new Uint32Array(Uint8ClampedArray.from([...mixRgb(OTHER_RGB, P_RGB, weights[i]), 255]).buffer)[0];
    else colour[k] = share[shadeByte(...shares[i])];
  });
  const image = ctx.createImageData(view.w, view.h), words = new Uint32Array(image.data.buffer);
  for (let i = 0; i < keys.length; i++) words[i] = colour[keys[i]];
  ctx.putImageData(image, view.x, view.y);
}

// A tile computed here, kept in a small cache (while the slider moves, each m
// is seen once); the canvases of evicted tiles are reused.
let scratchBytes = null;
function localCanvas(m, level, tx, ty, mode) {
  const key = tileKey(m, level, tx, ty, mode);
  let canvas = localTiles.get(key);
  if (canvas) return canvas;
  if (localTiles.size >= 96) {
    const oldest = localTiles.keys().next().value;
    canvas = localTiles.get(oldest);
    localTiles.delete(oldest);
  } else {
    canvas = document.createElement('canvas');
    canvas.width = canvas.height = TILE;
  }
  scratchBytes = localTile(m, m, level, tx, ty, mode, scratchBytes || undefined);
  paintTile(canvas, scratchBytes, mode, m);
  localTiles.set(key, canvas);
  return canvas;
}

function requestTile(m, level, tx, ty, mode) {
  const key = tileKey(m, level, tx, ty, mode);
  const have = tiles.get(key);
  if (have) return have;
  tiles.set(key, 'pending');
  fetchTile(key).then((bytes) => {
    // An exported page holds only some tiles: the others are computed here.
    if (!bytes) bytes = localTile(m, m, level, tx, ty, mode);
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = TILE;
    tiles.set(key, paintTile(canvas, bytes, mode, m));
    tileOrder.push(key);
    if (tileOrder.length > 1500) tiles.delete(tileOrder.shift());
    scheduleSquare();
  }).catch((err) => { tiles.set(key, 'failed'); tileError = err.message; scheduleSquare(); });
  return 'pending';
}

function fitCamera(canvas, m) {
  const w = BigInt(Math.min(canvas.width, canvas.height));
  let z = 0;
  if (m > w) { while ((w << BigInt(z)) < m) z++; } else { while (z > MIN_Z && (m << BigInt(1 - z)) <= w) z--; }
  return { z, cx: m * UNIT / 2n, cy: m * UNIT / 2n };
}

// A camera whose centre sits on a whole screen pixel: every tile then lands
// on whole pixels, and cell edges at zoom-in fall between pixels, so the view
// is exactly the image of `nimscape square --window` (see windowOf).
function snapped(cam) {
  const U = 1n << BigInt(cam.z + 8);
  return { ...cam, cx: floorDiv(cam.cx, U) * U, cy: floorDiv(cam.cy, U) * U };
}

function cameraFor(panel) {
  if (panel === 0) return snapped({ z: sq.z, cx: sq.cx, cy: sq.cy, m: sq.m });
  const m2 = 2n * sq.m + 1n;
  if (sq.sync === 'common') return snapped({ z: sq.z, cx: sq.cx, cy: sq.cy, m: m2 });
  // Fitted: the same share of each board, so R(2m+1) lines up with R(m) cell block by cell block.
  return snapped({ z: Math.min(sq.z + 1, MAX_Z), cx: sq.cx * m2 / sq.m, cy: sq.cy * m2 / sq.m, m: m2 });
}

// The part of a panel that is whole cells (or whole pixel blocks) of the
// board, and the `nimscape square --window` flags that draw exactly it:
// { x, y, w, h } on the canvas and the request's parameters; null when
// the board is off screen.
function windowOf(canvas, cam) {
  const U = 1n << BigInt(cam.z + 8);
  const px0 = floorDiv(cam.cx, U) - BigInt(canvas.width >> 1), py0 = floorDiv(cam.cy, U) - BigInt(canvas.height >> 1);
  const axis = (p0, size) => {
    if (cam.z >= 0) {
      const B = 1n << BigInt(cam.z), blocks = (cam.m - 1n) / B + 1n;
      const q0 = p0 < 0n ? 0n : p0, q1 = p0 + size < blocks ? p0 + size : blocks;
      if (q1 <= q0) return null;
      return { a: q0 * B, b: q1 * B < cam.m ? q1 * B : cam.m, at: q0 - p0, px: q1 - q0 };
    }
    const s = 1n << BigInt(-cam.z);
    let c0 = -floorDiv(-p0, s), c1 = floorDiv(p0 + size, s);
    if (c0 < 0n) c0 = 0n;
    if (c1 > cam.m) c1 = cam.m;
    if (c1 <= c0) return null;
    return { a: c0, b: c1, at: c0 * s - p0, px: (c1 - c0) * s };
  };
  const cols = axis(px0, BigInt(canvas.width)), rows = axis(py0, BigInt(canvas.height));
  if (!rows || !cols) return null;
  const params = { m: cam.m.toString(), window: `${rows.a + 1n}..${rows.b},${cols.a + 1n}..${cols.b}` };
  if (cam.z > 0) params.bin = (1n << BigInt(cam.z)).toString();
  if (cam.z < 0) params.cell = String(2 ** -cam.z);
  params['p-color'] = sq.mode === 'nimsum' ? 'white' : 'black';
  if (sq.mode === 'nimsum') params['colour-by'] = 'nim-sum';
  if (sq.mode === 'stretch') params['colour-by'] = 'share-stretched';
  if (sq.pass) params.overlay = 'nim-pass';
  if (sq.depth > 0) params.decompose = true;
  if (sq.depth > 1) params['decompose-depth'] = String(sq.depth);
  return { x: Number(cols.at), y: Number(rows.at), w: Number(cols.px), h: Number(rows.px), params };
}

function drawPanel(canvas, cam) {
  const ctx = canvas.getContext('2d');
  const W = canvas.width, H = canvas.height;
  ctx.imageSmoothingEnabled = false;
  ctx.clearRect(0, 0, W, H);
  const m = cam.m;
  const level = Math.min(Math.max(cam.z, 0), MAX_Z);
  const U = 1n << BigInt(cam.z + 8);                    // camera units per screen pixel
  const left = cam.cx - BigInt(W >> 1) * U, top = cam.cy - BigInt(H >> 1) * U;
  const T = 1n << BigInt(level + 16);                   // camera units per tile
  const scale = 2 ** (level - cam.z);                   // screen pixels per tile pixel
  const boardUnits = m * UNIT;
  const lastTile = floorDiv(boardUnits - 1n, T);
  const mode = sq.mode === 'nimsum' ? 'nimsum' : 'density';   // the tiles' mode
  const tx0 = left < 0n ? 0n : floorDiv(left, T), ty0 = top < 0n ? 0n : floorDiv(top, T);
  let tx1 = floorDiv(left + BigInt(W) * U - 1n, T), ty1 = floorDiv(top + BigInt(H) * U - 1n, T);
  if (tx1 > lastTile) tx1 = lastTile;
  if (ty1 > lastTile) ty1 = lastTile;
  let missing = 0;
  if (sq.mode === 'stretch' && cam.z > 0) drawStretched(ctx, canvas, cam);
  else for (let ty = ty0; ty <= ty1; ty++) {
    for (let tx = tx0; tx <= tx1; tx++) {
      const dx = Number((tx * T - left) / U), dy = Number((ty * T - top) / U);
      const size = TILE * scale;
      // While the m slider moves, tiles are computed here (no round trip per
      // frame); at rest they come from the server's model.
      const tile = sq.dragging ? localCanvas(m, level, tx, ty, mode) : requestTile(m, level, tx, ty, mode);
      if (tile instanceof HTMLCanvasElement) { ctx.drawImage(tile, dx, dy, size, size); continue; }
      missing++;
      // Meanwhile the same tile computed here (the same bytes), or a coarser
      // tile already loaded, stands in.
      const same = localTiles.get(tileKey(m, level, tx, ty, mode));
      if (same) { ctx.drawImage(same, dx, dy, size, size); continue; }
      for (let up = 1; up <= 4 && level + up <= MAX_Z; up++) {
        const parent = tiles.get(tileKey(m, level + up, tx >> BigInt(up), ty >> BigInt(up), mode));
        if (parent instanceof HTMLCanvasElement) {
          const part = TILE >> up, ox = Number(tx % (1n << BigInt(up))) * part, oy = Number(ty % (1n << BigInt(up))) * part;
          ctx.drawImage(parent, ox, oy, part, part, dx, dy, size, size);
          break;
        }
      }
    }
  }
  // Nim with a pass, from the server's solve (no closed form to compute here;
  // left out while the slider moves).
  if (sq.pass && !sq.dragging && !EMBED) {
    for (let ty = ty0; ty <= ty1; ty++) {
      for (let tx = tx0; tx <= tx1; tx++) {
        const tile = requestTile(m, level, tx, ty, 'pass');
        const dx = Number((tx * T - left) / U), dy = Number((ty * T - top) / U), size = TILE * scale;
        if (tile instanceof HTMLCanvasElement) ctx.drawImage(tile, dx, dy, size, size);
        else if (tile === 'pending') missing++;
      }
    }
  }
  // Board outline, just outside the board's pixels (a pixel partly on the board is on it).
  const ex = (c) => floorDiv(c * UNIT - left, U), ey = (c) => floorDiv(c * UNIT - top, U);
  const exUp = (c) => -floorDiv(left - c * UNIT, U), eyUp = (c) => -floorDiv(top - c * UNIT, U);
  ctx.fillStyle = '#888';
  const x0 = ex(0n) - 1n, y0 = ey(0n) - 1n, x1 = exUp(m) + 1n, y1 = eyUp(m) + 1n;
  fillClipped(ctx, W, H, x0, y0, x1 - x0, 1n);
  fillClipped(ctx, W, H, x0, y1 - 1n, x1 - x0, 1n);
  fillClipped(ctx, W, H, x0, y0, 1n, y1 - y0);
  fillClipped(ctx, W, H, x1 - 1n, y0, 1n, y1 - y0);
  if (sq.depth > 0) drawDecomposition(ctx, m, ex, ey, W, H);
  return missing;
}

// A rectangle in exact (BigInt) pixels, clipped to the canvas before it
// becomes a double: a block of a 2^62 board can be 2^70 pixels wide.
function fillClipped(ctx, W, H, x, y, w, h) {
  const clip = (v, hi) => (v < -1n ? -1n : v > hi ? hi : v);
  const xa = clip(x, BigInt(W) + 1n), ya = clip(y, BigInt(H) + 1n);
  const xb = clip(x + w, BigInt(W) + 1n), yb = clip(y + h, BigInt(H) + 1n);
  if (xb > xa && yb > ya) ctx.fillRect(Number(xa), Number(ya), Number(xb - xa), Number(yb - ya));
}

// Theorem 3.4: m = 2^(k+1) + s, blocks s, t, s with t = 2^(k+1) - s; corners
// are R(s,s), the centre R(t,t); then the same inside each, sq.depth levels.
// Whole-pixel rectangles by the integer rules of figure::square::window
// (outline), so `--decompose --decompose-depth D` draws the same pixels.
const OUTLINE_COLOURS = ['#d55e00', '#0072b2', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#f0e442', '#999999'];
function drawDecomposition(ctx, m, ex, ey, W, H) {
  const stack = [[0n, 0n, m, 1]];
  while (stack.length) {
    const [y0, x0, side, depth] = stack.pop();
    if (depth > sq.depth || side < 2n) continue;
    const px = ex(x0), py = ey(y0), ps = ex(x0 + side) - px;
    if (ps < 6n || px > BigInt(W) || py > BigInt(H) || px + ps < 0n || py + ps < 0n) continue;
    const topBit = 1n << BigInt(bitLength(side) - 1);
    const s = side - topBit, t = topBit - s;
    const blocks = s === 0n ? [] : [[y0, x0, s], [y0, x0 + s + t, s], [y0 + s + t, x0, s], [y0 + s + t, x0 + s + t, s]];
    blocks.push([y0 + s, x0 + s, t]);
    ctx.fillStyle = OUTLINE_COLOURS[(depth - 1) % OUTLINE_COLOURS.length];
    const lw = BigInt(depth === 1 ? 3 : depth <= 3 ? 2 : 1);
    for (const [by, bx, bs] of blocks) {
      const qx = ex(bx), qy = ey(by), qw = ex(bx + bs) - qx, qh = ey(by + bs) - qy;
      const lh = lw < qh ? lw : qh, lv = lw < qw ? lw : qw;
      fillClipped(ctx, W, H, qx, qy, qw, lh);
      fillClipped(ctx, W, H, qx, qy + qh - lh, qw, lh);
      fillClipped(ctx, W, H, qx, qy, lv, qh);
      fillClipped(ctx, W, H, qx + qw - lv, qy, lv, qh);
    }
    const children = s > 0n ? blocks.slice(0, 4).map(([y, x, b]) => [y, x, b, depth + 1]) : [];
    if (t < side) children.push([y0 + s, x0 + s, t, depth + 1]);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

// Theorem 3.4's status for every m, beside its decomposition: proved once by
// the server (`nimscape prove square --theorem decomposition`, when MONA is
// installed; the server keeps the verdict), or how to prove it.
let theoremStatus = null;
function showTheorem() {
  const box = $('sq-theorem');
  box.hidden = sq.depth === 0;
  if (box.hidden) return;
  const head = 'Theorem 3.4 (Okubo–Kashiwagi–Niida)';
  const command = 'nimscape prove square --theorem decomposition';
  let text;
  if (EMBED) {
    text = `${head}: drawn here for this m; to prove it for every m, run \`${command}\` (it needs MONA).`;
  } else if (theoremStatus === null) {
    theoremStatus = 'pending';
    text = `${head}: proving it for every m …`;
    fetch('/api/theorem/square.json?theorem=decomposition')
      .then((r) => (r.ok ? r.json() : r.text().then((t) => { throw new Error(t.trim()); })))
      .then((s) => { theoremStatus = s; showTheorem(); })
      .catch((err) => { theoremStatus = { verdict: 'not checked', how: err.message }; showTheorem(); });
  } else if (theoremStatus === 'pending') {
    return;
  } else if (theoremStatus.verdict === 'proved') {
    text = `${head}: proved for every m by \`${theoremStatus.command}\` (${theoremStatus.engine}, ${theoremStatus.seconds.toFixed(2)} s).`;
  } else if (theoremStatus.verdict === 'unavailable') {
    text = `${head}: drawn here for this m; to prove it for every m, install MONA (apt-get install mona) and run \`${theoremStatus.command}\`.`;
  } else {
    text = `${head}: ${theoremStatus.verdict}: ${theoremStatus.summary || theoremStatus.how || ''}`;
  }
  if (box.textContent !== text) box.textContent = text;
}

// The nim-sum bar: P, then one swatch per bit length of the nim-sum
// (k bits: nim-sums 2^(k-1) .. 2^k - 1) in the view's ramp. A label is drawn
// only where it clears the one before by a gap, so labels never run
// together however narrow the swatches; barLabels holds their boxes.
let barLabels = [];
function drawColourBar() {
  const bar = $('sq-bar');
  bar.hidden = sq.mode !== 'nimsum';
  barLabels = [];
  if (bar.hidden) return;
  const ctx = bar.getContext('2d');
  ctx.clearRect(0, 0, bar.width, bar.height);
  const pal = paletteFor('nimsum', sq.m);
  const top = rampTop(sq.m);
  const n = top + 1, w = bar.width / n;
  ctx.font = '11px sans-serif';
  ctx.textBaseline = 'alphabetic';
  const GAP = 8;
  let free = 0;
  for (let k = 0; k < n; k++) {
    const i = (k + 1) * 4;
    ctx.fillStyle = `rgb(${pal[i]},${pal[i + 1]},${pal[i + 2]})`;
    ctx.fillRect(Math.round(k * w), 0, Math.max(1, Math.round((k + 1) * w) - Math.round(k * w)), 16);
  }
  // P is white: a frame shows its swatch on the page.
  ctx.strokeStyle = '#888';
  ctx.strokeRect(0.5, 0.5, Math.max(1, Math.round(w) - 1), 15);
  ctx.fillStyle = '#222';
  for (let k = 0; k < n; k++) {
    const label = k === 0 ? 'P (0)' : k === 1 ? '1' : k <= 4 ? `${2 ** (k - 1)}–${2 ** k - 1}` : `2^${k - 1}–`;
    const width = Math.ceil(ctx.measureText(label).width);
    const x = Math.max(0, Math.min(Math.round(k * w + w / 2 - width / 2), bar.width - width));
    if (x < free || x + width > bar.width) continue;
    ctx.fillText(label, x, 30);
    barLabels.push({ text: label, x, width });
    free = x + width + GAP;
  }
}

// A zoomed-out view whose every pixel is one colour is correct but reads as
// broken: say why, and offer the stretched shading.
function explainUniform(ready) {
  const box = $('sq-uniform');
  let text = '';
  const view = ready && sq.z > 0 && sq.depth === 0 && !sq.pass ? windowOf($('sq-a'), cameraFor(0)) : null;
  if (view) {
    const words = new Uint32Array($('sq-a').getContext('2d').getImageData(view.x, view.y, view.w, view.h).data.buffer);
    if (words.length > 1 && words.every((w) => w === words[0])) {
      const block = `2^${sq.z} × 2^${sq.z}`;
      if (sq.mode === 'nimsum') {
        text = `Every pixel here has one colour, and that is correct: the nim-sum colouring samples the first cell of each ${block} block, and every one of them has the same nim-sum bit length here. Colour by P-cells with stretched shading to see how the blocks differ, or zoom in.`;
      } else if (sq.mode === 'density') {
        text = `Every pixel here has one grey, and that is correct: each ${block} block holds the same share of P-cells to within one of the shading's 253 steps. Shares that differ by less than a step look alike: stretched shading spreads the shares present, in order, over the whole scale (or says that they are all equal).`;
      } else {
        text = `Every pixel here has one grey, and that is correct: every ${block} block in view holds exactly the same share of P-cells, so there is nothing to stretch. Zoom in to see the cells.`;
      }
    }
  }
  $('sq-uniform-text').textContent = text;
  $('sq-stretch').hidden = sq.mode === 'stretch';
  box.hidden = !text;
}

let squareQueued = false;
function scheduleSquare() {
  if (squareQueued) return;
  squareQueued = true;
  requestAnimationFrame(() => { squareQueued = false; renderSquare(); });
}

// The command of the square view: one `nimscape square --window` per panel,
// drawing exactly the whole cells on screen (the browser test compares the
// downloads with the canvases). The downloads are those PNGs: from the
// server's /api, or in an exported page cut from the canvas itself.
function squareViews() {
  const out = [];
  const panels = sq.pair ? [$('sq-a'), $('sq-b')] : [$('sq-a')];
  panels.forEach((canvas, panel) => {
    const view = windowOf(canvas, cameraFor(panel));
    if (view) out.push({ canvas: canvas.id, ...view });
  });
  return out;
}

function setSquareCommand() {
  const box = $('downloads');
  box.textContent = '';
  if (sq.pass && (sq.z > 0 || (sq.pair && cameraFor(1).z > 0))) {
    // Zoomed out, the pass game's share per pixel is blended by the canvas:
    // --window draws the overlay one pixel per cell or more only. Say so
    // rather than fake it: the command is the whole board's figure.
    const params = { m: sq.m.toString(), overlay: 'nim-pass' };
    $('command').textContent = `${commandLine('square', params, [], `square-${sq.m}.png`)}   # the whole board with the overlay, not this view`;
    if (!EMBED) for (const ext of ['png', 'svg']) {
      const a = document.createElement('a');
      a.textContent = ext.toUpperCase();
      a.download = `square-${sq.m}.${ext}`;
      a.href = `/api/square.${ext}?${query(params)}`;
      box.appendChild(a);
    }
    return;
  }
  const views = squareViews();
  if (!views.length) { $('command').textContent = 'the board is off screen: press fit'; return; }
  const words = [];
  for (const view of views) {
    const stem = `square-${view.params.m}-window`;
    words.push(commandLine('square', view.params, [], `${stem}.png`));
    const label = views.length > 1 ? `PNG (${view.params.m})` : 'PNG';
    if (EMBED) {
      // The page's own pixels, cut from the canvas when asked: the image the command draws.
      const button = document.createElement('button');
      button.textContent = label;
      button.onclick = () => {
        const crop = document.createElement('canvas');
        crop.width = view.w; crop.height = view.h;
        crop.getContext('2d').drawImage($(view.canvas), view.x, view.y, view.w, view.h, 0, 0, view.w, view.h);
        const a = document.createElement('a');
        a.download = `${stem}.png`;
        a.href = crop.toDataURL('image/png');
        a.click();
      };
      box.appendChild(button);
    } else {
      const a = document.createElement('a');
      a.textContent = label;
      a.download = `${stem}.png`;
      a.href = `/api/square.png?${query(view.params)}`;
      box.appendChild(a);
    }
  }
  $('command').textContent = words.join(' && ');
}

function renderSquare() {
  const a = $('sq-a'), b = $('sq-b');
  // Keep the camera on whole pixels (see snapped), so what is read back is what is drawn.
  const sn = snapped(sq);
  sq.cx = sn.cx; sq.cy = sn.cy;
  b.hidden = !sq.pair;
  const started = performance.now();
  let missing = drawPanel(a, cameraFor(0));
  if (sq.pair) missing += drawPanel(b, cameraFor(1));
  drawColourBar();
  showTheorem();
  const level = Math.max(sq.z, 0);
  const shading = { density: ', shaded by the exact share of P-cells', stretch: ', shaded by the exact share of P-cells, stretched: the distinct shares in view in order, evenly from white (lowest) to black (highest)', nimsum: ', nim-sum of the block\'s first cell (sampled)' }[sq.mode];
  const scaleText = sq.z >= 0 ? `1 pixel = ${2n ** BigInt(sq.z)} x ${2n ** BigInt(sq.z)} cells${shading}` : `1 cell = ${2 ** -sq.z} pixels`;
  $('sq-status').textContent = `R(${sq.m},${sq.m}) · ${scaleText} · tile level ${level}${missing ? ` · loading ${missing} tiles` : ''} · drawn in ${(performance.now() - started).toFixed(1)} ms${tileError ? ` · ${tileError}` : ''}`;
  document.body.dataset.squareReady = missing === 0 ? '1' : '0';
  explainUniform(missing === 0 && !sq.dragging);
  // Time from navigation to the first complete square view (the "first paint" speed target).
  if (missing === 0 && window.nimscapeFirstPaint === undefined) window.nimscapeFirstPaint = performance.now();
  if (currentView === 'square') setSquareCommand();
  if (currentView === 'square') writeHash({ view: 'square', pass: sq.pass ? 1 : '', m: sq.m.toString(), z: sq.z, cx: sq.cx.toString(), cy: sq.cy.toString(), mode: sq.mode, depth: sq.depth, pair: sq.pair ? 1 : '', sync: sq.sync, fit: sq.fitted ? 1 : '' });
}

function setM(m, { dragging = false } = {}) {
  if (m < 1n) m = 1n;
  if (m > MAX_SIDE) m = MAX_SIDE;
  const old = sq.m;
  sq.m = m;
  tileError = '';
  if (sq.fitted) {
    Object.assign(sq, fitCamera($('sq-a'), m));
  } else {
    sq.cx = sq.cx * m / old;
    sq.cy = sq.cy * m / old;
  }
  sq.dragging = dragging;
  $('sq-m').value = m.toString();
  if (m <= BigInt($('sq-slider').max)) $('sq-slider').value = m.toString();
  scheduleSquare();
}

function zoomAt(canvas, px, py, dz) {
  const z = Math.min(Math.max(sq.z + dz, MIN_Z), MAX_Z);
  if (z === sq.z) return;
  const W = canvas.width, H = canvas.height;
  const U = 1n << BigInt(sq.z + 8), U2 = 1n << BigInt(z + 8);
  const offX = BigInt(Math.round(px - W / 2)), offY = BigInt(Math.round(py - H / 2));
  const ux = sq.cx + offX * U, uy = sq.cy + offY * U;   // the point under the cursor stays put
  sq.cx = ux - offX * U2;
  sq.cy = uy - offY * U2;
  sq.z = z;
  sq.fitted = false;
  scheduleSquare();
}

function cellAt(canvas, panel, px, py) {
  const cam = cameraFor(panel);
  const U = 1n << BigInt(cam.z + 8);
  const ux = cam.cx + BigInt(Math.floor(px - canvas.width / 2)) * U;
  const uy = cam.cy + BigInt(Math.floor(py - canvas.height / 2)) * U;
  return { m: cam.m, z: cam.z, row: floorDiv(uy, UNIT), col: floorDiv(ux, UNIT) };
}

let countTimer = null;
function readout(canvas, panel, ev) {
  const r = canvas.getBoundingClientRect();
  const px = (ev.clientX - r.left) * canvas.width / r.width, py = (ev.clientY - r.top) * canvas.height / r.height;
  const { m, z, row, col } = cellAt(canvas, panel, px, py);
  if (row < 0n || col < 0n || row >= m || col >= m) { $('sq-readout').textContent = `R(${m},${m}): outside the board`; return; }
  const i = row + 1n, j = col + 1n;
  const heaps = [i - 1n, j - 1n, m - i, m - j];
  const nim = heaps[0] ^ heaps[1] ^ heaps[2] ^ heaps[3];
  let text = `R(${m},${m})  (i, j) = (${i}, ${j})  heaps (${heaps.join(', ')})  nim-sum ${nim}  ${nim === 0n ? 'P' : 'N'}`;
  $('sq-readout').textContent = text;
  clearTimeout(countTimer);
  if (z > 0 && !EMBED) {
    const block = 1n << BigInt(z);
    const r0 = row - row % block, c0 = col - col % block;
    countTimer = setTimeout(async () => {
      const res = await fetch('/api/tiles/count?' + query({ m: m.toString(), r0: r0.toString(), r1: (r0 + block).toString(), c0: c0.toString(), c1: (c0 + block).toString() }));
      if (res.ok) $('sq-readout').textContent = `${text}\nthis pixel: rows ${r0 + 1n}..${r0 + block}, columns ${c0 + 1n}..${c0 + block}: ${(await res.text()).trim()} P-cells (exact)`;
    }, 120);
  }
}

function initSquare(state) {
  if (EMBED && EMBED.start) sq.m = BigInt(EMBED.start);
  if (state.m && parseBig(state.m)) sq.m = parseBig(state.m);
  sq.mode = ['nimsum', 'stretch'].includes(state.mode) ? state.mode : 'density';
  sq.depth = Math.min(Math.max(parseInt(state.depth || '0', 10) || 0, 0), 8);
  sq.pair = state.pair === '1';
  sq.pass = state.pass === '1';
  sq.sync = state.sync === 'common' ? 'common' : 'fit';
  Object.assign(sq, fitCamera($('sq-a'), sq.m));
  if (state.z !== undefined && state.fit !== '1' && parseBig(state.cx) !== null && parseBig(state.cy) !== null) {
    sq.z = Math.min(Math.max(parseInt(state.z, 10) || 0, MIN_Z), MAX_Z);
    sq.cx = parseBig(state.cx); sq.cy = parseBig(state.cy); sq.fitted = false;
  }
  $('sq-m').value = sq.m.toString();
  $('sq-mode').value = sq.mode; $('sq-depth').value = sq.depth; $('sq-pair').checked = sq.pair; $('sq-pass').checked = sq.pass; $('sq-sync').value = sq.sync;
  const slider = $('sq-slider');
  if (sq.m > BigInt(slider.max) && sq.m < 1000000n) { slider.max = (sq.m * 2n).toString(); $('sq-slider-max').value = slider.max; }
  slider.value = sq.m.toString();

  $('sq-m').addEventListener('change', () => {
    const m = parseBig($('sq-m').value);
    if (m === null || m < 1n || m > MAX_SIDE) { $('sq-status').textContent = `m must be a whole number from 1 to 2^62 = ${MAX_SIDE}`; return; }
    setM(m);
  });
  $('sq-inc').onclick = () => setM(sq.m + 1n);
  $('sq-dec').onclick = () => setM(sq.m - 1n);
  slider.addEventListener('input', () => setM(BigInt(slider.value), { dragging: true }));
  slider.addEventListener('change', () => setM(BigInt(slider.value)));
  $('sq-slider-max').addEventListener('change', () => { slider.max = String(Math.max(2, parseInt($('sq-slider-max').value, 10) || 64)); });
  $('sq-2m1').onclick = () => setM(2n * sq.m + 1n);
  $('sq-2m-1').onclick = () => setM(2n * sq.m - 1n);
  $('sq-half').onclick = () => setM(sq.m / 2n);
  $('sq-pow').onclick = () => {
    const k = BigInt(Math.min(Math.max(parseInt($('sq-k').value, 10) || 0, 0), 61));
    const s = BigInt(parseInt($('sq-s').value, 10) || 0);
    setM((1n << k) + s);
  };
  $('sq-mode').onchange = () => { sq.mode = $('sq-mode').value; scheduleSquare(); };
  $('sq-stretch').onclick = () => { sq.mode = $('sq-mode').value = 'stretch'; scheduleSquare(); };
  $('sq-depth').onchange = () => { sq.depth = Math.min(Math.max(parseInt($('sq-depth').value, 10) || 0, 0), 8); scheduleSquare(); };
  $('sq-pass').onchange = () => { sq.pass = $('sq-pass').checked; scheduleSquare(); };
  $('sq-pair').onchange = () => { sq.pair = $('sq-pair').checked; scheduleSquare(); };
  $('sq-sync').onchange = () => { sq.sync = $('sq-sync').value; scheduleSquare(); };
  $('sq-fit').onclick = () => { sq.fitted = true; Object.assign(sq, fitCamera($('sq-a'), sq.m)); scheduleSquare(); };
  $('sq-zin').onclick = () => zoomAt($('sq-a'), $('sq-a').width / 2, $('sq-a').height / 2, -1);
  $('sq-zout').onclick = () => zoomAt($('sq-a'), $('sq-a').width / 2, $('sq-a').height / 2, 1);

  [$('sq-a'), $('sq-b')].forEach((canvas, panel) => {
    let drag = null;
    canvas.addEventListener('pointerdown', (ev) => { drag = { x: ev.clientX, y: ev.clientY }; canvas.setPointerCapture(ev.pointerId); });
    canvas.addEventListener('pointerup', () => { drag = null; });
    canvas.addEventListener('pointermove', (ev) => {
      readout(canvas, panel, ev);
      if (!drag) return;
      const r = canvas.getBoundingClientRect();
      const dx = Math.round((ev.clientX - drag.x) * canvas.width / r.width), dy = Math.round((ev.clientY - drag.y) * canvas.height / r.height);
      if (!dx && !dy) return;
      drag = { x: ev.clientX, y: ev.clientY };
      // Both panels pan as one picture: move panel 0's camera in its own units.
      const U = 1n << BigInt(sq.z + 8);
      sq.cx -= BigInt(dx) * U; sq.cy -= BigInt(dy) * U;
      sq.fitted = false;
      scheduleSquare();
    });
    canvas.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      const r = canvas.getBoundingClientRect();
      zoomAt(canvas, (ev.clientX - r.left) * canvas.width / r.width, (ev.clientY - r.top) * canvas.height / r.height, ev.deltaY > 0 ? 1 : -1);
    }, { passive: false });
  });
}

// ---------- figure views through the /api mirror ----------
// Only the latest request for an image may change it: answers can arrive out of order.
async function showFigure(img, path, errorBox) {
  const token = (img.nimscapeToken = (img.nimscapeToken || 0) + 1);
  const got = await fetchFigure(path);
  if (img.nimscapeToken !== token) { if (got.owned) URL.revokeObjectURL(got.url); return 'stale'; }
  if (got.error) {
    if (errorBox) { errorBox.hidden = false; errorBox.textContent = got.error; }
    img.dataset.state = 'error';
    return false;
  }
  if (errorBox) errorBox.hidden = true;
  await new Promise((resolve) => {
    img.onload = img.onerror = resolve;
    const old = img.dataset.owned === '1' ? img.src : null;
    img.src = got.url;
    img.dataset.owned = got.owned ? '1' : '';
    if (old) setTimeout(() => URL.revokeObjectURL(old), 1000);
  });
  img.dataset.state = 'ready';
  return true;
}

// Automaton: frame slider, play/pause, modulus, palette.
const au = { n: 16, p: 2, palette: 'viridis', playing: false };
function automatonParams() {
  const params = { frames: au.n, modulus: au.p };
  if (au.p > 2) params.palette = au.palette;
  return params;
}
let auBusy = false;
async function renderAutomaton() {
  const params = automatonParams();
  $('au-n').value = au.n; $('au-slider').value = au.n; $('au-p').value = au.p; $('au-palette').value = au.palette;
  setDownloads('automaton', params, [], ['png', 'svg', 'pdf', 'csv'], `automaton-${au.n}`);
  writeHash({ view: 'automaton', n: au.n, p: au.p, palette: au.palette });
  $('au-check').textContent = au.p === 2
    ? `Odd cells of frame ${au.n} are the P-positions of C(${au.n},${au.n}); check frames 1..${au.n}: nimscape automaton --frames ${au.n} --check`
    : '';
  auBusy = true;
  await showFigure($('au-img'), `automaton.png?${query(params)}`, null);
  auBusy = false;
}
function initAutomaton(state) {
  au.n = Math.max(1, parseInt(state.n || '16', 10) || 16);
  au.p = Math.max(2, parseInt(state.p || '2', 10) || 2);
  au.palette = state.palette || 'viridis';
  $('au-slider').max = String(EMBED ? Math.max(1, EMBED.frames) : Math.max(au.n, 128));
  if (EMBED) au.n = Math.min(au.n, Math.max(1, EMBED.frames));
  $('au-slider').addEventListener('input', () => { au.n = parseInt($('au-slider').value, 10); if (!auBusy) renderAutomaton(); });
  $('au-slider').addEventListener('change', () => { au.n = parseInt($('au-slider').value, 10); renderAutomaton(); });
  $('au-n').onchange = () => { au.n = Math.max(1, parseInt($('au-n').value, 10) || 1); renderAutomaton(); };
  $('au-max').onchange = () => { $('au-slider').max = $('au-max').value; };
  $('au-p').onchange = () => { au.p = Math.max(2, parseInt($('au-p').value, 10) || 2); renderAutomaton(); };
  $('au-palette').onchange = () => { au.palette = $('au-palette').value; renderAutomaton(); };
  $('au-play').onclick = async () => {
    au.playing = !au.playing;
    $('au-play').textContent = au.playing ? 'pause' : 'play';
    while (au.playing && currentView === 'automaton') {
      const max = parseInt($('au-slider').max, 10);
      au.n = au.n >= max ? 1 : au.n + 1;
      await renderAutomaton();
      await new Promise((r) => setTimeout(r, 60));
    }
  };
}

// Octahedron: the level slider (exact fractions k/4096), aligned section, 3D view by dragging.
const oc = { n: 4, k: 1408, align: false, azimuth: 30, elevation: 25 };
const OC_STEPS = 4096;
const gcd = (a, b) => { while (b) [a, b] = [b, a % b]; return a; };
// The slider's level k/4096 in lowest terms, and as H(n,m) when the plane
// z = 1 - r is a level m = r·2^n of S_n (whole, or a half level m.5).
function ocLevel() {
  const g = gcd(oc.k, OC_STEPS) || 1;
  const num = oc.k / g, den = OC_STEPS / g;
  const twice = oc.k * 2 ** (oc.n + 1) / OC_STEPS;   // 2m
  let level = null;
  if (Number.isInteger(twice) && twice >= 2 && twice <= 2 ** (oc.n + 1)) level = twice % 2 === 0 ? String(twice / 2) : `${(twice - 1) / 2}.5`;
  return { fraction: den === 1 ? String(num) : `${num}/${den}`, level };
}
function octahedronParams() {
  const { fraction, level } = ocLevel();
  const params = { n: oc.n };
  if (level !== null) params.level = level; else params.r = fraction;
  if (oc.align) params.align = true;
  params.panel = 480;
  return params;
}
function viewParams(size) {
  const n = Math.min(oc.n, 4);
  const params = { n, azimuth: oc.azimuth, elevation: oc.elevation, width: size };
  // The plane can be drawn at whole and half levels m of S_n.
  const twice = oc.k * 2 ** (n + 1) / OC_STEPS;
  if (Number.isInteger(twice) && twice > 0) params.plane = twice % 2 === 0 ? String(twice / 2) : `${(twice - 1) / 2}.5`;
  return params;
}
let ocBusy = false, ocView = null;
async function renderOctahedron({ coarse = false } = {}) {
  const params = octahedronParams();
  const { fraction, level } = ocLevel();
  $('oc-rtext').textContent = `r = ${fraction} = ${(oc.k / OC_STEPS).toFixed(6)}${level !== null ? ` · the section H(${oc.n},${level})` : ` (level m = r·2^${oc.n} = ${oc.k * 2 ** oc.n / OC_STEPS})`}`;
  setDownloads('octahedron/section', params, [], ['png', 'svg', 'pdf', 'csv'], `octahedron-${oc.n}-section`);
  // The 3D picture beside it is a second command.
  $('command').textContent += ` && ${commandLine('octahedron/view', viewParams(480), [], `octahedron-${Math.min(oc.n, 4)}-view.png`)}`;
  writeHash({ view: 'octahedron', n: oc.n, k: oc.k, align: oc.align ? 1 : '', azimuth: oc.azimuth, elevation: oc.elevation });
  ocBusy = true;
  await Promise.all([
    showFigure($('oc-section'), `octahedron/section.png?${query(params)}`, null),
    showFigure($('oc-view'), `octahedron/view.png?${query(viewParams(coarse ? 240 : 480))}`, null),
  ]);
  ocBusy = false;
}
function initOctahedron(state) {
  oc.n = Math.min(Math.max(parseInt(state.n || '4', 10) || 4, 0), 60);
  oc.k = Math.min(Math.max(parseInt(state.k || '1408', 10) || 0, 0), OC_STEPS);
  oc.align = state.align === '1';
  oc.azimuth = parseFloat(state.azimuth || '30') || 30;
  oc.elevation = parseFloat(state.elevation || '25') || 25;
  $('oc-n').value = oc.n; $('oc-r').value = oc.k; $('oc-align').checked = oc.align;
  $('oc-r').addEventListener('input', () => { oc.k = parseInt($('oc-r').value, 10); if (!ocBusy) renderOctahedron({ coarse: true }); });
  $('oc-r').addEventListener('change', () => { oc.k = parseInt($('oc-r').value, 10); renderOctahedron(); });
  $('oc-n').onchange = () => { oc.n = Math.min(Math.max(parseInt($('oc-n').value, 10) || 0, 0), 60); renderOctahedron(); };
  $('oc-align').onchange = () => { oc.align = $('oc-align').checked; renderOctahedron(); };
  const img = $('oc-view');
  img.draggable = false;
  // A view's page is as tall as its solid, which changes as it turns: while it is
  // dragged, the picture keeps the box it had (scaled inside it), so the page
  // under it does not jump; let go, it takes its own height again.
  img.addEventListener('pointerdown', (ev) => {
    ocView = { x: ev.clientX, y: ev.clientY };
    img.setPointerCapture(ev.pointerId);
    img.style.width = `${img.clientWidth}px`; img.style.height = `${img.clientHeight}px`; img.style.objectFit = 'contain';
  });
  img.addEventListener('pointermove', (ev) => {
    if (!ocView) return;
    oc.azimuth = Math.round((oc.azimuth - (ev.clientX - ocView.x) * 0.5) % 360);
    oc.elevation = Math.round(Math.min(89, Math.max(-89, oc.elevation + (ev.clientY - ocView.y) * 0.5)));
    ocView = { x: ev.clientX, y: ev.clientY };
    if (!ocBusy) renderOctahedron({ coarse: true });
  });
  img.addEventListener('pointerup', () => {
    ocView = null;
    img.style.width = img.style.height = img.style.objectFit = '';
    renderOctahedron();
  });
}

// Grundy: a built-in game, a cap expression, a game file on the server (a
// link's game=NAME.toml) or one written in the page; its parameters, box,
// slice, table / points / 3D points / sieve. Every control shows what the
// picture draws: the page sends every value it shows (the box and each
// parameter, defaults included), and takes a game's parameters and default
// box from the server (/api/game.json) when the game is chosen.
const gr = { game: 'triangular', cap: 'floor((x+z)/3)', params: {}, box: '10', plot: 'table', sliceName: 'z', slice: 5, pasted: null, info: null, given: {} };
const BUILT_IN = ['triangular', 'min-half', 'band-7-1', 'band-7-2', 'nim-pass', 'nim', 'cap'];
// A pasted game file (gr.pasted: the server's answer {id, name, heaps, params, box}):
// its figures name the file, so the command reads it from a file of that name.
const isFileGame = (game) => game === 'file' || /\.toml$/.test(game);
const grHeaps = () => (gr.info ? gr.info.heaps : []);
// The bound of coordinate `name` in the box the page sends ("10" or "20,10,20").
function boxBound(name) {
  const parts = gr.box.split(',').map((v) => parseInt(v, 10));
  if (parts.some((v) => !(v >= 0))) return null;
  if (parts.length === 1) return parts[0];
  const i = grHeaps().indexOf(name);
  return i >= 0 && i < parts.length ? parts[i] : null;
}
// What the picture shows: a slice for a table or a 2D point plot of a game of
// three heaps or more; 3D points and the sieve show the whole box.
const grSliced = () => grHeaps().length >= 3 && (gr.plot === 'table' || gr.plot === 'points');
function grundyParams() {
  if (!gr.info) return null;
  const params = {};
  if (gr.game === 'cap') params.cap = gr.cap;
  else params.game = gr.game === 'file' ? gr.pasted.name : gr.game;
  const names = Object.keys(gr.info.params);
  if (isFileGame(gr.game)) {
    if (names.length) params.param = names.map((n) => `${n}=${gr.params[n]}`).join(',');
  } else {
    for (const n of names) params[n] = gr.params[n];
  }
  params.box = gr.box;
  const heaps = grHeaps().length;
  params.plot = heaps < 3 && gr.plot !== 'table' ? 'points' : gr.plot;
  if (grSliced()) params.slice = `${gr.sliceName}=${gr.slice}`;
  return params;
}
// Sends the game file in the text area to the server, which compiles it with
// the game-file parser and keeps it; a game that does not compile shows the
// parser's one line.
// The "save the game file" link: the text area's text under the file name the command uses.
function updateSaveLink() {
  const save = $('gr-file-save');
  if (save.dataset.owned) URL.revokeObjectURL(save.href);
  save.href = URL.createObjectURL(new Blob([$('gr-file-text').value], { type: 'text/plain' }));
  save.dataset.owned = '1';
  save.download = $('gr-file-name').value.trim();
}
async function pasteGame() {
  const name = $('gr-file-name').value.trim(), text = $('gr-file-text').value;
  updateSaveLink();
  let answer;
  try {
    answer = await fetch(`/api/games?${query({ name })}`, { method: 'POST', body: text });
  } catch (e) {
    answer = null;
  }
  if (!answer || !answer.ok) {
    gr.pasted = null;
    gr.info = null;
    $('gr-error').hidden = false;
    $('gr-error').textContent = answer ? (await answer.text()).trim() : 'the server cannot be reached';
    $('gr-img').dataset.state = 'error';
    return false;
  }
  gr.pasted = await answer.json();
  try { sessionStorage.setItem(`nimscape-game-${gr.pasted.id}`, JSON.stringify({ name, text })); } catch (e) { /* private mode */ }
  // Values already set (by hand or by a link) stay when the game is drawn again.
  gr.given = { ...gr.params, ...gr.given };
  takeGameInfo({ heaps: gr.pasted.heaps, params: gr.pasted.params, box: gr.pasted.box ? gr.pasted.box.join(',') : null });
  return true;
}
// A game's parameters and default box, from the server: the values a link or
// the user gave (gr.given) stay, the others start at the game's defaults.
function takeGameInfo(info) {
  gr.info = info;
  const params = {};
  for (const [n, v] of Object.entries(info.params)) params[n] = n in gr.given ? gr.given[n] : String(v);
  gr.params = params;
  if (!('box' in gr.given) && info.box) gr.box = info.box;
  if (info.heaps.length >= 3 && !info.heaps.includes(gr.sliceName)) gr.sliceName = info.heaps[info.heaps.length - 1];
  gr.given = {};
  showGrundyControls();
}
async function loadGameInfo() {
  if (gr.game === 'file') return;
  const game = gr.game;
  let info = null, error = '';
  try {
    const response = await fetch(`/api/game.json?${query({ game: game === 'cap' ? 'cap' : game })}`);
    if (response.ok) info = await response.json(); else error = (await response.text()).trim();
  } catch (e) { error = 'the server cannot be reached'; }
  if (gr.game !== game) return;
  if (!info) { gr.info = null; $('gr-error').hidden = false; $('gr-error').textContent = error; return; }
  takeGameInfo(info);
}
// The controls of the chosen game: its parameters (one field each), box,
// the kinds of picture it has, and the slice slider of a three-heap game.
function showGrundyControls() {
  const select = $('gr-game');
  if (!BUILT_IN.includes(gr.game) && gr.game !== 'file' && ![...select.options].some((o) => o.value === gr.game)) {
    // A game file on the server, named by a link.
    const option = document.createElement('option');
    option.value = option.textContent = gr.game;
    select.insertBefore(option, select.querySelector('option[value=file]'));
  }
  select.value = gr.game;
  $('gr-file-box').hidden = gr.game !== 'file';
  $('gr-cap-label').hidden = gr.game !== 'cap';
  const box = $('gr-params');
  box.textContent = '';
  for (const [n, v] of Object.entries(gr.params)) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.id = `gr-param-${n}`;
    input.type = 'number';
    input.value = v;
    input.style.width = '4em';
    input.onchange = () => { gr.params[n] = String(parseInt(input.value, 10) || 0); renderGrundy(); };
    label.append(`${n} `, input);
    box.appendChild(label);
  }
  $('gr-box').value = gr.box;
  const heaps = grHeaps();
  for (const o of $('gr-plot').options) o.hidden = heaps.length < 3 && (o.value === 'points3d' || o.value === 'sieve');
  if (heaps.length < 3 && (gr.plot === 'points3d' || gr.plot === 'sieve')) gr.plot = 'points';
  $('gr-plot').value = gr.plot;
  $('gr-slice-box').hidden = heaps.length < 3;
  const names = $('gr-slice-name');
  if (names.dataset.heaps !== heaps.join(',')) {
    names.textContent = '';
    for (const h of heaps) { const o = document.createElement('option'); o.value = o.textContent = h; names.appendChild(o); }
    names.dataset.heaps = heaps.join(',');
  }
  if (heaps.length >= 3) {
    names.value = gr.sliceName;
    const bound = boxBound(gr.sliceName);
    if (bound !== null) { $('gr-slice').max = String(bound); gr.slice = Math.min(gr.slice, bound); }
    $('gr-slice').value = String(gr.slice);
    $('gr-slice-v').textContent = `${gr.sliceName} = ${gr.slice}${bound !== null ? ` of 0..${bound}` : ''}`;
    const sliced = grSliced();
    $('gr-slice').disabled = names.disabled = !sliced;
    $('gr-slice-note').textContent = sliced ? '' : '(3D points and the sieve show the whole box: pick table or points to step through slices)';
  }
}
async function renderGrundy() {
  if (gr.game === 'file' && !gr.pasted && gr.repaste) { gr.repaste = false; await pasteGame(); }
  if (!gr.info && gr.game !== 'file') await loadGameInfo();
  if (gr.info) showGrundyControls(); else { $('gr-file-box').hidden = gr.game !== 'file'; $('gr-cap-label').hidden = gr.game !== 'cap'; }
  const params = grundyParams();
  $('gr-img').hidden = !params;
  if (!params) {
    $('downloads').textContent = '';
    $('command').textContent = gr.game === 'file' ? 'write or paste a game file, then press "draw this game"' : '';
    return;
  }
  const extra = gr.game === 'file' ? { pasted: gr.pasted.id } : {};
  const stem = isFileGame(gr.game) ? `grundy-${params.game.replace(/^.*\//, '').replace(/\.toml$/, '')}` : `grundy-${gr.game}`;
  setDownloads('grundy', params, ['game'], ['png', 'svg', 'pdf', 'csv', 'json'], stem, extra);
  writeHash({ view: 'grundy', ...params, ...extra });
  // Not 'ready' until this picture is (the command above already names it).
  $('gr-img').dataset.state = 'loading';
  const ok = await showFigure($('gr-img'), `grundy.png?${query({ ...params, ...extra })}`, $('gr-error'));
  if (ok === true) await loadGrundyHover({ ...params, ...extra });
  if (ok === false) {
    // Point at the column a cap expression error names.
    const col = /column (\d+)/.exec($('gr-error').textContent);
    if (col && gr.game === 'cap') $('gr-error').textContent += `\n${gr.cap}\n${' '.repeat(Math.max(0, parseInt(col[1], 10) - 1))}^`;
  }
}
// Hover readout: where the table's cells are in the PNG (from the figure's
// own scene, /api/layout/grundy.json) and the values (the figure's data,
// /api/grundy.json), both for exactly the flags of the picture on screen.
let grHover = null;
async function loadGrundyHover(params) {
  grHover = null;
  document.body.dataset.grundyHover = '0';
  const token = ($('gr-img').nimscapeHover = ($('gr-img').nimscapeHover || 0) + 1);
  if (EMBED || params.plot !== 'table') { $('gr-readout').textContent = params.plot === 'table' ? '' : 'switch to the table to read values by hovering'; return; }
  const get = async (path) => { const r = await fetch(path); return r.ok ? r.json() : null; };
  const [layout, data] = await Promise.all([get(`/api/layout/grundy.json?${query(params)}`), get(`/api/grundy.json?${query(params)}`)]);
  if (token !== $('gr-img').nimscapeHover || !layout || !data || !layout.grids.length) return;
  const fixed = data.slice || {};
  const values = new Map(data.positions.map((p) => [p.slice(0, -1).join(','), p[p.length - 1]]));
  const free = data.coordinates.filter((c) => !(c in fixed));
  // The table keeps only the rows and columns that hold positions of the
  // game (all of the box when none does): it starts at their smallest values.
  const first = (c) => { const i = data.coordinates.indexOf(c); return data.positions.reduce((lo, p) => Math.min(lo, p[i]), Infinity); };
  const start = free.map((c) => (data.positions.length ? first(c) : 0));
  grHover = { grid: layout.grids[0], width: layout.width, coords: data.coordinates, fixed, free, start, values };
  $('gr-readout').textContent = 'hover a cell of the table';
  document.body.dataset.grundyHover = '1';
}

function grundyReadout(ev) {
  if (!grHover) return;
  const img = $('gr-img'), box = img.getBoundingClientRect();
  const inner = img.clientWidth || box.width, scale = grHover.width / inner;
  const px = (ev.clientX - box.left - img.clientLeft) * scale, py = (ev.clientY - box.top - img.clientTop) * scale;
  const g = grHover.grid, ox = px - g.x, oy = py - g.y;
  if (ox < 0 || oy < 0 || ox >= g.width || oy >= g.height) { $('gr-readout').textContent = 'hover a cell of the table'; return; }
  // The scene's cell edges: edge k of n over a span s is floor(k·s/n).
  const index = (off, n, span) => { let k = Math.floor(off * n / span); while (k > 0 && Math.floor(k * span / n) > off) k--; while (k + 1 < n && Math.floor((k + 1) * span / n) <= off) k++; return k; };
  const row = index(oy, g.rows, g.height), col = index(ox, g.cols, g.width);
  const [fr, fc] = grHover.free, r = grHover.start[0] + row - 1, k = grHover.start[1] + col - 1;
  if (row === 0 || col === 0) { $('gr-readout').textContent = row === 0 && col === 0 ? '' : row === 0 ? `${fc} = ${k}` : `${fr} = ${r}`; return; }
  const point = grHover.coords.map((c) => (c in grHover.fixed ? grHover.fixed[c] : c === fr ? r : c === fc ? k : 0));
  const value = grHover.values.get(point.join(','));
  const where = `(${grHover.coords.join(', ')}) = (${point.join(', ')})`;
  $('gr-readout').textContent = value === undefined ? `${where}: not a position of this game` : `${where}: Grundy value ${value} (${value === 0 ? 'P' : 'N'})`;
}

function initGrundy(state) {
  $('gr-img').addEventListener('mousemove', grundyReadout);
  // What a link gives is kept over the game's defaults (gr.given).
  const given = {};
  if (state.cap) { gr.game = 'cap'; gr.cap = state.cap; } else if (state.pasted) {
    // A pasted game: its text comes back from this tab's storage, then from the server's memory.
    gr.game = 'file';
    let kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(`nimscape-game-${state.pasted}`) || 'null'); } catch (e) { kept = null; }
    if (kept) { $('gr-file-text').value = kept.text; $('gr-file-name').value = kept.name; gr.repaste = true; }
  } else if (state.game) gr.game = state.game;
  if (state.param) for (const part of state.param.split(',')) { const [n, v] = part.split('='); if (n && v !== undefined) given[n.trim()] = v.trim(); }
  for (const n of ['k', 'h']) if (state[n]) given[n] = state[n];
  if (state.box) { gr.box = state.box; given.box = true; }
  if (state.plot) gr.plot = state.plot;
  if (state.slice) {
    const [n, v] = state.slice.split('=');
    gr.sliceName = n; gr.slice = parseInt(v, 10) || 0;
  }
  gr.given = given;
  $('gr-cap').value = gr.cap; $('gr-box').value = gr.box; $('gr-plot').value = gr.plot;
  const chooseGame = (game) => {
    gr.game = game; gr.info = null; gr.given = {};
    if (game === 'file' && gr.pasted) takeGameInfo({ heaps: gr.pasted.heaps, params: gr.pasted.params, box: gr.pasted.box ? gr.pasted.box.join(',') : null });
    renderGrundy();
  };
  $('gr-game').onchange = () => chooseGame($('gr-game').value);
  $('gr-file-use').onclick = async () => { if (await pasteGame()) renderGrundy(); };
  $('gr-file-text').addEventListener('change', updateSaveLink);
  $('gr-file-name').addEventListener('change', updateSaveLink);
  if (!EMBED) updateSaveLink();
  $('gr-cap').onchange = () => { gr.cap = $('gr-cap').value; renderGrundy(); };
  $('gr-box').onchange = () => { gr.box = $('gr-box').value.replace(/\s+/g, ''); renderGrundy(); };
  $('gr-plot').onchange = () => { gr.plot = $('gr-plot').value; renderGrundy(); };
  $('gr-slice-name').onchange = () => { gr.sliceName = $('gr-slice-name').value; renderGrundy(); };
  $('gr-slice').addEventListener('input', () => { gr.slice = parseInt($('gr-slice').value, 10); renderGrundy(); });
}

// ---------- views ----------
let currentView = 'square';
function show(view) {
  currentView = view;
  for (const v of ['square', 'automaton', 'octahedron', 'grundy']) $(`view-${v}`).hidden = v !== view;
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.view === view);
  if (view === 'square') scheduleSquare();
  if (view === 'automaton') renderAutomaton();
  if (view === 'octahedron') renderOctahedron();
  if (view === 'grundy') renderGrundy();
}

function start() {
  const state = readHash();
  initSquare(state.view === 'square' || !state.view ? state : {});
  initAutomaton(state.view === 'automaton' ? state : {});
  initOctahedron(state.view === 'octahedron' ? state : {});
  initGrundy(state.view === 'grundy' ? state : {});
  for (const b of document.querySelectorAll('#tabs button')) b.onclick = () => show(b.dataset.view);
  $('copy').onclick = () => navigator.clipboard && navigator.clipboard.writeText($('command').textContent);
  const hidden = (EMBED && EMBED.hide) || [];
  for (const v of hidden) document.querySelector(`#tabs button[data-view=${v}]`).hidden = true;
  if (EMBED && EMBED.note) { $('offline-note').textContent = EMBED.note; $('offline-note').hidden = false; }
  const views = ['square', 'automaton', 'octahedron', 'grundy'].filter((v) => !hidden.includes(v));
  show(views.includes(state.view) ? state.view : 'square');
}

// For tests and scripts: the model's answer for a cell, and the view state.
window.nimscape = { sq, show, setM, zoomAt, cellAt, tiles, localTile, grundyHover: () => grHover, squareViews, barLabels: () => barLabels };
start();
