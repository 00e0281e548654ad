// Numbers and units as the studio's page and the session report show them (Reference §10.16),
// defined once here. Pure functions: no DOM, no state; unit-tested under node
// (Tests/page/format.test.mjs). No imports: the session report inlines this file
// (StudioReport.swift).

/// A number as shown on the page: 4 significant digits, no trailing zeros; below 0.001 in
/// exponent form (5.439e-6, not 0.000005439, so that a metric fits its column). Anything that is
/// not a finite number (Infinity, NaN, a word, null) as `String(x)`.
export function short(x) {
  if (!Number.isFinite(x)) return String(x);
  const r = Number(x.toPrecision(4));
  return r !== 0 && Math.abs(r) < 1e-3 ? r.toExponential() : String(r);
}

/// A value's text with its unit; dimensionless ("1") and word values go bare.
export function withUnit(text, unit) { return unit && unit !== "1" && unit !== "word" ? text + " " + unit : text; }

/// A report cell: a number short with its unit, anything else (a word, null) as `short` gives it, bare.
export function numberWithUnit(v, unit) { return typeof v === "number" ? withUnit(short(v), unit) : short(v); }

/// A time in seconds to `digits` decimals: "0.633 s" (the clock, a recording's length).
export function seconds(t, digits) { return t.toFixed(digits) + " s"; }

/// A metric's value: "never settles" for "inf", "—" when there is none, else short with its unit.
export function valueText(v, unit) {
  if (v === "inf") return "never settles";
  if (v === null || v === undefined) return "—";
  return withUnit(short(v), unit);
}

/// "0.617–1.03" of an interval {lo, hi, traces, groups} (null bounds: no interval, "").
export function intervalText(i) {
  if (!i || i.lo === null || i.hi === null) return "";
  const bound = (v) => v === "inf" ? "∞" : short(v);
  return bound(i.lo) + "–" + bound(i.hi);
}

/// "damping = 0.5", "frequency = 4 Hz", "mode = snap": an axis (`{name, unit, words?}`) at `v`.
export function axisLabel(axis, v) { return axis.name + " = " + (axis.words ? v : withUnit(short(v), axis.unit)); }

/// "utility +m ± s vs the preset" to 2 significant digits (units of the model's prior sd).
export function utilityText({ mean, sd }) {
  const two = (x) => String(Number(Math.abs(x).toPrecision(2)));
  return "utility " + (mean < 0 ? "−" : "+") + two(mean) + " ± " + two(sd) + " vs the preset";
}

/// The objective (`{constraints, targets, minimize?, maximize?, confidence?}`) as lines of text.
export function objectiveText(objective) {
  const lines = [];
  for (const c of objective.constraints) lines.push("constraint: " + c);
  for (const t of objective.targets) lines.push("target: " + t);
  if (objective.minimize) lines.push("minimize: " + objective.minimize);
  if (objective.maximize) lines.push("maximize: " + objective.maximize);
  if (typeof objective.confidence === "number") lines.push("sure at: " + short(objective.confidence * 100) + " %");
  return lines.join("\n");
}
