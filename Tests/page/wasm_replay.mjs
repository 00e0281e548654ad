// The WebAssembly engine (`make wasm`, Reference §15) against the native one: drives the module
// through a trace as the native engine was driven for `springtune replay --engine` (its
// engine.json: what to start the module with, the samples, every frame's numbers) and compares
// every frame with it, to 1e-9 (relative to the number, absolute below 1). Prints one line
// (frames, decision, largest difference); exit 1 on any difference.
//   node Tests/page/wasm_replay.mjs ENGINE.json [LABEL]
import { readFileSync } from "node:fs";
import { instantiateEngine } from "./engine_module.mjs";

const [recordPath, label = recordPath] = process.argv.slice(2);
const record = JSON.parse(readFileSync(recordPath, "utf8"));
const e = await instantiateEngine();
const decisions = ["dismiss", "keep", "create", "cancel"];
const fail = (why) => { console.log(`FAIL ${label}: ${why}`); process.exit(1); };

const start = [...record.scene, ...record.numbers];
new Float64Array(e.memory.buffer, e.exchangeArea(start.length), start.length).set(start);
if (e.startEngine(record.engine, record.numbers.length) !== 0) fail(`the module refused engine ${record.engine}'s numbers`);

let next = 0, worst = 0;
for (const [t, ...want] of record.frames) {
  while (next < record.samples.length && record.samples[next][0] <= t + 1e-9) {
    const [st, x, y, phase, pointer] = record.samples[next++];
    if (e.engineAdd(st, x, y, phase, pointer) !== 0) fail(`the module refused sample ${next}`);
  }
  const n = e.engineFrame(t);
  if (n !== want.length) fail(`frame at t = ${t} has ${n} numbers, the native engine's ${want.length}`);
  const got = new Float64Array(e.memory.buffer, e.exchangeArea(0), n);
  for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(got[j] - want[j]) / Math.max(1, Math.abs(want[j])));
}
const decision = decisions[e.engineDecision()] ?? null;
console.log(`${label}: ${record.frames.length} frames, decision ${decision ?? "none"}, largest difference ${worst.toExponential(2)}`);
if (decision !== record.decision) fail(`decision ${decision}, the native engine's ${record.decision}`);
process.exit(worst <= 1e-9 && record.frames.length > 0 ? 0 : 1);
