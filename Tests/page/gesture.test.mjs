// The page's live gesture (engine.js) and pictures (pictures.js) under node, on the WebAssembly
// module (make test builds it first). Every bundled preset's traces are checked against the
// native engine and the replay's pictures by Tests/cli/wasm.sh (Tests/page/wasm_replay.mjs);
// these are the page's own rules: frame times, the preview, flow-layout's auto start, the rest.
import { test } from "node:test";
import assert from "node:assert/strict";
import { instantiateEngine } from "./engine_module.mjs";
import { MAX_TAIL, startGesture } from "../../Sources/SpringStudio/Page/Assets/engine.js";
import { picture } from "../../Sources/SpringStudio/Page/Assets/pictures.js";

const e = await instantiateEngine();
const scene = [390, 844, 120, 0.5, 0.2, 0]; // width, height, frame rate, tolerance, tail, estimator
const tweetbot = { kind: 1, scene, numbers: [1.5, 0.7, 60, 800, 90, 0.1, 0.2, 390, 292], allPointers: false };
const evernote = { kind: 0, scene, numbers: [1, 1, 10, 0, 30, 44, 10, 3, 0, 0.55, 0.998, 10 / (2 * Math.PI), 1], allPointers: false };

/// A drag of `n` samples 1/120 s apart from (195, 422) by (dx, dy) per sample, then a lift.
function drag(n, dx, dy, t0 = 50) {
  const out = [];
  for (let i = 0; i < n; i++) out.push({ t: t0 + i / 120, x: 195 + dx * i, y: 422 + dy * i, phase: i === 0 ? "began" : "moved", pointer: 0 });
  out.push({ t: t0 + n / 120, x: 195 + dx * n, y: 422 + dy * n, phase: "ended", pointer: 0 });
  return out;
}

test("frames are at t0 + k/F, each made once a later sample has come; the rest follows the lift", () => {
  const g = startGesture(e, tweetbot), samples = drag(30, 0, 10);
  const made = samples.map((s) => g.add(s));
  assert.equal(made[0], 0, "the first sample completes no frame");
  assert.ok(made.slice(1, -1).every((n) => n === 1), `one frame per sample at the frame rate: ${made}`);
  assert.ok(g.complete);
  g.finish();
  g.frames.forEach((f, k) => assert.ok(Math.abs(f.t - k / 120) < 1e-9, `frame ${k} at ${f.t}`));
  const last = g.frames[g.frames.length - 1];
  assert.ok(last.t > 30 / 120 && last.t - 30 / 120 <= MAX_TAIL + 1e-9);
  assert.equal(e.engineDecision(), 0, "300 pt at 1,200 pt/s: dismiss");
});

test("a preview shows the latest sample and leaves the engine as it was", () => {
  const plain = startGesture(e, evernote), samples = drag(40, 0, -6);
  for (const s of samples) plain.add(s);
  plain.finish();
  const previewed = startGesture(e, evernote);
  const previews = [];
  for (const s of samples) {
    previewed.add(s);
    const p = previewed.preview();
    if (p) previews.push(p);
  }
  previewed.finish();
  assert.deepEqual(previewed.frames.map((f) => f.values), plain.frames.map((f) => f.values));
  assert.equal(previews.length, samples.length - 2, "a preview after every sample but the first (auto is settled at the first frame) and the lift");
  // Each preview is the frame the next one became (no sample came in between).
  previews.forEach((p, i) => assert.deepEqual(p.values, plain.frames[i + 1].values, `preview ${i}`));
});

test("flow-layout's auto start: the top for a drag down, the bottom for a drag up", () => {
  for (const [dy, want] of [[4, 0], [-4, 1]]) {
    const g = startGesture(e, evernote);
    for (const s of drag(10, 0, dy)) g.add(s);
    assert.equal(g.start.numbers[7], want, `drag ${dy} pt per sample`);
  }
});

test("pictures: the photo centred on the frame's centre; the card's place, then the card", () => {
  const photo = picture(tweetbot, [200, 430, 0, 0]);
  assert.deepEqual(photo, [[200 - 195, 430 - 146, 390, 292, 0x3a3a3c]]);
  const card = { kind: 2, scene, numbers: [2, 0.8, 20, 100, 0, 0.5, 1000, 0.8, 16, 200, 358, 420, 1] };
  assert.deepEqual(picture(card, [10, 380, 190, 600]), [[16, 200, 358, 420, 0xd1d1d6], [10, 190, 370, 410, 0x5e9ed6]]);
  const sheet = picture({ kind: 6, scene, numbers: [1, 1, 100, 400, 400, 1200, 40] }, [500]);
  assert.deepEqual(sheet.slice(-2), [[0, 500, 390, 344, 0x3a3a3c], [177, 506, 36, 5, 0x8e8e93]]);
  assert.equal(sheet.length, Math.trunc(844 / 60) + 1 + 2);
});

test("the tail rests only when the motion has: a slow spring is not cut short, a tail of 0 still shows the release", () => {
  const slow = { ...tweetbot, numbers: [0.5, 0.7, ...tweetbot.numbers.slice(2)] };
  for (const tail of [0, 0.2]) {
    const g = startGesture(e, { ...slow, scene: [390, 844, 120, 0.5, tail, 0] });
    for (const s of drag(12, 0, 3)) g.add(s);
    g.finish();
    const atRest = g.frames.find((f) => Math.abs(f.t - g.rest) < 1e-9);
    assert.ok(atRest && g.rest > g.lift, `tail ${tail}: rests at ${g.rest} s after the lift at ${g.lift} s`);
    // 36 pt dragged, kept: at rest the photo is back within a point of its place (195, 422).
    assert.ok(Math.hypot(atRest.values[0] - 195, atRest.values[1] - 422) < 1, `tail ${tail}: ${atRest.values}`);
  }
});

test("fingers: numbered in the order they touch, never reused in a gesture, at most 10; a late lift is kept", async () => {
  const { fingersDown, pointerSamples } = await import("../../Sources/SpringStudio/Page/Assets/touch.js");
  const place = (ev) => ({ x: ev.clientX, y: ev.clientY });
  const ev = (pointerId, timeStamp) => ({ pointerId, timeStamp, clientX: 1, clientY: 2 });
  const f = fingersDown();
  assert.equal(pointerSamples(f, ev(7, 10), "began", place)[0].pointer, 0);
  assert.equal(pointerSamples(f, ev(8, 11), "began", place)[0].pointer, 1);
  pointerSamples(f, ev(7, 12), "ended", place);
  assert.equal(pointerSamples(f, ev(9, 13), "began", place)[0].pointer, 2, "finger 0's number is not given again");
  assert.deepEqual(pointerSamples(f, ev(8, 5), "moved", place), [], "an older move is dropped");
  const lift = pointerSamples(f, ev(8, 5), "ended", place);
  assert.equal(lift.length, 1, "an older lift is kept");
  assert.equal(lift[0].at, 13, "at the last sample's time");
  for (let id = 20; id < 27; id++) pointerSamples(f, ev(id, 14), "began", place);
  assert.deepEqual(pointerSamples(f, ev(99, 15), "began", place), [], "an eleventh finger is not taken");
  assert.deepEqual(pointerSamples(f, ev(99, 16), "moved", place), []);
});

test("a frame rate out of range is refused before any step", () => {
  for (const rate of [0, -120, NaN, Infinity, 5000]) assert.throws(() => startGesture(e, { ...tweetbot, scene: [390, 844, rate, 0.5, 0.2, 0] }), /frame rate/);
});
