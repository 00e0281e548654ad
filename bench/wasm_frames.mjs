// The WebAssembly engine's time per frame under node (Reference §15), on an engine record
// (`springtune replay --engine`'s engine.json): the module is started with the record's numbers
// and driven through its samples at its frames' times, best of REPETITIONS passes (default 20);
// `springtune bench --engine FILE` times the native engine on the same record.
//   node bench/wasm_frames.mjs ENGINE.json [REPETITIONS]
import { readFileSync } from "node:fs";
import { instantiateEngine } from "../Tests/page/engine_module.mjs";

const [path, reps = "20"] = process.argv.slice(2);
const record = JSON.parse(readFileSync(path, "utf8"));
const e = await instantiateEngine();
const start = [...record.scene, ...record.numbers];
let best = Infinity, sink = 0;
for (let rep = 0; rep < Number(reps); rep++) {
  new Float64Array(e.memory.buffer, e.exchangeArea(start.length), start.length).set(start);
  if (e.startEngine(record.engine, record.numbers.length) !== 0) throw new Error(`${path}: the module refused the record's numbers`);
  let next = 0;
  const t0 = process.hrtime.bigint();
  for (const [t] of record.frames) {
    while (next < record.samples.length && record.samples[next][0] <= t + 1e-9) {
      const [st, x, y, phase, pointer] = record.samples[next++];
      e.engineAdd(st, x, y, phase, pointer);
    }
    const n = e.engineFrame(t);
    sink += n && new Float64Array(e.memory.buffer, e.exchangeArea(0), n)[0]; // read as the page does
  }
  best = Math.min(best, Number(process.hrtime.bigint() - t0));
}
console.log(`${path}: ${record.frames.length} frames, WebAssembly under node ${process.version}, best of ${reps}: ${(best / record.frames.length).toFixed(0)} ns per frame${Number.isFinite(sink) ? "" : " (non-finite frames)"}`);
