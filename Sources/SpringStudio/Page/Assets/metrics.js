// The studio page's metrics beside a panel or the best set (Reference §10.16): values with units
// and their 95 % intervals, a missed constraint in red, a missed target in amber (the server's
// verdicts). The numbers' text comes from format.js.
import { intervalText, short, valueText } from "./format.js";

/// The report row `row` of the preset's `metrics` ({name, unit, better}) into the `<dl>` `list`,
/// coloured by the server's `verdicts` on it (one per rule of the objective: {rule, kind, metric,
/// met, by}): a metric with a missed constraint in red, one with a missed target in amber. The page parses no rule. Under each value with an interval
/// in `intervals` ({COLUMN: {lo, hi, traces, groups}}), its 95 % interval (`dd.interval`, a row of
/// its own so that the values keep their column).
export function showMetrics(list, metrics, row, verdicts, intervals) {
  const missed = (kind, name) => verdicts.some((v) => v.kind === kind && v.metric === name && !v.met);
  list.replaceChildren();
  for (const m of metrics) {
    const v = row[m.name];
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = m.name;
    dt.title = (m.better === "lower" ? "lower" : m.better === "higher" ? "higher" : m.better) + " is better";
    dd.textContent = valueText(v, m.unit);
    const rules = verdicts.filter((r) => r.metric === m.name && !r.met);
    if (rules.length) dt.title += "; missed: " + rules.map((r) => r.rule + (r.by === null ? "" : " (by " + short(r.by) + ")")).join(", ");
    if (missed("constraint", m.name)) { dt.className = dd.className = "broken"; }
    else if (missed("target", m.name)) { dt.className = dd.className = "off-target"; }
    list.append(dt, dd);
    const range = intervalText(intervals && intervals[m.name]);
    if (range) {
      const i = intervals[m.name], under = document.createElement("dd");
      under.className = "interval";
      under.textContent = range;
      under.title = "95 % interval over " + i.groups + (i.groups === 1 ? " group" : " groups") + " (" + i.traces + " traces): who made the traces, resampled";
      list.append(under);
    }
  }
}
