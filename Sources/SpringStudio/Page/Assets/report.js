// The session report (`springtune studio --session FILE --report OUT.html`, Reference §10.16): one
// page with no server and no network. The data is the JSON of #data; the phones are drawn by the
// studio page's own stage.js (interpolated frames, the magnifier). Text goes in with textContent only.
// An inline script of a file:// page cannot import by URL: StudioReport.swift inlines format.js,
// stage.js and this file as one module script, their import lines taken out and `export ` cut
// from their declarations. So the three keep the strict form it checks: imports only at the top,
// one per line, `import { a, b } from "./x.js";` of those files, no `as`; exports only as
// `export function` / `export const` declarations (Tests/page/report_inline.test.mjs).
import { numberWithUnit, short } from "./format.js";
import { drawStage, makeMagnifier } from "./stage.js";

const data = JSON.parse(document.getElementById("data").textContent);
const report = document.getElementById("report");

/// An element `tag` with `text` (and class `className`), appended to `parent` when given.
function el(tag, text, parent, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (className) e.className = className;
  if (parent) parent.append(e);
  return e;
}
const units = Object.fromEntries(data.preset.parameters.map((p) => [p.name, p.unit]));
const metricUnits = Object.fromEntries(data.preset.metrics.map((m) => [m.name, m.unit]));
function values(params) { return Object.entries(params).map(([k, v]) => k + " = " + numberWithUnit(v, units[k])).join(", "); }
function section(title) { const s = el("section", undefined, report); el("h2", title, s); return s; }
function table(parent, header, rows) {
  const t = el("table", undefined, parent), head = el("tr", undefined, el("thead", undefined, t)), body = el("tbody", undefined, t);
  for (const h of header) el("th", h, head);
  for (const row of rows) {
    const tr = el("tr", undefined, body);
    for (const cell of row) {
      const td = el("td", cell.text ?? cell, tr);
      if (cell.className) td.className = cell.className;
    }
  }
  return t;
}

el("p", data.preset.name + " (" + data.preset.model + "), session " + data.session + ", " + data.rounds.length + " answered rounds", report);

{
  const s = section("Objective");
  const o = data.preset.objective, list = el("ul", undefined, s);
  for (const c of o.constraints) el("li", "constraint: " + c, list);
  for (const t of o.targets) el("li", "target: " + t, list);
  if (o.minimize) el("li", "minimize: " + o.minimize, list);
  if (o.maximize) el("li", "maximize: " + o.maximize, list);
}
{
  const s = section("Free parameters");
  table(s, ["parameter", "range", "preset's value"], data.preset.axes.map((a) => [a.name,
    a.words ? a.words.join(" | ") : "[" + short(a.min) + ", " + short(a.max) + "] " + (a.unit === "1" ? "" : a.unit) + (a.log ? " (log)" : ""),
    numberWithUnit(data.preset.parameters.find((p) => p.name === a.name).value, a.unit)]));
}
{
  const s = section("Rounds");
  if (data.rounds.length === 0) el("p", "no answered round yet", s);
  const rows = [];
  for (const r of data.rounds) {
    for (const c of r.candidates) {
      const picked = r.candidate === c.id;
      rows.push([String(r.round), r.trace, String(c.id), values(c.params.values ?? c.params),
        { text: picked ? r.answer : r.answer === "same" ? "no difference" : "", className: picked ? r.answer : "" }]);
    }
  }
  if (rows.length) table(s, ["round", "trace", "candidate", "values", "answer"], rows);
}
{
  const s = section("Best");
  const b = data.best;
  el("p", values(b.params) + " — after " + b.choices + " choices; utility " + short(b.utility.mean) + " ± " + short(b.utility.sd) + " against the preset", s);
  for (const e of b.edges) el("p", "at an end of " + e + "'s range: the optimum may lie beyond it; widen the range", s, "warning");
  const margins = b.margins.distance;
  if (Object.keys(margins).length) {
    table(s, ["parameter", "margin", "what breaks"], Object.keys(margins).map((k) => [k,
      typeof margins[k] === "number" ? numberWithUnit(margins[k], units[k]) : margins[k] + " of the range", b.margins.breaks[k] || "nothing within 25 %"]));
  }
  const missed = (name) => b.verdicts.filter((v) => v.metric === name && !v.met);
  table(s, ["metric", "best", "change against the preset"], data.preset.metrics.map((m) => [
    { text: m.name, className: missed(m.name).length ? "missed" : "" },
    numberWithUnit(b.metrics[m.name], m.unit) + (missed(m.name).length ? " (misses " + missed(m.name).map((v) => v.rule).join(", ") + ")" : ""),
    b.changes[m.name] === undefined ? "—" : (b.changes[m.name] > 0 ? "+" : "") + numberWithUnit(b.changes[m.name], m.unit)]));
  if (b.support.length) {
    el("p", "it rests most on " + b.support.map((r) => "round " + r.round + " (" + r.answer + ": " + r.candidate + ")").join(", "), s);
  }
}
{
  const s = section("The best's motion");
  const panels = data.motion.map((replay) => {
    const article = el("article", undefined, s, "panel");
    el("h3", replay.trace + " — " + replay.kind + (replay.intent ? ", " + replay.intent : ""), article);
    const canvas = el("canvas", undefined, article, "stage");
    const magnifier = makeMagnifier();
    article.append(magnifier.figure);
    return { canvas, magnifier, replay };
  });
  const rest = Math.max(0.001, ...data.motion.map((r) => r.rest));
  const clock = { t: 0, last: null };
  function tick(now) {
    if (clock.last !== null) clock.t += (now - clock.last) / 1000;
    clock.last = now;
    if (clock.t > rest + 0.5) clock.t = 0;
    for (const p of panels) drawStage([p], Math.min(clock.t, rest));
    document.body.dataset.state = "ready";
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
}
