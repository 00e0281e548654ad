"use strict";
// The studio's page (Reference §11): 1 to 4 candidate panels replaying one trace side by side
// on one clock. One set of sliders edits the selected panel; every change asks the studio for
// the replay (frames and per-trace metrics) and the report row over every trace (metrics that
// the objective's constraints and targets name). In round mode (Reference §12) the panels are
// the open round's candidates and the designer answers "which is worst?"; the best box shows the
// model's best set. No network beyond this studio, no build step.

const MAX_PANELS = 4;
const DEBOUNCE_MS = 30;
const SLIDER_STEPS = 1000;

const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
let preset = null;      // GET /api/preset
let panels = [];        // {params, replay, row, seq, timer, el, canvas, metrics, objective, title}
let selected = 0;
const learn = { open: null, best: null, busy: false }; // the open round (round mode) and GET /api/best
const clock = { t: 0, playing: true, speed: 1, last: null };

async function api(method, path, body) {
  const response = await fetch(path, {
    method, headers: { "Authorization": "Bearer " + token, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

/// `message` in #error, shown by `from` ("replay", "learn" or "start"); an empty message clears
/// only an error the same `from` showed, so a replay arriving does not hide a refused answer.
let errorFrom = null;
function showError(message, from) {
  if (!message && errorFrom !== from) return;
  errorFrom = message ? from : null;
  $("error").textContent = message;
  $("error").hidden = !message;
}

/// A number as shown on the page: 4 significant digits, no trailing zeros; below 0.001 in
/// exponent form (5.439e-6, not 0.000005439, so that a metric fits its column).
function short(x) {
  if (!Number.isFinite(x)) return String(x);
  const r = Number(x.toPrecision(4));
  return r !== 0 && Math.abs(r) < 1e-3 ? r.toExponential() : String(r);
}

// ---- axes: slider position (0..SLIDER_STEPS) <-> value; log axes move in log space.
function toValue(axis, s) {
  const f = s / SLIDER_STEPS;
  const v = axis.log ? Math.exp(Math.log(axis.min) + f * (Math.log(axis.max) - Math.log(axis.min)))
                     : axis.min + f * (axis.max - axis.min);
  return Math.min(axis.max, Math.max(axis.min, Number(v.toPrecision(6))));
}
function toSlider(axis, v) {
  if (axis.max === axis.min) return 0;
  const f = axis.log ? (Math.log(v) - Math.log(axis.min)) / (Math.log(axis.max) - Math.log(axis.min))
                     : (v - axis.min) / (axis.max - axis.min);
  return Math.round(f * SLIDER_STEPS);
}
/// A value with its unit; dimensionless ("1") and word values go bare.
function withUnit(text, unit) { return unit && unit !== "1" && unit !== "word" ? text + " " + unit : text; }
function axisLabel(axis, v) { return axis.name + " = " + (axis.words ? v : withUnit(short(v), axis.unit)); }

function buildAxes() {
  const box = $("axes");
  for (const axis of preset.axes) {
    const label = document.createElement("label");
    const text = document.createElement("span");
    let input;
    if (axis.words) {
      input = document.createElement("select");
      for (const w of axis.words) input.append(new Option(w, w));
    } else {
      input = document.createElement("input");
      Object.assign(input, { type: "range", min: 0, max: SLIDER_STEPS, step: 1 });
    }
    input.dataset.axis = axis.name;
    input.addEventListener("input", () => {
      const v = axis.words ? input.value : toValue(axis, Number(input.value));
      panels[selected].params[axis.name] = v;
      text.textContent = axisLabel(axis, v);
      request(panels[selected]);
    });
    label.append(text, input);
    box.append(label);
  }
}

/// The sliders show the selected panel's values.
function syncAxes() {
  const params = panels[selected].params;
  for (const axis of preset.axes) {
    const input = document.querySelector(`[data-axis="${axis.name}"]`);
    input.value = axis.words ? params[axis.name] : toSlider(axis, params[axis.name]);
    input.previousElementSibling.textContent = axisLabel(axis, params[axis.name]);
  }
}

// ---- panels
function button(text, className) {
  const b = document.createElement("button");
  Object.assign(b, { type: "button", textContent: text, className });
  return b;
}

/// A panel showing `params`; with `candidate` (a round's `{id}`) it has "worst" and "best"
/// buttons instead of "remove".
function addPanel(params, candidate) {
  if (panels.length >= MAX_PANELS) return;
  const el = document.createElement("article");
  el.className = "panel";
  const canvas = document.createElement("canvas");
  canvas.className = "stage";
  const side = document.createElement("div");
  side.className = "side";
  const title = document.createElement("h2");
  const buttons = candidate ? ["worst", "best"].map((kind) => button(kind, kind)) : [button("remove", "remove")];
  const metrics = document.createElement("dl");
  metrics.className = "metrics";
  const objective = document.createElement("div");
  objective.className = "objective";
  if (candidate) {
    const answers = document.createElement("div");
    answers.className = "answers";
    answers.append(...buttons);
    side.append(title, answers, metrics, objective);
  } else {
    side.append(title, ...buttons, metrics, objective);
  }
  el.append(canvas, side);
  $("panels").append(el);
  const panel = { params: { ...params }, replay: null, row: null, seq: 0, timer: 0, el, canvas, metrics, objective, title };
  el.addEventListener("click", () => select(panels.indexOf(panel)));
  for (const b of buttons) {
    b.disabled = learn.busy;
    b.addEventListener("click", (e) => {
      e.stopPropagation();
      if (candidate) answer({ [b.className]: candidate.id }); else removePanel(panel);
    });
  }
  panels.push(panel);
  select(panels.length - 1);
  request(panel);
}

function removePanel(panel) {
  if (panels.length === 1) return;
  panels.splice(panels.indexOf(panel), 1);
  panel.el.remove();
  select(Math.min(selected, panels.length - 1));
}

/// Drops every panel (late answers to them are ignored) and shows `list` of `{params, candidate}`.
function replacePanels(list) {
  for (const p of panels) { clearTimeout(p.timer); p.seq++; p.el.remove(); }
  panels = [];
  for (const { params, candidate } of list) addPanel(params, candidate);
  select(0);
}

function select(i) {
  selected = i;
  panels.forEach((p, k) => {
    p.el.classList.toggle("selected", k === i);
    p.title.textContent = "candidate " + (k + 1);
  });
  $("add").disabled = panels.length >= MAX_PANELS || learn.open !== null;
  for (const b of document.querySelectorAll(".panel .remove")) b.disabled = panels.length === 1;
  syncAxes();
  showCopy(null);
}

/// Debounced: the replay of the chosen trace and the report row; answers to an older request
/// of the same panel are dropped.
function request(panel) {
  clearTimeout(panel.timer);
  panel.timer = setTimeout(async () => {
    const seq = ++panel.seq;
    const params = { ...panel.params };
    try {
      const [replay, row] = await Promise.all([
        api("POST", "/api/replay", { params, traces: [$("trace").value] }),
        api("POST", "/api/evaluate", { params }),
      ]);
      if (seq !== panel.seq) return;
      panel.replay = replay.replays[0];
      panel.row = row.metrics;
      panel.metrics.dataset.params = JSON.stringify(params);
      showMetrics(panel.metrics, panel.row);
      panel.objective.textContent = objectiveText();
      showError("", "replay");
    } catch (e) {
      if (seq === panel.seq) showError(String(e.message || e), "replay");
    }
  }, DEBOUNCE_MS);
}

// ---- metrics and the objective
/// `"column <= value"`, `">="`, `"<"`, `">"` or `"column = target ± tolerance"` (`+-` too) as a check.
function parseRule(text) {
  let m = text.match(/^\s*(\w+)\s*(<=|>=|<|>)\s*(-?[\d.eE+-]+)\s*$/);
  if (m) {
    const [, column, op, bound] = m, b = Number(bound);
    const ok = { "<=": (v) => v <= b, ">=": (v) => v >= b, "<": (v) => v < b, ">": (v) => v > b }[op];
    return { column, ok };
  }
  m = text.match(/^\s*(\w+)\s*=\s*(-?[\d.eE+-]+)\s*(?:±|\+-)\s*([\d.eE+-]+)\s*$/);
  if (m) return { column: m[1], ok: (v) => Math.abs(v - Number(m[2])) <= Number(m[3]) };
  return null;
}

function valueText(v, unit) {
  if (v === "inf") return "never settles";
  if (v === null || v === undefined) return "—";
  return withUnit(short(v), unit);
}

/// The report row `row` into the `<dl>` `list`: a broken constraint in red, a missed target in amber.
function showMetrics(list, row) {
  const constraints = preset.objective.constraints.map(parseRule).filter(Boolean);
  const targets = preset.objective.targets.map(parseRule).filter(Boolean);
  const broken = (rules, name, v) => rules.some((r) => r.column === name && !r.ok(v === "inf" ? Infinity : v));
  list.replaceChildren();
  for (const m of preset.metrics) {
    const v = row[m.name];
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = m.name;
    dt.title = (m.better === "lower" ? "lower" : m.better === "higher" ? "higher" : m.better) + " is better";
    dd.textContent = valueText(v, m.unit);
    if (v !== null && broken(constraints, m.name, v)) { dt.className = dd.className = "broken"; }
    else if (v !== null && broken(targets, m.name, v)) { dt.className = dd.className = "off-target"; }
    list.append(dt, dd);
  }
}

function objectiveText() {
  const lines = [];
  for (const c of preset.objective.constraints) lines.push("constraint: " + c);
  for (const t of preset.objective.targets) lines.push("target: " + t);
  if (preset.objective.minimize) lines.push("minimize: " + preset.objective.minimize);
  if (preset.objective.maximize) lines.push("maximize: " + preset.objective.maximize);
  return lines.join("\n");
}

// ---- drawing
/// The last frame at or before `t` (frames are in time order).
function frameAt(frames, t) {
  let lo = 0, hi = frames.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (frames[mid].t <= t) lo = mid; else hi = mid - 1;
  }
  return frames[lo];
}

function draw(panel) {
  const { canvas, replay } = panel;
  const [w, h] = replay.screen;
  const cssW = canvas.clientWidth, cssH = canvas.clientHeight, ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(cssW * ratio)) canvas.width = Math.round(cssW * ratio);
  if (canvas.height !== Math.round(cssH * ratio)) canvas.height = Math.round(cssH * ratio);
  const g = canvas.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.fillStyle = "#1c1c1e";
  g.fillRect(0, 0, cssW, cssH);
  const pad = 10, scale = Math.min((cssW - 2 * pad) / w, (cssH - 2 * pad) / h);
  g.translate((cssW - w * scale) / 2, (cssH - h * scale) / 2);
  g.scale(scale, scale);
  g.fillStyle = "#f2f2f7";
  g.fillRect(0, 0, w, h);
  g.save();
  g.beginPath();
  g.rect(0, 0, w, h);
  g.clip();
  const frame = frameAt(replay.frames, clock.t);
  for (const [x, y, sw, sh, colour] of frame.shapes) {
    g.fillStyle = "#" + colour.toString(16).padStart(6, "0");
    g.fillRect(x, y, sw, sh);
  }
  g.fillStyle = "#d81b60";
  for (const [x, y] of frame.fingers) {
    g.beginPath();
    g.arc(x, y, 14, 0, 2 * Math.PI);
    g.fill();
  }
  g.restore();
}

/// The longest rest time of the panels (s): the scrub range and the loop length.
function restTime() { return Math.max(0.001, ...panels.filter((p) => p.replay).map((p) => p.replay.rest)); }

function tick(now) {
  const rest = restTime();
  if (clock.playing && clock.last !== null) {
    clock.t += (now - clock.last) / 1000 * clock.speed;
    if (clock.t > rest + 0.5) clock.t = 0; // hold the end for half a second, then loop
  }
  clock.last = now;
  const shown = Math.min(clock.t, rest);
  $("scrub").max = rest;
  $("scrub").value = shown;
  $("time").textContent = shown.toFixed(3) + " s / " + rest.toFixed(3) + " s";
  const ready = panels.filter((p) => p.replay);
  for (const p of ready) draw(p);
  if (ready.length === panels.length && document.body.dataset.state !== "ready") document.body.dataset.state = "ready";
  requestAnimationFrame(tick);
}

// ---- copy as
const SPRING_KEYS = ["response", "dampingRatio", "frequency", "damping"];

function copyText(kind, params) {
  const spring = params.frequency !== undefined && params.damping !== undefined
    ? { response: 1 / params.frequency, ratio: params.damping }
    : params.response !== undefined && params.dampingRatio !== undefined
      ? { response: params.response, ratio: params.dampingRatio } : null;
  if (kind === "json") {
    const out = { spring: {}, params: {} };
    for (const [k, v] of Object.entries(params)) out[SPRING_KEYS.includes(k) ? "spring" : "params"][k] = v;
    for (const group of ["spring", "params"]) if (Object.keys(out[group]).length === 0) delete out[group];
    return JSON.stringify(out, null, 2);
  }
  if (!spring) return "// no spring axes (frequency/damping or response/dampingRatio); the values:\n" + JSON.stringify(params, null, 2);
  if (kind === "swiftui") {
    return `.spring(response: ${short(spring.response)}, dampingFraction: ${short(spring.ratio)})`;
  }
  // Compose's spring has unit mass: stiffness = (2π / response)², in 1/s².
  const stiffness = (2 * Math.PI / spring.response) ** 2;
  return `spring(dampingRatio = ${short(spring.ratio)}f, stiffness = ${short(stiffness)}f)`;
}

function showCopy(kind) {
  $("copy-box").hidden = kind === null;
  if (kind === null) return;
  $("copy").value = copyText(kind, panels[selected].params);
  $("copy").select();
}

// ---- learn (Reference §12): rounds of candidates, the designer's answers, the best estimate
/// Round mode with `round` (GET /api/candidates), or free sliders with null: in round mode the
/// sliders and "add candidate" are off, so that every answer is about the candidates as shown.
function setMode(round) {
  learn.open = round;
  document.body.dataset.mode = round ? "round" : "free";
  $("round").textContent = round ? "round " + round.round : "free sliders";
  $("same").hidden = $("leave-round").hidden = !round;
  for (const input of document.querySelectorAll("#axes [data-axis]")) input.disabled = round !== null;
}

/// The open round into the panels, watched on its trace.
async function loadRound() {
  const round = await api("GET", "/api/candidates?k=" + $("k").value);
  if ($("trace").value !== round.trace && [...$("trace").options].some((o) => o.value === round.trace)) {
    $("trace").value = round.trace;
    clock.t = 0;
  }
  setMode(round);
  replacePanels(round.candidates.map((candidate) => ({ params: candidate.params, candidate })));
}

/// "utility +m ± s vs the preset" to 2 significant digits (units of the model's prior sd).
function utilityText({ mean, sd }) {
  const two = (x) => String(Number(Math.abs(x).toPrecision(2)));
  return "utility " + (mean < 0 ? "−" : "+") + two(mean) + " ± " + two(sd) + " vs the preset";
}

async function loadBest() {
  const best = await api("GET", "/api/best");
  learn.best = best;
  if (best.choices > 0) $("best").hidden = false;
  $("best-choices").textContent = best.choices + (best.choices === 1 ? " choice" : " choices");
  $("best-choices").dataset.count = best.choices;
  $("best-utility").textContent = utilityText(best.utility);
  $("best-params").replaceChildren(...preset.axes.map((axis) => {
    const item = document.createElement("li");
    item.textContent = axisLabel(axis, best.params[axis.name]);
    return item;
  }));
  showMetrics($("best-metrics"), best.metrics);
  drawMap(best);
}

/// One learn step at a time: the learn buttons are off while it runs; an error goes to #error.
async function step(work) {
  if (learn.busy) return;
  setBusy(true);
  try {
    await work();
    showError("", "learn");
  } catch (e) {
    showError(String(e.message || e), "learn");
  } finally {
    setBusy(false);
  }
}
function setBusy(busy) {
  learn.busy = busy;
  document.body.dataset.learn = busy ? "busy" : "idle";
  for (const b of document.querySelectorAll(".worst, .best, #same, #undo, #start-round, #show-best, #export")) b.disabled = busy;
  if (!busy && learn.best) $("undo").disabled = learn.best.choices === 0;
}

/// Reloads the open round and the best, also after a failed request (a stale round, say).
function thenReload(request) {
  return step(async () => {
    $("best").hidden = false;
    try { await request(); } finally { await Promise.all([loadRound(), loadBest()]); }
  });
}

function answer(choice) { thenReload(() => api("POST", "/api/choices", { round: learn.open.round, ...choice })); }

// ---- the utility map: 21 × 21 cells, blue above the preset's own set (0), red below, white at
// 0, the scale symmetric at the largest |value|; the best set as a ring, the preset's as a cross.
const MAP_MARGIN = { left: 52, right: 8, top: 8, bottom: 36 };

function heat(f) {
  const to = f >= 0 ? [33, 102, 172] : [178, 24, 43], a = Math.min(1, Math.abs(f));
  return "rgb(" + to.map((c) => Math.round(255 + (c - 255) * a)).join(",") + ")";
}

/// Where value `v` of a map axis (values evenly spaced, in log space on a log axis) falls along
/// `length` px holding one cell per value: the centre of cell i is (i + 0.5) · length / n.
function mapPosition(axis, v, length) {
  const f = axis.log ? Math.log : (x) => x, n = axis.values.length;
  const span = f(axis.values[n - 1]) - f(axis.values[0]);
  const i = span === 0 ? 0 : (f(v) - f(axis.values[0])) / span * (n - 1);
  return (i + 0.5) * length / n;
}

function axisTitle(axis) {
  return axis.name + (axis.unit && axis.unit !== "1" ? " (" + axis.unit + ")" : "") + (axis.log ? ", log" : "");
}

function drawMap(best) {
  const map = best.map;
  $("map-box").hidden = !map;
  if (!map) return;
  const canvas = $("map"), ratio = window.devicePixelRatio || 1;
  const w = canvas.clientWidth, h = canvas.clientHeight, m = MAP_MARGIN;
  canvas.width = Math.round(w * ratio);
  canvas.height = Math.round(h * ratio);
  const g = canvas.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  const pw = w - m.left - m.right, ph = h - m.top - m.bottom;
  const nx = map.x.values.length, ny = map.y.values.length;
  const scale = Math.max(1e-9, ...map.mean.flat().map(Math.abs));
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      g.fillStyle = heat(map.mean[j][i] / scale);
      g.fillRect(m.left + i * pw / nx, m.top + (ny - 1 - j) * ph / ny, pw / nx + 0.5, ph / ny + 0.5);
    }
  }
  const at = (values) => [m.left + mapPosition(map.x, values[map.x.name], pw),
    m.top + ph - mapPosition(map.y, values[map.y.name], ph)];
  const own = Object.fromEntries(preset.axes.map((a) => [a.name, a.preset]));
  const [px, py] = at(own), [bx, by] = at(best.params);
  g.lineWidth = 2;
  g.strokeStyle = "#1c1c1e";
  g.beginPath();
  g.moveTo(px - 5, py - 5); g.lineTo(px + 5, py + 5); g.moveTo(px + 5, py - 5); g.lineTo(px - 5, py + 5);
  g.stroke();
  for (const [colour, r] of [["#fff", 7], ["#1c1c1e", 5]]) {
    g.strokeStyle = colour;
    g.beginPath();
    g.arc(bx, by, r, 0, 2 * Math.PI);
    g.stroke();
  }
  g.fillStyle = "#444";
  g.font = "11px system-ui, sans-serif";
  g.textAlign = "center";
  const xs = map.x.values, ys = map.y.values;
  for (const v of [xs[0], xs[xs.length >> 1], xs[xs.length - 1]]) g.fillText(short(v), m.left + mapPosition(map.x, v, pw), h - m.bottom + 13);
  g.fillText(axisTitle(map.x), m.left + pw / 2, h - 6);
  g.textAlign = "right";
  for (const v of [ys[0], ys[ys.length >> 1], ys[ys.length - 1]]) g.fillText(short(v), m.left - 4, m.top + ph - mapPosition(map.y, v, ph) + 4);
  g.save();
  g.translate(12, m.top + ph / 2);
  g.rotate(-Math.PI / 2);
  g.textAlign = "center";
  g.fillText(axisTitle(map.y), 0, 0);
  g.restore();
  $("map-caption").textContent = "predicted utility vs the preset: red −" + short(scale) + ", white 0, blue +" +
    short(scale) + "; ○ best, × preset";
}

