// The engine's WebAssembly module (`make wasm`, Reference §15) as the page instantiates it (the
// page's engine.js: the functions it imports from module "math"), the bytes of
// out/wasm/engine.wasm, and a record-driven run. Shared by the node tests and bench/wasm_frames.mjs.
import { readFileSync, existsSync } from "node:fs";
import { instantiate } from "../../Sources/SpringStudio/Page/Assets/engine.js";

/** The module's bytes; throws when `make wasm` has not run. */
export function engineBytes() {
  const path = new URL("../../out/wasm/engine.wasm", import.meta.url);
  if (!existsSync(path)) throw new Error("out/wasm/engine.wasm is missing: run make wasm first");
  return readFileSync(path);
}

/** A fresh instance of the module: its exports (memory, exchangeArea, startEngine, …). */
export async function instantiateEngine() {
  return instantiate(engineBytes());
}

/**
 * Drives instance `e` through an engine record (`springtune replay --engine`'s engine.json) as
 * the native engine was driven: started with its scene's and model's numbers, then before each
 * frame every sample with t ≤ tₖ + 1e-9 s added; `onFrame(k, values)` sees frame k's numbers (a
 * view into the module's memory, valid until the next call). Throws when the module refuses
 * the numbers or a sample.
 */
export function driveRecord(e, record, onFrame) {
  const start = [...record.scene, ...record.numbers];
  new Float64Array(e.memory.buffer, e.exchangeArea(start.length), start.length).set(start);
  if (e.startEngine(record.engine, record.numbers.length) !== 0) throw new Error(`the module refused engine ${record.engine}'s numbers`);
  let next = 0;
  record.frames.forEach(([t], k) => {
    while (next < record.samples.length && record.samples[next][0] <= t + 1e-9) {
      const [st, x, y, phase, pointer] = record.samples[next++];
      if (e.engineAdd(st, x, y, phase, pointer) !== 0) throw new Error(`the module refused sample ${next}`);
    }
    const n = e.engineFrame(t);
    onFrame(k, new Float64Array(e.memory.buffer, e.exchangeArea(0), n));
  });
}
