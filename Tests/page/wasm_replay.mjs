// The WebAssembly engine (`make wasm`, Reference §15) against the native one: drives the module
// through a trace as the native engine was driven for `springtune replay --engine` (its
// engine.json: what to start the module with, the samples, every frame's numbers) and compares
// every frame with it, to 1e-9 (relative to the number, absolute below 1). Prints one line
// (frames, decision, largest difference); exit 1 on any difference.
//   node Tests/page/wasm_replay.mjs ENGINE.json [LABEL]
import { readFileSync } from "node:fs";
import { instantiateEngine, driveRecord } from "./engine_module.mjs";

const [recordPath, label = recordPath] = process.argv.slice(2);
const record = JSON.parse(readFileSync(recordPath, "utf8"));
const e = await instantiateEngine();
const fail = (why) => { console.log(`FAIL ${label}: ${why}`); process.exit(1); };

let worst = 0;
try {
  driveRecord(e, record, (k, got) => {
    const [t, ...want] = record.frames[k];
    if (got.length !== want.length) throw new Error(`frame at t = ${t} has ${got.length} numbers, the native engine's ${want.length}`);
    for (let j = 0; j < got.length; j++) {
      const d = Math.abs(got[j] - want[j]) / Math.max(1, Math.abs(want[j]));
      worst = Number.isNaN(d) ? Infinity : Math.max(worst, d);
    }
  });
} catch (error) { fail(error.message); }
const decision = ["dismiss", "keep", "create", "cancel"][e.engineDecision()] ?? null;
console.log(`${label}: ${record.frames.length} frames, decision ${decision ?? "none"}, largest difference ${worst.toExponential(2)}`);
if (decision !== record.decision) fail(`decision ${decision}, the native engine's ${record.decision}`);
process.exit(worst <= 1e-9 && record.frames.length > 0 ? 0 : 1);
