// The engine's WebAssembly module (`make wasm`, Reference §15) under node: SpringCore's exact
// spring step, compiled by Embedded Swift from the native build's own source files, against
// the closed forms of the damped spring written here (node --test Tests/page/; make test builds
// the module first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { engineBytes, instantiateEngine } from "./engine_module.mjs";
import { math } from "../../Sources/SpringStudio/Page/Assets/engine.js";

const bytes = engineBytes();
const { springStepX, springStepV } = await instantiateEngine();

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

// The engines as the page drives them, on what a page could hand them.
const engine = await instantiateEngine();
const scene = (estimator = 0) => [390, 844, 120, 0.5, 5, estimator]; // width, height, rate, tolerance, tail, estimator
const tweetbot = [1.5, 0.7, 60, 800, 90, 0.1, 0.2, 390, 292]; // the preset's numbers (EngineNumbers' order)
const evernote = [1, 1, 10, 0, 30, 44, 10, 0, 0, 0.55, 0.998, 10 / (2 * Math.PI), 1]; // flow-layout, 30 rows, from the top
const start = (kind, numbers, sceneNumbers = scene()) => {
  const all = [...sceneNumbers, ...numbers];
  new Float64Array(engine.memory.buffer, engine.exchangeArea(all.length), all.length).set(all);
  return engine.startEngine(kind, numbers.length);
};
const frame = (t) => { const n = engine.engineFrame(t); return Array.from(new Float64Array(engine.memory.buffer, engine.exchangeArea(0), n)); };

test("a kind, count, spring, scene or estimator out of range is refused and leaves no engine", () => {
  const refused = [[7, tweetbot], [-1, tweetbot], [1, tweetbot.slice(1)], [1, [...tweetbot, 0]],
    ...[[NaN, 0.7], [0, 0.7], [-1, 0.7], [1.5, -0.1], [Infinity, 0.7]].map((bad) => [1, [...bad, ...tweetbot.slice(2)]]),
    [0, evernote.map((v, i) => (i === 4 ? 1e9 : v))], [0, evernote.map((v, i) => (i === 4 ? 2.5 : v))], [0, evernote.map((v, i) => (i === 7 ? 5 : v))],
    [0, evernote.map((v, i) => (i === 10 ? 1 : v))], [1, tweetbot.map((v, i) => (i === 3 ? NaN : v))]];
  for (const [kind, numbers] of refused) {
    assert.equal(start(kind, numbers), 1, `kind ${kind}: ${numbers}`);
    assert.equal(engine.engineFrame(0), 0);
    assert.equal(engine.engineAdd(0, 1, 1, 0, 0), 1);
  }
  for (const sceneNumbers of [scene(4), scene(-1), scene(0.5), [NaN, 844, 120, 0.5, 5, 0]]) assert.equal(start(1, tweetbot, sceneNumbers), 1);
  assert.equal(engine.startEngine(1, -1), 1);
  assert.equal(engine.startEngine(1, 65), 1, "a model takes at most 64 numbers");
  assert.equal(engine.startEngine(1, 2 ** 30), 1);
  assert.equal(engine.exchangeArea(2 ** 21), 0, "an exchange area past 2^20 values is refused");
  for (const n of [-1, 2 ** 31, -(2 ** 31)]) assert.equal(engine.exchangeArea(n), 0, `exchangeArea(${n}) (a negative Int32 in the module)`);
});

test("flow-layout: a frame holds every row's y, the offset, every velocity and anchor; the area grows for 1,000 rows", () => {
  assert.equal(start(0, evernote), 0);
  assert.equal(frame(0).length, 3 * 30 + 1);
  assert.equal(start(0, evernote.map((v, i) => (i === 4 ? 1000 : v))), 0);
  const rows = frame(0);
  assert.equal(rows.length, 3001);
  assert.ok(Math.abs(rows[999] - (22 + 999 * 54)) < 1e-9, `row 999 at ${rows[999]}`); // cᵢ = h/2 + i(h + s) at offset 0
});

test("flick-dismiss: a phase or finger out of range is refused; absurd times and places give finite frames", () => {
  assert.equal(start(1, tweetbot), 0);
  for (const [phase, pointer] of [[4, 0], [-1, 0], [0, 16], [0, -1]]) assert.equal(engine.engineAdd(0, 1, 1, phase, pointer), 1);
  const hostile = [NaN, Infinity, -Infinity, 1e308, -1e308, 5e-324];
  for (const t of hostile) for (const x of hostile) {
    assert.equal(start(1, tweetbot), 0);
    engine.engineAdd(0, 195, 422, 0, 0);
    engine.engineAdd(t, x, x, 1, 0);
    engine.engineAdd(0.1, x, 422, 2, 0);
    for (const at of [0.05, 0.1, 0.2, 1, 10]) for (const v of frame(at)) assert.ok(Number.isFinite(v), `t ${t}, x ${x}: ${frame(at)}`);
    engine.engineGrab(0.5);
    for (const v of frame(0.6)) assert.ok(Number.isFinite(v));
  }
});

test("flick-dismiss: a kept photo springs back and a thrown one decides dismiss; memory stays bounded over many gestures", () => {
  const gesture = (dy, seconds) => {
    assert.equal(start(1, tweetbot), 0);
    for (let i = 0; i <= 12; i++) engine.engineAdd(i * seconds / 12, 195, 422 + dy * i / 12, i === 0 ? 0 : 1, 0);
    engine.engineAdd(seconds + 0.001, 195, 422 + dy, 2, 0);
    return frame(seconds + 0.01);
  };
  gesture(30, 0.5);
  assert.equal(engine.engineDecision(), 1); // keep: 30 pt is under the 60 pt threshold
  const back = frame(20);
  assert.ok(Math.abs(back[0] - 195) < 1e-6 && Math.abs(back[1] - 422) < 1e-6, `at rest ${back}`);
  gesture(300, 0.1);
  assert.equal(engine.engineDecision(), 0); // dismiss: 300 pt at 3000 pt/s
  const pages = engine.memory.buffer.byteLength;
  for (let i = 0; i < 2000; i++) gesture(300, 0.1);
  assert.equal(engine.memory.buffer.byteLength, pages, "the heap grew over 2,000 gestures of the same size");
});
