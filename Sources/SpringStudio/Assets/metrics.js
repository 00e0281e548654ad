"use strict";
// The studio page's metrics beside a panel or the best set (Reference §10.16): values with units,
// a broken constraint in red, a missed target in amber, the objective as text. Loaded before
// studio.js; uses its helpers (short, withUnit, preset) only when called.

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
