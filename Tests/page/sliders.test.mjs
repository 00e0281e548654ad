// sliders.js: a free parameter's slider position <-> value, linear and log, and word axes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pageModule } from "./page.mjs";

const s = await pageModule("sliders.js");
const linear = { name: "damping", min: 0.5, max: 1.5, log: false };
const log = { name: "snapFrequency", min: 0.2, max: 20, log: true };
const words = { name: "mode", words: ["snap", "glide", "none"] };

test("a slider has SLIDER_STEPS + 1 positions", () => {
  assert.equal(s.SLIDER_STEPS, 1000);
});

test("linear: the ends are min and max, the middle their mean", () => {
  assert.equal(s.toValue(linear, 0), 0.5);
  assert.equal(s.toValue(linear, s.SLIDER_STEPS), 1.5);
  assert.equal(s.toValue(linear, s.SLIDER_STEPS / 2), 1);
  assert.equal(s.toValue(linear, 250), 0.75);
  assert.equal(s.toSlider(linear, 0.5), 0);
  assert.equal(s.toSlider(linear, 1.5), s.SLIDER_STEPS);
  assert.equal(s.toSlider(linear, 1), 500);
});

test("log: the middle is the geometric mean, each step the same ratio", () => {
  assert.equal(s.toValue(log, 0), 0.2);
  assert.equal(s.toValue(log, s.SLIDER_STEPS), 20);
  assert.equal(s.toValue(log, 500), 2); // sqrt(0.2 · 20)
  assert.ok(Math.abs(s.toValue(log, 250) - 0.632456) < 1e-6, String(s.toValue(log, 250)));
  assert.equal(s.toSlider(log, 2), 500);
  assert.equal(s.toSlider(log, 0.2), 0);
  assert.equal(s.toSlider(log, 20), s.SLIDER_STEPS);
});

test("values have 6 significant digits and stay inside [min, max]", () => {
  for (const axis of [linear, log, { min: 1e-3, max: 7, log: true }, { min: -3, max: 3, log: false }]) {
    for (let p = 0; p <= s.SLIDER_STEPS; p++) {
      const v = s.toValue(axis, p);
      assert.ok(v >= axis.min && v <= axis.max, `${v} outside [${axis.min}, ${axis.max}]`);
      assert.equal(v, Number(v.toPrecision(6)));
    }
  }
  assert.equal(s.toValue(linear, -10), 0.5);
  assert.equal(s.toValue(linear, 2 * s.SLIDER_STEPS), 1.5);
});

test("every position comes back from its value (linear and log)", () => {
  for (const axis of [linear, log, { min: 1e-3, max: 7, log: true }, { min: -3, max: 3, log: false }]) {
    for (let p = 0; p <= s.SLIDER_STEPS; p++) assert.equal(s.toSlider(axis, s.toValue(axis, p)), p, `position ${p} on ${JSON.stringify(axis)}`);
  }
});

test("a value between positions goes to the nearest; an axis of one value to 0", () => {
  assert.equal(s.toSlider(linear, 0.50049), 0);
  assert.equal(s.toSlider(linear, 0.50051), 1);
  assert.equal(s.toSlider({ min: 3, max: 3, log: false }, 3), 0);
  assert.equal(s.toSlider({ min: 3, max: 3, log: true }, 3), 0);
});

test("words: the control's value is the word, both ways", () => {
  assert.equal(s.controlToValue(words, "glide"), "glide");
  assert.equal(s.valueToControl(words, "none"), "none");
});

test("numbers through the control: a position string to a value and back", () => {
  assert.equal(s.controlToValue(linear, "500"), 1);
  assert.equal(s.controlToValue(log, "1000"), 20);
  assert.equal(s.valueToControl(log, 2), 500);
  assert.equal(s.valueToControl(linear, 1.5), 1000);
});
