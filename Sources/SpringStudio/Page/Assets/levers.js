"use strict";
// The studio page on the designer's terms (Reference §10.16), loaded before studio.js: the levers
// (free any parameter over its domain or a range, pin it again: POST /api/space) and the
// designer's objective (constraints, targets, minimize or maximize, the confidence its
// constraints are judged sure at: PUT /api/objective). Uses
// studio.js's and learn.js's helpers only when called.

/// The levers table: one row per parameter with a domain, its "free" box and its range.
function buildLevers() {
  const body = $("levers-rows");
  body.replaceChildren();
  for (const p of preset.parameters) {
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
    const now = preset.parameters.find((p) => p.name === row.dataset.lever);
    const scale = now && now.free ? { log: now.log } : {};
    return from ? { name: row.dataset.lever, from: Number(from.value), to: Number(to.value), ...scale } : { name: row.dataset.lever };
  });
}

/// After the levers changed: the new preset answer's sliders, one panel at their start values, the best again.
function applyPreset(answer) {
  preset = answer;
  buildLevers();
  buildAxes();
  setMode(null);
  replacePanels([{ params: Object.fromEntries(preset.axes.map((a) => [a.name, a.preset])) }]);
}

// ---- the designer's objective
function showObjective() {
  const o = preset.objective;
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

function startLevers() {
  buildLevers();
  const metric = $("objective-metric");
  metric.append(new Option("(the preset's default)", ""));
  for (const m of preset.metrics) metric.append(new Option(m.name, m.name));
  showObjective();
  $("apply-levers").addEventListener("click", () => step(async () => {
    applyPreset(await api("POST", "/api/space", { free: leversAsked() }));
    await loadBest();
  }));
  $("apply-objective").addEventListener("click", () => step(async () => {
    preset.objective = await api("PUT", "/api/objective", objectiveAsked());
    showObjective();
    setMode(null);
    replacePanels(panels.map((p) => ({ params: p.params })));
    await loadBest();
  }));
}
