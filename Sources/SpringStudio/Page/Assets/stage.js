// The studio page's stage (Reference §10.16 "Seeing"): the phone of each panel drawn at the
// display's rate with the replay's frames interpolated, in the fitted view or at actual size
// (1 pt = 1 CSS px), and a magnifier over the region that moves most, the same region in every
// panel. Lengths are in pt (the replay's screen) unless they say CSS px. studio.js calls
// drawStage from its animation loop, makeMagnifier when it builds a panel and setActualSize from
// the "actual size" box; its layout and live.js read seeing.actualSize. No imports and nothing
// run at load (the session report inlines this file, StudioReport.swift; the frame functions are
// unit-tested under node, Tests/page/stage.test.mjs).

/// The magnifier's zoom: CSS px per pt, so 4× actual size (where 1 pt = 1 CSS px) and 4× the
/// phone at actual size; against a fitted phone (0.23 to 0.44 CSS px per pt for a 390 pt screen
/// drawn 110 to 190 px wide) it is 9 to 17 times larger.
export const MAGNIFIER_ZOOM = 4;
/// The magnifier's inset (CSS px): it shows MAGNIFIER_SIZE / MAGNIFIER_ZOOM pt (47.5 × 37.5 pt).
export const MAGNIFIER_SIZE = [190, 150];
/// A finger's radius as drawn (pt).
const FINGER_RADIUS = 14;
/// The room (CSS px) around the phone in the fitted view.
const FITTED_PAD = 10;

/// The page's view: `actualSize` (the "actual size" box of the playback fieldset) draws every
/// phone at 1 pt = 1 CSS px; `feel` (feel mode, feel.js) draws the selected phone alone on the
/// whole window; `art` (art.js) is the designer's image, `{image, scale, layer}` (image pixels
/// per pt; layer(start, count) the indices of the moving layer's shapes), or null; `region` is the magnified region and `replays` the replays it was chosen from
/// (recomputed when a panel's replay changes).
export const seeing = { actualSize: false, feel: false, art: null, region: null, replays: [] };

/// The room (CSS px) around the phone on its canvas: FITTED_PAD in the fitted view, none at
/// actual size or in feel mode.
export function phonePad() { return seeing.actualSize || seeing.feel ? 0 : FITTED_PAD; }

