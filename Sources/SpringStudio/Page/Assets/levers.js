// The studio page on the designer's terms (Reference §10.16): the levers (free any parameter
// over its domain or a range, pin it again: POST /api/space) and the designer's objective
// (constraints, targets, minimize or maximize, the confidence its constraints are judged sure
// at: PUT /api/objective). It imports learn.js's steps; studio.js's sliders and panels come as
// the functions startLevers is given, so that it does not import studio.js (which imports it).
import * as api from "./api.js";
import { $ } from "./dom.js";
import { short, withUnit } from "./format.js";
import { loadBest, setMode, step } from "./learn.js";
import { state } from "./state.js";

/// studio.js's sliders and panels, as startLevers was given them: `{buildAxes, replacePanels}`.
let leversView = null;

/// The levers table: one row per parameter with a domain, its "free" box and its range.
function buildLevers() {
  const body = $("levers-rows");
  body.replaceChildren();
  for (const p of state.preset.parameters) {
    const row = document.createElement("tr");
    row.dataset.lever = p.name;
    const free = document.createElement("input");
    Object.assign(free, { type: "checkbox", checked: p.free, className: "lever-free" });
    free.setAttribute("aria-label", "free " + p.name);
    const name = document.createElement("td");
    name.textContent = p.name;
    name.title = "preset's value " + (p.words ? p.value : withUnit(short(p.value), p.unit));
    const range = document.createElement("td");
    if (p.words) {
      range.textContent = p.words.join(" | ");
    } else {
      for (const [key, value] of [["from", p.min], ["to", p.max]]) {
        const input = document.createElement("input");
        Object.assign(input, { type: "number", value: short(value), step: "any", className: "lever-" + key });
        input.setAttribute("aria-label", p.name + " " + key);
        range.append(input);
      }
      range.append(" " + (p.unit === "1" ? "" : p.unit) + (p.log ? " (log)" : ""));
    }
    const box = document.createElement("td");
    box.append(free);
    row.append(box, name, range);
    body.append(row);
  }
}

/// The free set the table says: `{name, from, to, log?}` per checked number row, `{name}` per checked word row.
function leversAsked() {
  return [...document.querySelectorAll("#levers-rows tr")].filter((row) => row.querySelector(".lever-free").checked).map((row) => {
    const from = row.querySelector(".lever-from"), to = row.querySelector(".lever-to");
    // A parameter free already keeps its scale (a sweep axis may be linear on a log domain).
    const now = state.preset.parameters.find((p) => p.name === row.dataset.lever);
    const scale = now && now.free ? { log: now.log } : {};
    return from ? { name: row.dataset.lever, from: Number(from.value), to: Number(to.value), ...scale } : { name: row.dataset.lever };
  });
}

/// After the levers changed: the new preset answer's sliders, one panel at their start values, the best again.
function applyPreset(answer) {
  state.preset = answer;
  buildLevers();
  leversView.buildAxes();
  setMode(null);
  leversView.replacePanels([{ params: Object.fromEntries(state.preset.axes.map((a) => [a.name, a.preset])) }]);
}

// ---- the designer's objective
function showObjective() {
  const o = state.preset.objective;
  $("objective-constraints").value = o.constraints.join("\n");
  $("objective-targets").value = o.targets.join("\n");
  $("objective-direction").value = o.maximize ? "maximize" : "minimize";
  $("objective-metric").value = o.maximize || o.minimize || "";
  $("objective-confidence").value = o.confidence === null || o.confidence === undefined ? "" : o.confidence;
}

function objectiveAsked() {
  const lines = (id) => $(id).value.split("\n").map((l) => l.trim()).filter((l) => l);
  const body = { constraints: lines("objective-constraints"), targets: lines("objective-targets") };
  const metric = $("objective-metric").value;
  if (metric) body[$("objective-direction").value] = metric;
  const confidence = $("objective-confidence").value.trim();
  if (confidence) body.confidence = Number(confidence);
  return body;
}

/// The levers table, the objective's form and their buttons; `panels` is studio.js's
/// `{buildAxes, replacePanels}`.
export function startLevers(panels) {
  leversView = panels;
  buildLevers();
  const metric = $("objective-metric");
  metric.append(new Option("(the preset's default)", ""));
  for (const m of state.preset.metrics) metric.append(new Option(m.name, m.name));
  showObjective();
  $("apply-levers").addEventListener("click", () => step(async () => {
    applyPreset(await api.space(leversAsked()));
    await loadBest();
  }));
  $("apply-objective").addEventListener("click", () => step(async () => {
    state.preset.objective = await api.setObjective(objectiveAsked());
    showObjective();
    setMode(null);
    leversView.replacePanels(state.panels.map((p) => ({ params: p.params })));
    await loadBest();
  }));
}
