"use strict";
// The studio's page (Reference §11): 1 to 4 candidate panels replaying one trace side by side
// on one clock. One set of sliders edits the selected panel; every change asks the studio for
// the replay (frames and per-trace metrics) and the report row over every trace (metrics that
// the objective's constraints and targets name). No network beyond this studio, no build step.

const MAX_PANELS = 4;
const DEBOUNCE_MS = 30;
const SLIDER_STEPS = 1000;

const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
let preset = null;      // GET /api/preset
let panels = [];        // {params, replay, row, seq, timer, el, canvas, metrics}
let selected = 0;
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

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

/// A number as shown on the page: 4 significant digits, no trailing zeros.
function short(x) { return Number.isFinite(x) ? String(Number(x.toPrecision(4))) : String(x); }

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
function addPanel(params) {
  if (panels.length >= MAX_PANELS) return;
  const el = document.createElement("article");
  el.className = "panel";
  const canvas = document.createElement("canvas");
  canvas.className = "stage";
  const side = document.createElement("div");
  side.className = "side";
  const title = document.createElement("h2");
  const remove = document.createElement("button");
  remove.type = "button";
  remove.textContent = "remove";
  const metrics = document.createElement("dl");
  metrics.className = "metrics";
  const objective = document.createElement("div");
  objective.className = "objective";
  side.append(title, remove, metrics, objective);
  el.append(canvas, side);
  $("panels").append(el);
  const panel = { params: { ...params }, replay: null, row: null, seq: 0, timer: 0, el, canvas, metrics, objective, title };
  el.addEventListener("click", () => select(panels.indexOf(panel)));
  remove.addEventListener("click", (e) => { e.stopPropagation(); removePanel(panel); });
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

function select(i) {
  selected = i;
  panels.forEach((p, k) => {
    p.el.classList.toggle("selected", k === i);
    p.title.textContent = "candidate " + (k + 1);
  });
  $("add").disabled = panels.length >= MAX_PANELS;
  for (const b of document.querySelectorAll(".panel button")) b.disabled = panels.length === 1;
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
      showMetrics(panel);
      showError("");
    } catch (e) {
      if (seq === panel.seq) showError(String(e.message || e));
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

function showMetrics(panel) {
  const constraints = preset.objective.constraints.map(parseRule).filter(Boolean);
  const targets = preset.objective.targets.map(parseRule).filter(Boolean);
  const broken = (rules, name, v) => rules.some((r) => r.column === name && !r.ok(v === "inf" ? Infinity : v));
  panel.metrics.replaceChildren();
  for (const m of preset.metrics) {
    const v = panel.row[m.name];
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = m.name;
    dt.title = (m.better === "lower" ? "lower" : m.better === "higher" ? "higher" : m.better) + " is better";
    dd.textContent = valueText(v, m.unit);
    if (v !== null && broken(constraints, m.name, v)) { dt.className = dd.className = "broken"; }
    else if (v !== null && broken(targets, m.name, v)) { dt.className = dd.className = "off-target"; }
    panel.metrics.append(dt, dd);
  }
  const lines = [];
  for (const c of preset.objective.constraints) lines.push("constraint: " + c);
  for (const t of preset.objective.targets) lines.push("target: " + t);
  if (preset.objective.minimize) lines.push("minimize: " + preset.objective.minimize);
  if (preset.objective.maximize) lines.push("maximize: " + preset.objective.maximize);
  panel.objective.textContent = lines.join("\n");
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

// ---- start
async function start() {
  try {
    preset = await api("GET", "/api/preset");
  } catch (e) {
    showError("cannot load the preset: " + (e.message || e) + (token ? "" : " (open the URL with its ?token=)"));
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
  addPanel(Object.fromEntries(preset.axes.map((a) => [a.name, a.preset])));
  requestAnimationFrame(tick);
}

start();
