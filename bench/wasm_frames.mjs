// The WebAssembly engine's time per frame under node (Reference §15), on an engine record
// (`springtune replay --engine`'s engine.json): the module is started with the record's numbers
// and driven through its samples at its frames' times, best of REPETITIONS passes (default 20),
// each frame read out of the module's memory as the page reads it; `springtune bench --engine
// FILE` times the native engine on the same record.
//   node bench/wasm_frames.mjs ENGINE.json [REPETITIONS]
import { readFileSync } from "node:fs";
import { instantiateEngine, driveRecord } from "../Tests/page/engine_module.mjs";

const [path, reps = "20"] = process.argv.slice(2);
const record = JSON.parse(readFileSync(path, "utf8"));
const e = await instantiateEngine();
let best = Infinity, numbers = 0;
for (let rep = 0; rep < Number(reps); rep++) {
  numbers = 0;
  const t0 = process.hrtime.bigint();
  driveRecord(e, record, (k, values) => { numbers += values.length; });
  best = Math.min(best, Number(process.hrtime.bigint() - t0));
}
const frames = Math.max(1, record.frames.length);
console.log(`${path}: ${record.frames.length} frames of ${Math.round(numbers / frames)} numbers, WebAssembly under node ${process.version}, best of ${reps}: ${(best / frames).toFixed(0)} ns per frame`);
