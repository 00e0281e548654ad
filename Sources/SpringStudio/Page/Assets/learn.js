// The studio page's learning (Reference §12): rounds of candidates, the designer's answers, the
// best estimate and its utility map. The panels are studio.js's: startLearning gets the one
// function of it this file calls (replacePanels) instead of importing it, so that studio.js,
// learn.js and levers.js import one another in one direction only (studio.js -> levers.js ->
// learn.js).
import * as api from "./api.js";
import { $, showError } from "./dom.js";
import { axisLabel, short, valueText, withUnit, utilityText } from "./format.js";
import { showMetrics } from "./metrics.js";
import { clock, state } from "./state.js";

/// The open round (round mode, GET /api/candidates) or null, the last GET /api/best, and whether
/// a learn step is running.
export const learn = { open: null, best: null, busy: false };

/// studio.js's panels, as startLearning was given them: `replacePanels(list)`.
let learnView = null;

// ---- learn (Reference §12): rounds of candidates, the designer's answers, the best estimate
/// Round mode with `round` (GET /api/candidates), or free sliders with null: in round mode the
/// sliders and "add candidate" are off, so that every answer is about the candidates as shown.
export function setMode(round) {
  learn.open = round;
  document.body.dataset.mode = round ? "round" : "free";
  $("round").textContent = round ? "round " + round.round : "free sliders";
  $("same").hidden = $("leave-round").hidden = !round;
  for (const input of document.querySelectorAll("#axes [data-axis]")) input.disabled = round !== null;
}

/// The open round into the panels, watched on its trace (where its candidates differ most) from
/// its start (0.3 s before the release).
async function loadRound() {
  const round = await api.candidates($("k").value);
  const fresh = learn.open === null || learn.open.round !== round.round;
  if ($("trace").value !== round.trace && [...$("trace").options].some((o) => o.value === round.trace)) $("trace").value = round.trace;
  if (fresh) clock.t = round.start;
  setMode(round);
  learnView.replacePanels(round.candidates.map((candidate) => ({ params: candidate.params, candidate })));
}

export async function loadBest() {
  const best = await api.best();
  learn.best = best;
  if (best.choices > 0) $("best").hidden = false;
  $("best-choices").textContent = best.choices + (best.choices === 1 ? " choice" : " choices");
  $("best-choices").dataset.count = best.choices;
  $("best-utility").textContent = utilityText(best.utility);
  $("best-params").replaceChildren(...state.preset.axes.map((axis) => {
    const item = document.createElement("li");
    item.textContent = axisLabel(axis, best.params[axis.name]);
    return item;
  }));
  showMetrics($("best-metrics"), state.preset.metrics, best.metrics, best.verdicts, best.intervals);
  showWhy(best);
  showSure(best);
  drawMap(best);
}

/// The best box's warnings and reasons: the free parameters it sits at an end of, its margins
/// (how far each can move before a rule breaks), the rounds it rests on and each metric's change
/// against the preset's own set.
function showWhy(best) {
  const unit = (name) => (state.preset.parameters.find((p) => p.name === name) || {}).unit;
  $("best-edges").replaceChildren(...best.edges.map((name) => {
    const item = document.createElement("li");
    item.textContent = "at an end of " + name + "'s range: the optimum may lie beyond it; widen it under levers";
    return item;
  }));
  $("best-margins").replaceChildren(...Object.entries(best.margins.distance).map(([name, d]) => {
    const item = document.createElement("li");
    item.textContent = name + ": " + (typeof d === "number" ? withUnit(short(d), unit(name)) : d + " of the range") +
      (best.margins.breaks[name] ? " (" + best.margins.breaks[name] + ")" : "");
    if (typeof d === "number") item.className = "tight";
    return item;
  }));
  const why = best.support.map((r) => "round " + r.round + " (" + r.answer + ": candidate " + r.candidate + ")");
  const changes = state.preset.metrics.filter((m) => typeof best.changes[m.name] === "number" && best.changes[m.name] !== 0)
    .map((m) => m.name + " " + (best.changes[m.name] > 0 ? "+" : "−") + withUnit(short(Math.abs(best.changes[m.name])), m.unit));
  $("best-why").textContent = (why.length ? "rests on " + why.join(", ") + ". " : "") +
    (changes.length ? "against the preset: " + changes.join(", ") : best.choices ? "" : "the preset's own set");
}

