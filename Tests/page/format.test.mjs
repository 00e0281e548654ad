// format.js: the page's numbers and units (node --test Tests/page/).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pageModule } from "./page.mjs";

const f = await pageModule("format.js");

test("short: 4 significant digits, no trailing zeros", () => {
  assert.equal(f.short(1), "1");
  assert.equal(f.short(0.5), "0.5");
  assert.equal(f.short(3.14159), "3.142");
  assert.equal(f.short(1234.5678), "1235");
  assert.equal(f.short(123456), "123500");
  assert.equal(f.short(0.1 + 0.2), "0.3");
  assert.equal(f.short(-2.50001), "-2.5");
  assert.equal(f.short(0), "0");
  assert.equal(f.short(-0), "0");
});

test("short: below 0.001 in exponent form, from 0.001 up in decimals", () => {
  assert.equal(f.short(5.439e-6), "5.439e-6");
  assert.equal(f.short(0.0009999), "9.999e-4");
  assert.equal(f.short(0.00099999), "0.001"); // rounds up to 0.001 first
  assert.equal(f.short(0.001), "0.001");
  assert.equal(f.short(-1.23456e-7), "-1.235e-7");
  assert.equal(f.short(1e-300), "1e-300");
});

test("short: anything not a finite number as String", () => {
  assert.equal(f.short(Infinity), "Infinity");
  assert.equal(f.short(NaN), "NaN");
  assert.equal(f.short("inf"), "inf");
  assert.equal(f.short("snap"), "snap");
  assert.equal(f.short(null), "null");
  assert.equal(f.short(undefined), "undefined");
});

test("withUnit: the unit after a space; dimensionless and words bare", () => {
  assert.equal(f.withUnit("4", "Hz"), "4 Hz");
  assert.equal(f.withUnit("0.5", "1"), "0.5");
  assert.equal(f.withUnit("snap", "word"), "snap");
  assert.equal(f.withUnit("3", ""), "3");
  assert.equal(f.withUnit("3", undefined), "3");
  assert.equal(f.withUnit("12", "pt"), "12 pt");
});

test("numberWithUnit: numbers short with their unit, other values bare", () => {
  assert.equal(f.numberWithUnit(4, "Hz"), "4 Hz");
  assert.equal(f.numberWithUnit(0.123456, "s"), "0.1235 s");
  assert.equal(f.numberWithUnit(2e-5, "s"), "2e-5 s");
  assert.equal(f.numberWithUnit("snap", "Hz"), "snap");
  assert.equal(f.numberWithUnit(null, "pt"), "null");
  assert.equal(f.numberWithUnit(3, "1"), "3");
});

test("seconds: fixed decimals and the unit", () => {
  assert.equal(f.seconds(0.6333333, 3), "0.633 s");
  assert.equal(f.seconds(2.855, 3), "2.855 s");
  assert.equal(f.seconds(0, 3), "0.000 s");
  assert.equal(f.seconds(1.5, 2), "1.50 s");
});

test("valueText: never settles, none, or short with its unit", () => {
  assert.equal(f.valueText("inf", "s"), "never settles");
  assert.equal(f.valueText(null, "s"), "—");
  assert.equal(f.valueText(undefined, "s"), "—");
  assert.equal(f.valueText(0.61666, "s"), "0.6167 s");
  assert.equal(f.valueText(12, "1"), "12");
});

test("intervalText: lo–hi, ∞ for an unbounded end, nothing without both bounds", () => {
  assert.equal(f.intervalText({ lo: 0.61666, hi: 1.03, traces: 30, groups: 5 }), "0.6167–1.03");
  assert.equal(f.intervalText({ lo: 2, hi: "inf" }), "2–∞");
  assert.equal(f.intervalText({ lo: null, hi: 1 }), "");
  assert.equal(f.intervalText({ lo: 1, hi: null }), "");
  assert.equal(f.intervalText(undefined), "");
  assert.equal(f.intervalText(null), "");
});

test("axisLabel: name = value with unit; a word axis shows the word", () => {
  assert.equal(f.axisLabel({ name: "frequency", unit: "Hz" }, 4), "frequency = 4 Hz");
  assert.equal(f.axisLabel({ name: "damping", unit: "1" }, 0.5), "damping = 0.5");
  assert.equal(f.axisLabel({ name: "mode", unit: "word", words: ["snap", "glide"] }, "glide"), "mode = glide");
});

test("utilityText: a signed mean and sd to 2 significant digits", () => {
  assert.equal(f.utilityText({ mean: 0.4567, sd: 0.1234 }), "utility +0.46 ± 0.12 vs the preset");
  assert.equal(f.utilityText({ mean: -1.234, sd: 0.05 }), "utility −1.2 ± 0.05 vs the preset");
  assert.equal(f.utilityText({ mean: 0, sd: 1 }), "utility +0 ± 1 vs the preset");
});

test("objectiveText: one line per rule, then the direction and how sure", () => {
  assert.equal(f.objectiveText({ constraints: ["overshoot_pt_p95 <= 0.5"], targets: ["settle_time_p95 = 0.8 ± 0.3"],
    minimize: "settle_time_p95", confidence: 0.95 }),
  "constraint: overshoot_pt_p95 <= 0.5\ntarget: settle_time_p95 = 0.8 ± 0.3\nminimize: settle_time_p95\nsure at: 95 %");
  assert.equal(f.objectiveText({ constraints: [], targets: [], maximize: "x", confidence: null }), "maximize: x");
  assert.equal(f.objectiveText({ constraints: [], targets: [] }), "");
});
