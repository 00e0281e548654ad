// The WebAssembly engine (`make wasm`, Reference §15) as the page runs it, against the native one:
// the record's samples (`springtune replay --engine`'s engine.json: what to start the module
// with, the samples, every frame's numbers and the replay's pictures) are given one by one to the
// page's live gesture (engine.js), as a finger gives them, and its frames are compared with the
// native engine's, every number to 1e-9 (relative to the number, absolute below 1), and its
// pictures (pictures.js) with the replay's, every shape's numbers to 1e-9 and its colour exactly.
// Prints one line (frames, pictures, decision, largest differences); exit 1 on any difference.
//   node Tests/page/wasm_replay.mjs ENGINE.json [LABEL]
import { readFileSync } from "node:fs";
import { instantiateEngine } from "./engine_module.mjs";
import { startGesture } from "../../Sources/SpringStudio/Page/Assets/engine.js";

const [recordPath, label = recordPath] = process.argv.slice(2);
const record = JSON.parse(readFileSync(recordPath, "utf8"));
const e = await instantiateEngine();
const fail = (why) => { console.log(`FAIL ${label}: ${why}`); process.exit(1); };
const difference = (a, b) => { const d = Math.abs(a - b) / Math.max(1, Math.abs(b)); return Number.isNaN(d) ? Infinity : d; };
const PHASES = ["began", "moved", "ended", "cancelled"];

let worst = 0, worstShape = 0, pictures = 0;
const gesture = startGesture(e, { kind: record.engine, scene: record.scene, numbers: record.numbers, allPointers: true });
try {
  for (const [t, x, y, phase, pointer] of record.samples) gesture.add({ t, x, y, phase: PHASES[phase], pointer });
  if (!gesture.complete) throw new Error("the gesture did not end with its samples");
  gesture.finish();
} catch (error) { fail(error.message); }
const t0 = record.samples[0][0], lift = record.samples[record.samples.length - 1][0] - t0, frames = gesture.frames;
const common = Math.min(frames.length, record.frames.length);
if (frames.length === 0 || frames[frames.length - 1].t < Math.min(lift, record.frames[record.frames.length - 1][0] - t0) - 1e-9)
  fail(`the page made ${frames.length} frames, ending before the lift`);
for (let k = 0; k < common; k++) {
  const [t, ...want] = record.frames[k], got = frames[k];
  if (Math.abs(got.t - (t - t0)) > 1e-9) fail(`frame ${k} at ${got.t} s, the native engine's at ${t - t0} s`);
  if (got.values.length !== want.length) fail(`frame ${k} has ${got.values.length} numbers, the native engine's ${want.length}`);
  got.values.forEach((v, j) => { worst = Math.max(worst, difference(v, want[j])); });
}
let k = 0;
for (const [t, shapes] of record.pictures) {
  while (k < frames.length && frames[k].t < t - 1e-9) k++;
  if (k >= frames.length) break;
  if (Math.abs(frames[k].t - t) > 1e-9) fail(`no page frame at the replay's picture at ${t} s`);
  const got = frames[k].shapes;
  if (got.length !== shapes.length) fail(`the picture at ${t} s has ${got.length} shapes, the replay's ${shapes.length}`);
  shapes.forEach((s, i) => {
    if (got[i][4] !== s[4]) fail(`shape ${i} at ${t} s is coloured ${got[i][4].toString(16)}, the replay's ${s[4].toString(16)}`);
    for (let j = 0; j < 4; j++) worstShape = Math.max(worstShape, difference(got[i][j], s[j]));
  });
  pictures++;
}
const decision = ["dismiss", "keep", "create", "cancel"][e.engineDecision()] ?? null;
console.log(`${label}: ${common} frames, ${pictures} pictures, decision ${decision ?? "none"}, largest difference ${worst.toExponential(2)} (numbers), ${worstShape.toExponential(2)} (shapes)`);
if (decision !== record.decision) fail(`decision ${decision}, the native engine's ${record.decision}`);
if (pictures === 0) fail("no picture compared");
process.exit(worst <= 1e-9 && worstShape <= 1e-9 ? 0 : 1);