// ---- frames
/// The index of the last frame at or before `t` (s; 0 before the first): frames are in time order.
export function frameIndexAt(frames, t) {
  let lo = 0, hi = frames.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (frames[mid].t <= t) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/// The picture at page time `t` (s): between frames k and k + 1 (t_k ≤ t < t_k+1) every shape's
/// rectangle [x, y, width, height] is linearly interpolated, fraction (t − t_k) / (t_k+1 − t_k),
/// when the two frames have the same number of shapes (else frame k's shapes), its colour frame
/// k's; the fingers likewise when their number is the same. Before the first frame the first,
/// after the last the last. Returns `{t, shapes, fingers}` as a frame; a pure function.
export function interpolatedFrame(frames, t) {
  const k = frameIndexAt(frames, t), a = frames[k], b = frames[k + 1];
  if (!b || t <= a.t) return { t: a.t, shapes: a.shapes, fingers: a.fingers };
  const f = (t - a.t) / (b.t - a.t);
  const mix = (p, q) => p + (q - p) * f;
  const shapes = a.shapes.length !== b.shapes.length ? a.shapes
    : a.shapes.map((s, i) => [0, 1, 2, 3].map((j) => mix(s[j], b.shapes[i][j])).concat(s[4]));
  const fingers = a.fingers.length !== b.fingers.length ? a.fingers
    : a.fingers.map((p, i) => [mix(p[0], b.fingers[i][0]), mix(p[1], b.fingers[i][1])]);
  return { t, shapes, fingers };
}

// ---- the region that moves most
/// The four edges of a shape [x, y, width, height]: their position (pt, x for left and right,
/// y for top and bottom) and whether they lie across the x axis (top and bottom).
const EDGES = [
  { at: (s) => s[0], horizontal: false }, { at: (s) => s[0] + s[2], horizontal: false },
  { at: (s) => s[1], horizontal: true }, { at: (s) => s[1] + s[3], horizontal: true },
];

/// How far each edge of each shape of one replay travels (pt): between each two consecutive
/// frames with the same number of shapes, shape i's edge moves by |Δ| (shapes paired by index,
/// and only while the shape keeps its colour: a list row scrolled into another row's index is
/// another row). Returns a Map from "i e" (shape index, edge 0–3: left, right, top, bottom) to pt.
export function edgeTravel(frames) {
  const travel = new Map();
  for (let k = 0; k + 1 < frames.length; k++) {
    const before = frames[k].shapes, after = frames[k + 1].shapes;
    if (before.length !== after.length) continue;
    for (let i = 0; i < after.length; i++) {
      if (before[i][4] !== after[i][4]) continue;
      EDGES.forEach((edge, e) => {
        const d = Math.abs(edge.at(after[i]) - edge.at(before[i]));
        if (d > 0) travel.set(i + " " + e, (travel.get(i + " " + e) || 0) + d);
      });
    }
  }
  return travel;
}

/// The magnified region `{x, y, w, h}` (pt) for the panels' `replays` (on one screen, w × h pt),
/// the same for every panel so that the candidates compare. The rule: the edge that travels
/// farthest (edgeTravel summed over the replays; the first in shape and edge order on a tie),
/// where it comes to rest: the region, of the magnifier's size (MAGNIFIER_SIZE / MAGNIFIER_ZOOM
/// pt), is centred on the middle of that edge's on-screen part in the last frame of the first
/// replay in which the edge is on the screen (a thrown card: where it left), then kept inside the
/// screen. An overshoot or a bounce shows there as that edge swinging across the region. The
/// screen's centre when nothing moves; null without replays.
export function motionRegion(replays) {
  if (replays.length === 0) return null;
  const [w, h] = replays[0].screen, rw = MAGNIFIER_SIZE[0] / MAGNIFIER_ZOOM, rh = MAGNIFIER_SIZE[1] / MAGNIFIER_ZOOM;
  const sum = new Map();
  for (const replay of replays) {
    for (const [key, d] of replayTravel(replay)) sum.set(key, (sum.get(key) || 0) + d);
  }
  let key = null;
  for (const [k, d] of sum) if (key === null || d > sum.get(key)) key = k;
  let cx = w / 2, cy = h / 2;
  if (key !== null) {
    const [i, e] = key.split(" ").map(Number), edge = EDGES[e];
    search: for (const replay of replays) {
      for (let k = replay.frames.length - 1; k >= 0; k--) {
        const shape = replay.frames[k].shapes[i];
        if (!shape) continue;
        const at = edge.at(shape), [from, to] = edge.horizontal ? [shape[0], shape[0] + shape[2]] : [shape[1], shape[1] + shape[3]];
        const [across, along] = edge.horizontal ? [h, w] : [w, h];
        const lo = Math.max(0, from), hi = Math.min(along, to);
        if (at < 0 || at > across || lo >= hi) continue;
        [cx, cy] = edge.horizontal ? [(lo + hi) / 2, at] : [at, (lo + hi) / 2];
        break search;
      }
    }
  }
  const x = Math.min(Math.max(0, cx - rw / 2), Math.max(0, w - rw)), y = Math.min(Math.max(0, cy - rh / 2), Math.max(0, h - rh));
  return { x, y, w: rw, h: rh };
}

/// A replay's edge travel, computed once per replay (the replay objects are replaced, not changed).
const travels = new WeakMap();
function replayTravel(replay) {
  if (!travels.has(replay)) travels.set(replay, edgeTravel(replay.frames));
  return travels.get(replay);
}

// ---- drawing
/// The canvas's backing store at the display's pixel ratio, a context in CSS px, and its CSS size.
function context(canvas) {
  const cssW = canvas.clientWidth, cssH = canvas.clientHeight, ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(cssW * ratio)) canvas.width = Math.round(cssW * ratio);
  if (canvas.height !== Math.round(cssH * ratio)) canvas.height = Math.round(cssH * ratio);
  const g = canvas.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { g, cssW, cssH };
}

/// The screen (w × h pt) with `frame`'s shapes and fingers, in the context's current transform
/// (pt); fingers as discs, or as rings with `rings` (the magnifier: the motion stays visible);
/// with `art` (`{image, scale, shapes}`: the shapes' indices) the image over each of those
/// shapes, at image.width / scale pt wide, centred on the shape and cut to it.
function drawScreen(g, [w, h], frame, rings, art) {
  g.fillStyle = "#f2f2f7";
  g.fillRect(0, 0, w, h);
  g.save();
  g.beginPath();
  g.rect(0, 0, w, h);
  g.clip();
  for (const [x, y, sw, sh, colour] of frame.shapes) {
    g.fillStyle = "#" + colour.toString(16).padStart(6, "0");
    g.fillRect(x, y, sw, sh);
  }
  if (art) {
    const iw = art.image.width / art.scale, ih = art.image.height / art.scale;
    for (const i of art.shapes) {
      const [x, y, sw, sh] = frame.shapes[i] || [0, 0, 0, 0];
      if (!(sw > 0 && sh > 0)) continue;
      g.save();
      g.beginPath();
      g.rect(x, y, sw, sh);
      g.clip();
      g.drawImage(art.image, x + sw / 2 - iw / 2, y + sh / 2 - ih / 2, iw, ih);
      g.restore();
    }
  }
  g.fillStyle = g.strokeStyle = "#d81b60";
  for (const [x, y] of frame.fingers) {
    g.beginPath();
    g.arc(x, y, FINGER_RADIUS, 0, 2 * Math.PI);
    if (rings) g.stroke(); else g.fill();
  }
  g.restore();
}