function startLearning() {
  $("start-round").addEventListener("click", () => thenReload(async () => {}));
  $("same").addEventListener("click", () => answer({ same: true }));
  $("undo").addEventListener("click", () => thenReload(() => api("DELETE", "/api/choices/last")));
  $("leave-round").addEventListener("click", () => {
    setMode(null);
    replacePanels(panels.map((p) => ({ params: p.params })));
  });
  $("show-best").addEventListener("click", () => {
    if (!learn.best) return;
    setMode(null);
    replacePanels([{ params: learn.best.params }]);
  });
  $("export-name").value = preset.name + "-studio";
  $("export").addEventListener("click", () => step(async () => {
    const answer = await api("POST", "/api/export", { name: $("export-name").value });
    $("export-path").textContent = answer.path;
  }));
  setMode(null);
  step(loadBest);
}

// ---- start
async function start() {
  try {
    preset = await api("GET", "/api/preset");
  } catch (e) {
    showError("cannot load the preset: " + (e.message || e) + (token ? "" : " (open the URL with its ?token=)"), "start");
    return;
  }
  $("preset-name").textContent = "— " + preset.name + " (" + preset.model + ")";
  for (const t of preset.traces) {
    $("trace").append(new Option(t.id + " — " + t.kind + (t.intent ? ", " + t.intent : ""), t.id));
  }
  $("trace").addEventListener("change", () => { clock.t = 0; panels.forEach(request); });
  buildAxes();
  $("play").addEventListener("click", () => {
    clock.playing = !clock.playing;
    $("play").textContent = clock.playing ? "pause" : "play";
  });
  $("scrub").addEventListener("input", () => { clock.t = Number($("scrub").value); });
  $("speed").addEventListener("change", () => { clock.speed = Number($("speed").value); });
  $("add").addEventListener("click", () => addPanel(panels[selected].params));
  $("copy-json").addEventListener("click", () => showCopy("json"));
  $("copy-swiftui").addEventListener("click", () => showCopy("swiftui"));
  $("copy-compose").addEventListener("click", () => showCopy("compose"));
  startLearning();
  addPanel(Object.fromEntries(preset.axes.map((a) => [a.name, a.preset])));
  requestAnimationFrame(tick);
}

start();
