// The engine's WebAssembly module (`make wasm`, Reference §15) under node: SpringCore's exact
// spring step, compiled by Embedded Swift from the native build's own source files, against
// the closed forms of the damped spring written here (node --test Tests/page/; make test builds
// the module first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";

const path = new URL("../../out/wasm/engine.wasm", import.meta.url);
assert.ok(existsSync(path), "out/wasm/engine.wasm is missing: run make wasm first");
const bytes = readFileSync(path);
const math = { exp: Math.exp, cos: Math.cos, sin: Math.sin, cosh: Math.cosh, sinh: Math.sinh, acos: Math.acos,
  log: Math.log, atan2: Math.atan2, atanh: Math.atanh, pow: Math.pow, tanh: Math.tanh };
const { instance } = await WebAssembly.instantiate(bytes, { math });
const { springStepX, springStepV } = instance.exports;

/** x(t), v(t) of ẍ = −ω²x − 2ζωẋ from (x0, v0), ω = 2πf, by cases of ζ. */
function closedForm(f, zeta, t, x0, v0) {
  const w = 2 * Math.PI * f;
  if (zeta < 1) {
    const wd = w * Math.sqrt(1 - zeta * zeta), e = Math.exp(-zeta * w * t);
    const c = Math.cos(wd * t), s = Math.sin(wd * t);
    return [e * (x0 * c + ((v0 + zeta * w * x0) / wd) * s), e * (v0 * c - ((w * w * x0 + zeta * w * v0) / wd) * s)];
  }
  if (zeta === 1) {
    const e = Math.exp(-w * t), k = v0 + w * x0;
    return [e * (x0 + k * t), e * (v0 - w * k * t)];
  }
  const root = w * Math.sqrt(zeta * zeta - 1), r1 = -zeta * w + root, r2 = -zeta * w - root;
  const a = (v0 - r2 * x0) / (r1 - r2), b = x0 - a;
  return [a * Math.exp(r1 * t) + b * Math.exp(r2 * t), r1 * a * Math.exp(r1 * t) + r2 * b * Math.exp(r2 * t)];
}

const near = (got, want) => Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want));

test("the module imports only the page's math functions, and is small", () => {
  const imports = WebAssembly.Module.imports(new WebAssembly.Module(bytes));
  for (const i of imports) assert.ok(i.module === "math" && i.name in math, `unexpected import ${i.module}.${i.name}`);
  assert.ok(bytes.length <= 256 * 1024, `${bytes.length} bytes`);
});

test("one exact step equals the closed form to 1e-9 for every damping regime", () => {
  const cases = [];
  for (const f of [0.5, 2, 8]) for (const zeta of [0, 0.1, 0.5, 0.999, 1, 1.001, 1.5, 3, 20])
    for (const dt of [1 / 120, 1 / 60, 0.25, 1.5]) for (const [x0, v0] of [[100, 0], [-40, 2500], [0, -800]]) cases.push([f, zeta, dt, x0, v0]);
  for (const [f, zeta, dt, x0, v0] of cases) {
    const [x, v] = closedForm(f, zeta, dt, x0, v0);
    const gx = springStepX(f, zeta, dt, x0, v0), gv = springStepV(f, zeta, dt, x0, v0);
    assert.ok(near(gx, x), `x: f ${f}, ζ ${zeta}, τ ${dt}, (${x0}, ${v0}): ${gx} against ${x}`);
    assert.ok(near(gv, v), `v: f ${f}, ζ ${zeta}, τ ${dt}, (${x0}, ${v0}): ${gv} against ${v}`);
  }
  assert.equal(cases.length, 324);
});

test("120 steps of 1/120 s land where one step of 1 s does (the step is exact)", () => {
  let x = 100, v = -300;
  for (let k = 0; k < 120; k++) [x, v] = [springStepX(2, 0.4, 1 / 120, x, v), springStepV(2, 0.4, 1 / 120, x, v)];
  assert.ok(near(x, springStepX(2, 0.4, 1, 100, -300)), `${x}`);
  assert.ok(near(v, springStepV(2, 0.4, 1, 100, -300)), `${v}`);
});

test("a spring out of range gives NaN, as the native initialiser refuses it", () => {
  for (const [f, zeta] of [[0, 0.5], [-1, 0.5], [Infinity, 0.5], [NaN, 0.5], [2, -0.1], [2, Infinity]])
    assert.ok(Number.isNaN(springStepX(f, zeta, 0.1, 1, 0)), `f ${f}, ζ ${zeta}`);
});