/// The phone on `canvas`: the screen scaled to fit inside FITTED_PAD CSS px (at actual size the
/// canvas is the screen's size in CSS px and the scale 1), the magnified `region` outlined in
/// orange like the magnifier's frame.
/// Returns the scale (CSS px per pt).
function drawPhone(canvas, screen, frame, region, art) {
  const { g, cssW, cssH } = context(canvas);
  const [w, h] = screen, pad = phonePad();
  g.fillStyle = "#1c1c1e";
  g.fillRect(0, 0, cssW, cssH);
  const scale = Math.min((cssW - 2 * pad) / w, (cssH - 2 * pad) / h);
  g.translate((cssW - w * scale) / 2, (cssH - h * scale) / 2);
  g.scale(scale, scale);
  drawScreen(g, screen, frame, false, art);
  if (region) {
    g.strokeStyle = "#ff9500";
    g.lineWidth = 1.5 / scale;
    g.strokeRect(region.x, region.y, region.w, region.h);
  }
  return scale;
}

/// A panel's magnifier: a `<figure class="magnifier">` with its canvas (MAGNIFIER_SIZE CSS px)
/// and a caption with the zoom ("4× · 1 pt = 4 px") and where the region is (its top left corner,
/// pt; the whole region in the caption's title). Returns {figure, canvas, caption}.
export function makeMagnifier() {
  const figure = document.createElement("figure"), canvas = document.createElement("canvas");
  const caption = document.createElement("figcaption");
  figure.className = "magnifier";
  canvas.style.width = MAGNIFIER_SIZE[0] + "px";
  canvas.style.height = MAGNIFIER_SIZE[1] + "px";
  canvas.dataset.zoom = MAGNIFIER_ZOOM;
  figure.append(canvas, caption);
  return { figure, canvas, caption };
}

/// The magnifier's picture: `region` of the screen at MAGNIFIER_ZOOM CSS px per pt, off-screen
/// parts dark; `data-region` holds the region ("x y w h", pt) and `data-phone-zoom` the zoom
/// against the phone drawn beside it (`phoneScale` CSS px per pt).
function drawMagnifier(magnifier, screen, frame, region, phoneScale, art) {
  const { canvas, caption } = magnifier, { g, cssW, cssH } = context(canvas);
  g.fillStyle = "#1c1c1e";
  g.fillRect(0, 0, cssW, cssH);
  g.scale(MAGNIFIER_ZOOM, MAGNIFIER_ZOOM);
  g.translate(-region.x, -region.y);
  g.lineWidth = 2 / MAGNIFIER_ZOOM;
  drawScreen(g, screen, frame, true, art);
  const key = [region.x, region.y, region.w, region.h].map((v) => Number(v.toFixed(2))).join(" ");
  if (canvas.dataset.region !== key) {
    canvas.dataset.region = key;
    caption.textContent = MAGNIFIER_ZOOM + "× · 1 pt = " + MAGNIFIER_ZOOM + " px · at " + Math.round(region.x) + ", " +
      Math.round(region.y) + " pt";
    caption.title = "the region outlined on the phone: " + region.w + " × " + region.h + " pt from (" + key.split(" ").slice(0, 2).join(", ") + ")";
  }
  canvas.dataset.phoneZoom = (MAGNIFIER_ZOOM / phoneScale).toFixed(2);
}

/// Draws every panel that has its replay (`{canvas, magnifier, replay, engine}`) at page time `t`
/// (s), interpolated between frames, the magnifier (a panel may have none: the prototype) over
/// the region chosen from all their replays (outlined on the phone, but not in feel mode), the designer's image (`seeing.art`) on each panel's
/// moving layer.
export function drawStage(panels, t) {
  const ready = panels.filter((p) => p.replay), replays = ready.map((p) => p.replay);
  if (replays.length !== seeing.replays.length || replays.some((r, i) => r !== seeing.replays[i])) {
    seeing.replays = replays;
    seeing.region = motionRegion(replays);
  }
  for (const p of ready) {
    const frame = interpolatedFrame(p.replay.frames, t);
    const art = seeing.art && p.engine ? { ...seeing.art, shapes: seeing.art.layer(p.engine, frame.shapes.length) } : null;
    const scale = drawPhone(p.canvas, p.replay.screen, frame, p.magnifier && !seeing.feel ? seeing.region : null, art);
    if (p.magnifier) drawMagnifier(p.magnifier, p.replay.screen, frame, seeing.region, scale, art);
  }
}

// ---- the view: the playback fieldset's "actual size" box (studio.js reads it at load too, so a
// box the browser restored on reload applies; the session report has no such box: its phones
// stay fitted).
export function setActualSize(on) {
  seeing.actualSize = on;
  document.body.dataset.view = on ? "actual" : "fitted";
}