/// The best box's "how sure": each constraint judged at the objective's confidence (or at 90 %
/// when it sets none, as a warning), and the groups (people or devices) whose traces alone break
/// a constraint, with the constraints' values on them.
function showSure(best) {
  const sure = best.sure, pct = short(sure.confidence * 100) + " %";
  $("best-sure-note").textContent = !sure.verdicts.length ? "no constraint to be sure of" :
    sure.asked ? "constraints judged at " + pct + " confidence (the objective's)" :
    "the objective sets no confidence: constraints judged at " + pct + ", as a warning";
  $("best-sure").replaceChildren(...sure.verdicts.map((v) => {
    const item = document.createElement("li");
    item.textContent = v.text;
    item.className = v.met ? "sure" : "unsure";
    return item;
  }));
  const failing = best.groups.filter((g) => g.verdict === "broken"), shown = 10;
  $("best-groups").textContent = failing.length
    ? "fails for " + failing.length + " of " + best.groups.length + (best.groups.length === 1 ? " group:" : " groups:")
    : "every one of the " + best.groups.length + (best.groups.length === 1 ? " group" : " groups") + " meets the constraints";
  const unit = (name) => (state.preset.metrics.find((m) => m.name === name) || {}).unit;
  $("best-groups-failing").replaceChildren(...failing.slice(0, shown).map((g) => {
    const item = document.createElement("li");
    item.textContent = g.group + " (" + g.traces + (g.traces === 1 ? " trace" : " traces") + "): breaks " + g.broken.join("; ") + " (" +
      Object.entries(g.metrics).map(([name, v]) => name + " " + valueText(v, unit(name))).join(", ") + ")";
    return item;
  }), ...(failing.length > shown ? [Object.assign(document.createElement("li"), { textContent: "… and " + (failing.length - shown) + " more" })] : []));
}

/// A round's candidate whose difference from the round's best-looking one (`noise.candidate`,
/// on the objective column `noise.metric`) lies inside the noise: a small label naming it; null
/// for the others.
export function noiseLabel(candidate) {
  const round = learn.open;
  if (!candidate.insideNoise || !round || !round.noise) return null;
  const n = round.candidates.findIndex((c) => c.id === round.noise.candidate) + 1;
  const label = document.createElement("p");
  label.className = "noise";
  label.textContent = "inside the noise of candidate " + n;
  label.title = "on " + round.noise.metric + ", the 95 % interval of its paired difference from candidate " + n +
    " (resampling who made the traces) holds 0: these traces cannot tell the two apart";
  return label;
}

/// One learn step at a time: the learn buttons are off while it runs; an error goes to #error.
export async function step(work) {
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

/// Sends the answer; "no difference" says that the model could not learn from it.
export function answer(choice) {
  thenReload(async () => {
    const count = await api.choose(learn.open.round, choice);
    $("round-note").textContent = count.learned ? "" :
      "noted: a tie says nothing about which is better, so the best and its uncertainty stay as they were; the next round shows other sets";
  });
}

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
  const own = Object.fromEntries(state.preset.parameters.map((p) => [p.name, p.value]));
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

/// The learn controls' handlers, free sliders mode and the best box; `panels` is studio.js's
/// `{replacePanels}` (the panels' one function this file calls).
export function startLearning(panels) {
  learnView = panels;
  $("start-round").addEventListener("click", () => thenReload(async () => {}));
  $("same").addEventListener("click", () => answer({ same: true }));
  $("undo").addEventListener("click", () => thenReload(() => api.undo()));
  $("leave-round").addEventListener("click", () => {
    setMode(null);
    learnView.replacePanels(state.panels.map((p) => ({ params: p.params })));
  });
  $("show-best").addEventListener("click", () => {
    if (!learn.best) return;
    setMode(null);
    learnView.replacePanels([{ params: learn.best.params }]);
  });
  $("export-name").value = state.preset.name + "-studio";
  $("export").addEventListener("click", () => step(async () => {
    const answer = await api.export($("export-name").value);
    $("export-path").textContent = answer.path;
  }));
  setMode(null);
  step(loadBest);
}
